/* Tests of intcodec.h: every function, on every codec of the build; round
 * trips, truncated and garbage input ending at a guard page, huge counts,
 * NULL pointers. */
#include "intcodec.h"

#include "check.h"

static const size_t SIZES[] = {0, 1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 127, 128, 129, 255, 256, 257, 1000, 4096};
#define NSIZES (sizeof(SIZES) / sizeof(SIZES[0]))

static int is(const intcodec_status st, int code) { return st.code == code; }

static void test_globals(void) {
  CHECK(strcmp(intcodec_version(), INTCODEC_VERSION) == 0);
  const char *isa = intcodec_isa_name();
  CHECK(isa != NULL);
  const char *known[] = {"scalar", "ssse3", "sse41", "avx2", "avx512", "neon"};
  int found = 0;
  for (size_t i = 0; i < 6; i++)
    found |= strcmp(isa, known[i]) == 0;
  CHECK(found);
  for (int code = -8; code <= 1; code++) {
    CHECK(intcodec_status_message(code) != NULL);
    CHECK(strcmp(intcodec_status_message(code), "unknown status code") != 0);
  }
  CHECK(strcmp(intcodec_status_message(INTCODEC_ERR_TRUNCATED), "input truncated") == 0);
  CHECK(strcmp(intcodec_status_message(99), "unknown status code") == 0);
  CHECK(intcodec_codec_count() >= 10);
  CHECK(intcodec_codec_name_at(intcodec_codec_count()) == NULL);
  CHECK(intcodec_codec_new("no-such-codec") == NULL);
  CHECK(intcodec_codec_new(NULL) == NULL);
  intcodec_codec_free(NULL);
}

