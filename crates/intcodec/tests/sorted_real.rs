//! Select / seek / insert / append / Blocked on real sorted lists
//! (`../shared/data`: posting lists of ClueWeb09 and Europarl, and the
//! Roaring census sets are zips, not read here), every codec and every
//! kernel, against the list itself and binary search. Skips loudly when the
//! data is absent (fails under `INTCODEC_REQUIRE_ORACLES=1`). Under an
//! `INTCODEC_ISA` cap, every 8th list (CI runs the suite once per cap).

use intcodec::bp128::{Bp128, DeltaMode, Layout as Bp128Layout};
use intcodec::sorted::{Blocked, SvbVec};
use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::vbyte::VByte;
use intcodec::{IntCodec, KernelChoice, SortedCodec, SortedSet};
use std::path::PathBuf;

fn data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("INTCODEC_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data"))
        });
    if dir.join("postings").is_dir() {
        return Some(dir);
    }
    if std::env::var("INTCODEC_REQUIRE_ORACLES").as_deref() == Ok("1") {
        panic!(
            "sorted_real: shared data required but not found at {}",
            dir.display()
        );
    }
    eprintln!(
        "\n*** SKIPPED sorted_real: shared data not found at {} (set INTCODEC_SHARED_DATA) ***\n",
        dir.display()
    );
    None
}

/// The lists of a ds2i `.docs` file (the first, `[universe]`, skipped).
fn lists(path: &std::path::Path) -> Vec<Vec<u32>> {
    let bytes = std::fs::read(path).unwrap();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < words.len() {
        let n = words[at] as usize;
        out.push(words[at + 1..at + 1 + n].to_vec());
        at += 1 + n;
    }
    out.remove(0);
    out
}

/// Lists worth the time: every list of 8+ values in the smaller files, a
/// sample of the larger, fewer under an `INTCODEC_ISA` cap.
fn sample(dir: &std::path::Path) -> Vec<Vec<u32>> {
    let step = if std::env::var_os("INTCODEC_ISA").is_some() {
        eprintln!("*** sorted_real: INTCODEC_ISA set: every 8th list ***");
        8
    } else {
        1
    };
    let mut all = Vec::new();
    for (file, keep) in [
        ("clueweb1k.docs", 1),
        ("europarl.docs", 4),
        ("europarl.pos", 16),
    ] {
        let ls = lists(&dir.join("postings").join(file));
        all.extend(ls.into_iter().filter(|l| l.len() >= 8).step_by(keep * step));
    }
    assert!(all.len() > 100);
    all
}

/// A probe set: indexes and targets spread over the list.
fn probes(list: &[u32]) -> (Vec<usize>, Vec<u32>) {
    let step = (list.len() / 24).max(1);
    let idx: Vec<usize> = (0..list.len())
        .step_by(step)
        .chain([list.len() - 1, list.len()])
        .collect();
    (idx, intcodec_testkit::probe_keys(list, step))
}

fn lower_bound(list: &[u32], t: u32) -> Option<(usize, u32)> {
    let p = list.partition_point(|&v| v < t);
    list.get(p).map(|&v| (p, v))
}

/// Every kernel of `codec` on every list: `select` at the probe indexes
/// and `lower_bound` at the probe targets, against the list.
fn check_kernels<C: SortedCodec + KernelChoice>(codec: C, lists: &[Vec<u32>]) {
    for c in codec.all_kernels() {
        for list in lists {
            let n = list.len();
            let (idx, targets) = probes(list);
            let b = c.encode_delta_to_vec(list, 0);
            for &i in &idx {
                let got = c.select(&b, n, 0, i).unwrap();
                assert_eq!(got, list.get(i).copied(), "{c:?}");
            }
            for &t in &targets {
                let got = c.lower_bound(&b, n, 0, t).unwrap();
                assert_eq!(got, lower_bound(list, t), "{c:?}");
            }
        }
    }
}

