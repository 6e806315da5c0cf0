//! Drop-in ABI of lemire/streamvbyte (`streamvbyte.h`, `streamvbytedelta.h`,
//! `streamvbyte_zigzag.h`): the same symbols, signatures and results, over
//! [`intcodec::streamvbyte::StreamVByte`].
//!
//! These functions take no input length (the reference's contract: `in`
//! holds a whole stream of `length` values). The "1234" decoders (plain,
//! delta, zigzag) make one call to the core's trusted-count decoder
//! ([`StreamVByte::decode_counted`]), whose loads stay inside the stream
//! because every value still to come takes a data byte at least. The
//! "0124" decoder reads the `ceil(length/4)` control bytes, takes the
//! stream length they announce (summed with SIMD, [`crate::scan`], reading
//! only the control bytes), and decodes that exact slice. Either way
//! nothing past the stream is read, so no padding is needed.
//! Every bit pattern is a valid Stream VByte stream, so these decoders have
//! no error to report. NULL pointers (with a non-zero length) make them
//! return 0 without touching anything.
//!
//! Lists of at most four values (one control byte) are decoded directly
//! ([`crate::small`]), inside the length the control byte announces: for
//! them the length pass and the core decoder's set-up cost more than the
//! decoding (the 1-int target of issue 19).

use std::sync::OnceLock;

use intcodec::streamvbyte::{control_len, StreamVByte, Variant};
use intcodec::{zigzag, IntCodec};

use crate::scan::{self, Level, SvbLens, SVB_0124, SVB_1234};
use crate::{bytes, small, values, values_mut};

/// One variant's drop-in state, made on first use: the core codec (best
/// kernel within the `INTCODEC_ISA` cap) and the length scan's level.
struct Dropin {
    codec: StreamVByte,
    level: Level,
}

impl Dropin {
    fn new(variant: Variant) -> Dropin {
        let codec = StreamVByte::new().with_variant(variant);
        Dropin {
            codec,
            level: Level::for_isa(codec.isa()),
        }
    }
}

#[inline(always)]
fn dropin(variant: Variant) -> &'static Dropin {
    static V1234: OnceLock<Dropin> = OnceLock::new();
    static V0124: OnceLock<Dropin> = OnceLock::new();
    match variant {
        Variant::V1234 => V1234.get_or_init(|| Dropin::new(Variant::V1234)),
        Variant::V0124 => V0124.get_or_init(|| Dropin::new(Variant::V0124)),
    }
}

fn codec(variant: Variant) -> &'static StreamVByte {
    &dropin(variant).codec
}

#[inline(always)]
fn lens(variant: Variant) -> &'static SvbLens {
    match variant {
        Variant::V1234 => &SVB_1234,
        Variant::V0124 => &SVB_0124,
    }
}

/// Encodes `length` values at `input` into `out` (room for
/// `streamvbyte_max_compressedbytes(length)` bytes); returns bytes written.
///
/// # Safety
/// `input` valid for `length` reads, `out` for the maximum length in bytes.
#[inline(always)]
unsafe fn encode(
    variant: Variant,
    input: *const u32,
    length: u32,
    out: *mut u8,
    prev: Option<u32>,
) -> usize {
    let n = length as usize;
    if n == 0 || input.is_null() || out.is_null() {
        return 0;
    }
    let c = codec(variant);
    let max = intcodec::streamvbyte::max_compressed_len(n);
    // SAFETY: the caller's contract: `input` holds `length` values.
    let vals = unsafe { values(input, n) };
    // SAFETY: the caller's contract: `out` holds the maximum length (the
    // reference asks for `streamvbyte_max_compressedbytes(length)`).
    let out = unsafe { values_mut(out, max) };
    let r = c.encode_opt(vals, prev, out);
    // `out` has the maximum length: encoding cannot fail.
    r.unwrap_or(0)
}

