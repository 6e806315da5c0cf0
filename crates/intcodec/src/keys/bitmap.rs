//! The bitmap form of a block: its keys after the first as one bit per
//! key value between the first key and the last, for dense blocks where
//! that is shorter than both the codec's stream and the run form.
//!
//! ```text
//!  bit i (byte i / 8, bit i % 8, least significant first) is set when
//!  the key first + 1 + i is in the block, for i in 0 .. last - first;
//!  length: ceil((last - first) / 8) bytes, so the last byte is never 0
//! ```
//!
//! A block of keys `g` apart on average costs `g` bits a key as a bitmap,
//! and about `log2(largest gap) + 1` as a bit-packed block: the bitmap is
//! shorter where keys are dense and their gaps uneven, as in the posting
//! lists of frequent terms (europarl's 24 most frequent: 97% of their keys
//! in such blocks; 4.4 -> 3.1 bits a key with BP128). It is also the form
//! that answers fastest: `contains` is one bit test, and two bitmap blocks
//! intersect 56 keys at a time (a load and an AND a side).
//!
//! The reader accepts a stream whose last byte is not 0, whose set bits
//! are exactly the block's count less one, and whose last key is within
//! `u32`.

use alloc::vec::Vec;

use crate::error::{DecodeError, DecodeErrorKind};
use crate::isa::Isa;

/// The bitmap decoder's level: AVX-512 where enabled (within the
/// `INTCODEC_ISA` cap), else the portable loop.
#[inline]
pub(crate) fn best_isa() -> Isa {
    if cfg!(target_arch = "x86_64") && Isa::Avx512.is_enabled() {
        Isa::Avx512
    } else {
        Isa::Scalar
    }
}

/// The length of the bitmap form of the block `keys` (at least two keys,
/// strictly increasing).
#[inline]
pub(crate) fn encoded_len(keys: &[u32]) -> usize {
    (keys[keys.len() - 1] - keys[0]).div_ceil(8) as usize
}

/// Appends the bitmap form of the block `keys` (at least two keys,
/// strictly increasing) to `out`.
pub(crate) fn encode(keys: &[u32], out: &mut Vec<u8>) {
    let first = keys[0];
    let (old, len) = (out.len(), encoded_len(keys));
    // Room for a whole 64-bit word past the last key's: cut off at the end.
    out.resize(old + len + 8, 0);
    let bits = &mut out[old..];
    // A 64-bit word at a time in a register, stored at every key without a
    // branch: a word once left is complete (the keys increase), and words
    // no key reaches keep their zeros. A read-modify-write of a byte a
    // key, then a store when the word changed (a mispredicted branch and
    // a call of memcpy) took 15% of an intersection of europarl's
    // frequent lists.
    let (mut w, mut word) = (0usize, 0u64);
    for &k in &keys[1..] {
        let i = (k - first - 1) as usize;
        word = if i / 64 == w { word } else { 0 };
        w = i / 64;
        word |= 1 << (i % 64);
        // `i < 8 * len`, so `8 * w + 8 <= len + 8`: in `bits`.
        bits[8 * w..8 * w + 8].copy_from_slice(&word.to_le_bytes());
    }
    out.truncate(old + len);
}

/// The 64-bit little-endian word `w` of `stream` (bytes past its end read
/// as 0).
#[inline(always)]
fn word(stream: &[u8], w: usize) -> u64 {
    word_at(stream, w * 8)
}

/// The little-endian word of the 8 bytes of `stream` from byte `at` on
/// (bytes past its end read as 0).
#[inline(always)]
fn word_at(stream: &[u8], at: usize) -> u64 {
    match stream.get(at..at + 8) {
        Some(b) => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        None => {
            let mut t = [0u8; 8];
            let rest = stream.get(at..).unwrap_or(&[]);
            t[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(t)
        }
    }
}

/// The 56 bits of `stream` from bit `off` on (bit `off` lowest; bits past
/// the end read as 0): one load of the word at byte `off / 8`.
#[inline(always)]
fn bits56_at(stream: &[u8], off: usize) -> u64 {
    (word_at(stream, off / 8) >> (off % 8)) & ((1 << 56) - 1)
}

/// For each byte value, its set bits (a table: `count_ones` is a dozen
/// instructions on the baseline x86-64 target, which has no `popcnt`).
const COUNTS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).count_ones() as u8;
        b += 1;
    }
    t
};

