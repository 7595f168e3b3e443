/*
 * report.c — the report of one run (see report.h for the figures).
 *
 * Layout of this file: the model (rows read from the store, suites, planner
 * specs and the figures derived from them); text helpers (escaping for each
 * format, gaps, failure details, certificates); then one renderer per
 * format: Markdown, CSV, JSON and HTML, the last with its three inline SVG
 * pieces (the gap chart, the arena-versus-k charts, the worst plans).
 */
#include "results/report/report.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check.h"
#include "results/report/svg.h"

/* ---- the model ------------------------------------------------------------- */

/* Where a suite's best bound came from. */
typedef enum bound_src {
    SRC_NONE = 0,
    SRC_MAX_LOAD, /* the suite's max-load bound (peak live bytes) */
    SRC_STORED,   /* the suite's stored lower bound */
    SRC_PLANNER,  /* a row's lower bound: what its planner proved */
    SRC_ILP,      /* a row's ILP bound */
    SRC_PROOF     /* a valid row proven optimal: its arena */
} bound_src;

/* A planner spec of the run and its summary figures. */
typedef struct rspec {
    const char *spec;     /* owned by the rows */
    char *family;         /* owned: the spec without its k parameter */
    int64_t k;            /* the spec's k parameter, or AB_NONE */
    size_t rows;          /* suites it ran on */
    size_t status[ABE_NSTATUSES];
    size_t nratio;        /* valid rows with a ratio to the bound */
    double logsum;        /* sum of log(arena / bound) over them */
    size_t proven, wins;
} rspec;

/* A suite of the run: rows [row0, row0 + nrows) of the store's order. */
typedef struct rsuite {
    size_t row0, nrows;
    int64_t bound;        /* best known lower bound (bb.value), or AB_NONE */
    abo_best_bound bb;    /* the oracle's best bound: value and kind of proof */
    bound_src src;        /* where it came from, for the report's words */
    size_t src_row;       /* the row it came from (SRC_PLANNER, SRC_ILP, SRC_PROOF) */
    int64_t best;         /* best valid arena, or AB_NONE */
    bool dup_name;        /* another suite of the run has the same name */
} rsuite;

/* Figures derived for one row. */
typedef struct rrow {
    size_t suite, spec;   /* indices into the model's suites and specs */
    int64_t k;            /* the spec's k, else the row's stored k, else AB_NONE */
    bool has_gap;
    double gap;           /* arena / bound - 1 when has_gap */
    bool proven, win;     /* valid and proven optimal; valid and best of its suite */
} rrow;

typedef struct model {
    abr_run run;
    abr_rows rows;
    rrow *rr;             /* rows.n entries */
    rsuite *su;
    size_t nsu;
    rspec *sp;
    size_t nsp;
} model;

static void model_free(model *m) {
    abr_run_free(&m->run);
    abr_rows_free(&m->rows);
    for (size_t i = 0; i < m->nsp; i++) ab_free(m->sp[i].family);
    ab_free(m->sp);
    ab_free(m->su);
    ab_free(m->rr);
    memset(m, 0, sizeof *m);
}

static const abr_result *row_r(const model *m, size_t i) { return &m->rows.v[i].r; }
static const abr_suite *suite_of(const model *m, size_t si) {
    return &m->rows.v[m->su[si].row0].suite;
}
static bool row_ok(const model *m, size_t i) { return row_r(m, i)->status == ABE_OK; }

static int cmp_str_ptr(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sets *family to spec without its k parameter (name:key=value,...) and *k
 * to that parameter; a spec without a usable k is its own family. */
static ab_status spec_family(const char *spec, char **family, int64_t *k, ab_error *err) {
    char *name;
    ab_params ps;
    *k = AB_NONE;
    ab_status st = ab_spec_parse(spec, &name, &ps, NULL);
    if (st == AB_ENOMEM) return ab_fail(err, AB_ENOMEM, "out of memory reading planner specs");
    const char *kv = st == AB_OK ? ab_params_get(&ps, "k") : NULL;
    int64_t kk;
    if (kv != NULL && ab_parse_int64(kv, strlen(kv), &kk) && kk >= 1) {
        ab_buf f = {0};
        ab_buf_append(&f, name, strlen(name));
        char sep = ':';
        for (size_t i = 0; i < ps.n; i++) {
            if (strcmp(ps.v[i].key, "k") == 0) continue;
            ab_buf_printf(&f, "%c%s=%s", sep, ps.v[i].key, ps.v[i].value);
            sep = ',';
        }
        if (f.oom) ab_buf_free(&f);
        *family = f.s; /* NULL after an allocation failure */
        *k = kk;
    } else {
        *family = ab_strdup(spec);
    }
    ab_free(name);
    ab_params_free(&ps);
    if (*family == NULL) return ab_fail(err, AB_ENOMEM, "out of memory reading planner specs");
    return AB_OK;
}

/* The distinct specs of the rows, in byte order. */
static ab_status build_specs(model *m, ab_error *err) {
    size_t n = m->rows.n;
    const char **names = ab_alloc_array(n ? n : 1, sizeof *names);
    if (names == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t i = 0; i < n; i++) names[i] = row_r(m, i)->spec;
    qsort(names, n, sizeof *names, cmp_str_ptr);
    m->sp = ab_calloc(n ? n : 1, sizeof *m->sp);
    ab_status st = m->sp ? AB_OK : ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t i = 0; st == AB_OK && i < n; i++) {
        if (m->nsp > 0 && strcmp(m->sp[m->nsp - 1].spec, names[i]) == 0) continue;
        rspec *p = &m->sp[m->nsp++];
        p->spec = names[i];
        st = spec_family(p->spec, &p->family, &p->k, err);
    }
    ab_free(names);
    return st;
}

/* The index of spec in the model's sorted specs. */
static size_t spec_index(const model *m, const char *spec) {
    size_t lo = 0, hi = m->nsp;
    while (lo + 1 < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(m->sp[mid].spec, spec) <= 0) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* Suites: maximal stretches of rows with one suite id (the store orders rows
 * by suite name and hash, so each suite's rows are adjacent). */
static ab_status build_suites(model *m, ab_error *err) {
    size_t n = m->rows.n;
    m->su = ab_calloc(n ? n : 1, sizeof *m->su);
    m->rr = ab_calloc(n ? n : 1, sizeof *m->rr);
    if (m->su == NULL || m->rr == NULL)
        return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || m->rows.v[i].suite.id != m->rows.v[i - 1].suite.id)
            m->su[m->nsu++] = (rsuite){.row0 = i, .bound = AB_NONE, .best = AB_NONE};
        m->su[m->nsu - 1].nrows++;
        rrow *r = &m->rr[i];
        r->suite = m->nsu - 1;
        r->spec = spec_index(m, row_r(m, i)->spec);
        r->k = m->sp[r->spec].k != AB_NONE ? m->sp[r->spec].k : row_r(m, i)->k;
    }
    for (size_t s = 1; s < m->nsu; s++)
        if (strcmp(suite_of(m, s)->name, suite_of(m, s - 1)->name) == 0)
            m->su[s].dup_name = m->su[s - 1].dup_name = true;
    return AB_OK;
}

/* Offers v, from src (row: the row it came from), to the suite's best bound
 * (oracle/certify.h decides which bound stands and what it proves). */
static void offer_bound(const model *m, rsuite *su, int64_t v, bound_src src, size_t row) {
    abo_proof by = ABO_PROOF_LOWER_BOUND; /* max-load, stored */
    if (src == SRC_ILP) by = ABO_PROOF_ILP;
    if (src == SRC_PLANNER || src == SRC_PROOF) { /* a row's refutation or its own proof */
        by = row_r(m, row)->proven_by;
        if (by == ABO_PROOF_NONE) by = ABO_PROOF_EXHAUSTIVE;
    }
    abo_best_bound_offer(&su->bb, v, by, row);
    if (su->bb.value == su->bound) return;
    su->bound = su->bb.value;
    su->src = src;
    su->src_row = row;
}

/* The best bound and the best valid arena of suite si. */
static void suite_figures(model *m, size_t si) {
    rsuite *su = &m->su[si];
    const abr_suite *s = suite_of(m, si);
    abo_best_bound_init(&su->bb);
    offer_bound(m, su, s->peak_live_bytes, SRC_MAX_LOAD, 0);
    offer_bound(m, su, s->lower_bound, SRC_STORED, 0);
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        const abr_result *r = row_r(m, i);
        offer_bound(m, su, r->lower_bound, SRC_PLANNER, i);
        offer_bound(m, su, r->ilp_bound, SRC_ILP, i);
        if (!row_ok(m, i) || r->arena == AB_NONE) continue;
        if (r->proven_by != ABO_PROOF_NONE) offer_bound(m, su, r->arena, SRC_PROOF, i);
        if (su->best == AB_NONE || r->arena < su->best) su->best = r->arena;
    }
}

