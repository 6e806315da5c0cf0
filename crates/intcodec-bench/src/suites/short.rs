//! The `short` suite: what one decode of a short list costs. Most posting
//! lists of a real collection are short, so the per-call cost (validation,
//! dispatch, the tail) decides there, not the bulk speed.
//!
//! For each length of [`LENGTHS`] and each family, [`LISTS`] lists of that
//! length (ClusterData gaps) are encoded back to back by every measured
//! codec; a pass decodes every list once, in order, into an L1-resident
//! buffer, through the codec's API: ours by its checked `decode`, the C/C++
//! references by their own C call, the loop over lists running in C (one
//! call from Rust per pass, see [`Codec::short_pass`]). Reported:
//! nanoseconds per decoded list, of the fastest repetition (the table; the
//! rows also carry the median): passes this short are easily stretched by
//! other work on the machine, never shortened. Measured: our default kernel and the
//! family's C/C++ references (kernel column `c*`). Every pass is checked: a
//! checksum of each list's last value and consumed bytes must equal the one
//! computed from the source.
//!
//! Calls this short are sensitive to where the linker puts the code: on
//! the Zen 4 (2026-12-07) FastPFor's VarIntGB, unchanged, read 4.1-4.2 ns
//! for one int in one build of the benchmark and 5.0 in the next, after
//! changes elsewhere. Compare ratios of a few nanoseconds with that in
//! mind (`docs/perf-notes.md`, VarInt-GB).

use super::postings::Row;
use crate::measure::{Codec, Encoded, Op, CHUNK};
use intcodec_testkit::synth::Model;
use intcodec_testkit::SplitMix64;
use std::io::Write;
use std::time::Instant;

/// The list lengths measured.
pub const LENGTHS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];
/// Lists per length (their streams stay in L1/L2).
pub const LISTS: usize = 512;
/// The op name in rows.
pub const OP: &str = "short_decode";

/// What to run.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Repetitions (the table reports the fastest), their least duration,
    /// the seed.
    pub timing: super::Timing,
}

impl Config {
    /// The default (`quick`: fewer and shorter repetitions).
    pub fn new(quick: bool) -> Config {
        Config {
            timing: if quick {
                super::Timing::new(5, 2)
            } else {
                super::Timing::new(9, 5)
            },
        }
    }
}

/// Whether `c` is measured: our default kernels and the C/C++ references.
fn measured(c: &dyn Codec) -> bool {
    (!c.is_peer() && c.is_default()) || (c.is_peer() && c.kernel().starts_with('c'))
}

/// `LISTS` lists of `len` gaps (ClusterData ids in `[0, 2^25)`).
fn lists(seed: u64, len: usize) -> Vec<Vec<u32>> {
    let mut rng = SplitMix64::derive(seed, &[len as u64]);
    (0..LISTS)
        .map(|_| {
            let ids = Model::Clustered.generate(&mut rng, len, 0, 1 << 25);
            let mut prev = 0u32;
            ids.iter()
                .map(|&v| {
                    let g = v.wrapping_sub(prev);
                    prev = v;
                    g
                })
                .collect()
        })
        .collect()
}

/// One codec's streams of `lists` (followed by the codec's slack for a list)
/// and the checksum of one pass.
fn encode(c: &dyn Codec, lists: &[Vec<u32>]) -> Result<(Encoded, u64), String> {
    let len = lists[0].len();
    let slack = c.max_encoded_len(len);
    let mut scratch = vec![0u8; slack];
    let mut bytes = Vec::new();
    let mut offsets = Vec::new();
    let mut sum = 0u64;
    let mut out = vec![0u32; CHUNK];
    for l in lists {
        let w = c.encode(l, &mut scratch)?;
        offsets.push(bytes.len());
        bytes.extend_from_slice(&scratch[..w]);
        sum = sum.wrapping_add(u64::from(l[len - 1]) + w as u64);
    }
    let total = bytes.len() as u64;
    bytes.resize(bytes.len() + slack, 0);
    // Full check: every list decodes to its source, consuming its stream.
    for (i, (l, &o)) in lists.iter().zip(&offsets).enumerate() {
        let used = c.decode(&bytes[o..], len, &mut out)?;
        let end = offsets.get(i + 1).map_or(total as usize, |&e| e);
        if out[..len] != l[..] || o + used != end {
            return Err(format!(
                "{} {}: list {i} of {len} ints does not round-trip",
                c.name(),
                c.kernel()
            ));
        }
    }
    let enc = Encoded {
        bytes,
        offsets,
        total,
    };
    Ok((enc, sum))
}

