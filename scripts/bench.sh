#!/usr/bin/env bash
# The main job: `intcodec bench` on the built-in data, every suite, peers in
# the same run. Prints the tables and a one-screen summary, and writes
#   target/bench/report.txt     the report as printed
#   target/bench/report.csv     every measured row
#   target/bench/figures.svg    the papers' figures (and .png when
#                               rsvg-convert is there; deps.sh --plots
#                               installs it)
# Extra arguments go to `intcodec bench` (try --help, --quick, --suite
# postings, --format csv, --record bench/records).
set -euo pipefail
cd "$(dirname "$0")/.."

for arg in "$@"; do
    case "$arg" in
    -h | --help)
        cat <<'EOF'
scripts/bench.sh [OPTIONS]: the main job. Builds the intcodec CLI with the
benchmark peers (release; the first build compiles lemire/streamvbyte's C
and two nightly cdylibs: a few minutes), runs `intcodec bench` (every suite,
about 3 minutes; --quick about 30 s) and writes target/bench/report.txt,
target/bench/report.csv and target/bench/figures.svg (.png with rsvg-convert).
OPTIONS are those of `intcodec bench`:
EOF
        if [ -x target/release/intcodec ]; then
            echo
            target/release/intcodec bench --help
        else
            echo "  (not built yet: run scripts/bench.sh once, or see"
            echo "   cargo run --release -p intcodec-cli --features peers -- bench --help)"
        fi
        exit 0
        ;;
    esac
done

bash scripts/deps.sh --plots
mkdir -p target/bench
rm -f target/bench/figures.svg target/bench/figures.png
echo "bench.sh: building the CLI with the benchmark peers (release)" >&2
cargo build --release -p intcodec-cli --features peers
target/release/intcodec bench --plot target/bench/figures.svg \
    --csv target/bench/report.csv "$@" | tee target/bench/report.txt
echo "report: target/bench/report.txt and target/bench/report.csv" >&2
if [ ! -f target/bench/figures.svg ]; then
    exit 0
fi
if command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert --format png --zoom 1.5 --output target/bench/figures.png target/bench/figures.svg
    echo "figures: target/bench/figures.svg and target/bench/figures.png" >&2
else
    echo "figures: target/bench/figures.svg" >&2
fi