/// For each byte value, the positions of its set bits, lowest first (the
/// rest 0), as `u32` (8 KiB: with `u8` entries, widening them cost a
/// fifth more time a decoded key).
const POSITIONS: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut i, mut n) = (0, 0);
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][n] = i as u32;
                n += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Decodes the keys after the first (`first`) of a block of `count` keys in
/// bitmap form into `out[1..count]`; returns the bytes used (all of
/// `stream`). Errors: an empty stream is `Truncated`; a last byte of 0, a
/// last key past `u32::MAX` or set bits other than `count - 1` are
/// `Malformed`, at the byte of the offending bit (the last byte for a count
/// short of bits) and with the block index of the key.
///
/// A byte at a time: the keys of its set bits from a table of positions,
/// eight written at once (the slots past its count are overwritten by the
/// next byte's), while eight slots are left; then bit by bit. A loop over
/// the set bits of 64-bit words (trailing-zero count, clear the lowest)
/// took 2.2 against 1.6 ns a key to iterate a europarl-frequent set.
pub(crate) fn decode(
    stream: &[u8],
    first: u32,
    count: usize,
    out: &mut [u32],
) -> Result<usize, DecodeError> {
    decode_with(best_isa(), stream, first, count, out)
}

/// [`decode`] on the kernel of `isa`: `Avx512` (if the CPU has it, else
/// the portable loop) or any other level for the portable loop.
pub(crate) fn decode_with(
    isa: Isa,
    stream: &[u8],
    first: u32,
    count: usize,
    out: &mut [u32],
) -> Result<usize, DecodeError> {
    let Some(&top) = stream.last() else {
        return Err(DecodeError::new(DecodeErrorKind::Truncated, 0, Some(1)));
    };
    let end = stream.len() - 1;
    // The bits below `span` hold the keys first + 1 ..= first + span.
    let span = 8 * end as u64 + 8 - u64::from(top.leading_zeros());
    if top == 0 || u64::from(first) + span > u64::from(u32::MAX) {
        return Err(DecodeError::new(DecodeErrorKind::Malformed, end, None));
    }
    let out = &mut out[..count];
    // While `n <= room`, eight slots from `n` are in `out`.
    let room = count.saturating_sub(8);
    // Within `u32`: every set bit is below `span`.
    let (done, mut n, mut base) = simd_part(isa, stream, first.wrapping_add(1), out);
    for (i, &byte) in stream.iter().enumerate().skip(done) {
        if n <= room {
            let p = &POSITIONS[usize::from(byte)];
            for (o, &q) in out[n..n + 8].iter_mut().zip(p) {
                *o = base.wrapping_add(q);
            }
            n += usize::from(COUNTS[usize::from(byte)]);
        } else {
            let mut bits = byte;
            while bits != 0 {
                let Some(o) = out.get_mut(n) else {
                    return Err(DecodeError::new(DecodeErrorKind::Malformed, i, Some(n)));
                };
                *o = base.wrapping_add(bits.trailing_zeros());
                n += 1;
                bits &= bits - 1;
            }
        }
        base = base.wrapping_add(8);
    }
    if n != count {
        return Err(DecodeError::new(DecodeErrorKind::Malformed, end, Some(n)));
    }
    Ok(stream.len())
}

/// The part of a bitmap decode the kernel of `isa` does (`base` the key of
/// bit 0, keys from `out[1]` on): the bytes done, the slots filled and the
/// key of the next byte's bit 0. The portable loop does all: `(0, 1, base)`.
#[inline]
fn simd_part(isa: Isa, stream: &[u8], base: u32, out: &mut [u32]) -> (usize, usize, u32) {
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx512 && Isa::Avx512.is_detected() {
        // SAFETY: the CPU has the `Avx512` level (checked just above), with
        // AVX-512 F and `popcnt`.
        let (done, n) = unsafe { x86::decode16(stream, base, out) };
        return (done, n, base.wrapping_add(8 * done as u32));
    }
    let _ = (isa, stream, out);
    (0, 1, base)
}

