//! Stream VByte (Lemire, Kurz, Rupp, 2018): byte-oriented compression of u32
//! arrays with the control bytes kept apart from the data bytes.
//!
//! # Wire format
//!
//! For `n` values the stream is `ceil(n / 4)` control bytes followed by the
//! data bytes. Control byte `k` describes values `4k .. 4k+3`, two bits each,
//! the lowest bits first. Each value is stored little-endian in as many bytes
//! as its code says:
//!
//! ```text
//!  code  | "1234" (standard) | "0124"
//!  ------+-------------------+--------
//!   00   | 1 byte            | 0 bytes (the value is 0)
//!   01   | 2 bytes           | 1 byte
//!   10   | 3 bytes           | 2 bytes
//!   11   | 4 bytes           | 4 bytes
//! ```
//!
//! Paper Fig. 3, the values 1024, 12, 10, 1073741824, 1, 2, 3, 1024:
//!
//! ```text
//!  control: 0b11_00_00_01 = 0xC1, 0b01_00_00_00 = 0x40
//!  data:    00 04 | 0C | 0A | 00 00 00 40 | 01 | 02 | 03 | 00 04
//! ```
//!
//! The count `n` is not stored; the caller keeps it. Codes in the last control
//! byte beyond `n` are written as zero and ignored when decoding. Encoders
//! always pick the shortest code. The format is byte-identical with
//! lemire/streamvbyte (`streamvbyte_encode`, `streamvbyte_encode_0124`,
//! `streamvbyte_delta_encode`), which the oracle tests check.
//!
//! # Delta coding
//!
//! The delta variants store `x[i] - x[i-1]` (wrapping), with `x[-1]` a value
//! given by the caller (often 0, or the last value of the previous block);
//! decoding rebuilds the values with a prefix sum (SIMD, paper §2).
//!
//! # Safety of decoding
//!
//! [`IntCodec::decode`] never reads outside `input` and never writes
//! outside `out`, whatever the bytes: missing control or data bytes give a
//! [`DecodeError`] of kind `Truncated` with the byte offset of the first
//! missing piece (every kernel reports the same error). Trailing bytes after
//! the stream are not an error: the byte count consumed is returned.

use crate::error::{DecodeError, DecodeErrorKind};
use crate::tables::streamvbyte::{SvbTables, BYTES_0124, BYTES_1234, TABLES_0124, TABLES_1234};
use crate::traits::IntCodec;
use alloc::vec::Vec;
use seek::Parts;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
mod counted;
pub(crate) mod scalar;
pub(crate) mod seek;
#[cfg(any(target_arch = "x86_64", target_arch = "x86"))]
pub(crate) mod x86;

/// Bytes a decoder may read past the end of a stream on the unchecked path:
/// [`IntCodec::decode_unchecked`] needs this many readable bytes after the
/// encoded data.
pub const PADDING: usize = 16;

crate::named_enum! {
    /// Which code-to-length mapping a stream uses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    pub enum Variant {
        /// Codes mean 1, 2, 3, 4 bytes (the standard format).
        #[default]
        V1234 => "1234",
        /// Codes mean 0, 1, 2, 4 bytes: zeros cost no data byte.
        V0124 => "0124",
    }
    /// The name used by the CLI: `"1234"` or `"0124"`.
    fn name;
}

/// Compile-time description of a variant, used to monomorphise kernels.
pub(crate) trait Format: 'static {
    const VARIANT: Variant;
    /// Data bytes for codes 0..=3.
    const BYTES: [u8; 4];
    /// The shortest code for `v`.
    fn code(v: u32) -> u8;
    fn tables() -> &'static SvbTables;
}

/// The standard "1234" variant.
pub(crate) enum F1234 {}
/// The "0124" variant.
pub(crate) enum F0124 {}

impl Format for F1234 {
    const VARIANT: Variant = Variant::V1234;
    const BYTES: [u8; 4] = BYTES_1234;
    #[inline(always)]
    fn code(v: u32) -> u8 {
        (v > 0xFF) as u8 + (v > 0xFFFF) as u8 + (v > 0xFF_FFFF) as u8
    }
    #[inline(always)]
    fn tables() -> &'static SvbTables {
        &TABLES_1234
    }
}

impl Format for F0124 {
    const VARIANT: Variant = Variant::V0124;
    const BYTES: [u8; 4] = BYTES_0124;
    #[inline(always)]
    fn code(v: u32) -> u8 {
        (v != 0) as u8 + (v > 0xFF) as u8 + (v > 0xFFFF) as u8
    }
    #[inline(always)]
    fn tables() -> &'static SvbTables {
        &TABLES_0124
    }
}

