//! Helpers shared by the integration tests (`mod common;`); not every test
//! uses every one.
#![allow(dead_code)]

use intcodec::{DecodeError, IntCodec};
use std::collections::HashMap;
use std::str::FromStr;

/// `bytes` in a buffer of exactly that length plus `pad` bytes of 0xEE: the
/// allocation ends where the input ends, so Miri and the sanitizers see a
/// read one byte past it.
pub(crate) fn exact(bytes: &[u8], pad: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(bytes.len() + pad);
    v.extend_from_slice(bytes);
    v.resize(bytes.len() + pad, 0xEE);
    v
}

/// The vectors of `testdata/<file>`: blocks separated by blank lines, each
/// `key = value` lines (`#` comments), as field maps.
pub(crate) fn golden(file: &str) -> Vec<HashMap<String, String>> {
    let path = format!("{}/../../testdata/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect(&path);
    text.split("\n\n")
        .map(|block| {
            block
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(|l| {
                    let (k, v) = l.split_once('=').expect("key = value");
                    (k.trim().to_string(), v.trim().to_string())
                })
                .collect::<HashMap<_, _>>()
        })
        .filter(|f| !f.is_empty())
        .collect()
}

/// A round-trip vector of `testdata/<file>`: its `name`, `delta` (`none`
/// or the previous value), `values` and `bytes` fields parsed, and all its
/// fields (the format options).
pub(crate) struct Vector<T> {
    pub(crate) name: String,
    pub(crate) delta: Option<T>,
    pub(crate) values: Vec<T>,
    pub(crate) bytes: Vec<u8>,
    pub(crate) fields: HashMap<String, String>,
}

/// The round-trip vectors of `testdata/<file>` (see [`golden`]).
pub(crate) fn vectors<T: FromStr>(file: &str) -> Vec<Vector<T>> {
    golden(file)
        .into_iter()
        .map(|fields| Vector {
            name: fields["name"].clone(),
            delta: delta(&fields["delta"]),
            values: nums(&fields["values"]),
            bytes: hex(&fields["bytes"]),
            fields,
        })
        .collect()
}

/// A vector's round trip on kernel `isa`: the encoder wrote `bytes`
/// (`encoded`), and the decoder read `values` back (`decoded`).
#[track_caller]
pub(crate) fn assert_round_trip<T: PartialEq + std::fmt::Debug>(
    name: &str,
    isa: intcodec::Isa,
    (bytes, values): (&[u8], &[T]),
    encoded: &[u8],
    decoded: Result<Vec<T>, DecodeError>,
) {
    assert_eq!(encoded, bytes, "{name} encode with {isa}");
    assert_eq!(decoded.as_deref(), Ok(values), "{name} decode with {isa}");
}

/// The error of `decode_to_vec` of `n` values from `input`, asserted to be
/// at byte `offset`, value `index`.
#[track_caller]
pub(crate) fn decode_error(
    c: &dyn IntCodec,
    input: &[u8],
    n: usize,
    (offset, index): (usize, usize),
) -> DecodeError {
    let e = c.decode_to_vec(input, n).unwrap_err();
    assert_eq!((e.offset(), e.index()), (offset, Some(index)));
    e
}

/// Whitespace-separated hex bytes.
pub(crate) fn hex(s: &str) -> Vec<u8> {
    s.split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).expect("hex byte"))
        .collect()
}

/// Whitespace-separated decimal numbers.
pub(crate) fn nums<T: FromStr>(s: &str) -> Vec<T> {
    s.split_whitespace()
        .map(|v| v.parse().ok().expect("number"))
        .collect()
}

/// A `delta` field: `none`, or the previous value.
pub(crate) fn delta<T: FromStr>(s: &str) -> Option<T> {
    (s != "none").then(|| s.parse().ok().expect("delta"))
}

/// Whether Miri runs kernel `isa` of a codec whose x86 kernel `twin` is
/// compiled from the same macro body as its AVX2 kernel (Stream VByte and
/// VByte: SSE4.1; VarInt-GB: SSSE3), with other target features only.
/// Miri checks the Rust source's loads, stores and arithmetic, which the
/// two share line for line, so it runs the AVX2 one alone; the native
/// tests (and `INTCODEC_ISA` caps) still run both.
pub(crate) fn miri_runs_kernel(isa: intcodec::Isa, twin: intcodec::Isa) -> bool {
    !(cfg!(miri) && isa == twin)
}
