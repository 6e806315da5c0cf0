//! BP128's unrolled block kernels for [intcodec]: x86 (SSE4.1, AVX2,
//! AVX-512) and AArch64 (NEON), one unpack and one pack function per bit
//! width (0..=32) and mode, each fully unrolled so that every shift is an
//! immediate.
//!
//! **Not an API.** These are the bodies behind `intcodec::bp128`, in a crate
//! of their own so that the compiler builds them once, not a second time
//! for intcodec's unit tests (they are about 95 % of the code it
//! generates). Each kernel set is a [`Fns`] table; its entries need the
//! CPU features of the set (checked by intcodec's dispatch) and the buffer
//! sizes stated on each function type (asserted by the kernels).
//! The algorithm and its bounds: `x86/sse41.rs` and `x86/kernels.rs`.
//!
//! [intcodec]: https://docs.rs/intcodec
#![no_std]

#[cfg(target_arch = "aarch64")]
pub mod aarch64;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub mod x86;

/// What a kernel does around the packing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    /// The values as they are.
    Plain = 0,
    /// `x[i] - x[i-1]` from `prev` (`BitPacker::compress_sorted`).
    D1 = 1,
    /// `x[i] - x[i-L]` ("d4" / "d8").
    Lane = 2,
    /// `v - min` / `v + min`, `prev` = min in every lane (SIMD-FOR).
    Offset = 3,
    /// `x[i] - x[i-1] - 1` (D1 minus one: `compress_strictly_sorted`).
    Strict = 4,
}

/// The mode numbered `m` (`Mode as u8`), for const generics.
pub const fn mode_of(m: u8) -> Mode {
    match m {
        0 => Mode::Plain,
        1 => Mode::D1,
        2 => Mode::Lane,
        3 => Mode::Offset,
        _ => Mode::Strict,
    }
}

/// The value(s) before a block, per lane: D1, Strict and Offset kernels
/// read lane `L - 1` (or 0), Lane ("d4" / "d8" / "d16") the first `L`.
pub type Prev = [u32; 16];

// Kernel signatures. `prev` holds, per lane, the value(s) before the block:
// D1 and Offset callers fill every lane with the one value; Lane gives the
// previous L values. Unpack: one function per (mode, width), so a block
// costs one indirect call straight into its unrolled body; it needs
// `input.len() >= 4*L*bits` and `out.len() >= B` (the kernels assert it).
// Pack: `values.len() >= B`, `out.len() >= 4*L*bits`, `bits <= 32`, every
// transformed value fits in `bits` (otherwise the output is garbage, never
// out of bounds). Every one needs its set's CPU features.

/// Unpack of one block: `(input, out, prev)`.
pub type BlockUnpackFn = unsafe fn(&[u8], &mut [u32], &Prev);
/// Unpack of consecutive blocks: `(input, widths, out, mode, prev)`, block
/// `j` of width `widths[j]` following block `j - 1` in `input`, into
/// `out[j * B..]`, the first from `prev`. Needs `out.len() >= widths.len() *
/// B` (the kernels assert it); checks every block before unpacking it (width
/// at most 32, bytes inside `input`) and stops at the first bad one,
/// `Err(j)`; `Ok(bytes read)`.
pub type BlocksUnpackFn = unsafe fn(&[u8], &[u8], &mut [u32], Mode, &Prev) -> Result<usize, usize>;
/// The first `groups` groups (1..=32) of one block: `(input, out, bits,
/// mode, prev, groups)` writes `out[..groups * L]`, the values of the
/// block's first `groups * L` indices (a `select` inside a block, which
/// stops there). Asserts `bits <= 32`, `input.len() >= 4*L*bits`, the
/// group count and `out.len() >= groups * L`.
pub type UpToFn = unsafe fn(&[u8], &mut [u32], u8, Mode, &Prev, usize);
/// The `prev` of the block after one block, without its values: `(input,
/// bits, mode, prev)` (the running value of D1 and Strict, the last group of
/// Lane; Plain and Offset return `prev`). Asserts `bits <= 32` and
/// `input.len() >= 4*L*bits`.
pub type SkipFn = unsafe fn(&[u8], u8, Mode, &Prev) -> Prev;
/// `[mode as usize][bits]`.
pub type UnpackTable = [[BlockUnpackFn; 33]; 5];
/// Pack of one block: `(values, out, bits, mode, prev)`.
pub type PackFn = unsafe fn(&[u32], &mut [u8], u8, Mode, &Prev);
/// Bits needed by the widest packed value of one block: `(values, mode,
/// prev)`; `values.len() >=` the block length (the kernels assert it).
pub type BitsFn = unsafe fn(&[u32], Mode, &Prev) -> u8;
/// Pack of consecutive blocks, the array format's body: `(values, widths,
/// out, mode, prev)`: the first `widths.len()` blocks of `values`, block
/// `j`'s width to `widths[j]` and its bytes after block `j - 1`'s in `out`,
/// block 0 from the array's `prev` (as [`prev_for`] gives each block).
/// Needs `values.len() >= widths.len() * B` and room in `out` for every
/// block (the kernels assert each); returns the bytes written to `out`.
/// One kernel call for the array, not two a block.
pub type BlocksPackFn = unsafe fn(&[u32], &mut [u8], &mut [u8], Mode, u32) -> usize;

