//! BP128, binary packing of blocks of 128 u32 (Lemire & Boytsov, "Decoding
//! billions of integers per second through vectorization", SPE 2015), in the
//! layouts of the `bitpacking` crate: `BitPacker4x` (4 lanes, 128-bit words,
//! simdcomp's interleaved layout, 128 values per block) and `BitPacker8x`
//! (8 lanes, 256-bit words, 256 values per block).
//!
//! # Block format (byte-identical to `bitpacking`)
//!
//! A block of `B = 32 * L` values (`L` = 4 or 8 lanes) packed in `b` bits
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
//! # Delta coding ([`Delta`])
//!
//! - [`Delta::None`]: values as they are (`BitPacker::compress`).
//! - [`Delta::D1`]: `x[i] - x[i-1]` (wrapping) over the block in index order,
//!   with `x[-1] = initial`. This is exactly what the `bitpacking` crate's
//!   `compress_sorted(initial, ..)` stores: it computes the differences of
//!   the flat sequence, not per lane (its `compute_delta` shifts the previous
//!   register's last lane in), starting from `initial`, and
//!   `decompress_sorted(initial, ..)` integrates them with a prefix sum.
//! - [`Delta::Lane`]: `x[i] - x[i-L]` (the "d4" delta of Lemire & Boytsov for
//!   `L = 4`, "d8" for `L = 8`), with `x[-L..-1] = initial` (every lane).
//!   Decoding is one vector add per group, with no prefix sum, so it is
//!   faster; the deltas are about `L` times larger (about `log2 L` more bits
//!   per value). **Not** compatible with `bitpacking`, which has no such mode.
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
//! (Lane) of block `j - 1`; block 0 from the caller's `initial`. The tail
//! stores the values themselves (`Delta::None`) or their D1 differences
//! (both delta modes) from the value before, minimal LEB128, at most 5
//! bytes each.
//!
//! Decoding checks everything: a width byte above 32 is `Malformed` at that
//! byte; a block or tail value running past the input is `Truncated` at its
//! first byte; a LEB128 value of more than 5 bytes is `Overlong`, one above
//! `u32::MAX` `Overflow`. The kernels read only inside the block.
//!
//! # Kernels
//!
//! | ISA | 4x (128-bit) | 8x (256-bit) |
//! |---|---|---|
//! | scalar | bit extraction per value (reference) | the same |
//! | SSE4.1 | one `__m128i` per group, every width unrolled | two `__m128i` per group |
//! | AVX2 | the SSE4.1 code, VEX-encoded | one `__m256i` per group |
//!
//! Every width is its own monomorphised function (const generic), fully
//! unrolled, so every shift is an immediate; the prefix sum of D1 decoding
//! is fused into the unpack loop, carrying the running value in a register.
//! An array's full blocks are decoded by one kernel call
//! (`Kernels::unpack_blocks`), which keeps the running value in a register
//! from block to block and checks each block before reading it.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::isa::Isa;
use alloc::vec::Vec;
use core::fmt;

/// Lane layout of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// 4 lanes, 128-bit words, 128 values per block (`BitPacker4x`, simdcomp).
    #[default]
    Lanes4,
    /// 8 lanes, 256-bit words, 256 values per block (`BitPacker8x`).
    Lanes8,
}

impl Layout {
    /// Number of lanes (4 or 8).
    pub const fn lanes(self) -> usize {
        match self {
            Layout::Lanes4 => 4,
            Layout::Lanes8 => 8,
        }
    }

    /// Values per block (128 or 256).
    pub const fn block_len(self) -> usize {
        32 * self.lanes()
    }

    /// Bytes of a block packed in `bits` bits (`bits <= 32`).
    pub const fn block_bytes(self, bits: u8) -> usize {
        4 * self.lanes() * bits as usize
    }

