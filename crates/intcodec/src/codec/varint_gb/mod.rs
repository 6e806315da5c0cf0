//! VarInt-GB, "group varint" (Dean, WSDM 2009; Stream VByte paper §3,
//! Fig. 1): blocks of four u32 values, each block one control byte followed
//! by the four values' data bytes.
//!
//! # Wire format
//!
//! A value takes 1 to 4 bytes, little-endian; its 2-bit code is its byte
//! count minus one. A block is the control byte (four codes) and then the
//! data bytes of values 1, 2, 3, 4 in order:
//!
//! ```text
//!  +---------+------------+------------+------------+------------+
//!  | control | value 1    | value 2    | value 3    | value 4    |
//!  | 1 byte  | 1-4 bytes  | 1-4 bytes  | 1-4 bytes  | 1-4 bytes  |
//!  +---------+------------+------------+------------+------------+
//! ```
//!
//! Two layouts differ in where each code sits in the control byte, and in the
//! last `n % 4` values:
//!
//! ```text
//!  control bit:       7 6 | 5 4 | 3 2 | 1 0
//!  Layout::LowFirst:  v4  | v3  | v2  | v1     (FastPFor `varintgb`)
//!  Layout::Lucene:    v1  | v2  | v3  | v4     (Lucene group-varint)
//! ```
//!
//! - [`Layout::LowFirst`] (FastPFor's `varintgb`, lemire/FastPFor
//!   `varintgb.h`): the last `n % 4` values form a partial block, a control
//!   byte whose unused codes are zero followed by only those values' bytes.
//!   FastPFor frames the stream with a u32 count before it and zero bytes
//!   after it up to a multiple of 4; that framing is not part of this
//!   stream (the count is the caller's, as in Stream VByte), and the oracle
//!   tests add and strip it.
//! - [`Layout::Lucene`] (`org.apache.lucene.util.GroupVIntUtil`,
//!   `DataOutput.writeGroupVInts`, Lucene 9.9+): the first value's code is
//!   in the top two bits; the last `n % 4` values are written as Lucene
//!   vints (LEB128: seven bits per byte, least significant group first, high
//!   bit set on every byte but the last; at most 5 bytes, the fifth at most
//!   `0x0F`). Decoding accepts what Lucene's `readVInt` accepts, including
//!   non-minimal vints; encoding writes minimal ones, as Lucene does.
//!
//! Paper Fig. 1 (a), 1024, 12, 10, 1073741824, in 9 bytes:
//!
//! ```text
//!  LowFirst: c1 | 00 04 | 0c | 0a | 00 00 00 40      control 0b11_00_00_01
//!  Lucene:   43 | 00 04 | 0c | 0a | 00 00 00 40      control 0b01_00_00_11
//! ```
//!
//! Encoders always pick the shortest code; decoders accept any code (a value
//! written in more bytes than it needs decodes to itself). Trailing bytes
//! after the stream are not an error: decoding returns the bytes consumed.
//!
//! # Delta coding
//!
//! The delta variants store `x[i] - x[i-1]` (wrapping) from a caller-given
//! `x[-1]`; decoding rebuilds the values with a prefix sum (SIMD in the SIMD
//! kernels, paper §2).
//!
//! # Kernels
//!
//! | ISA | decode | encode |
//! |---|---|---|
//! | scalar | byte loads, an all-one-byte fast path (control byte 0) | scalar |
//! | SSSE3 | one 16-byte load + `pshufb` per block (256-entry tables) | scalar |
//! | AVX2 | the SSSE3 loop, VEX-encoded | scalar |
//!
//! # Safety of decoding
//!
//! [`VarIntGb::decode`] never reads outside `input` nor writes outside `out`:
//! a missing control or data byte gives `Truncated` at the offset of the
//! first byte of the value (or control byte) that does not fit; a Lucene
//! vint of more than 32 bits gives `Malformed` at its fifth byte. Every
//! kernel returns the same result and the same error.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::isa::Isa;
use crate::tables::varint_gb::{GbTables, TABLES_LOW_FIRST, TABLES_LUCENE};
use alloc::vec::Vec;
use core::fmt;

pub(crate) mod scalar;
pub(crate) mod seek;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

/// Bytes [`VarIntGb::decode_unchecked`] may read past the end of the stream.
pub const PADDING: usize = 16;

