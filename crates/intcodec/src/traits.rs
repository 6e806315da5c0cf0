//! The public interface every codec implements.
//!
//! - [`IntCodec`]: a codec of `u32` arrays: encode and decode, with and
//!   without delta coding, checked and `unsafe` unchecked, sizes. Object
//!   safe: the CLI, the benchmark and the C and Python bindings hold a
//!   `Box<dyn IntCodec>` from [`crate::registry`].
//! - [`KernelChoice`]: which kernel (ISA) a handle runs, for generic code
//!   that needs `Self` back (`with_isa`).
//! - [`SortedCodec`]: operations on a compressed sorted stream without
//!   decoding it whole: `select`, `lower_bound`, `insert`.
//! - [`SortedSet`]: the sorted containers (`SvbVec`, `Blocked`,
//!   `bp128::SortedArray`, `ForArray`, `SimdForArray`).
//!
//! One naming across codecs: `prev` is the value before the first one when
//! deltas are coded (`values[0] - prev` is the first delta); `n` is a value
//! count; every `decode*` returns the number of input bytes it consumed.
//!
//! A function generic over the codec:
//!
//! ```
//! use intcodec::{IntCodec, DecodeError};
//!
//! fn round_trip(codec: &dyn IntCodec, ids: &[u32]) -> Result<Vec<u32>, DecodeError> {
//!     let bytes = codec.encode_delta_to_vec(ids, 0);
//!     codec.decode_delta_to_vec(&bytes, ids.len(), 0)
//! }
//!
//! let ids = [3u32, 7, 19, 20, 1000, 1001];
//! for name in intcodec::registry::names() {
//!     let codec = intcodec::registry::by_name(name).unwrap();
//!     if codec.supports_delta() {
//!         assert_eq!(round_trip(&*codec, &ids)?, ids);
//!     }
//! }
//! # Ok::<(), DecodeError>(())
//! ```

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::isa::Isa;

/// A codec of `u32` arrays bound to one kernel and one set of format options
/// (variant, layout, delta mode): a small `Copy` handle.
///
/// Checked methods never panic, never read or write out of bounds and never
/// allocate more than the input justifies; on malformed input they return a
/// [`DecodeError`] naming the byte offset and value index.
pub trait IntCodec: fmt::Debug + Send + Sync {
    /// The codec's name as the CLI and the registry spell it
    /// (`"streamvbyte"`, `"varint-gb-lucene"`, `"bp128-8x"`, ...).
    fn name(&self) -> &'static str;

    /// The ISA of the kernel this handle runs.
    fn isa(&self) -> Isa;

    /// Every ISA this codec has a kernel for that this CPU supports and the
    /// `INTCODEC_ISA` cap allows, scalar first, best last.
    fn kernel_isas(&self) -> Vec<Isa>;

    /// The same codec (same format options) on the kernel for `isa`, or
    /// `None` when this build or CPU has none. The object-safe form of
    /// [`KernelChoice::with_isa`].
    fn with_isa_dyn(&self, isa: Isa) -> Option<Box<dyn IntCodec>>;

    /// Whether the `*_delta` methods are supported. Codecs that store a
    /// frame of reference instead (FOR, SIMD-FOR) return `false`; their
    /// `*_delta` methods then return [`EncodeError::Unsupported`] /
    /// [`DecodeErrorKind::Unsupported`].
    fn supports_delta(&self) -> bool {
        true
    }

    /// The largest encoded size of any `n` values (with or without delta),
    /// or `None` if it overflows `usize`. An output buffer this large never
    /// makes `encode` fail.
    fn max_compressed_len(&self, n: usize) -> Option<usize>;

    /// The largest `n` for which some stream of `input_len` bytes could hold
    /// `n` values. The allocating decoders refuse a larger `n` before they
    /// allocate (decompression-bomb guard).
    fn max_values(&self, input_len: usize) -> usize;

    /// The exact encoded size of `values`.
    fn compressed_len(&self, values: &[u32]) -> usize;

    /// The exact encoded size of `values` delta-coded from `prev`.
    fn compressed_len_delta(&self, values: &[u32], prev: u32) -> usize;

    /// Encodes `values` into `out`; returns the bytes written.
    fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, EncodeError>;

