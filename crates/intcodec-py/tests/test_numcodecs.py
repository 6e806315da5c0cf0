"""The numcodecs codec: registry lookup, numcodecs' own codec checks, the
chunk header, and a zarr v3 array written with it and read back."""

import pathlib
import warnings

import numpy as np
import pytest

numcodecs = pytest.importorskip("numcodecs")
import numcodecs.tests.common as _common  # noqa: E402
from numcodecs.tests.common import (  # noqa: E402
    check_backwards_compatibility,
    check_config,
    check_encode_decode,
    check_repr,
)

import intcodec  # noqa: E402
from intcodec import DecodeError  # noqa: E402
from intcodec.numcodecs import HEADER, IntCodec  # noqa: E402

HERE = pathlib.Path(__file__).parent
_common.IntCodec = IntCodec  # check_repr evaluates the repr in that module

ARRAYS = [
    np.arange(1000, dtype="<u4"),
    np.cumsum(np.random.default_rng(1).integers(0, 50, size=5000), dtype="<u4"),
    np.cumsum(np.random.default_rng(2).integers(0, 9, size=2000), dtype="<u4").reshape(100, 20),
    np.cumsum(np.random.default_rng(3).integers(0, 9, size=2000), dtype="<u4").reshape(100, 20, order="F"),
    np.zeros(0, dtype="<u4"),
]
UNSORTED = np.random.default_rng(4).integers(0, 2**32, size=3000, dtype=np.uint64).astype("<u4")


def test_entry_point_registration():
    c = numcodecs.get_codec({"id": "intcodec", "codec": "bp128", "delta": True})
    assert isinstance(c, IntCodec)
    assert c.get_config() == {"id": "intcodec", "codec": "bp128", "delta": True, "dtype": "<u4"}
    c = numcodecs.get_codec({"id": "intcodec", "codec": "bp128", "layout": "8x"})
    assert c._codec.name == "bp128-8x"


@pytest.mark.parametrize("name", intcodec.codecs())
def test_numcodecs_checks(name):
    delta = intcodec.codec(name).supports_delta
    codec = IntCodec(codec=name, delta=delta)
    for arr in ARRAYS:
        check_encode_decode(arr, codec)
    check_encode_decode(UNSORTED, IntCodec(codec=name))
    check_config(codec)
    check_repr(f"IntCodec(codec={name!r}, delta={delta!r}, dtype='<u4')")
    signed = IntCodec(codec=name, dtype="<i4", delta=delta)
    check_encode_decode(np.arange(-500, 500, dtype="<i4")[::-1].copy(), signed)
    check_config(signed)


def test_numcodecs_options_and_wide():
    c = IntCodec(codec="bp128", delta=True, layout="8x", delta_mode="lane")
    check_encode_decode(ARRAYS[1], c)
    check_config(c)
    check_repr("IntCodec(codec='bp128', delta=True, dtype='<u4', layout='8x', delta_mode='lane')")
    v = IntCodec(codec="vbyte", dtype="<u8", delta=True)
    check_encode_decode(np.cumsum(np.arange(3000, dtype="<u8") * 2**40, dtype="<u8"), v)
    check_encode_decode(np.arange(-3000, 3000, dtype="<i8") * 2**40, IntCodec(codec="vbyte", dtype="<i8"))
    with pytest.raises(ValueError, match="needs codec 'vbyte'"):
        IntCodec(codec="bp128", dtype="<u8")
    with pytest.raises(ValueError, match="has no delta mode"):
        IntCodec(codec="for", delta=True)
    with pytest.raises(ValueError, match="dtype must be one of"):
        IntCodec(dtype="<f4")
    with pytest.raises(TypeError, match="expected <u4 data, got float32"):
        IntCodec().encode(np.zeros(3, np.float32))


def test_backwards_compatibility(monkeypatch):
    # fixtures committed under tests/fixture/intcodec: chunks written by an
    # earlier build must still decode to the same arrays
    monkeypatch.chdir(HERE)
    codecs = [IntCodec(codec=n, delta=intcodec.codec(n).supports_delta) for n in ("streamvbyte", "vbyte", "varint-gb", "bp128", "simd-for")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_backwards_compatibility(IntCodec.codec_id, ARRAYS[:3], codecs)


def test_chunk_format_and_errors():
    c = IntCodec(codec="streamvbyte", delta=True)
    ids = np.array([3, 7, 19, 20, 1000], dtype="<u4")
    chunk = c.encode(ids)
    assert chunk[:HEADER.size] == b"\x01" + (5).to_bytes(8, "little")
    assert chunk[HEADER.size:] == bytes(intcodec.codec("streamvbyte").encode(ids, delta=True))
    with pytest.raises(DecodeError, match="shorter than its 9-byte header"):
        c.decode(chunk[:5])
    with pytest.raises(DecodeError, match="format version 2"):
        c.decode(b"\x02" + chunk[1:])
    with pytest.raises(DecodeError) as ei:
        c.decode(chunk[:-1])
    assert ei.value.offset >= HEADER.size and "after the 9-byte chunk header" in str(ei.value)
    with pytest.raises(DecodeError, match="TrailingBytes|bytes after the stream"):
        c.decode(chunk + b"\0")
    huge = b"\x01" + (2**60).to_bytes(8, "little") + chunk[HEADER.size:]
    with pytest.raises(DecodeError) as ei:
        c.decode(huge)
    assert ei.value.kind == "Truncated"


def test_zarr_v3_array(tmp_path):
    zarr = pytest.importorskip("zarr")
    import intcodec.zarr3

    ids = np.cumsum(np.random.default_rng(7).geometric(0.01, size=100_000), dtype=np.uint32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "numcodecs codecs are not in the zarr v3 spec"
        z = zarr.create_array(
            store=str(tmp_path / "ids.zarr"),
            shape=ids.shape,
            chunks=(4096,),
            dtype="uint32",
            serializer=intcodec.zarr3.IntCodec(codec="bp128", delta=True),
            compressors=None,
        )
        z[:] = ids
        # reopened from the store: zarr finds the codec by name (entry point)
        z2 = zarr.open_array(str(tmp_path / "ids.zarr"), mode="r")
        np.testing.assert_array_equal(z2[:], ids)
        np.testing.assert_array_equal(z2[5000:5010], ids[5000:5010])
    meta = (tmp_path / "ids.zarr" / "zarr.json").read_text()
    assert '"numcodecs.intcodec"' in meta and '"bp128"' in meta
    chunks = [p for p in (tmp_path / "ids.zarr").rglob("*") if p.is_file() and p.name != "zarr.json"]
    assert len(chunks) == 25
    raw = chunks[0].read_bytes()
    assert raw[0] == 1 and len(raw) < 4096 * 4 // 2  # compressed, self-describing
