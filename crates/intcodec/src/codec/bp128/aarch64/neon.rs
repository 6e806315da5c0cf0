//! NEON BP128 kernels, 4x layout (one `uint32x4_t` per group of four
//! values, the layout simdcomp's SSE code and the x86 SSE4.1 kernel use):
//! the x86 `bp_body!` (see `x86/sse41.rs` for the algorithm) over NEON
//! operations. Unpack: per group, load the 16-byte word the group starts
//! in, shift right by the group's bit offset, OR in the next word shifted
//! left when the group crosses it, mask; D1 decoding adds the in-register
//! prefix sum (`ext` against zero twice, plus the carried broadcast running
//! value, `dup` of lane 3); Lane ("d4") adds the previous group. Pack is
//! the mirror image (`ext` shifts the predecessors in for D1). Output is
//! byte-identical with the scalar and x86 kernels (the conformance tests
//! compare them). The 8x layout stays scalar on AArch64.
//!
//! Shifts are `ushl` by a broadcast count (NEON shifts right by a
//! negative left shift); every count is a constant once a width's function
//! is unrolled, and LLVM folds them into `ushr`/`shl` immediates (checked
//! in the generated assembly, `docs/perf-notes.md`).
//!
//! Bounds: as the x86 kernels. A kernel asserts `input.len() >= 16 * bits`
//! (or the output's) once, and then reads only words `0..bits` of the
//! block. Requires NEON (baseline on AArch64).

pub(crate) use self::l4::KERNELS as KERNELS_4;

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
    fn lanes(prev: &[u32; 8]) -> V {
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

    crate::codec::bp128::aarch64::kernels::bp_body!(
        "neon",
        crate::isa::Isa::Neon,
        crate::codec::bp128::Layout::Lanes4
    );
}
