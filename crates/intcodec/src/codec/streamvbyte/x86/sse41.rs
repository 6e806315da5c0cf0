//! SSE4.1 Stream VByte kernels (decode, delta decode, encode, delta encode),
//! for both variants.
//!
//! Decode is the paper's Fig. 4 loop: per control byte, a 16-byte load of the
//! data, a `pshufb` with the control byte's mask from a 256-entry table, a
//! 16-byte store of four values, and the data pointer advanced by the length
//! table. Four control bytes are read at once; when all four are zero (16
//! one-byte values in the standard variant, 16 zeros in "0124") a shorter path
//! widens the bytes with `pmovzxbd` (or stores zeros). Delta decoding adds the
//! SIMD prefix sum of paper §2 (two shifted adds and a broadcast).
//!
//! Encode computes the four codes with unsigned `pminud`/`pcmpeqd`
//! comparisons, packs them into the control byte, and gathers the significant
//! bytes with one `pshufb` from a 256-entry table.
//!
//! Bounds: the checked decoder loads 16 bytes at a data offset only when at
//! least 16 bytes of `input` remain there (64 for a block of four groups), so
//! it never reads past `input`; what is left is decoded by the scalar kernel,
//! which reports truncation. The encoder stores 16 bytes only when 16 bytes of
//! `out` remain. Requires SSSE3 and SSE4.1.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{control_len, scalar, Format, Kernels, Variant, F0124, F1234};
use crate::error::DecodeError;
use crate::isa::Isa;
use crate::tables::streamvbyte::{SvbTables, TABLES_0124, TABLES_1234};

pub(crate) static KERNELS_1234: Kernels = kernels::<F1234>();
pub(crate) static KERNELS_0124: Kernels = kernels::<F0124>();

const fn kernels<F: Format>() -> Kernels {
    Kernels {
        isa: Isa::Sse41,
        variant: F::VARIANT,
        decode: decode::<F, false>,
        decode_delta: decode::<F, true>,
        decode_unchecked: decode_unchecked::<F, false>,
        decode_delta_unchecked: decode_unchecked::<F, true>,
        encode: encode::<F, false>,
        encode_delta: encode::<F, true>,
    }
}

/// Shuffle masks as vectors, so that a table look-up is a plain (safe) copy.
struct Masks {
    decode: [__m128i; 256],
    encode: [__m128i; 256],
}

const fn masks(t: &SvbTables) -> Masks {
    // SAFETY: `[[u8; 16]; 256]` and `[__m128i; 256]` have the same size and
    // every bit pattern is a valid `__m128i`.
    let decode = unsafe { core::mem::transmute::<[[u8; 16]; 256], [__m128i; 256]>(t.decode) };
    // SAFETY: as above.
    let encode = unsafe { core::mem::transmute::<[[u8; 16]; 256], [__m128i; 256]>(t.encode) };
    Masks { decode, encode }
}

static MASKS_1234: Masks = masks(&TABLES_1234);
static MASKS_0124: Masks = masks(&TABLES_0124);

#[inline(always)]
fn masks_of<F: Format>() -> &'static Masks {
    match F::VARIANT {
        Variant::V1234 => &MASKS_1234,
        Variant::V0124 => &MASKS_0124,
    }
}

/// Prefix sum of four lanes plus the running total `prev` (broadcast);
/// returns the sums and the new broadcast total.
#[target_feature(enable = "sse4.1")]
#[inline]
fn prefix_sum(v: __m128i, prev: __m128i) -> (__m128i, __m128i) {
    let v = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
    let v = _mm_add_epi32(v, _mm_slli_si128::<8>(v));
    let v = _mm_add_epi32(v, prev);
    (v, _mm_shuffle_epi32::<0xFF>(v))
}

#[target_feature(enable = "sse4.1")]
#[inline]
fn store4(dst: &mut [u32; 4], v: __m128i) {
    // SAFETY: `dst` is 16 writable bytes; unaligned store.
    unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) }
}

