//! NEON Masked VByte (Plaisance, Kurz, Lemire 2015, §IV): u32 and u64
//! decode, their delta decode, and delta select / seek. Encode uses the
//! scalar kernel (the x86 SIMD encoder is not ported yet).
//!
//! The algorithm of the x86 SSE4.1 kernel, with the same tables
//! (`crate::tables::vbyte`): the continuation bits of 48 input bytes form a
//! mask, two such masks in flight; each step looks at the low 12 bits: all
//! zero means twelve one-byte values, widened with `uxtl`; otherwise the
//! 4096-entry table gives the bytes consumed and one of 170 shuffles, in
//! three groups: six values of at most 2 bytes (`tbl`, `and`, `ushr`,
//! `orr`, widened with `uxtl`), four of at most 3 bytes, two of at most 5
//! bytes (the paper's `pmullw` method with `mul` on u16 lanes, `shl`/`ushr`
//! on u64 lanes and a second `tbl`). Delta decoding adds the NEON prefix sum
//! (`ext` against zero, twice; `dup` of lane 3).
//!
//! NEON has no `pmovmskb`. The mask of 48 bytes is made by `cmtst` against
//! 0x80, `and` with the bit weights 1, 2, .., 128 per byte, and three rounds
//! of pairwise adds (`addp`), which fold each 8 bytes into one mask byte:
//! 3 `cmtst` + 3 `and` + 3 `addp` + 1 `umov` per 48 bytes. The narrowing
//! shift (`shrn` by 4) idiom gives 4 bits per byte, which would need a
//! nibble-wise 12-bit table index; the bit-exact mask lets the tables be
//! shared with x86. Which of the two is faster on real cores is a guess
//! (unmeasured: no ARM hardware here).
//!
//! u64 (as the x86 kernel's `decode_u64`): the same steps, groups A and B
//! and the all-one-byte step widened to 64-bit lanes (`uxtl`/`uxtl2`, up to
//! three times), the delta prefix sum on two u64 lanes (`ext` against zero,
//! `dup` of lane 1); a step whose first value is longer than 3 bytes
//! decodes that one value word at a time (eight bytes per load, masked and
//! folded in general-purpose registers) and moves on by its length.
//!
//! Select / seek (as the x86 `seek.rs`): the decode step run in registers
//! without storing values. Select sums the steps before value `i` in a
//! vector accumulator (one `addv` at the end) and reads `i`'s step lane by
//! lane; seek prefix-sums every step onto the running value and compares
//! it with the target (`cmhs`, unsigned, where x86 flips sign bits for
//! `pcmpgtd`), the hit lanes made into a bit mask with `and` 1, 2, 4, 8 and
//! `addv` (x86: `movmskps`). Each step's 12 mask bits come from its own 16
//! bytes (`mask16`: `cmtst`, `and`, two `addv`), as x86 does with one
//! `pmovmskb` (more instructions than x86's one). Whether `shrn`
//! narrowing would be cheaper than these `addv` masks is a guess,
//! unmeasured (no ARM hardware here).
//!
//! Bounds: as the x86 kernel. A mask is made only from 48 bytes inside
//! `input` (near the end, 16 bytes), a step loads 16 bytes only when 16
//! remain at its offset and stores only when 12 values of `out` remain;
//! inputs shorter than 16 bytes or 12 values go straight to scalar; the rest,
//! and any value the table cannot take (overlong) or whose 5th byte is above
//! `0x0F`, is decoded by the scalar kernel, which reports the error at the
//! same offset. u64: a step loads 16 bytes only when 16 remain at its
//! offset and stores only when 12 values of `out` remain; a value longer
//! than 10 bytes or with a 10th byte above 1 goes to scalar. Select / seek:
//! a step loads 16 bytes only when they are inside `input`; seek runs a
//! step only when all its values are below `n`; an overlong value, a 5th
//! byte above `0x0F`, the tail and every error are left to the scalar walk
//! (`seek::scalar`), which reads exactly as the decoder. Trusted count
//! (`decode_counted`, `counted.rs`): the decode loop over the window `pos +
//! n - i` that the values still to come are known to hold, as the x86
//! kernel; the last values byte by byte. Requires NEON (baseline on
//! AArch64).

