//! The BP128 families in the `postings` suite: intcodec's BP128 (every
//! kernel, 4x and 8x layouts; `decode_delta` = D1, `bitpacking`'s sorted
//! mode) and the lane-delta variant ("d4"), against the `bitpacking` crate's
//! `BitPacker4x` / `BitPacker8x` (`decompress`, `decompress_sorted`).
//!
//! `bitpacking` has only a block API; the peer here writes the same array
//! format as ours (a width byte per block, the crate's blocks, a LEB128
//! tail), so both encode to the same bytes (checked by the tests) and decode
//! the same streams; only the block kernels differ.

use crate::codec::Codec;
use intcodec::bp128::{Bp128, DeltaMode, Layout};
use intcodec::{IntCodec, KernelChoice};

/// Family names.
pub const FAMILY_4X: &str = "bp128";
/// The 8-lane layout.
pub const FAMILY_8X: &str = "bp128-8x";
/// The lane-delta ("d4") variant against `decompress_sorted`.
pub const FAMILY_D4: &str = "bp128-d4";

fn max_len(codec: &Bp128, n: usize) -> usize {
    codec.max_compressed_len(n).expect("chunk sizes are small") + 16
}

/// intcodec's BP128 with one forced kernel; `decode_delta` uses the
/// codec's delta mode.
#[derive(Clone, Copy, Debug)]
pub struct Ours {
    codec: Bp128,
    default: bool,
}

impl Ours {
    /// Every kernel this CPU may run, for `layout`, D1 delta.
    pub fn all(layout: Layout) -> Vec<Ours> {
        let best = Bp128::new(layout).isa();
        Bp128::new(layout)
            .all_kernels()
            .into_iter()
            .map(|codec| Ours {
                codec,
                default: codec.isa() == best,
            })
            .collect()
    }

    /// The default 4x kernel with the lane delta.
    pub fn d4() -> Ours {
        Ours {
            codec: Bp128::new(Layout::Lanes4).with_delta(DeltaMode::Lane),
            default: true,
        }
    }
}

