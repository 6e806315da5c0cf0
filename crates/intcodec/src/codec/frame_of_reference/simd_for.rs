//! SIMD-FOR: FOR in the 4-lane interleaved layout (see the module docs for
//! the format). Blocks are packed and unpacked by the BP128 4x kernels with
//! `min` subtracted / added in the same pass; `select` reads one or two u32
//! of the packed block (O(1)); `lower_bound` is a binary search over it.

use super::{
    check_bomb, check_encoded, check_stream, frame, framed, get_stream, header, lower_bound_value,
    max_len, max_values, no_delta, put_header, put_stream, stream_len, HEADER,
};
use crate::codec::bp128::{call_unpack, kcall, registry, splat, Kernels, Layout, Mode};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::traits::{IntCodec, KernelChoice, SortedCodec, SortedSet};
use alloc::vec::Vec;

const BL: usize = 128;

/// The SIMD-FOR codec bound to one kernel (the BP128 4x kernel of an ISA);
/// no delta mode (`prev` is ignored, the `*_delta` methods return the
/// `Unsupported` errors).
///
/// ```
/// use intcodec::frame_of_reference::SimdFor;
/// use intcodec::{IntCodec, KernelChoice};
///
/// let codec = SimdFor::best();
/// let keys: Vec<u32> = (0..300).map(|i| 5000 + 2 * i).collect();
/// let bytes = codec.encode_to_vec(&keys);
/// // header, two blocks of 128 in 10 bits (598 < 2^10), 44 tail values
/// assert_eq!(bytes.len(), 5 + 2 * 16 * 10 + (44 * 10 + 7) / 8);
/// assert_eq!(codec.decode_to_vec(&bytes, 300)?, keys);
/// # Ok::<(), intcodec::DecodeError>(())
/// ```
#[derive(Clone, Copy)]
pub struct SimdFor {
    k: &'static Kernels,
}

crate::codec::kernel_handle!(
    SimdFor {},
    best: SimdFor { k: registry(Layout::Lanes4).best() },
    registry: |_| registry(Layout::Lanes4)
);

impl IntCodec for SimdFor {
    fn name(&self) -> &'static str {
        "simd-for"
    }

    crate::codec::kernel_info!();
    super::for_common!();

    fn compressed_len(&self, values: &[u32]) -> usize {
        self.len_for(values.len(), frame(values).1)
    }

    fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, EncodeError> {
        let len = self.compressed_len(values);
        let (min, b) = put_header(values, len, out)?;
        let blen = 16 * b as usize;
        let mut pos = HEADER;
        let (blocks, tail) = values.as_chunks::<BL>();
        for block in blocks {
            kcall!(
                self.k,
                pack(
                    block,
                    &mut out[pos..pos + blen],
                    b,
                    Mode::Offset,
                    &splat(min),
                )
            );
            pos += blen;
        }
        put_stream(tail, min, b, &mut out[pos..len]);
        Ok(len)
    }

    /// O(1).
    fn encoded_len(&self, input: &[u8], n: usize) -> Result<usize, DecodeError> {
        let (_, b) = header(input)?;
        let avail = input.len() - HEADER;
        let m = n / BL;
        let blen = 16 * b as usize;
        let blocks = match m.checked_mul(blen) {
            Some(x) if x <= avail => x,
            _ => {
                let j = avail / blen; // b > 0 here: otherwise the product is 0
                return Err(DecodeError::new(
                    DecodeErrorKind::Truncated,
                    HEADER + j * blen,
                    Some(j * BL),
                ));
            }
        };
        let tail = check_stream(HEADER + blocks, avail - blocks, n % BL, b, m * BL)?;
        Ok(HEADER + blocks + tail)
    }

    fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, DecodeError> {
        crate::codec::check_out(n, out.len())?;
        let (len, min, b) = framed(self.encoded_len(input, n), input)?;
        let blen = 16 * b as usize;
        let mut pos = HEADER;
        let (blocks, tail) = out[..n].as_chunks_mut::<BL>();
        for block in blocks {
            call_unpack(
                self.k,
                &input[pos..pos + blen],
                block,
                b,
                Mode::Offset,
                &splat(min),
            );
            pos += blen;
        }
        for (i, o) in tail.iter_mut().enumerate() {
            *o = get_stream(&input[pos..len], b, i).wrapping_add(min);
        }
        Ok(len)
    }
}