/// Whether the key `key` (`first < key`) is set in a bitmap-form block
/// whose first key is `first`.
#[inline]
pub(crate) fn contains(stream: &[u8], first: u32, key: u32) -> bool {
    let i = (key - first - 1) as usize;
    stream.get(i / 8).is_some_and(|&b| b >> (i % 8) & 1 == 1)
}

/// Whether the block in bitmap form with first key `first` and stream
/// `stream` holds `key` (`first <= key`, at most its last key).
#[inline]
pub(crate) fn holds(first: u32, stream: &[u8], key: u32) -> bool {
    key == first || contains(stream, first, key)
}

/// The first key `>= key` of a block in bitmap form whose first key is
/// below `key`, with its index in the block (`None` past its last key).
pub(crate) fn lower_bound(stream: &[u8], first: u32, key: u32) -> Option<(usize, u32)> {
    let value = next_key(stream, first, key)?;
    let off = (key - first - 1) as usize;
    let (w0, s) = (off / 64, off % 64);
    let before: usize = (0..w0).map(|w| word(stream, w).count_ones() as usize).sum();
    let head = word(stream, w0) & !(!0u64 << s);
    Some((1 + before + head.count_ones() as usize, value))
}

/// [`lower_bound`]'s key without its index: no count of the bits before
/// `key` (a popcount of every word before it, where the key itself is one
/// or two word reads away).
#[inline]
pub(crate) fn next_key(stream: &[u8], first: u32, key: u32) -> Option<u32> {
    let off = (key - first - 1) as usize;
    let mut w = off / 64;
    let mut bits = word(stream, w) & (!0u64 << (off % 64));
    while bits == 0 {
        w += 1;
        if w * 8 >= stream.len() {
            return None;
        }
        bits = word(stream, w);
    }
    Some(lowest_key(first, w, bits))
}

/// The key of the lowest set bit of `bits`, word `w` of the stream of a
/// block in bitmap form whose first key is `first`.
#[inline]
fn lowest_key(first: u32, w: usize, bits: u64) -> u32 {
    first
        .wrapping_add(1)
        .wrapping_add((w * 64) as u32)
        .wrapping_add(bits.trailing_zeros())
}

/// Key `j` (`1 <= j < count`) of a block in bitmap form.
pub(crate) fn select(stream: &[u8], first: u32, j: usize) -> Option<u32> {
    let mut left = j - 1;
    for w in 0..stream.len().div_ceil(8) {
        let mut bits = word(stream, w);
        let ones = bits.count_ones() as usize;
        if left < ones {
            for _ in 0..left {
                bits &= bits - 1;
            }
            return Some(lowest_key(first, w, bits));
        }
        left -= ones;
    }
    None
}

