//! Scalar VarInt-GB: the reference every other kernel is tested against, and
//! the tail handler of the SIMD kernels.
//!
//! Decoding reads a control byte, then each value with one 4-byte load and a
//! mask when four bytes are there (byte by byte near the end); a control byte
//! of zero (four one-byte values, the common case of dense posting lists)
//! takes a fast path, as the paper suggests (§3). Every access is
//! bounds-checked by slice indexing.
#![forbid(unsafe_code)]

use super::{code_of, Format, Kernels};
use crate::codec::kernels::At;
use crate::error::{DecodeError, DecodeErrorKind};

pub(super) const fn kernels<F: Format>() -> Kernels {
    super::super::kernel_table!(
        crate::isa::Isa::Scalar, decode<F>, checked<>, encode<F>;
        layout: F::LAYOUT,
        select_delta: super::seek::scalar::select_delta::<F>,
        seek_delta: super::seek::scalar::seek_delta::<F>,
    )
}

pub(crate) fn truncated(pos: usize, index: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Truncated, pos, Some(index))
}

/// Reads a little-endian value of `code + 1` bytes at `pos`.
#[inline(always)]
pub(crate) fn read(input: &[u8], pos: usize, code: u8) -> Option<u32> {
    crate::codec::read_le(input, pos, code as usize + 1)
}

/// Reads a Lucene vint at `pos`: `Ok((value, next pos))`, `Err(Truncated)` at
/// `pos` if it runs past the input, `Err(Malformed)` at its fifth byte if
/// that byte has more than four bits.
#[inline]
pub(crate) fn read_vint(
    input: &[u8],
    pos: usize,
    index: usize,
) -> Result<(u32, usize), DecodeError> {
    let mut v = 0u32;
    for k in 0..5 {
        let Some(&b) = input.get(pos + k) else {
            return Err(truncated(pos, index));
        };
        if k == 4 {
            if b & 0xF0 != 0 {
                return Err(DecodeError::new(
                    DecodeErrorKind::Malformed,
                    pos + 4,
                    Some(index),
                ));
            }
            return Ok((v | (b as u32) << 28, pos + 5));
        }
        v |= ((b & 0x7F) as u32) << (7 * k);
        if b & 0x80 == 0 {
            return Ok((v, pos + k + 1));
        }
    }
    unreachable!("the fifth byte always returns")
}

/// Bytes of `v` as a Lucene vint.
#[inline]
fn vint_len(v: u32) -> usize {
    1 + (v >= 1 << 7) as usize
        + (v >= 1 << 14) as usize
        + (v >= 1 << 21) as usize
        + (v >= 1 << 28) as usize
}

/// Decodes `out.len()` values (deltas from `prev` if `DELTA`).
pub(crate) fn decode<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    decode_from::<F, DELTA>(input, out, At::start(0, prev))
}

/// Decodes values `from.i..out.len()` (`from.i` a multiple of 4) whose
/// first block begins at byte `from.pos`; `from.acc` is the value before
/// `from.i` (delta). Returns the offset just past the stream.
pub(crate) fn decode_from<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    from: At,
) -> Result<usize, DecodeError> {
    debug_assert_eq!(from.i % 4, 0);
    let At {
        i: start,
        mut pos,
        acc: mut prev,
    } = from;
    let mut emit = |slot: &mut u32, v: u32| {
        if DELTA {
            prev = prev.wrapping_add(v);
            *slot = prev;
        } else {
            *slot = v;
        }
    };
    let n = out.len();
    let (groups, tail) = out.as_chunks_mut::<4>();
    for (g, dst) in groups.iter_mut().enumerate().skip(start / 4) {
        let Some(&key) = input.get(pos) else {
            return Err(truncated(pos, 4 * g));
        };
        pos += 1;
        if key == 0 {
            if let Some(&[a, b, c, d]) = input.get(pos..pos + 4) {
                for (slot, v) in dst.iter_mut().zip([a, b, c, d]) {
                    emit(slot, v as u32);
                }
                pos += 4;
                continue;
            }
        }
        for (lane, slot) in dst.iter_mut().enumerate() {
            let code = F::code(key, lane);
            let v = read(input, pos, code).ok_or_else(|| truncated(pos, 4 * g + lane))?;
            emit(slot, v);
            pos += code as usize + 1;
        }
    }
    if tail.is_empty() {
        return Ok(pos);
    }
    let first = n - tail.len();
    if F::LUCENE {
        for (i, slot) in tail.iter_mut().enumerate() {
            let (v, next) = read_vint(input, pos, first + i)?;
            emit(slot, v);
            pos = next;
        }
    } else {
        let Some(&key) = input.get(pos) else {
            return Err(truncated(pos, first));
        };
        pos += 1;
        for (lane, slot) in tail.iter_mut().enumerate() {
            let code = F::code(key, lane);
            let v = read(input, pos, code).ok_or_else(|| truncated(pos, first + lane))?;
            emit(slot, v);
            pos += code as usize + 1;
        }
    }
    Ok(pos)
}

