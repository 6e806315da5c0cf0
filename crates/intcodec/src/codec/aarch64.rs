//! NEON steps shared by the byte codecs' kernels (Stream VByte, VByte,
//! VarInt-GB), written once.

use core::arch::aarch64::*;

/// The 16 bytes of `src` as a vector.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn load16(src: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `src` is 16 readable bytes.
    unsafe { vld1q_u8(src.as_ptr()) }
}

/// Prefix sum of the four lanes of `v` plus the broadcast running total
/// `prev`; returns the sums and the new broadcast total.
#[target_feature(enable = "neon")]
#[inline]
pub(crate) fn prefix_sum(v: uint32x4_t, prev: uint32x4_t) -> (uint32x4_t, uint32x4_t) {
    let z = vdupq_n_u32(0);
    // Lanes shifted up by one, then by two (zeros shifted in).
    let v = vaddq_u32(v, vextq_u32::<3>(z, v));
    let v = vaddq_u32(v, vextq_u32::<2>(z, v));
    let total = vdupq_laneq_u32::<3>(v);
    (vaddq_u32(v, prev), vaddq_u32(total, prev))
}
