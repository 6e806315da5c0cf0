//! Helpers shared by the fuzz targets (`fuzz_targets/*.rs`) and the seed
//! generator (`examples/seeds.rs`).
//!
//! - [`Reader`] / [`Writer`]: split fuzzer bytes into parameters and a
//!   payload, and build the same layout from known values (for seeds). A
//!   reader past the end yields zeros, so every input is usable.
//! - [`DecodeCase`]: the parameter header every decoder target shares:
//!   variant/delta flags, an arbitrary count `n` (small, tied to the input
//!   length, or absurd), an arbitrary output capacity, and `prev`.
//! - [`agree`]: runs one decode on every kernel (reference first) into fresh
//!   exact-size buffers pre-filled with [`SENTINEL`] and asserts the same
//!   `Result`, the same decoded values, and nothing written past `n`.
//! - [`values_from`]: u32 values of varied byte widths from raw bytes.
//! - [`kernel_set`]: a codec on every kernel this CPU allows, scalar
//!   first, checked against what the build enables.
//! - [`svb`], [`vbyte`], [`varint_gb`]: each codec's
//!   kernels (scalar first) and density.
//! - [`codec`]: the same checks generic over the codec traits, for every
//!   codec of `intcodec::registry` (the `codec_*` targets).
//! - [`with_keyset_codec`]: the codecs a `KeySet` is fuzzed with, picked by
//!   a byte (the `keyset_*` targets).
//!
//! Adding a codec: see `fuzz/README.md`.

use intcodec::bp128::{Bp128, Layout};
use intcodec::frame_of_reference::{For, SimdFor};
use intcodec::streamvbyte::StreamVByte;
use intcodec::varint_gb::VarIntGb;
use intcodec::vbyte::VByte;
use intcodec::{DecodeError, Isa, KernelChoice, SortedCodec};
use std::fmt::Debug;

pub mod bp128;
pub mod codec;
pub mod sorted;
pub mod svb;
pub mod varint;
pub mod varint_gb;
pub mod vbyte;

/// What every output slot holds before a decode; a kernel that writes a slot
/// it should not shows up as a changed sentinel.
pub const SENTINEL: u32 = 0xA5A5_5A5A;

/// An output word [`agree`] can check: `u32` or `u64`, with its sentinel.
pub trait Slot: Copy + PartialEq + Debug {
    /// What every slot holds before a decode.
    const SENTINEL: Self;
}

impl Slot for u32 {
    const SENTINEL: u32 = SENTINEL;
}

impl Slot for u64 {
    const SENTINEL: u64 = 0xA5A5_5A5A_C3C3_3C3C;
}

/// `codec` (its format options kept) on every kernel this CPU and the
/// `INTCODEC_ISA` cap allow, found by asking for each ISA in turn, scalar
/// (the reference) first. Panics unless that is exactly as many kernels as
/// [`intcodec::IntCodec::kernel_isas`] lists, so a dispatch mistake cannot
/// shrink the fuzzed set.
pub fn kernel_set<C: KernelChoice>(codec: C) -> Vec<C> {
    let ks = codec.all_kernels();
    let built = Isa::ALL.iter().filter(|&&i| codec.with_isa(i).is_some());
    assert_eq!(
        ks.len(),
        codec.kernel_isas().len(),
        "kernels built vs enabled"
    );
    assert_eq!(ks.len(), built.count(), "kernels built vs asked for by ISA");
    assert_eq!(ks[0].isa(), Isa::Scalar);
    ks
}

/// A check generic over the codec of a `KeySet`: what
/// [`with_keyset_codec`] calls with the codec it picks.
pub trait KeysetCheck {
    /// Runs the check with `codec`.
    fn run<C: SortedCodec + KernelChoice>(self, codec: C);
}

/// Runs `check` with codec `pick` of the seven a `KeySet` is fuzzed with:
/// 0 BP128 (4 lanes), 1 BP128 (8 lanes), 2 FOR, 3 SIMD-FOR, 4 Stream
/// VByte, 5 VByte, any other VarInt-GB.
pub fn with_keyset_codec(pick: u8, check: impl KeysetCheck) {
    match pick {
        0 => check.run(Bp128::new(Layout::Lanes4)),
        1 => check.run(Bp128::new(Layout::Lanes8)),
        2 => check.run(For),
        3 => check.run(SimdFor::best()),
        4 => check.run(StreamVByte::new()),
        5 => check.run(VByte::new()),
        _ => check.run(VarIntGb::new()),
    }
}

