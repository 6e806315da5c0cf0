//! x86-64 VByte kernels (Masked VByte).

#[macro_use]
mod kernels;
#[macro_use]
mod seek;

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;
