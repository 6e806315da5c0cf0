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
//! `from_sorted` makes every block exactly `B` values (the last one
//! fewer); each is delta-coded from its own first value, kept in the skip
//! table, so each block is decoded on its own: nothing is carried over from
//! the previous block. [`SortedSet::insert`] re-encodes only the block the
//! value goes into (and updates the skip table); a block that reaches `2B`
//! values is split in two. Once blocks differ in length the skip table also
//! keeps each block's first index, and `select` finds its block by binary
//! search instead of `i / B`.
//!
//! The codec is any [`SortedCodec`] (its delta mode): the byte codecs, and
//! [`Bp128`](crate::bp128::Bp128) (D1 delta, `compress_sorted`-compatible
//! blocks; `B = 128` is one BitPacker4x block, `B = 256` one BitPacker8x
//! block or two 4x blocks).

use crate::traits::{KernelChoice, SortedCodec, SortedSet};
use alloc::vec::Vec;

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
/// use intcodec::bp128::{Bp128, Layout};
/// use intcodec::sorted::Blocked;
/// use intcodec::SortedSet;
///
/// let ids: Vec<u32> = (0..1_000_000).map(|i| i * 3).collect();
/// let mut list = Blocked::from_sorted(Bp128::new(Layout::Lanes4), &ids, 128)?;
/// assert_eq!(list.select(500_000), Some(1_500_000));
/// assert_eq!(list.lower_bound(1_500_001), Some((500_001, 1_500_003)));
/// assert_eq!(list.lower_bound(u32::MAX), None);
/// assert_eq!(list.insert(1_500_001), 500_001);
/// assert_eq!(list.select(500_002), Some(1_500_003));
/// # Ok::<(), intcodec::sorted::BlockedError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Blocked<C> {
    codec: C,
    block_len: usize,
    n: usize,
    firsts: Vec<u32>,
    offsets: Vec<usize>,
    /// The first index of each block and `n`; empty while every block but
    /// the last holds `block_len` values (then block `b` starts at
    /// `b * block_len`).
    starts: Vec<usize>,
    bytes: Vec<u8>,
}

impl<C: SortedCodec + KernelChoice> Blocked<C> {
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
            bytes.extend_from_slice(&codec.encode_delta_to_vec(block, block[0]));
        }
        offsets.push(bytes.len());
        Ok(Blocked {
            codec,
            block_len,
            n: values.len(),
            firsts,
            offsets,
            starts: Vec::new(),
            bytes,
        })
    }

    /// The codec.
    pub fn codec(&self) -> C {
        self.codec
    }

    /// Bytes of the blocks (the skip table not counted).
    pub fn data_len(&self) -> usize {
        self.bytes.len()
    }

    /// Bytes of the skip table (first value and offset per block, and the
    /// first index per block once blocks differ in length).
    pub fn skip_table_len(&self) -> usize {
        self.firsts.len() * 4
            + (self.offsets.len() + self.starts.len()) * core::mem::size_of::<usize>()
    }

    /// The first index of block `b` (`b` up to the block count: then `n`).
    #[inline]
    fn start(&self, b: usize) -> usize {
        if self.starts.is_empty() {
            (b * self.block_len).min(self.n)
        } else {
            self.starts[b]
        }
    }

    /// Block `b`: its bytes, first value (the delta base) and value count.
    fn block(&self, b: usize) -> (&[u8], u32, usize) {
        (
            &self.bytes[self.offsets[b]..self.offsets[b + 1]],
            self.firsts[b],
            self.start(b + 1) - self.start(b),
        )
    }

    /// Decodes block `b`.
    fn decode_block(&self, b: usize) -> Vec<u32> {
        let (bytes, first, len) = self.block(b);
        // Built by this type: the blocks are valid.
        self.codec
            .decode_delta_to_vec(bytes, len, first)
            .expect("valid block")
    }

    /// Replaces blocks `b..b + 1` by `values` cut in blocks of at most
    /// `2 * block_len - 1` values (halves of `block_len` when it is longer).
    fn replace_block(&mut self, b: usize, values: &[u32]) {
        if self.starts.is_empty() {
            self.starts = (0..=self.firsts.len()).map(|j| self.start(j)).collect();
        }
        let parts: Vec<&[u32]> = if values.len() >= 2 * self.block_len {
            let (x, y) = values.split_at(self.block_len);
            alloc::vec![x, y]
        } else {
            alloc::vec![values]
        };
        let mut coded = Vec::new();
        let mut firsts = Vec::new();
        let mut offsets = Vec::new();
        let mut starts = Vec::new();
        let mut at = self.starts[b];
        for part in &parts {
            firsts.push(part[0]);
            offsets.push(self.offsets[b] + coded.len());
            starts.push(at);
            at += part.len();
            coded.extend_from_slice(&self.codec.encode_delta_to_vec(part, part[0]));
        }
        let (lo, hi) = (self.offsets[b], self.offsets[b + 1]);
        let grow = coded.len() as isize - (hi - lo) as isize;
        self.bytes.splice(lo..hi, coded);
        for o in &mut self.offsets[b + 1..] {
            *o = o.wrapping_add_signed(grow);
        }
        let added = values.len() - (self.starts[b + 1] - self.starts[b]);
        for s in &mut self.starts[b + 1..] {
            *s += added;
        }
        self.firsts.splice(b..=b, firsts);
        self.offsets.splice(b..=b, offsets);
        self.starts.splice(b..=b, starts);
        self.n += added;
    }
}

