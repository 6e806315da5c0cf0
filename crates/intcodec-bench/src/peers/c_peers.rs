//! The C/C++ references, compiled by build.rs from the sources their crates
//! vendor (no CMake) at -O3 -march=native, behind one C interface
//! (`peer-c/shim.cpp`), through one generic adapter, [`CPeer`]:
//!
//! | peer | family | source | stream per chunk |
//! |---|---|---|---|
//! | `peer:streamvbyte` | streamvbyte | lemire/streamvbyte (`streamvbyte-sys`) | its bytes: ours |
//! | `peer:maskedvbyte` | vbyte | FastPFor's `varintdecode.c` + `MaskedVByte` encoder | its bytes: ours (LEB128) |
//! | `peer:fastpfor-varintgb` | varint-gb | FastPFor's `VarIntGB` | own format |
//! | `peer:fastpfor-g8iu` | varint-g8iu | FastPFor's `VarIntG8IU` (feature `g8iu`) | own format |
//! | `peer:fastpfor-simdbp` | bp128 | FastPFor's `SIMDBinaryPacking` + `VariableByte` tail | own format |
//!
//! FastPFor's `IntegerCODEC` streams start with the codec's own header (a
//! value count) and are padded to 32-bit words; their decoders need the
//! compressed length, which a caller stores: here a `u32` word count before
//! each stream (4 bytes per chunk, counted in their bits per int). Their
//! bits per int are shown beside ours; speed is compared on the same values.
//!
//! Delta: lemire/streamvbyte has its own (from `prev`). FastPFor's codecs
//! have none from `prev`: as in FastPFor's own benchmarks, the gaps are
//! computed before encoding and added up after decoding with FastPFor's SIMD
//! prefix sum (`fastinverseDelta2`, in the shim); VarIntGB uses its fused
//! delta variant `VarIntGB<true>` (gaps from 0 within a chunk: the first
//! value is stored whole). FastPFor vendors MaskedVByte's decoder but not
//! its fused delta decoder (`masked_vbyte_decode_delta`).
//!
//! A timed pass is ONE call into C (the loop over chunks runs there, as a
//! native caller's would), so no peer pays a per-chunk bridge cost.

use crate::measure::{Bucket, Buffers, ByteLen, Chunk, Codec, Encoded, Label, Light, Op, CHUNK};

/// Readable bytes after a stream and writable bytes for an encoding, beyond
/// 5 bytes per value: the word count and padding, FastPFor's block headers,
/// and the decoders' read-ahead (MaskedVByte up to 64 bytes, lemire 16).
const SLACK: usize = 256;

/// Result of a failed shim call (`SIZE_MAX`).
const FAIL: usize = usize::MAX;

#[repr(C)]
#[derive(Default)]
struct CLight {
    ends: u64,
    bytes: u64,
}

extern "C" {
    fn ic_peer_has(codec: i32) -> i32;
    fn ic_peer_encode(
        codec: i32,
        input: *const u32,
        n: usize,
        delta: i32,
        prev: u32,
        out: *mut u8,
        cap: usize,
    ) -> usize;
    fn ic_peer_decode(
        codec: i32,
        input: *const u8,
        n: usize,
        delta: i32,
        prev: u32,
        out: *mut u32,
    ) -> usize;
    fn ic_peer_decode_pass(
        codec: i32,
        bytes: *const u8,
        offsets: *const usize,
        chunks: *const Chunk,
        nchunks: usize,
        delta: i32,
        light: *mut CLight,
    ) -> usize;
    fn ic_peer_encode_pass(
        codec: i32,
        values: *const u32,
        chunks: *const Chunk,
        nchunks: usize,
        delta: i32,
        scratch: *mut u8,
        cap: usize,
        light: *mut CLight,
    ) -> usize;
    fn ic_peer_short_pass(
        codec: i32,
        bytes: *const u8,
        offsets: *const usize,
        nlists: usize,
        n: usize,
        reps: usize,
        sum: *mut u64,
    ) -> usize;
}

