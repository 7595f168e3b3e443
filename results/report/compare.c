/*
 * compare.c — a base run against a head run (see compare.h for the rules).
 *
 * Both runs' rows are read, sorted by (suite name, suite hash, spec) and
 * walked together like a merge: equal (hash, spec) keys are a matched pair
 * (equal hashes mean equal texts, so equal names too). Each pair yields its
 * change lines in the order of abr_change; the lines are then written as a
 * Markdown-style table under a header naming both runs, and counted.
 */
#include "results/report/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- changes -------------------------------------------------------------- */

#define ABR_CHANGE_WORD_(id, word, cls) word,
#define ABR_CHANGE_CLASS_(id, word, cls) cls,
static const char *const change_words[] = {ABR_CHANGES(ABR_CHANGE_WORD_)};
static const int change_class[] = {ABR_CHANGES(ABR_CHANGE_CLASS_)}; /* 1 regression, 0 better */
#undef ABR_CHANGE_WORD_
#undef ABR_CHANGE_CLASS_

const char *abr_change_word(abr_change c) {
    return (unsigned)c < ABR_NCHANGES ? change_words[c] : "?";
}

bool abr_change_is_regression(abr_change c) {
    return (unsigned)c < ABR_NCHANGES && change_class[c] == 1;
}

void abr_compare_opts_init(abr_compare_opts *o) {
    o->slow_ratio = ABR_SLOW_RATIO;
    o->slow_min_s = ABR_SLOW_MIN_S;
}

/* One line of the table: a change of one pair (base or head NULL for
 * new and gone). */
typedef struct line {
    abr_change c;
    const abr_row *base, *head;
} line;

/* One run: its rows, and pointers to them in (name, hash, spec) order. */
typedef struct side {
    abr_run run;
    abr_rows rows;
    const abr_row **ord;
} side;

typedef struct cmp_ctx {
    side base, head;
    abr_compare_opts opt;
    line *v;
    size_t n, cap;
    bool oom;
} cmp_ctx;

static int cmp_rows(const abr_row *a, const abr_row *b) {
    int c = strcmp(a->suite.name, b->suite.name);
    if (c == 0) c = strcmp(a->suite.hash, b->suite.hash);
    if (c == 0) c = strcmp(a->r.spec, b->r.spec);
    return c;
}

static int cmp_row_ptrs(const void *a, const void *b) {
    return cmp_rows(*(const abr_row *const *)a, *(const abr_row *const *)b);
}

static ab_status side_read(abr_store *s, int64_t run, side *d, ab_error *err) {
    ab_status st = abr_run_get(s, run, &d->run, err);
    if (st == AB_OK) st = abr_rows_read(s, run, &d->rows, err);
    if (st != AB_OK) return st;
    d->ord = ab_alloc_array(d->rows.n ? d->rows.n : 1, sizeof *d->ord);
    if (d->ord == NULL) return ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    for (size_t i = 0; i < d->rows.n; i++) d->ord[i] = &d->rows.v[i];
    qsort(d->ord, d->rows.n, sizeof *d->ord, cmp_row_ptrs);
    return AB_OK;
}

static void side_free(side *d) {
    abr_run_free(&d->run);
    abr_rows_free(&d->rows);
    ab_free(d->ord);
}

static void add(cmp_ctx *c, abr_change k, const abr_row *base, const abr_row *head) {
    if (c->oom) return;
    if (!ab_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v)) {
        c->oom = true;
        return;
    }
    c->v[c->n++] = (line){k, base, head};
}

static bool is_ok(const abr_row *w) { return w->r.status == ABE_OK; }
static bool is_proven(const abr_row *w) {
    return is_ok(w) && w->r.proven_by != ABO_PROOF_NONE;
}

/* true when time b is beyond the thresholds above time a (both known). */
static bool much_slower(const abr_compare_opts *o, double a, double b) {
    if (a < 0 || b < 0) return false;
    const double eps = 1e-9;
    return b + eps >= o->slow_ratio * a && b - a + eps >= o->slow_min_s;
}

/* The changes of a matched pair, in the order of abr_change. */
static void compare_pair(cmp_ctx *c, const abr_row *b, const abr_row *h) {
    bool bok = is_ok(b), hok = is_ok(h);
    if (bok && !hok) add(c, ABR_CHANGE_FAILED, b, h);
    if (bok && hok) {
        if (h->r.arena > b->r.arena) add(c, ABR_CHANGE_ARENA_GREW, b, h);
        if (is_proven(b) && !is_proven(h)) add(c, ABR_CHANGE_PROOF_LOST, b, h);
        if (much_slower(&c->opt, b->r.wall_s, h->r.wall_s)) add(c, ABR_CHANGE_SLOWER, b, h);
    }
    if (!bok && hok) add(c, ABR_CHANGE_FIXED, b, h);
    if (bok && hok) {
        if (h->r.arena < b->r.arena) add(c, ABR_CHANGE_ARENA_SHRANK, b, h);
        if (!is_proven(b) && is_proven(h)) add(c, ABR_CHANGE_PROVEN, b, h);
        if (much_slower(&c->opt, h->r.wall_s, b->r.wall_s)) add(c, ABR_CHANGE_FASTER, b, h);
    }
    if (!bok && !hok && b->r.status != h->r.status) add(c, ABR_CHANGE_STATUS, b, h);
}

