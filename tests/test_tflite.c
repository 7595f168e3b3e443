/*
 * test_tflite.c — the TFLite importer (harness/formats/tflite.c, harness/cli/cmd_import.c).
 *
 * Models are built byte by byte here by a small flatbuffer writer (fbb_*), from
 * a plain description (mspec), so every live range and size below is checked
 * by hand. Then: truncation at every length, seeded random byte flips, each
 * allocation failing in turn, the real model in ../shared/data/models (skipped
 * when absent) and the command.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/cli/import.h"
#include "harness/formats/suite.h"
#include "harness/formats/tflite.h"
#include "harness/formats/tflite_offline.h"
#include "harness/formats/tflm_tail.h"
#include "oracle/bounds.h"
#include "tests/support.h"

/* ---- a flatbuffer writer ---------------------------------------------------------
 * Objects get an id first (fbb_new) and a position when written; references
 * are patched at the end (fbb_finish) and must point forward, so parents are
 * written before their children. Tables put their vtable just before them. */

#define FBB_MAX 65536
#define FBB_OBJS 1024
#define FBB_FIX 4096

typedef struct fbb {
    uint8_t b[FBB_MAX];
    size_t n;
    size_t pos[FBB_OBJS];
    int nobj;
    struct {
        size_t at;
        int obj;
    } fix[FBB_FIX];
    int nfix;
} fbb;

static int fbb_new(fbb *f) {
    cr_assert_lt(f->nobj, FBB_OBJS);
    return f->nobj++;
}

static void fbb_byte(fbb *f, uint8_t v) {
    cr_assert_lt(f->n, FBB_MAX);
    f->b[f->n++] = v;
}

static void fbb_u16(fbb *f, uint16_t v) {
    fbb_byte(f, (uint8_t)v);
    fbb_byte(f, (uint8_t)(v >> 8));
}

static void fbb_u32(fbb *f, uint32_t v) {
    for (int k = 0; k < 4; k++) fbb_byte(f, (uint8_t)(v >> 8 * k));
}

static void fbb_align(fbb *f, size_t a) {
    while (f->n % a) fbb_byte(f, 0);
}

/* A u32 reference to obj, patched by fbb_finish. */
static void fbb_ref(fbb *f, int obj) {
    cr_assert_lt(f->nfix, FBB_FIX);
    f->fix[f->nfix].at = f->n;
    f->fix[f->nfix++].obj = obj;
    fbb_u32(f, 0);
}

/* A table field: a scalar of size bytes, or a reference (ref >= 0). */
typedef struct fld {
    int id, size;
    uint64_t v;
    int ref;
} fld;

#define F8(i, x) ((fld){.id = (i), .size = 1, .v = (uint64_t)(x), .ref = -1})
#define F32(i, x) ((fld){.id = (i), .size = 4, .v = (uint64_t)(x), .ref = -1})
#define F64(i, x) ((fld){.id = (i), .size = 8, .v = (uint64_t)(x), .ref = -1})
#define FREF(i, o) ((fld){.id = (i), .size = 4, .ref = (o)})

static void fbb_table(fbb *f, int obj, const fld *fs, int nf) {
    int maxid = -1;
    unsigned off[32], o = 4;
    for (int i = 0; i < nf; i++) {
        if (fs[i].id > maxid) maxid = fs[i].id;
        while (o % (unsigned)fs[i].size) o++;
        off[i] = o;
        o += (unsigned)fs[i].size;
    }
    fbb_align(f, 2);
    size_t vt = f->n;
    fbb_u16(f, (uint16_t)(4 + 2 * (maxid + 1)));
    fbb_u16(f, (uint16_t)o);
    for (int id = 0; id <= maxid; id++) {
        unsigned at = 0;
        for (int i = 0; i < nf; i++)
            if (fs[i].id == id) at = off[i];
        fbb_u16(f, (uint16_t)at);
    }
    fbb_align(f, 8);
    size_t t = f->n;
    f->pos[obj] = t;
    fbb_u32(f, (uint32_t)(t - vt));
    for (int i = 0; i < nf; i++) {
        while (f->n < t + off[i]) fbb_byte(f, 0);
        if (fs[i].ref >= 0) {
            fbb_ref(f, fs[i].ref);
        } else {
            for (int k = 0; k < fs[i].size; k++) fbb_byte(f, (uint8_t)(fs[i].v >> 8 * k));
        }
    }
}

static void fbb_vec_i32(fbb *f, int obj, const int32_t *v, int n) {
    fbb_align(f, 4);
    f->pos[obj] = f->n;
    fbb_u32(f, (uint32_t)n);
    for (int i = 0; i < n; i++) fbb_u32(f, (uint32_t)v[i]);
}

static void fbb_vec_u8(fbb *f, int obj, int n) {
    fbb_align(f, 4);
    f->pos[obj] = f->n;
    fbb_u32(f, (uint32_t)n);
    for (int i = 0; i < n; i++) fbb_byte(f, (uint8_t)(0x3C + i));
}

static void fbb_vec_ref(fbb *f, int obj, const int *objs, int n) {
    fbb_align(f, 4);
    f->pos[obj] = f->n;
    fbb_u32(f, (uint32_t)n);
    for (int i = 0; i < n; i++) fbb_ref(f, objs[i]);
}

static void fbb_str(fbb *f, int obj, const char *s) {
    fbb_align(f, 4);
    f->pos[obj] = f->n;
    fbb_u32(f, (uint32_t)strlen(s));
    for (const char *c = s; *c; c++) fbb_byte(f, (uint8_t)*c);
    fbb_byte(f, 0);
}

static size_t fbb_finish(fbb *f) {
    for (int i = 0; i < f->nfix; i++) {
        size_t at = f->fix[i].at, to = f->pos[f->fix[i].obj];
        cr_assert_gt(to, at, "reference at %zu to object %d must point forward", at, f->fix[i].obj);
        uint32_t d = (uint32_t)(to - at);
        for (int k = 0; k < 4; k++) f->b[at + k] = (uint8_t)(d >> 8 * k);
    }
    return f->n;
}

/* ---- models described plainly ------------------------------------------------------ */

typedef struct tspec {
    const char *name;     /* NULL: no name field */
    int type;
    int ndim;
    int32_t shape[8];
    int nsig;             /* 0: no shape_signature */
    int32_t sig[8];
    uint32_t buffer;
    bool variable;
    int quant;            /* > 0: quantization with this many scales and zero points */
} tspec;

typedef struct opspec {
    uint32_t opcode;
    int nin, nout, nmid;
    int32_t in[8], out[8], mid[4];
} opspec;

typedef struct mspec {
    uint32_t version;
    int ncodes;
    struct {
        int dep, builtin; /* builtin < 0: field absent */
    } codes[8];
    int nbuf;
    int buflen[8];        /* -1: no data field */
    uint64_t bufoff[8];   /* > 0: Buffer.offset (data kept outside the flatbuffer, size 0) */
    int model_extra;      /* > 0: a Model field of this id, a reference to a string */
    int nt;
    tspec t[32];
    int nops;
    opspec ops[32];
    int nin, nout;
    int32_t in[4], out[4];
} mspec;

/* The tiny model (see the checks in tiny_model_live_ranges_and_sizes):
 *
 *   op 0  DEQUANTIZE       w_f16 (constant)       -> w
 *   op 1  CONV_2D          input, w, -1 (no bias)  -> conv
 *   op 2  QUANTIZE         conv                    -> q4 (int4), conv (a repeated name, dead)
 *   op 3  FULLY_CONNECTED  q4, w, -1               -> out (graph output)
 *
 * plus a tensor without a name that nothing touches. Operator codes are given
 * by the byte field, by the int field and by both. */
static mspec tiny(void) {
    mspec s = {
        .version = 3,
        .ncodes = 4,
        .codes = {{6, -1}, {3, 3}, {114, -1}, {0, 9}},
        .nbuf = 3,
        .buflen = {-1, 8, 0},
        .nt = 8,
        .t = {
            {"input", ABF_TFLITE_FLOAT32, 4, {1, 4, 4, 2}},
            {"w_f16", ABF_TFLITE_FLOAT16, 2, {2, 2}, .buffer = 1},
            {"w", ABF_TFLITE_FLOAT32, 2, {2, 2}},
            {"conv", ABF_TFLITE_FLOAT32, 4, {1, 4, 4, 2}},
            {"q4", ABF_TFLITE_INT4, 4, {1, 3, 3, 3}},
            {"out", ABF_TFLITE_FLOAT32, 2, {1, 3}, .buffer = 2},
            {"conv", ABF_TFLITE_INT8, 1, {5}},
            {NULL, ABF_TFLITE_FLOAT32, 1, {7}},
        },
        .nops = 4,
        .ops = {
            {0, 1, 1, 0, {1}, {2}},
            {1, 3, 1, 0, {0, 2, -1}, {3}},
            {2, 1, 2, 0, {3}, {4, 6}},
            {3, 3, 1, 0, {4, 2, -1}, {5}},
        },
        .nin = 1, .in = {0},
        .nout = 1, .out = {5},
    };
    return s;
}

