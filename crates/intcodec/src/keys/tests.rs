//! Model-based tests of [`KeySet`] against `BTreeSet<u32>`, serialization
//! round trips and corruption.

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use super::{KeySet, LoadErrorKind};
use crate::bp128::{Bp128, Layout};
use crate::frame_of_reference::{For, SimdFor};
use crate::streamvbyte::StreamVByte;
use crate::traits::{KernelChoice, SortedCodec};
use crate::varint_gb::VarIntGb;
use crate::vbyte::VByte;
use intcodec_testkit::SplitMix64;

/// Runs `$body` with `$c` bound to every block codec (on its best kernel).
macro_rules! for_each_codec {
    ($c:ident => $body:expr) => {{
        {
            let $c = Bp128::new(Layout::Lanes4);
            $body
        }
        {
            let $c = Bp128::new(Layout::Lanes8);
            $body
        }
        {
            let $c = For;
            $body
        }
        {
            let $c = SimdFor::best();
            $body
        }
        {
            let $c = StreamVByte::new();
            $body
        }
        {
            let $c = VByte::new();
            $body
        }
        {
            let $c = VarIntGb::new();
            $body
        }
    }};
}

fn key(rng: &mut SplitMix64, span: u32) -> u32 {
    match rng.below(16) {
        0 => u32::MAX - rng.below(4) as u32,
        1 => rng.below(4) as u32,
        2 => rng.next_u32(),
        _ => rng.below(u64::from(span)) as u32,
    }
}

fn random_set(rng: &mut SplitMix64, n: usize, span: u32) -> BTreeSet<u32> {
    (0..n).map(|_| key(rng, span)).collect()
}

fn check_against<C: SortedCodec + KernelChoice>(set: &KeySet<C>, model: &BTreeSet<u32>) {
    set.check_invariants();
    assert_eq!(set.len(), model.len());
    assert!(set.iter().eq(model.iter().copied()));
    assert_eq!(set.first(), model.first().copied());
    assert_eq!(set.last(), model.last().copied());
}

/// Random interleavings of every operation on a set and on the model.
fn model_run<C: SortedCodec + KernelChoice>(codec: C, block_len: usize, seed: u64, steps: usize) {
    let mut rng = SplitMix64::derive(seed, &[block_len as u64]);
    let span = [64u32, 3000, 100_000][rng.below(3) as usize];
    let n = rng.below(600) as usize;
    let init = random_set(&mut rng, n, span);
    let mut set = KeySet::from_sorted_with(codec, block_len, init.iter().copied()).unwrap();
    let mut model = init;
    check_against(&set, &model);
    for step in 0..steps {
        let k = key(&mut rng, span);
        match rng.below(14) {
            0..=3 => assert_eq!(set.insert(k), model.insert(k), "insert {k}"),
            4..=5 => assert_eq!(set.remove(k), model.remove(&k), "remove {k}"),
            6 => assert_eq!(set.contains(k), model.contains(&k), "contains {k}"),
            7 => assert_eq!(
                set.lower_bound(k),
                model.range(k..).next().copied(),
                "lower_bound {k}"
            ),
            8 => {
                let r = model.range(..k).count();
                assert_eq!(set.rank(k), r, "rank {k}");
                let i = rng.below(model.len() as u64 + 2) as usize;
                assert_eq!(set.select(i), model.iter().nth(i).copied(), "select {i}");
            }
            9 => {
                let a = k;
                let b = a.saturating_add(rng.below(u64::from(span)) as u32);
                assert!(
                    set.range(a..b).eq(model.range(a..b).copied()),
                    "range {a}..{b}"
                );
                assert!(set.range(a..=b).eq(model.range(a..=b).copied()));
                assert!(set.range(a..).eq(model.range(a..).copied()));
            }
            10 => {
                // A cursor: seeks (forward) interleaved with next.
                let mut c = set.cursor();
                let mut at = 0u64;
                for _ in 0..8 {
                    let t = key(&mut rng, span);
                    let want = model.range(t.max(at as u32)..).next().copied();
                    let want = if u64::from(t) < at {
                        model.range(at as u32..).next().copied()
                    } else {
                        want
                    };
                    assert_eq!(c.seek(t), want, "seek {t}");
                    let n = c.next();
                    assert_eq!(n, want);
                    match n {
                        Some(v) => at = u64::from(v) + 1,
                        None => break,
                    }
                    if at > u64::from(u32::MAX) {
                        break;
                    }
                }
            }
            11 => {
                let n = rng.below(800) as usize;
                let other = random_set(&mut rng, n, span);
                let ov: Vec<u32> = other.iter().copied().collect();
                let oset = KeySet::from_sorted(StreamVByte::new(), &ov).unwrap();
                let want: Vec<u32> = model.intersection(&other).copied().collect();
                assert_eq!(set.intersection(&oset).to_vec(), want);
                assert_eq!(oset.intersection(&set).to_vec(), want);
                assert_eq!(set.intersection_len(&oset), want.len());
                assert_eq!(set.intersect_sorted(&ov), want);
                let u: Vec<u32> = model.union(&other).copied().collect();
                let us = set.union_sorted(&ov);
                us.check_invariants();
                assert_eq!(us.to_vec(), u);
                let same = KeySet::from_sorted_with(codec, block_len, ov.iter().copied()).unwrap();
                let us = set.union(&same);
                us.check_invariants();
                assert_eq!(us.to_vec(), u);
                let us = same.union(&set);
                us.check_invariants();
                assert_eq!(us.to_vec(), u);
            }
            12 => {
                let bytes = set.to_bytes();
                let back = KeySet::from_bytes(codec, &bytes).unwrap();
                back.check_invariants();
                assert!(back == set);
                assert_eq!(back.to_bytes(), bytes);
            }
            _ => {
                // Remove a run of present keys (exercises merges and leaf drops).
                let from: Vec<u32> = model
                    .range(k..)
                    .take(rng.below(300) as usize)
                    .copied()
                    .collect();
                for x in from {
                    assert!(set.remove(x));
                    model.remove(&x);
                }
            }
        }
        if step % 64 == 0 {
            check_against(&set, &model);
        }
    }
    check_against(&set, &model);
}

