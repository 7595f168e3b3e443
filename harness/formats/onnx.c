/*
 * onnx.c — the ONNX importer (onnx.h documents the format read and the rules
 * of the conversion).
 *
 *   1. read: ModelProto -> GraphProto -> initializers, inputs, nodes,
 *      outputs, value_info, through protowire.h (every failure names the
 *      byte offset and the field path), into values and nodes; the
 *      topological check; names interned in a hash table.
 *   2. infer: each node's output shapes and types (onnx_infer.c), checked
 *      against the declarations; small constant values carried for shapes.
 *   3. convert: live ranges, constant-derived tensors, sizes and the problem.
 */
#include "harness/formats/onnx.h"
#include "harness/formats/onnx_internal.h"
#include "harness/formats/formats.h"

#include "core/buf.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                     \
    do {                                                                                           \
        ab_status st_ = (x);                                                                       \
        if (st_ != AB_OK) return st_;                                                              \
    } while (0)

/* ==== element types ================================================================ */

static const struct {
    const char *name, *dtype; /* onnx.proto's name; the suite's dtype (NULL: size only) */
    int bits;                 /* 0: no fixed size */
} elem[] = {
    [ABF_ONNX_UNDEFINED] = {"UNDEFINED", NULL, 0},   [ABF_ONNX_FLOAT] = {"FLOAT", "float32", 32},
    [ABF_ONNX_UINT8] = {"UINT8", "uint8", 8},        [ABF_ONNX_INT8] = {"INT8", "int8", 8},
    [ABF_ONNX_UINT16] = {"UINT16", "uint16", 16},    [ABF_ONNX_INT16] = {"INT16", "int16", 16},
    [ABF_ONNX_INT32] = {"INT32", "int32", 32},       [ABF_ONNX_INT64] = {"INT64", "int64", 64},
    [ABF_ONNX_STRING] = {"STRING", NULL, 0},         [ABF_ONNX_BOOL] = {"BOOL", "bool", 8},
    [ABF_ONNX_FLOAT16] = {"FLOAT16", "float16", 16}, [ABF_ONNX_DOUBLE] = {"DOUBLE", "float64", 64},
    [ABF_ONNX_UINT32] = {"UINT32", "uint32", 32},    [ABF_ONNX_UINT64] = {"UINT64", "uint64", 64},
    [ABF_ONNX_COMPLEX64] = {"COMPLEX64", "complex64", 64},
    [ABF_ONNX_COMPLEX128] = {"COMPLEX128", "complex128", 128},
    [ABF_ONNX_BFLOAT16] = {"BFLOAT16", "bfloat16", 16},
    [ABF_ONNX_FLOAT8E4M3FN] = {"FLOAT8E4M3FN", NULL, 8},
    [ABF_ONNX_FLOAT8E4M3FNUZ] = {"FLOAT8E4M3FNUZ", NULL, 8},
    [ABF_ONNX_FLOAT8E5M2] = {"FLOAT8E5M2", NULL, 8},
    [ABF_ONNX_FLOAT8E5M2FNUZ] = {"FLOAT8E5M2FNUZ", NULL, 8},
    [ABF_ONNX_UINT4] = {"UINT4", "uint4", 4},        [ABF_ONNX_INT4] = {"INT4", "int4", 4},
    [ABF_ONNX_FLOAT4E2M1] = {"FLOAT4E2M1", NULL, 4}, [ABF_ONNX_FLOAT8E8M0] = {"FLOAT8E8M0", NULL, 8},
    [ABF_ONNX_UINT2] = {"UINT2", "uint2", 2},        [ABF_ONNX_INT2] = {"INT2", "int2", 2},
};
#define NELEM ((int)(sizeof elem / sizeof elem[0]))

const char *abf_onnx_type_name(int e) {
    return e >= 0 && e < NELEM ? elem[e].name : "unknown";
}

bool abf_ox_elem_is_int(int e) {
    return e == ABF_ONNX_INT64 || e == ABF_ONNX_INT32 || e == ABF_ONNX_INT16 ||
           e == ABF_ONNX_INT8 || e == ABF_ONNX_UINT8 || e == ABF_ONNX_UINT16 ||
           e == ABF_ONNX_UINT32 || e == ABF_ONNX_UINT64 || e == ABF_ONNX_BOOL;
}

bool abf_ox_elem_is_float(int e) { return e == ABF_ONNX_FLOAT || e == ABF_ONNX_DOUBLE; }

int64_t abf_ox_f2i(double x) {
    if (!(x == x)) return 0; /* NaN */
    if (x >= 9.2e18) return INT64_MAX;
    if (x <= -9.2e18) return INT64_MIN;
    return (int64_t)x;
}

/* ==== 1. reading ===================================================================== */

static void model_init(abf_onnx_model *m) { memset(m, 0, sizeof *m); }

void abf_onnx_model_free(abf_onnx_model *m) {
    if (m == NULL) return;
    for (size_t i = 0; i < m->nvalues && m->v != NULL; i++) {
        ab_free(m->v[i].name);
        ab_free(m->v[i].dims);
    }
    for (size_t i = 0; i < m->nnodes && m->nodes != NULL; i++) {
        abf_onnx_node *n = &m->nodes[i];
        ab_free(n->name);
        ab_free(n->op);
        ab_free(n->domain);
        ab_free(n->in);
        ab_free(n->out);
    }
    ab_free(m->v);
    ab_free(m->nodes);
    ab_free(m->inputs);
    ab_free(m->outputs);
    ab_free(m->file);
    model_init(m);
}

/* An ONNX file is a ModelProto: no magic. Its first field is nearly always
 * ir_version (field 1, varint: byte 0x08) with a small value, then
 * producer_name (0x12), opset_import (0x42) or graph (0x3A). */
static bool onnx_sniff(const unsigned char *head, size_t n) {
    if (n < 4 || head[0] != 0x08 || head[1] < 1 || head[1] > 0x7F) return false;
    return head[2] == 0x12 || head[2] == 0x1A || head[2] == 0x22 || head[2] == 0x28 ||
           head[2] == 0x32 || head[2] == 0x3A || head[2] == 0x42;
}

void abf_ox_ctx_free(abf_ox_ctx *c) {
    for (size_t i = 0; i < c->m->nvalues && c->vx != NULL; i++) {
        ab_free(c->vx[i].decl);
        ab_free(c->vx[i].param);
        ab_free(c->vx[i].nparam);
        ab_free(c->vx[i].val.iv);
        ab_free(c->vx[i].val.fv);
    }
    for (size_t i = 0; i < c->m->nnodes && c->nx != NULL; i++) {
        for (size_t k = 0; k < c->nx[i].na; k++) {
            abf_ox_attr *a = &c->nx[i].a[k];
            ab_free(a->ints);
            ab_free(a->floats);
            if (a->t != NULL) {
                ab_free(a->t->iv);
                ab_free(a->t->fv);
                ab_free(a->t);
            }
        }
        ab_free(c->nx[i].a);
    }
    ab_free(c->vx);
    ab_free(c->nx);
    ab_free(c->slots);
}

