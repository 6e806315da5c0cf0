//! Scalar VarInt-G8IU: the reference every other kernel is tested against,
//! and the tail handler of the SIMD kernels. Every access is bounds-checked
//! by slice indexing.
#![forbid(unsafe_code)]

use super::{bytes_of, Kernels, BLOCK};
use crate::codec::kernels::At;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::tables::varint_g8iu::TABLES;

pub(super) const fn kernels() -> Kernels {
    super::super::kernel_table!(
        crate::isa::Isa::Scalar, decode<>, checked<>, encode<>;
    )
}

/// The error for the block at `pos`, whose first value is `index`, if it is
/// cut short or its descriptor is malformed.
#[inline]
pub(crate) fn block_at(
    input: &[u8],
    pos: usize,
    index: usize,
) -> Result<&[u8; BLOCK], DecodeError> {
    let Some(block) = input.get(pos..pos + BLOCK) else {
        return Err(DecodeError::new(
            DecodeErrorKind::Truncated,
            pos,
            Some(index),
        ));
    };
    let block: &[u8; BLOCK] = block.try_into().expect("BLOCK bytes");
    if !TABLES.valid[block[0] as usize] {
        return Err(DecodeError::new(
            DecodeErrorKind::Malformed,
            pos,
            Some(index),
        ));
    }
    Ok(block)
}

/// Decodes `out.len()` values (deltas from `prev` if `DELTA`).
pub(crate) fn decode<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    decode_from::<DELTA>(input, out, At::start(0, prev))
}

/// Decodes values `from.i..out.len()` from the blocks starting at byte
/// `from.pos`; `from.acc` is the value before `from.i` (delta). Returns the
/// offset just past the last block used.
pub(crate) fn decode_from<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    from: At,
) -> Result<usize, DecodeError> {
    let n = out.len();
    let At {
        mut i,
        mut pos,
        acc: mut prev,
    } = from;
    while i < n {
        let block = block_at(input, pos, i)?;
        let desc = block[0];
        // Values to take from this block; past them are only unused bytes.
        let take = (TABLES.count[desc as usize] as usize).min(n - i);
        let end = i + take;
        let mut v = 0u32;
        let mut shift = 0;
        for (bit, &b) in block[1..].iter().enumerate() {
            // A valid descriptor keeps `shift` at most 24 within a value.
            v |= (b as u32) << shift;
            if desc & (1 << bit) != 0 {
                shift += 8;
                continue;
            }
            if DELTA {
                prev = prev.wrapping_add(v);
                v = prev;
            }
            out[i] = v;
            i += 1;
            if i == end {
                break;
            }
            v = 0;
            shift = 0;
        }
        pos += BLOCK;
    }
    Ok(pos)
}

/// The length of the stream of `n` values at the start of `input`, with the
/// errors `decode` would give.
pub(crate) fn scan(input: &[u8], n: usize) -> Result<usize, DecodeError> {
    let (mut i, mut pos) = (0, 0);
    while i < n {
        let block = block_at(input, pos, i)?;
        i += TABLES.count[block[0] as usize] as usize;
        pos += BLOCK;
    }
    Ok(pos)
}

/// Values in a stream of whole blocks.
pub(crate) fn value_count(input: &[u8]) -> Result<usize, DecodeError> {
    let mut count = 0;
    let mut pos = 0;
    while pos < input.len() {
        let block = block_at(input, pos, count)?;
        count += TABLES.count[block[0] as usize] as usize;
        pos += BLOCK;
    }
    Ok(count)
}

/// Encodes `values` (deltas from `prev` if `DELTA`) into `out`, which holds
/// the encoded length. Returns the bytes written.
pub(crate) fn encode<const DELTA: bool>(values: &[u32], mut prev: u32, out: &mut [u8]) -> usize {
    let mut pos = 0;
    let mut i = 0;
    while i < values.len() {
        // The block's data bytes, built in a register: a value of `len`
        // bytes has no bits above them, so it can be or-ed in whole.
        let mut data = 0u64;
        let mut desc = 0xFFu8;
        let mut used = 0;
        while let Some(&x) = values.get(i) {
            let v = if DELTA { x.wrapping_sub(prev) } else { x };
            let len = bytes_of(v);
            if used + len > 8 {
                break;
            }
            data |= (v as u64) << (8 * used);
            used += len;
            desc &= !(1 << (used - 1));
            prev = x;
            i += 1;
        }
        out[pos] = desc;
        out[pos + 1..pos + BLOCK].copy_from_slice(&data.to_le_bytes());
        pos += BLOCK;
    }
    pos
}

/// Exact encoded length of `values` (delta-coded from `prev` if given).
pub(crate) fn compressed_len(values: &[u32], prev: Option<u32>) -> usize {
    let mut p = prev.unwrap_or(0);
    let mut blocks = 0;
    let mut used = 8; // bytes used in the current block; 8 = start a new one
    for &x in values {
        let v = match prev {
            None => x,
            Some(_) => x.wrapping_sub(p),
        };
        p = x;
        let len = bytes_of(v);
        if used + len > 8 {
            blocks += 1;
            used = 0;
        }
        used += len;
    }
    blocks * BLOCK
}
