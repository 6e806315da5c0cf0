//! Operations on a BP128 array without decoding it whole: `select`,
//! `lower_bound`, `insert`, `len` (the upscaledb key study's operations).

use super::{splat, Bp128, Delta, Mode};
use crate::error::DecodeError;
use alloc::vec::Vec;

/// A BP128 array (the array format of [`super`], `initial = 0`) with its
/// count, validated once at construction so that every operation is
/// infallible.
///
/// - `select(i)`: with [`Delta::None`] unpacks only block `i / B` (the
///   offset comes from the width bytes); with a delta, the deltas chain, so
///   it unpacks blocks `0..=i / B` (the blog's BP128 select, `O(i)`).
/// - `lower_bound(t)`: sequential search, one block unpacked at a time and
///   binary-searched once its last value reaches `t`. Assumes sorted values.
/// - `insert(v)`: decodes the whole array and re-encodes it ("insertions
///   require decoding the entire array").
///
/// ```
/// use intcodec::bp128::{Bp128, Delta, Layout, SortedArray};
///
/// let keys: Vec<u32> = (0..1000).map(|i| 7 * i + 3).collect();
/// let mut a = SortedArray::new(Bp128::new(Layout::Lanes4), Delta::D1, &keys);
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
    delta: Delta,
    n: usize,
    bytes: Vec<u8>,
}

impl SortedArray {
    /// Encodes `values` (ascending for `lower_bound` and `insert` to make
    /// sense; any values round-trip).
    pub fn new(codec: Bp128, delta: Delta, values: &[u32]) -> Self {
        SortedArray {
            codec,
            delta,
            n: values.len(),
            bytes: codec.encode_to_vec(values, delta, 0),
        }
    }

    /// Wraps an encoded array of `n` values, checking that `bytes` is
    /// exactly one valid array.
    pub fn from_encoded(
        codec: Bp128,
        delta: Delta,
        bytes: Vec<u8>,
        n: usize,
    ) -> Result<Self, DecodeError> {
        let len = codec.encoded_len(&bytes, n)?;
        if len != bytes.len() {
            return Err(DecodeError::new(
                crate::DecodeErrorKind::Malformed,
                len,
                Some(n),
            ));
        }
        Ok(SortedArray {
            codec,
            delta,
            n,
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

    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The delta mode.
    pub fn delta(&self) -> Delta {
        self.delta
    }

    /// Every value.
    pub fn to_vec(&self) -> Vec<u32> {
        self.codec
            .decode_to_vec(&self.bytes, self.n, self.delta, 0)
            .expect("validated at construction")
    }

    /// Visits blocks `0..=last` in order with their values (chained deltas)
    /// until `f` returns `Some`; then the tail values one by one.
    fn scan<R>(
        &self,
        last_block: usize,
        mut f: impl FnMut(usize, &[u32]) -> Option<R>,
    ) -> Option<R> {
        let k = self.codec.k;
        let layout = k.layout;
        let (bl, l) = (layout.block_len(), layout.lanes());
        let m = self.n / bl;
        let mode = Mode::from(self.delta);
        let mut buf = [0u32; 256];
        let mut prev = splat(0);
        let mut pos = m;
        for j in 0..m.min(last_block.saturating_add(1)) {
            let bits = self.bytes[j];
            let len = layout.block_bytes(bits);
            let dst = &mut buf[..bl];
            super::call_unpack(k, &self.bytes[pos..pos + len], dst, bits, mode, &prev);
            pos += len;
            match mode {
                Mode::Lane => prev[..l].copy_from_slice(&dst[bl - l..]),
                _ => prev = splat(dst[bl - 1]),
            }
            if let Some(r) = f(j * bl, dst) {
                return Some(r);
            }
        }
        if last_block < m {
            return None;
        }
        // The tail: LEB128 values (or D1 deltas from the last block value).
        let mut last = if m == 0 { 0 } else { prev[l - 1] };
        let mut one = [0u32; 1];
        for i in m * bl..self.n {
            let (v, len) = crate::codec::vbyte::scalar::one::<u32>(&self.bytes, pos)
                .expect("validated at construction");
            pos += len;
            one[0] = match mode {
                Mode::Plain | Mode::Offset => v,
                _ => last.wrapping_add(v),
            };
            last = one[0];
            if let Some(r) = f(i, &one) {
                return Some(r);
            }
        }
        None
    }

    /// The value at index `i`, or `None` past the end.
    pub fn select(&self, i: usize) -> Option<u32> {
        if i >= self.n {
            return None;
        }
        let bl = self.codec.block_len();
        let j = i / bl;
        if self.delta == Delta::None && j < self.n / bl {
            let m = self.n / bl;
            let pos = m + self.bytes[..j]
                .iter()
                .map(|&w| self.codec.layout().block_bytes(w))
                .sum::<usize>();
            let bits = self.bytes[j];
            let len = self.codec.layout().block_bytes(bits);
            let mut buf = [0u32; 256];
            super::call_unpack(
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

    /// The first index whose value is `>= target`, with that value; `None`
    /// if every value is smaller.
    pub fn lower_bound(&self, target: u32) -> Option<(usize, u32)> {
        self.scan(usize::MAX, |start, vals| {
            if vals[vals.len() - 1] < target {
                return None;
            }
            let k = vals.partition_point(|&v| v < target);
            Some((start + k, vals[k]))
        })
    }

    /// Inserts `value` after any equal values (decode, insert, re-encode);
    /// returns its index.
    pub fn insert(&mut self, value: u32) -> usize {
        let mut v = self.to_vec();
        let at = v.partition_point(|&x| x <= value);
        v.insert(at, value);
        *self = SortedArray::new(self.codec, self.delta, &v);
        at
    }
}
