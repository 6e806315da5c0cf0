#!/usr/bin/env bash
# Runs the cargo-fuzz targets listed in fuzz/targets.txt, one after another,
# for a bounded time each, with AddressSanitizer, debug assertions and
# overflow checks (see fuzz/README.md).
#
#   scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]
#
#   scripts/fuzz.sh                  # every target, 15 s each (what scripts/test.sh runs)
#   scripts/fuzz.sh 600              # every target, 10 minutes each (a long run)
#   scripts/fuzz.sh 3600 svb_decode  # one target, an hour
#   FUZZ_JOBS=5 scripts/fuzz.sh 600  # five targets at a time
#   FUZZ_BUILD=dev scripts/fuzz.sh 10 # unoptimised build: compiles in a
#                                     # fraction of the time, runs slower
#                                     # (scripts/test.sh's smoke run)
#
# Each target starts from fuzz/corpus/<target>/ (the committed seeds plus
# whatever earlier local runs found there) and adds what it finds to it. A
# crash stops that target; the others still run; the script then fails and
# prints how to reproduce each crash. Stats and logs: fuzz/target/fuzz-logs/.
# Needs the nightly toolchain and cargo-fuzz; scripts/deps.sh --fuzz installs
# them when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${1:-15}
if ! [[ "$secs" =~ ^[0-9]+$ ]] || [ "$secs" -eq 0 ]; then
    echo "usage: scripts/fuzz.sh [SECONDS-PER-TARGET] [TARGET...]" >&2
    exit 2
fi
shift $(( $# > 0 ? 1 : 0 ))

bash scripts/deps.sh --fuzz

# The targets: fuzz/targets.txt (NAME [libFuzzer options]).
declare -A opts=()
listed=()
while read -r name rest; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    listed+=("$name")
    opts[$name]="$rest"
done < fuzz/targets.txt

# Every target cargo-fuzz knows must be listed, and the other way round.
known=$(cd fuzz && cargo +nightly fuzz list)
for t in $known; do
    [[ -v "opts[$t]" ]] || { echo "fuzz.sh: target $t is not in fuzz/targets.txt" >&2; exit 1; }
done
for t in "${listed[@]}"; do
    grep -qx "$t" <<<"$known" || { echo "fuzz.sh: fuzz/targets.txt lists $t, which is not a target in fuzz/Cargo.toml" >&2; exit 1; }
done

run=("$@")
[ ${#run[@]} -gt 0 ] || run=("${listed[@]}")
for t in "${run[@]}"; do
    [[ -v "opts[$t]" ]] || { echo "fuzz.sh: unknown target $t (known: ${listed[*]})" >&2; exit 2; }
done

build=${FUZZ_BUILD:-release}
echo "== fuzz: ${#run[@]} target(s), ${secs} s each, $build build; kernels: every one this CPU has (INTCODEC_ISA=${INTCODEC_ISA:-unset})"
# -O: optimised (--dev: not); -a: debug assertions and overflow checks (also
# set in fuzz/Cargo.toml's profiles); AddressSanitizer is cargo-fuzz's default.
case $build in
    release) flags=(-O -a) ;;
    dev) flags=(--dev -a) ;;
    *) echo "fuzz.sh: FUZZ_BUILD must be release or dev, not '$build'" >&2; exit 2 ;;
esac
logs=fuzz/target/fuzz-logs
mkdir -p "$logs"
if ! (cd fuzz && cargo +nightly fuzz build "${flags[@]}") >"$logs/build.log" 2>&1; then
    cat "$logs/build.log" >&2
    echo "fuzz.sh: building the fuzz targets failed (log above)" >&2
    exit 1
fi

# One target: its log, and a one-line result in $logs/$t.result.
run_one() {
    local t=$1 log="$logs/$1.log" start=$SECONDS result execs
    mkdir -p "fuzz/corpus/$t"
    touch "$logs/$t.start"
    # shellcheck disable=SC2086 # per-target options are words
    if (cd fuzz && cargo +nightly fuzz run "${flags[@]}" "$t" -- \
            -max_total_time="$secs" -timeout=10 -max_len=8192 -rss_limit_mb=2048 \
            -print_final_stats=1 ${opts[$t]}) >"$log" 2>&1; then
        result=ok
    else
        result=FAILED
    fi
    execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
    printf '%-24s %6s s %12s execs  %s\n' "$t" "$((SECONDS - start))" "${execs:-?}" "$result" \
        >"$logs/$t.result"
}

# FUZZ_JOBS=N runs N targets at a time (each still for SECONDS of wall
# time, sharing the CPUs); the default runs them one after another.
jobs=${FUZZ_JOBS:-1}
for t in "${run[@]}"; do
    rm -f "$logs/$t.result"
    if [ "$jobs" -gt 1 ]; then
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
        run_one "$t" &
    else
        run_one "$t"
        echo "   $(cat "$logs/$t.result")"
    fi
done
wait
failed=()
for t in "${run[@]}"; do
    [ "$jobs" -gt 1 ] && echo "   $(cat "$logs/$t.result")"
    grep -q ' ok$' "$logs/$t.result" || failed+=("$t")
done

echo "== fuzz: logs in $logs/"
if [ ${#failed[@]} -gt 0 ]; then
    for t in "${failed[@]}"; do
        echo "--- $t: last lines of $logs/$t.log" >&2
        tail -n 40 "$logs/$t.log" >&2
        find "fuzz/artifacts/$t" -type f -newer "$logs/$t.start" 2>/dev/null | while read -r a; do
            echo "reproduce: (cd fuzz && cargo +nightly fuzz run ${flags[*]} $t ${a#fuzz/})" >&2
        done
    done
    echo "fuzz.sh: ${#failed[@]} target(s) failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#run[@]} passed, 0 failed"
