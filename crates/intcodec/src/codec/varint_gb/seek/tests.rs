//! Select / seek / insert on VarInt-GB, every kernel and layout against the
//! decoded Vec and against scalar, intact and truncated.

use super::super::*;
use crate::isa::Isa;
use crate::tests::seek::{check_ok, expect_seek, expect_select, indexes, targets};
use crate::tests::{corpus, lengths, Rng};
use crate::traits::{IntCodec, KernelChoice, SortedCodec};

const LAYOUTS: [Layout; 2] = [Layout::LowFirst, Layout::Lucene];

fn kernels(layout: Layout) -> Vec<VarIntGb> {
    let v: Vec<VarIntGb> = Isa::ALL
        .into_iter()
        .filter_map(|isa| VarIntGb::new().with_layout(layout).with_isa(isa))
        .collect();
    assert_eq!(v.len(), super::super::registry(layout).enabled_isas().len());
    v
}

#[test]
fn select_and_seek_match_the_decoded_vec_on_every_kernel() {
    let mut rng = Rng::new(8);
    for layout in LAYOUTS {
        let ks = kernels(layout);
        for n in lengths().filter(|&n| n <= 300 || n % 1024 <= 1) {
            for (name, vals) in corpus(n, 12) {
                let mut sorted = vals.clone();
                sorted.sort_unstable();
                let prev = if n > 0 { sorted[0] / 3 } else { 9 };
                let delta = ks[0].encode_delta_to_vec(&sorted, prev);
                let unsorted = ks[0].encode_delta_to_vec(&vals, prev);
                for k in &ks {
                    let what = format!("{:?} {layout} {name} n={n}", k.isa());
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
}

#[test]
fn truncated_streams_give_decode_errors_on_every_kernel() {
    let mut rng = Rng::new(10);
    for layout in LAYOUTS {
        let ks = kernels(layout);
        for n in [1usize, 3, 4, 5, 17, 40, 67, 130] {
            for (name, vals) in corpus(n, 6) {
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
                                "{:?} {layout} {name} n={n} cut={cut} i={i}",
                                k.isa()
                            );
                        }
                        for t in targets(&sorted, &mut rng) {
                            assert_eq!(
                                k.lower_bound(d, n, 0, t),
                                expect_seek(&sorted, err, bad, t),
                                "{:?} {layout} {name} n={n} cut={cut} t={t}",
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
    let mut rng = Rng::new(4);
    for layout in LAYOUTS {
        let ks = kernels(layout);
        for _ in 0..300 {
            let len = (rng.next_u32() % 200) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
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
                assert_eq!(got, want, "{:?} {layout} n={n} i={i}", k.isa());
            }
        }
    }
}

#[test]
fn empty_and_bad_indexes() {
    for layout in LAYOUTS {
        for k in kernels(layout) {
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
}

#[test]
fn insert_keeps_order_on_every_kernel() {
    let mut rng = Rng::new(22);
    for layout in LAYOUTS {
        for k in kernels(layout) {
            let mut vals: Vec<u32> = Vec::new();
            let prev = 7;
            let mut bytes = k.encode_delta_to_vec(&vals, prev);
            for step in 0..300 {
                let x = prev + (rng.next_u32() >> (8 + step % 20));
                let at = k.insert(&mut bytes, vals.len(), prev, x).unwrap();
                assert_eq!(at, vals.partition_point(|&v| v <= x));
                vals.insert(at, x);
                assert_eq!(bytes, k.encode_delta_to_vec(&vals, prev), "{:?}", k.isa());
            }
            let mut b = k.encode_delta_to_vec(&[1, 5], 0);
            b.extend([0xEE, 0xFF]);
            k.insert(&mut b, 2, 0, 3).unwrap();
            let mut want = k.encode_delta_to_vec(&[1, 3, 5], 0);
            want.extend([0xEE, 0xFF]);
            assert_eq!(b, want);
            let mut t = alloc::vec![0xFFu8; 3];
            assert!(k.insert(&mut t, 3, 0, 1).is_err());
            assert_eq!(t, [0xFF; 3]);
        }
    }
}

/// An absurd count whose insertion point is found early: an error (the
/// stream ends long before), no huge allocation, the stream unchanged.
#[test]
fn insert_with_an_absurd_count_fails_cleanly() {
    for layout in LAYOUTS {
        for k in kernels(layout) {
            let bytes = k.encode_delta_to_vec(&[5, 10, 15, 20, 25, 30, 35, 40], 0);
            for n in [usize::MAX, usize::MAX / 2, 1 << 40] {
                let mut b = bytes.clone();
                assert!(k.insert(&mut b, n, 0, 7).is_err());
                assert_eq!(b, bytes);
            }
        }
    }
}
