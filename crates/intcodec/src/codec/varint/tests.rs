//! Every kernel against the byte-at-a-time reference: exhaustive u8/u16,
//! every length of u32/u64, every malformed class, multi-value, unchecked,
//! proptest.

use super::scalar::{reference, reference_encode};
use super::*;
use proptest::prelude::*;

/// `$f::<T>($args)` for every word type `T` (u8, u16, u32, u64).
macro_rules! every_type {
    ($f:ident($($a:expr),*)) => {
        $f::<u8>($($a),*);
        $f::<u16>($($a),*);
        $f::<u32>($($a),*);
        $f::<u64>($($a),*);
    };
}

fn kernels() -> Vec<Varint> {
    let k: Vec<Varint> = enabled_kernels().collect();
    assert_eq!(k[0].kernel(), Kernel::Scalar);
    #[cfg(target_arch = "x86_64")]
    if crate::isa::isa_override().is_none() && Isa::Avx2.is_detected() {
        assert_eq!(k.len(), 3, "every kernel runs on this CPU");
    }
    k
}

fn expected<T: Word>(input: &[u8]) -> Result<(T, usize), DecodeError> {
    reference::<T>(input)
        .map(|(v, len)| (T::from_u64(v), len))
        .map_err(single)
}

fn ref_bytes(v: u64) -> Vec<u8> {
    let mut b = [0u8; 16];
    let n = reference_encode(v, &mut b);
    b[..n].to_vec()
}

/// Decodes `input` with every kernel as an exact-size slice (a fresh
/// allocation, so a read past it is an out-of-bounds access for Miri and
/// ASan), checking the result against the reference; also `read`,
/// `decode_zigzag`-free paths and, when 16 bytes are readable and the
/// value is valid, `decode_unchecked`.
fn check_decode<T: Word>(ks: &[Varint], input: &[u8]) {
    let want = expected::<T>(input);
    let exact: Vec<u8> = input.to_vec();
    for k in ks {
        assert_eq!(k.decode::<T>(&exact), want, "{:?} {:02x?}", k, input);
        let mut cur: &[u8] = &exact;
        match k.read::<T>(&mut cur) {
            Ok(v) => {
                let (wv, wl) = want.unwrap();
                assert_eq!(v, wv);
                assert_eq!(cur.len(), exact.len() - wl);
            }
            Err(e) => {
                assert_eq!(Err(e), want);
                assert_eq!(cur.len(), exact.len());
            }
        }
        if let (Ok(w), true) = (want, exact.len() >= PADDING) {
            // SAFETY: 16 readable bytes.
            let got = unsafe { k.decode_unchecked::<T>(&exact) };
            assert_eq!(got, w, "{k:?} unchecked {input:02x?}");
        }
    }
}

fn check_encode<T: Word>(ks: &[Varint], v: T) {
    let want = ref_bytes(v.to_u64());
    assert_eq!(encoded_len(v), want.len());
    for k in ks {
        let (arr, len) = k.encode(v);
        assert_eq!(&arr[..len], &want[..], "{k:?} {v:?}");
        assert!(arr[len..].iter().all(|&b| b == 0), "{k:?} {v:?} tail");
        let roomy = check_outputs(&want, 24, |out| k.encode_to_slice(v, out));
        assert!(roomy[10..].iter().all(|&b| b == 0xEE), "wrote past 10");
    }
}

/// `encode` into an output of exactly `want.len()` bytes and into one of
/// `roomy` bytes (of `0xEE`, returned) writes `want`; one byte short is
/// `OutputTooSmall`.
fn check_outputs(
    want: &[u8],
    roomy: usize,
    mut encode: impl FnMut(&mut [u8]) -> Result<usize, EncodeError>,
) -> Vec<u8> {
    let mut exact = vec![0u8; want.len()];
    assert_eq!(encode(&mut exact), Ok(want.len()));
    assert_eq!(exact, want);
    let mut roomy = vec![0xEEu8; roomy];
    assert_eq!(encode(&mut roomy), Ok(want.len()));
    assert_eq!(&roomy[..want.len()], want);
    let mut short = vec![0u8; want.len() - 1];
    assert_eq!(
        encode(&mut short),
        Err(EncodeError::OutputTooSmall {
            needed: want.len(),
            available: want.len() - 1
        })
    );
    roomy
}

