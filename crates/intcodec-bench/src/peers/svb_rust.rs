//! The Rust Stream VByte crates as peers of our Stream VByte (family
//! `streamvbyte`) in the `postings` suite:
//!
//! - `peer:stream-vbyte`: the `stream-vbyte` crate 0.4.1, SIMD encoder
//!   `x86::Sse41` and decoder `x86::Ssse3` (kernel column `rust-sse41`). It
//!   has no delta API, so `decode_delta` and `encode_delta` are not measured
//!   for it ([`Codec::supports`]; the report says so).
//! - `peer:streamvbyte64`: the `streamvbyte64` crate 0.2.0, `Coder1234`
//!   (`encode`/`decode`, `encode_deltas`/`decode_deltas`); kernel column
//!   `rust-ssse3` (or `rust-scalar` if it did not pick its SSSE3 path).
//!
//! Both write lemire/streamvbyte's format, byte for byte ours (checked by
//! the tests below against intcodec's scalar kernel, both directions). Their
//! SIMD paths need compile-time target features (and `stream-vbyte`'s need
//! nightly), which our crates never use, so they are built apart as one
//! cdylib (`peer-svb-rust/`, by `build.rs`, with `rustup run nightly cargo`
//! and `-C target-feature=+ssse3,+sse4.1`) and loaded here with libloading:
//! one FFI call per chunk. `streamvbyte64` codes whole groups of 4 only; the
//! cdylib codes the last partial group of a chunk itself (see its docs).
//! When the cdylib was not built (no nightly), these peers are absent and
//! [`notes`] says so in the report.

use super::shared::{plain_only, room};
use crate::measure::{ByteLen, Codec, Label, Op};
use intcodec::streamvbyte::max_compressed_len;
use std::ffi::{c_char, CStr};
use std::sync::OnceLock;

/// Extra bytes given to the peers beyond a stream's maximum size (their
/// SIMD paths load and store 16 bytes; the crates bound-check their slices,
/// so this only keeps them on their fast paths).
const SLACK: usize = 16;

type SvEnc = unsafe extern "C" fn(*const u32, usize, *mut u8, usize) -> isize;
type SvDec = unsafe extern "C" fn(*const u8, usize, usize, *mut u32) -> isize;
type S64Enc = unsafe extern "C" fn(*const u32, usize, u32, u32, *mut u8, usize) -> isize;
type S64Dec = unsafe extern "C" fn(*const u8, usize, usize, u32, u32, *mut u32) -> isize;

/// The loaded cdylib and its entry points (the library stays loaded for
/// the life of the process: it lives in a static).
struct Lib {
    _lib: libloading::Library,
    path: String,
    flags: String,
    s64_kernel: String,
    /// The kernel column of `streamvbyte64` (`rust-<s64_kernel>`).
    s64_column: String,
    sv_encode: SvEnc,
    sv_decode: SvDec,
    s64_encode: S64Enc,
    s64_decode: S64Dec,
}

fn load(path: &str) -> Result<Lib, String> {
    // SAFETY: loading our own peer library, built by build.rs from
    // `peer-svb-rust` (no initialisers with side effects).
    let lib = unsafe { libloading::Library::new(path) }.map_err(|e| e.to_string())?;
    let text = |sym: &[u8]| -> Result<String, String> {
        // SAFETY: the peer exports this symbol as `extern "C" fn() -> *const c_char`.
        let f = unsafe { lib.get::<extern "C" fn() -> *const c_char>(sym) }
            .map_err(|e| e.to_string())?;
        // SAFETY: it returns a static NUL-terminated string.
        let s = unsafe { CStr::from_ptr(f()) };
        Ok(s.to_string_lossy().into_owned())
    };
    let flags = text(b"svbr_build_flags")?;
    let s64_kernel = text(b"svbr_s64_kernel")?;
    // SAFETY: the peer exports these names with these signatures.
    let sv_encode = *unsafe { lib.get::<SvEnc>(b"svbr_sv_encode") }.map_err(|e| e.to_string())?;
    // SAFETY: as above.
    let sv_decode = *unsafe { lib.get::<SvDec>(b"svbr_sv_decode") }.map_err(|e| e.to_string())?;
    // SAFETY: as above.
    let s64_encode =
        *unsafe { lib.get::<S64Enc>(b"svbr_s64_encode") }.map_err(|e| e.to_string())?;
    // SAFETY: as above.
    let s64_decode =
        *unsafe { lib.get::<S64Dec>(b"svbr_s64_decode") }.map_err(|e| e.to_string())?;
    Ok(Lib {
        _lib: lib,
        path: path.to_string(),
        flags,
        s64_column: format!("rust-{s64_kernel}"),
        s64_kernel,
        sv_encode,
        sv_decode,
        s64_encode,
        s64_decode,
    })
}

