//! The Stream VByte x86 kernel bodies, shared by the SSE4.1 and AVX2 kernel
//! sets (see `sse41.rs` for the algorithms and their bounds, `avx2.rs` for
//! why the same algorithm is compiled twice). `stream_vbyte_kernels!` expands
//! to the kernel functions, each `#[target_feature(enable = $features)]`, and
//! the two kernel tables `KERNELS_1234` and `KERNELS_0124`. `$zero_block`
//! names the function that decodes four all-zero control bytes: the macro's
//! own 128-bit `zero_block_sse`, or a wider one the invoking module defines.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{Format, Variant};
use crate::tables::streamvbyte::{SvbTables, TABLES_0124, TABLES_1234};

/// Shuffle masks as vectors, so that a table look-up is a plain (safe) copy.
pub(super) struct Masks {
    pub(super) decode: [__m128i; 256],
    pub(super) encode: [__m128i; 256],
}

const fn masks(t: &SvbTables) -> Masks {
    // SAFETY: `[[u8; 16]; 256]` and `[__m128i; 256]` have the same size and
    // every bit pattern is a valid `__m128i`.
    let decode = unsafe { core::mem::transmute::<[[u8; 16]; 256], [__m128i; 256]>(t.decode) };
    // SAFETY: as above.
    let encode = unsafe { core::mem::transmute::<[[u8; 16]; 256], [__m128i; 256]>(t.encode) };
    Masks { decode, encode }
}

static MASKS_1234: Masks = masks(&TABLES_1234);
static MASKS_0124: Masks = masks(&TABLES_0124);

#[inline(always)]
pub(super) fn masks_of<F: Format>() -> &'static Masks {
    match F::VARIANT {
        Variant::V1234 => &MASKS_1234,
        Variant::V0124 => &MASKS_0124,
    }
}

