//! intcodec's own C API (`intcodec.h`): one generic adapter over
//! [`intcodec::registry`], every codec by name.
//!
//! Every function checks its pointers (NULL is `INTCODEC_ERR_NULL`; a data
//! pointer may be NULL when its length is 0), takes the length of every
//! buffer, reads and writes only inside them, and allocates nothing but the
//! codec handle.

use std::ffi::{c_char, c_int, CStr, CString};
use std::sync::OnceLock;

use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::vbyte::VByte;
use intcodec::{
    registry, DecodeError, DecodeErrorKind, EncodeError, IntCodec, Isa, KernelChoice, SortedCodec,
};

use crate::scan::{SVB_0124, SVB_1234};
use crate::{bytes, small, values, values_mut};

/// Status codes (`intcodec_status.code`).
pub const INTCODEC_OK: c_int = 0;
/// `intcodec_lower_bound`: no value `>= key`; `intcodec_select`: `i >= n`.
pub const INTCODEC_NOT_FOUND: c_int = 1;
/// A required pointer was NULL.
pub const INTCODEC_ERR_NULL: c_int = -1;
/// A size that overflows, or an operation argument out of range.
pub const INTCODEC_ERR_INVALID: c_int = -2;
/// The input ends before the values do.
pub const INTCODEC_ERR_TRUNCATED: c_int = -3;
/// The output buffer is too small (`offset`: bytes or values needed).
pub const INTCODEC_ERR_OUTPUT_TOO_SMALL: c_int = -4;
/// A varint longer than its type allows.
pub const INTCODEC_ERR_OVERLONG: c_int = -5;
/// A varint's value does not fit its type.
pub const INTCODEC_ERR_OVERFLOW: c_int = -6;
/// Bytes the encoder cannot have written.
pub const INTCODEC_ERR_MALFORMED: c_int = -7;
/// The codec has no such operation (e.g. delta on frame-of-reference).
pub const INTCODEC_ERR_UNSUPPORTED: c_int = -8;

/// `intcodec_status`: what happened and where.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct IntcodecStatus {
    /// `INTCODEC_OK`, `INTCODEC_NOT_FOUND` or a negative error code.
    pub code: c_int,
    /// Byte offset of the error in the input (see each code).
    pub offset: usize,
    /// Index of the value concerned, `SIZE_MAX` when none.
    pub index: usize,
}

const NO_INDEX: usize = usize::MAX;

fn status(code: c_int, offset: usize, index: usize) -> IntcodecStatus {
    IntcodecStatus {
        code,
        offset,
        index,
    }
}

fn ok() -> IntcodecStatus {
    status(INTCODEC_OK, 0, NO_INDEX)
}

fn err(code: c_int) -> IntcodecStatus {
    status(code, 0, NO_INDEX)
}

fn from_decode(e: DecodeError) -> IntcodecStatus {
    let code = match e.kind() {
        DecodeErrorKind::Truncated => INTCODEC_ERR_TRUNCATED,
        DecodeErrorKind::OutputTooSmall => INTCODEC_ERR_OUTPUT_TOO_SMALL,
        DecodeErrorKind::Overlong => INTCODEC_ERR_OVERLONG,
        DecodeErrorKind::Overflow => INTCODEC_ERR_OVERFLOW,
        DecodeErrorKind::Malformed => INTCODEC_ERR_MALFORMED,
        DecodeErrorKind::Unsupported => INTCODEC_ERR_UNSUPPORTED,
        _ => INTCODEC_ERR_MALFORMED,
    };
    status(code, e.offset(), e.index().unwrap_or(NO_INDEX))
}

fn from_encode(e: EncodeError) -> IntcodecStatus {
    match e {
        EncodeError::OutputTooSmall { needed, .. } => {
            status(INTCODEC_ERR_OUTPUT_TOO_SMALL, needed, NO_INDEX)
        }
        EncodeError::Unsupported => err(INTCODEC_ERR_UNSUPPORTED),
        _ => err(INTCODEC_ERR_INVALID),
    }
}

/// The opaque `intcodec_codec`: a codec of the registry and, when it has
/// them, its sorted operations.
pub struct IntcodecCodec {
    codec: Box<dyn IntCodec>,
    sorted: Option<Box<dyn SortedCodec>>,
    name: CString,
    direct: Direct,
}

