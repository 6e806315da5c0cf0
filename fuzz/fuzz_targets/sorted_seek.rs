//! `seek_delta` on arbitrary bytes, every delta-coded byte format and kernel
//! (chosen as in `sorted_select`), with targets from the input (and 0,
//! MAX, the decoded values and their neighbours). Every kernel must return
//! the model's answer: the first index whose value is `>= target` (linear
//! order, so unsorted streams count too) when the values up to it decode,
//! else the full decode's error; `Ok(None)` when no value reaches the
//! target in an intact stream.
#![no_main]

use intcodec_fuzz::sorted::Queries;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (q, mut r) = Queries::split(data);
    let (input, n, prev) = (q.input, q.n, q.prev);
    let mut targets: Vec<u32> = (0..4).map(|_| r.u32()).collect();
    targets.extend([0, 1, u32::MAX, prev]);
    if let Some(m) = &q.model {
        for &v in m.good.iter().step_by((m.good.len() / 16).max(1)) {
            targets.extend([v, v.wrapping_add(1), v.wrapping_sub(1)]);
        }
    }
    for &t in &targets {
        q.check(
            format_args!("seek({t})"),
            |m| m.seek(t),
            |k| k.lower_bound(input, n, prev, t),
        );
    }
});
