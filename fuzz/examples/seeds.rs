//! Writes the committed seed inputs, `fuzz/corpus/<target>/seed-*`, from the
//! golden vectors in `testdata/` (each vector in each target's input layout,
//! plus truncated copies for the decoders). Run from `fuzz/` after changing
//! a golden file or a target's input layout:
//!
//! ```text
//! cargo run --example seeds
//! ```
//!
//! Adding a codec: parse its golden file here and write seeds for its
//! targets (see `fuzz/README.md`).

use intcodec_fuzz::{DecodeCase, Writer};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One golden vector: `key = value` fields (see `testdata/streamvbyte.txt`).
struct Vector(HashMap<String, String>);

impl Vector {
    fn get(&self, k: &str) -> &str {
        self.0.get(k).map(String::as_str).unwrap_or("")
    }
    /// Which of two words field `k` holds (`[false, true]`); panics on
    /// another.
    fn flag(&self, k: &str, words: [&[&str]; 2]) -> bool {
        let w = self.get(k);
        let at = words.iter().position(|ws| ws.contains(&w));
        at.unwrap_or_else(|| panic!("unknown {k} {w}")) == 1
    }
    fn values(&self) -> Vec<u32> {
        let v = self.get("values").split_whitespace();
        v.map(|x| x.parse().expect("decimal u32")).collect()
    }
    fn bytes(&self) -> Vec<u8> {
        let b = self.get("bytes").split_whitespace();
        b.map(|x| u8::from_str_radix(x, 16).expect("hex byte"))
            .collect()
    }
    /// The values as u64s (VByte's `type = u64` vectors).
    fn values_u64(&self) -> Vec<u64> {
        let v = self.get("values").split_whitespace();
        v.map(|x| x.parse().expect("decimal u64")).collect()
    }
    /// `None` for "delta = none", else the previous value.
    fn delta(&self) -> Option<u32> {
        self.delta_u64()
            .map(|p| u32::try_from(p).expect("u32 delta base"))
    }
    /// [`Vector::delta`] for u64 vectors.
    fn delta_u64(&self) -> Option<u64> {
        match self.get("delta") {
            "none" | "" => None,
            p => Some(p.parse().expect("delta base")),
        }
    }
}

fn load(root: &Path, file: &str) -> Vec<Vector> {
    let text = std::fs::read_to_string(root.join("testdata").join(file)).expect("golden file");
    text.split("\n\n")
        .map(|block| {
            let lines = block.lines().filter(|l| !l.starts_with('#'));
            let pairs = lines.filter_map(|l| l.split_once('='));
            Vector(
                pairs
                    .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                    .collect(),
            )
        })
        .filter(|v| !v.0.is_empty())
        .collect()
}

struct Seeds {
    corpus: PathBuf,
    /// The targets of `targets.txt`: seeds for any other name (a target
    /// replaced by the generic `codec_*` ones) are not written.
    targets: Vec<String>,
    written: usize,
}

impl Seeds {
    fn put(&mut self, target: &str, name: &str, bytes: &[u8]) {
        if !self.targets.iter().any(|t| t == target) {
            return;
        }
        let dir = self.corpus.join(target);
        std::fs::create_dir_all(&dir).expect("corpus dir");
        std::fs::write(dir.join(format!("seed-{name}")), bytes).expect("seed file");
        self.written += 1;
    }
}

fn streamvbyte(root: &Path, s: &mut Seeds) {
    for v in load(root, "streamvbyte.txt") {
        let name = v.get("name");
        let variant_bit = v.flag("variant", [&["1234"], &["0124"]]);
        let (values, bytes, delta) = (v.values(), v.bytes(), v.delta());
        let n = u16::try_from(values.len()).expect("short vector");
        let prev = delta.unwrap_or(0);
        let case = |input: &[u8]| DecodeCase::seed(variant_bit, delta.is_some(), n, prev, input);
        for t in ["svb_decode", "svb_encoded_len"] {
            s.put(t, name, &case(&bytes));
        }
        if !bytes.is_empty() {
            s.put(
                "svb_decode",
                &format!("{name}-cut1"),
                &case(&bytes[..bytes.len() - 1]),
            );
            s.put(
                "svb_encoded_len",
                &format!("{name}-ctrl"),
                &case(&bytes[..1]),
            );
        }
        let flags = variant_bit as u8 | (delta.is_some() as u8) << 1; // shape 0: as read
        let mut w = Writer::default().u8(flags).u32(prev).u8(0);
        for x in &values {
            w = w.u32(*x);
        }
        s.put("svb_roundtrip", name, &w.bytes);
        // A container of the same stream, as the fields `cli_container`
        // reads (known id with bit 7 set = the raw id; delta only from 0).
        if delta.unwrap_or(0) == 0 {
            let id = if variant_bit { 0x02 } else { 0x01 };
            let c = Writer::default()
                .u8(0x80 | id)
                .u8(delta.is_some() as u8)
                .u8(0)
                .u64(values.len() as u64)
                .u8(0)
                .raw(&bytes);
            s.put("cli_container", name, &c.bytes);
        }
    }
}

