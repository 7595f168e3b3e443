/*
 * protowire.c — the bounds-checked protobuf wire-format reader (protowire.h
 * documents the format and the rules).
 */
#include "harness/formats/protowire.h"

#include <stdarg.h>
#include <stdio.h>

ab_status abf_pw_fail(const abf_pw *r, size_t at, const char *path, const char *fmt, ...) {
    char msg[AB_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ab_fail(r->err, AB_EINPUT, "%s: byte %zu: %s: %s", r->file, at, path, msg);
}

/* Reads a varint at *pos (before end) into *v. */
static ab_status varint(const abf_pw *r, size_t *pos, size_t end, const char *path,
                        const char *what, uint64_t *v) {
    uint64_t x = 0;
    size_t at = *pos;
    for (int k = 0; k < 10; k++) {
        if (*pos >= end)
            return abf_pw_fail(r, at, path, "%s: a varint runs past the end of its message "
                               "(byte %zu)", what, end);
        uint8_t b = r->b[(*pos)++];
        if (k == 9 && b > 1)
            return abf_pw_fail(r, at, path, "%s: a varint does not fit in 64 bits", what);
        x |= (uint64_t)(b & 0x7F) << (7 * k);
        if (!(b & 0x80)) {
            *v = x;
            return AB_OK;
        }
    }
    return abf_pw_fail(r, at, path, "%s: a varint of more than 10 bytes", what);
}

static uint64_t le(const uint8_t *p, int size) {
    uint64_t x = 0;
    for (int k = 0; k < size; k++) x |= (uint64_t)p[k] << (8 * k);
    return x;
}

ab_status abf_pw_next(const abf_pw *r, size_t *pos, size_t end, const char *path,
                      abf_pw_field *f, bool *more) {
    *more = false;
    if (*pos >= end) return AB_OK;
    size_t at = *pos;
    uint64_t tag;
    ab_status st = varint(r, pos, end, path, "a field tag", &tag);
    if (st != AB_OK) return st;
    uint64_t num = tag >> 3;
    int wire = (int)(tag & 7);
    if (num == 0 || num > 0x1FFFFFFF)
        return abf_pw_fail(r, at, path, "field number %llu is out of range (1 .. 2^29 - 1)",
                           (unsigned long long)num);
    *f = (abf_pw_field){.num = (uint32_t)num, .wire = wire, .at = at};
    switch (wire) {
    case ABF_PW_VARINT:
        return (*more = true, varint(r, pos, end, path, "a varint field", &f->v));
    case ABF_PW_I64:
    case ABF_PW_I32: {
        size_t n = wire == ABF_PW_I64 ? 8 : 4;
        if (end - *pos < n)
            return abf_pw_fail(r, at, path, "field %u: its %zu bytes run past the end of its "
                               "message (byte %zu)", f->num, n, end);
        f->v = le(r->b + *pos, (int)n);
        *pos += n;
        *more = true;
        return AB_OK;
    }
    case ABF_PW_LEN: {
        uint64_t n;
        st = varint(r, pos, end, path, "a length", &n);
        if (st != AB_OK) return st;
        if (n > end - *pos)
            return abf_pw_fail(r, at, path, "field %u: a length of %llu bytes runs past the end "
                               "of its message (%zu bytes left)", f->num, (unsigned long long)n,
                               end - *pos);
        f->data = *pos;
        f->n = (size_t)n;
        *pos += (size_t)n;
        *more = true;
        return AB_OK;
    }
    case ABF_PW_SGROUP:
    case ABF_PW_EGROUP:
        return abf_pw_fail(r, at, path, "field %u is a group (wire type %d): groups are not "
                           "read", f->num, wire);
    default:
        return abf_pw_fail(r, at, path, "field %u has wire type %d, which does not exist",
                           f->num, wire);
    }
}

ab_status abf_pw_count(const abf_pw *r, const abf_pw_field *f, int size, const char *path,
                       size_t *n) {
    *n = 0;
    if (f->wire != ABF_PW_LEN) {
        int want = size == 0 ? ABF_PW_VARINT : size == 4 ? ABF_PW_I32 : ABF_PW_I64;
        if (f->wire != want)
            return abf_pw_fail(r, f->at, path, "field %u: wire type %d, expected %d or a packed "
                               "list (2)", f->num, f->wire, want);
        *n = 1;
        return AB_OK;
    }
    if (size > 0) {
        if (f->n % (size_t)size != 0)
            return abf_pw_fail(r, f->at, path, "field %u: a packed list of %zu bytes is not a "
                               "whole number of %d-byte values", f->num, f->n, size);
        *n = f->n / (size_t)size;
        return AB_OK;
    }
    size_t pos = f->data, end = f->data + f->n;
    while (pos < end) {
        uint64_t v;
        ab_status st = varint(r, &pos, end, path, "a packed varint", &v);
        if (st != AB_OK) return st;
        (*n)++;
    }
    return AB_OK;
}

void abf_pw_scalars(const abf_pw *r, const abf_pw_field *f, int size, uint64_t *out, size_t n) {
    if (f->wire != ABF_PW_LEN) {
        if (n > 0) out[0] = f->v;
        return;
    }
    size_t pos = f->data, end = f->data + f->n;
    for (size_t k = 0; k < n; k++) {
        if (size > 0) {
            out[k] = le(r->b + pos, size);
            pos += (size_t)size;
            continue;
        }
        uint64_t x = 0; /* counted before: well-formed, at most 10 bytes */
        for (int s = 0; pos < end; s += 7) {
            uint8_t b = r->b[pos++];
            x |= (uint64_t)(b & 0x7F) << s;
            if (!(b & 0x80)) break;
        }
        out[k] = x;
    }
}
