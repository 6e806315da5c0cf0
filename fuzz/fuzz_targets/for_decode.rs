//! FOR and SIMD-FOR checked decoding on arbitrary bytes (variant bit: FOR /
//! SIMD-FOR), arbitrary count and capacity (`DecodeCase`). SIMD-FOR: every
//! kernel must give scalar's result and values and write nothing past `n`.
//! Both: `encoded_len` agrees with decoding, an absurd count fails without
//! allocating (`*_to_vec`, `from_encoded`), and when the input is exactly
//! one encoding, the array's `select` / `lower_bound` / `len` match the
//! decoded values.
#![no_main]

use intcodec::frame_of_reference::{For, ForArray, SimdForArray};
use intcodec::{DecodeErrorKind, IntCodec, SortedSet};
use intcodec_fuzz::{agree, bp128, DecodeCase};
use libfuzzer_sys::fuzz_target;

fn check_ops(
    vals: &[u32],
    select: impl Fn(usize) -> Option<u32>,
    lb: impl Fn(u32) -> Option<(usize, u32)>,
) {
    let n = vals.len();
    for (i, &v) in vals.iter().enumerate().step_by(1 + n / 64) {
        assert_eq!(select(i), Some(v), "select {i}");
    }
    assert_eq!(select(n), None);
    if vals.windows(2).all(|w| w[0] <= w[1]) {
        for &t in vals.iter().step_by(1 + n / 16).chain([0, u32::MAX].iter()) {
            let i = vals.partition_point(|&v| v < t);
            assert_eq!(lb(t), vals.get(i).map(|&v| (i, v)));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, bp128::FOR_DENSITY);
    let (n, cap) = (case.n, case.cap);
    let small = n <= 4096;
    if case.variant_bit {
        let kernels = bp128::simd_for_kernels();
        let want = agree(kernels, n, cap, |k, out| k.decode(input, n, out));
        for k in kernels {
            let len = k.encoded_len(input, n);
            if cap >= n {
                assert_eq!(len, want.result, "{k:?} encoded_len");
            } else {
                assert_eq!(
                    want.result.map_err(|e| e.kind()),
                    Err(DecodeErrorKind::OutputTooSmall)
                );
            }
            let v = k.decode_to_vec(input, n);
            if let (Ok(v), true) = (&v, cap >= n) {
                assert!(v[..] == want.out[..n]);
            }
            if !small {
                // Never allocates n values unless the input could hold them
                // under the per-byte cap.
                assert!(v.is_err() || n <= input.len() << 16);
            }
            if let (Ok(used), true) = (want.result, small) {
                let a = SimdForArray::from_encoded(*k, input[..used].to_vec(), n).expect("valid");
                assert_eq!(a.len(), n);
                check_ops(&want.out[..n], |i| a.select(i), |t| a.lower_bound(t));
            }
        }
    } else {
        let mut out = vec![0u32; cap];
        let r = For.decode(input, n, &mut out);
        if cap >= n {
            assert_eq!(For.encoded_len(input, n), r);
            let v = For.decode_to_vec(input, n);
            match (&v, &r) {
                (Ok(v), Ok(_)) => assert!(v[..] == out[..n]),
                (Ok(_), Err(e)) => panic!("to_vec Ok, decode {e:?}"),
                _ => {}
            }
        } else {
            assert_eq!(
                r.map_err(|e| e.kind()),
                Err(DecodeErrorKind::OutputTooSmall)
            );
        }
        if let (Ok(used), true, true) = (r, small, cap >= n) {
            let a = ForArray::from_encoded(input[..used].to_vec(), n).expect("valid");
            check_ops(&out[..n], |i| a.select(i), |t| a.lower_bound(t));
        }
    }
});
