//! AVX-512 Masked VByte: the SSE4.1 / AVX2 kernel set (`kernels.rs`,
//! algorithms and bounds in `sse41.rs`) with its own bulk loop
//! ([`decode_bulk512`]) for long u32 decodes, sixteen values per step.
//!
//! Per step, 64 bytes at the data offset are loaded and `vpmovb2m` makes
//! their continuation mask `c` in one instruction. Then:
//! - `c == 0` and 64 values of room: 64 one-byte values, four `vpmovzxbd`;
//! - the low 16 bits clear: sixteen one-byte values, one `vpmovzxbd`;
//! - else, when the 64 bytes hold sixteen values of at most 4 bytes (the
//!   16th clear bit found with `pdep`, no four set bits in a row before
//!   it): `vpcompressb` of the byte indices by the clear bits gives the
//!   sixteen values' last bytes, and from them their lengths (a one-byte
//!   shift and a subtract); `vpermb` spreads each length over its value's
//!   four bytes and one compare with `j % 4` gives the expand mask, so
//!   `vpexpandb` puts each value's bytes in its own 32-bit lane. Clearing
//!   the high bits and two multiply-adds (`vpmaddubsw` by 1 and 128, then
//!   `vpmaddwd` by 1 and 2^14) join the 7-bit groups. Such a value has at
//!   most 28 bits: no overflow check is needed;
//! - otherwise (a 5-byte value, or fewer than sixteen values in 64 bytes)
//!   one step of the shared 128-bit loop (`step`: twelve one-byte values
//!   or a table step), and the next step is wide again.
//!
//! Delta decoding adds the sixteen-lane prefix sum (`codec::x86::running16`).
//!
//! The continuation bits are made 64 bytes at a time a refill ahead of the
//! steps, so the chain from step to step is `pdep`, `tzcnt` and a shift
//! (making them from the bytes at the step's offset put a load on it:
//! 3-byte values 0.43 -> 1.86 G ints/s).
//!
//! **AMD Zen** ([`Tuning::Zen`](crate::isa::Tuning) and `Zen4`), measured on a Zen 5
//! EPYC. Made one refill ahead, the continuation bits are still on the step
//! chain there: every step ran about 40 cycles whatever the value lengths
//! (1.73 G ints/s for 2-byte, 3-byte and mixed values alike, where the AVX2
//! kernel reads 2.9 on 2-byte values), and a loop of just a 64-byte load,
//! `vpmovb2m`, `kmovq` and the next address from the mask took 34 cycles
//! an iteration. Made three refills ahead: 2.2-2.7 G ints/s (all-one-byte
//! data 19.6 -> 13.8, still the AVX2 kernel's speed); postings decode
//! 1.39x -> 1.92x of MaskedVByte, the `ints` suite 1.03x -> 1.26x. Two
//! ahead was no faster than one, and a ring of four no faster either; the
//! Intel loop keeps one (its measured form), and so do decodes under
//! `ZEN_LONG` (128) values, whose masks made ahead cost more than they
//! save (32 and 64 ints 18 -> 24 and 36 -> 39 ns).
//!
//! The sixteen-lane prefix sum of delta decoding (five 512-bit shuffles
//! per sixteen values) still costs more on Zen 5 than the AVX2 loop's
//! 128-bit one on long and dense lists: so with `Tuning::Zen`, delta
//! decodes of `ZEN_LONG` (128) values or more take the shared bulk
//! loop (`decode_bulk`). Postings delta decode against MaskedVByte, median
//! over buckets: ClusterData 1.16x before either change, 1.56x with the
//! bits three ahead alone, 1.52x with both; europarl 1.37x, 1.44x, 1.96x.
//! Below 128 values this loop still wins (2^5-int lists 0.90 against
//! 0.56 G ints/s).
//!
//! On **Zen 4** (`Tuning::Zen4`) the shared loop wins a long delta decode
//! only where the values have one or two bytes (`short_values`: at most
//! one value of three bytes or more in the first 256 bytes); elsewhere
//! this loop runs it, three refills ahead. ClusterData postings, delta
//! decode over MaskedVByte by bucket (`intcodec bench --suite postings
//! --family vbyte`, 2026-12-07): with the shared loop for every long
//! delta decode, 2^9..2^13 ints 0.94x-1.22x, 2^14..2^16 1.20x-1.30x
//! (median 1.18x-1.21x); with this loop for all, 1.22x-1.54x and
//! 1.02x-1.28x (median 1.48x); as now, 1.22x-1.60x and 1.20x-1.34x
//! (median 1.42x). A one-byte run's delta takes its prefix sums from
//! its bytes (`prefix16_dwords`, VNNI), and the running total is
//! broadcast in registers when the output is not 32-byte aligned, as in
//! Stream VByte's loop (`running16`); neither moved these figures.
//!
//! Short lists: a checked decode of 3 to 16 values (`decode_short512`)
//! is one masked load of the input's first 64 bytes (none past its end),
//! one such step and a masked store, when it applies (else the shared
//! short path): 4, 8 and 16 ints 10.5, 18.3 and 29.0 ns -> 7.2 ns each,
//! MaskedVByte 8.8, 14.8 and 24.6 (short suite, Xeon). One or two values
//! stay with the scalar `decode_short` (3.9 and 5.5 ns).
//!
//! Measured on a Xeon (Sapphire Rapids class) against MaskedVByte:
//! postings of 2^10..2^16 ints decode 0.91x (AVX2 kernel) -> 1.70x, delta
//! 1.04x -> 2.05x; the ints suite (4096 random values of 1, 2, 3, 4
//! significant bytes, mixed) 1.41x, 1.76x, 2.66x, 1.57x and 1.79x.
//! The loop stops where the shared bulk loop would: fewer than 64 bytes
//! in `src`'s window at the offset, fewer than 16 values of room, or a
//! step the table cannot take; the shared main loop, the short steps and
//! the scalar decoder finish (and report errors) as on AVX2.
//!
//! Bounds: a 64-byte load at `pos` only when `pos + 64 <= window`, stores
//! of sixteen values only when 16 remain in `out` (64 only when 64 remain).
//! Everything else (short lists, u64, encode, select, seek, trusted count
//! through the shared loops) is the AVX2 algorithm compiled with these
//! features. Requires AVX-512 F, BW, VL, VBMI, VBMI2, VNNI, AVX2, BMI1,
//! BMI2, POPCNT.

