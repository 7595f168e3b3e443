/*
 * check_db.c — `arenabench check-db [--db F]`: is a results database sound?
 *
 * Two parts. The store's own checks (results/store: abs_check_db): SQLite's
 * integrity and foreign-key checks, the schema version, one row per (run,
 * suite, spec), suite and plan hashes against their contents, every row's
 * plan stored. Then every stored plan is checked again by the oracle against
 * the suite the row names: the suite's canonical text is loaded, its arena
 * view taken (as `run` planned it), and the verdict and arena compared with
 * what the row says. Last, every bound of the bounds table (oracle/bound.h)
 * is proved again from its certificate on the suite's arena view (the kinds
 * the oracle can redo: max-load by adding up, subset and ilp by GLPK within
 * CHECK_BOUND_NODES nodes; a refutation names the run to repeat and is not
 * redone here), and no valid arena of the run may lie below a bound of its
 * suite. Each problem is one line on stdout; the exit status is 1
 * when there is any, 0 when none, 2 when the file is missing or is not an
 * arenabench database.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/cli/commands.h"
#include "harness/cli/fail.h"
#include "harness/formats/suite.h"
#include "oracle/bound.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "results/store/store.h"

/* Where the problems go, and how many. */
typedef struct found {
    const char *db;
    size_t n;
} found;

static void say(void *ctx, const char *line) {
    found *f = ctx;
    printf("%s: %s\n", f->db, line);
    f->n++;
}

__attribute__((format(printf, 2, 3))) static void sayf(found *f, const char *fmt, ...) {
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    ab_vline(line, sizeof line, fmt, ap);
    va_end(ap);
    say(f, line);
}

/* The arena view of a stored suite, kept while rows name the same suite. */
typedef struct view_cache {
    int64_t suite;   /* the suite's id, or -1 */
    bool ok;         /* it loaded */
    char why[AB_ERROR_MAX];
    ab_problem view;
} view_cache;

/* Where the arena view stored with a suite (schema 5) differs from the one
 * its text gives, into why; false when they agree. */
static bool view_differs(const ab_problem *stored, const ab_problem *v, char *why, size_t len) {
    if (stored->n != v->n || stored->npools != v->npools || stored->capacity != v->capacity) {
        snprintf(why, len, "%zu tensors, %zu pools, capacity %lld stored; the text gives %zu, "
                 "%zu, %lld", stored->n, stored->npools, (long long)stored->capacity, v->n,
                 v->npools, (long long)v->capacity);
        return true;
    }
    for (size_t k = 0; k < v->npools; k++)
        if (strcmp(stored->pools[k].name, v->pools[k].name) != 0 ||
            stored->pools[k].size != v->pools[k].size) {
            snprintf(why, len, "pool %zu differs from the text's '%.100s'", k, v->pools[k].name);
            return true;
        }
    for (size_t i = 0; i < v->n; i++) {
        const ab_tensor *a = &stored->t[i], *b = &v->t[i];
        if (strcmp(a->name, b->name) != 0 || a->size != b->size || a->start != b->start ||
            a->end != b->end || a->align != b->align || a->offset != b->offset) {
            snprintf(why, len, "tensor %zu ('%.100s') differs from the text's ('%.100s')", i,
                     a->name, b->name);
            return true;
        }
    }
    return false;
}

static void cache_load(abs_store *db, view_cache *c, const abs_suite *su, found *f) {
    if (c->suite == su->id) return;
    ab_problem_free(&c->view);
    ab_problem_init(&c->view);
    c->suite = su->id;
    char *text = NULL;
    size_t len = 0;
    ab_problem full;
    ab_problem_init(&full);
    ab_error err;
    ab_error_clear(&err);
    ab_status st = abs_suite_text(db, su->id, &text, &len, &err);
    if (st == AB_OK) st = abf_suite_load_buffer(su->name, text, len, &full, &err);
    if (st == AB_OK) st = ab_problem_arena_view(&full, &c->view, NULL, &err);
    c->ok = st == AB_OK;
    snprintf(c->why, sizeof c->why, "%s", err.msg);
    ab_problem stored; /* the view readers use instead of the text, when stored */
    char why[400];
    if (c->ok && abs_suite_view(db, su->id, &stored, &err) == AB_OK &&
        view_differs(&stored, &c->view, why, sizeof why))
        sayf(f, "suite %lld ('%.200s'): its stored arena view is not its text's: %s",
             (long long)su->id, su->name, why);
    ab_problem_free(&stored);
    ab_free(text);
    ab_problem_free(&full);
}

