//! Scalar VByte: the paper's Algorithm 1 (one byte, one branch at a time,
//! unrolled to the type's maximum length), the reference every other kernel
//! is tested against and the tail handler of the SIMD kernels. Also the
//! encoder, `skip` and the length functions.
//!
//! Reads only inside `input`: a value whose bytes run past the end is
//! `Truncated` at the offset of its first byte.
#![forbid(unsafe_code)]

use super::{Kernels, Word};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::isa::Isa;

pub(super) static KERNELS: Kernels = crate::codec::kernel_table!(
    Isa::Scalar, decode<u32>, checked<>, encode<u32>;
    decode_u64: decode::<u64, false>,
    decode_delta_u64: decode::<u64, true>,
    select_delta: super::seek::scalar::select_delta,
    seek_delta: super::seek::scalar::seek_delta,
    decode_counted: super::counted::scalar_kernel::<false>,
    decode_delta_counted: super::counted::scalar_kernel::<true>,
);

/// Algorithm 1: the value whose `k`-th byte is `byte(k)` (`None`: past the
/// end of the input), read in order, byte `k` only after bytes `0..k` had
/// their continuation bit; the value and its length.
#[inline(always)]
pub(crate) fn one_by<W: Word>(
    mut byte: impl FnMut(usize) -> Option<u8>,
) -> Result<(W, usize), DecodeErrorKind> {
    let mut v = W::ZERO;
    let mut k = 0;
    // Unrolled by the compiler: `W::MAX` is a constant.
    while k < W::MAX {
        let Some(b) = byte(k) else {
            return Err(DecodeErrorKind::Truncated);
        };
        if k == W::MAX - 1 {
            if b >= 0x80 {
                return Err(DecodeErrorKind::Overlong);
            }
            if b > W::LAST {
                return Err(DecodeErrorKind::Overflow);
            }
        }
        if b < 0x80 {
            return Ok((v.or_shl(b, 7 * k as u32), k + 1));
        }
        v = v.or_shl(b & 0x7F, 7 * k as u32);
        k += 1;
    }
    unreachable!("the last byte returns")
}

/// Algorithm 1 on a window of `W::MAX` bytes known to be present.
#[inline(always)]
fn one_full<W: Word>(bytes: &[u8], pos: usize) -> Result<(W, usize), DecodeErrorKind> {
    one_by(|k| Some(bytes[pos + k]))
}

/// Algorithm 1 near the end of the input: every byte access is checked.
#[inline]
fn one_tail<W: Word>(input: &[u8], pos: usize) -> Result<(W, usize), DecodeErrorKind> {
    one_by(|k| input.get(pos + k).copied())
}

/// Decodes the value starting at `pos`: the value and its length in bytes.
///
/// Near the end of the input (fewer than `W::MAX` bytes left) the value goes
/// through the byte-checked [`one_tail`]. That is every value of a list
/// shorter than `W::MAX` bytes and the last values of every list, so
/// `one_tail` is inlined, not `cold` (lists of 4 and 8 ints: 18.4 and 30.4
/// ns before, 17.4 and 27.0 after; `--suite short`).
#[inline(always)]
pub(crate) fn one<W: Word>(input: &[u8], pos: usize) -> Result<(W, usize), DecodeErrorKind> {
    if input.len() >= W::MAX && pos <= input.len() - W::MAX {
        one_full(input, pos)
    } else {
        one_tail(input, pos)
    }
}

/// Lists of at most this many values are decoded by [`decode_short`] even
/// where a SIMD kernel runs: for them a scalar loop costs less than the
/// SIMD loops' set-up (the short suite of `intcodec bench`).
pub(crate) const SHORT_MAX: usize = 8;

