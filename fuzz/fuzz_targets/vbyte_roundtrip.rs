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

use intcodec::vbyte::{max_compressed_len, max_compressed_len_u64, VByte, Word, PADDING};
use intcodec::IntCodec;
use intcodec::{DecodeError, EncodeError};
use intcodec_fuzz::{padded, values_from, values_from_u64, vbyte, Reader, Slot};
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
        decode_all(kernels, &values, &stream, |k, out| {
            if delta {
                k.decode_delta_u64(&stream, out.len(), prev, out)
            } else {
                k.decode_u64(&stream, out.len(), out)
            }
        });
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
        decode_all(kernels, &values, &stream, |k, out| {
            if delta {
                k.decode_delta(&stream, out.len(), prev, out)
            } else {
                k.decode(&stream, out.len(), out)
            }
        });
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
fn encode_all<W: Enc>(
    kernels: &[VByte],
    values: &[W],
    prev: W,
    delta: bool,
    slack: usize,
) -> Vec<u8> {
    let scalar = &kernels[0];
    let want = W::to_vec(scalar, values, prev, delta);
    for k in kernels {
        let len = W::len(k, values, prev, delta);
        assert_eq!(len, want.len(), "{k:?} compressed_len");
        let mut out = vec![0u8; len + slack];
        let wrote = W::enc(k, values, prev, delta, &mut out);
        assert_eq!(wrote, Ok(len), "{k:?} encode");
        assert!(out[..len] == want[..], "{k:?} bytes differ from scalar");
        if len > 0 {
            let mut short = vec![0u8; len - 1];
            let e = W::enc(k, values, prev, delta, &mut short);
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

/// Every kernel decodes `stream` (exact size) back to `values`.
fn decode_all<T: Slot>(
    kernels: &[VByte],
    values: &[T],
    stream: &[u8],
    decode: impl Fn(&VByte, &mut [T]) -> Result<usize, DecodeError>,
) {
    for k in kernels {
        let mut out = vec![T::SENTINEL; values.len()];
        assert_eq!(decode(k, &mut out), Ok(stream.len()), "{k:?} decode");
        assert!(out == values, "{k:?} decoded values");
    }
}

/// The u32 (trait) and u64 (inherent) VByte encoders under one name.
trait Enc: Word {
    fn to_vec(k: &VByte, v: &[Self], prev: Self, delta: bool) -> Vec<u8>;
    fn len(k: &VByte, v: &[Self], prev: Self, delta: bool) -> usize;
    fn enc(
        k: &VByte,
        v: &[Self],
        prev: Self,
        delta: bool,
        out: &mut [u8],
    ) -> Result<usize, EncodeError>;
}

impl Enc for u32 {
    fn to_vec(k: &VByte, v: &[u32], prev: u32, delta: bool) -> Vec<u8> {
        if delta {
            k.encode_delta_to_vec(v, prev)
        } else {
            k.encode_to_vec(v)
        }
    }
    fn len(k: &VByte, v: &[u32], prev: u32, delta: bool) -> usize {
        if delta {
            k.compressed_len_delta(v, prev)
        } else {
            k.compressed_len(v)
        }
    }
    fn enc(
        k: &VByte,
        v: &[u32],
        prev: u32,
        delta: bool,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        if delta {
            k.encode_delta(v, prev, out)
        } else {
            k.encode(v, out)
        }
    }
}

impl Enc for u64 {
    fn to_vec(k: &VByte, v: &[u64], prev: u64, delta: bool) -> Vec<u8> {
        if delta {
            k.encode_delta_u64_to_vec(v, prev)
        } else {
            k.encode_u64_to_vec(v)
        }
    }
    fn len(k: &VByte, v: &[u64], prev: u64, delta: bool) -> usize {
        if delta {
            k.compressed_len_delta_u64(v, prev)
        } else {
            k.compressed_len_u64(v)
        }
    }
    fn enc(
        k: &VByte,
        v: &[u64],
        prev: u64,
        delta: bool,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        if delta {
            k.encode_delta_u64(v, prev, out)
        } else {
            k.encode_u64(v, out)
        }
    }
}