/// The codecs whose decoders `intcodec_decode*` call directly, on the same
/// kernel as `codec`: the core's `decode` inlines here, leaving one
/// kernel-pointer call instead of a trait-object call and then that one
/// (the 1-int target of issue 19). Any other codec goes through `codec`.
#[derive(Clone, Copy)]
enum Direct {
    StreamVByte(StreamVByte),
    VByte(VByte),
    None,
}

impl Direct {
    fn of(codec: &dyn IntCodec) -> Direct {
        let isa = codec.isa();
        let svb = |v: Variant| {
            StreamVByte::new()
                .with_variant(v)
                .with_isa(isa)
                .map_or(Direct::None, Direct::StreamVByte)
        };
        match codec.name() {
            "streamvbyte" => svb(Variant::V1234),
            "streamvbyte-0124" => svb(Variant::V0124),
            "vbyte" => VByte::new()
                .with_isa(isa)
                .map_or(Direct::None, Direct::VByte),
            _ => Direct::None,
        }
    }
}

fn isa_cstr(isa: Isa) -> &'static CStr {
    match isa {
        Isa::Scalar => c"scalar",
        Isa::Ssse3 => c"ssse3",
        Isa::Sse41 => c"sse41",
        Isa::Avx2 => c"avx2",
        Isa::Avx512 => c"avx512",
        Isa::Neon => c"neon",
        #[allow(unreachable_patterns)]
        _ => c"unknown",
    }
}

fn names() -> &'static [CString] {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    NAMES.get_or_init(|| {
        registry::names()
            .into_iter()
            .filter_map(|n| CString::new(n).ok())
            .collect()
    })
}

/// The library version, "MAJOR.MINOR.PATCH".
#[no_mangle]
pub extern "C" fn intcodec_version() -> *const c_char {
    const V: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    V.as_ptr().cast()
}

/// The highest instruction set the codecs may use here (detected, capped by
/// `INTCODEC_ISA`): "scalar", "ssse3", "sse41", "avx2", "avx512", "neon".
/// "invalid" when `INTCODEC_ISA` is set to a value this CPU cannot run.
#[no_mangle]
pub extern "C" fn intcodec_isa_name() -> *const c_char {
    if intcodec::isa::check_override().is_err() {
        return c"invalid".as_ptr();
    }
    let best = intcodec::supported_isas().last().unwrap_or(Isa::Scalar);
    isa_cstr(best).as_ptr()
}

/// Number of codecs in this build.
#[no_mangle]
pub extern "C" fn intcodec_codec_count() -> usize {
    names().len()
}

/// Name of codec `i` (`0 <= i < intcodec_codec_count()`), NULL past the end.
#[no_mangle]
pub extern "C" fn intcodec_codec_name_at(i: usize) -> *const c_char {
    names().get(i).map_or(core::ptr::null(), |n| n.as_ptr())
}

/// The codec called `name` on the best kernel; NULL if `name` is NULL,
/// unknown, or `INTCODEC_ISA` is invalid. Free with `intcodec_codec_free`.
///
/// # Safety
/// `name` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn intcodec_codec_new(name: *const c_char) -> *mut IntcodecCodec {
    if name.is_null() || intcodec::isa::check_override().is_err() {
        return core::ptr::null_mut();
    }
    // SAFETY: the caller's contract: a NUL-terminated string.
    let cname = unsafe { CStr::from_ptr(name) };
    let Ok(s) = cname.to_str() else {
        return core::ptr::null_mut();
    };
    let Some(codec) = registry::by_name(s) else {
        return core::ptr::null_mut();
    };
    let sorted = registry::sorted_by_name(s, Some(codec.isa()));
    let direct = Direct::of(codec.as_ref());
    Box::into_raw(Box::new(IntcodecCodec {
        codec,
        sorted,
        name: cname.to_owned(),
        direct,
    }))
}

