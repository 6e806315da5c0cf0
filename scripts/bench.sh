#!/usr/bin/env bash
# The main job: `intcodec bench` on the built-in data, peers in the same run.
# Extra arguments go to `intcodec bench` (try --help, --quick, --format csv).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
exec cargo run --release --quiet -p intcodec-cli -- bench "$@"
