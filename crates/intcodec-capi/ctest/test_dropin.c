/* Tests of the drop-in ABIs from their documented behaviour: MaskedVByte
 * (varintencode.h, varintdecode.h) and lemire/streamvbyte (streamvbyte.h,
 * streamvbytedelta.h, streamvbyte_zigzag.h). Streams are decoded from
 * buffers that end at a guard page: the "no padding" promise. */
#include "streamvbyte.h"
#include "streamvbyte_zigzag.h"
#include "streamvbytedelta.h"
#include "varintdecode.h"
#include "varintencode.h"

#include "check.h"

/* ------------------------------------------------------------ MaskedVByte */

static void vbyte_known_vectors(void) {
  const uint32_t in[] = {1, 127, 128, 16384, 0xFFFFFFFFu, 0};
  const uint8_t want[] = {0x01, 0x7F, 0x80, 0x01, 0x80, 0x80, 0x01,
                          0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00};
  uint8_t out[32];
  memset(out, 0xEE, sizeof out);
  size_t n = vbyte_encode(in, 6, out);
  CHECK(n == sizeof want);
  CHECK(memcmp(out, want, sizeof want) == 0);
  CHECK(out[sizeof want] == 0xEE); /* nothing written past the encoding */

  /* Delta: 5, 7, 7, 300 from prev 2 are gaps 3, 2, 0, 293. */
  const uint32_t sorted[] = {5, 7, 7, 300};
  const uint8_t dwant[] = {0x03, 0x02, 0x00, 0xA5, 0x02};
  n = vbyte_encode_delta(sorted, 4, out, 2);
  CHECK(n == sizeof dwant && memcmp(out, dwant, sizeof dwant) == 0);

  guard_buf g = guard_copy(want, sizeof want);
  uint32_t dec[6];
  CHECK(masked_vbyte_decode(g.data, dec, 6) == sizeof want);
  CHECK(memcmp(dec, in, sizeof in) == 0);
  CHECK(masked_vbyte_decode_fromcompressedsize(g.data, dec, sizeof want) == 6);
  CHECK(memcmp(dec, in, sizeof in) == 0);
  guard_free(&g);
  g = guard_copy(dwant, sizeof dwant);
  CHECK(masked_vbyte_decode_delta(g.data, dec, 4, 2) == sizeof dwant);
  CHECK(memcmp(dec, sorted, sizeof sorted) == 0);
  CHECK(masked_vbyte_decode_fromcompressedsize_delta(g.data, dec, sizeof dwant, 2) == 4);
  CHECK(memcmp(dec, sorted, sizeof sorted) == 0);
  guard_free(&g);
}

static void vbyte_round_trips(void) {
  /* 0..300, then lengths past the scanner's 2016-byte lane flush. */
  static const size_t big[] = {2100, 4096, 10000};
  for (size_t step = 0; step <= 303; step++) {
    size_t n = step <= 300 ? step : big[step - 301];
    uint32_t *vals = malloc((n + 1) * 4), *sorted = malloc((n + 1) * 4), *out = malloc((n + 1) * 4);
    uint8_t *enc = malloc(5 * n + 1);
    uint32_t acc = 77;
    int mode = (int)(n % 3); /* all widths, small values, one-byte values */
    for (size_t i = 0; i < n; i++) {
      vals[i] = mode == 0 ? rnd_width() : mode == 1 ? rnd() % 20000 : rnd() % 128;
      acc += mode == 2 ? rnd() % 100 : rnd() % 100000;
      sorted[i] = acc;
    }
    size_t len = vbyte_encode(vals, n, enc);
    guard_buf g = guard_copy(enc, len);
    memset(out, 0, (n + 1) * 4);
    CHECK(masked_vbyte_decode(g.data, out, n) == len);
    CHECK(n == 0 || memcmp(out, vals, n * 4) == 0);
    CHECK(masked_vbyte_decode_fromcompressedsize(g.data, out, len) == n);
    CHECK(n == 0 || memcmp(out, vals, n * 4) == 0);
    guard_free(&g);

    len = vbyte_encode_delta(sorted, n, enc, 77);
    g = guard_copy(enc, len);
    CHECK(masked_vbyte_decode_delta(g.data, out, n, 77) == len);
    CHECK(n == 0 || memcmp(out, sorted, n * 4) == 0);
    CHECK(masked_vbyte_decode_fromcompressedsize_delta(g.data, out, len, 77) == n);
    CHECK(n == 0 || memcmp(out, sorted, n * 4) == 0);

    /* select / search: the stream cut right after the values they need. */
    for (size_t q = 0; q < 8 && n > 0; q++) {
      size_t slot = q == 0 ? n - 1 : rnd() % n;
      size_t upto = vbyte_encode_delta(sorted, slot + 1, enc, 77);
      guard_buf t = guard_copy(enc, upto);
      CHECK(masked_vbyte_select_delta(t.data, n, 77, slot) == sorted[slot]);
      guard_free(&t);
      uint32_t key = sorted[slot] - (uint32_t)(rnd() % 2), res = 0;
      int want = 0;
      while (sorted[want] < key)
        want++;
      CHECK(masked_vbyte_search_delta(g.data, n, 77, key, &res) == want);
      CHECK(res == sorted[want]);
    }
    guard_free(&g);
    g = guard_copy(enc, vbyte_encode_delta(sorted, n, enc, 77));
    uint32_t res = 0;
    uint32_t above = n ? sorted[n - 1] + 1 : 78;
    CHECK(masked_vbyte_search_delta(g.data, n, 77, above, &res) == (int)n);
    CHECK(res == above + 1);
    CHECK(masked_vbyte_select_delta(g.data, n, 77, n) == 0);
    guard_free(&g);
    free(vals);
    free(sorted);
    free(out);
    free(enc);
  }
}