    /// `"4x"` or `"8x"`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Lanes4 => "4x",
            Layout::Lanes8 => "8x",
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Differential coding applied before packing; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Delta {
    /// No delta (`BitPacker::compress`).
    #[default]
    None,
    /// `x[i] - x[i-1]` from `initial` (`BitPacker::compress_sorted`).
    D1,
    /// `x[i] - x[i-L]` ("d4" / "d8"); not `bitpacking`-compatible.
    Lane,
}

/// What a kernel does around the packing (internal; SIMD-FOR adds `Offset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Mode {
    Plain = 0,
    D1 = 1,
    Lane = 2,
    /// `v - min` / `v + min`, `prev` = min in every lane.
    Offset = 3,
}

impl From<Delta> for Mode {
    fn from(d: Delta) -> Mode {
        match d {
            Delta::None => Mode::Plain,
            Delta::D1 => Mode::D1,
            Delta::Lane => Mode::Lane,
        }
    }
}

// Kernel signatures. `prev` holds, per lane, the value(s) before the block:
// D1 and Offset callers fill every lane with the one value; Lane gives the
// previous L values. Unpack: one function per (mode, width), so a block
// costs one indirect call straight into its unrolled body; it needs
// `input.len() >= 4*L*bits` and `out.len() >= B` (the kernels assert it).
// Pack: `values.len() >= B`, `out.len() >= 4*L*bits`, `bits <= 32`, every
// transformed value fits in `bits` (otherwise the output is garbage, never
// out of bounds).
pub(crate) type BlockUnpackFn = unsafe fn(&[u8], &mut [u32], &[u32; 8]);
/// Unpack of consecutive blocks: `(input, widths, out, mode, prev)`, block
/// `j` of width `widths[j]` following block `j - 1` in `input`, into
/// `out[j * B..]`, the first from `prev`. Needs `out.len() >= widths.len() *
/// B` (the kernels assert it); checks every block before unpacking it (width
/// at most 32, bytes inside `input`) and stops at the first bad one,
/// `Err(j)`; `Ok(bytes read)`.
pub(crate) type BlocksUnpackFn =
    unsafe fn(&[u8], &[u8], &mut [u32], Mode, &[u32; 8]) -> Result<usize, usize>;
/// `[mode as usize][bits]`.
pub(crate) type UnpackTable = [[BlockUnpackFn; 33]; 4];
pub(crate) type PackFn = unsafe fn(&[u32], &mut [u8], u8, Mode, &[u32; 8]);
/// Bits needed by the widest packed value of one block: `(values, mode,
/// prev)`; `values.len() >=` the block length (the kernels assert it).
pub(crate) type BitsFn = unsafe fn(&[u32], Mode, &[u32; 8]) -> u8;

/// The mode numbered `m` (`Mode as u8`), for const generics.
pub(crate) const fn mode_of(m: u8) -> Mode {
    match m {
        0 => Mode::Plain,
        1 => Mode::D1,
        2 => Mode::Lane,
        _ => Mode::Offset,
    }
}

/// `[[f::<0, M>, ..., f::<32, M>]; M = 0..4]`: an [`UnpackTable`].
macro_rules! unpack_table {
    ($f:ident) => {
        [
            unpack_table!(@row $f, 0),
            unpack_table!(@row $f, 1),
            unpack_table!(@row $f, 2),
            unpack_table!(@row $f, 3),
        ]
    };
    (@row $f:ident, $m:literal) => {
        [
            $f::<0, $m>, $f::<1, $m>, $f::<2, $m>, $f::<3, $m>, $f::<4, $m>, $f::<5, $m>,
            $f::<6, $m>, $f::<7, $m>, $f::<8, $m>, $f::<9, $m>, $f::<10, $m>, $f::<11, $m>,
            $f::<12, $m>, $f::<13, $m>, $f::<14, $m>, $f::<15, $m>, $f::<16, $m>,
            $f::<17, $m>, $f::<18, $m>, $f::<19, $m>, $f::<20, $m>, $f::<21, $m>,
            $f::<22, $m>, $f::<23, $m>, $f::<24, $m>, $f::<25, $m>, $f::<26, $m>,
            $f::<27, $m>, $f::<28, $m>, $f::<29, $m>, $f::<30, $m>, $f::<31, $m>,
            $f::<32, $m>,
        ]
    };
}
pub(crate) use unpack_table;

