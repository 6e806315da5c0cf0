//! NEON VarInt-GB kernels (decode and delta decode; select/seek in
//! `seek/aarch64.rs`; encode is scalar), for both layouts.
//!
//! The x86 SSSE3 decoder with `tbl` (`vqtbl1q_u8`) for `pshufb`: per block,
//! read the control byte, load the 16 bytes after it, `tbl` them with the
//! control byte's mask (the shared 256-entry table per layout; its zeroing
//! index 0x80 is out of range for `tbl`, which also gives zero) into four
//! u32 lanes, store them, and advance by `1 + length[control]` (a predicted
//! branch for the all-one-byte block, as on x86). Delta decoding adds the
//! Stream VByte NEON prefix sum (`ext` against zero, twice, and `dup` of
//! lane 3). Requires NEON (baseline on AArch64).
//!
//! Bounds: a block's 16-byte load happens only when at least 17 bytes of
//! `input` remain at its control byte, so no load passes the end of
//! `input`; the last blocks, the low-first partial block or the Lucene vint
//! tail, and any truncation go to the scalar kernel, which reports the
//! error. The unchecked decoder relies on the `PADDING` (16) bytes.

use core::arch::aarch64::*;

use super::super::{scalar, Format, Kernels, LowFirst, Lucene};
use crate::codec::aarch64::prefix_sum;
use crate::codec::kernels::At;
use crate::isa::Isa;

pub(crate) static KERNELS_LOW_FIRST: Kernels = kernels::<LowFirst>();
pub(crate) static KERNELS_LUCENE: Kernels = kernels::<Lucene>();

const fn kernels<F: Format>() -> Kernels {
    crate::codec::kernel_table!(
        Isa::Neon, decode<F>, decode_unchecked<F>, scalar::encode<F>;
        layout: F::LAYOUT,
        select_delta: super::super::seek::aarch64::select_delta::<F>,
        seek_delta: super::super::seek::aarch64::seek_delta::<F>,
    )
}

crate::codec::kernels::decode_entry_points!(
    "neon",
    <F: Format>,
    /// The decode loop shared by the checked and unchecked entry points.
    ///
    /// # Safety
    /// If `CHECKED` is false, `input` must hold a valid stream of `out.len()`
    /// values followed by `PADDING` bytes.
    decode_loop: |input, out, prev| {
        let t = F::tables();
        let base = input.as_ptr();
        let len = input.len();
        let mut pos = 0;
        let mut prev_v = vdupq_n_u32(prev);
        let (groups, _) = out.as_chunks_mut::<4>();
        let mut done = 0; // groups decoded
        for dst in groups.iter_mut() {
            // Invariant: pos <= len. A block reads 17 bytes from `pos`.
            if CHECKED && len - pos < 17 {
                break;
            }
            let key = input[pos] as usize;
            // SAFETY: 17 bytes of `input` remain at `pos` (checked above), or,
            // for trusted input, the block (at least 5 bytes) plus PADDING (16).
            let data = unsafe { vld1q_u8(base.wrapping_add(pos + 1)) };
            // SAFETY: a table entry is 16 readable bytes.
            let mask = unsafe { vld1q_u8(t.decode[key].as_ptr()) };
            let mut v = vreinterpretq_u32_u8(vqtbl1q_u8(data, mask));
            if DELTA {
                (v, prev_v) = prefix_sum(v, prev_v);
            }
            // SAFETY: `dst` is four u32s, 16 writable bytes.
            unsafe { vst1q_u32(dst.as_mut_ptr(), v) };
            if key == 0 {
                pos += 5;
            } else {
                pos += 1 + t.len[key] as usize;
            }
            done += 1;
        }
        let prev = vgetq_lane_u32::<0>(prev_v);
        scalar::decode_from::<F, DELTA>(input, out, At { i: done * 4, pos, acc: prev })
    }
);
