//! Working on compressed sorted arrays: select, seek, append, insert.
//!
//! The codecs' own entry points work on raw streams and are **checked**
//! (they return `Result`, like `decode`): see
//! [`StreamVByte::select_plain`](crate::streamvbyte::StreamVByte::select_plain),
//! [`select`](crate::SortedCodec::select),
//! [`lower_bound`](crate::SortedCodec::lower_bound) and
//! `insert` on [`StreamVByte`](crate::streamvbyte::StreamVByte),
//! [`VByte`](crate::vbyte::VByte) and [`VarIntGb`](crate::varint_gb::VarIntGb).
//! On a truncated or malformed stream they return the error `decode` would
//! give for the first bad value they read, never panic and never read
//! outside the input; an index `>= n` or an empty array gives `Ok(None)`.
//!
//! The containers here are **validated** types: built from values (or from
//! bytes that are checked once, [`SvbVec::from_bytes`]), so their reads
//! return `Option` only. They implement [`SortedSet`](crate::SortedSet)
//! (`len`, `select`, `lower_bound`, `insert`, `to_vec`), as do
//! [`bp128::SortedArray`](crate::bp128::SortedArray),
//! [`ForArray`](crate::frame_of_reference::ForArray) and
//! [`SimdForArray`](crate::frame_of_reference::SimdForArray).
//!
//! | | select | seek | append | insert |
//! |---|---|---|---|---|
//! | Stream VByte | SIMD: length sums (plain), in-register sums (delta) | SIMD prefix sum + compare | [`SvbVec::push`], in place | re-encodes the tail (control bytes shift) |
//! | VByte (Masked VByte) | SIMD: Masked VByte steps summed in registers | same, prefix-summed + compare | — | rewrites only the neighbouring delta |
//! | VarInt-GB | SIMD: blocks skipped by control byte, summed in registers | same, prefix-summed + compare | — | re-encodes the tail from the block |
//!
//! Long lists: [`Blocked`] cuts a sorted list into blocks of 128 or 256
//! values with a skip table (each block's first value and byte offset):
//! seek is a binary search over the blocks and one block, select one block.
//! It works over any [`SortedCodec`](crate::SortedCodec) — the three byte
//! codecs above, and BP128 (`Bp128`, D1: a block is unpacked by the SIMD
//! kernels, then indexed or binary-searched) — and inserts by re-encoding
//! one block.

mod blocked;
mod svb_vec;

pub use blocked::{Blocked, BlockedError};
pub use svb_vec::{Iter, SvbVec};

#[cfg(test)]
mod tests;
