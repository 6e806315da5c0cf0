//! BP128, binary packing of blocks of 128 u32 (Lemire & Boytsov, "Decoding
//! billions of integers per second through vectorization", SPE 2015), in the
//! layouts of the `bitpacking` crate: `BitPacker4x` (4 lanes, 128-bit words,
//! simdcomp's interleaved layout, 128 values per block) and `BitPacker8x`
//! (8 lanes, 256-bit words, 256 values per block), and in simdcomp's
//! AVX-512 layout (`avx512pack`: 16 lanes, 512-bit words, 512 values per
//! block; [`Layout::Lanes16`]).
//!
//! # Block format (byte-identical to `bitpacking`, and to simdcomp)
//!
//! A block of `B = 32 * L` values (`L` = 4, 8 or 16 lanes) packed in `b` bits
//! (0..=32) takes exactly `4 * L * b` bytes: `b` words of `L` little-endian
//! u32. Value `i` of the block belongs to lane `l = i % L` and group
//! `g = i / L`; lane `l` is a bit stream of the lane's 32 values, `b` bits
//! each, least significant bit first, whose 32-bit pieces are the lane's
//! u32 in words 0, 1, ... So group `g` starts at bit `o = g * b` of its lane:
//! in word `o / 32` at bit `o % 32`, continuing in the next word when
//! `o % 32 + b > 32`.
//!
//! ```text
//!  L = 4, b = 3:   word 0 = [lane0 u32][lane1 u32][lane2 u32][lane3 u32]
//!  lane 0, word 0: bits 0-2 value 0, bits 3-5 value 4, ..., bits 30-31 the
//!                  low 2 bits of value 40, whose top bit is bit 0 of word 1
//! ```
//!
//! The bit width is not stored in the block (the `bitpacking` API passes it
//! separately); the array format below stores it.
//!
//! The 16-lane layout is the same definition with `L = 16`: it is what
//! simdcomp's `avx512pack` writes (32 loads of sixteen values, group `k`
//! shifted left by `k * b % 32` into word `k * b / 32` and its high bits
//! shifted right into the next word, `b` stores of 64 bytes). No registry
//! ships simdcomp (and `bitpacking` 0.9.3 has no 16x packer), so that is
//! checked by golden vectors derived by hand from that algorithm
//! (`tests.rs`), not against an oracle.
//!
//! # Delta coding ([`DeltaMode`])
//!
//! [`IntCodec::encode`] / [`IntCodec::decode`] store the values as they are
//! (`BitPacker::compress`). The `*_delta` methods apply the handle's delta
//! mode (a value of the handle: [`Bp128::with_delta`]):
//!
//! - [`DeltaMode::D1`] (the default): `x[i] - x[i-1]` (wrapping) over the
//!   block in index order, with `x[-1] = prev`. This is exactly what the
//!   `bitpacking` crate's `compress_sorted(prev, ..)` stores: it computes the
//!   differences of the flat sequence, not per lane (its `compute_delta`
//!   shifts the previous register's last lane in), starting from `prev`, and
//!   `decompress_sorted(prev, ..)` integrates them with a prefix sum.
//! - [`DeltaMode::Lane`]: `x[i] - x[i-L]` (the "d4" delta of Lemire & Boytsov
//!   for `L = 4`, "d8" for `L = 8`), with `x[-L..-1] = prev` (every lane).
//!   Decoding is one vector add per group, with no prefix sum, so it is
//!   faster; the deltas are about `L` times larger (about `log2 L` more bits
//!   per value). **Not** compatible with `bitpacking`, which has no such mode.
//! - [`DeltaMode::Strict`]: `x[i] - x[i-1] - 1` (wrapping) from `prev`, for
//!   strictly increasing values (doc ids): the bytes of `bitpacking`'s
//!   `compress_strictly_sorted(Some(prev), ..)` (0.9.1+, what Tantivy
//!   writes), decoded as its `decompress_strictly_sorted`. The crate's
//!   `initial = None` means "before 0": it is `prev = u32::MAX` here (the
//!   crate substitutes exactly that value), so that a block starting at 0
//!   stores a 0. Repeated values are legal, only costly: the delta wraps
//!   to `u32::MAX` (32 bits), as in the crate.
//!
//! # Array format (any length)
//!
//! `n` values (the count is the caller's, as for every codec here), with
//! `m = n / B` full blocks and `r = n % B` tail values:
//!
//! ```text
//!  +-----------------+-----------+-----------+-----+-----------------------+
//!  | widths: m bytes | block 0   | block 1   | ... | tail: r LEB128 values |
//!  | b_0 .. b_{m-1}  | 4*L*b_0 B | 4*L*b_1 B |     | (VByte, as Lucene and |
//!  |  each 0..=32    |           |           |     |  FastPFor do)         |
//!  +-----------------+-----------+-----------+-----+-----------------------+
//! ```
//!
//! Each block is coded as above with its own minimal width `b_j`. Deltas
//! chain: block `j` starts from the last value (D1) or last `L` values
//! (Lane) of block `j - 1`; block 0 from the caller's `prev`. The tail
//! stores the values themselves (plain) or their D1 differences (every
//! delta mode, Strict included: `bitpacking` defines blocks only, and one
//! tail format lets the VByte kernels decode every tail) from the value
//! before, minimal LEB128, at most 5 bytes each.
//!
//! Decoding checks everything: a width byte above 32 is `Malformed` at that
//! byte; a block or tail value running past the input is `Truncated` at its
//! first byte; a LEB128 value of more than 5 bytes is `Overlong`, one above
//! `u32::MAX` `Overflow`. The kernels read only inside the block.
//!
//! # Kernels
//!
//! | ISA | 4x (128-bit) | 8x (256-bit) | 16x (512-bit) |
//! |---|---|---|---|
//! | scalar | bit extraction per value (reference) | the same | the same |
//! | SSE4.1 | one `__m128i` per group, every width unrolled | two `__m128i` per group | (scalar) |
//! | AVX2 | the SSE4.1 code, VEX-encoded; plain blocks two groups per `__m256i` | one `__m256i` per group | two `__m256i` per group |
//! | AVX-512 | the AVX2 code with AVX-512VL/VBMI2 | the same | one `__m512i` per group |
//! | NEON | one `uint32x4_t` per group | two `uint32x4_t` per group | four per group |
//!
//! The AVX-512 4x and 8x kernels are the AVX2 source compiled for the
//! AVX-512 level: LLVM then fuses a straddling group's two shifts and OR
//! into one `vpshldd` and the mask's AND into `vpternlogd`, and the array
//! tail uses the AVX-512 VByte kernel (postings, Xeon, same run: 4x decode
//! 1.07x, 8x decode 1.22x, 8x D1 encode 1.11x the AVX2 kernel; `intcodec
//! bench --suite postings --family bp128,bp128-8x`).
//!
//! Every width is its own monomorphised function (const generic), fully
//! unrolled, so every shift is an immediate; the prefix sum of D1 decoding
//! is fused into the unpack loop, carrying the running value in a register.
//! An array's full blocks are decoded by one kernel call
//! (`Kernels::unpack_blocks`), which keeps the running value in a register
//! from block to block and checks each block before reading it; they are
//! encoded likewise by one call (`Kernels::pack_blocks`: a loop per mode,
//! each block's width and pack by direct calls, the next block's width
//! found before this block's pack so that a changing width's mispredicted
//! jump is found early; the AVX-512 and AVX2 kernels scan the 4x and 8x
//! widths 512 / 256 bits a load; postings encode 0.87x -> 1.12x of
//! FastPFor's SIMD BP, Zen 4, `docs/perf-notes.md`). The tail
//! (up to 127 / 255 / 511 LEB128 values) is one call of the VByte kernel of the
//! same ISA (Masked VByte on SSE4.1 / AVX2, the prefix sum fused, from the
//! last block value), encoded likewise: not value by value. Its errors
//! are VByte's (kind, first byte of the bad value, its index), re-based to
//! the array.

