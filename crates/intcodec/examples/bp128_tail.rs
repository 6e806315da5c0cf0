//! A fixed workload for instruction counts (`valgrind --tool=callgrind`,
//! `perf stat -e instructions`): D1-decodes every europarl list of 128..=1023
//! ints (BP128 blocks plus a LEB128 tail of up to 127 / 255 values) `ROUNDS`
//! times with the best kernel, 4x and 8x layouts, and prints a checksum.
//!
//! `cargo run --release -p intcodec --example bp128_tail [rounds] [4x|8x]`

use intcodec::bp128::{Bp128, Layout};
use intcodec::IntCodec;

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(20, |r| r.parse().expect("rounds"));
    let layout = match args.next().as_deref() {
        Some("8x") => Layout::Lanes8,
        _ => Layout::Lanes4,
    };
    let Some(dir) = intcodec_testkit::shared::shared_data("bp128_tail example") else {
        eprintln!("*** no shared data: nothing measured ***");
        std::process::exit(2);
    };
    let coll = intcodec_testkit::ds2i::read(dir.join("postings/europarl.docs")).expect("europarl");
    let codec = Bp128::new(layout);
    let lists: Vec<(Vec<u8>, usize)> = coll
        .lists
        .iter()
        .filter(|l| (128..1024).contains(&l.len()))
        .map(|l| (codec.encode_delta_to_vec(l, 0), l.len()))
        .collect();
    let ints: usize = lists.iter().map(|l| l.1).sum();
    let mut out = vec![0u32; 1024];
    let mut sum = 0u64;
    for _ in 0..rounds {
        for (bytes, n) in &lists {
            codec.decode_delta(bytes, *n, 0, &mut out).expect("valid");
            sum = sum.wrapping_add(u64::from(out[*n - 1]));
        }
    }
    println!(
        "{} {} lists, {ints} ints, {rounds} rounds, isa {}, checksum {sum}",
        codec.name(),
        lists.len(),
        codec.isa()
    );
}
