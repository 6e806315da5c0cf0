//! AArch64 Stream VByte kernels.

pub(crate) mod neon;
