//! Operations on a BP128 array without decoding it whole: `select`,
//! `lower_bound`, `insert`, `len` (the upscaledb key study's operations),
//! for [`SortedArray`] and the [`SortedCodec`](crate::SortedCodec) impl.

use super::{call_unpack, kcall, scalar, splat, Bp128, Mode, Prev};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::traits::{IntCodec, SortedSet};
use alloc::vec::Vec;

/// The lanes before block `j` (`j <= n / B`) of the array of `n` values in
/// `bytes` (coded under `mode` from `prev`) and the block's byte offset:
/// blocks `0..j` skipped by the kernel's `skip` (their running value, no
/// values written; Plain and Offset need only the offsets). The width bytes
/// and blocks must have been checked (`scalar::scan_blocks`).
fn skip_to(
    codec: &Bp128,
    bytes: &[u8],
    n: usize,
    mode: Mode,
    prev: u32,
    j: usize,
) -> (Prev, usize) {
    let layout = codec.k.layout;
    let mut lanes = splat(prev);
    let mut pos = n / layout.block_len();
    for &bits in &bytes[..j] {
        let len = layout.block_bytes(bits);
        if !matches!(mode, Mode::Plain | Mode::Offset) {
            lanes = kcall!(codec.k, skip(&bytes[pos..pos + len], bits, mode, &lanes));
        }
        pos += len;
    }
    (lanes, pos)
}

/// The tail values of the array, index `start` on, LEB128 at `bytes[pos..]`
/// (or D1 deltas from `last`, the value before), in order until `f`
/// returns `Some`; checked, with the errors `decode` gives.
fn tail<R>(
    bytes: &[u8],
    n: usize,
    start: usize,
    mode: Mode,
    mut last: u32,
    mut pos: usize,
    mut f: impl FnMut(usize, u32) -> Option<R>,
) -> Result<Option<R>, DecodeError> {
    for i in start..n {
        let (v, len) = crate::codec::vbyte::scalar::one::<u32>(bytes, pos)
            .map_err(|e| scalar::tail_err(e, pos, i))?;
        pos += len;
        last = match mode {
            Mode::Plain | Mode::Offset => v,
            _ => last.wrapping_add(v),
        };
        if let Some(r) = f(i, last) {
            return Ok(Some(r));
        }
    }
    Ok(None)
}

/// Value `i` of the array of `n` values in `bytes` (coded under `mode`
/// from `prev`; blocks checked, see [`skip_to`]): the blocks before its
/// block skipped, then its block unpacked only up to its group (or the
/// tail read up to it). `None` if `i >= n`.
pub(super) fn select(
    codec: &Bp128,
    bytes: &[u8],
    n: usize,
    mode: Mode,
    prev: u32,
    i: usize,
) -> Result<Option<u32>, DecodeError> {
    if i >= n {
        return Ok(None);
    }
    let layout = codec.k.layout;
    let (bl, l) = (layout.block_len(), layout.lanes());
    let m = n / bl;
    let j = i / bl;
    let (lanes, pos) = skip_to(codec, bytes, n, mode, prev, j.min(m));
    if j < m {
        let bits = bytes[j];
        let src = &bytes[pos..pos + layout.block_bytes(bits)];
        return Ok(Some(with_block_buf(bl, |buf| {
            if matches!(mode, Mode::D1 | Mode::Strict) {
                // A prefix sum a group: worth stopping at the group of `i`.
                let groups = i % bl / l + 1;
                kcall!(codec.k, unpack_upto(src, buf, bits, mode, &lanes, groups));
            } else {
                // Cheap groups: the exit branch of a partial unpack would
                // cost more (d4 select 31 -> 29 M/s on the keys suite).
                call_unpack(codec.k, src, buf, bits, mode, &lanes);
            }
            buf[i % bl]
        })));
    }
    tail(bytes, n, m * bl, mode, lanes[l - 1], pos, |at, v| {
        (at == i).then_some(v)
    })
}

