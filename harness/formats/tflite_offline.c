/*
 * tflite_offline.c — a plan into a copy of a .tflite model as TFLite Micro's
 * offline memory plan (tflite_offline.h says how the copy is laid out).
 *
 *   1. abf_tflite_offline_offsets: the plan's offsets by subgraph index.
 *   2. the positions the copy needs, read through flatbuf.h (the model was
 *      parsed whole by abf_tflite_parse first, so this only finds where
 *      things are, still checking every read).
 *   3. abf_tflite_offline_write: lays out the new front part and copies.
 *   4. the plan formats table's row (tflm-offline): reads the model file,
 *      parses it, and does 1 and 3.
 */
#include "harness/formats/tflite_offline.h"
#include "harness/formats/flatbuf.h"
#include "harness/formats/formats.h"

#include "core/file.h"
#include "harness/formats/plan_formats.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define TRY(x)                                                                                     \
    do {                                                                                           \
        ab_status st_ = (x);                                                                       \
        if (st_ != AB_OK) return st_;                                                              \
    } while (0)

#define MODEL_FIELDS 8       /* Model fields of schema.fbs, ids 0..7 */
#define FIELD_BUFFERS 4
#define FIELD_METADATA 6
#define OFFLINE_VERSION 1

/* ==== 1. offsets by subgraph index ============================================== */

ab_status abf_tflite_offline_offsets(const abf_tflite_model *m, const ab_problem *view,
                                     const int64_t *offsets, int32_t **out, ab_error *err) {
    *out = NULL;
    int32_t *o = ab_alloc_array(m->ntensors ? m->ntensors : 1, sizeof *o);
    if (o == NULL) return ab_fail(err, AB_ENOMEM, "out of memory for %zu offsets", m->ntensors);
    for (size_t i = 0; i < m->ntensors; i++) o[i] = -1;
    for (size_t i = 0; i < view->n; i++) {
        size_t k = 0;
        while (k < m->ntensors && strcmp(m->t[k].name, view->t[i].name) != 0) k++;
        if (k == m->ntensors) {
            ab_free(o);
            return ab_fail(err, AB_EINPUT, "%s: the suite's tensor '%s' is not a tensor of the "
                           "model's subgraph 0", m->file, view->t[i].name);
        }
        if (offsets[i] < 0 || offsets[i] > INT32_MAX) {
            ab_free(o);
            return ab_fail(err, AB_EINPUT, "tensor '%s': offset %" PRId64 " does not fit the "
                           "offline plan's int32", view->t[i].name, offsets[i]);
        }
        o[k] = (int32_t)offsets[i];
    }
    *out = o;
    return AB_OK;
}

/* ==== 2. where things are ========================================================== */

/* A table's field positions: at[id] (0 when absent) for id < nf. */
typedef struct ftab {
    abf_fb_table t;
    unsigned nf;
    uint64_t at[MODEL_FIELDS + 64];
} ftab;

/* Opens the table at pos (abf_tflite_parse opened it already) and finds its
 * fields, checking that each one's 4 bytes lie inside it: the parse checked
 * only the fields it reads, and the copy re-points every field of the model. */
static ab_status open_table(const abf_fb *s, uint64_t pos, const char *what, ftab *t) {
    memset(t, 0, sizeof *t);
    TRY(abf_fb_table_open(s, pos, what, &t->t));
    t->nf = abf_fb_nfields(&t->t);
    if (t->nf > sizeof t->at / sizeof t->at[0]) t->nf = sizeof t->at / sizeof t->at[0];
    for (unsigned id = 0; id < t->nf; id++) {
        unsigned off = abf_fb_slot(s, &t->t, id);
        if (off == 0) continue;
        if (!abf_fb_slot_fits(&t->t, off, 4))
            return abf_fb_fail(s, t->t.vt + 4 + 2 * (uint64_t)id, "field %u of %s lies outside "
                               "it", id, what);
        t->at[id] = pos + off;
    }
    return AB_OK;
}

/* The target of the reference at at (checked to hold 4 bytes). */
static ab_status follow(const abf_fb *s, uint64_t at, const char *what, uint64_t *to) {
    if (!abf_fb_deref(s, at, to))
        return abf_fb_fail(s, at, "%s points past the end of the file", what);
    return AB_OK;
}

