//! Block-level A/B of BP128 against `bitpacking` on the same bytes:
//! `decompress_block` (None / D1 / Lane) vs `BitPacker4x::decompress` /
//! `decompress_sorted`, 4096 blocks of 128 values per width, medians of 9.
//!
//! `cargo run --release -p intcodec-bench --example bp_ab [WIDTHS...]`

use bitpacking::{BitPacker, BitPacker4x};
use intcodec::bp128::{Bp128, Delta, Layout};
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

fn main() {
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
            let mut acc = 0u32;
            let sorted: Vec<u32> = vals
                .iter()
                .map(|&d| {
                    acc = acc.wrapping_add(d);
                    acc
                })
                .collect();
            let r = j * len..(j + 1) * len;
            ours.compress_block(&vals, &mut packed_p[r.clone()], b, Delta::None, 0)
                .unwrap();
            ours.compress_block(&sorted, &mut packed_s[r.clone()], b, Delta::D1, 0)
                .unwrap();
            let lb = ours.num_bits(&sorted, Delta::Lane, 0);
            assert!(lb <= b + 2);
            let mut tmp = vec![0u8; 16 * lb as usize];
            ours.compress_block(&sorted, &mut tmp, lb, Delta::Lane, 0)
                .unwrap();
            packed_l[r.clone()][..tmp.len().min(len)].copy_from_slice(&tmp[..tmp.len().min(len)]);
        }
        let mut out = [0u32; 128];
        let t_op = time(|| {
            let mut h = 0;
            for c in packed_p.chunks_exact(len.max(1)).take(blocks) {
                ours.decompress_block(c, &mut out, b, Delta::None, 0)
                    .unwrap();
                h += u64::from(out[127]);
            }
            h
        });
        let t_tp = time(|| {
            let mut h = 0;
            for c in packed_p.chunks_exact(len.max(1)).take(blocks) {
                theirs.decompress(c, &mut out, b);
                h += u64::from(out[127]);
            }
            h
        });
        let t_os = time(|| {
            let mut h = 0;
            for c in packed_s.chunks_exact(len.max(1)).take(blocks) {
                ours.decompress_block(c, &mut out, b, Delta::D1, 7).unwrap();
                h += u64::from(out[127]);
            }
            h
        });
        let t_ts = time(|| {
            let mut h = 0;
            for c in packed_s.chunks_exact(len.max(1)).take(blocks) {
                theirs.decompress_sorted(7, c, &mut out, b);
                h += u64::from(out[127]);
            }
            h
        });
        let t_ol = time(|| {
            let mut h = 0;
            for c in packed_l.chunks_exact(len.max(1)).take(blocks) {
                ours.decompress_block(c, &mut out, b, Delta::Lane, 7)
                    .unwrap();
                h += u64::from(out[127]);
            }
            h
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
