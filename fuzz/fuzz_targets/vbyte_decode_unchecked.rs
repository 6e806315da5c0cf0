//! VByte `decode_unchecked` / `decode_delta_unchecked` on streams that meet
//! their contract, taken from arbitrary bytes: the `n` values scalar's
//! checked decoder accepts, re-encoded by the encoder (the contract asks for
//! values "as an encoder writes them", i.e. minimal), then copied into an
//! exact-size buffer with exactly `PADDING` more bytes (taken from the
//! input), so AddressSanitizer catches any read past the padding. Every
//! kernel's unchecked decode must equal the checked decode, in an exact-size
//! output buffer. (Accepted but non-minimal input is outside the contract
//! and not fed to the unchecked decoders.)
#![no_main]

use intcodec::vbyte::PADDING;
use intcodec::IntCodec;
use intcodec_fuzz::{padded, vbyte, DecodeCase, MAX_CAP};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, vbyte::DENSITY);
    let n = case.n;
    if n > MAX_CAP {
        return;
    }
    let kernels = vbyte::kernels();
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
    let buf = padded(&canonical, PADDING, &input[used..]);
    for k in kernels {
        let mut out = vec![0u32; n];
        let got = if case.delta {
            // SAFETY: `buf` holds `n` values as the encoder writes them
            // followed by PADDING bytes; `out` has `n` slots.
            unsafe { k.decode_delta_unchecked(&buf, n, case.prev, &mut out) }
        } else {
            // SAFETY: as above.
            unsafe { k.decode_unchecked(&buf, n, &mut out) }
        };
        assert_eq!(got, canonical.len(), "{k:?} bytes consumed");
        assert!(out == values, "{k:?} values");
    }
});
