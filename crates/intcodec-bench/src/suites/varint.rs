//! The `varint` suite: single-value LEB128 decode and encode, the way
//! varint-simd's own benchmark (`benches/varint_bench`) measures them.
//!
//! # Method
//!
//! For each type (`u8`, `u16`, `u32`, `u64`): random values bounded by the
//! type (uniform over the whole type, as `rng.gen::<T>()` there), in
//! sequences of [`SEQ`] values (varint-simd's `SEQUENCE_LEN`); each
//! sequence is encoded into its own buffer followed by 16 bytes of slack
//! (varint-simd's unsafe decoders read 16 bytes at every value). A decode
//! pass decodes every sequence value by value (`pos += len`) into a
//! reusable output of `SEQ` values; an encode pass encodes every sequence
//! value by value into a reusable buffer. Every contender gets the same
//! slices. Speeds are millions of values per second at the median of
//! `reps` repetitions (each at least `min_time`); the job order rotates
//! between repetitions. Decode loops advance a slice (`slice =
//! &slice[len..]`) exactly as varint-simd's benchmark does; encode loops
//! keep a byte offset.
//!
//! # Contenders
//!
//! - intcodec: the free functions (`varint::decode`, the best kernel),
//!   each kernel forced through `Varint::with_kernel`, `read`,
//!   `decode_unchecked`, `decode_two/four/eight`, `encode_to_slice`,
//!   `encode_four/eight`.
//! - varint-simd 0.4.1, three builds: linked into this crate (baseline
//!   x86-64 flags: SSE2 only, single-value API only), and two cdylibs built
//!   apart by `build.rs` (`+ssse3`, the least it needs for its SIMD and
//!   multi-value code; `target-cpu=native` + `native-optimizations`), loaded
//!   at run time, each loop compiled inside the library (one FFI call per
//!   sequence). Safe `decode`, `decode_unsafe`, `decode_two/four/eight`
//!   where they exist for the type, `encode_to_slice`.
//! - prost (`decode_varint`/`encode_varint`, u64), integer-encoding
//!   (`VarInt`), leb128 (`read/write::unsigned`, u64), unsigned-varint.
//!
//! # Checks
//!
//! Before timing, every decoder's output and byte count are compared with
//! the source values and every encoder's bytes with intcodec's reference
//! encoding (all contenders write minimal LEB128); each timed pass must
//! consume (or write) the known total of bytes, so a contender that skips
//! work fails the run.

use intcodec::varint::{self, Kernel, Varint, Word};
use std::hint::black_box;
use std::time::Instant;

/// Values per sequence (varint-simd's `SEQUENCE_LEN`).
pub const SEQ: usize = 256;
/// Slack after each encoded sequence.
const SLACK: usize = 16;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Sequences per type.
    pub sequences: usize,
    /// Repetitions (the median is reported), their least duration, the seed.
    pub timing: super::Timing,
    /// Each value of a random bit width (lengths vary value to value)
    /// instead of uniform over the type.
    pub mixed: bool,
}

impl Config {
    /// The default run (about 20 s) or the quick one (a few seconds).
    /// Repetitions are short (a few passes) and many, so that on a shared,
    /// noisy machine the median falls on repetitions that ran undisturbed;
    /// the job order rotates between repetitions.
    pub fn new(quick: bool) -> Config {
        if quick {
            Config {
                sequences: 128,
                timing: super::Timing::new(9, 1),
                mixed: false,
            }
        } else {
            Config {
                sequences: 512,
                timing: super::Timing::new(31, 2),
                mixed: false,
            }
        }
    }
}

/// One measurement.
#[derive(Clone, Debug)]
pub struct Row {
    /// `decode`, `decode2`, `decode4`, `decode8`, `encode`, `encode4`, `encode8`.
    pub op: &'static str,
    /// `u8` .. `u64`.
    pub ty: &'static str,
    /// Who.
    pub codec: String,
    /// Which variant / build.
    pub kernel: String,
    /// Another project's code.
    pub peer: bool,
    /// Millions of values per second (median repetition).
    pub mvs: f64,
    /// Millions of values per second in the fastest repetition.
    pub best: f64,
}

/// A run's rows and the build descriptions.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Every measurement.
    pub rows: Vec<Row>,
    /// How each varint-simd build was compiled.
    pub builds: Vec<String>,
    /// Values and bytes per type.
    pub data: Vec<String>,
}