/// The cdylib, loaded once; `Err` says why it is not there.
fn lib() -> Result<&'static Lib, &'static str> {
    static LIB: OnceLock<Result<Lib, String>> = OnceLock::new();
    LIB.get_or_init(|| match option_env!("SVB_RUST_PEER") {
        Some(p) if !p.is_empty() => {
            load(p).map_err(|e| format!("cannot load the cdylib {p}: {e}; their rows are missing"))
        }
        _ => Err(
            "NOT BUILT (no nightly toolchain or the build failed: see the build.rs \
                  warning; scripts/deps.sh installs nightly); their rows are missing"
                .to_string(),
        ),
    })
    .as_ref()
    .map_err(String::as_str)
}

/// Report lines: how the cdylib was built, or why these peers are absent.
pub fn notes() -> Vec<String> {
    match lib() {
        Ok(l) => vec![format!(
            "peers stream-vbyte / streamvbyte64: cdylib {}: {}; streamvbyte64 kernel {}",
            l.path, l.flags, l.s64_kernel
        )],
        Err(e) => vec![format!("peers stream-vbyte / streamvbyte64: {e}")],
    }
}

/// A peer's return value: bytes, or the error of a -1.
fn done(who: &str, r: isize) -> ByteLen {
    usize::try_from(r).map_err(|_| {
        format!("{who}: the crate refused (panicked: buffer too small or invalid stream)")
    })
}

impl std::fmt::Debug for Lib {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lib").field("path", &self.path).finish()
    }
}

const SV_NAME: &str = "peer:stream-vbyte";
const S64_NAME: &str = "peer:streamvbyte64";

