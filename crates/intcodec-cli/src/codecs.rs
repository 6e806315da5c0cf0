//! The tool's codecs: every codec of the library's registry
//! (`intcodec::registry`), under its registry name, with what only the
//! tool knows about it in [`FORMATS`]: the id byte stored in containers
//! (never reuse or renumber one; see `docs/container.md`), a summary for
//! `--help` and `info`, and the fewest bytes a stream can take (for the
//! decompression-bomb message). Encoding and decoding go through the
//! registry's `dyn IntCodec` (`registry::by_name`): no code per codec here.
//! A codec added to the registry needs one line in [`FORMATS`] (a unit test
//! fails until it has one, and until every line is a registry codec).

use std::sync::LazyLock;

use crate::error::{plural, CliError, Detail};
use intcodec::frame_of_reference;
use intcodec::{registry, DecodeError, DecodeErrorKind, IntCodec, Isa};

/// A decoded stream: the values and the number of input bytes they used.
pub(crate) type Decoded = (Vec<u32>, usize);

/// One codec as the tool sees it.
#[derive(Debug)]
pub(crate) struct Codec {
    /// Command-line name (`--codec NAME`): the registry name.
    pub(crate) name: &'static str,
    /// The container's codec id byte. Unique, never 0.
    pub(crate) id: u8,
    /// One line for `--help` and `info`.
    pub(crate) summary: &'static str,
    /// The fewest bytes a stream of `count` values can take (the library's
    /// cap on values per byte where the format has no floor: FOR,
    /// SIMD-FOR). Checked before anything else, so an absurd count is
    /// refused in O(1) with a message that says so.
    pub(crate) min_len: fn(count: usize) -> u128,
}

/// What the tool adds to a registry codec: name, container id, summary,
/// `min_len`.
type Format = (&'static str, u8, &'static str, fn(usize) -> u128);

/// The container ids and summaries of the registry's codecs. The ids are
/// part of the file format: never reuse or renumber one.
static FORMATS: &[Format] = &[
    (
        "streamvbyte",
        0x01,
        "Stream VByte, standard 1/2/3/4-byte codes (lemire/streamvbyte format)",
        |n| svb_min_len(true, n),
    ),
    (
        "streamvbyte-0124",
        0x02,
        "Stream VByte, 0/1/2/4-byte codes (zeros take no data byte)",
        |n| svb_min_len(false, n),
    ),
    (
        "vbyte",
        0x03,
        "VByte / LEB128 / protobuf varint, decoded with Masked VByte",
        |n| n as u128,
    ),
    (
        "varint-gb",
        0x04,
        "VarInt-GB (group varint), FastPFor varintgb layout: first code in the low bits",
        |n| n as u128 + n.div_ceil(4) as u128,
    ),
    (
        "varint-g8iu",
        0x05,
        "VarInt-G8IU, FastPFor varintg8iu blocks (patented: US 9,195,675 B2)",
        |n| n.div_ceil(8) as u128 * 9,
    ),
    (
        "bp128",
        0x06,
        "BP128 binary packing, BitPacker4x layout (bitpacking crate), width byte per 128-value block, VByte tail",
        |n| bp_min_len(128, n),
    ),
    (
        "for",
        0x07,
        "frame of reference (libfor-style): min, width, (value - min) bit stream",
        for_min_len,
    ),
    (
        "simd-for",
        0x08,
        "SIMD-FOR: frame of reference in the 4-lane BitPacker4x block layout",
        for_min_len,
    ),
    (
        "varint-gb-lucene",
        0x09,
        "VarInt-GB in Lucene's group-varint layout (first code in the top bits, vint tail)",
        |n| n as u128 + (n / 4) as u128,
    ),
    (
        "bp128-8x",
        0x0A,
        "BP128, BitPacker8x layout: width byte per 256-value block, VByte tail",
        |n| bp_min_len(256, n),
    ),
    (
        "bp128-d4",
        0x0B,
        "BP128, BitPacker4x layout; --delta: lane-wise differences x[i] - x[i-4] (d4)",
        |n| bp_min_len(128, n),
    ),
    (
        "bp128-8x-d8",
        0x0C,
        "BP128, BitPacker8x layout; --delta: lane-wise differences x[i] - x[i-8] (d8)",
        |n| bp_min_len(256, n),
    ),
    (
        "bp128-strict",
        0x0D,
        "BP128, BitPacker4x layout; --delta: x[i] - x[i-1] - 1 (compress_strictly_sorted)",
        |n| bp_min_len(128, n),
    ),
    (
        "bp128-8x-strict",
        0x0E,
        "BP128, BitPacker8x layout; --delta: x[i] - x[i-1] - 1 (compress_strictly_sorted)",
        |n| bp_min_len(256, n),
    ),
    (
        "bp128-16x",
        0x0F,
        "BP128, 16-lane layout (simdcomp avx512pack): width byte per 512-value block, VByte tail",
        |n| bp_min_len(512, n),
    ),
    (
        "bp128-16x-d16",
        0x10,
        "BP128, 16-lane layout; --delta: lane-wise differences x[i] - x[i-16] (d16)",
        |n| bp_min_len(512, n),
    ),
    (
        "bp128-16x-strict",
        0x11,
        "BP128, 16-lane layout; --delta: x[i] - x[i-1] - 1 (compress_strictly_sorted)",
        |n| bp_min_len(512, n),
    ),
];

