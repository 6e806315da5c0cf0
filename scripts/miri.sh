#!/usr/bin/env bash
# Miri (the Rust UB checker) over the small-input tests of Stream VByte
# (crates/intcodec/tests/small_inputs.rs), VByte and VarInt-GB
# (small_inputs_bytes.rs) and the golden vectors, on the scalar kernels and,
# compiled in with explicit target features, the SSSE3, SSE4.1 and AVX2
# kernels (the SSE4.1/SSSE3 kernels of Stream VByte, VByte and VarInt-GB
# only through their AVX2 twins, the same source): every raw load and
# store they make is checked for bounds, alignment and initialisation.
# Part of scripts/test.sh (a few minutes); needs nightly + the miri
# component (scripts/deps.sh --miri).
#
# Miri reports a CPU feature as present when the code is compiled with it
# (it cannot execute CPUID), so the features below select the kernels; the
# test checks that exactly those kernels ran. This affects only the Miri
# build (target/miri), never the library's own builds.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/deps.sh --miri

echo "== miri: small-input and golden tests, kernels scalar, ssse3, sse41, avx2"
# The golden test reads testdata/, which Miri's isolation would refuse.
export MIRIFLAGS="-Zmiri-disable-isolation ${MIRIFLAGS:-}"
export RUSTFLAGS="-Ctarget-feature=+ssse3,+sse4.1,+avx2,+bmi1,+bmi2,+popcnt,+lzcnt"
# Stream VByte's SSE4.1, VByte's SSE4.1 and VarInt-GB's SSSE3 kernels are
# their AVX2 kernels' macro bodies compiled with other features: the
# small-input tests run the AVX2 ones alone under Miri
# (tests/common/mod.rs, `miri_runs_kernel`).
export INTCODEC_EXPECT_KERNELS=scalar,avx2
export INTCODEC_EXPECT_KERNELS_VBYTE=scalar,avx2
export INTCODEC_EXPECT_KERNELS_GB=scalar,avx2
export INTCODEC_EXPECT_KERNELS_VARINT=scalar,ssse3,bmi2
export INTCODEC_ISA=''

# Miri interprets on one thread: the tests run as two groups at once (about
# equal in time), so that Miri uses both cores once the jobs beside it in
# scripts/test.sh are done. Built first, so the groups only run.
groups=(
    "--test small_inputs_sorted --test small_inputs_varint --test golden_varint_single --test golden"
    "--test small_inputs --test small_inputs_bytes"
)
miri_test() {
    # shellcheck disable=SC2086 # a group is a list of words
    cargo +nightly miri test --quiet -p intcodec $1 "${@:2}"
}
miri_test "${groups[0]} ${groups[1]}" --no-run
dir=$(mktemp -d)
pids=()
for i in "${!groups[@]}"; do
    miri_test "${groups[$i]}" >"$dir/$i.log" 2>&1 &
    pids+=($!)
done
failed=0
for i in "${!groups[@]}"; do
    wait "${pids[$i]}" || failed=1
    cat "$dir/$i.log"
done
rm -rf "$dir"
if [ "$failed" -ne 0 ]; then
    echo "FAIL: miri" >&2
    exit 1
fi
