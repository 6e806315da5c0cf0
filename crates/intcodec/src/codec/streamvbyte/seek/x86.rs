//! x86 select / seek over Stream VByte streams (SSE4.1 and AVX2 builds of one
//! body, as for the decoders).
//!
//! - Plain select: the data offset of value `i`'s group is the sum of the
//!   lengths of the control bytes before it. Sixteen control bytes at a
//!   time, a `pshufb` on each nibble looks up the byte count of its two codes
//!   and `psadbw` adds them up; the group itself is read by the scalar code
//!   (at most four values).
//! - Delta select: the values before `i` are needed only as a sum, so each
//!   group is shuffled into four lanes (paper Fig. 4) and added to a vector
//!   accumulator, without a prefix sum and without a store; the group holding
//!   `i` is decoded and prefix-summed, and its lane read.
//! - Delta seek: each group is shuffled, prefix-summed onto the running value
//!   (paper §2) and compared with the target (unsigned, by flipping the sign
//!   bits); the first lane at or above it ends the scan.
//! - Zero blocks (four zero control bytes: sixteen one-byte values in the
//!   1234 variant, sixteen zeros in 0124; the paper's "optimized code path
//!   when we have four zero control bytes") are summed by one `psadbw`:
//!   select adds the sum, seek skips the block when its last value is below
//!   the target.
//!
//! Bounds: a group's 16-byte data load happens only when 16 bytes of `data`
//! remain at its offset; anything else (the last groups, truncation) goes to
//! `scalar`, which reports errors exactly as the decoder does. Requires
//! SSSE3 + SSE4.1 (the AVX2 build: AVX2, VEX-encoded).

