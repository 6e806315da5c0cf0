//! The `fastpfor` crate (pure Rust FastPFor, 0.9.1) as a bit-packing peer
//! in the `postings` suite: `peer:fastpfor`, its `FastPForSimd256`
//! composite codec (FastPFor over 256-value blocks, a VByte tail for the
//! rest of a chunk, as its `CompositeCodec` composes them; AVX2 kernels
//! chosen at run time, kernel column `rust-avx2`, else `rust-scalar`).
//!
//! FastPFor is a different format from every codec of ours (patched frame
//! of reference: a bit width per 256-value block with exceptions stored
//! apart), so it is measured in the `bp128` family, BP128's natural
//! competitor (bit packing of the same gaps), with [`Codec::own_format`]:
//! it is compared for speed there (the summary's `ours / peer` lines) and
//! shows its own bits per int, but no test expects our bytes from it.
//!
//! # Stream and delta
//!
//! The crate writes `u32` words into a `Vec` and its decoder must be given
//! exactly the stream's words (it has no end marker; its VByte tail would
//! read on into the next chunk), so a chunk's stream here is one
//! little-endian `u32` word count, then the crate's words (little-endian):
//! 4 bytes per chunk more than the crate's own output, counted in bits/int.
//! Decoding reads the words in place when they are 4-byte aligned (always,
//! as the benchmark stores streams), else copies them first; the crate
//! decodes into a `Vec`, which is then copied into the caller's buffer (one
//! L1-resident copy of the chunk per decode, part of the measured time).
//!
//! The crate has no delta (sorted) coding: `encode_delta` computes the gaps
//! from `prev` itself (wrapping) and encodes them, `decode_delta` decodes and
//! adds them up (a scalar prefix sum), both in this module, as FastPFor's own
//! benchmarks apply their delta coding before and after the codec.

use super::shared::{room, rust_simd_kernel};
use crate::measure::{ByteLen, Codec, Label};
use fastpfor::{AnyLenCodec, FastPForSimd256};
use std::cell::RefCell;

const NAME: &str = "peer:fastpfor";

/// Largest stream for `n` values: 4 bytes of word count, then at most
/// 4 bytes per value in blocks plus their per-block metadata (bit widths,
/// exception counts and positions: under a word per value), and at most 5
/// bytes per tail value; `5n + 1024` bounds it with room to spare.
fn max_len(n: usize) -> usize {
    4 + 5 * n + 1024
}

/// `fastpfor::FastPForSimd256` (see the module docs). Holds the crate's
/// codec (its methods take `&mut self`) and reusable buffers.
#[derive(Default)]
pub struct PeerFastPFor {
    codec: RefCell<FastPForSimd256>,
    words: RefCell<Vec<u32>>,
    values: RefCell<Vec<u32>>,
}

