//! `cargo bench -p intcodec-bench --bench varint [-- --quick]`: the
//! `varint` suite (single-value LEB128 against varint-simd and the other
//! Rust varint crates), the same run as `intcodec bench --suite varint`.

fn main() {
    // cargo bench passes `--bench`; keep only the suite's own options.
    let mut args: Vec<String> = vec!["--suite".into(), "varint".into()];
    args.extend(std::env::args().skip(1).filter(|a| a != "--bench"));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = intcodec_bench::cli::run(&args, &mut out) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
