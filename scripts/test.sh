#!/usr/bin/env bash
# Every test: installs what the tests need, checks formatting and lints, runs
# the whole suite under the default kernel choice and the kernel tests under
# each lower INTCODEC_ISA cap this CPU supports, smoke-runs the benchmark (no
# speed is asserted), tests the C library and the Python package, and runs
# the AArch64 tests under QEMU, Miri over the small-input tests and every
# fuzz target briefly, side by side. Prints each step's duration at the end
# (also on failure).
set -euo pipefail
cd "$(dirname "$0")/.."

# step NAME CMD...: runs CMD, timing it (wall and CPU seconds); the table
# is printed on exit.
step_names=()
step_secs=()
step_cpus=()
step_now=""
step_start=0
step_cpu0=0
times_file=$(mktemp)
# cpu_now: sets `cpu` to the CPU seconds (user + system) of this shell's
# finished children so far, whole seconds. Not through `$(...)`: `times`
# in a subshell counts that subshell's children only (none yet).
cpu=0
cpu_now() {
    times >"$times_file"
    read -r cpu < <(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%d\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
}
step() {
    local name=$1; shift
    echo "== $name"
    step_now=$name
    step_start=$SECONDS
    cpu_now
    step_cpu0=$cpu
    "$@"
    step_names+=("$name")
    step_secs+=($((SECONDS - step_start)))
    cpu_now
    step_cpus+=($((cpu - step_cpu0)))
    step_now=""
}
summary() {
    local rc=$?
    echo
    echo "== step durations (wall, CPU: user + system of every process)"
    local i
    for i in "${!step_names[@]}"; do
        printf '%6ss %6ss  %s\n' "${step_secs[$i]}" "${step_cpus[$i]}" "${step_names[$i]}"
    done
    if [ -n "$step_now" ]; then
        printf '%6ss %7s  %s  (FAILED)\n' "$((SECONDS - step_start))" "" "$step_now"
    fi
    cpu_now
    printf '%6ss %6ss  total\n' "$SECONDS" "$cpu"
    rm -f "$times_file"
    exit "$rc"
}
trap summary EXIT

step "dependencies (scripts/deps.sh --tests)" bash scripts/deps.sh --tests

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

fmt() {
    cargo fmt --all -- --check
    (cd fuzz && cargo fmt -- --check)
}
step "cargo fmt --check" fmt

# `--all-features` turns on `g8iu` (VarInt-G8IU, off by default for patent
# reasons) and the benchmark peers, so CI builds and tests them; the default
# build is linted too.
clippy() {
    cargo clippy --workspace --all-targets --quiet -- -D warnings
    cargo clippy --workspace --all-targets --all-features --quiet -- -D warnings
    (cd fuzz && cargo clippy --all-targets --quiet -- -D warnings)
    # The NEON kernels are linted too (the target is installed by deps.sh).
    cargo clippy -p intcodec --target aarch64-unknown-linux-gnu --all-targets --all-features \
        --quiet -- -D warnings
}
# The Python package's crate is a workspace member: `--workspace` lints it.
step "cargo clippy (default features, all features, fuzz, Python package, AArch64)" clippy

# On a CPU without AVX-512, the builds from here on (tests, C library,
# Python package, AArch64, fuzz) leave BP128's AVX-512 kernel sets out:
# they could not run here, and they are a third of the kernel crate's
# compile time (crates/intcodec-bp128-kernels/src/x86/mod.rs). Clippy above
# has checked them; with AVX-512 they are compiled and run as every kernel.
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
has() { for f in "$@"; do [[ " $flags " == *" $f "* ]] || return 1; done; }
# The crate's AVX-512 level (src/isa.rs): F, BW, VL, VBMI, VBMI2, VNNI.
avx512=0
has ssse3 sse4_1 avx2 bmi1 bmi2 popcnt avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2 avx512_vnni &&
    avx512=1
if [ "$avx512" = 0 ] && [ "$(uname -m)" = x86_64 ]; then
    # rustdoc (the doctests) reads the crates' sources with the same cfg.
    export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }--cfg intcodec_skip_bp128_avx512"
    export RUSTDOCFLAGS="${RUSTDOCFLAGS:+$RUSTDOCFLAGS }--cfg intcodec_skip_bp128_avx512"
    echo "== no AVX-512 here: --cfg intcodec_skip_bp128_avx512 (BP128's AVX-512 kernels not built)"
