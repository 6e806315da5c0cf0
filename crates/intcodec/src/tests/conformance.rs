//! The conformance harness every codec runs: written against the public
//! traits only ([`IntCodec`], [`KernelChoice`], [`SortedCodec`]), so a codec
//! is checked by one call, e.g.
//! `check_codec(&*registry::by_name("streamvbyte").unwrap())`.
//!
//! [`check_codec`] takes every kernel the codec lists (`kernel_isas` +
//! `with_isa_dyn`), the scalar kernel being the reference, and checks on
//! every length of [`lengths`] (0..=300 and block boundaries ±1 up to 4097)
//! and every family of [`corpus`] (zeros, MAX, each byte width, alternating
//! and random widths, sorted gaps), plain and, when `supports_delta()`,
//! delta-coded from several `prev` (0, `u32::MAX - 1`, the first value):
//!
//! - the kernel list: scalar first, ascending, each kernel constructible and
//!   reporting its ISA and the codec's name, none outside the list;
//! - encoding: the same bytes as scalar into an exact-size buffer and into a
//!   larger one; `compressed_len(_delta)` is the written size;
//!   `max_compressed_len(n)` bounds it; one byte short is
//!   `OutputTooSmall { needed, available }`;
//! - decoding the stream: the values and bytes consumed, into exact-size and
//!   larger buffers (nothing written past `n`: sentinel), from unaligned
//!   input (offsets 1..=3) and into unaligned output, with trailing bytes
//!   (ignored); `encoded_len`; `decode_to_vec`; `OutputTooSmall` when
//!   `out.len() < n` (the same error as scalar); the unchecked decoders on
//!   the stream followed by 64 padding bytes;
//! - `max_values` is a bound: `n <= max_values(len)` for every stream of `n`
//!   values in `len` bytes (also for every `Ok(used)` decode of other input),
//!   and `decode_to_vec` refuses `max_values(len) + 1` and `usize::MAX`
//!   values with `Truncated` without allocating them;
//! - every truncation point of the stream (every cut for `n <= 40`, a sample
//!   beyond), streams with one byte changed, the stream read with `n ± 1`,
//!   and random garbage: every kernel gives scalar's `Result` (bytes
//!   consumed, or error kind, offset and value index), the same values (on
//!   an error at value `i`, the same `out[..i]`), nothing written past `n`;
//!   `encoded_len` gives scalar's result, consistent with decoding (the same
//!   `Ok`; on an error the same error, or a length beyond the input, as
//!   Stream VByte reads it from the control bytes alone); any `Ok` from a
//!   prefix of a valid stream holds the true values;
//! - codecs without delta: `encode_delta` is `EncodeError::Unsupported` and
//!   `decode_delta` is `DecodeErrorKind::Unsupported` on every kernel.
//!
//! [`check_sorted`] checks a [`SortedCodec`] on every kernel of
//! `all_kernels()`: `select` for every index (a sample for long lists, and
//! indexes `>= n`), `lower_bound` for keys below, at, between and above the
//! values, against the sorted `Vec`; `insert` against a `Vec` model (index
//! after equal values, the canonical stream, trailing bytes kept, errors
//! leave the bytes alone); truncated and garbage streams give scalar's
//! result on every kernel, and any `Ok` from a truncated stream is the true
//! answer.
//!
//! What it cannot know generically stays in each codec's own tests: golden
//! vectors, the exact error a format implies (an independent parser), the
//! kernel list against the codec's kernel table, format-specific malformed
//! inputs, and other entry points (block APIs, u64, containers).

use std::boxed::Box;
use std::fmt;
use std::string::String;
use std::vec::Vec;

use super::seek::{indexes, targets};
use super::{corpus, lengths, Rng};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::isa::Isa;
use crate::traits::{IntCodec, KernelChoice, SortedCodec};

/// What every output slot holds before a decode.
pub(crate) const SENTINEL: u32 = 0xA5A5_5A5A;

/// Bytes after a stream given to the unchecked decoders (every codec's
/// `PADDING` is at most this).
const PAD: usize = 64;

/// Bytes appended after a stream: they must be ignored.
const TRAILING: [u8; 7] = [0xFF, 0x00, 0x80, 0x7F, 0xFF, 0x0F, 0x01];

const SEED: u64 = 0xC0DE_C0DE;

/// Lengths whose truncation points are all tried (every cut for `n <= 40`).
const EVERY_CUT_UP_TO: usize = 40;

/// Plain or delta-coded from `prev`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Plain,
    Delta(u32),
}

impl Mode {
    /// The `prev` of the `*_opt` coders: `None` for plain.
    fn prev(self) -> Option<u32> {
        match self {
            Mode::Plain => None,
            Mode::Delta(p) => Some(p),
        }
    }

    /// Delta-coded from `prev` if `delta`, else plain.
    fn of(delta: bool, prev: u32) -> Mode {
        if delta {
            Mode::Delta(prev)
        } else {
            Mode::Plain
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mode::Plain => f.write_str("plain"),
            Mode::Delta(p) => write!(f, "delta prev={p}"),
        }
    }
}

/// Where a check is: formatted only when it fails.
#[derive(Clone, Copy)]
struct At<'a> {
    codec: &'static str,
    isa: Isa,
    n: usize,
    family: &'a str,
    mode: Mode,
}

