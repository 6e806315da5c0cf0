//! What the conformance harness cannot check generically: BP128's block
//! kernels (every width, mode and kernel; consecutive blocks; the block
//! API), the array format's errors computed independently, the sorted
//! array container and the handles' names.

use super::*;
use crate::codec::vbyte::scalar as vbyte_scalar;
use crate::tests::Rng;
use crate::{DecodeErrorKind, SortedSet};
use alloc::vec;

/// The three codings of an array: plain (`encode`) and the two delta modes
/// (`encode_delta` of a handle in that mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delta {
    None,
    D1,
    Lane,
    Strict,
}

/// `c` in the delta mode of `d` (D1 for plain).
fn in_mode(c: Bp128, d: Delta) -> Bp128 {
    c.with_delta(match d {
        Delta::Lane => DeltaMode::Lane,
        Delta::Strict => DeltaMode::Strict,
        _ => DeltaMode::D1,
    })
}

/// The `prev` of the `*_opt` coders for `d`: `None` for plain.
fn from(d: Delta, prev: u32) -> Option<u32> {
    (d != Delta::None).then_some(prev)
}

fn enc(c: Bp128, values: &[u32], d: Delta, prev: u32) -> Vec<u8> {
    in_mode(c, d).encode_opt_to_vec(values, from(d, prev))
}

fn dec(c: Bp128, input: &[u8], n: usize, d: Delta, prev: u32, out: &mut [u32]) -> Decoded {
    in_mode(c, d).decode_opt(input, n, from(d, prev), out)
}

fn dec_vec(c: Bp128, input: &[u8], n: usize, d: Delta, prev: u32) -> Result<Vec<u32>, DecodeError> {
    in_mode(c, d).decode_opt_to_vec(input, n, from(d, prev))
}

/// What the checked decoders return.
type Decoded = Result<usize, DecodeError>;

const LAYOUTS: [Layout; 3] = [Layout::Lanes4, Layout::Lanes8, Layout::Lanes16];
const DELTAS: [Delta; 4] = [Delta::None, Delta::D1, Delta::Lane, Delta::Strict];
const MODES: [Mode; 5] = [
    Mode::Plain,
    Mode::D1,
    Mode::Lane,
    Mode::Offset,
    Mode::Strict,
];

/// Every kernel this CPU (and the `INTCODEC_ISA` cap) allows, scalar first.
fn for_each_kernel(layout: Layout, mut f: impl FnMut(Bp128)) {
    let mut ran = 0;
    for isa in Isa::ALL {
        if let Some(codec) = Bp128::new(layout).with_isa(isa) {
            assert_eq!((codec.isa(), codec.layout()), (isa, layout));
            f(codec);
            ran += 1;
        }
    }
    let expected = registry(layout).enabled_isas().len();
    assert_eq!(ran, expected);
}

fn scalar(layout: Layout) -> Bp128 {
    Bp128::new(layout).with_isa(Isa::Scalar).unwrap()
}

/// A block whose packed values (under `mode`, from `prev`) have exactly
/// `bits` bits at their widest.
fn block_of_width(rng: &mut Rng, layout: Layout, bits: u8, mode: Mode, prev: &Prev) -> Vec<u32> {
    let (bl, l) = (layout.block_len(), layout.lanes());
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    let mut d: Vec<u32> = (0..bl).map(|_| rng.next_u32() & mask).collect();
    if bits > 0 {
        let at = rng.next_u32() as usize % bl;
        d[at] |= 1 << (bits - 1);
    }
    // Integrate the deltas so that packing reproduces them.
    let mut v = vec![0u32; bl];
    for i in 0..bl {
        v[i] = match mode {
            Mode::Plain => d[i],
            Mode::D1 => d[i].wrapping_add(if i == 0 { prev[l - 1] } else { v[i - 1] }),
            Mode::Lane => d[i].wrapping_add(if i < l { prev[i] } else { v[i - l] }),
            Mode::Offset => d[i].wrapping_add(prev[0]),
            Mode::Strict => {
                d[i].wrapping_add(1)
                    .wrapping_add(if i == 0 { prev[l - 1] } else { v[i - 1] })
            }
        };
    }
    v
}

