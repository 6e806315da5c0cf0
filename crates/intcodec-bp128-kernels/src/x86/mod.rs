//! x86-64 BP128 kernels: one unpack/pack body (`kernels.rs`, every bit width
//! a const-generic instance, fully unrolled) over three vector shapes:
//! `__m128i` (4 lanes), a pair of `__m128i` (8 lanes on SSE4.1) and
//! `__m256i` (8 lanes on AVX2).

#[macro_use]
pub(crate) mod kernels;
pub(crate) mod wide;

pub mod avx2;
/// Left out under `--cfg intcodec_skip_bp128_avx512`, which
/// scripts/test.sh sets on a CPU without AVX-512: there these sets could not
/// run, and they are a third of this crate's compile time (613 -> 387 CPU-s
/// for the test profile, 2026-11-30), built again by every test build that
/// compiles the crate. Clippy still checks them (it runs before the flag is
/// set); every other build (release, `cargo install`, the benchmark)
/// includes them, and on an AVX-512 CPU the tests compile and run them.
#[cfg(not(intcodec_skip_bp128_avx512))]
pub mod avx512;
pub mod sse41;

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// `__m256i`, for the kernel bodies whose modules do not import the
/// intrinsics (the pair layouts).
pub(crate) type M256 = __m256i;

/// Prefix sum of sixteen u32 lanes: four shifted adds (`valignd`). Also
/// intcodec's AVX-512 Stream VByte and VByte delta decoders' (one
/// definition).
///
/// # Safety
/// Outside code compiled with `avx512f`, only on a CPU that has it (a
/// `#[target_feature]` function is `unsafe` to call there).
#[target_feature(enable = "avx512f")]
#[inline]
pub fn prefix16(v: __m512i) -> __m512i {
    let zero = _mm512_setzero_si512();
    let v = _mm512_add_epi32(v, _mm512_alignr_epi32::<15>(v, zero));
    let v = _mm512_add_epi32(v, _mm512_alignr_epi32::<14>(v, zero));
    let v = _mm512_add_epi32(v, _mm512_alignr_epi32::<12>(v, zero));
    _mm512_add_epi32(v, _mm512_alignr_epi32::<8>(v, zero))
}
