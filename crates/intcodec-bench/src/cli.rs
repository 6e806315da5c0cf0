//! `intcodec bench`: argument parsing and the run.

use crate::data::{synth, Model, Source};
use crate::progress::Bar;
use crate::report;
use crate::suites::{self as suite, Config, Timing};
use crate::sysinfo;
use std::io::Write;
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
varint-simd and unsigned-varint; MaskedVByte, FastPFor's VarIntGB and
SIMDBinaryPacking (C/C++); BP128 4x and 8x with the bitpacking crate; BP128
16x (simdcomp's AVX-512 layout, which no peer here writes) against
SIMDBinaryPacking and bitpacking on the same values; VarInt-GB and (in
builds with the feature g8iu) VarInt-G8IU -- and memcpy of the same ints. Every measured
pass is checked against the source data. Speeds are medians, in billions of
ints per second (table) or millions (CSV/JSON `mis`).

Suite `ints`: the postings method on unsorted random u32 by byte width:
arrays of 4096 values of exactly 1, 2, 3 or 4 significant bytes (bucket 1..4)
or of a random width per value (bucket 0, mixed), about --ints values per
width; plain decode and encode of every codec and kernel, and memcpy.
With --suite ints, --kmin/--kmax select widths (default 0..4); sizes,
repetitions and --quick as postings.

Suite `keys` (the upscaledb B+-tree key study): for b = 1..24, arrays of 256
sorted ints whose gaps have at most b bits; bits per integer, decode speed,
lower_bound and select speed of BP128 (D1 and lane delta), FOR, SIMD-FOR,
the byte codecs and the bitpacking crate's BitPacker4x (about 30 s; --quick a
few seconds). Honours --quick, --format table|csv, --reps, --min-time-ms,
--seed.

Suite `keyset`: intcodec::keys::KeySet (compressed ordered set of u32, one
row per block codec) against roaring (RoaringBitmap, optimized), BTreeSet
and a sorted Vec on the shared Roaring sets, frequent europarl posting lists
and a synthetic set of 10^7 keys (--ints N: N keys, e.g. 100000000): sizes,
build, contains, lower_bound, iteration, ranges, insert/remove,
intersection, union, and the issue's targets with a verdict. Honours
--quick (a few seconds), --reps, --min-time-ms, --seed, --ints, --format.

Suite `seek` (Stream VByte paper, Fig. 6): 64 arrays of 256 sorted u32 per
bit width b = 1..24 (deltas random in [0, 2^b)), delta-coded; 4096 random
seeks (first value >= a target in range) and selects (value at a random
index) per pass, on every select/seek kernel of Stream VByte, VByte and
VarInt-GB; each pass checked against binary search on the plain arrays. The
table gives millions of operations per second and the ratios Stream VByte /
VByte (scalar) and / Masked VByte; in CSV/JSON `bucket` is b, `op` is seek or
select, `ints` operations per pass and `mis` millions of operations per
second. Options that apply: --family, --kmin/--kmax (the range of b, default
1..24), --reps (default 5; --quick 3), --min-time-ms (default 8; --quick 2),
--seed, --format, --quiet, --quick (about 3 s; the default run about 25 s).

Suite `short`: nanoseconds per decode of one list of 1, 2, 4, ..., 64 ints
(512 ClusterData lists per length), our default kernels' checked decode
against the C/C++ references (their loop over lists runs in C); every pass
checked. About 5 s; --quick about 2 s. Honours --quick, --reps (default 9;
--quick 5), --min-time-ms (default 5; --quick 2), --seed, --format.

