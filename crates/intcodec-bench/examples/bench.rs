//! Runs the benchmark like `intcodec bench` does:
//! `cargo run --release -p intcodec-bench --example bench -- [OPTIONS]`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(e) = intcodec_bench::cli::run(&args, &mut out) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
