//! Command-line parsing (by hand: the tool has no dependencies) and usage.

use crate::codecs::{self, Codec};
use crate::error::CliError;
use crate::io::Target;
use std::ffi::{OsStr, OsString};

/// What the command line asks for.
#[derive(Debug)]
pub(crate) enum Command {
    /// Print usage (general, or of one command) to stdout.
    Help(Topic),
    /// Print the version.
    Version,
    /// `intcodec encode`.
    Encode(Encode),
    /// `intcodec decode`.
    Decode(Decode),
    /// `intcodec info`.
    Info,
    /// `intcodec bench ARGS...`: the arguments, passed on untouched.
    Bench(Vec<String>),
}

/// A usage page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Topic {
    /// Every command, briefly.
    General,
    /// `encode`.
    Encode,
    /// `decode`.
    Decode,
    /// `info`.
    Info,
    /// `bench`.
    Bench,
}

/// Arguments of `encode`.
#[derive(Debug)]
pub(crate) struct Encode {
    /// The codec.
    pub(crate) codec: &'static Codec,
    /// Delta-code the values (from 0) before encoding.
    pub(crate) delta: bool,
    /// Write the bare stream instead of a container.
    pub(crate) raw: bool,
    /// The input is decimal text, one value per line.
    pub(crate) text: bool,
    /// Where the values come from.
    pub(crate) input: Target,
    /// Where the encoded bytes go.
    pub(crate) output: Target,
}

/// Arguments of `decode`.
#[derive(Debug)]
pub(crate) struct Decode {
    /// For a bare stream: what the container would have said.
    pub(crate) raw: Option<RawStream>,
    /// Write decimal text, one value per line.
    pub(crate) text: bool,
    /// Where the encoded bytes come from.
    pub(crate) input: Target,
    /// Where the values go.
    pub(crate) output: Target,
}

/// How to read a bare stream (`decode --raw`).
#[derive(Debug)]
pub(crate) struct RawStream {
    /// The codec that wrote it.
    pub(crate) codec: &'static Codec,
    /// How many values it holds.
    pub(crate) count: usize,
    /// Whether the values were delta coded from 0.
    pub(crate) delta: bool,
}

/// Parses the arguments after the program name.
pub(crate) fn parse(args: &[OsString]) -> Result<Command, CliError> {
    let Some(first) = args.first() else {
        return Err(CliError::new("missing command; try 'intcodec --help'"));
    };
    let rest = &args[1..];
    match first.to_str().unwrap_or("") {
        "-h" | "--help" => Ok(Command::Help(Topic::General)),
        "-V" | "--version" => Ok(Command::Version),
        "help" => parse_help(rest),
        "encode" => with_options("encode", Topic::Encode, rest, &ENCODE_OPTS, parse_encode),
        "decode" => with_options("decode", Topic::Decode, rest, &DECODE_OPTS, parse_decode),
        "info" => with_options("info", Topic::Info, rest, &[], parse_info),
        "bench" => parse_bench(rest),
        _ => Err(unknown_command(first)),
    }
}

fn unknown_command(name: &OsStr) -> CliError {
    CliError::new(format!(
        "unknown command '{}'; commands: encode, decode, info, bench, help",
        name.to_string_lossy()
    ))
}

fn parse_help(rest: &[OsString]) -> Result<Command, CliError> {
    let topic = match rest {
        [] => Topic::General,
        [cmd] => match cmd.to_str().unwrap_or("") {
            "encode" => Topic::Encode,
            "decode" => Topic::Decode,
            "info" => Topic::Info,
            "bench" => Topic::Bench,
            "help" => Topic::General,
            _ => return Err(unknown_command(cmd)),
        },
        [_, extra, ..] => return Err(unexpected("help", extra)),
    };
    Ok(Command::Help(topic))
}

