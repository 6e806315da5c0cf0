//! SSSE3 VarInt-GB kernels (decode and delta decode; encode is scalar), for
//! both layouts.
//!
//! Decode is the shuffle decoder the Stream VByte paper describes for its own
//! format (§4, Fig. 4), applied to VarInt-GB's interleaved blocks: per block,
//! read the control byte, load the 16 bytes after it, `pshufb` them with the
//! control byte's mask (256-entry table per layout) into four u32 lanes,
//! store them, and advance by `1 + length[control]`. Unlike Stream VByte the
//! next control byte's address depends on this one's length (the paper's
//! explanation of why VarInt-GB gains less from SIMD). Delta decoding adds
//! the paper's §2 prefix sum. Requires SSSE3.
//!
//! Bounds: a block's 16-byte load happens only when at least 17 bytes of
//! `input` remain at its control byte, so no load passes the end of `input`;
//! the last blocks, the low-first partial block or the Lucene vint tail, and
//! any truncation go to the scalar kernel, which reports the error.

super::kernels::varint_gb_kernels!("ssse3", Isa::Ssse3, ssse3);