/// Decodes one group whose control byte is `key` from the 16 bytes at `src`.
///
/// # Safety
/// `src` must be valid for reading 16 bytes.
#[target_feature(enable = "sse4.1")]
#[inline]
unsafe fn group<F: Format, const DELTA: bool>(
    src: *const u8,
    key: u8,
    dst: &mut [u32; 4],
    prev: &mut __m128i,
) -> usize {
    // SAFETY: the caller guarantees 16 readable bytes at `src`.
    let data = unsafe { _mm_loadu_si128(src.cast()) };
    let mut v = _mm_shuffle_epi8(data, masks_of::<F>().decode[key as usize]);
    if DELTA {
        (v, *prev) = prefix_sum(v, *prev);
    }
    store4(dst, v);
    F::tables().len[key as usize] as usize
}

/// Sixteen values of four all-zero control bytes: sixteen one-byte values
/// (standard variant) or sixteen zeros ("0124").
///
/// # Safety
/// For the standard variant, `src` must be valid for reading 16 bytes.
#[target_feature(enable = "sse4.1")]
#[inline]
unsafe fn zero_block<F: Format, const DELTA: bool>(
    src: *const u8,
    dst: &mut [[u32; 4]; 4],
    prev: &mut __m128i,
) -> usize {
    match F::VARIANT {
        Variant::V1234 => {
            // SAFETY: the caller guarantees 16 readable bytes at `src`.
            let data = unsafe { _mm_loadu_si128(src.cast()) };
            let lanes = [
                _mm_cvtepu8_epi32(data),
                _mm_cvtepu8_epi32(_mm_srli_si128::<4>(data)),
                _mm_cvtepu8_epi32(_mm_srli_si128::<8>(data)),
                _mm_cvtepu8_epi32(_mm_srli_si128::<12>(data)),
            ];
            for (d, mut v) in dst.iter_mut().zip(lanes) {
                if DELTA {
                    (v, *prev) = prefix_sum(v, *prev);
                }
                store4(d, v);
            }
            16
        }
        Variant::V0124 => {
            let v = if DELTA { *prev } else { _mm_setzero_si128() };
            for d in dst.iter_mut() {
                store4(d, v);
            }
            0
        }
    }
}

/// The decode loop shared by the checked and unchecked entry points.
///
/// # Safety
/// If `CHECKED` is false, `input` must hold a valid stream of `out.len()`
/// values followed by `PADDING` bytes. `input.len() >= control_len(out.len())`.
#[target_feature(enable = "sse4.1")]
#[inline]
unsafe fn decode_loop<F: Format, const DELTA: bool, const CHECKED: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    let n = out.len();
    let ctrl = &input[..control_len(n)];
    let base = input.as_ptr();
    let len = input.len();
    let mut pos = ctrl.len();
    let mut prev_v = _mm_set1_epi32(prev as i32);
    let (groups, _) = out.as_chunks_mut::<4>();
    let (blocks, _) = groups.as_chunks_mut::<4>();
    let mut done = 0; // groups decoded

    for (keys, dst) in ctrl.chunks_exact(4).zip(blocks.iter_mut()) {
        // Invariant: pos <= len. A block reads at most 64 bytes from `pos`.
        if CHECKED && len - pos < 64 {
            break;
        }
        let key = u32::from_le_bytes([keys[0], keys[1], keys[2], keys[3]]);
        if key == 0 {
            // SAFETY: 64 (checked) or, for trusted input, 16 data bytes plus
            // padding are readable at `pos`.
            pos += unsafe { zero_block::<F, DELTA>(base.add(pos), dst, &mut prev_v) };
        } else {
            for (k, d) in keys.iter().zip(dst.iter_mut()) {
                // SAFETY: each group consumes at most 16 bytes, so this load
                // starts at most 48 bytes into the 64 checked above (or reads
                // inside the trusted data plus padding).
                pos += unsafe { group::<F, DELTA>(base.add(pos), *k, d, &mut prev_v) };
            }
        }
        done += 4;
    }
    let full = n / 4;
    while done < full {
        if CHECKED && len - pos < 16 {
            break;
        }
        // SAFETY: 16 bytes remain at `pos` (checked, or padding).
        pos +=
            unsafe { group::<F, DELTA>(base.add(pos), ctrl[done], &mut groups[done], &mut prev_v) };
        done += 1;
    }
    let prev = _mm_cvtsi128_si32(prev_v) as u32;
    scalar::decode_from::<F, DELTA>(input, out, done * 4, pos, prev)
}

