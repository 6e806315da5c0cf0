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
    data = np.fromfile(src, dtype="<u4")
    out = []
    pos = 0
    while pos < len(data):
        n = int(data[pos])
        arr = np.ascontiguousarray(data[pos + 1 : pos + 1 + n], dtype=np.uint32)
        pos += 1 + n
        if mode.startswith("encode"):
            if mode == "encode-delta" and n > 0:  # delta1 refuses empty arrays
                arr = arr.copy()
                pyfastpfor.delta1(arr, n)
            # Generous: FastPFor's G8IU encoder stops silently when full.
            cap = 3 * n + 64
            buf = np.zeros(cap, dtype=np.uint32)
            words = codec.encodeArray(arr, n, buf, cap)
            res = buf[:words]
        else:
            cap = 4 * n + 64  # at most one value per byte, plus SIMD slack
            buf = np.zeros(cap, dtype=np.uint32)
            count = codec.decodeArray(arr, n, buf, cap)
            res = buf[:count].copy()
            if mode == "decode-delta" and count > 0:
                pyfastpfor.prefixSum1(res, count)
        out.append(np.array([len(res)], dtype=np.uint32))
        out.append(res.astype(np.uint32))
    (np.concatenate(out) if out else np.zeros(0, dtype=np.uint32)).astype("<u4").tofile(dst)


if __name__ == "__main__":
    main()