OPTIONS:
  --suite NAME         one suite: postings, ints, keys, keyset, seek, varint or short (all
                       in turn; with --data, postings). varint: single
                       LEB128 values as varint-simd's own benchmark (random
                       u8/u16/u32/u64, decode and encode, millions per second,
                       with varint-simd built +ssse3 and native, prost,
                       integer-encoding, leb128, unsigned-varint); it takes
                       --quick, --reps, --min-time-ms, --seed, --format,
                       --values; in CSV/JSON its `bucket` is the type's width
                       and `mis` millions of values per second
  --plot FILE          also draw the papers' figures of this run: Fig. 5a
                       (delta decode speed vs bits/int), 5b (extra bits over
                       VByte), 6a/6b (seek/select vs b); FILE.svg, or
                       FILE.png (needs rsvg-convert: scripts/deps.sh --plots)
  --record DIR         also write the run's CSV to DIR/<cpu>/<date>.csv
  --csv FILE           also write the run's CSV to FILE (with --format table)
  --values KIND        varint suite values: bounded (default; uniform over
                       the type, as varint-simd's benchmark: mostly the
                       longest length) or mixed (a random bit width per
                       value, so lengths vary from value to value)
  --family LIST        only these codec families, comma separated:
                       streamvbyte, vbyte, varint-gb, bp128, bp128-8x,
                       bp128-16x (default: all)
  --dataset NAME       synthetic collection: clustered (default) or uniform
  --data PATH          read posting lists from a file instead: ds2i/PISA .docs
                       (or .pos, a positional index in the same layout),
                       Roaring .zip, text (.txt/.csv: a list per line) or
                       plain little-endian u32 (any other name: one list)
  --quick              small datasets, few repetitions (every suite: under 30 s;
                       the default run of every suite: under 3 minutes)
  --format FMT         table (default), csv or json, written to stdout
  --kmin K, --kmax K   buckets to run (default 5..=16; --quick 5..=12;
                       --data: every non-empty bucket)
  --ints N             about N ints per bucket (default 1048576; --quick 65536);
                       with --data, lists beyond N ints per bucket are skipped
  --reps N             timed repetitions per measurement (postings: default 5,
                       --quick 3)
  --min-time-ms MS     each repetition lasts at least MS ms (postings: default
                       10, --quick 2)
  --seed N             seed of the synthetic collection (default 1)
  --quiet, -q          no progress bar on stderr
  --help, -h           this help

Options may also be written --name=value.
";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Table,
    Csv,
    Json,
}

#[derive(Clone, Debug)]
struct Args {
    /// `None`: every suite (postings only with --data).
    suite: Option<String>,
    plot: Option<PathBuf>,
    record: Option<PathBuf>,
    csv: Option<PathBuf>,
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
    values: String,
}

impl Args {
    /// A suite's timing: timed repetitions (`--reps`, at least 1, else the
    /// suite's), the minimum time of one (`--min-time-ms`, else the
    /// suite's) and `--seed`.
    fn timing(&self, suite: Timing) -> Result<Timing, String> {
        let reps = self.reps.unwrap_or(suite.reps);
        if reps == 0 {
            return Err("intcodec bench: --reps must be at least 1".to_string());
        }
        Ok(Timing {
            reps,
            min_time: self
                .min_time_ms
                .map_or(suite.min_time, Duration::from_millis),
            seed: self.seed,
        })
    }
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("intcodec bench: {flag} needs a number, got {v:?}"))
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        suite: None,
        plot: None,
        record: None,
        csv: None,
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
        values: "bounded".to_string(),
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
                | "--plot"
                | "--record"
                | "--csv"
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
                | "--values"
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
            "--plot" => a.plot = Some(PathBuf::from(value()?)),
            "--record" => a.record = Some(PathBuf::from(value()?)),
            "--csv" => a.csv = Some(PathBuf::from(value()?)),
            "--quiet" | "-q" => a.quiet = true,
            "--suite" => {
                let v = value()?;
                if v != "all" && !suite::SUITES.contains(&v.as_str()) {
                    return Err(format!(
                        "intcodec bench: unknown suite {v:?}; known suites: {}, all",
                        suite::SUITES.join(", ")
                    ));
                }
                a.suite = Some(v).filter(|v| v != "all");
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
            "--values" => {
                let v = value()?;
                if !["bounded", "mixed"].contains(&v.as_str()) {
                    return Err(format!(
                        "intcodec bench: unknown --values {v:?}; known: bounded, mixed"
                    ));
                }
                a.values = v;
            }
            "--family" => {
                const KNOWN: [&str; 6] = [
                    "streamvbyte",
                    "vbyte",
                    "varint-gb",
                    "bp128",
                    "bp128-8x",
                    "bp128-16x",
                ];
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
    // Defaults sized so that every suite together (the main job) takes
    // under 3 minutes on a 2-core machine, `--quick` under 30 s.
    let (kmin, kmax, ints, reps, ms) = if a.quick {
        (5, 12, 1 << 16, 3, 2)
    } else {
        (5, 16, 1 << 20, 5, 10)
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
    let Timing { reps, min_time, .. } = a.timing(Timing::new(reps, ms))?;
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
        min_time,
        families: a.families.clone(),
    })
}

