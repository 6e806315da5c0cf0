//! The `seek` suite: the Stream VByte paper's Fig. 6 (§5) — random seek and
//! random select on arrays of 256 sorted integers whose deltas are random in
//! `[0, 2^b)`, `b = 1..=24`, delta-coded; operations per second for every
//! kernel of Stream VByte, VByte (scalar = the paper's "VByte", SIMD =
//! Masked VByte) and VarInt-GB.
//!
//! For each `b`, [`ARRAYS`] arrays are generated (seeded) and encoded by
//! every codec; a pass runs [`OPS`] operations, each on the next array (so
//! the arrays rotate through L1 as in a real index) with a precomputed
//! random target (seek: a value in `[first, last]` of that array) or index
//! (select). Every pass adds up the answers and compares the sum with the
//! one computed from the plain arrays (binary search / indexing), so a
//! wrong kernel cannot look fast. Jobs are calibrated to `min_time` per
//! repetition and run `reps` times in rotating order; the median is
//! reported.
//!
//! Rows use the bench CSV schema with `suite = seek`, `dataset = fig6`,
//! `bucket = b`, `op = seek | select`, `ints` = operations per pass (so
//! `mis` is millions of operations per second) and `lists` = arrays.
//! There is no peer: none of the peer libraries has select or seek.

use super::{Outcome, Row};
use crate::measure::Op;
use intcodec::streamvbyte::StreamVByte;
use intcodec::varint_gb::VarIntGb;
use intcodec::vbyte::VByte;
use intcodec::Isa;
#[allow(unused_imports)]
use intcodec::{IntCodec, KernelChoice, SortedCodec};
use intcodec_testkit::SplitMix64;
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

/// Values per array (paper: 256).
pub const LEN: usize = 256;
/// Arrays per bit width.
pub const ARRAYS: usize = 64;
/// Operations per pass.
pub const OPS: usize = 4096;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Bit widths of the deltas.
    pub bits: Vec<u32>,
    /// Repetitions per job, their least duration, the seed of the arrays and
    /// queries.
    pub timing: super::Timing,
    /// Only these families (`streamvbyte`, `vbyte`, `varint-gb`); empty = all.
    pub families: Vec<String>,
}

/// One codec under test: a family, a kernel, and its ops.
#[derive(Clone, Copy)]
enum Contender {
    Svb(StreamVByte),
    Vb(VByte),
    Gb(VarIntGb),
    /// The baseline a seek must beat: Stream VByte's whole array decoded
    /// (checked, delta) into a buffer, then binary-searched or indexed.
    SvbDecoded(StreamVByte),
}

/// The family name of [`Contender::SvbDecoded`] (selected by
/// `--family streamvbyte`: see [`Contender::selected_by`]).
const DECODED: &str = "svb-decode-search";