/* Writes s as a .tflite flatbuffer into f; returns its length. */
static size_t build(const mspec *s, fbb *f) {
    memset(f, 0, sizeof *f);
    int model = fbb_new(f), codes = fbb_new(f), sgs = fbb_new(f), bufs = fbb_new(f);
    int sg = fbb_new(f), tensors = fbb_new(f), ins = fbb_new(f), outs = fbb_new(f);
    int ops = fbb_new(f);
    fbb_ref(f, model);
    fbb_byte(f, 'T'), fbb_byte(f, 'F'), fbb_byte(f, 'L'), fbb_byte(f, '3');
    int extra = fbb_new(f);
    fbb_table(f, model, (fld[]){F32(0, s->version), FREF(1, codes), FREF(2, sgs), FREF(4, bufs),
                                FREF(s->model_extra, extra)},
              s->model_extra > 0 ? 5 : 4);

    int code[8];
    for (int i = 0; i < s->ncodes; i++) code[i] = fbb_new(f);
    fbb_vec_ref(f, codes, code, s->ncodes);
    for (int i = 0; i < s->ncodes; i++) {
        fld fs[3] = {F8(0, s->codes[i].dep), F32(2, 1), F32(3, s->codes[i].builtin)};
        fbb_table(f, code[i], fs, s->codes[i].builtin < 0 ? 2 : 3);
    }

    fbb_vec_ref(f, sgs, (int[]){sg}, 1);
    fbb_table(f, sg, (fld[]){FREF(0, tensors), FREF(1, ins), FREF(2, outs), FREF(3, ops)}, 4);

    int tt[32];
    for (int i = 0; i < s->nt; i++) tt[i] = fbb_new(f);
    fbb_vec_ref(f, tensors, tt, s->nt);
    for (int i = 0; i < s->nt; i++) {
        const tspec *t = &s->t[i];
        int shape = fbb_new(f), name = fbb_new(f), sig = fbb_new(f), nf = 0;
        fld fs[8];
        fs[nf++] = FREF(0, shape);
        fs[nf++] = F8(1, t->type);
        fs[nf++] = F32(2, t->buffer);
        if (t->name) fs[nf++] = FREF(3, name);
        int quant = t->quant > 0 ? fbb_new(f) : -1;
        if (t->quant > 0) fs[nf++] = FREF(4, quant);
        if (t->variable) fs[nf++] = F8(5, 1);
        if (t->nsig) fs[nf++] = FREF(7, sig);
        fbb_table(f, tt[i], fs, nf);
        fbb_vec_i32(f, shape, t->shape, t->ndim);
        if (t->quant > 0) { /* QuantizationParameters: 2 scale:[float], 3 zero_point:[long] */
            int scale = fbb_new(f), zero = fbb_new(f);
            fbb_table(f, quant, (fld[]){FREF(2, scale), FREF(3, zero)}, 2);
            int32_t zeros[64] = {0};
            fbb_vec_i32(f, scale, zeros, t->quant);
            fbb_align(f, 8);
            fbb_u32(f, 0); /* so that the longs after the count are 8-aligned */
            f->pos[zero] = f->n;
            fbb_u32(f, (uint32_t)t->quant);
            for (int k = 0; k < 2 * t->quant; k++) fbb_u32(f, 0);
        }
        if (t->name) fbb_str(f, name, t->name);
        if (t->nsig) fbb_vec_i32(f, sig, t->sig, t->nsig);
    }
    fbb_vec_i32(f, ins, s->in, s->nin);
    fbb_vec_i32(f, outs, s->out, s->nout);

    int oo[32];
    for (int i = 0; i < s->nops; i++) oo[i] = fbb_new(f);
    fbb_vec_ref(f, ops, oo, s->nops);
    for (int i = 0; i < s->nops; i++) {
        const opspec *o = &s->ops[i];
        int in = fbb_new(f), out = fbb_new(f), mid = fbb_new(f);
        fld fs[4] = {F32(0, o->opcode), FREF(1, in), FREF(2, out), FREF(8, mid)};
        fbb_table(f, oo[i], fs, o->nmid ? 4 : 3);
        fbb_vec_i32(f, in, o->in, o->nin);
        fbb_vec_i32(f, out, o->out, o->nout);
        if (o->nmid) fbb_vec_i32(f, mid, o->mid, o->nmid);
    }

    int bb[8];
    for (int i = 0; i < s->nbuf; i++) bb[i] = fbb_new(f);
    fbb_vec_ref(f, bufs, bb, s->nbuf);
    for (int i = 0; i < s->nbuf; i++) {
        int data = fbb_new(f), nf = 0;
        fld fs[2];
        if (s->buflen[i] >= 0) fs[nf++] = FREF(0, data);
        if (s->bufoff[i] > 0) fs[nf++] = F64(1, s->bufoff[i]);
        fbb_table(f, bb[i], fs, nf);
        if (s->buflen[i] >= 0) fbb_vec_u8(f, data, s->buflen[i]);
    }
    if (s->model_extra > 0) fbb_str(f, extra, "an extra field");
    return fbb_finish(f);
}

static fbb F; /* one model at a time (64 KiB: not on the stack) */

/* Parses and converts s; returns the status, with m and p filled (the caller
 * frees both). */
static ab_status import_spec(const mspec *s, const abf_tflite_options *o, abf_tflite_model *m,
                             ab_problem *p, ab_error *err) {
    size_t len = build(s, &F);
    ab_problem_init(p);
    ab_status st = abf_tflite_parse("tiny.tflite", F.b, len, m, err);
    if (st == AB_OK) st = abf_tflite_problem(m, o, p, err);
    return st;
}

/* Imports s and expects AB_EINPUT with a message containing want. */
static void import_fails(const mspec *s, const abf_tflite_options *o, const char *want) {
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    ab_status st = import_spec(s, o, &m, &p, &err);
    cr_assert_eq(st, AB_EINPUT, "status %d, message: %s", st, err.msg);
    cr_assert(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

static const ab_tensor *find(const ab_problem *p, const char *name) {
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->t[i].name, name) == 0) return &p->t[i];
    return NULL;
}

/* Asserts tensor name of p: size, logical bits, range, kind, dtype. */
static void expect(const ab_problem *p, const char *name, int64_t size, int64_t bits,
                   int64_t start, int64_t end, ab_kind kind, const char *dtype) {
    const ab_tensor *t = find(p, name);
    cr_assert_not_null(t, "no tensor '%s'", name);
    cr_assert_eq(t->size, size, "%s: size %" PRId64 ", want %" PRId64, name, t->size, size);
    cr_assert_eq(t->logical_bits, bits, "%s: bits %" PRId64, name, t->logical_bits);
    cr_assert_eq(t->start, start, "%s: start %" PRId64 ", want %" PRId64, name, t->start, start);
    cr_assert_eq(t->end, end, "%s: end %" PRId64 ", want %" PRId64, name, t->end, end);
    cr_assert_eq(t->kind, kind, "%s: kind %d", name, t->kind);
    if (dtype == NULL) {
        cr_assert_null(t->dtype, "%s", name);
    } else {
        cr_assert_not_null(t->dtype, "%s", name);
        cr_assert_str_eq(t->dtype->name, dtype);
    }
}

static int64_t max_load(const ab_problem *p) {
    abo_bounds b;
    ab_error err = {0};
    cr_assert_eq(abo_bounds_compute(p, &b, &err), AB_OK, "%s", err.msg);
    return b.max_load;
}

/* ---- the tiny model, checked by hand ----------------------------------------------- */