/* true for the statuses that fail a run: invalid, crash, error (a file that
 * did not load is an error row); not the outcomes timeout, oom, ... */
static bool fails_run(const abr_row *w) {
    return w->r.status == ABE_INVALID || w->r.status == ABE_CRASH || w->r.status == ABE_ERROR;
}

/* Walks both sorted row lists and collects every change line. */
static void walk(cmp_ctx *c, abr_compare_summary *sum) {
    size_t i = 0, j = 0, nb = c->base.rows.n, nh = c->head.rows.n;
    while (i < nb || j < nh) {
        const abr_row *b = i < nb ? c->base.ord[i] : NULL;
        const abr_row *h = j < nh ? c->head.ord[j] : NULL;
        int d = b == NULL ? 1 : h == NULL ? -1 : cmp_rows(b, h);
        if (d < 0) {
            add(c, ABR_CHANGE_GONE, b, NULL);
            i++;
        } else if (d > 0) { /* a new pair that fails (e.g. a new file that did not load) */
            add(c, fails_run(h) ? ABR_CHANGE_FAILED : ABR_CHANGE_NEW, NULL, h);
            j++;
        } else {
            size_t before = c->n;
            compare_pair(c, b, h);
            sum->matched++;
            sum->unchanged += c->n == before;
            i++, j++;
        }
    }
}

/* The first ok row of suite hash in d (sorted by name, hash, spec), or NULL. */
static const abr_row *packed_in(const side *d, const char *hash) {
    for (size_t i = 0; i < d->rows.n; i++)
        if (is_ok(d->ord[i]) && strcmp(d->ord[i]->suite.hash, hash) == 0) return d->ord[i];
    return NULL;
}

/* A contradiction line for every row of d that proved its suite infeasible
 * while a row of either run packed it: base = the refuting row, head = the
 * packing one (base's rows first, then head's). */
static void contradictions(cmp_ctx *c, const side *d) {
    for (size_t i = 0; i < d->rows.n; i++) {
        const abr_row *w = d->ord[i];
        if (w->r.status != ABE_INFEASIBLE) continue;
        const abr_row *fit = packed_in(&c->base, w->suite.hash);
        if (fit == NULL) fit = packed_in(&c->head, w->suite.hash);
        if (fit != NULL) add(c, ABR_CHANGE_CONTRADICTION, w, fit);
    }
}

static void count(const cmp_ctx *c, abr_compare_summary *sum) {
    for (size_t i = 0; i < c->n; i++) {
        abr_change k = c->v[i].c;
        sum->by_change[k]++;
        if (k == ABR_CHANGE_NEW) sum->added++;
        else if (k == ABR_CHANGE_GONE) sum->removed++;
        else if (change_class[k] == 1) sum->regressions++;
        else if (change_class[k] == 0) sum->improvements++;
        else sum->other++;
    }
}

/* ---- text ------------------------------------------------------------------ */

static void put(ab_buf *b, const char *s) { ab_buf_append(b, s, strlen(s)); }

/* A Markdown table cell: '|' and '\' escaped, line breaks as spaces. */
static void esc_md(ab_buf *b, const char *s) {
    for (; *s; s++) {
        if (*s == '|' || *s == '\\') ab_buf_append(b, "\\", 1);
        ab_buf_append(b, (*s == '\n' || *s == '\r' || *s == '\t') ? " " : s, 1);
    }
}

/* true when side d has a suite named like w's with another hash. */
static bool other_hash(const side *d, const abr_row *w) {
    size_t lo = 0, hi = d->rows.n;
    while (lo < hi) { /* the first row whose name is >= w's */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(d->ord[mid]->suite.name, w->suite.name) < 0) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = lo; i < d->rows.n && strcmp(d->ord[i]->suite.name, w->suite.name) == 0; i++)
        if (strcmp(d->ord[i]->suite.hash, w->suite.hash) != 0) return true;
    return false;
}

