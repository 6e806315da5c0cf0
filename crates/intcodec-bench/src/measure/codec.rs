//! The codecs a benchmark measures, behind one trait.
//!
//! A [`Codec`] is one implementation (one kernel) of one format: ours, for
//! every kernel this CPU runs, and the peers (other libraries, linked in the
//! same process). Adding a codec to the benchmark means implementing this
//! trait and listing it in `crate::contenders` (ours) or `crate::peers`.

use super::{Bucket, Buffers, Encoded, Light, Op};
use crate::measure;
use std::hint::black_box;

/// Largest chunk a benchmark encodes as one stream (the paper's 4096-int,
/// L1-resident output buffer).
pub const CHUNK: usize = 4096;

/// What the `encode*` and `decode*` calls of a [`Codec`] return: the length
/// in bytes of the stream written or read, or why the call failed.
pub type ByteLen = Result<usize, String>;

/// How the reports name a codec: the columns that tell one [`Codec`] from
/// another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    /// Format family shared by ours and its peers (e.g. `streamvbyte`).
    pub family: &'static str,
    /// Codec column (`streamvbyte`, `peer:streamvbyte`).
    pub name: &'static str,
    /// Kernel column (`scalar`, `sse41`, `c-simd`).
    pub kernel: &'static str,
}

impl Label {
    /// The label of `name` on `kernel`, in `family`.
    pub const fn new(family: &'static str, name: &'static str, kernel: &'static str) -> Label {
        Label {
            family,
            name,
            kernel,
        }
    }
}