Test(tflite, tiny_model_live_ranges_and_sizes) {
    mspec s = tiny();
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(m.ntensors, 8);
    cr_assert_eq(m.nops, 4);
    cr_assert_eq(m.ops[0].code, ABF_TFLITE_OP_DEQUANTIZE);
    cr_assert_eq(m.ops[1].code, ABF_TFLITE_OP_CONV_2D);
    cr_assert_eq(m.ops[2].code, 114); /* QUANTIZE, by the byte field */
    cr_assert_eq(m.ops[3].code, 9);   /* FULLY_CONNECTED, by the int field */
    cr_assert_eq(m.ops[1].nin, 3);
    cr_assert_eq(m.ops[1].in[2], -1);

    /* 6 tensors planned, in file order: */
    cr_assert_eq(p.n, 6, "%zu tensors", p.n);
    const char *order[] = {"input", "w", "conv", "q4", "out", "conv#6"};
    for (size_t i = 0; i < 6; i++) cr_assert_str_eq(p.t[i].name, order[i]);
    /* input: 1x4x4x2 float32 = 128 bytes, from op 0 (graph input) to op 1 */
    expect(&p, "input", 128, 1024, 0, 1, AB_KIND_INPUT, "float32");
    /* w: the DEQUANTIZE of w_f16, written at op 0, last read at op 3 */
    expect(&p, "w", 16, 128, 0, 3, AB_KIND_INTERMEDIATE, "float32");
    expect(&p, "conv", 128, 1024, 1, 2, AB_KIND_INTERMEDIATE, "float32");
    /* q4: 27 int4 = 108 bits, 14 bytes */
    expect(&p, "q4", 14, 108, 2, 3, AB_KIND_INTERMEDIATE, "int4");
    /* out: an empty buffer is no constant; graph output: to the last op */
    expect(&p, "out", 12, 96, 3, 3, AB_KIND_OUTPUT, "float32");
    /* the second "conv": dead (written at op 2, never read): end = start */
    expect(&p, "conv#6", 5, 40, 2, 2, AB_KIND_INTERMEDIATE, "int8");
    cr_assert_eq(find(&p, "q4")->ndim, 4);
    cr_assert_eq(find(&p, "q4")->shape[3], 3);

    /* what the model says of each tensor */
    cr_assert_str_eq(m.t[7].name, "t7");
    cr_assert(m.t[1].flags & ABF_TFLITE_CONSTANT);
    cr_assert(m.t[2].flags & ABF_TFLITE_DERIVED);
    cr_assert_not(m.t[3].flags & ABF_TFLITE_DERIVED);
    cr_assert_not(m.t[5].flags & ABF_TFLITE_CONSTANT);
    cr_assert(m.t[6].flags & ABF_TFLITE_DEAD);
    cr_assert(m.t[7].flags & ABF_TFLITE_UNUSED);
    cr_assert(m.t[0].flags & ABF_TFLITE_INPUT);
    cr_assert(m.t[5].flags & ABF_TFLITE_OUTPUT);
    cr_assert_eq(m.nconstant, 1);
    cr_assert_eq(m.nderived, 1);
    cr_assert_eq(m.ndead, 1);
    cr_assert_eq(m.nunused, 1);
    cr_assert_eq(m.nactivations, 6);

    /* io: separate: at op 2, w 16 + conv 128 + q4 14 + conv#6 5 */
    cr_assert_eq(max_load(&p), 163);
    cr_assert_str_eq(p.name, "tiny");
    cr_assert(strstr(p.description, "tiny.tflite") != NULL, "%s", p.description);
    cr_assert(strstr(p.description, "1 tensors computed from constants alone kept") != NULL,
              "%s", p.description);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, fold_constants_leaves_out_the_dequantized_weight) {
    mspec s = tiny();
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    abf_tflite_options o = {.fold_constants = true};
    cr_assert_eq(import_spec(&s, &o, &m, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 5);
    cr_assert_null(find(&p, "w"));
    expect(&p, "conv", 128, 1024, 1, 2, AB_KIND_INTERMEDIATE, "float32");
    cr_assert_eq(max_load(&p), 147); /* conv 128 + q4 14 + conv#6 5 */
    cr_assert(strstr(p.description, "left out (--fold-constants)") != NULL, "%s", p.description);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, derived_chains_follow_execution_order) {
    /* w -> DEQUANTIZE -> w2 -> RESHAPE(w2, constant shape) -> w3, then CONV(input, w3) */
    mspec s = tiny();
    s.nt = 11;
    s.t[8] = (tspec){.name = "w2", .type = ABF_TFLITE_FLOAT32, .ndim = 1, .shape = {4}};
    s.t[9] = (tspec){"newshape", ABF_TFLITE_INT32, 1, {1}, .buffer = 1};
    s.t[10] = (tspec){.name = "w3", .type = ABF_TFLITE_FLOAT32, .ndim = 1, .shape = {4}};
    s.ncodes = 5;
    s.codes[4].dep = 22, s.codes[4].builtin = -1;
    s.nops = 4;
    s.ops[0] = (opspec){.opcode = 0, .nin = 1, .nout = 1, .in = {1}, .out = {8}};
    s.ops[1] = (opspec){.opcode = 4, .nin = 2, .nout = 1, .in = {8, 9}, .out = {10}};
    s.ops[2] = (opspec){.opcode = 1, .nin = 3, .nout = 1, .in = {0, 10, -1}, .out = {3}};
    s.ops[3] = (opspec){.opcode = 3, .nin = 3, .nout = 1, .in = {3, 2, -1}, .out = {5}}; /* w (2) is now read but never written */
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    cr_assert(m.t[8].flags & ABF_TFLITE_DERIVED);
    cr_assert(m.t[10].flags & ABF_TFLITE_DERIVED);
    cr_assert_not(m.t[3].flags & ABF_TFLITE_DERIVED); /* reads the graph input */
    cr_assert_not(m.t[2].flags & ABF_TFLITE_DERIVED); /* nothing writes it */
    expect(&p, "w2", 16, 128, 0, 1, AB_KIND_INTERMEDIATE, "float32");
    expect(&p, "w3", 16, 128, 1, 2, AB_KIND_INTERMEDIATE, "float32");
    /* read but never written: from its first reader on */
    expect(&p, "w", 16, 128, 3, 3, AB_KIND_INTERMEDIATE, "float32");
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, variables_intermediates_and_io_tensors) {
    mspec s = tiny();
    s.t[7] = (tspec){"state", ABF_TFLITE_INT16, 1, {3}, .variable = true};
    s.ops[1].nmid = 1;
    s.ops[1].mid[0] = 7; /* touched at op 1 only, but a variable: the whole graph */
    s.nout = 2;
    s.out[1] = 0; /* the input is an output too */
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    expect(&p, "state", 6, 48, 0, 3, AB_KIND_INTERMEDIATE, "int16");
    expect(&p, "input", 128, 1024, 0, 3, AB_KIND_INPUT, "float32");
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, graph_without_operators) {
    mspec s = tiny();
    s.nops = 0;
    s.nout = 1;
    s.out[0] = 0;
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 1);
    expect(&p, "input", 128, 1024, 0, 0, AB_KIND_INPUT, "float32");
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

/* ---- the suite round trip ---------------------------------------------------------- */

/* Renders p as YAML, loads it back, and checks the two agree. */
static void round_trip(const ab_problem *p) {
    ab_buf b = {0};
    ab_error err = {0};
    cr_assert_eq(abf_suite_render(p, &b, &err), AB_OK, "%s", err.msg);
    ab_problem q;
    cr_assert_eq(abf_suite_load_buffer("rt.yaml", b.s, b.n, &q, &err), AB_OK, "%s\n%s", err.msg,
                 b.s);
    cr_assert_eq(q.n, p->n);
    cr_assert_str_eq(q.name, p->name);
    cr_assert_str_eq(q.description, p->description);
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *a = &p->t[i], *c = &q.t[i];
        cr_assert_str_eq(a->name, c->name);
        cr_assert_eq(a->size, c->size, "%s", a->name);
        cr_assert_eq(a->logical_bits, c->logical_bits, "%s", a->name);
        cr_assert_eq(a->start, c->start, "%s", a->name);
        cr_assert_eq(a->end, c->end, "%s", a->name);
        cr_assert_eq(a->kind, c->kind, "%s", a->name);
        cr_assert_eq(a->dtype, c->dtype, "%s", a->name);
        cr_assert_eq(a->ndim, c->ndim, "%s", a->name);
    }
    ab_problem_free(&q);
    ab_buf_free(&b);
}

Test(tflite, tiny_model_round_trips_through_suite_yaml) {
    mspec s = tiny();
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    round_trip(&p);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, names_are_made_printable_and_unique) {
    mspec s = tiny();
    s.t[0].name = "in\tput\x01";    /* control characters */
    s.t[2].name = "w\xff\xc3(";     /* bytes that are not UTF-8 */
    s.t[3].name = "caf\xc3\xa9";    /* UTF-8 stays */
    s.t[4].name = "";               /* empty: t<index> */
    s.t[5].name = "caf\xc3\xa9";    /* a third and fourth "café" */
    s.t[6].name = "caf\xc3\xa9";
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(m.t[0].name, "in\\x09put\\x01");
    cr_assert_str_eq(m.t[2].name, "w\\xFF\\xC3(");
    cr_assert_str_eq(m.t[3].name, "caf\xc3\xa9");
    cr_assert_str_eq(m.t[4].name, "t4");
    cr_assert_str_eq(m.t[5].name, "caf\xc3\xa9#5");
    cr_assert_str_eq(m.t[6].name, "caf\xc3\xa9#6");
    round_trip(&p);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, a_name_that_stays_repeated_is_an_error) {
    mspec s = tiny();
    s.t[6].name = "conv#6"; /* what the repeat of "conv" at index 6 would become... */
    s.t[5].name = "conv";   /* ...so "conv#5" and the given "conv#6" and "conv" */
    s.t[7].name = "conv#5";
    import_fails(&s, NULL, "cannot be made unique");
}