macro_rules! svb_seek_kernels {
    ($name:ident, $features:literal) => {
        pub(crate) mod $name {
            #[cfg(target_arch = "x86")]
            use core::arch::x86::*;
            #[cfg(target_arch = "x86_64")]
            use core::arch::x86_64::*;

            use super::super::scalar::{self, At};
            use crate::codec::streamvbyte::Format;
            use crate::error::DecodeError;

            #[target_feature(enable = $features)]
            #[inline]
            fn load16(src: &[u8; 16]) -> __m128i {
                // SAFETY: `src` is 16 readable bytes.
                unsafe { _mm_loadu_si128(src.as_ptr().cast()) }
            }

            /// The four values (stored words) of the group with control byte
            /// `key` whose data starts at `src`.
            #[target_feature(enable = $features)]
            #[inline]
            fn group<F: Format>(src: &[u8; 16], key: u8) -> __m128i {
                let shuf = load16(&F::tables().decode[key as usize]);
                _mm_shuffle_epi8(load16(src), shuf)
            }

            /// Data bytes announced by `ctrl` (all of it), 16 control bytes at
            /// a time: a nibble table of the byte counts of two codes.
            #[target_feature(enable = $features)]
            fn data_len<F: Format>(ctrl: &[u8]) -> usize {
                let b = F::BYTES;
                let mut nib = [0u8; 16];
                for (x, slot) in nib.iter_mut().enumerate() {
                    *slot = b[x & 3] + b[x >> 2];
                }
                let nib = load16(&nib);
                let low = _mm_set1_epi8(0x0F);
                let mut sum = _mm_setzero_si128();
                let (blocks, rest) = ctrl.as_chunks::<16>();
                for blk in blocks {
                    let c = load16(blk);
                    let lo = _mm_shuffle_epi8(nib, _mm_and_si128(c, low));
                    let hi = _mm_shuffle_epi8(nib, _mm_and_si128(_mm_srli_epi16::<4>(c), low));
                    // Each byte is at most 16: the pair sum fits in a byte.
                    let pair = _mm_add_epi8(lo, hi);
                    sum = _mm_add_epi64(sum, _mm_sad_epu8(pair, _mm_setzero_si128()));
                }
                let total = _mm_cvtsi128_si64(_mm_add_epi64(sum, _mm_unpackhi_epi64(sum, sum)));
                let len = &F::tables().len;
                total as usize
                    + rest
                        .iter()
                        .map(|&k| len[k as usize] as usize)
                        .sum::<usize>()
            }

            /// Plain select of value `i < n`; `ctrl` holds `control_len(n)`
            /// bytes, `data` the data bytes, which start at `base` in the
            /// stream.
            #[target_feature(enable = $features)]
            pub(crate) fn select<F: Format>(
                ctrl: &[u8],
                data: &[u8],
                base: usize,
                i: usize,
            ) -> Result<u32, DecodeError> {
                let g = i / 4;
                let pos = data_len::<F>(&ctrl[..g]);
                scalar::select_from(
                    F::BYTES,
                    ctrl,
                    data,
                    base,
                    i,
                    At {
                        i: 4 * g,
                        pos,
                        acc: 0,
                    },
                )
            }

            /// Delta select of value `i < n` (from `prev`).
            #[target_feature(enable = $features)]
            pub(crate) fn select_delta<F: Format>(
                ctrl: &[u8],
                data: &[u8],
                base: usize,
                prev: u32,
                i: usize,
            ) -> Result<u32, DecodeError> {
                let len = &F::tables().len;
                let g = i / 4;
                let mut pos = 0usize;
                let mut k = 0usize;
                let mut acc = _mm_setzero_si128();
                // Sums of zero blocks (four zero control bytes), u64 lanes.
                let mut acc64 = _mm_setzero_si128();
                while k < g {
                    if k + 4 <= g {
                        if let Some(&c4) = ctrl.get(k..).and_then(<[u8]>::first_chunk::<4>) {
                            if u32::from_ne_bytes(c4) == 0 {
                                if F::BYTES[0] == 0 {
                                    // 0124: sixteen zeros, no data bytes.
                                    k += 4;
                                    continue;
                                }
                                // 1234: sixteen one-byte values; `psadbw`
                                // adds them up.
                                if let Some(src) =
                                    data.get(pos..).and_then(<[u8]>::first_chunk::<16>)
                                {
                                    acc64 = _mm_add_epi64(
                                        acc64,
                                        _mm_sad_epu8(load16(src), _mm_setzero_si128()),
                                    );
                                    pos += 16;
                                    k += 4;
                                    continue;
                                }
                            }
                        }
                    }
                    let Some(src) = data.get(pos..).and_then(<[u8]>::first_chunk::<16>) else {
                        break;
                    };
                    let key = ctrl[k];
                    acc = _mm_add_epi32(acc, group::<F>(src, key));
                    pos += len[key as usize] as usize;
                    k += 1;
                }
                let acc = _mm_add_epi32(acc, _mm_unpackhi_epi64(acc, acc));
                let acc = _mm_add_epi32(acc, _mm_shuffle_epi32::<1>(acc));
                let acc64 = _mm_add_epi64(acc64, _mm_unpackhi_epi64(acc64, acc64));
                let sum = prev
                    .wrapping_add(_mm_cvtsi128_si32(acc) as u32)
                    .wrapping_add(_mm_cvtsi128_si32(acc64) as u32);
                if k == g {
                    if let Some(src) = data.get(pos..).and_then(<[u8]>::first_chunk::<16>) {
                        // `i`'s group, whole inside `data`: its lanes up to
                        // `i`, prefix-summed.
                        let v = group::<F>(src, ctrl[g]);
                        let v = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
                        let v = _mm_add_epi32(v, _mm_slli_si128::<8>(v));
                        let lane = match i % 4 {
                            0 => _mm_cvtsi128_si32(v),
                            1 => _mm_extract_epi32::<1>(v),
                            2 => _mm_extract_epi32::<2>(v),
                            _ => _mm_extract_epi32::<3>(v),
                        };
                        return Ok(sum.wrapping_add(lane as u32));
                    }
                }
                scalar::select_delta_from(
                    F::BYTES,
                    ctrl,
                    data,
                    base,
                    i,
                    At {
                        i: 4 * k,
                        pos,
                        acc: sum,
                    },
                )
            }

            /// Delta seek: the first index whose value is at least `target`.
            #[target_feature(enable = $features)]
            pub(crate) fn seek_delta<F: Format>(
                ctrl: &[u8],
                data: &[u8],
                base: usize,
                n: usize,
                prev: u32,
                target: u32,
            ) -> Result<Option<(usize, u32)>, DecodeError> {
                let len = &F::tables().len;
                let flip = _mm_set1_epi32(i32::MIN);
                // Values >= target  <=>  !(target > value), signs flipped.
                let t = _mm_xor_si128(_mm_set1_epi32(target as i32), flip);
                let mut acc = _mm_set1_epi32(prev as i32);
                let mut pos = 0usize;
                let mut k = 0usize;
                while 4 * k < n {
                    // A zero block (four zero control bytes) whose last value
                    // is below the target is skipped whole: its sum is a
                    // `psadbw` (1234) or zero (0124).
                    if 4 * k + 16 <= n {
                        if let Some(&c4) = ctrl.get(k..).and_then(<[u8]>::first_chunk::<4>) {
                            if u32::from_ne_bytes(c4) == 0 {
                                let total = if F::BYTES[0] == 0 {
                                    Some(_mm_setzero_si128())
                                } else {
                                    data.get(pos..)
                                        .and_then(<[u8]>::first_chunk::<16>)
                                        .map(|src| {
                                            let s = _mm_sad_epu8(load16(src), _mm_setzero_si128());
                                            _mm_shuffle_epi32::<0>(_mm_add_epi64(
                                                s,
                                                _mm_unpackhi_epi64(s, s),
                                            ))
                                        })
                                };
                                if let Some(total) = total {
                                    let last = _mm_add_epi32(acc, total);
                                    let last_f = _mm_xor_si128(last, flip);
                                    let below = _mm_cmpgt_epi32(t, last_f);
                                    // Every value of the block lies in
                                    // [acc, last] unless the sum wrapped past
                                    // 2^32 (possible only in an unsorted
                                    // stream); then the groups are compared
                                    // one by one.
                                    let wrapped = _mm_cmpgt_epi32(_mm_xor_si128(acc, flip), last_f);
                                    let skip = _mm_andnot_si128(wrapped, below);
                                    if _mm_movemask_ps(_mm_castsi128_ps(skip)) & 1 != 0 {
                                        acc = last;
                                        pos += 16 * usize::from(F::BYTES[0]);
                                        k += 4;
                                        continue;
                                    }
                                }
                            }
                        }
                    }
                    let Some(src) = data.get(pos..).and_then(<[u8]>::first_chunk::<16>) else {
                        break;
                    };
                    let key = ctrl[k];
                    let v = group::<F>(src, key);
                    let v = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
                    let v = _mm_add_epi32(v, _mm_slli_si128::<8>(v));
                    let v = _mm_add_epi32(v, acc);
                    let below = _mm_cmpgt_epi32(t, _mm_xor_si128(v, flip));
                    let mut hit = !_mm_movemask_ps(_mm_castsi128_ps(below)) as u32 & 0xF;
                    let left = n - 4 * k;
                    if left < 4 {
                        hit &= (1u32 << left) - 1;
                    }
                    if hit != 0 {
                        let lane = hit.trailing_zeros() as usize;
                        let mut lanes = [0u32; 4];
                        // Lanes of a group whose 16 data bytes are all inside
                        // `data`: every value of it is complete.
                        for (j, l) in lanes.iter_mut().enumerate() {
                            *l = match j {
                                0 => _mm_cvtsi128_si32(v),
                                1 => _mm_extract_epi32::<1>(v),
                                2 => _mm_extract_epi32::<2>(v),
                                _ => _mm_extract_epi32::<3>(v),
                            } as u32;
                        }
                        return Ok(Some((4 * k + lane, lanes[lane])));
                    }
                    acc = _mm_shuffle_epi32::<0xFF>(v);
                    pos += len[key as usize] as usize;
                    k += 1;
                }
                let acc = _mm_cvtsi128_si32(acc) as u32;
                scalar::seek_delta_from(
                    F::BYTES,
                    ctrl,
                    data,
                    base,
                    n,
                    target,
                    At { i: 4 * k, pos, acc },
                )
            }
        }
    };
}

svb_seek_kernels!(sse41, "sse4.1");
svb_seek_kernels!(avx2, "avx2,bmi1,bmi2,popcnt");