/* Gap, proof and win of row i, added to its spec's figures. */
static void row_figures(model *m, size_t i) {
    rrow *rr = &m->rr[i];
    const rsuite *su = &m->su[rr->suite];
    const abr_result *r = row_r(m, i);
    rspec *sp = &m->sp[rr->spec];
    sp->rows++;
    if ((unsigned)r->status < ABE_NSTATUSES) sp->status[r->status]++;
    if (!row_ok(m, i) || r->arena == AB_NONE) return;
    int64_t a = r->arena, lb = su->bound;
    if (lb != AB_NONE && (lb > 0 || a == 0)) {
        rr->has_gap = true;
        rr->gap = lb > 0 ? (double)(a - lb) / (double)lb : 0.0;
        if (a > 0 || lb == 0) {
            sp->logsum += lb > 0 ? log((double)a / (double)lb) : 0.0;
            sp->nratio++;
        }
    }
    rr->proven = r->proven_by != ABO_PROOF_NONE || abo_certify_by_bound(a, &su->bb) != ABO_PROOF_NONE;
    rr->win = a == su->best;
    sp->proven += rr->proven;
    sp->wins += rr->win;
}

/* Reads run `run` and derives every figure. *m is initialised by the call and
 * freed with model_free, even on failure. */
static ab_status model_build(abr_store *s, int64_t run, model *m, ab_error *err) {
    memset(m, 0, sizeof *m);
    ab_status st = abr_run_get(s, run, &m->run, err);
    if (st == AB_OK) st = abr_rows_read(s, run, &m->rows, err);
    if (st == AB_OK) st = build_specs(m, err);
    if (st == AB_OK) st = build_suites(m, err);
    if (st != AB_OK) return st;
    for (size_t si = 0; si < m->nsu; si++) suite_figures(m, si);
    for (size_t i = 0; i < m->rows.n; i++) row_figures(m, i);
    return AB_OK;
}

/* ---- text helpers ------------------------------------------------------------ */

/* Appends s escaped for one format. */
typedef void (*esc_fn)(ab_buf *b, const char *s);

static void put(ab_buf *b, const char *s) { ab_buf_append(b, s, strlen(s)); }

/* Markdown table cells: '|' and '\' escaped, line breaks and tabs as spaces. */
static void esc_md(ab_buf *b, const char *s) {
    for (; *s; s++) {
        if (*s == '|' || *s == '\\') ab_buf_append(b, "\\", 1);
        ab_buf_append(b, (*s == '\n' || *s == '\r' || *s == '\t') ? " " : s, 1);
    }
}

/* The length of the valid UTF-8 sequence at p, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p) {
    unsigned c = p[0];
    if (c < 0x80) return 1;
    size_t n = c < 0xC2 ? 0 : c <= 0xDF ? 2 : c <= 0xEF ? 3 : c <= 0xF4 ? 4 : 0;
    if (n == 0) return 0;
    unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return n;
}

/* A JSON string (null for NULL); invalid UTF-8 becomes U+FFFD. */
static void json_str(ab_buf *b, const char *s) {
    if (s == NULL) {
        put(b, "null");
        return;
    }
    ab_buf_append(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_len(p);
        if (*p == '"' || *p == '\\') ab_buf_printf(b, "\\%c", *p);
        else if (*p == '\n') put(b, "\\n");
        else if (*p == '\r') put(b, "\\r");
        else if (*p == '\t') put(b, "\\t");
        else if (*p < 0x20) ab_buf_printf(b, "\\u%04x", *p);
        else if (n == 0) put(b, "\\ufffd");
        else ab_buf_append(b, (const char *)p, n);
        p += n ? n : 1;
    }
    ab_buf_append(b, "\"", 1);
}

/* A CSV field: quoted (with doubled quotes) when it holds , " CR or LF. */
static void csv_str(ab_buf *b, const char *s) {
    if (s == NULL) return;
    if (strpbrk(s, ",\"\r\n") == NULL) {
        put(b, s);
        return;
    }
    ab_buf_append(b, "\"", 1);
    for (; *s; s++) {
        if (*s == '"') put(b, "\"\"");
        else ab_buf_append(b, s, 1);
    }
    ab_buf_append(b, "\"", 1);
}

/* "-" for an absent integer, else the integer. */
static void put_i64(ab_buf *b, int64_t v) {
    if (v == AB_NONE) put(b, "-");
    else ab_buf_printf(b, "%lld", (long long)v);
}

/* A gap as a signed percentage, "-" when there is none. */
static void put_gap(ab_buf *b, bool has, double gap) {
    if (!has) put(b, "-");
    else ab_buf_printf(b, "%+.2f%%", gap * 100.0);
}

/* The name of suite si, with its hash's first 8 digits when the run has
 * another suite of the same name. */
static void put_suite(ab_buf *b, esc_fn esc, const model *m, size_t si) {
    const abr_suite *s = suite_of(m, si);
    esc(b, s->name);
    if (m->su[si].dup_name) ab_buf_printf(b, "@%.8s", s->hash);
}

static const struct { int sig; const char *name; } signals[] = {
    {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},  {SIGFPE, "SIGFPE"},
    {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
    {SIGTRAP, "SIGTRAP"}, {SIGINT, "SIGINT"},   {SIGPIPE, "SIGPIPE"}, {SIGSYS, "SIGSYS"},
};

static void put_signal(ab_buf *b, int sig) {
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
        if (signals[i].sig == sig) {
            ab_buf_printf(b, "%s (%d)", signals[i].name, sig);
            return;
        }
    ab_buf_printf(b, "%d", sig);
}

/* What is known of a failed row: signal, verdict, checker message, error,
 * note, joined by "; ". */
static void put_detail(ab_buf *b, esc_fn esc, const abr_result *r) {
    size_t start = b->n;
    if (r->signal != 0) {
        put(b, "signal ");
        put_signal(b, r->signal);
    }
    const char *parts[] = {r->verdict && strcmp(r->verdict, "ok") != 0 ? r->verdict : NULL,
                           r->check_message, r->error, r->note};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (parts[i] == NULL || parts[i][0] == '\0') continue;
        if (b->n > start) put(b, "; ");
        esc(b, parts[i]);
    }
    if (b->n == start) put(b, "(no message)");
}

/* A failed cell: the status, with the signal of a crash. */
static void put_fail_cell(ab_buf *b, const abr_result *r) {
    put(b, abe_status_word(r->status));
    if (r->signal != 0) {
        put(b, " ");
        put_signal(b, r->signal);
    }
}

/* Where suite si's best bound came from. */
static void put_bound_src(ab_buf *b, esc_fn esc, const model *m, size_t si) {
    const rsuite *su = &m->su[si];
    const abr_result *r = su->src == SRC_NONE ? NULL : row_r(m, su->src_row);
    switch (su->src) {
    case SRC_NONE: put(b, "-"); break;
    case SRC_MAX_LOAD: put(b, "max-load"); break;
    case SRC_STORED: put(b, "stored bound"); break;
    case SRC_PLANNER: put(b, "bound proved by "), esc(b, r->spec); break;
    case SRC_ILP: put(b, "ILP bound of "), esc(b, r->spec); break;
    case SRC_PROOF:
        esc(b, r->spec);
        ab_buf_printf(b, " proved its arena optimal (%s)", abo_proof_word(r->proven_by));
        break;
    }
}

/* The proof a suite's bound gives when the best arena reaches it. */
static abo_proof bound_proof(const model *m, size_t si) { return m->su[si].bb.by; }

/* The certificate's verdict: optimal (proof), open (gap), conflict, ... */
static void put_verdict(ab_buf *b, const model *m, size_t si) {
    const rsuite *su = &m->su[si];
    if (su->best == AB_NONE) put(b, "no valid plan");
    else if (su->bound == AB_NONE) put(b, "no bound known");
    else if (su->best == su->bound)
        ab_buf_printf(b, "optimal (%s)", abo_proof_word(bound_proof(m, si)));
    else if (su->best < su->bound) put(b, "CONFLICT: a valid arena below a lower bound");
    else if (suite_of(m, si)->optimum != AB_NONE && su->best < suite_of(m, si)->optimum)
        ab_buf_printf(b, "CONFLICT: a valid arena below the known optimum %lld",
                      (long long)suite_of(m, si)->optimum);
    else if (su->bound == 0) put(b, "open");
    else {
        put(b, "open, gap ");
        put_gap(b, true, (double)(su->best - su->bound) / (double)su->bound);
    }
}

/* The specs whose valid arena is the suite's best, joined by ", ". */
static void put_winners(ab_buf *b, esc_fn esc, const model *m, size_t si) {
    const rsuite *su = &m->su[si];
    bool any = false;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        if (!m->rr[i].win) continue;
        if (any) put(b, ", ");
        esc(b, row_r(m, i)->spec);
        any = true;
    }
    if (!any) put(b, "-");
}

/* The rows of suite si that carry a proof of optimality: "spec (proof)". */
static void put_claims(ab_buf *b, esc_fn esc, const model *m, size_t si) {
    const rsuite *su = &m->su[si];
    bool any = false;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        const abr_result *r = row_r(m, i);
        if (!row_ok(m, i) || r->proven_by == ABO_PROOF_NONE) continue;
        if (any) put(b, ", ");
        esc(b, r->spec);
        ab_buf_printf(b, " (%s)", abo_proof_word(r->proven_by));
        any = true;
    }
    if (!any) put(b, "-");
}

/* The geometric mean of a spec's arena / bound ratios, "-" when none. */
static void put_geomean(ab_buf *b, const rspec *p) {
    if (p->nratio == 0) put(b, "-");
    else ab_buf_printf(b, "%.4f", exp(p->logsum / (double)p->nratio));
}

static size_t failed_rows(const model *m) {
    size_t n = 0;
    for (size_t i = 0; i < m->rows.n; i++) n += !row_ok(m, i);
    return n;
}