use core::arch::aarch64::*;

use super::super::counted::{Counted, Source};
use super::super::simd::{
    decode_u64_with, delta, seek_delta_with, select_delta_with, step_loop, table_entry, Masks,
    SeekStep,
};
use super::super::{scalar, Kernels};
use crate::codec::aarch64::{load16, prefix_sum};
use crate::error::DecodeError;
use crate::isa::Isa;
use crate::tables::vbyte::{build_shuffles, GROUP_B, GROUP_C};

pub(crate) static KERNELS: Kernels = crate::codec::kernel_table!(
    Isa::Neon, decode<>, decode_unchecked<>, scalar::encode<u32>;
    decode_u64: decode_u64::<false>,
    decode_delta_u64: decode_u64::<true>,
    select_delta: select_delta,
    seek_delta: seek_delta,
    decode_counted: decode_counted::<false>,
    decode_delta_counted: decode_counted::<true>,
);

/// The decode shuffles (`0x80`, out of range for `tbl`, gives zero).
static SHUFFLES: [[u8; 16]; 256] = build_shuffles();

/// Bit weights: byte `k` of each half gets `1 << k`.
const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// The high bit of each byte of `v`, weighted by its position in its half.
#[target_feature(enable = "neon")]
#[inline]
fn weighted(v: uint8x16_t) -> uint8x16_t {
    vandq_u8(vtstq_u8(v, vdupq_n_u8(0x80)), load16(&WEIGHTS))
}

/// Continuation bits of 48 bytes: bit `k` = high bit of byte `k`.
#[target_feature(enable = "neon")]
#[inline]
fn mask48(bytes: &[u8; 48]) -> u64 {
    let (a, rest) = bytes.split_first_chunk::<16>().expect("48 = 16 + 32");
    let (b, c) = rest.split_first_chunk::<16>().expect("32 = 16 + 16");
    let c: &[u8; 16] = c.try_into().expect("16 bytes");
    let ab = vpaddq_u8(weighted(load16(a)), weighted(load16(b)));
    let cz = vpaddq_u8(weighted(load16(c)), vdupq_n_u8(0));
    let abcz = vpaddq_u8(ab, cz);
    // Bytes 0..=5 of the result: a's two mask bytes, b's, c's.
    vgetq_lane_u64::<0>(vreinterpretq_u64_u8(vpaddq_u8(abcz, abcz))) & 0xFFFF_FFFF_FFFF
}

/// Continuation bits of 16 bytes.
#[target_feature(enable = "neon")]
#[inline]
fn mask16(bytes: &[u8; 16]) -> u64 {
    let w = weighted(load16(bytes));
    let lo = u64::from(vaddv_u8(vget_low_u8(w)));
    let hi = u64::from(vaddv_u8(vget_high_u8(w)));
    lo | hi << 8
}

/// [`Masks::fill_with`] with this kernel's 48- and 16-byte masks.
#[target_feature(enable = "neon")]
#[inline]
fn fill(masks: &mut Masks, input: &[u8]) -> bool {
    masks.fill_with(input, |blk| mask48(blk), |blk| mask16(blk))
}

/// Stores four u32 lanes at `dst[AT..AT + 4]`, prefix-summed first if
/// `DELTA`.
#[target_feature(enable = "neon")]
#[inline]
fn put32<const AT: usize, const DELTA: bool>(
    dst: &mut [u32; 12],
    v: uint32x4_t,
    acc: &mut uint32x4_t,
) {
    const { assert!(AT + 4 <= 12) };
    let v = delta::<_, DELTA>(v, acc, |v, a| prefix_sum(v, a));
    // SAFETY: `dst` is 12 writable u32s and AT + 4 <= 12 (asserted at
    // compile time).
    unsafe { vst1q_u32(dst.as_mut_ptr().wrapping_add(AT), v) }
}

