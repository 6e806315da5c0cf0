//! Every registry codec through the one conformance harness (one `#[test]`
//! per codec, so they run in parallel and a failure names the codec), and
//! every `SortedCodec` through its sorted checks.

use crate::bp128::{Bp128, DeltaMode, Layout as BpLayout};
use crate::frame_of_reference::{For, SimdFor};
use crate::streamvbyte::{StreamVByte, Variant};
use crate::tests::conformance::{check_codec, check_sorted};
use crate::varint_gb::{Layout as GbLayout, VarIntGb};
use crate::vbyte::VByte;
use crate::KernelChoice;

macro_rules! conformance {
    ($($(#[$m:meta])* $t:ident => $name:literal),* $(,)?) => {
        $(
            $(#[$m])*
            #[test]
            fn $t() {
                check_codec(&*crate::registry::by_name($name).expect($name));
            }
        )*
        #[test]
        fn every_registry_codec_is_checked() {
            let listed: &[&str] = &[$( $(#[$m])* $name ),*];
            assert_eq!(crate::registry::names(), listed);
        }
    };
}

conformance! {
    streamvbyte => "streamvbyte",
    streamvbyte_0124 => "streamvbyte-0124",
    vbyte => "vbyte",
    varint_gb => "varint-gb",
    varint_gb_lucene => "varint-gb-lucene",
    #[cfg(feature = "g8iu")]
    varint_g8iu => "varint-g8iu",
    bp128 => "bp128",
    bp128_8x => "bp128-8x",
    bp128_d4 => "bp128-d4",
    bp128_8x_d8 => "bp128-8x-d8",
    bp128_strict => "bp128-strict",
    bp128_8x_strict => "bp128-8x-strict",
    bp128_16x => "bp128-16x",
    bp128_16x_d16 => "bp128-16x-d16",
    bp128_16x_strict => "bp128-16x-strict",
    for_ => "for",
    simd_for => "simd-for",
}

#[test]
fn sorted_streamvbyte() {
    check_sorted(StreamVByte::best());
    check_sorted(StreamVByte::best().with_variant(Variant::V0124));
}

#[test]
fn sorted_vbyte() {
    check_sorted(VByte::best());
}

#[test]
fn sorted_varint_gb() {
    check_sorted(VarIntGb::best());
    check_sorted(VarIntGb::best().with_layout(GbLayout::Lucene));
}

#[test]
fn sorted_bp128() {
    for layout in [BpLayout::Lanes4, BpLayout::Lanes8, BpLayout::Lanes16] {
        check_sorted(Bp128::new(layout));
        check_sorted(Bp128::new(layout).with_delta(DeltaMode::Lane));
        check_sorted(Bp128::new(layout).with_delta(DeltaMode::Strict));
    }
}

#[test]
fn sorted_for() {
    check_sorted(For);
    check_sorted(SimdFor::best());
}

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
            for isa in want.iter().filter(|i| i.is_enabled()) {
                assert!(isas.contains(isa), "{name}: no {isa} kernel in {isas:?}");
            }
        }
    }
}