pub(crate) mod scalar;
mod sorted;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

pub use sorted::SortedArray;

/// One kernel set: one ISA, one layout.
pub(crate) struct Kernels {
    pub(crate) isa: Isa,
    pub(crate) layout: Layout,
    pub(crate) unpack: &'static UnpackTable,
    pub(crate) unpack_blocks: BlocksUnpackFn,
    pub(crate) pack: PackFn,
    pub(crate) bits: BitsFn,
}

static SCALAR_4: Kernels = scalar::kernels(Layout::Lanes4);
static SCALAR_8: Kernels = scalar::kernels(Layout::Lanes8);

static SETS_4: &[&Kernels] = &[
    &SCALAR_4,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::sse41::KERNELS_4,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::avx2::KERNELS_4,
];
static SETS_8: &[&Kernels] = &[
    &SCALAR_8,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::sse41::KERNELS_8,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::avx2::KERNELS_8,
];

pub(crate) fn kernel_sets(layout: Layout) -> &'static [&'static Kernels] {
    match layout {
        Layout::Lanes4 => SETS_4,
        Layout::Lanes8 => SETS_8,
    }
}

/// The ISAs that have a BP128 kernel in this build (whether or not this CPU
/// supports them).
pub fn kernel_isas() -> impl Iterator<Item = Isa> {
    kernel_sets(Layout::Lanes4).iter().map(|k| k.isa)
}

pub(crate) fn best_kernels(layout: Layout) -> &'static Kernels {
    #[cfg(feature = "std")]
    {
        use std::sync::OnceLock;
        static BEST: [OnceLock<&'static Kernels>; 2] = [OnceLock::new(), OnceLock::new()];
        BEST[layout as usize].get_or_init(|| pick_best(layout))
    }
    #[cfg(not(feature = "std"))]
    {
        pick_best(layout)
    }
}

fn pick_best(layout: Layout) -> &'static Kernels {
    let sets = kernel_sets(layout);
    sets.iter()
        .rev()
        .find(|k| k.isa.is_enabled())
        .copied()
        .unwrap_or(sets[0])
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
    prev: &[u32; 8],
) {
    assert!(bits <= 32, "bit width above 32");
    let f = k.unpack[mode as usize][bits as usize];
    // SAFETY: the ISA is supported (see above); the kernel asserts
    // `input.len() >= 4*L*bits` and `out.len() >= B`.
    unsafe { f(input, out, prev) }
}

/// Runs `k`'s unpack on consecutive blocks (see [`BlocksUnpackFn`]: the
/// kernel checks every width and block size and asserts `out`'s length).
#[inline]
pub(crate) fn call_unpack_blocks(
    k: &Kernels,
    input: &[u8],
    widths: &[u8],
    out: &mut [u32],
    mode: Mode,
    prev: &[u32; 8],
) -> Result<usize, usize> {
    // SAFETY: the ISA is supported (`k` comes from a handle); the kernel
    // checks the widths and block sizes and asserts `out` long enough.
    unsafe { (k.unpack_blocks)(input, widths, out, mode, prev) }
}

/// Runs `k`'s pack on one block (same contract as [`call_unpack`]).
#[inline]
pub(crate) fn call_pack(
    k: &Kernels,
    values: &[u32],
    out: &mut [u8],
    bits: u8,
    mode: Mode,
    prev: &[u32; 8],
) {
    // SAFETY: as in `call_unpack`; the kernel asserts the sizes.
    unsafe { (k.pack)(values, out, bits, mode, prev) }
}