/// The first index of the array (as [`select`]'s) whose value is at least
/// `key`, with the value, for sorted values: one block unpacked at a time,
/// binary-searched once its last value reaches `key`. (Skipping blocks by
/// their running value, then unpacking the block that reaches `key` only up
/// to the group that does, measured slower on the keys suite: 18.4 -> 16
/// M/s, the exit branch and the read-back of each group costing more than
/// the groups saved. Two more, measured in one process against this code,
/// best of six alternating passes, 2026-11-30, Zen 3: counting the values
/// below `key` in the unpacked block instead of the binary search, 101 ->
/// 109 ns a search of one 128-value block; the tail through VByte's SIMD
/// `lower_bound` instead of the value-by-value walk that stops at the key,
/// 47 -> 53 ns a `KeySet::contains` on uscensus2000, whose blocks are all
/// tail, about 26 keys.)
pub(super) fn lower_bound(
    codec: &Bp128,
    bytes: &[u8],
    n: usize,
    mode: Mode,
    prev: u32,
    key: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    let k = codec.k;
    let layout = k.layout;
    let (bl, l) = (layout.block_len(), layout.lanes());
    let m = n / bl;
    let mut lanes = splat(prev);
    let mut pos = m;
    if m > 0 {
        let found = with_block_buf(bl, |buf| {
            for j in 0..m {
                let bits = bytes[j];
                let src = &bytes[pos..pos + layout.block_bytes(bits)];
                pos += src.len();
                call_unpack(k, src, buf, bits, mode, &lanes);
                if let Some(r) = lower_bound_in(j * bl, buf, key) {
                    return Some(r);
                }
                lanes = scalar::carry_after(l, buf, mode, &lanes);
            }
            None
        });
        if found.is_some() {
            return Ok(found);
        }
    }
    tail(bytes, n, m * bl, mode, lanes[l - 1], pos, |i, v| {
        (v >= key).then_some((i, v))
    })
}

/// The `prev` a [`SortedArray`] codes from: 0, or the `bitpacking` crate's
/// `None` (`u32::MAX`) in the strict mode.
fn origin(mode: Mode) -> u32 {
    match mode {
        Mode::Strict => u32::MAX,
        _ => 0,
    }
}

/// The lower bound of `key` in the sorted `vals` (index `start` on), if it
/// is there.
#[inline]
pub(super) fn lower_bound_in(start: usize, vals: &[u32], key: u32) -> Option<(usize, u32)> {
    if vals[vals.len() - 1] < key {
        return None;
    }
    let k = vals.partition_point(|&v| v < key);
    Some((start + k, vals[k]))
}

/// Runs `f` on a zeroed buffer of exactly one block (`bl` = 128, 256 or
/// 512 values): zeroing 512 values for a 128-value block cost a `memset`
/// call of 2 KiB a search.
#[inline]
fn with_block_buf<R>(bl: usize, f: impl FnOnce(&mut [u32]) -> R) -> R {
    match bl {
        128 => f(&mut [0u32; 128]),
        256 => f(&mut [0u32; 256]),
        _ => f(&mut [0u32; 512][..bl]),
    }
}

/// A BP128 array (the array format of [`super`], `prev = 0`; in
/// [`DeltaMode::Strict`](super::DeltaMode::Strict) `prev = u32::MAX`, the
/// `bitpacking` crate's `None`, so that a first value 0 costs nothing) with
/// its count,
/// validated once at construction so that every operation is infallible.
/// Delta-coded in the codec's [`DeltaMode`](super::DeltaMode)
/// ([`SortedArray::new`]) or plain ([`SortedArray::new_plain`]).
///
/// - `select(i)`: unpacks block `i / B` up to the group of `i` only (the
///   offset comes from the width bytes); with a delta, the deltas chain,
///   so blocks `0..i / B` are skipped first (their running values summed,
///   no values written: `O(i)`, as the blog's BP128 select).
/// - `lower_bound(t)`: sequential search, one block unpacked at a time and
///   binary-searched once its last value reaches `t`. Assumes sorted values.
/// - `insert(v)`: decodes the whole array and re-encodes it ("insertions
///   require decoding the entire array").
///
/// ```
/// use intcodec::bp128::{Bp128, Layout, SortedArray};
/// use intcodec::SortedSet;
///
/// let keys: Vec<u32> = (0..1000).map(|i| 7 * i + 3).collect();
/// let mut a = SortedArray::new(Bp128::new(Layout::Lanes4), &keys);
/// assert_eq!(a.len(), 1000);
/// assert_eq!(a.select(500), Some(3503));
/// assert_eq!(a.lower_bound(3504), Some((501, 3510)));
/// assert_eq!(a.lower_bound(7000), None);
/// assert_eq!(a.insert(3504), 501);
/// assert_eq!(a.select(501), Some(3504));
/// ```
#[derive(Clone, Debug)]
pub struct SortedArray {
    codec: Bp128,
    /// `Mode::Plain` or the codec's delta mode.
    mode: Mode,
    n: usize,
    bytes: Vec<u8>,
}

