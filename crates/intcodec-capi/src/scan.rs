//! Stream lengths for the drop-in decoders, which get a value count but no
//! input length: Stream VByte's data length from its control bytes, and
//! VByte's value ends (bytes below 0x80) counted over a byte range.
//!
//! # Why this is fast
//!
//! The drop-ins find the stream's end, then run the core's bounded decode on
//! exactly that slice. The length pass used to be a SWAR loop over 8-byte
//! words and cost 13-22% of a 4096-int decode; here it is SIMD with run-time
//! dispatch (AVX2, SSSE3 / SSE2, scalar), a few instructions per 16 or 32
//! input bytes:
//!
//! - Stream VByte: a control byte's data length is the sum of its four codes'
//!   lengths. A 16-entry nibble table (two codes per nibble, `pshufb`) gives
//!   each nibble's length (at most 8), the two nibbles of a byte are added
//!   (at most 16) and `psadbw` sums the bytes of a vector into 64-bit lanes,
//!   which cannot overflow. Both variants differ only in the table.
//! - VByte: `pcmpgtb` against -1 flags the bytes below 0x80; subtracting the
//!   flags counts them per byte lane, flushed with `psadbw` before a lane
//!   can wrap (SSE2: every 255 vectors; AVX2: four vectors per step into
//!   two counters, every 126 steps).
//!
//! The VByte count is still a pass of its own over the stream (the decode
//! cannot start before the end is known), about half of what the SWAR loop
//! cost; see bench/RESULTS.md (2026-11-26, C ABI). What was tried next
//! (bench/RESULTS.md, 2026-11-26, VByte drop-in windows), all measured
//! against this code and dropped:
//!
//! - Interleaving count and decode in windows (count the ends of a window
//!   proved to be in the stream, decode the values they close with the
//!   core's checked decoder on that sub-slice, carry on with the delta
//!   base), so the counted bytes are decoded while in L1: it does not
//!   remove the count's instructions, and every extra core call ends in the
//!   kernel's scalar tail (up to 11 values), about 16 ns each. +9.0% over
//!   the Rust call became +11.7% (4 KB windows while 1024+ values remain),
//!   +14.3% (down to 256 values) and +16% (2 KB windows, the next window
//!   prefetched before each decode).
//! - A software prefetch 1 KB ahead inside this count: +10.8%.
//! - Reading the last 31 values' bytes one by one instead of counting ever
//!   shorter windows: unchanged (+9.2%).
//!
//! The count is two vector instructions per 32 bytes (a compare with its
//! load, a subtract); what is left needs no count at all, that is a core
//! kernel that decodes against a bound that grows as it finds value ends.
//!
//! # Why no byte past the stream is read
//!
//! The stream's end is not known up front, so a vector load is only made
//! where every byte it touches is provably part of the stream:
//!
//! - Stream VByte: the `ceil(n / 4)` control bytes are the stream's first
//!   bytes (the drop-in's contract: `in` holds a stream of `n` values), and
//!   the scan loads only whole 16- or 32-byte blocks inside that slice (the
//!   rest goes byte by byte). The data bytes are never touched.
//! - VByte: the caller ([`crate::maskedvbyte_abi`]) only hands us a window
//!   it has proved to be inside the stream: with `rem` values still to come
//!   from offset `off`, the `rem` bytes from `off` belong to the stream,
//!   since each value takes at least one byte. The count loads only whole
//!   blocks inside that window, the tail byte by byte (AVX2: one more load
//!   of the window's last 32 bytes, which overlaps bytes already counted,
//!   their flags shifted out; windows under 32 bytes go byte by byte). A
//!   load at a fixed stride that merely "starts" inside the stream would not
//!   do: the block may cross the stream's end, and the end may be followed
//!   by an unmapped page (the C tests put one there).
//!
//! Every function here takes a slice and stays inside it; the `unsafe` is
//! only the intrinsics' loads (pointer reads of a chunk of the slice) and
//! the calls into `#[target_feature]` functions, whose features were
//! detected at run time when the [`Level`] was chosen (capped by the
//! codec's own kernel ISA, so `INTCODEC_ISA` applies here too).