super::kernels::masked_vbyte_kernels!(
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt",
    Isa::Avx512,
    bulk: decode_bulk512,
    first: decode_short512
);
super::seek::masked_vbyte_seek!(
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
);

use crate::codec::x86::{load64, prefix16, prefix16_dwords, running_from, totals_in_regs, IOTA64};

/// With a Zen tuning ([`Tuning::is_zen`](crate::isa::Tuning::is_zen)), a
/// decode of this many values or more is long: its continuation bits are
/// made three refills ahead (a shorter one keeps one, as on Intel: the
/// masks made ahead cost 32- and 64-int lists 18 -> 24 and 36 -> 39 ns), and a long delta decode runs the shared (AVX2) bulk
/// loop instead of [`decode_bulk512`]'s (module docs).
const ZEN_LONG: usize = 128;

/// Byte `j` of the table `which`: 1 `j / 4`, 2 `j % 4`, 3 `j / 8`, 4
/// `j % 8`.
const fn bytes64(which: u8) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        t[j] = match which {
            1 => j / 4,
            2 => j % 4,
            3 => j / 8,
            _ => j % 8,
        } as u8;
        j += 1;
    }
    t
}

/// Byte `j` is `j / 4`: each value's length to its four bytes.
static DIV4: [u8; 64] = bytes64(1);
/// Byte `j` is `j % 4`: byte `k` of a value is stored when its length
/// exceeds `k`.
static MOD4: [u8; 64] = bytes64(2);
/// The same for eight values in 64-bit lanes.
static DIV8: [u8; 64] = bytes64(3);
static MOD8: [u8; 64] = bytes64(4);

/// Continuation bits of 64 bytes (`vpmovb2m`).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn mask64(blk: &[u8; 64]) -> u64 {
    _mm512_movepi8_mask(load64(blk))
}

/// Stores sixteen values (deltas if `DELTA`, made running from `acc`).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn put16<const DELTA: bool>(dst: &mut [u32; 16], v: __m512i, acc: &mut __m512i) {
    if DELTA {
        put_running(dst, prefix16(v), acc);
    } else {
        // SAFETY: `dst` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) };
    }
}

/// Stores sixteen running values: the prefix sums `local` of sixteen
/// deltas from `acc`, which becomes the last of them. Zen: the total is
/// broadcast in registers unless `dst` is 32-byte aligned (`running16`),
/// chosen at each store: the table steps of twelve values leave the
/// output at any multiple of 16 bytes.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn put_running(dst: &mut [u32; 16], local: __m512i, acc: &mut __m512i) {
    let v = if totals_in_regs(dst.as_ptr()) {
        running_from::<true>(local, dst, acc)
    } else {
        running_from::<false>(local, dst, acc)
    };
    // SAFETY: `dst` is 64 writable bytes.
    unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) };
}

