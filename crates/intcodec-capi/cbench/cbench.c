/* Speed through the C ABI: intcodec's drop-in and checked C functions
 * against lemire/streamvbyte and MaskedVByte (compiled from the cargo
 * registry's copies at -O3 -march=native, symbols renamed ref_*), on the
 * same data, in one process, with the Rust calls' own loops (the library's
 * bench-hooks export) as the baselines: each C function is compared with the
 * Rust function it wraps. Run by scripts/bench-capi.sh.
 *
 *   cbench dump OUT.bin [POSTINGS.docs]   write the data set (real posting
 *                                         lists if given, else synthetic)
 *   cbench run DATA.bin                   measure
 *
 * Data: 4096-int chunks of posting lists (delta-coded from the previous
 * value) and 1-int lists. Each implementation's output is checked list by
 * list first; each measurement is the best of ROUNDS passes over every list,
 * implementations in rotating order, every pass with a checksum. */
#define _POSIX_C_SOURCE 199309L
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../ctest/rnd.h"
#include "intcodec.h"
#include "streamvbyte.h"
#include "streamvbytedelta.h"
#include "varintdecode.h"
#include "varintencode.h"

/* The references, renamed at compile time (scripts/bench-capi.sh). */
size_t ref_streamvbyte_encode(const uint32_t *in, uint32_t length, uint8_t *out);
size_t ref_streamvbyte_decode(const uint8_t *in, uint32_t *out, uint32_t length);
size_t ref_streamvbyte_delta_encode(const uint32_t *in, uint32_t length, uint8_t *out,
                                    uint32_t prev);
size_t ref_streamvbyte_delta_decode(const uint8_t *in, uint32_t *out, uint32_t length,
                                    uint32_t prev);
size_t masked_vbyte_read_loop(const uint8_t *in, uint32_t *out, uint64_t length);

#define CHUNK 4096
#define MAX_CHUNKS 256
#define MAX_SINGLES 65536
#define ROUNDS 101
#define SLACK 64 /* bytes after the streams: the references read past them */

typedef struct {
  uint32_t n, prev;
  uint32_t *vals;
} list_t;

typedef struct {
  list_t *lists;
  size_t count;
} set_t;


static void add(set_t *s, uint32_t n, uint32_t prev, const uint32_t *vals) {
  s->lists = realloc(s->lists, (s->count + 1) * sizeof(list_t));
  list_t *l = &s->lists[s->count++];
  l->n = n;
  l->prev = prev;
  l->vals = malloc((n ? n : 1) * 4);
  memcpy(l->vals, vals, (size_t)n * 4);
}

/* Posting lists (.docs format: [1, universe], then [n, d1..dn] per list). */
static int load_docs(const char *path, set_t *chunks, set_t *singles) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  fseek(f, 0, SEEK_END);
  long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint32_t *all = malloc((size_t)bytes);
  size_t words = fread(all, 4, (size_t)bytes / 4, f);
  fclose(f);
  size_t i = 2;
  while (i < words) {
    uint32_t n = all[i++];
    if (n > words - i)
      break;
    const uint32_t *d = all + i;
    if (n == 1 && singles->count < MAX_SINGLES)
      add(singles, 1, 0, d);
    for (uint32_t k = 0; k + CHUNK <= n && chunks->count < MAX_CHUNKS; k += CHUNK)
      add(chunks, CHUNK, k ? d[k - 1] : 0, d + k);
    i += n;
  }
  free(all);
  return chunks->count > 0 && singles->count > 0;
}

/* Synthetic: sorted lists with gaps of mixed widths, and 1-int lists. */
static void synthetic(set_t *chunks, set_t *singles) {
  uint32_t v[CHUNK];
  for (int c = 0; c < MAX_CHUNKS; c++) {
    uint32_t acc = rnd() % 1000, prev = acc;
    int bits = 1 + c % 20;
    for (int i = 0; i < CHUNK; i++) {
      acc += 1 + (rnd() & ((1u << bits) - 1));
      v[i] = acc;
    }
    add(chunks, CHUNK, prev, v);
  }
  for (int s = 0; s < MAX_SINGLES; s++) {
    v[0] = rnd() % (1u << (1 + s % 24));
    add(singles, 1, 0, v);
  }
}

