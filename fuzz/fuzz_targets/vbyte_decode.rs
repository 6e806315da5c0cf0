//! VByte checked decoding on arbitrary bytes: u32 (variant bit 0) or u64
//! (variant bit 1), plain and delta, arbitrary count and output capacity
//! (see `DecodeCase`). For each entry point every kernel must give scalar's
//! result (bytes consumed, or the same error kind, offset and index) and
//! values, and write nothing past `n`:
//! - `decode(_delta)(_u64)`, and `decode(_delta)(_u64)_to_vec` agreeing with
//!   it (the allocating forms check the count before allocating);
//! - `skip(_u64)`: the same result as decoding `n` values (when the buffer
//!   does not decide the outcome);
//! - `decode(_delta)_all(_u64)` (until the input ends), `_to_vec` too:
//!   `Ok(count(input))` exactly when decoding `count` values consumes the
//!   whole input;
//! - `decode_i32` (chunked, re-based errors): `decode`'s result, zigzagged.
//!
//! AddressSanitizer catches any read past the input.
#![no_main]

use intcodec::vbyte::VByte;
use intcodec::{zigzag, DecodeError, DecodeErrorKind};
use intcodec_fuzz::vbyte::{self, Width};
use intcodec_fuzz::{agree, DecodeCase, Outcome, Slot};
use libfuzzer_sys::fuzz_target;

type R = Result<usize, DecodeError>;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, vbyte::DENSITY);
    let kernels = vbyte::kernels();
    let (n, cap, delta) = (case.n, case.cap, case.delta);
    let all_cap = |count: usize| if case.extra & 1 != 0 { count } else { cap };
    if case.variant_bit {
        // A u64 base that uses the high half too.
        let prev = u64::from(case.prev).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let d = delta.then_some(prev);
        check_width(kernels, input, n, cap, d);
        if !delta {
            let all = |k: &VByte, out: &mut [u64]| k.decode_all_u64(input, out);
            check_all(kernels, input, all_cap, d, all, |k| {
                k.decode_all_u64_to_vec(input)
            });
        }
    } else {
        let prev = case.prev;
        let d = delta.then_some(prev);
        let want = check_width(kernels, input, n, cap, d);
        let all = |k: &VByte, out: &mut [u32]| match delta {
            true => k.decode_delta_all(input, prev, out),
            false => k.decode_all(input, out),
        };
        check_all(kernels, input, all_cap, d, all, |k| match delta {
            true => k.decode_delta_all_to_vec(input, prev),
            false => k.decode_all_to_vec(input),
        });
        if !delta {
            for k in kernels {
                let mut out = vec![0x5A5A_A5A5i32; cap];
                let got = k.decode_i32(input, n, &mut out);
                assert_eq!(got, want.result, "{k:?} decode_i32");
                if got.is_ok() {
                    let zz = want.out[..n].iter().map(|&v| zigzag::decode_i32(v));
                    assert!(out[..n].iter().copied().eq(zz), "{k:?} decode_i32 values");
                }
            }
        }
    }
});

/// [`check_n`] for one value width: decoding `n` values of `input`, plain
/// or delta from the given start (`delta`, as [`Width::decode`]).
fn check_width<T: Width>(
    kernels: &[VByte],
    input: &[u8],
    n: usize,
    cap: usize,
    delta: Option<T>,
) -> Outcome<T> {
    let skipped = T::skip(&kernels[0], input, n);
    check_n(
        kernels,
        n,
        cap,
        |k, out| T::decode(k, input, n, delta, out),
        |k| T::decode_to_vec(k, input, n, delta),
        skipped,
    )
}

/// Decoding `n` values into `cap` slots: every kernel agrees (`decode`),
/// the allocating form agrees with it ([`check_to_vec`]), and so does
/// `skipped`, the result of skipping `n` values ([`check_skip`]). Returns
/// the kernels' common outcome.
fn check_n<T: Slot>(
    kernels: &[VByte],
    n: usize,
    cap: usize,
    decode: impl Fn(&VByte, &mut [T]) -> R,
    to_vec: impl Fn(&VByte) -> Result<Vec<T>, DecodeError>,
    skipped: R,
) -> Outcome<T> {
    let want = agree(kernels, n, cap, decode);
    check_to_vec(kernels, &want, n, cap, to_vec);
    check_skip(&want.result, skipped, n, cap);
    want
}

/// The allocating form agrees with decoding into a buffer (which can fail
/// only on capacity where the allocating form succeeds).
fn check_to_vec<T: Slot>(
    kernels: &[VByte],
    want: &Outcome<T>,
    n: usize,
    cap: usize,
    to_vec: impl Fn(&VByte) -> Result<Vec<T>, DecodeError>,
) {
    for k in kernels {
        match (&want.result, to_vec(k)) {
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
}

/// `skip(n)` validates as decoding does: the same bytes or the same error.
fn check_skip(decoded: &R, skipped: R, n: usize, cap: usize) {
    if cap >= n {
        assert_eq!(skipped, *decoded, "skip vs decode (n = {n})");
    } else {
        // The buffer decides first.
        let kind = decoded.map_err(|e| e.kind());
        assert_eq!(kind, Err(DecodeErrorKind::OutputTooSmall), "{skipped:?}");
    }
}

/// Decoding until the input ends (`all`, `to_vec` its allocating form),
/// into `cap_for(count)` slots where `count` is what scalar's `count`
/// finds: every kernel agrees; success means `count` values that use the
/// whole input (decoding `count` values, plain or delta as `delta`, gives
/// the same); the allocating form agrees.
fn check_all<T: Width>(
    kernels: &[VByte],
    input: &[u8],
    cap_for: impl Fn(usize) -> usize,
    delta: Option<T>,
    all: impl Fn(&VByte, &mut [T]) -> R,
    to_vec: impl Fn(&VByte) -> Result<Vec<T>, DecodeError>,
) {
    let count = kernels[0].count(input);
    let cap = cap_for(count);
    assert!(count <= input.len());
    let want = agree(kernels, count, cap, |k, out| all(k, out));
    let mut out = vec![T::SENTINEL; count];
    let decoded = T::decode(&kernels[0], input, count, delta, &mut out);
    match want.result {
        Ok(m) => {
            assert_eq!(m, count, "decode_all count");
            assert_eq!(decoded, Ok(input.len()), "decode_all Ok but decode");
            assert!(out[..] == want.out[..count], "decode_all values");
        }
        Err(e) if e.kind() == DecodeErrorKind::OutputTooSmall => assert!(cap < count),
        Err(e) => {
            // Either decoding `count` values fails with this error, or it
            // stops short of the end, where the unfinished value is.
            match decoded {
                Err(d) => assert_eq!(d, e, "decode_all vs decode"),
                Ok(used) => {
                    assert!(used < input.len(), "decode_all {e:?}, decode Ok({used})");
                    assert_eq!((e.offset(), e.index()), (used, Some(count)), "{e:?}");
                }
            }
        }
    }
    for k in kernels {
        match (&want.result, to_vec(k)) {
            (Ok(_), Ok(v)) => assert!(v[..] == want.out[..count], "{k:?} all_to_vec"),
            (Err(e), Ok(_)) => assert_eq!(e.kind(), DecodeErrorKind::OutputTooSmall),
            (Ok(_), Err(e)) => panic!("{k:?}: decode_all Ok, to_vec {e:?}"),
            (Err(a), Err(b)) => {
                if cap >= count {
                    assert_eq!(*a, b, "{k:?} all_to_vec");
                }
            }
        }
    }
}
