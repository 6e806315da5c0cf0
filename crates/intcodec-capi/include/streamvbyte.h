/*
 * streamvbyte.h -- intcodec's drop-in for lemire/streamvbyte's header of the
 * same name (written for intcodec; same functions, signatures and results).
 * Link with -lintcodec (pkg-config intcodec).
 *
 * Format: for `length` values, ceil(length / 4) control bytes (2 bits per
 * value, lowest first) then the data bytes, little-endian. "1234": codes mean
 * 1, 2, 3, 4 bytes; "0124": 0, 1, 2, 4 bytes. The count is not stored.
 *
 * No padding: decoding a valid stream reads no byte past its end. The
 * decoders read the control bytes, then exactly the data bytes they announce.
 * Every bit pattern is a valid stream, so the decoders have no error to
 * report; the caller still must pass the right `length` (the input length is
 * not known to these functions). A NULL pointer with a non-zero length makes
 * a function return 0 and touch nothing. For checked decoding with the input
 * length and error reporting, see intcodec.h.
 */
#ifndef INTCODEC_COMPAT_STREAMVBYTE_H
#define INTCODEC_COMPAT_STREAMVBYTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kept for source compatibility: intcodec's decoders need no padding. */
#define STREAMVBYTE_PADDING 16

/* Encodes `length` values from `in` ("1234"); returns the bytes written.
 * `out` needs streamvbyte_max_compressedbytes(length) bytes (any alignment). */
size_t streamvbyte_encode(const uint32_t *in, uint32_t length, uint8_t *out);

/* As streamvbyte_encode, "0124" codes (zeros cost no data byte). */
size_t streamvbyte_encode_0124(const uint32_t *in, uint32_t length, uint8_t *out);

/* Room an encoder may need for `length` values: every value on 4 bytes plus
 * the control bytes, plus STREAMVBYTE_PADDING (as the reference reports). */
static inline size_t streamvbyte_max_compressedbytes(const uint32_t length) {
  size_t control = ((size_t)length + 3) / 4;
  size_t data = (size_t)length * 4;
  return control + data + STREAMVBYTE_PADDING;
}

/* Exact encoded length of `length` values ("1234", "0124"). */
size_t streamvbyte_compressedbytes(const uint32_t *in, uint32_t length);
size_t streamvbyte_compressedbytes_0124(const uint32_t *in, uint32_t length);

/* Decodes `length` values from the stream at `in` into `out` (`length`
 * slots); returns the stream's length in bytes. Reads only the stream. */
size_t streamvbyte_decode(const uint8_t *in, uint32_t *out, uint32_t length);

/* As streamvbyte_decode, for "0124" streams. */
size_t streamvbyte_decode_0124(const uint8_t *in, uint32_t *out, uint32_t length);

/* Whether the `inLength` bytes at `in` are exactly a "1234" stream of
 * `outLength` values (reads only those bytes). Both 0: true. */
bool streamvbyte_validate_stream(const uint8_t *in, size_t inLength, uint32_t outLength);

#ifdef __cplusplus
}
#endif

#endif /* INTCODEC_COMPAT_STREAMVBYTE_H */
