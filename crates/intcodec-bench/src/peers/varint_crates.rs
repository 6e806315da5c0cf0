//! The Rust varint crates as VByte peers (feature `peer-varint`): prost,
//! integer-encoding, leb128, varint-simd, unsigned-varint.
//!
//! The peers decode and encode one value per call, in a loop over the chunk
//! (the way their APIs are meant to be used for arrays; `varint-simd` is
//! built without `-C target-feature=+ssse3`, so only its single-value
//! `decode`/`encode_to_slice` exist, see below). None of them has a delta
//! mode: their `decode_delta` adds each decoded gap to the running id in the
//! same loop (a fused scalar prefix sum, as a user would write it), and
//! `encode_delta` subtracts before encoding. All write the same bytes as
//! ours (checked by the tests).
//!
//! `varint-simd` compiles its multi-value decoders (`decode_two`, `_four`,
//! `_eight`) only when SSSE3 is enabled at compile time for the whole build;
//! doing that would also change how our own scalar code and the other peers
//! are compiled, so the benchmark uses its always-available single-value
//! `decode` (64-bit word tricks, SSE2) in a loop, as the issue names it.

use super::shared::room;
use crate::contenders::vbyte::{max_len, FAMILY};
use crate::measure::{ByteLen, Codec, Label};

/// One peer library: decode or encode one value at the front of a slice.
pub trait Lib {
    /// Codec column (`peer:<crate>`).
    const NAME: &'static str;
    /// Kernel column.
    const KERNEL: &'static str;
    /// The value at the front of `input` and its length.
    fn get(input: &[u8]) -> Result<(u32, usize), String>;
    /// Writes `v` at the front of `out`; returns its length.
    fn put(v: u32, out: &mut [u8]) -> usize;
}

/// A [`Lib`] as a benchmark codec.
#[derive(Clone, Copy, Debug, Default)]
pub struct Peer<L>(core::marker::PhantomData<L>);

#[inline(always)]
fn decode_values<L: Lib, const DELTA: bool>(
    input: &[u8],
    n: usize,
    mut prev: u32,
    out: &mut [u32],
) -> ByteLen {
    let out = room(L::NAME, out, n)?;
    let mut pos = 0;
    for slot in out {
        let (v, len) = L::get(input.get(pos..).unwrap_or_default())?;
        pos += len;
        *slot = if DELTA {
            prev = prev.wrapping_add(v);
            prev
        } else {
            v
        };
    }
    Ok(pos)
}

#[inline(always)]
fn encode_values<L: Lib, const DELTA: bool>(
    values: &[u32],
    mut prev: u32,
    out: &mut [u8],
) -> ByteLen {
    // Checked, but the crate writes into all of `out` (as a caller would give it).
    room(L::NAME, out, max_len(values.len()))?;
    let mut pos = 0;
    for &x in values {
        let v = if DELTA {
            let d = x.wrapping_sub(prev);
            prev = x;
            d
        } else {
            x
        };
        pos += L::put(v, &mut out[pos..]);
    }
    Ok(pos)
}

/// What `read` reads at the front of `input`, through a cursor it moves
/// past what it reads, and the bytes it took: for the crates that read from
/// a slice they advance (here and in the `varint` suite).
#[inline(always)]
pub(crate) fn read_counted<T, E>(
    input: &[u8],
    read: impl FnOnce(&mut &[u8]) -> Result<T, E>,
) -> Result<(T, usize), E> {
    let mut buf = input;
    let v = read(&mut buf)?;
    Ok((v, input.len() - buf.len()))
}

/// The bytes `write` writes at the front of `out`, through a cursor it
/// moves past what it writes (prost's `encode_varint`, here and in the
/// `varint` suite).
#[inline(always)]
pub(crate) fn write_counted(out: &mut [u8], write: impl FnOnce(&mut &mut [u8])) -> usize {
    let before = out.len();
    let mut buf = out;
    write(&mut buf);
    before - buf.len()
}