/// Runs the suite: one row per (length, measured codec).
pub fn run(cfg: &Config, progress: &mut dyn FnMut(f64, &str)) -> Result<Vec<Row>, String> {
    let all: Vec<Box<dyn Codec>> = super::contenders()
        .into_iter()
        .filter(|c| measured(&**c))
        .collect();
    let mut rows = Vec::new();
    let mut buf = vec![0u32; CHUNK];
    for (li, &len) in LENGTHS.iter().enumerate() {
        progress(li as f64 / LENGTHS.len() as f64, &format!("lists of {len}"));
        let lists = lists(cfg.timing.seed, len);
        for c in &all {
            let (enc, sum) = encode(&**c, &lists)?;
            let mut check = |reps: usize| -> Result<(), String> {
                let got = c.short_pass(&enc, reps, &mut buf[..len])?;
                if got != sum.wrapping_mul(reps as u64) {
                    return Err(format!(
                        "CHECKSUM MISMATCH: {} {} short_decode of {len}-int lists",
                        c.name(),
                        c.kernel()
                    ));
                }
                Ok(())
            };
            check(1)?;
            // Calibrate: passes per repetition.
            let mut reps = 1usize;
            loop {
                let t = Instant::now();
                check(reps)?;
                if t.elapsed() >= cfg.timing.min_time || reps >= 1 << 20 {
                    break;
                }
                reps *= 2;
            }
            let mut times: Vec<f64> = (0..cfg.timing.reps)
                .map(|_| {
                    let t = Instant::now();
                    check(reps).map(|()| t.elapsed().as_secs_f64() / reps as f64)
                })
                .collect::<Result<_, _>>()?;
            times.sort_by(f64::total_cmp);
            rows.push(Row {
                suite: "short".to_string(),
                dataset: "clustered".to_string(),
                bucket: len.trailing_zeros(),
                lists: LISTS,
                codec: c.name(),
                kernel: c.kernel(),
                family: c.family().to_string(),
                peer: c.is_peer(),
                default_kernel: c.is_default(),
                op: Op::Named(OP),
                ints: (len * LISTS) as u64,
                bits_per_int: enc.bits_per_int(len * LISTS),
                seconds: times[times.len() / 2],
                seconds_min: times[0],
                seconds_max: times[times.len() - 1],
                reps: cfg.timing.reps,
            });
        }
    }
    progress(1.0, "done");
    Ok(rows)
}

/// The table: per family, a line per length with ns per call of ours and
/// of each reference, and reference / ours (> 1: ours faster).
pub fn table(rows: &[Row], header: &[String], out: &mut dyn Write) -> Result<(), String> {
    let mut s = super::report_text(header);
    let families = super::first_seen(rows.iter().map(|r| r.family.as_str()));
    for f in families {
        let fam: Vec<&Row> = rows.iter().filter(|r| r.family == f).collect();
        let Some(ours) = fam.iter().find(|r| !r.peer) else {
            continue;
        };
        let mut refs: Vec<(&str, &str)> = Vec::new();
        for r in fam.iter().filter(|r| r.peer) {
            if !refs.contains(&(r.codec.as_str(), r.kernel.as_str())) {
                refs.push((&r.codec, &r.kernel));
            }
        }
        s.push_str(&format!(
            "\n[{f}] ns per decoded list (fastest repetition; ours: {} {}, checked API)\n",
            ours.codec, ours.kernel
        ));
        s.push_str(&format!("{:>6} {:>9}", "ints", "ours"));
        for (c, _) in &refs {
            s.push_str(&format!(" {:>24} {:>7}", c, "ref/ours"));
        }
        s.push('\n');
        for &len in &LENGTHS {
            let b = len.trailing_zeros();
            let per = |r: &Row| r.seconds_min * 1e9 / r.lists as f64;
            let Some(o) = fam.iter().find(|r| !r.peer && r.bucket == b) else {
                continue;
            };
            s.push_str(&format!("{len:>6} {:>9.1}", per(o)));
            for (c, k) in &refs {
                match fam
                    .iter()
                    .find(|r| r.peer && r.bucket == b && r.codec == *c && r.kernel == *k)
                {
                    Some(p) => s.push_str(&format!(" {:>24.1} {:>7.2}x", per(p), per(p) / per(o))),
                    None => s.push_str(&format!(" {:>24} {:>8}", "-", "-")),
                }
            }
            s.push('\n');
        }
    }
    super::write_report(out, &s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_run_measures_ours_and_checks_every_pass() {
        let mut cfg = Config::new(true);
        cfg.timing = crate::suites::Timing {
            min_time: std::time::Duration::from_micros(10),
            ..crate::suites::Timing::once(1)
        };
        let rows = run(&cfg, &mut |_, _| {}).unwrap();
        for len in LENGTHS {
            for f in ["streamvbyte", "vbyte", "varint-gb", "bp128"] {
                assert!(
                    rows.iter()
                        .any(|r| !r.peer && r.family == f && r.bucket == len.trailing_zeros()),
                    "{f} {len}"
                );
            }
        }
        let mut text = Vec::new();
        table(&rows, &[], &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("[vbyte] ns per decoded list"), "{text}");
    }
}
