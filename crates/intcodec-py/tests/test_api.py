"""The Python API on every registry codec and kernel: round trips, options,
dtypes, out=, select / lower_bound / insert, and every error path."""

import array
import ctypes
import platform
import sys
import threading

import numpy as np
import pytest

import intcodec
from intcodec import DecodeError

NAMES = intcodec.codecs()
LENGTHS = [0, 1, 2, 3, 4, 7, 8, 127, 128, 129, 255, 256, 257, 1000, 4095, 4096, 4097]


def rng(seed=1):
    return np.random.default_rng(seed)


def kernels(name):
    base = intcodec.codec(name)
    return [intcodec.codec(name, isa=i) for i in base.kernel_isas]


def random_u32(n, seed=1):
    r = rng(seed)
    widths = r.integers(0, 33, size=n)
    vals = r.integers(0, 2**32, size=n, dtype=np.uint64)
    return (vals >> (32 - widths).astype(np.uint64) % 64).astype(np.uint32) * (widths > 0)


def sorted_u32(n, seed=2):
    gaps = rng(seed).geometric(0.05, size=n).astype(np.uint32)
    return np.cumsum(gaps, dtype=np.uint32)


def test_registry_and_isa():
    assert NAMES == list(dict.fromkeys(NAMES)) and "streamvbyte" in NAMES and "bp128" in NAMES
    assert intcodec.isa() == intcodec.isas()[-1]
    for name in NAMES:
        c = intcodec.codec(name)
        assert c.name == name
        assert c.isa == c.kernel_isas[-1]
        assert c.isa in intcodec.isas()
        assert repr(c) == f"intcodec.codec('{name}', isa='{c.isa}')"


def test_options_map_to_registry_names():
    assert intcodec.codec("streamvbyte", variant="0124").name == "streamvbyte-0124"
    assert intcodec.codec("streamvbyte-0124", variant=1234).name == "streamvbyte"
    assert intcodec.codec("varint-gb", layout="lucene").name == "varint-gb-lucene"
    assert intcodec.codec("bp128", layout="8x").name == "bp128-8x"
    assert intcodec.codec("bp128", delta_mode="lane").name == "bp128-d4"
    assert intcodec.codec("bp128", layout="8x", delta_mode="lane").name == "bp128-8x-d8"
    assert intcodec.codec("bp128", layout="16x").name == "bp128-16x"
    assert intcodec.codec("bp128-16x", delta_mode="lane").name == "bp128-16x-d16"
    assert intcodec.codec("bp128", layout="8x", delta_mode="strict").name == "bp128-8x-strict"
    assert intcodec.options("bp128-16x-strict") == {"layout": "16x", "delta_mode": "strict"}
    assert intcodec.codec("bp128", isa="scalar").isa == "scalar"
    assert intcodec.options("bp128-8x") == {"layout": "8x", "delta_mode": "d1"}
    with pytest.raises(TypeError, match="no option 'layout'"):
        intcodec.codec("streamvbyte", layout="8x")
    with pytest.raises(ValueError, match="choices"):
        intcodec.codec("bp128", layout="32x")
    with pytest.raises(ValueError, match="unknown codec 'nope'; known: streamvbyte"):
        intcodec.codec("nope")
    with pytest.raises(ValueError, match="unknown isa 'mmx'"):
        intcodec.codec("streamvbyte", isa="mmx")
    with pytest.raises(ValueError, match="no neon kernel usable here"):
        intcodec.codec("streamvbyte", isa="neon")


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_every_kernel(name):
    ref = intcodec.codec(name, isa="scalar")
    for c in kernels(name):
        for n in LENGTHS:
            for vals in (random_u32(n, n), np.full(n, 2**32 - 1, np.uint32), np.zeros(n, np.uint32)):
                b = c.encode(vals)
                assert b.dtype == np.uint8 and b.ndim == 1
                assert bytes(b) == bytes(ref.encode(vals)), (c.isa, n)
                assert len(b) <= c.max_compressed_len(n)
                np.testing.assert_array_equal(c.decode(b, n), vals)
                np.testing.assert_array_equal(c.decode(b, n, exact=True), vals)
            if c.supports_delta:
                ids = sorted_u32(n, n)
                for prev in (0, 7):
                    ids2 = ids + np.uint32(prev)
                    b = c.encode(ids2, delta=True, prev=prev)
                    assert bytes(b) == bytes(ref.encode(ids2, delta=True, prev=prev))
                    np.testing.assert_array_equal(c.decode(b, n, delta=True, prev=prev), ids2)
            else:
                with pytest.raises(ValueError, match="has no delta mode"):
                    c.encode(random_u32(n), delta=True)
                with pytest.raises(ValueError, match="has no delta mode"):
                    c.decode(b"", 0, delta=True)


