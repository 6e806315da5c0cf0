"""SIMD integer codecs for numpy arrays: Stream VByte, VByte (Masked VByte),
VarInt-GB, BP128, FOR and SIMD-FOR, from the Rust library ``intcodec``.

    >>> import numpy as np, intcodec
    >>> ids = np.array([3, 7, 19, 20, 1000], dtype=np.uint32)
    >>> c = intcodec.codec("streamvbyte")
    >>> b = c.encode(ids, delta=True)
    >>> c.decode(b, len(ids), delta=True).tolist()
    [3, 7, 19, 20, 1000]

``codec(name, **options)`` takes the CLI's codec names (``codecs()``) and
format options as keywords; the encoded bytes are the Rust library's and
the CLI's (``intcodec encode --raw``), with no header: keep the value count
(and the delta flag) yourself, or use the numcodecs codec
(``intcodec.numcodecs.IntCodec``), whose chunks record them.
"""

from typing import Any, Dict, List, Optional, Tuple

from intcodec._errors import DecodeError
from intcodec._intcodec import Codec, codecs, isa, isas

__all__ = ["Codec", "DecodeError", "codec", "codecs", "isa", "isas", "options"]
__version__ = "0.1.0"

# Registry name -> (family, format options). A name missing here (a codec
# added to the registry later) is still usable, without options.
_NAMED: Dict[str, Tuple[str, Dict[str, str]]] = {
    "streamvbyte": ("streamvbyte", {"variant": "1234"}),
    "streamvbyte-0124": ("streamvbyte", {"variant": "0124"}),
    "vbyte": ("vbyte", {}),
    "varint-gb": ("varint-gb", {"layout": "low-first"}),
    "varint-gb-lucene": ("varint-gb", {"layout": "lucene"}),
    "varint-g8iu": ("varint-g8iu", {}),
    "bp128": ("bp128", {"layout": "4x", "delta_mode": "d1"}),
    "bp128-8x": ("bp128", {"layout": "8x", "delta_mode": "d1"}),
    "bp128-d4": ("bp128", {"layout": "4x", "delta_mode": "lane"}),
    "bp128-8x-d8": ("bp128", {"layout": "8x", "delta_mode": "lane"}),
    "bp128-strict": ("bp128", {"layout": "4x", "delta_mode": "strict"}),
    "bp128-8x-strict": ("bp128", {"layout": "8x", "delta_mode": "strict"}),
    "bp128-16x": ("bp128", {"layout": "16x", "delta_mode": "d1"}),
    "bp128-16x-d16": ("bp128", {"layout": "16x", "delta_mode": "lane"}),
    "bp128-16x-strict": ("bp128", {"layout": "16x", "delta_mode": "strict"}),
    "for": ("for", {}),
    "simd-for": ("simd-for", {}),
}


def _resolve(name: str, opts: Dict[str, Any]) -> str:
    """The registry name of codec ``name`` with format options ``opts``."""
    if name not in _NAMED:
        if opts:
            raise TypeError(f"codec {name!r} takes no format options, got {sorted(opts)}")
        return name
    family, base = _NAMED[name]
    merged = dict(base)
    for key, value in opts.items():
        if key not in base:
            known = ", ".join(sorted(base)) or "none"
            raise TypeError(f"codec {name!r} has no option {key!r} (options: {known}; and isa=)")
        merged[key] = str(value).lower()
    for reg, (fam, o) in _NAMED.items():
        if fam == family and o == merged:
            return reg
    choices = {k: sorted({o[k] for f, o in _NAMED.values() if f == family}) for k in base}
    raise ValueError(f"codec {name!r}: no such option value in {opts}; choices: {choices}")


def codec(name: str, *, isa: Optional[str] = None, **options: Any) -> Codec:
    """The codec ``name`` (see ``codecs()``), with format options as keywords.

    Options: ``variant="1234"|"0124"`` (streamvbyte), ``layout="low-first"|
    "lucene"`` (varint-gb), ``layout="4x"|"8x"|"16x"`` and ``delta_mode="d1"|"lane"|"strict"``
    (bp128). ``isa="scalar"|"sse41"|"avx2"|...`` picks the kernel (the best
    one by default; the bytes are the same on every kernel).

    Raises ValueError for an unknown codec, option value or unusable isa,
    TypeError for an option the codec does not have.
    """
    return Codec(_resolve(name, options), isa)


def options(name: str) -> Dict[str, str]:
    """The format options of the registry codec ``name`` (``{}`` if none)."""
    return dict(_NAMED[name][1]) if name in _NAMED else {}