/// Runs `intcodec bench` with `args` (everything after `bench`), writing the
/// report to `out`. Progress goes to stderr (unless `--quiet`). Without
/// `--suite`, every suite runs in turn (only `postings` with `--data`); CSV
/// and JSON then hold the rows of all of them, and `--plot` / `--record`
/// write the figures and the CSV record of the whole run.
pub fn run(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let a = parse(args)?;
    if a.help {
        return out
            .write_all(HELP.as_bytes())
            .map_err(|e| format!("writing help: {e}"));
    }
    if a.format == Format::Table {
        // The terminal report: no line wider than report::WIDTH.
        let mut fit = report::Fit::new(out);
        run_parsed(&a, &mut fit)?;
        return fit.flush().map_err(|e| format!("writing the report: {e}"));
    }
    run_parsed(&a, out)
}

fn run_parsed(a: &Args, out: &mut dyn Write) -> Result<(), String> {
    let suites: Vec<&str> = match (&a.suite, &a.data) {
        (Some(s), _) => vec![s.as_str()],
        (None, Some(_)) => vec!["postings"],
        (None, None) => suite::SUITES.to_vec(),
    };
    // Check every suite's options before the first one runs.
    for s in &suites {
        match *s {
            "postings" => config(a).map(|_| ())?,
            "ints" => ints_config(a).map(|_| ())?,
            "seek" => seek_config(a).map(|_| ())?,
            _ => {}
        }
    }
    let mut rows = Vec::new();
    let mut dataset = String::new();
    for (i, s) in suites.iter().enumerate() {
        if i > 0 && a.format == Format::Table {
            writeln!(out).map_err(|e| format!("writing the report: {e}"))?;
        }
        let mut bar = Bar::new(&format!("[{}/{} {s}]", i + 1, suites.len()), a.quiet);
        let (r, d) = match *s {
            "postings" => run_lists(a, config(a)?, out, &mut bar)?,
            "ints" => run_lists(a, ints_config(a)?, out, &mut bar)?,
            "seek" => run_seek(a, out, &mut bar)?,
            "keys" => run_keys(a, out, &mut bar)?,
            "keyset" => run_keyset(a, out, &mut bar)?,
            "varint" => run_varint(a, out, &mut bar)?,
            "short" => run_short(a, out, &mut bar)?,
            other => return Err(format!("intcodec bench: suite {other:?} is not runnable")),
        };
        if dataset.is_empty() {
            dataset = d;
        }
        rows.extend(r);
    }
    match a.format {
        Format::Table => report::summary_table(&rows, out)?,
        Format::Csv => report::csv_rows(&rows, out)?,
        Format::Json => report::json_rows(&rows, out)?,
    }
    out.flush()
        .map_err(|e| format!("writing the report: {e}"))?;
    let note = |msg: String| {
        if !a.quiet {
            eprintln!("{msg}");
        }
    };
    if let Some(path) = &a.plot {
        let title = format!(
            "intcodec bench on {} ({} logical CPUs), {dataset}",
            sysinfo::cpu_model(),
            sysinfo::cpus()
        );
        let svg = crate::report::plot::svg(&rows, &title)
            .ok_or("intcodec bench: --plot: this run measured nothing the figures show")?;
        crate::report::record::write_figure(path, &svg)?;
        note(format!("figures written to {}", path.display()));
    }
    if let Some(path) = &a.csv {
        let mut csv = Vec::new();
        report::csv_rows(&rows, &mut csv)?;
        std::fs::write(path, &csv)
            .map_err(|e| format!("intcodec bench: writing {}: {e}", path.display()))?;
        note(format!("CSV written to {}", path.display()));
    }
    if let Some(dir) = &a.record {
        let mut csv = Vec::new();
        report::csv_rows(&rows, &mut csv)?;
        let file = crate::report::record::write_record(dir, &sysinfo::cpu_model(), &csv)?;
        note(format!("CSV record written to {}", file.display()));
    }
    Ok(())
}

/// What running one suite gives: its rows (in the common schema) and its
/// dataset name.
type SuiteRun = Result<(Vec<suite::Row>, String), String>;

