//! The BP128 x86 kernel bodies. `ops_m128!`, `ops_m256!` and `ops_m512!`
//! define a vector type `V` with `L` lanes and its operations for one
//! feature set (the one-intrinsic ones through `ops_one!` and
//! `lanewise!`); `ops_pair!` builds a layout of twice the lanes over any of
//! them (SSE4.1 8x, AVX2 16x; NEON 8x and 16x too). `bp_body!` then
//! defines the loads, stores and lane moves once, the unpack and pack of
//! every bit width (0..=32) and mode over those operations, and the
//! `KERNELS` table. See `sse41.rs` for the algorithm and its bounds.
//!
//! Shifts take the count as a value (`psrld xmm, xmm`); every count is a
//! constant once a width's function is unrolled, and LLVM folds them into
//! immediate shifts.

/// Expands `$m!(k)` for k = 0..32.
macro_rules! unroll32 {
    ($m:ident) => {
        $m!(0);
        $m!(1);
        $m!(2);
        $m!(3);
        $m!(4);
        $m!(5);
        $m!(6);
        $m!(7);
        $m!(8);
        $m!(9);
        $m!(10);
        $m!(11);
        $m!(12);
        $m!(13);
        $m!(14);
        $m!(15);
        $m!(16);
        $m!(17);
        $m!(18);
        $m!(19);
        $m!(20);
        $m!(21);
        $m!(22);
        $m!(23);
        $m!(24);
        $m!(25);
        $m!(26);
        $m!(27);
        $m!(28);
        $m!(29);
        $m!(30);
        $m!(31);
    };
}

/// `match $bits { b => $f::<b, $m>($args) }` for b = 0..=32.
macro_rules! by_bits {
    ($f:ident, $m:tt, $bits:expr, ($($a:expr),*)) => {
        match $bits {
            0 => $f::<0, $m>($($a),*),
            1 => $f::<1, $m>($($a),*),
            2 => $f::<2, $m>($($a),*),
            3 => $f::<3, $m>($($a),*),
            4 => $f::<4, $m>($($a),*),
            5 => $f::<5, $m>($($a),*),
            6 => $f::<6, $m>($($a),*),
            7 => $f::<7, $m>($($a),*),
            8 => $f::<8, $m>($($a),*),
            9 => $f::<9, $m>($($a),*),
            10 => $f::<10, $m>($($a),*),
            11 => $f::<11, $m>($($a),*),
            12 => $f::<12, $m>($($a),*),
            13 => $f::<13, $m>($($a),*),
            14 => $f::<14, $m>($($a),*),
            15 => $f::<15, $m>($($a),*),
            16 => $f::<16, $m>($($a),*),
            17 => $f::<17, $m>($($a),*),
            18 => $f::<18, $m>($($a),*),
            19 => $f::<19, $m>($($a),*),
            20 => $f::<20, $m>($($a),*),
            21 => $f::<21, $m>($($a),*),
            22 => $f::<22, $m>($($a),*),
            23 => $f::<23, $m>($($a),*),
            24 => $f::<24, $m>($($a),*),
            25 => $f::<25, $m>($($a),*),
            26 => $f::<26, $m>($($a),*),
            27 => $f::<27, $m>($($a),*),
            28 => $f::<28, $m>($($a),*),
            29 => $f::<29, $m>($($a),*),
            30 => $f::<30, $m>($($a),*),
            31 => $f::<31, $m>($($a),*),
            32 => $f::<32, $m>($($a),*),
            _ => panic!("bit width above 32"),
        }
    };
}

/// `match $mode { m => $f::<m as u8>($args) }` over the five modes.
macro_rules! by_mode {
    ($f:ident, $mode:expr, ($($a:expr),*)) => {
        match $mode {
            Mode::Plain => $f::<0>($($a),*),
            Mode::D1 => $f::<1>($($a),*),
            Mode::Lane => $f::<2>($($a),*),
            Mode::Offset => $f::<3>($($a),*),
            Mode::Strict => $f::<4>($($a),*),
        }
    };
}

/// `match $bits { b => unsafe { $f::<b, $g...>($args) } }` for b = 0..=32
/// (`$f` an `unsafe fn` whose contract the call site states).
macro_rules! by_bits_unsafe {
    ($f:ident, [$($g:tt),*], $bits:expr, $args:tt) => {
        by_bits_unsafe!(@arms $f, [$($g),*], $bits, $args,
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29
            30 31 32)
    };
    (@arms $f:ident, $g:tt, $bits:expr, $args:tt, $($b:literal)*) => {
        match $bits {
            $(
                // SAFETY: the call site's contract (stated there).
                $b => unsafe { by_bits_unsafe!(@call $f, $b, $g, $args) },
            )*
            _ => unreachable!("bit width above 32"),
        }
    };
    (@call $f:ident, $b:literal, [$($g:tt),*], ($($a:expr),*)) => {
        $f::<$b, $($g),*>($($a),*)
    };
}

