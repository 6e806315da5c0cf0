//! AVX2-level VarInt-GB kernels: the SSSE3 algorithm (`ssse3.rs`, same
//! bounds) compiled for a CPU with AVX2 so that every instruction is
//! VEX-encoded (no register copies, no SSE/AVX transition penalty next to
//! AVX code; DESIGN.md "Mixing SSE and AVX code"). Wider registers do not
//! help here: each block's address depends on the previous block's length
//! (the AVX-512 kernel breaks that chain with VBMI permutes, `avx512.rs`).
//! One difference: with `popcnt` in the features, a block's length is
//! computed from its control byte (`tables::varint_gb::data_len`, two
//! `popcnt`s) instead of loaded from the length table, which shortens that
//! chain by about a load's latency (`docs/perf-notes.md`, VarInt-GB).

super::kernels::varint_gb_kernels!("avx2,bmi1,bmi2,popcnt", Isa::Avx2, avx2, true);
