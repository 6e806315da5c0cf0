//! AVX-512 VarInt-GB decoder: the chain of block addresses followed a
//! window at a time, with VBMI byte permutes, the windows at fixed offsets.
//!
//! Why: the SSSE3/AVX2 loop decodes a block with one `pshufb`, but it
//! cannot find the next control byte before it has this one's length: a
//! load of the control byte and a look-up of its length per block of four
//! values (the Stream VByte paper's reason for separating the control
//! bytes). That chain, not the shuffles, bounds it.
//!
//! How: windows of 64 bytes start every `STRIDE` = 47 bytes of the stream,
//! at offsets that do not depend on the data. A window's own blocks are
//! those that start in its first 47 bytes (they end by byte 63); its entry
//! is the offset of the first of them (0..=16: a block takes 5 to 17
//! bytes). Per window:
//! 1. Every byte `j` is treated as if it were a control byte:
//!    `next[j] = j + 5 + (sum of its four 2-bit codes)`, the offset of the
//!    block after it, by two `vpshufb` look-ups of a 16-entry table (the
//!    code sums of a nibble), one per nibble; the sum is the same in both
//!    layouts. From byte 47 on, `next[j] = j`: a fixed point.
//! 2. `next` maps the window into itself; its powers are `vpermb` of the
//!    table by itself: `next^2`, `next^4`, `next^8`, `next^16`. From any
//!    entry at most ten blocks start below 47, so `next^16[entry]` is the
//!    first block at or past 47: the next window's entry plus 47. That is
//!    the loop-carried chain, one permute and a subtract per window; the
//!    tables do not depend on it, so the windows overlap.
//! 3. The start of the `k`-th block from the entry is `next^k[entry]`: four
//!    masked permutes of the entry (lanes with bit 0 of `k` take `next`,
//!    bit 1 `next^2`, ...); the own blocks are the starts below 47.
//! 4. Each own block is decoded as in the SSSE3 kernel (its control byte,
//!    a 16-byte load after it, `pshufb` by the layout's mask, a 16-byte
//!    store), four blocks at a time: the first four always, the next four
//!    if more than four are own, the last four if more than eight. The
//!    lanes past the last own block all hold the next window's entry (the
//!    fixed point), a real block, which the next window writes again. The
//!    starts are read back from memory with volatile loads: the compiler's
//!    `vpextrb`s took the shuffle port the permutes need.
//! 5. After a window whose own blocks all took 5 bytes, a loop of its own
//!    tests the next window's control bytes (entry + 5k, one permute) and,
//!    while they are all 0 (one-byte values: dense posting gaps), writes
//!    its data bytes with one permute, three widenings and three 64-byte
//!    stores, no block decoded. (As a branch of the general loop the test
//!    slowed every other window by a third: mixed widths 2.7 against 1.7
//!    billion ints/s.)
//!
//! Delta decoding decodes the deltas through the windows, then turns them
//! into values in a second pass over them, sixteen lanes at a time
//! (`running16`, as Stream VByte and VByte); in the window loop the prefix
//! sums' shuffles took the port the permutes need (postings of 2^10..2^14
//! ints: 1.3 against 1.5 to 2.0 billion ints/s). The one-byte windows of
//! step 5 are the exception: delta-coded, they write running values
//! directly, their prefix sums made by VNNI `vpdpbusd` from each block's
//! data dword broadcast from the input (no shuffle; `one_byte_sums`), the
//! deltas written before them summed first: 4096 one-byte gaps 5.2 -> 6.6
//! billion ints/s.
//!
//! With [`Tuning::Zen`](crate::isa::Tuning::Zen), when the output is not
//! 32-byte aligned (`totals_in_regs`), the second pass broadcasts each
//! sixteen values' total with a `vpermd` (`running16::<true>`) instead of
//! reading it back from the store: on
//! Zen 5 that 4-byte load then waits for the 64-byte store, on the pass's
//! loop-carried chain. 4096 deltas on a Zen 5, G ints/s by the output's
//! offset from a 64-byte boundary (0 and 32 / 4, 16 and 60 bytes): store
//! and reload 2.9-3.0 / 1.8, `vpermd` 2.8-2.9 at every offset.
//!
//! **Zen 4** ([`Tuning::Zen4`](crate::isa::Tuning::Zen4)): 512-bit
//! permutes are two 256-bit halves there, and the permute chain of steps
//! 1-3 loses to the AVX2 loop on mixed widths, while the one-byte windows
//! of step 5 still gain. Measured on a 2-core EPYC Zen 4 (2026-12-01),
//! this kernel over the AVX2 kernel, windows from the start: arrays of
//! 4096 values of mixed widths 0.69x, of 2, 3 and 4 bytes 0.66-0.89x, of
//! one byte 2.4x; ClusterData postings of 2^9..2^11 ints 0.85-0.87x
//! (delta 0.71x), of 2^15..2^17 1.07-1.34x. So with that tuning a long
//! decode first runs `PROBE_BLOCKS` blocks in the AVX2 loop and goes on
//! with the windows only if they took at most 7 bytes a block on average
//! (`DENSE_BLOCK_BYTES`): then mixed widths 1.0x, one byte 2.6x, postings of
//! 2^9..2^11 1.0x, of 2^15..2^17 1.1-1.3x (`decode_loop`).
//!
//! Lists of fewer than `MIN_VALUES` go straight to the AVX2 loop, as does
//! everything after the windows: the last blocks, the partial or vint
//! tail, and every error (with its offset).
//!
//! Bounds: a window is taken only while twelve whole blocks remain to
//! decode (so every store of a batch is inside `out`) and, checked, while
//! 80 bytes of `input` remain at its start (a block below 64 and its 16-byte
//! load). Trusted input: the twelve blocks left from the entry (at least 60
//! bytes) plus `PADDING` cover the window, and every decoded block is a
//! real block of the stream. The window loop reports no error.
//!
//! Each window also prefetches the bytes 1 KiB ahead: it takes more
//! instructions per byte than the AVX2 loop, so the reorder buffer alone
//! reaches less far into a stream that is not in cache (arrays of 4-byte
//! values from L3: 0.74 -> 1.8 billion ints/s).
//!
//! Measured on a Xeon (Sapphire Rapids class), billions of ints per
//! second, this kernel / the AVX2 kernel / FastPFor's VarIntGB (C++):
//! ClusterData postings of 2^10..2^11 ints 2.01 / 1.23 / 1.04, of
//! 2^15..2^16 3.08 / 1.45 / 1.22; delta 1.69 / 1.22 / 1.06 and 2.32 / 1.40
//! / 1.24. Arrays of 4096 unsorted values (suite `ints`), in cache / from
//! L3: mixed widths 2.4 / 1.4 and 1.4 / 1.2 (this kernel / AVX2), one
//! byte 12 / 6.1 and 12 / 5.7, four bytes 1.9 / 1.4 and 1.8 / 1.2.
//!
//! Encode, select and seek are the AVX2 kernels' (sound here: `Isa::Avx512`
//! is only detected together with the AVX2 set). Requires AVX-512 F, BW,
//! VL, VBMI, VNNI, AVX2, BMI1, BMI2, POPCNT.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{Format, Kernels, LowFirst, Lucene};
use super::avx2;
use crate::codec::x86::{
    load16, load64, prefix16_dwords, prefix_sum, running16, totals_in_regs, IOTA64,
};
use crate::isa::{Isa, Tuning};

