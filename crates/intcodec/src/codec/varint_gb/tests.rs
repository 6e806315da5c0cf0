//! What the conformance harness cannot check generically: VarInt-GB's two
//! layouts read by an independent parser (every kernel must agree with it,
//! on valid, truncated, mutated and garbage streams), Lucene's vint tail, and
//! the worst-case size.

use super::*;
use crate::isa::Isa;
use crate::tests::conformance::check_parser;
use crate::traits::{IntCodec, KernelChoice};
use crate::DecodeErrorKind;
use alloc::vec;

/// The scalar kernel of the `layout` codec.
fn scalar_kernel(layout: Layout) -> VarIntGb {
    VarIntGb::new()
        .with_layout(layout)
        .with_isa(Isa::Scalar)
        .unwrap()
}

/// An independent, byte-at-a-time parse of a stream of `n` values: the
/// values, or the error the format implies.
fn naive_decode(layout: Layout, input: &[u8], n: usize) -> Result<(Vec<u32>, usize), DecodeError> {
    let t = |pos, i| DecodeError::new(DecodeErrorKind::Truncated, pos, Some(i));
    let mut vals = Vec::new();
    let mut pos = 0;
    let grouped = match layout {
        Layout::LowFirst => n,
        Layout::Lucene => n - n % 4,
    };
    while vals.len() < grouped {
        let key = *input.get(pos).ok_or(t(pos, vals.len()))?;
        pos += 1;
        for lane in 0..(grouped - vals.len()).min(4) {
            let shift = match layout {
                Layout::LowFirst => 2 * lane,
                Layout::Lucene => 6 - 2 * lane,
            };
            let len = ((key >> shift) & 3) as usize + 1;
            let bytes = input.get(pos..pos + len).ok_or(t(pos, vals.len()))?;
            vals.push(bytes.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32));
            pos += len;
        }
    }
    while vals.len() < n {
        let start = pos;
        let mut v = 0u64;
        for k in 0.. {
            let b = *input.get(pos).ok_or(t(start, vals.len()))?;
            pos += 1;
            v |= ((b & 0x7F) as u64) << (7 * k);
            if k == 4 && b > 0x0F {
                return Err(DecodeError::new(
                    DecodeErrorKind::Malformed,
                    pos - 1,
                    Some(vals.len()),
                ));
            }
            if b & 0x80 == 0 {
                break;
            }
        }
        vals.push(v as u32);
    }
    Ok((vals, pos))
}

#[test]
fn every_kernel_agrees_with_an_independent_parser() {
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let c = VarIntGb::new().with_layout(layout);
        check_parser(&c, &|input, n| naive_decode(layout, input, n));
    }
}

#[test]
fn max_compressed_len_is_the_worst_case() {
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let c = VarIntGb::new().with_layout(layout);
        for n in 0..40 {
            assert!(c.compressed_len(&vec![u32::MAX; n]) <= max_compressed_len(n));
        }
    }
    assert_eq!(max_compressed_len(5), 17 + 5);
}

#[test]
fn lucene_vint_tail_limits() {
    let k = VarIntGb::new().with_layout(Layout::Lucene);
    // One value (no group): a vint. u32::MAX = ff ff ff ff 0f.
    assert_eq!(k.encode_to_vec(&[u32::MAX]), [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]);
    assert_eq!(k.encode_to_vec(&[300]), [0xAC, 0x02]);
    for k in k.all_kernels() {
        assert_eq!(
            k.decode_to_vec(&[0xFF, 0xFF, 0xFF, 0xFF, 0x0F], 1),
            Ok(vec![u32::MAX])
        );
        // A non-minimal vint is accepted, as Lucene's readVInt does.
        assert_eq!(k.decode_to_vec(&[0x85, 0x00], 1), Ok(vec![5]));
        // Fifth byte with more than four bits: malformed, at that byte.
        let e = k
            .decode_to_vec(&[0x80, 0x80, 0x80, 0x80, 0x10], 1)
            .unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.index()),
            (DecodeErrorKind::Malformed, 4, Some(0))
        );
        // After a group: the vint's index and offset are absolute.
        let e = k
            .decode_to_vec(&[0, 1, 2, 3, 4, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 5)
            .unwrap_err();
        assert_eq!(
            (e.kind(), e.offset(), e.index()),
            (DecodeErrorKind::Malformed, 9, Some(4))
        );
    }
}

