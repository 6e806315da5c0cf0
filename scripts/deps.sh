#!/usr/bin/env bash
# Installs what building and testing intcodec needs beyond a Rust toolchain:
#   cmake and a C compiler  - the benchmark's C peer (lemire/streamvbyte, built
#                             from the `streamvbyte` crate's vendored sources)
#   libstreamvbyte-dev      - the format oracle the tests compare against
#   nightly + cargo-fuzz    - the fuzz targets (--tests, --fuzz)
#   nightly miri, rust-src  - Miri over the scalar kernels (--tests)
# Uses apt-get (Debian/Ubuntu), rustup and `cargo install` when something is
# missing; does nothing (and prints nothing) otherwise.
#
#   scripts/deps.sh           build and benchmark needs
#   scripts/deps.sh --tests   also everything scripts/test.sh needs
#   scripts/deps.sh --fuzz    only the fuzzing tools (scripts/fuzz.sh)
#   scripts/deps.sh --miri    only Miri (scripts/miri.sh)
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

need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v cc >/dev/null 2>&1 || need+=(gcc)
if [ "${1:-}" = "--tests" ]; then
    if ! { [ -e /usr/lib/x86_64-linux-gnu/libstreamvbyte.so.0 ] || ldconfig -p 2>/dev/null | grep -q libstreamvbyte.so.0; }; then
        need+=(libstreamvbyte-dev)
    fi
fi
[ ${#need[@]} -eq 0 ] && exit 0

echo "intcodec: installing ${need[*]} with apt-get" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "intcodec: error: apt-get not found; install ${need[*]} by hand" >&2
    exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
