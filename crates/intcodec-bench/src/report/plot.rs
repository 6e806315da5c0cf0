//! Figures of a run as one SVG document (no dependencies), in the papers'
//! forms:
//!
//! - **Fig. 5a** (Stream VByte paper): delta-decoding speed of posting lists,
//!   billions of ints per second, against compressibility (the bucket's
//!   bits per int under VByte, the common yardstick; a codec's own bits when
//!   VByte was not run), one line per codec (our default kernels, the peers,
//!   and `memcpy`).
//! - **Fig. 5b**: extra bits per int over VByte, per format.
//! - **Fig. 6a / 6b**: random `seek` and `select` on arrays of 256 ints with
//!   `b`-bit deltas, millions of operations per second against `b` (rows of
//!   the `seek` suite: `bucket` is `b`).
//!
//! Panels without data are left out; [`svg`] returns `None` when no panel
//! has any. PNG is made from the SVG by `rsvg-convert` (see `cli.rs`).

use crate::measure::Op;
use crate::suites::Row;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Who a line belongs to: drawn differently so ours stand out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Our codecs: thick solid lines, first in the legend.
    Ours,
    /// Other projects' codecs: thin dashed lines.
    Peer,
    /// The memcpy reference: a thin dotted black line.
    Reference,
}

/// One line of a panel: a label and its points, sorted by x.
struct Series {
    label: String,
    kind: Kind,
    points: Vec<(f64, f64)>,
}

/// One chart.
struct Panel {
    title: String,
    x_label: String,
    y_label: String,
    series: Vec<Series>,
}

/// A panel's width and height, pixels.
const PANEL_W: f64 = 560.0;
const PANEL_H: f64 = 380.0;
/// The plot area's margins in a panel: left, right (the legend), top,
/// bottom, pixels.
const MARGIN: Margins = Margins {
    left: 70.0,
    right: 170.0,
    top: 40.0,
    bottom: 50.0,
};

struct Margins {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}
/// Colours of our lines (strong, colour-blind-safe), in order.
const OURS: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#332288", "#117733", "#882255",
];
/// Colours of peer lines: none of them is one of [`OURS`].
const PEERS: [&str; 20] = [
    "#56B4E9", "#999999", "#AA4499", "#44AA99", "#DDCC77", "#661100", "#6699CC", "#999933",
    "#CC6677", "#AA7744", "#88CCEE", "#7F3C8D", "#A6761D", "#E7298A", "#66A61E", "#FB9A99",
    "#B2DF8A", "#CAB2D6", "#6A3D9A", "#BC80BD",
];
/// Dash patterns cycled through once a palette is used up, so no two lines
/// look the same.
const PEER_DASH: [&str; 3] = ["6,3", "2,2", "8,3,2,3"];

/// A codec's legend label: the codec column, with the kernel for ours.
fn label(r: &Row) -> String {
    if r.peer || r.codec == "memcpy" {
        r.codec.clone()
    } else {
        format!("{} {}", r.codec, r.kernel)
    }
}

fn kind(r: &Row) -> Kind {
    if r.peer {
        Kind::Peer
    } else if r.codec == "memcpy" {
        Kind::Reference
    } else {
        Kind::Ours
    }
}

/// The rows a line is drawn for: peers, memcpy and our default kernels.
fn plotted(r: &Row) -> bool {
    r.peer || r.codec == "memcpy" || r.default_kernel
}

/// VByte's bits per int in each (suite, dataset, bucket), if measured.
fn vbyte_bits(rows: &[Row]) -> BTreeMap<(String, String, u32), f64> {
    rows.iter()
        .filter(|r| r.family == "vbyte" && !r.peer && r.op == Op::DecodeDelta)
        .map(|r| {
            (
                (r.suite.clone(), r.dataset.clone(), r.bucket),
                r.bits_per_int,
            )
        })
        .collect()
}

