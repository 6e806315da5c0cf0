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

/// BP128's sorted checks, one test per layout and delta mode: as one test
/// they were the longest of the crate (12 s here, 75 s under QEMU), run on
/// one thread while the others had finished.
macro_rules! sorted_bp128 {
    ($($t:ident => $layout:ident, $delta:ident;)*) => {
        $(
            #[test]
            fn $t() {
                check_sorted(Bp128::new(BpLayout::$layout).with_delta(DeltaMode::$delta));
            }
        )*
    };
}

sorted_bp128! {
    sorted_bp128_d1 => Lanes4, D1;
    sorted_bp128_lane => Lanes4, Lane;
    sorted_bp128_strict => Lanes4, Strict;
    sorted_bp128_8x_d1 => Lanes8, D1;
    sorted_bp128_8x_lane => Lanes8, Lane;
    sorted_bp128_8x_strict => Lanes8, Strict;
    sorted_bp128_16x_d1 => Lanes16, D1;
    sorted_bp128_16x_lane => Lanes16, Lane;
    sorted_bp128_16x_strict => Lanes16, Strict;
}

#[test]
fn sorted_for() {
    check_sorted(For);
    check_sorted(SimdFor::best());
}
