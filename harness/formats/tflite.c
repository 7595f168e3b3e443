/*
 * tflite.c — the TFLite importer (tflite.h documents the format read and the
 * rules of the conversion).
 *
 *   1. rd: the file, read through flatbuf.h's bounds-checked flatbuffer
 *      reader (every failure names the byte offset), and the copy budgets.
 *   2. parse: the model's operator codes and buffers, then subgraph 0: its
 *      tensors, inputs, outputs and operators, into an abf_tflite_model.
 *   3. convert: live ranges, constant-derived tensors, sizes and the problem.
 */
#include "harness/formats/tflite.h"
#include "harness/formats/flatbuf.h"
#include "harness/formats/formats.h"
#include "harness/formats/model_import.h"

#include "core/buf.h"
#include "core/file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(x)                                                                                     \
    do {                                                                                           \
        ab_status st_ = (x);                                                                       \
        if (st_ != AB_OK) return st_;                                                              \
    } while (0)

#define WHAT_MAX ABF_FB_WHAT_MAX /* a description of a table for messages */

/* ==== 1. the flatbuffer reader ================================================== */

/* The file and its copy budgets: a flatbuffer may share one vector or string
 * among many tables, so what is copied out is bounded by the file's size. */
typedef struct rd {
    abf_fb fb;
    uint64_t ints_left;  /* integers that may still be copied out (shapes, operator lists) */
    uint64_t bytes_left; /* name bytes that may still be copied out */
} rd;

/* Takes n integers from the copy budget, or fails at byte at. */
static ab_status spend_ints(rd *r, uint64_t at, uint64_t n, const char *what) {
    if (n > r->ints_left)
        return abf_fb_fail(&r->fb, at, "%s: more integers than a file of %zu bytes can hold "
                           "(the file shares its vectors more than a model does)", what,
                           r->fb.len);
    r->ints_left -= n;
    return AB_OK;
}

/* ==== 2. parsing ================================================================= */

static void model_init(abf_tflite_model *m) { memset(m, 0, sizeof *m); }

/* Frees what m owns (names, shapes, operator lists); m is empty afterwards. */
void abf_tflite_model_free(abf_tflite_model *m) {
    if (m == NULL) return;
    for (size_t i = 0; i < m->ntensors && m->t != NULL; i++) {
        ab_free(m->t[i].name);
        ab_free(m->t[i].shape);
    }
    ab_free(m->t);
    ab_free(m->ops);
    ab_free(m->inputs);
    ab_free(m->outputs);
    ab_free(m->io);
    ab_free(m->offline);
    ab_free(m->file);
    model_init(m);
}

/* A TFLite flatbuffer carries "TFL3" at byte 4. */
static bool tflite_sniff(const unsigned char *head, size_t n) {
    return n >= 8 && memcmp(head + 4, "TFL3", 4) == 0;
}

static const char *const type_names[] = {
    "FLOAT32", "FLOAT16", "INT32",     "UINT8",  "INT64",  "STRING", "BOOL",  "INT16",
    "COMPLEX64", "INT8",  "FLOAT64",   "COMPLEX128", "UINT64", "RESOURCE", "VARIANT",
    "UINT32",  "UINT16",  "INT4",      "BFLOAT16", "INT2", "UINT4", "FLOAT8_E4M3FN",
    "FLOAT8_E5M2"};

/* The schema's name of a TensorType, for messages. */
static const char *tflite_type_name(int type) {
    if (type < 0 || (size_t)type >= sizeof type_names / sizeof type_names[0]) return "unknown";
    return type_names[type];
}

/* What parsing knows of the model's buffers and operator codes. */
typedef struct parse_ctx {
    rd r;
    abf_tflite_model *m;
    bool *buf_full;    /* nbuffers: the buffer holds data */
    int32_t *codes;    /* nopcodes builtin codes */
    size_t nio, capio; /* entries used and allocated in m->io */
} parse_ctx;

static ab_status parse_opcodes(parse_ctx *c, const abf_fb_table *model) {
    abf_fb_vec v;
    TRY(abf_fb_get_vec(&c->r.fb, model, 1, 4, "operator codes", &v));
    c->m->nopcodes = v.n;
    c->codes = ab_alloc_array(v.n ? v.n : 1, sizeof *c->codes);
    if (c->codes == NULL)
        return ab_fail(c->r.fb.err, AB_ENOMEM, "out of memory reading operator codes");
    for (uint32_t k = 0; k < v.n; k++) {
        char what[WHAT_MAX];
        abf_fb_table t;
        uint8_t dep;
        uint32_t code;
        snprintf(what, sizeof what, "operator code %" PRIu32, k);
        TRY(abf_fb_vec_table(&c->r.fb, &v, k, what, &t));
        TRY(abf_fb_get_u8(&c->r.fb, &t, 0, "deprecated_builtin_code", 0, &dep));
        TRY(abf_fb_get_u32(&c->r.fb, &t, 3, "builtin_code", 0, &code));
        /* TFLite takes the larger of the two (the byte field is signed). */
        int32_t a = (int8_t)dep, b = (int32_t)code;
        c->codes[k] = a > b ? a : b;
    }
    return AB_OK;
}

