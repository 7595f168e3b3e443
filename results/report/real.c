/*
 * real.c — the real models and traces of a run and their best greedy and
 * best plans (see real.h: the rules for "real" are stated there).
 */
#include "results/report/real.h"

#include <math.h>
#include <stdlib.h>

#include "oracle/certify.h"

/* The description prefixes that make a suite real: the importers' and the
 * network generators' words (harness/formats/tflite.c, onnx.c, gen.c,
 * minimalloc.c). "generated: resnet (" (residual blocks of random shapes)
 * is synthetic; "generated: resnet18 (" is ResNet-18's layers. */
static const struct {
    const char *prefix;
    abr_real_kind kind;
} real_rules[] = {
    {"Imported from the ", ABR_REAL_MODEL},
    {"generated: squeezenet (", ABR_REAL_NETWORK},
    {"generated: mobilenet_v1 (", ABR_REAL_NETWORK},
    {"generated: mobilenet_v2 (", ABR_REAL_NETWORK},
    {"generated: resnet18 (", ABR_REAL_NETWORK},
    {"imported from MiniMalloc CSV", ABR_REAL_TRACE},
};

/* Source paths that make a suite real: a model file or a CSV trace run as it
 * is (`run model.tflite`), whatever its description says. */
static const struct {
    const char *ext;
    abr_real_kind kind;
} real_sources[] = {
    {".tflite", ABR_REAL_MODEL},
    {".onnx", ABR_REAL_MODEL},
    {".csv", ABR_REAL_TRACE},
};

const char *abr_real_kind_word(abr_real_kind k) {
    switch (k) {
    case ABR_REAL_MODEL: return "model";
    case ABR_REAL_NETWORK: return "network";
    case ABR_REAL_TRACE: return "trace";
    case ABR_REAL_NONE: break;
    }
    return "synthetic";
}

/* The top-level description of a suite's text: the value after
 * "description:" on a line of its own at column 0, past spaces and an
 * opening quote; NULL when there is none. Not a YAML parser: the canonical
 * text (abf_suite_render) writes the key that way, and a prefix is all the
 * rules compare. */
static const char *description(const char *text) {
    static const char key[] = "description:";
    for (const char *line = text; line != NULL && *line; ) {
        if (strncmp(line, key, sizeof key - 1) == 0) {
            const char *v = line + sizeof key - 1;
            while (*v == ' ') v++;
            if (*v == '\'' || *v == '"') v++;
            return v;
        }
        line = strchr(line, '\n');
        if (line != NULL) line++;
    }
    return NULL;
}

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

abr_real_kind abr_real_kind_of(const char *text, const char *source) {
    const char *d = text ? description(text) : NULL;
    for (size_t k = 0; d != NULL && k < sizeof real_rules / sizeof real_rules[0]; k++)
        if (strncmp(d, real_rules[k].prefix, strlen(real_rules[k].prefix)) == 0)
            return real_rules[k].kind;
    for (size_t k = 0; source != NULL && k < sizeof real_sources / sizeof real_sources[0]; k++)
        if (ends_with(source, real_sources[k].ext)) return real_sources[k].kind;
    return ABR_REAL_NONE;
}

/* ---- the two plans ------------------------------------------------------------------- */

/* true when row i is a candidate: valid, with an arena. */
static bool candidate(const abr_model *m, size_t i) {
    return row_ok(m, i) && row_r(m, i)->arena != AB_NONE;
}

/* true when row a comes before row c (both candidates of one suite): the
 * smaller arena, then a stored plan, then the spec's byte order (the model's
 * spec index), then the row. */
static bool before(const abr_model *m, size_t a, size_t c) {
    const abo_row *x = row_r(m, a), *y = row_r(m, c);
    if (x->arena != y->arena) return x->arena < y->arena;
    bool px = x->plan_hash[0] != '\0', py = y->plan_hash[0] != '\0';
    if (px != py) return px;
    if (m->rr[a].spec != m->rr[c].spec) return m->rr[a].spec < m->rr[c].spec;
    return a < c;
}

/* Picks suite si's best greedy and best rows into *r. */
static void pick(const abr_model *m, size_t si, abr_real *r) {
    const abr_rsuite *su = &m->su[si];
    r->greedy = r->best = SIZE_MAX;
    r->greedy_ties = 0;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        if (!candidate(m, i)) continue;
        if (r->best == SIZE_MAX || before(m, i, r->best)) r->best = i;
        if (m->sp[m->rr[i].spec].exact) continue;
        if (r->greedy == SIZE_MAX || before(m, i, r->greedy)) r->greedy = i;
    }
    if (r->greedy == SIZE_MAX) return;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++)
        if (i != r->greedy && candidate(m, i) && !m->sp[m->rr[i].spec].exact &&
            row_r(m, i)->arena == row_r(m, r->greedy)->arena)
            r->greedy_ties++;
}

