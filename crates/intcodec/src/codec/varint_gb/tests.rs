//! Every VarInt-GB kernel against the scalar reference, on the same inputs:
//! identical bytes, values, byte counts and errors.

use super::*;
use crate::isa::Isa;
use crate::tests::{corpus, lengths, Rng};
use crate::traits::{IntCodec, KernelChoice};
use crate::DecodeErrorKind;
use alloc::vec;

const LAYOUTS: [Layout; 2] = [Layout::LowFirst, Layout::Lucene];

/// Every kernel this CPU (and the `INTCODEC_ISA` cap) allows, scalar first.
fn for_each_kernel(layout: Layout, mut f: impl FnMut(VarIntGb)) {
    let mut ran = 0;
    for isa in Isa::ALL {
        if let Some(codec) = VarIntGb::new().with_layout(layout).with_isa(isa) {
            assert_eq!((codec.isa(), codec.layout()), (isa, layout));
            f(codec);
            ran += 1;
        }
    }
    let expected = registry(layout).enabled_isas().len();
    assert_eq!(ran, expected);
}

fn scalar(layout: Layout) -> VarIntGb {
    VarIntGb::new()
        .with_layout(layout)
        .with_isa(Isa::Scalar)
        .unwrap()
}

/// An independent, byte-at-a-time parse of a stream of `n` values: the
/// values, or the error the format implies.
fn naive_decode(layout: Layout, input: &[u8], n: usize) -> Result<(Vec<u32>, usize), DecodeError> {
    let t = |pos, i| DecodeError::new(DecodeErrorKind::Truncated, pos, Some(i));
    let mut vals = Vec::new();
    let mut pos = 0;
    let grouped = match layout {
        Layout::LowFirst => n,
        Layout::Lucene => n - n % 4,
    };
    while vals.len() < grouped {
        let key = *input.get(pos).ok_or(t(pos, vals.len()))?;
        pos += 1;
        for lane in 0..(grouped - vals.len()).min(4) {
            let shift = match layout {
                Layout::LowFirst => 2 * lane,
                Layout::Lucene => 6 - 2 * lane,
            };
            let len = ((key >> shift) & 3) as usize + 1;
            let bytes = input.get(pos..pos + len).ok_or(t(pos, vals.len()))?;
            vals.push(bytes.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32));
            pos += len;
        }
    }
    while vals.len() < n {
        let start = pos;
        let mut v = 0u64;
        for k in 0.. {
            let b = *input.get(pos).ok_or(t(start, vals.len()))?;
            pos += 1;
            v |= ((b & 0x7F) as u64) << (7 * k);
            if k == 4 && b > 0x0F {
                return Err(DecodeError::new(
                    DecodeErrorKind::Malformed,
                    pos - 1,
                    Some(vals.len()),
                ));
            }
            if b & 0x80 == 0 {
                break;
            }
        }
        vals.push(v as u32);
    }
    Ok((vals, pos))
}

#[test]
fn kernels_are_listed() {
    let isas: Vec<Isa> = KERNELS_LOW.compiled_isas().collect();
    assert_eq!(isas[0], Isa::Scalar);
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    assert!(isas.contains(&Isa::Ssse3));
    let best = VarIntGb::new().isa();
    assert!(best.is_enabled());
    assert!(KERNELS_LOW
        .compiled_isas()
        .filter(|i| i.is_enabled())
        .all(|i| i <= best));
}

