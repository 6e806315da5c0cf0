//! BP128 / FOR / SIMD-FOR encode -> decode on arbitrary values, and the
//! operations against a `Vec` model. BP128: every layout, plain and the
//! three delta modes, every kernel writes scalar's bytes into an exact-size buffer
//! (`OutputTooSmall` one byte short), decodes back, and each 128/256-value
//! block through the block API (`compress_block` / `decompress_block`) too.
//! FOR / SIMD-FOR: every kernel writes the same bytes and decodes back.
//! Then `insert` of a value, `select` and `lower_bound` on sorted values.
//!
//! Input: byte 0 flags (bit 0 8x layout, bits 1-2 none / D1 / lane / strict, bits 3-4 value
//! shape, see `values_from`, bit 5 16x layout), bytes 1-4 `initial`, byte 5 the value to
//! insert (scaled), then the values, 4 bytes each.
#![no_main]

use intcodec::bp128::DeltaMode;
use intcodec::frame_of_reference::{For, ForArray, SimdForArray};
use intcodec::{EncodeError, IntCodec, SortedSet};
use intcodec_fuzz::{bp128, values_from, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let flags = r.u8();
    let initial = r.u32();
    let ins = u32::from(r.u8()).wrapping_mul(0x0101_0101);
    let values = values_from(r.rest(), flags >> 3);
    let n = values.len();
    let layout = bp128::layout(flags & 1 != 0, flags & 0x20 != 0);
    let delta = match (flags >> 1) & 3 {
        0 => None,
        1 => Some(DeltaMode::D1),
        2 => Some(DeltaMode::Lane),
        _ => Some(DeltaMode::Strict),
    };
    let kernels = bp128::kernels(layout);
    // `prev` of the `_opt` calls: `None` plain (`encode`, `decode`).
    let from = delta.map(|_| initial);
    let want = bp128::in_mode(kernels[0], delta).encode_opt_to_vec(&values, from);
    for k in kernels {
        let kd = bp128::in_mode(*k, delta);
        let len = bp128::compressed_len(*k, &values, delta, initial);
        assert_eq!(len, want.len());
        let mut out = vec![0u8; len];
        assert_eq!(kd.encode_opt(&values, from, &mut out), Ok(len), "{k:?}");
        assert!(out == want, "{k:?} bytes differ from scalar");
        if len > 0 {
            let mut short = vec![0u8; len - 1];
            let e = kd.encode_opt(&values, from, &mut short);
            assert_eq!(
                e,
                Err(EncodeError::OutputTooSmall {
                    needed: len,
                    available: len - 1
                })
            );
        }
        assert_eq!(k.encoded_len(&want, n), Ok(len));
        let mut back = vec![0u32; n];
        assert_eq!(kd.decode_opt(&want, n, from, &mut back), Ok(len));
        assert!(back == values, "{k:?} decoded values");
        // The block API on each full block (from `initial`).
        let bl = k.block_len();
        for block in values.chunks_exact(bl) {
            let bits = match delta {
                None => k.num_bits(block),
                Some(_) => kd.num_bits_delta(block, initial),
            };
            let mut packed = vec![0u8; layout.block_bytes(bits)];
            let pack = |packed: &mut [u8], bits| match delta {
                None => k.compress_block(block, packed, bits),
                Some(_) => kd.compress_block_delta(block, initial, packed, bits),
            };
            assert_eq!(pack(&mut packed, bits), Ok(packed.len()));
            if bits > 0 {
                let e = pack(&mut packed, bits - 1);
                assert!(matches!(e, Err(EncodeError::BitWidthTooSmall { .. })));
            }
            let mut vals = vec![0u32; bl];
            let used = match delta {
                None => k.decompress_block(&packed, &mut vals, bits),
                Some(_) => kd.decompress_block_delta(&packed, initial, &mut vals, bits),
            };
            assert_eq!(used, Ok(packed.len()));
            assert!(vals == block);
        }
    }
    // FOR and SIMD-FOR.
    let f = For.encode_to_vec(&values);
    assert!(For.decode_to_vec(&f, n).expect("round trip") == values);
    let s0 = bp128::simd_for_kernels()[0].encode_to_vec(&values);
    for k in bp128::simd_for_kernels() {
        assert!(k.encode_to_vec(&values) == s0, "{k:?}");
        assert!(
            k.decode_to_vec(&s0, n).expect("round trip") == values,
            "{k:?}"
        );
    }
    // Operations on sorted values, against the model.
    if n > 2048 {
        return;
    }
    let mut sorted = values.clone();
    sorted.sort_unstable();
    let mut model = sorted.clone();
    let at = model.partition_point(|&x| x <= ins);
    model.insert(at, ins);
    let mut a = bp128::sorted_array(kernels[kernels.len() - 1], delta, &sorted);
    let mut fa = ForArray::new(&sorted);
    let mut sa = SimdForArray::new(&sorted);
    assert_eq!(
        (a.insert(ins), fa.insert(ins), sa.insert(ins)),
        (at, at, at)
    );
    for (i, &v) in model.iter().enumerate() {
        assert_eq!(
            (a.select(i), fa.select(i), sa.select(i)),
            (Some(v), Some(v), Some(v))
        );
    }
    for t in [0, ins, ins.wrapping_add(1), initial, u32::MAX] {
        let i = model.partition_point(|&v| v < t);
        let w = model.get(i).map(|&v| (i, v));
        assert_eq!(
            (a.lower_bound(t), fa.lower_bound(t), sa.lower_bound(t)),
            (w, w, w)
        );
    }
    assert_eq!((a.len(), fa.len(), sa.len()), (n + 1, n + 1, n + 1));
});