bool abr_real_greedy_is_best(const abr_model *m, const abr_real *r) {
    return r->greedy != SIZE_MAX && r->best != SIZE_MAX &&
           row_r(m, r->greedy)->arena == row_r(m, r->best)->arena;
}

bool abr_real_excess(const abr_model *m, const abr_real *r, double *excess) {
    if (r->greedy == SIZE_MAX || r->best == SIZE_MAX) return false;
    int64_t g = row_r(m, r->greedy)->arena, b = row_r(m, r->best)->arena;
    if (g == b) {
        *excess = 0;
        return true;
    }
    if (b <= 0) return false;
    *excess = (double)(g - b) / (double)b;
    return true;
}

void abr_put_excess(ab_buf *b, double excess) {
    double p = excess * 100.0;
    if (p == 0) {
        put(b, "0.00%");
        return;
    }
    int decimals = 2; /* two significant digits below 0.01% */
    if (p > 0 && p < 0.005) decimals = (int)ceil(-log10(p)) + 1;
    ab_buf_printf(b, "%+.*f%%", decimals, p);
}

void abr_put_row_gap(ab_buf *b, const abr_model *m, size_t i) {
    const abr_rsuite *su = &m->su[m->rr[i].suite];
    if (su->bound != AB_NONE && row_r(m, i)->arena == su->bound)
        ab_buf_printf(b, "optimal (%s)", abo_proof_word(abr_bound_proof(m, m->rr[i].suite)));
    else if (m->rr[i].has_gap) abr_put_excess(b, m->rr[i].gap);
    else abr_put_gap(b, false, 0);
}

/* ---- the order ------------------------------------------------------------------------- */

typedef struct real_key {
    int cls;        /* 0: greedy loses, 1: greedy is best, 2: no greedy or no best */
    double excess;  /* class 0: larger first */
    abr_real r;
} real_key;

static int cmp_real(const void *pa, const void *pb) {
    const real_key *a = pa, *b = pb;
    if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
    if (a->cls == 0 && a->excess != b->excess) return a->excess > b->excess ? -1 : 1;
    return (a->r.suite > b->r.suite) - (a->r.suite < b->r.suite);
}

static real_key key_of(const abr_model *m, abr_real r) {
    real_key k = {.cls = 2, .r = r};
    if (abr_real_excess(m, &r, &k.excess)) k.cls = k.excess > 0 ? 0 : 1;
    return k;
}

ab_status abr_reals_find(abs_store *s, const abr_model *m, abr_reals *out, ab_error *err) {
    out->v = NULL;
    out->n = 0;
    real_key *keys = ab_alloc_array(m->nsu ? m->nsu : 1, sizeof *keys);
    if (keys == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    size_t n = 0;
    ab_status st = AB_OK;
    for (size_t si = 0; si < m->nsu && st == AB_OK; si++) {
        char *text = NULL;
        ab_error e = {AB_OK, ""};
        ab_status rs = abs_suite_text(s, suite_of(m, si)->id, &text, NULL, &e);
        if (rs == AB_ENOMEM) st = ab_fail(err, rs, "%s", e.msg);
        abr_real_kind kind = abr_real_kind_of(rs == AB_OK ? text : NULL,
                                              rs == AB_OK ? suite_of(m, si)->source : NULL);
        ab_free(text);
        if (st != AB_OK || kind == ABR_REAL_NONE) continue;
        abr_real r = {.suite = si, .kind = kind};
        pick(m, si, &r);
        keys[n++] = key_of(m, r);
    }
    if (st == AB_OK && n > 0) {
        qsort(keys, n, sizeof *keys, cmp_real);
        out->v = ab_alloc_array(n, sizeof *out->v);
        if (out->v == NULL) st = ab_fail(err, AB_ENOMEM, "out of memory building the report");
        for (size_t k = 0; st == AB_OK && k < n; k++) out->v[k] = keys[k].r;
        if (st == AB_OK) out->n = n;
    }
    ab_free(keys);
    return st;
}

void abr_reals_free(abr_reals *r) {
    if (r == NULL) return;
    ab_free(r->v);
    r->v = NULL;
    r->n = 0;
}

/* ---- what sets a plan's arena ---------------------------------------------------------- */

ab_status abr_plan_top(const ab_problem *p, const int64_t *off, size_t **top, size_t *n,
                       int64_t *arena, ab_error *err) {
    *top = NULL;
    *n = 0;
    *arena = 0;
    size_t at = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (off[i] < 0) continue;
        int64_t end = off[i] + p->t[i].size;
        if (end > *arena) *arena = end, at = 0;
        if (end == *arena) at++;
    }
    if (at == 0 || *arena == 0) return AB_OK;
    *top = ab_alloc_array(at, sizeof **top);
    if (*top == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t i = 0; i < p->n; i++)
        if (off[i] >= 0 && off[i] + p->t[i].size == *arena) (*top)[(*n)++] = i;
    return AB_OK;
}