/// A random `prev` for `mode`: sixteen values for Lane, one in every lane
/// otherwise.
fn random_prev(rng: &mut Rng, mode: Mode) -> Prev {
    let mut prev = [0u32; 16];
    for p in prev.iter_mut() {
        *p = rng.next_u32();
    }
    if mode == Mode::Lane {
        prev
    } else {
        splat(prev[0])
    }
}

#[test]
fn every_width_every_mode_every_kernel() {
    let mut rng = Rng::new(11);
    for layout in LAYOUTS {
        let s = scalar(layout);
        for bits in 0..=32u8 {
            for mode in MODES {
                let prev = random_prev(&mut rng, mode);
                let block = block_of_width(&mut rng, layout, bits, mode, &prev);
                assert_eq!(scalar::needed_bits(layout, &block, mode, &prev), bits);
                let len = layout.block_bytes(bits);
                let mut want = vec![0xA5u8; len];
                kcall!(s.k, pack(&block, &mut want, bits, mode, &prev));
                let mut back = vec![0u32; layout.block_len()];
                call_unpack(s.k, &want, &mut back, bits, mode, &prev);
                assert_eq!(back, block, "scalar {layout} b={bits} {mode:?}");
                for_each_kernel(layout, |c| {
                    // Exact-size, unaligned buffers.
                    let mut bytes = vec![0x5Au8; len + 1];
                    kcall!(c.k, pack(&block, &mut bytes[1..], bits, mode, &prev));
                    assert_eq!(
                        &bytes[1..],
                        &want[..],
                        "{} {layout} b={bits} {mode:?}",
                        c.isa()
                    );
                    let mut out = vec![0u32; layout.block_len() + 1];
                    call_unpack(c.k, &bytes[1..], &mut out[1..], bits, mode, &prev);
                    assert_eq!(
                        &out[1..],
                        &block[..],
                        "{} {layout} b={bits} {mode:?}",
                        c.isa()
                    );
                });
            }
        }
    }
}

#[test]
fn block_api_errors() {
    for layout in LAYOUTS {
        for_each_kernel(layout, |c| {
            let block = vec![5u32; layout.block_len()];
            let mut out = vec![0u8; layout.block_bytes(3)];
            assert_eq!(c.num_bits(&block), 3);
            assert_eq!(
                c.compress_block(&block, &mut out, 2),
                Err(EncodeError::BitWidthTooSmall {
                    needed: 3,
                    given: 2
                })
            );
            assert_eq!(c.compress_block(&block, &mut out, 3), Ok(out.len()));
            // A wider width than needed is fine (bitpacking allows it too).
            let mut wide = vec![0u8; layout.block_bytes(7)];
            assert_eq!(c.compress_block(&block, &mut wide, 7), Ok(wide.len()));
            let mut vals = vec![0u32; layout.block_len()];
            assert_eq!(c.decompress_block(&wide, &mut vals, 7), Ok(wide.len()));
            assert_eq!(vals, block);
            let e = c.decompress_block(&out, &mut vals, 33).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::Malformed);
            let e = c.decompress_block(&out[1..], &mut vals, 3).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::Truncated);
            let e = c.decompress_block(&out, &mut vals[1..], 3).unwrap_err();
            assert_eq!(e.kind(), DecodeErrorKind::OutputTooSmall);
        });
    }
}

