//! VarInt-G8IU `decode_unchecked` / `decode_delta_unchecked` on streams that
//! meet their contract ("a valid stream of at least `n` values, as written
//! by the encoder"), taken from arbitrary bytes: the values scalar's checked
//! decoder accepts for `n`, re-encoded by the encoder, plus (when `extra`
//! bit 0 is set) up to 15 more values after them, so the stream holds more
//! than `n`. The stream sits in an exact-size buffer (the contract asks for
//! no padding), so AddressSanitizer catches any read past it. Every kernel's
//! unchecked decode of `n` values must equal the checked decode, and consume
//! what checked decoding of the same stream consumes.
#![no_main]

use intcodec::IntCodec;
use intcodec_fuzz::{padded, varint_g8iu, DecodeCase, MAX_CAP};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, varint_g8iu::DENSITY);
    let n = case.n;
    if n > MAX_CAP {
        return;
    }
    let kernels = varint_g8iu::kernels();
    let scalar = &kernels[0];
    let mut values = vec![0u32; n];
    let decoded = if case.delta {
        scalar.decode_delta(input, n, case.prev, &mut values)
    } else {
        scalar.decode(input, n, &mut values)
    };
    let Ok(used) = decoded else { return };
    let mut all = values.clone();
    if case.extra & 1 != 0 {
        // More values: the input's bytes after the accepted blocks.
        let more = input[used..].chunks(3).take(15);
        all.extend(more.map(|c| c.iter().fold(0u32, |a, &b| a << 8 | u32::from(b))));
    }
    let stream = if case.delta {
        scalar.encode_delta_to_vec(&all, case.prev)
    } else {
        scalar.encode_to_vec(&all)
    };
    let stream = padded(&stream, 0, &[]);
    let mut check = vec![0u32; n];
    let consumed = if case.delta {
        scalar.decode_delta(&stream, n, case.prev, &mut check)
    } else {
        scalar.decode(&stream, n, &mut check)
    };
    assert_eq!(
        consumed.map(|_| ()),
        Ok(()),
        "checked decode of the re-encoding"
    );
    assert!(check == values, "re-encoding decodes back");
    for k in kernels {
        let mut out = vec![0u32; n];
        let got = if case.delta {
            // SAFETY: `stream` is a valid stream of at least `n` values as
            // the encoder wrote it; `out` has `n` slots.
            unsafe { k.decode_delta_unchecked(&stream, n, case.prev, &mut out) }
        } else {
            // SAFETY: as above.
            unsafe { k.decode_unchecked(&stream, n, &mut out) }
        };
        assert_eq!(Ok(got), consumed, "{k:?} bytes consumed");
        assert!(out == values, "{k:?} values");
    }
});
