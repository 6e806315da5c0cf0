//! Hand-derived single-value varint vectors (testdata/varint.txt): every
//! kernel and the free functions, both directions; the malformed ones give
//! their error everywhere.

mod common;

use intcodec::varint::{self, Signed, Varint, Word};
use intcodec::DecodeErrorKind;

struct Vector {
    name: String,
    ty: String,
    value: Option<String>,
    bytes: Vec<u8>,
    error: Option<DecodeErrorKind>,
    nonminimal: bool,
}

fn load() -> Vec<Vector> {
    common::golden("varint.txt")
        .into_iter()
        .map(|f| Vector {
            name: f["name"].clone(),
            ty: f["type"].clone(),
            value: f.get("value").cloned(),
            bytes: common::hex(&f["bytes"]),
            error: f.get("error").map(|e| match e.as_str() {
                "Truncated" => DecodeErrorKind::Truncated,
                "Overlong" => DecodeErrorKind::Overlong,
                "Overflow" => DecodeErrorKind::Overflow,
                e => panic!("unknown error {e}"),
            }),
            nonminimal: f.get("nonminimal").is_some_and(|v| v == "yes"),
        })
        .collect()
}

fn kernels() -> Vec<Varint> {
    varint::enabled_kernels().collect()
}

fn unsigned<T: Word + std::str::FromStr>(v: &Vector)
where
    T::Err: std::fmt::Debug,
{
    let mut junk = v.bytes.clone();
    junk.extend_from_slice(&[0xFF; 20]);
    match (&v.value, v.error) {
        (Some(s), None) => {
            let x: T = s.parse().unwrap();
            let want = Ok((x, v.bytes.len()));
            assert_eq!(
                varint::decode::<T>(&v.bytes).map_err(|e| e.kind()),
                want,
                "{}",
                v.name
            );
            assert_eq!(
                varint::decode::<T>(&junk).map_err(|e| e.kind()),
                want,
                "{}",
                v.name
            );
            for k in kernels() {
                assert_eq!(
                    k.decode::<T>(&v.bytes).map_err(|e| e.kind()),
                    want,
                    "{} {k:?}",
                    v.name
                );
                assert_eq!(
                    k.decode::<T>(&junk).map_err(|e| e.kind()),
                    want,
                    "{} {k:?}",
                    v.name
                );
                if !v.nonminimal {
                    let (b, n) = k.encode(x);
                    assert_eq!(&b[..n], &v.bytes[..], "{} {k:?} encode", v.name);
                }
            }
        }
        (None, Some(kind)) => {
            assert_eq!(
                varint::decode::<T>(&v.bytes).map_err(|e| e.kind()),
                Err(kind),
                "{}",
                v.name
            );
            for k in kernels() {
                assert_eq!(
                    k.decode::<T>(&v.bytes).map_err(|e| e.kind()),
                    Err(kind),
                    "{} {k:?}",
                    v.name
                );
                if kind != DecodeErrorKind::Truncated {
                    // The bad value stays bad whatever follows.
                    assert_eq!(
                        k.decode::<T>(&junk).map_err(|e| e.kind()),
                        Err(kind),
                        "{} {k:?}",
                        v.name
                    );
                }
            }
        }
        _ => panic!("{}: give either value or error", v.name),
    }
}

fn signed<S: Signed + std::str::FromStr>(v: &Vector)
where
    S::Err: std::fmt::Debug,
{
    let x: S = v
        .value
        .as_ref()
        .expect("signed vectors are values")
        .parse()
        .unwrap();
    for k in kernels() {
        let (b, n) = k.encode_zigzag(x);
        assert_eq!(&b[..n], &v.bytes[..], "{} {k:?}", v.name);
        assert_eq!(
            k.decode_zigzag::<S>(&v.bytes),
            Ok((x, n)),
            "{} {k:?}",
            v.name
        );
    }
    assert_eq!(varint::decode_zigzag::<S>(&v.bytes), Ok((x, v.bytes.len())));
}

#[test]
fn golden_vectors() {
    let vs = load();
    assert!(vs.len() >= 25, "vectors read: {}", vs.len());
    for v in &vs {
        match v.ty.as_str() {
            "u8" => unsigned::<u8>(v),
            "u16" => unsigned::<u16>(v),
            "u32" => unsigned::<u32>(v),
            "u64" => unsigned::<u64>(v),
            "i8" => signed::<i8>(v),
            "i16" => signed::<i16>(v),
            "i32" => signed::<i32>(v),
            "i64" => signed::<i64>(v),
            t => panic!("unknown type {t}"),
        }
    }
}
