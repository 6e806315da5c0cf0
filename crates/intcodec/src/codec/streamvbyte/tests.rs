//! Every Stream VByte kernel against the scalar reference, on the same inputs:
//! identical bytes, values, byte counts, and identical errors.

use super::*;
use crate::isa::Isa;
use crate::tests::{corpus, lengths, Rng};
use crate::traits::{IntCodec, KernelChoice};
use crate::DecodeErrorKind;
use alloc::vec;

const VARIANTS: [Variant; 2] = [Variant::V1234, Variant::V0124];

/// Every kernel this CPU (and the `INTCODEC_ISA` cap) allows, scalar first.
fn for_each_kernel(variant: Variant, mut f: impl FnMut(StreamVByte)) {
    let mut ran = 0;
    for isa in Isa::ALL {
        if let Some(codec) = StreamVByte::new().with_variant(variant).with_isa(isa) {
            assert_eq!(codec.isa(), isa);
            assert_eq!(codec.variant(), variant);
            f(codec);
            ran += 1;
        }
    }
    // Every kernel compiled in and enabled here must have run.
    let expected = registry(variant).enabled_isas().len();
    assert_eq!(ran, expected);
}

fn scalar(variant: Variant) -> StreamVByte {
    StreamVByte::new()
        .with_variant(variant)
        .with_isa(Isa::Scalar)
        .unwrap()
}

#[test]
fn kernels_are_listed() {
    let isas: Vec<Isa> = KERNELS_1234.compiled_isas().collect();
    assert_eq!(isas[0], Isa::Scalar);
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    assert!(isas.contains(&Isa::Sse41));
    // The default handle is the best enabled kernel.
    let best = StreamVByte::new().isa();
    assert!(best.is_enabled());
    assert!(KERNELS_1234
        .compiled_isas()
        .filter(|i| i.is_enabled())
        .all(|i| i <= best));
}

#[test]
fn all_kernels_agree_on_every_corpus_and_length() {
    for variant in VARIANTS {
        let reference = scalar(variant);
        for n in lengths() {
            for (name, values) in corpus(n, 1) {
                let want = reference.encode_to_vec(&values);
                assert_eq!(want.len(), reference.compressed_len(&values));
                let want_d = reference.encode_delta_to_vec(&values, 17);
                assert_eq!(want_d.len(), reference.compressed_len_delta(&values, 17));
                for_each_kernel(variant, |k| {
                    let ctx = format!("{:?} n={n} {name}", k);
                    assert_eq!(k.encode_to_vec(&values), want, "encode {ctx}");
                    assert_eq!(
                        k.encode_delta_to_vec(&values, 17),
                        want_d,
                        "encode_delta {ctx}"
                    );
                    let mut out = vec![0xDEAD_BEEF; n + 3];
                    assert_eq!(k.decode(&want, n, &mut out), Ok(want.len()), "{ctx}");
                    assert_eq!(&out[..n], &values[..], "decode {ctx}");
                    assert!(
                        out[n..].iter().all(|&v| v == 0xDEAD_BEEF),
                        "wrote past n {ctx}"
                    );
                    assert_eq!(k.decode_delta(&want_d, n, 17, &mut out), Ok(want_d.len()));
                    assert_eq!(&out[..n], &values[..], "decode_delta {ctx}");
                    assert_eq!(k.encoded_len(&want, n), Ok(want.len()));
                });
            }
        }
    }
}

