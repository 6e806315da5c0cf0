//! Every public Stream VByte entry point on small inputs, every kernel: the
//! test set sized for Miri (`scripts/miri.sh`), which interprets each
//! instruction and so cannot run the full unit-test corpus. It also runs in
//! the ordinary test suite.
//!
//! Covers: encode into exact-size buffers (and one byte short), decode
//! checked and unchecked (exact-size buffers, `PADDING` bytes exactly),
//! every truncation point, garbage input, `encoded_len`, `_to_vec`, absurd
//! counts, both variants, plain and delta. Every kernel is compared with
//! scalar.
//!
//! Under Miri (`cfg(miri)`) the same tests run on every kernel but SSE4.1
//! (the AVX2 kernel's source compiled with other features, see
//! `common::miri_runs_kernel`), both variants, plain and delta, checked
//! and unchecked, with fewer repeats of the same paths: the lengths of
//! `lengths()` (each group remainder, each side of 16, 32 and 64 values,
//! one list past a 128-byte block), the input families `miri_runs` keeps
//! (the ones it drops have the control bytes and data lengths of one it
//! keeps), every third truncation point of four lengths, and 16 of the 40
//! random garbage inputs per variant.

mod common;

use common::exact;
use intcodec::streamvbyte::{StreamVByte, Variant, PADDING};
use intcodec::{DecodeErrorKind, EncodeError, Isa};
use intcodec::{IntCodec, KernelChoice};

const VARIANTS: [Variant; 2] = [Variant::V1234, Variant::V0124];

/// Lengths through every tail of the SIMD loops (4-value groups, 16-value
/// 32-value blocks) and past one 128-byte block of one-byte values. Miri
/// interprets every instruction: it gets each tail once (every remainder
/// mod 4 below one group, each side of 16, 32 and 64, one long list).
fn lengths() -> impl Iterator<Item = usize> {
    let all: &[usize] = if cfg!(miri) {
        &[0, 1, 2, 3, 4, 5, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 130]
    } else {
        &[
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 31, 32, 33,
            47, 48, 63, 64, 65, 80, 97, 130, 161,
        ]
    };
    all.iter().copied()
}

/// The tests' seeded PRNG: `next()` gives 32 random bits.
fn rng(seed: u64) -> impl FnMut() -> u32 {
    let mut r = intcodec_testkit::SplitMix64::new(seed);
    move || r.next_u32()
}

/// Zeros, all-MAX, one-byte values, and values of random byte widths.
/// (Indices 0 to 3: `miri_runs` names them.)
fn families(n: usize) -> Vec<Vec<u32>> {
    let mut r = rng(n as u64 + 1);
    let mut widths = |_| {
        let v = r();
        match v % 5 {
            0 => 0,
            w => v >> (8 * (4 - w)),
        }
    };
    vec![
        vec![0; n],
        vec![u32::MAX; n],
        (0..n as u32).map(|i| i % 200 + 1).collect(),
        (0..n).map(&mut widths).collect(),
    ]
}

/// Whether Miri runs family `family` (index into `families`) of length `n`
/// in `variant`; the native suite runs every one. Miri leaves out only
/// combinations whose control bytes, data lengths and so every branch and
/// every load and store bound repeat another combination's:
/// - the one-byte values in the standard variant (1234): every value, and
///   with delta every delta after the first, is one byte (code 0) as in
///   the zeros family, so the control bytes and data lengths are the
///   zeros' (only the data bytes differ, which no branch or bound reads);
/// - at 130 values, all but the two lists of one-byte codes (zeros in
///   1234, one-byte values in 0124): 130 is there to give a list of
///   one-byte values 128 data bytes, a full unchecked block batch. All-MAX
///   and random-width lists get that (and batches of two blocks, then
///   reach-checked blocks) at 63 to 65 values already, and zeros in 0124
///   have no data at all (every length runs them).
fn miri_runs(variant: Variant, n: usize, family: usize) -> bool {
    let one_byte_codes = match variant {
        Variant::V1234 => family == 0,
        Variant::V0124 => family == 2,
    };
    match n {
        130 => one_byte_codes,
        _ => !(variant == Variant::V1234 && family == 2),
    }
}

fn kernels(variant: Variant) -> Vec<StreamVByte> {
    let ks: Vec<_> = Isa::ALL
        .into_iter()
        .filter(|&isa| common::miri_runs_kernel(isa, Isa::Sse41))
        .filter_map(|isa| StreamVByte::new().with_variant(variant).with_isa(isa))
        .collect();
    assert_eq!(ks[0].isa(), Isa::Scalar);
    // scripts/miri.sh names the kernels it enabled, so that a detection
    // change cannot quietly leave Miri running scalar alone.
    if let Ok(expect) = std::env::var("INTCODEC_EXPECT_KERNELS") {
        let names: Vec<&str> = ks.iter().map(|k| k.isa().name()).collect();
        assert_eq!(names.join(","), expect, "kernels for {variant}");
    }
    ks
}

