//! Scalar Stream VByte: the obviously-correct reference every other kernel is
//! tested against, and the tail handler of the SIMD kernels.
//!
//! Reads only inside `input`; every data access is bounds-checked by the
//! slice indexing, and a missing byte is reported as `Truncated` at the offset
//! of the first byte of the value that does not fit.
#![forbid(unsafe_code)]

use super::{control_len, Format, Kernels};
use crate::error::{DecodeError, DecodeErrorKind};

pub(super) const fn kernels<F: Format>() -> Kernels {
    Kernels {
        isa: crate::isa::Isa::Scalar,
        variant: F::VARIANT,
        decode: decode::<F, false>,
        decode_delta: decode::<F, true>,
        decode_unchecked: decode_trusted::<F, false>,
        decode_delta_unchecked: decode_trusted::<F, true>,
        encode: encode::<F, false>,
        encode_delta: encode::<F, true>,
        select: super::seek::scalar::select::<F>,
        select_delta: super::seek::scalar::select_delta::<F>,
        seek_delta: super::seek::scalar::seek_delta::<F>,
    }
}

/// Decodes `out.len()` values (deltas from `prev` if `DELTA`).
pub(crate) fn decode<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    let start = control_len(out.len());
    decode_from::<F, DELTA>(input, out, 0, start, prev)
}

fn decode_trusted<F: Format, const DELTA: bool>(input: &[u8], out: &mut [u32], prev: u32) -> usize {
    decode::<F, DELTA>(input, out, prev).unwrap_or(0)
}

/// Decodes values `start..out.len()`, whose data begins at absolute byte
/// offset `pos` of `input`; `prev` is the value before `start` (delta only).
/// `start` must be a multiple of 4 or the index of the next value of a group
/// already partly decoded. Returns the offset just past the last data byte.
pub(crate) fn decode_from<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    start: usize,
    mut pos: usize,
    mut prev: u32,
) -> Result<usize, DecodeError> {
    let ctrl = &input[..control_len(out.len())];
    for (i, slot) in out.iter_mut().enumerate().skip(start) {
        let code = (ctrl[i / 4] >> (2 * (i % 4))) & 3;
        let len = F::BYTES[code as usize] as usize;
        let mut v = if let Some(&[a, b, c, d]) = input.get(pos..pos + 4) {
            // Fast path: four bytes are there; keep the low `len` of them.
            let mask = (((1u64 << (8 * len)) - 1) & 0xFFFF_FFFF) as u32;
            u32::from_le_bytes([a, b, c, d]) & mask
        } else {
            let Some(bytes) = input.get(pos..pos + len) else {
                return Err(DecodeError::new(DecodeErrorKind::Truncated, pos, Some(i)));
            };
            let mut le = [0u8; 4];
            le[..len].copy_from_slice(bytes);
            u32::from_le_bytes(le)
        };
        pos += len;
        if DELTA {
            prev = prev.wrapping_add(v);
            v = prev;
        }
        *slot = v;
    }
    Ok(pos)
}

/// Encodes `values` (as deltas from `prev` if `DELTA`) into `out`, which must
/// hold the encoded length. Returns the bytes written.
pub(crate) fn encode<F: Format, const DELTA: bool>(
    values: &[u32],
    prev: u32,
    out: &mut [u8],
) -> usize {
    encode_from::<F, DELTA>(values, prev, out, 0, control_len(values.len()))
}

/// Encodes values `start..` (a multiple of 4) with their data starting at
/// absolute offset `pos`; `prev` is the value before `start` (delta only).
pub(crate) fn encode_from<F: Format, const DELTA: bool>(
    values: &[u32],
    mut prev: u32,
    out: &mut [u8],
    start: usize,
    mut pos: usize,
) -> usize {
    debug_assert_eq!(start % 4, 0);
    for (g, group) in values[start..].chunks(4).enumerate() {
        let mut key = 0u8;
        for (lane, &x) in group.iter().enumerate() {
            let v = if DELTA {
                let d = x.wrapping_sub(prev);
                prev = x;
                d
            } else {
                x
            };
            let code = F::code(v);
            key |= code << (2 * lane);
            let len = F::BYTES[code as usize] as usize;
            if let Some(dst) = out.get_mut(pos..pos + 4) {
                // Fast path: store all four bytes; the next value (or the
                // caller, past the returned length) overwrites the extra ones.
                dst.copy_from_slice(&v.to_le_bytes());
            } else {
                out[pos..pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
            }
            pos += len;
        }
        out[start / 4 + g] = key;
    }
    pos
}

/// Exact encoded length of `values` (delta-coded from `prev` if given).
pub(crate) fn compressed_len<F: Format>(values: &[u32], prev: Option<u32>) -> usize {
    let len = |v: u32| F::BYTES[F::code(v) as usize] as usize;
    let data: usize = match prev {
        None => values.iter().map(|&v| len(v)).sum(),
        Some(mut p) => values
            .iter()
            .map(|&v| {
                let d = v.wrapping_sub(p);
                p = v;
                len(d)
            })
            .sum(),
    };
    control_len(values.len()) + data
}

/// Data bytes announced by the control bytes of a stream of `n` values.
pub(crate) fn data_len(bytes: [u8; 4], ctrl: &[u8], n: usize) -> usize {
    (0..n)
        .map(|i| bytes[((ctrl[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize)
        .sum()
}