impl<'a> At<'a> {
    /// The scalar kernel's checks of `n` values of `family` in `mode`.
    fn scalar(codec: &'static str, n: usize, family: &'a str, mode: Mode) -> Self {
        At {
            codec,
            isa: Isa::Scalar,
            n,
            family,
            mode,
        }
    }

    fn on(self, isa: Isa) -> Self {
        At { isa, ..self }
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "conformance: codec {}, kernel {} vs scalar, n={}, family={}, {}",
            self.codec, self.isa, self.n, self.family, self.mode
        )
    }
}

/// The first index where two byte strings differ, for messages.
fn first_diff<T: PartialEq>(a: &[T], b: &[T]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!("first difference at index {i}"),
        None => format!("lengths {} and {}", a.len(), b.len()),
    }
}

// ------------------------------------------------------------ entry points

/// Every kernel of `codec` (`kernel_isas` + `with_isa_dyn`), scalar first,
/// after checking the list itself.
pub(crate) fn kernels(codec: &dyn IntCodec) -> Vec<Box<dyn IntCodec>> {
    let name = codec.name();
    let isas = codec.kernel_isas();
    assert_eq!(
        isas.first(),
        Some(&Isa::Scalar),
        "conformance: codec {name}: kernel_isas() must start with scalar: {isas:?}"
    );
    assert!(
        isas.windows(2).all(|w| w[0] < w[1]),
        "conformance: codec {name}: kernel_isas() must be ascending without repeats: {isas:?}"
    );
    assert!(
        isas.contains(&codec.isa()),
        "conformance: codec {name}: its kernel {} is not in kernel_isas() {isas:?}",
        codec.isa()
    );
    let ks: Vec<Box<dyn IntCodec>> = isas
        .iter()
        .map(|&isa| {
            let k = codec.with_isa_dyn(isa).unwrap_or_else(|| {
                panic!("conformance: codec {name}: kernel_isas() lists {isa} but with_isa_dyn({isa}) is None")
            });
            assert_eq!(k.isa(), isa, "conformance: codec {name}: with_isa_dyn({isa}).isa()");
            assert_eq!(k.name(), name, "conformance: codec {name}: with_isa_dyn({isa}).name()");
            assert_eq!(
                k.kernel_isas(),
                isas,
                "conformance: codec {name}: kernel {isa} lists other kernels"
            );
            k
        })
        .collect();
    for isa in Isa::ALL.into_iter().filter(|i| !isas.contains(i)) {
        assert!(
            codec.with_isa_dyn(isa).is_none(),
            "conformance: codec {name}: with_isa_dyn({isa}) gives a kernel kernel_isas() does not list"
        );
    }
    let delta = codec.supports_delta();
    for k in &ks {
        assert_eq!(
            k.supports_delta(),
            delta,
            "conformance: codec {name}: kernel {} differs on supports_delta()",
            k.isa()
        );
    }
    ks
}

/// Checks every kernel of `codec` against its scalar kernel (see the module
/// docs for the list). Panics with a message naming the codec, kernel,
/// length, input family and mode of the first failure.
pub(crate) fn check_codec(codec: &dyn IntCodec) {
    let ks = kernels(codec);
    let name = codec.name();
    let delta = codec.supports_delta();
    for k in &ks {
        assert!(
            k.unchecked_padding() <= PAD && k.unchecked_padding() == ks[0].unchecked_padding(),
            "conformance: codec {name}, kernel {}: unchecked_padding {} (the harness pads {PAD})",
            k.isa(),
            k.unchecked_padding()
        );
    }
    let mut rng = Rng::new(SEED ^ name.len() as u64);
    for n in lengths() {
        let deep = n <= EVERY_CUT_UP_TO || TRUNCATION_LENGTHS.contains(&n);
        for (family, values) in corpus(n, SEED) {
            let mut modes = vec![Mode::Plain];
            if delta {
                for p in [0, u32::MAX - 1, values.first().copied().unwrap_or(7)] {
                    if !modes.contains(&Mode::Delta(p)) {
                        modes.push(Mode::Delta(p));
                    }
                }
            }
            for (m, &mode) in modes.iter().enumerate() {
                let at = At::scalar(name, n, family, mode);
                let stream = check_valid(&ks, &values, at);
                // The quadratic checks: on the first two modes, and on long
                // lists only for a few families.
                let few = n <= 300 || matches!(family, "w4" | "random-width" | "sorted");
                if deep && m < 2 && few {
                    check_truncations(&ks, &values, &stream, at);
                    check_mutations(&ks, &values, &stream, at, &mut rng);
                }
            }
        }
    }
    if !delta {
        check_no_delta(&ks, name);
    }
    check_garbage(&ks, name, delta, &mut rng);
}

/// [`check_codec`] for a concrete codec, plus its [`KernelChoice`] list.
#[allow(dead_code)] // for the codecs' conformance tests
pub(crate) fn check_codec_generic<C: KernelChoice>(c: C) {
    let all = c.all_kernels();
    let isas: Vec<Isa> = all.iter().map(|k| k.isa()).collect();
    assert_eq!(
        isas,
        c.kernel_isas(),
        "conformance: codec {}: all_kernels() vs kernel_isas()",
        c.name()
    );
    assert!(
        C::best().kernel_isas().contains(&C::best().isa()),
        "conformance: codec {}: best() is not one of its kernels",
        c.name()
    );
    check_codec(&c);
}