static ab_status parse_buffers(parse_ctx *c, const abf_fb_table *model) {
    abf_fb_vec v;
    TRY(abf_fb_get_vec(&c->r.fb, model, 4, 4, "buffers", &v));
    c->m->nbuffers = v.n;
    c->buf_full = ab_calloc(v.n ? v.n : 1, sizeof *c->buf_full);
    if (c->buf_full == NULL)
        return ab_fail(c->r.fb.err, AB_ENOMEM, "out of memory reading buffers");
    for (uint32_t k = 0; k < v.n; k++) {
        char what[WHAT_MAX];
        abf_fb_table t;
        abf_fb_vec data;
        uint64_t off, size, at;
        snprintf(what, sizeof what, "buffer %" PRIu32, k);
        TRY(abf_fb_vec_table(&c->r.fb, &v, k, what, &t));
        TRY(abf_fb_get_vec(&c->r.fb, &t, 0, 1, what, &data));
        TRY(abf_fb_get_u64(&c->r.fb, &t, 1, "offset", &off));
        TRY(abf_fb_get_u64(&c->r.fb, &t, 2, "size", &size));
        c->buf_full[k] = data.n > 0;
        if (off > 1 && size > 0) { /* data outside the flatbuffer, later in the file */
            TRY(abf_fb_field(&c->r.fb, &t, 1, 8, "offset", &at));
            if (!abf_fb_has(&c->r.fb, off, size))
                return abf_fb_fail(&c->r.fb, at, "%s: its %" PRIu64 " bytes at byte %" PRIu64
                                   " run past the end of the file (length %zu)", what, size, off,
                                   c->r.fb.len);
            c->buf_full[k] = true;
        }
    }
    return AB_OK;
}

/* Reads shape (and shape_signature) of tensor t into *mt. */
static ab_status parse_shape(parse_ctx *c, const abf_fb_table *t, abf_tflite_tensor *mt) {
    rd *r = &c->r;
    abf_fb_vec sh, sig;
    TRY(abf_fb_get_vec(&r->fb, t, 0, 4, t->what, &sh));
    TRY(abf_fb_get_vec(&r->fb, t, 7, 4, t->what, &sig));
    if (sh.n > ABF_TFLITE_MAX_RANK)
        return abf_fb_fail(&r->fb, sh.pos, "%s: shape of %" PRIu32 " dimensions (at most %d)",
                           t->what, sh.n, ABF_TFLITE_MAX_RANK);
    if (sig.n != 0 && sig.n != sh.n)
        return abf_fb_fail(&r->fb, sig.pos, "%s: shape_signature has %" PRIu32 " dimensions "
                           "but shape has %" PRIu32, t->what, sig.n, sh.n);
    TRY(spend_ints(r, sh.pos, sh.n, t->what));
    mt->ndim = (int)sh.n;
    if (sh.n == 0) return AB_OK;
    mt->shape = ab_alloc_array(sh.n, sizeof *mt->shape);
    if (mt->shape == NULL)
        return ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading %s", t->what);
    for (uint32_t k = 0; k < sh.n; k++) {
        int32_t d = (int32_t)abf_fb_u32(&r->fb, sh.data + 4 * (uint64_t)k);
        if (sig.n != 0 && (int32_t)abf_fb_u32(&r->fb, sig.data + 4 * (uint64_t)k) < 0) d = -1;
        if (d < 0) {
            d = -1;
            mt->flags |= ABF_TFLITE_DYNAMIC;
        }
        if (d == 0) mt->flags |= ABF_TFLITE_EMPTY;
        mt->shape[k] = d;
    }
    return AB_OK;
}

/* Tensor field 4, quantization:QuantizationParameters (2 scale:[float], 3
 * zero_point:[long]): mt->quant_channels is the number of scales when both
 * vectors are non-empty (TFLite Micro then copies the parameters out), else 0. */
static ab_status parse_quantization(parse_ctx *c, const abf_fb_table *t, abf_tflite_tensor *mt) {
    rd *r = &c->r;
    uint64_t at;
    TRY(abf_fb_get_ref(&r->fb, t, 4, "quantization", &at));
    if (at == 0) return AB_OK;
    abf_fb_table q;
    abf_fb_vec scale, zero;
    TRY(abf_fb_table_open(&r->fb, at, "quantization", &q));
    TRY(abf_fb_get_vec(&r->fb, &q, 2, 4, "quantization scale", &scale));
    TRY(abf_fb_get_vec(&r->fb, &q, 3, 8, "quantization zero_point", &zero));
    if (scale.n > 0 && zero.n > 0) mt->quant_channels = scale.n;
    return AB_OK;
}

