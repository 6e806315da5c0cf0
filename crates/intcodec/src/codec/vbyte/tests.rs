//! What the conformance harness cannot check generically: VByte read by an
//! independent parser and written by a bytewise LEB128 encoder, malformed
//! and non-minimal forms, and the other entry points (u64, zigzag, the
//! whole-stream `decode_all`, `skip`, `count`), every kernel against scalar.

use super::*;
use crate::isa::Isa;
use crate::tests::conformance::check_parser;
use crate::tests::{lengths, Rng};
use crate::traits::{IntCodec, KernelChoice};
use crate::DecodeErrorKind;
use alloc::vec;

/// Every kernel this CPU (and the `INTCODEC_ISA` cap) allows, scalar first.
fn for_each_kernel(f: impl FnMut(VByte)) {
    VByte::new().all_kernels().into_iter().for_each(f);
}

fn scalar() -> VByte {
    VByte::new().with_isa(Isa::Scalar).unwrap()
}

/// A byte-at-a-time reading of the u32 format: the first `n` values and
/// the bytes they take, or the error the format implies (at the offset and
/// index of the value).
fn parse(input: &[u8], n: usize) -> Result<(Vec<u32>, usize), DecodeError> {
    let mut vals = Vec::with_capacity(n);
    let mut pos = 0;
    while vals.len() < n {
        let err = |kind| DecodeError::new(kind, pos, Some(vals.len()));
        let mut v = 0u64;
        let mut k = 0;
        loop {
            let b = *input.get(pos + k).ok_or(err(DecodeErrorKind::Truncated))?;
            if k == 4 && b >= 0x80 {
                return Err(err(DecodeErrorKind::Overlong));
            }
            if k == 4 && b > 0x0F {
                return Err(err(DecodeErrorKind::Overflow));
            }
            v |= u64::from(b & 0x7F) << (7 * k);
            k += 1;
            if b < 0x80 {
                break;
            }
        }
        vals.push(v as u32);
        pos += k;
    }
    Ok((vals, pos))
}

#[test]
fn every_kernel_agrees_with_an_independent_parser() {
    check_parser(&VByte::new(), &parse);
}

/// A value whose VByte form takes exactly `len` bytes (1..=W::MAX).
fn of_len64(rng: &mut Rng, len: u32, bits: u32) -> u64 {
    let lo_bits = 7 * (len - 1);
    let hi_bits = (7 * len).min(bits);
    let lo = if len == 1 { 0 } else { 1u64 << lo_bits };
    let span = if hi_bits == 64 {
        u64::MAX - lo
    } else {
        (1u64 << hi_bits) - 1 - lo
    };
    lo + rng.next_u64() % span.saturating_add(1).max(1)
}

/// `n` values below `2^bits`, value `i` of `len(rng, i)` bytes.
fn of_lens(
    rng: &mut Rng,
    n: usize,
    bits: u32,
    mut len: impl FnMut(&mut Rng, usize) -> u32,
) -> Vec<u64> {
    (0..n)
        .map(|i| {
            let l = len(rng, i);
            of_len64(rng, l, bits)
        })
        .collect()
}

