//! Benchmark harness for intcodec.
pub mod data;
