//! Select, seek and insert of Stream VByte, VByte, VarInt-GB and BP128 on small
//! inputs, every kernel, against the decoded values and scalar: sized for
//! Miri (`scripts/miri.sh`), which checks every raw load of the SIMD seek
//! kernels; it also runs in the ordinary test suite. Covers intact streams
//! of lengths through every tail (single groups, four-group steps, zero
//! blocks, the end-of-data windows), every truncation point, and the
//! `SvbVec` append path.

mod common;

use intcodec::sorted::SvbVec;
use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::vbyte::VByte;
use intcodec::Isa;
use intcodec::SortedSet;
use intcodec::{IntCodec, KernelChoice, SortedCodec};

/// Sorted lists: one-byte gaps (zero blocks), mixed widths, wide gaps.
fn lists(n: usize) -> Vec<Vec<u32>> {
    let mut rng = intcodec_testkit::SplitMix64::new(n as u64);
    let mut r = move || rng.next_u32();
    let mut out = Vec::new();
    for shift in [28u32, 14, 4] {
        let mut acc = 0u32;
        out.push(
            (0..n)
                .map(|_| {
                    acc = acc.wrapping_add(r() >> shift);
                    acc
                })
                .collect(),
        );
    }
    out
}

/// Every kernel's select and seek on `bytes` (deltas from `prev`; intact,
/// then each prefix) equals scalar's; on the intact stream, the values.
fn check<C: SortedCodec>(vals: &[u32], bytes: &[u8], ks: &[C], prev: u32) {
    let n = vals.len();
    for k in ks {
        for i in (0..=n).step_by(step(1)) {
            assert_eq!(k.select(bytes, n, prev, i), Ok(vals.get(i).copied()));
        }
        for (j, &t) in vals.iter().enumerate().step_by(step(3)) {
            let want = vals.iter().position(|&v| v >= t).map(|p| (p, vals[p]));
            assert_eq!(k.lower_bound(bytes, n, prev, t), Ok(want), "{j}");
        }
    }
    for cut in (0..=bytes.len()).step_by(step(5)) {
        let b = &bytes[..cut];
        for i in (0..n).step_by(step(7)) {
            let want = ks[0].select(b, n, prev, i);
            for k in &ks[1..] {
                assert_eq!(k.select(b, n, prev, i), want, "cut {cut} i {i}");
            }
        }
        for &t in vals.iter().step_by(step(9)).chain([u32::MAX].iter()) {
            let want = ks[0].lower_bound(b, n, prev, t);
            for k in &ks[1..] {
                assert_eq!(k.lower_bound(b, n, prev, t), want, "cut {cut} t {t}");
            }
        }
    }
}

/// Every kernel of `codec` (checked against the list `var` names under
/// Miri; there without `twin`, see `common::miri_runs_kernel`) on every
/// length and list; `extra` gets the kernels, the values and the delta
/// stream for the codec's other entry points.
fn every_kernel<C: SortedCodec + KernelChoice>(
    codec: C,
    var: &str,
    twin: Isa,
    mut extra: impl FnMut(&[C], &[u32], &[u8]),
) {
    let ks: Vec<C> = codec
        .all_kernels()
        .into_iter()
        .filter(|k| common::miri_runs_kernel(k.isa(), twin))
        .collect();
    common_expect(ks.iter().map(|k| k.isa()), var);
    for &n in lengths() {
        for vals in lists(n) {
            let bytes = ks[0].encode_delta_to_vec(&vals, 0);
            check(&vals, &bytes, &ks, 0);
            extra(&ks, &vals, &bytes);
        }
    }
}

/// Lengths through each path: single groups, four-group steps (16 values
/// and up), zero blocks, the end-of-data windows. Miri interprets every
/// instruction, so it gets fewer lengths and sparser probes.
fn lengths() -> &'static [usize] {
    if cfg!(miri) {
        &[0, 5, 17, 40]
    } else {
        &[0, 1, 5, 15, 16, 17, 33, 64, 70]
    }
}

/// Probe every `k`-th truncation point / index / target.
const fn step(native: usize) -> usize {
    if cfg!(miri) {
        native * 4
    } else {
        native
    }
}