/// Every kernel's encoder (the SIMD ones run whole groups while 17 bytes of
/// `out` remain) writes the scalar kernel's bytes, plain and delta, both
/// layouts: counts through the group and tail boundaries and long lists,
/// values of one byte width (1..=4), mixed, or sorted with one-byte gaps
/// (the sixteen-value one-byte path, plain and delta), into an `out` of
/// exactly the encoded length (the SIMD loop stops 17 bytes before its
/// end) and of `max_compressed_len` (it runs to the last whole group).
#[test]
fn every_encoder_writes_the_scalar_bytes() {
    let mut rng = crate::tests::Rng::new(0x6B_E4C0DE);
    let counts = (0..=40).chain([63, 64, 65, 255, 256, 257, 1000, 4099]);
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let scalar = scalar_kernel(layout);
        for k in VarIntGb::new().with_layout(layout).all_kernels() {
            for n in counts.clone() {
                for width in 0..=5u32 {
                    let mut acc = 0u32;
                    let vals: Vec<u32> = (0..n)
                        .map(|_| {
                            if width == 5 {
                                // Sorted with gaps below 256: one-byte deltas.
                                acc = acc.wrapping_add(rng.below(256) as u32);
                                return acc;
                            }
                            let w = if width == 0 {
                                1 + rng.below(4) as u32
                            } else {
                                width
                            };
                            let lo = if w == 1 { 0 } else { 1u64 << (8 * (w - 1)) };
                            (lo + rng.below((1u64 << (8 * w)) - lo)) as u32
                        })
                        .collect();
                    for delta in [false, true] {
                        let from = delta.then_some(7);
                        let want = scalar.encode_opt_to_vec(&vals, from);
                        for room in [want.len(), max_compressed_len(n)] {
                            let mut out = vec![0u8; room];
                            let got = k.encode_opt(&vals, from, &mut out);
                            let ctx = format!("{:?} {layout:?} n={n} w={width} d={delta}", k.isa());
                            assert_eq!(got, Ok(want.len()), "{ctx} room={room}");
                            assert_eq!(&out[..want.len()], &want[..], "{ctx} room={room}");
                        }
                    }
                }
            }
        }
    }
}

/// The last one to three values with bytes after them: the x86 kernels
/// decode them as a whole group (unused codes cleared, values past the
/// last dropped) when 17 bytes remain, so the unused codes of the last
/// control byte and whatever follows must change neither the values nor
/// the bytes consumed; plain and delta, both layouts, every kernel.
#[test]
fn last_partial_group_ignores_unused_codes_and_what_follows() {
    let mut rng = crate::tests::Rng::new(0x6B_7A11);
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let scalar = scalar_kernel(layout);
        for n in (0..=14).chain([29, 30, 31]) {
            for round in 0..16 {
                let vals: Vec<u32> = (0..n)
                    .map(|_| {
                        let w = 1 + rng.below(4) as u32;
                        (rng.next_u32() as u64 & ((1u64 << (8 * w)) - 1)) as u32
                    })
                    .collect();
                let mut stream = scalar.encode_to_vec(&vals);
                let end = stream.len();
                // Garbage in the unused codes of the last control byte
                // (FastPFor's layout: it is the last group's first byte).
                if layout == Layout::LowFirst && n % 4 != 0 && round % 2 == 1 {
                    let r = n % 4;
                    let last = end - {
                        let mut len = 1;
                        for &v in &vals[n - r..] {
                            len += 4 - (v.leading_zeros() / 8).min(3) as usize;
                        }
                        len
                    };
                    stream[last] |= (rng.next_u32() as u8) & !((1u8 << (2 * r)) - 1);
                }
                let extra = (round * 3) % 23;
                stream.extend((0..extra).map(|_| rng.next_u32() as u8));
                let mut want = vec![0u32; n];
                let at = format!("{layout:?} n={n} round={round}");
                assert_eq!(scalar.decode(&stream, n, &mut want), Ok(end), "{at}");
                assert_eq!(want, vals, "{at}");
                let prev = rng.next_u32();
                for k in VarIntGb::new().with_layout(layout).all_kernels() {
                    let at = format!("{at}, kernel {}", k.isa());
                    crate::tests::same_decodes(&scalar, &k, &stream, n, prev, &at);
                }
            }
        }
    }
}