static void write_set(FILE *f, const set_t *s) {
  uint32_t c = (uint32_t)s->count;
  fwrite(&c, 4, 1, f);
  for (size_t i = 0; i < s->count; i++) {
    fwrite(&s->lists[i].n, 4, 1, f);
    fwrite(&s->lists[i].prev, 4, 1, f);
    fwrite(s->lists[i].vals, 4, s->lists[i].n, f);
  }
}

static int read_set(FILE *f, set_t *s) {
  uint32_t c, n, prev;
  if (fread(&c, 4, 1, f) != 1)
    return 0;
  uint32_t *buf = malloc(CHUNK * 4);
  for (uint32_t i = 0; i < c; i++) {
    if (fread(&n, 4, 1, f) != 1 || fread(&prev, 4, 1, f) != 1 || n > CHUNK ||
        fread(buf, 4, n, f) != n)
      return 0;
    add(s, n, prev, buf);
  }
  free(buf);
  return 1;
}

/* ------------------------------------------------------------------ runs */

typedef size_t (*dec_fn)(const uint8_t *in, size_t len, uint32_t *out, uint32_t n,
                         uint32_t prev);

static intcodec_codec *C_SVB, *C_VB;

/* The decoders under test as `dec_fn`s: `f(in, out, n)` (plain, `len` and
 * `prev` unused), `f(in, out, n, prev)` (delta, `len` unused), and the
 * checked API's plain and delta decode on `codec` (`name` and `name##_d`). */
#define PLAIN_DEC(name, f)                                                                 \
  static size_t name(const uint8_t *in, size_t len, uint32_t *out, uint32_t n, uint32_t prev) { \
    (void)len, (void)prev;                                                                 \
    return f(in, out, n);                                                                  \
  }
#define DELTA_DEC(name, f)                                                                 \
  static size_t name(const uint8_t *in, size_t len, uint32_t *out, uint32_t n, uint32_t prev) { \
    (void)len;                                                                             \
    return f(in, out, n, prev);                                                            \
  }
#define CHECKED_DEC(name, codec)                                                           \
  static size_t name(const uint8_t *in, size_t len, uint32_t *out, uint32_t n, uint32_t prev) { \
    size_t k = 0;                                                                          \
    (void)prev;                                                                            \
    intcodec_decode(codec, in, len, n, out, CHUNK, &k);                                    \
    return k;                                                                              \
  }                                                                                        \
  static size_t name##_d(const uint8_t *in, size_t len, uint32_t *out, uint32_t n,         \
                         uint32_t prev) {                                                  \
    size_t k = 0;                                                                          \
    intcodec_decode_delta(codec, in, len, n, prev, out, CHUNK, &k);                        \
    return k;                                                                              \
  }

PLAIN_DEC(ref_svb, ref_streamvbyte_decode)
DELTA_DEC(ref_svb_d, ref_streamvbyte_delta_decode)
PLAIN_DEC(ours_svb, streamvbyte_decode)
DELTA_DEC(ours_svb_d, streamvbyte_delta_decode)
CHECKED_DEC(chk_svb, C_SVB)
PLAIN_DEC(ref_vb, masked_vbyte_read_loop)
PLAIN_DEC(ours_vb, masked_vbyte_decode)
DELTA_DEC(ours_vb_d, masked_vbyte_decode_delta)
CHECKED_DEC(chk_vb, C_VB)

typedef struct {
  const uint8_t *buf;
  size_t buf_len;
  size_t *off, *len;
  uint32_t *n, *prev;
  const uint32_t **expect; /* what each list decodes to */
  const set_t *set;
} enc_t;