impl Contender {
    fn family(&self) -> &'static str {
        match self {
            Contender::Svb(_) => "streamvbyte",
            Contender::Vb(_) => "vbyte",
            Contender::Gb(_) => "varint-gb",
            Contender::SvbDecoded(_) => DECODED,
        }
    }
    /// The `--family` that selects this contender: its own, except the
    /// decode baseline, which goes with the Stream VByte kernels it is
    /// compared with.
    fn selected_by(&self) -> &'static str {
        match self {
            Contender::SvbDecoded(_) => "streamvbyte",
            c => c.family(),
        }
    }
    fn isa(&self) -> Isa {
        match self {
            Contender::Svb(c) | Contender::SvbDecoded(c) => c.isa(),
            Contender::Vb(c) => c.isa(),
            Contender::Gb(c) => c.isa(),
        }
    }
    fn default_isa(&self) -> Isa {
        match self {
            Contender::Svb(_) | Contender::SvbDecoded(_) => StreamVByte::new().isa(),
            Contender::Vb(_) => VByte::new().isa(),
            Contender::Gb(_) => VarIntGb::new().isa(),
        }
    }
    fn encode(&self, v: &[u32]) -> Vec<u8> {
        match self {
            Contender::Svb(c) | Contender::SvbDecoded(c) => c.encode_delta_to_vec(v, 0),
            Contender::Vb(c) => c.encode_delta_to_vec(v, 0),
            Contender::Gb(c) => c.encode_delta_to_vec(v, 0),
        }
    }
    #[inline(always)]
    fn select(&self, b: &[u8], i: usize) -> Option<u32> {
        let r = match self {
            Contender::Svb(c) => c.select(b, LEN, 0, i),
            Contender::Vb(c) => c.select(b, LEN, 0, i),
            Contender::Gb(c) => c.select(b, LEN, 0, i),
            Contender::SvbDecoded(c) => decoded(c, b, |buf| buf.get(i).copied()),
        };
        r.ok().flatten()
    }
    #[inline(always)]
    fn seek(&self, b: &[u8], t: u32) -> Option<(usize, u32)> {
        let r = match self {
            Contender::Svb(c) => c.lower_bound(b, LEN, 0, t),
            Contender::Vb(c) => c.lower_bound(b, LEN, 0, t),
            Contender::Gb(c) => c.lower_bound(b, LEN, 0, t),
            Contender::SvbDecoded(c) => decoded(c, b, |buf| {
                let p = buf.partition_point(|&v| v < t);
                buf.get(p).map(|&v| (p, v))
            }),
        };
        r.ok().flatten()
    }
}

/// `f` on the `LEN` values of the delta-coded array `b`, decoded (the
/// seek suite's baseline).
#[inline(always)]
fn decoded<R>(
    c: &StreamVByte,
    b: &[u8],
    f: impl FnOnce(&[u32; LEN]) -> R,
) -> Result<R, intcodec::DecodeError> {
    let mut buf = [0u32; LEN];
    c.decode_delta(b, LEN, 0, &mut buf).map(|_| f(&buf))
}

/// The kernels measured: every ISA with its own select/seek code, and the
/// codec's default kernel (on a CPU with AVX-512, Stream VByte's default is
/// its AVX-512 set, whose select/seek are the AVX2 kernels).
fn contenders(families: &[String]) -> Vec<Contender> {
    /// `codec` on scalar, on `sse` (its 128-bit select/seek level), on
    /// AVX2 and on its own (default) kernel: those this build and CPU have,
    /// each kernel once.
    fn add<C: KernelChoice>(v: &mut Vec<Contender>, codec: C, sse: Isa, wrap: fn(C) -> Contender) {
        let all = [Isa::Scalar, sse, Isa::Avx2, codec.isa()];
        for (i, isa) in all.into_iter().enumerate() {
            if !all[..i].contains(&isa) {
                v.extend(codec.with_isa(isa).map(wrap));
            }
        }
    }
    let mut v = Vec::new();
    add(&mut v, StreamVByte::new(), Isa::Sse41, Contender::Svb);
    add(&mut v, VByte::new(), Isa::Sse41, Contender::Vb);
    add(&mut v, VarIntGb::new(), Isa::Ssse3, Contender::Gb);
    v.push(Contender::SvbDecoded(StreamVByte::new()));
    v.retain(|c| families.is_empty() || families.iter().any(|f| f == c.selected_by()));
    v
}

/// The arrays of one bit width and the queries.
struct Data {
    arrays: Vec<Vec<u32>>,
    /// Per operation: (array, seek target, select index).
    queries: Vec<(usize, u32, usize)>,
}

