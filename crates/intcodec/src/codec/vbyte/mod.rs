//! VByte (LEB128, protobuf "varint") arrays, decoded with Masked VByte
//! (Plaisance, Kurz, Lemire: "Vectorized VByte Decoding", 2015).
//!
//! # Wire format
//!
//! Each value is written low bits first, 7 bits per byte; the high bit of a
//! byte is set on every byte of a value but its last. Values follow each
//! other with nothing in between; the count is not stored (the caller keeps
//! it, or the stream is read to its end). This is unsigned LEB128 and the
//! protobuf varint: the paper's Table 1, for example,
//!
//! ```text
//!      1 -> 01
//!    128 -> 80 01          (0b0000000 | 0b0000001 << 7)
//!  16384 -> 80 80 01
//! ```
//!
//! Encoders always write the minimal form (no trailing `0x80 .. 0x00`
//! padding). Signed values go through zigzag ([`crate::zigzag`]): 0, -1, 1,
//! -2 .. become 0, 1, 2, 3 ..
//!
//! # Decoding rules
//!
//! - A u32 takes at most 5 bytes and its 5th byte carries at most 4 bits
//!   (`<= 0x0F`); a u64 at most 10 bytes, the 10th carrying at most 1 bit
//!   (`<= 0x01`). A continuation bit on the 5th (10th) byte is
//!   [`Overlong`](DecodeErrorKind::Overlong); a larger last byte is
//!   [`Overflow`](DecodeErrorKind::Overflow). Nothing is silently truncated
//!   (protobuf's decoders drop the excess bits; we refuse).
//! - Non-minimal forms within the maximum length decode (`80 00` is 0), as
//!   in WebAssembly and LLVM.
//! - A value whose bytes run past the end of the input is
//!   [`Truncated`](DecodeErrorKind::Truncated).
//! - Every error's `offset` is the offset of the **first byte of the
//!   offending value** and its `index` the value's index; the errors are
//!   checked in input order, so the reported value is the first bad one.
//!   Every kernel reports the same error: the SIMD kernels only decode
//!   windows they have checked, and hand anything doubtful to the scalar
//!   code, which reports it.
//! - Trailing bytes after the `n` values asked for are not an error: the
//!   byte count consumed is returned. The "until the end" decoders
//!   ([`VByte::decode_all`]) require the input to end exactly after a value.
//!
//! # Delta coding
//!
//! The delta variants store `x[i] - x[i-1]` (wrapping) with `x[-1] = prev`
//! given by the caller; the SIMD kernels fuse the prefix sum into decoding
//! (paper §IV, "Differential Coding").
//!
//! # Kernels
//!
//! | ISA | u32 decode | u64 decode | encode |
//! |---|---|---|---|
//! | scalar | Algorithm 1, unrolled | Algorithm 1, unrolled | word-at-a-time |
//! | SSE4.1 | Masked VByte (paper §IV) | Masked VByte groups widened to 64 bits; long values word-at-a-time | u32: eight values < 2^14 per step (group A in reverse); u64: scalar |
//! | AVX2 | the SSE4.1 algorithm, VEX-encoded | same | same |
//! | NEON | the SSE4.1 algorithm, `tbl` for `pshufb`, a bit-weight mask for `pmovmskb` | same | scalar |

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::isa::Isa;
use crate::traits::IntCodec;
use crate::zigzag;
use alloc::vec::Vec;
use core::fmt;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod counted;
pub(crate) mod scalar;
pub(crate) mod seek;
#[cfg(any(target_arch = "x86_64", target_arch = "x86", target_arch = "aarch64"))]
mod simd;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

/// Bytes [`IntCodec::decode_unchecked`] needs readable after the stream.
pub const PADDING: usize = 16;

/// The largest encoding of `n` u32s (5 bytes each).
///
/// # Panics
/// On overflow of `usize`.
pub const fn max_compressed_len(n: usize) -> usize {
    match n.checked_mul(5) {
        Some(v) => v,
        None => panic!("max_compressed_len: count overflows usize"),
    }
}

