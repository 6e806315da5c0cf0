//! The `intcodec` command-line tool: encode, decode, bench, info.
//!
//! ```text
//! intcodec encode --codec NAME [--delta] [--raw] [--text] INPUT OUTPUT
//! intcodec decode [--raw --codec NAME --count N [--delta]] [--text] INPUT OUTPUT
//! intcodec info
//! intcodec bench [ARGS...]
//! ```
//!
//! Every failure is one line on stderr, `intcodec: error: <what> (at byte
//! offset N[, value index I | line L])`, and exit status 1; an output file is
//! replaced only on success (see [`io`]). Exceptions: a closed output pipe
//! ends the tool quietly with status 0, and SIGINT, SIGTERM and SIGHUP
//! remove the temporary output file and exit 130, 143 and 129
//! ([`signals`]).
#![forbid(unsafe_code)]

mod args;
mod codecs;
mod commands;
mod container;
mod error;
mod io;
mod signals;
mod values;

use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<_> = std::env::args_os().skip(1).collect();
    match args::parse(&argv).and_then(commands::run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("intcodec: error: {e}");
            ExitCode::FAILURE
        }
    }
}
