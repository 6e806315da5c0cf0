//! intcodec's Stream VByte against lemire/streamvbyte (Debian's
//! libstreamvbyte), both directions, every kernel: random data and the real
//! posting lists in ../shared/data/postings.

use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::Isa;
use intcodec::{IntCodec, KernelChoice};
use intcodec_oracles::{require_libstreamvbyte, shared_data, LibStreamVByte};

fn kernels(variant: Variant) -> Vec<StreamVByte> {
    let ks: Vec<_> = Isa::ALL
        .into_iter()
        .filter_map(|isa| StreamVByte::new().with_variant(variant).with_isa(isa))
        .collect();
    assert!(!ks.is_empty());
    ks
}

/// Checks one list both ways for the three formats lemire's library has:
/// "1234", "0124" and "1234" delta-coded from `prev`.
fn check_both_ways(c: &LibStreamVByte, values: &[u32], prev: u32, what: &str) {
    let n = values.len();
    let theirs = c.encode(values);
    let theirs_0124 = c.encode_0124(values);
    let theirs_delta = c.delta_encode(values, prev);
    for k in kernels(Variant::V1234) {
        let ctx = format!("{what} n={n} {k:?}");
        // ours encode == theirs encode
        assert_eq!(k.encode_to_vec(values), theirs, "encode {ctx}");
        assert_eq!(
            k.encode_delta_to_vec(values, prev),
            theirs_delta,
            "delta encode {ctx}"
        );
        // theirs encode -> ours decode
        assert_eq!(
            k.decode_to_vec(&theirs, n).as_deref(),
            Ok(values),
            "decode {ctx}"
        );
        assert_eq!(
            k.decode_delta_to_vec(&theirs_delta, n, prev).as_deref(),
            Ok(values),
            "delta decode {ctx}"
        );
        // bytes consumed agree
        let mut out = vec![0; n];
        assert_eq!(
            k.decode(&theirs, n, &mut out),
            Ok(c.decode(&theirs, n).1),
            "{ctx}"
        );
    }
    for k in kernels(Variant::V0124) {
        let ctx = format!("{what} n={n} {k:?}");
        assert_eq!(k.encode_to_vec(values), theirs_0124, "encode 0124 {ctx}");
        assert_eq!(
            k.decode_to_vec(&theirs_0124, n).as_deref(),
            Ok(values),
            "decode 0124 {ctx}"
        );
    }
    // ours encode -> theirs decode (bytes from the default kernel)
    let ours = StreamVByte::new();
    let (vals, used) = c.decode(&ours.encode_to_vec(values), n);
    assert_eq!(
        (&vals[..], used),
        (values, theirs.len()),
        "C decode of ours: {what}"
    );
    let ours_0124 = ours.with_variant(Variant::V0124).encode_to_vec(values);
    assert_eq!(
        c.decode_0124(&ours_0124, n).0,
        values,
        "C decode 0124 of ours: {what}"
    );
    let ours_delta = ours.encode_delta_to_vec(values, prev);
    assert_eq!(
        c.delta_decode(&ours_delta, n, prev).0,
        values,
        "C delta decode of ours: {what}"
    );
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

#[test]
fn random_data_matches_libstreamvbyte() {
    let Some(c) = require_libstreamvbyte("random_data_matches_libstreamvbyte") else {
        return;
    };
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut lengths: Vec<usize> = (0..=70).collect();
    lengths.extend([
        127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 4097, 100_000,
    ]);
    for &n in &lengths {
        // Values of random byte widths (zeros included), then sorted lists.
        let mixed: Vec<u32> = (0..n)
            .map(|_| rng.next() >> (8 * (rng.next() % 4)) >> (rng.next() % 8))
            .collect();
        check_both_ways(&c, &mixed, rng.next(), "mixed widths");
        let full: Vec<u32> = (0..n).map(|_| rng.next()).collect();
        check_both_ways(&c, &full, 0, "full range");
        let mut acc = 0u32;
        let sorted: Vec<u32> = (0..n)
            .map(|_| {
                acc = acc.wrapping_add(rng.next() >> (8 + rng.next() % 24));
                acc
            })
            .collect();
        check_both_ways(&c, &sorted, 0, "sorted");
    }
}

#[test]
fn real_posting_lists_match_libstreamvbyte() {
    let test = "real_posting_lists_match_libstreamvbyte";
    let Some(c) = require_libstreamvbyte(test) else {
        return;
    };
    let Some(dir) = shared_data(test) else {
        return;
    };
    let mut files = 0;
    for name in intcodec_testkit::shared::POSTINGS {
        let path = dir.join("postings").join(name);
        if !path.exists() {
            eprintln!("*** {test}: {} missing, skipped ***", path.display());
            continue;
        }
        let coll = intcodec_testkit::ds2i::read(&path).expect("valid .docs file");
        assert!(!coll.lists.is_empty(), "{name} has lists");
        for list in &coll.lists {
            check_both_ways(&c, list, 0, name);
        }
        // All lists concatenated as one long stream, too.
        let all: Vec<u32> = coll.lists.iter().flatten().copied().collect();
        check_both_ways(&c, &all, 0, name);
        files += 1;
    }
    assert!(files > 0, "no posting-list file found in {}", dir.display());
}