ab_status abf_ox_spend(abf_ox_ctx *c, size_t at, const char *path, uint64_t n) {
    if (n <= c->mem_left) {
        c->mem_left -= n;
        return AB_OK;
    }
    return abf_pw_fail(&c->r, at, path, "the model's nodes, values and attributes need more "
                       "memory than a file of %zu bytes may take (%d bytes a byte, plus 1 MiB): "
                       "not a model an exporter writes", c->r.len, ABF_OX_MEM_PER_BYTE);
}

/* ---- the name table ---------------------------------------------------------------- */

static uint64_t name_hash(const uint8_t *s, size_t n) { return ab_fnv1a(AB_FNV_OFFSET, s, n); }

static bool rehash(abf_ox_ctx *c, int bits) {
    size_t ns = (size_t)1 << bits;
    int32_t *slots = ab_alloc_array(ns, sizeof *slots);
    if (slots == NULL) return false;
    for (size_t k = 0; k < ns; k++) slots[k] = -1;
    for (size_t i = 0; i < c->m->nvalues; i++) {
        size_t s = ab_hash_slot(name_hash(c->vx[i].raw, c->vx[i].nraw), bits);
        while (slots[s] >= 0) s = (s + 1) & (ns - 1);
        slots[s] = (int32_t)i;
    }
    ab_free(c->slots);
    c->slots = slots;
    c->bits = bits;
    return true;
}

/* The value named by the n bytes at s, or -1. */
int32_t abf_ox_find(const abf_ox_ctx *c, const uint8_t *s, size_t n) {
    if (c->slots == NULL) return -1;
    size_t mask = ((size_t)1 << c->bits) - 1;
    for (size_t k = ab_hash_slot(name_hash(s, n), c->bits);; k = (k + 1) & mask) {
        int32_t i = c->slots[k];
        if (i < 0) return -1;
        if (c->vx[i].nraw == n && memcmp(c->vx[i].raw, s, n) == 0) return i;
    }
}

/* The value named by the n bytes at s (byte offset at), made when new. */
static ab_status intern(abf_ox_ctx *c, const uint8_t *s, size_t n, size_t at, int32_t *out) {
    abf_onnx_model *m = c->m;
    int32_t i = abf_ox_find(c, s, n);
    if (i >= 0) {
        *out = i;
        return AB_OK;
    }
    if (m->nvalues >= INT32_MAX - 1)
        return abf_pw_fail(&c->r, at, "graph", "more than 2^31 values");
    TRY(abf_ox_spend(c, at, "graph", 2 * (sizeof *m->v + sizeof *c->vx) + 4 * (uint64_t)n + 64));
    if (!ab_grow((void **)&m->v, &c->capv, m->nvalues + 1, sizeof *m->v) ||
        !ab_grow((void **)&c->vx, &c->capx, m->nvalues + 1, sizeof *c->vx))
        return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", m->file);
    i = (int32_t)m->nvalues;
    abf_onnx_value *v = &m->v[i];
    memset(v, 0, sizeof *v);
    memset(&c->vx[i], 0, sizeof c->vx[i]);
    v->rank = -1;
    v->writer = v->first = v->last = v->last_read = -1;
    v->at = at;
    c->vx[i].raw = s;
    c->vx[i].nraw = n;
    c->vx[i].decl_rank = -1;
    v->name = abf_clean_name(s, n);
    if (v->name == NULL) return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", m->file);
    m->nvalues++;
    if (2 * m->nvalues > ((size_t)1 << c->bits) || c->slots == NULL) {
        if (!rehash(c, c->bits < 4 ? 4 : c->bits + 1))
            return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", m->file);
    } else {
        size_t mask = ((size_t)1 << c->bits) - 1, k = ab_hash_slot(name_hash(s, n), c->bits);
        while (c->slots[k] >= 0) k = (k + 1) & mask;
        c->slots[k] = i;
    }
    *out = i;
    return AB_OK;
}

/* ---- messages ---------------------------------------------------------------------- */

/* Expects f to be of wire type w. */
static ab_status want(const abf_ox_ctx *c, const abf_pw_field *f, int w, const char *path,
                      const char *what) {
    if (f->wire == w) return AB_OK;
    return abf_pw_fail(&c->r, f->at, path, "%s (field %u): wire type %d, expected %d", what,
                       f->num, f->wire, w);
}

/* ---- TensorProto -------------------------------------------------------------------- */

/* Reads one little-endian element of type e at p as an integer or a double. */
static void raw_elem(int e, const uint8_t *p, int64_t *iv, double *fv) {
    uint64_t x = 0;
    int size = e == ABF_ONNX_INT64 || e == ABF_ONNX_UINT64 || e == ABF_ONNX_DOUBLE ? 8
               : e == ABF_ONNX_INT32 || e == ABF_ONNX_UINT32 || e == ABF_ONNX_FLOAT ? 4
               : e == ABF_ONNX_INT16 || e == ABF_ONNX_UINT16                        ? 2
                                                                                   : 1;
    for (int k = 0; k < size; k++) x |= (uint64_t)p[k] << (8 * k);
    switch (e) {
    case ABF_ONNX_INT64: *iv = (int64_t)x; break;
    case ABF_ONNX_UINT64: *iv = x > INT64_MAX ? INT64_MAX : (int64_t)x; break;
    case ABF_ONNX_INT32: *iv = (int32_t)(uint32_t)x; break;
    case ABF_ONNX_INT16: *iv = (int16_t)(uint16_t)x; break;
    case ABF_ONNX_INT8: *iv = (int8_t)(uint8_t)x; break;
    case ABF_ONNX_FLOAT: {
        float f;
        uint32_t u = (uint32_t)x;
        memcpy(&f, &u, 4);
        *fv = f;
        break;
    }
    case ABF_ONNX_DOUBLE: memcpy(fv, &x, 8); break;
    default: *iv = (int64_t)x; break; /* unsigned and bool */
    }
}

static int elem_bytes(int e) {
    return e == ABF_ONNX_INT64 || e == ABF_ONNX_UINT64 || e == ABF_ONNX_DOUBLE ? 8
           : e == ABF_ONNX_INT32 || e == ABF_ONNX_UINT32 || e == ABF_ONNX_FLOAT ? 4
           : e == ABF_ONNX_INT16 || e == ABF_ONNX_UINT16                        ? 2
                                                                               : 1;
}

/* Second pass over a TensorProto whose element count n is small and whose type
 * is an integer or float: its values into t (raw_data or the typed lists). */
