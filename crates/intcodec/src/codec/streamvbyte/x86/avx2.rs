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

super::kernels::stream_vbyte_kernels!("avx2,bmi1,bmi2,popcnt", Isa::Avx2, avx2);
