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
//! | SSSE3 | one 16-byte load + `pshufb` per block (256-entry tables) | Stream VByte's "1234" group encoder, then the control byte and one 16-byte store per group |
//! | AVX2 | the SSSE3 loops, VEX-encoded | as SSSE3 |
//! | AVX-512 (VBMI) | lists of 512+ values: 64-byte windows every 47 bytes, block addresses by `vpermb` powers of a next-block table (no per-block chain), one-byte windows widened whole, delta as a second pass; then the AVX2 loop | AVX2's |
//! | NEON | the SSSE3 loop with `tbl` | scalar |
//!
//! A checked decode of 1-8 values in one or two blocks (and 17 or 34
//! readable bytes; Lucene: exactly one block of four) is done by the handle
//! before any kernel runs: for lists that short the kernel's call costs
//! more than the values (`VarIntGb::decode_first`).
//!
//! # Safety of decoding
//!
//! [`IntCodec::decode`] never reads outside `input` nor writes outside `out`:
//! a missing control or data byte gives `Truncated` at the offset of the
//! first byte of the value (or control byte) that does not fit; a Lucene
//! vint of more than 32 bits gives `Malformed` at its fifth byte. Every
//! kernel returns the same result and the same error.

use crate::error::DecodeError;
use crate::tables::varint_gb::{GbTables, TABLES_LOW_FIRST, TABLES_LUCENE};
use crate::traits::IntCodec;
use alloc::vec::Vec;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
pub(crate) mod scalar;
pub(crate) mod seek;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

/// Bytes [`IntCodec::decode_unchecked`] may read past the end of the stream.
pub const PADDING: usize = 16;

crate::named_enum! {
    /// Where the codes sit in a control byte, and how the last `n % 4` values
    /// are written. See the module docs.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Layout {
        /// First value's code in the low two bits; a partial last block
        /// (FastPFor `varintgb`).
        #[default]
        LowFirst => "low-first",
        /// First value's code in the high two bits; the last `n % 4` values as
        /// vints (Lucene group-varint).
        Lucene => "lucene",
    }
    /// A short name: `"low-first"` or `"lucene"`.
    fn name;
}

/// Compile-time description of a layout, to monomorphise kernels.
pub(crate) trait Format: 'static {
    /// First value's code in the top bits (and a vint tail).
    const LUCENE: bool;
    /// The layout `LUCENE` names.
    const LAYOUT: Layout = if Self::LUCENE {
        Layout::Lucene
    } else {
        Layout::LowFirst
    };
    /// The layout's tables.
    #[inline(always)]
    fn tables() -> &'static GbTables {
        if Self::LUCENE {
            &TABLES_LUCENE
        } else {
            &TABLES_LOW_FIRST
        }
    }
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
    const LUCENE: bool = false;
}

impl Format for Lucene {
    const LUCENE: bool = true;
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

// Kernel signatures: decode, encode and unchecked decode as in
// `codec/mod.rs`.
// Delta select of value `i < n` from `prev` (`seek` module).
type SelectDeltaFn = unsafe fn(&[u8], usize, u32, usize) -> Result<u32, DecodeError>;
// Delta seek: the first of `n` values (from `prev`) at or above `target`.
type SeekFn = unsafe fn(&[u8], usize, u32, u32) -> Result<Option<(usize, u32)>, DecodeError>;

super::byte_kernels! {
    /// One kernel set: one ISA, one layout.
    Kernels {
        layout: Layout,
        select_delta: SelectDeltaFn,
        seek_delta: SeekFn,
    }
}

// Kernel sets of each layout (best last).
super::option_registries! {
    fn registry(layout: Layout) {
        Layout::LowFirst => KERNELS_LOW = [
            scalar::kernels::<LowFirst>();
            x86: x86::ssse3::KERNELS_LOW_FIRST, x86::avx2::KERNELS_LOW_FIRST,
                x86::avx512::KERNELS_LOW_FIRST;
            aarch64: aarch64::neon::KERNELS_LOW_FIRST
        ],
        Layout::Lucene => KERNELS_LUCENE = [
            scalar::kernels::<Lucene>();
            x86: x86::ssse3::KERNELS_LUCENE, x86::avx2::KERNELS_LUCENE, x86::avx512::KERNELS_LUCENE;
            aarch64: aarch64::neon::KERNELS_LUCENE
        ],
    }
}

/// A VarInt-GB codec bound to one kernel (ISA) and one [`Layout`]. The codec
/// operations are the [`IntCodec`] and [`SortedCodec`](crate::SortedCodec)
/// methods.
///
/// ```
/// use intcodec::varint_gb::{Layout, VarIntGb};
/// use intcodec::IntCodec;
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

super::kernel_handle!(VarIntGb { layout }, best: Self::new(), registry: |k| registry(k.layout));

impl VarIntGb {
    /// The low-first (FastPFor) layout with the best kernel for this CPU.
    pub fn new() -> Self {
        VarIntGb {
            k: KERNELS_LOW.best(),
        }
    }

