/*
 * model.c — the report's model (see model.h): rows read from the store,
 * suites, planner specs and the figures derived from them; the words the
 * formats share; the fields of a row.
 */
#include "results/report/model.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/ab.h"
#include "oracle/check.h"
#include "planners/planner.h"

void abr_model_free(abr_model *m) {
    abs_run_free(&m->run);
    abs_rows_free(&m->rows);
    abs_bounds_free(&m->bounds);
    for (size_t i = 0; i < m->nsp; i++) ab_free(m->sp[i].family);
    ab_free(m->sp);
    ab_free(m->su);
    ab_free(m->rr);
    memset(m, 0, sizeof *m);
}

static int cmp_str_ptr(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sets *family to spec without its k parameter (name:key=value,...) and *k
 * to that parameter; a spec without a usable k is its own family. */
static ab_status spec_family(const char *spec, char **family, int64_t *k, bool *exact,
                             ab_error *err) {
    char *name;
    ab_params ps;
    *k = AB_NONE;
    *exact = false;
    ab_status st = ab_planner_spec_parse(spec, &name, &ps, NULL);
    if (st == AB_ENOMEM) return ab_fail(err, AB_ENOMEM, "out of memory reading planner specs");
    if (st == AB_OK) { /* a planner this program does not know is not taken as exact */
        const ab_planner *pl = ab_planner_find(name);
        *exact = pl != NULL && (pl->flags & AB_PLANNER_EXACT);
    }
    int64_t kk;
    if (st == AB_OK && ab_params_get(&ps, "k") != NULL && ab_params_k(&ps, &kk, NULL) == AB_OK) {
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
static ab_status build_specs(abr_model *m, ab_error *err) {
    size_t n = m->rows.n;
    const char **names = ab_alloc_array(n ? n : 1, sizeof *names);
    if (names == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t i = 0; i < n; i++) names[i] = row_r(m, i)->spec;
    qsort(names, n, sizeof *names, cmp_str_ptr);
    m->sp = ab_calloc(n ? n : 1, sizeof *m->sp);
    ab_status st = m->sp ? AB_OK : ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t i = 0; st == AB_OK && i < n; i++) {
        if (m->nsp > 0 && strcmp(m->sp[m->nsp - 1].spec, names[i]) == 0) continue;
        abr_rspec *p = &m->sp[m->nsp++];
        p->spec = names[i];
        st = spec_family(p->spec, &p->family, &p->k, &p->exact, err);
    }
    ab_free(names);
    return st;
}

/* The index of spec in the model's sorted specs. */
static size_t spec_index(const abr_model *m, const char *spec) {
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
static ab_status build_suites(abr_model *m, ab_error *err) {
    size_t n = m->rows.n;
    m->su = ab_calloc(n ? n : 1, sizeof *m->su);
    m->rr = ab_calloc(n ? n : 1, sizeof *m->rr);
    if (m->su == NULL || m->rr == NULL)
        return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || m->rows.v[i].suite.id != m->rows.v[i - 1].suite.id)
            m->su[m->nsu++] = (abr_rsuite){.row0 = i, .bound = AB_NONE, .best = AB_NONE,
                                           .capacity = AB_NONE, .cap_arena = AB_NONE,
                                           .cap_upper = AB_NONE};
        m->su[m->nsu - 1].nrows++;
        abr_rrow *r = &m->rr[i];
        r->suite = m->nsu - 1;
        r->spec = spec_index(m, row_r(m, i)->spec);
        r->k = m->sp[r->spec].k != AB_NONE ? m->sp[r->spec].k : row_r(m, i)->k;
        /* at k > 1 an exact search speaks of the coarsened problem only */
        r->exact = m->sp[r->spec].exact && (r->k == AB_NONE || r->k == 1);
    }
    for (size_t s = 1; s < m->nsu; s++)
        if (strcmp(suite_of(m, s)->name, suite_of(m, s - 1)->name) == 0)
            m->su[s].dup_name = m->su[s - 1].dup_name = true;
    return AB_OK;
}

/* Offers v, from src (row: the row it came from), to the suite's best bound
 * (oracle/certify.h decides which bound stands and what it proves). */
static void offer_bound(const abr_model *m, abr_rsuite *su, int64_t v, abr_bound_src src,
                        size_t row) {
    abo_proof by = ABO_PROOF_LOWER_BOUND; /* max-load, stored */
    if (src == ABR_SRC_ILP) by = ABO_PROOF_ILP;
    if (src == ABR_SRC_PLANNER || src == ABR_SRC_PROOF) { /* a row's refutation or its own proof */
        by = row_r(m, row)->proven_by;
        if (by == ABO_PROOF_NONE) by = ABO_PROOF_EXHAUSTIVE;
    }
    if (src == ABR_SRC_BOUND) by = abo_bound_kind_proof(m->bounds.v[row].b.kind);
    abo_best_bound_offer(&su->bb, v, by, row);
    if (su->bb.value == su->bound) return;
    su->bound = su->bb.value;
    su->src = src;
    su->src_row = row;
}

/* The best bound and the best valid arena of suite si. */
static void suite_figures(abr_model *m, size_t si) {
    abr_rsuite *su = &m->su[si];
    const abs_suite *s = suite_of(m, si);
    abo_best_bound_init(&su->bb);
    offer_bound(m, su, s->peak_live_bytes, ABR_SRC_MAX_LOAD, 0);
    offer_bound(m, su, s->lower_bound, ABR_SRC_STORED, 0);
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        const abo_row *r = row_r(m, i);
        /* GLPK's bound first: a row of the ILP (or of subset-bound) carries it in
         * both columns, and the tie must name GLPK's proof, not an exhaustive one */
        offer_bound(m, su, r->ilp_bound, ABR_SRC_ILP, i);
        offer_bound(m, su, r->lower_bound, ABR_SRC_PLANNER, i);
        if (!row_ok(m, i) || r->arena == AB_NONE) continue;
        if (r->proven_by != ABO_PROOF_NONE) offer_bound(m, su, r->arena, ABR_SRC_PROOF, i);
        if (su->best == AB_NONE || r->arena < su->best) su->best = r->arena;
    }
    /* the bounds table last: a tie keeps the words above (the same bound, told by a row) */
    for (size_t k = su->b0; k < su->b0 + su->nb; k++)
        offer_bound(m, su, m->bounds.v[k].b.value, ABR_SRC_BOUND, k);
}