@pytest.mark.parametrize("name", NAMES)
def test_signed_zigzag(name):
    c = intcodec.codec(name)
    vals = rng(3).integers(-(2**31), 2**31, size=1000).astype(np.int32)
    vals[:10] = [0, -1, 1, -2, 2, 2**31 - 1, -(2**31), 5, -5, 0]
    b = c.encode(vals)
    zz = ((vals.astype(np.int64) << 1) ^ (vals.astype(np.int64) >> 31)).astype(np.uint32)
    assert bytes(b) == bytes(c.encode(zz))
    back = c.decode(b, len(vals), dtype=np.int32)
    assert back.dtype == np.int32
    np.testing.assert_array_equal(back, vals)
    if not c.supports_delta:
        return
    # delta on signed arrays: zigzag of the wrapping differences, coded plainly
    b = c.encode(vals, delta=True, prev=-3)
    np.testing.assert_array_equal(c.decode(b, len(vals), delta=True, prev=-3, dtype="int32"), vals)


def test_wide_vbyte():
    c = intcodec.codec("vbyte")
    assert c.wide
    u = rng(4).integers(0, 2**64, size=777, dtype=np.uint64) >> rng(5).integers(0, 64, 777).astype(np.uint64)
    u[:3] = [0, 2**64 - 1, 127]
    b = c.encode(u)
    np.testing.assert_array_equal(c.decode(b, len(u), dtype=np.uint64), u)
    # LEB128: 2**64-1 takes ten bytes
    assert bytes(c.encode(np.array([2**64 - 1], np.uint64))) == b"\xff" * 9 + b"\x01"
    s = np.sort(u)
    np.testing.assert_array_equal(c.decode(c.encode(s, delta=True), len(s), delta=True, dtype="u8"), s)
    i = rng(6).integers(-(2**63), 2**63 - 1, size=500, dtype=np.int64)
    for delta in (False, True):
        b = c.encode(i, delta=delta)
        np.testing.assert_array_equal(c.decode(b, len(i), delta=delta, dtype=np.int64), i)
    assert bytes(c.encode(np.array([-1, 1], np.int64))) == b"\x01\x02"
    for name in NAMES:
        if name != "vbyte":
            with pytest.raises(TypeError, match="need codec 'vbyte'"):
                intcodec.codec(name).encode(u)
            with pytest.raises(TypeError, match="need codec 'vbyte'"):
                intcodec.codec(name).decode(b"\0" * 64, 1, dtype=np.uint64)


def test_buffer_inputs_without_numpy():
    c = intcodec.codec("streamvbyte")
    vals = [1, 300, 70000, 2**32 - 1]
    b = c.encode(array.array("I", vals))
    assert b.tolist() == c.encode(np.array(vals, np.uint32)).tolist()
    for buf in (bytes(b), bytearray(b), memoryview(bytes(b)), array.array("B", bytes(b))):
        assert c.decode(buf, 4).tolist() == vals
    # a view of a bigger buffer decodes from its own start
    big = np.concatenate([np.zeros(3, np.uint8), b])
    assert c.decode(big[3:], 4).tolist() == vals


@pytest.mark.parametrize("name", NAMES)
def test_sorted_ops(name):
    for c in kernels(name):
        if not c.sorted_ops:
            for op in (c.select, c.lower_bound, c.insert):
                with pytest.raises(ValueError, match="no select / lower_bound / insert"):
                    op(b"", 0, 5)
            continue
        check_select_lower_bound(c)
        check_insert(c)


