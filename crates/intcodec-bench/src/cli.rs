//! `intcodec bench`: argument parsing and the run.

use crate::data::{synth, Model, Source};
use crate::report;
use crate::suite::{self, Config};
use crate::sysinfo;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

/// Help text for `intcodec bench --help`.
pub const HELP: &str = "\
intcodec bench: speed of every intcodec kernel and the peers, on the same data

USAGE: intcodec bench [OPTIONS]

Suite `postings` (Stream VByte paper, section 5): posting lists grouped by
length bucket 2^K..2^(K+1)-1, stored delta-coded in chunks of at most 4096
ints, each chunk decoded into one reusable 4096-int buffer. Measured on every
kernel this CPU runs (decode, decode_delta, encode, encode_delta) of each
codec family -- Stream VByte with the C peer lemire/streamvbyte; VByte
(Masked VByte) with the Rust crates prost, integer-encoding, leb128,
varint-simd and unsigned-varint; VarInt-GB and (in builds with the feature
g8iu) VarInt-G8IU -- and memcpy of the same ints. Every measured
pass is checked against the source data. Speeds are medians, in billions of
ints per second (table) or millions (CSV/JSON `mis`).

Suite `keys` (the upscaledb B+-tree key study): for b = 1..24, arrays of 256
sorted ints whose gaps have at most b bits; bits per integer, decode speed,
lower_bound and select speed of BP128 (D1 and lane delta), FOR, SIMD-FOR,
the byte codecs and the bitpacking crate's BitPacker4x (about 30 s; --quick a
few seconds). Honours --quick, --format table|csv, --reps, --min-time-ms,
--seed.

OPTIONS:
  --suite NAME         benchmark suite: postings (default) or keys
  --family LIST        only these codec families, comma separated:
                       streamvbyte, vbyte (default: all)
  --dataset NAME       synthetic collection: clustered (default) or uniform
  --data PATH          read posting lists from a ds2i/PISA .docs file instead
  --quick              small dataset, few repetitions (well under 30 s)
  --format FMT         table (default), csv or json, written to stdout
  --kmin K, --kmax K   buckets to run (default 5..=18; --quick 5..=16;
                       --data: every non-empty bucket)
  --ints N             about N ints per bucket (default 2097152; --quick 262144);
                       with --data, lists beyond N ints per bucket are skipped
  --reps N             timed repetitions per measurement (default 11; --quick 5)
  --min-time-ms MS     each repetition lasts at least MS ms (default 20; --quick 3)
  --seed N             seed of the synthetic collection (default 1)
  --quiet, -q          no progress on stderr
  --help, -h           this help

Options may also be written --name=value.
";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Table,
    Csv,
    Json,
}