/* The suite's name, with 8 digits of its hash when the name is ambiguous. */
static void put_suite(ab_buf *b, const cmp_ctx *c, const abr_row *w) {
    esc_md(b, w->suite.name);
    if (other_hash(&c->base, w) || other_hash(&c->head, w))
        ab_buf_printf(b, "@%.8s", w->suite.hash);
}

/* What a row holds in one cell: its status, with the arena when ok. */
static void put_state(ab_buf *b, const abr_row *w) {
    if (w == NULL) put(b, "-");
    else if (is_ok(w) && w->r.arena != AB_NONE) ab_buf_printf(b, "ok %lld", (long long)w->r.arena);
    else put(b, abe_status_word(w->r.status));
}

/* Why a row failed: its signal, then its first message. */
static void put_why(ab_buf *b, const abr_row *w) {
    const abr_result *r = &w->r;
    if (r->signal != 0) ab_buf_printf(b, "signal %d", r->signal);
    const char *msg = r->error ? r->error : r->check_message ? r->check_message : r->note;
    if (msg != NULL && msg[0] != '\0') {
        if (r->signal != 0) put(b, ": ");
        esc_md(b, msg);
    }
}

/* The base and head cells of a status change, and the separator after. */
static void put_states(ab_buf *b, const abr_row *w0, const abr_row *w1) {
    put_state(b, w0);
    put(b, " | ");
    put_state(b, w1);
    put(b, " | ");
}

static void put_seconds(ab_buf *b, double s) { ab_buf_printf(b, "%.3f s", s); }

/* The base, head and detail cells of line l. */
static void put_cells(ab_buf *b, const line *l) {
    const abr_row *w0 = l->base, *w1 = l->head;
    switch (l->c) {
    case ABR_CHANGE_ARENA_GREW:
    case ABR_CHANGE_ARENA_SHRANK: {
        int64_t a = w0->r.arena, d = w1->r.arena - a;
        ab_buf_printf(b, "%lld | %lld | %+lld bytes", (long long)a, (long long)w1->r.arena,
                      (long long)d);
        if (a > 0) ab_buf_printf(b, " (%+.2f%%)", 100.0 * (double)d / (double)a);
        break;
    }
    case ABR_CHANGE_PROOF_LOST:
    case ABR_CHANGE_PROVEN:
        ab_buf_printf(b, "%s | %s | arena %lld -> %lld", abo_proof_word(w0->r.proven_by),
                      abo_proof_word(w1->r.proven_by), (long long)w0->r.arena,
                      (long long)w1->r.arena);
        break;
    case ABR_CHANGE_SLOWER:
    case ABR_CHANGE_FASTER:
        put_seconds(b, w0->r.wall_s);
        put(b, " | ");
        put_seconds(b, w1->r.wall_s);
        put(b, " | ");
        if (w0->r.wall_s > 0) ab_buf_printf(b, "x%.2f", w1->r.wall_s / w0->r.wall_s);
        break;
    case ABR_CHANGE_CONTRADICTION:
        ab_buf_printf(b, "infeasible (run %lld) | ok %lld (run %lld, ", (long long)w0->r.run,
                      (long long)w1->r.arena, (long long)w1->r.run);
        esc_md(b, w1->r.spec);
        ab_buf_printf(b, ") | proved no plan fits (lower bound %lld), yet a plan fits; ",
                      (long long)w0->r.lower_bound);
        put_why(b, w0);
        break;
    case ABR_CHANGE_FAILED:
    case ABR_CHANGE_STATUS:
        put_states(b, w0, w1);
        if (w0 != NULL && is_proven(w0))
            ab_buf_printf(b, "was proven (%s); ", abo_proof_word(w0->r.proven_by));
        put_why(b, w1);
        break;
    default: /* fixed, new, gone */
        put_states(b, w0, w1);
        if (w1 != NULL && is_proven(w1))
            ab_buf_printf(b, "proven (%s)", abo_proof_word(w1->r.proven_by));
        else if (w0 != NULL && !is_ok(w0)) put_why(b, w0);
        else if (w0 == NULL && !is_ok(w1)) put_why(b, w1);
    }
}

static void put_line(ab_buf *b, const cmp_ctx *c, const line *l) {
    /* a contradiction is the refuting row's line (base), the others head's */
    const abr_row *w = l->c != ABR_CHANGE_CONTRADICTION && l->head ? l->head : l->base;
    int cls = change_class[l->c];
    ab_buf_printf(b, "| %s | %s | ", cls == 1 ? "REGRESSION" : cls == 0 ? "improvement" : "note",
                  abr_change_word(l->c));
    put_suite(b, c, w);
    put(b, " | ");
    esc_md(b, w->r.spec);
    put(b, " | ");
    put_cells(b, l);
    put(b, " |\n");
}