static void recheck_planless(abs_store *db, view_cache *c, const abs_row *row, int64_t run,
                             found *f);

/* Derives again what a row claims beyond its plan, trusting no stored word
 * (issue 30): its proof, its ILP bound, its status against the capacity.
 * rep is the oracle's check of the row's own plan (NULL: no plan). */
static void recheck_claims(view_cache *c, const abs_row *row, const abo_report *rep,
                           const char *where, found *f) {
    const abo_row *r = &row->r;
    abo_bounds b;
    ab_error err;
    ab_error_clear(&err);
    if (abo_bounds_compute(&c->view, &b, &err) != AB_OK) return; /* memory: said elsewhere */
    int64_t cap = ab_problem_capacity(&c->view);
    bool packs = rep != NULL && abo_verdict_packs(rep->verdict);
    if (r->proven_by == ABO_PROOF_LOWER_BOUND && (!packs || rep->arena != b.max_load))
        sayf(f, "%s: the row says its arena is proven by lower-bound, but its plan's arena %lld "
             "is not the suite's max-load %lld", where, (long long)(rep ? rep->arena : AB_NONE),
             (long long)b.max_load);
    if (r->proven_by != ABO_PROOF_NONE && !packs)
        sayf(f, "%s: the row claims a proof (%s) without a valid plan", where,
             abo_proof_word(r->proven_by));
    if (packs && r->ilp_bound != AB_NONE && r->ilp_bound > rep->arena)
        sayf(f, "%s: its ILP bound %lld is above the arena %lld of its own valid plan", where,
             (long long)r->ilp_bound, (long long)rep->arena);
    if (r->status == ABO_STATUS_INFEASIBLE &&
        (cap == AB_NONE || r->lower_bound == AB_NONE || r->lower_bound <= cap))
        sayf(f, "%s: the row says infeasible, but %s", where,
             cap == AB_NONE ? "the suite has no capacity"
                            : "its bound does not exceed the capacity");
    if (r->status == ABO_STATUS_OK && packs && rep->verdict != ABO_OK)
        sayf(f, "%s: the row says ok, but its plan is over the capacity or a pool", where);
    if ((r->status == ABO_STATUS_OVER_CAPACITY || r->status == ABO_STATUS_INFEASIBLE) && packs &&
        rep->verdict == ABO_OK)
        sayf(f, "%s: the row says %s, but its plan fits", where, abo_status_word(r->status));
    if (row->suite.peak_live_bytes != AB_NONE && row->suite.peak_live_bytes != b.max_load)
        sayf(f, "%s: the suite's stored max-load is %lld, its tensors give %lld", where,
             (long long)row->suite.peak_live_bytes, (long long)b.max_load);
}