/* Each suite's range of the bounds (sorted by suite id). */
static void suite_bounds(abr_model *m) {
    for (size_t si = 0; si < m->nsu; si++) {
        int64_t id = suite_of(m, si)->id;
        size_t k = 0;
        while (k < m->bounds.n && m->bounds.v[k].suite < id) k++;
        m->su[si].b0 = k;
        while (k < m->bounds.n && m->bounds.v[k].suite == id) k++;
        m->su[si].nb = k - m->su[si].b0;
    }
}

/* Gap, proof and win of row i, added to its spec's figures. */
static void row_figures(abr_model *m, size_t i) {
    abr_rrow *rr = &m->rr[i];
    const abr_rsuite *su = &m->su[rr->suite];
    const abo_row *r = row_r(m, i);
    abr_rspec *sp = &m->sp[rr->spec];
    sp->rows++;
    if ((unsigned)r->status < ABO_NSTATUSES) sp->status[r->status]++;
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

/* ---- capacity decisions -------------------------------------------------- */

/* The capacity of suite si stored before schema 4 (no capacity column), from
 * its stored arena view (schema 5, filled since): ab_problem_capacity, the
 * suite's own or the size of its one pool. Left AB_NONE when it has no view;
 * AB_ENOMEM only is a failure. */
static ab_status suite_capacity(abs_store *s, abr_model *m, size_t si, ab_error *err) {
    ab_error e;
    ab_error_clear(&e);
    ab_problem p;
    ab_status st = abs_suite_view(s, suite_of(m, si)->id, &p, &e);
    if (st == AB_OK) {
        m->su[si].capacity = ab_problem_capacity(&p);
        m->su[si].pools = p.npools >= 2;
    }
    ab_problem_free(&p);
    if (st == AB_ENOMEM) return ab_fail(err, AB_ENOMEM, "%s", e.msg);
    return AB_OK;
}

/* Row i's plan is valid but for the capacity: over-capacity or infeasible (a
 * plan over the capacity), not over a pool of a suite with pools. */
static bool over_capacity_only(const abr_model *m, size_t i, int64_t cap) {
    const abo_row *r = row_r(m, i);
    return (r->status == ABO_STATUS_OVER_CAPACITY || r->status == ABO_STATUS_INFEASIBLE) &&
           r->arena != AB_NONE && r->arena > cap && !m->su[m->rr[i].suite].pools;
}

/* Why suite si is not decided, from its exact rows (abr_cap_open). */
static abr_cap_open undecided_why(const abr_model *m, size_t si) {
    const abr_rsuite *su = &m->su[si];
    bool any = false;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        if (!m->rr[i].exact) continue;
        const abo_row *r = row_r(m, i);
        any = true;
        /* an exact search that neither fitted nor refuted the capacity stopped early,
         * unless it failed outright */
        if (r->capped != NULL || (r->status != ABO_STATUS_CRASH && r->status != ABO_STATUS_ERROR &&
                                  r->status != ABO_STATUS_INVALID))
            return ABR_OPEN_BUDGET;
    }
    return any ? ABR_OPEN_FAILED : ABR_OPEN_NO_EXACT;
}

