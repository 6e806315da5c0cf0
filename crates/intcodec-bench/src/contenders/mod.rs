//! Our codecs under test, one [`Codec`] per kernel this CPU runs: the only
//! module that adapts intcodec's codecs to the benchmark (the integrator can
//! swap these adapters onto `intcodec::registry` in one place).
//!
//! Depends on [`crate::measure`] only.

pub mod bp128;
pub mod streamvbyte;
pub mod vbyte;

use crate::measure::Codec;

/// Every one of our codecs, family by family (lowest ISA first within a
/// family): Stream VByte, VByte, BP128 4x and 8x, VarInt-GB, and VarInt-G8IU
/// with the feature `g8iu`.
pub fn all() -> Vec<Box<dyn Codec>> {
    let mut all: Vec<Box<dyn Codec>> = Vec::new();
    for c in streamvbyte::Ours::all() {
        all.push(Box::new(c));
    }
    for c in vbyte::all() {
        all.push(Box::new(c));
    }
    for c in bp128::all() {
        all.push(Box::new(c));
    }
    for c in streamvbyte::OursVarIntGb::all() {
        all.push(Box::new(c));
    }
    #[cfg(feature = "g8iu")]
    for c in streamvbyte::OursVarIntG8iu::all() {
        all.push(Box::new(c));
    }
    all
}