impl SortedArray {
    /// Delta-codes `values` from 0 (strict: from `u32::MAX`) (ascending for `lower_bound` and
    /// `insert` to make sense; any values round-trip).
    pub fn new(codec: Bp128, values: &[u32]) -> Self {
        Self::encode(codec, Mode::from(codec.delta_mode()), values)
    }

    /// Encodes `values` without delta coding.
    pub fn new_plain(codec: Bp128, values: &[u32]) -> Self {
        Self::encode(codec, Mode::Plain, values)
    }

    fn encode(codec: Bp128, mode: Mode, values: &[u32]) -> Self {
        let bytes = match mode {
            Mode::Plain => codec.encode_to_vec(values),
            _ => codec.encode_delta_to_vec(values, origin(mode)),
        };
        SortedArray {
            codec,
            mode,
            n: values.len(),
            bytes,
        }
    }

    /// Wraps a delta-coded array (from 0; strict: from `u32::MAX`) of `n`
    /// values, checking that
    /// `bytes` is exactly one valid array.
    pub fn from_encoded(codec: Bp128, bytes: Vec<u8>, n: usize) -> Result<Self, DecodeError> {
        Self::wrap(codec, Mode::from(codec.delta_mode()), bytes, n)
    }

    /// Wraps a plain array of `n` values, checking that `bytes` is exactly
    /// one valid array.
    pub fn from_encoded_plain(codec: Bp128, bytes: Vec<u8>, n: usize) -> Result<Self, DecodeError> {
        Self::wrap(codec, Mode::Plain, bytes, n)
    }

    fn wrap(codec: Bp128, mode: Mode, bytes: Vec<u8>, n: usize) -> Result<Self, DecodeError> {
        let len = codec.encoded_len(&bytes, n)?;
        if len != bytes.len() {
            return Err(DecodeError::new(DecodeErrorKind::Malformed, len, Some(n)));
        }
        Ok(SortedArray {
            codec,
            mode,
            n,
            bytes,
        })
    }

    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The codec.
    pub fn codec(&self) -> Bp128 {
        self.codec
    }

    /// Whether the array is delta-coded (else plain).
    pub fn is_delta(&self) -> bool {
        self.mode != Mode::Plain
    }
}

impl SortedSet for SortedArray {
    fn len(&self) -> usize {
        self.n
    }

    /// The value at index `i`, or `None` past the end.
    fn select(&self, i: usize) -> Option<u32> {
        let prev = origin(self.mode);
        select(&self.codec, &self.bytes, self.n, self.mode, prev, i)
            .expect("validated at construction")
    }

    fn lower_bound(&self, key: u32) -> Option<(usize, u32)> {
        let prev = origin(self.mode);
        lower_bound(&self.codec, &self.bytes, self.n, self.mode, prev, key)
            .expect("validated at construction")
    }

    /// Inserts `value` after any equal values (decode, insert, re-encode);
    /// returns its index.
    fn insert(&mut self, value: u32) -> usize {
        let mut v = self.to_vec();
        let at = v.partition_point(|&x| x <= value);
        v.insert(at, value);
        *self = SortedArray::encode(self.codec, self.mode, &v);
        at
    }

    fn to_vec(&self) -> Vec<u32> {
        let r = match self.mode {
            Mode::Plain => self.codec.decode_to_vec(&self.bytes, self.n),
            _ => self
                .codec
                .decode_delta_to_vec(&self.bytes, self.n, origin(self.mode)),
        };
        r.expect("validated at construction")
    }

    fn compressed_bytes(&self) -> usize {
        self.bytes.len()
    }
}