/// Decodes the encoding of `v` in several settings: exact, followed by
/// continuation garbage, inside a 16-byte-padded buffer.
fn check_value<T: Word>(ks: &[Varint], v: T) {
    check_encode(ks, v);
    let bytes = ref_bytes(v.to_u64());
    check_decode::<T>(ks, &bytes);
    let mut padded = bytes.clone();
    padded.extend_from_slice(&[0xFF; 16]);
    check_decode::<T>(ks, &padded);
    let mut zero = bytes.clone();
    zero.extend_from_slice(&[0x00; 3]);
    check_decode::<T>(ks, &zero);
    // Every truncation of it is Truncated.
    for cut in 0..bytes.len() {
        // A fresh allocation of exactly `cut` bytes.
        let exact: Vec<u8> = bytes[..cut].to_vec();
        for k in ks {
            assert_eq!(
                k.decode::<T>(&exact).map_err(|e| e.kind()),
                Err(DecodeErrorKind::Truncated)
            );
        }
    }
}

#[test]
fn exhaustive_u8_and_u16() {
    let ks = kernels();
    for v in 0..=u8::MAX {
        check_value(&ks, v);
    }
    for v in 0..=u16::MAX {
        check_value(&ks, v);
    }
}

#[test]
fn every_length_u32_u64() {
    let ks = kernels();
    let mut seed = 0x1234_5678_9ABC_DEF0u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for len in 1..=10u32 {
        let lo = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
        let hi = if len == 10 {
            u64::MAX
        } else {
            (1u64 << (7 * len)) - 1
        };
        let mut vals = vec![lo, lo + 1, hi, hi - 1];
        for _ in 0..200 {
            vals.push(lo + rnd() % (hi - lo));
        }
        for v in vals {
            assert_eq!(encoded_len(v), len as usize);
            check_value(&ks, v);
            if let Ok(v32) = u32::try_from(v) {
                check_value(&ks, v32);
            }
        }
    }
}

/// Every class of malformed input on every type, every kernel.
#[test]
fn malformed_classes() {
    let ks = kernels();
    fn all<T: Word>(ks: &[Varint]) {
        let m = T::MAX_BYTES;
        // Overlong: MAX_BYTES bytes that all continue (then more bytes or not).
        let overlong = vec![0x80u8; m];
        let mut more = overlong.clone();
        more.extend_from_slice(&[0x00; 10]);
        // Overflow: last byte above LAST, each possible excess.
        for last in (T::LAST + 1)..0x80 {
            let mut b = vec![0xFFu8; m - 1];
            b.push(last);
            assert_eq!(
                expected::<T>(&b).unwrap_err().kind(),
                DecodeErrorKind::Overflow
            );
            check_decode::<T>(ks, &b);
            b.extend_from_slice(&[0u8; 16]);
            check_decode::<T>(ks, &b);
        }
        for b in [&overlong, &more] {
            assert_eq!(
                expected::<T>(b).unwrap_err().kind(),
                DecodeErrorKind::Overlong
            );
            check_decode::<T>(ks, b);
        }
        // Non-minimal forms within MAX_BYTES decode.
        for n in 1..m {
            let mut b = vec![0x80u8; n];
            b.push(0);
            assert_eq!(expected::<T>(&b), Ok((T::from_u64(0), n + 1)));
            check_decode::<T>(ks, &b);
        }
        // Empty and all-continuation prefixes shorter than MAX: Truncated.
        for n in 0..m {
            let b = vec![0xFFu8; n];
            assert_eq!(
                expected::<T>(&b).unwrap_err().kind(),
                DecodeErrorKind::Truncated
            );
            check_decode::<T>(ks, &b);
        }
    }
    every_type!(all(&ks));
}

