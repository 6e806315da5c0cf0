//! NEON Stream VByte kernels (decode, delta decode, encode, delta encode),
//! for both variants.
//!
//! Decode is the paper's Fig. 4 loop with `tbl` in place of `pshufb`: per
//! control byte, a 16-byte load of the data, a `tbl` (`vqtbl1q_u8`) with the
//! control byte's mask from the shared 256-entry table (its zeroing index
//! 0x80 is out of range for `tbl`, which also gives zero), a 16-byte store
//! of four values, and the data pointer advanced by the length table. Delta
//! decoding adds the prefix sum of paper §2 with `ext` against a zero
//! vector for the lane shifts (two shifted adds), then the broadcast
//! running total (`dup` of lane 3); the loop-carried chain is one add.
//!
//! Encode takes one group (four values) at a time: the codes come from
//! three `cmhi` (1234: `v > 0xFF`, `> 0xFFFF`, `> 0xFFFFFF`; 0124: `cmtst`
//! for `v != 0`, then `> 0xFF`, `> 0xFFFF`) summed as negated masks, shifted
//! per lane (`ushl` by 0, 2, 4, 6) and added across (`addv`) into the
//! control byte; the control byte indexes the encode shuffle table, and one
//! `tbl` gathers the significant bytes. Delta encoding shifts the
//! predecessors in with `ext`. Unlike the x86 encoder (which looks its mask
//! up by twelve zero flags from `pmovmskb`, which NEON lacks), the mask load
//! here waits for the control byte: a guess that `addv` plus one load is
//! cheaper than emulating the movemask; unmeasured on hardware.
//!
//! Bounds: the checked decoder runs groups in batches of `(end - pos) / 16`
//! with no check of their own (a group reads 16 bytes and advances at most
//! 16), then re-checks; the groups within 16 bytes of the end of `input`,
//! and the partial last group, go to the scalar kernel, which reports any
//! truncation at the same offset. The unchecked decoder relies on the
//! `PADDING` (16) bytes after the stream. The encoder stores 16 bytes only
//! when 16 bytes of `out` remain; the rest (and the partial last group) is
//! the scalar kernel's. Lists of at most four values skip the loop for the
//! scalar `decode_short`, as on x86 (`sse41.rs`). Requires NEON (baseline
//! on AArch64).

use core::arch::aarch64::*;

use super::super::{control_len, scalar, Format, Kernels, Variant, F0124, F1234};
use crate::codec::aarch64::prefix_sum;
use crate::codec::kernels::At;
use crate::isa::Isa;

pub(crate) static KERNELS_1234: Kernels = kernels::<F1234>();
pub(crate) static KERNELS_0124: Kernels = kernels::<F0124>();

const fn kernels<F: Format>() -> Kernels {
    crate::codec::kernel_table!(
        Isa::Neon, decode<F>, decode_unchecked<F>, encode<F>;
        variant: F::VARIANT,
        select: super::super::seek::aarch64::select::<F>,
        select_delta: super::super::seek::aarch64::select_delta::<F>,
        seek_delta: super::super::seek::aarch64::seek_delta::<F>,
        decode_counted: None,
        decode_delta_counted: None,
    )
}

/// Decodes one group whose control byte is `key` from the 16 bytes at `src`
/// into `dst`; returns its data length.
///
/// # Safety
/// `src` must be valid for reading 16 bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn group<F: Format, const DELTA: bool>(
    src: *const u8,
    key: u8,
    dst: &mut [u32; 4],
    prev: &mut uint32x4_t,
) -> usize {
    let t = F::tables();
    // SAFETY: the caller guarantees 16 readable bytes at `src`.
    let data = unsafe { vld1q_u8(src) };
    // SAFETY: a table entry is 16 readable bytes.
    let mask = unsafe { vld1q_u8(t.decode[key as usize].as_ptr()) };
    let mut v = vreinterpretq_u32_u8(vqtbl1q_u8(data, mask));
    if DELTA {
        (v, *prev) = prefix_sum(v, *prev);
    }
    // SAFETY: `dst` is 16 writable bytes.
    unsafe { vst1q_u32(dst.as_mut_ptr(), v) };
    t.len[key as usize] as usize
}

