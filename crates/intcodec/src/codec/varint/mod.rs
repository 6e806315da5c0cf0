//! Single LEB128 values (protobuf "varint"): encode and decode one `u8`,
//! `u16`, `u32` or `u64` (and `i8` .. `i64` through zigzag), or two, four or
//! eight adjacent ones, as fast as the CPU allows and checked by default.
//!
//! # Wire format
//!
//! The VByte format of [`crate::vbyte`] for one value: 7 bits per byte, low
//! bits first, the high bit set on every byte but the last.
//!
//! ```text
//!     0 -> 00
//!   300 -> AC 02           (0b0101100 | 0b0000010 << 7; 0xAC = 0x80 | 0x2C)
//!   u32::MAX -> FF FF FF FF 0F
//! ```
//!
//! A type of `B` bits takes at most `ceil(B / 7)` bytes ([`Word::MAX_BYTES`]:
//! 2, 3, 5, 10) and its last byte carries at most `B - 7 * (MAX_BYTES - 1)`
//! bits ([`Word::LAST`]: `0x01`, `0x03`, `0x0F`, `0x01`). Encoders write
//! the minimal form; decoders accept non-minimal forms within the maximum
//! length (`80 00` is 0), as [`crate::vbyte`] does.
//!
//! # Decoding rules (the VByte rules)
//!
//! - A continuation bit on the `MAX_BYTES`-th byte:
//!   [`Overlong`](DecodeErrorKind::Overlong).
//! - A last byte above `LAST`: [`Overflow`](DecodeErrorKind::Overflow).
//!   Nothing is silently truncated (varint-simd and protobuf drop the excess
//!   bits; we refuse).
//! - The input ends before the value does:
//!   [`Truncated`](DecodeErrorKind::Truncated).
//! - Errors are checked byte by byte in input order, as
//!   [`crate::vbyte`] does, so a value that is both cut short and too long
//!   is reported by whichever comes first. Single-value errors have offset 0
//!   and no index; the multi-value decoders report the offset of the bad
//!   value's first byte and its index (0 .. N).
//! - Bytes after the value are never looked at for the result (they may be
//!   read, inside the slice, by a wide load).
//!
//! # Kernels
//!
//! | kernel | decode | encode | chosen by default when |
//! |---|---|---|---|
//! | `scalar` | 8-byte word; length from the continuation bits (u8/u16) or `trailing_zeros` (u32/u64); full-width u16/u32 first; add-and-shift compaction (SSE2 `pmaddwd` for 8 bytes on x86-64) | add-and-shift spread, `leading_zeros` length, 8-byte store | no faster kernel |
//! | `bmi2` | the same with `pext` | the same with `pdep` | the `avx2` level (which includes BMI1/BMI2) and LZCNT detected, and `pdep`/`pext` are not microcoded (not AMD family < 0x19, Zen 1/2) |
//! | `ssse3` | 16-byte load, `pmovmskb` for the length, `pmaddubsw`/`pmaddwd` compaction | scalar | only when forced |
//!
//! Every kernel reads only inside the slice it is given: wide loads are made
//! only when that many bytes remain; shorter slices are assembled from
//! overlapping loads inside the slice (one-byte values return first), and
//! anything doubtful goes to the byte-at-a-time reference, which names the
//! error. Dispatch is a match on a `Copy` handle (no function pointer per
//! value): the kernel choice is cached once per process; the `INTCODEC_ISA`
//! cap applies (`bmi2` needs the `avx2` level, `ssse3` the `ssse3` level).
//!
//! # Free functions and the handle
//!
//! A run-time-chosen kernel is a `#[target_feature]` function, which cannot
//! be inlined into the caller's loop: one call per value. The single-value
//! free functions ([`decode`], [`read`], [`decode_zigzag`],
//! [`decode_unchecked`], [`encode`], [`encode_zigzag`], [`encode_to_slice`])
//! and the multi-value decoders inline the scalar kernel's code instead
//! (with `pext`/`pdep` only when the build itself enables BMI2): decoding a
//! stream is limited by `pos += len`, not by the compaction `pext` speeds
//! up, and for encoding, looking the kernel up on every call cost as much
//! as `pdep` saved. Exceptions: [`decode_eight`] of u8 calls the BMI2
//! kernel's loop-free path, and [`encode_four`] / [`encode_eight`] use the
//! run-time kernel. Every [`Varint`] method uses its kernel; a `Varint`
//! made once and used in an encoding loop reaches `pdep` (faster encode on
//! this machine's Zen 4). All are measured in `intcodec bench --suite
//! varint`.
//!
//! # Multi-value
//!
//! [`decode_two`], [`decode_four`], [`decode_eight`] and
//! [`encode_four`], [`encode_eight`] handle adjacent values in one call
//! (one bounds check for the common case); the values are of one type.
//! The decoders find every value's end in one bitmask of the window (SSE2
//! `pmovmskb` on x86-64), so the values' loads do not wait for each other;
//! the BMI2 kernel decodes two, four or eight u8 values with no loop at all
//! (`pext`/`pdep` on that mask), which [`decode_eight`] uses for u8.
//!
//! # References
//!
//! - Protocol Buffers encoding (varints), unsigned LEB128 (DWARF).
//! - varint-simd (Andrew Sun): the API shape (`decode`, `decode_unsafe`,
//!   `encode`, `decode_two/four/eight`) and its benchmark.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::isa::Isa;
use core::fmt;

pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

/// Continuation bits of eight bytes.
const CONT: u64 = 0x8080_8080_8080_8080;

/// Bytes the [`decode_unchecked`] family needs readable from the start of
/// the value.
pub const PADDING: usize = 16;

/// The longest encoding of any supported type (a `u64`).
pub const MAX_LEN: usize = 10;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
    impl Sealed for i8 {}
    impl Sealed for i16 {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}

/// The unsigned types a varint decodes to: `u8`, `u16`, `u32`, `u64`.
pub trait Word: sealed::Sealed + Copy + Default + PartialEq + fmt::Debug + 'static {
    /// Most bytes one value may take: `ceil(BITS / 7)`.
    const MAX_BYTES: usize;
    /// Largest last (`MAX_BYTES`-th) byte.
    const LAST: u8;
    /// The type's largest value, as a `u64`.
    const MAX_U64: u64;
    #[doc(hidden)]
    fn from_u64(v: u64) -> Self;
    #[doc(hidden)]
    fn to_u64(self) -> u64;
}

macro_rules! word {
    ($t:ty, $max:expr, $last:expr) => {
        impl Word for $t {
            const MAX_BYTES: usize = $max;
            const LAST: u8 = $last;
            const MAX_U64: u64 = <$t>::MAX as u64;
            #[inline(always)]
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
        }
    };
}
word!(u8, 2, 0x01);
word!(u16, 3, 0x03);
word!(u32, 5, 0x0F);
word!(u64, 10, 0x01);

/// The signed types, coded through zigzag (0, -1, 1, -2 .. as 0, 1, 2, 3 ..).
pub trait Signed: sealed::Sealed + Copy + Default + PartialEq + fmt::Debug + 'static {
    /// The unsigned type of the same width.
    type Unsigned: Word;
    /// `(v << 1) ^ (v >> (BITS - 1))`.
    fn zigzag(self) -> Self::Unsigned;
    /// The inverse of [`zigzag`](Signed::zigzag).
    fn unzigzag(u: Self::Unsigned) -> Self;
}

macro_rules! signed {
    ($s:ty, $u:ty, $enc:ident, $dec:ident) => {
        impl Signed for $s {
            type Unsigned = $u;
            #[inline(always)]
            fn zigzag(self) -> $u {
                crate::zigzag::$enc(self)
            }
            #[inline(always)]
            fn unzigzag(u: $u) -> Self {
                crate::zigzag::$dec(u)
            }
        }
    };
}
signed!(i8, u8, encode_i8, decode_i8);
signed!(i16, u16, encode_i16, decode_i16);
signed!(i32, u32, encode_i32, decode_i32);
signed!(i64, u64, encode_i64, decode_i64);