/// Frees a codec from `intcodec_codec_new` (NULL is ignored).
///
/// # Safety
/// `codec` is NULL or from `intcodec_codec_new`, not freed before.
#[no_mangle]
pub unsafe extern "C" fn intcodec_codec_free(codec: *mut IntcodecCodec) {
    if !codec.is_null() {
        // SAFETY: the caller's contract: made by `Box::into_raw` above.
        drop(unsafe { Box::from_raw(codec) });
    }
}

/// # Safety
/// `codec` is NULL or a live handle.
unsafe fn handle<'a>(codec: *const IntcodecCodec) -> Option<&'a IntcodecCodec> {
    // SAFETY: the caller's contract.
    unsafe { codec.as_ref() }
}

/// The live handle behind `codec` when it and the out-pointer `out` are
/// both non-NULL; else `INTCODEC_ERR_NULL` (the handle checked first).
///
/// # Safety
/// `codec` is NULL or a live handle.
#[inline(always)]
unsafe fn handle_and_out<'a, T>(
    codec: *const IntcodecCodec,
    out: *mut T,
) -> Result<&'a IntcodecCodec, IntcodecStatus> {
    // SAFETY: forwarded contract.
    let Some(c) = (unsafe { handle(codec) }) else {
        return Err(err(INTCODEC_ERR_NULL));
    };
    if out.is_null() {
        return Err(err(INTCODEC_ERR_NULL));
    }
    Ok(c)
}

/// An entry point that answers a length in `*len`: `INTCODEC_ERR_NULL` for
/// a NULL `codec` or `len`, else what `f` says of the codec: its length,
/// written to `*len` (`INTCODEC_OK`), or the status to return (`*len`
/// untouched).
///
/// # Safety
/// `codec` NULL or live; `len` NULL or writable.
#[inline(always)]
unsafe fn answer_len(
    codec: *const IntcodecCodec,
    len: *mut usize,
    f: impl FnOnce(&IntcodecCodec) -> Result<usize, IntcodecStatus>,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    let c = match unsafe { handle_and_out(codec, len) } {
        Ok(c) => c,
        Err(s) => return s,
    };
    match f(c) {
        Ok(m) => {
            // SAFETY: `len` is writable (contract), checked non-NULL.
            unsafe { len.write(m) };
            ok()
        }
        Err(s) => s,
    }
}

/// The codec's name (NULL for a NULL handle).
///
/// # Safety
/// `codec` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn intcodec_codec_name(codec: *const IntcodecCodec) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { handle(codec) }.map_or(core::ptr::null(), |c| c.name.as_ptr())
}

/// The instruction set of the codec's kernel (NULL for a NULL handle).
///
/// # Safety
/// `codec` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn intcodec_codec_isa_name(codec: *const IntcodecCodec) -> *const c_char {
    // SAFETY: forwarded contract.
    unsafe { handle(codec) }.map_or(core::ptr::null(), |c| isa_cstr(c.codec.isa()).as_ptr())
}

/// 1 if the codec has delta encode/decode, 0 if not (or NULL).
///
/// # Safety
/// `codec` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn intcodec_codec_supports_delta(codec: *const IntcodecCodec) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { handle(codec) }.map_or(0, |c| c.codec.supports_delta() as c_int)
}

/// 1 if the codec has select / lower_bound, 0 if not (or NULL).
///
/// # Safety
/// `codec` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn intcodec_codec_is_sorted(codec: *const IntcodecCodec) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { handle(codec) }.map_or(0, |c| c.sorted.is_some() as c_int)
}

/// Longest encoding of `n` values, in `*len`. `INTCODEC_ERR_INVALID` on
/// overflow.
///
/// # Safety
/// `codec` NULL or live; `len` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn intcodec_max_compressed_len(
    codec: *const IntcodecCodec,
    n: usize,
    len: *mut usize,
) -> IntcodecStatus {
    let f = |c: &IntcodecCodec| match c.codec.max_compressed_len(n) {
        Some(m) if m <= isize::MAX as usize => Ok(m),
        _ => Err(err(INTCODEC_ERR_INVALID)),
    };
    // SAFETY: forwarded contract.
    unsafe { answer_len(codec, len, f) }
}