static ab_status tensor_values(abf_ox_ctx *c, size_t pos, size_t end, const char *path,
                               abf_ox_tensor *t, int64_t n) {
    bool isint = abf_ox_elem_is_int(t->elem);
    TRY(abf_ox_spend(c, pos, path, 8 * (uint64_t)(n + 1)));
    t->iv = isint ? ab_calloc((size_t)(n ? n : 1), sizeof *t->iv) : NULL;
    t->fv = isint ? NULL : ab_calloc((size_t)(n ? n : 1), sizeof *t->fv);
    if (t->iv == NULL && t->fv == NULL)
        return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", c->m->file);
    size_t got = 0;
    abf_pw_field f;
    bool more;
    uint64_t buf[64];
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) break;
        if (f.num == 9 && f.wire == ABF_PW_LEN) { /* raw_data */
            int size = elem_bytes(t->elem);
            if (f.n != (size_t)n * (size_t)size)
                return abf_pw_fail(&c->r, f.at, path, "raw_data of %zu bytes for %" PRId64
                                   " elements of %s", f.n, n, abf_onnx_type_name(t->elem));
            for (int64_t k = 0; k < n; k++) {
                int64_t iv = 0;
                double fv = 0;
                raw_elem(t->elem, c->r.b + f.data + (size_t)k * (size_t)size, &iv, &fv);
                if (isint) t->iv[k] = iv;
                else t->fv[k] = fv;
            }
            got = (size_t)n;
            continue;
        }
        int size = f.num == 4 ? 4 : f.num == 10 ? 8 : f.num == 5 || f.num == 7 || f.num == 11 ? 0
                                                                                              : -1;
        if (size < 0) continue;
        size_t cnt;
        TRY(abf_pw_count(&c->r, &f, size, path, &cnt));
        if (cnt > (size_t)n - got)
            return abf_pw_fail(&c->r, f.at, path, "more values than its %" PRId64 " elements", n);
        for (size_t done = 0; done < cnt;) { /* packed lists are read 64 at a time */
            size_t chunk = cnt - done < 64 ? cnt - done : 64;
            abf_pw_field part = f;
            if (f.wire == ABF_PW_LEN && size > 0) {
                part.data = f.data + done * (size_t)size;
                part.n = chunk * (size_t)size;
            } else if (f.wire == ABF_PW_LEN) { /* varints: read all, then copy */
                uint64_t *all = ab_alloc_array(cnt, sizeof *all);
                if (all == NULL) return ab_fail(c->r.err, AB_ENOMEM, "out of memory");
                abf_pw_scalars(&c->r, &f, 0, all, cnt);
                for (size_t k = 0; k < cnt; k++) {
                    int64_t x = f.num == 5 ? (int32_t)(uint32_t)all[k] : (int64_t)all[k];
                    if (isint) t->iv[got + k] = x;
                    else t->fv[got + k] = (double)x;
                }
                ab_free(all);
                got += cnt;
                break;
            }
            abf_pw_scalars(&c->r, &part, size, buf, chunk);
            for (size_t k = 0; k < chunk; k++) {
                double fv = 0;
                int64_t iv = (int64_t)buf[k];
                if (f.num == 4) {
                    float fl;
                    uint32_t u = (uint32_t)buf[k];
                    memcpy(&fl, &u, 4);
                    fv = fl;
                    iv = abf_ox_f2i(fl);
                } else if (f.num == 10) {
                    memcpy(&fv, &buf[k], 8);
                    iv = abf_ox_f2i(fv);
                } else {
                    if (f.num == 5) iv = (int32_t)(uint32_t)buf[k];
                    fv = (double)iv;
                }
                if (isint) t->iv[got + k] = iv;
                else t->fv[got + k] = fv;
            }
            got += chunk;
            done += chunk;
        }
    }
    if (got != (size_t)n) {
        if (got == 0) { /* no data here (held elsewhere): its value stays unknown */
            ab_free(t->iv);
            ab_free(t->fv);
            t->iv = NULL;
            t->fv = NULL;
            return AB_OK;
        }
        return abf_pw_fail(&c->r, pos, path, "%zu values for %" PRId64 " elements", got, n);
    }
    t->known = true;
    t->n = (size_t)n;
    return AB_OK;
}

ab_status abf_ox_read_tensor(abf_ox_ctx *c, size_t pos, size_t end, const char *path, abf_ox_tensor *t) {
    memset(t, 0, sizeof *t);
    size_t start = pos;
    abf_pw_field f;
    bool more;
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) break;
        if (f.num == 1) { /* dims */
            size_t n;
            TRY(abf_pw_count(&c->r, &f, 0, path, &n));
            if (n > (size_t)(ABF_ONNX_MAX_RANK - t->rank))
                return abf_pw_fail(&c->r, f.at, path, "dims: more than %d dimensions",
                                   ABF_ONNX_MAX_RANK);
            uint64_t d[ABF_ONNX_MAX_RANK];
            abf_pw_scalars(&c->r, &f, 0, d, n);
            for (size_t k = 0; k < n; k++) {
                if ((int64_t)d[k] < 0 || (int64_t)d[k] > AB_MAX_SIZE)
                    return abf_pw_fail(&c->r, f.at, path, "dims: dimension %" PRId64
                                       " out of range", (int64_t)d[k]);
                t->dims[t->rank++] = (int64_t)d[k];
            }
        } else if (f.num == 2) {
            TRY(want(c, &f, ABF_PW_VARINT, path, "data_type"));
            t->elem = (int)(int32_t)f.v;
            t->elem_at = f.at;
        } else if (f.num == 8) {
            TRY(want(c, &f, ABF_PW_LEN, path, "name"));
            t->name = c->r.b + f.data;
            t->nname = f.n;
            t->has_name = true;
        } else if (f.num == 14) {
            TRY(want(c, &f, ABF_PW_VARINT, path, "data_location"));
            t->external = f.v == 1;
        } else if (f.num == 9 || f.num == 4 || f.num == 5 || f.num == 7 || f.num == 10 ||
                   f.num == 11 || f.num == 13 || f.num == 6) {
            continue; /* data: read below when small and needed */
        }
    }
    t->at = start;
    if (t->elem < 0 || t->elem >= NELEM)
        return abf_pw_fail(&c->r, t->elem_at ? t->elem_at : start, path,
                           "data_type %d is not an ONNX data type", t->elem);
    int64_t n = 1;
    for (int k = 0; k < t->rank; k++)
        if (ab_mul_ovf(n, t->dims[k], &n) || n > AB_MAX_SIZE)
            return abf_pw_fail(&c->r, start, path, "dims: too many elements");
    if (!t->external && n <= ABF_ONNX_MAX_VALUES &&
        (abf_ox_elem_is_int(t->elem) || abf_ox_elem_is_float(t->elem)))
        TRY(tensor_values(c, start, end, path, t, n));
    return AB_OK;
}

/* ---- ValueInfoProto ------------------------------------------------------------------- */