#[test]
fn select_seek_on_real_lists_every_codec_and_kernel() {
    let Some(dir) = data_dir() else { return };
    let lists = sample(&dir);
    assert!(!lists.is_empty());
    for v in [Variant::V1234, Variant::V0124] {
        check_kernels(StreamVByte::new().with_variant(v), &lists);
    }
    for l in [Layout::LowFirst, Layout::Lucene] {
        check_kernels(VarIntGb::new().with_layout(l), &lists);
    }
    check_kernels(VByte::new(), &lists);
}

/// `Blocked` over `codec` answers `select` at `idx` and `lower_bound` at
/// `targets` as the list does.
fn blocked_agrees<C: SortedCodec + KernelChoice>(
    codec: C,
    list: &[u32],
    block_len: usize,
    idx: &[usize],
    targets: &[u32],
    name: &str,
) {
    let b = Blocked::from_sorted(codec, list, block_len).unwrap();
    for &i in idx {
        assert_eq!(b.select(i), list.get(i).copied(), "{name} {codec:?} {i}");
    }
    for &t in targets {
        assert_eq!(
            b.lower_bound(t),
            lower_bound(list, t),
            "{name} {codec:?} {t}"
        );
    }
}

#[test]
fn blocked_append_insert_on_real_lists() {
    let Some(dir) = data_dir() else { return };
    let lists = sample(&dir);
    // One long list: every list of europarl.pos concatenated and sorted.
    let mut long: Vec<u32> = lists.iter().flatten().copied().collect();
    long.sort_unstable();
    for (name, list) in [("long", &long)]
        .into_iter()
        .chain(lists.iter().take(50).map(|l| ("list", l)))
    {
        let (idx, targets) = probes(list);
        // The byte codecs (Stream VByte 256, VByte 128, VarInt-GB 128) join
        // once they implement `SortedCodec`.
        blocked_agrees(
            Bp128::new(Bp128Layout::Lanes4),
            list,
            128,
            &idx,
            &targets,
            name,
        );
        let d4 = Bp128::new(Bp128Layout::Lanes4).with_delta(DeltaMode::Lane);
        blocked_agrees(d4, list, 256, &idx, &targets, name);
    }
    // Append: every list pushed, then compared with the encoder.
    let codec = StreamVByte::new();
    let mut v = SvbVec::new_delta(codec, 0);
    let mut all = Vec::new();
    for list in lists.iter().take(300) {
        let base = all.last().copied().unwrap_or(0);
        let shifted: Vec<u32> = list.iter().map(|&x| base + x).collect();
        v.extend(shifted.iter().copied());
        all.extend(shifted);
    }
    assert_eq!(v.as_bytes(), &codec.encode_delta_to_vec(&all, 0)[..]);
    // Insert: half of a list into the other half, every codec.
    let list = lists.iter().find(|l| l.len() > 200).unwrap();
    let (keep, add): (Vec<u32>, Vec<u32>) =
        list.iter()
            .enumerate()
            .fold((vec![], vec![]), |(mut k, mut a), (i, &x)| {
                if i % 2 == 0 {
                    k.push(x)
                } else {
                    a.push(x)
                }
                (k, a)
            });
    let vb = VByte::new();
    let gb = VarIntGb::new();
    let mut b1 = codec.encode_delta_to_vec(&keep, 0);
    let mut b2 = vb.encode_delta_to_vec(&keep, 0);
    let mut b3 = gb.encode_delta_to_vec(&keep, 0);
    let mut n = keep.len();
    for &x in add.iter().rev() {
        codec.insert(&mut b1, n, 0, x).unwrap();
        vb.insert(&mut b2, n, 0, x).unwrap();
        gb.insert(&mut b3, n, 0, x).unwrap();
        n += 1;
    }
    assert_eq!(codec.decode_delta_to_vec(&b1, n, 0).unwrap(), *list);
    assert_eq!(vb.decode_delta_to_vec(&b2, n, 0).unwrap(), *list);
    assert_eq!(gb.decode_delta_to_vec(&b3, n, 0).unwrap(), *list);
}