/// The decoder seeds of one vector: its stream, and a copy cut one byte
/// short for `cut` targets.
fn decoder_seeds(
    s: &mut Seeds,
    targets: &[&str],
    cut: &[&str],
    name: &str,
    case: impl Fn(&[u8]) -> Vec<u8>,
    bytes: &[u8],
) {
    for t in targets {
        s.put(t, name, &case(bytes));
    }
    if let Some((_, short)) = bytes.split_last() {
        for t in cut {
            s.put(t, &format!("{name}-cut1"), &case(short));
        }
    }
}

fn vbyte(root: &Path, s: &mut Seeds) {
    for v in load(root, "vbyte.txt") {
        let name = v.get("name");
        let wide = v.flag("type", [&["u32"], &["u64"]]);
        let bytes = v.bytes();
        let delta = v.delta_u64();
        let values = v.values_u64();
        let n = u16::try_from(values.len()).expect("short vector");
        let prev = delta.unwrap_or(0);
        // The decoder's u64 delta base is derived from the header's u32, so
        // only the u32 vectors decode to their golden values; every vector
        // is still a well-formed stream.
        let case = |input: &[u8]| DecodeCase::seed(wide, delta.is_some(), n, prev as u32, input);
        let mut decoders = vec!["vbyte_decode"];
        if !wide {
            decoders.push("vbyte_decode_unchecked");
        }
        decoder_seeds(s, &decoders, &["vbyte_decode"], name, case, &bytes);
        let flags = wide as u8 | (delta.is_some() as u8) << 1; // shape 0: as read
        let mut w = Writer::default().u8(flags).u64(prev).u8(0);
        for &x in &values {
            w = if wide {
                w.u32(x as u32).u32((x >> 32) as u32)
            } else {
                w.u32(u32::try_from(x).expect("u32 value"))
            };
        }
        s.put("vbyte_roundtrip", name, &w.bytes);
    }
}

/// VarInt-GB (`layout = ...`, variant bit) and VarInt-G8IU (no layout)
/// seeds: the targets `<prefix>_decode`, `<prefix>_decode_unchecked` and
/// `<prefix>_roundtrip`.
fn group_varint(root: &Path, s: &mut Seeds, file: &str, prefix: &str) {
    for v in load(root, file) {
        let name = v.get("name");
        let variant_bit = v.flag("layout", [&["", "low-first"], &["lucene"]]);
        let (values, bytes, delta) = (v.values(), v.bytes(), v.delta());
        let n = u16::try_from(values.len()).expect("short vector");
        let prev = delta.unwrap_or(0);
        let case = |input: &[u8]| DecodeCase::seed(variant_bit, delta.is_some(), n, prev, input);
        let decode = format!("{prefix}_decode");
        let unchecked = format!("{prefix}_decode_unchecked");
        decoder_seeds(s, &[&decode, &unchecked], &[&decode], name, case, &bytes);
        let flags = variant_bit as u8 | (delta.is_some() as u8) << 1; // shape 0: as read
        let mut w = Writer::default().u8(flags).u32(prev).u8(0);
        for x in &values {
            w = w.u32(*x);
        }
        s.put(&format!("{prefix}_roundtrip"), name, &w.bytes);
    }
}

