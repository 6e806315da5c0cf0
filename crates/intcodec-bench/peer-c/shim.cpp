// The C/C++ peers' bridge: compiled by intcodec-bench's build.rs with the
// `cc` crate (-O3 -march=native) against the sources that the `fastpfor`
// crate (FastPFor's C++) and the `streamvbyte-sys` crate (lemire/streamvbyte)
// vendor. Nothing here is a codec: each peer is called as a C/C++ user
// calls it; this file only gives them one C interface and the benchmark's
// loop over chunks, so a timed pass is ONE call from Rust (no per-chunk
// bridge cost a native caller would not pay).
//
// Streams, per chunk (see src/peers/c_peers.rs for the formats):
// - lemire/streamvbyte, MaskedVByte: the codec's bytes, nothing added;
// - FastPFor's IntegerCODEC classes (VarIntGB, VarIntG8IU, SIMDBinaryPacking
//   + VariableByte): a little-endian u32 word count, then the codec's words
//   (their decoders need the compressed length, which a caller stores).
//
// Decoding writes into this file's L1-resident buffer (CHUNK values plus
// room for the decoders' over-writes), as the benchmark's Rust passes write
// into their reusable chunk buffer.

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <vector>

#ifdef IC_HAVE_FASTPFOR
#include "compositecodec.h"
#include "simdbinarypacking.h"
#include "simdvariablebyte.h"
#include "variablebyte.h"
#include "varintgb.h"
#ifdef IC_WITH_G8IU
#include "VarIntG8IU.h"
#endif
#endif

#ifdef IC_HAVE_FASTPFOR
// FastPFor's varintdecode.c (MaskedVByte's decoder).
extern "C" size_t masked_vbyte_read_loop(const uint8_t *in, uint32_t *out,
                                         int length);
#endif

#ifdef IC_HAVE_LEMIRE_SVB
extern "C" {
size_t streamvbyte_encode(const uint32_t *in, uint32_t length, uint8_t *out);
size_t streamvbyte_decode(const uint8_t *in, uint32_t *out, uint32_t length);
size_t streamvbyte_delta_encode(const uint32_t *in, uint32_t length,
                                uint8_t *out, uint32_t prev);
size_t streamvbyte_delta_decode(const uint8_t *in, uint32_t *out,
                                uint32_t length, uint32_t prev);
}
#endif

