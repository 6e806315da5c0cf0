//! NEON BP128 kernels, both layouts: the x86 `bp_body!` (see
//! `x86/sse41.rs` for the algorithm) over NEON operations.
//!
//! - 4x layout: one `uint32x4_t` per group of four values (the layout
//!   simdcomp's SSE code and the x86 SSE4.1 kernel use).
//! - 8x layout (`BitPacker8x`, 256-bit words): one group of eight values is
//!   two `uint32x4_t` (two q registers), exactly as the x86 SSE4.1 8x kernel
//!   holds it (`ops_pair!` over the 4x operations): every operation is done
//!   twice, once per 128-bit half, and the word of 32 bytes is loaded and
//!   stored as two 16-byte halves (LLVM may pair them into `ldp`/`stp q`).
//! - 16x layout: `ops_pair!` again, over the 8x layout (four q registers).
//!
//! Unpack: per group, load the word the group starts in, shift right by the
//! group's bit offset, OR in the next word shifted left when the group
//! crosses it, mask; D1 (and Strict) decoding adds the in-register prefix
//! sum (`ext` against zero twice, plus the carried broadcast running value,
//! `dup` of the last lane; for 8x the low half's total is added to the high
//! half); Lane ("d4"/"d8") adds the previous group. Pack is the mirror image
//! (`ext` shifts the predecessors in for D1; for 8x across the two halves).
//! Output is byte-identical with the scalar and x86 kernels (the
//! conformance tests compare them).
//!
//! Shifts are `ushl` by a broadcast count (NEON shifts right by a
//! negative left shift); every count is a constant once a width's function
//! is unrolled, and LLVM folds them into `ushr`/`shl` immediates (checked
//! in the generated assembly, `docs/perf-notes.md`).
//!
//! Bounds: as the x86 kernels. A kernel asserts `input.len() >= VB * bits`
//! (VB = 16 for 4x, 32 for 8x; or the output's) once, and then reads only
//! words `0..bits` of the block. Requires NEON (baseline on AArch64).
//!
//! Guess: that two independent q-register chains per 8x group run as well
//! as the 4x kernel on real cores (no wider NEON register; SVE is not used)
//! is unmeasured — no ARM hardware here.

pub use self::l4::l8::l16::KERNELS as KERNELS_16;
pub use self::l4::l8::KERNELS as KERNELS_8;
pub use self::l4::KERNELS as KERNELS_4;

mod l4 {
    use core::arch::aarch64::*;

    type V = uint32x4_t;
    const L: usize = 4;
    /// Bytes per word.
    const VB: usize = 16;

    /// # Safety
    /// `p + off .. p + off + VB` is readable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn ld(p: *const u8, off: usize) -> V {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(off) };
        // SAFETY: VB readable bytes at `q` (caller).
        let bytes = unsafe { vld1q_u8(q) };
        vreinterpretq_u32_u8(bytes)
    }

    /// # Safety
    /// `p + off .. p + off + VB` is writable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn stb(p: *mut u8, off: usize, v: V) {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(off) };
        let bytes = vreinterpretq_u8_u32(v);
        // SAFETY: VB writable bytes at `q` (caller).
        unsafe { vst1q_u8(q, bytes) }
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn set1(x: u32) -> V {
        vdupq_n_u32(x)
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn srl(v: V, n: u32) -> V {
        vshlq_u32(v, vdupq_n_s32(-(n as i32)))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn sll(v: V, n: u32) -> V {
        vshlq_u32(v, vdupq_n_s32(n as i32))
    }

    // `max` is the unsigned maximum per lane.
    crate::aarch64::kernels::lanewise!(
        "neon",
        and = vandq_u32,
        or = vorrq_u32,
        max = vmaxq_u32,
        add = vaddq_u32,
        sub = vsubq_u32
    );

    /// The OR of `v`'s lanes (in registers).
    #[target_feature(enable = "neon")]
    #[inline]
    fn or_lanes(v: V) -> u32 {
        let x = vorr_u32(vget_low_u32(v), vget_high_u32(v));
        vget_lane_u32::<0>(x) | vget_lane_u32::<1>(x)
    }

    /// `[prev[3], v[0], v[1], v[2]]`.
    #[target_feature(enable = "neon")]
    #[inline]
    fn shift_in(prev: V, v: V) -> V {
        vextq_u32::<3>(prev, v)
    }

    /// Inclusive prefix sum of `v` plus the broadcast running value `c`;
    /// returns the sums and the new broadcast running value.
    #[target_feature(enable = "neon")]
    #[inline]
    fn prefix(v: V, c: V) -> (V, V) {
        let z = zero();
        let p = vaddq_u32(v, vextq_u32::<3>(z, v));
        let p = vaddq_u32(p, vextq_u32::<2>(z, p));
        let x = vaddq_u32(p, c);
        (x, vdupq_laneq_u32::<3>(x))
    }

    crate::aarch64::kernels::bp_body!("neon");

    /// The 8x layout: a group is two of the 4x layout's (two q registers);
    /// the low half's running value carries into the high half's prefix sum.
    pub(crate) mod l8 {
        crate::aarch64::kernels::ops_pair!("neon");
        crate::aarch64::kernels::bp_body!("neon");

        /// The 16x layout: a group is two of the 8x layout's (four q
        /// registers).
        pub(crate) mod l16 {
            crate::aarch64::kernels::ops_pair!("neon");
            crate::aarch64::kernels::bp_body!("neon");
        }
    }
}
