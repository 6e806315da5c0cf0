//! SvbVec (append) and Blocked (long lists), every kernel.

use super::*;
use crate::codec::bp128::{Bp128, DeltaMode, Layout as Bp128Layout};
use crate::codec::streamvbyte::{StreamVByte, Variant};
use crate::isa::Isa;
use crate::tests::seek::lower_bound;
use crate::tests::{corpus, Rng};
use crate::{IntCodec, KernelChoice, SortedCodec, SortedSet};
use alloc::vec::Vec;

fn svb_kernels() -> Vec<StreamVByte> {
    let mut v = Vec::new();
    for variant in [Variant::V1234, Variant::V0124] {
        v.extend(
            Isa::ALL
                .into_iter()
                .filter_map(|isa| StreamVByte::new().with_variant(variant).with_isa(isa)),
        );
    }
    assert!(v.len() >= 2);
    v
}

#[test]
fn append_then_decode_is_the_concatenation() {
    let mut rng = Rng::new(31);
    for codec in svb_kernels() {
        for delta in [false, true] {
            let prev = 17;
            let mut v = if delta {
                SvbVec::new_delta(codec, prev)
            } else {
                SvbVec::new(codec)
            };
            let mut all: Vec<u32> = Vec::new();
            for (round, n) in [0usize, 1, 3, 4, 5, 7, 64, 100, 255, 1000, 33]
                .into_iter()
                .enumerate()
            {
                let (_, batch) = corpus(n, round as u64).swap_remove(round % 9);
                if round % 2 == 0 {
                    v.extend(batch.iter().copied());
                } else {
                    for &x in &batch {
                        v.push(x);
                    }
                }
                all.extend(&batch);
                assert_eq!(v.len(), all.len());
                assert_eq!(v.iter().len(), all.len());
                assert_eq!(v.to_vec(), all, "{codec:?} delta={delta}");
                for _ in 0..20 {
                    let i = (rng.next_u32() as usize) % (all.len() + 2);
                    assert_eq!(v.select(i), all.get(i).copied());
                }
                let want = codec.encode_opt_to_vec(&all, delta.then_some(prev));
                assert_eq!(v.encoded_len(), want.len());
                if round % 3 == 0 {
                    assert_eq!(
                        v.as_bytes(),
                        &want[..],
                        "{codec:?} delta={delta} round {round}"
                    );
                }
                let back = if delta {
                    SvbVec::from_bytes_delta(codec, &want, all.len(), prev)
                } else {
                    SvbVec::from_bytes(codec, &want, all.len())
                }
                .unwrap();
                assert_eq!(back.to_vec(), all);
            }
            // Sorted: seek.
            if delta {
                let mut s = SvbVec::new_delta(codec, 0);
                let mut sorted = all.clone();
                sorted.sort_unstable();
                s.extend(sorted.iter().copied());
                for t in [0, 1, sorted[sorted.len() / 2], u32::MAX, rng.next_u32()] {
                    assert_eq!(s.lower_bound(t), lower_bound(&sorted, t));
                }
            }
        }
    }
}

#[test]
fn from_bytes_checks_and_cleans_the_stream() {
    let codec = StreamVByte::new();
    let vals = [1u32, 300, 70_000, 5, 6];
    let bytes = codec.encode_to_vec(&vals);
    for cut in 0..bytes.len() {
        let e = SvbVec::from_bytes(codec, &bytes[..cut], 5).unwrap_err();
        assert_eq!(Err(e), codec.decode_to_vec(&bytes[..cut], 5));
        assert!(SvbVec::from_bytes_delta(codec, &bytes[..cut], 5, 0).is_err());
    }
    // Unused codes set in the last control byte (bits past n) and trailing
    // bytes: ignored, and pushing still gives the standard stream.
    let mut dirty = bytes.clone();
    dirty[1] |= 0b1111_1100;
    dirty.extend([9, 9, 9]);
    let mut v = SvbVec::from_bytes(codec, &dirty, 5).unwrap();
    assert_eq!(v.to_vec(), vals);
    v.push(1 << 20);
    assert_eq!(
        v.as_bytes(),
        &codec.encode_to_vec(&[1, 300, 70_000, 5, 6, 1 << 20])[..]
    );
    let e = SvbVec::new(codec);
    assert!(e.is_empty() && e.select(0).is_none() && e.lower_bound(0).is_none());
    assert_eq!(e.iter().next(), None);
}

fn sorted_list(rng: &mut Rng, n: usize, bits: u32) -> Vec<u32> {
    let mut acc = 0u32;
    (0..n)
        .map(|_| {
            acc = acc.wrapping_add(rng.next_u32() >> (32 - bits));
            acc
        })
        .collect()
}

fn check_blocked<C: SortedCodec + KernelChoice>(list: &Blocked<C>, vals: &[u32], rng: &mut Rng) {
    assert_eq!(list.len(), vals.len());
    assert_eq!(list.to_vec(), vals);
    let step = (vals.len() / 3000).max(1);
    for i in (0..vals.len())
        .step_by(step)
        .chain([vals.len(), vals.len() + 7])
    {
        assert_eq!(list.select(i), vals.get(i).copied(), "select({i})");
    }
    let mut targets = intcodec_testkit::probe_keys(vals, step);
    targets.extend((0..100).map(|_| rng.next_u32()));
    for t in targets {
        let want = vals.partition_point(|&v| v < t);
        assert_eq!(
            list.lower_bound(t),
            vals.get(want).map(|&v| (want, v)),
            "lower_bound({t})"
        );
    }
}