/// The largest encoding of `n` u64s (10 bytes each).
///
/// # Panics
/// On overflow of `usize`.
pub const fn max_compressed_len_u64(n: usize) -> usize {
    match n.checked_mul(10) {
        Some(v) => v,
        None => panic!("max_compressed_len_u64: count overflows usize"),
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The integer types VByte arrays hold: `u32` and `u64`.
pub trait Word: sealed::Sealed + Copy + Default + PartialEq + fmt::Debug + 'static {
    /// Most bytes one value may take.
    const MAX: usize;
    /// Largest last (`MAX`-th) byte.
    const LAST: u8;
    /// Bits of the type.
    const BITS: u32;
    /// Zero.
    const ZERO: Self;
    #[doc(hidden)]
    fn or_shl(self, b: u8, shift: u32) -> Self;
    #[doc(hidden)]
    fn wrapping_add(self, o: Self) -> Self;
    #[doc(hidden)]
    fn wrapping_sub(self, o: Self) -> Self;
    #[doc(hidden)]
    fn leading_zeros(self) -> u32;
    #[doc(hidden)]
    fn above_7_bits(self) -> bool;
    #[doc(hidden)]
    fn low_byte(self) -> u8;
    #[doc(hidden)]
    fn shr7(self) -> Self;
    #[doc(hidden)]
    fn as_u64(self) -> u64;
    /// `Some` for `u32` (which has SIMD encoders), `None` otherwise.
    #[doc(hidden)]
    fn as_u32s(values: &[Self]) -> Option<&[u32]>;
}

macro_rules! word {
    ($t:ty, $max:expr, $last:expr, $u32s:expr) => {
        impl Word for $t {
            const MAX: usize = $max;
            const LAST: u8 = $last;
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            #[inline(always)]
            fn or_shl(self, b: u8, shift: u32) -> Self {
                self | (<$t>::from(b) << shift)
            }
            #[inline(always)]
            fn wrapping_add(self, o: Self) -> Self {
                <$t>::wrapping_add(self, o)
            }
            #[inline(always)]
            fn wrapping_sub(self, o: Self) -> Self {
                <$t>::wrapping_sub(self, o)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn above_7_bits(self) -> bool {
                self >= 0x80
            }
            #[inline(always)]
            fn low_byte(self) -> u8 {
                self as u8
            }
            #[inline(always)]
            fn shr7(self) -> Self {
                self >> 7
            }
            #[inline(always)]
            fn as_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn as_u32s(values: &[Self]) -> Option<&[u32]> {
                $u32s(values)
            }
        }
    };
}
word!(u32, 5, 0x0F, Some);
word!(u64, 10, 0x01, |_| None);

// Kernel signatures. Every kernel is an `unsafe fn` pointer only because SIMD
// kernels may be called only on CPUs with their features; the registry hands
// out only sets this CPU supports. `decode*` decode `out.len()` values (the
// last argument is `prev`, ignored unless delta) and return the bytes
// consumed.
type DecodeFn<W> = unsafe fn(&[u8], &mut [W], W) -> Result<usize, DecodeError>;
// Unchecked decode: trusted input with `PADDING` readable bytes after it.
type DecodeUncheckedFn = unsafe fn(&[u8], &mut [u32], u32) -> usize;
// Encode (u32; the last argument is `prev`, ignored unless delta): `out`
// holds the encoded length; returns the bytes written.
type EncodeFn = unsafe fn(&[u32], u32, &mut [u8]) -> usize;
// Delta select of value `i < n` from `prev` (`seek` module).
type SelectDeltaFn = unsafe fn(&[u8], usize, u32, usize) -> Result<u32, DecodeError>;
// Delta seek: the first of `n` values (from `prev`) at or above `target`.
type SeekFn = unsafe fn(&[u8], usize, u32, u32) -> Result<Option<(usize, u32)>, DecodeError>;

/// One kernel set (one ISA).
pub(crate) struct Kernels {
    isa: Isa,
    decode: DecodeFn<u32>,
    decode_delta: DecodeFn<u32>,
    decode_unchecked: DecodeUncheckedFn,
    decode_delta_unchecked: DecodeUncheckedFn,
    decode_u64: DecodeFn<u64>,
    decode_delta_u64: DecodeFn<u64>,
    encode: EncodeFn,
    encode_delta: EncodeFn,
    select_delta: SelectDeltaFn,
    seek_delta: SeekFn,
    decode_counted: counted::DecodeCountedFn,
    decode_delta_counted: counted::DecodeCountedFn,
}

super::kernel_set!(Kernels);

// Kernel sets in order of preference (best last).
super::kernel_registry!(KERNELS = [
    scalar::KERNELS;
    x86: x86::sse41::KERNELS, x86::avx2::KERNELS, x86::avx512::KERNELS;
    aarch64: aarch64::neon::KERNELS
]);

/// A VByte codec bound to one kernel (ISA).
///
/// `VByte::new()` picks the fastest kernel this CPU supports (within the
/// `INTCODEC_ISA` cap);
/// [`KernelChoice::with_isa`](crate::KernelChoice::with_isa) forces one.
/// The u32 operations are the [`IntCodec`] and
/// [`SortedCodec`](crate::SortedCodec) methods; u64 (`*_u64`) and zigzag
/// `i32` / `i64` ones are inherent.
///
/// ```
/// use intcodec::vbyte::VByte;
/// use intcodec::IntCodec;
///
/// let codec = VByte::new();
/// let values = [1u32, 128, 16384, u32::MAX];
/// let bytes = codec.encode_to_vec(&values);
/// assert_eq!(bytes, [0x01, 0x80, 0x01, 0x80, 0x80, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
///
/// let mut out = [0u32; 4];
/// assert_eq!(codec.decode(&bytes, 4, &mut out)?, bytes.len());
/// assert_eq!(out, values);
/// // Count unknown: read to the end.
/// assert_eq!(codec.decode_all_to_vec(&bytes)?, values);
/// // Where the third value starts.
/// assert_eq!(codec.skip(&bytes, 2)?, 3);
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy)]
pub struct VByte {
    k: &'static Kernels,
}

