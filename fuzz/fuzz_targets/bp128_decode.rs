//! BP128 checked decoding (array format) on arbitrary bytes: every layout
//! (4x; 8x: variant bit; 16x: extra bit 1), no delta / D1 / lane delta
//! (delta bit, extra bit 0),
//! arbitrary count and capacity (`DecodeCase`). Every kernel must give
//! scalar's result and values and write nothing past `n`; `encoded_len`
//! must agree with decoding; `decode_to_vec` with `decode`; and when the
//! input is exactly one array, `SortedArray`'s `select`, `lower_bound` and
//! `len` must match the decoded values. ASan catches any read past the input.
#![no_main]

use intcodec::{DecodeErrorKind, IntCodec, SortedSet};
use intcodec_fuzz::{agree, bp128, DecodeCase};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, bp128::DENSITY);
    let kernels = bp128::kernels(bp128::layout(case.variant_bit, case.extra & 2 != 0));
    let delta = bp128::delta(case.delta, case.extra);
    let (n, cap, prev) = (case.n, case.cap, case.prev);
    let from = delta.map(|_| prev);
    let want = agree(kernels, n, cap, |k, out| {
        bp128::in_mode(*k, delta).decode_opt(input, n, from, out)
    });
    for k in kernels {
        let len = k.encoded_len(input, n);
        if cap >= n {
            assert_eq!(len, want.result, "{k:?} encoded_len vs decode");
        } else {
            let kind = want.result.map_err(|e| e.kind());
            assert_eq!(kind, Err(DecodeErrorKind::OutputTooSmall), "{len:?}");
        }
        if n <= cap {
            match (
                bp128::in_mode(*k, delta).decode_opt_to_vec(input, n, from),
                &want.result,
            ) {
                (Ok(v), Ok(_)) => assert!(v[..] == want.out[..n], "{k:?} to_vec"),
                (Err(a), Err(b)) => assert_eq!(a, *b, "{k:?} to_vec"),
                (a, b) => panic!("{k:?}: to_vec {a:?}, decode {b:?}"),
            }
        }
    }
    // Operations on compressed data (initial value 0) against the values.
    if let (Ok(used), true, 0) = (want.result, n <= 4096, prev) {
        let vals = &want.out[..n];
        for k in kernels {
            let bytes = input[..used].to_vec();
            let a = bp128::sorted_from_encoded(*k, delta, bytes, n).expect("valid array");
            assert_eq!(a.len(), n);
            for (i, &v) in vals.iter().enumerate().step_by(1 + n / 64) {
                assert_eq!(a.select(i), Some(v), "{k:?} select {i}");
            }
            assert_eq!(a.select(n), None);
            if vals.windows(2).all(|w| w[0] <= w[1]) {
                for &t in vals.iter().step_by(1 + n / 16).chain([0, u32::MAX].iter()) {
                    let i = vals.partition_point(|&v| v < t);
                    assert_eq!(a.lower_bound(t), vals.get(i).map(|&v| (i, v)));
                }
            }
        }
    }
});
