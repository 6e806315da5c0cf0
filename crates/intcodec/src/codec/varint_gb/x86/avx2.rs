//! AVX2-level VarInt-GB kernels: the SSSE3 algorithm (`ssse3.rs`, same
//! bounds) compiled for a CPU with AVX2 so that every instruction is
//! VEX-encoded (no register copies, no SSE/AVX transition penalty next to
//! AVX code; DESIGN.md "Mixing SSE and AVX code"). Wider registers do not
//! help here: each block's address depends on the previous block's length
//! (the AVX-512 kernel breaks that chain with VBMI permutes, `avx512.rs`).

super::kernels::varint_gb_kernels!("avx2,bmi1,bmi2,popcnt", Isa::Avx2, avx2, true);
