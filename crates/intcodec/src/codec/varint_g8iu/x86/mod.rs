//! x86-64 VarInt-G8IU kernels: one algorithm (`kernels.rs`), compiled for
//! SSSE3 (legacy encoding) and for AVX2 (VEX encoding).

#[macro_use]
mod kernels;

pub(crate) mod avx2;
pub(crate) mod ssse3;
