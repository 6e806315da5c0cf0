//! Our byte-oriented codecs (Stream VByte, VarInt-GB, VarInt-G8IU), one
//! [`Codec`] per kernel this CPU runs.

use crate::measure::Codec;
use intcodec::streamvbyte::{self, StreamVByte};
#[cfg(feature = "g8iu")]
use intcodec::varint_g8iu::{self, VarIntG8iu};
use intcodec::varint_gb::{self, VarIntGb};
#[allow(unused_imports)]
use intcodec::{IntCodec, KernelChoice, SortedCodec};

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
        StreamVByte::new()
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
        VarIntGb::new()
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
        VarIntG8iu::new()
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
