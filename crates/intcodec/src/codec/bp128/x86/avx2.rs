//! AVX2 BP128 kernels. 4x layout: unpack takes two groups per `__m256i`
//! (`pair` below: variable shifts per half, the D1 prefix sum over eight
//! lanes); pack is the SSE4.1 algorithm (`sse41.rs`, same bounds) compiled
//! for AVX2 so that every instruction is VEX-encoded; 8x layout: one
//! `__m256i` per group of eight values (`BitPacker8x`), the D1 prefix sum
//! done per 128-bit half and carried across with a lane permute.
//! Requires AVX2 (+BMI1/BMI2/POPCNT, the crate's `Isa::Avx2` level).

pub(crate) use self::l4::KERNELS as KERNELS_4;
pub(crate) use self::l8::KERNELS as KERNELS_8;

mod l4 {
    crate::codec::bp128::x86::kernels::ops_m128!("avx2,bmi1,bmi2,popcnt");
    crate::codec::bp128::x86::kernels::bp_body!(
        "avx2,bmi1,bmi2,popcnt",
        crate::isa::Isa::Avx2,
        crate::codec::bp128::Layout::Lanes4,
        unpack_pairs
    );

    /// The unpack entry: two groups per `__m256i` (`super::pair`).
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    fn unpack_pairs(input: &[u8], out: &mut [u32], bits: u8, mode: Mode, prev: &[u32; 8]) {
        use super::pair::unpack_w as w;
        assert!(bits <= 32);
        match mode {
            Mode::Plain => by_bits!(w, 0, bits, (input, out, prev)),
            Mode::D1 => by_bits!(w, 1, bits, (input, out, prev)),
            Mode::Lane => by_bits!(w, 2, bits, (input, out, prev)),
            Mode::Offset => by_bits!(w, 3, bits, (input, out, prev)),
        }
    }
}

mod l8 {
    crate::codec::bp128::x86::kernels::ops_m256!("avx2,bmi1,bmi2,popcnt");
    crate::codec::bp128::x86::kernels::bp_body!(
        "avx2,bmi1,bmi2,popcnt",
        crate::isa::Isa::Avx2,
        crate::codec::bp128::Layout::Lanes8
    );
}

/// The 4x layout on AVX2, two groups per `__m256i` (used by `l4`'s entry
/// for every mode): the two groups' words are fetched with one 256-bit load
/// (consecutive words) or a 128-bit broadcast (the same word), shifted with
/// `vpsrlvd` / `vpsllvd` by per-half constants, and the D1 prefix sum runs
/// over eight lanes at once (half the shuffles per value of the 128-bit
/// body). Bounds as in `sse41.rs`: only words below `bits` are read.
mod pair {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;

