//! The Masked VByte x86 kernel bodies, shared by the SSE4.1 and AVX2 kernel
//! sets (see `sse41.rs` for the algorithm and its bounds, `avx2.rs` for why
//! the same algorithm is compiled twice). `masked_vbyte_kernels!` expands to
//! the kernel functions, each `#[target_feature(enable = $features)]`, and
//! the kernel table `KERNELS`.

#[cfg(target_arch = "x86")]
use core::arch::x86::__m128i;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::__m128i;

use crate::codec::x86::vectors;
use crate::tables::vbyte::{build_encode_shuffles, build_shuffles};

/// Lists of at most this many values (and 16 readable bytes) are decoded
/// by the short steps alone, not the bulk and main loops, whose set-up
/// costs more than they gain on so few values.
pub(super) const SHORT_STEPS_MAX: usize = 16;

/// The shuffle masks as vectors, so that a look-up is a plain (safe) copy.
pub(super) static SHUFFLES: [__m128i; 256] = vectors(&build_shuffles());

/// The encoder's shuffles, as vectors.
pub(super) static ENCODE_SHUFFLES: [__m128i; 256] = vectors(&build_encode_shuffles());

/// [`DECODE`](crate::tables::vbyte::DECODE) split into bytes, `[consumed,
/// index]`, so that the bytes consumed — on the loop-carried chain mask ->
/// table -> shift — are one byte load, with no extraction step.
pub(super) static STEPS: [[u8; 2]; 4096] = {
    let mut t = [[0u8; 2]; 4096];
    let mut m = 0;
    while m < 4096 {
        let e = crate::tables::vbyte::DECODE[m];
        t[m] = [(e & 0xFF) as u8, (e >> 8) as u8];
        m += 1;
    }
    t
};

