//! VarInt-GB delta decode of 4096 ints into a reused buffer against
//! `decode_delta_to_vec` (a new `Vec` per call), median of 31 rounds of 256
//! calls, in µs per call:
//! `cargo run --release -p intcodec-bench --example gb_to_vec`.

use intcodec::varint_gb::VarIntGb;
use intcodec::{IntCodec, KernelChoice};
use intcodec_testkit::SplitMix64;
use std::hint::black_box;
use std::time::Instant;

const N: usize = 4096;
const CALLS: usize = 256;

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn main() {
    let mut rng = SplitMix64::new(3);
    let mut x = 0u32;
    let ids: Vec<u32> = (0..N)
        .map(|_| {
            x += 1 + (rng.next_u64() % 200) as u32;
            x
        })
        .collect();
    let codec = VarIntGb::best();
    let mut bytes = vec![0u8; codec.max_compressed_len(N).unwrap()];
    let len = codec.encode_delta(&ids, 0, &mut bytes).unwrap();
    bytes.truncate(len);
    let mut out = vec![0u32; N];
    let (mut reused, mut to_vec) = (Vec::new(), Vec::new());
    for _ in 0..31 {
        let t = Instant::now();
        for _ in 0..CALLS {
            codec
                .decode_delta(black_box(&bytes), N, 0, &mut out)
                .unwrap();
        }
        reused.push(t.elapsed().as_secs_f64());
        assert_eq!(out, ids);
        let t = Instant::now();
        for _ in 0..CALLS {
            let v = codec.decode_delta_to_vec(black_box(&bytes), N, 0).unwrap();
            black_box(&v);
        }
        to_vec.push(t.elapsed().as_secs_f64());
    }
    let us = |t: Vec<f64>| median(t) / CALLS as f64 * 1e6;
    println!(
        "varint-gb {:?}, {N} ints: decode_delta {:.2} µs, decode_delta_to_vec {:.2} µs",
        codec.isa(),
        us(reused),
        us(to_vec)
    );
}