pub(crate) static KERNELS_LOW_FIRST: Kernels = kernels::<LowFirst>(&avx2::KERNELS_LOW_FIRST);
pub(crate) static KERNELS_LUCENE: Kernels = kernels::<Lucene>(&avx2::KERNELS_LUCENE);

const fn kernels<F: Format>(avx2: &Kernels) -> Kernels {
    Kernels {
        isa: Isa::Avx512,
        decode: decode::<F, false>,
        decode_delta: decode::<F, true>,
        decode_unchecked: decode_unchecked::<F, false>,
        decode_delta_unchecked: decode_unchecked::<F, true>,
        encode: avx2.encode,
        encode_delta: avx2.encode_delta,
        layout: F::LAYOUT,
        select_delta: avx2.select_delta,
        seek_delta: avx2.seek_delta,
    }
}

/// Per nibble, the sum of its two 2-bit codes.
static NIBBLE_CODES: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        t[n] = ((n & 3) + (n >> 2)) as u8;
        n += 1;
    }
    t
};

/// Blocks a window writes: three batches of four (at most ten start below
/// the stride).
const MAX_BLOCKS: usize = 12;

/// Bytes of `input` a checked window needs at its start: the 64-byte window,
/// and the 16-byte load after a control byte below 64.
const WINDOW_READ: usize = 64 + 16;

