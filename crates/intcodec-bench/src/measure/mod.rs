//! Prepared bucket data, the timed passes and their correctness checks.
//!
//! # Method (Stream VByte paper §5)
//!
//! The lists of one length bucket are concatenated; each list is cut into
//! chunks of at most [`CHUNK`] values, and every chunk is an independent
//! stream (delta chunks start from the previous chunk's last value, the
//! first chunk of a list from 0). Streams of one codec are stored back to
//! back in one buffer, like an in-memory index, with slack at the end. A pass
//! decodes every chunk in order into one reusable [`CHUNK`]-value buffer
//! (L1-resident), or encodes every chunk into one reusable byte buffer, or
//! copies every chunk of the raw ids into the value buffer (memcpy, the
//! physical reference).
//!
//! # Checks
//!
//! A wrong kernel must never look fast, so every measured (codec, op) is
//! checked twice:
//!
//! - **Full check** (untimed, before timing): the whole output of a pass is
//!   hashed with [`checksum`] (position-sensitive; any single wrong value
//!   changes it) and compared with the hash of the source data, computed once
//!   per bucket. Encoders are checked by decoding what they wrote with the
//!   same codec's decoder (itself checked against the source).
//! - **Light check** (every timed pass): the first and last value of each
//!   decoded chunk and the bytes consumed (for encoders: bytes written and the
//!   first and last byte of each stream) are folded into a [`Light`] value
//!   that must equal the one of the full check. It costs O(1) per chunk, so
//!   it does not disturb the timing, but a kernel that skips work fails it.

mod codec;

pub use codec::{ByteLen, Codec, Label, CHUNK};
use std::hint::black_box;

/// An operation measured on a bucket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Decode the gaps as plain values (no prefix sum).
    Decode,
    /// Decode the gaps and rebuild the ids (prefix sum).
    DecodeDelta,
    /// Encode the gaps as plain values.
    Encode,
    /// Encode the ids as deltas.
    EncodeDelta,
    /// Copy the raw ids (memcpy).
    Copy,
    /// `seek` suite: the first value >= a target in a delta-coded array.
    Seek,
    /// `seek` suite: the value at an index of a delta-coded array.
    Select,
    /// Another suite's operation, by name (`varint`: `decode4`, ...).
    Named(&'static str),
}

impl Op {
    /// The codec operations, in report order.
    pub const CODEC_OPS: [Op; 4] = [Op::Decode, Op::DecodeDelta, Op::Encode, Op::EncodeDelta];

    /// The name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::DecodeDelta => "decode_delta",
            Op::Encode => "encode",
            Op::EncodeDelta => "encode_delta",
            Op::Copy => "copy",
            Op::Seek => "seek",
            Op::Select => "select",
            Op::Named(n) => n,
        }
    }

    /// Whether this is a delta op ([`Op::DecodeDelta`], [`Op::EncodeDelta`]).
    pub fn is_delta(self) -> bool {
        matches!(self, Op::DecodeDelta | Op::EncodeDelta)
    }
}

/// Position-sensitive hash of a value sequence, extending `h`:
/// `h' = (h + v + 1) * P` for each value (mod 2^64, `P` odd). Two sequences
/// of the same length that differ in a single value always hash differently
/// (the difference is `d * P^k` with `0 < |d| < 2^32`, never 0 mod 2^64).
#[inline]
pub fn checksum(mut h: u64, values: &[u32]) -> u64 {
    const P: u64 = 0x9E37_79B9_7F4A_7C15;
    for &v in values {
        h = h.wrapping_add(u64::from(v) + 1).wrapping_mul(P);
    }
    h
}

/// The O(1)-per-chunk check of a timed pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Light {
    /// Wrapping sum over chunks of `first << 32 | last` (values) or
    /// `first << 8 | last` (bytes of a stream).
    pub ends: u64,
    /// Total bytes consumed or written.
    pub bytes: u64,
}

/// A chunk of values' part of [`Light::ends`]: `first << 32 | last` (0
/// when empty).
#[inline]
pub(crate) fn value_ends(v: &[u32]) -> u64 {
    match (v.first(), v.last()) {
        (Some(&a), Some(&b)) => (u64::from(a) << 32) | u64::from(b),
        _ => 0,
    }
}

