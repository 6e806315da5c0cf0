//! Block-level A/B of BP128 against `bitpacking` on the same bytes:
//! `decompress_block` (None / D1 / Lane) vs `BitPacker4x::decompress` /
//! `decompress_sorted`, 4096 blocks of 128 values per width, medians of 9.
//!
//! `cargo run --release -p intcodec-bench --example bp_ab [WIDTHS...]`
//!
//! `bp_ab arrays [WIDTHS...]`: the keys suite's unit instead, whole arrays
//! of 256 sorted ints (gaps < 2^b) through the checked array API
//! (`Bp128::decode`, D1 and lane delta) against the `bitpacking` peer in the
//! same array format (`decompress_sorted`), plus the two blocks through
//! `decompress_block` (the kernel alone) to show the per-call overhead.

use bitpacking::{BitPacker, BitPacker4x};
use intcodec::bp128::{Bp128, DeltaMode, Layout};
use intcodec::IntCodec;
use std::hint::black_box;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn time(mut f: impl FnMut() -> u64) -> f64 {
    let mut t = Vec::new();
    for _ in 0..9 {
        let s = Instant::now();
        let mut h = 0;
        for _ in 0..20 {
            h ^= f();
        }
        black_box(h);
        t.push(s.elapsed().as_secs_f64() / 20.0);
    }
    median(t)
}

/// Times `unpack` over the first `blocks` blocks of `packed` (`len` bytes
/// each) into `out`.
fn unpack_all(
    packed: &[u8],
    len: usize,
    blocks: usize,
    out: &mut [u32; 128],
    mut unpack: impl FnMut(&[u8], &mut [u32; 128]),
) -> f64 {
    time(|| {
        let mut h = 0;
        for c in packed.chunks_exact(len.max(1)).take(blocks) {
            unpack(c, out);
            h += u64::from(out[127]);
        }
        h
    })
}