    /// The same kernel choice for another layout (the best allowed kernel if
    /// the current ISA has none for `layout`).
    pub fn with_layout(self, layout: Layout) -> Self {
        VarIntGb {
            k: super::same_isa(registry(layout), self.k.isa),
        }
    }

    /// The layout.
    pub fn layout(&self) -> Layout {
        self.k.layout
    }

    fn compressed_len_from(&self, values: &[u32], prev: Option<u32>) -> usize {
        match self.k.layout {
            Layout::LowFirst => scalar::compressed_len::<LowFirst>(values, prev),
            Layout::Lucene => scalar::compressed_len::<Lucene>(values, prev),
        }
    }

    /// The checks before a decode (`kernel_decoders!`): room for `n`
    /// values (the kernels check the input).
    #[inline]
    fn decode_args(_input: &[u8], n: usize, out_len: usize) -> Result<(), DecodeError> {
        super::check_out(n, out_len)
    }

    /// Lists of 1-4 values (one block, or a partial low-first one) when the
    /// input holds 17 bytes, the most one block takes, and low-first lists
    /// of 5-8 values (two blocks) when it holds 34: decoded here, not by the
    /// kernel, whose call and per-block set-up cost more than these few
    /// values (Xeon, per call: a 1-value list 6.7 -> 3.4 ns). Each value is
    /// one 4-byte load masked to its length, at an offset looked up from
    /// the control byte (`GbTables::first`): the lanes' loads do not wait
    /// for each other (Zen 4, short suite, 1, 2, 4 and 8 ints: 4.7, 5.5,
    /// 7.7 and 10.6 ns with a chain of lengths and only one block here ->
    /// 3.6, 4.4, 5.4 and 8.9, the benchmark's adapter inlined too). Nothing
    /// can be truncated. `None` for anything else (the kernel decodes it,
    /// and names errors).
    #[inline(always)]
    fn decode_first(
        codec: &Self,
        input: &[u8],
        n: usize,
        prev: Option<u32>,
        out: &mut [u32],
    ) -> Option<Result<usize, DecodeError>> {
        let lucene = codec.k.layout == Layout::Lucene;
        let t = if lucene {
            &crate::tables::varint_gb::TABLES_LUCENE
        } else {
            &crate::tables::varint_gb::TABLES_LOW_FIRST
        };
        let mut acc = prev.unwrap_or(0);
        let delta = prev.is_some();
        // Lucene writes lists under four values as vints, not a block.
        let one_block = if lucene { n == 4 } else { (1..=4).contains(&n) };
        if one_block {
            let (Some(bytes), Some(out)) = (input.first_chunk::<17>(), out.get_mut(..n)) else {
                return None;
            };
            return Some(Ok(first_block(t, bytes, out, delta, &mut acc)));
        }
        if lucene || !(5..=8).contains(&n) {
            return None;
        }
        let (Some(bytes), Some(out)) = (input.first_chunk::<34>(), out.get_mut(..n)) else {
            return None;
        };
        let (head, tail) = out.split_at_mut(4);
        let at = first_block(t, bytes.first_chunk::<17>()?, head, delta, &mut acc);
        let next = bytes.get(at..)?.first_chunk::<17>()?;
        Some(Ok(at + first_block(t, next, tail, delta, &mut acc)))
    }

