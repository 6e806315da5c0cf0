//! SSSE3 kernel: one 16-byte load when 16 bytes of the slice remain
//! (shorter slices use the scalar kernel); `pmovmskb` gives every byte's
//! continuation bit at once, so the length of any value (a u64's ten bytes
//! included) is one `tzcnt`; the bytes past the value are cleared with a
//! compare against the byte index, and the 7-bit groups are joined by
//! `pmaddubsw` (pairs into 14 bits) and `pmaddwd` (into 28 bits), as in
//! Masked VByte (Plaisance, Kurz, Lemire 2015, §IV). Requires SSSE3. Never
//! reads outside the slice. Encoding is the scalar kernel's.
//!
//! Two or four u8/u16 values ([`many_small`]) take one table lookup: the
//! window's continuation bits index the values' total length and a
//! `pshufb` mask that puts each value in its own lane. The BMI2 kernel and
//! the free `decode_two`/`decode_four` use this path too. On the position
//! chain of a decoding loop (load, `pmovmskb`, one byte load from the
//! length table) nothing else waits: the length table is apart from the
//! pattern table, and a bad value leaves by a branch, not a select
//! (`intcodec bench --suite varint`, decode4 u16: 700 M/s with a shift off
//! a combined entry and a select, 920 M/s so).

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
    if small_many::<T, N>() {
        let (r, len) = many_small::<T, N>(input);
        if len != 0 {
            return Ok((small_values(r), len));
        }
    }
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

// ------------------------------------------------- two or four small values

/// Whether [`many_small`] handles `N` values of `T`: u8 and u16 (at most
/// 2 and 3 bytes each), two or four of them (a window of at most 12
/// bytes, so one 16-byte load holds every byte they may take).
pub(crate) const fn small_many<T: Word, const N: usize>() -> bool {
    (T::MAX_BYTES == 2 || T::MAX_BYTES == 3) && (N == 2 || N == 4)
}

/// For `N` values of at most `L` bytes, indexed by the continuation bits
/// of the first `N * L` bytes (bit `i` set: byte `i` continues): the
/// bytes the values take (`0` when one of them would be longer than `L`
/// bytes) and their length pattern `sum (len_i - 1) * L^i`. Every bit of
/// the index the `N` values do not reach is "don't care", so each entry
/// is filled from the mask alone. Two tables, so that the length (the
/// next window's position) is one load with nothing after it.
struct Index<const S: usize> {
    len: [u8; S],
    pattern: [u8; S],
}

const fn index_table<const L: usize, const N: usize, const S: usize>() -> Index<S> {
    let mut t = Index {
        len: [0; S],
        pattern: [0; S],
    };
    let mut m = 0;
    while m < S {
        let (mut pos, mut i, mut pattern, mut scale, mut ok) = (0, 0, 0, 1, true);
        while ok && i < N {
            let mut len = 1;
            while len <= L && (m >> (pos + len - 1)) & 1 == 1 {
                len += 1;
            }
            if len > L {
                ok = false;
            } else {
                pattern += (len - 1) * scale;
                scale *= L;
                pos += len;
                i += 1;
            }
        }
        if ok {
            t.len[m] = pos as u8;
            t.pattern[m] = pattern as u8;
        }
        m += 1;
    }
    t
}

/// `pshufb` masks per length pattern ([`index_table`]): value `i`'s bytes
/// to lane `i` (16-bit lanes for `L = 2`, 32-bit for `L = 3`), the rest of
/// each lane zero.
const fn shuffle_table<const L: usize, const N: usize, const P: usize>() -> [[u8; 16]; P] {
    let lane = if L == 2 { 2 } else { 4 };
    let mut t = [[0x80u8; 16]; P];
    let mut p = 0;
    while p < P {
        let (mut rest, mut start, mut i) = (p, 0, 0);
        while i < N {
            let len = rest % L + 1;
            rest /= L;
            let mut j = 0;
            while j < len {
                t[p][i * lane + j] = (start + j) as u8;
                j += 1;
            }
            start += len;
            i += 1;
        }
        p += 1;
    }
    t
}

static INDEX_2X2: Index<{ 1 << 4 }> = index_table::<2, 2, { 1 << 4 }>();
static INDEX_2X4: Index<{ 1 << 8 }> = index_table::<2, 4, { 1 << 8 }>();
static INDEX_3X2: Index<{ 1 << 6 }> = index_table::<3, 2, { 1 << 6 }>();
static INDEX_3X4: Index<{ 1 << 12 }> = index_table::<3, 4, { 1 << 12 }>();
static SHUFFLE_2X2: [[u8; 16]; 4] = shuffle_table::<2, 2, 4>();
static SHUFFLE_2X4: [[u8; 16]; 16] = shuffle_table::<2, 4, 16>();
static SHUFFLE_3X2: [[u8; 16]; 9] = shuffle_table::<3, 2, 9>();
static SHUFFLE_3X4: [[u8; 16]; 81] = shuffle_table::<3, 4, 81>();

