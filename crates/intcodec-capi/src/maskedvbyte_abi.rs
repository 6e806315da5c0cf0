//! Drop-in ABI of MaskedVByte (`varintencode.h`, `varintdecode.h`): the same
//! symbols, signatures and results, over [`intcodec::vbyte::VByte`].
//!
//! `masked_vbyte_decode*` (a value count, no input length) make one call to
//! the core's trusted-count decoder ([`VByte::decode_counted`]), which reads
//! only bytes a valid stream of `length` values holds (at most `5 *
//! length` whatever the bytes are): no length pass, no padding. Select and
//! search first find where the values they need end ([`stream_len`], value
//! ends counted with SIMD by [`crate::scan`] inside windows proved to lie in
//! the stream), then call the core on that exact slice. Lists of at most
//! [`small::VBYTE_MAX`] values
//! are decoded directly, byte by byte in one pass ([`crate::small`]; the
//! 1-int target of issue 19): each byte is read only once the values before
//! it are known not to have ended, so that pass too stays inside the stream.
//!
//! On a bad stream (a value of more than 5 bytes, or a 5th byte above
//! `0x0F`) the decoders stop at the first bad value: the values before it
//! are decoded, the remaining output slots are set to 0, and the return
//! value counts only what precedes the bad value (bytes for
//! `masked_vbyte_decode*`, values for `*_fromcompressedsize*`). NULL
//! pointers make them return 0 (`masked_vbyte_search_delta`: -1).

use std::sync::OnceLock;

use intcodec::vbyte::VByte;
use intcodec::{IntCodec, SortedCodec};

use crate::scan::{self, Level};
use crate::{bytes, small, values, values_mut};

/// The drop-in's state, made on first use: the core codec (best kernel
/// within the `INTCODEC_ISA` cap) and the scan's level.
struct Dropin {
    codec: VByte,
    level: Level,
}

#[inline(always)]
fn dropin() -> &'static Dropin {
    static C: OnceLock<Dropin> = OnceLock::new();
    C.get_or_init(|| {
        let codec = VByte::new();
        Dropin {
            codec,
            level: Level::for_isa(codec.isa()),
        }
    })
}

#[inline(always)]
fn codec() -> &'static VByte {
    &dropin().codec
}

/// The byte length of the first `n` values of the stream at `p`, and how
/// many complete values that is (`n`, or fewer when a value longer than 5
/// bytes stops the scan there).
///
/// Only bytes a valid stream of `n` values holds are read, and never more
/// than `5 * n`: from offset `off` with `rem` values to go, the next `rem`
/// bytes belong to the stream (each value takes at least one byte); the
/// complete values among them are consumed at once. When they hold no value
/// end, the next value is longer than `rem` bytes and is read on byte by
/// byte, at most to its 5th byte. The invariant `off <= 5 * done` keeps
/// every read within `5 * n` bytes whatever the bytes are.
///
/// # Safety
/// `p` holds a stream of `n` values (the reference's contract), or at least
/// `5 * n` readable bytes.
#[inline(always)]
unsafe fn stream_len(p: *const u8, n: usize) -> (usize, usize) {
    let Dropin { codec: c, level } = dropin();
    let (mut off, mut done) = (0usize, 0usize);
    while done < n {
        let rem = n - done;
        // SAFETY: each of the `rem` values still to come takes at least one
        // byte, so the stream holds `rem` bytes from `off` (see above).
        let win = unsafe { bytes(p.wrapping_add(off), rem) };
        match win.iter().rposition(|&b| b < 0x80) {
            Some(last) => {
                let end = last + 1;
                let found = scan::vbyte_ends(*level, &win[..end]);
                if end > 5 * found {
                    // A value longer than 5 bytes: stop before it.
                    let good = c
                        .skip(&win[..end], found)
                        .err()
                        .map_or(0, |e| e.index().unwrap_or(0).min(found));
                    let used = c.skip(&win[..end], good).unwrap_or(0);
                    return (off + used, done + good);
                }
                off += end;
                done += found;
            }
            None => {
                // `win` is one value's continuation bytes so far.
                let mut k = rem;
                loop {
                    if k >= 5 {
                        return (off, done);
                    }
                    // SAFETY: bytes `off .. off + k` continue one value, so
                    // a valid stream holds byte `off + k`; `k < 5`.
                    let b = unsafe { p.wrapping_add(off + k).read() };
                    k += 1;
                    if b < 0x80 {
                        break;
                    }
                }
                off += k;
                done += 1;
            }
        }
    }
    (off, done)
}

