//! The BP128 families in the `postings` suite: intcodec's BP128 (every
//! kernel, 4x, 8x and 16x layouts; `decode_delta` = D1, `bitpacking`'s
//! sorted mode) and the lane-delta variant ("d4"). Their peers are the
//! `bitpacking` crate (`crate::peers::bitpacking`) and FastPFor's
//! SIMDBinaryPacking; the 16x layout, which no peer writes, is compared for
//! speed with both on the same values.

use intcodec::bp128::{Bp128, Layout};
use intcodec::IntCodec;

/// Family names.
pub const FAMILY_4X: &str = "bp128";
/// The 8-lane layout.
pub const FAMILY_8X: &str = "bp128-8x";
/// The 16-lane layout (simdcomp's `avx512pack`).
pub const FAMILY_16X: &str = "bp128-16x";
/// The lane-delta ("d4") variant against `decompress_sorted`.
pub const FAMILY_D4: &str = "bp128-d4";

/// Buffer size of ours and the peer for `n` values.
#[cfg_attr(not(feature = "peer-bitpacking"), allow(dead_code))]
pub(crate) fn max_len(layout: Layout, n: usize) -> usize {
    Bp128::new(layout)
        .max_compressed_len(n)
        .expect("chunk sizes are small")
        + 16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ours_and_peers_write_the_same_bytes() {
        let mut acc = 0u32;
        let ids: Vec<u32> = (0..1000u32)
            .map(|i| {
                acc += i.wrapping_mul(2_654_435_761) >> 22;
                acc
            })
            .collect();
        let cs = crate::suites::contenders();
        for family in [FAMILY_4X, FAMILY_8X] {
            let mut seen: Option<(Vec<u8>, Vec<u8>)> = None;
            // Same format only (fastpfor is compared with BP128 for speed).
            for c in cs
                .iter()
                .filter(|c| c.family() == family && !c.own_format())
            {
                let mut out = vec![0u8; c.max_encoded_len(ids.len())];
                let w = c.encode(&ids, &mut out).unwrap();
                let plain = out[..w].to_vec();
                let w = c.encode_delta(&ids, 3, &mut out).unwrap();
                let delta = out[..w].to_vec();
                let mut back = vec![0u32; ids.len()];
                c.decode_delta(&delta, ids.len(), 3, &mut back).unwrap();
                assert_eq!(back, ids, "{} {}", c.name(), c.kernel());
                c.decode(&plain, ids.len(), &mut back).unwrap();
                assert_eq!(back, ids, "{} {}", c.name(), c.kernel());
                match &seen {
                    None => seen = Some((plain, delta)),
                    Some((p, d)) => {
                        assert_eq!(&plain, p, "{} {}", c.name(), c.kernel());
                        assert_eq!(&delta, d, "{} {}", c.name(), c.kernel());
                    }
                }
            }
        }
    }
}
