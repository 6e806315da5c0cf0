//! Unchecked decoding for every codec of the registry (picked by byte 0) on
//! streams that meet its contract, exactly the codec's padding after them,
//! every kernel against checked decoding: see
//! `intcodec_fuzz::codec::fuzz_decode_unchecked`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| intcodec_fuzz::codec::fuzz_decode_unchecked(data));
