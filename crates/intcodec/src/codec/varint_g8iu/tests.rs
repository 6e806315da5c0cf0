//! Every VarInt-G8IU kernel against the scalar reference and an independent
//! parse: identical bytes, values, byte counts and errors.

use super::*;
use crate::isa::Isa;
use crate::tests::{corpus, lengths, Rng};
use crate::traits::{IntCodec, KernelChoice};
use crate::DecodeErrorKind;
use alloc::vec;

fn for_each_kernel(mut f: impl FnMut(VarIntG8iu)) {
    let mut ran = 0;
    for isa in Isa::ALL {
        if let Some(codec) = VarIntG8iu::new().with_isa(isa) {
            assert_eq!(codec.isa(), isa);
            f(codec);
            ran += 1;
        }
    }
    assert_eq!(ran, KERNELS.enabled_isas().len());
}

fn scalar() -> VarIntG8iu {
    VarIntG8iu::new().with_isa(Isa::Scalar).unwrap()
}

/// A byte-at-a-time parse of the paper's description: the first `n` values,
/// or the error the format implies.
fn naive_decode(input: &[u8], n: usize) -> Result<(Vec<u32>, usize), DecodeError> {
    let mut vals = Vec::new();
    let mut pos = 0;
    while vals.len() < n {
        let err = |kind| DecodeError::new(kind, pos, Some(vals.len()));
        let block = input
            .get(pos..pos + 9)
            .ok_or(err(DecodeErrorKind::Truncated))?;
        let mut lens = Vec::new();
        let mut run = 0;
        for bit in 0..8 {
            run += 1;
            if block[0] >> bit & 1 == 0 {
                lens.push(run);
                run = 0;
            }
        }
        if lens.is_empty() || lens.iter().any(|&l| l > 4) {
            return Err(err(DecodeErrorKind::Malformed));
        }
        let mut at = 1;
        for len in lens {
            let v = block[at..at + len]
                .iter()
                .rev()
                .fold(0u32, |a, &b| a << 8 | b as u32);
            if vals.len() < n {
                vals.push(v);
            }
            at += len;
        }
        pos += 9;
    }
    Ok((vals, pos))
}

#[test]
fn kernels_are_listed() {
    let isas: Vec<Isa> = KERNELS.compiled_isas().collect();
    assert_eq!(isas[0], Isa::Scalar);
    let best = VarIntG8iu::new().isa();
    assert!(best.is_enabled());
    assert!(KERNELS
        .compiled_isas()
        .filter(|i| i.is_enabled())
        .all(|i| i <= best));
}

#[test]
fn all_kernels_agree_on_every_corpus_and_length() {
    let reference = scalar();
    for n in lengths() {
        for (name, values) in corpus(n, 21) {
            let want = reference.encode_to_vec(&values);
            assert_eq!(want.len(), reference.compressed_len(&values));
            assert!(want.len() <= max_compressed_len(n));
            assert_eq!(naive_decode(&want, n), Ok((values.clone(), want.len())));
            assert_eq!(reference.value_count(&want), Ok(n), "{name} n={n}");
            let want_d = reference.encode_delta_to_vec(&values, 17);
            assert_eq!(want_d.len(), reference.compressed_len_delta(&values, 17));
            for_each_kernel(|k| {
                let ctx = format!("{k:?} n={n} {name}");
                assert_eq!(k.encode_to_vec(&values), want, "encode {ctx}");
                assert_eq!(k.encode_delta_to_vec(&values, 17), want_d, "{ctx}");
                let mut out = vec![0xDEAD_BEEF; n + 3];
                assert_eq!(k.decode(&want, n, &mut out), Ok(want.len()), "{ctx}");
                assert_eq!(&out[..n], &values[..], "decode {ctx}");
                assert!(out[n..].iter().all(|&v| v == 0xDEAD_BEEF), "{ctx}");
                assert_eq!(k.decode_delta(&want_d, n, 17, &mut out), Ok(want_d.len()));
                assert_eq!(&out[..n], &values[..], "decode_delta {ctx}");
                assert_eq!(k.encoded_len(&want, n), Ok(want.len()));
            });
        }
    }
}

