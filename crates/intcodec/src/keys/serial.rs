//! Serialization of a [`KeySet`] and its checked load.
//!
//! ```text
//!  "IKS4"                      magic and format version (4 bytes)
//!  name_len: u8, name          the block codec's registry name
//!  block_len: LEB128           most keys after the first in a block
//!  n: LEB128 (u64)             key count
//!  blocks: LEB128 (u64)        block count
//!  per block:
//!    gap:   LEB128 u32         first key (block 0), else first - previous last - 1
//!    form:  LEB128 u32         4 * more + form: `more` keys in the block after
//!                              the first (<= block_len), `form` 0 for the
//!                              codec's stream, 1 for runs, 2 for a bitmap
//!                              (runs and bitmaps never when more = 0)
//!    bytes: LEB128 u32         length of the stream that follows
//!    stream                    the `more` keys after the first: the codec's
//!                              stream, delta-coded from the first key,
//!                              runs of consecutive keys (a width byte,
//!                              the runs' starts from the first key in that
//!                              many bytes, the block index of each run's
//!                              first key after the first run's, less one;
//!                              see `runs`), or one bit per key value after
//!                              the first key up to the last (least
//!                              significant bit first)
//!  crc: u32 LE                 CRC-32C (Castagnoli) of every byte before it
//! ```
//!
//! Leaves are not stored: the load regroups the blocks. Older versions
//! are still read: `IKS3` had runs as LEB128 pairs (gap from the key
//! before, length less one), and `IKS2`, before the bitmap form, those
//! runs and `2 * more + runs` in place of `form`; their run blocks are
//! re-encoded on load (in the shortest form). (`IKS1`, before the run
//! form, had `more`; it is refused as another version.) The load decodes
//! every block with the codec's checked decoder, and checks that it uses
//! exactly its bytes, that keys strictly increase (within and across
//! blocks), the counts, and that nothing follows, then the checksum (so a
//! flipped bit in a stream, which may still decode to increasing keys, is
//! an error too); the first failure is a [`LoadError`] naming its byte
//! offset.

use alloc::vec::Vec;
use core::fmt;

use super::leaf::{decode_block, encode_block, Form, Raw};
use super::runs;
use super::{Builder, KeySet, BUF, MAX_BLOCK_LEN};
use crate::crc32c::crc32c;
use crate::error::DecodeErrorKind;
use crate::traits::{KernelChoice, SortedCodec};

const MAGIC: &[u8; 4] = b"IKS4";
/// The version with LEB128 runs (read, not written).
const MAGIC_V3: &[u8; 4] = b"IKS3";
/// The version before the bitmap form (read, not written).
const MAGIC_V2: &[u8; 4] = b"IKS2";

/// What was wrong with a serialized set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// Not `IKS4` (or `IKS3`, `IKS2`): not a key set, or another format
    /// version.
    Magic,
    /// Written with another block codec than the one given.
    Codec,
    /// A block length of 0 or above [`MAX_BLOCK_LEN`].
    BlockLen,
    /// The input ends early.
    Truncated,
    /// A LEB128 number longer than 5 bytes or above `u32::MAX`.
    Varint,
    /// A block with more keys than the block length allows, or counts that
    /// disagree with the header.
    Count,
    /// A block form other than the codec's, runs or a bitmap.
    Form,
    /// A block's stream is invalid for the codec (the codec's error kind).
    Block(DecodeErrorKind),
    /// A block's stream is shorter than its stated length.
    Length,
    /// Keys not strictly increasing (or beyond `u32::MAX`).
    Order,
    /// Bytes after the last block.
    Trailing,
    /// The CRC-32C does not match the content.
    Checksum,
}

