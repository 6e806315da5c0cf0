#!/usr/bin/env bash
# Speed through the C ABI: crates/intcodec-capi/cbench/cbench.c calls our C
# functions (drop-ins and the checked API, libintcodec.a) and the C
# references -- lemire/streamvbyte (crate streamvbyte-sys's copy) and
# MaskedVByte (crate fastpfor's cpp/src/varintdecode.c) -- compiled from the
# cargo registry at -O3 -march=native (their Makefiles' best flags), symbols
# renamed with -D so both link into one process, and the Rust call's own
# loop (the library built with the cargo feature bench-hooks), interleaved.
#
# Data: 4096-int chunks and 1-int lists of europarl.docs from the shared data
# ($INTCODEC_SHARED_DATA or ../shared/data), else synthetic (said loudly).
# usage: scripts/bench-capi.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=${CARGO_TARGET_DIR:-$root/target}/capi-bench
mkdir -p "$work"
cargo build --quiet --release -p intcodec-capi --features bench-hooks
lib=${CARGO_TARGET_DIR:-$root/target}/release/libintcodec_capi.a
inc=$root/crates/intcodec-capi/include

# The bench's peer-c manifest names the crates that vendor the C references
# (fetched when missing, never built); the workspace no longer depends on them.
meta=$(cargo metadata --locked --format-version 1 \
    --manifest-path crates/intcodec-bench/peer-c/Cargo.toml 2>/dev/null)
src_of() { python3 -c 'import json,sys,os
for p in json.load(sys.stdin)["packages"]:
    if p["name"] == sys.argv[1]: print(os.path.dirname(p["manifest_path"])); break' "$1" <<<"$meta"; }
svb=$(src_of streamvbyte-sys)/external/streamvbyte
mvb=$(src_of fastpfor)/cpp/src/varintdecode.c
[ -d "$svb" ] && [ -f "$mvb" ] || { echo "bench-capi: C reference sources not found" >&2; exit 1; }
renames=""
for f in streamvbyte_encode streamvbyte_encode_0124 streamvbyte_decode streamvbyte_decode_0124 \
         streamvbyte_delta_encode streamvbyte_delta_decode zigzag_encode zigzag_decode \
         zigzag_delta_encode zigzag_delta_decode; do
    renames+=" -D$f=ref_$f"
done
objs=()
for c in streamvbyte_decode streamvbyte_encode streamvbytedelta_decode streamvbytedelta_encode \
         streamvbyte_0124_encode streamvbyte_0124_decode streamvbyte_zigzag; do
    cc -std=c99 -O3 -march=native $renames -I"$svb/include" -c "$svb/src/$c.c" -o "$work/ref_$c.o"
    objs+=("$work/ref_$c.o")
done
cc -std=c99 -O3 -march=native -w -c "$mvb" -o "$work/ref_maskedvbyte.o"
objs+=("$work/ref_maskedvbyte.o")
cc -std=c11 -O3 -march=native -Wall -Wextra -I"$inc" \
    -o "$work/cbench" crates/intcodec-capi/cbench/cbench.c "${objs[@]}" "$lib" -lpthread -ldl -lm

data=${INTCODEC_SHARED_DATA:-$root/../shared/data}/postings/europarl.docs
if [ -f "$data" ]; then
    "$work/cbench" dump "$work/data.bin" "$data"
else
    echo "*** $data not found: SYNTHETIC data (set INTCODEC_SHARED_DATA) ***"
    "$work/cbench" dump "$work/data.bin"
fi
"$work/cbench" run "$work/data.bin"