/// Lengths (beyond `0..=EVERY_CUT_UP_TO`) whose truncations, mutations are
/// tried: block boundaries of the usual sizes.
const TRUNCATION_LENGTHS: [usize; 16] = [
    63, 64, 65, 127, 128, 129, 255, 256, 257, 300, 511, 512, 513, 1025, 4095, 4097,
];

// ----------------------------------------------------------- mode helpers

fn compressed_len(k: &dyn IntCodec, v: &[u32], mode: Mode) -> usize {
    match mode {
        Mode::Plain => k.compressed_len(v),
        Mode::Delta(p) => k.compressed_len_delta(v, p),
    }
}

/// The unchecked decoder on `stream` followed by [`PAD`] bytes, into an
/// exact-size buffer: (bytes consumed, values).
///
/// # Safety
/// `stream` must be what `k`'s format (any kernel of it) writes for `n`
/// values in `mode`.
unsafe fn decode_unchecked(
    k: &dyn IntCodec,
    stream: &[u8],
    n: usize,
    mode: Mode,
) -> (usize, Vec<u32>) {
    let mut padded = Vec::with_capacity(stream.len() + PAD);
    padded.extend_from_slice(stream);
    padded.extend((0..PAD).map(|i| if i % 3 == 0 { 0x00 } else { 0xFF }));
    let mut out = vec![SENTINEL; n];
    // SAFETY: a stream the encoder wrote for `n` values in `mode` (caller),
    // PAD (>= every codec's padding) bytes after it, `out.len() == n`.
    let used = unsafe { k.decode_opt_unchecked(&padded, n, mode.prev(), &mut out) };
    (used, out)
}

// ------------------------------------------------------- a valid stream

/// Encodes `values` on every kernel and decodes the stream back in every
/// way; returns scalar's stream.
fn check_valid(ks: &[Box<dyn IntCodec>], values: &[u32], at: At<'_>) -> Vec<u8> {
    let s = &*ks[0];
    let n = values.len();
    let mode = at.mode;
    let len = compressed_len(s, values, mode);
    let max = s
        .max_compressed_len(n)
        .unwrap_or_else(|| panic!("{at}: max_compressed_len(n) is None"));
    assert!(
        len <= max,
        "{at}: compressed_len {len} > max_compressed_len {max}"
    );
    let mut want = vec![0u8; len];
    assert_eq!(
        s.encode_opt(values, mode.prev(), &mut want),
        Ok(len),
        "{at}: encode into a buffer of compressed_len bytes"
    );
    let max_values = s.max_values(len);
    assert!(
        n <= max_values,
        "{at}: max_values({len}) = {max_values} but the stream holds {n} values: not a bound"
    );
    let mut padded_in = vec![0u8; len + TRAILING.len()];
    padded_in[..len].copy_from_slice(&want);
    padded_in[len..].copy_from_slice(&TRAILING);
    let want_short = (n > 0).then(|| {
        let mut out = vec![SENTINEL; n - 1];
        s.decode_opt(&want, n, mode.prev(), &mut out)
    });

    for k in ks {
        let at = at.on(k.isa());
        let k = &**k;
        assert_eq!(compressed_len(k, values, mode), len, "{at}: compressed_len");
        assert_eq!(
            k.max_compressed_len(n),
            Some(max),
            "{at}: max_compressed_len"
        );
        assert_eq!(k.max_values(len), max_values, "{at}: max_values({len})");

        // Encoding: exact size, larger, one byte short.
        let mut out = vec![0u8; len];
        assert_eq!(
            k.encode_opt(values, mode.prev(), &mut out),
            Ok(len),
            "{at}: encode (exact-size buffer)"
        );
        assert!(
            out == want,
            "{at}: encoded bytes differ from scalar's ({}, {len} bytes)",
            first_diff(&out, &want)
        );
        let mut big = vec![0xEEu8; max + 16];
        assert_eq!(
            k.encode_opt(values, mode.prev(), &mut big),
            Ok(len),
            "{at}: encode (larger buffer)"
        );
        assert!(
            big[..len] == want[..],
            "{at}: encoded bytes (larger buffer) differ from scalar's"
        );
        if len > 0 {
            let mut short = vec![0u8; len - 1];
            assert_eq!(
                k.encode_opt(values, mode.prev(), &mut short),
                Err(EncodeError::OutputTooSmall {
                    needed: len,
                    available: len - 1
                }),
                "{at}: encode into a buffer one byte short"
            );
        }

        // Decoding: exact size, larger (nothing written past n), trailing
        // bytes ignored.
        let check_decode = |input: &[u8], extra: usize, what: &str| {
            let mut got = vec![SENTINEL; n + extra];
            assert_eq!(
                k.decode_opt(input, n, mode.prev(), &mut got),
                Ok(len),
                "{at}: decode ({what})"
            );
            assert!(
                got[..n] == *values,
                "{at}: decoded values differ ({what}: {})",
                first_diff(&got[..n], values)
            );
            assert!(
                got[n..].iter().all(|&v| v == SENTINEL),
                "{at}: decode wrote past n ({what})"
            );
        };
        check_decode(&want, 0, "exact-size buffer");
        check_decode(&want, 5, "larger buffer");
        check_decode(&padded_in, 0, "with trailing bytes");
        assert_eq!(k.encoded_len(&want, n), Ok(len), "{at}: encoded_len");
        assert_eq!(
            k.encoded_len(&padded_in, n),
            Ok(len),
            "{at}: encoded_len with trailing bytes"
        );
        assert_eq!(
            k.decode_opt_to_vec(&want, n, mode.prev()).as_deref(),
            Ok(values),
            "{at}: decode_to_vec"
        );
        // Unaligned input and output.
        for off in 1..=3 {
            let mut shifted = vec![0xEEu8; off + len];
            shifted[off..].copy_from_slice(&want);
            let mut got = vec![SENTINEL; off + n + 1];
            let r = k.decode_opt(&shifted[off..], n, mode.prev(), &mut got[off..off + n]);
            assert_eq!(r, Ok(len), "{at}: decode at input offset {off}");
            assert!(
                got[off..off + n] == *values,
                "{at}: values at input/output offset {off}"
            );
            assert!(
                got[..off]
                    .iter()
                    .chain(&got[off + n..])
                    .all(|&v| v == SENTINEL),
                "{at}: decode at output offset {off} wrote outside out[..n]"
            );
        }
        // Too small an output buffer.
        if let Some(want_short) = want_short {
            let mut short = vec![SENTINEL; n - 1];
            let r = k.decode_opt(&want, n, mode.prev(), &mut short);
            assert_eq!(
                r, want_short,
                "{at}: decode into n - 1 slots (scalar's result)"
            );
            assert!(
                matches!(r, Err(e) if e.kind() == DecodeErrorKind::OutputTooSmall),
                "{at}: decode into n - 1 slots must be OutputTooSmall: {r:?}"
            );
        }
        // Unchecked decoding of a valid, padded stream.
        // SAFETY: `want` is what this codec's (scalar) encoder wrote for `n`
        // values in `mode`, and every kernel wrote the same bytes (above).
        let (used, got) = unsafe { decode_unchecked(k, &want, n, mode) };
        assert_eq!(used, len, "{at}: unchecked decode: bytes consumed");
        assert!(
            got == values,
            "{at}: unchecked decode: values ({})",
            first_diff(&got, values)
        );
        // The allocating decoders refuse counts beyond max_values.
        for bad in [
            max_values.checked_add(1),
            (max_values < usize::MAX).then_some(usize::MAX),
        ] {
            let Some(bad) = bad else { continue };
            let r = k.decode_opt_to_vec(&want, bad, mode.prev());
            assert!(
                r.is_err(),
                "{at}: decode_to_vec of {bad} values (max_values({len}) = {max_values}) must fail: {:?}",
                r.map(|v| v.len())
            );
        }
    }
    want
}

