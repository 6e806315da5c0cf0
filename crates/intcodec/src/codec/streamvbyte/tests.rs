//! What the conformance harness cannot check generically: Stream VByte's
//! format read by an independent parser (every kernel must agree with it,
//! on valid, truncated, mutated and garbage streams).

use super::*;
use crate::tests::conformance::check_parser;
use crate::DecodeErrorKind;

/// A byte-at-a-time reading of the format (`bytes`: the byte length of
/// each 2-bit code): the first `n` values and the bytes they take, or the
/// error the format implies.
fn parse(bytes: [u8; 4], input: &[u8], n: usize) -> Result<(Vec<u32>, usize), DecodeError> {
    let cl = control_len(n);
    if input.len() < cl {
        let at = input.len();
        return Err(DecodeError::new(
            DecodeErrorKind::Truncated,
            at,
            Some(at * 4),
        ));
    }
    let mut pos = cl;
    let mut vals = Vec::with_capacity(n);
    for i in 0..n {
        let len = bytes[((input[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize;
        let v = input.get(pos..pos + len).ok_or(DecodeError::new(
            DecodeErrorKind::Truncated,
            pos,
            Some(i),
        ))?;
        vals.push(v.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32));
        pos += len;
    }
    Ok((vals, pos))
}

#[test]
fn every_kernel_agrees_with_an_independent_parser() {
    check_parser(&StreamVByte::new(), &|i, n| parse(BYTES_1234, i, n));
    let v0124 = StreamVByte::new().with_variant(Variant::V0124);
    check_parser(&v0124, &|i, n| parse(BYTES_0124, i, n));
}
