//! SSE4.1 BP128 kernels. 4x layout: one `__m128i` per group of four values
//! (simdcomp's SIMD unpack); 8x layout: each 256-bit word as two `__m128i`.
//! Unpack: per group, load the 16-byte word the group starts in, shift right
//! by the group's bit offset, OR in the next word shifted left when the group
//! crosses it, mask; D1 decoding adds the in-register prefix sum (two shifted
//! adds) and a carried broadcast running value; Lane ("d4") adds the
//! previous group. Pack is the mirror image. Requires SSE4.1 (uses SSSE3
//! `palignr`).
//!
//! Bounds: a kernel asserts `input.len() >= 16 * L / 4 * bits` (or the
//! output's) once, and then reads only words `0..bits` of the block: group
//! `g` starts at bit `g * bits <= 31 * bits` and ends before bit
//! `32 * bits`, so its words are below `bits`.

crate::x86::kernels::bp_kernel_sets!(@set l4 KERNELS_4 ops_m128, "sse4.1");
crate::x86::kernels::bp_kernel_sets!(@pair l8 KERNELS_8 ops_m128, "sse4.1", apart);
