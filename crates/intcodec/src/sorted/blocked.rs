//! [`Blocked`]: long sorted lists cut into blocks with a skip table, so that
//! seek costs a binary search over the blocks plus one block, and select one
//! block, whatever the list's length.
//!
//! # Layout
//!
//! ```text
//!  firsts:  [ x[0], x[B], x[2B], ... ]          first value of each block
//!  offsets: [ 0, o1, o2, ..., total ]           byte offset of each block
//!  bytes:   [ block 0 | block 1 | ... ]
//!  block b: values x[bB .. (b+1)B] delta-coded from x[bB] by the codec
//!           (so its first delta is 0)
//! ```
//!
//! Every block holds exactly `B` values (the last one fewer) and is
//! delta-coded from its own first value, kept in the skip table, so each
//! block is decoded on its own: nothing is carried over from the previous
//! block. The codec is any [`BlockCodec`]: the byte codecs here implement
//! it, and so does [`Bp128`] (D1 delta, `compress_sorted`-compatible
//! blocks; `B = 128` is one BitPacker4x block, `B = 256` one BitPacker8x
//! block or two 4x blocks): a block is unpacked with the SIMD kernels into
//! a stack buffer, then indexed or searched.

use crate::codec::bp128::{Bp128, Delta};
use crate::codec::streamvbyte::StreamVByte;
use crate::codec::varint_gb::VarIntGb;
use crate::codec::vbyte::VByte;
use crate::error::DecodeError;
use crate::traits::{IntCodec, SortedCodec};
use alloc::vec::Vec;

/// What [`Blocked`] needs of a codec: delta-code a block, and select, seek
/// and decode inside one. `prev` is the value before the block's first
/// stored value. Implementations must be checked (return errors, not
/// panic, on bad bytes) like the codecs' own entry points.
pub trait BlockCodec {
    /// A short name, for reports.
    fn name(&self) -> &'static str;
    /// Appends `values` delta-coded from `prev` to `out`.
    fn encode_block(&self, values: &[u32], prev: u32, out: &mut Vec<u8>);
    /// The value at index `i` of a block of `n` values.
    fn select_block(
        &self,
        block: &[u8],
        n: usize,
        prev: u32,
        i: usize,
    ) -> Result<Option<u32>, DecodeError>;
    /// The first index of a block of `n` values whose value is `>= target`.
    fn seek_block(
        &self,
        block: &[u8],
        n: usize,
        prev: u32,
        target: u32,
    ) -> Result<Option<(usize, u32)>, DecodeError>;
    /// Decodes a block of `out.len()` values.
    fn decode_block(&self, block: &[u8], prev: u32, out: &mut [u32]) -> Result<(), DecodeError>;
}

/// The byte codecs: [`IntCodec`] and [`SortedCodec`] give each the same
/// methods, so one body serves all three.
macro_rules! byte_block_codec {
    ($($codec:ty => $name:literal),* $(,)?) => {$(
        impl BlockCodec for $codec {
            fn name(&self) -> &'static str {
                $name
            }
            fn encode_block(&self, values: &[u32], prev: u32, out: &mut Vec<u8>) {
                out.extend_from_slice(&IntCodec::encode_delta_to_vec(self, values, prev));
            }
            fn select_block(
                &self,
                b: &[u8],
                n: usize,
                prev: u32,
                i: usize,
            ) -> Result<Option<u32>, DecodeError> {
                SortedCodec::select(self, b, n, prev, i)
            }
            fn seek_block(
                &self,
                b: &[u8],
                n: usize,
                prev: u32,
                t: u32,
            ) -> Result<Option<(usize, u32)>, DecodeError> {
                SortedCodec::lower_bound(self, b, n, prev, t)
            }
            fn decode_block(&self, b: &[u8], prev: u32, out: &mut [u32]) -> Result<(), DecodeError> {
                IntCodec::decode_delta(self, b, out.len(), prev, out).map(|_| ())
            }
        }
    )*};
}

byte_block_codec!(StreamVByte => "streamvbyte", VByte => "vbyte", VarIntGb => "varintgb");

/// BP128 blocks: each block is one BP128 array (its bit-packed blocks and,
/// for a length that is not a multiple of the layout's block, a VByte
/// tail), D1 delta from the block's `prev`. Select and seek unpack the
/// block (SIMD) into a stack buffer of 256 values (a heap one for longer
/// blocks) and then index it or binary-search it.
impl BlockCodec for Bp128 {
    fn name(&self) -> &'static str {
        "bp128"
    }
    fn encode_block(&self, values: &[u32], prev: u32, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.encode_to_vec(values, Delta::D1, prev));
    }
    fn select_block(
        &self,
        b: &[u8],
        n: usize,
        prev: u32,
        i: usize,
    ) -> Result<Option<u32>, DecodeError> {
        with_unpacked(self, b, n, prev, |v| v.get(i).copied())
    }
    fn seek_block(
        &self,
        b: &[u8],
        n: usize,
        prev: u32,
        t: u32,
    ) -> Result<Option<(usize, u32)>, DecodeError> {
        with_unpacked(self, b, n, prev, |v| {
            let at = v.partition_point(|&x| x < t);
            v.get(at).map(|&x| (at, x))
        })
    }
    fn decode_block(&self, b: &[u8], prev: u32, out: &mut [u32]) -> Result<(), DecodeError> {
        self.decode(b, out.len(), Delta::D1, prev, out).map(|_| ())
    }
}