/// Checks the buffers common to every call; `None` when they are fine.
fn check(data_null: bool, data_len: usize, elem: usize) -> Option<IntcodecStatus> {
    if data_null && data_len > 0 {
        return Some(err(INTCODEC_ERR_NULL));
    }
    if data_len > isize::MAX as usize / elem {
        return Some(err(INTCODEC_ERR_INVALID));
    }
    None
}

/// # Safety
/// As `intcodec_encode`.
unsafe fn encode_impl(
    codec: *const IntcodecCodec,
    vals: *const u32,
    n: usize,
    prev: Option<u32>,
    out: *mut u8,
    out_cap: usize,
    written: *mut usize,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    let (c, v, o) = match unsafe { buffers(codec, written, vals, n, out, out_cap) } {
        Ok(b) => b,
        Err(s) => return s,
    };
    let r = c.codec.encode_opt(v, prev, o);
    // SAFETY: `buffers` checked `written` non-NULL; writable (contract).
    unsafe { finish(r.map_err(from_encode), written) }
}

/// The handle and the two buffers of a call from `src` to `dst`, checked
/// (a NULL handle or `result`, a NULL buffer of non-zero length, a size
/// past `isize::MAX`) and made slices once; else the status to return.
///
/// # Safety
/// `codec` NULL or live; `src` valid for `src_len` reads and `dst` for
/// `dst_len` writes (either may be NULL when its length is 0), neither
/// accessed otherwise during `'a`.
#[inline(always)]
unsafe fn buffers<'a, S, D>(
    codec: *const IntcodecCodec,
    result: *mut usize,
    src: *const S,
    src_len: usize,
    dst: *mut D,
    dst_len: usize,
) -> Result<(&'a IntcodecCodec, &'a [S], &'a mut [D]), IntcodecStatus> {
    // SAFETY: forwarded contract.
    let c = unsafe { handle_and_out(codec, result) }?;
    let (s, d) = (size_of::<S>(), size_of::<D>());
    if let Some(s) = check(src.is_null(), src_len, s).or(check(dst.is_null(), dst_len, d)) {
        return Err(s);
    }
    // SAFETY: `src` holds `src_len` elements (contract); size checked.
    let src = unsafe { values(src, src_len) };
    // SAFETY: `dst` holds `dst_len` elements (contract); size checked.
    let dst = unsafe { values_mut(dst, dst_len) };
    Ok((c, src, dst))
}

/// Stores a call's byte count at `result` and returns `INTCODEC_OK`, or
/// returns the error's status.
///
/// # Safety
/// `result` is writable.
#[inline(always)]
unsafe fn finish(r: Result<usize, IntcodecStatus>, result: *mut usize) -> IntcodecStatus {
    match r {
        Ok(k) => {
            // SAFETY: the caller's contract.
            unsafe { result.write(k) };
            ok()
        }
        Err(s) => s,
    }
}

/// Encodes `n` values into `out` (`out_cap` bytes; the codec may use all
/// of `intcodec_max_compressed_len` as scratch, and needs at least the
/// encoded length); the encoded length goes to `*written`. Too small:
/// `INTCODEC_ERR_OUTPUT_TOO_SMALL` with `offset` = bytes needed.
///
/// # Safety
/// `codec` NULL or live; `values` valid for `n` reads, `out` for `out_cap`
/// writes (either may be NULL when its length is 0); `written` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn intcodec_encode(
    codec: *const IntcodecCodec,
    values: *const u32,
    n: usize,
    out: *mut u8,
    out_cap: usize,
    written: *mut usize,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    unsafe { encode_impl(codec, values, n, None, out, out_cap, written) }
}

/// `intcodec_encode` of the differences from `prev` (`x[-1] = prev`).
///
/// # Safety
/// As `intcodec_encode`.
#[no_mangle]
pub unsafe extern "C" fn intcodec_encode_delta(
    codec: *const IntcodecCodec,
    values: *const u32,
    n: usize,
    prev: u32,
    out: *mut u8,
    out_cap: usize,
    written: *mut usize,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    unsafe { encode_impl(codec, values, n, Some(prev), out, out_cap, written) }
}