static ab_status parse_tensor(parse_ctx *c, const abf_fb_vec *v, uint32_t k) {
    rd *r = &c->r;
    abf_tflite_tensor *mt = &c->m->t[k];
    char what[WHAT_MAX];
    abf_fb_table t;
    uint8_t type, var;
    const uint8_t *name;
    uint32_t nname;
    uint64_t at;
    snprintf(what, sizeof what, "tensor %" PRIu32, k);
    TRY(abf_fb_vec_table(&r->fb, v, k, what, &t));
    mt->at = t.pos;
    mt->writer = mt->first = mt->last = mt->last_read = -1;
    TRY(parse_shape(c, &t, mt));
    TRY(abf_fb_get_u8(&r->fb, &t, 1, "type", 0, &type));
    mt->type = (int8_t)type;
    TRY(abf_fb_get_u32(&r->fb, &t, 2, "buffer", 0, &mt->buffer));
    if (mt->buffer >= c->m->nbuffers && mt->buffer != 0) {
        TRY(abf_fb_field(&r->fb, &t, 2, 4, "buffer", &at));
        return abf_fb_fail(&r->fb, at, "%s: buffer index %" PRIu32 " out of range (the model "
                           "has %zu buffers)", what, mt->buffer, c->m->nbuffers);
    }
    if (mt->buffer < c->m->nbuffers && c->buf_full[mt->buffer]) mt->flags |= ABF_TFLITE_CONSTANT;
    TRY(parse_quantization(c, &t, mt));
    TRY(abf_fb_get_u8(&r->fb, &t, 5, "is_variable", 0, &var));
    if (var) mt->flags |= ABF_TFLITE_VARIABLE;
    TRY(abf_fb_get_string(&r->fb, &t, 3, what, &name, &nname));
    char fallback[32];
    if (nname == 0) { /* no name: t<index> */
        snprintf(fallback, sizeof fallback, "t%" PRIu32, k);
        name = (const uint8_t *)fallback;
        nname = (uint32_t)strlen(fallback);
    }
    if (4 * (uint64_t)nname + 1 > r->bytes_left)
        return abf_fb_fail(&r->fb, t.pos, "%s: more name bytes than a file of %zu bytes can "
                           "hold (the file shares its strings more than a model does)", what,
                           r->fb.len);
    r->bytes_left -= 4 * (uint64_t)nname + 1;
    mt->name = abf_clean_name(name, nname);
    if (mt->name == NULL) return ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading %s", what);
    return AB_OK;
}

/* Reads an operator's list of tensor indices (field id) into m->io; lo is
 * the least index accepted (-1 or 0). */
static ab_status parse_index_list(parse_ctx *c, const abf_fb_table *t, int id, const char *list,
                                  int32_t lo, size_t *first, size_t *n) {
    rd *r = &c->r;
    abf_fb_vec v;
    TRY(abf_fb_get_vec(&r->fb, t, id, 4, list, &v));
    TRY(spend_ints(r, v.pos, v.n, t->what));
    if (!ab_grow((void **)&c->m->io, &c->capio, c->nio + v.n, sizeof *c->m->io))
        return ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading %s", t->what);
    *first = c->nio;
    *n = v.n;
    for (uint32_t k = 0; k < v.n; k++) {
        uint64_t at = v.data + 4 * (uint64_t)k;
        int32_t x = (int32_t)abf_fb_u32(&r->fb, at);
        if (x < lo || (x >= 0 && (size_t)x >= c->m->ntensors))
            return abf_fb_fail(&r->fb, at, "%s: %s %" PRIu32 " is tensor %" PRId32 ", out of range "
                               "(subgraph 0 has %zu tensors)", t->what, list, k, x, c->m->ntensors);
        c->m->io[c->nio++] = x;
    }
    return AB_OK;
}

/* Operator index lists are kept as offsets into m->io while it grows. */
typedef struct op_lists {
    size_t in, out, mid;
} op_lists;

static ab_status parse_ops(parse_ctx *c, const abf_fb_table *sg) {
    rd *r = &c->r;
    abf_tflite_model *m = c->m;
    abf_fb_vec v;
    TRY(abf_fb_get_vec(&r->fb, sg, 3, 4, "operators", &v));
    m->ops = ab_calloc(v.n ? v.n : 1, sizeof *m->ops);
    op_lists *at = ab_calloc(v.n ? v.n : 1, sizeof *at);
    if (m->ops == NULL || at == NULL) {
        ab_free(at);
        return ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading %" PRIu32 " operators", v.n);
    }
    m->nops = v.n;
    ab_status st = AB_OK;
    for (uint32_t k = 0; k < v.n && st == AB_OK; k++) {
        char what[WHAT_MAX];
        abf_fb_table t;
        uint32_t opcode;
        abf_tflite_op *op = &m->ops[k];
        snprintf(what, sizeof what, "operator %" PRIu32, k);
        st = abf_fb_vec_table(&r->fb, &v, k, what, &t);
        if (st == AB_OK) st = abf_fb_get_u32(&r->fb, &t, 0, "opcode_index", 0, &opcode);
        if (st == AB_OK && opcode >= m->nopcodes) {
            uint64_t f = 0;
            abf_fb_field(&r->fb, &t, 0, 4, "opcode_index", &f);
            st = abf_fb_fail(&r->fb, f ? f : t.pos, "%s: opcode_index %" PRIu32 " out of range "
                             "(the model has %zu operator codes)", what, opcode, m->nopcodes);
        }
        if (st != AB_OK) break;
        op->code = c->codes[opcode];
        st = parse_index_list(c, &t, 1, "input", -1, &at[k].in, &op->nin);
        if (st == AB_OK) st = parse_index_list(c, &t, 2, "output", -1, &at[k].out, &op->nout);
        if (st == AB_OK) st = parse_index_list(c, &t, 8, "intermediate", -1, &at[k].mid, &op->nmid);
    }
    if (st == AB_OK && m->io == NULL && (m->io = ab_malloc(sizeof *m->io)) == NULL)
        st = ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading operators");
    for (uint32_t k = 0; k < v.n && st == AB_OK; k++) { /* m->io no longer moves */
        m->ops[k].in = m->io + at[k].in;
        m->ops[k].out = m->io + at[k].out;
        m->ops[k].mid = m->io + at[k].mid;
    }
    ab_free(at);
    return st;
}