/// Appends the bitmap form of a block from its words (bit `i` of
/// `words`, least significant first, is the key `first + 1 + i`): the first
/// `len` bytes of their little-endian bytes (`words` holds them).
pub(crate) fn put_words(words: &[u64], len: usize, out: &mut Vec<u8>) {
    let old = out.len();
    out.reserve(len + 8);
    for w in &words[..len.div_ceil(8)] {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.truncate(old + len);
}

/// ORs the 64 bits `bits` into `words` from bit offset `at` on (bit `at %
/// 64` of word `at / 64` and up, the high ones into the next word; `words`
/// holds word `at / 64 + 1`).
#[inline(always)]
pub(crate) fn or_bits_at(words: &mut [u64], at: usize, bits: u64) {
    let (w, s) = (at / 64, at % 64);
    words[w] |= bits << s;
    // `bits >> 64` for `s == 0`, without a branch.
    words[w + 1] |= (bits >> 1) >> (63 - s);
}

/// The number of runs of consecutive set bits in `words` (bit `i` of word
/// `j` follows bit `i - 1`, and bit 0 of word `j` bit 63 of word `j - 1`).
pub(crate) fn runs_in(words: &[u64]) -> usize {
    let mut carry = 0;
    let mut n = 0;
    for &w in words {
        n += (w & !(w << 1 | carry)).count_ones() as usize;
        carry = w >> 63;
    }
    n
}

/// The keys in both blocks `x` and `y` (each given by its first key and
/// its stream in bitmap form) within `[lo, hi]` (`lo` at least both first
/// keys, `hi` at most both last keys), in order, a word of keys at a time:
/// the keys `base + i` for the set bits `i` of `m` (never 0) of each
/// `(base, m)`. One unaligned load a side and an AND per 56 keys, whatever
/// the blocks' alignments (two loads a side and 64 keys took 7% longer).
/// An iterator, not a function taking a closure, so that its loop compiles
/// into a caller's with the caller's target features (a closure was not
/// inlined, and counted bits without `popcnt`).
pub(crate) struct CommonWords<'a> {
    x: &'a [u8],
    y: &'a [u8],
    /// The bit offsets of key `lo + 1` in `x` and `y`.
    xo: usize,
    yo: usize,
    lo: u32,
    /// Keys `lo + 1 + k` are next, of `lo + 1 ..= hi` (`total` of them).
    k: usize,
    total: usize,
    /// `lo` itself is next (it is in both blocks and not yet given).
    lo_in: bool,
}

/// The words of keys in both `x` and `y` within `[lo, hi]` (see
/// [`CommonWords`]).
#[inline(always)]
pub(crate) fn common_words<'a>(
    x: (u32, &'a [u8]),
    y: (u32, &'a [u8]),
    lo: u32,
    hi: u32,
) -> CommonWords<'a> {
    CommonWords {
        x: x.1,
        y: y.1,
        xo: (lo - x.0) as usize,
        yo: (lo - y.0) as usize,
        lo,
        k: 0,
        total: (hi - lo) as usize,
        lo_in: holds(x.0, x.1, lo) && holds(y.0, y.1, lo),
    }
}

impl Iterator for CommonWords<'_> {
    type Item = (u32, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<(u32, u64)> {
        if self.lo_in {
            self.lo_in = false;
            return Some((self.lo, 1));
        }
        // Keys lo + 1 ..= hi, 56 at a time (one unaligned load a side), at
        // bit k - first - 1 of each side.
        while self.k < self.total {
            let k = self.k;
            let mut m = bits56_at(self.x, self.xo + k) & bits56_at(self.y, self.yo + k);
            if self.total - k < 56 {
                m &= (1u64 << (self.total - k)) - 1;
            }
            self.k += 56;
            if m != 0 {
                return Some((self.lo.wrapping_add(1).wrapping_add(k as u32), m));
            }
        }
        None
    }
}

/// The number of keys in both blocks `x` and `y` (as for
/// [`common_words`]) within `[lo, hi]`: counted with `popcnt` where the
/// CPU has it (the `Avx2` level; the baseline target counts bits in a
/// dozen instructions).
pub(crate) fn count_common(x: (u32, &[u8]), y: (u32, &[u8]), lo: u32, hi: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if Isa::Avx2.is_enabled() {
        // SAFETY: the CPU has the `Avx2` level, `popcnt` included (checked
        // just above).
        return unsafe { x86::count_common(x, y, lo, hi) };
    }
    count_common_in(x, y, lo, hi)
}

#[inline(always)]
fn count_common_in(x: (u32, &[u8]), y: (u32, &[u8]), lo: u32, hi: u32) -> usize {
    common_words(x, y, lo, hi)
        .map(|(_, m)| m.count_ones() as usize)
        .sum()
}

