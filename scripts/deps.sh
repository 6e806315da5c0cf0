#!/usr/bin/env bash
# Installs what building and testing intcodec needs beyond a Rust toolchain:
#   cmake and a C compiler  - the benchmark's C peer (lemire/streamvbyte, built
#                             from the `streamvbyte` crate's vendored sources)
#   libstreamvbyte-dev      - the format oracle the tests compare against
#   pyfastpfor (PyPI)       - FastPFor's varintgb / varintg8iu, the VarInt-GB
#                             and G8IU format oracle, in a venv at
#                             target/oracle-venv (built from source: needs a
#                             C++ compiler and Python headers)
# Uses apt-get (Debian/Ubuntu) when something is missing; does nothing otherwise.
set -euo pipefail

need=()
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