// ------------------------------------------------------------------ data

struct Data<T> {
    values: Vec<T>,
    /// Per sequence: (start, encoded length); `SLACK` bytes follow each.
    seqs: Vec<(usize, usize)>,
    bytes: Vec<u8>,
    total: usize,
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn data<T: Word>(cfg: &Config) -> Data<T> {
    let mut s = cfg.timing.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let n = cfg.sequences * SEQ;
    let bits = 8 * std::mem::size_of::<T>() as u64;
    let values: Vec<T> = (0..n)
        .map(|_| {
            let r = xorshift(&mut s);
            if cfg.mixed {
                // A width 0..=bits, then a value of that many bits.
                let width = xorshift(&mut s) % (bits + 1);
                T::from_u64(if width == 0 { 0 } else { r >> (64 - width) })
            } else {
                T::from_u64(r)
            }
        })
        .collect();
    let mut bytes = Vec::new();
    let mut seqs = Vec::new();
    let mut total = 0;
    for chunk in values.chunks(SEQ) {
        let start = bytes.len();
        for &v in chunk {
            let (b, len) = varint::encode(v);
            bytes.extend_from_slice(&b[..len]);
        }
        let len = bytes.len() - start;
        total += len;
        seqs.push((start, len));
        bytes.extend_from_slice(&[0u8; SLACK]);
    }
    Data {
        values,
        seqs,
        bytes,
        total,
    }
}

// ------------------------------------------------------------- contenders

type DecodeFn<T> = Box<dyn Fn(&[u8], &mut [T]) -> Option<usize>>;
type EncodeFn<T> = Box<dyn Fn(&[T], &mut [u8]) -> Option<usize>>;

enum Job<T> {
    Decode(DecodeFn<T>),
    Encode(EncodeFn<T>),
}

struct Contender<T> {
    op: &'static str,
    codec: String,
    kernel: String,
    peer: bool,
    job: Job<T>,
}

fn ours<T: Word>(op: &'static str, codec: &str, kernel: &str, job: Job<T>) -> Contender<T> {
    Contender {
        op,
        codec: codec.to_string(),
        kernel: kernel.to_string(),
        peer: false,
        job,
    }
}

#[cfg_attr(
    not(any(feature = "peer-varint", feature = "peer-varint-simd-builds")),
    allow(dead_code)
)]
fn peer<T: Word>(op: &'static str, codec: &str, kernel: &str, job: Job<T>) -> Contender<T> {
    Contender {
        peer: true,
        ..ours(op, codec, kernel, job)
    }
}

/// A decode loop over one sequence: `$get(slice) -> Option<(T, len)>`,
/// then `slice = &slice[len..]`, as in varint-simd's benchmark (`$get` may
/// use copies of the caller's locals: the closure moves them in).
macro_rules! decode_loop {
    ($t:ty, |$s:ident| $get:expr) => {
        Job::Decode(Box::new(move |input: &[u8], out: &mut [$t]| {
            let mut slice = input;
            for slot in out.iter_mut() {
                let $s = slice;
                let (v, len) = $get?;
                *slot = v;
                slice = slice.get(len..)?;
            }
            Some(input.len() - slice.len())
        }))
    };
}

/// An encode loop: `$put(v, rest) -> Option<len>`.
macro_rules! encode_loop {
    ($t:ty, |$v:ident, $o:ident| $put:expr) => {
        Job::Encode(Box::new(move |values: &[$t], out: &mut [u8]| {
            let mut pos = 0;
            for &$v in values {
                let $o = out.get_mut(pos..)?;
                pos += $put?;
            }
            Some(pos)
        }))
    };
}