/* true when the Metadata table at pos is named "OfflineMemoryAllocation". */
static ab_status is_offline_entry(const abf_fb *s, uint64_t pos, bool *yes) {
    ftab t;
    const uint8_t *name;
    uint32_t n;
    *yes = false;
    TRY(open_table(s, pos, "a metadata entry", &t));
    TRY(abf_fb_get_string(s, &t.t, 0, "a metadata name", &name, &n));
    *yes = name != NULL && n == strlen(ABF_TFLITE_OFFLINE_NAME) &&
           memcmp(name, ABF_TFLITE_OFFLINE_NAME, n) == 0;
    return AB_OK;
}

/* Refuses a buffer kept outside the flatbuffer (Buffer field 1, offset > 1). */
static ab_status inside(const abf_fb *s, uint64_t pos, uint32_t k) {
    ftab t;
    TRY(open_table(s, pos, "a buffer", &t));
    if (t.nf < 2 || t.at[1] == 0) return AB_OK;
    if (!abf_fb_has(s, t.at[1], 8))
        return abf_fb_fail(s, t.at[1], "buffer %" PRIu32 ": offset runs past the end of the "
                           "file", k);
    uint64_t off = abf_fb_u64(s, t.at[1]);
    if (off > 1)
        return abf_fb_fail(s, t.at[1], "buffer %" PRIu32 " is stored outside the flatbuffer (at "
                           "byte %" PRIu64 "); such models (over 2 GB) cannot be rewritten", k,
                           off);
    return AB_OK;
}

/* ==== 3. the copy ================================================================= */

static void put32(unsigned char *b, uint64_t p, uint32_t v) {
    for (int k = 0; k < 4; k++) b[p + (uint64_t)k] = (unsigned char)(v >> 8 * k);
}

static void put16(unsigned char *b, uint64_t p, uint16_t v) {
    b[p] = (unsigned char)v;
    b[p + 1] = (unsigned char)(v >> 8);
}

static uint64_t up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* What the old file holds, found by locate(). */
typedef struct old {
    ftab model;
    abf_fb_vec bufs, metas; /* the model's buffers and metadata (n 0 when absent) */
} old;

static ab_status locate(const abf_fb *s, old *o) {
    memset(o, 0, sizeof *o);
    TRY(open_table(s, abf_fb_u32(s, 0), "the model", &o->model));
    for (unsigned id = MODEL_FIELDS; id < o->model.nf; id++)
        if (o->model.at[id] != 0)
            return abf_fb_fail(s, o->model.at[id], "the model has field %u, which the schema "
                               "this writer knows (fields 0-7) has not; it cannot be rewritten "
                               "safely", id);
    uint64_t to;
    for (unsigned id = 1; id < MODEL_FIELDS && id < o->model.nf; id++)
        if (o->model.at[id] != 0) TRY(follow(s, o->model.at[id], "a field of the model", &to));
    if (o->model.at[FIELD_BUFFERS] != 0) {
        TRY(follow(s, o->model.at[FIELD_BUFFERS], "buffers", &to));
        TRY(abf_fb_vec_open(s, to, 4, "buffers", &o->bufs));
        for (uint32_t k = 0; k < o->bufs.n; k++) {
            uint64_t b;
            TRY(follow(s, o->bufs.data + 4 * (uint64_t)k, "a buffer", &b));
            TRY(inside(s, b, k));
        }
    }
    if (o->model.nf > FIELD_METADATA && o->model.at[FIELD_METADATA] != 0) {
        TRY(follow(s, o->model.at[FIELD_METADATA], "metadata", &to));
        TRY(abf_fb_vec_open(s, to, 4, "metadata", &o->metas));
    }
    return AB_OK;
}

/* Positions in the new front part (see tflite_offline.h). */
typedef struct layout {
    uint64_t model_vt, model, bufvec, metavec, meta_vt, meta, name, buf_vt, buf, data, front;
} layout;

