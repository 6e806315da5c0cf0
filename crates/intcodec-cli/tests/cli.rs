//! Runs the real `intcodec` binary: round trips, byte-exact raw streams,
//! stdin/stdout, and every error case (exit status 1, one line on stderr
//! naming the place, no output file created or replaced, no temporary left).

use intcodec::streamvbyte::{StreamVByte, Variant};
#[cfg(feature = "g8iu")]
use intcodec::varint_g8iu::VarIntG8iu;
use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::vbyte::VByte;
use intcodec::{DecodeError, IntCodec};
use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

const CODECS: &[&str] = &[
    "streamvbyte",
    "streamvbyte-0124",
    "vbyte",
    "varint-gb",
    "varint-gb-lucene",
    #[cfg(feature = "g8iu")]
    "varint-g8iu",
];
const HEADER_LEN: usize = 32;
/// `encode --text` with the Stream VByte codec, INPUT to follow.
const ENCODE_TEXT: [&str; 4] = ["encode", "--text", "--codec", "streamvbyte"];

// ---------------------------------------------------------------- helpers

/// A fresh directory under the system temp dir, removed on drop.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(tag: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "intcodec-cli-test-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn put(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.path(name);
        fs::write(&p, bytes).unwrap();
        p
    }

    /// [`Scratch::put`], then the file's permission bits set to `mode`.
    fn put_mode(&self, name: &str, bytes: &[u8], mode: u32) -> PathBuf {
        let p = self.put(name, bytes);
        fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
        p
    }

    /// Every name in the directory, hidden temporaries included.
    fn names(&self) -> BTreeSet<String> {
        fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

fn run_env(args: &[OsString], stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_intcodec"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("start intcodec");
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // A separate writer so a large stdin cannot deadlock against stdout.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

fn run(args: &[OsString], stdin: &[u8]) -> Run {
    run_env(args, stdin, &[])
}

/// Builds an argument list from strings and paths.
macro_rules! args {
    ($($a:expr),* $(,)?) => {
        Vec::<OsString>::from([$(OsString::from(AsRef::<OsStr>::as_ref(&$a))),*])
    };
}

/// `args`, then `--delta` if `delta`.
fn with_delta(mut args: Vec<OsString>, delta: bool) -> Vec<OsString> {
    if delta {
        args.push("--delta".into());
    }
    args
}

/// `decode --raw --codec CODEC --count COUNT INPUT`.
fn raw_decode(codec: &str, count: impl AsRef<OsStr>, input: impl AsRef<OsStr>) -> Vec<OsString> {
    let mut a = args!["decode", "--raw", "--codec", codec, "--count", count];
    a.push(input.as_ref().into());
    a
}

fn success(r: &Run) -> &[u8] {
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert_eq!(r.stderr, "");
    &r.stdout
}

/// Exit status 1, nothing on stdout, exactly one line on stderr in the
/// documented format, containing `words` and the location suffix `at`
/// (e.g. `"(at byte offset 12)"` or `"(at byte offset 5, line 3)"`).
fn assert_error(r: &Run, words: &[&str], at: Option<&str>) {
    let e = &r.stderr;
    assert_eq!(r.code, Some(1), "stderr: {e}");
    assert!(r.stdout.is_empty(), "stdout not empty; stderr: {e}");
    assert!(e.starts_with("intcodec: error: "), "{e}");
    assert!(
        e.ends_with('\n') && e.matches('\n').count() == 1,
        "not one line: {e:?}"
    );
    for w in words {
        assert!(e.contains(w), "{e:?} lacks {w:?}");
    }
    match at {
        Some(at) => assert!(e.trim_end().ends_with(at), "{e:?} does not end with {at:?}"),
        None => assert!(!e.contains("(at byte offset"), "unexpected location: {e}"),
    }
}

/// Runs a failing command `cmd OUTPUT` twice, with OUTPUT a new file and
/// with OUTPUT an existing file: both times the error must match, the directory must hold
/// exactly the same names afterwards (no output, no temporary), and the
/// existing file must be unchanged.
fn fails_cleanly(s: &Scratch, cmd: &[OsString], stdin: &[u8], words: &[&str], at: Option<&str>) {
    let make_args = |out: &Path| {
        let mut a = cmd.to_vec();
        a.push(out.into());
        a
    };
    let before = s.names();
    let fresh = s.path("never-created.out");
    let r = run(&make_args(&fresh), stdin);
    assert_error(&r, words, at);
    assert!(!fresh.exists());
    assert_eq!(s.names(), before, "directory changed");

    let old = s.put("existing.out", b"precious");
    let before = s.names();
    let r = run(&make_args(&old), stdin);
    assert_error(&r, words, at);
    assert_eq!(fs::read(&old).unwrap(), b"precious");
    assert_eq!(s.names(), before, "directory changed");
    fs::remove_file(old).unwrap();
}

/// Where a failing command's INPUT comes from.
#[derive(Clone, Copy)]
enum Via {
    /// A file of the scratch directory.
    File,
    /// `-`: standard input.
    Stdin,
}

/// `cmd INPUT`, with `data` as INPUT (see [`Via`]), fails cleanly (see
/// [`fails_cleanly`]): `words` in its message, which ends with `at`.
fn input_fails(s: &Scratch, cmd: &[&str], via: Via, data: &[u8], words: &[&str], at: &str) {
    let mut a: Vec<OsString> = cmd.iter().map(OsString::from).collect();
    let stdin = match via {
        Via::File => {
            a.push(s.put("in", data).into());
            &[][..]
        }
        Via::Stdin => {
            a.push("-".into());
            data
        }
    };
    fails_cleanly(s, &a, stdin, words, Some(at));
}

/// The location an error message ends with: `(at byte offset N)`.
fn at_byte(offset: usize) -> String {
    format!("(at byte offset {offset})")
}

/// The location of the library's decode error `e`, `base` bytes into the
/// input: its offset, and its value index when it has one.
fn at_error(e: &DecodeError, base: usize) -> String {
    match e.index() {
        Some(i) => format!("(at byte offset {}, value index {i})", base + e.offset()),
        None => at_byte(base + e.offset()),
    }
}

/// Deterministic values of every byte width, zeros included.
fn values(n: usize, seed: u64) -> Vec<u32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x >> 32) as u32;
            match i % 5 {
                0 => 0,
                1 => v >> 24,
                2 => v >> 16,
                3 => v >> 8,
                _ => v,
            }
        })
        .collect()
}