/// Decodes the first `n` values at `input` into `out`.
///
/// # Safety
/// `input` holds a stream of `n` values; `out` has `n` slots.
#[inline(always)]
unsafe fn decode(input: *const u8, out: *mut u32, n: u64, prev: Option<u32>) -> usize {
    if n == 0 || input.is_null() || out.is_null() || n > (isize::MAX as u64) / 5 {
        return 0;
    }
    let n = n as usize;
    // SAFETY: the caller's contract: `out` holds `n` values.
    let out = unsafe { values_mut(out, n) };
    if n <= small::VBYTE_MAX {
        let byte = |off: usize| {
            // SAFETY: `small::vbyte` asks only for a byte that a valid
            // stream of `n` values holds, at an offset below `5 * n` (its
            // contract); `input` holds such a stream or `5 * n` bytes.
            Some(unsafe { input.wrapping_add(off).read() })
        };
        if let Some(used) = small::vbyte(byte, out, prev) {
            return used;
        }
        // A bad value: the general path below reports it as documented.
    }
    let c = codec();
    let r = match prev {
        // SAFETY: forwarded contract (`decode_counted`'s: a stream of `n`
        // values, or `5 * n` readable bytes; `5 * n <= isize::MAX` above).
        None => unsafe { c.decode_counted(input, n, out) },
        // SAFETY: as above.
        Some(p) => unsafe { c.decode_delta_counted(input, n, p, out) },
    };
    match r {
        Ok(used) => used,
        Err(e) => {
            // A bad value: the values before it are decoded; zero the rest.
            let good = e.index().unwrap_or(0).min(n);
            out[good..].fill(0);
            e.offset()
        }
    }
}

/// Decodes the whole `size`-byte stream at `input`; returns the count.
///
/// # Safety
/// `input` holds `size` bytes; `out` has a slot per value in them.
#[inline(always)]
unsafe fn decode_sized(input: *const u8, out: *mut u32, size: usize, prev: Option<u32>) -> usize {
    if size == 0 || input.is_null() || out.is_null() || size > isize::MAX as usize / 4 {
        return 0;
    }
    // SAFETY: the caller's contract: `input` holds `size` bytes.
    let stream = unsafe { bytes(input, size) };
    let c = codec();
    let n = c.count(stream);
    // SAFETY: the caller's contract: `out` holds a slot per value, and a
    // value is a byte below 0x80 plus continuation bytes.
    let out = unsafe { values_mut(out, n) };
    let r = match prev {
        None => c.decode_all(stream, out),
        Some(p) => c.decode_delta_all(stream, p, out),
    };
    match r {
        Ok(k) => k,
        Err(e) => {
            let good = e.index().unwrap_or(0).min(n);
            let s = &stream[..e.offset().min(size)];
            let again = c.decode_opt(s, good, prev, out);
            let good = if again.is_ok() { good } else { 0 };
            out[good..].fill(0);
            good
        }
    }
}

/// Encodes `length` values; `out` needs room for their exact encoded length
/// (at most `5 * length`), nothing more is written.
///
/// # Safety
/// `input` holds `length` values; `out` has room for their encoding.
unsafe fn encode(input: *const u32, length: usize, out: *mut u8, prev: Option<u32>) -> usize {
    if length == 0 || input.is_null() || out.is_null() || length > isize::MAX as usize / 5 {
        return 0;
    }
    // SAFETY: the caller's contract: `input` holds `length` values.
    let vals = unsafe { values(input, length) };
    let c = codec();
    let need = match prev {
        None => c.compressed_len(vals),
        Some(p) => c.compressed_len_delta(vals, p),
    };
    // SAFETY: the caller's contract: `out` has room for the encoded form,
    // which is `need` bytes.
    let out = unsafe { values_mut(out, need) };
    let r = c.encode_opt(vals, prev, out);
    // `out` has the exact length: cannot fail.
    r.unwrap_or(0)
}

/// `vbyte_encode`: VByte (LEB128) encoding of `length` values; returns the
/// bytes written.
///
/// # Safety
/// `input` holds `length` values; `bout` has room for the encoded bytes
/// (`5 * length` always suffices).
#[no_mangle]
pub unsafe extern "C" fn vbyte_encode(input: *const u32, length: usize, bout: *mut u8) -> usize {
    // SAFETY: forwarded contract.
    unsafe { encode(input, length, bout, None) }
}

/// `vbyte_encode_delta`: differences from `prev`, then VByte.
///
/// # Safety
/// As [`vbyte_encode`].
#[no_mangle]
pub unsafe extern "C" fn vbyte_encode_delta(
    input: *const u32,
    length: usize,
    bout: *mut u8,
    prev: u32,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { encode(input, length, bout, Some(prev)) }
}

/// `masked_vbyte_decode`: decodes `length` values; returns the bytes read.
///
/// # Safety
/// `input` holds a stream of `length` values; `out` has `length` slots.
#[no_mangle]
pub unsafe extern "C" fn masked_vbyte_decode(
    input: *const u8,
    out: *mut u32,
    length: u64,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { decode(input, out, length, None) }
}

/// `masked_vbyte_decode_delta`: decodes and prefix-sums from `prev`.
///
/// # Safety
/// As [`masked_vbyte_decode`].
#[no_mangle]
pub unsafe extern "C" fn masked_vbyte_decode_delta(
    input: *const u8,
    out: *mut u32,
    length: u64,
    prev: u32,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { decode(input, out, length, Some(prev)) }
}

