//! x86 SIMD steps shared by the byte codecs' kernels (Stream VByte, VByte,
//! VarInt-GB, G8IU), written once. Each enables only the features it needs
//! (SSE2, SSSE3 or SSE4.1), which the features of every kernel set using it
//! imply, so it inlines into each kernel.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// 16 bytes as a vector, at compile time too (the tables' masks).
pub(crate) const fn vector(bytes: [u8; 16]) -> __m128i {
    // SAFETY: `[u8; 16]` and `__m128i` have the same size and every bit
    // pattern is a valid `__m128i`.
    unsafe { core::mem::transmute::<[u8; 16], __m128i>(bytes) }
}

/// A table of 16-byte rows as vectors, so that a look-up is a plain (safe)
/// copy.
pub(crate) const fn vectors<const N: usize>(rows: &[[u8; 16]; N]) -> [__m128i; N] {
    let mut out = [vector([0; 16]); N];
    let mut i = 0;
    while i < N {
        out[i] = vector(rows[i]);
        i += 1;
    }
    out
}

/// The 64 bytes of `src` as a vector.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn load64(src: &[u8; 64]) -> __m512i {
    // SAFETY: `src` is 64 readable bytes.
    unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
}

/// Byte `j` is `j` (byte permute and compress indices).
pub(crate) static IOTA64: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        t[j] = j as u8;
        j += 1;
    }
    t
};

/// The 16 bytes of `src` as a vector.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn load16(src: &[u8; 16]) -> __m128i {
    // SAFETY: `src` is 16 readable bytes.
    unsafe { _mm_loadu_si128(src.as_ptr().cast()) }
}

/// Four u32 lanes as an array.
#[target_feature(enable = "sse4.1")]
#[inline]
pub(crate) fn lanes(v: __m128i) -> [u32; 4] {
    [
        _mm_cvtsi128_si32(v) as u32,
        _mm_extract_epi32::<1>(v) as u32,
        _mm_extract_epi32::<2>(v) as u32,
        _mm_extract_epi32::<3>(v) as u32,
    ]
}

/// In-register prefix sum of four u32 lanes (two shifted adds).
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn prefix4(v: __m128i) -> __m128i {
    let v = _mm_add_epi32(v, _mm_slli_si128::<4>(v));
    _mm_add_epi32(v, _mm_slli_si128::<8>(v))
}

/// The sum of the four u32 lanes of `v` (wrapping): two folding adds.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn sum4(v: __m128i) -> u32 {
    let v = _mm_add_epi32(v, _mm_unpackhi_epi64(v, v));
    let v = _mm_add_epi32(v, _mm_shuffle_epi32::<1>(v));
    _mm_cvtsi128_si32(v) as u32
}

/// Bit `j` (of four) set when lane `j` of `v` is at or above the target,
/// compared unsigned: `flip` is the sign bits (`i32::MIN` in each lane) and
/// `t` the target broadcast with them flipped. The seek kernels' test.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn lanes_at_least(v: __m128i, t: __m128i, flip: __m128i) -> u32 {
    // Values >= target  <=>  !(target > value), signs flipped.
    let below = _mm_cmpgt_epi32(t, _mm_xor_si128(v, flip));
    !(_mm_movemask_ps(_mm_castsi128_ps(below)) as u32) & 0xF
}

/// The group `raw` as deltas from its predecessors if `DELTA` (else
/// unchanged): an encoder's first step. `prev_v`'s last lane is the
/// predecessor of `raw`'s first, and `prev_v` becomes `raw`.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn group_deltas<const DELTA: bool>(raw: __m128i, prev_v: &mut __m128i) -> __m128i {
    if !DELTA {
        return raw;
    }
    let d = _mm_sub_epi32(raw, _mm_alignr_epi8::<12>(raw, *prev_v));
    *prev_v = raw;
    d
}

/// Prefix sum of four u32 lanes plus the running total `prev` (broadcast);
/// returns the sums and the new broadcast total.
///
/// The group's own prefix sum and its broadcast last lane do not depend on
/// `prev`, so the loop-carried chain is a single add per group.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn prefix_sum(v: __m128i, prev: __m128i) -> (__m128i, __m128i) {
    let v = prefix4(v);
    let total = _mm_shuffle_epi32::<0xFF>(v);
    (_mm_add_epi32(v, prev), _mm_add_epi32(total, prev))
}

/// The `pshufb` by `shuf` of a group whose `len` bytes start at `pos` of
/// `data`, near its end: read from the last 16 bytes of `data` with the
/// shuffle's indices shifted ([`last16`](crate::codec::last16)), if the
/// group's bytes are all inside `data`; `None` otherwise.
#[target_feature(enable = "ssse3")]
#[inline]
pub(crate) fn shuffle_last16(
    data: &[u8],
    pos: usize,
    len: usize,
    shuf: __m128i,
) -> Option<__m128i> {
    let (src, shift) = crate::codec::last16(data, pos, len)?;
    let shuf = _mm_add_epi8(shuf, _mm_set1_epi8(shift as i8));
    Some(_mm_shuffle_epi8(load16(src), shuf))
}