/* Checks the plan of one row again; problems to f. */
static void recheck(abs_store *db, view_cache *c, const abs_row *row, int64_t run, found *f) {
    const abo_row *r = &row->r;
    char where[600];
    snprintf(where, sizeof where, "run %lld, suite '%.200s', spec '%.200s'", (long long)run,
             row->suite.name, r->spec);
    cache_load(db, c, &row->suite, f);
    if (!c->ok) {
        sayf(f, "%s: the suite does not load again, so its plan cannot be checked: %s", where,
             c->why);
        return;
    }
    int64_t *off = NULL;
    size_t n = 0;
    ab_error err;
    ab_error_clear(&err);
    if (abs_plan_get(db, r->plan_hash, &off, &n, &err) != AB_OK) {
        sayf(f, "%s: %s", where, err.msg);
        return;
    }
    ab_plan pl;
    ab_plan_init(&pl);
    abo_report rep;
    memset(&rep, 0, sizeof rep);
    if (n != c->view.n) {
        sayf(f, "%s: the plan has %zu offsets for the suite's %zu arena tensors", where, n,
             c->view.n);
    } else if (ab_plan_from_offsets(&pl, off, n, &err) != AB_OK ||
               abo_check(&c->view, &pl, &rep, &err) != AB_OK) {
        sayf(f, "%s: the plan cannot be checked: %s", where, err.msg);
    } else {
        for (char *m = rep.msg; *m; m++) /* one line: the checker's lines joined by '|' */
            if (*m == '\n') *m = m[1] != '\0' ? '|' : ' ';
        const char *now = abo_verdict_word(rep.verdict);
        const char *stored = r->verdict != NULL ? r->verdict : "(none)";
        if (strcmp(now, stored) != 0)
            sayf(f, "%s: the row says the plan is '%s' but the oracle finds '%s': %.900s", where,
                 stored, now, rep.msg);
        else if (r->arena != AB_NONE && r->arena != rep.arena)
            sayf(f, "%s: the row's arena is %lld but its plan's is %lld", where,
                 (long long)r->arena, (long long)rep.arena);
        else if (abo_verdict_packs(rep.verdict) && r->arena != AB_NONE &&
                 (r->arena < r->lower_bound ||
                                                   r->arena < row->suite.peak_live_bytes))
            sayf(f, "%s: the row's arena %lld is below its bound %lld (the suite's max-load "
                 "is %lld): a packing cannot be", where, (long long)r->arena,
                 (long long)r->lower_bound, (long long)row->suite.peak_live_bytes);
    }
    if (n == c->view.n && rep.verdict != ABO_NVERDICTS) recheck_claims(c, row, &rep, where, f);
    ab_plan_free(&pl);
    ab_free(off);
}

/* A row without a plan: only what it claims (a proof, infeasible, a bound). */
static void recheck_planless(abs_store *db, view_cache *c, const abs_row *row, int64_t run,
                             found *f) {
    char where[600];
    snprintf(where, sizeof where, "run %lld, suite '%.200s', spec '%.200s'", (long long)run,
             row->suite.name, row->r.spec);
    cache_load(db, c, &row->suite, f);
    if (c->ok) recheck_claims(c, row, NULL, where, f);
}

/* GLPK's budget, in branch-and-bound nodes, to prove a subset or ILP bound again. */
#define CHECK_BOUND_NODES 5000

/* What the bounds' check did. */
typedef struct bound_counts {
    size_t proved, unchecked;
} bound_counts;

/* Proves each bound of run `run` again, and holds the run's valid arenas to them. */
static void recheck_bounds(abs_store *db, view_cache *c, int64_t run, const abs_rows *rows,
                           found *f, bound_counts *bc) {
    abs_bounds bs = {0};
    ab_error err;
    ab_error_clear(&err);
    if (abs_bounds_read(db, run, &bs, &err) != AB_OK) {
        sayf(f, "run %lld: its bounds cannot be read: %s", (long long)run, err.msg);
        return;
    }
    for (size_t k = 0; k < bs.n; k++) {
        const abs_bound *b = &bs.v[k];
        char where[400];
        snprintf(where, sizeof where, "run %lld, suite %lld, %s bound %lld ('%.200s')",
                 (long long)run, (long long)b->suite, abo_bound_kind_word(b->b.kind),
                 (long long)b->b.value, b->b.certificate);
        abs_suite su;
        abs_suite_init(&su);
        su.id = b->suite;
        su.name = "(stored suite)";
        cache_load(db, c, &su, f);
        if (!c->ok) {
            sayf(f, "%s: the suite does not load again: %s", where, c->why);
            continue;
        }
        abo_recheck v;
        char why[400];
        if (abo_bound_recheck(&c->view, &b->b, CHECK_BOUND_NODES, &v, why, sizeof why, &err) !=
            AB_OK)
            sayf(f, "%s: cannot be checked: %s", where, err.msg);
        else if (v == ABO_RECHECK_FAILS)
            sayf(f, "%s: its certificate does not prove it: %s", where, why);
        else
            *(v == ABO_RECHECK_HOLDS ? &bc->proved : &bc->unchecked) += 1;
        for (size_t i = 0; i < rows->n; i++) { /* no valid arena below a bound */
            const abs_row *w = &rows->v[i];
            if (w->suite.id != b->suite || w->r.arena == AB_NONE || w->r.verdict == NULL ||
                b->b.value == AB_NONE)
                continue;
            bool valid = strcmp(w->r.verdict, "ok") == 0 ||
                         strcmp(w->r.verdict, "over-capacity") == 0;
            if (valid && w->r.arena < b->b.value)
                sayf(f, "%s: the valid plan of spec '%.200s' has arena %lld, below it", where,
                     w->r.spec, (long long)w->r.arena);
        }
    }
    abs_bounds_free(&bs);
}

