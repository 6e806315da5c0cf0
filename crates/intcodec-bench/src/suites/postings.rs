//! The `postings` suite: the Stream VByte paper's posting-list benchmark
//! (§5), run on every codec and kernel in one process, on the same data.
//!
//! For each length bucket `K` (lists of lengths `2^K ..= 2^(K+1) - 1`), every
//! codec encodes the bucket's chunks (see [`crate::measure`]), each measured
//! job (codec × op, plus memcpy) is fully checked, calibrated so that one
//! repetition lasts at least `min_time`, and then timed `reps` times; the
//! order of the jobs rotates between repetitions so that no kernel always
//! runs first (or right after another's cache footprint). Speeds are
//! `ints / median time per pass`.

use super::contenders;
use crate::data::{Postings, Source};
use crate::measure::{self, Bucket, Encoded, Light, Op};
use crate::measure::{Buffers, Codec};
use std::time::{Duration, Instant};

/// Names of the suites [`run`] knows.
pub const SUITES: &[&str] = &[
    "postings", "ints", "keys", "keyset", "seek", "varint", "short",
];

/// How reports name bucket `k` of a suite: `2^k` (postings: lists of
/// `2^k ..= 2^(k+1) - 1` ints), or (`ints`) the values' byte width.
pub fn bucket_label(suite: &str, k: u32) -> String {
    match (suite, k) {
        ("ints", 0) => "mixed".to_string(),
        ("ints", w) => format!("{w} B"),
        _ => format!("2^{k}"),
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The posting lists.
    pub source: Source,
    /// Smallest bucket exponent.
    pub kmin: u32,
    /// Largest bucket exponent.
    pub kmax: u32,
    /// About this many values per bucket (synthetic: generated; file: lists
    /// taken in file order until reached).
    pub ints_per_bucket: u64,
    /// Timed repetitions per job (the median is reported).
    pub reps: usize,
    /// Each repetition repeats the pass until it lasts at least this long.
    pub min_time: Duration,
    /// Only these format families (`streamvbyte`, `vbyte`); empty = all.
    pub families: Vec<String>,
}

/// One measured (bucket, codec, kernel, op).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Suite name (`postings`).
    pub suite: String,
    /// Dataset name.
    pub dataset: String,
    /// Bucket exponent `K`.
    pub bucket: u32,
    /// Lists in the bucket.
    pub lists: usize,
    /// Codec column (`streamvbyte`, `peer:streamvbyte`, `memcpy`).
    pub codec: String,
    /// Kernel column.
    pub kernel: String,
    /// Format family, for comparisons (`streamvbyte`; `memcpy`).
    pub family: String,
    /// Another project's implementation.
    pub peer: bool,
    /// Our default (dispatched) kernel.
    pub default_kernel: bool,
    /// The operation.
    pub op: Op,
    /// Values processed per pass.
    pub ints: u64,
    /// Encoded bits per value (32 for memcpy).
    pub bits_per_int: f64,
    /// Median seconds per pass.
    pub seconds: f64,
    /// Fastest and slowest repetition, seconds per pass.
    pub seconds_min: f64,
    /// Slowest repetition.
    pub seconds_max: f64,
    /// Repetitions.
    pub reps: usize,
}

