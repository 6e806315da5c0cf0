//! VByte decode (and u32 encode) speed by value-length mix, for u32 and u64, every kernel and
//! (u32) the varint peers, on the same seeded data:
//! `cargo run --release -p intcodec-bench --example vbyte_lengths`
//! (`-- --ints`: only u32 values of 1, 2, 3, 4 integer bytes, as the
//! `ints` suite's widths).
//!
//! The `postings` suite measures real and modelled posting lists; this one
//! isolates the length distribution: only 1-byte values, a 1-2 byte mix
//! (75 % / 25 %, random order), 1-5 bytes uniformly, and for u64 1-10 bytes
//! uniformly and full-range random values. Streams of 4096 values are
//! decoded into one reusable buffer; each (data, kernel) is timed in
//! rotating order, and the median of 31 rounds is reported (`--min`: the fastest), as millions of
//! values per second, with ratios to our scalar kernel and the best peer.

use intcodec::vbyte::{self, VByte};
#[allow(unused_imports)]
use intcodec::{IntCodec, KernelChoice, SortedCodec};
use intcodec_testkit::SplitMix64;
use std::hint::black_box;
use std::time::Instant;

const N: usize = 4096;
const STREAMS: usize = 64;

/// The project's SplitMix64, with a VByte-length draw.
struct Rng(SplitMix64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    /// A value of exactly `len` VByte bytes, at most `bits` bits.
    fn of_len(&mut self, len: u32, bits: u32) -> u64 {
        let lo = if len == 1 { 0 } else { 1u64 << (7 * (len - 1)) };
        let hi_bits = (7 * len).min(bits);
        let hi = if hi_bits == 64 {
            u64::MAX
        } else {
            (1u64 << hi_bits) - 1
        };
        lo + self.next() % (hi - lo).saturating_add(1).max(1)
    }
}

/// The median round, or with `--min` (for a loaded machine) the fastest.
fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    if std::env::args().any(|a| a == "--min") {
        t[0]
    } else {
        t[t.len() / 2]
    }
}

/// Millions of values per second at the median pass time.
fn mis(times: &[f64]) -> f64 {
    (STREAMS * N) as f64 / median(times.to_vec()) / 1e6
}

fn u32_case(name: &str, gen: &mut dyn FnMut() -> u32) {
    let data: Vec<Vec<u32>> = (0..STREAMS)
        .map(|_| (0..N).map(|_| gen()).collect())
        .collect();
    let contenders: Vec<_> = intcodec_bench::suites::contenders()
        .into_iter()
        .filter(|c| c.family() == intcodec_bench::contenders::vbyte::FAMILY)
        .collect();
    let streams: Vec<Vec<u8>> = data
        .iter()
        .map(|v| {
            let mut s = VByte::new().encode_to_vec(v);
            // The C peer (MaskedVByte) wants room for the longest encoding.
            s.resize(2 * vbyte::max_compressed_len(N), 0);
            s
        })
        .collect();
    let bytes: usize = data.iter().map(|v| VByte::new().compressed_len(v)).sum();
    let mut out = vec![0u32; N];
    let mut bytes_out = vec![0u8; 2 * vbyte::max_compressed_len(N)];
    let mut times = vec![Vec::new(); contenders.len()];
    let mut enc_times = vec![Vec::new(); contenders.len()];
    for round in 0..31 {
        for j in 0..contenders.len() {
            let at = (j + round) % contenders.len();
            let c = &contenders[at];
            let t = Instant::now();
            for (s, v) in streams.iter().zip(&data) {
                c.decode(black_box(s), N, &mut out).unwrap();
                assert_eq!(out[N - 1], v[N - 1]);
            }
            times[at].push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            for (s, v) in streams.iter().zip(&data) {
                let w = c.encode(black_box(v), &mut bytes_out).unwrap();
                assert_eq!(bytes_out[w - 1], s[w - 1]);
            }
            enc_times[at].push(t.elapsed().as_secs_f64());
        }
    }
    let per_byte = bytes as f64 / (STREAMS * N) as f64;
    for (op, times) in [("decode", &times), ("encode", &enc_times)] {
        println!("\nu32 {name} ({per_byte:.2} bytes/value): {op}, millions of values per second");
        let speeds: Vec<f64> = times.iter().map(|t| mis(t)).collect();
        let scalar = speeds[0];
        let best_peer = contenders
            .iter()
            .zip(&speeds)
            .filter(|(c, _)| c.is_peer())
            .map(|(_, &s)| s)
            .fold(0.0, f64::max);
        for (c, s) in contenders.iter().zip(&speeds) {
            println!(
                "  {:<22} {:<10} {:>8.0}  x{:<5.2} vs scalar  x{:<5.2} vs best peer",
                c.name(),
                c.kernel(),
                s,
                s / scalar,
                s / best_peer
            );
        }
    }
}

