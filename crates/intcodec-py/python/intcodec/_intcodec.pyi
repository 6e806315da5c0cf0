"""Type stubs of the extension module (the Rust adapter over the registry)."""

from typing import List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Buffer = Union[bytes, bytearray, memoryview, npt.NDArray[np.generic]]
_Ints = npt.NDArray[Union[np.uint32, np.int32, np.uint64, np.int64]]

GIL_RELEASE_VALUES: int

class Codec:
    """A registry codec on one kernel; made by ``intcodec.codec(name, **options)``."""

    def __init__(self, name: str, isa: Optional[str] = None) -> None: ...
    @property
    def name(self) -> str:
        """The registry (CLI) name, e.g. ``"bp128-8x"``."""
    @property
    def isa(self) -> str:
        """The instruction set of the kernel this codec runs."""
    @property
    def kernel_isas(self) -> List[str]:
        """Every instruction set this codec has a kernel for here, scalar first."""
    @property
    def supports_delta(self) -> bool:
        """Whether ``delta=True`` is accepted (False for FOR and SIMD-FOR)."""
    @property
    def sorted_ops(self) -> bool:
        """Whether ``select``, ``lower_bound`` and ``insert`` exist."""
    @property
    def wide(self) -> bool:
        """Whether uint64 / int64 arrays are accepted (VByte only)."""
    def max_compressed_len(self, n: int) -> int:
        """The largest encoded size of ``n`` 32-bit values, in bytes."""
    def max_values(self, nbytes: int) -> int:
        """The most values an input of ``nbytes`` bytes can hold."""
    def encode(self, arr: _Buffer, delta: bool = False, prev: int = 0) -> npt.NDArray[np.uint8]:
        """Encodes a C-contiguous uint32 array (int32: zigzag; uint64/int64:
        VByte only) or buffer; ``delta=True`` codes differences from ``prev``
        (signed arrays: zigzag of the differences). Returns the bytes.

        Raises TypeError (dtype), ValueError (not contiguous, no delta mode)."""
    def decode(
        self,
        buf: _Buffer,
        n: int,
        delta: bool = False,
        prev: int = 0,
        out: Optional[_Ints] = None,
        dtype: Optional[npt.DTypeLike] = None,
        *,
        exact: bool = False,
    ) -> _Ints:
        """Decodes ``n`` values from the start of ``buf`` into a new array of
        ``dtype`` (uint32 by default) or into ``out[:n]`` (returned).
        ``exact=True``: the stream must end where ``buf`` ends. Calls on
        ``GIL_RELEASE_VALUES`` values or more run without the GIL: do not
        write to ``buf`` or share ``out`` with another thread's call
        meanwhile. Passing ``out`` saves the allocation of a new array.

        Raises DecodeError (malformed input; a count the input cannot hold,
        before allocating), TypeError (dtype), ValueError (read-only,
        non-contiguous, too short or overlapping ``out``)."""
    def decode_many(
        self,
        buf: _Buffer,
        counts: Union[Sequence[int], npt.NDArray[np.integer]],
        delta: bool = False,
        prev: int = 0,
        out: Optional[_Ints] = None,
    ) -> _Ints:
        """Decodes the streams stored one after another in ``buf``, of
        ``counts[i]`` values each (a list cut into chunks), into one new
        uint32 array of ``sum(counts)`` values or into ``out`` (returned).
        With ``delta``, each chunk's deltas continue from the previous
        chunk's last value (the first chunk's from ``prev``). One call for
        all the chunks: the interpreter's and the binding's cost (about
        150 ns a call) is paid once, not per chunk. ``counts`` is a list of
        ints or an integer numpy array (both read fast), or any sequence
        of ints.

        Raises DecodeError (malformed input, its ``offset`` in ``buf`` and
        ``index`` in the output; a total the input cannot hold, before
        allocating), TypeError (``out`` not uint32), ValueError (read-only,
        too short or overlapping ``out``), OverflowError (a negative
        count)."""
    def select(
        self, buf: _Buffer, n: int, i: int, delta: Optional[bool] = None, prev: int = 0
    ) -> Optional[int]:
        """The value at index ``i`` of a sorted stream of ``n`` values (None
        if ``i >= n``). Delta-coded streams, or plain ones for FOR codecs."""
    def lower_bound(
        self, buf: _Buffer, n: int, key: int, delta: Optional[bool] = None, prev: int = 0
    ) -> Optional[Tuple[int, int]]:
        """``(index, value)`` of the first value ``>= key``, None if none."""
    def insert(
        self, buf: _Buffer, n: int, value: int, delta: Optional[bool] = None, prev: int = 0
    ) -> Tuple[npt.NDArray[np.uint8], int]:
        """Inserts ``value`` into the sorted stream of ``n`` values at the
        start of ``buf`` (the same streams as ``select``). Returns a new
        array with the stream of ``n + 1`` values (any bytes after the old
        stream follow it) and the index ``value`` went to: after any equal
        values, ``numpy.searchsorted(ids, value, side="right")``. ``buf`` is
        not modified. The bytes are those ``encode`` gives for the new
        array. No ``out=``: one value can grow the stream by more than its
        own bytes (a BP128 block's or a FOR array's bit width).

        Raises DecodeError (malformed stream), ValueError (no sorted
        operations, wrong ``delta``), OverflowError (``value`` outside
        uint32)."""
    def _time_chunks(
        self,
        op: str,
        bufs: List[_Buffer],
        n: int,
        delta: bool,
        alloc: bool,
        reps: int = 1,
        rounds: int = 5,
        chunks: int = 1,
        out: Optional[_Buffer] = None,
    ) -> float: ...

def codecs() -> List[str]:
    """The names of every codec of this build."""

def isa() -> str:
    """The best instruction set codecs may use here (CPU and INTCODEC_ISA cap)."""

def isas() -> List[str]:
    """Every instruction set codecs may use here, lowest first."""

def _numpy_c_api() -> bool:
    """Whether numpy's C API is in use (small calls on numpy arrays)."""
