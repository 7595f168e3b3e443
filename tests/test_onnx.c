/*
 * test_onnx.c — the ONNX importer (harness/formats/onnx.c, onnx_infer.c,
 * protowire.c) and `import`/`plan` on .onnx files.
 *
 * Models are built byte by byte here by a tiny protobuf writer (pb_*), so
 * every field number and encoding is written by hand: packed and unpacked
 * lists, each malformed encoding the reader refuses, the topological and
 * subgraph refusals, shape inference per operator family, symbolic
 * dimensions. Then: truncation at every length, seeded byte flips, the node
 * tests of Debian's libonnx-testdata (skipped when absent) and python3-onnx's
 * own shape inference (skipped when absent), and the command.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/formats.h"
#include "harness/formats/onnx.h"
#include "harness/formats/suite.h"
#include "tests/support.h"

/* ---- a protobuf writer ------------------------------------------------------------ */

typedef struct pb {
    uint8_t *b;
    size_t n, cap;
} pb;

static pb *pb_new(void) {
    pb *p = calloc(1, sizeof *p);
    p->cap = 256;
    p->b = malloc(p->cap);
    return p;
}

static void pb_free(pb *p) {
    if (p) free(p->b);
    free(p);
}

static void pb_byte(pb *p, uint8_t v) {
    if (p->n == p->cap) p->b = realloc(p->b, p->cap *= 2);
    p->b[p->n++] = v;
}

static void pb_raw(pb *p, const void *s, size_t n) {
    for (size_t k = 0; k < n; k++) pb_byte(p, ((const uint8_t *)s)[k]);
}

static void pb_varint(pb *p, uint64_t v) {
    while (v >= 0x80) {
        pb_byte(p, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    pb_byte(p, (uint8_t)v);
}

static void pb_tag(pb *p, unsigned num, int wire) { pb_varint(p, (uint64_t)num << 3 | (unsigned)wire); }

static void pb_int(pb *p, unsigned num, int64_t v) {
    pb_tag(p, num, 0);
    pb_varint(p, (uint64_t)v);
}

static void pb_bytes(pb *p, unsigned num, const void *s, size_t n) {
    pb_tag(p, num, 2);
    pb_varint(p, n);
    pb_raw(p, s, n);
}

static void pb_str(pb *p, unsigned num, const char *s) { pb_bytes(p, num, s, strlen(s)); }

/* Embeds sub as field num and frees it. */
static void pb_msg(pb *p, unsigned num, pb *sub) {
    pb_bytes(p, num, sub->b, sub->n);
    pb_free(sub);
}

static void pb_packed(pb *p, unsigned num, const int64_t *v, size_t n) {
    pb *s = pb_new();
    for (size_t k = 0; k < n; k++) pb_varint(s, (uint64_t)v[k]);
    pb_msg(p, num, s);
}

static void pb_f32(pb *p, unsigned num, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    pb_tag(p, num, 5);
    for (int k = 0; k < 4; k++) pb_byte(p, (uint8_t)(u >> 8 * k));
}

/* ---- ONNX messages ----------------------------------------------------------------- */

enum { FLOAT = 1, UINT8 = 2, INT8 = 3, INT64 = 7, STRING = 8, BOOL = 9, FLOAT16 = 10, INT4 = 22 };
#define END_DIMS (-99)

/* A ValueInfoProto: dims end at END_DIMS; -1 with a param from params. */
static pb *value_info(const char *name, int elem, const int64_t *dims, const char *const *params) {
    pb *shape = pb_new();
    for (int k = 0; dims && dims[k] != END_DIMS; k++) {
        pb *d = pb_new();
        if (dims[k] >= 0) pb_int(d, 1, dims[k]);
        else if (params && params[k]) pb_str(d, 2, params[k]);
        pb_msg(shape, 1, d);
    }
    pb *tt = pb_new();
    pb_int(tt, 1, elem);
    if (dims) pb_msg(tt, 2, shape);
    else pb_free(shape);
    pb *type = pb_new();
    pb_msg(type, 1, tt);
    pb *vi = pb_new();
    pb_str(vi, 1, name);
    pb_msg(vi, 2, type);
    return vi;
}

#define D(...) ((const int64_t[]){__VA_ARGS__, END_DIMS})
#define D0 ((const int64_t[]){END_DIMS})
#define S(...) ((const char *const[]){__VA_ARGS__, NULL})

/* An int64 initializer (raw_data when raw, else unpacked int64_data). */
static pb *init_i64(const char *name, const int64_t *dims, const int64_t *v, size_t n, bool raw) {
    pb *t = pb_new();
    for (int k = 0; dims[k] != END_DIMS; k++) pb_int(t, 1, dims[k]);
    pb_int(t, 2, INT64);
    pb_str(t, 8, name);
    if (raw) {
        pb *r = pb_new();
        for (size_t k = 0; k < n; k++)
            for (int b = 0; b < 8; b++) pb_byte(r, (uint8_t)((uint64_t)v[k] >> 8 * b));
        pb_msg(t, 9, r);
    } else {
        for (size_t k = 0; k < n; k++) pb_int(t, 7, v[k]);
    }
    return t;
}

/* A float initializer of the given dims (packed dims), no data (weights are
 * never read: external data). */
static pb *init_f32(const char *name, const int64_t *dims) {
    pb *t = pb_new();
    int64_t d[16];
    size_t n = 0;
    for (; dims[n] != END_DIMS; n++) d[n] = dims[n];
    pb_packed(t, 1, d, n);
    pb_int(t, 2, FLOAT);
    pb_str(t, 8, name);
    pb_int(t, 14, 1); /* data_location EXTERNAL */
    return t;
}

static pb *float_scales(const char *name, const float *v, size_t n) {
    pb *t = pb_new();
    pb_int(t, 1, (int64_t)n);
    pb_int(t, 2, FLOAT);
    pb_str(t, 8, name);
    pb *r = pb_new();
    for (size_t k = 0; k < n; k++) {
        uint32_t u;
        memcpy(&u, &v[k], 4);
        for (int b = 0; b < 4; b++) pb_byte(r, (uint8_t)(u >> 8 * b));
    }
    pb_msg(t, 9, r);
    return t;
}

static pb *attr_int(const char *name, int64_t v) {
    pb *a = pb_new();
    pb_str(a, 1, name);
    pb_int(a, 20, 2);
    pb_int(a, 3, v);
    return a;
}

/* INTS, packed or not. */
static pb *attr_ints(const char *name, const int64_t *v, size_t n, bool packed) {
    pb *a = pb_new();
    pb_str(a, 1, name);
    pb_int(a, 20, 7);
    if (packed) pb_packed(a, 8, v, n);
    else for (size_t k = 0; k < n; k++) pb_int(a, 8, v[k]);
    return a;
}

static pb *attr_str(const char *name, const char *s) {
    pb *a = pb_new();
    pb_str(a, 1, name);
    pb_int(a, 20, 3);
    pb_str(a, 4, s);
    return a;
}

static pb *attr_tensor(const char *name, pb *t) {
    pb *a = pb_new();
    pb_str(a, 1, name);
    pb_int(a, 20, 4);
    pb_msg(a, 5, t);
    return a;
}

/* A node: inputs and outputs NULL-terminated; attrs NULL-terminated (freed). */
static pb *node(const char *op, const char *name, const char *const *in, const char *const *out,
                pb *const *attrs) {
    pb *n = pb_new();
    for (int k = 0; in && in[k]; k++) pb_str(n, 1, in[k]);
    for (int k = 0; out && out[k]; k++) pb_str(n, 2, out[k]);
    if (name) pb_str(n, 3, name);
    pb_str(n, 4, op);
    for (int k = 0; attrs && attrs[k]; k++) pb_msg(n, 5, attrs[k]);
    return n;
}

#define IN(...) ((const char *const[]){__VA_ARGS__, NULL})
#define OUT(...) ((const char *const[]){__VA_ARGS__, NULL})
#define ATTRS(...) ((pb *const[]){__VA_ARGS__, NULL})

/* A ModelProto around graph g (freed), opset of the default domain. */
static pb *model(pb *g, int64_t opset) {
    pb *m = pb_new();
    pb_int(m, 1, 8); /* ir_version */
    pb_str(m, 2, "test_onnx");
    pb *os = pb_new();
    pb_str(os, 1, "");
    pb_int(os, 2, opset);
    pb_msg(m, 8, os);
    pb_msg(m, 7, g);
    return m;
}

/* ---- import helpers --------------------------------------------------------------- */

static ab_status import(const pb *f, const abf_onnx_options *o, ab_problem *p, abf_onnx_model *m,
                        ab_error *err) {
    ab_error_clear(err);
    return abf_onnx_import("t.onnx", f->b, f->n, o, p, m, err);
}

static const ab_tensor *find(const ab_problem *p, const char *name) {
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->t[i].name, name) == 0) return &p->t[i];
    return NULL;
}

