//! AVX-512 Stream VByte kernel set: sixteen values per step, decode and
//! encode, built on VBMI's `vpmultishiftqb` and VBMI2's byte expand and
//! compress.
//!
//! Decode, per sixteen values (four control bytes, one 32-bit key): the key
//! is broadcast to every 64-bit lane, and `vpmultishiftqb` brings to bits
//! 6..=7 of output byte `j` the code of value `j / 4` (the bits below are
//! other codes). One unsigned byte compare with per-byte thresholds (byte
//! `k` of a value is stored when its code is at least `k`, "1234"; `k + 1`,
//! byte 3 with code 3, "0124") gives the 64-bit expand mask, whose
//! population count is the block's data length. `vpexpandb` from memory
//! then places the data bytes in the lanes' low bytes, zeros above, and
//! reads exactly the bytes the mask selects: no load reaches past the
//! block's data. So the checked decoder needs one length test per block
//! and no window tail, the last partial block is the same step with the
//! mask cut to its values and a masked store, and the trusted-count
//! decoders (both variants) need no bound at all. Delta decoding adds a
//! 16-lane prefix sum (four `valignd` shifted adds). The data offset is the
//! only loop-carried chain (one add), the running total the other.
//! Measured on a Xeon (Sapphire Rapids class) against lemire/streamvbyte on
//! postings of 2^10..2^16 ints: decode 1.17x (the AVX2 kernel) to 1.56x,
//! delta decode 0.99x to 1.28x; 32 and 64-int lists 9.1 and 14.9 ns to 6.7
//! and 9.0. With `Tuning::Zen`, when the output is not 32-byte aligned,
//! the running total of each sixteen values is broadcast by `vpermd`
//! rather than stored and reloaded (`running16::<true>`): on Zen 5 the
//! reload then waits for the store (4096 deltas, G ints/s: aligned 8.2-8.5
//! either way; not aligned 3.2 reloaded, 7.1-7.2 by `vpermd`). Lists of at
//! most four values go to the scalar `decode_short` first, as on AVX2. A
//! block that runs past the input goes to the scalar kernel, which reports
//! the exact offset. Select uses the AVX2 kernel; the delta seek
//! (`seek_delta`) is the decode step with an unsigned compare in place of
//! the store, stopping at the block that holds the first hit.
//!
//! A "1234" block whose four control bytes are all zero (sixteen one-byte
//! values: most of a dense posting list's gaps) skips the mask and the
//! expand: one `vpmovzxbd` of its 16 data bytes, when 16 bytes remain
//! (else the general step, which reports a truncation), in lists of at
//! least 256 values where at least three in four blocks are such (a scan
//! of the control bytes; elsewhere the test mispredicts more than it
//! saves: shorter lists, ClusterData's mixed widths). Multishift, compare
//! and expand all use the shuffle port that the prefix sum needs too; so
//! does a key broadcast from a general
//! register, so the key is broadcast from memory (`broadcast_key`).
//! europarl.docs postings of 2^8..2^13 ints against lemire/streamvbyte:
//! decode 1.5x to 2.4x, delta decode 0.72x to 0.95-1.05x.
//!
//! Delta-coded, such a block's prefix sums come straight from its data
//! bytes (`prefix16_dwords`): each of its four data dwords broadcast from
//! memory (load port), and VNNI's `vpdpbusd` adds in every lane those
//! bytes times 0/1 weights, four multiply-adds in place of the widening
//! and the four shifted adds. In this loop every 512-bit operation runs on
//! one of two ports, and the widening and shifts (five of the nine) on one
//! of them; lemire/streamvbyte's 128-bit code has three. 4096 one-byte gaps
//! (a release program calling `decode_delta`, best of 7): 8.4 -> 9.9
//! billion ints/s; two chains of two multiply-adds plus an add: 8.8.
//!
//! Encode, per sixteen values (one 512-bit register, four control bytes):
//! three unsigned compares give, per value, whether it needs more than one,
//! two and three code steps (1234: `v > 0xFF`, `v > 0xFFFF`, `v > 0xFF_FFFF`;
//! 0124: `v > 0`, `v > 0xFF`, `v > 0xFFFF`). A value's code is the number of
//! compares it passes, so its low bit is the XOR of the three masks and its
//! high bit the middle one; `pdep` interleaves those into the four control
//! bytes. Which of the 64 bytes are significant comes straight into a mask
//! register: each value's bytes ORed downwards (two shifts, two ORs), a byte
//! kept where the result is non-zero (`vptestmb`; byte 0 always for 1234, byte
//! 3 with byte 2 for 0124). It replaced four `pdep`s of the compare masks into
//! byte positions (postings encode on a Xeon against lemire/streamvbyte:
//! 0.93x to 1.07x; delta 0.99x to 1.11x).
//! `vpcompressb` packs the kept bytes to the front of a register
//! that is stored whole (64 bytes), and the data offset advances by the mask's
//! population count. Delta coding subtracts the values shifted by one lane
//! (`valignd`), the previous register's last lane shifted in.
//!
//! The AVX2 kernels (select, seek, the encoder's tail) are sound here
//! because `Isa::Avx512` is only detected together with the AVX2 set.
//!
//! Encoder bounds: a 64-byte store happens only while 64 bytes of the data area
//! remain; the rest (and lists shorter than 64 values) go to the AVX2
//! kernel's group-at-a-time tail and then scalar, so `out` may be exactly the
//! encoded length. Requires AVX-512 F, BW, VL, VBMI, VBMI2, VNNI, AVX2, BMI1,
//! BMI2, POPCNT.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{control_len, scalar, Format, Kernels, Variant, F0124, F1234};
use super::avx2;
use crate::codec::kernels::At;
use crate::codec::x86::{prefix16, prefix16_dwords, running16, running_from, totals_in_regs};
use crate::isa::Isa;