// ------------------------------------------------- arbitrary input bytes

/// Decodes `input` (`n` values) on every kernel and checks they agree with
/// scalar: the `Result`, the values (on an error at value `i`, `out[..i]`),
/// nothing past `n`, `encoded_len` scalar's and consistent with decoding
/// ([`check_encoded_len`]), `Ok(used)`
/// within the input and `n <= max_values(used)`, `decode_to_vec` consistent.
/// Returns scalar's result and values.
fn agree(
    ks: &[Box<dyn IntCodec>],
    input: &[u8],
    n: usize,
    at: At<'_>,
    what: &dyn fmt::Display,
) -> (Result<usize, DecodeError>, Vec<u32>) {
    let mode = at.mode;
    let mut want = vec![SENTINEL; n + 3];
    let want_r = ks[0].decode_opt(input, n, mode.prev(), &mut want);
    let want_len = ks[0].encoded_len(input, n);
    let valid = match want_r {
        Ok(_) => n,
        Err(e) => e.index().unwrap_or(0).min(n),
    };
    for k in ks {
        let at = at.on(k.isa());
        let k = &**k;
        let mut got = vec![SENTINEL; n + 3];
        let r = k.decode_opt(input, n, mode.prev(), &mut got);
        assert_eq!(
            r, want_r,
            "{at}, {what}: decode result differs from scalar's"
        );
        assert!(
            got[..valid] == want[..valid],
            "{at}, {what}: decoded values differ from scalar's ({})",
            first_diff(&got[..valid], &want[..valid])
        );
        assert!(
            got[n..].iter().all(|&v| v == SENTINEL),
            "{at}, {what}: decode wrote past n ({r:?})"
        );
        if let Ok(used) = r {
            assert!(
                used <= input.len(),
                "{at}, {what}: consumed {used} of {} bytes",
                input.len()
            );
            let mv = k.max_values(used);
            assert!(
                n <= mv,
                "{at}, {what}: decoded {n} values from {used} bytes but max_values({used}) = {mv}: not a bound"
            );
        }
        if mode == Mode::Plain || k.supports_delta() {
            let len = k.encoded_len(input, n);
            assert_eq!(
                len, want_len,
                "{at}, {what}: encoded_len differs from scalar's"
            );
            check_encoded_len(len, r, input.len(), at, what);
        }
        let v = k.decode_opt_to_vec(input, n, mode.prev());
        if n <= k.max_values(input.len()) {
            let expect = r.map(|_| got[..n].to_vec());
            assert_eq!(v, expect, "{at}, {what}: decode_to_vec differs from decode");
        } else {
            assert!(
                v.is_err(),
                "{at}, {what}: decode_to_vec beyond max_values must fail"
            );
        }
    }
    want.truncate(n);
    (want_r, want)
}