Test(tflite, scalars_and_float8_and_types) {
    mspec s = tiny();
    s.t[5].ndim = 0; /* a float32 scalar output */
    s.t[6].type = ABF_TFLITE_FLOAT8_E5M2;
    s.t[6].ndim = 2, s.t[6].shape[0] = 3, s.t[6].shape[1] = 5;
    s.t[1].type = ABF_TFLITE_STRING; /* a constant of any type is fine */
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    expect(&p, "out", 4, 32, 3, 3, AB_KIND_OUTPUT, "float32");
    cr_assert_eq(find(&p, "out")->ndim, 0);
    expect(&p, "conv#6", 15, 120, 2, 2, AB_KIND_INTERMEDIATE, NULL); /* size only */
    round_trip(&p);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);

    s = tiny();
    s.t[3].type = ABF_TFLITE_STRING;
    import_fails(&s, NULL, "byte ");
    import_fails(&s, NULL, "tensor 3 'conv': type STRING (5) has no fixed element size");
    s.t[3].type = 99;
    import_fails(&s, NULL, "tensor 3 'conv': type unknown (99)");
    s.t[3].type = ABF_TFLITE_BFLOAT16;
    abf_tflite_model m2;
    cr_assert_eq(import_spec(&s, NULL, &m2, &p, &err), AB_OK, "%s", err.msg);
    expect(&p, "conv", 64, 512, 1, 2, AB_KIND_INTERMEDIATE, "bfloat16");
    abf_tflite_model_free(&m2);
    ab_problem_free(&p);
}

Test(tflite, empty_tensors_are_left_out) {
    mspec s = tiny();
    s.t[6].shape[0] = 0;
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, NULL, &m, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(p.n, 5);
    cr_assert_eq(m.nempty, 1);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, huge_shapes_are_errors) {
    mspec s = tiny();
    s.t[3].ndim = 4;
    for (int k = 0; k < 4; k++) s.t[3].shape[k] = 0x7fffffff;
    import_fails(&s, NULL, "tensor 3 'conv': shape x element bits is too large");
}

/* ---- dynamic dimensions ---------------------------------------------------------- */

static mspec dynamic_model(void) {
    mspec s = tiny();
    s.t[0].nsig = 4;
    s.t[0].sig[0] = -1, s.t[0].sig[1] = 4, s.t[0].sig[2] = 4, s.t[0].sig[3] = 2;
    s.t[3].shape[0] = -1; /* a -1 in shape itself */
    return s;
}

Test(tflite, a_dynamic_dimension_without_a_value_is_an_error_naming_the_tensor) {
    mspec s = dynamic_model();
    import_fails(&s, NULL, "tiny.tflite: tensor 0 'input': dimension 0 is dynamic (shape [-1, 4, "
                           "4, 2]); give its value with --dim input=N or --assume-dynamic=N");
    abf_tflite_dim d[] = {{"input", 2}};
    abf_tflite_options o = {.dims = d, .ndims = 1};
    import_fails(&s, &o, "tensor 3 'conv': dimension 0 is dynamic");
}

Test(tflite, dim_and_assume_dynamic_give_the_values) {
    mspec s = dynamic_model();
    abf_tflite_dim d[] = {{"input", 2}, {"conv", 5}, {"input", 3}}; /* the last one wins */
    abf_tflite_options o = {.dims = d, .ndims = 3};
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(import_spec(&s, &o, &m, &p, &err), AB_OK, "%s", err.msg);
    expect(&p, "input", 384, 3072, 0, 1, AB_KIND_INPUT, "float32");
    expect(&p, "conv", 640, 5120, 1, 2, AB_KIND_INTERMEDIATE, "float32");
    cr_assert_eq(find(&p, "input")->shape[0], 3);
    cr_assert(m.t[0].flags & ABF_TFLITE_DYNAMIC);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);

    abf_tflite_options all = {.dims = d, .ndims = 1, .assume_dynamic = 7};
    cr_assert_eq(import_spec(&s, &all, &m, &p, &err), AB_OK, "%s", err.msg);
    expect(&p, "input", 256, 2048, 0, 1, AB_KIND_INPUT, "float32");
    expect(&p, "conv", 7 * 128, 7 * 1024, 1, 2, AB_KIND_INTERMEDIATE, "float32");
    cr_assert(strstr(p.description, "--dim and --assume-dynamic") != NULL, "%s", p.description);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, dim_must_name_a_dynamic_tensor) {
    mspec s = dynamic_model();
    abf_tflite_dim d1[] = {{"nosuch", 2}};
    abf_tflite_options o = {.dims = d1, .ndims = 1, .assume_dynamic = 1};
    import_fails(&s, &o, "--dim nosuch=2: no tensor is called 'nosuch'");
    abf_tflite_dim d2[] = {{"q4", 2}};
    o.dims = d2;
    import_fails(&s, &o, "--dim q4=2: tensor 4 'q4' has no dynamic dimension (shape [1, 3, 3, 3])");
}

/* ---- malformed files ------------------------------------------------------------- */

/* Parses len bytes; expects AB_EINPUT and a message with want. */
static void parse_fails(const uint8_t *b, size_t len, const char *want) {
    abf_tflite_model m;
    ab_error err = {0};
    ab_status st = abf_tflite_parse("bad.tflite", b, len, &m, &err);
    cr_assert_eq(st, AB_EINPUT, "status %d: %s", st, err.msg);
    cr_assert(strstr(err.msg, want) != NULL, "message '%s' lacks '%s'", err.msg, want);
    abf_tflite_model_free(&m);
}

Test(tflite, rejects_what_is_not_a_tflite_file) {
    parse_fails((const uint8_t *)"TFL3", 4, "bad.tflite: byte 0: too short for a TFLite "
                                            "flatbuffer (4 bytes, at least 8)");
    parse_fails((const uint8_t *)"\x08\0\0\0PK\x03\x04....", 12,
                "bad.tflite: byte 4: no TFLite file identifier ('TFL3' expected, found "
                "'PK\\x03\\x04')");
    mspec s = tiny();
    s.version = 2;
    size_t len = build(&s, &F);
    parse_fails(F.b, len, "schema version 2, expected 3");
}

Test(tflite, rejects_indices_out_of_range) {
    mspec s = tiny();
    s.ops[1].in[1] = 99;
    size_t len = build(&s, &F);
    parse_fails(F.b, len, "operator 1: input 1 is tensor 99, out of range (subgraph 0 has 8 "
                          "tensors)");
    s = tiny();
    s.ops[2].opcode = 4;
    len = build(&s, &F);
    parse_fails(F.b, len, "operator 2: opcode_index 4 out of range (the model has 4 operator "
                          "codes)");
    s = tiny();
    s.in[0] = -1;
    len = build(&s, &F);
    parse_fails(F.b, len, "subgraph 0: input 0 is tensor -1, out of range");
    s = tiny();
    s.t[4].buffer = 3;
    len = build(&s, &F);
    parse_fails(F.b, len, "tensor 4: buffer index 3 out of range (the model has 3 buffers)");
    s = tiny();
    s.t[4].nsig = 2;
    len = build(&s, &F);
    parse_fails(F.b, len, "tensor 4: shape_signature has 2 dimensions but shape has 4");
}

Test(tflite, truncation_at_every_length_is_an_input_error_with_a_byte_offset) {
    mspec s = tiny();
    size_t len = build(&s, &F);
    for (size_t n = 0; n < len; n++) {
        uint8_t *b = malloc(n ? n : 1); /* exactly n bytes, so ASan sees any overread */
        memcpy(b, F.b, n);
        abf_tflite_model m;
        ab_error err = {0};
        ab_status st = abf_tflite_parse("cut.tflite", b, n, &m, &err);
        cr_assert_eq(st, AB_EINPUT, "length %zu of %zu: status %d", n, len, st);
        cr_assert(strncmp(err.msg, "cut.tflite: byte ", 17) == 0, "length %zu: %s", n, err.msg);
        abf_tflite_model_free(&m);
        free(b);
    }
    abf_tflite_model m;
    ab_error err = {0};
    cr_assert_eq(abf_tflite_parse("whole.tflite", F.b, len, &m, &err), AB_OK, "%s", err.msg);
    abf_tflite_model_free(&m);
}