namespace {

const size_t CHUNK = 4096;
const size_t FAIL = (size_t)-1;
// Decoders may write past the n-th value (G8IU up to 7 values, MaskedVByte
// up to 2): the buffer has room for that. One per thread: the test harness
// calls the peers from several threads at once (initial-exec: the address
// is one add to the thread pointer, no call).
#define IC_TLS thread_local __attribute__((tls_model("initial-exec")))
alignas(64) IC_TLS uint32_t g_out[CHUNK + 64];
// Gaps of a delta encode (FastPFor's codecs have no delta-from-prev API;
// its own benchmarks delta-code before encoding, as here).
alignas(64) IC_TLS uint32_t g_gaps[CHUNK + 64];

inline void clobber(const void *p) { asm volatile("" : : "r"(p) : "memory"); }

inline bool aligned4(const void *p) { return ((uintptr_t)p & 3) == 0; }

void gaps_from(const uint32_t *in, size_t n, uint32_t prev, uint32_t *gaps) {
  for (size_t i = 0; i < n; i++) {
    gaps[i] = in[i] - prev;
    prev = in[i];
  }
}

#ifdef IC_HAVE_FASTPFOR
// One instance of each FastPFor codec, built once at load time (VarIntG8IU
// builds its shuffle tables in its constructor: a caller keeps the codec).
template <class C> C g_codec;

// FastPFor's SIMD prefix sum (deltautil.h's fastinverseDelta2, by Leonid
// Boytsov and D. Lemire), continued from prev. Included through this
// wrapper so that the file does not pull deltautil.h's benchmark helpers.
void inverse_delta(uint32_t *data, size_t n, uint32_t prev) {
  if (n == 0)
    return;
  data[0] += prev;
  if (n < 5) {
    for (size_t i = 1; i < n; i++)
      data[i] += data[i - 1];
    return;
  }
  const size_t q4 = n / 4;
  __m128i run = _mm_setzero_si128();
  __m128i *p = reinterpret_cast<__m128i *>(data);
  const __m128i *end = p + q4;
  while (p < end) {
    __m128i a0 = _mm_loadu_si128(p);
    __m128i a1 = _mm_add_epi32(_mm_slli_si128(a0, 8), a0);
    __m128i a2 = _mm_add_epi32(_mm_slli_si128(a1, 4), a1);
    a0 = _mm_add_epi32(a2, run);
    run = _mm_shuffle_epi32(a0, 0xFF);
    _mm_storeu_si128(p++, a0);
  }
  for (size_t i = q4 * 4; i < n; ++i)
    data[i] += data[i - 1];
}

// MaskedVByte (FastPFor's varintdecode.c decoder, simdvariablebyte.h's
// encoder): the plain LEB128 stream, byte for byte ours.
struct Mvb {
  static size_t enc(const uint32_t *in, size_t n, uint8_t *out, size_t cap) {
    (void)cap;
    if (!aligned4(out))
      return FAIL;
    FastPForLib::MaskedVByte &c = g_codec<FastPForLib::MaskedVByte>;
    size_t words = 0;
    c.encodeArray(in, n, reinterpret_cast<uint32_t *>(out), words);
    size_t len = words * 4;
    // The encoder pads to 4 bytes with 0xFF; a LEB128 stream never ends
    // with a continuation byte, so the stream is what precedes them.
    while (len > 0 && out[len - 1] == 0xFF)
      len--;
    return len;
  }
  static size_t dec(const uint8_t *in, size_t n, uint32_t *out) {
    return masked_vbyte_read_loop(in, out, (int)n);
  }
  static size_t enc_delta(const uint32_t *in, size_t n, uint32_t prev,
                          uint8_t *out, size_t cap) {
    gaps_from(in, n, prev, g_gaps);
    return enc(g_gaps, n, out, cap);
  }
  static size_t dec_delta(const uint8_t *in, size_t n, uint32_t prev,
                          uint32_t *out) {
    size_t used = dec(in, n, out);
    inverse_delta(out, n, prev);
    return used;
  }
};

// A FastPFor IntegerCODEC: [u32 word count][words]. `Fused` is the codec's
// own delta variant (VarIntGB<true>: gaps from 0 within the chunk, so the
// first value is stored whole) or void: then the gaps from prev are
// encoded, and decoding adds them up with FastPFor's SIMD prefix sum.
template <class Plain, class Fused> struct Words {
  template <class C>
  static size_t enc_with(const uint32_t *in, size_t n, uint8_t *out,
                         size_t cap) {
    if (!aligned4(out) || cap < 8)
      return FAIL;
    C &c = g_codec<C>;
    size_t words = (cap - 4) / 4;
    c.encodeArray(in, n, reinterpret_cast<uint32_t *>(out + 4), words);
    if (words > (cap - 4) / 4)
      return FAIL;
    uint32_t w = (uint32_t)words;
    memcpy(out, &w, 4);
    return 4 + 4 * words;
  }
  template <class C>
  static size_t dec_with(const uint8_t *in, size_t n, uint32_t *out) {
    if (!aligned4(in))
      return FAIL;
    uint32_t words;
    memcpy(&words, in, 4);
    C &c = g_codec<C>;
    size_t got = CHUNK; // the output capacity (all decode into g_out)
    c.decodeArray(reinterpret_cast<const uint32_t *>(in + 4), words, out, got);
    return got == n ? 4 + 4 * (size_t)words : FAIL;
  }
  static size_t enc(const uint32_t *in, size_t n, uint8_t *out, size_t cap) {
    return enc_with<Plain>(in, n, out, cap);
  }
  static size_t dec(const uint8_t *in, size_t n, uint32_t *out) {
    return dec_with<Plain>(in, n, out);
  }
  static size_t enc_delta(const uint32_t *in, size_t n, uint32_t prev,
                          uint8_t *out, size_t cap) {
    return enc_delta_impl(in, n, prev, out, cap, (Fused *)nullptr);
  }
  static size_t dec_delta(const uint8_t *in, size_t n, uint32_t prev,
                          uint32_t *out) {
    return dec_delta_impl(in, n, prev, out, (Fused *)nullptr);
  }

private:
  static size_t enc_delta_impl(const uint32_t *in, size_t n, uint32_t prev,
                               uint8_t *out, size_t cap, void *) {
    gaps_from(in, n, prev, g_gaps);
    return enc(g_gaps, n, out, cap);
  }
  static size_t dec_delta_impl(const uint8_t *in, size_t n, uint32_t prev,
                               uint32_t *out, void *) {
    size_t used = dec(in, n, out);
    if (used != FAIL)
      inverse_delta(out, n, prev);
    return used;
  }
  template <class F>
  static size_t enc_delta_impl(const uint32_t *in, size_t n, uint32_t,
                               uint8_t *out, size_t cap, F *) {
    return enc_with<F>(in, n, out, cap);
  }
  template <class F>
  static size_t dec_delta_impl(const uint8_t *in, size_t n, uint32_t,
                               uint32_t *out, F *) {
    return dec_with<F>(in, n, out);
  }
};

typedef Words<FastPForLib::VarIntGB<false>, FastPForLib::VarIntGB<true>>
    VarIntGb;
typedef Words<FastPForLib::CompositeCodec<FastPForLib::SIMDBinaryPacking,
                                          FastPForLib::VariableByte>,
              void>
    SimdBp;
#ifdef IC_WITH_G8IU
typedef Words<FastPForLib::VarIntG8IU, void> G8iu;
#endif
#endif  // IC_HAVE_FASTPFOR

#ifdef IC_HAVE_LEMIRE_SVB
// lemire/streamvbyte: its own API, prev included.
struct LemireSvb {
  static size_t enc(const uint32_t *in, size_t n, uint8_t *out, size_t) {
    return streamvbyte_encode(in, (uint32_t)n, out);
  }
  static size_t dec(const uint8_t *in, size_t n, uint32_t *out) {
    return streamvbyte_decode(in, out, (uint32_t)n);
  }
  static size_t enc_delta(const uint32_t *in, size_t n, uint32_t prev,
                          uint8_t *out, size_t) {
    return streamvbyte_delta_encode(in, (uint32_t)n, out, prev);
  }
  static size_t dec_delta(const uint8_t *in, size_t n, uint32_t prev,
                          uint32_t *out) {
    return streamvbyte_delta_decode(in, out, (uint32_t)n, prev);
  }
};
#endif

}  // namespace