static void put_run_field(ab_buf *b, const char *key, const char *v0, const char *v1) {
    ab_buf_printf(b, "| %s | ", key);
    esc_md(b, v0 ? v0 : "-");
    put(b, " | ");
    esc_md(b, v1 ? v1 : "-");
    put(b, " |\n");
}

static void put_header(ab_buf *b, const cmp_ctx *c) {
    const abr_run *r0 = &c->base.run, *r1 = &c->head.run;
    ab_buf_printf(b, "# arenabench compare: run %lld -> run %lld\n\n| | base | head |\n"
                     "|---|---|---|\n| run | %lld | %lld |\n",
                  (long long)r0->id, (long long)r1->id, (long long)r0->id, (long long)r1->id);
    put_run_field(b, "tag", r0->tag, r1->tag);
    put_run_field(b, "revision", r0->revision, r1->revision);
    put_run_field(b, "host", r0->host, r1->host);
    put_run_field(b, "started", r0->started, r1->started);
    put_run_field(b, "status", abr_run_status_word(r0->status), abr_run_status_word(r1->status));
    ab_buf_printf(b, "| results | %zu | %zu |\n\nA slowdown counts when the wall time grows "
                     "x%.2f and by at least %.3f s.\n\n", c->base.rows.n, c->head.rows.n,
                  c->opt.slow_ratio, c->opt.slow_min_s);
}

static void put_summary(ab_buf *b, const abr_compare_summary *s) {
    ab_buf_printf(b, "\n%zu regressions, %zu improvements, %zu other changes, %zu new, %zu "
                     "gone; %zu pairs matched, %zu unchanged.\n",
                  s->regressions, s->improvements, s->other, s->added, s->removed, s->matched,
                  s->unchanged);
    if (s->regressions > 0) ab_buf_printf(b, "Result: REGRESSION (%zu).\n", s->regressions);
    else put(b, "Result: no regression.\n");
}

static void render(ab_buf *b, const cmp_ctx *c, const abr_compare_summary *sum) {
    put_header(b, c);
    if (c->n == 0) {
        put(b, "No changes.\n");
    } else {
        put(b, "| | change | suite | planner | base | head | detail |\n"
               "|---|---|---|---|--:|--:|---|\n");
        for (size_t i = 0; i < c->n; i++) put_line(b, c, &c->v[i]);
    }
    put_summary(b, sum);
}

/* ---- entry points ------------------------------------------------------------ */

ab_status abr_compare_resolve(abr_store *s, int64_t *base, int64_t *head, ab_error *err) {
    ab_status st = AB_OK;
    if (*head == 0) {
        st = abr_run_latest(s, NULL, head, err);
        if (st == AB_OK && *head == 0)
            return ab_fail(err, AB_EINPUT, "%s: no run to compare", abr_path(s));
    }
    if (st != AB_OK || *base != 0) return st;
    st = abr_run_previous(s, *head, base, err);
    if (st == AB_OK && *base == 0)
        st = ab_fail(err, AB_EINPUT, "%s: run %lld has no earlier run with its tag to compare "
                     "with (give --base)", abr_path(s), (long long)*head);
    return st;
}

static ab_status check_opts(const abr_compare_opts *o, ab_error *err) {
    if (!(o->slow_ratio >= 1.0) || !isfinite(o->slow_ratio))
        return ab_fail(err, AB_EINPUT, "the slowdown ratio must be a number >= 1, got %g",
                       o->slow_ratio);
    if (!(o->slow_min_s >= 0.0) || !isfinite(o->slow_min_s))
        return ab_fail(err, AB_EINPUT, "the slowdown minimum must be >= 0 seconds, got %g",
                       o->slow_min_s);
    return AB_OK;
}

ab_status abr_compare(abr_store *s, int64_t base, int64_t head, const abr_compare_opts *opt,
                      ab_buf *out, abr_compare_summary *sum, ab_error *err) {
    abr_compare_summary local;
    if (sum == NULL) sum = &local;
    memset(sum, 0, sizeof *sum);
    cmp_ctx c;
    memset(&c, 0, sizeof c);
    if (opt) c.opt = *opt;
    else abr_compare_opts_init(&c.opt);
    ab_status st = check_opts(&c.opt, err);
    if (st == AB_OK) st = side_read(s, base, &c.base, err);
    if (st == AB_OK) st = side_read(s, head, &c.head, err);
    if (st == AB_OK) {
        walk(&c, sum);
        contradictions(&c, &c.base);
        contradictions(&c, &c.head);
        if (c.oom) st = ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    }
    if (st == AB_OK) {
        count(&c, sum);
        render(out, &c, sum);
        if (out->oom) st = ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    }
    side_free(&c.base);
    side_free(&c.head);
    ab_free(c.v);
    return st;
}