/* Bad streams: the values before the bad one are decoded, the rest of `out`
 * is zeroed, the result counts what precedes it; nothing past 5 bytes per
 * value is read even when the stream is all continuation bytes. */
static void vbyte_bad_streams(void) {
  /* 1, 2, then a 6-byte value, then 3. */
  const uint8_t overlong[] = {0x01, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x03};
  guard_buf g = guard_copy(overlong, sizeof overlong);
  uint32_t out[8];
  memset(out, 0xEE, sizeof out);
  CHECK(masked_vbyte_decode(g.data, out, 4) == 2);
  CHECK(out[0] == 1 && out[1] == 2 && out[2] == 0 && out[3] == 0 && out[4] == 0xEEEEEEEEu);
  memset(out, 0xEE, sizeof out);
  CHECK(masked_vbyte_decode_fromcompressedsize(g.data, out, sizeof overlong) == 2);
  CHECK(out[0] == 1 && out[1] == 2);
  memset(out, 0xEE, sizeof out);
  CHECK(masked_vbyte_decode_delta(g.data, out, 4, 10) == 2);
  CHECK(out[0] == 11 && out[1] == 13 && out[2] == 0 && out[3] == 0);
  CHECK(masked_vbyte_select_delta(g.data, 4, 0, 1) == 3);
  CHECK(masked_vbyte_select_delta(g.data, 4, 0, 3) == 0);
  guard_free(&g);

  /* A 5th byte above 0x0F does not fit 32 bits. */
  const uint8_t overflow[] = {0x05, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F};
  g = guard_copy(overflow, sizeof overflow);
  memset(out, 0xEE, sizeof out);
  CHECK(masked_vbyte_decode(g.data, out, 2) == 1);
  CHECK(out[0] == 5 && out[1] == 0);
  CHECK(masked_vbyte_decode_fromcompressedsize(g.data, out, sizeof overflow) == 1);
  guard_free(&g);

  /* A stream cut inside a value (known size): the values before it. */
  const uint8_t cut[] = {0x07, 0x08, 0x80, 0x80};
  g = guard_copy(cut, sizeof cut);
  memset(out, 0xEE, sizeof out);
  CHECK(masked_vbyte_decode_fromcompressedsize(g.data, out, sizeof cut) == 2);
  CHECK(out[0] == 7 && out[1] == 8);
  guard_free(&g);

  /* All continuation bytes, exactly 5 per value, ending at the guard. */
  for (size_t n = 1; n <= 40; n++) {
    g = guard_alloc(5 * n);
    memset(g.data, 0x80, 5 * n);
    uint32_t *o = malloc(n * 4);
    CHECK(masked_vbyte_decode(g.data, o, n) == 0);
    CHECK(masked_vbyte_decode_delta(g.data, o, n, 1) == 0);
    CHECK(masked_vbyte_select_delta(g.data, n, 0, n - 1) == 0);
    uint32_t r = 0;
    CHECK(masked_vbyte_search_delta(g.data, n, 0, 5, &r) == 0 && r == 6);
    /* Random bytes: still never past 5 bytes per value. */
    for (size_t i = 0; i < 5 * n; i++)
      g.data[i] = (uint8_t)(rnd() | (rnd() % 4 ? 0x80 : 0));
    size_t used = masked_vbyte_decode(g.data, o, n);
    CHECK(used <= 5 * n);
    (void)masked_vbyte_select_delta(g.data, n, 0, rnd() % n);
    (void)masked_vbyte_search_delta(g.data, n, 0, rnd(), &r);
    free(o);
    guard_free(&g);
  }
}

