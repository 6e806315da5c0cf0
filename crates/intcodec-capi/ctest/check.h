/* Shared helpers of the C tests: CHECK counters, guard-page buffers and
 * the seeded generator (rnd.h). */
#ifndef INTCODEC_CTEST_CHECK_H
#define INTCODEC_CTEST_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rnd.h"

static unsigned long checks_passed, checks_failed;

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (cond) {                                                                  \
      checks_passed++;                                                           \
    } else {                                                                     \
      checks_failed++;                                                           \
      if (checks_failed <= 50)                                                   \
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                            \
  } while (0)

/* Prints the closing line and returns the exit status. */
static int check_report(const char *suite) {
  printf("%s: %lu passed, %lu failed\n", suite, checks_passed, checks_failed);
  return checks_failed == 0 ? 0 : 1;
}

/* A buffer of `len` bytes that ends right at a PROT_NONE page: reading one
 * byte past it faults (SIGSEGV), with or without AddressSanitizer. */
typedef struct {
  uint8_t *map;
  size_t map_len;
  uint8_t *data;
} guard_buf;

static guard_buf guard_alloc(size_t len) {
  guard_buf g;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t pages = (len + page - 1) / page;
  if (pages == 0)
    pages = 1;
  g.map_len = (pages + 1) * page;
  void *m = mmap(NULL, g.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    perror("mmap");
    exit(2);
  }
  g.map = (uint8_t *)m;
  if (mprotect(g.map + pages * page, page, PROT_NONE) != 0) {
    perror("mprotect");
    exit(2);
  }
  g.data = g.map + pages * page - len;
  return g;
}

/* `len` bytes of `src` copied into a fresh guarded buffer. */
static guard_buf guard_copy(const uint8_t *src, size_t len) {
  guard_buf g = guard_alloc(len);
  if (len > 0)
    memcpy(g.data, src, len);
  return g;
}

static void guard_free(guard_buf *g) { munmap(g->map, g->map_len); }


/* A value of 1..32 random bits (every byte width shows up). */
static uint32_t rnd_width(void) {
  uint32_t bits = 1 + rnd() % 32;
  return bits == 32 ? rnd() : rnd() & ((1u << bits) - 1);
}

#endif
