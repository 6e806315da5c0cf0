//! Scalar select / seek over delta-coded u32 VByte: one value at a time with
//! the decoder's own reader (`scalar::one`), so bounds and errors are the
//! decoder's. The reference for the Masked VByte kernels and their tail.
#![forbid(unsafe_code)]

use super::super::scalar::one;
use crate::error::DecodeError;

/// Delta-decodes values `j..n` (value `j` at byte `pos`, `acc` the value
/// before it) and returns the first `(index, value, offset after it)` for
/// which `stop` holds, or `None` with the offset after value `n - 1`.
#[inline]
pub(crate) fn walk(
    input: &[u8],
    n: usize,
    mut j: usize,
    mut pos: usize,
    mut acc: u32,
    mut stop: impl FnMut(usize, u32) -> bool,
) -> Result<(Option<(usize, u32)>, usize), DecodeError> {
    while j < n {
        let (v, len) =
            one::<u32>(input, pos).map_err(|kind| DecodeError::new(kind, pos, Some(j)))?;
        pos += len;
        acc = acc.wrapping_add(v);
        if stop(j, acc) {
            return Ok((Some((j, acc)), pos));
        }
        j += 1;
    }
    Ok((None, pos))
}

/// Delta select of value `i`, continuing at value `j <= i` (byte `pos`,
/// running value `acc`).
pub(crate) fn select_delta_from(
    input: &[u8],
    i: usize,
    j: usize,
    pos: usize,
    acc: u32,
) -> Result<u32, DecodeError> {
    let (hit, _) = walk(input, i + 1, j, pos, acc, |k, _| k == i)?;
    Ok(hit.map_or(acc, |(_, v)| v))
}

/// Delta seek continuing at value `j`: the first value `>= target`.
pub(crate) fn seek_delta_from(
    input: &[u8],
    n: usize,
    target: u32,
    j: usize,
    pos: usize,
    acc: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    walk(input, n, j, pos, acc, |_, v| v >= target).map(|(hit, _)| hit)
}

/// Delta select of value `i < n` from the start, with the kernel-set
/// signature.
pub(crate) fn select_delta(
    input: &[u8],
    _n: usize,
    prev: u32,
    i: usize,
) -> Result<u32, DecodeError> {
    select_delta_from(input, i, 0, 0, prev)
}

/// Delta seek from the start, with the kernel-set signature.
pub(crate) fn seek_delta(
    input: &[u8],
    n: usize,
    prev: u32,
    target: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    seek_delta_from(input, n, target, 0, 0, prev)
}
