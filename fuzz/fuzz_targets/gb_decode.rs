//! VarInt-GB checked decoding on arbitrary bytes: both layouts (variant bit:
//! low-first / Lucene), plain and delta, arbitrary count and output capacity
//! (see `DecodeCase`). Every kernel must give scalar's result (bytes
//! consumed, or the same error kind, offset and index) and values, and write
//! nothing past `n`; `encoded_len` must give the same result as decoding
//! (when the buffer does not decide it) on every kernel, and
//! `decode(_delta)_to_vec` must agree with `decode`. AddressSanitizer catches
//! any read past the input.
#![no_main]

use intcodec::DecodeErrorKind;
use intcodec::IntCodec;
use intcodec_fuzz::{agree, varint_gb, DecodeCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, varint_gb::DENSITY);
    let kernels = varint_gb::kernels(varint_gb::layout(case.variant_bit));
    let (n, cap, prev) = (case.n, case.cap, case.prev);
    let want = agree(kernels, n, cap, |k, out| {
        if case.delta {
            k.decode_delta(input, n, prev, out)
        } else {
            k.decode(input, n, out)
        }
    });
    for k in kernels {
        let len = k.encoded_len(input, n);
        if cap >= n {
            assert_eq!(len, want.result, "{k:?} encoded_len vs decode");
        } else {
            let kind = want.result.map_err(|e| e.kind());
            assert_eq!(kind, Err(DecodeErrorKind::OutputTooSmall), "{len:?}");
        }
        let v = if case.delta {
            k.decode_delta_to_vec(input, n, prev)
        } else {
            k.decode_to_vec(input, n)
        };
        match (&want.result, v) {
            (Ok(_), Ok(v)) => assert!(v[..] == want.out[..n], "{k:?} to_vec"),
            (Err(e), Ok(v)) => {
                assert!(cap < n, "{k:?}: to_vec Ok, decode {e:?}");
                assert_eq!(v.len(), n);
            }
            (Ok(_), Err(e)) => panic!("{k:?}: decode Ok, to_vec {e:?}"),
            (Err(a), Err(b)) => {
                if cap >= n {
                    assert_eq!(*a, b, "{k:?} to_vec");
                }
            }
        }
    }
});