/// Bits needed by the widest packed value of `block` (its first block
/// length of values) under `mode` from `prev`, by the kernel set `k`.
#[inline]
pub(crate) fn call_bits(k: &Kernels, block: &[u32], mode: Mode, prev: &[u32; 8]) -> u8 {
    // SAFETY: `k` was chosen for an ISA this CPU supports (constructors);
    // the kernel asserts the block length.
    unsafe { (k.bits)(block, mode, prev) }
}

/// Bits needed for `v` (0 for 0).
#[inline(always)]
pub(crate) const fn bits_of(v: u32) -> u8 {
    (32 - v.leading_zeros()) as u8
}

/// The `prev` array of a block start: `initial` in every lane.
#[inline(always)]
pub(crate) fn splat(v: u32) -> [u32; 8] {
    [v; 8]
}

fn malformed(offset: usize, index: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Malformed, offset, Some(index))
}

fn truncated(offset: usize, index: usize) -> DecodeError {
    DecodeError::new(DecodeErrorKind::Truncated, offset, Some(index))
}

/// Largest array encoding of `n` values: one width byte and 32-bit values
/// per full block, 5 bytes per tail value. `None` on overflow of `usize`.
pub const fn max_compressed_len(layout: Layout, n: usize) -> Option<usize> {
    let b = layout.block_len();
    let blocks = n / b;
    match blocks.checked_mul(1 + 4 * b) {
        Some(full) => full.checked_add((n % b) * 5),
        None => None,
    }
}

/// A BP128 codec bound to one kernel (ISA) and one [`Layout`].
///
/// ```
/// use intcodec::bp128::{Bp128, Delta, Layout};
///
/// let codec = Bp128::new(Layout::Lanes4);
/// let sorted: Vec<u32> = (0..300).map(|i| 1000 + 3 * i).collect();
/// let bytes = codec.encode_to_vec(&sorted, Delta::D1, 0);
/// // two blocks of 128 (widths 10 then 2: the first delta is 1000), 44 LEB128 gaps
/// assert_eq!(bytes.len(), 2 + 16 * 10 + 16 * 2 + 44);
/// assert_eq!(codec.decode_to_vec(&bytes, 300, Delta::D1, 0)?, sorted);
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy)]
pub struct Bp128 {
    pub(crate) k: &'static Kernels,
}

impl fmt::Debug for Bp128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bp128")
            .field("isa", &self.k.isa)
            .field("layout", &self.k.layout)
            .finish()
    }
}

impl Default for Bp128 {
    fn default() -> Self {
        Self::new(Layout::Lanes4)
    }
}

impl Bp128 {
    /// The best kernel for this CPU, for `layout`.
    pub fn new(layout: Layout) -> Self {
        Bp128 {
            k: best_kernels(layout),
        }
    }

    /// The kernel for `isa`, or `None` if there is none or this CPU (or the
    /// `INTCODEC_ISA` cap) does not allow it.
    pub fn with_isa(isa: Isa, layout: Layout) -> Option<Self> {
        if !isa.is_enabled() {
            return None;
        }
        kernel_sets(layout)
            .iter()
            .find(|k| k.isa == isa)
            .map(|k| Bp128 { k })
    }

    /// The kernel's instruction set.
    pub fn isa(&self) -> Isa {
        self.k.isa
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.k.layout
    }

    /// Values per block (128 or 256).
    pub fn block_len(&self) -> usize {
        self.k.layout.block_len()
    }

    /// The bit width `compress_block` uses for `block` (`B` values): the
    /// widest value or delta. Same as `bitpacking`'s `num_bits` (None) and
    /// `num_bits_sorted` (D1).
    ///
    /// # Panics
    /// If `block.len() != B`.
    pub fn num_bits(&self, block: &[u32], delta: Delta, initial: u32) -> u8 {
        let b = self.block_len();
        assert_eq!(block.len(), b, "a block has {b} values");
        call_bits(self.k, block, Mode::from(delta), &splat(initial))
    }

