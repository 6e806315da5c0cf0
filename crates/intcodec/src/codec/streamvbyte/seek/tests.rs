//! Select / seek / insert on Stream VByte, every kernel against the decoded
//! Vec (and binary search) and against scalar, intact and truncated.

use super::super::*;
use crate::isa::Isa;
use crate::tests::seek::{check_ok, expect_seek, expect_select, indexes, targets};
use crate::tests::{corpus, lengths, Rng};
use crate::traits::{IntCodec, KernelChoice, SortedCodec};
use alloc::vec;

const VARIANTS: [Variant; 2] = [Variant::V1234, Variant::V0124];

fn kernels(variant: Variant) -> Vec<StreamVByte> {
    let v: Vec<StreamVByte> = Isa::ALL
        .into_iter()
        .filter_map(|isa| StreamVByte::new().with_variant(variant).with_isa(isa))
        .collect();
    assert_eq!(
        v.len(),
        super::super::registry(variant).enabled_isas().len()
    );
    v
}

#[test]
fn select_and_seek_match_the_decoded_vec_on_every_kernel() {
    let mut rng = Rng::new(7);
    for variant in VARIANTS {
        let ks = kernels(variant);
        for n in lengths().filter(|&n| n <= 300 || n % 1024 <= 1) {
            for (name, vals) in corpus(n, 11) {
                let plain = ks[0].encode_to_vec(&vals);
                let mut sorted = vals.clone();
                sorted.sort_unstable();
                let prev = if n > 0 { sorted[0] / 2 } else { 5 };
                let delta = ks[0].encode_delta_to_vec(&sorted, prev);
                for k in &ks {
                    let what = format!("{:?} {variant} {name} n={n}", k.isa());
                    check_ok(
                        &what,
                        &vals,
                        |i| k.select_plain(&plain, n, i),
                        None,
                        &mut rng,
                    );
                    // Unsorted lists too: seek is "first index >= target".
                    let d_unsorted = k.encode_delta_to_vec(&vals, prev);
                    let seek_u = |t| k.lower_bound(&d_unsorted, n, prev, t);
                    check_ok(
                        &what,
                        &vals,
                        |i| k.select(&d_unsorted, n, prev, i),
                        Some(&seek_u),
                        &mut rng,
                    );
                    let seek_s = |t| k.lower_bound(&delta, n, prev, t);
                    check_ok(
                        &what,
                        &sorted,
                        |i| k.select(&delta, n, prev, i),
                        Some(&seek_s),
                        &mut rng,
                    );
                }
            }
        }
    }
}

/// Missing control bytes fail every call; missing data fails from the
/// first value cut short.
fn first_bad(err: crate::DecodeError, n: usize, cut: usize) -> usize {
    if cut < control_len(n) {
        0
    } else {
        err.index().unwrap()
    }
}