/// The keys in both blocks `x` and `y` (as for [`common_words`]) within
/// `[lo, hi]`, written to `out` in order; returns their number. The keys
/// of a word's bits written by the AVX-512 kernel where `isa` is `Avx512`,
/// the CPU has it and 64 slots are left in `out` (a loop over the set bits
/// took half of an intersection of europarl's frequent lists), else bit by
/// bit.
pub(crate) fn intersect(
    isa: Isa,
    x: (u32, &[u8]),
    y: (u32, &[u8]),
    lo: u32,
    hi: u32,
    out: &mut [u32],
) -> usize {
    let simd = isa == Isa::Avx512 && Isa::Avx512.is_detected();
    let mut n = 0;
    for (base, m) in common_words(x, y, lo, hi) {
        if simd {
            if let Some(slots) = out.get_mut(n..n + 64) {
                n += simd_word(m, base, slots.try_into().expect("64 slots"));
                continue;
            }
        }
        n += word_keys(m, base, &mut out[n..]);
    }
    n
}

/// The keys `base + i` of the set bits `i` of `m` written to `out` in
/// order, bit by bit; returns their number.
#[inline]
pub(crate) fn word_keys(mut m: u64, base: u32, out: &mut [u32]) -> usize {
    let mut n = 0;
    while m != 0 {
        out[n] = base.wrapping_add(m.trailing_zeros());
        n += 1;
        m &= m - 1;
    }
    n
}

/// The keys `first + 1 + i` of the set bits `i` of `words` (bit `i % 64`
/// of word `i / 64`) written to `out` in order (room for them and 64
/// more); returns their number. A word at a time by the AVX-512 kernel
/// where the CPU has it (through a buffer and a copy, a call of `memcpy` a
/// word took 2% of an intersection of europarl's frequent lists).
pub(crate) fn words_keys(words: &[u64], first: u32, out: &mut [u32]) -> usize {
    let mut n = 0;
    for (i, &m) in words.iter().enumerate() {
        if m != 0 {
            let base = first.wrapping_add(1 + 64 * i as u32);
            let slots = (&mut out[n..n + 64]).try_into().expect("64 slots");
            n += simd_word(m, base, slots);
        }
    }
    n
}

/// The keys `base + i` of the set bits `i` of `m` written to `slots` in
/// order by the AVX-512 kernel (the CPU has it); returns their number.
#[inline]
fn simd_word(m: u64, base: u32, slots: &mut [u32; 64]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if Isa::Avx512.is_detected() {
        // SAFETY: the CPU has the `Avx512` level (checked just above), with
        // AVX-512 F and `popcnt`.
        return unsafe { x86::word64(m, base, slots) };
    }
    word_keys(m, base, slots)
}

