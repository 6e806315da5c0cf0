//! intcodec's Stream VByte against lemire/streamvbyte (Debian's
//! libstreamvbyte), both directions, every kernel: random data and the real
//! posting lists in ../shared/data/postings.

use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::IntCodec;
use intcodec_oracles::harness::{
    check_ours_matches, check_plain_matches, every_kernel, posting_files, random_lists,
};
use intcodec_oracles::{require_libstreamvbyte, LibStreamVByte};
use intcodec_testkit::SplitMix64;

fn kernels(variant: Variant) -> Vec<StreamVByte> {
    every_kernel(StreamVByte::new().with_variant(variant))
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
        check_ours_matches(&k, values, prev, &theirs, &theirs_delta, &ctx);
        // bytes consumed agree
        let mut out = vec![0; n];
        assert_eq!(
            k.decode(&theirs, n, &mut out),
            Ok(c.decode(&theirs, n).1),
            "{ctx}"
        );
    }
    for k in kernels(Variant::V0124) {
        let ctx = format!("0124 {what} n={n} {k:?}");
        check_plain_matches(&k, values, &theirs_0124, &ctx);
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

#[test]
fn random_data_matches_libstreamvbyte() {
    let Some(c) = require_libstreamvbyte("random_data_matches_libstreamvbyte") else {
        return;
    };
    let mut rng = SplitMix64::new(0x1234_5678_9ABC_DEF1);
    for (what, list) in random_lists(0x1234_5678_9ABC_DEF1) {
        // Mixed widths delta-coded from a random `prev`, the rest from 0.
        let prev = if what == "mixed widths" {
            rng.next_u32()
        } else {
            0
        };
        check_both_ways(&c, &list, prev, what);
    }
}

#[test]
fn real_posting_lists_match_libstreamvbyte() {
    let test = "real_posting_lists_match_libstreamvbyte";
    let Some(c) = require_libstreamvbyte(test) else {
        return;
    };
    for file in posting_files(test, 1) {
        for list in file.lists.iter().chain([&file.long]) {
            check_both_ways(&c, list, 0, file.name);
        }
    }
}
