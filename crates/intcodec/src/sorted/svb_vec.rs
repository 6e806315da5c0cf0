//! [`SvbVec`]: a growable Stream VByte vector (paper §4: "append new
//! integers to a compressed STREAM VBYTE array without having to recompress
//! the data").
//!
//! # Layout
//!
//! One buffer: a control area of `ctrl_cap` bytes (the first
//! `control_len(n)` in use, the rest zero), then the data bytes.
//!
//! ```text
//!  [ control bytes | spare (zero) | data bytes ]
//!    control_len(n)   ctrl_cap - control_len(n)
//! ```
//!
//! `push` writes the value's data bytes at the end and its 2-bit code into
//! the control area, in place; only when the control area is full is it
//! grown (doubled), which moves the data bytes once — amortised O(1) per
//! value. Nothing already written is re-encoded. [`SvbVec::as_bytes`]
//! closes the spare gap so that the buffer is exactly the standard stream
//! (byte-identical to `encode` / `encode_delta` of the same values).

use crate::codec::streamvbyte::seek::scalar::At;
use crate::codec::streamvbyte::seek::Parts;
use crate::codec::streamvbyte::{control_len, StreamVByte, Variant};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::traits::{IntCodec, SortedCodec, SortedSet};
use alloc::vec::Vec;

/// A Stream VByte vector that grows by appending, plain or delta-coded.
///
/// Validated when built ([`SvbVec::from_bytes`] checks the stream), so its
/// reads return `Option`, never an error.
///
/// ```
/// use intcodec::sorted::SvbVec;
/// use intcodec::streamvbyte::StreamVByte;
/// use intcodec::{IntCodec, SortedSet};
///
/// let codec = StreamVByte::new();
/// let mut v = SvbVec::new_delta(codec, 0);
/// v.extend([3, 7, 19, 20]);
/// v.push(1000);
/// assert_eq!(v.len(), 5);
/// assert_eq!(v.select(4), Some(1000));
/// assert_eq!(v.lower_bound(8), Some((2, 19)));
/// assert_eq!(v.iter().collect::<Vec<_>>(), [3, 7, 19, 20, 1000]);
/// // The bytes are the standard delta-coded stream.
/// let bytes = v.as_bytes().to_vec();
/// assert_eq!(bytes, codec.encode_delta_to_vec(&[3, 7, 19, 20, 1000], 0));
/// let back = SvbVec::from_bytes_delta(codec, &bytes, 5, 0)?;
/// assert_eq!(back.select(2), Some(19));
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SvbVec {
    codec: StreamVByte,
    buf: Vec<u8>,
    ctrl_cap: usize,
    n: usize,
    /// `Some(prev)` for a delta-coded vector (`prev` = the value before the
    /// first), `None` for a plain one.
    base: Option<u32>,
    /// Delta: the last value (or `prev` when empty).
    last: u32,
}

impl SvbVec {
    /// An empty plain vector.
    pub fn new(codec: StreamVByte) -> Self {
        SvbVec {
            codec,
            buf: Vec::new(),
            ctrl_cap: 0,
            n: 0,
            base: None,
            last: 0,
        }
    }

    /// An empty delta-coded vector whose first value will be coded from
    /// `prev`.
    pub fn new_delta(codec: StreamVByte, prev: u32) -> Self {
        SvbVec {
            base: Some(prev),
            last: prev,
            ..Self::new(codec)
        }
    }

    /// A plain vector holding the `n` values of the stream `bytes` (trailing
    /// bytes after the stream are ignored). The whole stream is checked
    /// first: an error if it is truncated.
    pub fn from_bytes(codec: StreamVByte, bytes: &[u8], n: usize) -> Result<Self, DecodeError> {
        Self::load(codec, bytes, n, None)
    }

    /// A delta-coded vector (coded from `prev`) holding the `n` values of
    /// `bytes`.
    pub fn from_bytes_delta(
        codec: StreamVByte,
        bytes: &[u8],
        n: usize,
        prev: u32,
    ) -> Result<Self, DecodeError> {
        Self::load(codec, bytes, n, Some(prev))
    }