/// Our contenders for type `T`.
fn ours_for<T: Word>() -> Vec<Contender<T>> {
    let mut c = Vec::new();
    let best = Varint::new().kernel().name();
    // The single-value free functions inline the scalar kernel's code (with
    // pext/pdep only when this build enables BMI2).
    let inline = if cfg!(target_feature = "bmi2") {
        "inline (pext build)"
    } else {
        "inline scalar code"
    };
    c.push(ours(
        "decode",
        "intcodec varint::decode",
        inline,
        decode_loop!(T, |s| varint::decode::<T>(s).ok()),
    ));
    for k in Kernel::ALL.into_iter().filter_map(Varint::with_kernel) {
        c.push(ours(
            "decode",
            "intcodec Varint::decode",
            &format!("{} (forced)", k.kernel().name()),
            decode_loop!(T, |s| k.decode::<T>(s).ok()),
        ));
    }
    c.push(ours(
        "decode",
        "intcodec varint::read",
        inline,
        Job::Decode(Box::new(|input: &[u8], out: &mut [T]| {
            let mut cur = input;
            for slot in out.iter_mut() {
                *slot = varint::read::<T>(&mut cur).ok()?;
            }
            Some(input.len() - cur.len())
        })),
    ));
    c.push(ours(
        "decode",
        "intcodec decode_unchecked",
        inline,
        decode_loop!(T, |s| if s.len() < varint::PADDING {
            None
        } else {
            // SAFETY: 16 readable bytes (checked just above; the suite
            // gives every sequence 16 bytes of slack).
            Some(unsafe { varint::decode_unchecked::<T>(s) })
        }),
    ));
    macro_rules! many {
        ($op:expr, $n:expr, $f:ident) => {
            c.push(ours(
                $op,
                concat!("intcodec varint::", stringify!($f)),
                inline,
                Job::Decode(Box::new(|input: &[u8], out: &mut [T]| {
                    let mut slice = input;
                    for group in out.chunks_exact_mut($n) {
                        let (v, len) = varint::$f::<T>(slice).ok()?;
                        group.copy_from_slice(&v);
                        slice = slice.get(len..)?;
                    }
                    Some(input.len() - slice.len())
                })),
            ));
        };
    }
    many!("decode2", 2, decode_two);
    many!("decode4", 4, decode_four);
    many!("decode8", 8, decode_eight);
    if T::MAX_BYTES == 2 && best == "bmi2" {
        // decode_eight::<u8> calls the run-time BMI2 kernel's loop-free path.
        if let Some(last) = c.last_mut() {
            last.kernel = "bmi2 (run-time, u8 path)".to_string();
        }
    }
    c.push(ours(
        "encode",
        "intcodec varint::encode_to_slice",
        inline,
        encode_loop!(T, |v, o| varint::encode_to_slice(v, o).ok()),
    ));
    for k in Kernel::ALL.into_iter().filter_map(Varint::with_kernel) {
        c.push(ours(
            "encode",
            "intcodec Varint::encode_to_slice",
            &format!("{} (forced)", k.kernel().name()),
            encode_loop!(T, |v, o| k.encode_to_slice(v, o).ok()),
        ));
    }
    let run_time = format!("{best} (run-time)");
    c.push(ours(
        "encode4",
        "intcodec varint::encode_four",
        &run_time,
        encode_groups(varint::encode_four::<T>),
    ));
    c.push(ours(
        "encode8",
        "intcodec varint::encode_eight",
        &run_time,
        encode_groups(varint::encode_eight::<T>),
    ));
    c
}

/// An encode loop over groups of `N` values: `put(group, rest) -> len`
/// (`put` is a function item: a direct call per group).
fn encode_groups<T: Word, const N: usize, E>(
    put: impl Fn(&[T; N], &mut [u8]) -> Result<usize, E> + 'static,
) -> Job<T> {
    Job::Encode(Box::new(move |values: &[T], out: &mut [u8]| {
        let mut pos = 0;
        for g in values.chunks_exact(N) {
            let g: &[T; N] = g.try_into().ok()?;
            pos += put(g, out.get_mut(pos..)?).ok()?;
        }
        Some(pos)
    }))
}

// ------------------------------------------------------------- the peers

/// The Rust peers linked into this crate, per type.
trait PeerWord: Word {
    /// Type name.
    const NAME: &'static str;
    /// The linked peers' decode and encode loops.
    #[doc(hidden)]
    fn linked_peers() -> Vec<Contender<Self>>;
    /// The cdylib symbols' type suffix.
    #[doc(hidden)]
    #[cfg_attr(not(feature = "peer-varint-simd-builds"), allow(dead_code))]
    fn suffix() -> &'static str {
        Self::NAME
    }
}