static uint64_t rnd(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Imports len bytes with every option on; never crashes. When the import
 * succeeds, the suite renders and loads back. Returns the status. */
static ab_status import_bytes(const uint8_t *b, size_t len) {
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    abf_tflite_options o = {.assume_dynamic = 2};
    ab_problem_init(&p);
    ab_status st = abf_tflite_parse("flip.tflite", b, len, &m, &err);
    if (st == AB_OK) st = abf_tflite_problem(&m, &o, &p, &err);
    cr_assert(st == AB_OK || st == AB_EINPUT, "status %d: %s", st, err.msg);
    if (st != AB_OK) cr_assert(strstr(err.msg, "flip.tflite: ") == err.msg, "%s", err.msg);
    if (st == AB_OK) {
        ab_buf y = {0};
        ab_problem q;
        cr_assert_eq(abf_suite_render(&p, &y, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(abf_suite_load_buffer("flip.yaml", y.s, y.n, &q, &err), AB_OK, "%s\n%s",
                     err.msg, y.s);
        cr_assert_eq(q.n, p.n);
        ab_problem_free(&q);
        ab_buf_free(&y);
    }
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
    return st;
}

Test(tflite, random_byte_flips_never_crash) {
    mspec s = tiny();
    size_t len = build(&s, &F);
    uint64_t seed = 20261129;
    int ok = 0;
    for (int round = 0; round < 4000; round++) {
        uint8_t *b = malloc(len);
        memcpy(b, F.b, len);
        int flips = 1 + (int)(rnd(&seed) % 4);
        for (int k = 0; k < flips; k++) {
            size_t at = rnd(&seed) % len;
            b[at] = rnd(&seed) % 3 == 0 ? (uint8_t)(b[at] ^ (1u << rnd(&seed) % 8))
                                        : (uint8_t)rnd(&seed);
        }
        ok += import_bytes(b, len) == AB_OK;
        free(b);
    }
    cr_log_info("random_byte_flips_never_crash: %d of 4000 mutants imported", ok);
    cr_assert_gt(ok, 0);
}

Test(tflite, shared_vectors_cannot_multiply_memory) {
    /* 30 operators that all read one list of 1000 inputs: the file holds 4 KB of
     * indices but would expand to 30000 */
    fbb *f = &F;
    memset(f, 0, sizeof *f);
    int model = fbb_new(f), codes = fbb_new(f), sgs = fbb_new(f), sg = fbb_new(f);
    int tensors = fbb_new(f), ops = fbb_new(f), code = fbb_new(f), t0 = fbb_new(f);
    int list = fbb_new(f), shape = fbb_new(f);
    int op[30];
    fbb_ref(f, model);
    fbb_byte(f, 'T'), fbb_byte(f, 'F'), fbb_byte(f, 'L'), fbb_byte(f, '3');
    fbb_table(f, model, (fld[]){F32(0, 3), FREF(1, codes), FREF(2, sgs)}, 3);
    fbb_vec_ref(f, codes, (int[]){code}, 1);
    fbb_table(f, code, (fld[]){F8(0, 0)}, 1);
    fbb_vec_ref(f, sgs, (int[]){sg}, 1);
    fbb_table(f, sg, (fld[]){FREF(0, tensors), FREF(3, ops)}, 2);
    fbb_vec_ref(f, tensors, (int[]){t0}, 1);
    fbb_table(f, t0, (fld[]){FREF(0, shape)}, 1);
    fbb_vec_i32(f, shape, (int32_t[]){4}, 1);
    for (int i = 0; i < 30; i++) op[i] = fbb_new(f);
    fbb_vec_ref(f, ops, op, 30);
    for (int i = 0; i < 30; i++) fbb_table(f, op[i], (fld[]){FREF(1, list)}, 1);
    int32_t zeros[1000] = {0};
    fbb_vec_i32(f, list, zeros, 1000);
    size_t len = fbb_finish(f);
    parse_fails(f->b, len, "more integers than a file of");
}

Test(tflite, each_failed_allocation_is_reported) {
    mspec s = dynamic_model();
    size_t len = build(&s, &F);
    abf_tflite_options o = {.assume_dynamic = 1, .fold_constants = true};
    ab_alloc_fail_at(0);
    {
        abf_tflite_model m;
        ab_problem p;
        ab_error err = {0};
        cr_assert_eq(abf_tflite_parse("a.tflite", F.b, len, &m, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(abf_tflite_problem(&m, &o, &p, &err), AB_OK, "%s", err.msg);
        abf_tflite_model_free(&m);
        ab_problem_free(&p);
    }
    long calls = ab_alloc_fail_at(0);
    cr_assert_gt(calls, 10);
    for (long k = 1; k <= calls; k++) {
        abf_tflite_model m;
        ab_problem p;
        ab_error err = {0};
        ab_problem_init(&p);
        ab_alloc_fail_at(k);
        ab_status st = abf_tflite_parse("a.tflite", F.b, len, &m, &err);
        if (st == AB_OK) st = abf_tflite_problem(&m, &o, &p, &err);
        ab_alloc_fail_at(0);
        cr_assert_eq(st, AB_ENOMEM, "allocation %ld of %ld: status %d (%s)", k, calls, st, err.msg);
        cr_assert_eq(p.n, 0);
        abf_tflite_model_free(&m);
        ab_problem_free(&p);
    }
}

/* ---- what the offline-plan writer reads beyond the importer --------------------------
 * tflite_offline.c re-points every field of the Model and every buffer, so it
 * checks fields the importer never reads; its refusals are pinned here. */

static uint32_t le32(const uint8_t *b, size_t p) {
    return (uint32_t)b[p] | (uint32_t)b[p + 1] << 8 | (uint32_t)b[p + 2] << 16 |
           (uint32_t)b[p + 3] << 24;
}

/* Where the Model's vtable slot for field id is, and the field itself (0: absent). */
static size_t model_slot(const uint8_t *b, int id, size_t *field) {
    size_t model = le32(b, 0), vt = model - le32(b, model), slot = vt + 4 + 2 * (size_t)id;
    unsigned off = (unsigned)b[slot] | (unsigned)b[slot + 1] << 8;
    *field = off ? model + off : 0;
    return slot;
}

/* Writes an offline plan (all offsets 0) into the len bytes at b, which import;
 * returns the status, err and the copy in out (the caller frees it). */
static ab_status offline_copy(const uint8_t *b, size_t len, ab_buf *out, ab_error *err) {
    abf_tflite_model m;
    cr_assert_eq(abf_tflite_parse("o.tflite", b, len, &m, err), AB_OK, "%s", err->msg);
    size_t n = m.ntensors;
    abf_tflite_model_free(&m);
    int32_t offsets[32] = {0};
    cr_assert_leq(n, 32);
    return abf_tflite_offline_write("o.tflite", b, len, offsets, n, out, err);
}

static void offline_fails(const uint8_t *b, size_t len, const char *want) {
    ab_buf out = {0};
    ab_error err = {0};
    ab_status st = offline_copy(b, len, &out, &err);
    cr_assert_eq(st, AB_EINPUT, "status %d: %s", st, err.msg);
    cr_assert_str_eq(err.msg, want);
    cr_assert_eq(out.n, 0, "a refused copy appends nothing");
    ab_buf_free(&out);
}

Test(tflite, offline_writer_keeps_model_fields_the_importer_does_not_read) {
    mspec s = tiny();
    s.model_extra = 3; /* description */
    size_t len = build(&s, &F);
    ab_buf out = {0};
    ab_error err = {0};
    cr_assert_eq(offline_copy(F.b, len, &out, &err), AB_OK, "%s", err.msg);
    size_t field, slot = model_slot((const uint8_t *)out.s, 3, &field);
    cr_assert_neq(field, 0, "the copy's Model lost its description (slot at byte %zu)", slot);
    size_t to = field + le32((const uint8_t *)out.s, field);
    cr_assert_lt(to + 4 + 14, out.n);
    cr_assert_eq(le32((const uint8_t *)out.s, to), 14);
    cr_assert(memcmp(out.s + to + 4, "an extra field", 14) == 0, "the description moved wrong");
    ab_buf_free(&out);
}

Test(tflite, offline_writer_refusals_name_the_byte) {
    mspec s = tiny();
    s.model_extra = 9; /* not in the schema: its type is unknown */
    size_t len = build(&s, &F), field;
    model_slot(F.b, 9, &field);
    char want[512];
    snprintf(want, sizeof want, "o.tflite: byte %zu: the model has field 9, which the schema "
             "this writer knows (fields 0-7) has not; it cannot be rewritten safely", field);
    offline_fails(F.b, len, want);

    s = tiny();
    s.bufoff[2] = 4096; /* size 0: the importer accepts it */
    len = build(&s, &F);
    ab_error err = {0};
    ab_buf out = {0};
    cr_assert_eq(offline_copy(F.b, len, &out, &err), AB_EINPUT, "%s", err.msg);
    cr_assert_eq(out.n, 0);
    cr_assert(strstr(err.msg, ": buffer 2 is stored outside the flatbuffer (at byte 4096); such "
                     "models (over 2 GB) cannot be rewritten") != NULL, "%s", err.msg);
    cr_assert(strncmp(err.msg, "o.tflite: byte ", 15) == 0, "%s", err.msg);

    s = tiny();
    s.model_extra = 3;
    len = build(&s, &F);
    size_t slot = model_slot(F.b, 3, &field);
    F.b[slot] = 0xF0; /* the description's offset now lies past the Model table */
    snprintf(want, sizeof want, "o.tflite: byte %zu: field 3 of the model lies outside it", slot);
    offline_fails(F.b, len, want);

    len = build(&s, &F);
    model_slot(F.b, 3, &field);
    F.b[field + 3] = 0x7F; /* the description's reference points past the end */
    snprintf(want, sizeof want, "o.tflite: byte %zu: a field of the model points past the end "
             "of the file", field);
    offline_fails(F.b, len, want);
}

/* The fuzzer's seed fuzz/seeds/tflite/tiny.tflite is the tiny model (run with
 * ABT_WRITE_FUZZ_SEED=1 to write it again after changing tiny()). */
Test(tflite, fuzz_seed_is_the_tiny_model) {
    mspec s = tiny();
    size_t len = build(&s, &F), have;
    const char *path = abt_src("fuzz/seeds/tflite/tiny.tflite");
    if (getenv("ABT_WRITE_FUZZ_SEED") != NULL) {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f);
        cr_assert_eq(fwrite(F.b, 1, len, f), len);
        fclose(f);
    }
    char *b = abt_slurp(path, &have);
    cr_assert_not_null(b, "%s missing", path);
    cr_assert(have == len && memcmp(b, F.b, len) == 0, "%s is not the tiny model", path);
    free(b);
}

/* Every file in fuzz/seeds/tflite/ and fuzz/regressions/tflite/ (inputs that once crashed
 * or hung the importer) imports or fails cleanly. */
Test(tflite, fuzz_seeds_and_regressions_import_or_fail_cleanly) {
    static const char *const dirs[] = {"fuzz/seeds/tflite", "fuzz/regressions/tflite"};
    int files = 0;
    for (size_t d = 0; d < 2; d++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", abt_src(dirs[d]));
        DIR *dp = opendir(dir);
        if (dp == NULL) continue;
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            if (e->d_name[0] == '.' || strcmp(e->d_name, "README.md") == 0) continue;
            char path[4096 + 256];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            size_t len;
            char *b = abt_slurp(path, &len);
            cr_assert_not_null(b, "%s", path);
            import_bytes((const uint8_t *)b, len);
            free(b);
            files++;
        }
        closedir(dp);
    }
    cr_assert_gt(files, 0);
}

/* ---- the real model ------------------------------------------------------------------- */

static const char *real_model(void) {
    static char path[4096];
    const char *data = abt_shared_data();
    if (data == NULL) return NULL;
    snprintf(path, sizeof path, "%s/models/face_detection_short_range.tflite", data);
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fclose(f);
    return path;
}

Test(tflite, real_model_imports) {
    const char *path = real_model();
    if (path == NULL) cr_skip("../shared/data/models/face_detection_short_range.tflite is absent");
    abf_tflite_model m;
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(abf_tflite_load(path, NULL, &p, &m, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(m.ntensors, 250);
    cr_assert_eq(m.nops, 164);
    cr_assert_eq(m.nsubgraphs, 1);
    cr_assert_eq(m.nconstant, 85);
    cr_assert_eq(m.nderived, 74);
    cr_assert_eq(p.n, 165);
    cr_assert_eq(m.ndead + m.nunused + m.nempty, 0);
    cr_assert_str_eq(p.name, "face_detection_short_range");
    cr_assert_str_eq(p.source, path);

    /* every constant-derived tensor is a float32 DEQUANTIZE of a float16 constant */
    for (size_t i = 0; i < m.ntensors; i++) {
        const abf_tflite_tensor *t = &m.t[i];
        if (!(t->flags & ABF_TFLITE_DERIVED)) continue;
        const abf_tflite_op *op = &m.ops[t->writer];
        cr_assert_eq(op->code, ABF_TFLITE_OP_DEQUANTIZE, "%s", t->name);
        cr_assert_eq(t->type, ABF_TFLITE_FLOAT32, "%s", t->name);
        cr_assert(m.t[op->in[0]].flags & ABF_TFLITE_CONSTANT, "%s", t->name);
        cr_assert_eq(m.t[op->in[0]].type, ABF_TFLITE_FLOAT16, "%s", t->name);
    }
    /* the input: 1x128x128x3 float32 from op 0 */
    expect(&p, "input", 196608, 196608 * 8, 0, 2, AB_KIND_INPUT, "float32");
    size_t nout = 0;
    int64_t sum = 0, largest = 0;
    for (size_t i = 0; i < p.n; i++) {
        nout += p.t[i].kind == AB_KIND_OUTPUT;
        cr_assert_leq(p.t[i].start, p.t[i].end);
        cr_assert_lt(p.t[i].end, 164);
        if (p.t[i].kind != AB_KIND_INTERMEDIATE) continue;
        sum += p.t[i].size;
        if (p.t[i].size > largest) largest = p.t[i].size;
    }
    cr_assert_eq(nout, 2);
    int64_t bound = max_load(&p);
    cr_assert_geq(bound, largest);
    cr_assert_leq(bound, sum);
    cr_assert_eq(bound, 1376256); /* 3 tensors live at op 19 */
    round_trip(&p);
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
}

Test(tflite, real_model_fold_constants_removes_the_dequantized_weights) {
    const char *path = real_model();
    if (path == NULL) cr_skip("../shared/data/models/face_detection_short_range.tflite is absent");
    abf_tflite_model m;
    ab_problem p, folded;
    ab_error err = {0};
    abf_tflite_options o = {.fold_constants = true};
    cr_assert_eq(abf_tflite_load(path, NULL, &p, &m, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abf_tflite_load(path, &o, &folded, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(folded.n, p.n - m.nderived);
    cr_assert_eq(folded.n, 91);
    for (size_t i = 0; i < m.ntensors; i++) {
        bool derived = m.t[i].flags & ABF_TFLITE_DERIVED;
        bool planned = !(m.t[i].flags & ABF_TFLITE_CONSTANT);
        const ab_tensor *t = find(&folded, m.t[i].name);
        cr_assert_eq(t != NULL, planned && !derived, "%s", m.t[i].name);
    }
    cr_assert_leq(max_load(&folded), max_load(&p));
    abf_tflite_model_free(&m);
    ab_problem_free(&p);
    ab_problem_free(&folded);
}

/* Asserts that a and c hold the same suite, tensor by tensor. */
static void same_problem(const ab_problem *a, const ab_problem *c, const char *what) {
    cr_assert_str_eq(a->name, c->name, "%s", what);
    cr_assert_str_eq(a->description, c->description, "%s", what);
    cr_assert_eq(a->n, c->n, "%s: %zu tensors, want %zu", what, a->n, c->n);
    for (size_t i = 0; i < a->n; i++) {
        const ab_tensor *x = &a->t[i], *y = &c->t[i];
        cr_assert_str_eq(x->name, y->name, "%s", what);
        cr_assert(x->size == y->size && x->logical_bits == y->logical_bits &&
                  x->start == y->start && x->end == y->end && x->kind == y->kind &&
                  x->dtype == y->dtype && x->ndim == y->ndim && x->align == y->align,
                  "%s: tensor %s differs", what, x->name);
        for (int k = 0; k < x->ndim; k++)
            cr_assert_eq(x->shape[k], y->shape[k], "%s: %s", what, x->name);
    }
}

/* The committed suites hold what import gives today (regenerate them with
 * arenabench import, see the suites' descriptions, when this fails). */
Test(tflite, committed_model_suites_are_current) {
    const char *path = real_model();
    if (path == NULL) cr_skip("../shared/data/models/face_detection_short_range.tflite is absent");
    static const struct {
        const char *suite;
        bool fold;
    } cases[] = {{"suites/models/face_detection_short_range.yaml", false},
                 {"suites/models/face_detection_short_range_folded.yaml", true}};
    for (size_t k = 0; k < 2; k++) {
        char *dir = abt_tmpdir(), out[4096];
        snprintf(out, sizeof out, "%s/fd.yaml", dir);
        char *plain[] = {"import", (char *)path, "-o", out, NULL};
        char *folded[] = {"import", (char *)path, "-o", out, "--fold-constants", "--name",
                          "face_detection_short_range_folded", NULL};
        cr_assert_eq(cases[k].fold ? abc_cmd_import(7, folded) : abc_cmd_import(4, plain), 0);
        ab_problem want, got;
        ab_error err = {0};
        cr_assert_eq(abf_suite_load(abt_src(cases[k].suite), &want, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(abf_suite_load(out, &got, &err), AB_OK, "%s", err.msg);
        same_problem(&got, &want, cases[k].suite);
        ab_problem_free(&want);
        ab_problem_free(&got);
        free(dir);
    }
}

/* ---- the command ----------------------------------------------------------------------- */

/* Writes the tiny model to a temporary .tflite (or other suffix) file. */
static const char *tiny_file(const char *suffix) {
    static char path[4096];
    mspec s = tiny();
    size_t len = build(&s, &F);
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/tiny%s", dir, suffix);
    free(dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(F.b, 1, len, f), len);
    fclose(f);
    return path;
}

static char captured[2][16384]; /* what the last run_import wrote to stdout and stderr */

/* Runs abc_cmd_import with stdout and stderr sent to files, read back into
 * captured[0] and captured[1]. Returns its exit code. */
static int run_import(int argc, char **argv) {
    char *dir = abt_tmpdir(), path[2][4096];
    int saved[2], fd[2];
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        snprintf(path[k], sizeof path[k], "%s/%d", dir, k);
        fd[k] = open(path[k], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        cr_assert_geq(fd[k], 0);
        saved[k] = dup(k + 1);
        dup2(fd[k], k + 1);
        close(fd[k]);
    }
    int rc = abc_cmd_import(argc, argv);
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++) {
        dup2(saved[k], k + 1);
        close(saved[k]);
        size_t n = 0;
        char *text = abt_slurp(path[k], &n);
        snprintf(captured[k], sizeof captured[k], "%s", text ? text : "");
        free(text);
    }
    free(dir);
    return rc;
}

Test(tflite_cmd, writes_the_suite_with_o) {
    char path[4096], out[4096];
    snprintf(path, sizeof path, "%s", tiny_file(".bin")); /* recognised by content */
    char *dir = abt_tmpdir();
    snprintf(out, sizeof out, "%s/s.yaml", dir);
    free(dir);
    char *argv[] = {"import", path, "-o", out, "--name", "tiny-net", "--fold-constants", NULL};
    cr_assert_eq(run_import(7, argv), 0);
    ab_problem p;
    ab_error err = {0};
    cr_assert_eq(abf_suite_load(out, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(p.name, "tiny-net");
    cr_assert_eq(p.n, 5);
    cr_assert(strstr(p.description, "tiny.bin") != NULL, "%s", p.description);
    ab_problem_free(&p);
}

Test(tflite_cmd, unknown_format_is_a_clear_error) {
    const char *path = abt_write_tmp("id,lower,upper,size\n0,0,1,8\n", ".txt");
    char *argv[] = {"import", (char *)path, NULL};
    cr_assert_eq(run_import(2, argv), 2);
    const char *e = captured[1];
    cr_assert(strstr(e, "arenabench: ") == e, "%s", e);
    cr_assert(strstr(e, "unknown format") != NULL, "%s", e);
    cr_assert(strstr(e, "TFLite model (.tflite)") != NULL, "%s", e);
}

Test(tflite_cmd, a_corrupt_model_exits_2_naming_the_byte) {
    char path[4096];
    snprintf(path, sizeof path, "%s", tiny_file(".tflite"));
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, 4, SEEK_SET), 0);
    fputs("XXXX", f); /* no identifier: still a .tflite by name */
    fclose(f);
    char *argv[] = {"import", path, NULL};
    cr_assert_eq(run_import(2, argv), 2);
    const char *e = captured[1];
    cr_assert(strstr(e, "tiny.tflite: byte 4: no TFLite file identifier") != NULL, "%s", e);
}

/* Runs import with args and expects exit 2 and want on stderr. */
static void usage_fails(int argc, char **argv, const char *want) {
    cr_assert_eq(run_import(argc, argv), 2, "%s", captured[1]);
    cr_assert(strstr(captured[1], want) != NULL, "stderr '%s' lacks '%s'", captured[1], want);
    cr_assert(strncmp(captured[1], "arenabench: ", 12) == 0, "%s", captured[1]);
    cr_assert_str_eq(captured[0], "");
}

Test(tflite_cmd, usage_errors_exit_2) {
    char path[4096];
    snprintf(path, sizeof path, "%s", tiny_file(".tflite"));
    usage_fails(4, (char *[]){"import", path, "--dim", "input", NULL},
                "arenabench: --dim takes NAME=VALUE with a tensor name and a value >= 1, not "
                "'input'\nusage: arenabench import FILE");
    usage_fails(3, (char *[]){"import", path, "--assume-dynamic=0", NULL},
                "--assume-dynamic takes a value >= 1, not '0'");
    usage_fails(3, (char *[]){"import", path, path, NULL}, "unexpected operand");
    usage_fails(1, (char *[]){"import", NULL}, "expected a file to import");
    usage_fails(3, (char *[]){"import", path, "--frobnicate", NULL},
                "unknown option '--frobnicate'");
    usage_fails(3, (char *[]){"import", path, "--fold-constants=yes", NULL},
                "option --fold-constants takes no value");
    usage_fails(2, (char *[]){"import", "/nonexistent/m.tflite", NULL},
                "arenabench: /nonexistent/m.tflite: cannot read: No such file or directory");
    usage_fails(4, (char *[]){"import", path, "--dim", "input=4", NULL},
                "--dim input=4: tensor 0 'input' has no dynamic dimension");
}

Test(tflite_cmd, writes_to_stdout_without_o) {
    char path[4096];
    snprintf(path, sizeof path, "%s", tiny_file(".tflite"));
    cr_assert_eq(run_import(2, (char *[]){"import", path, NULL}), 0, "%s", captured[1]);
    cr_assert(strncmp(captured[0], "suite: tiny\n", 12) == 0, "%s", captured[0]);
    cr_assert(strstr(captured[0], "{name: q4, shape: [1, 3, 3, 3], dtype: int4, start: 2, end: 3}")
              != NULL, "%s", captured[0]);
    cr_assert_str_eq(captured[1], "");
}

Test(tflite_cmd, help_exits_0) {
    cr_assert_eq(run_import(2, (char *[]){"import", "--help", NULL}), 0);
    cr_assert(strncmp(captured[0], "usage: arenabench import FILE", 29) == 0, "%s", captured[0]);
    cr_assert(strstr(captured[0], "--fold-constants") != NULL, "%s", captured[0]);
    cr_assert_str_eq(captured[1], "");
}

/* ---- a model's options wherever a model is read (issue 31: the profile
 * travels) ----------------------------------------------------------------- */

/* The dynamic model written to a .tflite file (static path). */
static const char *dynamic_file(void) {
    static char path[4096];
    mspec s = dynamic_model();
    size_t len = build(&s, &F);
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/dyn.tflite", dir);
    free(dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(F.b, 1, len, f), len);
    fclose(f);
    return path;
}

/* plan, bound and run take --dim and --assume-dynamic with --profile, as
 * import does: no detour through import for a dynamic model. */
Test(tflite, plan_bound_and_run_take_a_models_options) {
    char model[4096], args[8400], *out, *err;
    snprintf(model, sizeof model, "%s", dynamic_file());
    snprintf(args, sizeof args, "plan --profile tflm '%s'", model);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, "--assume-dynamic=N") != NULL, "%s", err);
    free(out), free(err);
    snprintf(args, sizeof args, "plan --profile tflm '%s' --assume-dynamic=2", model);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "profile    tflm") != NULL, "%s", out);
    cr_assert(strstr(out, "an ESTIMATE of TFLM's whole arena") != NULL, "%s", out);
    cr_assert(strstr(out, "  head ") != NULL, "%s", out);
    free(out), free(err);
    snprintf(args, sizeof args, "bound '%s' --dim input=2 --dim conv=2", model);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    char *dir = abt_tmpdir();
    snprintf(args, sizeof args, "run -q --db '%s/r.db' -p first-fit '%s' --assume-dynamic=2", dir,
             model);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err), free(dir);
    /* a model's options on a file that is no model: said, exit 2 */
    snprintf(args, sizeof args, "plan '%s' --assume-dynamic=2", abt_src("suites/examples/diamond.yaml"));
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, "apply to models, not to a suite YAML") != NULL, "%s", err);
    free(out), free(err);
}

/* A plan file records the profile it was made under (DESIGN.md §4); validate
 * and export take the suite under it when the command line gives none, and
 * refuse another; a plan whose sizes are a profile's rounding says which. */
Test(tflite, a_plan_file_records_its_profile_and_export_applies_it) {
    char model[4096], plan[4200], args[16384], *out, *err;
    snprintf(model, sizeof model, "%s", tiny_file(".tflite"));
    char *dir = abt_tmpdir();
    snprintf(plan, sizeof plan, "%s/p.csv", dir);
    snprintf(args, sizeof args, "plan --profile tflm '%s' -o '%s'", model, plan);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    char *text = abt_slurp(plan, NULL);
    cr_assert(strncmp(text, "# arenabench: profile=tflm io=workspace align=16\ntensor,offset,",
                      62) == 0, "%s", text);
    free(text);
    snprintf(args, sizeof args, "validate '%s' '%s'", model, plan);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "export '%s' --plan '%s' --format json", model, plan);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "\"io\": \"workspace\"") != NULL, "%s", out);
    free(out), free(err);
    snprintf(args, sizeof args, "validate '%s' '%s' --profile tvm-usmp", model, plan);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, "was made under profile=tflm io=workspace align=16; the suite taken "
                          "under --profile tvm-usmp is another problem") != NULL, "%s", err);
    free(out), free(err), free(dir);
}

