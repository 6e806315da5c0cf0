//! Model-based tests of [`KeySet`] against `BTreeSet<u32>`, serialization
//! round trips and corruption.

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use super::{leaf, KeySet, LoadErrorKind};
use crate::bp128::{Bp128, Layout};
use crate::error::DecodeErrorKind;
use crate::frame_of_reference::{For, SimdFor};
use crate::streamvbyte::StreamVByte;
use crate::traits::{IntCodec, KernelChoice, SortedCodec};
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

/// About `n` keys in runs of 1..=12 consecutive keys, the runs `1..=gap`
/// apart (wikileaks-like: blocks in run form, or mixed with codec blocks).
fn runs_set(rng: &mut SplitMix64, n: usize, gap: u32) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let mut k = rng.below(1000) as u32;
    while out.len() < n {
        for _ in 0..1 + rng.below(12) {
            out.insert(k);
            k += 1;
        }
        k += 1 + rng.below(u64::from(gap)) as u32;
    }
    out
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
    let span = [64u32, 3000, 100_000, 100_000][rng.below(4) as usize];
    let n = rng.below(600) as usize;
    // Odd seeds start from runs of keys, so that blocks in run form are
    // edited, split, merged, copied and reloaded.
    let runs = seed % 2 == 1;
    let init = if runs {
        let gap = [4, 2000][rng.below(2) as usize];
        runs_set(&mut rng, n, gap)
    } else {
        random_set(&mut rng, n, span)
    };
    let mut set = KeySet::from_sorted_with(codec, block_len, init.iter().copied()).unwrap();
    let mut model = init;
    check_against(&set, &model);
    for step in 0..steps {
        let mut k = key(&mut rng, span);
        if runs && rng.below(2) == 0 {
            // Next to a key: extends or joins runs.
            k = model.range(k..).next().map_or(k, |&v| v.wrapping_add(1));
        }
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
                let other = if runs {
                    runs_set(&mut rng, n, 4)
                } else {
                    random_set(&mut rng, n, span)
                };
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

/// Checks that `set` (built from `keys`) has more than 90% of its blocks in
/// `form` and loads back from its bytes; returns its serialized bits per key.
fn check_form_share<C: SortedCodec + KernelChoice>(
    set: &KeySet<C>,
    keys: &[u32],
    form: leaf::Form,
) -> f64 {
    let c = set.codec();
    set.check_invariants();
    let forms: Vec<leaf::Form> = set
        .leaves
        .iter()
        .flat_map(|l| l.meta.iter().map(|m| m.form))
        .collect();
    let share = forms.iter().filter(|&&f| f == form).count();
    assert!(
        share * 10 > forms.len() * 9,
        "{}: {share} of {} in {form:?}",
        c.name(),
        forms.len()
    );
    let bytes = set.to_bytes();
    let back = KeySet::from_bytes(c, &bytes).unwrap();
    back.check_invariants();
    assert_eq!(back.to_vec(), keys);
    bytes.len() as f64 * 8.0 / keys.len() as f64
}

#[test]
fn run_form_where_shorter() {
    let mut rng = SplitMix64::new(21);
    let keys: Vec<u32> = runs_set(&mut rng, 20_000, 2000).into_iter().collect();
    for_each_codec!(c => {
        let set = KeySet::from_sorted(c, &keys).unwrap();
        // Runs of 6.5 keys, 1000 apart: about 3 bytes a run, where every
        // codec needs about 10 bits a key.
        let bits = check_form_share(&set, &keys, leaf::Form::Runs);
        assert!(bits < 5.0, "{}: {bits:.2} bits/key", c.name());
        for (i, &k) in keys.iter().enumerate().step_by(97) {
            assert!(set.contains(k));
            assert!(!set.contains(k.wrapping_sub(1)) || keys.binary_search(&(k - 1)).is_ok());
            assert_eq!(set.rank(k), i);
            assert_eq!(set.select(i), Some(k));
            assert_eq!(set.lower_bound(k + 1), keys.get(keys.partition_point(|&x| x <= k)).copied());
        }
    });
    // A block of scattered keys stays in the codec's form.
    let scattered: Vec<u32> = (0..1000).map(|i| i * 977).collect();
    let set = KeySet::from_sorted(StreamVByte::new(), &scattered).unwrap();
    assert!(set
        .leaves
        .iter()
        .all(|l| l.meta.iter().all(|m| m.form == leaf::Form::Codec)));
}

/// About `n` keys 1..=4 apart (a posting list of a frequent term: blocks
/// in bitmap form).
fn dense_set(rng: &mut SplitMix64, n: usize, start: u32) -> Vec<u32> {
    let mut k = start;
    (0..n)
        .map(|_| {
            k += 1 + rng.below(4) as u32;
            k
        })
        .collect()
}

#[test]
fn bitmap_form_where_shorter() {
    let mut rng = SplitMix64::new(22);
    let keys = dense_set(&mut rng, 20_000, 5);
    // The same density at another alignment, and a sparse set over it.
    let other = dense_set(&mut rng, 20_000, 37);
    let sparse: Vec<u32> = (0..3000).map(|i| 11 + i * 17).collect();
    for_each_codec!(c => {
        let set = KeySet::from_sorted(c, &keys).unwrap();
        // Gaps of 2.5 on average: 2.5 bits a key as a bitmap, where the
        // best codec (BP128, width 3) needs 3.
        let bits = check_form_share(&set, &keys, leaf::Form::Bitmap);
        assert!(bits < 2.8, "{}: {bits:.2} bits/key", c.name());
        for (i, &k) in keys.iter().enumerate().step_by(13) {
            assert!(set.contains(k));
            assert_eq!(set.contains(k + 1), keys.binary_search(&(k + 1)).is_ok());
            assert_eq!(set.rank(k), i);
            assert_eq!(set.select(i), Some(k));
            assert_eq!(set.lower_bound(k + 1), keys.get(i + 1).copied());
        }
        let model: BTreeSet<u32> = keys.iter().copied().collect();
        for o in [&other, &sparse] {
            let want: Vec<u32> = o.iter().copied().filter(|k| model.contains(k)).collect();
            let oset = KeySet::from_sorted(c, o).unwrap();
            assert_eq!(set.intersection(&oset).to_vec(), want);
            assert_eq!(oset.intersection(&set).to_vec(), want);
            assert_eq!(set.intersection_len(&oset), want.len());
            let osv = KeySet::from_sorted(StreamVByte::new(), o).unwrap();
            assert_eq!(set.intersection(&osv).to_vec(), want);
            assert_eq!(set.intersect_sorted(o), want);
        }
        // Edits keep the set right, whatever forms the edited blocks take.
        let mut edited = set.clone();
        let mut m = model.clone();
        for _ in 0..3000 {
            let k = 5 + rng.below(60_000) as u32;
            if rng.below(2) == 0 {
                assert_eq!(edited.insert(k), m.insert(k));
            } else {
                assert_eq!(edited.remove(k), m.remove(&k));
            }
        }
        check_against(&edited, &m);
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

/// `bytes` (a serialized set) with `edit` applied and the checksum
/// recomputed, loaded: the error's kind and offset.
fn load_edited(
    c: StreamVByte,
    bytes: &[u8],
    edit: &dyn Fn(&mut Vec<u8>),
) -> (LoadErrorKind, usize) {
    let mut b = bytes.to_vec();
    edit(&mut b);
    let n = b.len() - 4;
    let crc = crate::crc32c::crc32c(&b[..n]);
    b[n..].copy_from_slice(&crc.to_le_bytes());
    let e = KeySet::from_bytes(c, &b).unwrap_err();
    (e.kind, e.offset)
}

/// The bytes of a one-block set of Stream VByte: `header` (block length,
/// key count, block count, first key, form, stream length) and `stream`
/// under `magic`, with the checksum.
fn one_block_bytes(magic: &[u8; 4], header: &[u8], stream: &[u8]) -> Vec<u8> {
    let name = StreamVByte::new().name().as_bytes();
    let mut want = magic.to_vec();
    want.push(name.len() as u8);
    want.extend_from_slice(name);
    want.extend_from_slice(header);
    want.extend_from_slice(stream);
    let crc = crate::crc32c::crc32c(&want);
    want.extend_from_slice(&crc.to_le_bytes());
    want
}

#[test]
fn run_block_golden_bytes_and_errors() {
    // Keys 10..=30: the 20 after the first are one run continuing it, 2
    // bytes as runs (width 1, start 1) against 3 as a bitmap and 25 as
    // Stream VByte.
    let c = StreamVByte::new();
    let keys: Vec<u32> = (10..=30).collect();
    let set = KeySet::from_sorted(c, &keys).unwrap();
    let bytes = set.to_bytes();
    // block_len 256, 21 keys, 1 block; first key 10, form 4 * 20 + 1
    // (runs), 2 stream bytes, the run.
    let header = [0x80, 0x02, 21, 1, 10, 81, 2];
    let want = one_block_bytes(b"IKS4", &header, &[1, 1]);
    assert_eq!(bytes, want);
    let at = 4 + 1 + c.name().len() + 4;
    let load = |edit: &dyn Fn(&mut Vec<u8>)| load_edited(c, &bytes, edit);
    let malformed = LoadErrorKind::Block(DecodeErrorKind::Malformed);
    // The stream is at `at + 3 ..= at + 4`. A width of 5: its byte.
    assert_eq!(load(&|b| b[at + 3] = 5), (malformed, at + 3));
    // A run starting at the first key: the start.
    assert_eq!(load(&|b| b[at + 4] = 0), (malformed, at + 4));
    // A start of 2 is another valid block (keys 10, 12..=31): only the
    // checksum refuses it.
    let mut other = bytes.clone();
    other[at + 4] = 2;
    let e = KeySet::from_bytes(c, &other).unwrap_err();
    assert_eq!(
        (e.kind, e.offset),
        (LoadErrorKind::Checksum, bytes.len() - 4)
    );
    // Run form on a block of one key.
    assert_eq!(load(&|b| b[at + 1] = 1), (LoadErrorKind::Count, at + 1));
    // A form that does not exist (3).
    assert_eq!(load(&|b| b[at + 1] = 83), (LoadErrorKind::Form, at + 1));
    // The run's stream cut short (its length says 1 byte): no whole run.
    assert_eq!(
        load(&|b| {
            b[at + 2] = 1;
            b.remove(at + 4);
        }),
        (LoadErrorKind::Block(DecodeErrorKind::Truncated), at + 3)
    );
    // The same keys with runs as LEB128 pairs (gap 0, length - 1 = 19):
    // `IKS3`, and `IKS2` (before bitmaps, form 2 * more + runs), still
    // load, their run blocks re-encoded; a run longer than the block
    // there is an error at the run's first byte.
    for (magic, form) in [(b"IKS3", 81), (b"IKS2", 41)] {
        let mut header = header;
        header[5] = form;
        let old = one_block_bytes(magic, &header, &[0, 19]);
        let back = KeySet::from_bytes(c, &old).unwrap();
        back.check_invariants();
        assert_eq!(back.to_vec(), keys);
        assert_eq!(back.to_bytes(), bytes);
        let bad = one_block_bytes(magic, &header, &[0, 20]);
        let e = KeySet::from_bytes(c, &bad).unwrap_err();
        assert_eq!((e.kind, e.offset), (malformed, at + 3));
    }
}

#[test]
fn bitmap_block_golden_bytes_and_errors() {
    // Keys 11, 13, 18, 19, 27 after the first (10): bits 0, 2, 7, 8 and 16,
    // 3 bytes as a bitmap against 8 as runs and 7 as Stream VByte.
    let c = StreamVByte::new();
    let keys = [10, 11, 13, 18, 19, 27];
    let set = KeySet::from_sorted(c, &keys).unwrap();
    assert_eq!(set.leaves[0].meta[0].form, leaf::Form::Bitmap);
    assert_eq!(set.leaves[0].meta.len(), 1);
    let bytes = set.to_bytes();
    // block_len 256, 6 keys, 1 block; first key 10, form 4 * 5 + 2
    // (bitmap), 3 stream bytes, the bits.
    let want = one_block_bytes(
        b"IKS4",
        &[0x80, 0x02, 6, 1, 10, 22, 3],
        &[0b1000_0101, 0b0000_0001, 0b0000_0001],
    );
    assert_eq!(bytes, want);
    let back = KeySet::from_bytes(c, &bytes).unwrap();
    assert_eq!(back.to_vec(), keys);
    let at = 4 + 1 + c.name().len() + 4;
    let load = |edit: &dyn Fn(&mut Vec<u8>)| load_edited(c, &bytes, edit);
    // The stream is at `at + 3 ..= at + 5`. One bit more than the count
    // (key 12): the byte of the bit found past the count (the last key's).
    assert_eq!(
        load(&|b| b[at + 3] |= 0b10),
        (LoadErrorKind::Block(DecodeErrorKind::Malformed), at + 5)
    );
    // One bit fewer: the last byte.
    assert_eq!(
        load(&|b| b[at + 3] &= !0b100),
        (LoadErrorKind::Block(DecodeErrorKind::Malformed), at + 5)
    );
    // A last byte of 0 (the bit moved a byte down keeps the count).
    assert_eq!(
        load(&|b| {
            b[at + 5] = 0;
            b[at + 4] |= 0b10;
        }),
        (LoadErrorKind::Block(DecodeErrorKind::Malformed), at + 5)
    );
    // Bitmap form on a block of one key.
    assert_eq!(load(&|b| b[at + 1] = 2), (LoadErrorKind::Count, at + 1));
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

/// The common keys of two increasing slices, by a set lookup.
fn naive_common(a: &[u32], b: &[u32]) -> Vec<u32> {
    let bs: BTreeSet<u32> = b.iter().copied().collect();
    a.iter().copied().filter(|k| bs.contains(k)).collect()
}

/// A strictly increasing run of `n` keys from `start`, gaps in `1..=gap`.
fn run_from(rng: &mut SplitMix64, start: u32, n: usize, gap: u32) -> Vec<u32> {
    let mut v = Vec::with_capacity(n);
    let mut k = u64::from(start);
    for _ in 0..n {
        if k > u64::from(u32::MAX) {
            break;
        }
        v.push(k as u32);
        k += 1 + rng.below(u64::from(gap));
    }
    v
}

/// Every intersection kernel this CPU runs, the scalar one first.
fn kernels() -> Vec<super::intersect::Kernel> {
    use super::intersect::Kernel;
    let all = crate::isa::Isa::ALL
        .into_iter()
        .filter_map(Kernel::with_isa);
    let v: Vec<Kernel> = all.collect();
    assert_eq!(v[0], Kernel::SCALAR);
    v
}

/// Runs every kernel on `a`, `b` (both orders) with an output of exactly
/// the documented size, checked against the naive intersection.
fn check_kernels(a: &[u32], b: &[u32]) {
    use super::intersect::PAD;
    let want = naive_common(a, b);
    for k in kernels() {
        for (x, y) in [(a, b), (b, a)] {
            let mut out = alloc::vec![u32::MAX - 7; x.len().min(y.len()) + PAD];
            let n = k.run(x, y, &mut out);
            assert_eq!(
                &out[..n],
                &want[..],
                "{:?}: {} and {} keys",
                k.isa(),
                x.len(),
                y.len()
            );
        }
    }
}

#[test]
fn kernels_small_shapes() {
    let mut rng = SplitMix64::new(21);
    // Every pair of lengths up to 40 (the vector tails), at densities from
    // identical to disjoint.
    for la in 0..40 {
        for lb in 0..40 {
            for gap in [1u32, 2, 3, 8] {
                let a = run_from(&mut rng, 1000, la, gap);
                let start = 1000 + rng.below(8) as u32;
                let b = run_from(&mut rng, start, lb, gap);
                check_kernels(&a, &b);
            }
        }
    }
}

#[test]
fn kernels_edge_cases() {
    let mut rng = SplitMix64::new(22);
    let empty: [u32; 0] = [];
    let long = run_from(&mut rng, 0, 300, 3);
    check_kernels(&empty, &empty);
    check_kernels(&empty, &long);
    check_kernels(&long, &long);
    // Disjoint: interleaved, and one wholly below the other.
    let evens: Vec<u32> = (0..300).map(|i| 2 * i).collect();
    let odds: Vec<u32> = (0..300).map(|i| 2 * i + 1).collect();
    check_kernels(&evens, &odds);
    let high: Vec<u32> = (1000..1300).collect();
    check_kernels(&evens, &high);
    // One-element sets, present and absent, at every position.
    for &x in long.iter().take(40).chain(long.iter().rev().take(40)) {
        check_kernels(&[x], &long);
        check_kernels(&[x + 1], &long);
    }
    check_kernels(&[0], &[0]);
    check_kernels(&[u32::MAX], &[u32::MAX]);
    // Keys at the top of the range (signed compares would misorder them).
    let top: Vec<u32> = (0..100).map(|i| u32::MAX - 3 * i).rev().collect();
    let top2: Vec<u32> = (0..150).map(|i| u32::MAX - 2 * i).rev().collect();
    check_kernels(&top, &top2);
    let mixed: Vec<u32> = (0..64u32)
        .map(|i| i * 7)
        .chain((0..64).map(|i| 0x8000_0000 + i * 5))
        .collect();
    let mixed2: Vec<u32> = (0..64u32)
        .map(|i| i * 5)
        .chain((0..64).map(|i| 0x8000_0000 + i * 7))
        .collect();
    check_kernels(&mixed, &mixed2);
}

#[test]
fn kernels_random_skews() {
    let mut rng = SplitMix64::new(23);
    for _ in 0..3000 {
        let la = rng.below(260) as usize;
        let lb = match rng.below(3) {
            0 => rng.below(8) as usize,
            1 => rng.below(40) as usize,
            _ => rng.below(260) as usize,
        };
        let span = 1 + rng.below(4000) as u32;
        let mut a: Vec<u32> = (0..la).map(|_| rng.below(u64::from(span)) as u32).collect();
        let mut b: Vec<u32> = (0..lb).map(|_| rng.below(u64::from(span)) as u32).collect();
        a.sort_unstable();
        a.dedup();
        b.sort_unstable();
        b.dedup();
        check_kernels(&a, &b);
    }
}

/// The set operations on chosen shapes, for every codec: results, their
/// invariants and their bytes (an intersection is the set built from its
/// keys, byte for byte).
#[test]
fn intersection_shapes() {
    let mut rng = SplitMix64::new(24);
    let long = run_from(&mut rng, 5, 5000, 4);
    let half: Vec<u32> = long.iter().copied().step_by(2).collect();
    let shifted: Vec<u32> = long.iter().map(|&k| k + 1).collect();
    let sparse = run_from(&mut rng, 0, 300, 200);
    let top: Vec<u32> = (0..1000).map(|i| u32::MAX - 999 + i).collect();
    let shapes: Vec<(&str, Vec<u32>)> = alloc::vec![
        ("empty", Vec::new()),
        ("one", alloc::vec![long[77]]),
        ("one-absent", alloc::vec![long[77] + 1]),
        ("long", long.clone()),
        ("half", half),
        ("shifted", shifted),
        ("sparse", sparse),
        ("top", top),
        ("max", alloc::vec![u32::MAX]),
        // Blocks that are runs of consecutive keys (known undecoded).
        ("run", (100..3100).collect()),
        (
            "runs",
            (0..20u32)
                .flat_map(|i| 200 * i + 90..200 * i + 240)
                .collect()
        ),
        ("top-run", (u32::MAX - 300..=u32::MAX).collect()),
        // Around the size below which both sides use small buffers.
        ("small-64", long[..64].to_vec()),
        ("small-65", long[1..66].to_vec()),
        (
            "small-runs",
            (0..8u32).flat_map(|i| 20 * i + 95..20 * i + 102).collect()
        ),
        // Blocks in bitmap form, meeting in bitmap, run and codec blocks
        // (the result built from words of bits): two alignments, one
        // with runs in it, one with gaps too long for a bitmap, and one
        // that ends at u32::MAX.
        ("dense", dense_set(&mut rng, 6000, 3)),
        ("dense-b", dense_set(&mut rng, 6000, 40)),
        (
            "dense-runs",
            dense_set(&mut rng, 6000, 3)
                .into_iter()
                .filter(|k| k % 64 < 40)
                .collect()
        ),
        ("dense-gaps", {
            let mut k = 0u32;
            (0..6000)
                .map(|i| {
                    k += if i % 97 == 0 { 9000 } else { 1 };
                    k
                })
                .collect()
        }),
        ("dense-top", dense_set(&mut rng, 6000, u32::MAX - 6000 * 4)),
    ];
    for_each_codec!(codec => {
        for bl in [1usize, 7, default_len(&codec)] {
            for (na, a) in &shapes {
                let sa = KeySet::from_sorted_with(codec, bl, a.iter().copied()).unwrap();
                for (nb, b) in &shapes {
                    let sb = KeySet::from_sorted(Bp128::new(Layout::Lanes4), b).unwrap();
                    let want = naive_common(a, b);
                    let got = sa.intersection(&sb);
                    got.check_invariants();
                    assert_eq!(got.to_vec(), want, "{} {na} & {nb}", codec.name());
                    let built = KeySet::from_sorted_with(codec, bl, want.iter().copied()).unwrap();
                    assert_eq!(got.to_bytes(), built.to_bytes(), "{na} & {nb}");
                    assert_eq!(sa.intersection_len(&sb), want.len());
                    assert_eq!(sa.intersect_sorted(b), want);
                    let mut each = Vec::new();
                    sa.for_each_common(&sb, |k| each.push(k));
                    assert_eq!(each, want);
                    let mut each = Vec::new();
                    sa.for_each_common_sorted(b, |k| each.push(k));
                    assert_eq!(each, want);
                }
            }
        }
    });
}

fn default_len<C: SortedCodec + KernelChoice>(codec: &C) -> usize {
    super::default_block_len(codec.name())
}

/// `encode_block` writes the shortest of the three forms (ties: the
/// codec's over both, runs over the bitmap), whichever of them it skips
/// measuring, on blocks from scattered to dense, with runs or without.
#[test]
fn block_form_is_the_shortest() {
    use super::{bitmap, runs};
    let mut rng = SplitMix64::new(23);
    for_each_codec!(c => {
        for round in 0..300 {
            // Blocks of 2 to MAX_BLOCK_LEN + 1 keys.
            let n = 2 + rng.below(256) as usize;
            let gap = 1 + rng.below([2, 4, 9, 12, 40, 300, 1 << 20][round % 7]) as u32;
            let run = rng.below(4) == 0;
            let mut k = rng.below(1000) as u32;
            let keys: Vec<u32> = (0..n)
                .map(|i| {
                    k += if run && i % 5 != 0 { 1 } else { 1 + rng.below(u64::from(gap)) as u32 };
                    k
                })
                .collect();
            let prev = c.supports_delta().then_some(keys[0]);
            let codec_bytes = c.encode_opt_to_vec(&keys[1..], prev);
            let mut run_bytes = Vec::new();
            runs::encode(&keys, &mut run_bytes);
            let mut bitmap_bytes = Vec::new();
            bitmap::encode(&keys, &mut bitmap_bytes);
            let (cl, rl, bl) = (codec_bytes.len(), run_bytes.len(), bitmap_bytes.len());
            let (form, want) = if rl < cl && rl <= bl {
                (leaf::Form::Runs, run_bytes)
            } else if bl < cl {
                (leaf::Form::Bitmap, bitmap_bytes)
            } else {
                (leaf::Form::Codec, codec_bytes)
            };
            let mut out = vec![7u8; 3];
            let got = leaf::encode_block(&c, &keys, &mut out);
            assert_eq!((got, &out[..3]), (form, &[7u8; 3][..]), "{} n {n} gap {gap}", c.name());
            assert_eq!(out[3..], want[..], "{} n {n} gap {gap}", c.name());
            if let Some(len) = c.sorted_len(&keys[1..], prev) {
                assert_eq!(len, cl, "{}: sorted_len", c.name());
            }
            let (second, last) = (keys[1], keys[keys.len() - 1]);
            if let Some(len) = c.sorted_len_of_range(keys.len() - 1, second, last, prev) {
                assert_eq!(len, cl, "{}: sorted_len_of_range", c.name());
            }
        }
    });
}