/// `encoded_len` (`len`) against the decoding's result `r` on an input of
/// `input_len` bytes: the same `Ok`; on a decoding error the same error, or
/// an `Ok` length beyond the input (a length read from headers alone, as
/// Stream VByte's control bytes give, naming bytes the input lacks).
fn check_encoded_len(
    len: Result<usize, DecodeError>,
    r: Result<usize, DecodeError>,
    input_len: usize,
    at: At<'_>,
    what: &dyn fmt::Display,
) {
    match (r, len) {
        (Ok(used), len) => assert_eq!(
            len,
            Ok(used),
            "{at}, {what}: encoded_len differs from the bytes decoding consumed"
        ),
        (Err(e), Err(f)) => assert_eq!(
            f, e,
            "{at}, {what}: encoded_len's error differs from the decoding's"
        ),
        (Err(e), Ok(l)) => assert!(
            l > input_len,
            "{at}, {what}: encoded_len is Ok({l}) within the {input_len}-byte input but decoding fails: {e:?}"
        ),
    }
}

/// Cut points of a stream of `len` bytes: every one for `n <= 40`, else
/// the first and last few and an even sample.
fn cuts(n: usize, len: usize) -> Vec<usize> {
    if n <= EVERY_CUT_UP_TO {
        return (0..len).collect();
    }
    let mut c: Vec<usize> = (0..len.min(9)).collect();
    c.extend(len.saturating_sub(17)..len);
    c.extend((1..24).map(|j| len * j / 24));
    c.sort_unstable();
    c.dedup();
    c.retain(|&x| x < len);
    c
}

fn check_truncations(ks: &[Box<dyn IntCodec>], values: &[u32], stream: &[u8], at: At<'_>) {
    let n = values.len();
    for cut in cuts(n, stream.len()) {
        let input = stream[..cut].to_vec();
        let what = format!("truncated to {cut} of {} bytes", stream.len());
        let (r, got) = agree(ks, &input, n, at, &what);
        if r.is_ok() {
            assert!(
                got == values,
                "{at}, {what}: a truncated stream decoded Ok to other values"
            );
        }
    }
}

/// The stream with one byte changed, and read with `n - 1`, `n + 1` values.
fn check_mutations(
    ks: &[Box<dyn IntCodec>],
    values: &[u32],
    stream: &[u8],
    at: At<'_>,
    rng: &mut Rng,
) {
    let n = values.len();
    for m in 0..8 {
        if stream.is_empty() {
            break;
        }
        let mut bytes = stream.to_vec();
        let pos = rng.next_u32() as usize % bytes.len();
        bytes[pos] = match m % 4 {
            0 => 0xFF,
            1 => 0x00,
            2 => bytes[pos] ^ 0x80,
            _ => rng.next_u32() as u8,
        };
        let what = format!("byte {pos} of the stream set to {:#04x}", bytes[pos]);
        let _ = agree(ks, &bytes, n, at, &what);
    }
    for other in [n.wrapping_sub(1), n + 1, 2 * n + 3] {
        if other == usize::MAX {
            continue;
        }
        let what = format!("the stream of {n} values read as {other}");
        let _ = agree(ks, stream, other, At { n: other, ..at }, &what);
    }
}

/// Garbage input: up to 299 random bytes, each passed through `mix`.
fn garbage(rng: &mut Rng, mix: impl Fn(u8) -> u8) -> Vec<u8> {
    let len = (rng.next_u32() % 300) as usize;
    (0..len).map(|_| mix(rng.next_u32() as u8)).collect()
}

fn check_garbage(ks: &[Box<dyn IntCodec>], name: &'static str, delta: bool, rng: &mut Rng) {
    for round in 0..1500 {
        let input = garbage(rng, |b| match round % 4 {
            0 => b | 0x80,
            1 => b & 0x0F,
            _ => b,
        });
        let len = input.len();
        let room = ks[0].max_values(len).min(8 * len + 64);
        let n = match round % 3 {
            0 => (rng.next_u32() % 600) as usize,
            1 => room.saturating_sub((rng.next_u32() % 8) as usize),
            _ => (rng.next_u32() % 8) as usize,
        };
        let mode = if delta && round % 2 == 1 {
            Mode::Delta(rng.next_u32())
        } else {
            Mode::Plain
        };
        let at = At::scalar(name, n, "garbage", mode);
        let what = format!("garbage round {round} ({len} bytes)");
        let _ = agree(ks, &input, n, at, &what);
    }
}

/// An independent parser of a codec's format, for [`check_parser`]: the
/// first `n` values of `input` and the bytes they take, or the error the
/// format implies (kind, offset, value index).
pub(crate) type Parser<'a> = &'a dyn Fn(&[u8], usize) -> Result<(Vec<u32>, usize), DecodeError>;