#[test]
fn prefixes_decode_and_consume_whole_blocks() {
    let values: Vec<u32> = (0..100u32).map(|i| i * i * i).collect();
    let enc = scalar().encode_to_vec(&values);
    for m in 0..=values.len() {
        let (want, used) = naive_decode(&enc, m).unwrap();
        assert_eq!(want, values[..m]);
        assert_eq!(used % 9, 0);
        for_each_kernel(|k| {
            let mut out = vec![0u32; m];
            assert_eq!(k.decode(&enc, m, &mut out), Ok(used), "{k:?} m={m}");
            assert_eq!(out, want);
        });
    }
}

#[test]
fn exact_size_output_buffers() {
    for n in [0, 1, 2, 7, 8, 9, 16, 17, 63, 64, 65, 1000] {
        for (name, values) in corpus(n, 22) {
            let want = scalar().encode_to_vec(&values);
            for_each_kernel(|k| {
                let mut out = vec![0xEEu8; want.len()];
                assert_eq!(k.encode(&values, &mut out), Ok(want.len()), "{name} n={n}");
                assert_eq!(out, want);
                if !want.is_empty() {
                    let mut short = vec![0u8; want.len() - 1];
                    assert!(k.encode(&values, &mut short).is_err());
                }
            });
        }
    }
}

#[test]
fn worst_case_is_two_values_per_block() {
    for n in 0..40 {
        for v in [u32::MAX, 0x10000, 0x100] {
            let enc = scalar().encode_to_vec(&vec![v; n]);
            assert!(enc.len() <= max_compressed_len(n));
        }
        assert_eq!(
            scalar().compressed_len(&vec![u32::MAX; n]),
            max_compressed_len(n)
        );
    }
}

#[test]
fn truncated_input_gives_the_same_error_everywhere() {
    for n in [1, 2, 7, 8, 9, 15, 16, 17, 33, 64, 65, 100, 257] {
        for (name, values) in corpus(n, 24) {
            let enc = scalar().encode_to_vec(&values);
            for cut in 0..enc.len() {
                let want = naive_decode(&enc[..cut], n).unwrap_err();
                assert_eq!(want.kind(), DecodeErrorKind::Truncated);
                assert_eq!(want.offset(), cut / 9 * 9);
                for_each_kernel(|k| {
                    let mut out = vec![0u32; n];
                    let ctx = format!("{k:?} {name} n={n} cut={cut}");
                    assert_eq!(k.decode(&enc[..cut], n, &mut out), Err(want), "{ctx}");
                    assert_eq!(
                        k.decode_delta(&enc[..cut], n, 5, &mut out),
                        Err(want),
                        "{ctx}"
                    );
                    assert_eq!(k.encoded_len(&enc[..cut], n), Err(want), "{ctx}");
                });
            }
        }
    }
}

#[test]
fn malformed_descriptors_are_errors_everywhere() {
    // Blocks of eight one-byte values, then one bad descriptor.
    for bad in [0xFFu8, 0x1F, 0x3E, 0xF8, 0x0F] {
        let mut input = Vec::new();
        for _ in 0..5 {
            input.push(0);
            input.extend_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        }
        input.push(bad);
        input.extend_from_slice(&[9; 8]);
        let want = naive_decode(&input, 60).unwrap_err();
        let expected = if bad == 0xF8 {
            // 0b1111_1000: three one-byte values, five unused bytes: valid;
            // the 44th value's block is missing.
            (DecodeErrorKind::Truncated, 54, Some(43))
        } else {
            (DecodeErrorKind::Malformed, 45, Some(40))
        };
        assert_eq!((want.kind(), want.offset(), want.index()), expected);
        for_each_kernel(|k| {
            let mut out = vec![0u32; 60];
            assert_eq!(k.decode(&input, 60, &mut out), Err(want), "{k:?} {bad:#x}");
            assert_eq!(k.decode_delta(&input, 60, 1, &mut out), Err(want));
            assert_eq!(k.encoded_len(&input, 60), Err(want));
        });
        if bad != 0xF8 {
            let e = scalar().value_count(&input).unwrap_err();
            assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Malformed, 45));
        }
    }
}