/// One kernel set (one ISA, one layout): its entries.
#[derive(Clone, Copy)]
pub struct Fns {
    /// One block, per mode and width.
    pub unpack: &'static UnpackTable,
    /// Consecutive blocks.
    pub unpack_blocks: BlocksUnpackFn,
    /// The first groups of one block.
    pub unpack_upto: UpToFn,
    /// The running value after one block.
    pub skip: SkipFn,
    /// Pack of one block.
    pub pack: PackFn,
    /// Width of one block.
    pub bits: BitsFn,
    /// Pack of consecutive blocks.
    pub pack_blocks: BlocksPackFn,
}

/// `[[f::<0, M>, ..., f::<32, M>]; M = 0..5]`: an [`UnpackTable`].
#[macro_export]
#[doc(hidden)]
macro_rules! unpack_table {
    ($f:ident) => {
        [
            $crate::unpack_table!(@row $f, 0),
            $crate::unpack_table!(@row $f, 1),
            $crate::unpack_table!(@row $f, 2),
            $crate::unpack_table!(@row $f, 3),
            $crate::unpack_table!(@row $f, 4),
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

/// Bits needed to store `v` (0 for 0).
#[inline(always)]
pub const fn bits_of(v: u32) -> u8 {
    (32 - v.leading_zeros()) as u8
}

/// The `prev` array of a block start: `v` in every lane.
#[inline(always)]
pub fn splat(v: u32) -> Prev {
    [v; 16]
}

/// The Lane-mode `prev` of block `j` of `values` (blocks of `32 * lanes`):
/// the `lanes` values before it (`prev` in every lane for block 0).
#[inline]
pub fn block_prev(lanes: usize, values: &[u32], j: usize, prev: u32) -> Prev {
    if j == 0 {
        return splat(prev);
    }
    let start = j * 32 * lanes;
    let mut p = splat(values[start - 1]);
    p[..lanes].copy_from_slice(&values[start - lanes..start]);
    p
}

/// The prev lanes for block `j` of `values` under `mode`, as the kernels
/// expect them.
#[inline]
pub fn prev_for(lanes: usize, values: &[u32], j: usize, mode: Mode, prev: u32) -> Prev {
    match mode {
        Mode::Lane => block_prev(lanes, values, j, prev),
        _ if j == 0 => splat(prev),
        _ => splat(values[j * 32 * lanes - 1]),
    }
}

/// The loop of a [`BlocksPackFn`] over a kernel set's one-block `bits` and
/// `pack` (inlined into each kernel set's entry, so the blocks cost direct
/// calls, not two indirect ones each); `lanes` is the layout's.
///
/// Each block's width is found one block ahead, before the previous
/// block's pack: a pack's jump on its width then waits for no width
/// computation, so a width that changes from block to block costs a
/// mispredict found at once, not after the block's maximum chain, while
/// the next block's loads still overlap the pack's shifts and stores.
/// (All widths of 16 blocks first, then their packs, as FastPFor's
/// `SIMDBinaryPacking`, gained as much on posting gaps but lost 10-15 %
/// on arrays of one width, where nothing mispredicts: the ints suite's
/// 8x and 16x encode, Zen 4.)
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn pack_blocks_with(
    lanes: usize,
    values: &[u32],
    widths: &mut [u8],
    out: &mut [u8],
    mode: Mode,
    prev: u32,
    bits: impl Fn(&[u32], Mode, &Prev) -> u8,
    pack: impl Fn(&[u32], &mut [u8], u8, Mode, &Prev),
) -> usize {
    let bl = 32 * lanes;
    let m = widths.len();
    assert!(values.len() >= m * bl);
    let width = |j: usize| {
        bits(
            &values[j * bl..][..bl],
            mode,
            &prev_for(lanes, values, j, mode, prev),
        )
    };
    let mut pos = 0;
    let mut next = if m > 0 { width(0) } else { 0 };
    for j in 0..m {
        let b = next;
        widths[j] = b;
        if j + 1 < m {
            next = width(j + 1);
        }
        let len = 4 * lanes * usize::from(b);
        let lanes_prev = prev_for(lanes, values, j, mode, prev);
        pack(
            &values[j * bl..][..bl],
            &mut out[pos..pos + len],
            b,
            mode,
            &lanes_prev,
        );
        pos += len;
    }
    pos
}
