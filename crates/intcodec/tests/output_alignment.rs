//! Delta decoding into outputs at every 4-byte offset from a 64-byte
//! boundary, every kernel, against the values: the AVX-512 delta decoders
//! of Stream VByte and VarInt-GB pick how they carry the running total by
//! the output's alignment under `Tuning::Zen` (`codec::x86::running16`),
//! so both ways must give the same values. Lists long enough for the
//! dense one-byte path (Stream VByte, 256+ values) and the windows
//! (VarInt-GB, 512+), plus a tail of 3 values past the last block.

use intcodec::streamvbyte::{StreamVByte, Variant};
use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::{IntCodec, KernelChoice};
use intcodec_testkit::{running_sums, SplitMix64};

/// Sorted values from `first`: one-byte gaps, or gaps of up to 2^14.
fn sorted(n: usize, wide: bool, first: u32) -> Vec<u32> {
    let mut rng = SplitMix64::new(n as u64);
    let gaps: Vec<u32> = (0..n)
        .map(|_| rng.below(if wide { 1 << 14 } else { 1 << 7 }) as u32)
        .collect();
    running_sums(first, &gaps)
}

fn check(name: &str, codec: &dyn IntCodec) {
    for (n, wide) in [(1027, false), (1027, true), (4099, true)] {
        let prev = 5;
        let values = sorted(n, wide, prev);
        let enc = codec.encode_opt_to_vec(&values, Some(prev));
        let mut buf = vec![0u32; n + 32];
        let skip = buf.as_ptr().align_offset(64);
        for off in 0..16 {
            let out = &mut buf[skip + off..skip + off + n];
            out.fill(0);
            let used = codec
                .decode_opt(&enc, n, Some(prev), out)
                .unwrap_or_else(|e| panic!("{name} n={n} offset {}: {e}", 4 * off));
            assert_eq!(used, enc.len(), "{name} n={n} offset {}", 4 * off);
            assert!(
                out == values.as_slice(),
                "{name} n={n} wide={wide}: wrong values at output offset {} bytes",
                4 * off
            );
        }
    }
}

#[test]
fn delta_decode_at_every_output_offset() {
    for variant in [Variant::V1234, Variant::V0124] {
        for c in StreamVByte::new().with_variant(variant).all_kernels() {
            check(&format!("{c:?}"), &c);
        }
    }
    for layout in [Layout::LowFirst, Layout::Lucene] {
        for c in VarIntGb::new().with_layout(layout).all_kernels() {
            check(&format!("{c:?}"), &c);
        }
    }
}
