//! # intcodec
//!
//! SIMD integer codecs for u32 (and, for VByte, u64) arrays, with decoders
//! that are total: on any input bytes they return `Ok` or an error naming the
//! byte offset, and never read or write out of bounds, panic or loop forever.
//!
//! | codec | module | format | kernels | delta | select/seek |
//! |---|---|---|---|---|---|
//! | Stream VByte ("1234", "0124") | [`streamvbyte`] | lemire/streamvbyte | scalar, SSE4.1, AVX2, AVX-512, NEON | yes (SIMD prefix sum) | SIMD select (plain, delta), seek, insert (tail), append ([`sorted::SvbVec`]) |
//! | VByte (LEB128, protobuf varint), u32 / u64, zigzag i32 / i64 | [`vbyte`] | protobuf varint, minimal form | scalar, Masked VByte SSE4.1, AVX2, AVX-512 and NEON decode | yes (fused SIMD prefix sum) | SIMD select, seek (u32 delta), insert (one delta) |
//! | VarInt-GB (FastPFor and Lucene layouts) | [`varint_gb`] | FastPFor `varintgb`, Lucene group-varint | scalar, SSSE3, AVX2; AVX-512 and NEON decode | yes (SIMD prefix sum) | SIMD select, seek (delta), insert (tail) |
//! | VarInt-G8IU (feature `g8iu`; patented, US 9,195,675 B2) | `varint_g8iu` | FastPFor `varintg8iu` | scalar, SSSE3; AVX2 decode | yes (SIMD prefix sum) | no |
//! | single varints: one u8/u16/u32/u64 (i8..i64 zigzag), or 2/4/8 adjacent | [`varint`] | protobuf varint / LEB128, as varint-simd | scalar (inlined), BMI2 `pext`/`pdep`, SSSE3 | - | - |
//! | BP128 binary packing, 4x, 8x and 16x layouts | [`bp128`] | `bitpacking` crate `BitPacker4x` / `BitPacker8x` blocks, simdcomp `avx512pack` (16x); array format with a width byte per block and a VByte tail | scalar, SSE4.1, AVX2, AVX-512, NEON, all 33 widths | D1 (`compress_sorted`, fused SIMD prefix sum), strict (`compress_strictly_sorted`) and lane delta "d4"/"d8"; `select`, `lower_bound`, `insert` ([`bp128::SortedArray`]) | `select`, `lower_bound`, `insert` ([`bp128::SortedArray`]) |
//! | FOR (frame of reference, libfor-style) | [`frame_of_reference`] | min, width, bit stream | scalar | none; O(1) `select`, binary-search `lower_bound`, `insert` ([`frame_of_reference::ForArray`]) | `select` O(1), `lower_bound`, `insert` |
//! | SIMD-FOR | [`frame_of_reference`] | min, width, `BitPacker4x` blocks | scalar, SSE4.1, AVX2, NEON (BP128 4x kernels) | none; O(1) `select`, `lower_bound`, `insert` ([`frame_of_reference::SimdForArray`]) | `select` O(1), `lower_bound`, `insert` |
//!
//! Select, seek, append and insert on compressed sorted arrays, and the
//! blocked layout for long lists ([`sorted::Blocked`]): see [`sorted`].
//! The codecs' [`SortedCodec`] methods (`select`, `lower_bound`, `insert`)
//! take the raw stream
//! and are checked like `decode` (an error, never a panic, on a truncated
//! or malformed stream); the containers in [`sorted`] are validated once.
//!
//! ```
//! use intcodec::vbyte::VByte;
//! use intcodec::{IntCodec, SortedCodec};
//!
//! let ids = [3u32, 7, 19, 20, 1000, 1001];
//! let codec = VByte::new();
//! let mut bytes = codec.encode_delta_to_vec(&ids, 0);
//! assert_eq!(codec.select(&bytes, ids.len(), 0, 4)?, Some(1000));
//! assert_eq!(codec.lower_bound(&bytes, ids.len(), 0, 21)?, Some((4, 1000)));
//! assert_eq!(codec.insert(&mut bytes, ids.len(), 0, 500)?, 4);
//! assert_eq!(codec.select(&bytes, ids.len() + 1, 0, 4)?, Some(500));
//! assert!(codec.select(&bytes[..2], ids.len(), 0, 4).is_err());
//! # Ok::<(), intcodec::DecodeError>(())
//! ```
//!
//! Each codec handle picks the fastest kernel for this CPU once (run-time
//! detection, cached); [`KernelChoice::with_isa`] forces one, and the environment variable
//! `INTCODEC_ISA=scalar|ssse3|sse41|avx2|avx512|neon` caps the choice for the
//! whole process.
//!
//! ```
//! use intcodec::streamvbyte::StreamVByte;
//! use intcodec::{IntCodec, Isa, KernelChoice};
//!
//! let postings = [3u32, 7, 19, 20, 1000, 1001];
//! let codec = StreamVByte::new();
//! let bytes = codec.encode_delta_to_vec(&postings, 0);
//! let back = codec.decode_delta_to_vec(&bytes, postings.len(), 0)?;
//! assert_eq!(back, postings);
//!
//! // The scalar reference kernel, forced:
//! let scalar = codec.with_isa(Isa::Scalar).unwrap();
//! assert_eq!(scalar.encode_delta_to_vec(&postings, 0), bytes);
//! # Ok::<(), intcodec::DecodeError>(())
//! ```
//!
//! One value at a time ([`varint`]): checked on any slice length, with an
//! unchecked variant for callers that guarantee 16 readable bytes.
//!
//! ```
//! use intcodec::varint::{self, Kernel, Varint};
//!
//! let mut buf = [0u8; 10];
//! let n = varint::encode_to_slice(u64::MAX, &mut buf)?;
//! assert_eq!(n, 10);
//! assert_eq!(varint::decode::<u64>(&buf)?, (u64::MAX, 10));
//! // Too large for the type: an error, never a truncated value.
//! assert!(varint::decode::<u32>(&buf).is_err());
//! // A forced kernel (the free functions pick the best one).
//! let scalar = Varint::with_kernel(Kernel::Scalar).unwrap();
//! assert_eq!(scalar.decode_zigzag::<i16>(&[0x03])?, (-2, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Sorted keys with BP128 (byte-identical blocks to the `bitpacking` crate)
//! and frame of reference, searched without decoding:
//!
//! ```
//! use intcodec::bp128::{Bp128, Layout, SortedArray};
//! use intcodec::frame_of_reference::SimdForArray;
//! use intcodec::{IntCodec, SortedSet};
//!
//! let keys: Vec<u32> = (0..300).map(|i| 1000 + 5 * i).collect();
//! let codec = Bp128::new(Layout::Lanes4); // D1 delta (`with_delta` for "d4")
//! let bytes = codec.encode_delta_to_vec(&keys, 0);
//! assert_eq!(codec.decode_delta_to_vec(&bytes, keys.len(), 0)?, keys);
//!
//! let a = SortedArray::new(codec, &keys);
//! assert_eq!(a.lower_bound(1003), Some((1, 1005)));
//! let f = SimdForArray::new(&keys);
//! assert_eq!(f.select(299), Some(2495)); // O(1): no differential coding
//! # Ok::<(), intcodec::DecodeError>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