pub(crate) static KERNELS_1234: Kernels = kernels::<F1234>(&avx2::KERNELS_1234);
pub(crate) static KERNELS_0124: Kernels = kernels::<F0124>(&avx2::KERNELS_0124);

const fn kernels<F: Format>(avx2: &Kernels) -> Kernels {
    crate::codec::kernel_table!(
        Isa::Avx512, decode<F>, decode_unchecked<F>, encode<F>;
        variant: F::VARIANT,
        select: avx2.select,
        select_delta: avx2.select_delta,
        seek_delta: seek_delta::<F>,
        decode_counted: Some(decode_counted::<F, false>),
        decode_delta_counted: Some(decode_counted::<F, true>),
    )
}

/// Per output byte `j` of a block, the rotation that brings the code of
/// value `j / 4` (bits `2i..2i+2` of the block's 32-bit key, broadcast to
/// both halves of each 64-bit lane) to bits 6..=7 of the byte
/// (`vpmultishiftqb`); the bits below it are other codes, which the
/// thresholds ignore.
static CODE_SHIFTS: [u8; 64] = {
    let mut s = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        s[j] = ((2 * (j / 4) + 64 - 6) % 64) as u8;
        j += 1;
    }
    s
};

/// Per output byte `j`, the smallest code (times 64) for which byte `j % 4`
/// of a value is stored: byte `k` of a "1234" value when its code is at
/// least `k`; of a "0124" value (0, 1, 2 or 4 bytes) when its code is at
/// least `k + 1`, byte 3 with code 3.
const fn thresholds(t: [u8; 4]) -> [u8; 64] {
    let mut s = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        s[j] = t[j % 4] << 6;
        j += 1;
    }
    s
}
static THRESHOLDS_1234: [u8; 64] = thresholds([0, 1, 2, 3]);
static THRESHOLDS_0124: [u8; 64] = thresholds([1, 2, 3, 3]);

