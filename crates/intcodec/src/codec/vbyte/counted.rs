//! Decoding a stream of known count and unknown length ("trusted count"):
//! [`VByte::decode_counted`] and [`VByte::decode_delta_counted`], for
//! callers that, like MaskedVByte's `masked_vbyte_decode`, get a pointer
//! and a value count but no byte length.
//!
//! The argument that keeps every read inside the stream: once `done` of
//! `n` values are decoded and end at byte `pos`, the `n - done` values
//! still to come take at least one byte each, so bytes `pos .. pos + n -
//! done` belong to the stream. That bound only grows as decoding goes on
//! (a step of `k` values consumes at least `k` bytes). The kernels decode
//! from a [`Source`]: for the checked decoders the input slice itself, here
//! a [`Counted`] pointer whose readable window is re-derived from that
//! bound (`window(pos, left)`), so the SIMD loops are the checked loops,
//! run while the window still holds their fixed look-ahead (16 or 48
//! bytes); the rest is read byte by byte in value order
//! ([`scalar::one_by`]): a byte is read only while the value it belongs to
//! has not ended.
//!
//! On a bad stream every decoded value is at most 5 bytes long (a longer
//! one is `Overlong`, found at its 5th byte), so `pos <= 5 * done` and the
//! window `pos + n - done` never passes `5 * n` bytes, whatever the bytes
//! are.

use core::marker::PhantomData;

use super::{scalar, VByte};
use crate::error::{DecodeError, DecodeErrorKind};

/// The kernels' "trusted count" decoders: `out.len()` values (deltas from
/// `prev` if delta) at the pointer; returns the bytes consumed or the first
/// `Overlong` / `Overflow` value's error.
///
/// # Safety
/// As [`VByte::decode_counted`] for `n = out.len()`.
pub(crate) type DecodeCountedFn =
    unsafe fn(*const u8, &mut [u32], u32) -> Result<usize, DecodeError>;

/// Where a u32 decode loop reads its bytes.
pub(crate) trait Source<'a>: Copy {
    /// The bytes known to be readable from the stream's start, when the
    /// first `pos` bytes are exactly the values decoded so far (each at
    /// most 5 bytes long) and `left` values are still to come. The window
    /// never shrinks as `pos` and `left` advance together.
    ///
    /// # Safety
    /// `pos` and `left` describe the decoder's progress as above: `pos` is
    /// the end of the values decoded so far, found from their continuation
    /// bits, and `left` is the count asked for minus those values.
    unsafe fn window(self, pos: usize, left: usize) -> &'a [u8];

    /// The value at byte `at` in scalar code: as [`scalar::one`], on the
    /// bytes of the stream.
    ///
    /// # Safety
    /// `at` is the end of the first `k` values of the stream, found from
    /// their continuation bits (as `pos` for [`window`](Self::window)),
    /// with `k` below the count asked for: a value is still to come.
    unsafe fn one(self, at: usize) -> Result<(u32, usize), DecodeErrorKind>;

    /// Decodes values `start..out.len()` from byte `pos` in scalar code,
    /// `prev` the value before `start` (delta only); as
    /// [`scalar::decode_from`].
    ///
    /// # Safety
    /// `pos` is where value `start` begins (as for [`window`](Self::window)).
    #[inline(always)]
    unsafe fn tail<const DELTA: bool>(
        self,
        out: &mut [u32],
        start: usize,
        pos: usize,
        prev: u32,
    ) -> Result<usize, DecodeError> {
        // SAFETY: `decode_by` asks for the value at `pos` and then at the
        // end of each value it decoded, only for values `start..out.len()`:
        // fewer than the `out.len()` values asked for come before `at`.
        let one = |at| unsafe { self.one(at) };
        scalar::decode_by::<u32, DELTA>(one, out, start, pos, prev)
    }
}

/// The checked decoders' source: the whole input, every access checked.
impl<'a> Source<'a> for &'a [u8] {
    #[inline(always)]
    unsafe fn window(self, _pos: usize, _left: usize) -> &'a [u8] {
        self
    }

    #[inline(always)]
    unsafe fn one(self, at: usize) -> Result<(u32, usize), DecodeErrorKind> {
        scalar::one::<u32>(self, at)
    }
}

/// A stream of trusted count and unknown length (see the module docs).
#[derive(Clone, Copy)]
pub(crate) struct Counted<'a> {
    ptr: *const u8,
    _stream: PhantomData<&'a [u8]>,
}

