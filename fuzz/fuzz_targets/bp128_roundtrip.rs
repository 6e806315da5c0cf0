//! BP128 / FOR / SIMD-FOR encode -> decode on arbitrary values, and the
//! operations against a `Vec` model. BP128: both layouts, the three delta
//! modes, every kernel writes scalar's bytes into an exact-size buffer
//! (`OutputTooSmall` one byte short), decodes back, and each 128/256-value
//! block through the block API (`compress_block` / `decompress_block`) too.
//! FOR / SIMD-FOR: every kernel writes the same bytes and decodes back.
//! Then `insert` of a value, `select` and `lower_bound` on sorted values.
//!
//! Input: byte 0 flags (bit 0 8x layout, bits 1-2 delta mode, bits 3-4 value
//! shape, see `values_from`), bytes 1-4 `initial`, byte 5 the value to
//! insert (scaled), then the values, 4 bytes each.
#![no_main]

use intcodec::bp128::{Delta, SortedArray};
use intcodec::frame_of_reference::{for_decode_to_vec, for_encode_to_vec, ForArray, SimdForArray};
use intcodec::EncodeError;
use intcodec_fuzz::{bp128, values_from, Reader};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut r = Reader::new(data);
    let flags = r.u8();
    let initial = r.u32();
    let ins = u32::from(r.u8()).wrapping_mul(0x0101_0101);
    let values = values_from(r.rest(), flags >> 3);
    let n = values.len();
    let layout = bp128::layout(flags & 1 != 0);
    let delta = match (flags >> 1) & 3 {
        0 => Delta::None,
        1 | 3 => Delta::D1,
        _ => Delta::Lane,
    };
    let kernels = bp128::kernels(layout);
    let want = kernels[0].encode_to_vec(&values, delta, initial);
    for k in kernels {
        let len = k.compressed_len(&values, delta, initial);
        assert_eq!(len, want.len());
        let mut out = vec![0u8; len];
        assert_eq!(
            k.encode(&values, delta, initial, &mut out),
            Ok(len),
            "{k:?}"
        );
        assert!(out == want, "{k:?} bytes differ from scalar");
        if len > 0 {
            let mut short = vec![0u8; len - 1];
            let e = k.encode(&values, delta, initial, &mut short);
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
        assert_eq!(k.decode(&want, n, delta, initial, &mut back), Ok(len));
        assert!(back == values, "{k:?} decoded values");
        // The block API on each full block (from `initial`).
        let bl = k.block_len();
        for block in values.chunks_exact(bl) {
            let bits = k.num_bits(block, delta, initial);
            let mut packed = vec![0u8; layout.block_bytes(bits)];
            let w = k.compress_block(block, &mut packed, bits, delta, initial);
            assert_eq!(w, Ok(packed.len()));
            if bits > 0 {
                let e = k.compress_block(block, &mut packed, bits - 1, delta, initial);
                assert!(matches!(e, Err(EncodeError::BitWidthTooSmall { .. })));
            }
            let mut vals = vec![0u32; bl];
            assert_eq!(
                k.decompress_block(&packed, &mut vals, bits, delta, initial),
                Ok(packed.len())
            );
            assert!(vals == block);
        }
    }
    // FOR and SIMD-FOR.
    let f = for_encode_to_vec(&values);
    assert!(for_decode_to_vec(&f, n).expect("round trip") == values);
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
    let mut a = SortedArray::new(kernels[kernels.len() - 1], delta, &sorted);
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