/// The instruction set the scans use, chosen once per drop-in codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// Portable code.
    Scalar,
    /// SSSE3 (`pshufb`; the VByte count needs only SSE2).
    #[cfg(target_arch = "x86_64")]
    Ssse3,
    /// AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Level {
    /// The best level this CPU runs, capped by the codec's own kernel ISA
    /// (so `INTCODEC_ISA=scalar` makes the scans scalar too).
    pub(crate) fn for_isa(isa: intcodec::Isa) -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            use intcodec::Isa;
            let x86 = matches!(isa, Isa::Ssse3 | Isa::Sse41 | Isa::Avx2 | Isa::Avx512);
            let wide = matches!(isa, Isa::Avx2 | Isa::Avx512);
            if wide
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                return Level::Avx2;
            }
            if x86 && std::arch::is_x86_feature_detected!("ssse3") {
                return Level::Ssse3;
            }
        }
        let _ = isa;
        Level::Scalar
    }

    /// Every level this CPU runs (for the tests).
    #[cfg(test)]
    pub(crate) fn all_supported() -> Vec<Level> {
        #[allow(unused_mut)]
        let mut v = vec![Level::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("ssse3") {
                v.push(Level::Ssse3);
            }
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("popcnt")
            {
                v.push(Level::Avx2);
            }
        }
        v
    }
}

/// Data bytes per code: `[1, 2, 3, 4]` ("1234") or `[0, 1, 2, 4]` ("0124").
pub(crate) type CodeBytes = [u8; 4];

/// Data length of a control byte's four codes, for each byte value.
const fn key_lens(b: CodeBytes) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = b[k & 3] + b[(k >> 2) & 3] + b[(k >> 4) & 3] + b[k >> 6];
        k += 1;
    }
    t
}

/// Data length of a nibble's two codes, for each nibble value.
const fn nibble_lens(b: CodeBytes) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut k = 0;
    while k < 16 {
        t[k] = b[k & 3] + b[k >> 2];
        k += 1;
    }
    t
}

/// The tables of one Stream VByte variant.
pub(crate) struct SvbLens {
    /// Data bytes per code.
    pub(crate) code: CodeBytes,
    key: [u8; 256],
    /// Read by the x86 kernels only.
    #[cfg_attr(
        not(any(target_arch = "x86", target_arch = "x86_64")),
        allow(dead_code)
    )]
    nibble: [u8; 16],
}

impl SvbLens {
    pub(crate) const fn new(code: CodeBytes) -> SvbLens {
        SvbLens {
            code,
            key: key_lens(code),
            nibble: nibble_lens(code),
        }
    }

    /// Data length of control byte `key`.
    #[inline(always)]
    pub(crate) fn key(&self, key: u8) -> usize {
        self.key[key as usize] as usize
    }
}

pub(crate) static SVB_1234: SvbLens = SvbLens::new([1, 2, 3, 4]);
pub(crate) static SVB_0124: SvbLens = SvbLens::new([0, 1, 2, 4]);

/// Length in bytes of a Stream VByte stream of `n` values whose control
/// bytes are `ctrl` (exactly `ceil(n / 4)` of them): the control bytes plus
/// the data bytes their first `n` codes announce (codes past `n` in the last
/// control byte are ignored, as the decoders do).
#[inline]
pub(crate) fn svb_stream_len(lens: &SvbLens, level: Level, ctrl: &[u8], n: usize) -> usize {
    debug_assert_eq!(ctrl.len(), n.div_ceil(4));
    let full = n / 4;
    let (whole, last) = ctrl.split_at(full.min(ctrl.len()));
    let mut data = if full < 16 {
        whole.iter().map(|&k| lens.key(k)).sum()
    } else {
        svb_data_len(lens, level, whole)
    };
    if let Some(&k) = last.first() {
        // `r` codes of the last control byte count, the others do not: mask
        // them to code 0 and take off what code 0 would have added.
        let r = n % 4;
        let masked = k & ((1u8 << (2 * r)) - 1);
        data += lens.key(masked) - (4 - r) * lens.code[0] as usize;
    }
    ctrl.len() + data
}