/// The operations of a one-register `V` that are one intrinsic each:
/// `ld`/`stb` (unaligned load and store of a word at a byte offset),
/// `set1`, the shifts `srl`/`sll` (the count in a register, see the header),
/// and the lane-wise `and`, `or`, `max` (unsigned), `add` and `sub`, from
/// the intrinsics named in that order; also `or4`, the OR of an
/// `__m128i`'s four lanes (in registers: a store read back as words would
/// wait for the store), which every shape's `or_lanes` ends in.
macro_rules! ops_one {
    ($f:literal, $ld:ident $stb:ident $set1:ident $srl:ident $sll:ident
        $and:ident $or:ident $max:ident $add:ident $sub:ident) => {
        #[cfg(target_arch = "x86")]
        use core::arch::x86::*;
        #[cfg(target_arch = "x86_64")]
        use core::arch::x86_64::*;

        /// # Safety
        /// `p + off .. p + off + VB` is readable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn ld(p: *const u8, off: usize) -> V {
            // SAFETY: in bounds (caller).
            let q = unsafe { p.add(off) };
            // SAFETY: VB readable bytes at `q` (caller).
            unsafe { $ld(q.cast()) }
        }

        /// # Safety
        /// `p + off .. p + off + VB` is writable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn stb(p: *mut u8, off: usize, v: V) {
            // SAFETY: in bounds (caller).
            let q = unsafe { p.add(off) };
            // SAFETY: VB writable bytes at `q` (caller).
            unsafe { $stb(q.cast(), v) }
        }

        #[target_feature(enable = $f)]
        #[inline]
        fn set1(x: u32) -> V {
            $set1(x as i32)
        }

        #[target_feature(enable = $f)]
        #[inline]
        fn srl(v: V, n: u32) -> V {
            $srl(v, _mm_cvtsi32_si128(n as i32))
        }

        #[target_feature(enable = $f)]
        #[inline]
        fn sll(v: V, n: u32) -> V {
            $sll(v, _mm_cvtsi32_si128(n as i32))
        }

        crate::x86::kernels::lanewise!(
            $f,
            and = $and,
            or = $or,
            max = $max,
            add = $add,
            sub = $sub
        );

        #[target_feature(enable = $f)]
        #[inline]
        fn or4(x: __m128i) -> u32 {
            let x = _mm_or_si128(x, _mm_shuffle_epi32::<0x4E>(x));
            _mm_cvtsi128_si32(_mm_or_si128(x, _mm_shuffle_epi32::<0xB1>(x))) as u32
        }
    };
}

/// `fn $name(a: V, b: V) -> V` for each `$name = $op`: `$op(a, b)`, or,
/// after `pair:`, `$op` on each half (`V { lo, hi }`).
macro_rules! lanewise {
    ($f:literal, $($name:ident = $op:path),*) => {
        $(
            #[target_feature(enable = $f)]
            #[inline]
            fn $name(a: V, b: V) -> V {
                $op(a, b)
            }
        )*
    };
    ($f:literal, pair: $($name:ident = $op:path),*) => {
        $(
            #[target_feature(enable = $f)]
            #[inline]
            fn $name(a: V, b: V) -> V {
                pair($op(a.lo, b.lo), $op(a.hi, b.hi))
            }
        )*
    };
}

/// 4 lanes in one `__m128i`.
macro_rules! ops_m128 {
    ($f:literal) => {
        type V = __m128i;
        const L: usize = 4;
        /// Bytes per word.
        const VB: usize = 16;

        crate::x86::kernels::ops_one!($f, _mm_loadu_si128 _mm_storeu_si128 _mm_set1_epi32
            _mm_srl_epi32 _mm_sll_epi32 _mm_and_si128 _mm_or_si128 _mm_max_epu32
            _mm_add_epi32 _mm_sub_epi32);

        /// The OR of `v`'s lanes.
        #[target_feature(enable = $f)]
        #[inline]
        fn or_lanes(v: V) -> u32 {
            or4(v)
        }

        /// `[prev[3], v[0], v[1], v[2]]`.
        #[target_feature(enable = $f)]
        #[inline]
        fn shift_in(prev: V, v: V) -> V {
            _mm_alignr_epi8::<12>(v, prev)
        }

        /// Inclusive prefix sum of `v` plus the broadcast running value `c`;
        /// returns the sums and the new broadcast running value (the last
        /// sum in every lane). Six operations per group; the carried chain
        /// is one add and one shuffle (measured faster here than keeping the
        /// running value apart, which costs a seventh operation).
        #[target_feature(enable = $f)]
        #[inline]
        fn prefix(v: V, c: V) -> (V, V) {
            let p = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
            let p = _mm_add_epi32(p, _mm_slli_si128::<8>(p));
            let x = _mm_add_epi32(p, c);
            (x, _mm_shuffle_epi32::<0xFF>(x))
        }
    };
}

/// 8 lanes in one `__m256i`.
macro_rules! ops_m256 {
    ($f:literal) => {
        type V = __m256i;
        const L: usize = 8;
        const VB: usize = 32;

        crate::x86::kernels::ops_one!($f, _mm256_loadu_si256 _mm256_storeu_si256
            _mm256_set1_epi32 _mm256_srl_epi32 _mm256_sll_epi32 _mm256_and_si256
            _mm256_or_si256 _mm256_max_epu32 _mm256_add_epi32 _mm256_sub_epi32);

        /// The OR of `v`'s lanes: of its two halves, then `or4`.
        #[target_feature(enable = $f)]
        #[inline]
        fn or_lanes(v: V) -> u32 {
            or4(_mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)))
        }

        /// `[prev[7], v[0], ..., v[6]]`.
        #[target_feature(enable = $f)]
        #[inline]
        fn shift_in(prev: V, v: V) -> V {
            let b = _mm256_permute2x128_si256::<0x21>(prev, v);
            _mm256_alignr_epi8::<12>(v, b)
        }

        /// Inclusive prefix sum over 8 lanes plus the broadcast running
        /// value: per 128-bit half, then the low half's total added to the
        /// high half; returns the sums and the new running value.
        #[target_feature(enable = $f)]
        #[inline]
        fn prefix(v: V, c: V) -> (V, V) {
            let p = _mm256_add_epi32(v, _mm256_slli_si256::<4>(v));
            let p = _mm256_add_epi32(p, _mm256_slli_si256::<8>(p));
            let t = _mm256_shuffle_epi32::<0xFF>(p);
            let p = _mm256_add_epi32(p, _mm256_permute2x128_si256::<0x08>(t, t));
            let total = _mm256_permutevar8x32_epi32(p, _mm256_set1_epi32(7));
            (_mm256_add_epi32(p, c), _mm256_add_epi32(c, total))
        }
    };
}