/// Every codec of this build, in the order of [`FORMATS`] (`--help`,
/// `info`): its lines less the codecs this build leaves out. Built without
/// asking the registry, which panics on a bad `INTCODEC_ISA` (the commands
/// check it first, after `--help` and argument errors).
pub(crate) static CODECS: LazyLock<Vec<Codec>> = LazyLock::new(|| {
    FORMATS
        .iter()
        .filter(|f| !NOT_BUILT.iter().any(|n| n.0 == f.0))
        .map(|&(name, id, summary, min_len)| Codec {
            name,
            id,
            summary,
            min_len,
        })
        .collect()
});

impl Codec {
    /// The registry codec on the best kernel.
    fn inner(&self) -> Box<dyn IntCodec> {
        registry::by_name(self.name)
            .expect("every codec of CODECS is in the registry (unit-tested)")
    }

    /// Encodes values; with `delta`, the differences from 0, then from each
    /// previous value (wrapping). Codecs without a delta mode (FOR,
    /// SIMD-FOR) frame the differences the tool computes.
    pub(crate) fn encode(&self, values: &[u32], delta: bool) -> Vec<u8> {
        let c = self.inner();
        match (delta, c.supports_delta()) {
            (false, _) => c.encode_to_vec(values),
            (true, true) => c.encode_delta_to_vec(values, 0),
            (true, false) => c.encode_to_vec(&deltas(values)),
        }
    }

    /// Decodes `count` values from the start of `input`, returning them and
    /// the bytes consumed (trailing bytes are the caller's business).
    ///
    /// `count` comes from a file or the command line and may be absurd:
    /// nothing is allocated before the registry's cap on values per input
    /// byte (`max_values`) accepts it.
    pub(crate) fn decode(
        &self,
        input: &[u8],
        count: usize,
        delta: bool,
    ) -> Result<Decoded, DecodeError> {
        let c = self.inner();
        let max = c.max_values(input.len());
        if count > max {
            return Err(DecodeError::new(
                DecodeErrorKind::Truncated,
                input.len(),
                Some(max),
            ));
        }
        let mut out = vec![0u32; count];
        let used = if delta && c.supports_delta() {
            c.decode_delta(input, count, 0, &mut out)?
        } else {
            c.decode(input, count, &mut out)?
        };
        if delta && !c.supports_delta() {
            integrate(&mut out);
        }
        Ok((out, used))
    }