/// The expand mask of a block of sixteen values whose four control bytes
/// are `key`: bit `4i + k` set when value `i` stores a byte `k`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn block_mask(key: __m512i, shifts: __m512i, thresholds: __m512i) -> u64 {
    let codes = _mm512_multishift_epi64_epi8(shifts, key);
    _mm512_cmpge_epu8_mask(codes, thresholds)
}

/// The vectors [`block_mask`] takes besides the key: [`CODE_SHIFTS`] and
/// the format's thresholds.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn mask_vectors<F: Format>() -> (__m512i, __m512i) {
    // SAFETY: `CODE_SHIFTS` and the thresholds are 64 readable bytes.
    let shifts = unsafe { _mm512_loadu_si512(CODE_SHIFTS.as_ptr().cast()) };
    let thresholds = match F::VARIANT {
        Variant::V1234 => &THRESHOLDS_1234,
        Variant::V0124 => &THRESHOLDS_0124,
    };
    // SAFETY: as above.
    let thresholds = unsafe { _mm512_loadu_si512(thresholds.as_ptr().cast()) };
    (shifts, thresholds)
}

/// The key of a last, partial block: its control bytes (the first four of
/// `ctrl` at most) as one little-endian word in every lane.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn tail_key(ctrl: &[u8]) -> __m512i {
    // One masked load of the one to four bytes, not a loop over them: the
    // loop's trip count varies from set to set and mispredicted on small
    // key-set blocks (uscensus2000 `contains`).
    let m = _bzhi_u32(0xF, ctrl.len().min(4) as u32) as __mmask16;
    // SAFETY: the masked load reads only the first `min(len, 4)` bytes of
    // `ctrl` (masked-off bytes are not accessed).
    let key = unsafe { _mm_maskz_loadu_epi8(m, ctrl.as_ptr().cast()) };
    _mm512_broadcastd_epi32(key)
}