/// Every string of up to 5 bytes over an alphabet that hits every branch,
/// at every slice length, every type: kernels agree with the reference.
#[test]
fn small_alphabet_strings() {
    let ks = kernels();
    const A: [u8; 9] = [0x00, 0x01, 0x02, 0x0F, 0x10, 0x7F, 0x80, 0x81, 0xFF];
    let mut buf = Vec::new();
    for len in 0..=5u32 {
        for code in 0..A.len().pow(len) {
            buf.clear();
            let mut c = code;
            for _ in 0..len {
                buf.push(A[c % A.len()]);
                c /= A.len();
            }
            check_decode_every_type(&ks, &buf);
        }
    }
}

#[test]
fn u64_nine_and_ten_byte_edges() {
    let ks = kernels();
    // 9 continuation bytes then each possible 10th byte; 8 then a 9th
    // byte that ends or continues, at every slice length.
    for last in 0..=0xFFu8 {
        let mut b = vec![0xFFu8; 9];
        b.push(last);
        for n in 0..=b.len() {
            check_decode::<u64>(&ks, &b[..n]);
        }
        b.extend_from_slice(&[0xAA; 6]);
        check_decode::<u64>(&ks, &b);
        let mut c = vec![0x80u8; 8];
        c.push(last);
        c.push(0x01);
        check_decode::<u64>(&ks, &c);
        c.extend_from_slice(&[0x80; 6]);
        check_decode::<u64>(&ks, &c);
    }
}

#[test]
fn zigzag_edges() {
    let ks = kernels();
    fn go<S: Signed>(ks: &[Varint], vals: &[S], zz: &[u64]) {
        for (&v, &z) in vals.iter().zip(zz) {
            assert_eq!(v.zigzag().to_u64(), z, "{v:?}");
            for k in ks {
                let (b, len) = k.encode_zigzag(v);
                assert_eq!(&b[..len], &ref_bytes(z)[..]);
                assert_eq!(k.decode_zigzag::<S>(&b[..len]), Ok((v, len)));
            }
        }
    }
    go::<i8>(
        &ks,
        &[0, -1, 1, -64, 64, i8::MIN, i8::MAX],
        &[0, 1, 2, 127, 128, 255, 254],
    );
    go::<i16>(
        &ks,
        &[0, -1, 1, i16::MIN, i16::MAX],
        &[0, 1, 2, 65535, 65534],
    );
    go::<i32>(
        &ks,
        &[0, -1, 1, i32::MIN, i32::MAX],
        &[0, 1, 2, u32::MAX as u64, u32::MAX as u64 - 1],
    );
    go::<i64>(
        &ks,
        &[0, -1, 1, i64::MIN, i64::MAX],
        &[0, 1, 2, u64::MAX, u64::MAX - 1],
    );
    for v in i8::MIN..=i8::MAX {
        assert_eq!(i8::unzigzag(v.zigzag()), v);
    }
    for v in i16::MIN..=i16::MAX {
        assert_eq!(i16::unzigzag(v.zigzag()), v);
    }
}

/// The sequential reference of `decode_many`.
fn expected_many<T: Word>(input: &[u8], n: usize) -> Result<(Vec<T>, usize), DecodeError> {
    let mut pos = 0;
    let out = (0..n)
        .map(|i| {
            let at = |kind| DecodeError::new(kind, pos, Some(i));
            let (v, len) = reference::<T>(&input[pos..]).map_err(at)?;
            pos += len;
            Ok(T::from_u64(v))
        })
        .collect::<Result<_, _>>()?;
    Ok((out, pos))
}

/// [`check_decode`] for every word type.
fn check_decode_every_type(ks: &[Varint], input: &[u8]) {
    every_type!(check_decode(ks, input));
}

