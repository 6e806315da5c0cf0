//! The VarInt-GB x86 kernel bodies, shared by the SSSE3 and AVX2 kernel sets
//! (see `ssse3.rs` for the algorithm and its bounds). `varint_gb_kernels!`
//! expands to `#[target_feature(enable = $features)]` kernels and the tables
//! `KERNELS_LOW_FIRST` and `KERNELS_LUCENE`.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::super::{Format, Layout};
use crate::codec::x86::{vector, vectors};
use crate::tables::varint_gb::{GbTables, TABLES_LOW_FIRST, TABLES_LUCENE};

/// Shuffle masks as vectors, so that a table look-up is a plain copy.
pub(super) struct Masks(pub(super) [__m128i; 256]);

const fn masks(t: &GbTables) -> Masks {
    Masks(vectors(&t.decode))
}

static MASKS_LOW_FIRST: Masks = masks(&TABLES_LOW_FIRST);
static MASKS_LUCENE: Masks = masks(&TABLES_LUCENE);

/// Spreads sixteen one-byte values `d0..d15` to four groups of control byte
/// 0 (either layout) and four data bytes: the first 16 of those 20 bytes,
/// `0 d0 d1 d2 d3 0 d4 .. d11 0` (`d12..d15` are stored separately).
pub(super) const SPREAD_1B: __m128i = {
    let mut m = [0x80u8; 16];
    let mut i = 0;
    while i < 16 {
        if i % 5 != 0 {
            m[i] = (i - i / 5 - 1) as u8;
        }
        i += 1;
    }
    vector(m)
};

/// Lucene's control byte for the low-first one `key`: the four 2-bit codes
/// in the opposite order (the first value's in the top bits).
static LUCENE_KEY: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut k = 0;
    while k < 256 {
        let mut lane = 0;
        while lane < 4 {
            t[k] |= (((k >> (2 * lane)) & 3) << (6 - 2 * lane)) as u8;
            lane += 1;
        }
        k += 1;
    }
    t
};

/// The control byte, in layout `F`, of the group whose low-first control
/// byte is `key`.
#[inline(always)]
pub(super) fn layout_key<F: Format>(key: u8) -> u8 {
    match F::LAYOUT {
        Layout::LowFirst => key,
        Layout::Lucene => LUCENE_KEY[key as usize],
    }
}

#[inline(always)]
pub(super) fn masks_of<F: Format>() -> &'static Masks {
    match F::LAYOUT {
        Layout::LowFirst => &MASKS_LOW_FIRST,
        Layout::Lucene => &MASKS_LUCENE,
    }
}

