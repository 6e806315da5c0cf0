//! The codecs a benchmark measures, behind one trait.
//!
//! A [`Codec`] is one implementation (one kernel) of one format: ours, for
//! every kernel this CPU runs, and the peers (other libraries, linked in the
//! same process). Adding a codec to the benchmark means implementing this
//! trait and listing it in [`contenders`].

use crate::measure::{self, Bucket, Encoded, Light, Op};
use intcodec::streamvbyte::{self, StreamVByte};
#[cfg(feature = "g8iu")]
use intcodec::varint_g8iu::{self, VarIntG8iu};
use intcodec::varint_gb::{self, VarIntGb};
use intcodec::{IntCodec, KernelChoice};

/// Largest chunk a benchmark encodes as one stream (the paper's 4096-int,
/// L1-resident output buffer).
pub const CHUNK: usize = 4096;

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
    /// Format family shared by ours and its peers (e.g. `streamvbyte`); the
    /// summary compares codecs within a family.
    fn family(&self) -> &'static str;
    /// Codec column in reports (`streamvbyte`, `peer:streamvbyte`).
    fn name(&self) -> String;
    /// Kernel column in reports (`scalar`, `sse41`, `c-simd`).
    fn kernel(&self) -> String;
    /// Whether this is another project's implementation.
    fn is_peer(&self) -> bool;
    /// Whether this is the kernel our run-time dispatch picks here (the one
    /// users get): the one compared with peers in the summary.
    fn is_default(&self) -> bool;
    /// Buffer size `encode*` needs, and readable bytes `decode*` needs, for
    /// `n` values (including any over-read or over-write slack).
    fn max_encoded_len(&self, n: usize) -> usize;
    /// Encodes `values`.
    fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String>;
    /// Encodes `values` as deltas from `prev`.
    fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> Result<usize, String>;
    /// Decodes `n` values into `out[..n]`.
    fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, String>;
    /// Decodes `n` delta-coded values (from `prev`) into `out[..n]`.
    fn decode_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, String>;

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

    /// One timed pass of `op` over every chunk of `bucket` (see
    /// [`measure::codec_pass`]). Provided so the loop is compiled for each
    /// codec type: no dynamic dispatch per chunk.
    fn pass(
        &self,
        op: Op,
        bucket: &Bucket,
        enc: &Encoded,
        buf: &mut [u32],
        scratch: &mut [u8],
    ) -> Result<Light, String> {
        measure::codec_pass(self, op, bucket, enc, buf, scratch)
    }

    /// Encodes every chunk of `bucket` (plain gaps, or ids delta-coded).
    fn encode_bucket(&self, bucket: &Bucket, delta: bool) -> Result<Encoded, String> {
        measure::encode_bucket(self, bucket, delta)
    }

    /// Untimed full check of `op` on `bucket`; returns the light check the
    /// timed passes must reproduce.
    fn verify(
        &self,
        op: Op,
        bucket: &Bucket,
        enc: &Encoded,
        buf: &mut [u32],
        scratch: &mut [u8],
    ) -> Result<Light, String> {
        measure::verify(self, op, bucket, enc, buf, scratch)
    }
}

/// intcodec's Stream VByte ("1234") with one forced kernel.
#[derive(Clone, Copy, Debug)]
pub struct Ours {
    codec: StreamVByte,
    default: bool,
}

impl Ours {
    /// Every Stream VByte kernel this CPU may run (within `INTCODEC_ISA`).
    pub fn all() -> Vec<Ours> {
        let best = StreamVByte::new().isa();
        intcodec::streamvbyte::StreamVByte::new()
            .kernel_isas()
            .into_iter()
            .filter(|isa| isa.is_enabled())
            .filter_map(|isa| StreamVByte::new().with_isa(isa))
            .map(|codec| Ours {
                codec,
                default: codec.isa() == best,
            })
            .collect()
    }
}