/// The report header on stderr, for a report not in table form (the table
/// prints it itself).
fn echo_header(a: &Args, header: &[String]) {
    if !a.quiet && a.format != Format::Table {
        for h in header {
            eprintln!("{h}");
        }
    }
}

/// The machine lines every suite's report starts with.
fn machine_header() -> Vec<String> {
    vec![
        format!(
            "cpu: {} ({} logical CPUs)",
            sysinfo::cpu_model(),
            sysinfo::cpus()
        ),
        format!("isas detected: {}", sysinfo::isas()),
        format!("build: {}", sysinfo::build_flags()),
    ]
}

/// The `ints` suite's configuration: with `--suite ints`, `--kmin/--kmax`
/// select byte widths (0 = mixed), default 0..=4 (in a run of every suite
/// they are postings' buckets, and ints runs every width); sizes and
/// repetitions as `postings`.
fn ints_config(a: &Args) -> Result<Config, String> {
    if a.data.is_some() {
        return Err(
            "intcodec bench: --suite ints generates its values; --data does not apply".to_string(),
        );
    }
    let own = a.suite.as_deref() == Some("ints");
    let (lo, hi) = if own {
        (a.kmin.unwrap_or(0), a.kmax.unwrap_or(4))
    } else {
        (0, 4)
    };
    if lo > hi || hi > 4 {
        return Err(format!(
            "intcodec bench: --suite ints: bad byte widths --kmin {lo} --kmax {hi} (need kmin <= kmax <= 4; 0 = mixed)"
        ));
    }
    let base = config(&Args {
        kmin: None,
        kmax: None,
        ..a.clone()
    })?;
    Ok(Config {
        source: Source::Unsorted { seed: a.seed },
        kmin: lo,
        kmax: hi,
        ..base
    })
}

/// Runs a list-based suite (`postings`, or `ints` on unsorted values by
/// byte width) and prints its table (with `--format table`); returns its
/// rows and dataset name.
fn run_lists(a: &Args, cfg: Config, out: &mut dyn Write, bar: &mut Bar) -> SuiteRun {
    let mut header = vec![match &cfg.source {
        Source::File(p) => format!("intcodec bench: suite postings, data {}", p.display()),
        Source::Synthetic { model, .. } => {
            format!("intcodec bench: suite postings, dataset {}", model.name())
        }
        Source::Unsorted { .. } => format!(
            "intcodec bench: suite ints, dataset {}",
            crate::data::synth::UNSORTED
        ),
    }];
    header.extend(machine_header());
    echo_header(a, &header);
    let outcome = bar.run(|p| suite::run(&cfg, p))?;
    header.insert(1, format!("data: {}", outcome.description));
    if a.format == Format::Table {
        report::table(&outcome, &header, out)?;
    }
    Ok((outcome.rows, outcome.dataset))
}

/// The `seek` suite's configuration from the arguments.
fn seek_config(a: &Args) -> Result<crate::suites::seek::Config, String> {
    if a.data.is_some() {
        return Err(
            "intcodec bench: --suite seek generates its arrays; --data does not apply".to_string(),
        );
    }
    let (reps, ms) = if a.quick { (3, 2) } else { (5, 8) };
    let (lo, hi) = (a.kmin.unwrap_or(1), a.kmax.unwrap_or(24));
    if lo == 0 || lo > hi || hi > 24 {
        return Err(format!(
            "intcodec bench: --suite seek: bad bit range --kmin {lo} --kmax {hi} (need 1 <= kmin <= kmax <= 24)"
        ));
    }
    Ok(crate::suites::seek::Config {
        bits: (lo..=hi).collect(),
        timing: a.timing(Timing::new(reps, ms))?,
        families: a.families.clone(),
    })
}

fn run_seek(a: &Args, out: &mut dyn Write, bar: &mut Bar) -> SuiteRun {
    let cfg = seek_config(a)?;
    let mut header = vec!["intcodec bench: suite seek (Stream VByte paper Fig. 6)".to_string()];
    header.extend(machine_header());
    echo_header(a, &header);
    let outcome = bar.run(|p| crate::suites::seek::run(&cfg, p))?;
    header.insert(1, format!("data: {}", outcome.description));
    if a.format == Format::Table {
        crate::suites::seek::table(&outcome, &header, out)?;
    }
    Ok((outcome.rows, outcome.dataset))
}

