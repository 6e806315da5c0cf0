//! The `keys` suite: the upscaledb B+-tree key study (Rupp & Lemire; blog
//! "32bit integer compression algorithms", 2016). For each bit width
//! b = 1..=24, arrays of 256 sorted u32 whose gaps have at most b bits
//! (uniform in `[0, 2^b)`, the first value too); every codec encodes each
//! array as one stream and is measured on:
//!
//! - bits per integer;
//! - decode: whole arrays into a 256-int buffer (billions of ints/s);
//! - lower_bound: a random target between the array's first and last value
//!   (millions of operations/s);
//! - select: a random index (millions of operations/s).
//!
//! Codecs: BP128 (4x, D1, and the lane delta "d4"), FOR, SIMD-FOR, the byte
//! codecs (Masked VByte, VarInt-GB, Stream VByte; decode only: they have no
//! search on compressed data here) and the `bitpacking` crate's BitPacker4x
//! in the same array format (`decompress_sorted`, decode only). Every
//! measured pass is checked against the source data (a checksum), and jobs
//! run in rotating order; speeds are medians.

use intcodec::bp128::{Bp128, DeltaMode, Layout, SortedArray};
use intcodec::frame_of_reference::{For, ForArray, SimdForArray};
use intcodec::streamvbyte::StreamVByte;
use intcodec::varint_gb::VarIntGb;
use intcodec::vbyte::VByte;
use intcodec::{IntCodec, KernelChoice, SortedSet};
use intcodec_testkit::SplitMix64;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

/// Values per array (the blog's 256).
pub const ARRAY: usize = 256;

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Smallest and largest bit width.
    pub bmin: u32,
    /// Largest bit width (at most 24).
    pub bmax: u32,
    /// Arrays per width.
    pub arrays: usize,
    /// Random queries per select / lower_bound pass.
    pub queries: usize,
    /// Repetitions (the median is reported), their least duration, the seed.
    pub timing: super::Timing,
}

impl Config {
    /// The default run (about 30 s) or `--quick` (a few seconds).
    pub fn new(quick: bool) -> Config {
        Config {
            bmin: 1,
            bmax: 24,
            arrays: if quick { 64 } else { 512 },
            queries: if quick { 512 } else { 2048 },
            timing: if quick {
                super::Timing::new(3, 1)
            } else {
                super::Timing::new(5, 8)
            },
        }
    }
}

/// One measured (width, codec).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Bit width of the gaps.
    pub b: u32,
    /// Codec name.
    pub codec: String,
    /// Kernel.
    pub kernel: String,
    /// Another project's implementation.
    pub peer: bool,
    /// Encoded bits per integer.
    pub bits_per_int: f64,
    /// Decode, billions of ints per second.
    pub decode_bis: f64,
    /// lower_bound, millions of operations per second (None: not offered).
    pub lower_bound_mops: Option<f64>,
    /// select, millions of operations per second (None: not offered).
    pub select_mops: Option<f64>,
}

/// `arrays` sorted arrays of 256 values, gaps (and first value) in `[0, 2^b)`.
pub fn arrays(b: u32, arrays: usize, seed: u64) -> Vec<Vec<u32>> {
    let mut rng = SplitMix64::new(seed ^ u64::from(b) << 40);
    let mask = (1u64 << b) - 1;
    (0..arrays)
        .map(|_| {
            let mut acc = 0u32;
            (0..ARRAY)
                .map(|_| {
                    acc += (rng.next_u64() & mask) as u32;
                    acc
                })
                .collect()
        })
        .collect()
}

/// The codecs (names, kernels) of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bp128,
    Bp128D4,
    For,
    SimdFor,
    VByte,
    VarIntGb,
    StreamVByte,
    #[cfg(feature = "peer-bitpacking")]
    PeerBitpacking,
}

