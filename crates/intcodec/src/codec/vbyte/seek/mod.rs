//! Select, seek and insert on delta-coded u32 VByte (and Masked VByte)
//! streams, as in the upscaledb study (Lemire, Rupp).
//!
//! - [`SortedCodec::select`]: the value at index `i`. The Masked VByte
//!   kernels decode the values before `i` in registers, 2 to 12 per step,
//!   and keep only their sum; nothing is stored.
//! - [`SortedCodec::lower_bound`]: the first value at or above a target: each step
//!   is prefix-summed in registers and compared with the target.
//! - [`SortedCodec::insert`]: inserts a value **by rewriting only the
//!   neighbouring delta**: the delta of the value that will follow the new
//!   one (`x[p] - x[p-1]`) is replaced by two deltas (`v - x[p-1]`,
//!   `x[p] - v`); every other byte stays where it is (shifted, not
//!   re-encoded).
//!
//! # Checked
//!
//! Like [`IntCodec::decode`](crate::IntCodec::decode), these take the raw stream and the count `n`,
//! never read outside `input` and never panic: a value they need that is
//! truncated, overlong or too large gives the error `decode` would report,
//! at the same offset and index. Only the values they read are checked. An
//! index `>= n` is `Ok(None)`. Every kernel returns the same result.

use super::scalar::{len_of, one};
use super::VByte;
use crate::error::DecodeError;
use crate::traits::SortedCodec;
use alloc::vec::Vec;

pub(crate) mod scalar;

/// On a delta-coded u32 stream of `n` values (encoded from `prev`): the
/// value at index `i` (`Ok(None)` if `i >= n`), the first index whose value
/// is `>= target` with the value (`Ok(None)` if none is), and insertion
/// (example there).
impl SortedCodec for VByte {
    crate::codec::delta_seek! {
        /// Inserts `value` into the sorted delta-coded u32 stream of `n` values
        /// (from `prev`) before the first value `>= value`, and returns its
        /// index. Only the delta of the following value is rewritten (module
        /// docs); the values after it are not decoded (nor checked). On error
        /// `stream` is unchanged.
        ///
        /// ```
        /// use intcodec::vbyte::VByte;
        /// use intcodec::{IntCodec, SortedCodec};
        /// let codec = VByte::new();
        /// let mut bytes = codec.encode_delta_to_vec(&[10u32, 20, 40], 0);
        /// assert_eq!(codec.insert(&mut bytes, 3, 0, 30)?, 2);
        /// assert_eq!(bytes, [10, 10, 10, 10]);
        /// assert_eq!(codec.select(&bytes, 4, 0, 2)?, Some(30));
        /// assert_eq!(codec.lower_bound(&bytes, 4, 0, 31)?, Some((3, 40)));
        /// # Ok::<(), intcodec::DecodeError>(())
        /// ```
        insert: |codec, stream, n, prev, value| {
            // The whole stream of `n` values must be there (checked like decode),
            // not only the part before the insertion point.
            crate::traits::IntCodec::encoded_len(codec, stream, n)?;
            // Find the insertion point `p`: its byte offset, the old delta's
            // length, and the value before it (`x[p-1]`).
            let (mut pos, mut before) = (0usize, prev);
            let mut found = None;
            for j in 0..n {
                let (d, len) =
                    one::<u32>(stream, pos).map_err(|kind| DecodeError::new(kind, pos, Some(j)))?;
                let x = before.wrapping_add(d);
                if x > value {
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
        },
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