/// A u32 value at `pos` read from one 8-byte word with no branch on its
/// length: the first clear continuation bit among the word's first five
/// bytes ends it, the bytes after it are masked off and the 7-bit groups
/// shifted together. `None` when fewer than 8 bytes remain, when the first
/// five bytes all continue (overlong) or when the fifth byte is too large
/// (overflow): [`one`] then reads the value again, and names any error.
#[inline(always)]
pub(crate) fn one_word(input: &[u8], pos: usize) -> Option<(u32, usize)> {
    let w = u64::from_le_bytes(*input.get(pos..)?.first_chunk::<8>()?);
    let stops = !w & 0x80_8080_8080;
    if stops == 0 {
        return None;
    }
    // 1..=5 bytes; the mask keeps 8 to 40 bits.
    let len = (stops.trailing_zeros() as usize >> 3) + 1;
    let w = w & (u64::MAX >> (64 - 8 * len));
    let v = (w & 0x7F)
        | (w >> 1 & 0x3F80)
        | (w >> 2 & 0x1F_C000)
        | (w >> 3 & 0xFE0_0000)
        | (w >> 4 & 0x7_F000_0000);
    // A fifth byte above 0x0F sets bits from 32 on.
    u32::try_from(v).ok().map(|v| (v, len))
}

/// One or two u32 values (deltas from `prev` if `delta`) at the start of
/// `input`, each read by [`one_word`], into `out[..n]`: the bytes they
/// take, or `None` with nothing written wherever `one_word` cannot read a
/// value (fewer than 8 bytes left, too long or overflowing values) or `n`
/// is not 1 or 2: [`decode_short`]'s fast path; the `None` case goes on to
/// the full decoder, which names errors.
#[inline(always)]
pub(crate) fn first_two(
    input: &[u8],
    n: usize,
    delta: bool,
    prev: u32,
    out: &mut [u32],
) -> Option<usize> {
    if !(1..=2).contains(&n) {
        return None;
    }
    let out = out.get_mut(..n)?;
    let (a, len_a) = one_word(input, 0)?;
    let a = if delta { prev.wrapping_add(a) } else { a };
    if n == 1 {
        out[0] = a;
        return Some(len_a);
    }
    let (b, len_b) = one_word(input, len_a)?;
    out[0] = a;
    out[1] = if delta { a.wrapping_add(b) } else { b };
    Some(len_a + len_b)
}

/// [`decode`] of a short list (u32), same results and errors. One or two
/// values are read by [`first_two`] (one word each, no branch on their
/// lengths, so no misprediction), or where it cannot (the last bytes of the
/// input, errors) by [`decode`]. From three on, the byte loop of [`decode`]
/// is faster: its predicted branches let the next value's loads start
/// early, where each word read waits for the previous value's length
/// (short suite, 8 ints: 25 ns against 33).
#[inline(always)]
pub(crate) fn decode_short<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    if let Some(used) = first_two(input, out.len(), DELTA, prev, out) {
        return Ok(used);
    }
    decode::<u32, DELTA>(input, out, prev)
}

/// Decodes `out.len()` values (deltas from `prev` if `DELTA`).
pub(crate) fn decode<W: Word, const DELTA: bool>(
    input: &[u8],
    out: &mut [W],
    prev: W,
) -> Result<usize, DecodeError> {
    decode_from::<W, DELTA>(input, out, 0, 0, prev)
}

/// Decodes values `start..out.len()`, the first of which begins at byte
/// `pos`; `prev` is the value before `start` (delta only). Returns the
/// offset just past the last value.
pub(crate) fn decode_from<W: Word, const DELTA: bool>(
    input: &[u8],
    out: &mut [W],
    start: usize,
    pos: usize,
    prev: W,
) -> Result<usize, DecodeError> {
    decode_by::<W, DELTA>(
        #[inline(always)]
        |at| one::<W>(input, at),
        out,
        start,
        pos,
        prev,
    )
}

/// The value loop of [`decode_from`]: `one(pos)` decodes the value at `pos`.
#[inline(always)]
pub(crate) fn decode_by<W: Word, const DELTA: bool>(
    mut one: impl FnMut(usize) -> Result<(W, usize), DecodeErrorKind>,
    out: &mut [W],
    start: usize,
    mut pos: usize,
    mut prev: W,
) -> Result<usize, DecodeError> {
    for (i, slot) in out.iter_mut().enumerate().skip(start) {
        let (mut v, len) = one(pos).map_err(|kind| DecodeError::new(kind, pos, Some(i)))?;
        pos += len;
        if DELTA {
            prev = prev.wrapping_add(v);
            v = prev;
        }
        *slot = v;
    }
    Ok(pos)
}