    fn load(
        codec: StreamVByte,
        bytes: &[u8],
        n: usize,
        base: Option<u32>,
    ) -> Result<Self, DecodeError> {
        let len = codec.encoded_len(bytes, n)?;
        if bytes.len() < len {
            // The first value whose data is missing, as `decode` reports it.
            return Err(match codec.decode_to_vec(bytes, n) {
                Err(e) => e,
                Ok(_) => DecodeError::new(DecodeErrorKind::Truncated, bytes.len(), None),
            });
        }
        let cl = control_len(n);
        let mut buf = bytes[..len].to_vec();
        // Codes past `n` in the last control byte must be zero for `push`
        // to fill them in.
        if !n.is_multiple_of(4) {
            buf[cl - 1] &= (1u8 << (2 * (n % 4))) - 1;
        }
        let mut v = SvbVec {
            codec,
            buf,
            ctrl_cap: cl,
            n,
            base,
            last: base.unwrap_or(0),
        };
        if let (Some(prev), true) = (base, n > 0) {
            v.last = codec
                .select_delta_parts(v.parts(), prev, n - 1)
                .expect("checked above: the stream is complete");
        }
        Ok(v)
    }

    /// The codec.
    pub fn codec(&self) -> StreamVByte {
        self.codec
    }

    /// `Some(prev)` for a delta-coded vector.
    pub fn delta_base(&self) -> Option<u32> {
        self.base
    }

    /// Bytes of the stream (as [`as_bytes`](Self::as_bytes) would return).
    pub fn encoded_len(&self) -> usize {
        self.buf.len() - (self.ctrl_cap - control_len(self.n))
    }

    pub(crate) fn parts(&self) -> Parts<'_> {
        Parts {
            ctrl: &self.buf[..control_len(self.n)],
            data: &self.buf[self.ctrl_cap..],
            base: self.ctrl_cap,
        }
    }

    /// Appends `v`: its data bytes at the end, its code into the control
    /// area (grown only when full).
    pub fn push(&mut self, v: u32) {
        let stored = match self.base {
            Some(_) => {
                let d = v.wrapping_sub(self.last);
                self.last = v;
                d
            }
            None => v,
        };
        let (code, bytes) = match self.codec.variant() {
            Variant::V1234 => {
                let c =
                    (stored > 0xFF) as u8 + (stored > 0xFFFF) as u8 + (stored > 0xFF_FFFF) as u8;
                (c, c as usize + 1)
            }
            Variant::V0124 => {
                let c = (stored != 0) as u8 + (stored > 0xFF) as u8 + (stored > 0xFFFF) as u8;
                (c, [0, 1, 2, 4][c as usize])
            }
        };
        if self.n.is_multiple_of(4) && control_len(self.n + 1) > self.ctrl_cap {
            self.grow_control();
        }
        self.buf[self.n / 4] |= code << (2 * (self.n % 4));
        self.buf.extend_from_slice(&stored.to_le_bytes()[..bytes]);
        self.n += 1;
    }

    #[cold]
    fn grow_control(&mut self) {
        let cap = (2 * self.ctrl_cap).max(16);
        let extra = cap - self.ctrl_cap;
        self.buf
            .splice(self.ctrl_cap..self.ctrl_cap, core::iter::repeat_n(0, extra));
        self.ctrl_cap = cap;
    }

    /// Appends every value of `values`.
    pub fn extend(&mut self, values: impl IntoIterator<Item = u32>) {
        let it = values.into_iter();
        // A hint, capped: an iterator may claim more than memory holds.
        self.buf
            .reserve(it.size_hint().0.min(1 << 20).saturating_mul(2));
        for v in it {
            self.push(v);
        }
    }

    /// The stream: control bytes then data bytes, exactly what `encode`
    /// (plain) or `encode_delta` (from the base) writes for these values.
    /// Closes the spare room of the control area first (moves the data
    /// bytes once; the next `push` that needs a control byte makes room
    /// again).
    pub fn as_bytes(&mut self) -> &[u8] {
        let cl = control_len(self.n);
        if self.ctrl_cap > cl {
            self.buf.drain(cl..self.ctrl_cap);
            self.ctrl_cap = cl;
        }
        &self.buf
    }

    /// The values, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            vec: self,
            at: At {
                i: 0,
                pos: 0,
                acc: self.base.unwrap_or(0),
            },
            buf: [0; 64],
            len: 0,
            next: 0,
        }
    }
}