use crate::codec::vbyte::VByte;
use crate::dispatch::Registry;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::isa::Isa;
use crate::traits::{IntCodec, KernelChoice, SortedCodec};
use alloc::vec::Vec;
use core::fmt;

crate::named_enum! {
    /// Lane layout of a block.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Layout {
        /// 4 lanes, 128-bit words, 128 values per block (`BitPacker4x`, simdcomp).
        #[default]
        Lanes4 => "4x",
        /// 8 lanes, 256-bit words, 256 values per block (`BitPacker8x`).
        Lanes8 => "8x",
        /// 16 lanes, 512-bit words, 512 values per block (simdcomp's
        /// `avx512pack`).
        Lanes16 => "16x",
    }
    /// `"4x"`, `"8x"` or `"16x"`.
    fn name;
}

impl Layout {
    /// Number of lanes (4, 8 or 16).
    pub const fn lanes(self) -> usize {
        match self {
            Layout::Lanes4 => 4,
            Layout::Lanes8 => 8,
            Layout::Lanes16 => 16,
        }
    }

    /// Values per block (128, 256 or 512).
    pub const fn block_len(self) -> usize {
        32 * self.lanes()
    }

    /// Bytes of a block packed in `bits` bits (`bits <= 32`).
    pub const fn block_bytes(self, bits: u8) -> usize {
        4 * self.lanes() * bits as usize
    }
}