macro_rules! peer_word {
    ($t:ident, $uv_dec:ident, $uv_enc:ident, $uv_buf:ident) => {
        impl PeerWord for $t {
            const NAME: &'static str = stringify!($t);
            #[allow(unused_mut)]
            fn linked_peers() -> Vec<Contender<$t>> {
                let mut c: Vec<Contender<$t>> = Vec::new();
                #[cfg(feature = "peer-varint")]
                {
                    use crate::peers::varint_crates::{read_counted, write_counted};
                    c.push(peer(
                        "decode",
                        "peer:varint-simd decode",
                        "linked, sse2 (baseline build)",
                        decode_loop!($t, |s| varint_simd::decode::<$t>(s).ok()),
                    ));
                    c.push(peer(
                        "decode",
                        "peer:prost decode_varint",
                        "u64 + cast",
                        decode_loop!($t, |s| read_counted(s, |b| {
                            prost::encoding::decode_varint(b)
                        })
                        .ok()
                        .map(|(v, len)| (v as $t, len))),
                    ));
                    c.push(peer(
                        "decode",
                        "peer:integer-encoding",
                        "VarInt::decode_var",
                        decode_loop!($t, |s| {
                            use integer_encoding::VarInt;
                            <$t>::decode_var(s)
                        }),
                    ));
                    c.push(peer(
                        "decode",
                        "peer:leb128",
                        "read::unsigned (u64)",
                        decode_loop!($t, |s| read_counted(s, |b| leb128::read::unsigned(b))
                            .ok()
                            .map(|(v, len)| (v as $t, len))),
                    ));
                    c.push(peer(
                        "decode",
                        "peer:unsigned-varint",
                        "decode::<uN>",
                        decode_loop!($t, |s| unsigned_varint::decode::$uv_dec(s)
                            .ok()
                            .map(|(v, rest)| (v, s.len() - rest.len()))),
                    ));
                    c.push(peer(
                        "encode",
                        "peer:varint-simd encode_to_slice",
                        "linked, sse2 (baseline build)",
                        encode_loop!($t, |v, o| Some(usize::from(
                            varint_simd::encode_to_slice::<$t>(v, o)
                        ))),
                    ));
                    c.push(peer(
                        "encode",
                        "peer:prost encode_varint",
                        "u64",
                        encode_loop!($t, |v, o| Some(write_counted(o, |b| {
                            prost::encoding::encode_varint(v as u64, b)
                        }))),
                    ));
                    c.push(peer(
                        "encode",
                        "peer:integer-encoding",
                        "VarInt::encode_var",
                        encode_loop!($t, |v, o| {
                            use integer_encoding::VarInt;
                            Some(v.encode_var(o))
                        }),
                    ));
                    c.push(peer(
                        "encode",
                        "peer:leb128",
                        "write::unsigned (u64)",
                        encode_loop!($t, |v, o| {
                            let mut b = &mut *o;
                            leb128::write::unsigned(&mut b, v as u64).ok()
                        }),
                    ));
                    c.push(peer(
                        "encode",
                        "peer:unsigned-varint",
                        "encode::<uN>",
                        encode_loop!($t, |v, o| {
                            let mut buf = unsigned_varint::encode::$uv_buf();
                            let b = unsigned_varint::encode::$uv_enc(v, &mut buf);
                            o.get_mut(..b.len())?.copy_from_slice(b);
                            Some(b.len())
                        }),
                    ));
                }
                c
            }
        }
    };
}
peer_word!(u8, u8, u8, u8_buffer);
peer_word!(u16, u16, u16, u16_buffer);
peer_word!(u32, u32, u32, u32_buffer);
peer_word!(u64, u64, u64, u64_buffer);

/// varint-simd built apart (see `peer-varint-simd/Cargo.toml`) and loaded.
#[cfg(feature = "peer-varint-simd-builds")]
mod cdylib {
    use super::{peer, Contender, Job, PeerWord};
    use std::ffi::{c_char, CStr};
    use std::sync::Arc;

    type Dec<T> = unsafe extern "C" fn(*const u8, usize, usize, *mut T) -> isize;
    type Enc<T> = unsafe extern "C" fn(*const T, usize, *mut u8, usize) -> usize;

    /// One loaded build: its label, flags and library.
    pub(super) struct Build {
        pub(super) label: &'static str,
        lib: Arc<libloading::Library>,
    }

