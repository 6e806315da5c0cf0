//! Stream VByte `encoded_len` on arbitrary bytes and counts: it reads only
//! the control bytes, so it must never fail where decoding succeeds, and it
//! must agree with decoding: `Ok(len)` with `len <= input.len()` exactly when
//! every kernel decodes `n` values consuming `len` bytes; `Ok(len)` with
//! `len > input.len()` exactly when decoding reports truncated data.
#![no_main]

use intcodec::DecodeErrorKind;
use intcodec::IntCodec;
use intcodec_fuzz::{svb, DecodeCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, svb::DENSITY);
    let kernels = svb::kernels(svb::variant(case.variant_bit));
    let n = case.n;
    let len = kernels[0].encoded_len(input, n);
    for k in kernels {
        assert_eq!(k.encoded_len(input, n), len, "{k:?}");
        // Enough room so that capacity never decides the outcome.
        if n > intcodec_fuzz::MAX_CAP {
            continue;
        }
        let mut out = vec![0u32; n];
        let got = if case.delta {
            k.decode_delta(input, n, case.prev, &mut out)
        } else {
            k.decode(input, n, &mut out)
        };
        match (len, got) {
            (Ok(l), Ok(used)) => assert_eq!(l, used, "{k:?}"),
            (Ok(l), Err(e)) => {
                assert!(l > input.len(), "{k:?}: len {l} fits but decode {e:?}");
                assert_eq!(e.kind(), DecodeErrorKind::Truncated);
                assert!(e.offset() <= input.len(), "{k:?}: {e:?}");
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{k:?}"),
            (Err(a), Ok(u)) => panic!("{k:?}: encoded_len {a:?} but decode Ok({u})"),
        }
    }
});