#[derive(Debug)]
struct Args {
    help: bool,
    quick: bool,
    quiet: bool,
    format: Format,
    model: Model,
    data: Option<PathBuf>,
    kmin: Option<u32>,
    kmax: Option<u32>,
    ints: Option<u64>,
    reps: Option<usize>,
    min_time_ms: Option<u64>,
    seed: u64,
    families: Vec<String>,
    suite: String,
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("intcodec bench: {flag} needs a number, got {v:?}"))
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        help: false,
        quick: false,
        quiet: false,
        format: Format::Table,
        model: Model::Clustered,
        data: None,
        kmin: None,
        kmax: None,
        ints: None,
        reps: None,
        min_time_ms: None,
        seed: 1,
        families: Vec::new(),
        suite: "postings".to_string(),
    };
    let mut dataset_given = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let takes_value = matches!(
            flag,
            "--suite"
                | "--dataset"
                | "--data"
                | "--format"
                | "--kmin"
                | "--kmax"
                | "--ints"
                | "--reps"
                | "--min-time-ms"
                | "--seed"
                | "--family"
        );
        if !takes_value && inline.is_some() {
            return Err(format!("intcodec bench: {flag} takes no value"));
        }
        let mut value = || -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("intcodec bench: {flag} needs a value")),
            }
        };
        match flag {
            "--help" | "-h" => a.help = true,
            "--quick" => a.quick = true,
            "--quiet" | "-q" => a.quiet = true,
            "--suite" => {
                let v = value()?;
                if !suite::SUITES.contains(&v.as_str()) {
                    return Err(format!(
                        "intcodec bench: unknown suite {v:?}; known suites: {}",
                        suite::SUITES.join(", ")
                    ));
                }
                a.suite = v;
            }
            "--dataset" => {
                let v = value()?;
                a.model = Model::from_name(&v).ok_or_else(|| {
                    format!("intcodec bench: unknown dataset {v:?}; known: clustered, uniform (or --data PATH)")
                })?;
                dataset_given = true;
            }
            "--data" => a.data = Some(PathBuf::from(value()?)),
            "--format" => {
                let v = value()?;
                a.format = match v.as_str() {
                    "table" | "text" => Format::Table,
                    "csv" => Format::Csv,
                    "json" => Format::Json,
                    _ => {
                        return Err(format!(
                            "intcodec bench: unknown format {v:?}; use table, csv or json"
                        ))
                    }
                };
            }
            "--kmin" => a.kmin = Some(number(flag, &value()?)?),
            "--kmax" => a.kmax = Some(number(flag, &value()?)?),
            "--ints" => a.ints = Some(number(flag, &value()?)?),
            "--reps" => a.reps = Some(number(flag, &value()?)?),
            "--min-time-ms" => a.min_time_ms = Some(number(flag, &value()?)?),
            "--seed" => a.seed = number(flag, &value()?)?,
            "--family" => {
                const KNOWN: [&str; 5] = ["streamvbyte", "vbyte", "varint-gb", "bp128", "bp128-8x"];
                for f in value()?.split(',').map(str::trim).filter(|f| !f.is_empty()) {
                    if !KNOWN.contains(&f) {
                        return Err(format!(
                            "intcodec bench: unknown family {f:?}; known: {}",
                            KNOWN.join(", ")
                        ));
                    }
                    a.families.push(f.to_string());
                }
            }
            _ => {
                return Err(format!(
                    "intcodec bench: unknown argument {arg:?} (see intcodec bench --help)"
                ))
            }
        }
    }
    if dataset_given && a.data.is_some() {
        return Err("intcodec bench: give either --dataset or --data, not both".to_string());
    }
    Ok(a)
}

fn config(a: &Args) -> Result<Config, String> {
    let (kmin, kmax, ints, reps, ms) = if a.quick {
        (5, 16, 1 << 18, 5, 3)
    } else {
        (5, 18, 1 << 21, 11, 20)
    };
    let (kmin, kmax) = match &a.data {
        Some(_) => (a.kmin.unwrap_or(0), a.kmax.unwrap_or(31)),
        None => (a.kmin.unwrap_or(kmin), a.kmax.unwrap_or(kmax)),
    };
    if kmin > kmax || kmax > 31 {
        return Err(format!(
            "intcodec bench: bad bucket range --kmin {kmin} --kmax {kmax} (need kmin <= kmax <= 31)"
        ));
    }
    let reps = a.reps.unwrap_or(reps);
    if reps == 0 {
        return Err("intcodec bench: --reps must be at least 1".to_string());
    }
    let source = match &a.data {
        Some(p) => Source::File(p.clone()),
        None => Source::Synthetic {
            model: a.model,
            seed: a.seed,
            universe: synth::DEFAULT_UNIVERSE,
        },
    };
    Ok(Config {
        source,
        kmin,
        kmax,
        ints_per_bucket: a.ints.unwrap_or(ints),
        reps,
        min_time: Duration::from_millis(a.min_time_ms.unwrap_or(ms)),
        families: a.families.clone(),
    })
}

