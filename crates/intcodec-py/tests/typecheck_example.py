"""Not a test: scripts/test-py.sh type-checks this file with mypy --strict
against the package's stubs (py.typed, _intcodec.pyi)."""

from typing import List, Optional, Tuple

import numpy as np
import numpy.typing as npt

import intcodec


def round_trip(ids: npt.NDArray[np.uint32]) -> Tuple[int, Optional[int], Optional[Tuple[int, int]]]:
    c: intcodec.Codec = intcodec.codec("streamvbyte", isa=intcodec.isa())
    names: List[str] = intcodec.codecs()
    b: npt.NDArray[np.uint8] = c.encode(ids, delta=True, prev=0)
    back = c.decode(b, len(ids), delta=True, out=np.empty(len(ids), np.uint32))
    try:
        c.decode(b[:1], 10)
    except intcodec.DecodeError as e:
        off: int = e.offset
        idx: Optional[int] = e.index
        del off, idx
    grown, at = c.insert(b, len(ids), 7, delta=True)
    more: npt.NDArray[np.uint8] = grown
    return len(names) + int(back.size) + at + more.size, c.select(b, len(ids), 0), c.lower_bound(b, len(ids), 5)
