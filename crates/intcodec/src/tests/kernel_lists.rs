//! The kernel sets each codec lists: what the conformance harness checks is
//! whatever a codec lists, so this test notices a set dropped from a table.
//! Outside the harness's modules: scripts/test.sh reruns it under each
//! `INTCODEC_ISA` cap, where it checks that the cap is obeyed.

/// The kernels each codec must offer where the CPU (and `INTCODEC_ISA`)
/// allows them, so that a kernel dropped from a kernel table is noticed (the
/// harness checks whatever is listed); the default handle is the best one.
#[test]
fn simd_kernels_are_listed_and_the_best_is_the_default() {
    use crate::isa::Isa::{self, Avx2, Avx512, Neon, Scalar, Sse41, Ssse3};
    let x86: &[(&str, &[Isa])] = &[
        ("streamvbyte", &[Sse41, Avx2, Avx512]),
        ("streamvbyte-0124", &[Sse41, Avx2, Avx512]),
        ("vbyte", &[Sse41, Avx2]),
        ("varint-gb", &[Ssse3, Avx2]),
        ("varint-gb-lucene", &[Ssse3, Avx2]),
        ("varint-g8iu", &[Ssse3, Avx2]),
        ("bp128", &[Sse41, Avx2, Avx512]),
        ("bp128-8x", &[Sse41, Avx2, Avx512]),
        ("bp128-d4", &[Sse41, Avx2, Avx512]),
        ("bp128-8x-d8", &[Sse41, Avx2, Avx512]),
        ("bp128-strict", &[Sse41, Avx2, Avx512]),
        ("bp128-8x-strict", &[Sse41, Avx2, Avx512]),
        ("bp128-16x", &[Avx2, Avx512]),
        ("bp128-16x-d16", &[Avx2, Avx512]),
        ("bp128-16x-strict", &[Avx2, Avx512]),
        ("for", &[]),
        ("simd-for", &[Sse41, Avx2, Avx512]),
    ];
    // AArch64: the codecs with a NEON kernel set.
    let neon = [
        "streamvbyte",
        "streamvbyte-0124",
        "vbyte",
        "varint-gb",
        "varint-gb-lucene",
        "bp128",
        "bp128-8x",
        "bp128-d4",
        "bp128-8x-d8",
        "bp128-strict",
        "bp128-8x-strict",
        "bp128-16x",
        "bp128-16x-d16",
        "bp128-16x-strict",
        "simd-for",
    ];
    // scripts/test.sh's flag for CPUs that could not run those kernels.
    assert!(
        !(cfg!(intcodec_skip_bp128_avx512) && Avx512.is_detected()),
        "built with --cfg intcodec_skip_bp128_avx512 on a CPU with AVX-512: its BP128 kernels would go untested"
    );
    for name in crate::registry::names() {
        let c = crate::registry::by_name(name).unwrap();
        if cfg!(target_arch = "aarch64") && neon.contains(&name) && Neon.is_enabled() {
            assert!(
                c.kernel_isas().contains(&Neon),
                "{name}: no NEON kernel in {:?}",
                c.kernel_isas()
            );
        }
        let isas = c.kernel_isas();
        assert_eq!(isas.first(), Some(&Scalar), "{name}");
        for isa in &isas {
            assert!(
                isa.is_enabled(),
                "{name}: kernel {isa} listed, but this CPU or INTCODEC_ISA rules it out"
            );
        }
        assert_eq!(
            Some(&c.isa()),
            isas.last(),
            "{name}: the default kernel is not the best"
        );
        let (_, want) = x86
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("{name}: add its kernels to this table"));
        if cfg!(any(target_arch = "x86_64", target_arch = "x86")) {
            // Under the skip cfg, Avx512 is not detected (asserted above), so
            // the filter drops it.
            for isa in want.iter().filter(|i| i.is_enabled()) {
                assert!(isas.contains(isa), "{name}: no {isa} kernel in {isas:?}");
            }
        }
    }
}
