//! Every codec by name: the one place that lists them. The CLI, the
//! benchmark, the fuzz targets, the conformance tests and the C and Python
//! bindings take their codec list from here.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::isa::Isa;
use crate::traits::IntCodec;

/// The names of every codec in this build, in a stable order.
pub fn names() -> Vec<&'static str> {
    Vec::new()
}

/// The codec called `name` (see [`names`]) on the best kernel.
pub fn by_name(name: &str) -> Option<Box<dyn IntCodec>> {
    let _ = name;
    None
}

/// The codec called `name` on the kernel for `isa`, if there is one.
pub fn by_name_isa(name: &str, isa: Isa) -> Option<Box<dyn IntCodec>> {
    by_name(name)?.with_isa_dyn(isa)
}
