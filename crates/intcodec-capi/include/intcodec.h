/*
 * intcodec.h -- the C API of intcodec: SIMD integer codecs (Stream VByte,
 * VByte/Masked VByte, VarInt-GB, BP128, FOR, SIMD-FOR) with checked decoders.
 * Link with -lintcodec (pkg-config intcodec).
 *
 * Every codec is reached by name (intcodec_codec_name_at lists them). Every
 * function checks its pointers: a required NULL gives INTCODEC_ERR_NULL (a
 * data pointer may be NULL when its length is 0). Decoders take the input
 * length, read and write only inside the buffers given, allocate nothing,
 * and on any input return INTCODEC_OK or an error with the byte offset and
 * value index where decoding failed. No input padding is needed.
 *
 * Drop-in headers for lemire/streamvbyte (streamvbyte.h, streamvbytedelta.h,
 * streamvbyte_zigzag.h) and MaskedVByte (varintencode.h, varintdecode.h)
 * are installed alongside.
 */
#ifndef INTCODEC_H
#define INTCODEC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INTCODEC_VERSION "0.1.0"

/* Status codes. */
#define INTCODEC_OK 0
#define INTCODEC_NOT_FOUND 1              /* select: i >= n; lower_bound: no value >= key */
#define INTCODEC_ERR_NULL (-1)            /* a required pointer was NULL */
#define INTCODEC_ERR_INVALID (-2)         /* a size overflows */
#define INTCODEC_ERR_TRUNCATED (-3)       /* the input ends before the values do */
#define INTCODEC_ERR_OUTPUT_TOO_SMALL (-4) /* see intcodec_encode / intcodec_decode */
#define INTCODEC_ERR_OVERLONG (-5)        /* a varint longer than its type allows */
#define INTCODEC_ERR_OVERFLOW (-6)        /* a varint too large for its type */
#define INTCODEC_ERR_MALFORMED (-7)       /* bytes no encoder writes */
#define INTCODEC_ERR_UNSUPPORTED (-8)     /* no such operation for this codec */

/* What happened and where: `offset` is the byte offset in the input where
 * decoding failed (for a truncated value, its first byte; for missing
 * headers, the input length); `index` the value's index, SIZE_MAX if none. */
typedef struct intcodec_status {
  int code;
  size_t offset;
  size_t index;
} intcodec_status;

/* A codec (opaque). */
typedef struct intcodec_codec intcodec_codec;

/* Library version "MAJOR.MINOR.PATCH" (equals INTCODEC_VERSION). */
const char *intcodec_version(void);

/* Highest instruction set the codecs may use here: "scalar", "ssse3",
 * "sse41", "avx2", "avx512" or "neon" ("invalid" if INTCODEC_ISA is bad). */
const char *intcodec_isa_name(void);

/* A short description of a status code. */
const char *intcodec_status_message(int code);

/* Codec names: intcodec_codec_name_at(i) for i < intcodec_codec_count(),
 * e.g. "streamvbyte", "vbyte", "bp128-8x"; NULL past the end. */
size_t intcodec_codec_count(void);
const char *intcodec_codec_name_at(size_t i);

/* The codec called `name` on the best kernel for this CPU; NULL if unknown
 * (or NULL). Free with intcodec_codec_free (NULL is ignored). */
intcodec_codec *intcodec_codec_new(const char *name);
void intcodec_codec_free(intcodec_codec *codec);

const char *intcodec_codec_name(const intcodec_codec *codec);
/* The instruction set of the codec's kernel. */
const char *intcodec_codec_isa_name(const intcodec_codec *codec);
/* 1 if the codec has delta coding / select and lower_bound, else 0. */
int intcodec_codec_supports_delta(const intcodec_codec *codec);
int intcodec_codec_is_sorted(const intcodec_codec *codec);

/* Longest encoding of `n` values, in *len (INTCODEC_ERR_INVALID on overflow). */
intcodec_status intcodec_max_compressed_len(const intcodec_codec *codec, size_t n,
                                            size_t *len);

/* Encodes `n` values into `out` (`out_cap` bytes); bytes used in *written.
 * Give intcodec_max_compressed_len(n) bytes: encoders may use it all as
 * scratch. Fewer than the encoded length: INTCODEC_ERR_OUTPUT_TOO_SMALL with
 * `offset` = the bytes needed. */
intcodec_status intcodec_encode(const intcodec_codec *codec, const uint32_t *values,
                                size_t n, uint8_t *out, size_t out_cap, size_t *written);
/* As intcodec_encode, of values[i] - values[i-1] with values[-1] = prev. */
intcodec_status intcodec_encode_delta(const intcodec_codec *codec, const uint32_t *values,
                                      size_t n, uint32_t prev, uint8_t *out, size_t out_cap,
                                      size_t *written);

/* Decodes `n` values from the `in_len` bytes at `in` into `out` (`out_cap`
 * slots; fewer than `n`: INTCODEC_ERR_OUTPUT_TOO_SMALL); bytes used in
 * *consumed. Trailing bytes after the stream are not an error. */
intcodec_status intcodec_decode(const intcodec_codec *codec, const uint8_t *in, size_t in_len,
                                size_t n, uint32_t *out, size_t out_cap, size_t *consumed);
/* As intcodec_decode, then prefix sums from `prev`. */
intcodec_status intcodec_decode_delta(const intcodec_codec *codec, const uint8_t *in,
                                      size_t in_len, size_t n, uint32_t prev, uint32_t *out,
                                      size_t out_cap, size_t *consumed);

/* Byte length of the stream of `n` values at `in`, in *len. */
intcodec_status intcodec_encoded_len(const intcodec_codec *codec, const uint8_t *in,
                                     size_t in_len, size_t n, size_t *len);

/* Sorted operations on a delta-coded stream of `n` values (encoded from
 * `prev` by intcodec_encode_delta; for a codec without delta coding, a plain
 * stream of sorted values, `prev` ignored); INTCODEC_ERR_UNSUPPORTED when
 * intcodec_codec_is_sorted is 0. select: value `i` in *value
 * (INTCODEC_NOT_FOUND if i >= n). lower_bound: index and value of the first
 * value >= key (INTCODEC_NOT_FOUND with *index = n if none). */
intcodec_status intcodec_select(const intcodec_codec *codec, const uint8_t *in, size_t in_len,
                                size_t n, uint32_t prev, size_t i, uint32_t *value);
intcodec_status intcodec_lower_bound(const intcodec_codec *codec, const uint8_t *in,
                                     size_t in_len, size_t n, uint32_t prev, uint32_t key,
                                     size_t *index, uint32_t *value);

#ifdef __cplusplus
}
#endif

#endif /* INTCODEC_H */