fn postings_panels(rows: &[Row]) -> Vec<Panel> {
    let vb = vbyte_bits(rows);
    let x_of = |r: &Row| {
        vb.get(&(r.suite.clone(), r.dataset.clone(), r.bucket))
            .copied()
            .unwrap_or(r.bits_per_int)
    };
    let mut speed: BTreeMap<(Kind, String), Vec<(f64, f64)>> = BTreeMap::new();
    let mut extra: BTreeMap<(Kind, String), Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.suite == "postings" && plotted(r)) {
        let copy = r.codec == "memcpy" && r.op == Op::Copy;
        if r.op == Op::DecodeDelta || copy {
            speed
                .entry((kind(r), label(r)))
                .or_default()
                .push((x_of(r), r.mis() / 1e3));
        }
        if r.op == Op::DecodeDelta && !r.peer && !vb.is_empty() && r.family != "vbyte" {
            extra
                .entry((Kind::Ours, r.codec.clone()))
                .or_default()
                .push((x_of(r), r.bits_per_int - x_of(r)));
        }
    }
    let x_label = if vb.is_empty() {
        "bits per int (each codec's own)"
    } else {
        "bits per int under VByte (compressibility of the bucket)"
    };
    vec![
        Panel {
            title: "Fig. 5a: delta decoding of posting lists".into(),
            x_label: x_label.into(),
            y_label: "billions of ints per second".into(),
            series: to_series(speed),
        },
        Panel {
            title: "Fig. 5b: extra bits per int over VByte".into(),
            x_label: x_label.into(),
            y_label: "bits per int - VByte's".into(),
            series: merge_equal(to_series(extra)),
        },
    ]
}

fn seek_panels(rows: &[Row]) -> Vec<Panel> {
    [
        ("seek", "Fig. 6a: random seek, arrays of 256 ints"),
        ("select", "Fig. 6b: random select, arrays of 256 ints"),
    ]
    .into_iter()
    .map(|(op, title)| {
        let mut by: BTreeMap<(Kind, String), Vec<(f64, f64)>> = BTreeMap::new();
        for r in rows
            .iter()
            .filter(|r| r.suite == "seek" && r.op.name() == op && plotted(r))
        {
            by.entry((kind(r), label(r)))
                .or_default()
                .push((f64::from(r.bucket), r.mis()));
        }
        Panel {
            title: title.into(),
            x_label: "b (deltas random in [0, 2^b))".into(),
            y_label: "millions of operations per second".into(),
            series: to_series(by),
        }
    })
    .collect()
}

/// Series in legend order: ours, then peers, then the reference.
fn to_series(m: BTreeMap<(Kind, String), Vec<(f64, f64)>>) -> Vec<Series> {
    m.into_iter()
        .filter(|(_, p)| !p.is_empty())
        .map(|((kind, label), mut points)| {
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            Series {
                label,
                kind,
                points,
            }
        })
        .collect()
}

/// One line for series with the same points (one would hide the other),
/// labelled with every name (`streamvbyte = varint-gb`).
fn merge_equal(series: Vec<Series>) -> Vec<Series> {
    let mut out: Vec<Series> = Vec::new();
    for s in series {
        match out
            .iter_mut()
            .find(|o| o.kind == s.kind && o.points == s.points)
        {
            Some(o) => {
                o.label.push_str(" = ");
                o.label.push_str(&s.label);
            }
            None => out.push(s),
        }
    }
    out
}

/// Colour, stroke width and dash pattern of each series of a panel: every
/// series has its own look (no colour repeats within a palette's length).
fn styles(series: &[Series]) -> Vec<(&'static str, f64, &'static str)> {
    let (mut o, mut p) = (0, 0);
    series
        .iter()
        .map(|s| match s.kind {
            Kind::Ours => {
                let c = OURS[o % OURS.len()];
                let dash = if o >= OURS.len() { "10,2" } else { "" };
                o += 1;
                (c, 2.6, dash)
            }
            Kind::Peer => {
                let c = PEERS[p % PEERS.len()];
                let dash = PEER_DASH[(p / PEERS.len()) % PEER_DASH.len()];
                p += 1;
                (c, 1.3, dash)
            }
            Kind::Reference => ("#000000", 1.3, "1,3"),
        })
        .collect()
}