/// The first values in the 64 bytes `data`, whose clear continuation bits
/// are `t`, one to each lane of `W` bytes (`div` and `modw`: byte `j`'s
/// lane `j / W` and place `j % W`), 7-bit groups joined in pairs: 16-bit
/// words `b0 + 128 b1`, `b2 + 128 b3`, ... of each lane.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn pairs(data: __m512i, t: u64, iota: __m512i, div: __m512i, modw: __m512i) -> __m512i {
    // Bytes 0..: one past each value's last byte.
    let ends = _mm512_add_epi8(_mm512_maskz_compress_epi8(t, iota), _mm512_set1_epi8(1));
    // Each value's first byte: the previous value's end (0 for the first).
    let starts = _mm512_bslli_epi128::<1>(ends);
    let lens = _mm512_sub_epi8(ends, starts);
    let keep = _mm512_cmpgt_epu8_mask(_mm512_permutexvar_epi8(div, lens), modw);
    let v = _mm512_maskz_expand_epi8(keep, data);
    let v = _mm512_and_si512(v, _mm512_set1_epi8(0x7F));
    _mm512_maddubs_epi16(_mm512_set1_epi16(0x8001u16 as i16), v)
}

/// Stores sixteen one-byte values, the bytes `b` widened (`vpmovzxbd`).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn put_ones<const DELTA: bool>(dst: &mut [u32; 16], b: &[u8; 16], acc: &mut __m512i) {
    if DELTA {
        // Their prefix sums straight from the bytes (VNNI, no shuffle;
        // `prefix16_dwords`), as Stream VByte's one-byte blocks.
        // SAFETY: `b` is 16 readable bytes, four dwords 4 bytes apart.
        put_running(dst, unsafe { prefix16_dwords::<4>(b.as_ptr()) }, acc);
        return;
    }
    // SAFETY: `b` is 16 readable bytes.
    let b = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
    put16::<DELTA>(dst, _mm512_cvtepu8_epi32(b), acc);
}

/// Sixteen values of 1 to 4 bytes from the 64 bytes `data`, whose clear
/// continuation bits are `t`: the values' lanes, ready to store.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn sixteen(data: __m512i, t: u64, tables: &[__m512i; 5]) -> __m512i {
    let [iota, div4, mod4, _, _] = *tables;
    // Per lane: the low pair + 2^14 the high one.
    _mm512_madd_epi16(
        pairs(data, t, iota, div4, mod4),
        _mm512_set1_epi32(0x4000_0001),
    )
}

/// Eight values of 1 to 5 bytes from the 64 bytes `data`, whose clear
/// continuation bits are `t`: their lanes 0..8 (lanes 8..16 zero), and
/// whether one has more than 32 bits (a 5th byte above 0x0F; the lanes
/// keep the low 32).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn eight(data: __m512i, t: u64, tables: &[__m512i; 5]) -> (__m512i, bool) {
    let [iota, _, _, div8, mod8] = *tables;
    let pairs = pairs(data, t, iota, div8, mod8);
    // Per 64-bit lane: bytes 0..4 joined in the low 32 bits, byte 4 in
    // the high 32; the value is low + high << 28.
    let quads = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x4000_0001));
    let high = _mm512_srli_epi64::<32>(quads);
    let low = _mm512_and_si512(quads, _mm512_set1_epi64(0xFFFF_FFFF));
    let wide = _mm512_test_epi64_mask(high, _mm512_set1_epi64(0x70)) != 0;
    let v = _mm512_add_epi64(low, _mm512_slli_epi64::<28>(high));
    (_mm512_zextsi256_si512(_mm512_cvtepi64_epi32(v)), wide)
}