/// The four control bytes `key` broadcast to every 32-bit lane, loaded
/// from memory by `vpbroadcastd`: a load-port operation. Once the loop
/// also tests the key in a general register, the compiler broadcasts
/// from that register instead, one more operation on the shuffle port
/// that bounds the block loop (decode 1.50x -> 1.31x of lemire on
/// 4096-int chunks of two-byte values, `scripts/bench-capi.sh`).
#[target_feature(enable = "avx512f")]
#[inline]
fn broadcast_key(key: &[u8; 4]) -> __m512i {
    let v: __m512i;
    // SAFETY: `key` is 4 readable bytes; the instruction reads exactly
    // them and writes only `v` (AVX-512F, enabled for this function).
    unsafe {
        core::arch::asm!(
            "vpbroadcastd {v}, dword ptr [{p}]",
            v = out(zmm_reg) v,
            p = in(reg) key.as_ptr(),
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    v
}

/// The lanes of the block whose data starts at `pos` of `base` and whose
/// expand mask is `mask`, and its data length (the mask's popcount);
/// `None` if `CHECKED` and that data runs past `len`. `vpexpandb` from
/// memory reads exactly the bytes the mask selects.
///
/// # Safety
/// As [`decode_blocks`]: if `CHECKED`, `base` is `len >= pos` readable
/// bytes; else the block's data is inside the stream at `base`.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
unsafe fn expand<const CHECKED: bool>(
    base: *const u8,
    len: usize,
    pos: usize,
    mask: u64,
) -> Option<(__m512i, usize)> {
    let used = mask.count_ones() as usize;
    if CHECKED && used > len - pos {
        return None;
    }
    // SAFETY: the expand reads the `used` bytes at `pos`, inside the
    // checked `len`, or inside the trusted stream.
    let v = unsafe { _mm512_maskz_expandloadu_epi8(mask, base.wrapping_add(pos).cast()) };
    Some((v, used))
}

/// Decodes whole and partial blocks of sixteen values from `base`, whose
/// first `control_len(out.len())` bytes are the control bytes. Each block's
/// data is read by one `vpexpandb` from memory, which reads exactly the
/// bytes its mask selects, so no load reaches past the stream's data.
/// `CHECKED`: a block runs only if its data ends within `len` bytes of
/// `base`; else returns `Err((values decoded, data offset, running
/// value))` for the scalar kernel to finish and report. Returns the data
/// offset after the last value.
///
/// # Safety
/// `base` is valid for reading `control_len(out.len())` bytes and, if
/// `CHECKED`, `len` bytes (`len >= control_len(out.len())`); if not
/// `CHECKED`, it points to a whole stream of `out.len()` values.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
unsafe fn decode_blocks<F: Format, const DELTA: bool, const CHECKED: bool>(
    base: *const u8,
    len: usize,
    out: &mut [u32],
    prev: u32,
) -> Result<usize, (usize, usize, u32)> {
    // The test for one-byte blocks mispredicts more than it saves on lists
    // shorter than 256 values (europarl.docs lists of 128..255 values:
    // decode 8.1 -> 5.2 G ints/s with it) and on lists of mixed widths
    // (`mostly_one_byte`), so it is compiled into a loop of its own.
    let dense = matches!(F::VARIANT, Variant::V1234) && out.len() >= 256 && {
        // SAFETY: the control bytes are readable (the caller).
        unsafe { mostly_one_byte(base, out.len()) }
    };
    // Zen: the running totals broadcast in registers (`running16`), unless
    // the output is 32-byte aligned, where the reload is forwarded.
    let zen = DELTA && totals_in_regs(out.as_ptr());
    match (dense, zen) {
        // SAFETY: forwarded from the caller.
        (true, false) => unsafe {
            blocks_loop::<F, DELTA, CHECKED, true, false>(base, len, out, prev)
        },
        // SAFETY: forwarded from the caller.
        (false, false) => unsafe {
            blocks_loop::<F, DELTA, CHECKED, false, false>(base, len, out, prev)
        },
        // SAFETY: forwarded from the caller.
        (true, true) => unsafe {
            blocks_loop::<F, DELTA, CHECKED, true, true>(base, len, out, prev)
        },
        // SAFETY: forwarded from the caller.
        (false, true) => unsafe {
            blocks_loop::<F, DELTA, CHECKED, false, true>(base, len, out, prev)
        },
    }
}

/// Whether at least three in four whole blocks of the `n` values whose
/// control bytes start at `base` are sixteen one-byte values (all four
/// control bytes zero). A scan of the control bytes (a sixteenth of the
/// values' size), so that lists of mixed widths keep the loop without the
/// test, which there mispredicts (ClusterData postings: decode 1.63x ->
/// 1.46x of lemire with it).
///
/// # Safety
/// `base` is valid for reading `control_len(n)` bytes.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
unsafe fn mostly_one_byte(base: *const u8, n: usize) -> bool {
    // SAFETY: the caller's contract; `n / 16 * 4 <= control_len(n)`.
    let ctrl = unsafe { core::slice::from_raw_parts(base, n / 16 * 4) };
    let (keys, _) = ctrl.as_chunks::<4>();
    let zero = keys.iter().filter(|k| u32::from_le_bytes(**k) == 0).count();
    4 * zero >= 3 * keys.len()
}

/// [`decode_blocks`], with (`DENSE`) or without the one-byte block path,
/// the running totals broadcast in registers or through memory
/// (`IN_REGS`, see `running16`).
///
/// # Safety
/// As [`decode_blocks`].
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
unsafe fn blocks_loop<
    F: Format,
    const DELTA: bool,
    const CHECKED: bool,
    const DENSE: bool,
    const IN_REGS: bool,
>(
    base: *const u8,
    len: usize,
    out: &mut [u32],
    prev: u32,
) -> Result<usize, (usize, usize, u32)> {
    let n = out.len();
    let cl = control_len(n);
    // SAFETY: the first `cl` bytes at `base` are readable (the caller).
    let ctrl = unsafe { core::slice::from_raw_parts(base, cl) };
    let (shifts, thresholds) = mask_vectors::<F>();
    let mut acc = _mm512_set1_epi32(prev as i32);
    let mut pos = cl;
    let (keys, _) = ctrl.as_chunks::<4>();
    let (blocks, rest) = out.as_chunks_mut::<16>();
    for (b, (key, dst)) in keys.iter().zip(blocks.iter_mut()).enumerate() {
        if DENSE && *key == [0; 4] && (!CHECKED || len - pos >= 16) {
            // Sixteen one-byte values (dense delta-coded lists): their 16
            // data bytes zero-extended by one `vpmovzxbd`, instead of the
            // mask's multishift and compare and the expand, all three on
            // the shuffle port that the delta's prefix sum also needs.
            // SAFETY: the block's 16 data bytes are at `pos`, inside the
            // checked `len` or inside the trusted stream.
            let v = if DELTA {
                // SAFETY: as above.
                let local = unsafe { prefix16_dwords::<4>(base.wrapping_add(pos)) };
                running_from::<IN_REGS>(local, dst, &mut acc)
            } else {
                // SAFETY: as above.
                let bytes = unsafe { _mm_loadu_si128(base.wrapping_add(pos).cast()) };
                _mm512_cvtepu8_epi32(bytes)
            };
            // SAFETY: `dst` is 64 writable bytes.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) };
            pos += 16;
            continue;
        }
        let key = if DENSE {
            broadcast_key(key)
        } else {
            _mm512_set1_epi32(u32::from_le_bytes(*key) as i32)
        };
        let mask = block_mask(key, shifts, thresholds);
        // SAFETY: forwarded from the caller.
        let Some((mut v, used)) = (unsafe { expand::<CHECKED>(base, len, pos, mask) }) else {
            return Err((16 * b, pos, _mm512_cvtsi512_si32(acc) as u32));
        };
        if DELTA {
            v = running16::<IN_REGS>(v, dst, &mut acc);
        }
        // SAFETY: `dst` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) };
        pos += used;
    }
    let r = rest.len();
    if r > 0 {
        // Its control bytes: those after the whole blocks' (at most four).
        let key = tail_key(&ctrl[4 * blocks.len()..]);
        // Only the first `r` values' bytes: the codes after them are ignored.
        let mask = block_mask(key, shifts, thresholds) & ((1u64 << (4 * r)) - 1);
        // SAFETY: forwarded from the caller.
        let Some((mut v, used)) = (unsafe { expand::<CHECKED>(base, len, pos, mask) }) else {
            return Err((n - r, pos, _mm512_cvtsi512_si32(acc) as u32));
        };
        if DELTA {
            v = _mm512_add_epi32(prefix16(v), acc);
        }
        // SAFETY: the masked store writes lanes `0..r` of `rest` only.
        unsafe { _mm512_mask_storeu_epi32(rest.as_mut_ptr().cast(), (1u16 << r) - 1, v) };
        pos += used;
    }
    Ok(pos)
}

/// The first value at or above `target` of a delta-coded stream of `n`
/// values (from `prev`), and its index: sixteen values a step, as the
/// decode loop (one `vpexpandb` of the block's data, the prefix sum, the
/// running total) with an unsigned compare instead of the store, stopping
/// at the first block holding a hit. The seek suite's baseline, the whole
/// array decoded and binary-searched, lost to the 128-bit kernel's seek
/// (0.75x on 256-value arrays, Xeon); this loop is the decode's, so it
/// wins by what it does not decode. A block whose data runs past the
/// input is left to the scalar kernel from its start, which finds a hit
/// before the cut or reports it.
///
/// # Safety
/// The CPU has the listed features (the kernel set's ISA).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
fn seek_delta<F: Format>(
    p: crate::codec::streamvbyte::seek::Parts<'_>,
    n: usize,
    prev: u32,
    target: u32,
) -> Result<Option<(usize, u32)>, crate::error::DecodeError> {
    // `Parts::of`: `ctrl` is the `control_len(n)` control bytes.
    let (ctrl, data) = (p.ctrl, p.data);
    let (base, len) = (data.as_ptr(), data.len());
    let (shifts, thresholds) = mask_vectors::<F>();
    let t = _mm512_set1_epi32(target as i32);
    let last = _mm512_set1_epi32(15);
    let mut acc = _mm512_set1_epi32(prev as i32);
    let mut pos = 0usize;
    // The first hit of `m` in `vals`, the block's values from index `i`:
    // the compress by the whole mask puts the lowest lane it keeps in lane
    // 0, so the value does not wait for the mask's round trip through a
    // general register (`kmov`, `tzcnt`, a shift, `kmov`; 1 % of a
    // `contains` on uscensus2000's sets of 3 to 17 keys, 2026-12-07).
    let hit = |vals: __m512i, i: usize, m: u16| {
        let first = _mm512_maskz_compress_epi32(m, vals);
        Some((
            i + m.trailing_zeros() as usize,
            _mm512_cvtsi512_si32(first) as u32,
        ))
    };
    // A block whose data runs past the input: the scalar seek from it.
    let from_block = |i: usize, pos: usize, acc: __m512i| {
        let acc = _mm512_cvtsi512_si32(acc) as u32;
        let at = At { i, pos, acc };
        crate::codec::streamvbyte::seek::scalar::seek_delta_from(F::BYTES, p, n, target, at)
    };
    let blocks = n / 16;
    let (keys, _) = ctrl.as_chunks::<4>();
    for (b, key) in keys[..blocks].iter().enumerate() {
        let key = _mm512_set1_epi32(u32::from_le_bytes(*key) as i32);
        let mask = block_mask(key, shifts, thresholds);
        // SAFETY: `base` is `len >= pos` readable bytes (the data part).
        let Some((v, used)) = (unsafe { expand::<true>(base, len, pos, mask) }) else {
            return from_block(16 * b, pos, acc);
        };
        let vals = _mm512_add_epi32(prefix16(v), acc);
        let m = _mm512_cmpge_epu32_mask(vals, t);
        if m != 0 {
            return Ok(hit(vals, 16 * b, m));
        }
        acc = _mm512_permutexvar_epi32(last, vals);
        pos += used;
    }
    let (i, r) = (16 * blocks, n - 16 * blocks);
    if r == 0 {
        return Ok(None);
    }
    // The last one to fifteen values, the codes past them ignored.
    let mask =
        block_mask(tail_key(&ctrl[4 * blocks..]), shifts, thresholds) & ((1u64 << (4 * r)) - 1);
    // SAFETY: as above.
    let Some((v, _)) = (unsafe { expand::<true>(base, len, pos, mask) }) else {
        return from_block(i, pos, acc);
    };
    let vals = _mm512_add_epi32(prefix16(v), acc);
    let m = _mm512_cmpge_epu32_mask(vals, t) & ((1u16 << r) - 1);
    Ok(if m != 0 { hit(vals, i, m) } else { None })
}

crate::codec::kernels::decode_entry_points!(
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt",
    <F: Format>,
    short: |input, out, prev| scalar::decode_short::<DELTA>(F::BYTES, input, out, prev),
    /// The checked (`CHECKED`) or trusted decode of a stream in `input`:
    /// the blocks, and on a block that runs past `input` the scalar kernel
    /// from that block on, which reports the exact offset.
    ///
    /// # Safety
    /// `input.len() >= control_len(out.len())`; if not `CHECKED`, `input`
    /// holds a valid stream of `out.len()` values (no padding needed: every
    /// read is one of the stream's bytes).
    decode_loop: |input, out, prev| {
        // SAFETY: `input` is `input.len()` readable bytes, at least the
        // control bytes; the rest is forwarded from the caller.
        let r = unsafe { decode_blocks::<F, DELTA, CHECKED>(input.as_ptr(), input.len(), out, prev) };
        r.or_else(|(i, pos, acc)| scalar::decode_from::<F, DELTA>(input, out, At { i, pos, acc }))
    }
);

/// Trusted-count decode (`counted.rs`): the same blocks, which read only
/// the bytes their control bytes announce, so the stream's length is not
/// needed, for both variants.
///
/// # Safety
/// `input` points to a stream of `out.len()` values of this variant.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
unsafe fn decode_counted<F: Format, const DELTA: bool>(
    input: *const u8,
    out: &mut [u32],
    prev: u32,
) -> usize {
    // SAFETY: forwarded from the caller.
    let r = unsafe { decode_blocks::<F, DELTA, false>(input, 0, out, prev) };
    r.unwrap_or(0)
}

/// Encodes `values` (deltas from `prev` if `DELTA`); `out` holds the encoded
/// length.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
fn encode<F: Format, const DELTA: bool>(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
    let cl = control_len(values.len());
    let (ctrl, data) = out.split_at_mut(cl);
    let (key_blocks, _) = ctrl.as_chunks_mut::<4>();
    let (t1, t2, t3) = match F::VARIANT {
        Variant::V1234 => (0xFF, 0xFFFF, 0xFF_FFFF),
        Variant::V0124 => (0, 0xFF, 0xFFFF),
    };
    let (t1, t2, t3) = (
        _mm512_set1_epi32(t1),
        _mm512_set1_epi32(t2),
        _mm512_set1_epi32(t3),
    );
    let mut prev_v = _mm512_set1_epi32(prev as i32);
    let mut pos = 0;
    let mut done = 0;
    let (blocks, _) = values.as_chunks::<16>();
    for (keys, block) in key_blocks.iter_mut().zip(blocks) {
        // One 64-byte store per block: stop when 64 bytes no longer remain.
        let Some(dst) = data.get_mut(pos..pos + 64) else {
            break;
        };
        // SAFETY: `block` is 16 readable u32s (64 bytes).
        let raw = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
        let v = if DELTA {
            let d = _mm512_sub_epi32(raw, _mm512_alignr_epi32::<15>(raw, prev_v));
            prev_v = raw;
            d
        } else {
            raw
        };
        let m1 = u32::from(_mm512_cmpgt_epu32_mask(v, t1));
        let m2 = u32::from(_mm512_cmpgt_epu32_mask(v, t2));
        let m3 = u32::from(_mm512_cmpgt_epu32_mask(v, t3));
        let key = _pdep_u32(m1 ^ m2 ^ m3, 0x5555_5555) | _pdep_u32(m2, 0xAAAA_AAAA);
        *keys = key.to_le_bytes();
        // Byte k of a value is significant when a byte at k or above is
        // non-zero: OR each value's bytes downwards, test them.
        let t = _mm512_or_si512(v, _mm512_srli_epi32::<8>(v));
        let w = _mm512_or_si512(t, _mm512_srli_epi32::<16>(t));
        let nz = _mm512_test_epi8_mask(w, w);
        let keep = match F::VARIANT {
            Variant::V1234 => nz | 0x1111_1111_1111_1111,
            // A value over 16 bits takes all four bytes.
            Variant::V0124 => nz | (nz & 0x4444_4444_4444_4444) << 1,
        };
        let packed = _mm512_maskz_compress_epi8(keep, v);
        // SAFETY: `dst` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), packed) };
        pos += keep.count_ones() as usize;
        done += 16;
    }
    avx2::encode_rest::<F, DELTA>(values, prev, out, done, pos)
}
