//! Runs the real `intcodec` binary: round trips, byte-exact raw streams,
//! stdin/stdout, and every error case (exit status 1, one line on stderr
//! naming the place, no output file created or replaced, no temporary left).

use intcodec::streamvbyte::{StreamVByte, Variant};
#[cfg(feature = "g8iu")]
use intcodec::varint_g8iu::VarIntG8iu;
use intcodec::varint_gb::{Layout, VarIntGb};
use intcodec::vbyte::VByte;
use intcodec::IntCodec;
use std::collections::BTreeSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

#[cfg(not(feature = "g8iu"))]
const CODECS: &[&str] = &[
    "streamvbyte",
    "streamvbyte-0124",
    "vbyte",
    "varint-gb",
    "varint-gb-lucene",
];
#[cfg(feature = "g8iu")]
const CODECS: &[&str] = &[
    "streamvbyte",
    "streamvbyte-0124",
    "vbyte",
    "varint-gb",
    "varint-gb-lucene",
    "varint-g8iu",
];
const HEADER_LEN: usize = 32;

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

/// Runs a failing command twice, with OUTPUT a new file and with OUTPUT an
/// existing file: both times the error must match, the directory must hold
/// exactly the same names afterwards (no output, no temporary), and the
/// existing file must be unchanged.
fn fails_cleanly(
    s: &Scratch,
    make_args: impl Fn(&Path) -> Vec<OsString>,
    stdin: &[u8],
    words: &[&str],
    at: Option<&str>,
) {
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

/// The library's stream for codec `name` (the CLI's registry, independently).
fn library(name: &str, values: &[u32], delta: bool) -> Vec<u8> {
    fn pick<C>(
        c: C,
        values: &[u32],
        delta: bool,
        plain: fn(&C, &[u32]) -> Vec<u8>,
        d: fn(&C, &[u32], u32) -> Vec<u8>,
    ) -> Vec<u8> {
        if delta {
            d(&c, values, 0)
        } else {
            plain(&c, values)
        }
    }
    let svb = |v| StreamVByte::new().with_variant(v);
    let gb = |l| VarIntGb::new().with_layout(l);
    match name {
        "streamvbyte" | "streamvbyte-0124" => {
            let v = if name == "streamvbyte" {
                Variant::V1234
            } else {
                Variant::V0124
            };
            pick(
                svb(v),
                values,
                delta,
                StreamVByte::encode_to_vec,
                StreamVByte::encode_delta_to_vec,
            )
        }
        "varint-gb" | "varint-gb-lucene" => {
            let l = if name == "varint-gb" {
                Layout::LowFirst
            } else {
                Layout::Lucene
            };
            pick(
                gb(l),
                values,
                delta,
                VarIntGb::encode_to_vec,
                VarIntGb::encode_delta_to_vec,
            )
        }
        "vbyte" => pick(
            VByte::new(),
            values,
            delta,
            VByte::encode_to_vec,
            VByte::encode_delta_to_vec,
        ),
        #[cfg(feature = "g8iu")]
        "varint-g8iu" => pick(
            VarIntG8iu::new(),
            values,
            delta,
            VarIntG8iu::encode_to_vec,
            VarIntG8iu::encode_delta_to_vec,
        ),
        _ => panic!("no library codec for {name}"),
    }
}

/// The kernel the library picks for codec `name` here.
fn library_isa(name: &str) -> intcodec::Isa {
    match name {
        "streamvbyte" => StreamVByte::new().isa(),
        "streamvbyte-0124" => StreamVByte::new().with_variant(Variant::V0124).isa(),
        "vbyte" => VByte::new().isa(),
        "varint-gb" => VarIntGb::new().isa(),
        "varint-gb-lucene" => VarIntGb::new().with_layout(Layout::Lucene).isa(),
        #[cfg(feature = "g8iu")]
        "varint-g8iu" => VarIntG8iu::new().isa(),
        _ => panic!("no library codec for {name}"),
    }
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

// ---------------------------------------------------------------- round trips

#[test]
fn binary_round_trip_every_codec_size_and_delta() {
    let s = Scratch::new("rt-bin");
    for &name in CODECS {
        for delta in [false, true] {
            for n in sizes() {
                let vals = values(n, n as u64 + 1);
                let input = s.put("in.u32", &to_le(&vals));
                let enc = s.path("enc.icdc");
                let dec = s.path("dec.u32");
                let mut a = args!["encode", "--codec", name, input, enc];
                if delta {
                    a.insert(1, "--delta".into());
                }
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
        }
    }
    assert_eq!(s.names().len(), 3, "{:?}", s.names());
}

#[test]
fn text_round_trip_every_codec_size_and_delta() {
    let s = Scratch::new("rt-text");
    for &name in CODECS {
        for delta in [false, true] {
            for n in sizes() {
                let vals = values(n, 77 + n as u64);
                let input = s.put("in.txt", to_text(&vals).as_bytes());
                let enc = s.path("enc");
                let dec = s.path("dec.txt");
                let mut a = args!["encode", "--text", "--codec", name, input, enc];
                if delta {
                    a.push("--delta".into());
                }
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
    for &name in CODECS {
        for delta in [false, true] {
            for n in sizes() {
                let vals = values(n, 1000 + n as u64);
                let input = s.put("in.u32", &to_le(&vals));
                let raw = s.path("out.raw");
                let mut a = args!["encode", "--raw", "--codec", name, input, raw];
                if delta {
                    a.push("--delta".into());
                }
                success(&run(&a, b""));
                let expect = library(name, &vals, delta);
                assert_eq!(
                    fs::read(&raw).unwrap(),
                    expect,
                    "{name} delta={delta} n={n}"
                );

                // And back, with --count (and --delta).
                let count = n.to_string();
                let mut a = args!["decode", "--raw", "--codec", name, "--count", count, raw, "-"];
                if delta {
                    a.push("--delta".into());
                }
                assert_eq!(
                    success(&run(&a, b"")),
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
    let input = s.put("in", &[7u8; 14]);
    fails_cleanly(
        &s,
        |out| args!["encode", "--codec", "streamvbyte", input, out],
        b"",
        &["not a multiple of 4", "2 trailing bytes"],
        Some("(at byte offset 12)"),
    );
    fails_cleanly(
        &s,
        |out| args!["encode", "--codec", "streamvbyte", "-", out],
        &[1, 2, 3],
        &["not a multiple of 4"],
        Some("(at byte offset 0)"),
    );
}

#[test]
fn text_input_not_a_number() {
    let s = Scratch::new("text-bad");
    let input = s.put("in.txt", b"5\n\n  12x \n7\n");
    fails_cleanly(
        &s,
        |out| args!["encode", "--text", "--codec", "streamvbyte", input, out],
        b"",
        &["invalid value \"12x\"", "not a decimal u32"],
        Some("(at byte offset 5, line 3)"),
    );
    for bad in ["-3", "1e3", "0x10", "3 4", "four"] {
        let text = format!("1\r\n{bad}\r\n");
        fails_cleanly(
            &s,
            |out| args!["encode", "--text", "--codec", "streamvbyte", "-", out],
            text.as_bytes(),
            &["not a decimal u32"],
            Some("(at byte offset 3, line 2)"),
        );
    }
}

#[test]
fn text_input_out_of_range() {
    let s = Scratch::new("text-range");
    let input = s.put("in.txt", b"4294967295\n4294967296\n");
    fails_cleanly(
        &s,
        |out| args!["encode", "--text", "--codec", "streamvbyte", input, out],
        b"",
        &["4294967296", "out of range"],
        Some("(at byte offset 11, line 2)"),
    );
}

#[test]
fn truncated_container() {
    let s = Scratch::new("trunc");
    let file = container(&s, &values(50, 9));
    for cut in [file.len() - 1, HEADER_LEN + 3, 20, 5, 0] {
        let input = s.put("in", &file[..cut]);
        fails_cleanly(
            &s,
            |out| args!["decode", input, out],
            b"",
            &["truncated container"],
            Some(&format!("(at byte offset {cut})")),
        );
    }
}

#[test]
fn trailing_garbage_after_container() {
    let s = Scratch::new("garbage");
    let mut file = container(&s, &values(50, 9));
    let end = file.len();
    file.extend_from_slice(b"junk");
    fails_cleanly(
        &s,
        |out| args!["decode", "-", out],
        &file,
        &["trailing garbage", "4 bytes"],
        Some(&format!("(at byte offset {end})")),
    );
}

#[test]
fn corrupted_container_checksum() {
    let s = Scratch::new("crc");
    let file = container(&s, &values(50, 9));
    // A payload byte, a count byte, the delta flag, the checksum itself.
    for (at, bit) in [(HEADER_LEN + 20, 0x10), (12, 0x01), (10, 0x01), (30, 0x80)] {
        let mut bad = file.clone();
        bad[at] ^= bit;
        let input = s.put("in", &bad);
        fails_cleanly(
            &s,
            |out| args!["decode", input, out],
            b"",
            &["corrupted container", "checksum mismatch"],
            Some("(at byte offset 28)"),
        );
    }
}

#[test]
fn bad_magic() {
    let s = Scratch::new("magic");
    let vals = values(20, 3);
    let raw = s.put("raw", &library("streamvbyte", &vals, false));
    fails_cleanly(
        &s,
        |out| args!["decode", raw, out],
        b"",
        &["bad magic", "--raw"],
        Some("(at byte offset 0)"),
    );
    let mut file = container(&s, &vals);
    file[3] = b'X';
    fails_cleanly(
        &s,
        |out| args!["decode", "-", out],
        &file,
        &["not an intcodec container"],
        Some("(at byte offset 3)"),
    );
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
        let input = s.put("in", &bad);
        fails_cleanly(
            &s,
            |out| args!["decode", input, out],
            b"",
            words,
            Some(&format!("(at byte offset {at})")),
        );
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
    let at = match lib.index() {
        Some(i) => format!(
            "(at byte offset {}, value index {i})",
            HEADER_LEN + lib.offset()
        ),
        None => format!("(at byte offset {})", HEADER_LEN + lib.offset()),
    };
    fails_cleanly(
        &s,
        |out| args!["decode", "-", out],
        &file,
        &["corrupt streamvbyte stream", "input truncated"],
        Some(&at),
    );

    // A smaller count leaves payload bytes unused.
    let mut file = container(&s, &[1, 2, 3, 4, 5]);
    file[12] = 4;
    reseal(&mut file);
    fails_cleanly(
        &s,
        |out| args!["decode", "-", out],
        &file,
        &["trailing bytes", "4 values", "2 bytes left over"],
        Some(&format!("(at byte offset {})", HEADER_LEN + 1 + 4)),
    );
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
        |out| {
            args![
                "decode",
                "--raw",
                "--codec",
                "streamvbyte",
                "--count",
                n,
                input,
                out
            ]
        },
        b"",
        &["trailing bytes", "3 bytes left over"],
        Some(&format!("(at byte offset {})", stream.len())),
    );

    // Truncated stream: the library's offset and value index.
    let short = &stream[..stream.len() - 2];
    let lib = StreamVByte::new()
        .decode_to_vec(short, vals.len())
        .unwrap_err();
    let at = match lib.index() {
        Some(i) => format!("(at byte offset {}, value index {i})", lib.offset()),
        None => format!("(at byte offset {})", lib.offset()),
    };
    fails_cleanly(
        &s,
        |out| {
            args![
                "decode",
                "--raw",
                "--codec",
                "streamvbyte",
                "--count",
                n,
                "-",
                out
            ]
        },
        short,
        &["corrupt streamvbyte stream", "input truncated"],
        Some(&at),
    );

    // A count far beyond the input: an error, not an allocation failure.
    let lib = StreamVByte::new()
        .decode_to_vec(&stream, 1_000_000_000_000)
        .unwrap_err();
    let at = match lib.index() {
        Some(i) => format!("(at byte offset {}, value index {i})", lib.offset()),
        None => format!("(at byte offset {})", lib.offset()),
    };
    fails_cleanly(
        &s,
        |out| {
            args![
                "decode",
                "--raw",
                "--codec",
                "streamvbyte",
                "--count",
                "1000000000000",
                "-",
                out
            ]
        },
        &stream,
        &["corrupt streamvbyte stream", "input truncated"],
        Some(&at),
    );
}

#[test]
fn unknown_codec_name() {
    let s = Scratch::new("codec-name");
    let input = s.put("in", &to_le(&[1, 2]));
    fails_cleanly(
        &s,
        |out| args!["encode", "--codec", "lz4", input, out],
        b"",
        &["unknown codec 'lz4'", "streamvbyte", "streamvbyte-0124"],
        None,
    );
    fails_cleanly(
        &s,
        |out| {
            args![
                "decode",
                "--raw",
                "--codec=zstd",
                "--count",
                "2",
                input,
                out
            ]
        },
        b"",
        &["unknown codec 'zstd'", "streamvbyte-0124"],
        None,
    );
}

#[test]
fn missing_arguments() {
    let s = Scratch::new("missing");
    let input = s.put("in", &to_le(&[1, 2]));
    fails_cleanly(
        &s,
        |out| args!["encode", input, out],
        b"",
        &["missing --codec"],
        None,
    );
    fails_cleanly(
        &s,
        |out| args!["decode", "--raw", "--codec", "streamvbyte", input, out],
        b"",
        &["missing --count"],
        None,
    );
    fails_cleanly(
        &s,
        |out| args!["decode", "--raw", "--count", "2", input, out],
        b"",
        &["missing --codec"],
        None,
    );
    fails_cleanly(
        &s,
        |out| args!["decode", "--count", "2", input, out],
        b"",
        &["--count", "only with --raw"],
        None,
    );
    fails_cleanly(
        &s,
        |out| {
            args![
                "encode",
                "--codec",
                "streamvbyte",
                "--frobnicate",
                input,
                out
            ]
        },
        b"",
        &["unknown option '--frobnicate'"],
        None,
    );
    let before = s.names();
    assert_error(
        &run(&args!["encode", "--codec", "streamvbyte", input], b""),
        &["missing OUTPUT"],
        None,
    );
    assert_error(
        &run(&args!["decode"], b""),
        &["missing INPUT and OUTPUT"],
        None,
    );
    assert_error(&run(&args![], b""), &["missing command"], None);
    assert_error(
        &run(&args!["squash", "a", "b"], b""),
        &["unknown command 'squash'"],
        None,
    );
    assert_eq!(s.names(), before);
}

#[test]
fn io_errors_name_the_path() {
    let s = Scratch::new("io");
    let missing = s.path("no-such-input.u32");
    fails_cleanly(
        &s,
        |out| args!["encode", "--codec", "streamvbyte", missing, out],
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

    // OUTPUT is a directory: the temporary is written, the rename fails, and
    // the temporary must be removed again.
    let dir = s.path("a-directory");
    fs::create_dir(&dir).unwrap();
    let before = s.names();
    let r = run(&args!["encode", "--codec", "streamvbyte", input, dir], b"");
    assert_error(&r, &["cannot write output", "a-directory"], None);
    assert_eq!(s.names(), before);
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn bad_isa_override_is_a_clean_error() {
    let r = run_env(&args!["info"], b"", &[("INTCODEC_ISA", "pentium")]);
    assert_error(
        &r,
        &["INTCODEC_ISA", "pentium", "not a known instruction set"],
        None,
    );
    let s = Scratch::new("isa");
    let input = s.put("in", &to_le(&[1]));
    let out = s.path("out");
    let r = run_env(
        &args!["encode", "--codec", "streamvbyte", input, out],
        b"",
        &[("INTCODEC_ISA", "pentium")],
    );
    assert_error(&r, &["INTCODEC_ISA"], None);
    assert!(!out.exists());
}

#[test]
fn varint_malformed_streams_are_one_line_errors() {
    let s = Scratch::new("varint-malformed");
    // Lucene layout, one value: a vint whose fifth byte has more than 4 bits.
    let bad_vint = [0xFFu8, 0xFF, 0xFF, 0xFF, 0x1F];
    fails_cleanly(
        &s,
        |out| {
            args![
                "decode",
                "--raw",
                "--codec",
                "varint-gb-lucene",
                "--count",
                "1",
                "-",
                out
            ]
        },
        &bad_vint,
        &["corrupt varint-gb-lucene stream", "malformed input"],
        Some("(at byte offset 4, value index 0)"),
    );
    // Low-first: the second value's bytes are missing.
    fails_cleanly(
        &s,
        |out| {
            args![
                "decode",
                "--raw",
                "--codec",
                "varint-gb",
                "--count",
                "2",
                "-",
                out
            ]
        },
        &[0x04, 7],
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
        |out| {
            args![
                "decode",
                "--raw",
                "--codec",
                "varint-g8iu",
                "--count",
                "5",
                "-",
                out
            ]
        },
        &bytes,
        &["corrupt varint-g8iu stream", "malformed input"],
        Some("(at byte offset 9, value index 4)"),
    );
    let ok = run(
        &args![
            "decode",
            "--raw",
            "--codec",
            "varint-g8iu",
            "--count",
            "4",
            "-",
            "-"
        ],
        &bytes[..9],
    );
    assert_eq!(success(&ok), to_le(&[1024, 12, 10, 1 << 30]));
}

#[cfg(not(feature = "g8iu"))]
#[test]
fn g8iu_needs_its_feature() {
    let s = Scratch::new("g8iu-off");
    let input = s.put("in", &to_le(&[1, 2]));
    fails_cleanly(
        &s,
        |out| args!["encode", "--codec", "varint-g8iu", input, out],
        b"",
        &[
            "codec 'varint-g8iu' is not available",
            "feature `g8iu`",
            "9,195,675",
        ],
        None,
    );
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
