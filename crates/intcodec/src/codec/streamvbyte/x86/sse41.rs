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
//! Encode takes sixteen values per step, one group (four values) at a time.
//! A value's code depends only on which of three of its bytes are zero, so
//! one `pshufb` gathers those twelve bytes of a group, and `pcmpeqb` +
//! `pmovmskb` turn them into twelve flags. The flags index a 4096-entry table
//! whose 32-byte entries hold the group's shuffle mask, control byte and data
//! length; one more `pshufb` gathers the significant bytes. Looking the mask
//! up by the flags (not by the control byte) keeps a second dependent load
//! off the path, and the 32-byte stride makes the entry's address a scaled
//! index of the flags with no shift. The encoder is bound by memory
//! operations, so delta encoding shifts predecessors in with `palignr`
//! rather than loading them again.
//!
//! Bounds: the checked decoder loads 16 bytes at a data offset only when at
//! least 16 bytes of `input` remain there (64 for a block of four groups), so
//! it never reads past `input`; what is left is decoded by the scalar kernel,
//! which reports truncation. The encoder stores 16 bytes only when 16 bytes of
//! `out` remain. Requires SSSE3 and SSE4.1.

super::kernels::stream_vbyte_kernels!("sse4.1", Isa::Sse41, zero_block_sse);
