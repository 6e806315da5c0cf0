//! Fuzz machinery generic over the codec traits: one function per kind of
//! target, for every codec of `intcodec::registry` (picked by the first
//! input byte) and every kernel it lists (`kernel_isas` + `with_isa_dyn`),
//! scalar being the reference. A target is a few lines:
//!
//! ```ignore
//! fuzz_target!(|data: &[u8]| intcodec_fuzz::codec::fuzz_decode(data));
//! ```
//!
//! - [`fuzz_decode`]: checked decoding of arbitrary bytes (plain or delta,
//!   arbitrary count and output capacity): every kernel gives scalar's
//!   `Result` and values, writes nothing past `n`; `encoded_len` (scalar's,
//!   consistent with decoding) and `decode_to_vec` agree with decoding;
//!   `Ok(used)` implies `n <= max_values(used)`.
//! - [`fuzz_roundtrip`]: values from the bytes, encoded on every kernel
//!   (exact-size buffer, slack, one byte short), decoded back checked and
//!   unchecked.
//! - [`fuzz_decode_unchecked`]: unchecked decoding on the encoder's
//!   streams of what checked decoding accepted, exactly the codec's padding
//!   after them (ASan), against checked decoding.
//! - [`fuzz_sorted`]: `select`, `lower_bound`, `insert` of a concrete
//!   [`SortedCodec`] (the registry hands out `dyn IntCodec`, which has no
//!   sorted operations) against a `Vec` model and against scalar.
//!
//! With an empty registry (before the codecs implement the traits) the
//! registry-driven functions do nothing.

use std::sync::OnceLock;

use intcodec::{registry, DecodeError, EncodeError, IntCodec, Isa, KernelChoice, SortedCodec};

use crate::{agree, capacity, count, padded, values_from, Header, Reader, SENTINEL};

/// The most values a generic target decodes or allocates per call: codecs
/// with huge `max_values` (frame of reference: 65536 per byte) would
/// otherwise spend the run on buffers.
pub const MAX_N: usize = 1 << 16;

/// Bytes after a stream given to the unchecked decoders (at least every
/// codec's padding).
pub const PAD: usize = 64;

/// Every codec of the registry with its kernels, scalar first.
pub fn codecs() -> &'static [Vec<Box<dyn IntCodec>>] {
    static ALL: OnceLock<Vec<Vec<Box<dyn IntCodec>>>> = OnceLock::new();
    ALL.get_or_init(|| {
        registry::names()
            .into_iter()
            .map(|name| {
                let codec = registry::by_name(name)
                    .unwrap_or_else(|| panic!("registry lists {name} but by_name gives None"));
                kernels(&*codec)
            })
            .collect()
    })
}

/// Every kernel of `codec`, scalar first; panics if a listed kernel cannot
/// be built, so a dispatch mistake cannot shrink the fuzzed set.
pub fn kernels(codec: &dyn IntCodec) -> Vec<Box<dyn IntCodec>> {
    let isas = codec.kernel_isas();
    assert_eq!(
        isas.first(),
        Some(&Isa::Scalar),
        "{}: kernel_isas",
        codec.name()
    );
    isas.iter()
        .map(|&isa| {
            let k = codec
                .with_isa_dyn(isa)
                .unwrap_or_else(|| panic!("{}: no kernel for listed {isa}", codec.name()));
            assert_eq!(k.isa(), isa);
            k
        })
        .collect()
}

/// One codec's kernels, scalar first.
pub type Kernels = [Box<dyn IntCodec>];

/// The codec the first byte picks, with the rest of the input; `None` when
/// the registry is empty.
fn pick(data: &[u8]) -> Option<(&'static Kernels, &[u8])> {
    let all = codecs();
    let (&first, rest) = data.split_first()?;
    let ks = all.get(first as usize % all.len().max(1))?;
    Some((ks, rest))
}

