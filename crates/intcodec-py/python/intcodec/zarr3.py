"""The intcodec numcodecs codec as a zarr v3 array-to-bytes codec (the
``numcodecs.intcodec`` codec of zarr-python's numcodecs adapter).

    >>> import zarr, intcodec.zarr3
    >>> z = zarr.create_array(store, shape=(n,), chunks=(4096,), dtype="uint32",
    ...     serializer=intcodec.zarr3.IntCodec(codec="bp128", delta=True))

Registered with zarr under ``numcodecs.intcodec`` (entry point
``zarr.codecs``), so arrays written with it open without this import.
Needs zarr >= 3.1.3.
"""

from zarr.codecs.numcodecs._codecs import _NumcodecsArrayBytesCodec

__all__ = ["IntCodec"]


class IntCodec(_NumcodecsArrayBytesCodec, codec_name="intcodec"):  # type: ignore[misc]
    """zarr v3 serializer: ``intcodec.numcodecs.IntCodec`` (same config)."""
