//! A small seeded PRNG (SplitMix64), so generated datasets are reproducible
//! across platforms and releases without depending on `rand`.

/// SplitMix64 (Steele, Lea, Flood 2014): a 64-bit state advanced by a Weyl
/// constant and scrambled by a mixing function. Fast, passes BigCrush, and
/// every seed (including 0) gives a full-period stream.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// A generator for one member of a family (e.g. list `index` of bucket
    /// `k`): the streams of different `(seed, parts)` are unrelated.
    pub fn derive(seed: u64, parts: &[u64]) -> Self {
        let mut s = SplitMix64::new(seed);
        let mut state = s.next_u64();
        for &p in parts {
            s = SplitMix64::new(state ^ p.wrapping_mul(0xD605_BBB5_8C8A_BBD3));
            state = s.next_u64();
        }
        SplitMix64::new(state)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound` (`bound > 0`), by the multiply-high method; the
    /// bias is below `bound / 2^64`, irrelevant here.
    pub fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
    }

    /// A float in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_seed_sensitive() {
        let a: Vec<u64> = (0..8)
            .scan(SplitMix64::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..8)
            .scan(SplitMix64::new(7), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..8)
            .scan(SplitMix64::new(8), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
        let d1 = SplitMix64::derive(1, &[5, 3]).next_u64();
        let d2 = SplitMix64::derive(1, &[3, 5]).next_u64();
        assert_ne!(d1, d2);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(1);
        for bound in [1u64, 2, 3, 10, 1 << 20, u64::from(u32::MAX)] {
            for _ in 0..1000 {
                assert!(r.below(bound) < bound);
            }
        }
        for _ in 0..1000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