fn to_le(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn to_text(values: &[u32]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

/// The library's handle for codec `name` (the CLI's registry, independently).
fn library_codec(name: &str) -> Box<dyn IntCodec> {
    match name {
        "streamvbyte" => Box::new(StreamVByte::new().with_variant(Variant::V1234)),
        "streamvbyte-0124" => Box::new(StreamVByte::new().with_variant(Variant::V0124)),
        "varint-gb" => Box::new(VarIntGb::new().with_layout(Layout::LowFirst)),
        "varint-gb-lucene" => Box::new(VarIntGb::new().with_layout(Layout::Lucene)),
        "vbyte" => Box::new(VByte::new()),
        #[cfg(feature = "g8iu")]
        "varint-g8iu" => Box::new(VarIntG8iu::new()),
        _ => panic!("no library codec for {name}"),
    }
}

/// The library's stream for codec `name` (the CLI's registry, independently).
fn library(name: &str, values: &[u32], delta: bool) -> Vec<u8> {
    let codec = library_codec(name);
    if delta {
        codec.encode_delta_to_vec(values, 0)
    } else {
        codec.encode_to_vec(values)
    }
}

/// The kernel the library picks for codec `name` here.
fn library_isa(name: &str) -> intcodec::Isa {
    library_codec(name).isa()
}

/// CRC-32C, bit by bit: an oracle independent of the tool's table version.
fn crc32c(parts: &[&[u8]]) -> u32 {
    let mut crc = !0u32;
    for &b in parts.iter().flat_map(|p| p.iter()) {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0x82F6_3B78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Recomputes the checksum of a container after an edit.
fn reseal(file: &mut [u8]) {
    let sum = crc32c(&[&file[..28], &file[HEADER_LEN..]]);
    file[28..32].copy_from_slice(&sum.to_le_bytes());
}

/// A container made by the tool, for the error tests to damage.
fn container(s: &Scratch, values: &[u32]) -> Vec<u8> {
    let input = s.put("c.in", &to_le(values));
    let out = s.path("c.icdc");
    success(&run(
        &args!["encode", "--codec", "streamvbyte", input, out],
        b"",
    ));
    let bytes = fs::read(&out).unwrap();
    fs::remove_file(input).unwrap();
    fs::remove_file(out).unwrap();
    bytes
}

fn sizes() -> impl Iterator<Item = usize> {
    (0..=9).chain([1000, 4099])
}

/// The round-trip cases: every codec, plain then delta, every size `n` of
/// [`sizes`] with its values `values(n, seed + n)`.
fn cases(seed: u64) -> impl Iterator<Item = (&'static str, bool, usize, Vec<u32>)> {
    CODECS.iter().flat_map(move |&name| {
        [false, true].into_iter().flat_map(move |delta| {
            sizes().map(move |n| (name, delta, n, values(n, seed + n as u64)))
        })
    })
}

// ---------------------------------------------------------------- round trips

#[test]
fn binary_round_trip_every_codec_size_and_delta() {
    let s = Scratch::new("rt-bin");
    for (name, delta, n, vals) in cases(1) {
        let input = s.put("in.u32", &to_le(&vals));
        let enc = s.path("enc.icdc");
        let dec = s.path("dec.u32");
        let a = with_delta(args!["encode", "--codec", name, input, enc], delta);
        success(&run(&a, b""));
        let file = fs::read(&enc).unwrap();
        // The container wraps exactly the library's stream.
        assert_eq!(&file[HEADER_LEN..], &library(name, &vals, delta)[..]);
        assert_eq!(file[10], delta as u8, "delta flag");
        assert_eq!(&file[12..20], &(n as u64).to_le_bytes(), "count");
        success(&run(&args!["decode", enc, dec], b""));
        assert_eq!(
            fs::read(&dec).unwrap(),
            to_le(&vals),
            "{name} delta={delta} n={n}"
        );
    }
    assert_eq!(s.names().len(), 3, "{:?}", s.names());
}

#[test]
fn text_round_trip_every_codec_size_and_delta() {
    let s = Scratch::new("rt-text");
    let (enc, dec) = (s.path("enc"), s.path("dec.txt"));
    for (name, delta, n, vals) in cases(77) {
        let input = s.put("in.txt", to_text(&vals).as_bytes());
        let a = with_delta(
            args!["encode", "--text", "--codec", name, input, enc],
            delta,
        );
        success(&run(&a, b""));
        success(&run(&args!["decode", "--text", enc, dec], b""));
        assert_eq!(
            fs::read_to_string(&dec).unwrap(),
            to_text(&vals),
            "{name} delta={delta} n={n}"
        );
        // Binary output of the same container.
        success(&run(&args!["decode", enc, dec], b""));
        assert_eq!(fs::read(&dec).unwrap(), to_le(&vals));
    }
}

#[test]
fn text_input_tolerates_whitespace_blank_lines_and_crlf() {
    let s = Scratch::new("text-ws");
    let input = s.put("in.txt", b"\n  10 \r\n\r\n\t4294967295\n007\n   \n0");
    let out = s.path("out.u32");
    let r = run(
        &args!["encode", "--text", "--codec", "streamvbyte", input, out],
        b"",
    );
    success(&r);
    let r = run(&args!["decode", "--text", out, "-"], b"");
    assert_eq!(success(&r), b"10\n4294967295\n7\n0\n");
}

#[test]
fn raw_output_is_the_library_stream() {
    let s = Scratch::new("raw");
    let raw = s.path("out.raw");
    for (name, delta, n, vals) in cases(1000) {
        let input = s.put("in.u32", &to_le(&vals));
        let a = with_delta(args!["encode", "--raw", "--codec", name, input, raw], delta);
        success(&run(&a, b""));
        let expect = library(name, &vals, delta);
        assert_eq!(
            fs::read(&raw).unwrap(),
            expect,
            "{name} delta={delta} n={n}"
        );

        // And back, with --count (and --delta).
        let count = n.to_string();
        let a = with_delta(
            args!["decode", "--raw", "--codec", name, "--count", count, raw, "-"],
            delta,
        );
        assert_eq!(
            success(&run(&a, b"")),
            to_le(&vals),
            "{name} delta={delta} n={n}"
        );
    }
}

/// Every codec of the library's registry, by its registry name: raw
/// streams are the registry codec's bytes, containers round-trip, `info`
/// lists it with a container id.
#[test]
fn every_registry_codec_works_by_its_registry_name() {
    let s = Scratch::new("registry");
    let info = String::from_utf8(success(&run(&args!["info"], b"")).to_vec()).unwrap();
    for name in intcodec::registry::names() {
        let codec = intcodec::registry::by_name(name).unwrap();
        assert!(
            info.lines()
                .any(|l| l.split_whitespace().next() == Some(name) && l.contains("container id 0x")),
            "{name}: {info}"
        );
        for delta in [false, true] {
            for n in [0usize, 1, 129, 600] {
                let mut vals = values(n, 5000 + n as u64);
                if delta {
                    // strictly increasing (the strict delta modes' domain)
                    vals.sort_unstable();
                    vals.dedup();
                }
                let expect = match (delta, codec.supports_delta()) {
                    (false, _) => codec.encode_to_vec(&vals),
                    (true, true) => codec.encode_delta_to_vec(&vals, 0),
                    (true, false) => {
                        let mut prev = 0u32;
                        let d: Vec<u32> = vals
                            .iter()
                            .map(|&v| (v.wrapping_sub(prev), prev = v).0)
                            .collect();
                        codec.encode_to_vec(&d)
                    }
                };
                let input = s.put("in.u32", &to_le(&vals));
                let (raw, enc, dec) = (s.path("out.raw"), s.path("enc"), s.path("dec"));
                let a = with_delta(args!["encode", "--raw", "--codec", name, input, raw], delta);
                success(&run(&a, b""));
                assert_eq!(
                    fs::read(&raw).unwrap(),
                    expect,
                    "{name} delta={delta} n={n}"
                );
                let a = with_delta(args!["encode", "--codec", name, input, enc], delta);
                success(&run(&a, b""));
                success(&run(&args!["decode", enc, dec], b""));
                assert_eq!(
                    fs::read(&dec).unwrap(),
                    to_le(&vals),
                    "{name} delta={delta} n={n}"
                );
            }
        }
    }
}

#[test]
fn raw_variants_differ_on_zeros() {
    // Guards against both names mapping to the same variant.
    let zeros = to_le(&[0, 0, 0, 0, 0]);
    let a = run(
        &args!["encode", "--raw", "--codec", "streamvbyte", "-", "-"],
        &zeros,
    );
    let b = run(
        &args!["encode", "--raw", "--codec", "streamvbyte-0124", "-", "-"],
        &zeros,
    );
    assert_eq!(success(&a), [0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(success(&b), [0, 0]);
}

#[test]
fn stdin_and_stdout() {
    let vals = values(3000, 5);
    let bin = to_le(&vals);
    let enc = run(
        &args!["encode", "--codec", "streamvbyte", "--delta", "-", "-"],
        &bin,
    );
    let container = success(&enc).to_vec();
    assert_eq!(&container[..8], b"\x89ICDC\r\n\x1A");
    let dec = run(&args!["decode", "-", "-"], &container);
    assert_eq!(success(&dec), bin);
    let text = run(&args!["decode", "--text", "-", "-"], &container);
    assert_eq!(success(&text), to_text(&vals).as_bytes());

    // Mixed: file in, stdout out; stdin in, file out.
    let s = Scratch::new("stdio");
    let f = s.put("c", &container);
    assert_eq!(success(&run(&args!["decode", f, "-"], b"")), bin);
    let out = s.path("from-stdin");
    success(&run(
        &args!["encode", "--codec", "streamvbyte", "--delta", "-", out],
        &bin,
    ));
    assert_eq!(fs::read(&out).unwrap(), container);
}

#[test]
fn output_is_replaced_on_success_without_leftovers() {
    let s = Scratch::new("replace");
    let input = s.put("in", &to_le(&[1, 2, 3]));
    let out = s.put("out", b"old contents");
    success(&run(
        &args!["encode", "--raw", "--codec", "streamvbyte", input, out],
        b"",
    ));
    assert_eq!(
        fs::read(&out).unwrap(),
        library("streamvbyte", &[1, 2, 3], false)
    );
    let names: Vec<_> = s.names().into_iter().collect();
    assert_eq!(names, ["in", "out"]);
}

#[test]
fn empty_input() {
    let enc = run(&args!["encode", "--codec", "streamvbyte", "-", "-"], b"");
    let file = success(&enc).to_vec();
    assert_eq!(file.len(), HEADER_LEN);
    assert!(success(&run(&args!["decode", "-", "-"], &file)).is_empty());
    assert!(success(&run(&args!["decode", "--text", "-", "-"], &file)).is_empty());
    let raw = run(
        &args![
            "encode",
            "--raw",
            "--text",
            "--codec",
            "streamvbyte",
            "-",
            "-"
        ],
        b"\n\n",
    );
    assert!(success(&raw).is_empty());
}

// ---------------------------------------------------------------- other commands

#[test]
fn help_goes_to_stdout() {
    for a in [
        args!["--help"],
        args!["-h"],
        args!["help"],
        args!["help", "encode"],
        args!["encode", "--help"],
        args!["decode", "-h"],
        args!["info", "--help"],
    ] {
        let r = run(&a, b"");
        let text = String::from_utf8(success(&r).to_vec()).unwrap();
        assert!(text.contains("usage:"), "{a:?}: {text}");
    }
    let r = run(&args!["help"], b"");
    let text = String::from_utf8(success(&r).to_vec()).unwrap();
    for w in ["encode", "decode", "info", "bench", "streamvbyte-0124"] {
        assert!(text.contains(w), "{w}");
    }
}

#[test]
fn info_reports_isas_and_kernels() {
    let r = run(&args!["info"], b"");
    let text = String::from_utf8(success(&r).to_vec()).unwrap();
    let detected: Vec<_> = intcodec::detected_isas().map(|i| i.name()).collect();
    assert!(
        text.contains(&format!("cpu features: {}\n", detected.join(" "))),
        "{text}"
    );
    for &name in CODECS {
        let isa = library_isa(name);
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}: {text}"));
        assert_eq!(line.split_whitespace().nth(1), Some(isa.name()), "{line}");
    }

    let r = run_env(&args!["info"], b"", &[("INTCODEC_ISA", "scalar")]);
    let text = String::from_utf8(success(&r).to_vec()).unwrap();
    assert!(text.contains("INTCODEC_ISA: scalar"), "{text}");
    for &name in CODECS {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}: {text}"));
        assert_eq!(line.split_whitespace().nth(1), Some("scalar"), "{line}");
    }
}

#[test]
fn bench_errors_are_one_line() {
    let r = run(&args!["bench", "--no-such-bench-option-xyz"], b"");
    assert_error(&r, &["bench:"], None);
}

// ---------------------------------------------------------------- errors

#[test]
fn binary_input_not_multiple_of_four() {
    let s = Scratch::new("len4");
    let cmd = ["encode", "--codec", "streamvbyte"];
    let words = ["not a multiple of 4", "2 trailing bytes"];
    input_fails(&s, &cmd, Via::File, &[7u8; 14], &words, &at_byte(12));
    let words = ["not a multiple of 4"];
    input_fails(&s, &cmd, Via::Stdin, &[1, 2, 3], &words, &at_byte(0));
}

#[test]
fn text_input_not_a_number() {
    let s = Scratch::new("text-bad");
    let words = ["invalid value \"12x\"", "not a decimal u32"];
    let at = "(at byte offset 5, line 3)";
    input_fails(&s, &ENCODE_TEXT, Via::File, b"5\n\n  12x \n7\n", &words, at);
    for bad in ["-3", "1e3", "0x10", "3 4", "four"] {
        let text = format!("1\r\n{bad}\r\n");
        let words = ["not a decimal u32"];
        let at = "(at byte offset 3, line 2)";
        input_fails(&s, &ENCODE_TEXT, Via::Stdin, text.as_bytes(), &words, at);
    }
}

#[test]
fn text_input_out_of_range() {
    let s = Scratch::new("text-range");
    let data = b"4294967295\n4294967296\n";
    let words = ["4294967296", "out of range"];
    let at = "(at byte offset 11, line 2)";
    input_fails(&s, &ENCODE_TEXT, Via::File, data, &words, at);
}

#[test]
fn truncated_container() {
    let s = Scratch::new("trunc");
    let file = container(&s, &values(50, 9));
    for cut in [file.len() - 1, HEADER_LEN + 3, 20, 5, 0] {
        let words = ["truncated container"];
        input_fails(
            &s,
            &["decode"],
            Via::File,
            &file[..cut],
            &words,
            &at_byte(cut),
        );
    }
}

#[test]
fn trailing_garbage_after_container() {
    let s = Scratch::new("garbage");
    let mut file = container(&s, &values(50, 9));
    let end = file.len();
    file.extend_from_slice(b"junk");
    let words = ["trailing garbage", "4 bytes"];
    input_fails(&s, &["decode"], Via::Stdin, &file, &words, &at_byte(end));
}

#[test]
fn corrupted_container_checksum() {
    let s = Scratch::new("crc");
    let file = container(&s, &values(50, 9));
    // A payload byte, a count byte, the delta flag, the checksum itself.
    for (at, bit) in [(HEADER_LEN + 20, 0x10), (12, 0x01), (10, 0x01), (30, 0x80)] {
        let mut bad = file.clone();
        bad[at] ^= bit;
        let words = ["corrupted container", "checksum mismatch"];
        input_fails(&s, &["decode"], Via::File, &bad, &words, &at_byte(28));
    }
}

#[test]
fn bad_magic() {
    let s = Scratch::new("magic");
    let vals = values(20, 3);
    let raw = library("streamvbyte", &vals, false);
    let words = ["bad magic", "--raw"];
    input_fails(&s, &["decode"], Via::File, &raw, &words, &at_byte(0));
    let mut file = container(&s, &vals);
    file[3] = b'X';
    let words = ["not an intcodec container"];
    input_fails(&s, &["decode"], Via::Stdin, &file, &words, &at_byte(3));
}

#[test]
fn bad_header_fields() {
    let s = Scratch::new("header");
    let file = container(&s, &values(30, 4));
    let cases: [(usize, u8, &[&str]); 4] = [
        (8, 9, &["unsupported container version 9"]),
        (9, 0x63, &["unknown codec id 0x63", "0x01 streamvbyte"]),
        (10, 0x04, &["unknown flag bits 0x04"]),
        (11, 0x01, &["reserved"]),
    ];
    for (at, value, words) in cases {
        let mut bad = file.clone();
        bad[at] = value;
        reseal(&mut bad);
        input_fails(&s, &["decode"], Via::File, &bad, words, &at_byte(at));
    }
}

#[test]
fn codec_error_inside_a_valid_container() {
    // A checksum-valid container whose count exceeds what the payload holds:
    // the codec's own error, its offset moved past the header.
    let s = Scratch::new("payload");
    let vals = values(41, 8);
    let mut file = container(&s, &vals);
    let bigger = (vals.len() + 3) as u64;
    file[12..20].copy_from_slice(&bigger.to_le_bytes());
    reseal(&mut file);
    let lib = StreamVByte::new()
        .decode_to_vec(&file[HEADER_LEN..], bigger as usize)
        .unwrap_err();
    let words = ["corrupt streamvbyte stream", "input truncated"];
    let at = at_error(&lib, HEADER_LEN);
    input_fails(&s, &["decode"], Via::Stdin, &file, &words, &at);

    // A smaller count leaves payload bytes unused.
    let mut file = container(&s, &[1, 2, 3, 4, 5]);
    file[12] = 4;
    reseal(&mut file);
    let words = ["trailing bytes", "4 values", "2 bytes left over"];
    let at = at_byte(HEADER_LEN + 1 + 4);
    input_fails(&s, &["decode"], Via::Stdin, &file, &words, &at);
}

#[test]
fn raw_decode_errors() {
    let s = Scratch::new("raw-err");
    let vals = values(30, 6);
    let stream = library("streamvbyte", &vals, false);
    let n = vals.len().to_string();

    // Trailing bytes after the stream.
    let mut long = stream.clone();
    long.extend_from_slice(&[0, 0, 0]);
    let input = s.put("long", &long);
    fails_cleanly(
        &s,
        &raw_decode("streamvbyte", &n, &input),
        b"",
        &["trailing bytes", "3 bytes left over"],
        Some(&at_byte(stream.len())),
    );

    // Truncated stream: the library's offset and value index.
    let short = &stream[..stream.len() - 2];
    let lib = StreamVByte::new()
        .decode_to_vec(short, vals.len())
        .unwrap_err();
    let at = at_error(&lib, 0);
    fails_cleanly(
        &s,
        &raw_decode("streamvbyte", &n, "-"),
        short,
        &["corrupt streamvbyte stream", "input truncated"],
        Some(&at),
    );

    // A count far beyond the input: an error that says so, before any
    // allocation (a quarter control byte and a data byte per value).
    let need = 1_000_000_000_000u64 / 4 + 1_000_000_000_000;
    let count_words = format!(
        "streamvbyte stream: count 1000000000000 needs at least {need} bytes, \
         the payload has {} bytes",
        stream.len()
    );
    let at = at_byte(stream.len());
    fails_cleanly(
        &s,
        &raw_decode("streamvbyte", "1000000000000", "-"),
        &stream,
        &[&count_words],
        Some(&at),
    );
}

/// `intcodec encode --codec codec` of a two-value file `in` of `s` fails
/// cleanly, saying `words`; returns the file.
fn encode_refused(s: &Scratch, codec: &str, words: &[&str]) -> PathBuf {
    let input = s.put("in", &to_le(&[1, 2]));
    let cmd = args!["encode", "--codec", codec, &input];
    fails_cleanly(s, &cmd, b"", words, None);
    input
}

#[test]
fn unknown_codec_name() {
    let s = Scratch::new("codec-name");
    let words = ["unknown codec 'lz4'", "streamvbyte", "streamvbyte-0124"];
    let input = encode_refused(&s, "lz4", &words);
    fails_cleanly(
        &s,
        &args!["decode", "--raw", "--codec=zstd", "--count", "2", input],
        b"",
        &["unknown codec 'zstd'", "streamvbyte-0124"],
        None,
    );
}

#[test]
fn missing_arguments() {
    let s = Scratch::new("missing");
    let input = s.put("in", &to_le(&[1, 2]));
    let cases: [(Vec<OsString>, &[&str]); 5] = [
        (args!["encode", input], &["missing --codec"]),
        (
            args!["decode", "--raw", "--codec", "streamvbyte", input],
            &["missing --count"],
        ),
        (
            args!["decode", "--raw", "--count", "2", input],
            &["missing --codec"],
        ),
        (
            args!["decode", "--count", "2", input],
            &["--count", "only with --raw"],
        ),
        (
            args!["encode", "--codec", "streamvbyte", "--frobnicate", input],
            &["unknown option '--frobnicate'"],
        ),
    ];
    for (cmd, words) in cases {
        fails_cleanly(&s, &cmd, b"", words, None);
    }
    // Without OUTPUT (or more): nothing is written.
    let before = s.names();
    let cases: [(Vec<OsString>, &str); 4] = [
        (
            args!["encode", "--codec", "streamvbyte", input],
            "missing OUTPUT",
        ),
        (args!["decode"], "missing INPUT and OUTPUT"),
        (args![], "missing command"),
        (args!["squash", "a", "b"], "unknown command 'squash'"),
    ];
    for (cmd, words) in cases {
        assert_error(&run(&cmd, b""), &[words], None);
    }
    assert_eq!(s.names(), before);
}

#[test]
fn io_errors_name_the_path() {
    let s = Scratch::new("io");
    let missing = s.path("no-such-input.u32");
    fails_cleanly(
        &s,
        &args!["encode", "--codec", "streamvbyte", missing],
        b"",
        &["cannot read input", "no-such-input.u32"],
        None,
    );

    let input = s.put("in", &to_le(&[1, 2, 3]));
    let before = s.names();
    let nodir = s.path("no-such-dir").join("out");
    let r = run(
        &args!["encode", "--codec", "streamvbyte", input, nodir],
        b"",
    );
    assert_error(&r, &["cannot write output", "no-such-dir"], None);
    assert_eq!(s.names(), before);

    // OUTPUT is a directory: refused before any temporary is made.
    let dir = s.path("a-directory");
    fs::create_dir(&dir).unwrap();
    let before = s.names();
    let r = run(&args!["encode", "--codec", "streamvbyte", input, dir], b"");
    assert_error(&r, &["cannot write output", "a-directory"], None);
    assert_eq!(s.names(), before);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
}

/// A bad value of the environment variable `var` fails `info` and
/// `encode` with one line naming it (and `encode` writes nothing).
fn bad_env_is_a_clean_error(var: &str, value: &str, says: &str) {
    let r = run_env(&args!["info"], b"", &[(var, value)]);
    assert_error(&r, &[var, value, says], None);
    let s = Scratch::new("env");
    let input = s.put("in", &to_le(&[1]));
    let out = s.path("out");
    let r = run_env(
        &args!["encode", "--codec", "vbyte", input, out],
        b"",
        &[(var, value)],
    );
    assert_error(&r, &[var], None);
    assert!(!out.exists());
}

#[test]
fn bad_isa_override_is_a_clean_error() {
    bad_env_is_a_clean_error("INTCODEC_ISA", "pentium", "not a known instruction set");
}

#[test]
fn tuning_override_shows_and_bad_one_is_a_clean_error() {
    for tune in ["default", "zen", "zen4"] {
        let r = run_env(&args!["info"], b"", &[("INTCODEC_TUNE", tune)]);
        let text = String::from_utf8(success(&r).to_vec()).unwrap();
        let want = format!("tuning:       {tune} (set by INTCODEC_TUNE)");
        assert!(text.contains(&want), "{text}");
    }
    bad_env_is_a_clean_error("INTCODEC_TUNE", "skylake", "not a known tuning");
}

#[test]
fn varint_malformed_streams_are_one_line_errors() {
    let s = Scratch::new("varint-malformed");
    // Lucene layout, one value: a vint whose fifth byte has more than 4 bits.
    let bad_vint = [0xFFu8, 0xFF, 0xFF, 0xFF, 0x1F];
    fails_cleanly(
        &s,
        &raw_decode("varint-gb-lucene", "1", "-"),
        &bad_vint,
        &["corrupt varint-gb-lucene stream", "malformed input"],
        Some("(at byte offset 4, value index 0)"),
    );
    // Low-first: the second value's bytes are missing.
    fails_cleanly(
        &s,
        &raw_decode("varint-gb", "2", "-"),
        &[0x04, 7, 0],
        &["corrupt varint-gb stream", "input truncated"],
        Some("(at byte offset 2, value index 1)"),
    );
}

#[cfg(feature = "g8iu")]
#[test]
fn g8iu_malformed_descriptor_is_a_one_line_error() {
    let s = Scratch::new("g8iu-malformed");
    // Fig. 2 (a), then a descriptor with no value (0xFF).
    let mut bytes = vec![0x71u8, 0x00, 0x04, 0x0c, 0x0a, 0x00, 0x00, 0x00, 0x40];
    bytes.extend_from_slice(&[0xFF; 9]);
    fails_cleanly(
        &s,
        &raw_decode("varint-g8iu", "5", "-"),
        &bytes,
        &["corrupt varint-g8iu stream", "malformed input"],
        Some("(at byte offset 9, value index 4)"),
    );
    let mut ok = raw_decode("varint-g8iu", "4", "-");
    ok.push("-".into());
    let ok = run(&ok, &bytes[..9]);
    assert_eq!(success(&ok), to_le(&[1024, 12, 10, 1 << 30]));
}

#[cfg(not(feature = "g8iu"))]
#[test]
fn g8iu_needs_its_feature() {
    let s = Scratch::new("g8iu-off");
    let words = [
        "codec 'varint-g8iu' is not available",
        "feature `g8iu`",
        "9,195,675",
    ];
    encode_refused(&s, "varint-g8iu", &words);
    // A container written by a build with the feature: id 0x05.
    let mut file = container(&s, &[1, 2, 3]);
    file[9] = 0x05;
    reseal(&mut file);
    let r = run(&args!["decode", "-", "-"], &file);
    assert_error(
        &r,
        &["0x05 (varint-g8iu)", "feature `g8iu`"],
        Some("(at byte offset 9)"),
    );
}

// ---------------------------------------------------------------- output kinds
//
// Every node, FIFO, socket and link below is made in the test's own scratch
// directory: no test writes to a real /dev path.

use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};

/// A container of `n` values and the values' binary form, in `s`.
fn sample(s: &Scratch, n: usize) -> (PathBuf, Vec<u8>) {
    let vals = values(n, 77);
    let c = container(s, &vals);
    (s.put("sample.icdc", &c), to_le(&vals))
}

/// Names in the scratch directory that look like temporaries.
fn temporaries(s: &Scratch) -> Vec<String> {
    s.names()
        .into_iter()
        .filter(|n| n.ends_with(".intcodec-tmp"))
        .collect()
}

/// Runs a shell command line (`$0` is the intcodec binary, `$1`.. the
/// extra arguments), returning the run.
fn run_sh(script: &str, extra: &[OsString]) -> Run {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_intcodec"))
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = cmd.output().expect("run sh");
    Run {
        code: out.status.code(),
        stdout: out.stdout,
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

#[test]
fn output_symlink_is_written_through() {
    let s = Scratch::new("symlink");
    let (c, bin) = sample(&s, 1000);
    let target = s.put_mode("target", b"old", 0o640);
    let link = s.path("link");
    std::os::unix::fs::symlink("target", &link).unwrap();
    success(&run(&args!["decode", c, link], b""));
    assert!(is_symlink(&link), "link is still a link");
    assert_eq!(fs::read_link(&link).unwrap(), Path::new("target"));
    assert_eq!(fs::read(&target).unwrap(), bin);
    let mode = fs::metadata(&target).unwrap().permissions().mode();
    assert_eq!(mode & 0o7777, 0o640, "mode kept through the link");

    // A chain of links, and a dangling link: its target is created.
    let link2 = s.path("link2");
    std::os::unix::fs::symlink("link", &link2).unwrap();
    fs::write(&target, b"old").unwrap();
    success(&run(&args!["decode", c, link2], b""));
    assert_eq!(fs::read(&target).unwrap(), bin);
    let dangling = s.path("dangling");
    std::os::unix::fs::symlink("created-by-link", &dangling).unwrap();
    success(&run(&args!["decode", c, dangling], b""));
    assert!(is_symlink(&dangling), "dangling is still a link");
    assert_eq!(fs::read(s.path("created-by-link")).unwrap(), bin);
    assert!(temporaries(&s).is_empty());
}

#[test]
fn output_keeps_permission_bits() {
    let s = Scratch::new("mode");
    let (c, bin) = sample(&s, 100);
    for mode in [0o600, 0o640, 0o604, 0o755] {
        let out = s.put_mode("out", b"old", mode);
        let ino = fs::metadata(&out).unwrap().ino();
        success(&run(&args!["decode", c, out], b""));
        let meta = fs::metadata(&out).unwrap();
        assert_eq!(meta.permissions().mode() & 0o7777, mode, "{mode:o}");
        assert_ne!(meta.ino(), ino, "an atomic replacement is a new inode");
        assert_eq!(fs::read(&out).unwrap(), bin);
        fs::remove_file(&out).unwrap();
    }
}

#[test]
fn output_that_is_the_input_is_refused() {
    let s = Scratch::new("self");
    let raw = to_le(&[1, 2, 3]);
    let input = s.put("in.u32", &raw);
    let link = s.path("link-to-in");
    std::os::unix::fs::symlink("in.u32", &link).unwrap();
    let hard = s.path("hard-to-in");
    fs::hard_link(&input, &hard).unwrap();
    let before = s.names();
    for (inp, out) in [
        (&input, &input),
        (&input, &link),
        (&link, &input),
        (&input, &hard),
    ] {
        let r = run(&args!["encode", "--codec", "vbyte", inp, out], b"");
        assert_error(
            &r,
            &["refusing to write output", "it is the input file"],
            None,
        );
        assert_eq!(fs::read(&input).unwrap(), raw);
        assert_eq!(s.names(), before);
    }
    // Standard input redirected from the output file.
    let r = Command::new(env!("CARGO_BIN_EXE_intcodec"))
        .args(args!["encode", "--codec", "vbyte", "-", input])
        .stdin(fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    let e = String::from_utf8_lossy(&r.stderr);
    assert!(e.contains("it is the input file"), "{e}");
    assert_eq!(fs::read(&input).unwrap(), raw);
    assert_eq!(s.names(), before);
}

#[test]
fn read_only_output_is_refused() {
    let s = Scratch::new("readonly");
    let (c, _) = sample(&s, 100);
    let out = s.put_mode("ro", b"keep me", 0o444);
    let before = s.names();
    let r = run(&args!["decode", c, out], b"");
    assert_error(
        &r,
        &["refusing to write output", "ro", "read-only (mode 0444)"],
        None,
    );
    assert_eq!(fs::read(&out).unwrap(), b"keep me");
    assert_eq!(s.names(), before);
}

#[test]
fn hard_linked_output_is_rewritten_in_place() {
    let s = Scratch::new("hardlink");
    let (c, bin) = sample(&s, 3000);
    let a = s.put("a", &[9u8; 100_000]);
    let b = s.path("b");
    fs::hard_link(&a, &b).unwrap();
    let ino = fs::metadata(&a).unwrap().ino();
    success(&run(&args!["decode", c, a], b""));
    for p in [&a, &b] {
        let meta = fs::metadata(p).unwrap();
        assert_eq!((meta.ino(), meta.nlink()), (ino, 2), "{}", p.display());
        // Shorter than the old contents: the tail is cut off.
        assert_eq!(fs::read(p).unwrap(), bin, "{}", p.display());
    }
    assert!(temporaries(&s).is_empty());
}

#[test]
fn char_device_output_is_written_directly() {
    let s = Scratch::new("chardev");
    let (c, _) = sample(&s, 1000);
    // A node like /dev/null (1, 3), made here; needs root (CAP_MKNOD).
    let node = s.path("null-node");
    let made = Command::new("mknod")
        .arg(&node)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|st| st.success());
    if !made {
        eprintln!("SKIPPED char_device_output_is_written_directly: mknod failed (not root?)");
        return;
    }
    let rdev = fs::metadata(&node).unwrap().rdev();
    for a in [args!["decode", c, node], args!["decode", "--text", c, node]] {
        success(&run(&a, b""));
        let meta = fs::symlink_metadata(&node).unwrap();
        assert!(meta.file_type().is_char_device(), "still a device node");
        assert_eq!(meta.rdev(), rdev);
    }
    // Through a symbolic link too.
    let link = s.path("link-to-node");
    std::os::unix::fs::symlink(&node, &link).unwrap();
    success(&run(&args!["decode", c, link], b""));
    assert!(fs::metadata(&node).unwrap().file_type().is_char_device());
    assert!(is_symlink(&link), "link is still a link");
    assert!(temporaries(&s).is_empty());
}

/// Whether `path` is a symbolic link (not followed).
fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).unwrap().file_type().is_symlink()
}

/// Makes a FIFO at `path` with mkfifo(1); false if that fails.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|st| st.success())
}

/// `intcodec decode` of a sample of `n` values into the special file
/// `name` of a scratch directory, which `open` makes and starts reading in
/// a thread: the thread receives the values, no temporary is left, and the
/// file is still what `kind` says.
fn decoded_through(
    name: &str,
    n: usize,
    open: impl FnOnce(&Path) -> JoinHandle<Vec<u8>>,
    kind: fn(&fs::FileType) -> bool,
) {
    let s = Scratch::new(name);
    let (c, bin) = sample(&s, n);
    let path = s.path(name);
    let reader = open(&path);
    success(&run(&args!["decode", c, path], b""));
    assert_eq!(reader.join().unwrap(), bin);
    assert!(temporaries(&s).is_empty());
    assert!(kind(&fs::symlink_metadata(&path).unwrap().file_type()));
}

/// The tool started with `args`, no stdin, its stdout and stderr piped.
fn spawn(args: &[OsString]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_intcodec"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn fifo_output_is_written_directly() {
    let open = |fifo: &Path| {
        assert!(mkfifo(fifo), "mkfifo");
        let fifo = fifo.to_path_buf();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    decoded_through("fifo", 50_000, open, |t| t.is_fifo());
}

#[test]
fn socket_output_is_written_directly() {
    use std::io::Read;
    let open = |sock: &Path| {
        let listener = std::os::unix::net::UnixListener::bind(sock).unwrap();
        std::thread::spawn(move || {
            let (mut conn, _) = listener.accept().unwrap();
            let mut got = Vec::new();
            conn.read_to_end(&mut got).unwrap();
            got
        })
    };
    decoded_through("sock", 5000, open, |t| t.is_socket());
}

#[test]
fn descriptor_links_are_written_directly() {
    let s = Scratch::new("fdlink");
    let (c, bin) = sample(&s, 2000);
    // /dev/fd/3 and /proc/self/fd/3 on a file the shell opened (the shell
    // truncates it; the tool writes through the descriptor's file, which
    // keeps its inode), and on the pipe that is the run's stdout.
    let out = s.path("opened-by-shell");
    for fd_path in ["/dev/fd/3", "/proc/self/fd/3"] {
        fs::write(&out, b"old old old").unwrap();
        let ino = fs::metadata(&out).unwrap().ino();
        let r = run_sh(
            &format!("exec \"$0\" decode \"$1\" {fd_path} 3>>\"$2\""),
            &args![c, out],
        );
        success(&r);
        assert_eq!(fs::read(&out).unwrap(), bin, "{fd_path}");
        assert_eq!(fs::metadata(&out).unwrap().ino(), ino, "{fd_path}");

        let r = run_sh(
            &format!("exec \"$0\" decode \"$1\" {fd_path} 3>&1"),
            &args![c],
        );
        assert_eq!(success(&r), bin, "{fd_path} on a pipe");
    }
    assert!(temporaries(&s).is_empty());
}

/// Waits until `cond` holds (at most 20 s).
fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !cond() {
        assert!(
            start.elapsed().as_secs() < 20,
            "timed out waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn signals_remove_the_temporary_and_exit_128_plus_signal() {
    let s = Scratch::new("signals");
    let input = s.path("in.fifo");
    assert!(mkfifo(&input), "mkfifo");
    let out = s.path("out");
    for (sig, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        for existing in [false, true] {
            if existing {
                fs::write(&out, b"precious").unwrap();
            }
            let child = spawn(&args!["encode", "--codec", "vbyte", input, out]);
            // Opening the FIFO for writing waits for the tool to open it for
            // reading; the tool then makes its temporary and waits for data
            // that never comes.
            let writer = fs::OpenOptions::new().write(true).open(&input).unwrap();
            wait_for("the temporary", || !temporaries(&s).is_empty());
            let killed = Command::new("kill")
                .args(["-s", sig, &child.id().to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
            let r = child.wait_with_output().unwrap();
            drop(writer);
            assert_eq!(r.status.code(), Some(code), "SIG{sig}");
            assert!(r.stdout.is_empty() && r.stderr.is_empty(), "SIG{sig}");
            assert!(temporaries(&s).is_empty(), "SIG{sig}: temporary left");
            if existing {
                assert_eq!(fs::read(&out).unwrap(), b"precious", "SIG{sig}");
                fs::remove_file(&out).unwrap();
            } else {
                assert!(!out.exists(), "SIG{sig}");
            }
        }
    }
}

#[test]
fn closed_stdout_pipe_ends_quietly() {
    use std::io::Read;
    let s = Scratch::new("epipe");
    let (c, _) = sample(&s, 200_000);
    for a in [args!["decode", "--text", c, "-"], args!["decode", c, "-"]] {
        let mut child = spawn(&a);
        // Read a little, as `head -2` would, then close the pipe: the output
        // (800 KB) is far larger than a pipe's buffer.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let r = child.wait_with_output().unwrap();
        assert_eq!(r.status.code(), Some(0), "{a:?}");
        assert_eq!(String::from_utf8_lossy(&r.stderr), "", "{a:?}");
    }
    // The same through a shell pipeline.
    let r = run_sh("\"$0\" decode --text \"$1\" - | head -n 2", &args![c]);
    assert_eq!(r.code, Some(0));
    assert_eq!(r.stderr, "");
    assert_eq!(r.stdout.iter().filter(|&&b| b == b'\n').count(), 2);
}

// ---------------------------------------------------------------- bombs

/// Every codec of this build, with its container id, as `info` lists them.
fn codecs_with_ids() -> Vec<(String, u8)> {
    let r = run(&args!["info"], b"");
    let text = String::from_utf8(success(&r).to_vec()).unwrap();
    let list: Vec<(String, u8)> = text
        .lines()
        .filter_map(|l| {
            let id = l.split("(container id 0x").nth(1)?.strip_suffix(')')?;
            let name = l.split_whitespace().next()?;
            Some((name.to_owned(), u8::from_str_radix(id, 16).ok()?))
        })
        .collect();
    let mut names: Vec<&str> = list.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    let mut expected = vec![
        "bp128",
        "bp128-16x",
        "bp128-16x-d16",
        "bp128-16x-strict",
        "bp128-8x",
        "bp128-8x-d8",
        "bp128-8x-strict",
        "bp128-d4",
        "bp128-strict",
        "for",
        "simd-for",
        "streamvbyte",
        "streamvbyte-0124",
        "varint-gb",
        "varint-gb-lucene",
        "vbyte",
    ];
    if cfg!(feature = "g8iu") {
        expected.push("varint-g8iu");
    }
    expected.sort_unstable();
    assert_eq!(names, expected, "a new codec needs its bomb cases");
    list
}

/// A sealed container claiming `count` values of codec `id` in `payload`.
fn forged(id: u8, count: u64, payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(HEADER_LEN + payload.len());
    f.extend_from_slice(b"\x89ICDC\r\n\x1A");
    f.extend_from_slice(&[1, id, 0, 0]);
    f.extend_from_slice(&count.to_le_bytes());
    f.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    f.extend_from_slice(&[0; 4]);
    f.extend_from_slice(payload);
    reseal(&mut f);
    f
}

/// Runs the tool with its address space limited to 1 GiB.
fn run_limited(args: &[OsString]) -> Run {
    run_sh("ulimit -v 1048576 && exec \"$0\" \"$@\"", args)
}

#[test]
fn decompression_bombs_fail_cleanly_under_1_gib() {
    let s = Scratch::new("bombs");
    let out = s.path("out");
    let big = 1 << 20;
    let small = 64 << 10;
    let zeros = vec![0u8; big];
    let mut junk = vec![0u8; big];
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for b in &mut junk {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *b = (x >> 56) as u8;
    }
    // A FOR / SIMD-FOR header of width 0 (any count fits in it), then junk.
    let mut width0 = junk.clone();
    width0[..5].fill(0);
    let payloads: [(&str, &[u8]); 3] = [("zeros", &zeros), ("junk", &junk), ("width-0", &width0)];
    for (name, id) in codecs_with_ids() {
        for (what, payload) in payloads {
            let cases: [(u64, &[u8]); 6] = [
                (1 << 40, payload),
                (u64::MAX >> 1, payload),
                (1 << 36, payload),
                (small as u64 * 65_536, &payload[..small]),
                (small as u64 * 128, &payload[..small]),
                (small as u64 * 8, &payload[..small]),
            ];
            for (count, p) in cases {
                let file = s.put("bomb.icdc", &forged(id, count, p));
                let label = format!("{name} {what} count {count} payload {}", p.len());
                let r = run_limited(&args!["decode", file, out]);
                assert!(
                    r.code == Some(0) || r.code == Some(1),
                    "{label}: exit {:?}: {}",
                    r.code,
                    r.stderr
                );
                assert!(!r.stderr.contains("panicked"), "{label}: {}", r.stderr);
                if r.code == Some(1) {
                    assert_error(&r, &[], Some(")"));
                }
                if count >= 1 << 40 && p.len() == big {
                    // Too many for any codec's payload: refused up front.
                    assert!(
                        r.stderr
                            .contains(&format!("{name} stream: count {count} needs at least "))
                            && r.stderr.contains("the payload has 1048576 bytes"),
                        "{label}: {}",
                        r.stderr
                    );
                }
                let _ = fs::remove_file(&out);
            }
        }
        // Raw streams: the count comes from the command line.
        let bomb = s.put("bomb.raw", &width0[..small]);
        let r = run_limited(&args![
            "decode",
            "--raw",
            "--codec",
            name,
            "--count",
            "4294967296000",
            bomb,
            out
        ]);
        assert_error(
            &r,
            &["needs at least", "the payload has 65536 bytes"],
            Some(")"),
        );
        assert!(!out.exists());
    }
    assert!(temporaries(&s).is_empty());
}

#[cfg(not(feature = "peers"))]
#[test]
fn bench_without_peers_runs_ours_and_names_the_missing_peers() {
    let r = run(
        &args![
            "bench", "--suite", "ints", "--quick", "--kmin", "1", "--kmax", "1", "--format", "csv"
        ],
        b"",
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let csv = String::from_utf8(r.stdout).unwrap();
    let codecs: BTreeSet<&str> = csv
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(3))
        .collect();
    for ours in ["streamvbyte", "vbyte", "varint-gb", "memcpy"] {
        assert!(codecs.contains(ours), "{ours} missing: {codecs:?}");
    }
    assert!(!codecs.iter().any(|c| c.starts_with("peer:")), "{codecs:?}");
    for w in [
        "built without the benchmark peers",
        "lemire/streamvbyte",
        "--features peers",
        "scripts/bench.sh",
    ] {
        assert!(r.stderr.contains(w), "{w}: {}", r.stderr);
    }
}