const KINDS: &[Kind] = &[
    Kind::Bp128,
    Kind::Bp128D4,
    Kind::For,
    Kind::SimdFor,
    Kind::VByte,
    Kind::VarIntGb,
    Kind::StreamVByte,
    #[cfg(feature = "peer-bitpacking")]
    Kind::PeerBitpacking,
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Bp128 => "bp128",
            Kind::Bp128D4 => "bp128-d4",
            Kind::For => "for",
            Kind::SimdFor => "simd-for",
            Kind::VByte => "vbyte",
            Kind::VarIntGb => "varint-gb",
            Kind::StreamVByte => "streamvbyte",
            #[cfg(feature = "peer-bitpacking")]
            Kind::PeerBitpacking => "peer:bitpacking-4x",
        }
    }
    fn kernel(self) -> String {
        match self {
            Kind::Bp128 | Kind::Bp128D4 => Bp128::new(Layout::Lanes4).isa().name().to_string(),
            Kind::For => "scalar".to_string(),
            Kind::SimdFor => intcodec::frame_of_reference::SimdFor::best()
                .isa()
                .name()
                .to_string(),
            Kind::VByte => VByte::new().isa().name().to_string(),
            Kind::VarIntGb => VarIntGb::new().isa().name().to_string(),
            Kind::StreamVByte => StreamVByte::new().isa().name().to_string(),
            #[cfg(feature = "peer-bitpacking")]
            Kind::PeerBitpacking => "sse3".to_string(),
        }
    }
    fn searchable(self) -> bool {
        matches!(
            self,
            Kind::Bp128 | Kind::Bp128D4 | Kind::For | Kind::SimdFor
        )
    }
}

/// One codec's encoded arrays.
enum Prepared {
    Bp(Vec<SortedArray>),
    For(Vec<ForArray>),
    SimdFor(Vec<SimdForArray>),
    Bytes(Vec<Vec<u8>>),
}

fn prepare(kind: Kind, data: &[Vec<u32>]) -> (Prepared, usize) {
    let bp = Bp128::new(Layout::Lanes4);
    let p = match kind {
        Kind::Bp128 => Prepared::Bp(data.iter().map(|a| SortedArray::new(bp, a)).collect()),
        Kind::Bp128D4 => Prepared::Bp(
            data.iter()
                .map(|a| SortedArray::new(bp.with_delta(DeltaMode::Lane), a))
                .collect(),
        ),
        Kind::For => Prepared::For(data.iter().map(|a| ForArray::new(a)).collect()),
        Kind::SimdFor => Prepared::SimdFor(data.iter().map(|a| SimdForArray::new(a)).collect()),
        Kind::VByte => Prepared::Bytes(
            data.iter()
                .map(|a| VByte::new().encode_delta_to_vec(a, 0))
                .collect(),
        ),
        Kind::VarIntGb => Prepared::Bytes(
            data.iter()
                .map(|a| VarIntGb::new().encode_delta_to_vec(a, 0))
                .collect(),
        ),
        Kind::StreamVByte => Prepared::Bytes(
            data.iter()
                .map(|a| StreamVByte::new().encode_delta_to_vec(a, 0))
                .collect(),
        ),
        #[cfg(feature = "peer-bitpacking")]
        Kind::PeerBitpacking => {
            let p = crate::peers::bitpacking::four(crate::contenders::bp128::FAMILY_4X);
            Prepared::Bytes(
                data.iter()
                    .map(|a| {
                        let mut out = vec![0u8; 2 + 4 * ARRAY];
                        let n = p.enc(a, Some(0), &mut out);
                        out.truncate(n);
                        out
                    })
                    .collect(),
            )
        }
    };
    let bytes = match &p {
        Prepared::Bp(v) => v.iter().map(|a| a.as_bytes().len()).sum(),
        Prepared::For(v) => v.iter().map(|a| a.as_bytes().len()).sum(),
        Prepared::SimdFor(v) => v.iter().map(|a| a.as_bytes().len()).sum(),
        Prepared::Bytes(v) => v.iter().map(Vec::len).sum(),
    };
    (p, bytes)
}

/// A checksum of a decoded array.
#[inline(always)]
fn sum(h: u64, v: &[u32]) -> u64 {
    h.wrapping_mul(31).wrapping_add(
        u64::from(v[0]) ^ u64::from(v[ARRAY / 2]) << 7 ^ u64::from(v[ARRAY - 1]) << 13,
    )
}