/// The error the format implies for `input` cut anywhere, computed from the
/// known structure of a valid encoding (independently of the decoder).
#[test]
fn truncation_and_width_errors() {
    let mut rng = Rng::new(5);
    for layout in LAYOUTS {
        let bl = layout.block_len();
        let n = 2 * bl + 5;
        let values: Vec<u32> = (0..n)
            .map(|_| rng.next_u32() >> (rng.next_u32() % 32))
            .collect();
        let bytes = enc(scalar(layout), &values, Delta::None, 0);
        let w = [bytes[0], bytes[1]];
        let b0 = 2 + layout.block_bytes(w[0]);
        let b1 = b0 + layout.block_bytes(w[1]);
        // Start offsets of the tail values.
        let mut starts = vec![];
        let mut p = b1;
        for &v in &values[2 * bl..] {
            starts.push(p);
            p += crate::codec::vbyte::scalar::len_of(v);
        }
        for cut in 0..bytes.len() {
            let expect = if cut < 2 {
                DecodeError::new(DecodeErrorKind::Truncated, cut, Some(cut * bl))
            } else if cut < b0 {
                DecodeError::new(DecodeErrorKind::Truncated, 2, Some(0))
            } else if cut < b1 {
                DecodeError::new(DecodeErrorKind::Truncated, b0, Some(bl))
            } else {
                let k = starts.iter().rposition(|&s| s <= cut).unwrap();
                DecodeError::new(DecodeErrorKind::Truncated, starts[k], Some(2 * bl + k))
            };
            for_each_kernel(layout, |c| {
                let mut out = vec![0u32; n];
                assert_eq!(
                    dec(c, &bytes[..cut], n, Delta::None, 0, &mut out),
                    Err(expect)
                );
                assert_eq!(c.encoded_len(&bytes[..cut], n), Err(expect));
            });
        }
        // A width byte above 32.
        for bad in [33u8, 34, 0x80, 0xFF] {
            let mut b = bytes.clone();
            b[1] = bad;
            let expect = DecodeError::new(DecodeErrorKind::Malformed, 1, Some(bl));
            for_each_kernel(layout, |c| {
                let mut out = vec![0u32; n];
                assert_eq!(dec(c, &b, n, Delta::D1, 0, &mut out), Err(expect));
            });
        }
    }
}

#[test]
fn tail_value_errors() {
    let c = Bp128::new(Layout::Lanes4);
    let mut out = [0u32; 1];
    // Six bytes with continuation bits: overlong at 0; a fifth byte of 0x10: overflow.
    let e = dec(
        c,
        &[0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
        1,
        Delta::None,
        0,
        &mut out,
    );
    assert_eq!(e.unwrap_err().kind(), DecodeErrorKind::Overlong);
    let e = dec(
        c,
        &[0x80, 0x80, 0x80, 0x80, 0x10],
        1,
        Delta::None,
        0,
        &mut out,
    );
    assert_eq!(e.unwrap_err().kind(), DecodeErrorKind::Overflow);
    assert_eq!(
        dec(
            c,
            &[0xFF, 0xFF, 0xFF, 0xFF, 0x0F],
            1,
            Delta::None,
            0,
            &mut out
        ),
        Ok(5)
    );
    assert_eq!(out[0], u32::MAX);
}

/// Arrays of one or two values (all tail; VByte's `decode_short` reads
/// them by `first_two` when 8 bytes are there): on random bytes (valid
/// values of every length, overlong and overflowing ones, truncation) of
/// 0-19 bytes the handle returns what VByte's byte loop (`decode`, which
/// does not take that path) returns, values and errors, in every layout,
/// delta mode and kernel, and writes nothing past the `n` values.
#[test]
fn one_and_two_value_arrays_agree_with_the_byte_loop() {
    let mut rng = Rng::new(0xB1_7A11);
    for layout in LAYOUTS {
        for_each_kernel(layout, |c| {
            for d in DELTAS {
                for round in 0..300 {
                    let len = round % 20;
                    let input: Vec<u8> = (0..len)
                        .map(|_| {
                            let b = rng.next_u32();
                            // Mostly continuation bits set half the time;
                            // sometimes a large fifth byte.
                            (b as u8 & 0x7F) | if b >> 31 == 1 { 0x80 } else { 0 }
                        })
                        .collect();
                    let prev = rng.next_u32();
                    for n in 1..=2 {
                        let mut want_out = vec![0u32; n];
                        let want = if d == Delta::None {
                            vbyte_scalar::decode::<u32, false>(&input, &mut want_out, 0)
                        } else {
                            vbyte_scalar::decode::<u32, true>(&input, &mut want_out, prev)
                        };
                        let mut out = vec![0xA5A5_A5A5u32; n + 1];
                        let got = dec(c, &input, n, d, prev, &mut out);
                        let at = format!("{layout:?} {:?} {d:?} n={n} {input:02x?}", c.isa());
                        assert_eq!(got, want, "{at}");
                        if got.is_ok() {
                            assert_eq!(out[..n], want_out[..], "{at}");
                        }
                        assert_eq!(out[n], 0xA5A5_A5A5, "{at}: wrote past n");
                    }
                }
            }
        });
    }
}

#[test]
fn absurd_counts_fail_without_allocating() {
    let c = Bp128::new(Layout::Lanes8);
    assert_eq!(c.max_compressed_len(usize::MAX), None);
    let e = c
        .decode_delta_to_vec(&[1, 2, 3], usize::MAX, 0)
        .unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Truncated);
    let e = SortedArray::from_encoded(c, vec![0; 4], usize::MAX / 2).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::Truncated);
}

