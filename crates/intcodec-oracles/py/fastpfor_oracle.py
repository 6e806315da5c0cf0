"""Batch driver for the pyfastpfor oracle (FastPFor's C++ codecs via PyPI's
pyfastpfor), called by crates/intcodec-oracles/src/fastpfor.rs.

    fastpfor_oracle.py MODE CODEC IN OUT

IN and OUT hold arrays of little-endian u32s, each framed as [len, words...].
MODE:
  encode        values -> FastPFor's compressed words (its own framing kept:
                varintgb's u32 count header, padding to 32-bit words)
  encode-delta  the same after pyfastpfor.delta1 (differences from 0)
  decode        compressed words -> values
  decode-delta  the same, then pyfastpfor.prefixSum1
"""
import sys

import numpy as np
import pyfastpfor


def main():
    mode, name, src, dst = sys.argv[1:5]
    if name not in pyfastpfor.getCodecList():
        sys.exit(f"pyfastpfor has no codec {name!r}")
    codec = pyfastpfor.getCodec(name)
    encode = mode.startswith("encode")
    data = np.fromfile(src, dtype=np.uint32)
    # One output array for every result ([len, words...] each), written
    # through views: per-array allocations took most of the time on
    # collections of 200,000 short lists.
    # Generous room: FastPFor's G8IU encoder stops silently when full;
    # a decoder writes at most one value per byte, plus SIMD slack. Each
    # result takes 1 + count <= per_value * (1 + n) words, so an array's
    # view of cap words always fits below the end: no slice is cut short.
    per_value = 3 if encode else 4
    slack = 64
    out = np.zeros(per_value * len(data) + slack + 1, dtype=np.uint32)
    pos = 0
    at = 0
    while pos < len(data):
        n = int(data[pos])
        arr = data[pos + 1 : pos + 1 + n]
        pos += 1 + n
        cap = per_value * n + slack
        buf = out[at + 1 : at + 1 + cap]
        if encode:
            if mode == "encode-delta" and n > 0:  # delta1 refuses empty arrays
                pyfastpfor.delta1(arr, n)  # in place: each array is read once
            count = codec.encodeArray(arr, n, buf, cap)
        else:
            count = codec.decodeArray(arr, n, buf, cap)
            if mode == "decode-delta" and count > 0:
                pyfastpfor.prefixSum1(buf, count)
        out[at] = count
        at += 1 + count
    out[:at].astype("<u4").tofile(dst)


if __name__ == "__main__":
    main()