extern "C" {

// Mirrors of the benchmark's `measure::Chunk` (repr(C)) and `Light`.
struct ic_chunk {
  size_t start;
  size_t len;
  uint32_t prev;
};
struct ic_light {
  uint64_t ends;
  uint64_t bytes;
};

}  // extern "C"

namespace {

template <class C>
size_t one_encode(const uint32_t *in, size_t n, int delta, uint32_t prev,
                  uint8_t *out, size_t cap) {
  if (n > CHUNK)
    return FAIL;
  return delta ? C::enc_delta(in, n, prev, out, cap) : C::enc(in, n, out, cap);
}

template <class C>
size_t one_decode(const uint8_t *in, size_t n, int delta, uint32_t prev,
                  uint32_t *out) {
  if (n > CHUNK)
    return FAIL;
  size_t used = delta ? C::dec_delta(in, n, prev, g_out) : C::dec(in, n, g_out);
  if (used != FAIL)
    memcpy(out, g_out, n * 4);
  return used;
}

// One timed decode pass: every chunk, in order, into g_out. Returns the
// index of the first chunk that failed, or nchunks.
template <class C>
size_t decode_pass(const uint8_t *bytes, const size_t *offsets,
                   const ic_chunk *chunks, size_t nchunks, int delta,
                   ic_light *light) {
  uint32_t *const out = g_out;
  uint64_t ends = 0, total = 0;
  for (size_t i = 0; i < nchunks; i++) {
    const uint8_t *in = bytes + offsets[i];
    const size_t n = chunks[i].len;
    if (n == 0 || n > CHUNK)
      return i;
    size_t used = delta ? C::dec_delta(in, n, chunks[i].prev, out)
                        : C::dec(in, n, out);
    if (used == FAIL)
      return i;
    clobber(out);
    ends += ((uint64_t)out[0] << 32) | out[n - 1];
    total += used;
  }
  light->ends = ends;
  light->bytes = total;
  return nchunks;
}

// One timed encode pass: every chunk of `values` (the gaps, or the ids for
// a delta encode) into `scratch` (`cap` bytes).
template <class C>
size_t encode_pass(const uint32_t *values, const ic_chunk *chunks,
                   size_t nchunks, int delta, uint8_t *scratch, size_t cap,
                   ic_light *light) {
  uint64_t ends = 0, total = 0;
  for (size_t i = 0; i < nchunks; i++) {
    const uint32_t *in = values + chunks[i].start;
    const size_t n = chunks[i].len;
    if (n > CHUNK)
      return i;
    size_t w = delta ? C::enc_delta(in, n, chunks[i].prev, scratch, cap)
                     : C::enc(in, n, scratch, cap);
    if (w == FAIL || w > cap)
      return i;
    clobber(scratch);
    if (w > 0)
      ends += ((uint64_t)scratch[0] << 8) | scratch[w - 1];
    total += w;
  }
  light->ends = ends;
  light->bytes = total;
  return nchunks;
}

// Many short lists (the short-lists table): `reps` times, decode each of
// the `nlists` streams (`n` values each) into g_out. Returns a checksum of
// the last values decoded (so the work cannot be dropped), or FAIL.
template <class C>
size_t short_pass(const uint8_t *bytes, const size_t *offsets, size_t nlists,
                  size_t n, size_t reps, uint64_t *sum) {
  uint32_t *const out = g_out;
  uint64_t s = 0;
  for (size_t r = 0; r < reps; r++) {
    for (size_t i = 0; i < nlists; i++) {
      size_t used = C::dec(bytes + offsets[i], n, out);
      if (used == FAIL)
        return FAIL;
      clobber(out);
      s += out[n - 1] + used;
    }
  }
  *sum = s;
  return 0;
}

}  // namespace

