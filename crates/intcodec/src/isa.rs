//! Instruction-set levels, run-time detection, the `INTCODEC_ISA` cap and
//! the CPU [`Tuning`].
//!
//! Detection runs once and is cached. The environment variable
//! `INTCODEC_ISA=scalar|ssse3|sse41|avx2|avx512|neon` caps the level every
//! codec may pick (a testing and debugging hook); an unknown value, or one the
//! CPU does not support, panics with a message saying so.
//! `INTCODEC_TUNE=default|zen|zen4` overrides the detected [`Tuning`] the same
//! way (the tests use it to run both loops of a tuned kernel on any CPU).

crate::named_enum! {
    /// An instruction-set level a kernel can be written for.
    ///
    /// On x86-64 the levels are ordered: each includes the ones before it.
    /// `Avx512` means F + BW + VL + VBMI + VBMI2 + VNNI (Ice Lake, Zen 4 and later).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    #[non_exhaustive]
    pub enum Isa {
        /// Portable Rust, no SIMD: the reference every other kernel must match.
        Scalar => "scalar",
        /// x86-64 SSSE3 (`pshufb`).
        Ssse3 => "ssse3",
        /// x86-64 SSE4.1 (and SSSE3).
        Sse41 => "sse41",
        /// x86-64 AVX2 (and everything above).
        Avx2 => "avx2",
        /// x86-64 AVX-512 F/BW/VL/VBMI/VBMI2/VNNI (and everything above).
        Avx512 => "avx512",
        /// AArch64 NEON.
        Neon => "neon",
    }
    /// The lower-case name used by `INTCODEC_ISA` and in reports.
    fn name;
}

impl Isa {
    /// Every level, in order.
    pub const ALL: [Isa; 6] = [
        Isa::Scalar,
        Isa::Ssse3,
        Isa::Sse41,
        Isa::Avx2,
        Isa::Avx512,
        Isa::Neon,
    ];

    /// Parses a name as printed by [`Isa::name`] (case-insensitive; `sse4.1`
    /// is accepted for `sse41`).
    pub fn from_name(name: &str) -> Option<Isa> {
        let lower = name.trim().to_ascii_lowercase();
        let canonical = match lower.as_str() {
            "sse4.1" | "sse4_1" => "sse41",
            "avx-512" | "avx512f" => "avx512",
            other => other,
        };
        Isa::ALL.into_iter().find(|isa| isa.name() == canonical)
    }

    /// Whether this CPU has every feature the level needs (ignores the
    /// `INTCODEC_ISA` cap).
    pub fn is_detected(self) -> bool {
        detected::has(self)
    }

    /// Whether codecs may use this level: detected, and not above the
    /// `INTCODEC_ISA` cap.
    pub fn is_enabled(self) -> bool {
        self.is_detected() && within_cap(self, cap())
    }
}

/// The levels this CPU supports, lowest first (ignores the cap).
pub fn detected_isas() -> impl Iterator<Item = Isa> {
    Isa::ALL.into_iter().filter(|isa| isa.is_detected())
}

crate::named_enum! {
    /// A CPU family whose measured costs change the loop a kernel runs,
    /// within one ISA level (the kernel set, and so the format and the
    /// error reports, stay the same). Detected once; `INTCODEC_TUNE`
    /// overrides it.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum Tuning {
        /// Every CPU not listed below: the loops as measured on Intel.
        Default => "default",
        /// AMD Zen 5 and later (every AMD CPU with the `Avx512` level is
        /// Zen 4 or later). Measured on Zen 5: VByte's AVX-512 kernel makes its
        /// continuation bits three refills ahead (a mask moved to a general
        /// register arrives late there), and hands delta decodes of 128
        /// values and more to its AVX2 loop (its sixteen-lane prefix sum
        /// costs more there than the 128-bit one). Stream VByte's and
        /// VarInt-GB's AVX-512 delta decodes broadcast their running
        /// totals in registers (a narrow load of a wide store waits for
        /// the store there unless the output is 32-byte aligned).
        Zen => "zen",
        /// AMD Zen 4 (family 0x19 with the `Avx512` level; its 512-bit
        /// operations are two 256-bit halves): everything `Zen` does
        /// (measured there too: the same or faster), and VarInt-GB's
        /// AVX-512 decoder takes its windows only for streams that start
        /// with mostly one-byte blocks (its permute chain is slower than
        /// the AVX2 loop on mixed widths there; see that kernel's header).
        Zen4 => "zen4",
    }
    /// The lower-case name used by `INTCODEC_TUNE` and in reports.
    fn name;
}

impl Tuning {
    /// Every tuning, in order.
    pub const ALL: [Tuning; 3] = [Tuning::Default, Tuning::Zen, Tuning::Zen4];

    /// Whether this is an AMD Zen tuning (`Zen` or `Zen4`): the loops
    /// measured on Zen 5, which Zen 4 shares.
    pub fn is_zen(self) -> bool {
        matches!(self, Tuning::Zen | Tuning::Zen4)
    }

