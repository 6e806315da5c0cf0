//! The peers: other projects' implementations measured beside ours. This
//! registry is the only place that lists them; each lives in a module
//! below, behind its cargo feature (the `peers` feature enables them all).
//!
//! Depends on [`crate::measure`] and, for shared format helpers, on
//! [`crate::contenders`].

#[cfg(feature = "peer-bitpacking")]
pub mod bitpacking;
#[cfg(any(intcodec_lemire_svb, intcodec_fastpfor_cpp))]
pub mod c_peers;
#[cfg(feature = "peer-fastpfor")]
pub mod fastpfor;
#[cfg(any(
    feature = "peer-svb",
    feature = "peer-fastpfor",
    feature = "peer-stream-vbyte",
    feature = "peer-streamvbyte64",
    feature = "peer-varint"
))]
mod shared;
#[cfg(feature = "peer-svb")]
pub mod svb_crate;
#[cfg(any(feature = "peer-stream-vbyte", feature = "peer-streamvbyte64"))]
pub mod svb_rust;
#[cfg(feature = "peer-varint")]
pub mod varint_crates;

use crate::measure::Codec;

/// Every peer compiled in (of the `postings` and `ints` suites).
pub fn all() -> Vec<Box<dyn Codec>> {
    #[allow(unused_mut)]
    let mut all: Vec<Box<dyn Codec>> = Vec::new();
    #[cfg(any(intcodec_lemire_svb, intcodec_fastpfor_cpp))]
    all.extend(c_peers::contenders());
    #[cfg(any(feature = "peer-stream-vbyte", feature = "peer-streamvbyte64"))]
    all.extend(svb_rust::contenders());
    #[cfg(feature = "peer-svb")]
    all.push(Box::new(svb_crate::PeerSvb::default()));
    #[cfg(feature = "peer-varint")]
    {
        use varint_crates::{IntegerEncoding, Leb128, Prost, UnsignedVarint, VarintSimd};
        all.push(Box::new(Prost::default()));
        all.push(Box::new(IntegerEncoding::default()));
        all.push(Box::new(Leb128::default()));
        all.push(Box::new(VarintSimd::default()));
        all.push(Box::new(UnsignedVarint::default()));
    }
    #[cfg(feature = "peer-bitpacking")]
    {
        all.push(Box::new(bitpacking::four(
            crate::contenders::bp128::FAMILY_4X,
        )));
        all.push(Box::new(bitpacking::eight()));
        // The 16x layout has no peer of its own format (simdcomp's
        // `avx512pack` is in no registry): the fastest layouts there are.
        let x16 = crate::contenders::bp128::FAMILY_16X;
        all.push(Box::new(
            bitpacking::four(crate::contenders::bp128::FAMILY_4X).in_family(x16),
        ));
        all.push(Box::new(bitpacking::eight().in_family(x16)));
    }
    #[cfg(feature = "peer-fastpfor")]
    all.push(Box::new(fastpfor::PeerFastPFor::default()));
    all
}

/// Lines on peers built apart (how they were built, or why they are
/// missing), for reports that measured `family`.
pub fn build_notes(family: &str) -> Vec<String> {
    #[allow(unused_mut)]
    let mut notes = Vec::new();
    #[cfg(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp"))]
    if ["streamvbyte", "vbyte", "varint-gb", "varint-g8iu", "bp128"].contains(&family) {
        notes.push(c_note().to_string());
    }
    #[cfg(any(feature = "peer-stream-vbyte", feature = "peer-streamvbyte64"))]
    if family == "streamvbyte" {
        notes.extend(svb_rust::notes());
    }
    let _ = family;
    notes
}

/// How build.rs built the C/C++ peers (compiler, flags, sources), or why
/// some are missing.
#[cfg(any(feature = "peer-streamvbyte", feature = "peer-fastpfor-cpp"))]
pub fn c_note() -> &'static str {
    env!("INTCODEC_PEER_C_NOTE")
}
