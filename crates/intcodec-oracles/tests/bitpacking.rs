//! intcodec's BP128 blocks against the `bitpacking` crate (BitPacker4x and
//! BitPacker8x), both directions, every kernel: `compress` /
//! `decompress` and `compress_sorted` / `decompress_sorted` (our
//! `DeltaMode::D1`), on random blocks of every bit width and on every block of
//! every posting list in ../shared/data/postings.

use bitpacking::{BitPacker, BitPacker4x, BitPacker8x};
use intcodec::bp128::{Bp128, Layout};
use intcodec::{IntCodec, Isa, KernelChoice};
use intcodec_oracles::shared_data;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

fn kernels(layout: Layout) -> Vec<Bp128> {
    let ks: Vec<_> = Isa::ALL
        .into_iter()
        .filter_map(|isa| Bp128::new(layout).with_isa(isa))
        .collect();
    let enabled = Bp128::new(layout).kernel_isas().len();
    assert_eq!(ks.len(), enabled, "every enabled kernel");
    ks
}

/// One block, both directions, plain and sorted, against `theirs`.
fn check_block<P: BitPacker>(theirs: &P, ours: &[Bp128], block: &[u32], initial: u32, ctx: &str) {
    let bl = P::BLOCK_LEN;
    let mut tbuf = vec![0u8; 4 * bl + 32];
    let mut obuf = vec![0u8; 4 * bl];
    let mut vals = vec![0u32; bl];
    // `sorted`: `compress_sorted` against our D1 `*_delta` block methods.
    for (sorted, bits) in [
        (false, theirs.num_bits(block)),
        (true, theirs.num_bits_sorted(initial, block)),
    ] {
        let delta = if sorted { "D1" } else { "None" };
        let tlen = if sorted {
            theirs.compress_sorted(initial, block, &mut tbuf, bits)
        } else {
            theirs.compress(block, &mut tbuf, bits)
        };
        for k in ours {
            let c = format!("{ctx} {delta} b={bits} {k:?}");
            let ob = if sorted {
                k.num_bits_delta(block, initial)
            } else {
                k.num_bits(block)
            };
            assert_eq!(ob, bits, "num_bits {c}");
            let olen = if sorted {
                k.compress_block_delta(block, initial, &mut obuf, bits)
            } else {
                k.compress_block(block, &mut obuf, bits)
            };
            let olen = olen.unwrap();
            assert_eq!(olen, tlen, "len {c}");
            assert_eq!(&obuf[..olen], &tbuf[..tlen], "bytes {c}");
            // ours decodes theirs
            vals.fill(0);
            let used = if sorted {
                k.decompress_block_delta(&tbuf[..tlen], initial, &mut vals, bits)
            } else {
                k.decompress_block(&tbuf[..tlen], &mut vals, bits)
            };
            assert_eq!(used, Ok(tlen));
            assert_eq!(vals, block, "decode {c}");
        }
        // theirs decodes ours (the last kernel's bytes; all are equal)
        vals.fill(0);
        if sorted {
            theirs.decompress_sorted(initial, &obuf[..tlen], &mut vals, bits);
        } else {
            theirs.decompress(&obuf[..tlen], &mut vals, bits);
        }
        assert_eq!(vals, block, "their decode of ours {ctx} {delta}");
    }
}

fn random_blocks(bl: usize) -> Vec<(Vec<u32>, u32)> {
    let mut rng = Rng(0x0BAD_5EED_0000_0042);
    let mut out = Vec::new();
    for bits in 0..=32u32 {
        for _ in 0..4 {
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1u32 << bits) - 1
            };
            out.push(((0..bl).map(|_| rng.next() & mask).collect(), rng.next()));
            // sorted, deltas of at most `bits` bits
            let mut acc = rng.next() >> 8;
            let init = acc;
            let sorted = (0..bl)
                .map(|_| {
                    acc = acc.wrapping_add(rng.next() & mask);
                    acc
                })
                .collect();
            out.push((sorted, init));
        }
    }
    out
}

#[test]
fn bitpacker4x_random_every_width() {
    let (theirs, ours) = (BitPacker4x::new(), kernels(Layout::Lanes4));
    for (i, (block, init)) in random_blocks(128).iter().enumerate() {
        check_block(&theirs, &ours, block, *init, &format!("4x random #{i}"));
    }
}

#[test]
fn bitpacker8x_random_every_width() {
    let (theirs, ours) = (BitPacker8x::new(), kernels(Layout::Lanes8));
    for (i, (block, init)) in random_blocks(256).iter().enumerate() {
        check_block(&theirs, &ours, block, *init, &format!("8x random #{i}"));
    }
}