/// Group A: six values of 1 or 2 bytes as u16 lanes.
#[target_feature(enable = "neon")]
#[inline]
fn six(data: uint8x16_t, shuf: uint8x16_t) -> uint16x8_t {
    let x = vreinterpretq_u16_u8(vqtbl1q_u8(data, shuf));
    let lo = vandq_u16(x, vdupq_n_u16(0x007F));
    let hi = vshrq_n_u16::<1>(vandq_u16(x, vdupq_n_u16(0x7F00)));
    vorrq_u16(lo, hi)
}

/// Group B: four values of 1 to 3 bytes as u32 lanes.
#[target_feature(enable = "neon")]
#[inline]
fn four(data: uint8x16_t, shuf: uint8x16_t) -> uint32x4_t {
    let x = vreinterpretq_u32_u8(vqtbl1q_u8(data, shuf));
    let lo = vandq_u32(x, vdupq_n_u32(0x0000_007F));
    let mid = vshrq_n_u32::<1>(vandq_u32(x, vdupq_n_u32(0x0000_7F00)));
    let hi = vshrq_n_u32::<2>(vandq_u32(x, vdupq_n_u32(0x007F_0000)));
    vorrq_u32(vorrq_u32(lo, mid), hi)
}

/// Group C: two values of 1 to 5 bytes, the paper's `pmullw` method (see
/// the x86 kernel's `two`); lanes 2 and 3 of the result are zero. Correct
/// for a 5th byte below 16, i.e. for every valid u32.
#[target_feature(enable = "neon")]
#[inline]
fn two(data: uint8x16_t, shuf: uint8x16_t) -> uint32x4_t {
    const MUL: [u16; 8] = [128, 64, 32, 16, 128, 64, 32, 16];
    const EVEN: [u8; 16] = [
        0, 2, 4, 6, 8, 10, 12, 14, 255, 255, 255, 255, 255, 255, 255, 255,
    ];
    let y = vqtbl1q_u8(vandq_u8(data, vdupq_n_u8(0x7F)), shuf);
    // SAFETY: `MUL` is 16 readable bytes.
    let mul = unsafe { vld1q_u16(MUL.as_ptr()) };
    let x = vreinterpretq_u64_u16(vmulq_u16(vreinterpretq_u16_u8(y), mul));
    let x1 = vshlq_n_u64::<8>(x);
    let a = vshrq_n_u64::<56>(vreinterpretq_u64_u8(y));
    let r = vorrq_u64(vorrq_u64(x, x1), a);
    vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u64(r), load16(&EVEN)))
}

/// Whether a group-C step's 5-byte values (if any) fit in a u32.
#[inline(always)]
fn group_c_fits(src: &[u8; 16], index: u8) -> bool {
    let code = index - GROUP_C;
    let (l0, l1) = ((code % 5) as usize + 1, (code / 5) as usize + 1);
    !(l0 == 5 && src[4] > 0x0F || l1 == 5 && src[l0 + 4] > 0x0F)
}

