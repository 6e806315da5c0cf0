//! Select / seek / insert on delta-coded VByte, every kernel against the
//! decoded Vec and against scalar, intact, truncated and malformed.

use super::super::*;
use crate::isa::Isa;
use crate::tests::seek::{check_ok, expect_seek, expect_select, indexes, targets};
use crate::tests::{corpus, lengths, Rng};
use crate::traits::{IntCodec, KernelChoice, SortedCodec};

fn kernels() -> Vec<VByte> {
    let v: Vec<VByte> = Isa::ALL
        .into_iter()
        .filter_map(|isa| VByte::new().with_isa(isa))
        .collect();
    assert_eq!(v.len(), super::super::KERNELS.enabled_isas().len());
    v
}

#[test]
fn select_and_seek_match_the_decoded_vec_on_every_kernel() {
    let mut rng = Rng::new(18);
    let ks = kernels();
    for n in lengths().filter(|&n| n <= 300 || n % 1024 <= 1) {
        for (name, vals) in corpus(n, 13) {
            let mut sorted = vals.clone();
            sorted.sort_unstable();
            let prev = if n > 0 { sorted[0] / 3 } else { 9 };
            let delta = ks[0].encode_delta_to_vec(&sorted, prev);
            let unsorted = ks[0].encode_delta_to_vec(&vals, prev);
            for k in &ks {
                let what = format!("{:?} {name} n={n}", k.isa());
                for (list, bytes) in [(&sorted, &delta), (&vals, &unsorted)] {
                    let seek = |t| k.lower_bound(bytes, n, prev, t);
                    check_ok(
                        &what,
                        list,
                        |i| k.select(bytes, n, prev, i),
                        Some(&seek),
                        &mut rng,
                    );
                }
            }
        }
    }
}

/// Every prefix of every step shape: each step kind (12, 6, 4, 2 values)
/// followed by values of every length, so each lane of each kind is the
/// answer once.
#[test]
fn every_lane_of_every_step_kind() {
    let ks = kernels();
    let mut rng = Rng::new(5);
    for shift in [0u32, 7, 14, 21, 28] {
        let mut acc = 0u32;
        let vals: Vec<u32> = (0..200)
            .map(|i| {
                let s = if i % 3 == 0 {
                    shift
                } else {
                    (i as u32 * 7) % 29
                };
                acc = acc.wrapping_add((rng.next_u32() >> 8 >> (24 - s.min(24))) | 1);
                acc
            })
            .collect();
        let bytes = ks[0].encode_delta_to_vec(&vals, 0);
        for k in &ks {
            for (i, &v) in vals.iter().enumerate() {
                assert_eq!(k.select(&bytes, vals.len(), 0, i), Ok(Some(v)));
                assert_eq!(k.lower_bound(&bytes, vals.len(), 0, v), Ok(Some((i, v))));
                assert_eq!(k.lower_bound(&bytes, i + 1, 0, v), Ok(Some((i, v))));
                assert_eq!(k.lower_bound(&bytes, i, 0, v), Ok(None));
            }
        }
    }
}