/* Reads graph inputs or outputs (field id of the subgraph) and flags them. */
static ab_status parse_graph_io(parse_ctx *c, const abf_fb_table *sg, int id, const char *list,
                                unsigned flag, int32_t **out, size_t *n) {
    rd *r = &c->r;
    abf_fb_vec v;
    TRY(abf_fb_get_vec(&r->fb, sg, id, 4, list, &v));
    TRY(spend_ints(r, v.pos, v.n, list));
    *out = ab_alloc_array(v.n ? v.n : 1, sizeof **out);
    if (*out == NULL) return ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading %s", list);
    for (uint32_t k = 0; k < v.n; k++) {
        uint64_t at = v.data + 4 * (uint64_t)k;
        int32_t x = (int32_t)abf_fb_u32(&r->fb, at);
        if (x < 0 || (size_t)x >= c->m->ntensors)
            return abf_fb_fail(&r->fb, at, "subgraph 0: %s %" PRIu32 " is tensor %" PRId32 ", out "
                               "of range (subgraph 0 has %zu tensors)", list, k, x,
                               c->m->ntensors);
        (*out)[k] = x;
        c->m->t[x].flags |= flag;
    }
    *n = v.n;
    return AB_OK;
}

static char **tensor_name(void *m, size_t i) { return &((abf_tflite_model *)m)->t[i].name; }

/* Makes names unique: every repeat of a name (after the first, by index) gets
 * "#<index>". A name that still repeats then is an error. */
static ab_status unique_names(parse_ctx *c) {
    abf_tflite_model *m = c->m;
    size_t dup = 0, first = 0;
    ab_status st = ab_names_make_unique(m->ntensors, tensor_name, m, &dup, &first);
    if (st == AB_ENOMEM)
        return ab_fail(c->r.fb.err, AB_ENOMEM, "out of memory renaming tensors");
    if (st != AB_OK)
        return abf_fb_fail(&c->r.fb, m->t[dup].at, "tensor %zu: its name '%s' cannot be made "
                           "unique (tensor %zu has it too)", dup, m->t[dup].name, first);
    return AB_OK;
}

static ab_status parse_subgraph(parse_ctx *c, const abf_fb_table *model) {
    rd *r = &c->r;
    abf_tflite_model *m = c->m;
    abf_fb_vec sgs, tv;
    abf_fb_table sg;
    TRY(abf_fb_get_vec(&r->fb, model, 2, 4, "subgraphs", &sgs));
    if (sgs.n == 0)
        return abf_fb_fail(&r->fb, sgs.pos ? sgs.pos : model->pos, "the model has no subgraph");
    m->nsubgraphs = sgs.n;
    TRY(abf_fb_vec_table(&r->fb, &sgs, 0, "subgraph 0", &sg));
    TRY(abf_fb_get_vec(&r->fb, &sg, 0, 4, "tensors", &tv));
    m->t = ab_calloc(tv.n ? tv.n : 1, sizeof *m->t);
    if (m->t == NULL)
        return ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading %" PRIu32 " tensors", tv.n);
    for (uint32_t k = 0; k < tv.n; k++) {
        m->ntensors = k + 1; /* so that model_free frees what tensor k holds */
        TRY(parse_tensor(c, &tv, k));
    }
    m->ntensors = tv.n;
    TRY(parse_graph_io(c, &sg, 1, "input", ABF_TFLITE_INPUT, &m->inputs, &m->ninputs));
    TRY(parse_graph_io(c, &sg, 2, "output", ABF_TFLITE_OUTPUT, &m->outputs, &m->noutputs));
    TRY(parse_ops(c, &sg));
    return unique_names(c);
}

/* The OfflineMemoryAllocation words in buffer k (tflite.h): version, subgraph,
 * count, then count int32 offsets; the buffer must hold exactly that. */
