//! What the conformance harness cannot check generically for FOR and
//! SIMD-FOR: an independent decoder, every width, the containers against a
//! plain slice, malformed inputs with their errors computed independently.

use super::*;
use crate::tests::{corpus, lengths, Rng};
use alloc::vec;

#[test]
fn handles_and_sizes() {
    assert_eq!(For.name(), "for");
    assert_eq!(For.kernel_isas(), [Isa::Scalar]);
    assert_eq!(For.with_isa(Isa::Scalar), Some(For));
    for k in simd_kernels() {
        assert_eq!(k.name(), "simd-for");
        let codecs: [&dyn IntCodec; 2] = [&For, &k];
        for c in codecs {
            // The largest encoding: 32-bit values (a frame of 0 and u32::MAX).
            let v = [0, u32::MAX, 7, 8, 9];
            assert_eq!(c.max_compressed_len(5), Some(c.compressed_len(&v)));
            assert_eq!(c.max_values(4), 0);
            assert_eq!(c.max_values(5), 5 * MAX_VALUES_PER_BYTE);
        }
    }
}

fn simd_kernels() -> Vec<SimdFor> {
    let ks: Vec<_> = crate::isa::Isa::ALL
        .into_iter()
        .filter_map(|isa| SimdFor::best().with_isa(isa))
        .collect();
    assert!(ks.iter().any(|k| k.isa() == crate::isa::Isa::Scalar));
    ks
}

/// Independent FOR decoder: bit by bit.
fn naive_for(values_bytes: &[u8], n: usize) -> Vec<u32> {
    let min = u32::from_le_bytes(values_bytes[..4].try_into().unwrap());
    let b = values_bytes[4] as usize;
    (0..n)
        .map(|i| {
            let mut v = 0u32;
            for k in 0..b {
                let bit = i * b + k;
                let byte = values_bytes[HEADER + bit / 8];
                v |= u32::from((byte >> (bit % 8)) & 1) << k;
            }
            v.wrapping_add(min)
        })
        .collect()
}

#[test]
fn for_matches_an_independent_decoder() {
    for n in lengths().filter(|&n| n % 5 == 0 || n > 250) {
        for (name, values) in corpus(n, 17) {
            let f = For.encode_to_vec(&values);
            assert_eq!(naive_for(&f, n), values, "FOR {name} n={n}");
        }
    }
}

#[test]
fn every_width() {
    let mut rng = Rng::new(3);
    for b in 0..=32u8 {
        let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        for n in [0usize, 1, 127, 128, 129, 300] {
            let min = rng.next_u32() >> 4;
            let mut values: Vec<u32> = (0..n)
                .map(|_| min.wrapping_add(rng.next_u32() & mask))
                .collect();
            if n > 0 && b > 0 {
                values[n / 2] = min.wrapping_add(mask);
                values[0] = min;
            }
            let f = ForArray::new(&values);
            for k in simd_kernels() {
                let s = SimdForArray::with_codec(k, &values);
                for (i, &v) in values.iter().enumerate() {
                    assert_eq!(f.select(i), Some(v));
                    assert_eq!(s.select(i), Some(v), "b={b} n={n} i={i} {:?}", k.isa());
                }
                assert_eq!(s.to_vec(), values);
            }
            assert_eq!(f.select(n), None);
        }
    }
}

#[test]
fn operations_match_a_slice() {
    let mut rng = Rng::new(8);
    for n in [0usize, 1, 2, 100, 128, 255, 256, 257, 1000] {
        let keys = crate::tests::sorted_keys(&mut rng, n, 1000, 40);
        // The largest key (the start on no keys).
        let last = keys.last().copied().unwrap_or(1000);
        let f = ForArray::new(&keys);
        assert_eq!(ForArray::from_encoded(f.as_bytes().to_vec(), n).unwrap(), f);
        for k in simd_kernels() {
            let s = SimdForArray::with_codec(k, &keys);
            let s2 = SimdForArray::from_encoded(k, s.as_bytes().to_vec(), n).unwrap();
            assert_eq!(s2.to_vec(), keys);
            for t in [0, 1000, 1001, last / 2 + 500, last, last + 1] {
                let i = keys.partition_point(|&v| v < t);
                let want = keys.get(i).map(|&v| (i, v));
                assert_eq!(f.lower_bound(t), want);
                assert_eq!(s.lower_bound(t), want);
            }
            let (mut f2, mut s3, mut want) = (f.clone(), s.clone(), keys.clone());
            for v in [0, last / 2, last + 100_000, 1000] {
                let at = want.partition_point(|&x| x <= v);
                want.insert(at, v);
                assert_eq!(f2.insert(v), at);
                assert_eq!(s3.insert(v), at);
            }
            assert_eq!(f2.to_vec(), want);
            assert_eq!(s3.to_vec(), want);
            assert_eq!((f2.len(), s3.len()), (n + 4, n + 4));
        }
    }
}

