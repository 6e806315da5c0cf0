//! C-ABI wrappers over the Rust Stream VByte crates `stream-vbyte` 0.4.1
//! and `streamvbyte64` 0.2.0 (see Cargo.toml for why this is a separate
//! cdylib). One call encodes or decodes one chunk (the benchmark's chunks
//! hold at most 4096 values) into buffers the caller owns.
//!
//! Every function takes raw pointers and lengths from intcodec-bench, which
//! guarantees what each `# Safety` says; inside, everything runs on slices
//! of exactly those lengths, through the crates' safe APIs, and under
//! `catch_unwind`: a crate's panic (its slice bounds checks, e.g. on a
//! buffer too small or garbage input) becomes a return value of -1, never
//! an unwind across the C ABI.
//!
//! The stream written and read is lemire/streamvbyte's format ("1234"):
//! `ceil(n / 4)` control bytes (2 bits per value, value `i` of a group in
//! bits `2i..2i+1`, length - 1), then the data bytes (each value's
//! 1..=4 low bytes, little-endian). `stream-vbyte` writes exactly that for
//! any `n`. `streamvbyte64`'s `Coder1234` writes the same tags and data but
//! only for whole groups of 4 (`values.len() % 4 == 0`, it panics
//! otherwise) and keeps tags and data in two separate slices; the wrappers
//! here give it `out[..n / 4]` for the tags and `out[ceil(n / 4)..]` for
//! the data, and code the last, partial group (`n % 4` values) in scalar
//! code below (one control byte and the values' bytes after its data), so
//! that the whole stream is the same format.

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use stream_vbyte::{decode::decode, encode::encode};
use streamvbyte64::{Coder, Coder1234};

/// The flags this library was compiled with and the kernels it uses
/// (NUL-terminated).
#[no_mangle]
pub extern "C" fn svbr_build_flags() -> *const c_char {
    const S: &str =
        concat!(
        "stream-vbyte 0.4.1 (features x86_ssse3, x86_sse41: decode x86::Ssse3, encode x86::Sse41) \
         and streamvbyte64 0.2.0 (Coder1234) cdylib, nightly rustc; target features",
        " ssse3=", cfg!(target_feature = "ssse3"),
        " sse4.1=", cfg!(target_feature = "sse4.1"),
        " avx2=", cfg!(target_feature = "avx2"),
        "\0"
    );
    S.as_ptr().cast()
}

/// Which implementation `streamvbyte64::Coder1234::new()` picked here
/// (NUL-terminated): it takes its SSSE3 path only when compiled with
/// `sse3` enabled and SSSE3 is detected at run time.
#[no_mangle]
pub extern "C" fn svbr_s64_kernel() -> *const c_char {
    // The crate does not say which one it chose; this mirrors its `new()`.
    let simd = cfg!(target_feature = "sse3") && std::arch::is_x86_feature_detected!("ssse3");
    if simd { "ssse3\0" } else { "scalar\0" }.as_ptr().cast()
}

/// Runs `f` and maps a panic to -1. The panic is the expected answer of
/// these crates to input they refuse (the caller reports -1 as an error), so
/// this library's own panic hook prints nothing (the cdylib has its own copy
/// of std: the host's hook is untouched).
fn guarded(f: impl FnOnce() -> usize) -> isize {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(n) => isize::try_from(n).unwrap_or(-1),
        Err(_) => -1,
    }
}

/// # Safety
/// `p` is readable for `n` values of `T` (or `n == 0`).
unsafe fn src<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if n == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts(p, n) }
}

/// # Safety
/// `p` is writable for `n` values of `T` (or `n == 0`), and not aliased.
unsafe fn dst<'a, T>(p: *mut T, n: usize) -> &'a mut [T] {
    if n == 0 {
        return &mut [];
    }
    // SAFETY: the caller's contract.
    unsafe { std::slice::from_raw_parts_mut(p, n) }
}

/// `stream-vbyte`: encodes `values[..n]` into `out[..cap]` (SSE4.1
/// encoder). Returns the bytes written, or -1 (buffer too small).
///
/// # Safety
/// `values` readable for `n` u32s, `out` writable for `cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn svbr_sv_encode(
    values: *const u32,
    n: usize,
    out: *mut u8,
    cap: usize,
) -> isize {
    // SAFETY: the caller's contract.
    let v = unsafe { src(values, n) };
    // SAFETY: the caller's contract.
    let o = unsafe { dst(out, cap) };
    guarded(|| encode::<stream_vbyte::x86::Sse41>(v, o))
}

/// `stream-vbyte`: decodes `n` values from `input[..len]` into `out[..n]`
/// (SSSE3 decoder). Returns the bytes consumed, or -1.
///
/// # Safety
/// `input` readable for `len` bytes, `out` writable for `n` u32s.
#[no_mangle]
pub unsafe extern "C" fn svbr_sv_decode(
    input: *const u8,
    len: usize,
    n: usize,
    out: *mut u32,
) -> isize {
    // SAFETY: the caller's contract.
    let i = unsafe { src(input, len) };
    // SAFETY: the caller's contract.
    let o = unsafe { dst(out, n) };
    guarded(|| {
        if n < 4 {
            // The crate's `decode` wants an output of at least 4 values.
            let mut tmp = [0u32; 4];
            let used = decode::<stream_vbyte::x86::Ssse3>(i, n, &mut tmp);
            o.copy_from_slice(&tmp[..n]);
            used
        } else {
            decode::<stream_vbyte::x86::Ssse3>(i, n, o)
        }
    })
}

