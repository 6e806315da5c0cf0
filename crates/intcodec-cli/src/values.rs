//! Plain value files: little-endian u32 binary, or decimal text.

use crate::error::{plural, CliError, Detail};
use std::io::Write;

/// Reads little-endian u32 values; the length must be a multiple of 4.
pub(crate) fn parse_binary(bytes: &[u8]) -> Result<Vec<u32>, CliError> {
    let chunks = bytes.chunks_exact(4);
    let rest = chunks.remainder().len();
    if rest != 0 {
        return Err(CliError::at(
            format!(
                "input length {} is not a multiple of 4 (little-endian u32 values): {} at the end",
                plural(bytes.len() as u64, "byte"),
                plural(rest as u64, "trailing byte"),
            ),
            (bytes.len() - rest) as u64,
        ));
    }
    Ok(chunks
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Writes values as little-endian u32.
pub(crate) fn to_binary(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 4);
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// Reads one decimal u32 per line. Spaces, tabs and CR around a value are
/// ignored, and so are blank lines; anything else is an error naming the
/// line (from 1) and the byte offset of the value.
pub(crate) fn parse_text(bytes: &[u8]) -> Result<Vec<u32>, CliError> {
    let mut values = Vec::new();
    let mut start = 0usize;
    for (n, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let line_start = start;
        start += line.len() + 1;
        let Some(first) = line.iter().position(|b| !b.is_ascii_whitespace()) else {
            continue;
        };
        let last = line
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .unwrap_or(first);
        let token = &line[first..=last];
        let offset = (line_start + first) as u64;
        let line_no = n as u64 + 1;
        values.push(parse_u32(token).map_err(|why| {
            CliError::located(
                format!("invalid value {}: {why}", quote(token)),
                offset,
                Detail::Line(line_no),
            )
        })?);
    }
    Ok(values)
}

fn parse_u32(token: &[u8]) -> Result<u32, &'static str> {
    if !token.iter().all(u8::is_ascii_digit) {
        return Err("not a decimal u32");
    }
    token
        .iter()
        .try_fold(0u32, |acc, &d| {
            acc.checked_mul(10)?.checked_add(u32::from(d - b'0'))
        })
        .ok_or("out of range for u32 (0 to 4294967295)")
}

/// The token for a message: quoted, escaped, at most 40 characters.
fn quote(token: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(&token[..token.len().min(MAX)]);
    let ellipsis = if token.len() > MAX { "..." } else { "" };
    format!("{:?}{ellipsis}", text)
}

/// Writes values as decimal text, one per line, each ended by `\n`.
pub(crate) fn to_text(values: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * 11);
    for v in values {
        writeln!(out, "{v}").expect("writing to a Vec cannot fail");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_round_trip() {
        let values = [0, 1, 0x0102_0304, u32::MAX];
        let bytes = to_binary(&values);
        assert_eq!(&bytes[8..12], &[4, 3, 2, 1]);
        assert_eq!(parse_binary(&bytes).unwrap(), values);
        assert_eq!(parse_binary(&[]).unwrap(), Vec::<u32>::new());
    }

    #[test]
    fn binary_length_not_multiple_of_four() {
        for n in [1, 2, 3, 5, 11] {
            let e = parse_binary(&vec![0; n]).unwrap_err();
            let msg = e.to_string();
            assert!(msg.contains("not a multiple of 4"), "{msg}");
            assert_eq!(e.location().unwrap().offset, (n - n % 4) as u64);
        }
    }

    #[test]
    fn text_accepts_whitespace_and_blank_lines() {
        let text = b"\n  7\r\n\t0\n\n4294967295  \n 00012\n  \n";
        assert_eq!(parse_text(text).unwrap(), [7, 0, u32::MAX, 12]);
        assert_eq!(parse_text(b"5").unwrap(), [5]);
        assert_eq!(parse_text(b"").unwrap(), Vec::<u32>::new());
        assert_eq!(parse_text(b" \n\n").unwrap(), Vec::<u32>::new());
    }

    fn text_err(text: &[u8]) -> (String, u64, Detail) {
        let e = parse_text(text).unwrap_err();
        let loc = e.location().unwrap();
        (e.to_string(), loc.offset, loc.detail)
    }

    #[test]
    fn text_errors_name_line_and_offset() {
        let (msg, off, detail) = text_err(b"1\n2\n  x3 \n4\n");
        assert_eq!(
            msg,
            "invalid value \"x3\": not a decimal u32 (at byte offset 6, line 3)"
        );
        assert_eq!((off, detail), (6, Detail::Line(3)));

        let (msg, off, detail) = text_err(b"1\r\n\r\n4294967296\r\n");
        assert!(msg.contains("out of range"), "{msg}");
        assert_eq!((off, detail), (5, Detail::Line(3)));

        for bad in [&b"-1"[..], b"+1", b"1 2", b"1.0", b"0x10", b"\xff"] {
            let (msg, off, detail) = text_err(bad);
            assert!(msg.contains("not a decimal u32"), "{msg}");
            assert_eq!((off, detail), (0, Detail::Line(1)));
        }
        let (msg, _, _) = text_err(&[b'9'; 100]);
        assert!(
            msg.contains("out of range") && msg.contains("...") && msg.len() < 150,
            "{msg}"
        );
    }

    #[test]
    fn text_output() {
        assert_eq!(to_text(&[0, 42, u32::MAX]), b"0\n42\n4294967295\n");
        assert_eq!(to_text(&[]), b"");
        let values: Vec<u32> = (0..500).map(|i| i * 8_589_934 + 3).collect();
        assert_eq!(parse_text(&to_text(&values)).unwrap(), values);
    }
}