/// Named u32 families: each VByte length, alternating lengths, random
/// lengths, mostly 1-2 bytes, sorted ids (delta), zeros and max.
fn corpus32(n: usize, seed: u64) -> Vec<(&'static str, Vec<u32>)> {
    let mut rng = Rng::new(seed ^ (n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut lens = |len: &mut dyn FnMut(&mut Rng, usize) -> u32| -> Vec<u32> {
        let values = of_lens(&mut rng, n, 32, len);
        values.into_iter().map(|v| v as u32).collect()
    };
    let mut out = vec![("zeros", vec![0; n]), ("max", vec![u32::MAX; n])];
    for (name, len) in [("l1", 1), ("l2", 2), ("l3", 3), ("l4", 4), ("l5", 5)] {
        out.push((name, lens(&mut |_, _| len)));
    }
    out.push(("alternating", lens(&mut |_, i| (i % 5) as u32 + 1)));
    out.push(("random-length", lens(&mut |r, _| r.next_u32() % 5 + 1)));
    out.push((
        "short",
        lens(&mut |r, _| if r.next_u32().is_multiple_of(4) { 2 } else { 1 }),
    ));
    out.push(("sorted", intcodec_testkit::corpus::sorted_ids(&mut rng, n)));
    out
}

/// Named u64 families: alternating lengths, random lengths, mostly 1-3
/// bytes, zeros, max and random.
fn corpus64(n: usize, seed: u64) -> Vec<(&'static str, Vec<u64>)> {
    let mut rng = Rng::new(seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut out = vec![("zeros", vec![0; n]), ("max", vec![u64::MAX; n])];
    out.push((
        "alternating",
        of_lens(&mut rng, n, 64, |_, i| (i % 10) as u32 + 1),
    ));
    out.push((
        "random-length",
        of_lens(&mut rng, n, 64, |r, _| r.next_u32() % 10 + 1),
    ));
    out.push((
        "short",
        of_lens(&mut rng, n, 64, |r, _| r.next_u32() % 3 + 1),
    ));
    out.push(("random", (0..n).map(|_| rng.next_u64()).collect()));
    out
}

#[test]
fn value_lengths_are_minimal() {
    let mut rng = Rng::new(1);
    for len in 1..=5 {
        for _ in 0..100 {
            let v = of_len64(&mut rng, len, 32) as u32;
            assert_eq!(scalar::len_of(v), len as usize, "{v}");
            assert_eq!(scalar().encode_to_vec(&[v]).len(), len as usize);
        }
    }
    for len in 1..=10 {
        for _ in 0..100 {
            let v = of_len64(&mut rng, len, 64);
            assert_eq!(scalar::len_of(v), len as usize, "{v}");
        }
    }
    assert_eq!(scalar::len_of(0u32), 1);
    assert_eq!(scalar::len_of(u64::MAX), 10);
}

#[test]
fn all_kernels_agree_u64() {
    let reference = scalar();
    for n in lengths().step_by(3) {
        for (name, values) in corpus64(n, 2) {
            let want = reference.encode_u64_to_vec(&values);
            assert_eq!(want.len(), reference.compressed_len_u64(&values));
            let want_d = reference.encode_delta_u64_to_vec(&values, 1 << 40);
            for_each_kernel(|k| {
                let ctx = format!("{k:?} n={n} {name}");
                assert_eq!(k.encode_u64_to_vec(&values), want, "encode {ctx}");
                let mut out = vec![7u64; n + 2];
                assert_eq!(k.decode_u64(&want, n, &mut out), Ok(want.len()), "{ctx}");
                assert_eq!(&out[..n], &values[..], "decode {ctx}");
                assert!(out[n..].iter().all(|&v| v == 7), "wrote past n {ctx}");
                assert_eq!(
                    k.decode_delta_u64(&want_d, n, 1 << 40, &mut out),
                    Ok(want_d.len()),
                    "{ctx}"
                );
                assert_eq!(&out[..n], &values[..], "decode_delta {ctx}");
            });
        }
    }
}

/// Bytewise reference encoder, independent of the kernels' word encoder.
fn leb128<W: Word>(values: &[W]) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in values {
        let mut x = v.as_u64();
        loop {
            let b = (x & 0x7F) as u8;
            x >>= 7;
            if x == 0 {
                out.push(b);
                break;
            }
            out.push(b | 0x80);
        }
    }
    out
}

#[test]
fn encoder_matches_bytewise_reference_in_exact_buffers() {
    for n in [0usize, 1, 2, 3, 7, 8, 9, 17, 100, 1000] {
        for (name, values) in corpus32(n, 11) {
            let want = leb128(&values);
            for_each_kernel(|k| {
                let mut out = vec![0u8; want.len()];
                assert_eq!(k.encode(&values, &mut out), Ok(want.len()), "{name} n={n}");
                assert_eq!(out, want, "{name} n={n}");
                let gaps: Vec<u32> = values
                    .iter()
                    .scan(9u32, |p, &x| {
                        let d = x.wrapping_sub(*p);
                        *p = x;
                        Some(d)
                    })
                    .collect();
                let want_d = leb128(&gaps);
                let mut out_d = vec![0u8; want_d.len()];
                assert_eq!(k.encode_delta(&values, 9, &mut out_d), Ok(want_d.len()));
                assert_eq!(out_d, want_d, "delta {name} n={n}");
                if !want.is_empty() {
                    let mut short = vec![0u8; want.len() - 1];
                    assert_eq!(
                        k.encode(&values, &mut short),
                        Err(EncodeError::OutputTooSmall {
                            needed: want.len(),
                            available: want.len() - 1
                        })
                    );
                }
            });
        }
        for (name, values) in corpus64(n, 12) {
            let want = leb128(&values);
            let mut out = vec![0u8; want.len()];
            assert_eq!(
                scalar().encode_u64(&values, &mut out),
                Ok(want.len()),
                "{name} n={n}"
            );
            assert_eq!(out, want, "{name} n={n}");
            assert_eq!(scalar().encode_u64_to_vec(&values), want);
        }
    }
}

/// Offsets where each value starts, computed from the values alone.
fn starts<W: Word>(values: &[W]) -> Vec<usize> {
    let mut pos = 0;
    values
        .iter()
        .map(|&v| {
            let s = pos;
            pos += scalar::len_of(v);
            s
        })
        .collect()
}

#[test]
fn skip_on_truncated_input_gives_the_value_cut_short() {
    for n in [1, 2, 5, 11, 12, 13, 40, 100, 257] {
        for (name, values) in corpus32(n, 4) {
            let enc = scalar().encode_to_vec(&values);
            let st = starts(&values);
            for cut in 0..enc.len() {
                // The value cut short: the last one starting before `cut`
                // whose end is past it (the first whose end is past it).
                let i = (0..n)
                    .find(|&i| st[i] + scalar::len_of(values[i]) > cut)
                    .unwrap();
                let want = DecodeError::new(DecodeErrorKind::Truncated, st[i], Some(i));
                for_each_kernel(|k| {
                    assert_eq!(
                        k.skip(&enc[..cut], n),
                        Err(want),
                        "{k:?} {name} n={n} cut={cut}"
                    );
                });
            }
        }
    }
}

/// Inserts `bad` before value `at` of a stream of `values`; the expected
/// error is at that value.
fn with_bad<W: Word>(values: &[W], at: usize, bad: &[u8]) -> (Vec<u8>, usize) {
    let enc = scalar_encoded(&values[..at]);
    let off = enc.len();
    let mut bytes = enc;
    bytes.extend_from_slice(bad);
    bytes.extend_from_slice(&scalar_encoded(&values[at..]));
    (bytes, off)
}

/// `values` encoded by the scalar encoder (u32 or u64).
fn scalar_encoded<W: Word>(values: &[W]) -> Vec<u8> {
    let mut out = vec![0u8; values.len() * W::MAX];
    let n = scalar::encode::<W, false>(values, W::ZERO, &mut out);
    out.truncate(n);
    out
}

/// For each stream of `corpus` (of `n + 1` values) and each bad encoding
/// of `cases`, the stream with the bad bytes written in place of value 0,
/// `n / 2` and `n`: `check(k, bytes, error, ctx)` on every kernel, where
/// `error` is the case's kind at that value's offset and index.
fn for_each_bad<W: Word>(
    corpus: Vec<(&'static str, Vec<W>)>,
    cases: &[(&[u8], DecodeErrorKind)],
    check: impl Fn(VByte, &[u8], DecodeError, &str),
) {
    for (name, values) in corpus {
        let n = values.len() - 1;
        for at in [0, n / 2, n] {
            for &(bad, kind) in cases {
                let (bytes, off) = with_bad(&values, at, bad);
                let want = DecodeError::new(kind, off, Some(at));
                for_each_kernel(|k| {
                    let ctx = format!("{k:?} {name} n={n} at={at} bad={bad:02x?}");
                    check(k, &bytes, want, &ctx);
                });
            }
        }
    }
}

#[test]
fn malformed_values_give_the_same_error_everywhere() {
    use DecodeErrorKind::{Overflow, Overlong, Truncated};
    let cases32: &[(&[u8], DecodeErrorKind)] = &[
        (&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00], Overlong), // 6-byte u32
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], Overlong),
        (&[0x80, 0x80, 0x80, 0x80, 0x10], Overflow), // 5th byte 0x10
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0x7F], Overflow),
        (
            &[
                0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
            ],
            Overlong,
        ),
    ];
    let cases64: &[(&[u8], DecodeErrorKind)] = &[
        // 11-byte u64
        (
            &[
                0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
            ],
            Overlong,
        ),
        // 10th byte 0x02
        (
            &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],
            Overflow,
        ),
        (
            &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7F],
            Overflow,
        ),
    ];
    for n in [0usize, 1, 5, 12, 13, 30, 64, 200] {
        for_each_bad(corpus32(n + 1, 5), cases32, |k, bytes, want, ctx| {
            let mut out = vec![0u32; n + 2];
            assert_eq!(k.decode(bytes, n + 2, &mut out), Err(want), "{ctx}");
            assert_eq!(
                k.decode_delta(bytes, n + 2, 1, &mut out),
                Err(want),
                "{ctx}"
            );
            assert_eq!(k.skip(bytes, n + 2), Err(want), "{ctx}");
            assert_eq!(k.decode_all(bytes, &mut out).err(), Some(want), "{ctx}");
        });
        for_each_bad(corpus64(n + 1, 6), cases64, |k, bytes, want, ctx| {
            let mut out = vec![0u64; n + 2];
            assert_eq!(k.decode_u64(bytes, n + 2, &mut out), Err(want), "{ctx}");
            assert_eq!(
                k.decode_delta_u64(bytes, n + 2, 1, &mut out),
                Err(want),
                "{ctx}"
            );
            assert_eq!(k.skip_u64(bytes, n + 2), Err(want), "{ctx}");
        });
    }
    // Truncated inside the 5-byte maximum stays Truncated.
    for_each_kernel(|k| {
        let e = k
            .decode_to_vec(&[0x01, 0x80, 0x80, 0x80, 0x80], 2)
            .unwrap_err();
        assert_eq!((e.kind(), e.offset(), e.index()), (Truncated, 1, Some(1)));
        let e = k
            .decode_to_vec(&[0x01, 0x80, 0x80, 0x80, 0x80, 0x80], 2)
            .unwrap_err();
        assert_eq!((e.kind(), e.offset(), e.index()), (Overlong, 1, Some(1)));
    });
}

