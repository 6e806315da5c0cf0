//! A/B micro-benchmark of Stream VByte: each of our kernels against the C
//! peer on the same ints cut into lists of one length, interleaved, best of
//! many passes (robust on a busy machine). A development tool; `intcodec
//! bench` is the real benchmark.
//!
//! `cargo run --release -p intcodec-bench --example svb_ab -- OP LEN DATA`
//! with OP = encode | encode_delta | decode | decode_delta, LEN = the list
//! length (default 4096), DATA = 1byte | 1-2byte | mixed | gaps1 (sorted ids
//! with gaps 1..=16, for the delta ops; default gaps1).
use intcodec::streamvbyte::StreamVByte;
use intcodec::Isa;
use intcodec::{IntCodec, KernelChoice};
use intcodec_bench::peers::c_peers::lemire as streamvbyte_sys;
use std::time::Instant;

const TOTAL: usize = 1 << 16;

fn data(kind: &str) -> Vec<u32> {
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    match kind {
        "1byte" => (0..TOTAL).map(|_| (next() % 256) as u32).collect(),
        "1-2byte" => (0..TOTAL).map(|_| (next() % 2000) as u32).collect(),
        "mixed" => (0..TOTAL)
            .map(|_| {
                let r = next();
                (r >> 32) as u32 >> (r % 32)
            })
            .collect(),
        "gaps1" => {
            let mut x = 0u32;
            (0..TOTAL)
                .map(|_| {
                    x = x.wrapping_add(1 + (next() % 16) as u32);
                    x
                })
                .collect()
        }
        _ => panic!("unknown data {kind}"),
    }
}

/// The operation measured, parsed once (not matched as a string per call).
#[derive(Clone, Copy, PartialEq)]
enum Op {
    Encode,
    EncodeDelta,
    Decode,
    DecodeDelta,
    DecodeUnchecked,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("decode_delta", |s| s.as_str());
    let op = match name {
        "encode" => Op::Encode,
        "encode_delta" => Op::EncodeDelta,
        "decode" => Op::Decode,
        "decode_delta" => Op::DecodeDelta,
        "decode_unchecked" => Op::DecodeUnchecked,
        _ => panic!("unknown op {name}"),
    };
    let len: usize = args.get(1).map_or(4096, |s| s.parse().expect("LEN"));
    let vals = data(args.get(2).map_or("gaps1", |s| s.as_str()));
    let delta = matches!(op, Op::EncodeDelta | Op::DecodeDelta);
    let lists: Vec<&[u32]> = vals.chunks(len).filter(|c| c.len() == len).collect();
    let n = lists.len() * len;
    let kernels: Vec<StreamVByte> = [Isa::Sse41, Isa::Avx2, Isa::Avx512]
        .into_iter()
        .filter_map(|isa| StreamVByte::new().with_isa(isa))
        .collect();
    // Streams (with 64 bytes of slack after each for the C decoder).
    let slack = 64;
    let streams: Vec<Vec<u8>> = lists
        .iter()
        .map(|l| {
            let mut s = if delta {
                StreamVByte::new().encode_delta_to_vec(l, 0)
            } else {
                StreamVByte::new().encode_to_vec(l)
            };
            s.resize(s.len() + slack, 0);
            s
        })
        .collect();
    let mut out_b = vec![0u8; len * 5 + 64];
    let mut out_v = vec![0u32; len + 64];
    let passes = std::env::var("PASSES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or((20_000_000 / n).clamp(20, 3000));
    let mut best = vec![f64::MAX; kernels.len() + 1];
    for _ in 0..passes {
        for (i, k) in kernels.iter().enumerate() {
            let t = Instant::now();
            let mut acc = 0usize;
            for (l, s) in lists.iter().zip(&streams) {
                acc += match op {
                    Op::Encode => k.encode(l, &mut out_b).unwrap(),
                    Op::EncodeDelta => k.encode_delta(l, 0, &mut out_b).unwrap(),
                    Op::Decode => k.decode(s, len, &mut out_v).unwrap(),
                    Op::DecodeDelta => k.decode_delta(s, len, 0, &mut out_v).unwrap(),
                    // SAFETY: each stream is valid and followed by 64 bytes.
                    Op::DecodeUnchecked => unsafe { k.decode_unchecked(s, len, &mut out_v) },
                };
                std::hint::black_box(&out_v);
            }
            std::hint::black_box(acc);
            best[i] = best[i].min(t.elapsed().as_secs_f64());
        }
        let t = Instant::now();
        let mut acc = 0usize;
        for (l, s) in lists.iter().zip(&streams) {
            let (lp, sp) = (l.as_ptr(), s.as_ptr());
            let (ob, ov) = (out_b.as_mut_ptr(), out_v.as_mut_ptr());
            let n32 = len as u32;
            // Each list holds `len` values; `out_b` has room for the stream
            // plus slack; each stream holds `len` values plus 64 bytes of
            // slack; `out_v` holds `len` values.
            acc += match op {
                // SAFETY: as above.
                Op::Encode => unsafe { streamvbyte_sys::streamvbyte_encode(lp, n32, ob) as usize },
                // SAFETY: as above.
                Op::EncodeDelta => unsafe {
                    streamvbyte_sys::streamvbyte_delta_encode(lp, n32, ob, 0) as usize
                },
                // SAFETY: as above.
                Op::Decode | Op::DecodeUnchecked => unsafe {
                    streamvbyte_sys::streamvbyte_decode(sp, ov, n32) as usize
                },
                // SAFETY: as above.
                Op::DecodeDelta => unsafe {
                    streamvbyte_sys::streamvbyte_delta_decode(sp, ov, n32, 0) as usize
                },
            };
            std::hint::black_box(&out_v);
        }
        std::hint::black_box(acc);
        let l = kernels.len();
        best[l] = best[l].min(t.elapsed().as_secs_f64());
    }
    let c = best[kernels.len()];
    let mut line = format!("{name} len {len}: C {:7.0} Mi/s |", n as f64 / c / 1e6);
    for (i, k) in kernels.iter().enumerate() {
        line += &format!(" {:?} {:.2}x", k.isa(), c / best[i]);
    }
    println!("{line}");
}