/// The four values of the block whose control byte is at `src`.
///
/// # Safety
/// 17 bytes are readable at `src`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni,avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn shuffled<F: Format>(src: *const u8) -> __m128i {
    let masks = &super::kernels::masks_of::<F>().0;
    // SAFETY: `src` is readable (17 bytes are: the caller's contract).
    let key = unsafe { *src };
    // SAFETY: so are the 16 after it.
    let data = unsafe { _mm_loadu_si128(src.wrapping_add(1).cast()) };
    _mm_shuffle_epi8(data, masks[key as usize])
}

/// Per output byte `i < 48` of the one-byte path, its offset from the entry
/// (`i + i / 4 + 1`: the data bytes of twelve 5-byte blocks).
static SMALL_DATA: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 48 {
        t[i] = (i + i / 4 + 1) as u8;
        i += 1;
    }
    t
};

/// Per lane `k < 16`, `5 k`: the starts of 5-byte blocks from the entry.
static FIVES: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 16 {
        t[k] = (5 * k) as u8;
        k += 1;
    }
    t
};

/// Per entry `e` (0..=16), the next window's entry when the own blocks all
/// take 5 bytes: the first `e + 5k` from the stride on, less the stride.
static SMALL_NEXT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut e = 0;
    while e < 17 {
        t[e] = ((e + 5 * (STRIDE - e).div_ceil(5)) - STRIDE) as u8;
        e += 1;
    }
    t
};