impl Counted<'_> {
    /// # Safety
    /// `ptr` is as in [`VByte::decode_counted`], for the count the decoder
    /// is asked for.
    #[inline(always)]
    pub(crate) unsafe fn new(ptr: *const u8) -> Self {
        Counted {
            ptr,
            _stream: PhantomData,
        }
    }
}

impl<'a> Source<'a> for Counted<'a> {
    #[inline(always)]
    unsafe fn window(self, pos: usize, left: usize) -> &'a [u8] {
        // SAFETY: by the module's argument, the stream holds `pos + left`
        // bytes (and a bad one is given `5 * n >= pos + left` readable
        // bytes): `pos` is the end of the decoded values (the caller's
        // contract) and each of the `left` to come takes a byte at least.
        unsafe { core::slice::from_raw_parts(self.ptr, pos + left) }
    }

    #[inline(always)]
    unsafe fn one(self, at: usize) -> Result<(u32, usize), DecodeErrorKind> {
        let byte = |off: usize| {
            // SAFETY: `one_by` reads a byte only when the value it belongs
            // to has not ended and is at most 5 bytes long so far, starting
            // at `at`, the end of the values before (the caller's
            // contract): a byte of the stream, below `5 * n`.
            Some(unsafe { self.ptr.wrapping_add(at + off).read() })
        };
        scalar::one_by::<u32>(byte)
    }
}

/// The scalar kernel: the byte-by-byte decoder on the whole stream.
///
/// # Safety
/// As [`DecodeCountedFn`].
pub(crate) unsafe fn scalar_kernel<const DELTA: bool>(
    input: *const u8,
    out: &mut [u32],
    prev: u32,
) -> Result<usize, DecodeError> {
    // SAFETY: the caller's contract is `Counted::new`'s.
    let src = unsafe { Counted::new(input) };
    // SAFETY: value 0 begins at byte 0.
    unsafe { src.tail::<DELTA>(out, 0, 0, prev) }
}

impl VByte {
    /// Decodes `n` u32s from a stream whose byte length is not known (only
    /// the count is, as in MaskedVByte's `masked_vbyte_decode`) into
    /// `out[..n]`; returns the bytes consumed. No byte past the `n`-th value
    /// is read, so no padding is needed.
    ///
    /// The values are checked as [`decode`](crate::IntCodec::decode) checks them:
    /// a value of more than 5 bytes is `Overlong`, a 5th byte above `0x0F`
    /// `Overflow`, at the offset and index of the first bad value; the
    /// values before it are in `out`, the rest of `out[..n]` is
    /// unspecified. `Truncated` cannot occur (the count is trusted). Too
    /// small an `out` is `OutputTooSmall` and reads nothing.
    ///
    /// The SIMD loops run while the values still to come hold their fixed
    /// look-ahead (at least 16 or 48 bytes), the last values byte by byte.
    ///
    /// # Safety
    /// `input` points to `n` VByte values, each as an encoder writes it or
    /// any other bytes of at most 5 per value ending in a byte below
    /// `0x80`, readable and not written during the call (bytes after them
    /// need not exist); or, for any other content, to `5 * n` readable
    /// bytes (then the first bad value is reported). `5 * n` must not
    /// exceed `isize::MAX`.
    ///
    /// ```
    /// use intcodec::vbyte::VByte;
    /// use intcodec::IntCodec;
    ///
    /// let codec = VByte::new();
    /// let bytes = codec.encode_to_vec(&[1, 300, 70000]);
    /// let mut out = [0u32; 3];
    /// // SAFETY: `bytes` holds three values.
    /// let used = unsafe { codec.decode_counted(bytes.as_ptr(), 3, &mut out)? };
    /// assert_eq!((used, out), (bytes.len(), [1, 300, 70000]));
    /// # Ok::<(), intcodec::DecodeError>(())
    /// ```
    pub unsafe fn decode_counted(
        &self,
        input: *const u8,
        n: usize,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        let out = super::prefix(out, n)?;
        // SAFETY: the kernel's ISA is supported (registry); the caller's
        // contract is the kernel's, for `n = out.len()`.
        unsafe { (self.k.decode_counted)(input, out, 0) }
    }

    /// [`decode_counted`](Self::decode_counted) for delta-coded u32s (from
    /// `prev`).
    ///
    /// # Safety
    /// As [`decode_counted`](Self::decode_counted).
    pub unsafe fn decode_delta_counted(
        &self,
        input: *const u8,
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        let out = super::prefix(out, n)?;
        // SAFETY: as in `decode_counted`.
        unsafe { (self.k.decode_delta_counted)(input, out, prev) }
    }
}