static ab_status parse_offline(parse_ctx *c, const abf_fb_table *model, uint32_t k, uint64_t at) {
    rd *r = &c->r;
    abf_tflite_model *m = c->m;
    abf_fb_vec bufs, data;
    abf_fb_table b;
    char what[WHAT_MAX];
    if (k >= m->nbuffers)
        return abf_fb_fail(&r->fb, at, "metadata %s names buffer %" PRIu32 ", past the %zu buffers",
                           ABF_TFLITE_OFFLINE_NAME, k, m->nbuffers);
    snprintf(what, sizeof what, "buffer %" PRIu32 " (%s)", k, ABF_TFLITE_OFFLINE_NAME);
    TRY(abf_fb_get_vec(&r->fb, model, 4, 4, "buffers", &bufs));
    TRY(abf_fb_vec_table(&r->fb, &bufs, k, what, &b));
    TRY(abf_fb_get_vec(&r->fb, &b, 0, 1, what, &data));
    if (data.n < 12 || data.n % 4 != 0)
        return abf_fb_fail(&r->fb, data.pos ? data.pos : b.pos, "%s holds %" PRIu32 " bytes: at "
                           "least 12 and a multiple of 4 expected (int32 version, subgraph, "
                           "count, offsets)", what, data.n);
    uint32_t count = abf_fb_u32(&r->fb, data.data + 8);
    if ((uint64_t)count != (data.n - 12) / 4)
        return abf_fb_fail(&r->fb, data.data + 8, "%s says %" PRIu32 " offsets but holds %" PRIu32,
                           what, count, (data.n - 12) / 4);
    TRY(spend_ints(r, data.pos, count, what));
    ab_free(m->offline); /* a later entry of the same name wins, as in TFLite Micro */
    m->offline = ab_alloc_array(count ? count : 1, sizeof *m->offline);
    if (m->offline == NULL)
        return ab_fail(r->fb.err, AB_ENOMEM, "out of memory reading %s", what);
    m->has_offline = true;
    m->offline_version = (int32_t)abf_fb_u32(&r->fb, data.data);
    m->offline_subgraph = (int32_t)abf_fb_u32(&r->fb, data.data + 4);
    m->noffline = count;
    m->offline_buffer = k;
    for (uint32_t i = 0; i < count; i++)
        m->offline[i] = (int32_t)abf_fb_u32(&r->fb, data.data + 12 + 4 * i);
    return AB_OK;
}

/* Model field 6, metadata:[Metadata] (0 name:string, 1 buffer:uint): counts
 * the entries and reads the OfflineMemoryAllocation one, if any. */
static ab_status parse_metadata(parse_ctx *c, const abf_fb_table *model) {
    rd *r = &c->r;
    abf_fb_vec v;
    TRY(abf_fb_get_vec(&r->fb, model, 6, 4, "metadata", &v));
    c->m->nmetadata = v.n;
    for (uint32_t k = 0; k < v.n; k++) {
        char what[WHAT_MAX];
        abf_fb_table t;
        const uint8_t *name;
        uint32_t len, buffer;
        uint64_t at;
        snprintf(what, sizeof what, "metadata %" PRIu32, k);
        TRY(abf_fb_vec_table(&r->fb, &v, k, what, &t));
        TRY(abf_fb_get_string(&r->fb, &t, 0, what, &name, &len));
        TRY(abf_fb_get_u32(&r->fb, &t, 1, "buffer", 0, &buffer));
        if (name == NULL || len != strlen(ABF_TFLITE_OFFLINE_NAME) ||
            memcmp(name, ABF_TFLITE_OFFLINE_NAME, len) != 0)
            continue;
        TRY(abf_fb_field(&r->fb, &t, 1, 4, "buffer", &at));
        TRY(parse_offline(c, model, buffer, at ? at : t.pos));
    }
    return AB_OK;
}

/* Parses the whole file: identifier, model, operator codes, buffers, then
 * subgraph 0 (see tflite.h). m owns what was read so far, even on failure. */
ab_status abf_tflite_parse(const char *file, const unsigned char *buf, size_t len,
                           abf_tflite_model *m, ab_error *err) {
    model_init(m);
    if (file == NULL) file = "<buffer>";
    if ((m->file = ab_strdup(file)) == NULL)
        return ab_fail(err, AB_ENOMEM, "out of memory reading %s", file);
    parse_ctx c = {.r = {.fb = {.b = buf, .len = len, .file = m->file, .err = err}}, .m = m};
    c.r.ints_left = (uint64_t)len + 1024;
    c.r.bytes_left = 4 * (uint64_t)len + 4096;
    if (len < 8)
        return abf_fb_fail(&c.r.fb, 0, "too short for a TFLite flatbuffer (%zu bytes, at least "
                           "8)", len);
    if (!tflite_sniff(buf, len)) {
        char *seen = abf_clean_name(buf + 4, 4);
        ab_status st = abf_fb_fail(&c.r.fb, 4, "no TFLite file identifier ('TFL3' expected, found "
                                   "'%s')", seen ? seen : "?");
        ab_free(seen);
        return st;
    }
    abf_fb_table model;
    uint64_t at;
    ab_status st = abf_fb_table_open(&c.r.fb, abf_fb_u32(&c.r.fb, 0), "the model", &model);
    if (st == AB_OK) st = abf_fb_get_u32(&c.r.fb, &model, 0, "version", 0, &m->version);
    if (st == AB_OK && m->version != 3) {
        abf_fb_field(&c.r.fb, &model, 0, 4, "version", &at);
        st = abf_fb_fail(&c.r.fb, at ? at : model.pos, "schema version %" PRIu32 ", expected 3",
                         m->version);
    }
    if (st == AB_OK) st = parse_opcodes(&c, &model);
    if (st == AB_OK) st = parse_buffers(&c, &model);
    if (st == AB_OK) st = parse_subgraph(&c, &model);
    if (st == AB_OK) st = parse_metadata(&c, &model);
    ab_free(c.buf_full);
    ab_free(c.codes);
    return st;
}

