//! Benchmark harness for intcodec: datasets, the codecs under test (ours and
//! peers), measurements with correctness checks, suites and reports.
//! `intcodec bench` calls [`cli::run`].
//!
//! Layers (each imports only the ones after it):
//!
//! - [`cli`]: argument parsing, the run, the final summary.
//! - [`report`]: tables, CSV, JSON, the summary, figures ([`report::plot`])
//!   and records; reads the suites' rows.
//! - [`suites`]: `postings` and `ints` (paper §5 method), `keys`, `seek`
//!   (paper Fig. 6), `varint` (single values).
//! - [`contenders`] (our codecs, one adapter module) and [`peers`] (the one
//!   registry of other projects' codecs, behind the `peers` feature).
//! - [`measure`]: the [`measure::Codec`] trait, chunked bucket data, timed
//!   passes, checksums.
//! - [`data`], [`progress`], [`sysinfo`]: leaves (datasets come from
//!   `intcodec-testkit`).
pub mod cli;
pub mod contenders;
pub mod data;
pub mod measure;
pub mod peers;
pub mod progress;
pub mod report;
pub mod suites;
pub mod sysinfo;
