//! What the conformance harness (`check_sorted`) does not cover: every
//! step shape of the SIMD seek, malformed values, the values before a
//! truncation answered, and insert's one rewritten delta.

use super::super::*;
use crate::tests::seek::{check_truncated_prefixes, check_unsorted_lower_bound};
use crate::tests::Rng;
use crate::traits::{IntCodec, KernelChoice, SortedCodec};

/// Every prefix of every step shape: each step kind (12, 6, 4, 2 values)
/// followed by values of every length, so each lane of each kind is the
/// answer once.
#[test]
fn every_lane_of_every_step_kind() {
    let ks = VByte::new().all_kernels();
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
fn truncated_streams_answer_up_to_the_value_cut_short() {
    check_truncated_prefixes(VByte::new(), |e, _, _| e.index().unwrap());
}

#[test]
fn malformed_values_give_decode_errors() {
    let ks = VByte::new().all_kernels();
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

/// Only the neighbouring delta changes: the bytes after it are the same
/// bytes, moved.
#[test]
fn insert_rewrites_one_delta() {
    for k in VByte::new().all_kernels() {
        let mut b = k.encode_delta_to_vec(&[100u32, 300, 301, 5000], 0);
        let tail = b[b.len() - 3..].to_vec(); // deltas 1 and 4699
        assert_eq!(k.insert(&mut b, 4, 0, 200), Ok(1));
        assert_eq!(&b[..4], &[100, 100, 100, 1]);
        assert_eq!(b[b.len() - 3..], tail[..]);
        // Even when the insertion point comes early, the whole count is
        // checked, like decode.
        let bytes = b.clone();
        assert!(k.insert(&mut b, usize::MAX, 0, 7).is_err());
        assert_eq!(b, bytes);
    }
}

/// On unsorted values, `lower_bound` is the first index whose value is
/// `>= key`.
#[test]
fn lower_bound_on_unsorted_values_is_a_linear_scan() {
    check_unsorted_lower_bound(VByte::new());
}
