//! Helpers shared by the integration tests (`mod common;`); not every test
//! uses every one.
#![allow(dead_code)]

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
