//! Masked VByte select / seek over delta-coded u32 streams: the decode
//! step of `kernels.rs` (paper §IV: the continuation bits of 12 bytes look
//! up how many bytes and values a step takes and its shuffle) run in
//! registers, without storing the values.
//!
//! - select: the values before `i` are summed in a vector accumulator (no
//!   prefix sum); the step that holds `i` is prefix-summed and its lane
//!   read.
//! - seek: every step is prefix-summed onto the running value (paper §IV,
//!   differential coding) and compared with the target (unsigned, sign
//!   bits flipped); the first lane at or above it ends the scan.
//!
//! Bounds: a step loads 16 bytes only when they are inside `input`, and
//! runs only when all its values are below `n`; an overlong value, a 5th
//! byte above `0x0F`, the tail, and every error are left to the scalar
//! walk (`seek::scalar`), which reads exactly as the decoder. The macro is
//! expanded inside the modules made by `masked_vbyte_kernels!` and uses
//! their step functions (`six`, `four`, `two`, `prefix_sum`) and
//! `codec/x86.rs`'s `sum4` and `lanes_at_least`; the select / seek loops
//! are `simd.rs`'s `select_delta_with` and `seek_delta_with`, shared with
//! NEON.

macro_rules! masked_vbyte_seek {
    ($features:literal) => {
        use crate::codec::x86::{lanes_at_least, sum4};

        /// The values of the decode step at `input[pos..]`: up to three
        /// vectors of four u32 lanes (unused lanes zero), the number of
        /// values and of bytes; `None` if fewer than 16 bytes are left there
        /// or the step must go to scalar.
        #[target_feature(enable = $features)]
        #[inline]
        fn seek_step(input: &[u8], pos: usize) -> Option<([__m128i; 3], usize, usize)> {
            let data = load16(input.get(pos..)?.first_chunk::<16>()?);
            let m = (_mm_movemask_epi8(data) & 0xFFF) as usize;
            let z = _mm_setzero_si128();
            if m == 0 {
                return Some((
                    [
                        _mm_cvtepu8_epi32(data),
                        _mm_cvtepu8_epi32(_mm_srli_si128::<4>(data)),
                        _mm_cvtepu8_epi32(_mm_srli_si128::<8>(data)),
                    ],
                    12,
                    12,
                ));
            }
            let (index, consumed) = super::super::simd::table_entry(m)?;
            let consumed = consumed as usize;
            let x = _mm_shuffle_epi8(data, SHUFFLES[index as usize]);
            if index < GROUP_B {
                let v = six(x);
                let lo = _mm_cvtepu16_epi32(v);
                let hi = _mm_cvtepu16_epi32(_mm_srli_si128::<8>(v));
                Some(([lo, hi, z], 6, consumed))
            } else if index < GROUP_C {
                Some(([four(x), z, z], 4, consumed))
            } else {
                let (v, fits) = two(x);
                fits.then_some(([v, z, z], 2, consumed))
            }
        }

        /// Delta select of value `i < n` (from `prev`): [`select_delta_with`](super::super::simd::select_delta_with).
        #[target_feature(enable = $features)]
        pub(crate) fn select_delta(
            input: &[u8],
            n: usize,
            prev: u32,
            i: usize,
        ) -> Result<u32, DecodeError> {
            let _ = n;
            super::super::simd::select_delta_with(
                input,
                i,
                _mm_setzero_si128(),
                |pos| seek_step(input, pos),
                |a, b| _mm_add_epi32(a, b),
                |acc| prev.wrapping_add(sum4(acc)),
                |v| lanes(v),
            )
        }

        /// Delta seek: the first index `< n` whose value is at least `target`
        /// ([`seek_delta_with`](super::super::simd::seek_delta_with)).
        #[target_feature(enable = $features)]
        pub(crate) fn seek_delta(
            input: &[u8],
            n: usize,
            prev: u32,
            target: u32,
        ) -> Result<Option<(usize, u32)>, DecodeError> {
            let flip = _mm_set1_epi32(i32::MIN);
            let t = _mm_xor_si128(_mm_set1_epi32(target as i32), flip);
            super::super::simd::seek_delta_with(
                input,
                n,
                target,
                _mm_set1_epi32(prev as i32),
                |pos| seek_step(input, pos),
                |v, acc| {
                    let (p, a) = prefix_sum(v, acc);
                    (p, a, lanes_at_least(p, t, flip))
                },
                |v| lanes(v),
            )
        }
    };
}

pub(super) use masked_vbyte_seek;