/// Decodes `length` values from the stream at `input` into `out`; returns
/// the stream's length in bytes.
///
/// # Safety
/// `input` holds a stream of `length` values (its control bytes, then the
/// data bytes they announce); `out` is valid for `length` writes.
#[inline(always)]
unsafe fn decode(
    variant: Variant,
    input: *const u8,
    out: *mut u32,
    length: u32,
    prev: Option<u32>,
) -> usize {
    let n = length as usize;
    if n == 0 || input.is_null() || out.is_null() {
        return 0;
    }
    if n <= small::SVB_MAX {
        // SAFETY: a stream of `n >= 1` values starts with its control byte.
        let key = unsafe { input.read() };
        let total =
            scan::svb_stream_len(lens(variant), Level::Scalar, core::slice::from_ref(&key), n);
        // SAFETY: the stream is the control byte and the data bytes it
        // announces for its first `n` codes: `total` bytes (the contract).
        let stream = unsafe { bytes(input, total) };
        // SAFETY: the caller's contract: `out` holds `n` values.
        let out = unsafe { values_mut(out, n) };
        // The whole stream is in `stream`: this cannot fail.
        return small::svb(lens(variant), stream, out, prev).unwrap_or(0);
    }
    let d = dropin(variant);
    if variant == Variant::V1234 {
        // SAFETY: the caller's contract: `out` holds `length` values.
        let out = unsafe { values_mut(out, n) };
        // One pass, no length scan: every "1234" value takes a data byte
        // at least, so the core's trusted-count decoder bounds its loads
        // by the values still to come.
        let r = match prev {
            // SAFETY: `input` holds a "1234" stream of `n` values (the
            // caller's contract, `decode_counted`'s).
            None => unsafe { d.codec.decode_counted(input, n, out) },
            // SAFETY: as above.
            Some(p) => unsafe { d.codec.decode_delta_counted(input, n, p, out) },
        };
        // `out` has `n` slots and every bit pattern decodes: no error.
        return r.unwrap_or(0);
    }
    // "0124" (zeros take no data byte, so the count bounds nothing): the
    // stream's length first. SAFETY: a stream of `n` values starts with its
    // `ceil(n / 4)` control bytes (the caller's contract).
    let keys = unsafe { bytes(input, control_len(n)) };
    let total = scan::svb_stream_len(lens(variant), d.level, keys, n);
    // SAFETY: the stream is the control bytes and the data bytes they
    // announce: `total` bytes (the caller's contract).
    let stream = unsafe { bytes(input, total) };
    // SAFETY: the caller's contract: `out` holds `length` values.
    let out = unsafe { values_mut(out, n) };
    let r = d.codec.decode_opt(stream, n, prev, out);
    // The whole stream is in `stream`: every bit pattern decodes.
    r.unwrap_or(0)
}

/// Exact compressed length of `length` values.
///
/// # Safety
/// `input` valid for `length` reads.
unsafe fn compressed_len(variant: Variant, input: *const u32, length: u32) -> usize {
    let n = length as usize;
    if n == 0 || input.is_null() {
        return control_len(n);
    }
    // SAFETY: the caller's contract: `input` holds `length` values.
    let vals = unsafe { values(input, n) };
    codec(variant).compressed_len(vals)
}

/// `streamvbyte_encode`: Stream VByte ("1234") encoding of `length` values.
///
/// # Safety
/// `input` holds `length` values; `out` has room for
/// `streamvbyte_max_compressedbytes(length)` bytes.
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_encode(input: *const u32, length: u32, out: *mut u8) -> usize {
    // SAFETY: forwarded contract.
    unsafe { encode(Variant::V1234, input, length, out, None) }
}

/// `streamvbyte_encode_0124`: the "0124" variant.
///
/// # Safety
/// As [`streamvbyte_encode`].
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_encode_0124(
    input: *const u32,
    length: u32,
    out: *mut u8,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { encode(Variant::V0124, input, length, out, None) }
}

/// `streamvbyte_delta_encode`: differences from `prev`, then "1234".
///
/// # Safety
/// As [`streamvbyte_encode`].
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_delta_encode(
    input: *const u32,
    length: u32,
    out: *mut u8,
    prev: u32,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { encode(Variant::V1234, input, length, out, Some(prev)) }
}

/// `streamvbyte_decode`: returns the bytes read.
///
/// # Safety
/// `input` holds a stream of `length` values; `out` has `length` slots.
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_decode(input: *const u8, out: *mut u32, length: u32) -> usize {
    // SAFETY: forwarded contract.
    unsafe { decode(Variant::V1234, input, out, length, None) }
}