/// Checked decoding of arbitrary bytes on every kernel of one codec.
///
/// Input: byte 0 codec (index into `registry::names()`, modulo), byte 1
/// flags (bit 0 delta, bits 1-2 count mode, bits 3-4 capacity mode), bytes
/// 2-3 `k`, byte 4 `c`, bytes 5-8 `prev`, then the encoded input. Count
/// modes as [`count`](crate::count) with `room = max_values(len)` (at most
/// [`MAX_N`]); capacity modes as [`capacity`](crate::capacity), always at
/// most [`MAX_N`] + 64.
pub fn fuzz_decode(data: &[u8]) {
    let Some((ks, data)) = pick(data) else { return };
    let Header {
        flags,
        k,
        c,
        prev,
        input,
    } = Header::read(data);
    let delta = flags & 1 != 0;
    let room = ks[0].max_values(input.len()).min(MAX_N);
    let n = count(flags >> 1, k, room);
    let cap = capacity(flags >> 3, n, c).min(MAX_N + 64);
    let want = agree(ks, n, cap, |k, out| {
        k.decode_opt(input, n, delta.then_some(prev), out)
    });
    if !delta || ks[0].supports_delta() {
        // Decoding can fail on capacity alone. Else encoded_len gives the
        // same Ok; on a decoding error the same error, or a length beyond
        // the input (read from headers alone, as Stream VByte's control
        // bytes give). Every kernel gives scalar's.
        let capacity_only = cap < n;
        let want_len = ks[0].encoded_len(input, n);
        for k in ks {
            let len = k.encoded_len(input, n);
            assert_eq!(len, want_len, "{k:?}: encoded_len vs scalar");
            if !capacity_only {
                match (want.result, len) {
                    (Ok(used), len) => assert_eq!(len, Ok(used), "{k:?}: encoded_len vs decode"),
                    (Err(e), Err(f)) => assert_eq!(f, e, "{k:?}: encoded_len error vs decode"),
                    (Err(e), Ok(l)) => assert!(
                        l > input.len(),
                        "{k:?}: encoded_len Ok({l}) within the input, decode {e:?}"
                    ),
                }
            }
            // FOR and SIMD-FOR (no delta mode) are skipped: a width-0 array
            // holds any count in 5 bytes, so their `max_values` is the
            // allocating decoders' cap (MAX_VALUES_PER_BYTE), not a bound of
            // the format; their checked `decode` still needs `n` output slots.
            if let Some(used) = len.ok().filter(|&l| l <= input.len() && k.supports_delta()) {
                assert!(
                    n <= k.max_values(used),
                    "{k:?}: {n} values in {used} bytes > max_values"
                );
            }
        }
    }
    for k in ks {
        let v = k.decode_opt_to_vec(input, n, delta.then_some(prev));
        match (&want.result, v) {
            (Ok(_), Ok(v)) => {
                assert!(cap >= n, "{k:?}: decode into a short buffer succeeded");
                assert!(v[..] == want.out[..n], "{k:?}: to_vec values");
            }
            (Err(e), Ok(v)) => {
                assert!(cap < n, "{k:?}: to_vec Ok, decode {e:?}");
                assert_eq!(v.len(), n);
            }
            (Ok(_), Err(e)) => panic!("{k:?}: decode Ok, to_vec {e:?}"),
            (Err(a), Err(b)) => {
                if cap >= n && n <= k.max_values(input.len()) {
                    assert_eq!(*a, b, "{k:?}: to_vec error");
                }
                // Past `max_values` any error will do (the guard, or the
                // codec's own first error, e.g. `Unsupported` for a delta
                // decode of FOR): what matters is that it did not allocate
                // `n` values (ASan's allocation limit would abort).
            }
        }
    }
}

