/*
 * protowire.h — a bounds-checked reader of the protobuf wire format, for the
 * ONNX importer (onnx.h). No protobuf library, no generated code: the caller
 * walks a message's fields one at a time and reads the ones it knows.
 *
 * ---- The wire format, as far as it is read ----------------------------------------
 * A message is a sequence of fields, each a tag then a value. The tag is a
 * varint: field number << 3 | wire type. Wire types:
 *
 *   0 VARINT  a varint (7 bits a byte, little-endian groups, high bit = more;
 *             at most 10 bytes, the tenth at most 1: a 64-bit value)
 *   1 I64     8 bytes, little-endian (double, fixed64)
 *   2 LEN     a varint length, then that many bytes (string, bytes, an
 *             embedded message, or a packed repeated scalar field)
 *   3 SGROUP, 4 EGROUP  groups (proto2, deprecated): refused
 *   5 I32     4 bytes, little-endian (float, fixed32)
 *
 * A repeated scalar field comes either unpacked (one tagged value each) or
 * packed (one LEN field holding the values back to back); readers accept both
 * (protobuf's rule). Unknown fields are skipped by their wire type. Field
 * number 0, wire types 6 and 7, a varint of more than 10 bytes and a length
 * past the end of the enclosing message are errors.
 *
 * Every failure is AB_EINPUT with "FILE: byte N: PATH: what was wrong", PATH
 * naming the field ("graph.node[3].attribute[0]"). Nothing recurses here.
 */
#ifndef ABF_PROTOWIRE_H
#define ABF_PROTOWIRE_H

#include "core/ab.h"

#include <stdint.h>
#include <stddef.h>

enum { ABF_PW_VARINT = 0, ABF_PW_I64 = 1, ABF_PW_LEN = 2, ABF_PW_SGROUP = 3,
       ABF_PW_EGROUP = 4, ABF_PW_I32 = 5 };

/* The input: the whole file; not owned. */
typedef struct abf_pw {
    const char *file;     /* for messages */
    const uint8_t *b;
    size_t len;
    ab_error *err;
} abf_pw;

/* One field as read: for VARINT, I64, I32 the value in v; for LEN the bytes
 * [data, data + n) of the file. */
typedef struct abf_pw_field {
    uint32_t num;
    int wire;
    size_t at;            /* byte offset of its tag */
    uint64_t v;
    size_t data, n;
} abf_pw_field;

/* Fails with "FILE: byte AT: PATH: message" (AB_EINPUT). */
ab_status abf_pw_fail(const abf_pw *r, size_t at, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Reads the next field of the message ending at end, starting at *pos, into
 * *f and advances *pos past it; *more is false (f untouched) at the end. path
 * names the message in errors. */
ab_status abf_pw_next(const abf_pw *r, size_t *pos, size_t end, const char *path,
                      abf_pw_field *f, bool *more);

/* The values of a repeated scalar field f, packed (wire LEN) or not: size 0
 * for varints, 4 or 8 for fixed-size values (float, double). *n receives
 * their count; abf_pw_scalar_at reads the k-th (k < n) as raw bits (a
 * varint's value, or the little-endian word). Counting walks a packed
 * varint field once; reading the k-th walks it again from its start, so a
 * caller reading all of them uses abf_pw_scalars. */
ab_status abf_pw_count(const abf_pw *r, const abf_pw_field *f, int size, const char *path,
                       size_t *n);

/* Reads all n values (n from abf_pw_count) of f into out. */
void abf_pw_scalars(const abf_pw *r, const abf_pw_field *f, int size, uint64_t *out, size_t n);

#endif
