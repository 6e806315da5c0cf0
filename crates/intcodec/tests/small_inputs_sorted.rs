//! Select, seek and insert of Stream VByte, VByte, VarInt-GB and BP128 on small
//! inputs, every kernel, against the decoded values and scalar: sized for
//! Miri (`scripts/miri.sh`), which checks every raw load of the SIMD seek
//! kernels; it also runs in the ordinary test suite. Covers intact streams
//! of lengths through every tail (single groups, four-group steps, zero
//! blocks, the end-of-data windows), every truncation point, and the
//! `SvbVec` append path.

use intcodec::sorted::SvbVec;
use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::vbyte::VByte;
use intcodec::SortedSet;
use intcodec::{DecodeError, Isa};
use intcodec::{IntCodec, KernelChoice, SortedCodec};

type Sel<'a> = dyn Fn(&[u8], usize, usize) -> Result<Option<u32>, DecodeError> + 'a;
type Seek<'a> = dyn Fn(&[u8], usize, u32) -> Result<Option<(usize, u32)>, DecodeError> + 'a;

/// Sorted lists: one-byte gaps (zero blocks), mixed widths, wide gaps.
fn lists(n: usize) -> Vec<Vec<u32>> {
    let mut s = (n as u32).wrapping_mul(2654435761) | 1;
    let mut r = move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
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

/// Every kernel's select and seek on `bytes` (intact, then each prefix)
/// equals scalar's; on the intact stream, the values.
fn check(vals: &[u32], bytes: &[u8], sels: &[&Sel<'_>], seeks: &[&Seek<'_>]) {
    let n = vals.len();
    for s in sels {
        for i in (0..=n).step_by(step(1)) {
            assert_eq!(s(bytes, n, i), Ok(vals.get(i).copied()));
        }
    }
    for k in seeks {
        for (j, &t) in vals.iter().enumerate().step_by(step(3)) {
            let want = vals.iter().position(|&v| v >= t).map(|p| (p, vals[p]));
            assert_eq!(k(bytes, n, t), Ok(want), "{j}");
        }
    }
    for cut in (0..=bytes.len()).step_by(step(5)) {
        let b = &bytes[..cut];
        for i in (0..n).step_by(step(7)) {
            let want = sels[0](b, n, i);
            for s in &sels[1..] {
                assert_eq!(s(b, n, i), want, "cut {cut} i {i}");
            }
        }
        for &t in vals.iter().step_by(step(9)).chain([u32::MAX].iter()) {
            let want = seeks[0](b, n, t);
            for s in &seeks[1..] {
                assert_eq!(s(b, n, t), want, "cut {cut} t {t}");
            }
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
        let ks: Vec<StreamVByte> = Isa::ALL
            .into_iter()
            .filter_map(|i| StreamVByte::new().with_variant(variant).with_isa(i))
            .collect();
        common_expect(ks.iter().map(|k| k.isa()), "INTCODEC_EXPECT_KERNELS");
        for &n in lengths() {
            for vals in lists(n) {
                let bytes = ks[0].encode_delta_to_vec(&vals, 0);
                let sels: Vec<Box<Sel<'_>>> = ks
                    .iter()
                    .map(|k| Box::new(move |b: &[u8], n, i| k.select(b, n, 0, i)) as Box<Sel<'_>>)
                    .collect();
                let seeks: Vec<Box<Seek<'_>>> = ks
                    .iter()
                    .map(|k| {
                        Box::new(move |b: &[u8], n, t| k.lower_bound(b, n, 0, t)) as Box<Seek<'_>>
                    })
                    .collect();
                let sr: Vec<&Sel<'_>> = sels.iter().map(|b| &**b).collect();
                let kr: Vec<&Seek<'_>> = seeks.iter().map(|b| &**b).collect();
                check(&vals, &bytes, &sr, &kr);
                // Plain select on the same values.
                let plain = ks[0].encode_to_vec(&vals);
                for k in &ks {
                    for i in 0..=n {
                        assert_eq!(k.select_plain(&plain, n, i), Ok(vals.get(i).copied()));
                    }
                }
                // Append.
                for &k in &ks {
                    let mut v = SvbVec::new_delta(k, 0);
                    v.extend(vals.iter().copied());
                    assert_eq!(v.to_vec(), vals);
                    assert_eq!(v.as_bytes(), &bytes[..]);
                }
            }
        }
    }
}

#[test]
fn vbyte_and_group_varint_every_kernel() {
    let vb: Vec<VByte> = Isa::ALL
        .into_iter()
        .filter_map(|isa| VByte::new().with_isa(isa))
        .collect();
    common_expect(vb.iter().map(|k| k.isa()), "INTCODEC_EXPECT_KERNELS_VBYTE");
    for &n in lengths() {
        for vals in lists(n) {
            let bytes = vb[0].encode_delta_to_vec(&vals, 0);
            let sels: Vec<Box<Sel<'_>>> = vb
                .iter()
                .map(|k| Box::new(move |b: &[u8], n, i| k.select(b, n, 0, i)) as Box<Sel<'_>>)
                .collect();
            let seeks: Vec<Box<Seek<'_>>> = vb
                .iter()
                .map(|k| Box::new(move |b: &[u8], n, t| k.lower_bound(b, n, 0, t)) as Box<Seek<'_>>)
                .collect();
            let sr: Vec<&Sel<'_>> = sels.iter().map(|b| &**b).collect();
            let kr: Vec<&Seek<'_>> = seeks.iter().map(|b| &**b).collect();
            check(&vals, &bytes, &sr, &kr);
        }
    }
    for layout in [Layout::LowFirst, Layout::Lucene] {
        let gb: Vec<VarIntGb> = Isa::ALL
            .into_iter()
            .filter_map(|i| VarIntGb::new().with_layout(layout).with_isa(i))
            .collect();
        common_expect(gb.iter().map(|k| k.isa()), "INTCODEC_EXPECT_KERNELS_GB");
        for &n in lengths() {
            for vals in lists(n) {
                let bytes = gb[0].encode_delta_to_vec(&vals, 0);
                let sels: Vec<Box<Sel<'_>>> = gb
                    .iter()
                    .map(|k| Box::new(move |b: &[u8], n, i| k.select(b, n, 0, i)) as Box<Sel<'_>>)
                    .collect();
                let seeks: Vec<Box<Seek<'_>>> = gb
                    .iter()
                    .map(|k| {
                        Box::new(move |b: &[u8], n, t| k.lower_bound(b, n, 0, t)) as Box<Seek<'_>>
                    })
                    .collect();
                let sr: Vec<&Sel<'_>> = sels.iter().map(|b| &**b).collect();
                let kr: Vec<&Seek<'_>> = seeks.iter().map(|b| &**b).collect();
                check(&vals, &bytes, &sr, &kr);
            }
        }
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
                for mut vals in lists(n) {
                    // `lists` wraps past u32::MAX on long lists: sort (BP128
                    // binary-searches inside a block).
                    vals.sort_unstable();
                    if delta == DeltaMode::Strict {
                        vals.dedup();
                    }
                    let n = vals.len();
                    let bytes = ks[0].encode_delta_to_vec(&vals, prev);
                    let plain = ks[0].encode_to_vec(&vals);
                    for k in &ks {
                        assert_eq!(k.encode_delta_to_vec(&vals, prev), bytes, "{k:?}");
                        assert_eq!(k.encode_to_vec(&vals), plain, "{k:?}");
                        assert_eq!(k.decode_delta_to_vec(&bytes, n, prev), Ok(vals.clone()));
                        assert_eq!(k.decode_to_vec(&plain, n), Ok(vals.clone()));
                    }
                    let sels: Vec<Box<Sel<'_>>> = ks
                        .iter()
                        .map(|k| {
                            Box::new(move |b: &[u8], n, i| k.select(b, n, prev, i)) as Box<Sel<'_>>
                        })
                        .collect();
                    let seeks: Vec<Box<Seek<'_>>> = ks
                        .iter()
                        .map(|k| {
                            Box::new(move |b: &[u8], n, t| k.lower_bound(b, n, prev, t))
                                as Box<Seek<'_>>
                        })
                        .collect();
                    let sr: Vec<&Sel<'_>> = sels.iter().map(|b| &**b).collect();
                    let kr: Vec<&Seek<'_>> = seeks.iter().map(|b| &**b).collect();
                    check(&vals, &bytes, &sr, &kr);
                }
            }
        }
    }
}