fi

unset INTCODEC_ISA
step "cargo test, every crate, all features, default kernel choice" \
    cargo test --workspace --all-features

# The default-features build (no g8iu, no peers: what `cargo install` gives)
# is compiled and linted by the clippy step above; it is not built and tested
# a second time here (a second full rebuild of the core crate). What it says
# about the left-out G8IU is unit-tested in every build (codecs.rs).

# Each cap this CPU supports (DESIGN.md, Testing 5), on the crates whose
# tests run kernels (the core crate and the oracles); the build is the one
# above, so each cap costs only its run time.
isas=(scalar)
has ssse3 && isas+=(ssse3)
has ssse3 sse4_1 && isas+=(sse41)
has ssse3 sse4_1 avx2 bmi1 bmi2 popcnt && isas+=(avx2)
[ "$avx512" = 1 ] && isas+=(avx512)
# The best one is the default choice the run above already used.
unset 'isas[-1]'
# The test executables of the core crate and the oracles, from the build
# above: `cargo test -p ...` would resolve features apart and rebuild.
# Each line: the package directory (the tests' working directory, as under
# cargo test) and the executable.
cap_bins=$(mktemp)
cargo test --workspace --all-features --no-run --message-format=json 2>/dev/null | python3 -c '
import json, os, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") != "compiler-artifact" or not m.get("executable") or not m["profile"]["test"]:
        continue
    pkg = os.path.dirname(m["manifest_path"])
    if os.path.basename(pkg) in ("intcodec", "intcodec-oracles"):
        print(pkg + "\t" + m["executable"])
' > "$cap_bins"
[ -s "$cap_bins" ] || { echo "test.sh: found no core/oracle test executables" >&2; exit 1; }
# run_with VAR=VALUE [ARG...]: those binaries with VAR=VALUE in their
# environment and the test harness arguments ARG.
run_with() {
    local dir exe
    while IFS=$'\t' read -r dir exe; do
        (cd "$dir" && env "$1" "$exe" -q "${@:2}")
    done < "$cap_bins"
}
# Under a cap, minus the conformance harness (src/tests/conformance.rs and
# registry_conformance.rs): it forces each kernel a codec lists, scalar
# included, and a cap only shortens that list, so it would repeat, on the
# same inputs, a subset of the checks the run above made (two thirds of
# these runs' time). What a cap changes, the kernel every `best()` handle
# picks, is what the rest of the tests exercise.
for isa in "${isas[@]}"; do
    step "tests with INTCODEC_ISA=$isa (core and oracle test binaries of the build above, minus the every-kernel harness)" \
        run_with "INTCODEC_ISA=$isa" --skip tests::conformance:: --skip tests::registry_conformance::
done
# The CPU tuning changes loops inside the AVX-512 kernels only (isa.rs,
# `Tuning`): with AVX-512, the same binaries run again under each tuning
# this CPU does not detect, so every loop runs here whichever CPU this is.
if [ "$avx512" = 1 ]; then
    detected=$(env -u INTCODEC_TUNE "${CARGO_TARGET_DIR:-target}/debug/intcodec" info | sed -n 's/^tuning: *\([a-z0-9]*\).*/\1/p')
    [ -n "$detected" ] || { echo "test.sh: intcodec info printed no tuning" >&2; exit 1; }
    for other in default zen zen4; do
        [ "$other" = "$detected" ] && continue
        step "tests with INTCODEC_TUNE=$other (a tuning this CPU does not detect: $detected)" \
            run_with "INTCODEC_TUNE=$other"
    done
fi
rm -f "$cap_bins"