#[test]
fn malformed_inputs() {
    let values: Vec<u32> = (0..300).map(|i| 7 * i).collect();
    let f = For.encode_to_vec(&values);
    let b = f[4] as usize;
    for cut in 0..f.len() {
        let e = For.decode(&f[..cut], 300, &mut vec![0; 300]).unwrap_err();
        if cut < HEADER {
            assert_eq!(
                e,
                DecodeError::new(DecodeErrorKind::Truncated, cut, Some(0))
            );
        } else {
            // the first value whose bits are not all present
            let k = (cut - HEADER) * 8 / b;
            assert_eq!(
                e,
                DecodeError::new(DecodeErrorKind::Truncated, HEADER + k * b / 8, Some(k))
            );
        }
    }
    let mut bad = f.clone();
    bad[4] = 33;
    let e = For.decode(&bad, 300, &mut vec![0; 300]).unwrap_err();
    assert_eq!(e, DecodeError::new(DecodeErrorKind::Malformed, 4, Some(0)));
    // The sorted-stream operations see the same errors.
    for cut in [0, 3, HEADER, f.len() - 1] {
        let e = For.decode(&f[..cut], 300, &mut vec![0; 300]).unwrap_err();
        assert_eq!(For.select(&f[..cut], 300, 0, 0), Err(e));
        assert_eq!(For.lower_bound(&f[..cut], 300, 0, 5), Err(e));
    }
    for k in simd_kernels() {
        let s = k.encode_to_vec(&values);
        let blen = 16 * s[4] as usize;
        for cut in 0..s.len() {
            let e = k.decode(&s[..cut], 300, &mut vec![0; 300]).unwrap_err();
            let want = if cut < HEADER {
                DecodeError::new(DecodeErrorKind::Truncated, cut, Some(0))
            } else if cut < HEADER + 2 * blen {
                let j = (cut - HEADER) / blen;
                DecodeError::new(DecodeErrorKind::Truncated, HEADER + j * blen, Some(128 * j))
            } else {
                let t = (cut - HEADER - 2 * blen) * 8 / b;
                DecodeError::new(
                    DecodeErrorKind::Truncated,
                    HEADER + 2 * blen + t * b / 8,
                    Some(256 + t),
                )
            };
            assert_eq!(e, want, "cut {cut} {:?}", k.isa());
        }
        let mut bad = s.clone();
        bad[4] = 0xFF;
        assert_eq!(
            k.decode(&bad, 300, &mut vec![0; 300]).unwrap_err().kind(),
            DecodeErrorKind::Malformed
        );
    }
}

/// Regression (found by fuzzing in an earlier attempt): sizes computed from
/// an absurd count must not overflow (a panic in debug, a wrapped size that
/// passes the bounds check in release).
#[test]
fn absurd_counts_do_not_overflow() {
    let bytes = [1, 0, 0, 0, 32, 1, 2, 3];
    for n in [
        usize::MAX,
        usize::MAX / 2,
        usize::MAX / 32 + 1,
        usize::MAX / 16,
    ] {
        let e = For.encoded_len(&bytes, n).unwrap_err();
        assert_eq!(e.kind(), DecodeErrorKind::Truncated);
        assert!(ForArray::from_encoded(bytes.to_vec(), n).is_err());
        for k in simd_kernels() {
            let e = k.encoded_len(&bytes, n).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::Truncated);
            assert!(k.decode_to_vec(&bytes, n).is_err());
            assert!(SimdForArray::from_encoded(k, bytes.to_vec(), n).is_err());
        }
    }
    assert_eq!(stream_len(usize::MAX, 2), None);
}

/// `sorted_len` and `sorted_len_of_range` of sorted values are the
/// encoded length, at every width and around SIMD-FOR's 128-value blocks.
#[test]
fn sorted_lengths_are_the_encoded_ones() {
    let mut rng = Rng::new(5);
    for b in 0..=32u8 {
        let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        for n in [0usize, 1, 2, 127, 128, 129, 255, 256, 300] {
            let min = if b == 32 { 0 } else { rng.next_u32() >> 4 };
            let mut values: Vec<u32> = (0..n)
                .map(|_| min.wrapping_add(rng.next_u32() & mask))
                .collect();
            values.sort_unstable();
            let codecs: [&dyn SortedCodec; 2] = [&For, &SimdFor::best()];
            for c in codecs {
                let len = c.encode_to_vec(&values).len();
                assert_eq!(
                    c.sorted_len(&values, None),
                    Some(len),
                    "{} b={b} n={n}",
                    c.name()
                );
                if let (Some(&first), Some(&last)) = (values.first(), values.last()) {
                    let got = c.sorted_len_of_range(n, first, last, None);
                    assert_eq!(got, Some(len), "{} b={b} n={n}", c.name());
                }
            }
        }
    }
}