/* Checks every stored plan of every run; *plans counts those checked. */
static int recheck_all(abs_store *db, found *f, size_t *plans, bound_counts *bc) {
    int64_t *ids = NULL;
    size_t nids = 0;
    ab_error err;
    ab_error_clear(&err);
    if (abs_run_ids(db, &ids, &nids, &err) != AB_OK) {
        sayf(f, "%s", err.msg);
        return 0;
    }
    view_cache c = {.suite = -1};
    ab_problem_init(&c.view);
    for (size_t i = 0; i < nids; i++) {
        abs_rows rows = {0};
        if (abs_rows_read(db, ids[i], &rows, &err) != AB_OK) {
            sayf(f, "run %lld: its rows cannot be read: %s", (long long)ids[i], err.msg);
        } else {
            for (size_t k = 0; k < rows.n; k++) {
                if (rows.v[k].r.plan_hash[0] == '\0') { /* no plan: its claims alone */
                    recheck_planless(db, &c, &rows.v[k], ids[i], f);
                    continue;
                }
                recheck(db, &c, &rows.v[k], ids[i], f);
                (*plans)++;
            }
            recheck_bounds(db, &c, ids[i], &rows, f, bc);
        }
        abs_rows_free(&rows);
    }
    ab_problem_free(&c.view);
    ab_free(ids);
    return 0;
}

/* true when path starts with SQLite's header. */
static bool sqlite_header(const char *path) {
    static const char magic[16] = "SQLite format 3";
    char head[16];
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) return false;
    bool ok = fread(head, 1, sizeof head, fp) == sizeof head && memcmp(head, magic, 16) == 0;
    fclose(fp);
    return ok;
}

int abc_check_db(const abc_args *a) {
    const char *path = abc_opt(a, "db", ABC_DEFAULT_DB);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) return abc_failf(ABC_EXIT_USAGE, "%s: cannot open: %s", path, strerror(errno));
    fclose(fp);
    if (!sqlite_header(path))
        return abc_failf(ABC_EXIT_USAGE, "%s: not an SQLite database (no SQLite header)", path);
    found f = {.db = path};
    abs_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abs_open(path, ABS_OPEN_READONLY, &db, &err) != AB_OK) {
        /* An SQLite file: either not ours (usage) or one of ours that does not
         * open (a problem of the file). */
        if (strstr(err.msg, "not an arenabench results database") != NULL) return abc_fail(&err);
        say(&f, err.msg);
        printf("%s: 1 problem: the database does not open\n", path);
        return ABC_EXIT_CHECK;
    }
    size_t nstore = 0, plans = 0;
    bound_counts bc = {0};
    if (abs_check_db(db, say, &f, &nstore, &err) != AB_OK) sayf(&f, "%s", err.msg);
    recheck_all(db, &f, &plans, &bc);
    abs_close(db);
    if (f.n > 0) {
        printf("%s: %zu problem%s (%zu stored plan%s checked again)\n", path, f.n,
               f.n == 1 ? "" : "s", plans, plans == 1 ? "" : "s");
        return ABC_EXIT_CHECK;
    }
    printf("%s: ok: integrity, schema, one row per run, suite and spec, hashes; %zu stored "
           "plan%s checked again by the oracle; %zu bound%s proved again from %s certificate%s",
           path, plans, plans == 1 ? "" : "s", bc.proved, bc.proved == 1 ? "" : "s",
           bc.proved == 1 ? "its" : "their", bc.proved == 1 ? "" : "s");
    if (bc.unchecked > 0)
        printf(", %zu not redone here (refutations, or GLPK's budget ran out)", bc.unchecked);
    printf("\n");
    return 0;
}