/// The offset just past the first `n` values, validating them as decoding
/// would (same errors).
pub(crate) fn skip<W: Word>(input: &[u8], n: usize) -> Result<usize, DecodeError> {
    let mut pos = 0;
    for i in 0..n {
        let (_, len) = one::<W>(input, pos).map_err(|kind| DecodeError::new(kind, pos, Some(i)))?;
        pos += len;
    }
    Ok(pos)
}

/// Number of values a well-formed stream of exactly `input` holds: its bytes
/// without the continuation bit.
pub(crate) fn count(input: &[u8]) -> usize {
    input.iter().filter(|&&b| b < 0x80).count()
}

/// Encoded length of one value.
#[inline]
pub(crate) fn len_of<W: Word>(v: W) -> usize {
    // ceil(bits / 7), at least 1.
    let bits = W::BITS - v.leading_zeros();
    (bits.max(1) as usize).div_ceil(7)
}

/// Exact encoded length of `values` (delta-coded from `prev` if given).
pub(crate) fn compressed_len<W: Word>(values: &[W], prev: Option<W>) -> usize {
    match prev {
        None => values.iter().map(|&v| len_of(v)).sum(),
        Some(mut p) => values
            .iter()
            .map(|&v| {
                let d = v.wrapping_sub(p);
                p = v;
                len_of(d)
            })
            .sum(),
    }
}

/// Spreads the low 56 bits of `x` into 8 bytes of 7 bits each (the inverse
/// of gathering them): 28 | 28, then 14 | 14, then 7 | 7.
#[inline(always)]
fn spread56(x: u64) -> u64 {
    let x = (x & 0x0FFF_FFFF) | ((x & 0x00FF_FFFF_F000_0000) << 4);
    let x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x0FFF_C000_0FFF_C000) << 2);
    (x & 0x007F_007F_007F_007F) | ((x & 0x3F80_3F80_3F80_3F80) << 1)
}

/// Spreads the 32 bits of `v` into five bytes of 7 bits each (28 | 4,
/// then 14 | 14, then 7 | 7).
#[inline(always)]
fn spread35(v: u32) -> u64 {
    let x = u64::from(v);
    let x = (x & 0x0FFF_FFFF) | ((x & 0xF000_0000) << 4);
    let x = (x & 0xF_0000_3FFF) | ((x & 0x0FFF_C000) << 2);
    (x & 0xF_007F_007F) | ((x & 0x3F80_3F80) << 1)
}

/// By the leading zeros of `v | 1`: the encoded length of a u32 (1..=5)
/// and the continuation bits of its bytes (all but the last).
const LEN32: [(u8, u64); 32] = {
    let mut t = [(0u8, 0u64); 32];
    let mut lz: usize = 0;
    while lz < 32 {
        let len = (32 - lz).div_ceil(7);
        t[lz] = (
            len as u8,
            0x8080_8080_8080_8080u64 & ((1u64 << (8 * (len - 1))) - 1),
        );
        lz += 1;
    }
    t
};

/// A u32 in VByte as one little-endian word (its bytes, then zeros) and
/// its length: no branch, one table load.
#[inline(always)]
pub(crate) fn word32(v: u32) -> (u64, usize) {
    let (len, cont) = LEN32[(v | 1).leading_zeros() as usize];
    (spread35(v) | cont, usize::from(len))
}

/// Encodes the eight values of `block` (deltas from `prev` if `DELTA`) at
/// the start of `out`, which must hold their encoded length; returns the
/// bytes written. With 43 bytes of room (eight 8-byte stores reaching at
/// most 5 * 7 + 8 bytes) every value is stored as one word, without a
/// branch per value or per byte; else [`encode`].
#[inline(always)]
// Used by the x86 kernels only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
pub(crate) fn encode_block32<const DELTA: bool>(
    block: &[u32; 8],
    prev: u32,
    out: &mut [u8],
) -> usize {
    let Some(dst) = out.first_chunk_mut::<43>() else {
        return encode::<u32, DELTA>(block, prev, out);
    };
    let mut pos = 0;
    let mut p = prev;
    for &x in block {
        let v = if DELTA { x.wrapping_sub(p) } else { x };
        p = x;
        let (w, len) = word32(v);
        // `pos` <= 7 * 5 = 35, so `pos + 8` <= 43.
        dst[pos..pos + 8].copy_from_slice(&w.to_le_bytes());
        pos += len;
    }
    pos
}

