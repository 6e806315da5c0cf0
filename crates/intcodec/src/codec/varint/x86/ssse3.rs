//! SSSE3 kernel: one 16-byte load when 16 bytes of the slice remain
//! (shorter slices use the scalar kernel); `pmovmskb` gives every byte's
//! continuation bit at once, so the length of any value (a u64's ten bytes
//! included) is one `tzcnt`; the bytes past the value are cleared with a
//! compare against the byte index, and the 7-bit groups are joined by
//! `pmaddubsw` (pairs into 14 bits) and `pmaddwd` (into 28 bits), as in
//! Masked VByte (Plaisance, Kurz, Lemire 2015, §IV). Requires SSSE3. Never
//! reads outside the slice. Encoding is the scalar kernel's.

use super::super::scalar;
use super::super::Word;
use crate::error::DecodeErrorKind;
use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cmpgt_epi8, _mm_cvtsi128_si32, _mm_cvtsi128_si64, _mm_loadu_si128,
    _mm_madd_epi16, _mm_maddubs_epi16, _mm_movemask_epi8, _mm_set1_epi16, _mm_set1_epi32,
    _mm_set1_epi8, _mm_setr_epi8, _mm_srli_si128,
};

/// The value at the start of `v`, its length (at most 16) and whether the
/// fast result is doubtful (too long or too large).
#[target_feature(enable = "ssse3")]
#[inline]
fn from_vector<T: Word>(v: __m128i) -> (u64, usize, bool) {
    // Bit i: byte i continues. Bit 15 forced to "ends", so len <= 16.
    let cont = _mm_movemask_epi8(v) as u32;
    let stops = !cont | 0x8000;
    let len = stops.trailing_zeros() as usize + 1;
    let iota = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let keep = _mm_cmpgt_epi8(_mm_set1_epi8(len as i8), iota);
    let x = _mm_and_si128(_mm_and_si128(v, keep), _mm_set1_epi8(0x7F));
    // (b0 * 1 + b1 * 128) in each 16-bit lane, then (p0 + p1 * 2^14) in
    // each 32-bit lane: 28 value bits per 4 bytes.
    let pairs = _mm_maddubs_epi16(_mm_set1_epi16(0x8001u16 as i16), x);
    let quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x4000_0001));
    let lo = _mm_cvtsi128_si64(quads) as u64;
    let a2 = _mm_cvtsi128_si32(_mm_srli_si128::<8>(quads)) as u32 as u64;
    let value = (lo & 0x0FFF_FFFF) | ((lo >> 32) << 28) | (a2 << 56);
    let bad = if T::MAX_BYTES > 8 {
        len > T::MAX_BYTES || a2 > 0xFF
    } else {
        len > T::MAX_BYTES || value > T::MAX_U64
    };
    (value, len, bad)
}

#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn decode<T: Word>(input: &[u8]) -> Result<(T, usize), DecodeErrorKind> {
    let Some(chunk) = input.first_chunk::<16>() else {
        return scalar::decode::<T>(input);
    };
    // SAFETY: `chunk` is 16 readable bytes; loadu has no alignment need.
    let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
    let first = _mm_cvtsi128_si32(v) as u32;
    if first & 0x80 == 0 {
        return Ok((T::from_u64(u64::from(first & 0x7F)), 1));
    }
    let (value, len, bad) = from_vector::<T>(v);
    if bad {
        return scalar::from_raw::<T>(scalar::slow::<T>(input));
    }
    Ok((T::from_u64(value), len))
}

/// # Safety
/// `input.len() >= 16`.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) unsafe fn decode_unchecked<T: Word>(input: &[u8]) -> (T, usize) {
    // SAFETY: 16 readable bytes (caller); loadu has no alignment need.
    let v = unsafe { _mm_loadu_si128(input.as_ptr().cast()) };
    let (value, len, _) = from_vector::<T>(v);
    (T::from_u64(value), len)
}

#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn decode_many<T: Word, const N: usize>(
    input: &[u8],
) -> Result<([T; N], usize), (DecodeErrorKind, usize, usize)> {
    let mut out = [T::from_u64(0); N];
    let mut pos = 0;
    for (i, slot) in out.iter_mut().enumerate() {
        let rest = input.get(pos..).unwrap_or_default();
        let (v, len) = decode::<T>(rest).map_err(|k| (k, pos, i))?;
        *slot = v;
        pos += len;
    }
    Ok((out, pos))
}
