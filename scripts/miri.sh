#!/usr/bin/env bash
# Miri (the Rust UB checker) over the small-input tests of Stream VByte
# (crates/intcodec/tests/small_inputs.rs), VByte and VarInt-GB
# (small_inputs_bytes.rs) and the golden vectors, on the scalar kernels and,
# compiled in with explicit target features, the SSSE3, SSE4.1 and AVX2
# kernels: every raw load and store they make is checked for
# bounds, alignment and initialisation. Part of scripts/test.sh (a few
# minutes); needs nightly + the miri component (scripts/deps.sh --miri).
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
MIRIFLAGS="-Zmiri-disable-isolation ${MIRIFLAGS:-}" \
RUSTFLAGS="-Ctarget-feature=+ssse3,+sse4.1,+avx2,+bmi1,+bmi2,+popcnt,+lzcnt" \
INTCODEC_EXPECT_KERNELS=scalar,sse41,avx2 \
INTCODEC_EXPECT_KERNELS_VBYTE=scalar,sse41,avx2 \
INTCODEC_EXPECT_KERNELS_GB=scalar,ssse3,avx2 \
INTCODEC_EXPECT_KERNELS_VARINT=scalar,ssse3,bmi2 \
INTCODEC_ISA='' \
    cargo +nightly miri test --quiet -p intcodec --test small_inputs --test small_inputs_bytes \
        --test small_inputs_sorted \
        --test small_inputs_varint --test golden_varint_single \
        --test golden
