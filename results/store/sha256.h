/*
 * sha256.h — SHA-256 (FIPS 180-4), for the content hashes of the results
 * store: a suite is identified by the hash of its canonical text, a plan by
 * the hash of its encoded offsets. Small and dependency-free.
 */
#ifndef AB_SHA256_H
#define AB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define ABS_SHA256_HEX 65 /* 64 lower-case hex digits and a NUL */

/* An incremental hashing context; plain data, no allocation, no cleanup. */
typedef struct abs_sha256 {
    uint32_t h[8];
    uint64_t len;          /* bytes hashed so far */
    unsigned char buf[64];
    size_t nbuf;
} abs_sha256;

/* The streaming interface. The product hashes whole buffers (abs_sha256_hex);
 * these stay exported for the tests, which check that any split of the input
 * gives the same digest as the published vectors. */
/* Starts a hash. */
void abs_sha256_init(abs_sha256 *c);
/* Adds len bytes at data (data may be NULL when len is 0). */
void abs_sha256_update(abs_sha256 *c, const void *data, size_t len);
/* Ends the hash and writes its 32 bytes to out; c must be re-initialised to reuse it. */
void abs_sha256_final(abs_sha256 *c, unsigned char out[32]);
/* The hash of len bytes at data as 64 lower-case hex digits, NUL-terminated, in hex. */
void abs_sha256_hex(const void *data, size_t len, char hex[ABS_SHA256_HEX]);

#endif
