"""A numcodecs codec (``codec_id = "intcodec"``) over every intcodec codec.

    >>> import numcodecs
    >>> c = numcodecs.get_codec({"id": "intcodec", "codec": "bp128", "delta": True})

Registered through the ``numcodecs.codecs`` entry point, so ``get_codec``
finds it once the package is installed. Config: ``codec`` (a name of
``intcodec.codecs()``), ``delta`` (code differences, for sorted ids),
``dtype`` (``"<u4"`` by default; ``"<i4"`` is zigzag-coded; ``"<u8"`` and
``"<i8"`` need ``codec="vbyte"``), and the codec's format options
(``layout``, ``variant``, ``delta_mode``).

Chunk format (all integers little-endian)::

    byte 0      format version, 1
    bytes 1..9  u64 value count n
    bytes 9..   the codec's stream of n values (``Codec.encode`` with
                ``delta`` and prev = 0), nothing after it

The codec name, delta flag and dtype are in the config, not the chunk.
"""

import struct
from typing import Any, Optional

import numpy as np
from numcodecs.abc import Codec as _NumCodec
from numcodecs.compat import ensure_contiguous_ndarray, ndarray_copy

import intcodec
from intcodec._errors import DecodeError

__all__ = ["IntCodec", "HEADER", "VERSION"]

VERSION = 1
HEADER = struct.Struct("<BQ")

_DTYPES = ("<u4", "<i4", "<u8", "<i8")


class IntCodec(_NumCodec):
    """numcodecs codec: intcodec's integer codecs with a 9-byte count header.

    Args:
        codec: an intcodec codec name (``intcodec.codecs()``).
        delta: code the differences of consecutive values (sorted ids).
        dtype: the array's integer type: ``"<u4"`` (default), ``"<i4"``
            (zigzag), ``"<u8"`` or ``"<i8"`` (``codec="vbyte"`` only).
        **options: the codec's format options (``layout=``, ``variant=``,
            ``delta_mode=``).
    """

    codec_id = "intcodec"

    def __init__(self, codec: str = "streamvbyte", delta: bool = False, dtype: str = "<u4", **options: Any) -> None:
        dt = np.dtype(dtype)
        if dt.str not in _DTYPES:
            raise ValueError(f"dtype must be one of {_DTYPES}, got {dtype!r}")
        self.codec = codec
        self.delta = bool(delta)
        self.dtype = dt.str
        self.options = dict(options)
        self._codec = intcodec.codec(codec, **options)
        if self.delta and not self._codec.supports_delta:
            raise ValueError(f"codec {codec!r} has no delta mode")
        if dt.itemsize == 8 and not self._codec.wide:
            raise ValueError(f"dtype {self.dtype} needs codec 'vbyte', not {codec!r}")

    def get_config(self) -> dict:
        return {"id": self.codec_id, "codec": self.codec, "delta": self.delta, "dtype": self.dtype, **self.options}

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"IntCodec(codec={self.codec!r}, delta={self.delta!r}, dtype={self.dtype!r}{opts})"

    def encode(self, buf: Any) -> bytes:
        arr = ensure_contiguous_ndarray(buf)
        want = np.dtype(self.dtype)
        if arr.dtype.itemsize == 1:  # raw bytes (bytes, bytearray, array('b'))
            arr = arr.view(want)
        elif arr.dtype.kind != want.kind or arr.dtype.itemsize != want.itemsize:
            raise TypeError(f"intcodec: expected {self.dtype} data, got {arr.dtype}")
        if not arr.dtype.isnative or arr.ctypes.data % arr.dtype.itemsize:
            arr = arr.astype(arr.dtype.newbyteorder("="))  # a copy: native and aligned
        stream = self._codec.encode(arr, delta=self.delta)
        out = bytearray(HEADER.size + stream.nbytes)
        HEADER.pack_into(out, 0, VERSION, arr.size)
        out[HEADER.size :] = memoryview(stream)
        return bytes(out)

    def decode(self, buf: Any, out: Optional[Any] = None) -> Any:
        data = ensure_contiguous_ndarray(buf).view("u1")
        if data.nbytes < HEADER.size:
            raise DecodeError(
                f"intcodec chunk of {data.nbytes} bytes: shorter than its {HEADER.size}-byte header",
                data.nbytes, None, "Truncated",
            )
        version, n = HEADER.unpack_from(data, 0)
        if version != VERSION:
            raise DecodeError(f"intcodec chunk format version {version}, expected {VERSION}", 0, None, "Malformed")
        stream = data[HEADER.size :]
        native = np.dtype(self.dtype).newbyteorder("=")
        try:
            if out is not None:
                target = ensure_contiguous_ndarray(out)
                if target.dtype == native and target.size == n:
                    self._codec.decode(stream, n, delta=self.delta, out=target, exact=True)
                    return out
            dec = self._codec.decode(stream, n, delta=self.delta, dtype=native, exact=True)
        except DecodeError as e:
            raise DecodeError(
                f"{e} (in the stream after the {HEADER.size}-byte chunk header)",
                e.offset + HEADER.size,
                e.index,
                e.kind,
            ) from None
        return ndarray_copy(dec, out) if out is not None else dec