/* Reads a TensorShapeProto into vx's declaration. */
static ab_status read_shape(abf_ox_ctx *c, size_t pos, size_t end, const char *path, abf_ox_vx *x) {
    abf_pw_field f;
    bool more;
    int rank = 0;
    int64_t d[ABF_ONNX_MAX_RANK];
    const uint8_t *param[ABF_ONNX_MAX_RANK];
    size_t nparam[ABF_ONNX_MAX_RANK];
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) break;
        if (f.num != 1) continue;
        TRY(want(c, &f, ABF_PW_LEN, path, "dim"));
        if (rank == ABF_ONNX_MAX_RANK)
            return abf_pw_fail(&c->r, f.at, path, "more than %d dimensions", ABF_ONNX_MAX_RANK);
        d[rank] = -1;
        param[rank] = NULL;
        nparam[rank] = 0;
        size_t dp = f.data, de = f.data + f.n;
        abf_pw_field g;
        for (;;) {
            TRY(abf_pw_next(&c->r, &dp, de, path, &g, &more));
            if (!more) break;
            if (g.num == 1) {
                TRY(want(c, &g, ABF_PW_VARINT, path, "dim_value"));
                int64_t v = (int64_t)g.v;
                d[rank] = v >= 0 && v <= AB_MAX_SIZE ? v : -1; /* negative: unknown */
                param[rank] = NULL;
            } else if (g.num == 2) {
                TRY(want(c, &g, ABF_PW_LEN, path, "dim_param"));
                param[rank] = c->r.b + g.data;
                nparam[rank] = g.n;
                d[rank] = -1;
            }
        }
        rank++;
    }
    TRY(abf_ox_spend(c, pos, path, (uint64_t)(rank + 1) * 32 + 96));
    ab_free(x->decl); /* a repeated shape field: the last one holds */
    ab_free(x->param);
    ab_free(x->nparam);
    x->decl = ab_alloc_array((size_t)(rank ? rank : 1), sizeof *x->decl);
    x->param = ab_calloc((size_t)(rank ? rank : 1), sizeof *x->param);
    x->nparam = ab_calloc((size_t)(rank ? rank : 1), sizeof *x->nparam);
    if (x->decl == NULL || x->param == NULL || x->nparam == NULL)
        return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", c->m->file);
    memcpy(x->decl, d, (size_t)rank * sizeof *d);
    memcpy(x->param, param, (size_t)rank * sizeof *param);
    memcpy(x->nparam, nparam, (size_t)rank * sizeof *nparam);
    x->decl_rank = rank;
    return AB_OK;
}

/* Reads a ValueInfoProto: its value (made when make, else looked up: an
 * unknown name is ignored, *vi = -1) and its declared type and shape. */
static ab_status read_value_info(abf_ox_ctx *c, const abf_pw_field *vf, const char *path, bool make,
                                 int32_t *vi) {
    size_t pos = vf->data, end = vf->data + vf->n;
    abf_pw_field f;
    bool more, named = false;
    const uint8_t *name = NULL;
    size_t nname = 0, tpos = 0, tend = 0;
    bool has_type = false;
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) break;
        if (f.num == 1) {
            TRY(want(c, &f, ABF_PW_LEN, path, "name"));
            name = c->r.b + f.data;
            nname = f.n;
            named = true;
        } else if (f.num == 2) {
            TRY(want(c, &f, ABF_PW_LEN, path, "type"));
            tpos = f.data;
            tend = f.data + f.n;
            has_type = true;
        }
    }
    *vi = -1;
    if (!named || nname == 0) {
        if (!make) return AB_OK;
        return abf_pw_fail(&c->r, vf->at, path, "a graph input or output without a name");
    }
    if (make) TRY(intern(c, name, nname, vf->at, vi));
    else *vi = abf_ox_find(c, name, nname);
    if (*vi < 0 || !has_type) return AB_OK;
    abf_ox_vx *x = &c->vx[*vi];
    if (x->decl_rank >= 0 || x->non_tensor) return AB_OK; /* the first declaration holds */
    char tp[160];
    snprintf(tp, sizeof tp, "%s.type", path);
    bool tensor = false;
    for (;;) {
        TRY(abf_pw_next(&c->r, &tpos, tend, tp, &f, &more));
        if (!more) break;
        if (f.num == 1 || f.num == 8) { /* tensor_type, sparse_tensor_type */
            TRY(want(c, &f, ABF_PW_LEN, tp, "tensor_type"));
            tensor = true;
            size_t p2 = f.data, e2 = f.data + f.n;
            abf_pw_field g;
            char sp[200];
            snprintf(sp, sizeof sp, "%s.tensor_type", tp);
            for (;;) {
                TRY(abf_pw_next(&c->r, &p2, e2, sp, &g, &more));
                if (!more) break;
                if (g.num == 1) {
                    TRY(want(c, &g, ABF_PW_VARINT, sp, "elem_type"));
                    int e = (int)(int32_t)g.v;
                    if (e < 0 || e >= NELEM)
                        return abf_pw_fail(&c->r, g.at, sp, "elem_type %d is not an ONNX data "
                                           "type", e);
                    x->decl_elem = e;
                } else if (g.num == 2) {
                    TRY(want(c, &g, ABF_PW_LEN, sp, "shape"));
                    char shp[220];
                    snprintf(shp, sizeof shp, "%s.shape", sp);
                    TRY(read_shape(c, g.data, g.data + g.n, shp, x));
                }
            }
        } else if (f.num == 4 || f.num == 5 || f.num == 9) {
            x->non_tensor = true; /* sequence, map, optional */
        }
    }
    (void)tensor;
    return AB_OK;
}

/* ---- NodeProto ---------------------------------------------------------------------- */

static ab_status read_attr(abf_ox_ctx *c, const abf_pw_field *af, const char *path, abf_ox_attr *a) {
    size_t pos = af->data, end = af->data + af->n;
    abf_pw_field f;
    bool more;
    memset(a, 0, sizeof *a);
    a->at = af->at;
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) break;
        switch (f.num) {
        case 1:
            TRY(want(c, &f, ABF_PW_LEN, path, "name"));
            a->name = c->r.b + f.data;
            a->nname = f.n;
            break;
        case 20:
            TRY(want(c, &f, ABF_PW_VARINT, path, "type"));
            a->type = (int)(int32_t)f.v;
            break;
        case 2: {
            TRY(want(c, &f, ABF_PW_I32, path, "f"));
            float x;
            uint32_t u = (uint32_t)f.v;
            memcpy(&x, &u, 4);
            a->f = x;
            a->has |= ABF_OX_HAS_F;
            break;
        }
        case 3:
            TRY(want(c, &f, ABF_PW_VARINT, path, "i"));
            a->i = (int64_t)f.v;
            a->has |= ABF_OX_HAS_I;
            break;
        case 4:
            TRY(want(c, &f, ABF_PW_LEN, path, "s"));
            a->s = c->r.b + f.data;
            a->ns = f.n;
            a->has |= ABF_OX_HAS_S;
            break;
        case 5: {
            TRY(want(c, &f, ABF_PW_LEN, path, "t"));
            char tp[200];
            snprintf(tp, sizeof tp, "%s.t", path);
            if (a->t == NULL) {
                TRY(abf_ox_spend(c, f.at, path, sizeof *a->t));
                if ((a->t = ab_calloc(1, sizeof *a->t)) == NULL)
                    return ab_fail(c->r.err, AB_ENOMEM, "out of memory");
            }
            ab_free(a->t->iv);
            ab_free(a->t->fv);
            TRY(abf_ox_read_tensor(c, f.data, f.data + f.n, tp, a->t));
            a->has |= ABF_OX_HAS_T;
            break;
        }
        case 6:
        case 11:
            a->has |= ABF_OX_HAS_GRAPH;
            break;
        case 7:
        case 8: {
            int size = f.num == 7 ? 4 : 0;
            size_t n;
            TRY(abf_pw_count(&c->r, &f, size, path, &n));
            size_t have = f.num == 7 ? a->nfloats : a->nints;
            if (have + n > ABF_OX_MAX_ATTR_LIST) {
                a->long_list = true; /* an error only where it is used */
                break;
            }
            TRY(abf_ox_spend(c, f.at, path, (have + n) * 8 + 32));
            uint64_t raw[ABF_OX_MAX_ATTR_LIST];
            abf_pw_scalars(&c->r, &f, size, raw, n);
            if (f.num == 8) {
                int64_t *p = ab_realloc_array(a->ints, have + n ? have + n : 1, sizeof *p);
                if (p == NULL) return ab_fail(c->r.err, AB_ENOMEM, "out of memory");
                for (size_t k = 0; k < n; k++) p[have + k] = (int64_t)raw[k];
                a->ints = p;
                a->nints = have + n;
                a->has |= ABF_OX_HAS_INTS;
            } else {
                double *p = ab_realloc_array(a->floats, have + n ? have + n : 1, sizeof *p);
                if (p == NULL) return ab_fail(c->r.err, AB_ENOMEM, "out of memory");
                for (size_t k = 0; k < n; k++) {
                    float x;
                    uint32_t u = (uint32_t)raw[k];
                    memcpy(&x, &u, 4);
                    p[have + k] = x;
                }
                a->floats = p;
                a->nfloats = have + n;
                a->has |= ABF_OX_HAS_FLOATS;
            }
            break;
        }
        default:
            break;
        }
    }
    if (a->type == 5 || a->type == 10) a->has |= ABF_OX_HAS_GRAPH;
    return AB_OK;
}