/* The drop-in decoder's documented result, byte by byte: the values before
 * the first bad one (longer than 5 bytes, or a 5th byte above 0x0F), the
 * rest of `out` zeroed, the bytes those values take. */
static size_t naive_vbyte_decode(const uint8_t *in, uint32_t *out, size_t n, uint32_t prev,
                                 int delta) {
  size_t off = 0, i = 0;
  uint32_t acc = prev;
  for (; i < n; i++) {
    uint32_t v = 0;
    size_t k = 0, start = off;
    int bad = 0;
    for (;;) {
      uint8_t b = in[off++];
      if (k == 4) {
        bad = b > 0x0F;
        v |= (uint32_t)b << 28;
        break;
      }
      v |= (uint32_t)(b & 0x7F) << (7 * k);
      if (b < 0x80)
        break;
      k++;
    }
    if (bad) {
      off = start;
      break;
    }
    acc += v;
    out[i] = delta ? acc : v;
  }
  for (size_t j = i; j < n; j++)
    out[j] = 0;
  return off;
}

/* Streams of random bytes (mostly continuation bytes or mostly value ends,
 * some with a bad value far in) of 5 bytes per value, ending at a guard
 * page, for counts on both sides of the small-list path and through the
 * SIMD scan's blocks: the same result as the byte-by-byte reference. */
static void vbyte_random_streams(void) {
  static const size_t counts[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33,
                                  64, 100, 255, 256, 1000, 4096, 5000};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    size_t n = counts[c];
    for (int mode = 0; mode < 4; mode++) {
      guard_buf g = guard_alloc(5 * n);
      for (size_t i = 0; i < 5 * n; i++) {
        uint8_t b = (uint8_t)rnd();
        g.data[i] = mode == 0 ? (uint8_t)(b | 0x80) /* mostly continuations */
                    : mode == 1 ? (uint8_t)(b & 0x7F) /* all value ends */
                    : mode == 2 ? (uint8_t)(rnd() % 3 ? b | 0x80 : b & 0x7F)
                                : (uint8_t)(rnd() % 8 ? b & 0x7F : b);
      }
      if (mode == 0) /* a valid stream up to a random point */
        for (size_t i = 0; i < 5 * n; i += 1 + rnd() % 5)
          g.data[i] &= 0x7F;
      uint32_t *o = malloc(n * 4), *want = malloc(n * 4);
      for (int delta = 0; delta < 2; delta++) {
        memset(o, 0xEE, n * 4);
        size_t wl = naive_vbyte_decode(g.data, want, n, 3, delta);
        size_t got = delta ? masked_vbyte_decode_delta(g.data, o, n, 3)
                           : masked_vbyte_decode(g.data, o, n);
        CHECK(got == wl);
        CHECK(memcmp(o, want, n * 4) == 0);
      }
      free(o);
      free(want);
      guard_free(&g);
    }
  }
}

/* A value of exactly `len` bytes (1-5), random within that length. */
static uint32_t vbyte_value_of_len(int len) {
  uint32_t lo = len == 1 ? 0 : 1u << (7 * (len - 1));
  uint32_t span = len == 5 ? 0xFFFFFFFFu - lo : (1u << (7 * len)) - lo - 1;
  return lo + (span == 0xFFFFFFFFu ? rnd() : rnd() % (span + 1));
}