Test(tflite, a_size_a_profile_rounded_says_which_profile) {
    char suite[4096], args[8400], *out, *err;
    snprintf(suite, sizeof suite, "%s",
             abt_write_tmp("suite: r\ntensors:\n  - {name: a, size: 168, start: 0, end: 1}\n",
                           ".yaml"));
    const char *plan = abt_write_tmp("tensor,offset,size\na,0,176\n", ".csv");
    snprintf(args, sizeof args, "validate '%s' '%s'", suite, plan);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, "size: 176 disagrees with the suite's size 168 for 'a' (the plan's "
                          "sizes look rounded to 16, as --profile tflm does: give --profile "
                          "tflm)") != NULL, "%s", err);
    free(out), free(err);
}

/* ---- the estimate of TFLM's tail (harness/formats/tflm_tail.h) --------------------- */

/* Parses s and estimates its tail for a target of pointer_bytes. */
static abf_tflm_tail tail_of(const mspec *s, int pointer_bytes) {
    abf_tflite_model m;
    ab_error err = {0};
    size_t len = build(s, &F);
    cr_assert_eq(abf_tflite_parse("m.tflite", F.b, len, &m, &err), AB_OK, "%s", err.msg);
    abf_tflm_tail t;
    abf_tflm_tail_estimate(&m, pointer_bytes, &t);
    abf_tflite_model_free(&m);
    return t;
}