#[test]
fn garbage_input_agrees_with_scalar_and_the_naive_parse() {
    let mut rng = Rng::new(299);
    let reference = scalar();
    for round in 0..4000 {
        let len = (rng.next_u32() % 300) as usize;
        let input: Vec<u8> = (0..len)
            .map(|_| {
                let b = rng.next_u32() as u8;
                // Mostly valid descriptors in some rounds.
                if round % 2 == 0 {
                    b & 0x55
                } else {
                    b
                }
            })
            .collect();
        let n = (rng.next_u32() % 300) as usize;
        let mut want = vec![0u32; n];
        let want_r = reference.decode(&input, n, &mut want);
        match naive_decode(&input, n) {
            Ok((vals, used)) => {
                assert_eq!(want_r, Ok(used));
                assert_eq!(want, vals);
            }
            Err(e) => assert_eq!(want_r, Err(e)),
        }
        assert_eq!(reference.encoded_len(&input, n), want_r);
        let mut want_d = vec![0u32; n];
        let want_dr = reference.decode_delta(&input, n, 9, &mut want_d);
        for_each_kernel(|k| {
            let mut got = vec![0u32; n];
            assert_eq!(k.decode(&input, n, &mut got), want_r);
            if want_r.is_ok() {
                assert_eq!(got, want);
            }
            assert_eq!(k.decode_delta(&input, n, 9, &mut got), want_dr);
            if want_dr.is_ok() {
                assert_eq!(got, want_d);
            }
        });
    }
}

#[test]
fn output_too_small_and_absurd_counts() {
    for_each_kernel(|k| {
        let mut out = [0u32; 3];
        let e = k.decode(&[0; 64], 4, &mut out).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::OutputTooSmall);
        let e = k.decode(&[], 1, &mut out).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Truncated, 0));
        // 64 zero bytes: 7 blocks of eight values, then a partial block.
        let e = k.decode_to_vec(&[0; 64], usize::MAX / 8).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.index()),
            (DecodeErrorKind::Truncated, 63, Some(56))
        );
        assert_eq!(k.decode_to_vec(&[], 0), Ok(vec![]));
    });
    assert_eq!(scalar().value_count(&[0; 10]).unwrap_err().offset(), 9);
}

#[test]
fn unchecked_decoding_matches_checked() {
    for n in lengths().step_by(7) {
        for (name, values) in corpus(n, 25) {
            let enc = scalar().encode_to_vec(&values);
            let enc_d = scalar().encode_delta_to_vec(&values, 3);
            for_each_kernel(|k| {
                let mut out = vec![0u32; n];
                // SAFETY: a valid stream of `n` values.
                let used = unsafe { k.decode_unchecked(&enc, n, &mut out) };
                assert_eq!(
                    (used, &out[..]),
                    (enc.len(), &values[..]),
                    "{k:?} {name} n={n}"
                );
                // SAFETY: as above.
                let used = unsafe { k.decode_delta_unchecked(&enc_d, n, 3, &mut out) };
                assert_eq!(
                    (used, &out[..]),
                    (enc_d.len(), &values[..]),
                    "{k:?} {name} n={n}"
                );
            });
        }
    }
}

#[test]
fn delta_wraps_around() {
    let values = [u32::MAX, 0, 5, 3, u32::MAX - 1, 1, 7, 8, 9, 10, 11];
    let want = scalar().encode_delta_to_vec(&values, 4);
    for_each_kernel(|k| {
        assert_eq!(k.encode_delta_to_vec(&values, 4), want);
        assert_eq!(
            k.decode_delta_to_vec(&want, values.len(), 4).unwrap(),
            values
        );
    });
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn values() -> impl Strategy<Value = Vec<u32>> {
        let one = prop_oneof![
            Just(0u32),
            0u32..0x100,
            0x100u32..0x1_0000,
            0x1_0000u32..0x100_0000,
            any::<u32>(),
        ];
        proptest::collection::vec(one, 0..=1100)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn round_trip_every_kernel(v in values(), prev in any::<u32>()) {
            let want = scalar().encode_to_vec(&v);
            let want_d = scalar().encode_delta_to_vec(&v, prev);
            for_each_kernel(|k| {
                assert_eq!(k.encode_to_vec(&v), want);
                assert_eq!(k.decode_to_vec(&want, v.len()).unwrap(), v);
                assert_eq!(k.encode_delta_to_vec(&v, prev), want_d);
                assert_eq!(k.decode_delta_to_vec(&want_d, v.len(), prev).unwrap(), v);
            });
        }
    }
}