    /// Encodes the deltas of `values` from `prev` into `out`; returns the
    /// bytes written.
    fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8])
        -> Result<usize, EncodeError>;

    /// The byte length of the stream of `n` values at the start of `input`,
    /// validated as `decode` would.
    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError>;

    /// Decodes `n` values into `out[..n]`; returns the input bytes consumed.
    fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, DecodeError>;

    /// Decodes `n` delta-coded values (prefix sum from `prev`) into
    /// `out[..n]`; returns the input bytes consumed.
    fn decode_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, DecodeError>;

    /// Readable bytes the unchecked decoders need after the stream (their
    /// kernels load whole registers): 16 for Stream VByte, VByte and
    /// VarInt-GB, 0 for the others. The checked decoders need none.
    fn unchecked_padding(&self) -> usize {
        0
    }

    /// [`IntCodec::decode`] without validation.
    ///
    /// # Safety
    /// `input` must start with a stream of `n` values written by this codec
    /// (same format options), followed by at least
    /// [`IntCodec::unchecked_padding`] more bytes of `input`, and
    /// `out.len() >= n`.
    unsafe fn decode_unchecked(&self, input: &[u8], n: usize, out: &mut [u32]) -> usize;

    /// [`IntCodec::decode_delta`] without validation.
    ///
    /// # Safety
    /// As [`IntCodec::decode_unchecked`], for a stream written by
    /// `encode_delta`.
    unsafe fn decode_delta_unchecked(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> usize;

    /// `encode` into a new vector of the exact size.
    fn encode_to_vec(&self, values: &[u32]) -> Vec<u8> {
        let mut out = alloc::vec![0u8; self.compressed_len(values)];
        let used = self
            .encode(values, &mut out)
            .expect("compressed_len is the exact size");
        out.truncate(used);
        out
    }

    /// `encode_delta` into a new vector of the exact size.
    ///
    /// # Panics
    /// If the codec has no delta mode ([`IntCodec::supports_delta`]).
    fn encode_delta_to_vec(&self, values: &[u32], prev: u32) -> Vec<u8> {
        let mut out = alloc::vec![0u8; self.compressed_len_delta(values, prev)];
        let used = self
            .encode_delta(values, prev, &mut out)
            .expect("compressed_len_delta is the exact size");
        out.truncate(used);
        out
    }

    /// The output of the allocating decoders: `n` zeroed values, allocated
    /// only once `input` is known to be able to hold them, else the error
    /// decoding would give. By default the count is bounded by
    /// [`IntCodec::max_values`]; a codec that can check its stream's length
    /// cheaply checks that instead.
    fn alloc_decoded(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        check_count(self.max_values(input.len()), input.len(), n)?;
        Ok(alloc::vec![0u32; n])
    }

    /// `decode` into a new vector; refuses a count the input cannot hold
    /// before allocating ([`IntCodec::alloc_decoded`]).
    fn decode_to_vec(&self, input: &[u8], n: usize) -> Result<Vec<u32>, DecodeError> {
        let mut out = self.alloc_decoded(input, n)?;
        self.decode(input, n, &mut out)?;
        Ok(out)
    }

    /// `decode_delta` into a new vector; refuses a count the input cannot
    /// hold before allocating ([`IntCodec::alloc_decoded`]).
    fn decode_delta_to_vec(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
    ) -> Result<Vec<u32>, DecodeError> {
        let mut out = self.alloc_decoded(input, n)?;
        self.decode_delta(input, n, prev, &mut out)?;
        Ok(out)
    }

    /// `encode` when `prev` is `None`, `encode_delta` from `prev` when it is
    /// `Some`: for callers that choose delta coding at run time. The `*_opt`
    /// methods below are the same pairs of the other coders.
    fn encode_opt(
        &self,
        values: &[u32],
        prev: Option<u32>,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        match prev {
            None => self.encode(values, out),
            Some(p) => self.encode_delta(values, p, out),
        }
    }

    /// `decode`, or `decode_delta` from `prev`.
    fn decode_opt(
        &self,
        input: &[u8],
        n: usize,
        prev: Option<u32>,
        out: &mut [u32],
    ) -> Result<usize, DecodeError> {
        match prev {
            None => self.decode(input, n, out),
            Some(p) => self.decode_delta(input, n, p, out),
        }
    }

    /// `encode_to_vec`, or `encode_delta_to_vec` from `prev`.
    ///
    /// # Panics
    /// As [`IntCodec::encode_delta_to_vec`], when `prev` is `Some`.
    fn encode_opt_to_vec(&self, values: &[u32], prev: Option<u32>) -> Vec<u8> {
        match prev {
            None => self.encode_to_vec(values),
            Some(p) => self.encode_delta_to_vec(values, p),
        }
    }

    /// `decode_to_vec`, or `decode_delta_to_vec` from `prev`.
    fn decode_opt_to_vec(
        &self,
        input: &[u8],
        n: usize,
        prev: Option<u32>,
    ) -> Result<Vec<u32>, DecodeError> {
        match prev {
            None => self.decode_to_vec(input, n),
            Some(p) => self.decode_delta_to_vec(input, n, p),
        }
    }

    /// `decode_unchecked`, or `decode_delta_unchecked` from `prev`.
    ///
    /// # Safety
    /// As [`IntCodec::decode_unchecked`], for a stream written by
    /// `encode_opt` with the same `prev`.
    unsafe fn decode_opt_unchecked(
        &self,
        input: &[u8],
        n: usize,
        prev: Option<u32>,
        out: &mut [u32],
    ) -> usize {
        match prev {
            // SAFETY: the caller's contract, for the plain stream.
            None => unsafe { self.decode_unchecked(input, n, out) },
            // SAFETY: the caller's contract, for the delta stream.
            Some(p) => unsafe { self.decode_delta_unchecked(input, n, p, out) },
        }
    }
}

