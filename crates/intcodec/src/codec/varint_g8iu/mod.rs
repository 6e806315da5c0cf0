//! VarInt-G8IU (Stepanov, Gangolli, Rose, Ernst, Oberoi: "SIMD-based
//! decoding of posting lists", CIKM 2011; Stream VByte paper §3, Fig. 2):
//! blocks of exactly nine bytes, a descriptor byte and eight data bytes
//! holding as many whole values as fit.
//!
//! # Patent notice
//!
//! The format and its SIMD decoding are covered by **US patent 9,195,675
//! B2** (Stepanov et al., assigned to A9.com / Amazon), in force until about
//! 2031. This module is compiled only with the cargo feature `g8iu`, which is
//! off by default. Check whether the patent applies to your use before
//! enabling it.
//!
//! # Wire format
//!
//! Values are written little-endian in 1 to 4 bytes (the fewest that hold
//! them; 0 takes one byte), in order, into blocks; a value never crosses a
//! block, so a block holds 2 to 8 values (fewer only at the end):
//!
//! ```text
//!  +------------+----+----+----+----+----+----+----+----+
//!  | descriptor | d0 | d1 | d2 | d3 | d4 | d5 | d6 | d7 |
//!  +------------+----+----+----+----+----+----+----+----+
//!  descriptor bit i (bit 0 = least significant) describes data byte d_i:
//!    0 = d_i is the last byte of a value
//!    1 = d_i is another byte of a value, or unused
//! ```
//!
//! Unused bytes are the trailing bytes of a block that the next value did not
//! fit in (or the end of the stream); their bits are 1 and the bytes are
//! written as zero (ignored when decoding). Paper Fig. 2:
//!
//! ```text
//!  (a) 1024, 12, 10, 1073741824: 71 | 00 04 0c 0a 00 00 00 40
//!      0x71 = 0b0111_0001: d1 ends 1024, d2 ends 12, d3 ends 10, d7 ends 2^30
//!  (b) 1, 2, 3, 1024, 1024:      a8 | 01 02 03 00 04 00 04 00
//!      0xA8 = 0b1010_1000: values end at d0 d1 d2 d4 d6; d7 is unused
//! ```
//!
//! This is byte for byte the block format of FastPFor's `varintg8iu`
//! (lemire/FastPFor `VarIntG8IU.h`; checked by the pyfastpfor oracle test):
//! same bit order, the descriptor starts as all ones and each value clears
//! the bit of its last byte, unused data bytes are zero, and every block
//! including the last is a whole nine bytes. FastPFor stores no count: its
//! decoder decodes every value the descriptors describe, and it pads the
//! stream with zero bytes to a multiple of four (fewer than nine, so they are
//! never read as a block). Here, as for the other codecs, the caller passes
//! the count `n`; [`VarIntG8iu::value_count`] recovers it from a stream of
//! whole blocks, and the padding is not part of the stream.
//!
//! # Malformed input
//!
//! A descriptor is one an encoder can write when, read from bit 0, it is a
//! run of values (`0`, `10`, `110` or `1110`: one to four bytes) followed by
//! unused bytes (ones), with at least one value. Others (a value of five or
//! more bytes, e.g. `0x1F`; no value at all, `0xFF`) give a `Malformed`
//! error at the descriptor's offset. A block cut short gives `Truncated` at
//! its descriptor's offset (values never cross blocks, so a partial block is
//! never decoded). If the `n`-th value ends inside a block the rest of the
//! block is not decoded; the whole block counts as consumed.
//!
//! # Delta coding
//!
//! The delta variants store `x[i] - x[i-1]` (wrapping) from a caller-given
//! `x[-1]`, in the same format.
//!
//! # Kernels
//!
//! | ISA | decode | encode |
//! |---|---|---|
//! | scalar | byte by byte | scalar |
//! | SSSE3 | one 8-byte load and two `pshufb` per block (256 × 2 masks) | scalar |
//! | AVX2 | the SSSE3 loop, VEX-encoded | scalar |

use crate::error::DecodeError;
use crate::traits::IntCodec;
use alloc::vec::Vec;

pub(crate) mod scalar;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

/// Bytes a block takes: the descriptor and eight data bytes.
pub const BLOCK: usize = 9;