/// Decodes every one of `arrays` (delta-coded from 0) with `c`; the
/// checksum.
#[inline(always)]
fn decode_arrays<'a, C: IntCodec>(
    c: C,
    arrays: impl Iterator<Item = &'a [u8]>,
    buf: &mut [u32; ARRAY],
) -> Result<u64, String> {
    let mut h = 0u64;
    for a in arrays {
        c.decode_delta(a, ARRAY, 0, buf)
            .map_err(|e| e.to_string())?;
        h = sum(h, buf);
    }
    Ok(h)
}

/// One decode pass over every array; the checksum.
fn decode_pass(kind: Kind, p: &Prepared, buf: &mut [u32; ARRAY]) -> Result<u64, String> {
    let mut h = 0u64;
    let e = |e: intcodec::DecodeError| e.to_string();
    match (kind, p) {
        (_, Prepared::Bp(v)) => {
            let delta = if kind == Kind::Bp128D4 {
                DeltaMode::Lane
            } else {
                DeltaMode::D1
            };
            let bp = Bp128::new(Layout::Lanes4).with_delta(delta);
            h = decode_arrays(bp, v.iter().map(|a| a.as_bytes()), buf)?;
        }
        (_, Prepared::For(v)) => {
            for a in v {
                For.decode(a.as_bytes(), ARRAY, buf).map_err(e)?;
                h = sum(h, buf);
            }
        }
        (_, Prepared::SimdFor(v)) => {
            for a in v {
                a.decode_into(buf).map_err(e)?;
                h = sum(h, buf);
            }
        }
        (Kind::VByte, Prepared::Bytes(v)) => {
            h = decode_arrays(VByte::new(), v.iter().map(Vec::as_slice), buf)?;
        }
        (Kind::VarIntGb, Prepared::Bytes(v)) => {
            h = decode_arrays(VarIntGb::new(), v.iter().map(Vec::as_slice), buf)?;
        }
        (Kind::StreamVByte, Prepared::Bytes(v)) => {
            h = decode_arrays(StreamVByte::new(), v.iter().map(Vec::as_slice), buf)?;
        }
        #[cfg(feature = "peer-bitpacking")]
        (Kind::PeerBitpacking, Prepared::Bytes(v)) => {
            let c = crate::peers::bitpacking::four(crate::contenders::bp128::FAMILY_4X);
            for a in v {
                c.dec(a, Some(0), buf)?;
                h = sum(h, buf);
            }
        }
        _ => return Err(format!("{}: no decoder", kind.name())),
    }
    Ok(h)
}

/// Queries: (array, index) for select, (array, target) for lower_bound.
struct Queries {
    select: Vec<(u32, u32)>,
    lower: Vec<(u32, u32)>,
    sum_select: u64,
    sum_lower: u64,
}

fn queries(data: &[Vec<u32>], n: usize, seed: u64) -> Queries {
    let mut rng = SplitMix64::new(seed ^ 0xABCD);
    let mut q = Queries {
        select: Vec::with_capacity(n),
        lower: Vec::with_capacity(n),
        sum_select: 0,
        sum_lower: 0,
    };
    for _ in 0..n {
        let a = (rng.next_u64() % data.len() as u64) as usize;
        let i = (rng.next_u64() % ARRAY as u64) as usize;
        q.select.push((a as u32, i as u32));
        q.sum_select = q.sum_select.wrapping_add(u64::from(data[a][i]));
        let a = (rng.next_u64() % data.len() as u64) as usize;
        let (lo, hi) = (data[a][0], data[a][ARRAY - 1]);
        let t = lo + (rng.next_u64() % (u64::from(hi - lo) + 1)) as u32;
        q.lower.push((a as u32, t));
        let k = data[a].partition_point(|&v| v < t);
        q.sum_lower = q
            .sum_lower
            .wrapping_add(k as u64 * 1_000_003 + u64::from(data[a][k]));
    }
    q
}

