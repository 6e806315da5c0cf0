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

use intcodec::vbyte;

/// Family name of ours and the peers here.
pub const FAMILY: &str = "vbyte";

pub(crate) use super::SLACK;

/// Buffer size of ours and the peers for `n` values.
#[cfg_attr(not(feature = "peer-varint"), allow(dead_code))]
pub(crate) fn max_len(n: usize) -> usize {
    vbyte::max_compressed_len(n) + SLACK
}

#[cfg(test)]
mod tests {
    use super::*;
    use intcodec::vbyte::VByte;
    use intcodec::IntCodec;

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
        // Five Rust crates, and MaskedVByte (FastPFor's C) when built.
        let peers = 5 * usize::from(cfg!(feature = "peer-varint"))
            + usize::from(cfg!(feature = "peer-fastpfor-cpp"));
        assert_eq!(all.iter().filter(|c| c.is_peer()).count(), peers);
        for c in all {
            let who = format!("{} {}", c.name(), c.kernel());
            let mut out = vec![0u8; c.max_encoded_len(values.len())];
            let w = c.encode(&values, &mut out).unwrap();
            assert_eq!(&out[..w], &want[..], "{who}");
            let w = c.encode_delta(&ids, 5, &mut out).unwrap();
            assert_eq!(&out[..w], &want_d[..], "{who}");
            let mut input = want.clone();
            // Slack past the stream; the C peers read up to their bound.
            input.resize((want.len() + SLACK).max(c.max_encoded_len(values.len())), 0);
            let mut back = vec![0u32; values.len()];
            assert_eq!(c.decode(&input, values.len(), &mut back), Ok(want.len()));
            assert_eq!(back, values, "{who}");
            let mut input = want_d.clone();
            input.resize((want_d.len() + SLACK).max(c.max_encoded_len(ids.len())), 0);
            assert_eq!(
                c.decode_delta(&input, ids.len(), 5, &mut back),
                Ok(want_d.len())
            );
            assert_eq!(back, ids, "{who}");
            assert_eq!(c.family(), FAMILY);
        }
    }

    #[test]
    fn exactly_one_default_kernel_per_family() {
        let all = crate::contenders::all();
        for f in ["streamvbyte", FAMILY, "bp128", "bp128-8x", "varint-gb"] {
            let defaults = all.iter().filter(|c| c.family() == f && c.is_default());
            assert_eq!(defaults.count(), 1, "{f}");
        }
    }
}
