//! VByte encode -> decode on arbitrary values, u32 and u64, plain and delta.
//! Every kernel must write scalar's bytes into a buffer of exactly the
//! compressed length (plus fuzzer-chosen slack), report `OutputTooSmall` one
//! byte short, and every kernel must decode the stream back: `decode`,
//! `decode_all` (until the end), `skip` to the end, `count`, and for u32
//! `decode_unchecked` with the padding its contract asks for.
//!
//! Input: byte 0 flags (bit 0 u64, bit 1 delta, bits 2-3 value shape, see
//! `values_from`), bytes 1-8 `prev`, byte 9 slack (0..=31), then the values.
#![no_main]

use intcodec::vbyte::{max_compressed_len, max_compressed_len_u64, VByte, PADDING};
use intcodec::EncodeError;
use intcodec::IntCodec;
use intcodec_fuzz::vbyte::{self, Width};
use intcodec_fuzz::{padded, values_from, values_from_u64, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let flags = r.u8();
    let prev = r.u64();
    let slack = (r.u8() % 32) as usize;
    let rest = r.rest();
    let delta = flags & 2 != 0;
    let kernels = vbyte::kernels();
    if flags & 1 != 0 {
        let values = values_from_u64(rest, flags >> 2);
        let stream = encode_all(kernels, &values, prev, delta, slack);
        assert!(stream.len() <= max_compressed_len_u64(values.len()));
        decode_all(kernels, &values, &stream, delta.then_some(prev));
        if !delta {
            for k in kernels {
                let all = k.decode_all_u64_to_vec(&stream);
                assert!(all.as_deref() == Ok(&values[..]), "{k:?} decode_all_u64");
            }
        }
        assert_eq!(kernels[0].skip_u64(&stream, values.len()), Ok(stream.len()));
    } else {
        let prev = prev as u32;
        let values = values_from(rest, flags >> 2);
        let n = values.len();
        let stream = encode_all(kernels, &values, prev, delta, slack);
        assert!(stream.len() <= max_compressed_len(n));
        decode_all(kernels, &values, &stream, delta.then_some(prev));
        let with_pad = padded(&stream, PADDING, data);
        for k in kernels {
            let all = if delta {
                k.decode_delta_all_to_vec(&stream, prev)
            } else {
                k.decode_all_to_vec(&stream)
            };
            assert!(all.as_deref() == Ok(&values[..]), "{k:?} decode_all");
            let mut out = vec![0u32; n];
            let used = if delta {
                // SAFETY: `with_pad` is `n` values as the encoder wrote them
                // followed by PADDING bytes; `out` has `n` slots.
                unsafe { k.decode_delta_unchecked(&with_pad, n, prev, &mut out) }
            } else {
                // SAFETY: as above.
                unsafe { k.decode_unchecked(&with_pad, n, &mut out) }
            };
            assert_eq!(used, stream.len(), "{k:?} decode_unchecked");
            assert!(out == values, "{k:?} unchecked values");
        }
        assert_eq!(kernels[0].skip(&stream, n), Ok(stream.len()));
        if !delta {
            let signed: Vec<i32> = values.iter().map(|&v| v as i32).collect();
            for k in kernels {
                let s = k.encode_i32_to_vec(&signed);
                assert!(
                    k.decode_i32_to_vec(&s, n).as_deref() == Ok(&signed[..]),
                    "{k:?} i32"
                );
            }
        }
    }
});

/// Encodes with every kernel (into exact-size buffers plus `slack`, and one
/// byte short); returns scalar's stream after checking every kernel wrote
/// the same bytes.
fn encode_all<W: Width>(
    kernels: &[VByte],
    values: &[W],
    prev: W,
    delta: bool,
    slack: usize,
) -> Vec<u8> {
    let scalar = &kernels[0];
    let d = delta.then_some(prev);
    let want = W::encode_to_vec(scalar, values, d);
    for k in kernels {
        let len = W::compressed_len(k, values, d);
        assert_eq!(len, want.len(), "{k:?} compressed_len");
        let mut out = vec![0u8; len + slack];
        let wrote = W::encode(k, values, d, &mut out);
        assert_eq!(wrote, Ok(len), "{k:?} encode");
        assert!(out[..len] == want[..], "{k:?} bytes differ from scalar");
        if len > 0 {
            let mut short = vec![0u8; len - 1];
            let e = W::encode(k, values, d, &mut short);
            let too_small = EncodeError::OutputTooSmall {
                needed: len,
                available: len - 1,
            };
            assert_eq!(e, Err(too_small), "{k:?} one byte short");
        }
    }
    assert_eq!(scalar.count(&want), values.len(), "count");
    padded(&want, 0, &[])
}

/// Every kernel decodes `stream` (exact size) back to `values` (plain, or
/// delta from the given start, as [`Width::decode`]).
fn decode_all<T: Width>(kernels: &[VByte], values: &[T], stream: &[u8], delta: Option<T>) {
    for k in kernels {
        let mut out = vec![T::SENTINEL; values.len()];
        let got = T::decode(k, stream, values.len(), delta, &mut out);
        assert_eq!(got, Ok(stream.len()), "{k:?} decode");
        assert!(out == values, "{k:?} decoded values");
    }
}
