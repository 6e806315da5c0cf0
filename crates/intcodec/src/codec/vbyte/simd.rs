//! The ISA-independent parts of the Masked VByte kernels (x86
//! `x86/kernels.rs`, AArch64 `aarch64/neon.rs`), written once: the
//! continuation bits ahead of the decoder ([`Masks`]), the optional fused
//! prefix sum of a store ([`delta`]), the u64 word-at-a-time value
//! ([`word_value`]), the mask-driven loops around the ISA's decode steps
//! ([`step_loop`], [`decode_u64_with`]) and the select / seek loops
//! ([`select_delta_with`], [`seek_delta_with`]). Everything is `#[inline(always)]` and takes the ISA's
//! own steps as closures, so that it compiles into each kernel's loop with
//! that kernel's target features.

use super::counted::Source;
use super::scalar;
use crate::error::DecodeError;
use crate::tables::vbyte::{DECODE, GROUP_C, OVERLONG};

/// The continuation bits ahead of the decoder: `bits` holds those of the
/// `avail` bytes from the current position on, `next` (when `next_ok`)
/// those of the 48 bytes after them, made while `bits` is used (the
/// paper's two 48-bit masks in flight); `scan` is the first byte in
/// neither. Masks are made only of bytes inside the input.
pub(super) struct Masks {
    bits: u64,
    avail: u32,
    next: u64,
    next_ok: bool,
    pub(super) scan: usize,
}

impl Masks {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Masks {
            bits: 0,
            avail: 0,
            next: 0,
            next_ok: false,
            scan: 0,
        }
    }

    /// Makes sure at least 12 bits are available; false if the input has no
    /// more bytes to make them of. With 48 bytes left, masks are made 48 at
    /// a time (`mask48`); with fewer, 16 at a time (`mask16`; paper §IV).
    /// Each closure returns the continuation bits of its bytes, bit `k` the
    /// high bit of byte `k`.
    #[inline(always)]
    pub(super) fn fill_with(
        &mut self,
        input: &[u8],
        mask48: impl Fn(&[u8; 48]) -> u64,
        mask16: impl FnOnce(&[u8; 16]) -> u64,
    ) -> bool {
        if self.avail >= 12 {
            return true;
        }
        let block48 = |at: usize| input.get(at..).and_then(<[u8]>::first_chunk::<48>);
        if self.next_ok {
            self.bits |= self.next << self.avail;
            self.avail += 48;
            self.next_ok = false;
        } else if let Some(blk) = block48(self.scan) {
            self.bits |= mask48(blk) << self.avail;
            self.avail += 48;
            self.scan += 48;
        } else if let Some(blk) = input.get(self.scan..).and_then(<[u8]>::first_chunk::<16>) {
            self.bits |= mask16(blk) << self.avail;
            self.avail += 16;
            self.scan += 16;
            return true;
        } else {
            return false;
        }
        if let Some(blk) = block48(self.scan) {
            self.next = mask48(blk);
            self.scan += 48;
            self.next_ok = true;
        }
        true
    }

    /// The bits of the next 12 bytes.
    #[inline(always)]
    pub(super) fn low12(&self) -> usize {
        (self.bits & 0xFFF) as usize
    }

    /// Length of the value at the current position: one more than the run
    /// of continuation bits (at most `avail`, as the bits past `avail` are
    /// zero).
    #[inline(always)]
    pub(super) fn first_len(&self) -> u32 {
        (!self.bits).trailing_zeros() + 1
    }

    /// Moves past `n` (<= 12) bytes.
    #[inline(always)]
    pub(super) fn consume(&mut self, n: u32) {
        self.bits >>= n;
        self.avail -= n;
    }
}

/// The lanes `v` to store: if `DELTA`, prefix-summed onto the running
/// value `acc` by `psum` (the ISA's `(lanes, acc) -> (sums, new acc)`,
/// paper §IV, differential coding), which updates `acc`; else `v` as is.
#[inline(always)]
pub(super) fn delta<V: Copy, const DELTA: bool>(
    v: V,
    acc: &mut V,
    psum: impl FnOnce(V, V) -> (V, V),
) -> V {
    if DELTA {
        let (s, a) = psum(v, *acc);
        *acc = a;
        s
    } else {
        v
    }
}