/// Whole 256-int arrays (the keys suite's unit), per b.
fn arrays(widths: &[u8]) {
    use intcodec::bp128::SortedArray;
    use intcodec_bench::suites::keys;
    let bp = Bp128::new(Layout::Lanes4);
    let peer =
        intcodec_bench::peers::bitpacking::four(intcodec_bench::contenders::bp128::FAMILY_4X);
    println!("   b  d1/peer  d4/peer  blk-d1/peer  blk-d4/peer   (Gints/s: d1 d4 peer)");
    let (mut r1, mut r4) = (Vec::new(), Vec::new());
    for &b in widths {
        let data = keys::arrays(u32::from(b), 512, 1);
        let d1: Vec<SortedArray> = data.iter().map(|a| SortedArray::new(bp, a)).collect();
        let d4: Vec<SortedArray> = data
            .iter()
            .map(|a| SortedArray::new(bp.with_delta(DeltaMode::Lane), a))
            .collect();
        let pb: Vec<Vec<u8>> = data
            .iter()
            .map(|a| {
                let mut out = vec![0u8; 2 + 4 * 256];
                let n = peer.enc(a, Some(0), &mut out);
                out.truncate(n);
                out
            })
            .collect();
        let mut buf = [0u32; 256];
        let mut arr = |v: &[SortedArray], d: DeltaMode| {
            time(|| {
                let mut h = 0;
                for a in v {
                    bp.with_delta(d)
                        .decode_delta(a.as_bytes(), 256, 0, &mut buf)
                        .unwrap();
                    h += u64::from(buf[255]);
                }
                h
            })
        };
        let t1 = arr(&d1, DeltaMode::D1);
        let t4 = arr(&d4, DeltaMode::Lane);
        let mut blk = |v: &[SortedArray], d: DeltaMode| {
            let bp = bp.with_delta(d);
            time(|| {
                let mut h = 0;
                for a in v {
                    let x = a.as_bytes();
                    let (w0, w1) = (x[0], x[1]);
                    let n0 = bp.decompress_block_delta(&x[2..], 0, &mut buf, w0).unwrap();
                    let prev = if d == DeltaMode::D1 { buf[127] } else { 0 };
                    bp.decompress_block_delta(&x[2 + n0..], prev, &mut buf[128..], w1)
                        .unwrap();
                    h += u64::from(buf[255]);
                }
                h
            })
        };
        let b1 = blk(&d1, DeltaMode::D1);
        let b4 = blk(&d4, DeltaMode::Lane);
        let tp = time(|| {
            let mut h = 0;
            for a in &pb {
                peer.dec(a, Some(0), &mut buf).unwrap();
                h += u64::from(buf[255]);
            }
            h
        });
        let n = (512 * 256) as f64;
        r1.push(tp / t1);
        r4.push(tp / t4);
        println!(
            "{b:4}  {:>6.2}x  {:>6.2}x  {:>10.2}x  {:>10.2}x   ({:.2} {:.2} {:.2})",
            tp / t1,
            tp / t4,
            tp / b1,
            tp / b4,
            n / t1 / 1e9,
            n / t4 / 1e9,
            n / tp / 1e9
        );
    }
    println!(
        "median d1/peer {:.2}x, d4/peer {:.2}x",
        median(r1),
        median(r4)
    );
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("arrays") {
        let w: Vec<u8> = std::env::args()
            .skip(2)
            .map(|a| a.parse().expect("width"))
            .collect();
        let w = if w.is_empty() { (1..=24).collect() } else { w };
        arrays(&w);
        return;
    }
    let widths: Vec<u8> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("width"))
        .collect();
    let widths = if widths.is_empty() {
        vec![1, 4, 8, 12, 16, 20, 24]
    } else {
        widths
    };
    let (ours, theirs) = (Bp128::new(Layout::Lanes4), BitPacker4x::new());
    let lane = ours.with_delta(DeltaMode::Lane);
    let blocks = 4096;
    println!("width  plain ours/theirs  sorted(D1) ours/theirs  lane(d4) ours/theirs-sorted   (Gints/s ours)");
    for b in widths {
        let mut seed = 0x0123_4567_89AB_CDEF_u64 ^ u64::from(b);
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u32
        };
        let mask = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        let mut packed_p = vec![0u8; blocks * 16 * b as usize];
        let mut packed_s = packed_p.clone();
        let mut packed_l = packed_p.clone();
        let len = 16 * b as usize;
        for j in 0..blocks {
            let vals: Vec<u32> = (0..128).map(|_| next() & mask).collect();
            let sorted = intcodec_testkit::running_sums(0, &vals);
            let r = j * len..(j + 1) * len;
            ours.compress_block(&vals, &mut packed_p[r.clone()], b)
                .unwrap();
            ours.compress_block_delta(&sorted, 0, &mut packed_s[r.clone()], b)
                .unwrap();
            let lb = lane.num_bits_delta(&sorted, 0);
            assert!(lb <= b + 2);
            let mut tmp = vec![0u8; 16 * lb as usize];
            lane.compress_block_delta(&sorted, 0, &mut tmp, lb).unwrap();
            packed_l[r.clone()][..tmp.len().min(len)].copy_from_slice(&tmp[..tmp.len().min(len)]);
        }
        let mut out = [0u32; 128];
        let t_op = unpack_all(&packed_p, len, blocks, &mut out, |c, o| {
            ours.decompress_block(c, o, b).unwrap();
        });
        let t_tp = unpack_all(&packed_p, len, blocks, &mut out, |c, o| {
            theirs.decompress(c, o, b);
        });
        let t_os = unpack_all(&packed_s, len, blocks, &mut out, |c, o| {
            ours.decompress_block_delta(c, 7, o, b).unwrap();
        });
        let t_ts = unpack_all(&packed_s, len, blocks, &mut out, |c, o| {
            theirs.decompress_sorted(7, c, o, b);
        });
        let t_ol = unpack_all(&packed_l, len, blocks, &mut out, |c, o| {
            lane.decompress_block_delta(c, 7, o, b).unwrap();
        });
        let n = (blocks * 128) as f64;
        println!(
            "{b:5}  {:>6.2}x               {:>6.2}x                {:>6.2}x                  ({:.2} / {:.2} / {:.2})",
            t_tp / t_op,
            t_ts / t_os,
            t_ts / t_ol,
            n / t_op / 1e9,
            n / t_os / 1e9,
            n / t_ol / 1e9
        );
    }
}