/// A failed [`KeySet::from_bytes`]: what and at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// What was wrong.
    pub kind: LoadErrorKind,
    /// The byte offset in the input.
    pub offset: usize,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            LoadErrorKind::Magic => "not a key set of this version (magic IKS3 or IKS2 missing)",
            LoadErrorKind::Codec => "written with another block codec",
            LoadErrorKind::BlockLen => "block length out of range",
            LoadErrorKind::Truncated => "input truncated",
            LoadErrorKind::Varint => "malformed LEB128 number",
            LoadErrorKind::Count => "key count out of range or inconsistent",
            LoadErrorKind::Form => "unknown block form",
            LoadErrorKind::Block(k) => {
                return write!(
                    f,
                    "key set: block stream: {} at byte {}",
                    k.describe(),
                    self.offset
                )
            }
            LoadErrorKind::Length => "block stream shorter than its length",
            LoadErrorKind::Order => "keys not strictly increasing",
            LoadErrorKind::Trailing => "bytes after the last block",
            LoadErrorKind::Checksum => "checksum (CRC-32C) mismatch",
        };
        write!(f, "key set: {what} at byte {}", self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LoadError {}

/// Appends `v` as LEB128.
pub(super) fn put_varint(out: &mut Vec<u8>, v: u32) {
    put_varint64(out, u64::from(v));
}

fn put_varint64(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, kind: LoadErrorKind) -> LoadError {
        LoadError {
            kind,
            offset: self.at,
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], LoadError> {
        if self.b.len() - self.at < n {
            return Err(LoadError {
                kind: LoadErrorKind::Truncated,
                offset: self.b.len(),
            });
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, LoadError> {
        Ok(self.take(1)?[0])
    }

    /// A LEB128 number of at most `max_bytes` bytes and at most `max`.
    fn leb(&mut self, max_bytes: u32, max: u64) -> Result<u64, LoadError> {
        let start = self.at;
        let bad = LoadError {
            kind: LoadErrorKind::Varint,
            offset: start,
        };
        let mut v: u64 = 0;
        for i in 0..max_bytes {
            let byte = self.u8()?;
            let part = u64::from(byte & 0x7F);
            if i == 9 && part > 1 {
                return Err(bad);
            }
            v |= part << (7 * i);
            if byte & 0x80 == 0 {
                return if v <= max { Ok(v) } else { Err(bad) };
            }
        }
        Err(bad)
    }

    fn varint(&mut self) -> Result<u32, LoadError> {
        Ok(self.leb(5, u64::from(u32::MAX))? as u32)
    }

    fn varint64(&mut self) -> Result<u64, LoadError> {
        self.leb(10, u64::MAX)
    }
}

impl<C: SortedCodec + KernelChoice> KeySet<C> {
    /// The set as bytes: a header (magic `IKS3`, the codec's name, block
    /// length, key and block counts), each block (LEB128 header and its
    /// stream: the codec's, runs or a bitmap) and a CRC-32C of everything
    /// before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let name = self.codec.name().as_bytes();
        let mut out = Vec::with_capacity(
            32 + self
                .leaves
                .iter()
                .map(|l| l.bytes.len() + l.blocks() * 5)
                .sum::<usize>(),
        );
        out.extend_from_slice(MAGIC);
        out.push(name.len() as u8);
        out.extend_from_slice(name);
        put_varint(&mut out, self.block_len as u32);
        put_varint64(&mut out, self.len() as u64);
        put_varint64(&mut out, self.block_count() as u64);
        let mut prev: Option<u32> = None;
        for leaf in self.leaves.iter() {
            for b in 0..leaf.blocks() {
                let first = leaf.firsts[b];
                put_varint(&mut out, prev.map_or(first, |p| first - p - 1));
                let form = match leaf.meta[b].form {
                    Form::Codec => 0,
                    Form::Runs => 1,
                    Form::Bitmap => 2,
                };
                put_varint(&mut out, 4 * (u32::from(leaf.meta[b].count) - 1) + form);
                let s = leaf.stream(b);
                put_varint(&mut out, s.len() as u32);
                out.extend_from_slice(s);
                prev = Some(leaf.meta[b].last);
            }
        }
        let crc = crc32c(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Loads a set written by [`KeySet::to_bytes`] with the same codec,
    /// checking everything (every block decoded, exact stream lengths,
    /// strictly increasing keys, counts, trailing bytes, the CRC-32C): any
    /// input gives
    /// the set that was written or an error, never a panic.
    pub fn from_bytes(codec: C, input: &[u8]) -> Result<Self, LoadError> {
        // The content is everything before the 4-byte checksum.
        let bytes = &input[..input.len().saturating_sub(4)];
        let mut r = Reader { b: bytes, at: 0 };
        let magic = r.take(4).map_err(|_| r.err(LoadErrorKind::Magic))?;
        let v2 = magic == MAGIC_V2;
        // Run blocks in LEB128 pairs.
        let old_runs = v2 || magic == MAGIC_V3;
        if magic != MAGIC && !old_runs {
            return Err(LoadError {
                kind: LoadErrorKind::Magic,
                offset: 0,
            });
        }
        let name_at = r.at;
        let name_len = r.u8()? as usize;
        if r.take(name_len)? != codec.name().as_bytes() {
            return Err(LoadError {
                kind: LoadErrorKind::Codec,
                offset: name_at,
            });
        }
        let bl_at = r.at;
        let block_len = r.varint()? as usize;
        if !(1..=MAX_BLOCK_LEN).contains(&block_len) {
            return Err(LoadError {
                kind: LoadErrorKind::BlockLen,
                offset: bl_at,
            });
        }
        let n_at = r.at;
        let n = r.varint64()?;
        let blocks = r.varint64()?;
        let mut out = Builder::new(KeySet::with_block_len(codec, block_len));
        let mut buf = [0u32; BUF];
        let mut again = Vec::new();
        let mut prev: Option<u32> = None;
        let mut total: u64 = 0;
        let mut seen: u64 = 0;
        while r.at < bytes.len() && seen < blocks {
            let block_at = r.at;
            let gap = r.varint()?;
            let first = match prev {
                None => Some(gap),
                Some(p) => p.checked_add(1).and_then(|x| x.checked_add(gap)),
            }
            .ok_or(LoadError {
                kind: LoadErrorKind::Order,
                offset: block_at,
            })?;
            let more_at = r.at;
            let tagged = r.varint()? as usize;
            let (more, tag) = if v2 {
                (tagged >> 1, tagged & 1)
            } else {
                (tagged >> 2, tagged & 3)
            };
            let form = match tag {
                0 => Form::Codec,
                1 => Form::Runs,
                2 => Form::Bitmap,
                _ => {
                    return Err(LoadError {
                        kind: LoadErrorKind::Form,
                        offset: more_at,
                    })
                }
            };
            if more > block_len || (more == 0 && form != Form::Codec) {
                return Err(LoadError {
                    kind: LoadErrorKind::Count,
                    offset: more_at,
                });
            }
            let len_at = r.at;
            let len = r.varint()? as usize;
            if more == 0 && len != 0 {
                return Err(LoadError {
                    kind: LoadErrorKind::Length,
                    offset: len_at,
                });
            }
            let stream_at = r.at;
            let stream = r.take(len)?;
            let count = more + 1;
            let old = old_runs && form == Form::Runs;
            let used = if old {
                buf[0] = first;
                runs::leb128::decode(stream, first, count, &mut buf)
            } else {
                decode_block(&codec, form, stream, first, count, &mut buf)
            }
            .map_err(|e| LoadError {
                kind: LoadErrorKind::Block(e.kind()),
                offset: stream_at + e.offset(),
            })?;
            if used != len {
                return Err(LoadError {
                    kind: LoadErrorKind::Length,
                    offset: stream_at + used,
                });
            }
            if buf[..count].windows(2).any(|w| w[0] >= w[1]) {
                return Err(LoadError {
                    kind: LoadErrorKind::Order,
                    offset: stream_at,
                });
            }
            let (form, stream) = if old {
                again.clear();
                (encode_block(&codec, &buf[..count], &mut again), &again[..])
            } else {
                (form, stream)
            };
            out.push_raw(Raw {
                first,
                last: buf[count - 1],
                count,
                form,
                stream,
            });
            prev = Some(buf[count - 1]);
            total += count as u64;
            seen += 1;
        }
        if seen != blocks {
            // The loop stopped at the end of the input.
            return Err(LoadError {
                kind: LoadErrorKind::Truncated,
                offset: bytes.len(),
            });
        }
        if r.at != bytes.len() {
            return Err(r.err(LoadErrorKind::Trailing));
        }
        if total != n {
            return Err(LoadError {
                kind: LoadErrorKind::Count,
                offset: n_at,
            });
        }
        let stored = u32::from_le_bytes([
            input[r.at],
            input[r.at + 1],
            input[r.at + 2],
            input[r.at + 3],
        ]);
        if stored != crc32c(bytes) {
            return Err(r.err(LoadErrorKind::Checksum));
        }
        Ok(out.finish())
    }
}