#[test]
fn non_minimal_forms_decode() {
    let cases32: &[(&[u8], u32)] = &[
        (&[0x80, 0x00], 0),
        (&[0x81, 0x80, 0x00], 1),
        (&[0x80, 0x80, 0x80, 0x80, 0x00], 0),
        (&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F], u32::MAX),
    ];
    for &(bytes, v) in cases32 {
        // Repeated, so the SIMD kernels see them in full windows.
        let stream: Vec<u8> = bytes
            .iter()
            .copied()
            .cycle()
            .take(bytes.len() * 50)
            .collect();
        for_each_kernel(|k| {
            assert_eq!(
                k.decode_to_vec(&stream, 50).unwrap(),
                vec![v; 50],
                "{k:?} {bytes:02x?}"
            );
            assert_eq!(
                k.decode_u64_to_vec(&stream, 50).unwrap(),
                vec![u64::from(v); 50]
            );
        });
    }
    let ten = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00];
    let stream: Vec<u8> = ten.iter().copied().cycle().take(300).collect();
    for_each_kernel(|k| assert_eq!(k.decode_u64_to_vec(&stream, 30).unwrap(), vec![0; 30]));
}

#[test]
fn garbage_u64_and_whole_stream_decoding_agree_with_scalar() {
    // (u32 `decode` on garbage: the conformance harness and the parser.)
    let mut rng = Rng::new(99);
    let reference = scalar();
    for round in 0..3000 {
        let len = (rng.next_u32() % 300) as usize;
        // Mostly high-bit bytes in some rounds, so long values show up.
        let input: Vec<u8> = (0..len)
            .map(|_| {
                let b = rng.next_u32() as u8 | if round % 2 == 0 { 0x80 } else { 0 };
                if rng.next_u32().is_multiple_of(5) {
                    b & 0x7F
                } else {
                    b
                }
            })
            .collect();
        let n = (rng.next_u32() % 300) as usize;
        let mut want64 = vec![0u64; n];
        let want64_r = reference.decode_u64(&input, n, &mut want64);
        let want_all = reference.decode_all_to_vec(&input);
        let mut want = vec![0u32; n];
        assert_eq!(
            reference.skip(&input, n),
            reference.decode(&input, n, &mut want)
        );
        for_each_kernel(|k| {
            let mut got64 = vec![0u64; n];
            assert_eq!(k.decode_u64(&input, n, &mut got64), want64_r);
            if want64_r.is_ok() {
                assert_eq!(got64, want64);
            }
            assert_eq!(k.decode_all_to_vec(&input), want_all);
        });
    }
}

