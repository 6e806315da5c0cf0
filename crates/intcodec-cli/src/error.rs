//! The one error type of the tool and its one-line message format.
//!
//! Every failure is reported as a single line on stderr:
//!
//! ```text
//! intcodec: error: <what was wrong>
//! intcodec: error: <what was wrong> (at byte offset N)
//! intcodec: error: <what was wrong> (at byte offset N, value index I)
//! intcodec: error: <what was wrong> (at byte offset N, line L)
//! ```
//!
//! `main` adds the `intcodec: error: ` prefix; [`CliError`]'s `Display` is the
//! rest.

use std::fmt;

/// Where in an input an error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Location {
    /// Byte offset in the input file (or stream).
    pub(crate) offset: u64,
    /// A value index or a line number, when known.
    pub(crate) detail: Detail,
}

/// The optional second coordinate of a [`Location`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Detail {
    /// Only the byte offset is known.
    None,
    /// The index (from 0) of the value being decoded.
    Index(u64),
    /// The line number (from 1) in a text input.
    Line(u64),
}

/// A failure of the tool: a message, and where in the input it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CliError {
    message: String,
    location: Option<Location>,
    broken_pipe: bool,
}

impl CliError {
    /// An error with no location in the input (arguments, I/O, ...).
    pub(crate) fn new(message: impl Into<String>) -> Self {
        CliError {
            message: message.into(),
            location: None,
            broken_pipe: false,
        }
    }

    /// The reader of standard output (or of an output pipe) went away
    /// (`EPIPE`, as in `intcodec decode x - | head -2`). `main` ends the tool
    /// quietly with status 0 on it, as Unix filters do, without a message:
    /// the reader asked for no more.
    pub(crate) fn broken_pipe() -> Self {
        CliError {
            message: "broken pipe".into(),
            location: None,
            broken_pipe: true,
        }
    }

    /// Whether this is [`CliError::broken_pipe`].
    pub(crate) fn is_broken_pipe(&self) -> bool {
        self.broken_pipe
    }

    /// An error at byte `offset` of the input.
    pub(crate) fn at(message: impl Into<String>, offset: u64) -> Self {
        Self::located(message, offset, Detail::None)
    }

    /// An error at byte `offset` of the input, with a value index or line.
    pub(crate) fn located(message: impl Into<String>, offset: u64, detail: Detail) -> Self {
        CliError {
            message: message.into(),
            location: Some(Location { offset, detail }),
            broken_pipe: false,
        }
    }

    /// Where the error was found, if it is about a place in the input.
    #[cfg(test)]
    pub(crate) fn location(&self) -> Option<Location> {
        self.location
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The message must stay on one line whatever it quotes.
        for (i, part) in self.message.lines().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(part)?;
        }
        if let Some(loc) = self.location {
            write!(f, " (at byte offset {}", loc.offset)?;
            match loc.detail {
                Detail::None => {}
                Detail::Index(i) => write!(f, ", value index {i}")?,
                Detail::Line(l) => write!(f, ", line {l}")?,
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// `n` and `word`, with an `s` unless `n` is 1: `plural(2, "byte")` is
/// `"2 bytes"`.
pub(crate) fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(CliError::new("bad").to_string(), "bad");
        assert_eq!(CliError::at("bad", 3).to_string(), "bad (at byte offset 3)");
        assert_eq!(
            CliError::located("bad", 3, Detail::Index(9)).to_string(),
            "bad (at byte offset 3, value index 9)"
        );
        assert_eq!(
            CliError::located("bad", 3, Detail::Line(2)).to_string(),
            "bad (at byte offset 3, line 2)"
        );
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(0, "byte"), "0 bytes");
        assert_eq!(plural(1, "byte"), "1 byte");
        assert_eq!(plural(3, "value"), "3 values");
    }

    #[test]
    fn message_kept_on_one_line() {
        assert_eq!(
            CliError::at("first\nsecond\r\nthird", 0).to_string(),
            "first second third (at byte offset 0)"
        );
    }
}
