//! intcodec's BP128 blocks against the `bitpacking` crate (BitPacker4x and
//! BitPacker8x), both directions, every kernel: `compress` /
//! `decompress`, `compress_sorted` / `decompress_sorted` (our
//! `DeltaMode::D1`) and `compress_strictly_sorted` /
//! `decompress_strictly_sorted` (our `DeltaMode::Strict`, the crate's
//! `None` initial being `prev = u32::MAX`), on random blocks of every bit width and on every block of
//! every posting list in ../shared/data/postings.

use bitpacking::{BitPacker, BitPacker4x, BitPacker8x};
use intcodec::bp128::{Bp128, DeltaMode, Layout};
use intcodec::{IntCodec, Isa, KernelChoice};
use intcodec_oracles::harness::{every_kernel, list_step, posting_files};
use intcodec_testkit::SplitMix64;

fn kernels(layout: Layout) -> Vec<Bp128> {
    every_kernel(Bp128::new(layout))
}

/// How a block is coded: `compress`, `compress_sorted(initial)` (our D1)
/// or `compress_strictly_sorted(initial)` (our `Strict`, `None` being our
/// `prev = u32::MAX`).
#[derive(Clone, Copy, Debug)]
enum Kind {
    Plain,
    Sorted(u32),
    Strict(Option<u32>),
}

impl Kind {
    /// Our handle for this kind and the `prev` it takes.
    fn ours(self, k: Bp128) -> (Bp128, u32) {
        match self {
            Kind::Plain | Kind::Sorted(_) => (k.with_delta(DeltaMode::D1), self.prev()),
            Kind::Strict(_) => (k.with_delta(DeltaMode::Strict), self.prev()),
        }
    }

    fn prev(self) -> u32 {
        match self {
            Kind::Plain => 0,
            Kind::Sorted(p) => p,
            Kind::Strict(p) => p.unwrap_or(u32::MAX),
        }
    }
}

fn their_bits<P: BitPacker>(p: &P, kind: Kind, block: &[u32]) -> u8 {
    match kind {
        Kind::Plain => p.num_bits(block),
        Kind::Sorted(i) => p.num_bits_sorted(i, block),
        Kind::Strict(i) => p.num_bits_strictly_sorted(i, block),
    }
}

fn their_compress<P: BitPacker>(p: &P, kind: Kind, block: &[u32], out: &mut [u8], b: u8) -> usize {
    match kind {
        Kind::Plain => p.compress(block, out, b),
        Kind::Sorted(i) => p.compress_sorted(i, block, out, b),
        Kind::Strict(i) => p.compress_strictly_sorted(i, block, out, b),
    }
}

fn their_decompress<P: BitPacker>(p: &P, kind: Kind, input: &[u8], out: &mut [u32], b: u8) {
    match kind {
        Kind::Plain => p.decompress(input, out, b),
        Kind::Sorted(i) => p.decompress_sorted(i, input, out, b),
        Kind::Strict(i) => p.decompress_strictly_sorted(i, input, out, b),
    };
}

/// One block, both directions, plain, sorted and strictly sorted, against
/// `theirs`.
fn check_block<P: BitPacker>(theirs: &P, ours: &[Bp128], block: &[u32], initial: u32, ctx: &str) {
    let kinds = [
        Kind::Plain,
        Kind::Sorted(initial),
        Kind::Strict(Some(initial)),
        Kind::Strict(None),
    ];
    for kind in kinds {
        check_kind(theirs, ours, block, kind, ctx);
    }
}

fn check_kind<P: BitPacker>(theirs: &P, ours: &[Bp128], block: &[u32], kind: Kind, ctx: &str) {
    let bl = P::BLOCK_LEN;
    let mut tbuf = vec![0u8; 4 * bl + 32];
    let mut obuf = vec![0u8; 4 * bl];
    let mut vals = vec![0u32; bl];
    let plain = matches!(kind, Kind::Plain);
    let bits = their_bits(theirs, kind, block);
    let tlen = their_compress(theirs, kind, block, &mut tbuf, bits);
    for k in ours {
        let (k, prev) = kind.ours(*k);
        let c = format!("{ctx} {kind:?} b={bits} {k:?}");
        let ob = if plain {
            k.num_bits(block)
        } else {
            k.num_bits_delta(block, prev)
        };
        assert_eq!(ob, bits, "num_bits {c}");
        let olen = if plain {
            k.compress_block(block, &mut obuf, bits)
        } else {
            k.compress_block_delta(block, prev, &mut obuf, bits)
        };
        let olen = olen.unwrap();
        assert_eq!(olen, tlen, "len {c}");
        assert_eq!(&obuf[..olen], &tbuf[..tlen], "bytes {c}");
        // ours decodes theirs
        vals.fill(0);
        let used = if plain {
            k.decompress_block(&tbuf[..tlen], &mut vals, bits)
        } else {
            k.decompress_block_delta(&tbuf[..tlen], prev, &mut vals, bits)
        };
        assert_eq!(used, Ok(tlen));
        assert_eq!(vals, block, "decode {c}");
    }
    // theirs decodes ours (the last kernel's bytes; all are equal)
    vals.fill(0);
    their_decompress(theirs, kind, &obuf[..tlen], &mut vals, bits);
    assert_eq!(vals, block, "their decode of ours {ctx} {kind:?}");
}