#[test]
fn decode_all_count_and_skip() {
    for n in [0usize, 1, 13, 100, 1000] {
        for (name, values) in corpus32(n, 7) {
            let enc = scalar().encode_to_vec(&values);
            let st = starts(&values);
            for_each_kernel(|k| {
                assert_eq!(k.count(&enc), n);
                assert_eq!(
                    k.decode_all_to_vec(&enc).as_deref(),
                    Ok(&values[..]),
                    "{name}"
                );
                let d = k.encode_delta_to_vec(&values, 3);
                assert_eq!(k.decode_delta_all_to_vec(&d, 3).as_deref(), Ok(&values[..]));
                for i in (0..n).step_by(7) {
                    assert_eq!(k.skip(&enc, i), Ok(st[i]), "{name} skip {i}");
                }
                assert_eq!(k.skip(&enc, n), Ok(enc.len()));
                if n > 0 {
                    // Too small an output.
                    let mut small = vec![0u32; n - 1];
                    assert_eq!(
                        k.decode_all(&enc, &mut small).unwrap_err().kind(),
                        DecodeErrorKind::OutputTooSmall
                    );
                    // A dangling continuation byte at the end.
                    let mut bad = enc.clone();
                    bad.push(0x80);
                    let e = k.decode_all_to_vec(&bad).unwrap_err();
                    assert_eq!(
                        (e.kind(), e.offset(), e.index()),
                        (DecodeErrorKind::Truncated, enc.len(), Some(n))
                    );
                }
            });
        }
        for (name, values) in corpus64(n, 8) {
            let enc = scalar().encode_u64_to_vec(&values);
            for_each_kernel(|k| {
                assert_eq!(
                    k.decode_all_u64_to_vec(&enc).as_deref(),
                    Ok(&values[..]),
                    "{name}"
                );
                assert_eq!(k.skip_u64(&enc, n), Ok(enc.len()));
            });
        }
    }
}