/// Data length announced by the whole control bytes `keys`.
pub(crate) fn svb_data_len(lens: &SvbLens, level: Level, keys: &[u8]) -> usize {
    match level {
        Level::Scalar => keys.iter().map(|&k| lens.key(k)).sum(),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Level::Ssse3` is only chosen when SSSE3 was detected.
        Level::Ssse3 => unsafe { x86::svb_data_len_ssse3(lens, keys) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Level::Avx2` is only chosen when AVX2 was detected.
        Level::Avx2 => unsafe { x86::svb_data_len_avx2(lens, keys) },
    }
}

/// Number of bytes below 0x80 (VByte value ends) in `s`.
#[inline]
pub(crate) fn vbyte_ends(level: Level, s: &[u8]) -> usize {
    if s.len() < 32 {
        return ends_scalar(s);
    }
    match level {
        Level::Scalar => ends_scalar(s),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64 (the baseline of every such CPU).
        Level::Ssse3 => unsafe { x86::vbyte_ends_sse2(s) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Level::Avx2` is only chosen when AVX2 and POPCNT were
        // detected.
        Level::Avx2 => unsafe { x86::vbyte_ends_avx2(s) },
    }
}

/// [`vbyte_ends`] without SIMD: eight bytes per step, the ends counted in
/// byte lanes (one per lane per step, flushed every 255 steps), the rest
/// byte by byte.
fn ends_scalar(s: &[u8]) -> usize {
    const HI: u64 = 0x8080_8080_8080_8080;
    const M: u64 = 0x00FF_00FF_00FF_00FF;
    let sum_lanes = |x: u64| {
        let pairs = (x & M) + ((x >> 8) & M);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as usize
    };
    let mut words = s.chunks_exact(8);
    let (mut total, mut lanes, mut steps) = (0usize, 0u64, 0u32);
    for w in words.by_ref() {
        let mut a = [0u8; 8];
        a.copy_from_slice(w);
        lanes += (!u64::from_le_bytes(a) & HI) >> 7;
        steps += 1;
        if steps == 255 {
            total += sum_lanes(lanes);
            (lanes, steps) = (0, 0);
        }
    }
    total += sum_lanes(lanes);
    total + words.remainder().iter().filter(|&&b| b < 0x80).count()
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use super::SvbLens;

    /// The two 64-bit lanes of `v`, summed.
    #[inline(always)]
    fn hsum128(v: __m128i) -> usize {
        let mut a = [0u64; 2];
        // SAFETY: `a` is 16 writable bytes; unaligned store.
        unsafe { _mm_storeu_si128(a.as_mut_ptr().cast(), v) };
        (a[0] + a[1]) as usize
    }

    /// The four 64-bit lanes of `v`, summed.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn hsum256(v: __m256i) -> usize {
        hsum128(_mm_add_epi64(
            _mm256_castsi256_si128(v),
            _mm256_extracti128_si256::<1>(v),
        ))
    }

    #[target_feature(enable = "ssse3")]
    pub(super) fn svb_data_len_ssse3(lens: &SvbLens, keys: &[u8]) -> usize {
        // SAFETY: `nibble` is 16 readable bytes.
        let table = unsafe { _mm_loadu_si128(lens.nibble.as_ptr().cast()) };
        let low = _mm_set1_epi8(0x0F);
        let zero = _mm_setzero_si128();
        let mut acc = zero;
        let mut blocks = keys.chunks_exact(16);
        for b in blocks.by_ref() {
            // SAFETY: `b` is 16 readable bytes of `keys`.
            let x = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
            let lo = _mm_shuffle_epi8(table, _mm_and_si128(x, low));
            let hi = _mm_shuffle_epi8(table, _mm_and_si128(_mm_srli_epi16::<4>(x), low));
            // Each byte at most 8 + 8: `psadbw` sums them without overflow.
            acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_add_epi8(lo, hi), zero));
        }
        let rest: usize = blocks.remainder().iter().map(|&k| lens.key(k)).sum();
        hsum128(acc) + rest
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn svb_data_len_avx2(lens: &SvbLens, keys: &[u8]) -> usize {
        // SAFETY: `nibble` is 16 readable bytes.
        let t = unsafe { _mm_loadu_si128(lens.nibble.as_ptr().cast()) };
        // `vpshufb` looks up within each 128-bit half: the table in both.
        let table = _mm256_broadcastsi128_si256(t);
        let low = _mm256_set1_epi8(0x0F);
        let zero = _mm256_setzero_si256();
        let mut acc = zero;
        let mut blocks = keys.chunks_exact(32);
        for b in blocks.by_ref() {
            // SAFETY: `b` is 32 readable bytes of `keys`.
            let x = unsafe { _mm256_loadu_si256(b.as_ptr().cast()) };
            let lo = _mm256_shuffle_epi8(table, _mm256_and_si256(x, low));
            let hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16::<4>(x), low));
            acc = _mm256_add_epi64(acc, _mm256_sad_epu8(_mm256_add_epi8(lo, hi), zero));
        }
        let rest: usize = blocks.remainder().iter().map(|&k| lens.key(k)).sum();
        hsum256(acc) + rest
    }

    /// Bytes below 0x80 in `s`, 16 at a time (SSE2, part of x86-64).
    #[target_feature(enable = "sse2")]
    pub(super) fn vbyte_ends_sse2(s: &[u8]) -> usize {
        let all = _mm_set1_epi8(-1);
        let zero = _mm_setzero_si128();
        let mut total = 0;
        // 255 blocks per round: a byte lane counts at most 255.
        for round in s.chunks(16 * 255) {
            let mut acc = zero;
            let mut blocks = round.chunks_exact(16);
            for b in blocks.by_ref() {
                // SAFETY: `b` is 16 readable bytes of `s`.
                let x = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
                // Signed `x > -1`: the bytes below 0x80, as -1 (0xFF).
                acc = _mm_sub_epi8(acc, _mm_cmpgt_epi8(x, all));
            }
            total += hsum128(_mm_sad_epu8(acc, zero));
            total += blocks.remainder().iter().filter(|&&b| b < 0x80).count();
        }
        total
    }

    /// Bytes below 0x80 in `s` (at least 32 bytes), 128 at a time into two
    /// counters, then 32 at a time, then the last `len % 32` bytes from one
    /// more load of the slice's last 32 bytes (overlapping what was
    /// counted, whose flags are shifted out): no byte-by-byte tail.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) fn vbyte_ends_avx2(s: &[u8]) -> usize {
        debug_assert!(s.len() >= 32);
        let all = _mm256_set1_epi8(-1);
        let zero = _mm256_setzero_si256();
        // Signed `x > -1`: the bytes below 0x80, as -1 (0xFF).
        let ends = |b: &[u8]| {
            // SAFETY: `b` is 32 readable bytes of `s` (every caller below).
            let x = unsafe { _mm256_loadu_si256(b.as_ptr().cast()) };
            _mm256_cmpgt_epi8(x, all)
        };
        let mut total = 0;
        // A round adds at most 2 * 126 + 3 to a byte lane of `a`: no wrap.
        let mut rest = s;
        while rest.len() >= 32 {
            let (round, next) = rest.split_at((rest.len() / 32 * 32).min(128 * 126));
            let (mut a, mut b) = (zero, zero);
            let mut quads = round.chunks_exact(128);
            for q in quads.by_ref() {
                a = _mm256_sub_epi8(a, ends(&q[..32]));
                b = _mm256_sub_epi8(b, ends(&q[32..64]));
                a = _mm256_sub_epi8(a, ends(&q[64..96]));
                b = _mm256_sub_epi8(b, ends(&q[96..]));
            }
            for one in quads.remainder().chunks_exact(32) {
                a = _mm256_sub_epi8(a, ends(one));
            }
            total += hsum256(_mm256_add_epi64(
                _mm256_sad_epu8(a, zero),
                _mm256_sad_epu8(b, zero),
            ));
            rest = next;
        }
        let tail = rest.len();
        if tail > 0 {
            // The last 32 bytes of `s`; their last `tail` bytes are uncounted.
            let m = _mm256_movemask_epi8(ends(&s[s.len() - 32..])) as u32;
            total += (m >> (32 - tail)).count_ones() as usize;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small xorshift generator (the tests own their data).
    use intcodec_testkit::SplitMix64 as Rng;

    fn naive_svb(code: CodeBytes, ctrl: &[u8], n: usize) -> usize {
        let data: usize = (0..n)
            .map(|i| code[((ctrl[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize)
            .sum();
        n.div_ceil(4) + data
    }

    #[test]
    fn svb_lengths_match_a_code_by_code_sum() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for lens in [&SVB_1234, &SVB_0124] {
            for level in Level::all_supported() {
                // Every tail length around the 16- and 32-byte blocks, and
                // lengths past the small-n path.
                for n in (0..=300usize).chain([1023, 1024, 1025, 4096, 4097, 40_000]) {
                    let mut ctrl = vec![0u8; n.div_ceil(4)];
                    // Random codes, all-3 and all-0 streams.
                    for mode in 0..3 {
                        for b in ctrl.iter_mut() {
                            *b = match mode {
                                0 => rng.next_u64() as u8,
                                1 => 0xFF,
                                _ => 0,
                            };
                        }
                        let got = svb_stream_len(lens, level, &ctrl, n);
                        assert_eq!(got, naive_svb(lens.code, &ctrl, n), "{level:?} n={n}");
                    }
                }
            }
        }
    }

    #[test]
    fn svb_lengths_match_the_core() {
        use intcodec::streamvbyte::{StreamVByte, Variant};
        use intcodec::IntCodec;
        let mut rng = Rng::new(7);
        for (lens, variant) in [(&SVB_1234, Variant::V1234), (&SVB_0124, Variant::V0124)] {
            let c = StreamVByte::new().with_variant(variant);
            for n in [1usize, 3, 4, 5, 63, 64, 65, 200, 4096, 5000] {
                let ctrl: Vec<u8> = (0..n.div_ceil(4)).map(|_| rng.next_u64() as u8).collect();
                for level in Level::all_supported() {
                    let got = svb_stream_len(lens, level, &ctrl, n);
                    assert_eq!(Ok(got), c.encoded_len(&ctrl, n), "{level:?} n={n}");
                }
            }
        }
    }

    #[test]
    fn vbyte_end_counts_match_a_byte_count() {
        let mut rng = Rng::new(0xD1B5_4A32_D192_ED03);
        for level in Level::all_supported() {
            // Every tail length, lengths past the 255-block flushes of each
            // width (16 * 255, 32 * 255, 8 * 255 bytes) and all-end,
            // no-end and random bytes.
            for len in (0..=200usize).chain([2040, 2041, 4080, 4081, 8160, 8161, 9000, 70_000]) {
                for mode in 0..4 {
                    let s: Vec<u8> = (0..len)
                        .map(|_| match mode {
                            0 => rng.next_u64() as u8,
                            1 => 0x00,
                            2 => 0x80 | rng.next_u64() as u8,
                            _ => rng.next_u64() as u8 & 0x7F,
                        })
                        .collect();
                    // At every offset, so loads start unaligned too.
                    for start in [0, 1, 7, 15, 31] {
                        let w = &s[start.min(len)..];
                        let want = w.iter().filter(|&&b| b < 0x80).count();
                        assert_eq!(vbyte_ends(level, w), want, "{level:?} len={len}");
                    }
                }
            }
        }
    }
}
