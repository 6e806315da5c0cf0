//! Hand-derived golden vectors (testdata/streamvbyte.txt), every kernel, both
//! directions.

mod common;

use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::Isa;
use intcodec::{IntCodec, KernelChoice};

use common::Vector;

/// The vectors of testdata/streamvbyte.txt.
fn load() -> Vec<Vector<u32>> {
    common::vectors("streamvbyte.txt")
}

/// The vector's `variant` field.
fn variant(v: &Vector<u32>) -> Variant {
    match v.fields["variant"].as_str() {
        "1234" => Variant::V1234,
        "0124" => Variant::V0124,
        other => panic!("unknown variant {other}"),
    }
}

#[test]
fn golden_vectors_every_kernel() {
    let vectors = load();
    assert!(
        vectors.len() >= 9,
        "golden file parsed to {} vectors",
        vectors.len()
    );
    let mut kernels_run = 0;
    for isa in Isa::ALL {
        for v in &vectors {
            let Some(codec) = StreamVByte::new().with_variant(variant(v)).with_isa(isa) else {
                continue;
            };
            kernels_run += 1;
            let n = v.values.len();
            let encoded = codec.encode_opt_to_vec(&v.values, v.delta);
            let decoded = codec.decode_opt_to_vec(&v.bytes, n, v.delta);
            common::assert_round_trip(&v.name, isa, (&v.bytes, &v.values), &encoded, decoded);
            let mut out = vec![0; n];
            let used = codec.decode_opt(&v.bytes, n, v.delta, &mut out);
            assert_eq!(
                used,
                Ok(v.bytes.len()),
                "{} bytes consumed with {isa}",
                v.name
            );
            assert_eq!(codec.encoded_len(&v.bytes, n), Ok(v.bytes.len()));
        }
    }
    assert!(
        kernels_run >= vectors.len(),
        "at least the scalar kernel ran"
    );
}

#[test]
fn golden_truncation_offsets() {
    // fig3 cut inside the 4-byte value 1073741824 (data offset 4 -> byte 6).
    let codec = StreamVByte::new();
    let fig3 = [0xc1u8, 0x40, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40];
    let e = common::decode_error(&codec, &fig3[..8], 8, (6, 3));
    assert_eq!(
        e.to_string(),
        "input truncated at byte offset 6 (value index 3)"
    );
    // Only one of the two control bytes.
    common::decode_error(&codec, &fig3[..1], 8, (1, 4));
}