macro_rules! stream_vbyte_kernels {
    ($features:literal, $isa:expr, $zero_block:ident) => {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::*;

        use super::super::{control_len, scalar, Format, Kernels, Variant, F0124, F1234};
        use crate::error::DecodeError;
        use crate::isa::Isa;
        use crate::tables::streamvbyte::{ZERO_FLAGS_0124, ZERO_FLAGS_1234};

        pub(crate) static KERNELS_1234: Kernels = kernels::<F1234>();
        pub(crate) static KERNELS_0124: Kernels = kernels::<F0124>();

        const fn kernels<F: Format>() -> Kernels {
            Kernels {
                isa: $isa,
                variant: F::VARIANT,
                decode: decode::<F, false>,
                decode_delta: decode::<F, true>,
                decode_unchecked: decode_unchecked::<F, false>,
                decode_delta_unchecked: decode_unchecked::<F, true>,
                encode: encode::<F, false>,
                encode_delta: encode::<F, true>,
            }
        }

        /// Prefix sum of four lanes plus the running total `prev` (broadcast);
        /// returns the sums and the new broadcast total.
        ///
        /// The group's own prefix sum and its broadcast last lane do not depend on
        /// `prev`, so the loop-carried chain is a single add per group.
        #[target_feature(enable = $features)]
        #[inline]
        fn prefix_sum(v: __m128i, prev: __m128i) -> (__m128i, __m128i) {
            let v = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
            let v = _mm_add_epi32(v, _mm_slli_si128::<8>(v));
            let total = _mm_shuffle_epi32::<0xFF>(v);
            (_mm_add_epi32(v, prev), _mm_add_epi32(total, prev))
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
        unsafe fn zero_block_sse<F: Format, const DELTA: bool>(
            src: *const u8,
            dst: &mut [[u32; 4]; 4],
            prev: &mut __m128i,
        ) -> usize {
            match F::VARIANT {
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

        /// The decode loop shared by the checked and unchecked entry points.
        ///
        /// # Safety
        /// If `CHECKED` is false, `input` must hold a valid stream of `out.len()`
        /// values followed by `PADDING` bytes. `input.len() >= control_len(out.len())`.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn decode_loop<F: Format, const DELTA: bool, const CHECKED: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, DecodeError> {
            let n = out.len();
            let ctrl = &input[..control_len(n)];
            let base = input.as_ptr();
            let len = input.len();
            let mut pos = ctrl.len();
            let mut prev_v = _mm_set1_epi32(prev as i32);
            let (groups, _) = out.as_chunks_mut::<4>();
            let (blocks, _) = groups.as_chunks_mut::<4>();
            let mut done = 0; // groups decoded

            for (keys, dst) in ctrl.chunks_exact(4).zip(blocks.iter_mut()) {
                // Invariant: pos <= len. A block reads at most 64 bytes from `pos`.
                if CHECKED && len - pos < 64 {
                    break;
                }
                let key = u32::from_le_bytes([keys[0], keys[1], keys[2], keys[3]]);
                if key == 0 {
                    // SAFETY: 64 (checked) or, for trusted input, 16 data bytes plus
                    // padding are readable at `pos`.
                    pos += unsafe { $zero_block::<F, DELTA>(base.add(pos), dst, &mut prev_v) };
                } else {
                    for (k, d) in keys.iter().zip(dst.iter_mut()) {
                        // SAFETY: each group consumes at most 16 bytes, so this load
                        // starts at most 48 bytes into the 64 checked above (or reads
                        // inside the trusted data plus padding).
                        pos += unsafe { group::<F, DELTA>(base.add(pos), *k, d, &mut prev_v) };
                    }
                }
                done += 4;
            }
            let full = n / 4;
            while done < full {
                if CHECKED && len - pos < 16 {
                    break;
                }
                // SAFETY: 16 bytes remain at `pos` (checked, or padding).
                pos += unsafe {
                    group::<F, DELTA>(base.add(pos), ctrl[done], &mut groups[done], &mut prev_v)
                };
                done += 1;
            }
            let prev = _mm_cvtsi128_si32(prev_v) as u32;
            scalar::decode_from::<F, DELTA>(input, out, done * 4, pos, prev)
        }

        /// Checked decode: see [`Kernels`](super::super::Kernels).
        #[target_feature(enable = $features)]
        fn decode<F: Format, const DELTA: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, DecodeError> {
            // SAFETY: CHECKED = true has no precondition beyond the control-byte
            // length, which the handle validated.
            unsafe { decode_loop::<F, DELTA, true>(input, out, prev) }
        }

        /// Unchecked decode of trusted, padded input.
        ///
        /// # Safety
        /// `input` holds a valid stream of `out.len()` values plus `PADDING` bytes.
        #[target_feature(enable = $features)]
        unsafe fn decode_unchecked<F: Format, const DELTA: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> usize {
            // SAFETY: forwarded from the caller.
            let r = unsafe { decode_loop::<F, DELTA, false>(input, out, prev) };
            r.unwrap_or(0)
        }

        /// The control bytes of two groups of four values, `(key_a, key_b)`.
        ///
        /// `pcmpeqb` with zero and `pmovmskb` give one "byte is zero" flag per byte
        /// (16 per group, 4 per value); each byte of those flags covers two values
        /// and indexes a 256-entry table of their two codes. The vector work is four
        /// instructions; the rest runs on the integer units.
        #[target_feature(enable = $features)]
        #[inline]
        fn keys_of<F: Format>(a: __m128i, b: __m128i) -> (u8, u8) {
            let table = match F::VARIANT {
                Variant::V1234 => &ZERO_FLAGS_1234,
                Variant::V0124 => &ZERO_FLAGS_0124,
            };
            let zero = _mm_setzero_si128();
            let za = _mm_movemask_epi8(_mm_cmpeq_epi8(a, zero)) as usize;
            let zb = _mm_movemask_epi8(_mm_cmpeq_epi8(b, zero)) as usize;
            let key = |z: usize| table[0][z & 0xFF] | table[1][z >> 8];
            (key(za), key(zb))
        }

        /// Encodes one group: shuffles the significant bytes of `v` to `dst` (16
        /// bytes are stored) and returns how many of them count.
        ///
        /// # Safety
        /// `dst` must be valid for writing 16 bytes.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn put_group<F: Format>(dst: *mut u8, v: __m128i, key: u8) -> usize {
            let bytes = _mm_shuffle_epi8(v, super::kernels::masks_of::<F>().encode[key as usize]);
            // SAFETY: the caller guarantees 16 writable bytes at `dst`.
            unsafe { _mm_storeu_si128(dst.cast(), bytes) };
            F::tables().len[key as usize] as usize
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
            let (blocks, _) = values.as_chunks::<16>();
            let (key_blocks, _) = ctrl.as_chunks_mut::<4>();
            let base = data.as_mut_ptr();
            // Four 16-byte stores, each at most 16 bytes after the previous.
            let limit = data.len().checked_sub(64);
            let mut pos = 0;
            let mut prev_v = _mm_set1_epi32(prev as i32);
            let mut done = 0; // values encoded
            for (keys, block) in key_blocks.iter_mut().zip(blocks) {
                match limit {
                    Some(limit) if pos <= limit => {}
                    _ => break,
                }
                let mut v = [_mm_setzero_si128(); 4];
                for (k, lane) in v.iter_mut().enumerate() {
                    // SAFETY: `block` is 64 readable bytes; this reads bytes
                    // 16k..16k+16 of them (k < 4).
                    *lane = unsafe { _mm_loadu_si128(block.as_ptr().add(4 * k).cast()) };
                }
                if DELTA {
                    let raw = v;
                    v[0] = _mm_sub_epi32(raw[0], _mm_alignr_epi8::<12>(raw[0], prev_v));
                    v[1] = _mm_sub_epi32(raw[1], _mm_alignr_epi8::<12>(raw[1], raw[0]));
                    v[2] = _mm_sub_epi32(raw[2], _mm_alignr_epi8::<12>(raw[2], raw[1]));
                    v[3] = _mm_sub_epi32(raw[3], _mm_alignr_epi8::<12>(raw[3], raw[2]));
                    prev_v = raw[3];
                }
                let (k0, k1) = keys_of::<F>(v[0], v[1]);
                let (k2, k3) = keys_of::<F>(v[2], v[3]);
                *keys = [k0, k1, k2, k3];
                for (lane, key) in v.into_iter().zip([k0, k1, k2, k3]) {
                    // SAFETY: 64 bytes of `data` remain at the block's first
                    // `pos` (checked above) and each group advances `pos` by
                    // at most 16, so these 16 bytes are inside them.
                    pos += unsafe { put_group::<F>(base.add(pos), lane, key) };
                }
                done += 16;
            }
            // Remaining whole groups, one at a time (short lists live here).
            let (groups, _) = values.as_chunks::<4>();
            for (g, group) in groups.iter().enumerate().skip(done / 4) {
                if data.len() - pos < 16 {
                    break;
                }
                // SAFETY: `group` is 16 readable bytes.
                let raw = unsafe { _mm_loadu_si128(group.as_ptr().cast()) };
                let v = if DELTA {
                    let d = _mm_sub_epi32(raw, _mm_alignr_epi8::<12>(raw, prev_v));
                    prev_v = raw;
                    d
                } else {
                    raw
                };
                let (key, _) = keys_of::<F>(v, v);
                ctrl[g] = key;
                // SAFETY: 16 bytes of `data` remain at `pos` (checked above).
                pos += unsafe { put_group::<F>(base.add(pos), v, key) };
                done += 4;
            }
            let prev = if DELTA && done > 0 {
                values[done - 1]
            } else {
                prev
            };
            scalar::encode_from::<F, DELTA>(values, prev, out, done, cl + pos)
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