/// The window loop (see the module docs) while windows can be taken;
/// returns where it stopped: the offset of the next control byte and the
/// blocks decoded, and (`DELTA`) how many of the values written are
/// running values already, the rest deltas, and the last running value.
/// Delta-coded one-byte windows are summed as they are written (below);
/// the deltas the other windows write before one are summed then.
///
/// # Safety
/// `4 * MAX_BLOCKS <= out.len()`; checked, `WINDOW_READ <= input.len()`;
/// if `CHECKED` is false, `input` must hold a valid stream of `out.len()`
/// values followed by `PADDING` bytes.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni,avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn windows<F: Format, const DELTA: bool, const CHECKED: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> (usize, usize, usize, u32) {
    let (mut summed, mut acc) = (0, prev);
    let base = input.as_ptr();
    let len = input.len();
    let full = out.len() / 4;
    let mut start = 0; // the window's first byte
    let mut done = 0; // whole blocks decoded
                      // The entry: the offset in the window of the first block that starts in
                      // it, 0..=16, in every lane.
    let mut entry = _mm512_setzero_si512();
    let (iota, fives, small, small_next) = (
        load64(&IOTA64),
        load64(&FIVES),
        load64(&SMALL_DATA),
        load64(&SMALL_NEXT),
    );
    let codes = _mm512_broadcast_i32x4(load16(&NIBBLE_CODES));
    let iota5 = _mm512_add_epi8(iota, _mm512_set1_epi8(5));
    let nibble = _mm512_set1_epi8(0x0F);
    let stride = _mm512_set1_epi8(STRIDE as i8);
    // Invariants: entry <= 16, start + entry <= len, done <= full, block
    // `done` starts at `start + entry`.
    while full - done >= MAX_BLOCKS && (!CHECKED || len - start >= WINDOW_READ) {
        // A hint for the bytes PREFETCH ahead: a window takes many more
        // instructions per byte than the AVX2 loop, so the reorder buffer
        // alone reaches less far ahead into a stream that is not in cache.
        _mm_prefetch::<_MM_HINT_T0>(base.wrapping_add(start + PREFETCH).cast());
        // SAFETY: checked, 80 bytes of `input` remain at `start`; trusted,
        // the twelve blocks left from `start + entry` (at least 60 bytes)
        // and PADDING (16) cover 64 bytes from `start`.
        let w = unsafe { _mm512_loadu_si512(base.wrapping_add(start).cast()) };
        let dst = out[4 * done..4 * (done + MAX_BLOCKS)].as_mut_ptr();
        let lo = _mm512_and_si512(w, nibble);
        let hi = _mm512_and_si512(_mm512_srli_epi16::<4>(w), nibble);
        let sums = _mm512_add_epi8(
            _mm512_shuffle_epi8(codes, lo),
            _mm512_shuffle_epi8(codes, hi),
        );
        // Below the stride, the next block's offset (at most 46 + 17 = 63);
        // from the stride on, a fixed point.
        let next = _mm512_add_epi8(iota5, sums);
        let j1 = _mm512_mask_blend_epi8(_mm512_cmplt_epu8_mask(iota, stride), iota, next);
        let j2 = _mm512_permutexvar_epi8(j1, j1);
        let j4 = _mm512_permutexvar_epi8(j2, j2);
        let j8 = _mm512_permutexvar_epi8(j4, j4);
        let j16 = _mm512_permutexvar_epi8(j8, j8);
        // Lane k: the start of the k-th block from the entry, next^k(entry).
        let starts = _mm512_mask_permutexvar_epi8(entry, 0xAAAA, entry, j1);
        let starts = _mm512_mask_permutexvar_epi8(starts, 0xCCCC, starts, j2);
        let starts = _mm512_mask_permutexvar_epi8(starts, 0xF0F0, starts, j4);
        let starts = _mm512_mask_permutexvar_epi8(starts, 0xFF00, starts, j8);
        // The blocks that start below the stride: at least two (the entry
        // is at most 16, a block at most 17 bytes), at most ten.
        let fit = _mm512_mask_cmplt_epu8_mask(0xFFFF, starts, stride).count_ones() as usize;
        // Whether the own blocks and the next one's start are 5 apart.
        let spaced = _mm512_mask_cmpeq_epu8_mask(0xFFFF, starts, _mm512_add_epi8(entry, fives));
        let one_byte = spaced as u32 & ((2 << fit) - 1) == (2 << fit) - 1;
        let mut starts_of = [0u8; 16];
        let low = _mm512_castsi512_si128(starts);
        // SAFETY: `starts_of` is 16 writable bytes.
        unsafe { _mm_storeu_si128(starts_of.as_mut_ptr().cast(), low) };
        // The starts are read back from memory: a volatile load keeps the
        // compiler from turning each into a `vpextrb`, whose shuffle uop
        // takes the port the permutes need (mixed widths: 1.7 against 2.4
        // billion ints/s).
        // SAFETY: `k < 16`, inside `starts_of`, a plain byte array.
        let at = |k: usize| unsafe { core::ptr::read_volatile(&starts_of[k]) } as usize;
        for b in 0..MAX_BLOCKS / 4 {
            if b > 0 && fit <= 4 * b {
                break;
            }
            // SAFETY (each block): `at(k) <= 63`, so 17 bytes from
            // `start + at(k)` are inside the 80 checked above, or (trusted)
            // it is the start of a real block: one that starts below the
            // stride, or the first that does not (the fixed point), block
            // `done + fit`, which exists as `fit <= 10 < 12`. `dst` has
            // twelve blocks.
            for k in 4 * b..4 * b + 4 {
                // SAFETY: as above.
                let v = unsafe { shuffled::<F>(base.wrapping_add(start + at(k))) };
                // SAFETY: as above.
                unsafe { _mm_storeu_si128(dst.wrapping_add(4 * k).cast(), v) };
            }
        }
        // The next window's entry: the first block from the stride on, one
        // permute of a table that does not depend on the entry (the
        // loop-carried chain).
        entry = _mm512_sub_epi8(_mm512_permutexvar_epi8(entry, j16), stride);
        start += STRIDE;
        done += fit;
        if !one_byte {
            continue;
        }
        // The windows after one whose own blocks all took 5 bytes, while
        // their own blocks all have control byte 0 (one-byte values: dense
        // posting gaps): their data bytes in order with one permute,
        // widened, three 64-byte stores (the lanes past them are the next
        // window's, which rewrites them). A loop of its own: as a branch
        // of the window loop's body it slowed the other windows (mixed
        // widths 2.7 -> 1.7 billion ints/s), as a call too (the constants
        // spilled around it).
        if DELTA {
            acc = _mm_cvtsi128_si32(running_sums(&mut out[summed..4 * done], acc)) as u32;
        }
        while full - done >= MAX_BLOCKS && (!CHECKED || len - start >= WINDOW_READ) {
            // SAFETY: as above.
            let w = unsafe { _mm512_loadu_si512(base.wrapping_add(start).cast()) };
            // Lane k: where the k-th block from the entry starts if all
            // take 5 bytes; those below the stride, and whether their
            // control bytes are all 0.
            let at = _mm512_add_epi8(entry, fives);
            let own = _mm512_mask_cmplt_epu8_mask(0xFFFF, at, stride);
            let keys = _mm512_permutexvar_epi8(at, w);
            if _mm512_mask_testn_epi8_mask(own, keys, keys) != own {
                break;
            }
            let fit = own.count_ones() as usize;
            let dst = out[4 * done..4 * (done + MAX_BLOCKS)].as_mut_ptr();
            if DELTA {
                let e = entry_offset(entry);
                // SAFETY: twelve 5-byte steps from `start + e` (`e <= 16`)
                // read up to byte `e + 60` of the window: inside the 80
                // bytes checked at `start`, or (trusted) inside the twelve
                // real blocks from there (at least 60 bytes) and PADDING;
                // `dst` has twelve blocks, `fit` of them this window's (at
                // least seven, at most ten).
                acc = unsafe { one_byte_sums(base.wrapping_add(start + e + 1), fit, dst, acc) };
            } else {
                let d = _mm512_permutexvar_epi8(_mm512_add_epi8(entry, small), w);
                let v = [
                    _mm512_castsi512_si128(d),
                    _mm512_extracti32x4_epi32::<1>(d),
                    _mm512_extracti32x4_epi32::<2>(d),
                ];
                for (b, v) in v.into_iter().enumerate() {
                    let v = _mm512_cvtepu8_epi32(v);
                    // SAFETY: `dst` has twelve blocks.
                    unsafe { _mm512_storeu_si512(dst.wrapping_add(16 * b).cast(), v) };
                }
            }
            entry = _mm512_permutexvar_epi8(entry, small_next);
            start += STRIDE;
            done += fit;
        }
        if DELTA {
            summed = 4 * done;
        }
    }
    let e = entry_offset(entry);
    (start + e, done, summed, acc)
}

