//! Rendering a run: terminal table with a summary, CSV, or JSON.
//!
//! CSV columns (one row per bucket × codec × kernel × op):
//! `suite,dataset,bucket,codec,kernel,op,ints,bits_per_int,mis,mis_min,mis_max,lists,reps`
//! where `bucket` is `K` (lists of lengths `2^K ..= 2^(K+1) - 1`), `mis` is
//! millions of ints per second at the median repetition, `mis_min` /
//! `mis_max` the slowest and fastest repetitions. JSON is an array of
//! objects with the same keys.

pub mod plot;
pub mod record;

use crate::measure::Op;
use crate::suites::{Outcome, Row};
use std::fmt::Write as _;
use std::io::Write;

/// The CSV header line (without newline).
pub const CSV_HEADER: &str =
    "suite,dataset,bucket,codec,kernel,op,ints,bits_per_int,mis,mis_min,mis_max,lists,reps";

fn io(e: std::io::Error) -> String {
    format!("writing the report: {e}")
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn mis_of(ints: u64, seconds: f64) -> f64 {
    ints as f64 / seconds / 1e6
}

/// Writes CSV.
pub fn csv(o: &Outcome, out: &mut dyn Write) -> Result<(), String> {
    csv_rows(&o.rows, out)
}

/// The fields of `r` in [`CSV_HEADER`]'s order, its text fields (names,
/// all static or from the run) through `text`.
fn fields(r: &Row, text: fn(&str) -> String) -> [String; 13] {
    [
        text(&r.suite),
        text(&r.dataset),
        r.bucket.to_string(),
        text(&r.codec),
        text(&r.kernel),
        text(r.op.name()),
        r.ints.to_string(),
        format!("{:.3}", r.bits_per_int),
        format!("{:.2}", r.mis()),
        format!("{:.2}", mis_of(r.ints, r.seconds_max)),
        format!("{:.2}", mis_of(r.ints, r.seconds_min)),
        r.lists.to_string(),
        r.reps.to_string(),
    ]
}

/// Writes CSV of `rows` (of any suites), one header line.
pub fn csv_rows(rows: &[Row], out: &mut dyn Write) -> Result<(), String> {
    writeln!(out, "{CSV_HEADER}").map_err(io)?;
    for r in rows {
        writeln!(out, "{}", fields(r, csv_field).join(",")).map_err(io)?;
    }
    Ok(())
}

fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Writes JSON: an array of row objects.
pub fn json(o: &Outcome, out: &mut dyn Write) -> Result<(), String> {
    json_rows(&o.rows, out)
}

/// Writes JSON of `rows` (of any suites): one array.
pub fn json_rows(rows: &[Row], out: &mut dyn Write) -> Result<(), String> {
    writeln!(out, "[").map_err(io)?;
    for (i, r) in rows.iter().enumerate() {
        let sep = if i + 1 < rows.len() { "," } else { "" };
        let pairs: Vec<String> = CSV_HEADER
            .split(',')
            .zip(fields(r, json_str))
            .map(|(k, v)| format!("\"{k}\": {v}"))
            .collect();
        writeln!(out, "  {{{}}}{sep}", pairs.join(", ")).map_err(io)?;
    }
    writeln!(out, "]").map_err(io)?;
    Ok(())
}

/// A (codec, kernel) column of the table.
#[derive(Clone, Debug, PartialEq)]
struct Column {
    codec: String,
    kernel: String,
    label: String,
}

/// A short tag for a codec in column labels (`svb`, `gb`, `g8iu`).
fn tag(codec: &str) -> &str {
    match codec {
        "streamvbyte" => "svb",
        c => c.strip_prefix("varint-").unwrap_or(c),
    }
}

fn columns(rows: &[Row]) -> Vec<Column> {
    let mut cols: Vec<Column> = Vec::new();
    let mut ours: Vec<&str> = rows
        .iter()
        .filter(|r| !r.peer && r.op != Op::Copy)
        .map(|r| r.codec.as_str())
        .collect();
    ours.dedup();
    // With several formats, labels name the codec too.
    let kernel = |r: &Row| {
        if ours.len() > 1 {
            format!("{}:{}", tag(&r.codec), r.kernel)
        } else {
            r.kernel.clone()
        }
    };
    for r in rows.iter().filter(|r| r.op != Op::Copy) {
        if cols
            .iter()
            .any(|c| c.codec == r.codec && c.kernel == r.kernel)
        {
            continue;
        }
        let label = if r.peer {
            peer_label(&r.codec)
        } else if r.default_kernel {
            format!("{}*", kernel(r))
        } else {
            kernel(r)
        };
        cols.push(Column {
            codec: r.codec.clone(),
            kernel: r.kernel.clone(),
            label,
        });
    }
    cols
}

/// Legend notes for a peer column: the ops not measured for it (it does
/// not support them, e.g. no delta coding), and its bits per int when they
/// differ from our default kernel's (a different format).
fn peer_notes(s: &mut String, rows: &[Row], c: &Column) {
    let missing: Vec<&str> = Op::CODEC_OPS
        .iter()
        .filter(|&&op| {
            rows.iter().any(|r| r.op == op)
                && !rows
                    .iter()
                    .any(|r| r.op == op && r.codec == c.codec && r.kernel == c.kernel)
        })
        .map(|op| op.name())
        .collect();
    if !missing.is_empty() {
        let _ = writeln!(
            s,
            "    not measured (unsupported by this peer): {}",
            missing.join(", ")
        );
    }
    let mut differ = Vec::new();
    for k in buckets(rows) {
        let theirs = find(rows, k, &c.codec, &c.kernel, Op::Decode);
        let ours = rows
            .iter()
            .find(|r| r.bucket == k && r.default_kernel && r.op == Op::Decode);
        if let (Some(t), Some(o)) = (theirs, ours) {
            if (t.bits_per_int - o.bits_per_int).abs() > 1e-9 {
                differ.push(format!(
                    "{} {:.2} vs {:.2}",
                    crate::suites::bucket_label(&t.suite, k),
                    t.bits_per_int,
                    o.bits_per_int
                ));
            }
        }
    }
    if !differ.is_empty() {
        let _ = writeln!(
            s,
            "    a different format: its bits/int vs ours (gaps): {}",
            differ.join(", ")
        );
    }
}

/// A column label (at most 7 characters) for a peer: its name without
/// `peer:`, abbreviated (`integer-encoding` -> `int-enc`).
fn peer_label(codec: &str) -> String {
    let name = codec.strip_prefix("peer:").unwrap_or(codec);
    // Names the rule below would cut to another peer's label.
    if name == "streamvbyte64" {
        return "svb64".to_string();
    }
    if name.len() <= 6 {
        return name.to_string();
    }
    match name.split_once('-') {
        Some((a, b)) => format!("{}-{}", &a[..a.len().min(3)], &b[..b.len().min(3)]),
        None => name[..6].to_string(),
    }
}

fn buckets(rows: &[Row]) -> Vec<u32> {
    let mut ks: Vec<u32> = rows.iter().map(|r| r.bucket).collect();
    ks.dedup();
    ks
}

fn find<'a>(rows: &'a [Row], k: u32, codec: &str, kernel: &str, op: Op) -> Option<&'a Row> {
    rows.iter()
        .find(|r| r.bucket == k && r.codec == codec && r.kernel == kernel && r.op == op)
}