fn data(b: u32, seed: u64) -> Data {
    let mut rng = SplitMix64::new(seed ^ u64::from(b).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let arrays: Vec<Vec<u32>> = (0..ARRAYS)
        .map(|_| {
            let mut acc = 0u32;
            (0..LEN)
                .map(|_| {
                    acc = acc.wrapping_add((rng.next_u64() as u32) & ((1u32 << b) - 1));
                    acc
                })
                .collect()
        })
        .collect();
    let queries = (0..OPS)
        .map(|k| {
            let a = k % ARRAYS;
            let (lo, hi) = (arrays[a][0], arrays[a][LEN - 1]);
            let t = lo + (rng.next_u64() % (u64::from(hi - lo) + 1)) as u32;
            (a, t, (rng.next_u64() % LEN as u64) as usize)
        })
        .collect();
    Data { arrays, queries }
}

/// The expected sums of a seek pass and a select pass.
fn expected(d: &Data) -> (u64, u64) {
    let mut seek = 0u64;
    let mut select = 0u64;
    for &(a, t, i) in &d.queries {
        let arr = &d.arrays[a];
        let p = arr.partition_point(|&v| v < t);
        seek += p as u64 + u64::from(arr[p]);
        select += u64::from(arr[i]);
    }
    (seek, select)
}

fn pass(c: &Contender, op: Op, enc: &[Vec<u8>], d: &Data) -> u64 {
    let mut sum = 0u64;
    match op {
        Op::Seek => {
            for &(a, t, _) in &d.queries {
                if let Some((i, v)) = c.seek(black_box(&enc[a]), t) {
                    sum += i as u64 + u64::from(v);
                }
            }
        }
        _ => {
            for &(a, _, i) in &d.queries {
                if let Some(v) = c.select(black_box(&enc[a]), i) {
                    sum += u64::from(v);
                }
            }
        }
    }
    sum
}

/// Runs the suite.
pub fn run(cfg: &Config, progress: &mut dyn FnMut(f64, &str)) -> Result<Outcome, String> {
    let started = Instant::now();
    let cs = contenders(&cfg.families);
    if cs.is_empty() {
        return Err("intcodec bench --suite seek: no codec of the chosen families".to_string());
    }
    let reps = cfg.timing.reps.max(1);
    let mut rows = Vec::new();
    for (bi, &b) in cfg.bits.iter().enumerate() {
        if !(1..=24).contains(&b) {
            return Err(format!(
                "intcodec bench --suite seek: bit width {b} not in 1..=24"
            ));
        }
        let at = |f: f64| crate::progress::share(bi, cfg.bits.len(), f);
        progress(
            at(0.0),
            &format!("b = {b} ({}/{}): preparing", bi + 1, cfg.bits.len()),
        );
        let d = data(b, cfg.timing.seed);
        let (want_seek, want_select) = expected(&d);
        let encoded: Vec<Vec<Vec<u8>>> = cs
            .iter()
            .map(|c| d.arrays.iter().map(|a| c.encode(a)).collect())
            .collect();
        struct Job {
            c: usize,
            op: Op,
            iters: u32,
            times: Vec<f64>,
        }
        let mut jobs = Vec::new();
        for c in 0..cs.len() {
            for op in [Op::Seek, Op::Select] {
                let want = if op == Op::Seek {
                    want_seek
                } else {
                    want_select
                };
                let t0 = Instant::now();
                let got = pass(&cs[c], op, &encoded[c], &d);
                let one = t0.elapsed().as_secs_f64().max(1e-9);
                if got != want {
                    return Err(format!(
                        "b = {b}: CHECK FAILED: {} {} {}: sum {got}, expected {want}",
                        cs[c].family(),
                        cs[c].isa().name(),
                        op.name()
                    ));
                }
                let iters = super::iterations(cfg.timing.min_time, one, 1 << 16);
                jobs.push(Job {
                    c,
                    op,
                    iters,
                    times: Vec::with_capacity(reps),
                });
            }
        }
        let n = jobs.len();
        super::rotate(reps, n, &format!("b = {b}"), at, progress, |j| {
            let job = &mut jobs[j];
            let c = &cs[job.c];
            let want = if job.op == Op::Seek {
                want_seek
            } else {
                want_select
            };
            let t0 = Instant::now();
            for _ in 0..job.iters {
                if pass(c, job.op, &encoded[job.c], &d) != want {
                    return Err(format!(
                        "b = {b}: CHECK FAILED: {} {} {}: a timed pass differs",
                        c.family(),
                        c.isa().name(),
                        job.op.name()
                    ));
                }
            }
            job.times
                .push(t0.elapsed().as_secs_f64().max(1e-9) / f64::from(job.iters));
            Ok(())
        })?;
        for mut job in jobs {
            job.times.sort_by(f64::total_cmp);
            let t = &job.times;
            let median = if t.len() % 2 == 1 {
                t[t.len() / 2]
            } else {
                (t[t.len() / 2 - 1] + t[t.len() / 2]) / 2.0
            };
            let c = &cs[job.c];
            let bytes: usize = encoded[job.c].iter().map(Vec::len).sum();
            rows.push(Row {
                suite: "seek".to_string(),
                dataset: "fig6".to_string(),
                bucket: b,
                lists: ARRAYS,
                codec: c.family().to_string(),
                kernel: c.isa().name().to_string(),
                family: c.family().to_string(),
                peer: false,
                default_kernel: c.isa() == c.default_isa(),
                op: job.op,
                ints: OPS as u64,
                bits_per_int: bytes as f64 * 8.0 / (ARRAYS * LEN) as f64,
                seconds: median,
                seconds_min: t[0],
                seconds_max: t[t.len() - 1],
                reps,
            });
        }
    }
    Ok(Outcome {
        dataset: "fig6".to_string(),
        description: format!(
            "Stream VByte paper Fig. 6: {ARRAYS} arrays of {LEN} sorted u32 per bit width, deltas random in [0, 2^b), \
             {OPS} random seeks / selects per pass"
        ),
        rows,
        elapsed: started.elapsed(),
    })
}

fn mops(rows: &[Row], b: u32, family: &str, kernel: Option<&str>, op: Op) -> Option<f64> {
    rows.iter()
        .find(|r| {
            r.bucket == b
                && r.family == family
                && r.op == op
                && match kernel {
                    Some(k) => r.kernel == k,
                    None => r.default_kernel,
                }
        })
        .map(|r| r.mis())
}

/// The Fig. 6 table: millions of operations per second for each codec's
/// default kernel and scalar VByte (the paper's "VByte"), and the ratios
/// Stream VByte / VByte and Stream VByte / Masked VByte.
pub fn table(o: &Outcome, header: &[String], out: &mut dyn std::io::Write) -> Result<(), String> {
    let mut s = super::report_text(header);
    let mut bits: Vec<u32> = o.rows.iter().map(|r| r.bucket).collect();
    bits.dedup();
    let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.1}"));
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.2}x", a / b),
        _ => "-".to_string(),
    };
    for op in [Op::Seek, Op::Select] {
        let _ = writeln!(
            s,
            "\n{} (millions of operations per second, default kernel of each codec; VByte = scalar kernel)",
            op.name()
        );
        let _ = writeln!(
            s,
            "{:>3} {:>10} {:>10} {:>13} {:>10} {:>10} {:>10} {:>11} {:>11}",
            "b",
            "svb",
            "vbyte",
            "masked-vbyte",
            "varint-gb",
            "svb-decode",
            "svb/vbyte",
            "svb/masked",
            "svb/decode"
        );
        let mut best = (0.0f64, 0u32);
        let mut over_decode = Vec::new();
        for &b in &bits {
            let svb = mops(&o.rows, b, "streamvbyte", None, op);
            let vb = mops(&o.rows, b, "vbyte", Some("scalar"), op);
            let mvb = mops(&o.rows, b, "vbyte", None, op);
            let gb = mops(&o.rows, b, "varint-gb", None, op);
            let dec = mops(&o.rows, b, DECODED, None, op);
            if let (Some(x), Some(y)) = (svb, vb) {
                if x / y > best.0 {
                    best = (x / y, b);
                }
            }
            if let (Some(x), Some(y)) = (svb, dec) {
                over_decode.push(x / y);
            }
            let _ = writeln!(
                s,
                "{b:>3} {:>10} {:>10} {:>13} {:>10} {:>10} {:>10} {:>11} {:>11}",
                f(svb),
                f(vb),
                f(mvb),
                f(gb),
                f(dec),
                ratio(svb, vb),
                ratio(svb, mvb),
                ratio(svb, dec)
            );
        }
        if !over_decode.is_empty() {
            over_decode.sort_by(f64::total_cmp);
            let med = over_decode[over_decode.len() / 2];
            let _ = writeln!(
                s,
                "{}: Stream VByte's {} over decoding the array and {} (svb-decode): median {med:.2}x, \
                 min {:.2}x (target >= 1.2x): {}",
                op.name(),
                op.name(),
                if op == Op::Seek { "binary-searching it" } else { "indexing it" },
                over_decode[0],
                if med >= 1.2 { "meets" } else { "MISSES" }
            );
        }
        if best.0 > 0.0 {
            let _ = writeln!(
                s,
                "{}: Stream VByte up to {:.2}x VByte (b = {}); paper: up to 3x",
                op.name(),
                best.0,
                best.1
            );
        }
    }
    let _ = writeln!(s, "\nevery kernel (Mops/s, seek / select):");
    let mut cols: Vec<(String, String)> = Vec::new();
    for r in &o.rows {
        let k = (r.family.clone(), r.kernel.clone());
        if !cols.contains(&k) {
            cols.push(k);
        }
    }
    let _ = write!(s, "{:>3}", "b");
    for (fam, k) in &cols {
        let _ = write!(s, " {:>17}", format!("{fam}:{k}"));
    }
    let _ = writeln!(s);
    for &b in &bits {
        let _ = write!(s, "{b:>3}");
        for (fam, k) in &cols {
            let a = mops(&o.rows, b, fam, Some(k), Op::Seek);
            let c = mops(&o.rows, b, fam, Some(k), Op::Select);
            let _ = write!(s, " {:>17}", format!("{} / {}", f(a), f(c)));
        }
        let _ = writeln!(s);
    }
    let _ = writeln!(s, "\nwall time: {:.1} s", o.elapsed.as_secs_f64());
    super::write_report(out, &s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_sums_come_from_binary_search() {
        let d = data(4, 1);
        let (a, t, i) = d.queries[0];
        let arr = &d.arrays[a];
        assert!(arr.windows(2).all(|w| w[0] <= w[1]));
        assert!(t >= arr[0] && t <= arr[LEN - 1] && i < LEN);
    }

    #[test]
    fn tiny_run_measures_every_kernel_and_checks() {
        let cfg = Config {
            bits: vec![1, 8, 24],
            timing: crate::suites::Timing::once(3),
            families: Vec::new(),
        };
        let o = run(&cfg, &mut |_, _| {}).unwrap();
        let n = contenders(&[]).len();
        assert!(n >= 3);
        // Each family's default kernel is measured.
        for fam in ["streamvbyte", "vbyte", "varint-gb"] {
            assert!(
                o.rows.iter().any(|r| r.family == fam && r.default_kernel),
                "{fam}"
            );
        }
        assert_eq!(o.rows.len(), 3 * n * 2);
        for r in &o.rows {
            assert_eq!((r.suite.as_str(), r.dataset.as_str()), ("seek", "fig6"));
            assert!(matches!(r.op, Op::Seek | Op::Select));
            assert!(r.bits_per_int >= 8.0 && r.bits_per_int <= 34.0, "{r:?}");
        }
        let mut t = Vec::new();
        table(&o, &[], &mut t).unwrap();
        let t = String::from_utf8(t).unwrap();
        assert!(t.contains("svb/vbyte") && t.contains(" 24 "), "{t}");
        assert!(run(
            &Config {
                bits: vec![25],
                ..cfg
            },
            &mut |_, _| {}
        )
        .is_err());
    }
}
