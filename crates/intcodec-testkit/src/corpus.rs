//! The input families every codec is tested on: the lengths that reach every
//! tail and block boundary, and named value families of one length.

use crate::rng::SplitMix64;

/// Lengths that exercise every tail: `0..=300` and the block boundaries up
/// to 4096 (each boundary, one less and one more).
pub fn lengths() -> impl Iterator<Item = usize> {
    let boundaries = [
        511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097,
    ];
    (0..=300).chain(boundaries)
}

/// Named input families of length `n`, reproducible from `(n, seed)`:
/// all-zero, all-MAX, each byte width (`w1`..`w4`), alternating widths
/// (0..4 bytes in turn), a random width per value, and a sorted list with
/// small gaps (`sorted`).
pub fn families(n: usize, seed: u64) -> Vec<(&'static str, Vec<u32>)> {
    let mut rng = SplitMix64::new(seed ^ (n as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
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
    out.push(("sorted", sorted_ids(&mut rng, n)));
    out
}

/// `n` increasing ids (wrapping) with gaps of 1 to 2^14, most of them small:
/// the `sorted` family.
pub fn sorted_ids(rng: &mut SplitMix64, n: usize) -> Vec<u32> {
    let gaps: Vec<u32> = (0..n)
        .map(|_| (rng.next_u32() >> (18 + rng.next_u32() % 14)) + 1)
        .collect();
    crate::running_sums(0, &gaps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_have_their_shape() {
        for n in [0usize, 1, 7, 300, 4097] {
            let f = families(n, 11);
            assert_eq!(f.len(), 9);
            for (name, v) in &f {
                assert_eq!(v.len(), n, "{name}");
            }
            let get = |name: &str| &f.iter().find(|x| x.0 == name).unwrap().1;
            assert!(get("zeros").iter().all(|&v| v == 0));
            assert!(get("max").iter().all(|&v| v == u32::MAX));
            assert!(get("w1").iter().all(|&v| (1..0x100).contains(&v)));
            assert!(get("w4").iter().all(|&v| v >= 0x0100_0000));
            assert!(get("sorted").windows(2).all(|w| w[0] < w[1]));
        }
        assert_eq!(families(100, 3), families(100, 3));
        assert_ne!(families(100, 3), families(100, 4));
    }

    #[test]
    fn lengths_reach_the_boundaries() {
        let l: Vec<usize> = lengths().collect();
        assert_eq!(l[0], 0);
        for b in [300, 511, 512, 513, 4095, 4096, 4097] {
            assert!(l.contains(&b), "{b}");
        }
    }
}
