//! Benchmark-only export (cargo feature `bench-hooks`, off in installed
//! builds): the Rust call's loop, so `cbench` times the Rust call and the C
//! calls in one process, interleaved, on the same buffers.

use std::ffi::c_int;

use intcodec::streamvbyte::StreamVByte;
use intcodec::vbyte::VByte;
use intcodec::IntCodec;

use crate::{bytes, values, values_mut};

/// Decodes every list once with the core crate's Rust call (`op`: 0 Stream
/// VByte `decode`, 1 its `decode_delta`, 2 VByte `decode`, 3 its
/// `decode_delta`; 4 to 7 the same four as trusted-count calls,
/// `decode_counted` / `decode_delta_counted`, the functions the drop-ins
/// wrap) into `out`; returns the sum of
/// `used + out[0] + out[n - 1]` over the lists (the C loop's checksum), or
/// `u64::MAX` on a decode error.
///
/// # Safety
/// `buf` holds `buf_len` bytes; `off`, `len`, `n`, `prev` hold `count`
/// entries each, every `off + len <= buf_len`; `out` holds `out_cap` values;
/// for `op` 4 to 7, the `len` bytes at each `off` are a whole stream of `n`
/// values of that codec.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn intcodec_bench_rust_pass(
    op: c_int,
    buf: *const u8,
    buf_len: usize,
    off: *const usize,
    len: *const usize,
    n: *const u32,
    prev: *const u32,
    count: usize,
    out: *mut u32,
    out_cap: usize,
) -> u64 {
    // SAFETY: the caller's contract above: `count` entries at each.
    let [off, len] = [off, len].map(|p| unsafe { values(p, count) });
    // SAFETY: as above.
    let [n, prev] = [n, prev].map(|p| unsafe { values(p, count) });
    // SAFETY: the caller's contract above.
    let buf = unsafe { bytes(buf, buf_len) };
    // SAFETY: as above.
    let out = unsafe { values_mut(out, out_cap) };
    let svb = StreamVByte::new();
    let vb = VByte::new();
    let mut sum = 0u64;
    for i in 0..count {
        let input = &buf[off[i]..off[i] + len[i]];
        let k = n[i] as usize;
        let r = match op {
            0 => svb.decode(input, k, out),
            1 => svb.decode_delta(input, k, prev[i], out),
            2 => vb.decode(input, k, out),
            3 => vb.decode_delta(input, k, prev[i], out),
            // SAFETY: `input` is a whole stream of `k` values (the caller's
            // contract for ops 4 to 7).
            4 => unsafe { svb.decode_counted(input.as_ptr(), k, out) },
            // SAFETY: as above.
            5 => unsafe { svb.decode_delta_counted(input.as_ptr(), k, prev[i], out) },
            // SAFETY: as above.
            6 => unsafe { vb.decode_counted(input.as_ptr(), k, out) },
            // SAFETY: as above.
            _ => unsafe { vb.decode_delta_counted(input.as_ptr(), k, prev[i], out) },
        };
        let Ok(used) = r else { return u64::MAX };
        sum += used as u64 + out[0] as u64 + out[k - 1] as u64;
    }
    sum
}