/* The capacity decision of suite si (abr_cap). */
static void capacity_figures(abr_model *m, size_t si) {
    abr_rsuite *su = &m->su[si];
    int64_t cap = su->capacity;
    if (cap == AB_NONE) return;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        const abo_row *r = row_r(m, i);
        su->infeasible |= r->status == ABO_STATUS_INFEASIBLE;
        if (r->arena == AB_NONE || !(row_ok(m, i) || over_capacity_only(m, i, cap))) continue;
        if (su->cap_upper == AB_NONE || r->arena < su->cap_upper) su->cap_upper = r->arena;
        bool within = row_ok(m, i) && r->arena <= cap;
        if (within && (su->cap_arena == AB_NONE || r->arena < su->cap_arena))
            su->cap_arena = r->arena;
    }
    bool fits = su->cap_arena != AB_NONE;
    bool refuted = (su->bound != AB_NONE && su->bound > cap) || su->infeasible;
    su->cap = fits && refuted ? ABR_CAP_CONFLICT
              : fits          ? ABR_CAP_FITS
              : refuted       ? ABR_CAP_DOES_NOT_FIT
                              : ABR_CAP_NOT_DECIDED;
    if (su->cap == ABR_CAP_NOT_DECIDED) su->open = undecided_why(m, si);
}

/* Reads run `run` and derives every figure. *m is initialised by the call and
 * freed with abr_model_free, even on failure. */
/* The verdict's comparison: this run against the one before it with its tag
 * (abs_run_previous), as `compare` judges it with its defaults. Only running
 * out of memory fails the report; any other reason leaves the verdict out,
 * saying why. */
static ab_status compare_with_base(abs_store *s, abr_model *m, ab_error *err) {
    int64_t prev = 0;
    ab_error e;
    ab_error_clear(&e);
    if (abs_run_previous(s, m->run.id, &prev, &e) != AB_OK || prev == 0) {
        snprintf(m->cmp_why, sizeof m->cmp_why, "no earlier run%s%s", m->run.tag ? " tagged " : "",
                 m->run.tag ? m->run.tag : " without a tag");
        return e.status == AB_ENOMEM ? ab_fail(err, AB_ENOMEM, "%s", e.msg) : AB_OK;
    }
    ab_buf scratch = {0};
    ab_status st = abr_compare(s, prev, m->run.id, NULL, &scratch, &m->cmp, &e);
    ab_buf_free(&scratch);
    if (st == AB_ENOMEM) return ab_fail(err, AB_ENOMEM, "%s", e.msg);
    if (st != AB_OK) {
        memset(&m->cmp, 0, sizeof m->cmp);
        snprintf(m->cmp_why, sizeof m->cmp_why, "run %lld cannot be compared: %.100s",
                 (long long)prev, e.msg);
        return AB_OK;
    }
    m->base = prev;
    return AB_OK;
}

ab_status abr_model_build(abs_store *s, int64_t run, abr_model *m,
                          ab_error *err) {
    memset(m, 0, sizeof *m);
    ab_status st = abs_run_get(s, run, &m->run, err);
    if (st == AB_OK) st = abs_rows_read(s, run, &m->rows, err);
    if (st == AB_OK) st = build_specs(m, err);
    if (st == AB_OK) st = abs_bounds_read(s, run, &m->bounds, err);
    if (st == AB_OK) st = build_suites(m, err);
    if (st == AB_OK) suite_bounds(m);
    for (size_t si = 0; st == AB_OK && si < m->nsu; si++) {
        const abs_suite *su = suite_of(m, si);
        if (su->capacity_known) { /* the store's figures (schema 4 on) */
            m->su[si].capacity = su->capacity;
            m->su[si].pools = su->pools >= 2;
        } else { /* stored before schema 4: its view */
            st = suite_capacity(s, m, si, err);
        }
    }
    if (st == AB_OK) st = compare_with_base(s, m, err);
    if (st != AB_OK) return st;
    for (size_t si = 0; si < m->nsu; si++) suite_figures(m, si);
    for (size_t i = 0; i < m->rows.n; i++) row_figures(m, i);
    for (size_t si = 0; si < m->nsu; si++) capacity_figures(m, si);
    return AB_OK;
}

