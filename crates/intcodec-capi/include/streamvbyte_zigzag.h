/*
 * streamvbyte_zigzag.h -- intcodec's drop-in for lemire/streamvbyte's zigzag
 * header (written for intcodec; same functions, signatures and results).
 *
 * zigzag(x) = (x << 1) ^ (x >> 31): 0, -1, 1, -2, ... become 0, 1, 2, 3, ...
 * `in` and `out` may be the same array (in place) but must not otherwise
 * overlap. NULL pointers make the functions do nothing.
 */
#ifndef INTCODEC_COMPAT_STREAMVBYTE_ZIGZAG_H
#define INTCODEC_COMPAT_STREAMVBYTE_ZIGZAG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = zigzag(in[i]) for N values. */
void zigzag_encode(const int32_t *in, uint32_t *out, size_t N);

/* out[i] = zigzag(in[i] - in[i-1]) (wrapping), in[-1] = prev. */
void zigzag_delta_encode(const int32_t *in, uint32_t *out, size_t N, int32_t prev);

/* out[i] = unzigzag(in[i]). */
void zigzag_decode(const uint32_t *in, int32_t *out, size_t N);

/* out[i] = out[i-1] + unzigzag(in[i]) (wrapping), out[-1] = prev. */
void zigzag_delta_decode(const uint32_t *in, int32_t *out, size_t N, int32_t prev);

#ifdef __cplusplus
}
#endif

#endif /* INTCODEC_COMPAT_STREAMVBYTE_ZIGZAG_H */