    /// The byte length of the stream of `count` values at the start of
    /// `input`, validated with the errors `decode` would give, without
    /// allocating: [`decode_exact`] checks it (and the trailing bytes) first.
    pub(crate) fn encoded_len(&self, input: &[u8], count: usize) -> Result<usize, DecodeError> {
        self.inner().encoded_len(input, count)
    }

    /// The instruction set of the kernel the codec uses on this machine.
    pub(crate) fn kernel(&self) -> Isa {
        self.inner().isa()
    }
}

/// A codec with a reserved name and id that a build may leave out: name,
/// container id, and why it is missing.
type NotBuilt = (&'static str, u8, &'static str);

/// VarInt-G8IU in a build without the `g8iu` feature (a `g8iu` build uses
/// it in its unit tests only).
#[cfg_attr(feature = "g8iu", allow(dead_code))]
const G8IU_NOT_BUILT: NotBuilt = (
    "varint-g8iu",
    0x05,
    "this intcodec was built without the cargo feature `g8iu` (off by default: \
     VarInt-G8IU is covered by US patent 9,195,675 B2); rebuild with \
     `--features g8iu` to use it",
);

/// The codecs this build leaves out.
#[cfg(not(feature = "g8iu"))]
static NOT_BUILT: &[NotBuilt] = &[G8IU_NOT_BUILT];
#[cfg(feature = "g8iu")]
static NOT_BUILT: &[NotBuilt] = &[];

/// The message for a container codec id this tool cannot decode.
pub(crate) fn unknown_id_message(id: u8) -> String {
    unknown_id_message_in(id, NOT_BUILT)
}

/// [`unknown_id_message`] for a build that leaves out `not_built`.
fn unknown_id_message_in(id: u8, not_built: &[NotBuilt]) -> String {
    match not_built.iter().find(|(_, i, _)| *i == id) {
        Some((name, _, why)) => format!("container codec 0x{id:02x} ({name}): {why}"),
        None => format!(
            "unknown codec id 0x{id:02x} in container; known ids: {}",
            known_ids()
        ),
    }
}

/// The codec called `name`, or an error listing the known names.
pub(crate) fn by_name(name: &str) -> Result<&'static Codec, CliError> {
    by_name_in(name, NOT_BUILT)
}

/// [`by_name`] for a build that leaves out `not_built`.
fn by_name_in(name: &str, not_built: &[NotBuilt]) -> Result<&'static Codec, CliError> {
    if let Some((_, _, why)) = not_built.iter().find(|(n, _, _)| *n == name) {
        return Err(CliError::new(format!(
            "codec '{name}' is not available: {why}"
        )));
    }
    CODECS.iter().find(|c| c.name == name).ok_or_else(|| {
        CliError::new(format!(
            "unknown codec '{name}'; known codecs: {}",
            known_names()
        ))
    })
}

/// The codec with container id `id`.
pub(crate) fn by_id(id: u8) -> Option<&'static Codec> {
    CODECS.iter().find(|c| c.id == id)
}

/// The known names, comma separated.
pub(crate) fn known_names() -> String {
    CODECS.iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
}