static const abf_onnx_value *value(const abf_onnx_model *m, const char *name) {
    for (size_t i = 0; i < m->nvalues; i++)
        if (strcmp(m->v[i].name, name) == 0) return &m->v[i];
    return NULL;
}

static void shape_str(const abf_onnx_value *v, char *out, size_t cap) {
    size_t u = (size_t)snprintf(out, cap, "[");
    for (int k = 0; k < v->rank && u < cap; k++)
        u += (size_t)snprintf(out + u, cap - u, "%s%" PRId64, k ? "," : "", v->dims[k]);
    if (u < cap) snprintf(out + u, cap - u, "]");
}

/* Imports f with declarations ignored and checks value name's inferred shape
 * ("[1,2,3]") and type. */
static void expect_shape(pb *f, const char *name, const char *want, int elem) {
    abf_onnx_options o = {.ignore_declared = true};
    ab_problem p;
    abf_onnx_model m;
    ab_error err;
    ab_status st = import(f, &o, &p, &m, &err);
    cr_assert_eq(st, AB_OK, "%s", err.msg);
    const abf_onnx_value *v = value(&m, name);
    cr_assert_not_null(v, "no value %s", name);
    char got[256];
    shape_str(v, got, sizeof got);
    cr_assert_str_eq(got, want, "%s: got %s, want %s", name, got, want);
    if (elem) cr_assert_eq(v->elem, elem, "%s: type %d", name, v->elem);
    cr_assert(v->flags & ABF_ONNX_INFERRED);
    ab_problem_free(&p);
    abf_onnx_model_free(&m);
    pb_free(f);
}

/* Imports f and expects AB_EINPUT with every string of want in the message. */
static void expect_error(const pb *f, const abf_onnx_options *o, const char *const *want) {
    ab_problem p;
    abf_onnx_model m;
    ab_error err;
    ab_status st = import(f, o, &p, &m, &err);
    cr_assert_eq(st, AB_EINPUT, "status %d: %s", st, err.msg);
    cr_assert(strncmp(err.msg, "t.onnx: ", 8) == 0, "%s", err.msg);
    for (int k = 0; want[k]; k++) cr_assert(strstr(err.msg, want[k]) != NULL, "%s", err.msg);
    abf_onnx_model_free(&m);
}

#define WANT(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A one-node graph: input x of dims xd (and more graph inputs), the node, output y. */
static pb *one(pb *nd, const int64_t *xd, pb *extra1, pb *extra2, int64_t opset) {
    pb *g = pb_new();
    pb_msg(g, 1, nd);
    pb_str(g, 2, "g");
    if (extra1) pb_msg(g, 5, extra1);
    if (extra2) pb_msg(g, 5, extra2);
    pb_msg(g, 11, value_info("x", FLOAT, xd, NULL));
    pb_msg(g, 12, value_info("y", FLOAT, NULL, NULL));
    return model(g, opset);
}

/* ---- a small CNN, read and planned ------------------------------------------------- */

/* x[1,3,8,8] -Conv(pad 1)-> c[1,4,8,8] -Relu-> r -MaxPool(2,2)-> p[1,4,4,4]
 * -Reshape([1,-1])-> f[1,64] -Gemm(transB)-> z[1,10] -Softmax-> y[1,10]. */
static pb *cnn(bool raw, bool packed) {
    pb *g = pb_new();
    const int64_t pads[] = {1, 1, 1, 1}, k2[] = {2, 2}, shape[] = {1, -1};
    pb_msg(g, 1, node("Conv", "conv", IN("x", "W", "B"), OUT("c"),
                      ATTRS(attr_ints("pads", pads, 4, packed))));
    pb_msg(g, 1, node("Relu", "relu", IN("c"), OUT("r"), NULL));
    pb_msg(g, 1, node("MaxPool", "pool", IN("r"), OUT("p"),
                      ATTRS(attr_ints("kernel_shape", k2, 2, packed),
                            attr_ints("strides", k2, 2, !packed))));
    pb_msg(g, 1, node("Reshape", "flat", IN("p", "shape"), OUT("f"), NULL));
    pb_msg(g, 1, node("Gemm", "fc", IN("f", "W2"), OUT("z"), ATTRS(attr_int("transB", 1))));
    pb_msg(g, 1, node("Softmax", "sm", IN("z"), OUT("y"), NULL));
    pb_msg(g, 5, init_f32("W", D(4, 3, 3, 3)));
    pb_msg(g, 5, init_f32("B", D(4)));
    pb_msg(g, 5, init_i64("shape", D(2), shape, 2, raw));
    pb_msg(g, 5, init_f32("W2", D(10, 64)));
    pb_msg(g, 11, value_info("x", FLOAT, D(1, 3, 8, 8), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, D(1, 10), NULL));
    return model(g, 13);
}