    /// Packs one block of `B` values in `bits` bits into `out`, returning
    /// `4 * L * bits`: the bytes of `bitpacking`'s `compress` (None) or
    /// `compress_sorted(initial, ..)` (D1).
    ///
    /// # Panics
    /// If `block.len() != B` or `bits > 32`.
    pub fn compress_block(
        &self,
        block: &[u32],
        out: &mut [u8],
        bits: u8,
        delta: Delta,
        initial: u32,
    ) -> Result<usize, EncodeError> {
        let layout = self.k.layout;
        assert_eq!(block.len(), layout.block_len(), "a block has B values");
        assert!(bits <= 32, "bit width {bits} > 32");
        let prev = splat(initial);
        let needed = call_bits(self.k, block, Mode::from(delta), &prev);
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
        call_pack(
            self.k,
            block,
            &mut out[..len],
            bits,
            Mode::from(delta),
            &prev,
        );
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
        delta: Delta,
        initial: u32,
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
        let prev = splat(initial);
        call_unpack(self.k, &input[..len], out, bits, Mode::from(delta), &prev);
        Ok(len)
    }

    /// Exact array encoding length of `values` (see the module docs).
    pub fn compressed_len(&self, values: &[u32], delta: Delta, initial: u32) -> usize {
        scalar::array_len(self.k.layout, values, Mode::from(delta), initial)
    }

    /// Encodes `values` in the array format into `out`, returning the bytes
    /// written. `out` needs [`compressed_len`](Self::compressed_len) bytes;
    /// [`max_compressed_len`] is always enough. Bytes of `out` past the
    /// returned length may be overwritten (the tail is stored in words).
    pub fn encode(
        &self,
        values: &[u32],
        delta: Delta,
        initial: u32,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        let fits = max_compressed_len(self.k.layout, values.len()).is_some_and(|m| out.len() >= m);
        if !fits {
            let needed = self.compressed_len(values, delta, initial);
            if out.len() < needed {
                return Err(EncodeError::OutputTooSmall {
                    needed,
                    available: out.len(),
                });
            }
        }
        Ok(scalar::encode_array(
            self.k,
            values,
            Mode::from(delta),
            initial,
            out,
        ))
    }

    /// Encodes `values` in the array format into a new `Vec`.
    pub fn encode_to_vec(&self, values: &[u32], delta: Delta, initial: u32) -> Vec<u8> {
        let mut out = alloc::vec![0u8; self.compressed_len(values, delta, initial)];
        let n = self
            .encode(values, delta, initial, &mut out)
            .expect("compressed_len is enough");
        debug_assert_eq!(n, out.len());
        out
    }

    /// Decodes `n` values of the array format from `input` into `out[..n]`,
    /// returning the bytes consumed. Never reads outside `input`.
    pub fn decode(
        &self,
        input: &[u8],
        n: usize,
        delta: Delta,
        initial: u32,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        if out.len() < n {
            return Err(DecodeError::new(
                DecodeErrorKind::OutputTooSmall,
                0,
                Some(out.len()),
            ));
        }
        scalar::decode_array(self.k, input, &mut out[..n], Mode::from(delta), initial)
    }

    /// Length in bytes of an array of `n` values, from its width bytes and
    /// tail; the same errors as [`decode`](Self::decode) except `Overflow`
    /// of a tail value. Costs `O(n / B + tail)`; bounds `n` by the input
    /// before an output is allocated.
    pub fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        scalar::scan_array(self.k.layout, input, n)
    }

    /// Decodes `n` values into a new `Vec` (allocated only once the input is
    /// known to hold them).
    pub fn decode_to_vec(
        &self,
        input: &[u8],
        n: usize,
        delta: Delta,
        initial: u32,
    ) -> Result<Vec<u32>, DecodeError> {
        self.encoded_len(input, n)?;
        let mut out = alloc::vec![0u32; n];
        self.decode(input, n, delta, initial, &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
