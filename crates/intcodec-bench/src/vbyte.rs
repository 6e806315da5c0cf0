//! The VByte (LEB128 / protobuf varint) family: intcodec's VByte kernels
//! (scalar Algorithm 1, Masked VByte SSE4.1 and AVX2) and the Rust varint
//! crates as peers.
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

use crate::codec::Codec;
use intcodec::vbyte::{self, VByte};
use intcodec::{IntCodec, KernelChoice};

/// Family name of ours and the peers here.
pub const FAMILY: &str = "vbyte";

/// Readable bytes decoders get after a stream, and spare bytes encoders get
/// (some peers read or copy 16 bytes at a time).
const SLACK: usize = 16;

fn max_len(n: usize) -> usize {
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
        intcodec::vbyte::VByte::new()
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

#[cfg(feature = "peer-varint")]
pub use peers::{IntegerEncoding, Leb128, Prost, UnsignedVarint, VarintSimd};

#[cfg(feature = "peer-varint")]
mod peers {
    use super::{max_len, Codec, FAMILY};

    /// One peer library: decode or encode one value at `pos`.
    pub trait Lib {
        /// Codec column (`peer:<crate>`).
        const NAME: &'static str;
        /// Kernel column.
        const KERNEL: &'static str;
        /// The value at `input[pos..]` and its length.
        fn get(input: &[u8], pos: usize) -> Result<(u32, usize), String>;
        /// Writes `v` at `out[pos..]`; returns its length.
        fn put(v: u32, out: &mut [u8], pos: usize) -> usize;
    }

    /// A [`Lib`] as a benchmark codec.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Peer<L>(core::marker::PhantomData<L>);

    fn check_room(name: &str, what: &str, room: usize, needed: usize) -> Result<(), String> {
        if room < needed {
            return Err(format!("{name}: {what} has {room} bytes, needs {needed}"));
        }
        Ok(())
    }

    #[inline(always)]
    fn decode_with<L: Lib, const DELTA: bool>(
        input: &[u8],
        n: usize,
        mut prev: u32,
        out: &mut [u32],
    ) -> Result<usize, String> {
        let out = out
            .get_mut(..n)
            .ok_or_else(|| format!("{}: output holds fewer than {n}", L::NAME))?;
        let mut pos = 0;
        for slot in out {
            let (v, len) = L::get(input, pos)?;
            pos += len;
            *slot = if DELTA {
                prev = prev.wrapping_add(v);
                prev
            } else {
                v
            };
        }
        Ok(pos)
    }

    #[inline(always)]
    fn encode_with<L: Lib, const DELTA: bool>(
        values: &[u32],
        mut prev: u32,
        out: &mut [u8],
    ) -> Result<usize, String> {
        check_room(L::NAME, "output", out.len(), max_len(values.len()))?;
        let mut pos = 0;
        for &x in values {
            let v = if DELTA {
                let d = x.wrapping_sub(prev);
                prev = x;
                d
            } else {
                x
            };
            pos += L::put(v, out, pos);
        }
        Ok(pos)
    }

    impl<L: Lib> Codec for Peer<L> {
        fn family(&self) -> &'static str {
            FAMILY
        }
        fn name(&self) -> String {
            L::NAME.to_string()
        }
        fn kernel(&self) -> String {
            L::KERNEL.to_string()
        }
        fn is_peer(&self) -> bool {
            true
        }
        fn is_default(&self) -> bool {
            false
        }
        fn max_encoded_len(&self, n: usize) -> usize {
            max_len(n)
        }
        #[inline]
        fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String> {
            encode_with::<L, false>(values, 0, out)
        }
        #[inline]
        fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> Result<usize, String> {
            encode_with::<L, true>(values, prev, out)
        }
        #[inline]
        fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, String> {
            decode_with::<L, false>(input, n, 0, out)
        }
        #[inline]
        fn decode_delta(
            &self,
            input: &[u8],
            n: usize,
            prev: u32,
            out: &mut [u32],
        ) -> Result<usize, String> {
            decode_with::<L, true>(input, n, prev, out)
        }
    }

    /// `prost::encoding::{decode_varint, encode_varint}` (u64; a u32 field
    /// keeps the low 32 bits, as prost's own `uint32` decoding does).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct ProstLib;
    impl Lib for ProstLib {
        const NAME: &'static str = "peer:prost";
        const KERNEL: &'static str = "rust";
        #[inline(always)]
        fn get(input: &[u8], pos: usize) -> Result<(u32, usize), String> {
            let mut buf = input.get(pos..).unwrap_or_default();
            let before = buf.len();
            let v = prost::encoding::decode_varint(&mut buf).map_err(|e| format!("prost: {e}"))?;
            Ok((v as u32, before - buf.len()))
        }
        #[inline(always)]
        fn put(v: u32, out: &mut [u8], pos: usize) -> usize {
            let mut buf = &mut out[pos..];
            let before = buf.len();
            prost::encoding::encode_varint(u64::from(v), &mut buf);
            before - buf.len()
        }
    }

    /// `integer_encoding::VarInt::{decode_var, encode_var}`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct IntegerEncodingLib;
    impl Lib for IntegerEncodingLib {
        const NAME: &'static str = "peer:integer-encoding";
        const KERNEL: &'static str = "rust";
        #[inline(always)]
        fn get(input: &[u8], pos: usize) -> Result<(u32, usize), String> {
            use integer_encoding::VarInt;
            u32::decode_var(input.get(pos..).unwrap_or_default())
                .ok_or_else(|| "integer-encoding: bad varint".to_string())
        }
        #[inline(always)]
        fn put(v: u32, out: &mut [u8], pos: usize) -> usize {
            use integer_encoding::VarInt;
            v.encode_var(&mut out[pos..])
        }
    }

    /// `leb128::{read, write}::unsigned` (u64, through `std::io`).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct Leb128Lib;
    impl Lib for Leb128Lib {
        const NAME: &'static str = "peer:leb128";
        const KERNEL: &'static str = "rust";
        #[inline(always)]
        fn get(input: &[u8], pos: usize) -> Result<(u32, usize), String> {
            let mut buf = input.get(pos..).unwrap_or_default();
            let before = buf.len();
            let v = leb128::read::unsigned(&mut buf).map_err(|e| format!("leb128: {e}"))?;
            let v = u32::try_from(v).map_err(|_| "leb128: value exceeds u32".to_string())?;
            Ok((v, before - buf.len()))
        }
        #[inline(always)]
        fn put(v: u32, out: &mut [u8], pos: usize) -> usize {
            let mut buf = &mut out[pos..];
            leb128::write::unsigned(&mut buf, u64::from(v)).expect("room checked")
        }
    }

    /// `varint_simd::{decode, encode_to_slice}` (single values; see the
    /// module docs on SSSE3).
    #[derive(Clone, Copy, Debug, Default)]
    pub struct VarintSimdLib;
    impl Lib for VarintSimdLib {
        const NAME: &'static str = "peer:varint-simd";
        const KERNEL: &'static str = "rust-sse2";
        #[inline(always)]
        fn get(input: &[u8], pos: usize) -> Result<(u32, usize), String> {
            varint_simd::decode::<u32>(input.get(pos..).unwrap_or_default())
                .map_err(|e| format!("varint-simd: {e:?}"))
        }
        #[inline(always)]
        fn put(v: u32, out: &mut [u8], pos: usize) -> usize {
            usize::from(varint_simd::encode_to_slice::<u32>(v, &mut out[pos..]))
        }
    }

    /// `unsigned_varint::{decode, encode}::u32`.
    #[derive(Clone, Copy, Debug, Default)]
    pub struct UnsignedVarintLib;
    impl Lib for UnsignedVarintLib {
        const NAME: &'static str = "peer:unsigned-varint";
        const KERNEL: &'static str = "rust";
        #[inline(always)]
        fn get(input: &[u8], pos: usize) -> Result<(u32, usize), String> {
            let buf = input.get(pos..).unwrap_or_default();
            let (v, rest) =
                unsigned_varint::decode::u32(buf).map_err(|e| format!("unsigned-varint: {e}"))?;
            Ok((v, buf.len() - rest.len()))
        }
        #[inline(always)]
        fn put(v: u32, out: &mut [u8], pos: usize) -> usize {
            let mut tmp = unsigned_varint::encode::u32_buffer();
            let bytes = unsigned_varint::encode::u32(v, &mut tmp);
            out[pos..pos + bytes.len()].copy_from_slice(bytes);
            bytes.len()
        }
    }

    /// prost as a benchmark codec.
    pub type Prost = Peer<ProstLib>;
    /// integer-encoding as a benchmark codec.
    pub type IntegerEncoding = Peer<IntegerEncodingLib>;
    /// leb128 as a benchmark codec.
    pub type Leb128 = Peer<Leb128Lib>;
    /// varint-simd as a benchmark codec.
    pub type VarintSimd = Peer<VarintSimdLib>;
    /// unsigned-varint as a benchmark codec.
    pub type UnsignedVarint = Peer<UnsignedVarintLib>;
}

/// Every VByte codec to measure here: our kernels (lowest ISA first), then
/// the peers compiled in.
pub fn contenders() -> Vec<Box<dyn Codec>> {
    let mut all: Vec<Box<dyn Codec>> = Vec::new();
    for ours in Ours::all() {
        all.push(Box::new(ours));
    }
    #[cfg(feature = "peer-varint")]
    {
        all.push(Box::new(Prost::default()));
        all.push(Box::new(IntegerEncoding::default()));
        all.push(Box::new(Leb128::default()));
        all.push(Box::new(VarintSimd::default()));
        all.push(Box::new(UnsignedVarint::default()));
    }
    all
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
        let all = contenders();
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
        assert_eq!(contenders().iter().filter(|c| c.is_default()).count(), 1);
    }
}
