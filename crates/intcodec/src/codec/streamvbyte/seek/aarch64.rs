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

/// The four values (stored words) of the group with control byte `key`
/// whose data starts at `src`.
#[target_feature(enable = "neon")]
#[inline]
fn group<F: Format>(src: &[u8; 16], key: u8) -> uint32x4_t {
    let shuf = load16(&F::tables().decode[key as usize]);
    vreinterpretq_u32_u8(vqtbl1q_u8(load16(src), shuf))
}

/// Group `g`, whose data starts at offset `pos`, if the 16 bytes from `pos`
/// are inside `p.data`: its four values (stored words) and data length.
#[target_feature(enable = "neon")]
#[inline]
fn group_at<F: Format>(p: Parts<'_>, g: usize, pos: usize) -> Option<(uint32x4_t, usize)> {
    let src = p.data.get(pos..)?.first_chunk::<16>()?;
    let key = p.ctrl[g];
    Some((group::<F>(src, key), F::tables().len[key as usize] as usize))
}

super::seek_kernels! {
    /// Plain select of value `i < n`.
    #[target_feature(enable = "neon")]
    select: |p, i| {
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
    select_delta: |p, prev, i| {
        let mut sum = vdupq_n_u32(0);
        let (mut g, mut pos) = (0usize, 0usize);
        // Groups wholly before `i`'s.
        while g < i / 4 {
            let Some((v, len)) = group_at::<F>(p, g, pos) else {
                break;
            };
            sum = vaddq_u32(sum, v);
            pos += len;
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
    seek_delta: |p, n, prev, target| {
        let t = vdupq_n_u32(target);
        let mut acc = vdupq_n_u32(prev);
        let (mut g, mut pos) = (0usize, 0usize);
        while g < n / 4 {
            let Some((v, len)) = group_at::<F>(p, g, pos) else {
                break;
            };
            let (v, next) = prefix_sum(v, acc);
            if vmaxvq_u32(vcgeq_u32(v, t)) != 0 {
                // A lane of this group is the answer: the scalar scan finds it.
                break;
            }
            acc = next;
            pos += len;
            g += 1;
        }
        let at = At {
            i: 4 * g,
            pos,
            acc: vgetq_lane_u32::<0>(acc),
        };
        scalar::seek_delta_from(F::BYTES, p, n, target, at)
    }
}