#[test]
fn absurd_u64_counts_and_empty_streams() {
    for_each_kernel(|k| {
        let e = k.decode_u64_to_vec(&[0x80; 12], usize::MAX).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Overlong, 0));
        assert_eq!(k.decode_all_to_vec(&[]), Ok(vec![]));
    });
}

#[test]
fn zigzag_round_trips() {
    let v32 = [0i32, -1, 1, -2, 63, -64, 64, i32::MIN, i32::MAX, -300];
    let v64 = [0i64, -1, 1, i64::MIN, i64::MAX, -(1 << 40)];
    let e32 = scalar().encode_i32_to_vec(&v32);
    let e64 = scalar().encode_i64_to_vec(&v64);
    // -1 -> 1, 1 -> 2, -64 -> 127 (one byte), 64 -> 128 (two bytes).
    assert_eq!(&e32[..7], &[0, 1, 2, 3, 0x7E, 0x7F, 0x80]);
    for_each_kernel(|k| {
        assert_eq!(k.decode_i32_to_vec(&e32, v32.len()).unwrap(), v32);
        assert_eq!(k.decode_i64_to_vec(&e64, v64.len()).unwrap(), v64);
        let big: Vec<i32> = (0..1000).map(|i| (i * 7919) % 4001 - 2000).collect();
        let enc = k.encode_i32_to_vec(&big);
        let mut out = vec![0i32; 1000];
        assert_eq!(k.decode_i32(&enc, 1000, &mut out), Ok(enc.len()));
        assert_eq!(out, big);
        // Errors in later chunks keep absolute offsets and indices.
        let cut = &enc[..enc.len() - 1];
        assert_eq!(
            k.decode_i32(cut, 1000, &mut out).unwrap_err(),
            k.decode_to_vec(cut, 1000).unwrap_err()
        );
    });
}

#[test]
fn u64_delta_wraps_around() {
    let values64 = [u64::MAX, 0, 5, 3];
    let want64 = scalar().encode_delta_u64_to_vec(&values64, 4);
    for_each_kernel(|k| {
        assert_eq!(k.decode_delta_u64_to_vec(&want64, 4, 4).unwrap(), values64);
    });
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn values64() -> impl Strategy<Value = Vec<u64>> {
        let one = prop_oneof![
            0u64..0x80,
            0x80u64..0x20_0000,
            any::<u64>(),
            any::<u32>().prop_map(u64::from)
        ];
        proptest::collection::vec(one, 0..=600)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn u64_round_trip_every_kernel(w in values64()) {
            let want64 = scalar().encode_u64_to_vec(&w);
            for_each_kernel(|k| {
                assert_eq!(k.encode_u64_to_vec(&w), want64);
                assert_eq!(k.decode_u64_to_vec(&want64, w.len()).unwrap(), w);
                assert_eq!(k.decode_all_u64_to_vec(&want64).unwrap(), w);
            });
        }
    }
}

