//! x86-64 BP128 kernels: one unpack/pack body (`kernels.rs`, every bit width
//! a const-generic instance, fully unrolled) over three vector shapes:
//! `__m128i` (4 lanes), a pair of `__m128i` (8 lanes on SSE4.1) and
//! `__m256i` (8 lanes on AVX2).

#[macro_use]
pub(crate) mod kernels;

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;
