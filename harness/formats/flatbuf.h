/*
 * flatbuf.h — a bounds-checked FlatBuffers reader, internal to the formats
 * layer: the TFLite importer (tflite.c) and the offline-plan writer
 * (tflite_offline.c) both read .tflite files through it.
 *
 * Every read checks its bytes against the file size first and reads them
 * byte by byte, little-endian (no unaligned loads); every failure is AB_EINPUT
 * with the message "FILE: byte AT: ...", AT the byte that is wrong. Positions
 * are uint64_t so that position + count never wraps for a size_t file.
 *
 * The layout read (FlatBuffers' binary format): a table starts with an int32
 * soffset, table position minus vtable position; the vtable holds its own
 * size and the table's size (uint16 each), then one uint16 per field: the
 * field's offset in the table, 0 when absent. A reference (to a table, vector
 * or string) is a uint32 counted from where it is stored; a vector is a uint32
 * count then its elements; a string is a vector of bytes followed by a NUL.
 */
#ifndef AB_FLATBUF_H
#define AB_FLATBUF_H

#include "core/ab.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ABF_FB_WHAT_MAX 96 /* a description of a table, for messages */

/* The file being read: its bytes, its name for messages and where errors go. */
typedef struct abf_fb {
    const uint8_t *b;
    size_t len;
    const char *file;
    ab_error *err;
} abf_fb;

/* A table: its position, its vtable and their sizes, and what it is. */
typedef struct abf_fb_table {
    uint64_t pos, vt;
    unsigned vtlen, tlen;
    char what[ABF_FB_WHAT_MAX];
} abf_fb_table;

/* A vector: n elements from byte data; pos is 0 for an absent vector field. */
typedef struct abf_fb_vec {
    uint64_t pos, data;
    uint32_t n;
} abf_fb_vec;

/* Sets err to "FILE: byte AT: message" and returns AB_EINPUT. */
__attribute__((format(printf, 3, 4))) ab_status abf_fb_fail(const abf_fb *f, uint64_t at,
                                                            const char *fmt, ...);

/* true when the n bytes at pos lie inside the file. */
bool abf_fb_has(const abf_fb *f, uint64_t pos, uint64_t n);

/* Little-endian reads at p; the caller has checked the bytes with abf_fb_has. */
uint16_t abf_fb_u16(const abf_fb *f, uint64_t p);
uint32_t abf_fb_u32(const abf_fb *f, uint64_t p);
uint64_t abf_fb_u64(const abf_fb *f, uint64_t p);

/* The target of the reference stored at at (4 bytes the caller has checked):
 * *to, and true when the target's first 4 bytes lie inside the file. */
bool abf_fb_deref(const abf_fb *f, uint64_t at, uint64_t *to);

/* Opens the table at pos (what names it in messages and in t->what): checks
 * its soffset, its vtable (an even size of at least 4 bytes) and its size. */
ab_status abf_fb_table_open(const abf_fb *f, uint64_t pos, const char *what, abf_fb_table *t);

/* The number of field slots in t's vtable. */
unsigned abf_fb_nfields(const abf_fb_table *t);

/* The offset in t of field id as its vtable gives it (0: absent), unchecked;
 * the slot is at byte t->vt + 4 + 2 * id. */
unsigned abf_fb_slot(const abf_fb *f, const abf_fb_table *t, unsigned id);

/* true when an offset from abf_fb_slot leaves size bytes inside table t. */
bool abf_fb_slot_fits(const abf_fb_table *t, unsigned off, unsigned size);

/* *at: the position of field id (of size bytes, name for messages) of t, or 0
 * when absent; fails when the vtable puts it outside the table. */
ab_status abf_fb_field(const abf_fb *f, const abf_fb_table *t, int id, unsigned size,
                       const char *name, uint64_t *at);

/* Scalar field id of t, or def when absent. */
ab_status abf_fb_get_u8(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                        uint8_t def, uint8_t *out);
ab_status abf_fb_get_u32(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                         uint32_t def, uint32_t *out);
/* A uint64 field; 0 when absent. */
ab_status abf_fb_get_u64(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                         uint64_t *out);

/* *target: the target of reference field id of t (a table, vector or string),
 * its first 4 bytes checked, or 0 when the field is absent. */
ab_status abf_fb_get_ref(const abf_fb *f, const abf_fb_table *t, int id, const char *name,
                         uint64_t *target);

/* Opens the vector at pos and checks that its n elements of elem bytes lie in
 * the file. */
ab_status abf_fb_vec_open(const abf_fb *f, uint64_t pos, unsigned elem, const char *what,
                          abf_fb_vec *v);

/* Vector field id of t (elements of elem bytes); an absent field gives an
 * empty vector with pos 0. */
ab_status abf_fb_get_vec(const abf_fb *f, const abf_fb_table *t, int id, unsigned elem,
                         const char *what, abf_fb_vec *v);

/* Opens table k (< v->n) of a vector of tables. */
ab_status abf_fb_vec_table(const abf_fb *f, const abf_fb_vec *v, uint32_t k, const char *what,
                           abf_fb_table *t);

/* String field id of t: *s and *n (NULL and 0 when absent), pointing into the
 * file's bytes; the NUL after them must be in the file. */
ab_status abf_fb_get_string(const abf_fb *f, const abf_fb_table *t, int id, const char *what,
                            const uint8_t **s, uint32_t *n);

#endif