def sorted_streams(c, ns, seed):
    """(n, ids, stream) for sorted arrays of each length in `ns`, coded as
    select / lower_bound / insert read them (delta unless a FOR codec)."""
    for n in ns:
        ids = sorted_u32(n, seed + n)
        yield n, ids, c.encode(ids, delta=c.supports_delta)


def check_select_lower_bound(c):
    for n, ids, b in sorted_streams(c, (0, 1, 5, 128, 129, 1000), 10):
        for i in [i for i in list(range(0, n, max(1, n // 17))) + [n - 1, n, n + 5] if i >= 0]:
            got = c.select(b, n, i)
            assert got == (int(ids[i]) if 0 <= i < n else None), (n, i)
        for key in [0, 1] + [int(x) for x in ids[:: max(1, n // 13)]] + [int(ids[-1]) + 1 if n else 5]:
            j = int(np.searchsorted(ids, key, side="left"))
            want = (j, int(ids[j])) if j < n else None
            assert c.lower_bound(b, n, key) == want, (n, key)
    wrong = not c.supports_delta
    with pytest.raises(ValueError, match="select / lower_bound / insert read"):
        c.select(b, 1, 0, delta=wrong)
    with pytest.raises(DecodeError):
        c.select(b[:0], 100, 50)


def check_insert(c):
    delta = c.supports_delta
    for n, ids, b in sorted_streams(c, (0, 1, 5, 127, 128, 129, 1000), 30):
        before = bytes(b)
        keys = [0, 2**32 - 1] + [int(x) for x in ids[:: max(1, n // 7)]] + [int(x) + 1 for x in ids[:: max(1, n // 5)]]
        for key in keys:
            got, i = c.insert(b, n, key)
            assert isinstance(got, np.ndarray) and got.dtype == np.uint8
            # after any equal values, as numpy's searchsorted(side="right")
            assert i == int(np.searchsorted(ids, key, side="right")), (n, key)
            want = np.insert(ids, i, np.uint32(key))
            np.testing.assert_array_equal(c.decode(got, n + 1, delta=delta), want)
            # the same stream as encoding the new array, and buf untouched
            assert bytes(got) == bytes(c.encode(want, delta=delta)), (n, key)
        assert bytes(b) == before
    # bytes after the stream stay after it; other buffer types are read too
    ids = sorted_u32(300, 7)
    b = bytes(c.encode(ids, delta=delta))
    got, i = c.insert(bytearray(b + b"tail"), 300, int(ids[100]))
    assert bytes(got).endswith(b"tail") and i == 101
    # a stream starting from prev (delta codecs)
    if delta:
        b = c.encode(ids, delta=True, prev=int(ids[0]))
        got, i = c.insert(b, 300, int(ids[0]) + 1, prev=int(ids[0]))
        want = np.insert(ids, i, ids[0] + 1)
        np.testing.assert_array_equal(c.decode(got, 301, delta=True, prev=int(ids[0])), want)
    # error paths: a truncated stream, the wrong delta flag, a value past uint32
    b = bytes(c.encode(ids, delta=delta))
    with pytest.raises(DecodeError) as ei:
        c.insert(b[: len(b) // 2], 300, 5)
    assert ei.value.offset <= len(b) // 2
    with pytest.raises(DecodeError):
        c.insert(b"", 10, 5)
    with pytest.raises(ValueError, match="select / lower_bound / insert read"):
        c.insert(b, 300, 5, delta=not delta)
    with pytest.raises(OverflowError):
        c.insert(b, 300, 2**32)
    with pytest.raises(OverflowError):
        c.insert(b, 300, -1)
    with pytest.raises(TypeError):
        c.insert([1, 2], 2, 5)


def test_out_parameter():
    c = intcodec.codec("streamvbyte")
    vals = random_u32(1000)
    b = c.encode(vals)
    out = np.zeros(1200, np.uint32)
    assert c.decode(b, 1000, out=out) is out
    np.testing.assert_array_equal(out[:1000], vals)
    assert not out[1000:].any()
    ro = np.zeros(1000, np.uint32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out must be a writable, C-contiguous array"):
        c.decode(b, 1000, out=ro)
    with pytest.raises(ValueError, match="out must be a writable, C-contiguous array"):
        c.decode(b, 1000, out=np.zeros(2000, np.uint32)[::2])
    with pytest.raises(TypeError, match="out must hold uint32"):
        c.decode(b, 1000, out=np.zeros(1000, np.float32))
    with pytest.raises(ValueError, match="out holds 999 values, fewer than n = 1000"):
        c.decode(b, 1000, out=np.zeros(999, np.uint32))
    with pytest.raises(TypeError, match="dtype=int32 but out holds uint32"):
        c.decode(b, 1000, out=np.zeros(1000, np.uint32), dtype=np.int32)
    with pytest.raises(TypeError, match="out must be a numpy array or another object with the buffer protocol, not list"):
        c.decode(b, 1000, out=[0] * 1000)
    shared = np.zeros(4096, np.uint32)
    shared_bytes = shared.view(np.uint8)
    shared_bytes[: len(b)] = b
    with pytest.raises(ValueError, match="out overlaps buf"):
        c.decode(shared_bytes[: len(b)], 1000, out=shared)


def test_input_type_errors():
    c = intcodec.codec("bp128")
    with pytest.raises(TypeError, match=r"arr must hold uint32 .* got buffer format 'f'"):
        c.encode(np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="arr must hold uint32"):
        c.encode(np.zeros(4, np.uint16))
    with pytest.raises(TypeError, match="got uint8"):
        c.encode(b"abcd")
    with pytest.raises(TypeError, match="not list"):
        c.encode([1, 2, 3])
    with pytest.raises(ValueError, match="arr must be a C-contiguous array or buffer"):
        c.encode(np.arange(10, dtype=np.uint32)[::2])
    with pytest.raises(TypeError, match="arr must hold uint32"):
        c.encode(np.arange(10, dtype=">u4"))
    with pytest.raises(ValueError, match="not aligned"):
        c.encode(np.frombuffer(b"\0" * 17, dtype=np.uint32, count=4, offset=1))
    with pytest.raises(ValueError, match="buf must be a C-contiguous"):
        c.decode(np.zeros(64, np.uint8)[::2], 1)
    with pytest.raises(TypeError, match="buf must be a numpy array or another object"):
        c.decode("text", 1)
    with pytest.raises(TypeError, match="dtype must be uint32 or int32"):
        c.decode(b"", 0, dtype=np.float64)
    with pytest.raises(ValueError, match=r"prev must be an integer that fits the array's dtype \(uint32\), got -1"):
        c.encode(np.zeros(3, np.uint32), delta=True, prev=-1)
    with pytest.raises(ValueError, match="prev must be an integer"):
        c.decode(b"", 0, delta=True, prev=2**32)
    with pytest.raises(OverflowError):
        c.decode(b"", -1)


@pytest.mark.parametrize("name", NAMES)
def test_decode_errors(name):
    c = intcodec.codec(name)
    vals = random_u32(300, 9)
    b = bytes(c.encode(vals))
    assert issubclass(DecodeError, ValueError)
    # every truncation point: an error naming a byte offset inside the input
    for cut in range(len(b)):
        try:
            c.decode(b[:cut], 300)
        except DecodeError as e:
            assert 0 <= e.offset <= cut, (cut, e.offset)
            assert e.index is None or 0 <= e.index <= 300
            assert "offset" in str(e) and e.kind
        else:
            raise AssertionError(f"{name}: truncated to {cut} of {len(b)} bytes decoded")
    # a count the input cannot hold: refused before allocating (2**60 values would be 4 EiB)
    with pytest.raises(DecodeError) as ei:
        c.decode(b, 2**60)
    assert ei.value.offset == len(b) and ei.value.index == c.max_values(len(b))
    assert ei.value.kind == "Truncated"
    # trailing bytes with exact=True
    with pytest.raises(DecodeError, match="1 bytes after the stream of 300 values") as ei:
        c.decode(b + b"\0", 300, exact=True)
    assert ei.value.offset == len(b) and ei.value.kind == "TrailingBytes"


def test_malformed_vbyte_offsets():
    c = intcodec.codec("vbyte")
    with pytest.raises(DecodeError, match="longer than its type") as ei:
        c.decode(b"\x01" + b"\xff" * 5 + b"\x01", 2)
    assert (ei.value.offset, ei.value.index, ei.value.kind) == (1, 1, "Overlong")
    with pytest.raises(DecodeError) as ei:
        c.decode(b"\x80\x80\x80\x80\x10", 1)
    assert ei.value.kind == "Overflow" and ei.value.offset == 0


def test_threads_decode_at_once():
    c = intcodec.codec("streamvbyte")
    cb = intcodec.codec("bp128")
    ids = sorted_u32(200_000, 11)
    b, bb = c.encode(ids, delta=True), cb.encode(ids, delta=True)
    errors = []

    def work(k):
        try:
            for _ in range(20):
                np.testing.assert_array_equal(c.decode(b, len(ids), delta=True), ids)
                np.testing.assert_array_equal(cb.decode(bb, len(ids), delta=True), ids)
                assert bytes(c.encode(ids, delta=True)) == bytes(b)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    ts = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_numpy_c_api_is_used():
    # numpy 1.x and 2.x publish the C API this module reads; if a numpy
    # release changes its ABI the module falls back to the buffer protocol
    # (still correct, slower), and this says so.
    assert intcodec._intcodec._numpy_c_api(), f"numpy {np.__version__}: C API fast path off"


@pytest.mark.skipif(
    sys.version_info < (3, 10) or platform.python_implementation() != "CPython",
    reason="METH_FASTCALL is in the stable ABI from 3.10 (a 3.9 build takes METH_VARARGS)",
)
def test_methods_are_fastcall():
    # Built by this interpreter (scripts/test-py.sh), the module targets its
    # stable ABI: from 3.10 PyO3 gives the methods METH_FASTCALL, no
    # argument tuple per call. Read from the bound method's PyMethodDef
    # (CPython's PyCFunctionObject: m_ml after the object header; ml_flags
    # after ml_name and ml_meth).
    meth_fastcall = 0x80
    c = intcodec.codec("streamvbyte")
    for m in (c.encode, c.decode, c.select, c.max_values):
        ml = ctypes.c_void_p.from_address(id(m) + 2 * ctypes.sizeof(ctypes.c_void_p)).value
        flags = ctypes.c_int.from_address(ml + 2 * ctypes.sizeof(ctypes.c_void_p)).value
        assert flags & meth_fastcall, (m.__name__, hex(flags))


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.uint64, np.int64])
def test_both_sides_of_the_gil_threshold(dtype):
    # Below GIL_RELEASE_VALUES numpy arrays are read through numpy's C API
    # with the GIL held; from it on through buffer exports without the GIL.
    c = intcodec.codec("vbyte")
    t = intcodec._intcodec.GIL_RELEASE_VALUES
    for n in (t - 1, t, t + 1):
        vals = (sorted_u32(n, n) // 3).astype(dtype)
        if np.issubdtype(dtype, np.signedinteger):
            vals[::2] *= -1
        for delta in (False, True):
            b = c.encode(vals, delta=delta, prev=5)
            assert bytes(c.encode(memoryview(vals), delta=delta, prev=5)) == bytes(b)
            out = np.full(n + 2, 7, dtype)
            back = c.decode(b, n, delta=delta, prev=5, out=out[1:-1])
            np.testing.assert_array_equal(back, vals)
            assert out[0] == 7 and out[-1] == 7
            np.testing.assert_array_equal(c.decode(b, n, delta=delta, prev=5, dtype=dtype), vals)


def test_other_array_shapes_and_types():
    c = intcodec.codec("streamvbyte")
    vals = sorted_u32(24, 3)

    class Sub(np.ndarray):
        pass

    want = bytes(c.encode(vals))
    # a subclass goes through the buffer protocol, a 2-d C-contiguous array
    # is read in C order, a 0-d array is one value
    assert bytes(c.encode(vals.view(Sub))) == want
    assert bytes(c.encode(vals.reshape(4, 6))) == want
    assert c.decode(c.encode(np.array(9, np.uint32)), 1).tolist() == [9]
    assert c.decode(np.frombuffer(want, np.uint8).view(Sub), 24).tolist() == vals.tolist()
    out2 = np.zeros((4, 6), np.uint32)
    c.decode(want, 24, out=out2)
    assert out2.ravel().tolist() == vals.tolist()
    # encoded bytes viewed as another dtype are still read as bytes
    padded = want + b"\0" * (-len(want) % 4)
    assert c.decode(np.frombuffer(padded, np.uint32), 24).tolist() == vals.tolist()
    # wrong dtypes and layouts on the fast path give the buffer path's errors
    with pytest.raises(TypeError, match="must hold uint32"):
        c.encode(vals.astype(np.int8))
    with pytest.raises(TypeError, match="must hold uint32"):
        c.encode(vals.astype(np.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        c.encode(vals.reshape(4, 6).T)
    ro = np.zeros(24, np.uint32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writable"):
        c.decode(want, 24, out=ro)
    with pytest.raises(TypeError, match="int32"):
        c.decode(want, 24, out=np.zeros(24, np.float32))


def test_prev_objects():
    c = intcodec.codec("streamvbyte")
    vals = sorted_u32(50, 4) + 100

    class Index:
        def __index__(self):
            return 100

    b = c.encode(vals, delta=True, prev=Index())
    assert bytes(b) == bytes(c.encode(vals, delta=True, prev=np.uint64(100)))
    assert c.decode(b, 50, delta=True, prev=Index()).tolist() == vals.tolist()
    for bad in (-1, 2**32, 1.5, "1"):
        with pytest.raises(ValueError, match="prev must be an integer that fits the array's dtype"):
            c.encode(vals, delta=True, prev=bad)
    assert c.decode(c.encode(vals.astype(np.int32), delta=True, prev=-7), 50, delta=True, prev=-7, dtype=np.int32).tolist() == vals.tolist()


@pytest.mark.parametrize("name", NAMES)
def test_max_values_across_streams(name):
    # decode_many's bomb guard allows one value more per stream boundary than
    # one stream of the same bytes holds; that must be enough for every codec
    mv = intcodec.codec(name).max_values
    m = [mv(k) for k in range(700)]
    assert all(m[a] + m[b] <= m[a + b] + 1 for a in range(350) for b in range(350))
    # and is needed: Lucene's three 1-byte vints, twice, are 6 values in 6 bytes
    if name == "varint-gb-lucene":
        assert m[3] + m[3] == m[6] + 1


@pytest.mark.parametrize("name", NAMES)
def test_decode_many(name):
    c = intcodec.codec(name)
    ids = sorted_u32(3 * 4096 + 100, 21)
    counts = [4096, 4096, 0, 4096, 100]
    for delta in ([False, True] if c.supports_delta else [False]):
        # each chunk encoded on its own; delta chunks continue from the previous chunk's last value
        parts, at, prev = [], 0, 7
        for k in counts:
            x = ids[at : at + k]
            parts.append(bytes(c.encode(x, delta=True, prev=prev) if delta else c.encode(x)))
            if k:
                prev = int(x[-1])
            at += k
        buf = b"".join(parts)
        got = c.decode_many(buf, counts, delta=delta, prev=7)
        assert got.dtype == np.uint32 and np.array_equal(got, ids)
        # the same into out=, counts as a numpy array, trailing bytes ignored
        out = np.zeros(len(ids) + 3, dtype=np.uint32)
        assert c.decode_many(buf + b"\0" * 5, np.array(counts), delta=delta, prev=7, out=out) is out
        assert np.array_equal(out[: len(ids)], ids) and not out[len(ids) :].any()
        # counts of every integer dtype (uint16: no buffer format of ours, so
        # the generic sequence path), a tuple, and ints given by __index__
        for dt in (np.int32, np.uint32, np.int64, np.uint64, np.uint16):
            assert np.array_equal(c.decode_many(buf, np.array(counts, dtype=dt), delta=delta, prev=7), ids)
        assert np.array_equal(c.decode_many(buf, tuple(counts), delta=delta, prev=7), ids)
        assert np.array_equal(c.decode_many(buf, [np.int64(k) for k in counts], delta=delta, prev=7), ids)
        # no chunks: an empty array
        assert len(c.decode_many(b"", [], delta=delta)) == 0
        # a truncation inside the fourth chunk: its offset in buf and index in the output
        start = sum(len(p) for p in parts[:3])
        cut = start + len(parts[3]) // 2
        with pytest.raises(DecodeError) as ei:
            c.decode_many(buf[:cut], counts, delta=delta, prev=7)
        assert start <= ei.value.offset <= cut, (start, ei.value.offset, cut)
        assert ei.value.index is None or 2 * 4096 <= ei.value.index <= 3 * 4096
    # counts as a uint8 array
    tiny = np.array([5, 9, 12], dtype=np.uint32)
    two = bytes(c.encode(tiny)) * 2
    assert c.decode_many(two, np.array([3, 3], dtype=np.uint8)).tolist() == [5, 9, 12] * 2
    # a total the input cannot hold: refused before allocating
    with pytest.raises(DecodeError) as ei:
        c.decode_many(b"\0" * 10, [2**40, 2**40])
    assert ei.value.kind == "Truncated" and ei.value.offset == 10
    with pytest.raises(ValueError, match="sum"):
        c.decode_many(b"", [2**63, 2**63])
    # a negative count: an OverflowError naming it, from a list or an array
    with pytest.raises(OverflowError):
        c.decode_many(buf, [4096, -1])
    for dt in (np.int32, np.int64):
        with pytest.raises(OverflowError, match=r"counts\[1\] = -1 is negative"):
            c.decode_many(buf, np.array([4096, -1], dtype=dt))
    with pytest.raises(TypeError):
        c.decode_many(buf, np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="uint32"):
        c.decode_many(buf, counts, out=np.zeros(len(ids), dtype=np.int64))
    with pytest.raises(ValueError, match="fewer than"):
        c.decode_many(buf, counts, out=np.zeros(len(ids) - 1, dtype=np.uint32))


@pytest.mark.parametrize("name", ["streamvbyte", "bp128"])
def test_time_chunks_writes_the_given_out(name):
    # The benchmark's Rust loop (`_time_chunks`) decodes into the caller's
    # array when given one, so that it meets the memory the Python calls
    # write: the values must land there.
    c = intcodec.codec(name)
    ids = sorted_u32(4096 * 3)
    parts = [ids[i * 4096 : (i + 1) * 4096] for i in range(3)]
    one = c.encode(parts[0], delta=True)
    out = np.zeros(4096, dtype=np.uint32)
    t = c._time_chunks("decode", [one], 4096, True, False, 1, 1, 1, out)
    assert t > 0 and np.array_equal(out, parts[0])
    many, prev = bytearray(), 0
    for p in parts:
        many += c.encode(p, delta=True, prev=prev).tobytes()
        prev = int(p[-1])
    out = np.zeros(len(ids) + 1, dtype=np.uint32)
    c._time_chunks("decode_many", [many], 4096, True, False, 1, 1, 3, out)
    assert np.array_equal(out[:-1], ids) and out[-1] == 0
    with pytest.raises(TypeError, match="uint32"):
        c._time_chunks("decode", [one], 4096, True, False, 1, 1, 1, np.zeros(4096, np.int64))
    with pytest.raises(ValueError, match="fewer than"):
        c._time_chunks("decode", [one], 4096, True, False, 1, 1, 1, np.zeros(4095, np.uint32))
    # an out sharing bytes with an input stream is refused, as decode's
    shared = np.zeros(4 * 4096 + one.size, dtype=np.uint8)
    shared[: one.size] = one
    with pytest.raises(ValueError, match="overlaps"):
        c._time_chunks("decode", [shared], 4096, True, False, 1, 1, 1, shared[: 4 * 4096].view(np.uint32))
    with pytest.raises(ValueError, match="decode timings only"):
        c._time_chunks("encode", [parts[0]], 4096, True, False, 1, 1, 1, np.zeros(4096, np.uint32))
