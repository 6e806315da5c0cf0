"""``python -m intcodec.bench``: intcodec from Python against the Python
peers, on real posting lists.

Peers (each left out with a note when not installed): pyfastpfor (PyPI;
FastPFor's C++ codecs, deltas by its ``delta1`` / ``prefixSum1``),
libstreamvbyte (PyPI; no delta mode: numpy's diff / cumsum around it) and
a numpy baseline (``np.diff`` to encode, ``np.cumsum`` to decode, 32 bits
per int: the cost of not compressing). Reports:

1. bits per int of each codec on every posting list (delta-coded);
2. decode speed on 4096-int chunks of the long lists (delta), in millions
   of ints per second;
3. for intcodec, each codec's Python calls beside the same Rust calls on
   the same chunks in the same order, in the same process
   (``Codec._time_chunks``), for encode and decode, plain and delta: a new
   array per call against a new ``Vec`` per call, and against one reused
   buffer (decode ``out=``, the Rust loop writing the very same array; for
   encode, which has no ``out=``, the Rust call's floor); and
   ``decode_many`` (every chunk in one call, from one buffer into one
   array, per chunk) against the same loop in Rust into the same array (it
   does not stay in L1 as the reused 4096-int buffer does). Python and Rust
   passes alternate round by round (a load change hits both) and each side
   keeps its best. The ratio is the binding's overhead; the floor is what
   any Python method call costs in the same loop here;
4. the cost of one call on a 1-int array (encode and decode), through a
   lambda for every contender, then for intcodec in a plain loop beside a
   method call that does nothing (the floor of any call here).

Data: ``--data DIR`` (a ``postings`` folder of ds2i ``.docs``/``.pos``
files), else ``$INTCODEC_SHARED_DATA`` or ``../shared/data`` beside the
repository; without them a seeded synthetic set (said in the report).
Timings are the best of several rounds; on a shared machine they are noisy.
"""

import argparse
import os
import pathlib
import sys
import time
from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

import intcodec

CHUNK = 4096


def _find_data(arg: Optional[str]) -> Optional[pathlib.Path]:
    cands = []
    if arg:
        cands.append(pathlib.Path(arg))
    if os.environ.get("INTCODEC_SHARED_DATA"):
        cands.append(pathlib.Path(os.environ["INTCODEC_SHARED_DATA"]))
    here = pathlib.Path.cwd().resolve()
    for d in [here, *here.parents]:
        cands.append(d.parent / "shared" / "data")
        if (d / ".git").exists():
            break
    for c in cands:
        if (c / "postings").is_dir():
            return c / "postings"
        if c.is_dir() and any(c.glob("*.docs")):
            return c
    return None


def _read_ds2i(path: pathlib.Path) -> List[np.ndarray]:
    raw = np.fromfile(path, dtype="<u4")
    lists, i = [], 2
    while i < raw.size:
        n = int(raw[i])
        lists.append(raw[i + 1 : i + 1 + n])
        i += 1 + n
    return lists


def _load(arg: Optional[str], quick: bool) -> Tuple[str, List[np.ndarray]]:
    d = _find_data(arg)
    if d is None:
        r = np.random.default_rng(42)
        lists = [np.cumsum(r.geometric(1 / 2 ** r.integers(1, 12), size=int(n)), dtype=np.uint32) for n in r.zipf(1.6, 3000).clip(1, 200_000)]
        return "synthetic (seeded; no ../shared/data found)", lists
    lists = []
    files = sorted(d.glob("*.docs")) + sorted(d.glob("*.pos"))
    for f in files[:1] if quick else files:
        lists += _read_ds2i(f)
    return f"{d} ({', '.join(f.name for f in (files[:1] if quick else files))})", lists


def _best(fn: Callable[[], object], reps: int, rounds: int) -> float:
    """Best seconds per call over `rounds` rounds of `reps` calls."""
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def _loop_encode(c: intcodec.Codec, a: np.ndarray, reps: int, rounds: int) -> float:
    enc, best = c.encode, float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(reps):
            enc(a)
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def _loop_decode(c: intcodec.Codec, b: np.ndarray, out: Optional[np.ndarray], reps: int, rounds: int) -> float:
    dec, best = c.decode, float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        if out is None:
            for _ in range(reps):
                dec(b, 1)
        else:
            for _ in range(reps):
                dec(b, 1, False, 0, out)
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def _loop_floor(c: intcodec.Codec, reps: int, rounds: int) -> float:
    mv, best = c.max_values, float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(reps):
            mv(1)
        best = min(best, (time.perf_counter() - t) / reps)
    return best


