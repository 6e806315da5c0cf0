//! BMI2 kernel: the scalar word algorithm (`scalar.rs`) with the 7-bit
//! compaction done by one `pext` and the spread by one `pdep`. Requires
//! BMI1 + BMI2 (+ LZCNT for the length of an encoding); chosen by default
//! only where `pdep`/`pext` are fast (see `pdep_is_fast`). Reads what the
//! scalar kernel reads: 8 (u64: 10) bytes only when the slice has them.

use super::super::scalar::{self, Bits};
use super::super::{unchecked, Word};
use crate::error::DecodeErrorKind;
use core::arch::x86_64::{_pdep_u64, _pext_u64};

const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// `pext` / `pdep`. Private to this file and used only inside the
/// `#[target_feature(enable = "bmi2")]` functions below.
struct Pext;
impl Bits for Pext {
    #[inline(always)]
    fn compact(x: u64, _bytes: usize) -> u64 {
        // SAFETY: reached only from the bmi2 functions of this file, which
        // the `Varint` handle calls only on CPUs with BMI2.
        unsafe { _pext_u64(x, LOW7) }
    }
    #[inline(always)]
    fn spread(v: u64, _bytes: usize) -> u64 {
        // SAFETY: as in `compact`.
        unsafe { _pdep_u64(v, LOW7) }
    }
    #[inline(always)]
    fn gather(x: u64) -> u64 {
        // SAFETY: as in `compact`.
        unsafe { _pext_u64(x, 0x8080_8080_8080_8080) }
    }
}

#[target_feature(enable = "bmi1,bmi2,lzcnt")]
#[inline]
pub(crate) fn decode<T: Word>(input: &[u8]) -> Result<(T, usize), DecodeErrorKind> {
    scalar::decode_with::<Pext, T>(input)
}

/// # Safety
/// `input.len() >= 16`.
#[target_feature(enable = "bmi1,bmi2,lzcnt")]
#[inline]
pub(crate) unsafe fn decode_unchecked<T: Word>(input: &[u8]) -> (T, usize) {
    // SAFETY: the caller's contract.
    unsafe { unchecked::decode::<Pext, T>(input) }
}

#[target_feature(enable = "bmi1,bmi2,lzcnt")]
#[inline]
pub(crate) fn encode<T: Word>(v: T) -> ([u8; 16], usize) {
    scalar::encode_with::<Pext, T>(v)
}

#[target_feature(enable = "bmi1,bmi2,lzcnt")]
#[inline]
pub(crate) fn encode_to_slice<T: Word>(v: T, out: &mut [u8]) -> Option<usize> {
    scalar::encode_to_slice_with::<Pext, T>(v, out)
}

/// Two or four u8/u16 values take the SSSE3 kernel's table path (the
/// kernel is enabled only with the `avx2` level, which includes SSSE3),
/// eight u8 the loop-free `pext` path below.
#[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt,ssse3")]
#[inline]
pub(crate) fn decode_many<T: Word, const N: usize>(
    input: &[u8],
) -> Result<([T; N], usize), (DecodeErrorKind, usize, usize)> {
    if super::ssse3::small_many::<T, N>() {
        let (r, len) = super::ssse3::many_small::<T, N>(input);
        if len != 0 {
            return Ok((super::ssse3::small_values(r), len));
        }
    } else if T::MAX_BYTES == 2 && N <= 8 {
        if let Some((b, len)) = many_u8::<N>(input) {
            let mut out = [T::from_u64(0); N];
            for (o, &x) in out.iter_mut().zip(&b) {
                *o = T::from_u64(u64::from(x));
            }
            return Ok((out, len));
        }
    }
    scalar::decode_many_with::<Pext, T, N>(input)
}

#[target_feature(enable = "bmi1,bmi2,lzcnt")]
#[inline]
pub(crate) fn encode_many<T: Word, const N: usize>(
    values: &[T; N],
    out: &mut [u8],
) -> Option<usize> {
    scalar::encode_many_with::<Pext, T, N>(values, out)
}

const BYTE_LSB: u64 = 0x0101_0101_0101_0101;

/// Byte `i` of the result is `0xFF` where bit `i` of `bits` is set.
#[target_feature(enable = "bmi1,bmi2,popcnt")]
#[inline]
fn byte_mask(bits: u64) -> u64 {
    _pdep_u64(bits, BYTE_LSB).wrapping_mul(0xFF)
}

/// The bytes of the 16-byte window `(w0, w1)` selected by `bits` (one bit
/// per byte), packed in order.
#[target_feature(enable = "bmi1,bmi2,popcnt")]
#[inline]
fn select16(w0: u64, w1: u64, bits: u64) -> u64 {
    let lo = bits & 0xFF;
    let a = _pext_u64(w0, byte_mask(lo));
    let b = _pext_u64(w1, byte_mask(bits >> 8));
    a | b.checked_shl(8 * lo.count_ones()).unwrap_or(0)
}

/// `N` (2, 4 or 8) u8 values from the first 16 bytes of `input` without a
/// loop (the first `N` bytes of the result):
/// from the terminators' bitmask `m`, `pext` gathers each value's last
/// byte and the first bytes of the two-byte values, `pdep` puts each first
/// byte in its value's slot, and the bytes are joined eight at a time.
/// `None` (the caller then goes value by value, which also names any
/// error) when fewer than 16 bytes remain, when the `N` values do not
/// end within them, or when a value is too long or too large.
#[target_feature(enable = "bmi1,bmi2,popcnt")]
#[inline]
pub(crate) fn many_u8<const N: usize>(input: &[u8]) -> Option<([u8; 8], usize)> {
    let c = input.first_chunk::<16>()?;
    let (a, b) = c.split_at(8);
    let w0 = u64::from_le_bytes(a.try_into().ok()?);
    let w1 = u64::from_le_bytes(b.try_into().ok()?);
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let m = _pext_u64(!w0, HIGH) | (_pext_u64(!w1, HIGH) << 8);
    if (m.count_ones() as usize) < N {
        return None;
    }
    let nth = _pdep_u64(1 << (N - 1), m);
    let total = nth.trailing_zeros() as usize + 1;
    let window = (nth << 1).wrapping_sub(1);
    let stops = m & window;
    let conts = !m & window;
    // Two continuation bytes in a row: a value of three or more bytes.
    if conts & (conts << 1) != 0 {
        return None;
    }
    let last = select16(w0, w1, stops);
    let first = select16(w0, w1, conts);
    // Value i has two bytes when the byte before its terminator continues.
    let two = byte_mask(_pext_u64(stops & (conts << 1), stops));
    // A two-byte u8 carries one bit in its second byte.
    if last & two & 0xFEFE_FEFE_FEFE_FEFE != 0 {
        return None;
    }
    let joined = ((_pdep_u64(first, two) & 0x7F7F_7F7F_7F7F_7F7F) | ((last & BYTE_LSB) << 7)) & two;
    Some(((joined | (last & !two)).to_le_bytes(), total))
}