/// The delta mode of a handle's `*_delta` methods; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DeltaMode {
    /// `x[i] - x[i-1]` from `prev` (`BitPacker::compress_sorted`).
    #[default]
    D1,
    /// `x[i] - x[i-L]` ("d4" / "d8"); not `bitpacking`-compatible.
    Lane,
    /// `x[i] - x[i-1] - 1` from `prev`
    /// (`BitPacker::compress_strictly_sorted(Some(prev), ..)`; the crate's
    /// `None` is `prev = u32::MAX`).
    Strict,
}

// The kernel entries (`Fns`, whose field types state each one's contract)
// and the `Mode`/`Prev` they take are the kernel crate's (the x86 and NEON
// bodies live there; see its docs).
pub(crate) use intcodec_bp128_kernels::{
    bits_of, mode_of, pack_blocks_with, prev_for, splat, unpack_table, Fns, Mode, Prev, UnpackTable,
};

impl From<DeltaMode> for Mode {
    fn from(d: DeltaMode) -> Mode {
        match d {
            DeltaMode::D1 => Mode::D1,
            DeltaMode::Lane => Mode::Lane,
            DeltaMode::Strict => Mode::Strict,
        }
    }
}

pub(crate) mod scalar;
mod sorted;

/// `NAME = isa, layout, fns;`: a static `Kernels` per line (the kernel
/// crate's sets as registry entries).
#[cfg(any(target_arch = "x86_64", target_arch = "x86", target_arch = "aarch64"))]
macro_rules! kernel_sets {
    ($($name:ident = $isa:ident, $layout:ident, $fns:expr;)*) => {
        $(
            pub(super) static $name: Kernels = Kernels { isa: $isa, layout: $layout, fns: $fns };
        )*
    };
}

#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
mod x86 {
    use super::{Kernels, Layout::*};
    use crate::isa::Isa::*;
    #[cfg(not(intcodec_skip_bp128_avx512))]
    use intcodec_bp128_kernels::x86::avx512;
    use intcodec_bp128_kernels::x86::{avx2, sse41};