macro_rules! masked_vbyte_kernels {
    ($features:literal, $isa:expr, bulk: $bulk:ident $(, first: $first:ident)?) => {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::*;

        use super::super::counted::{Counted, Source};
        use super::super::simd::{copy_short, decode_u64_with, delta, step_loop, Masks};
        use super::super::{scalar, Kernels};
        use super::kernels::{ENCODE_SHUFFLES, SHORT_STEPS_MAX, SHUFFLES, STEPS};
        use crate::codec::x86::{group_deltas, lanes, load16, prefix_sum};
        use crate::error::DecodeError;
        use crate::isa::Isa;
        use crate::tables::vbyte::{GROUP_B, GROUP_C, OVERLONG};

        pub(crate) static KERNELS: Kernels = crate::codec::kernel_table!(
            $isa, decode<>, decode_unchecked<>, encode<>;
            decode_u64: decode_u64::<false>,
            decode_delta_u64: decode_u64::<true>,
            select_delta: select_delta,
            seek_delta: seek_delta,
            decode_counted: decode_counted::<false>,
            decode_delta_counted: decode_counted::<true>,
        );

        /// Continuation bits of 48 bytes: bit `k` = high bit of byte `k`
        /// (three `pmovmskb`).
        #[target_feature(enable = $features)]
        #[inline]
        fn mask48(bytes: &[u8; 48]) -> u64 {
            let p = bytes.as_ptr();
            // SAFETY: `bytes` is 48 readable bytes; this reads 0..16.
            let a = unsafe { _mm_loadu_si128(p.cast()) };
            // SAFETY: reads 16..32 of the 48.
            let b = unsafe { _mm_loadu_si128(p.wrapping_add(16).cast()) };
            // SAFETY: reads 32..48 of the 48.
            let c = unsafe { _mm_loadu_si128(p.wrapping_add(32).cast()) };
            let m = |v| u64::from(_mm_movemask_epi8(v) as u16);
            m(a) | m(b) << 16 | m(c) << 32
        }

        /// [`Masks::fill_with`] with 48-byte masks of three `pmovmskb` and
        /// 16-byte ones of one.
        #[target_feature(enable = $features)]
        #[inline]
        fn fill(masks: &mut Masks, input: &[u8]) -> bool {
            let mask16 = |blk: &[u8; 16]| u64::from(_mm_movemask_epi8(load16(blk)) as u16);
            masks.fill_with(input, |blk| mask48(blk), mask16)
        }

        /// The same for two u64 lanes.
        #[target_feature(enable = $features)]
        #[inline]
        fn psum64(v: __m128i, acc: __m128i) -> (__m128i, __m128i) {
            let v = _mm_add_epi64(v, _mm_slli_si128::<8>(v));
            let v = _mm_add_epi64(v, acc);
            (v, _mm_unpackhi_epi64(v, v))
        }

        /// Stores the lanes of `v`, four u32 or two u64 (`W`), at
        /// `dst[AT..]`, prefix-summed first if `DELTA`.
        #[target_feature(enable = $features)]
        #[inline]
        fn put<W, const AT: usize, const DELTA: bool>(
            dst: &mut [W; 12],
            v: __m128i,
            acc: &mut __m128i,
        ) {
            const { assert!((AT + 16 / size_of::<W>()) <= 12) };
            let v = if size_of::<W>() == 4 {
                delta::<_, DELTA>(v, acc, |v, a| prefix_sum(v, a))
            } else {
                delta::<_, DELTA>(v, acc, |v, a| psum64(v, a))
            };
            // SAFETY: `dst` is 12 writable `W`s and the 16 bytes stored are
            // `dst[AT..AT + 16 / size_of::<W>()]` (asserted at compile time).
            unsafe { _mm_storeu_si128(dst.as_mut_ptr().wrapping_add(AT).cast(), v) }
        }

        /// Group A (shuffle index < 64): six values of 1 or 2 bytes, shuffled
        /// into u16 lanes (`x`, the step's bytes through its shuffle), as
        /// `(low & 0x7F) | (high << 7)`, the high byte shifted right by one
        /// bit inside its u16 lane.
        #[target_feature(enable = $features)]
        #[inline]
        fn six(x: __m128i) -> __m128i {
            let lo = _mm_and_si128(x, _mm_set1_epi16(0x007F));
            let hi = _mm_srli_epi16::<1>(_mm_and_si128(x, _mm_set1_epi16(0x7F00)));
            _mm_or_si128(lo, hi)
        }

        /// Group B (64 <= index < 145): four values of 1 to 3 bytes, shuffled
        /// into u32 lanes (`x`): low, middle (shifted right 1 bit), high (2
        /// bits), OR-ed.
        #[target_feature(enable = $features)]
        #[inline]
        fn four(x: __m128i) -> __m128i {
            let lo = _mm_and_si128(x, _mm_set1_epi32(0x0000_007F));
            let mid = _mm_srli_epi32::<1>(_mm_and_si128(x, _mm_set1_epi32(0x0000_7F00)));
            let hi = _mm_srli_epi32::<2>(_mm_and_si128(x, _mm_set1_epi32(0x007F_0000)));
            _mm_or_si128(_mm_or_si128(lo, mid), hi)
        }

        /// Group C (index >= 145): two values of 1 to 5 bytes, the paper's
        /// `pmullw` method. With the high bits cleared, value bytes
        /// `a b c d e` are shuffled to the u16 lanes `(b, c, d, e + a·2^8)`
        /// (`Y`); `X = Y · (2^7, 2^6, 2^5, 2^4)` puts `b·2^7, c·2^6, d·2^5,
        /// e·2^4` in place; `X` shifted up one byte supplies the bits that
        /// spilled into each lane's high byte, `Y >> 56` isolates `a`, and the
        /// even bytes of `Y' | X | X'` are the value, gathered by a final
        /// shuffle. Lanes 2 and 3 of the result are zero. Correct for
        /// `e < 16`, i.e. for every valid u32. `y0` is the step's bytes
        /// through its shuffle.
        ///
        /// Also returns whether both values fit in a u32: the shuffle puts
        /// each value's 5th byte `e` (zero if shorter) at byte 6 of its
        /// lane, so one `ptest` of the unmasked shuffle against `0xF0` there
        /// finds an `e` above `0x0F` (the high bits are cleared after the
        /// shuffle, which commutes with the byte-wise AND).
        #[target_feature(enable = $features)]
        #[inline]
        fn two(y0: __m128i) -> (__m128i, bool) {
            let fits = _mm_testz_si128(y0, _mm_set1_epi64x(0x00F0_0000_0000_0000)) != 0;
            let y = _mm_and_si128(y0, _mm_set1_epi8(0x7F));
            let x = _mm_mullo_epi16(y, _mm_setr_epi16(128, 64, 32, 16, 128, 64, 32, 16));
            let x1 = _mm_slli_epi64::<8>(x);
            let a = _mm_srli_epi64::<56>(y);
            let r = _mm_or_si128(_mm_or_si128(x, x1), a);
            let v = _mm_shuffle_epi8(
                r,
                _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1),
            );
            (v, fits)
        }

        /// Twelve one-byte values (`data`'s first 12 bytes) into `d0`.
        #[target_feature(enable = $features)]
        #[inline]
        fn twelve<const DELTA: bool>(data: __m128i, d0: &mut [u32; 12], acc: &mut __m128i) {
            put::<_, 0, DELTA>(d0, _mm_cvtepu8_epi32(data), acc);
            put::<_, 4, DELTA>(d0, _mm_cvtepu8_epi32(_mm_srli_si128::<4>(data)), acc);
            put::<_, 8, DELTA>(d0, _mm_cvtepu8_epi32(_mm_srli_si128::<8>(data)), acc);
        }

        /// One step (paper §IV) on the 16 bytes `data` at the decoder's
        /// position, `m` the low 12 of their continuation bits: twelve
        /// one-byte values when `m` is clear, else the 4096-entry table gives
        /// the bytes consumed and the shuffle decoding 6, 4 or 2 values into
        /// `d0`. Returns `(consumed, count)`, or `None` when the table cannot
        /// take the step (overlong, or if `CHECKED` a 5th byte above `0x0F`):
        /// nothing is stored then.
        #[target_feature(enable = $features)]
        #[inline]
        fn step<const DELTA: bool, const CHECKED: bool>(
            data: __m128i,
            m: usize,
            d0: &mut [u32; 12],
            acc: &mut __m128i,
        ) -> Option<(u32, usize)> {
            if m == 0 {
                twelve::<DELTA>(data, d0, acc);
                return Some((12, 12));
            }
            let [consumed, index] = STEPS[m];
            if index == (OVERLONG >> 8) as u8 {
                return None;
            }
            let x = _mm_shuffle_epi8(data, SHUFFLES[index as usize]);
            let count = if index < GROUP_B {
                let v = six(x);
                put::<_, 0, DELTA>(d0, _mm_cvtepu16_epi32(v), acc);
                put::<_, 4, DELTA>(d0, _mm_cvtepu16_epi32(_mm_srli_si128::<8>(v)), acc);
                6
            } else if index < GROUP_C {
                put::<_, 0, DELTA>(d0, four(x), acc);
                4
            } else {
                let (v, fits) = two(x);
                if CHECKED && !fits {
                    return None;
                }
                put::<_, 0, DELTA>(d0, v, acc);
                2
            };
            Some((u32::from(consumed), count))
        }


        /// The last values of a decode (the end of a long one, or a whole
        /// list of up to [`SHORT_STEPS_MAX`] values) by table steps while 16
        /// bytes are readable at `pos` and at least three values are to come
        /// (one or two cost less in the scalar loop): a step decodes into a
        /// 12-value buffer (a step's values may run past the ones wanted,
        /// and `out` ends at the last), the wanted ones are copied out, and
        /// when the step ran past them, the bytes consumed are found from the
        /// continuation bits (the end of value `left` is the `left`-th clear bit). Values
        /// past the wanted ones are dropped unchecked: a step the table
        /// cannot take (overlong, or an unfit 5th byte, maybe of such a
        /// value) stops here, and the scalar tail goes on from the same
        /// value and byte (and reports any error). Returns what the decode
        /// returns; called only when three values or more are to come (a
        /// call of its own: its arguments pass through memory).
        #[target_feature(enable = $features)]
        #[inline]
        fn short_steps<'a, S: Source<'a>, const DELTA: bool, const CHECKED: bool>(
            src: S,
            out: &mut [u32],
            mut i: usize,
            mut pos: usize,
            mut acc: __m128i,
        ) -> Result<usize, DecodeError> {
            let n = out.len();
            // One or two values: the scalar loop is cheaper than a step.
            while n - i >= 3 {
                // SAFETY: `pos` ends the `i` values decoded, `n - i` are to
                // come.
                let input = unsafe { src.window(pos, n - i) };
                let Some(at) = input.get(pos..).and_then(<[u8]>::first_chunk::<16>) else {
                    break;
                };
                let data = load16(at);
                let cont = _mm_movemask_epi8(data) as u32;
                let mut buf = [0u32; 12];
                let mut a = acc;
                let Some((consumed, count)) =
                    step::<DELTA, CHECKED>(data, (cont & 0xFFF) as usize, &mut buf, &mut a)
                else {
                    break;
                };
                let left = n - i;
                if count <= left {
                    copy_short(&mut out[i..i + count], &buf);
                    pos += consumed as usize;
                    i += count;
                    acc = a;
                } else {
                    copy_short(&mut out[i..], &buf);
                    // The values taken end in the first 12 bytes (a step's
                    // do); the `left`-th clear continuation bit ends them.
                    let mut stops = !cont & 0xFFF;
                    for _ in 1..left {
                        stops &= stops - 1;
                    }
                    pos += stops.trailing_zeros() as usize + 1;
                    acc = _mm_set1_epi32(buf[left - 1] as i32);
                    i = n;
                }
            }
            let prev = _mm_cvtsi128_si32(acc) as u32;
            // SAFETY: `pos` ends the `i` values decoded.
            unsafe { src.tail::<DELTA>(out, i, pos, prev) }
        }

        /// The bulk of a long decode, as MaskedVByte's main loop: `sig`
        /// holds the continuation bits of bytes `pos..covered`; 48 more are
        /// added (three `pmovmskb`) once fewer than 16 remain, and steps run
        /// while 16 are known, with no other per-step bookkeeping. A step
        /// whose low 16 bits are all clear takes sixteen one-byte values
        /// (MaskedVByte's fast path), low 12 clear twelve, otherwise one table
        /// [`step`]. Returns `(pos, i, acc)` where it stopped: fewer
        /// than 48 unscanned bytes in the window, fewer than 16 values of
        /// room, or a step the table cannot take, which [`decode_loop`]'s
        /// loop and the scalar decoder then handle at the same value and
        /// byte.
        ///
        /// Bounds: `input` is `src`'s window at the last refill (the whole
        /// input, or for a trusted count the bytes the values to come are
        /// known to hold, see `counted.rs`); a 16-byte load at `pos` happens
        /// only when `pos + 16 <= covered <= input.len()`; a mask is made
        /// only of 48 bytes at `covered` when `covered + 48 <= input.len()`;
        /// a step writes at most 16 values at `i` only when `i + 16 <=
        /// out.len()`.
        // The AVX-512 set runs it only for long delta decodes on Zen.
        #[target_feature(enable = $features)]
        #[inline]
        fn decode_bulk<'a, S: Source<'a>, const DELTA: bool, const CHECKED: bool>(
            src: S,
            out: &mut [u32],
            mut acc: __m128i,
        ) -> (usize, usize, __m128i) {
            let n = out.len();
            let mut pos = 0usize;
            let mut i = 0usize;
            let mut covered = 0usize;
            let mut sig = 0u64;
            'refill: loop {
                // SAFETY: `pos` ends the `i` values decoded (each step moves
                // by the bytes of the values it decodes, read from their
                // continuation bits); `n - i` are to come.
                let input = unsafe { src.window(pos, n - i) };
                let Some(blk) = input.get(covered..).and_then(<[u8]>::first_chunk::<48>) else {
                    break;
                };
                // `covered - pos < 16` here, so the new bits fit in 64.
                sig |= mask48(blk) << (covered - pos);
                covered += 48;
                while pos + 16 <= covered {
                    let Some(dst) = out.get_mut(i..).and_then(<[u32]>::first_chunk_mut::<16>)
                    else {
                        break 'refill;
                    };
                    // SAFETY: `pos + 16 <= covered <= input.len()`: 16
                    // readable bytes at `pos`.
                    let data = unsafe { _mm_loadu_si128(input.as_ptr().add(pos).cast()) };
                    let (d0, rest) = dst
                        .split_first_chunk_mut::<12>()
                        .unwrap_or_else(|| unreachable!());
                    let (consumed, count) = if sig & 0xFFFF == 0 {
                        twelve::<DELTA>(data, d0, &mut acc);
                        let v = _mm_cvtepu8_epi32(_mm_srli_si128::<12>(data));
                        let v = delta::<_, DELTA>(v, &mut acc, |v, a| prefix_sum(v, a));
                        // SAFETY: `rest` is 4 writable u32s (16 bytes).
                        unsafe { _mm_storeu_si128(rest.as_mut_ptr().cast(), v) };
                        (16, 16)
                    } else {
                        let Some(s) =
                            step::<DELTA, CHECKED>(data, (sig & 0xFFF) as usize, d0, &mut acc)
                        else {
                            break 'refill;
                        };
                        s
                    };
                    sig >>= consumed;
                    pos += consumed as usize;
                    i += count;
                }
            }
            (pos, i, acc)
        }

        /// The paper's decode loop, after [`decode_bulk`] (inputs of 64 bytes
        /// and 16 values or more) has taken what it can. Masks of 48 bytes
        /// are made ahead (two in flight, see [`Masks`]), each step takes
        /// the low 12 bits, decodes 12 one-byte values or a table [`step`]
        /// and shifts the mask by the bytes it consumed. A step runs only
        /// when 16 bytes of `src`'s window are readable at `pos` and 12
        /// values of room remain in `out`; a mask is made only of bytes
        /// inside the window. Anything else — the tail, an overlong value, a
        /// 5-byte value whose last byte is too large (if `CHECKED`) — is left
        /// to the scalar decoder (`src.tail`), which continues at the same
        /// value and byte.
        #[target_feature(enable = $features)]
        #[inline]
        fn decode_loop<'a, S: Source<'a>, const DELTA: bool, const CHECKED: bool>(
            src: S,
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, DecodeError> {
            let n = out.len();
            let mut pos = 0usize; // next input byte
            let mut i = 0usize; // next value
            let mut acc = _mm_set1_epi32(prev as i32);
            let mut masks = Masks::new();
            // SAFETY: nothing decoded yet: byte 0, `n` values to come.
            let len = unsafe { src.window(0, n) }.len();
            if len < 16 || n <= SHORT_STEPS_MAX {
                // Too short for the main loop's steps.
                if len >= 16 && n >= 3 {
                    return short_steps::<S, DELTA, CHECKED>(src, out, 0, 0, acc);
                }
                // SAFETY: value 0 begins at byte 0.
                return unsafe { src.tail::<DELTA>(out, 0, 0, prev) };
            }
            if len >= 64 && n >= 16 {
                (pos, i, acc) = $bulk::<S, DELTA, CHECKED>(src, out, acc);
                masks.scan = pos;
            }
            // SAFETY: as in `decode_bulk`: `pos` ends the `i` values decoded.
            (pos, i) = unsafe {
                step_loop(
                    src,
                    out,
                    (pos, i),
                    &mut masks,
                    &mut acc,
                    |masks, input| fill(masks, input),
                    |at, m, dst, acc| step::<DELTA, CHECKED>(load16(at), m, dst, acc),
                )
            };
            if n - i >= 3 {
                return short_steps::<S, DELTA, CHECKED>(src, out, i, pos, acc);
            }
            let prev = _mm_cvtsi128_si32(acc) as u32;
            // SAFETY: `pos` ends the `i` values decoded.
            unsafe { src.tail::<DELTA>(out, i, pos, prev) }
        }

        super::super::simd::u32_entry_points!($features, short: true $(, first: $first)?);

        /// The u64 decoder ([`decode_u64_with`]): the same mask loop; groups
        /// A and B (values of up to 2 or 3 bytes) are decoded as for u32 and
        /// widened to 64 bits, the all-one-byte fast path too; a step whose
        /// first values are longer (group C, or overlong for u32) decodes
        /// one value word-at-a-time and moves on.
        #[target_feature(enable = $features)]
        fn decode_u64<const DELTA: bool>(
            input: &[u8],
            out: &mut [u64],
            prev: u64,
        ) -> Result<usize, DecodeError> {
            decode_u64_with::<_, DELTA>(
                input,
                out,
                _mm_set1_epi64x(prev as i64),
                |masks, input| fill(masks, input),
                |src, m, index, dst, acc| {
                    let data = load16(src);
                    if m == 0 {
                        put::<_, 0, DELTA>(dst, _mm_cvtepu8_epi64(data), acc);
                        put::<_, 2, DELTA>(dst, _mm_cvtepu8_epi64(_mm_srli_si128::<2>(data)), acc);
                        put::<_, 4, DELTA>(dst, _mm_cvtepu8_epi64(_mm_srli_si128::<4>(data)), acc);
                        put::<_, 6, DELTA>(dst, _mm_cvtepu8_epi64(_mm_srli_si128::<6>(data)), acc);
                        put::<_, 8, DELTA>(dst, _mm_cvtepu8_epi64(_mm_srli_si128::<8>(data)), acc);
                        put::<_, 10, DELTA>(dst, _mm_cvtepu8_epi64(_mm_srli_si128::<10>(data)), acc);
                        12
                    } else if index < GROUP_B {
                        let v = six(_mm_shuffle_epi8(data, SHUFFLES[index as usize]));
                        put::<_, 0, DELTA>(dst, _mm_cvtepu16_epi64(v), acc);
                        put::<_, 2, DELTA>(dst, _mm_cvtepu16_epi64(_mm_srli_si128::<4>(v)), acc);
                        put::<_, 4, DELTA>(dst, _mm_cvtepu16_epi64(_mm_srli_si128::<8>(v)), acc);
                        6
                    } else {
                        let v = four(_mm_shuffle_epi8(data, SHUFFLES[index as usize]));
                        put::<_, 0, DELTA>(dst, _mm_cvtepu32_epi64(v), acc);
                        put::<_, 2, DELTA>(dst, _mm_cvtepu32_epi64(_mm_srli_si128::<8>(v)), acc);
                        4
                    }
                },
                // Lane 1 is a copy, overwritten by the next value.
                |v, dst, acc| put::<_, 0, DELTA>(dst, _mm_set_epi64x(0, v as i64), acc),
                |acc| {
                    let mut last = [0u64; 2];
                    // SAFETY: `last` is 16 writable bytes.
                    unsafe { _mm_storeu_si128(last.as_mut_ptr().cast(), acc) };
                    last[0]
                },
            )
        }

        /// Encodes u32s (deltas from `prev` if `DELTA`); `out` holds the
        /// encoded length. Eight values per step while all eight are below
        /// 2^14 (one or two bytes, the bulk of posting lists): packed to u16
        /// lanes, split into the low byte (with the continuation bit when a
        /// second byte follows) and the high byte, and compacted by one
        /// `pshufb` chosen by the 8-bit "takes two bytes" mask — group A of
        /// the decoder in reverse. Blocks with a longer value, the last
        /// values, and the last 16 bytes of `out` go to the scalar encoder. A step stores 16
        /// bytes only when 16 bytes of `out` remain.
        #[target_feature(enable = $features)]
        fn encode<const DELTA: bool>(values: &[u32], prev: u32, out: &mut [u8]) -> usize {
            let mut pos = 0usize;
            let mut carry = _mm_set1_epi32(prev as i32);
            let (blocks, _) = values.as_chunks::<8>();
            let mut done = 0usize; // values encoded
            for block in blocks {
                let Some(dst) = out.get_mut(pos..).and_then(<[u8]>::first_chunk_mut::<16>) else {
                    break;
                };
                let (a, b) = block.split_at(4);
                // SAFETY: `a` is 4 readable u32s (16 bytes).
                let raw0 = unsafe { _mm_loadu_si128(a.as_ptr().cast()) };
                // SAFETY: `b` is 4 readable u32s (16 bytes).
                let raw1 = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
                let v0 = group_deltas::<DELTA>(raw0, &mut carry);
                let v1 = group_deltas::<DELTA>(raw1, &mut carry);
                let big = _mm_set1_epi32(!0x3FFF);
                if _mm_testz_si128(_mm_or_si128(v0, v1), big) == 0 {
                    // A value of 3 bytes or more: this block goes to scalar.
                    let before = if done == 0 { prev } else { values[done - 1] };
                    pos += scalar::encode_block32::<DELTA>(block, before, &mut out[pos..]);
                    done += 8;
                    continue;
                }
                let x = _mm_packus_epi32(v0, v1);
                let two = _mm_cmpgt_epi16(x, _mm_set1_epi16(0x7F));
                let lo = _mm_and_si128(x, _mm_set1_epi16(0x7F));
                let hi = _mm_and_si128(_mm_slli_epi16::<1>(x), _mm_set1_epi16(0x7F00));
                let cont = _mm_and_si128(two, _mm_set1_epi16(0x80));
                let bytes = _mm_or_si128(_mm_or_si128(lo, hi), cont);
                let m =
                    _mm_movemask_epi8(_mm_packs_epi16(two, _mm_setzero_si128())) as usize & 0xFF;
                let packed = _mm_shuffle_epi8(bytes, ENCODE_SHUFFLES[m]);
                // SAFETY: `dst` is 16 writable bytes.
                unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), packed) };
                pos += 8 + m.count_ones() as usize;
                done += 8;
            }
            let prev = if done == 0 { prev } else { values[done - 1] };
            let rest = &values[done..];
            pos + scalar::encode::<u32, DELTA>(rest, prev, &mut out[pos..])
        }
    };
}

pub(super) use masked_vbyte_kernels;