/// One ours/peer comparison of the summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratio {
    /// Format family.
    pub family: String,
    /// Our kernel compared.
    pub ours: String,
    /// Peer compared (codec name and kernel).
    pub peer: String,
    /// The operation.
    pub op: Op,
    /// Median over buckets of `ours / peer` speed.
    pub median: f64,
    /// Lowest and highest bucket ratio.
    pub min: f64,
    /// Highest bucket ratio.
    pub max: f64,
    /// `(total ints / total time) ours` over the same for the peer.
    pub overall: f64,
}

/// The peers measured, as (family, codec, kernel), in order of appearance.
fn peers(rows: &[Row]) -> Vec<(&str, &str, &str)> {
    let mut peers = Vec::new();
    for r in rows.iter().filter(|r| r.peer) {
        let key = (r.family.as_str(), r.codec.as_str(), r.kernel.as_str());
        if !peers.contains(&key) {
            peers.push(key);
        }
    }
    peers
}

/// `ours / peer` speed ratios: our default kernel against each peer of its
/// family, per op.
pub fn ratios(rows: &[Row]) -> Vec<Ratio> {
    let mut out = Vec::new();
    for (family, pcodec, pkernel) in peers(rows) {
        out.extend(compare(rows, family, None, pcodec, pkernel));
    }
    out
}

/// Like [`ratios`], for every SIMD kernel of ours (not only the default),
/// against each peer of its family.
pub fn kernel_ratios(rows: &[Row]) -> Vec<Ratio> {
    let mut out = Vec::new();
    for (family, pcodec, pkernel) in peers(rows) {
        let ours = rows
            .iter()
            .filter(|r| r.family == family && !r.peer && r.kernel != "scalar");
        let kernels = crate::suites::first_seen(ours.map(|r| r.kernel.as_str()));
        for k in kernels {
            out.extend(compare(rows, family, Some(k), pcodec, pkernel));
        }
    }
    out
}

