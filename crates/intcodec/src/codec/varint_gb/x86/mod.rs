//! x86-64 VarInt-GB kernels: one algorithm (`kernels.rs`), compiled for
//! SSSE3 (legacy encoding) and for AVX2 (VEX encoding); the AVX-512
//! decoder (`avx512.rs`) takes long lists a window at a time and hands the
//! rest to the AVX2 loop.

#[macro_use]
mod kernels;

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod ssse3;