/// Every kernel's checked decoders read no byte past the input: valid
/// streams and streams cut short, placed flush against a guard page, with
/// counts on both sides of the AVX-512 kernel's window threshold (512
/// values), values of each byte width, mixed, small
/// gaps (the one-byte path) and one-byte values among which a wider one
/// now and then; the same result and values as scalar. The
/// unchecked decoders read no byte past the stream's `PADDING`.
#[test]
fn decoders_read_only_the_input() {
    use crate::tests::guard::Flush;

    let counts = [47, 48, 100, 511, 512, 513, 1023, 1024, 1025, 3001];
    let mut f = Flush::new(max_compressed_len(3001));
    let mut rng = crate::tests::Rng::new(0x6B_6A4D);
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let scalar = scalar_kernel(layout);
        let kernels = VarIntGb::new().with_layout(layout).all_kernels();
        for n in counts {
            for width in 0..=8u32 {
                let mut acc = 0u32;
                let vals: Vec<u32> = (0..n)
                    .map(|i| match width {
                        0 => rng.next_u32() >> (8 * rng.below(4)),
                        // A dense start and mixed widths after it, and the
                        // other way round: with `Tuning::Zen4` the first
                        // blocks decide whether the windows are taken.
                        7 if i < 300 => rng.below(256) as u32,
                        8 if i >= 300 => rng.below(256) as u32,
                        7 | 8 => rng.next_u32() >> (8 * rng.below(4)),
                        // One-byte values with a wider one now and then:
                        // windows whose blocks are all 5 bytes but one.
                        6 if rng.below(29) == 0 => rng.next_u32() >> (8 * rng.below(3)),
                        6 => rng.below(256) as u32,
                        5 => {
                            acc = acc.wrapping_add(rng.below(200) as u32);
                            acc
                        }
                        w => (rng.next_u32() >> (32 - 8 * w)) | (1 << (8 * (w - 1))),
                    })
                    .collect();
                for delta in [false, true] {
                    let from = delta.then_some(3);
                    let enc = scalar.encode_opt_to_vec(&vals, from);
                    // Unchecked: the stream and exactly PADDING bytes.
                    let mut padded = enc.clone();
                    padded.extend([0xFF; PADDING]);
                    let p = f.put(&padded);
                    // SAFETY: `put` copied the bytes to `p`, valid until the
                    // next `put`.
                    let input = unsafe { core::slice::from_raw_parts(p, padded.len()) };
                    for k in &kernels {
                        let mut out = vec![0u32; n];
                        // SAFETY: a valid stream of `n` values and PADDING.
                        let used = unsafe { k.decode_opt_unchecked(input, n, from, &mut out) };
                        let at = format!("{layout:?} {:?} n={n} w={width} unchecked", k.isa());
                        assert_eq!((used, &out), (enc.len(), &vals), "{at}");
                    }
                    // Cuts from the end, and streams of only their first
                    // 100, 165 (inside Zen 4's probe of 32 blocks) and 400
                    // bytes.
                    let firsts = [100, 165, 400].map(|keep| enc.len().saturating_sub(keep));
                    for cut in [0, 1, 17, 79, 80, 81, 200].into_iter().chain(firsts) {
                        let Some(len) = enc.len().checked_sub(cut) else {
                            continue;
                        };
                        let p = f.put(&enc[..len]);
                        // SAFETY: `put` copied `len` bytes to `p`, which stay
                        // valid until the next `put`.
                        let input = unsafe { core::slice::from_raw_parts(p, len) };
                        for k in &kernels {
                            let at = format!("{layout:?} {:?} n={n} w={width} cut={cut}", k.isa());
                            let prev = from.unwrap_or(0);
                            crate::tests::same_decodes(&scalar, k, input, n, prev, &at);
                        }
                    }
                }
            }
        }
    }
}

/// The handle's own path for lists of 1-8 values (`decode_first`, taken
/// when 17 bytes, or 34 for two blocks, are there) against the independent
/// parser: random bytes (any control byte, so every code in every lane) of
/// 17-40 bytes, plain and delta (the parser's values summed from `prev`),
/// both layouts, every kernel's handle; the slot after the `n` values is
/// never written.
#[test]
fn first_values_path_agrees_with_the_parser() {
    let mut rng = crate::tests::Rng::new(0x6B_F125);
    for layout in [Layout::LowFirst, Layout::Lucene] {
        for k in VarIntGb::new().with_layout(layout).all_kernels() {
            for round in 0..600 {
                let len = 17 + round % 24;
                let input: Vec<u8> = (0..len).map(|_| rng.next_u32() as u8).collect();
                for n in 1..=8 {
                    let at = format!("{layout:?} {:?} n={n} round={round}", k.isa());
                    let want = naive_decode(layout, &input, n);
                    let mut out = vec![0u32; n + 1];
                    out[n] = 0xA5A5_A5A5;
                    let got = k
                        .decode(&input, n, &mut out)
                        .map(|used| (out[..n].to_vec(), used));
                    assert_eq!(got, want, "{at}");
                    assert_eq!(out[n], 0xA5A5_A5A5, "{at}: wrote past n");
                    let prev = rng.next_u32();
                    let want_delta = want.map(|(vals, used)| {
                        let mut acc = prev;
                        let sums = vals.iter().map(|&v| {
                            acc = acc.wrapping_add(v);
                            acc
                        });
                        (sums.collect::<Vec<u32>>(), used)
                    });
                    let got = k
                        .decode_delta(&input, n, prev, &mut out)
                        .map(|used| (out[..n].to_vec(), used));
                    assert_eq!(got, want_delta, "{at} delta");
                }
            }
        }
    }
}