/* ==== 3. conversion ================================================================ */

/* Element bits and dtype name of each TensorType; bits 0: no fixed size;
 * dtype NULL with bits: size only (no dtype name in the suite format). */
static const struct {
    const char *dtype;
    int bits;
} elem[] = {
    [ABF_TFLITE_FLOAT32] = {"float32", 32},     [ABF_TFLITE_FLOAT16] = {"float16", 16},
    [ABF_TFLITE_INT32] = {"int32", 32},         [ABF_TFLITE_UINT8] = {"uint8", 8},
    [ABF_TFLITE_INT64] = {"int64", 64},         [ABF_TFLITE_STRING] = {NULL, 0},
    [ABF_TFLITE_BOOL] = {"bool", 8},            [ABF_TFLITE_INT16] = {"int16", 16},
    [ABF_TFLITE_COMPLEX64] = {"complex64", 64}, [ABF_TFLITE_INT8] = {"int8", 8},
    [ABF_TFLITE_FLOAT64] = {"float64", 64},     [ABF_TFLITE_COMPLEX128] = {"complex128", 128},
    [ABF_TFLITE_UINT64] = {"uint64", 64},       [ABF_TFLITE_RESOURCE] = {NULL, 0},
    [ABF_TFLITE_VARIANT] = {NULL, 0},           [ABF_TFLITE_UINT32] = {"uint32", 32},
    [ABF_TFLITE_UINT16] = {"uint16", 16},       [ABF_TFLITE_INT4] = {"int4", 4},
    [ABF_TFLITE_BFLOAT16] = {"bfloat16", 16},   [ABF_TFLITE_INT2] = {"int2", 2},
    [ABF_TFLITE_UINT4] = {"uint4", 4},          [ABF_TFLITE_FLOAT8_E4M3FN] = {NULL, 8},
    [ABF_TFLITE_FLOAT8_E5M2] = {NULL, 8},
};

#define NOT_DERIVED (1u << 15) /* scratch flag of the derived pass */
#define CONVERSION_FLAGS                                                                           \
    (ABF_TFLITE_DERIVED | ABF_TFLITE_DEAD | ABF_TFLITE_UNUSED | NOT_DERIVED)

/* Records that operator i touches tensor x (a read when read is true). */
static void touch(abf_tflite_model *m, int32_t x, int64_t i, bool read, bool write) {
    if (x < 0) return;
    abf_tflite_tensor *t = &m->t[x];
    if (t->first < 0) t->first = i;
    t->last = i;
    if (read) t->last_read = i;
    if (write && t->writer < 0) t->writer = i;
}

/* Marks what each operator touches, in execution order. */
static void mark_uses(abf_tflite_model *m) {
    for (size_t i = 0; i < m->ntensors; i++) {
        abf_tflite_tensor *t = &m->t[i];
        t->flags &= ~CONVERSION_FLAGS;
        t->writer = t->first = t->last = t->last_read = -1;
    }
    for (size_t k = 0; k < m->nops; k++) {
        const abf_tflite_op *op = &m->ops[k];
        for (size_t j = 0; j < op->nin; j++) touch(m, op->in[j], (int64_t)k, true, false);
        for (size_t j = 0; j < op->nmid; j++) touch(m, op->mid[j], (int64_t)k, true, true);
        for (size_t j = 0; j < op->nout; j++) touch(m, op->out[j], (int64_t)k, false, true);
    }
}

/* Constant-derived tensors: written only by operators whose present inputs
 * (at least one) are all constant or constant-derived, in execution order. */
static void mark_derived(abf_tflite_model *m) {
    const unsigned fixed = ABF_TFLITE_CONSTANT | ABF_TFLITE_INPUT | ABF_TFLITE_VARIABLE;
    for (size_t k = 0; k < m->nops; k++) {
        const abf_tflite_op *op = &m->ops[k];
        size_t present = 0;
        bool from_constants = true;
        for (size_t j = 0; j < op->nin; j++) {
            if (op->in[j] < 0) continue;
            present++;
            unsigned f = m->t[op->in[j]].flags;
            if (!(f & ABF_TFLITE_CONSTANT) && !(f & ABF_TFLITE_DERIVED)) from_constants = false;
        }
        from_constants = from_constants && present > 0;
        for (size_t j = 0; j < op->nout; j++) {
            if (op->out[j] < 0) continue;
            abf_tflite_tensor *t = &m->t[op->out[j]];
            if (!from_constants || (t->flags & fixed)) {
                t->flags = (t->flags & ~ABF_TFLITE_DERIVED) | NOT_DERIVED;
            } else if (!(t->flags & NOT_DERIVED)) {
                t->flags |= ABF_TFLITE_DERIVED;
            }
        }
    }
    for (size_t i = 0; i < m->ntensors; i++) m->t[i].flags &= ~NOT_DERIVED;
}

