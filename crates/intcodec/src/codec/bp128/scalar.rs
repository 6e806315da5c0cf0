//! Scalar BP128: the reference kernel (one value at a time, the bit position
//! computed from the layout's definition in `mod.rs`), and the array format
//! code shared by every kernel (width bytes, validation, the LEB128 tail
//! through the VByte kernels).
//!
//! Every access is bounds-checked by slice indexing.
#![forbid(unsafe_code)]

use super::{
    bits_of, malformed, mode_of, pack_blocks_with, prev_for, splat, truncated, Fns, Kernels,
    Layout, Mode, Prev, UnpackTable,
};
use crate::codec::vbyte::scalar::{len_of, one};
use crate::codec::vbyte::VByte;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::isa::Isa;
use crate::traits::IntCodec;

fn unpack4<const B: u8, const M: u8>(input: &[u8], out: &mut [u32], prev: &Prev) {
    unpack::<4>(input, out, B, mode_of(M), prev)
}

fn unpack8<const B: u8, const M: u8>(input: &[u8], out: &mut [u32], prev: &Prev) {
    unpack::<8>(input, out, B, mode_of(M), prev)
}

fn unpack16<const B: u8, const M: u8>(input: &[u8], out: &mut [u32], prev: &Prev) {
    unpack::<16>(input, out, B, mode_of(M), prev)
}

static UNPACK4: UnpackTable = super::unpack_table!(unpack4);
static UNPACK8: UnpackTable = super::unpack_table!(unpack8);
static UNPACK16: UnpackTable = super::unpack_table!(unpack16);

pub(super) const fn kernels(layout: Layout) -> Kernels {
    match layout {
        Layout::Lanes4 => lanes::<4>(layout, &UNPACK4),
        Layout::Lanes8 => lanes::<8>(layout, &UNPACK8),
        Layout::Lanes16 => lanes::<16>(layout, &UNPACK16),
    }
}

/// The scalar kernel set of `L` lanes (`layout`), `unpack` its table.
const fn lanes<const L: usize>(layout: Layout, unpack: &'static UnpackTable) -> Kernels {
    Kernels {
        isa: Isa::Scalar,
        layout,
        fns: Fns {
            unpack,
            unpack_blocks: unpack_blocks::<L>,
            unpack_upto: unpack_upto::<L>,
            skip: skip::<L>,
            pack: pack::<L>,
            bits: bits::<L>,
            pack_blocks: pack_blocks::<L>,
        },
    }
}