#[test]
fn model_every_codec() {
    for_each_codec!(c => {
        for (seed, block_len) in [(1u64, 1usize), (2, 3), (3, 8), (4, 128), (5, 256)] {
            let block_len = block_len.min(256);
            model_run(c, block_len, seed, 1500);
        }
        for kernel in c.all_kernels() {
            model_run(kernel, 16, 99, 400);
        }
    });
}

#[test]
fn empty_and_extremes() {
    for_each_codec!(c => {
        let mut s = KeySet::new(c);
        assert!(s.is_empty());
        assert!(!s.contains(0));
        assert_eq!(s.lower_bound(0), None);
        assert_eq!(s.select(0), None);
        assert_eq!(s.rank(7), 0);
        assert_eq!(s.iter().next(), None);
        assert_eq!(s.cursor().seek(3), None);
        assert!(!s.remove(1));
        let e = KeySet::from_bytes(c, &s.to_bytes()).unwrap();
        assert!(e.is_empty());
        assert!(s.insert(u32::MAX) && s.insert(0) && !s.insert(0));
        assert_eq!(s.to_vec(), [0, u32::MAX]);
        assert_eq!(s.rank(u32::MAX), 1);
        assert_eq!(s.range(1..).collect::<Vec<_>>(), [u32::MAX]);
        assert_eq!(s.range(u32::MAX..=u32::MAX).collect::<Vec<_>>(), [u32::MAX]);
        assert!(s.remove(u32::MAX) && s.remove(0) && s.is_empty());
        s.check_invariants();
        assert_eq!(KeySet::from_sorted(c, &[1, 1]).unwrap_err().index, 1);
        assert_eq!(KeySet::from_sorted(c, &[5, 2]).unwrap_err().index, 1);
    });
}

/// Sequential appends and bulk builds keep blocks full.
#[test]
fn appends_fill_blocks() {
    let c = Bp128::new(Layout::Lanes4);
    let mut s = KeySet::new(c);
    for k in 0..100_000u32 {
        s.insert(k * 3);
    }
    s.check_invariants();
    assert_eq!(s.block_count(), 100_000usize.div_ceil(129));
    let b = KeySet::from_sorted_iter(c, (0..100_000u32).map(|k| k * 3)).unwrap();
    assert!(b == s);
    assert_eq!(b.block_count(), s.block_count());
}

