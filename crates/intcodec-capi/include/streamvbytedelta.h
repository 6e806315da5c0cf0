/*
 * streamvbytedelta.h -- intcodec's drop-in for lemire/streamvbyte's delta
 * header (written for intcodec; same functions, signatures and results).
 *
 * Delta coding: the stream holds x[i] - x[i-1] (wrapping), x[-1] = prev
 * (often 0, or the last value of the previous block), in the "1234" format
 * of streamvbyte.h. Decoding reads no byte past the stream: no padding.
 */
#ifndef INTCODEC_COMPAT_STREAMVBYTEDELTA_H
#define INTCODEC_COMPAT_STREAMVBYTEDELTA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Encodes the differences of `length` values from `prev`; returns the bytes
 * written. `out` needs streamvbyte_max_compressedbytes(length) bytes. */
size_t streamvbyte_delta_encode(const uint32_t *in, uint32_t length, uint8_t *out,
                                uint32_t prev);

/* Decodes `length` values and their prefix sums from `prev` into `out`;
 * returns the stream's length in bytes. */
size_t streamvbyte_delta_decode(const uint8_t *in, uint32_t *out, uint32_t length,
                                uint32_t prev);

#ifdef __cplusplus
}
#endif

#endif /* INTCODEC_COMPAT_STREAMVBYTEDELTA_H */
