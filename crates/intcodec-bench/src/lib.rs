//! Benchmark harness for intcodec: datasets, the codecs under test (ours and
//! peers), measurements with correctness checks, and reports. `intcodec
//! bench` calls [`cli::run`].
//!
//! - [`data`]: posting-list sources (ds2i files, seeded generators).
//! - [`codec`]: the [`codec::Codec`] trait and its implementations.
//! - [`measure`]: chunked bucket data, timed passes, checksums.
//! - [`suite`]: the `postings` suite (paper §5 method).
//! - [`seek`]: the `seek` suite (paper Fig. 6: select and seek).
//! - [`report`]: table, CSV and JSON output.
//! - [`vbyte`]: the VByte family (ours and the Rust varint crates).
//! - [`varint`]: the `varint` suite (single values, varint-simd's benchmark).
//! - [`bp128`]: the BP128 families (ours and the `bitpacking` crate).
//! - [`keys`]: the `keys` suite (the upscaledb B+-tree key study, b = 1..24).
//! - `svb_rust`: the `stream-vbyte` and `streamvbyte64` crates (a cdylib
//!   built apart) as Stream VByte peers (features `peer-stream-vbyte`,
//!   `peer-streamvbyte64`).
//! - `fastpfor_peer`: the `fastpfor` crate as a bit-packing peer of BP128
//!   (feature `peer-fastpfor`).
pub mod bp128;
pub mod cli;
pub mod codec;
pub mod data;
#[cfg(feature = "peer-fastpfor")]
pub mod fastpfor_peer;
pub mod keys;
pub mod measure;
pub mod plot;
pub mod progress;
pub mod record;
pub mod report;
pub mod seek;
pub mod suite;
#[cfg(any(feature = "peer-stream-vbyte", feature = "peer-streamvbyte64"))]
pub mod svb_rust;
pub mod sysinfo;
pub mod varint;
pub mod vbyte;