    /// The builds `build.rs` made (paths baked in at compile time), loaded;
    /// a build that failed or cannot be loaded is reported, not hidden.
    pub(super) fn builds() -> (Vec<Build>, Vec<String>) {
        let mut ok = Vec::new();
        let mut notes = Vec::new();
        for (label, path) in [
            ("+ssse3", option_env!("VARINT_SIMD_PEER_SSSE3")),
            ("native", option_env!("VARINT_SIMD_PEER_NATIVE")),
        ] {
            let Some(path) = path.filter(|p| !p.is_empty()) else {
                notes.push(format!(
                    "varint-simd {label} cdylib: NOT BUILT (see the build.rs warning); its rows are missing"
                ));
                continue;
            };
            // SAFETY: loading our own peer library, built by build.rs from
            // `peer-varint-simd` (no initialisers with side effects).
            let lib = match unsafe { libloading::Library::new(path) } {
                Ok(l) => l,
                Err(e) => {
                    notes.push(format!(
                        "varint-simd {label} cdylib: cannot load {path}: {e}"
                    ));
                    continue;
                }
            };
            let flags = {
                // SAFETY: the symbol has this signature in peer-varint-simd.
                let f = unsafe { lib.get::<extern "C" fn() -> *const c_char>(b"vs_build_flags") };
                match f {
                    // SAFETY: it returns a static NUL-terminated string.
                    Ok(f) => unsafe { CStr::from_ptr(f()) }
                        .to_string_lossy()
                        .into_owned(),
                    Err(e) => format!("unknown ({e})"),
                }
            };
            notes.push(format!("varint-simd {label} cdylib ({path}): {flags}"));
            ok.push(Build {
                label,
                lib: Arc::new(lib),
            });
        }
        (ok, notes)
    }

    fn dec<T: 'static>(b: &Build, name: &str) -> Option<Dec<T>> {
        // SAFETY: the peer exports these names with the `Dec<T>` signature
        // for the type in their suffix.
        unsafe { b.lib.get::<Dec<T>>(name.as_bytes()) }
            .ok()
            .map(|s| *s)
    }

    /// The decode/encode contenders of one build for `T`.
    pub(super) fn contenders<T: PeerWord>(b: &Build) -> Vec<Contender<T>> {
        let mut c = Vec::new();
        let t = T::suffix();
        let label = b.label;
        let mut add_dec = |op: &'static str, what: &str, sym: String, group: usize| {
            if let Some(f) = dec::<T>(b, &sym) {
                let lib = Arc::clone(&b.lib);
                c.push(peer(
                    op,
                    &format!("peer:varint-simd {what}"),
                    &format!("cdylib {label}"),
                    Job::Decode(Box::new(move |input: &[u8], out: &mut [T]| {
                        let _keep = &lib;
                        if !out.len().is_multiple_of(group) {
                            return None;
                        }
                        // SAFETY: `input` readable (a slice, with 16 bytes
                        // of slack after each sequence for the unsafe
                        // decoders), `out` holds `out.len()` values.
                        let r =
                            unsafe { f(input.as_ptr(), input.len(), out.len(), out.as_mut_ptr()) };
                        usize::try_from(r).ok()
                    })),
                ));
            }
        };
        add_dec("decode", "decode (safe)", format!("vs_decode_safe_{t}"), 1);
        add_dec(
            "decode",
            "decode_unsafe",
            format!("vs_decode_unsafe_{t}"),
            1,
        );
        add_dec(
            "decode2",
            "decode_two_unsafe",
            format!("vs_decode_two_{t}"),
            2,
        );
        add_dec(
            "decode4",
            "decode_four_unsafe",
            format!("vs_decode_four_{t}"),
            4,
        );
        add_dec(
            "decode8",
            "decode_eight_u8_unsafe",
            format!("vs_decode_eight_{t}"),
            8,
        );
        let sym = format!("vs_encode_{t}");
        // SAFETY: the peer exports this name with the `Enc<T>` signature.
        if let Ok(f) = unsafe { b.lib.get::<Enc<T>>(sym.as_bytes()) } {
            let f = *f;
            let lib = Arc::clone(&b.lib);
            c.push(peer(
                "encode",
                "peer:varint-simd encode_to_slice",
                &format!("cdylib {label}"),
                Job::Encode(Box::new(move |values: &[T], out: &mut [u8]| {
                    let _keep = &lib;
                    if out.len() < values.len() * 16 {
                        return None;
                    }
                    // SAFETY: `values` and `out` are slices of these lengths;
                    // `out` has 16 bytes per value (varint-simd panics below 10).
                    Some(unsafe { f(values.as_ptr(), values.len(), out.as_mut_ptr(), out.len()) })
                })),
            ));
        }
        c
    }
}

// ------------------------------------------------------------ measurement

