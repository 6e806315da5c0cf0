//! The width scan of the 4x and 8x layouts in wider vectors than their
//! groups (x86 only): for every mode but `Lane` a block's widest packed
//! value does not depend on the layout, so the AVX-512 kernel sets read its
//! values sixteen a load and the AVX2 set (4x layout) eight
//! (`bp_body!`'s `wide_max`). Postings encode, Zen 4: `docs/perf-notes.md`,
//! BP128, 2026-12-04.

/// Whether the feature list `f` names `name` (or a feature it begins).
pub(crate) const fn has_feature(f: &str, name: &str) -> bool {
    let (f, w) = (f.as_bytes(), name.as_bytes());
    let mut i = 0;
    while i + w.len() <= f.len() {
        let mut j = 0;
        while j < w.len() && f[i + j] == w[j] {
            j += 1;
        }
        if j == w.len() {
            return true;
        }
        i += 1;
    }
    false
}

/// The largest of the `n` values at `vp` as a pack in `mode` forms them
/// (not `Lane`): the values, their gaps from `prev` on (D1; minus one in
/// Strict), or their offsets from `prev`; sixteen a load, into four
/// accumulators. The narrower layouts' width scan in the AVX-512 kernel
/// sets: the width does not depend on the layout in these modes.
///
/// # Safety
/// The CPU has AVX-512F; `vp[..n]` is readable; `n` is a multiple of 64.
#[cfg(not(intcodec_skip_bp128_avx512))]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn max_wide(vp: *const u32, n: usize, mode: crate::Mode, prev: u32) -> u32 {
    use crate::Mode;
    match mode {
        // SAFETY: forwarded from the caller.
        Mode::D1 => unsafe { max_wide_m::<1>(vp, n, prev) },
        // SAFETY: as above.
        Mode::Strict => unsafe { max_wide_m::<4>(vp, n, prev) },
        // SAFETY: as above.
        Mode::Offset => unsafe { max_wide_m::<3>(vp, n, prev) },
        // SAFETY: as above.
        _ => unsafe { max_wide_m::<0>(vp, n, prev) },
    }
}

/// [`max_wide`] in mode `M` (`Mode as u8`).
///
/// # Safety
/// As [`max_wide`].
#[cfg(not(intcodec_skip_bp128_avx512))]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn max_wide_m<const M: u8>(vp: *const u32, n: usize, prev: u32) -> u32 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    let mut p = _mm512_set1_epi32(prev as i32);
    let one = _mm512_set1_epi32(1);
    let mut acc = [_mm512_setzero_si512(); 4];
    for q in 0..n / 64 {
        for (i, a) in acc.iter_mut().enumerate() {
            // SAFETY: value 64q + 16i + 15 < n (caller): in bounds.
            let at = unsafe { vp.add(64 * q + 16 * i) };
            // SAFETY: `at[..16]` is readable (caller).
            let x = unsafe { _mm512_loadu_si512(at.cast()) };
            let d = match M {
                1 | 4 => {
                    let d = _mm512_sub_epi32(x, _mm512_alignr_epi32::<15>(x, p));
                    p = x;
                    if M == 4 {
                        _mm512_sub_epi32(d, one)
                    } else {
                        d
                    }
                }
                3 => _mm512_sub_epi32(x, p),
                _ => x,
            };
            *a = _mm512_max_epu32(*a, d);
        }
    }
    let m = _mm512_or_si512(
        _mm512_or_si512(acc[0], acc[1]),
        _mm512_or_si512(acc[2], acc[3]),
    );
    _mm512_reduce_or_epi32(m) as u32
}

/// [`max_wide`] eight values a load, for the 4x layout's AVX2 kernel set.
///
/// # Safety
/// The CPU has AVX2; `vp[..n]` is readable; `n` is a multiple of 32.
pub(crate) unsafe fn max_wide256(vp: *const u32, n: usize, mode: crate::Mode, prev: u32) -> u32 {
    use crate::Mode;
    match mode {
        // SAFETY: forwarded from the caller.
        Mode::D1 => unsafe { max_wide256_m::<1>(vp, n, prev) },
        // SAFETY: as above.
        Mode::Strict => unsafe { max_wide256_m::<4>(vp, n, prev) },
        // SAFETY: as above.
        Mode::Offset => unsafe { max_wide256_m::<3>(vp, n, prev) },
        // SAFETY: as above.
        _ => unsafe { max_wide256_m::<0>(vp, n, prev) },
    }
}

/// [`max_wide256`] in mode `M` (`Mode as u8`).
///
/// # Safety
/// As [`max_wide256`].
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn max_wide256_m<const M: u8>(vp: *const u32, n: usize, prev: u32) -> u32 {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::*;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::*;
    let mut p = _mm256_set1_epi32(prev as i32);
    let one = _mm256_set1_epi32(1);
    let mut acc = [_mm256_setzero_si256(); 4];
    for q in 0..n / 32 {
        for (i, a) in acc.iter_mut().enumerate() {
            // SAFETY: value 32q + 8i + 7 < n (caller): in bounds.
            let at = unsafe { vp.add(32 * q + 8 * i) };
            // SAFETY: `at[..8]` is readable (caller).
            let x = unsafe { _mm256_loadu_si256(at.cast()) };
            let d = match M {
                1 | 4 => {
                    // `[p[7], x[0], ..., x[6]]`.
                    let b = _mm256_permute2x128_si256::<0x21>(p, x);
                    let d = _mm256_sub_epi32(x, _mm256_alignr_epi8::<12>(x, b));
                    p = x;
                    if M == 4 {
                        _mm256_sub_epi32(d, one)
                    } else {
                        d
                    }
                }
                3 => _mm256_sub_epi32(x, p),
                _ => x,
            };
            *a = _mm256_max_epu32(*a, d);
        }
    }
    let m = _mm256_or_si256(
        _mm256_or_si256(acc[0], acc[1]),
        _mm256_or_si256(acc[2], acc[3]),
    );
    let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
    let m = _mm_or_si128(m, _mm_shuffle_epi32::<0x4E>(m));
    _mm_cvtsi128_si32(_mm_or_si128(m, _mm_shuffle_epi32::<0xB1>(m))) as u32
}