/// Where the codes sit in a control byte, and how the last `n % 4` values
/// are written. See the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// First value's code in the low two bits; a partial last block
    /// (FastPFor `varintgb`).
    #[default]
    LowFirst,
    /// First value's code in the high two bits; the last `n % 4` values as
    /// vints (Lucene group-varint).
    Lucene,
}

impl Layout {
    /// A short name: `"low-first"` or `"lucene"`.
    pub fn name(self) -> &'static str {
        match self {
            Layout::LowFirst => "low-first",
            Layout::Lucene => "lucene",
        }
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Compile-time description of a layout, to monomorphise kernels.
pub(crate) trait Format: 'static {
    const LAYOUT: Layout;
    /// First value's code in the top bits (and a vint tail).
    const LUCENE: bool;
    fn tables() -> &'static GbTables;
    /// The code of value `lane` of a group with control byte `key`.
    #[inline(always)]
    fn code(key: u8, lane: usize) -> u8 {
        crate::tables::varint_gb::code(key, lane, Self::LUCENE)
    }
    /// `code` placed in the control byte for value `lane`.
    #[inline(always)]
    fn place(code: u8, lane: usize) -> u8 {
        if Self::LUCENE {
            code << (6 - 2 * lane)
        } else {
            code << (2 * lane)
        }
    }
}

/// FastPFor's layout.
pub(crate) enum LowFirst {}
/// Lucene's layout.
pub(crate) enum Lucene {}

impl Format for LowFirst {
    const LAYOUT: Layout = Layout::LowFirst;
    const LUCENE: bool = false;
    #[inline(always)]
    fn tables() -> &'static GbTables {
        &TABLES_LOW_FIRST
    }
}

impl Format for Lucene {
    const LAYOUT: Layout = Layout::Lucene;
    const LUCENE: bool = true;
    #[inline(always)]
    fn tables() -> &'static GbTables {
        &TABLES_LUCENE
    }
}

/// The code (byte count minus one) of `v`.
#[inline(always)]
pub(crate) fn code_of(v: u32) -> u8 {
    (v > 0xFF) as u8 + (v > 0xFFFF) as u8 + (v > 0xFF_FFFF) as u8
}

/// The largest stream `n` values can take, in either layout: 17 bytes per
/// full block, and 5 per remaining value (a Lucene vint; a partial
/// low-first block takes at most `1 + 4r <= 5r`).
///
/// # Panics
/// On overflow of `usize`.
#[inline]
pub const fn max_compressed_len(n: usize) -> usize {
    match (n / 4).checked_mul(17) {
        Some(full) => match full.checked_add((n % 4) * 5) {
            Some(t) => t,
            None => panic!("max_compressed_len: count overflows usize"),
        },
        None => panic!("max_compressed_len: count overflows usize"),
    }
}

// Kernel signatures (as in Stream VByte). The pointers are `unsafe fn` only
// because SIMD kernels need their CPU features, checked at construction.
//
// decode: decodes `out.len()` values; bytes consumed or the first error.
// encode: `out.len() >= compressed length`; returns bytes written.
type DecodeFn = unsafe fn(&[u8], &mut [u32], u32) -> Result<usize, DecodeError>;
type EncodeFn = unsafe fn(&[u32], u32, &mut [u8]) -> usize;
// Unchecked decode: a valid stream followed by `PADDING` readable bytes.
type DecodeUncheckedFn = unsafe fn(&[u8], &mut [u32], u32) -> usize;

/// One kernel set: one ISA, one layout.
pub(crate) struct Kernels {
    isa: Isa,
    layout: Layout,
    decode: DecodeFn,
    decode_delta: DecodeFn,
    decode_unchecked: DecodeUncheckedFn,
    decode_delta_unchecked: DecodeUncheckedFn,
    encode: EncodeFn,
    encode_delta: EncodeFn,
}

static SCALAR_LOW: Kernels = scalar::kernels::<LowFirst>();
static SCALAR_LUCENE: Kernels = scalar::kernels::<Lucene>();

/// Kernel sets in order of preference (best last).
static SETS_LOW: &[&Kernels] = &[
    &SCALAR_LOW,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::ssse3::KERNELS_LOW_FIRST,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::avx2::KERNELS_LOW_FIRST,
];
static SETS_LUCENE: &[&Kernels] = &[
    &SCALAR_LUCENE,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::ssse3::KERNELS_LUCENE,
    #[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
    &x86::avx2::KERNELS_LUCENE,
];

fn kernel_sets(layout: Layout) -> &'static [&'static Kernels] {
    match layout {
        Layout::LowFirst => SETS_LOW,
        Layout::Lucene => SETS_LUCENE,
    }
}