/// `N` (2 or 4) u8 or u16 values from one 16-byte load, without a loop
/// (Masked VByte's method, Plaisance, Kurz, Lemire 2015, §IV, for a fixed
/// count): the continuation bits of the window (`pmovmskb`) index a table
/// of the values' total length and length pattern; the pattern's `pshufb`
/// mask moves each value's bytes into its own lane, where `pmaddubsw`
/// (and, for u16, `pmaddwd`) joins the 7-bit groups.
///
/// Returns value `i` in bits `16 i..16 i + 16` and the bytes the values
/// take; length 0 (the caller then goes value by value, which also names
/// any error) when fewer than 16 bytes remain, when a value is longer
/// than its type allows or when a value is too large for it. Two words,
/// so that a call returns them in registers: the length is the next
/// call's position, and a return through memory would put a store and a
/// load on that chain. Reads only `input[..16]`.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn many_small<T: Word, const N: usize>(input: &[u8]) -> (u64, usize) {
    use core::arch::x86_64::{_mm_shuffle_epi8, _mm_unpackhi_epi64};
    let Some(chunk) = input.first_chunk::<16>() else {
        return (0, 0);
    };
    // SAFETY: `chunk` is 16 readable bytes; loadu has no alignment need.
    let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
    let cont = _mm_movemask_epi8(v) as usize;
    let (lens, patterns, shuffles): (&[u8], &[u8], &[[u8; 16]]) = match (T::MAX_BYTES, N) {
        (2, 2) => (&INDEX_2X2.len, &INDEX_2X2.pattern, &SHUFFLE_2X2),
        (2, 4) => (&INDEX_2X4.len, &INDEX_2X4.pattern, &SHUFFLE_2X4),
        (3, 2) => (&INDEX_3X2.len, &INDEX_3X2.pattern, &SHUFFLE_3X2),
        (3, 4) => (&INDEX_3X4.len, &INDEX_3X4.pattern, &SHUFFLE_3X4),
        _ => return (0, 0),
    };
    // The index tables' lengths are powers of two.
    let at = cont & (lens.len() - 1);
    let len = usize::from(lens[at]);
    let Some(shuffle) = shuffles.get(usize::from(patterns[at])) else {
        return (0, 0);
    };
    // SAFETY: `shuffle` is 16 readable bytes; loadu has no alignment need.
    let s = unsafe { _mm_loadu_si128(shuffle.as_ptr().cast()) };
    let x = _mm_and_si128(_mm_shuffle_epi8(v, s), _mm_set1_epi8(0x7F));
    // b0 + 128 * b1 in each 16-bit lane.
    let pairs = _mm_maddubs_epi16(_mm_set1_epi16(0x8001u16 as i16), x);
    let (r, bad) = if T::MAX_BYTES == 2 {
        // A u8 lane: bits 8.. of the pair must be zero.
        let r = _mm_cvtsi128_si64(pairs) as u64;
        (r, r & 0xFF00_FF00_FF00_FF00 != 0)
    } else {
        // pair0 + 2^14 * pair1 in each 32-bit lane (at most 21 bits); a
        // u16 lane: bits 16.. must be zero. Low halves to bytes 0..8, third
        // bytes to bytes 8..12.
        let quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x4000_0001));
        let pick = _mm_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 6, 10, 14, -1, -1, -1, -1);
        let y = _mm_shuffle_epi8(quads, pick);
        let high = _mm_cvtsi128_si32(_mm_unpackhi_epi64(y, y));
        (_mm_cvtsi128_si64(y) as u64, high != 0)
    };
    if bad {
        // A branch, not a select: the length must not wait for the values.
        return fallback();
    }
    // An invalid window's length is 0.
    (r, len)
}

#[cold]
#[inline(never)]
fn fallback() -> (u64, usize) {
    (0, 0)
}

/// The `N` values of a [`many_small`] result.
#[inline(always)]
pub(crate) fn small_values<T: Word, const N: usize>(r: u64) -> [T; N] {
    let mask = if T::MAX_BYTES == 2 { 0xFF } else { 0xFFFF };
    core::array::from_fn(|i| T::from_u64((r >> (16 * i)) & mask))
}
