//! AVX-512 Stream VByte kernel set: a sixteen-values-per-step encoder built
//! on VBMI2's byte compress; decoding uses the AVX2 kernels.
//!
//! Encode, per sixteen values (one 512-bit register, four control bytes):
//! three unsigned compares give, per value, whether it needs more than one,
//! two and three code steps (1234: `v > 0xFF`, `v > 0xFFFF`, `v > 0xFF_FFFF`;
//! 0124: `v > 0`, `v > 0xFF`, `v > 0xFFFF`). A value's code is the number of
//! compares it passes, so its low bit is the XOR of the three masks and its
//! high bit the middle one; `pdep` interleaves those into the four control
//! bytes. Which of the 64 bytes are significant comes straight into a mask
//! register: each value's bytes ORed downwards (two shifts, two ORs), a byte
//! kept where the result is non-zero (`vptestmb`; byte 0 always for 1234, byte
//! 3 with byte 2 for 0124). It replaced four `pdep`s of the compare masks into
//! byte positions (postings encode on a Xeon against lemire/streamvbyte:
//! 0.93x to 1.07x; delta 0.99x to 1.11x).
//! `vpcompressb` packs the kept bytes to the front of a register
//! that is stored whole (64 bytes), and the data offset advances by the mask's
//! population count. Delta coding subtracts the values shifted by one lane
//! (`valignd`), the previous register's last lane shifted in.
//!
//! Why decode stays AVX2: a group's data offset depends on the previous
//! group, so a wider decoder needs `vpexpandb` with per-block masks built from
//! four control bytes; not done yet. The AVX2 kernels are sound here because
//! `Isa::Avx512` is only detected together with the AVX2 set.
//!
//! Bounds: a 64-byte store happens only while 64 bytes of the data area
//! remain; the rest (and lists shorter than 64 values) go to the AVX2
//! kernel's group-at-a-time tail and then scalar, so `out` may be exactly the
//! encoded length. Requires AVX-512 F, BW, VL, VBMI, VBMI2, AVX2, BMI1, BMI2,
//! POPCNT.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{control_len, Format, Kernels, Variant, F0124, F1234};
use super::avx2;
use crate::isa::Isa;

pub(crate) static KERNELS_1234: Kernels = kernels::<F1234>(&avx2::KERNELS_1234);
pub(crate) static KERNELS_0124: Kernels = kernels::<F0124>(&avx2::KERNELS_0124);

const fn kernels<F: Format>(decoders: &Kernels) -> Kernels {
    Kernels {
        isa: Isa::Avx512,
        variant: F::VARIANT,
        decode: decoders.decode,
        decode_delta: decoders.decode_delta,
        decode_unchecked: decoders.decode_unchecked,
        decode_delta_unchecked: decoders.decode_delta_unchecked,
        encode: encode::<F, false>,
        encode_delta: encode::<F, true>,
        select: decoders.select,
        select_delta: decoders.select_delta,
        seek_delta: decoders.seek_delta,
        decode_counted: decoders.decode_counted,
        decode_delta_counted: decoders.decode_delta_counted,
    }
}

/// Encodes `values` (deltas from `prev` if `DELTA`); `out` holds the encoded
/// length.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,bmi1,bmi2,popcnt")]
fn encode<F: Format, const DELTA: bool>(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    let cl = control_len(values.len());
    let (ctrl, data) = out.split_at_mut(cl);
    let (key_blocks, _) = ctrl.as_chunks_mut::<4>();
    let (t1, t2, t3) = match F::VARIANT {
        Variant::V1234 => (0xFF, 0xFFFF, 0xFF_FFFF),
        Variant::V0124 => (0, 0xFF, 0xFFFF),
    };
    let (t1, t2, t3) = (
        _mm512_set1_epi32(t1),
        _mm512_set1_epi32(t2),
        _mm512_set1_epi32(t3),
    );
    let mut prev_v = _mm512_set1_epi32(prev as i32);
    let mut pos = 0;
    let mut done = 0;
    let (blocks, _) = values.as_chunks::<16>();
    for (keys, block) in key_blocks.iter_mut().zip(blocks) {
        // One 64-byte store per block: stop when 64 bytes no longer remain.
        let Some(dst) = data.get_mut(pos..pos + 64) else {
            break;
        };
        // SAFETY: `block` is 16 readable u32s (64 bytes).
        let raw = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        let v = if DELTA {
            let d = _mm512_sub_epi32(raw, _mm512_alignr_epi32::<15>(raw, prev_v));
            prev_v = raw;
            d
        } else {
            raw
        };
        let m1 = u32::from(_mm512_cmpgt_epu32_mask(v, t1));
        let m2 = u32::from(_mm512_cmpgt_epu32_mask(v, t2));
        let m3 = u32::from(_mm512_cmpgt_epu32_mask(v, t3));
        let key = _pdep_u32(m1 ^ m2 ^ m3, 0x5555_5555) | _pdep_u32(m2, 0xAAAA_AAAA);
        *keys = key.to_le_bytes();
        // Byte k of a value is significant when a byte at k or above is
        // non-zero: OR each value's bytes downwards, test them.
        let t = _mm512_or_si512(v, _mm512_srli_epi32::<8>(v));
        let w = _mm512_or_si512(t, _mm512_srli_epi32::<16>(t));
        let nz = _mm512_test_epi8_mask(w, w);
        let keep = match F::VARIANT {
            Variant::V1234 => nz | 0x1111_1111_1111_1111,
            // A value over 16 bits takes all four bytes.
            Variant::V0124 => nz | (nz & 0x4444_4444_4444_4444) << 1,
        };
        let packed = _mm512_maskz_compress_epi8(keep, v);
        // SAFETY: `dst` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), packed) };
        pos += keep.count_ones() as usize;
        done += 16;
    }
    avx2::encode_rest::<F, DELTA>(values, prev, out, done, pos)
}