/// The ISAs that have a VarInt-GB kernel in this build (whether or not this
/// CPU supports them).
pub fn kernel_isas() -> impl Iterator<Item = Isa> {
    kernel_sets(Layout::LowFirst).iter().map(|k| k.isa)
}

fn best_kernels(layout: Layout) -> &'static Kernels {
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

/// A VarInt-GB codec bound to one kernel (ISA) and one [`Layout`].
///
/// ```
/// use intcodec::varint_gb::{Layout, VarIntGb};
///
/// let codec = VarIntGb::new();
/// let values = [1024, 12, 10, 1_073_741_824, 1, 2, 3, 1024];
/// let bytes = codec.encode_to_vec(&values);
/// assert_eq!(bytes.len(), 9 + 6); // paper Fig. 1 (a) and (b)
/// assert_eq!(bytes[0], 0xC1);
///
/// let mut out = [0u32; 8];
/// assert_eq!(codec.decode(&bytes, 8, &mut out)?, bytes.len());
/// assert_eq!(out, values);
///
/// // Lucene's layout: the first value's code in the top bits.
/// let lucene = codec.with_layout(Layout::Lucene);
/// assert_eq!(lucene.encode_to_vec(&values)[0], 0x43);
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy)]
pub struct VarIntGb {
    k: &'static Kernels,
}

impl fmt::Debug for VarIntGb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VarIntGb")
            .field("isa", &self.k.isa)
            .field("layout", &self.k.layout)
            .finish()
    }
}

impl Default for VarIntGb {
    fn default() -> Self {
        Self::new()
    }
}

impl VarIntGb {
    /// The low-first (FastPFor) layout with the best kernel for this CPU.
    pub fn new() -> Self {
        VarIntGb {
            k: best_kernels(Layout::LowFirst),
        }
    }

    /// The low-first layout with the kernel for `isa`, or `None` if there is
    /// no such kernel or this CPU (or the `INTCODEC_ISA` cap) does not allow it.
    pub fn with_isa(isa: Isa) -> Option<Self> {
        Self::with_isa_layout(isa, Layout::LowFirst)
    }

    /// The codec for `layout` with the kernel for `isa`, if allowed here.
    pub fn with_isa_layout(isa: Isa, layout: Layout) -> Option<Self> {
        if !isa.is_enabled() {
            return None;
        }
        kernel_sets(layout)
            .iter()
            .find(|k| k.isa == isa)
            .map(|k| VarIntGb { k })
    }

    /// The same kernel choice for another layout (the best allowed kernel if
    /// the current ISA has none for `layout`).
    pub fn with_layout(self, layout: Layout) -> Self {
        Self::with_isa_layout(self.k.isa, layout).unwrap_or(VarIntGb {
            k: best_kernels(layout),
        })
    }

    /// The kernel's instruction set.
    pub fn isa(&self) -> Isa {
        self.k.isa
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.k.layout
    }

    /// Exact encoded length of `values`.
    pub fn compressed_len(&self, values: &[u32]) -> usize {
        self.compressed_len_from(values, None)
    }

    /// Exact encoded length of `values` delta-coded from `prev`.
    pub fn compressed_len_delta(&self, values: &[u32], prev: u32) -> usize {
        self.compressed_len_from(values, Some(prev))
    }

    fn compressed_len_from(&self, values: &[u32], prev: Option<u32>) -> usize {
        match self.k.layout {
            Layout::LowFirst => scalar::compressed_len::<LowFirst>(values, prev),
            Layout::Lucene => scalar::compressed_len::<Lucene>(values, prev),
        }
    }

    fn check_encode_room(
        &self,
        values: &[u32],
        prev: Option<u32>,
        out: &[u8],
    ) -> Result<(), EncodeError> {
        if out.len() >= max_compressed_len(values.len()) {
            return Ok(());
        }
        let needed = self.compressed_len_from(values, prev);
        if out.len() < needed {
            return Err(EncodeError::OutputTooSmall {
                needed,
                available: out.len(),
            });
        }
        Ok(())
    }

    /// Encodes `values` into `out`, returning the number of bytes written.
    /// `out` needs [`compressed_len`](Self::compressed_len) bytes;
    /// [`max_compressed_len`] is always enough. Bytes of `out` past the
    /// returned length may be overwritten.
    pub fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, EncodeError> {
        self.check_encode_room(values, None, out)?;
        // SAFETY: supported ISA (constructors); room checked above.
        Ok(unsafe { (self.k.encode)(values, 0, out) })
    }

