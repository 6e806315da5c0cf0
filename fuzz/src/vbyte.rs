//! VByte specifics for the `vbyte_*` targets.

use intcodec::vbyte::VByte;
use std::sync::OnceLock;

/// The most values a VByte stream holds per byte (one byte per value at
/// least), for [`crate::DecodeCase::split`].
pub const DENSITY: usize = 1;

/// Every VByte kernel this CPU and the `INTCODEC_ISA` cap allow, scalar (the
/// reference) first. Panics if one that should exist cannot be built, so a
/// dispatch mistake cannot shrink the fuzzed set.
pub fn kernels() -> &'static [VByte] {
    static SET: OnceLock<Vec<VByte>> = OnceLock::new();
    SET.get_or_init(|| crate::kernel_set(VByte::new()))
}
