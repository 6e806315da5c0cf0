//! `cargo bench -p intcodec-bench --bench codecs [-- FILTER]`: criterion
//! micro-benchmarks of every codec × kernel (ours, each kernel this CPU runs,
//! forced) and every peer compiled in, on one 4096-int chunk of a synthetic
//! ClusterData posting list (the Stream VByte paper's L1-resident block):
//! `decode`, `decode_delta`, `encode`, `encode_delta`. Benchmark ids are
//! `FAMILY/OP/CODEC KERNEL`; throughput is in ints. `intcodec bench` is the
//! full, paper-style benchmark; this is for quick A/B work on one kernel
//! (e.g. `cargo bench --bench codecs -- 'streamvbyte/decode_delta'`).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use intcodec_bench::data::synth::{self, Model};
use intcodec_bench::measure::Op;
use intcodec_bench::measure::{Codec, CHUNK};
use intcodec_bench::suites::contenders;
use std::hint::black_box;

/// One 4096-int chunk of sorted ids (a ClusterData list of bucket 2^12).
fn ids() -> Vec<u32> {
    let lists = synth::bucket_lists(
        Model::Clustered,
        1,
        12,
        CHUNK as u64,
        synth::DEFAULT_UNIVERSE,
    );
    let mut ids: Vec<u32> = lists.into_iter().flatten().take(CHUNK).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

fn bench(c: &mut Criterion) {
    let ids = ids();
    let gaps: Vec<u32> = std::iter::once(ids[0])
        .chain(ids.windows(2).map(|w| w[1] - w[0]))
        .collect();
    let n = ids.len();
    for codec in contenders() {
        let codec: &dyn Codec = codec.as_ref();
        let label = format!("{} {}", codec.name(), codec.kernel());
        let room = codec.max_encoded_len(n);
        let mut plain = vec![0u8; room];
        let mut delta = vec![0u8; room];
        // A peer without delta coding (`supports`) gets its plain ops only.
        let has_delta = codec.supports(Op::EncodeDelta);
        let (wp, wd) = match (
            codec.encode(&gaps, &mut plain),
            if has_delta {
                codec.encode_delta(&ids, 0, &mut delta)
            } else {
                Ok(0)
            },
        ) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => panic!("{label}: {e}"),
        };
        let mut out = vec![0u32; n];
        let mut scratch = vec![0u8; room];
        // Every measured operation is checked once before it is timed.
        assert_eq!(codec.decode(&plain, n, &mut out).unwrap(), wp, "{label}");
        assert_eq!(out, gaps, "{label}");
        if has_delta {
            assert_eq!(
                codec.decode_delta(&delta, n, 0, &mut out).unwrap(),
                wd,
                "{label}"
            );
            assert_eq!(out, ids, "{label}");
        }
        let mut g = c.benchmark_group(codec.family());
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(BenchmarkId::new("decode", &label), |b| {
            b.iter(|| codec.decode(black_box(&plain), n, &mut out).unwrap())
        });
        if has_delta {
            g.bench_function(BenchmarkId::new("decode_delta", &label), |b| {
                b.iter(|| {
                    codec
                        .decode_delta(black_box(&delta), n, 0, &mut out)
                        .unwrap()
                })
            });
        }
        g.bench_function(BenchmarkId::new("encode", &label), |b| {
            b.iter(|| codec.encode(black_box(&gaps), &mut scratch).unwrap())
        });
        if has_delta {
            g.bench_function(BenchmarkId::new("encode_delta", &label), |b| {
                b.iter(|| {
                    codec
                        .encode_delta(black_box(&ids), 0, &mut scratch)
                        .unwrap()
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
