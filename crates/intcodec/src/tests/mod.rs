//! Internal test harness: deterministic corpus generators and the list of
//! lengths every kernel is run on.

pub(crate) mod conformance;
pub(crate) mod guard;
mod kernel_lists;
mod registry_conformance;

/// The project's one seeded PRNG (SplitMix64, from `intcodec-testkit`).
pub(crate) use intcodec_testkit::SplitMix64 as Rng;

/// Lengths that exercise every tail: 0..=300 and block boundaries up to 4096.
pub(crate) use intcodec_testkit::corpus::lengths;

/// Named input families of length `n`: all-zero, all-MAX, each byte width,
/// alternating and random widths, and sorted lists with small gaps.
pub(crate) use intcodec_testkit::corpus::families as corpus;

/// `n` non-decreasing keys after `start`, each gap below `gaps`.
pub(crate) fn sorted_keys(rng: &mut Rng, n: usize, start: u32, gaps: u32) -> alloc::vec::Vec<u32> {
    let mut acc = start;
    (0..n)
        .map(|_| {
            acc += rng.next_u32() % gaps;
            acc
        })
        .collect()
}

/// `k`'s checked decode and delta decode (from `prev`) of `n` values of
/// `stream` give what `reference`'s give: the same result, and the same
/// values where it is `Ok`. `at` names the case in a failure.
pub(crate) fn same_decodes(
    reference: &dyn crate::IntCodec,
    k: &dyn crate::IntCodec,
    stream: &[u8],
    n: usize,
    prev: u32,
    at: &str,
) {
    let mut want = alloc::vec![0u32; n];
    let mut got = alloc::vec![0u32; n];
    let r = reference.decode(stream, n, &mut want);
    assert_eq!(k.decode(stream, n, &mut got), r, "{at}");
    if r.is_ok() {
        assert_eq!(got, want, "{at}");
    }
    let r = reference.decode_delta(stream, n, prev, &mut want);
    assert_eq!(k.decode_delta(stream, n, prev, &mut got), r, "{at} (delta)");
    if r.is_ok() {
        assert_eq!(got, want, "{at} (delta)");
    }
}

/// Select / seek reference checks shared by the codecs' seek tests.
pub(crate) mod seek {
    use super::{corpus, Rng};
    use crate::error::DecodeError;
    use crate::traits::{KernelChoice, SortedCodec};

    /// The first index whose value is `>= target` (linear; on a sorted list,
    /// binary search's lower bound), with the value.
    pub(crate) fn lower_bound(values: &[u32], target: u32) -> Option<(usize, u32)> {
        values
            .iter()
            .position(|&v| v >= target)
            .map(|i| (i, values[i]))
    }

    /// Targets worth seeking in `values`: each value and its neighbours (for
    /// short lists; a sample for long ones), 0, MAX and random ones.
    pub(crate) fn targets(values: &[u32], rng: &mut Rng) -> Vec<u32> {
        let mut t = vec![0, 1, u32::MAX, u32::MAX - 1];
        let step = (values.len() / 64).max(1);
        for &v in values.iter().step_by(step) {
            t.extend([v, v.wrapping_sub(1), v.wrapping_add(1)]);
        }
        t.extend((0..8).map(|_| rng.next_u32()));
        t
    }

    /// Indexes worth selecting: every one for short lists (a sample for long
    /// ones), plus out-of-range ones.
    pub(crate) fn indexes(n: usize) -> Vec<usize> {
        let step = (n / 97).max(1);
        let mut v: Vec<usize> = (0..n).step_by(step).collect();
        if n > 0 {
            v.push(n - 1);
        }
        v.extend([n, n + 1, usize::MAX]);
        v
    }

    /// What select(i) / seek must give on a stream whose full decode failed
    /// with `err`, given the intact values: the value if its index is below
    /// `first_bad` (the first value the failure concerns: `err.index()`, or 0
    /// when the failure is the stream's header such as missing control
    /// bytes), else `err`.
    pub(crate) fn expect_select(
        values: &[u32],
        err: DecodeError,
        first_bad: usize,
        i: usize,
    ) -> Result<Option<u32>, DecodeError> {
        match values.get(i) {
            None => Ok(None),
            Some(&v) if i < first_bad => Ok(Some(v)),
            Some(_) => Err(err),
        }
    }

    /// The same for seek.
    pub(crate) fn expect_seek(
        values: &[u32],
        err: DecodeError,
        first_bad: usize,
        target: u32,
    ) -> Result<Option<(usize, u32)>, DecodeError> {
        match lower_bound(values, target) {
            Some((i, v)) if i < first_bad => Ok(Some((i, v))),
            _ => Err(err),
        }
    }

    /// On every truncation of the delta-coded stream of sorted values,
    /// every kernel's `select` and `lower_bound` give the values whose bytes
    /// are there and decoding's error for the rest; `first_bad(err, n, cut)`
    /// is the first value the error concerns (the format decides).
    pub(crate) fn check_truncated_prefixes<C: SortedCodec + KernelChoice>(
        c: C,
        first_bad: impl Fn(DecodeError, usize, usize) -> usize,
    ) {
        let ks = c.all_kernels();
        let mut rng = Rng::new(11);
        for n in [1usize, 3, 4, 5, 17, 40, 67, 130] {
            for (name, mut vals) in corpus(n, 7) {
                vals.sort_unstable();
                let delta = ks[0].encode_delta_to_vec(&vals, 0);
                for cut in 0..delta.len() {
                    let d = &delta[..cut];
                    let err = ks[0].decode_delta_to_vec(d, n, 0).unwrap_err();
                    let bad = first_bad(err, n, cut);
                    for k in &ks {
                        let at = format!("{} {} {name} n={n} cut={cut}", k.name(), k.isa());
                        for i in indexes(n) {
                            let want = expect_select(&vals, err, bad, i);
                            assert_eq!(k.select(d, n, 0, i), want, "{at} i={i}");
                        }
                        for t in targets(&vals, &mut rng) {
                            let want = expect_seek(&vals, err, bad, t);
                            assert_eq!(k.lower_bound(d, n, 0, t), want, "{at} t={t}");
                        }
                    }
                }
            }
        }
    }

    /// `lower_bound` of every kernel on delta-coded unsorted values (the
    /// DESIGN families as they come): the first index whose value is
    /// `>= key`, as a linear scan finds it (for the codecs that promise it).
    pub(crate) fn check_unsorted_lower_bound<C: SortedCodec + KernelChoice>(c: C) {
        let mut rng = Rng::new(12);
        for n in [0usize, 1, 3, 4, 5, 15, 16, 17, 40, 67, 130, 300, 1025] {
            for (name, vals) in corpus(n, 13) {
                let prev = vals.first().map_or(9, |v| v / 3);
                let bytes = c.encode_delta_to_vec(&vals, prev);
                for k in c.all_kernels() {
                    for t in targets(&vals, &mut rng) {
                        let got = k.lower_bound(&bytes, n, prev, t);
                        let at = format!("{} {} {name} n={n} t={t}", k.name(), k.isa());
                        assert_eq!(got, Ok(lower_bound(&vals, t)), "{at}");
                    }
                }
            }
        }
    }
}
