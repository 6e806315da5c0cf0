//! intcodec's VByte against two independent LEB128 / protobuf varint
//! implementations, `prost` (protobuf's encoding) and `integer-encoding`,
//! both directions, every kernel: random u32/u64 and the real posting lists
//! in ../shared/data/postings (delta-coded). Both crates are pure Rust
//! dev-dependencies, so these tests never skip; only the real data can be
//! missing (a loud skip, as for the other oracle tests).

use intcodec::vbyte::VByte;
use intcodec::IntCodec;
use intcodec_oracles::harness::{check_ours_matches, every_kernel, posting_files};
use intcodec_testkit::SplitMix64;
use integer_encoding::VarInt;

fn kernels() -> Vec<VByte> {
    every_kernel(VByte::new())
}

fn prost_encode<T: Copy + Into<u64>>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in values {
        prost::encoding::encode_varint(v.into(), &mut out);
    }
    out
}

fn prost_decode(mut input: &[u8], n: usize) -> Vec<u64> {
    (0..n)
        .map(|_| prost::encoding::decode_varint(&mut input).expect("prost decodes"))
        .collect()
}

fn ie_encode<T: VarInt + Copy>(values: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 10];
    for &v in values {
        let len = v.encode_var(&mut buf);
        out.extend_from_slice(&buf[..len]);
    }
    out
}

fn ie_decode<T: VarInt>(input: &[u8], n: usize) -> Vec<T> {
    let mut pos = 0;
    (0..n)
        .map(|_| {
            let (v, len) = T::decode_var(&input[pos..]).expect("integer-encoding decodes");
            pos += len;
            v
        })
        .collect()
}

fn gaps(ids: &[u32], mut prev: u32) -> Vec<u32> {
    ids.iter()
        .map(|&x| {
            let d = x.wrapping_sub(prev);
            prev = x;
            d
        })
        .collect()
}

/// u32 values (and, delta-coded from `prev`, as ids) both ways.
fn check_u32(values: &[u32], prev: u32, what: &str) {
    let n = values.len();
    let theirs = prost_encode(values);
    assert_eq!(ie_encode(values), theirs, "the two oracles agree: {what}");
    let theirs_delta = prost_encode(&gaps(values, prev));
    for k in kernels() {
        let ctx = format!("{what} n={n} {k:?}");
        check_ours_matches(&k, values, prev, &theirs, &theirs_delta, &ctx);
        // theirs encode -> ours decode to the end, too
        assert_eq!(
            k.decode_all_to_vec(&theirs).as_deref(),
            Ok(values),
            "decode_all {ctx}"
        );
        let mut out = vec![0; n];
        assert_eq!(k.decode(&theirs, n, &mut out), Ok(theirs.len()), "{ctx}");
    }
    // ours encode -> theirs decode
    let ours = VByte::new().encode_to_vec(values);
    let back: Vec<u32> = prost_decode(&ours, n)
        .into_iter()
        .map(|v| v as u32)
        .collect();
    assert_eq!(back, values, "prost decode of ours: {what}");
    assert_eq!(
        ie_decode::<u32>(&ours, n),
        values,
        "integer-encoding decode of ours: {what}"
    );
}

fn check_u64(values: &[u64], what: &str) {
    let n = values.len();
    let theirs = prost_encode(values);
    assert_eq!(ie_encode(values), theirs, "the two oracles agree: {what}");
    for k in kernels() {
        let ctx = format!("{what} n={n} {k:?}");
        assert_eq!(k.encode_u64_to_vec(values), theirs, "encode {ctx}");
        assert_eq!(
            k.decode_u64_to_vec(&theirs, n).as_deref(),
            Ok(values),
            "decode {ctx}"
        );
    }
    let ours = VByte::new().encode_u64_to_vec(values);
    assert_eq!(
        prost_decode(&ours, n),
        values,
        "prost decode of ours: {what}"
    );
    assert_eq!(
        ie_decode::<u64>(&ours, n),
        values,
        "integer-encoding decode of ours: {what}"
    );
}

#[test]
fn random_data_matches_prost_and_integer_encoding() {
    let mut rng = SplitMix64::new(0x1234_5678_9ABC_DEF1);
    let mut lengths: Vec<usize> = (0..=70).collect();
    lengths.extend([127, 128, 129, 1000, 4095, 4096, 4097, 100_000]);
    for &n in &lengths {
        let mixed: Vec<u32> = (0..n)
            .map(|_| (rng.next_u64() >> 32) as u32 >> (rng.next_u64() % 32))
            .collect();
        check_u32(&mixed, (rng.next_u64() >> 32) as u32, "mixed lengths");
        let full: Vec<u32> = (0..n).map(|_| (rng.next_u64() >> 32) as u32).collect();
        check_u32(&full, 0, "full range");
        let mut acc = 0u32;
        let sorted: Vec<u32> = (0..n)
            .map(|_| {
                acc =
                    acc.wrapping_add(((rng.next_u64() >> 32) as u32) >> (8 + rng.next_u64() % 24));
                acc
            })
            .collect();
        check_u32(&sorted, 0, "sorted");
        let mixed64: Vec<u64> = (0..n)
            .map(|_| rng.next_u64() >> (rng.next_u64() % 64))
            .collect();
        check_u64(&mixed64, "mixed u64 lengths");
        let full64: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
        check_u64(&full64, "full u64 range");
    }
}

#[test]
fn malformed_u64_agrees_with_prost() {
    // Random byte strings, biased to continuation bytes: whenever prost
    // decodes one value, so do we, to the same value and length; whenever it
    // refuses (over 10 bytes, a 10th byte above 1, truncated), so do we.
    let mut rng = SplitMix64::new(42);
    for _ in 0..20_000 {
        let len = (rng.next_u64() % 14) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                let b = rng.next_u64() as u8;
                if rng.next_u64().is_multiple_of(8) {
                    b & 0x7F
                } else {
                    b | 0x80
                }
            })
            .collect();
        let mut buf = &bytes[..];
        let theirs = prost::encoding::decode_varint(&mut buf).map(|v| (v, len - buf.len()));
        for k in kernels() {
            let mut out = [0u64; 1];
            let ours = k.decode_u64(&bytes, 1, &mut out).map(|used| (out[0], used));
            assert_eq!(
                ours.is_ok(),
                theirs.is_ok(),
                "{bytes:02x?} {k:?}: {ours:?} {theirs:?}"
            );
            if let (Ok(a), Ok(b)) = (&ours, &theirs) {
                assert_eq!(a, b, "{bytes:02x?} {k:?}");
            }
        }
    }
}

#[test]
fn real_posting_lists_match_prost_and_integer_encoding() {
    let test = "real_posting_lists_match_prost_and_integer_encoding";
    for file in posting_files(test, 1) {
        for list in &file.lists {
            // The ids (delta-coded from 0) and their gaps as plain values.
            check_u32(list, 0, file.name);
            check_u32(&gaps(list, 0), 0, file.name);
        }
        check_u32(&file.long, 0, file.name);
    }
}
