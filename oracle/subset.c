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
    o->nodes = 0;
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

/* One instruction, its load and the height of a heuristic plan there. */
typedef struct instr_load {
    int64_t t, load, top;
} instr_load;

/* Higher load first, then earlier. */
static int by_load(const void *a, const void *b, const void *ctx) {
    (void)ctx;
    const instr_load *x = a, *y = b;
    if (x->load != y->load) return x->load > y->load ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

/* Higher plan height first, then higher load, then earlier. */
static int by_top(const void *a, const void *b, const void *ctx) {
    const instr_load *x = a, *y = b;
    if (x->top != y->top) return x->top > y->top ? -1 : 1;
    return by_load(a, b, ctx);
}

/* Earlier first (ties cannot happen: one entry per instruction). */
static int by_instr(const void *a, const void *b, const void *ctx) {
    (void)ctx;
    const instr_load *x = a, *y = b;
    return (x->t > y->t) - (x->t < y->t);
}

/* Tensor indices by decreasing top (offset + size) in a plan, then index. */
static int by_plan_top(const void *a, const void *b, const void *ctx) {
    const int64_t *top = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (top[x] != top[y]) return top[x] > top[y] ? -1 : 1;
    return (x > y) - (x < y);
}

/* The first index of v (sorted by t) whose t is >= t. */
static size_t first_at(const instr_load *v, size_t n, int64_t t) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].t < t) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Sets v[k].top to the height of plan (offsets of p's tensors) at v[k].t:
 * the highest top of a tensor live there. Tensors by decreasing top each
 * take the instructions of their range not yet taken (skip pointers), so it
 * costs O(n log n). */
static ab_status plan_heights(const ab_problem *p, const int64_t *plan, instr_load *v, size_t n,
                              ab_error *err) {
    int64_t *top = ab_alloc_array(p->n ? p->n : 1, sizeof *top);
    size_t *idx = ab_alloc_array(p->n ? p->n : 1, sizeof *idx);
    size_t *next = ab_alloc_array(n + 1, sizeof *next);
    if (top == NULL || idx == NULL || next == NULL) {
        ab_free(top), ab_free(idx), ab_free(next);
        return ab_fail(err, AB_ENOMEM, "out of memory ranking windows");
    }
    for (size_t i = 0; i < p->n; i++) {
        idx[i] = i;
        top[i] = plan[i] == AB_NONE ? p->t[i].size : plan[i] + p->t[i].size;
    }
    ab_sort(idx, p->n, sizeof *idx, by_plan_top, top);
    ab_sort(v, n, sizeof *v, by_instr, NULL);
    for (size_t k = 0; k <= n; k++) next[k] = k;
    for (size_t k = 0; k < n; k++) v[k].top = 0;
    for (size_t r = 0; r < p->n; r++) {
        const ab_tensor *t = &p->t[idx[r]];
        size_t k = first_at(v, n, t->start);
        while (true) {
            size_t root = k; /* the first instruction not yet taken, from k on */
            while (next[root] != root) root = next[root];
            for (size_t c = k; c != root;) { /* path compression */
                size_t up = next[c];
                next[c] = root;
                c = up;
            }
            k = root;
            if (k >= n || v[k].t > t->end) break;
            v[k].top = top[idx[r]];
            next[k] = k + 1;
        }
    }
    ab_free(top), ab_free(idx), ab_free(next);
    return AB_OK;
}

/* Orders the windows' centres: by the height of the caller's best heuristic
 * plan of the whole problem where it has one (where a greedy plan stands
 * highest, the tensors did not stack), else by load. */
static ab_status rank_centres(const ab_problem *p, const abo_subset_opts *o, instr_load *v,
                              size_t n, ab_error *err) {
    int64_t *plans = NULL;
    size_t np = 0;
    ab_status st = AB_OK;
    if (o->incumbents != NULL) st = o->incumbents(p, &plans, &np, err);
    if (st == AB_OK && np > 0) {
        size_t best = 0;
        int64_t best_arena = INT64_MAX;
        for (size_t k = 0; k < np; k++) {
            int64_t a = 0;
            for (size_t i = 0; i < p->n; i++) {
                int64_t end;
                if (plans[k * p->n + i] == AB_NONE) continue;
                if (ab_add_ovf(plans[k * p->n + i], p->t[i].size, &end)) end = INT64_MAX;
                if (end > a) a = end;
            }
            if (a < best_arena) best_arena = a, best = k;
        }
        st = plan_heights(p, plans + best * p->n, v, n, err);
        if (st == AB_OK) ab_sort(v, n, sizeof *v, by_top, NULL);
    }
    ab_free(plans);
    return st;
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
    o.nodes = so->nodes;
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
        r->capped |= res.capped;
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
    instr_load *loads = NULL;
    size_t nloads = 0;
    ab_status st = start_loads(p, &loads, &nloads, err);
    if (st != AB_OK) return st;
    r->bound = r->max_load = loads[0].load;
    r->first = r->last = loads[0].t;
    r->tensors = window_count(p, loads[0].t, loads[0].t);
    snprintf(r->certificate, sizeof r->certificate,
             "max-load: the %zu tensors live at instruction %lld", r->tensors,
             (long long)loads[0].t);
    double deadline = cpu_now() + o->time_limit;
    double share = o->time_limit / 4 > 0.5 ? o->time_limit / 4 : 0.5; /* per window */
    st = rank_centres(p, o, loads, nloads, err);
    for (size_t k = 0; st == AB_OK && k < nloads && k < o->peaks; k++) {
        for (int64_t w = 0; st == AB_OK && w != INT64_MAX; w = next_radius(p, loads[k].t, w)) {
            int64_t first = loads[k].t - w, last = loads[k].t + w;
            size_t c = window_count(p, first, last);
            if (c > o->max_tensors) break;
            double left = deadline - cpu_now();
            if (left <= 0) { r->capped = true; break; } /* the time cap */
            /* with a node budget the nodes decide each window, whatever the load, and
             * the time left is only the cap; without one, each window gets a share */
            double per = o->nodes > 0 || left < share ? left : share;
            st = solve_window(p, first, last, per, o, r, err);
            if (c == p->n) break; /* the window is the whole problem: wider adds nothing */
        }
        if (deadline - cpu_now() <= 0) { r->capped = true; break; }
    }
    ab_free(loads);
    return st;
}
