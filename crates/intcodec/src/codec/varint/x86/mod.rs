//! x86-64 kernels: BMI2 (`pext`/`pdep`) and SSSE3 (`pmovmskb` +
//! `pmaddubsw`), and the check that BMI2 is fast on this CPU.

pub(crate) mod bmi2;
pub(crate) mod ssse3;

/// `pext(x, 0x7f7f..7f)` of eight bytes with SSE2, which every x86-64
/// build has (the baseline; `cfg` checked by the caller): bytes to 16-bit
/// lanes, `pmaddwd` by (1, 128) joins pairs into 14 bits, pack, `pmaddwd`
/// by (1, 2^14) joins those into 28 bits; the two halves are joined in a
/// general register. Fewer operations than the three scalar steps, and no
/// 64-bit constants. Used by the portable kernel on x86-64.
#[cfg(target_feature = "sse2")]
#[inline(always)]
pub(crate) fn compact_sse2(x: u64) -> u64 {
    // SAFETY: this function exists only when SSE2 is enabled for the
    // whole build (`cfg` above; the x86-64 baseline).
    unsafe { compact_sse2_inner(x) }
}

#[target_feature(enable = "sse2")]
#[inline]
fn compact_sse2_inner(x: u64) -> u64 {
    use core::arch::x86_64::{
        _mm_and_si128, _mm_cvtsi128_si64, _mm_cvtsi64_si128, _mm_madd_epi16, _mm_packs_epi32,
        _mm_set1_epi16, _mm_set1_epi32, _mm_setzero_si128, _mm_unpacklo_epi8,
    };
    let v = _mm_cvtsi64_si128(x as i64);
    let v = _mm_and_si128(v, _mm_set1_epi16(0x7F7F));
    let words = _mm_unpacklo_epi8(v, _mm_setzero_si128());
    let pairs = _mm_madd_epi16(words, _mm_set1_epi32(0x0080_0001));
    let packed = _mm_packs_epi32(pairs, pairs);
    let quads = _mm_madd_epi16(packed, _mm_set1_epi32(0x4000_0001));
    // r = lo | hi << 32 with 28-bit halves; lo + hi << 28 is
    // r - hi * (2^32 - 2^28): one multiply instead of two masks.
    let r = _mm_cvtsi128_si64(quads) as u64;
    r - (r >> 32) * 0xF000_0000
}

/// Bit `i` set when byte `i` of `chunk` has no continuation bit (ends a
/// value): `pmovmskb`, SSE2 (the x86-64 baseline).
#[cfg(target_feature = "sse2")]
#[inline(always)]
pub(crate) fn stops16(chunk: &[u8; 16]) -> u64 {
    // SAFETY: this function exists only when SSE2 is enabled for the
    // whole build (`cfg` above; the x86-64 baseline).
    unsafe { stops16_inner(chunk) }
}

#[target_feature(enable = "sse2")]
#[inline]
fn stops16_inner(chunk: &[u8; 16]) -> u64 {
    use core::arch::x86_64::{_mm_loadu_si128, _mm_movemask_epi8};
    // SAFETY: `chunk` is 16 readable bytes; loadu has no alignment need.
    let v = unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) };
    u64::from(!(_mm_movemask_epi8(v) as u32) & 0xFFFF)
}

/// Whether the CPU has LZCNT (every CPU with AVX2 does, but the BMI2
/// kernel is compiled with it, so it is checked, not assumed).
pub(crate) fn has_lzcnt() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "lzcnt")
    }
}

/// Whether `pdep`/`pext` run in hardware at full speed: not on AMD (and
/// Hygon) CPUs before family 0x19 (Zen 3), where they are microcoded and
/// take tens to hundreds of cycles depending on the mask (Zen 1/2, family
/// 0x17; Excavator, 0x15). Read once from `cpuid` at kernel choice.
pub(crate) fn pdep_is_fast() -> bool {
    use core::arch::x86_64::__cpuid;
    // Miri cannot execute `cpuid` (and reports compiled-in features only).
    if cfg!(miri) {
        return true;
    }
    // `cpuid` exists on every x86-64 CPU; leaf 0 gives the vendor.
    let leaf0 = __cpuid(0);
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
    if &vendor != b"AuthenticAMD" && &vendor != b"HygonGenuine" {
        return true;
    }
    family(__cpuid(1).eax) >= 0x19
}

/// The display family of `cpuid` leaf 1's `eax`: base family, plus the
/// extended family when the base is 0xF.
pub(crate) fn family(eax: u32) -> u32 {
    let base = (eax >> 8) & 0xF;
    if base == 0xF {
        base + ((eax >> 20) & 0xFF)
    } else {
        base
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn family_of_known_signatures() {
        // Zen 2 (EPYC 7002): family 0x17; Zen 4 (EPYC 9004): 0x19; an Intel
        // Skylake signature (family 6).
        assert_eq!(super::family(0x0083_0F10), 0x17);
        assert_eq!(super::family(0x00A1_0F11), 0x19);
        assert_eq!(super::family(0x0005_0654), 6);
    }
}
