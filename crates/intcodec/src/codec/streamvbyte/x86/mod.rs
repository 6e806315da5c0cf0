//! x86-64 Stream VByte kernels.

#[macro_use]
pub(crate) mod kernels;

pub(crate) mod avx2;
pub(crate) mod avx512;
pub(crate) mod sse41;
