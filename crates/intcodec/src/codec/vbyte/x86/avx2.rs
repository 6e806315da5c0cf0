//! AVX2-level Masked VByte: the SSE4.1 algorithm of `sse41.rs` (128-bit
//! vectors) compiled for a CPU with AVX2, so that every instruction is
//! VEX-encoded (no register copies, no SSE/AVX transition penalty next to
//! AVX code). 256-bit registers do not help: each 12-byte step's start
//! depends on the previous step. Bounds are exactly those of `sse41.rs`.

super::kernels::masked_vbyte_kernels!("avx2,bmi1,bmi2,popcnt", Isa::Avx2, bulk: decode_bulk);
super::seek::masked_vbyte_seek!("avx2,bmi1,bmi2,popcnt");