/// A stream's part of [`Light::ends`]: `first << 8 | last` (0 when empty).
#[inline]
pub(crate) fn byte_ends(v: &[u8]) -> u64 {
    match (v.first(), v.last()) {
        (Some(&a), Some(&b)) => (u64::from(a) << 8) | u64::from(b),
        _ => 0,
    }
}

/// One chunk of a bucket (`repr(C)`: the C/C++ peers' passes read the
/// chunk array in place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Chunk {
    /// Index of its first value in [`Bucket::ids`] / [`Bucket::gaps`].
    pub start: usize,
    /// Number of values (1 ..= [`CHUNK`]).
    pub len: usize,
    /// The id before the chunk (0 at the start of a list).
    pub prev: u32,
}

/// The lists of one length bucket, ready to measure.
#[derive(Clone, Debug)]
pub struct Bucket {
    /// Lists have lengths `2^k ..= 2^(k+1) - 1`.
    pub k: u32,
    /// Number of lists.
    pub lists: usize,
    /// All lists, concatenated.
    pub ids: Vec<u32>,
    /// Their gaps (`ids[i] - ids[i-1]`, wrapping; from 0 at a list's start).
    pub gaps: Vec<u32>,
    /// The chunks, in order.
    pub chunks: Vec<Chunk>,
    /// [`checksum`] of `ids` (what every delta decode must produce).
    pub sum_ids: u64,
    /// [`checksum`] of `gaps` (what every plain decode must produce).
    pub sum_gaps: u64,
    ends_ids: u64,
    ends_gaps: u64,
}

impl Bucket {
    /// Prepares `lists` (any order of values is accepted; gaps wrap).
    pub fn new(k: u32, lists: &[Vec<u32>]) -> Bucket {
        let total: usize = lists.iter().map(Vec::len).sum();
        let mut ids = Vec::with_capacity(total);
        let mut gaps = Vec::with_capacity(total);
        let mut chunks = Vec::with_capacity(total / CHUNK + lists.len());
        for list in lists {
            let mut prev = 0u32;
            for part in list.chunks(CHUNK) {
                chunks.push(Chunk {
                    start: ids.len(),
                    len: part.len(),
                    prev,
                });
                for &v in part {
                    gaps.push(v.wrapping_sub(prev));
                    prev = v;
                }
                ids.extend_from_slice(part);
            }
        }
        let mut b = Bucket {
            k,
            lists: lists.len(),
            sum_ids: checksum(0, &ids),
            sum_gaps: checksum(0, &gaps),
            ids,
            gaps,
            chunks,
            ends_ids: 0,
            ends_gaps: 0,
        };
        for c in &b.chunks {
            b.ends_ids = b
                .ends_ids
                .wrapping_add(value_ends(&b.ids[c.start..][..c.len]));
            b.ends_gaps = b
                .ends_gaps
                .wrapping_add(value_ends(&b.gaps[c.start..][..c.len]));
        }
        b
    }

    /// Number of values.
    pub fn ints(&self) -> usize {
        self.ids.len()
    }
}

/// One codec's streams for every chunk of a bucket, back to back (empty:
/// `Encoded::default()`, for ops a codec does not support); in the `short`
/// suite, its streams of equal-length lists.
#[derive(Clone, Debug, Default)]
pub struct Encoded {
    /// The streams, then slack (so that every stream is followed by at least
    /// the codec's `max_encoded_len(CHUNK)` readable bytes; in the `short`
    /// suite, `max_encoded_len` of a list's length).
    pub bytes: Vec<u8>,
    /// Start of each chunk's (list's) stream.
    pub offsets: Vec<usize>,
    /// Total stream bytes (without the slack).
    pub total: u64,
}

impl Encoded {
    /// Stream bits per value.
    pub fn bits_per_int(&self, ints: usize) -> f64 {
        if ints == 0 {
            0.0
        } else {
            self.total as f64 * 8.0 / ints as f64
        }
    }
}

/// The buffers every pass and check reuses from chunk to chunk: values to
/// decode into and bytes to encode into, each the size of one chunk's
/// largest output. Both start on a 64-byte boundary, as the C peers' own
/// buffers (`alignas(64)` in `peer-c/shim.cpp`): where a buffer starts
/// decides how many of a kernel's wide stores split a cache line, and the
/// Rust contenders and the C ones should not differ in that.
#[derive(Clone, Debug)]
pub struct Buffers {
    /// [`CHUNK`] values.
    pub values: Aligned<u32>,
    /// The largest `max_encoded_len(CHUNK)` of the codecs they were made for.
    pub bytes: Aligned<u8>,
}

