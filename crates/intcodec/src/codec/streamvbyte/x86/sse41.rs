//! SSE4.1 Stream VByte kernels (decode, delta decode, encode, delta encode),
//! for both variants.
//!
//! Decode is the paper's Fig. 4 loop: per control byte, a 16-byte load of the
//! data, a `pshufb` with the control byte's mask from a 256-entry table, a
//! 16-byte store of four values, and the data pointer advanced by the length
//! table. Eight control bytes are read at once, two blocks ahead of their
//! use (so the first look-ups of a block do not wait for the load); when all
//! eight are zero (32 one-byte values in the standard variant, 32 zeros in
//! "0124") a shorter path widens the bytes (or stores zeros). Delta decoding
//! adds the SIMD prefix sum of paper §2 (two shifted adds and a broadcast);
//! on a zero block it sums eight deltas at a time in 16-bit lanes (eight
//! one-byte deltas cannot overflow them): two shifted adds give lanes 0..=3
//! their prefix sums and lanes 4..=7 sums of four, which plus the former
//! are theirs (0.73x -> 0.86x of C on long 1-byte-gap lists, Zen 3; a
//! 256-bit version of it, and the earlier 64-bit-lane one, were slower).
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
//! rather than loading them again, and a block's four control bytes are
//! gathered in a register and stored as one 32-bit word (four byte stores
//! next to the 16-byte data stores made long-list encoding about 1.5x
//! slower on AMD Zen 3: `examples/svb_ab.rs encode`).
//!
//! Short lists: a checked or trusted-count decode of at most four values
//! (`SHORT_MAX`, one control byte) skips the loops for the scalar
//! `decode_short`, which reads each value as a 4-byte word masked to its
//! length, with no branch on the length (in an exact-length stream each
//! byte of the word at its offset clamped to the last byte; any error left
//! to the loops): the loops' set-up and window tail made a 1-int decode
//! 11 ns against the C library's 6 (now 6; 2 ints 11 -> 7 ns against 14;
//! `intcodec bench --suite short`, Zen 3). Lists of 5 to 63 values skip
//! the block loop's set-up (keys two blocks ahead, the run length): their
//! one full block, if any, is checked and decoded on its own and the other
//! groups go through the group loop (32 ints: 15.3 -> 12.4 ns; the C
//! library 8.6, whose unchecked unrolled block needs no reach check).
//!
//! Bounds: the checked decoder loads 16 bytes at a data offset only when at
//! least 16 bytes of `input` remain there. Blocks of eight groups run in
//! batches of `(end - src) / 128` with no check of their own (a block reads
//! at most 128 bytes); near the end a block runs only if its exact reach
//! (`block_reach`, from its control bytes) fits.
//! The last groups and the partial last group are shuffled from the last 16
//! bytes of `input`, the shuffle indices moved up by the distance (or from a
//! stack copy when `input` is shorter than 16 bytes); the scalar kernel is
//! called only for a group that needs more bytes than remain, and reports
//! the truncation. The trusted-count decoder of "1234" (`counted.rs`: a
//! pointer, a count, no length) runs the same loops with the values still
//! to come as the room ahead of the data cursor (each takes a data byte at
//! least): a block while 44 values remain counting its own 32 (its loads
//! reach its first seven groups' data plus 16 bytes, and its eighth group
//! holds 4 bytes at least), a group load while its own data plus a byte
//! for each value after it make 16 bytes; the last
//! values are decoded as above from a
//! slice of the exact length their control bytes announce.
//! The encoder stores 16 bytes only when 16 bytes of `out`
//! remain (the partial last group too, built in registers). Requires SSSE3
//! and SSE4.1.

super::kernels::stream_vbyte_kernels!("sse4.1", Isa::Sse41, sse41);