abr_row_counts abr_count_rows(const abr_model *m) {
    abr_row_counts c = {0};
    for (size_t i = 0; i < m->rows.n; i++) {
        const abo_row *r = row_r(m, i);
        switch (r->status) {
        case ABO_STATUS_OK: c.valid++; break;
        case ABO_STATUS_TIMEOUT:
        case ABO_STATUS_OOM:
            c.stopped++;
            c.capped += r->capped != NULL;
            break;
        case ABO_STATUS_OVER_CAPACITY:
        case ABO_STATUS_INFEASIBLE: c.capacity++; break;
        default: c.failed++; break;
        }
    }
    return c;
}

void abr_put_row_counts(ab_buf *b, const abr_model *m) {
    abr_row_counts c = abr_count_rows(m);
    ab_buf_printf(b, "%zu suites, %zu planner specs, %zu results: %zu valid, %zu failed "
                  "(invalid, crash or error), %zu stopped by a limit (%zu of them by a time or "
                  "memory cap), %zu over the capacity or infeasible.",
                  m->nsu, m->nsp, m->rows.n, c.valid, c.failed, c.stopped, c.capped, c.capacity);
}

static void plural(ab_buf *b, size_t n, const char *one, const char *many) {
    ab_buf_printf(b, "%zu %s", n, n == 1 ? one : many);
}

void abr_put_run_verdict(ab_buf *b, esc_fn esc, const abr_model *m) {
    const abr_compare_summary *c = &m->cmp;
    if (m->base == 0) { /* the reason names the tag: the one text not the report's own */
        put(b, "no verdict against an earlier run (");
        esc(b, m->cmp_why);
        put(b, ")");
    } else {
        if (c->regressions == 0) put(b, "no regression");
        else plural(b, c->regressions, "REGRESSION", "REGRESSIONS");
        ab_buf_printf(b, " against run %lld", (long long)m->base);
        ab_buf_printf(b, ": %zu of %zu pairs unchanged", c->unchanged, c->matched);
        if (c->improvements) put(b, ", "), plural(b, c->improvements, "improvement", "improvements");
        if (c->warnings) put(b, ", "), plural(b, c->warnings, "timing warning", "timing warnings");
        size_t load = c->by_change[ABR_CHANGE_CAPPED_LOAD], other = c->not_judged - load;
        if (load)
            put(b, ", "), plural(b, load, "row stopped by the wall clock under load, not judged",
                                 "rows stopped by the wall clock under load, not judged");
        if (other)
            put(b, ", "), plural(b, other, "change not judged (a cap stopped a side)",
                                 "changes not judged (a cap stopped a side)");
        if (c->added || c->removed) ab_buf_printf(b, ", %zu new, %zu gone", c->added, c->removed);
    }
    abr_row_counts n = abr_count_rows(m);
    if (n.failed) put(b, "; "), plural(b, n.failed, "row failed", "rows failed"),
                  put(b, " (invalid, crash or error)");
    if (n.capped)
        put(b, "; "), plural(b, n.capped, "row stopped by a time or memory cap",
                             "rows stopped by a time or memory cap"),
            put(b, " (load can cause it)");
    if (n.stopped > n.capped)
        put(b, "; "), plural(b, n.stopped - n.capped, "row ran out of its budget",
                             "rows ran out of their budgets");
}

/* ---- words ------------------------------------------------------------ */

/* "-" for an absent integer, else the integer. */
void abr_put_i64(ab_buf *b, int64_t v) {
    if (v == AB_NONE) put(b, "-");
    else ab_buf_printf(b, "%lld", (long long)v);
}

/* A gap as a signed percentage, "-" when there is none. */
void abr_put_gap(ab_buf *b, bool has, double gap) {
    if (!has) put(b, "-");
    else ab_buf_printf(b, "%+.2f%%", gap * 100.0);
}

/* The name of suite si, with its hash's first 8 digits when the run has
 * another suite of the same name. */
void abr_put_suite(ab_buf *b, esc_fn esc, const abr_model *m, size_t si) {
    const abs_suite *s = suite_of(m, si);
    esc(b, s->name);
    if (m->su[si].dup_name) ab_buf_printf(b, "@%.8s", s->hash);
}

/* "SIGSEGV (11)", or the number alone for a signal without a name (the
 * names are the engine's one table, spawn.h). */
static void put_signal(ab_buf *b, int sig) {
    const char *name = ab_signal_name(sig);
    if (name != NULL) ab_buf_printf(b, "%s (%d)", name, sig);
    else ab_buf_printf(b, "%d", sig);
}

/* What is known of a failed row: signal, verdict, checker message, error,
 * note, joined by "; ". */