fn select_pass(p: &Prepared, q: &Queries) -> u64 {
    let mut h = 0u64;
    let add = |h: u64, v: Option<u32>| h.wrapping_add(u64::from(v.unwrap_or(u32::MAX)));
    match p {
        Prepared::Bp(v) => {
            for &(a, i) in &q.select {
                h = add(h, v[a as usize].select(i as usize));
            }
        }
        Prepared::For(v) => {
            for &(a, i) in &q.select {
                h = add(h, v[a as usize].select(i as usize));
            }
        }
        Prepared::SimdFor(v) => {
            for &(a, i) in &q.select {
                h = add(h, v[a as usize].select(i as usize));
            }
        }
        Prepared::Bytes(_) => {}
    }
    h
}

fn lower_pass(p: &Prepared, q: &Queries) -> u64 {
    let mut h = 0u64;
    let add = |h: u64, r: Option<(usize, u32)>| {
        let (k, v) = r.unwrap_or((usize::MAX, 0));
        h.wrapping_add(
            (k as u64)
                .wrapping_mul(1_000_003)
                .wrapping_add(u64::from(v)),
        )
    };
    match p {
        Prepared::Bp(v) => {
            for &(a, t) in &q.lower {
                h = add(h, v[a as usize].lower_bound(t));
            }
        }
        Prepared::For(v) => {
            for &(a, t) in &q.lower {
                h = add(h, v[a as usize].lower_bound(t));
            }
        }
        Prepared::SimdFor(v) => {
            for &(a, t) in &q.lower {
                h = add(h, v[a as usize].lower_bound(t));
            }
        }
        Prepared::Bytes(_) => {}
    }
    h
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum KOp {
    Decode,
    Lower,
    Select,
}

struct Job {
    codec: usize,
    op: KOp,
    expect: u64,
    iters: u32,
    times: Vec<f64>,
}

fn run_job(
    job: &Job,
    iters: u32,
    kinds: &[(Kind, Prepared)],
    q: &Queries,
    buf: &mut [u32; ARRAY],
) -> Result<f64, String> {
    let (kind, p) = (&kinds[job.codec].0, &kinds[job.codec].1);
    let t = Instant::now();
    for _ in 0..iters {
        let h = match job.op {
            KOp::Decode => decode_pass(*kind, black_box(p), buf)?,
            KOp::Lower => lower_pass(black_box(p), q),
            KOp::Select => select_pass(black_box(p), q),
        };
        if h != job.expect {
            return Err(format!("{}: wrong result in a timed pass", kind.name()));
        }
    }
    Ok(t.elapsed().as_secs_f64() / f64::from(iters))
}

/// Runs the suite; `progress` gets short status messages.
pub fn run(cfg: &Config, progress: &mut dyn FnMut(f64, &str)) -> Result<Vec<Row>, String> {
    if cfg.bmin == 0 || cfg.bmin > cfg.bmax || cfg.bmax > 24 {
        return Err(format!(
            "keys: bad width range {}..={} (need 1 <= bmin <= bmax <= 24)",
            cfg.bmin, cfg.bmax
        ));
    }
    let mut rows = Vec::new();
    let mut buf = [0u32; ARRAY];
    for b in cfg.bmin..=cfg.bmax {
        let nb = (cfg.bmax - cfg.bmin + 1) as usize;
        let at = |f: f64| crate::progress::share((b - cfg.bmin) as usize, nb, f);
        progress(at(0.0), &format!("keys b={b}: preparing"));
        let data = arrays(b, cfg.arrays.max(1), cfg.timing.seed);
        let q = queries(&data, cfg.queries.max(1), cfg.timing.seed ^ u64::from(b));
        let want = data.iter().fold(0u64, |h, a| sum(h, a));
        let mut kinds = Vec::new();
        let mut bits = Vec::new();
        for &k in KINDS {
            let (p, bytes) = prepare(k, &data);
            bits.push(bytes as f64 * 8.0 / (data.len() * ARRAY) as f64);
            kinds.push((k, p));
        }
        // Full checks first: every array decodes to the source, every
        // query answer is right (the light checksums then guard the timing).
        let mut jobs = Vec::new();
        for (ci, (k, p)) in kinds.iter().enumerate() {
            let got = decode_pass(*k, p, &mut buf)?;
            if got != want {
                return Err(format!("keys b={b}: {} decodes wrong values", k.name()));
            }
            jobs.push(Job {
                codec: ci,
                op: KOp::Decode,
                expect: want,
                iters: 1,
                times: vec![],
            });
            if k.searchable() {
                if select_pass(p, &q) != q.sum_select {
                    return Err(format!("keys b={b}: {} select is wrong", k.name()));
                }
                if lower_pass(p, &q) != q.sum_lower {
                    return Err(format!("keys b={b}: {} lower_bound is wrong", k.name()));
                }
                jobs.push(Job {
                    codec: ci,
                    op: KOp::Select,
                    expect: q.sum_select,
                    iters: 1,
                    times: vec![],
                });
                jobs.push(Job {
                    codec: ci,
                    op: KOp::Lower,
                    expect: q.sum_lower,
                    iters: 1,
                    times: vec![],
                });
            }
        }
        for job in &mut jobs {
            let one = run_job(job, 1, &kinds, &q, &mut buf)?;
            job.iters = super::iterations(cfg.timing.min_time, one, 1 << 20);
        }
        let (reps, n) = (cfg.timing.reps.max(1), jobs.len());
        super::rotate(reps, n, &format!("keys b={b}"), at, progress, |j| {
            let t = run_job(&jobs[j], jobs[j].iters, &kinds, &q, &mut buf)?;
            jobs[j].times.push(t);
            Ok(())
        })?;
        for (ci, (k, _)) in kinds.iter().enumerate() {
            let med = |op: KOp| {
                jobs.iter().find(|j| j.codec == ci && j.op == op).map(|j| {
                    let mut t = j.times.clone();
                    t.sort_by(f64::total_cmp);
                    t[t.len() / 2]
                })
            };
            let dec = med(KOp::Decode).expect("decode measured");
            rows.push(Row {
                b,
                codec: k.name().to_string(),
                kernel: k.kernel(),
                peer: k.name().starts_with("peer:"),
                bits_per_int: bits[ci],
                decode_bis: (data.len() * ARRAY) as f64 / dec / 1e9,
                lower_bound_mops: med(KOp::Lower).map(|t| q.lower.len() as f64 / t / 1e6),
                select_mops: med(KOp::Select).map(|t| q.select.len() as f64 / t / 1e6),
            });
        }
    }
    Ok(rows)
}

/// CSV: one line per (b, codec).
pub fn csv(rows: &[Row], out: &mut dyn Write) -> Result<(), String> {
    let mut s = String::from(
        "suite,b,codec,kernel,peer,bits_per_int,decode_bis,lower_bound_mops,select_mops\n",
    );
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.2}"));
    for r in rows {
        s.push_str(&format!(
            "keys,{},{},{},{},{:.3},{:.3},{},{}\n",
            r.b,
            r.codec,
            r.kernel,
            r.peer,
            r.bits_per_int,
            r.decode_bis,
            opt(r.lower_bound_mops),
            opt(r.select_mops)
        ));
    }
    super::write_report(out, &s)
}

