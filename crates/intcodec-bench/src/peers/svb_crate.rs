//! The `svb` crate (0.3, pure Rust Stream VByte, stable; feature
//! `simd-auto`: AVX2 or SSSE3 picked at run time) as a peer of our Stream
//! VByte: `peer:svb`, its `U32Classic` codec, lemire/streamvbyte's format
//! byte for byte (tested below against ours).
//!
//! Its API appends to a `Vec`, does not return the bytes a decode consumed
//! and wants the exact stream (svb 0.3.1 reports `DataTruncated` on some
//! streams followed by more bytes): the caller stores the stream length. The timed passes
//! ([`Codec::pass`]) decode and encode into the peer's own reusable,
//! L1-resident `Vec`s (no copy); the untimed `decode` copies into the
//! caller's buffer and takes the consumed length from our `encoded_len`.
//! `svb` has no delta coding for `u32` (its `delta` module is separate
//! whole-array passes), so delta ops are not measured for it.

use super::shared::{plain_only, room, rust_simd_kernel};
use crate::measure::{
    byte_ends, value_ends, Bucket, Buffers, ByteLen, Codec, Encoded, Label, Light, Op,
};
use intcodec::streamvbyte::{max_compressed_len, StreamVByte};
use intcodec::IntCodec;
use std::cell::RefCell;
use svb::u32::U32Classic;

const NAME: &str = "peer:svb";

/// `svb::u32::U32Classic` (see the module docs).
#[derive(Default)]
pub struct PeerSvb {
    values: RefCell<Vec<u32>>,
    bytes: RefCell<Vec<u8>>,
}

impl Codec for PeerSvb {
    fn label(&self) -> Label {
        let kernel = if cfg!(target_arch = "x86_64") {
            rust_simd_kernel(true)
        } else {
            "rust"
        };
        Label::new(crate::contenders::streamvbyte::FAMILY, NAME, kernel)
    }
    fn supports(&self, op: Op) -> bool {
        !op.is_delta()
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        max_compressed_len(n) + 16
    }
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
        plain_only(NAME, delta)?;
        let mut bytes = self.bytes.borrow_mut();
        bytes.clear();
        U32Classic.encode_into(values, &mut bytes);
        let w = bytes.len();
        room(NAME, out, w)?.copy_from_slice(&bytes);
        Ok(w)
    }
    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        plain_only(NAME, delta)?;
        let used = StreamVByte::new()
            .encoded_len(input, n)
            .map_err(|e| format!("{NAME}: {e}"))?;
        let mut values = self.values.borrow_mut();
        values.clear();
        U32Classic
            .decode_into(&input[..used], n, &mut values)
            .map_err(|e| format!("{NAME}: {e}"))?;
        room(NAME, out, n)?.copy_from_slice(&values[..n]);
        Ok(used)
    }

    fn pass(
        &self,
        op: Op,
        b: &Bucket,
        enc: &Encoded,
        _bufs: &mut Buffers,
    ) -> Result<Light, String> {
        let mut light = Light::default();
        match op {
            Op::Decode => {
                let mut values = self.values.borrow_mut();
                for (i, (ch, &off)) in b.chunks.iter().zip(&enc.offsets).enumerate() {
                    // The stream length, as the caller stores it.
                    let end = enc.offsets.get(i + 1).map_or(enc.total as usize, |&o| o);
                    values.clear();
                    U32Classic
                        .decode_into(&enc.bytes[off..end], ch.len, &mut values)
                        .map_err(|e| format!("{NAME}: {e}"))?;
                    let v = std::hint::black_box(&values[..]);
                    light.ends = light.ends.wrapping_add(value_ends(v));
                    light.bytes += (end - off) as u64;
                }
            }
            Op::Encode => {
                let mut bytes = self.bytes.borrow_mut();
                for ch in &b.chunks {
                    bytes.clear();
                    U32Classic.encode_into(&b.gaps[ch.start..][..ch.len], &mut bytes);
                    let out = std::hint::black_box(&bytes[..]);
                    light.ends = light.ends.wrapping_add(byte_ends(out));
                    light.bytes += out.len() as u64;
                }
            }
            _ => return Err(format!("{NAME}: {} not supported", op.name())),
        }
        Ok(light)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svb_writes_and_reads_our_bytes() {
        let p = PeerSvb::default();
        for n in [1usize, 3, 4, 5, 31, 32, 33, 777, 4096] {
            let v: Vec<u32> = (0..n as u32)
                .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 32))
                .collect();
            let ours = StreamVByte::new().encode_to_vec(&v);
            let mut out = vec![0u8; p.max_encoded_len(n)];
            let w = p.encode(&v, &mut out).unwrap();
            assert_eq!(&out[..w], &ours[..], "{n}");
            let mut input = ours.clone();
            input.resize(ours.len() + 16, 0);
            let mut got = vec![0u32; n];
            assert_eq!(p.decode(&input, n, &mut got).unwrap(), ours.len());
            assert_eq!(got, v);
        }
    }
}