def _ratios(
    k: intcodec.Codec, chunks: List[np.ndarray], enc: List[np.ndarray], delta: bool, pairs: int
) -> Dict[str, Tuple[float, float, float, float]]:
    """Per op: (Python new / Rust new, Rust new ns, Python out= / Rust reused
    (encode: Python / Rust reused), Rust reused ns), per call; Python and
    Rust passes alternate, each side's best kept."""
    dec, encf, n = k.decode, k.encode, CHUNK
    out = np.empty(n, np.uint32)

    # Each result is dropped at once, as the Rust loop drops each Vec (a
    # list of them all would time the allocator on fresh memory instead).
    def dec_new() -> None:
        for e in enc:
            dec(e, n, delta)

    def dec_out() -> None:
        for e in enc:
            dec(e, n, delta, 0, out)

    def enc_new() -> None:
        for x in chunks:
            encf(x, delta)

    # decode_many: the chunks one after another in one buffer (delta chunks
    # continuing from the previous chunk's last value), one call for all
    many_buf, prev = bytearray(), 0
    for x in chunks:
        many_buf += encf(x, delta, prev).tobytes()
        prev = int(x[-1])
    counts = [len(x) for x in chunks]
    many_out = np.empty(sum(counts), np.uint32)
    assert np.array_equal(k.decode_many(many_buf, counts, delta), np.concatenate(chunks))

    def many_out_() -> None:
        k.decode_many(many_buf, counts, delta, 0, many_out)

    py: Dict[str, Callable[[], None]] = {
        "decode new": dec_new,
        "decode out": dec_out,
        "encode new": enc_new,
        "decode_many out": many_out_,
    }
    rs: Dict[str, Callable[[], float]] = {
        "decode new": lambda: k._time_chunks("decode", enc, n, delta, True, 1, 1),
        "decode out": lambda: k._time_chunks("decode", enc, n, delta, False, 1, 1, 1, out),
        "encode new": lambda: k._time_chunks("encode", chunks, n, delta, True, 1, 1),
        "encode out": lambda: k._time_chunks("encode", chunks, n, delta, False, 1, 1),
        "decode_many out": lambda: k._time_chunks("decode_many", [many_buf], n, delta, False, 1, 1, len(chunks), many_out),
    }
    best_py = {name: float("inf") for name in py}
    best_rs = {name: float("inf") for name in rs}
    for _ in range(pairs):
        for name, fn in py.items():
            # `_time_chunks` decodes every stream once, untimed, before its
            # timed pass (its check): the same warm-up here, or the Python
            # pass alone would meet a cold cache.
            if name.startswith("decode"):
                fn()
            t = time.perf_counter()
            fn()
            best_py[name] = min(best_py[name], (time.perf_counter() - t) / len(enc))
        for name, rfn in rs.items():
            best_rs[name] = min(best_rs[name], rfn() / len(enc))
    rows = {}
    for op in ("decode", "encode", "decode_many"):
        py_out = best_py.get(f"{op} out", best_py.get(f"{op} new", 0.0))
        # decode_many: out= only (a new array of every chunk's values times
        # the allocator's handling of megabytes, not the binding)
        new = (best_py[f"{op} new"] / best_rs[f"{op} new"], best_rs[f"{op} new"] * 1e9) if f"{op} new" in py else (float("nan"), float("nan"))
        rows[op] = (new[0], new[1], py_out / best_rs[f"{op} out"], best_rs[f"{op} out"] * 1e9)
    return rows


class Contender:
    """encode(ids) -> opaque; decode(opaque, n) -> uint32 array; nbytes(opaque)."""

    def __init__(self, label: str, encode: Callable, decode: Callable, nbytes: Callable, codec: Optional[intcodec.Codec] = None):
        self.label, self.encode, self.decode, self.nbytes, self.codec = label, encode, decode, nbytes, codec