/// Values from the bytes encoded on every kernel of one codec and decoded
/// back.
///
/// Input: byte 0 codec, byte 1 flags (bit 0 delta, bits 2-3 value shape,
/// see [`values_from`]), bytes 2-5 `prev`, byte 6 slack (0..=31), then the
/// values, 4 bytes each.
pub fn fuzz_roundtrip(data: &[u8]) {
    let Some((ks, data)) = pick(data) else { return };
    let mut r = Reader::new(data);
    let flags = r.u8();
    let prev = r.u32();
    let slack = (r.u8() % 32) as usize;
    let values = values_from(r.rest(), flags >> 2);
    let n = values.len();
    let s = &ks[0];
    if flags & 1 != 0 && !s.supports_delta() {
        for k in ks {
            let mut out = vec![0u8; 64];
            assert_eq!(
                k.encode_delta(&values, prev, &mut out),
                Err(EncodeError::Unsupported)
            );
        }
        return;
    }
    let delta = flags & 1 != 0;
    let len_of = |k: &dyn IntCodec| {
        if delta {
            k.compressed_len_delta(&values, prev)
        } else {
            k.compressed_len(&values)
        }
    };
    let encode =
        |k: &dyn IntCodec, out: &mut [u8]| k.encode_opt(&values, delta.then_some(prev), out);
    let len = len_of(&**s);
    let mut want = vec![0u8; len];
    assert_eq!(
        encode(&**s, &mut want),
        Ok(len),
        "scalar: encode into compressed_len bytes"
    );
    let max = s
        .max_compressed_len(n)
        .expect("max_compressed_len of values that exist");
    assert!(
        len <= max,
        "compressed_len {len} > max_compressed_len {max}"
    );
    assert!(
        n <= s.max_values(len),
        "{n} values in {len} bytes > max_values"
    );
    for k in ks {
        let k = &**k;
        assert_eq!(len_of(k), len, "{k:?} compressed_len");
        let mut out = vec![0xEEu8; len + slack];
        assert_eq!(encode(k, &mut out), Ok(len), "{k:?} encode");
        assert!(out[..len] == want[..], "{k:?} bytes differ from scalar");
        if len > 0 {
            let mut short = vec![0u8; len - 1];
            let too_small = EncodeError::OutputTooSmall {
                needed: len,
                available: len - 1,
            };
            assert_eq!(
                encode(k, &mut short),
                Err(too_small),
                "{k:?} one byte short"
            );
        }
        let mut got = vec![SENTINEL; n + slack];
        let r = k.decode_opt(&want, n, delta.then_some(prev), &mut got);
        assert_eq!(r, Ok(len), "{k:?} decode");
        assert!(got[..n] == values[..], "{k:?} values");
        assert!(
            got[n..].iter().all(|&v| v == SENTINEL),
            "{k:?} wrote past n"
        );
        assert_eq!(k.encoded_len(&want, n), Ok(len), "{k:?} encoded_len");
        let mut padded = want.clone();
        padded.resize(len + PAD, 0xFF);
        let mut got = vec![SENTINEL; n];
        // SAFETY: `want` is the stream this codec wrote for these `n`
        // values (from `prev` when delta coded; every kernel wrote the same
        // bytes), PAD bytes follow it, and `got.len() == n`.
        let used = unsafe { k.decode_opt_unchecked(&padded, n, delta.then_some(prev), &mut got) };
        assert_eq!(used, len, "{k:?} unchecked: bytes consumed");
        assert!(got == values, "{k:?} unchecked: values");
    }
}

/// Unchecked decoding on streams that meet its `# Safety` contract, taken
/// from arbitrary bytes: the values scalar's checked decoder accepts, as the
/// encoder writes them, optionally followed by the rest of the input (the
/// contract allows bytes after the stream), then exactly
/// `unchecked_padding()` bytes, in an exact-size buffer so that
/// AddressSanitizer catches a read past them. Every kernel's unchecked
/// decode gives the checked decode's values and the stream's length.
///
/// Input: byte 0 codec, byte 1 flags (bit 0 delta, bit 1 trailing bytes),
/// bytes 2-3 `n` (at most [`MAX_N`]), bytes 4-7 `prev`, then the input.
pub fn fuzz_decode_unchecked(data: &[u8]) {
    let Some((ks, data)) = pick(data) else { return };
    let mut r = Reader::new(data);
    let flags = r.u8();
    let n = (r.u16() as usize).min(MAX_N);
    let prev = r.u32();
    let input = r.rest();
    let s = &ks[0];
    let delta = flags & 1 != 0 && s.supports_delta();
    let mut values = vec![0u32; n];
    let from = delta.then_some(prev);
    let Ok(used) = s.decode_opt(input, n, from, &mut values) else {
        return;
    };
    let mut stream = s.encode_opt_to_vec(&values, from);
    let len = stream.len();
    let trailing = if flags & 2 != 0 { &input[used..] } else { &[] };
    stream.extend_from_slice(trailing);
    let buf = padded(&stream, s.unchecked_padding(), trailing);
    for k in ks {
        let mut out = vec![SENTINEL; n];
        // SAFETY: `buf` holds a stream this codec's encoder wrote for `n`
        // values (from `prev` when delta coded), then `unchecked_padding()`
        // bytes or more; `out` has `n` slots.
        let got = unsafe { k.decode_opt_unchecked(&buf, n, from, &mut out) };
        assert_eq!(got, len, "{k:?} unchecked: bytes consumed");
        assert!(out == values, "{k:?} unchecked: values");
    }
}