    kernel_sets! {
        SSE41_4 = Sse41, Lanes4, sse41::KERNELS_4;
        SSE41_8 = Sse41, Lanes8, sse41::KERNELS_8;
        AVX2_4 = Avx2, Lanes4, avx2::KERNELS_4;
        AVX2_8 = Avx2, Lanes8, avx2::KERNELS_8;
        AVX2_16 = Avx2, Lanes16, avx2::KERNELS_16;
    }
    // Left out of scripts/test.sh's builds on a CPU without AVX-512, which
    // could not run them (the kernel crate's docs: `intcodec_skip_bp128_avx512`).
    #[cfg(not(intcodec_skip_bp128_avx512))]
    kernel_sets! {
        AVX512_4 = Avx512, Lanes4, avx512::KERNELS_4;
        AVX512_8 = Avx512, Lanes8, avx512::KERNELS_8;
        AVX512_16 = Avx512, Lanes16, avx512::KERNELS_16;
    }
}

#[cfg(target_arch = "aarch64")]
mod aarch64 {
    use super::{Kernels, Layout::*};
    use crate::isa::Isa::Neon;
    use intcodec_bp128_kernels::aarch64::neon;

    kernel_sets! {
        NEON_4 = Neon, Lanes4, neon::KERNELS_4;
        NEON_8 = Neon, Lanes8, neon::KERNELS_8;
        NEON_16 = Neon, Lanes16, neon::KERNELS_16;
    }
}

pub use sorted::SortedArray;

/// One kernel set: one ISA, one layout, the entries (the kernel crate's
/// `Fns`; the scalar set builds its own).
pub(crate) struct Kernels {
    pub(crate) isa: Isa,
    pub(crate) layout: Layout,
    pub(crate) fns: Fns,
}

super::kernel_set!(Kernels);

super::option_registries! {
    /// The kernel sets of `layout`.
    pub(crate) fn registry(layout: Layout) {
        Layout::Lanes4 => REGISTRY_4 = [
            scalar::kernels(Layout::Lanes4);
            x86: x86::SSE41_4, x86::AVX2_4, #[cfg(not(intcodec_skip_bp128_avx512))] x86::AVX512_4;
            aarch64: aarch64::NEON_4
        ],
        Layout::Lanes8 => REGISTRY_8 = [
            scalar::kernels(Layout::Lanes8);
            x86: x86::SSE41_8, x86::AVX2_8, #[cfg(not(intcodec_skip_bp128_avx512))] x86::AVX512_8;
            aarch64: aarch64::NEON_8
        ],
        Layout::Lanes16 => REGISTRY_16 = [
            scalar::kernels(Layout::Lanes16);
            x86: x86::AVX2_16, #[cfg(not(intcodec_skip_bp128_avx512))] x86::AVX512_16;
            aarch64: aarch64::NEON_16
        ],
    }
}

/// Calls kernel entry `$f` of the kernel set `$k` (a `&Kernels` from a
/// handle) with `$args`: `kcall!(k, skip(input, bits, mode, &prev))`.
macro_rules! kcall {
    ($k:expr, $f:ident($($a:expr),* $(,)?)) => {
        // SAFETY: the one obligation of a kernel pointer, "the CPU has the
        // kernel's ISA", holds for every `Kernels` a handle holds (its
        // constructors take them from the registry, which hands out only
        // enabled sets); every entry asserts its sizes itself.
        unsafe { ($k.fns.$f)($($a),*) }
    };
}
pub(crate) use kcall;

/// `k`'s unpack of consecutive blocks
/// ([`BlocksUnpackFn`](intcodec_bp128_kernels::BlocksUnpackFn)), for the
/// safe array code.
#[inline]
pub(crate) fn call_unpack_blocks(
    k: &Kernels,
    input: &[u8],
    widths: &[u8],
    out: &mut [u32],
    mode: Mode,
    prev: &Prev,
) -> Result<usize, usize> {
    kcall!(k, unpack_blocks(input, widths, out, mode, prev))
}

