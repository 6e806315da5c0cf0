//! NEON select / seek over delta-coded VarInt-GB streams (both layouts),
//! the x86 SSSE3 kernel (`x86.rs`) with NEON operations.
//!
//! The blocks are skipped by their control bytes: each full block's data
//! (16 bytes loaded after its control byte) is shuffled into four u32 lanes
//! with the layout's table (`tbl`, `vqtbl1q_u8`; the table's zeroing index
//! 0x80 is out of range for `tbl`, which gives zero too). Select adds the
//! lanes of the blocks before value `i`'s block to a vector accumulator (no
//! prefix sum, no store) and folds it once with `addv`; seek prefix-sums
//! each block onto the running value (`ext` against zero twice, `dup` of
//! lane 3, the Stream VByte NEON prefix sum) and compares it with the target
//! (`cmhs`, unsigned: no sign flip needed on NEON); `umaxv` tells whether a
//! lane is at or above it, and the scalar code finds which, from the
//! block's start.
//!
//! Bounds: a block is loaded only when its control byte and the 16 bytes
//! after it are inside `input`; a block with fewer than 16 bytes after its
//! control byte is read from the last 16 bytes of the input with its
//! shuffle shifted, when its data bytes are all inside the input (as on
//! x86: shifted indices of data bytes stay below 16, the zeroing ones at or
//! above 0x80). The block holding `i`, the partial last block or Lucene vint
//! tail, inputs shorter than 16 bytes and every error are left to `scalar`,
//! which reads exactly as the decoder. Requires NEON (baseline on AArch64).
//!
//! Guess: `umaxv` (a cross-lane reduction, several cycles of latency on
//! some cores) for the any-lane test rather than narrowing the compare to a
//! u64 with `shrn`; unmeasured, no ARM hardware here.

use core::arch::aarch64::*;

use super::scalar::{self, At};
use crate::codec::aarch64::{load16, prefix_sum};
use crate::codec::varint_gb::Format;

/// The block at `pos` if its control byte and data bytes are inside
/// `input` and 16 bytes can be loaded for it: its control byte and four
/// values.
#[target_feature(enable = "neon")]
#[inline]
fn block<F: Format>(input: &[u8], pos: usize) -> Option<(u8, uint32x4_t)> {
    let (&key, rest) = input.get(pos..)?.split_first()?;
    let shuf = load16(&F::tables().decode[key as usize]);
    if let Some(src) = rest.first_chunk::<16>() {
        return Some((key, vreinterpretq_u32_u8(vqtbl1q_u8(load16(src), shuf))));
    }
    // Near the end: the last 16 bytes of `input`, the shuffle shifted, if
    // the block's data bytes are all inside `input` (the 0x80 entries stay
    // out of range for `tbl`: zero).
    let glen = F::tables().len[key as usize] as usize;
    let (src, shift) = crate::codec::last16(input, pos + 1, glen)?;
    let shuf = vaddq_u8(shuf, vdupq_n_u8(shift));
    Some((key, vreinterpretq_u32_u8(vqtbl1q_u8(load16(src), shuf))))
}

super::seek_kernels! {
    /// Delta select of value `i < n` (from `prev`).
    #[target_feature(enable = "neon")]
    select_delta: |input, n, prev, i| {
        let len = &F::tables().len;
        let mut acc = vdupq_n_u32(0);
        let (mut g, mut pos) = (0usize, 0usize);
        while g < i / 4 {
            let Some((key, v)) = block::<F>(input, pos) else {
                break;
            };
            acc = vaddq_u32(acc, v);
            pos += 1 + len[key as usize] as usize;
            g += 1;
        }
        let acc = prev.wrapping_add(vaddvq_u32(acc));
        scalar::select_delta_from::<F>(input, n, i, At { i: 4 * g, pos, acc })
    }
    /// Delta seek: the first index whose value is at least `target`.
    #[target_feature(enable = "neon")]
    seek_delta: |input, n, prev, target| {
        let len = &F::tables().len;
        let t = vdupq_n_u32(target);
        let mut acc = vdupq_n_u32(prev);
        let (mut g, mut pos) = (0usize, 0usize);
        while g < n / 4 {
            let Some((key, v)) = block::<F>(input, pos) else {
                break;
            };
            let (v, next) = prefix_sum(v, acc);
            if vmaxvq_u32(vcgeq_u32(v, t)) != 0 {
                // A full block inside `input`: all four values are complete.
                // The scalar code reads the block again (at most four values)
                // for the exact answer.
                break;
            }
            acc = next;
            pos += 1 + len[key as usize] as usize;
            g += 1;
        }
        let acc = vgetq_lane_u32::<0>(acc);
        scalar::seek_delta_from::<F>(input, n, target, At { i: 4 * g, pos, acc })
    }
}