/// `select`, `lower_bound` and `insert` of a sorted-stream codec on every
/// kernel of `codec.all_kernels()`: on a stream of sorted values from the
/// input against the `Vec`, and on the raw input as a stream against
/// scalar (same result; a failed insert leaves the bytes alone).
///
/// Input: byte 0 flags (bits 0-1 value shape), bytes 1-4 `prev`, bytes
/// 5-8 a key, bytes 9-10 an index, bytes 11-12 a count for the raw input,
/// then the values (4 bytes each); the raw stream is the same bytes.
pub fn fuzz_sorted<C: SortedCodec + KernelChoice>(codec: C, data: &[u8]) {
    let ks = codec.all_kernels();
    assert_eq!(ks.first().map(|k| k.isa()), Some(Isa::Scalar));
    let mut r = Reader::new(data);
    let shape = r.u8();
    let prev = r.u32();
    let key = r.u32();
    let i = r.u16() as usize;
    let raw_n = r.u16() as usize;
    let rest = r.rest();
    let delta = codec.supports_delta();
    let mut values: Vec<u32> = values_from(rest, shape)
        .into_iter()
        .map(|v| if delta { v.max(prev) } else { v })
        .collect();
    values.sort_unstable();
    values.truncate(2000);
    let n = values.len();
    let stream = |k: &C, v: &[u32]| k.encode_opt_to_vec(v, delta.then_some(prev));
    let bytes = stream(&ks[0], &values);
    let want_lb = values
        .iter()
        .position(|&v| v >= key)
        .map(|j| (j, values[j]));
    for k in &ks {
        assert_eq!(
            k.select(&bytes, n, prev, i),
            Ok(values.get(i).copied()),
            "{k:?} select({i})"
        );
        assert_eq!(
            k.lower_bound(&bytes, n, prev, key),
            Ok(want_lb),
            "{k:?} lower_bound({key})"
        );
        let x = if delta { key.max(prev) } else { key };
        let mut b = bytes.clone();
        let at = k.insert(&mut b, n, prev, x);
        let mut model = values.clone();
        let j = model.partition_point(|&v| v <= x);
        model.insert(j, x);
        assert_eq!(at, Ok(j), "{k:?} insert({x})");
        assert!(b == stream(&ks[0], &model), "{k:?} insert({x}): bytes");
    }
    // The raw input as a stream: every kernel as scalar.
    let s = &ks[0];
    let want: (Result<Option<u32>, DecodeError>, _) = (
        s.select(rest, raw_n, prev, i),
        s.lower_bound(rest, raw_n, prev, key),
    );
    let mut want_bytes = rest.to_vec();
    let want_ins = s.insert(&mut want_bytes, raw_n, prev, key);
    for k in &ks[1..] {
        let got = (
            k.select(rest, raw_n, prev, i),
            k.lower_bound(rest, raw_n, prev, key),
        );
        assert_eq!(got, want, "{k:?} on raw input");
        let mut b = rest.to_vec();
        let ins = k.insert(&mut b, raw_n, prev, key);
        assert_eq!(ins, want_ins, "{k:?} insert on raw input");
        if ins.is_err() {
            assert!(b == rest, "{k:?}: a failed insert changed the bytes");
        } else {
            assert!(b == want_bytes, "{k:?}: insert bytes differ from scalar's");
        }
    }
}