/* The row of spec j on suite si, or SIZE_MAX when that pair did not run. */
static size_t cell_row(const model *m, size_t si, size_t j) {
    const rsuite *su = &m->su[si];
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++)
        if (m->rr[i].spec == j) return i;
    return SIZE_MAX;
}

/* ---- Markdown ---------------------------------------------------------------- */

static void md_field(ab_buf *b, const char *key, const char *v) {
    ab_buf_printf(b, "| %s | ", key);
    esc_md(b, v ? v : "-");
    put(b, " |\n");
}

static void md_header(ab_buf *b, const model *m) {
    const abr_run *r = &m->run;
    ab_buf_printf(b, "# arenabench report: run %lld\n\n| run | %lld (%s) |\n|---|---|\n",
                  (long long)r->id, (long long)r->id, abr_run_status_word(r->status));
    md_field(b, "tag", r->tag);
    md_field(b, "revision", r->revision);
    md_field(b, "host", r->host);
    md_field(b, "started", r->started);
    md_field(b, "finished", r->finished ? r->finished : "not finished");
    md_field(b, "command", r->command);
    size_t fail = failed_rows(m);
    ab_buf_printf(b, "\n%zu suites, %zu planner specs, %zu results: %zu valid, %zu failed.\n",
                  m->nsu, m->nsp, m->rows.n, m->rows.n - fail, fail);
}

static void md_planners(ab_buf *b, const model *m) {
    put(b, "\n## Planners\n\n| planner | suites | valid | invalid | timeout | crash | oom | "
           "infeasible | error | geomean arena/bound | proven | wins |\n"
           "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (size_t j = 0; j < m->nsp; j++) {
        const rspec *p = &m->sp[j];
        put(b, "| ");
        esc_md(b, p->spec);
        ab_buf_printf(b, " | %zu", p->rows);
        for (int s = 0; s < ABE_NSTATUSES; s++) ab_buf_printf(b, " | %zu", p->status[s]);
        put(b, " | ");
        put_geomean(b, p);
        ab_buf_printf(b, " | %zu | %zu |\n", p->proven, p->wins);
    }
    put(b, "\ngeomean: the geometric mean of arena / best known lower bound over valid rows; "
           "proven: valid rows proven optimal (by the row's own proof or an arena equal to the "
           "best bound); wins: valid rows with the smallest arena of their suite (ties all "
           "win).\n");
}

static void md_cell(ab_buf *b, const model *m, size_t si, size_t j) {
    size_t i = cell_row(m, si, j);
    put(b, " | ");
    if (i == SIZE_MAX) {
        put(b, "-");
        return;
    }
    const abr_result *r = row_r(m, i);
    if (!row_ok(m, i) || r->arena == AB_NONE) {
        put_fail_cell(b, r);
        return;
    }
    ab_buf_printf(b, m->rr[i].win ? "**%lld** (" : "%lld (", (long long)r->arena);
    put_gap(b, m->rr[i].has_gap, m->rr[i].gap);
    put(b, ")");
}

static void md_suites(ab_buf *b, const model *m) {
    put(b, "\n## Suites\n\nEach cell: the arena in bytes (its gap to the suite's best known "
           "lower bound); bold: the best valid arena; a failed cell shows its status. "
           "logical: bytes of shape x element bits, packed; physical: after alignment and layout "
           "padding; peak live: the max-load bound.\n\n"
           "| suite | tensors | logical | physical | peak live | bound");
    for (size_t j = 0; j < m->nsp; j++) {
        put(b, " | ");
        esc_md(b, m->sp[j].spec);
    }
    put(b, " |\n|---|--:|--:|--:|--:|--:");
    for (size_t j = 0; j < m->nsp; j++) put(b, "|--:");
    put(b, "|\n");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, "| ");
        put_suite(b, esc_md, m, si);
        put(b, " | ");
        put_i64(b, suite_of(m, si)->tensors);
        put(b, " | ");
        put_i64(b, suite_of(m, si)->logical_bytes);
        put(b, " | ");
        put_i64(b, suite_of(m, si)->physical_bytes);
        put(b, " | ");
        put_i64(b, suite_of(m, si)->peak_live_bytes);
        put(b, " | ");
        put_i64(b, m->su[si].bound);
        for (size_t j = 0; j < m->nsp; j++) md_cell(b, m, si, j);
        put(b, " |\n");
    }
}

static void md_certificates(ab_buf *b, const model *m) {
    put(b, "\n## Optimality certificates\n\n| suite | best arena | reached by | best bound | "
           "bound from | verdict | proofs in rows |\n|---|--:|---|--:|---|---|---|\n");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, "| ");
        put_suite(b, esc_md, m, si);
        put(b, " | ");
        put_i64(b, m->su[si].best);
        put(b, " | ");
        put_winners(b, esc_md, m, si);
        put(b, " | ");
        put_i64(b, m->su[si].bound);
        put(b, " | ");
        put_bound_src(b, esc_md, m, si);
        put(b, " | ");
        put_verdict(b, m, si);
        put(b, " | ");
        put_claims(b, esc_md, m, si);
        put(b, " |\n");
    }
}

static void md_failures(ab_buf *b, const model *m) {
    size_t n = failed_rows(m);
    ab_buf_printf(b, "\n## Failures\n\n");
    if (n == 0) {
        put(b, "No failures.\n");
        return;
    }
    ab_buf_printf(b, "%zu failed results.\n\n| suite | planner | status | detail |\n"
                     "|---|---|---|---|\n", n);
    for (size_t i = 0; i < m->rows.n; i++) {
        if (row_ok(m, i)) continue;
        const abr_result *r = row_r(m, i);
        put(b, "| ");
        put_suite(b, esc_md, m, m->rr[i].suite);
        put(b, " | ");
        esc_md(b, r->spec);
        ab_buf_printf(b, " | %s | ", abe_status_word(r->status));
        put_detail(b, esc_md, r);
        put(b, " |\n");
    }
}


/* ---- I/O in the workspace (run --io both) -------------------------------------
 * A run with --io both holds each suite twice, named "X@io=separate" and
 * "X@io=workspace". The footprint with separate I/O is the arena plus the
 * input and output bytes kept outside it; in the workspace it is the arena
 * alone. This section puts the two side by side with the saving. */

#define IO_SEP "@io=separate"
#define IO_WS "@io=workspace"

/* The workspace twin of suite si when si is a separate-I/O variant, else SIZE_MAX. */
static size_t io_twin(const model *m, size_t si) {
    const char *name = suite_of(m, si)->name;
    size_t len = strlen(name), tail = strlen(IO_SEP);
    if (len <= tail || strcmp(name + len - tail, IO_SEP) != 0) return SIZE_MAX;
    for (size_t w = 0; w < m->nsu; w++) {
        const char *other = suite_of(m, w)->name;
        if (strncmp(other, name, len - tail) == 0 && strcmp(other + len - tail, IO_WS) == 0)
            return w;
    }
    return SIZE_MAX;
}

static bool io_any(const model *m) {
    for (size_t si = 0; si < m->nsu; si++)
        if (io_twin(m, si) != SIZE_MAX) return true;
    return false;
}

/* One table row per (pair, spec) with both variants valid. */
static void io_rows(ab_buf *b, const model *m, bool html) {
    for (size_t si = 0; si < m->nsu; si++) {
        size_t w = io_twin(m, si);
        if (w == SIZE_MAX) continue;
        const char *name = suite_of(m, si)->name;
        int base = (int)(strlen(name) - strlen(IO_SEP));
        for (size_t j = 0; j < m->nsp; j++) {
            size_t a = cell_row(m, si, j), c = cell_row(m, w, j);
            if (a == SIZE_MAX || c == SIZE_MAX || !row_ok(m, a) || !row_ok(m, c)) continue;
            int64_t io = suite_of(m, si)->io_bytes > 0 ? suite_of(m, si)->io_bytes : 0;
            int64_t sep = row_r(m, a)->arena + io, ws = row_r(m, c)->arena;
            double pct = sep > 0 ? 100.0 * (double)(sep - ws) / (double)sep : 0.0;
            ab_buf tmpname = {0};
            ab_buf_printf(&tmpname, "%.*s", base, name);
            if (html) {
                put(b, "<tr><td>");
                ab_buf_xml(b, tmpname.s ? tmpname.s : "");
                put(b, "</td><td>");
                ab_buf_xml(b, m->sp[j].spec);
                ab_buf_printf(b, "</td><td>%lld + %lld = %lld</td><td>%lld</td><td>%lld (%.1f%%)"
                                 "</td></tr>\n", (long long)row_r(m, a)->arena, (long long)io,
                              (long long)sep, (long long)ws, (long long)(sep - ws), pct);
            } else {
                put(b, "| ");
                esc_md(b, tmpname.s ? tmpname.s : "");
                put(b, " | ");
                esc_md(b, m->sp[j].spec);
                ab_buf_printf(b, " | %lld + %lld = %lld | %lld | %lld (%.1f%%) |\n",
                              (long long)row_r(m, a)->arena, (long long)io, (long long)sep,
                              (long long)ws, (long long)(sep - ws), pct);
            }
            ab_buf_free(&tmpname);
        }
    }
}

static void md_io(ab_buf *b, const model *m) {
    if (!io_any(m)) return;
    put(b, "\n## I/O in the workspace\n\nFootprint with inputs and outputs outside the arena "
           "(arena + I/O bytes) against planning them inside it (io: workspace), and the saving.\n\n"
           "| suite | planner | separate: arena + I/O = footprint | workspace: arena | saving |\n"
           "|---|---|--:|--:|--:|\n");
    io_rows(b, m, false);
}

