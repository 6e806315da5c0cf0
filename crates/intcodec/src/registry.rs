//! Every codec by name: the one place that lists them. The CLI, the
//! benchmark, the fuzz targets, the conformance tests and the C and Python
//! bindings take their codec list from here.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::isa::Isa;
use crate::traits::IntCodec;

/// The names of every codec in this build, in a stable order.
pub fn names() -> Vec<&'static str> {
    let mut names = Vec::new();
    names.extend_from_slice(BLOCK_CODECS);
    names
}

/// The codec called `name` (see [`names`]) on the best kernel.
pub fn by_name(name: &str) -> Option<Box<dyn IntCodec>> {
    block_codec(name)
}

// ---- The block codecs: BP128 (layouts, delta modes), FOR, SIMD-FOR. ----

const BLOCK_CODECS: &[&str] = &[
    "bp128",
    "bp128-8x",
    "bp128-d4",
    "bp128-8x-d8",
    "for",
    "simd-for",
];

fn block_codec(name: &str) -> Option<Box<dyn IntCodec>> {
    use crate::codec::bp128::{Bp128, DeltaMode, Layout};
    use crate::codec::frame_of_reference::{For, SimdFor};
    use crate::traits::KernelChoice;
    let bp = |layout, delta| Box::new(Bp128::new(layout).with_delta(delta)) as Box<dyn IntCodec>;
    Some(match name {
        "bp128" => bp(Layout::Lanes4, DeltaMode::D1),
        "bp128-8x" => bp(Layout::Lanes8, DeltaMode::D1),
        "bp128-d4" => bp(Layout::Lanes4, DeltaMode::Lane),
        "bp128-8x-d8" => bp(Layout::Lanes8, DeltaMode::Lane),
        "for" => Box::new(For),
        "simd-for" => Box::new(SimdFor::best()),
        _ => return None,
    })
}

/// The codec called `name` on the kernel for `isa`, if there is one.
pub fn by_name_isa(name: &str, isa: Isa) -> Option<Box<dyn IntCodec>> {
    by_name(name)?.with_isa_dyn(isa)
}
