//! AVX2-level VarInt-G8IU kernels: the SSSE3 algorithm (`ssse3.rs`, same
//! bounds) compiled for a CPU with AVX2 so that every instruction is
//! VEX-encoded (no register copies, no SSE/AVX transition penalty).

super::kernels::varint_g8iu_kernels!("avx2,bmi1,bmi2,popcnt", Isa::Avx2);