/// One decode step on the 16 bytes `at`, `m` the low 12 of their
/// continuation bits: twelve one-byte values when `m` is clear, else the
/// 4096-entry table's step (6, 4 or 2 values) into `dst`. `(consumed,
/// count)`, or `None` when the table cannot take the step (overlong, or if
/// `CHECKED` a 5th byte above `0x0F`): nothing is stored then.
#[target_feature(enable = "neon")]
#[inline]
fn step<const DELTA: bool, const CHECKED: bool>(
    at: &[u8; 16],
    m: usize,
    dst: &mut [u32; 12],
    acc: &mut uint32x4_t,
) -> Option<(u32, usize)> {
    let data = load16(at);
    if m == 0 {
        // Twelve one-byte values.
        let lo = vmovl_u8(vget_low_u8(data));
        let hi = vmovl_high_u8(data);
        put32::<0, DELTA>(dst, vmovl_u16(vget_low_u16(lo)), acc);
        put32::<4, DELTA>(dst, vmovl_high_u16(lo), acc);
        put32::<8, DELTA>(dst, vmovl_u16(vget_low_u16(hi)), acc);
        return Some((12, 12));
    }
    let (index, consumed) = table_entry(m)?;
    let shuf = load16(&SHUFFLES[index as usize]);
    let count = if index < GROUP_B {
        let v = six(data, shuf);
        put32::<0, DELTA>(dst, vmovl_u16(vget_low_u16(v)), acc);
        put32::<4, DELTA>(dst, vmovl_high_u16(v), acc);
        6
    } else if index < GROUP_C {
        put32::<0, DELTA>(dst, four(data, shuf), acc);
        4
    } else {
        if CHECKED && !group_c_fits(at, index) {
            return None;
        }
        put32::<0, DELTA>(dst, two(data, shuf), acc);
        2
    };
    Some((consumed, count))
}

/// The paper's decode loop (see the x86 kernel's `decode_loop`): a step
/// runs only when 16 bytes of `src`'s window (the input, or for a trusted
/// count the bytes the values to come are known to hold, `counted.rs`) are
/// readable at `pos` and 12 values of room remain in `out`; anything else
/// is left to the scalar decoder (`src.tail`), which continues at the same
/// value and byte.
#[target_feature(enable = "neon")]
#[inline]
fn decode_loop<'a, S: Source<'a>, const DELTA: bool, const CHECKED: bool>(
    src: S,
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    let n = out.len();
    let mut acc = vdupq_n_u32(prev);
    let mut masks = Masks::new();
    // SAFETY: nothing decoded yet: byte 0, `n` values to come.
    if unsafe { src.window(0, n) }.len() < 16 || n < 12 {
        // SAFETY: value 0 begins at byte 0.
        return unsafe { src.tail::<DELTA>(out, 0, 0, prev) };
    }
    // The closures run this kernel's NEON steps (they inherit its target
    // feature), outside the `unsafe` block of the loop.
    let fill = |masks: &mut Masks, input: &[u8]| fill(masks, input);
    let step = |at: &[u8; 16], m, dst: &mut [u32; 12], acc: &mut uint32x4_t| {
        step::<DELTA, CHECKED>(at, m, dst, acc)
    };
    // SAFETY: nothing decoded yet: value 0 begins at byte 0.
    let (pos, i) = unsafe { step_loop(src, out, (0, 0), &mut masks, &mut acc, fill, step) };
    let prev = vgetq_lane_u32::<0>(acc);
    // SAFETY: `pos` ends the `i` values decoded.
    unsafe { src.tail::<DELTA>(out, i, pos, prev) }
}

// The x86 kernels' short path is unmeasured here (no ARM hardware).
super::super::simd::u32_entry_points!("neon", short: false);

// ------------------------------------------------------------ u64 decode

/// Paper §IV, differential coding, on two u64 lanes: `[a, a + b]` (`ext`
/// against zero) plus the broadcast running value `acc`; returns the sums
/// and the new broadcast running value (`dup` of lane 1).
#[target_feature(enable = "neon")]
#[inline]
fn psum64(v: uint64x2_t, acc: uint64x2_t) -> (uint64x2_t, uint64x2_t) {
    let v = vaddq_u64(v, vextq_u64::<1>(vdupq_n_u64(0), v));
    let v = vaddq_u64(v, acc);
    (v, vdupq_laneq_u64::<1>(v))
}