/// The legend's row height and the extra space before each group heading
/// (ours, peers, reference): 13 and 12 points, closer together when the
/// legend would otherwise run past the bottom of the panel (the main job's
/// Fig. 5a has 20 entries with G8IU).
fn legend_spacing(series: &[Series]) -> (f64, f64) {
    let mut groups: Vec<Kind> = series.iter().map(|s| s.kind).collect();
    groups.dedup();
    let want = series.len() as f64 * 13.0 + groups.len() as f64 * 16.0;
    // From 4 points under the frame's top to 6 above the panel's bottom.
    let room = PANEL_H - MARGIN.top - 10.0;
    let k = (room / want).min(1.0);
    (13.0 * k, 12.0 * k)
}

/// A "nice" step (1, 2 or 5 × 10^k) for about `n` ticks over `span`.
fn tick_step(span: f64, n: f64) -> f64 {
    let raw = (span / n).max(f64::MIN_POSITIVE);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Draws `p` with its top-left corner at (`ox`, `oy`).
fn draw(svg: &mut String, p: &Panel, ox: f64, oy: f64) {
    let pts = p.series.iter().flat_map(|s| s.points.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, 0f64, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    if y1 <= y0 {
        y1 = y0 + 1.0;
    }
    let (xs, ys) = (tick_step(x1 - x0, 6.0), tick_step(y1 - y0, 6.0));
    let (x0, x1) = ((x0 / xs).floor() * xs, (x1 / xs).ceil() * xs);
    let (y0, y1) = ((y0 / ys).floor() * ys, (y1 / ys).ceil() * ys);
    let (w, h) = (
        PANEL_W - MARGIN.left - MARGIN.right,
        PANEL_H - MARGIN.top - MARGIN.bottom,
    );
    let (left, top) = (ox + MARGIN.left, oy + MARGIN.top);
    let px = |x: f64| left + (x - x0) / (x1 - x0) * w;
    let py = |y: f64| top + h - (y - y0) / (y1 - y0) * h;
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="15" font-weight="bold">{}</text>"#,
        left,
        oy + 22.0,
        esc(&p.title)
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{left:.1}" y="{top:.1}" width="{w:.1}" height="{h:.1}" fill="none" stroke="#444"/>"##
    );
    let decimals = |step: f64| {
        if step >= 1.0 {
            0
        } else {
            (-step.log10()).ceil() as usize
        }
    };
    let mut x = x0;
    while x <= x1 + xs / 2.0 {
        let _ = writeln!(
            svg,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="#ddd"/><text x="{0:.1}" y="{3:.1}" font-size="11" text-anchor="middle">{4:.5$}</text>"##,
            px(x),
            top,
            top + h,
            top + h + 15.0,
            x,
            decimals(xs)
        );
        x += xs;
    }
    let mut y = y0;
    while y <= y1 + ys / 2.0 {
        let _ = writeln!(
            svg,
            r##"<line x1="{0:.1}" y1="{1:.1}" x2="{2:.1}" y2="{1:.1}" stroke="#ddd"/><text x="{3:.1}" y="{4:.1}" font-size="11" text-anchor="end">{5:.6$}</text>"##,
            left,
            py(y),
            left + w,
            left - 5.0,
            py(y) + 4.0,
            y,
            decimals(ys)
        );
        y += ys;
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" font-size="12" text-anchor="middle">{}</text>"#,
        left + w / 2.0,
        top + h + 35.0,
        esc(&p.x_label)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate({:.1},{:.1}) rotate(-90)" font-size="12" text-anchor="middle">{}</text>"#,
        ox + 18.0,
        top + h / 2.0,
        esc(&p.y_label)
    );
    let styles = styles(&p.series);
    let (row, gap) = legend_spacing(&p.series);
    let mut ly = top + 4.0;
    let mut heading = None;
    for (s, &(c, width, dash)) in p.series.iter().zip(&styles) {
        let dash_attr = if dash.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{dash}""#)
        };
        let path: Vec<String> = s
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="{width}"{dash_attr}/>"#,
            path.join(" ")
        );
        let r = if s.kind == Kind::Ours { 3.0 } else { 1.8 };
        for &(x, y) in &s.points {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="{c}"/>"#,
                px(x),
                py(y)
            );
        }
        if heading != Some(s.kind) {
            heading = Some(s.kind);
            let title = match s.kind {
                Kind::Ours => "intcodec (ours)",
                Kind::Peer => "peers",
                Kind::Reference => "reference",
            };
            ly += gap;
            let _ = writeln!(
                svg,
                r##"<text x="{:.1}" y="{:.1}" font-size="11" font-style="italic" fill="#444">{title}</text>"##,
                left + w + 8.0,
                ly
            );
            ly += gap / 3.0;
        }
        ly += row;
        let weight = if s.kind == Kind::Ours {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{0:.1}" y1="{1:.1}" x2="{2:.1}" y2="{1:.1}" stroke="{c}" stroke-width="{width}"{dash_attr}/><text x="{3:.1}" y="{4:.1}" font-size="10"{weight}>{5}</text>"#,
            left + w + 8.0,
            ly - 3.0,
            left + w + 28.0,
            left + w + 32.0,
            ly,
            esc(&s.label)
        );
    }
}

