//! Select, seek and insert on delta-coded u32 VByte (and Masked VByte)
//! streams, as in the upscaledb study (Lemire, Rupp).
//!
//! - [`VByte::select_delta`]: the value at index `i`. The Masked VByte
//!   kernels decode the values before `i` in registers, 2 to 12 per step,
//!   and keep only their sum; nothing is stored.
//! - [`VByte::seek_delta`]: the first value at or above a target: each step
//!   is prefix-summed in registers and compared with the target.
//! - [`VByte::insert_delta`]: inserts a value **by rewriting only the
//!   neighbouring delta**: the delta of the value that will follow the new
//!   one (`x[p] - x[p-1]`) is replaced by two deltas (`v - x[p-1]`,
//!   `x[p] - v`); every other byte stays where it is (shifted, not
//!   re-encoded).
//!
//! # Checked
//!
//! Like [`VByte::decode`], these take the raw stream and the count `n`,
//! never read outside `input` and never panic: a value they need that is
//! truncated, overlong or too large gives the error `decode` would report,
//! at the same offset and index. Only the values they read are checked. An
//! index `>= n` is `Ok(None)`. Every kernel returns the same result.

use super::scalar::{len_of, one};
use super::VByte;
use crate::error::DecodeError;
use crate::isa::Isa;
use alloc::vec::Vec;

pub(crate) mod scalar;

impl VByte {
    /// The value at index `i` of a delta-coded u32 stream of `n` values
    /// (encoded from `prev`); `Ok(None)` if `i >= n`.
    ///
    /// ```
    /// use intcodec::vbyte::VByte;
    /// let codec = VByte::new();
    /// let ids = [3u32, 7, 19, 20, 1000, 1001];
    /// let bytes = codec.encode_delta_to_vec(&ids, 0);
    /// assert_eq!(codec.select_delta(&bytes, 6, 0, 4)?, Some(1000));
    /// assert_eq!(codec.seek_delta(&bytes, 6, 0, 21)?, Some((4, 1000)));
    /// # Ok::<(), intcodec::DecodeError>(())
    /// ```
    pub fn select_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        i: usize,
    ) -> Result<Option<u32>, DecodeError> {
        if i >= n {
            return Ok(None);
        }
        match self.isa() {
            #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
            // SAFETY: the handle's ISA is enabled on this CPU (checked by its
            // constructors) and implies SSE4.1.
            Isa::Sse41 => unsafe { super::x86::sse41::select_delta(input, n, prev, i) },
            #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
            // SAFETY: as above; the ISA implies AVX2, BMI1/2, POPCNT.
            Isa::Avx2 | Isa::Avx512 => unsafe { super::x86::avx2::select_delta(input, n, prev, i) },
            _ => scalar::select_delta_from(input, i, 0, 0, prev),
        }
        .map(Some)
    }

    /// In a delta-coded u32 stream of `n` values (from `prev`), the first
    /// index whose value is `>= target`, with the value; `Ok(None)` if none.
    pub fn seek_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        target: u32,
    ) -> Result<Option<(usize, u32)>, DecodeError> {
        match self.isa() {
            #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
            // SAFETY: the handle's ISA is enabled on this CPU.
            Isa::Sse41 => unsafe { super::x86::sse41::seek_delta(input, n, prev, target) },
            #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
            // SAFETY: the handle's ISA is enabled on this CPU.
            Isa::Avx2 | Isa::Avx512 => unsafe {
                super::x86::avx2::seek_delta(input, n, prev, target)
            },
            _ => scalar::seek_delta_from(input, n, target, 0, 0, prev),
        }
    }

    /// Inserts `value` into the sorted delta-coded u32 stream of `n` values
    /// (from `prev`) before the first value `>= value`, and returns its
    /// index. Only the delta of the following value is rewritten (module
    /// docs); the values after it are not decoded (nor checked). On error
    /// `stream` is unchanged.
    ///
    /// ```
    /// use intcodec::vbyte::VByte;
    /// let codec = VByte::new();
    /// let mut bytes = codec.encode_delta_to_vec(&[10u32, 20, 40], 0);
    /// assert_eq!(codec.insert_delta(&mut bytes, 3, 0, 30)?, 2);
    /// assert_eq!(bytes, [10, 10, 10, 10]);
    /// # Ok::<(), intcodec::DecodeError>(())
    /// ```
    pub fn insert_delta(
        &self,
        stream: &mut Vec<u8>,
        n: usize,
        prev: u32,
        value: u32,
    ) -> Result<usize, DecodeError> {
        // Find the insertion point `p`: its byte offset, the old delta's
        // length, and the value before it (`x[p-1]`).
        let (mut pos, mut before) = (0usize, prev);
        let mut found = None;
        for j in 0..n {
            let (d, len) =
                one::<u32>(stream, pos).map_err(|kind| DecodeError::new(kind, pos, Some(j)))?;
            let x = before.wrapping_add(d);
            if x >= value {
                found = Some((j, len, x));
                break;
            }
            before = x;
            pos += len;
        }
        let mut new = Vec::with_capacity(10);
        push(&mut new, value.wrapping_sub(before));
        let (at, old_len) = match found {
            Some((j, len, x)) => {
                push(&mut new, x.wrapping_sub(value));
                (j, len)
            }
            None => (n, 0),
        };
        stream.splice(pos..pos + old_len, new);
        Ok(at)
    }
}

/// Appends `v` as LEB128.
fn push(out: &mut Vec<u8>, mut v: u32) {
    debug_assert!(len_of(v) <= 5);
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[cfg(test)]
mod tests;
