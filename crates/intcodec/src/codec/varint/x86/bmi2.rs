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

#[target_feature(enable = "bmi1,bmi2,lzcnt")]
#[inline]
pub(crate) fn decode_many<T: Word, const N: usize>(
    input: &[u8],
) -> Result<([T; N], usize), (DecodeErrorKind, usize, usize)> {
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