/// Stores two u64 lanes at `dst[AT..AT + 2]`, prefix-summed first if
/// `DELTA`.
#[target_feature(enable = "neon")]
#[inline]
fn put64<const AT: usize, const DELTA: bool>(
    dst: &mut [u64; 12],
    v: uint64x2_t,
    acc: &mut uint64x2_t,
) {
    const { assert!(AT + 2 <= 12) };
    let v = delta::<_, DELTA>(v, acc, |v, a| psum64(v, a));
    // SAFETY: `dst` is 12 writable u64s and AT + 2 <= 12 (asserted at
    // compile time).
    unsafe { vst1q_u64(dst.as_mut_ptr().wrapping_add(AT), v) }
}

/// Stores the four u32 lanes of `v`, widened, at `dst[AT..AT + 4]`
/// (`AT2` is `AT + 2`, spelled out for the const generic).
#[target_feature(enable = "neon")]
#[inline]
fn put32as64<const AT: usize, const AT2: usize, const DELTA: bool>(
    dst: &mut [u64; 12],
    v: uint32x4_t,
    acc: &mut uint64x2_t,
) {
    const { assert!(AT2 == AT + 2) };
    put64::<AT, DELTA>(dst, vmovl_u32(vget_low_u32(v)), acc);
    put64::<AT2, DELTA>(dst, vmovl_high_u32(v), acc);
}

/// The u64 decoder (the x86 kernel's `decode_u64`, [`decode_u64_with`]):
/// the same mask loop; groups A and B (values of up to 2 or 3 bytes) are
/// decoded as for u32 and widened to 64 bits (`uxtl`/`uxtl2`), the
/// all-one-byte fast path too; a step whose first values are longer (group
/// C, or overlong for u32) decodes one value word-at-a-time and moves on.
/// Same bounds as the u32 loop; the rest goes to the scalar decoder.
#[target_feature(enable = "neon")]
fn decode_u64<const DELTA: bool>(
    input: &[u8],
    out: &mut [u64],
    prev: u64,
) -> Result<usize, DecodeError> {
    decode_u64_with::<_, DELTA>(
        input,
        out,
        vdupq_n_u64(prev),
        |masks, input| fill(masks, input),
        |src, m, index, dst, acc| {
            let data = load16(src);
            if m == 0 {
                // Twelve one-byte values: u8 -> u16 -> u32 -> u64.
                let lo = vmovl_u8(vget_low_u8(data));
                let hi = vmovl_high_u8(data);
                put32as64::<0, 2, DELTA>(dst, vmovl_u16(vget_low_u16(lo)), acc);
                put32as64::<4, 6, DELTA>(dst, vmovl_high_u16(lo), acc);
                put32as64::<8, 10, DELTA>(dst, vmovl_u16(vget_low_u16(hi)), acc);
                12
            } else if index < GROUP_B {
                let v = six(data, load16(&SHUFFLES[index as usize]));
                put32as64::<0, 2, DELTA>(dst, vmovl_u16(vget_low_u16(v)), acc);
                let hi = vmovl_high_u16(v);
                put64::<4, DELTA>(dst, vmovl_u32(vget_low_u32(hi)), acc);
                6
            } else {
                let v = four(data, load16(&SHUFFLES[index as usize]));
                put32as64::<0, 2, DELTA>(dst, v, acc);
                4
            }
        },
        // Group C or overlong for u32: one value, word at a time. Lane 1 is
        // zero, overwritten by the next value.
        |v, dst, acc| put64::<0, DELTA>(dst, vsetq_lane_u64::<0>(v, vdupq_n_u64(0)), acc),
        |acc| vgetq_lane_u64::<0>(acc),
    )
}

// ----------------------------------------------------------- select / seek