/// 16 lanes in one `__m512i` (AVX-512F; the ISA level's features, so that
/// LLVM may fuse a straddling group's two shifts and OR into `vpshldd`).
#[cfg(not(intcodec_skip_bp128_avx512))]
macro_rules! ops_m512 {
    ($f:literal) => {
        type V = __m512i;
        const L: usize = 16;
        const VB: usize = 64;

        crate::x86::kernels::ops_one!($f, _mm512_loadu_si512 _mm512_storeu_si512
            _mm512_set1_epi32 _mm512_srl_epi32 _mm512_sll_epi32 _mm512_and_si512
            _mm512_or_si512 _mm512_max_epu32 _mm512_add_epi32 _mm512_sub_epi32);

        /// The OR of `v`'s lanes: of its halves, then of theirs, then `or4`.
        #[target_feature(enable = $f)]
        #[inline]
        fn or_lanes(v: V) -> u32 {
            let y = _mm256_or_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
            or4(_mm_or_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y)))
        }

        /// `[prev[15], v[0], ..., v[14]]`.
        #[target_feature(enable = $f)]
        #[inline]
        fn shift_in(prev: V, v: V) -> V {
            _mm512_alignr_epi32::<15>(v, prev)
        }

        /// Inclusive prefix sum over 16 lanes (four `valignd` steps) plus
        /// the broadcast running value `c`; the new running value is `c`
        /// plus the group's own total (a `vpermd` of the local sums, off
        /// the carried chain, which is one add).
        #[target_feature(enable = $f)]
        #[inline]
        fn prefix(v: V, c: V) -> (V, V) {
            let p = crate::x86::prefix16(v);
            let total = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), p);
            (_mm512_add_epi32(p, c), _mm512_add_epi32(c, total))
        }
    };
}