    /// Parses a name as printed by [`Tuning::name`] (case-insensitive).
    pub fn from_name(name: &str) -> Option<Tuning> {
        let lower = name.trim().to_ascii_lowercase();
        Tuning::ALL.into_iter().find(|t| t.name() == lower)
    }
}

/// The tuning in force: `INTCODEC_TUNE` if set, else the detected one.
/// Computed once; a bad `INTCODEC_TUNE` panics with [`check_tuning`]'s
/// message.
pub fn tuning() -> Tuning {
    #[cfg(feature = "std")]
    {
        use std::sync::OnceLock;
        static TUNING: OnceLock<Tuning> = OnceLock::new();
        *TUNING.get_or_init(|| {
            check_tuning()
                .unwrap_or_else(|msg| panic!("{msg}"))
                .unwrap_or_else(detected_tuning)
        })
    }
    #[cfg(not(feature = "std"))]
    {
        detected_tuning()
    }
}

/// Reads and validates `INTCODEC_TUNE` without panicking: `Ok(None)` when
/// it is unset or empty, `Ok(Some(tuning))` for a known name, and an error
/// message otherwise.
#[cfg(feature = "std")]
pub fn check_tuning() -> Result<Option<Tuning>, String> {
    let Some(text) = env_text("INTCODEC_TUNE")? else {
        return Ok(None);
    };
    let text = text.as_str();
    Tuning::from_name(text).map(Some).ok_or_else(|| {
        format!(
            "INTCODEC_TUNE={text:?} is not a known tuning; known: {}",
            Tuning::ALL.map(Tuning::name).join(", ")
        )
    })
}

/// The tuning of this CPU: `Zen4` when CPUID's vendor is AMD's, its
/// family is 0x19 and it has the `Avx512` level (Zen 4; Zen 3 is the same
/// family without it), `Zen` for any other AMD CPU.
pub fn detected_tuning() -> Tuning {
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "x86", target_feature = "sse")
    ))]
    {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::__cpuid;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::__cpuid;
        // Leaf 0: the vendor string in EBX, EDX, ECX.
        let id = __cpuid(0);
        let amd = [id.ebx, id.edx, id.ecx] == [0x6874_7541, 0x6974_6E65, 0x444D_4163];
        if amd {
            // Leaf 1, EAX: base family in bits 8..12; when it is 0xF, the
            // extended family (bits 20..28) is added.
            let eax = __cpuid(1).eax;
            let base = (eax >> 8) & 0xF;
            let family = if base == 0xF {
                base + ((eax >> 20) & 0xFF)
            } else {
                base
            };
            return if family == 0x19 && Isa::Avx512.is_detected() {
                Tuning::Zen4
            } else {
                Tuning::Zen
            };
        }
    }
    Tuning::Default
}

/// The levels codecs may use here: detected and within the `INTCODEC_ISA`
/// cap, lowest first.
pub fn supported_isas() -> impl Iterator<Item = Isa> {
    Isa::ALL.into_iter().filter(|isa| isa.is_enabled())
}

/// The `INTCODEC_ISA` cap in force, or `None` when the variable is unset.
pub fn isa_override() -> Option<Isa> {
    cap()
}

fn within_cap(isa: Isa, cap: Option<Isa>) -> bool {
    match cap {
        None => true,
        Some(Isa::Scalar) => isa == Isa::Scalar,
        Some(Isa::Neon) => matches!(isa, Isa::Scalar | Isa::Neon),
        Some(limit) => isa != Isa::Neon && isa <= limit,
    }
}

/// Reads and validates `INTCODEC_ISA` without panicking: `Ok(None)` when it
/// is unset or empty, `Ok(Some(isa))` for a level this CPU supports, and an
/// error message naming the problem otherwise. (Codecs panic with the same
/// message, the first time one is built, if the value is bad.)
#[cfg(feature = "std")]
pub fn check_override() -> Result<Option<Isa>, String> {
    let Some(text) = env_text("INTCODEC_ISA")? else {
        return Ok(None);
    };
    let text = text.as_str();
    match Isa::from_name(text) {
        None => Err(format!(
            "INTCODEC_ISA={text:?} is not a known instruction set; known: {}",
            Isa::ALL.map(Isa::name).join(", ")
        )),
        Some(isa) if !isa.is_detected() => Err(format!(
            "INTCODEC_ISA={text:?}: this CPU does not support {isa}"
        )),
        Some(isa) => Ok(Some(isa)),
    }
}

/// The environment variable `name`: `Ok(None)` when unset or blank, an
/// error when it is not UTF-8.
#[cfg(feature = "std")]
fn env_text(name: &str) -> Result<Option<String>, String> {
    match std::env::var_os(name) {
        None => Ok(None),
        Some(raw) => match raw.into_string() {
            Ok(text) if text.trim().is_empty() => Ok(None),
            Ok(text) => Ok(Some(text)),
            Err(_) => Err(format!("{name} is not valid UTF-8")),
        },
    }
}

