//! AArch64 BP128 kernels: the x86 unpack/pack body (`bp_body!` in
//! `x86/kernels.rs`, written over a vector type `V` and its operations, no
//! x86 intrinsic in it) compiled over NEON operations for the 4x layout,
//! and over `ops_pair!` of those for 8x and 16x.
//! The body's file is shared by path: it holds only macros, and the x86
//! operation macros in it are never expanded here.

#[macro_use]
#[path = "../x86/kernels.rs"]
#[allow(unused_imports, unused_macros)]
pub(crate) mod kernels;

pub mod neon;