/// Our default kernel over our scalar kernel of the same codec, per family
/// and op (the SIMD speed-up), for families whose default is not scalar.
pub fn scalar_speedups(rows: &[Row]) -> Vec<Ratio> {
    let mut out = Vec::new();
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for r in rows
        .iter()
        .filter(|r| !r.peer && r.default_kernel && r.kernel != "scalar")
    {
        let key = (r.family.as_str(), r.codec.as_str());
        if !seen.contains(&key) {
            seen.push(key);
            out.extend(compare(rows, key.0, None, key.1, "scalar"));
        }
    }
    out
}

/// For each family and op, our default kernel against its best peer: of
/// [`ratios`], the one with the lowest median (the peer fastest relative to
/// us), in the order families and ops first appear.
pub fn best_peer_ratios(rows: &[Row]) -> Vec<Ratio> {
    let mut best: Vec<Ratio> = Vec::new();
    for r in ratios(rows) {
        match best
            .iter_mut()
            .find(|b| b.family == r.family && b.op == r.op)
        {
            Some(b) if r.median < b.median => *b = r,
            Some(_) => {}
            None => best.push(r),
        }
    }
    best
}

/// Our kernel `ours` (default: the default kernel) of `family` against
/// (`codec`, `kernel`), per op.
fn compare(
    rows: &[Row],
    family: &str,
    ours: Option<&str>,
    pcodec: &str,
    pkernel: &str,
) -> Vec<Ratio> {
    let mut out = Vec::new();
    for op in Op::CODEC_OPS {
        let mut per_bucket = Vec::new();
        let (mut ours_t, mut peer_t) = (0.0, 0.0);
        let mut ours_name = String::new();
        for k in buckets(rows) {
            let ours = rows.iter().find(|r| {
                r.bucket == k
                    && r.family == family
                    && !r.peer
                    && ours.map_or(r.default_kernel, |kn| r.kernel == kn)
                    && r.op == op
            });
            let peer = find(rows, k, pcodec, pkernel, op);
            if let (Some(o), Some(p)) = (ours, peer) {
                per_bucket.push(p.seconds / o.seconds);
                ours_t += o.seconds;
                peer_t += p.seconds;
                ours_name = format!("{} {}", o.codec, o.kernel);
            }
        }
        if per_bucket.is_empty() {
            continue;
        }
        per_bucket.sort_by(f64::total_cmp);
        let n = per_bucket.len();
        let median = if n % 2 == 1 {
            per_bucket[n / 2]
        } else {
            (per_bucket[n / 2 - 1] + per_bucket[n / 2]) / 2.0
        };
        out.push(Ratio {
            family: family.to_string(),
            ours: ours_name,
            peer: format!("{pcodec} {pkernel}"),
            op,
            median,
            min: per_bucket[0],
            max: per_bucket[n - 1],
            overall: peer_t / ours_t,
        });
    }
    out
}

/// One family's table: a row per bucket, a column per (codec, kernel) and
/// op, and memcpy. `rows` holds that family's rows and the memcpy rows.
fn family_table(s: &mut String, family: &str, rows: &[Row]) {
    let cols = columns(rows);
    let reps = rows.first().map_or(0, |r| r.reps);
    let suite = rows.first().map_or("postings", |r| r.suite.as_str());
    // The ops measured (suite `ints`: no delta coding).
    let ops: Vec<Op> = Op::CODEC_OPS
        .into_iter()
        .filter(|op| rows.iter().any(|r| r.op == *op))
        .collect();
    let _ = writeln!(
        s,
        "\n[{family}] Speed in billions of ints per second (Bis, median of {reps} repetitions); \
         {}; * = default kernel; bits/int of {}:",
        if suite == "ints" {
            "bucket = bytes per value (mixed: 1..4 at random), unsorted"
        } else {
            "bucket 2^K = lists of 2^K..2^(K+1)-1 ints"
        },
        cols.iter().find(|c| c.label.ends_with('*')).map_or(
            "the first codec".to_string(),
            |c| format!("{} {}", c.codec, c.kernel)
        )
    );
    for c in cols.iter().filter(|c| c.codec.starts_with("peer:")) {
        let _ = writeln!(s, "  {} = {} ({})", c.label, c.codec, c.kernel);
        peer_notes(s, rows, c);
    }
    let w = cols
        .iter()
        .map(|c| c.label.len() + 1)
        .max()
        .unwrap_or(0)
        .max(7);
    let group = cols.len() * w;
    // Ops side by side while the line fits WIDTH; else one block per op.
    let lead_w = 7 + 1 + 7 + 1 + 10 + 1 + 8;
    let per_block = ((WIDTH - lead_w - 2 - w) / (group + 2)).max(1);
    for block in ops.chunks(per_block) {
        op_block(s, suite, rows, &cols, block, w);
    }
}

