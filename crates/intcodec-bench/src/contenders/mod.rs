//! Our codecs under test: one generic adapter, [`Ours`], from any codec of
//! the core crate (`intcodec::KernelChoice`) to the benchmark's [`Codec`],
//! one instance per kernel this CPU runs. The family and name are the
//! codec's registry name. Static types, not `dyn IntCodec`: the timed loop
//! is compiled per codec, with no virtual call per chunk.
//!
//! Depends on [`crate::measure`] only.

pub mod bp128;
pub mod streamvbyte;
pub mod vbyte;

use crate::measure::{ByteLen, Codec, Label};
use intcodec::bp128::{Bp128, DeltaMode, Layout};
use intcodec::streamvbyte::StreamVByte;
#[cfg(feature = "g8iu")]
use intcodec::varint_g8iu::VarIntG8iu;
use intcodec::varint_gb::VarIntGb;
use intcodec::vbyte::VByte;
use intcodec::KernelChoice;

/// Readable bytes past a stream and writable bytes past an encoding that
/// the benchmark gives every codec (ours need at most
/// `IntCodec::unchecked_padding`, 16; the peers' over-reads are within it).
pub(crate) const SLACK: usize = 16;

/// One of our codecs on one kernel.
#[derive(Clone, Copy, Debug)]
pub struct Ours<C> {
    codec: C,
    default: bool,
}

impl<C: KernelChoice> Ours<C> {
    /// `codec` (its format options) on every kernel this CPU may run
    /// (within `INTCODEC_ISA`); `codec`'s own kernel is the default one.
    pub fn every_kernel(codec: C) -> Vec<Self> {
        let best = codec.isa();
        codec
            .all_kernels()
            .into_iter()
            .map(|codec| Ours {
                codec,
                default: codec.isa() == best,
            })
            .collect()
    }
}

impl<C: KernelChoice> Codec for Ours<C> {
    fn label(&self) -> Label {
        Label::new(
            self.codec.name(),
            self.codec.name(),
            self.codec.isa().name(),
        )
    }
    fn is_peer(&self) -> bool {
        false
    }
    fn is_default(&self) -> bool {
        self.default
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        self.codec
            .max_compressed_len(n)
            .expect("chunk sizes are small")
            + SLACK
    }
    #[inline]
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
        self.codec
            .encode_opt(values, delta, out)
            .map_err(|e| e.to_string())
    }
    // Inlined into the timed loops, as a caller of the library's `decode`
    // gets it: the adapter adds no call of its own (the C/C++ peers' loops
    // run in C, where their decoders inline). Short lists of 8 VarInt-GB
    // values: 10.1 -> 9.3 ns a call.
    #[inline(always)]
    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        self.codec
            .decode_opt(input, n, delta, out)
            .map_err(|e| e.to_string())
    }
}

/// Every one of our codecs in the `postings` and `ints` suites, family by
/// family (lowest ISA first within a family): Stream VByte, VByte, BP128 4x,
/// 8x and 16x (D1), VarInt-GB, and VarInt-G8IU with the feature `g8iu`. (The
/// lane delta runs in the `keys` suite.)
pub fn all() -> Vec<Box<dyn Codec>> {
    fn add<C: KernelChoice>(all: &mut Vec<Box<dyn Codec>>, codec: C) {
        for c in Ours::every_kernel(codec) {
            all.push(Box::new(c));
        }
    }
    let mut all: Vec<Box<dyn Codec>> = Vec::new();
    add(&mut all, StreamVByte::best());
    add(&mut all, VByte::best());
    add(
        &mut all,
        Bp128::new(Layout::Lanes4).with_delta(DeltaMode::D1),
    );
    add(
        &mut all,
        Bp128::new(Layout::Lanes8).with_delta(DeltaMode::D1),
    );
    add(
        &mut all,
        Bp128::new(Layout::Lanes16).with_delta(DeltaMode::D1),
    );
    add(&mut all, VarIntGb::best());
    #[cfg(feature = "g8iu")]
    add(&mut all, VarIntG8iu::best());
    all
}