/// Copies the first `dst.len() <= 12` values of `src` by at most two
/// fixed-size copies that may overlap (no `memcpy` call for a run-time
/// length, which costs more than these few values).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn copy_short(dst: &mut [u32], src: &[u32; 12]) {
    let c = dst.len();
    if c >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[c - 4..].copy_from_slice(&src[c - 4..c]);
    } else if c >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[c - 4..].copy_from_slice(&src[c - 4..c]);
    } else if c >= 2 {
        dst[..2].copy_from_slice(&src[..2]);
        dst[c - 2..].copy_from_slice(&src[c - 2..c]);
    } else if c == 1 {
        dst[0] = src[0];
    }
}

/// Folds eight 7-bit groups (one per byte, high bits clear) into 56
/// contiguous bits.
#[inline(always)]
fn fold56(x: u64) -> u64 {
    let x = (x & 0x007F_007F_007F_007F) | ((x & 0x7F00_7F00_7F00_7F00) >> 1);
    let x = (x & 0x0000_3FFF_0000_3FFF) | ((x & 0x3FFF_0000_3FFF_0000) >> 2);
    (x & 0x0FFF_FFFF) | ((x & 0x0FFF_FFFF_0000_0000) >> 4)
}

/// One u64 value from the 16 bytes at its start, word at a time (no
/// per-byte branch). `len` is its length from the continuation bits (1 +
/// their trailing ones). `None` if it is longer than 10 bytes or its 10th
/// byte is above 1: the scalar decoder reports those.
#[inline(always)]
pub(super) fn word_value(src: &[u8; 16], len: u32) -> Option<u64> {
    // Non-short-circuit: one branch, almost never taken.
    if (len > 10) | ((len == 10) & (src[9] > 1)) {
        return None;
    }
    let (w, rest) = src.split_first_chunk::<8>()?;
    let (w1, _) = rest.split_first_chunk::<2>()?;
    let w = u64::from_le_bytes(*w);
    let w1 = u64::from(u16::from_le_bytes(*w1));
    // Bytes 0..min(len, 8) of the first word, 8..len of the second.
    let keep0 = u64::MAX >> (64 - 8 * len.min(8));
    let keep1 = (1u64 << (8 * len.saturating_sub(8))) - 1;
    let low = fold56(w & keep0 & 0x7F7F_7F7F_7F7F_7F7F);
    let x1 = w1 & keep1;
    Some(low | (x1 & 0x7F) << 56 | (x1 >> 8) << 63)
}

/// The 4096-entry table's step for the continuation bits `m` of 12 bytes
/// (not all clear): the shuffle index (group A below `GROUP_B`, B below
/// `GROUP_C`, else C) and the bytes the step consumes; `None` when the
/// first value is overlong, which the scalar code reports.
#[inline(always)]
pub(super) fn table_entry(m: usize) -> Option<(u8, u32)> {
    let e = DECODE[m];
    if e == OVERLONG {
        return None;
    }
    Some(((e >> 8) as u8, u32::from(e & 0xFF)))
}

/// The main u32 decode loop of the Masked VByte kernels (x86 `decode_loop`
/// after its bulk loop, NEON `decode_loop`), from value `i` at byte `pos`
/// with the running value `acc`: a step runs only when `fill` has the mask
/// bits of its 12 bytes (made of bytes inside `src`'s window), 16 bytes of
/// the window are readable at `pos` and 12 values of room remain in `out`.
/// `step(bytes, low 12 mask bits, dst, acc)` decodes one step into `dst`
/// and returns `(consumed, count)`, `None` when the table cannot take it.
/// Returns where the loop stopped, `(pos, i)`: the scalar decoder goes on
/// from the same value and byte.
///
/// # Safety
/// `pos` ends the `i` values decoded so far (as for [`Source::window`]).
#[inline(always)]
pub(super) unsafe fn step_loop<'a, S: Source<'a>, V>(
    src: S,
    out: &mut [u32],
    (mut pos, mut i): (usize, usize),
    masks: &mut Masks,
    acc: &mut V,
    fill: impl Fn(&mut Masks, &[u8]) -> bool,
    step: impl Fn(&[u8; 16], usize, &mut [u32; 12], &mut V) -> Option<(u32, usize)>,
) -> (usize, usize) {
    let n = out.len();
    loop {
        // SAFETY: `pos` ends the `i` values decoded (the caller's contract,
        // and each step moves by the bytes of the values it decodes, read
        // from their continuation bits); `n - i` are to come.
        let input = unsafe { src.window(pos, n - i) };
        if !fill(masks, input) {
            break;
        }
        let Some(at) = input.get(pos..).and_then(<[u8]>::first_chunk::<16>) else {
            break;
        };
        let Some(dst) = out.get_mut(i..).and_then(<[u32]>::first_chunk_mut::<12>) else {
            break;
        };
        let Some((consumed, count)) = step(at, masks.low12(), dst, acc) else {
            break;
        };
        masks.consume(consumed);
        pos += consumed as usize;
        i += count;
    }
    (pos, i)
}