/// The rows of [`family_table`] for the ops of `block`.
fn op_block(s: &mut String, suite: &str, rows: &[Row], cols: &[Column], ops: &[Op], w: usize) {
    let group = cols.len() * w;
    let lead = format!("{:>7} {:>7} {:>10} {:>8}", "", "", "", "");
    let mut line1 = lead.clone();
    for op in ops {
        let _ = write!(line1, " |{:^group$}", op.name());
    }
    let _ = write!(line1, " |{:>w$}", "memcpy");
    let mut line2 = format!(
        "{:>7} {:>7} {:>10} {:>8}",
        "bucket", "lists", "ints", "bits/int"
    );
    for _ in ops {
        line2.push_str(" |");
        for c in cols {
            let _ = write!(line2, "{:>w$}", c.label);
        }
    }
    let _ = write!(line2, " |{:>w$}", "");
    let _ = writeln!(s, "{line1}\n{line2}");
    let _ = writeln!(s, "{}", "-".repeat(line2.len()));
    for k in buckets(rows) {
        let any = rows
            .iter()
            .find(|r| r.bucket == k)
            .expect("bucket has rows");
        let bits = rows
            .iter()
            .find(|r| r.bucket == k && r.default_kernel && r.op == Op::DecodeDelta)
            .or_else(|| {
                rows.iter()
                    .find(|r| r.bucket == k && r.default_kernel && r.op == Op::Decode)
            })
            .or_else(|| rows.iter().find(|r| r.bucket == k && r.op != Op::Copy))
            .map_or(f64::NAN, |r| r.bits_per_int);
        let _ = write!(
            s,
            "{:>7} {:>7} {:>10} {:>8.2}",
            crate::suites::bucket_label(suite, k),
            any.lists,
            any.ints,
            bits
        );
        for &op in ops {
            s.push_str(" |");
            for c in cols {
                match find(rows, k, &c.codec, &c.kernel, op) {
                    Some(r) => {
                        let _ = write!(s, "{:>w$.2}", r.mis() / 1e3);
                    }
                    None => {
                        let _ = write!(s, "{:>w$}", "-");
                    }
                }
            }
        }
        match rows.iter().find(|r| r.bucket == k && r.op == Op::Copy) {
            Some(r) => {
                let _ = writeln!(s, " |{:>w$.2}", r.mis() / 1e3);
            }
            None => {
                let _ = writeln!(s, " |{:>w$}", "-");
            }
        }
    }
}

/// One line of a ratio summary: op, ours, peer, median, min, max, overall.
fn ratio_line(s: &mut String, r: &Ratio) {
    let _ = writeln!(
        s,
        "  {:<14} {:<22} {:<24} {:>7.2}x {:>7.2}x {:>7.2}x {:>7.2}x",
        r.op.name(),
        r.ours,
        r.peer,
        r.median,
        r.min,
        r.max,
        r.overall
    );
}

