//! Hand-derived VByte golden vectors (testdata/vbyte.txt), every kernel,
//! both directions; and the malformed inputs of the decoding rules.

mod common;

use intcodec::vbyte::VByte;
use intcodec::{DecodeErrorKind, Isa};
use intcodec::{IntCodec, KernelChoice};

use common::Vector;

/// The vectors of testdata/vbyte.txt (u32 ones as u64s).
fn load() -> Vec<Vector<u64>> {
    common::vectors("vbyte.txt")
}

/// Whether the vector's `type` is `u64` (else `u32`).
fn is_u64(v: &Vector<u64>) -> bool {
    match v.fields["type"].as_str() {
        "u32" => false,
        "u64" => true,
        t => panic!("unknown type {t}"),
    }
}

fn kernels() -> Vec<VByte> {
    let k: Vec<VByte> = Isa::ALL
        .into_iter()
        .filter_map(|isa| VByte::new().with_isa(isa))
        .collect();
    assert!(k.iter().any(|c| c.isa() == Isa::Scalar));
    k
}

#[test]
fn golden_vectors_every_kernel() {
    let vectors = load();
    assert!(vectors.len() >= 10, "parsed {} vectors", vectors.len());
    for codec in kernels() {
        let isa = codec.isa();
        for v in &vectors {
            let n = v.values.len();
            // Padded copies make the SIMD kernels take their vector paths
            // even on short vectors (trailing bytes are ignored).
            let mut padded = v.bytes.clone();
            padded.resize(v.bytes.len() + 64, 0);
            if is_u64(v) {
                let (enc, dec) = match v.delta {
                    None => (
                        codec.encode_u64_to_vec(&v.values),
                        codec.decode_u64_to_vec(&v.bytes, n),
                    ),
                    Some(p) => (
                        codec.encode_delta_u64_to_vec(&v.values, p),
                        codec.decode_delta_u64_to_vec(&v.bytes, n, p),
                    ),
                };
                common::assert_round_trip(&v.name, isa, (&v.bytes, &v.values), &enc, dec);
                let mut out = vec![0u64; n];
                assert_eq!(codec.decode_u64(&padded, n, &mut out), Ok(v.bytes.len()));
                if v.delta.is_none() {
                    assert_eq!(out, v.values, "{} padded with {isa}", v.name);
                    assert_eq!(codec.decode_all_u64_to_vec(&v.bytes).unwrap(), v.values);
                    assert_eq!(codec.skip_u64(&v.bytes, n), Ok(v.bytes.len()));
                }
            } else {
                let values: Vec<u32> = v.values.iter().map(|&x| x as u32).collect();
                let delta = v.delta.map(|p| p as u32);
                let enc = codec.encode_opt_to_vec(&values, delta);
                let dec = codec.decode_opt_to_vec(&v.bytes, n, delta);
                common::assert_round_trip(&v.name, isa, (&v.bytes, &values), &enc, dec);
                let mut out = vec![0u32; n];
                let used = codec.decode_opt(&padded, n, delta, &mut out);
                assert_eq!(used, Ok(v.bytes.len()), "{} consumed with {isa}", v.name);
                assert_eq!(out, values, "{} padded with {isa}", v.name);
                // A u32 stream is a valid u64 stream with the same values.
                if v.delta.is_none() {
                    assert_eq!(codec.decode_u64_to_vec(&v.bytes, n).unwrap(), v.values);
                    assert_eq!(codec.decode_all_to_vec(&v.bytes).unwrap(), values);
                }
            }
        }
    }
}

#[test]
fn golden_malformed_inputs() {
    use DecodeErrorKind::*;
    // (bytes, n, u64?, kind, offset, index)
    type Case = (&'static [u8], usize, bool, DecodeErrorKind, usize, usize);
    let cases: &[Case] = &[
        // Truncated in the middle of the second value (300 = ac 02).
        (&[0x01, 0xAC], 2, false, Truncated, 1, 1),
        // A 6-byte u32: the 5th byte still has the continuation bit.
        (
            &[0x05, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
            2,
            false,
            Overlong,
            1,
            1,
        ),
        // A 5th byte of 0x10: bit 32, beyond a u32.
        (&[0x80, 0x80, 0x80, 0x80, 0x10], 1, false, Overflow, 0, 0),
        // The same bytes are 2^32 as a u64 (see u64-boundaries).
        // An 11-byte u64.
        (
            &[
                0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
            ],
            1,
            true,
            Overlong,
            0,
            0,
        ),
        // A 10th byte of 0x02: bit 64.
        (
            &[
                0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02,
            ],
            2,
            true,
            Overflow,
            1,
            1,
        ),
    ];
    for codec in kernels() {
        for &(bytes, n, is64, kind, offset, index) in cases {
            // Alone, and (unless truncation is the point) followed by plenty
            // of valid bytes, so the SIMD kernels meet it inside a window.
            let mut long = bytes.to_vec();
            if kind != Truncated {
                long.extend_from_slice(&[0x01; 100]);
            }
            for input in [bytes, &long[..]] {
                let e = if is64 {
                    codec.decode_u64_to_vec(input, n + 50).unwrap_err()
                } else {
                    codec.decode_to_vec(input, n + 50).unwrap_err()
                };
                assert_eq!(
                    (e.kind(), e.offset(), e.index()),
                    (kind, offset, Some(index)),
                    "{bytes:02x?} with {}",
                    codec.isa()
                );
            }
        }
        let e = codec
            .decode_to_vec(&[0x80, 0x80, 0x80, 0x80, 0x10], 1)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "varint value too large for its type at byte offset 0 (value index 0)"
        );
        assert_eq!(
            codec
                .decode_u64_to_vec(&[0x80, 0x80, 0x80, 0x80, 0x10], 1)
                .unwrap(),
            [1u64 << 32]
        );
    }
}