/// The figures for `rows` as one SVG document titled with `title` (say, the
/// CPU and the dataset), or `None` if no figure has data.
pub fn svg(rows: &[Row], title: &str) -> Option<String> {
    let panels: Vec<Panel> = postings_panels(rows)
        .into_iter()
        .chain(seek_panels(rows))
        .filter(|p| !p.series.is_empty())
        .collect();
    if panels.is_empty() {
        return None;
    }
    let cols = panels.len().min(2);
    let rows_n = panels.len().div_ceil(2);
    let (w, h) = (PANEL_W * cols as f64, PANEL_H * rows_n as f64 + 40.0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="26" font-size="17" text-anchor="middle">{}</text>"#,
        w / 2.0,
        esc(title)
    );
    for (i, p) in panels.iter().enumerate() {
        let (c, r) = (i % 2, i / 2);
        draw(&mut s, p, PANEL_W * c as f64, 40.0 + PANEL_H * r as f64);
    }
    s.push_str("</svg>\n");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(codec: &str, family: &str, op: Op, bucket: u32, bits: f64, secs: f64) -> Row {
        Row {
            suite: "postings".into(),
            dataset: "d".into(),
            bucket,
            lists: 1,
            codec: codec.into(),
            kernel: "k".into(),
            family: family.into(),
            peer: codec.starts_with("peer:"),
            default_kernel: true,
            op,
            ints: 1000,
            bits_per_int: bits,
            seconds: secs,
            seconds_min: secs,
            seconds_max: secs,
            reps: 1,
        }
    }

    #[test]
    fn figures_have_the_papers_panels_and_every_codec() {
        let mut rows = Vec::new();
        for k in 5..8 {
            rows.push(row(
                "streamvbyte",
                "streamvbyte",
                Op::DecodeDelta,
                k,
                10.0 + f64::from(k),
                1e-6,
            ));
            rows.push(row(
                "vbyte",
                "vbyte",
                Op::DecodeDelta,
                k,
                8.0 + f64::from(k),
                2e-6,
            ));
            rows.push(row(
                "peer:streamvbyte",
                "streamvbyte",
                Op::DecodeDelta,
                k,
                10.0 + f64::from(k),
                1.5e-6,
            ));
            rows.push(row("memcpy", "memcpy", Op::Copy, k, 32.0, 0.5e-6));
        }
        let s = svg(&rows, "cpu <x>").expect("postings panels");
        assert!(s.contains("Fig. 5a") && s.contains("Fig. 5b"));
        assert!(!s.contains("Fig. 6a"), "no seek rows, no seek panel");
        assert!(s.contains("cpu &lt;x&gt;"), "title escaped");
        for name in ["streamvbyte k", "vbyte k", "peer:streamvbyte", "memcpy"] {
            assert!(s.contains(&format!(">{name}</text>")), "legend has {name}");
        }
        // Fig. 5b: Stream VByte is 2 bits over VByte in every bucket.
        assert!(s.matches("<polyline").count() >= 5);
        assert!(svg(&[], "t").is_none());
    }

    /// However many entries, the legend ends inside its panel.
    #[test]
    fn legend_stays_inside_the_panel() {
        for peers in [3usize, 16, 40] {
            let mut rows = Vec::new();
            for k in 5..8 {
                rows.push(row("vbyte", "vbyte", Op::DecodeDelta, k, 9.0, 1e-6));
                for i in 0..peers {
                    let name = format!("peer:p{i}");
                    rows.push(row(
                        &name,
                        "vbyte",
                        Op::DecodeDelta,
                        k,
                        9.0,
                        2e-6 + i as f64 * 1e-7,
                    ));
                }
                rows.push(row("memcpy", "memcpy", Op::Copy, k, 32.0, 0.5e-6));
            }
            let s = svg(&rows, "t").expect("panels");
            // The reference is the legend's last entry; Fig. 5a is drawn
            // first, and its panel ends at 40 + PANEL_H.
            let end = s
                .lines()
                .find(|l| l.contains(">memcpy</text>"))
                .map(|l| {
                    let y = l.rsplit("y=\"").next().expect("y");
                    y[..y.find('"').expect("quote")]
                        .parse::<f64>()
                        .expect("number")
                })
                .expect("legend entry");
            assert!(
                end <= 40.0 + PANEL_H - 4.0,
                "{peers} peers: legend ends at {end}"
            );
        }
    }

    /// Sixteen series (as the main job's Fig. 5a): every one has its own
    /// colour and dash; ours are solid and thick, peers thin and dashed;
    /// series with equal points are one line named after both.
    #[test]
    fn every_series_looks_different_and_ours_stand_out() {
        let mk = |kind, i: usize| Series {
            label: format!("s{i}"),
            kind,
            points: vec![(0.0, i as f64)],
        };
        let mut series: Vec<Series> = (0..5).map(|i| mk(Kind::Ours, i)).collect();
        // Twenty peers: Fig. 5a draws 14 to 16 today.
        series.extend((5..25).map(|i| mk(Kind::Peer, i)));
        series.push(mk(Kind::Reference, 25));
        let st = styles(&series);
        for (i, a) in st.iter().enumerate() {
            for b in &st[i + 1..] {
                assert!(a.0 != b.0, "colour {} used twice", a.0);
            }
        }
        for (s, (_, width, dash)) in series.iter().zip(&st) {
            match s.kind {
                Kind::Ours => assert!(dash.is_empty() && *width > 2.0),
                _ => assert!(!dash.is_empty() && *width < 2.0),
            }
        }
        let merged = merge_equal(vec![
            Series {
                label: "streamvbyte".into(),
                kind: Kind::Ours,
                points: vec![(1.0, 2.0)],
            },
            Series {
                label: "varint-gb".into(),
                kind: Kind::Ours,
                points: vec![(1.0, 2.0)],
            },
            Series {
                label: "bp128".into(),
                kind: Kind::Ours,
                points: vec![(1.0, 0.5)],
            },
        ]);
        assert_eq!(merged.len(), 2);
        assert_eq!(merged[0].label, "streamvbyte = varint-gb");
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(tick_step(10.0, 5.0), 2.0);
        assert_eq!(tick_step(0.9, 6.0), 0.2);
        assert_eq!(tick_step(24.0, 6.0), 5.0);
    }
}
