//! Select, seek and insert on Stream VByte streams, without decoding the
//! whole stream (paper §4 and the seek/select experiment of §5).
//!
//! - [`StreamVByte::select_plain`] / [`SortedCodec::select`]: the value at
//!   index `i`. Plain streams skip whole groups by summing the byte counts of
//!   their control bytes (SIMD nibble look-up, 16 control bytes at a time)
//!   and read only `i`'s group; delta streams add the groups before `i`'s
//!   in a SIMD register (a shuffle and an add per group, nothing stored).
//! - [`SortedCodec::lower_bound`]: the first value at or above a target in a
//!   delta-coded (sorted) stream, four values per step (shuffle, SIMD prefix
//!   sum, unsigned compare).
//! - [`SortedCodec::insert`]: inserts a value in order. The control
//!   bytes come first, so one more value shifts every later code: the groups
//!   from the insertion point on are decoded and re-encoded (the tail); the
//!   groups before it are copied as they are.
//!
//! # Checked
//!
//! These take the raw stream and the count `n`, like
//! [`IntCodec::decode`], and are checked the same way: missing control
//! bytes, or missing data bytes of a value they need, give `Truncated` at the
//! offset and index `decode` would report; they never read outside `input`
//! and never panic. Only the part of the stream they read is checked: a
//! `select(2)` on a stream whose 100th value is cut short succeeds. An index
//! `>= n` is `Ok(None)`. Every kernel returns the same result and error.

use super::{control_len, Format, StreamVByte, Variant, F0124, F1234};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::traits::{IntCodec, SortedCodec};
use alloc::vec::Vec;