static void render_md(ab_buf *b, const model *m) {
    md_header(b, m);
    md_planners(b, m);
    md_suites(b, m);
    md_io(b, m);
    md_certificates(b, m);
    md_failures(b, m);
}

/* ---- the fields of a row (CSV and JSON) ------------------------------------- */

typedef enum ftype { F_INT, F_REAL, F_STR, F_BOOL } ftype;

typedef struct field {
    const char *name;
    ftype t;
    bool null;      /* absent: empty in CSV, null in JSON */
    int64_t i;      /* F_INT, F_BOOL */
    double d;       /* F_REAL */
    const char *s;  /* F_STR */
} field;

#define NFIELDS 29

static field fi(const char *name, int64_t v) {
    return (field){.name = name, .t = F_INT, .null = v == AB_NONE, .i = v};
}
static field fr(const char *name, double v, bool null) {
    return (field){.name = name, .t = F_REAL, .null = null || !isfinite(v), .d = v};
}
static field fs(const char *name, const char *s) {
    return (field){.name = name, .t = F_STR, .null = s == NULL, .s = s};
}
static field fb(const char *name, bool v) { return (field){.name = name, .t = F_BOOL, .i = v}; }

/* The NFIELDS fields of row i, in column order. */
static void row_fields(const model *m, size_t i, field f[NFIELDS]) {
    const abr_row *w = &m->rows.v[i];
    const abr_result *r = &w->r;
    const rrow *rr = &m->rr[i];
    const rsuite *su = &m->su[rr->suite];
    size_t n = 0;
    f[n++] = fi("run", r->run);
    f[n++] = fs("suite", w->suite.name);
    f[n++] = fs("suite_hash", w->suite.hash);
    f[n++] = fi("tensors", w->suite.tensors);
    f[n++] = fs("spec", r->spec);
    f[n++] = fi("k", rr->k);
    f[n++] = fs("status", abe_status_word(r->status));
    f[n++] = fi("arena", r->arena);
    f[n++] = fi("lower_bound", r->lower_bound);
    f[n++] = fi("max_load", w->suite.peak_live_bytes);
    f[n++] = fi("best_bound", su->bound);
    f[n++] = fr("gap", rr->gap, !rr->has_gap);
    f[n++] = fb("proven", rr->proven);
    f[n++] = fb("win", rr->win);
    f[n++] = fs("proven_by", abo_proof_word(r->proven_by));
    f[n++] = fs("ilp_status", r->ilp_status);
    f[n++] = fi("ilp_objective", r->ilp_objective);
    f[n++] = fi("ilp_bound", r->ilp_bound);
    f[n++] = fr("wall_s", r->wall_s, r->wall_s < 0);
    f[n++] = fr("cpu_s", r->cpu_s, r->cpu_s < 0);
    f[n++] = fi("peak_rss", r->peak_rss);
    f[n++] = fi("nodes", r->nodes);
    f[n++] = fi("signal", r->signal != 0 ? r->signal : AB_NONE);
    f[n++] = fs("verdict", r->verdict);
    f[n++] = fs("check_message", r->check_message);
    f[n++] = fs("error", r->error);
    f[n++] = fs("note", r->note);
    f[n++] = fs("plan_hash", r->plan_hash[0] ? r->plan_hash : NULL);
    f[n++] = fs("recorded", r->recorded);
}

/* ---- CSV --------------------------------------------------------------------- */

static void csv_value(ab_buf *b, const field *f) {
    if (f->null) return;
    switch (f->t) {
    case F_INT: ab_buf_printf(b, "%lld", (long long)f->i); break;
    case F_REAL: ab_buf_printf(b, "%.6f", f->d); break;
    case F_STR: csv_str(b, f->s); break;
    case F_BOOL: put(b, f->i ? "1" : "0"); break;
    }
}

/* The field names, from the fields of a blank row (a run may have none). */
static void field_names(field f[NFIELDS]) {
    abr_row w;
    abr_suite_init(&w.suite);
    abr_result_init(&w.r);
    w.suite.name = w.r.spec = "";
    w.suite.hash[0] = w.r.plan_hash[0] = '\0';
    rrow rr = {.k = AB_NONE};
    rsuite su = {.bound = AB_NONE, .best = AB_NONE};
    rspec sp = {.spec = "", .k = AB_NONE};
    model blank = {.rows = {.n = 1, .v = &w}, .rr = &rr, .su = &su, .nsu = 1, .sp = &sp,
                   .nsp = 1};
    row_fields(&blank, 0, f);
}

/* One line per result, a header line first; fields as in row_fields. */
static void render_csv(ab_buf *b, const model *m) {
    field f[NFIELDS];
    field_names(f);
    for (size_t k = 0; k < NFIELDS; k++) ab_buf_printf(b, "%s%s", k ? "," : "", f[k].name);
    put(b, "\n");
    for (size_t i = 0; i < m->rows.n; i++) {
        row_fields(m, i, f);
        for (size_t k = 0; k < NFIELDS; k++) {
            if (k) put(b, ",");
            csv_value(b, &f[k]);
        }
        put(b, "\n");
    }
}

/* ---- JSON -------------------------------------------------------------------- */

static void json_value(ab_buf *b, const field *f) {
    if (f->null) {
        put(b, "null");
        return;
    }
    switch (f->t) {
    case F_INT: ab_buf_printf(b, "%lld", (long long)f->i); break;
    case F_REAL: ab_buf_printf(b, "%.6f", f->d); break;
    case F_STR: json_str(b, f->s); break;
    case F_BOOL: put(b, f->i ? "true" : "false"); break;
    }
}

/* "name": value pairs, separated by ", ". */
static void json_fields(ab_buf *b, const field *f, size_t n) {
    for (size_t k = 0; k < n; k++) {
        ab_buf_printf(b, "%s\"%s\": ", k ? ", " : "", f[k].name);
        json_value(b, &f[k]);
    }
}

static void json_object(ab_buf *b, const field *f, size_t n) {
    put(b, "{");
    json_fields(b, f, n);
    put(b, "}");
}

static void json_run(ab_buf *b, const model *m) {
    const abr_run *r = &m->run;
    field f[] = {fi("id", r->id), fs("key", r->key), fs("tag", r->tag),
                 fs("revision", r->revision), fs("host", r->host), fs("command", r->command),
                 fs("started", r->started), fs("finished", r->finished),
                 fs("status", abr_run_status_word(r->status))};
    put(b, "  \"run\": ");
    json_object(b, f, sizeof f / sizeof f[0]);
    put(b, ",\n");
}

static void json_planners(ab_buf *b, const model *m) {
    put(b, "  \"planners\": [");
    for (size_t j = 0; j < m->nsp; j++) {
        const rspec *p = &m->sp[j];
        double g = p->nratio ? exp(p->logsum / (double)p->nratio) : 0.0;
        field f[6 + ABE_NSTATUSES];
        size_t n = 0;
        f[n++] = fs("spec", p->spec);
        f[n++] = fi("suites", (int64_t)p->rows);
        for (int s = 0; s < ABE_NSTATUSES; s++)
            f[n++] = fi(abe_status_word((abe_status)s), (int64_t)p->status[s]);
        f[n++] = fr("geomean_ratio", g, p->nratio == 0);
        f[n++] = fi("ratios", (int64_t)p->nratio);
        f[n++] = fi("proven", (int64_t)p->proven);
        f[n++] = fi("wins", (int64_t)p->wins);
        put(b, j ? ",\n    " : "\n    ");
        json_object(b, f, n);
    }
    put(b, m->nsp ? "\n  ],\n" : "],\n");
}

/* Writes what fn writes (raw text, through tmp) as one JSON string. */
static void json_text(ab_buf *b, ab_buf *tmp, void (*fn)(ab_buf *, const model *, size_t),
                      const model *m, size_t si) {
    tmp->n = 0;
    if (tmp->s) tmp->s[0] = '\0';
    fn(tmp, m, si);
    json_str(b, tmp->oom ? "" : (tmp->s ? tmp->s : ""));
    if (tmp->oom) b->oom = true;
}

static void put_bound_src_raw(ab_buf *b, const model *m, size_t si) {
    put_bound_src(b, put, m, si);
}
static void put_winners_raw(ab_buf *b, const model *m, size_t si) {
    put_winners(b, put, m, si);
}

static void json_suite(ab_buf *b, ab_buf *tmp, const model *m, size_t si) {
    const abr_suite *s = suite_of(m, si);
    const rsuite *su = &m->su[si];
    bool optimal = su->best != AB_NONE && su->best == su->bound;
    field f[] = {fs("name", s->name), fs("hash", s->hash), fi("tensors", s->tensors),
                 fi("max_load", s->peak_live_bytes), fi("stored_bound", s->lower_bound),
                 fi("optimum", s->optimum), fi("logical_bytes", s->logical_bytes),
                 fi("physical_bytes", s->physical_bytes), fi("best_arena", su->best),
                 fi("best_bound", su->bound), fb("optimal", optimal),
                 fs("proof", optimal ? abo_proof_word(bound_proof(m, si)) : NULL)};
    put(b, "{");
    json_fields(b, f, sizeof f / sizeof f[0]);
    put(b, ", \"bound_from\": ");
    json_text(b, tmp, put_bound_src_raw, m, si);
    put(b, ", \"reached_by\": ");
    json_text(b, tmp, put_winners_raw, m, si);
    put(b, ", \"verdict\": ");
    json_text(b, tmp, put_verdict, m, si);
    put(b, "}");
}

