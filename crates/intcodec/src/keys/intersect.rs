//! The common keys of two strictly increasing `u32` slices (two decoded
//! blocks, or a block and part of a posting list), written to an output
//! slice: the kernel under [`KeySet`](super::KeySet)'s intersections.
//!
//! Two shapes of input, two methods:
//! - similar lengths: a merge. The SIMD kernels compare a vector of keys
//!   of one side with every rotation of a vector of the other (4 x 4 keys
//!   with SSE4.1, 8 x 8 with AVX2), keep the lanes of the first vector that
//!   met an equal key (a shuffle by a table indexed by the match mask), and
//!   move past the vector whose last key is the smaller (both when equal);
//!   the scalar kernel is a branch-free two-pointer merge. When one side
//!   has less than a vector left, its keys are looked up as below.
//! - one side far shorter: each key of the short side is looked up in the
//!   long one, moving forward a vector at a time and comparing the key with
//!   a whole vector (SIMD), or galloping (scalar).
//!
//! Blocks in run form meet as interval lists (`runs::intersect`); the AVX2
//! kernel tests their pairs eight intervals against eight
//! ([`Kernel::interval_windows`]) before the portable four-by-four loop:
//! wikileaks' set pairs (SIMD-FOR) 0.175 -> 0.157 ms, 2026-12-07.
//!
//! Every kernel writes the same keys in the same (increasing) order; the
//! tests run each SIMD kernel against the scalar one.

use crate::isa::Isa;

/// The slack past `min(a.len(), b.len())` keys that `out` must have: the
/// SIMD kernels store whole vectors.
pub(crate) const PAD: usize = 8;

/// One side at least this many times longer than the other: look its keys
/// up instead of merging.
const SKEW: usize = 6;

/// An intersection kernel, chosen once per set operation.
///
/// Invariant: `isa` is `Scalar`, or a level this CPU has (checked by the
/// constructors), so the SIMD kernels may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kernel {
    isa: Isa,
}

impl Kernel {
    /// The portable kernel.
    #[cfg(test)]
    pub(crate) const SCALAR: Kernel = Kernel { isa: Isa::Scalar };