/// The entry (lane 0 of `entry`): the offset in its window of the first
/// block that starts there.
#[target_feature(enable = "avx512f")]
#[inline]
fn entry_offset(entry: __m512i) -> usize {
    (_mm_cvtsi128_si32(_mm512_castsi512_si128(entry)) as u32 & 0xFF) as usize
}

/// A delta-coded one-byte window's values from the data bytes of its
/// blocks (`data`: the first block's four, each next block's five bytes
/// on; the first `fit` blocks are the window's) and the running value
/// before them: 48 written at `dst` (those past `4 * fit` are the next
/// window's to rewrite); returns the last of its own. The prefix sums of
/// each four blocks come from VNNI (`prefix16_dwords`), each block's data
/// dword broadcast from the input, with no shuffle, where the widening and
/// a prefix sum over u32 lanes took five shuffles per sixteen values. The
/// groups' carries and the window's total are lane permutes of the
/// window's own sums, which do not wait for `acc`: the chain from window to
/// window is one add. (Carries read back from a scratch array, as the
/// other delta paths do, made it slower than the separate pass: 5.1 -> 4.8
/// billion ints/s on 4096 one-byte gaps; with permutes 6.6.)
///
/// # Safety
/// `data` is valid for reading 59 bytes (twelve blocks); `dst` for
/// writing 48 u32s; `1 <= fit <= 12`.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni,avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn one_byte_sums(data: *const u8, fit: usize, dst: *mut u32, acc: u32) -> u32 {
    let base = _mm512_set1_epi32(acc as i32);
    let last = _mm512_set1_epi32(15);
    let mut carry = _mm512_setzero_si512();
    let mut total = 0u32;
    for g in 0..3 {
        // SAFETY: blocks `4g..4g + 4` (the caller).
        let local = unsafe { prefix16_dwords::<5>(data.wrapping_add(20 * g)) };
        let c = _mm512_add_epi32(local, carry);
        let v = _mm512_add_epi32(c, base);
        // SAFETY: `dst` has 48 writable u32s.
        unsafe { _mm512_storeu_si512(dst.wrapping_add(16 * g).cast(), v) };
        if (4 * fit - 1) / 16 == g {
            let at = _mm512_set1_epi32((4 * fit - 1) as i32 & 15);
            total =
                _mm_cvtsi128_si32(_mm512_castsi512_si128(_mm512_permutexvar_epi32(at, c))) as u32;
        }
        carry = _mm512_permutexvar_epi32(last, c);
    }
    acc.wrapping_add(total)
}

