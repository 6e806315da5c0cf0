//! `select_delta` on arbitrary bytes, every delta-coded byte format and
//! kernel (flag bits 6-7 and the low bit pick Stream VByte 1234 / 0124,
//! VByte, VarInt-GB low-first / Lucene), count from `DecodeCase`, a few
//! indexes from the input's first bytes plus `n - 1`, `n` and `usize::MAX`.
//! Every kernel must return the model's answer: the decoded value when the
//! values up to `i` decode, the full decode's error when one of them does
//! not (same kind, offset and index), `Ok(None)` past `n`. AddressSanitizer
//! catches any read past the input.
#![no_main]

use intcodec_fuzz::sorted::Queries;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (q, mut r) = Queries::split(data);
    let (input, n, prev) = (q.input, q.n, q.prev);
    let mut idx: Vec<usize> = (0..6).map(|_| r.u16() as usize).collect();
    idx.extend([n.wrapping_sub(1), n, usize::MAX, n / 2]);
    for &i in &idx {
        q.check(
            format_args!("select({i})"),
            |m| m.select(i),
            |k| k.select(input, n, prev, i),
        );
    }
});