impl<L: Lib> Codec for Peer<L> {
    fn label(&self) -> Label {
        Label::new(FAMILY, L::NAME, L::KERNEL)
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        max_len(n)
    }
    #[inline]
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
        match delta {
            None => encode_values::<L, false>(values, 0, out),
            Some(prev) => encode_values::<L, true>(values, prev, out),
        }
    }
    #[inline]
    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        match delta {
            None => decode_values::<L, false>(input, n, 0, out),
            Some(prev) => decode_values::<L, true>(input, n, prev, out),
        }
    }
}

/// Declares each peer library: a unit struct implementing [`Lib`] (codec and
/// kernel columns, the `get` and `put` bodies, inlined into the loops
/// above) and its benchmark codec, `Peer<Lib>`.
macro_rules! libs {
    ($(
        $(#[$doc:meta])*
        $lib:ident as $codec:ident ($name:literal, $kernel:literal)
        get($input:ident) $get:block
        put($v:ident, $out:ident) $put:block
    )*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $lib;
        impl Lib for $lib {
            const NAME: &'static str = $name;
            const KERNEL: &'static str = $kernel;
            #[inline(always)]
            fn get($input: &[u8]) -> Result<(u32, usize), String> $get
            #[inline(always)]
            fn put($v: u32, $out: &mut [u8]) -> usize $put
        }
        #[doc = concat!("[`", stringify!($lib), "`] as a benchmark codec.")]
        pub type $codec = Peer<$lib>;
    )*};
}

libs! {
    /// `prost::encoding::{decode_varint, encode_varint}` (u64; a u32 field
    /// keeps the low 32 bits, as prost's own `uint32` decoding does).
    ProstLib as Prost ("peer:prost", "rust")
    get(input) {
        read_counted(input, |buf| {
            let v = prost::encoding::decode_varint(buf).map_err(|e| format!("prost: {e}"))?;
            Ok(v as u32)
        })
    }
    put(v, out) {
        write_counted(out, |buf| prost::encoding::encode_varint(u64::from(v), buf))
    }

    /// `integer_encoding::VarInt::{decode_var, encode_var}`.
    IntegerEncodingLib as IntegerEncoding ("peer:integer-encoding", "rust")
    get(input) {
        use integer_encoding::VarInt;
        u32::decode_var(input).ok_or_else(|| "integer-encoding: bad varint".to_string())
    }
    put(v, out) {
        use integer_encoding::VarInt;
        v.encode_var(out)
    }

    /// `leb128::{read, write}::unsigned` (u64, through `std::io`).
    Leb128Lib as Leb128 ("peer:leb128", "rust")
    get(input) {
        read_counted(input, |buf| {
            let v = leb128::read::unsigned(buf).map_err(|e| format!("leb128: {e}"))?;
            u32::try_from(v).map_err(|_| "leb128: value exceeds u32".to_string())
        })
    }
    put(v, out) {
        let mut out = out;
        leb128::write::unsigned(&mut out, u64::from(v)).expect("room checked")
    }

    /// `varint_simd::{decode, encode_to_slice}` (single values; see the
    /// module docs on SSSE3).
    VarintSimdLib as VarintSimd ("peer:varint-simd", "rust-sse2")
    get(input) {
        varint_simd::decode::<u32>(input).map_err(|e| format!("varint-simd: {e:?}"))
    }
    put(v, out) {
        usize::from(varint_simd::encode_to_slice::<u32>(v, out))
    }

    /// `unsigned_varint::{decode, encode}::u32`.
    UnsignedVarintLib as UnsignedVarint ("peer:unsigned-varint", "rust")
    get(input) {
        let (v, rest) =
            unsigned_varint::decode::u32(input).map_err(|e| format!("unsigned-varint: {e}"))?;
        Ok((v, input.len() - rest.len()))
    }
    put(v, out) {
        let mut tmp = unsigned_varint::encode::u32_buffer();
        let bytes = unsigned_varint::encode::u32(v, &mut tmp);
        out[..bytes.len()].copy_from_slice(bytes);
        bytes.len()
    }
}