/// Bytes of `v` in Stream VByte 1234 (1..=4) and its 2-bit code.
#[inline]
fn len_code(v: u32) -> (usize, u8) {
    let len = 4 - (v | 1).leading_zeros() as usize / 8;
    (len, (len - 1) as u8)
}

/// Encodes the last `values.len() < 4` values (deltas from `prev` when
/// `delta`) as one partial group: the control byte at `out[ctrl]`, the data
/// at `out[pos..]`. Returns the new end of the data.
fn tail_encode(
    values: &[u32],
    delta: bool,
    mut prev: u32,
    out: &mut [u8],
    ctrl: usize,
    mut pos: usize,
) -> usize {
    let mut code = 0u8;
    for (i, &x) in values.iter().enumerate() {
        let v = if delta { x.wrapping_sub(prev) } else { x };
        prev = x;
        let (len, c) = len_code(v);
        code |= c << (2 * i);
        out[pos..pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
        pos += len;
    }
    out[ctrl] = code;
    pos
}

/// Decodes the partial group of `out.len() < 4` values (adding to `prev`
/// when `delta`) with control byte `input[ctrl]` and data at `input[pos..]`.
/// Returns the new end of the data.
fn tail_decode(
    input: &[u8],
    delta: bool,
    mut prev: u32,
    out: &mut [u32],
    ctrl: usize,
    mut pos: usize,
) -> usize {
    let code = input[ctrl];
    for (i, o) in out.iter_mut().enumerate() {
        let len = usize::from((code >> (2 * i)) & 3) + 1;
        let mut b = [0u8; 4];
        b[..len].copy_from_slice(&input[pos..pos + len]);
        pos += len;
        let v = u32::from_le_bytes(b);
        *o = if delta { prev.wrapping_add(v) } else { v };
        prev = *o;
    }
    pos
}

fn s64_encode(v: &[u32], delta: bool, prev: u32, o: &mut [u8]) -> usize {
    let n = v.len();
    let whole = n / 4 * 4;
    let ctrl_len = n.div_ceil(4);
    let (tags, data) = o.split_at_mut(ctrl_len);
    let coder = Coder1234::new();
    let w = if delta {
        coder.encode_deltas(prev, &v[..whole], &mut tags[..whole / 4], data)
    } else {
        coder.encode(&v[..whole], &mut tags[..whole / 4], data)
    };
    let mut end = ctrl_len + w;
    if whole < n {
        let last = if whole > 0 { v[whole - 1] } else { prev };
        end = tail_encode(&v[whole..], delta, last, o, whole / 4, end);
    }
    end
}

fn s64_decode(i: &[u8], delta: bool, prev: u32, o: &mut [u32]) -> usize {
    let n = o.len();
    let whole = n / 4 * 4;
    let ctrl_len = n.div_ceil(4);
    let (tags, data) = i.split_at(ctrl_len);
    let coder = Coder1234::new();
    let r = if delta {
        coder.decode_deltas(prev, &tags[..whole / 4], data, &mut o[..whole])
    } else {
        coder.decode(&tags[..whole / 4], data, &mut o[..whole])
    };
    let mut end = ctrl_len + r;
    if whole < n {
        let last = if whole > 0 { o[whole - 1] } else { prev };
        end = tail_decode(i, delta, last, &mut o[whole..], whole / 4, end);
    }
    end
}

/// `streamvbyte64` `Coder1234`: encodes `values[..n]` (`delta != 0`: as
/// deltas from `prev`, `encode_deltas`) into `out[..cap]`. Returns the
/// bytes written, or -1 (buffer too small: the crate wants 16 bytes of data
/// room per whole group).
///
/// # Safety
/// `values` readable for `n` u32s, `out` writable for `cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn svbr_s64_encode(
    values: *const u32,
    n: usize,
    delta: u32,
    prev: u32,
    out: *mut u8,
    cap: usize,
) -> isize {
    // SAFETY: the caller's contract.
    let v = unsafe { src(values, n) };
    // SAFETY: the caller's contract.
    let o = unsafe { dst(out, cap) };
    guarded(|| s64_encode(v, delta != 0, prev, o))
}

/// `streamvbyte64` `Coder1234`: decodes `n` values (`delta != 0`:
/// `decode_deltas` from `prev`) from `input[..len]` into `out[..n]`.
/// Returns the bytes consumed, or -1.
///
/// # Safety
/// `input` readable for `len` bytes, `out` writable for `n` u32s.
#[no_mangle]
pub unsafe extern "C" fn svbr_s64_decode(
    input: *const u8,
    len: usize,
    n: usize,
    delta: u32,
    prev: u32,
    out: *mut u32,
) -> isize {
    // SAFETY: the caller's contract.
    let i = unsafe { src(input, len) };
    // SAFETY: the caller's contract.
    let o = unsafe { dst(out, n) };
    guarded(|| s64_decode(i, delta != 0, prev, o))
}