fn corrupt_one<C: SortedCodec + KernelChoice>(codec: C, keys: &[u32], block_len: usize) {
    let mut set = KeySet::with_block_len(codec, block_len);
    for &k in keys {
        set.insert(k);
    }
    let bytes = set.to_bytes();
    assert!(KeySet::from_bytes(codec, &bytes).unwrap() == set);
    for cut in 0..bytes.len() {
        let e = KeySet::from_bytes(codec, &bytes[..cut]).unwrap_err();
        assert!(e.offset <= cut, "{e:?} past the end {cut}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        KeySet::from_bytes(codec, &long).unwrap_err().kind,
        LoadErrorKind::Trailing
    );
    let mut flipped = bytes.clone();
    for i in 0..bytes.len() {
        for bit in 0..8 {
            flipped[i] ^= 1 << bit;
            match KeySet::from_bytes(codec, &flipped) {
                Ok(s) => {
                    s.check_invariants();
                    assert!(s == set, "flip at byte {i} bit {bit} gave another set");
                }
                Err(e) => assert!(e.offset <= flipped.len()),
            }
            flipped[i] ^= 1 << bit;
        }
    }
}

#[test]
fn corruption_is_an_error_or_the_same_set() {
    let mut rng = SplitMix64::new(21);
    let keys: Vec<u32> = random_set(&mut rng, 300, 5000).into_iter().collect();
    for_each_codec!(c => {
        corrupt_one(c, &keys, 8);
        corrupt_one(c, &keys[..3], 2);
    });
}

#[test]
fn load_errors_name_the_place() {
    let c = StreamVByte::new();
    let set = KeySet::from_sorted(c, &[1, 2, 3, 1000]).unwrap();
    let bytes = set.to_bytes();
    assert_eq!(
        KeySet::from_bytes(c, b"nope").unwrap_err(),
        super::LoadError {
            kind: LoadErrorKind::Magic,
            offset: 0
        }
    );
    let e = KeySet::from_bytes(VByte::new(), &bytes).unwrap_err();
    assert_eq!((e.kind, e.offset), (LoadErrorKind::Codec, 4));
    let msg = alloc::format!("{e}");
    assert!(msg.contains("byte 4"), "{msg}");
}

mod prop {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u32),
        Remove(u32),
        Contains(u32),
        LowerBound(u32),
        Rank(u32),
        Select(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        let k = prop_oneof![0u32..500, any::<u32>()];
        prop_oneof![
            4 => k.clone().prop_map(Op::Insert),
            2 => k.clone().prop_map(Op::Remove),
            1 => k.clone().prop_map(Op::Contains),
            1 => k.clone().prop_map(Op::LowerBound),
            1 => k.prop_map(Op::Rank),
            1 => (0usize..600).prop_map(Op::Select),
        ]
    }

    fn run<C: SortedCodec + KernelChoice>(codec: C, block_len: usize, ops: &[Op]) {
        let mut s = KeySet::with_block_len(codec, block_len);
        let mut m = BTreeSet::new();
        for o in ops {
            match *o {
                Op::Insert(k) => assert_eq!(s.insert(k), m.insert(k)),
                Op::Remove(k) => assert_eq!(s.remove(k), m.remove(&k)),
                Op::Contains(k) => assert_eq!(s.contains(k), m.contains(&k)),
                Op::LowerBound(k) => assert_eq!(s.lower_bound(k), m.range(k..).next().copied()),
                Op::Rank(k) => assert_eq!(s.rank(k), m.range(..k).count()),
                Op::Select(i) => assert_eq!(s.select(i), m.iter().nth(i).copied()),
            }
        }
        check_against(&s, &m);
        let back = KeySet::from_bytes(codec, &s.to_bytes()).unwrap();
        assert!(back == s);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn ops_match_btreeset(ops in proptest::collection::vec(op(), 0..600), bl in 1usize..20) {
            run(Bp128::new(Layout::Lanes4), bl, &ops);
            run(StreamVByte::new(), bl, &ops);
            run(For, bl, &ops);
            run(SimdFor::best(), bl, &ops);
            run(VByte::new(), bl, &ops);
        }

        #[test]
        fn from_sorted_round_trips(mut keys in proptest::collection::vec(any::<u32>(), 0..2000)) {
            keys.sort_unstable();
            keys.dedup();
            let s = KeySet::from_sorted(Bp128::new(Layout::Lanes4), &keys).unwrap();
            s.check_invariants();
            prop_assert_eq!(s.to_vec(), keys.clone());
            let v = KeySet::from_sorted(VByte::new(), &keys).unwrap();
            prop_assert_eq!(v.intersection(&s).to_vec(), keys);
        }
    }
}

#[test]
fn crc32c_check_value() {
    assert_eq!(super::serial::crc32c(b"123456789"), 0xE306_9283);
    assert_eq!(super::serial::crc32c(b""), 0);
}