/// The largest stream `n` values can take: every block holds at least two
/// values (two values of at most 4 bytes always fit in 8), so
/// `ceil(n / 2)` blocks.
///
/// # Panics
/// On overflow of `usize`.
#[inline]
pub const fn max_compressed_len(n: usize) -> usize {
    match n.div_ceil(2).checked_mul(BLOCK) {
        Some(t) => t,
        None => panic!("max_compressed_len: count overflows usize"),
    }
}

/// Bytes of `v`: 1 to 4.
#[inline(always)]
pub(crate) fn bytes_of(v: u32) -> usize {
    1 + (v > 0xFF) as usize + (v > 0xFFFF) as usize + (v > 0xFF_FFFF) as usize
}

super::byte_kernels! {
    /// One kernel set. The pointers are `unsafe fn` only because SIMD kernels
    /// need their CPU features, which the registry checks.
    Kernels {}
}

static SCALAR: Kernels = scalar::kernels();

// Kernel sets in order of preference (best last).
super::kernel_registry!(KERNELS = [
    SCALAR;
    x86: x86::ssse3::KERNELS, x86::avx2::KERNELS;
    aarch64:
]);

/// A VarInt-G8IU codec bound to one kernel (ISA). The codec operations are
/// the [`IntCodec`] methods.
///
/// ```
/// use intcodec::varint_g8iu::VarIntG8iu;
/// use intcodec::IntCodec;
///
/// let codec = VarIntG8iu::new();
/// let values = [1024, 12, 10, 1_073_741_824, 1, 2, 3, 1024, 1024];
/// let bytes = codec.encode_to_vec(&values);
/// assert_eq!(bytes.len(), 18); // paper Fig. 2 (a) and (b)
/// assert_eq!((bytes[0], bytes[9]), (0x71, 0xA8));
/// assert_eq!(codec.value_count(&bytes)?, 9);
/// assert_eq!(codec.decode_to_vec(&bytes, 9)?, values);
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy)]
pub struct VarIntG8iu {
    k: &'static Kernels,
}

super::kernel_handle!(VarIntG8iu {}, best: Self::new(), registry: |_| &KERNELS);

impl VarIntG8iu {
    /// The best kernel for this CPU.
    pub fn new() -> Self {
        VarIntG8iu { k: KERNELS.best() }
    }

    fn compressed_len_from(&self, values: &[u32], prev: Option<u32>) -> usize {
        scalar::compressed_len(values, prev)
    }

    /// The checks before a decode (`kernel_decoders!`): room for `n`
    /// values (the kernels check the input).
    #[inline]
    fn decode_args(_input: &[u8], n: usize, out_len: usize) -> Result<(), DecodeError> {
        super::check_out(n, out_len)
    }

    /// The output of `decode_to_vec`, allocated only once the input is known
    /// to hold `n` values (`encoded_len`: the errors `decode` gives).
    fn vec_for(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        self.encoded_len(input, n)?;
        Ok(alloc::vec![0u32; n])
    }

    /// The number of values a stream of whole blocks holds (how FastPFor
    /// knows the count). Errors: `Truncated` if `input.len()` is not a
    /// multiple of [`BLOCK`], `Malformed` for a bad descriptor.
    pub fn value_count(&self, input: &[u8]) -> Result<usize, DecodeError> {
        scalar::value_count(input)
    }
}

/// The codec operations. `encode*` write whole blocks (a multiple of
/// [`BLOCK`] bytes); [`max_compressed_len`] is always enough room. Decoders
/// never read outside `input`.
///
/// `decode_unchecked` / `decode_delta_unchecked` skip the descriptor and
/// length checks; the SIMD kernels read exactly the 8 data bytes of each
/// block, so no padding is needed.
impl IntCodec for VarIntG8iu {
    fn name(&self) -> &'static str {
        "varint-g8iu"
    }

    super::kernel_info!();

    fn max_compressed_len(&self, n: usize) -> Option<usize> {
        n.div_ceil(2).checked_mul(BLOCK)
    }

    fn max_values(&self, input_len: usize) -> usize {
        // Whole blocks of at most eight (one-byte) values each.
        input_len / BLOCK * 8
    }

    super::kernel_encoders!();

    /// Length in bytes of a stream of `n` values, read from its descriptors;
    /// the same errors as `decode`.
    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        scalar::scan(input, n)
    }

    super::kernel_decoders!();
}

#[cfg(test)]
mod tests;