#[test]
fn exact_size_output_buffers() {
    // Encoding into a buffer of exactly the compressed length must not need
    // slack (the SIMD store must fall back to scalar near the end).
    for variant in VARIANTS {
        for n in [0, 1, 4, 5, 16, 17, 63, 64, 65, 1000] {
            for (name, values) in corpus(n, 2) {
                let want = scalar(variant).encode_to_vec(&values);
                for_each_kernel(variant, |k| {
                    let mut out = vec![0u8; want.len()];
                    assert_eq!(k.encode(&values, &mut out), Ok(want.len()), "{name} n={n}");
                    assert_eq!(out, want);
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
        }
    }
}

#[test]
fn unaligned_input_and_output() {
    for variant in VARIANTS {
        let values = corpus(777, 3).remove(7).1;
        let enc = scalar(variant).encode_to_vec(&values);
        for off in 0..16 {
            let mut shifted = vec![0xAAu8; off];
            shifted.extend_from_slice(&enc);
            for_each_kernel(variant, |k| {
                let mut out = vec![0u32; values.len() + off];
                let got = k.decode(&shifted[off..], values.len(), &mut out[off..]);
                assert_eq!(got, Ok(enc.len()));
                assert_eq!(&out[off..], &values[..]);
            });
        }
    }
}

/// The truncation error the format implies, computed independently.
fn expected_truncation(bytes: [u8; 4], full: &[u8], n: usize, cut: usize) -> Option<DecodeError> {
    let cl = control_len(n);
    if cut < cl {
        return Some(DecodeError::new(
            DecodeErrorKind::Truncated,
            cut,
            Some(cut * 4),
        ));
    }
    let mut pos = cl;
    for i in 0..n {
        let len = bytes[((full[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize;
        if pos + len > cut {
            return Some(DecodeError::new(DecodeErrorKind::Truncated, pos, Some(i)));
        }
        pos += len;
    }
    None
}

#[test]
fn truncated_input_gives_the_same_error_everywhere() {
    for variant in VARIANTS {
        let bytes = match variant {
            Variant::V1234 => BYTES_1234,
            Variant::V0124 => BYTES_0124,
        };
        for n in [1, 3, 4, 5, 15, 16, 17, 33, 64, 65, 100, 257] {
            for (name, values) in corpus(n, 4) {
                let enc = scalar(variant).encode_to_vec(&values);
                for cut in 0..enc.len() {
                    let want = expected_truncation(bytes, &enc, n, cut);
                    for_each_kernel(variant, |k| {
                        let mut out = vec![0u32; n];
                        let got = k.decode(&enc[..cut], n, &mut out);
                        match want {
                            Some(e) => assert_eq!(got, Err(e), "{k:?} {name} n={n} cut={cut}"),
                            // Only "0124" zeros can end early and still be whole.
                            None => assert_eq!(got, Ok(cut), "{k:?} {name} n={n} cut={cut}"),
                        }
                        let got_d = k.decode_delta(&enc[..cut], n, 5, &mut out);
                        assert_eq!(got_d.err(), want, "delta {k:?} {name} n={n} cut={cut}");
                    });
                }
            }
        }
    }
}

#[test]
fn garbage_input_agrees_with_scalar() {
    let mut rng = Rng::new(99);
    for variant in VARIANTS {
        let reference = scalar(variant);
        for _ in 0..3000 {
            let len = (rng.next_u32() % 300) as usize;
            let input: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
            let n = (rng.next_u32() % 600) as usize;
            let mut want = vec![0u32; n];
            let want_r = reference.decode(&input, n, &mut want);
            let mut want_d = vec![0u32; n];
            let want_dr = reference.decode_delta(&input, n, 9, &mut want_d);
            for_each_kernel(variant, |k| {
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
}

#[test]
fn output_too_small_and_missing_control_bytes() {
    for variant in VARIANTS {
        for_each_kernel(variant, |k| {
            let mut out = [0u32; 3];
            let e = k.decode(&[0; 64], 4, &mut out).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::OutputTooSmall);
            let e = k.decode(&[], 1, &mut out).unwrap_err();
            assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Truncated, 0));
            // A huge count with a tiny input fails without allocating it.
            let e = k.decode_to_vec(&[0; 8], usize::MAX / 8).unwrap_err();
            assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Truncated, 8));
            assert_eq!(k.decode_to_vec(&[], 0), Ok(vec![]));
        });
    }
}

#[test]
fn unchecked_decoding_matches_checked_on_padded_input() {
    for variant in VARIANTS {
        for n in lengths().step_by(7) {
            for (name, values) in corpus(n, 5) {
                let mut enc = scalar(variant).encode_to_vec(&values);
                let mut enc_d = scalar(variant).encode_delta_to_vec(&values, 3);
                let (len, len_d) = (enc.len(), enc_d.len());
                enc.extend_from_slice(&[0xFF; PADDING]);
                enc_d.extend_from_slice(&[0xFF; PADDING]);
                for_each_kernel(variant, |k| {
                    let mut out = vec![0u32; n];
                    // SAFETY: a valid stream of `n` values plus PADDING bytes.
                    let used = unsafe { k.decode_unchecked(&enc, n, &mut out) };
                    assert_eq!((used, &out[..]), (len, &values[..]), "{k:?} {name} n={n}");
                    // SAFETY: as above.
                    let used = unsafe { k.decode_delta_unchecked(&enc_d, n, 3, &mut out) };
                    assert_eq!((used, &out[..]), (len_d, &values[..]), "{k:?} {name} n={n}");
                });
            }
        }
    }
}

#[test]
fn delta_wraps_around() {
    let values = [u32::MAX, 0, 5, 3, u32::MAX - 1, 1];
    for variant in VARIANTS {
        let want = scalar(variant).encode_delta_to_vec(&values, 4);
        for_each_kernel(variant, |k| {
            assert_eq!(k.encode_delta_to_vec(&values, 4), want);
            assert_eq!(k.decode_delta_to_vec(&want, 6, 4).unwrap(), values);
        });
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn values() -> impl Strategy<Value = Vec<u32>> {
        // Mix widths so every control byte pattern shows up.
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
        fn round_trip_every_kernel_and_variant(v in values(), prev in any::<u32>()) {
            for variant in VARIANTS {
                let want = scalar(variant).encode_to_vec(&v);
                let want_d = scalar(variant).encode_delta_to_vec(&v, prev);
                for_each_kernel(variant, |k| {
                    assert_eq!(k.encode_to_vec(&v), want);
                    assert_eq!(k.decode_to_vec(&want, v.len()).unwrap(), v);
                    assert_eq!(k.encode_delta_to_vec(&v, prev), want_d);
                    assert_eq!(k.decode_delta_to_vec(&want_d, v.len(), prev).unwrap(), v);
                });
            }
        }
    }
}
