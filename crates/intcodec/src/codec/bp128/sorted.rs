//! Operations on a BP128 array without decoding it whole: `select`,
//! `lower_bound`, `insert`, `len` (the upscaledb key study's operations),
//! for [`SortedArray`] and the [`SortedCodec`](crate::SortedCodec) impl.

use super::{call_unpack, scalar, splat, Bp128, Mode};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::traits::{IntCodec, SortedSet};
use alloc::vec::Vec;

/// Visits the full blocks `0..=last_block` of the array of `n` values in
/// `bytes` (coded under `mode` from `prev`) in order with their values
/// (chained deltas) until `f` returns `Some`; then, if `last_block` reaches
/// it, the tail values one by one. The width bytes and blocks must have
/// been checked (`scalar::scan_blocks`); the tail is checked here, with
/// the errors `decode` gives.
pub(super) fn scan<R>(
    codec: &Bp128,
    bytes: &[u8],
    n: usize,
    mode: Mode,
    prev: u32,
    last_block: usize,
    mut f: impl FnMut(usize, &[u32]) -> Option<R>,
) -> Result<Option<R>, DecodeError> {
    let k = codec.k;
    let layout = k.layout;
    let (bl, l) = (layout.block_len(), layout.lanes());
    let m = n / bl;
    let mut buf = [0u32; 512];
    let mut lanes = splat(prev);
    let mut pos = m;
    for j in 0..m.min(last_block.saturating_add(1)) {
        let bits = bytes[j];
        let len = layout.block_bytes(bits);
        let dst = &mut buf[..bl];
        call_unpack(k, &bytes[pos..pos + len], dst, bits, mode, &lanes);
        pos += len;
        match mode {
            Mode::Lane => lanes[..l].copy_from_slice(&dst[bl - l..]),
            _ => lanes = splat(dst[bl - 1]),
        }
        if let Some(r) = f(j * bl, dst) {
            return Ok(Some(r));
        }
    }
    if last_block < m {
        return Ok(None);
    }
    // The tail: LEB128 values (or D1 deltas from the last block value).
    let mut last = lanes[l - 1];
    let mut one = [0u32; 1];
    for i in m * bl..n {
        let (v, len) = crate::codec::vbyte::scalar::one::<u32>(bytes, pos)
            .map_err(|e| scalar::tail_err(e, pos, i))?;
        pos += len;
        one[0] = match mode {
            Mode::Plain | Mode::Offset => v,
            _ => last.wrapping_add(v),
        };
        last = one[0];
        if let Some(r) = f(i, &one) {
            return Ok(Some(r));
        }
    }
    Ok(None)
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

/// A BP128 array (the array format of [`super`], `prev = 0`; in
/// [`DeltaMode::Strict`](super::DeltaMode::Strict) `prev = u32::MAX`, the
/// `bitpacking` crate's `None`, so that a first value 0 costs nothing) with
/// its count,
/// validated once at construction so that every operation is infallible.
/// Delta-coded in the codec's [`DeltaMode`](super::DeltaMode)
/// ([`SortedArray::new`]) or plain ([`SortedArray::new_plain`]).
///
/// - `select(i)`: plain, unpacks only block `i / B` (the offset comes from
///   the width bytes); with a delta, the deltas chain, so it unpacks blocks
///   `0..=i / B` (the blog's BP128 select, `O(i)`).
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

    /// Visits blocks `0..=last` (see [`scan`]); validated at construction.
    fn scan<R>(&self, last_block: usize, f: impl FnMut(usize, &[u32]) -> Option<R>) -> Option<R> {
        scan(
            &self.codec,
            &self.bytes,
            self.n,
            self.mode,
            origin(self.mode),
            last_block,
            f,
        )
        .expect("validated at construction")
    }
}

impl SortedSet for SortedArray {
    fn len(&self) -> usize {
        self.n
    }

    /// The value at index `i`, or `None` past the end.
    fn select(&self, i: usize) -> Option<u32> {
        if i >= self.n {
            return None;
        }
        let bl = self.codec.block_len();
        let j = i / bl;
        if self.mode == Mode::Plain && j < self.n / bl {
            let layout = self.codec.layout();
            let m = self.n / bl;
            let pos = m + self.bytes[..j]
                .iter()
                .map(|&w| layout.block_bytes(w))
                .sum::<usize>();
            let bits = self.bytes[j];
            let len = layout.block_bytes(bits);
            let mut buf = [0u32; 512];
            call_unpack(
                self.codec.k,
                &self.bytes[pos..pos + len],
                &mut buf[..bl],
                bits,
                Mode::Plain,
                &splat(0),
            );
            return Some(buf[i % bl]);
        }
        self.scan(j, |start, vals| {
            (i < start + vals.len()).then(|| vals[i - start])
        })
    }

    fn lower_bound(&self, key: u32) -> Option<(usize, u32)> {
        self.scan(usize::MAX, |start, vals| lower_bound_in(start, vals, key))
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