/// Checked decode: see [`Kernels`](super::super::Kernels).
#[target_feature(enable = "sse4.1")]
fn decode<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    // SAFETY: CHECKED = true has no precondition beyond the control-byte
    // length, which the handle validated.
    unsafe { decode_loop::<F, DELTA, true>(input, out, prev) }
}

/// Unchecked decode of trusted, padded input.
///
/// # Safety
/// `input` holds a valid stream of `out.len()` values plus `PADDING` bytes.
#[target_feature(enable = "sse4.1")]
unsafe fn decode_unchecked<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> usize {
    // SAFETY: forwarded from the caller.
    let r = unsafe { decode_loop::<F, DELTA, false>(input, out, prev) };
    r.unwrap_or(0)
}

/// The control byte for four values.
#[target_feature(enable = "sse4.1")]
#[inline]
fn key_of<F: Format>(v: __m128i) -> u8 {
    // ge(t) = all ones in lanes where v >= t (unsigned).
    let ge = |t: i32| {
        let t = _mm_set1_epi32(t);
        _mm_cmpeq_epi32(_mm_min_epu32(v, t), t)
    };
    let first = match F::VARIANT {
        Variant::V1234 => ge(0x100_0000),
        Variant::V0124 => ge(1),
    };
    // Each comparison is -1 where true; the negated sum is the code.
    let codes = _mm_sub_epi32(
        _mm_setzero_si128(),
        _mm_add_epi32(_mm_add_epi32(ge(0x100), ge(0x1_0000)), first),
    );
    let packed = _mm_shuffle_epi8(
        codes,
        _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1),
    );
    let x = _mm_cvtsi128_si32(packed) as u32;
    (x | x >> 6 | x >> 12 | x >> 18) as u8
}

/// Encodes `values` (deltas from `prev` if `DELTA`); `out` holds the encoded
/// length.
#[target_feature(enable = "sse4.1")]
fn encode<F: Format, const DELTA: bool>(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    let cl = control_len(values.len());
    let (ctrl, data) = out.split_at_mut(cl);
    let (groups, _) = values.as_chunks::<4>();
    let masks = &masks_of::<F>().encode;
    let lens = &F::tables().len;
    let mut pos = 0;
    let mut prev_v = _mm_set1_epi32(prev as i32);
    let mut done = 0;
    for (key_slot, g) in ctrl.iter_mut().zip(groups) {
        if data.len() - pos < 16 {
            break;
        }
        // SAFETY: `g` is 16 readable bytes.
        let v = unsafe { _mm_loadu_si128(g.as_ptr().cast()) };
        let d = if DELTA {
            let d = _mm_sub_epi32(v, _mm_alignr_epi8::<12>(v, prev_v));
            prev_v = v;
            d
        } else {
            v
        };
        let key = key_of::<F>(d);
        let bytes = _mm_shuffle_epi8(d, masks[key as usize]);
        // SAFETY: at least 16 bytes of `data` remain at `pos` (checked above).
        unsafe { _mm_storeu_si128(data.as_mut_ptr().add(pos).cast(), bytes) };
        *key_slot = key;
        pos += lens[key as usize] as usize;
        done += 1;
    }
    let prev = if DELTA && done > 0 {
        values[done * 4 - 1]
    } else {
        prev
    };
    scalar::encode_from::<F, DELTA>(values, prev, out, done * 4, cl + pos)
}
