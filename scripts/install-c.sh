#!/usr/bin/env bash
# Installs intcodec's C library under PREFIX:
#   lib/libintcodec.so{,.0,.VERSION}, lib/libintcodec.a, lib/pkgconfig/intcodec.pc,
#   include/intcodec.h, include/intcodec/{streamvbyte*.h,varint*.h} (drop-ins).
# Then: cc app.c $(pkg-config --cflags --libs intcodec)   (with
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig when PREFIX is not a system prefix).
#
# usage: scripts/install-c.sh PREFIX
# env:   INTCODEC_CAPI_PROFILE=release|test (default release): cargo profile built;
#        INTCODEC_CAPI_NO_BUILD=1: install what target/ holds, build nothing.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=$1
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)
profile=${INTCODEC_CAPI_PROFILE:-release}
crate=$root/crates/intcodec-capi
version=$(sed -n 's/^#define INTCODEC_VERSION "\(.*\)"$/\1/p' "$crate/include/intcodec.h")

if [ -z "${INTCODEC_CAPI_NO_BUILD:-}" ]; then
    (cd "$root" && cargo build --quiet --profile "$profile" -p intcodec-capi)
fi
case $profile in release) dir=release ;; test|dev) dir=debug ;; *) dir=$profile ;; esac
target=${CARGO_TARGET_DIR:-$root/target}/$dir

install -d "$prefix/lib/pkgconfig" "$prefix/include/intcodec"
install -m 755 "$target/libintcodec_capi.so" "$prefix/lib/libintcodec.so.$version"
ln -sf "libintcodec.so.$version" "$prefix/lib/libintcodec.so.0"
ln -sf "libintcodec.so.0" "$prefix/lib/libintcodec.so"
install -m 644 "$target/libintcodec_capi.a" "$prefix/lib/libintcodec.a"
install -m 644 "$crate/include/intcodec.h" "$prefix/include/intcodec.h"
for h in streamvbyte.h streamvbytedelta.h streamvbyte_zigzag.h varintencode.h varintdecode.h; do
    install -m 644 "$crate/include/$h" "$prefix/include/intcodec/$h"
done
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$crate/intcodec.pc.in" \
    > "$prefix/lib/pkgconfig/intcodec.pc"
