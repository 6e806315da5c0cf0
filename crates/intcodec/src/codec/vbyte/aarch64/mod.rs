//! AArch64 VByte kernels (Masked VByte decode).

pub(crate) mod neon;
