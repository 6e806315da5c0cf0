//! Internal test harness: deterministic corpus generators and the list of
//! lengths every kernel is run on.

pub(crate) mod conformance;
mod registry_conformance;

/// The project's one seeded PRNG (SplitMix64, from `intcodec-testkit`).
pub(crate) use intcodec_testkit::SplitMix64 as Rng;

/// Lengths that exercise every tail: 0..=300 and block boundaries up to 4096.
pub(crate) use intcodec_testkit::corpus::lengths;

/// Named input families of length `n`: all-zero, all-MAX, each byte width,
/// alternating and random widths, and sorted lists with small gaps.
pub(crate) use intcodec_testkit::corpus::families as corpus;

/// Select / seek reference checks shared by the codecs' seek tests.
pub(crate) mod seek {
    use super::Rng;
    use crate::error::DecodeError;

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

    /// A seek under test.
    pub(crate) type SeekFn<'a> = dyn Fn(u32) -> Result<Option<(usize, u32)>, DecodeError> + 'a;

    /// Checks `select` and `seek` (over a delta or plain stream of `values`)
    /// against the Vec, when the stream is intact.
    pub(crate) fn check_ok(
        what: &str,
        values: &[u32],
        select: impl Fn(usize) -> Result<Option<u32>, DecodeError>,
        seek: Option<&SeekFn<'_>>,
        rng: &mut Rng,
    ) {
        for i in indexes(values.len()) {
            assert_eq!(select(i), Ok(values.get(i).copied()), "{what}: select({i})");
        }
        if let Some(seek) = seek {
            for t in targets(values, rng) {
                assert_eq!(seek(t), Ok(lower_bound(values, t)), "{what}: seek({t})");
            }
        }
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
}