/// Checks every kernel of `codec` against `parse`, an independent reading
/// of its format (plain streams): the encoder's streams of every family
/// parse to their values; on those streams, their every truncation point
/// (a sample for long ones), one-byte changes, other counts, and garbage
/// (uniform, high bits set, alternate bits cleared), every kernel's
/// `decode` gives the parser's values and bytes consumed, or its exact
/// error.
#[allow(dead_code)] // not every codec has a parser (features)
pub(crate) fn check_parser(codec: &dyn IntCodec, parse: Parser<'_>) {
    let ks = kernels(codec);
    let name = codec.name();
    let check = |input: &[u8], n: usize, what: &dyn fmt::Display| {
        let want = parse(input, n);
        for k in &ks {
            let mut got = vec![SENTINEL; n];
            let r = k.decode(input, n, &mut got);
            let at = format!(
                "conformance: codec {name}, kernel {}, n={n}, {what}",
                k.isa()
            );
            match &want {
                Ok((vals, used)) => {
                    assert_eq!(r, Ok(*used), "{at}: bytes consumed vs the parser");
                    assert!(
                        got == *vals,
                        "{at}: values vs the parser ({})",
                        first_diff(&got, vals)
                    );
                }
                Err(e) => assert_eq!(r, Err(*e), "{at}: error vs the parser"),
            }
        }
    };
    let mut rng = Rng::new(SEED ^ 0x9A45);
    let lens = (0..=EVERY_CUT_UP_TO).chain([63, 64, 65, 100, 127, 128, 129, 257, 1000]);
    for n in lens {
        for (family, values) in corpus(n, SEED ^ 3) {
            let stream = ks[0].encode_to_vec(&values);
            let what = format!("family {family}");
            assert_eq!(
                parse(&stream, n),
                Ok((values.clone(), stream.len())),
                "conformance: codec {name}, n={n}, {what}: the parser misreads the encoder's stream"
            );
            for cut in cuts(n, stream.len()) {
                check(
                    &stream[..cut],
                    n,
                    &format_args!("{what}, truncated to {cut} bytes"),
                );
            }
            for _ in 0..4 {
                let mut bytes = stream.clone();
                if !bytes.is_empty() {
                    let pos = rng.next_u32() as usize % bytes.len();
                    bytes[pos] = rng.next_u32() as u8;
                    check(
                        &bytes,
                        n,
                        &format_args!("{what}, byte {pos} set to {:#04x}", bytes[pos]),
                    );
                }
            }
            for other in [n / 2, n + 1, 2 * n + 3] {
                check(
                    &stream,
                    other,
                    &format_args!("{what}, {n} values read as {other}"),
                );
            }
        }
    }
    for round in 0..3000 {
        let input = garbage(&mut rng, |b| match round % 3 {
            0 => b,
            1 => b | 0x80,
            _ => b & 0x55,
        });
        let len = input.len();
        let n = (rng.next_u32() % 300) as usize;
        check(
            &input,
            n,
            &format_args!("garbage round {round} ({len} bytes)"),
        );
    }
}

fn check_no_delta(ks: &[Box<dyn IntCodec>], name: &'static str) {
    for k in ks {
        let isa = k.isa();
        let mut out = vec![0u8; 64];
        assert_eq!(
            k.encode_delta(&[1, 2, 3], 0, &mut out),
            Err(EncodeError::Unsupported),
            "conformance: codec {name}, kernel {isa}: encode_delta without delta support"
        );
        let bytes = k.encode_to_vec(&[1, 2, 3]);
        let mut vals = [0u32; 3];
        let r = k.decode_delta(&bytes, 3, 0, &mut vals);
        assert!(
            matches!(r, Err(e) if e.kind() == DecodeErrorKind::Unsupported),
            "conformance: codec {name}, kernel {isa}: decode_delta without delta support: {r:?}"
        );
    }
}

// --------------------------------------------------------- sorted streams

/// The model's lower bound on sorted `values`: the first index whose value
/// is `>= key`, with the value (binary search: the linear model of
/// `tests::seek` was a tenth of the sorted checks' time).
fn model_lower_bound(values: &[u32], key: u32) -> Option<(usize, u32)> {
    let i = values.partition_point(|&v| v < key);
    values.get(i).map(|&v| (i, v))
}

/// The stream `k` keeps sorted values in: delta-coded from `prev` when the
/// codec supports delta, else plain.
fn sorted_stream<C: SortedCodec>(k: &C, values: &[u32], prev: u32) -> Vec<u8> {
    k.encode_opt_to_vec(values, k.supports_delta().then_some(prev))
}

/// Lengths for the sorted checks: the short ones and block boundaries.
fn sorted_lengths() -> impl Iterator<Item = usize> {
    lengths().filter(|&n| n <= EVERY_CUT_UP_TO || TRUNCATION_LENGTHS.contains(&n) || n % 1024 <= 1)
}

