//! Stream VByte checked decoding on arbitrary bytes: both variants, plain and
//! delta, arbitrary count and output capacity (see `DecodeCase`). Every
//! kernel must give scalar's result (bytes consumed, or the same error kind,
//! offset and index) and values, and write nothing past `n`; `decode_to_vec`
//! must agree with `decode`. AddressSanitizer catches any read past the input.
#![no_main]

use intcodec::IntCodec;
use intcodec_fuzz::{agree, svb, DecodeCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, svb::DENSITY);
    let kernels = svb::kernels(svb::variant(case.variant_bit));
    let (n, prev) = (case.n, case.prev);
    let want = agree(kernels, n, case.cap, |k, out| {
        if case.delta {
            k.decode_delta(input, n, prev, out)
        } else {
            k.decode(input, n, out)
        }
    });
    // The allocating form: same result (it checks the count against the
    // input before allocating, so an absurd `n` costs nothing).
    for k in kernels {
        let v = if case.delta {
            k.decode_delta_to_vec(input, n, prev)
        } else {
            k.decode_to_vec(input, n)
        };
        match (&want.result, v) {
            (Ok(_), Ok(v)) if case.cap >= n => assert!(v[..] == want.out[..n], "{k:?} to_vec"),
            (Ok(_), Ok(_)) => unreachable!("decode into a short buffer succeeded"),
            // `decode` can fail only on capacity where `to_vec` succeeds.
            (Err(e), Ok(v)) => {
                assert!(case.cap < n, "{k:?}: to_vec Ok, decode {e:?}");
                assert_eq!(v.len(), n);
            }
            (Ok(_), Err(e)) => panic!("{k:?}: decode Ok, to_vec {e:?}"),
            (Err(a), Err(b)) => {
                if case.cap >= n {
                    assert_eq!(*a, b, "{k:?} to_vec");
                }
            }
        }
    }
});