/// The values of one decode step at `src` with mask bits `m` (the x86
/// seek's `seek_step`): up to three vectors of four u32 lanes (unused lanes
/// zero), the number of values and of bytes; `None` if the step must go to
/// scalar (overlong, or a 5th byte above `0x0F`).
#[target_feature(enable = "neon")]
#[inline]
fn seek_step(src: &[u8; 16], m: usize) -> Option<([uint32x4_t; 3], usize, usize)> {
    let data = load16(src);
    let z = vdupq_n_u32(0);
    if m == 0 {
        let lo = vmovl_u8(vget_low_u8(data));
        let hi = vmovl_high_u8(data);
        return Some((
            [
                vmovl_u16(vget_low_u16(lo)),
                vmovl_high_u16(lo),
                vmovl_u16(vget_low_u16(hi)),
            ],
            12,
            12,
        ));
    }
    let (index, consumed) = table_entry(m)?;
    let consumed = consumed as usize;
    let shuf = load16(&SHUFFLES[index as usize]);
    if index < GROUP_B {
        let v = six(data, shuf);
        Some((
            [vmovl_u16(vget_low_u16(v)), vmovl_high_u16(v), z],
            6,
            consumed,
        ))
    } else if index < GROUP_C {
        Some(([four(data, shuf), z, z], 4, consumed))
    } else if group_c_fits(src, index) {
        Some(([two(data, shuf), z, z], 2, consumed))
    } else {
        None
    }
}

/// Four lanes as an array.
#[target_feature(enable = "neon")]
#[inline]
fn lanes(v: uint32x4_t) -> [u32; 4] {
    let mut a = [0u32; 4];
    // SAFETY: `a` is 4 writable u32s.
    unsafe { vst1q_u32(a.as_mut_ptr(), v) };
    a
}

/// The seek step at byte `pos` of `input` ([`seek_step`] on the mask of
/// its 16 bytes), `None` if fewer are left.
#[target_feature(enable = "neon")]
#[inline]
fn seek_step_at(input: &[u8], pos: usize) -> SeekStep<uint32x4_t> {
    let src = input.get(pos..)?.first_chunk::<16>()?;
    seek_step(src, (mask16(src) & 0xFFF) as usize)
}

/// Delta select of value `i < n` (from `prev`), [`select_delta_with`]: the
/// values before `i`'s step are decoded in registers and only summed
/// (`add`, one `addv` at the end); the step holding `i` is read lane by
/// lane. Each step's mask is made from its own 16 bytes ([`mask16`]).
#[target_feature(enable = "neon")]
fn select_delta(input: &[u8], n: usize, prev: u32, i: usize) -> Result<u32, DecodeError> {
    let _ = n;
    select_delta_with(
        input,
        i,
        vdupq_n_u32(0),
        |pos| seek_step_at(input, pos),
        |a, b| vaddq_u32(a, b),
        |acc| prev.wrapping_add(vaddvq_u32(acc)),
        |v| lanes(v),
    )
}

/// Lane bit weights for turning a compare into a 4-bit mask.
const LANE_BITS: [u32; 4] = [1, 2, 4, 8];

/// Delta seek: the first index `< n` whose value is at least `target`
/// ([`seek_delta_with`]). Every step is prefix-summed onto the running
/// value and compared with the target (`cmhs`, unsigned); the lanes at or
/// above it become a bit mask (`and` with 1, 2, 4, 8 and `addv`), whose
/// lowest bit is the answer.
#[target_feature(enable = "neon")]
fn seek_delta(
    input: &[u8],
    n: usize,
    prev: u32,
    target: u32,
) -> Result<Option<(usize, u32)>, DecodeError> {
    let t = vdupq_n_u32(target);
    // SAFETY: `LANE_BITS` is 4 readable u32s.
    let bits = unsafe { vld1q_u32(LANE_BITS.as_ptr()) };
    seek_delta_with(
        input,
        n,
        target,
        vdupq_n_u32(prev),
        |pos| seek_step_at(input, pos),
        |v, acc| {
            let (p, a) = prefix_sum(v, acc);
            (p, a, vaddvq_u32(vandq_u32(vcgeq_u32(p, t), bits)))
        },
        |v| lanes(v),
    )
}