fn random_blocks(bl: usize) -> Vec<(Vec<u32>, u32)> {
    let mut rng = SplitMix64::new(0x0BAD_5EED_0000_0042);
    let mut out = Vec::new();
    for bits in 0..=32u32 {
        for _ in 0..4 {
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1u32 << bits) - 1
            };
            out.push((
                (0..bl).map(|_| rng.next_u32() & mask).collect(),
                rng.next_u32(),
            ));
            // sorted, deltas of at most `bits` bits
            let mut acc = rng.next_u32() >> 8;
            let init = acc;
            let sorted = (0..bl)
                .map(|_| {
                    acc = acc.wrapping_add(rng.next_u32() & mask);
                    acc
                })
                .collect();
            out.push((sorted, init));
            // strictly sorted, gaps minus one of at most `bits` bits
            let mut acc = rng.next_u32() >> 8;
            let init = acc;
            let strict = (0..bl)
                .map(|_| {
                    acc = acc.wrapping_add(rng.next_u32() & mask).wrapping_add(1);
                    acc
                })
                .collect();
            out.push((strict, init));
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
    let (t4, t8) = (BitPacker4x::new(), BitPacker8x::new());
    let (o4, o8) = (kernels(Layout::Lanes4), kernels(Layout::Lanes8));
    let mut blocks = 0;
    let files = posting_files(test, list_step(test));
    for file in &files {
        let name = file.name;
        for list in file.lists.iter().chain([&file.long]) {
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
    assert!(
        files.is_empty() || blocks > 1000,
        "real data checked ({blocks} blocks)"
    );
}

/// Whole arrays against a caller chaining `bitpacking` block by block (each
/// block from the previous one's last value): 33 full blocks whose deltas
/// (D1, or strict: D1 minus one) take every width 0..=32 in a scrambled
/// order, plus a tail. Our array's blocks are their `compress_sorted` /
/// `compress_strictly_sorted` bytes back to back; every kernel's array
/// decode (one call for all blocks, the running value carried in a
/// register) reproduces the values; their decoder decodes our blocks. Plain
/// arrays the same way.
fn check_arrays<P: BitPacker>(theirs: &P, layout: Layout) {
    let bl = P::BLOCK_LEN;
    let mut rng = SplitMix64::new(0x0A11_A7E5_0000_0006 ^ bl as u64);
    let widths: Vec<u32> = (0..33u32).map(|j| (j * 7 + 3) % 33).collect();
    // The kind of block `j` from `init` (the strict array starts from the
    // crate's `None`).
    let kinds: [fn(usize, u32) -> Kind; 3] = [
        |_, i| Kind::Sorted(i),
        |j, i| Kind::Strict((j > 0).then_some(i)),
        |_, _| Kind::Plain,
    ];
    for kind_at in kinds {
        let initial = match kind_at(0, 0) {
            Kind::Strict(_) => u32::MAX,
            _ => rng.next_u32(),
        };
        let step = u32::from(matches!(kind_at(0, 0), Kind::Strict(_)));
        let plain = matches!(kind_at(0, 0), Kind::Plain);
        let mut acc = initial;
        let mut values = Vec::new();
        for &w in &widths {
            let mask = if w == 32 { u32::MAX } else { (1u32 << w) - 1 };
            let block: Vec<u32> = (0..bl)
                .map(|_| {
                    let d = rng.next_u32() & mask;
                    acc = acc.wrapping_add(d).wrapping_add(step);
                    if plain {
                        d
                    } else {
                        acc
                    }
                })
                .collect();
            values.extend(block);
        }
        values.extend((0..7).map(|_| rng.next_u32() >> 3));
        let scalar = Bp128::new(layout).with_isa(Isa::Scalar).unwrap();
        let (sc, _) = kind_at(0, initial).ours(scalar);
        let ours = if plain {
            sc.encode_to_vec(&values)
        } else {
            sc.encode_delta_to_vec(&values, initial)
        };
        let m = widths.len();
        // Their blocks, chained as the array format chains them.
        let mut pos = m;
        let mut init = initial;
        let mut buf = vec![0u8; 4 * bl];
        for (j, block) in values.chunks_exact(bl).enumerate() {
            let kind = kind_at(j, init);
            let bits = their_bits(theirs, kind, block);
            assert_eq!(ours[j], bits, "width of block {j} ({kind:?})");
            assert_eq!(bits, widths[j] as u8, "the test's widths ({kind:?})");
            let len = their_compress(theirs, kind, block, &mut buf, bits);
            assert_eq!(&ours[pos..pos + len], &buf[..len], "block {j} bytes");
            let mut back = vec![0u32; bl];
            their_decompress(theirs, kind, &ours[pos..pos + len], &mut back, bits);
            assert_eq!(back, block, "their decode of our block {j}");
            pos += len;
            init = block[bl - 1];
        }
        for k in kernels(layout) {
            let (k, _) = kind_at(0, initial).ours(k);
            let back = if plain {
                k.decode_to_vec(&ours, values.len())
            } else {
                k.decode_delta_to_vec(&ours, values.len(), initial)
            };
            assert_eq!(back, Ok(values.clone()), "{k:?}");
        }
    }
}

#[test]
fn arrays_of_every_width_both_layouts() {
    check_arrays(&BitPacker4x::new(), Layout::Lanes4);
    check_arrays(&BitPacker8x::new(), Layout::Lanes8);
}