#[test]
fn truncated_streams_give_decode_errors_on_every_kernel() {
    let mut rng = Rng::new(11);
    let ks = kernels();
    for n in [1usize, 3, 4, 5, 17, 40, 67] {
        for (name, vals) in corpus(n, 7) {
            let mut sorted = vals.clone();
            sorted.sort_unstable();
            let delta = ks[0].encode_delta_to_vec(&sorted, 0);
            for cut in 0..delta.len() {
                let d = &delta[..cut];
                let err = ks[0].decode_delta_to_vec(d, n, 0).unwrap_err();
                let bad = err.index().unwrap();
                for k in &ks {
                    for i in indexes(n) {
                        assert_eq!(
                            k.select(d, n, 0, i),
                            expect_select(&sorted, err, bad, i),
                            "{:?} {name} n={n} cut={cut} i={i}",
                            k.isa()
                        );
                    }
                    for t in targets(&sorted, &mut rng) {
                        assert_eq!(
                            k.lower_bound(d, n, 0, t),
                            expect_seek(&sorted, err, bad, t),
                            "{:?} {name} n={n} cut={cut} t={t}",
                            k.isa()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn garbage_agrees_with_scalar() {
    let mut rng = Rng::new(6);
    let ks = kernels();
    for round in 0..600 {
        let len = (rng.next_u32() % 200) as usize;
        // Mostly continuation bytes sometimes, to reach overlong values.
        let hi = if round % 2 == 0 { 0x80 } else { 0 };
        let bytes: Vec<u8> = (0..len)
            .map(|_| rng.next_u32() as u8 | hi & rng.next_u32() as u8)
            .collect();
        let n = (rng.next_u32() % 300) as usize;
        let i = (rng.next_u32() % 310) as usize;
        let t = rng.next_u32() >> (rng.next_u32() % 32);
        let prev = rng.next_u32();
        let want = (
            ks[0].select(&bytes, n, prev, i),
            ks[0].lower_bound(&bytes, n, prev, t),
        );
        for k in &ks[1..] {
            let got = (
                k.select(&bytes, n, prev, i),
                k.lower_bound(&bytes, n, prev, t),
            );
            assert_eq!(got, want, "{:?} n={n} i={i}", k.isa());
        }
    }
}

#[test]
fn malformed_values_give_decode_errors() {
    let ks = kernels();
    // 20 one-byte values, then an overlong one, then a 5th byte too large.
    let mut bytes = alloc::vec![1u8; 20];
    bytes.extend([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    bytes.extend([1u8; 20]);
    let over = ks[0].decode_delta_to_vec(&bytes, 30, 0).unwrap_err();
    assert_eq!(over.kind(), crate::DecodeErrorKind::Overlong);
    let mut big = alloc::vec![1u8; 20];
    big.extend([0x80, 0x80, 0x80, 0x80, 0x10]);
    big.extend([1u8; 20]);
    let flow = ks[0].decode_delta_to_vec(&big, 30, 0).unwrap_err();
    assert_eq!(flow.kind(), crate::DecodeErrorKind::Overflow);
    for k in &ks {
        for (b, e) in [(&bytes, over), (&big, flow)] {
            assert_eq!(k.select(b, 30, 0, 19), Ok(Some(20)));
            assert_eq!(k.select(b, 30, 0, 20), Err(e));
            assert_eq!(k.lower_bound(b, 30, 0, 20), Ok(Some((19, 20))));
            assert_eq!(k.lower_bound(b, 30, 0, 21), Err(e));
        }
    }
}

#[test]
fn empty_and_bad_indexes() {
    for k in kernels() {
        assert_eq!(k.select(&[], 0, 0, 0), Ok(None));
        assert_eq!(k.select(&[], 0, 0, usize::MAX), Ok(None));
        assert_eq!(k.lower_bound(&[], 0, 0, 0), Ok(None));
        let e = k.select(&[], 5, 0, 0).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (crate::DecodeErrorKind::Truncated, 0)
        );
    }
}

#[test]
fn insert_rewrites_one_delta_and_keeps_order() {
    let mut rng = Rng::new(23);
    for k in kernels() {
        let mut vals: Vec<u32> = Vec::new();
        let prev = 3;
        let mut bytes = k.encode_delta_to_vec(&vals, prev);
        for step in 0..300 {
            let x = prev + (rng.next_u32() >> (4 + step % 26));
            let at = k.insert(&mut bytes, vals.len(), prev, x).unwrap();
            assert_eq!(at, vals.partition_point(|&v| v <= x));
            vals.insert(at, x);
            assert_eq!(bytes, k.encode_delta_to_vec(&vals, prev), "{:?}", k.isa());
        }
        // Only the neighbouring delta changes: the bytes after it are the
        // same bytes, moved.
        let mut b = k.encode_delta_to_vec(&[100u32, 300, 301, 5000], 0);
        let tail = b[b.len() - 3..].to_vec(); // deltas 1 and 4699
        k.insert(&mut b, 4, 0, 200).unwrap();
        assert_eq!(&b[..4], &[100, 100, 100, 1]);
        assert_eq!(b[b.len() - 3..], tail[..]);
        let mut t = alloc::vec![0x80u8; 3];
        assert!(k.insert(&mut t, 3, 0, 1).is_err());
        assert_eq!(t, [0x80; 3]);
    }
}

/// An absurd count: an error once the stream ends, no huge allocation.
#[test]
fn insert_with_an_absurd_count_fails_cleanly() {
    for k in kernels() {
        let bytes = k.encode_delta_to_vec(&[5u32, 10, 15, 20], 0);
        let mut b = bytes.clone();
        assert!(k.insert(&mut b, usize::MAX, 0, 100).is_err());
        assert_eq!(b, bytes);
        // Even when the insertion point comes early: the whole count is
        // checked, like decode.
        assert!(k.insert(&mut b, usize::MAX, 0, 7).is_err());
        assert_eq!(b, bytes);
    }
}
