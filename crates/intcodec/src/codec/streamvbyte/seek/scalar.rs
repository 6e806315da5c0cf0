//! Scalar select / seek over a Stream VByte stream given as its two parts
//! (control bytes, data bytes; [`Parts`]): the reference the SIMD kernels are tested
//! against, and their tail handler. Every data access is bounds-checked; a
//! value whose bytes are missing is `Truncated` at its first byte
//! (`base` + its offset in `data`), as in `decode`.
#![forbid(unsafe_code)]

use super::Parts;
use crate::error::{DecodeError, DecodeErrorKind};

pub(crate) use crate::codec::kernels::At;

/// The value (stored word) at `at.i`, and its length.
#[inline(always)]
fn word(bytes: [u8; 4], p: Parts<'_>, i: usize, pos: usize) -> Result<(u32, usize), DecodeError> {
    let code = (p.ctrl[i / 4] >> (2 * (i % 4))) & 3;
    let len = bytes[code as usize] as usize;
    match crate::codec::read_le(p.data, pos, len) {
        Some(v) => Ok((v, len)),
        None => Err(DecodeError::new(
            DecodeErrorKind::Truncated,
            p.base + pos,
            Some(i),
        )),
    }
}

/// Plain select: value `i` (`i < n`, `ctrl` holds its control byte),
/// continuing from `at` (`at.i <= i`, `at.i` a multiple of 4 or the next
/// value of a group being read).
pub(crate) fn select_from(
    bytes: [u8; 4],
    p: Parts<'_>,
    i: usize,
    mut at: At,
) -> Result<u32, DecodeError> {
    // Skip: only the lengths matter.
    while at.i < i {
        let code = (p.ctrl[at.i / 4] >> (2 * (at.i % 4))) & 3;
        at.pos += bytes[code as usize] as usize;
        at.i += 1;
    }
    // Values before `i` whose bytes are missing are reported first, as in
    // `decode`: the first missing byte is at or before `at.pos` exactly when
    // some earlier value is cut short.
    if at.pos > p.data.len() {
        return first_truncated(bytes, p, i);
    }
    word(bytes, p, i, at.pos).map(|(v, _)| v)
}

#[cold]
fn first_truncated(bytes: [u8; 4], p: Parts<'_>, upto: usize) -> Result<u32, DecodeError> {
    let mut pos = 0;
    for k in 0..=upto {
        pos += word(bytes, p, k, pos)?.1;
    }
    unreachable!("a value before {upto} is truncated")
}

/// Delta select: value `i` (`i < n`), continuing from `at`.
pub(crate) fn select_delta_from(
    bytes: [u8; 4],
    p: Parts<'_>,
    i: usize,
    mut at: At,
) -> Result<u32, DecodeError> {
    while at.i <= i {
        let (v, len) = word(bytes, p, at.i, at.pos)?;
        at.acc = at.acc.wrapping_add(v);
        at.pos += len;
        at.i += 1;
    }
    Ok(at.acc)
}

/// Delta seek: the first index `>= at.i` (and `< n`) whose value is at least
/// `target`, with its value, continuing from `at`.
pub(crate) fn seek_delta_from(
    bytes: [u8; 4],
    p: Parts<'_>,
    n: usize,
    target: u32,
    mut at: At,
) -> Result<Option<(usize, u32)>, DecodeError> {
    while at.i < n {
        let (v, len) = word(bytes, p, at.i, at.pos)?;
        at.acc = at.acc.wrapping_add(v);
        if at.acc >= target {
            return Ok(Some((at.i, at.acc)));
        }
        at.pos += len;
        at.i += 1;
    }
    Ok(None)
}

/// Decodes values `at.i..at.i + out.len()` (delta from `at.acc` if `DELTA`),
/// returning the position after them.
pub(crate) fn decode_range<const DELTA: bool>(
    bytes: [u8; 4],
    p: Parts<'_>,
    out: &mut [u32],
    mut at: At,
) -> Result<At, DecodeError> {
    for slot in out {
        let (v, len) = word(bytes, p, at.i, at.pos)?;
        *slot = if DELTA {
            at.acc = at.acc.wrapping_add(v);
            at.acc
        } else {
            v
        };
        at.pos += len;
        at.i += 1;
    }
    Ok(at)
}

super::seek_kernels! {
    /// [`select_from`] from the start, with the kernel-set signature.
    select: |p, i| {
        select_from(F::BYTES, p, i, At::start(0, 0))
    }
    /// [`select_delta_from`] from the start, with the kernel-set signature.
    select_delta: |p, prev, i| {
        select_delta_from(F::BYTES, p, i, At::start(0, prev))
    }
    /// [`seek_delta_from`] from the start, with the kernel-set signature.
    seek_delta: |p, n, prev, target| {
        seek_delta_from(F::BYTES, p, n, target, At::start(0, prev))
    }
}