/// How many bytes from a block's data start the SIMD decoders read for
/// the eight groups whose control bytes are `keys` (little-endian, group 0
/// in the low byte): 16 from the start of the last group's data, or for an
/// all-zero block the two 16-byte loads of the one-byte path (none for
/// "0124", whose zero block is all zeros). At most 128.
#[inline]
// Used by the x86 kernels only.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "x86")),
    allow(dead_code)
)]
pub(crate) fn block_reach<F: Format>(keys: u64) -> usize {
    if keys == 0 {
        return match F::VARIANT {
            Variant::V1234 => 32,
            Variant::V0124 => 0,
        };
    }
    // SWAR: the four 2-bit codes of each byte summed into that byte.
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let byte_sums = |k: u64| {
        let x = (k & M2) + ((k >> 2) & M2);
        (x & M4) + ((x >> 4) & M4)
    };
    // Data length of each group, one per byte (at most 16).
    let lens = match F::VARIANT {
        // Codes 0..=3 mean 1..=4 bytes: four bytes per group plus the codes.
        Variant::V1234 => byte_sums(keys) + 0x0404_0404_0404_0404,
        // Codes 0, 1, 2, 3 mean 0, 1, 2, 4 bytes: the codes, plus one for
        // each code 3 (both of its bits set).
        Variant::V0124 => byte_sums(keys) + byte_sums(keys & (keys >> 1) & 0x5555_5555_5555_5555),
    };
    // Groups 0..=6's lengths summed (at most 112: no byte carries).
    let first7 = (lens & 0x00FF_FFFF_FFFF_FFFF).wrapping_mul(0x0101_0101_0101_0101) >> 56;
    first7 as usize + 16
}

/// The longest list the SIMD kernels' checked and trusted-count decoders
/// take without their loops ([`scalar::decode_short`]).
pub(crate) const SHORT_MAX: usize = 4;

/// Number of control bytes for `n` values.
#[inline]
pub const fn control_len(n: usize) -> usize {
    n.div_ceil(4)
}

/// The largest stream `n` values can take (every value 4 bytes).
///
/// # Panics
/// On overflow of `usize` (more than about `usize::MAX / 4.25` values).
#[inline]
pub const fn max_compressed_len(n: usize) -> usize {
    match n.checked_mul(4) {
        Some(d) => match d.checked_add(control_len(n)) {
            Some(t) => t,
            None => panic!("max_compressed_len: count overflows usize"),
        },
        None => panic!("max_compressed_len: count overflows usize"),
    }
}