/// The terminal report: one table per measure (rows b, columns codecs), then
/// BP128 against `bitpacking` per b.
pub fn table(rows: &[Row], header: &[String], out: &mut dyn Write) -> Result<(), String> {
    let mut s = super::report_text(header);
    let codecs = super::first_seen(rows.iter().map(|r| r.codec.as_str()));
    let mut bs: Vec<u32> = rows.iter().map(|r| r.b).collect();
    bs.dedup();
    let get = |b: u32, c: &str| rows.iter().find(|r| r.b == b && r.codec == c);
    type Pick = fn(&Row) -> Option<f64>;
    let measures: [(&str, Pick, usize); 4] = [
        ("bits per integer", |r| Some(r.bits_per_int), 2),
        (
            "decode, billions of ints/s (median)",
            |r| Some(r.decode_bis),
            2,
        ),
        (
            "lower_bound, millions of ops/s (median)",
            |r| r.lower_bound_mops,
            1,
        ),
        ("select, millions of ops/s (median)", |r| r.select_mops, 1),
    ];
    for (title, pick, prec) in measures {
        let cols: Vec<&str> = codecs
            .iter()
            .copied()
            .filter(|c| rows.iter().any(|r| r.codec == *c && pick(r).is_some()))
            .collect();
        s.push_str(&format!(
            "\n[keys] {title}; arrays of {ARRAY} sorted ints, gaps < 2^b\n"
        ));
        s.push_str(&format!("{:>3}", "b"));
        for c in &cols {
            s.push_str(&format!(" {c:>18}"));
        }
        s.push('\n');
        for &b in &bs {
            s.push_str(&format!("{b:>3}"));
            for c in &cols {
                let v = get(b, c).and_then(pick);
                s.push_str(&match v {
                    Some(v) => format!(" {v:>18.prec$}"),
                    None => format!(" {:>18}", "-"),
                });
            }
            s.push('\n');
        }
    }
    let ratio =
        |b: u32, ours: &str, peer: &str| Some(get(b, ours)?.decode_bis / get(b, peer)?.decode_bis);
    let peer = "peer:bitpacking-4x";
    if rows.iter().any(|r| r.codec == peer) {
        let mut d1: Vec<f64> = bs.iter().filter_map(|&b| ratio(b, "bp128", peer)).collect();
        let mut d4: Vec<f64> = bs
            .iter()
            .filter_map(|&b| ratio(b, "bp128-d4", peer))
            .collect();
        let med = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
        };
        let (m1, m4) = (med(&mut d1), med(&mut d4));
        let verdict = |m: f64| if m >= 2.0 { "meets it" } else { "below it" };
        s.push_str(&format!(
            "\nsorted decode of 256-int arrays vs {peer} decompress_sorted (median over b of per-b ratios; \
             target 2x): bp128 (D1, the same bytes) {:.2}x ({}), bp128-d4 (lane delta, \
             not bitpacking-compatible) {:.2}x ({})\n",
            m1,
            verdict(m1),
            m4,
            verdict(m4)
        ));
    }
    super::write_report(out, &s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_run_checks_and_reports() {
        let cfg = Config {
            bmin: 1,
            bmax: 3,
            arrays: 4,
            queries: 16,
            timing: crate::suites::Timing::once(2),
        };
        let rows = run(&cfg, &mut |_, _| {}).unwrap();
        assert_eq!(rows.len(), 3 * KINDS.len());
        for r in &rows {
            assert!(r.decode_bis > 0.0, "{r:?}");
            assert_eq!(r.select_mops.is_some(), r.lower_bound_mops.is_some());
        }
        // BP128 with D1 needs about b bits per gap (plus a width byte per
        // block): far less than FOR, which stores value - min.
        let get = |b: u32, c: &str| rows.iter().find(|r| r.b == b && r.codec == c).unwrap();
        assert!(get(1, "bp128").bits_per_int < 1.1);
        assert!(get(3, "for").bits_per_int > 9.0);
        let mut out = Vec::new();
        table(&rows, &["h".to_string()], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("[keys] select"), "{text}");
        #[cfg(feature = "peer-bitpacking")]
        {
            let line = text
                .lines()
                .find(|l| l.starts_with("sorted decode of 256-int arrays"))
                .expect("the summary line");
            assert!(line.contains("bp128 (D1, the same bytes) "), "{line}");
            assert!(line.contains("it), bp128-d4 (lane delta"), "{line}");
        }
        let mut out = Vec::new();
        csv(&rows, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap().lines().count(),
            rows.len() + 1
        );
    }

    #[test]
    fn arrays_have_gaps_of_at_most_b_bits() {
        for b in [1, 7, 24] {
            for a in arrays(b, 8, 1) {
                assert!(a.windows(2).all(|w| w[1] - w[0] < 1 << b));
            }
        }
    }
}