/// `k`'s pack of consecutive blocks
/// ([`BlocksPackFn`](intcodec_bp128_kernels::BlocksPackFn)), for the safe
/// array code.
#[inline]
pub(crate) fn call_pack_blocks(
    k: &Kernels,
    values: &[u32],
    widths: &mut [u8],
    out: &mut [u8],
    mode: Mode,
    prev: u32,
) -> usize {
    kcall!(k, pack_blocks(values, widths, out, mode, prev))
}

/// Runs `k`'s unpack on one block.
///
/// `k` must come from a handle (its constructors check that this CPU has
/// the kernel's ISA); the kernel asserts the sizes itself.
#[inline]
pub(crate) fn call_unpack(
    k: &Kernels,
    input: &[u8],
    out: &mut [u32],
    bits: u8,
    mode: Mode,
    prev: &Prev,
) {
    assert!(bits <= 32, "bit width above 32");
    let f = k.fns.unpack[mode as usize][bits as usize];
    // SAFETY: the ISA is supported (see above); the kernel asserts
    // `input.len() >= 4*L*bits` and `out.len() >= B`.
    unsafe { f(input, out, prev) }
}

fn malformed(offset: usize, index: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Malformed, offset, Some(index))
}

fn truncated(offset: usize, index: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Truncated, offset, Some(index))
}

/// The VByte kernel for an array tail next to BP128 kernels of `isa`.
fn tail_codec(isa: Isa) -> VByte {
    VByte::new().with_isa(isa).unwrap_or_default()
}

/// Largest array encoding of `n` values: one width byte and 32-bit values
/// per full block, 5 bytes per tail value. `None` on overflow of `usize`.
pub(crate) const fn max_len(layout: Layout, n: usize) -> Option<usize> {
    let b = layout.block_len();
    let blocks = n / b;
    match blocks.checked_mul(1 + 4 * b) {
        Some(full) => full.checked_add((n % b) * 5),
        None => None,
    }
}

/// A BP128 codec bound to one kernel (ISA), one [`Layout`] and one
/// [`DeltaMode`] (for the `*_delta` methods; [`DeltaMode::D1`] unless set
/// with [`Bp128::with_delta`]).
///
/// ```
/// use intcodec::bp128::{Bp128, DeltaMode, Layout};
/// use intcodec::IntCodec;
///
/// let codec = Bp128::new(Layout::Lanes4);
/// let sorted: Vec<u32> = (0..300).map(|i| 1000 + 3 * i).collect();
/// let bytes = codec.encode_delta_to_vec(&sorted, 0);
/// // two blocks of 128 (widths 10 then 2: the first delta is 1000), 44 LEB128 gaps
/// assert_eq!(bytes.len(), 2 + 16 * 10 + 16 * 2 + 44);
/// assert_eq!(codec.decode_delta_to_vec(&bytes, 300, 0)?, sorted);
/// // The lane delta ("d4"): deltas of 12 (4 bits) instead of 3.
/// let d4 = codec.with_delta(DeltaMode::Lane);
/// assert_eq!(d4.name(), "bp128-d4");
/// assert_eq!(d4.decode_delta_to_vec(&d4.encode_delta_to_vec(&sorted, 0), 300, 0)?, sorted);
/// // Strictly increasing values (`compress_strictly_sorted`): gaps minus
/// // one, so 0, 1, 2, ... from `None` (`u32::MAX`) is one width-0 block.
/// let strict = codec.with_delta(DeltaMode::Strict);
/// let ids: Vec<u32> = (0..128).collect();
/// assert_eq!(strict.encode_delta_to_vec(&ids, u32::MAX), [0]);
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Bp128 {
    pub(crate) k: &'static Kernels,
    delta: DeltaMode,
    /// The VByte kernel of the array tail: the same ISA as `k` where VByte
    /// has one, else the best VByte kernel.
    tail: VByte,
}

impl fmt::Debug for Bp128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bp128")
            .field("isa", &self.k.isa)
            .field("layout", &self.k.layout)
            .field("delta", &self.delta)
            .finish()
    }
}