/// The known ids with their names, for messages: `0x01 streamvbyte, ...`.
pub(crate) fn known_ids() -> String {
    CODECS
        .iter()
        .map(|c| format!("0x{:02x} {}", c.id, c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Decodes exactly `count` values from the whole of `input`: an error if
/// the stream is malformed or if bytes are left after it. `base` is the
/// offset of `input` in the file, added to the offsets in messages.
pub(crate) fn decode_exact(
    codec: &Codec,
    input: &[u8],
    count: usize,
    delta: bool,
    base: u64,
) -> Result<Vec<u32>, CliError> {
    // Nothing is allocated until the count is known to fit the payload and
    // the stream to end exactly where the payload does: a small file with a
    // huge count (a decompression bomb) fails here.
    let need = (codec.min_len)(count);
    if (input.len() as u128) < need {
        return Err(CliError::at(
            format!(
                "{} stream: count {count} needs at least {}, the payload has {}",
                codec.name,
                plural_u128(need, "byte"),
                plural(input.len() as u64, "byte"),
            ),
            base + input.len() as u64,
        ));
    }
    let corrupt = |e: DecodeError| {
        let offset = base + e.offset() as u64;
        let message = format!("corrupt {} stream: {}", codec.name, e.kind().describe());
        match e.index() {
            Some(i) => CliError::located(message, offset, Detail::Index(i as u64)),
            None => CliError::at(message, offset),
        }
    };
    // Some `encoded_len`s check only the control bytes: a stream that
    // claims more bytes than the payload has is left to `decode`, whose
    // error names the first missing value.
    let used = codec.encoded_len(input, count).map_err(corrupt)?;
    if used < input.len() {
        return Err(trailing(codec, input, count, used, base));
    }
    let (values, used) = codec.decode(input, count, delta).map_err(corrupt)?;
    if used != input.len() {
        return Err(trailing(codec, input, count, used, base));
    }
    Ok(values)
}

/// The error for bytes left after a stream of `count` values.
fn trailing(codec: &Codec, input: &[u8], count: usize, used: usize, base: u64) -> CliError {
    CliError::at(
        format!(
            "trailing bytes after the {} stream of {}: {} left over",
            codec.name,
            plural(count as u64, "value"),
            plural(input.len().saturating_sub(used) as u64, "byte"),
        ),
        base + used as u64,
    )
}

fn plural_u128(n: u128, word: &str) -> String {
    match u64::try_from(n) {
        Ok(n) => plural(n, word),
        Err(_) => format!("{n} {word}s"),
    }
}

fn svb_min_len(v1234: bool, n: usize) -> u128 {
    // A control byte per four values, then (1234) at least a data byte each.
    let control = n.div_ceil(4) as u128;
    if v1234 {
        control + n as u128
    } else {
        control
    }
}

fn bp_min_len(block: usize, n: usize) -> u128 {
    // A width byte per full block (width 0: no data), a VByte byte per
    // tail value.
    (n / block + n % block) as u128
}

fn for_min_len(n: usize) -> u128 {
    // The header; the bit stream may be empty (width 0), so the floor is the
    // library's cap of `MAX_VALUES_PER_BYTE` values per input byte.
    (frame_of_reference::HEADER as u128)
        .max(n.div_ceil(frame_of_reference::MAX_VALUES_PER_BYTE) as u128)
}

/// FOR has no differential coding of its own: with `delta` the tool frames
/// the differences (from 0, wrapping) and integrates them after decoding.
fn deltas(values: &[u32]) -> Vec<u32> {
    let mut prev = 0u32;
    values
        .iter()
        .map(|&v| {
            let d = v.wrapping_sub(prev);
            prev = v;
            d
        })
        .collect()
}

fn integrate(values: &mut [u32]) {
    let mut acc = 0u32;
    for v in values {
        acc = acc.wrapping_add(*v);
        *v = acc;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use intcodec::streamvbyte::StreamVByte;

    #[test]
    fn names_and_ids_are_unique_and_nonzero() {
        for (i, a) in CODECS.iter().enumerate() {
            assert_ne!(a.id, 0, "{}", a.name);
            for b in &CODECS[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.id, b.id, "{} and {}", a.name, b.name);
            }
            assert_eq!(by_name(a.name).unwrap().id, a.id);
            assert_eq!(by_id(a.id).unwrap().name, a.name);
        }
    }

    /// The tool's codecs are the registry's, in its order, and every one
    /// has a container id: a codec added to the registry fails here until
    /// it has a line in `FORMATS`.
    #[test]
    fn every_registry_codec_has_a_container_id() {
        let mut names: Vec<_> = CODECS.iter().map(|c| c.name).collect();
        let mut registry_names = registry::names();
        names.sort_unstable();
        registry_names.sort_unstable();
        assert_eq!(
            names, registry_names,
            "a registry codec without a line in FORMATS"
        );
        for (i, a) in FORMATS.iter().enumerate() {
            assert_ne!(a.1, 0, "{}", a.0);
            for b in &FORMATS[i + 1..] {
                assert_ne!(a.0, b.0);
                assert_ne!(a.1, b.1, "{} and {}", a.0, b.0);
            }
            // every line is a registry codec (or one this build leaves out)
            assert!(
                registry::by_name(a.0).is_some() || NOT_BUILT.iter().any(|n| n.0 == a.0),
                "{}",
                a.0
            );
        }
        for c in CODECS.iter() {
            assert_eq!(c.kernel(), registry::by_name(c.name).unwrap().isa());
        }
    }

    #[test]
    fn unknown_name_lists_known_ones() {
        let e = by_name("nope").unwrap_err().to_string();
        assert!(e.contains("unknown codec 'nope'"), "{e}");
        assert!(e.contains("streamvbyte, streamvbyte-0124, vbyte"), "{e}");
        assert!(by_id(0).is_none());
        assert!(by_id(0xFF).is_none());
    }

    #[test]
    fn every_codec_round_trips() {
        let values: Vec<u32> = (0..1000u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 32))
            .collect();
        for c in CODECS.iter() {
            for delta in [false, true] {
                let bytes = c.encode(&values, delta);
                let (back, used) = c.decode(&bytes, values.len(), delta).unwrap();
                assert_eq!(back, values, "{} delta={delta}", c.name);
                assert_eq!(used, bytes.len(), "{} delta={delta}", c.name);
            }
        }
    }

    #[test]
    fn variants_differ() {
        let values = [0u32, 0, 0, 0, 1];
        let a = by_name("streamvbyte").unwrap().encode(&values, false);
        let b = by_name("streamvbyte-0124").unwrap().encode(&values, false);
        assert_eq!(a, StreamVByte::new().encode_to_vec(&values));
        assert_eq!(b.len(), 2 + 1);
        assert_ne!(a, b);
    }

    #[test]
    fn vbyte_is_leb128() {
        let c = by_name("vbyte").unwrap();
        assert_eq!(c.id, 0x03);
        assert_eq!(
            c.encode(&[1, 300, 16384], false),
            [0x01, 0xAC, 0x02, 0x80, 0x80, 0x01]
        );
        // 5th byte 0x10: too large for a u32, reported at the value's start.
        let e = decode_exact(c, &[0x05, 0x80, 0x80, 0x80, 0x80, 0x10], 2, false, 32).unwrap_err();
        assert!(
            e.to_string()
                .contains("corrupt vbyte stream: varint value too large"),
            "{e}"
        );
        assert_eq!(e.location().unwrap().offset, 33);
    }

    #[test]
    fn decode_exact_reports_file_offsets() {
        let c = by_name("streamvbyte").unwrap();
        let bytes = c.encode(&[1, 300, 70_000, 5], false);
        assert_eq!(bytes.len(), 1 + 1 + 2 + 3 + 1);
        assert_eq!(
            decode_exact(c, &bytes, 4, false, 0).unwrap(),
            [1, 300, 70_000, 5]
        );

        // Missing the last data byte: value 3 starts at byte 7.
        let e = decode_exact(c, &bytes[..7], 4, false, 100).unwrap_err();
        assert!(e.to_string().contains("corrupt streamvbyte stream"), "{e}");
        assert_eq!(e.location().unwrap().offset, 107);

        // One byte too many.
        let mut long = bytes.clone();
        long.push(0);
        let e = decode_exact(c, &long, 4, false, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            "trailing bytes after the streamvbyte stream of 4 values: 1 byte left over (at byte offset 18)"
        );
    }

    #[test]
    fn reserved_ids_and_names() {
        for (name, id) in [("varint-gb", 0x04), ("varint-gb-lucene", 0x09)] {
            assert_eq!(by_name(name).unwrap().id, id);
        }
        #[cfg(feature = "g8iu")]
        assert_eq!(by_name("varint-g8iu").unwrap().id, 0x05);
        #[cfg(not(feature = "g8iu"))]
        assert!(by_id(0x05).is_none());
        // What a build without `g8iu` says (tested in every build: CI tests
        // the all-features build only).
        let e = by_name_in("varint-g8iu", &[G8IU_NOT_BUILT])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("codec 'varint-g8iu' is not available")
                && e.contains("feature `g8iu`")
                && e.contains("9,195,675"),
            "{e}"
        );
        let e = unknown_id_message_in(0x05, &[G8IU_NOT_BUILT]);
        assert!(
            e.contains("0x05 (varint-g8iu)") && e.contains("feature `g8iu`"),
            "{e}"
        );
        assert_eq!(
            by_name("varint-g8iu").is_ok(),
            cfg!(feature = "g8iu"),
            "the real table"
        );
        assert!(unknown_id_message(0x63).contains("unknown codec id 0x63"));
    }

    #[test]
    fn varint_gb_layouts_differ() {
        let values = [1024, 12, 10, 1 << 30];
        let low = by_name("varint-gb").unwrap().encode(&values, false);
        let lucene = by_name("varint-gb-lucene").unwrap().encode(&values, false);
        assert_eq!((low[0], lucene[0]), (0xC1, 0x43));
        assert_eq!(low[1..], lucene[1..]);
    }

    #[test]
    fn absurd_count_fails_without_allocating() {
        // A width-0 FOR / SIMD-FOR header (min 0, b 0) holds any count: the
        // values-per-byte cap must refuse it before allocating.
        for name in ["for", "simd-for"] {
            let e = by_name(name)
                .unwrap()
                .decode(&[0u8; 5], usize::MAX / 8, false)
                .unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::Truncated, "{name}");
        }
        for c in CODECS.iter() {
            let e = c.decode(&[0u8; 16], usize::MAX / 8, false).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::Truncated, "{}", c.name);
        }
    }

    #[test]
    fn min_len_is_the_smallest_encoding() {
        // Zeros take the fewest bytes in every format: `min_len` is exactly
        // their length (so it never refuses a valid stream), and any other
        // values take at least as much.
        for c in CODECS.iter() {
            for n in (0..300).chain([1000, 4099, 70_000]) {
                let zeros = vec![0u32; n];
                let len = c.encode(&zeros, false).len() as u128;
                assert_eq!(len, (c.min_len)(n), "{} n={n}", c.name);
                let vals: Vec<u32> = (0..n as u32)
                    .map(|i| i.wrapping_mul(2_654_435_761))
                    .collect();
                for delta in [false, true] {
                    let len = c.encode(&vals, delta).len() as u128;
                    assert!(len >= (c.min_len)(n), "{} n={n}", c.name);
                }
            }
        }
        // Past FOR's cap of values per byte, the floor grows with the count.
        let f = by_name("for").unwrap();
        assert_eq!((f.min_len)(5 << 16), 5);
        assert_eq!((f.min_len)((5 << 16) + 1), 6);
    }

    #[test]
    fn bombs_are_refused_before_decoding() {
        for c in CODECS.iter() {
            let e = decode_exact(c, &[0u8; 100], 1 << 40, false, 32).unwrap_err();
            assert!(
                e.to_string().starts_with(&format!(
                    "{} stream: count 1099511627776 needs at least ",
                    c.name
                )) && e.to_string().contains(", the payload has 100 bytes"),
                "{e}"
            );
            assert_eq!(e.location().unwrap().offset, 132, "{}", c.name);
        }
        // A width-0 FOR header followed by junk: the count fits the cap, the
        // stream ends after 5 bytes, and the rest is reported as trailing
        // before `count` values are allocated.
        let mut junk = vec![0x5Au8; 1 << 16];
        junk[..5].fill(0);
        for name in ["for", "simd-for"] {
            let e = decode_exact(by_name(name).unwrap(), &junk, 1 << 32, false, 0).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "trailing bytes after the {name} stream of 4294967296 values: \
                     65531 bytes left over (at byte offset 5)"
                )
            );
        }
    }
}