/* Every list of `s` encoded back to back (delta from its prev). */
static enc_t encode_set(const set_t *s, int vbyte, int delta) {
  enc_t e;
  size_t cap = SLACK;
  for (size_t i = 0; i < s->count; i++)
    cap += 5 * (size_t)s->lists[i].n + 16;
  uint8_t *buf = calloc(cap, 1);
  e.off = malloc(s->count * sizeof(size_t));
  e.len = malloc(s->count * sizeof(size_t));
  e.n = malloc(s->count * 4);
  e.prev = malloc(s->count * 4);
  e.expect = malloc(s->count * sizeof(uint32_t *));
  e.set = s;
  size_t pos = 0;
  for (size_t i = 0; i < s->count; i++) {
    const list_t *l = &s->lists[i];
    e.off[i] = pos;
    size_t k;
    if (vbyte) {
      k = delta ? vbyte_encode_delta(l->vals, l->n, buf + pos, l->prev)
                : vbyte_encode(l->vals, l->n, buf + pos);
    } else {
      k = delta ? streamvbyte_delta_encode(l->vals, l->n, buf + pos, l->prev)
                : streamvbyte_encode(l->vals, l->n, buf + pos);
      /* The formats are one: the reference writes the same bytes. */
      uint8_t tmp[5 * CHUNK + 64];
      size_t r = delta ? ref_streamvbyte_delta_encode(l->vals, l->n, tmp, l->prev)
                       : ref_streamvbyte_encode(l->vals, l->n, tmp);
      if (r != k || memcmp(tmp, buf + pos, k) != 0) {
        fprintf(stderr, "encoded bytes differ from lemire/streamvbyte's (list %zu)\n", i);
        exit(1);
      }
    }
    e.len[i] = k;
    e.n[i] = l->n;
    e.prev[i] = l->prev;
    e.expect[i] = l->vals;
    pos += k;
  }
  e.buf = buf;
  e.buf_len = cap;
  return e;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* The Rust call's loop, exported by the library built with the cargo
 * feature `bench-hooks`. */
uint64_t intcodec_bench_rust_pass(int op, const uint8_t *buf, size_t buf_len, const size_t *off,
                                  const size_t *len, const uint32_t *n, const uint32_t *prev,
                                  size_t count, uint32_t *out, size_t out_cap);

/* A timed pass: every list decoded once by direct calls (no function
 * pointer per call), with a light checksum (bytes used, first and last
 * value: the same as the Rust loop's). */
typedef uint64_t (*pass_fn)(const enc_t *e);

#define PASS(name, call)                                                    \
  static uint64_t name(const enc_t *e) {                                    \
    uint64_t sum = 0;                                                       \
    for (size_t i = 0; i < e->set->count; i++) {                            \
      const uint8_t *in = e->buf + e->off[i];                               \
      size_t len = e->len[i];                                               \
      uint32_t n = e->n[i], prev = e->prev[i];                              \
      (void)len, (void)prev;                                                \
      size_t used = (call);                                                 \
      sum += used + out_buf[0] + out_buf[n - 1];                            \
    }                                                                       \
    return sum;                                                             \
  }

static uint32_t out_buf[CHUNK];
static size_t consumed;

PASS(p_ref_svb, ref_streamvbyte_decode(in, out_buf, n))
PASS(p_ref_svb_d, ref_streamvbyte_delta_decode(in, out_buf, n, prev))
PASS(p_ours_svb, streamvbyte_decode(in, out_buf, n))
PASS(p_ours_svb_d, streamvbyte_delta_decode(in, out_buf, n, prev))
PASS(p_chk_svb, (intcodec_decode(C_SVB, in, len, n, out_buf, CHUNK, &consumed), consumed))
PASS(p_chk_svb_d,
     (intcodec_decode_delta(C_SVB, in, len, n, prev, out_buf, CHUNK, &consumed), consumed))
PASS(p_ref_vb, masked_vbyte_read_loop(in, out_buf, n))
PASS(p_ours_vb, masked_vbyte_decode(in, out_buf, n))
PASS(p_ours_vb_d, masked_vbyte_decode_delta(in, out_buf, n, prev))
PASS(p_chk_vb, (intcodec_decode(C_VB, in, len, n, out_buf, CHUNK, &consumed), consumed))
PASS(p_chk_vb_d,
     (intcodec_decode_delta(C_VB, in, len, n, prev, out_buf, CHUNK, &consumed), consumed))

/* The Rust call's loop, exported by the library built with the cargo
 * feature `bench-hooks`. */
uint64_t intcodec_bench_rust_pass(int op, const uint8_t *buf, size_t buf_len, const size_t *off,
                                  const size_t *len, const uint32_t *n, const uint32_t *prev,
                                  size_t count, uint32_t *out, size_t out_cap);

#define RUST_PASS(name, op)                                                                  \
  static uint64_t name(const enc_t *e) {                                                     \
    return intcodec_bench_rust_pass(op, e->buf, e->buf_len, e->off, e->len, e->n, e->prev, \
                                    e->set->count, out_buf, CHUNK);                          \
  }
RUST_PASS(p_rust_svb, 0)
RUST_PASS(p_rust_svb_d, 1)
RUST_PASS(p_rust_vb, 2)
RUST_PASS(p_rust_vb_d, 3)
RUST_PASS(p_rust_svb_n, 4)
RUST_PASS(p_rust_svb_d_n, 5)
RUST_PASS(p_rust_vb_n, 6)
RUST_PASS(p_rust_vb_d_n, 7)

/* What an entry is, and so what it is compared with: a C function against
 * the Rust call it wraps (a drop-in, which gets a count but no length,
 * against the trusted-count `decode_counted`; the checked API against the
 * checked `decode`), and everything against the reference. */
enum kind { REF, DROPIN, CHECKED, RUST_CHECKED, RUST_COUNTED };

typedef struct {
  const char *name;
  dec_fn f;  /* one call, for the output check (NULL: Rust, checked by sum) */
  pass_fn p; /* the timed pass */
  enum kind kind;
} impl_t;

/* Output check: every list against its values. */
static void verify(const enc_t *e, const impl_t *im) {
  if (!im->f)
    return;
  for (size_t i = 0; i < e->set->count; i++) {
    const list_t *l = &e->set->lists[i];
    size_t used = im->f(e->buf + e->off[i], e->len[i], out_buf, l->n, l->prev);
    if (used != e->len[i] || memcmp(out_buf, e->expect[i], (size_t)l->n * 4) != 0) {
      fprintf(stderr, "%s: list %zu decoded wrong (%zu bytes used, %zu expected)\n", im->name,
              i, used, e->len[i]);
      exit(1);
    }
  }
}

static double pass(const enc_t *e, const impl_t *im, uint64_t *sum_out) {
  double t0 = now_ns();
  *sum_out = im->p(e);
  return now_ns() - t0;
}

static void bench(const char *data, const char *op, const enc_t *e, const impl_t *impls, int k) {
  double best[8];
  uint64_t sums[8];
  for (int i = 0; i < k; i++) {
    best[i] = 1e300;
    verify(e, &impls[i]);
  }
  for (int r = 0; r < ROUNDS; r++) {
    for (int j = 0; j < k; j++) {
      int i = (j + r) % k;
      double t = pass(e, &impls[i], &sums[i]);
      if (t < best[i])
        best[i] = t;
    }
  }
  for (int i = 1; i < k; i++)
    if (sums[i] != sums[0]) {
      fprintf(stderr, "%s %s: %s's checksum differs\n", data, op, impls[i].name);
      exit(1);
    }
  double calls = (double)e->set->count, ints = 0;
  for (size_t i = 0; i < e->set->count; i++)
    ints += e->set->lists[i].n;
  int of_kind[RUST_COUNTED + 1] = {-1, -1, -1, -1, -1};
  for (int i = 0; i < k; i++)
    of_kind[impls[i].kind] = i;
  int ref = of_kind[REF];
  for (int i = 0; i < k; i++) {
    double ns = best[i] / calls;
    printf("%-6s %-12s %-28s %9.2f ns/call %6.3f Gint/s", data, op, impls[i].name, ns,
           ints / best[i]);
    if (ref >= 0 && i != ref)
      printf("  ref/this %5.2fx", best[ref] / best[i]);
    int rust = impls[i].kind == DROPIN    ? of_kind[RUST_COUNTED]
               : impls[i].kind == CHECKED ? of_kind[RUST_CHECKED]
                                          : -1;
    if (rust >= 0)
      printf("  vs %s %+7.2f ns (%+5.1f%%)", impls[rust].name, ns - best[rust] / calls,
             100.0 * (best[i] - best[rust]) / best[rust]);
    printf("\n");
  }
}

int main(int argc, char **argv) {
  rng_state = 0x243F6A8885A308D3ull; /* the synthetic data of earlier runs */
  if (argc >= 3 && strcmp(argv[1], "dump") == 0) {
    set_t chunks = {0}, singles = {0};
    const char *src = "synthetic";
    if (argc >= 4 && load_docs(argv[3], &chunks, &singles)) {
      src = argv[3];
    } else {
      chunks.count = singles.count = 0;
      synthetic(&chunks, &singles);
    }
    FILE *f = fopen(argv[2], "wb");
    if (!f)
      return 1;
    write_set(f, &chunks);
    write_set(f, &singles);
    fclose(f);
    printf("data: %s: %zu chunks of %d ints, %zu 1-int lists\n", src, chunks.count, CHUNK,
           singles.count);
    return 0;
  }
  if (argc < 3 || strcmp(argv[1], "run") != 0) {
    fprintf(stderr, "usage: cbench dump OUT.bin [POSTINGS.docs] | run DATA.bin\n");
    return 2;
  }
  set_t chunks = {0}, singles = {0};
  FILE *f = fopen(argv[2], "rb");
  if (!f || !read_set(f, &chunks) || !read_set(f, &singles)) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 1;
  }
  fclose(f);
  C_SVB = intcodec_codec_new("streamvbyte");
  C_VB = intcodec_codec_new("vbyte");
  printf("intcodec %s, isa %s; ns per call = best of %d interleaved passes\n",
         intcodec_version(), intcodec_isa_name(), ROUNDS);
  const impl_t svb[] = {
      {"ref lemire/streamvbyte", ref_svb, p_ref_svb, REF},
      {"drop-in streamvbyte_decode", ours_svb, p_ours_svb, DROPIN},
      {"intcodec_decode", chk_svb, p_chk_svb, CHECKED},
      {"Rust decode", NULL, p_rust_svb, RUST_CHECKED},
      {"Rust decode_counted", NULL, p_rust_svb_n, RUST_COUNTED}};
  const impl_t svb_d[] = {
      {"ref lemire/streamvbyte", ref_svb_d, p_ref_svb_d, REF},
      {"drop-in (delta)", ours_svb_d, p_ours_svb_d, DROPIN},
      {"intcodec_decode_delta", chk_svb_d, p_chk_svb_d, CHECKED},
      {"Rust decode_delta", NULL, p_rust_svb_d, RUST_CHECKED},
      {"Rust decode_delta_counted", NULL, p_rust_svb_d_n, RUST_COUNTED}};
  const impl_t vb[] = {{"ref MaskedVByte", ref_vb, p_ref_vb, REF},
                       {"drop-in masked_vbyte_decode", ours_vb, p_ours_vb, DROPIN},
                       {"intcodec_decode", chk_vb, p_chk_vb, CHECKED},
                       {"Rust decode", NULL, p_rust_vb, RUST_CHECKED},
                       {"Rust decode_counted", NULL, p_rust_vb_n, RUST_COUNTED}};
  const impl_t vb_d[] = {{"drop-in (delta)", ours_vb_d, p_ours_vb_d, DROPIN},
                         {"intcodec_decode_delta", chk_vb_d, p_chk_vb_d, CHECKED},
                         {"Rust decode_delta", NULL, p_rust_vb_d, RUST_CHECKED},
                         {"Rust decode_delta_counted", NULL, p_rust_vb_d_n, RUST_COUNTED}};
  const set_t *sets[2] = {&chunks, &singles};
  const char *names[2] = {"4096", "1-int"};
  for (int s = 0; s < 2; s++) {
    enc_t e = encode_set(sets[s], 0, 0);
    bench(names[s], "svb", &e, svb, 5);
    e = encode_set(sets[s], 0, 1);
    bench(names[s], "svb-delta", &e, svb_d, 5);
    e = encode_set(sets[s], 1, 0);
    bench(names[s], "vbyte", &e, vb, 5);
    e = encode_set(sets[s], 1, 1);
    bench(names[s], "vbyte-delta", &e, vb_d, 4);
  }
  intcodec_codec_free(C_SVB);
  intcodec_codec_free(C_VB);
  return 0;
}