void abr_put_detail(ab_buf *b, esc_fn esc, const abo_row *r) {
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
void abr_put_fail_cell(ab_buf *b, const abo_row *r) {
    put(b, abo_status_word(r->status));
    if (r->signal != 0) {
        put(b, " ");
        put_signal(b, r->signal);
    }
}

/* Where suite si's best bound came from. */
/* A spec as a table shows it: its label, or (labels false) the spec itself. */
static const char *spec_name(const char *spec, bool labels, char *out, size_t len) {
    if (!labels) return spec;
    abr_spec_label(spec, out, len);
    return out;
}

void abr_put_bound_src(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels) {
    const abr_rsuite *su = &m->su[si];
    const abo_row *r =
        su->src == ABR_SRC_NONE || su->src == ABR_SRC_BOUND ? NULL : row_r(m, su->src_row);
    char buf[96];
    const char *label = r != NULL ? spec_name(r->spec, labels, buf, sizeof buf) : "";
    switch (su->src) {
    case ABR_SRC_NONE: put(b, "-"); break;
    case ABR_SRC_MAX_LOAD: put(b, "max-load"); break;
    case ABR_SRC_STORED: put(b, "stored bound"); break;
    case ABR_SRC_PLANNER: put(b, "bound proved by "), esc(b, label); break;
    case ABR_SRC_ILP: put(b, "ILP bound of "), esc(b, label); break;
    case ABR_SRC_PROOF:
        esc(b, label);
        ab_buf_printf(b, " proved its arena optimal (%s)", abo_proof_word(r->proven_by));
        break;
    case ABR_SRC_BOUND: {
        const abs_bound *x = &m->bounds.v[su->src_row];
        ab_buf_printf(b, "%s bound: ", abo_bound_kind_word(x->b.kind));
        esc(b, x->b.certificate);
        break;
    }
    }
}

/* The proof a suite's bound gives when the best arena reaches it. */
abo_proof abr_bound_proof(const abr_model *m, size_t si) { return m->su[si].bb.by; }

/* true when suite si's best valid arena is below its best bound or below its
 * known optimum: a planner or a proof is wrong. */
static bool arena_conflict(const abr_model *m, size_t si) {
    const abr_rsuite *su = &m->su[si];
    int64_t opt = suite_of(m, si)->optimum;
    return su->best != AB_NONE && ((su->bound != AB_NONE && su->best < su->bound) ||
                                   (opt != AB_NONE && su->best < opt));
}

/* The certificate's verdict: optimal (proof), open (gap), conflict, ...; the
 * capacity decision for a suite with one. */
void abr_put_verdict(ab_buf *b, const abr_model *m, size_t si) {
    const abr_rsuite *su = &m->su[si];
    if (su->cap != ABR_CAP_NONE && !arena_conflict(m, si)) abr_put_cap_verdict(b, m, si);
    else if (su->best == AB_NONE) put(b, "no valid plan");
    else if (su->bound == AB_NONE) put(b, "no bound known");
    else if (su->best == su->bound)
        ab_buf_printf(b, "optimal (%s)", abo_proof_word(abr_bound_proof(m, si)));
    else if (su->best < su->bound) put(b, "CONFLICT: a valid arena below a lower bound");
    else if (suite_of(m, si)->optimum != AB_NONE && su->best < suite_of(m, si)->optimum)
        ab_buf_printf(b, "CONFLICT: a valid arena below the known optimum %lld",
                      (long long)suite_of(m, si)->optimum);
    else if (su->bound == 0) put(b, "open");
    else {
        put(b, "open, gap ");
        abr_put_gap(b, true, (double)(su->best - su->bound) / (double)su->bound);
    }
}

/* ---- capacity decisions: words ---------------------------------------- */

bool abr_cap_any(const abr_model *m) {
    for (size_t si = 0; si < m->nsu; si++)
        if (m->su[si].cap != ABR_CAP_NONE) return true;
    return false;
}

const char *abr_cap_key(abr_cap c) {
    switch (c) {
    case ABR_CAP_FITS: return "fits";
    case ABR_CAP_DOES_NOT_FIT: return "does_not_fit";
    case ABR_CAP_NOT_DECIDED: return "not_decided";
    case ABR_CAP_CONFLICT: return "conflict";
    case ABR_CAP_NONE: break;
    }
    return NULL;
}

const char *abr_cap_open_key(abr_cap_open o) {
    switch (o) {
    case ABR_OPEN_BUDGET: return "exact_budget";
    case ABR_OPEN_FAILED: return "exact_failed";
    case ABR_OPEN_NO_EXACT: return "no_exact";
    case ABR_OPEN_NONE: break;
    }
    return NULL;
}

bool abr_cap_gap(const abr_model *m, size_t si, double *gap) {
    const abr_rsuite *su = &m->su[si];
    int64_t a = su->cap_arena;
    if (su->cap == ABR_CAP_NONE || a == AB_NONE || su->bound == AB_NONE || su->bound <= 0)
        return false;
    *gap = (double)(a - su->bound) / (double)su->bound;
    return true;
}

/* What refutes the capacity of suite si: "bound L > C", or "proven infeasible". */
static void put_refutation(ab_buf *b, const abr_model *m, size_t si) {
    const abr_rsuite *su = &m->su[si];
    if (su->bound != AB_NONE && su->bound > su->capacity)
        ab_buf_printf(b, "bound %lld > %lld", (long long)su->bound, (long long)su->capacity);
    else
        put(b, "a row proved it infeasible");
}

void abr_put_cap_verdict(ab_buf *b, const abr_model *m, size_t si) {
    const abr_rsuite *su = &m->su[si];
    long long cap = (long long)su->capacity;
    double gap;
    switch (su->cap) {
    case ABR_CAP_NONE: return;
    case ABR_CAP_FITS:
        ab_buf_printf(b, "fits the capacity %lld: arena %lld", cap, (long long)su->cap_arena);
        if (su->bound != AB_NONE && su->cap_arena == su->bound)
            ab_buf_printf(b, ", optimal (%s)", abo_proof_word(abr_bound_proof(m, si)));
        else if (abr_cap_gap(m, si, &gap)) {
            put(b, ", gap ");
            abr_put_gap(b, true, gap);
            ab_buf_printf(b, " to the best bound %lld", (long long)su->bound);
        }
        return;
    case ABR_CAP_DOES_NOT_FIT:
        ab_buf_printf(b, "does not fit the capacity %lld: ", cap);
        put_refutation(b, m, si);
        return;
    case ABR_CAP_CONFLICT:
        ab_buf_printf(b, "CONFLICT: arena %lld fits the capacity %lld, but ",
                      (long long)su->cap_arena, cap);
        put_refutation(b, m, si);
        return;
    case ABR_CAP_NOT_DECIDED:
        put(b, su->open == ABR_OPEN_BUDGET   ? "not decided (exact search ran out of budget)"
               : su->open == ABR_OPEN_FAILED ? "not decided (exact search failed)"
                                             : "not decided (no exact search ran)");
        ab_buf_printf(b, ": capacity %lld, smallest arena ", cap);
        if (su->cap_upper == AB_NONE) {
            put(b, "at least ");
            abr_put_i64(b, su->bound);
        } else {
            put(b, "in [");
            abr_put_i64(b, su->bound);
            ab_buf_printf(b, ", %lld]", (long long)su->cap_upper);
        }
        return;
    }
}

void abr_put_cap_by(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels) {
    const abr_rsuite *su = &m->su[si];
    int64_t a = su->cap_upper;
    bool any = false;
    for (size_t i = su->row0; a != AB_NONE && i < su->row0 + su->nrows; i++) {
        const abo_row *r = row_r(m, i);
        if (r->arena != a || !(row_ok(m, i) || over_capacity_only(m, i, su->capacity))) continue;
        char buf[96];
        const char *label = spec_name(r->spec, labels, buf, sizeof buf);
        if (any) put(b, ", ");
        esc(b, label);
        any = true;
    }
    if (!any) put(b, "-");
}

void abr_put_cap_exact(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels) {
    const abr_rsuite *su = &m->su[si];
    bool any = false;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        if (!m->rr[i].exact) continue;
        const abo_row *r = row_r(m, i);
        char buf[96];
        const char *label = spec_name(r->spec, labels, buf, sizeof buf);
        if (any) put(b, ", ");
        esc(b, label);
        ab_buf_printf(b, " (%s", abo_status_word(r->status));
        if (r->capped != NULL) {
            put(b, ", capped: ");
            esc(b, r->capped);
        }
        put(b, ")");
        any = true;
    }
    if (!any) put(b, "-");
}

