//! `insert_delta` on every delta-coded byte format and kernel (format from
//! byte 0): values from the input, sorted, encoded, then a few values
//! inserted one by one; after each, the index must be the `Vec`'s
//! `partition_point(|v| v <= x)` (after equal values) and the stream must equal the encoding of the `Vec`
//! with the value inserted. Then `insert_delta` on the raw input as a
//! stream: it must fail (leaving the bytes alone) or succeed only where
//! the values up to the insertion point decode.
//!
//! Input: byte 0 format, bytes 1-4 `prev`, byte 5 value shape, bytes 6-7
//! raw count (bit 15: absurd, `usize::MAX - k`), then inserts (4 bytes
//! each, 4 of them) and the values.
#![no_main]

use intcodec_fuzz::sorted::kernels;
use intcodec_fuzz::{values_from, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let which = r.u8();
    let prev = r.u32();
    let shape = r.u8();
    // Bit 15 set: an absurd count (`usize::MAX - k`), which must fail
    // without allocating by it.
    let raw_n = match r.u16() {
        k if k & 0x8000 != 0 => usize::MAX - (k & 0x7FFF) as usize,
        k => k as usize,
    };
    let inserts: Vec<u32> = (0..4).map(|_| r.u32()).collect();
    let rest = r.rest();
    let mut values: Vec<u32> = values_from(rest, shape)
        .into_iter()
        .map(|v| v.max(prev))
        .collect();
    values.sort_unstable();
    values.truncate(2000);
    for k in kernels(which) {
        let mut list = values.clone();
        let mut bytes = k.encode_delta_to_vec(&list, prev);
        for &x in &inserts {
            let x = x.max(prev);
            let at = k.insert(&mut bytes, list.len(), prev, x).unwrap();
            assert_eq!(at, list.partition_point(|&v| v <= x), "{k:?}");
            list.insert(at, x);
            assert_eq!(
                bytes,
                k.encode_delta_to_vec(&list, prev),
                "{k:?} insert {x}"
            );
        }
        let mut raw = rest.to_vec();
        if k.insert(&mut raw, raw_n, prev, inserts[0]).is_err() {
            assert_eq!(raw, rest, "{k:?}: failed insert changed the stream");
        }
    }
});
