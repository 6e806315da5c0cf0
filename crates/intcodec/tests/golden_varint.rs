//! Hand-derived golden vectors for VarInt-GB (testdata/varint_gb.txt) and
//! VarInt-G8IU (testdata/varint_g8iu.txt, feature `g8iu`): every kernel, both
//! directions, bytes consumed, and truncation at every cut.

mod common;

use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::{DecodeErrorKind, Isa};
use intcodec::{IntCodec, KernelChoice};
use std::collections::HashMap;

struct Vector {
    fields: HashMap<String, String>,
    delta: Option<u32>,
    values: Vec<u32>,
    bytes: Vec<u8>,
}

fn load(file: &str) -> Vec<Vector> {
    common::golden(file)
        .into_iter()
        .map(|fields| Vector {
            delta: common::delta(&fields["delta"]),
            values: common::nums(&fields["values"]),
            bytes: common::hex(&fields["bytes"]),
            fields,
        })
        .collect()
}

/// `decode` or `decode_delta` into an exact-size output, checked against
/// `encoded_len`: the values and the bytes consumed.
fn decode(
    codec: &dyn IntCodec,
    b: &[u8],
    n: usize,
    delta: Option<u32>,
) -> Result<(Vec<u32>, usize), intcodec::DecodeError> {
    let mut out = vec![0; n];
    let used = common::decode(codec, b, n, delta, &mut out)?;
    assert_eq!(codec.encoded_len(b, n), Ok(used));
    Ok((out, used))
}

fn check(codec: &dyn IntCodec, v: &Vector) {
    let name = &v.fields["name"];
    let n = v.values.len();
    assert_eq!(
        common::encode_to_vec(codec, &v.values, v.delta),
        v.bytes,
        "{name} encode {codec:?}"
    );
    assert_eq!(
        decode(codec, &v.bytes, n, v.delta),
        Ok((v.values.clone(), v.bytes.len())),
        "{name} decode {codec:?}"
    );
    for cut in 0..v.bytes.len() {
        let e = decode(codec, &v.bytes[..cut], n, v.delta).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::Truncated, "{name} cut={cut}");
        assert!(e.offset() <= cut, "{name} cut={cut}");
    }
}

#[test]
fn varint_gb_golden_vectors_every_kernel() {
    let vectors = load("varint_gb.txt");
    assert!(vectors.len() >= 15, "parsed {} vectors", vectors.len());
    let mut runs = 0;
    for isa in Isa::ALL {
        for v in &vectors {
            let layout = match v.fields["layout"].as_str() {
                "low-first" => Layout::LowFirst,
                "lucene" => Layout::Lucene,
                l => panic!("unknown layout {l}"),
            };
            if let Some(codec) = VarIntGb::new().with_layout(layout).with_isa(isa) {
                check(&codec, v);
                runs += 1;
            }
        }
    }
    let kernels = VarIntGb::new().kernel_isas().len();
    assert_eq!(runs, kernels * vectors.len(), "every enabled kernel ran");
}

#[test]
fn varint_gb_truncation_offsets() {
    let codec = VarIntGb::new();
    // fig1 cut inside 1073741824 (its bytes start at offset 5).
    let fig1 = [0xc1u8, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40, 0x40];
    let e = codec.decode_to_vec(&fig1[..7], 4).unwrap_err();
    assert_eq!((e.offset(), e.index()), (5, Some(3)));
    // The second block's control byte is there, its data is not.
    let e = codec.decode_to_vec(&fig1, 8).unwrap_err();
    assert_eq!((e.offset(), e.index()), (10, Some(4)));
    assert_eq!(
        e.to_string(),
        "input truncated at byte offset 10 (value index 4)"
    );
}

#[cfg(feature = "g8iu")]
mod g8iu {
    use super::*;
    use intcodec::varint_g8iu::VarIntG8iu;

    #[test]
    fn varint_g8iu_golden_vectors_every_kernel() {
        let vectors = load("varint_g8iu.txt");
        assert!(vectors.len() >= 9, "parsed {} vectors", vectors.len());
        let mut runs = 0;
        for isa in Isa::ALL {
            let Some(codec) = VarIntG8iu::new().with_isa(isa) else {
                continue;
            };
            for v in &vectors {
                check(&codec, v);
                assert_eq!(codec.value_count(&v.bytes), Ok(v.values.len()));
                runs += 1;
            }
        }
        let kernels = VarIntG8iu::new().kernel_isas().len();
        assert_eq!(runs, kernels * vectors.len(), "every enabled kernel ran");
    }

    #[test]
    fn varint_g8iu_malformed_descriptor() {
        let codec = VarIntG8iu::new();
        // fig2a then a block whose first value has five bytes (0b0000_1111).
        let mut bytes = vec![0x71, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40];
        bytes.extend_from_slice(&[0x0F, 1, 2, 3, 4, 5, 6, 7, 8]);
        let e = codec.decode_to_vec(&bytes, 5).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.index()),
            (DecodeErrorKind::Malformed, 9, Some(4))
        );
        assert_eq!(
            e.to_string(),
            "malformed input at byte offset 9 (value index 4)"
        );
        // The first four values alone are fine.
        assert_eq!(
            codec.decode_to_vec(&bytes, 4),
            Ok(vec![1024, 12, 10, 1 << 30])
        );
    }
}
