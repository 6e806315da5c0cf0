//! Scalar select / seek over a delta-coded VarInt-GB stream: the reference
//! for the SIMD kernels and their tail handler. It reads values exactly as
//! `scalar::decode_from` does (same bounds checks, same errors), stopping at
//! the first value a predicate accepts.
#![forbid(unsafe_code)]

use super::super::scalar::{read, read_vint, truncated};
use super::super::Format;
use crate::error::DecodeError;

// Where a walk starts: `i` is a multiple of 4 (the start of a block).
pub(crate) use crate::codec::kernels::At;

/// Delta-decodes values `at.i..n` in order and returns the first `(index,
/// value)` for which `stop` is true (or `None`), with the byte offset just
/// past the last value read.
pub(crate) fn walk<F: Format>(
    input: &[u8],
    n: usize,
    at: At,
    mut stop: impl FnMut(usize, u32) -> bool,
) -> Result<(Option<(usize, u32)>, usize), DecodeError> {
    debug_assert_eq!(at.i % 4, 0);
    let (mut acc, mut pos) = (at.acc, at.pos);
    let full = n / 4;
    for g in at.i / 4..full {
        let Some(&key) = input.get(pos) else {
            return Err(truncated(pos, 4 * g));
        };
        pos += 1;
        for lane in 0..4 {
            let code = F::code(key, lane);
            let v = read(input, pos, code).ok_or_else(|| truncated(pos, 4 * g + lane))?;
            pos += code as usize + 1;
            acc = acc.wrapping_add(v);
            if stop(4 * g + lane, acc) {
                return Ok((Some((4 * g + lane, acc)), pos));
            }
        }
    }
    let first = 4 * full.max(at.i / 4);
    if first >= n {
        return Ok((None, pos));
    }
    if F::LUCENE {
        for i in first..n {
            let (v, next) = read_vint(input, pos, i)?;
            pos = next;
            acc = acc.wrapping_add(v);
            if stop(i, acc) {
                return Ok((Some((i, acc)), pos));
            }
        }
    } else {
        let Some(&key) = input.get(pos) else {
            return Err(truncated(pos, first));
        };
        pos += 1;
        for lane in 0..n - first {
            let code = F::code(key, lane);
            let v = read(input, pos, code).ok_or_else(|| truncated(pos, first + lane))?;
            pos += code as usize + 1;
            acc = acc.wrapping_add(v);
            if stop(first + lane, acc) {
                return Ok((Some((first + lane, acc)), pos));
            }
        }
    }
    Ok((None, pos))
}

/// Delta select of value `i < n`, from `at`.
pub(crate) fn select_delta_from<F: Format>(
    input: &[u8],
    n: usize,
    i: usize,
    at: At,
) -> Result<u32, DecodeError> {
    let (hit, _) = walk::<F>(input, n, at, |j, _| j == i)?;
    // `i < n`: the walk reaches it unless an error came first.
    Ok(hit.map_or(0, |(_, v)| v))
}

/// Delta seek from `at`: the first value `>= target`.
pub(crate) fn seek_delta_from<F: Format>(
    input: &[u8],
    n: usize,
    target: u32,
    at: At,
) -> Result<Option<(usize, u32)>, DecodeError> {
    walk::<F>(input, n, at, |_, v| v >= target).map(|(hit, _)| hit)
}

super::seek_kernels! {
    /// [`select_delta_from`] from the start, with the kernel-set signature.
    select_delta: |input, n, prev, i| {
        select_delta_from::<F>(input, n, i, At::start(0, prev))
    }
    /// [`seek_delta_from`] from the start, with the kernel-set signature.
    seek_delta: |input, n, prev, target| {
        seek_delta_from::<F>(input, n, target, At::start(0, prev))
    }
}