/// The u32 at word index `idx` (`w * L + lane`) of a block.
#[inline(always)]
fn rd(input: &[u8], idx: usize) -> u32 {
    let b = &input[4 * idx..4 * idx + 4];
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

#[inline(always)]
fn or_wr(out: &mut [u8], idx: usize, v: u32) {
    let cur = rd(out, idx) | v;
    out[4 * idx..4 * idx + 4].copy_from_slice(&cur.to_le_bytes());
}

/// The value packed for index `i` of a block under `mode`.
#[inline(always)]
pub(crate) fn delta_at(l: usize, values: &[u32], i: usize, mode: Mode, prev: &Prev) -> u32 {
    match mode {
        Mode::Plain => values[i],
        Mode::D1 => values[i].wrapping_sub(if i == 0 { prev[l - 1] } else { values[i - 1] }),
        Mode::Lane => values[i].wrapping_sub(if i < l { prev[i] } else { values[i - l] }),
        Mode::Offset => values[i].wrapping_sub(prev[0]),
        Mode::Strict => values[i]
            .wrapping_sub(if i == 0 { prev[l - 1] } else { values[i - 1] })
            .wrapping_sub(1),
    }
}

/// Bits needed by the widest packed value of `block` (`B` values).
///
/// One loop per mode, without a branch or an index check per value, so that
/// each is vectorised (an OR-reduction of the values or of their deltas).
pub(crate) fn needed_bits(layout: Layout, block: &[u32], mode: Mode, prev: &Prev) -> u8 {
    let l = layout.lanes();
    let acc = match mode {
        Mode::Plain => block.iter().fold(0, |a, &v| a | v),
        Mode::Offset => block.iter().fold(0, |a, &v| a | v.wrapping_sub(prev[0])),
        Mode::D1 => match block.first() {
            None => 0,
            Some(&first) => block
                .iter()
                .zip(&block[1..])
                .fold(first.wrapping_sub(prev[l - 1]), |a, (&p, &v)| {
                    a | v.wrapping_sub(p)
                }),
        },
        Mode::Strict => match block.first() {
            None => 0,
            Some(&first) => block.iter().zip(&block[1..]).fold(
                first.wrapping_sub(prev[l - 1]).wrapping_sub(1),
                |a, (&p, &v)| a | v.wrapping_sub(p).wrapping_sub(1),
            ),
        },
        Mode::Lane => {
            let head = block
                .iter()
                .zip(prev)
                .take(l)
                .fold(0, |a, (&v, &p)| a | v.wrapping_sub(p));
            block
                .iter()
                .zip(block.get(l..).unwrap_or(&[]))
                .fold(head, |a, (&p, &v)| a | v.wrapping_sub(p))
        }
    };
    bits_of(acc)
}

/// The layout of `L` lanes (4, 8 or 16).
const fn layout_of<const L: usize>() -> Layout {
    match L {
        4 => Layout::Lanes4,
        8 => Layout::Lanes8,
        _ => Layout::Lanes16,
    }
}

/// [`needed_bits`] as the scalar kernel entry (see [`BitsFn`](intcodec_bp128_kernels::BitsFn)).
fn bits<const L: usize>(block: &[u32], mode: Mode, prev: &Prev) -> u8 {
    let layout = layout_of::<L>();
    let bl = layout.block_len();
    assert!(block.len() >= bl);
    needed_bits(layout, &block[..bl], mode, prev)
}

/// Reference unpack of one block (see [`BlockUnpackFn`](intcodec_bp128_kernels::BlockUnpackFn)).
pub(crate) fn unpack<const L: usize>(
    input: &[u8],
    out: &mut [u32],
    bits: u8,
    mode: Mode,
    prev: &Prev,
) {
    assert!(bits <= 32);
    let b = bits as usize;
    assert!(input.len() >= 4 * L * b && out.len() >= 32 * L);
    let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
    let mut last = prev[L - 1];
    for i in 0..32 * L {
        let (g, l) = (i / L, i % L);
        let v = if b == 0 {
            0
        } else {
            let o = g * b;
            let (w, s) = (o / 32, o % 32);
            let mut v = u64::from(rd(input, w * L + l)) >> s;
            if s + b > 32 {
                v |= u64::from(rd(input, (w + 1) * L + l)) << (32 - s);
            }
            (v as u32) & mask
        };
        out[i] = match mode {
            Mode::Plain => v,
            Mode::D1 => {
                last = last.wrapping_add(v);
                last
            }
            Mode::Strict => {
                last = last.wrapping_add(v).wrapping_add(1);
                last
            }
            Mode::Lane => {
                let p = if i >= L { out[i - L] } else { prev[l] };
                p.wrapping_add(v)
            }
            Mode::Offset => v.wrapping_add(prev[0]),
        };
    }
}

/// The `prev` of the block after `block` (its values, decoded from
/// `prev` under `mode`): see [`SkipFn`](intcodec_bp128_kernels::SkipFn).
#[inline]
pub(crate) fn carry_after(l: usize, block: &[u32], mode: Mode, prev: &Prev) -> Prev {
    let bl = block.len();
    match mode {
        Mode::Lane => {
            let mut p = *prev;
            p[..l].copy_from_slice(&block[bl - l..]);
            p
        }
        Mode::D1 | Mode::Strict => splat(block[bl - 1]),
        // Offset: every block from the same minimum; Plain: unused.
        Mode::Plain | Mode::Offset => *prev,
    }
}

/// Reference skip of one block (see [`SkipFn`](intcodec_bp128_kernels::SkipFn)): [`unpack`], then
/// [`carry_after`].
fn skip<const L: usize>(input: &[u8], bits: u8, mode: Mode, prev: &Prev) -> Prev {
    let mut buf = [0u32; 512];
    unpack::<L>(input, &mut buf[..32 * L], bits, mode, prev);
    carry_after(L, &buf[..32 * L], mode, prev)
}

/// Reference unpack of a block's first groups (see [`UpToFn`](intcodec_bp128_kernels::UpToFn)):
/// [`unpack`] of the whole block, then a copy.
fn unpack_upto<const L: usize>(
    input: &[u8],
    out: &mut [u32],
    bits: u8,
    mode: Mode,
    prev: &Prev,
    groups: usize,
) {
    assert!((1..=32).contains(&groups) && out.len() >= groups * L);
    let mut buf = [0u32; 512];
    unpack::<L>(input, &mut buf[..32 * L], bits, mode, prev);
    out[..groups * L].copy_from_slice(&buf[..groups * L]);
}

/// Reference unpack of consecutive blocks (see
/// [`BlocksUnpackFn`](intcodec_bp128_kernels::BlocksUnpackFn)): [`unpack`]
/// per block, `prev` taken from the block before.
pub(crate) fn unpack_blocks<const L: usize>(
    input: &[u8],
    widths: &[u8],
    out: &mut [u32],
    mode: Mode,
    prev: &Prev,
) -> Result<usize, usize> {
    let bl = 32 * L;
    assert!(out.len() / bl >= widths.len());
    let mut prev = *prev;
    let mut pos = 0;
    for (j, (&w, dst)) in widths.iter().zip(out.chunks_exact_mut(bl)).enumerate() {
        let len = 4 * L * usize::from(w);
        if w > 32 || input.len() - pos < len {
            return Err(j);
        }
        unpack::<L>(&input[pos..pos + len], dst, w, mode, &prev);
        pos += len;
        prev = carry_after(L, dst, mode, &prev);
    }
    Ok(pos)
}

/// Reference pack of consecutive blocks (see
/// [`BlocksPackFn`](intcodec_bp128_kernels::BlocksPackFn)).
fn pack_blocks<const L: usize>(
    values: &[u32],
    widths: &mut [u8],
    out: &mut [u8],
    mode: Mode,
    prev: u32,
) -> usize {
    pack_blocks_with(L, values, widths, out, mode, prev, bits::<L>, pack::<L>)
}

/// Reference pack of one block (see [`PackFn`](intcodec_bp128_kernels::PackFn)).
pub(crate) fn pack<const L: usize>(
    values: &[u32],
    out: &mut [u8],
    bits: u8,
    mode: Mode,
    prev: &Prev,
) {
    assert!(bits <= 32);
    let b = bits as usize;
    assert!(values.len() >= 32 * L && out.len() >= 4 * L * b);
    out[..4 * L * b].fill(0);
    if b == 0 {
        return;
    }
    for i in 0..32 * L {
        let (g, l) = (i / L, i % L);
        let t = delta_at(L, values, i, mode, prev);
        let o = g * b;
        let (w, s) = (o / 32, o % 32);
        or_wr(out, w * L + l, t << s);
        if s + b > 32 {
            or_wr(out, (w + 1) * L + l, t >> (32 - s));
        }
    }
}

/// The tail value `i` as stored (the value, or its D1 delta).
#[inline]
fn tail_code(values: &[u32], i: usize, mode: Mode, prev: u32) -> u32 {
    match mode {
        Mode::Plain | Mode::Offset => values[i],
        _ => values[i].wrapping_sub(if i == 0 { prev } else { values[i - 1] }),
    }
}

/// Exact array length of `values`.
pub(crate) fn array_len(layout: Layout, values: &[u32], mode: Mode, prev: u32) -> usize {
    let bl = layout.block_len();
    let m = values.len() / bl;
    let mut len = m;
    for j in 0..m {
        let lanes = prev_for(layout.lanes(), values, j, mode, prev);
        let bits = needed_bits(layout, &values[j * bl..(j + 1) * bl], mode, &lanes);
        len += layout.block_bytes(bits);
    }
    for i in m * bl..values.len() {
        len += len_of(tail_code(values, i, mode, prev));
    }
    len
}

/// Encodes the array format; `out` holds at least `array_len` bytes. The
/// tail goes through `tail`, the VByte kernel of the same ISA (D1 fused).
pub(crate) fn encode_array(
    k: &Kernels,
    tail: &VByte,
    values: &[u32],
    mode: Mode,
    prev: u32,
    out: &mut [u8],
) -> usize {
    let layout = k.layout;
    let bl = layout.block_len();
    let m = values.len() / bl;
    let (widths, data) = out.split_at_mut(m);
    let mut pos = m + super::call_pack_blocks(k, values, widths, data, mode, prev);
    let rest = &values[m * bl..];
    if !rest.is_empty() {
        let dst = &mut out[pos..];
        let len = match mode {
            Mode::Plain | Mode::Offset => tail.encode(rest, dst),
            _ => {
                let last = if m == 0 { prev } else { values[m * bl - 1] };
                tail.encode_delta(rest, last, dst)
            }
        };
        pos += len.expect("`out` holds the array length");
    }
    pos
}

/// Validates the width bytes and block sizes of an array of `n` values:
/// `Ok(offset of the tail)`.
pub(crate) fn scan_blocks(layout: Layout, input: &[u8], n: usize) -> Result<usize, DecodeError> {
    let bl = layout.block_len();
    let m = n / bl;
    if input.len() < m {
        return Err(truncated(input.len(), input.len() * bl));
    }
    let mut pos = m;
    for (j, &w) in input[..m].iter().enumerate() {
        if w > 32 {
            return Err(malformed(j, j * bl));
        }
        let len = layout.block_bytes(w);
        if input.len() - pos < len {
            return Err(truncated(pos, j * bl));
        }
        pos += len;
    }
    Ok(pos)
}

#[inline]
pub(crate) fn tail_err(kind: DecodeErrorKind, pos: usize, i: usize) -> DecodeError {
    DecodeError::new(kind, pos, Some(i))
}

/// Length of an array of `n` values; the same errors as decoding.
pub(crate) fn scan_array(layout: Layout, input: &[u8], n: usize) -> Result<usize, DecodeError> {
    let mut pos = scan_blocks(layout, input, n)?;
    let bl = layout.block_len();
    for i in n / bl * bl..n {
        let (_, len) = one::<u32>(input, pos).map_err(|e| tail_err(e, pos, i))?;
        pos += len;
    }
    Ok(pos)
}

/// Decodes an array of `out.len()` values: one kernel call for the blocks,
/// one VByte kernel call (`tail`, the same ISA; D1 fused) for the tail.
pub(crate) fn decode_array(
    k: &Kernels,
    tail: &VByte,
    input: &[u8],
    out: &mut [u32],
    mode: Mode,
    prev: u32,
) -> Result<usize, DecodeError> {
    let layout = k.layout;
    let n = out.len();
    let bl = layout.block_len();
    let m = n / bl;
    let Some(widths) = input.get(..m) else {
        return Err(truncated(input.len(), input.len() * bl));
    };
    // One kernel call for every full block (the running value stays in a
    // register between blocks); it checks each block before unpacking it,
    // so no separate validation pass. On a bad block, `scan_blocks` names
    // the error (the first bad width or the first block past the input).
    let blocks = match m {
        // A short list is all tail: no kernel call.
        0 => Ok(0),
        _ => super::call_unpack_blocks(
            k,
            &input[m..],
            widths,
            &mut out[..m * bl],
            mode,
            &splat(prev),
        ),
    };
    let pos = match blocks {
        Ok(len) => m + len,
        Err(j) => {
            return Err(match scan_blocks(layout, input, n) {
                Err(e) => e,
                // Unreachable: the kernel and the scan check the same.
                Ok(_) => malformed(j, j * bl),
            });
        }
    };
    let last = if m == 0 { prev } else { out[m * bl - 1] };
    decode_tail(k, tail, input, pos, &mut out[m * bl..], m * bl, mode, last)
}

/// Decodes the LEB128 tail of an array: `rest.len()` values (the first
/// of them value `first` of the array) from byte `pos` of `input`, from
/// `last` (the value before them) in a delta mode; returns the byte after
/// them. VByte reports the first bad value's first byte and index, as the
/// value-by-value loop did: re-based to the array.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn decode_tail(
    k: &Kernels,
    tail: &VByte,
    input: &[u8],
    pos: usize,
    rest: &mut [u32],
    first: usize,
    mode: Mode,
    last: u32,
) -> Result<usize, DecodeError> {
    let r = rest.len();
    if r == 0 {
        return Ok(pos);
    }
    let src = &input[pos..];
    use crate::codec::vbyte::scalar::{decode_short, SHORT_MAX};
    // A few values: VByte's short-list loop, as its kernels would run,
    // with no call through the kernel table. Not for 3 values or more on
    // AVX-512, whose VByte kernel decodes 3 to 16 in one masked step
    // (short suite, Zen 5: 4 and 8 ints 20 and 26 ns by the loop, against
    // 10-11 ns for VByte's own decode of the same bytes).
    let short = r <= SHORT_MAX && (r <= 2 || k.isa != Isa::Avx512);
    let used = match mode {
        Mode::Plain | Mode::Offset if short => decode_short::<false>(src, rest, 0),
        Mode::Plain | Mode::Offset => tail.decode(src, r, rest),
        _ if short => decode_short::<true>(src, rest, last),
        _ => tail.decode_delta(src, r, last, rest),
    }
    .map_err(|e| {
        let i = first + e.index().unwrap_or(0);
        tail_err(e.kind(), pos + e.offset(), i)
    })?;
    Ok(pos + used)
}