/// Checks `select`, `lower_bound` and `insert` of `c` on every kernel of
/// `all_kernels()` against a sorted `Vec`, and against scalar on truncated
/// and garbage streams (see the module docs); `sorted_len` and
/// `sorted_len_of_range`, where given, against the stream's length.
#[allow(dead_code)] // for the codecs' conformance tests
pub(crate) fn check_sorted<C: SortedCodec + KernelChoice>(c: C) {
    let ks = c.all_kernels();
    let name = c.name();
    assert_eq!(
        ks.first().map(|k| k.isa()),
        Some(Isa::Scalar),
        "conformance: codec {name}: all_kernels() must start with scalar"
    );
    assert_eq!(
        ks.iter().map(|k| k.isa()).collect::<Vec<_>>(),
        c.kernel_isas(),
        "conformance: codec {name}: all_kernels() vs kernel_isas()"
    );
    let delta = c.supports_delta();
    let mut rng = Rng::new(SEED ^ 0x50F7);
    for n in sorted_lengths() {
        for (family, mut values) in corpus(n, SEED ^ 1) {
            let unsorted = values.clone();
            values.sort_unstable();
            let first = values.first().copied().unwrap_or(7);
            let prevs: Vec<u32> = if delta {
                let mut p = vec![0, first / 2, first];
                p.dedup();
                p
            } else {
                vec![0, 0x9E37_79B9]
            };
            for (m, &prev) in prevs.iter().enumerate() {
                let at = At::scalar(name, n, family, Mode::of(delta, prev));
                let stream = sorted_stream(&ks[0], &values, prev);
                // The lengths a codec tells without encoding, where it does.
                let from = delta.then_some(prev);
                if let Some(len) = c.sorted_len(&values, from) {
                    assert_eq!(len, stream.len(), "{at}: sorted_len");
                }
                if let (Some(&lo), Some(&hi)) = (values.first(), values.last()) {
                    if let Some(len) = c.sorted_len_of_range(n, lo, hi, from) {
                        assert_eq!(len, stream.len(), "{at}: sorted_len_of_range");
                    }
                }
                let mut trailing = stream.clone();
                trailing.extend_from_slice(&TRAILING);
                let idx = indexes(n);
                let keys = targets(&values, &mut rng);
                for k in &ks {
                    let at = at.on(k.isa());
                    for &i in &idx {
                        assert_eq!(
                            k.select(&stream, n, prev, i),
                            Ok(values.get(i).copied()),
                            "{at}: select({i})"
                        );
                    }
                    for &key in &keys {
                        assert_eq!(
                            k.lower_bound(&stream, n, prev, key),
                            Ok(model_lower_bound(&values, key)),
                            "{at}: lower_bound({key})"
                        );
                    }
                    for &i in idx.iter().step_by(16) {
                        assert_eq!(
                            k.select(&trailing, n, prev, i),
                            Ok(values.get(i).copied()),
                            "{at}: select({i}) with trailing bytes"
                        );
                    }
                }
                if m == 0 {
                    sorted_unsorted(&ks, &unsorted, prev, at);
                }
                let deep = n <= EVERY_CUT_UP_TO || TRUNCATION_LENGTHS.contains(&n);
                if deep && m == 0 && (n <= 300 || family == "sorted") {
                    sorted_truncations(&ks, &values, &stream, prev, at, &mut rng);
                }
            }
        }
    }
    sorted_inserts(&ks, name, delta, &mut rng);
    sorted_garbage(&ks, name, &mut rng);
}

/// `select` on a stream of unsorted values: the value at the index, on
/// every kernel (`lower_bound` may assume sorted values).
fn sorted_unsorted<C: SortedCodec>(ks: &[C], values: &[u32], prev: u32, at: At<'_>) {
    let n = values.len();
    let stream = sorted_stream(&ks[0], values, prev);
    for k in ks {
        let at = at.on(k.isa());
        for i in indexes(n) {
            assert_eq!(
                k.select(&stream, n, prev, i),
                Ok(values.get(i).copied()),
                "{at}, unsorted values: select({i})"
            );
        }
    }
}

fn sorted_truncations<C: SortedCodec>(
    ks: &[C],
    values: &[u32],
    stream: &[u8],
    prev: u32,
    at: At<'_>,
    rng: &mut Rng,
) {
    let n = values.len();
    let idx = indexes(n);
    let keys: Vec<u32> = targets(values, rng).into_iter().step_by(2).collect();
    let s = &ks[0];
    for cut in cuts(n, stream.len()) {
        let input = stream[..cut].to_vec();
        let mut scratch = vec![0u32; n];
        let decoded = s.decode_opt(&input, n, s.supports_delta().then_some(prev), &mut scratch);
        let truncated = Truncated {
            ks,
            decoded: decoded.map(|_| ()),
            at,
            cut,
        };
        for &i in &idx {
            truncated.query(&format_args!("select({i})"), values.get(i).copied(), |k| {
                k.select(&input, n, prev, i)
            });
        }
        for &key in &keys {
            truncated.query(
                &format_args!("lower_bound({key})"),
                model_lower_bound(values, key),
                |k| k.lower_bound(&input, n, prev, key),
            );
        }
        // Insert into a truncated stream: scalar's result; bytes untouched
        // on an error.
        let x = values.get(n / 2).copied().unwrap_or(prev).max(prev);
        let mut want_bytes = input.clone();
        let want = s.insert(&mut want_bytes, n, prev, x);
        for k in ks {
            let at = at.on(k.isa());
            let mut bytes = input.clone();
            let r = k.insert(&mut bytes, n, prev, x);
            assert_eq!(
                r, want,
                "{at}, truncated to {cut} bytes: insert({x}) differs from scalar's"
            );
            if r.is_err() {
                assert!(
                    bytes == input,
                    "{at}, truncated to {cut} bytes: a failed insert changed the bytes"
                );
            } else {
                assert!(
                    bytes == want_bytes,
                    "{at}, truncated to {cut} bytes: insert bytes differ"
                );
            }
        }
    }
}