/// How far ahead of a window its prefetch hint reaches.
const PREFETCH: usize = 1024;

/// Windows start every this many bytes; a window's own blocks are those
/// that start in its first `STRIDE` bytes (and end by byte 63).
const STRIDE: usize = 47;

/// Shorter lists go straight to the AVX2 loop: the first window's
/// latency is paid before any block is stored, and short posting lists
/// have wide gaps (ClusterData postings of 2^8..2^9 ints: windows 1.38
/// against the AVX2 kernel's 1.39 billion ints/s; 2^9..2^10: 1.61 against
/// 1.35).
const MIN_VALUES: usize = 512;
const _: () = assert!(MIN_VALUES >= 4 * MAX_BLOCKS);

/// With [`Tuning::Zen4`], the blocks a long decode starts with in the
/// AVX2 loop, to measure the stream's density (see [`decode_loop`]).
const PROBE_BLOCKS: usize = 32;
/// With [`Tuning::Zen4`], the windows are taken after the probe only if
/// its blocks took at most this many bytes each on average (an
/// all-one-byte block takes 5 bytes).
const DENSE_BLOCK_BYTES: usize = 7;
const _: () = assert!(4 * PROBE_BLOCKS <= MIN_VALUES);

/// Turns the deltas `v` (a multiple of four) into running values from
/// `prev`; returns the last (`prev` if `v` is empty), broadcast. A pass of
/// its own, after the windows decoded the deltas: in the window loop the
/// prefix sums' shuffles competed with the windows' permutes for one port
/// (postings of 2^10..2^14 ints: about 1.3 billion ints/s, the AVX2
/// kernel's speed).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni,avx2,bmi1,bmi2,popcnt")]
#[inline]
fn running_sums(v: &mut [u32], prev: u32) -> __m128i {
    let mut acc = _mm512_set1_epi32(prev as i32);
    // Zen: in registers, unless `v` is 32-byte aligned (see the header).
    let zen = totals_in_regs(v.as_ptr());
    let (sixteens, rest) = v.as_chunks_mut::<16>();
    for c in sixteens {
        // SAFETY: `c` is sixteen u32s, 64 readable bytes.
        let d = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
        let v = if zen {
            running16::<true>(d, c, &mut acc)
        } else {
            running16::<false>(d, c, &mut acc)
        };
        // SAFETY: and writable.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), v) };
    }
    let mut acc = _mm512_castsi512_si128(acc);
    let (fours, _) = rest.as_chunks_mut::<4>();
    for c in fours {
        let p = c.as_mut_ptr().cast();
        // SAFETY: `c` is four u32s, 16 bytes.
        let d = unsafe { _mm_loadu_si128(p) };
        let s;
        (s, acc) = prefix_sum(d, acc);
        // SAFETY: as above.
        unsafe { _mm_storeu_si128(p, s) };
    }
    acc
}