fn unexpected(cmd: &str, arg: &OsStr) -> CliError {
    CliError::new(format!(
        "unexpected argument '{}' for '{cmd}'; see 'intcodec help {cmd}'",
        arg.to_string_lossy()
    ))
}

/// One option a command accepts: `--name` or `--name VALUE`.
struct Opt {
    name: &'static str,
    takes_value: bool,
}

const fn flag(name: &'static str) -> Opt {
    Opt {
        name,
        takes_value: false,
    }
}

const fn valued(name: &'static str) -> Opt {
    Opt {
        name,
        takes_value: true,
    }
}

/// The options and operands of one command, as given.
struct Scanned {
    /// Options seen, with their value (for options that take one).
    opts: Vec<(&'static str, Option<String>)>,
    /// Operands, in order.
    operands: Vec<OsString>,
}

impl Scanned {
    fn has(&self, name: &str) -> bool {
        self.opts.iter().any(|(n, _)| *n == name)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.opts
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// Splits `args` into options (checked against `spec`) and operands.
/// `Ok(None)` means `--help` / `-h` was given.
fn scan(cmd: &str, args: &[OsString], spec: &[Opt]) -> Result<Option<Scanned>, CliError> {
    let mut scanned = Scanned {
        opts: Vec::new(),
        operands: Vec::new(),
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let bytes = arg.as_encoded_bytes();
        if arg == "--" {
            scanned.operands.extend(iter.by_ref().cloned());
            break;
        }
        if bytes == b"-" || !bytes.starts_with(b"-") {
            scanned.operands.push(arg.clone());
            continue;
        }
        let text = arg.to_string_lossy();
        if text == "-h" || text == "--help" {
            return Ok(None);
        }
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (&*text, None),
        };
        let Some(opt) = spec.iter().find(|o| o.name == name) else {
            return Err(CliError::new(format!(
                "unknown option '{name}' for '{cmd}'; see 'intcodec help {cmd}'"
            )));
        };
        let value = match (opt.takes_value, inline) {
            (false, None) => None,
            (false, Some(_)) => {
                return Err(CliError::new(format!("option {} takes no value", opt.name)));
            }
            (true, Some(v)) => Some(v),
            (true, None) => match iter.next() {
                Some(v) => Some(
                    v.to_str()
                        .ok_or_else(|| {
                            CliError::new(format!("the value of {} is not valid UTF-8", opt.name))
                        })?
                        .to_owned(),
                ),
                None => {
                    return Err(CliError::new(format!("missing value after {}", opt.name)));
                }
            },
        };
        if opt.takes_value && scanned.has(opt.name) {
            return Err(CliError::new(format!("option {} given twice", opt.name)));
        }
        scanned.opts.push((opt.name, value));
    }
    Ok(Some(scanned))
}

/// The two operands INPUT and OUTPUT.
fn input_output(cmd: &str, operands: &[OsString]) -> Result<(Target, Target), CliError> {
    match operands {
        [input, output] => Ok((Target::from_arg(input), Target::from_arg(output))),
        [] => Err(CliError::new(format!(
            "missing INPUT and OUTPUT for '{cmd}' ('-' for stdin/stdout); see 'intcodec help {cmd}'"
        ))),
        [_] => Err(CliError::new(format!(
            "missing OUTPUT for '{cmd}' ('-' for stdout); see 'intcodec help {cmd}'"
        ))),
        [_, _, extra, ..] => Err(unexpected(cmd, extra)),
    }
}

fn codec_option(scanned: &Scanned, why: &str) -> Result<&'static Codec, CliError> {
    match scanned.value("--codec") {
        Some(name) => codecs::by_name(name),
        None => Err(CliError::new(format!(
            "missing --codec NAME{why}; known codecs: {}",
            codecs::known_names()
        ))),
    }
}

/// A command with options: `parse` of what [`scan`] found in `args`
/// (checked against `spec`), or the command's help (`topic`) when
/// `--help` / `-h` was given.
fn with_options(
    cmd: &str,
    topic: Topic,
    args: &[OsString],
    spec: &[Opt],
    parse: fn(Scanned) -> Result<Command, CliError>,
) -> Result<Command, CliError> {
    match scan(cmd, args, spec)? {
        Some(s) => parse(s),
        None => Ok(Command::Help(topic)),
    }
}

const ENCODE_OPTS: [Opt; 4] = [
    valued("--codec"),
    flag("--delta"),
    flag("--raw"),
    flag("--text"),
];

fn parse_encode(s: Scanned) -> Result<Command, CliError> {
    let codec = codec_option(&s, " for 'encode'")?;
    let (input, output) = input_output("encode", &s.operands)?;
    Ok(Command::Encode(Encode {
        codec,
        delta: s.has("--delta"),
        raw: s.has("--raw"),
        text: s.has("--text"),
        input,
        output,
    }))
}

const DECODE_OPTS: [Opt; 5] = [
    flag("--raw"),
    valued("--codec"),
    valued("--count"),
    flag("--delta"),
    flag("--text"),
];

fn parse_decode(s: Scanned) -> Result<Command, CliError> {
    let raw = if s.has("--raw") {
        let codec = codec_option(&s, " (decode --raw needs --codec and --count)")?;
        let count = match s.value("--count") {
            Some(n) => parse_count(n)?,
            None => {
                return Err(CliError::new(
                    "missing --count N (decode --raw needs --codec and --count: a bare stream does not record them)",
                ));
            }
        };
        Some(RawStream {
            codec,
            count,
            delta: s.has("--delta"),
        })
    } else {
        if let Some(opt) = ["--codec", "--count", "--delta"]
            .into_iter()
            .find(|o| s.has(o))
        {
            return Err(CliError::new(format!(
                "{opt} applies only with --raw (a container records codec, count and delta)"
            )));
        }
        None
    };
    let (input, output) = input_output("decode", &s.operands)?;
    Ok(Command::Decode(Decode {
        raw,
        text: s.has("--text"),
        input,
        output,
    }))
}

fn parse_count(text: &str) -> Result<usize, CliError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CliError::new(format!(
            "invalid --count '{text}': not a decimal integer"
        )));
    }
    text.parse::<usize>().map_err(|_| {
        CliError::new(format!(
            "invalid --count '{text}': too large for this machine"
        ))
    })
}

