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
//! - Four groups per step (their four control bytes read as one u32): the
//!   data offsets of the four come from the length table, independent of the
//!   data, so the four loads and shuffles overlap.
//!
//! Bounds: four groups are loaded only when 64 data bytes remain at their
//! offset, a zero block when 16 do, one group when 16 do — or, near the
//! end, from the last 16 bytes of `data` with its shuffle indices shifted,
//! when the group's own bytes are all inside `data` (as the decoders' tails
//! do). Anything else (a stream shorter than 16 data bytes, truncation) goes
//! to `scalar`, which reports errors exactly as the decoder does. Requires
//! SSSE3 + SSE4.1 (the AVX2 build: AVX2, VEX-encoded).

macro_rules! svb_seek_kernels {
    ($name:ident, $features:literal) => {
        pub(crate) mod $name {
            #[cfg(target_arch = "x86")]
            use core::arch::x86::*;
            #[cfg(target_arch = "x86_64")]
            use core::arch::x86_64::*;

            use super::super::scalar::{self, At};
            use super::super::Parts;
            use crate::codec::streamvbyte::Format;
            use crate::codec::x86::{lanes, lanes_at_least, load16, prefix4, shuffle_last16, sum4};

            /// The 16 bytes of `src` from `at` on (`at <= 48` for a 64-byte
            /// block: four group lengths of at most 16 before the last).
            #[inline(always)]
            fn at16(src: &[u8; 64], at: usize) -> Option<&[u8; 16]> {
                src.get(at..).and_then(<[u8]>::first_chunk::<16>)
            }

            /// The four values (stored words) of the group with control byte
            /// `key` whose data starts at `src`.
            #[target_feature(enable = $features)]
            #[inline]
            fn group<F: Format>(src: &[u8; 16], key: u8) -> __m128i {
                let shuf = load16(&F::tables().decode[key as usize]);
                _mm_shuffle_epi8(load16(src), shuf)
            }

            /// The group with control byte `key` at data offset `pos`: from
            /// the 16 bytes at `pos` if they are inside `data`, else from the
            /// last 16 bytes of `data` with the shuffle shifted, if the
            /// group's bytes are all inside `data`; `None` otherwise.
            #[target_feature(enable = $features)]
            #[inline]
            fn group_at<F: Format>(data: &[u8], pos: usize, key: u8) -> Option<__m128i> {
                if let Some(src) = data.get(pos..).and_then(<[u8]>::first_chunk::<16>) {
                    return Some(group::<F>(src, key));
                }
                // Fewer than 16 bytes at `pos` (`pos == data.len()` only for
                // a "0124" all-zero group, of no bytes).
                let glen = F::tables().len[key as usize] as usize;
                let shuf = load16(&F::tables().decode[key as usize]);
                shuffle_last16(data, pos, glen, shuf)
            }

            /// Prefix sum of four lanes (paper §2), plus `acc` (broadcast).
            #[target_feature(enable = $features)]
            #[inline]
            fn psum(v: __m128i, acc: __m128i) -> __m128i {
                _mm_add_epi32(prefix4(v), acc)
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

            crate::codec::streamvbyte::seek::seek_kernels! {
                /// Plain select of value `i < n`; `ctrl` holds `control_len(n)`
                /// bytes, `data` the data bytes, which start at `base` in the
                /// stream.
                #[target_feature(enable = $features)]
                select: |p, i| {
                    let g = i / 4;
                    let pos = data_len::<F>(&p.ctrl[..g]);
                    scalar::select_from(
                        F::BYTES,
                        p,
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
                select_delta: |p, prev, i| {
                    let Parts { ctrl, data, .. } = p;
                    let len = &F::tables().len;
                    let g = i / 4;
                    let mut pos = 0usize;
                    let mut k = 0usize;
                    let mut acc = _mm_setzero_si128();
                    // Sums of zero blocks (four zero control bytes), u64 lanes.
                    let mut acc64 = _mm_setzero_si128();
                    while k + 4 <= g {
                        let Some(&c4) = ctrl.get(k..).and_then(<[u8]>::first_chunk::<4>) else {
                            break;
                        };
                        if u32::from_ne_bytes(c4) == 0 {
                            if F::BYTES[0] != 0 {
                                // 1234: sixteen one-byte values; `psadbw` adds
                                // them up. (0124: sixteen zeros, no data.)
                                let Some(src) = data.get(pos..).and_then(<[u8]>::first_chunk::<16>)
                                else {
                                    break;
                                };
                                acc64 = _mm_add_epi64(
                                    acc64,
                                    _mm_sad_epu8(load16(src), _mm_setzero_si128()),
                                );
                                pos += 16;
                            }
                            k += 4;
                            continue;
                        }
                        let Some(src) = data.get(pos..).and_then(<[u8]>::first_chunk::<64>) else {
                            break;
                        };
                        let [a, b, c, d] = c4;
                        let p1 = len[a as usize] as usize;
                        let p2 = p1 + len[b as usize] as usize;
                        let p3 = p2 + len[c as usize] as usize;
                        let (Some(s1), Some(s2), Some(s3)) =
                            (at16(src, p1), at16(src, p2), at16(src, p3))
                        else {
                            break;
                        };
                        let v0 = group::<F>(src.first_chunk::<16>().unwrap_or(s1), a);
                        let v01 = _mm_add_epi32(v0, group::<F>(s1, b));
                        let v23 = _mm_add_epi32(group::<F>(s2, c), group::<F>(s3, d));
                        acc = _mm_add_epi32(acc, _mm_add_epi32(v01, v23));
                        pos += p3 + len[d as usize] as usize;
                        k += 4;
                    }
                    while k < g {
                        let key = ctrl[k];
                        let Some(v) = group_at::<F>(data, pos, key) else {
                            break;
                        };
                        acc = _mm_add_epi32(acc, v);
                        pos += len[key as usize] as usize;
                        k += 1;
                    }
                    let acc = sum4(acc);
                    let acc64 = _mm_add_epi64(acc64, _mm_unpackhi_epi64(acc64, acc64));
                    let sum = prev
                        .wrapping_add(acc)
                        .wrapping_add(_mm_cvtsi128_si32(acc64) as u32);
                    if k == g {
                        // `i`'s group, whole inside `data`: its lanes up to `i`,
                        // prefix-summed. (If the group is cut short, the scalar
                        // code still answers when `i`'s own bytes are there.)
                        if let Some(v) = group_at::<F>(data, pos, ctrl[g]) {
                            let v = psum(v, _mm_setzero_si128());
                            return Ok(sum.wrapping_add(lanes(v)[i % 4]));
                        }
                    }
                    scalar::select_delta_from(
                        F::BYTES,
                        p,
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
                seek_delta: |p, n, prev, target| {
                    let Parts { ctrl, data, .. } = p;
                    let len = &F::tables().len;
                    let flip = _mm_set1_epi32(i32::MIN);
                    let t = _mm_xor_si128(_mm_set1_epi32(target as i32), flip);
                    // Bits of the lanes of `v` at or above the target.
                    let hits = |v: __m128i| lanes_at_least(v, t, flip);
                    let mut acc = _mm_set1_epi32(prev as i32);
                    let mut pos = 0usize;
                    let mut k = 0usize;
                    while 4 * k < n {
                        if 4 * k + 16 <= n {
                            if let Some(&c4) = ctrl.get(k..).and_then(<[u8]>::first_chunk::<4>) {
                                if u32::from_ne_bytes(c4) == 0 {
                                    // A zero block whose last value is below the
                                    // target is skipped whole: its sum is a
                                    // `psadbw` (1234) or zero (0124).
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
                                } else if let Some(src) =
                                    data.get(pos..).and_then(<[u8]>::first_chunk::<64>)
                                {
                                    // Four groups, all inside `n` and `data`.
                                    let [a, b, c, d] = c4;
                                    let p1 = len[a as usize] as usize;
                                    let p2 = p1 + len[b as usize] as usize;
                                    let p3 = p2 + len[c as usize] as usize;
                                    if let (Some(s1), Some(s2), Some(s3)) =
                                        (at16(src, p1), at16(src, p2), at16(src, p3))
                                    {
                                        let s0 = psum(
                                            group::<F>(src.first_chunk::<16>().unwrap_or(s1), a),
                                            acc,
                                        );
                                        let s1 = psum(group::<F>(s1, b), _mm_shuffle_epi32::<0xFF>(s0));
                                        let s2 = psum(group::<F>(s2, c), _mm_shuffle_epi32::<0xFF>(s1));
                                        let s3 = psum(group::<F>(s3, d), _mm_shuffle_epi32::<0xFF>(s2));
                                        let m =
                                            hits(s0) | hits(s1) << 4 | hits(s2) << 8 | hits(s3) << 12;
                                        if m != 0 {
                                            let lane = m.trailing_zeros() as usize;
                                            let v = [s0, s1, s2, s3][lane / 4];
                                            return Ok(Some((4 * k + lane, lanes(v)[lane % 4])));
                                        }
                                        acc = _mm_shuffle_epi32::<0xFF>(s3);
                                        pos += p3 + len[d as usize] as usize;
                                        k += 4;
                                        continue;
                                    }
                                }
                            }
                        }
                        let key = ctrl[k];
                        let Some(v) = group_at::<F>(data, pos, key) else {
                            break;
                        };
                        let v = psum(v, acc);
                        let mut hit = hits(v);
                        let left = n - 4 * k;
                        if left < 4 {
                            hit &= (1u32 << left) - 1;
                        }
                        if hit != 0 {
                            // Lanes of a group whose bytes are all inside `data`:
                            // every value of it is complete.
                            let lane = hit.trailing_zeros() as usize;
                            return Ok(Some((4 * k + lane, lanes(v)[lane])));
                        }
                        acc = _mm_shuffle_epi32::<0xFF>(v);
                        pos += len[key as usize] as usize;
                        k += 1;
                    }
                    let acc = _mm_cvtsi128_si32(acc) as u32;
                    scalar::seek_delta_from(F::BYTES, p, n, target, At { i: 4 * k, pos, acc })
                }
            }
        }
    };
}

svb_seek_kernels!(sse41, "sse4.1");
svb_seek_kernels!(avx2, "avx2,bmi1,bmi2,popcnt");
