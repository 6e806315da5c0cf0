//! The VarInt-G8IU x86 kernel bodies, shared by the SSSE3 and AVX2 kernel
//! sets (see `ssse3.rs` for the algorithm and its bounds).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::codec::x86::{vector, vectors};
use crate::tables::varint_g8iu::TABLES;

/// The decode shuffles as vectors: `[values 0..=3, values 4..=7]`.
pub(super) static MASKS: [[__m128i; 2]; 256] = {
    let mut t = [[vector([0; 16]); 2]; 256];
    let mut k = 0;
    while k < 256 {
        t[k] = vectors(&TABLES.decode[k]);
        k += 1;
    }
    t
};

macro_rules! varint_g8iu_kernels {
    ($features:literal, $isa:expr) => {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::*;

        use super::super::{scalar, Kernels, BLOCK};
        use crate::codec::kernels::At;
        use crate::codec::x86::prefix4;
        use crate::isa::Isa;
        use crate::tables::varint_g8iu::TABLES;

        pub(crate) static KERNELS: Kernels = crate::codec::kernel_table!(
            $isa, decode<>, decode_unchecked<>, scalar::encode<>;
        );

        crate::codec::kernels::decode_entry_points!(
            $features,
            <>,
            /// The decode loop shared by the checked and unchecked entry points.
            ///
            /// # Safety
            /// If `CHECKED` is false, `input` must hold a valid stream of at least
            /// `out.len()` values.
            decode_loop: |input, out, prev| {
                let masks = &super::kernels::MASKS;
                let n = out.len();
                let base = input.as_ptr();
                let len = input.len();
                let dst = out.as_mut_ptr();
                let mut pos = 0;
                let mut i = 0;
                let mut prev_v = _mm_set1_epi32(prev as i32);
                // Eight output slots must remain: both vectors are stored.
                while n - i >= 8 {
                    // Invariant: pos <= len.
                    if CHECKED && len - pos < BLOCK {
                        break;
                    }
                    let desc = input[pos] as usize;
                    if CHECKED && !TABLES.valid[desc] {
                        break;
                    }
                    // SAFETY: the block's 8 data bytes, pos+1..pos+9, are inside
                    // `input` (checked above, or a valid stream for trusted input).
                    let data = unsafe { _mm_loadl_epi64(base.add(pos + 1).cast()) };
                    let mut lo = _mm_shuffle_epi8(data, masks[desc][0]);
                    let mut hi = _mm_shuffle_epi8(data, masks[desc][1]);
                    if DELTA {
                        let (s_lo, s_hi) = (prefix4(lo), prefix4(hi));
                        let t_lo = _mm_shuffle_epi32::<0xFF>(s_lo);
                        let t_all = _mm_add_epi32(t_lo, _mm_shuffle_epi32::<0xFF>(s_hi));
                        lo = _mm_add_epi32(s_lo, prev_v);
                        hi = _mm_add_epi32(s_hi, _mm_add_epi32(t_lo, prev_v));
                        prev_v = _mm_add_epi32(prev_v, t_all);
                    }
                    // SAFETY: out[i..i+8] exists (n - i >= 8, checked above).
                    unsafe { _mm_storeu_si128(dst.add(i).cast(), lo) };
                    // SAFETY: as above, the second half of out[i..i+8].
                    unsafe { _mm_storeu_si128(dst.add(i + 4).cast(), hi) };
                    i += TABLES.count[desc] as usize;
                    pos += BLOCK;
                }
                let prev = _mm_cvtsi128_si32(prev_v) as u32;
                scalar::decode_from::<DELTA>(input, out, At { i, pos, acc: prev })
            }
        );

    };
}

pub(crate) use varint_g8iu_kernels;