#[test]
fn word32_matches_bytewise_reference_at_every_length_boundary() {
    let mut values = vec![0u32, 1, u32::MAX];
    for b in 0..32 {
        values.push(1 << b);
        values.push((1u32 << b).wrapping_sub(1));
        values.push((1u32 << b) | 1);
    }
    let mut rng = Rng::new(77);
    values.extend((0..10_000).map(|_| rng.next_u32() >> (rng.next_u32() % 32)));
    for v in values {
        let want = leb128(&[v]);
        let (w, len) = scalar::word32(v);
        assert_eq!(len, want.len(), "{v:#x}");
        let bytes = w.to_le_bytes();
        assert_eq!(&bytes[..len], &want[..], "{v:#x}");
        assert!(bytes[len..].iter().all(|&b| b == 0), "{v:#x}");
    }
}

// ------------------------------------------------ trusted count (counted.rs)

use crate::tests::guard::Flush;

/// `decode_counted` / `decode_delta_counted` of kernel `c` on the `n`-value
/// stream `bytes` placed flush against a guard page (`5 * n` readable
/// bytes for garbage): the result and the first `index` (error) or `n`
/// values.
fn counted(
    c: &VByte,
    f: &mut Flush,
    bytes: &[u8],
    n: usize,
    delta: bool,
) -> (Result<usize, DecodeError>, Vec<u32>) {
    let p = f.put(bytes);
    let mut out = vec![0xDEAD_BEEFu32; n + 3];
    let r = if delta {
        // SAFETY: `p` holds `bytes`, a stream of `n` values or `5 * n` bytes.
        unsafe { c.decode_delta_counted(p, n, 9, &mut out) }
    } else {
        // SAFETY: as above.
        unsafe { c.decode_counted(p, n, &mut out) }
    };
    assert!(out[n..].iter().all(|&v| v == 0xDEAD_BEEF), "wrote past n");
    let good = match &r {
        Ok(_) => n,
        Err(e) => e.index().unwrap(),
    };
    out.truncate(good);
    (r, out)
}

/// What [`counted`] is compared with: `decode` / `decode_delta` (from 9)
/// of `c`, the checked decoder, on the `n`-value stream `bytes`: the
/// result and the first `index` (error) or `n` values.
fn checked(
    c: &VByte,
    bytes: &[u8],
    n: usize,
    delta: bool,
) -> (Result<usize, DecodeError>, Vec<u32>) {
    let mut out = vec![0u32; n];
    let r = c.decode_opt(bytes, n, delta.then_some(9), &mut out);
    if let Err(e) = &r {
        out.truncate(e.index().unwrap());
    }
    (r, out)
}

/// Counts around every window of the kernels (16, 32, 48, 64 bytes ahead,
/// 12 and 16 values of room) and their multiples, and long lists.
fn counted_lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=200).collect();
    for w in [16usize, 32, 48, 64, 96, 128, 192, 256, 512, 1024, 4096] {
        for n in w.saturating_sub(3)..=w + 3 {
            if n > 200 {
                v.push(n);
            }
        }
    }
    v.extend([1000, 3333, 4097 + 64]);
    v.sort_unstable();
    v.dedup();
    v
}

/// Every kernel's trusted-count decoders (forced one by one) against the
/// scalar kernel's checked decoder, on the exact stream at a guard page:
/// every count of `counted_lengths`, values of every byte width 1..=5 and
/// mixed widths, plain and delta.
#[test]
fn counted_decoders_read_only_the_stream_on_every_kernel() {
    let s = scalar();
    let mut rng = Rng::new(0xC0_07ED);
    let lens = counted_lengths();
    let mut f = Flush::new(5 * lens.iter().max().unwrap());
    for_each_kernel(|c| {
        for &n in &lens {
            for width in 0..=5u32 {
                let vals: Vec<u32> = (0..n).map(|_| rng.of_vbyte_len(width)).collect();
                let enc = s.encode_to_vec(&vals);
                for delta in [false, true] {
                    let got = counted(&c, &mut f, &enc, n, delta);
                    assert_eq!(
                        got,
                        checked(&s, &enc, n, delta),
                        "{:?} n={n} width={width} delta={delta}",
                        c.isa()
                    );
                }
            }
        }
    });
}