/// lemire/streamvbyte's own C API, for development tools (the `svb_ab`
/// example) that call it directly.
#[cfg(intcodec_lemire_svb)]
pub mod lemire {
    extern "C" {
        /// `streamvbyte_encode` (streamvbyte.h).
        pub fn streamvbyte_encode(input: *const u32, n: u32, out: *mut u8) -> usize;
        /// `streamvbyte_decode` (streamvbyte.h).
        pub fn streamvbyte_decode(input: *const u8, out: *mut u32, n: u32) -> usize;
        /// `streamvbyte_delta_encode` (streamvbytedelta.h).
        pub fn streamvbyte_delta_encode(
            input: *const u32,
            n: u32,
            out: *mut u8,
            prev: u32,
        ) -> usize;
        /// `streamvbyte_delta_decode` (streamvbytedelta.h).
        pub fn streamvbyte_delta_decode(
            input: *const u8,
            out: *mut u32,
            n: u32,
            prev: u32,
        ) -> usize;
    }
}

/// One C/C++ peer: its number in the shim and how the reports name it.
#[derive(Clone, Copy, Debug)]
pub struct Desc {
    id: i32,
    family: &'static str,
    name: &'static str,
    kernel: &'static str,
    own_format: bool,
}

/// lemire/streamvbyte.
pub const LEMIRE_SVB: Desc = Desc {
    id: 0,
    family: crate::contenders::streamvbyte::FAMILY,
    name: "peer:streamvbyte",
    kernel: "c-simd",
    own_format: false,
};
/// MaskedVByte (FastPFor's copy).
pub const MASKED_VBYTE: Desc = Desc {
    id: 1,
    family: crate::contenders::vbyte::FAMILY,
    name: "peer:maskedvbyte",
    kernel: "c-simd",
    own_format: false,
};
/// FastPFor's VarIntGB.
pub const VARINTGB: Desc = Desc {
    id: 2,
    family: "varint-gb",
    name: "peer:fastpfor-varintgb",
    kernel: "cpp",
    own_format: true,
};
/// FastPFor's VarIntG8IU.
pub const G8IU: Desc = Desc {
    id: 3,
    family: "varint-g8iu",
    name: "peer:fastpfor-g8iu",
    kernel: "cpp-simd",
    own_format: true,
};
/// FastPFor's SIMDBinaryPacking (blocks of 128 values; a VariableByte tail).
pub const SIMDBP: Desc = Desc {
    id: 4,
    family: crate::contenders::bp128::FAMILY_4X,
    name: "peer:fastpfor-simdbp",
    kernel: "cpp-simd",
    own_format: true,
};
/// SIMDBinaryPacking again, in the 16x family (no peer writes that layout):
/// FastPFor's fastest bit packer, on the same values.
pub const SIMDBP_16X: Desc = Desc {
    family: crate::contenders::bp128::FAMILY_16X,
    ..SIMDBP
};

/// Every C/C++ peer of this build.
pub fn descs() -> Vec<Desc> {
    let mut all = Vec::new();
    #[cfg(intcodec_lemire_svb)]
    all.push(LEMIRE_SVB);
    #[cfg(intcodec_fastpfor_cpp)]
    all.extend([MASKED_VBYTE, VARINTGB, G8IU, SIMDBP, SIMDBP_16X]);
    // SAFETY: `ic_peer_has` only reads its integer argument.
    all.retain(|d| unsafe { ic_peer_has(d.id) } != 0);
    all
}

/// Every C/C++ peer of this build, as benchmark codecs.
pub fn contenders() -> Vec<Box<dyn Codec>> {
    descs()
        .into_iter()
        .map(|d| Box::new(CPeer(d)) as Box<dyn Codec>)
        .collect()
}

/// A C/C++ peer as a benchmark [`Codec`].
#[derive(Clone, Copy, Debug)]
pub struct CPeer(pub Desc);

impl CPeer {
    fn err(&self, what: &str) -> String {
        format!("{}: {what}", self.0.name)
    }

    /// Checks `buf`, the stream of a call for `n` values (`what`: the
    /// `output` of an encode, the `input` of a decode): it must have the
    /// `max_encoded_len(n)` bytes the shim may touch, and be 4-byte aligned
    /// when `aligned` (FastPFor's word readers and writers).
    fn check_stream(&self, what: &str, buf: &[u8], n: usize, aligned: bool) -> Result<(), String> {
        if buf.len() < self.max_encoded_len(n) {
            return Err(self.err(&format!("{what} has {} bytes", buf.len())));
        }
        if aligned && buf.as_ptr().align_offset(4) != 0 {
            return Err(self.err(&format!("{what} not 4-byte aligned")));
        }
        Ok(())
    }
}

/// The shim's `delta` flag and `prev` argument for `delta`.
fn c_delta(delta: Option<u32>) -> (i32, u32) {
    (i32::from(delta.is_some()), delta.unwrap_or(0))
}