fn verify<T: Word>(
    c: &Contender<T>,
    d: &Data<T>,
    out: &mut [T],
    enc: &mut [u8],
) -> Result<(), String> {
    let who = format!(
        "{} {} ({} {})",
        c.op,
        c.codec,
        c.kernel,
        std::any::type_name::<T>()
    );
    for (s, &(start, len)) in d.seqs.iter().enumerate() {
        let vals = &d.values[s * SEQ..(s + 1) * SEQ];
        match &c.job {
            Job::Decode(f) => {
                out.fill(T::from_u64(0x5A));
                let got = f(&d.bytes[start..start + len + SLACK], out);
                if got != Some(len) {
                    return Err(format!("{who}: sequence {s}: consumed {got:?}, want {len}"));
                }
                if out != vals {
                    return Err(format!("{who}: sequence {s}: wrong values"));
                }
            }
            Job::Encode(f) => {
                enc.fill(0xEE);
                let got = f(vals, enc);
                if got != Some(len) || enc[..len] != d.bytes[start..start + len] {
                    return Err(format!(
                        "{who}: sequence {s}: wrong bytes ({got:?}, want {len})"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// One pass over every sequence; returns the bytes consumed or written.
#[inline(never)]
fn pass<T: Word>(c: &Contender<T>, d: &Data<T>, out: &mut [T], enc: &mut [u8]) -> usize {
    let mut total = 0;
    for (s, &(start, len)) in d.seqs.iter().enumerate() {
        total += match &c.job {
            Job::Decode(f) => f(black_box(&d.bytes[start..start + len + SLACK]), out).unwrap_or(0),
            Job::Encode(f) => f(black_box(&d.values[s * SEQ..(s + 1) * SEQ]), enc).unwrap_or(0),
        };
        black_box(&mut *out);
        black_box(&mut *enc);
    }
    total
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn run_type<T: PeerWord>(
    cfg: &Config,
    #[cfg(feature = "peer-varint-simd-builds")] builds: &[cdylib::Build],
    rows: &mut Vec<Row>,
    notes: &mut Vec<String>,
    progress: &mut dyn FnMut(f64, &str),
) -> Result<(), String> {
    let d = data::<T>(cfg);
    notes.push(format!(
        "{}: {} values in {} sequences of {SEQ}, {:.2} bytes per value",
        T::NAME,
        d.values.len(),
        d.seqs.len(),
        d.total as f64 / d.values.len() as f64
    ));
    let mut cs = ours_for::<T>();
    cs.extend(T::linked_peers());
    #[cfg(feature = "peer-varint-simd-builds")]
    for b in builds {
        cs.extend(cdylib::contenders::<T>(b));
    }
    let mut out = vec![T::from_u64(0); SEQ];
    let mut enc = vec![0u8; SEQ * 16];
    for c in &cs {
        verify(c, &d, &mut out, &mut enc)?;
    }
    // Calibrate: passes per repetition.
    let mut iters = vec![1usize; cs.len()];
    for (i, c) in cs.iter().enumerate() {
        loop {
            let t = Instant::now();
            for _ in 0..iters[i] {
                pass(c, &d, &mut out, &mut enc);
            }
            if t.elapsed() >= cfg.timing.min_time || iters[i] > 1 << 24 {
                break;
            }
            iters[i] *= 2;
        }
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); cs.len()];
    for rep in 0..cfg.timing.reps {
        progress(
            rep as f64 / cfg.timing.reps.max(1) as f64,
            &format!(
                "varint {}: repetition {}/{}",
                T::NAME,
                rep + 1,
                cfg.timing.reps
            ),
        );
        for j in 0..cs.len() {
            let i = (j + rep * 7) % cs.len();
            let t = Instant::now();
            let mut bytes = 0;
            for _ in 0..iters[i] {
                bytes += pass(&cs[i], &d, &mut out, &mut enc);
            }
            let secs = t.elapsed().as_secs_f64();
            if bytes != d.total * iters[i] {
                return Err(format!(
                    "{} {} ({}): a timed pass processed {bytes} bytes, want {}",
                    cs[i].codec,
                    cs[i].kernel,
                    T::NAME,
                    d.total * iters[i]
                ));
            }
            times[i].push(secs / iters[i] as f64);
        }
    }
    for (c, t) in cs.iter().zip(times) {
        let fastest = t.iter().copied().fold(f64::INFINITY, f64::min);
        rows.push(Row {
            best: d.values.len() as f64 / fastest / 1e6,
            op: c.op,
            ty: T::NAME,
            codec: c.codec.clone(),
            kernel: c.kernel.clone(),
            peer: c.peer,
            mvs: d.values.len() as f64 / median(t) / 1e6,
        });
    }
    Ok(())
}

/// Runs the suite.
pub fn run(cfg: &Config, progress: &mut dyn FnMut(f64, &str)) -> Result<Outcome, String> {
    let mut rows = Vec::new();
    let mut data_notes = Vec::new();
    #[allow(unused_mut)]
    let mut build_notes = Vec::new();
    #[cfg(feature = "peer-varint-simd-builds")]
    let (builds, n) = cdylib::builds();
    #[cfg(feature = "peer-varint-simd-builds")]
    build_notes.extend(n);
    #[cfg(not(feature = "peer-varint-simd-builds"))]
    build_notes.push(
        "varint-simd cdylibs: not in this build (feature peer-varint-simd-builds)".to_string(),
    );
    if cfg!(feature = "peer-varint") {
        build_notes.push(
            "varint-simd linked: compiled with this crate's flags (baseline x86-64, SSE2; no SSSE3, \
             so no multi-value decoders)"
                .to_string(),
        );
    }
    macro_rules! ty {
        ($i:expr, $t:ty) => {
            run_type::<$t>(
                cfg,
                #[cfg(feature = "peer-varint-simd-builds")]
                &builds,
                &mut rows,
                &mut data_notes,
                &mut |f, m| progress(crate::progress::share($i, 4, f), m),
            )?
        };
    }
    ty!(0, u8);
    ty!(1, u16);
    ty!(2, u32);
    ty!(3, u64);
    Ok(Outcome {
        rows,
        builds: build_notes,
        data: data_notes,
    })
}

fn find<'a>(rows: &'a [Row], op: &str, ty: &str, codec: &str, kernel: &str) -> Option<&'a Row> {
    rows.iter()
        .find(|r| r.op == op && r.ty == ty && r.codec == codec && r.kernel.starts_with(kernel))
}

/// The terminal table: every row with its ratio to varint-simd's unsafe
/// decode (decode ops) or its encode (encode ops), built with `+ssse3`;
/// then the targets.
pub fn table(o: &Outcome, header: &[String], out: &mut dyn std::io::Write) -> Result<(), String> {
    use std::fmt::Write as _;
    let mut s = String::new();
    for h in header.iter().chain(&o.builds).chain(&o.data) {
        let _ = writeln!(s, "{h}");
    }
    let _ = writeln!(
        s,
        "\nmillions of values per second (median); ratio = this row / varint-simd (cdylib +ssse3): \
         decode_unsafe for decode ops, encode_to_slice for encode ops"
    );
    let _ = writeln!(
        s,
        "{:<8} {:<4} {:<38} {:<30} {:>8} {:>8} {:>7}",
        "op", "type", "codec", "kernel", "M/s", "best", "ratio"
    );
    for r in &o.rows {
        let base = if r.op.starts_with("decode") {
            find(
                &o.rows,
                "decode",
                r.ty,
                "peer:varint-simd decode_unsafe",
                "cdylib +ssse3",
            )
        } else {
            find(
                &o.rows,
                "encode",
                r.ty,
                "peer:varint-simd encode_to_slice",
                "cdylib +ssse3",
            )
        };
        let ratio = base.map_or("-".to_string(), |b| format!("{:.2}x", r.mvs / b.mvs));
        let _ = writeln!(
            s,
            "{:<8} {:<4} {:<38} {:<30} {:>8.1} {:>8.1} {:>7}",
            r.op, r.ty, r.codec, r.kernel, r.mvs, r.best, ratio
        );
    }
    let _ = writeln!(
        s,
        "\ntargets (README): ours >= 1.3x varint-simd (+ssse3 cdylib)"
    );
    for ty in ["u32", "u64"] {
        for (what, ours_op, ours_codec, base_codec) in [
            (
                "safe decode vs its decode_unsafe",
                "decode",
                "intcodec varint::decode",
                "peer:varint-simd decode_unsafe",
            ),
            (
                "encode vs its encode",
                "encode",
                "intcodec varint::encode_to_slice",
                "peer:varint-simd encode_to_slice",
            ),
        ] {
            let a = find(&o.rows, ours_op, ty, ours_codec, "");
            let b = find(&o.rows, ours_op, ty, base_codec, "cdylib +ssse3");
            let line = match (a, b) {
                (Some(a), Some(b)) => {
                    let r = a.mvs / b.mvs;
                    format!(
                        "{ty} {what}: {:.1} / {:.1} = {r:.2}x  {}",
                        a.mvs,
                        b.mvs,
                        if r >= 1.3 { "MET" } else { "NOT MET" }
                    )
                }
                _ => format!("{ty} {what}: varint-simd +ssse3 build missing, no ratio"),
            };
            let _ = writeln!(s, "{line}");
        }
    }
    super::write_report(out, &s)
}

/// CSV: `suite,op,type,codec,kernel,peer,mvs,mvs_best`.
pub fn csv(o: &Outcome, out: &mut dyn std::io::Write) -> Result<(), String> {
    let mut s = String::from("suite,op,type,codec,kernel,peer,mvs,mvs_best\n");
    for r in &o.rows {
        s.push_str(&format!(
            "varint,{},{},\"{}\",\"{}\",{},{:.2},{:.2}\n",
            r.op, r.ty, r.codec, r.kernel, r.peer, r.mvs, r.best
        ));
    }
    super::write_report(out, &s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The format oracle: intcodec writes exactly what varint-simd, prost
    /// and integer-encoding write, and reads what they write, for every
    /// type at every length boundary and on random values.
    #[cfg(feature = "peer-varint")]
    #[test]
    fn same_bytes_as_the_peers() {
        fn go<T: Word + varint_simd::VarIntTarget + integer_encoding::VarInt>(vals: &[u64]) {
            for &x in vals {
                let v = T::from_u64(x);
                let (ours, n) = varint::encode(v);
                let (theirs, m) = varint_simd::encode(v);
                assert_eq!(&ours[..n], &theirs[..usize::from(m)], "varint-simd {x}");
                let mut p = Vec::new();
                prost::encoding::encode_varint(v.to_u64(), &mut p);
                assert_eq!(&ours[..n], &p[..], "prost {x}");
                assert_eq!(&ours[..n], &v.encode_var_vec()[..], "integer-encoding {x}");
                for k in Kernel::ALL.into_iter().filter_map(Varint::with_kernel) {
                    assert_eq!(k.decode::<T>(&p), Ok((v, n)), "{k:?} {x}");
                }
            }
        }
        let mut vals = vec![0u64, 1, u64::MAX];
        for k in 1..10 {
            let b = 1u64 << (7 * k);
            vals.extend([b - 1, b, b + 1]);
        }
        let mut s = 7u64;
        vals.extend((0..5000).map(|i| xorshift(&mut s) >> (i % 64)));
        let each_type: [fn(&[u64]); 4] = [go::<u8>, go::<u16>, go::<u32>, go::<u64>];
        each_type.iter().for_each(|go| go(&vals));
    }

    #[test]
    fn tiny_run_checks_every_contender() {
        let cfg = Config {
            sequences: 2,
            timing: crate::suites::Timing::once(3),
            mixed: true,
        };
        let o = run(&cfg, &mut |_, _| {}).unwrap();
        for ty in ["u8", "u16", "u32", "u64"] {
            assert!(o
                .rows
                .iter()
                .any(|r| r.ty == ty && r.codec == "intcodec varint::decode"));
            assert!(o.rows.iter().any(|r| r.ty == ty && r.op == "encode8"));
        }
        #[cfg(feature = "peer-varint")]
        assert!(o.rows.iter().any(|r| r.codec == "peer:prost decode_varint"));
        #[cfg(feature = "peer-varint-simd-builds")]
        {
            let vs = o
                .rows
                .iter()
                .filter(|r| r.kernel == "cdylib +ssse3")
                .count();
            // 4 types x (safe, unsafe, encode) + two (3) + four (2) + eight (1),
            // when build.rs could build the cdylib (it says so otherwise).
            if o.builds.iter().any(|b| b.contains("NOT BUILT")) {
                eprintln!("*** varint-simd cdylib peers not built: {:#?}", o.builds);
            } else {
                assert_eq!(vs, 4 * 3 + 3 + 2 + 1, "{:#?}", o.builds);
            }
        }
        let mut t = Vec::new();
        table(&o, &["hdr".to_string()], &mut t).unwrap();
        let t = String::from_utf8(t).unwrap();
        assert!(t.contains("targets"), "{t}");
    }
}