/// Bad streams: random bytes (5 bytes per value readable, as the contract
/// asks) and valid streams with one bad value planted: the trusted-count
/// decoders report what the checked decoder reports on those `5 * n`
/// bytes (Overlong or Overflow at the same value; never Truncated) and
/// leave the values before it decoded.
#[test]
fn counted_decoders_report_bad_values_as_the_checked_decoder() {
    let s = scalar();
    let mut rng = Rng::new(0xBAD_C0DE);
    let mut f = Flush::new(5 * 700);
    for_each_kernel(|c| {
        for n in (1..=130).chain([200, 333, 700]) {
            for trial in 0..4 {
                let mut bytes: Vec<u8> = if trial < 2 {
                    // Mostly continuation bytes, or mostly short values.
                    let p = if trial == 0 { 0xF0 } else { 0x30 };
                    (0..5 * n)
                        .map(|_| {
                            (rng.next_u64() as u8)
                                | if (rng.next_u64() as u8) < p { 0x80 } else { 0 }
                        })
                        .collect()
                } else {
                    let vals: Vec<u32> = (0..n)
                        .map(|_| rng.next_u64() as u32 >> (rng.next_u64() % 32))
                        .collect();
                    let at = (rng.next_u64() % n as u64) as usize;
                    let bad: &[u8] = if trial == 2 {
                        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x01]
                    } else {
                        &[0xFF, 0xFF, 0xFF, 0xFF, 0x1F]
                    };
                    with_bad(&vals, at, bad).0
                };
                bytes.resize(bytes.len().max(5 * n), 0);
                bytes.truncate(5 * n);
                for delta in [false, true] {
                    let want = checked(&s, &bytes, n, delta);
                    if let Err(e) = &want.0 {
                        assert_ne!(e.kind(), DecodeErrorKind::Truncated);
                    }
                    let got = counted(&c, &mut f, &bytes, n, delta);
                    assert_eq!(got, want, "{:?} n={n} trial={trial} delta={delta}", c.isa());
                }
            }
        }
    });
}

#[test]
fn counted_decoders_check_the_output_size() {
    let c = VByte::new();
    let mut out = [0u32; 2];
    // SAFETY: `n = 3` does not fit `out`: nothing is read.
    let r = unsafe { c.decode_counted(core::ptr::null(), 3, &mut out) };
    assert_eq!(r.unwrap_err().kind(), DecodeErrorKind::OutputTooSmall);
}

/// Short decodes (fewer than 12 values, or the last values of a longer
/// one) with bytes after the wanted values: the x86 kernels decode them by
/// table steps that may run past the last wanted value, so what follows
/// (valid values, overlong runs, unfit 5th bytes, garbage) must change
/// neither the values, the bytes consumed, nor an error in a wanted value,
/// plain and delta, on every kernel.
#[test]
fn short_decodes_ignore_what_follows_on_every_kernel() {
    let mut rng = Rng::new(0x5107);
    let reference = scalar();
    let suffixes: [&[u8]; 5] = [
        &[],
        &[0x80; 20],
        &[
            0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0x10, 0x01, 0x02,
        ],
        &[
            0x81, 0x01, 0x82, 0x83, 0x01, 0x7F, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
        ],
        &[0x00; 17],
    ];
    let widths = [1u32, 7, 8, 14, 15, 21, 22, 28, 29, 32];
    for n in 0..=30usize {
        for round in 0..24 {
            let values: Vec<u32> = (0..n)
                .map(|_| {
                    let b = widths[rng.next_u32() as usize % widths.len()];
                    let v = rng.next_u32();
                    if b == 32 {
                        v
                    } else {
                        v & ((1 << b) - 1)
                    }
                })
                .collect();
            let mut stream = scalar_encoded(&values);
            let end = stream.len();
            let suffix = suffixes[round % suffixes.len()];
            stream.extend_from_slice(suffix);
            let junk: Vec<u8> = (0..round % 7).map(|_| rng.next_u32() as u8).collect();
            stream.extend_from_slice(&junk);
            // A bad byte inside the wanted values in some rounds.
            if n > 0 && round % 4 == 3 {
                let at = rng.next_u32() as usize % end;
                stream[at] = 0x80 | rng.next_u32() as u8;
            }
            if round % 4 != 3 {
                let mut want = vec![0u32; n];
                assert_eq!(
                    reference.decode(&stream, n, &mut want),
                    Ok(end),
                    "n={n} round={round}"
                );
                assert_eq!(want, values, "n={n} round={round}");
            }
            let prev = rng.next_u32();
            for_each_kernel(|k| {
                let at = format!("kernel {}, n={n}, round={round}", k.isa());
                crate::tests::same_decodes(&reference, &k, &stream, n, prev, &at);
            });
        }
    }
}

