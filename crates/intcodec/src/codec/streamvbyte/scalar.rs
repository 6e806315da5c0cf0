//! Scalar Stream VByte: the obviously-correct reference every other kernel is
//! tested against, and the tail handler of the SIMD kernels.
//!
//! Reads only inside `input`; every data access is bounds-checked by the
//! slice indexing, and a missing byte is reported as `Truncated` at the offset
//! of the first byte of the value that does not fit.
#![forbid(unsafe_code)]

use super::{control_len, Format, Kernels};
use crate::codec::kernels::At;
use crate::codec::read_le;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::tables::streamvbyte::{BYTES_0124, BYTES_1234};

pub(super) const fn kernels<F: Format>() -> Kernels {
    super::super::kernel_table!(
        crate::isa::Isa::Scalar, decode<F>, checked<>, encode<F>;
        variant: F::VARIANT,
        select: super::seek::scalar::select::<F>,
        select_delta: super::seek::scalar::select_delta::<F>,
        seek_delta: super::seek::scalar::seek_delta::<F>,
        decode_counted: None,
        decode_delta_counted: None,
    )
}

/// Decodes `out.len()` values (deltas from `prev` if `DELTA`).
pub(crate) fn decode<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    decode_from::<F, DELTA>(input, out, At::start(control_len(out.len()), prev))
}

/// Decodes values `from.i..out.len()`, whose data begins at absolute byte
/// offset `from.pos` of `input`; `from.acc` is the value before `from.i`
/// (delta only). `from.i` must be a multiple of 4 or the index of the next
/// value of a group already partly decoded. Returns the offset just past
/// the last data byte.
pub(crate) fn decode_from<F: Format, const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    from: At,
) -> Result<usize, DecodeError> {
    let ctrl = &input[..control_len(out.len())];
    let At {
        i: start,
        mut pos,
        acc: mut prev,
    } = from;
    for (i, slot) in out.iter_mut().enumerate().skip(start) {
        let code = (ctrl[i / 4] >> (2 * (i % 4))) & 3;
        let len = F::BYTES[code as usize] as usize;
        let Some(mut v) = read_le(input, pos, len) else {
            return Err(DecodeError::new(DecodeErrorKind::Truncated, pos, Some(i)));
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

/// A whole stream of `out.len()` values decoded value by value (deltas
/// from `prev` if `DELTA`), for lists of at most [`super::SHORT_MAX`]: the
/// SIMD kernels' checked decoders call it first, since for lists this
/// short their loop set-up and window tail were most of the call (a 1-int
/// decode took 11-14 ns against the C library's 6-9). Returns the stream's
/// length, or `None` for a longer list or an `input` shorter than the
/// stream, which the kernel's loops then decode (and report) as always.
#[inline(always)]
pub(crate) fn decode_short<const DELTA: bool>(
    bytes: [u8; 4],
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Option<usize> {
    let n = out.len();
    if n > super::SHORT_MAX {
        return None;
    }
    let cl = control_len(n);
    let ctrl = input.get(..cl)?;
    // Each value is read as a 4-byte word masked to its length, with no
    // branch on the length. With 4 bytes a value after the control bytes
    // the words are plain loads; else (an exact-length stream, the usual
    // case for a short list) each byte of a word is read at its offset
    // clamped to the input's last byte, and a value that runs past the
    // input shows in the final length. (An empty input holds no value: the
    // kernel's loops take `n = 0`.)
    let whole = input.len() >= cl + 4 * n;
    let last = input.len().checked_sub(1)?;
    let mut pos = cl;
    let mut acc = prev;
    for (i, o) in out.iter_mut().enumerate() {
        let len = bytes[((ctrl[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize;
        let word = if whole {
            // Values before `i` took 4 bytes at most: `pos + 4 <= cl + 4 *
            // (i + 1) <= input.len()`.
            let word: [u8; 4] = input[pos..pos + 4].try_into().ok()?;
            u32::from_le_bytes(word)
        } else {
            (0..4).fold(0u32, |w, b| {
                w | (input[(pos + b).min(last)] as u32) << (8 * b)
            })
        };
        let v = word & ((1u64 << (8 * len)) - 1) as u32;
        pos += len;
        *o = if DELTA {
            acc = acc.wrapping_add(v);
            acc
        } else {
            v
        };
    }
    (pos <= input.len()).then_some(pos)
}

/// Data bytes announced by the control bytes of a stream of `n` values.
pub(crate) fn data_len(bytes: [u8; 4], ctrl: &[u8], n: usize) -> usize {
    // The two formats' lengths have closed forms over 32 codes (8 control
    // bytes) at a time: "1234" is 32 + the sum of the codes, "0124" the sum
    // of the codes plus one per code 3 (both bits set). The sums are kept
    // per byte lane (at most 12 + 4 = 16 a word, so 15 words between
    // flushes). The remaining values (and any other table) go one by one.
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const LO: u64 = 0x5555_5555_5555_5555;
    let byte_sums = |k: u64| {
        let x = (k & M2) + ((k >> 2) & M2);
        (x & M4) + ((x >> 4) & M4)
    };
    let threes = match bytes {
        BYTES_1234 => false,
        BYTES_0124 => true,
        _ => return tail_len(bytes, ctrl, 0, n),
    };
    let words = ctrl[..n / 4].chunks_exact(8);
    let start = words.len() * 32;
    let mut total = if threes { 0 } else { start };
    let (mut lanes, mut k) = (0u64, 0);
    for w in words {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        let w = u64::from_le_bytes(a);
        lanes += byte_sums(w);
        if threes {
            lanes += byte_sums(w & (w >> 1) & LO);
        }
        k += 1;
        if k == 15 {
            total += sum_lanes(lanes);
            (lanes, k) = (0, 0);
        }
    }
    total + sum_lanes(lanes) + tail_len(bytes, ctrl, start, n)
}

/// The sum of the eight byte lanes of `x`.
#[inline]
fn sum_lanes(x: u64) -> usize {
    const M: u64 = 0x00FF_00FF_00FF_00FF;
    let pairs = (x & M) + ((x >> 8) & M);
    (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
}

/// Data bytes of values `start..n`, one at a time.
pub(crate) fn tail_len(bytes: [u8; 4], ctrl: &[u8], start: usize, n: usize) -> usize {
    (start..n)
        .map(|i| bytes[((ctrl[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize)
        .sum()
}

#[cfg(test)]
mod data_len_tests {
    use super::{data_len, BYTES_0124, BYTES_1234};

    #[test]
    fn closed_forms_match_the_per_value_sum() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for n in (0usize..300).chain([1023, 1024, 1025, 4096]) {
            let ctrl: Vec<u8> = (0..n.div_ceil(4))
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            for bytes in [BYTES_1234, BYTES_0124] {
                let naive: usize = (0..n)
                    .map(|i| bytes[((ctrl[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize)
                    .sum();
                assert_eq!(data_len(bytes, &ctrl, n), naive, "n={n} {bytes:?}");
            }
        }
    }
}