#[test]
fn sorted_array_ops() {
    let mut rng = Rng::new(9);
    for layout in LAYOUTS {
        for delta in DELTAS {
            for n in [
                0usize, 1, 5, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1100,
            ] {
                let keys = crate::tests::sorted_keys(&mut rng, n, 0, 50);
                // The largest key (the start on no keys).
                let last = keys.last().copied().unwrap_or(0);
                for_each_kernel(layout, |c| {
                    let a = match delta {
                        Delta::None => SortedArray::new_plain(c, &keys),
                        _ => SortedArray::new(in_mode(c, delta), &keys),
                    };
                    assert_eq!(a.len(), n);
                    assert_eq!(a.to_vec(), keys);
                    for (i, &k) in keys.iter().enumerate() {
                        assert_eq!(a.select(i), Some(k));
                    }
                    assert_eq!(a.select(n), None);
                    for t in [0, 1, last / 3, last / 2, last, last + 1] {
                        let k = keys.partition_point(|&v| v < t);
                        assert_eq!(a.lower_bound(t), keys.get(k).map(|&v| (k, v)));
                    }
                    let bytes = a.as_bytes().to_vec();
                    let b = match delta {
                        Delta::None => SortedArray::from_encoded_plain(c, bytes, n),
                        _ => SortedArray::from_encoded(in_mode(c, delta), bytes, n),
                    }
                    .unwrap();
                    assert_eq!(b.is_delta(), delta != Delta::None);
                    assert_eq!(b.to_vec(), keys);
                    let mut ins = a.clone();
                    let mut want = keys.clone();
                    for v in [last / 2, 0, last + 5] {
                        let at = want.partition_point(|&x| x <= v);
                        want.insert(at, v);
                        assert_eq!(ins.insert(v), at);
                    }
                    assert_eq!(ins.to_vec(), want);
                    assert_eq!(ins.len(), n + 3);
                });
            }
        }
    }
}

