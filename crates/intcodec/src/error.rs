//! Error types shared by every codec.

use core::fmt;

/// What went wrong while decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ends before the encoded values do: the control bytes or the
    /// data bytes they announce are missing.
    Truncated,
    /// The output slice cannot hold the requested number of values.
    OutputTooSmall,
    /// A variable-length integer has more bytes than its type allows (VByte:
    /// the continuation bit is set on the 5th byte of a u32 or the 10th of a
    /// u64). `offset` is the value's first byte.
    Overlong,
    /// A variable-length integer's last byte carries bits beyond its type
    /// (VByte: a 5th u32 byte above `0x0F`, a 10th u64 byte above `0x01`).
    /// `offset` is the value's first byte.
    Overflow,
    /// The bytes cannot have been written by the encoder, whatever follows
    /// them: a VarInt-G8IU descriptor that describes no value or a value of
    /// more than four bytes, or a Lucene vint tail longer than 32 bits.
    /// `offset` is the offending byte (the descriptor, or the vint's fifth
    /// byte).
    Malformed,
    /// The operation is not part of this codec's format (for example a
    /// delta decode of a frame-of-reference codec).
    Unsupported,
}

impl DecodeErrorKind {
    /// A short lower-case description, used in messages.
    pub fn describe(self) -> &'static str {
        match self {
            DecodeErrorKind::Truncated => "input truncated",
            DecodeErrorKind::OutputTooSmall => "output buffer too small",
            DecodeErrorKind::Overlong => "varint longer than its type allows",
            DecodeErrorKind::Overflow => "varint value too large for its type",
            DecodeErrorKind::Malformed => "malformed input",
            DecodeErrorKind::Unsupported => "operation not supported by this codec",
        }
    }
}

/// A decoding failure: what went wrong and where.
///
/// `offset` is the byte offset in the input at which decoding failed (for a
/// truncated value, the offset of its first byte; for missing control bytes,
/// the length of the input). `index` is the index of the value being decoded
/// when that is meaningful.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    offset: usize,
    index: Option<usize>,
}

impl DecodeError {
    /// Creates an error of `kind` at byte `offset`, about value `index`.
    pub fn new(kind: DecodeErrorKind, offset: usize, index: Option<usize>) -> Self {
        DecodeError {
            kind,
            offset,
            index,
        }
    }

    /// The kind of error.
    pub fn kind(&self) -> DecodeErrorKind {
        self.kind
    }

    /// The byte offset in the input where decoding failed.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The index of the value being decoded, when known.
    pub fn index(&self) -> Option<usize> {
        self.index
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte offset {}", self.kind.describe(), self.offset)?;
        if let Some(i) = self.index {
            write!(f, " (value index {i})")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DecodeError {}

/// An encoding failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// The output slice is shorter than the encoded form.
    OutputTooSmall {
        /// Bytes the encoded form needs.
        needed: usize,
        /// Bytes the output slice has.
        available: usize,
    },
    /// A bit-packed block's values (or deltas) need more bits than the width
    /// asked for (BP128 `compress_block`).
    BitWidthTooSmall {
        /// Bits the widest value needs.
        needed: u8,
        /// Bits asked for.
        given: u8,
    },
    /// The operation is not part of this codec's format (for example a
    /// delta encode of a frame-of-reference codec).
    Unsupported,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::OutputTooSmall { needed, available } => write!(
                f,
                "output buffer too small: {needed} bytes needed, {available} available"
            ),
            EncodeError::Unsupported => f.write_str("operation not supported by this codec"),
            EncodeError::BitWidthTooSmall { needed, given } => write!(
                f,
                "bit width too small: values need {needed} bits, {given} given"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}