static layout plan_layout(uint32_t nbuf, uint32_t nkeep, size_t n) {
    layout l;
    size_t name = strlen(ABF_TFLITE_OFFLINE_NAME);
    l.model_vt = 8;                                   /* 4 + 2 x 8 slots = 20 bytes */
    l.model = 28;                                     /* soffset + 8 fields of 4 bytes */
    l.bufvec = l.model + 4 + 4 * MODEL_FIELDS;
    l.metavec = l.bufvec + 4 + 4 * ((uint64_t)nbuf + 1);
    l.meta_vt = l.metavec + 4 + 4 * ((uint64_t)nkeep + 1); /* 8 bytes: 2 slots */
    l.meta = l.meta_vt + 8;                           /* soffset, name, buffer */
    l.name = l.meta + 12;
    l.buf_vt = up(l.name + 4 + name + 1, 4);          /* 6 bytes: 1 slot */
    l.buf = l.buf_vt + 8;                             /* soffset, data */
    l.data = up(l.buf + 8 + 4, 16) - 4;               /* the words start 16-aligned */
    l.front = up(l.data + 4 + 4 * (3 + (uint64_t)n), 16);
    return l;
}

/* Writes the reference at p (in the new file) to the new position to. */
static void ref_to(unsigned char *b, uint64_t p, uint64_t to) { put32(b, p, (uint32_t)(to - p)); }

static void write_front(unsigned char *b, const abf_fb *s, const old *o, const layout *l,
                        const int32_t *offsets, size_t n) {
    uint64_t S = l->front;
    put32(b, 0, (uint32_t)l->model);
    memcpy(b + 4, "TFL3", 4);
    /* the Model: vtable, then every field the old one had, plus buffers and metadata */
    put16(b, l->model_vt, 4 + 2 * MODEL_FIELDS);
    put16(b, l->model_vt + 2, 4 + 4 * MODEL_FIELDS);
    put32(b, l->model, (uint32_t)(l->model - l->model_vt));
    for (unsigned id = 0; id < MODEL_FIELDS; id++) {
        uint64_t at = l->model + 4 + 4 * id, was = id < o->model.nf ? o->model.at[id] : 0;
        bool present = was != 0 || id == FIELD_BUFFERS || id == FIELD_METADATA;
        put16(b, l->model_vt + 4 + 2 * id, present ? (uint16_t)(4 + 4 * id) : 0);
        if (id == FIELD_BUFFERS) ref_to(b, at, l->bufvec);
        else if (id == FIELD_METADATA) ref_to(b, at, l->metavec);
        else if (id == 0 && was) memcpy(b + at, s->b + was, 4); /* version: a scalar */
        else if (was) ref_to(b, at, S + was + abf_fb_u32(s, was));
    }
    /* buffers: the old ones, then ours */
    put32(b, l->bufvec, o->bufs.n + 1);
    for (uint32_t k = 0; k < o->bufs.n; k++) {
        uint64_t e = o->bufs.data + 4 * (uint64_t)k;
        ref_to(b, l->bufvec + 4 + 4 * (uint64_t)k, S + e + abf_fb_u32(s, e));
    }
    ref_to(b, l->bufvec + 4 + 4 * (uint64_t)o->bufs.n, l->buf);
    /* metadata: the old entries but an earlier offline plan, then ours */
    uint32_t kept = 0;
    for (uint32_t k = 0; k < o->metas.n; k++) {
        uint64_t e = o->metas.data + 4 * (uint64_t)k, to = e + abf_fb_u32(s, e);
        bool offline = false;
        (void)is_offline_entry(s, to, &offline); /* checked by count_kept */
        if (!offline) ref_to(b, l->metavec + 4 + 4 * (uint64_t)kept++, S + to);
    }
    put32(b, l->metavec, kept + 1);
    ref_to(b, l->metavec + 4 + 4 * (uint64_t)kept, l->meta);
    /* the Metadata entry: name, buffer index */
    put16(b, l->meta_vt, 8);
    put16(b, l->meta_vt + 2, 12);
    put16(b, l->meta_vt + 4, 4);
    put16(b, l->meta_vt + 6, 8);
    put32(b, l->meta, (uint32_t)(l->meta - l->meta_vt));
    ref_to(b, l->meta + 4, l->name);
    put32(b, l->meta + 8, o->bufs.n);
    put32(b, l->name, (uint32_t)strlen(ABF_TFLITE_OFFLINE_NAME));
    memcpy(b + l->name + 4, ABF_TFLITE_OFFLINE_NAME, strlen(ABF_TFLITE_OFFLINE_NAME) + 1);
    /* the Buffer: its data, the words */
    put16(b, l->buf_vt, 6);
    put16(b, l->buf_vt + 2, 8);
    put16(b, l->buf_vt + 4, 4);
    put32(b, l->buf, (uint32_t)(l->buf - l->buf_vt));
    ref_to(b, l->buf + 4, l->data);
    put32(b, l->data, (uint32_t)(4 * (3 + n)));
    put32(b, l->data + 4, OFFLINE_VERSION);
    put32(b, l->data + 8, 0); /* subgraph 0 */
    put32(b, l->data + 12, (uint32_t)n);
    for (size_t i = 0; i < n; i++) put32(b, l->data + 16 + 4 * (uint64_t)i, (uint32_t)offsets[i]);
}

