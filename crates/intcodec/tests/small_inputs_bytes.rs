//! VByte (u32 and u64) and VarInt-GB (both layouts) on small inputs, every
//! kernel: the test set sized for Miri (`scripts/miri.sh`), like
//! `small_inputs.rs` for Stream VByte. It also runs in the ordinary suite.
//!
//! Covers: encode into exact-size buffers, decode checked (exact-size input)
//! and unchecked (`PADDING` bytes exactly), plain and delta, every
//! truncation point, and garbage bytes; every kernel is compared with scalar
//! on values and errors.
//!
//! Under Miri (`cfg(miri)`) everything runs on every kernel except the
//! truncations of the 50-value streams, which repeat the cut positions of
//! the 33- and 70-value ones (see `truncations`), and except VByte's SSE4.1
//! and VarInt-GB's SSSE3 kernels, their AVX2 kernels' source compiled with
//! other features (`common::miri_runs_kernel`).

mod common;

use common::exact;
use intcodec::varint_gb::{Layout, VarIntGb, PADDING as GB_PADDING};
use intcodec::vbyte::{VByte, PADDING as VB_PADDING};
use intcodec::Isa;
use intcodec::{IntCodec, KernelChoice};

/// Lengths through the tails of the SIMD loops (VByte: 48-byte windows;
/// group varint: 4-value groups).
fn lengths() -> impl Iterator<Item = usize> {
    (0..=9).chain([15, 17, 33, 50, 70])
}

/// The tests' seeded PRNG: `next()` gives 64 random bits.
fn rng(seed: u64) -> impl FnMut() -> u64 {
    let mut r = intcodec_testkit::SplitMix64::new(seed);
    move || r.next_u64()
}

/// Values of random byte widths (the widths the decoders branch on).
fn values(n: usize, seed: u64) -> Vec<u64> {
    let mut r = rng(seed + n as u64);
    (0..n)
        .map(|_| {
            let v = r();
            v >> (v % 64)
        })
        .collect()
}

/// Asserts that every kernel's kernel list starts with scalar and, when
/// scripts/miri.sh names the kernels it enabled, that exactly those ran.
fn check_kernels(names: &[&str], expect_var: &str) {
    assert_eq!(names[0], "scalar");
    if let Ok(expect) = std::env::var(expect_var) {
        assert_eq!(names.join(","), expect, "kernels");
    }
}

/// Truncation points of a stream of `len` bytes: all of the first 40 and
/// the last 20, every 7th in between.
fn cuts(len: usize) -> impl Iterator<Item = usize> {
    (0..len).filter(move |&c| c < 40 || c + 20 >= len || c % 7 == 0)
}

/// Whether the truncations (and garbage) of the `n`-value stream run: every
/// length natively; under Miri every length but 50. The 50-value streams
/// (about 180 bytes of VByte, 160 of VarInt-GB) are cut where the 33- and
/// 70-value ones are: in the first 40 bytes with more than 16 values still
/// to come, every 7th byte through the bulk loop's windows, and in the last
/// 20 bytes (the 16-byte load window and the last group or 12 values);
/// only the random bytes differ. They cost a quarter of these tests' Miri
/// time (each cut decodes the values before it on every kernel). The
/// round trips of 50 values still run under Miri.
fn truncations(n: usize) -> bool {
    !(cfg!(miri) && n == 50)
}

/// `base` on every kernel this build and CPU have (those Miri runs: see
/// `common::miri_runs_kernel`, which skips `twin`), scalar first.
fn kernels<C: KernelChoice>(base: C, twin: Isa) -> Vec<C> {
    Isa::ALL
        .into_iter()
        .filter(|&isa| common::miri_runs_kernel(isa, twin))
        .filter_map(|isa| base.with_isa(isa))
        .collect()
}

/// VByte on every kernel this build and CPU have, scalar first.
fn vbyte_kernels() -> Vec<VByte> {
    kernels(VByte::new(), Isa::Sse41)
}

/// The round trips of `vals` on kernel `k`: `encode` gives `enc` in an
/// exact-size buffer; `decode` of `enc`, `decode_delta` of `encd` (deltas
/// from `prev`) and `decode_unchecked` of `enc` followed by exactly
/// `padding` bytes give `vals` and consume the whole stream.
fn check_round_trips<C: IntCodec>(
    k: &C,
    vals: &[u32],
    (enc, encd, prev): (&[u8], &[u8], u32),
    padding: usize,
    ctx: &str,
) {
    let n = vals.len();
    let mut out = vec![0u8; enc.len()];
    assert_eq!(k.encode(vals, &mut out), Ok(enc.len()), "{ctx}");
    assert_eq!(out, enc, "{ctx}");
    let mut got = vec![0u32; n];
    assert_eq!(k.decode(enc, n, &mut got), Ok(enc.len()), "{ctx}");
    assert_eq!(got, vals, "{ctx}");
    let mut got = vec![0u32; n];
    assert_eq!(
        k.decode_delta(encd, n, prev, &mut got),
        Ok(encd.len()),
        "{ctx}"
    );
    assert_eq!(got, vals, "{ctx} delta");
    let p = exact(enc, padding);
    let mut got = vec![0u32; n];
    // SAFETY: a stream of `n` values from this encoder, then `padding` bytes.
    let used = unsafe { k.decode_unchecked(&p, n, &mut got) };
    assert_eq!((used, &got[..]), (enc.len(), vals), "{ctx} unchecked");
}