crate::named_enum! {
    /// The kernels this module has (see the module docs).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum Kernel {
        /// Portable word-at-a-time code (every target).
        Scalar => "scalar",
        /// `pmovmskb` length + `pmaddubsw` compaction (x86-64 SSSE3).
        Ssse3 => "ssse3",
        /// `pext` / `pdep` (x86-64 BMI2).
        Bmi2 => "bmi2",
    }
    /// Lower-case name used in reports.
    fn name;
}

impl Kernel {
    /// Every kernel, in order of preference (best last).
    pub const ALL: [Kernel; 3] = [Kernel::Scalar, Kernel::Ssse3, Kernel::Bmi2];

    /// The instruction-set level the kernel needs (for the `INTCODEC_ISA`
    /// cap): `bmi2` counts as the `avx2` level, whose detection includes
    /// BMI1 and BMI2.
    pub fn isa(self) -> Isa {
        match self {
            Kernel::Scalar => Isa::Scalar,
            Kernel::Ssse3 => Isa::Ssse3,
            Kernel::Bmi2 => Isa::Avx2,
        }
    }

    /// Whether this build has the kernel and this CPU (and the cap) allow it.
    pub fn is_enabled(self) -> bool {
        match self {
            Kernel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Kernel::Ssse3 => self.isa().is_enabled(),
            // The kernel is compiled with BMI1, BMI2 and LZCNT; the `avx2`
            // level's detection covers the first two.
            #[cfg(target_arch = "x86_64")]
            Kernel::Bmi2 => self.isa().is_enabled() && x86::has_lzcnt(),
            #[cfg(not(target_arch = "x86_64"))]
            Kernel::Ssse3 | Kernel::Bmi2 => false,
        }
    }
}

fn pick_best() -> Kernel {
    #[cfg(target_arch = "x86_64")]
    if Kernel::Bmi2.is_enabled() && x86::pdep_is_fast() {
        return Kernel::Bmi2;
    }
    Kernel::Scalar
}

static BEST: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Bit of [`BEST`]: the SSSE3 kernel is enabled (the free multi-value
/// decoders use its table path for u8 and u16).
const SSSE3_ON: u8 = 4;

/// The kernel choice, cached in an atomic (0 = not chosen yet; else the
/// best kernel's code in bits 0..2 and [`SSSE3_ON`]), so that the free
/// functions pay one relaxed load per call.
#[inline(always)]
fn state() -> u8 {
    match BEST.load(core::sync::atomic::Ordering::Relaxed) {
        0 => init_best(),
        s => s,
    }
}

/// The best kernel.
#[inline(always)]
fn best() -> Kernel {
    match state() & 3 {
        3 => Kernel::Bmi2,
        2 => Kernel::Ssse3,
        _ => Kernel::Scalar,
    }
}

#[cold]
#[inline(never)]
fn init_best() -> u8 {
    let code = match pick_best() {
        Kernel::Scalar => 1,
        Kernel::Ssse3 => 2,
        Kernel::Bmi2 => 3,
    };
    let s = code
        | if Kernel::Ssse3.is_enabled() {
            SSSE3_ON
        } else {
            0
        };
    BEST.store(s, core::sync::atomic::Ordering::Relaxed);
    s
}

/// The kernels this CPU may run (within `INTCODEC_ISA`), scalar first.
pub fn enabled_kernels() -> impl Iterator<Item = Varint> {
    Kernel::ALL.into_iter().filter_map(Varint::with_kernel)
}

fn single(kind: DecodeErrorKind) -> DecodeError {
    DecodeError::new(kind, 0, None)
}

fn many_err((kind, offset, index): (DecodeErrorKind, usize, usize)) -> DecodeError {
    DecodeError::new(kind, offset, Some(index))
}

fn too_small(needed: usize, available: usize) -> EncodeError {
    EncodeError::OutputTooSmall { needed, available }
}

/// A varint codec bound to one kernel.
///
/// [`Varint::new`] picks the best kernel for this CPU (cached); the
/// multi-value free encoders use it. [`Varint::with_kernel`] forces one.
///
/// ```
/// use intcodec::varint::{Kernel, Varint};
///
/// let codec = Varint::new();
/// let (bytes, len) = codec.encode(300u32);
/// assert_eq!(&bytes[..len], [0xAC, 0x02]);
/// assert_eq!(codec.decode::<u32>(&bytes[..len])?, (300, 2));
/// let scalar = Varint::with_kernel(Kernel::Scalar).unwrap();
/// assert_eq!(scalar.decode::<u16>(&[0xAC, 0x02, 0xFF])?, (300, 2));
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Varint {
    k: Kernel,
}

impl fmt::Debug for Varint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Varint").field("kernel", &self.k).finish()
    }
}