/* "node 3 'conv1' (Conv)" for messages. */
void abf_ox_node_what(const abf_onnx_model *m, size_t k, char *out, size_t cap) {
    const abf_onnx_node *n = &m->nodes[k];
    if (n->name != NULL && n->name[0] != '\0')
        snprintf(out, cap, "node %zu '%.100s' (%.60s)", k, n->name, n->op ? n->op : "?");
    else
        snprintf(out, cap, "node %zu (%.60s)", k, n->op ? n->op : "?");
}

/* Reads node k's string list field (inputs or outputs) into value indices. */
static ab_status node_names(abf_ox_ctx *c, size_t pos, size_t end, const char *path, uint32_t num,
                            bool output, size_t k, int32_t **out, size_t *n) {
    abf_onnx_model *m = c->m;
    abf_pw_field f;
    bool more;
    size_t cnt = 0, p = pos;
    for (;;) {
        TRY(abf_pw_next(&c->r, &p, end, path, &f, &more));
        if (!more) break;
        if (f.num == num) cnt++;
    }
    if (cnt > ABF_OX_MAX_NODE_LIST) {
        char what[200];
        abf_ox_node_what(m, k, what, sizeof what);
        return abf_pw_fail(&c->r, pos, path, "%s: %zu %s, more than %d", what, cnt,
                           output ? "outputs" : "inputs", ABF_OX_MAX_NODE_LIST);
    }
    TRY(abf_ox_spend(c, pos, path, (cnt + 1) * sizeof **out + 32));
    *out = ab_alloc_array(cnt ? cnt : 1, sizeof **out);
    if (*out == NULL) return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", m->file);
    *n = 0;
    for (p = pos;;) {
        TRY(abf_pw_next(&c->r, &p, end, path, &f, &more));
        if (!more) break;
        if (f.num != num) continue;
        TRY(want(c, &f, ABF_PW_LEN, path, output ? "output" : "input"));
        int32_t vi = -1;
        if (f.n > 0) {
            char what[200];
            if (output) {
                TRY(intern(c, c->r.b + f.data, f.n, f.at, &vi));
                abf_onnx_value *v = &m->v[vi];
                if (v->writer >= 0 || (v->flags & (ABF_ONNX_INPUT | ABF_ONNX_CONSTANT))) {
                    abf_ox_node_what(m, k, what, sizeof what);
                    return abf_pw_fail(&c->r, f.at, path, "%s: output '%s' is already %s", what,
                                       v->name, v->writer >= 0 ? "written by an earlier node"
                                       : v->flags & ABF_ONNX_INPUT ? "a graph input"
                                                                   : "an initializer");
                }
                v->writer = (int64_t)k;
            } else {
                vi = abf_ox_find(c, c->r.b + f.data, f.n);
                bool ok = vi >= 0 && (m->v[vi].writer >= 0 ||
                                      (m->v[vi].flags & (ABF_ONNX_INPUT | ABF_ONNX_CONSTANT)));
                if (!ok) {
                    abf_ox_node_what(m, k, what, sizeof what);
                    char *nm = abf_clean_name(c->r.b + f.data, f.n);
                    ab_status st = abf_pw_fail(
                        &c->r, f.at, path, "%s: input '%s' is not a graph input, an initializer "
                        "or the output of an earlier node (the nodes must be in topological "
                        "order)", what, nm ? nm : "?");
                    ab_free(nm);
                    return st;
                }
            }
        }
        (*out)[(*n)++] = vi;
    }
    return AB_OK;
}

static char *str_field(abf_ox_ctx *c, const uint8_t *s, size_t n) { return abf_clean_name(s, n); }

static ab_status read_node(abf_ox_ctx *c, const abf_pw_field *nf, size_t k) {
    abf_onnx_model *m = c->m;
    abf_onnx_node *n = &m->nodes[k];
    abf_ox_nx *x = &c->nx[k];
    char path[96];
    snprintf(path, sizeof path, "graph.node[%zu]", k);
    n->at = nf->at;
    size_t pos = nf->data, end = nf->data + nf->n;
    abf_pw_field f;
    bool more;
    const uint8_t *name = NULL, *op = NULL, *dom = NULL;
    size_t nname = 0, nop = 0, ndom = 0, nattr = 0;
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) break;
        if (f.num == 3 || f.num == 4 || f.num == 7 || f.num == 5)
            TRY(want(c, &f, ABF_PW_LEN, path, f.num == 3 ? "name" : f.num == 4 ? "op_type"
                                              : f.num == 7 ? "domain" : "attribute"));
        if (f.num == 3) name = c->r.b + f.data, nname = f.n;
        if (f.num == 4) op = c->r.b + f.data, nop = f.n;
        if (f.num == 7) dom = c->r.b + f.data, ndom = f.n;
        if (f.num == 5) nattr++;
    }
    TRY(abf_ox_spend(c, nf->at, path, sizeof *n + sizeof *x + 4 * ((uint64_t)nname + nop + ndom) +
                                      192 + nattr * sizeof *x->a));
    n->name = str_field(c, name ? name : (const uint8_t *)"", nname);
    n->op = str_field(c, op ? op : (const uint8_t *)"", nop);
    n->domain = str_field(c, dom ? dom : (const uint8_t *)"", ndom);
    x->a = ab_calloc(nattr ? nattr : 1, sizeof *x->a);
    if (n->name == NULL || n->op == NULL || n->domain == NULL || x->a == NULL)
        return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", m->file);
    char what[200];
    abf_ox_node_what(m, k, what, sizeof what);
    if (nop == 0) return abf_pw_fail(&c->r, nf->at, path, "%s: no op_type", what);
    for (pos = nf->data;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) break;
        if (f.num != 5) continue;
        char ap[128];
        snprintf(ap, sizeof ap, "%s.attribute[%zu]", path, x->na);
        abf_ox_attr *a = &x->a[x->na++];
        TRY(read_attr(c, &f, ap, a));
        if (a->has & ABF_OX_HAS_GRAPH) {
            char *an = abf_clean_name(a->name ? a->name : (const uint8_t *)"", a->nname);
            ab_status st = abf_pw_fail(&c->r, f.at, ap, "%s: attribute '%s' holds a subgraph: "
                                       "control flow (If, Loop, Scan) is not imported", what,
                                       an ? an : "?");
            ab_free(an);
            return st;
        }
    }
    TRY(node_names(c, nf->data, end, path, 1, false, k, &n->in, &n->nin));
    TRY(node_names(c, nf->data, end, path, 2, true, k, &n->out, &n->nout));
    return AB_OK;
}

