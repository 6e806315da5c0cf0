//! VarInt-GB encode -> decode on arbitrary values, both layouts, plain and
//! delta. Every kernel must write scalar's bytes into a buffer of exactly
//! the compressed length (plus fuzzer-chosen slack), report `OutputTooSmall`
//! one byte short, and every kernel must decode the stream back: checked,
//! `encoded_len`, and unchecked with the padding its contract asks for.
//!
//! Input: byte 0 flags (bit 0 Lucene layout, bit 1 delta, bits 2-3 value
//! shape, see `values_from`), bytes 1-4 `prev`, byte 5 slack (0..=31), then
//! the values, 4 bytes each.
#![no_main]

use intcodec::varint_gb::{max_compressed_len, PADDING};
use intcodec::EncodeError;
use intcodec::IntCodec;
use intcodec_fuzz::{padded, values_from, varint_gb, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let flags = r.u8();
    let prev = r.u32();
    let slack = (r.u8() % 32) as usize;
    let values = values_from(r.rest(), flags >> 2);
    let delta = flags & 2 != 0;
    let kernels = varint_gb::kernels(varint_gb::layout(flags & 1 != 0));
    let n = values.len();

    let scalar = &kernels[0];
    let want = if delta {
        scalar.encode_delta_to_vec(&values, prev)
    } else {
        scalar.encode_to_vec(&values)
    };
    assert!(want.len() <= max_compressed_len(n));
    for k in kernels {
        let len = if delta {
            k.compressed_len_delta(&values, prev)
        } else {
            k.compressed_len(&values)
        };
        assert_eq!(len, want.len(), "{k:?} compressed_len");
        let mut out = vec![0u8; len + slack];
        let wrote = if delta {
            k.encode_delta(&values, prev, &mut out)
        } else {
            k.encode(&values, &mut out)
        };
        assert_eq!(wrote, Ok(len), "{k:?} encode");
        assert!(out[..len] == want[..], "{k:?} bytes differ from scalar");
        if len > 0 {
            let mut short = vec![0u8; len - 1];
            let e = if delta {
                k.encode_delta(&values, prev, &mut short)
            } else {
                k.encode(&values, &mut short)
            };
            let too_small = EncodeError::OutputTooSmall {
                needed: len,
                available: len - 1,
            };
            assert_eq!(e, Err(too_small), "{k:?} one byte short");
        }
    }
    let stream = padded(&want, 0, &[]);
    let with_pad = padded(&want, PADDING, data);
    for k in kernels {
        assert_eq!(
            k.encoded_len(&stream, n),
            Ok(want.len()),
            "{k:?} encoded_len"
        );
        let mut out = vec![0u32; n];
        let used = if delta {
            k.decode_delta(&stream, n, prev, &mut out)
        } else {
            k.decode(&stream, n, &mut out)
        };
        assert_eq!(used, Ok(want.len()), "{k:?} decode");
        assert!(out == values, "{k:?} decoded values");
        let mut out2 = vec![0u32; n];
        let used = if delta {
            // SAFETY: `with_pad` is a complete stream of `n` values in this
            // layout followed by PADDING bytes; `out2` has `n` slots.
            unsafe { k.decode_delta_unchecked(&with_pad, n, prev, &mut out2) }
        } else {
            // SAFETY: as above.
            unsafe { k.decode_unchecked(&with_pad, n, &mut out2) }
        };
        assert_eq!(used, want.len(), "{k:?} decode_unchecked");
        assert!(out2 == values, "{k:?} unchecked values");
    }
});
