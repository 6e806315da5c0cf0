/* The C tests' and the C benchmark's seeded generator (xorshift64*), so
 * that a failure or a data set replays: rnd() gives 32 random bits. Set
 * rng_state to reseed. */
#ifndef INTCODEC_CTEST_RND_H
#define INTCODEC_CTEST_RND_H

#include <stdint.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

#endif
