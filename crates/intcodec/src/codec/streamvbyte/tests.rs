//! What the conformance harness cannot check generically: Stream VByte's
//! format read by an independent parser (every kernel must agree with it,
//! on valid, truncated, mutated and garbage streams).

use super::*;
use crate::isa::Isa;
use crate::tests::conformance::check_parser;
use crate::traits::KernelChoice;
use crate::DecodeErrorKind;

/// The scalar kernel of the `variant` codec.
fn scalar_kernel(variant: Variant) -> StreamVByte {
    StreamVByte::new()
        .with_variant(variant)
        .with_isa(Isa::Scalar)
        .unwrap()
}

/// A byte-at-a-time reading of the format (`bytes`: the byte length of
/// each 2-bit code): the first `n` values and the bytes they take, or the
/// error the format implies.
fn parse(bytes: [u8; 4], input: &[u8], n: usize) -> Result<(Vec<u32>, usize), DecodeError> {
    let cl = control_len(n);
    if input.len() < cl {
        let at = input.len();
        return Err(DecodeError::new(
            DecodeErrorKind::Truncated,
            at,
            Some(at * 4),
        ));
    }
    let mut pos = cl;
    let mut vals = Vec::with_capacity(n);
    for i in 0..n {
        let len = bytes[((input[i / 4] >> (2 * (i % 4))) & 3) as usize] as usize;
        let v = input.get(pos..pos + len).ok_or(DecodeError::new(
            DecodeErrorKind::Truncated,
            pos,
            Some(i),
        ))?;
        vals.push(v.iter().rev().fold(0u32, |a, &b| a << 8 | b as u32));
        pos += len;
    }
    Ok((vals, pos))
}

#[test]
fn every_kernel_agrees_with_an_independent_parser() {
    check_parser(&StreamVByte::new(), &|i, n| parse(BYTES_1234, i, n));
    let v0124 = StreamVByte::new().with_variant(Variant::V0124);
    check_parser(&v0124, &|i, n| parse(BYTES_0124, i, n));
}

/// Lists of at most `SHORT_MAX` values (and one more), which the SIMD
/// kernels decode without their loops (`scalar::decode_short`): every
/// control byte, with random data after it, cut at every length (the
/// short path's word reads need 4 bytes a value after the control bytes,
/// so cuts cross between its two ways and into truncation): every kernel
/// gives the scalar kernel's values, length or error.
#[test]
fn short_lists_every_key_and_cut_on_every_kernel() {
    let mut rng = crate::tests::Rng::new(0x5407);
    for variant in [Variant::V1234, Variant::V0124] {
        let s = scalar_kernel(variant);
        let kernels = StreamVByte::new().with_variant(variant).all_kernels();
        for key in 0..=255u8 {
            for n in 1..=SHORT_MAX + 1 {
                let mut stream = vec![key, rng.next_u64() as u8];
                stream.extend((0..4 * n + 2).map(|_| rng.next_u64() as u8));
                for cut in 0..=stream.len() {
                    for k in &kernels {
                        let at = format!("{:?} {variant} key {key:#04x} n {n} cut {cut}", k.isa());
                        crate::tests::same_decodes(&s, k, &stream[..cut], n, 0xFFFF_FFF0, &at);
                    }
                }
            }
        }
    }
}

// ------------------------------------------------ trusted count (counted.rs)

/// Counts around every window of the counted loops (16 values of room for
/// a group, 44 to 128 for a block of 32 values) and long lists.
fn counted_lengths() -> Vec<usize> {
    let mut v: Vec<usize> = (0..=200).collect();
    for w in [16usize, 32, 44, 64, 128, 160, 256, 512, 1024, 4096] {
        v.extend(w.saturating_sub(4)..=w + 4);
    }
    v.extend([1000, 3333, 4096 + 64]);
    v.sort_unstable();
    v.dedup();
    v
}

