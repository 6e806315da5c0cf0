//! The BP128 families in the `postings` suite: intcodec's BP128 (every
//! kernel, 4x and 8x layouts; `decode_delta` = D1, `bitpacking`'s sorted
//! mode) and the lane-delta variant ("d4"). Their peer is the `bitpacking`
//! crate (`crate::peers::bitpacking`).

use crate::measure::Codec;
use intcodec::bp128::{Bp128, DeltaMode, Layout};
use intcodec::{IntCodec, KernelChoice};

/// Family names.
pub const FAMILY_4X: &str = "bp128";
/// The 8-lane layout.
pub const FAMILY_8X: &str = "bp128-8x";
/// The lane-delta ("d4") variant against `decompress_sorted`.
pub const FAMILY_D4: &str = "bp128-d4";

/// Buffer size of ours and the peer for `n` values.
pub(crate) fn max_len(layout: Layout, n: usize) -> usize {
    Bp128::new(layout)
        .max_compressed_len(n)
        .expect("chunk sizes are small")
        + 16
}

/// intcodec's BP128 with one forced kernel; `decode_delta` uses the
/// codec's delta mode.
#[derive(Clone, Copy, Debug)]
pub struct Ours {
    codec: Bp128,
    default: bool,
}

impl Ours {
    /// Every kernel this CPU may run, for `layout`, D1 delta.
    pub fn all(layout: Layout) -> Vec<Ours> {
        let best = Bp128::new(layout).isa();
        Bp128::new(layout)
            .all_kernels()
            .into_iter()
            .map(|codec| Ours {
                codec,
                default: codec.isa() == best,
            })
            .collect()
    }

    /// The default 4x kernel with the lane delta.
    pub fn d4() -> Ours {
        Ours {
            codec: Bp128::new(Layout::Lanes4).with_delta(DeltaMode::Lane),
            default: true,
        }
    }
}

impl Codec for Ours {
    fn family(&self) -> &'static str {
        match (self.codec.delta_mode(), self.codec.layout()) {
            (DeltaMode::Lane, _) => FAMILY_D4,
            (_, Layout::Lanes4) => FAMILY_4X,
            (_, Layout::Lanes8) => FAMILY_8X,
        }
    }
    fn name(&self) -> String {
        self.family().to_string()
    }
    fn kernel(&self) -> String {
        self.codec.isa().name().to_string()
    }
    fn is_peer(&self) -> bool {
        false
    }
    fn is_default(&self) -> bool {
        self.default
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        max_len(self.codec.layout(), n)
    }
    #[inline]
    fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String> {
        self.codec.encode(values, out).map_err(|e| e.to_string())
    }
    #[inline]
    fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> Result<usize, String> {
        self.codec
            .encode_delta(values, prev, out)
            .map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, String> {
        self.codec.decode(input, n, out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, String> {
        self.codec
            .decode_delta(input, n, prev, out)
            .map_err(|e| e.to_string())
    }
}

/// Ours, every kernel, both layouts. The lane-delta variant is measured in
/// the `keys` suite (`Ours::d4`).
pub fn all() -> Vec<Ours> {
    let mut all = Ours::all(Layout::Lanes4);
    all.extend(Ours::all(Layout::Lanes8));
    all
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
            for c in cs.iter().filter(|c| c.family() == family) {
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
