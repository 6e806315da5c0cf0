//! Reader for the ds2i / PISA `.docs` collection format: a little-endian u32
//! stream of sequences `[n, x_1, ..., x_n]`. The first sequence is `[1, U]`
//! (the number of documents); every later one is a posting list.

use std::fmt;
use std::path::Path;

/// A `.docs` collection: the universe size and the posting lists.
#[derive(Clone, Debug, Default)]
pub struct Collection {
    /// Number of documents (from the leading `[1, U]` sequence).
    pub universe: u32,
    /// The posting lists, in file order.
    pub lists: Vec<Vec<u32>>,
}

/// A malformed `.docs` file.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file's content is malformed at this byte offset.
    Format {
        /// Byte offset of the problem.
        offset: usize,
        /// What was wrong.
        what: &'static str,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Format { offset, what } => write!(f, "{what} at byte offset {offset}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// Parses a `.docs` byte stream.
pub fn parse(bytes: &[u8]) -> Result<Collection, ReadError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(ReadError::Format {
            offset: bytes.len() - bytes.len() % 4,
            what: "length is not a multiple of 4",
        });
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut at = 0usize;
    let mut universe = 0;
    let mut lists = Vec::new();
    while at < words.len() {
        let n = words[at] as usize;
        let end = at + 1 + n;
        if end > words.len() {
            return Err(ReadError::Format {
                offset: at * 4,
                what: "sequence runs past the end of the file",
            });
        }
        let seq = &words[at + 1..end];
        if at == 0 && n == 1 {
            universe = seq[0];
        } else {
            lists.push(seq.to_vec());
        }
        at = end;
    }
    Ok(Collection { universe, lists })
}

/// Reads a `.docs` file.
pub fn read(path: impl AsRef<Path>) -> Result<Collection, ReadError> {
    parse(&std::fs::read(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn le(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn parses_header_and_lists() {
        let c = parse(&le(&[1, 10, 2, 3, 7, 1, 9])).unwrap();
        assert_eq!(c.universe, 10);
        assert_eq!(c.lists, vec![vec![3, 7], vec![9]]);
    }

    #[test]
    fn rejects_overrun_and_odd_length() {
        assert!(matches!(
            parse(&le(&[1, 10, 5, 1])),
            Err(ReadError::Format { offset: 8, .. })
        ));
        assert!(parse(&[1, 0, 0]).is_err());
    }
}