impl Default for Bp128 {
    fn default() -> Self {
        Self::new(Layout::Lanes4)
    }
}

impl Bp128 {
    /// The best kernel for this CPU, for `layout`, delta mode
    /// [`DeltaMode::D1`].
    pub fn new(layout: Layout) -> Self {
        let k = registry(layout).best();
        Bp128 {
            k,
            delta: DeltaMode::D1,
            tail: tail_codec(k.isa),
        }
    }

    /// The same codec with the `*_delta` methods in `delta` mode.
    #[must_use]
    pub fn with_delta(self, delta: DeltaMode) -> Self {
        Bp128 { delta, ..self }
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.k.layout
    }

    /// The delta mode of the `*_delta` methods.
    pub fn delta_mode(&self) -> DeltaMode {
        self.delta
    }

    /// Values per block (128, 256 or 512).
    pub fn block_len(&self) -> usize {
        self.k.layout.block_len()
    }

    /// The bit width `compress_block` uses for `block` (`B` values): the
    /// widest value (`bitpacking`'s `num_bits`).
    ///
    /// # Panics
    /// If `block.len() != B`.
    pub fn num_bits(&self, block: &[u32]) -> u8 {
        self.block_bits(block, Mode::Plain, 0)
    }

    /// The bit width `compress_block_delta` uses for `block` (`B` values)
    /// from `prev`: the widest delta (D1: `bitpacking`'s `num_bits_sorted`;
    /// Strict: `num_bits_strictly_sorted(Some(prev), ..)`).
    ///
    /// # Panics
    /// If `block.len() != B`.
    pub fn num_bits_delta(&self, block: &[u32], prev: u32) -> u8 {
        self.block_bits(block, Mode::from(self.delta), prev)
    }

    fn block_bits(&self, block: &[u32], mode: Mode, prev: u32) -> u8 {
        let b = self.block_len();
        assert_eq!(block.len(), b, "a block has {b} values");
        kcall!(self.k, bits(block, mode, &splat(prev)))
    }

    /// Packs one block of `B` values in `bits` bits into `out`, returning
    /// `4 * L * bits`: the bytes of `bitpacking`'s `compress`.
    ///
    /// # Panics
    /// If `block.len() != B` or `bits > 32`.
    pub fn compress_block(
        &self,
        block: &[u32],
        out: &mut [u8],
        bits: u8,
    ) -> Result<usize, EncodeError> {
        self.pack_block(block, out, bits, Mode::Plain, 0)
    }

    /// Packs the deltas of one block of `B` values from `prev` (the handle's
    /// delta mode) in `bits` bits into `out`, returning `4 * L * bits`: for
    /// D1 the bytes of `bitpacking`'s `compress_sorted(prev, ..)`, for
    /// Strict those of `compress_strictly_sorted(Some(prev), ..)`.
    ///
    /// # Panics
    /// If `block.len() != B` or `bits > 32`.
    pub fn compress_block_delta(
        &self,
        block: &[u32],
        prev: u32,
        out: &mut [u8],
        bits: u8,
    ) -> Result<usize, EncodeError> {
        self.pack_block(block, out, bits, Mode::from(self.delta), prev)
    }

    fn pack_block(
        &self,
        block: &[u32],
        out: &mut [u8],
        bits: u8,
        mode: Mode,
        prev: u32,
    ) -> Result<usize, EncodeError> {
        let layout = self.k.layout;
        assert_eq!(block.len(), layout.block_len(), "a block has B values");
        assert!(bits <= 32, "bit width {bits} > 32");
        let prev = splat(prev);
        let needed = kcall!(self.k, bits(block, mode, &prev));
        if needed > bits {
            return Err(EncodeError::BitWidthTooSmall {
                needed,
                given: bits,
            });
        }
        let len = layout.block_bytes(bits);
        if out.len() < len {
            return Err(EncodeError::OutputTooSmall {
                needed: len,
                available: out.len(),
            });
        }
        kcall!(self.k, pack(block, &mut out[..len], bits, mode, &prev));
        Ok(len)
    }

