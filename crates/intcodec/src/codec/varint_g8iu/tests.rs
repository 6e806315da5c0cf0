//! What the conformance harness cannot check generically: G8IU's format
//! read by an independent parse of the paper's description (every kernel
//! must agree with it, on valid, truncated, mutated and garbage streams),
//! malformed descriptors and the worst-case size.

use super::*;
use crate::tests::conformance::check_parser;
use crate::traits::{IntCodec, KernelChoice};
use crate::DecodeErrorKind;
use alloc::vec;

/// A byte-at-a-time parse of the paper's description: the first `n` values,
/// or the error the format implies.
fn naive_decode(input: &[u8], n: usize) -> Result<(Vec<u32>, usize), DecodeError> {
    let mut vals = Vec::new();
    let mut pos = 0;
    while vals.len() < n {
        let err = |kind| DecodeError::new(kind, pos, Some(vals.len()));
        let block = input
            .get(pos..pos + 9)
            .ok_or(err(DecodeErrorKind::Truncated))?;
        let mut lens = Vec::new();
        let mut run = 0;
        for bit in 0..8 {
            run += 1;
            if block[0] >> bit & 1 == 0 {
                lens.push(run);
                run = 0;
            }
        }
        if lens.is_empty() || lens.iter().any(|&l| l > 4) {
            return Err(err(DecodeErrorKind::Malformed));
        }
        let mut at = 1;
        for len in lens {
            let v = block[at..at + len]
                .iter()
                .rev()
                .fold(0u32, |a, &b| a << 8 | b as u32);
            if vals.len() < n {
                vals.push(v);
            }
            at += len;
        }
        pos += 9;
    }
    Ok((vals, pos))
}

#[test]
fn every_kernel_agrees_with_an_independent_parser() {
    check_parser(&VarIntG8iu::new(), &naive_decode);
}

#[test]
fn worst_case_is_two_values_per_block() {
    for n in 0..40 {
        for v in [u32::MAX, 0x10000, 0x100] {
            let enc = VarIntG8iu::new().encode_to_vec(&vec![v; n]);
            assert!(enc.len() <= max_compressed_len(n));
        }
        assert_eq!(
            VarIntG8iu::new().compressed_len(&vec![u32::MAX; n]),
            max_compressed_len(n)
        );
    }
}

#[test]
fn malformed_descriptors_are_errors_everywhere() {
    // Blocks of eight one-byte values, then one bad descriptor.
    for bad in [0xFFu8, 0x1F, 0x3E, 0xF8, 0x0F] {
        let mut input = Vec::new();
        for _ in 0..5 {
            input.push(0);
            input.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        }
        input.push(bad);
        input.extend_from_slice(&[9; 8]);
        let want = naive_decode(&input, 60).unwrap_err();
        let expected = if bad == 0xF8 {
            // 0b1111_1000: three one-byte values, five unused bytes: valid;
            // the 44th value's block is missing.
            (DecodeErrorKind::Truncated, 54, Some(43))
        } else {
            (DecodeErrorKind::Malformed, 45, Some(40))
        };
        assert_eq!((want.kind(), want.offset(), want.index()), expected);
        for k in VarIntG8iu::new().all_kernels() {
            let mut out = vec![0u32; 60];
            assert_eq!(k.decode(&input, 60, &mut out), Err(want), "{k:?} {bad:#x}");
            assert_eq!(k.decode_delta(&input, 60, 1, &mut out), Err(want));
            assert_eq!(k.encoded_len(&input, 60), Err(want));
        }
        if bad != 0xF8 {
            let e = VarIntG8iu::new().value_count(&input).unwrap_err();
            assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Malformed, 45));
        }
    }
}
