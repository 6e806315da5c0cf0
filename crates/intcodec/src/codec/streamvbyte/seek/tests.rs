//! What the conformance harness (`check_sorted`) does not cover: select on
//! plain (not delta-coded) streams, intact and truncated; the values before
//! a truncation answered; and a regression.

use super::super::*;
use crate::tests::corpus;
use crate::tests::seek::{
    check_truncated_prefixes, check_unsorted_lower_bound, expect_select, indexes,
};
use crate::traits::{IntCodec, KernelChoice, SortedCodec};

/// `select_plain` on every kernel: the value at the index; on a truncated
/// stream, the values whose bytes are there and the decoding error for the
/// rest (every call fails while control bytes are missing).
#[test]
fn select_plain_matches_the_values_intact_and_truncated() {
    for variant in [Variant::V1234, Variant::V0124] {
        let ks = StreamVByte::new().with_variant(variant).all_kernels();
        for n in [0usize, 1, 3, 4, 5, 17, 40, 67, 130, 1000] {
            for (name, vals) in corpus(n, 5) {
                let plain = ks[0].encode_to_vec(&vals);
                let step = if n > 100 { 37 } else { 1 };
                for cut in (0..=plain.len()).step_by(step) {
                    let p = &plain[..cut];
                    let want = |i| match ks[0].decode_to_vec(p, n) {
                        Ok(_) => Ok(vals.get(i).copied()),
                        Err(e) if cut < control_len(n) => expect_select(&vals, e, 0, i),
                        Err(e) => expect_select(&vals, e, e.index().unwrap(), i),
                    };
                    for k in &ks {
                        for i in indexes(n) {
                            assert_eq!(
                                k.select_plain(p, n, i),
                                want(i),
                                "{:?} {variant} {name} n={n} cut={cut} i={i}",
                                k.isa()
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Missing control bytes fail every call; missing data fails from the
/// first value cut short.
#[test]
fn truncated_delta_streams_give_decode_errors() {
    for variant in [Variant::V1234, Variant::V0124] {
        let c = StreamVByte::new().with_variant(variant);
        check_truncated_prefixes(c, |e, n, cut| {
            if cut < control_len(n) {
                0
            } else {
                e.index().unwrap()
            }
        });
    }
}

/// Found by `sorted_seek`: a zero block (sixteen one-byte deltas) whose sum
/// wraps past 2^32 in an unsorted stream must not be skipped as "all below
/// the target" because its last value is.
#[test]
fn seek_does_not_skip_a_zero_block_that_wraps() {
    let vals: Vec<u32> = (0..40u32).map(|i| 0xFFFF_FFF0u32.wrapping_add(i)).collect();
    for k in StreamVByte::new().all_kernels() {
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

/// On unsorted values, `lower_bound` is the first index whose value is
/// `>= key`.
#[test]
fn lower_bound_on_unsorted_values_is_a_linear_scan() {
    for variant in [Variant::V1234, Variant::V0124] {
        check_unsorted_lower_bound(StreamVByte::new().with_variant(variant));
    }
}
