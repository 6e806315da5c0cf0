#!/usr/bin/env bash
# The main job: `intcodec bench` on the built-in data, every suite, peers in
# the same run; prints the tables and writes the papers' figures to
# target/bench/figures.svg (and .png when rsvg-convert is there; deps.sh
# --plots installs it). Extra arguments go to `intcodec bench` (try --help,
# --quick, --suite postings, --format csv, --record bench/records).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh --plots
mkdir -p target/bench
cargo build --release --quiet -p intcodec-cli
target/release/intcodec bench --plot target/bench/figures.svg "$@"
if command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert --format png --zoom 1.5 --output target/bench/figures.png target/bench/figures.svg
    echo "figures: target/bench/figures.svg and target/bench/figures.png" >&2
else
    echo "figures: target/bench/figures.svg" >&2
fi