impl Codec for Ours {
    fn family(&self) -> &'static str {
        "streamvbyte"
    }
    fn name(&self) -> String {
        "streamvbyte".to_string()
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
        streamvbyte::max_compressed_len(n)
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

/// Implements [`Codec`] for a wrapper `$ty { codec, default }` of one of
/// intcodec's handles (same method names on every handle).
macro_rules! ours_codec {
    ($ty:ident, $family:literal, $max:path) => {
        impl Codec for $ty {
            fn family(&self) -> &'static str {
                $family
            }
            fn name(&self) -> String {
                $family.to_string()
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
                $max(n)
            }
            #[inline]
            fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String> {
                self.codec.encode(values, out).map_err(|e| e.to_string())
            }
            #[inline]
            fn encode_delta(
                &self,
                values: &[u32],
                prev: u32,
                out: &mut [u8],
            ) -> Result<usize, String> {
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
    };
}

/// intcodec's VarInt-GB (FastPFor layout) with one forced kernel.
#[derive(Clone, Copy, Debug)]
pub struct OursVarIntGb {
    codec: VarIntGb,
    default: bool,
}

impl OursVarIntGb {
    /// Every VarInt-GB kernel this CPU may run (within `INTCODEC_ISA`).
    pub fn all() -> Vec<Self> {
        let best = VarIntGb::new().isa();
        intcodec::varint_gb::VarIntGb::new()
            .kernel_isas()
            .into_iter()
            .filter_map(|isa| VarIntGb::new().with_isa(isa))
            .map(|codec| OursVarIntGb {
                codec,
                default: codec.isa() == best,
            })
            .collect()
    }
}

ours_codec!(OursVarIntGb, "varint-gb", varint_gb::max_compressed_len);

/// intcodec's VarInt-G8IU with one forced kernel (feature `g8iu`).
#[cfg(feature = "g8iu")]
#[derive(Clone, Copy, Debug)]
pub struct OursVarIntG8iu {
    codec: VarIntG8iu,
    default: bool,
}

#[cfg(feature = "g8iu")]
impl OursVarIntG8iu {
    /// Every VarInt-G8IU kernel this CPU may run (within `INTCODEC_ISA`).
    pub fn all() -> Vec<Self> {
        let best = VarIntG8iu::new().isa();
        intcodec::varint_g8iu::VarIntG8iu::new()
            .kernel_isas()
            .into_iter()
            .filter_map(|isa| VarIntG8iu::new().with_isa(isa))
            .map(|codec| OursVarIntG8iu {
                codec,
                default: codec.isa() == best,
            })
            .collect()
    }
}

#[cfg(feature = "g8iu")]
ours_codec!(
    OursVarIntG8iu,
    "varint-g8iu",
    varint_g8iu::max_compressed_len
);

#[cfg(feature = "peer-streamvbyte")]
pub use peer_svb::PeerStreamVByte;

#[cfg(feature = "peer-streamvbyte")]
mod peer_svb {
    use super::Codec;
    use intcodec::streamvbyte::max_compressed_len;
    use streamvbyte_sys as sys;

    /// Bytes lemire/streamvbyte may read past a stream when decoding, or
    /// write past the data when encoding (16-byte SIMD loads and stores).
    const SLACK: usize = 16;

    /// lemire/streamvbyte (C), through `streamvbyte-sys`, whose build
    /// compiles it with `-march=native` (its SSE/AVX paths).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct PeerStreamVByte;

    fn check(n: usize, room: usize, needed: usize, what: &str) -> Result<u32, String> {
        let n32 =
            u32::try_from(n).map_err(|_| format!("peer:streamvbyte: {n} values is too many"))?;
        if room < needed {
            return Err(format!(
                "peer:streamvbyte: {what} has {room} bytes, needs {needed}"
            ));
        }
        Ok(n32)
    }

    impl Codec for PeerStreamVByte {
        fn family(&self) -> &'static str {
            "streamvbyte"
        }
        fn name(&self) -> String {
            "peer:streamvbyte".to_string()
        }
        fn kernel(&self) -> String {
            "c-simd".to_string()
        }
        fn is_peer(&self) -> bool {
            true
        }
        fn is_default(&self) -> bool {
            false
        }
        fn max_encoded_len(&self, n: usize) -> usize {
            max_compressed_len(n) + SLACK
        }
        #[inline]
        fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String> {
            let n = check(
                values.len(),
                out.len(),
                self.max_encoded_len(values.len()),
                "output",
            )?;
            // SAFETY: `values` holds `n` readable u32s; `out` is writable for
            // max_compressed_len(n) + 16 bytes (checked), more than the C
            // encoder writes (the stream plus at most 16 bytes of SIMD store).
            let w = unsafe { sys::streamvbyte_encode(values.as_ptr(), n, out.as_mut_ptr()) };
            Ok(w as usize)
        }
        #[inline]
        fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> Result<usize, String> {
            let n = check(
                values.len(),
                out.len(),
                self.max_encoded_len(values.len()),
                "output",
            )?;
            // SAFETY: as in `encode`.
            let w = unsafe {
                sys::streamvbyte_delta_encode(values.as_ptr(), n, out.as_mut_ptr(), prev)
            };
            Ok(w as usize)
        }
        #[inline]
        fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, String> {
            let n32 = check(n, input.len(), self.max_encoded_len(n), "input")?;
            if out.len() < n {
                return Err(format!(
                    "peer:streamvbyte: output holds {} < {n}",
                    out.len()
                ));
            }
            // SAFETY: `out` has room for `n` values (checked); `input` has
            // max_compressed_len(n) + 16 readable bytes (checked): the C
            // decoder reads the control bytes, at most 4 data bytes per
            // value, and at most 16 bytes past the data, whatever the bytes.
            let r = unsafe { sys::streamvbyte_decode(input.as_ptr(), out.as_mut_ptr(), n32) };
            Ok(r as usize)
        }
        #[inline]
        fn decode_delta(
            &self,
            input: &[u8],
            n: usize,
            prev: u32,
            out: &mut [u32],
        ) -> Result<usize, String> {
            let n32 = check(n, input.len(), self.max_encoded_len(n), "input")?;
            if out.len() < n {
                return Err(format!(
                    "peer:streamvbyte: output holds {} < {n}",
                    out.len()
                ));
            }
            // SAFETY: as in `decode`.
            let r = unsafe {
                sys::streamvbyte_delta_decode(input.as_ptr(), out.as_mut_ptr(), n32, prev)
            };
            Ok(r as usize)
        }
    }
}

/// Every codec to measure here, family by family: our kernels (lowest ISA
/// first), then the peers compiled in.
pub fn contenders() -> Vec<Box<dyn Codec>> {
    let mut all: Vec<Box<dyn Codec>> = Vec::new();
    for ours in Ours::all() {
        all.push(Box::new(ours));
    }
    #[cfg(feature = "peer-streamvbyte")]
    all.push(Box::new(PeerStreamVByte));
    all.extend(crate::vbyte::contenders());
    all.extend(crate::bp128::contenders());
    #[cfg(any(feature = "peer-stream-vbyte", feature = "peer-streamvbyte64"))]
    all.extend(crate::svb_rust::contenders());
    #[cfg(feature = "peer-fastpfor")]
    all.push(Box::new(crate::fastpfor_peer::PeerFastPFor::new()));
    for gb in OursVarIntGb::all() {
        all.push(Box::new(gb));
    }
    #[cfg(feature = "g8iu")]
    for g8iu in OursVarIntG8iu::all() {
        all.push(Box::new(g8iu));
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_contenders_round_trip_and_agree() {
        let values: Vec<u32> = (0..1000u32)
            .map(|i| i * i * 37 + (i & 7) * 100_000)
            .collect();
        let mut ids = values.clone();
        ids.sort_unstable();
        let mut reference: std::collections::HashMap<&str, (Vec<u8>, Vec<u8>)> = Default::default();
        for c in contenders() {
            let mut out = vec![0u8; c.max_encoded_len(values.len())];
            let w = c.encode(&values, &mut out).unwrap();
            let plain = out[..w].to_vec();
            let mut back = vec![0u32; values.len()];
            assert_eq!(c.decode(&out, values.len(), &mut back).unwrap(), w);
            assert_eq!(back, values, "{} {}", c.name(), c.kernel());

            // A codec without delta coding says so, and refuses it.
            if !c.supports(Op::EncodeDelta) {
                assert!(!c.supports(Op::DecodeDelta), "{}", c.name());
                assert!(c.encode_delta(&ids, 5, &mut out).is_err());
                let p = reference.get(c.family()).expect("ours come first");
                assert_eq!(&plain, &p.0, "{} {}", c.name(), c.kernel());
                continue;
            }
            let w = c.encode_delta(&ids, 5, &mut out).unwrap();
            let delta = out[..w].to_vec();
            assert_eq!(c.decode_delta(&out, ids.len(), 5, &mut back).unwrap(), w);
            assert_eq!(back, ids, "{} {}", c.name(), c.kernel());
            // A different format (compared for speed only) writes its own bytes.
            if c.own_format() {
                assert!(c.is_peer(), "{}", c.name());
                continue;
            }
            // Same format: every implementation of a family writes the same bytes.
            match reference.get(c.family()) {
                None => {
                    reference.insert(c.family(), (plain, delta));
                }
                Some((p, d)) => {
                    assert_eq!(&plain, p, "{} {}", c.name(), c.kernel());
                    assert_eq!(&delta, d, "{} {}", c.name(), c.kernel());
                }
            }
        }
        assert!(reference.contains_key("varint-gb"));
        #[cfg(feature = "g8iu")]
        assert!(reference.contains_key("varint-g8iu"));
    }

    #[test]
    fn exactly_one_default_kernel_per_family() {
        let all = contenders();
        let mut families: Vec<&str> = all.iter().map(|c| c.family()).collect();
        families.dedup();
        for f in families {
            let defaults = all
                .iter()
                .filter(|c| c.family() == f && c.is_default())
                .count();
            assert_eq!(defaults, 1, "{f}");
            assert!(all
                .iter()
                .any(|c| c.family() == f && !c.is_peer() && c.kernel() == "scalar"));
        }
    }

    #[cfg(feature = "peer-streamvbyte")]
    #[test]
    fn peer_matches_the_streamvbyte_crate() {
        let values: Vec<u32> = (0..777u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 32))
            .collect();
        let mut out = vec![0u8; PeerStreamVByte.max_encoded_len(values.len())];
        let w = PeerStreamVByte.encode(&values, &mut out).unwrap();
        assert_eq!(&out[..w], &::streamvbyte::encode(&values)[..]);
    }

    #[cfg(feature = "peer-streamvbyte")]
    #[test]
    fn peer_refuses_short_buffers() {
        let p = PeerStreamVByte;
        let mut out = vec![0u8; 10];
        assert!(p.encode(&[1, 2, 3, 4], &mut out).is_err());
        let mut vals = [0u32; 4];
        assert!(p.decode(&[0u8; 8], 4, &mut vals).is_err());
    }
}