/* The old metadata entries that stay (all but an earlier offline plan). */
static ab_status count_kept(const abf_fb *s, const old *o, uint32_t *kept) {
    *kept = 0;
    for (uint32_t k = 0; k < o->metas.n; k++) {
        uint64_t to;
        bool offline;
        TRY(follow(s, o->metas.data + 4 * (uint64_t)k, "a metadata entry", &to));
        TRY(is_offline_entry(s, to, &offline));
        *kept += !offline;
    }
    return AB_OK;
}

ab_status abf_tflite_offline_write(const char *file, const unsigned char *buf, size_t len,
                                   const int32_t *offsets, size_t n, ab_buf *out, ab_error *err) {
    abf_tflite_model m;
    ab_status st = abf_tflite_parse(file, buf, len, &m, err); /* the whole model is sound */
    size_t ntensors = m.ntensors;
    abf_tflite_model_free(&m);
    if (st != AB_OK) return st;
    abf_fb s = {.b = buf, .len = len, .file = file ? file : "<buffer>", .err = err};
    if (n != ntensors)
        return ab_fail(err, AB_EINPUT, "%s: an offline plan of %zu offsets for a subgraph of %zu "
                       "tensors", s.file, n, ntensors);
    old o;
    uint32_t kept;
    TRY(locate(&s, &o));
    TRY(count_kept(&s, &o, &kept));
    layout l = plan_layout(o.bufs.n, kept, n);
    if (l.front + len > UINT32_MAX)
        return ab_fail(err, AB_EINPUT, "%s: the model with its offline plan would pass the "
                       "flatbuffer limit of 4 GiB", s.file);
    unsigned char *b = ab_calloc(l.front + len, 1);
    if (b == NULL) return ab_fail(err, AB_ENOMEM, "out of memory copying %s", s.file);
    write_front(b, &s, &o, &l, offsets, n);
    memcpy(b + l.front, buf, len);
    ab_buf_append(out, (const char *)b, l.front + len);
    ab_free(b);
    return out->oom ? ab_fail(err, AB_ENOMEM, "out of memory copying %s", s.file) : AB_OK;
}

/* ---- the plan formats table's row (plan_formats.c) ---------------------------------- */

/* o's plan into a copy of the model o->model (read whole, never changed). */
static ab_status write_model_copy(const abf_plan_out *o, ab_buf *b, ab_error *err) {
    if (o->model == NULL)
        return ab_fail(err, AB_EINTERNAL, "tflm-offline writes into a copy of a model: none given");
    if (o->offsets == NULL && o->view->n > 0)
        return ab_fail(err, AB_EINTERNAL, "tflm-offline writes a checked plan: its offsets "
                       "were not given");
    char *bytes = NULL;
    size_t len = 0;
    int32_t *words = NULL;
    abf_tflite_model m;
    ab_status st = abf_read_input(o->model, &bytes, &len, err);
    if (st == AB_OK) {
        st = abf_tflite_parse(o->model, (const unsigned char *)bytes, len, &m, err);
        if (st == AB_OK) st = abf_tflite_offline_offsets(&m, o->view, o->offsets, &words, err);
        if (st == AB_OK)
            st = abf_tflite_offline_write(o->model, (const unsigned char *)bytes, len, words,
                                          m.ntensors, b, err);
        abf_tflite_model_free(&m);
    }
    ab_free(words);
    ab_free(bytes);
    return st;
}

const abf_plan_format abf_plan_format_tflm_offline = {
    .name = "tflm-offline",
    .summary = "a copy of the .tflite with TFLite Micro's offline memory plan",
    .write = write_model_copy,
    .flags = ABF_PLAN_FORMAT_TFLM_MODEL,
};