/// Largest output buffer a target allocates (values), so that an absurd
/// count costs no memory: the decoder must then report `OutputTooSmall`.
pub const MAX_CAP: usize = 1 << 20;

/// Reads little-endian fields from the front of the fuzzer's bytes; fields
/// past the end read as zero.
pub struct Reader<'a> {
    data: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data }
    }

    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        let k = N.min(self.data.len());
        b[..k].copy_from_slice(&self.data[..k]);
        self.data = &self.data[k..];
        b
    }

    /// One byte.
    pub fn u8(&mut self) -> u8 {
        self.take::<1>()[0]
    }

    /// A little-endian u16.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }

    /// A little-endian u32.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take())
    }

    /// A little-endian u64.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take())
    }

    /// Everything not read yet. It ends where the fuzzer's buffer ends, so a
    /// read past it is caught by AddressSanitizer.
    pub fn rest(self) -> &'a [u8] {
        self.data
    }
}

/// Builds inputs in the layout [`Reader`] reads (for seeds).
#[derive(Default)]
pub struct Writer {
    /// The bytes so far.
    pub bytes: Vec<u8>,
}

impl Writer {
    /// One byte.
    pub fn u8(mut self, v: u8) -> Self {
        self.bytes.push(v);
        self
    }
    /// A little-endian u16.
    pub fn u16(mut self, v: u16) -> Self {
        self.bytes.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// A little-endian u32.
    pub fn u32(mut self, v: u32) -> Self {
        self.bytes.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// A little-endian u64.
    pub fn u64(mut self, v: u64) -> Self {
        self.bytes.extend_from_slice(&v.to_le_bytes());
        self
    }
    /// Raw bytes.
    pub fn raw(mut self, b: &[u8]) -> Self {
        self.bytes.extend_from_slice(b);
        self
    }
}

/// The 8-byte header of a decode case (flags, `k`, `c`, `prev`; how the
/// flags are read is the caller's), then the input.
pub struct Header<'a> {
    /// Byte 0.
    pub flags: u8,
    /// Bytes 1-2, little-endian: used by the count mode.
    pub k: usize,
    /// Byte 3: used by the capacity mode.
    pub c: usize,
    /// Bytes 4-7, little-endian: the delta base.
    pub prev: u32,
    /// The rest.
    pub input: &'a [u8],
}

impl<'a> Header<'a> {
    /// Reads the header (missing bytes read as zero) and the input after it.
    pub fn read(data: &'a [u8]) -> Self {
        let mut r = Reader::new(data);
        Header {
            flags: r.u8(),
            k: r.u16() as usize,
            c: r.u8() as usize,
            prev: r.u32(),
            input: r.rest(),
        }
    }
}

/// A decode case's value count from count mode `mode & 3`: 0 `k`; 1
/// `k % 64`; 2 `room - k % 64` (`room`: about what the input can hold, so
/// both complete and truncated streams are common); 3 absurd
/// (`usize::MAX - k / 2` or `2^40 + k / 2`).
pub fn count(mode: u8, k: usize, room: usize) -> usize {
    match mode & 3 {
        0 => k,
        1 => k % 64,
        2 => room.saturating_sub(k % 64),
        _ if k & 1 == 0 => usize::MAX - (k >> 1),
        _ => (1usize << 40) + (k >> 1),
    }
}

/// A decode case's output slots from capacity mode `mode & 3`: 0 exact
/// (`n`); 1 `n + c % 32`; 2 `n - 1 - c % 8` (too small, saturating); 3 `c`
/// (unrelated).
pub fn capacity(mode: u8, n: usize, c: usize) -> usize {
    match mode & 3 {
        0 => n,
        1 => n.saturating_add(c % 32),
        2 => n.saturating_sub(1 + c % 8),
        _ => c,
    }
}

/// The parameters of one decoder run, read from an 8-byte header:
///
/// ```text
/// byte 0     flags: bit 0 variant (codec-specific, e.g. 1234/0124),
///                   bit 1 delta, bits 2-3 count mode, bits 4-5 capacity mode,
///                   bits 6-7 free for the codec (`extra`)
/// bytes 1-2  u16 `k`, used by the count mode
/// byte 3     `c`, used by the capacity mode
/// bytes 4-7  u32 `prev` (delta base)
/// then       the encoded input
/// ```
///
/// Count modes as [`count`], with `room = density * len`; capacity modes
/// as [`capacity`]. Capacities are capped at
/// [`MAX_CAP`] and at `density * input.len() + 64`, where `density` is the
/// most values the codec can decode per input byte (Stream VByte: 4, a
/// quarter byte per value): a larger buffer only costs time, and a count
/// beyond the cap then tests `OutputTooSmall`.
#[derive(Clone, Copy, Debug)]
pub struct DecodeCase {
    /// Bit 0 of the flags.
    pub variant_bit: bool,
    /// Bit 1 of the flags.
    pub delta: bool,
    /// Bits 6-7 of the flags, for the codec to use.
    pub extra: u8,
    /// The value count to decode.
    pub n: usize,
    /// Slots in the output buffer.
    pub cap: usize,
    /// The delta base.
    pub prev: u32,
}

impl DecodeCase {
    /// Header length in bytes.
    pub const HEADER: usize = 8;

