#!/usr/bin/env bash
# Installs what building and testing intcodec needs beyond a Rust toolchain:
#   cmake and a C compiler  - the benchmark's C peer (lemire/streamvbyte, built
#                             from the `streamvbyte` crate's vendored sources)
#   libstreamvbyte-dev      - the format oracle the tests compare against
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