/* The tiny model on a 32-bit target, item by item (sizes: tflm_tail.c):
 *   eval tensors  8 x 12 = 96;  nodes  4 x 32 = 128;
 *   op data       DEQUANTIZE 32, CONV_2D 64 (OpDataConv 56 -> 16) + 2 x 16 (2
 *                 channels x 4 bytes -> 16), QUANTIZE 32, FULLY_CONNECTED 32 = 192;
 *   builtin data  TfLiteConvParams 28 + TfLiteFullyConnectedParams 16 = 44;
 *   I/O           2 pointer arrays of one pointer (16 each) + 2 TfLiteTensor (40) = 112;
 *   allocator     136;  total 708 rounded up to 16 = 720. */
Test(tflm_tail, counts_each_item_of_a_tiny_model) {
    mspec s = tiny();
    abf_tflm_tail t = tail_of(&s, 4);
    cr_assert_eq(t.pointer_bytes, 4);
    cr_assert_eq(t.eval_tensors, 96);
    cr_assert_eq(t.nodes, 128);
    cr_assert_eq(t.op_data, 192);
    cr_assert_eq(t.per_channel, 32);
    cr_assert_eq(t.builtin_data, 44);
    cr_assert_eq(t.io_tensors, 112);
    cr_assert_eq(t.nio, 2);
    cr_assert_eq(t.nio_quantized, 0);
    cr_assert_eq(t.allocator, 136);
    cr_assert_eq(t.total, 720);
    cr_assert_eq(t.nunmodelled, 0);
    cr_assert_eq(t.nkinds, 4);
    cr_assert_eq(t.kinds[1].code, ABF_TFLITE_OP_CONV_2D);
    cr_assert_eq(t.kinds[1].op_data, 96);
    cr_assert_eq(t.kinds[1].builtin, 28);
}

