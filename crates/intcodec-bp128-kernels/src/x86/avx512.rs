//! AVX-512 BP128 kernels (the crate's `Isa::Avx512` level: F, BW, VL,
//! VBMI, VBMI2). 16x layout: one `__m512i` per group of sixteen values, the
//! layout of simdcomp's `avx512pack` (512 values per block: value `i` in
//! lane `i % 16` of group `i / 16`, each lane a bit stream of its 32
//! values, least significant bit first, `b` words of 64 bytes), with the D1
//! prefix sum in four `valignd` steps. Same algorithm and bounds as
//! `sse41.rs`.

crate::x86::kernels::bp_kernel_sets!(
    @set l16 KERNELS_16 ops_m512,
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,bmi1,bmi2,popcnt"
);
crate::x86::kernels::bp_kernel_sets!(
    "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx2,bmi1,bmi2,popcnt",
    ops_m128,
    ops_m256
);