/// Arrays whose consecutive full blocks take every width 0..=32 (in a
/// scrambled order, so that each width follows several others): every
/// kernel's multi-block unpack (the running value carried in a register
/// from block to block) against the values, in every mode, and the raw
/// `unpack_blocks` entry (also Offset) against the scalar one.
#[test]
fn consecutive_blocks_of_every_width() {
    let mut rng = Rng::new(23);
    for layout in LAYOUTS {
        let (bl, l) = (layout.block_len(), layout.lanes());
        let widths: Vec<u8> = (0..33u8).map(|j| (j * 7 + 3) % 33).collect();
        for mode in MODES {
            let initial = rng.next_u32();
            let mut prev = splat(initial);
            let mut values = Vec::new();
            for &w in &widths {
                let block = block_of_width(&mut rng, layout, w, mode, &prev);
                prev = match mode {
                    Mode::Lane => {
                        let mut p = splat(block[bl - 1]);
                        p[..l].copy_from_slice(&block[bl - l..]);
                        p
                    }
                    Mode::D1 | Mode::Strict => splat(block[bl - 1]),
                    _ => prev,
                };
                values.extend_from_slice(&block);
            }
            // The packed blocks, back to back, from the scalar packer.
            let mut packed = Vec::new();
            let s = scalar(layout);
            let mut prev = splat(initial);
            for (j, &w) in widths.iter().enumerate() {
                let block = &values[j * bl..(j + 1) * bl];
                let mut b = vec![0u8; layout.block_bytes(w)];
                assert_eq!(scalar::needed_bits(layout, block, mode, &prev), w);
                kcall!(s.k, pack(block, &mut b, w, mode, &prev));
                packed.extend_from_slice(&b);
                if mode != Mode::Offset {
                    prev =
                        intcodec_bp128_kernels::block_prev(layout.lanes(), &values, j + 1, initial);
                    if mode != Mode::Lane {
                        prev = splat(prev[l - 1]);
                    }
                }
            }
            let p0 = splat(initial);
            for_each_kernel(layout, |c| {
                let mut out = vec![0u32; values.len() + 1];
                assert_eq!(
                    kcall!(
                        c.k,
                        unpack_blocks(&packed, &widths, &mut out[1..], mode, &p0)
                    ),
                    Ok(packed.len())
                );
                assert_eq!(&out[1..], &values[..], "{} {layout} {mode:?}", c.isa());
                // The multi-block pack (widths found a block ahead of the
                // packs) writes the scalar packer's widths and bytes (its
                // Offset mode is not the per-block one built here).
                if mode == Mode::Offset {
                    return;
                }
                let mut ws = vec![0u8; widths.len()];
                let mut bytes = vec![0u8; packed.len() + 64];
                let len = kcall!(
                    c.k,
                    pack_blocks(&values, &mut ws, &mut bytes, mode, initial)
                );
                assert_eq!(ws, widths, "{} {layout} {mode:?}", c.isa());
                assert_eq!(&bytes[..len], &packed[..], "{} {layout} {mode:?}", c.isa());
                // A width above 32 at block 5, the input cut inside block 8
                // (or its last byte missing): stops there, reads no further.
                let mut bad = widths.clone();
                bad[5] = 33 + (mode as u8) * 50;
                let r = kcall!(c.k, unpack_blocks(&packed, &bad, &mut out, mode, &p0));
                assert_eq!(r, Err(5), "{} {layout} {mode:?}", c.isa());
                let end8: usize = widths[..9].iter().map(|&w| layout.block_bytes(w)).sum();
                for cut in [end8 - 1, end8 - layout.block_bytes(widths[8]) / 2] {
                    let r = kcall!(
                        c.k,
                        unpack_blocks(&packed[..cut], &widths, &mut out, mode, &p0)
                    );
                    assert_eq!(r, Err(8), "{} {layout} {mode:?} cut {cut}", c.isa());
                }
            });
            // The array format (widths, blocks, a tail) in the delta modes.
            let delta = match mode {
                Mode::Plain => Delta::None,
                Mode::D1 => Delta::D1,
                Mode::Lane => Delta::Lane,
                Mode::Strict => Delta::Strict,
                Mode::Offset => continue,
            };
            values.extend((0..5).map(|_| rng.next_u32()));
            let want = enc(s, &values, delta, initial);
            assert_eq!(&want[..widths.len()], &widths[..]);
            for_each_kernel(layout, |c| {
                assert_eq!(
                    enc(c, &values, delta, initial),
                    want,
                    "{} {layout}",
                    c.isa()
                );
                assert_eq!(
                    dec_vec(c, &want, values.len(), delta, initial),
                    Ok(values.clone()),
                    "{} {layout} {delta:?}",
                    c.isa()
                );
            });
        }
    }
}

