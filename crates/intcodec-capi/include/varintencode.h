/*
 * varintencode.h -- intcodec's drop-in for MaskedVByte's encoder header
 * (written for intcodec; same functions, signatures and results).
 *
 * VByte (unsigned LEB128): 7 bits per byte, low bits first, the high bit set
 * on every byte of a value but its last; a uint32_t takes 1 to 5 bytes.
 */
#ifndef INTCODEC_COMPAT_VARINTENCODE_H
#define INTCODEC_COMPAT_VARINTENCODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Encodes `length` values into `bout`; returns the bytes written. Writes
 * exactly the encoded bytes (5 * length always suffice). */
size_t vbyte_encode(const uint32_t *in, size_t length, uint8_t *bout);

/* As vbyte_encode, of the differences in[i] - in[i-1] (wrapping), with
 * in[-1] = prev. */
size_t vbyte_encode_delta(const uint32_t *in, size_t length, uint8_t *bout, uint32_t prev);

#ifdef __cplusplus
}
#endif

#endif /* INTCODEC_COMPAT_VARINTENCODE_H */
