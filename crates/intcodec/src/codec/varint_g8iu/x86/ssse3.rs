//! SSSE3 VarInt-G8IU kernels (decode and delta decode; encode is scalar).
//!
//! The decoder of Stepanov et al. (CIKM 2011), as the Stream VByte paper
//! describes it (§3): per block, load the 8 data bytes (`movq`), and shuffle
//! them twice with the descriptor's two masks (a 256 × 2 table) into values
//! 0..=3 and 4..=7, store both vectors (eight u32, whether or not the block
//! has eight values), and advance the output by the descriptor's value count
//! and the input by 9. Blocks are at fixed offsets, so the processor can
//! load the next descriptors early. Delta decoding adds the §2 prefix sum to
//! each vector; lanes past the block's count are zero, so the last lane of
//! the second vector is the block's total, and the carried chain is one add
//! per block. Requires SSSE3.
//!
//! Bounds: a block is loaded only when its 9 bytes are inside `input`, and
//! only its 8 data bytes are read; it is stored only when 8 output slots
//! remain. The last blocks (fewer than 8 values left), invalid descriptors
//! and truncation go to the scalar kernel, which reports the error.

super::kernels::varint_g8iu_kernels!("ssse3", Isa::Ssse3);