super::kernel_handle!(VByte {}, best: Self::new(), registry: |_| &KERNELS);

fn output_too_small(out_len: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::OutputTooSmall, 0, Some(out_len))
}

/// `out[..n]`, or `OutputTooSmall`.
fn prefix<T>(out: &mut [T], n: usize) -> Result<&mut [T], DecodeError> {
    let len = out.len();
    out.get_mut(..n).ok_or(output_too_small(len))
}

/// Re-bases an error from a sub-slice starting at byte `pos`, value `start`.
fn shifted(e: DecodeError, pos: usize, start: usize) -> DecodeError {
    DecodeError::new(e.kind(), e.offset() + pos, e.index().map(|i| i + start))
}

impl VByte {
    /// The codec with the best kernel for this CPU.
    pub fn new() -> Self {
        VByte { k: KERNELS.best() }
    }

    // ----------------------------------------------------------------- sizes

    /// Exact encoded length of the u64 `values`.
    pub fn compressed_len_u64(&self, values: &[u64]) -> usize {
        scalar::compressed_len(values, None)
    }

    /// Exact encoded length of the u64 `values` delta-coded from `prev`.
    pub fn compressed_len_delta_u64(&self, values: &[u64], prev: u64) -> usize {
        scalar::compressed_len(values, Some(prev))
    }

    /// Number of values in a well-formed stream that is exactly `input`
    /// (the bytes without a continuation bit). An upper bound on what
    /// [`decode_all`](Self::decode_all) returns.
    pub fn count(&self, input: &[u8]) -> usize {
        scalar::count(input)
    }

    // ---------------------------------------------------------------- encode

    /// The exact encoded size of the u32 `values` (delta-coded from `prev`
    /// when `Some`), for `kernel_encoders!`.
    fn compressed_len_from(&self, values: &[u32], prev: Option<u32>) -> usize {
        scalar::compressed_len(values, prev)
    }

    /// The u64 encoders (scalar: the SIMD encoders are u32 only).
    fn encode_u64_with<const DELTA: bool>(
        &self,
        values: &[u64],
        prev: u64,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        let max = values.len().checked_mul(<u64 as Word>::MAX);
        let p = if DELTA { Some(prev) } else { None };
        super::check_room(out.len(), max, || scalar::compressed_len(values, p))?;
        Ok(scalar::encode::<u64, DELTA>(values, prev, out))
    }

    fn encode_u64_vec<const DELTA: bool>(&self, values: &[u64], prev: u64) -> Vec<u8> {
        let len = values
            .len()
            .checked_mul(<u64 as Word>::MAX)
            .expect("length overflow");
        let mut out = alloc::vec![0u8; len];
        let n = self
            .encode_u64_with::<DELTA>(values, prev, &mut out)
            .expect("the maximum length is enough");
        out.truncate(n);
        out
    }

    /// Encodes the u64 `values` into `out`, returning the bytes written.
    /// `out` needs [`compressed_len_u64`](Self::compressed_len_u64) bytes.
    pub fn encode_u64(&self, values: &[u64], out: &mut [u8]) -> Result<usize, EncodeError> {
        self.encode_u64_with::<false>(values, 0, out)
    }

    /// Encodes the u64 `values` as deltas from `prev` (wrapping) into `out`.
    pub fn encode_delta_u64(
        &self,
        values: &[u64],
        prev: u64,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        self.encode_u64_with::<true>(values, prev, out)
    }

    /// Encodes the u64 `values` into a new `Vec`.
    pub fn encode_u64_to_vec(&self, values: &[u64]) -> Vec<u8> {
        self.encode_u64_vec::<false>(values, 0)
    }

