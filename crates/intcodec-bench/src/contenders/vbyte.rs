//! The VByte (LEB128 / protobuf varint) family: intcodec's VByte kernels
//! (scalar Algorithm 1, Masked VByte SSE4.1 and AVX2). The Rust varint
//! crates are its peers (`crate::peers::varint_crates`).
//!
//! The peers decode and encode one value per call, in a loop over the chunk
//! (the way their APIs are meant to be used for arrays; `varint-simd` is
//! built without `-C target-feature=+ssse3`, so only its single-value
//! `decode`/`encode_to_slice` exist, see below). None of them has a delta
//! mode: their `decode_delta` adds each decoded gap to the running id in the
//! same loop (a fused scalar prefix sum, as a user would write it), and
//! `encode_delta` subtracts before encoding. All write the same bytes as
//! ours (checked by the tests).
//!
//! `varint-simd` compiles its multi-value decoders (`decode_two`, `_four`,
//! `_eight`) only when SSSE3 is enabled at compile time for the whole build;
//! doing that would also change how our own scalar code and the other peers
//! are compiled, so the benchmark uses its always-available single-value
//! `decode` (64-bit word tricks, SSE2) in a loop, as the issue names it.

use crate::measure::Codec;
use intcodec::vbyte::{self, VByte};
#[allow(unused_imports)]
use intcodec::{IntCodec, KernelChoice, SortedCodec};

/// Family name of ours and the peers here.
pub const FAMILY: &str = "vbyte";

/// Readable bytes decoders get after a stream, and spare bytes encoders get
/// (some peers read or copy 16 bytes at a time).
pub(crate) const SLACK: usize = 16;

/// Buffer size of ours and the peers for `n` values.
pub(crate) fn max_len(n: usize) -> usize {
    vbyte::max_compressed_len(n) + SLACK
}

/// intcodec's VByte with one forced kernel.
#[derive(Clone, Copy, Debug)]
pub struct Ours {
    codec: VByte,
    default: bool,
}

impl Ours {
    /// Every VByte kernel this CPU may run (within `INTCODEC_ISA`).
    pub fn all() -> Vec<Ours> {
        let best = VByte::new().isa();
        VByte::new()
            .kernel_isas()
            .into_iter()
            .filter(|isa| isa.is_enabled())
            .filter_map(|isa| VByte::new().with_isa(isa))
            .map(|codec| Ours {
                codec,
                default: codec.isa() == best,
            })
            .collect()
    }
}

impl Codec for Ours {
    fn family(&self) -> &'static str {
        FAMILY
    }
    fn name(&self) -> String {
        "vbyte".to_string()
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
        max_len(n)
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

/// Our VByte kernels, lowest ISA first.
pub fn all() -> Vec<Ours> {
    Ours::all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_vbyte_contender_writes_and_reads_the_same_bytes() {
        let values: Vec<u32> = (0..3000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 32))
            .collect();
        let mut ids = values.clone();
        ids.sort_unstable();
        let want = VByte::new().encode_to_vec(&values);
        let want_d = VByte::new().encode_delta_to_vec(&ids, 5);
        let all: Vec<_> = crate::suites::contenders()
            .into_iter()
            .filter(|c| c.family() == FAMILY)
            .collect();
        #[cfg(feature = "peer-varint")]
        assert_eq!(all.iter().filter(|c| c.is_peer()).count(), 5);
        for c in all {
            let who = format!("{} {}", c.name(), c.kernel());
            let mut out = vec![0u8; c.max_encoded_len(values.len())];
            let w = c.encode(&values, &mut out).unwrap();
            assert_eq!(&out[..w], &want[..], "{who}");
            let w = c.encode_delta(&ids, 5, &mut out).unwrap();
            assert_eq!(&out[..w], &want_d[..], "{who}");
            let mut input = want.clone();
            input.resize(want.len() + SLACK, 0);
            let mut back = vec![0u32; values.len()];
            assert_eq!(c.decode(&input, values.len(), &mut back), Ok(want.len()));
            assert_eq!(back, values, "{who}");
            let mut input = want_d.clone();
            input.resize(want_d.len() + SLACK, 0);
            assert_eq!(
                c.decode_delta(&input, ids.len(), 5, &mut back),
                Ok(want_d.len())
            );
            assert_eq!(back, ids, "{who}");
            assert_eq!(c.family(), FAMILY);
        }
    }

    #[test]
    fn exactly_one_default_vbyte_kernel() {
        assert_eq!(all().iter().filter(|c| c.is_default()).count(), 1);
    }
}