impl Default for Varint {
    fn default() -> Self {
        Self::new()
    }
}

impl Varint {
    /// The codec with the best kernel for this CPU.
    #[inline]
    pub fn new() -> Self {
        Varint { k: best() }
    }

    /// The codec with `kernel`, or `None` if this build or CPU (or the
    /// `INTCODEC_ISA` cap) does not allow it.
    pub fn with_kernel(kernel: Kernel) -> Option<Self> {
        kernel.is_enabled().then_some(Varint { k: kernel })
    }

    /// The codec's kernel.
    pub fn kernel(&self) -> Kernel {
        self.k
    }

    /// The instruction-set level of the codec's kernel.
    pub fn isa(&self) -> Isa {
        self.k.isa()
    }

    #[inline(always)]
    fn decode_kind<T: Word>(self, input: &[u8]) -> Result<(T, usize), DecodeErrorKind> {
        match self.k {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Bmi2` handle exists only when the CPU has BMI2
            // (`with_kernel`, `new`).
            Kernel::Bmi2 => unsafe { x86::bmi2::decode::<T>(input) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Ssse3` handle exists only when the CPU has SSSE3.
            Kernel::Ssse3 => unsafe { x86::ssse3::decode::<T>(input) },
            _ => scalar::decode::<T>(input),
        }
    }

    /// Decodes the value at the start of `input`: the value and its length
    /// in bytes. Any slice length; reads nothing outside `input`.
    #[inline]
    pub fn decode<T: Word>(self, input: &[u8]) -> Result<(T, usize), DecodeError> {
        self.decode_kind(input).map_err(single)
    }

    /// Decodes the value at the start of `*input` and advances `*input`
    /// past it (left as it was on error).
    #[inline]
    pub fn read<T: Word>(self, input: &mut &[u8]) -> Result<T, DecodeError> {
        let (v, len) = self.decode_kind::<T>(input).map_err(single)?;
        *input = input.get(len..).unwrap_or_default();
        Ok(v)
    }

    /// Decodes a zigzag-coded signed value.
    #[inline]
    pub fn decode_zigzag<S: Signed>(self, input: &[u8]) -> Result<(S, usize), DecodeError> {
        self.decode::<S::Unsigned>(input)
            .map(|(u, len)| (S::unzigzag(u), len))
    }