/// One codec implementation under test.
///
/// Inputs and outputs follow the checked APIs of intcodec: `encode*` writes
/// into `out` and returns the bytes written; `decode*` reads a stream at the
/// start of `input` (which may continue past the stream) and returns the
/// bytes consumed. Callers give encoders at least
/// `max_encoded_len(n)` bytes and decoders at least `max_encoded_len(n)`
/// readable bytes (the benchmark stores streams contiguously with that much
/// slack at the end), so peers that over-read or over-write can be called
/// soundly.
pub trait Codec {
    /// How reports name this codec (family, codec and kernel columns).
    fn label(&self) -> Label;
    /// Format family shared by ours and its peers (e.g. `streamvbyte`); the
    /// summary compares codecs within a family.
    fn family(&self) -> &'static str {
        self.label().family
    }
    /// Codec column in reports (`streamvbyte`, `peer:streamvbyte`).
    fn name(&self) -> String {
        self.label().name.to_string()
    }
    /// Kernel column in reports (`scalar`, `sse41`, `c-simd`).
    fn kernel(&self) -> String {
        self.label().kernel.to_string()
    }
    /// Whether this is another project's implementation (every codec but
    /// ours, which says `false`).
    fn is_peer(&self) -> bool {
        true
    }
    /// Whether this is the kernel our run-time dispatch picks here (the one
    /// users get): the one compared with peers in the summary. Never a peer.
    fn is_default(&self) -> bool {
        false
    }
    /// Buffer size `encode*` needs, and readable bytes `decode*` needs, for
    /// `n` values (including any over-read or over-write slack).
    fn max_encoded_len(&self, n: usize) -> usize;
    /// Encodes `values`: plain when `delta` is `None`, as deltas from `prev`
    /// when it is `Some(prev)`. The one encoder an implementation writes;
    /// [`Codec::encode`] and [`Codec::encode_delta`] call it.
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen;
    /// Decodes `n` values into `out[..n]`: plain when `delta` is `None`,
    /// delta-coded from `prev` when it is `Some(prev)`. The one decoder an
    /// implementation writes; [`Codec::decode`] and [`Codec::decode_delta`]
    /// call it.
    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen;
    /// Encodes `values`.
    #[inline]
    fn encode(&self, values: &[u32], out: &mut [u8]) -> ByteLen {
        self.encode_with(values, None, out)
    }
    /// Encodes `values` as deltas from `prev`.
    #[inline]
    fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> ByteLen {
        self.encode_with(values, Some(prev), out)
    }
    /// Decodes `n` values into `out[..n]`.
    #[inline]
    fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> ByteLen {
        self.decode_with(input, n, None, out)
    }
    /// Decodes `n` delta-coded values (from `prev`) into `out[..n]`.
    #[inline]
    fn decode_delta(&self, input: &[u8], n: usize, prev: u32, out: &mut [u32]) -> ByteLen {
        self.decode_with(input, n, Some(prev), out)
    }

    /// Whether this codec can run `op` (one of [`Op::CODEC_OPS`]). A peer
    /// without a delta API says `false` for [`Op::DecodeDelta`] and
    /// [`Op::EncodeDelta`] (both or neither): the `postings` suite then
    /// measures neither for it, and its report names the ops not measured;
    /// its `encode_delta` / `decode_delta` return an error saying so.
    fn supports(&self, op: Op) -> bool {
        let _ = op;
        true
    }
    /// Whether this codec writes a different format from the rest of its
    /// family: it is compared for speed (the family is its natural
    /// competitor, e.g. another bit-packing codec), with its own bits per
    /// int, but not byte for byte.
    fn own_format(&self) -> bool {
        false
    }

    /// One timed pass of `op` over every chunk of `b` (`enc`: this codec's
    /// streams of `b`, plain for [`Op::Decode`], delta for
    /// [`Op::DecodeDelta`]; unused by encoders). Decoders write each chunk
    /// into `bufs.values`, encoders into `bufs.bytes`. Provided so the loop
    /// is compiled for each codec type: no dynamic dispatch per chunk.
    #[inline(never)]
    fn pass(&self, op: Op, b: &Bucket, enc: &Encoded, bufs: &mut Buffers) -> Result<Light, String> {
        let (buf, scratch) = (&mut bufs.values[..], &mut bufs.bytes[..]);
        let mut light = Light::default();
        match op {
            Op::Decode | Op::DecodeDelta => {
                let delta = op.is_delta();
                for (ch, &off) in b.chunks.iter().zip(&enc.offsets) {
                    let input = &enc.bytes[off..];
                    let used = measure::decode_chunk(self, delta, input, ch, buf)?;
                    let out = black_box(&mut buf[..ch.len]);
                    light.ends = light.ends.wrapping_add(measure::value_ends(out));
                    light.bytes += used as u64;
                }
            }
            Op::Encode | Op::EncodeDelta => {
                let delta = op.is_delta();
                for ch in &b.chunks {
                    let w = measure::encode_chunk(self, delta, b, ch, scratch)?;
                    let out = black_box(&scratch[..w]);
                    light.ends = light.ends.wrapping_add(measure::byte_ends(out));
                    light.bytes += w as u64;
                }
            }
            Op::Copy => return Ok(measure::copy_pass(b, buf)),
            Op::Seek | Op::Select | Op::Named(_) => {
                return Err(format!("{} is not a bucket operation", op.name()))
            }
        }
        Ok(light)
    }

    /// The `short` suite's pass: `reps` rounds of plain decodes of every
    /// stream of `lists` (`out.len()` values each, every stream followed by
    /// `max_encoded_len(out.len())` readable bytes) into `out`. Returns the
    /// wrapping sum, over every decode, of the last value plus the bytes
    /// consumed. Provided so the loop is compiled for each codec type; a C
    /// peer runs the loop on the C side (into its own buffer).
    fn short_pass(&self, lists: &Encoded, reps: usize, out: &mut [u32]) -> Result<u64, String> {
        let (bytes, offsets, n) = (&lists.bytes[..], &lists.offsets[..], out.len());
        let mut sum = 0u64;
        if n == 0 {
            return Ok(0);
        }
        for _ in 0..reps {
            for &o in offsets {
                let used = self.decode(&bytes[o..], n, out)?;
                let got = std::hint::black_box(&out[..n]);
                sum = sum.wrapping_add(u64::from(got[n - 1]) + used as u64);
            }
        }
        Ok(sum)
    }

    /// Encodes every chunk of `bucket` (plain gaps, or ids delta-coded).
    fn encode_bucket(&self, bucket: &Bucket, delta: bool) -> Result<Encoded, String> {
        measure::encode_bucket(self, bucket, delta)
    }
}
