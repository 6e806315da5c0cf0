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
pub mod bp128;
pub mod cli;
pub mod codec;
pub mod data;
pub mod keys;
pub mod measure;
pub mod plot;
pub mod progress;
pub mod record;
pub mod report;
pub mod seek;
pub mod suite;
pub mod sysinfo;
pub mod varint;
pub mod vbyte;