impl<C: SortedCodec + KernelChoice> SortedSet for Blocked<C> {
    fn len(&self) -> usize {
        self.n
    }

    /// One block (found by `i / B`, or by binary search once blocks differ
    /// in length).
    fn select(&self, i: usize) -> Option<u32> {
        if i >= self.n {
            return None;
        }
        let b = if self.starts.is_empty() {
            i / self.block_len
        } else {
            self.starts.partition_point(|&s| s <= i) - 1
        };
        let (bytes, first, len) = self.block(b);
        // Built by this type: the blocks are valid.
        self.codec
            .select(bytes, len, first, i - self.start(b))
            .ok()
            .flatten()
    }

    /// A binary search over the blocks' first values, then one block.
    fn lower_bound(&self, key: u32) -> Option<(usize, u32)> {
        // Blocks before `p` start below the key; block `p` (if any) starts
        // at or above it. The answer is in block `p - 1`, or it is block
        // `p`'s first value.
        let p = self.firsts.partition_point(|&f| f < key);
        if p > 0 {
            let (bytes, first, len) = self.block(p - 1);
            if let Ok(Some((j, v))) = self.codec.lower_bound(bytes, len, first, key) {
                return Some((self.start(p - 1) + j, v));
            }
        }
        self.firsts.get(p).map(|&f| (self.start(p), f))
    }

    /// Re-encodes only the block `value` goes into (the last one whose first
    /// value is `<= value`, else the first), splitting it when it reaches
    /// `2 * B` values, and updates the skip table.
    fn insert(&mut self, value: u32) -> usize {
        if self.n == 0 {
            *self = Self::from_sorted(self.codec, &[value], self.block_len)
                .expect("one value, a valid block length");
            return 0;
        }
        let b = self
            .firsts
            .partition_point(|&f| f <= value)
            .saturating_sub(1);
        let mut values = self.decode_block(b);
        let at = values.partition_point(|&x| x <= value);
        values.insert(at, value);
        let start = self.start(b);
        self.replace_block(b, &values);
        start + at
    }

    /// Block by block.
    fn to_vec(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.n);
        for b in 0..self.firsts.len() {
            let (bytes, first, len) = self.block(b);
            let at = out.len();
            out.resize(at + len, 0);
            // Built by this type: the blocks are valid.
            let _ = self.codec.decode_delta(bytes, len, first, &mut out[at..]);
        }
        out
    }

    /// The blocks and the skip table.
    fn compressed_bytes(&self) -> usize {
        self.data_len() + self.skip_table_len()
    }
}
