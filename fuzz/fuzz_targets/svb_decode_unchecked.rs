//! Stream VByte `decode_unchecked` on streams that respect its contract,
//! taken from arbitrary bytes: the prefix that scalar's checked decoder
//! accepts for `n` values, re-encoded by the encoder (the contract asks for a
//! stream "as written by an encoder"), then copied into an exact-size buffer
//! with exactly `PADDING` more bytes, so AddressSanitizer catches any read
//! past the padding. Every kernel's unchecked decode must equal the checked
//! decode. (The accepted prefix itself, which may use longer codes than the
//! encoder would and set unused codes in the last control byte, is decoded
//! unchecked too when `extra` bit 0 is set: outside the written contract, but
//! the kernels support it and this keeps them honest.)
#![no_main]

use intcodec::streamvbyte::PADDING;
use intcodec::IntCodec;
use intcodec_fuzz::{padded, svb, DecodeCase, MAX_CAP};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, svb::DENSITY);
    let n = case.n;
    if n > MAX_CAP {
        return;
    }
    let kernels = svb::kernels(svb::variant(case.variant_bit));
    let scalar = &kernels[0];
    let mut values = vec![0u32; n];
    let decoded = if case.delta {
        scalar.decode_delta(input, n, case.prev, &mut values)
    } else {
        scalar.decode(input, n, &mut values)
    };
    let Ok(used) = decoded else { return };
    let canonical = if case.delta {
        scalar.encode_delta_to_vec(&values, case.prev)
    } else {
        scalar.encode_to_vec(&values)
    };
    let mut streams = vec![canonical];
    if case.extra & 1 != 0 {
        streams.push(input[..used].to_vec());
    }
    for stream in streams {
        let buf = padded(&stream, PADDING, &input[used..]);
        for k in kernels {
            let mut out = vec![0u32; n];
            let got = if case.delta {
                // SAFETY: `buf` holds a complete stream of `n` values followed
                // by PADDING bytes (see the header comment); `out` has `n`
                // slots.
                unsafe { k.decode_delta_unchecked(&buf, n, case.prev, &mut out) }
            } else {
                // SAFETY: as above.
                unsafe { k.decode_unchecked(&buf, n, &mut out) }
            };
            assert_eq!(got, stream.len(), "{k:?} bytes consumed");
            assert!(out == values, "{k:?} values");
        }
    }
});