/// A 64-bit LCG from `seed`, each step's state shifted right by `shift`.
fn lcg(mut seed: u64, shift: u32) -> impl FnMut() -> u64 {
    move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> shift
    }
}

fn check_many<T: Word>(ks: &[Varint], input: &[u8]) {
    // Exactly the input, and the input followed by 48 one-byte values: the
    // window fast paths (which need up to 48 readable bytes) run only on
    // the second.
    let exact = input.to_vec();
    let mut roomy = input.to_vec();
    roomy.extend([0x01; 48]);
    for bytes in [&exact, &roomy] {
        for k in ks {
            let w2 = expected_many::<T>(bytes, 2);
            assert_eq!(k.decode_two::<T>(bytes).map(|(a, n)| (a.to_vec(), n)), w2);
            let w4 = expected_many::<T>(bytes, 4);
            assert_eq!(k.decode_four::<T>(bytes).map(|(a, n)| (a.to_vec(), n)), w4);
            let w8 = expected_many::<T>(bytes, 8);
            assert_eq!(k.decode_eight::<T>(bytes).map(|(a, n)| (a.to_vec(), n)), w8);
        }
    }
}

fn check_encode_many<T: Word>(ks: &[Varint], vals: &[T; 8]) {
    let want: Vec<u8> = vals.iter().flat_map(|v| ref_bytes(v.to_u64())).collect();
    let w4: usize = vals[..4].iter().map(|&v| encoded_len(v)).sum();
    for k in ks {
        let four: &[T; 4] = vals[..4].try_into().unwrap();
        let mut exact = vec![0u8; w4];
        assert_eq!(k.encode_four(four, &mut exact), Ok(w4));
        assert_eq!(&exact[..], &want[..w4]);
        let mut short = vec![0u8; w4 - 1];
        assert!(k.encode_four(four, &mut short).is_err());
        check_outputs(&want, want.len() + 16, |out| k.encode_eight(vals, out));
        // Each value decodes back.
        check_many::<T>(ks, &want);
    }
}

#[test]
fn multi_value_streams() {
    let ks = kernels();
    let mut rnd = lcg(99, 11);
    for _ in 0..2000 {
        // Values of random widths; a random cut; sometimes a corrupted byte.
        let mut vals = [0u64; 8];
        for v in &mut vals {
            *v = rnd() >> (rnd() % 64);
        }
        let v8: [u8; 8] = vals.map(|v| v as u8);
        let v16: [u16; 8] = vals.map(|v| v as u16);
        let v32: [u32; 8] = vals.map(|v| v as u32);
        check_encode_many(&ks, &v8);
        check_encode_many(&ks, &v16);
        check_encode_many(&ks, &v32);
        check_encode_many(&ks, &vals);
        let mut bytes: Vec<u8> = vals.iter().flat_map(|&v| ref_bytes(v)).collect();
        bytes.extend_from_slice(&[0x80, 0x00, 0x05]);
        let cut = (rnd() as usize) % (bytes.len() + 1);
        let mut b = bytes[..cut].to_vec();
        if rnd().is_multiple_of(3) && !b.is_empty() {
            let i = (rnd() as usize) % b.len();
            b[i] = rnd() as u8;
        }
        every_type!(check_many(&ks, &b));
    }
}