/* ---- GraphProto and ModelProto ------------------------------------------------------- */

/* Counts the fields numbered num of the message [pos, end). */
static ab_status count_fields(abf_ox_ctx *c, size_t pos, size_t end, const char *path, uint32_t num,
                              size_t *n) {
    abf_pw_field f;
    bool more;
    *n = 0;
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, path, &f, &more));
        if (!more) return AB_OK;
        if (f.num == num) {
            TRY(want(c, &f, ABF_PW_LEN, path, "a repeated message"));
            (*n)++;
        }
    }
}

static ab_status read_initializer(abf_ox_ctx *c, const abf_pw_field *f, size_t k, bool sparse) {
    char path[96];
    snprintf(path, sizeof path, "graph.%s[%zu]", sparse ? "sparse_initializer" : "initializer", k);
    abf_ox_tensor t;
    ab_status st;
    if (!sparse) {
        st = abf_ox_read_tensor(c, f->data, f->data + f->n, path, &t);
    } else { /* SparseTensorProto: 1 values (a TensorProto with the name), 3 dims */
        memset(&t, 0, sizeof t);
        size_t pos = f->data, end = f->data + f->n;
        abf_pw_field g;
        bool more;
        abf_ox_tensor vals;
        memset(&vals, 0, sizeof vals);
        st = AB_OK;
        while (st == AB_OK) {
            st = abf_pw_next(&c->r, &pos, end, path, &g, &more);
            if (st != AB_OK || !more) break;
            if (g.num == 1 && g.wire == ABF_PW_LEN) {
                ab_free(vals.iv);
                ab_free(vals.fv);
                st = abf_ox_read_tensor(c, g.data, g.data + g.n, path, &vals);
                t.elem = vals.elem;
                t.name = vals.name;
                t.nname = vals.nname;
                t.has_name = vals.has_name;
            } else if (g.num == 3) {
                size_t n;
                uint64_t d[ABF_ONNX_MAX_RANK];
                st = abf_pw_count(&c->r, &g, 0, path, &n);
                if (st == AB_OK && n > (size_t)(ABF_ONNX_MAX_RANK - t.rank))
                    st = abf_pw_fail(&c->r, g.at, path, "dims: more than %d dimensions",
                                     ABF_ONNX_MAX_RANK);
                if (st != AB_OK) break;
                abf_pw_scalars(&c->r, &g, 0, d, n);
                for (size_t q = 0; q < n; q++) t.dims[t.rank++] = (int64_t)d[q];
            }
        }
        ab_free(vals.iv);
        ab_free(vals.fv);
    }
    if (st == AB_OK && (!t.has_name || t.nname == 0))
        st = abf_pw_fail(&c->r, f->at, path, "an initializer without a name");
    int32_t vi = -1;
    if (st == AB_OK) st = intern(c, t.name, t.nname, f->at, &vi);
    if (st == AB_OK && (c->m->v[vi].flags & ABF_ONNX_CONSTANT))
        st = abf_pw_fail(&c->r, f->at, path, "initializer '%s' is given twice", c->m->v[vi].name);
    if (st != AB_OK) {
        ab_free(t.iv);
        ab_free(t.fv);
        return st;
    }
    abf_onnx_value *v = &c->m->v[vi];
    st = abf_ox_spend(c, f->at, path, 8 * (uint64_t)t.rank + 16);
    if (st != AB_OK) {
        ab_free(t.iv);
        ab_free(t.fv);
        return st;
    }
    v->flags |= ABF_ONNX_CONSTANT;
    v->elem = t.elem;
    v->rank = t.rank;
    v->dims = ab_alloc_array((size_t)(t.rank ? t.rank : 1), sizeof *v->dims);
    if (v->dims == NULL) {
        ab_free(t.iv);
        ab_free(t.fv);
        return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", c->m->file);
    }
    memcpy(v->dims, t.dims, (size_t)t.rank * sizeof *t.dims);
    abf_ox_val *val = &c->vx[vi].val;
    val->known = t.known;
    val->n = t.n;
    val->iv = t.iv;
    val->fv = t.fv;
    return AB_OK;
}

static ab_status read_graph(abf_ox_ctx *c, size_t gpos, size_t gend) {
    abf_onnx_model *m = c->m;
    const char *path = "graph";
    abf_pw_field f;
    bool more;
    size_t pos, k;
    /* initializers first, then inputs, nodes, outputs, value_info */
    for (int pass = 0; pass < 6; pass++) {
        static const uint32_t nums[6] = {5, 15, 11, 1, 12, 13};
        uint32_t num = nums[pass];
        if (num == 1) {
            size_t n;
            TRY(count_fields(c, gpos, gend, path, 1, &n));
            m->nodes = ab_calloc(n ? n : 1, sizeof *m->nodes);
            c->nx = ab_calloc(n ? n : 1, sizeof *c->nx);
            if (m->nodes == NULL || c->nx == NULL)
                return ab_fail(c->r.err, AB_ENOMEM, "out of memory reading %s", m->file);
        }
        if (num == 11 || num == 12) {
            size_t n;
            TRY(count_fields(c, gpos, gend, path, num, &n));
            int32_t **list = num == 11 ? &m->inputs : &m->outputs;
            *list = ab_alloc_array(n ? n : 1, sizeof **list);
            if (*list == NULL) return ab_fail(c->r.err, AB_ENOMEM, "out of memory");
        }
        for (pos = gpos, k = 0;;) {
            TRY(abf_pw_next(&c->r, &pos, gend, path, &f, &more));
            if (!more) break;
            if (f.num != num) continue;
            TRY(want(c, &f, ABF_PW_LEN, path, "a repeated message"));
            char p[96];
            int32_t vi;
            switch (num) {
            case 5: TRY(read_initializer(c, &f, k, false)); break;
            case 15: TRY(read_initializer(c, &f, k, true)); break;
            case 1:
                m->nnodes = k + 1;
                TRY(read_node(c, &f, k));
                break;
            case 11:
                snprintf(p, sizeof p, "graph.input[%zu]", k);
                TRY(read_value_info(c, &f, p, true, &vi));
                if (!(m->v[vi].flags & ABF_ONNX_CONSTANT)) m->v[vi].flags |= ABF_ONNX_INPUT;
                m->inputs[m->ninputs++] = vi;
                break;
            case 12:
                snprintf(p, sizeof p, "graph.output[%zu]", k);
                TRY(read_value_info(c, &f, p, false, &vi));
                if (vi < 0 || (m->v[vi].writer < 0 && !(m->v[vi].flags & (ABF_ONNX_INPUT |
                                                                          ABF_ONNX_CONSTANT))))
                    return abf_pw_fail(&c->r, f.at, p, "graph output %s is produced by no node, "
                                       "nor a graph input or initializer",
                                       vi >= 0 ? m->v[vi].name : "(unnamed)");
                m->v[vi].flags |= ABF_ONNX_OUTPUT;
                m->outputs[m->noutputs++] = vi;
                break;
            case 13:
                snprintf(p, sizeof p, "graph.value_info[%zu]", k);
                TRY(read_value_info(c, &f, p, false, &vi));
                break;
            }
            k++;
        }
    }
    return AB_OK;
}

