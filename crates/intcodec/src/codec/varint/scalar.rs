//! Portable single-value LEB128: the byte-at-a-time reference every kernel
//! is tested against (and that classifies every error), and the portable
//! word-at-a-time kernel that every target without a faster one uses.
//!
//! The word kernel loads eight bytes as a little-endian `u64` (only when
//! eight bytes of the slice remain; a u64 takes ten with one bounds check),
//! finds the length (u8: one continuation bit; u16: two; u32/u64:
//! `trailing_zeros(!word & 0x8080..80)`), keeps the bytes up to the
//! terminator and squeezes out the continuation bits (the portable form of
//! `pext(x, 0x7f7f..7f)`: three add-and-shift steps, or SSE2 `pmaddwd` for
//! eight bytes on x86-64). u16/u32 values of full width take a predicted
//! branch with a constant length first. Slices shorter than eight bytes:
//! one-byte values return at once, otherwise the bytes are assembled into a
//! word from overlapping loads inside the slice, missing bytes set to
//! `0x80` (continuation, no value bits), so a value that runs off the end
//! is seen as too long. Every doubtful case (too long, too large, running
//! off the end) goes to [`reference`](fn@reference), which names the error.
#![forbid(unsafe_code)]

use super::{Word, CONT};
use crate::error::DecodeErrorKind;

/// Algorithm 1, one byte and one branch at a time: the value (as u64) and
/// its length, or the error. The oracle of every test.
pub(crate) fn reference<T: Word>(input: &[u8]) -> Result<(u64, usize), DecodeErrorKind> {
    let mut v = 0u64;
    for k in 0..T::MAX_BYTES {
        let Some(&b) = input.get(k) else {
            return Err(DecodeErrorKind::Truncated);
        };
        if k == T::MAX_BYTES - 1 {
            if b >= 0x80 {
                return Err(DecodeErrorKind::Overlong);
            }
            if b > T::LAST {
                return Err(DecodeErrorKind::Overflow);
            }
        }
        v |= u64::from(b & 0x7F) << (7 * k);
        if b < 0x80 {
            return Ok((v, k + 1));
        }
    }
    unreachable!("the last byte returns")
}

/// The reference encoder: bytes written into `out` (at most 10).
#[cfg(test)]
pub(crate) fn reference_encode(mut v: u64, out: &mut [u8; 16]) -> usize {
    let mut k = 0;
    while v >= 0x80 {
        out[k] = (v as u8) | 0x80;
        v >>= 7;
        k += 1;
    }
    out[k] = v as u8;
    k + 1
}

/// `pext(x, 0x7f7f..7f)` for the low `bytes` bytes of `x` (continuation
/// bits may be set; bytes above `bytes` must be zero).
///
/// Each step joins neighbouring fields with an add and a shift instead of
/// two masks, a shift and an or: in a 16-bit lane `lo + 256 hi`, adding `lo`
/// gives `2 (lo + 128 hi)`, so halving the word yields `lo + 128 hi` in
/// every lane at once (the lanes' low bits are 0, nothing crosses a lane);
/// likewise `+ 3 lo` and `/ 4` for 14-bit fields in 32-bit lanes, `+ 15 lo`
/// and `/ 16` for the two 28-bit halves.
#[inline(always)]
pub(crate) fn compact(x: u64, bytes: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if bytes > 4 {
        return super::x86::compact_sse2(x);
    }
    let mut x = x & 0x7F7F_7F7F_7F7F_7F7F;
    x = (x + (x & 0x007F_007F_007F_007F)) >> 1;
    if bytes > 2 {
        x = (x + 3 * (x & 0x0000_3FFF_0000_3FFF)) >> 2;
    }
    if bytes > 4 {
        x = (x + 15 * (x & 0x0FFF_FFFF)) >> 4;
    }
    x
}

/// `pdep(v, 0x7f7f..7f)` for a `v` of at most `7 * bytes` bits (`bytes <= 8`):
/// the steps of [`compact`] backwards (`b 2^28` becomes `b 2^32` by adding
/// `15 b 2^28`, and so on).
#[inline(always)]
pub(crate) fn spread(v: u64, bytes: usize) -> u64 {
    let mut x = v;
    if bytes > 4 {
        x += 15 * (x & 0x00FF_FFFF_F000_0000);
    }
    if bytes > 2 {
        x += 3 * (x & 0x0FFF_C000_0FFF_C000);
    }
    x + (x & 0x3F80_3F80_3F80_3F80)
}