/// `streamvbyte_decode_0124`.
///
/// # Safety
/// As [`streamvbyte_decode`].
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_decode_0124(
    input: *const u8,
    out: *mut u32,
    length: u32,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { decode(Variant::V0124, input, out, length, None) }
}

/// `streamvbyte_delta_decode`: decodes and prefix-sums from `prev`.
///
/// # Safety
/// As [`streamvbyte_decode`].
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_delta_decode(
    input: *const u8,
    out: *mut u32,
    length: u32,
    prev: u32,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { decode(Variant::V1234, input, out, length, Some(prev)) }
}

/// `streamvbyte_compressedbytes`: exact "1234" length of `length` values.
///
/// # Safety
/// `input` holds `length` values.
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_compressedbytes(input: *const u32, length: u32) -> usize {
    // SAFETY: forwarded contract.
    unsafe { compressed_len(Variant::V1234, input, length) }
}

/// `streamvbyte_compressedbytes_0124`.
///
/// # Safety
/// `input` holds `length` values.
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_compressedbytes_0124(input: *const u32, length: u32) -> usize {
    // SAFETY: forwarded contract.
    unsafe { compressed_len(Variant::V0124, input, length) }
}

/// `streamvbyte_validate_stream`: whether the `in_len` bytes at `input` are
/// exactly a "1234" stream of `out_len` values. Reads only those bytes.
///
/// # Safety
/// `input` valid for `in_len` reads.
#[no_mangle]
pub unsafe extern "C" fn streamvbyte_validate_stream(
    input: *const u8,
    in_len: usize,
    out_len: u32,
) -> bool {
    if in_len == 0 || out_len == 0 {
        return in_len == out_len as usize;
    }
    if input.is_null() || in_len > isize::MAX as usize {
        return false;
    }
    // SAFETY: the caller's contract: `input` holds `in_len` bytes.
    let stream = unsafe { bytes(input, in_len) };
    codec(Variant::V1234).encoded_len(stream, out_len as usize) == Ok(in_len)
}

/// Runs `f` over `n` values at `input` and `n` at `out`, which may be the
/// same array (in place) but must not otherwise overlap. `f` sees the
/// input and the output as slices that never overlap, in order: all at
/// once, or, in place, block by block with each input block copied out
/// first (so `f` may carry state, such as the previous value, from one
/// call to the next).
///
/// # Safety
/// `input` valid for `n` reads, `out` for `n` writes.
unsafe fn zigzag_io<A: Copy + Default, B>(
    input: *const A,
    out: *mut B,
    n: usize,
    mut f: impl FnMut(&[A], &mut [B]),
) {
    const BLOCK: usize = 256;
    if n == 0 || input.is_null() || out.is_null() || n > isize::MAX as usize / 4 {
        return;
    }
    if input.cast::<u8>() != out.cast::<u8>() {
        // SAFETY: distinct arrays (no overlap, contract), `input` readable.
        let a = unsafe { values(input, n) };
        // SAFETY: `out` writable for `n` values (contract).
        let b = unsafe { values_mut(out, n) };
        return f(a, b);
    }
    let mut copy = [A::default(); BLOCK];
    for at in (0..n).step_by(BLOCK) {
        let len = BLOCK.min(n - at);
        // SAFETY: `input + at` is `len` readable values of the one array
        // (contract), copied to the stack before anything writes them; no
        // reference to that memory is alive.
        unsafe { core::ptr::copy_nonoverlapping(input.wrapping_add(at), copy.as_mut_ptr(), len) };
        // SAFETY: the same `len` values, writable (contract); the only
        // reference to them until `f` returns.
        let block = unsafe { values_mut(out.wrapping_add(at), len) };
        f(&copy[..len], block);
    }
}

/// `zigzag_encode`: `out[i] = zigzag(in[i])`.
///
/// # Safety
/// `input`, `out` valid for `n` values; the same array or disjoint.
#[no_mangle]
pub unsafe extern "C" fn zigzag_encode(input: *const i32, out: *mut u32, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { zigzag_io(input, out, n, zigzag::encode_slice_i32) }
}