def _ours(name: str) -> Contender:
    c = intcodec.codec(name)
    return Contender(
        f"intcodec {name}",
        lambda a: c.encode(a, delta=True),
        lambda b, n: c.decode(b, n, delta=True),
        lambda b: b.nbytes,
        c,
    )


def _pyfastpfor(name: str) -> Optional[Contender]:
    try:
        import pyfastpfor
    except ImportError:
        return None
    codec = pyfastpfor.getCodec(name)

    def enc(a: np.ndarray) -> np.ndarray:
        d = np.array(a, dtype=np.uint32)
        pyfastpfor.delta1(d, d.size)
        out = np.zeros(d.size + 1024, dtype=np.uint32)
        w = codec.encodeArray(d, d.size, out, out.size)
        return out[:w].copy()

    def dec(b: np.ndarray, n: int) -> np.ndarray:
        out = np.empty(n + 1024, dtype=np.uint32)
        codec.decodeArray(b, b.size, out, out.size)
        pyfastpfor.prefixSum1(out, n)
        return out[:n]

    return Contender(f"pyfastpfor {name}", enc, dec, lambda b: b.nbytes)


def _libstreamvbyte() -> Optional[Contender]:
    try:
        import libstreamvbyte as s
    except ImportError:
        return None
    return Contender(
        "libstreamvbyte (+np diff/cumsum)",
        lambda a: s.encode(np.diff(a, prepend=np.uint32(0)).astype(np.uint32)),
        lambda b, n: np.cumsum(s.decode(b, n), dtype=np.uint32),
        lambda b: len(b),
    )


