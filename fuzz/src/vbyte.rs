//! VByte specifics for the `vbyte_*` targets.

use intcodec::vbyte::VByte;
use intcodec::{IntCodec, Isa, KernelChoice};
use std::sync::OnceLock;

/// The most values a VByte stream holds per byte (one byte per value at
/// least), for [`crate::DecodeCase::split`].
pub const DENSITY: usize = 1;

/// Every VByte kernel this CPU and the `INTCODEC_ISA` cap allow, scalar (the
/// reference) first. Panics if one that should exist cannot be built, so a
/// dispatch mistake cannot shrink the fuzzed set.
pub fn kernels() -> &'static [VByte] {
    static SET: OnceLock<Vec<VByte>> = OnceLock::new();
    SET.get_or_init(|| {
        let ks: Vec<VByte> = Isa::ALL
            .into_iter()
            .filter_map(|isa| VByte::new().with_isa(isa))
            .collect();
        let expected = VByte::new().kernel_isas().len();
        assert_eq!(ks.len(), expected, "kernels built vs enabled");
        assert_eq!(ks[0].isa(), Isa::Scalar);
        ks
    })
}