crate::codec::kernels::decode_entry_points!(
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vnni,avx2,bmi1,bmi2,popcnt",
    <F: Format>,
    /// The window loop while windows can be taken, then the AVX2 loop from
    /// where it stopped.
    ///
    /// With [`Tuning::Zen4`], a decode long enough for windows first runs
    /// `PROBE_BLOCKS` blocks through the AVX2 loop and takes the windows for
    /// the rest only if those blocks were dense (mostly one-byte values: the
    /// one-byte windows of step 5 gain there, while on mixed widths the
    /// permute chain of steps 1-3 loses to the AVX2 loop on Zen 4). The
    /// probe's bytes cost nothing to measure: they are where its loop stopped.
    ///
    /// # Safety
    /// If `CHECKED` is false, `input` must hold a valid stream of `out.len()`
    /// values followed by `PADDING` bytes.
    decode_loop: |input, out, prev| {
        let (mut pos, mut done, mut prev_v) = (0, 0, _mm_set1_epi32(prev as i32));
        let long = |input: &[u8], out: &[u32]| {
            out.len() >= MIN_VALUES && (!CHECKED || input.len() >= WINDOW_READ)
        };
        if !long(input, out) {
            // SAFETY: group 0 starts at 0; trusted input as given.
            return unsafe { avx2::decode_rest::<F, DELTA, CHECKED>(input, out, 0, 0, prev_v) };
        }
        if crate::isa::tuning() == Tuning::Zen4 {
            let probe = 4 * PROBE_BLOCKS;
            // SAFETY: group 0 starts at 0, `probe <= MIN_VALUES <= out.len()`;
            // trusted input: its first `probe` values are a valid stream
            // followed by more than `PADDING` bytes.
            pos = unsafe {
                avx2::decode_rest::<F, DELTA, CHECKED>(input, &mut out[..probe], 0, 0, prev_v)?
            };
            done = PROBE_BLOCKS;
            if DELTA {
                prev_v = _mm_set1_epi32(out[probe - 1] as i32);
            }
            let dense = pos <= DENSE_BLOCK_BYTES * PROBE_BLOCKS;
            if !dense || !long(&input[pos..], &out[probe..]) {
                // SAFETY: `pos` is where the probe's groups end, inside
                // `input`; group `done` starts there; trusted input as given.
                return unsafe {
                    avx2::decode_rest::<F, DELTA, CHECKED>(input, out, pos, done, prev_v)
                };
            }
        }
        let prev = _mm_cvtsi128_si32(prev_v) as u32;
        let (at, from) = (pos, 4 * done);
        let (wpos, wdone, summed, acc);
        // SAFETY: `long` checked the sizes of these parts; trusted input: the
        // rest of a valid stream from a group's start is a valid stream of the
        // rest of the values, and the padding follows it.
        (wpos, wdone, summed, acc) =
            unsafe { windows::<F, DELTA, CHECKED>(&input[at..], &mut out[from..], prev) };
        if DELTA {
            prev_v = running_sums(&mut out[from + summed..from + 4 * wdone], acc);
        }
        (pos, done) = (at + wpos, done + wdone);
        // SAFETY: pos <= len (a window's end is inside it), 4 * done <=
        // out.len(), block `done` starts at `pos`; trusted input as given.
        unsafe { avx2::decode_rest::<F, DELTA, CHECKED>(input, out, pos, done, prev_v) }
    }
);