    /// The output of `decode_to_vec`, allocated only if `input` is long
    /// enough for `n` values: every value takes a byte and every full group
    /// of four a control byte, so the allocation stays within the input's
    /// size. A shorter input cannot hold them: `encoded_len` then gives the
    /// error `decode` would. (It used to scan every input first, a scalar
    /// pass over the control bytes that doubled the time of
    /// `decode_delta_to_vec`; `decode` finds any other error itself.)
    fn vec_for(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        if input.len() < n.saturating_add(n / 4) {
            self.encoded_len(input, n)?;
        }
        Ok(alloc::vec![0u32; n])
    }
}

/// One block of `VarIntGb::decode_first`: the `out.len()` (1..=4) values
/// of the block whose control byte is `bytes[0]`, running from `acc` if
/// `delta`; returns the bytes they take from the control byte on. Lane `i`
/// ends `first` byte `i` bytes after the control byte and starts where lane
/// `i - 1` ends (lane 0 at 1): independent loads, no chain from one lane's
/// length to the next lane's load.
#[inline(always)]
fn first_block(
    t: &crate::tables::varint_gb::GbTables,
    bytes: &[u8; 17],
    out: &mut [u32],
    delta: bool,
    acc: &mut u32,
) -> usize {
    let first = t.first[bytes[0] as usize];
    let mut pos = 1;
    for lane in 0..4 {
        if lane == out.len() {
            break;
        }
        // `pos <= 1 + 3 * 4` before the fourth value (the table's offsets):
        // its four bytes end at 17 at most. (`min` keeps the slice's bound
        // check out of the loop.)
        let at = pos.min(13);
        let word = u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        let v = word & (u32::MAX >> (first >> (32 + 8 * lane)) as u8);
        *acc = if delta { acc.wrapping_add(v) } else { v };
        out[lane] = *acc;
        pos = (first >> (8 * lane)) as u8 as usize;
    }
    pos
}

/// The codec operations. `encode*` may overwrite bytes of `out` past the
/// returned length; [`max_compressed_len`] is always enough room. Decoders
/// never read outside `input`.
///
/// `decode_unchecked` / `decode_delta_unchecked` need, besides a valid
/// stream of `n` values in this layout, at least [`PADDING`] readable bytes
/// after it (the SIMD loop loads 16 bytes after each control byte).
impl IntCodec for VarIntGb {
    fn unchecked_padding(&self) -> usize {
        PADDING
    }

    fn name(&self) -> &'static str {
        match self.k.layout {
            Layout::LowFirst => "varint-gb",
            Layout::Lucene => "varint-gb-lucene",
        }
    }

    super::kernel_info!();

    fn max_compressed_len(&self, n: usize) -> Option<usize> {
        (n / 4).checked_mul(17)?.checked_add((n % 4) * 5)
    }

    fn max_values(&self, input_len: usize) -> usize {
        // A block of four values takes at least five bytes (its control
        // byte and one byte each). The rest: low-first, a partial block of
        // `r` values takes at least `1 + r` bytes; Lucene, `r` vints of at
        // least one byte each (`r <= 3`).
        let (q, r) = (input_len / 5, input_len % 5);
        let tail = match self.k.layout {
            Layout::LowFirst => r.saturating_sub(1),
            Layout::Lucene => r.min(3),
        };
        4 * q + tail
    }

    super::kernel_encoders!();

    /// Length in bytes of a stream of `n` values, read from its control bytes
    /// (and vint tail); the same errors as `decode`. Costs
    /// `O(min(n, input.len()))`, so it bounds `n` by the input before an
    /// output is allocated.
    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        match self.k.layout {
            Layout::LowFirst => scalar::scan::<LowFirst>(input, n),
            Layout::Lucene => scalar::scan::<Lucene>(input, n),
        }
    }

    super::kernel_decoders!(first: Self::decode_first);
}

#[cfg(test)]
mod tests;