    /// Encodes the u64 `values` as deltas from `prev` into a new `Vec`.
    pub fn encode_delta_u64_to_vec(&self, values: &[u64], prev: u64) -> Vec<u8> {
        self.encode_u64_vec::<true>(values, prev)
    }

    /// Encodes `i32`s through zigzag into a new `Vec`.
    pub fn encode_i32_to_vec(&self, values: &[i32]) -> Vec<u8> {
        let mapped: Vec<u32> = values.iter().map(|&v| zigzag::encode_i32(v)).collect();
        self.encode_to_vec(&mapped)
    }

    /// Encodes `i64`s through zigzag into a new `Vec`.
    pub fn encode_i64_to_vec(&self, values: &[i64]) -> Vec<u8> {
        let mapped: Vec<u64> = values.iter().map(|&v| zigzag::encode_i64(v)).collect();
        self.encode_u64_to_vec(&mapped)
    }

    // ---------------------------------------------------------------- decode

    /// Decodes exactly `n` u64s into `out[..n]`, returning the bytes consumed.
    pub fn decode_u64(
        &self,
        input: &[u8],
        n: usize,
        out: &mut [u64],
    ) -> Result<usize, DecodeError> {
        let out = prefix(out, n)?;
        // SAFETY: as in `decode`.
        unsafe { (self.k.decode_u64)(input, out, 0) }
    }

    /// Decodes `n` delta-coded u64s (from `prev`) into `out[..n]`.
    pub fn decode_delta_u64(
        &self,
        input: &[u8],
        n: usize,
        prev: u64,
        out: &mut [u64],
    ) -> Result<usize, DecodeError> {
        let out = prefix(out, n)?;
        // SAFETY: as in `decode`.
        unsafe { (self.k.decode_delta_u64)(input, out, prev) }
    }

    /// The checks before a decode (`kernel_decoders!`): room for `n`
    /// values (the kernels check the input).
    #[inline]
    fn decode_args(_input: &[u8], n: usize, out_len: usize) -> Result<(), DecodeError> {
        super::check_out(n, out_len)
    }

    /// The output of `decode_to_vec` (`kernel_decoders!`).
    fn vec_for(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        Self::output_for(input, n)
    }

    /// A zeroed output of `n` values, allocated only if `input` can hold `n`
    /// values (one byte each at least); otherwise the error decoding would
    /// report.
    fn output_for<W: Word>(input: &[u8], n: usize) -> Result<Vec<W>, DecodeError> {
        if n > input.len() {
            // `n` values need `n` bytes, so this fails, exactly as decoding.
            scalar::skip::<W>(input, n)?;
        }
        Ok(alloc::vec![W::ZERO; n])
    }

    /// Decodes `n` u64s into a new `Vec`.
    pub fn decode_u64_to_vec(&self, input: &[u8], n: usize) -> Result<Vec<u64>, DecodeError> {
        let mut out = Self::output_for(input, n)?;
        self.decode_u64(input, n, &mut out)?;
        Ok(out)
    }

    /// Decodes `n` delta-coded u64s (from `prev`) into a new `Vec`.
    pub fn decode_delta_u64_to_vec(
        &self,
        input: &[u8],
        n: usize,
        prev: u64,
    ) -> Result<Vec<u64>, DecodeError> {
        let mut out = Self::output_for(input, n)?;
        self.decode_delta_u64(input, n, prev, &mut out)?;
        Ok(out)
    }

    /// Decodes `n` zigzag-coded `i32`s into a new `Vec`.
    pub fn decode_i32_to_vec(&self, input: &[u8], n: usize) -> Result<Vec<i32>, DecodeError> {
        let v = IntCodec::decode_to_vec(self, input, n)?;
        Ok(v.into_iter().map(zigzag::decode_i32).collect())
    }

    /// Decodes `n` zigzag-coded `i64`s into a new `Vec`.
    pub fn decode_i64_to_vec(&self, input: &[u8], n: usize) -> Result<Vec<i64>, DecodeError> {
        let v = self.decode_u64_to_vec(input, n)?;
        Ok(v.into_iter().map(zigzag::decode_i64).collect())
    }

    /// Decodes `n` zigzag-coded `i32`s into `out[..n]`, returning the bytes
    /// consumed.
    pub fn decode_i32(
        &self,
        input: &[u8],
        n: usize,
        out: &mut [i32],
    ) -> Result<usize, DecodeError> {
        let out = prefix(out, n)?;
        let mut buf = [0u32; 256];
        let mut pos = 0;
        for (c, chunk) in out.chunks_mut(256).enumerate() {
            let tmp = &mut buf[..chunk.len()];
            pos += self
                .decode(&input[pos..], chunk.len(), tmp)
                .map_err(|e| shifted(e, pos, c * 256))?;
            zigzag::decode_slice_i32(tmp, chunk);
        }
        Ok(pos)
    }

