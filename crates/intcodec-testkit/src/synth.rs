//! Seeded generators of synthetic posting lists, after the models of Anh and
//! Moffat ("Index compression using 64-bit words", 2010) that Lemire and
//! colleagues use in the FastPFor / SIMD-compression benchmarks.
//!
//! Both models draw `n` **distinct** values from a range `[min, max)` and
//! return them sorted (strictly increasing):
//!
//! - **Uniform**: every `n`-subset of the range is equally likely. Gaps are
//!   then roughly geometric with mean `(max - min) / n`.
//! - **ClusterData**: recursive. To place `n` values in `[min, max)`: if the
//!   range holds exactly `n` values, take them all; if `n` is small (at most
//!   [`LEAF`]), place them uniformly; otherwise pick a cut point `c`
//!   uniformly among the positions that leave room for `n/2` values in
//!   `[min, c)` and `n - n/2` in `[c, max)`, then fill each side. With
//!   probability 1/4 the left side is filled uniformly and the right side
//!   recursively, with 1/4 the reverse, and with 1/2 both sides recursively.
//!   Because the cut ignores how many values each side gets, half of the
//!   values are repeatedly squeezed into a random fraction of the range:
//!   the result has dense clusters (small gaps) separated by long empty
//!   stretches, like real posting lists of documents sorted by URL.
//!
//! [`bucket_lists`] builds the lists of one length bucket
//! `2^K ..= 2^(K+1) - 1` of a synthetic collection: every list is drawn from
//! the same universe of document ids `[0, universe)` (default
//! [`DEFAULT_UNIVERSE`] = 2^25, about the size of ClueWeb09 category B), so,
//! as in a real collection, short lists are sparse (large gaps, about 3 bytes
//! each for K = 5) and long lists dense (about 1 byte per gap for K = 18).
//! Each list has its own seed derived from `(seed, model, K, index)`, so a
//! bucket is the same whatever other buckets are generated.

use crate::rng::SplitMix64;

/// Lists of at most this many values are placed uniformly by ClusterData.
pub const LEAF: u64 = 8;

/// Default universe of document ids for synthetic collections (2^25).
pub const DEFAULT_UNIVERSE: u32 = 1 << 25;

/// A synthetic posting-list model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Distinct values drawn uniformly.
    Uniform,
    /// Anh & Moffat's ClusterData: recursively clustered values.
    Clustered,
}

impl Model {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Model::Uniform => "uniform",
            Model::Clustered => "clustered",
        }
    }

    /// Parses a name printed by [`Model::name`].
    pub fn from_name(name: &str) -> Option<Model> {
        match name {
            "uniform" => Some(Model::Uniform),
            "clustered" | "cluster" | "clusterdata" => Some(Model::Clustered),
            _ => None,
        }
    }

    /// `n` distinct sorted values in `[min, max)`.
    ///
    /// # Panics
    /// If the range holds fewer than `n` values or `max > 2^32`.
    pub fn generate(self, rng: &mut SplitMix64, n: usize, min: u64, max: u64) -> Vec<u32> {
        assert!(max <= 1 << 32, "values must fit in u32");
        assert!(
            min <= max && (n as u64) <= max - min,
            "cannot draw {n} distinct values from [{min}, {max})"
        );
        let mut out = Vec::with_capacity(n);
        match self {
            Model::Uniform => uniform(rng, n as u64, min, max, &mut out),
            Model::Clustered => clustered(rng, n as u64, min, max, &mut out),
        }
        debug_assert_eq!(out.len(), n);
        out
    }
}

/// The draws with one answer, which both models share: no values, or every
/// value of `[min, max)` (appended). Whether `n` was one of them.
fn none_or_all(n: u64, min: u64, max: u64, out: &mut Vec<u32>) -> bool {
    if n == max - min {
        out.extend((min..max).map(|v| v as u32));
    }
    n == 0 || n == max - min
}