#[test]
fn short_list_loop_agrees_with_the_parser() {
    // `scalar::decode_short` (the SIMD kernels' path for lists of up to
    // `SHORT_MAX` values) on garbage biased to the edges its word read
    // decides: continuation bits, fifth bytes around 0x0F, inputs shorter
    // than its 8-byte word.
    let mut rng = Rng::new(0x5407);
    let edge = [0x00, 0x0F, 0x10, 0x7F, 0x80, 0x8F, 0xFF];
    for _ in 0..20_000 {
        let len = rng.below(20) as usize;
        let input: Vec<u8> = (0..len)
            .map(|_| match rng.below(3) {
                0 => edge[rng.below(edge.len() as u64) as usize],
                1 => rng.next_u32() as u8 | 0x80,
                _ => rng.next_u32() as u8,
            })
            .collect();
        let n = rng.below(scalar::SHORT_MAX as u64 + 1) as usize;
        let prev = rng.next_u32();
        let want = parse(&input, n);
        let mut out = vec![0u32; n];
        let got = scalar::decode_short::<false>(&input, &mut out, 0);
        assert_eq!(
            got,
            want.as_ref().map(|w| w.1).map_err(|e| *e),
            "{input:02x?} n={n}"
        );
        if let Ok((vals, _)) = &want {
            assert_eq!(&out, vals);
            let mut d = vec![0u32; n];
            assert_eq!(scalar::decode_short::<true>(&input, &mut d, prev), got);
            // the deltas back from the sums
            let mut before = prev;
            for (&s, &v) in d.iter().zip(vals) {
                assert_eq!(s.wrapping_sub(before), v);
                before = s;
            }
        }
    }
}

/// Long delta decodes of gaps of one and two bytes only, and of gaps with
/// three-byte ones among them: on AVX-512 with the Zen 4 tuning the first
/// kind runs the shared loop and the second the 512-bit one
/// (`avx512::short_values` looks at the first 256 bytes); with one three-
/// byte gap in those bytes (the probe's limit) and with two. Every kernel
/// against scalar, checked and counted, at several lengths.
#[test]
fn long_delta_decodes_of_short_and_long_gaps_agree() {
    let mut rng = Rng::new(0x2E_4D17A);
    for n in [128, 129, 300, 1000, 4096] {
        for three in [0usize, 1, 2, 20] {
            // Gaps of 1-2 bytes, `three` of the first ones of 3 bytes.
            let gaps: Vec<u32> = (0..n)
                .map(|i| {
                    if i % 7 == 3 && i / 7 < three {
                        (1 << 14) + rng.next_u32() % (1 << 20)
                    } else {
                        rng.next_u32() % (1 << 14)
                    }
                })
                .collect();
            let prev = rng.next_u32();
            let mut acc = prev;
            let want: Vec<u32> = gaps
                .iter()
                .map(|&g| {
                    acc = acc.wrapping_add(g);
                    acc
                })
                .collect();
            let bytes = scalar().encode_to_vec(&gaps);
            for_each_kernel(|k| {
                let at = format!("{:?} n={n} three={three}", k.isa());
                let mut out = vec![0u32; n];
                assert_eq!(
                    k.decode_delta(&bytes, n, prev, &mut out),
                    Ok(bytes.len()),
                    "{at}"
                );
                assert_eq!(out, want, "{at}");
                let mut padded = bytes.clone();
                padded.extend_from_slice(&[0; 16]);
                let mut out = vec![0u32; n];
                // SAFETY: a valid stream of `n` values and 16 bytes after.
                let used = unsafe { k.decode_delta_unchecked(&padded, n, prev, &mut out) };
                assert_eq!((used, &out), (bytes.len(), &want), "{at} unchecked");
            });
        }
    }
}