/// `--suite short`.
fn run_short(a: &Args, out: &mut dyn Write, bar: &mut Bar) -> SuiteRun {
    use crate::suites::short;
    let mut header = vec![format!(
        "intcodec bench: suite short (ns per decode of one list; {} ClusterData lists per length{})",
        short::LISTS,
        if a.quick { ", --quick" } else { "" }
    )];
    header.extend(machine_header());
    let mut cfg = short::Config::new(a.quick);
    cfg.timing = a.timing(cfg.timing)?;
    let rows = bar.run(|p| short::run(&cfg, p))?;
    if a.format == Format::Table {
        short::table(&rows, &header, out)?;
    }
    Ok((rows, "short lists".to_string()))
}

/// `--suite varint`.
fn run_varint(a: &Args, out: &mut dyn Write, bar: &mut Bar) -> SuiteRun {
    use crate::suites::varint;
    let mut cfg = varint::Config::new(a.quick);
    cfg.timing = a.timing(cfg.timing)?;
    cfg.mixed = a.values == "mixed";
    let mut header = vec![format!(
        "intcodec bench: suite varint (varint-simd's benchmark: {}, sequences of {}){}",
        if cfg.mixed {
            "--values mixed: each value of a random bit width 0..=type bits"
        } else {
            "random values bounded by each type"
        },
        varint::SEQ,
        if a.quick { ", --quick" } else { "" }
    )];
    header.extend(machine_header());
    // The default varint kernel, before the build line.
    header.insert(
        header.len() - 1,
        format!(
            "varint kernel: {} (default)",
            intcodec::varint::Varint::new().kernel()
        ),
    );
    let outcome = bar.run(|p| varint::run(&cfg, p))?;
    if a.format == Format::Table {
        varint::table(&outcome, &header, out)?;
    }
    // In the common schema: `bucket` is the type's width in bits, `ints`
    // the values per second measured over (one million, so `mis` is the
    // suite's millions of values per second), `bits_per_int` 0 (not
    // measured per row; the table's data lines give bytes per value).
    let dataset = if cfg.mixed { "mixed" } else { "bounded" };
    let rows = outcome
        .rows
        .iter()
        .map(|r| suite::Row {
            suite: "varint".to_string(),
            dataset: dataset.to_string(),
            bucket: r.ty.trim_start_matches(['u', 'i']).parse().unwrap_or(0),
            lists: 0,
            codec: r.codec.clone(),
            kernel: r.kernel.clone(),
            family: "varint".to_string(),
            peer: r.peer,
            default_kernel: !r.peer && r.codec.starts_with("intcodec varint::"),
            op: crate::measure::Op::Named(r.op),
            ints: 1_000_000,
            bits_per_int: 0.0,
            seconds: 1.0 / r.mvs,
            seconds_min: 1.0 / r.best,
            seconds_max: 1.0 / r.mvs,
            reps: cfg.timing.reps,
        })
        .collect();
    Ok((rows, format!("varint {dataset}")))
}

/// `--suite keyset`.
fn run_keyset(a: &Args, out: &mut dyn Write, bar: &mut Bar) -> SuiteRun {
    use crate::suites::keyset;
    let mut cfg = keyset::Config::new(a.quick);
    cfg.reps = a.reps.unwrap_or(cfg.reps).max(1);
    cfg.seed = a.seed;
    cfg.synthetic = a.ints.map_or(cfg.synthetic, |n| n as usize);
    if let Some(ms) = a.min_time_ms {
        cfg.min_time = ms as f64 / 1e3;
    }
    let mut header = vec![format!(
        "intcodec bench: suite keyset ({} queries; fastest of {} reps of >= {} ms)",
        cfg.queries,
        cfg.reps,
        cfg.min_time * 1e3
    )];
    header.extend(machine_header());
    let (rows, notes) = bar.run(|p| keyset::run(&cfg, p))?;
    if a.format == Format::Table {
        keyset::table(&rows, &notes, &header, out)?;
    }
    Ok((keyset::common_rows(&rows, cfg.reps), "keyset".to_string()))
}