/// A checked decode of a list of 3 to 16 values in one step, when they
/// lie in the first 64 bytes of `input`, are at most 4 bytes long (or, for
/// up to 8 values, at most 5, none above 32 bits): one masked load of
/// those bytes (it reads none past `input`), one [`sixteen`] or
/// [`eight`] step and a masked store of the `n` values. `None` (nothing
/// written) for anything else: longer lists, and lists this does not
/// take (too long values, truncation, errors), which the shared short
/// path and loops decode and report.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn decode_short512<const DELTA: bool>(
    input: &[u8],
    out: &mut [u32],
    prev: u32,
) -> Option<Result<usize, DecodeError>> {
    let n = out.len();
    // One or two values: the scalar `decode_short` is quicker (short
    // suite, Xeon: 1 and 2 ints 4.7 and 5.8 ns against 7.4 here).
    if !(3..=16).contains(&n) {
        return None;
    }
    let have = _bzhi_u64(u64::MAX, input.len().min(64) as u32);
    // SAFETY: the masked load reads only the bytes `have` selects, the
    // first `min(len, 64)` of `input`.
    let data = unsafe { _mm512_maskz_loadu_epi8(have, input.as_ptr().cast()) };
    let c = _mm512_movepi8_mask(data) & have;
    let t = !c & have;
    if (t.count_ones() as usize) < n {
        return None;
    }
    // One past the `n`-th value's last byte.
    let used = _pdep_u64(1 << (n - 1), t).trailing_zeros() + 1;
    let upto = _bzhi_u64(u64::MAX, used);
    let run4 = c & (c >> 1) & (c >> 2) & (c >> 3);
    // `IOTA64`: the indices compressed by the clear continuation bits.
    let tables = [&IOTA64, &DIV4, &MOD4, &DIV8, &MOD8].map(|t| load64(t));
    let v = if run4 & upto == 0 {
        sixteen(data, t, &tables)
    } else if n <= 8 && run4 & (c >> 4) & upto == 0 {
        match eight(data, t, &tables) {
            (_, true) => return None,
            (v, false) => v,
        }
    } else {
        return None;
    };
    let v = if DELTA {
        _mm512_add_epi32(
            crate::codec::x86::prefix16(v),
            _mm512_set1_epi32(prev as i32),
        )
    } else {
        v
    };
    let lanes = _bzhi_u32(u32::MAX, n as u32) as u16;
    // SAFETY: the masked store writes lanes `0..n` of `out` only.
    unsafe { _mm512_mask_storeu_epi32(out.as_mut_ptr().cast(), lanes, v) };
    Some(Ok(used as usize))
}

/// The bulk of a long u32 decode on AVX-512, in place of the shared
/// `decode_bulk` (same contract: returns `(pos, i, acc)` where it
/// stopped, for the shared main loop to continue). With a Zen tuning,
/// a long decode ([`ZEN_LONG`]) makes the continuation bits three refills
/// ahead instead of one, or if delta-coded goes to `decode_bulk` (on Zen
/// 4 only for values of one and two bytes, [`short_values`]; module
/// docs).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn decode_bulk512<'a, S: Source<'a>, const DELTA: bool, const CHECKED: bool>(
    src: S,
    out: &mut [u32],
    acc: __m128i,
) -> (usize, usize, __m128i) {
    let tuning = crate::isa::tuning();
    if tuning.is_zen() && out.len() >= ZEN_LONG {
        if DELTA && (tuning != crate::isa::Tuning::Zen4 || short_values(src, out.len())) {
            return decode_bulk::<S, DELTA, CHECKED>(src, out, acc);
        }
        return bulk512::<S, DELTA, CHECKED, 3>(src, out, acc);
    }
    bulk512::<S, DELTA, CHECKED, 1>(src, out, acc)
}

/// Whether the first 256 bytes of a decode of `n` values from `src` (at
/// its start) hold at most one value of three bytes or more (two
/// continuation bits in a row): values of one and two bytes, where the
/// shared loop's table steps and 128-bit sums beat this loop's on Zen 4
/// when delta-coded (module docs).
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn short_values<'a, S: Source<'a>>(src: S, n: usize) -> bool {
    // SAFETY: nothing is decoded yet: position 0, all `n` values to come.
    let input = unsafe { src.window(0, n) };
    let Some(head) = input.first_chunk::<256>() else {
        return false;
    };
    let (blocks, _) = head.as_chunks::<64>();
    let long: u32 = blocks
        .iter()
        .map(|b| {
            let c = mask64(b);
            (c & (c >> 1)).count_ones()
        })
        .sum();
    long <= 1
}

