//! Decoding a stream of known count and unknown length ("trusted count"):
//! [`StreamVByte::decode_counted`] and [`StreamVByte::decode_delta_counted`],
//! for callers that, like lemire/streamvbyte's `streamvbyte_decode`, get a
//! pointer and a value count but no byte length.
//!
//! The argument that keeps every read inside the stream ("1234" only):
//! the `ceil(n / 4)` control bytes are the stream's first bytes; once
//! `done` of `n` values are decoded and the data cursor is at `p`, the
//! `n - done` values still to come take at least one data byte each, so
//! bytes `p .. p + n - done` belong to the stream. That bound never shrinks
//! (a value consumes at least the one byte it took off the count), so the
//! x86 kernels run their checked block and group loops with `n - done` as
//! the room ahead of the cursor instead of the input's end (a block of 32
//! while `n - done >= 44`: its loads reach 16 bytes past its seventh
//! group's data, and its eighth group holds 4 bytes at least; a 16-byte
//! group load while the group's own data, whose length its control byte
//! gives, plus a byte for each value after it make 16 bytes), then read
//! the last values' data, whose exact length their control bytes announce,
//! as a slice of that length with the checked tail. "0124" has zero-byte
//! values, so no such bound: on those kernels it (and the kernels without
//! a counted loop: scalar, NEON) takes the stream's length from its control
//! bytes and calls the checked decoder on that exact slice. The AVX-512
//! kernels need no bound for either variant: each block's expand reads
//! exactly the data bytes its control bytes announce.

use super::{control_len, scalar, StreamVByte};
use crate::error::DecodeError;
use crate::traits::IntCodec;

/// The kernels' trusted-count decoders: `out.len()` values (deltas from
/// `prev` if delta) at the pointer; returns the bytes consumed.
///
/// # Safety
/// `input` points to a stream of `out.len()` values of the kernel's
/// variant, as for
/// [`StreamVByte::decode_counted`].
pub(crate) type DecodeCountedFn = unsafe fn(*const u8, &mut [u32], u32) -> usize;

impl StreamVByte {
    /// Decodes `n` values from a stream whose byte length is not known
    /// (only the count is, as in lemire/streamvbyte's `streamvbyte_decode`)
    /// into `out[..n]`; returns the bytes consumed (the stream's length). No
    /// byte past the stream is read, so no padding is needed.
    ///
    /// Both variants on AVX-512, and "1234" on SSE4.1 and AVX2, decode in
    /// one pass. AVX-512: each block reads exactly its own data bytes.
    /// SSE4.1 and AVX2: the SIMD loops run
    /// while the stream is known to hold their 16-byte loads (each value
    /// still to come takes a data byte at least), the last values from
    /// the exact bytes their control bytes announce. There "0124"
    /// (whose zeros take no data byte) and the other kernels sum the
    /// lengths the control bytes announce first, then decode that slice.
    /// Every bit pattern is a stream, so the only error is an `out` of
    /// fewer than `n` slots (`OutputTooSmall`, nothing read).
    ///
    /// # Safety
    /// `input` points to a stream of `n` values of this codec's variant:
    /// its `ceil(n / 4)` control bytes and then the data bytes they
    /// announce for the first `n` codes, all readable and not written
    /// during the call (bytes after them need not exist).
    ///
    /// ```
    /// use intcodec::streamvbyte::StreamVByte;
    /// use intcodec::IntCodec;
    ///
    /// let codec = StreamVByte::new();
    /// let bytes = codec.encode_to_vec(&[1, 300, 70000]);
    /// let mut out = [0u32; 3];
    /// // SAFETY: `bytes` holds a stream of three values.
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
        // SAFETY: forwarded contract.
        unsafe { self.counted(input, n, out, None) }
    }

    /// [`decode_counted`](Self::decode_counted) for delta-coded values
    /// (from `prev`).
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
        // SAFETY: forwarded contract.
        unsafe { self.counted(input, n, out, Some(prev)) }
    }

    /// # Safety
    /// As [`decode_counted`](Self::decode_counted).
    #[inline(always)]
    unsafe fn counted(
        &self,
        input: *const u8,
        n: usize,
        out: &mut [u32],
        prev: Option<u32>,
    ) -> Result<usize, DecodeError> {
        super::super::check_out(n, out.len())?;
        if n == 0 {
            return Ok(0);
        }
        let out = &mut out[..n];
        if n <= super::SHORT_MAX {
            let cl = control_len(n);
            // SAFETY: a stream of `n >= 1` values starts with its `cl`
            // control bytes (the caller's contract).
            let ctrl = unsafe { core::slice::from_raw_parts(input, cl) };
            let len = cl + scalar::tail_len(self.bytes(), ctrl, 0, n);
            // SAFETY: the stream is those bytes and the data bytes they
            // announce for its `n` codes: `len` bytes (the contract).
            let stream = unsafe { core::slice::from_raw_parts(input, len) };
            // The whole stream is there: `decode_short` takes it.
            let used = match prev {
                None => scalar::decode_short::<false>(self.bytes(), stream, out, 0),
                Some(p) => scalar::decode_short::<true>(self.bytes(), stream, out, p),
            };
            if let Some(used) = used {
                return Ok(used);
            }
        }
        let kernel = match prev {
            None => self.k.decode_counted,
            Some(_) => self.k.decode_delta_counted,
        };
        if let Some(f) = kernel {
            // SAFETY: the kernel's ISA is supported (registry) and it is a
            // kernel of this handle's variant; the caller's contract
            // is the kernel's, for `n = out.len()`.
            return Ok(unsafe { f(input, out, prev.unwrap_or(0)) });
        }
        let cl = control_len(n);
        // SAFETY: a stream of `n >= 1` values starts with its `cl` control
        // bytes (the caller's contract).
        let ctrl = unsafe { core::slice::from_raw_parts(input, cl) };
        let len = cl + scalar::data_len(self.bytes(), ctrl, n);
        // SAFETY: the stream is its control bytes and the data bytes they
        // announce: `len` bytes (the caller's contract).
        let stream = unsafe { core::slice::from_raw_parts(input, len) };
        match prev {
            None => self.decode(stream, n, out),
            Some(p) => self.decode_delta(stream, n, p, out),
        }
    }
}
