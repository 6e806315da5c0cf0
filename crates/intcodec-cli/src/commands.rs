//! What each command does, once its arguments are parsed.

use crate::args::{usage, Command, Decode, Encode};
use crate::codecs::{self, CODECS};
use crate::container;
use crate::error::CliError;
use crate::io::{open_input, open_output, stdout_error, write_stdout};
use crate::signals;
use crate::values;
use intcodec::isa::{self, Isa};
use std::fmt::Write as _;
use std::io::Write as _;

/// Runs `command`, writing its result to stdout or its OUTPUT file.
pub(crate) fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Help(topic) => print(&usage(topic)),
        Command::Version => print(&format!("intcodec {}\n", env!("CARGO_PKG_VERSION"))),
        Command::Encode(args) => {
            check_isa_env()?;
            signals::install();
            encode(&args)
        }
        Command::Decode(args) => {
            check_isa_env()?;
            signals::install();
            decode(&args)
        }
        Command::Info => {
            check_isa_env()?;
            print(&info())
        }
        Command::Bench(args) => {
            check_isa_env()?;
            bench(&args)
        }
    }
}

fn print(text: &str) -> Result<(), CliError> {
    write_stdout(text.as_bytes())
}

/// The core library panics on a bad `INTCODEC_ISA` or `INTCODEC_TUNE` the
/// first time a codec is built; check them first so the user gets a
/// one-line error instead.
fn check_isa_env() -> Result<(), CliError> {
    isa::check_override().map_err(CliError::new)?;
    isa::check_tuning().map(|_| ()).map_err(CliError::new)
}

fn encode(args: &Encode) -> Result<(), CliError> {
    let input = open_input(&args.input)?;
    let output = open_output(&args.output, &input)?;
    let input = input.read_all()?;
    let values = if args.text {
        values::parse_text(&input)?
    } else {
        values::parse_binary(&input)?
    };
    drop(input);
    let stream = args.codec.encode(&values, args.delta);
    let bytes = if args.raw {
        stream
    } else {
        container::write(args.codec, args.delta, values.len(), &stream)
    };
    output.commit(&bytes)
}

fn decode(args: &Decode) -> Result<(), CliError> {
    let input = open_input(&args.input)?;
    let output = open_output(&args.output, &input)?;
    let input = input.read_all()?;
    let values = match &args.raw {
        Some(raw) => codecs::decode_exact(raw.codec, &input, raw.count, raw.delta, 0)?,
        None => container::decode(&input)?,
    };
    drop(input);
    let bytes = if args.text {
        values::to_text(&values)
    } else {
        values::to_binary(&values)
    };
    output.commit(&bytes)
}

fn info() -> String {
    let mut s = String::new();
    let names = |it: &mut dyn Iterator<Item = Isa>| it.map(Isa::name).collect::<Vec<_>>().join(" ");
    let _ = writeln!(s, "intcodec {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(s, "cpu features: {}", names(&mut isa::detected_isas()));
    match isa::isa_override() {
        Some(cap) => {
            let _ = writeln!(s, "INTCODEC_ISA: {cap} (kernels capped at this level)");
        }
        None => {
            let _ = writeln!(s, "INTCODEC_ISA: not set");
        }
    }
    let _ = writeln!(s, "usable:       {}", names(&mut isa::supported_isas()));
    let tuned = match isa::check_tuning() {
        Ok(Some(_)) => "set by INTCODEC_TUNE",
        _ => "detected",
    };
    let _ = writeln!(s, "tuning:       {} ({tuned})", isa::tuning());
    let _ = writeln!(s, "kernels:");
    for c in CODECS.iter() {
        let _ = writeln!(
            s,
            "  {:<18} {:<8} (container id 0x{:02x})",
            c.name,
            c.kernel().name(),
            c.id
        );
    }
    let _ = writeln!(
        s,
        "  {:<18} {:<8} (library only: intcodec::varint)",
        "varint (single)",
        intcodec::varint::Varint::new().kernel().name()
    );
    s
}

/// What a build without the cargo feature `peers` says after a benchmark
/// run (on stderr, so that CSV or JSON on stdout stays clean).
#[cfg(not(feature = "peers"))]
const NO_PEERS_NOTE: &str = "\
intcodec bench: note: this intcodec was built without the benchmark peers \
(lemire/streamvbyte in C; the Rust crates varint-simd, prost, \
integer-encoding, leb128, unsigned-varint, bitpacking, stream-vbyte, \
streamvbyte64, fastpfor): only intcodec's own codecs and memcpy are \
measured. To compare against them, rebuild with `cargo build --release -p \
intcodec-cli --features peers` (needs a C compiler, CMake and a nightly \
toolchain), or run scripts/bench.sh, which does.\n";

fn bench(args: &[String]) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = intcodec_bench::cli::run(args, &mut out);
    let flushed = out.flush();
    result.map_err(|e| {
        // The harness reports errors as text; a write to a closed stdout
        // pipe ends the tool quietly, as for the other commands.
        if e.contains("Broken pipe (os error") {
            return CliError::broken_pipe();
        }
        // The harness may already say who it is.
        let e = e.trim();
        let e = e.strip_prefix("intcodec bench:").unwrap_or(e).trim_start();
        CliError::new(format!("bench: {e}"))
    })?;
    flushed.map_err(|e| stdout_error(&e))?;
    // After the run, where it is seen (and not before a usage error).
    #[cfg(not(feature = "peers"))]
    eprint!("{NO_PEERS_NOTE}");
    Ok(())
}