def _numpy() -> Contender:
    return Contender(
        "numpy diff/cumsum + copy",
        lambda a: np.diff(a, prepend=np.uint32(0)).astype(np.uint32).tobytes(),
        lambda b, n: np.cumsum(np.frombuffer(b, dtype=np.uint32, count=n), dtype=np.uint32),
        lambda b: len(b),
    )


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m intcodec.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", help="folder of ds2i posting files (default: ../shared/data/postings)")
    ap.add_argument("--quick", action="store_true", help="one data file, fewer rounds (a smoke run)")
    args = ap.parse_args(argv)
    rounds = 2 if args.quick else 5

    source, lists = _load(args.data, args.quick)
    total_ints = sum(len(x) for x in lists)
    print(f"intcodec {intcodec.__version__} from Python {sys.version.split()[0]}, numpy {np.__version__}; kernels: {intcodec.isa()}")
    print(f"data: {source}: {len(lists)} lists, {total_ints} ints")
    print("timings: best of rounds, in this process; a shared machine makes them noisy\n")

    contenders: List[Contender] = [_ours(n) for n in ("streamvbyte", "bp128", "vbyte", "varint-gb")]
    peers = [
        _pyfastpfor("streamvbyte"),
        _pyfastpfor("simdbinarypacking"),
        _pyfastpfor("maskedvbyte"),
        _pyfastpfor("varintgb"),
        _libstreamvbyte(),
    ]
    if peers[0] is None:
        print("note: pyfastpfor not installed: its codecs are left out")
    if peers[-1] is None:
        print("note: libstreamvbyte not installed: left out")
    contenders += [p for p in peers if p is not None] + [_numpy()]

    # 1. compression over every list
    print("1. bits per int, every list delta-coded whole")
    sizes: Dict[str, int] = {}
    for c in contenders:
        total = 0
        for a in lists:
            b = c.encode(a)
            total += c.nbytes(b)
        sizes[c.label] = total
    for c in contenders:
        print(f"   {c.label:<34} {8 * sizes[c.label] / total_ints:6.2f}")

    # 2. 4096-int chunks of the long lists
    chunks = [a[k : k + CHUNK] for a in lists if len(a) >= CHUNK for k in range(0, len(a) - CHUNK + 1, CHUNK)]
    if not chunks:
        chunks = [np.cumsum(np.random.default_rng(1).geometric(0.1, CHUNK), dtype=np.uint32)]
    chunks = chunks[: 64 if args.quick else 512]
    nints = CHUNK * len(chunks)
    print(f"\n2. decode, {len(chunks)} chunks of {CHUNK} ints (delta): Mints/s")
    speeds: Dict[str, float] = {}
    for c in contenders:
        enc = [c.encode(x) for x in chunks]
        for e, x in zip(enc, chunks):
            if not np.array_equal(c.decode(e, CHUNK), x):
                raise SystemExit(f"{c.label}: wrong decode")
        secs = _best(lambda: [c.decode(e, CHUNK) for e in enc], 1, rounds)
        speeds[c.label] = nints / secs / 1e6
        print(f"   {c.label:<34} {speeds[c.label]:8.0f}")
    peers_only = {k: v for k, v in speeds.items() if not k.startswith("intcodec")}
    if peers_only:
        best_peer = max(peers_only, key=peers_only.get)
        ours = max((k for k in speeds if k.startswith("intcodec")), key=speeds.get)
        print(f"   fastest ours / fastest peer: {ours} / {best_peer} = {speeds[ours] / speeds[best_peer]:.2f}x")

    # 3. the binding's overhead on the same chunks
    pairs = 3 if args.quick else 25
    print(
        f"\n3. intcodec from Python / the Rust call, {len(chunks)} chunks of {CHUNK} ints, best of {pairs} alternating rounds"
        "\n   (ns per Rust call); encode's second column: against the Rust call into a reused buffer"
    )
    print(f"   {'codec':<12} {'op':<18} {'new array / new Vec':>26} {'out= / reused buffer':>26}")
    for c in contenders:
        if c.codec is None:
            continue
        k = c.codec
        for delta in (False, True) if k.supports_delta else (False,):
            enc = [k.encode(x, delta) for x in chunks]
            row = _ratios(k, chunks, enc, delta, pairs)
            for op, (new_r, new_ns, out_r, out_ns) in row.items():
                label = op + (" delta" if delta else "")
                new_col = f"{new_r:9.2f}x ({new_ns:6.0f} ns)" if new_r == new_r else f"{'-':>24}"
                print(f"   {k.name:<12} {label:<18} {new_col}   {out_r:12.2f}x ({out_ns:6.0f} ns)")
    mv = intcodec.codec("streamvbyte").max_values

    def floor_pass() -> None:
        for e in chunks:
            mv(1)

    floor = _best(floor_pass, 1, pairs) / len(chunks)
    print(f"   floor: a Python method call in the same loop costs {floor * 1e9:.0f} ns here")

    # 4. per-call overhead on a 1-int array
    print("\n4. one call on a 1-int array (ns per call)")
    one = np.array([12345], dtype=np.uint32)
    # many short rounds: their best misses the other processes of a loaded
    # machine
    short, many = 2_000, 10 if args.quick else 100
    for c in contenders:
        e = c.encode(one)
        te = _best(lambda: c.encode(one), short, many)
        td = _best(lambda: c.decode(e, 1), short, many)
        print(f"   {c.label:<34} encode {te * 1e9:7.0f}   decode {td * 1e9:7.0f}")
    # The same calls in a plain loop (the lines above include the lambda's
    # own call); the floor is a method call that does nothing.
    out = np.empty(1, np.uint32)
    print("   intcodec in a plain loop (ns per call; the Rust call alone in brackets):")
    for c in contenders:
        if c.codec is None:
            continue
        k = c.codec
        e = k.encode(one)
        rust_enc = k._time_chunks("encode", [one], 1, False, False, short, many)
        rust_dec = k._time_chunks("decode", [e], 1, False, False, short, many)
        print(
            f"   {k.name:<12} encode(a) {_loop_encode(k, one, short, many) * 1e9:5.0f} ({rust_enc * 1e9:3.0f})"
            f"   decode(b, 1) {_loop_decode(k, e, None, short, many) * 1e9:5.0f} ({rust_dec * 1e9:3.0f})"
            f"   decode(b, 1, False, 0, out) {_loop_decode(k, e, out, short, many) * 1e9:5.0f}"
        )
    c = intcodec.codec("streamvbyte")
    print(f"   floor: max_values(1) {_loop_floor(c, short, many) * 1e9:.0f} ns")
    # the machine's speed for Python-level work: a load that slows these
    # calls slows this one alike
    ref = _best(lambda: np.empty(1, np.uint32), short, many)
    print(f"   reference: numpy.empty(1) {ref * 1e9:.0f} ns")
    return 0


if __name__ == "__main__":
    sys.exit(main())