    /// Splits fuzzer bytes into parameters and the encoded input.
    pub fn split(data: &[u8], density: usize) -> (DecodeCase, &[u8]) {
        let Header {
            flags,
            k,
            c,
            prev,
            input,
        } = Header::read(data);
        let n = count(flags >> 2, k, density.saturating_mul(input.len()));
        let cap = capacity(flags >> 4, n, c)
            .min(MAX_CAP)
            .min(density.saturating_mul(input.len()).saturating_add(64));
        let case = DecodeCase {
            variant_bit: flags & 1 != 0,
            delta: flags & 2 != 0,
            extra: flags >> 6,
            n,
            cap,
            prev,
        };
        (case, input)
    }

    /// A seed: count mode 0 (`n` exact), exact capacity, then `input`.
    pub fn seed(variant_bit: bool, delta: bool, n: u16, prev: u32, input: &[u8]) -> Vec<u8> {
        let flags = variant_bit as u8 | (delta as u8) << 1;
        Writer::default()
            .u8(flags)
            .u16(n)
            .u8(0)
            .u32(prev)
            .raw(input)
            .bytes
    }
}

/// One decode result and the output buffer it left.
#[derive(Debug)]
pub struct Outcome<T = u32> {
    /// What the decoder returned.
    pub result: Result<usize, DecodeError>,
    /// The whole output buffer (`cap` slots) after the call.
    pub out: Vec<T>,
}

/// Runs `decode` with every kernel in `kernels`, the first being the
/// reference (scalar), each into a fresh buffer of exactly `cap` slots filled
/// with the sentinel ([`Slot::SENTINEL`]; `u32` or `u64` slots), and asserts that every kernel
/// - returns the reference's `Result` (bytes consumed, or error kind, offset
///   and value index);
/// - on success, leaves the same `out[..n]` as the reference;
/// - on an error naming value `i`, leaves the same `out[..i]` (the values
///   before the failure are decoded);
/// - never writes `out[n..]`.
///
/// Returns the reference's outcome.
pub fn agree<K: Debug, T: Slot>(
    kernels: &[K],
    n: usize,
    cap: usize,
    mut decode: impl FnMut(&K, &mut [T]) -> Result<usize, DecodeError>,
) -> Outcome<T> {
    let (reference, others) = kernels.split_first().expect("at least one kernel");
    let want = run_one(reference, n, cap, &mut decode);
    let decoded = match want.result {
        Ok(_) => n.min(cap),
        Err(e) => e.index().unwrap_or(0).min(n).min(cap),
    };
    for k in others {
        let got = run_one(k, n, cap, &mut decode);
        assert_eq!(
            got.result, want.result,
            "{k:?} vs {reference:?}: n = {n}, cap = {cap}"
        );
        assert!(
            got.out[..decoded] == want.out[..decoded],
            "{k:?} vs {reference:?}: values differ (n = {n}, cap = {cap}, {:?})",
            want.result
        );
    }
    want
}

fn run_one<K: Debug, T: Slot>(
    k: &K,
    n: usize,
    cap: usize,
    decode: &mut impl FnMut(&K, &mut [T]) -> Result<usize, DecodeError>,
) -> Outcome<T> {
    let mut out = vec![T::SENTINEL; cap];
    let result = decode(k, &mut out);
    if let Some(tail) = out.get(n..) {
        assert!(
            tail.iter().all(|&v| v == T::SENTINEL),
            "{k:?} wrote past n = {n} (cap {cap}): {result:?}"
        );
    }
    Outcome { result, out }
}

/// u32 values from raw bytes (4 bytes each, little-endian; a short tail is
/// dropped), shaped by `shape` so every byte width is common:
/// 0 as read; 1 each value keeps 1..=4 low bytes by its top two bits, and is
/// zero when its low byte is below 32; 2 small (`v % 300`); 3 a sorted list
/// (running sum of `v >> 22`, wrapping), as delta coders see.
pub fn values_from(bytes: &[u8], shape: u8) -> Vec<u32> {
    let raw = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    match shape & 3 {
        0 => raw.collect(),
        1 => raw
            .map(|v| {
                if v & 0xFF < 32 {
                    0
                } else {
                    let keep = (v >> 30) + 1; // bytes
                    v & (u32::MAX >> (32 - 8 * keep))
                }
            })
            .collect(),
        2 => raw.map(|v| v % 300).collect(),
        _ => {
            let mut acc = 0u32;
            raw.map(|v| {
                acc = acc.wrapping_add(v >> 22);
                acc
            })
            .collect()
        }
    }
}

/// u64 values from raw bytes: pairs of [`values_from`] u32s (low, high), so
/// with shapes 1 and 2 the high half is often small or zero and every byte
/// width from 1 to 8 is common.
pub fn values_from_u64(bytes: &[u8], shape: u8) -> Vec<u64> {
    let v = values_from(bytes, shape);
    v.chunks_exact(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect()
}

/// A copy of `stream` followed by `padding` bytes taken from `fill` (cycled;
/// `0xFF` when empty), in a buffer of exactly that length, so
/// AddressSanitizer catches any read beyond the padding.
pub fn padded(stream: &[u8], padding: usize, fill: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(stream.len() + padding);
    v.extend_from_slice(stream);
    v.extend((0..padding).map(|i| {
        if fill.is_empty() {
            0xFF
        } else {
            fill[i % fill.len()]
        }
    }));
    v.shrink_to_fit();
    v
}

/// Test of the helpers themselves (`cargo test` in `fuzz/`, stable).
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_layout_matches_split() {
        let s = DecodeCase::seed(true, true, 30, 7, &[1, 2, 3]);
        let (c, input) = DecodeCase::split(&s, 4);
        assert!(c.variant_bit && c.delta);
        assert_eq!((c.n, c.cap, c.prev, input), (30, 30, 7, &[1u8, 2, 3][..]));
        // The capacity is capped by the density: 4 * 3 + 64 values.
        let (c, _) = DecodeCase::split(&DecodeCase::seed(false, false, 300, 0, &[0; 3]), 4);
        assert_eq!((c.n, c.cap), (300, 76));
    }

    #[test]
    fn short_inputs_read_as_zero() {
        let (c, input) = DecodeCase::split(&[0x04], 4);
        assert_eq!((c.n, c.cap, input.len()), (0, 0, 0));
    }

    #[test]
    fn shapes_give_every_width() {
        let bytes: Vec<u8> = (0..4096u32)
            .flat_map(|i| i.wrapping_mul(2654435761).to_le_bytes())
            .collect();
        let v = values_from(&bytes, 1);
        for w in [0u32, 0xFF, 0xFFFF, 0xFF_FFFF] {
            assert!(
                v.iter().any(|&x| x > w && x <= w.wrapping_mul(256) | 0xFF),
                "{w:x}"
            );
        }
    }
}
