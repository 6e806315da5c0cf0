//! Select, seek and insert on delta-coded VarInt-GB streams (the upscaledb
//! study's "select" and "sequential search", SIMD-accelerated).
//!
//! - [`SortedCodec::select`]: the value at index `i`. Blocks before `i`'s
//!   are skipped by their control bytes: each is shuffled into four lanes
//!   and added to a SIMD accumulator (no prefix sum, nothing stored).
//! - [`SortedCodec::lower_bound`]: the first value at or above a target, a block
//!   at a time (shuffle, SIMD prefix sum, unsigned compare).
//! - [`SortedCodec::insert`]: inserts a value in order by re-encoding the
//!   tail: blocks before the insertion point are kept as they are, the
//!   values from its block on are decoded, the new one inserted, and the
//!   tail encoded again (a value shifts every later value's slot in its
//!   block, so the blocks after it must be rewritten).
//!
//! # Checked
//!
//! Like [`IntCodec::decode`], these take the raw stream and the count `n`
//! and never read outside `input` or panic: a missing control or data byte
//! of a value they need (or a malformed Lucene vint) gives the error
//! `decode` would report, at the same offset and index. Only what they read
//! is checked. An index `>= n` is `Ok(None)`. Every kernel returns the same
//! result and error.

use super::{Format, Layout, LowFirst, Lucene, VarIntGb};
use crate::error::DecodeError;
use crate::traits::{IntCodec, SortedCodec};
use alloc::vec::Vec;

/// A kernel set's `select_delta` and `seek_delta` (the kernel-set
/// signatures `SelectDeltaFn` and `SeekFn`, written once for the scalar,
/// x86 and NEON sets): `pub(crate)`, generic over the layout `F: Format`,
/// each with the attributes given before it (its docs, the ISA's
/// `#[target_feature]`) and its body, which names the arguments
/// (`|input, n, prev, i|`, `|input, n, prev, target|`).
macro_rules! seek_kernels {
    (
        $(#[$sattr:meta])*
        select_delta: |$input:ident, $n:ident, $prev:ident, $i:ident| $select:block
        $(#[$kattr:meta])*
        seek_delta: |$input2:ident, $n2:ident, $prev2:ident, $target:ident| $seek:block
    ) => {
        $crate::codec::varint_gb::seek::seek_kernels!(@fn $(#[$sattr])* select_delta(
            $input: &[u8], $n: usize, $prev: u32, $i: usize
        ) -> u32 $select);
        $crate::codec::varint_gb::seek::seek_kernels!(@fn $(#[$kattr])* seek_delta(
            $input2: &[u8], $n2: usize, $prev2: u32, $target: u32
        ) -> Option<(usize, u32)> $seek);
    };
    (@fn $(#[$attr:meta])* $name:ident($($arg:ident: $t:ty),*) -> $ok:ty $body:block) => {
        $(#[$attr])*
        pub(crate) fn $name<F: $crate::codec::varint_gb::Format>(
            $($arg: $t),*
        ) -> Result<$ok, $crate::error::DecodeError> $body
    };
}
pub(crate) use seek_kernels;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod scalar;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

use scalar::At;

const START: At = At {
    i: 0,
    pos: 0,
    acc: 0,
};

/// On a delta-coded stream of `n` values (encoded from `prev`): the value at
/// index `i` (`Ok(None)` if `i >= n`), the first index whose value is `>=
/// target` with the value (`Ok(None)` if none is), and insertion.
///
/// ```
/// use intcodec::varint_gb::VarIntGb;
/// use intcodec::{IntCodec, SortedCodec};
/// let codec = VarIntGb::new();
/// let ids = [3u32, 7, 19, 20, 1000, 1001];
/// let bytes = codec.encode_delta_to_vec(&ids, 0);
/// assert_eq!(codec.select(&bytes, 6, 0, 4)?, Some(1000));
/// assert_eq!(codec.lower_bound(&bytes, 6, 0, 21)?, Some((4, 1000)));
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
impl SortedCodec for VarIntGb {
    crate::codec::delta_seek! {
        /// Inserts `value` into the sorted delta-coded stream of `n` values
        /// (from `prev`) before the first value `>= value`; returns its index.
        /// Re-encodes the tail from the insertion point's block (module docs);
        /// on error `stream` is unchanged.
        ///
        /// ```
        /// use intcodec::varint_gb::VarIntGb;
        /// use intcodec::{IntCodec, SortedCodec};
        /// let codec = VarIntGb::new();
        /// let mut bytes = codec.encode_delta_to_vec(&[10, 20, 40], 0);
        /// assert_eq!(codec.insert(&mut bytes, 3, 0, 30)?, 2);
        /// assert_eq!(codec.decode_delta_to_vec(&bytes, 4, 0)?, [10, 20, 30, 40]);
        /// # Ok::<(), intcodec::DecodeError>(())
        /// ```
        insert: |codec, stream, n, prev, value| {
            match codec.layout() {
                Layout::LowFirst => codec.insert_with::<LowFirst>(stream, n, prev, value),
                Layout::Lucene => codec.insert_with::<Lucene>(stream, n, prev, value),
            }
        },
    }
}

impl VarIntGb {
    fn insert_with<F: Format>(
        &self,
        stream: &mut Vec<u8>,
        n: usize,
        prev: u32,
        value: u32,
    ) -> Result<usize, DecodeError> {
        let at = crate::codec::insertion_index(n, value, |target| {
            self.lower_bound(stream, n, prev, target)
        })?;
        // Block `at / 4`: where it starts and the value before it.
        let g = at / 4;
        let block = if g == 0 {
            At { acc: prev, ..START }
        } else {
            let first = At { acc: prev, ..START };
            let (hit, pos) = scalar::walk::<F>(stream, n, first, |i, _| i == 4 * g - 1)?;
            At {
                i: 4 * g,
                pos,
                acc: hit.map_or(prev, |(_, v)| v),
            }
        };
        // A value takes at least one byte: `n` read from elsewhere cannot
        // make this allocate more than the stream's length.
        let mut tail = Vec::with_capacity((n - 4 * g).min(stream.len()) + 1);
        let (_, end) = scalar::walk::<F>(stream, n, block, |_, v| {
            tail.push(v);
            false
        })?;
        tail.insert(at - 4 * g, value);
        let enc = self.encode_delta_to_vec(&tail, block.acc);
        let mut out = Vec::with_capacity(block.pos + enc.len() + stream.len() - end);
        out.extend_from_slice(&stream[..block.pos]);
        out.extend_from_slice(&enc);
        out.extend_from_slice(&stream[end..]);
        *stream = out;
        Ok(at)
    }
}

#[cfg(test)]
mod tests;
