//! Look-up tables shared by kernels, built at compile time by `const fn`.
//!
//! Each builder is checked by a unit test against an independent, naive
//! construction.

pub(crate) mod streamvbyte;
#[cfg(feature = "g8iu")]
pub(crate) mod varint_g8iu;
pub(crate) mod varint_gb;
pub(crate) mod vbyte;