#[test]
fn needed_bits_of_every_kernel_match_the_per_value_definition() {
    let mut rng = Rng::new(0xB175);
    for layout in LAYOUTS {
        let l = layout.lanes();
        let bl = layout.block_len();
        for round in 0..200 {
            // Widths 0..=32 of plain values and of deltas, wrapping too.
            let w = round % 33;
            let mask = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
            let mut block: Vec<u32> = (0..bl).map(|_| rng.next_u32() & mask).collect();
            if round % 3 == 1 {
                let mut acc = rng.next_u32();
                for v in block.iter_mut() {
                    acc = acc.wrapping_add(*v);
                    *v = acc;
                }
            }
            let mut prev = [0u32; 16];
            for p in prev.iter_mut() {
                *p = rng.next_u32() >> (rng.next_u32() % 33).min(31);
            }
            for mode in MODES {
                let want =
                    (0..bl).fold(0u32, |a, i| a | scalar::delta_at(l, &block, i, mode, &prev));
                assert_eq!(
                    scalar::needed_bits(layout, &block, mode, &prev),
                    bits_of(want),
                    "{layout:?} {mode:?} round {round}"
                );
                // Every kernel's own (SIMD) width computation.
                let mut ran = 0;
                for isa in registry(layout).enabled_isas() {
                    let k = registry(layout).for_isa(isa).unwrap();
                    assert_eq!(
                        kcall!(k, bits(&block, mode, &prev)),
                        bits_of(want),
                        "{:?} {layout:?} {mode:?} round {round}",
                        k.isa
                    );
                    ran += 1;
                }
                assert!(ran >= 1);
            }
        }
    }
}

#[test]
fn handles_names_registry_and_sorted_codec() {
    for (name, layout, delta) in [
        ("bp128", Layout::Lanes4, DeltaMode::D1),
        ("bp128-8x", Layout::Lanes8, DeltaMode::D1),
        ("bp128-d4", Layout::Lanes4, DeltaMode::Lane),
        ("bp128-8x-d8", Layout::Lanes8, DeltaMode::Lane),
        ("bp128-strict", Layout::Lanes4, DeltaMode::Strict),
        ("bp128-8x-strict", Layout::Lanes8, DeltaMode::Strict),
        ("bp128-16x", Layout::Lanes16, DeltaMode::D1),
        ("bp128-16x-d16", Layout::Lanes16, DeltaMode::Lane),
        ("bp128-16x-strict", Layout::Lanes16, DeltaMode::Strict),
    ] {
        let c = Bp128::new(layout).with_delta(delta);
        assert_eq!(c.name(), name);
        let d = crate::registry::by_name(name).unwrap();
        assert_eq!((d.name(), d.isa()), (name, c.isa()));
        assert_eq!(d.kernel_isas(), registry(layout).enabled_isas());
        let ks = c.all_kernels();
        assert_eq!(ks.len(), d.kernel_isas().len());
        assert!(ks
            .iter()
            .all(|k| k.delta_mode() == delta && k.layout() == layout));
        assert_eq!(ks.last().unwrap().isa(), c.isa());
        // max_values: each byte could be the width byte of a block.
        let bytes = c.encode_delta_to_vec(&[7; 1100], 2);
        assert_eq!(c.max_values(bytes.len()), bytes.len() * layout.block_len());
    }
    assert_eq!(
        crate::registry::names()
            .iter()
            .filter(|n| n.starts_with("bp128"))
            .count(),
        9
    );
}

