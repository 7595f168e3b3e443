/*
 * subset.c — subset lower bounds (subset.h).
 */
#include "oracle/subset.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/sort.h"
#include "oracle/ilp.h"

void abo_subset_opts_init(abo_subset_opts *o) {
    o->time_limit = 10;
    o->max_tensors = 48;
    o->peaks = 4;
    o->incumbents = NULL;
}

ab_status abo_subset_window(const ab_problem *p, int64_t first, int64_t last, ab_problem *dst,
                            ab_error *err) {
    ab_problem_init(dst);
    dst->alignment = p->alignment;
    dst->io = AB_IO_WORKSPACE; /* the tensors given are the arena's */
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->end < first || t->start > last) continue;
        ab_status st = ab_problem_add(dst, t, err);
        if (st != AB_OK) return st;
    }
    return AB_OK;
}

/* One instruction and its load. */
typedef struct instr_load {
    int64_t t, load;
} instr_load;

/* Higher load first, then earlier. */
static int by_load(const void *a, const void *b, const void *ctx) {
    (void)ctx;
    const instr_load *x = a, *y = b;
    if (x->load != y->load) return x->load > y->load ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

/* An instruction and a size: a tensor's start (+size) or end (-size). */
static int by_t(const void *a, const void *b, const void *ctx) {
    (void)ctx;
    const instr_load *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return (x->load < y->load) - (x->load > y->load); /* starts (+) before ends (-) */
}

/* The load at every start instruction of p (loads only rise at starts, so
 * the peaks are among them), sorted by by_load; *n entries, owned. A sweep:
 * +size at a start, -size just after an end (inclusive ranges). */
static ab_status start_loads(const ab_problem *p, instr_load **out, size_t *n, ab_error *err) {
    size_t m = 2 * p->n;
    instr_load *ev = ab_alloc_array(m ? m : 1, sizeof *ev);
    instr_load *v = ab_alloc_array(p->n ? p->n : 1, sizeof *v);
    if (ev == NULL || v == NULL) {
        ab_free(ev);
        ab_free(v);
        return ab_fail(err, AB_ENOMEM, "out of memory computing loads");
    }
    for (size_t i = 0; i < p->n; i++) {
        ev[2 * i] = (instr_load){.t = p->t[i].start, .load = p->t[i].size};
        ev[2 * i + 1] = (instr_load){.t = p->t[i].end + 1, .load = -p->t[i].size};
    }
    ab_sort(ev, m, sizeof *ev, by_t, NULL);
    size_t k = 0;
    int64_t load = 0;
    for (size_t e = 0; e < m;) {
        int64_t t = ev[e].t;
        bool starts = false;
        for (; e < m && ev[e].t == t; e++) {
            load += ev[e].load;
            starts |= ev[e].load > 0;
        }
        if (starts) v[k++] = (instr_load){.t = t, .load = load};
    }
    ab_free(ev);
    ab_sort(v, k, sizeof *v, by_load, NULL);
    *out = v;
    *n = k;
    return AB_OK;
}

/* The smallest w' > w at which window [t - w', t + w'] takes a tensor that
 * [t - w, t + w] does not hold; INT64_MAX when none is left outside. */
static int64_t next_radius(const ab_problem *p, int64_t t, int64_t w) {
    int64_t best = INT64_MAX;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *x = &p->t[i];
        int64_t d = INT64_MAX;
        if (x->start > t + w) d = x->start - t;
        else if (x->end < t - w) d = t - x->end;
        if (d < best) best = d;
    }
    return best;
}

/* How many tensors of p live in [first, last]. */
static size_t window_count(const ab_problem *p, int64_t first, int64_t last) {
    size_t c = 0;
    for (size_t i = 0; i < p->n; i++) c += !(p->t[i].end < first || p->t[i].start > last);
    return c;
}

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Solves sub with GLPK: with the symmetry fixes, then, when GLPK fails
 * (AB_EINTERNAL), without them. AB_EINTERNAL when both fail. */