/// Writes the terminal report: header, one table per format family (a row
/// per bucket), and the ours/peer summary.
pub fn table(o: &Outcome, header: &[String], out: &mut dyn Write) -> Result<(), String> {
    let mut s = crate::suites::report_text(header);
    let rows = &o.rows;
    let measured = rows.iter().filter(|r| r.op != Op::Copy);
    let families = crate::suites::first_seen(measured.map(|r| r.family.as_str()));
    for family in &families {
        let fam_rows: Vec<Row> = rows
            .iter()
            .filter(|r| r.family == *family || r.op == Op::Copy)
            .cloned()
            .collect();
        family_table(&mut s, family, &fam_rows);
    }
    let rs = ratios(rows);
    if rs.is_empty() {
        let _ = writeln!(
            s,
            "\nNo peer measured (built without the `peers` feature?)."
        );
    } else {
        let _ = writeln!(
            s,
            "\nSummary: speed ratio ours / peer (> 1 means ours is faster)"
        );
        let _ = writeln!(
            s,
            "  {:<14} {:<22} {:<24} {:>8} {:>8} {:>8} {:>8}",
            "op", "ours", "peer", "median", "min", "max", "overall"
        );
        for r in &rs {
            ratio_line(&mut s, r);
        }
        let _ = writeln!(
            s,
            "  (median/min/max over buckets; overall = total ints / total time, ours over peer)"
        );
        for (family, peer) in other_formats(rows) {
            let _ = writeln!(
                s,
                "  ({peer}: a different format from {family}, compared for speed only; \
                 bits/int in the [{family}] table's legend)"
            );
        }
        let _ = writeln!(
            s,
            "\nOurs / best peer (per family and op, the peer with the lowest median ratio)"
        );
        for r in best_peer_ratios(rows) {
            ratio_line(&mut s, &r);
        }
    }
    let kr = kernel_ratios(rows);
    if kr.len() > rs.len() {
        let _ = writeln!(s, "\nEach SIMD kernel / peer");
        for r in &kr {
            ratio_line(&mut s, r);
        }
    }
    let su = scalar_speedups(rows);
    if !su.is_empty() {
        let _ = writeln!(s, "\nSIMD speed-up: our default kernel / our scalar kernel");
        for r in &su {
            ratio_line(&mut s, r);
        }
    }
    for n in peer_build_notes(rows) {
        let _ = writeln!(s, "{n}");
    }
    let _ = writeln!(
        s,
        "\nEvery measured pass was checked against the source data (checksums); total run time {:.1} s.",
        o.elapsed.as_secs_f64()
    );
    out.write_all(s.as_bytes()).map_err(io)
}

/// Peers (family, codec) whose streams are not ours: their bits per int
/// differ from our default kernel's in some bucket.
fn other_formats(rows: &[Row]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for r in rows.iter().filter(|r| r.peer && r.op == Op::Decode) {
        let differs = rows.iter().any(|o| {
            o.bucket == r.bucket
                && o.family == r.family
                && o.default_kernel
                && o.op == Op::Decode
                && (o.bits_per_int - r.bits_per_int).abs() > 1e-9
        });
        let key = (r.family.clone(), r.codec.clone());
        if differs && !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

/// Lines on peers built apart (how, or why they are missing), when the
/// run measured their family.
fn peer_build_notes(rows: &[Row]) -> Vec<String> {
    if !rows.iter().any(|r| r.family == "streamvbyte") {
        return Vec::new();
    }
    let notes = crate::peers::build_notes("streamvbyte");
    if notes.is_empty() {
        return notes;
    }
    let mut out = vec![String::new()];
    out.extend(notes);
    out
}

/// Widest line of the terminal report (tables are split, prose wrapped).
pub const WIDTH: usize = 120;

/// `text` with every line wider than [`WIDTH`] wrapped at spaces; the
/// continuation lines are indented two spaces past the line's own indent.
/// A word longer than the width is cut.
pub fn fit(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if body.chars().count() <= WIDTH {
            out.push_str(line);
            continue;
        }
        let indent = body.len() - body.trim_start().len();
        let cont = " ".repeat((indent + 2).min(WIDTH / 2));
        let mut cur = body[..indent].to_string();
        let mut fresh = true;
        for word in body.split_whitespace() {
            let mut word = word.to_string();
            loop {
                let need = if fresh { 0 } else { 1 } + word.chars().count();
                if cur.chars().count() + need <= WIDTH {
                    if !fresh {
                        cur.push(' ');
                    }
                    cur.push_str(&word);
                    fresh = false;
                    break;
                }
                if fresh {
                    // Longer than a whole line: cut it.
                    let room = WIDTH - cur.chars().count();
                    let cut: String = word.chars().take(room).collect();
                    word = word.chars().skip(room).collect();
                    cur.push_str(&cut);
                }
                out.push_str(cur.trim_end());
                out.push('\n');
                cur = cont.clone();
                fresh = true;
                if word.is_empty() {
                    break;
                }
            }
        }
        out.push_str(cur.trim_end());
        out.push_str(nl);
    }
    out
}

/// A writer that passes the report through [`fit`] line by line.
pub struct Fit<'a> {
    inner: &'a mut dyn Write,
    pending: Vec<u8>,
}

impl<'a> Fit<'a> {
    /// Wraps `inner`.
    pub fn new(inner: &'a mut dyn Write) -> Self {
        Fit {
            inner,
            pending: Vec::new(),
        }
    }

    fn emit(&mut self, upto: usize) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.pending[..upto]).into_owned();
        self.inner.write_all(fit(&text).as_bytes())?;
        self.pending.drain(..upto);
        Ok(())
    }
}

impl Write for Fit<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            self.emit(last + 1)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let n = self.pending.len();
            self.emit(n)?;
        }
        self.inner.flush()
    }
}