impl Codec for PeerFastPFor {
    /// Encodes `values` (`delta`: their gaps from `prev`).
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
        let mut codec = self.codec.borrow_mut();
        let mut words = self.words.borrow_mut();
        words.clear();
        let r = if let Some(prev) = delta {
            let mut gaps = self.values.borrow_mut();
            gaps.clear();
            let mut p = prev;
            gaps.extend(values.iter().map(|&v| {
                let g = v.wrapping_sub(p);
                p = v;
                g
            }));
            codec.encode(&gaps, &mut words)
        } else {
            codec.encode(values, &mut words)
        };
        r.map_err(|e| format!("{NAME}: {e}"))?;
        let len = 4 + 4 * words.len();
        let out = room(NAME, out, len)?;
        let count = u32::try_from(words.len()).map_err(|_| format!("{NAME}: stream too long"))?;
        out[..4].copy_from_slice(&count.to_le_bytes());
        for (d, w) in out[4..].chunks_exact_mut(4).zip(words.iter()) {
            d.copy_from_slice(&w.to_le_bytes());
        }
        Ok(len)
    }

    /// Decodes `n` values (`delta`: adds them up from `prev`).
    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        let head: [u8; 4] = input
            .get(..4)
            .and_then(|h| h.try_into().ok())
            .ok_or_else(|| format!("{NAME}: truncated stream (no word count)"))?;
        let count = u32::from_le_bytes(head) as usize;
        let len = count
            .checked_mul(4)
            .and_then(|b| b.checked_add(4))
            .filter(|&l| l <= input.len())
            .ok_or_else(|| format!("{NAME}: truncated stream ({count} words)"))?;
        let want = u32::try_from(n).map_err(|_| format!("{NAME}: {n} values is too many"))?;
        let out = room(NAME, out, n)?;
        let bytes = &input[4..len];
        // SAFETY: every bit pattern is a valid u32; `align_to` only
        // reinterprets the aligned middle of `bytes`.
        let (pre, mid, _) = unsafe { bytes.align_to::<u32>() };
        let mut copy = self.words.borrow_mut();
        let words: &[u32] =
            if pre.is_empty() && mid.len() == count && cfg!(target_endian = "little") {
                mid
            } else {
                copy.clear();
                copy.extend(
                    bytes
                        .chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                );
                &copy
            };
        let mut values = self.values.borrow_mut();
        values.clear();
        self.codec
            .borrow_mut()
            .decode(words, &mut values, Some(want))
            .map_err(|e| format!("{NAME}: {e}"))?;
        if values.len() != n {
            return Err(format!(
                "{NAME}: decoded {} values, expected {n}",
                values.len()
            ));
        }
        if let Some(prev) = delta {
            let mut acc = prev;
            for (o, &g) in out.iter_mut().zip(values.iter()) {
                acc = acc.wrapping_add(g);
                *o = acc;
            }
        } else {
            out.copy_from_slice(&values);
        }
        Ok(len)
    }

    fn label(&self) -> Label {
        Label::new(
            crate::contenders::bp128::FAMILY_4X,
            NAME,
            rust_simd_kernel(false),
        )
    }
    fn own_format(&self) -> bool {
        true
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        max_len(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fastpfor::FastPFor256;

    fn inputs() -> Vec<Vec<u32>> {
        let mut rng = intcodec_testkit::SplitMix64::new(0x1234_5678);
        let mut next = move || rng.next_u32();
        let mut all = Vec::new();
        for n in [0usize, 1, 7, 255, 256, 257, 511, 1000, 4095, 4096] {
            // Small gaps with rare large exceptions (FastPFor's patching).
            all.push(
                (0..n)
                    .map(|_| {
                        let r = next();
                        if r % 61 == 0 {
                            r
                        } else {
                            r % 300
                        }
                    })
                    .collect(),
            );
        }
        all.push(vec![u32::MAX; 600]);
        all
    }

    /// Our stream is the word count then exactly the crate's (scalar and
    /// SIMD) words; both directions round-trip, delta included.
    #[test]
    fn fastpfor_peer_frames_the_crates_words_and_round_trips() {
        let p = PeerFastPFor::default();
        for gaps in inputs() {
            let n = gaps.len();
            let mut reference = Vec::new();
            FastPFor256::default()
                .encode(&gaps, &mut reference)
                .unwrap();
            let mut want = (reference.len() as u32).to_le_bytes().to_vec();
            for w in &reference {
                want.extend_from_slice(&w.to_le_bytes());
            }
            let mut out = vec![0u8; p.max_encoded_len(n)];
            let w = p.encode(&gaps, &mut out).unwrap();
            assert_eq!(&out[..w], &want[..], "n={n}");
            let mut back = vec![1u32; n];
            // Followed by more bytes, as in the benchmark's buffers.
            assert_eq!(p.decode(&out, n, &mut back).unwrap(), w);
            assert_eq!(back, gaps, "n={n}");
            // Unaligned input takes the copying path.
            let mut shifted = vec![0u8];
            shifted.extend_from_slice(&out[..w]);
            assert_eq!(p.decode(&shifted[1..], n, &mut back).unwrap(), w);
            assert_eq!(back, gaps, "n={n}");

            let ids = intcodec_testkit::running_sums(9, &gaps);
            let wd = p.encode_delta(&ids, 9, &mut out).unwrap();
            assert_eq!(&out[..wd], &want[..], "delta codes the same gaps, n={n}");
            back.fill(0);
            assert_eq!(p.decode_delta(&out, n, 9, &mut back).unwrap(), wd);
            assert_eq!(back, ids, "n={n}");
        }
    }

    #[test]
    fn fastpfor_peer_rejects_bad_streams() {
        let p = PeerFastPFor::default();
        let mut out = [0u32; 300];
        assert!(p.decode(&[], 3, &mut out).is_err());
        assert!(p.decode(&[9, 0, 0, 0, 1, 2], 3, &mut out).is_err());
        let mut buf = vec![0u8; p.max_encoded_len(300)];
        let vals: Vec<u32> = (0..300).collect();
        let w = p.encode(&vals, &mut buf).unwrap();
        assert!(p.decode(&buf[..w], 299, &mut out).is_err());
        assert!(p.decode(&buf[..w], 300, &mut out[..10]).is_err());
        assert!(p.encode(&vals, &mut buf[..20]).is_err());
        // Garbage words: an error or some values, never a panic.
        let mut junk = vec![0u8; 4 + 4 * 64];
        junk[..4].copy_from_slice(&64u32.to_le_bytes());
        for (i, b) in junk[4..].iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37);
        }
        let _ = p.decode(&junk, 256, &mut out);
    }
}
