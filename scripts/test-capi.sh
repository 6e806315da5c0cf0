#!/usr/bin/env bash
# Tests of the C library (crates/intcodec-capi): builds it (release), installs
# it into a temporary prefix with scripts/install-c.sh, then
#   1. lemire/streamvbyte's own tests/unit.c, compiled UNCHANGED from the
#      cargo registry's copy (crate streamvbyte-sys) against our headers and
#      library, normally and under AddressSanitizer;
#   2. our C tests (ctest/: the checked API, the MaskedVByte and streamvbyte
#      drop-ins) with -Wall -Wextra -Werror, normally, under `ulimit -v`,
#      and under AddressSanitizer + UBSan;
#   3. `cc app.c $(pkg-config --cflags --libs intcodec)` from the prefix.
# Idempotent; installs gcc and pkg-config with apt-get when missing.
#
# INTCODEC_CAPI_PROFILE=test (what scripts/test.sh sets): the library is
# linked from the workspace's all-features test build instead (optimised,
# with debug assertions and overflow checks), which reuses the compiled
# `intcodec` of `cargo test --workspace --all-features` rather than
# compiling it once more in release.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
need=()
command -v cc >/dev/null || need+=(gcc libc6-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null
fi

work=${CARGO_TARGET_DIR:-$root/target}/capi-test
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
if [ "${INTCODEC_CAPI_PROFILE:-release}" = test ]; then
    cargo build --quiet --profile test --workspace --all-features --lib
    INTCODEC_CAPI_NO_BUILD=1 scripts/install-c.sh "$prefix"
else
    scripts/install-c.sh "$prefix"
fi
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export LD_LIBRARY_PATH=$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
static="$prefix/lib/libintcodec.a -lpthread -ldl -lm"
asan="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
fail=0
run() { # name, command...
    local name=$1; shift
    if "$@" >"$work/$name.log" 2>&1; then
        echo "ok   $name: $(tail -n 1 "$work/$name.log")"
    else
        echo "FAIL $name (exit $?):"; tail -n 30 "$work/$name.log"; fail=1
    fi
}

# 1. lemire/streamvbyte's unit.c, from the registry copy (cargo metadata
#    unpacks the crate; nothing is copied into the repository).
# The bench's peer-c manifest names it (fetched when missing, never built).
svb_manifest=$(cargo metadata --locked --format-version 1 \
        --manifest-path crates/intcodec-bench/peer-c/Cargo.toml 2>/dev/null |
    python3 -c 'import json,sys
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == "streamvbyte-sys": print(p["manifest_path"]); break')
unit=$(dirname "$svb_manifest")/external/streamvbyte/tests/unit.c
[ -f "$unit" ] || { echo "FAIL: $unit not found"; exit 1; }
cc -O2 -o "$work/unit" "$unit" $(pkg-config --cflags --libs intcodec)
run streamvbyte-unit.c "$work/unit"
cc $asan -o "$work/unit-asan" "$unit" $(pkg-config --cflags intcodec) $static
# unit.c leaks two of its own buffers (zigzagtests): leak checking off for it.
run streamvbyte-unit.c-asan env ASAN_OPTIONS=detect_leaks=0 "$work/unit-asan"

# 2. Our C tests.
strict="-std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror"
for t in test_api test_dropin; do
    src=crates/intcodec-capi/ctest/$t.c
    cc $strict -O2 -o "$work/$t" "$src" $(pkg-config --cflags --libs intcodec)
    run "$t" "$work/$t"
    run "$t-ulimit" bash -c "ulimit -v 2000000 && exec '$work/$t'"
    cc $strict $asan -o "$work/$t-asan" "$src" $(pkg-config --cflags intcodec) $static
    run "$t-asan" "$work/$t-asan"
done

# The drop-ins' length scans (scan.rs) follow the codec's ISA: run them at
# the lower levels too (INTCODEC_ISA caps it).
if [ "$(uname -m)" = x86_64 ]; then
    for isa in scalar sse41; do
        run "test_dropin-$isa" env INTCODEC_ISA=$isa "$work/test_dropin"
    done
fi

# 3. The README's example through pkg-config, shared and static.
cat >"$work/app.c" <<'C'
#include <intcodec.h>
#include <stdio.h>
int main(void) {
  uint32_t ids[] = {3, 7, 19, 20, 1000}, out[5];
  uint8_t buf[64];
  size_t len, used;
  intcodec_codec *c = intcodec_codec_new("streamvbyte");
  intcodec_encode_delta(c, ids, 5, 0, buf, sizeof buf, &len);
  intcodec_status st = intcodec_decode_delta(c, buf, len, 5, 0, out, 5, &used);
  printf("%s %s %zu bytes, out[4]=%u\n", intcodec_version(), intcodec_status_message(st.code),
         len, out[4]);
  intcodec_codec_free(c);
  return st.code != INTCODEC_OK || out[4] != 1000;
}
C
cc -o "$work/app" "$work/app.c" $(pkg-config --cflags --libs intcodec)
run pkg-config-app "$work/app"
cc -o "$work/app-static" "$work/app.c" $(pkg-config --cflags intcodec) $static
run pkg-config-app-static "$work/app-static"

if [ $fail -ne 0 ]; then
    echo "test-capi: FAILED"
    exit 1
fi
echo "test-capi: all passed"