/// Seeds of the `sorted_*` targets: a few sorted lists encoded in each of
/// the five delta-coded formats (`sorted::kernels` numbering), whole and cut
/// one byte short.
fn sorted(s: &mut Seeds) {
    let lists: [(&str, Vec<u32>); 3] = [
        ("small-gaps", (0..40).map(|i| 3 * i + (i % 7)).collect()),
        (
            "mixed",
            (0..70u32).map(|i| i * i * 97 + (i << (i % 20))).collect(),
        ),
        (
            "wide",
            (0..20u32)
                .map(|i| i.wrapping_mul(0x0F12_3457))
                .scan(0u32, |a, d| {
                    *a = a.wrapping_add(d >> 4);
                    Some(*a)
                })
                .collect(),
        ),
    ];
    for which in 0u8..5 {
        let k = intcodec_fuzz::sorted::kernels(which)[0];
        for (name, list) in &lists {
            let bytes = k.encode_delta_to_vec(list, 0);
            let flags = (which & 1) | 2 | (which >> 1) << 6;
            let n = list.len() as u16;
            let case = |input: &[u8]| {
                Writer::default()
                    .u8(flags)
                    .u16(n)
                    .u8(0)
                    .u32(0)
                    .raw(input)
                    .bytes
            };
            let tag = format!("f{which}-{name}");
            decoder_seeds(
                s,
                &["sorted_select", "sorted_seek"],
                &["sorted_select", "sorted_seek"],
                &tag,
                case,
                &bytes,
            );
            let mut w = Writer::default().u8(which).u32(0).u8(0).u16(n);
            for x in [list[list.len() / 2] + 1, 0, u32::MAX, list[0]] {
                w = w.u32(x);
            }
            for x in list {
                w = w.u32(*x);
            }
            s.put("sorted_insert", &tag, &w.bytes);
        }
    }
    for (name, list) in &lists {
        for flags in [2u8, 3, 0] {
            let mut w = Writer::default()
                .u8(flags)
                .u32(0)
                .u8(5)
                .u16(list.len() as u16);
            for x in list {
                w = w.u32(*x);
            }
            s.put("sorted_append", &format!("{name}-{flags}"), &w.bytes);
        }
    }
}

/// BP128 / FOR / SIMD-FOR seeds (testdata/bp128.txt): `bp128_decode`
/// (variant bit = 8x, delta bit + extra bit 0 = lane), `for_decode`
/// (variant bit = SIMD-FOR), `bp128_roundtrip` (the values; flags pick the
/// layout and delta mode).
fn bp128(root: &Path, s: &mut Seeds) {
    for v in load(root, "bp128.txt") {
        let name = v.get("name");
        let (values, bytes) = (v.values(), v.bytes());
        let n = u16::try_from(values.len()).expect("short vector");
        let (delta, lane) = match v.get("delta") {
            "none" => (false, false),
            "d1" => (true, false),
            "lane" => (true, true),
            // `bp128_decode` has no strict mode (`codec_decode` covers it):
            // a `bp128_roundtrip` seed only (mode 3), from the vector's prev.
            "strict" => {
                let prev = match v.get("prev") {
                    "" => 0,
                    p => p.parse().expect("decimal prev"),
                };
                let flags = u8::from(v.get("codec") == "bp128-8x") | 3 << 1;
                let mut w = Writer::default().u8(flags).u32(prev).u8(7);
                for x in &values {
                    w = w.u32(*x);
                }
                s.put("bp128_roundtrip", name, &w.bytes);
                continue;
            }
            other => panic!("unknown delta {other}"),
        };
        let (target, variant) = match v.get("codec") {
            "bp128-4x" => ("bp128_decode", false),
            "bp128-8x" => ("bp128_decode", true),
            "for" => ("for_decode", false),
            "simd-for" => ("for_decode", true),
            other => panic!("unknown codec {other}"),
        };
        let case = |input: &[u8]| {
            let mut c = DecodeCase::seed(variant, delta, n, 0, input);
            c[0] |= (lane as u8) << 6;
            c
        };
        decoder_seeds(s, &[target], &[target], name, case, &bytes);
        if target == "bp128_decode" {
            let mode = match (delta, lane) {
                (false, _) => 0u8,
                (true, false) => 1,
                (true, true) => 2,
            };
            let flags = variant as u8 | mode << 1; // shape 0: as read
            let mut w = Writer::default().u8(flags).u32(0).u8(7);
            for x in &values {
                w = w.u32(*x);
            }
            s.put("bp128_roundtrip", name, &w.bytes);
        }
    }
}

fn main() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = fuzz.parent().expect("repository root");
    let mut s = Seeds {
        corpus: fuzz.join("corpus"),
        targets: std::fs::read_to_string(fuzz.join("targets.txt"))
            .expect("fuzz/targets.txt")
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|t| !t.starts_with('#'))
            .map(str::to_string)
            .collect(),
        written: 0,
    };
    streamvbyte(root, &mut s);
    vbyte(root, &mut s);
    group_varint(root, &mut s, "varint_gb.txt", "gb");
    group_varint(root, &mut s, "varint_g8iu.txt", "g8iu");
    sorted(&mut s);
    bp128(root, &mut s);
    println!(
        "wrote {} seed files under {}",
        s.written,
        s.corpus.display()
    );
}