/// `Blocked` over every kernel of `codec`: lengths around the block
/// boundaries, several gap widths, both block lengths; then inserts.
fn blocked_all_kernels<C: SortedCodec + KernelChoice>(codec: C) {
    let mut rng = Rng::new(41);
    for n in [0usize, 1, 2, 127, 128, 129, 255, 256, 257, 1000, 5000] {
        for bits in [1u32, 8, 13, 20] {
            let vals = sorted_list(&mut rng, n, bits);
            for bl in [128, 256] {
                for c in codec.all_kernels() {
                    let list = Blocked::from_sorted(c, &vals, bl).unwrap();
                    check_blocked(&list, &vals, &mut rng);
                    if bits == 8 && n <= 1000 {
                        blocked_inserts(list, vals.clone(), &mut rng);
                    }
                }
            }
        }
    }
}

/// Inserts into `list` (holding `vals`): duplicates, new minimums and
/// maximums, enough into one block to split it; the list and a `Vec` agree
/// after each.
fn blocked_inserts<C: SortedCodec + KernelChoice>(
    mut list: Blocked<C>,
    mut vals: Vec<u32>,
    rng: &mut Rng,
) {
    let top = vals.last().copied().unwrap_or(0);
    let mut news: Vec<u32> = (0..40).map(|_| rng.next_u32() % (top + 10)).collect();
    news.extend([0, top, top + 1, u32::MAX]);
    news.extend(vals.iter().step_by(97).copied());
    // 300 values at one place: the block they go into splits.
    let mid = vals.get(vals.len() / 2).copied().unwrap_or(5);
    news.extend(core::iter::repeat_n(mid, 300));
    for (k, v) in news.into_iter().enumerate() {
        let at = vals.partition_point(|&x| x <= v);
        vals.insert(at, v);
        assert_eq!(list.insert(v), at, "insert {v} ({k})");
        if k % 50 == 0 {
            check_blocked(&list, &vals, rng);
        }
    }
    check_blocked(&list, &vals, rng);
    assert!(list.compressed_bytes() >= list.data_len() + list.skip_table_len());
}

#[test]
fn blocked_agrees_with_binary_search_on_every_codec_and_kernel() {
    // The byte codecs (Stream VByte both variants, VByte, VarIntGb both
    // layouts) join once they implement `SortedCodec`.
    for layout in [Bp128Layout::Lanes4, Bp128Layout::Lanes8] {
        for delta in [DeltaMode::D1, DeltaMode::Lane] {
            blocked_all_kernels(Bp128::new(layout).with_delta(delta));
        }
    }
}

#[test]
fn blocked_on_millions() {
    let mut rng = Rng::new(42);
    let vals = sorted_list(&mut rng, 2_000_000, 10);
    let list = Blocked::from_sorted(Bp128::new(Bp128Layout::Lanes4), &vals, 128).unwrap();
    assert!(list.data_len() < vals.len() * 2);
    check_blocked(&list, &vals, &mut rng);
    let list = Blocked::from_sorted(Bp128::new(Bp128Layout::Lanes8), &vals, 256).unwrap();
    check_blocked(&list, &vals, &mut rng);
}

#[test]
fn blocked_refuses_bad_input() {
    let c = Bp128::new(Bp128Layout::Lanes4);
    assert_eq!(
        Blocked::from_sorted(c, &[1, 2, 1], 128).unwrap_err(),
        BlockedError::NotSorted { index: 2 }
    );
    assert_eq!(
        Blocked::from_sorted(c, &[1, 2], 100).unwrap_err(),
        BlockedError::BlockLen(100)
    );
    let mut e = Blocked::from_sorted(c, &[], 256).unwrap();
    assert!(e.is_empty() && e.select(0).is_none() && e.lower_bound(0).is_none());
    assert_eq!(e.insert(9), 0);
    assert_eq!(e.to_vec(), [9]);
}

#[test]
fn svb_vec_insert_matches_a_vec() {
    let mut rng = Rng::new(43);
    for codec in svb_kernels() {
        for delta in [false, true] {
            for n in [0usize, 1, 3, 4, 5, 100] {
                let mut vals = sorted_list(&mut rng, n, 9);
                let mut v = if delta {
                    SvbVec::new_delta(codec, 0)
                } else {
                    SvbVec::new(codec)
                };
                v.extend(vals.iter().copied());
                let top = vals.last().copied().unwrap_or(0);
                let mut news: Vec<u32> = (0..20).map(|_| rng.next_u32() % (top + 5)).collect();
                news.extend([0, top, u32::MAX, 1 << 20]);
                news.extend(vals.iter().step_by(7).copied());
                for x in news {
                    let at = vals.partition_point(|&y| y <= x);
                    vals.insert(at, x);
                    assert_eq!(v.insert(x), at, "{codec:?} delta={delta} insert {x}");
                    assert_eq!(v.to_vec(), vals);
                    assert_eq!(v.select(at), Some(x));
                }
                // Appending after inserts still gives the standard stream.
                v.push(u32::MAX);
                vals.push(u32::MAX);
                let want = codec.encode_opt_to_vec(&vals, delta.then_some(0));
                assert_eq!(v.compressed_bytes(), want.len());
                assert_eq!(v.as_bytes(), &want[..]);
            }
        }
    }
}