#[test]
fn round_trips_every_kernel() {
    for variant in VARIANTS {
        let ks = kernels(variant);
        for n in lengths() {
            for (family, values) in families(n).into_iter().enumerate() {
                if cfg!(miri) && !miri_runs(variant, n, family) {
                    continue;
                }
                for delta in [None, Some(7u32)] {
                    let want = ks[0].encode_opt_to_vec(&values, delta);
                    for k in &ks {
                        let ctx = format!("{k:?} n={n} delta={delta:?}");
                        let mut out = vec![0u8; want.len()];
                        let wrote = k.encode_opt(&values, delta, &mut out);
                        assert_eq!(wrote, Ok(want.len()), "{ctx}");
                        assert_eq!(out, want, "{ctx}");
                        if !want.is_empty() {
                            let mut short = vec![0u8; want.len() - 1];
                            let e = k.encode_opt(&values, delta, &mut short);
                            let too_small = EncodeError::OutputTooSmall {
                                needed: want.len(),
                                available: want.len() - 1,
                            };
                            assert_eq!(e, Err(too_small), "{ctx}");
                        }
                        let input = exact(&want, 0);
                        let mut got = vec![0u32; n];
                        let used = k.decode_opt(&input, n, delta, &mut got);
                        assert_eq!((used, &got), (Ok(want.len()), &values), "{ctx}");
                        assert_eq!(k.encoded_len(&input, n), Ok(want.len()), "{ctx}");
                        let padded = exact(&want, PADDING);
                        let mut got = vec![0u32; n];
                        // SAFETY: a stream written by this variant's encoder
                        // (delta-coded when `delta` is set), then PADDING
                        // bytes; `got` has `n` slots.
                        let used = unsafe { k.decode_opt_unchecked(&padded, n, delta, &mut got) };
                        assert_eq!((used, &got), (want.len(), &values), "{ctx} unchecked");
                    }
                }
            }
        }
    }
}

#[test]
fn every_truncation_agrees_with_scalar() {
    for variant in VARIANTS {
        let ks = kernels(variant);
        // Miri: four lengths and every third cut.
        let (ns, every): (&[usize], usize) = if cfg!(miri) {
            (&[1, 5, 17, 65], 3)
        } else {
            (&[1, 4, 5, 16, 17, 33, 65], 1)
        };
        for &n in ns {
            let values = families(n).pop().unwrap();
            let enc = ks[0].encode_to_vec(&values);
            for cut in (0..enc.len()).step_by(every) {
                let input = exact(&enc[..cut], 0);
                let mut want = vec![0u32; n];
                let want_r = ks[0].decode(&input, n, &mut want);
                if let Err(e) = want_r {
                    assert_eq!(e.kind(), DecodeErrorKind::Truncated);
                    assert!(e.offset() <= cut);
                }
                for k in &ks[1..] {
                    let mut got = vec![0u32; n];
                    assert_eq!(
                        k.decode(&input, n, &mut got),
                        want_r,
                        "{k:?} n={n} cut={cut}"
                    );
                    let mut got_d = vec![0u32; n];
                    let mut want_d = vec![0u32; n];
                    assert_eq!(
                        k.decode_delta(&input, n, 1, &mut got_d),
                        ks[0].decode_delta(&input, n, 1, &mut want_d),
                        "{k:?} delta n={n} cut={cut}"
                    );
                }
            }
        }
    }
}

#[test]
fn garbage_and_absurd_counts_agree_with_scalar() {
    let mut r = rng(99);
    for variant in VARIANTS {
        let ks = kernels(variant);
        // Random inputs: Miri gets 16 of the 40 per variant (random
        // repetitions of the same paths: short and long inputs, counts
        // below and above what the bytes hold).
        for _ in 0..if cfg!(miri) { 16 } else { 40 } {
            let len = (r() % 120) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| r() as u8).collect();
            let input = exact(&bytes, 0);
            let n = (r() % 200) as usize;
            for k in &ks {
                let mut want = vec![0u32; n];
                let mut got = vec![0u32; n];
                let want_r = ks[0].decode_delta(&input, n, 3, &mut want);
                assert_eq!(k.decode_delta(&input, n, 3, &mut got), want_r, "{k:?}");
                if want_r.is_ok() {
                    assert_eq!(got, want, "{k:?}");
                }
                assert_eq!(k.encoded_len(&input, n), ks[0].encoded_len(&input, n));
            }
        }
        for k in &ks {
            let e = k.decode_to_vec(&[0; 8], usize::MAX).unwrap_err();
            assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Truncated, 8));
            let mut out = [0u32; 2];
            let e = k.decode(&[0; 8], 3, &mut out).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::OutputTooSmall);
        }
    }
}
