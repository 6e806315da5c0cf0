#!/usr/bin/env bash
# AArch64 tests of the core crate under user-mode QEMU: cross-builds
# `intcodec`'s tests for aarch64-unknown-linux-gnu (Debian's cross gcc as the
# linker, .cargo/config.toml) and runs them with `qemu-aarch64`, once with
# the NEON kernels (the default choice) and once with INTCODEC_ISA=scalar;
# then `cargo check --target aarch64-apple-darwin -p intcodec`. Installs the
# tools when missing (prints nothing when they are there). Exits non-zero on
# any failure.
#
# What runs (a selection: the whole suite takes about 25 minutes under
# QEMU on this machine; what is left out is kernel-independent or has no NEON
# kernel, and runs natively in scripts/test.sh):
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
# (its kernels are covered one by one); the select/seek scans of VByte and
# VarInt-GB (their NEON sets use the scalar select/seek); FOR, the BP128 8x
# layout and single varints (no NEON kernel: scalar only).
SKIP_NEON=(
    --skip tests::conformance::selftest
    --skip sorted::tests::blocked_agrees_with_binary_search
    --skip codec::vbyte::seek::tests::select_and_seek
    --skip codec::varint_gb::seek::tests::select_and_seek
    --skip codec::varint_gb::seek::tests::truncated_streams
    --skip registry_conformance::sorted_for
    --skip registry_conformance::bp128_8x
    --skip codec::varint::
)
# The scalar run: per-codec unit tests, minus the quadratic select/seek
# scans (the same scalar code runs them natively).
SCALAR_LIB=(
    isa:: tables:: zigzag:: codec::
    --skip seek::tests::select_and_seek
    --skip seek::tests::truncated_streams
)

test_() {
    cargo test -q -p intcodec --target "$TARGET" "$@"
}

echo "== aarch64 build (tests)" >&2
test_ --lib --test '*' --no-run
echo "== aarch64 NEON: unit tests" >&2
test_ --lib -- "${SKIP_NEON[@]}"
echo "== aarch64 NEON: integration tests (golden vectors, small inputs)" >&2
test_ --test '*'
echo "== aarch64 INTCODEC_ISA=scalar: unit tests" >&2
INTCODEC_ISA=scalar test_ --lib -- "${SCALAR_LIB[@]}"
echo "== aarch64 INTCODEC_ISA=scalar: integration tests" >&2
INTCODEC_ISA=scalar test_ --test '*'

echo "== cargo check --target aarch64-apple-darwin -p intcodec" >&2
cargo check -q -p intcodec --target aarch64-apple-darwin