/* NULL handles and NULL required pointers give INTCODEC_ERR_NULL. */
static void test_nulls(const intcodec_codec *c) {
  uint32_t v[4] = {1, 2, 3, 4}, o[4];
  uint8_t b[64];
  size_t k = 0, idx = 0;
  uint32_t val = 0;
  CHECK(intcodec_codec_name(NULL) == NULL);
  CHECK(intcodec_codec_isa_name(NULL) == NULL);
  CHECK(intcodec_codec_supports_delta(NULL) == 0);
  CHECK(intcodec_codec_is_sorted(NULL) == 0);
  CHECK(is(intcodec_max_compressed_len(NULL, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_max_compressed_len(c, 4, NULL), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode(NULL, v, 4, b, 64, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode(c, NULL, 4, b, 64, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode(c, v, 4, NULL, 64, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode(c, v, 4, b, 64, NULL), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode_delta(NULL, v, 4, 0, b, 64, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode_delta(c, NULL, 4, 0, b, 64, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode_delta(c, v, 4, 0, NULL, 64, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encode_delta(c, v, 4, 0, b, 64, NULL), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode(NULL, b, 64, 4, o, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode(c, NULL, 64, 4, o, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode(c, b, 64, 4, NULL, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode(c, b, 64, 4, o, 4, NULL), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode_delta(NULL, b, 64, 4, 0, o, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode_delta(c, NULL, 64, 4, 0, o, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode_delta(c, b, 64, 4, 0, NULL, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_decode_delta(c, b, 64, 4, 0, o, 4, NULL), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encoded_len(NULL, b, 64, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encoded_len(c, NULL, 64, 4, &k), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_encoded_len(c, b, 64, 4, NULL), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_select(NULL, b, 64, 4, 0, 0, &val), INTCODEC_ERR_NULL));
  CHECK(is(intcodec_lower_bound(NULL, b, 64, 4, 0, 0, &idx, &val), INTCODEC_ERR_NULL));
  if (intcodec_codec_is_sorted(c)) {
    CHECK(is(intcodec_select(c, NULL, 64, 4, 0, 0, &val), INTCODEC_ERR_NULL));
    CHECK(is(intcodec_select(c, b, 64, 4, 0, 0, NULL), INTCODEC_ERR_NULL));
    CHECK(is(intcodec_lower_bound(c, NULL, 64, 4, 0, 0, &idx, &val), INTCODEC_ERR_NULL));
    CHECK(is(intcodec_lower_bound(c, b, 64, 4, 0, 0, NULL, &val), INTCODEC_ERR_NULL));
    CHECK(is(intcodec_lower_bound(c, b, 64, 4, 0, 0, &idx, NULL), INTCODEC_ERR_NULL));
  } else {
    CHECK(is(intcodec_select(c, b, 64, 4, 0, 0, &val), INTCODEC_ERR_UNSUPPORTED));
    CHECK(is(intcodec_lower_bound(c, b, 64, 4, 0, 0, &idx, &val), INTCODEC_ERR_UNSUPPORTED));
  }
  /* NULL data with length 0 is an empty buffer, not an error. */
  CHECK(is(intcodec_encode(c, NULL, 0, b, 64, &k), INTCODEC_OK));
  CHECK(is(intcodec_decode(c, b, k, 0, NULL, 0, &k), INTCODEC_OK));
}

/* Huge counts and capacities: errors, nothing allocated (the test also runs
 * under `ulimit -v`, where a huge allocation would abort). */
static void test_huge(const intcodec_codec *c) {
  uint8_t b[64] = {0};
  uint32_t o[16];
  size_t k = 0;
  CHECK(is(intcodec_max_compressed_len(c, SIZE_MAX, &k), INTCODEC_ERR_INVALID));
  intcodec_status st = intcodec_decode(c, b, sizeof b, SIZE_MAX / 8, o, 16, &k);
  CHECK(st.code == INTCODEC_ERR_OUTPUT_TOO_SMALL || st.code == INTCODEC_ERR_TRUNCATED);
  st = intcodec_decode(c, b, sizeof b, SIZE_MAX / 8, o, SIZE_MAX / 2, &k);
  CHECK(is(st, INTCODEC_ERR_INVALID));
  st = intcodec_decode(c, b, SIZE_MAX / 2 + 1, 4, o, 16, &k);
  CHECK(is(st, INTCODEC_ERR_INVALID));
  /* Zero bytes are a valid FOR header of width 0 (any count fits). */
  st = intcodec_encoded_len(c, b, sizeof b, SIZE_MAX / 8, &k);
  CHECK(st.code < 0 ? st.offset <= sizeof b : k <= sizeof b);
  /* A guarded input of 64 bytes and a count of 2^40 values. */
  guard_buf g = guard_copy(b, sizeof b);
  st = intcodec_decode(c, g.data, sizeof b, (size_t)1 << 40, o, 16, &k);
  CHECK(st.code < 0);
  if (intcodec_codec_is_sorted(c)) {
    uint32_t val;
    size_t idx;
    /* Value 5 may be decodable from the zeros; the whole stream is not. */
    st = intcodec_select(c, g.data, sizeof b, (size_t)1 << 40, 0, 5, &val);
    CHECK(st.code < 0 ? st.offset <= sizeof b : st.code == INTCODEC_OK && val == 0);
    st = intcodec_lower_bound(c, g.data, sizeof b, (size_t)1 << 40, 0, 1000, &idx, &val);
    CHECK(st.code < 0 ? st.offset <= sizeof b : st.code == INTCODEC_NOT_FOUND);
  }
  guard_free(&g);
}

/* Decoding every prefix (or a sample) of a valid stream, each ending at a
 * guard page: no over-read (a fault would kill the test), errors within the
 * input, and a shortened stream never decodes as complete. */
static void truncations(const intcodec_codec *c, const uint8_t *enc, size_t len, size_t n,
                        int delta, uint32_t prev) {
  uint32_t *out = malloc((n + 1) * sizeof(uint32_t));
  size_t step = len <= 600 ? 1 : len / 300;
  for (size_t cut = 0; cut < len; cut += step) {
    guard_buf g = guard_copy(enc, cut);
    size_t k = 0;
    intcodec_status st = delta ? intcodec_decode_delta(c, g.data, cut, n, prev, out, n, &k)
                               : intcodec_decode(c, g.data, cut, n, out, n, &k);
    if (st.code == INTCODEC_OK) {
      CHECK(k <= cut);
    } else {
      CHECK(st.code == INTCODEC_ERR_TRUNCATED || st.code == INTCODEC_ERR_OVERLONG ||
            st.code == INTCODEC_ERR_MALFORMED || st.code == INTCODEC_ERR_OVERFLOW);
      CHECK(st.offset <= cut);
      CHECK(st.index == SIZE_MAX || st.index <= n);
    }
    /* Stream VByte and VByte need every byte of the stream. */
    const char *name = intcodec_codec_name(c);
    if (strncmp(name, "streamvbyte", 11) == 0 || strcmp(name, "vbyte") == 0)
      CHECK(st.code == INTCODEC_ERR_TRUNCATED || st.code == INTCODEC_ERR_OVERLONG);
    size_t el = 0;
    st = intcodec_encoded_len(c, g.data, cut, n, &el);
    CHECK(st.code != INTCODEC_OK || el <= cut || el == len);
    guard_free(&g);
  }
  free(out);
}

static void garbage(const intcodec_codec *c) {
  uint32_t out[600];
  for (int round = 0; round < 200; round++) {
    size_t len = rnd() % 700;
    size_t n = rnd() % 600;
    guard_buf g = guard_alloc(len);
    for (size_t i = 0; i < len; i++)
      g.data[i] = (uint8_t)rnd();
    size_t k = 0, el = 0, idx = 0;
    uint32_t val = 0;
    intcodec_status st = intcodec_decode(c, g.data, len, n, out, 600, &k);
    CHECK(st.code == INTCODEC_OK ? k <= len : st.offset <= len);
    st = intcodec_decode_delta(c, g.data, len, n, 3, out, 600, &k);
    CHECK(st.code == INTCODEC_OK ? k <= len : st.offset <= len);
    st = intcodec_encoded_len(c, g.data, len, n, &el);
    CHECK(st.code == INTCODEC_OK || st.offset <= len);
    if (intcodec_codec_is_sorted(c)) {
      st = intcodec_select(c, g.data, len, n, 0, n ? rnd() % n : 0, &val);
      CHECK(st.code >= 0 || st.offset <= len);
      st = intcodec_lower_bound(c, g.data, len, n, 0, rnd(), &idx, &val);
      CHECK(st.code >= 0 || st.offset <= len);
    }
    guard_free(&g);
  }
}

static void test_codec(const char *name) {
  intcodec_codec *c = intcodec_codec_new(name);
  CHECK(c != NULL);
  if (c == NULL)
    return;
  CHECK(strcmp(intcodec_codec_name(c), name) == 0);
  CHECK(intcodec_codec_isa_name(c) != NULL);
  int delta = intcodec_codec_supports_delta(c);
  int sorted = intcodec_codec_is_sorted(c);
  CHECK(sorted == (strcmp(name, "varint-g8iu") != 0));
  test_nulls(c);
  test_huge(c);
  garbage(c);

  for (size_t s = 0; s < NSIZES; s++) {
    size_t n = SIZES[s];
    uint32_t *vals = malloc((n + 1) * sizeof(uint32_t));
    uint32_t *out = malloc((n + 1) * sizeof(uint32_t));
    uint32_t *sorted_vals = malloc((n + 1) * sizeof(uint32_t));
    uint32_t acc = 1000;
    for (size_t i = 0; i < n; i++) {
      vals[i] = rnd_width();
      acc += rnd() % (i % 64 == 0 ? 100000 : 300);
      sorted_vals[i] = acc;
    }
    size_t max = 0, w = 0, k = 0, el = 0;
    CHECK(is(intcodec_max_compressed_len(c, n, &max), INTCODEC_OK));
    uint8_t *enc = malloc(max + 1);

    /* Plain round trip. */
    CHECK(is(intcodec_encode(c, vals, n, enc, max, &w), INTCODEC_OK));
    CHECK(w <= max);
    CHECK(is(intcodec_encoded_len(c, enc, w, n, &el), INTCODEC_OK) && el == w);
    guard_buf g = guard_copy(enc, w);
    memset(out, 0xAB, (n + 1) * sizeof(uint32_t));
    CHECK(is(intcodec_decode(c, g.data, w, n, out, n, &k), INTCODEC_OK));
    CHECK(k == w);
    CHECK(n == 0 || memcmp(out, vals, n * sizeof(uint32_t)) == 0);
    if (n > 0)
      CHECK(is(intcodec_decode(c, g.data, w, n, out, n - 1, &k), INTCODEC_ERR_OUTPUT_TOO_SMALL));
    guard_free(&g);
    truncations(c, enc, w, n, 0, 0);
    if (w > 0) {
      intcodec_status st = intcodec_encode(c, vals, n, enc, w - 1, &k);
      CHECK(st.code == INTCODEC_ERR_OUTPUT_TOO_SMALL && st.offset >= w);
    }

    /* Delta round trip (sorted values from prev = 1000). */
    const uint32_t *svals = sorted_vals;
    size_t sw = 0;
    if (delta) {
      CHECK(is(intcodec_encode_delta(c, sorted_vals, n, 1000, enc, max, &sw), INTCODEC_OK));
      g = guard_copy(enc, sw);
      CHECK(is(intcodec_decode_delta(c, g.data, sw, n, 1000, out, n, &k), INTCODEC_OK));
      CHECK(k == sw);
      CHECK(n == 0 || memcmp(out, sorted_vals, n * sizeof(uint32_t)) == 0);
      guard_free(&g);
      truncations(c, enc, sw, n, 1, 1000);
    } else {
      intcodec_status st = intcodec_encode_delta(c, sorted_vals, n, 1000, enc, max, &sw);
      CHECK(st.code == INTCODEC_ERR_UNSUPPORTED);
      static const uint8_t zeros[16] = {0};
      g = guard_copy(zeros, 16);
      st = intcodec_decode_delta(c, g.data, 16, n, 0, out, n, &k);
      CHECK(st.code < 0);
      guard_free(&g);
      CHECK(is(intcodec_encode(c, sorted_vals, n, enc, max, &sw), INTCODEC_OK));
    }

    /* Sorted operations on the (delta) stream of sorted values. */
    if (sorted) {
      g = guard_copy(enc, sw);
      uint32_t val = 0;
      size_t idx = 0;
      for (int q = 0; q < 20 && n > 0; q++) {
        size_t i = rnd() % n;
        CHECK(is(intcodec_select(c, g.data, sw, n, 1000, i, &val), INTCODEC_OK));
        CHECK(val == svals[i]);
        uint32_t key = svals[i] - (rnd() % 2);
        CHECK(is(intcodec_lower_bound(c, g.data, sw, n, 1000, key, &idx, &val), INTCODEC_OK));
        size_t want = 0;
        while (svals[want] < key)
          want++;
        CHECK(idx == want && val == svals[want]);
      }
      intcodec_status st = intcodec_select(c, g.data, sw, n, 1000, n, &val);
      CHECK(st.code == INTCODEC_NOT_FOUND && st.index == n);
      uint32_t above = n ? svals[n - 1] + 1 : 5;
      st = intcodec_lower_bound(c, g.data, sw, n, 1000, above, &idx, &val);
      CHECK(st.code == INTCODEC_NOT_FOUND && idx == n);
      if (sw > 0 && n > 0) {
        /* The same stream cut short: an error, never a read past the end. */
        guard_buf t = guard_copy(enc, sw - 1);
        st = intcodec_lower_bound(c, t.data, sw - 1, n, 1000, above, &idx, &val);
        CHECK(st.code < 0 && st.offset <= sw - 1);
        st = intcodec_select(c, t.data, sw - 1, n, 1000, n - 1, &val);
        CHECK(st.code < 0 ? st.offset <= sw - 1 : 1);
        guard_free(&t);
      }
      guard_free(&g);
    }
    free(enc);
    free(vals);
    free(out);
    free(sorted_vals);
  }
  intcodec_codec_free(c);
}

int main(void) {
  test_globals();
  for (size_t i = 0; i < intcodec_codec_count(); i++)
    test_codec(intcodec_codec_name_at(i));
  return check_report("capi-api");
}
