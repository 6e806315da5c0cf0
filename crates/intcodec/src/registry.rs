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
        Box::new(Bp128::new(Layout::Lanes4).with_delta(DeltaMode::Strict)),
        Box::new(Bp128::new(Layout::Lanes8).with_delta(DeltaMode::Strict)),
        Box::new(Bp128::new(Layout::Lanes16)),
        Box::new(Bp128::new(Layout::Lanes16).with_delta(DeltaMode::Lane)),
        Box::new(Bp128::new(Layout::Lanes16).with_delta(DeltaMode::Strict)),
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

/// The sorted-stream operations ([`SortedCodec`]: `select`, `lower_bound`,
/// `insert`) of the codec called `name`, on the kernel for `isa` (the best
/// one when `None`). `None` if that codec has no sorted operations or no
/// such kernel. For bindings that hold a `Box<dyn IntCodec>` from
/// [`by_name`] and need the same codec's sorted operations.
pub fn sorted_by_name(name: &str, isa: Option<Isa>) -> Option<Box<dyn SortedCodec>> {
    /// `None` if `c` is not called `name`, else the answer.
    fn pick<C: SortedCodec + KernelChoice>(
        c: C,
        name: &str,
        isa: Option<Isa>,
    ) -> Option<Option<Box<dyn SortedCodec>>> {
        if c.name() != name {
            return None;
        }
        Some(match isa {
            None => Some(Box::new(c)),
            Some(isa) => c.with_isa(isa).map(|c| Box::new(c) as Box<dyn SortedCodec>),
        })
    }
    let svb = streamvbyte::StreamVByte::new();
    let gb = varint_gb::VarIntGb::new();
    pick(svb, name, isa)
        .or_else(|| pick(svb.with_variant(streamvbyte::Variant::V0124), name, isa))
        .or_else(|| pick(vbyte::VByte::new(), name, isa))
        .or_else(|| pick(gb, name, isa))
        .or_else(|| pick(gb.with_layout(varint_gb::Layout::Lucene), name, isa))
        .or_else(|| {
            // Every BP128 layout and delta mode (each has its own name).
            [Layout::Lanes4, Layout::Lanes8, Layout::Lanes16]
                .into_iter()
                .flat_map(|l| {
                    [DeltaMode::D1, DeltaMode::Lane, DeltaMode::Strict]
                        .map(move |d| Bp128::new(l).with_delta(d))
                })
                .find_map(|c| pick(c, name, isa))
        })
        .or_else(|| pick(For, name, isa))
        .or_else(|| pick(SimdFor::best(), name, isa))
        .flatten()
}

#[cfg(test)]
mod sorted_tests {
    use super::*;

    /// Every registry codec but VarInt-G8IU has sorted operations, under the
    /// same name, on the same kernels as `by_name_isa`.
    #[test]
    fn sorted_by_name_matches_the_registry() {
        for name in names() {
            let plain = by_name(name).unwrap();
            let sorted = sorted_by_name(name, None);
            if name == "varint-g8iu" {
                assert!(sorted.is_none());
                continue;
            }
            let sorted = sorted.unwrap_or_else(|| panic!("{name}: no sorted operations"));
            assert_eq!(sorted.name(), name);
            assert_eq!(sorted.isa(), plain.isa(), "{name}");
            for isa in plain.kernel_isas() {
                let s = sorted_by_name(name, Some(isa)).unwrap();
                assert_eq!(s.isa(), isa, "{name}");
            }
        }
        assert!(sorted_by_name("no-such-codec", None).is_none());
    }
}