// Kernel signatures: decode, encode and unchecked decode as in
// `codec/mod.rs` (decode needs `input.len() >= control_len(out.len())`).
// Select / seek on a stream split into control bytes, data bytes and the
// data's offset in the stream (`seek::Parts`): plain select of value `i`,
// delta select of value `i` from `prev`, delta seek of `target` among `n`.
type SelectFn = unsafe fn(Parts<'_>, usize) -> Result<u32, DecodeError>;
type SelectDeltaFn = unsafe fn(Parts<'_>, u32, usize) -> Result<u32, DecodeError>;
type SeekFn = unsafe fn(Parts<'_>, usize, u32, u32) -> Result<Option<(usize, u32)>, DecodeError>;

super::byte_kernels! {
    /// One kernel set: one ISA, one variant.
    Kernels {
        variant: Variant,
        select: SelectFn,
        select_delta: SelectDeltaFn,
        seek_delta: SeekFn,
        /// Trusted-count decoders ([`counted`]): "1234" on the SSE4.1 and
        /// AVX2 kernels, both variants on AVX-512;
        /// `None`: the stream's length from its control bytes, then `decode`.
        decode_counted: Option<counted::DecodeCountedFn>,
        decode_delta_counted: Option<counted::DecodeCountedFn>,
    }
}

// Kernel sets of each variant (best last).
super::option_registries! {
    fn registry(variant: Variant) {
        Variant::V1234 => KERNELS_1234 = [
            scalar::kernels::<F1234>();
            x86: x86::sse41::KERNELS_1234, x86::avx2::KERNELS_1234, x86::avx512::KERNELS_1234;
            aarch64: aarch64::neon::KERNELS_1234
        ],
        Variant::V0124 => KERNELS_0124 = [
            scalar::kernels::<F0124>();
            x86: x86::sse41::KERNELS_0124, x86::avx2::KERNELS_0124, x86::avx512::KERNELS_0124;
            aarch64: aarch64::neon::KERNELS_0124
        ],
    }
}

/// A Stream VByte codec bound to one kernel (ISA) and one variant.
///
/// `StreamVByte::new()` picks the fastest kernel this CPU supports (within
/// the `INTCODEC_ISA` cap);
/// [`KernelChoice::with_isa`](crate::KernelChoice::with_isa) forces one.
/// The codec operations are the [`IntCodec`] and
/// [`SortedCodec`](crate::SortedCodec) methods.
///
/// ```
/// use intcodec::streamvbyte::StreamVByte;
/// use intcodec::IntCodec;
///
/// let codec = StreamVByte::new();
/// let values = [1024, 12, 10, 1_073_741_824, 1, 2, 3, 1024];
/// let bytes = codec.encode_to_vec(&values);
/// assert_eq!(bytes.len(), 2 + 13); // paper Fig. 3
///
/// let mut out = [0u32; 8];
/// let used = codec.decode(&bytes, 8, &mut out)?;
/// assert_eq!((used, out), (bytes.len(), values));
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy)]
pub struct StreamVByte {
    k: &'static Kernels,
}

super::kernel_handle!(StreamVByte { variant }, best: Self::new(), registry: |k| registry(k.variant));

impl StreamVByte {
    /// The standard ("1234") codec with the best kernel for this CPU.
    pub fn new() -> Self {
        StreamVByte {
            k: KERNELS_1234.best(),
        }
    }

    /// The same kernel choice, for another variant. If the current ISA has no
    /// kernel for `variant`, the best allowed one is used.
    pub fn with_variant(self, variant: Variant) -> Self {
        StreamVByte {
            k: super::same_isa(registry(variant), self.k.isa),
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.k.variant
    }

    fn compressed_len_from(&self, values: &[u32], prev: Option<u32>) -> usize {
        match self.k.variant {
            Variant::V1234 => scalar::compressed_len::<F1234>(values, prev),
            Variant::V0124 => scalar::compressed_len::<F0124>(values, prev),
        }
    }

    fn bytes(&self) -> [u8; 4] {
        match self.k.variant {
            Variant::V1234 => BYTES_1234,
            Variant::V0124 => BYTES_0124,
        }
    }

    /// The checks before a decode (`kernel_decoders!`): room for `n`
    /// values, and the control bytes present.
    #[inline]
    fn decode_args(input: &[u8], n: usize, out_len: usize) -> Result<(), DecodeError> {
        super::check_out(n, out_len)?;
        let cl = control_len(n);
        if input.len() < cl {
            // The first value whose control byte is missing.
            return Err(DecodeError::new(
                DecodeErrorKind::Truncated,
                input.len(),
                Some(input.len() * 4),
            ));
        }
        Ok(())
    }

    /// The output of `decode_to_vec`, allocated only when `input` holds the
    /// control bytes of `n` values (else the error `decode` reports).
    fn vec_for(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        Self::decode_args(input, n, n)?;
        Ok(alloc::vec![0u32; n])
    }
}

/// The codec operations. `encode*` may overwrite bytes of `out` past the
/// returned length (the kernels store whole vectors); [`max_compressed_len`]
/// is always enough room. Decoders never read outside `input`.
///
/// `decode_unchecked` / `decode_delta_unchecked` need, besides a valid
/// stream of `n` values, at least [`PADDING`] readable bytes after it (the
/// fast path loads 16 bytes at a time up to the end of the data).
impl IntCodec for StreamVByte {
    fn unchecked_padding(&self) -> usize {
        PADDING
    }

    fn name(&self) -> &'static str {
        match self.k.variant {
            Variant::V1234 => "streamvbyte",
            Variant::V0124 => "streamvbyte-0124",
        }
    }

    super::kernel_info!();

    fn max_compressed_len(&self, n: usize) -> Option<usize> {
        n.checked_mul(4)?.checked_add(control_len(n))
    }

    fn max_values(&self, input_len: usize) -> usize {
        match self.k.variant {
            // Each value takes a quarter control byte and at least one data
            // byte: `ceil(n / 4) + n <= len`.
            Variant::V1234 => {
                let q = input_len / 5;
                let r = input_len % 5;
                // 4q values fill 5q bytes; r more bytes hold r - 1 more
                // values (one control byte plus r - 1 data bytes), at most 3.
                4 * q + r.saturating_sub(1)
            }
            // Zeros take only their quarter control byte.
            Variant::V0124 => input_len.saturating_mul(4),
        }
    }

    super::kernel_encoders!();

    /// Length in bytes of a stream of `n` values, read from its control bytes
    /// (the data bytes need not be present).
    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        Self::decode_args(input, n, n)?;
        Ok(control_len(n) + scalar::data_len(self.bytes(), &input[..control_len(n)], n))
    }

    super::kernel_decoders!();
}

#[cfg(test)]
mod tests;
