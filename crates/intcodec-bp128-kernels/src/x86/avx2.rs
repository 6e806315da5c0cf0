//! AVX2 BP128 kernels. 4x layout: the SSE4.1 algorithm (`sse41.rs`, same
//! bounds) compiled for AVX2 so that every instruction is VEX-encoded (no
//! SSE/AVX transition penalty, no register copies), except the plain
//! unpack of whole blocks, which decodes two groups per `__m256i`
//! (`two_groups` in `kernels.rs`: the two groups' words side by side from
//! one 32-byte load or a 16-byte broadcast, shifted by per-half counts,
//! one 256-bit store per eight values; the same words read); 8x layout: one
//! `__m256i` per group of eight values (`BitPacker8x`), the D1 prefix sum
//! done per 128-bit half and carried across with a lane permute.
//! Requires AVX2 (+BMI1/BMI2/POPCNT, the crate's `Isa::Avx2` level).

crate::x86::kernels::bp_kernel_sets!("avx2,bmi1,bmi2,popcnt", ops_m128, ops_m256);
crate::x86::kernels::bp_kernel_sets!(
    @pair l16 KERNELS_16 ops_m256,
    "avx2,bmi1,bmi2,popcnt"
);
