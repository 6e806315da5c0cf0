//! x86 select / seek over delta-coded VarInt-GB streams (SSSE3 and AVX2
//! builds of one body, as for the decoders).
//!
//! The blocks are skipped by their control bytes: each full block's data
//! (16 bytes loaded after its control byte) is shuffled into four lanes with
//! the layout's table. Select adds the lanes of the blocks before value
//! `i`'s block to a vector accumulator (no prefix sum, no store); seek
//! prefix-sums each block onto the running value and compares it with the
//! target (unsigned, sign bits flipped). A block with fewer than 16 bytes
//! after its control byte is read from the last 16 bytes of the input with
//! its shuffle shifted, when its data bytes are all inside the input. The
//! block holding `i`, the partial last block or Lucene vint tail, inputs
//! shorter than 16 bytes and every error are left to `scalar`, which reads
//! exactly as the decoder.
//! Requires SSSE3 (the AVX2 build: AVX2, VEX-encoded).

macro_rules! gb_seek_kernels {
    // `$popcnt`: whether `$features` has `popcnt` (`GbTables::block_len`).
    ($name:ident, $features:literal, $popcnt:literal) => {
        pub(crate) mod $name {
            #[cfg(target_arch = "x86")]
            use core::arch::x86::*;
            #[cfg(target_arch = "x86_64")]
            use core::arch::x86_64::*;

            use super::super::scalar::{self, At};
            use crate::codec::varint_gb::Format;
            use crate::codec::x86::{lanes_at_least, load16, prefix4, shuffle_last16, sum4};

            /// The block at `pos` if its control byte and 16 bytes after it
            /// are inside `input`: its control byte and four values.
            #[target_feature(enable = $features)]
            #[inline]
            fn block<F: Format>(input: &[u8], pos: usize) -> Option<(u8, __m128i)> {
                let (&key, rest) = input.get(pos..)?.split_first()?;
                let shuf = load16(&F::tables().decode[key as usize]);
                if let Some(src) = rest.first_chunk::<16>() {
                    return Some((key, _mm_shuffle_epi8(load16(src), shuf)));
                }
                // Near the end (fewer than 16 bytes follow the control byte):
                // the last 16 bytes of `input`, the shuffle shifted.
                let glen = F::tables().len[key as usize] as usize;
                Some((key, shuffle_last16(input, pos + 1, glen, shuf)?))
            }

            crate::codec::varint_gb::seek::seek_kernels! {
                /// Delta select of value `i < n` (from `prev`).
                #[target_feature(enable = $features)]
                select_delta: |input, n, prev, i| {
                    let mut acc = _mm_setzero_si128();
                    let (mut g, mut pos) = (0usize, 0usize);
                    while g < i / 4 {
                        let Some((key, v)) = block::<F>(input, pos) else {
                            break;
                        };
                        acc = _mm_add_epi32(acc, v);
                        pos += 1 + F::tables().block_len(usize::from(key), $popcnt);
                        g += 1;
                    }
                    let acc = prev.wrapping_add(sum4(acc));
                    scalar::select_delta_from::<F>(input, n, i, At { i: 4 * g, pos, acc })
                }
                /// Delta seek: the first index whose value is at least `target`.
                #[target_feature(enable = $features)]
                seek_delta: |input, n, prev, target| {
                    let flip = _mm_set1_epi32(i32::MIN);
                    let t = _mm_xor_si128(_mm_set1_epi32(target as i32), flip);
                    let mut acc = _mm_set1_epi32(prev as i32);
                    let (mut g, mut pos) = (0usize, 0usize);
                    while g < n / 4 {
                        let Some((key, v)) = block::<F>(input, pos) else {
                            break;
                        };
                        let v = _mm_add_epi32(prefix4(v), acc);
                        if lanes_at_least(v, t, flip) != 0 {
                            // A full block inside `input`: all four values are
                            // complete. Let the scalar code read the block again
                            // (at most four values) for the exact answer.
                            let acc = _mm_cvtsi128_si32(acc) as u32;
                            return scalar::seek_delta_from::<F>(
                                input,
                                n,
                                target,
                                At { i: 4 * g, pos, acc },
                            );
                        }
                        acc = _mm_shuffle_epi32::<0xFF>(v);
                        pos += 1 + F::tables().block_len(usize::from(key), $popcnt);
                        g += 1;
                    }
                    let acc = _mm_cvtsi128_si32(acc) as u32;
                    scalar::seek_delta_from::<F>(input, n, target, At { i: 4 * g, pos, acc })
                }
            }
        }
    };
}

gb_seek_kernels!(ssse3, "ssse3", false);
gb_seek_kernels!(avx2, "avx2,bmi1,bmi2,popcnt", true);