impl Codec for CPeer {
    fn label(&self) -> Label {
        Label::new(self.0.family, self.0.name, self.0.kernel)
    }
    fn own_format(&self) -> bool {
        self.0.own_format
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        5 * n + SLACK
    }
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
        let n = values.len();
        if n > CHUNK {
            return Err(self.err(&format!("{n} values: the shim takes at most {CHUNK}")));
        }
        self.check_stream("output", out, n, true)?;
        let (d, prev) = c_delta(delta);
        // SAFETY: `values` holds `n` <= CHUNK values; `out` has
        // max_encoded_len(n) writable bytes (checked), which bounds every
        // encoder's output for `n` values, and is 4-byte aligned (checked),
        // as FastPFor's word-writing encoders need.
        let w = unsafe {
            ic_peer_encode(
                self.0.id,
                values.as_ptr(),
                n,
                d,
                prev,
                out.as_mut_ptr(),
                out.len(),
            )
        };
        if w == FAIL || w > out.len() {
            return Err(self.err("encode failed"));
        }
        Ok(w)
    }

    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        if n > CHUNK || out.len() < n {
            return Err(self.err(&format!("{n} values into {} slots", out.len())));
        }
        self.check_stream("input", input, n, self.0.own_format)?;
        let (d, prev) = c_delta(delta);
        // SAFETY: `input` has max_encoded_len(n) readable bytes (checked),
        // which covers every decoder's reads for a stream of `n` values that
        // its encoder wrote (the benchmark decodes only those), and is
        // aligned where FastPFor's word readers need it (checked); `out`
        // has room for `n` values (checked; the shim copies exactly `n`).
        let r = unsafe { ic_peer_decode(self.0.id, input.as_ptr(), n, d, prev, out.as_mut_ptr()) };
        if r == FAIL {
            return Err(self.err("decode failed"));
        }
        Ok(r)
    }

    /// One call into C: the loop over lists runs there, decoding into the
    /// shim's own buffer (`out` gives the count).
    fn short_pass(&self, lists: &Encoded, reps: usize, out: &mut [u32]) -> Result<u64, String> {
        let (bytes, offsets, n) = (&lists.bytes[..], &lists.offsets[..], out.len());
        let room = self.max_encoded_len(n);
        if n == 0 || n > CHUNK || offsets.iter().any(|&o| o + room > bytes.len()) {
            return Err(self.err("short_pass: a stream lacks its readable slack"));
        }
        if self.0.own_format
            && offsets
                .iter()
                .any(|&o| !(bytes.as_ptr() as usize + o).is_multiple_of(4))
        {
            return Err(self.err("short_pass: a stream is not 4-byte aligned"));
        }
        let mut sum = 0u64;
        // SAFETY: every stream at `bytes[o..]` has `max_encoded_len(n)`
        // readable bytes (checked) and is aligned where the decoder reads
        // words (checked); the streams were written by this peer's encoder
        // and checked by the caller; the shim writes only into its own
        // buffer and `sum`.
        let r = unsafe {
            ic_peer_short_pass(
                self.0.id,
                bytes.as_ptr(),
                offsets.as_ptr(),
                offsets.len(),
                n,
                reps,
                &mut sum,
            )
        };
        if r == FAIL {
            return Err(self.err("short_pass: a list does not decode"));
        }
        Ok(sum)
    }

    fn pass(&self, op: Op, b: &Bucket, enc: &Encoded, bufs: &mut Buffers) -> Result<Light, String> {
        let mut light = CLight::default();
        let nchunks = b.chunks.len();
        let done = match op {
            Op::Decode | Op::DecodeDelta => {
                if enc.offsets.len() != nchunks {
                    return Err(self.err("streams and chunks differ in number"));
                }
                let room = self.max_encoded_len(CHUNK);
                if enc.offsets.iter().any(|&o| o + room > enc.bytes.len()) {
                    return Err(self.err("a stream lacks its readable slack"));
                }
                // SAFETY: one stream per chunk, each followed by
                // max_encoded_len(CHUNK) readable bytes (checked), as the
                // decoders need for chunks of at most CHUNK values (the
                // shim refuses longer ones); the streams were written by
                // this peer's encoder (`encode_bucket`, then `verify`
                // checked them); the shim decodes into its own buffer.
                unsafe {
                    ic_peer_decode_pass(
                        self.0.id,
                        enc.bytes.as_ptr(),
                        enc.offsets.as_ptr(),
                        b.chunks.as_ptr(),
                        nchunks,
                        i32::from(op == Op::DecodeDelta),
                        &mut light,
                    )
                }
            }
            Op::Encode | Op::EncodeDelta => {
                let delta = op == Op::EncodeDelta;
                let values = if delta { &b.ids } else { &b.gaps };
                let scratch = &mut bufs.bytes;
                let room = self.max_encoded_len(CHUNK);
                if scratch.len() < room
                    || b.chunks
                        .iter()
                        .any(|c| c.len > CHUNK || c.start + c.len > values.len())
                {
                    return Err(self.err("scratch too small or chunk out of range"));
                }
                // SAFETY: every chunk lies within `values` and has at most
                // CHUNK values (checked); `scratch` has
                // max_encoded_len(CHUNK) writable bytes (checked), which
                // bounds every stream the encoders write for such chunks.
                unsafe {
                    ic_peer_encode_pass(
                        self.0.id,
                        values.as_ptr(),
                        b.chunks.as_ptr(),
                        nchunks,
                        i32::from(delta),
                        scratch.as_mut_ptr(),
                        scratch.len(),
                        &mut light,
                    )
                }
            }
            _ => return Err(self.err(&format!("{} is not a C pass", op.name()))),
        };
        if done != nchunks {
            return Err(self.err(&format!("{} failed at chunk {done}", op.name())));
        }
        Ok(Light {
            ends: light.ends,
            bytes: light.bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use intcodec::IntCodec;

    fn sample(n: usize, seed: u32) -> Vec<u32> {
        (0..n as u32)
            .map(|i| (i ^ seed).wrapping_mul(2_654_435_761) >> (i % 32))
            .collect()
    }

    /// Every peer round-trips plain and delta chunks of every length class.
    #[test]
    fn every_peer_round_trips() {
        for d in descs() {
            let p = CPeer(d);
            for n in [
                1usize, 2, 3, 4, 5, 15, 16, 17, 127, 128, 129, 255, 2049, 4096,
            ] {
                let v = sample(n, n as u32);
                let mut ids = v.clone();
                let mut acc = 7u32;
                for x in &mut ids {
                    acc = acc.wrapping_add(*x >> 8);
                    *x = acc;
                }
                let mut buf = vec![0u8; p.max_encoded_len(n)];
                let mut out = vec![0u32; n];
                let w = p.encode(&v, &mut buf).unwrap();
                buf.truncate(w);
                buf.resize(w + p.max_encoded_len(n), 0);
                assert_eq!(p.decode(&buf, n, &mut out).unwrap(), w, "{} {n}", d.name);
                assert_eq!(out, v, "{} {n}", d.name);
                let mut buf = vec![0u8; p.max_encoded_len(n)];
                let w = p.encode_delta(&ids, 5, &mut buf).unwrap();
                buf.truncate(w);
                buf.resize(w + p.max_encoded_len(n), 0);
                assert_eq!(p.decode_delta(&buf, n, 5, &mut out).unwrap(), w);
                assert_eq!(out, ids, "{} delta {n}", d.name);
            }
        }
    }

    /// lemire/streamvbyte and MaskedVByte write our formats byte for byte.
    #[test]
    fn same_format_peers_write_our_bytes() {
        let ours: Vec<(Desc, Box<dyn IntCodec>)> = vec![
            (
                LEMIRE_SVB,
                Box::new(intcodec::streamvbyte::StreamVByte::new()),
            ),
            (MASKED_VBYTE, Box::new(intcodec::vbyte::VByte::new())),
        ];
        let built = descs();
        for (d, codec) in ours {
            if !built.iter().any(|b| b.id == d.id) {
                eprintln!("SKIPPED: {} not built ({})", d.name, crate::peers::c_note());
                continue;
            }
            for n in [1usize, 7, 100, 4096] {
                let v = sample(n, 3);
                let mut buf = vec![0u8; CPeer(d).max_encoded_len(n)];
                let w = CPeer(d).encode(&v, &mut buf).unwrap();
                assert_eq!(&buf[..w], &codec.encode_to_vec(&v)[..], "{} {n}", d.name);
            }
        }
    }

    #[test]
    fn peers_refuse_short_buffers() {
        for d in descs() {
            let p = CPeer(d);
            let mut out = vec![0u8; 10];
            assert!(p.encode(&[1, 2, 3, 4], &mut out).is_err());
            let mut vals = [0u32; 4];
            assert!(p.decode(&[0u8; 8], 4, &mut vals).is_err());
        }
    }
}
