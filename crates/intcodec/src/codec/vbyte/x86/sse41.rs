//! SSE4.1 Masked VByte (Plaisance, Kurz, Lemire 2015, §IV).
//!
//! Decode: the continuation bits of 48 input bytes are gathered with three
//! `pmovmskb` into a mask, two such masks in flight (the next one is made
//! while the current one is used). Each step looks at the low 12 bits: all
//! zero means twelve one-byte values, widened with `pmovzxbd`; otherwise a
//! 4096-entry table gives the bytes consumed and one of 170 shuffles, in
//! three groups — six values of at most 2 bytes (`pshufb`, `pand`, `psrlw`,
//! `por`, widened with `pmovzxwd`), four of at most 3 bytes (`psrld` by 1
//! and 2), two of at most 5 bytes (`pmullw`, `psllq`, `psrlq`, a second
//! `pshufb`) — and the mask is shifted by the bytes consumed. Delta decoding
//! adds the paper's SIMD prefix sum (two shifted adds and a broadcast per
//! four values). u64: the same steps widened to 64-bit lanes for values of at
//! most 3 bytes; longer values one at a time, eight bytes per load.
//!
//! Encode (u32): eight values below 2^14 per step, group A in reverse (see
//! `encode` in `kernels.rs`); other blocks scalar.
//!
//! Bounds: a mask is made only from 48 bytes inside `input` (near the end,
//! 16 bytes, as the paper does), a step loads 16 bytes only when 16 remain
//! at its offset and stores only when 12 values of `out` remain; inputs
//! shorter than 16 bytes or 12 values go straight to scalar; the rest, and any value the table cannot take (overlong) or
//! whose 5th byte is above `0x0F`, is decoded by the scalar kernel, which
//! reports the error at the same offset. Requires SSSE3 and SSE4.1.

super::kernels::masked_vbyte_kernels!("sse4.1", Isa::Sse41);
super::seek::masked_vbyte_seek!("sse4.1");