Test(tflm_tail, a_kind_without_a_row_is_counted_apart) {
    mspec s = tiny();
    s.codes[2].dep = 99; /* QUANTIZE -> a code without a row */
    abf_tflm_tail t = tail_of(&s, 4);
    cr_assert_eq(t.nunmodelled, 1);
    cr_assert_eq(t.op_data, 160);
    cr_assert_not(t.kinds[2].modelled);
    cr_assert_null(abf_tflm_op_name(99));
    cr_assert_str_eq(abf_tflm_op_name(3), "CONV_2D");
}

Test(tflm_tail, variable_tensors_are_reported_not_added) {
    mspec s = tiny();
    s.t[3].variable = true; /* conv: 1x4x4x2 float32 = 128 bytes */
    abf_tflm_tail a = tail_of(&s, 4);
    s.t[3].variable = false;
    abf_tflm_tail b = tail_of(&s, 4);
    cr_assert_eq(a.nvariables, 1);
    cr_assert_eq(a.variables, 128);
    cr_assert_eq(a.total, b.total);
}

/* The layout of TFLM's own test model for its arena threshold test
 * (tensorflow/lite/micro/testing/test_conv_model.cc, used by
 * memory_arena_threshold_test.cc): 13 int8 tensors, CONV_2D (16 filters
 * 3x3x1) on a 1x16x16x1 input, CONV_2D (32 filters 3x3x16), MAX_POOL_2D,
 * RESHAPE to 1x1152, FULLY_CONNECTED to 10; input and output quantized.
 * Rebuilt here from that structure (not copied: weights are one byte). */
static mspec tflm_conv_model(void) {
    mspec s = {
        .version = 3,
        .ncodes = 4,
        .codes = {{3, 3}, {17, 17}, {22, 22}, {9, 9}},
        .nbuf = 2,
        .buflen = {-1, 1},
        .nt = 13,
        .t = {
            {"input", ABF_TFLITE_INT8, 4, {1, 16, 16, 1}, .quant = 1},
            {"conv2d/filter", ABF_TFLITE_INT8, 4, {16, 3, 3, 1}, .buffer = 1, .quant = 16},
            {"conv2d/bias", ABF_TFLITE_INT32, 1, {16}, .buffer = 1},
            {"conv2d", ABF_TFLITE_INT8, 4, {1, 14, 14, 16}, .quant = 1},
            {"conv2d_1/filter", ABF_TFLITE_INT8, 4, {32, 3, 3, 16}, .buffer = 1, .quant = 32},
            {"conv2d_1/bias", ABF_TFLITE_INT32, 1, {32}, .buffer = 1},
            {"conv2d_1", ABF_TFLITE_INT8, 4, {1, 12, 12, 32}, .quant = 1},
            {"max_pool", ABF_TFLITE_INT8, 4, {1, 6, 6, 32}, .quant = 1},
            {"flatten/shape", ABF_TFLITE_INT32, 1, {2}, .buffer = 1},
            {"flatten", ABF_TFLITE_INT8, 2, {1, 1152}, .quant = 1},
            {"dense/filter", ABF_TFLITE_INT8, 2, {10, 1152}, .buffer = 1, .quant = 1},
            {"dense/bias", ABF_TFLITE_INT32, 1, {10}, .buffer = 1},
            {"output", ABF_TFLITE_INT8, 2, {1, 10}, .quant = 1},
        },
        .nops = 5,
        .ops = {
            {0, 3, 1, 0, {0, 1, 2}, {3}},
            {0, 3, 1, 0, {3, 4, 5}, {6}},
            {1, 1, 1, 0, {6}, {7}},
            {2, 2, 1, 0, {7, 8}, {9}},
            {3, 3, 1, 0, {9, 10, 11}, {12}},
        },
        .nin = 1, .in = {0},
        .nout = 1, .out = {12},
    };
    return s;
}

/* TFLM's published figures for that model (memory_arena_threshold_test.cc,
 * measured on x86-64 with TF_LITE_STATIC_MEMORY, the allocator's own objects
 * left out): tail 1672 bytes, of which persistent TfLiteTensor 128 and their
 * quantization 64; 13 TfLiteEvalTensor, 5 NodeAndRegistration. Our 64-bit
 * estimate without the allocator objects: eval 312 + nodes 320 + op data 608
 * + builtin 148 + I/O 224 = 1612, 60 bytes (3.6%) short: TFLM's "persistent
 * buffer data" is 688 where our op data and pointer arrays make 640. */
Test(tflm_tail, near_tflm_published_figure_for_its_conv_test_model) {
    mspec s = tflm_conv_model();
    abf_tflm_tail t = tail_of(&s, 8);
    cr_assert_eq(t.eval_tensors, 13 * 24);
    cr_assert_eq(t.nodes, 5 * 64);
    cr_assert_eq(t.nio_quantized, 2);
    cr_assert_eq(t.io_tensors, 32 + 128 + 64); /* pointer arrays + TFLM's 128 + 64 */
    int64_t model_only = t.eval_tensors + t.nodes + t.op_data + t.builtin_data + t.io_tensors;
    cr_assert_eq(t.total, 1872); /* 1612 + the allocator's 256, rounded up to 16 */
    cr_assert_eq(model_only, 1612);
    int64_t published = 1672, diff = published - model_only;
    cr_assert(diff >= 0 && diff * 100 <= published * 5, "estimate %lld vs published %lld",
              (long long)model_only, (long long)published);
    abf_tflm_tail t32 = tail_of(&s, 4);
    cr_assert_eq(t32.total, 1328); /* 156 + 160 + 576 + 148 + 152 + 136 */
}

Test(tflm_tail, plan_prints_head_tail_and_total) {
    mspec s = tiny();
    size_t len = build(&s, &F);
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/tiny.tflite", dir);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(F.b, 1, len, f), len);
    fclose(f);
    char *out = NULL, *err = NULL;
    char args[4200];
    snprintf(args, sizeof args, "plan --profile tflm --bytes %s", path);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err ? err : "");
    cr_assert(strstr(out, "tail            720") != NULL, "%s", out);
    cr_assert(strstr(out, "kTensorArenaSize at least") != NULL, "%s", out);
    cr_assert(strstr(out, "not counted: kernel scratch buffers") != NULL, "%s", out);
    cr_assert(strstr(out, "32-bit target") != NULL, "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args, "plan --profile tflm --tflm-pointer 64 %s", path);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err ? err : "");
    cr_assert(strstr(out, "64-bit target") != NULL, "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args, "plan --profile tflm --tflm-pointer 16 %s", path);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    free(out);
    free(err);
    free(dir);
}
