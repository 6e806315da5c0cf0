//! Every codec by name: the one place that lists them. The CLI, the
//! benchmark, the fuzz targets, the conformance tests and the C and Python
//! bindings take their codec list from here.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::codec::bp128::{Bp128, DeltaMode, Layout};
use crate::codec::frame_of_reference::{For, SimdFor};
use crate::codec::{streamvbyte, varint_gb, vbyte};
use crate::isa::Isa;
use crate::traits::IntCodec;
use crate::traits::KernelChoice;
use crate::traits::SortedCodec;

/// Every codec of this build, with its default format options on the best
/// kernel: one line per codec.
fn all() -> Vec<Box<dyn IntCodec>> {
    alloc::vec![
        Box::new(streamvbyte::StreamVByte::new()),
        Box::new(streamvbyte::StreamVByte::new().with_variant(streamvbyte::Variant::V0124)),
        Box::new(vbyte::VByte::new()),
        Box::new(varint_gb::VarIntGb::new()),
        Box::new(varint_gb::VarIntGb::new().with_layout(varint_gb::Layout::Lucene)),
        #[cfg(feature = "g8iu")]
        Box::new(crate::codec::varint_g8iu::VarIntG8iu::new()),
        Box::new(Bp128::new(Layout::Lanes4)),
        Box::new(Bp128::new(Layout::Lanes8)),
        Box::new(Bp128::new(Layout::Lanes4).with_delta(DeltaMode::Lane)),
        Box::new(Bp128::new(Layout::Lanes8).with_delta(DeltaMode::Lane)),
        Box::new(For),
        Box::new(SimdFor::best()),
    ]
}

/// The names of every codec in this build, in a stable order.
pub fn names() -> Vec<&'static str> {
    all().iter().map(|c| c.name()).collect()
}

/// The codec called `name` (see [`names`]) on the best kernel.
pub fn by_name(name: &str) -> Option<Box<dyn IntCodec>> {
    all().into_iter().find(|c| c.name() == name)
}

/// The codec called `name` on the kernel for `isa`, if there is one.
pub fn by_name_isa(name: &str, isa: Isa) -> Option<Box<dyn IntCodec>> {
    by_name(name)?.with_isa_dyn(isa)
}

// ---------------------------------------------------------------------------
// Sorted operations by name (added for the C API's select / lower_bound).

/// Every codec of this build that implements [`SortedCodec`], with the same
/// names and options as [`names`] (VarInt-G8IU has no sorted operations).
fn all_sorted() -> Vec<Box<dyn SortedCodec>> {
    alloc::vec![
        Box::new(streamvbyte::StreamVByte::new()),
        Box::new(streamvbyte::StreamVByte::new().with_variant(streamvbyte::Variant::V0124)),
        Box::new(vbyte::VByte::new()),
        Box::new(varint_gb::VarIntGb::new()),
        Box::new(varint_gb::VarIntGb::new().with_layout(varint_gb::Layout::Lucene)),
        Box::new(Bp128::new(Layout::Lanes4)),
        Box::new(Bp128::new(Layout::Lanes8)),
        Box::new(Bp128::new(Layout::Lanes4).with_delta(DeltaMode::Lane)),
        Box::new(Bp128::new(Layout::Lanes8).with_delta(DeltaMode::Lane)),
        Box::new(For),
        Box::new(SimdFor::best()),
    ]
}

/// The codec called `name` as a [`SortedCodec`] (select, lower_bound,
/// insert on delta-coded streams) on the best kernel, if it has them.
pub fn sorted_by_name(name: &str) -> Option<Box<dyn SortedCodec>> {
    all_sorted().into_iter().find(|c| c.name() == name)
}

#[cfg(test)]
mod sorted_tests {
    #[test]
    fn every_codec_but_g8iu_has_sorted_operations() {
        for name in super::names() {
            let sorted = super::sorted_by_name(name);
            assert_eq!(sorted.is_some(), name != "varint-g8iu", "{name}");
            if let Some(s) = sorted {
                assert_eq!(s.name(), name);
            }
        }
    }
}
