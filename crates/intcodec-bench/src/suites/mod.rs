//! The suites: what is measured and how it is reported per suite.
//!
//! - [`postings`]: posting lists by length bucket (paper §5), and `ints`
//!   (unsorted values by byte width) with the same method.
//! - [`keys`]: the upscaledb B+-tree key study (arrays of 256 sorted ints).
//! - [`seek`]: select and seek (paper Fig. 6).
//! - [`varint`]: single LEB128 values (varint-simd's benchmark).
//! - [`short`]: ns per decode of lists of 1..=64 ints, ours and the C/C++
//!   references.
//!
//! Suites use [`crate::contenders`] and [`crate::peers`], which use
//! [`crate::measure`]; nothing below imports a suite.

pub mod keys;
pub mod keyset;
pub mod postings;
pub mod seek;
pub mod short;
pub mod varint;

pub use postings::{bucket_label, run, Config, Outcome, Row, SUITES};

use crate::measure::Codec;
use std::time::Duration;

/// Every codec of the `postings` and `ints` suites: ours and the peers,
/// family by family (ours first within a family, in the order of
/// [`crate::contenders::all`]).
pub fn contenders() -> Vec<Box<dyn Codec>> {
    let mut all = crate::contenders::all();
    let mut order: Vec<&'static str> = Vec::new();
    for c in &all {
        if !order.contains(&c.family()) {
            order.push(c.family());
        }
    }
    all.extend(crate::peers::all());
    let rank = |f: &str| order.iter().position(|o| *o == f).unwrap_or(order.len());
    // Stable: ours stay before the peers of their family.
    all.sort_by_key(|c| rank(c.family()));
    all
}

/// How a suite times its jobs and seeds its data: timed repetitions (each
/// suite says whether it reports the median or the fastest), the least
/// duration of one repetition, and the seed of the generated data. The
/// command line's `--reps`, `--min-time-ms` and `--seed` set it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Timed repetitions, at least 1.
    pub reps: usize,
    /// Each repetition repeats its pass until it lasts this long.
    pub min_time: Duration,
    /// Seed of the data (and queries).
    pub seed: u64,
}

impl Timing {
    /// `reps` repetitions of at least `ms` milliseconds, seed 1.
    pub fn new(reps: usize, ms: u64) -> Timing {
        Timing {
            reps,
            min_time: Duration::from_millis(ms),
            seed: 1,
        }
    }

    /// One repetition of one pass: the suites' own tests.
    pub fn once(seed: u64) -> Timing {
        Timing {
            reps: 1,
            min_time: Duration::ZERO,
            seed,
        }
    }
}

/// A report's start: the header lines, each ending in a newline.
pub(crate) fn report_text(header: &[String]) -> String {
    header.iter().map(|h| format!("{h}\n")).collect()
}

/// The distinct `keys`, in the order they first appear (a report's
/// columns or sections, in the order the rows were measured).
pub(crate) fn first_seen<'a>(keys: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for k in keys {
        if !seen.contains(&k) {
            seen.push(k);
        }
    }
    seen
}

/// Writes a suite's finished report `text` to `out`.
pub(crate) fn write_report(out: &mut dyn std::io::Write, text: &str) -> Result<(), String> {
    out.write_all(text.as_bytes())
        .map_err(|e| format!("writing the report: {e}"))
}

/// Iterations per timed repetition of a job that took `one` seconds once,
/// so that a repetition lasts about `min_time` (between 1 and `max`).
pub(crate) fn iterations(min_time: Duration, one: f64, max: u64) -> u32 {
    ((min_time.as_secs_f64() / one.max(1e-9)).ceil() as u64).clamp(1, max) as u32
}

/// The timed repetitions of a step's `n` jobs: `reps` rounds over every job,
/// round `rep` starting at job `rep` (mod `n`), so that no job always runs
/// first. Before each round, `progress` gets `at` of the round's place in
/// the last 80% of the step and "`label`: repetition i/reps". `time(j)`
/// times job `j` (and keeps its time).
pub(crate) fn rotate(
    reps: usize,
    n: usize,
    label: &str,
    at: impl Fn(f64) -> f64,
    progress: &mut dyn FnMut(f64, &str),
    mut time: impl FnMut(usize) -> Result<(), String>,
) -> Result<(), String> {
    for rep in 0..reps {
        progress(
            at(0.2 + 0.8 * rep as f64 / reps as f64),
            &format!("{label}: repetition {}/{reps}", rep + 1),
        );
        for j in 0..n {
            time((j + rep) % n)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Op;

    #[test]
    fn all_contenders_round_trip_and_agree() {
        let values: Vec<u32> = (0..1000u32)
            .map(|i| i * i * 37 + (i & 7) * 100_000)
            .collect();
        let mut ids = values.clone();
        ids.sort_unstable();
        let mut reference: std::collections::HashMap<&str, (Vec<u8>, Vec<u8>)> = Default::default();
        for c in contenders() {
            let mut out = vec![0u8; c.max_encoded_len(values.len())];
            let w = c.encode(&values, &mut out).unwrap();
            let plain = out[..w].to_vec();
            let mut back = vec![0u32; values.len()];
            assert_eq!(c.decode(&out, values.len(), &mut back).unwrap(), w);
            assert_eq!(back, values, "{} {}", c.name(), c.kernel());

            // A codec without delta coding says so, and refuses it.
            if !c.supports(Op::EncodeDelta) {
                assert!(!c.supports(Op::DecodeDelta), "{}", c.name());
                assert!(c.encode_delta(&ids, 5, &mut out).is_err());
                let p = reference.get(c.family()).expect("ours come first");
                assert_eq!(&plain, &p.0, "{} {}", c.name(), c.kernel());
                continue;
            }
            let w = c.encode_delta(&ids, 5, &mut out).unwrap();
            let delta = out[..w].to_vec();
            assert_eq!(c.decode_delta(&out, ids.len(), 5, &mut back).unwrap(), w);
            assert_eq!(back, ids, "{} {}", c.name(), c.kernel());
            // A different format (compared for speed only) writes its own bytes.
            if c.own_format() {
                assert!(c.is_peer(), "{}", c.name());
                continue;
            }
            // Same format: every implementation of a family writes the same bytes.
            match reference.get(c.family()) {
                None => {
                    reference.insert(c.family(), (plain, delta));
                }
                Some((p, d)) => {
                    assert_eq!(&plain, p, "{} {}", c.name(), c.kernel());
                    assert_eq!(&delta, d, "{} {}", c.name(), c.kernel());
                }
            }
        }
        assert!(reference.contains_key("varint-gb"));
        #[cfg(feature = "g8iu")]
        assert!(reference.contains_key("varint-g8iu"));
    }

    #[test]
    fn exactly_one_default_kernel_per_family() {
        let all = contenders();
        let mut families: Vec<&str> = all.iter().map(|c| c.family()).collect();
        families.dedup();
        for f in families {
            let defaults = all
                .iter()
                .filter(|c| c.family() == f && c.is_default())
                .count();
            assert_eq!(defaults, 1, "{f}");
            assert!(all
                .iter()
                .any(|c| c.family() == f && !c.is_peer() && c.kernel() == "scalar"));
        }
    }
}
