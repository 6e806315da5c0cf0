#!/usr/bin/env bash
# Installs what building and testing intcodec needs beyond a Rust toolchain:
#   cmake and a C compiler  - the benchmark's C peer (lemire/streamvbyte, built
#                             from the `streamvbyte` crate's vendored sources)
#   libstreamvbyte-dev      - the format oracle the tests compare against
#   pyfastpfor (PyPI)       - FastPFor's varintgb / varintg8iu, the VarInt-GB
#                             and G8IU format oracle, in a venv at
#                             target/oracle-venv (built from source: needs a
#                             C++ compiler and Python headers)
#   nightly + cargo-fuzz    - the fuzz targets (--tests, --fuzz)
#   nightly                 - the benchmark's Rust Stream VByte peers
#                             (stream-vbyte, streamvbyte64: a cdylib built
#                             with nightly by intcodec-bench's build.rs)
#   nightly miri, rust-src  - Miri over the scalar kernels (--tests)
#   rsvg-convert            - PNG figures of `intcodec bench --plot FILE.png`
#                             (--plots; SVG figures need nothing)
#   gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user, binutils, rustup targets
#   aarch64-unknown-linux-gnu and aarch64-apple-darwin
#                           - the AArch64 tests under QEMU (--tests, --aarch64)
# Uses apt-get (Debian/Ubuntu), rustup and `cargo install` when something is
# missing; does nothing (and prints nothing) otherwise.
#
#   scripts/deps.sh           build and benchmark needs
#   scripts/deps.sh --tests   also everything scripts/test.sh needs
#   scripts/deps.sh --fuzz    only the fuzzing tools (scripts/fuzz.sh)
#   scripts/deps.sh --miri    only Miri (scripts/miri.sh)
#   scripts/deps.sh --aarch64 only the AArch64 tools (scripts/test-aarch64.sh)
#   scripts/deps.sh --plots   build and benchmark needs, and rsvg-convert
set -euo pipefail

# The nightly toolchain with `components`, and cargo-fuzz when asked.
rust_tools() {
    local want_fuzz=$1; shift
    if ! command -v rustup >/dev/null 2>&1; then
        echo "intcodec: error: rustup not found; the fuzz and Miri runs need the nightly toolchain (https://rustup.rs)" >&2
        exit 1
    fi
    if ! rustup run nightly rustc --version >/dev/null 2>&1; then
        echo "intcodec: installing the nightly Rust toolchain with rustup" >&2
        rustup toolchain install nightly --profile minimal >/dev/null
    fi
    local installed missing=()
    installed=$(rustup +nightly component list --installed 2>/dev/null)
    for c in "$@"; do
        grep -q "^$c" <<<"$installed" || missing+=("$c")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "intcodec: adding nightly components ${missing[*]} with rustup" >&2
        rustup +nightly component add "${missing[@]}" >/dev/null
    fi
    if [ "$want_fuzz" = yes ] && ! cargo +nightly fuzz --version >/dev/null 2>&1; then
        echo "intcodec: installing cargo-fuzz with cargo install (takes a few minutes)" >&2
        cargo +nightly install --locked --quiet cargo-fuzz
    fi
}

case "${1:-}" in
    --fuzz) rust_tools yes; exit 0 ;;
    --miri) rust_tools no miri rust-src; exit 0 ;;
    --tests) rust_tools yes miri rust-src ;;
esac

# The nightly toolchain for the benchmark's Rust Stream VByte peers (without
# it they are left out of the report, which says so).
case "${1:-}" in
    ""|--plots) if command -v rustup >/dev/null 2>&1; then rust_tools no; fi ;;
esac

need=()
if [ "${1:-}" = "--plots" ]; then
    command -v rsvg-convert >/dev/null 2>&1 || need+=(librsvg2-bin)
fi
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
if [ "${1:-}" = "--tests" ]; then
    if ! { [ -e /usr/lib/x86_64-linux-gnu/libstreamvbyte.so.0 ] || ldconfig -p 2>/dev/null | grep -q libstreamvbyte.so.0; }; then
        need+=(libstreamvbyte-dev)
    fi
fi
apt_install() {
    echo "intcodec: installing $* with apt-get" >&2
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "intcodec: error: apt-get not found; install $* by hand" >&2
        exit 1
    fi
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# The AArch64 cross tools: Debian's cross gcc (the linker, also the C
# compiler of the C API test), its libc, QEMU's user mode (the runner),
# readelf, and the rustup targets.
aarch64_tools() {
    local need_apt=() installed t
    command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need_apt+=(gcc-aarch64-linux-gnu)
    [ -e /usr/aarch64-linux-gnu/lib/libc.so.6 ] || need_apt+=(libc6-dev-arm64-cross)
    command -v qemu-aarch64 >/dev/null 2>&1 || need_apt+=(qemu-user)
    # readelf: the cross-built C and Python libraries are checked to be
    # AArch64 ELF (scripts/test-aarch64.sh).
    command -v readelf >/dev/null 2>&1 || need_apt+=(binutils)
    [ ${#need_apt[@]} -eq 0 ] || apt_install "${need_apt[@]}"
    installed=$(rustup target list --installed)
    for t in aarch64-unknown-linux-gnu aarch64-apple-darwin; do
        grep -qx "$t" <<<"$installed" || rustup target add "$t" >/dev/null 2>&1
    done
}
case "${1:-}" in
    --aarch64) aarch64_tools; exit 0 ;;
    --tests) aarch64_tools ;;
esac

[ ${#need[@]} -eq 0 ] || apt_install "${need[@]}"

# pyfastpfor in a venv under target/ (the oracle tests look there first).
if [ "${1:-}" = "--tests" ]; then
    root="$(cd "$(dirname "$0")/.." && pwd)"
    venv="$root/target/oracle-venv"
    if ! "$venv/bin/python" -c "import pyfastpfor" >/dev/null 2>&1; then
        if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1 \
            || ! command -v c++ >/dev/null 2>&1; then
            apt_install python3 python3-venv python3-dev g++
        fi
        echo "intcodec: installing pyfastpfor into $venv (builds FastPFor, a few minutes)" >&2
        rm -rf "$venv"
        mkdir -p "$root/target"
        python3 -m venv "$venv"
        "$venv/bin/python" -m pip install -q pyfastpfor
        "$venv/bin/python" -c "import pyfastpfor"
    fi
fi