    // ----------------------------------------------------- decode to the end

    fn all<W: Word>(
        &self,
        input: &[u8],
        out: &mut [W],
        decode: impl FnOnce(&[u8], usize, &mut [W]) -> Result<usize, DecodeError>,
    ) -> Result<usize, DecodeError> {
        let n = scalar::count(input);
        if out.len() < n {
            return Err(output_too_small(out.len()));
        }
        let used = decode(input, n, out)?;
        if used < input.len() {
            // Only continuation bytes are left: the next value is truncated
            // (or overlong); let the reference decoder say which.
            let e = scalar::one::<W>(input, used).expect_err("no terminator left");
            return Err(DecodeError::new(e, used, Some(n)));
        }
        Ok(n)
    }

    /// Decodes u32s until `input` ends (the count is not known), into `out`;
    /// returns how many. `input` must end right after a value (else
    /// `Truncated` or `Overlong` at the start of the unfinished one); `out`
    /// needs [`count`](Self::count) slots.
    pub fn decode_all(&self, input: &[u8], out: &mut [u32]) -> Result<usize, DecodeError> {
        self.all(input, out, |i, n, o| self.decode(i, n, o))
    }

    /// [`decode_all`](Self::decode_all) for delta-coded u32s (from `prev`).
    pub fn decode_delta_all(
        &self,
        input: &[u8],
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        self.all(input, out, |i, n, o| self.decode_delta(i, n, prev, o))
    }

    /// [`decode_all`](Self::decode_all) for u64s.
    pub fn decode_all_u64(&self, input: &[u8], out: &mut [u64]) -> Result<usize, DecodeError> {
        self.all(input, out, |i, n, o| self.decode_u64(i, n, o))
    }

    /// Decodes u32s until `input` ends into a new `Vec`.
    pub fn decode_all_to_vec(&self, input: &[u8]) -> Result<Vec<u32>, DecodeError> {
        let mut out = alloc::vec![0; scalar::count(input)];
        self.decode_all(input, &mut out)?;
        Ok(out)
    }

    /// Decodes delta-coded u32s (from `prev`) until `input` ends.
    pub fn decode_delta_all_to_vec(
        &self,
        input: &[u8],
        prev: u32,
    ) -> Result<Vec<u32>, DecodeError> {
        let mut out = alloc::vec![0; scalar::count(input)];
        self.decode_delta_all(input, prev, &mut out)?;
        Ok(out)
    }

    /// Decodes u64s until `input` ends into a new `Vec`.
    pub fn decode_all_u64_to_vec(&self, input: &[u8]) -> Result<Vec<u64>, DecodeError> {
        let mut out = alloc::vec![0; scalar::count(input)];
        self.decode_all_u64(input, &mut out)?;
        Ok(out)
    }

    // ------------------------------------------------------------------ skip

    /// The byte offset just past the first `n` u32s of `input`: where value
    /// `n` starts. The values are validated as [`decode`](Self::decode) does
    /// (same errors).
    pub fn skip(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        scalar::skip::<u32>(input, n)
    }

    /// [`skip`](Self::skip) for u64s.
    pub fn skip_u64(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        scalar::skip::<u64>(input, n)
    }
}

/// The u32 codec operations. Decoders never read outside `input`.
///
/// `decode_unchecked` / `decode_delta_unchecked` need, besides `n`
/// well-formed values (as an encoder writes them), at least [`PADDING`]
/// readable bytes after them. Overflow checks are skipped, so on malformed
/// input the values are unspecified. (The kernels currently still never
/// access memory outside `input` and `out`, but callers must not rely on
/// that.)
impl IntCodec for VByte {
    fn unchecked_padding(&self) -> usize {
        PADDING
    }

    fn name(&self) -> &'static str {
        "vbyte"
    }

    super::kernel_info!();

    fn max_compressed_len(&self, n: usize) -> Option<usize> {
        n.checked_mul(5)
    }

    fn max_values(&self, input_len: usize) -> usize {
        // Every value takes at least one byte.
        input_len
    }

    super::kernel_encoders!();

    /// The byte length of the first `n` values, validated as `decode`
    /// does (same errors): [`VByte::skip`].
    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        scalar::skip::<u32>(input, n)
    }

    super::kernel_decoders!();
}

#[cfg(test)]
mod tests;
