/*
 * flatbuf.c — the bounds-checked FlatBuffers reader of the formats layer
 * (flatbuf.h documents the layout read and the rules every read follows).
 */
#include "harness/formats/flatbuf.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TRY(x)                                                                                     \
    do {                                                                                           \
        ab_status st_ = (x);                                                                       \
        if (st_ != AB_OK) return st_;                                                              \
    } while (0)

ab_status abf_fb_fail(const abf_fb *f, uint64_t at, const char *fmt, ...) {
    char msg[AB_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ab_fail(f->err, AB_EINPUT, "%s: byte %" PRIu64 ": %s", f->file, at, msg);
}

bool abf_fb_has(const abf_fb *f, uint64_t pos, uint64_t n) {
    return pos <= f->len && n <= f->len - pos;
}

uint16_t abf_fb_u16(const abf_fb *f, uint64_t p) {
    return (uint16_t)((unsigned)f->b[p] | (unsigned)f->b[p + 1] << 8);
}

uint32_t abf_fb_u32(const abf_fb *f, uint64_t p) {
    return (uint32_t)f->b[p] | (uint32_t)f->b[p + 1] << 8 | (uint32_t)f->b[p + 2] << 16 |
           (uint32_t)f->b[p + 3] << 24;
}

uint64_t abf_fb_u64(const abf_fb *f, uint64_t p) {
    return (uint64_t)abf_fb_u32(f, p) | (uint64_t)abf_fb_u32(f, p + 4) << 32;
}

bool abf_fb_deref(const abf_fb *f, uint64_t at, uint64_t *to) {
    *to = at + abf_fb_u32(f, at);
    return abf_fb_has(f, *to, 4);
}

ab_status abf_fb_table_open(const abf_fb *f, uint64_t pos, const char *what, abf_fb_table *t) {
    snprintf(t->what, sizeof t->what, "%s", what);
    t->pos = pos;
    if (!abf_fb_has(f, pos, 4))
        return abf_fb_fail(f, pos, "table of %s runs past the end of the file (length %zu)",
                           what, f->len);
    int64_t vt = (int64_t)pos - (int64_t)(int32_t)abf_fb_u32(f, pos);
    if (vt < 0 || !abf_fb_has(f, (uint64_t)vt, 4))
        return abf_fb_fail(f, pos, "the vtable of %s (at byte %" PRId64 ") lies outside the "
                           "file (length %zu)", what, vt, f->len);
    t->vt = (uint64_t)vt;
    t->vtlen = abf_fb_u16(f, t->vt);
    t->tlen = abf_fb_u16(f, t->vt + 2);
    if (t->vtlen < 4 || t->vtlen % 2 != 0)
        return abf_fb_fail(f, t->vt, "the vtable of %s has a bad size (%u bytes)", what,
                           t->vtlen);
    if (!abf_fb_has(f, t->vt, t->vtlen))
        return abf_fb_fail(f, t->vt, "the vtable of %s (%u bytes) runs past the end of the file "
                           "(length %zu)", what, t->vtlen, f->len);
    if (t->tlen < 4 || !abf_fb_has(f, pos, t->tlen))
        return abf_fb_fail(f, pos, "table of %s (%u bytes) runs past the end of the file "
                           "(length %zu)", what, t->tlen, f->len);
    return AB_OK;
}

unsigned abf_fb_nfields(const abf_fb_table *t) { return (t->vtlen - 4) / 2; }

unsigned abf_fb_slot(const abf_fb *f, const abf_fb_table *t, unsigned id) {
    return abf_fb_u16(f, t->vt + 4 + 2 * (uint64_t)id);
}

bool abf_fb_slot_fits(const abf_fb_table *t, unsigned off, unsigned size) {
    return off >= 4 && off + size <= t->tlen;
}

ab_status abf_fb_field(const abf_fb *f, const abf_fb_table *t, int id, unsigned size,
                       const char *name, uint64_t *at) {
    unsigned slot = 4 + 2 * (unsigned)id;
    *at = 0;
    if (slot + 2 > t->vtlen) return AB_OK;
    unsigned off = abf_fb_slot(f, t, (unsigned)id);
    if (off == 0) return AB_OK;
    if (!abf_fb_slot_fits(t, off, size))
        return abf_fb_fail(f, t->vt + slot, "field %s of %s lies outside its table (offset %u, "
                           "%u bytes, table of %u bytes)", name, t->what, off, size, t->tlen);
    *at = t->pos + off;
    return AB_OK;
}

ab_status abf_fb_get_u8(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                        uint8_t def, uint8_t *out) {
    uint64_t at;
    TRY(abf_fb_field(f, t, id, 1, name, &at));
    *out = at ? f->b[at] : def;
    return AB_OK;
}

ab_status abf_fb_get_u32(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                         uint32_t def, uint32_t *out) {
    uint64_t at;
    TRY(abf_fb_field(f, t, id, 4, name, &at));
    *out = at ? abf_fb_u32(f, at) : def;
    return AB_OK;
}

ab_status abf_fb_get_u64(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                         uint64_t *out) {
    uint64_t at;
    TRY(abf_fb_field(f, t, id, 8, name, &at));
    *out = at ? abf_fb_u64(f, at) : 0;
    return AB_OK;
}

ab_status abf_fb_get_ref(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                         uint64_t *target) {
    uint64_t at, to;
    *target = 0;
    TRY(abf_fb_field(f, t, id, 4, name, &at));
    if (at == 0) return AB_OK;
    if (!abf_fb_deref(f, at, &to))
        return abf_fb_fail(f, at, "%s of %s points past the end of the file (to byte %" PRIu64
                           ", length %zu)", name, t->what, to, f->len);
    *target = to;
    return AB_OK;
}

ab_status abf_fb_vec_open(const abf_fb *f, uint64_t pos, unsigned elem, const char *what,
                          abf_fb_vec *v) {
    if (!abf_fb_has(f, pos, 4))
        return abf_fb_fail(f, pos, "vector of %s runs past the end of the file (length %zu)",
                           what, f->len);
    v->pos = pos;
    v->data = pos + 4;
    v->n = abf_fb_u32(f, pos);
    if (!abf_fb_has(f, v->data, (uint64_t)v->n * elem))
        return abf_fb_fail(f, pos, "vector of %s (%" PRIu32 " entries of %u bytes) runs past "
                           "the end of the file (length %zu)", what, v->n, elem, f->len);
    return AB_OK;
}

ab_status abf_fb_get_vec(const abf_fb *f, const abf_fb_table *t, int id, unsigned elem,
                         const char *what, abf_fb_vec *v) {
    uint64_t to;
    memset(v, 0, sizeof *v);
    TRY(abf_fb_get_ref(f, t, id, what, &to));
    return to ? abf_fb_vec_open(f, to, elem, what, v) : AB_OK;
}

ab_status abf_fb_vec_table(const abf_fb *f, const abf_fb_vec *v, uint32_t k, const char *what,
                           abf_fb_table *t) {
    uint64_t at = v->data + 4 * (uint64_t)k;
    return abf_fb_table_open(f, at + abf_fb_u32(f, at), what, t);
}

ab_status abf_fb_get_string(const abf_fb *f, const abf_fb_table *t, int id, const char *what,
                            const uint8_t **s, uint32_t *n) {
    abf_fb_vec v;
    *s = NULL;
    *n = 0;
    TRY(abf_fb_get_vec(f, t, id, 1, what, &v));
    if (v.pos == 0) return AB_OK;
    if (!abf_fb_has(f, v.data, (uint64_t)v.n + 1))
        return abf_fb_fail(f, v.pos, "string %s (%" PRIu32 " bytes and a NUL) runs past the end "
                           "of the file (length %zu)", what, v.n, f->len);
    *s = f->b + v.data;
    *n = v.n;
    return AB_OK;
}