/// `n` values of byte width `width` (1..=4), of random widths (0; zeros
/// too for "0124"), or 4 bytes wide but for the last 16 (5) or the last
/// `n % 13` (6) of one byte: the widest loads with the least data after
/// them at the counted loops' bounds (a group's load runs when its own
/// data plus a byte per value after it make 16 bytes).
fn of_width(rng: &mut crate::tests::Rng, n: usize, width: u32, variant: Variant) -> Vec<u32> {
    (0..n)
        .map(|i| {
            let w = match width {
                0 if variant == Variant::V0124 => rng.below(5) as u32,
                0 => 1 + rng.below(4) as u32,
                5 if i + 16 >= n => 1,
                6 if i + n % 13 >= n => 1,
                5 | 6 => 4,
                w => w,
            };
            match w {
                0 => 0,
                w => {
                    let lo = if w == 1 { 0 } else { 1u64 << (8 * (w - 1)) };
                    (lo + rng.below((1u64 << (8 * w)) - lo)) as u32
                }
            }
        })
        .collect()
}

/// Every kernel's trusted-count decoders (forced one by one, both variants)
/// against the scalar kernel's checked decoder, on the exact stream placed
/// flush against a guard page: every count of `counted_lengths`, values of
/// each byte width and mixed widths, plain and delta.
#[test]
fn counted_decoders_read_only_the_stream_on_every_kernel() {
    use crate::tests::guard::Flush;

    let lens = counted_lengths();
    let mut f = Flush::new(max_compressed_len(*lens.iter().max().unwrap()));
    let mut rng = crate::tests::Rng::new(0x5EB_C0DE);
    for variant in [Variant::V1234, Variant::V0124] {
        let s = scalar_kernel(variant);
        for c in StreamVByte::new().with_variant(variant).all_kernels() {
            for &n in &lens {
                for width in 0..=6 {
                    let vals = of_width(&mut rng, n, width, variant);
                    for delta in [false, true] {
                        let from = delta.then_some(9);
                        let enc = s.encode_opt_to_vec(&vals, from);
                        let mut want = vec![0u32; n];
                        let used = s.decode_opt(&enc, n, from, &mut want);
                        assert_eq!(used, Ok(enc.len()));
                        let p = f.put(&enc);
                        let mut out = vec![0xDEAD_BEEFu32; n + 3];
                        let got = if delta {
                            // SAFETY: `p` holds `enc`, a stream of `n` values.
                            unsafe { c.decode_delta_counted(p, n, 9, &mut out) }
                        } else {
                            // SAFETY: as above.
                            unsafe { c.decode_counted(p, n, &mut out) }
                        };
                        assert!(out[n..].iter().all(|&v| v == 0xDEAD_BEEF), "wrote past n");
                        out.truncate(n);
                        assert_eq!(
                            (got, out),
                            (used, want),
                            "{:?} {variant} n={n} width={width} delta={delta}",
                            c.isa()
                        );
                    }
                }
            }
        }
    }
}

/// Too small an `out` is `OutputTooSmall` and reads nothing (a dangling
/// pointer here); a count of 0 reads nothing either.
#[test]
fn counted_decoders_check_the_output_size() {
    let p = core::ptr::NonNull::<u8>::dangling().as_ptr();
    for variant in [Variant::V1234, Variant::V0124] {
        for c in StreamVByte::new().with_variant(variant).all_kernels() {
            let mut out = [0u32; 4];
            // SAFETY: `out` is too small, so nothing is read.
            let r = unsafe { c.decode_counted(p, 5, &mut out) };
            assert_eq!(r.unwrap_err().kind(), DecodeErrorKind::OutputTooSmall);
            // SAFETY: as above.
            let r = unsafe { c.decode_delta_counted(p, 5, 1, &mut out) };
            assert_eq!(r.unwrap_err().kind(), DecodeErrorKind::OutputTooSmall);
            // SAFETY: no value, so nothing is read.
            assert_eq!(unsafe { c.decode_counted(p, 0, &mut out) }, Ok(0));
        }
    }
}