smoke() {
    local dir bin
    dir=$(mktemp -d)
    # The intcodec binary the tests above built (test profile: optimised, all
    # features, so g8iu and every peer): no release build just for this run.
    # `--no-run` makes sure the binary in place is the all-features one.
    cargo test --workspace --all-features --no-run --quiet 2>/dev/null
    bin="${CARGO_TARGET_DIR:-target}/debug/intcodec"
    if [ -x "$bin" ]; then
        "$bin" bench --quick -q --plot "$dir/figures.svg" > "$dir/report.txt"
    else
        cargo run --release --quiet -p intcodec-cli --all-features -- bench --quick -q \
            --plot "$dir/figures.svg" > "$dir/report.txt"
    fi
    grep -q "Fig. 5a" "$dir/figures.svg" && grep -q "Fig. 6a" "$dir/figures.svg"
    grep -q "varint-g8iu" "$dir/report.txt"
    rm -rf "$dir"
}
step "benchmark smoke run (intcodec bench --quick: every suite, figures; speed not asserted)" smoke

# The C library: lemire/streamvbyte's own unit.c against our drop-in, our C
# tests (guard pages, huge counts, NULLs) normally and under ASan + UBSan,
# and the pkg-config install.
step "C library (scripts/test-capi.sh, linked from the test build)" \
    env INTCODEC_CAPI_PROFILE=test bash scripts/test-capi.sh
# The Python package in a venv under target/: pytest, numcodecs, zarr,
# mypy on the stubs; byte equality with the CLI binary the test build made.
# test-py.sh builds the extension with 16 codegen units and no local
# ThinLTO (the package's release profile says 1 unit, for speed): LLVM then
# uses both cores, and these tests time nothing.
step "Python package (scripts/test-py.sh)" \
    env INTCODEC_CLI="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/debug/intcodec" bash scripts/test-py.sh
# Side by side, each with its own log (printed when all are done) and its
# own duration: the AArch64 tests (the core crate's tests under
# qemu-aarch64, NEON and scalar), Miri over the small-input tests (scalar,
# SSE4.1 and AVX2 kernels), and the fuzz crate's helper tests plus every fuzz
# target for 10 s, unoptimised (a smoke run: the optimised build alone took
# longer than the rest of this block; scripts/fuzz.sh 600 is the long run). Miri and the fuzz
# runs use one core each; the cross build and QEMU fill the gaps. The
# AArch64 step must stay under 10 minutes (issue 22), so it runs first in
# priority, the fuzz job (whose runs are timed by the clock, not by CPU)
# next, Miri (no budget of its own, two processes at the end) last; the
# block's total work, and so its length, is the same.
aarch64_job() { bash scripts/test-aarch64.sh; }
miri_job() { nice -n 10 bash scripts/miri.sh; }
# The helper tests build without libFuzzer's C++ (the default feature
# `fuzzing`), which `cargo fuzz build` compiles again with its own flags.
fuzz_job() {
    (cd fuzz && nice -n 5 cargo test --quiet --lib --no-default-features --features g8iu) &&
        FUZZ_BUILD=dev nice -n 5 bash scripts/fuzz.sh 10
}
side_by_side() {
    local dir i rc secs cpus name failed=0 names=() fns=()
    while [ $# -gt 0 ]; do names+=("$1"); fns+=("$2"); shift 2; done
    dir=$(mktemp -d)
    echo "== side by side: ${names[*]}; their logs follow when all are done"
    for i in "${!fns[@]}"; do
        ( s=$SECONDS; times_file=$dir/$i.times
          if "${fns[$i]}" >"$dir/$i.log" 2>&1; then rc=0; else rc=$?; fi
          cpu_now  # this subshell's children: the job's processes
          echo "$rc $((SECONDS - s)) $cpu" >"$dir/$i.rc" ) &
    done
    wait
    for i in "${!fns[@]}"; do
        echo "== ${names[$i]} (log)"
        cat "$dir/$i.log"
        read -r rc secs cpus <"$dir/$i.rc" || { rc=1; secs=0; cpus=0; }
        name="${names[$i]} (side by side)"
        if [ "$rc" -ne 0 ]; then name="$name  (FAILED)"; failed=1; fi
        step_names+=("$name")
        step_secs+=("$secs")
        step_cpus+=("$cpus")
    done
    rm -rf "$dir"
    return "$failed"
}
step_now="side by side: aarch64, miri, fuzz"
step_start=$SECONDS
side_by_side \
    "aarch64 under qemu (scripts/test-aarch64.sh)" aarch64_job \
    "miri (scripts/miri.sh)" miri_job \
    "fuzz helper tests, every fuzz target 10 s (scripts/fuzz.sh 10)" fuzz_job
step_now=""
echo "== all tests passed"
