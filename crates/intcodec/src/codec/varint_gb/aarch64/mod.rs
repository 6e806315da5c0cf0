//! AArch64 VarInt-GB kernels.

pub(crate) mod neon;