macro_rules! varint_gb_kernels {
    ($features:literal, $isa:expr, $seek:ident, $popcnt:literal) => {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::*;

        use super::super::{scalar, Format, Kernels, LowFirst, Lucene};
        use crate::codec::kernels::At;
        use crate::codec::x86::{group_deltas, prefix_sum};
        use crate::error::DecodeError;
        use crate::isa::Isa;

        /// Whether `$features` has `popcnt`: then a block's length is
        /// computed, not looked up (`GbTables::block_len`).
        const POPCNT: bool = $popcnt;

        pub(crate) static KERNELS_LOW_FIRST: Kernels = kernels::<LowFirst>();
        pub(crate) static KERNELS_LUCENE: Kernels = kernels::<Lucene>();

        const fn kernels<F: Format>() -> Kernels {
            crate::codec::kernel_table!(
                $isa, decode<F>, decode_unchecked<F>, encode<F>;
                layout: F::LAYOUT,
                select_delta: crate::codec::varint_gb::seek::x86::$seek::select_delta::<F>,
                seek_delta: crate::codec::varint_gb::seek::x86::$seek::seek_delta::<F>,
            )
        }

        /// Writes the group `v`: its control byte at `dst`, then a 16-byte
        /// store of its significant bytes; returns the bytes the group takes
        /// (at most 17; the next group overwrites the rest).
        ///
        /// # Safety
        /// 17 bytes are writable at `dst`.
        #[target_feature(enable = $features)]
        #[inline]
        unsafe fn put_group<F: Format>(dst: *mut u8, v: __m128i) -> usize {
            let e = crate::codec::streamvbyte::x86::kernels::encode_entry_1234(v);
            // SAFETY: 17 bytes are writable at `dst` (the caller's contract).
            unsafe {
                _mm_storeu_si128(dst.add(1).cast(), _mm_shuffle_epi8(v, e.mask));
                dst.write(super::kernels::layout_key::<F>(e.key_len as u8));
            }
            1 + usize::from(e.key_len >> 8)
        }

        /// Encodes `values` (deltas from `prev` if `DELTA`) into `out`;
        /// returns the bytes written. Whole groups of four while 17 bytes
        /// of `out` remain (the control byte and a 16-byte store of the
        /// group's significant bytes, of which the next group overwrites
        /// the unused ones); the rest (the last groups, the partial group
        /// or the Lucene vint tail) with the scalar kernel.
        #[target_feature(enable = $features)]
        fn encode<F: Format, const DELTA: bool>(
            values: &[u32],
            prev: u32,
            out: &mut [u8],
        ) -> usize {
            let (groups, _) = values.as_chunks::<4>();
            let mut pos = 0;
            let mut prev_v = _mm_set1_epi32(prev as i32);
            let mut g = 0;
            let load = |g: usize, prev_v: &mut __m128i| {
                // SAFETY: `groups[g]` is four u32s, 16 readable bytes.
                let raw = unsafe { _mm_loadu_si128(groups[g].as_ptr().cast()) };
                group_deltas::<DELTA>(raw, prev_v)
            };
            // Four groups at a time while 68 bytes of `out` remain (four
            // groups take 17 bytes each at most). Invariant: pos <= out.len().
            while g + 4 <= groups.len() && out.len() - pos >= 68 {
                let v = [
                    load(g, &mut prev_v),
                    load(g + 1, &mut prev_v),
                    load(g + 2, &mut prev_v),
                    load(g + 3, &mut prev_v),
                ];
                g += 4;
                let any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
                let small = _mm_cmpeq_epi32(_mm_srli_epi32::<8>(any), _mm_setzero_si128());
                if _mm_movemask_epi8(small) == 0xFFFF {
                    // Sixteen values of one byte each (dense posting gaps,
                    // small ids): the saturating packs are exact, giving
                    // bytes d0..d15 in order; spread to four groups of a
                    // zero control byte and four data bytes, two stores.
                    let d =
                        _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]), _mm_packs_epi32(v[2], v[3]));
                    let spread = _mm_shuffle_epi8(d, super::kernels::SPREAD_1B);
                    // SAFETY: 20 of the 68 bytes checked above.
                    unsafe {
                        let dst = out.as_mut_ptr().add(pos);
                        _mm_storeu_si128(dst.cast(), spread);
                        let last = _mm_cvtsi128_si32(_mm_srli_si128::<12>(d));
                        dst.add(16).cast::<i32>().write_unaligned(last);
                    }
                    pos += 20;
                } else {
                    for v in v {
                        // SAFETY: at most 17 bytes a group: within the 68
                        // checked above.
                        pos += unsafe { put_group::<F>(out.as_mut_ptr().add(pos), v) };
                    }
                }
            }
            // Then one group at a time while 17 bytes remain.
            while g < groups.len() && out.len() - pos >= 17 {
                let v = load(g, &mut prev_v);
                // SAFETY: 17 bytes of `out` remain at `pos` (checked above).
                pos += unsafe { put_group::<F>(out.as_mut_ptr().add(pos), v) };
                g += 1;
            }
            let done = 4 * g;
            let prev = if DELTA && done > 0 {
                values[done - 1]
            } else {
                prev
            };
            pos + scalar::encode::<F, DELTA>(&values[done..], prev, &mut out[pos..])
        }

        crate::codec::kernels::decode_entry_points!(
            $features,
            <F: Format>,
            /// The decode loop shared by the checked and unchecked entry points.
            ///
            /// # Safety
            /// If `CHECKED` is false, `input` must hold a valid stream of
            /// `out.len()` values followed by `PADDING` bytes.
            decode_loop: |input, out, prev| {
                // SAFETY: group 0 starts at offset 0; forwarded from the caller.
                unsafe { decode_rest::<F, DELTA, CHECKED>(input, out, 0, 0, _mm_set1_epi32(prev as i32)) }
            }
        );

        /// The decode loop from group `done` on, whose control byte is at
        /// `pos`, with the running total `prev_v` (broadcast; delta only):
        /// the rest of a stream another kernel began (the AVX-512 one).
        ///
        /// # Safety
        /// `pos <= input.len()` and `4 * done <= out.len()`. If `CHECKED`
        /// is false, `input` must hold a valid stream of `out.len()` values
        /// followed by `PADDING` bytes, and group `done` must start at `pos`.
        #[target_feature(enable = $features)]
        #[inline]
        pub(in crate::codec::varint_gb) unsafe fn decode_rest<
            F: Format,
            const DELTA: bool,
            const CHECKED: bool,
        >(
            input: &[u8],
            out: &mut [u32],
            mut pos: usize,
            mut done: usize,
            mut prev_v: __m128i,
        ) -> Result<usize, DecodeError> {
            let masks = &super::kernels::masks_of::<F>().0;
            let lens = &F::tables().len;
            let base = input.as_ptr();
            let len = input.len();
            let n = out.len();
            let (groups, _) = out.as_chunks_mut::<4>();
            let full = groups.len();
            for dst in groups[done..].iter_mut() {
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
                // (a table load, or two bit counts with `popcnt`; the scalar
                // kernel's fast path gains the same).
                if key == 0 {
                    pos += 5;
                } else {
                    pos += 1 + F::tables().block_len(key, POPCNT);
                }
                done += 1;
            }
            // The last one to three values (FastPFor's layout: one group
            // whose unused codes are ignored) as a group with those codes
            // cleared, its values past the last dropped, while 17 bytes
            // remain; Lucene's layout ends in vints (scalar).
            let r = n - 4 * done;
            if r == 0 {
                return Ok(pos);
            }
            if !F::LUCENE && done == full && (!CHECKED || len - pos >= 17) {
                let key = input[pos] as usize & ((1 << (2 * r)) - 1);
                // SAFETY: as in the loop above.
                let data = unsafe { _mm_loadu_si128(base.add(pos + 1).cast()) };
                let mut v = _mm_shuffle_epi8(data, masks[key]);
                if DELTA {
                    (v, _) = prefix_sum(v, prev_v);
                }
                let mut t = [0u32; 4];
                // SAFETY: `t` is four u32s, 16 writable bytes.
                unsafe { _mm_storeu_si128(t.as_mut_ptr().cast(), v) };
                // One to three stores (a copy of run-time length would be
                // a `memcpy` call).
                let tail = &mut out[4 * done..];
                tail[0] = t[0];
                if r > 1 {
                    tail[1] = t[1];
                }
                if r > 2 {
                    tail[2] = t[2];
                }
                // The cleared codes count one byte each in `lens`.
                return Ok(pos + 1 + lens[key] as usize - (4 - r));
            }
            let prev = _mm_cvtsi128_si32(prev_v) as u32;
            scalar::decode_from::<F, DELTA>(input, out, At { i: done * 4, pos, acc: prev })
        }

    };
}

pub(crate) use varint_gb_kernels;