/// The u64 decoder of the Masked VByte kernels (x86 and NEON
/// `decode_u64`): the mask loop of the u32 one, a step running only when
/// `fill` has its mask bits, 16 bytes are readable at `pos` and 12 values
/// of room remain in `out`. `wide(bytes, mask bits, table index, dst, acc)`
/// decodes a step of twelve one-byte values (mask bits clear) or of group A
/// or B (values of up to 2 or 3 bytes) widened to u64, and returns their
/// count; a step whose first value is longer (group C, or overlong for
/// u32) decodes that one value word at a time ([`word_value`]), which
/// `one(value, dst, acc)` stores at `dst[0]`, and moves on by its length.
/// Inputs shorter than 16 bytes or 12 values, the rest and every error go
/// to the scalar decoder, from `first(acc)`, the running value (`acc`
/// starts as the value before the first, broadcast).
#[inline(always)]
pub(super) fn decode_u64_with<V, const DELTA: bool>(
    input: &[u8],
    out: &mut [u64],
    mut acc: V,
    fill: impl Fn(&mut Masks, &[u8]) -> bool,
    wide: impl Fn(&[u8; 16], usize, u8, &mut [u64; 12], &mut V) -> usize,
    one: impl Fn(u64, &mut [u64; 12], &mut V),
    first: impl FnOnce(V) -> u64,
) -> Result<usize, DecodeError> {
    if input.len() < 16 || out.len() < 12 {
        return scalar::decode_from::<u64, DELTA>(input, out, 0, 0, first(acc));
    }
    let (mut pos, mut i) = (0usize, 0usize);
    let mut masks = Masks::new();
    loop {
        if !fill(&mut masks, input) {
            break;
        }
        let Some(src) = input.get(pos..).and_then(<[u8]>::first_chunk::<16>) else {
            break;
        };
        let Some(dst) = out.get_mut(i..).and_then(<[u64]>::first_chunk_mut::<12>) else {
            break;
        };
        let m = masks.low12();
        let e = DECODE[m];
        let index = (e >> 8) as u8;
        let (consumed, count) = if m == 0 {
            (12, wide(src, m, index, dst, &mut acc))
        } else if index < GROUP_C {
            (u32::from(e & 0xFF), wide(src, m, index, dst, &mut acc))
        } else {
            let len = masks.first_len();
            let Some(v) = word_value(src, len) else {
                break;
            };
            one(v, dst, &mut acc);
            (len, 1)
        };
        masks.consume(consumed);
        pos += consumed as usize;
        i += count;
    }
    scalar::decode_from::<u64, DELTA>(input, out, i, pos, first(acc))
}

/// The values of one seek step (`seek_step` of an ISA): up to three vectors
/// of four u32 lanes (unused lanes zero), the number of values and of
/// bytes; `None` if fewer than 16 bytes are left or the step must go to
/// scalar.
pub(super) type SeekStep<V> = Option<([V; 3], usize, usize)>;

/// Delta select of value `i` over an ISA's seek steps (`step(pos)`, the
/// step at byte `pos`): the values before `i`'s step are only summed into a
/// vector accumulator (from `zero`, by `add`); `total(acc)` is `prev` plus
/// its lanes' sum. The step holding `i` is read lane by lane (`lanes`); the
/// rest goes to the scalar walk.
#[inline(always)]
pub(super) fn select_delta_with<V: Copy>(
    input: &[u8],
    i: usize,
    zero: V,
    mut step: impl FnMut(usize) -> SeekStep<V>,
    add: impl Fn(V, V) -> V,
    total: impl Fn(V) -> u32,
    lanes: impl Fn(V) -> [u32; 4],
) -> Result<u32, DecodeError> {
    let mut acc = zero;
    let (mut j, mut pos) = (0usize, 0usize);
    while let Some((v, count, consumed)) = step(pos) {
        if j + count > i {
            // The step holding `i`: its values up to `i`, in order.
            let mut total = total(acc);
            let all = [lanes(v[0]), lanes(v[1]), lanes(v[2])];
            for x in all.as_flattened()[..=i - j].iter() {
                total = total.wrapping_add(*x);
            }
            return Ok(total);
        }
        acc = add(acc, add(v[0], add(v[1], v[2])));
        j += count;
        pos += consumed;
    }
    super::seek::scalar::select_delta_from(input, i, j, pos, total(acc))
}