/// Twice the lanes of the operations in the parent module (`super::V`,
/// `super::L`, ...): one group is two parent vectors, low lanes first, and
/// every operation is done on each half (the 8x layout as two `__m128i` on
/// SSE4.1, the 16x layout as two `__m256i` on AVX2; on NEON the 8x layout
/// as two `uint32x4_t` and the 16x as two of those). No ISA intrinsic of
/// its own, so both architectures expand it.
///
/// The prefix sum: by default the low half's, whose running value then
/// carries into the high half's; with `apart` (SSE4.1 8x) each half's own
/// sums, the high half's from the low half's total, and then the running
/// value added to both (the carried chain one add).
macro_rules! ops_pair {
    ($f:literal $(, $prefix:ident)?) => {
        #[derive(Clone, Copy)]
        struct V {
            lo: super::V,
            hi: super::V,
        }
        const L: usize = 2 * super::L;
        const VB: usize = 2 * super::VB;

        #[target_feature(enable = $f)]
        #[inline]
        fn pair(lo: super::V, hi: super::V) -> V {
            V { lo, hi }
        }

        /// # Safety
        /// `p + off .. p + off + VB` is readable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn ld(p: *const u8, off: usize) -> V {
            // SAFETY: both halves are inside `p + off .. + VB` (caller).
            let lo = unsafe { super::ld(p, off) };
            // SAFETY: as above.
            let hi = unsafe { super::ld(p, off + super::VB) };
            pair(lo, hi)
        }

        /// # Safety
        /// `p + off .. p + off + VB` is writable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn stb(p: *mut u8, off: usize, v: V) {
            // SAFETY: both halves are inside `p + off .. + VB` (caller).
            unsafe { super::stb(p, off, v.lo) };
            // SAFETY: as above.
            unsafe { super::stb(p, off + super::VB, v.hi) };
        }

        #[target_feature(enable = $f)]
        #[inline]
        fn set1(x: u32) -> V {
            pair(super::set1(x), super::set1(x))
        }

        #[target_feature(enable = $f)]
        #[inline]
        fn srl(v: V, n: u32) -> V {
            pair(super::srl(v.lo, n), super::srl(v.hi, n))
        }

        #[target_feature(enable = $f)]
        #[inline]
        fn sll(v: V, n: u32) -> V {
            pair(super::sll(v.lo, n), super::sll(v.hi, n))
        }

        lanewise!($f, pair: and = super::and, or = super::or,
            max = super::max, add = super::add, sub = super::sub);

        /// The OR of `v`'s lanes.
        #[target_feature(enable = $f)]
        #[inline]
        fn or_lanes(v: V) -> u32 {
            super::or_lanes(super::or(v.lo, v.hi))
        }

        /// `[prev[L-1], v[0], ..., v[L-2]]`.
        #[target_feature(enable = $f)]
        #[inline]
        fn shift_in(prev: V, v: V) -> V {
            pair(super::shift_in(prev.hi, v.lo), super::shift_in(v.lo, v.hi))
        }

        ops_pair!(@prefix $f $(, $prefix)?);
    };
    (@prefix $f:literal) => {
        /// Inclusive prefix sum plus the broadcast running value: the low
        /// half's, whose running value then carries into the high half's.
        #[target_feature(enable = $f)]
        #[inline]
        fn prefix(v: V, c: V) -> (V, V) {
            let (lo, c) = super::prefix(v.lo, c.lo);
            let (hi, c) = super::prefix(v.hi, c);
            (pair(lo, hi), pair(c, c))
        }
    };
    (@prefix $f:literal, apart) => {
        /// Inclusive prefix sum plus the broadcast running value `c`: the
        /// halves' own sums (the high half's from the low half's total),
        /// then `c` added to both and to the total; returns the sums and the
        /// new running value.
        #[target_feature(enable = $f)]
        #[inline]
        fn prefix(v: V, c: V) -> (V, V) {
            let (lo, t) = super::prefix(v.lo, super::set1(0));
            let (hi, total) = super::prefix(v.hi, t);
            let next = super::add(c.lo, total);
            (pair(super::add(lo, c.lo), super::add(hi, c.lo)), pair(next, next))
        }
    };
}
/// Unpack and pack of every width and mode over the `ops_*!` operations in
/// scope, and the `KERNELS` table.
macro_rules! bp_body {
    ($f:literal) => {
        use crate::{Fns, Mode, Prev, UnpackTable};

        pub const KERNELS: Fns = Fns {
            unpack: &UNPACK,
            unpack_blocks,
            unpack_upto,
            skip,
            pack,
            bits,
            pack_blocks,
        };

        static UNPACK: UnpackTable = crate::unpack_table!(unpack_w);

        #[target_feature(enable = $f)]
        #[inline]
        fn zero() -> V {
            set1(0)
        }

        /// The group at `p[idx .. idx + L]` (a word of `VB = 4 * L` bytes).
        ///
        /// # Safety
        /// `p[idx .. idx + L]` is readable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn ldv(p: *const u32, idx: usize) -> V {
            const { assert!(VB == 4 * L) };
            // SAFETY: the VB bytes at byte offset `4 * idx` (caller).
            unsafe { ld(p.cast(), 4 * idx) }
        }

        /// Stores a group at `p[idx .. idx + L]`.
        ///
        /// # Safety
        /// `p[idx .. idx + L]` is writable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn st(p: *mut u32, idx: usize, v: V) {
            const { assert!(VB == 4 * L) };
            // SAFETY: the VB bytes at byte offset `4 * idx` (caller).
            unsafe { stb(p.cast(), 4 * idx, v) }
        }

        /// `prev[..L]` as a group.
        #[target_feature(enable = $f)]
        #[inline]
        fn lanes(prev: &Prev) -> V {
            const { assert!(L <= 16) };
            // SAFETY: `prev` holds 16 >= L readable values.
            unsafe { ldv(prev.as_ptr(), 0) }
        }

        /// Unpack of one block of width `B`; `M` is the `Mode` as a number.
        /// A kernel entry of its own (one per mode and width).
        #[target_feature(enable = $f)]
        fn unpack_w<const B: u32, const M: u8>(input: &[u8], out: &mut [u32], prev: &Prev) {
            assert!(input.len() >= B as usize * VB && out.len() >= 32 * L);
            let carry = first_carry::<M>(prev);
            // SAFETY: `B * VB` readable bytes and `32 * L` writable values
            // (asserted above).
            unsafe { unpack_core::<B, M, 0>(input.as_ptr(), out.as_mut_ptr(), carry, 32) };
        }

        /// The running value a block starts from: `prev[L-1]` broadcast
        /// (D1, Strict), `prev[0]` broadcast (Offset), the previous group
        /// (Lane).
        #[target_feature(enable = $f)]
        #[inline]
        fn first_carry<const M: u8>(prev: &Prev) -> V {
            match M {
                1 | 4 => set1(prev[L - 1]),
                3 => set1(prev[0]),
                _ => lanes(prev),
            }
        }

        /// Group `K` of a block of width `B` at `ip` (`mask`: `B` low bits in
        /// every lane): the word it starts in shifted right by its bit
        /// offset, OR the next word shifted left when it crosses into it,
        /// masked.
        ///
        /// # Safety
        /// `ip[..B * VB]` is readable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn group<const B: u32, const K: u32>(ip: *const u8, mask: V) -> V {
            let o = K * B;
            let w = (o / 32) as usize;
            let s = o % 32;
            let mut v = if B == 0 {
                zero()
            } else {
                // SAFETY: word w < B (see the header), and `ip[..B * VB]`
                // is readable (caller).
                srl(unsafe { ld(ip, w * VB) }, s)
            };
            if B < 32 && s + B > 32 {
                // SAFETY: the group crosses into word w + 1 < B.
                let y = unsafe { ld(ip, (w + 1) * VB) };
                v = or(v, sll(y, 32 - s));
            }
            if B > 0 && B < 32 && s + B != 32 {
                v = and(v, mask);
            }
            v
        }

        /// Whether this set unpacks plain 4x blocks two groups a `__m256i`
        /// (the AVX2 and AVX-512 sets): one 256-bit store per eight values
        /// instead of two 128-bit ones, which is what bounds the 4x unpack
        /// where a core retires one vector store a cycle of any width (Zen
        /// 4: the 4x plain decode ran at half the 8x layout's speed on
        /// 8-bit values; `docs/perf-notes.md`, BP128, 2026-12-07).
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        const PAIRS: bool = L == 4 && crate::x86::wide::has_feature($f, "avx2");

        /// Groups `K` and `K + 1` of a 4x block of width `B` at `ip` as one
        /// `__m256i` (group `K` in the low half): as `group`, with the two
        /// groups' words side by side (one 32-byte load when they start in
        /// consecutive words, a 16-byte broadcast when in the same one) and
        /// per-half shift counts. A count of 32 (the half that does not
        /// cross into its next word) shifts in zeros, so the next words
        /// are read only where a group needs them.
        ///
        /// # Safety
        /// `ip[..B * 16]` is readable; the CPU has AVX2; `K + 1 < 32`.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        #[target_feature(enable = $f)]
        #[target_feature(enable = "avx2")]
        #[inline]
        unsafe fn two_groups<const B: u32, const K: u32>(ip: *const u8) -> crate::x86::M256 {
            #[cfg(target_arch = "x86")]
            use core::arch::x86::*;
            #[cfg(target_arch = "x86_64")]
            use core::arch::x86_64::*;
            let (o0, o1) = (K * B, (K + 1) * B);
            let (w0, w1) = ((o0 / 32) as usize, (o1 / 32) as usize);
            let (s0, s1) = (o0 % 32, o1 % 32);
            // Words `$a` and `$b` (b == a or a + 1, both below B) side by
            // side.
            macro_rules! two {
                ($a:expr, $b:expr) => {{
                    let (a, b): (usize, usize) = ($a, $b);
                    // SAFETY: words `a`, `b` < B are inside `ip[..B * 16]`
                    // (caller).
                    let pa = unsafe { ip.add(16 * a) };
                    if b == a {
                        // SAFETY: as above.
                        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(pa.cast()) })
                    } else {
                        // SAFETY: as above (words a and a + 1).
                        unsafe { _mm256_loadu_si256(pa.cast()) }
                    }
                }};
            }
            macro_rules! count {
                ($c0:expr, $c1:expr) => {{
                    let (c0, c1) = ($c0 as i32, $c1 as i32);
                    _mm256_setr_epi32(c0, c0, c0, c0, c1, c1, c1, c1)
                }};
            }
            if B == 0 {
                return _mm256_setzero_si256();
            }
            // B == 32: words K and K + 1, a copy.
            let lo = two!(w0, w1);
            if B == 32 {
                return lo;
            }
            let mut v = _mm256_srlv_epi32(lo, count!(s0, s1));
            let (x0, x1) = (s0 + B > 32, s1 + B > 32);
            if x0 || x1 {
                // The next word of each crossing group (group K crossing
                // means group K + 1 starts in word w0 + 1 = w1).
                let hi = match (x0, x1) {
                    (true, true) => two!(w0 + 1, w1 + 1),
                    (true, false) => two!(w0 + 1, w0 + 1),
                    _ => two!(w1 + 1, w1 + 1),
                };
                let t0 = if x0 { 32 - s0 } else { 32 };
                let t1 = if x1 { 32 - s1 } else { 32 };
                v = _mm256_or_si256(v, _mm256_sllv_epi32(hi, count!(t0, t1)));
            }
            if s0 + B != 32 || s1 + B != 32 {
                v = _mm256_and_si256(v, _mm256_set1_epi32(((1u64 << B) - 1) as i32));
            }
            v
        }

        /// The lanes of `B` low bits.
        #[target_feature(enable = $f)]
        #[inline]
        fn low_bits<const B: u32>() -> V {
            set1(if B >= 32 { u32::MAX } else { (1u32 << B) - 1 })
        }

        /// The unrolled body of one block of width `B` in mode `M`, from the
        /// running value `carry`; returns the running value after the block
        /// (D1: the last value broadcast; Lane: the last group), so that a
        /// sequence of blocks keeps it in a register.
        ///
        /// `SITE` separates the instances of its callers (`unpack_w`: 0,
        /// `unpack_blocks_m`: 1, `unpack_upto`: 2 and 3): an instance with a
        /// single call site is inlined there by LLVM, which keeps the
        /// running value in a register (a non-inlined call passes vectors
        /// through memory). Instance 2 stops after `limit` groups (1..=32);
        /// the others ignore it.
        ///
        /// # Safety
        /// `ip[..B * VB]` is readable and `op[..32 * L]` writable (instance
        /// 2: `op[..limit * L]`).
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn unpack_core<const B: u32, const M: u8, const SITE: u8>(
            ip: *const u8,
            op: *mut u32,
            carry: V,
            limit: u32,
        ) -> V {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            if PAIRS && M == 0 && SITE != 2 {
                #[cfg(target_arch = "x86")]
                use core::arch::x86::*;
                #[cfg(target_arch = "x86_64")]
                use core::arch::x86_64::*;
                macro_rules! pair_step {
                    ($k:literal) => {
                        // SAFETY: `ip[..B * 16]` is readable (caller), the
                        // set has AVX2 (`PAIRS`), $k + 1 < 32; values
                        // 4 * $k .. 4 * $k + 8 <= 128 = 32 * L are writable.
                        unsafe {
                            let v = two_groups::<B, $k>(ip);
                            _mm256_storeu_si256(op.add(4 * $k).cast(), v);
                        }
                    };
                }
                pair_step!(0);
                pair_step!(2);
                pair_step!(4);
                pair_step!(6);
                pair_step!(8);
                pair_step!(10);
                pair_step!(12);
                pair_step!(14);
                pair_step!(16);
                pair_step!(18);
                pair_step!(20);
                pair_step!(22);
                pair_step!(24);
                pair_step!(26);
                pair_step!(28);
                pair_step!(30);
                return carry;
            }
            let mask = low_bits::<B>();
            let mut carry = carry;
            macro_rules! step {
                ($k:literal) => {{
                    const K: u32 = $k;
                    // SAFETY: `ip[..B * VB]` is readable (caller).
                    let mut v = unsafe { group::<B, K>(ip, mask) };
                    if M == 1 {
                        let (x, c) = prefix(v, carry);
                        v = x;
                        carry = c;
                    } else if M == 4 {
                        // Strict: every delta is one less than the gap.
                        let (x, c) = prefix(add(v, set1(1)), carry);
                        v = x;
                        carry = c;
                    } else if M == 2 {
                        v = add(v, carry);
                        carry = v;
                    } else if M == 3 {
                        v = add(v, carry);
                    }
                    // SAFETY: K * L + L <= 32 * L, and group K < limit in
                    // instance 2 (caller: `op[..limit * L]` writable).
                    unsafe { st(op, K as usize * L, v) };
                    if SITE == 2 && K + 1 >= limit {
                        return carry;
                    }
                }};
            }
            unroll32!(step);
            carry
        }

        /// The running value after one block of width `B` in mode `M` from
        /// `carry`, without the values: the groups' vertical sum, then
        /// (D1, Strict) its lanes' total added to the broadcast running
        /// value, or (Lane) the sum added to the previous group. Plain and
        /// Offset have no running value: `carry` itself.
        ///
        /// # Safety
        /// `ip[..B * VB]` is readable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn skip_core<const B: u32, const M: u8>(ip: *const u8, carry: V) -> V {
            let mask = low_bits::<B>();
            let mut acc = zero();
            macro_rules! step {
                ($k:literal) => {{
                    // SAFETY: `ip[..B * VB]` is readable (caller).
                    acc = add(acc, unsafe { group::<B, $k>(ip, mask) });
                }};
            }
            if B > 0 {
                unroll32!(step);
            }
            match M {
                1 => prefix(acc, carry).1,
                // Strict: 32 more per lane (each delta is the gap less one).
                4 => prefix(add(acc, set1(32)), carry).1,
                2 => add(carry, acc),
                _ => carry,
            }
        }

        /// The kernel entry for the running value after one block (see
        /// `SkipFn`).
        #[target_feature(enable = $f)]
        fn skip(input: &[u8], bits: u8, mode: Mode, prev: &Prev) -> Prev {
            assert!(bits <= 32 && input.len() >= usize::from(bits) * VB);
            let ip = input.as_ptr();
            // Every arm: `input[..bits * VB]` is readable (asserted).
            let carry = match mode {
                Mode::D1 => by_bits_unsafe!(skip_core, [1], bits, (ip, first_carry::<1>(prev))),
                Mode::Lane => by_bits_unsafe!(skip_core, [2], bits, (ip, first_carry::<2>(prev))),
                Mode::Strict => by_bits_unsafe!(skip_core, [4], bits, (ip, first_carry::<4>(prev))),
                Mode::Plain | Mode::Offset => return *prev,
            };
            let mut lanes = *prev;
            // SAFETY: `lanes` holds 16 >= L writable values.
            unsafe { st(lanes.as_mut_ptr(), 0, carry) };
            match mode {
                Mode::Lane => lanes,
                _ => crate::splat(lanes[L - 1]),
            }
        }

        /// The kernel entry for the first groups of one block (see
        /// `UpToFn`).
        #[target_feature(enable = $f)]
        fn unpack_upto(
            input: &[u8],
            out: &mut [u32],
            bits: u8,
            mode: Mode,
            prev: &Prev,
            groups: usize,
        ) {
            assert!(bits <= 32 && input.len() >= usize::from(bits) * VB);
            assert!((1..=32).contains(&groups) && out.len() >= groups * L);
            let (ip, op, g) = (input.as_ptr(), out.as_mut_ptr(), groups as u32);
            macro_rules! run {
                ($m:literal) => {{
                    let c = first_carry::<$m>(prev);
                    // Every arm: `input[..bits * VB]` readable,
                    // `out[..g * L]` writable, 1 <= g <= 32 (asserted).
                    by_bits_unsafe!(unpack_core, [$m, 2], bits, (ip, op, c, g))
                }};
            }
            let _ = match mode {
                Mode::D1 => run!(1),
                Mode::Strict => run!(4),
                // Cheap groups (`select` unpacks the whole block in these
                // modes): the whole-block kernel into a buffer, then a copy,
                // which spares compiling 99 more unrolled bodies per set.
                _ => {
                    let mut buf = [0u32; 32 * L];
                    let f = UNPACK[mode as usize][usize::from(bits)];
                    // SAFETY: `f` is this set's unpack for `bits` (same CPU
                    // features); `input` holds `bits * VB` bytes (asserted)
                    // and `buf` a block.
                    unsafe { f(input, &mut buf, prev) };
                    out[..groups * L].copy_from_slice(&buf[..groups * L]);
                    return;
                }
            };
        }

        /// Unpack of consecutive blocks (the array format's full blocks):
        /// block `j` has width `widths[j]` and follows block `j - 1` in
        /// `input`; the running value stays in a register from one block
        /// to the next (no store and reload of `prev` between blocks, which
        /// would put a store-forwarding round trip on the carried chain).
        /// Asserts `out.len() >= widths.len() * 32 * L`; checks each block
        /// (width at most 32, bytes inside `input`) before unpacking it and
        /// stops at the first bad one: `Err(j)`. `Ok(bytes read)`.
        #[target_feature(enable = $f)]
        fn unpack_blocks_m<const M: u8>(
            input: &[u8],
            widths: &[u8],
            out: &mut [u32],
            prev: &Prev,
        ) -> Result<usize, usize> {
            assert!(out.len() / (32 * L) >= widths.len());
            let mut carry = first_carry::<M>(prev);
            let ip = input.as_ptr();
            let op = out.as_mut_ptr();
            let mut pos = 0usize;
            for (j, &w) in widths.iter().enumerate() {
                let len = usize::from(w) * VB;
                if w > 32 || input.len() - pos < len {
                    return Err(j);
                }
                // SAFETY: pos <= input.len() (checked on the previous block).
                let src = unsafe { ip.add(pos) };
                // SAFETY: j < widths.len() <= out.len() / (32 * L) (asserted).
                let dst = unsafe { op.add(j * 32 * L) };
                // Every arm: `src[..w * VB]` is inside `input` and
                // `dst[..32 * L]` inside `out` (checked above).
                carry = by_bits_unsafe!(unpack_core, [M, 1], w, (src, dst, carry, 32));
                pos += len;
            }
            let _ = carry;
            Ok(pos)
        }

        /// The kernel entry for a sequence of blocks (see
        /// `BlocksUnpackFn`).
        #[target_feature(enable = $f)]
        fn unpack_blocks(
            input: &[u8],
            widths: &[u8],
            out: &mut [u32],
            mode: Mode,
            prev: &Prev,
        ) -> Result<usize, usize> {
            by_mode!(unpack_blocks_m, mode, (input, widths, out, prev))
        }

        /// Pack of one block of width `B` (mirror of `unpack_w`).
        #[target_feature(enable = $f)]
        #[inline]
        fn pack_w<const B: u32, const M: u8>(values: &[u32], out: &mut [u8], carry: V) {
            assert!(values.len() >= 32 * L && out.len() >= B as usize * VB);
            let vp = values.as_ptr();
            let op = out.as_mut_ptr();
            let mut prev = carry;
            let mut acc = zero();
            macro_rules! step {
                ($k:literal) => {{
                    const K: u32 = $k;
                    // SAFETY: K * L + L <= 32 * L <= values.len() (asserted).
                    let x = unsafe { ldv(vp, K as usize * L) };
                    let t = if M == 1 {
                        let d = sub(x, shift_in(prev, x));
                        prev = x;
                        d
                    } else if M == 4 {
                        let d = sub(sub(x, shift_in(prev, x)), set1(1));
                        prev = x;
                        d
                    } else if M == 2 {
                        let d = sub(x, prev);
                        prev = x;
                        d
                    } else if M == 3 {
                        sub(x, prev)
                    } else {
                        x
                    };
                    if B == 32 {
                        // SAFETY: word K < 32 = B; out.len() >= B * VB.
                        unsafe { stb(op, K as usize * VB, t) };
                    } else if B > 0 {
                        let o = K * B;
                        let w = (o / 32) as usize;
                        let s = o % 32;
                        acc = if s == 0 { t } else { or(acc, sll(t, s)) };
                        if s + B >= 32 {
                            // SAFETY: word w < B; out.len() >= B * VB.
                            unsafe { stb(op, w * VB, acc) };
                            acc = if s + B > 32 { srl(t, 32 - s) } else { zero() };
                        }
                    }
                }};
            }
            unroll32!(step);
            let _ = (prev, acc);
        }

        /// Bits needed by the widest packed value of one block (the values,
        /// or their deltas as `pack_w` forms them): the maximum of every
        /// group, then the OR of the lanes.
        #[target_feature(enable = $f)]
        fn bits(values: &[u32], mode: Mode, prev: &Prev) -> u8 {
            assert!(values.len() >= 32 * L);
            let vp = values.as_ptr();
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            if let Some(max) = wide_max(vp, mode, prev) {
                return crate::bits_of(max);
            }
            let acc = match mode {
                // SAFETY: `values` holds 32 * L readable values (asserted).
                Mode::Plain => unsafe { bits_or::<0>(vp, prev) },
                // SAFETY: `values` holds 32 * L readable values (asserted).
                Mode::D1 => unsafe { bits_or::<1>(vp, prev) },
                // SAFETY: `values` holds 32 * L readable values (asserted).
                Mode::Lane => unsafe { bits_or::<2>(vp, prev) },
                // SAFETY: `values` holds 32 * L readable values (asserted).
                Mode::Offset => unsafe { bits_or::<3>(vp, prev) },
                // SAFETY: `values` holds 32 * L readable values (asserted).
                Mode::Strict => unsafe { bits_or::<4>(vp, prev) },
            };
            crate::bits_of(or_lanes(acc))
        }

        /// The widest packed value of the block at `vp` (`32 * L` values)
        /// scanned in the widest vectors of this kernel set's features,
        /// when they are wider than its groups: 512 bits a load when they
        /// include AVX-512F ([`max_wide`](crate::x86::wide::max_wide)),
        /// 256 for the 4x layout under AVX2
        /// ([`max_wide256`](crate::x86::wide::max_wide256)). Not in
        /// `Lane` mode, the only one whose deltas depend on the layout.
        ///
        /// # Safety
        /// `vp[..32 * L]` is readable.
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        #[target_feature(enable = $f)]
        #[inline]
        fn wide_max(vp: *const u32, mode: Mode, prev: &Prev) -> Option<u32> {
            #[cfg(not(intcodec_skip_bp128_avx512))]
            const WIDE512: bool = L < 16 && crate::x86::wide::has_feature($f, "avx512f");
            #[cfg(intcodec_skip_bp128_avx512)]
            const WIDE512: bool = false;
            const WIDE256: bool = !WIDE512 && L == 4 && crate::x86::wide::has_feature($f, "avx2");
            if !(WIDE512 || WIDE256) || mode == Mode::Lane {
                return None;
            }
            let p = if mode == Mode::Offset {
                prev[0]
            } else {
                prev[L - 1]
            };
            #[cfg(not(intcodec_skip_bp128_avx512))]
            if WIDE512 {
                // SAFETY: `WIDE512`: this kernel set runs only where its
                // features, AVX-512F among them, are; `vp[..32 * L]` is
                // readable (caller), 64 values or more.
                return Some(unsafe { crate::x86::wide::max_wide(vp, 32 * L, mode, p) });
            }
            // SAFETY: `WIDE256`: this kernel set runs only where its
            // features, AVX2 among them, are; `vp[..32 * L]` is readable
            // (caller), 128 values.
            Some(unsafe { crate::x86::wide::max_wide256(vp, 32 * L, mode, p) })
        }

        /// The lane-wise maximum of a block's 32 groups as packed in mode `M`
        /// (the values, or their deltas as `pack_w` forms them), four groups a
        /// step into four accumulators, then OR-ed: the widest value has the
        /// width of their OR. Unsigned maximum, not OR, in the chains: LLVM
        /// re-associates four OR chains into one of 32 `por`s, and the width
        /// is what the block's pack dispatches on, so when the width changes
        /// from block to block the mispredicted jump is found 32 cycles
        /// later (`docs/perf-notes.md`, BP128).
        ///
        /// # Safety
        /// `vp[..32 * L]` is readable.
        #[target_feature(enable = $f)]
        #[inline]
        unsafe fn bits_or<const M: u8>(vp: *const u32, prev: &Prev) -> V {
            let mut p = match M {
                1 | 4 => set1(prev[L - 1]),
                2 => lanes(prev),
                3 => set1(prev[0]),
                _ => zero(),
            };
            let mut acc = [zero(); 4];
            for q in 0..8 {
                // SAFETY: group 4q + 3 < 32 (caller).
                let xs = [0, 1, 2, 3].map(|i| unsafe { ldv(vp, (4 * q + i) * L) });
                for (a, x) in acc.iter_mut().zip(xs) {
                    let d = match M {
                        1 => {
                            let d = sub(x, shift_in(p, x));
                            p = x;
                            d
                        }
                        2 => {
                            let d = sub(x, p);
                            p = x;
                            d
                        }
                        4 => {
                            let d = sub(sub(x, shift_in(p, x)), set1(1));
                            p = x;
                            d
                        }
                        3 => sub(x, p),
                        _ => x,
                    };
                    *a = max(*a, d);
                }
            }
            or(or(acc[0], acc[1]), or(acc[2], acc[3]))
        }

        /// The kernel entry for packing consecutive blocks
        /// ([`BlocksPackFn`](crate::BlocksPackFn)): one loop per mode, so
        /// that a block's pack is one jump on its width.
        #[target_feature(enable = $f)]
        fn pack_blocks(
            values: &[u32],
            widths: &mut [u8],
            out: &mut [u8],
            mode: Mode,
            prev: u32,
        ) -> usize {
            by_mode!(pack_blocks_m, mode, (values, widths, out, prev))
        }

        /// [`pack_blocks`] in mode `M` (`Mode as u8`).
        #[target_feature(enable = $f)]
        fn pack_blocks_m<const M: u8>(
            values: &[u32],
            widths: &mut [u8],
            out: &mut [u8],
            prev: u32,
        ) -> usize {
            crate::pack_blocks_with(
                L,
                values,
                widths,
                out,
                crate::mode_of(M),
                prev,
                |v, m, p| bits(v, m, p),
                |v, o, b, _, p| pack_m::<M>(v, o, b, p),
            )
        }

        /// [`pack`] in mode `M`.
        #[target_feature(enable = $f)]
        #[inline]
        fn pack_m<const M: u8>(values: &[u32], out: &mut [u8], bits: u8, prev: &Prev) {
            assert!(bits <= 32);
            let c = match M {
                3 => set1(prev[0]),
                1 | 4 => set1(prev[L - 1]),
                _ => lanes(prev),
            };
            by_bits!(pack_w, M, bits, (values, out, c))
        }

        /// The kernel entry for packing.
        #[target_feature(enable = $f)]
        fn pack(values: &[u32], out: &mut [u8], bits: u8, mode: Mode, prev: &Prev) {
            by_mode!(pack_m, mode, (values, out, bits, prev))
        }
    };
}