// The codecs, by number (src/peers/c_peers.rs lists the same).
enum {
  PEER_LEMIRE_SVB = 0,
  PEER_MASKED_VBYTE = 1,
  PEER_VARINTGB = 2,
  PEER_G8IU = 3,
  PEER_SIMDBP = 4,
};

namespace {
// Calls `f(C())` with the codec type numbered `codec`, once per call from
// Rust (never per chunk).
template <class F> size_t dispatch(int codec, F f) {
  switch (codec) {
#ifdef IC_HAVE_LEMIRE_SVB
  case PEER_LEMIRE_SVB:
    return f(LemireSvb());
#endif
#ifdef IC_HAVE_FASTPFOR
  case PEER_MASKED_VBYTE:
    return f(Mvb());
  case PEER_VARINTGB:
    return f(VarIntGb());
  case PEER_SIMDBP:
    return f(SimdBp());
#ifdef IC_WITH_G8IU
  case PEER_G8IU:
    return f(G8iu());
#endif
#endif
  default:
    return FAIL;
  }
}
}  // namespace

extern "C" {

// Whether codec number `codec` is compiled in.
int ic_peer_has(int codec) {
  return dispatch(codec, [](auto) -> size_t { return 0; }) == 0;
}

// Encodes `n` (<= 4096) values (`delta`: the gaps from `prev`) into `out`
// (`cap` writable bytes, 4-byte aligned); returns the stream length, or
// SIZE_MAX on failure.
size_t ic_peer_encode(int codec, const uint32_t *in, size_t n, int delta,
                      uint32_t prev, uint8_t *out, size_t cap) {
  return dispatch(codec, [&](auto c) {
    return one_encode<decltype(c)>(in, n, delta, prev, out, cap);
  });
}

// Decodes `n` (<= 4096) values (`delta`: adds them up from `prev`) into
// `out`; returns the bytes consumed, or SIZE_MAX.
size_t ic_peer_decode(int codec, const uint8_t *in, size_t n, int delta,
                      uint32_t prev, uint32_t *out) {
  return dispatch(codec, [&](auto c) {
    return one_decode<decltype(c)>(in, n, delta, prev, out);
  });
}

// A timed decode pass over `nchunks` chunks (streams at bytes + offsets[i]);
// returns nchunks, or the index of the chunk that failed.
size_t ic_peer_decode_pass(int codec, const uint8_t *bytes,
                           const size_t *offsets, const ic_chunk *chunks,
                           size_t nchunks, int delta, ic_light *light) {
  return dispatch(codec, [&](auto c) {
    return decode_pass<decltype(c)>(bytes, offsets, chunks, nchunks, delta,
                                    light);
  });
}

// A timed encode pass (values: the gaps, or the ids when `delta`).
size_t ic_peer_encode_pass(int codec, const uint32_t *values,
                           const ic_chunk *chunks, size_t nchunks, int delta,
                           uint8_t *scratch, size_t cap, ic_light *light) {
  return dispatch(codec, [&](auto c) {
    return encode_pass<decltype(c)>(values, chunks, nchunks, delta, scratch,
                                    cap, light);
  });
}

// `reps` rounds of plain decodes of `nlists` lists of `n` values each;
// returns 0 (and a checksum in *sum), or SIZE_MAX.
size_t ic_peer_short_pass(int codec, const uint8_t *bytes,
                          const size_t *offsets, size_t nlists, size_t n,
                          size_t reps, uint64_t *sum) {
  return dispatch(codec, [&](auto c) {
    return short_pass<decltype(c)>(bytes, offsets, nlists, n, reps, sum);
  });
}

}  // extern "C"