/// 3000 streams of `min_n + 0..span` values `value(rnd)` with up to 19
/// random bytes after them, every third with one byte replaced (by `0x80`,
/// `bad`, `0xFF` or a random byte); `check` gets each stream from each of
/// its first `offsets` bytes, as an exact-size copy.
fn corrupted_streams(
    seed: u64,
    min_n: usize,
    span: usize,
    value: impl Fn(&mut dyn FnMut() -> u64) -> u64,
    bad: u8,
    offsets: usize,
    check: impl Fn(&[u8]),
) {
    let mut rnd = lcg(seed, 13);
    for round in 0..3000 {
        let n = min_n + (rnd() as usize) % span;
        let mut bytes: Vec<u8> = Vec::new();
        for _ in 0..n {
            bytes.extend(ref_bytes(value(&mut rnd)));
        }
        for _ in 0..(rnd() % 20) {
            bytes.push(rnd() as u8);
        }
        if round % 3 == 0 {
            let i = (rnd() as usize) % bytes.len();
            bytes[i] = match rnd() % 4 {
                0 => 0x80,
                1 => bad,
                2 => 0xFF,
                _ => rnd() as u8,
            };
        }
        for off in 0..bytes.len().min(offsets) {
            // A fresh allocation of exactly the stream: a read past it is
            // out of bounds for Miri and AddressSanitizer.
            let exact = bytes[off..].to_vec();
            check(&exact);
        }
    }
}

/// Streams of valid u8 values (so the loop-free eight-value paths succeed),
/// then corrupted ones, decoded from every offset by every kernel and the
/// free functions, against the reference.
#[test]
fn eight_u8_streams() {
    let ks = kernels();
    // Mostly one or two bytes, like random u8s; sometimes 0x80..0xFF.
    let value = |rnd: &mut dyn FnMut() -> u64| (rnd() & 0xFF) >> (rnd() % 3);
    corrupted_streams(5, 8, 24, value, 0x02, 12, |exact| {
        check_many::<u8>(&ks, exact);
        assert_eq!(
            decode_eight::<u8>(exact).map(|(a, n)| (a.to_vec(), n)),
            expected_many::<u8>(exact, 8)
        );
    });
}

/// Streams of valid u16 values of one to three bytes (so the table paths
/// of two and four values succeed), some corrupted (a four-byte value, a
/// third byte too large, a cut), decoded from every offset by every
/// kernel and the free functions, against the reference; u8 as well,
/// whose two-byte values overflow when the second byte exceeds 1.
#[test]
fn small_value_streams() {
    fn free<T: Word>(exact: &[u8]) {
        let two = decode_two::<T>(exact).map(|(a, n)| (a.to_vec(), n));
        assert_eq!(two, expected_many::<T>(exact, 2), "{exact:02x?}");
        let four = decode_four::<T>(exact).map(|(a, n)| (a.to_vec(), n));
        assert_eq!(four, expected_many::<T>(exact, 4), "{exact:02x?}");
    }
    let ks = kernels();
    let value = |rnd: &mut dyn FnMut() -> u64| (rnd() & 0xFFFF) >> (rnd() % 17);
    corrupted_streams(17, 4, 12, value, 0x04, 8, |exact| {
        check_many::<u16>(&ks, exact);
        check_many::<u8>(&ks, exact);
        free::<u16>(exact);
        free::<u8>(exact);
    });
}

/// The index and shuffle tables of the SSSE3 two-/four-value path, checked
/// entry by entry against a direct reading of the continuation bits.
#[cfg(target_arch = "x86_64")]
#[test]
fn small_value_tables_match_the_masks() {
    for (l, n) in [(2usize, 2usize), (2, 4), (3, 2), (3, 4)] {
        for m in 0..1usize << (l * n) {
            // Distinct payloads (each value's bytes land in its own lane),
            // last bytes 0 or 1 so that no value overflows u8 or u16.
            let mut bytes = [0u8; 16];
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = if m >> i & 1 == 1 {
                    0x80 | (i as u8).wrapping_mul(37).wrapping_add(5)
                } else {
                    i as u8 & 1
                };
            }
            // Continuation bits past the window: the result must not
            // depend on them.
            for tail in [0x01u8, 0x81] {
                bytes[l * n..].fill(tail);
                let want = if l == 2 {
                    expected_many::<u8>(&bytes, n).ok().map(|(_, len)| len)
                } else {
                    expected_many::<u16>(&bytes, n).ok().map(|(_, len)| len)
                };
                let got = match (l, n) {
                    (2, 2) => x86_many::<u8, 2>(&bytes),
                    (2, 4) => x86_many::<u8, 4>(&bytes),
                    (3, 2) => x86_many::<u16, 2>(&bytes),
                    _ => x86_many::<u16, 4>(&bytes),
                };
                assert_eq!(got, want, "L={l} N={n} mask {m:#x} tail {tail:#x}");
            }
        }
    }
}