/// An ISA's two kernel sets, `KERNELS_4` (4x layout, over `$ops4`) and
/// `KERNELS_8` (8x layout, over `$ops8`): [`bp_body!`] compiled for the
/// features `$f` over each vector shape, each in a module of its own.
macro_rules! bp_kernel_sets {
    ($f:literal, $ops4:ident, $ops8:ident) => {
        crate::x86::kernels::bp_kernel_sets!(@set l4 KERNELS_4 $ops4, $f);
        crate::x86::kernels::bp_kernel_sets!(@set l8 KERNELS_8 $ops8, $f);
    };
    (@set $m:ident $name:ident $ops:ident, $f:literal) => {
        pub use self::$m::KERNELS as $name;

        mod $m {
            crate::x86::kernels::$ops!($f);
            crate::x86::kernels::bp_body!($f);
        }
    };
    // A layout of twice `$ops`'s lanes: `ops_pair!` over them (`$prefix`:
    // its prefix-sum variant).
    (@pair $m:ident $name:ident $ops:ident, $f:literal $(, $prefix:ident)?) => {
        pub use self::$m::x2::KERNELS as $name;

        mod $m {
            crate::x86::kernels::$ops!($f);

            pub(super) mod x2 {
                crate::x86::kernels::ops_pair!($f $(, $prefix)?);
                crate::x86::kernels::bp_body!($f);
            }
        }
    };
}

pub(crate) use bp_body;
pub(crate) use bp_kernel_sets;
pub(crate) use lanewise;
pub(crate) use ops_m128;
pub(crate) use ops_m256;
#[cfg(not(intcodec_skip_bp128_avx512))]
pub(crate) use ops_m512;
pub(crate) use ops_one;
pub(crate) use ops_pair;
