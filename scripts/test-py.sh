#!/usr/bin/env bash
# The Python package's tests (crates/intcodec-py): a venv under
# target/py-venv with maturin, numpy, numcodecs, zarr, pytest, mypy and the
# benchmark peers (pyfastpfor, libstreamvbyte), the package built and
# installed from source, its stubs type-checked, pytest run, and the
# benchmark smoke-run. Idempotent and quiet when everything is there.
# Exit code non-zero on any failure (pytest's 5, "no tests ran", included).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=$root/target/py-venv
py=$venv/bin/python
export PATH="$venv/bin:$PATH"  # maturin's build backend runs the maturin binary

if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    echo "intcodec: installing python3-venv" >&2
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-dev >/dev/null
fi
if [ ! -x "$py" ]; then
    python3 -m venv "$venv"
fi
need=(maturin numpy numcodecs zarr pytest mypy pyfastpfor libstreamvbyte)
if ! "$py" -c "import maturin, numpy, numcodecs, zarr, pytest, mypy" >/dev/null 2>&1; then
    echo "intcodec: installing the Python test dependencies into $venv" >&2
    "$py" -m pip install -q --upgrade pip
    # the peers are optional (the benchmark leaves a missing one out)
    "$py" -m pip install -q "${need[@]:0:6}"
    "$py" -m pip install -q pyfastpfor || echo "intcodec: pyfastpfor not installable; the benchmark leaves it out" >&2
    "$py" -m pip install -q libstreamvbyte || echo "intcodec: libstreamvbyte not installable; the benchmark leaves it out" >&2
fi

# Build and install the package. Without build isolation: maturin is in
# the venv, nothing is downloaded. The crate is a member of the main
# workspace, so the build goes to its target/; the tests build it with the
# settings of the workspace's [profile.test] (optimised, debug assertions
# on), so that the BP128 kernel bodies, most of its compile time, are the
# ones `cargo test` compiled (test.sh runs that first). maturin cannot name
# the test profile (`cargo rustc --profile test` builds a test harness), so
# it builds the dev profile set to the same values here: cargo then finds
# the same artifacts in target/debug (the profile's name is not part of
# their hash). The values are read from Cargo.toml, so the two cannot
# drift apart (without tomllib, Python < 3.11, the build is only slower). A
# user's `pip install` builds the release profile; INTCODEC_PY_RELEASE=1
# builds with it here too (to measure the binding's speed).
if [ "${INTCODEC_PY_RELEASE:-0}" != 1 ]; then
    export MATURIN_PEP517_ARGS="--profile dev"
    # One `CARGO_PROFILE_DEV_<KEY>=<value>` line per key of [profile.test].
    while IFS= read -r kv; do
        export "${kv?}"
    done < <("$py" - <<'PY' || true
try:
    import tomllib
except ImportError:
    raise SystemExit(0)
with open("Cargo.toml", "rb") as f:
    test = tomllib.load(f)["profile"]["test"]
for key, value in test.items():
    if isinstance(value, bool):
        value = str(value).lower()
    print("CARGO_PROFILE_DEV_%s=%s" % (key.upper().replace("-", "_"), value))
PY
)
fi
"$py" -m pip install -q --no-build-isolation --no-deps --force-reinstall ./crates/intcodec-py

# The stubs import and type-check against a small use of the API.
"$py" -c "import intcodec, intcodec.numcodecs, intcodec.zarr3, intcodec.bench; print('intcodec', intcodec.__version__, 'isa', intcodec.isa())"
"$py" -m mypy --no-error-summary --strict crates/intcodec-py/tests/typecheck_example.py

# The CLI for the byte-equality tests: the one given in INTCODEC_CLI (test.sh
# passes the binary its test build made), else a debug build.
if [ -z "${INTCODEC_CLI:-}" ] || [ ! -x "$INTCODEC_CLI" ]; then
    cargo build -q -p intcodec-cli
    export INTCODEC_CLI=$root/target/debug/intcodec
fi

set +e
(cd crates/intcodec-py && "$py" -m pytest -q -p no:cacheprovider tests)
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    echo "intcodec: pytest collected no tests" >&2
    exit 1
fi
[ "$rc" -eq 0 ] || exit "$rc"

# Benchmark smoke run (numbers not asserted).
"$py" -m intcodec.bench --quick >/dev/null
