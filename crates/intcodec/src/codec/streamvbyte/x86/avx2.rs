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

/// In-lane prefix sums of eight u32 lanes, then the low half's total carried
/// into the high half: the prefix sum of all eight.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline]
fn prefix8(v: __m256i) -> __m256i {
    let v = _mm256_add_epi32(v, _mm256_slli_si256::<4>(v));
    let v = _mm256_add_epi32(v, _mm256_slli_si256::<8>(v));
    // Low 128 bits zero, high 128 bits = the low half; then lane 3 broadcast.
    let low_total = _mm256_shuffle_epi32::<0xFF>(_mm256_permute2x128_si256::<0x08>(v, v));
    _mm256_add_epi32(v, low_total)
}

/// Four all-zero control bytes. For standard-variant delta decoding (sixteen
/// one-byte deltas, the common case of dense posting lists) this uses 256-bit
/// prefix sums, with a single add on the loop-carried chain; otherwise the
/// 128-bit version.
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
    let a = prefix8(_mm256_cvtepu8_epi32(data));
    let b = prefix8(_mm256_cvtepu8_epi32(_mm_srli_si128::<8>(data)));
    let last = _mm256_set1_epi32(7);
    // Totals do not depend on `prev`: the chain is one add per block.
    let total_a = _mm256_permutevar8x32_epi32(a, last);
    let total_ab = _mm256_add_epi32(total_a, _mm256_permutevar8x32_epi32(b, last));
    let p = _mm256_broadcastsi128_si256(*prev);
    let out_a = _mm256_add_epi32(a, p);
    let out_b = _mm256_add_epi32(b, _mm256_add_epi32(p, total_a));
    *prev = _mm256_castsi256_si128(_mm256_add_epi32(p, total_ab));
    let (first, second) = dst.split_at_mut(2);
    // SAFETY: `first` is two groups, 32 writable bytes.
    unsafe { _mm256_storeu_si256(first.as_mut_ptr().cast(), out_a) };
    // SAFETY: `second` is two groups, 32 writable bytes.
    unsafe { _mm256_storeu_si256(second.as_mut_ptr().cast(), out_b) };
    16
}