/// `masked_vbyte_decode_fromcompressedsize`: decodes all values of the
/// `inputsize` bytes at `input`; returns how many.
///
/// # Safety
/// `input` holds `inputsize` bytes; `out` a slot per value in them.
#[no_mangle]
pub unsafe extern "C" fn masked_vbyte_decode_fromcompressedsize(
    input: *const u8,
    out: *mut u32,
    inputsize: usize,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { decode_sized(input, out, inputsize, None) }
}

/// `masked_vbyte_decode_fromcompressedsize_delta`.
///
/// # Safety
/// As [`masked_vbyte_decode_fromcompressedsize`].
#[no_mangle]
pub unsafe extern "C" fn masked_vbyte_decode_fromcompressedsize_delta(
    input: *const u8,
    out: *mut u32,
    inputsize: usize,
    prev: u32,
) -> usize {
    // SAFETY: forwarded contract.
    unsafe { decode_sized(input, out, inputsize, Some(prev)) }
}

/// `masked_vbyte_select_delta`: value `slot` of a delta-coded stream of
/// `length` values. 0 when `slot >= length` or the stream is bad before it.
///
/// # Safety
/// `input` holds a stream of `length` values.
#[no_mangle]
pub unsafe extern "C" fn masked_vbyte_select_delta(
    input: *const u8,
    length: u64,
    prev: u32,
    slot: usize,
) -> u32 {
    if input.is_null() || slot as u64 >= length || slot >= isize::MAX as usize / 5 {
        return 0;
    }
    // Only the values up to `slot` are read.
    let n = slot + 1;
    // SAFETY: the stream's first `slot + 1` values are a stream of them.
    let (len, found) = unsafe { stream_len(input, n) };
    // SAFETY: `stream_len` read these bytes: they are the stream's.
    let stream = unsafe { bytes(input, len) };
    match codec().select(stream, found, prev, slot) {
        Ok(Some(v)) => v,
        _ => 0,
    }
}

/// `masked_vbyte_search_delta`: index of the first value `>= key` in a
/// delta-coded stream of `length` values, the value stored at `presult`.
/// When there is none: returns `length` and stores `key + 1`.
///
/// # Safety
/// `input` holds a stream of `length` values; `presult` is writable.
#[no_mangle]
pub unsafe extern "C" fn masked_vbyte_search_delta(
    input: *const u8,
    length: u64,
    prev: u32,
    key: u32,
    presult: *mut u32,
) -> i32 {
    if presult.is_null() || (input.is_null() && length > 0) {
        return -1;
    }
    let n = length.min(i32::MAX as u64) as usize;
    // SAFETY: forwarded contract (a prefix of the stream is a stream).
    let (len, found) = unsafe { stream_len(input, n) };
    // SAFETY: `stream_len` read these bytes: they are the stream's.
    let stream = unsafe { bytes(input, len) };
    let (index, value) = match codec().lower_bound(stream, found, prev, key) {
        Ok(Some((i, v))) => (i, v),
        _ => (found, key.wrapping_add(1)),
    };
    // SAFETY: the caller's contract: `presult` is writable.
    unsafe { presult.write(value) };
    index as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    use intcodec_testkit::SplitMix64 as Rng;

    /// The length pass's windows (`rem` bytes after the last value end
    /// found) against the core's `skip`: values all `L` bytes long put a
    /// value end exactly on a window's last byte (`n % L == 0`; `L == 1`:
    /// one window is the whole stream) or a value across its edge, random
    /// lengths anywhere; every prefix count of each stream too. Then the
    /// drop-in decoders (raw and delta) on the stream's exact bytes.
    #[test]
    fn window_edges_match_the_core() {
        let c = VByte::new();
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for n in (9..=300usize).chain([1000, 4095, 4096, 4097]) {
            for len in 0..=5u32 {
                let vals: Vec<u32> = (0..n).map(|_| rng.of_vbyte_len(len)).collect();
                let enc = c.encode_to_vec(&vals);
                let mut k = 1;
                while k <= n {
                    // SAFETY: the first `k` values of `enc` are a stream of
                    // `k` values.
                    let got = unsafe { stream_len(enc.as_ptr(), k) };
                    assert_eq!(got, (c.skip(&enc, k).unwrap(), k), "n={n} len={len} k={k}");
                    k += if n > 300 { 97 } else { 1 };
                }
                let mut out = vec![0xEEu32; n];
                // SAFETY: `enc` is a stream of `n` values; `out` has `n`
                // slots.
                let used = unsafe { masked_vbyte_decode(enc.as_ptr(), out.as_mut_ptr(), n as u64) };
                assert_eq!((used, &out), (enc.len(), &vals), "n={n} len={len}");
                let sums: Vec<u32> = vals
                    .iter()
                    .scan(7u32, |a, &v| {
                        *a = a.wrapping_add(v);
                        Some(*a)
                    })
                    .collect();
                // SAFETY: as above.
                let used = unsafe {
                    masked_vbyte_decode_delta(enc.as_ptr(), out.as_mut_ptr(), n as u64, 7)
                };
                assert_eq!((used, &out), (enc.len(), &sums), "delta n={n} len={len}");
            }
        }
    }
}