/// Prefix sum of sixteen u32 lanes (defined beside the BP128 kernels, which
/// use it too).
pub(crate) use intcodec_bp128_kernels::x86::prefix16;

/// The sixteen deltas `v` as running values from `acc` (the value before
/// them, broadcast), which becomes the last of them; `dst` is where they
/// are about to be stored. The block's sums and total do not depend on
/// `acc`: the loop-carried chain is one add.
///
/// The total is broadcast one of two ways:
/// - `IN_REGS = false` (Intel): the deltas' own prefix sums go to `dst`
///   first and their total is read back as a broadcast load: a lane
///   broadcast in registers (`vpermd`) would take the shuffle port that
///   the decoders' expands and the sums keep busy (Stream VByte delta
///   decode, postings of 2^10..2^16 ints on a Xeon: 1.21x -> 1.28x of
///   lemire/streamvbyte). The read is volatile so that the compiler keeps
///   the load.
/// - `IN_REGS = true` (a Zen tuning, outputs not 32-byte aligned): a
///   `vpermd`. On Zen 5 the 4-byte reload waits for the 64-byte store
///   unless `dst` is 32-byte aligned (4096 deltas, Stream VByte: 8.4 G
///   ints/s aligned, 3.2 otherwise, 7.2 with `vpermd`), and the wait is on
///   the chain.
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn running16<const IN_REGS: bool>(
    v: __m512i,
    dst: &mut [u32; 16],
    acc: &mut __m512i,
) -> __m512i {
    running_from::<IN_REGS>(prefix16(v), dst, acc)
}

/// Whether a delta decoder writing sixteen-value totals at `dst` carries
/// them in registers (`running16::<true>`): under a Zen tuning, when
/// `dst` is not 32-byte aligned (see [`running16`]).
#[inline]
pub(crate) fn totals_in_regs(dst: *const u32) -> bool {
    crate::isa::tuning().is_zen() && !dst.addr().is_multiple_of(32)
}

/// [`running16`] of sixteen prefix sums already made (`local`: lane `k`
/// the sum of deltas `0..=k`).
#[target_feature(enable = "avx512f")]
#[inline]
pub(crate) fn running_from<const IN_REGS: bool>(
    local: __m512i,
    dst: &mut [u32; 16],
    acc: &mut __m512i,
) -> __m512i {
    let total = if IN_REGS {
        _mm512_permutexvar_epi32(_mm512_set1_epi32(15), local)
    } else {
        // SAFETY: `dst` is 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), local) };
        // SAFETY: lane 15 of `dst`, just written (a plain `u32`).
        _mm512_set1_epi32(unsafe { core::ptr::read_volatile(&dst[15]) } as i32)
    };
    let out = _mm512_add_epi32(local, *acc);
    *acc = _mm512_add_epi32(*acc, total);
    out
}

/// Per output lane `k` (sixteen u32 lanes) and source dword `g`, the four
/// byte weights of `vpdpbusd`: byte `i` of dword `g` counts towards lane
/// `k` when `4g + i <= k`.
static PREFIX_WEIGHTS: [[u8; 64]; 4] = {
    let mut w = [[0u8; 64]; 4];
    let mut g = 0;
    while g < 4 {
        let mut k = 0;
        while k < 16 {
            let mut i = 0;
            while i < 4 {
                w[g][4 * k + i] = (4 * g + i <= k) as u8;
                i += 1;
            }
            k += 1;
        }
        g += 1;
    }
    w
};

/// Inclusive prefix sums of sixteen one-byte deltas, as sixteen u32
/// lanes, with no shuffle: four groups of four bytes, `STEP` bytes apart
/// from `src` (Stream VByte's one-byte blocks: 4, contiguous; VarInt-GB's:
/// 5, past each control byte). Each group is broadcast from memory (a
/// load-port operation) and VNNI's `vpdpbusd` adds, in every lane, its
/// bytes times 0/1 weights: four multiply-adds against a widening and four
/// shifted adds, five of whose nine operations need the shuffle port.
///
/// # Safety
/// `src` is valid for reading `3 * STEP + 4` bytes.
#[target_feature(enable = "avx512f,avx512vnni")]
#[inline]
pub(crate) unsafe fn prefix16_dwords<const STEP: usize>(src: *const u8) -> __m512i {
    let mut s = _mm512_setzero_si512();
    for (g, w) in PREFIX_WEIGHTS.iter().enumerate() {
        // SAFETY: 64 readable bytes.
        let w = unsafe { _mm512_loadu_si512(w.as_ptr().cast()) };
        // SAFETY: the `g`-th four bytes at `src` (the caller).
        let d = unsafe { core::ptr::read_unaligned(src.wrapping_add(STEP * g).cast::<i32>()) };
        s = _mm512_dpbusd_epi32(s, _mm512_set1_epi32(d), w);
    }
    s
}