/// Every full block of every posting list (initial = the value before the
/// block, as a caller chaining `compress_sorted` does); every 16th list
/// under an `INTCODEC_ISA` cap.
#[test]
fn posting_lists_both_layouts() {
    let test = "bitpacking posting_lists_both_layouts";
    let Some(dir) = shared_data(test) else {
        return;
    };
    let step = if std::env::var_os("INTCODEC_ISA").is_some() {
        16
    } else {
        1
    };
    let (t4, t8) = (BitPacker4x::new(), BitPacker8x::new());
    let (o4, o8) = (kernels(Layout::Lanes4), kernels(Layout::Lanes8));
    let mut blocks = 0;
    for name in intcodec_testkit::shared::POSTINGS {
        let path = dir.join("postings").join(name);
        if !path.exists() {
            eprintln!("*** {test}: {} missing, skipped ***", path.display());
            continue;
        }
        let coll = intcodec_testkit::ds2i::read(&path).expect("valid .docs file");
        let long: Vec<u32> = coll.lists.iter().flatten().copied().collect();
        let mut lists: Vec<&[u32]> = coll.lists.iter().step_by(step).map(|l| &l[..]).collect();
        lists.push(&long);
        for list in lists {
            for (j, b) in list.chunks_exact(128).enumerate() {
                let init = if j == 0 { 0 } else { list[128 * j - 1] };
                check_block(&t4, &o4, b, init, name);
                blocks += 1;
            }
            for (j, b) in list.chunks_exact(256).enumerate() {
                let init = if j == 0 { 0 } else { list[256 * j - 1] };
                check_block(&t8, &o8, b, init, name);
            }
        }
    }
    assert!(blocks > 1000, "real data checked ({blocks} blocks)");
}

/// Whole arrays against a caller chaining `bitpacking` block by block (each
/// block from the previous one's last value): 33 full blocks whose D1
/// deltas take every width 0..=32 in a scrambled order, plus a tail. Our
/// array's blocks are their `compress_sorted` bytes back to back; every
/// kernel's array decode (one call for all blocks, the running value
/// carried in a register) reproduces the values; their
/// `decompress_sorted` decodes our blocks. Plain arrays the same way.
fn check_arrays<P: BitPacker>(theirs: &P, layout: Layout) {
    let bl = P::BLOCK_LEN;
    let mut rng = Rng(0x0A11_A7E5_0000_0006 ^ bl as u64);
    let widths: Vec<u32> = (0..33u32).map(|j| (j * 7 + 3) % 33).collect();
    for sorted in [true, false] {
        let initial = rng.next();
        let mut acc = initial;
        let mut values = Vec::new();
        for &w in &widths {
            let mask = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
            let block: Vec<u32> = (0..bl)
                .map(|_| {
                    let d = rng.next() & mask;
                    acc = acc.wrapping_add(d);
                    if sorted {
                        acc
                    } else {
                        d
                    }
                })
                .collect();
            values.extend(block);
        }
        values.extend((0..7).map(|_| rng.next() >> 3));
        let scalar = Bp128::new(layout).with_isa(Isa::Scalar).unwrap();
        let ours = if sorted {
            scalar.encode_delta_to_vec(&values, initial)
        } else {
            scalar.encode_to_vec(&values)
        };
        let m = widths.len();
        // Their blocks, chained as the array format chains them.
        let mut pos = m;
        let mut init = initial;
        let mut buf = vec![0u8; 4 * bl];
        for (j, block) in values.chunks_exact(bl).enumerate() {
            let bits = if sorted {
                theirs.num_bits_sorted(init, block)
            } else {
                theirs.num_bits(block)
            };
            assert_eq!(ours[j], bits, "width of block {j} (sorted {sorted})");
            let len = if sorted {
                theirs.compress_sorted(init, block, &mut buf, bits)
            } else {
                theirs.compress(block, &mut buf, bits)
            };
            assert_eq!(&ours[pos..pos + len], &buf[..len], "block {j} bytes");
            let mut back = vec![0u32; bl];
            if sorted {
                theirs.decompress_sorted(init, &ours[pos..pos + len], &mut back, bits);
            } else {
                theirs.decompress(&ours[pos..pos + len], &mut back, bits);
            }
            assert_eq!(back, block, "their decode of our block {j}");
            pos += len;
            init = block[bl - 1];
        }
        for k in kernels(layout) {
            let back = if sorted {
                k.decode_delta_to_vec(&ours, values.len(), initial)
            } else {
                k.decode_to_vec(&ours, values.len())
            };
            assert_eq!(back, Ok(values.clone()), "{k:?} sorted {sorted}");
        }
    }
}

#[test]
fn arrays_of_every_width_both_layouts() {
    check_arrays(&BitPacker4x::new(), Layout::Lanes4);
    check_arrays(&BitPacker8x::new(), Layout::Lanes8);
}
