//! VByte specifics for the `vbyte_*` targets.

use crate::Slot;
use intcodec::vbyte::VByte;
use intcodec::{DecodeError, EncodeError, IntCodec};
use std::sync::OnceLock;

/// The most values a VByte stream holds per byte (one byte per value at
/// least), for [`crate::DecodeCase::split`].
pub const DENSITY: usize = 1;

/// Every VByte kernel this CPU and the `INTCODEC_ISA` cap allow, scalar (the
/// reference) first. Panics if one that should exist cannot be built, so a
/// dispatch mistake cannot shrink the fuzzed set.
pub fn kernels() -> &'static [VByte] {
    static SET: OnceLock<Vec<VByte>> = OnceLock::new();
    SET.get_or_init(|| crate::kernel_set(VByte::new()))
}

/// A value width VByte codes, `u32` (the `IntCodec` methods) or `u64` (the
/// inherent `*_u64` ones), each method plain or delta in one call: `delta`
/// is `Some(prev)` for the `*_delta*` form from `prev`, `None` for the
/// plain one.
pub trait Width: Slot {
    /// `decode(_delta)(_u64)`.
    fn decode(
        k: &VByte,
        input: &[u8],
        n: usize,
        delta: Option<Self>,
        out: &mut [Self],
    ) -> Result<usize, DecodeError>;
    /// `decode(_delta)(_u64)_to_vec`.
    fn decode_to_vec(
        k: &VByte,
        input: &[u8],
        n: usize,
        delta: Option<Self>,
    ) -> Result<Vec<Self>, DecodeError>;
    /// `skip(_u64)`.
    fn skip(k: &VByte, input: &[u8], n: usize) -> Result<usize, DecodeError>;
    /// `encode(_delta)(_u64)`.
    fn encode(
        k: &VByte,
        v: &[Self],
        delta: Option<Self>,
        out: &mut [u8],
    ) -> Result<usize, EncodeError>;
    /// `encode(_delta)(_u64)_to_vec`.
    fn encode_to_vec(k: &VByte, v: &[Self], delta: Option<Self>) -> Vec<u8>;
    /// `compressed_len(_delta)(_u64)`.
    fn compressed_len(k: &VByte, v: &[Self], delta: Option<Self>) -> usize;
}

/// `impl Width` for `$t` from its methods' names: the plain-or-delta
/// dispatch written once for both widths.
macro_rules! width {
    ($t:ty, $decode:ident, $decode_delta:ident, $decode_to_vec:ident,
     $decode_delta_to_vec:ident, $skip:ident, $encode:ident, $encode_delta:ident,
     $encode_to_vec:ident, $encode_delta_to_vec:ident, $len:ident, $len_delta:ident) => {
        impl Width for $t {
            fn decode(
                k: &VByte,
                input: &[u8],
                n: usize,
                delta: Option<$t>,
                out: &mut [$t],
            ) -> Result<usize, DecodeError> {
                match delta {
                    Some(prev) => k.$decode_delta(input, n, prev, out),
                    None => k.$decode(input, n, out),
                }
            }
            fn decode_to_vec(
                k: &VByte,
                input: &[u8],
                n: usize,
                delta: Option<$t>,
            ) -> Result<Vec<$t>, DecodeError> {
                match delta {
                    Some(prev) => k.$decode_delta_to_vec(input, n, prev),
                    None => k.$decode_to_vec(input, n),
                }
            }
            fn skip(k: &VByte, input: &[u8], n: usize) -> Result<usize, DecodeError> {
                k.$skip(input, n)
            }
            fn encode(
                k: &VByte,
                v: &[$t],
                delta: Option<$t>,
                out: &mut [u8],
            ) -> Result<usize, EncodeError> {
                match delta {
                    Some(prev) => k.$encode_delta(v, prev, out),
                    None => k.$encode(v, out),
                }
            }
            fn encode_to_vec(k: &VByte, v: &[$t], delta: Option<$t>) -> Vec<u8> {
                match delta {
                    Some(prev) => k.$encode_delta_to_vec(v, prev),
                    None => k.$encode_to_vec(v),
                }
            }
            fn compressed_len(k: &VByte, v: &[$t], delta: Option<$t>) -> usize {
                match delta {
                    Some(prev) => k.$len_delta(v, prev),
                    None => k.$len(v),
                }
            }
        }
    };
}

width!(
    u32,
    decode,
    decode_delta,
    decode_to_vec,
    decode_delta_to_vec,
    skip,
    encode,
    encode_delta,
    encode_to_vec,
    encode_delta_to_vec,
    compressed_len,
    compressed_len_delta
);
width!(
    u64,
    decode_u64,
    decode_delta_u64,
    decode_u64_to_vec,
    decode_delta_u64_to_vec,
    skip_u64,
    encode_u64,
    encode_delta_u64,
    encode_u64_to_vec,
    encode_delta_u64_to_vec,
    compressed_len_u64,
    compressed_len_delta_u64
);