#[test]
fn stream_vbyte_every_kernel() {
    for variant in [Variant::V1234, Variant::V0124] {
        let c = StreamVByte::new().with_variant(variant);
        every_kernel(
            c,
            "INTCODEC_EXPECT_KERNELS",
            Isa::Sse41,
            |ks, vals, bytes| {
                let n = vals.len();
                // Plain select on the same values.
                let plain = ks[0].encode_to_vec(vals);
                for k in ks {
                    for i in 0..=n {
                        assert_eq!(k.select_plain(&plain, n, i), Ok(vals.get(i).copied()));
                    }
                }
                // Append.
                for &k in ks {
                    let mut v = SvbVec::new_delta(k, 0);
                    v.extend(vals.iter().copied());
                    assert_eq!(v.to_vec(), vals);
                    assert_eq!(v.as_bytes(), bytes);
                }
            },
        );
    }
}

#[test]
fn vbyte_and_group_varint_every_kernel() {
    every_kernel(
        VByte::new(),
        "INTCODEC_EXPECT_KERNELS_VBYTE",
        Isa::Sse41,
        |_, _, _| {},
    );
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let c = VarIntGb::new().with_layout(layout);
        every_kernel(c, "INTCODEC_EXPECT_KERNELS_GB", Isa::Ssse3, |_, _, _| {});
    }
}

/// Under Miri, `scripts/miri.sh` names the kernels that must have run.
fn common_expect(isas: impl Iterator<Item = Isa>, var: &str) {
    let got: Vec<&str> = isas.map(|i| i.name()).collect();
    assert_eq!(got[0], "scalar");
    if let Ok(want) = std::env::var(var) {
        if !want.is_empty() {
            assert_eq!(got.join(","), want, "{var}");
        }
    }
}

/// BP128, both layouts, every delta mode (Strict included) and plain, every
/// kernel: encode equals scalar's bytes, decode, select and lower_bound
/// (through the shared `check`, truncations included) on lengths around
/// one block. Under Miri (`scripts/miri.sh`) this is BP128's small-input
/// run: every raw load and store of the block and tail kernels.
#[test]
fn bp128_every_kernel() {
    use intcodec::bp128::{Bp128, DeltaMode, Layout as BpLayout};
    let lens: &[usize] = if cfg!(miri) {
        &[3, 131]
    } else {
        &[0, 1, 5, 127, 128, 129, 255, 256, 257, 300, 600]
    };
    for layout in [BpLayout::Lanes4, BpLayout::Lanes8] {
        for delta in [DeltaMode::D1, DeltaMode::Lane, DeltaMode::Strict] {
            let base = Bp128::new(layout).with_delta(delta);
            let ks: Vec<Bp128> = Isa::ALL
                .into_iter()
                .filter_map(|i| base.with_isa(i))
                .collect();
            common_expect(ks.iter().map(|k| k.isa()), "INTCODEC_EXPECT_KERNELS_BP128");
            // Strict codes strictly increasing values from `None` (u32::MAX).
            let prev = if delta == DeltaMode::Strict {
                u32::MAX
            } else {
                0
            };
            for &n in lens {
                // A list shorter than one block is all tail, and the tail
                // is D1 differences in every delta mode (mod.rs, "Array
                // format"): Lane's streams and calls are then D1's, byte
                // for byte (asserted below). Miri runs Lane only on lists
                // with a full block (the 131-value list of 4 lanes; no
                // 8-lane block at its lengths at all).
                if cfg!(miri) && delta == DeltaMode::Lane && n < layout.block_len() {
                    continue;
                }
                // Miri: the mixed-width list only (of three);
                // the wide- and narrow-gap lists run in the native suite.
                let skip = usize::from(cfg!(miri));
                let take = if cfg!(miri) { 1 } else { 3 };
                for mut vals in lists(n).into_iter().skip(skip).take(take) {
                    // `lists` wraps past u32::MAX on long lists: sort (BP128
                    // binary-searches inside a block).
                    vals.sort_unstable();
                    if delta == DeltaMode::Strict {
                        vals.dedup();
                    }
                    let n = vals.len();
                    let bytes = ks[0].encode_delta_to_vec(&vals, prev);
                    let plain = ks[0].encode_to_vec(&vals);
                    if delta == DeltaMode::Lane && n < layout.block_len() {
                        let d1 = Bp128::new(layout).with_delta(DeltaMode::D1);
                        assert_eq!(bytes, d1.encode_delta_to_vec(&vals, prev), "tail only");
                    }
                    for k in &ks {
                        assert_eq!(k.encode_delta_to_vec(&vals, prev), bytes, "{k:?}");
                        assert_eq!(k.encode_to_vec(&vals), plain, "{k:?}");
                        assert_eq!(k.decode_delta_to_vec(&bytes, n, prev), Ok(vals.clone()));
                        assert_eq!(k.decode_to_vec(&plain, n), Ok(vals.clone()));
                    }
                    check(&vals, &bytes, &ks, prev);
                }
            }
        }
    }
}