impl SortedSet for SvbVec {
    fn len(&self) -> usize {
        self.n
    }

    /// The value at index `i`, or `None` if `i >= len()`.
    fn select(&self, i: usize) -> Option<u32> {
        if i >= self.n {
            return None;
        }
        let r = match self.base {
            Some(prev) => self.codec.select_delta_parts(self.parts(), prev, i),
            None => self.codec.select_parts(self.parts(), i),
        };
        // The stream was checked when built and every push is complete.
        r.ok()
    }

    /// The first index whose value is `>= key`, with the value (the lower
    /// bound, for a sorted vector): Stream VByte's SIMD seek when
    /// delta-coded, a scan when plain.
    fn lower_bound(&self, key: u32) -> Option<(usize, u32)> {
        match self.base {
            Some(prev) => self
                .codec
                .seek_delta_parts(self.parts(), self.n, prev, key)
                .ok()
                .flatten(),
            None => self.iter().enumerate().find(|&(_, v)| v >= key),
        }
    }

    /// Inserts `value` after any equal values; returns its index. Delta:
    /// Stream VByte's `insert_delta` (the groups before the insertion point
    /// are kept, the rest re-encoded); plain: decode, insert, re-encode.
    fn insert(&mut self, value: u32) -> usize {
        // After any equal values: before the first value above `value`.
        let at = match value.checked_add(1) {
            Some(above) => self.lower_bound(above).map_or(self.n, |(i, _)| i),
            None => self.n,
        };
        let n = self.n;
        // The standard stream, without the spare control room.
        self.as_bytes();
        match self.base {
            Some(prev) => {
                self.codec
                    .insert(&mut self.buf, n, prev, value)
                    .expect("validated: the stream is complete");
                if at == n {
                    self.last = value;
                }
            }
            None => {
                let mut values = self.to_vec();
                values.insert(at, value);
                self.buf = self.codec.encode_to_vec(&values);
            }
        }
        self.n = n + 1;
        self.ctrl_cap = control_len(self.n);
        at
    }

    /// The values in a `Vec`. When the control area has no spare room (as
    /// after [`as_bytes`](Self::as_bytes) or `from_bytes`), the buffer is a
    /// standard stream and the codec's SIMD decoder reads it.
    fn to_vec(&self) -> Vec<u32> {
        if self.ctrl_cap == control_len(self.n) {
            let r = match self.base {
                Some(prev) => self.codec.decode_delta_to_vec(&self.buf, self.n, prev),
                None => self.codec.decode_to_vec(&self.buf, self.n),
            };
            // Checked when built: the stream is complete.
            if let Ok(v) = r {
                return v;
            }
        }
        let mut out = Vec::with_capacity(self.n);
        out.extend(self.iter());
        out
    }

    fn compressed_bytes(&self) -> usize {
        self.encoded_len()
    }
}

/// Iterator over an [`SvbVec`], decoding 64 values at a time.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    vec: &'a SvbVec,
    at: At,
    buf: [u32; 64],
    len: usize,
    next: usize,
}

impl Iterator for Iter<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.next == self.len {
            let left = self.vec.n - self.at.i;
            if left == 0 {
                return None;
            }
            let k = left.min(64);
            let r = self.vec.codec.decode_parts_range(
                self.vec.parts(),
                &mut self.buf[..k],
                self.at,
                self.vec.base.is_some(),
            );
            // Checked when built: the stream is complete.
            self.at = r.ok()?;
            self.len = k;
            self.next = 0;
        }
        self.next += 1;
        Some(self.buf[self.next - 1])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.vec.n - self.at.i + (self.len - self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl Extend<u32> for SvbVec {
    fn extend<T: IntoIterator<Item = u32>>(&mut self, iter: T) {
        SvbVec::extend(self, iter)
    }
}