static void json_suites(ab_buf *b, const model *m) {
    ab_buf tmp = {0};
    put(b, "  \"suites\": [");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, si ? ",\n    " : "\n    ");
        json_suite(b, &tmp, m, si);
    }
    put(b, m->nsu ? "\n  ],\n" : "],\n");
    ab_buf_free(&tmp);
}

static void json_rows(ab_buf *b, const model *m) {
    put(b, "  \"rows\": [");
    field f[NFIELDS];
    for (size_t i = 0; i < m->rows.n; i++) {
        row_fields(m, i, f);
        put(b, i ? ",\n    " : "\n    ");
        json_object(b, f, NFIELDS);
    }
    put(b, m->rows.n ? "\n  ]\n" : "]\n");
}

static void render_json(ab_buf *b, const model *m) {
    put(b, "{\n");
    json_run(b, m);
    json_planners(b, m);
    json_suites(b, m);
    json_rows(b, m);
    put(b, "}\n");
}

/* ---- HTML: page, tables -------------------------------------------------------- */

static const char *const colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                     "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#7f7f7f"};
#define NCOLORS (sizeof colors / sizeof colors[0])

static const char html_style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;line-height:1.35}\n"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:.6em 0}\n"
    "th,td{border:1px solid #ccc;padding:2px 8px;text-align:right;vertical-align:top}\n"
    "th{background:#f2f2f2}.l{text-align:left}\n"
    "td.best{font-weight:bold;background:#e3f2e3}td.fail{background:#fbe4e4;color:#a00}\n"
    "td.miss{color:#999}p.note{color:#555;font-size:.9em}\n"
    "svg{max-width:100%;height:auto}.charts{display:flex;flex-wrap:wrap;gap:1em}\n"
    "figure{margin:.6em 0}figcaption{font-size:.9em;color:#555}\n";

static void esc_xml(ab_buf *b, const char *s) { ab_buf_xml(b, s); }

static void html_field(ab_buf *b, const char *key, const char *v) {
    ab_buf_printf(b, "<tr><th class=\"l\">%s</th><td class=\"l\">", key);
    esc_xml(b, v ? v : "-");
    put(b, "</td></tr>\n");
}

static void html_header(ab_buf *b, const model *m) {
    const abr_run *r = &m->run;
    ab_buf_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<title>arenabench report: run %lld</title>\n<style>\n%s</style>\n</head>\n"
                     "<body>\n<h1>arenabench report: run %lld</h1>\n<table>\n",
                  (long long)r->id, html_style, (long long)r->id);
    html_field(b, "status", abr_run_status_word(r->status));
    html_field(b, "tag", r->tag);
    html_field(b, "revision", r->revision);
    html_field(b, "host", r->host);
    html_field(b, "started", r->started);
    html_field(b, "finished", r->finished ? r->finished : "not finished");
    html_field(b, "command", r->command);
    size_t fail = failed_rows(m);
    ab_buf_printf(b, "</table>\n<p>%zu suites, %zu planner specs, %zu results: %zu valid, %zu "
                     "failed.</p>\n", m->nsu, m->nsp, m->rows.n, m->rows.n - fail, fail);
}

static void html_planners(ab_buf *b, const model *m) {
    put(b, "<h2>Planners</h2>\n<table>\n<tr><th class=\"l\">planner</th><th>suites</th>"
           "<th>valid</th><th>invalid</th><th>timeout</th><th>crash</th><th>oom</th>"
           "<th>infeasible</th><th>error</th><th>geomean arena/bound</th><th>proven</th>"
           "<th>wins</th></tr>\n");
    for (size_t j = 0; j < m->nsp; j++) {
        const rspec *p = &m->sp[j];
        ab_buf_printf(b, "<tr><td class=\"l\"><span style=\"color:%s\">&#9679;</span> ",
                      colors[j % NCOLORS]);
        esc_xml(b, p->spec);
        ab_buf_printf(b, "</td><td>%zu</td>", p->rows);
        for (int s = 0; s < ABE_NSTATUSES; s++) ab_buf_printf(b, "<td>%zu</td>", p->status[s]);
        put(b, "<td>");
        put_geomean(b, p);
        ab_buf_printf(b, "</td><td>%zu</td><td>%zu</td></tr>\n", p->proven, p->wins);
    }
    put(b, "</table>\n<p class=\"note\">geomean: the geometric mean of arena / best known lower "
           "bound over valid rows; proven: valid rows proven optimal (by the row's own proof or "
           "an arena equal to the best bound); wins: valid rows with the smallest arena of their "
           "suite (ties all win).</p>\n");
}

static void html_cell(ab_buf *b, const model *m, size_t si, size_t j) {
    size_t i = cell_row(m, si, j);
    if (i == SIZE_MAX) {
        put(b, "<td class=\"miss\">-</td>");
        return;
    }
    const abr_result *r = row_r(m, i);
    if (!row_ok(m, i) || r->arena == AB_NONE) {
        put(b, "<td class=\"fail\">");
        put_fail_cell(b, r);
        put(b, "</td>");
        return;
    }
    ab_buf_printf(b, "<td%s>%lld<br><small>", m->rr[i].win ? " class=\"best\"" : "",
                  (long long)r->arena);
    put_gap(b, m->rr[i].has_gap, m->rr[i].gap);
    put(b, "</small></td>");
}

static void html_io(ab_buf *b, const model *m) {
    if (!io_any(m)) return;
    put(b, "<h2>I/O in the workspace</h2>\n<p>Footprint with inputs and outputs outside the "
           "arena (arena + I/O bytes) against planning them inside it (io: workspace), and the "
           "saving.</p>\n<table><tr><th>suite</th><th>planner</th><th>separate: arena + I/O = "
           "footprint</th><th>workspace: arena</th><th>saving</th></tr>\n");
    io_rows(b, m, true);
    put(b, "</table>\n");
}

static void html_suites(ab_buf *b, const model *m) {
    put(b, "<h2>Suites</h2>\n<p class=\"note\">Each cell: the arena in bytes and its gap to the "
           "suite's best known lower bound; green: the best valid arena; red: a failure.</p>\n"
           "<p class=\"note\">logical: bytes of shape x element bits, packed; physical: after "
           "alignment and layout padding; peak live: the max-load bound.</p>\n"
           "<table>\n<tr><th class=\"l\">suite</th><th>tensors</th><th>logical</th>"
           "<th>physical</th><th>peak live</th><th>bound</th>");
    for (size_t j = 0; j < m->nsp; j++) {
        put(b, "<th>");
        esc_xml(b, m->sp[j].spec);
        put(b, "</th>");
    }
    put(b, "</tr>\n");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, "<tr><td class=\"l\">");
        put_suite(b, esc_xml, m, si);
        put(b, "</td><td>");
        put_i64(b, suite_of(m, si)->tensors);
        put(b, "</td><td>");
        put_i64(b, suite_of(m, si)->logical_bytes);
        put(b, "</td><td>");
        put_i64(b, suite_of(m, si)->physical_bytes);
        put(b, "</td><td>");
        put_i64(b, suite_of(m, si)->peak_live_bytes);
        put(b, "</td><td>");
        put_i64(b, m->su[si].bound);
        put(b, "</td>");
        for (size_t j = 0; j < m->nsp; j++) html_cell(b, m, si, j);
        put(b, "</tr>\n");
    }
    put(b, "</table>\n");
}

static void html_certificates(ab_buf *b, const model *m) {
    put(b, "<h2>Optimality certificates</h2>\n<table>\n<tr><th class=\"l\">suite</th>"
           "<th>best arena</th><th class=\"l\">reached by</th><th>best bound</th>"
           "<th class=\"l\">bound from</th><th class=\"l\">verdict</th>"
           "<th class=\"l\">proofs in rows</th></tr>\n");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, "<tr><td class=\"l\">");
        put_suite(b, esc_xml, m, si);
        put(b, "</td><td>");
        put_i64(b, m->su[si].best);
        put(b, "</td><td class=\"l\">");
        put_winners(b, esc_xml, m, si);
        put(b, "</td><td>");
        put_i64(b, m->su[si].bound);
        put(b, "</td><td class=\"l\">");
        put_bound_src(b, esc_xml, m, si);
        put(b, "</td><td class=\"l\">");
        put_verdict(b, m, si);
        put(b, "</td><td class=\"l\">");
        put_claims(b, esc_xml, m, si);
        put(b, "</td></tr>\n");
    }
    put(b, "</table>\n<p class=\"note\">lower-bound: the max-load (or stored) bound equals the "
           "arena; ilp: GLPK proved it; exhaustive: an exact planner refuted every smaller "
           "height.</p>\n");
}

static void html_failures(ab_buf *b, const model *m) {
    size_t n = failed_rows(m);
    put(b, "<h2>Failures</h2>\n");
    if (n == 0) {
        put(b, "<p>No failures.</p>\n");
        return;
    }
    ab_buf_printf(b, "<p>%zu failed results.</p>\n<table>\n<tr><th class=\"l\">suite</th>"
                     "<th class=\"l\">planner</th><th class=\"l\">status</th>"
                     "<th class=\"l\">detail</th></tr>\n", n);
    for (size_t i = 0; i < m->rows.n; i++) {
        if (row_ok(m, i)) continue;
        const abr_result *r = row_r(m, i);
        put(b, "<tr><td class=\"l\">");
        put_suite(b, esc_xml, m, m->rr[i].suite);
        put(b, "</td><td class=\"l\">");
        esc_xml(b, r->spec);
        ab_buf_printf(b, "</td><td class=\"l\">%s</td><td class=\"l\">",
                      abe_status_word(r->status));
        put_detail(b, esc_xml, r);
        put(b, "</td></tr>\n");
    }
    put(b, "</table>\n");
}