/// # Safety
/// As `intcodec_decode`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn decode_impl(
    codec: *const IntcodecCodec,
    input: *const u8,
    in_len: usize,
    n: usize,
    prev: Option<u32>,
    out: *mut u32,
    out_cap: usize,
    consumed: *mut usize,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    let (c, i, o) = match unsafe { buffers(codec, consumed, input, in_len, out, out_cap) } {
        Ok(b) => b,
        Err(s) => return s,
    };
    if (1..=small::VBYTE_MAX).contains(&n) && out_cap >= n {
        // Short lists: decoded here when whole and well-formed; anything
        // else goes to the core below, which reports it.
        let o = &mut o[..n];
        let done = match c.direct {
            Direct::StreamVByte(d) if n <= small::SVB_MAX => {
                let lens = match d.variant() {
                    Variant::V1234 => &SVB_1234,
                    Variant::V0124 => &SVB_0124,
                };
                small::svb(lens, i, o, prev)
            }
            Direct::VByte(_) => small::vbyte(|k| i.get(k).copied(), o, prev),
            _ => None,
        };
        if let Some(k) = done {
            // SAFETY: `buffers` checked `consumed` non-NULL; writable
            // (contract).
            return unsafe { finish(Ok(k), consumed) };
        }
    }
    let r = match (c.direct, prev) {
        (Direct::StreamVByte(d), None) => d.decode(i, n, o),
        (Direct::StreamVByte(d), Some(p)) => d.decode_delta(i, n, p, o),
        (Direct::VByte(d), None) => d.decode(i, n, o),
        (Direct::VByte(d), Some(p)) => d.decode_delta(i, n, p, o),
        (Direct::None, None) => c.codec.decode(i, n, o),
        (Direct::None, Some(p)) => c.codec.decode_delta(i, n, p, o),
    };
    // SAFETY: `buffers` checked `consumed` non-NULL; writable (contract).
    unsafe { finish(r.map_err(from_decode), consumed) }
}

/// Decodes `n` values from the `in_len` bytes at `input` into `out`
/// (`out_cap` values, at least `n`); the bytes used go to `*consumed`.
/// Any input gives `INTCODEC_OK` or an error with the byte `offset` and
/// value `index` where decoding failed; nothing outside the buffers is read
/// or written, and nothing is allocated.
///
/// # Safety
/// `codec` NULL or live; `input` valid for `in_len` reads, `out` for
/// `out_cap` writes (either may be NULL when its length is 0); `consumed`
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn intcodec_decode(
    codec: *const IntcodecCodec,
    input: *const u8,
    in_len: usize,
    n: usize,
    out: *mut u32,
    out_cap: usize,
    consumed: *mut usize,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    unsafe { decode_impl(codec, input, in_len, n, None, out, out_cap, consumed) }
}

/// `intcodec_decode` of delta-coded values (prefix sums from `prev`).
///
/// # Safety
/// As `intcodec_decode`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn intcodec_decode_delta(
    codec: *const IntcodecCodec,
    input: *const u8,
    in_len: usize,
    n: usize,
    prev: u32,
    out: *mut u32,
    out_cap: usize,
    consumed: *mut usize,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    unsafe { decode_impl(codec, input, in_len, n, Some(prev), out, out_cap, consumed) }
}

/// Length in bytes of the stream of `n` values at `input`, in `*len`
/// (read from its headers; errors as `intcodec_decode`).
///
/// # Safety
/// `codec` NULL or live; `input` valid for `in_len` reads; `len` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn intcodec_encoded_len(
    codec: *const IntcodecCodec,
    input: *const u8,
    in_len: usize,
    n: usize,
    len: *mut usize,
) -> IntcodecStatus {
    let f = |c: &IntcodecCodec| {
        if let Some(s) = check(input.is_null(), in_len, 1) {
            return Err(s);
        }
        // SAFETY: `input` holds `in_len` bytes (contract); size checked.
        let i = unsafe { bytes(input, in_len) };
        c.codec.encoded_len(i, n).map_err(from_decode)
    };
    // SAFETY: forwarded contract.
    unsafe { answer_len(codec, len, f) }
}

/// # Safety
/// `codec` NULL or live.
unsafe fn sorted_of<'a>(
    codec: *const IntcodecCodec,
) -> Result<&'a dyn SortedCodec, IntcodecStatus> {
    // SAFETY: forwarded contract.
    let c = unsafe { handle(codec) }.ok_or(err(INTCODEC_ERR_NULL))?;
    c.sorted.as_deref().ok_or(err(INTCODEC_ERR_UNSUPPORTED))
}

