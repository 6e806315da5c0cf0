//! x86-64 kernels: BMI2 (`pext`/`pdep`) and SSSE3 (`pmovmskb` +
//! `pmaddubsw`), and the check that BMI2 is fast on this CPU.

pub(crate) mod bmi2;
pub(crate) mod ssse3;

/// Whether `pdep`/`pext` run in hardware at full speed: not on AMD (and
/// Hygon) CPUs before family 0x19 (Zen 3), where they are microcoded and
/// take tens to hundreds of cycles depending on the mask (Zen 1/2, family
/// 0x17; Excavator, 0x15). Read once from `cpuid` at kernel choice.
pub(crate) fn pdep_is_fast() -> bool {
    use core::arch::x86_64::__cpuid;
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