/* The specs whose valid arena is the suite's best, joined by ", ". */
/* Appends n bytes of s to out (len bytes, NUL-terminated), cutting at the end. */
static void label_put(char *out, size_t len, size_t *at, const char *s, size_t n) {
    while (n-- > 0 && *at + 1 < len) out[(*at)++] = *s++;
    out[*at] = '\0';
}

/* The length of the key=value at p: up to the next comma outside '...'
 * quotes (a value may be quoted to hold commas, as the spec parser reads it). */
static size_t field_len(const char *p) {
    bool quoted = false;
    size_t n = 0;
    for (; p[n] && (quoted || p[n] != ','); n++)
        if (p[n] == '\'') quoted = !quoted;
    return n;
}

void abr_spec_label(const char *spec, char *out, size_t len) {
    size_t at = 0;
    if (len == 0) return;
    out[0] = '\0';
    const char *colon = strchr(spec, ':');
    if (colon == NULL) {
        label_put(out, len, &at, spec, strlen(spec));
        return;
    }
    for (const char *p = colon + 1; *p;) { /* name=WORD labels the spec itself */
        size_t n = field_len(p);
        if (n > 5 && strncmp(p, "name=", 5) == 0) {
            const char *v = p + 5;
            size_t vn = n - 5;
            if (vn >= 2 && v[0] == '\'' && v[vn - 1] == '\'') v++, vn -= 2;
            label_put(out, len, &at, v, vn);
            return;
        }
        p += n;
        if (*p == ',') p++;
    }
    label_put(out, len, &at, spec, (size_t)(colon - spec) + 1);
    for (const char *p = colon + 1; *p;) {
        size_t n = field_len(p); /* one key=value */
        const char *eq = memchr(p, '=', n);
        if (p != colon + 1) label_put(out, len, &at, ",", 1);
        if (eq == NULL) {
            label_put(out, len, &at, p, n);
        } else {
            char num[32];
            int64_t v;
            size_t vn = n - (size_t)(eq + 1 - p);
            label_put(out, len, &at, p, 1);
            label_put(out, len, &at, "=", 1);
            bool is_num = ab_parse_int64(eq + 1, vn, &v);
            if (is_num && v >= 1000000 && v % 1000000 == 0)
                snprintf(num, sizeof num, "%lldM", (long long)(v / 1000000));
            else if (is_num && v >= 1000 && v % 1000 == 0)
                snprintf(num, sizeof num, "%lldk", (long long)(v / 1000));
            else
                num[0] = '\0';
            if (num[0]) label_put(out, len, &at, num, strlen(num));
            else label_put(out, len, &at, eq + 1, vn);
        }
        p += n;
        if (*p == ',') p++;
    }
}