/// Value `i` of a delta-coded stream of `n` values (encoded from `prev`)
/// into `*value`. `INTCODEC_NOT_FOUND` when `i >= n`;
/// `INTCODEC_ERR_UNSUPPORTED` when the codec has no sorted operations.
///
/// # Safety
/// `codec` NULL or live; `input` valid for `in_len` reads; `value` NULL or
/// writable.
#[no_mangle]
pub unsafe extern "C" fn intcodec_select(
    codec: *const IntcodecCodec,
    input: *const u8,
    in_len: usize,
    n: usize,
    prev: u32,
    i: usize,
    value: *mut u32,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    let s = match unsafe { sorted_of(codec) } {
        Ok(s) => s,
        Err(e) => return e,
    };
    if value.is_null() {
        return err(INTCODEC_ERR_NULL);
    }
    if let Some(st) = check(input.is_null(), in_len, 1) {
        return st;
    }
    // SAFETY: `input` holds `in_len` bytes (contract); size checked.
    let bytes_in = unsafe { bytes(input, in_len) };
    match s.select(bytes_in, n, prev, i) {
        Ok(Some(v)) => {
            // SAFETY: `value` is writable (contract), non-NULL.
            unsafe { value.write(v) };
            ok()
        }
        Ok(None) => status(INTCODEC_NOT_FOUND, 0, i),
        Err(e) => from_decode(e),
    }
}

/// Index and value of the first value `>= key` of a delta-coded stream of
/// `n` values into `*index` and `*value`. `INTCODEC_NOT_FOUND` (with
/// `*index = n`, `*value` untouched) when every value is below `key`.
///
/// # Safety
/// `codec` NULL or live; `input` valid for `in_len` reads; `index` and
/// `value` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn intcodec_lower_bound(
    codec: *const IntcodecCodec,
    input: *const u8,
    in_len: usize,
    n: usize,
    prev: u32,
    key: u32,
    index: *mut usize,
    value: *mut u32,
) -> IntcodecStatus {
    // SAFETY: forwarded contract.
    let s = match unsafe { sorted_of(codec) } {
        Ok(s) => s,
        Err(e) => return e,
    };
    if value.is_null() || index.is_null() {
        return err(INTCODEC_ERR_NULL);
    }
    if let Some(st) = check(input.is_null(), in_len, 1) {
        return st;
    }
    // SAFETY: `input` holds `in_len` bytes (contract); size checked.
    let bytes_in = unsafe { bytes(input, in_len) };
    match s.lower_bound(bytes_in, n, prev, key) {
        Ok(Some((i, v))) => {
            // SAFETY: `index` is writable (contract), non-NULL.
            unsafe { index.write(i) };
            // SAFETY: `value` is writable (contract), non-NULL.
            unsafe { value.write(v) };
            ok()
        }
        Ok(None) => {
            // SAFETY: `index` is writable (contract), non-NULL.
            unsafe { index.write(n) };
            status(INTCODEC_NOT_FOUND, 0, n)
        }
        Err(e) => from_decode(e),
    }
}

/// A short description of a status code ("input truncated", ...).
#[no_mangle]
pub extern "C" fn intcodec_status_message(code: c_int) -> *const c_char {
    let s: &CStr = match code {
        INTCODEC_OK => c"ok",
        INTCODEC_NOT_FOUND => c"not found",
        INTCODEC_ERR_NULL => c"null pointer argument",
        INTCODEC_ERR_INVALID => c"invalid argument (size overflow)",
        INTCODEC_ERR_TRUNCATED => c"input truncated",
        INTCODEC_ERR_OUTPUT_TOO_SMALL => c"output buffer too small",
        INTCODEC_ERR_OVERLONG => c"varint longer than its type allows",
        INTCODEC_ERR_OVERFLOW => c"varint value too large for its type",
        INTCODEC_ERR_MALFORMED => c"malformed input",
        INTCODEC_ERR_UNSUPPORTED => c"operation not supported by this codec",
        _ => c"unknown status code",
    };
    s.as_ptr()
}