impl SimdFor {
    /// The length of the stream of `n` values of `b` bits: `BitPacker4x`
    /// blocks of 128 (16 bytes a bit), then the rest packed.
    fn len_for(&self, n: usize, b: u8) -> usize {
        HEADER + n / BL * 16 * b as usize + stream_len(n % BL, b).expect("small")
    }

    /// The checked stream's values by index (`for_sorted!`).
    fn values_of<'a>(
        &self,
        input: &'a [u8],
        n: usize,
    ) -> Result<impl Fn(usize) -> u32 + 'a, DecodeError> {
        self.encoded_len(input, n)?;
        let (min, b) = header(input)?;
        Ok(move |i| get(input, n, min, b, i))
    }
}

super::for_sorted!(
    /// On a SIMD-FOR stream (`prev` ignored): `select` reads one or two u32
    /// of the packed block (O(1)), `lower_bound` is a binary search over it,
    /// `insert` decode + re-encode. The header and the stream's length are
    /// checked first (O(1)).
    SimdFor
);

/// Value `i < n` of the valid SIMD-FOR stream `bytes` of `n` values with
/// header `(min, b)`.
#[inline(always)]
fn get(bytes: &[u8], n: usize, min: u32, b8: u8, i: usize) -> u32 {
    let b = b8 as usize;
    let m = n / BL;
    let (j, t) = (i / BL, i % BL);
    let v = if j < m {
        let base = HEADER + j * 16 * b;
        let (g, l) = (t / 4, t % 4);
        let o = g * b;
        let (w, s) = (o / 32, o % 32);
        let rd = |w: usize| {
            let p = base + 16 * w + 4 * l;
            let x = &bytes[p..p + 4];
            u64::from(u32::from_le_bytes([x[0], x[1], x[2], x[3]]))
        };
        if b == 0 {
            0
        } else {
            let mut v = rd(w) >> s;
            if s + b > 32 {
                v |= rd(w + 1) << (32 - s);
            }
            let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
            (v as u32) & mask
        }
    } else {
        get_stream(&bytes[HEADER + m * 16 * b..], b8, i - m * BL)
    };
    v.wrapping_add(min)
}

/// A SIMD-FOR array with its count, validated once: `select` O(1),
/// `lower_bound` binary search, `insert` decode + re-encode, SIMD decode.
///
/// ```
/// use intcodec::frame_of_reference::SimdForArray;
/// use intcodec::SortedSet;
///
/// let keys: Vec<u32> = (0..1000).map(|i| 3 * i + 10).collect();
/// let mut a = SimdForArray::new(&keys);
/// assert_eq!(a.select(700), Some(2110));
/// assert_eq!(a.lower_bound(2111), Some((701, 2113)));
/// assert_eq!(a.insert(11), 1);
/// assert_eq!(a.len(), 1001);
/// ```
#[derive(Clone, Debug)]
pub struct SimdForArray {
    codec: SimdFor,
    n: usize,
    min: u32,
    b: u8,
    bytes: Vec<u8>,
}

impl SimdForArray {
    /// Encodes `values` with the best kernel.
    pub fn new(values: &[u32]) -> Self {
        Self::with_codec(SimdFor::best(), values)
    }

    /// Encodes `values` with `codec`'s kernel.
    pub fn with_codec(codec: SimdFor, values: &[u32]) -> Self {
        let (min, b) = frame(values);
        SimdForArray {
            codec,
            n: values.len(),
            min,
            b,
            bytes: codec.encode_to_vec(values),
        }
    }

    /// Wraps an encoding of `n` values; `bytes` must be exactly one.
    pub fn from_encoded(codec: SimdFor, bytes: Vec<u8>, n: usize) -> Result<Self, DecodeError> {
        let (min, b) = check_encoded(&codec, &bytes, n)?;
        Ok(SimdForArray {
            codec,
            n,
            min,
            b,
            bytes,
        })
    }

    /// The encoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Decodes every value into `out[..len]` (SIMD blocks).
    pub fn decode_into(&self, out: &mut [u32]) -> Result<usize, DecodeError> {
        self.codec.decode(&self.bytes, self.n, out)
    }

    /// The codec.
    pub fn codec(&self) -> SimdFor {
        self.codec
    }

    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        get(&self.bytes, self.n, self.min, self.b, i)
    }
}

// `to_vec` decodes with the SIMD blocks.
super::packed_sorted_set!(
    SimdForArray,
    |a: &SimdForArray, v: &[u32]| SimdForArray::with_codec(a.codec, v),
    |a: &SimdForArray| {
        let mut out = alloc::vec![0u32; a.n];
        a.decode_into(&mut out).expect("validated at construction");
        out
    }
);