/* The drop-in finds a stream's end window by window: with `rem` values to
 * come after the last value end found, the next `rem` bytes are the
 * stream's. Streams of values all `L` bytes long put a value end exactly on
 * the first window's last byte (n % L == 0, L == 1: one window holds the
 * whole stream) or a value across its edge, then the same for every later,
 * shorter window; random lengths put the edges anywhere. Every stream ends
 * at a guard page; decoded raw and delta (the delta base carried across
 * windows), against the byte-by-byte reference and the encoder. */
static void vbyte_window_edges(void) {
  static const size_t big[] = {1000, 4095, 4096, 4097, 10000};
  for (size_t k = 0; k < 292 + sizeof big / sizeof big[0]; k++) {
    size_t n = k < 292 ? 9 + k : big[k - 292];
    uint32_t *vals = malloc(n * 4), *o = malloc(n * 4), *want = malloc(n * 4);
    uint8_t *enc = malloc(5 * n);
    for (int len = 0; len <= 5; len++) { /* 0: random lengths */
      for (size_t i = 0; i < n; i++)
        vals[i] = vbyte_value_of_len(len ? len : 1 + (int)(rnd() % 5));
      for (int delta = 0; delta < 2; delta++) {
        size_t el = vbyte_encode(vals, n, enc);
        uint32_t prev = 0;
        if (delta) { /* prefix sums whose gaps are `vals` */
          uint32_t acc = prev = rnd();
          uint32_t *sums = malloc(n * 4);
          for (size_t i = 0; i < n; i++)
            sums[i] = acc += vals[i];
          CHECK(vbyte_encode_delta(sums, n, enc, prev) == el);
          free(sums);
        }
        guard_buf g = guard_copy(enc, el);
        memset(o, 0xEE, n * 4);
        size_t wl = naive_vbyte_decode(g.data, want, n, prev, delta);
        CHECK(wl == el);
        size_t got = delta ? masked_vbyte_decode_delta(g.data, o, n, prev)
                           : masked_vbyte_decode(g.data, o, n);
        CHECK(got == el);
        CHECK(memcmp(o, want, n * 4) == 0);
        if (!delta)
          CHECK(memcmp(o, vals, n * 4) == 0);
        guard_free(&g);
      }
    }
    free(vals);
    free(o);
    free(want);
    free(enc);
  }
}

static void vbyte_nulls(void) {
  uint32_t v[2] = {1, 2}, r = 0;
  uint8_t b[16] = {1, 2};
  CHECK(vbyte_encode(NULL, 2, b) == 0);
  CHECK(vbyte_encode(v, 2, NULL) == 0);
  CHECK(vbyte_encode_delta(NULL, 2, b, 0) == 0);
  CHECK(masked_vbyte_decode(NULL, v, 2) == 0);
  CHECK(masked_vbyte_decode(b, NULL, 2) == 0);
  CHECK(masked_vbyte_decode_delta(NULL, v, 2, 0) == 0);
  CHECK(masked_vbyte_decode_fromcompressedsize(NULL, v, 2) == 0);
  CHECK(masked_vbyte_decode_fromcompressedsize(b, NULL, 2) == 0);
  CHECK(masked_vbyte_decode_fromcompressedsize_delta(NULL, v, 2, 0) == 0);
  CHECK(masked_vbyte_select_delta(NULL, 2, 0, 0) == 0);
  CHECK(masked_vbyte_search_delta(NULL, 2, 0, 0, &r) == -1);
  CHECK(masked_vbyte_search_delta(b, 2, 0, 0, NULL) == -1);
  CHECK(masked_vbyte_decode(b, v, 0) == 0);
}

/* ------------------------------------------------------------ streamvbyte */