/* ---- HTML: the gap chart ------------------------------------------------------ */

#define GC_LEFT 230.0  /* suite labels */
#define GC_PLOT 520.0  /* plot width */
#define GC_RIGHT 80.0  /* the failure column */
#define GC_ROW 20.0    /* one suite */
#define GC_LEG 16.0    /* one legend line */

/* The smallest of 1, 2, 5 x 10^n percent at least maxp (and at least 1). */
static double nice_ceiling(double maxp) {
    static const double steps[] = {1.0, 2.0, 5.0};
    for (double scale = 1.0; scale < 1e15; scale *= 10.0)
        for (size_t i = 0; i < 3; i++)
            if (steps[i] * scale >= maxp) return steps[i] * scale;
    return 1e15;
}

/* A label of at most 32 bytes (cut on a UTF-8 boundary, "..." added). */
static void put_short(ab_buf *b, const char *s) {
    size_t n = strlen(s);
    if (n <= 32) {
        esc_xml(b, s);
        return;
    }
    size_t cut = 29;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
    char tmp[33];
    memcpy(tmp, s, cut);
    tmp[cut] = '\0';
    esc_xml(b, tmp);
    put(b, "...");
}

static void gap_legend(ab_buf *b, const model *m) {
    for (size_t j = 0; j < m->nsp; j++) {
        double y = 14.0 + GC_LEG * (double)j;
        ab_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/><text x=\"%.1f\" "
                         "y=\"%.1f\" font-size=\"12\">", GC_LEFT + 6, y - 4, colors[j % NCOLORS],
                      GC_LEFT + 16, y);
        esc_xml(b, m->sp[j].spec);
        put(b, "</text>\n");
    }
}

static void gap_axis(ab_buf *b, double top, double bottom, double pmax) {
    for (int t = 0; t <= 4; t++) {
        double x = GC_LEFT + GC_PLOT * t / 4.0;
        ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                         "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">"
                         "%g%%</text>\n", x, top, x, bottom, x, bottom + 14, pmax * t / 4.0);
    }
    double xf = GC_LEFT + GC_PLOT + 20;
    ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
                     "stroke-dasharray=\"2,2\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                     "text-anchor=\"middle\">failed</text>\n",
                  xf, top, xf, bottom, GC_LEFT + GC_PLOT + 20 + (GC_RIGHT - 20) / 2, bottom + 14);
}

/* The dots (or failure marks) of suite si's rows on its band at y. */
static void gap_band(ab_buf *b, const model *m, size_t si, double y, double pmax) {
    const rsuite *su = &m->su[si];
    double step = m->nsp > 1 ? 12.0 / (double)(m->nsp - 1) : 0.0;
    if (step > 4.0) step = 4.0;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        const rrow *rr = &m->rr[i];
        const abr_result *r = row_r(m, i);
        double dy = y + step * ((double)rr->spec - (double)(m->nsp - 1) / 2.0);
        const char *c = colors[rr->spec % NCOLORS];
        if (row_ok(m, i) && rr->has_gap) {
            double p = rr->gap * 100.0;
            p = p < 0 ? 0 : p > pmax ? pmax : p;
            ab_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
                             "fill-opacity=\"0.85\"><title>",
                          GC_LEFT + GC_PLOT * p / pmax, dy, c);
            esc_xml(b, r->spec);
            ab_buf_printf(b, ": arena %lld, gap ", (long long)r->arena);
            put_gap(b, true, rr->gap);
            put(b, "</title></circle>\n");
        } else if (!row_ok(m, i)) {
            ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\" "
                             "text-anchor=\"middle\">&#215;<title>",
                          GC_LEFT + GC_PLOT + 50 + 4.0 * ((double)rr->spec -
                          (double)(m->nsp - 1) / 2.0), dy + 4, c);
            esc_xml(b, r->spec);
            ab_buf_printf(b, ": %s</title></text>\n", abe_status_word(r->status));
        }
    }
}

/* A dot chart: one band per suite, one dot per planner at its gap. */
static void html_gap_chart(ab_buf *b, const model *m) {
    double maxp = 0;
    for (size_t i = 0; i < m->rows.n; i++)
        if (m->rr[i].has_gap && m->rr[i].gap * 100.0 > maxp) maxp = m->rr[i].gap * 100.0;
    double pmax = nice_ceiling(maxp);
    double top = 14.0 + GC_LEG * (double)m->nsp;
    double bottom = top + GC_ROW * (double)m->nsu;
    put(b, "<h2>Gap to the best bound</h2>\n");
    if (m->rows.n == 0) {
        put(b, "<p>No results.</p>\n");
        return;
    }
    ab_buf_printf(b, "<figure>\n<svg xmlns=\"http://www.w3.org/"
                     "2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                     "font-family=\"sans-serif\" role=\"img\">\n",
                  GC_LEFT + GC_PLOT + GC_RIGHT, bottom + 24, GC_LEFT + GC_PLOT + GC_RIGHT,
                  bottom + 24);
    gap_legend(b, m);
    for (size_t si = 0; si < m->nsu; si += 2)
        ab_buf_printf(b, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                         "fill=\"#f6f6f6\"/>\n", top + GC_ROW * (double)si,
                      GC_LEFT + GC_PLOT + GC_RIGHT, GC_ROW);
    gap_axis(b, top, bottom, pmax);
    for (size_t si = 0; si < m->nsu; si++) {
        double y = top + GC_ROW * ((double)si + 0.5);
        ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">",
                      GC_LEFT - 8, y + 4);
        put_short(b, suite_of(m, si)->name);
        if (m->su[si].dup_name) ab_buf_printf(b, "@%.8s", suite_of(m, si)->hash);
        put(b, "<title>");
        put_suite(b, esc_xml, m, si);
        put(b, "</title></text>\n");
        gap_band(b, m, si, y, pmax);
    }
    put(b, "</svg>\n<figcaption>One band per suite, one dot per planner at its gap (arena / "
           "best bound - 1); &#215;: a failure. Hover for values.</figcaption>\n</figure>\n");
}

/* ---- HTML: arena versus k ----------------------------------------------------- */

#define KC_W 460.0
#define KC_H 200.0
#define KC_LEFT 80.0
#define KC_TOP 28.0
#define KC_PAD 40.0

/* A series: the rows of one suite whose specs share a family. */
typedef struct kseries {
    size_t fam;       /* the spec index whose family names the series */
    size_t *rows;     /* sorted by k, then row */
    size_t n;
} kseries;

/* Sorts rows[0 .. n) by k, then row (insertion: a series has a few rows). */
static void sort_by_k(const model *m, size_t *rows, size_t n) {
    for (size_t i = 1; i < n; i++) {
        size_t v = rows[i], j = i;
        for (; j > 0 && (m->rr[rows[j - 1]].k > m->rr[v].k ||
                         (m->rr[rows[j - 1]].k == m->rr[v].k && rows[j - 1] > v)); j--)
            rows[j] = rows[j - 1];
        rows[j] = v;
    }
}

/* true when a row of suite si before row i (with a k) has row i's family,
 * so each family makes one series. */
static bool family_seen(const model *m, size_t si, size_t i) {
    const char *f = m->sp[m->rr[i].spec].family;
    for (size_t j = m->su[si].row0; j < i; j++)
        if (m->rr[j].k != AB_NONE && strcmp(m->sp[m->rr[j].spec].family, f) == 0) return true;
    return false;
}

/* The series of suite si with at least two distinct k; *out owned (ab_free
 * each rows and the array). Returns false when out of memory. */
static bool k_series(const model *m, size_t si, kseries **out, size_t *nout) {
    const rsuite *su = &m->su[si];
    *out = ab_calloc(su->nrows + 1, sizeof **out);
    *nout = 0;
    if (*out == NULL) return false;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        if (m->rr[i].k == AB_NONE || family_seen(m, si, i)) continue;
        const char *f = m->sp[m->rr[i].spec].family;
        kseries *s = &(*out)[*nout];
        s->fam = m->rr[i].spec;
        s->rows = ab_alloc_array(su->nrows, sizeof *s->rows);
        if (s->rows == NULL) return false;
        for (size_t j = i; j < su->row0 + su->nrows; j++)
            if (m->rr[j].k != AB_NONE && strcmp(m->sp[m->rr[j].spec].family, f) == 0)
                s->rows[s->n++] = j;
        sort_by_k(m, s->rows, s->n);
        if (m->rr[s->rows[0]].k != m->rr[s->rows[s->n - 1]].k) {
            (*nout)++;
        } else { /* one k only: not a series; the slot is reused */
            ab_free(s->rows);
            s->rows = NULL;
            s->n = 0;
        }
    }
    return true;
}

static void free_series(kseries *s, size_t n) {
    if (s == NULL) return;
    for (size_t i = 0; i <= n; i++) ab_free(s[i].rows);
    ab_free(s);
}

