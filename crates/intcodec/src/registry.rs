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
        Box::new(Bp128::new(Layout::Lanes4).with_delta(DeltaMode::Strict)),
        Box::new(Bp128::new(Layout::Lanes8).with_delta(DeltaMode::Strict)),
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