    /// Decodes a value from trusted input without bounds or validity checks.
    ///
    /// # Safety
    /// `input.len() >= PADDING` (16): the kernels load up to 16 bytes from
    /// `input`'s start whatever the value's length.
    ///
    /// On a malformed value (overlong, overflowing) the result is
    /// unspecified (the excess bits may be dropped, the length may exceed
    /// the type's maximum, up to 16) but memory outside `input[..16]` is
    /// never read.
    #[inline]
    pub unsafe fn decode_unchecked<T: Word>(self, input: &[u8]) -> (T, usize) {
        debug_assert!(input.len() >= PADDING);
        match self.k {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: BMI2 present (constructors); 16 readable bytes (caller).
            Kernel::Bmi2 => unsafe { x86::bmi2::decode_unchecked::<T>(input) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSSE3 present (constructors); 16 readable bytes (caller).
            Kernel::Ssse3 => unsafe { x86::ssse3::decode_unchecked::<T>(input) },
            // SAFETY: 16 readable bytes (caller).
            _ => unsafe { unchecked::decode::<scalar::Portable, T>(input) },
        }
    }

    /// Encodes `v`: the bytes (the first `len` are the encoding, the rest
    /// zero) and `len`.
    #[inline]
    pub fn encode<T: Word>(self, v: T) -> ([u8; 16], usize) {
        match self.k {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: BMI2 present (constructors).
            Kernel::Bmi2 => unsafe { x86::bmi2::encode::<T>(v) },
            _ => scalar::encode::<T>(v),
        }
    }

    /// Encodes a signed value through zigzag.
    #[inline]
    pub fn encode_zigzag<S: Signed>(self, v: S) -> ([u8; 16], usize) {
        self.encode(v.zigzag())
    }

    /// Encodes `v` at the start of `out` and returns its length. `out`
    /// needs [`encoded_len`] bytes; when it has more, bytes past the
    /// encoding (up to 10 from the start) may be overwritten.
    #[inline]
    pub fn encode_to_slice<T: Word>(self, v: T, out: &mut [u8]) -> Result<usize, EncodeError> {
        let r = match self.k {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: BMI2 present (constructors).
            Kernel::Bmi2 => unsafe { x86::bmi2::encode_to_slice::<T>(v, out) },
            _ => scalar::encode_to_slice::<T>(v, out),
        };
        r.ok_or_else(|| too_small(encoded_len(v), out.len()))
    }

    fn decode_many<T: Word, const N: usize>(
        self,
        input: &[u8],
    ) -> Result<([T; N], usize), DecodeError> {
        let r = match self.k {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: BMI2 present (constructors).
            Kernel::Bmi2 => unsafe { x86::bmi2::decode_many::<T, N>(input) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSSE3 present (constructors).
            Kernel::Ssse3 => unsafe { x86::ssse3::decode_many::<T, N>(input) },
            _ => scalar::decode_many::<T, N>(input),
        };
        r.map_err(many_err)
    }

    /// Decodes two adjacent values: the values and the bytes both take.
    /// An error names the bad value's index and first byte.
    #[inline]
    pub fn decode_two<T: Word>(self, input: &[u8]) -> Result<([T; 2], usize), DecodeError> {
        self.decode_many::<T, 2>(input)
    }

    /// Decodes four adjacent values.
    #[inline]
    pub fn decode_four<T: Word>(self, input: &[u8]) -> Result<([T; 4], usize), DecodeError> {
        self.decode_many::<T, 4>(input)
    }

    /// Decodes eight adjacent values.
    #[inline]
    pub fn decode_eight<T: Word>(self, input: &[u8]) -> Result<([T; 8], usize), DecodeError> {
        self.decode_many::<T, 8>(input)
    }

    fn encode_many<T: Word, const N: usize>(
        self,
        values: &[T; N],
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        let r = match self.k {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: BMI2 present (constructors).
            Kernel::Bmi2 => unsafe { x86::bmi2::encode_many::<T, N>(values, out) },
            _ => scalar::encode_many::<T, N>(values, out),
        };
        r.ok_or_else(|| too_small(values.iter().map(|&v| encoded_len(v)).sum(), out.len()))
    }

    /// Encodes four values one after another at the start of `out`; returns
    /// the bytes written. `out` needs the sum of their [`encoded_len`]s;
    /// bytes past the encoding may be overwritten. On error `out` may hold
    /// part of the encoding.
    #[inline]
    pub fn encode_four<T: Word>(self, vals: &[T; 4], out: &mut [u8]) -> Result<usize, EncodeError> {
        self.encode_many::<T, 4>(vals, out)
    }

    /// Encodes eight values (as [`encode_four`](Self::encode_four)).
    #[inline]
    pub fn encode_eight<T: Word>(
        self,
        vals: &[T; 8],
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        self.encode_many::<T, 8>(vals, out)
    }
}

/// The length of `v`'s encoding in bytes (1 ..= [`Word::MAX_BYTES`]).
#[inline]
pub fn encoded_len<T: Word>(v: T) -> usize {
    scalar::encoded_len(v.to_u64())
}

/// Decodes the value at the start of `input` (any length; see
/// [`Varint::decode`]) with code inlined into the caller: the scalar
/// kernel's word algorithm (with `pext` when the build enables BMI2). For
/// one value per call this beats a run-time-chosen kernel, which costs a
/// call per value while the length, not the bit compaction, is what limits
/// a decoding loop (measured in `intcodec bench --suite varint`).
///
/// ```
/// assert_eq!(intcodec::varint::decode::<u32>(&[0xAC, 0x02])?, (300, 2));
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[inline]
pub fn decode<T: Word>(input: &[u8]) -> Result<(T, usize), DecodeError> {
    inline::decode::<T>(input).map_err(single)
}

/// Decodes the value at the start of `*input` and advances `*input` past it
/// (left as it was on error); inlined as [`decode`].
#[inline]
pub fn read<T: Word>(input: &mut &[u8]) -> Result<T, DecodeError> {
    let (v, len) = inline::decode::<T>(input).map_err(single)?;
    *input = input.get(len..).unwrap_or_default();
    Ok(v)
}

/// Decodes a zigzag-coded signed value; inlined as [`decode`].
#[inline]
pub fn decode_zigzag<S: Signed>(input: &[u8]) -> Result<(S, usize), DecodeError> {
    decode::<S::Unsigned>(input).map(|(u, len)| (S::unzigzag(u), len))
}

/// [`Varint::decode_unchecked`], inlined as [`decode`].
///
/// # Safety
/// `input.len() >= PADDING` (16). See [`Varint::decode_unchecked`].
#[inline]
pub unsafe fn decode_unchecked<T: Word>(input: &[u8]) -> (T, usize) {
    debug_assert!(input.len() >= PADDING);
    // SAFETY: 16 readable bytes (caller).
    unsafe { unchecked::decode::<inline::Ops, T>(input) }
}

/// [`Varint::encode`], inlined (the scalar kernel's code; `pdep` when the
/// build enables BMI2). To encode many values, a [`Varint`] made once and
/// used in the loop reaches the run-time BMI2 kernel, which was faster here
/// (`intcodec bench --suite varint`).
#[inline]
pub fn encode<T: Word>(v: T) -> ([u8; 16], usize) {
    scalar::encode_with::<inline::Ops, T>(v)
}

/// [`Varint::encode_zigzag`], inlined as [`encode`].
#[inline]
pub fn encode_zigzag<S: Signed>(v: S) -> ([u8; 16], usize) {
    encode(v.zigzag())
}

/// [`Varint::encode_to_slice`], inlined as [`encode`].
#[inline]
pub fn encode_to_slice<T: Word>(v: T, out: &mut [u8]) -> Result<usize, EncodeError> {
    scalar::encode_to_slice_with::<inline::Ops, T>(v, out)
        .ok_or_else(|| too_small(encoded_len(v), out.len()))
}

/// Two or four values: u8 and u16 through a call to the SSSE3 kernel's
/// table path where the CPU has it (one table lookup instead of a scan
/// per value, worth the call: measured in `intcodec bench --suite
/// varint`), else inlined as [`decode`].
#[inline(always)]
fn decode_few<T: Word, const N: usize>(input: &[u8]) -> Result<([T; N], usize), DecodeError> {
    #[cfg(target_arch = "x86_64")]
    if x86::ssse3::small_many::<T, N>() && state() & SSSE3_ON != 0 {
        // SAFETY: SSSE3 present (`SSSE3_ON`).
        let (r, len) = unsafe { x86::ssse3::many_small::<T, N>(input) };
        if len != 0 {
            return Ok((x86::ssse3::small_values(r), len));
        }
    }
    scalar::decode_many_with::<inline::Ops, T, N>(input).map_err(many_err)
}

/// [`Varint::decode_two`]: u8 and u16 with the SSSE3 kernel where the CPU
/// has it, otherwise inlined as [`decode`].
#[inline]
pub fn decode_two<T: Word>(input: &[u8]) -> Result<([T; 2], usize), DecodeError> {
    decode_few::<T, 2>(input)
}

/// [`Varint::decode_four`], as [`decode_two`].
#[inline]
pub fn decode_four<T: Word>(input: &[u8]) -> Result<([T; 4], usize), DecodeError> {
    decode_few::<T, 4>(input)
}

/// [`Varint::decode_eight`], inlined as [`decode`].
#[inline]
pub fn decode_eight<T: Word>(input: &[u8]) -> Result<([T; 8], usize), DecodeError> {
    // u8 has a loop-free BMI2 path, worth a call for eight values (not
    // for two or four: measured).
    #[cfg(target_arch = "x86_64")]
    if T::MAX_BYTES == 2 && best() == Kernel::Bmi2 {
        return Varint { k: Kernel::Bmi2 }.decode_eight(input);
    }
    scalar::decode_many_with::<inline::Ops, T, 8>(input).map_err(many_err)
}

/// [`Varint::encode_four`] with the best kernel.
#[inline]
pub fn encode_four<T: Word>(values: &[T; 4], out: &mut [u8]) -> Result<usize, EncodeError> {
    Varint::new().encode_four(values, out)
}

/// [`Varint::encode_eight`] with the best kernel.
#[inline]
pub fn encode_eight<T: Word>(values: &[T; 8], out: &mut [u8]) -> Result<usize, EncodeError> {
    Varint::new().encode_eight(values, out)
}

/// The code the inlined free functions use: `pext` when the build has
/// BMI2 enabled, else mask and shift.
mod inline {
    use super::scalar;
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    use super::scalar::Bits;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    use super::scalar::Portable;
    use super::Word;
    use crate::error::DecodeErrorKind;

    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    pub(crate) struct Ops;
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    impl Bits for Ops {
        #[inline(always)]
        fn compact(x: u64, _bytes: usize) -> u64 {
            // SAFETY: BMI2 is enabled for the whole build (cfg above).
            unsafe { core::arch::x86_64::_pext_u64(x, 0x7F7F_7F7F_7F7F_7F7F) }
        }
        #[inline(always)]
        fn spread(v: u64, _bytes: usize) -> u64 {
            // SAFETY: as in `compact`.
            unsafe { core::arch::x86_64::_pdep_u64(v, 0x7F7F_7F7F_7F7F_7F7F) }
        }
        #[inline(always)]
        fn gather(x: u64) -> u64 {
            // SAFETY: as in `compact`.
            unsafe { core::arch::x86_64::_pext_u64(x, 0x8080_8080_8080_8080) }
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    pub(crate) type Ops = Portable;

    #[inline(always)]
    pub(super) fn decode<T: Word>(input: &[u8]) -> Result<(T, usize), DecodeErrorKind> {
        scalar::decode_with::<Ops, T>(input)
    }
}

/// The unchecked word decoder shared by the scalar and BMI2 kernels.
pub(crate) mod unchecked {
    use super::scalar::{from_words, Bits};
    use super::Word;

    /// # Safety
    /// `input.len() >= 16`.
    #[inline(always)]
    pub(crate) unsafe fn decode<B: Bits, T: Word>(input: &[u8]) -> (T, usize) {
        let p = input.as_ptr();
        // SAFETY: 8 <= 16 readable bytes (caller).
        let w = unsafe { p.cast::<u64>().read_unaligned() };
        let hi = if T::MAX_BYTES > 8 {
            // SAFETY: bytes 8..10 of 16 readable (caller).
            unsafe { p.wrapping_add(8).cast::<u16>().read_unaligned() }
        } else {
            0x8080
        };
        let (v, len, _) = from_words::<B, T>(w, hi);
        (T::from_u64(v), len)
    }
}

#[cfg(test)]
mod tests;
