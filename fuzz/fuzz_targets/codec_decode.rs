//! Checked decoding of arbitrary bytes for every codec of the registry
//! (picked by byte 0) on every kernel against scalar: see
//! `intcodec_fuzz::codec::fuzz_decode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| intcodec_fuzz::codec::fuzz_decode(data));
