//! NEON BP128 kernels, both layouts: the x86 `bp_body!` (see
//! `x86/sse41.rs` for the algorithm) over NEON operations.
//!
//! - 4x layout: one `uint32x4_t` per group of four values (the layout
//!   simdcomp's SSE code and the x86 SSE4.1 kernel use).
//! - 8x layout (`BitPacker8x`, 256-bit words): one group of eight values is
//!   two `uint32x4_t` (two q registers), exactly as the x86 SSE4.1 8x kernel
//!   (`ops_m128x2!`) holds it: every operation is done twice, once per
//!   128-bit half, and the word of 32 bytes is loaded and stored as two
//!   16-byte halves (LLVM may pair them into `ldp`/`stp q`).
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

pub use self::l4::KERNELS as KERNELS_4;
pub use self::l8::x2::KERNELS as KERNELS_16;
pub use self::l8::KERNELS as KERNELS_8;

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

    /// # Safety
    /// `p[idx .. idx + L]` is readable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn ldv(p: *const u32, idx: usize) -> V {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(idx) };
        // SAFETY: L readable u32 at `q` (caller).
        unsafe { vld1q_u32(q) }
    }

    /// # Safety
    /// `p[idx .. idx + L]` is writable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn st(p: *mut u32, idx: usize, v: V) {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(idx) };
        // SAFETY: L writable u32 at `q` (caller).
        unsafe { vst1q_u32(q, v) }
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn lanes(prev: &Prev) -> V {
        // SAFETY: `prev` holds 8 >= 4 readable u32s.
        unsafe { vld1q_u32(prev.as_ptr()) }
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn zero() -> V {
        vdupq_n_u32(0)
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

    #[target_feature(enable = "neon")]
    #[inline]
    fn and(a: V, b: V) -> V {
        vandq_u32(a, b)
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn or(a: V, b: V) -> V {
        vorrq_u32(a, b)
    }

    /// Unsigned maximum per lane.
    #[target_feature(enable = "neon")]
    #[inline]
    fn max(a: V, b: V) -> V {
        vmaxq_u32(a, b)
    }

    /// The OR of `v`'s lanes (in registers).
    #[target_feature(enable = "neon")]
    #[inline]
    fn or_lanes(v: V) -> u32 {
        let x = vorr_u32(vget_low_u32(v), vget_high_u32(v));
        vget_lane_u32::<0>(x) | vget_lane_u32::<1>(x)
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn add(a: V, b: V) -> V {
        vaddq_u32(a, b)
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn sub(a: V, b: V) -> V {
        vsubq_u32(a, b)
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
}

mod l8 {
    use core::arch::aarch64::*;

    /// Eight lanes: `lo` holds values 0..4 of a group, `hi` values 4..8.
    #[derive(Clone, Copy)]
    struct V {
        lo: uint32x4_t,
        hi: uint32x4_t,
    }
    const L: usize = 8;
    /// Bytes per word.
    const VB: usize = 32;

    #[target_feature(enable = "neon")]
    #[inline]
    fn pair(lo: uint32x4_t, hi: uint32x4_t) -> V {
        V { lo, hi }
    }

    /// # Safety
    /// `p + off .. p + off + VB` is readable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn ld(p: *const u8, off: usize) -> V {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(off) };
        // SAFETY: in bounds (caller: VB = 32 bytes).
        let r = unsafe { q.add(16) };
        // SAFETY: 16 readable bytes at `q` (caller).
        let lo = unsafe { vld1q_u8(q) };
        // SAFETY: 16 readable bytes at `r` (caller).
        let hi = unsafe { vld1q_u8(r) };
        pair(vreinterpretq_u32_u8(lo), vreinterpretq_u32_u8(hi))
    }

    /// # Safety
    /// `p + off .. p + off + VB` is writable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn stb(p: *mut u8, off: usize, v: V) {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(off) };
        // SAFETY: in bounds (caller: VB = 32 bytes).
        let r = unsafe { q.add(16) };
        let (lo, hi) = (vreinterpretq_u8_u32(v.lo), vreinterpretq_u8_u32(v.hi));
        // SAFETY: 16 writable bytes at `q` (caller).
        unsafe { vst1q_u8(q, lo) };
        // SAFETY: 16 writable bytes at `r` (caller).
        unsafe { vst1q_u8(r, hi) };
    }

    /// # Safety
    /// `p[idx .. idx + L]` is readable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn ldv(p: *const u32, idx: usize) -> V {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(idx) };
        // SAFETY: L readable u32 at `q` (caller), i.e. VB bytes.
        unsafe { ld(q.cast(), 0) }
    }

    /// # Safety
    /// `p[idx .. idx + L]` is writable.
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn st(p: *mut u32, idx: usize, v: V) {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(idx) };
        // SAFETY: L writable u32 at `q` (caller), i.e. VB bytes.
        unsafe { stb(q.cast(), 0, v) }
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn lanes(prev: &Prev) -> V {
        let (lo, hi) = prev.split_at(4);
        // SAFETY: `lo` is 4 readable u32s.
        let lo = unsafe { vld1q_u32(lo.as_ptr()) };
        // SAFETY: `hi` is 4 readable u32s.
        let hi = unsafe { vld1q_u32(hi.as_ptr()) };
        pair(lo, hi)
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn zero() -> V {
        pair(vdupq_n_u32(0), vdupq_n_u32(0))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn set1(x: u32) -> V {
        pair(vdupq_n_u32(x), vdupq_n_u32(x))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn srl(v: V, n: u32) -> V {
        let c = vdupq_n_s32(-(n as i32));
        pair(vshlq_u32(v.lo, c), vshlq_u32(v.hi, c))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn sll(v: V, n: u32) -> V {
        let c = vdupq_n_s32(n as i32);
        pair(vshlq_u32(v.lo, c), vshlq_u32(v.hi, c))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn and(a: V, b: V) -> V {
        pair(vandq_u32(a.lo, b.lo), vandq_u32(a.hi, b.hi))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn or(a: V, b: V) -> V {
        pair(vorrq_u32(a.lo, b.lo), vorrq_u32(a.hi, b.hi))
    }

    /// Unsigned maximum per lane.
    #[target_feature(enable = "neon")]
    #[inline]
    fn max(a: V, b: V) -> V {
        pair(vmaxq_u32(a.lo, b.lo), vmaxq_u32(a.hi, b.hi))
    }

    /// The OR of `v`'s lanes (in registers).
    #[target_feature(enable = "neon")]
    #[inline]
    fn or_lanes(v: V) -> u32 {
        let q = vorrq_u32(v.lo, v.hi);
        let x = vorr_u32(vget_low_u32(q), vget_high_u32(q));
        vget_lane_u32::<0>(x) | vget_lane_u32::<1>(x)
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn add(a: V, b: V) -> V {
        pair(vaddq_u32(a.lo, b.lo), vaddq_u32(a.hi, b.hi))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    fn sub(a: V, b: V) -> V {
        pair(vsubq_u32(a.lo, b.lo), vsubq_u32(a.hi, b.hi))
    }

    /// `[prev[7], v[0], ..., v[6]]`.
    #[target_feature(enable = "neon")]
    #[inline]
    fn shift_in(prev: V, v: V) -> V {
        pair(vextq_u32::<3>(prev.hi, v.lo), vextq_u32::<3>(v.lo, v.hi))
    }

    /// Inclusive prefix sum over 8 lanes plus the broadcast running value
    /// `c`: per half (`ext` against zero, twice), then the low half's total
    /// (`dup` of lane 3) added to the high half; returns the sums and the
    /// new broadcast running value.
    #[target_feature(enable = "neon")]
    #[inline]
    fn prefix(v: V, c: V) -> (V, V) {
        let z = vdupq_n_u32(0);
        let lo = vaddq_u32(v.lo, vextq_u32::<3>(z, v.lo));
        let lo = vaddq_u32(lo, vextq_u32::<2>(z, lo));
        let hi = vaddq_u32(v.hi, vextq_u32::<3>(z, v.hi));
        let hi = vaddq_u32(hi, vextq_u32::<2>(z, hi));
        let lo = vaddq_u32(lo, c.lo);
        let hi = vaddq_u32(hi, vdupq_laneq_u32::<3>(lo));
        let total = vdupq_laneq_u32::<3>(hi);
        (pair(lo, hi), pair(total, total))
    }

    crate::aarch64::kernels::bp_body!("neon");

    /// The 16x layout: a group is two of the 8x layout's (four q
    /// registers).
    pub(super) mod x2 {
        crate::aarch64::kernels::ops_pair!("neon");
        crate::aarch64::kernels::bp_body!("neon");
    }
}