typedef struct kframe {
    double lk0, lk1;   /* log2 k range */
    double y0, y1;     /* arena range */
    double top;        /* the plot's top, below the legend */
} kframe;

static double kx(const kframe *f, int64_t k) {
    return KC_LEFT + (log2((double)k) - f->lk0) / (f->lk1 - f->lk0) * (KC_W - KC_LEFT - 16);
}
static double ky(const kframe *f, double v) {
    return f->top + KC_H - (v - f->y0) / (f->y1 - f->y0) * KC_H;
}

static kframe k_frame(const model *m, size_t si, const kseries *s, size_t ns) {
    kframe f = {1e300, -1e300, 1e300, -1e300, KC_TOP + 14.0 * (double)ns};
    if (m->su[si].bound != AB_NONE) f.y0 = f.y1 = (double)m->su[si].bound;
    for (size_t q = 0; q < ns; q++)
        for (size_t t = 0; t < s[q].n; t++) {
            size_t i = s[q].rows[t];
            double lk = log2((double)m->rr[i].k);
            if (lk < f.lk0) f.lk0 = lk;
            if (lk > f.lk1) f.lk1 = lk;
            const abr_result *r = row_r(m, i);
            if (!row_ok(m, i) || r->arena == AB_NONE) continue;
            if ((double)r->arena < f.y0) f.y0 = (double)r->arena;
            if ((double)r->arena > f.y1) f.y1 = (double)r->arena;
        }
    if (f.y0 > f.y1) f.y0 = 0, f.y1 = 1;
    double pad = (f.y1 - f.y0) * 0.08;
    if (pad < 1) pad = 1;
    f.y0 -= pad;
    f.y1 += pad;
    return f;
}

/* true when a point before s[q].rows[t] (in s[0 .. q]) has the same k. */
static bool k_seen(const model *m, const kseries *s, size_t q, size_t t) {
    int64_t k = m->rr[s[q].rows[t]].k;
    for (size_t a = 0; a <= q; a++)
        for (size_t c = 0; c < (a == q ? t : s[a].n); c++)
            if (m->rr[s[a].rows[c]].k == k) return true;
    return false;
}

static void k_axes(ab_buf *b, const model *m, size_t si, const kframe *f, const kseries *s,
                   size_t ns) {
    double bottom = f->top + KC_H;
    ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                  KC_LEFT, f->top, KC_LEFT, bottom, KC_LEFT, bottom, KC_W - 8, bottom);
    for (int t = 0; t <= 2; t++) {
        double v = f->y0 + (f->y1 - f->y0) * t / 2.0;
        ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.0f"
                         "</text>\n", KC_LEFT - 4, ky(f, v) + 3, v);
    }
    for (size_t q = 0; q < ns; q++)
        for (size_t t = 0; t < s[q].n; t++) {
            int64_t k = m->rr[s[q].rows[t]].k;
            if (k_seen(m, s, q, t)) continue;
            ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
                             "text-anchor=\"middle\">%lld</text>\n",
                          kx(f, k), bottom + 13, (long long)k);
        }
    ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">"
                     "coarsening k (log scale)</text>\n", (KC_LEFT + KC_W) / 2, bottom + 28);
    if (m->su[si].bound == AB_NONE) return;
    double yb = ky(f, (double)m->su[si].bound);
    ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f4e9c\" "
                     "stroke-dasharray=\"6,3\"><title>best bound %lld</title></line>\n"
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#1f4e9c\" "
                     "text-anchor=\"end\">bound</text>\n",
                  KC_LEFT, yb, KC_W - 8, yb, (long long)m->su[si].bound, KC_W - 8, yb - 3);
}

/* One series: a line through its valid points, x marks for failures. */
static void k_line(ab_buf *b, const model *m, const kframe *f, const kseries *s, size_t q) {
    const char *c = colors[q % NCOLORS];
    ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">",
                  KC_LEFT, KC_TOP + 14.0 * (double)q + 8, c);
    esc_xml(b, m->sp[s->fam].family);
    put(b, "</text>\n<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"");
    ab_buf_printf(b, "%s\" points=\"", c);
    for (size_t t = 0; t < s->n; t++) {
        const abr_result *r = row_r(m, s->rows[t]);
        if (row_ok(m, s->rows[t]) && r->arena != AB_NONE)
            ab_buf_printf(b, "%.1f,%.1f ", kx(f, m->rr[s->rows[t]].k), ky(f, (double)r->arena));
    }
    put(b, "\"/>\n");
    for (size_t t = 0; t < s->n; t++) {
        size_t i = s->rows[t];
        const abr_result *r = row_r(m, i);
        bool ok = row_ok(m, i) && r->arena != AB_NONE;
        double x = kx(f, m->rr[i].k), y = ok ? ky(f, (double)r->arena) : f->top + 6;
        if (ok) ab_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>",
                              x, y, c);
        else ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\" "
                              "text-anchor=\"middle\">&#215;<title>", x, y, c);
        esc_xml(b, r->spec);
        if (ok && r->wall_s >= 0)
            ab_buf_printf(b, ": arena %lld, %.3f s</title></circle>\n", (long long)r->arena,
                          r->wall_s);
        else if (ok) ab_buf_printf(b, ": arena %lld</title></circle>\n", (long long)r->arena);
        else ab_buf_printf(b, ": %s</title></text>\n", abe_status_word(r->status));
        if (ok && r->wall_s >= 0) /* the time it took: the other side of the trade-off */
            ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" fill=\"%s\" "
                             "text-anchor=\"middle\">%.2fs</text>\n", x, y - 7, c, r->wall_s);
    }
}

static void k_chart(ab_buf *b, const model *m, size_t si, const kseries *s, size_t ns) {
    kframe f = k_frame(m, si, s, ns);
    double h = f.top + KC_H + KC_PAD;
    ab_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" role=\"img\">\n"
                     "<text x=\"%.1f\" y=\"16\" font-size=\"13\" font-weight=\"bold\">",
                  KC_W, h, KC_W, h, KC_LEFT);
    put_suite(b, esc_xml, m, si);
    put(b, ": arena (bytes) versus k</text>\n");
    k_axes(b, m, si, &f, s, ns);
    for (size_t q = 0; q < ns; q++) k_line(b, m, &f, &s[q], q);
    put(b, "</svg>\n");
}

static void html_k_charts(ab_buf *b, const model *m) {
    put(b, "<h2>Arena versus coarsening k</h2>\n");
    size_t drawn = 0;
    for (size_t si = 0; si < m->nsu; si++) {
        kseries *s;
        size_t ns;
        if (!k_series(m, si, &s, &ns)) {
            free_series(s, ns);
            b->oom = true;
            return;
        }
        if (ns > 0) {
            if (drawn++ == 0) put(b, "<div class=\"charts\">\n");
            k_chart(b, m, si, s, ns);
        }
        free_series(s, ns);
    }
    if (drawn > 0) put(b, "</div>\n<p class=\"note\">Specs that differ only in their k "
                          "parameter, on one suite; dashed: the suite's best bound; &#215;: a "
                          "failure.</p>\n");
    else put(b, "<p>No suite was run at several k (specs differing only in a k=... "
                "parameter).</p>\n");
}

/* ---- HTML: the worst plans ---------------------------------------------------- */

/* A row and its gap, for sorting the worst plans. */
typedef struct worst {
    double gap;
    size_t row;
} worst;