/// The allocating decoders' guard: `n` values cannot fit in `input_len`
/// bytes when `n > max`. The error is `Truncated` at the end of the input,
/// at the first value index that cannot be there.
pub(crate) fn check_count(max: usize, input_len: usize, n: usize) -> Result<(), DecodeError> {
    if n > max {
        Err(DecodeError::new(
            DecodeErrorKind::Truncated,
            input_len,
            Some(max),
        ))
    } else {
        Ok(())
    }
}

/// Kernel choice for generic code that wants `Self` back.
pub trait KernelChoice: IntCodec + Copy + Sized + 'static {
    /// The codec with its default format options on the best kernel this
    /// CPU supports (within the `INTCODEC_ISA` cap).
    fn best() -> Self;

    /// The same codec (same format options) on the kernel for `isa`, or
    /// `None` when this build or CPU has none.
    fn with_isa(&self, isa: Isa) -> Option<Self>;

    /// This codec on every enabled kernel, scalar first, best last: what the
    /// conformance tests and the benchmark iterate over.
    fn all_kernels(&self) -> Vec<Self> {
        self.kernel_isas()
            .into_iter()
            .filter_map(|isa| self.with_isa(isa))
            .collect()
    }
}

/// Operations on a compressed sorted stream: what `encode_delta` wrote for a
/// non-decreasing array (or `encode`, for codecs whose
/// [`IntCodec::supports_delta`] is `false`; `prev` is then ignored).
/// Checked like `decode`: the same errors at the same offsets.
pub trait SortedCodec: IntCodec {
    /// The value at index `i` of the `n` values, `Ok(None)` if `i >= n`.
    fn select(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        i: usize,
    ) -> Result<Option<u32>, DecodeError>;

    /// The first index whose value is `>= key`, with that value;
    /// `Ok(None)` if every value is smaller.
    fn lower_bound(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        key: u32,
    ) -> Result<Option<(usize, u32)>, DecodeError>;

    /// The exact encoded size of the non-decreasing `values` (delta-coded
    /// from `prev` when given), if the codec tells it with far less work
    /// than encoding them; `None` (the default) if not. A container that
    /// picks the shortest of several forms measures with it before it
    /// encodes. FOR and SIMD-FOR answer (the size follows from the range).
    fn sorted_len(&self, values: &[u32], prev: Option<u32>) -> Option<usize> {
        let _ = (values, prev);
        None
    }

    /// The exact encoded size of every non-decreasing run of `n >= 1`
    /// values from `first` to `last` (delta-coded from `prev` when given),
    /// if it follows from those alone; `None` (the default) if not. FOR
    /// and SIMD-FOR answer. A container that holds values in another form
    /// (a bitmap) measures the codec's stream with it without the values.
    fn sorted_len_of_range(
        &self,
        n: usize,
        first: u32,
        last: u32,
        prev: Option<u32>,
    ) -> Option<usize> {
        let _ = (n, first, last, prev);
        None
    }

    /// Inserts `value` into the sorted stream of `n` values held in `bytes`
    /// (which may be longer: bytes after the stream are kept after it);
    /// returns the index it was inserted at (after any equal values).
    ///
    /// By default the whole stream is decoded (delta-coded from `prev` when
    /// [`IntCodec::supports_delta`], else plain), `value` inserted and the
    /// values encoded again: `O(n)`. Codecs that can keep the part before
    /// the insertion point override it.
    fn insert(
        &self,
        bytes: &mut Vec<u8>,
        n: usize,
        prev: u32,
        value: u32,
    ) -> Result<usize, DecodeError> {
        let from = self.supports_delta().then_some(prev);
        let mut values = self.decode_opt_to_vec(bytes, n, from)?;
        let len = self.encoded_len(bytes, n)?;
        let at = values.partition_point(|&x| x <= value);
        values.insert(at, value);
        bytes.splice(..len, self.encode_opt_to_vec(&values, from));
        Ok(at)
    }
}

/// A compressed sorted multiset of `u32` that answers queries without
/// decoding itself whole.
pub trait SortedSet {
    /// The number of values.
    fn len(&self) -> usize;

    /// Whether there are no values.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value at index `i`, `None` if `i >= len()`.
    fn select(&self, i: usize) -> Option<u32>;

    /// The first index whose value is `>= key`, with that value.
    fn lower_bound(&self, key: u32) -> Option<(usize, u32)>;

    /// Inserts `value` (after any equal values); returns its index.
    fn insert(&mut self, value: u32) -> usize;

    /// Every value, in order.
    fn to_vec(&self) -> Vec<u32>;

    /// The bytes the compressed values take (data plus any index).
    fn compressed_bytes(&self) -> usize;
}