/// The 16x layout, derived by hand from simdcomp's `avx512pack` algorithm
/// (`src/avx512bitpacking.c`: 32 loads of sixteen values, value `i` in lane
/// `i % 16` of group `i / 16`; group `k` shifted left by `k * b % 32` into
/// output word `k * b / 32`, its high bits shifted right by `32 - k * b % 32`
/// into the next word; `b` words of 64 bytes), on every kernel.
#[test]
fn lanes16_golden_vectors_follow_simdcomp_avx512pack() {
    let layout = Layout::Lanes16;
    // (width, [(index, value)], [(byte offset of a u32, its value)]); every
    // other u32 of the block is 0.
    type Case = (u8, &'static [(usize, u32)], &'static [(usize, u32)]);
    let cases: [Case; 4] = [
        // b = 1: value 17 is lane 1, group 1: bit 1 of lane 1's word 0.
        (1, &[(17, 1)], &[(4, 2)]),
        // b = 3: group 10 of lane 5 starts at bit 30 of word 0: two bits
        // there, the third at bit 0 of word 1 (byte 64 + 4 * 5).
        (3, &[(10 * 16 + 5, 0b111)], &[(20, 0xC000_0000), (84, 1)]),
        // b = 3: value 15 (lane 15, group 0) and 16 (lane 0, group 1).
        (3, &[(15, 5), (16, 6)], &[(60, 5), (0, 6 << 3)]),
        // b = 32: the values themselves, in order.
        (
            32,
            &[(0, 0xDEAD_BEEF), (511, 7)],
            &[(0, 0xDEAD_BEEF), (2044, 7)],
        ),
    ];
    for (bits, vals, words) in cases {
        let mut block = vec![0u32; 512];
        for &(i, v) in vals {
            block[i] = v;
        }
        let mut want = vec![0u8; layout.block_bytes(bits)];
        for &(at, w) in words {
            want[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
        for_each_kernel(layout, |c| {
            let mut got = vec![0xEEu8; want.len()];
            assert_eq!(c.compress_block(&block, &mut got, bits), Ok(want.len()));
            assert_eq!(got, want, "{} b={bits}", c.isa());
            let mut back = vec![0u32; 512];
            assert_eq!(c.decompress_block(&want, &mut back, bits), Ok(want.len()));
            assert_eq!(back, block, "{} b={bits}", c.isa());
        });
    }
}

/// Every kernel's `skip` (the next block's `prev`, no values) and
/// `unpack_upto` (the first groups of a block, every group count) against
/// the full unpack, on every width, mode and layout; nothing is written past
/// the groups.
#[test]
fn skip_and_unpack_upto_of_every_kernel() {
    let mut rng = Rng::new(0x5EE4);
    for layout in LAYOUTS {
        let (bl, l) = (layout.block_len(), layout.lanes());
        for bits in 0..=32u8 {
            for mode in MODES {
                let prev = random_prev(&mut rng, mode);
                let block = block_of_width(&mut rng, layout, bits, mode, &prev);
                let mut bytes = vec![0u8; layout.block_bytes(bits)];
                kcall!(
                    scalar(layout).k,
                    pack(&block, &mut bytes, bits, mode, &prev)
                );
                let next = scalar::carry_after(l, &block, mode, &prev);
                for_each_kernel(layout, |c| {
                    let what = format!("{} {layout} b={bits} {mode:?}", c.isa());
                    assert_eq!(kcall!(c.k, skip(&bytes, bits, mode, &prev)), next, "{what}");
                    for g in 1..=32 {
                        let mut out = vec![SENTINEL; bl];
                        kcall!(c.k, unpack_upto(&bytes, &mut out, bits, mode, &prev, g));
                        let w = g * l;
                        assert_eq!(&out[..w], &block[..w], "{what} groups {g}");
                        assert!(out[w..].iter().all(|&v| v == SENTINEL), "{what} {g}");
                    }
                });
            }
        }
    }
}

const SENTINEL: u32 = 0xA5A5_5A5A;
