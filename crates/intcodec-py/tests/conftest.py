"""Shared fixtures: the real data (../shared/data beside the repository, or
$INTCODEC_SHARED_DATA) and the Rust CLI binary ($INTCODEC_CLI, or built)."""

import os
import pathlib
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def shared_data_dir():
    env = os.environ.get("INTCODEC_SHARED_DATA")
    return pathlib.Path(env) if env else REPO.parent / "shared" / "data"


def read_ds2i(path, max_lists=None):
    """The posting lists of a ds2i `.docs` file (skipping the [1, universe] header)."""
    raw = np.fromfile(path, dtype="<u4")
    lists, i = [], 2
    while i < raw.size and (max_lists is None or len(lists) < max_lists):
        n = int(raw[i])
        lists.append(raw[i + 1 : i + 1 + n])
        i += 1 + n
    return lists


@pytest.fixture(scope="session")
def posting_lists():
    """Every list of every postings file (a sample of the large ones); skips LOUDLY if absent."""
    d = shared_data_dir() / "postings"
    files = sorted(d.glob("*.docs")) + sorted(d.glob("*.pos")) if d.is_dir() else []
    if not files:
        msg = f"SKIPPED: real data not found at {d} (set INTCODEC_SHARED_DATA)"
        warnings.warn(msg)
        print(msg, file=sys.stderr)
        pytest.skip(msg)
    out = {}
    for f in files:
        out[f.name] = read_ds2i(f)
    return out


@pytest.fixture(scope="session")
def cli():
    """Path to the `intcodec` CLI binary, built with cargo if needed."""
    env = os.environ.get("INTCODEC_CLI")
    if env:
        return env
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "intcodec"
        if p.exists():
            return str(p)
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("the intcodec CLI is needed: set INTCODEC_CLI or install cargo")
    subprocess.run([cargo, "build", "-q", "-p", "intcodec-cli"], cwd=REPO, check=True)
    return str(REPO / "target" / "debug" / "intcodec")