/// Unpacks a BP128 block of `n` values and hands them to `f`.
fn with_unpacked<T>(
    codec: &Bp128,
    b: &[u8],
    n: usize,
    prev: u32,
    f: impl FnOnce(&[u32]) -> Option<T>,
) -> Result<Option<T>, DecodeError> {
    if n == 0 {
        return Ok(None);
    }
    let mut stack = [0u32; 256];
    if n <= stack.len() {
        codec.decode(b, n, Delta::D1, prev, &mut stack)?;
        return Ok(f(&stack[..n]));
    }
    let v = codec.decode_to_vec(b, n, Delta::D1, prev)?;
    Ok(f(&v))
}

/// Why [`Blocked::from_sorted`] refused its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BlockedError {
    /// The values are not in non-decreasing order: `values[index] <
    /// values[index - 1]`.
    NotSorted {
        /// The first value out of order.
        index: usize,
    },
    /// The block length is not 128 or 256.
    BlockLen(usize),
}

impl core::fmt::Display for BlockedError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BlockedError::NotSorted { index } => {
                write!(
                    f,
                    "values not sorted: value {index} is below the one before"
                )
            }
            BlockedError::BlockLen(b) => write!(f, "block length {b}: use 128 or 256"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BlockedError {}

/// A sorted list in blocks of 128 or 256 values with a skip table (module
/// docs). Built from values, so always valid: reads return `Option`.
///
/// ```
/// use intcodec::sorted::Blocked;
/// use intcodec::vbyte::VByte;
///
/// let ids: Vec<u32> = (0..1_000_000).map(|i| i * 3).collect();
/// let list = Blocked::from_sorted(VByte::new(), &ids, 128)?;
/// assert_eq!(list.select(500_000), Some(1_500_000));
/// assert_eq!(list.seek(1_500_001), Some((500_001, 1_500_003)));
/// assert_eq!(list.seek(u32::MAX), None);
/// # Ok::<(), intcodec::sorted::BlockedError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Blocked<C> {
    codec: C,
    block_len: usize,
    n: usize,
    firsts: Vec<u32>,
    offsets: Vec<usize>,
    bytes: Vec<u8>,
}

impl<C: BlockCodec> Blocked<C> {
    /// Encodes sorted (non-decreasing) `values` in blocks of `block_len`
    /// (128 or 256).
    pub fn from_sorted(codec: C, values: &[u32], block_len: usize) -> Result<Self, BlockedError> {
        if block_len != 128 && block_len != 256 {
            return Err(BlockedError::BlockLen(block_len));
        }
        if let Some(i) = values.windows(2).position(|w| w[1] < w[0]) {
            return Err(BlockedError::NotSorted { index: i + 1 });
        }
        let blocks = values.len().div_ceil(block_len);
        let mut firsts = Vec::with_capacity(blocks);
        let mut offsets = Vec::with_capacity(blocks + 1);
        let mut bytes = Vec::new();
        for block in values.chunks(block_len) {
            firsts.push(block[0]);
            offsets.push(bytes.len());
            codec.encode_block(block, block[0], &mut bytes);
        }
        offsets.push(bytes.len());
        Ok(Blocked {
            codec,
            block_len,
            n: values.len(),
            firsts,
            offsets,
            bytes,
        })
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Bytes of the blocks (the skip table not counted).
    pub fn data_len(&self) -> usize {
        self.bytes.len()
    }

    /// Bytes of the skip table (first value and offset per block).
    pub fn skip_table_len(&self) -> usize {
        self.firsts.len() * 4 + self.offsets.len() * core::mem::size_of::<usize>()
    }

    /// Block `b`: its bytes, first value (the delta base) and value count.
    fn block(&self, b: usize) -> (&[u8], u32, usize) {
        let len = self.block_len.min(self.n - b * self.block_len);
        (
            &self.bytes[self.offsets[b]..self.offsets[b + 1]],
            self.firsts[b],
            len,
        )
    }

    /// The value at index `i`, or `None` if `i >= len()`: one block.
    pub fn select(&self, i: usize) -> Option<u32> {
        if i >= self.n {
            return None;
        }
        let (b, j) = (i / self.block_len, i % self.block_len);
        let (bytes, first, len) = self.block(b);
        // Built by `from_sorted`: the blocks are valid.
        self.codec.select_block(bytes, len, first, j).ok().flatten()
    }

    /// The first index whose value is `>= target`, with the value: a
    /// binary search over the blocks' first values, then one block.
    pub fn seek(&self, target: u32) -> Option<(usize, u32)> {
        // Blocks before `p` start below the target; block `p` (if any)
        // starts at or above it. The answer is in block `p - 1`, or it is
        // block `p`'s first value.
        let p = self.firsts.partition_point(|&f| f < target);
        if p > 0 {
            let (bytes, first, len) = self.block(p - 1);
            if let Ok(Some((j, v))) = self.codec.seek_block(bytes, len, first, target) {
                return Some(((p - 1) * self.block_len + j, v));
            }
        }
        self.firsts.get(p).map(|&f| (p * self.block_len, f))
    }

    /// All values, decoded block by block.
    pub fn to_vec(&self) -> Vec<u32> {
        let mut out = alloc::vec![0u32; self.n];
        for (b, dst) in out.chunks_mut(self.block_len).enumerate() {
            let (bytes, first, _) = self.block(b);
            // Built by `from_sorted`: the blocks are valid.
            let _ = self.codec.decode_block(bytes, first, dst);
        }
        out
    }
}