/// Runs `intcodec bench` with `args` (everything after `bench`), writing the
/// report to `out`. Progress goes to stderr (unless `--quiet`).
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = parse(args)?;
    if a.help {
        return out
            .write_all(HELP.as_bytes())
            .map_err(|e| format!("writing help: {e}"));
    }
    if a.suite == "keys" {
        return run_keys(&a, out);
    }
    let cfg = config(&a)?;
    let header = vec![
        format!(
            "intcodec bench: suite postings, {}",
            match &cfg.source {
                Source::File(p) => format!("data {}", p.display()),
                Source::Synthetic { model, .. } => format!("dataset {}", model.name()),
            }
        ),
        format!(
            "cpu: {} ({} logical CPUs)",
            sysinfo::cpu_model(),
            sysinfo::cpus()
        ),
        format!("isas detected: {}", sysinfo::isas()),
        format!("build: {}", sysinfo::build_flags()),
    ];
    let tty = std::io::stderr().is_terminal();
    let quiet = a.quiet;
    let mut progress = |msg: &str| {
        if quiet {
            return;
        }
        let mut e = std::io::stderr().lock();
        if tty {
            let _ = write!(e, "\r\x1b[2K{msg}");
            let _ = e.flush();
        } else if msg.ends_with("preparing") {
            let _ = writeln!(e, "{msg}");
        }
    };
    if !quiet && a.format != Format::Table {
        for h in &header {
            eprintln!("{h}");
        }
    }
    let result = suite::run(&cfg, &mut progress);
    if tty && !quiet {
        eprint!("\r\x1b[2K");
    }
    let outcome = result?;
    let mut header = header;
    header.insert(1, format!("data: {}", outcome.description));
    match a.format {
        Format::Table => report::table(&outcome, &header, out),
        Format::Csv => report::csv(&outcome, out),
        Format::Json => report::json(&outcome, out),
    }?;
    out.flush().map_err(|e| format!("writing the report: {e}"))
}