/// Delta seek of the first index `< n` whose value is at least `target`,
/// over an ISA's seek steps (as [`select_delta_with`]): every step is
/// prefix-summed onto the running value `acc` (`prev` broadcast at first)
/// a vector at a time by `sum_hits(v, acc)`, which returns the sums, the
/// new running value and the 4-bit mask of the lanes at or above the
/// target; the first such lane ends the scan. The running value's lane 0
/// carries into the scalar walk.
#[inline(always)]
pub(super) fn seek_delta_with<V: Copy>(
    input: &[u8],
    n: usize,
    target: u32,
    mut acc: V,
    mut step: impl FnMut(usize) -> SeekStep<V>,
    sum_hits: impl Fn(V, V) -> (V, V, u32),
    lanes: impl Fn(V) -> [u32; 4],
) -> Result<Option<(usize, u32)>, DecodeError> {
    let (mut j, mut pos) = (0usize, 0usize);
    while let Some((v, count, consumed)) = step(pos) {
        if j + count > n {
            break;
        }
        let mut sums = v;
        let mut hits = 0u32;
        for (q, s) in sums.iter_mut().enumerate().take(count.div_ceil(4)) {
            let (p, a, h) = sum_hits(v[q], acc);
            acc = a;
            *s = p;
            hits |= h << (4 * q);
        }
        hits &= (1u32 << count) - 1;
        if hits != 0 {
            let k = hits.trailing_zeros() as usize;
            return Ok(Some((j + k, lanes(sums[k / 4])[k % 4])));
        }
        j += count;
        pos += consumed;
        // Unused lanes are zero, so the last prefix sum's broadcast total
        // is the running value.
    }
    super::seek::scalar::seek_delta_from(input, n, target, j, pos, lanes(acc)[0])
}

/// The u32 entry points of a Masked VByte kernel set, enabled for
/// `$features`, over the `decode_loop::<S, DELTA, CHECKED>` in scope: the
/// checked `decode` (`$first`, if given, is offered the list first and
/// returns `Some` when it decoded it; then, if `$short`, a list of at most
/// `scalar::SHORT_MAX` values goes to `scalar::decode_short`), the trusted-count
/// `decode_counted` and `decode_unchecked`.
macro_rules! u32_entry_points {
    ($features:literal, short: $short:literal $(, first: $first:ident)?) => {
        /// Checked decode: see [`Kernels`](super::super::Kernels).
        #[target_feature(enable = $features)]
        fn decode<const DELTA: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, DecodeError> {
            $(
                if let Some(r) = $first::<DELTA>(input, &mut *out, prev) {
                    return r;
                }
            )?
            if $short && out.len() <= scalar::SHORT_MAX {
                return scalar::decode_short::<DELTA>(input, out, prev);
            }
            decode_loop::<&[u8], DELTA, true>(input, out, prev)
        }

        /// Trusted-count decode of a stream of unknown length (`counted.rs`):
        /// the checked loops on a [`Counted`] window.
        ///
        /// # Safety
        /// As `DecodeCountedFn`: `input` holds a stream of `out.len()`
        /// values, or `5 * out.len()` readable bytes.
        #[target_feature(enable = $features)]
        unsafe fn decode_counted<const DELTA: bool>(
            input: *const u8,
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, DecodeError> {
            // SAFETY: the caller's contract is `Counted::new`'s.
            let src = unsafe { Counted::new(input) };
            decode_loop::<Counted<'_>, DELTA, true>(src, out, prev)
        }

        /// Unchecked decode of trusted, padded input: skips the 5th-byte
        /// overflow check (bounds are still respected).
        ///
        /// # Safety
        /// `input` holds `out.len()` valid values plus `PADDING` bytes.
        #[target_feature(enable = $features)]
        unsafe fn decode_unchecked<const DELTA: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> usize {
            decode_loop::<&[u8], DELTA, false>(input, out, prev).unwrap_or(0)
        }
    };
}

pub(super) use u32_entry_points;
