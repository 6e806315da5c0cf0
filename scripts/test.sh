#!/usr/bin/env bash
# Every test: installs what the tests need, checks formatting and lints, runs
# the whole suite under the default kernel choice and under each INTCODEC_ISA
# cap this CPU supports, smoke-runs the benchmark (no speed is asserted), runs
# Miri over the small-input tests, and runs every fuzz target briefly.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh --tests

# Oracle tests must not skip silently when run by this script.
export INTCODEC_REQUIRE_ORACLES=1
if [ ! -d ../shared/data/postings ] && [ -z "${INTCODEC_SHARED_DATA:-}" ]; then
    cat >&2 <<'MSG'
******************************************************************************
*** ../shared/data not found: the real-data tests will be SKIPPED.         ***
*** (They run when the shared data sets sit beside the repository.)        ***
******************************************************************************
MSG
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
(cd fuzz && cargo fmt -- --check)
# `--all-features` turns on `g8iu` (VarInt-G8IU, off by default for patent
# reasons) so CI builds and tests it; the default build is linted too, and
# the CLI is tested without it (its "not in this build" message).
echo "== cargo clippy (default features, then all features)"
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo clippy --workspace --all-targets --all-features --quiet -- -D warnings
(cd fuzz && cargo clippy --all-targets --quiet -- -D warnings)

echo "== cargo test (default kernel choice, all features)"
unset INTCODEC_ISA
cargo test --workspace --all-features

echo "== cargo test -p intcodec-cli (default features: no g8iu)"
cargo test -p intcodec-cli --quiet

# Each cap this CPU supports (DESIGN.md, Testing 5).
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
has() { for f in "$@"; do [[ " $flags " == *" $f "* ]] || return 1; done; }
isas=(scalar)
has ssse3 && isas+=(ssse3)
has ssse3 sse4_1 && isas+=(sse41)
has ssse3 sse4_1 avx2 bmi1 bmi2 popcnt && isas+=(avx2)
has ssse3 sse4_1 avx2 bmi1 bmi2 popcnt avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2 && isas+=(avx512)
for isa in "${isas[@]}"; do
    echo "== cargo test with INTCODEC_ISA=$isa"
    INTCODEC_ISA=$isa cargo test --workspace --all-features --quiet
done

echo "== benchmark smoke run (intcodec bench --quick: every suite, figures; speed not asserted)"
smoke=$(mktemp -d)
# The intcodec binary the CLI tests above use (the test profile: optimised,
# all features, so g8iu too): no release build of the whole workspace just
# for this run (a minute or two). `--no-run` makes sure the
# binary in place is the all-features one; without it, a release build.
cargo test --workspace --all-features --no-run --quiet 2>/dev/null
bin="${CARGO_TARGET_DIR:-target}/debug/intcodec"
if [ -x "$bin" ]; then
    "$bin" bench --quick -q --plot "$smoke/figures.svg" > "$smoke/report.txt"
else
    cargo run --release --quiet -p intcodec-cli --features g8iu -- bench --quick -q \
        --plot "$smoke/figures.svg" > "$smoke/report.txt"
fi
grep -q "Fig. 5a" "$smoke/figures.svg" && grep -q "Fig. 6a" "$smoke/figures.svg"
grep -q "varint-g8iu" "$smoke/report.txt"
rm -rf "$smoke"

echo "== fuzz helper tests"
(cd fuzz && cargo test --quiet --lib)
# Miri over the small-input tests, scalar + SSE4.1 + AVX2 kernels (a few minutes).
bash scripts/miri.sh
# Every fuzz target, 10 s each (scripts/fuzz.sh 600 is the long run; 22 targets:
# 10 s keeps a full CI run near 25 minutes on a 2-core machine).
bash scripts/fuzz.sh 10
echo "== all tests passed"