static void svb_known_vectors(void) {
  /* The paper's Fig. 3. */
  const uint32_t in[] = {1024, 12, 10, 1073741824, 1, 2, 3, 1024};
  const uint8_t want[] = {0xC1, 0x40, 0x00, 0x04, 0x0C, 0x0A, 0x00, 0x00, 0x00,
                          0x40, 0x01, 0x02, 0x03, 0x00, 0x04};
  uint8_t out[64];
  CHECK(streamvbyte_encode(in, 8, out) == sizeof want);
  CHECK(memcmp(out, want, sizeof want) == 0);
  CHECK(streamvbyte_compressedbytes(in, 8) == sizeof want);
  CHECK(streamvbyte_max_compressedbytes(8) >= sizeof want);
  guard_buf g = guard_copy(want, sizeof want);
  uint32_t dec[8];
  CHECK(streamvbyte_decode(g.data, dec, 8) == sizeof want);
  CHECK(memcmp(dec, in, sizeof in) == 0);
  CHECK(streamvbyte_validate_stream(g.data, sizeof want, 8));
  CHECK(!streamvbyte_validate_stream(g.data, sizeof want - 1, 8));
  CHECK(!streamvbyte_validate_stream(g.data, sizeof want, 7));
  CHECK(!streamvbyte_validate_stream(g.data, 1, 8)); /* control bytes cut */
  guard_free(&g);
  CHECK(streamvbyte_validate_stream(NULL, 0, 0));
  CHECK(!streamvbyte_validate_stream(want, 0, 8));
  CHECK(!streamvbyte_validate_stream(want, 3, 0));
  CHECK(!streamvbyte_validate_stream(NULL, 3, 1));

  /* 0124: zeros cost no data byte. */
  const uint32_t z[] = {0, 0, 255, 256, 0x10000, 0};
  const uint8_t zwant[] = {0x90, 0x03, 0xFF, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00};
  CHECK(streamvbyte_encode_0124(z, 6, out) == sizeof zwant);
  CHECK(memcmp(out, zwant, sizeof zwant) == 0);
  CHECK(streamvbyte_compressedbytes_0124(z, 6) == sizeof zwant);
  g = guard_copy(zwant, sizeof zwant);
  CHECK(streamvbyte_decode_0124(g.data, dec, 6) == sizeof zwant);
  CHECK(memcmp(dec, z, sizeof z) == 0);
  guard_free(&g);
}

static void svb_round_trips(void) {
  for (size_t n = 0; n <= 300; n++) {
    uint32_t *vals = malloc((n + 1) * 4), *sorted = malloc((n + 1) * 4), *out = malloc((n + 1) * 4);
    uint8_t *enc = malloc(streamvbyte_max_compressedbytes((uint32_t)n));
    uint32_t acc = 5;
    for (size_t i = 0; i < n; i++) {
      vals[i] = n % 2 ? rnd_width() : (rnd() % 3 ? 0 : rnd_width());
      acc += rnd() % 70000;
      sorted[i] = acc;
    }
    size_t len = streamvbyte_encode(vals, (uint32_t)n, enc);
    CHECK(len == streamvbyte_compressedbytes(vals, (uint32_t)n));
    guard_buf g = guard_copy(enc, len);
    CHECK(streamvbyte_decode(g.data, out, (uint32_t)n) == len);
    CHECK(n == 0 || memcmp(out, vals, n * 4) == 0);
    CHECK(streamvbyte_validate_stream(g.data, len, (uint32_t)n));
    guard_free(&g);
    len = streamvbyte_encode_0124(vals, (uint32_t)n, enc);
    CHECK(len == streamvbyte_compressedbytes_0124(vals, (uint32_t)n));
    g = guard_copy(enc, len);
    CHECK(streamvbyte_decode_0124(g.data, out, (uint32_t)n) == len);
    CHECK(n == 0 || memcmp(out, vals, n * 4) == 0);
    guard_free(&g);
    len = streamvbyte_delta_encode(sorted, (uint32_t)n, enc, 5);
    g = guard_copy(enc, len);
    CHECK(streamvbyte_delta_decode(g.data, out, (uint32_t)n, 5) == len);
    CHECK(n == 0 || memcmp(out, sorted, n * 4) == 0);
    guard_free(&g);
    free(vals);
    free(sorted);
    free(out);
    free(enc);
  }
}

/* Random bytes as a stream (every bit pattern is a Stream VByte stream):
 * the length the control bytes announce, code by code. */
static size_t naive_svb_len(const uint8_t *in, size_t n, int v0124) {
  static const size_t b1234[4] = {1, 2, 3, 4}, b0124[4] = {0, 1, 2, 4};
  size_t len = (n + 3) / 4;
  for (size_t i = 0; i < n; i++) {
    unsigned code = (in[i / 4] >> (2 * (i % 4))) & 3;
    len += v0124 ? b0124[code] : b1234[code];
  }
  return len;
}

