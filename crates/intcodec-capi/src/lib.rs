//! The C library of intcodec (`libintcodec.so` / `libintcodec.a`).
//!
//! Three ABIs, each declared by a committed header under `include/`:
//!
//! - [`api`]: intcodec's own checked API over [`intcodec::registry`]: every
//!   codec by name, decoders that take the input length and report an error
//!   code with its byte offset and value index (`intcodec.h`).
//! - [`streamvbyte_abi`]: a drop-in for lemire/streamvbyte
//!   (`streamvbyte.h`, `streamvbytedelta.h`, `streamvbyte_zigzag.h`).
//! - [`maskedvbyte_abi`]: a drop-in for MaskedVByte (`varintencode.h`,
//!   `varintdecode.h`).
//!
//! This crate is the FFI boundary: the `unsafe` here turns C pointers and
//! lengths into slices, once per call, each block naming the caller's
//! contract that makes it sound. Everything past that is the safe core API.

pub mod api;
#[cfg(feature = "bench-hooks")]
pub mod bench_hooks;
pub mod maskedvbyte_abi;
mod scan;
mod small;
pub mod streamvbyte_abi;

/// `len` bytes at `p` as a slice; the empty slice when `len == 0` (then `p`
/// may be NULL or dangling, as C callers often pass).
///
/// # Safety
/// When `len > 0`, `p` must be valid for reads of `len` bytes, not written
/// during the returned lifetime, and `len <= isize::MAX`.
#[inline(always)]
unsafe fn bytes<'a>(p: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract above.
    unsafe { core::slice::from_raw_parts(p, len) }
}

/// `len` values at `p` as a slice (the empty slice when `len == 0`).
///
/// # Safety
/// When `len > 0`, `p` must be valid and aligned for reads of `len` values,
/// not written during the returned lifetime, and `len * 4 <= isize::MAX`.
#[inline(always)]
unsafe fn values<'a, T>(p: *const T, len: usize) -> &'a [T] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract above.
    unsafe { core::slice::from_raw_parts(p, len) }
}

/// `len` writable elements at `p` (the empty slice when `len == 0`).
///
/// # Safety
/// When `len > 0`, `p` must be valid and aligned for writes of `len`
/// elements, not accessed otherwise during the returned lifetime, and the
/// byte size at most `isize::MAX`.
#[inline(always)]
unsafe fn values_mut<'a, T>(p: *mut T, len: usize) -> &'a mut [T] {
    if len == 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract above.
    unsafe { core::slice::from_raw_parts_mut(p, len) }
}