    /// 16 bytes at `p + off`, broadcast to both halves.
    ///
    /// # Safety
    /// `p + off .. p + off + 16` is readable.
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    #[inline]
    unsafe fn ld_bcast(p: *const u8, off: usize) -> __m256i {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(off) };
        // SAFETY: 16 readable bytes at `q` (caller).
        let x = unsafe { _mm_loadu_si128(q.cast()) };
        _mm256_broadcastsi128_si256(x)
    }

    /// 32 bytes at `p + off`.
    ///
    /// # Safety
    /// `p + off .. p + off + 32` is readable.
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    #[inline]
    unsafe fn ld2(p: *const u8, off: usize) -> __m256i {
        // SAFETY: in bounds (caller).
        let q = unsafe { p.add(off) };
        // SAFETY: 32 readable bytes at `q` (caller).
        unsafe { _mm256_loadu_si256(q.cast()) }
    }

    /// Words `a` (low half) and `b` (high half), `b` = `a` or `a + 1`.
    ///
    /// # Safety
    /// Words `a` and `b` are inside `p`'s readable bytes.
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    #[inline]
    unsafe fn words(p: *const u8, a: usize, b: usize) -> __m256i {
        if a == b {
            // SAFETY: word a readable (caller).
            unsafe { ld_bcast(p, 16 * a) }
        } else {
            // SAFETY: words a and a + 1 = b readable (caller).
            unsafe { ld2(p, 16 * a) }
        }
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    #[inline]
    fn halves(a: u32, b: u32) -> __m256i {
        _mm256_setr_epi32(
            a as i32, a as i32, a as i32, a as i32, b as i32, b as i32, b as i32, b as i32,
        )
    }

    /// Unpack of one 4x block of width `B` in mode `M` (as in `bp_body!`);
    /// `prev` as the kernels receive it.
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
    #[inline]
    pub(super) fn unpack_w<const B: u32, const M: u8>(
        input: &[u8],
        out: &mut [u32],
        prev: &[u32; 8],
    ) {
        assert!(input.len() >= B as usize * 16 && out.len() >= 128);
        let ip = input.as_ptr();
        let op = out.as_mut_ptr();
        let mask = _mm256_set1_epi32(if B >= 32 { -1 } else { ((1u32 << B) - 1) as i32 });
        // D1: the running value in every lane; Lane: the previous group in
        // both halves; Offset: min everywhere.
        let mut carry = match M {
            1 => _mm256_set1_epi32(prev[3] as i32),
            2 => _mm256_setr_epi32(
                prev[0] as i32, prev[1] as i32, prev[2] as i32, prev[3] as i32,
                prev[0] as i32, prev[1] as i32, prev[2] as i32, prev[3] as i32,
            ),
            _ => _mm256_set1_epi32(prev[0] as i32),
        };
        macro_rules! step {
            ($k:literal) => {{
                const K: u32 = 2 * $k;
                let (o0, o1) = (K * B, (K + 1) * B);
                let (w0, w1) = ((o0 / 32) as usize, (o1 / 32) as usize);
                let (s0, s1) = (o0 % 32, o1 % 32);
                let (x0, x1) = (B < 32 && s0 + B > 32, B < 32 && s1 + B > 32);
                let mut v = if B == 0 {
                    _mm256_setzero_si256()
                } else {
                    // SAFETY: words w0 <= w1 < B (the groups' first bits are
                    // below 32 * B), `input.len() >= 16 * B` (asserted).
                    let lo = unsafe { words(ip, w0, w1) };
                    _mm256_srlv_epi32(lo, halves(s0, s1))
                };
                if x0 || x1 {
                    // The crossing group(s) take their top bits from the next
                    // word; a half whose group does not cross shifts by 32
                    // (to zero). Only words of crossing groups are loaded.
                    let hi = if x0 && x1 {
                        // SAFETY: words w0 + 1 and w1 + 1 are < B (crossed into).
                        unsafe { words(ip, w0 + 1, w1 + 1) }
                    } else if x0 {
                        // SAFETY: word w0 + 1 < B (group K crosses into it).
                        unsafe { ld_bcast(ip, 16 * (w0 + 1)) }
                    } else {
                        // SAFETY: word w1 + 1 < B (group K + 1 crosses into it).
                        unsafe { ld_bcast(ip, 16 * (w1 + 1)) }
                    };
                    let l0 = if x0 { 32 - s0 } else { 32 };
                    let l1 = if x1 { 32 - s1 } else { 32 };
                    v = _mm256_or_si256(v, _mm256_sllv_epi32(hi, halves(l0, l1)));
                }
                if B > 0 && B < 32 && !(s0 + B == 32 && s1 + B == 32) {
                    v = _mm256_and_si256(v, mask);
                }
                if M == 1 {
                    // Prefix sum over eight lanes, then the running value.
                    let p = _mm256_add_epi32(v, _mm256_slli_si256::<4>(v));
                    let p = _mm256_add_epi32(p, _mm256_slli_si256::<8>(p));
                    let t = _mm256_shuffle_epi32::<0xFF>(p);
                    let p = _mm256_add_epi32(p, _mm256_permute2x128_si256::<0x08>(t, t));
                    v = _mm256_add_epi32(p, carry);
                    let total = _mm256_permutevar8x32_epi32(p, _mm256_set1_epi32(7));
                    carry = _mm256_add_epi32(carry, total);
                } else if M == 2 {
                    // x[k] = d[k] + x[k-1]; x[k+1] = d[k+1] + d[k] + x[k-1].
                    let v2 = _mm256_add_epi32(v, _mm256_permute2x128_si256::<0x08>(v, v));
                    v = _mm256_add_epi32(v2, carry);
                    carry = _mm256_permute2x128_si256::<0x11>(v, v);
                } else if M == 3 {
                    v = _mm256_add_epi32(v, carry);
                }
                // SAFETY: 8 u32 at index 4K <= 120 of `out` (len >= 128, asserted).
                let q = unsafe { op.add(4 * K as usize) };
                // SAFETY: 8 writable u32 at `q` (above).
                unsafe { _mm256_storeu_si256(q.cast(), v) };
            }};
        }
        step!(0);
        step!(1);
        step!(2);
        step!(3);
        step!(4);
        step!(5);
        step!(6);
        step!(7);
        step!(8);
        step!(9);
        step!(10);
        step!(11);
        step!(12);
        step!(13);
        step!(14);
        step!(15);
        let _ = carry;
    }
}