    /// Unpacks one block of `B` values packed in `bits` bits into `out[..B]`,
    /// returning the bytes read (`4 * L * bits`). `bits > 32` is `Malformed`,
    /// a short `input` `Truncated`, both at offset 0.
    #[inline]
    pub fn decompress_block(
        &self,
        input: &[u8],
        out: &mut [u32],
        bits: u8,
    ) -> Result<usize, DecodeError> {
        self.unpack_block(input, out, bits, Mode::Plain, 0)
    }

    /// Unpacks one block of `B` deltas packed in `bits` bits and integrates
    /// them from `prev` (the handle's delta mode) into `out[..B]`; as
    /// [`decompress_block`](Self::decompress_block) otherwise.
    #[inline]
    pub fn decompress_block_delta(
        &self,
        input: &[u8],
        prev: u32,
        out: &mut [u32],
        bits: u8,
    ) -> Result<usize, DecodeError> {
        self.unpack_block(input, out, bits, Mode::from(self.delta), prev)
    }

    #[inline]
    fn unpack_block(
        &self,
        input: &[u8],
        out: &mut [u32],
        bits: u8,
        mode: Mode,
        prev: u32,
    ) -> Result<usize, DecodeError> {
        let layout = self.k.layout;
        if bits > 32 {
            return Err(malformed(0, 0));
        }
        let len = layout.block_bytes(bits);
        if input.len() < len {
            return Err(truncated(0, 0));
        }
        if out.len() < layout.block_len() {
            return Err(DecodeError::new(
                DecodeErrorKind::OutputTooSmall,
                0,
                Some(out.len()),
            ));
        }
        call_unpack(self.k, &input[..len], out, bits, mode, &splat(prev));
        Ok(len)
    }

    /// The mode and start of the plain (`prev` is `None`) or delta-coded
    /// (`Some(prev)`, the handle's [`DeltaMode`]) array format.
    fn mode_of(&self, prev: Option<u32>) -> (Mode, u32) {
        match prev {
            None => (Mode::Plain, 0),
            Some(prev) => (Mode::from(self.delta), prev),
        }
    }

    /// Encodes in the array format under `mode` (the size is checked first
    /// unless `out` holds the largest encoding).
    fn encode_mode(
        &self,
        values: &[u32],
        mode: Mode,
        prev: u32,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        let max = max_len(self.k.layout, values.len());
        super::check_room(out.len(), max, || {
            scalar::array_len(self.k.layout, values, mode, prev)
        })?;
        Ok(scalar::encode_array(
            self.k, &self.tail, values, mode, prev, out,
        ))
    }

    /// Decodes `n` values of the array format under `mode`.
    #[inline]
    fn decode_mode(
        &self,
        input: &[u8],
        n: usize,
        mode: Mode,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        super::check_out(n, out.len())?;
        if n < self.k.layout.block_len() {
            // All tail: no block set-up (Zen 5, a loop of checked decodes
            // of one list: 1, 2, 8 and 16 ints 8.7, 12.3, 21.6 and 17.1 ns
            // -> 5.2, 9.3, 11.3 and 11.7).
            let tail = &mut out[..n];
            return scalar::decode_tail(self.k, &self.tail, input, 0, tail, 0, mode, prev);
        }
        scalar::decode_array(self.k, &self.tail, input, &mut out[..n], mode, prev)
    }
}