/// A kernel set's `select`, `select_delta` and `seek_delta` (the
/// kernel-set signatures `SelectFn`, `SelectDeltaFn` and `SeekFn`, written
/// once for the scalar, x86 and NEON sets): `pub(crate)`, generic over the
/// variant `F: Format`, each with the attributes given before it (its docs,
/// the ISA's `#[target_feature]`) and its body, which names the arguments
/// (`|p, i|`, `|p, prev, i|`, `|p, n, prev, target|`; `p` the stream's
/// [`Parts`]).
macro_rules! seek_kernels {
    (
        $(#[$pattr:meta])*
        select: |$p:ident, $i:ident| $select:block
        $(#[$sattr:meta])*
        select_delta: |$p2:ident, $prev2:ident, $i2:ident| $select_delta:block
        $(#[$kattr:meta])*
        seek_delta: |$p3:ident, $n3:ident, $prev3:ident, $target:ident| $seek:block
    ) => {
        $crate::codec::streamvbyte::seek::seek_kernels!(@fn $(#[$pattr])* select(
            $p, $i: usize
        ) -> u32 $select);
        $crate::codec::streamvbyte::seek::seek_kernels!(@fn $(#[$sattr])* select_delta(
            $p2, $prev2: u32, $i2: usize
        ) -> u32 $select_delta);
        $crate::codec::streamvbyte::seek::seek_kernels!(@fn $(#[$kattr])* seek_delta(
            $p3, $n3: usize, $prev3: u32, $target: u32
        ) -> Option<(usize, u32)> $seek);
    };
    (@fn $(#[$attr:meta])* $name:ident($p:ident, $($arg:ident: $t:ty),*) -> $ok:ty $body:block) => {
        $(#[$attr])*
        pub(crate) fn $name<F: $crate::codec::streamvbyte::Format>(
            $p: $crate::codec::streamvbyte::seek::Parts<'_>,
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

fn missing_control(input_len: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Truncated, input_len, Some(input_len * 4))
}

/// A stream split into its control and data parts (`base`: where the data
/// starts in the stream, for error offsets).
#[derive(Clone, Copy)]
pub(crate) struct Parts<'a> {
    pub(crate) ctrl: &'a [u8],
    pub(crate) data: &'a [u8],
    pub(crate) base: usize,
}

impl<'a> Parts<'a> {
    fn of(input: &'a [u8], n: usize) -> Result<Self, DecodeError> {
        let cl = control_len(n);
        if input.len() < cl {
            return Err(missing_control(input.len()));
        }
        let (ctrl, data) = input.split_at(cl);
        Ok(Parts {
            ctrl,
            data,
            base: cl,
        })
    }
}

impl StreamVByte {
    fn bytes_of(&self) -> [u8; 4] {
        match self.variant() {
            Variant::V1234 => F1234::BYTES,
            Variant::V0124 => F0124::BYTES,
        }
    }

    /// The value at index `i` of a plain (not delta-coded) stream of `n`
    /// values; `Ok(None)` if `i >= n`. ([`SortedCodec::select`] is the same
    /// on a delta-coded stream.)
    ///
    /// ```
    /// use intcodec::streamvbyte::StreamVByte;
    /// use intcodec::IntCodec;
    /// let codec = StreamVByte::new();
    /// let bytes = codec.encode_to_vec(&[5, 300, 70_000, 9]);
    /// assert_eq!(codec.select_plain(&bytes, 4, 2)?, Some(70_000));
    /// assert_eq!(codec.select_plain(&bytes, 4, 4)?, None);
    /// # Ok::<(), intcodec::DecodeError>(())
    /// ```
    pub fn select_plain(
        &self,
        input: &[u8],
        n: usize,
        i: usize,
    ) -> Result<Option<u32>, DecodeError> {
        if i >= n {
            return Ok(None);
        }
        let p = Parts::of(input, n)?;
        self.select_parts(p, i).map(Some)
    }

    pub(crate) fn select_parts(&self, p: Parts<'_>, i: usize) -> Result<u32, DecodeError> {
        // SAFETY: the handle's kernel set came from a registry, so this CPU
        // has its ISA (`crate::dispatch`).
        unsafe { (self.k.select)(p, i) }
    }

    pub(crate) fn select_delta_parts(
        &self,
        p: Parts<'_>,
        prev: u32,
        i: usize,
    ) -> Result<u32, DecodeError> {
        // SAFETY: as in `select_parts`.
        unsafe { (self.k.select_delta)(p, prev, i) }
    }

    pub(crate) fn seek_delta_parts(
        &self,
        p: Parts<'_>,
        n: usize,
        prev: u32,
        target: u32,
    ) -> Result<Option<(usize, u32)>, DecodeError> {
        // SAFETY: as in `select_parts`.
        unsafe { (self.k.seek_delta)(p, n, prev, target) }
    }

    /// Decodes values `at.i..at.i + out.len()` of a split stream (scalar),
    /// delta-coded from `at.acc` if `delta`.
    pub(crate) fn decode_parts_range(
        &self,
        p: Parts<'_>,
        out: &mut [u32],
        at: At,
        delta: bool,
    ) -> Result<At, DecodeError> {
        let b = self.bytes_of();
        if delta {
            scalar::decode_range::<true>(b, p, out, at)
        } else {
            scalar::decode_range::<false>(b, p, out, at)
        }
    }
}

/// On a delta-coded stream of `n` values (encoded from `prev`): the value
/// at index `i` (`Ok(None)` if `i >= n`); the first index whose value is
/// `>= target`, and that value (`Ok(None)` if there is none: on a sorted
/// list the lower bound of binary search, on any list the first such index
/// in order); insertion (example there).
///
/// ```
/// use intcodec::streamvbyte::StreamVByte;
/// use intcodec::{IntCodec, SortedCodec};
/// let codec = StreamVByte::new();
/// let ids = [3u32, 7, 19, 20, 1000, 1001];
/// let bytes = codec.encode_delta_to_vec(&ids, 0);
/// assert_eq!(codec.select(&bytes, ids.len(), 0, 4)?, Some(1000));
/// assert_eq!(codec.lower_bound(&bytes, ids.len(), 0, 20)?, Some((3, 20)));
/// assert_eq!(codec.lower_bound(&bytes, ids.len(), 0, 21)?, Some((4, 1000)));
/// assert_eq!(codec.lower_bound(&bytes, ids.len(), 0, 5000)?, None);
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
impl SortedCodec for StreamVByte {
    crate::codec::sorted_queries! {
        select: |codec, input, n, prev, i| {
            let p = Parts::of(input, n)?;
            codec.select_delta_parts(p, prev, i).map(Some)
        },
        lower_bound: |codec, input, n, prev, target| {
            if n == 0 {
                return Ok(None);
            }
            let p = Parts::of(input, n)?;
            codec.seek_delta_parts(p, n, prev, target)
        },
        /// Inserts `value` into the sorted delta-coded stream `stream` of `n`
        /// values (from `prev`), before the first value `>= value`, and returns
        /// its index; the stream then holds `n + 1` values. The groups before the
        /// insertion point are kept, the rest is decoded and re-encoded (see the
        /// module docs). On error `stream` is left unchanged.
        ///
        /// ```
        /// use intcodec::streamvbyte::StreamVByte;
        /// use intcodec::{IntCodec, SortedCodec};
        /// let codec = StreamVByte::new();
        /// let mut bytes = codec.encode_delta_to_vec(&[10, 20, 40], 0);
        /// assert_eq!(codec.insert(&mut bytes, 3, 0, 30)?, 2);
        /// assert_eq!(codec.decode_delta_to_vec(&bytes, 4, 0)?, [10, 20, 30, 40]);
        /// # Ok::<(), intcodec::DecodeError>(())
        /// ```
        insert: |codec, stream, n, prev, value| {
            let p = Parts::of(stream, n)?;
            let at = crate::codec::insertion_index(n, value, |target| {
                codec.seek_delta_parts(p, n, prev, target)
            })?;
            let g = at / 4;
            let bytes = codec.bytes_of();
            // Where group `g` starts and the value before it.
            let pos = scalar_data_len(bytes, &p.ctrl[..g]);
            let before = if g == 0 {
                prev
            } else {
                codec.select_delta_parts(p, prev, 4 * g - 1)?
            };
            let mut tail = alloc::vec![0u32; n - 4 * g + 1];
            let start = At {
                i: 4 * g,
                pos,
                acc: before,
            };
            let end = scalar::decode_range::<true>(bytes, p, &mut tail[..n - 4 * g], start)?;
            tail.copy_within(at - 4 * g..n - 4 * g, at - 4 * g + 1);
            tail[at - 4 * g] = value;
            let enc = codec.encode_delta_to_vec(&tail, before);
            let tail_cl = control_len(tail.len());
            let mut out = Vec::with_capacity(g + pos + enc.len());
            out.extend_from_slice(&p.ctrl[..g]);
            out.extend_from_slice(&enc[..tail_cl]);
            out.extend_from_slice(&p.data[..pos]);
            out.extend_from_slice(&enc[tail_cl..]);
            // Trailing bytes after the stream are kept after it.
            out.extend_from_slice(&p.data[end.pos..]);
            *stream = out;
            Ok(at)
        },
    }
}

fn scalar_data_len(bytes: [u8; 4], ctrl: &[u8]) -> usize {
    ctrl.iter()
        .map(|&k| {
            (0..4)
                .map(|l| bytes[((k >> (2 * l)) & 3) as usize] as usize)
                .sum::<usize>()
        })
        .sum()
}

#[cfg(test)]
mod tests;
