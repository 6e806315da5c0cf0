#!/usr/bin/env bash
# AArch64 tests of the core crate under user-mode QEMU: cross-builds
# `intcodec`'s tests for aarch64-unknown-linux-gnu (Debian's cross gcc as the
# linker, .cargo/config.toml) and runs them with `qemu-aarch64`, once with
# the NEON kernels (the default choice) and once with INTCODEC_ISA=scalar;
# then cross-builds the C library (cdylib + staticlib) and the Python
# extension (PyO3 abi3) for aarch64, checks they are AArch64 ELF, runs the C
# API test (ctest/test_api.c, linked statically) under QEMU, and runs
# `cargo check --target aarch64-apple-darwin -p intcodec`. Installs the
# tools when missing (prints nothing when they are there). Exits non-zero on
# any failure.
#
# What runs (a selection: the whole suite takes about 25 minutes under
# QEMU on this machine; what is left out is kernel-independent or has no NEON
# kernel, and runs natively in scripts/test.sh). Every codec with a NEON
# kernel set (Stream VByte, VByte, VarInt-GB, BP128 4x and 8x, their
# select/seek) is tested here with both kernels:
#   NEON (default choice): the unit tests, including the conformance /
#     every-kernel harness and every codec's kernel-agreement tests, and the
#     integration tests (golden vectors, small inputs); minus SKIP_NEON.
#   INTCODEC_ISA=scalar: the integration tests and the per-codec unit tests
#     (the scalar kernels on AArch64), minus the every-kernel seek scans.
# Doctests are not run (platform-independent; each is a separate binary).
# Wall-clock speed on ARM is not measured (no hardware here).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=aarch64-unknown-linux-gnu

bash scripts/deps.sh --aarch64

# The runner and linker come from .cargo/config.toml; set them here too, so
# the script works from a checkout whose config is overridden.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"

# Left out of the NEON run: the conformance harness's self-tests (they
# test the harness with toy codecs); the Blocked container over every codec
# (its kernels are covered one by one); FOR and single varints (no NEON
# kernel: scalar only).
SKIP_NEON=(
    --skip tests::conformance::selftest
    --skip sorted::tests::blocked_agrees_with_binary_search
    --skip registry_conformance::sorted_for
    --skip codec::varint::
)
# The scalar run: per-codec unit tests, minus the quadratic select/seek
# scans (the same scalar code runs them natively).
SCALAR_LIB=(
    isa:: tables:: zigzag:: codec::
    --skip seek::tests::select_and_seek
    --skip seek::tests::truncated_streams
)

# Each part's header says how long the script has run so far.
part() { echo "== [$((SECONDS))s] $*" >&2; }

test_() {
    cargo test -q -p intcodec --target "$TARGET" "$@"
}

part "aarch64 build (tests)"
test_ --lib --test '*' --no-run
part "aarch64 NEON: unit tests"
test_ --lib -- "${SKIP_NEON[@]}"
part "aarch64 NEON: integration tests (golden vectors, small inputs)"
test_ --test '*'
part "aarch64 INTCODEC_ISA=scalar: unit tests"
INTCODEC_ISA=scalar test_ --lib -- "${SCALAR_LIB[@]}"
part "aarch64 INTCODEC_ISA=scalar: integration tests"
INTCODEC_ISA=scalar test_ --test '*'

# The C and Python packages for aarch64 (issue 22, item 4): a cross build
# each, and the produced libraries must be AArch64 ELF. PyO3's abi3 build
# of the Python extension (crates/intcodec-py) needs no aarch64 interpreter
# (PYO3_CROSS=1 says "cross-compiling"; PYO3_CROSS_PYTHON_VERSION picks the
# stable ABI, which a native build takes from its interpreter: here the
# host's, which PyO3's macros, built for the host, assume too), and
# `extension-module` leaves libpython unlinked, as maturin does.

# Every ELF header in "$1" (one, or one per member of an archive) says
# AArch64.
is_aarch64_elf() {
    local machines
    machines=$(readelf -h "$1" | sed -n 's/^ *Machine: *//p' | sort -u)
    [ "$machines" = AArch64 ] || {
        echo "FAIL: $1: machine '${machines:-none}', not AArch64" >&2
        exit 1
    }
}
part "aarch64 cross build: C library (intcodec-capi)"
# The test profile (optimised, like the test build above): the core crate's
# library from that build is reused, not compiled again, and the C test
# below runs optimised code under QEMU.
cargo build -q -p intcodec-capi --profile test --target "$TARGET"
capi=target/$TARGET/debug
is_aarch64_elf "$capi/libintcodec_capi.so"
is_aarch64_elf "$capi/libintcodec_capi.a"
part "aarch64: the C API test (ctest/test_api.c) under QEMU, static library"
mkdir -p target/c-aarch64
aarch64-linux-gnu-gcc -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -O1 \
    -Icrates/intcodec-capi/include -o target/c-aarch64/test_api \
    crates/intcodec-capi/ctest/test_api.c "$capi/libintcodec_capi.a" -lpthread -ldl -lm
is_aarch64_elf target/c-aarch64/test_api
out=$(qemu-aarch64 -L /usr/aarch64-linux-gnu target/c-aarch64/test_api 2>&1) || {
    echo "$out" >&2
    echo "FAIL: ctest/test_api.c under qemu-aarch64" >&2
    exit 1
}
tail -n 1 <<<"$out"
part "aarch64 cross build: Python extension (intcodec-py, abi3)"
# The test profile, as the tests' build above: the core crate and the BP128
# kernel bodies are reused, only PyO3 and the binding are compiled.
PYO3_CROSS=1 PYO3_CROSS_PYTHON_VERSION="$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" \
    cargo build -q -p intcodec-py --profile test --target "$TARGET" --features extension-module
is_aarch64_elf "target/$TARGET/debug/libintcodec_py.so"

part "cargo check --target aarch64-apple-darwin -p intcodec"
cargo check -q -p intcodec --target aarch64-apple-darwin
part "aarch64 tests done"