/// Writes `v` at `pos` in its minimal form; returns the new offset. `out`
/// must have room.
///
/// With 8 bytes of room the value is built in a word without a branch per
/// byte: its 7-bit groups spread to bytes, the continuation bits OR-ed onto
/// all but the last byte, and 8 bytes stored (the extra ones are
/// overwritten by the next value, or lie past the returned length).
#[inline(always)]
fn put<W: Word>(v: W, out: &mut [u8], pos: usize) -> usize {
    let x = v.as_u64();
    if W::BITS == 32 {
        // No branch on the value (lengths vary unpredictably in mixed data).
        if let Some(dst) = out.get_mut(pos..pos + 8) {
            let (w, len) = word32(x as u32);
            dst.copy_from_slice(&w.to_le_bytes());
            return pos + len;
        }
        return put_bytewise(v, out, pos);
    }
    if x < 0x80 {
        // One byte: the common case of small gaps.
        out[pos] = x as u8;
        return pos + 1;
    }
    let len = len_of(v);
    if let Some(dst) = out.get_mut(pos..pos + 8) {
        // Continuation bits on bytes 0..len-1 (all 8 if len > 8).
        let n = (len - 1).min(8) as u32;
        let cont = 0x8080_8080_8080_8080u64 & u64::MAX.checked_shr(64 - 8 * n).unwrap_or(0);
        dst.copy_from_slice(&(spread56(x) | cont).to_le_bytes());
        if len > 8 {
            let hi = x >> 56;
            out[pos + 8] = (hi & 0x7F) as u8 | if len > 9 { 0x80 } else { 0 };
            if len > 9 {
                out[pos + 9] = (hi >> 7) as u8;
            }
        }
        return pos + len;
    }
    put_bytewise(v, out, pos)
}

/// [`put`] one byte at a time, writing no byte past the value: for the
/// last bytes of `out`, and VarInt-GB's Lucene vint tail.
#[cold]
pub(crate) fn put_bytewise<W: Word>(mut v: W, out: &mut [u8], mut pos: usize) -> usize {
    while v.above_7_bits() {
        out[pos] = v.low_byte() | 0x80;
        v = v.shr7();
        pos += 1;
    }
    out[pos] = v.low_byte();
    pos + 1
}

/// Encodes `values` (as deltas from `prev` if `DELTA`) into `out`, which must
/// hold the encoded length. Returns the bytes written.
pub(crate) fn encode<W: Word, const DELTA: bool>(
    values: &[W],
    mut prev: W,
    out: &mut [u8],
) -> usize {
    let mut pos = 0;
    let (blocks, rest) = values.as_chunks::<8>();
    for block in blocks {
        let mut v = *block;
        if DELTA {
            let last = v[7];
            for k in (1..8).rev() {
                v[k] = v[k].wrapping_sub(v[k - 1]);
            }
            v[0] = v[0].wrapping_sub(prev);
            prev = last;
        }
        // Eight one-byte values (common in posting lists): eight bytes at
        // once.
        let small = v.iter().fold(0u64, |acc, x| acc | x.as_u64()) < 0x80;
        if small {
            if let Some(dst) = out.get_mut(pos..pos + 8) {
                for (d, x) in dst.iter_mut().zip(v) {
                    *d = x.low_byte();
                }
                pos += 8;
                continue;
            }
        }
        for x in v {
            pos = put(x, out, pos);
        }
    }
    for &x in rest {
        let v = if DELTA {
            let d = x.wrapping_sub(prev);
            prev = x;
            d
        } else {
            x
        };
        pos = put(v, out, pos);
    }
    pos
}
