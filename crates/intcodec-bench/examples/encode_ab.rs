//! A/B micro-benchmark of Stream VByte encode: each of our SIMD kernels against
//! the C peer on 4096-int arrays, interleaved, best of 3000 runs (robust on a
//! busy machine). A development tool; `intcodec bench` is the real benchmark.
//! `cargo run --release -p intcodec-bench --example encode_ab [-- delta]`
use intcodec::streamvbyte::StreamVByte;
use intcodec::Isa;
use std::time::Instant;

fn main() {
    let mut s = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let sets: Vec<(&str, Vec<u32>)> = vec![
        ("1byte", (0..4096).map(|_| (next() % 256) as u32).collect()),
        (
            "1-2byte",
            (0..4096).map(|_| (next() % 2000) as u32).collect(),
        ),
        (
            "mixed",
            (0..4096)
                .map(|_| {
                    let r = next();
                    (r >> 32) as u32 >> (r % 32)
                })
                .collect(),
        ),
    ];
    let delta = std::env::args().any(|a| a == "delta");
    for (name, vals) in &sets {
        let mut out = vec![0u8; 4096 * 5 + 64];
        let kernels: Vec<StreamVByte> = [Isa::Sse41, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .filter_map(StreamVByte::with_isa)
            .collect();
        let mut best = vec![f64::MAX; kernels.len() + 1];
        for _ in 0..3000 {
            for (i, k) in kernels.iter().enumerate() {
                let t = Instant::now();
                let w = if delta {
                    k.encode_delta(vals, 0, &mut out).unwrap()
                } else {
                    k.encode(vals, &mut out).unwrap()
                };
                std::hint::black_box(w);
                best[i] = best[i].min(t.elapsed().as_secs_f64());
            }
            let t = Instant::now();
            let w = if delta {
                // SAFETY: `vals` holds 4096 values; `out` has room for the
                // stream plus the encoder's 16-byte slack.
                unsafe {
                    streamvbyte_sys::streamvbyte_delta_encode(
                        vals.as_ptr(),
                        4096,
                        out.as_mut_ptr(),
                        0,
                    )
                }
            } else {
                // SAFETY: as above.
                unsafe {
                    streamvbyte_sys::streamvbyte_encode(vals.as_ptr(), 4096, out.as_mut_ptr())
                }
            };
            std::hint::black_box(w);
            let l = kernels.len();
            best[l] = best[l].min(t.elapsed().as_secs_f64());
        }
        let c = best[kernels.len()];
        let mut line = format!("{name:8} C {:7.0} Mi/s |", 4096.0 / c / 1e6);
        for (i, k) in kernels.iter().enumerate() {
            line += &format!(" {:?} {:.2}x", k.isa(), c / best[i]);
        }
        println!("{line}");
    }
}
