//! Single-value varint decoders (`intcodec::varint`) on arbitrary bytes:
//! every kernel (`Varint::with_kernel`) and the free functions, for u8,
//! u16, u32 and u64 (the first input byte picks the type), on an
//! exact-size copy of the input (so AddressSanitizer sees any read past
//! it), against an independent byte-at-a-time reference: `decode`, `read`,
//! `decode_zigzag`, `decode_two/four/eight` (value by value), and on
//! success the value re-encoded (`encode`, `encode_to_slice` into an
//! exact-size buffer, one byte short is an error) and, with exactly 16
//! readable bytes, `decode_unchecked` on the canonical bytes.
#![no_main]

use intcodec::varint::{self, Signed, Varint, Word, PADDING};
use intcodec::{DecodeError, DecodeErrorKind};
use intcodec_fuzz::varint::{kernels, reference};
use libfuzzer_sys::fuzz_target;

fn expect<T: Word>(input: &[u8]) -> Result<(T, usize), DecodeErrorKind> {
    reference::<T>(input).map(|(v, len)| (T::from_u64(v), len))
}

/// `n` values read one by one with the reference, and their bytes; the
/// first failure's kind at its offset and index.
fn many<T: Word>(input: &[u8], n: usize) -> Result<(Vec<T>, usize), DecodeError> {
    let mut pos = 0;
    let one = |i| {
        let (v, len) = expect::<T>(&input[pos..]).map_err(|k| DecodeError::new(k, pos, Some(i)))?;
        pos += len;
        Ok(v)
    };
    let values = (0..n).map(one).collect::<Result<Vec<T>, DecodeError>>()?;
    Ok((values, pos))
}

fn check<T: Word, S: Signed<Unsigned = T>>(input: &[u8]) {
    let exact: Vec<u8> = input.to_vec();
    let want = expect::<T>(&exact);
    let free = varint::decode::<T>(&exact).map_err(|e| e.kind());
    assert_eq!(free, want, "free decode");
    let mut cur: &[u8] = &exact;
    let r = varint::read::<T>(&mut cur).map_err(|e| e.kind());
    assert_eq!(r, want.map(|(v, _)| v), "free read");
    let ks: Vec<(Option<Varint>, &str)> = kernels()
        .iter()
        .map(|k| (Some(*k), k.kernel().name()))
        .chain([(None, "free")])
        .collect();
    for (k, name) in ks {
        if let Some(k) = k {
            let got = k.decode::<T>(&exact).map_err(|e| e.kind());
            assert_eq!(got, want, "{name} decode");
            let z = k.decode_zigzag::<S>(&exact).map_err(|e| e.kind());
            assert_eq!(z, want.map(|(v, l)| (S::unzigzag(v), l)), "{name} zigzag");
        }
        let two = match k {
            Some(k) => k.decode_two::<T>(&exact).map(|(a, n)| (a.to_vec(), n)),
            None => varint::decode_two::<T>(&exact).map(|(a, n)| (a.to_vec(), n)),
        };
        assert_eq!(two, many::<T>(&exact, 2), "{name} two");
        let four = match k {
            Some(k) => k.decode_four::<T>(&exact).map(|(a, n)| (a.to_vec(), n)),
            None => varint::decode_four::<T>(&exact).map(|(a, n)| (a.to_vec(), n)),
        };
        assert_eq!(four, many::<T>(&exact, 4), "{name} four");
        let eight = match k {
            Some(k) => k.decode_eight::<T>(&exact).map(|(a, n)| (a.to_vec(), n)),
            None => varint::decode_eight::<T>(&exact).map(|(a, n)| (a.to_vec(), n)),
        };
        assert_eq!(eight, many::<T>(&exact, 8), "{name} eight");
    }
    let Ok((v, _)) = want else { return };
    // Canonical bytes of the value, from every kernel, and back.
    let (canon, len) = varint::encode(v);
    let canon = canon[..len].to_vec();
    assert_eq!(len, varint::encoded_len(v));
    for k in kernels() {
        let (b, l) = k.encode(v);
        assert_eq!(&b[..l], &canon[..], "{k:?} encode");
        let mut out = vec![0u8; len];
        assert_eq!(k.encode_to_slice(v, &mut out), Ok(len));
        assert_eq!(out, canon);
        let mut short = vec![0u8; len - 1];
        assert!(k.encode_to_slice(v, &mut short).is_err());
        let mut padded = canon.clone();
        padded.resize(PADDING, 0xFF);
        // SAFETY: `padded` is exactly 16 readable bytes.
        let u = unsafe { k.decode_unchecked::<T>(&padded) };
        assert_eq!(u, (v, len), "{k:?} unchecked");
        assert_eq!(k.decode::<T>(&canon), Ok((v, len)));
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, input)) = data.split_first() else {
        return;
    };
    match sel % 4 {
        0 => check::<u8, i8>(input),
        1 => check::<u16, i16>(input),
        2 => check::<u32, i32>(input),
        _ => check::<u64, i64>(input),
    }
});
