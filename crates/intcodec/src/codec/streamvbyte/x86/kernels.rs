//! The Stream VByte x86 kernel bodies, shared by the SSE4.1 and AVX2 kernel
//! sets (see `sse41.rs` for the algorithms and their bounds, `avx2.rs` for
//! why the same algorithm is compiled twice). `stream_vbyte_kernels!` expands
//! to the kernel functions, each `#[target_feature(enable = $features)]`, and
//! the two kernel tables `KERNELS_1234` and `KERNELS_0124`.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{Format, Variant};
use crate::codec::x86::{vector, vectors};
use crate::tables::streamvbyte::{
    build_encode_by_flags, SvbTables, KEY_LEN_0124, KEY_LEN_1234, TABLES_0124, TABLES_1234,
};

/// Encoder look-up entry for one pattern of a group's twelve zero flags:
/// the shuffle mask gathering the group's significant bytes, and the control
/// byte and data length as `key | len << 8` (one load for both). 32 bytes, so that the entry of flags `f` (bits
/// 4..=15 of `pmovmskb`, i.e. pattern × 16) sits at byte offset `2 * f`: an
/// x86 scaled address, with no shift or mask in the way. Mask, key and
/// length share one cache line.
#[repr(C, align(32))]
pub(crate) struct EncodeEntry {
    pub(crate) mask: __m128i,
    pub(crate) key_len: u16,
}

/// Shuffle masks as vectors, so that a table look-up is a plain (safe) copy.
pub(super) struct Masks {
    /// Decode masks by control byte.
    pub(super) decode: [__m128i; 256],
    /// Encoder entries by zero-flag pattern (128 KiB; a list touches only
    /// the patterns it contains, a handful for typical data).
    pub(super) encode: [EncodeEntry; 4096],
}

const fn masks(t: &SvbTables, key_len: &[u16; 4096]) -> Masks {
    let decode = vectors(&t.decode);
    let by_flags = build_encode_by_flags(t, key_len);
    let mut encode = [const {
        EncodeEntry {
            mask: vector([0; 16]),
            key_len: 0,
        }
    }; 4096];
    let mut i = 0;
    while i < 4096 {
        encode[i].mask = vector(by_flags[i]);
        encode[i].key_len = key_len[i];
        i += 1;
    }
    Masks { decode, encode }
}

static MASKS_1234: Masks = masks(&TABLES_1234, &KEY_LEN_1234);
static MASKS_0124: Masks = masks(&TABLES_0124, &KEY_LEN_0124);

/// `pshufb` masks gathering, into bytes 4..=15, the three bytes of each of a
/// group's four values that decide its code (see `flags16` in the macro):
/// bytes 1..=3 of each value (1234), or bytes 0..=2 (0124, applied to
/// `v | v >> 8`). Bytes 0..=3 become zero; [`FLAG_CMP`] never matches them.
pub(super) const GATHER_1234: __m128i = gather_mask(1);
pub(super) const GATHER_0124: __m128i = gather_mask(0);
/// What the gathered bytes are compared with: zero in bytes 4..=15, 0xFF
/// (never equal to the zeros `pshufb` put there) in bytes 0..=3, so the low
/// four bits of the `pmovmskb` result are clear.
pub(super) const FLAG_CMP: __m128i =
    vector([0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

const fn gather_mask(first: u8) -> __m128i {
    let mut m = [0x80u8; 16];
    let mut i = 0;
    while i < 12 {
        m[4 + i] = (i / 3 * 4) as u8 + first + (i % 3) as u8;
        i += 1;
    }
    vector(m)
}

/// The "1234" encoder's look-up for a group of four values `v`: the entry
/// whose mask gathers their significant bytes (the group's data, at most
/// 16 bytes) and whose `key_len` is the control byte (value `i`'s byte
/// count minus one in bits `2i..2i+2`) and the data length, as
/// `key | len << 8`. VarInt-GB's encoder shares it (same codes, same
/// data bytes).
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn encode_entry_1234(v: __m128i) -> &'static EncodeEntry {
    let flagged = _mm_shuffle_epi8(v, GATHER_1234);
    let f16 = _mm_movemask_epi8(_mm_cmpeq_epi8(flagged, FLAG_CMP)) as usize;
    // `f16 < 65536` (sixteen bits), so the index is below 4096.
    &MASKS_1234.encode[f16 >> 4]
}

#[inline(always)]
pub(super) fn masks_of<F: Format>() -> &'static Masks {
    match F::VARIANT {
        Variant::V1234 => &MASKS_1234,
        Variant::V0124 => &MASKS_0124,
    }
}