/// The project's speed target for a suite's comparison of ours with the
/// best peer, as the README states it: at least as fast as the fastest peer
/// of each format (`postings`, `ints`), sorted decode of 256-int arrays
/// twice as fast as `bitpacking`'s (`keys`), single values 1.3x varint-simd
/// (`varint`).
pub fn target(suite: &str, op: Op) -> Option<f64> {
    match (suite, op) {
        ("postings" | "ints", _) => Some(1.0),
        ("keys", Op::Decode) => Some(2.0),
        ("varint", _) => Some(1.3),
        _ => None,
    }
}

/// One line of the final summary: per suite, family and op, ours against
/// the best peer (the peer whose median ratio is lowest).
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryLine {
    /// The suite.
    pub suite: String,
    /// The format family.
    pub family: String,
    /// The operation.
    pub op: Op,
    /// Our codec and kernel (the fastest of ours in most buckets).
    pub ours: String,
    /// The best peer (codec and kernel).
    pub peer: String,
    /// Median over buckets of ours / peer speed.
    pub ratio: f64,
    /// The target ratio, when the project states one.
    pub target: Option<f64>,
}

impl SummaryLine {
    /// `meets`, `within 5%` or `below`, against [`SummaryLine::target`].
    pub fn verdict(&self) -> String {
        match self.target {
            None => "no target".to_string(),
            Some(t) if self.ratio >= t => format!("meets {t:.1}x"),
            Some(t) if self.ratio >= 0.95 * t => format!("within 5% of {t:.1}x"),
            Some(t) => format!("below {t:.1}x"),
        }
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The summary of a run: for each (suite, family, op) with a peer, ours
/// (per bucket, the fastest of our default kernels) against each peer,
/// median over buckets of the speed ratio; the best peer is the one with
/// the lowest median.
pub fn summary(rows: &[Row]) -> Vec<SummaryLine> {
    let mut keys: Vec<(&str, &str, Op)> = Vec::new();
    for r in rows.iter().filter(|r| r.peer) {
        let k = (r.suite.as_str(), r.family.as_str(), r.op);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut out = Vec::new();
    for (suite, family, op) in keys {
        let group: Vec<&Row> = rows
            .iter()
            .filter(|r| r.suite == suite && r.family == family && r.op == op)
            .collect();
        let mut ks: Vec<u32> = group.iter().map(|r| r.bucket).collect();
        ks.sort_unstable();
        ks.dedup();
        // Per bucket, our fastest default row.
        let ours_at = |k: u32| {
            group
                .iter()
                .filter(|r| r.bucket == k && !r.peer && r.default_kernel)
                .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
        };
        let mut winners: Vec<(String, usize)> = Vec::new();
        for k in &ks {
            if let Some(o) = ours_at(*k) {
                let name = format!("{} {}", o.codec, o.kernel);
                match winners.iter_mut().find(|w| w.0 == name) {
                    Some(w) => w.1 += 1,
                    None => winners.push((name, 1)),
                }
            }
        }
        let Some(ours) = winners.iter().max_by_key(|w| w.1).map(|w| w.0.clone()) else {
            continue;
        };
        let mut peers: Vec<(&str, &str)> = Vec::new();
        for r in group.iter().filter(|r| r.peer) {
            if !peers.contains(&(r.codec.as_str(), r.kernel.as_str())) {
                peers.push((r.codec.as_str(), r.kernel.as_str()));
            }
        }
        let mut best: Option<(f64, String)> = None;
        for (pc, pk) in peers {
            let mut ratios: Vec<f64> = ks
                .iter()
                .filter_map(|&k| {
                    let o = ours_at(k)?;
                    let p = group
                        .iter()
                        .find(|r| r.bucket == k && r.codec == pc && r.kernel == pk)?;
                    Some(p.seconds / o.seconds)
                })
                .collect();
            if ratios.is_empty() {
                continue;
            }
            let m = median(&mut ratios);
            if best.as_ref().is_none_or(|b| m < b.0) {
                best = Some((m, format!("{pc} {pk}")));
            }
        }
        if let Some((ratio, peer)) = best {
            out.push(SummaryLine {
                suite: suite.to_string(),
                family: family.to_string(),
                op,
                ours,
                peer,
                ratio,
                target: target(suite, op),
            });
        }
    }
    out
}

fn clip(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else {
        let mut c: String = s.chars().take(w - 1).collect();
        c.push('~');
        c
    }
}

/// Writes the one-screen summary that ends the terminal report.
pub fn summary_table(rows: &[Row], out: &mut dyn Write) -> Result<(), String> {
    let lines = summary(rows);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n== Summary: ours / best peer (median over buckets; > 1.00x: ours faster) =="
    );
    if lines.is_empty() {
        let _ = writeln!(
            s,
            "No peer measured (built without the `peers` feature? scripts/bench.sh enables it)."
        );
        return out.write_all(s.as_bytes()).map_err(io);
    }
    let _ = writeln!(
        s,
        "{:<8} {:<11} {:<13} {:<24} {:<32} {:>7}  target",
        "suite", "family", "op", "ours", "best peer", "ratio"
    );
    for l in &lines {
        let _ = writeln!(
            s,
            "{:<8} {:<11} {:<13} {:<24} {:<32} {:>6.2}x  {}",
            clip(&l.suite, 8),
            clip(&l.family, 11),
            clip(l.op.name(), 13),
            clip(&l.ours, 24),
            clip(&l.peer, 32),
            l.ratio,
            l.verdict()
        );
    }
    let met = lines
        .iter()
        .filter(|l| l.target.is_some_and(|t| l.ratio >= t))
        .count();
    let with = lines.iter().filter(|l| l.target.is_some()).count();
    let _ = writeln!(
        s,
        "Targets (README): postings and ints >= 1.0x the fastest peer of each format; keys decode >= 2.0x \
         bitpacking; varint >= 1.3x. Met: {met} of {with}."
    );
    out.write_all(fit(&s).as_bytes()).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(k: u32, codec: &str, kernel: &str, peer: bool, def: bool, op: Op, secs: f64) -> Row {
        Row {
            suite: "postings".into(),
            dataset: "d".into(),
            bucket: k,
            lists: 3,
            codec: codec.into(),
            kernel: kernel.into(),
            family: if codec == "memcpy" {
                "memcpy"
            } else {
                "streamvbyte"
            }
            .into(),
            peer,
            default_kernel: def,
            op,
            ints: 1000,
            bits_per_int: 12.0,
            seconds: secs,
            seconds_min: secs,
            seconds_max: secs,
            reps: 1,
        }
    }

    #[test]
    fn ratios_are_peer_time_over_ours() {
        let mut rows = Vec::new();
        for (k, ours, peer) in [(5u32, 1.0, 2.0), (6, 1.0, 1.0), (7, 2.0, 1.0)] {
            for op in Op::CODEC_OPS {
                rows.push(row(k, "streamvbyte", "scalar", false, false, op, 9.0));
                rows.push(row(k, "streamvbyte", "sse41", false, true, op, ours));
                rows.push(row(k, "peer:streamvbyte", "c-simd", true, false, op, peer));
            }
            rows.push(row(k, "memcpy", "copy", false, false, Op::Copy, 0.5));
        }
        let rs = ratios(&rows);
        assert_eq!(rs.len(), 4);
        for r in &rs {
            assert_eq!(r.median, 1.0);
            assert_eq!(r.min, 0.5);
            assert_eq!(r.max, 2.0);
            assert_eq!(r.overall, 4.0 / 4.0);
            assert_eq!(r.ours, "streamvbyte sse41");
        }
        let o = Outcome {
            dataset: "d".into(),
            description: "x".into(),
            rows,
            elapsed: std::time::Duration::ZERO,
        };
        let mut t = Vec::new();
        table(&o, &["hdr".to_string()], &mut t).unwrap();
        let t = String::from_utf8(t).unwrap();
        assert!(t.contains("sse41*") && t.contains("peer") && t.contains("memcpy"));
        let mut j = Vec::new();
        json(&o, &mut j).unwrap();
        let j = String::from_utf8(j).unwrap();
        assert!(j.trim_start().starts_with('[') && j.trim_end().ends_with(']'));
        assert_eq!(j.matches("\"suite\"").count(), o.rows.len());
    }

    #[test]
    fn best_peer_is_the_one_we_beat_least() {
        let mut rows = Vec::new();
        for k in [5u32, 6, 7] {
            for op in [Op::Decode, Op::Encode] {
                rows.push(row(k, "vbyte", "avx2", false, true, op, 1.0));
                // Decode: peer a is faster than peer b; encode: b is.
                let (a, b) = if op == Op::Decode {
                    (0.5, 2.0)
                } else {
                    (3.0, 1.5)
                };
                rows.push(row(k, "peer:a", "rust", true, false, op, a));
                rows.push(row(k, "peer:b", "rust", true, false, op, b));
            }
        }
        for r in rows.iter_mut() {
            r.family = "vbyte".into();
        }
        let best = best_peer_ratios(&rows);
        assert_eq!(best.len(), 2, "{best:?}");
        assert_eq!(
            (best[0].op, best[0].peer.as_str()),
            (Op::Decode, "peer:a rust")
        );
        assert_eq!(best[0].median, 0.5);
        assert_eq!(
            (best[1].op, best[1].peer.as_str()),
            (Op::Encode, "peer:b rust")
        );
        assert_eq!(best[1].median, 1.5);
    }

    /// A run with many columns (the VByte family: three kernels of ours and
    /// five peers) renders with no line wider than WIDTH; table rows fit
    /// without wrapping; the summary names the best peer and a verdict.
    #[test]
    fn report_lines_fit_the_width() {
        let mut rows = Vec::new();
        let peers = [
            "peer:prost",
            "peer:integer-encoding",
            "peer:leb128",
            "peer:varint-simd",
            "peer:unsigned-varint",
        ];
        for k in 5u32..=16 {
            for op in Op::CODEC_OPS {
                for (kern, def, secs) in [
                    ("scalar", false, 4.0),
                    ("sse41", false, 2.0),
                    ("avx2", true, 1.0),
                ] {
                    rows.push(row(k, "vbyte", kern, false, def, op, secs));
                }
                for (i, p) in peers.iter().enumerate() {
                    rows.push(row(k, p, "rust", true, false, op, 1.5 + i as f64));
                }
            }
            rows.push(row(k, "memcpy", "copy", false, false, Op::Copy, 0.5));
        }
        for r in rows.iter_mut().filter(|r| r.codec != "memcpy") {
            r.family = "vbyte".into();
            r.bits_per_int = 9.0 + f64::from(r.bucket) / 7.0;
        }
        let o = Outcome {
            dataset: "d".into(),
            description: "x".into(),
            rows: rows.clone(),
            elapsed: std::time::Duration::ZERO,
        };
        let long = "build: ".to_string() + &"a-long-build-note ".repeat(20);
        let mut raw = Vec::new();
        table(&o, std::slice::from_ref(&long), &mut raw).unwrap();
        summary_table(&rows, &mut raw).unwrap();
        let raw = String::from_utf8(raw).unwrap();
        for line in raw.lines().filter(|l| l.contains(" |")) {
            assert!(line.len() <= WIDTH, "table row of {}: {line}", line.len());
        }
        let mut out = Vec::new();
        {
            let mut f = Fit::new(&mut out);
            f.write_all(raw.as_bytes()).unwrap();
            f.flush().unwrap();
        }
        let out = String::from_utf8(out).unwrap();
        for line in out.lines() {
            assert!(line.chars().count() <= WIDTH, "{} wide: {line}", line.len());
        }
        // Nothing lost by wrapping.
        let words = |t: &str| t.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&out), words(&raw));
        assert!(out.contains("decode_delta") && out.contains("uns-var"));
        let sum = summary(&rows);
        assert_eq!(sum.len(), 4);
        for l in &sum {
            assert_eq!(l.peer, "peer:prost rust");
            assert_eq!(l.ours, "vbyte avx2");
            assert_eq!(l.ratio, 1.5);
            assert_eq!(l.verdict(), "meets 1.0x");
        }
        let tail: Vec<&str> = out.lines().rev().take(6).collect();
        assert!(tail
            .iter()
            .any(|l| l.contains("peer:prost rust") && l.contains("meets")));
        assert!(!out.contains("issue"));
    }