#[test]
fn truncated_streams_give_decode_errors_on_every_kernel() {
    let mut rng = Rng::new(9);
    for variant in VARIANTS {
        let ks = kernels(variant);
        for n in [1usize, 3, 4, 5, 17, 40, 67, 130] {
            for (name, vals) in corpus(n, 5) {
                let mut sorted = vals.clone();
                sorted.sort_unstable();
                let plain = ks[0].encode_to_vec(&vals);
                let delta = ks[0].encode_delta_to_vec(&sorted, 0);
                for cut in 0..plain.len() {
                    let p = &plain[..cut];
                    let err = ks[0].decode_to_vec(p, n).unwrap_err();
                    let bad = first_bad(err, n, cut);
                    for k in &ks {
                        for i in indexes(n) {
                            assert_eq!(
                                k.select_plain(p, n, i),
                                expect_select(&vals, err, bad, i),
                                "{:?} {variant} {name} n={n} cut={cut} i={i}",
                                k.isa()
                            );
                        }
                    }
                }
                for cut in 0..delta.len() {
                    let d = &delta[..cut];
                    let err = ks[0].decode_delta_to_vec(d, n, 0).unwrap_err();
                    let bad = first_bad(err, n, cut);
                    for k in &ks {
                        for i in indexes(n) {
                            assert_eq!(
                                k.select(d, n, 0, i),
                                expect_select(&sorted, err, bad, i),
                                "{:?} {variant} {name} n={n} cut={cut} i={i}",
                                k.isa()
                            );
                        }
                        for t in targets(&sorted, &mut rng) {
                            assert_eq!(
                                k.lower_bound(d, n, 0, t),
                                expect_seek(&sorted, err, bad, t),
                                "{:?} {variant} {name} n={n} cut={cut} t={t}",
                                k.isa()
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn garbage_agrees_with_scalar() {
    let mut rng = Rng::new(3);
    for variant in VARIANTS {
        let ks = kernels(variant);
        for _ in 0..300 {
            let len = (rng.next_u32() % 200) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
            let n = (rng.next_u32() % 300) as usize;
            let i = (rng.next_u32() % 310) as usize;
            let t = rng.next_u32() >> (rng.next_u32() % 32);
            let prev = rng.next_u32();
            let want = (
                ks[0].select_plain(&bytes, n, i),
                ks[0].select(&bytes, n, prev, i),
                ks[0].lower_bound(&bytes, n, prev, t),
            );
            for k in &ks[1..] {
                let got = (
                    k.select_plain(&bytes, n, i),
                    k.select(&bytes, n, prev, i),
                    k.lower_bound(&bytes, n, prev, t),
                );
                assert_eq!(got, want, "{:?} {variant} n={n} i={i}", k.isa());
            }
        }
    }
}

#[test]
fn empty_and_bad_indexes() {
    for variant in VARIANTS {
        for k in kernels(variant) {
            assert_eq!(k.select_plain(&[], 0, 0), Ok(None));
            assert_eq!(k.select(&[], 0, 0, usize::MAX), Ok(None));
            assert_eq!(k.lower_bound(&[], 0, 0, 0), Ok(None));
            // Control bytes missing.
            let e = k.select_plain(&[], 5, 0).unwrap_err();
            assert_eq!(
                (e.kind(), e.offset()),
                (crate::DecodeErrorKind::Truncated, 0)
            );
            assert!(k.lower_bound(&[0], 5, 0, 0).is_err());
        }
    }
}

#[test]
fn insert_keeps_order_on_every_kernel() {
    let mut rng = Rng::new(21);
    for variant in VARIANTS {
        for k in kernels(variant) {
            let mut vals: Vec<u32> = Vec::new();
            let prev = 100;
            let mut bytes = k.encode_delta_to_vec(&vals, prev);
            for step in 0..300 {
                let x = prev + (rng.next_u32() >> (8 + step % 20));
                let at = k.insert(&mut bytes, vals.len(), prev, x).unwrap();
                let want = vals.partition_point(|&v| v <= x);
                assert_eq!(at, want);
                vals.insert(at, x);
                assert_eq!(bytes, k.encode_delta_to_vec(&vals, prev), "{:?}", k.isa());
            }
            // Trailing bytes survive.
            let mut b = k.encode_delta_to_vec(&[1, 5], 0);
            b.extend([0xEE, 0xFF]);
            k.insert(&mut b, 2, 0, 3).unwrap();
            let mut want = k.encode_delta_to_vec(&[1, 3, 5], 0);
            want.extend([0xEE, 0xFF]);
            assert_eq!(b, want);
            // Errors leave the stream alone.
            let mut t = vec![0xFFu8; 1];
            assert!(k.insert(&mut t, 3, 0, 1).is_err());
            assert_eq!(t, [0xFF]);
        }
    }
}

/// Found by `sorted_seek`: a zero block (sixteen one-byte deltas) whose sum
/// wraps past 2^32 in an unsorted stream must not be skipped as "all below
/// the target" because its last value is.
#[test]
fn seek_does_not_skip_a_zero_block_that_wraps() {
    let vals: Vec<u32> = (0..40u32).map(|i| 0xFFFF_FFF0u32.wrapping_add(i)).collect();
    for k in kernels(Variant::V1234) {
        let b = k.encode_delta_to_vec(&vals, 0);
        for t in [0xFFFF_FFF5u32, 0xFFFF_FFFE, u32::MAX, 2, 30] {
            let want = vals.iter().position(|&v| v >= t).map(|i| (i, vals[i]));
            assert_eq!(
                k.lower_bound(&b, vals.len(), 0, t),
                Ok(want),
                "{:?} {t}",
                k.isa()
            );
        }
    }
}

/// An absurd count: the control bytes are missing, an error at once.
#[test]
fn insert_with_an_absurd_count_fails_cleanly() {
    for k in kernels(Variant::V1234) {
        let bytes = k.encode_delta_to_vec(&[5, 10, 15, 20], 0);
        let mut b = bytes.clone();
        assert!(k.insert(&mut b, usize::MAX, 0, 7).is_err());
        assert_eq!(b, bytes);
    }
}
