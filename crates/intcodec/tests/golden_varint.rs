//! Hand-derived golden vectors for VarInt-GB (testdata/varint_gb.txt) and
//! VarInt-G8IU (testdata/varint_g8iu.txt, feature `g8iu`): every kernel, both
//! directions, bytes consumed, and truncation at every cut.

mod common;

use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::{DecodeErrorKind, Isa};
use intcodec::{IntCodec, KernelChoice};

use common::Vector;

fn load(file: &str) -> Vec<Vector<u32>> {
    common::vectors(file)
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
    let used = codec.decode_opt(b, n, delta, &mut out)?;
    assert_eq!(codec.encoded_len(b, n), Ok(used));
    Ok((out, used))
}

fn check(codec: &dyn IntCodec, v: &Vector<u32>) {
    let name = &v.name;
    let n = v.values.len();
    assert_eq!(
        codec.encode_opt_to_vec(&v.values, v.delta),
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

/// Runs [`check`] on every vector of `file` (at least `min` of them) with
/// the codec `codec(v, isa)` of every ISA, then `more` with it; asserts
/// that each of the `kernels` enabled kernels ran every vector.
fn every_kernel<C: IntCodec>(
    file: &str,
    min: usize,
    kernels: usize,
    codec: impl Fn(&Vector<u32>, Isa) -> Option<C>,
    more: impl Fn(&C, &Vector<u32>),
) {
    let vectors = load(file);
    assert!(vectors.len() >= min, "parsed {} vectors", vectors.len());
    let mut runs = 0;
    for isa in Isa::ALL {
        for v in &vectors {
            if let Some(c) = codec(v, isa) {
                check(&c, v);
                more(&c, v);
                runs += 1;
            }
        }
    }
    assert_eq!(runs, kernels * vectors.len(), "every enabled kernel ran");
}

#[test]
fn varint_gb_golden_vectors_every_kernel() {
    let layout = |v: &Vector<u32>| match v.fields["layout"].as_str() {
        "low-first" => Layout::LowFirst,
        "lucene" => Layout::Lucene,
        l => panic!("unknown layout {l}"),
    };
    every_kernel(
        "varint_gb.txt",
        15,
        VarIntGb::new().kernel_isas().len(),
        |v, isa| VarIntGb::new().with_layout(layout(v)).with_isa(isa),
        |_, _| {},
    );
}

#[test]
fn varint_gb_truncation_offsets() {
    let codec = VarIntGb::new();
    // fig1 cut inside 1073741824 (its bytes start at offset 5).
    let fig1 = [0xc1u8, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40, 0x40];
    common::decode_error(&codec, &fig1[..7], 4, (5, 3));
    // The second block's control byte is there, its data is not.
    let e = common::decode_error(&codec, &fig1, 8, (10, 4));
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
        every_kernel(
            "varint_g8iu.txt",
            9,
            VarIntG8iu::new().kernel_isas().len(),
            |_, isa| VarIntG8iu::new().with_isa(isa),
            |codec, v| assert_eq!(codec.value_count(&v.bytes), Ok(v.values.len())),
        );
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