/// `--suite keys`.
fn run_keys(a: &Args, out: &mut dyn Write) -> Result<(), String> {
    let mut cfg = crate::keys::Config::new(a.quick);
    if let Some(r) = a.reps {
        if r == 0 {
            return Err("intcodec bench: --reps must be at least 1".to_string());
        }
        cfg.reps = r;
    }
    if let Some(ms) = a.min_time_ms {
        cfg.min_time = Duration::from_millis(ms);
    }
    cfg.seed = a.seed;
    if a.format == Format::Json {
        return Err("intcodec bench: --suite keys writes table or csv".to_string());
    }
    let header = vec![
        format!(
            "intcodec bench: suite keys ({} arrays of {} ints per width, {} queries, {} reps)",
            cfg.arrays,
            crate::keys::ARRAY,
            cfg.queries,
            cfg.reps
        ),
        format!(
            "cpu: {} ({} logical CPUs)",
            sysinfo::cpu_model(),
            sysinfo::cpus()
        ),
        format!("isas detected: {}", sysinfo::isas()),
        format!("build: {}", sysinfo::build_flags()),
    ];
    let quiet = a.quiet;
    let tty = std::io::stderr().is_terminal();
    let mut progress = |msg: &str| {
        if quiet || !tty {
            return;
        }
        let mut e = std::io::stderr().lock();
        let _ = write!(e, "\r\x1b[2K{msg}");
        let _ = e.flush();
    };
    let rows = crate::keys::run(&cfg, &mut progress);
    if tty && !quiet {
        eprint!("\r\x1b[2K");
    }
    let rows = rows?;
    match a.format {
        Format::Csv => crate::keys::csv(&rows, out)?,
        _ => crate::keys::table(&rows, &header, out)?,
    }
    out.flush().map_err(|e| format!("writing the report: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::contenders;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn quick_csv_tiny_has_every_kernel_and_peer() {
        let mut out = Vec::new();
        run(
            &args(&[
                "--quick",
                "--format",
                "csv",
                "--kmax",
                "7",
                "--ints=5000",
                "--reps",
                "1",
                "--min-time-ms",
                "0",
                "--quiet",
            ]),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        assert!(header.starts_with("suite,dataset,bucket,codec,kernel,op,ints,bits_per_int,mis"));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        let per_bucket = contenders().len() * 4 + 1;
        assert_eq!(rows.len(), 3 * per_bucket);
        for c in contenders() {
            for op in ["decode", "decode_delta", "encode", "encode_delta"] {
                for k in ["5", "6", "7"] {
                    assert!(
                        rows.iter().any(|r| r[0] == "postings"
                            && r[1] == "clustered"
                            && r[2] == k
                            && r[3] == c.name()
                            && r[4] == c.kernel()
                            && r[5] == op),
                        "missing {} {} {op} {k}",
                        c.name(),
                        c.kernel()
                    );
                }
            }
        }
        #[cfg(feature = "peer-streamvbyte")]
        assert!(rows
            .iter()
            .any(|r| r[3] == "peer:streamvbyte" && r[4] == "c-simd"));
        assert!(rows.iter().any(|r| r[3] == "memcpy" && r[5] == "copy"));
        for r in &rows {
            assert_eq!(r.len(), header.split(',').count());
            let bits: f64 = r[7].parse().unwrap();
            // Byte codecs take at least 10 bits here; bit packing less.
            let low = if r[3].contains("bp128") || r[3].contains("bitpacking") {
                1.0
            } else {
                10.0
            };
            assert!((low..=34.0).contains(&bits), "{r:?}");
        }
    }

    #[test]
    fn family_filter_keeps_one_family() {
        let mut out = Vec::new();
        run(
            &args(&[
                "--family=vbyte",
                "--format",
                "csv",
                "--kmin",
                "6",
                "--kmax",
                "6",
                "--ints",
                "3000",
                "--reps",
                "1",
                "--min-time-ms",
                "0",
                "-q",
            ]),
            &mut out,
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let codecs: Vec<&str> = text
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(3).unwrap())
            .collect();
        assert!(
            codecs.contains(&"vbyte") && codecs.contains(&"memcpy"),
            "{text}"
        );
        assert!(!codecs.contains(&"streamvbyte"), "{text}");
        #[cfg(feature = "peer-varint")]
        assert!(codecs.contains(&"peer:prost"), "{text}");
    }

    #[test]
    fn table_and_json_tiny() {
        for fmt in ["table", "json"] {
            let mut out = Vec::new();
            run(
                &args(&[
                    "--dataset",
                    "uniform",
                    "--format",
                    fmt,
                    "--kmin",
                    "6",
                    "--kmax",
                    "6",
                    "--ints",
                    "3000",
                    "--reps",
                    "1",
                    "--min-time-ms",
                    "0",
                    "-q",
                ]),
                &mut out,
            )
            .unwrap();
            let text = String::from_utf8(out).unwrap();
            if fmt == "table" {
                assert!(text.contains("2^6") && text.contains("cpu:"), "{text}");
            } else {
                assert!(text.contains("\"dataset\": \"uniform\""), "{text}");
            }
        }
    }

    #[test]
    fn bad_arguments_are_errors() {
        let mut out = Vec::new();
        for bad in [
            vec!["--frobnicate"],
            vec!["--suite", "nope"],
            vec!["--format", "xml"],
            vec!["--dataset", "zipf"],
            vec!["--reps"],
            vec!["--reps", "x"],
            vec!["--quick=1"],
            vec!["--kmin", "9", "--kmax", "3"],
            vec!["--dataset", "uniform", "--data", "x.docs"],
            vec!["--family", "lz4"],
        ] {
            let err = run(&args(&bad), &mut out).unwrap_err();
            assert!(!err.contains('\n'), "{err}");
        }
        let err = run(&args(&["--suite", "nope"]), &mut out).unwrap_err();
        assert!(err.contains("postings"));
        assert!(out.is_empty());
        run(&args(&["--help"]), &mut out).unwrap();
        assert!(String::from_utf8(out).unwrap().contains("--quick"));
    }

    #[test]
    fn missing_data_file_is_an_error() {
        let mut out = Vec::new();
        let err = run(&args(&["--data", "/nonexistent/x.docs", "-q"]), &mut out).unwrap_err();
        assert!(err.contains("x.docs"));
    }
}