/// The AVX-512 bitmap decode: sixteen bits a step, the keys of the set
/// bits packed by one `vpcompressd` of sixteen consecutive keys and stored
/// whole (the slots past the step's count are overwritten by the next
/// step's), while sixteen slots are left in `out`; the portable loop does
/// the rest. About five instructions per sixteen bits, against about
/// sixteen per eight bits for the portable loop's table.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    /// [`super::count_common`] compiled with `popcnt`.
    ///
    /// # Safety
    ///
    /// The CPU must have `popcnt`.
    #[target_feature(enable = "popcnt")]
    pub(super) unsafe fn count_common(x: (u32, &[u8]), y: (u32, &[u8]), lo: u32, hi: u32) -> usize {
        super::count_common_in(x, y, lo, hi)
    }

    /// Decodes the bytes of `stream` two at a time while sixteen slots are
    /// left in `out` (from slot 1; `base` the key of bit 0); returns the
    /// bytes done and the slots filled (1 + the keys written). Never
    /// errs: a step writes at most sixteen keys into room for sixteen.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and `popcnt` (every CPU of the `Avx512`
    /// level).
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) unsafe fn decode16(stream: &[u8], base: u32, out: &mut [u32]) -> (usize, usize) {
        let room = out.len().saturating_sub(16);
        let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let mut keys = _mm512_add_epi32(iota, _mm512_set1_epi32(base as i32));
        let sixteen = _mm512_set1_epi32(16);
        let (pairs, _) = stream.as_chunks::<2>();
        let (mut n, mut done) = (1usize, 0usize);
        for pair in pairs {
            if n > room {
                break;
            }
            let mask = u16::from_le_bytes(*pair);
            let packed = _mm512_maskz_compress_epi32(mask, keys);
            let slots = &mut out[n..n + 16];
            // SAFETY: `slots` is 16 writable u32s (64 bytes).
            unsafe { _mm512_storeu_si512(slots.as_mut_ptr().cast(), packed) };
            n += mask.count_ones() as usize;
            keys = _mm512_add_epi32(keys, sixteen);
            done += 2;
        }
        (done, n)
    }

    /// The keys `base + i` of the set bits `i` of `m` packed into `slots`,
    /// sixteen bits a step (each step stores sixteen slots from the count
    /// so far: at most 48 + 16); returns their number.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and `popcnt`.
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) unsafe fn word64(m: u64, base: u32, slots: &mut [u32; 64]) -> usize {
        let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let mut keys = _mm512_add_epi32(iota, _mm512_set1_epi32(base as i32));
        let sixteen = _mm512_set1_epi32(16);
        let mut n = 0usize;
        for step in 0..4 {
            let mask = (m >> (16 * step)) as u16;
            let packed = _mm512_maskz_compress_epi32(mask, keys);
            let to = &mut slots[n..n + 16];
            // SAFETY: `to` is 16 writable u32s (64 bytes).
            unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast(), packed) };
            n += mask.count_ones() as usize;
            keys = _mm512_add_epi32(keys, sixteen);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn golden_bytes() {
        // first 10; keys 11 (bit 0), 13 (bit 2), 18 (bit 7), 19 (bit 8),
        // 27 (bit 16).
        let keys = [10, 11, 13, 18, 19, 27];
        let mut out = Vec::new();
        encode(&keys, &mut out);
        assert_eq!(encoded_len(&keys), 3);
        assert_eq!(out, [0b1000_0101, 0b0000_0001, 0b0000_0001]);
        let mut back = [10u32; 6];
        assert_eq!(decode(&out, 10, 6, &mut back), Ok(3));
        assert_eq!(back, keys);
        assert_eq!(lower_bound(&out, 10, 12), Some((2, 13)));
        assert_eq!(lower_bound(&out, 10, 20), Some((5, 27)));
        assert_eq!(lower_bound(&out, 10, 28), None);
        assert_eq!(next_key(&out, 10, 20), Some(27));
        assert_eq!(next_key(&out, 10, 28), None);
        assert_eq!(select(&out, 10, 4), Some(19));
        assert!(contains(&out, 10, 18) && !contains(&out, 10, 17));
    }

    #[test]
    fn agrees_with_the_keys() {
        let mut rng = intcodec_testkit::SplitMix64::new(5);
        for _ in 0..300 {
            let first = [0u32, 1000, u32::MAX - 5000][rng.below(3) as usize];
            let density = 1 + rng.below(8) as u32;
            let mut keys = vec![first];
            let mut k = first;
            let count = 2 + rng.below(256) as usize;
            while keys.len() < count {
                k += 1 + rng.below(u64::from(density)) as u32;
                keys.push(k);
            }
            let mut s = Vec::new();
            encode(&keys, &mut s);
            let mut back = vec![first; keys.len()];
            assert_eq!(decode(&s, first, keys.len(), &mut back), Ok(s.len()));
            assert_eq!(back, keys);
            for (j, &k) in keys.iter().enumerate().skip(1) {
                assert_eq!(select(&s, first, j), Some(k));
            }
            let last = keys[keys.len() - 1];
            for q in first + 1..=last {
                let i = keys.partition_point(|&v| v < q);
                assert_eq!(lower_bound(&s, first, q), Some((i, keys[i])));
                assert_eq!(next_key(&s, first, q), Some(keys[i]));
                assert_eq!(contains(&s, first, q), keys[i] == q);
            }
            // Against another block at another alignment.
            let shift = rng.below(70) as u32;
            let other: Vec<u32> = keys
                .iter()
                .map(|&v| v.saturating_sub(shift))
                .filter(|&v| rng.below(3) > 0 || v == first.saturating_sub(shift))
                .collect::<alloc::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            if other.len() < 2 {
                continue;
            }
            let mut t = Vec::new();
            encode(&other, &mut t);
            let (lo, hi) = (first.max(other[0]), last.min(other[other.len() - 1]));
            if lo > hi {
                continue;
            }
            let want: Vec<u32> = keys
                .iter()
                .copied()
                .filter(|&v| (lo..=hi).contains(&v) && other.binary_search(&v).is_ok())
                .collect();
            // Every kernel, with room for exactly the block's keys (the
            // AVX-512 kernel then ends bit by bit) and for 64 more.
            for isa in [Isa::Scalar, Isa::Avx512] {
                for slack in [0, 64] {
                    let mut got = vec![0u32; keys.len() + slack];
                    let x = (first, s.as_slice());
                    let n = intersect(isa, x, (other[0], &t), lo, hi, &mut got);
                    assert_eq!(got[..n], want, "{isa:?}");
                }
            }
        }
    }

    /// Every kernel decodes every stream as the portable loop does, valid
    /// or not: random bitmaps of 0..80 bytes (dense, sparse, with a zero
    /// last byte) with the right count, one more and one less, into
    /// buffers of every length from the count to the count + 20.
    #[test]
    fn every_kernel_agrees_with_the_portable_loop() {
        let mut rng = intcodec_testkit::SplitMix64::new(9);
        let kernels: Vec<Isa> = [Isa::Scalar, Isa::Avx512]
            .into_iter()
            .filter(|&i| i == Isa::Scalar || (cfg!(target_arch = "x86_64") && i.is_detected()))
            .collect();
        if kernels.len() == 1 {
            std::eprintln!("keys::bitmap: no AVX-512 on this CPU: only the portable loop ran");
        }
        for _ in 0..3000 {
            let len = rng.below(80) as usize;
            let density = 1 + rng.below(8);
            let mut stream: Vec<u8> = (0..len)
                .map(|_| (0..8).fold(0u8, |b, i| b | u8::from(rng.below(density) == 0) << i))
                .collect();
            if rng.below(4) > 0 {
                if let Some(l) = stream.last_mut() {
                    *l |= 0x80;
                }
            }
            let bits: usize = stream.iter().map(|b| b.count_ones() as usize).sum();
            let first = [0u32, 77, u32::MAX - 300][rng.below(3) as usize];
            for count in [bits + 1, bits, bits + 2] {
                let count = count.max(1);
                for slack in [0, 1, 7, 8, 15, 16, 20] {
                    let mut want = vec![first; count + slack];
                    let w = decode_with(Isa::Scalar, &stream, first, count, &mut want);
                    for &k in &kernels[1..] {
                        let mut got = vec![first; count + slack];
                        let g = decode_with(k, &stream, first, count, &mut got);
                        assert_eq!(g, w, "{k:?}: {stream:?} count {count}");
                        if w.is_ok() {
                            assert_eq!(got[..count], want[..count], "{k:?}: {stream:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn errors() {
        let mut out = [0u32; 4];
        let e = decode(&[], 1, 2, &mut out).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::Truncated);
        // A last byte of 0.
        let e = decode(&[1, 0], 1, 2, &mut out).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Malformed, 1));
        // More bits than keys, fewer bits than keys.
        let e = decode(&[0b111], 1, 3, &mut out).unwrap_err();
        assert_eq!((e.kind(), e.index()), (DecodeErrorKind::Malformed, Some(3)));
        let e = decode(&[0b1], 1, 3, &mut out).unwrap_err();
        assert_eq!((e.kind(), e.index()), (DecodeErrorKind::Malformed, Some(2)));
        // A last key past u32::MAX: first u32::MAX - 8, bit 8 set.
        let e = decode(&[0, 1], u32::MAX - 8, 2, &mut out).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::Malformed);
        assert_eq!(decode(&[0, 1], u32::MAX - 9, 2, &mut out), Ok(2));
        assert_eq!(out[1], u32::MAX);
    }
}