static ab_status solve_sub(const ab_problem *sub, const abo_subset_opts *so, double seconds,
                           abo_ilp_result *res, ab_error *err) {
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = seconds > 0.05 ? seconds : 0.05;
    int64_t *plans = NULL;
    ab_status st = AB_OK;
    if (so->incumbents != NULL) st = so->incumbents(sub, &plans, &o.nincumbents, err);
    o.incumbents = plans;
    if (st == AB_OK) st = abo_ilp_solve(sub, &o, res, err);
    if (st == AB_EINTERNAL) {
        abo_ilp_result_free(res);
        o.symmetry = false;
        st = abo_ilp_solve(sub, &o, res, err);
    }
    ab_free(plans);
    return st;
}

/* Solves window [first, last] and offers its bound to r; a window GLPK
 * fails on is counted in r->failed and proves nothing. */
static ab_status solve_window(const ab_problem *p, int64_t first, int64_t last, double seconds,
                              const abo_subset_opts *so, abo_subset_result *r, ab_error *err) {
    ab_problem sub;
    ab_status st = abo_subset_window(p, first, last, &sub, err);
    abo_ilp_result res;
    memset(&res, 0, sizeof res);
    if (st == AB_OK) st = solve_sub(&sub, so, seconds, &res, err);
    if (st == AB_EINTERNAL) {
        r->failed++;
        st = AB_OK;
    } else if (st == AB_OK && res.status != ABO_ILP_INFEASIBLE) {
        r->windows++;
        int64_t b = res.status == ABO_ILP_OPTIMAL ? res.arena : res.bound;
        if (b > r->bound) {
            r->bound = b;
            r->first = first;
            r->last = last;
            r->tensors = sub.n;
            r->optimal = res.status == ABO_ILP_OPTIMAL;
            snprintf(r->certificate, sizeof r->certificate,
                     "subset: the %zu tensors live in [%lld, %lld]; GLPK %s %lld",
                     sub.n, (long long)first, (long long)last,
                     r->optimal ? "proved the optimum" : "proved the bound", (long long)b);
        }
    }
    abo_ilp_result_free(&res);
    ab_problem_free(&sub);
    return st;
}

ab_status abo_subset_bound(const ab_problem *p, const abo_subset_opts *o, abo_subset_result *r,
                           ab_error *err) {
    abo_subset_opts def;
    if (o == NULL) abo_subset_opts_init(&def), o = &def;
    memset(r, 0, sizeof *r);
    r->bound = r->max_load = AB_NONE;
    if (p->n == 0) return AB_OK;
    instr_load *loads;
    size_t nloads;
    ab_status st = start_loads(p, &loads, &nloads, err);
    if (st != AB_OK) return st;
    r->bound = r->max_load = loads[0].load;
    r->first = r->last = loads[0].t;
    r->tensors = window_count(p, loads[0].t, loads[0].t);
    snprintf(r->certificate, sizeof r->certificate,
             "max-load: the %zu tensors live at instruction %lld", r->tensors,
             (long long)loads[0].t);
    double deadline = cpu_now() + o->time_limit;
    for (size_t k = 0; st == AB_OK && k < nloads && k < o->peaks; k++) {
        for (int64_t w = 0; st == AB_OK && w != INT64_MAX; w = next_radius(p, loads[k].t, w)) {
            int64_t first = loads[k].t - w, last = loads[k].t + w;
            size_t c = window_count(p, first, last);
            if (c > o->max_tensors) break;
            double left = deadline - cpu_now();
            if (left <= 0) break;
            st = solve_window(p, first, last, left, o, r, err);
            if (c == p->n) break; /* the window is the whole problem: wider adds nothing */
        }
        if (deadline - cpu_now() <= 0) break;
    }
    ab_free(loads);
    return st;
}
