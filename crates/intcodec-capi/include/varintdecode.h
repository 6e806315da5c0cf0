/*
 * varintdecode.h -- intcodec's drop-in for MaskedVByte's decoder header
 * (written for intcodec; same functions, signatures and results).
 *
 * No padding: decoding a valid stream reads no byte past its end. Functions
 * given a count read only the stream: with k values to go, the next k bytes
 * (one per value at least), and past them a byte only while the value it
 * belongs to continues; never more than 5 bytes per value whatever the
 * bytes are.
 *
 * Bad streams (a value of more than 5 bytes, or a 5th byte above 0x0F):
 * decoding stops at the first bad value; the values before it are written,
 * the remaining `out` slots are set to 0, and the result counts only what
 * precedes the bad value. The *_fromcompressedsize functions also stop at a
 * value cut off by the end of the input. NULL pointers make the functions
 * return 0 (masked_vbyte_search_delta: -1) and touch nothing. For checked
 * decoding with error offsets, see intcodec.h.
 */
#ifndef INTCODEC_COMPAT_VARINTDECODE_H
#define INTCODEC_COMPAT_VARINTDECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes `length` values from `in` into `out`; returns the bytes read. */
size_t masked_vbyte_decode(const uint8_t *in, uint32_t *out, uint64_t length);

/* As masked_vbyte_decode, then prefix sums from `prev` (delta coding). */
size_t masked_vbyte_decode_delta(const uint8_t *in, uint32_t *out, uint64_t length,
                                 uint32_t prev);

/* Decodes every value of the `inputsize` bytes at `in`; returns how many.
 * `out` needs a slot per value (at most `inputsize`). */
size_t masked_vbyte_decode_fromcompressedsize(const uint8_t *in, uint32_t *out,
                                              size_t inputsize);

/* As masked_vbyte_decode_fromcompressedsize, with prefix sums from `prev`. */
size_t masked_vbyte_decode_fromcompressedsize_delta(const uint8_t *in, uint32_t *out,
                                                    size_t inputsize, uint32_t prev);

/* Value number `slot` of a delta-coded stream of `length` values (encoded
 * from `prev`). Reads only the values up to `slot`. 0 when slot >= length. */
uint32_t masked_vbyte_select_delta(const uint8_t *in, uint64_t length, uint32_t prev,
                                   size_t slot);

/* Position of the first value >= key in a delta-coded stream of `length`
 * values; the value goes to *presult. None: returns `length` and stores
 * key + 1. */
int masked_vbyte_search_delta(const uint8_t *in, uint64_t length, uint32_t prev,
                              uint32_t key, uint32_t *presult);

#ifdef __cplusplus
}
#endif

#endif /* INTCODEC_COMPAT_VARINTDECODE_H */