/// The length of the stream of `n` values at the start of `input`, from its
/// control bytes (and vints), with the errors `decode` would give.
pub(crate) fn scan<F: Format>(input: &[u8], n: usize) -> Result<usize, DecodeError> {
    let mut pos = 0;
    let groups = if F::LUCENE { n / 4 } else { n.div_ceil(4) };
    for g in 0..groups {
        let Some(&key) = input.get(pos) else {
            return Err(truncated(pos, 4 * g));
        };
        pos += 1;
        for lane in 0..(n - 4 * g).min(4) {
            let len = F::code(key, lane) as usize + 1;
            if input.len() - pos < len {
                return Err(truncated(pos, 4 * g + lane));
            }
            pos += len;
        }
    }
    if F::LUCENE {
        for i in 4 * groups..n {
            pos = read_vint(input, pos, i)?.1;
        }
    }
    Ok(pos)
}

/// Encodes `values` (deltas from `prev` if `DELTA`) into `out`, which holds
/// the encoded length. Returns the bytes written.
pub(crate) fn encode<F: Format, const DELTA: bool>(
    values: &[u32],
    mut prev: u32,
    out: &mut [u8],
) -> usize {
    let mut pos = 0;
    let mut next = |x: u32| {
        if DELTA {
            let d = x.wrapping_sub(prev);
            prev = x;
            d
        } else {
            x
        }
    };
    let (groups, tail) = values.as_chunks::<4>();
    fn put(out: &mut [u8], pos: &mut usize, v: u32, code: u8) {
        let len = code as usize + 1;
        if let Some(dst) = out.get_mut(*pos..*pos + 4) {
            // Store all four bytes; later bytes (or the caller) overwrite
            // the extra ones.
            dst.copy_from_slice(&v.to_le_bytes());
        } else {
            out[*pos..*pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
        }
        *pos += len;
    }
    // A group of up to four values: its control byte, then their bytes.
    let mut group = |out: &mut [u8], pos: &mut usize, lanes: &[u32]| {
        let key_pos = *pos;
        *pos += 1;
        let mut key = 0;
        for (lane, &x) in lanes.iter().enumerate() {
            let v = next(x);
            let code = code_of(v);
            key |= F::place(code, lane);
            put(out, pos, v, code);
        }
        out[key_pos] = key;
    };
    for g in groups {
        group(out, &mut pos, g);
    }
    if tail.is_empty() {
        return pos;
    }
    if F::LUCENE {
        for &x in tail {
            pos = crate::codec::vbyte::scalar::put_bytewise(next(x), out, pos);
        }
    } else {
        group(out, &mut pos, tail);
    }
    pos
}

/// Exact encoded length of `values` (delta-coded from `prev` if given).
pub(crate) fn compressed_len<F: Format>(values: &[u32], prev: Option<u32>) -> usize {
    let mut p = prev.unwrap_or(0);
    let mut d = |x: u32| match prev {
        None => x,
        Some(_) => {
            let d = x.wrapping_sub(p);
            p = x;
            d
        }
    };
    let n = values.len();
    let full = n - n % 4;
    let mut len = n / 4;
    for &x in &values[..full] {
        len += code_of(d(x)) as usize + 1;
    }
    if full < n {
        if F::LUCENE {
            for &x in &values[full..] {
                len += vint_len(d(x));
            }
        } else {
            len += 1;
            for &x in &values[full..] {
                len += code_of(d(x)) as usize + 1;
            }
        }
    }
    len
}