/// Lists shorter than this (at most one full block of 32 values) skip the
/// block loop: its set-up (keys loaded two blocks ahead, the run length)
/// costs more than it saves there; their one block is checked and decoded
/// on its own, the other groups by the group loop.
pub(super) const SHORT_GROUPS_ONLY: usize = 64;

macro_rules! stream_vbyte_kernels {
    ($features:literal, $isa:expr, $seek:ident) => {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::*;

        use super::super::{control_len, scalar, Format, Kernels, Variant, F0124, F1234};
        use crate::codec::kernels::At;
        use crate::codec::x86::{group_deltas, prefix_sum};
        use crate::error::DecodeError;
        use crate::isa::Isa;

        pub(crate) static KERNELS_1234: Kernels = kernels::<F1234>();
        pub(crate) static KERNELS_0124: Kernels = kernels::<F0124>();

        const fn kernels<F: Format>() -> Kernels {
            crate::codec::kernel_table!(
                $isa, decode<F>, decode_unchecked<F>, encode<F>;
                variant: F::VARIANT,
                select: crate::codec::streamvbyte::seek::x86::$seek::select::<F>,
                select_delta: crate::codec::streamvbyte::seek::x86::$seek::select_delta::<F>,
                seek_delta: crate::codec::streamvbyte::seek::x86::$seek::seek_delta::<F>,
                decode_counted: if matches!(F::VARIANT, Variant::V1234) {
                    Some(decode_counted::<false>)
                } else {
                    None
                },
                decode_delta_counted: if matches!(F::VARIANT, Variant::V1234) {
                    Some(decode_counted::<true>)
                } else {
                    None
                },
            )
        }

        #[target_feature(enable = $features)]
        #[inline]
        fn store4(dst: &mut [u32; 4], v: __m128i) {
            // SAFETY: `dst` is 16 writable bytes; unaligned store.
            unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) }
        }

        /// Decodes one group whose control byte is `key` from the 16 bytes at `src`.
        ///
        /// # Safety
        /// `src` must be valid for reading 16 bytes.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn group<F: Format, const DELTA: bool>(
            src: *const u8,
            key: u8,
            dst: &mut [u32; 4],
            prev: &mut __m128i,
        ) -> usize {
            // SAFETY: the caller guarantees 16 readable bytes at `src`.
            let data = unsafe { _mm_loadu_si128(src.cast()) };
            let mut v =
                _mm_shuffle_epi8(data, super::kernels::masks_of::<F>().decode[key as usize]);
            if DELTA {
                (v, *prev) = prefix_sum(v, *prev);
            }
            store4(dst, v);
            F::tables().len[key as usize] as usize
        }

        /// Sixteen values of four all-zero control bytes: sixteen one-byte values
        /// (standard variant) or sixteen zeros ("0124").
        ///
        /// # Safety
        /// For the standard variant, `src` must be valid for reading 16 bytes.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn zero_block<F: Format, const DELTA: bool>(
            src: *const u8,
            dst: &mut [[u32; 4]; 4],
            prev: &mut __m128i,
        ) -> usize {
            match F::VARIANT {
                Variant::V1234 if DELTA => {
                    // SAFETY: the caller guarantees 16 readable bytes at `src`.
                    let data = unsafe { _mm_loadu_si128(src.cast()) };
                    // Eight deltas at a time in 16-bit lanes (no overflow:
                    // 8 × 255 < 2^16). Two shifted adds give each lane the
                    // sum of itself and the three lanes before it: the full
                    // prefix sum for lanes 0..=3, and for lanes 4..=7 a sum
                    // that, added to lanes 0..=3's prefix sums, makes theirs.
                    // The eight's total does not depend on `prev`, so the
                    // loop-carried chain is one add per eight values.
                    let (first, second) = dst.split_at_mut(2);
                    for (d, x) in [first, second].into_iter().zip([
                        _mm_cvtepu8_epi16(data),
                        _mm_unpackhi_epi8(data, _mm_setzero_si128()),
                    ]) {
                        let x = _mm_add_epi16(x, _mm_slli_si128::<2>(x));
                        let x = _mm_add_epi16(x, _mm_slli_si128::<4>(x));
                        let a = _mm_cvtepu16_epi32(x);
                        let b = _mm_add_epi32(a, _mm_unpackhi_epi16(x, _mm_setzero_si128()));
                        store4(&mut d[0], _mm_add_epi32(a, *prev));
                        store4(&mut d[1], _mm_add_epi32(b, *prev));
                        *prev = _mm_add_epi32(*prev, _mm_shuffle_epi32::<0xFF>(b));
                    }
                    16
                }
                Variant::V1234 => {
                    // SAFETY: the caller guarantees 16 readable bytes at `src`.
                    let data = unsafe { _mm_loadu_si128(src.cast()) };
                    let lanes = [
                        _mm_cvtepu8_epi32(data),
                        _mm_cvtepu8_epi32(_mm_srli_si128::<4>(data)),
                        _mm_cvtepu8_epi32(_mm_srli_si128::<8>(data)),
                        _mm_cvtepu8_epi32(_mm_srli_si128::<12>(data)),
                    ];
                    for (d, mut v) in dst.iter_mut().zip(lanes) {
                        if DELTA {
                            (v, *prev) = prefix_sum(v, *prev);
                        }
                        store4(d, v);
                    }
                    16
                }
                Variant::V0124 => {
                    let v = if DELTA { *prev } else { _mm_setzero_si128() };
                    for d in dst.iter_mut() {
                        store4(d, v);
                    }
                    0
                }
            }
        }

        /// Decodes a block of eight groups whose control bytes are `keys`
        /// (group 0 in the low byte) from `src`; returns the data pointer
        /// after them. An all-zero block takes the shorter path.
        ///
        /// # Safety
        /// `src` must be valid for reading `block_reach::<F>(keys)` bytes
        /// (at most 128).
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn block<F: Format, const DELTA: bool>(
            mut src: *const u8,
            keys: u64,
            dst: &mut [[u32; 4]; 8],
            prev_v: &mut __m128i,
        ) -> *const u8 {
            if keys == 0 {
                let (a, b) = dst.split_at_mut(4);
                let (Ok(a), Ok(b)) = (a.try_into(), b.try_into()) else {
                    unreachable!("a block is two halves of four groups")
                };
                // SAFETY: the reach of a zero block is its two 16-byte loads
                // (the caller guarantees it).
                src = src.wrapping_add(unsafe { zero_block::<F, DELTA>(src, a, prev_v) });
                // SAFETY: as above, the second 16 bytes.
                src = src.wrapping_add(unsafe { zero_block::<F, DELTA>(src, b, prev_v) });
            } else {
                for (j, d) in dst.iter_mut().enumerate() {
                    let k = (keys >> (8 * j)) as u8;
                    // SAFETY: this load ends within the block's reach (the
                    // caller guarantees it).
                    let used = unsafe { group::<F, DELTA>(src, k, d, prev_v) };
                    src = src.wrapping_add(used);
                }
            }
            src
        }

        crate::codec::kernels::decode_entry_points!(
            $features,
            <F: Format>,
            short: |input, out, prev| scalar::decode_short::<DELTA>(F::BYTES, input, out, prev),
            /// The decode loop shared by the checked and unchecked entry points.
            ///
            /// # Safety
            /// If `CHECKED` is false, `input` must hold a valid stream of `out.len()`
            /// values followed by `PADDING` bytes. `input.len() >= control_len(out.len())`.
            decode_loop: |input, out, prev| {
                let ctrl = &input[..control_len(out.len())];
                // SAFETY: `input` is `input.len()` readable bytes; the rest is
                // forwarded from the caller.
                let (g, pos, prev_v) = unsafe {
                    decode_groups::<F, DELTA, CHECKED, false>(
                        input.as_ptr(),
                        ctrl,
                        input.len(),
                        out,
                        prev,
                    )
                };
                if 4 * g >= out.len() {
                    return Ok(pos);
                }
                // SAFETY: forwarded from the caller; `pos <= len` (checked, or
                // inside the trusted stream).
                unsafe { decode_tail::<F, DELTA, CHECKED>(input, out, g, pos, prev_v) }
            }
        );

        /// Trusted-count decode of a "1234" stream (`counted.rs`): the
        /// block and group loops with the values still to come as the room
        /// ahead of the data cursor, then the last values from a slice of
        /// the exact length their control bytes announce.
        ///
        /// # Safety
        /// `input` points to a "1234" stream of `out.len() >= 1` values
        /// (`DecodeCountedFn`).
        #[target_feature(enable = $features)]
        unsafe fn decode_counted<const DELTA: bool>(
            input: *const u8,
            out: &mut [u32],
            prev: u32,
        ) -> usize {
            let n = out.len();
            // SAFETY: the stream starts with its `ceil(n / 4)` control bytes.
            let ctrl = unsafe { core::slice::from_raw_parts(input, control_len(n)) };
            let (g, pos, prev_v) = {
                // SAFETY: a "1234" stream of `n` values at `input` (the
                // caller's contract) is `decode_groups`' counted precondition.
                unsafe { decode_groups::<F1234, DELTA, true, true>(input, ctrl, 0, out, prev) }
            };
            // Values `4g..n` start at `pos` and take the bytes their codes say.
            let rest = scalar::tail_len(F1234::BYTES, ctrl, 4 * g, n);
            // SAFETY: the control bytes, the data of the values decoded
            // (up to `pos`) and that of the rest: the whole stream.
            let stream = unsafe { core::slice::from_raw_parts(input, pos + rest) };
            // SAFETY: `stream` holds the control bytes and `pos <= stream.len()`.
            let r = unsafe { decode_tail::<F1234, DELTA, true>(stream, out, g, pos, prev_v) };
            // The exact stream is there: every bit pattern decodes.
            r.unwrap_or(0)
        }

        /// The block and group loops: decodes whole groups from the data at
        /// `base + ctrl.len()` while their loads are known to be in bounds;
        /// returns the groups decoded, the data offset (from `base`) after
        /// them and the delta running total. The room ahead of the cursor
        /// is `len` minus the cursor's offset, or (`COUNTED`) what the
        /// values still to come must occupy: a byte each at least, and for
        /// the group at the cursor the length its control byte gives;
        /// unchecked (`CHECKED` false) there is no limit.
        ///
        /// # Safety
        /// `ctrl` is the `control_len(out.len())` bytes at `base`. If
        /// `COUNTED`, `base` points to a "1234" stream of `out.len()`
        /// values (`len` unused; `CHECKED` must be true); else `base` is
        /// `len` readable bytes and, if `CHECKED` is false, they hold a
        /// valid stream of `out.len()` values followed by `PADDING` bytes.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn decode_groups<
            F: Format,
            const DELTA: bool,
            const CHECKED: bool,
            const COUNTED: bool,
        >(
            base: *const u8,
            ctrl: &[u8],
            len: usize,
            out: &mut [u32],
            prev: u32,
        ) -> (usize, usize, __m128i) {
            let n = out.len();
            let mut pos = ctrl.len();
            let mut prev_v = _mm_set1_epi32(prev as i32);
            let (groups, _) = out.as_chunks_mut::<4>();
            let (blocks, _) = groups.as_chunks_mut::<8>();
            let (key_blocks, _) = ctrl.as_chunks::<8>();

            // A block's eight control bytes are loaded two blocks ahead:
            // the shuffle and length look-ups of its first groups then do
            // not wait for that load (measured: about 10% on long lists;
            // one block ahead gains about half of that).
            let keys_at = |b: usize| key_blocks.get(b).map_or(0, |k| u64::from_le_bytes(*k));
            let (mut key, mut next) = (keys_at(0), keys_at(1));
            // The data pointer is advanced directly (not rebuilt from an
            // offset each group): simpler addressing on the loads.
            let end = base.wrapping_add(len) as usize;
            let mut src = base.wrapping_add(pos);
            // Counted: from `src` on, the stream holds a block's own data
            // (at least its first seven groups' plus 4 bytes) and a byte
            // for each of the `n - 32b - 32` values after it, while its
            // loads reach its first seven groups' data plus 16 (a zero
            // block: its 32 bytes): so block `b` runs when `n - 32b >= 44`,
            // whatever its codes, and those blocks run as trusted ones.
            let short = !COUNTED && n < super::kernels::SHORT_GROUPS_ONLY;
            let nb = if COUNTED {
                blocks.len().min(n.saturating_sub(12) / 32)
            } else if short {
                0
            } else {
                blocks.len()
            };
            let mut b = 0;
            // A short list's one full block (if any): one reach check and the
            // block, with none of the loop's keys-ahead set-up.
            if short {
                if let (Some(k), Some(dst)) = (key_blocks.first(), blocks.first_mut()) {
                    let keys = u64::from_le_bytes(*k);
                    let room = end.wrapping_sub(src as usize);
                    if !CHECKED || room >= 128 || room >= super::super::block_reach::<F>(keys) {
                        // SAFETY: the block's loads stay within the room or
                        // reach checked, or inside the trusted data plus
                        // padding.
                        src = unsafe { block::<F, DELTA>(src, keys, dst, &mut prev_v) };
                        b = 1;
                    }
                }
            }
            while b < nb {
                // Invariant: src <= end. A block reads at most 128 bytes from
                // `src`, so `(end - src) / 128` blocks run with no check of
                // their own (for trusted input, every block). Near the end of
                // the input (short lists live here) the exact reach of the
                // next block's loads decides whether it runs.
                let run = if CHECKED && !COUNTED {
                    let room = end - src as usize;
                    match room / 128 {
                        0 if room < super::super::block_reach::<F>(key) => break,
                        0 => 1,
                        r => r.min(nb - b),
                    }
                } else {
                    nb - b
                };
                let stop = b + run;
                // The hot loop: blocks whose keys two ahead exist, loaded
                // with no bounds test, and the output reached by pointer
                // (the loop is bound by instruction throughput: each
                // instruction a block saves is about 1% on long lists).
                let direct = stop.min(key_blocks.len().saturating_sub(2));
                let keys_ptr = key_blocks.as_ptr();
                let dst_ptr = blocks.as_mut_ptr();
                while b < direct {
                    let k = key;
                    key = next;
                    // SAFETY: `b + 2 < key_blocks.len()` (`direct`).
                    next = u64::from_le_bytes(unsafe { *keys_ptr.add(b + 2) });
                    // SAFETY: `b < stop <= nb <= blocks.len()`; no other
                    // reference to `blocks` is alive.
                    let dst = unsafe { &mut *dst_ptr.add(b) };
                    // SAFETY: the block's loads stay within the room or reach
                    // checked above, or inside the trusted data plus padding.
                    src = unsafe { block::<F, DELTA>(src, k, dst, &mut prev_v) };
                    b += 1;
                }
                while b < stop {
                    let k = key;
                    (key, next) = (next, keys_at(b + 2));
                    // SAFETY: as above.
                    src = unsafe { block::<F, DELTA>(src, k, &mut blocks[b], &mut prev_v) };
                    b += 1;
                }
            }
            let mut done = 8 * b; // groups decoded
            pos = src as usize - base as usize;
            let full = n / 4;
            // Checked, not counted: a group runs while its 16-byte load ends
            // within `len`, i.e. `pos <= limit` (none if `len < 16`).
            let limit = match len.checked_sub(16) {
                Some(l) => l,
                None if CHECKED && !COUNTED => return (done, pos, prev_v),
                None => 0,
            };
            let todo = ctrl.get(done..full).unwrap_or(&[]);
            let dsts = groups.get_mut(done..full).unwrap_or(&mut []);
            for (&key, dst) in todo.iter().zip(dsts) {
                let fits = if COUNTED {
                    // The group's own data (its codes say how long) and a
                    // byte at least for each value after it.
                    F::tables().len[key as usize] as usize + (n - 4 * done - 4) >= 16
                } else {
                    pos <= limit
                };
                if CHECKED && !fits {
                    break;
                }
                // SAFETY: 16 bytes remain at `pos` (checked, or padding).
                pos += unsafe { group::<F, DELTA>(base.add(pos), key, dst, &mut prev_v) };
                done += 1;
            }
            (done, pos, prev_v)
        }

        /// Decodes the groups from `g` on, whose data starts at `pos`: those
        /// within 16 bytes of the end of `input` and the last, partial group.
        /// Each is shuffled from a 16-byte window that stays inside `input`
        /// (the last 16 bytes, with the shuffle indices moved up, or a copy
        /// when `input` is shorter), so short lists and tails need no scalar
        /// code. A group that needs more bytes than remain goes to the scalar
        /// kernel, which reports the exact offset.
        ///
        /// # Safety
        /// If `CHECKED` is false, `input` must hold a valid stream of `out.len()`
        /// values followed by `PADDING` bytes. `input.len() >= control_len(out.len())`
        /// and `pos <= input.len()`.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn decode_tail<F: Format, const DELTA: bool, const CHECKED: bool>(
            input: &[u8],
            out: &mut [u32],
            mut g: usize,
            mut pos: usize,
            mut prev_v: __m128i,
        ) -> Result<usize, DecodeError> {
            let n = out.len();
            let ctrl = &input[..control_len(n)];
            let len = input.len();
            let lens = &F::tables().len;
            let masks = &super::kernels::masks_of::<F>().decode;
            while g * 4 < n {
                let r = (n - g * 4).min(4);
                // The codes of lanes past the last value are ignored, as by
                // the scalar kernel: they count as code 0 here.
                let key = if r == 4 {
                    ctrl[g]
                } else {
                    ctrl[g] & ((1u8 << (2 * r)) - 1)
                };
                let glen = lens[key as usize] as usize - (4 - r) * F::BYTES[0] as usize;
                let mut mask = masks[key as usize];
                let window = if !CHECKED || len - pos >= 16 {
                    // SAFETY: 16 bytes are readable at `pos` (checked, or
                    // the padding of trusted input).
                    unsafe { _mm_loadu_si128(input.as_ptr().add(pos).cast()) }
                } else if glen > len - pos {
                    let prev = _mm_cvtsi128_si32(prev_v) as u32;
                    return scalar::decode_from::<F, DELTA>(input, out, At { i: g * 4, pos, acc: prev });
                } else if len >= 16 {
                    // The last 16 bytes of `input`; the group's data starts
                    // `k` bytes into them. Moving the indices up by `k`
                    // keeps the zeroing ones (>= 0x80) zeroing, and the
                    // group's own ones (< glen <= 16 - k) below 16.
                    let k = 16 - (len - pos);
                    mask = _mm_add_epi8(mask, _mm_set1_epi8(k as i8));
                    // SAFETY: `len >= 16`, so `len - 16..len` is inside `input`.
                    unsafe { _mm_loadu_si128(input.as_ptr().add(len - 16).cast()) }
                } else {
                    // All of `input` is shorter than 16 bytes: its bytes
                    // from `pos` gathered in a register. (Copying them to a
                    // stack buffer cost a `memcpy` call, and the 16-byte
                    // load of its narrow stores stalled on store forwarding:
                    // most of the time of a 1-int decode.)
                    let (mut lo, mut hi) = (0u64, 0u64);
                    for (i, &b) in input[pos..].iter().enumerate() {
                        if i < 8 {
                            lo |= (b as u64) << (8 * i);
                        } else {
                            hi |= (b as u64) << (8 * (i - 8));
                        }
                    }
                    _mm_set_epi64x(hi as i64, lo as i64)
                };
                let mut v = _mm_shuffle_epi8(window, mask);
                if DELTA {
                    (v, prev_v) = prefix_sum(v, prev_v);
                }
                let dst = &mut out[g * 4..];
                if let Some(d) = dst.first_chunk_mut::<4>() {
                    store4(d, v);
                } else {
                    let mut t = [0u32; 4];
                    store4(&mut t, v);
                    for (d, t) in dst.iter_mut().zip(t) {
                        *d = t;
                    }
                }
                pos += glen;
                g += 1;
            }
            Ok(pos)
        }


        /// The twelve zero flags of the group `v` that decide its control
        /// byte, times 16 (the byte offset of its entry in 16-byte tables).
        ///
        /// A value's code depends only on which of three of its bytes are zero
        /// (1234: bytes 1..=3 of `v`; 0124: bytes 0..=2 of `v | v >> 8`).
        /// One `pshufb` gathers those twelve bytes of the group into bytes
        /// 4..=15 and `pcmpeqb` + `pmovmskb` turn them into flags (bits
        /// 4..=15 of the result).
        #[target_feature(enable = $features)]
        #[inline]
        fn flags16<F: Format>(v: __m128i) -> usize {
            let (bytes, gather) = match F::VARIANT {
                Variant::V1234 => (v, super::kernels::GATHER_1234),
                Variant::V0124 => (
                    _mm_or_si128(v, _mm_srli_epi32::<8>(v)),
                    super::kernels::GATHER_0124,
                ),
            };
            let flagged = _mm_shuffle_epi8(bytes, gather);
            _mm_movemask_epi8(_mm_cmpeq_epi8(flagged, super::kernels::FLAG_CMP)) as usize
        }

        /// Encodes one group: stores its control byte at `key`, shuffles the
        /// significant bytes of `v` to `dst` (16 bytes are stored) and returns
        /// how many of them count.
        ///
        /// # Safety
        /// `dst` must be valid for writing 16 bytes.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn put_group<F: Format>(
            key: &mut u8,
            dst: *mut u8,
            v: __m128i,
            f16: usize,
        ) -> usize {
            // SAFETY: forwarded from the caller.
            let key_len = unsafe { put_group_data::<F>(dst, v, f16) };
            *key = key_len as u8;
            usize::from(key_len >> 8)
        }

        /// Shuffles the significant bytes of the group `v`, whose zero flags
        /// are `f16`, to `dst` (16 bytes are stored) and returns its control
        /// byte and data length as `key | len << 8`.
        ///
        /// The shuffle mask is looked up by the group's zero flags, not by its
        /// control byte, so the shuffle does not wait for the control byte.
        ///
        /// # Safety
        /// `dst` must be valid for writing 16 bytes.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn put_group_data<F: Format>(dst: *mut u8, v: __m128i, f16: usize) -> u16 {
            // `f16 < 65536` (sixteen bits), so the index is below 4096.
            let e = &super::kernels::masks_of::<F>().encode[f16 >> 4];
            let bytes = _mm_shuffle_epi8(v, e.mask);
            // SAFETY: the caller guarantees 16 writable bytes at `dst`.
            unsafe { _mm_storeu_si128(dst.cast(), bytes) };
            e.key_len
        }

        /// Puts a block's four groups (with their zero flags) at `pos` of
        /// `data` and their control bytes in `keys` (one 32-bit store, not
        /// four byte stores); returns the new `pos`.
        ///
        /// # Safety
        /// 64 bytes of `base` must be writable from `pos` on.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn put_block<F: Format>(
            keys: &mut [u8; 4],
            base: *mut u8,
            mut pos: usize,
            groups: [(__m128i, usize); 4],
        ) -> usize {
            let mut word = 0u32;
            for (k, (v, f16)) in groups.into_iter().enumerate() {
                // SAFETY: each group advances `pos` by at most 16, so these 16
                // bytes are inside the 64 the caller guarantees.
                let key_len = unsafe { put_group_data::<F>(base.add(pos), v, f16) };
                word |= u32::from(key_len as u8) << (8 * k);
                pos += usize::from(key_len >> 8);
            }
            *keys = word.to_le_bytes();
            pos
        }

        /// The group of four values starting at `values[i]`, as deltas from
        /// their predecessors if `DELTA`; `prev_v` holds the previous group
        /// (its last lane is the predecessor of `values[i]`) and is updated.
        ///
        /// (Loading the predecessors from `values[i - 1..]` instead of
        /// shifting them in with `palignr` was measured slower: the encoder
        /// is bound by memory operations, not shuffles.)
        ///
        /// # Safety
        /// `i + 4 <= values.len()`.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn load_group<const DELTA: bool>(
            values: &[u32],
            i: usize,
            prev_v: &mut __m128i,
        ) -> __m128i {
            // SAFETY: the caller guarantees `values[i..i + 4]` exists.
            let raw = unsafe { _mm_loadu_si128(values.as_ptr().add(i).cast()) };
            group_deltas::<DELTA>(raw, prev_v)
        }

        /// Encodes `values` (deltas from `prev` if `DELTA`); `out` holds the encoded
        /// length. Four groups (sixteen values) per step.
        #[target_feature(enable = $features)]
        #[inline]
        fn encode_loop<F: Format, const DELTA: bool>(
            values: &[u32],
            prev: u32,
            out: &mut [u8],
        ) -> usize {
            let cl = control_len(values.len());
            let (ctrl, data) = out.split_at_mut(cl);
            let (key_blocks, _) = ctrl.as_chunks_mut::<4>();
            let base = data.as_mut_ptr();
            // Four 16-byte stores, each at most 16 bytes after the previous.
            let limit = data.len().checked_sub(64);
            let mut pos = 0;
            let mut done = 0; // values encoded
            let mut prev_v = _mm_set1_epi32(prev as i32);
            for keys in key_blocks.iter_mut().take(values.len() / 16) {
                match limit {
                    Some(limit) if pos <= limit => {}
                    _ => break,
                }
                let groups = core::array::from_fn(|k| {
                    // SAFETY: this block's 16 values exist (`take` above).
                    let v = unsafe { load_group::<DELTA>(values, done + 4 * k, &mut prev_v) };
                    (v, flags16::<F>(v))
                });
                // SAFETY: 64 bytes of `data` remain at `pos` (checked above).
                pos = unsafe { put_block::<F>(keys, base, pos, groups) };
                done += 16;
            }
            encode_tail::<F, DELTA, 0>(values, prev, out, done, pos)
        }

        /// [`encode_tail`] for the wider kernels (a separate function, so
        /// that the one call in this set's own encoder is inlined). Only the
        /// AVX2 instantiation has a caller (the AVX-512 encoder).
        #[allow(dead_code)]
        #[target_feature(enable = $features)]
        pub(crate) fn encode_rest<F: Format, const DELTA: bool>(
            values: &[u32],
            prev: u32,
            out: &mut [u8],
            done: usize,
            pos: usize,
        ) -> usize {
            encode_tail::<F, DELTA, 1>(values, prev, out, done, pos)
        }

        /// Finishes an encoding of which `values[..done]` (`done` a multiple
        /// of 4) are encoded, their data taking `pos` bytes: whole groups one
        /// at a time while 16 bytes of room remain, then the last partial
        /// group the same way; the scalar kernel only when `out` leaves less
        /// than 16 bytes of room. Returns the encoded length.
        ///
        /// `CALLER` (0: this set's encoder, 1: [`encode_rest`]) makes two
        /// instantiations of one call site each, so that both are inlined
        /// (a function called from two places was outlined, which cost short
        /// lists a call).
        #[target_feature(enable = $features)]
        #[inline]
        fn encode_tail<F: Format, const DELTA: bool, const CALLER: u8>(
            values: &[u32],
            prev: u32,
            out: &mut [u8],
            mut done: usize,
            mut pos: usize,
        ) -> usize {
            let cl = control_len(values.len());
            let (ctrl, data) = out.split_at_mut(cl);
            let base = data.as_mut_ptr();
            // The predecessor of `values[done]` for delta coding.
            let last = |done: usize| {
                if DELTA && done > 0 {
                    values[done - 1]
                } else {
                    prev
                }
            };
            let mut prev_v = _mm_set1_epi32(last(done) as i32);
            // Whole groups, one at a time (short lists live here).
            for key in ctrl.iter_mut().take(values.len() / 4).skip(done / 4) {
                if data.len().saturating_sub(pos) < 16 {
                    break;
                }
                // SAFETY: `done < values.len() / 4 * 4` (`take` above), so the
                // group's four values exist.
                let v = unsafe { load_group::<DELTA>(values, done, &mut prev_v) };
                // SAFETY: 16 bytes of `data` remain at `pos` (checked above).
                pos += unsafe { put_group::<F>(key, base.add(pos), v, flags16::<F>(v)) };
                done += 4;
            }
            // The last, partial group, padded to four lanes with values of
            // code 0 (zeros, or repeats of the last value for delta coding),
            // whose control bits are then 0 as the scalar kernel writes them.
            let r = values.len() - done;
            if r == 0 {
                return cl + pos;
            }
            if r < 4 && data.len().saturating_sub(pos) >= 16 {
                let pad = if DELTA { values[values.len() - 1] } else { 0 } as i32;
                let at = |i: usize| values[done + i] as i32;
                // Built in registers: a load from a just-written array would
                // wait for its stores (no store forwarding across them).
                let raw = match r {
                    1 => _mm_setr_epi32(at(0), pad, pad, pad),
                    2 => _mm_setr_epi32(at(0), at(1), pad, pad),
                    _ => _mm_setr_epi32(at(0), at(1), at(2), pad),
                };
                let v = group_deltas::<DELTA>(raw, &mut prev_v);
                let key = &mut ctrl[done / 4];
                // SAFETY: 16 bytes of `data` remain at `pos` (checked above).
                let all = unsafe { put_group::<F>(key, base.add(pos), v, flags16::<F>(v)) };
                return cl + pos + all - (4 - r) * F::BYTES[0] as usize;
            }
            scalar::encode_from::<F, DELTA>(values, last(done), out, done, cl + pos)
        }

        /// Encodes `values` (deltas from `prev` if `DELTA`).
        #[target_feature(enable = $features)]
        fn encode<F: Format, const DELTA: bool>(
            values: &[u32],
            prev: u32,
            out: &mut [u8],
        ) -> usize {
            encode_loop::<F, DELTA>(values, prev, out)
        }
    };
}

pub(crate) use stream_vbyte_kernels;