fn parse_info(s: Scanned) -> Result<Command, CliError> {
    match s.operands.first() {
        Some(extra) => Err(unexpected("info", extra)),
        None => Ok(Command::Info),
    }
}

fn parse_bench(args: &[OsString]) -> Result<Command, CliError> {
    let args = args
        .iter()
        .map(|a| {
            a.to_str().map(str::to_owned).ok_or_else(|| {
                CliError::new(format!(
                    "bench argument '{}' is not valid UTF-8",
                    a.to_string_lossy()
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Command::Bench(args))
}

/// The usage page for `topic`.
pub(crate) fn usage(topic: Topic) -> String {
    let codec_list: String = codecs::CODECS
        .iter()
        .map(|c| format!("  {:<18} {}\n", c.name, c.summary))
        .collect();
    let io_note = "INPUT and OUTPUT are paths; '-' means standard input / standard output.\n\
                   OUTPUT is replaced only when the command succeeds: a regular file atomically\n\
                   (keeping its mode), a device, FIFO, socket or /dev/fd/N written directly;\n\
                   symbolic links are followed. The input file and read-only files are refused.\n";
    match topic {
        Topic::General => format!(
            "intcodec {version}: SIMD integer codecs\n\
             \n\
             usage:\n\
             \x20 intcodec encode --codec NAME [--delta] [--raw] [--text] INPUT OUTPUT\n\
             \x20 intcodec decode [--text] INPUT OUTPUT\n\
             \x20 intcodec decode --raw --codec NAME --count N [--delta] [--text] INPUT OUTPUT\n\
             \x20 intcodec info\n\
             \x20 intcodec bench [ARGS...]\n\
             \x20 intcodec help [COMMAND]\n\
             \n\
             {io_note}\
             Values are little-endian u32; with --text, one decimal integer per line.\n\
             \n\
             codecs:\n\
             {codec_list}",
            version = env!("CARGO_PKG_VERSION"),
        ),
        Topic::Encode => format!(
            "usage: intcodec encode --codec NAME [--delta] [--raw] [--text] INPUT OUTPUT\n\
             \n\
             Encodes u32 values.\n\
             \n\
             \x20 --codec NAME  the codec (below)\n\
             \x20 --delta       store differences from the previous value (from 0)\n\
             \x20 --raw         write the bare codec stream, no container: decoding it\n\
             \x20               needs --codec, --count and --delta again\n\
             \x20 --text        INPUT is decimal text, one value per line (blank lines\n\
             \x20               and spaces around values are allowed)\n\
             \n\
             {io_note}\
             Without --raw the output is a container (docs/container.md) recording the\n\
             codec, delta flag, value count and a CRC-32C checksum.\n\
             \n\
             codecs:\n\
             {codec_list}"
        ),
        Topic::Decode => format!(
            "usage: intcodec decode [--text] INPUT OUTPUT\n\
             \x20      intcodec decode --raw --codec NAME --count N [--delta] [--text] INPUT OUTPUT\n\
             \n\
             Decodes a container written by 'intcodec encode' (checking its checksum),\n\
             or with --raw a bare stream, which must end exactly after N values.\n\
             \n\
             \x20 --raw         INPUT is a bare codec stream\n\
             \x20 --codec NAME  its codec (with --raw)\n\
             \x20 --count N     its number of values (with --raw)\n\
             \x20 --delta       it holds differences (with --raw)\n\
             \x20 --text        write decimal text, one value per line\n\
             \n\
             {io_note}\
             \n\
             codecs:\n\
             {codec_list}"
        ),
        Topic::Info => "usage: intcodec info\n\
             \n\
             Prints the CPU features found, the INTCODEC_ISA cap if set, the CPU\n\
             tuning (INTCODEC_TUNE=default|zen|zen4 overrides it) and the kernel\n\
             (instruction set) each codec uses on this machine.\n"
            .to_owned(),
        Topic::Bench => "usage: intcodec bench [ARGS...]\n\
             \n\
             Runs the benchmark harness (crate intcodec-bench); every argument is passed\n\
             to it. 'intcodec bench --help' shows the harness's own options.\n"
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn parse_str(list: &[&str]) -> Result<Command, CliError> {
        parse(&args(list))
    }

    fn err(list: &[&str]) -> String {
        parse_str(list).unwrap_err().to_string()
    }

    #[test]
    fn encode_options_anywhere() {
        let Command::Encode(e) =
            parse_str(&["encode", "in", "--delta", "--codec=streamvbyte-0124", "-"]).unwrap()
        else {
            panic!("not encode")
        };
        assert_eq!(e.codec.name, "streamvbyte-0124");
        assert!(e.delta && !e.raw && !e.text);
        assert_eq!(e.input, Target::Path("in".into()));
        assert_eq!(e.output, Target::Std);

        let Command::Encode(e) = parse_str(&[
            "encode",
            "--raw",
            "--text",
            "--codec",
            "streamvbyte",
            "--",
            "-x",
            "-",
        ])
        .unwrap() else {
            panic!("not encode")
        };
        assert!(e.raw && e.text && !e.delta);
        assert_eq!(e.input, Target::Path("-x".into()));
    }

    #[test]
    fn decode_raw_needs_codec_and_count() {
        let Command::Decode(d) = parse_str(&["decode", "a", "b"]).unwrap() else {
            panic!("not decode")
        };
        assert!(d.raw.is_none() && !d.text);

        let Command::Decode(d) = parse_str(&[
            "decode",
            "--raw",
            "--codec",
            "streamvbyte",
            "--count",
            "12",
            "--delta",
            "a",
            "b",
        ])
        .unwrap() else {
            panic!("not decode")
        };
        let raw = d.raw.unwrap();
        assert_eq!(
            (raw.codec.name, raw.count, raw.delta),
            ("streamvbyte", 12, true)
        );

        assert!(
            err(&["decode", "--raw", "--codec", "streamvbyte", "a", "b"])
                .contains("missing --count")
        );
        assert!(err(&["decode", "--raw", "--count", "3", "a", "b"]).contains("missing --codec"));
        assert!(err(&["decode", "--count", "3", "a", "b"]).contains("only with --raw"));
        for (count, words) in [("x1", "invalid --count 'x1'"), ("-1", "invalid --count")] {
            let raw = ["decode", "--raw", "--codec", "streamvbyte", "--count"];
            let e = err(&[&raw[..], &[count, "a", "b"]].concat());
            assert!(e.contains(words), "{e}");
        }
    }

    #[test]
    fn argument_errors() {
        assert!(err(&[]).contains("missing command"));
        assert!(err(&["frobnicate"]).contains("unknown command 'frobnicate'"));
        assert!(err(&["encode", "a", "b"]).contains("missing --codec"));
        let e = err(&["encode", "--codec", "lz4", "a", "b"]);
        assert!(
            e.contains("unknown codec 'lz4'") && e.contains("streamvbyte"),
            "{e}"
        );
        assert!(err(&["encode", "--codec", "streamvbyte"]).contains("missing INPUT and OUTPUT"));
        assert!(err(&["encode", "--codec", "streamvbyte", "a"]).contains("missing OUTPUT"));
        assert!(err(&["encode", "--codec", "streamvbyte", "a", "b", "c"])
            .contains("unexpected argument 'c'"));
        assert!(err(&["encode", "--codec"]).contains("missing value after --codec"));
        assert!(err(&[
            "encode",
            "--codec=streamvbyte",
            "--codec=streamvbyte",
            "a",
            "b"
        ])
        .contains("given twice"));
        assert!(err(&["encode", "--delta=1"]).contains("takes no value"));
        assert!(err(&["encode", "--fast", "a", "b"]).contains("unknown option '--fast'"));
        assert!(err(&["encode", "-d", "a", "b"]).contains("unknown option '-d'"));
        assert!(err(&["info", "x"]).contains("unexpected argument 'x'"));
        assert!(err(&["help", "nope"]).contains("unknown command 'nope'"));
    }

    #[test]
    fn help_and_bench() {
        assert!(matches!(
            parse_str(&["--help"]),
            Ok(Command::Help(Topic::General))
        ));
        assert!(matches!(
            parse_str(&["help"]),
            Ok(Command::Help(Topic::General))
        ));
        assert!(matches!(
            parse_str(&["help", "decode"]),
            Ok(Command::Help(Topic::Decode))
        ));
        assert!(matches!(
            parse_str(&["encode", "--codec", "nope", "--help"]),
            Ok(Command::Help(Topic::Encode))
        ));
        assert!(matches!(
            parse_str(&["info", "-h"]),
            Ok(Command::Help(Topic::Info))
        ));
        let Command::Bench(rest) = parse_str(&["bench", "--help", "x", "--"]).unwrap() else {
            panic!("not bench")
        };
        assert_eq!(rest, ["--help", "x", "--"]);
        for topic in [
            Topic::General,
            Topic::Encode,
            Topic::Decode,
            Topic::Info,
            Topic::Bench,
        ] {
            assert!(usage(topic).starts_with("usage: ") || topic == Topic::General);
        }
        assert!(usage(Topic::General).contains("streamvbyte-0124"));
    }
}