/* Formats a shape for messages ("[-1, 128, 128, 3]"). */
static void shape_text(const abf_tflite_tensor *t, char *out, size_t cap) {
    size_t used = (size_t)snprintf(out, cap, "[");
    for (int k = 0; k < t->ndim && used < cap; k++)
        used += (size_t)snprintf(out + used, cap - used, "%s%" PRId64, k ? ", " : "", t->shape[k]);
    if (used < cap) snprintf(out + used, cap - used, "]");
}

/* Checks each --dim entry names a tensor with a dynamic dimension. */
static ab_status check_dims(const abf_tflite_model *m, const abf_tflite_options *o,
                            ab_error *err) {
    for (size_t d = 0; d < o->ndims; d++) {
        size_t i = 0;
        while (i < m->ntensors && strcmp(m->t[i].name, o->dims[d].tensor) != 0) i++;
        if (i == m->ntensors)
            return ab_fail(err, AB_EINPUT, "%s: --dim %s=%" PRId64 ": no tensor is called '%s'",
                           m->file, o->dims[d].tensor, o->dims[d].value, o->dims[d].tensor);
        if (!(m->t[i].flags & ABF_TFLITE_DYNAMIC)) {
            char sh[256];
            shape_text(&m->t[i], sh, sizeof sh);
            return ab_fail(err, AB_EINPUT, "%s: --dim %s=%" PRId64 ": tensor %zu '%s' has no "
                           "dynamic dimension (shape %s)", m->file, o->dims[d].tensor,
                           o->dims[d].value, i, m->t[i].name, sh);
        }
        if (o->dims[d].value < 1)
            return ab_fail(err, AB_EINPUT, "%s: --dim %s=%" PRId64 ": a dimension must be at "
                           "least 1", m->file, o->dims[d].tensor, o->dims[d].value);
    }
    return AB_OK;
}

/* The value for the dynamic dimensions of tensor i, or 0 when none is given. */
static int64_t dynamic_value(const abf_tflite_model *m, size_t i, const abf_tflite_options *o) {
    for (size_t d = o->ndims; d-- > 0;) /* the last --dim for a tensor wins */
        if (strcmp(m->t[i].name, o->dims[d].tensor) == 0) return o->dims[d].value;
    return o->assume_dynamic > 0 ? o->assume_dynamic : 0;
}

/* Fills out (shape, dtype, size, logical bits) for tensor i of m; shape is
 * the caller's array of ABF_TFLITE_MAX_RANK entries. */
static ab_status tensor_size(const abf_tflite_model *m, size_t i, const abf_tflite_options *o,
                             ab_tensor *out, int64_t *shape, ab_error *err) {
    const abf_tflite_tensor *t = &m->t[i];
    int type = t->type;
    if (type < 0 || (size_t)type >= sizeof elem / sizeof elem[0] || elem[type].bits == 0)
        return ab_fail(err, AB_EINPUT, "%s: byte %zu: tensor %zu '%s': type %s (%d) has no "
                       "fixed element size, so the tensor cannot be planned", m->file, t->at, i,
                       t->name, tflite_type_name(type), type);
    int64_t bits = elem[type].bits, dyn = dynamic_value(m, i, o);
    for (int k = 0; k < t->ndim; k++) {
        shape[k] = t->shape[k];
        if (shape[k] < 0) {
            if (dyn == 0) {
                char sh[256];
                shape_text(t, sh, sizeof sh);
                return ab_fail(err, AB_EINPUT, "%s: tensor %zu '%s': dimension %d is dynamic "
                               "(shape %s); give its value with --dim %s=N or "
                               "--assume-dynamic=N", m->file, i, t->name, k, sh, t->name);
            }
            shape[k] = dyn;
        }
        if (ab_mul_ovf(bits, shape[k], &bits) || bits / 8 >= AB_MAX_SIZE)
            return ab_fail(err, AB_EINPUT, "%s: tensor %zu '%s': shape x element bits is too "
                           "large (more than 2^62 bytes)", m->file, i, t->name);
    }
    out->logical_bits = bits;
    out->size = bits / 8 + (bits % 8 != 0);
    out->dtype = elem[type].dtype ? ab_dtype_find(elem[type].dtype) : NULL;
    out->ndim = out->dtype ? t->ndim : 0;
    out->shape = out->dtype ? shape : NULL;
    return AB_OK;
}

/* true when tensor t of m goes into the problem; counts what stays out. */
static bool planned(abf_tflite_model *m, abf_tflite_tensor *t, const abf_tflite_options *o) {
    unsigned f = t->flags;
    if (f & ABF_TFLITE_CONSTANT) {
        m->nconstant++;
        return false;
    }
    if (t->first < 0 && !(f & (ABF_TFLITE_INPUT | ABF_TFLITE_OUTPUT))) {
        t->flags |= ABF_TFLITE_UNUSED;
        m->nunused++;
        return false;
    }
    if (t->writer >= 0 && t->last_read < 0 && !(f & (ABF_TFLITE_OUTPUT | ABF_TFLITE_VARIABLE))) {
        t->flags |= ABF_TFLITE_DEAD;
        m->ndead++;
    }
    if (f & ABF_TFLITE_DERIVED) m->nderived++;
    if ((f & ABF_TFLITE_DERIVED) && o->fold_constants && !(f & ABF_TFLITE_OUTPUT)) return false;
    if (f & ABF_TFLITE_EMPTY) {
        m->nempty++;
        return false;
    }
    return true;
}

