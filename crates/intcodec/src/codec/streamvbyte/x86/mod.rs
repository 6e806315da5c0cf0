//! x86-64 Stream VByte kernels.

pub(crate) mod sse41;