#[cfg(feature = "std")]
fn cap() -> Option<Isa> {
    use std::sync::OnceLock;
    static CAP: OnceLock<Option<Isa>> = OnceLock::new();
    *CAP.get_or_init(|| check_override().unwrap_or_else(|msg| panic!("{msg}")))
}

#[cfg(not(feature = "std"))]
fn cap() -> Option<Isa> {
    None
}

#[cfg(all(feature = "std", any(target_arch = "x86_64", target_arch = "x86")))]
mod detected {
    use super::Isa;
    use std::sync::OnceLock;

    pub(super) fn has(isa: Isa) -> bool {
        static BITS: OnceLock<u8> = OnceLock::new();
        let bits = *BITS.get_or_init(|| {
            let mut bits = 1u8 << Isa::Scalar as u8;
            if std::is_x86_feature_detected!("ssse3") {
                bits |= 1 << Isa::Ssse3 as u8;
                if std::is_x86_feature_detected!("sse4.1") {
                    bits |= 1 << Isa::Sse41 as u8;
                    if std::is_x86_feature_detected!("avx2")
                        && std::is_x86_feature_detected!("bmi1")
                        && std::is_x86_feature_detected!("bmi2")
                        && std::is_x86_feature_detected!("popcnt")
                    {
                        bits |= 1 << Isa::Avx2 as u8;
                        if std::is_x86_feature_detected!("avx512f")
                            && std::is_x86_feature_detected!("avx512bw")
                            && std::is_x86_feature_detected!("avx512vl")
                            && std::is_x86_feature_detected!("avx512vbmi")
                            && std::is_x86_feature_detected!("avx512vbmi2")
                            && std::is_x86_feature_detected!("avx512vnni")
                        {
                            bits |= 1 << Isa::Avx512 as u8;
                        }
                    }
                }
            }
            bits
        });
        bits & (1 << isa as u8) != 0
    }
}

#[cfg(all(feature = "std", target_arch = "aarch64"))]
mod detected {
    use super::Isa;

    pub(super) fn has(isa: Isa) -> bool {
        match isa {
            Isa::Scalar => true,
            Isa::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            _ => false,
        }
    }
}

#[cfg(not(all(
    feature = "std",
    any(target_arch = "x86_64", target_arch = "x86", target_arch = "aarch64")
)))]
mod detected {
    use super::Isa;

    pub(super) fn has(isa: Isa) -> bool {
        match isa {
            Isa::Scalar => true,
            Isa::Ssse3 => cfg!(target_feature = "ssse3"),
            Isa::Sse41 => cfg!(target_feature = "sse4.1"),
            Isa::Avx2 => cfg!(all(
                target_feature = "avx2",
                target_feature = "bmi1",
                target_feature = "bmi2",
                target_feature = "popcnt"
            )),
            Isa::Avx512 => cfg!(all(
                target_feature = "avx512f",
                target_feature = "avx512bw",
                target_feature = "avx512vl",
                target_feature = "avx512vbmi",
                target_feature = "avx512vbmi2",
                target_feature = "avx512vnni"
            )),
            Isa::Neon => cfg!(all(target_arch = "aarch64", target_feature = "neon")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for isa in Isa::ALL {
            assert_eq!(Isa::from_name(isa.name()), Some(isa));
        }
        assert_eq!(Isa::from_name("SSE4.1"), Some(Isa::Sse41));
        assert_eq!(Isa::from_name("mmx"), None);
        for t in Tuning::ALL {
            assert_eq!(Tuning::from_name(t.name()), Some(t));
        }
        assert_eq!(Tuning::from_name(" ZEN "), Some(Tuning::Zen));
        assert_eq!(Tuning::from_name("skylake"), None);
    }

    #[test]
    fn cap_orders_levels() {
        assert!(within_cap(Isa::Sse41, Some(Isa::Avx2)));
        assert!(!within_cap(Isa::Avx2, Some(Isa::Sse41)));
        assert!(within_cap(Isa::Scalar, Some(Isa::Scalar)));
        assert!(!within_cap(Isa::Ssse3, Some(Isa::Scalar)));
        assert!(!within_cap(Isa::Neon, Some(Isa::Avx512)));
        assert!(within_cap(Isa::Neon, None));
    }

    /// NEON is part of the AArch64 base: detected on every such CPU, so the
    /// NEON kernels are the default there (and the tests run them).
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn neon_detected_on_aarch64() {
        assert!(Isa::Neon.is_detected());
        assert!(detected_isas().eq([Isa::Scalar, Isa::Neon]));
    }

    #[test]
    fn scalar_always_available() {
        assert!(Isa::Scalar.is_detected());
        assert!(Isa::Scalar.is_enabled());
    }
}