fn u64_case(name: &str, gen: &mut dyn FnMut() -> u64) {
    let data: Vec<Vec<u64>> = (0..STREAMS)
        .map(|_| (0..N).map(|_| gen()).collect())
        .collect();
    let kernels: Vec<VByte> = VByte::new()
        .kernel_isas()
        .into_iter()
        .filter(|i| i.is_enabled())
        .filter_map(|isa| VByte::new().with_isa(isa))
        .collect();
    let streams: Vec<Vec<u8>> = data
        .iter()
        .map(|v| VByte::new().encode_u64_to_vec(v))
        .collect();
    let bytes: usize = streams.iter().map(Vec::len).sum();
    let mut out = vec![0u64; N];
    let mut times = vec![Vec::new(); kernels.len()];
    for round in 0..15 {
        for j in 0..kernels.len() {
            let k = &kernels[(j + round) % kernels.len()];
            let t = Instant::now();
            for (s, v) in streams.iter().zip(&data) {
                k.decode_u64(black_box(s), N, &mut out).unwrap();
                assert_eq!(out[N - 1], v[N - 1]);
            }
            times[(j + round) % kernels.len()].push(t.elapsed().as_secs_f64());
        }
    }
    println!(
        "\nu64 {name} ({:.2} bytes/value): decode, millions of values per second",
        bytes as f64 / (STREAMS * N) as f64
    );
    let speeds: Vec<f64> = times.iter().map(|t| mis(t)).collect();
    for (k, s) in kernels.iter().zip(&speeds) {
        println!(
            "  vbyte {:<10} {:>8.0}  x{:.2} vs scalar",
            k.isa().name(),
            s,
            s / speeds[0]
        );
    }
}

fn main() {
    let mut rng = Rng(SplitMix64::new(7));
    if std::env::args().any(|a| a == "--ints") {
        // The `ints` suite's widths: uniform values of 1..=4 integer bytes
        // (VByte lengths 1-2, 1-3, 1-4, 1-5, mostly the longest), then a
        // random width per value.
        for w in 1..=4u32 {
            let mask = u32::MAX >> (32 - 8 * w);
            u32_case(&format!("{w} B ints"), &mut || rng.next() as u32 & mask);
        }
        // Posting-list-like gaps: mostly one byte.
        for pct in [98u64, 95, 90] {
            u32_case(&format!("1-2 bytes ({pct}/{})", 100 - pct), &mut || {
                let len = if rng.next() % 100 < pct { 1 } else { 2 };
                rng.of_len(len, 32) as u32
            });
        }
        u32_case("mixed-width ints", &mut || {
            let x = rng.next();
            x as u32 & (u32::MAX >> (8 * (x >> 62) as u32))
        });
        return;
    }
    u32_case("1 byte", &mut || rng.of_len(1, 32) as u32);
    u32_case("1-2 bytes (75/25)", &mut || {
        let len = if rng.next().is_multiple_of(4) { 2 } else { 1 };
        rng.of_len(len, 32) as u32
    });
    u32_case("1-2 bytes (50/50)", &mut || {
        let len = (rng.next() % 2) as u32 + 1;
        rng.of_len(len, 32) as u32
    });
    u32_case("1-5 bytes", &mut || {
        let len = (rng.next() % 5) as u32 + 1;
        rng.of_len(len, 32) as u32
    });
    u64_case("1-3 bytes", &mut || {
        let len = (rng.next() % 3) as u32 + 1;
        rng.of_len(len, 64)
    });
    u64_case("1-10 bytes", &mut || {
        let len = (rng.next() % 10) as u32 + 1;
        rng.of_len(len, 64)
    });
    u64_case("full range", &mut || rng.next());
}
