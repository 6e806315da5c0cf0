//! The `bitpacking` crate (`BitPacker4x` / `BitPacker8x`) as the BP128 peer
//! (feature `peer-bitpacking`).
//!
//! `bitpacking` has only a block API; the peer here writes the same array
//! format as ours (a width byte per block, the crate's blocks, a LEB128
//! tail), so both encode to the same bytes (checked by the tests) and decode
//! the same streams; only the block kernels differ.
//!
//! `BitPacker8x::decompress_sorted` (0.9.3) is slow on its own, not through
//! this adapter: its AVX2 prefix sum (`integrate_delta` in the crate's
//! `bitpacker8x.rs`) is a function without `#[target_feature(enable =
//! "avx2")]`, so the AVX2 intrinsics it calls are not inlined: the release
//! binary calls ten of them per 8 ints (`objdump -d`, calls to
//! `core_arch::x86::avx2::_mm256_*`). A standalone program calling the crate
//! directly measured 18.8 ns/int for 8x sorted decode against 0.15 ns/int
//! unsorted and 0.49 ns/int for 4x sorted (2026-11-26). The huge bp128-8x D1
//! ratio in the main job is that defect of the crate's, not of ours.

use crate::contenders::bp128::{max_len, FAMILY_8X};
use crate::measure::{ByteLen, Codec, Label};
use intcodec::bp128::Layout;

use bitpacking::{BitPacker, BitPacker4x, BitPacker8x};

/// `BitPacker4x` or `BitPacker8x` in our array format.
#[derive(Clone, Copy)]
pub struct Peer<P: BitPacker> {
    p: P,
    family: &'static str,
    name: &'static str,
    /// Measured in a family of another layout (speed only, not bytes).
    other_layout: bool,
}

/// The 4x peer, for `family` (`bp128` or `bp128-d4`).
pub fn four(family: &'static str) -> Peer<BitPacker4x> {
    Peer {
        p: BitPacker4x::new(),
        family,
        name: "peer:bitpacking-4x",
        other_layout: false,
    }
}

/// The 8x peer.
pub fn eight() -> Peer<BitPacker8x> {
    Peer {
        p: BitPacker8x::new(),
        family: FAMILY_8X,
        name: "peer:bitpacking-8x",
        other_layout: false,
    }
}

impl<P: BitPacker> Peer<P> {
    /// The same peer in `family`, a layout it does not write (the 16x
    /// layout, which `bitpacking` 0.9.3 lacks): compared for speed on the
    /// same values, in its own layout.
    pub fn in_family(self, family: &'static str) -> Self {
        Peer {
            family,
            other_layout: true,
            ..self
        }
    }
}

impl<P: BitPacker> Peer<P> {
    /// Encodes `values`: plain when `delta` is `None`, sorted
    /// (`compress_sorted` chained from `prev`) when it is `Some(prev)`.
    #[inline]
    pub fn enc(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> usize {
        let bl = P::BLOCK_LEN;
        let m = values.len() / bl;
        let mut pos = m;
        let (sorted, mut init) = (delta.is_some(), delta.unwrap_or(0));
        for (j, b) in values.chunks_exact(bl).enumerate() {
            let bits = if sorted {
                self.p.num_bits_sorted(init, b)
            } else {
                self.p.num_bits(b)
            };
            out[j] = bits;
            pos += if sorted {
                self.p.compress_sorted(init, b, &mut out[pos..], bits)
            } else {
                self.p.compress(b, &mut out[pos..], bits)
            };
            init = b[bl - 1];
        }
        for &v in &values[m * bl..] {
            let d = if sorted { v.wrapping_sub(init) } else { v };
            pos = leb_put(out, pos, d);
            init = v;
        }
        pos
    }

    /// Decodes `out.len()` values: plain when `delta` is `None`, sorted
    /// (`decompress_sorted` from `prev`) when it is `Some(prev)`.
    #[inline]
    pub fn dec(&self, input: &[u8], delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        let bl = P::BLOCK_LEN;
        let m = out.len() / bl;
        let widths = input.get(..m).ok_or("truncated widths")?;
        let mut pos = m;
        let (sorted, mut init) = (delta.is_some(), delta.unwrap_or(0));
        for (&bits, dst) in widths.iter().zip(out.chunks_exact_mut(bl)) {
            let len = bits as usize * bl / 8;
            if bits > 32 || input.len() - pos < len {
                return Err("bad block".to_string());
            }
            let src = &input[pos..pos + len];
            if sorted {
                self.p.decompress_sorted(init, src, dst, bits);
            } else {
                self.p.decompress(src, dst, bits);
            }
            pos += len;
            init = dst[bl - 1];
        }
        for o in &mut out[m * bl..] {
            let (v, next) = leb_get(input, pos)?;
            pos = next;
            *o = if sorted { init.wrapping_add(v) } else { v };
            init = *o;
        }
        Ok(pos)
    }
}

impl<P: BitPacker> Codec for Peer<P> {
    fn label(&self) -> Label {
        let kernel = if P::BLOCK_LEN == 128 { "sse3" } else { "avx2" };
        Label::new(self.family, self.name, kernel)
    }
    fn own_format(&self) -> bool {
        self.other_layout
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        let layout = if P::BLOCK_LEN == 128 {
            Layout::Lanes4
        } else {
            Layout::Lanes8
        };
        max_len(layout, n)
    }
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
        Ok(self.enc(values, delta, out))
    }
    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        self.dec(input, delta, &mut out[..n])
    }
}

/// LEB128 of `v` at `out[pos..]`; the next position.
#[inline]
fn leb_put(out: &mut [u8], mut pos: usize, mut v: u32) -> usize {
    while v >= 0x80 {
        out[pos] = v as u8 | 0x80;
        v >>= 7;
        pos += 1;
    }
    out[pos] = v as u8;
    pos + 1
}

/// LEB128 at `input[pos..]`: the value and the next position.
#[inline]
fn leb_get(input: &[u8], mut pos: usize) -> Result<(u32, usize), String> {
    let mut v = 0u32;
    for k in 0..5 {
        let b = *input.get(pos).ok_or("truncated tail")?;
        pos += 1;
        v |= u32::from(b & 0x7F) << (7 * k);
        if b < 0x80 {
            return Ok((v, pos));
        }
    }
    Err("overlong tail value".to_string())
}