/* The labels of at most ABR_NAMED specs, then how many more. */
#define ABR_NAMED 3

void abr_put_winners(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels) {
    const abr_rsuite *su = &m->su[si];
    size_t any = 0;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        if (!m->rr[i].win) continue;
        if (any++ >= ABR_NAMED && labels) continue;
        char buf[96];
        const char *label = spec_name(row_r(m, i)->spec, labels, buf, sizeof buf);
        if (any > 1) put(b, ", ");
        esc(b, label);
    }
    if (any > ABR_NAMED && labels) ab_buf_printf(b, " and %zu more", any - ABR_NAMED);
    if (!any) put(b, "-");
}

/* The rows of suite si that carry a proof of optimality, by kind of proof:
 * "exhaustive: canonical, exact-cover; lower-bound: best-fit and 3 more". */
void abr_put_claims(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels) {
    const abr_rsuite *su = &m->su[si];
    size_t kinds = 0;
    for (int k = 0; k < ABO_NPROOFS; k++) {
        size_t any = 0;
        for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
            const abo_row *r = row_r(m, i);
            if (!row_ok(m, i) || r->proven_by == ABO_PROOF_NONE || (int)r->proven_by != k)
                continue;
            if (any == 0) ab_buf_printf(b, "%s%s: ", kinds++ ? "; " : "", abo_proof_word(k));
            if (any++ >= ABR_NAMED && labels) continue;
            char buf[96];
            const char *label = spec_name(r->spec, labels, buf, sizeof buf);
            if (any > 1) put(b, ", ");
            esc(b, label);
        }
        if (any > ABR_NAMED && labels) ab_buf_printf(b, " and %zu more", any - ABR_NAMED);
    }
    if (!kinds) put(b, "-");
}

/* The geometric mean of a spec's arena / bound ratios, "-" when none. */
void abr_put_geomean(ab_buf *b, const abr_rspec *p) {
    if (p->nratio == 0) put(b, "-");
    else ab_buf_printf(b, "%.4f", exp(p->logsum / (double)p->nratio));
}

size_t abr_failed_rows(const abr_model *m) {
    size_t n = 0;
    for (size_t i = 0; i < m->rows.n; i++) n += !row_ok(m, i);
    return n;
}

/* The row of spec j on suite si, or SIZE_MAX when that pair did not run. */
size_t abr_cell_row(const abr_model *m, size_t si, size_t j) {
    const abr_rsuite *su = &m->su[si];
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++)
        if (m->rr[i].spec == j) return i;
    return SIZE_MAX;
}


