//! Hand-derived golden vectors for BP128, FOR and SIMD-FOR
//! (testdata/bp128.txt): every kernel, both directions, bytes consumed, and
//! an error (never a panic) at every truncation.

mod common;

use intcodec::bp128::{Bp128, DeltaMode, Layout, SortedArray};
use intcodec::frame_of_reference::{For, ForArray, SimdFor};
use intcodec::{DecodeErrorKind, IntCodec, Isa, KernelChoice, SortedSet};
use std::collections::HashMap;

fn load() -> Vec<HashMap<String, String>> {
    common::golden("bp128.txt")
}

fn parse(f: &HashMap<String, String>) -> (Vec<u32>, Vec<u8>) {
    (common::nums(&f["values"]), common::hex(&f["bytes"]))
}

#[test]
fn golden_vectors_every_kernel() {
    let vectors = load();
    assert!(vectors.len() >= 12);
    for f in &vectors {
        let (values, bytes) = parse(f);
        let (name, n) = (&f["name"], values.len());
        // `None`: plain (`encode`); else the delta mode of `encode_delta`.
        let delta = match f["delta"].as_str() {
            "none" => None,
            "d1" => Some(DeltaMode::D1),
            "lane" => Some(DeltaMode::Lane),
            "strict" => Some(DeltaMode::Strict),
            d => panic!("delta {d}"),
        };
        let prev: u32 = f.get("prev").map_or(0, |p| p.parse().unwrap());
        let mut ran = 0;
        for isa in Isa::ALL {
            match f["codec"].as_str() {
                c @ ("bp128-4x" | "bp128-8x") => {
                    let layout = if c == "bp128-4x" {
                        Layout::Lanes4
                    } else {
                        Layout::Lanes8
                    };
                    let base = Bp128::new(layout).with_delta(delta.unwrap_or_default());
                    let Some(k) = base.with_isa(isa) else {
                        continue;
                    };
                    // The `*_delta` calls from `prev` when delta-coded.
                    let from = delta.map(|_| prev);
                    let encoded = k.encode_opt_to_vec(&values, from);
                    let decoded = k.decode_opt_to_vec(&bytes, n, from);
                    assert_eq!(encoded, bytes, "{name} {isa}");
                    assert_eq!(decoded.unwrap(), values, "{name} {isa}");
                    let mut out = vec![0; n];
                    let used = k.decode_opt(&bytes, n, from, &mut out);
                    assert_eq!(used, Ok(bytes.len()));
                    // A `SortedArray` codes from 0 (strict: from `None`).
                    let a = match delta {
                        None => SortedArray::from_encoded_plain(k, bytes.clone(), n),
                        Some(_) => SortedArray::from_encoded(k, bytes.clone(), n),
                    };
                    let origin = match delta {
                        Some(DeltaMode::Strict) => u32::MAX,
                        _ => 0,
                    };
                    if delta.is_none() || prev == origin {
                        assert_eq!(a.unwrap().to_vec(), values, "{name} {isa}");
                    }
                    for cut in 0..bytes.len() {
                        let e = k.decode_opt_to_vec(&bytes[..cut], n, from).unwrap_err();
                        assert_eq!(e.kind(), DecodeErrorKind::Truncated, "{name} cut {cut}");
                    }
                }
                "simd-for" => {
                    let Some(k) = SimdFor::best().with_isa(isa) else {
                        continue;
                    };
                    assert_eq!(k.encode_to_vec(&values), bytes, "{name} {isa}");
                    assert_eq!(k.decode_to_vec(&bytes, n).unwrap(), values, "{name} {isa}");
                    for cut in 0..bytes.len() {
                        assert!(
                            k.decode_to_vec(&bytes[..cut], n).is_err(),
                            "{name} cut {cut}"
                        );
                    }
                }
                "for" => {
                    if isa != Isa::Scalar {
                        continue;
                    }
                    assert_eq!(For.encode_to_vec(&values), bytes, "{name}");
                    let mut out = vec![0; n];
                    assert_eq!(For.decode(&bytes, n, &mut out), Ok(bytes.len()));
                    assert_eq!(out, values);
                    assert_eq!(
                        ForArray::from_encoded(bytes.clone(), n).unwrap().to_vec(),
                        values
                    );
                    for cut in 0..bytes.len() {
                        assert!(
                            For.decode(&bytes[..cut], n, &mut out).is_err(),
                            "{name} cut {cut}"
                        );
                    }
                }
                c => panic!("codec {c}"),
            }
            ran += 1;
        }
        assert!(ran >= 1, "{name}");
    }
}
