//! Stream VByte specifics for the `svb_*` targets.

use intcodec::streamvbyte::{StreamVByte, Variant};
use std::sync::OnceLock;

/// The most values a Stream VByte stream holds per byte (2 bits of control
/// byte each, no data byte in "0124"), for [`crate::DecodeCase::split`].
pub const DENSITY: usize = 4;

/// The variant flag bit 0 of a [`crate::DecodeCase`] selects.
pub fn variant(bit: bool) -> Variant {
    [Variant::V1234, Variant::V0124][usize::from(bit)]
}

/// Every Stream VByte kernel this CPU and the `INTCODEC_ISA` cap allow, for
/// `variant`, scalar (the reference) first. Panics if one that should exist
/// cannot be built, so a dispatch mistake cannot shrink the fuzzed set.
pub fn kernels(variant: Variant) -> &'static [StreamVByte] {
    static SETS: [OnceLock<Vec<StreamVByte>>; 2] = [OnceLock::new(), OnceLock::new()];
    SETS[variant as usize]
        .get_or_init(|| crate::kernel_set(StreamVByte::new().with_variant(variant)))
}
