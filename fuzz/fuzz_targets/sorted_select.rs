//! `select_delta` on arbitrary bytes, every delta-coded byte format and
//! kernel (flag bits 6-7 and the low bit pick Stream VByte 1234 / 0124,
//! VByte, VarInt-GB low-first / Lucene), count from `DecodeCase`, a few
//! indexes from the input's first bytes plus `n - 1`, `n` and `usize::MAX`.
//! Every kernel must return the model's answer: the decoded value when the
//! values up to `i` decode, the full decode's error when one of them does
//! not (same kind, offset and index), `Ok(None)` past `n`. AddressSanitizer
//! catches any read past the input.
#![no_main]

use intcodec_fuzz::sorted::{kernels, Model};
use intcodec_fuzz::{DecodeCase, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (case, input) = DecodeCase::split(data, 4);
    let which = case.extra * 2 + case.variant_bit as u8;
    let ks = kernels(which);
    let (n, prev) = (case.n, case.prev);
    let mut r = Reader::new(input);
    let mut idx: Vec<usize> = (0..6).map(|_| r.u16() as usize).collect();
    idx.extend([n.wrapping_sub(1), n, usize::MAX, n / 2]);
    let model = Model::new(&ks[0], input, n, prev);
    for &i in &idx {
        let want = match &model {
            Some(m) => m.select(i),
            None => ks[0].select(input, n, prev, i),
        };
        for k in &ks {
            assert_eq!(k.select(input, n, prev, i), want, "{k:?} select({i}) n={n}");
        }
    }
});