extern crate alloc;

/// A public enum whose variants have names (format options, kernels, ISA
/// levels), written once: the enum (its attributes and variants as given),
/// `name()` (the doc comment given after it; the variant's string) and
/// `Display`, which writes the name.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $T:ident {
            $($(#[$vmeta:meta])* $V:ident => $name:literal,)*
        }
        $(#[$name_doc:meta])*
        fn name;
    ) => {
        $(#[$meta])*
        pub enum $T {
            $($(#[$vmeta])* $V,)*
        }

        impl $T {
            $(#[$name_doc])*
            pub fn name(self) -> &'static str {
                match self {
                    $($T::$V => $name,)*
                }
            }
        }

        impl core::fmt::Display for $T {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use named_enum;

mod codec;
pub mod crc32c;
pub(crate) mod dispatch;
pub mod error;
pub mod isa;
pub mod keys;
pub mod registry;
pub mod sorted;
mod tables;
mod traits;
pub mod zigzag;

pub use codec::bp128;
pub use codec::frame_of_reference;
pub use codec::streamvbyte;
pub use codec::varint;
#[cfg(feature = "g8iu")]
pub use codec::varint_g8iu;
pub use codec::varint_gb;
pub use codec::vbyte;
pub use error::{DecodeError, DecodeErrorKind, EncodeError};
pub use isa::{detected_isas, supported_isas, Isa, Tuning};
pub use traits::{IntCodec, KernelChoice, SortedCodec, SortedSet};

#[cfg(test)]
mod tests;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
