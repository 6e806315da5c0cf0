//! SSSE3 VarInt-GB kernels (decode, encode, and their delta forms), for
//! both layouts.
//!
//! Decode is the shuffle decoder the Stream VByte paper describes for its own
//! format (§4, Fig. 4), applied to VarInt-GB's interleaved blocks: per block,
//! read the control byte, load the 16 bytes after it, `pshufb` them with the
//! control byte's mask (256-entry table per layout) into four u32 lanes,
//! store them, and advance by `1 + length[control]`. Unlike Stream VByte the
//! next control byte's address depends on this one's length (the paper's
//! explanation of why VarInt-GB gains less from SIMD). Delta decoding adds
//! the paper's §2 prefix sum.
//!
//! Encode: a group of four values has the same codes (byte count minus one)
//! and the same data bytes as a Stream VByte "1234" group, so the encoder
//! takes Stream VByte's look-up (`encode_entry_1234`: `pshufb` the bytes
//! that decide each value's width, compare with zero, `pmovmskb`, a
//! 4096-entry table by that pattern) for the shuffle mask gathering the
//! significant bytes, the control byte and the data length; it writes the
//! control byte (Lucene's with the codes in reverse order, a 256-entry
//! table), stores the 16 shuffled bytes after it and advances by
//! `1 + length`. Sixteen values that all fit one byte (checked on the OR
//! of four groups) take a shorter path: two saturating packs give their
//! bytes in order, one `pshufb` spreads them into four groups of control
//! byte 0, then a 16-byte and a 4-byte store. The delta form first
//! subtracts each value's predecessor (`palignr`). Requires SSSE3.
//!
//! Encode bounds: a group is stored only while 17 bytes of `out` remain
//! (its control byte and the 16-byte store; the next group overwrites the
//! unused bytes), so no store passes the end of `out`; the last groups, the
//! low-first partial group and the Lucene vint tail go to the scalar
//! encoder.
//!
//! Decode bounds: a block's 16-byte load happens only when at least 17 bytes of
//! `input` remain at its control byte, so no load passes the end of `input`.
//! The low-first partial block (one to three values) is decoded the same
//! way when 17 bytes remain, its unused codes cleared first (the format
//! ignores them) and its values past the last dropped; its length is the
//! table's less one byte per cleared code. The last blocks when fewer
//! bytes remain, the Lucene vint tail, and any truncation go to the scalar
//! kernel, which reports the error.

super::kernels::varint_gb_kernels!("ssse3", Isa::Ssse3, ssse3, false);
