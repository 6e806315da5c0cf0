//! AVX2-level Stream VByte kernels: the SSE4.1 algorithms of `sse41.rs`
//! (128-bit vectors, the paper's Fig. 4 loop and the zero-flag table encoder),
//! compiled for a CPU with AVX2 so that every instruction is VEX-encoded.
//!
//! Why a separate kernel set: VEX encoding drops the register copies that
//! two-operand legacy SSE needs, folds unaligned memory operands, and never
//! pays the SSE/AVX transition penalty when it runs next to AVX code (see
//! DESIGN.md, "Mixing SSE and AVX code"). Wider (256-bit) registers do not
//! help here: a group's data offset depends on the previous group, and
//! `vpshufb` cannot cross 128-bit lanes.
//!
//! Both sets expand from one macro (`kernels.rs`), with different target
//! features, so each is compiled for its own instruction set. Bounds are
//! exactly those described in `sse41.rs`.

super::kernels::stream_vbyte_kernels!("avx2,bmi1,bmi2,popcnt", Isa::Avx2, zero_block_avx2);

/// Four all-zero control bytes. For standard-variant delta decoding (sixteen
/// one-byte deltas, the common case of dense posting lists) this computes
/// the prefix sums in 16-bit lanes, which cannot overflow (16 × 255 < 2^16),
/// so that two 16-byte values per shuffle are summed; the in-group steps are
/// bit shifts of 64-bit lanes, not shuffles. Seven shuffles per sixteen
/// values instead of sixteen, and a single add on the loop-carried chain.
/// Otherwise the 128-bit version.
///
/// # Safety
/// For the standard variant, `src` must be valid for reading 16 bytes.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
unsafe fn zero_block_avx2<F: Format, const DELTA: bool>(
    src: *const u8,
    dst: &mut [[u32; 4]; 4],
    prev: &mut __m128i,
) -> usize {
    if !DELTA || F::VARIANT != Variant::V1234 {
        // SAFETY: forwarded from the caller.
        return unsafe { zero_block_sse::<F, DELTA>(src, dst, prev) };
    }
    // SAFETY: the caller guarantees 16 readable bytes at `src`.
    let data = unsafe { _mm_loadu_si128(src.cast()) };
    // Sixteen u16 deltas; each 64-bit lane is one group of four.
    let x = _mm256_cvtepu8_epi16(data);
    let x = _mm256_add_epi16(x, _mm256_slli_epi64::<16>(x));
    let x = _mm256_add_epi16(x, _mm256_slli_epi64::<32>(x));
    // Add each 128-bit half's first group total (u16 3) to its second group.
    let carry = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, 6, 7, 6, 7, 6, 7, 6, 7, //
        -1, -1, -1, -1, -1, -1, -1, -1, 6, 7, 6, 7, 6, 7, 6, 7,
    );
    let x = _mm256_add_epi16(x, _mm256_shuffle_epi8(x, carry));
    // Prefix sums of values 0..=7, and of values 8..=15 alone, as u32.
    let lo = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x));
    let hi = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(x));
    let last = _mm256_set1_epi32(7);
    let total_lo = _mm256_permutevar8x32_epi32(lo, last);
    let total_hi = _mm256_permutevar8x32_epi32(hi, last);
    let p = _mm256_broadcastsi128_si256(*prev);
    let out_lo = _mm256_add_epi32(lo, p);
    let out_hi = _mm256_add_epi32(hi, _mm256_add_epi32(p, total_lo));
    // The totals do not depend on `prev`: the chain is one add per block.
    *prev = _mm256_castsi256_si128(_mm256_add_epi32(p, _mm256_add_epi32(total_lo, total_hi)));
    let (first, second) = dst.split_at_mut(2);
    // SAFETY: `first` is two groups, 32 writable bytes.
    unsafe { _mm256_storeu_si256(first.as_mut_ptr().cast(), out_lo) };
    // SAFETY: `second` is two groups, 32 writable bytes.
    unsafe { _mm256_storeu_si256(second.as_mut_ptr().cast(), out_hi) };
    16
}
