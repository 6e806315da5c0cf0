//! The VarInt-GB x86 kernel bodies, shared by the SSSE3 and AVX2 kernel sets
//! (see `ssse3.rs` for the algorithm and its bounds). `varint_gb_kernels!`
//! expands to `#[target_feature(enable = $features)]` kernels and the tables
//! `KERNELS_LOW_FIRST` and `KERNELS_LUCENE`.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{Format, Layout};
use crate::tables::varint_gb::{GbTables, TABLES_LOW_FIRST, TABLES_LUCENE};

/// Shuffle masks as vectors, so that a table look-up is a plain copy.
pub(super) struct Masks(pub(super) [__m128i; 256]);

const fn masks(t: &GbTables) -> Masks {
    // SAFETY: `[[u8; 16]; 256]` and `[__m128i; 256]` have the same size and
    // every bit pattern is a valid `__m128i`.
    Masks(unsafe { core::mem::transmute::<[[u8; 16]; 256], [__m128i; 256]>(t.decode) })
}

static MASKS_LOW_FIRST: Masks = masks(&TABLES_LOW_FIRST);
static MASKS_LUCENE: Masks = masks(&TABLES_LUCENE);

#[inline(always)]
pub(super) fn masks_of<F: Format>() -> &'static Masks {
    match F::LAYOUT {
        Layout::LowFirst => &MASKS_LOW_FIRST,
        Layout::Lucene => &MASKS_LUCENE,
    }
}

macro_rules! varint_gb_kernels {
    ($features:literal, $isa:expr, $seek:ident) => {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::*;

        use super::super::{scalar, Format, Kernels, LowFirst, Lucene};
        use crate::codec::x86::prefix_sum;
        use crate::error::DecodeError;
        use crate::isa::Isa;

        pub(crate) static KERNELS_LOW_FIRST: Kernels = kernels::<LowFirst>();
        pub(crate) static KERNELS_LUCENE: Kernels = kernels::<Lucene>();

        const fn kernels<F: Format>() -> Kernels {
            Kernels {
                isa: $isa,
                layout: F::LAYOUT,
                decode: decode::<F, false>,
                decode_delta: decode::<F, true>,
                decode_unchecked: decode_unchecked::<F, false>,
                decode_delta_unchecked: decode_unchecked::<F, true>,
                encode: scalar::encode::<F, false>,
                encode_delta: scalar::encode::<F, true>,
                select_delta: crate::codec::varint_gb::seek::x86::$seek::select_delta::<F>,
                seek_delta: crate::codec::varint_gb::seek::x86::$seek::seek_delta::<F>,
            }
        }

        /// The decode loop shared by the checked and unchecked entry points.
        ///
        /// # Safety
        /// If `CHECKED` is false, `input` must hold a valid stream of
        /// `out.len()` values followed by `PADDING` bytes.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn decode_loop<F: Format, const DELTA: bool, const CHECKED: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, DecodeError> {
            let masks = &super::kernels::masks_of::<F>().0;
            let lens = &F::tables().len;
            let base = input.as_ptr();
            let len = input.len();
            let mut pos = 0;
            let mut prev_v = _mm_set1_epi32(prev as i32);
            let (groups, _) = out.as_chunks_mut::<4>();
            let mut done = 0; // groups decoded
            for dst in groups.iter_mut() {
                // Invariant: pos <= len. A block reads 17 bytes from `pos`.
                if CHECKED && len - pos < 17 {
                    break;
                }
                let key = input[pos] as usize;
                // SAFETY: 17 bytes of `input` remain at `pos` (checked above),
                // or, for trusted input, the block (at least 5 bytes) plus
                // PADDING (16) do.
                let data = unsafe { _mm_loadu_si128(base.add(pos + 1).cast()) };
                let mut v = _mm_shuffle_epi8(data, masks[key]);
                if DELTA {
                    (v, prev_v) = prefix_sum(v, prev_v);
                }
                // SAFETY: `dst` is four u32s, 16 writable bytes.
                unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), v) };
                // The next control byte's address depends on this block's
                // length. A predicted branch for the common all-one-byte block
                // lets the CPU run ahead instead of waiting for the length
                // table load (the scalar kernel's fast path gains the same).
                if key == 0 {
                    pos += 5;
                } else {
                    pos += 1 + lens[key] as usize;
                }
                done += 1;
            }
            let prev = _mm_cvtsi128_si32(prev_v) as u32;
            scalar::decode_from::<F, DELTA>(input, out, done * 4, pos, prev)
        }

        /// Checked decode.
        #[target_feature(enable = $features)]
        fn decode<F: Format, const DELTA: bool>(
            input: &[u8],
            out: &mut [u32],
            prev: u32,
        ) -> Result<usize, DecodeError> {
            // SAFETY: CHECKED = true has no precondition.
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
    };
}

pub(crate) use varint_gb_kernels;