/// [`zigzag_io`] for a delta coder: `code` from `prev`, then from the
/// running value of each block, which `last` reads off the block (the last
/// input of an encoder, the last output of a decoder).
///
/// # Safety
/// As [`zigzag_io`].
unsafe fn zigzag_delta<A: Copy + Default, B>(
    input: *const A,
    out: *mut B,
    n: usize,
    mut prev: i32,
    code: fn(&[A], &mut [B], i32),
    last: fn(&[A], &[B]) -> i32,
) {
    let f = |a: &[A], b: &mut [B]| {
        code(a, b, prev);
        prev = last(a, b);
    };
    // SAFETY: forwarded contract.
    unsafe { zigzag_io(input, out, n, f) }
}

/// `zigzag_delta_encode`: `out[i] = zigzag(in[i] - in[i-1])`, `in[-1] = prev`.
///
/// # Safety
/// As [`zigzag_encode`].
#[no_mangle]
pub unsafe extern "C" fn zigzag_delta_encode(src: *const i32, out: *mut u32, n: usize, prev: i32) {
    let code = zigzag::delta_encode_slice_i32;
    // SAFETY: forwarded contract.
    unsafe { zigzag_delta(src, out, n, prev, code, |a, _| a[a.len() - 1]) }
}

/// `zigzag_decode`: `out[i] = unzigzag(in[i])`.
///
/// # Safety
/// As [`zigzag_encode`].
#[no_mangle]
pub unsafe extern "C" fn zigzag_decode(input: *const u32, out: *mut i32, n: usize) {
    // SAFETY: forwarded contract.
    unsafe { zigzag_io(input, out, n, zigzag::decode_slice_i32) }
}

/// `zigzag_delta_decode`: prefix sums of `unzigzag(in[i])` from `prev`.
///
/// # Safety
/// As [`zigzag_encode`].
#[no_mangle]
pub unsafe extern "C" fn zigzag_delta_decode(src: *const u32, out: *mut i32, n: usize, prev: i32) {
    let code = zigzag::delta_decode_slice_i32;
    // SAFETY: forwarded contract.
    unsafe { zigzag_delta(src, out, n, prev, code, |_, b| b[b.len() - 1]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In place (several of `zigzag_io`'s blocks, and a partial one) gives
    /// what two arrays give, for each of the four functions.
    #[test]
    fn zigzag_in_place_matches_two_arrays() {
        let mut rng = intcodec_testkit::SplitMix64::new(0x7A6);
        for n in [1, 255, 256, 257, 1000] {
            let s: Vec<i32> = (0..n).map(|_| rng.next_u32() as i32 >> (n % 29)).collect();
            let mut u = vec![0u32; n];
            let mut back = vec![0i32; n];
            let mut inplace = s.clone();
            let p = inplace.as_mut_ptr();
            let (src, dst, back_p) = (s.as_ptr(), u.as_mut_ptr(), back.as_mut_ptr());
            // SAFETY: two arrays of `n` values here, one (in place) in the
            // next call; the same for each pair below.
            unsafe { zigzag_encode(src, dst, n) };
            // SAFETY: as above.
            unsafe { zigzag_encode(p, p.cast(), n) };
            assert_eq!(inplace, u.iter().map(|&v| v as i32).collect::<Vec<_>>());
            // SAFETY: as above.
            unsafe { zigzag_decode(dst, back_p, n) };
            // SAFETY: as above.
            unsafe { zigzag_decode(p.cast(), p, n) };
            assert_eq!((&back, &inplace), (&s, &s), "n={n}");

            // SAFETY: as above.
            unsafe { zigzag_delta_encode(src, dst, n, -3) };
            // SAFETY: as above.
            unsafe { zigzag_delta_encode(p, p.cast(), n, -3) };
            assert_eq!(inplace, u.iter().map(|&v| v as i32).collect::<Vec<_>>());
            // SAFETY: as above.
            unsafe { zigzag_delta_decode(dst, back_p, n, -3) };
            // SAFETY: as above.
            unsafe { zigzag_delta_decode(p.cast(), p, n, -3) };
            assert_eq!((&back, &inplace), (&s, &s), "delta n={n}");
        }
    }
}