/// Appends `n` distinct sorted values from `[min, max)`, uniformly.
fn uniform(rng: &mut SplitMix64, n: u64, min: u64, max: u64, out: &mut Vec<u32>) {
    if none_or_all(n, min, max, out) {
        return;
    }
    let range = max - min;
    if range <= 4 * n {
        // Dense: selection sampling (Knuth's Algorithm S), one pass over the
        // range, each value kept with probability needed / remaining.
        let mut needed = n;
        for (seen, v) in (min..max).enumerate() {
            let remaining = range - seen as u64;
            if rng.below(remaining) < needed {
                out.push(v as u32);
                needed -= 1;
                if needed == 0 {
                    break;
                }
            }
        }
        return;
    }
    // Sparse: draw, sort, drop duplicates, top up until there are n.
    let start = out.len();
    while ((out.len() - start) as u64) < n {
        let missing = n - (out.len() - start) as u64;
        for _ in 0..missing {
            out.push((min + rng.below(range)) as u32);
        }
        out[start..].sort_unstable();
        let mut kept = start;
        for i in start..out.len() {
            if i == start || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// Appends `n` distinct sorted values from `[min, max)`, clustered.
fn clustered(rng: &mut SplitMix64, n: u64, min: u64, max: u64, out: &mut Vec<u32>) {
    if none_or_all(n, min, max, out) {
        return;
    }
    if n <= LEAF {
        uniform(rng, n, min, max, out);
        return;
    }
    let range = max - min;
    let left = n / 2;
    let right = n - left;
    // Room: [min, cut) needs `left` values, [cut, max) needs `right`.
    let cut = min + left + rng.below(range - n + 1);
    let p = rng.unit();
    if p < 0.25 {
        uniform(rng, left, min, cut, out);
        clustered(rng, right, cut, max, out);
    } else if p < 0.5 {
        clustered(rng, left, min, cut, out);
        uniform(rng, right, cut, max, out);
    } else {
        clustered(rng, left, min, cut, out);
        clustered(rng, right, cut, max, out);
    }
}

/// Number of lists generated for bucket `k` so that it holds about
/// `target_ints` values (at least one list).
pub fn lists_for_bucket(k: u32, target_ints: u64) -> u64 {
    // Lengths are uniform in [2^K, 2^(K+1)): 1.5 * 2^K on average.
    let mean = 3u64 << k >> 1;
    target_ints.div_ceil(mean.max(1)).max(1)
}

/// The lists of length bucket `k` (lengths uniform in `2^k ..= 2^(k+1)-1`,
/// at most `universe`) of the synthetic collection `(model, seed)`: about
/// `target_ints` values in all.
pub fn bucket_lists(
    model: Model,
    seed: u64,
    k: u32,
    target_ints: u64,
    universe: u32,
) -> Vec<Vec<u32>> {
    assert!(k < 32, "bucket exponent too large");
    let model_id = match model {
        Model::Uniform => 1,
        Model::Clustered => 2,
    };
    let lo = 1u64 << k;
    (0..lists_for_bucket(k, target_ints))
        .map(|i| {
            let mut rng = SplitMix64::derive(seed, &[model_id, u64::from(k), i]);
            let n = (lo + rng.below(lo)).min(u64::from(universe));
            model.generate(&mut rng, n as usize, 0, u64::from(universe))
        })
        .collect()
}

/// Name of the unsorted dataset (suite `ints`).
pub const UNSORTED: &str = "random-bytes";

/// Values per array of the unsorted dataset (one benchmark chunk).
pub const UNSORTED_ARRAY: usize = 4096;

/// `n` seeded random u32 of exactly `width` significant bytes (`1..=4`:
/// uniform over `[2^(8(width-1)), 2^(8 width))`, with 0 allowed for width
/// 1), or (`width == 0`) of a random width from 1 to 4 per value, so that
/// lengths vary from value to value.
pub fn unsorted_values(rng: &mut SplitMix64, width: u32, n: usize) -> Vec<u32> {
    assert!(width <= 4, "byte width {width} > 4");
    (0..n)
        .map(|_| {
            let w = if width == 0 {
                1 + rng.below(4) as u32
            } else {
                width
            };
            let lo = if w == 1 { 0 } else { 1u64 << (8 * (w - 1)) };
            let hi = 1u64 << (8 * w);
            (lo + rng.below(hi - lo)) as u32
        })
        .collect()
}

/// The arrays of byte width `width` (0: mixed) of the unsorted dataset:
/// arrays of [`UNSORTED_ARRAY`] random values ([`unsorted_values`]), about
/// `target_ints` values in all. The benchmark stores lists and measures
/// their gaps, so each array is returned as its running sums (wrapping):
/// its gaps are then exactly the random values.
pub fn unsorted_lists(seed: u64, width: u32, target_ints: u64) -> Vec<Vec<u32>> {
    let arrays = target_ints.div_ceil(UNSORTED_ARRAY as u64).max(1);
    (0..arrays)
        .map(|i| {
            let mut rng = SplitMix64::derive(seed, &[3, u64::from(width), i]);
            crate::running_sums(0, &unsorted_values(&mut rng, width, UNSORTED_ARRAY))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsorted_values_have_the_asked_byte_width() {
        let bytes = |v: u32| (32 - v.leading_zeros()).div_ceil(8).max(1);
        let mut rng = SplitMix64::new(7);
        for w in 1..=4 {
            let v = unsorted_values(&mut rng, w, 5000);
            assert!(v.iter().all(|&x| bytes(x) == w), "width {w}");
            // Not constant, and spread over the range.
            let (lo, hi) = (v.iter().min().unwrap(), v.iter().max().unwrap());
            let range = (1u64 << (8 * w)) - if w == 1 { 0 } else { 1u64 << (8 * (w - 1)) };
            assert!(u64::from(hi - lo) * 10 > range * 9, "width {w}: {lo}..{hi}");
        }
        let v = unsorted_values(&mut rng, 0, 8000);
        let mut seen = [0usize; 5];
        for &x in &v {
            seen[bytes(x) as usize] += 1;
        }
        assert!(seen[1..].iter().all(|&c| c > 1500), "{seen:?}");
        // Gaps of the lists are the values; deterministic per seed.
        let lists = unsorted_lists(9, 3, 10_000);
        assert_eq!(lists.len(), 3);
        assert_eq!(lists, unsorted_lists(9, 3, 10_000));
        assert_ne!(lists, unsorted_lists(10, 3, 10_000));
        for l in &lists {
            assert_eq!(l.len(), UNSORTED_ARRAY);
            let mut prev = 0u32;
            for &x in l {
                assert_eq!(bytes(x.wrapping_sub(prev)), 3);
                prev = x;
            }
        }
    }

    fn strictly_increasing_in(v: &[u32], min: u64, max: u64) -> bool {
        v.windows(2).all(|w| w[0] < w[1])
            && v.iter().all(|&x| u64::from(x) >= min && u64::from(x) < max)
    }

    #[test]
    fn generators_are_deterministic_sorted_and_in_range() {
        for model in [Model::Uniform, Model::Clustered] {
            for (n, min, max) in [
                (0usize, 0u64, 10u64),
                (1, 5, 6),
                (10, 0, 10),
                (100, 1000, 1150),
                (1000, 0, 1 << 25),
                (5000, 7, 20_000),
                (3, u64::from(u32::MAX) - 3, 1 << 32),
            ] {
                let a = model.generate(&mut SplitMix64::new(42), n, min, max);
                let b = model.generate(&mut SplitMix64::new(42), n, min, max);
                assert_eq!(a, b, "{model:?} not deterministic");
                assert_eq!(a.len(), n);
                assert!(
                    strictly_increasing_in(&a, min, max),
                    "{model:?} {n} {min} {max}"
                );
            }
            let a = model.generate(&mut SplitMix64::new(1), 1000, 0, 1 << 25);
            let c = model.generate(&mut SplitMix64::new(2), 1000, 0, 1 << 25);
            assert_ne!(a, c);
        }
    }

    #[test]
    fn bucket_lists_have_bucket_lengths() {
        for model in [Model::Uniform, Model::Clustered] {
            for k in [0u32, 5, 10] {
                let lists = bucket_lists(model, 9, k, 20_000, DEFAULT_UNIVERSE);
                assert_eq!(lists.len() as u64, lists_for_bucket(k, 20_000));
                for l in &lists {
                    assert!(l.len() >= 1 << k && l.len() < 2 << k);
                    assert!(strictly_increasing_in(l, 0, u64::from(DEFAULT_UNIVERSE)));
                }
                assert_eq!(lists, bucket_lists(model, 9, k, 20_000, DEFAULT_UNIVERSE));
            }
        }
    }

    #[test]
    fn clustered_is_burstier_than_uniform() {
        // Same n and range: clustered gaps have a much larger spread.
        let spread = |v: &[u32]| {
            let gaps: Vec<f64> = v.windows(2).map(|w| f64::from(w[1] - w[0])).collect();
            let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
            let var = gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / gaps.len() as f64;
            var.sqrt() / mean
        };
        let u = Model::Uniform.generate(&mut SplitMix64::new(3), 20_000, 0, 1 << 24);
        let c = Model::Clustered.generate(&mut SplitMix64::new(3), 20_000, 0, 1 << 24);
        assert!(
            spread(&c) > 2.0 * spread(&u),
            "{} vs {}",
            spread(&c),
            spread(&u)
        );
    }
}