static ab_status read_model(abf_ox_ctx *c) {
    size_t pos = 0, end = c->r.len;
    abf_pw_field f;
    bool more;
    size_t gpos = 0, gend = 0;
    bool graph = false;
    for (;;) {
        TRY(abf_pw_next(&c->r, &pos, end, "model", &f, &more));
        if (!more) break;
        if (f.num == 7) {
            TRY(want(c, &f, ABF_PW_LEN, "model", "graph"));
            if (graph)
                return abf_pw_fail(&c->r, f.at, "model", "a second graph (field 7) in the model");
            graph = true;
            gpos = f.data;
            gend = f.data + f.n;
        } else if (f.num == 8) {
            TRY(want(c, &f, ABF_PW_LEN, "model", "opset_import"));
            size_t p = f.data, e = f.data + f.n;
            abf_pw_field g;
            bool dflt = true;
            int64_t version = 0;
            for (;;) {
                TRY(abf_pw_next(&c->r, &p, e, "model.opset_import", &g, &more));
                if (!more) break;
                if (g.num == 1 && g.wire == ABF_PW_LEN)
                    dflt = g.n == 0 || (g.n == 7 && memcmp(c->r.b + g.data, "ai.onnx", 7) == 0);
                if (g.num == 2 && g.wire == ABF_PW_VARINT) version = (int64_t)g.v;
            }
            if (dflt) c->m->opset = version;
        }
    }
    if (!graph)
        return abf_pw_fail(&c->r, 0, "model", "no graph (field 7): not an ONNX model, or an "
                           "empty one");
    return read_graph(c, gpos, gend);
}

static char **value_name(void *m, size_t i) { return &((abf_onnx_model *)m)->v[i].name; }

/* Makes names unique: cleaning may make two names equal (one holding the text
 * "\x01", one the byte 1); every repeat after the first gets "#<index>". */
static ab_status unique_names(abf_ox_ctx *c) {
    abf_onnx_model *m = c->m;
    size_t dup = 0, first = 0;
    ab_status st = ab_names_make_unique(m->nvalues, value_name, m, &dup, &first);
    if (st == AB_ENOMEM) return ab_fail(c->r.err, AB_ENOMEM, "out of memory renaming values");
    if (st != AB_OK)
        return abf_pw_fail(&c->r, m->v[dup].at, "graph", "value %zu: its name '%s' cannot be "
                           "made unique (value %zu has it too)", dup, m->v[dup].name, first);
    return AB_OK;
}

/* ==== 3. conversion ================================================================ */

#define NOT_DERIVED (1u << 15)

static void touch(abf_onnx_model *m, int32_t x, int64_t i, bool read, bool write) {
    if (x < 0) return;
    abf_onnx_value *t = &m->v[x];
    if (t->first < 0) t->first = i;
    t->last = i;
    if (read) t->last_read = i;
    if (write && t->writer < 0) t->writer = i;
}

static void mark_uses(abf_onnx_model *m) {
    for (size_t i = 0; i < m->nvalues; i++) {
        abf_onnx_value *t = &m->v[i];
        t->flags &= ~(ABF_ONNX_DERIVED | ABF_ONNX_DEAD | ABF_ONNX_UNUSED | NOT_DERIVED);
        t->first = t->last = t->last_read = -1;
        t->writer = -1;
    }
    for (size_t k = 0; k < m->nnodes; k++) {
        const abf_onnx_node *n = &m->nodes[k];
        for (size_t j = 0; j < n->nin; j++) touch(m, n->in[j], (int64_t)k, true, false);
        for (size_t j = 0; j < n->nout; j++) touch(m, n->out[j], (int64_t)k, false, true);
    }
}

static void mark_derived(abf_onnx_model *m) {
    const unsigned fixed = ABF_ONNX_CONSTANT | ABF_ONNX_INPUT;
    for (size_t k = 0; k < m->nnodes; k++) {
        const abf_onnx_node *n = &m->nodes[k];
        size_t present = 0;
        bool from_constants = true;
        for (size_t j = 0; j < n->nin; j++) {
            if (n->in[j] < 0) continue;
            present++;
            unsigned f = m->v[n->in[j]].flags;
            if (!(f & ABF_ONNX_CONSTANT) && !(f & ABF_ONNX_DERIVED)) from_constants = false;
        }
        from_constants = from_constants && present > 0;
        for (size_t j = 0; j < n->nout; j++) {
            if (n->out[j] < 0) continue;
            abf_onnx_value *t = &m->v[n->out[j]];
            if (!from_constants || (t->flags & fixed)) t->flags = (t->flags & ~ABF_ONNX_DERIVED) | NOT_DERIVED;
            else if (!(t->flags & NOT_DERIVED)) t->flags |= ABF_ONNX_DERIVED;
        }
    }
    for (size_t i = 0; i < m->nvalues; i++) m->v[i].flags &= ~NOT_DERIVED;
}

static bool planned(abf_onnx_model *m, abf_onnx_value *t, const abf_onnx_options *o) {
    unsigned f = t->flags;
    if (f & ABF_ONNX_CONSTANT) {
        m->nconstant++;
        return false;
    }
    if (t->first < 0 && !(f & (ABF_ONNX_INPUT | ABF_ONNX_OUTPUT))) {
        t->flags |= ABF_ONNX_UNUSED;
        m->nunused++;
        return false;
    }
    if (t->writer >= 0 && t->last_read < 0 && !(f & ABF_ONNX_OUTPUT)) {
        t->flags |= ABF_ONNX_DEAD;
        m->ndead++;
    }
    if (f & ABF_ONNX_DERIVED) m->nderived++;
    if ((f & ABF_ONNX_DERIVED) && o->fold_constants && !(f & ABF_ONNX_OUTPUT)) return false;
    for (int k = 0; k < t->rank; k++)
        if (t->dims[k] == 0) t->flags |= ABF_ONNX_EMPTY;
    if (t->flags & ABF_ONNX_EMPTY) {
        m->nempty++;
        return false;
    }
    return true;
}

