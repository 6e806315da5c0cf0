//! `SvbVec` (Stream VByte append) against a `Vec`: values from the input
//! pushed and extended in fuzzer-chosen batches, both variants, plain and
//! delta, every kernel. After each batch: `len`, `to_vec` = the
//! concatenation, `select` at a few indexes, `seek` (delta), and every few
//! batches `as_bytes` = `encode(_delta)` of the concatenation and
//! `from_bytes(_delta)` of it reads back the same values. The remaining
//! input is also fed raw to `from_bytes`: it must fail like `decode`, or
//! give a vector whose values are `decode`'s and that keeps appending
//! correctly.
//!
//! Input: byte 0 flags (bit 0 variant 0124, bit 1 delta, bits 2-3 value
//! shape), bytes 1-4 `prev`, byte 5 batch seed, bytes 6-7 raw count, then
//! the values (4 bytes each).
#![no_main]

use intcodec::sorted::SvbVec;
use intcodec::{IntCodec, SortedSet};
use intcodec_fuzz::{svb, values_from, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let flags = r.u8();
    let prev = r.u32();
    let mut seed = r.u8() as usize;
    let raw_n = r.u16() as usize;
    let rest = r.rest();
    let values = values_from(rest, flags >> 2);
    let delta = flags & 2 != 0;
    // `prev` of the `_opt` calls: `None` plain.
    let from = delta.then_some(prev);
    for &codec in svb::kernels(svb::variant(flags & 1 != 0)) {
        let load = |bytes: &[u8], n| match from {
            Some(prev) => SvbVec::from_bytes_delta(codec, bytes, n, prev),
            None => SvbVec::from_bytes(codec, bytes, n),
        };
        let mut v = match from {
            Some(prev) => SvbVec::new_delta(codec, prev),
            None => SvbVec::new(codec),
        };
        let mut all: Vec<u32> = Vec::new();
        let mut at = 0;
        let mut round = 0;
        while at < values.len() {
            seed = seed.wrapping_mul(31).wrapping_add(7);
            let k = (1 + seed % 37).min(values.len() - at);
            let batch = &values[at..at + k];
            if round % 2 == 0 {
                v.extend(batch.iter().copied());
            } else {
                for &x in batch {
                    v.push(x);
                }
            }
            all.extend_from_slice(batch);
            at += k;
            round += 1;
            assert_eq!(v.len(), all.len());
            assert_eq!(v.to_vec(), all, "{codec:?}");
            for i in [0, all.len() / 2, all.len() - 1, all.len(), seed] {
                assert_eq!(v.select(i), all.get(i).copied(), "{codec:?} select({i})");
            }
            if delta {
                let t = all[seed % all.len()];
                let want = all.iter().position(|&x| x >= t).map(|i| (i, all[i]));
                assert_eq!(v.lower_bound(t), want, "{codec:?} lower_bound({t})");
            }
            if round % 4 == 1 {
                let want = codec.encode_opt_to_vec(&all, from);
                assert_eq!(v.as_bytes(), &want[..], "{codec:?} as_bytes");
                let back = load(&want, all.len()).unwrap();
                assert_eq!(back.to_vec(), all);
            }
        }
        // Arbitrary bytes as a stream.
        let loaded = load(rest, raw_n);
        let decoded = codec.decode_opt_to_vec(rest, raw_n, from);
        match (loaded, decoded) {
            (Ok(mut l), Ok(d)) => {
                assert_eq!(l.to_vec(), d);
                l.push(12345);
                let mut d2 = d.clone();
                d2.push(12345);
                assert_eq!(l.to_vec(), d2);
                // The bytes decode to the values (non-minimal codes in the
                // input stay as they are, so bytes are not compared with a
                // fresh encoding). Every kernel runs: no early return here.
                let b = l.as_bytes().to_vec();
                let back = codec.decode_opt_to_vec(&b, d2.len(), from);
                assert_eq!(back.unwrap(), d2, "{codec:?}");
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{codec:?} from_bytes vs decode"),
            (a, b) => panic!(
                "{codec:?}: from_bytes {:?} vs decode {:?}",
                a.is_ok(),
                b.is_ok()
            ),
        }
    }
});