impl Codec for Ours {
    fn family(&self) -> &'static str {
        match (self.codec.delta_mode(), self.codec.layout()) {
            (DeltaMode::Lane, _) => FAMILY_D4,
            (_, Layout::Lanes4) => FAMILY_4X,
            (_, Layout::Lanes8) => FAMILY_8X,
        }
    }
    fn name(&self) -> String {
        self.family().to_string()
    }
    fn kernel(&self) -> String {
        self.codec.isa().name().to_string()
    }
    fn is_peer(&self) -> bool {
        false
    }
    fn is_default(&self) -> bool {
        self.default
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        max_len(&self.codec, n)
    }
    #[inline]
    fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String> {
        self.codec.encode(values, out).map_err(|e| e.to_string())
    }
    #[inline]
    fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> Result<usize, String> {
        self.codec
            .encode_delta(values, prev, out)
            .map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, String> {
        self.codec.decode(input, n, out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode_delta(
        &self,
        input: &[u8],
        n: usize,
        prev: u32,
        out: &mut [u32],
    ) -> Result<usize, String> {
        self.codec
            .decode_delta(input, n, prev, out)
            .map_err(|e| e.to_string())
    }
}

/// LEB128 of `v` at `out[pos..]`; the next position.
#[inline]
pub(crate) fn leb_put(out: &mut [u8], mut pos: usize, mut v: u32) -> usize {
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
pub(crate) fn leb_get(input: &[u8], mut pos: usize) -> Result<(u32, usize), String> {
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

/// The `bitpacking` crate as a peer (see the module docs).
#[cfg(feature = "peer-bitpacking")]
pub mod peer {
    use super::*;
    use bitpacking::{BitPacker, BitPacker4x, BitPacker8x};

    /// `BitPacker4x` or `BitPacker8x` in our array format.
    #[derive(Clone, Copy)]
    pub struct Peer<P: BitPacker> {
        p: P,
        family: &'static str,
        name: &'static str,
    }

    /// The 4x peer, for `family` (`bp128` or `bp128-d4`).
    pub fn four(family: &'static str) -> Peer<BitPacker4x> {
        Peer {
            p: BitPacker4x::new(),
            family,
            name: "peer:bitpacking-4x",
        }
    }

    /// The 8x peer.
    pub fn eight() -> Peer<BitPacker8x> {
        Peer {
            p: BitPacker8x::new(),
            family: FAMILY_8X,
            name: "peer:bitpacking-8x",
        }
    }

    impl<P: BitPacker> Peer<P> {
        /// Encodes (sorted: `compress_sorted` chained from `prev`).
        #[inline]
        pub fn enc(&self, values: &[u32], sorted: bool, prev: u32, out: &mut [u8]) -> usize {
            let bl = P::BLOCK_LEN;
            let m = values.len() / bl;
            let mut pos = m;
            let mut init = prev;
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

        /// Decodes `out.len()` values.
        #[inline]
        pub fn dec(
            &self,
            input: &[u8],
            sorted: bool,
            prev: u32,
            out: &mut [u32],
        ) -> Result<usize, String> {
            let bl = P::BLOCK_LEN;
            let m = out.len() / bl;
            let widths = input.get(..m).ok_or("truncated widths")?;
            let mut pos = m;
            let mut init = prev;
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
        fn family(&self) -> &'static str {
            self.family
        }
        fn name(&self) -> String {
            self.name.to_string()
        }
        fn kernel(&self) -> String {
            if P::BLOCK_LEN == 128 { "sse3" } else { "avx2" }.to_string()
        }
        fn is_peer(&self) -> bool {
            true
        }
        fn is_default(&self) -> bool {
            false
        }
        fn max_encoded_len(&self, n: usize) -> usize {
            let layout = if P::BLOCK_LEN == 128 {
                Layout::Lanes4
            } else {
                Layout::Lanes8
            };
            max_len(&Bp128::new(layout), n)
        }
        fn encode(&self, values: &[u32], out: &mut [u8]) -> Result<usize, String> {
            Ok(self.enc(values, false, 0, out))
        }
        fn encode_delta(&self, values: &[u32], prev: u32, out: &mut [u8]) -> Result<usize, String> {
            Ok(self.enc(values, true, prev, out))
        }
        fn decode(&self, input: &[u8], n: usize, out: &mut [u32]) -> Result<usize, String> {
            self.dec(input, false, 0, &mut out[..n])
        }
        fn decode_delta(
            &self,
            input: &[u8],
            n: usize,
            prev: u32,
            out: &mut [u32],
        ) -> Result<usize, String> {
            self.dec(input, true, prev, &mut out[..n])
        }
    }
}

/// Ours (every kernel, both layouts) and the peers. The lane-delta
/// variant is measured in the `keys` suite (`Ours::d4`).
pub fn contenders() -> Vec<Box<dyn Codec>> {
    let mut all: Vec<Box<dyn Codec>> = Vec::new();
    for o in Ours::all(Layout::Lanes4) {
        all.push(Box::new(o));
    }
    #[cfg(feature = "peer-bitpacking")]
    all.push(Box::new(peer::four(FAMILY_4X)));
    for o in Ours::all(Layout::Lanes8) {
        all.push(Box::new(o));
    }
    #[cfg(feature = "peer-bitpacking")]
    all.push(Box::new(peer::eight()));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ours_and_peers_write_the_same_bytes() {
        let mut acc = 0u32;
        let ids: Vec<u32> = (0..1000u32)
            .map(|i| {
                acc += i.wrapping_mul(2_654_435_761) >> 22;
                acc
            })
            .collect();
        let cs = contenders();
        for family in [FAMILY_4X, FAMILY_8X] {
            let mut seen: Option<(Vec<u8>, Vec<u8>)> = None;
            for c in cs.iter().filter(|c| c.family() == family) {
                let mut out = vec![0u8; c.max_encoded_len(ids.len())];
                let w = c.encode(&ids, &mut out).unwrap();
                let plain = out[..w].to_vec();
                let w = c.encode_delta(&ids, 3, &mut out).unwrap();
                let delta = out[..w].to_vec();
                let mut back = vec![0u32; ids.len()];
                c.decode_delta(&delta, ids.len(), 3, &mut back).unwrap();
                assert_eq!(back, ids, "{} {}", c.name(), c.kernel());
                c.decode(&plain, ids.len(), &mut back).unwrap();
                assert_eq!(back, ids, "{} {}", c.name(), c.kernel());
                match &seen {
                    None => seen = Some((plain, delta)),
                    Some((p, d)) => {
                        assert_eq!(&plain, p, "{} {}", c.name(), c.kernel());
                        assert_eq!(&delta, d, "{} {}", c.name(), c.kernel());
                    }
                }
            }
        }
    }
}
