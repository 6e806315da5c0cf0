//! SSE4.1 Masked VByte (Plaisance, Kurz, Lemire 2015, §IV).
//!
//! Decode: the continuation bits of 48 input bytes are gathered with three
//! `pmovmskb` into a mask. The bulk of a long input (`decode_bulk` in
//! `kernels.rs`, MaskedVByte's main loop) adds 48 bytes' bits to a 64-bit
//! mask once fewer than 16 remain and runs steps while 16 are known, with
//! no other per-step bookkeeping: low 16 bits zero means sixteen one-byte
//! values (four `pmovzxbd`), low 12 zero twelve; otherwise the table step
//! below, its bytes consumed a one-byte load (`STEPS`) on the loop-carried
//! chain. The rest (the last 48 to 64 bytes, the last 16 values, anything
//! the table cannot take) goes to the checked loop, which keeps two masks
//! in flight (the next made while the current is used). Each of its steps
//! looks at the low 12 bits: all
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
//! at its offset (in the bulk loop: when `pos + 16 <= covered <=
//! input.len()`, `covered` the end of the bytes in the mask) and stores
//! only when 12 values of `out` remain (bulk loop: 16). The last values
//! (fewer than 12: a short list, or the end of a long one) take the same
//! table steps into a 12-value buffer while 16 bytes remain and three or
//! more values are to come (one or two cost less in scalar), copying out
//! the values wanted; a step that runs past the last one ends at the byte
//! after its `left`-th clear continuation bit, and the values it decoded
//! past it (maybe another list's, or garbage) are dropped unchecked. What
//! is left (fewer than 16 bytes), and any value the table cannot take
//! (overlong) or whose 5th byte is above `0x0F`, is decoded by the scalar
//! kernel, which reports the error at the same offset. The 5th-byte check
//! is one `ptest` of the group-C shuffle (which puts each value's 5th byte at byte 6 of
//! its lane) against `0xF0`. Requires SSSE3 and SSE4.1.
//!
//! Short lists: a checked decode of at most eight values (`SHORT_MAX`)
//! skips all of this for `scalar::decode_short`: one or two values each
//! read from an 8-byte word with no branch on its length, three to eight by
//! the scalar byte loop, whose predicted branches let the next value's
//! loads start early (short suite, Zen 3: 1, 2, 4 and 8 ints 9.4, 13.8,
//! 20.7 and 30.9 ns before, 6.0, 8.8, 15.9 and 25-27 after; MaskedVByte
//! 6.6, 9.0, 11.5 and 18.4).
//!
//! Trusted count, unknown length (`decode_counted`, `counted.rs`): the same
//! two loops over a window that grows as values are decoded: with `i` of
//! `n` values decoded up to byte `pos`, the window is `pos + n - i` bytes
//! (the values to come take a byte each at least). The bulk loop adds 48
//! bytes to its mask only when they lie inside the current window, the
//! checked loop makes its masks and 16-byte loads inside it, so SIMD runs
//! while 16 to 48 bytes of look-ahead are left; the rest is decoded byte by
//! byte in value order, each byte read only while its value continues. No
//! byte past the `n`-th value is read (on a bad stream, none past `5 * n`).

super::kernels::masked_vbyte_kernels!("sse4.1", Isa::Sse41, bulk: decode_bulk);
super::seek::masked_vbyte_seek!("sse4.1");