Test(onnx, imports_a_small_cnn_with_inferred_shapes_and_live_ranges) {
    pb *f = cnn(true, true);
    ab_problem p;
    abf_onnx_model m;
    ab_error err;
    cr_assert_eq(import(f, NULL, &p, &m, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 7);
    struct { const char *name; int64_t size, start, end; ab_kind kind; } want[] = {
        {"x", 768, 0, 0, AB_KIND_INPUT},        {"c", 1024, 0, 1, AB_KIND_INTERMEDIATE},
        {"r", 1024, 1, 2, AB_KIND_INTERMEDIATE}, {"p", 256, 2, 3, AB_KIND_INTERMEDIATE},
        {"f", 256, 3, 4, AB_KIND_INTERMEDIATE}, {"z", 40, 4, 5, AB_KIND_INTERMEDIATE},
        {"y", 40, 5, 5, AB_KIND_OUTPUT}};
    for (size_t k = 0; k < 7; k++) {
        const ab_tensor *t = find(&p, want[k].name);
        cr_assert_not_null(t, "%s", want[k].name);
        cr_assert_eq(t->size, want[k].size, "%s: %" PRId64, t->name, t->size);
        cr_assert_eq(t->start, want[k].start, "%s", t->name);
        cr_assert_eq(t->end, want[k].end, "%s", t->name);
        cr_assert_eq(t->kind, want[k].kind, "%s", t->name);
    }
    cr_assert_eq(m.nconstant, 4);
    cr_assert_eq(m.ninferred, 6);
    cr_assert_eq(m.opset, 13);
    cr_assert(strstr(p.description, "4 constant tensors") != NULL, "%s", p.description);
    ab_problem_free(&p);
    abf_onnx_model_free(&m);
    pb_free(f);
}

/* Repeated scalars come packed or one by one; raw_data or int64_data. */
Test(onnx, reads_packed_and_unpacked_lists_alike) {
    ab_buf first = {0};
    for (int v = 0; v < 4; v++) {
        pb *f = cnn(v & 1, v & 2);
        ab_problem p;
        ab_error err;
        cr_assert_eq(import(f, NULL, &p, NULL, &err), AB_OK, "%s", err.msg);
        ab_buf b = {0};
        cr_assert_eq(abf_suite_render(&p, &b, &err), AB_OK);
        if (v == 0) first = b;
        else {
            cr_assert_str_eq(b.s, first.s);
            ab_buf_free(&b);
        }
        ab_problem_free(&p);
        pb_free(f);
    }
    ab_buf_free(&first);
}

/* ---- malformed files, one for each error path ---------------------------------------- */

static pb *from_bytes(const uint8_t *b, size_t n) {
    pb *p = pb_new();
    pb_raw(p, b, n);
    return p;
}

Test(onnx, refuses_malformed_wire_format_naming_the_byte_and_field) {
    /* a varint of 11 bytes */
    uint8_t v11[] = {0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    pb *f = from_bytes(v11, sizeof v11);
    expect_error(f, NULL, WANT("byte 1: model", "varint"));
    pb_free(f);
    /* a 10-byte varint whose last byte overflows 64 bits */
    uint8_t v10[] = {0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02};
    f = from_bytes(v10, sizeof v10);
    expect_error(f, NULL, WANT("byte 1", "does not fit in 64 bits"));
    pb_free(f);
    /* a group */
    uint8_t grp[] = {0x08, 0x07, 0x1B, 0x1C};
    f = from_bytes(grp, sizeof grp);
    expect_error(f, NULL, WANT("byte 2: model", "group"));
    pb_free(f);
    /* wire type 7 */
    uint8_t w7[] = {0x08, 0x07, 0x0F};
    f = from_bytes(w7, sizeof w7);
    expect_error(f, NULL, WANT("byte 2", "wire type 7"));
    pb_free(f);
    /* a length past the end */
    uint8_t len[] = {0x08, 0x07, 0x3A, 0x10, 0x0A};
    f = from_bytes(len, sizeof len);
    expect_error(f, NULL, WANT("byte 2: model", "runs past the end"));
    pb_free(f);
    /* field number 0 */
    uint8_t z[] = {0x08, 0x07, 0x00, 0x01};
    f = from_bytes(z, sizeof z);
    expect_error(f, NULL, WANT("byte 2", "field number 0"));
    pb_free(f);
    /* a varint cut by the end of the file */
    uint8_t cut[] = {0x08, 0x87};
    f = from_bytes(cut, sizeof cut);
    expect_error(f, NULL, WANT("byte 1", "runs past the end"));
    pb_free(f);
    /* no graph */
    uint8_t ng[] = {0x08, 0x07};
    f = from_bytes(ng, sizeof ng);
    expect_error(f, NULL, WANT("no graph"));
    pb_free(f);
}

Test(onnx, refuses_a_known_field_of_the_wrong_wire_type_naming_its_path) {
    pb *g = pb_new();
    pb *n = pb_new();
    pb_str(n, 1, "x");
    pb_str(n, 2, "y");
    pb_int(n, 4, 3); /* op_type as a varint */
    pb_msg(g, 1, n);
    pb_msg(g, 11, value_info("x", FLOAT, D(2), NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("graph.node[0]", "op_type", "wire type 0"));
    pb_free(f);
}

Test(onnx, refuses_a_length_past_the_end_of_an_inner_message) {
    pb *f = cnn(true, true);
    /* the graph's first node: cut its length so a field inside runs past it */
    pb *g = pb_new();
    pb_tag(g, 1, 2);
    pb_varint(g, 3);
    pb_tag(g, 4, 2);
    pb_varint(g, 9); /* op_type claims 9 bytes, 1 left in the node */
    pb_byte(g, 'X');
    pb_msg(g, 11, value_info("x", FLOAT, D(2), NULL));
    pb *f2 = model(g, 13);
    expect_error(f2, NULL, WANT("graph.node[0]", "runs past the end of its message"));
    pb_free(f);
    pb_free(f2);
}

Test(onnx, skips_unknown_fields_by_wire_type) {
    pb *g = pb_new();
    pb_int(g, 99, 5);
    pb_f32(g, 98, 1.5f);
    pb_tag(g, 97, 1);
    for (int k = 0; k < 8; k++) pb_byte(g, 0);
    pb_str(g, 96, "hello");
    pb_msg(g, 1, node("Relu", "r", IN("x"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(2, 3), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, D(2, 3), NULL));
    pb *f = model(g, 13);
    ab_problem p;
    ab_error err;
    cr_assert_eq(import(f, NULL, &p, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 2);
    ab_problem_free(&p);
    pb_free(f);
}

/* Every prefix of a valid model fails as bad input naming the file, or reads. */
Test(onnx, every_truncation_fails_cleanly) {
    pb *f = cnn(true, false);
    for (size_t n = 0; n < f->n; n++) {
        ab_problem p;
        ab_error err;
        ab_error_clear(&err);
        ab_status st = abf_onnx_import("t.onnx", f->b, n, NULL, &p, NULL, &err);
        cr_assert(st == AB_OK || st == AB_EINPUT, "length %zu: status %d", n, st);
        if (st == AB_EINPUT) cr_assert(strncmp(err.msg, "t.onnx: ", 8) == 0, "%s", err.msg);
        ab_problem_free(&p);
    }
    pb_free(f);
}

Test(onnx, random_byte_flips_fail_cleanly) {
    pb *f = cnn(true, true);
    uint64_t s = 12345;
    int cases = abt_cases(3000, 30000);
    uint8_t *copy = malloc(f->n);
    for (int c = 0; c < cases; c++) {
        memcpy(copy, f->b, f->n);
        for (int k = 0; k < 1 + c % 4; k++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            copy[(s >> 33) % f->n] = (uint8_t)(s >> 17);
        }
        ab_problem p;
        ab_error err;
        ab_error_clear(&err);
        abf_onnx_options o = {.assume_dynamic = 2};
        ab_status st = abf_onnx_import("t.onnx", copy, f->n, &o, &p, NULL, &err);
        cr_assert(st == AB_OK || st == AB_EINPUT, "case %d: status %d", c, st);
        if (st == AB_EINPUT) cr_assert(strncmp(err.msg, "t.onnx: ", 8) == 0, "%s", err.msg);
        ab_problem_free(&p);
    }
    free(copy);
    pb_free(f);
}

static pb *expand_model(void);

/* Each allocation of an import fails in turn: always out of memory, never a
 * crash, a leak or another status (the CNN, and the expand pattern's carried
 * values). */
static void fail_each_allocation(pb *f) {
    ab_problem p;
    ab_error err;
    ab_alloc_fail_at(0);
    cr_assert_eq(import(f, NULL, &p, NULL, &err), AB_OK);
    ab_problem_free(&p);
    long calls = ab_alloc_fail_at(0); /* allocations of one import */
    cr_assert_gt(calls, 20);
    for (long k = 1; k <= calls; k++) {
        ab_alloc_fail_at(k);
        ab_status st = import(f, NULL, &p, NULL, &err);
        ab_alloc_fail_at(0);
        cr_assert(st == AB_ENOMEM, "allocation %ld of %ld: status %d: %s", k, calls, st,
                  err.msg);
        ab_problem_free(&p);
    }
    pb_free(f);
}

Test(onnx, every_allocation_failure_is_out_of_memory_never_a_crash) {
    fail_each_allocation(cnn(true, true));
    fail_each_allocation(expand_model());
}

/* ---- graph rules --------------------------------------------------------------------- */

Test(onnx, refuses_nodes_out_of_topological_order_naming_the_node) {
    pb *g = pb_new();
    pb_msg(g, 1, node("Relu", "second", IN("a"), OUT("y"), NULL));
    pb_msg(g, 1, node("Relu", "first", IN("x"), OUT("a"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(2), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, D(2), NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("node 0 'second' (Relu)", "input 'a'", "topological order"));
    pb_free(f);
}

Test(onnx, refuses_a_value_written_twice) {
    pb *g = pb_new();
    pb_msg(g, 1, node("Relu", "a", IN("x"), OUT("y"), NULL));
    pb_msg(g, 1, node("Relu", "b", IN("x"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(2), NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("node 1 'b' (Relu)", "output 'y' is already written"));
    pb_free(f);
}

Test(onnx, refuses_subgraphs_naming_the_node) {
    pb *body = pb_new();
    pb_str(body, 2, "body");
    pb *a = pb_new();
    pb_str(a, 1, "then_branch");
    pb_int(a, 20, 5);
    pb_msg(a, 6, body);
    pb *g = pb_new();
    pb_msg(g, 1, node("If", "branch", IN("x"), OUT("y"), ATTRS(a)));
    pb_msg(g, 11, value_info("x", BOOL, D0, NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("node 0 'branch' (If)", "attribute 'then_branch' holds a subgraph",
                               "graph.node[0].attribute[0]"));
    pb_free(f);
}

Test(onnx, refuses_an_operator_outside_the_set_without_a_shape_and_suggests_onnx) {
    pb *g = pb_new();
    pb_msg(g, 1, node("NonZero", "nz", IN("x"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(4), NULL));
    pb_msg(g, 12, value_info("y", INT64, NULL, NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("node 0 'nz' (NonZero)", "outside the set", "shape_inference",
                               "python3-onnx"));
    pb_free(f);
    /* declared: taken as declared */
    g = pb_new();
    pb_msg(g, 1, node("NonZero", "nz", IN("x"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(4), NULL));
    pb_msg(g, 12, value_info("y", INT64, D(1, 3), NULL));
    f = model(g, 13);
    ab_problem p;
    ab_error err;
    cr_assert_eq(import(f, NULL, &p, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(find(&p, "y")->size, 24);
    ab_problem_free(&p);
    pb_free(f);
}

Test(onnx, a_declared_shape_that_disagrees_with_inference_is_an_error) {
    pb *g = pb_new();
    pb_msg(g, 1, node("Relu", "r", IN("x"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(2, 3), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, D(3, 2), NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("node 0 'r' (Relu)", "inferred shape [2, 3] disagrees with the "
                               "declared [3, 2]"));
    pb_free(f);
}

Test(onnx, symbolic_dimensions_take_dim_or_assume_dynamic) {
    pb *g = pb_new();
    pb_msg(g, 1, node("Relu", "r", IN("x"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(-1, 3), S("batch", NULL)));
    pb_msg(g, 12, value_info("y", FLOAT, D(-1, 3), S("batch", NULL)));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("tensor 'x': dimension 0 is symbolic ('batch')", "--dim batch=N",
                               "--assume-dynamic=N"));
    abf_tflite_dim d = {.tensor = "batch", .value = 5};
    abf_onnx_options o = {.dims = &d, .ndims = 1};
    ab_problem p;
    ab_error err;
    cr_assert_eq(import(f, &o, &p, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(find(&p, "y")->size, 60);
    ab_problem_free(&p);
    abf_tflite_dim bad = {.tensor = "batchsize", .value = 5};
    expect_error(f, &(abf_onnx_options){.dims = &bad, .ndims = 1},
                 WANT("--dim batchsize=5: no symbolic dimension (dim_param) or tensor is called "
                      "'batchsize'"));
    abf_onnx_options a = {.assume_dynamic = 2};
    cr_assert_eq(import(f, &a, &p, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(find(&p, "x")->size, 24);
    ab_problem_free(&p);
    pb_free(f);
}

Test(onnx, sizes_of_sub_byte_and_bool_types_and_strings_refused) {
    pb *f = one(node("Cast", "c", IN("x"), OUT("y"), ATTRS(attr_int("to", INT4))), D(3, 5), NULL,
                NULL, 13);
    ab_problem p;
    ab_error err;
    cr_assert_eq(import(f, &(abf_onnx_options){.ignore_declared = true}, &p, NULL, &err), AB_OK,
                 "%s", err.msg);
    cr_assert_eq(find(&p, "y")->size, 8); /* 15 x 4 bits */
    cr_assert_eq(find(&p, "y")->logical_bits, 60);
    cr_assert_str_eq(find(&p, "y")->dtype->name, "int4");
    ab_problem_free(&p);
    pb_free(f);
    f = one(node("Cast", "c", IN("x"), OUT("y"), ATTRS(attr_int("to", BOOL))), D(3, 5), NULL, NULL,
            13);
    cr_assert_eq(import(f, &(abf_onnx_options){.ignore_declared = true}, &p, NULL, &err), AB_OK,
                 "%s", err.msg);
    cr_assert_eq(find(&p, "y")->size, 15);
    ab_problem_free(&p);
    pb_free(f);
    f = one(node("Cast", "c", IN("x"), OUT("y"), ATTRS(attr_int("to", STRING))), D(3), NULL, NULL,
            13);
    expect_error(f, &(abf_onnx_options){.ignore_declared = true},
                 WANT("tensor 'y': type STRING (8) has no fixed element size"));
    pb_free(f);
}

/* ---- inference, per operator family -------------------------------------------------- */

Test(onnx, infers_broadcasting_elementwise_ops) {
    pb *g = pb_new();
    pb_msg(g, 1, node("Add", "a", IN("x", "b"), OUT("y"), NULL));
    pb_msg(g, 1, node("Less", "l", IN("y", "x"), OUT("z"), NULL));
    pb_msg(g, 1, node("Where", "w", IN("z", "x", "b"), OUT("v"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(2, 1, 4), NULL));
    pb_msg(g, 11, value_info("b", FLOAT, D(3, 1), NULL));
    pb_msg(g, 12, value_info("v", FLOAT, NULL, NULL));
    pb *f = model(g, 13);
    pb *f2 = pb_new();
    pb_raw(f2, f->b, f->n);
    expect_shape(f, "y", "[2,3,4]", FLOAT);
    expect_shape(f2, "z", "[2,3,4]", BOOL);
    g = pb_new();
    pb_msg(g, 1, node("Mul", "m", IN("x", "b"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(2, 3), NULL));
    pb_msg(g, 11, value_info("b", FLOAT, D(4, 3), NULL));
    f = model(g, 13);
    expect_error(f, &(abf_onnx_options){.ignore_declared = true},
                 WANT("node 0 'm' (Mul)", "[2, 3] and [4, 3] do not broadcast"));
    pb_free(f);
}

Test(onnx, infers_conv_with_strides_dilations_and_auto_pad) {
    const int64_t s2[] = {2, 2}, d2[] = {2, 2};
    pb *f = one(node("Conv", "c", IN("x", "W"), OUT("y"),
                     ATTRS(attr_ints("strides", s2, 2, true), attr_str("auto_pad", "SAME_UPPER"))),
                D(1, 3, 7, 9), init_f32("W", D(8, 3, 3, 3)), NULL, 13);
    expect_shape(f, "y", "[1,8,4,5]", FLOAT);
    f = one(node("Conv", "c", IN("x", "W"), OUT("y"), ATTRS(attr_ints("dilations", d2, 2, true))),
            D(1, 3, 7, 9), init_f32("W", D(8, 3, 3, 3)), NULL, 13);
    expect_shape(f, "y", "[1,8,3,5]", FLOAT);
    const int64_t pads[] = {1, 0, 1, 0}, os[] = {1, 1};
    f = one(node("ConvTranspose", "t", IN("x", "W"), OUT("y"),
                 ATTRS(attr_ints("strides", s2, 2, true), attr_ints("pads", pads, 4, false),
                       attr_ints("output_padding", os, 2, true), attr_int("group", 2))),
            D(1, 4, 5, 5), init_f32("W", D(4, 3, 3, 3)), NULL, 13);
    /* 2 * (5 - 1) + 1 + 3 - 1 - 1 = 10; 2 * 4 + 1 + 3 = 12; channels 3 * 2 */
    expect_shape(f, "y", "[1,6,10,12]", FLOAT);
}

Test(onnx, infers_pools_with_ceil_mode_and_global_pools) {
    const int64_t k3[] = {3, 3}, s2[] = {2, 2};
    pb *f = one(node("MaxPool", "p", IN("x"), OUT("y"),
                     ATTRS(attr_ints("kernel_shape", k3, 2, true), attr_ints("strides", s2, 2, true),
                           attr_int("ceil_mode", 1))),
                D(1, 2, 8, 8), NULL, NULL, 13);
    expect_shape(f, "y", "[1,2,4,4]", FLOAT); /* ceil((8 - 3) / 2) + 1 */
    f = one(node("AveragePool", "p", IN("x"), OUT("y"),
                 ATTRS(attr_ints("kernel_shape", k3, 2, true), attr_ints("strides", s2, 2, true))),
            D(1, 2, 8, 8), NULL, NULL, 13);
    expect_shape(f, "y", "[1,2,3,3]", FLOAT);
    f = one(node("GlobalAveragePool", "p", IN("x"), OUT("y"), NULL), D(1, 2, 8, 8), NULL, NULL, 13);
    expect_shape(f, "y", "[1,2,1,1]", FLOAT);
}

Test(onnx, infers_gemm_matmul_with_batch_broadcasting_and_batchnorm) {
    pb *f = one(node("MatMul", "m", IN("x", "W"), OUT("y"), NULL), D(2, 1, 3, 4),
                init_f32("W", D(5, 4, 6)), NULL, 13);
    expect_shape(f, "y", "[2,5,3,6]", FLOAT);
    f = one(node("MatMul", "m", IN("x", "W"), OUT("y"), NULL), D(4), init_f32("W", D(3, 4, 6)), NULL,
            13);
    expect_shape(f, "y", "[3,6]", FLOAT);
    f = one(node("Gemm", "g", IN("x", "W"), OUT("y"), ATTRS(attr_int("transA", 1))), D(4, 3),
            init_f32("W", D(4, 7)), NULL, 13);
    expect_shape(f, "y", "[3,7]", FLOAT);
    f = one(node("BatchNormalization", "b", IN("x", "s", "s", "s", "s"), OUT("y"), NULL),
            D(2, 3, 4), init_f32("s", D(3)), NULL, 13);
    expect_shape(f, "y", "[2,3,4]", FLOAT);
}

Test(onnx, infers_reshape_flatten_transpose_concat) {
    const int64_t sh[] = {0, -1, 2}, z[] = {0, 3}, perm[] = {2, 0, 1};
    pb *f = one(node("Reshape", "r", IN("x", "s"), OUT("y"), NULL), D(2, 3, 4),
                init_i64("s", D(3), sh, 3, false), NULL, 13);
    expect_shape(f, "y", "[2,6,2]", FLOAT);
    f = one(node("Reshape", "r", IN("x", "s"), OUT("y"), ATTRS(attr_int("allowzero", 1))), D(0, 3),
            init_i64("s", D(2), z, 2, true), NULL, 14);
    expect_shape(f, "y", "[0,3]", FLOAT);
    f = one(node("Flatten", "f", IN("x"), OUT("y"), ATTRS(attr_int("axis", -1))), D(2, 3, 4), NULL,
            NULL, 13);
    expect_shape(f, "y", "[6,4]", FLOAT);
    f = one(node("Transpose", "t", IN("x"), OUT("y"), ATTRS(attr_ints("perm", perm, 3, true))),
            D(2, 3, 4), NULL, NULL, 13);
    expect_shape(f, "y", "[4,2,3]", FLOAT);
    f = one(node("Concat", "c", IN("x", "w"), OUT("y"), ATTRS(attr_int("axis", -2))), D(2, 3, 4),
            init_f32("w", D(2, 5, 4)), NULL, 13);
    expect_shape(f, "y", "[2,8,4]", FLOAT);
}

Test(onnx, infers_squeeze_unsqueeze_with_axes_as_attribute_or_input) {
    const int64_t ax[] = {0, -1};
    pb *f = one(node("Squeeze", "s", IN("x"), OUT("y"), ATTRS(attr_ints("axes", ax, 2, true))),
                D(1, 3, 1), NULL, NULL, 11);
    expect_shape(f, "y", "[3]", FLOAT);
    f = one(node("Squeeze", "s", IN("x", "a"), OUT("y"), NULL), D(1, 3, 1),
            init_i64("a", D(1), ax, 1, true), NULL, 13);
    expect_shape(f, "y", "[3,1]", FLOAT);
    f = one(node("Unsqueeze", "u", IN("x", "a"), OUT("y"), NULL), D(3, 4),
            init_i64("a", D(2), ax, 2, false), NULL, 13);
    expect_shape(f, "y", "[1,3,4,1]", FLOAT);
}

Test(onnx, infers_gather_slice_pad_split) {
    const int64_t idx[] = {0, 2, 1, 1, 0, 0};
    pb *f = one(node("Gather", "g", IN("x", "i"), OUT("y"), ATTRS(attr_int("axis", 1))),
                D(5, 4, 3), init_i64("i", D(2, 3), idx, 6, true), NULL, 13);
    expect_shape(f, "y", "[5,2,3,3]", FLOAT);
    const int64_t st[] = {1, -1}, en[] = {INT64_MAX, -5}, axs[] = {0, 2}, sp[] = {2, -2};
    pb *g = pb_new();
    pb_msg(g, 1, node("Slice", "s", IN("x", "st", "en", "ax", "sp"), OUT("y"), NULL));
    pb_msg(g, 5, init_i64("st", D(2), st, 2, true));
    pb_msg(g, 5, init_i64("en", D(2), en, 2, false));
    pb_msg(g, 5, init_i64("ax", D(2), axs, 2, true));
    pb_msg(g, 5, init_i64("sp", D(2), sp, 2, true));
    pb_msg(g, 11, value_info("x", FLOAT, D(10, 4, 9), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, NULL, NULL));
    /* axis 0: 1, 3, 5, 7, 9 -> 5; axis 2: from 8 down to (but not) 4 by 2 -> 8, 6 -> 2 */
    expect_shape(model(g, 13), "y", "[5,4,2]", FLOAT);
    const int64_t s9[] = {2}, e9[] = {100};
    f = one(node("Slice", "s", IN("x"), OUT("y"),
                 ATTRS(attr_ints("starts", s9, 1, true), attr_ints("ends", e9, 1, true))),
            D(10, 4), NULL, NULL, 9);
    expect_shape(f, "y", "[8,4]", FLOAT);
    const int64_t pads[] = {1, 0, 2, 3};
    f = one(node("Pad", "p", IN("x", "pads"), OUT("y"), NULL), D(2, 3),
            init_i64("pads", D(4), pads, 4, true), NULL, 13);
    expect_shape(f, "y", "[5,6]", FLOAT); /* begins 1, 0; ends 2, 3 */
    const int64_t split[] = {1, 4};
    g = pb_new();
    pb_msg(g, 1, node("Split", "s", IN("x", "sp"), OUT("y", "z"), ATTRS(attr_int("axis", 1))));
    pb_msg(g, 5, init_i64("sp", D(2), split, 2, true));
    pb_msg(g, 11, value_info("x", FLOAT, D(2, 5), NULL));
    pb_msg(g, 12, value_info("z", FLOAT, NULL, NULL));
    pb *m = model(g, 13);
    pb *m2 = pb_new();
    pb_raw(m2, m->b, m->n);
    expect_shape(m, "y", "[2,1]", FLOAT);
    expect_shape(m2, "z", "[2,4]", FLOAT);
    g = pb_new(); /* opset 18: num_outputs, uneven */
    pb_msg(g, 1, node("Split", "s", IN("x"), OUT("y", "z", "w"), ATTRS(attr_int("num_outputs", 3))));
    pb_msg(g, 11, value_info("x", FLOAT, D(7), NULL));
    pb_msg(g, 12, value_info("w", FLOAT, NULL, NULL));
    expect_shape(model(g, 18), "w", "[1]", FLOAT);
}

Test(onnx, infers_resize_from_scales_or_sizes) {
    const float sc[] = {1, 1, 2, 1.5f};
    pb *g = pb_new();
    pb_msg(g, 1, node("Resize", "r", IN("x", "", "sc"), OUT("y"), NULL));
    pb_msg(g, 5, float_scales("sc", sc, 4));
    pb_msg(g, 11, value_info("x", FLOAT, D(1, 3, 5, 5), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, NULL, NULL));
    expect_shape(model(g, 13), "y", "[1,3,10,7]", FLOAT);
    const int64_t sizes[] = {1, 3, 9, 4};
    g = pb_new();
    pb_msg(g, 1, node("Resize", "r", IN("x", "", "", "sz"), OUT("y"), NULL));
    pb_msg(g, 5, init_i64("sz", D(4), sizes, 4, true));
    pb_msg(g, 11, value_info("x", FLOAT, D(1, 3, 5, 5), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, NULL, NULL));
    expect_shape(model(g, 13), "y", "[1,3,9,4]", FLOAT);
}

Test(onnx, infers_reductions_shape_and_constants) {
    const int64_t ax[] = {1};
    pb *f = one(node("ReduceMean", "r", IN("x"), OUT("y"),
                     ATTRS(attr_ints("axes", ax, 1, true), attr_int("keepdims", 0))),
                D(2, 3, 4), NULL, NULL, 13);
    expect_shape(f, "y", "[2,4]", FLOAT);
    f = one(node("ReduceSum", "r", IN("x", "a"), OUT("y"), NULL), D(2, 3, 4),
            init_i64("a", D(1), ax, 1, true), NULL, 13);
    expect_shape(f, "y", "[2,1,4]", FLOAT);
    f = one(node("Shape", "s", IN("x"), OUT("y"), NULL), D(2, 3, 4), NULL, NULL, 13);
    expect_shape(f, "y", "[3]", INT64);
    const int64_t cv[] = {7, 2};
    f = one(node("Constant", "k", NULL, OUT("y"),
                 ATTRS(attr_tensor("value", init_i64("v", D(2), cv, 2, true)))),
            D(1), NULL, NULL, 13);
    expect_shape(f, "y", "[2]", INT64);
}

Test(onnx, infers_einsum_explicit_implicit_and_with_ellipsis) {
    pb *f = one(node("Einsum", "e", IN("x", "w"), OUT("y"), ATTRS(attr_str("equation", "bij,bjk->bik"))),
                D(2, 3, 4), init_f32("w", D(2, 4, 5)), NULL, 13);
    expect_shape(f, "y", "[2,3,5]", FLOAT);
    f = one(node("Einsum", "e", IN("x", "w"), OUT("y"), ATTRS(attr_str("equation", "ij,jk"))),
            D(3, 4), init_f32("w", D(4, 5)), NULL, 13);
    expect_shape(f, "y", "[3,5]", FLOAT);
    f = one(node("Einsum", "e", IN("x"), OUT("y"), ATTRS(attr_str("equation", "...ij->...ji"))),
            D(7, 2, 3, 4), NULL, NULL, 13);
    expect_shape(f, "y", "[7,2,4,3]", FLOAT);
}

/* PyTorch's exports compute shapes at run time: Shape -> Gather -> Unsqueeze ->
 * Concat -> Reshape. The values are carried so the Reshape is inferred. */
Test(onnx, carries_shape_values_through_shape_arithmetic) {
    const int64_t zero[] = {0}, minus[] = {-1}, ax[] = {0};
    pb *g = pb_new();
    pb_msg(g, 1, node("Shape", "s", IN("x"), OUT("s"), NULL));
    pb_msg(g, 1, node("Gather", "g", IN("s", "zero"), OUT("n"), ATTRS(attr_int("axis", 0))));
    pb_msg(g, 1, node("Unsqueeze", "u", IN("n", "ax"), OUT("nu"), NULL));
    pb_msg(g, 1, node("Concat", "c", IN("nu", "minus"), OUT("shape"), ATTRS(attr_int("axis", 0))));
    pb_msg(g, 1, node("Reshape", "r", IN("x", "shape"), OUT("y"), NULL));
    pb_msg(g, 5, init_i64("zero", D0, zero, 1, true));
    pb_msg(g, 5, init_i64("minus", D(1), minus, 1, true));
    pb_msg(g, 5, init_i64("ax", D(1), ax, 1, true));
    pb_msg(g, 11, value_info("x", FLOAT, D(-1, 3, 4), S("batch", NULL, NULL)));
    pb_msg(g, 12, value_info("y", FLOAT, NULL, NULL));
    pb *f = model(g, 13);
    abf_tflite_dim d = {.tensor = "batch", .value = 6};
    abf_onnx_options o = {.dims = &d, .ndims = 1, .ignore_declared = true};
    ab_problem p;
    abf_onnx_model m;
    ab_error err;
    cr_assert_eq(import(f, &o, &p, &m, &err), AB_OK, "%s", err.msg);
    char got[64];
    shape_str(value(&m, "y"), got, sizeof got);
    cr_assert_str_eq(got, "[6,12]");
    ab_problem_free(&p);
    abf_onnx_model_free(&m);
    pb_free(f);
}

/* PyTorch's expand: Expand(x, Where(Equal(shape, -ones), ones, shape)). */
static pb *expand_model(void) {
    const int64_t shape[] = {2, -1, 4}, one1[] = {1}, minus[] = {-1};
    pb *g = pb_new();
    pb_msg(g, 1, node("Constant", "c", NULL, OUT("shape"),
                      ATTRS(attr_tensor("value", init_i64("v", D(3), shape, 3, true)))));
    pb_msg(g, 1, node("Shape", "s", IN("shape"), OUT("ss"), NULL));
    pb_msg(g, 1, node("ConstantOfShape", "o", IN("ss"), OUT("ones"),
                      ATTRS(attr_tensor("value", init_i64("one", D(1), one1, 1, true)))));
    pb_msg(g, 1, node("Mul", "m", IN("ones", "minus"), OUT("neg"), NULL));
    pb_msg(g, 1, node("Equal", "e", IN("shape", "neg"), OUT("eq"), NULL));
    pb_msg(g, 1, node("Where", "w", IN("eq", "ones", "shape"), OUT("to"), NULL));
    pb_msg(g, 1, node("Expand", "x", IN("x", "to"), OUT("y"), NULL));
    pb_msg(g, 5, init_i64("minus", D0, minus, 1, true));
    pb_msg(g, 11, value_info("x", FLOAT, D(3, 1), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, NULL, NULL));
    return model(g, 13);
}

Test(onnx, carries_values_through_pytorchs_expand_pattern) {
    expect_shape(expand_model(), "y", "[2,3,4]", FLOAT);
}

Test(onnx, a_reshape_whose_shape_is_a_graph_input_needs_a_declaration) {
    pb *g = pb_new();
    pb_msg(g, 1, node("Reshape", "r", IN("x", "s"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(2, 3), NULL));
    pb_msg(g, 11, value_info("s", INT64, D(1), NULL));
    pb_msg(g, 12, value_info("y", FLOAT, NULL, NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("node 0 'r' (Reshape)", "needs the value of input 1 's'",
                               "shape_inference"));
    pb_free(f);
}

/* ---- the node tests of Debian's libonnx-testdata ----------------------------------------- */

#define TESTDATA "/usr/share/libonnx-testdata/data/node"

/* Each node test whose operator has a rule, imported with its declared shapes:
 * inference must agree with every declared output (a disagreement is an
 * error), and must have produced them itself. Tests whose shapes need values
 * given at run time (a Reshape's shape as a graph input), or with types that
 * have no size, are counted as skipped. */
Test(onnx, agrees_with_the_declared_shapes_of_onnx_node_tests) {
    DIR *d = opendir(TESTDATA);
    if (d == NULL)
        cr_skip_test("%s is absent (Debian's libonnx-testdata: apt-get install "
                     "libonnx-testdata); the node tests are not compared", TESTDATA);
    struct dirent *e;
    int compared = 0, outputs = 0, skipped = 0, failed = 0;
    ab_buf fails = {0};
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "test_", 5) != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s/model.onnx", TESTDATA, e->d_name);
        ab_problem p;
        abf_onnx_model m;
        ab_error err;
        ab_error_clear(&err);
        ab_status st = abf_onnx_load(path, NULL, &p, &m, &err);
        bool disagrees = st != AB_OK && strstr(err.msg, "disagrees") != NULL;
        bool inferred_all = m.nnodes > 0 && m.ndeclared == 0 && m.ninferred > 0;
        if (disagrees) {
            failed++;
            ab_buf_printf(&fails, "  %s\n", err.msg);
        } else if (st == AB_OK && inferred_all) {
            /* again with the declared shapes stripped: the same outputs */
            abf_onnx_options strip = {.ignore_declared = true};
            ab_problem p2;
            abf_onnx_model m2;
            ab_status st2 = abf_onnx_load(path, &strip, &p2, &m2, &err);
            cr_assert_eq(st2, AB_OK, "%s stripped: %s", e->d_name, err.msg);
            for (size_t k = 0; k < m.noutputs; k++) {
                const abf_onnx_value *a = &m.v[m.outputs[k]], *b = &m2.v[m2.outputs[k]];
                cr_assert_eq(a->rank, b->rank, "%s: output %zu", e->d_name, k);
                for (int j = 0; j < a->rank; j++)
                    cr_assert_eq(a->dims[j], b->dims[j], "%s: output %zu", e->d_name, k);
                cr_assert_eq(a->elem, b->elem, "%s: output %zu", e->d_name, k);
            }
            ab_problem_free(&p2);
            abf_onnx_model_free(&m2);
            compared++;
            outputs += (int)m.ninferred;
        } else {
            skipped++;
        }
        ab_problem_free(&p);
        abf_onnx_model_free(&m);
    }
    closedir(d);
    cr_log_info("libonnx-testdata: %d node tests inferred and agreeing (%d outputs), %d skipped "
                "(operator without a rule, values given at run time, sequences, strings), %d "
                "disagreeing", compared, outputs, skipped, failed);
    cr_assert_eq(failed, 0, "%d node tests disagree:\n%s", failed, fails.s ? fails.s : "");
    cr_assert_gt(compared, 300, "only %d node tests were inferred", compared);
    ab_buf_free(&fails);
}

/* ---- python3-onnx's shape inference ---------------------------------------------------- */

/* The CNN's intermediate shapes, as ONNX's own inference gives them. */
Test(onnx, agrees_with_python3_onnx_shape_inference) {
    const char *py = NULL; /* Debian's python3-onnx is /usr/bin/python3's */
    if (system("python3 -c 'import onnx' >/dev/null 2>&1") == 0) py = "python3";
    else if (system("/usr/bin/python3 -c 'import onnx' >/dev/null 2>&1") == 0) py = "/usr/bin/python3";
    if (py == NULL)
        cr_skip_test("python3-onnx is absent (Debian: apt-get install python3-onnx); ONNX's own "
                     "shape inference is not compared");
    pb *f = cnn(true, true);
    char *dir = abt_tmpdir(), path[4200], cmd[9000];
    snprintf(path, sizeof path, "%s/cnn.onnx", dir);
    FILE *o = fopen(path, "wb");
    cr_assert_not_null(o);
    fwrite(f->b, 1, f->n, o);
    fclose(o);
    snprintf(cmd, sizeof cmd,
             "%s -c \"import onnx; from onnx import shape_inference as s; "
             "m = s.infer_shapes(onnx.load('%s', load_external_data=False)); "
             "print(' '.join(v.name + ':' + 'x'.join(str(d.dim_value) for d in "
             "v.type.tensor_type.shape.dim) for v in m.graph.value_info))\" > '%s/out.txt' 2>&1",
             py, path, dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(path, sizeof path, "%s/out.txt", dir);
    char *text = abt_slurp(path, NULL);
    ab_problem p;
    abf_onnx_model m;
    ab_error err;
    cr_assert_eq(import(f, NULL, &p, &m, &err), AB_OK, "%s", err.msg);
    for (size_t i = 0; i < m.nvalues; i++) {
        const abf_onnx_value *v = &m.v[i];
        if (v->flags & (ABF_ONNX_INPUT | ABF_ONNX_OUTPUT | ABF_ONNX_CONSTANT)) continue;
        char want[128];
        size_t u = (size_t)snprintf(want, sizeof want, "%s:", v->name);
        for (int k = 0; k < v->rank; k++)
            u += (size_t)snprintf(want + u, sizeof want - u, "%s%" PRId64, k ? "x" : "", v->dims[k]);
        cr_assert(strstr(text, want) != NULL, "python3-onnx says: %s; we say %s", text, want);
    }
    ab_problem_free(&p);
    abf_onnx_model_free(&m);
    free(text);
    free(dir);
    pb_free(f);
}

/* ---- the command --------------------------------------------------------------------- */

static const char *cnn_file(const char *name) {
    static char path[4096];
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/%s", dir, name);
    free(dir);
    pb *f = cnn(true, true);
    FILE *o = fopen(path, "wb");
    cr_assert_not_null(o);
    cr_assert_eq(fwrite(f->b, 1, f->n, o), f->n);
    fclose(o);
    pb_free(f);
    return path;
}

Test(onnx, import_writes_a_suite_that_loads_and_plan_bound_take_the_model) {
    char model[4096], args[9000], *out, *err;
    snprintf(model, sizeof model, "%s", cnn_file("cnn.onnx"));
    char *dir = abt_tmpdir();
    snprintf(args, sizeof args, "import '%s' -o '%s/cnn.yaml'", model, dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "suite      cnn (7 tensors)") != NULL, "%s", out);
    free(out), free(err);
    snprintf(args, sizeof args, "%s/cnn.yaml", dir);
    ab_problem p;
    ab_error e;
    cr_assert_eq(abf_suite_load(args, &p, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(p.n, 7);
    ab_problem_free(&p);
    snprintf(args, sizeof args, "plan -p first-fit '%s'", model);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    snprintf(args, sizeof args, "bound --profile tflm '%s'", model);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    /* the format is known by content too: a model without the suffix */
    snprintf(args, sizeof args, "cp '%s' '%s/model.bin' && true", model, dir);
    cr_assert_eq(system(args), 0);
    snprintf(args, sizeof args, "import '%s/model.bin'", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    free(dir);
}

static const char *write_model(pb *f, const char *name) {
    static char path[4096];
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/%s", dir, name);
    free(dir);
    FILE *o = fopen(path, "wb");
    cr_assert_not_null(o);
    cr_assert_eq(fwrite(f->b, 1, f->n, o), f->n);
    fclose(o);
    pb_free(f);
    return path;
}

/* plan, validate and bound take a model's options and a profile on a .onnx
 * as on a .tflite: a symbolic dimension needs --dim or --assume-dynamic. */
Test(onnx, plan_validate_bound_take_profiles_and_model_options) {
    pb *g = pb_new();
    pb_msg(g, 1, node("Relu", "r", IN("x"), OUT("a"), NULL));
    pb_msg(g, 1, node("Sigmoid", "s", IN("a"), OUT("y"), NULL));
    pb_msg(g, 11, value_info("x", FLOAT, D(-1, 3), S("batch", NULL)));
    pb_msg(g, 12, value_info("y", FLOAT, D(-1, 3), S("batch", NULL)));
    char path[4096], args[13000], *out, *err;
    snprintf(path, sizeof path, "%s", write_model(model(g, 13), "sym.onnx"));
    const char *m = path;
    snprintf(args, sizeof args, "plan --profile tflm '%s'", m);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, "--dim batch=N") != NULL, "%s", err);
    free(out), free(err);
    char *dir = abt_tmpdir();
    snprintf(args, sizeof args, "plan --profile tflm -p first-fit '%s' --dim batch=4 -o '%s/p.csv'",
             m, dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "profile    tflm") != NULL, "%s", out);
    free(out), free(err);
    snprintf(args, sizeof args, "validate '%s' '%s/p.csv' --dim batch=4", m, dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "bound '%s' --assume-dynamic=2", m);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    snprintf(args, sizeof args, "import '%s' --dim nobody=2", m);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, "no symbolic dimension (dim_param) or tensor is called 'nobody'") != NULL,
              "%s", err);
    free(out), free(err), free(dir);
}

Test(onnx, a_corrupt_model_is_exit_2_naming_the_file) {
    const char *path = abt_write_tmp("\x08\x07\x3A\x7F\x0A", ".onnx");
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "import '%s'", path);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, path) != NULL && strstr(err, "byte 2") != NULL, "%s", err);
    free(out), free(err);
}

Test(onnx, run_takes_onnx_models_in_a_folder) {
    char model[4096], args[9000], *out, *err;
    snprintf(model, sizeof model, "%s", cnn_file("cnn.onnx"));
    char *dir = abt_tmpdir();
    snprintf(args, sizeof args, "run -q --db '%s/r.db' -p first-fit \"$(dirname '%s')\"", dir,
             model);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    free(dir);
}

/* The fuzz seed is the CNN this file builds. */
Test(onnx, the_fuzz_seed_is_the_cnn_built_here) {
    size_t n;
    pb *w = cnn(true, true);
    if (getenv("AB_WRITE_SEEDS") != NULL) { /* AB_WRITE_SEEDS=1 test_onnx: rewrite it */
        FILE *o = fopen(abt_src("fuzz/seeds/onnx/cnn.onnx"), "wb");
        cr_assert_not_null(o);
        fwrite(w->b, 1, w->n, o);
        fclose(o);
    }
    pb_free(w);
    char *seed = abt_slurp(abt_src("fuzz/seeds/onnx/cnn.onnx"), &n);
    cr_assert_not_null(seed, "fuzz/seeds/onnx/cnn.onnx is missing");
    pb *f = cnn(true, true);
    cr_assert(n == f->n && memcmp(seed, f->b, n) == 0, "the seed differs from cnn(): rewrite it");
    free(seed);
    pb_free(f);
}

/* The fuzz seeds and the inputs that once crashed the harness import cleanly
 * in the ordinary build too: read, or refused as bad input naming the file. */
Test(onnx, fuzz_seeds_and_regressions_import_cleanly) {
    const char *dirs[] = {"fuzz/seeds/onnx", "fuzz/regressions/onnx"};
    int files = 0;
    for (int k = 0; k < 2; k++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", abt_src(dirs[k]));
        DIR *d = opendir(dir);
        if (d == NULL) continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            for (int opt = 0; opt < 2; opt++) {
                abf_onnx_options o = {.assume_dynamic = 3, .ignore_declared = opt == 1};
                ab_problem p;
                ab_error err;
                ab_error_clear(&err);
                ab_status st = abf_onnx_load(path, &o, &p, NULL, &err);
                cr_assert(st == AB_OK || (st == AB_EINPUT && strncmp(err.msg, path,
                                                                     strlen(path)) == 0),
                          "%s: status %d: %s", path, st, err.msg);
                ab_problem_free(&p);
            }
            files++;
        }
        closedir(d);
    }
    cr_assert_geq(files, 1);
}

/* Memory is bounded by the file: structures that cost far more than the bytes
 * that name them (here 100,000 empty attributes, 2 bytes each) are refused. */
Test(onnx, refuses_structures_far_larger_than_the_file) {
    pb *n = pb_new();
    pb_str(n, 1, "x");
    pb_str(n, 2, "y");
    pb_str(n, 4, "Relu");
    for (int k = 0; k < 100000; k++) pb_bytes(n, 5, "", 0);
    pb *g = pb_new();
    pb_msg(g, 1, n);
    pb_msg(g, 11, value_info("x", FLOAT, D(2), NULL));
    pb *f = model(g, 13);
    expect_error(f, NULL, WANT("graph.node[0]", "need more memory than a file of"));
    pb_free(f);
}