/// `decode` of `n` values from `input` on every kernel of `ks`: the result
/// of `ks[0]` (scalar), and its values when that is `Ok`.
fn check_decode_like_scalar<C: IntCodec>(ks: &[C], input: &[u8], n: usize) {
    let mut want = vec![0u32; n];
    let want_r = ks[0].decode(input, n, &mut want);
    for k in &ks[1..] {
        let mut got = vec![0u32; n];
        assert_eq!(k.decode(input, n, &mut got), want_r, "{:?} n={n}", k.isa());
        if want_r.is_ok() {
            assert_eq!(got, want);
        }
    }
}

#[test]
fn vbyte_every_kernel() {
    let ks = vbyte_kernels();
    let names: Vec<&str> = ks.iter().map(|k| k.isa().name()).collect();
    check_kernels(&names, "INTCODEC_EXPECT_KERNELS_VBYTE");
    for n in lengths() {
        let v64 = values(n, 1);
        let v32: Vec<u32> = v64.iter().map(|&v| v as u32).collect();
        let enc32 = ks[0].encode_to_vec(&v32);
        let enc32d = ks[0].encode_delta_to_vec(&v32, 3);
        let enc64 = ks[0].encode_u64_to_vec(&v64);
        for k in &ks {
            let ctx = format!("{:?} n={n}", k.isa());
            check_round_trips(k, &v32, (&enc32, &enc32d, 3), VB_PADDING, &ctx);
            let mut got = vec![0u64; n];
            assert_eq!(k.decode_u64(&enc64, n, &mut got), Ok(enc64.len()), "{ctx}");
            assert_eq!(got, v64, "{ctx} u64");
        }
        // Truncations (every one for short streams, every 7th byte beyond:
        // Miri's budget), and garbage (0x80 continuation bytes, 0xFF).
        if !truncations(n) {
            continue;
        }
        let mut inputs: Vec<Vec<u8>> = cuts(enc32.len()).map(|c| exact(&enc32[..c], 0)).collect();
        inputs.push(vec![0x80; n + 7]);
        inputs.push(vec![0xFF; 2 * n + 11]);
        for input in &inputs {
            check_decode_like_scalar(&ks, input, n);
            let mut want64 = vec![0u64; n];
            let want64_r = ks[0].decode_u64(input, n, &mut want64);
            for k in &ks[1..] {
                let mut got = vec![0u64; n];
                assert_eq!(
                    k.decode_u64(input, n, &mut got),
                    want64_r,
                    "{:?} u64",
                    k.isa()
                );
            }
        }
    }
}

/// `VByte::decode_counted` (no input length: the C drop-ins' decoder) on
/// every kernel, each stream in an allocation that ends where it ends, so
/// Miri sees any read past it; and on garbage given its `5 * n` bytes, the
/// same result as the checked decoder on those bytes.
#[test]
fn vbyte_counted_every_kernel() {
    let ks = vbyte_kernels();
    for n in lengths() {
        let v32: Vec<u32> = values(n, 2).iter().map(|&v| v as u32).collect();
        let plain = exact(&ks[0].encode_to_vec(&v32), 0);
        let delta = exact(&ks[0].encode_delta_to_vec(&v32, 9), 0);
        let mut garbage = vec![0x80u8; 5 * n];
        if let Some(last) = garbage.last_mut() {
            *last = 0x7F;
        }
        let mut want = vec![0u32; n];
        let want_r = ks[0].decode(&garbage, n, &mut want);
        for k in &ks {
            let ctx = format!("{:?} n={n}", k.isa());
            let mut got = vec![0u32; n];
            // SAFETY: `plain` holds `n` values from the VByte encoder.
            let used = unsafe { k.decode_counted(plain.as_ptr(), n, &mut got) };
            assert_eq!((used, &got), (Ok(plain.len()), &v32), "{ctx}");
            let mut got = vec![0u32; n];
            // SAFETY: `delta` holds `n` values from the VByte encoder.
            let used = unsafe { k.decode_delta_counted(delta.as_ptr(), n, 9, &mut got) };
            assert_eq!((used, &got), (Ok(delta.len()), &v32), "{ctx} delta");
            let mut got = vec![0u32; n];
            // SAFETY: `garbage` holds `5 * n` readable bytes.
            let r = unsafe { k.decode_counted(garbage.as_ptr(), n, &mut got) };
            assert_eq!(r, want_r, "{ctx} garbage");
        }
    }
}

#[test]
fn varint_gb_every_kernel() {
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let ks = kernels(VarIntGb::new().with_layout(layout), Isa::Ssse3);
        let names: Vec<&str> = ks.iter().map(|k| k.isa().name()).collect();
        check_kernels(&names, "INTCODEC_EXPECT_KERNELS_GB");
        for n in lengths() {
            let vals: Vec<u32> = values(n, 2).iter().map(|&v| v as u32).collect();
            let enc = ks[0].encode_to_vec(&vals);
            let encd = ks[0].encode_delta_to_vec(&vals, 9);
            for k in &ks {
                let ctx = format!("{:?} {layout:?} n={n}", k.isa());
                check_round_trips(k, &vals, (&enc, &encd, 9), GB_PADDING, &ctx);
            }
            if !truncations(n) {
                continue;
            }
            let mut inputs: Vec<Vec<u8>> = cuts(enc.len()).map(|c| exact(&enc[..c], 0)).collect();
            inputs.push(vec![0xFF; 3 * n + 5]);
            for input in &inputs {
                check_decode_like_scalar(&ks, input, n);
            }
        }
    }
}