/// [`decode_bulk512`]'s loop, the continuation bits of each 64 bytes made
/// `AHEAD` refills before they are needed.
#[target_feature(
    enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512vnni,avx2,bmi1,bmi2,popcnt"
)]
#[inline]
fn bulk512<'a, S: Source<'a>, const DELTA: bool, const CHECKED: bool, const AHEAD: usize>(
    src: S,
    out: &mut [u32],
    acc: __m128i,
) -> (usize, usize, __m128i) {
    let n = out.len();
    let mut pos = 0usize;
    let mut i = 0usize;
    let mut acc = _mm512_broadcastd_epi32(acc);
    // `IOTA64`: the indices compressed by the clear continuation bits.
    let tables = [&IOTA64, &DIV4, &MOD4, &DIV8, &MOD8].map(|t| load64(t));
    // Continuation bits of bytes `pos..covered` (bit 0: byte `pos`),
    // made 64 bytes at a time ahead of the steps, so that the step's
    // length, the one chain from step to step, is `pdep` and `tzcnt` on
    // these bits and not a load and a mask of the bytes at `pos`.
    // The next 64 bytes' bits are made `AHEAD` refills early (`ahead`), so
    // that their load and mask are not on that chain either.
    let mut sig = 0u128;
    let mut covered = 0usize;
    // `ahead[k]`: the bits of the 64 bytes at `covered + 64 k`, when they
    // were in the window as it was.
    let mut ahead = [None; AHEAD];
    loop {
        // SAFETY: `pos` ends the `i` values decoded (each step moves by
        // the bytes of the values it decodes); `n - i` are to come.
        let input = unsafe { src.window(pos, n - i) };
        if covered - pos < 64 {
            let bits = match ahead[0] {
                Some(bits) => bits,
                None => match input.get(covered..).and_then(<[u8]>::first_chunk::<64>) {
                    Some(blk) => mask64(blk),
                    None => break,
                },
            };
            // `covered - pos < 64`: the new bits fit in 128.
            sig |= u128::from(bits) << (covered - pos);
            covered += 64;
            ahead.rotate_left(1);
            ahead[AHEAD - 1] = input
                .get(covered + 64 * (AHEAD - 1)..)
                .and_then(<[u8]>::first_chunk::<64>)
                .map(|b| mask64(b));
        }
        // `pos + 64 <= covered <= input.len()`.
        let Some(blk) = input.get(pos..).and_then(<[u8]>::first_chunk::<64>) else {
            break;
        };
        let c = sig as u64;
        if c == 0 {
            if let Some(dst) = out.get_mut(i..).and_then(<[u32]>::first_chunk_mut::<64>) {
                let (quads, _) = dst.as_chunks_mut::<16>();
                let (bytes, _) = blk.as_chunks::<16>();
                for (d, b) in quads.iter_mut().zip(bytes) {
                    put_ones::<DELTA>(d, b, &mut acc);
                }
                sig >>= 64;
                pos += 64;
                i += 64;
                continue;
            }
        }
        let Some(dst) = out.get_mut(i..).and_then(<[u32]>::first_chunk_mut::<16>) else {
            break;
        };
        if c & 0xFFFF == 0 {
            let (b, _) = blk
                .split_first_chunk::<16>()
                .unwrap_or_else(|| unreachable!());
            put_ones::<DELTA>(dst, b, &mut acc);
            sig >>= 16;
            pos += 16;
            i += 16;
            continue;
        }
        let t = !c;
        if t.count_ones() >= 16 {
            // One past the sixteenth value's last byte.
            let used = _pdep_u64(1 << 15, t).trailing_zeros() + 1;
            let long = c & (c >> 1) & (c >> 2) & (c >> 3);
            if long & _bzhi_u64(u64::MAX, used) == 0 {
                let data = load64(blk);
                put16::<DELTA>(dst, sixteen(data, t, &tables), &mut acc);
                sig >>= used;
                pos += used as usize;
                i += 16;
                continue;
            }
        }
        if t.count_ones() >= 8 {
            // One past the eighth value's last byte.
            let used = _pdep_u64(1 << 7, t).trailing_zeros() + 1;
            let long = c & (c >> 1) & (c >> 2) & (c >> 3) & (c >> 4);
            if long & _bzhi_u64(u64::MAX, used) == 0 {
                let data = load64(blk);
                let (v, wide) = eight(data, t, &tables);
                // Checked: a 5th byte above 0x0F is left to the table step,
                // which reports it as every kernel does.
                if !(CHECKED && wide) {
                    put16::<DELTA>(dst, v, &mut acc);
                    sig >>= used;
                    pos += used as usize;
                    i += 8;
                    continue;
                }
            }
        }
        let (d12, _) = dst
            .split_first_chunk_mut::<12>()
            .unwrap_or_else(|| unreachable!());
        let mut a = _mm512_castsi512_si128(acc);
        // SAFETY: `blk` is 64 readable bytes; this reads the first 16.
        let data = unsafe { _mm_loadu_si128(blk.as_ptr().cast()) };
        let Some((consumed, count)) =
            step::<DELTA, CHECKED>(data, (c & 0xFFF) as usize, d12, &mut a)
        else {
            break;
        };
        acc = _mm512_broadcastd_epi32(a);
        sig >>= consumed;
        pos += consumed as usize;
        i += count;
    }
    (pos, i, _mm512_castsi512_si128(acc))
}