/* The suite's description: where it came from and what was left out. */
static char *describe(const abf_tflite_model *m, const abf_tflite_options *o, size_t ninputs,
                      size_t noutputs) {
    char *file = abf_model_file_label(m->file);
    if (file == NULL) return NULL;
    ab_buf t = {0};
    ab_buf_printf(&t, "Imported from the TFLite model %s: subgraph 0%s, %zu tensors, %zu "
                  "operators; live ranges in operator indices. %zu activations planned (%zu "
                  "inputs, %zu outputs); %zu constant tensors left out",
                  file, m->nsubgraphs > 1 ? " (other subgraphs ignored)" : "", m->ntensors,
                  m->nops, m->nactivations, ninputs, noutputs, m->nconstant);
    ab_free(file);
    abf_model_counts c = {m->nderived, m->ndead, m->nunused, m->nempty};
    abf_model_describe_tail(&t, &c, o->fold_constants, o->ndims, o->assume_dynamic, "dynamic");
    if (t.oom) {
        ab_buf_free(&t);
        return NULL;
    }
    return t.s;
}

/* Adds tensor i of m to p (it is planned). */
static ab_status add_tensor(abf_tflite_model *m, size_t i, const abf_tflite_options *o,
                            ab_problem *p, size_t *nin, size_t *nout, ab_error *err) {
    const abf_tflite_tensor *t = &m->t[i];
    int64_t shape[ABF_TFLITE_MAX_RANK];
    int64_t last_op = m->nops > 0 ? (int64_t)m->nops - 1 : 0;
    unsigned f = t->flags;
    ab_tensor a = {.name = t->name, .align = p->alignment, .offset = AB_NONE};
    TRY(tensor_size(m, i, o, &a, shape, err));
    bool whole = f & ABF_TFLITE_VARIABLE;
    abf_model_live_range(&a, f & ABF_TFLITE_INPUT, f & ABF_TFLITE_OUTPUT, whole, t->first,
                         t->last, last_op, nin, nout);
    return ab_problem_add(p, &a, err);
}

/* Converts subgraph 0 of m into *p (see tflite.h): marks uses and
 * constant-derived tensors, then adds each planned tensor in file order. */
ab_status abf_tflite_problem(abf_tflite_model *m, const abf_tflite_options *opt, ab_problem *p,
                             ab_error *err) {
    static const abf_tflite_options defaults = {0};
    const abf_tflite_options *o = opt ? opt : &defaults;
    ab_problem_init(p);
    m->nconstant = m->nderived = m->ndead = m->nunused = m->nempty = m->nactivations = 0;
    TRY(check_dims(m, o, err));
    mark_uses(m);
    mark_derived(m);
    size_t nin = 0, nout = 0;
    ab_status st = AB_OK;
    for (size_t i = 0; i < m->ntensors && st == AB_OK; i++)
        if (planned(m, &m->t[i], o)) st = add_tensor(m, i, o, p, &nin, &nout, err);
    m->nactivations = p->n;
    if (st == AB_OK) {
        p->name = abf_model_suite_name(m->file, "tflite");
        p->description = describe(m, o, nin, nout);
        if (p->name == NULL || p->description == NULL)
            st = ab_fail(err, AB_ENOMEM, "out of memory importing %s", m->file);
    }
    if (st != AB_OK) ab_problem_free(p); /* nothing half-converted */
    return st;
}

/* Reads, parses and converts the file at path; the file's bytes are freed
 * before it returns. */
ab_status abf_tflite_load(const char *path, const abf_tflite_options *opt, ab_problem *p,
                          abf_tflite_model *m, ab_error *err) {
    abf_tflite_model own;
    abf_tflite_model *mm = m ? m : &own;
    char *buf;
    size_t len;
    ab_problem_init(p);
    model_init(mm);
    ab_status st = abf_read_input(path, &buf, &len, err);
    if (st == AB_OK) st = abf_tflite_parse(path, (const unsigned char *)buf, len, mm, err);
    ab_free(buf);
    if (st == AB_OK) st = abf_tflite_problem(mm, opt, p, err);
    if (st == AB_OK && (p->source = ab_strdup(path)) == NULL)
        st = ab_fail(err, AB_ENOMEM, "out of memory importing %s", path);
    if (st != AB_OK) ab_problem_free(p);
    if (m == NULL) abf_tflite_model_free(&own);
    return st;
}

static ab_status load_tflite(const char *path, const abf_load_options *o, ab_problem *p,
                             ab_error *err) {
    abf_tflite_options to = {.fold_constants = o->fold_constants,
                             .dims = o->dims,
                             .ndims = o->ndims,
                             .assume_dynamic = o->assume_dynamic};
    return abf_tflite_load(path, &to, p, NULL, err);
}

static const char *const tflite_suffixes[] = {".tflite", NULL};

/* The formats table's row (formats.c): recognised by content, read only. */
const abf_format abf_format_tflite = {"tflite", "TFLite model", tflite_suffixes, tflite_sniff,
                                      ABF_FORMAT_MODEL_OPTS, load_tflite, NULL};
