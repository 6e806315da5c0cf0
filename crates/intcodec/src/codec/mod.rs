//! The codecs. Each module documents its wire format first.

pub mod bp128;
pub mod frame_of_reference;
pub mod streamvbyte;
pub mod varint;
#[cfg(feature = "g8iu")]
pub mod varint_g8iu;
pub mod varint_gb;
pub mod vbyte;

use crate::error::{DecodeError, DecodeErrorKind};

/// `OutputTooSmall` unless an output of `out_len` slots holds `n` values.
#[inline]
pub(crate) fn check_out(n: usize, out_len: usize) -> Result<(), DecodeError> {
    if out_len < n {
        return Err(DecodeError::new(
            DecodeErrorKind::OutputTooSmall,
            0,
            Some(out_len),
        ));
    }
    Ok(())
}

/// The [`IntCodec`](crate::IntCodec) decoders of a handle `{ k: &'static
/// Kernels }` whose kernel set holds `decode`, `decode_delta`,
/// `decode_unchecked` and `decode_delta_unchecked`, each called as
/// `(input, &mut out[..n], prev)` (Stream VByte, VByte, VarInt-GB, G8IU):
/// written once. The handle provides `Self::decode_args(input, n, out_len)`
/// (the checks before a checked kernel runs: at least `check_out`) and
/// `self.vec_for(input, n)` (a zeroed `Vec` of `n` values, allocated only
/// once the input is known to be able to hold them, else decoding's error).
macro_rules! kernel_decoders {
    () => {
        #[inline]
        fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, DecodeError> {
            Self::decode_args(input, n, out.len())?;
            // SAFETY: the kernel's ISA is supported (it came from a
            // registry); `out` has `n` slots (`decode_args`); checked kernels
            // read only inside `input` and write only inside `out[..n]`.
            unsafe { (self.k.decode)(input, &mut out[..n], 0) }
        }

        #[inline]
        fn decode_delta(
            &self,
            input: &[u8],
            n: usize,
            prev: u32,
            out: &mut [u32],
        ) -> Result<usize, DecodeError> {
            Self::decode_args(input, n, out.len())?;
            // SAFETY: as in `decode`.
            unsafe { (self.k.decode_delta)(input, &mut out[..n], prev) }
        }

        unsafe fn decode_unchecked(&self, input: &[u8], n: usize, out: &mut [u32]) -> usize {
            debug_assert!(out.len() >= n);
            let out = &mut out[..n];
            // SAFETY: the caller guarantees a valid stream of `n` values
            // followed by `unchecked_padding()` bytes; `out` has `n` slots;
            // the kernel's ISA is supported (registry).
            unsafe { (self.k.decode_unchecked)(input, out, 0) }
        }

        unsafe fn decode_delta_unchecked(
            &self,
            input: &[u8],
            n: usize,
            prev: u32,
            out: &mut [u32],
        ) -> usize {
            debug_assert!(out.len() >= n);
            let out = &mut out[..n];
            // SAFETY: as in `decode_unchecked`.
            unsafe { (self.k.decode_delta_unchecked)(input, out, prev) }
        }

        /// Decodes `n` values into a new `Vec`, allocated only once the
        /// input is known to be able to hold them, so an absurd `n` fails
        /// without allocating.
        fn decode_to_vec(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
            let mut out = self.vec_for(input, n)?;
            self.decode(input, n, &mut out)?;
            Ok(out)
        }

        /// As `decode_to_vec`, for delta-coded values (from `prev`).
        fn decode_delta_to_vec(
            &self,
            input: &[u8],
            n: usize,
            prev: u32,
        ) -> Result<Vec<u32>, DecodeError> {
            let mut out = self.vec_for(input, n)?;
            self.decode_delta(input, n, prev, &mut out)?;
            Ok(out)
        }
    };
}
pub(crate) use kernel_decoders;