static ab_status add_value(abf_onnx_model *m, size_t i, ab_problem *p, size_t *nin, size_t *nout,
                           ab_error *err) {
    const abf_onnx_value *t = &m->v[i];
    int64_t last_op = m->nnodes > 0 ? (int64_t)m->nnodes - 1 : 0;
    unsigned f = t->flags;
    int e = t->elem;
    if (e <= 0 || e >= NELEM || elem[e].bits == 0)
        return ab_fail(err, AB_EINPUT, "%s: tensor '%s': type %s (%d) has no fixed element size, "
                       "so the tensor cannot be planned", m->file, t->name, abf_onnx_type_name(e),
                       e);
    if (t->rank < 0)
        return ab_fail(err, AB_EINPUT, "%s: tensor '%s': no shape", m->file, t->name);
    int64_t bits = elem[e].bits;
    for (int k = 0; k < t->rank; k++)
        if (ab_mul_ovf(bits, t->dims[k], &bits) || bits / 8 >= AB_MAX_SIZE)
            return ab_fail(err, AB_EINPUT, "%s: tensor '%s': shape x element bits is too large "
                           "(more than 2^62 bytes)", m->file, t->name);
    ab_tensor a = {.name = t->name, .align = p->alignment, .offset = AB_NONE};
    a.logical_bits = bits;
    a.size = bits / 8 + (bits % 8 != 0);
    a.dtype = elem[e].dtype ? ab_dtype_find(elem[e].dtype) : NULL;
    a.ndim = a.dtype ? t->rank : 0;
    a.shape = a.dtype ? t->dims : NULL;
    abf_model_live_range(&a, f & ABF_ONNX_INPUT, f & ABF_ONNX_OUTPUT, false, t->first, t->last,
                         last_op, nin, nout);
    return ab_problem_add(p, &a, err);
}

static char *describe(const abf_onnx_model *m, const abf_onnx_options *o, size_t nin,
                      size_t nout) {
    char *file = abf_model_file_label(m->file);
    if (file == NULL) return NULL;
    ab_buf t = {0};
    ab_buf_printf(&t, "Imported from the ONNX model %s (opset %" PRId64 "): %zu values, %zu nodes; "
                  "live ranges in node indices. %zu activations planned (%zu inputs, %zu "
                  "outputs); %zu constant tensors (initializers, Constant nodes) left out; "
                  "shapes of %zu node outputs inferred, %zu taken as declared",
                  file, m->opset, m->nvalues, m->nnodes, m->nactivations, nin, nout,
                  m->nconstant, m->ninferred, m->ndeclared);
    ab_free(file);
    abf_model_counts c = {m->nderived, m->ndead, m->nunused, m->nempty};
    abf_model_describe_tail(&t, &c, o->fold_constants, o->ndims, o->assume_dynamic, "symbolic");
    if (t.oom) {
        ab_buf_free(&t);
        return NULL;
    }
    return t.s;
}

static ab_status convert(abf_onnx_model *m, const abf_onnx_options *o, ab_problem *p,
                         ab_error *err) {
    m->nconstant = m->nderived = m->ndead = m->nunused = m->nempty = m->nactivations = 0;
    mark_uses(m);
    mark_derived(m);
    size_t nin = 0, nout = 0;
    ab_status st = AB_OK;
    for (size_t i = 0; i < m->nvalues && st == AB_OK; i++)
        if (planned(m, &m->v[i], o)) st = add_value(m, i, p, &nin, &nout, err);
    m->nactivations = p->n;
    if (st == AB_OK) {
        p->name = abf_model_suite_name(m->file, "onnx");
        p->description = describe(m, o, nin, nout);
        if (p->name == NULL || p->description == NULL)
            st = ab_fail(err, AB_ENOMEM, "out of memory importing %s", m->file);
    }
    return st;
}

/* ==== the entry points ================================================================ */

ab_status abf_onnx_import(const char *file, const unsigned char *buf, size_t len,
                          const abf_onnx_options *opt, ab_problem *p, abf_onnx_model *m,
                          ab_error *err) {
    static const abf_onnx_options defaults;
    const abf_onnx_options *o = opt ? opt : &defaults;
    abf_onnx_model own;
    abf_onnx_model *mm = m ? m : &own;
    model_init(mm);
    ab_problem_init(p);
    abf_ox_ctx c = {.r = {.file = file ? file : "<buffer>", .b = buf, .len = len, .err = err},
                 .m = mm, .o = o,
                 .mem_left = ABF_OX_MEM_PER_BYTE * (uint64_t)len + (1u << 20),
                 .values_left = 16 * (uint64_t)len + 65536};
    mm->file = ab_strdup(c.r.file);
    ab_status st = mm->file ? AB_OK : ab_fail(err, AB_ENOMEM, "out of memory");
    if (st == AB_OK) st = read_model(&c);
    if (st == AB_OK) st = unique_names(&c);
    if (st == AB_OK) st = abf_ox_infer(&c);
    abf_ox_ctx_free(&c);
    if (st == AB_OK) st = convert(mm, o, p, err);
    if (st != AB_OK) ab_problem_free(p);
    if (m == NULL) abf_onnx_model_free(&own);
    return st;
}

ab_status abf_onnx_load(const char *path, const abf_onnx_options *opt, ab_problem *p,
                        abf_onnx_model *m, ab_error *err) {
    char *buf;
    size_t len;
    ab_problem_init(p);
    if (m != NULL) model_init(m);
    ab_status st = abf_read_input(path, &buf, &len, err);
    if (st == AB_OK) st = abf_onnx_import(path, (const unsigned char *)buf, len, opt, p, m, err);
    ab_free(buf);
    if (st == AB_OK && (p->source = ab_strdup(path)) == NULL)
        st = ab_fail(err, AB_ENOMEM, "out of memory importing %s", path);
    if (st != AB_OK) ab_problem_free(p);
    return st;
}

static ab_status load_onnx(const char *path, const abf_load_options *o, ab_problem *p,
                           ab_error *err) {
    abf_onnx_options oo = {.fold_constants = o->fold_constants,
                           .dims = o->dims,
                           .ndims = o->ndims,
                           .assume_dynamic = o->assume_dynamic};
    return abf_onnx_load(path, &oo, p, NULL, err);
}

static const char *const onnx_suffixes[] = {".onnx", NULL};

/* The formats table's row (formats.c): by name, or by its usual first bytes. */
const abf_format abf_format_onnx = {"onnx", "ONNX model", onnx_suffixes, onnx_sniff,
                                    ABF_FORMAT_MODEL_OPTS, load_onnx, NULL};