#[test]
fn all_kernels_agree_on_every_corpus_and_length() {
    for layout in LAYOUTS {
        let reference = scalar(layout);
        for n in lengths() {
            for (name, values) in corpus(n, 11) {
                let want = reference.encode_to_vec(&values);
                assert_eq!(want.len(), reference.compressed_len(&values));
                assert_eq!(
                    naive_decode(layout, &want, n),
                    Ok((values.clone(), want.len()))
                );
                let want_d = reference.encode_delta_to_vec(&values, 17);
                assert_eq!(want_d.len(), reference.compressed_len_delta(&values, 17));
                for_each_kernel(layout, |k| {
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
}

#[test]
fn exact_size_output_buffers() {
    for layout in LAYOUTS {
        for n in [0, 1, 3, 4, 5, 16, 17, 63, 64, 65, 1000] {
            for (name, values) in corpus(n, 12) {
                let want = scalar(layout).encode_to_vec(&values);
                for_each_kernel(layout, |k| {
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
fn max_compressed_len_is_an_upper_bound() {
    for layout in LAYOUTS {
        for n in 0..40 {
            let worst = vec![u32::MAX; n];
            assert!(scalar(layout).compressed_len(&worst) <= max_compressed_len(n));
        }
    }
    assert_eq!(max_compressed_len(5), 17 + 5);
}

#[test]
fn unaligned_input_and_output() {
    for layout in LAYOUTS {
        let values = corpus(777, 13).remove(7).1;
        let enc = scalar(layout).encode_to_vec(&values);
        for off in 0..16 {
            let mut shifted = vec![0xAAu8; off];
            shifted.extend_from_slice(&enc);
            for_each_kernel(layout, |k| {
                let mut out = vec![0u32; values.len() + off];
                let got = k.decode(&shifted[off..], values.len(), &mut out[off..]);
                assert_eq!(got, Ok(enc.len()));
                assert_eq!(&out[off..], &values[..]);
            });
        }
    }
}

#[test]
fn truncated_input_gives_the_same_error_everywhere() {
    for layout in LAYOUTS {
        for n in [1, 3, 4, 5, 7, 15, 16, 17, 33, 64, 65, 100, 257] {
            for (name, values) in corpus(n, 14) {
                let enc = scalar(layout).encode_to_vec(&values);
                for cut in 0..enc.len() {
                    let want = naive_decode(layout, &enc[..cut], n).unwrap_err();
                    assert_eq!(want.kind(), DecodeErrorKind::Truncated);
                    for_each_kernel(layout, |k| {
                        let mut out = vec![0u32; n];
                        let ctx = format!("{k:?} {name} n={n} cut={cut}");
                        assert_eq!(k.decode(&enc[..cut], n, &mut out), Err(want), "{ctx}");
                        let got_d = k.decode_delta(&enc[..cut], n, 5, &mut out);
                        assert_eq!(got_d, Err(want), "delta {ctx}");
                        assert_eq!(k.encoded_len(&enc[..cut], n), Err(want), "{ctx}");
                        assert_eq!(k.decode_to_vec(&enc[..cut], n), Err(want), "{ctx}");
                    });
                }
            }
        }
    }
}

#[test]
fn garbage_input_agrees_with_scalar_and_the_naive_parse() {
    let mut rng = Rng::new(199);
    for layout in LAYOUTS {
        let reference = scalar(layout);
        for round in 0..3000 {
            let len = (rng.next_u32() % 300) as usize;
            // Mostly random bytes; some rounds biased to 0xFF so that vints
            // reach their fifth byte.
            let input: Vec<u8> = (0..len)
                .map(|_| {
                    let b = rng.next_u32() as u8;
                    if round % 3 == 0 {
                        b | 0x80
                    } else {
                        b
                    }
                })
                .collect();
            let n = (rng.next_u32() % 300) as usize;
            let mut want = vec![0u32; n];
            let want_r = reference.decode(&input, n, &mut want);
            match naive_decode(layout, &input, n) {
                Ok((vals, used)) => {
                    assert_eq!(want_r, Ok(used));
                    assert_eq!(want, vals);
                }
                Err(e) => assert_eq!(want_r, Err(e)),
            }
            assert_eq!(reference.encoded_len(&input, n), want_r);
            let mut want_d = vec![0u32; n];
            let want_dr = reference.decode_delta(&input, n, 9, &mut want_d);
            for_each_kernel(layout, |k| {
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
fn lucene_vint_tail_limits() {
    let k = scalar(Layout::Lucene);
    // One value (no group): a vint. u32::MAX = ff ff ff ff 0f.
    assert_eq!(k.encode_to_vec(&[u32::MAX]), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    assert_eq!(k.encode_to_vec(&[300]), [0xAC, 0x02]);
    for_each_kernel(Layout::Lucene, |k| {
        assert_eq!(
            k.decode_to_vec(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F], 1),
            Ok(vec![u32::MAX])
        );
        // A non-minimal vint is accepted, as Lucene's readVInt does.
        assert_eq!(k.decode_to_vec(&[0x85, 0x00], 1), Ok(vec![5]));
        // Fifth byte with more than four bits: malformed, at that byte.
        let e = k
            .decode_to_vec(&[0x80, 0x80, 0x80, 0x80, 0x10], 1)
            .unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.index()),
            (DecodeErrorKind::Malformed, 4, Some(0))
        );
        // After a group: the vint's index and offset are absolute.
        let e = k
            .decode_to_vec(&[0, 1, 2, 3, 4, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 5)
            .unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.index()),
            (DecodeErrorKind::Malformed, 9, Some(4))
        );
    });
}

#[test]
fn output_too_small_and_absurd_counts() {
    for layout in LAYOUTS {
        for_each_kernel(layout, |k| {
            let mut out = [0u32; 3];
            let e = k.decode(&[0; 64], 4, &mut out).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::OutputTooSmall);
            let e = k.decode(&[], 1, &mut out).unwrap_err();
            assert_eq!((e.kind(), e.offset()), (DecodeErrorKind::Truncated, 0));
            // A huge count with a tiny input fails without allocating it:
            // 64 zero bytes are 12 blocks of four one-byte values (60 bytes),
            // then a control byte and three one-byte values.
            let e = k.decode_to_vec(&[0; 64], usize::MAX / 8).unwrap_err();
            assert_eq!(
                (e.kind(), e.offset(), e.index()),
                (DecodeErrorKind::Truncated, 64, Some(51))
            );
            assert_eq!(k.decode_to_vec(&[], 0), Ok(vec![]));
        });
    }
}

#[test]
fn unchecked_decoding_matches_checked_on_padded_input() {
    for layout in LAYOUTS {
        for n in lengths().step_by(7) {
            for (name, values) in corpus(n, 15) {
                let mut enc = scalar(layout).encode_to_vec(&values);
                let mut enc_d = scalar(layout).encode_delta_to_vec(&values, 3);
                let (len, len_d) = (enc.len(), enc_d.len());
                enc.extend_from_slice(&[0xFF; PADDING]);
                enc_d.extend_from_slice(&[0xFF; PADDING]);
                for_each_kernel(layout, |k| {
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
    let values = [u32::MAX, 0, 5, 3, u32::MAX - 1, 1, 7];
    for layout in LAYOUTS {
        let want = scalar(layout).encode_delta_to_vec(&values, 4);
        for_each_kernel(layout, |k| {
            assert_eq!(k.encode_delta_to_vec(&values, 4), want);
            assert_eq!(k.decode_delta_to_vec(&want, 7, 4).unwrap(), values);
        });
    }
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
        fn round_trip_every_kernel_and_layout(v in values(), prev in any::<u32>()) {
            for layout in LAYOUTS {
                let want = scalar(layout).encode_to_vec(&v);
                let want_d = scalar(layout).encode_delta_to_vec(&v, prev);
                for_each_kernel(layout, |k| {
                    assert_eq!(k.encode_to_vec(&v), want);
                    assert_eq!(k.decode_to_vec(&want, v.len()).unwrap(), v);
                    assert_eq!(k.encode_delta_to_vec(&v, prev), want_d);
                    assert_eq!(k.decode_delta_to_vec(&want_d, v.len(), prev).unwrap(), v);
                });
            }
        }
    }
}