    #[test]
    fn fit_wraps_prose_and_keeps_short_lines() {
        assert_eq!(fit("short\nlines\n"), "short\nlines\n");
        let long = format!("  {}", "word ".repeat(40));
        let f = fit(&long);
        let lines: Vec<&str> = f.lines().collect();
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.len() <= WIDTH));
        assert!(lines[1].starts_with("    word"));
        let huge = "x".repeat(300);
        assert!(fit(&huge).lines().all(|l| l.len() <= WIDTH));
        assert_eq!(
            fit(&huge).lines().map(|l| l.trim().len()).sum::<usize>(),
            300
        );
    }

    #[test]
    fn verdicts() {
        let mut l = SummaryLine {
            suite: "keys".into(),
            family: "keys".into(),
            op: Op::Decode,
            ours: "o".into(),
            peer: "p".into(),
            ratio: 1.95,
            target: target("keys", Op::Decode),
        };
        assert_eq!(l.verdict(), "within 5% of 2.0x");
        l.ratio = 1.5;
        assert_eq!(l.verdict(), "below 2.0x");
        l.target = target("seek", Op::Seek);
        assert_eq!(l.verdict(), "no target");
    }

    #[test]
    fn csv_quotes_when_needed() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(json_str("a\"b\\"), "\"a\\\"b\\\\\"");
    }
}
