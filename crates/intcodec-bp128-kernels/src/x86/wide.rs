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

/// `pub(crate) unsafe fn $name(vp, n, mode, prev) -> u32`: the largest of
/// the `n` values at `vp` as a pack in `mode` forms them (not `Lane`): the
/// values, their gaps from `prev` on (D1; minus one in Strict), or their
/// offsets from `prev`; `$w` values a load of the vector operations given
/// (`$shift`: `[p[$w - 1], x[0], ..., x[$w - 2]]`; `$reduce`: the OR of a
/// vector's lanes), into four accumulators, through `$name_m::<M>` for
/// mode `M` (`Mode as u8`). The callers' safety contract: the CPU has the
/// features `$f`; `vp[..n]` is readable; `n` is a multiple of `4 * $w`.
macro_rules! wide_scan {
    ($(#[$cfg:meta])* $name:ident $name_m:ident, $f:literal, $w:literal,
     $load:ident $set1:ident $zero:ident $sub:ident $max:ident $or:ident,
     shift: |$p:ident, $x:ident| $shift:expr, reduce: |$m:ident| $reduce:expr) => {
        /// The width scan of `wide_scan!` (its safety contract).
        ///
        /// # Safety
        /// The CPU has the function's features; `vp[..n]` is readable; `n`
        /// is a multiple of four vectors.
        $(#[$cfg])*
        #[target_feature(enable = $f)]
        pub(crate) unsafe fn $name(vp: *const u32, n: usize, mode: crate::Mode, prev: u32) -> u32 {
            use crate::Mode;
            match mode {
                // SAFETY: forwarded from the caller.
                Mode::D1 => unsafe { $name_m::<1>(vp, n, prev) },
                // SAFETY: as above.
                Mode::Strict => unsafe { $name_m::<4>(vp, n, prev) },
                // SAFETY: as above.
                Mode::Offset => unsafe { $name_m::<3>(vp, n, prev) },
                // SAFETY: as above.
                _ => unsafe { $name_m::<0>(vp, n, prev) },
            }
        }

        /// The scan in mode `M` (`Mode as u8`).
        ///
        /// # Safety
        /// As the dispatching function's.
        $(#[$cfg])*
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn $name_m<const M: u8>(vp: *const u32, n: usize, prev: u32) -> u32 {
            #[cfg(target_arch = "x86")]
            use core::arch::x86::*;
            #[cfg(target_arch = "x86_64")]
            use core::arch::x86_64::*;
            let mut p = $set1(prev as i32);
            let one = $set1(1);
            let mut acc = [$zero(); 4];
            for q in 0..n / (4 * $w) {
                for (i, a) in acc.iter_mut().enumerate() {
                    // SAFETY: value 4 * $w * q + $w * (i + 1) - 1 < n
                    // (caller): in bounds.
                    let at = unsafe { vp.add(4 * $w * q + $w * i) };
                    // SAFETY: `at[..$w]` is readable (caller).
                    let x = unsafe { $load(at.cast()) };
                    let d = match M {
                        1 | 4 => {
                            let d = {
                                let ($p, $x) = (p, x);
                                $sub(x, $shift)
                            };
                            p = x;
                            if M == 4 {
                                $sub(d, one)
                            } else {
                                d
                            }
                        }
                        3 => $sub(x, p),
                        _ => x,
                    };
                    *a = $max(*a, d);
                }
            }
            let $m = $or($or(acc[0], acc[1]), $or(acc[2], acc[3]));
            $reduce
        }
    };
}

wide_scan!(
    #[cfg(not(intcodec_skip_bp128_avx512))]
    max_wide max_wide_m, "avx512f", 16,
    _mm512_loadu_si512 _mm512_set1_epi32 _mm512_setzero_si512 _mm512_sub_epi32
    _mm512_max_epu32 _mm512_or_si512,
    shift: |p, x| _mm512_alignr_epi32::<15>(x, p),
    reduce: |m| _mm512_reduce_or_epi32(m) as u32
);

wide_scan!(
    max_wide256 max_wide256_m, "avx2", 8,
    _mm256_loadu_si256 _mm256_set1_epi32 _mm256_setzero_si256 _mm256_sub_epi32
    _mm256_max_epu32 _mm256_or_si256,
    shift: |p, x| _mm256_alignr_epi8::<12>(x, _mm256_permute2x128_si256::<0x21>(p, x)),
    reduce: |m| {
        let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
        let m = _mm_or_si128(m, _mm_shuffle_epi32::<0x4E>(m));
        _mm_cvtsi128_si32(_mm_or_si128(m, _mm_shuffle_epi32::<0xB1>(m))) as u32
    }
);