    /// Encodes `values` as deltas from `prev` (wrapping) into `out`.
    pub fn encode_delta(
        &self,
        values: &[u32],
        prev: u32,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        self.check_encode_room(values, Some(prev), out)?;
        // SAFETY: as in `encode`.
        Ok(unsafe { (self.k.encode_delta)(values, prev, out) })
    }

    /// Encodes `values` into a new `Vec`.
    pub fn encode_to_vec(&self, values: &[u32]) -> Vec<u8> {
        let mut out = alloc::vec![0u8; max_compressed_len(values.len())];
        let n = self
            .encode(values, &mut out)
            .expect("max_compressed_len is enough");
        out.truncate(n);
        out
    }

    /// Encodes `values` as deltas from `prev` into a new `Vec`.
    pub fn encode_delta_to_vec(&self, values: &[u32], prev: u32) -> Vec<u8> {
        let mut out = alloc::vec![0u8; max_compressed_len(values.len())];
        let n = self
            .encode_delta(values, prev, &mut out)
            .expect("max_compressed_len is enough");
        out.truncate(n);
        out
    }

    fn check_out(n: usize, out_len: usize) -> Result<(), DecodeError> {
        if out_len < n {
            return Err(DecodeError::new(
                DecodeErrorKind::OutputTooSmall,
                0,
                Some(out_len),
            ));
        }
        Ok(())
    }

    /// Decodes `n` values from `input` into `out[..n]`, returning the number
    /// of bytes consumed. Never reads outside `input`.
    pub fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, DecodeError> {
        Self::check_out(n, out.len())?;
        // SAFETY: supported ISA (constructors); checked kernels need nothing else.
        unsafe { (self.k.decode)(input, &mut out[..n], 0) }
    }

    /// Decodes `n` delta-coded values (from `prev`) into `out[..n]`.
    pub fn decode_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        Self::check_out(n, out.len())?;
        // SAFETY: as in `decode`.
        unsafe { (self.k.decode_delta)(input, &mut out[..n], prev) }
    }

    /// Length in bytes of a stream of `n` values, read from its control bytes
    /// (and vint tail); the same errors as [`decode`](Self::decode). Costs
    /// `O(min(n, input.len()))`, so it bounds `n` by the input before an
    /// output is allocated.
    pub fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        match self.k.layout {
            Layout::LowFirst => scalar::scan::<LowFirst>(input, n),
            Layout::Lucene => scalar::scan::<Lucene>(input, n),
        }
    }

    /// Decodes `n` values into a new `Vec` (allocated only once the input is
    /// known to hold them).
    pub fn decode_to_vec(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        self.encoded_len(input, n)?;
        let mut out = alloc::vec![0u32; n];
        self.decode(input, n, &mut out)?;
        Ok(out)
    }

    /// Decodes `n` delta-coded values (from `prev`) into a new `Vec`.
    pub fn decode_delta_to_vec(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
    ) -> Result<Vec<u32>, DecodeError> {
        self.encoded_len(input, n)?;
        let mut out = alloc::vec![0u32; n];
        self.decode_delta(input, n, prev, &mut out)?;
        Ok(out)
    }

    /// Decodes `n` values from trusted input, without validation.
    ///
    /// # Safety
    /// - `input` must hold a complete stream of `n` values in this layout
    ///   followed by at least [`PADDING`] more bytes (any values): the SIMD
    ///   loop loads 16 bytes after each control byte;
    /// - `out.len() >= n`.
    ///
    /// Returns the bytes consumed (not counting padding).
    pub unsafe fn decode_unchecked(&self, input: &[u8], n: usize, out: &mut [u32]) -> usize {
        debug_assert!(out.len() >= n);
        let out = &mut out[..n];
        // SAFETY: the caller guarantees a valid, padded stream; `out` has `n`
        // slots; the kernel's ISA is supported (constructors).
        unsafe { (self.k.decode_unchecked)(input, out, 0) }
    }

    /// Decodes `n` delta-coded values from trusted input, without validation.
    ///
    /// # Safety
    /// As for [`decode_unchecked`](Self::decode_unchecked).
    pub unsafe fn decode_delta_unchecked(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> usize {
        debug_assert!(out.len() >= n);
        let out = &mut out[..n];
        // SAFETY: as in `decode_unchecked`.
        unsafe { (self.k.decode_delta_unchecked)(input, out, prev) }
    }
}

#[cfg(test)]
mod tests;
