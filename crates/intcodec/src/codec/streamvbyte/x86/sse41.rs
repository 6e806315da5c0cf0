//! SSE4.1 Stream VByte kernels (decode, delta decode, encode, delta encode),
//! for both variants.
//!
//! Decode is the paper's Fig. 4 loop: per control byte, a 16-byte load of the
//! data, a `pshufb` with the control byte's mask from a 256-entry table, a
//! 16-byte store of four values, and the data pointer advanced by the length
//! table. Four control bytes are read at once; when all four are zero (16
//! one-byte values in the standard variant, 16 zeros in "0124") a shorter path
//! widens the bytes with `pmovzxbd` (or stores zeros). Delta decoding adds the
//! SIMD prefix sum of paper §2 (two shifted adds and a broadcast).
//!
//! Encode takes eight values per step: a byte-wise comparison with zero and
//! `pmovmskb` give each value's zero-byte flags, a 256-entry table turns two
//! values' flags into their two codes (so control bytes cost four vector
//! instructions per eight values), and one `pshufb` per group gathers the
//! significant bytes (256-entry mask table).
//!
//! Bounds: the checked decoder loads 16 bytes at a data offset only when at
//! least 16 bytes of `input` remain there (64 for a block of four groups), so
//! it never reads past `input`; what is left is decoded by the scalar kernel,
//! which reports truncation. The encoder stores 16 bytes only when 16 bytes of
//! `out` remain. Requires SSSE3 and SSE4.1.

super::kernels::stream_vbyte_kernels!("sse4.1", Isa::Sse41, zero_block_sse);