/// The SSSE3 table path's length, when the CPU has SSSE3 (`None` when the
/// path declines; the tests above check the values).
#[cfg(target_arch = "x86_64")]
fn x86_many<T: Word, const N: usize>(bytes: &[u8]) -> Option<usize> {
    if !Kernel::Ssse3.is_enabled() {
        return expected_many::<T>(bytes, N).ok().map(|(_, len)| len);
    }
    // SAFETY: SSSE3 present (checked just above).
    let (r, len) = unsafe { x86::ssse3::many_small::<T, N>(bytes) };
    if len == 0 {
        return None;
    }
    let want = expected_many::<T>(bytes, N).ok()?;
    assert_eq!(x86::ssse3::small_values::<T, N>(r).to_vec(), want.0);
    Some(len)
}

#[test]
fn free_functions_use_the_best_kernel() {
    let best = Varint::new();
    assert!(best.kernel().is_enabled());
    let (b, n) = encode(300u32);
    assert_eq!(&b[..n], [0xAC, 0x02]);
    assert_eq!(decode::<u32>(&b[..n]), Ok((300, 2)));
    let mut cur: &[u8] = &[0x01, 0xAC, 0x02, 0x80];
    assert_eq!(read::<u16>(&mut cur), Ok(1));
    assert_eq!(read::<u16>(&mut cur), Ok(300));
    assert_eq!(
        read::<u16>(&mut cur).map_err(|e| e.kind()),
        Err(DecodeErrorKind::Truncated)
    );
    assert_eq!(cur, [0x80]);
    let mut out = [0u8; 3];
    assert_eq!(encode_to_slice(300u64, &mut out), Ok(2));
    assert_eq!(decode_zigzag::<i32>(&[0x27]), Ok((-20, 1)));
    assert_eq!(encode_zigzag(-20i64).1, 1);
    let mut buf = [0u8; 40];
    let n = encode_eight(&[1u32, 2, 300, 4, 5, 6, 70000, 8], &mut buf).unwrap();
    assert_eq!(
        decode_eight::<u32>(&buf[..n]),
        Ok(([1, 2, 300, 4, 5, 6, 70000, 8], n))
    );
    assert_eq!(decode_four::<u32>(&buf[..n]).unwrap().0, [1, 2, 300, 4]);
    assert_eq!(decode_two::<u32>(&buf[..n]).unwrap().1, 2);
    let n = encode_four(&[1u8, 200, 3, 255], &mut buf).unwrap();
    assert_eq!(n, 6);
    let mut padded = [0u8; 16];
    padded[..2].copy_from_slice(&[0xAC, 0x02]);
    // SAFETY: 16 readable bytes.
    assert_eq!(unsafe { decode_unchecked::<u32>(&padded) }, (300, 2));
}

proptest! {
    #[test]
    fn prop_round_trip(v in any::<u64>(), shift in 0u32..64, tail in proptest::collection::vec(any::<u8>(), 0..20)) {
        let ks = kernels();
        let v = v >> shift;
        check_encode(&ks, v);
        check_encode(&ks, v as u32);
        check_encode(&ks, v as u16);
        check_encode(&ks, v as u8);
        let mut b = ref_bytes(v);
        b.extend_from_slice(&tail);
        check_decode_every_type(&ks, &b);
    }

    #[test]
    fn prop_garbage(b in proptest::collection::vec(any::<u8>(), 0..40)) {
        let ks = kernels();
        check_decode_every_type(&ks, &b);
        check_many::<u32>(&ks, &b);
        check_many::<u64>(&ks, &b);
    }
}
