"""Byte equality with the Rust CLI (`intcodec encode --raw`) for every codec,
on random data and on real posting lists, and the reverse direction."""

import subprocess

import numpy as np
import pytest

import intcodec


def cli_encode(cli, tmp_path, name, values, delta):
    src, dst = tmp_path / "in.u32", tmp_path / "out.bin"
    np.asarray(values, dtype="<u4").tofile(src)
    args = [cli, "encode", "--raw", "--codec", name] + (["--delta"] if delta else []) + [str(src), str(dst)]
    subprocess.run(args, check=True, capture_output=True)
    return dst.read_bytes()


def cli_decode(cli, tmp_path, name, stream, n, delta):
    src, dst = tmp_path / "s.bin", tmp_path / "back.u32"
    src.write_bytes(stream)
    args = [cli, "decode", "--raw", "--codec", name, "--count", str(n)] + (["--delta"] if delta else [])
    subprocess.run(args + [str(src), str(dst)], check=True, capture_output=True)
    return np.fromfile(dst, dtype="<u4")


def cli_names(cli):
    """The codec names the CLI knows (`intcodec info`)."""
    info = subprocess.run([cli, "info"], check=True, capture_output=True, text=True).stdout
    return {line.split()[0] for line in info.splitlines() if "container id" in line}


@pytest.mark.parametrize("name", intcodec.codecs())
def test_same_bytes_as_cli(cli, tmp_path, name, posting_lists_or_none):
    if name not in cli_names(cli):
        pytest.skip(f"the CLI has no codec {name!r} (its container has no id for it)")
    c = intcodec.codec(name)
    r = np.random.default_rng(5)
    samples = [r.integers(0, 2**32, size=n, dtype=np.uint64).astype(np.uint32) for n in (0, 1, 129, 4099)]
    sorted_samples = [np.cumsum(r.geometric(0.02, size=n), dtype=np.uint32) for n in (1, 300, 5000)]
    if posting_lists_or_none:
        for lists in posting_lists_or_none.values():
            longest = max(lists, key=len)
            sorted_samples += [longest, lists[len(lists) // 2]]
    for vals in samples:
        assert bytes(c.encode(vals)) == cli_encode(cli, tmp_path, name, vals, False)
    for vals in sorted_samples:
        delta = c.supports_delta
        ours = bytes(c.encode(vals, delta=delta))
        assert ours == cli_encode(cli, tmp_path, name, vals, delta), (name, len(vals))
        np.testing.assert_array_equal(cli_decode(cli, tmp_path, name, ours, len(vals), delta), vals)


@pytest.fixture
def posting_lists_or_none(request):
    try:
        return request.getfixturevalue("posting_lists")
    except pytest.skip.Exception:
        return None
