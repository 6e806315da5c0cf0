//! VarInt-GB `decode_unchecked` / `decode_delta_unchecked` on streams that
//! meet their contract, taken from arbitrary bytes, both layouts: the prefix
//! scalar's checked decoder accepts for `n` values (a complete stream in the
//! layout; decoders accept any code, so over-long values are part of the
//! format), copied into an exact-size buffer with exactly `PADDING` more
//! bytes, so AddressSanitizer catches any read past the padding; when
//! `extra` bit 0 is set, the encoder's re-encoding of the values instead.
//! Every kernel's unchecked decode must equal the checked decode, in an
//! exact-size output buffer.
#![no_main]

use intcodec::varint_gb::PADDING;
use intcodec::IntCodec;
use intcodec_fuzz::{padded, varint_gb, DecodeCase, MAX_CAP};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, varint_gb::DENSITY);
    let n = case.n;
    if n > MAX_CAP {
        return;
    }
    let kernels = varint_gb::kernels(varint_gb::layout(case.variant_bit));
    let scalar = &kernels[0];
    let mut values = vec![0u32; n];
    let decoded = if case.delta {
        scalar.decode_delta(input, n, case.prev, &mut values)
    } else {
        scalar.decode(input, n, &mut values)
    };
    let Ok(used) = decoded else { return };
    let stream = if case.extra & 1 != 0 {
        if case.delta {
            scalar.encode_delta_to_vec(&values, case.prev)
        } else {
            scalar.encode_to_vec(&values)
        }
    } else {
        input[..used].to_vec()
    };
    let buf = padded(&stream, PADDING, &input[used..]);
    for k in kernels {
        let mut out = vec![0u32; n];
        let got = if case.delta {
            // SAFETY: `buf` holds a complete stream of `n` values in this
            // layout followed by PADDING bytes; `out` has `n` slots.
            unsafe { k.decode_delta_unchecked(&buf, n, case.prev, &mut out) }
        } else {
            // SAFETY: as above.
            unsafe { k.decode_unchecked(&buf, n, &mut out) }
        };
        assert_eq!(got, stream.len(), "{k:?} bytes consumed");
        assert!(out == values, "{k:?} values");
    }
});