/* Random streams ending exactly at a guard page: counts around the
 * small-list path (4), the 16- and 32-byte blocks of the control-byte scan
 * (64, 128 values) and big ones, every tail length: the drop-ins return the
 * stream's length and read nothing past it. */
static void svb_random_streams(void) {
  static const size_t base[] = {0, 60, 124, 4092, 40000};
  for (size_t c = 0; c < sizeof base / sizeof base[0]; c++) {
    for (size_t t = 1; t <= 12; t++) {
      size_t n = base[c] + t;
      uint8_t *enc = malloc(5 * n + 4);
      uint32_t *o = malloc(n * 4);
      for (size_t i = 0; i < 5 * n + 4; i++)
        enc[i] = (uint8_t)rnd();
      if (t % 3 == 0) /* skewed codes: mostly 0 or mostly 3 */
        for (size_t i = 0; i < (n + 3) / 4; i++)
          enc[i] = t % 2 ? (uint8_t)(enc[i] | 0xAA) : (uint8_t)(enc[i] & 0x11);
      for (int v = 0; v < 2; v++) {
        size_t len = naive_svb_len(enc, n, v);
        guard_buf g = guard_copy(enc, len);
        size_t got = v ? streamvbyte_decode_0124(g.data, o, (uint32_t)n)
                       : streamvbyte_decode(g.data, o, (uint32_t)n);
        CHECK(got == len);
        if (!v) {
          CHECK(streamvbyte_delta_decode(g.data, o, (uint32_t)n, 9) == len);
          CHECK(streamvbyte_validate_stream(g.data, len, (uint32_t)n));
        }
        guard_free(&g);
      }
      free(enc);
      free(o);
    }
  }
}

static void svb_nulls_and_zigzag(void) {
  uint32_t v[4] = {1, 2, 3, 4};
  uint8_t b[32] = {0};
  CHECK(streamvbyte_encode(NULL, 4, b) == 0);
  CHECK(streamvbyte_encode(v, 4, NULL) == 0);
  CHECK(streamvbyte_decode(NULL, v, 4) == 0);
  CHECK(streamvbyte_decode(b, NULL, 4) == 0);
  CHECK(streamvbyte_delta_decode(NULL, v, 4, 0) == 0);
  CHECK(streamvbyte_compressedbytes(NULL, 0) == 0);

  const int32_t s[] = {0, -1, 1, -2, 2, INT32_MIN, INT32_MAX};
  const uint32_t zz[] = {0, 1, 2, 3, 4, 0xFFFFFFFFu, 0xFFFFFFFEu};
  uint32_t u[7];
  int32_t back[7];
  zigzag_encode(s, u, 7);
  CHECK(memcmp(u, zz, sizeof zz) == 0);
  zigzag_decode(u, back, 7);
  CHECK(memcmp(back, s, sizeof s) == 0);
  /* Delta: 10, 8, 8, 11 from prev 9 are gaps 1, -2, 0, 3. */
  const int32_t d[] = {10, 8, 8, 11};
  const uint32_t dz[] = {2, 3, 0, 6};
  zigzag_delta_encode(d, u, 4, 9);
  CHECK(memcmp(u, dz, sizeof dz) == 0);
  zigzag_delta_decode(u, back, 4, 9);
  CHECK(memcmp(back, d, sizeof d) == 0);
  /* In place. */
  int32_t inplace[4] = {10, 8, 8, 11};
  zigzag_delta_encode(inplace, (uint32_t *)inplace, 4, 9);
  CHECK(memcmp(inplace, dz, sizeof dz) == 0);
  zigzag_delta_decode((uint32_t *)inplace, inplace, 4, 9);
  CHECK(memcmp(inplace, d, sizeof d) == 0);
  zigzag_encode(NULL, u, 4); /* NULL: nothing happens */
  zigzag_decode(u, NULL, 4);
}

int main(void) {
  vbyte_known_vectors();
  vbyte_round_trips();
  vbyte_bad_streams();
  vbyte_random_streams();
  vbyte_window_edges();
  vbyte_nulls();
  svb_known_vectors();
  svb_round_trips();
  svb_random_streams();
  svb_nulls_and_zigzag();
  return check_report("capi-dropin");
}