/* Larger gaps first, then lower rows: a total order. */
static int cmp_worst(const void *a, const void *b) {
    const worst *x = a, *y = b;
    if (x->gap != y->gap) return x->gap > y->gap ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Valid rows with a plan and a gap > 0, worst first; *n of them. Owned by
 * the caller (ab_free); NULL when out of memory. */
static worst *worst_rows(const model *m, size_t *n) {
    worst *v = ab_alloc_array(m->rows.n ? m->rows.n : 1, sizeof *v);
    *n = 0;
    if (v == NULL) return NULL;
    for (size_t i = 0; i < m->rows.n; i++)
        if (row_ok(m, i) && m->rr[i].has_gap && m->rr[i].gap > 0 && row_r(m, i)->plan_hash[0])
            v[(*n)++] = (worst){m->rr[i].gap, i};
    qsort(v, *n, sizeof *v, cmp_worst);
    return v;
}

/* Draws row i's plan into b; a status other than AB_OK with err set when it
 * cannot (the caller prints the reason unless it is AB_ENOMEM). */
static ab_status draw_plan(abr_store *s, const model *m, size_t i, abr_suite_loader load,
                           ab_buf *b, ab_error *err) {
    const abr_row *w = &m->rows.v[i];
    char *text = NULL;
    int64_t *off = NULL;
    size_t len = 0, n = 0;
    ab_problem p, view;
    ab_plan pl;
    ab_problem_init(&p);
    ab_problem_init(&view);
    ab_plan_init(&pl);
    ab_status st = abr_suite_text(s, w->suite.id, &text, &len, err);
    if (st == AB_OK) st = load(text, len, &p, err);
    if (st == AB_OK) st = ab_problem_arena_view(&p, &view, NULL, err);
    if (st == AB_OK) st = abr_plan_get(s, w->r.plan_hash, &off, &n, err);
    if (st == AB_OK && n != view.n)
        st = ab_fail(err, AB_EINPUT, "the plan has %zu offsets but the suite's arena view has "
                     "%zu tensors", n, view.n);
    if (st == AB_OK) st = ab_plan_from_offsets(&pl, off, n, err);
    if (st == AB_OK) {
        ab_buf title = {0};
        ab_buf_printf(&title, "%s: %s, arena %lld, gap %+.2f%%", w->suite.name, w->r.spec,
                      (long long)w->r.arena, m->rr[i].gap * 100.0);
        st = title.oom ? ab_fail(err, AB_ENOMEM, "out of memory drawing a plan")
                       : abr_svg_plan(b, &view, &pl, m->su[m->rr[i].suite].bound, title.s,
                                      AB_NO_TENSOR, AB_NO_TENSOR, err);
        ab_buf_free(&title);
    }
    ab_plan_free(&pl);
    ab_problem_free(&view);
    ab_problem_free(&p);
    ab_free(off);
    ab_free(text);
    return st;
}

static ab_status html_pictures(ab_buf *b, abr_store *s, const model *m,
                               const abr_report_opts *opt, ab_error *err) {
    int want = opt && opt->pictures > 0 ? opt->pictures : ABR_REPORT_PICTURES;
    put(b, "<h2>The plans with the largest gaps</h2>\n");
    if (opt == NULL || opt->load_suite == NULL) {
        put(b, "<p>Plan pictures are not drawn: no suite loader was given.</p>\n");
        return AB_OK;
    }
    size_t n;
    worst *v = worst_rows(m, &n);
    if (v == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    if (n == 0) put(b, "<p>No valid plan with a gap above 0 (and a stored plan).</p>\n");
    ab_status st = AB_OK;
    for (size_t k = 0; k < n && k < (size_t)want && st == AB_OK; k++) {
        ab_error e = {AB_OK, ""};
        put(b, "<figure>\n");
        size_t i = v[k].row;
        st = draw_plan(s, m, i, opt->load_suite, b, &e);
        if (st == AB_ENOMEM) ab_fail(err, st, "%s", e.msg);
        else if (st != AB_OK) {
            put(b, "<p>Cannot draw the plan of ");
            esc_xml(b, row_r(m, i)->spec);
            put(b, " on ");
            put_suite(b, esc_xml, m, m->rr[i].suite);
            put(b, ": ");
            esc_xml(b, e.msg);
            put(b, "</p>\n");
            st = AB_OK;
        }
        put(b, "</figure>\n");
    }
    ab_free(v);
    return st;
}


/* ---- bytes per pool ----------------------------------------------------------------
 * For suites that declare two or more pools, each valid row's plan is checked
 * again (the stored plan against the stored suite) to get the bytes it uses in
 * each pool: one table per suite. Needs the suite loader; without one the
 * section is left out. */

static void pool_header(ab_buf *b, const model *m, size_t si, const ab_problem *p, bool html) {
    esc_fn esc = html ? esc_xml : esc_md;
    put(b, html ? "<h3>" : "\n### ");
    put_suite(b, esc, m, si);
    put(b, html ? "</h3>\n<table><tr><th>planner</th>" : "\n\n| planner |");
    for (size_t k = 0; k < p->npools && k < AB_MAX_POOLS; k++) {
        put(b, html ? "<th>" : " ");
        esc(b, p->pools[k].name ? p->pools[k].name : "?");
        if (p->pools[k].size != AB_NONE) ab_buf_printf(b, " (%lld)", (long long)p->pools[k].size);
        put(b, html ? "</th>" : " |");
    }
    put(b, html ? "</tr>\n" : "\n|---|");
    if (!html)
        for (size_t k = 0; k < p->npools && k < AB_MAX_POOLS; k++) put(b, "--:|");
    if (!html) put(b, "\n");
}

static void pool_row(ab_buf *b, const model *m, size_t i, const ab_problem *p,
                     const abo_report *rep, bool html) {
    put(b, html ? "<tr><td>" : "| ");
    (html ? esc_xml : esc_md)(b, row_r(m, i)->spec);
    put(b, html ? "</td>" : " |");
    for (size_t k = 0; k < p->npools && k < AB_MAX_POOLS; k++)
        ab_buf_printf(b, html ? "<td>%lld</td>" : " %lld |", (long long)rep->pool_used[k]);
    put(b, html ? "</tr>\n" : "\n");
}

/* Loads suite si's stored text into *p (empty, npools 0, when it cannot).
 * Returns AB_ENOMEM only: other failures leave the suite out of the section. */
static ab_status load_stored_suite(abr_store *s, const model *m, size_t si,
                                   abr_suite_loader load, ab_problem *p, ab_error *err) {
    char *text = NULL;
    size_t len = 0;
    ab_problem_init(p);
    ab_status st = abr_suite_text(s, suite_of(m, si)->id, &text, &len, err);
    if (st == AB_OK) st = load(text, len, p, err);
    ab_free(text);
    if (st != AB_OK) ab_problem_free(p);
    return st == AB_ENOMEM ? st : AB_OK;
}

/* The pool table of suite si (p its problem, view the arena view). Returns
 * AB_ENOMEM only: a row whose plan cannot be read again is left out. */
static ab_status pools_of_suite(ab_buf *b, abr_store *s, const model *m, size_t si,
                                const ab_problem *p, const ab_problem *view, bool html,
                                bool *any, ab_error *err) {
    bool header = false;
    const rsuite *su = &m->su[si];
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        int64_t *off = NULL;
        size_t n = 0;
        ab_plan pl;
        abo_report rep;
        if (!row_ok(m, i) || row_r(m, i)->plan_hash[0] == '\0') continue;
        ab_status st = abr_plan_get(s, row_r(m, i)->plan_hash, &off, &n, err);
        if (st == AB_ENOMEM) return st;
        if (st != AB_OK) continue;
        ab_plan_init(&pl);
        st = n == view->n ? ab_plan_from_offsets(&pl, off, n, err) : AB_EINPUT;
        if (st == AB_OK) st = abo_check(view, &pl, &rep, err);
        ab_plan_free(&pl);
        ab_free(off);
        if (st == AB_ENOMEM) return st;
        if (st == AB_OK) {
            if (!*any)
                put(b, html ? "<h2>Bytes per pool</h2>\n<p>Bytes each plan uses in each pool "
                              "(the pool's size in the header).</p>\n"
                            : "\n## Bytes per pool\n\nBytes each plan uses in each pool (the "
                              "pool's size in the header).\n");
            if (!header) pool_header(b, m, si, p, html);
            *any = header = true;
            pool_row(b, m, i, p, &rep, html);
        }
    }
    if (header && html) put(b, "</table>\n");
    return AB_OK;
}

static ab_status pools_section(ab_buf *b, abr_store *s, const model *m,
                               const abr_report_opts *opt, bool html, ab_error *err) {
    if (opt == NULL || opt->load_suite == NULL) return AB_OK;
    bool any = false;
    ab_status st = AB_OK;
    for (size_t si = 0; si < m->nsu && st == AB_OK; si++) {
        ab_problem p, view;
        ab_problem_init(&view);
        st = load_stored_suite(s, m, si, opt->load_suite, &p, err);
        if (st == AB_OK && p.npools >= 2) st = ab_problem_arena_view(&p, &view, NULL, err);
        if (st == AB_OK && p.npools >= 2) st = pools_of_suite(b, s, m, si, &p, &view, html, &any, err);
        ab_problem_free(&view);
        ab_problem_free(&p);
    }
    if (st != AB_OK) return st;
    return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory building the report") : AB_OK;
}

static ab_status render_html(ab_buf *b, abr_store *s, const model *m,
                             const abr_report_opts *opt, ab_error *err) {
    html_header(b, m);
    html_planners(b, m);
    html_gap_chart(b, m);
    html_k_charts(b, m);
    html_suites(b, m);
    html_io(b, m);
    ab_status pst = pools_section(b, s, m, opt, true, err);
    if (pst != AB_OK) return pst;
    html_certificates(b, m);
    html_failures(b, m);
    ab_status st = html_pictures(b, s, m, opt, err);
    put(b, "</body>\n</html>\n");
    return st;
}

/* ---- entry points ------------------------------------------------------------ */

bool abr_report_format_parse(const char *w, abr_report_format *f) {
    static const struct { const char *w; abr_report_format f; } words[] = {
        {"md", ABR_REPORT_MD},     {"markdown", ABR_REPORT_MD}, {"html", ABR_REPORT_HTML},
        {"csv", ABR_REPORT_CSV},   {"json", ABR_REPORT_JSON},
    };
    for (size_t i = 0; w != NULL && i < sizeof words / sizeof words[0]; i++)
        if (strcmp(w, words[i].w) == 0) {
            *f = words[i].f;
            return true;
        }
    return false;
}

ab_status abr_report_render(abr_store *s, int64_t run, abr_report_format fmt,
                            const abr_report_opts *opt, ab_buf *out, ab_error *err) {
    model m;
    ab_status st = model_build(s, run, &m, err);
    if (st == AB_OK) {
        switch (fmt) {
        case ABR_REPORT_MD:
            render_md(out, &m);
            st = pools_section(out, s, &m, opt, false, err);
            break;
        case ABR_REPORT_CSV: render_csv(out, &m); break;
        case ABR_REPORT_JSON: render_json(out, &m); break;
        case ABR_REPORT_HTML: st = render_html(out, s, &m, opt, err); break;
        default: st = ab_fail(err, AB_EINPUT, "unknown report format %d", (int)fmt);
        }
    }
    model_free(&m);
    if (st == AB_OK && out->oom) st = ab_fail(err, AB_ENOMEM, "out of memory rendering a report");
    return st;
}