/// One crate of the cdylib as a benchmark codec, one FFI call per chunk:
/// `stream-vbyte` (`S64 = false`, no delta coding) or `streamvbyte64`
/// (`S64 = true`). The crate is chosen at compile time: no branch per call.
#[derive(Clone, Copy, Debug)]
pub struct RustPeer<const S64: bool>(&'static Lib);

/// The `stream-vbyte` crate (see the module docs).
pub type StreamVbyteRs = RustPeer<false>;
/// The `streamvbyte64` crate's `Coder1234` (see the module docs).
pub type StreamVbyte64 = RustPeer<true>;

impl<const S64: bool> RustPeer<S64> {
    /// The peer, if the cdylib is loaded.
    pub fn new() -> Option<Self> {
        lib().ok().map(RustPeer)
    }

    const NAME: &'static str = if S64 { S64_NAME } else { SV_NAME };
}

impl<const S64: bool> Codec for RustPeer<S64> {
    fn label(&self) -> Label {
        let kernel = if S64 {
            &self.0.s64_column
        } else {
            "rust-sse41"
        };
        Label::new(crate::contenders::streamvbyte::FAMILY, Self::NAME, kernel)
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        max_compressed_len(n) + SLACK
    }
    fn supports(&self, op: Op) -> bool {
        S64 || !op.is_delta()
    }
    #[inline]
    fn encode_with(&self, values: &[u32], delta: Option<u32>, out: &mut [u8]) -> ByteLen {
        let (v, len, o, cap) = (values.as_ptr(), values.len(), out.as_mut_ptr(), out.len());
        let r = if S64 {
            let (d, prev) = (u32::from(delta.is_some()), delta.unwrap_or(0));
            // SAFETY: `values` and `out` are live slices of these lengths.
            unsafe { (self.0.s64_encode)(v, len, d, prev, o, cap) }
        } else {
            plain_only(SV_NAME, delta)?;
            // SAFETY: as above.
            unsafe { (self.0.sv_encode)(v, len, o, cap) }
        };
        done(Self::NAME, r)
    }
    #[inline]
    fn decode_with(&self, input: &[u8], n: usize, delta: Option<u32>, out: &mut [u32]) -> ByteLen {
        let (i, len) = (input.as_ptr(), input.len());
        let r = if S64 {
            let o = room(S64_NAME, out, n)?.as_mut_ptr();
            let (d, prev) = (u32::from(delta.is_some()), delta.unwrap_or(0));
            // SAFETY: `input` is a live slice; `out` holds at least `n`
            // values (checked).
            unsafe { (self.0.s64_decode)(i, len, n, d, prev, o) }
        } else {
            plain_only(SV_NAME, delta)?;
            let o = room(SV_NAME, out, n)?.as_mut_ptr();
            // SAFETY: as above.
            unsafe { (self.0.sv_decode)(i, len, n, o) }
        };
        done(Self::NAME, r)
    }
}

/// The peers whose features are on and whose cdylib is loaded.
pub fn contenders() -> Vec<Box<dyn Codec>> {
    let mut all: Vec<Box<dyn Codec>> = Vec::new();
    #[cfg(feature = "peer-stream-vbyte")]
    if let Some(p) = StreamVbyteRs::new() {
        all.push(Box::new(p));
    }
    #[cfg(feature = "peer-streamvbyte64")]
    if let Some(p) = StreamVbyte64::new() {
        all.push(Box::new(p));
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use intcodec::streamvbyte::StreamVByte;
    use intcodec::{IntCodec, Isa, KernelChoice};

    /// The peers, or a loud skip when the cdylib is missing (it is an error
    /// under INTCODEC_REQUIRE_ORACLES, as in scripts/test.sh).
    fn peers() -> Option<(StreamVbyteRs, StreamVbyte64)> {
        match (StreamVbyteRs::new(), StreamVbyte64::new()) {
            (Some(a), Some(b)) => Some((a, b)),
            _ => {
                let why = notes().join("; ");
                assert!(
                    std::env::var_os("INTCODEC_REQUIRE_ORACLES").is_none(),
                    "Rust Stream VByte peers missing: {why}"
                );
                eprintln!("\n*** SKIPPED: Rust Stream VByte peers not built: {why} ***\n");
                None
            }
        }
    }

    fn inputs() -> Vec<Vec<u32>> {
        let mut rng = intcodec_testkit::SplitMix64::new(0x9E37_79B9);
        let mut next = move || rng.next_u32();
        let mut all = Vec::new();
        // Every tail length, each byte length, and a full chunk.
        for n in (0..=41).chain([255, 256, 257, 4093, 4096]) {
            let v: Vec<u32> = (0..n)
                .map(|i| {
                    let r = next();
                    r >> (8 * (i % 4) + (r & 7))
                })
                .collect();
            all.push(v);
        }
        all.push(vec![0; 13]);
        all.push(vec![u32::MAX; 13]);
        all
    }

    #[test]
    fn rust_peers_write_and_read_our_bytes() {
        let Some((sv, s64)) = peers() else { return };
        let ours = StreamVByte::new().with_isa(Isa::Scalar).unwrap();
        for values in inputs() {
            let n = values.len();
            let mut ids = values.clone();
            ids.sort_unstable();
            let want = ours.encode_to_vec(&values);
            let want_d = ours.encode_delta_to_vec(&ids, 7);
            let mut buf = vec![0u8; sv.max_encoded_len(n)];
            let mut stream = want.clone();
            stream.resize(want.len() + sv.max_encoded_len(n), 0);
            let mut stream_d = want_d.clone();
            stream_d.resize(want_d.len() + sv.max_encoded_len(n), 0);
            let mut back = vec![0u32; n];
            for c in [&sv as &dyn Codec, &s64] {
                let who = format!("{} n={n}", c.name());
                let w = c.encode(&values, &mut buf).unwrap();
                assert_eq!(&buf[..w], &want[..], "{who}");
                back.fill(1);
                assert_eq!(
                    c.decode(&stream, n, &mut back).unwrap(),
                    want.len(),
                    "{who}"
                );
                assert_eq!(back, values, "{who}");
            }
            let w = s64.encode_delta(&ids, 7, &mut buf).unwrap();
            assert_eq!(&buf[..w], &want_d[..], "n={n}");
            back.fill(1);
            assert_eq!(
                s64.decode_delta(&stream_d, n, 7, &mut back).unwrap(),
                want_d.len()
            );
            assert_eq!(back, ids, "n={n}");
        }
    }

    #[test]
    fn rust_peers_say_what_they_lack_and_refuse_short_buffers() {
        let Some((sv, s64)) = peers() else { return };
        assert!(!sv.supports(Op::DecodeDelta) && !sv.supports(Op::EncodeDelta));
        assert!(sv.supports(Op::Decode) && sv.supports(Op::Encode));
        assert!(sv
            .encode_delta(&[1], 0, &mut [0u8; 64])
            .unwrap_err()
            .contains("unsupported"));
        assert!(Op::CODEC_OPS.iter().all(|&op| s64.supports(op)));
        let values = [70_000u32; 40];
        for c in [&sv as &dyn Codec, &s64] {
            let mut short = [0u8; 20];
            assert!(c.encode(&values, &mut short).is_err(), "{}", c.name());
            let mut out = [0u32; 4];
            assert!(c.decode(&[0xFF; 8], 4, &mut out).is_err(), "{}", c.name());
            assert!(c.decode(&[0; 64], 8, &mut out).is_err(), "{}", c.name());
        }
    }
}