/// `--suite keys`.
fn run_keys(a: &Args, out: &mut dyn Write, bar: &mut Bar) -> SuiteRun {
    let mut cfg = crate::suites::keys::Config::new(a.quick);
    cfg.timing = a.timing(cfg.timing)?;
    let mut header = vec![format!(
        "intcodec bench: suite keys ({} arrays of {} ints per width, {} queries, {} reps)",
        cfg.arrays,
        crate::suites::keys::ARRAY,
        cfg.queries,
        cfg.timing.reps
    )];
    header.extend(machine_header());
    let rows = bar.run(|p| crate::suites::keys::run(&cfg, p))?;
    if a.format == Format::Table {
        crate::suites::keys::table(&rows, &header, out)?;
    }
    // In the common schema: `bucket` is b; decode in ints per second,
    // lower_bound and select in operations per second (`ints` = one
    // million, so `mis` is the suite's figure).
    let mut common = Vec::new();
    for r in &rows {
        let measures = [
            (crate::measure::Op::Decode, Some(r.decode_bis * 1e3)),
            (crate::measure::Op::Named("lower_bound"), r.lower_bound_mops),
            (crate::measure::Op::Named("select"), r.select_mops),
        ];
        for (op, mis) in measures {
            let Some(mis) = mis.filter(|m| *m > 0.0) else {
                continue;
            };
            common.push(suite::Row {
                suite: "keys".to_string(),
                dataset: "keys".to_string(),
                bucket: r.b,
                lists: cfg.arrays,
                codec: r.codec.clone(),
                kernel: r.kernel.clone(),
                family: "keys".to_string(),
                peer: r.peer,
                default_kernel: !r.peer,
                op,
                ints: 1_000_000,
                bits_per_int: r.bits_per_int,
                seconds: 1.0 / mis,
                seconds_min: 1.0 / mis,
                seconds_max: 1.0 / mis,
                reps: cfg.timing.reps,
            });
        }
    }
    Ok((common, "keys".to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Op;
    use crate::suites::contenders;

    #[test]
    fn seek_suite_csv_has_seek_and_select_rows() {
        let text = run_tiny(&[
            "--suite", "seek", "--quick", "--kmin", "7", "--kmax", "8", "--format", "csv",
        ]);
        assert_eq!(text.lines().next().unwrap(), report::CSV_HEADER);
        let rows = csv_rows(&text);
        for fam in ["streamvbyte", "vbyte", "varint-gb"] {
            for op in ["seek", "select"] {
                for b in ["7", "8"] {
                    assert!(
                        rows.iter().any(|r| r[0] == "seek"
                            && r[1] == "fig6"
                            && r[2] == b
                            && r[3] == fam
                            && r[5] == op),
                        "missing {fam} {op} {b}: {text}"
                    );
                }
            }
        }
        let mut out = Vec::new();
        for bad in [
            vec!["--suite", "seek", "--kmax", "25"],
            vec!["--suite", "seek", "--kmin", "0"],
            vec!["--suite", "seek", "--data", "x.docs"],
        ] {
            assert!(run(&args(&bad), &mut out).is_err(), "{bad:?}");
        }
    }

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// The output of a run with arguments `a`, one repetition, no minimum
    /// time, quiet.
    fn run_tiny(a: &[&str]) -> String {
        let mut all = args(a);
        all.extend(args(&["--reps", "1", "--min-time-ms", "0", "--quiet"]));
        let mut out = Vec::new();
        run(&all, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// [`run_tiny`] of the one bucket 2^6 (3000 ints), with `a`.
    fn run_one_bucket(a: &[&str]) -> String {
        run_tiny(&[a, &["--kmin", "6", "--kmax", "6", "--ints", "3000"]].concat())
    }

    /// The rows of CSV `text` after its header, split into fields.
    fn csv_rows(text: &str) -> Vec<Vec<&str>> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect()
    }

    #[test]
    fn plot_and_record_of_a_seek_run() {
        let dir = std::env::temp_dir().join(format!("intcodec-cli-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let svg = dir.join("fig.svg");
        let rec = dir.join("records");
        run_tiny(&[
            "--suite",
            "seek",
            "--quick",
            "--kmin",
            "7",
            "--kmax",
            "8",
            "--plot",
            svg.to_str().unwrap(),
            "--record",
            rec.to_str().unwrap(),
        ]);
        let fig = std::fs::read_to_string(&svg).unwrap();
        assert!(fig.starts_with("<svg") && fig.contains("Fig. 6a") && fig.contains("Fig. 6b"));
        let cpu_dir = std::fs::read_dir(&rec)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let csv_file = std::fs::read_dir(&cpu_dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let csv = std::fs::read_to_string(&csv_file).unwrap();
        assert!(csv.starts_with(report::CSV_HEADER));
        assert!(csv.lines().skip(1).all(|l| l.starts_with("seek,")), "{csv}");
        assert!(csv.lines().count() > 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn quick_csv_tiny_has_every_kernel_and_peer() {
        let text = run_tiny(&[
            "--suite",
            "postings",
            "--quick",
            "--format",
            "csv",
            "--kmax",
            "7",
            "--ints=5000",
        ]);
        let header = text.lines().next().unwrap();
        assert!(header.starts_with("suite,dataset,bucket,codec,kernel,op,ints,bits_per_int,mis"));
        let rows = csv_rows(&text);
        let per_bucket = contenders()
            .iter()
            .map(|c| Op::CODEC_OPS.iter().filter(|&&op| c.supports(op)).count())
            .sum::<usize>()
            + 1;
        assert_eq!(rows.len(), 3 * per_bucket);
        for c in contenders() {
            for op in Op::CODEC_OPS.into_iter().filter(|&op| c.supports(op)) {
                let op = op.name();
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
            let low = if r[3].contains("bp128")
                || r[3].contains("bitpacking")
                || r[3].contains("fastpfor")
            {
                1.0
            } else {
                10.0
            };
            assert!((low..=34.0).contains(&bits), "{r:?}");
        }
    }

    #[test]
    fn family_filter_keeps_one_family() {
        let text = run_one_bucket(&["--suite", "postings", "--family=vbyte", "--format", "csv"]);
        let codecs: Vec<&str> = csv_rows(&text).into_iter().map(|r| r[3]).collect();
        assert!(
            codecs.contains(&"vbyte") && codecs.contains(&"memcpy"),
            "{text}"
        );
        assert!(!codecs.contains(&"streamvbyte"), "{text}");
        #[cfg(feature = "peer-varint")]
        assert!(codecs.contains(&"peer:prost"), "{text}");
    }

    /// Every suite in both formats. `--quick`: the keyset suite's full
    /// Roaring sets took 19 s per format; the quick sets show the same shape.
    #[test]
    fn table_and_json_tiny() {
        for fmt in ["table", "json"] {
            let text = run_one_bucket(&["--quick", "--dataset", "uniform", "--format", fmt]);
            if fmt == "table" {
                assert!(text.contains("2^6") && text.contains("cpu:"), "{text}");
            } else {
                assert!(text.contains("\"dataset\": \"uniform\""), "{text}");
            }
        }
    }

    #[test]
    fn ints_suite_measures_plain_ops_by_byte_width() {
        let text = run_tiny(&[
            "--suite", "ints", "--kmin", "0", "--kmax", "2", "--ints", "5000", "--format", "csv",
        ]);
        let rows = csv_rows(&text);
        assert!(!rows.is_empty());
        let mut widths = std::collections::BTreeSet::new();
        for r in &rows {
            assert_eq!((r[0], r[1]), ("ints", "random-bytes"), "{r:?}");
            assert!(["decode", "encode", "copy"].contains(&r[5]), "{r:?}");
            widths.insert(r[2]);
        }
        assert_eq!(widths.into_iter().collect::<Vec<_>>(), ["0", "1", "2"]);
        // Stream VByte stores a 1-byte value in 8 + 2 bits, a 2-byte one in 18.
        let bits = |w: &str| -> f64 {
            rows.iter()
                .find(|r| r[2] == w && r[3] == "streamvbyte" && r[5] == "decode")
                .map(|r| r[7].parse().unwrap())
                .unwrap()
        };
        assert!((bits("1") - 10.0).abs() < 0.01 && (bits("2") - 18.0).abs() < 0.01);
        for bad in [["--kmax", "5"], ["--data", "x.docs"]] {
            let mut a = vec!["--suite", "ints"];
            a.extend(bad);
            assert!(run(&args(&a), &mut Vec::new()).is_err(), "{a:?}");
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