/// The queries of [`sorted_truncations`] on a stream truncated to `cut`
/// bytes, whose decoding gives `decoded`.
struct Truncated<'a, C> {
    ks: &'a [C],
    decoded: Result<(), DecodeError>,
    at: At<'a>,
    cut: usize,
}

impl<C: SortedCodec> Truncated<'_, C> {
    /// Query `what` (`query`) on every kernel: scalar's error is the one
    /// decoding gives, and its `Ok` the model's answer `model`; every other
    /// kernel gives scalar's result.
    fn query<T: PartialEq + fmt::Debug>(
        &self,
        what: &dyn fmt::Display,
        model: T,
        query: impl Fn(&C) -> Result<T, DecodeError>,
    ) {
        let (at, cut) = (self.at, self.cut);
        let want = query(&self.ks[0]);
        match &want {
            Err(e) => assert_eq!(
                Err(*e),
                self.decoded,
                "{at}, truncated to {cut} bytes: {what} fails otherwise than decoding"
            ),
            Ok(v) => assert_eq!(
                *v, model,
                "{at}, truncated to {cut} bytes: scalar {what} is Ok but wrong"
            ),
        }
        for k in &self.ks[1..] {
            assert_eq!(
                query(k),
                want,
                "{}, truncated to {cut} bytes: {what} differs from scalar's",
                at.on(k.isa())
            );
        }
    }
}

fn sorted_inserts<C: SortedCodec + KernelChoice>(
    ks: &[C],
    name: &'static str,
    delta: bool,
    rng: &mut Rng,
) {
    for n in [0usize, 1, 2, 5, 17, 64, 130, 600] {
        for (family, mut values) in corpus(n, SEED ^ 2) {
            if !matches!(family, "zeros" | "max" | "w1" | "random-width" | "sorted") {
                continue;
            }
            values.sort_unstable();
            let prev = if delta {
                values.first().map_or(100, |&f| f / 2)
            } else {
                0xDEAD_BEEF
            };
            let low = if delta { prev } else { 0 };
            let at = At::scalar(name, n, family, Mode::of(delta, prev));
            for k in ks {
                let at = at.on(k.isa());
                let mut model = values.clone();
                let mut bytes = sorted_stream(&ks[0], &model, prev);
                bytes.extend_from_slice(&TRAILING);
                for step in 0..24u32 {
                    let x = match step % 6 {
                        0 => low.wrapping_add(rng.next_u32() >> (step % 24 + 8)).max(low),
                        1 if !model.is_empty() => model[rng.next_u32() as usize % model.len()],
                        2 => low,
                        3 => u32::MAX,
                        _ => low + (rng.next_u32() % (u32::MAX - low).max(1)),
                    };
                    let r = k.insert(&mut bytes, model.len(), prev, x);
                    let want = model.partition_point(|&v| v <= x);
                    assert_eq!(r, Ok(want), "{at}: insert({x}) into {} values", model.len());
                    model.insert(want, x);
                    let mut canon = sorted_stream(&ks[0], &model, prev);
                    canon.extend_from_slice(&TRAILING);
                    assert!(
                        bytes == canon,
                        "{at}: after insert({x}) the bytes are not the encoding of the {} values followed by the trailing bytes ({})",
                        model.len(),
                        first_diff(&bytes, &canon)
                    );
                }
                // An absurd count fails and leaves the bytes alone.
                let before = bytes.clone();
                let r = k.insert(&mut bytes, usize::MAX, prev, low);
                assert!(
                    r.is_err(),
                    "{at}: insert with n = usize::MAX must fail: {r:?}"
                );
                assert!(bytes == before, "{at}: a failed insert changed the bytes");
            }
        }
    }
}

fn sorted_garbage<C: SortedCodec>(ks: &[C], name: &'static str, rng: &mut Rng) {
    let s = &ks[0];
    for round in 0..600 {
        let len = (rng.next_u32() % 200) as usize;
        let input: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
        let n = (rng.next_u32() % 300) as usize;
        let i = (rng.next_u32() % 310) as usize;
        let key = rng.next_u32() >> (rng.next_u32() % 32);
        let prev = if round % 2 == 0 { 0 } else { rng.next_u32() };
        let x = prev.wrapping_add(rng.next_u32() >> 4).max(prev);
        let want = (
            s.select(&input, n, prev, i),
            s.lower_bound(&input, n, prev, key),
        );
        let mut want_bytes = input.clone();
        let want_ins = s.insert(&mut want_bytes, n, prev, x);
        for k in ks {
            let at = format!(
                "conformance: codec {name}, kernel {} vs scalar, garbage round {round} ({len} bytes, n={n}, prev={prev})",
                k.isa()
            );
            let got = (
                k.select(&input, n, prev, i),
                k.lower_bound(&input, n, prev, key),
            );
            assert_eq!(
                got, want,
                "{at}: select({i}), lower_bound({key}) differ from scalar's"
            );
            let mut bytes = input.clone();
            let r = k.insert(&mut bytes, n, prev, x);
            assert_eq!(r, want_ins, "{at}: insert({x}) differs from scalar's");
            // A failed insert leaves the bytes as they were, else they are
            // scalar's.
            let expected = if r.is_ok() { &want_bytes } else { &input };
            let what = if r.is_ok() {
                "differ from scalar's"
            } else {
                "changed in a failed insert"
            };
            assert!(bytes == *expected, "{at}: insert bytes {what}");
        }
    }
}

mod selftest;