crate::codec::kernels::decode_entry_points!(
    "neon",
    <F: Format>,
    short: |input, out, prev| scalar::decode_short::<DELTA>(F::BYTES, input, out, prev),
    /// The decode loop shared by the checked and unchecked entry points.
    ///
    /// # Safety
    /// If `CHECKED` is false, `input` must hold a valid stream of `out.len()`
    /// values followed by `PADDING` bytes. `input.len() >= control_len(out.len())`.
    decode_loop: |input, out, prev| {
        let n = out.len();
        let ctrl = &input[..control_len(n)];
        let base = input.as_ptr();
        let len = input.len();
        let mut pos = ctrl.len();
        let mut prev_v = vdupq_n_u32(prev);
        let (groups, _) = out.as_chunks_mut::<4>();
        let full = groups.len();
        let mut g = 0;
        while g < full {
            // Each group loads 16 bytes at `pos` and advances `pos` by at most
            // 16: `(len - pos) / 16` groups stay inside `input`.
            let run = if CHECKED {
                match (len - pos) / 16 {
                    0 => break,
                    r => r.min(full - g),
                }
            } else {
                full - g
            };
            for (dst, k) in groups[g..g + run].iter_mut().zip(&ctrl[g..g + run]) {
                // SAFETY: 16 bytes are readable at `pos` (the room computed
                // above, or the padding of trusted input).
                pos += unsafe { group::<F, DELTA>(base.wrapping_add(pos), *k, dst, &mut prev_v) };
            }
            g += run;
        }
        let prev = vgetq_lane_u32::<0>(prev_v);
        scalar::decode_from::<F, DELTA>(input, out, At { i: 4 * g, pos, acc: prev })
    }
);

/// The control byte of the group `v`.
#[target_feature(enable = "neon")]
#[inline]
fn key_of<F: Format>(v: uint32x4_t) -> usize {
    // Each comparison is all-ones (-1) where true: their negated sum is the
    // lane's code.
    let (a, b, c) = match F::VARIANT {
        Variant::V1234 => (
            vcgtq_u32(v, vdupq_n_u32(0xFF)),
            vcgtq_u32(v, vdupq_n_u32(0xFFFF)),
            vcgtq_u32(v, vdupq_n_u32(0xFF_FFFF)),
        ),
        Variant::V0124 => (
            vtstq_u32(v, v),
            vcgtq_u32(v, vdupq_n_u32(0xFF)),
            vcgtq_u32(v, vdupq_n_u32(0xFFFF)),
        ),
    };
    let codes = vsubq_u32(vdupq_n_u32(0), vaddq_u32(vaddq_u32(a, b), c));
    const SHIFTS: [i32; 4] = [0, 2, 4, 6];
    // SAFETY: `SHIFTS` is 16 readable bytes.
    let shifts = unsafe { vld1q_s32(SHIFTS.as_ptr()) };
    // At most 3 << 6 | 3 << 4 | 3 << 2 | 3 = 255: the `u8` cast drops nothing
    // (and tells the compiler the table index is in bounds).
    usize::from(vaddvq_u32(vshlq_u32(codes, shifts)) as u8)
}

/// Encodes the group `v`: stores its control byte at `key`, its significant
/// bytes at `dst` (16 bytes are stored); returns how many of them count.
///
/// # Safety
/// `dst` must be valid for writing 16 bytes.
#[target_feature(enable = "neon")]
#[inline]
unsafe fn put_group<F: Format>(key: &mut u8, dst: *mut u8, v: uint32x4_t) -> usize {
    let t = F::tables();
    let k = key_of::<F>(v);
    // SAFETY: a table entry is 16 readable bytes (`k < 256`: four 2-bit codes).
    let mask = unsafe { vld1q_u8(t.encode[k].as_ptr()) };
    let bytes = vqtbl1q_u8(vreinterpretq_u8_u32(v), mask);
    // SAFETY: the caller guarantees 16 writable bytes at `dst`.
    unsafe { vst1q_u8(dst, bytes) };
    *key = k as u8;
    t.len[k] as usize
}

/// Encodes `values` (deltas from `prev` if `DELTA`) into `out`, which holds
/// the encoded length; returns it.
#[target_feature(enable = "neon")]
fn encode<F: Format, const DELTA: bool>(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    let cl = control_len(values.len());
    let (ctrl, data) = out.split_at_mut(cl);
    let base = data.as_mut_ptr();
    let room = data.len();
    let mut pos = 0;
    let mut prev_v = vdupq_n_u32(prev);
    let (groups, _) = values.as_chunks::<4>();
    let mut done = 0;
    for (key, group) in ctrl.iter_mut().zip(groups) {
        if room - pos < 16 {
            break;
        }
        // SAFETY: `group` is 16 readable bytes.
        let raw = unsafe { vld1q_u32(group.as_ptr()) };
        let v = if DELTA {
            let d = vsubq_u32(raw, vextq_u32::<3>(prev_v, raw));
            prev_v = raw;
            d
        } else {
            raw
        };
        // SAFETY: 16 bytes of `data` remain at `pos` (checked above).
        pos += unsafe { put_group::<F>(key, base.wrapping_add(pos), v) };
        done += 4;
    }
    let last = if DELTA && done > 0 {
        values[done - 1]
    } else {
        prev
    };
    scalar::encode_from::<F, DELTA>(values, last, out, done, cl + pos)
}