    /// The fastest kernel the CPU runs within the `INTCODEC_ISA` cap.
    #[inline]
    pub(crate) fn best() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if Isa::Avx2.is_enabled() {
                return Kernel { isa: Isa::Avx2 };
            }
            if Isa::Sse41.is_enabled() {
                return Kernel { isa: Isa::Sse41 };
            }
        }
        Kernel { isa: Isa::Scalar }
    }

    /// The kernel written for `isa`, if there is one and the CPU has it
    /// (tests).
    #[cfg(test)]
    pub(crate) fn with_isa(isa: Isa) -> Option<Kernel> {
        let ok = match isa {
            Isa::Scalar => true,
            Isa::Sse41 | Isa::Avx2 => cfg!(target_arch = "x86_64") && isa.is_detected(),
            _ => false,
        };
        ok.then_some(Kernel { isa })
    }

    /// The level the kernel is written for.
    #[cfg(test)]
    pub(crate) fn isa(self) -> Isa {
        self.isa
    }

    /// Writes the intervals of runs `1..r` of a block in run form (starts of
    /// `W` bytes less the block's first key `first`, `index` the block
    /// indexes less one of runs `1..`) to `out[2..1 + r]`, eight runs a
    /// step (AVX2, starts of 1, 2 or 4 bytes): every run but the last (the
    /// one with no index byte after it) when there are ten runs or more;
    /// returns `r`, the first run not written (1 for the portable kernels
    /// and shorter blocks). Run `k` is `(s, s + index[k] - index[k - 1] - 1)`,
    /// `s = first + starts[k]`, wrapping, as the caller's loop computes it.
    #[inline]
    pub(crate) fn run_intervals<const W: usize>(
        self,
        starts: &[[u8; W]],
        index: &[u8],
        first: u32,
        out: &mut [(u32, u32)],
    ) -> usize {
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `interval_windows`.
            Isa::Avx2 => unsafe { x86::run_intervals_avx2(starts, index, first, out) },
            _ => {
                // (Used by the SIMD kernels only.)
                let _ = (starts, index, first, out);
                1
            }
        }
    }

    /// Tests the pairs of intervals of `a[i..]` and `b[j..]` eight by eight
    /// (AVX2) while both sides have eight left and start within their
    /// ranges (`a_end`, `b_end`), calling `put` on each pair that overlaps,
    /// in increasing order; returns where each side stopped, for the
    /// caller's narrower loops. The portable kernels return `(i, j)`.
    #[inline]
    pub(crate) fn interval_windows(
        self,
        a: &[(u32, u32)],
        b: &[(u32, u32)],
        (a_end, b_end): (usize, usize),
        (i, j): (usize, usize),
        put: &mut impl FnMut((u32, u32), (u32, u32)),
    ) -> (usize, usize) {
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Kernel` holds `Avx2` only when the CPU has AVX2
            // (its invariant).
            Isa::Avx2 => unsafe { x86::interval_windows_avx2(a, b, (a_end, b_end), (i, j), put) },
            _ => {
                // (Used by the SIMD kernels only.)
                let _ = (a, b, a_end, b_end, put);
                (i, j)
            }
        }
    }

    /// Writes the keys that are in both strictly increasing `a` and `b`, in
    /// increasing order, to the front of `out`; returns how many. The rest
    /// of `out` may be overwritten.
    ///
    /// # Panics
    /// If `out` is shorter than `min(a.len(), b.len()) + PAD`.
    #[inline]
    pub(crate) fn run(self, a: &[u32], b: &[u32], out: &mut [u32]) -> usize {
        assert!(
            out.len() >= a.len().min(b.len()) + PAD,
            "intersect: output too short"
        );
        let (small, large) = shorter_first(a, b);
        let skewed = small.len() * SKEW < large.len();
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Kernel` holds `Avx2` only when the CPU has AVX2
            // (its invariant); `out` has the room checked above.
            Isa::Avx2 if skewed => unsafe { x86::lookup_avx2(small, large, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Isa::Avx2 => unsafe { x86::merge_avx2(a, b, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for SSE4.1.
            Isa::Sse41 if skewed => unsafe { x86::lookup_sse41(small, large, out) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for SSE4.1.
            Isa::Sse41 => unsafe { x86::merge_sse41(a, b, out) },
            _ if skewed => lookup_scalar(small, large, out),
            _ => merge_scalar(a, b, out),
        }
    }
}

/// `a` and `b`, the shorter first.
#[inline]
fn shorter_first<'s>(a: &'s [u32], b: &'s [u32]) -> (&'s [u32], &'s [u32]) {
    if a.len() <= b.len() {
        (a, b)
    } else {
        (b, a)
    }
}

/// A branch-free two-pointer merge; `out` has room for `min(a, b)` keys.
#[inline]
fn merge_scalar(a: &[u32], b: &[u32], out: &mut [u32]) -> usize {
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        // `k <= min(i, j)`: inside `out`.
        out[k] = x;
        k += usize::from(x == y);
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    k
}

/// The first index of `s` whose value is `>= key` (galloping from 0).
#[inline]
pub(crate) fn gallop(s: &[u32], key: u32) -> usize {
    let mut hi = 1;
    while hi < s.len() && s[hi - 1] < key {
        hi *= 2;
    }
    let lo = hi / 2;
    let hi = hi.min(s.len());
    lo + s[lo..hi].partition_point(|&v| v < key)
}

/// Every key of `small` looked up in `large` by galloping.
fn lookup_scalar(small: &[u32], large: &[u32], out: &mut [u32]) -> usize {
    let (mut j, mut k) = (0, 0);
    for &x in small {
        j += gallop(&large[j..], x);
        if j == large.len() {
            break;
        }
        out[k] = x;
        k += usize::from(large[j] == x);
    }
    k
}

/// The x86-64 kernels.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use super::{lookup_scalar, shorter_first};

    /// `PERM8[m]`: the lane indexes of the set bits of `m`, lowest first
    /// (then zeros): the `vpermd` that packs the matched lanes.
    static PERM8: [[u32; 8]; 256] = perm8();

    const fn perm8() -> [[u32; 8]; 256] {
        let mut t = [[0u32; 8]; 256];
        let mut m = 0;
        while m < 256 {
            let (mut l, mut k) = (0, 0);
            while l < 8 {
                if (m >> l) & 1 == 1 {
                    t[m][k] = l as u32;
                    k += 1;
                }
                l += 1;
            }
            m += 1;
        }
        t
    }

    /// `SHUF4[m]`: the `pshufb` that packs the set lanes of `m` (4 lanes of
    /// 4 bytes), lowest first.
    static SHUF4: [[u8; 16]; 16] = shuf4();

    const fn shuf4() -> [[u8; 16]; 16] {
        let mut t = [[0x80u8; 16]; 16];
        let mut m = 0;
        while m < 16 {
            let (mut l, mut k) = (0, 0);
            while l < 4 {
                if (m >> l) & 1 == 1 {
                    let mut byte = 0;
                    while byte < 4 {
                        t[m][4 * k + byte] = (4 * l + byte) as u8;
                        byte += 1;
                    }
                    k += 1;
                }
                l += 1;
            }
            m += 1;
        }
        t
    }

    /// The merge loop of [`merge_avx2`] and [`merge_sse41`], `W` keys a
    /// side per step: `step(a, b, out)` compares `a[..W]` with `b[..W]`,
    /// stores the matched keys of `a` (a whole vector) at `out` and returns
    /// how many matched. The side whose last key is the smaller moves on
    /// (both when equal); when one has fewer than `W` keys left, its keys
    /// are looked up in the other with `has` ([`lookup_with`]).
    ///
    /// # Safety
    /// `step` and `has` are sound for any pointers to `W` readable keys (and
    /// `W` writable ones at `out`); `out.len() >= min(a.len(), b.len()) + W`.
    #[inline(always)]
    unsafe fn merge_with<const W: usize>(
        a: &[u32],
        b: &[u32],
        out: &mut [u32],
        step: impl Fn(*const u32, *const u32, *mut u32) -> usize,
        has: impl Fn(*const u32, u32) -> bool,
    ) -> usize {
        let (mut i, mut j, mut k) = (0, 0, 0);
        let (ap, bp, op) = (a.as_ptr(), b.as_ptr(), out.as_mut_ptr());
        while i + W <= a.len() && j + W <= b.len() {
            // `a[i..i + W]` and `b[j..j + W]` are inside their slices (loop
            // condition); `k` is at most the keys of `a[..i]` written so
            // far, `<= min(a.len(), b.len())`, and `out` has `W` more.
            k += step(ap.wrapping_add(i), bp.wrapping_add(j), op.wrapping_add(k));
            let (la, lb) = (a[i + W - 1], b[j + W - 1]);
            i += W * usize::from(la <= lb);
            j += W * usize::from(lb <= la);
        }
        let (small, large) = shorter_first(&a[i..], &b[j..]);
        k + lookup_with::<W>(small, large, &mut out[k..], has)
    }

    /// Every key of `small` looked up in `large`, `W` keys of `large` at a
    /// time: `has(p, x)` says whether `x` is one of the `W` keys at `p`
    /// (always inside `large`). Past the last whole vector, by galloping.
    #[inline(always)]
    fn lookup_with<const W: usize>(
        small: &[u32],
        large: &[u32],
        out: &mut [u32],
        has: impl Fn(*const u32, u32) -> bool,
    ) -> usize {
        let (mut j, mut k) = (0, 0);
        let lp = large.as_ptr();
        for (s, &x) in small.iter().enumerate() {
            while j + W <= large.len() && large[j + W - 1] < x {
                j += W;
            }
            if j + W > large.len() {
                return k + lookup_scalar(&small[s..], &large[j..], &mut out[k..]);
            }
            out[k] = x;
            k += usize::from(has(lp.wrapping_add(j), x));
        }
        k
    }

    /// Whether `x` is one of the 8 keys at `p`.
    ///
    /// # Safety
    /// The CPU has AVX2; `p..p + 8` is readable.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn has8(p: *const u32, x: u32) -> bool {
        // SAFETY: `p..p + 8` is readable (the caller).
        let v = unsafe { _mm256_loadu_si256(p.cast()) };
        let eq = _mm256_cmpeq_epi32(v, _mm256_set1_epi32(x as i32));
        _mm256_testz_si256(eq, eq) == 0
    }

    /// Whether `x` is one of the 4 keys at `p`.
    ///
    /// # Safety
    /// The CPU has SSE4.1; `p..p + 4` is readable.
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn has4(p: *const u32, x: u32) -> bool {
        // SAFETY: `p..p + 4` is readable (the caller).
        let v = unsafe { _mm_loadu_si128(p.cast()) };
        let eq = _mm_cmpeq_epi32(v, _mm_set1_epi32(x as i32));
        _mm_testz_si128(eq, eq) == 0
    }

    /// The AVX2 merge ([`super::Kernel::run`] on inputs of similar
    /// lengths): 8 x 8 keys a step, every rotation of `b`'s vector.
    ///
    /// # Safety
    /// The CPU has AVX2; `out.len() >= min(a.len(), b.len()) + 8`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn merge_avx2(a: &[u32], b: &[u32], out: &mut [u32]) -> usize {
        let rot = |r: i32| {
            _mm256_setr_epi32(
                r & 7,
                (r + 1) & 7,
                (r + 2) & 7,
                (r + 3) & 7,
                (r + 4) & 7,
                (r + 5) & 7,
                (r + 6) & 7,
                (r + 7) & 7,
            )
        };
        let (r1, r2, r3, r4, r5, r6, r7) = (rot(1), rot(2), rot(3), rot(4), rot(5), rot(6), rot(7));
        let step = |ap: *const u32, bp: *const u32, op: *mut u32| {
            // SAFETY: `ap..ap + 8` and `bp..bp + 8` are readable,
            // `op..op + 8` writable (`merge_with`'s contract).
            let va = unsafe { _mm256_loadu_si256(ap.cast()) };
            // SAFETY: as above.
            let vb = unsafe { _mm256_loadu_si256(bp.cast()) };
            let eq = |r| _mm256_cmpeq_epi32(va, _mm256_permutevar8x32_epi32(vb, r));
            let m0 = _mm256_or_si256(_mm256_cmpeq_epi32(va, vb), eq(r1));
            let m1 = _mm256_or_si256(eq(r2), eq(r3));
            let m2 = _mm256_or_si256(eq(r4), eq(r5));
            let m3 = _mm256_or_si256(eq(r6), eq(r7));
            let m = _mm256_or_si256(_mm256_or_si256(m0, m1), _mm256_or_si256(m2, m3));
            let mask = _mm256_movemask_ps(_mm256_castsi256_ps(m)) as usize;
            // SAFETY: `mask < 256`: a row of the table.
            let p = unsafe { _mm256_loadu_si256(PERM8[mask & 255].as_ptr().cast()) };
            let packed = _mm256_permutevar8x32_epi32(va, p);
            // SAFETY: `op..op + 8` is writable (as above).
            unsafe { _mm256_storeu_si256(op.cast(), packed) };
            mask.count_ones() as usize
        };
        // SAFETY: `merge_with` points `has8` at 8 keys of one side; the CPU
        // has AVX2 (the caller).
        let has = |p, x| unsafe { has8(p, x) };
        // SAFETY: `step` and `has` read and write 8 keys where `merge_with`
        // points them; `out` has the room (the caller).
        unsafe { merge_with::<8>(a, b, out, step, has) }
    }

    /// [`super::Kernel::interval_windows`] with AVX2: eight intervals of
    /// `b` (their starts and ends split into two vectors, the sign bit
    /// flipped for unsigned compares) against each of eight of `a`
    /// (broadcast), 64 overlap tests in eight steps of two compares; the
    /// side whose eighth interval ends first moves on by eight (both when
    /// they end together: neither's next interval can meet the other's
    /// window). The pairs are visited by `a`'s interval, then `b`'s: in
    /// increasing order, as both lists are increasing and disjoint.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn interval_windows_avx2(
        a: &[(u32, u32)],
        b: &[(u32, u32)],
        (a_end, b_end): (usize, usize),
        (mut i, mut j): (usize, usize),
        put: &mut impl FnMut((u32, u32), (u32, u32)),
    ) -> (usize, usize) {
        let flip = _mm256_set1_epi32(i32::MIN);
        while i < a_end && j < b_end && i + 8 <= a.len() && j + 8 <= b.len() {
            let w = &b[j..j + 8];
            // SAFETY: `w` is 8 intervals, 64 readable bytes.
            let lo = unsafe { _mm256_loadu_ps(w.as_ptr().cast()) };
            // SAFETY: as above, its second half.
            let hi = unsafe { _mm256_loadu_ps(w[4..].as_ptr().cast()) };
            // Starts and ends of intervals 0 1 4 5 | 2 3 6 7, then in order.
            let order = |v: __m256| {
                let v = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_castps_si256(v));
                _mm256_xor_si256(v, flip)
            };
            let sb = order(_mm256_shuffle_ps::<0b10_00_10_00>(lo, hi));
            let eb = order(_mm256_shuffle_ps::<0b11_01_11_01>(lo, hi));
            let mut m = 0u64;
            for (k, x) in a[i..i + 8].iter().enumerate() {
                let xs = _mm256_set1_epi32((x.0 ^ 1 << 31) as i32);
                let xe = _mm256_set1_epi32((x.1 ^ 1 << 31) as i32);
                // Disjoint when `b` starts past `x`'s end or ends before
                // its start.
                let apart = _mm256_or_si256(_mm256_cmpgt_epi32(sb, xe), _mm256_cmpgt_epi32(xs, eb));
                let apart = _mm256_movemask_ps(_mm256_castsi256_ps(apart)) as u64;
                m |= (!apart & 0xFF) << (8 * k);
            }
            while m != 0 {
                let t = m.trailing_zeros() as usize;
                m &= m - 1;
                put(a[i + t / 8], b[j + t % 8]);
            }
            let (ea, eb) = (a[(i + 7).min(a_end - 1)].1, b[(j + 7).min(b_end - 1)].1);
            i += 8 * usize::from(ea <= eb);
            j += 8 * usize::from(eb <= ea);
        }
        (i, j)
    }

    /// [`super::Kernel::run_intervals`] with AVX2: eight starts widened
    /// and offset, eight ends from the index bytes of the run and the one
    /// before (two overlapping loads), interleaved into eight pairs.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn run_intervals_avx2<const W: usize>(
        starts: &[[u8; W]],
        index: &[u8],
        first: u32,
        out: &mut [(u32, u32)],
    ) -> usize {
        let mut r = 1;
        if W == 3 {
            return r;
        }
        let end = index.len();
        if end < 9 || starts.len() < end || out.len() < end + 1 {
            return r;
        }
        let (base, one) = (_mm256_set1_epi32(first as i32), _mm256_set1_epi32(1));
        // Runs `r..r + 8` (`1 <= r`, `r + 8 <= index.len()`, the starts and
        // `out` long enough).
        let mut step = |r: usize| {
            let sp = starts[r..r + 8].as_ptr().cast::<u8>();
            let s = match W {
                // SAFETY: `sp` is the 8 * W bytes of starts `r..r + 8`.
                1 => _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(sp.cast()) }),
                // SAFETY: as above.
                2 => _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(sp.cast()) }),
                // SAFETY: as above.
                _ => unsafe { _mm256_loadu_si256(sp.cast()) },
            };
            // Eight index bytes from `k` (`r` or `r - 1`).
            let idx = |k: usize| {
                let p = index[k..k + 8].as_ptr();
                // SAFETY: `p` is 8 readable bytes.
                _mm256_cvtepu8_epi32(unsafe { _mm_loadl_epi64(p.cast()) })
            };
            let (next, at) = (idx(r), idx(r - 1));
            let s = _mm256_add_epi32(s, base);
            let e = _mm256_add_epi32(s, _mm256_sub_epi32(_mm256_sub_epi32(next, at), one));
            // s0 e0 s1 e1 | s4 e4 s5 e5 and s2 e2 s3 e3 | s6 e6 s7 e7.
            let (lo, hi) = (_mm256_unpacklo_epi32(s, e), _mm256_unpackhi_epi32(s, e));
            let (w0, w1) = (
                _mm256_permute2x128_si256::<0x20>(lo, hi),
                _mm256_permute2x128_si256::<0x31>(lo, hi),
            );
            let o = &mut out[r + 1..r + 9];
            // SAFETY: `o` is 8 writable pairs: 32 bytes here, 32 below.
            unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), w0) };
            // SAFETY: as above.
            unsafe { _mm256_storeu_si256(o[4..].as_mut_ptr().cast(), w1) };
        };
        // Every run with an index byte: eights, the last eight overlapping
        // the ones before (the same pairs written again).
        while r + 8 <= end {
            step(r);
            r += 8;
        }
        if r < end {
            step(end - 8);
        }
        end
    }

    /// Every key of `small` looked up in `large`, 8 keys of `large` at a
    /// time.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn lookup_avx2(small: &[u32], large: &[u32], out: &mut [u32]) -> usize {
        // SAFETY: `lookup_with` passes pointers to 8 keys of `large`; the
        // CPU has AVX2 (the caller).
        lookup_with::<8>(small, large, out, |p, x| unsafe { has8(p, x) })
    }

    /// [`merge_avx2`] with 4 x 4 keys.
    ///
    /// # Safety
    /// The CPU has SSE4.1; `out.len() >= min(a.len(), b.len()) + 4`.
    #[target_feature(enable = "sse4.1")]
    pub(super) unsafe fn merge_sse41(a: &[u32], b: &[u32], out: &mut [u32]) -> usize {
        let step = |ap: *const u32, bp: *const u32, op: *mut u32| {
            // SAFETY: `ap..ap + 4` and `bp..bp + 4` are readable,
            // `op..op + 4` writable (`merge_with`'s contract).
            let va = unsafe { _mm_loadu_si128(ap.cast()) };
            // SAFETY: as above.
            let vb = unsafe { _mm_loadu_si128(bp.cast()) };
            let m = _mm_or_si128(
                _mm_or_si128(
                    _mm_cmpeq_epi32(va, vb),
                    _mm_cmpeq_epi32(va, _mm_shuffle_epi32::<0b00_11_10_01>(vb)),
                ),
                _mm_or_si128(
                    _mm_cmpeq_epi32(va, _mm_shuffle_epi32::<0b01_00_11_10>(vb)),
                    _mm_cmpeq_epi32(va, _mm_shuffle_epi32::<0b10_01_00_11>(vb)),
                ),
            );
            let mask = _mm_movemask_ps(_mm_castsi128_ps(m)) as usize;
            // SAFETY: `mask < 16`: a row of the table.
            let p = unsafe { _mm_loadu_si128(SHUF4[mask & 15].as_ptr().cast()) };
            let packed = _mm_shuffle_epi8(va, p);
            // SAFETY: `op..op + 4` is writable (as above).
            unsafe { _mm_storeu_si128(op.cast(), packed) };
            mask.count_ones() as usize
        };
        // SAFETY: as in `merge_avx2`, for SSE4.1 and 4 keys.
        let has = |p, x| unsafe { has4(p, x) };
        // SAFETY: as in `merge_avx2`, for 4 keys.
        unsafe { merge_with::<4>(a, b, out, step, has) }
    }

    /// [`lookup_avx2`] with 4 keys at a time.
    ///
    /// # Safety
    /// The CPU has SSE4.1.
    #[target_feature(enable = "sse4.1")]
    pub(super) unsafe fn lookup_sse41(small: &[u32], large: &[u32], out: &mut [u32]) -> usize {
        // SAFETY: as in `lookup_avx2`, for SSE4.1 and 4 keys.
        lookup_with::<4>(small, large, out, |p, x| unsafe { has4(p, x) })
    }
}