/* The workspace twin of suite si when si is a separate-I/O variant, else SIZE_MAX. */
size_t abr_io_twin(const abr_model *m, size_t si) {
    const char *name = suite_of(m, si)->name;
    size_t len = strlen(name), tail = strlen(ABR_IO_SEP);
    if (len <= tail || strcmp(name + len - tail, ABR_IO_SEP) != 0) return SIZE_MAX;
    for (size_t w = 0; w < m->nsu; w++) {
        const char *other = suite_of(m, w)->name;
        if (strncmp(other, name, len - tail) == 0 && strcmp(other + len - tail, ABR_IO_WS) == 0)
            return w;
    }
    return SIZE_MAX;
}

bool abr_io_any(const abr_model *m) {
    for (size_t si = 0; si < m->nsu; si++)
        if (abr_io_twin(m, si) != SIZE_MAX) return true;
    return false;
}



static int cmp_dbl(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of the n values of v (sorted in place); NAN when n is 0. */
static double median_of(double *v, size_t n) {
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Field f of row r as a number (< 0 when absent): CPU, wall, planner CPU, peak RSS. */
static double time_field(const abo_row *r, int f) {
    switch (f) {
    case 0: return r->cpu_s;
    case 1: return r->wall_s;
    case 2: return r->plan_cpu_s;
    default: return r->peak_rss == AB_NONE ? -1 : (double)r->peak_rss;
    }
}

bool abr_spec_times(const abr_model *m, size_t j, abr_times *x) {
    *x = (abr_times){.cpu = NAN, .wall = NAN, .plan_cpu = NAN, .rss = NAN, .rss_max = NAN};
    double *v = ab_alloc_array(m->rows.n + 1, sizeof *v);
    if (v == NULL) return false;
    double *out[] = {&x->cpu, &x->wall, &x->plan_cpu, &x->rss};
    for (int f = 0; f < 4; f++) {
        size_t n = 0;
        for (size_t i = 0; i < m->rows.n; i++) {
            if (m->rr[i].spec != j) continue;
            const abo_row *r = row_r(m, i);
            double d = time_field(r, f);
            if (d >= 0) v[n++] = d;
            if (f != 3) continue;
            x->rows++;
            x->runs += r->repeats != AB_NONE ? (size_t)r->repeats : 0;
            x->capped += r->capped != NULL;
            if (d >= 0 && !(x->rss_max >= d)) x->rss_max = d;
        }
        *out[f] = median_of(v, n);
    }
    ab_free(v);
    return true;
}

/* The ABR_NFIELDS fields of row i, in column order. */
void abr_row_fields(const abr_model *m, size_t i, abr_field f[ABR_NFIELDS]) {
    const abs_row *w = &m->rows.v[i];
    const abo_row *r = &w->r;
    const abr_rrow *rr = &m->rr[i];
    const abr_rsuite *su = &m->su[rr->suite];
    size_t n = 0;
    f[n++] = fi("run", r->run);
    f[n++] = fs("suite", w->suite.name);
    f[n++] = fs("suite_hash", w->suite.hash);
    f[n++] = fi("tensors", w->suite.tensors);
    f[n++] = fs("spec", r->spec);
    f[n++] = fi("k", rr->k);
    f[n++] = fs("status", abo_status_word(r->status));
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
    /* schema version 3: repeated timing, the planner's own time, the cap */
    f[n++] = fi("repeats", r->repeats);
    f[n++] = fr("cpu_min_s", r->cpu_min_s, r->cpu_min_s < 0);
    f[n++] = fr("cpu_max_s", r->cpu_max_s, r->cpu_max_s < 0);
    f[n++] = fr("wall_min_s", r->wall_min_s, r->wall_min_s < 0);
    f[n++] = fr("wall_max_s", r->wall_max_s, r->wall_max_s < 0);
    f[n++] = fr("plan_cpu_s", r->plan_cpu_s, r->plan_cpu_s < 0);
    f[n++] = fs("capped", r->capped);
}

/* The field names, from the fields of a blank row (a run may have none). */
void abr_field_names(abr_field f[ABR_NFIELDS]) {
    abs_row w;
    abs_suite_init(&w.suite);
    abo_row_init(&w.r);
    w.suite.name = w.r.spec = "";
    w.suite.hash[0] = w.r.plan_hash[0] = '\0';
    abr_rrow rr = {.k = AB_NONE};
    abr_rsuite su = {.bound = AB_NONE, .best = AB_NONE};
    abr_rspec sp = {.spec = "", .k = AB_NONE};
    abr_model blank = {.rows = {.n = 1, .v = &w}, .rr = &rr, .su = &su, .nsu = 1, .sp = &sp,
                   .nsp = 1};
    abr_row_fields(&blank, 0, f);
}