/// The array format (module docs). `encode` is plain, `encode_delta` the
/// handle's [`DeltaMode`]; bytes of `out` past the returned length may be
/// overwritten (the tail is stored in words). Decoding costs one kernel call
/// for every full block and checks each block before reading it.
impl IntCodec for Bp128 {
    fn name(&self) -> &'static str {
        match (self.k.layout, self.delta) {
            (Layout::Lanes4, DeltaMode::D1) => "bp128",
            (Layout::Lanes8, DeltaMode::D1) => "bp128-8x",
            (Layout::Lanes4, DeltaMode::Lane) => "bp128-d4",
            (Layout::Lanes8, DeltaMode::Lane) => "bp128-8x-d8",
            (Layout::Lanes4, DeltaMode::Strict) => "bp128-strict",
            (Layout::Lanes8, DeltaMode::Strict) => "bp128-8x-strict",
            (Layout::Lanes16, DeltaMode::D1) => "bp128-16x",
            (Layout::Lanes16, DeltaMode::Lane) => "bp128-16x-d16",
            (Layout::Lanes16, DeltaMode::Strict) => "bp128-16x-strict",
        }
    }

    super::kernel_info!();

    fn max_compressed_len(&self, n: usize) -> Option<usize> {
        max_len(self.k.layout, n)
    }

    /// Exact: a width-0 block is one byte for `B` values.
    fn max_values(&self, input_len: usize) -> usize {
        input_len.saturating_mul(self.block_len())
    }

    super::encoders! {
        len: |codec, values, prev| {
            let (mode, prev) = codec.mode_of(prev);
            scalar::array_len(codec.k.layout, values, mode, prev)
        },
        encode: |codec, values, prev, out| {
            let (mode, prev) = codec.mode_of(prev);
            codec.encode_mode(values, mode, prev, out)
        },
    }

    /// Costs `O(n / B + tail)`: the width bytes and the tail.
    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        scalar::scan_array(self.k.layout, input, n)
    }

    super::decoders!(checked: |codec, input, n, prev, out| {
        let (mode, prev) = codec.mode_of(prev);
        codec.decode_mode(input, n, mode, prev, out)
    });

    // The checked decoder checks each block as its kernel reads it, at no
    // measurable cost, so there is no separate unchecked path.
    super::checked_as_unchecked!();

    /// Allocates only once [`IntCodec::encoded_len`] (the width bytes and
    /// the tail) has shown that the input holds the `n` values.
    fn alloc_decoded(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        self.encoded_len(input, n)?;
        Ok(alloc::vec![0u32; n])
    }
}

impl Bp128 {
    /// The kernel sets of this handle's layout (`kernel_info!`).
    fn kernel_registry(&self) -> &'static Registry<Kernels> {
        registry(self.k.layout)
    }
}

impl KernelChoice for Bp128 {
    /// The 4x layout, [`DeltaMode::D1`] (`"bp128"`).
    fn best() -> Self {
        Bp128::new(Layout::Lanes4)
    }

    fn with_isa(&self, isa: Isa) -> Option<Self> {
        registry(self.k.layout).for_isa(isa).map(|k| Bp128 {
            k,
            tail: tail_codec(k.isa),
            ..*self
        })
    }
}

/// On a delta-coded array (the handle's mode): `select` and `lower_bound`
/// check the width bytes (`O(n / B)`). The deltas chain: `select(i)` skips
/// blocks `0..i / B` by the kernel's `skip` (each block's running value
/// from its summed groups, no values written: `O(i)`) and unpacks block
/// `i / B` (D1 and strict: only up to the group of `i`); `lower_bound`
/// unpacks one block at a time until one reaches the key. The tail is
/// read value by value. `insert` is the default: the whole array decoded and
/// encoded again.
impl SortedCodec for Bp128 {
    super::sorted_queries! {
        select: |codec, input, n, prev, i| {
            scalar::scan_blocks(codec.k.layout, input, n)?;
            sorted::select(codec, input, n, Mode::from(codec.delta), prev, i)
        },
        lower_bound: |codec, input, n, prev, key| {
            scalar::scan_blocks(codec.k.layout, input, n)?;
            sorted::lower_bound(codec, input, n, Mode::from(codec.delta), prev, key)
        },
    }
}

#[cfg(test)]
mod tests;