/// The bit operations a kernel may do faster (BMI2 `pext`/`pdep`).
pub(crate) trait Bits {
    fn compact(x: u64, bytes: usize) -> u64;
    fn spread(v: u64, bytes: usize) -> u64;
    /// The high bit of each byte of `x`, gathered into bits 0..8 (unused
    /// on x86-64, where `pmovmskb` does it for 16 bytes).
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
    fn gather(x: u64) -> u64;
}

/// Mask and shift.
pub(crate) struct Portable;
impl Bits for Portable {
    #[inline(always)]
    fn compact(x: u64, bytes: usize) -> u64 {
        compact(x, bytes)
    }
    #[inline(always)]
    fn spread(v: u64, bytes: usize) -> u64 {
        spread(v, bytes)
    }
    #[inline(always)]
    fn gather(x: u64) -> u64 {
        // Bit 8j moves to bit 56 + j (no two partial products overlap).
        (((x & CONT) >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }
}

#[inline(always)]
fn load8(input: &[u8]) -> Option<u64> {
    input.first_chunk::<8>().map(|c| u64::from_le_bytes(*c))
}

/// The first (up to) eight bytes of a slice shorter than eight, missing
/// bytes `0x80`. Three loads at most, all inside `input`.
#[inline(always)]
fn short_word(input: &[u8]) -> u64 {
    let n = input.len();
    let w = if let Some(lo) = input.first_chunk::<4>() {
        let hi = input.last_chunk::<4>().expect("n >= 4");
        // n in 4..8: the two 4-byte loads overlap by 8 - n bytes.
        u64::from(u32::from_le_bytes(*lo)) | (u64::from(u32::from_le_bytes(*hi)) << (8 * (n - 4)))
    } else {
        let mut w = 0u64;
        for (i, &b) in input.iter().enumerate() {
            w |= u64::from(b) << (8 * i);
        }
        w
    };
    // n < 8 here, so the shift is in range; bytes n.. become 0x80.
    w | (CONT << (8 * n))
}

/// Decodes one value from a word whose bytes past the input are `0x80`;
/// `hi` holds bytes 8 and 9 (u64 only; `0x8080` when absent).
#[inline(always)]
pub(crate) fn from_words<B: Bits, T: Word>(w: u64, hi: u16) -> (u64, usize, bool) {
    if T::MAX_BYTES == 2 {
        // u8: the length is 1 + byte 0's continuation bit (shorter than
        // the trailing-zeros chain); a continuing byte 1 is overlong.
        let c0 = (w >> 7) & 1;
        let x = w & (0xFFFF >> (8 - 8 * c0));
        let v = B::compact(x, 2);
        let bad = w & 0x8080 == 0x8080 || v > T::MAX_U64;
        return (v, 1 + c0 as usize, bad);
    }
    if T::MAX_BYTES == 3 {
        // u16: 1 + c0 + c0 c1 from the first two continuation bits; a
        // continuing byte 2 is overlong.
        let c0 = (w >> 7) & 1;
        let len = 1 + c0 + (c0 & (w >> 15));
        let x = w & (0xFF_FFFF >> (24 - 8 * len));
        let v = B::compact(x, 3);
        let bad = w & 0x80_8080 == 0x80_8080 || v > T::MAX_U64;
        return (v, len as usize, bad);
    }
    let stops = !w & CONT;
    if T::MAX_BYTES <= 8 {
        let tz = stops.trailing_zeros(); // 64 when no byte ends here
        let len = (tz as usize >> 3) + 1;
        // Bytes up to and including the terminator: blsmsk.
        let x = w & (stops ^ stops.wrapping_sub(1));
        let v = B::compact(x, T::MAX_BYTES);
        let bad = len > T::MAX_BYTES || v > T::MAX_U64;
        (v, len, bad)
    } else if stops != 0 {
        let tz = stops.trailing_zeros();
        let len = (tz as usize >> 3) + 1;
        let x = w & (stops ^ stops.wrapping_sub(1));
        (B::compact(x, 8), len, false)
    } else {
        // Nine or ten bytes: b8 continues or ends; b9 (if used) <= 1.
        let b8 = u64::from(hi & 0xFF);
        let b9 = u64::from(hi >> 8);
        let c8 = b8 >> 7;
        let b9 = b9 & c8.wrapping_neg();
        let v = B::compact(w, 8) | ((b8 & 0x7F) << 56) | (b9 << 63);
        (v, 9 + c8 as usize, b9 > 1)
    }
}

/// A decoded value as two registers: `(value, len)`, or `(error code, 0)`.
/// (A `Result` of three words would be returned through memory by the
/// out-of-line paths, and its length would then reach the caller's
/// `pos += len` through a store and a load.)
pub(crate) type Raw = (u64, usize);

#[inline(always)]
pub(crate) fn raw_err(kind: DecodeErrorKind) -> Raw {
    let code = match kind {
        DecodeErrorKind::Truncated => 0,
        DecodeErrorKind::Overlong => 1,
        _ => 2,
    };
    (code, 0)
}

#[inline(always)]
pub(crate) fn from_raw<T: Word>((v, len): Raw) -> Result<(T, usize), DecodeErrorKind> {
    if len == 0 {
        Err(match v {
            0 => DecodeErrorKind::Truncated,
            1 => DecodeErrorKind::Overlong,
            _ => DecodeErrorKind::Overflow,
        })
    } else {
        Ok((T::from_u64(v), len))
    }
}

/// Whether the first five bytes of `w` are one u32 value of the full five
/// bytes (four with the continuation bit, then one without).
#[inline(always)]
fn is_full_five(w: u64) -> bool {
    !w & 0x80_8080_8080 == 0x80_0000_0000
}

/// The value of the five bytes of `w` (`is_full_five(w)`), `None` when
/// it is above `T`'s range.
#[inline(always)]
fn full_five<B: Bits, T: Word>(w: u64) -> Option<T> {
    let v = B::compact(w & 0xFF_FFFF_FFFF, 5);
    (v <= T::MAX_U64).then(|| T::from_u64(v))
}

/// Decodes one value with the bit operations of `B`. Every fast path
/// returns `Ok` directly (so the caller's error check folds away there);
/// the out-of-line paths return a [`Raw`] pair in registers.
#[inline(always)]
pub(crate) fn decode_with<B: Bits, T: Word>(input: &[u8]) -> Result<(T, usize), DecodeErrorKind> {
    if T::MAX_BYTES > 8 {
        // u64: one bounds check for the ten bytes a value may take.
        let Some(c) = input.first_chunk::<10>() else {
            return from_raw::<T>(decode_short::<T>(input));
        };
        let (lo, hi) = c.split_at(8);
        let w = u64::from_le_bytes(lo.try_into().expect("8 bytes"));
        let hi = u16::from_le_bytes([hi[0], hi[1]]);
        // No one-byte shortcut here: the branch-free path below costs less
        // than a branch that random u64 data would take every time.
        let (v, len, bad) = from_words::<B, T>(w, hi);
        if bad {
            return from_raw::<T>(slow::<T>(input));
        }
        return Ok((T::from_u64(v), len));
    }
    let Some(w) = load8(input) else {
        return from_raw::<T>(decode_short::<T>(input));
    };
    // u32: values of the full five bytes first (u32 >= 2^28: random
    // values, hashes, ids). When most values are such, this branch is
    // predicted and gives the caller's `pos += len` a constant, so the
    // next value's load need not wait for this one's length; other
    // lengths take the branch-free path below (a mispredict when
    // full-width values are mixed with others: `intcodec bench --suite
    // varint --values mixed` measures that case). u16 had the same branch
    // for three bytes; on random u16 (a quarter of them shorter) it
    // mispredicted more than it saved: the branch-free path decodes them
    // 25% faster (Xeon, 2026-12-02). There is no one-byte shortcut: on
    // values of mixed lengths it mispredicted more than it saved.
    if T::MAX_BYTES == 5 && is_full_five(w) {
        return match full_five::<B, T>(w) {
            Some(v) => Ok((v, 5)),
            None => from_raw::<T>(slow::<T>(input)),
        };
    }
    let (v, len, bad) = from_words::<B, T>(w, 0x8080);
    if bad {
        return from_raw::<T>(slow::<T>(input));
    }
    Ok((T::from_u64(v), len))
}

/// Fewer than eight bytes: one-byte values, else the bytes there are
/// assembled into a word (missing bytes `0x80`).
#[inline(never)]
fn decode_short<T: Word>(input: &[u8]) -> Raw {
    match input.first() {
        None => raw_err(DecodeErrorKind::Truncated),
        Some(&b) if b < 0x80 => (u64::from(b), 1),
        Some(_) => {
            // u64 with 8 or 9 bytes: the first eight as a word, byte 8 (if
            // any) in `hi`; shorter: assembled, padded with 0x80.
            let (w, hi) = match load8(input) {
                Some(w) => (w, 0x8000 | u16::from(input.get(8).copied().unwrap_or(0x80))),
                None => (short_word(input), 0x8080),
            };
            let (v, len, bad) = from_words::<Portable, T>(w, hi);
            if bad || len > input.len() {
                return slow::<T>(input);
            }
            (v, len)
        }
    }
}

/// Everything the fast paths doubt: the reference decides (and names the
/// error).
#[cold]
#[inline(never)]
pub(crate) fn slow<T: Word>(input: &[u8]) -> Raw {
    match reference::<T>(input) {
        Ok(r) => r,
        Err(kind) => raw_err(kind),
    }
}

/// The encoded length of `v`: `1 + floor(log2(v | 1) / 7)`.
#[inline(always)]
pub(crate) fn encoded_len(v: u64) -> usize {
    let log2 = 63 - (v | 1).leading_zeros() as usize;
    (log2 * 9 + 73) >> 6
}

/// Encodes `v` into two words (bytes 0..8 and 8..10) and its length.
#[inline(always)]
pub(crate) fn encode_words<B: Bits, T: Word>(v: T) -> (u64, u16, usize) {
    let v = v.to_u64();
    let len = encoded_len(v);
    if T::MAX_BYTES <= 8 {
        let x = B::spread(v, T::MAX_BYTES);
        // Continuation bits on bytes 0..len-1 (len - 1 <= 4 here).
        let cont = CONT & ((1u64 << (8 * (len - 1))) - 1);
        (x | cont, 0, len)
    } else {
        let x = B::spread(v & 0x00FF_FFFF_FFFF_FFFF, 8);
        // Continuation bits on bytes 0..len-1 of the low word (all eight
        // when len > 8): CONT shifted down by 64 - 8 (len - 1), or none.
        let k = (len - 1).min(8) as u32;
        let cont = CONT.checked_shr(64 - 8 * k).unwrap_or(0);
        let hi = ((v >> 56) as u16 & 0x7F) | (((len > 9) as u16) << 7) | (((v >> 63) as u16) << 8);
        (x | cont, hi, len)
    }
}

/// [`encode_words`] as an array.
#[inline(always)]
pub(crate) fn encode_with<B: Bits, T: Word>(v: T) -> ([u8; 16], usize) {
    let (lo, hi, len) = encode_words::<B, T>(v);
    let mut out = [0u8; 16];
    out[..8].copy_from_slice(&lo.to_le_bytes());
    out[8..10].copy_from_slice(&hi.to_le_bytes());
    (out, len)
}

/// Encodes `v` at the start of `out`: its length, or `None` if `out` is too
/// short. Writes whole words when `out` has room for them (bytes past the
/// length may be overwritten), else exactly the value's bytes.
#[inline(always)]
pub(crate) fn encode_to_slice_with<B: Bits, T: Word>(v: T, out: &mut [u8]) -> Option<usize> {
    let (lo, hi, len) = encode_words::<B, T>(v);
    if T::MAX_BYTES > 8 {
        if let Some(head) = out.first_chunk_mut::<10>() {
            let (a, b) = head.split_at_mut(8);
            a.copy_from_slice(&lo.to_le_bytes());
            b.copy_from_slice(&hi.to_le_bytes());
            return Some(len);
        }
    }
    if len <= 8 {
        if let Some(head) = out.first_chunk_mut::<8>() {
            *head = lo.to_le_bytes();
            return Some(len);
        }
    }
    let mut all = [0u8; 16];
    all[..8].copy_from_slice(&lo.to_le_bytes());
    all[8..10].copy_from_slice(&hi.to_le_bytes());
    out.get_mut(..len)?.copy_from_slice(&all[..len]);
    Some(len)
}

/// Decodes `N` adjacent values; on error, the index of the bad value and
/// the offset of its first byte.
///
/// u8/u16/u32 with `N * MAX_BYTES + 8` bytes (at least 16) in the slice:
/// one bitmask of the terminating bytes of the window (`pmovmskb` per 16
/// bytes on x86-64, else eight bytes per word), then each
/// value's start and length from the mask's lowest set bits, so the values'
/// loads do not wait for each other's lengths. A value that is too long or
/// too large, any u64, and windows near the end go value by value, which
/// also reports the first error exactly.
#[inline(always)]
pub(crate) fn decode_many_with<B: Bits, T: Word, const N: usize>(
    input: &[u8],
) -> Result<([T; N], usize), (DecodeErrorKind, usize, usize)> {
    if T::MAX_BYTES == 5 && N == 2 {
        // u32 pairs: both of the full five bytes first, as `decode_with`
        // does for one value (random u32: 88% of pairs), a predicted
        // branch that gives the caller's next position without waiting
        // for the lengths.
        if let Some(c) = input.first_chunk::<13>() {
            let w0 = u64::from_le_bytes(c[..8].try_into().expect("8 bytes"));
            let w1 = u64::from_le_bytes(c[5..].try_into().expect("8 bytes"));
            if is_full_five(w0) && is_full_five(w1) {
                if let (Some(v0), Some(v1)) = (full_five::<B, T>(w0), full_five::<B, T>(w1)) {
                    let mut out = [T::from_u64(0); N];
                    out[0] = v0;
                    out[1] = v1;
                    return Ok((out, 10));
                }
            }
        }
    }
    if T::MAX_BYTES <= 5 {
        let window = N * T::MAX_BYTES;
        let need = (window + 8).max(window.next_multiple_of(16));
        if window <= 56 && input.len() >= need {
            let mut stops = 0u64;
            let mut k = 0;
            while k < window {
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                {
                    let chunk = input[k..].first_chunk::<16>().expect("`need` bytes");
                    stops |= super::x86::stops16(chunk) << k;
                    k += 16;
                }
                #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
                {
                    let w = load8(&input[k..]).expect("window + 8 bytes");
                    stops |= B::gather(!w) << k;
                    k += 8;
                }
            }
            stops &= (1u64 << window) - 1;
            let mut out = [T::from_u64(0); N];
            let mut bad = false;
            let mut start = 0usize;
            for slot in out.iter_mut() {
                let end = stops.trailing_zeros() as usize + 1; // 65 when none
                stops &= stops.wrapping_sub(1);
                let len = end.wrapping_sub(start);
                bad |= len > T::MAX_BYTES;
                let at = start.min(window);
                let w = load8(&input[at..]).expect("window + 8 bytes");
                let x = w & (u64::MAX >> (64 - 8 * len.clamp(1, 8)));
                let v = B::compact(x, T::MAX_BYTES);
                bad |= v > T::MAX_U64;
                *slot = T::from_u64(v);
                start = end;
            }
            if !bad {
                return Ok((out, start));
            }
        }
    }
    let mut out = [T::from_u64(0); N];
    let mut pos = 0;
    for (i, slot) in out.iter_mut().enumerate() {
        let rest = input.get(pos..).unwrap_or_default();
        let (v, len) = decode_with::<B, T>(rest).map_err(|k| (k, pos, i))?;
        *slot = v;
        pos += len;
    }
    Ok((out, pos))
}

/// Encodes `N` values at the start of `out`: bytes written, or `None` when
/// `out` is too short (then `out` may hold part of the encoding).
#[inline(always)]
pub(crate) fn encode_many_with<B: Bits, T: Word, const N: usize>(
    values: &[T; N],
    out: &mut [u8],
) -> Option<usize> {
    let mut pos = 0;
    for &v in values {
        let rest = out.get_mut(pos..)?;
        pos += encode_to_slice_with::<B, T>(v, rest)?;
    }
    Some(pos)
}

// ------------------------------------------------------------ the kernel

#[inline(always)]
pub(crate) fn decode<T: Word>(input: &[u8]) -> Result<(T, usize), DecodeErrorKind> {
    decode_with::<Portable, T>(input)
}

#[inline(always)]
pub(crate) fn encode<T: Word>(v: T) -> ([u8; 16], usize) {
    encode_with::<Portable, T>(v)
}

#[inline(always)]
pub(crate) fn encode_to_slice<T: Word>(v: T, out: &mut [u8]) -> Option<usize> {
    encode_to_slice_with::<Portable, T>(v, out)
}

#[inline(always)]
pub(crate) fn decode_many<T: Word, const N: usize>(
    input: &[u8],
) -> Result<([T; N], usize), (DecodeErrorKind, usize, usize)> {
    decode_many_with::<Portable, T, N>(input)
}

#[inline(always)]
pub(crate) fn encode_many<T: Word, const N: usize>(
    values: &[T; N],
    out: &mut [u8],
) -> Option<usize> {
    encode_many_with::<Portable, T, N>(values, out)
}
