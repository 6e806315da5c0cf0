//! NEON select / seek over Stream VByte streams.
//!
//! - Plain select: the data offset of value `i`'s group is the sum of the
//!   lengths of the control bytes before it. Sixteen control bytes at a
//!   time, a `tbl` on each nibble looks up the byte count of its two codes
//!   and `uaddlv` adds them up (`psadbw` on x86); the group itself is read
//!   by the scalar code.
//! - Delta select: the values before `i`'s group are needed only as a sum,
//!   so each group is shuffled (`tbl`) into four lanes and added to a vector
//!   accumulator, without a prefix sum and without a store; the rest
//!   (`i`'s group) is the scalar code's, from the accumulated sum (`addv`).
//! - Delta seek: each group is shuffled, prefix-summed onto the running
//!   value and compared with the target (`cmhs`, unsigned); `umaxv` tells
//!   whether a lane is at or above it, and the scalar code finds which,
//!   continuing from the group's start.
//!
//! Bounds: a group is loaded only when 16 data bytes remain at its offset,
//! and only whole groups (four values below `n`) are read; everything else
//! (the last groups, truncation) goes to `scalar`, which reports errors
//! exactly as the decoder does. Unlike the x86 kernels there is no
//! four-groups-per-step or zero-block path (not written yet). Requires NEON.

use core::arch::aarch64::*;

use super::scalar::{self, At};
use super::Parts;
use crate::codec::aarch64::{load16, prefix_sum};
use crate::codec::streamvbyte::Format;
use crate::error::DecodeError;

/// The four values (stored words) of the group with control byte `key`
/// whose data starts at `src`.
#[target_feature(enable = "neon")]
#[inline]
fn group<F: Format>(src: &[u8; 16], key: u8) -> uint32x4_t {
    let shuf = load16(&F::tables().decode[key as usize]);
    vreinterpretq_u32_u8(vqtbl1q_u8(load16(src), shuf))
}

/// Plain select of value `i < n`.
#[target_feature(enable = "neon")]
pub(crate) fn select<F: Format>(p: Parts<'_>, i: usize) -> Result<u32, DecodeError> {
    // Byte count of the two codes of each nibble.
    let nibble: [u8; 16] = core::array::from_fn(|x| F::BYTES[x & 3] + F::BYTES[x >> 2]);
    let nib = load16(&nibble);
    let (chunks, _) = p.ctrl[..(i / 4).min(p.ctrl.len())].as_chunks::<16>();
    let mut pos = 0usize;
    for c in chunks {
        let c = load16(c);
        let lo = vqtbl1q_u8(nib, vandq_u8(c, vdupq_n_u8(0x0F)));
        let hi = vqtbl1q_u8(nib, vshrq_n_u8::<4>(c));
        // At most 16 * 16 bytes: the sum fits the u16 of `uaddlv`.
        pos += usize::from(vaddlvq_u8(lo)) + usize::from(vaddlvq_u8(hi));
    }
    let at = At {
        i: 64 * chunks.len(),
        pos,
        acc: 0,
    };
    scalar::select_from(F::BYTES, p, i, at)
}

/// Delta select of value `i < n` from `prev`.
#[target_feature(enable = "neon")]
pub(crate) fn select_delta<F: Format>(
    p: Parts<'_>,
    prev: u32,
    i: usize,
) -> Result<u32, DecodeError> {
    let lens = &F::tables().len;
    let mut sum = vdupq_n_u32(0);
    let mut pos = 0usize;
    let mut g = 0usize;
    // Groups wholly before `i`'s.
    while g < i / 4 {
        let Some(src) = p.data.get(pos..).and_then(<[u8]>::first_chunk::<16>) else {
            break;
        };
        let key = p.ctrl[g];
        sum = vaddq_u32(sum, group::<F>(src, key));
        pos += lens[key as usize] as usize;
        g += 1;
    }
    let at = At {
        i: 4 * g,
        pos,
        acc: prev.wrapping_add(vaddvq_u32(sum)),
    };
    scalar::select_delta_from(F::BYTES, p, i, at)
}

/// Delta seek: the first of `n` values (from `prev`) at or above `target`.
#[target_feature(enable = "neon")]
pub(crate) fn seek_delta<F: Format>(
    p: Parts<'_>,
    n: usize,
    prev: u32,
    target: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    let lens = &F::tables().len;
    let t = vdupq_n_u32(target);
    let mut acc = vdupq_n_u32(prev);
    let mut pos = 0usize;
    let mut g = 0usize;
    while g < n / 4 {
        let Some(src) = p.data.get(pos..).and_then(<[u8]>::first_chunk::<16>) else {
            break;
        };
        let key = p.ctrl[g];
        let (v, next) = prefix_sum(group::<F>(src, key), acc);
        if vmaxvq_u32(vcgeq_u32(v, t)) != 0 {
            // A lane of this group is the answer: the scalar scan finds it.
            break;
        }
        acc = next;
        pos += lens[key as usize] as usize;
        g += 1;
    }
    let at = At {
        i: 4 * g,
        pos,
        acc: vgetq_lane_u32::<0>(acc),
    };
    scalar::seek_delta_from(F::BYTES, p, n, target, at)
}