impl Buffers {
    /// Buffers for any of `codecs`.
    pub fn new(codecs: &[Box<dyn Codec>]) -> Buffers {
        let bytes = codecs.iter().map(|c| c.max_encoded_len(CHUNK)).max();
        Buffers {
            values: Aligned::zeroed(CHUNK),
            bytes: Aligned::zeroed(bytes.unwrap_or(0)),
        }
    }
}

/// `len` zeroed elements starting on a 64-byte boundary (a `Vec` with
/// slack, the slice taken from its first aligned element). A clone is
/// aligned too (a derived one would keep the offset into a new `Vec`).
#[derive(Debug)]
pub struct Aligned<T> {
    buf: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> Aligned<T> {
    /// `len` elements of `T::default()`, the first at a multiple of 64 bytes.
    pub fn zeroed(len: usize) -> Aligned<T> {
        let slack = 64 / std::mem::size_of::<T>().max(1);
        let buf = vec![T::default(); len + slack];
        let start = buf.as_ptr().align_offset(64);
        assert!(start <= slack, "no 64-byte boundary in the slack");
        Aligned { buf, start, len }
    }
}

impl<T: Copy + Default> Clone for Aligned<T> {
    fn clone(&self) -> Self {
        let mut c = Aligned::zeroed(self.len);
        c.copy_from_slice(self);
        c
    }
}

impl<T> std::ops::Deref for Aligned<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl<T> std::ops::DerefMut for Aligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

/// Decodes chunk `ch` from `input` into `buf`: delta-coded ids from
/// `ch.prev` when `delta`, plain values otherwise.
#[inline]
fn decode_chunk<C: Codec + ?Sized>(
    c: &C,
    delta: bool,
    input: &[u8],
    ch: &Chunk,
    buf: &mut [u32],
) -> ByteLen {
    c.decode_with(input, ch.len, delta.then_some(ch.prev), buf)
}

/// Encodes chunk `ch` of `b` into `scratch`: its ids as deltas from
/// `ch.prev` when `delta`, its gaps as plain values otherwise.
#[inline]
fn encode_chunk<C: Codec + ?Sized>(
    c: &C,
    delta: bool,
    b: &Bucket,
    ch: &Chunk,
    scratch: &mut [u8],
) -> ByteLen {
    let values = if delta { &b.ids } else { &b.gaps };
    c.encode_with(
        &values[ch.start..][..ch.len],
        delta.then_some(ch.prev),
        scratch,
    )
}

/// Encodes every chunk of `b`: the gaps as plain values, or (`delta`) the
/// ids as deltas from each chunk's `prev`.
pub fn encode_bucket<C: Codec + ?Sized>(c: &C, b: &Bucket, delta: bool) -> Result<Encoded, String> {
    let slack = c.max_encoded_len(CHUNK);
    let mut bytes = Vec::with_capacity(b.ints() * 2 + slack);
    let mut offsets = Vec::with_capacity(b.chunks.len());
    let mut scratch = vec![0u8; slack];
    for ch in &b.chunks {
        let w = encode_chunk(c, delta, b, ch, &mut scratch)?;
        offsets.push(bytes.len());
        bytes.extend_from_slice(&scratch[..w]);
    }
    let total = bytes.len() as u64;
    bytes.resize(bytes.len() + slack, 0);
    Ok(Encoded {
        bytes,
        offsets,
        total,
    })
}

/// One timed pass of memcpy: every chunk of the raw ids into `buf`.
#[inline(never)]
pub fn copy_pass(b: &Bucket, buf: &mut [u32]) -> Light {
    let mut light = Light::default();
    for ch in &b.chunks {
        let out = &mut buf[..ch.len];
        out.copy_from_slice(&b.ids[ch.start..][..ch.len]);
        let out = black_box(out);
        light.ends = light.ends.wrapping_add(value_ends(out));
        light.bytes += 4 * ch.len as u64;
    }
    light
}

fn mismatch(what: &str, op: Op, got: u64, want: u64) -> String {
    format!(
        "CHECKSUM MISMATCH: {what} {}: output hash {got:#018x}, expected {want:#018x} \
         (wrong output; refusing to report a speed)",
        op.name()
    )
}

/// Full, untimed check of `op` with `c` on `b`; returns the [`Light`] value
/// every timed pass must reproduce.
pub fn verify<C: Codec + ?Sized>(
    c: &C,
    op: Op,
    b: &Bucket,
    enc: &Encoded,
    bufs: &mut Buffers,
) -> Result<Light, String> {
    let (buf, scratch) = (&mut bufs.values[..], &mut bufs.bytes[..]);
    let who = format!("{} {}", c.name(), c.kernel());
    let delta = op.is_delta();
    let want = if delta { b.sum_ids } else { b.sum_gaps };
    let mut h = 0u64;
    let mut light = Light::default();
    match op {
        Op::Decode | Op::DecodeDelta => {
            for (i, (ch, &off)) in b.chunks.iter().zip(&enc.offsets).enumerate() {
                let input = &enc.bytes[off..];
                let used = decode_chunk(c, delta, input, ch, buf)
                    .map_err(|e| format!("{who} {}: chunk {i}: {e}", op.name()))?;
                let stream_end = enc.offsets.get(i + 1).map_or(enc.total, |&o| o as u64);
                if (off + used) as u64 != stream_end {
                    return Err(format!(
                        "{who} {}: chunk {i}: consumed {used} bytes, stream has {}",
                        op.name(),
                        stream_end - off as u64
                    ));
                }
                h = checksum(h, &buf[..ch.len]);
                light.ends = light.ends.wrapping_add(value_ends(&buf[..ch.len]));
                light.bytes += used as u64;
            }
            let ends = if delta { b.ends_ids } else { b.ends_gaps };
            if light.ends != ends || light.bytes != enc.total {
                return Err(format!("{who} {}: chunk ends or sizes differ", op.name()));
            }
        }
        Op::Encode | Op::EncodeDelta => {
            let slack = c.max_encoded_len(CHUNK);
            for (i, ch) in b.chunks.iter().enumerate() {
                let w = encode_chunk(c, delta, b, ch, scratch)
                    .map_err(|e| format!("{who} {}: chunk {i}: {e}", op.name()))?;
                light.ends = light.ends.wrapping_add(byte_ends(&scratch[..w]));
                light.bytes += w as u64;
                // Read back with the codec's own decoder (checked separately
                // against the source), with the slack a decoder may need.
                let mut stream = scratch[..w].to_vec();
                stream.resize(w + slack, 0);
                let used = decode_chunk(c, delta, &stream, ch, buf)
                    .map_err(|e| format!("{who} {}: chunk {i} does not decode: {e}", op.name()))?;
                if used != w {
                    return Err(format!(
                        "{who} {}: chunk {i}: wrote {w} bytes, decoder consumed {used}",
                        op.name()
                    ));
                }
                h = checksum(h, &buf[..ch.len]);
            }
        }
        Op::Copy => return verify_copy(b, buf),
        Op::Seek | Op::Select | Op::Named(_) => {
            return Err(format!("{} is not a bucket operation", op.name()))
        }
    }
    if h != want {
        return Err(mismatch(&who, op, h, want));
    }
    Ok(light)
}

/// Full check of memcpy.
pub fn verify_copy(b: &Bucket, buf: &mut [u32]) -> Result<Light, String> {
    let mut h = 0;
    for ch in &b.chunks {
        buf[..ch.len].copy_from_slice(&b.ids[ch.start..][..ch.len]);
        h = checksum(h, &buf[..ch.len]);
    }
    if h != b.sum_ids {
        return Err(mismatch("memcpy", Op::Copy, h, b.sum_ids));
    }
    Ok(copy_pass(b, buf))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suites::contenders;

    fn sample_bucket() -> Bucket {
        let lists: Vec<Vec<u32>> = vec![
            (0..5000u32).map(|i| i * 3 + 1).collect(),
            (0..40u32).map(|i| i * 100_000).collect(),
            vec![7],
            (0..9000u32).map(|i| i * 70_000 + (i & 3)).collect(),
        ];
        Bucket::new(12, &lists)
    }

    #[test]
    fn buffers_and_their_clones_start_on_64_bytes() {
        let mut a = Aligned::<u32>::zeroed(CHUNK);
        a[CHUNK - 1] = 9;
        for _ in 0..4 {
            let b = a.clone();
            let (c, d) = (Aligned::<u8>::zeroed(77), Aligned::<u8>::zeroed(0));
            assert_eq!(b.as_ptr() as usize % 64, 0);
            assert_eq!((b.len(), b[CHUNK - 1], b[0]), (CHUNK, 9, 0));
            assert_eq!((c.as_ptr() as usize % 64, c.len()), (0, 77));
            assert_eq!(d.len(), 0);
        }
    }

    #[test]
    fn chunks_cover_lists_with_prev() {
        let b = sample_bucket();
        assert_eq!(b.ints(), 5000 + 40 + 1 + 9000);
        let lens: Vec<usize> = b.chunks.iter().map(|c| c.len).collect();
        assert_eq!(lens, vec![4096, 904, 40, 1, 4096, 4096, 808]);
        assert_eq!(b.chunks[1].prev, b.ids[4095]);
        assert_eq!(b.chunks[2].prev, 0);
        assert_eq!(b.chunks[3].prev, 0);
        assert_eq!(b.chunks[5].prev, b.ids[b.chunks[5].start - 1]);
        assert_eq!(b.gaps[0], 1);
        assert_eq!(b.gaps[1], 3);
        assert_eq!(b.gaps[5000], 0);
        assert_eq!(b.gaps[5001], 100_000);
    }

    #[test]
    fn checksum_catches_corruption() {
        let v: Vec<u32> = (0..1000).map(|i| i * 7).collect();
        let h = checksum(0, &v);
        for i in [0usize, 1, 500, 999] {
            for delta in [1u32, 0x8000_0000, u32::MAX] {
                let mut w = v.clone();
                w[i] = w[i].wrapping_add(delta);
                assert_ne!(checksum(0, &w), h);
            }
        }
        let mut swapped = v.clone();
        swapped.swap(3, 4);
        assert_ne!(checksum(0, &swapped), h);
        // Chunked hashing equals whole hashing.
        assert_eq!(checksum(checksum(0, &v[..300]), &v[300..]), h);
    }

    /// Wraps a real codec and corrupts one decoded value.
    struct Broken<C>(C);
    impl<C: Codec> Codec for Broken<C> {
        fn label(&self) -> Label {
            Label {
                name: "broken",
                ..self.0.label()
            }
        }
        fn is_peer(&self) -> bool {
            false
        }
        fn max_encoded_len(&self, n: usize) -> usize {
            self.0.max_encoded_len(n)
        }
        fn encode_with(&self, v: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
            self.0.encode_with(v, delta, out)
        }
        fn decode_with(&self, i: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
            let r = self.0.decode_with(i, n, delta, out)?;
            if n > 10 {
                out[10] ^= 4;
            }
            Ok(r)
        }
    }

    #[test]
    fn verify_accepts_good_and_rejects_corrupted_output() {
        let b = sample_bucket();
        let ours =
            crate::contenders::Ours::every_kernel(intcodec::streamvbyte::StreamVByte::new())[0];
        let mut bufs = Buffers::new(&contenders());
        for c in contenders() {
            let plain = c.encode_bucket(&b, false).unwrap();
            let delta = if c.supports(Op::DecodeDelta) {
                c.encode_bucket(&b, true).unwrap()
            } else {
                Encoded::default()
            };
            for op in Op::CODEC_OPS {
                if !c.supports(op) {
                    continue;
                }
                let enc = if op.is_delta() { &delta } else { &plain };
                let want = verify(&*c, op, &b, enc, &mut bufs).unwrap();
                let got = c.pass(op, &b, enc, &mut bufs).unwrap();
                assert_eq!(got, want, "{} {} {}", c.name(), c.kernel(), op.name());
            }
        }
        let broken = Broken(ours);
        let plain = broken.encode_bucket(&b, false).unwrap();
        let delta = broken.encode_bucket(&b, true).unwrap();
        for op in Op::CODEC_OPS {
            let enc = if op.is_delta() { &delta } else { &plain };
            let err = verify(&broken, op, &b, enc, &mut bufs).unwrap_err();
            assert!(err.contains("CHECKSUM MISMATCH"), "{err}");
        }
        let buf = &mut bufs.values;
        assert_eq!(verify_copy(&b, buf).unwrap(), copy_pass(&b, buf));
    }
}
