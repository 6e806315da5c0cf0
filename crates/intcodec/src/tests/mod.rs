//! Internal test harness: deterministic corpus generators and the list of
//! lengths every kernel is run on.

pub(crate) mod conformance;

/// splitmix64: small, seeded, reproducible.
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(crate) fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    /// A value of exactly `bytes` significant bytes (1..=4); 0 for 0.
    pub(crate) fn of_width(&mut self, bytes: u32) -> u32 {
        match bytes {
            0 => 0,
            4 => self.next_u32() | 0x0100_0000,
            b => {
                let hi = 1u32 << (8 * b);
                let lo = if b == 1 { 1 } else { 1u32 << (8 * (b - 1)) };
                lo + self.next_u32() % (hi - lo)
            }
        }
    }
}

/// Lengths that exercise every tail: 0..=300 and block boundaries up to 4096.
pub(crate) fn lengths() -> impl Iterator<Item = usize> {
    let boundaries = [
        511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097,
    ];
    (0..=300).chain(boundaries)
}

/// Named input families of length `n`: all-zero, all-MAX, each byte width,
/// alternating and random widths, and sorted lists with small gaps.
pub(crate) fn corpus(n: usize, seed: u64) -> Vec<(&'static str, Vec<u32>)> {
    let mut rng = Rng::new(seed ^ (n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let mut out = vec![("zeros", vec![0; n]), ("max", vec![u32::MAX; n])];
    for (name, w) in [("w1", 1), ("w2", 2), ("w3", 3), ("w4", 4)] {
        out.push((name, (0..n).map(|_| rng.of_width(w)).collect()));
    }
    out.push((
        "alternating",
        (0..n).map(|i| rng.of_width((i % 5) as u32)).collect(),
    ));
    out.push((
        "random-width",
        (0..n)
            .map(|_| {
                let w = rng.next_u32() % 5;
                rng.of_width(w)
            })
            .collect(),
    ));
    let mut acc = 0u32;
    out.push((
        "sorted",
        (0..n)
            .map(|_| {
                let g = rng.next_u32() >> (18 + rng.next_u32() % 14);
                acc = acc.wrapping_add(g + 1);
                acc
            })
            .collect(),
    ));
    out
}

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