impl Row {
    /// Millions of ints per second (median).
    pub fn mis(&self) -> f64 {
        self.ints as f64 / self.seconds / 1e6
    }
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Dataset name.
    pub dataset: String,
    /// Dataset description.
    pub description: String,
    /// Every measurement, bucket by bucket.
    pub rows: Vec<Row>,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

struct Job {
    codec: Option<usize>,
    op: Op,
    expect: Light,
    iters: u32,
    times: Vec<f64>,
}

/// Runs the suite.
/// `progress` gets the fraction of the suite done and a short status.
pub fn run(cfg: &Config, progress: &mut dyn FnMut(f64, &str)) -> Result<Outcome, String> {
    let started = Instant::now();
    let mut postings = Postings::open(&cfg.source, cfg.kmin, cfg.kmax, cfg.ints_per_bucket)?;
    let ks = postings.ks();
    if ks.is_empty() {
        return Err(format!(
            "dataset {} has no lists in buckets {}..={}",
            postings.name(),
            cfg.kmin,
            cfg.kmax
        ));
    }
    let codecs: Vec<Box<dyn Codec>> = contenders()
        .into_iter()
        .filter(|c| cfg.families.is_empty() || cfg.families.iter().any(|f| f == c.family()))
        .collect();
    if codecs.is_empty() {
        return Err(format!(
            "no codec of family {} in this build",
            cfg.families.join(", ")
        ));
    }
    let mut bufs = Buffers::new(&codecs);
    let reps = cfg.reps.max(1);
    // Unsorted values (suite `ints`): plain decode and encode only.
    let unsorted = cfg.source.is_unsorted();
    let (suite_name, ops): (&str, &[Op]) = if unsorted {
        ("ints", &[Op::Decode, Op::Encode])
    } else {
        ("postings", &Op::CODEC_OPS)
    };
    let mut rows = Vec::new();
    for (bi, &k) in ks.iter().enumerate() {
        let tag = format!(
            "{} {} ({}/{})",
            if unsorted { "width" } else { "bucket" },
            bucket_label(suite_name, k),
            bi + 1,
            ks.len()
        );
        let at = |f: f64| crate::progress::share(bi, ks.len(), f);
        progress(at(0.0), &format!("{tag}: preparing"));
        let lists = postings.bucket(k);
        if lists.is_empty() {
            continue;
        }
        let bucket = Bucket::new(k, &lists);
        drop(lists);
        let encoded: Vec<(Encoded, Encoded)> = codecs
            .iter()
            .map(|c| {
                // Unsorted values have no delta ops; a codec without delta
                // coding (`supports`) has no delta streams either (its delta
                // ops are not measured: no jobs below).
                let delta = if !unsorted && c.supports(Op::DecodeDelta) {
                    c.encode_bucket(&bucket, true)?
                } else {
                    Encoded::default()
                };
                Ok((c.encode_bucket(&bucket, false)?, delta))
            })
            .collect::<Result<_, String>>()
            .map_err(|e| format!("{tag}: {e}"))?;

        let mut jobs: Vec<Job> = Vec::new();
        for (ci, c) in codecs.iter().enumerate() {
            for &op in ops {
                if !c.supports(op) {
                    continue;
                }
                jobs.push(Job {
                    codec: Some(ci),
                    op,
                    expect: Light::default(),
                    iters: 1,
                    times: Vec::with_capacity(reps),
                });
            }
        }
        jobs.push(Job {
            codec: None,
            op: Op::Copy,
            expect: Light::default(),
            iters: 1,
            times: Vec::with_capacity(reps),
        });

        // Full checks (they also warm up), then calibration.
        progress(at(0.1), &format!("{tag}: checking"));
        for job in &mut jobs {
            job.expect = match job.codec {
                Some(ci) => {
                    let enc = pick(&encoded[ci], job.op);
                    measure::verify(&*codecs[ci], job.op, &bucket, enc, &mut bufs)
                        .map_err(|e| format!("{tag}: {e}"))?
                }
                None => measure::verify_copy(&bucket, &mut bufs.values)
                    .map_err(|e| format!("{tag}: {e}"))?,
            };
            let one = time_job(job, 1, &codecs, &encoded, &bucket, &mut bufs)?;
            job.iters = super::iterations(cfg.min_time, one, 1 << 20);
        }

        let n = jobs.len();
        super::rotate(reps, n, &tag, at, progress, |j| {
            let iters = jobs[j].iters;
            let t = time_job(&jobs[j], iters, &codecs, &encoded, &bucket, &mut bufs)?;
            jobs[j].times.push(t);
            Ok(())
        })?;

        for job in &mut jobs {
            job.times.sort_by(f64::total_cmp);
            let median = median(&job.times);
            let (codec, kernel, family, peer, default_kernel, bits) = match job.codec {
                Some(ci) => {
                    let c = &codecs[ci];
                    (
                        c.name(),
                        c.kernel(),
                        c.family().to_string(),
                        c.is_peer(),
                        c.is_default(),
                        pick(&encoded[ci], job.op).bits_per_int(bucket.ints()),
                    )
                }
                None => (
                    "memcpy".to_string(),
                    "copy".to_string(),
                    "memcpy".to_string(),
                    false,
                    false,
                    32.0,
                ),
            };
            rows.push(Row {
                suite: suite_name.to_string(),
                dataset: postings.name().to_string(),
                bucket: k,
                lists: bucket.lists,
                codec,
                kernel,
                family,
                peer,
                default_kernel,
                op: job.op,
                ints: bucket.ints() as u64,
                bits_per_int: bits,
                seconds: median,
                seconds_min: job.times[0],
                seconds_max: job.times[job.times.len() - 1],
                reps,
            });
        }
    }
    Ok(Outcome {
        dataset: postings.name().to_string(),
        description: postings.description().to_string(),
        rows,
        elapsed: started.elapsed(),
    })
}

fn pick(enc: &(Encoded, Encoded), op: Op) -> &Encoded {
    match op {
        Op::DecodeDelta | Op::EncodeDelta => &enc.1,
        _ => &enc.0,
    }
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

/// Runs `iters` passes of `job`, checking each, and returns seconds per pass.
fn time_job(
    job: &Job,
    iters: u32,
    codecs: &[Box<dyn Codec>],
    encoded: &[(Encoded, Encoded)],
    bucket: &Bucket,
    bufs: &mut Buffers,
) -> Result<f64, String> {
    let start = Instant::now();
    let mut bad = None;
    match job.codec {
        Some(ci) => {
            let c = &codecs[ci];
            let enc = pick(&encoded[ci], job.op);
            for _ in 0..iters {
                let light = c.pass(job.op, bucket, enc, bufs)?;
                if light != job.expect {
                    bad = Some((c.name(), c.kernel()));
                    break;
                }
            }
        }
        None => {
            for _ in 0..iters {
                if measure::copy_pass(bucket, &mut bufs.values) != job.expect {
                    bad = Some(("memcpy".to_string(), "copy".to_string()));
                    break;
                }
            }
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9) / f64::from(iters);
    if let Some((name, kernel)) = bad {
        return Err(format!(
            "bucket K={}: CHECK FAILED: {name} {kernel} {}: a timed pass produced different \
             output than the verified one (refusing to report a speed)",
            bucket.k,
            job.op.name()
        ));
    }
    Ok(secs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Model;

    #[test]
    fn tiny_run_measures_every_contender_and_op() {
        let cfg = Config {
            source: Source::Synthetic {
                model: Model::Clustered,
                seed: 1,
                universe: 1 << 20,
            },
            kmin: 5,
            kmax: 7,
            ints_per_bucket: 3000,
            reps: 2,
            min_time: Duration::ZERO,
            families: Vec::new(),
        };
        let mut msgs = 0;
        let mut last = 0.0;
        let out = run(&cfg, &mut |f, _| {
            assert!((last..=1.0).contains(&f), "{last} then {f}");
            last = f;
            msgs += 1
        })
        .unwrap();
        assert!(msgs > 0);
        let n: usize = contenders()
            .iter()
            .map(|c| Op::CODEC_OPS.iter().filter(|&&op| c.supports(op)).count())
            .sum();
        assert_eq!(out.rows.len(), 3 * (n + 1));
        for r in &out.rows {
            assert!(r.seconds_min <= r.seconds && r.seconds <= r.seconds_max);
            assert!(r.lists > 0 && r.ints >= (r.lists as u64) << r.bucket);
            assert!((5..=7).contains(&r.bucket));
        }
    }
}
