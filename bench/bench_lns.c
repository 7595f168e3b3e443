/*
 * bench_lns.c — a large-neighbourhood search (LNS) around planner `canonical`
 * (a standalone program, not a test; see bench/README.md). It uses only the
 * public planner API: the exact search decides capacities of subproblems in
 * which most tensors are fixed at the offsets of the current plan.
 *
 *   bench_lns [-T SEC] [-s SEED] [-i BUDGET] [-n NODES] [-k KINDS] [-p PLATEAU] [-q] [FILE]
 *   bench_lns -m repair [-L FRAC] [-W EXP] ...
 *   bench_lns -m stitch [-C UNITS] [-K CUTS | -B SECTIONS] [-D SECTIONS] [-R N] ...
 *
 * FILE is a suite YAML or a MiniMalloc CSV (default: D.1048576.csv from
 * ../shared/data/minimalloc beside the source tree).
 *
 * THE METHOD.
 *  1. A first plan P of arena A: canonical minimising with -i BUDGET.
 *  2. Until -T SEC of CPU (clock(), the whole process) are spent, lower the
 *     target A' = A - g (g: the problem's unit, ab_problem_gravity_unit) one
 *     tensor at a time. M is the set of tensors whose top in P exceeds A'.
 *     A MOVE takes one tensor k of M and a neighbourhood N of it (one of the
 *     KINDS below, drawn in turn) and builds a subproblem: k and N free; the
 *     other tensors fixed at their offsets in P, but cut at A' (a fixed
 *     tensor that reaches above A' keeps only its bytes below A', and one
 *     wholly above A' is left out; tensors that conflict with no free tensor
 *     are left out too). Canonical decides the capacity A' on it
 *     (target=capacity, nodes=NODES). When it fits, k and N take the offsets
 *     found: all below A', clear of every fixed byte below A' and, being
 *     below A', of every byte above it, so the plan stays valid (the oracle,
 *     abo_check, checks every plan taken on the whole problem) with one
 *     tensor fewer in M, and when M is empty the arena is <= A'. A
 *     refutation (N too tight) grows that kind's size r, a budget stop (too
 *     hard) shrinks it; a success shrinks it a little. r stays in [0.02, 0.9].
 *  3. After PLATEAU failed moves in a row, a SHAKE: a neighbourhood of a
 *     random tensor outside M is re-planned at A' in the same way (always
 *     feasible: P is a witness). The new offsets are taken whatever they
 *     are, a step on the plateau of plans with the same M.
 *
 * KINDS (letters of -k, default "bwrc"), around the anchor k (offset o, top
 * e), with the kind's size r, each draw scaled by a uniform factor in
 * [0.5, 1.5]:
 *   b  band: the window of k's sections widened by r x the timeline, split at
 *      random between both sides; the tensors live there whose top is above
 *      o - r x A'.
 *   w  window: the same window; the tensors live only within it.
 *   r  random: each tensor conflicting with k with probability r.
 *   c  chain: the tensors conflicting with k below it, each with probability
 *      r, and those conflicting with them below them (two levels): room
 *      where k must go.
 *
 * Two other modes: repair (-m repair, see repair_run) and stitch (-m
 * stitch, see stitch_run and roll_run: a capacity held, the sections cut
 * in two, or in blocks, solved separately and joined on the tensors live
 * across each cut).
 *
 * Deterministic: one splitmix64 stream from -s SEED (printed); every budget
 * of a subproblem is a node count, so only -T (CPU time) decides where the
 * run stops.
 *
 * Prints one line each time the arena drops (CPU s, arena, units, gap to the
 * max-load bound, moves so far), a summary every 30 s of CPU, and at the end
 * the best arena and when it was reached. Exit status: 0 a valid plan, 1 an
 * invalid one (never expected), 2 bad usage or input.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ab.h"
#include "harness/formats/formats.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"

/* ---- random numbers --------------------------------------------------------------- */

static uint64_t rng_state;
static bool verbose, shuffle;
static double slab_p = 0; /* repair mode: the share of steps that re-place a slab */
static double span_exp = 1; /* repair mode: a tensor's starting weight is size x sections^span_exp */

static uint64_t rnd64(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* uniform in [0, 1) */
static double rndf(void) { return (double)(rnd64() >> 11) * (1.0 / 9007199254740992.0); }

/* uniform in [0, n) (n >= 1) */
static size_t rndn(size_t n) { return (size_t)(rnd64() % n); }

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* ---- the search state ------------------------------------------------------------- */

#define NKINDS 9
static const char kind_letters[] = "bwrcthsva";

typedef struct lns {
    ab_problem *v;        /* the arena view */
    size_t n;
    int32_t *s0, *s1, nsec;
    int64_t g, lb;
    int64_t *P, A;        /* the current plan and its arena */
    int64_t *cand;        /* a candidate plan */
    int64_t *sub_off;     /* the subproblem's offsets */
    size_t *sub_map;      /* subproblem tensor -> view tensor */
    size_t *order;        /* the order the subproblem takes the tensors in */
    bool *freed;
    bool *peeled;         /* conflicts with every other tensor: kept stacked at the bottom */
    int64_t base;         /* the peeled tensors' bytes */
    size_t *list;         /* the tensors above the target (M) */
    size_t *scratch;
    bool *mark;
    double *wt;
    bool *inU;            /* repair mode: not placed (its P is stale) */
    double *w, *w0;       /* repair mode: weights, and their starting values */
    const ab_planner *pl;
    ab_params prm;        /* canonical:target=capacity,nodes=NODES */
    double r[NKINDS + 1]; /* per kind, and the slabs' */
    long tries[NKINDS], wins[NKINDS], refuted[NKINDS], undecided[NKINDS];
    int64_t nodes_total;
} lns;

static int64_t top_of(const lns *L, const int64_t *P, size_t i) { return P[i] + L->v->t[i].size; }

static const lns *qsort_ctx;

/* Tensor indices (as int64_t) by top in the current plan, highest first, then index. */
static int by_top_desc(const void *x, const void *y) {
    const lns *L = qsort_ctx;
    int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    int64_t a = top_of(L, L->P, (size_t)i), b = top_of(L, L->P, (size_t)j);
    if (a != b) return a > b ? -1 : 1;
    return i < j ? -1 : i > j;
}

static bool conflict(const lns *L, size_t i, size_t j) {
    return L->s0[i] <= L->s1[j] && L->s0[j] <= L->s1[i];
}

/* The oracle's verdict on plan P over the whole view: true when valid and
 * its arena is <= cap; *arena receives it. */
static bool check_plan(lns *L, const int64_t *P, int64_t cap, int64_t *arena) {
    ab_plan plan;
    ab_error err;
    if (ab_plan_from_offsets(&plan, P, L->n, &err) != AB_OK) return false;
    abo_report *r = malloc(sizeof *r);
    int64_t save = L->v->capacity;
    L->v->capacity = AB_NONE;
    bool ok = r != NULL && abo_check(L->v, &plan, r, &err) == AB_OK && r->verdict == ABO_OK;
    L->v->capacity = save;
    if (ok) *arena = r->arena, ok = r->arena <= cap;
    free(r);
    ab_plan_free(&plan);
    return ok;
}

/* A factor in [0.5, 1.5). */
static double jitter(void) { return 0.5 + rndf(); }

/* A window of sections: k's range widened by about `extra` sections, split
 * at random between both sides. */
static void widen(const lns *L, size_t k, int32_t extra, int32_t *a, int32_t *b) {
    int32_t left = (int32_t)rndn((size_t)(extra > 0 ? extra : 0) + 1);
    *a = L->s0[k] - left, *b = L->s1[k] + (extra - left);
    if (*a < 0) *a = 0;
    if (*b >= L->nsec) *b = L->nsec - 1;
}

/* The holes band: in each section t of a..b, the level y_t below cap with h
 * bytes of space above it not taken by the tensors that stay (not freed,
 * not peeled; a tensor reaching above cap takes its bytes below cap); every
 * tensor live at t with top above y_t and top <= ktop is freed. */
static void holes_band(lns *L, int32_t a, int32_t b, int64_t h, int64_t cap, int64_t ktop) {
    size_t n = L->n;
    bool *was = L->mark;
    memcpy(was, L->freed, n * sizeof *was);
    for (int32_t t = a; t <= b; t++) {
        size_t c = 0;
        for (size_t i = 0; i < n; i++)
            if (!L->peeled[i] && !was[i] && !L->inU[i] && L->s0[i] <= t && t <= L->s1[i] && L->P[i] < cap)
                L->scratch[c++] = i;
        /* by offset, highest first (insertion sort: a section holds tens of tensors) */
        for (size_t x = 1; x < c; x++) {
            size_t v = L->scratch[x], y = x;
            while (y > 0 && L->P[L->scratch[y - 1]] < L->P[v]) L->scratch[y] = L->scratch[y - 1], y--;
            L->scratch[y] = v;
        }
        int64_t cur = cap, got = 0, yt = L->base;
        bool found = false;
        for (size_t x = 0; x < c && !found; x++) {
            size_t i = L->scratch[x];
            int64_t tp = top_of(L, L->P, i);
            if (tp > cur) tp = cur;
            if (got + (cur - tp) >= h) yt = cur - (h - got), found = true;
            else got += cur - tp, cur = L->P[i];
        }
        if (!found) yt = cur - (h - got) > L->base ? cur - (h - got) : L->base;
        for (size_t i = 0; i < n; i++)
            if (!L->peeled[i] && !L->inU[i] && L->s0[i] <= t && t <= L->s1[i] && top_of(L, L->P, i) > yt &&
                top_of(L, L->P, i) <= ktop)
                L->freed[i] = true;
    }
}

/* Marks k's neighbourhood of the kind in freed: k included, except with the
 * kind s (sink), which moves k itself in L->P to a level below (the caller
 * restores it when the move fails) and frees what it displaces. The
 * tensors whose top is above k's stay. */
static void choose(lns *L, int kind, size_t k, int64_t target) {
    double r = L->r[kind] * jitter();
    if (r > 1) r = 1;
    size_t n = L->n;
    int64_t ktop = top_of(L, L->P, k);
    for (size_t i = 0; i < n; i++) L->freed[i] = false;
    L->freed[k] = true;
    int64_t h = (int64_t)(r * (double)(L->A - L->lb) / (double)L->g + 0.5) * L->g;
    if (h < L->g) h = L->g;
    if (kind == 0 || kind == 1) { /* b, w */
        int32_t a = L->s0[k], b = L->s1[k];
        int32_t want = (int32_t)(r * L->nsec) + 1;
        if (b - a + 1 >= want) { /* a window within k's range */
            a += (int32_t)rndn((size_t)(b - a + 2 - want));
            b = a + want - 1;
        } else widen(L, k, want - (b - a + 1), &a, &b);
        int64_t y = L->P[k] - (int64_t)(r * (double)target);
        for (size_t i = 0; i < n; i++) {
            if (L->freed[i] || L->peeled[i]) continue;
            if (kind == 0 && L->s0[i] <= b && a <= L->s1[i] && top_of(L, L->P, i) > y) L->freed[i] = true;
            if (kind == 1 && a <= L->s0[i] && L->s1[i] <= b) L->freed[i] = true;
        }
    } else if (kind == 2) { /* r */
        for (size_t i = 0; i < n; i++)
            if (!L->freed[i] && !L->peeled[i] && conflict(L, i, k) && rndf() < r) L->freed[i] = true;
    } else if (kind == 3) { /* c */
        size_t lo = 0, hi = 1, cnt = 1;
        L->scratch[0] = k;
        for (int level = 0; level < 2; level++) {
            for (size_t i = 0; i < n; i++) {
                if (L->freed[i] || L->peeled[i]) continue;
                for (size_t j = lo; j < hi; j++) {
                    size_t u = L->scratch[j];
                    if (conflict(L, i, u) && L->P[i] < L->P[u]) {
                        if (rndf() < r) L->freed[i] = true, L->scratch[cnt++] = i;
                        break;
                    }
                }
            }
            lo = hi, hi = cnt;
        }
    } else if (kind == 4) { /* t */
        int64_t y = target - (int64_t)(r * (double)(target - L->base));
        for (size_t i = 0; i < n; i++)
            if (!L->peeled[i] && top_of(L, L->P, i) > y) L->freed[i] = true;
    } else if (kind == 5) { /* h */
        int32_t a, b;
        widen(L, k, (int32_t)(r * 0.5 * L->nsec), &a, &b);
        holes_band(L, a, b, h, target, ktop);
    } else { /* s: k to a level y below, fixed there; what it overlaps is freed */
        /* candidate levels: the base and the tops of k's conflicts below it */
        size_t c = 0;
        int64_t sk = L->v->t[k].size, al = L->v->t[k].align;
        for (size_t i = 0; i <= n; i++) {
            int64_t y = i == n ? L->base : top_of(L, L->P, i);
            if (i < n && (L->peeled[i] || i == k || !conflict(L, i, k))) continue;
            if (y % al != 0 || y + sk > target || y >= L->P[k]) continue;
            L->scratch[c++] = (size_t)y;
        }
        if (c > 0) {
            /* the displaced bytes at each level; a level with fewer is likelier */
            double wsum = 0;
            for (size_t x = 0; x < c; x++) {
                int64_t y = (int64_t)L->scratch[x], d = 0;
                for (size_t i = 0; i < n; i++)
                    if (!L->peeled[i] && i != k && conflict(L, i, k) && L->P[i] < y + sk &&
                        y < top_of(L, L->P, i))
                        d += L->v->t[i].size;
                L->wt[x] = 1.0 / (1.0 + (double)d / (double)L->g);
                L->wt[x] *= L->wt[x];
                wsum += L->wt[x];
            }
            double u = rndf() * wsum;
            size_t x = 0;
            while (x + 1 < c && (u -= L->wt[x]) > 0) x++;
            int64_t y = (int64_t)L->scratch[x];
            L->P[k] = y;
            L->freed[k] = false;
            for (size_t i = 0; i < n; i++)
                if (!L->peeled[i] && i != k && conflict(L, i, k) && L->P[i] < y + sk && y < top_of(L, L->P, i))
                    L->freed[i] = true;
            int32_t a, b;
            widen(L, k, (int32_t)(r * 0.5 * L->nsec), &a, &b);
            holes_band(L, a, b, h, target, ktop);
            L->freed[k] = false;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (top_of(L, L->P, i) > ktop && i != k) L->freed[i] = false;
}

typedef enum { OUT_FOUND, OUT_REFUTED, OUT_UNDECIDED, OUT_ERROR } outcome;

/* Decides whether the freed tensors fit below cap with the others fixed at P
 * (cut at cap, see the top); a plan found goes to L->cand (P elsewhere).
 * *nfree receives the free tensors, *nsub the subproblem's. */
static outcome decide(lns *L, int64_t cap, int64_t *used, size_t *nfree, size_t *nsub) {
    ab_problem q;
    ab_error err;
    ab_problem_init(&q);
    q.alignment = L->v->alignment, q.io = L->v->io, q.capacity = cap - L->base;
    size_t m = 0, nf = 0;
    outcome out = OUT_ERROR;
    /* the order of the subproblem's tensors breaks canonical's ties: shuffled with -S */
    for (size_t i = 0; i < L->n; i++) L->order[i] = i;
    if (shuffle)
        for (size_t i = L->n; i > 1; i--) {
            size_t j = rndn(i), x = L->order[i - 1];
            L->order[i - 1] = L->order[j], L->order[j] = x;
        }
    for (size_t oi = 0; oi < L->n; oi++) {
        size_t i = L->order[oi];
        ab_tensor t = L->v->t[i];
        if (L->peeled[i] || (L->inU[i] && !L->freed[i])) continue;
        if (L->freed[i]) {
            t.offset = AB_NONE;
            nf++;
        } else {
            if (L->P[i] >= cap) continue;
            bool near = false;
            for (size_t j = 0; j < L->n && !near; j++) near = L->freed[j] && conflict(L, i, j);
            if (!near) continue;
            t.offset = L->P[i] - L->base;
            if (L->P[i] + t.size > cap) t.size = cap - L->P[i], t.logical_bits = t.size * 8;
        }
        if (ab_problem_add(&q, &t, &err) != AB_OK) goto done;
        L->sub_map[m++] = i;
    }
    *nfree = nf, *nsub = m;
    ab_plan_stats st;
    memset(&st, 0, sizeof st);
    if (ab_planner_plan(L->pl, &L->prm, &q, L->sub_off, &st, &err) != AB_OK) {
        fprintf(stderr, "bench_lns: canonical: %s\n", err.msg);
        goto done;
    }
    *used = st.nodes;
    int64_t top = 0;
    for (size_t j = 0; j < m; j++)
        if (L->sub_off[j] + q.t[j].size > top) top = L->sub_off[j] + q.t[j].size;
    if (top <= q.capacity) {
        memcpy(L->cand, L->P, L->n * sizeof *L->cand);
        for (size_t j = 0; j < m; j++)
            if (L->freed[L->sub_map[j]]) L->cand[L->sub_map[j]] = L->sub_off[j] + L->base;
        out = OUT_FOUND;
    } else if (st.lower_bound > q.capacity || strstr(st.note, "refuted") != NULL) out = OUT_REFUTED;
    else out = OUT_UNDECIDED;
    if (verbose) {
        /* the most bytes live at one section of the subproblem */
        int64_t worst = 0;
        int32_t wt = -1;
        for (int32_t t = 0; t < L->nsec; t++) {
            int64_t ld = 0;
            for (size_t j = 0; j < m; j++)
                if (L->s0[L->sub_map[j]] <= t && t <= L->s1[L->sub_map[j]]) ld += q.t[j].size;
            if (ld > worst) worst = ld, wt = t;
        }
        printf("    sub: free %zu of %zu, cap %lld (sub %lld, load %lld at %d): %s\n", nf, m, (long long)cap,
               (long long)q.capacity, (long long)worst, (int)wt, st.note);
    }
done:
    ab_problem_free(&q);
    return out;
}

/* Reads a plan (lines "name,offset" after a header) into L->P; false with
 * a message when a tensor is missing or unknown. */
static bool read_plan(lns *L, const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return fprintf(stderr, "bench_lns: cannot read %s\n", path), false;
    ab_names *names;
    ab_error err;
    if (ab_names_build(L->v, &names, NULL, NULL, &err) != AB_OK) {
        fclose(f);
        return fprintf(stderr, "bench_lns: %s\n", err.msg), false;
    }
    for (size_t i = 0; i < L->n; i++) L->P[i] = AB_NONE;
    char line[512];
    bool ok = true, header = true;
    while (ok && fgets(line, sizeof line, f)) {
        if (header) {
            header = false;
            continue;
        }
        char *comma = strchr(line, ',');
        if (comma == NULL) continue;
        size_t i = ab_names_find(names, line, (size_t)(comma - line));
        if (i == AB_NO_TENSOR) ok = false, fprintf(stderr, "bench_lns: %s: unknown tensor\n", path);
        else L->P[i] = strtoll(comma + 1, NULL, 10);
    }
    for (size_t i = 0; ok && i < L->n; i++)
        if (L->P[i] == AB_NONE) ok = false, fprintf(stderr, "bench_lns: %s: tensor %s missing\n", path, L->v->t[i].name);
    ab_names_free(names);
    fclose(f);
    return ok;
}

/* The lowest offset (aligned, >= the base) where tensor u fits among the
 * placed tensors of S it conflicts with, its top <= cap; -1 when none. */
static int64_t direct_fit(lns *L, size_t u, int64_t cap) {
    size_t c = 0, n = L->n;
    for (size_t i = 0; i < n; i++)
        if (i != u && !L->peeled[i] && !L->inU[i] && conflict(L, i, u)) L->scratch[c++] = i;
    for (size_t x = 1; x < c; x++) { /* by offset, lowest first */
        size_t v = L->scratch[x], y = x;
        while (y > 0 && L->P[L->scratch[y - 1]] > L->P[v]) L->scratch[y] = L->scratch[y - 1], y--;
        L->scratch[y] = v;
    }
    int64_t su = L->v->t[u].size, al = L->v->t[u].align, y = L->base;
    y = (y + al - 1) / al * al;
    for (size_t x = 0; x < c; x++) {
        size_t i = L->scratch[x];
        if (y + su <= L->P[i]) break;
        int64_t tp = top_of(L, L->P, i);
        if (tp > y) y = (tp + al - 1) / al * al;
    }
    return y + su <= cap ? y : -1;
}

/* ---- repair mode (-m repair) ----------------------------------------------------------
 * A capacity C below the best arena is held fixed; the tensors are split into
 * S, placed validly below C, and U, not placed. At the start S is every tensor
 * of P with its top <= C. Each step takes a tensor u of U (at random, weighted
 * by w) and
 *   (A) tries to insert it exactly: u and a neighbourhood N of S (kinds h, r,
 *       t, w of the top, around u's sections) free, the rest of S fixed,
 *       canonical decides C; found: u joins S, N takes the new offsets;
 *   (B) else ejects: u goes at the level y (the base, or the top of one of
 *       its conflicts in S, with y + size <= C) where the tensors of S it
 *       would overlap (D) weigh least; if w(D) < w(u), u joins S at y and D
 *       goes to U; else w(u) grows by half its starting weight.
 * A tensor's starting weight is its size (units) x its sections, so long and
 * large tensors win their place and short ones fill the holes left; the
 * growing weights break cycles. When U is empty the plan is checked (the
 * oracle) and kept, and C drops by one unit. */
static int repair_run(lns *L, double T, const int *kind_of, size_t nk, int64_t *best, int64_t *bestA,
                      double *best_t, bool quiet) {
    size_t n = L->n;
    for (size_t i = 0; i < n; i++) {
        L->w0[i] = (double)(L->v->t[i].size / L->g) * pow((double)(L->s1[i] - L->s0[i] + 1), span_exp);
        L->w[i] = L->w0[i];
    }
    int64_t C = L->A - L->g;
    size_t nU = 0;
    for (size_t i = 0; i < n; i++) {
        L->inU[i] = !L->peeled[i] && top_of(L, L->P, i) > C;
        nU += L->inU[i];
    }
    long steps = 0, ins = 0, ejects = 0, nofit = 0, direct = 0, slabs = 0, slabs_ok = 0;
    double last_sum = cpu_now();
    while (cpu_now() < T && *bestA > L->lb) {
        if (nU == 0) {
            int64_t a;
            if (!check_plan(L, L->P, C, &a)) {
                fprintf(stderr, "bench_lns: the repaired plan is INVALID\n");
                return 1;
            }
            L->A = a;
            if (a < *bestA) {
                *bestA = a, *best_t = cpu_now();
                memcpy(best, L->P, n * sizeof *best);
            }
            printf("%8.2f s  arena %10lld (%lld units)  gap %.3f%%  repair: steps %ld, inserted %ld, "
                   "ejections %ld\n",
                   cpu_now(), (long long)a, (long long)(a / L->g), 100.0 * (double)(a - L->lb) / (double)L->lb,
                   steps, ins, ejects);
            fflush(stdout);
            C = a - L->g;
            for (size_t i = 0; i < n; i++) {
                L->inU[i] = !L->peeled[i] && top_of(L, L->P, i) > C;
                nU += L->inU[i];
                L->w[i] = L->w0[i];
            }
            continue;
        }
        steps++;
        if (slab_p > 0 && rndf() < slab_p) {
            /* a slab: the tensors of S lying wholly within [y1, y2) are placed again at C (the
             * current offsets are a witness); canonical packs them low, so holes rise */
            double r = L->r[NKINDS] * jitter();
            if (r > 1) r = 1;
            int64_t hgt = (int64_t)(r * (double)(C - L->base)) / L->g * L->g;
            if (hgt < L->g) hgt = L->g;
            int64_t y1 = L->base + (int64_t)rndn((size_t)((C - L->base) / L->g)) * L->g, y2 = y1 + hgt;
            for (size_t i = 0; i < n; i++)
                L->freed[i] = !L->peeled[i] && !L->inU[i] && L->P[i] >= y1 && top_of(L, L->P, i) <= y2;
            int64_t used = 0;
            size_t nf = 0, ns = 0;
            outcome o = decide(L, C, &used, &nf, &ns);
            L->nodes_total += used;
            slabs++;
            if (o == OUT_ERROR) return 2;
            if (o == OUT_FOUND) {
                memcpy(L->P, L->cand, n * sizeof *L->P);
                slabs_ok++;
                L->r[NKINDS] *= 1.05;
            } else L->r[NKINDS] *= 0.9;
            if (L->r[NKINDS] < 0.02) L->r[NKINDS] = 0.02;
            if (L->r[NKINDS] > 0.9) L->r[NKINDS] = 0.9;
            continue;
        }
        /* u: roulette over U's weights */
        double wsum = 0;
        for (size_t i = 0; i < n; i++)
            if (L->inU[i]) wsum += L->w[i];
        double pick = rndf() * wsum;
        size_t u = n;
        for (size_t i = 0; i < n; i++)
            if (L->inU[i]) {
                u = i;
                if ((pick -= L->w[i]) <= 0) break;
            }
        /* (0) a hole that takes u as it is */
        int64_t y0 = direct_fit(L, u, C);
        if (y0 >= 0) {
            L->P[u] = y0, L->inU[u] = false, nU--;
            direct++;
            continue;
        }
        /* the level for u where the tensors of S it overlaps weigh least (for B and the kind s) */
        int64_t su = L->v->t[u].size, al = L->v->t[u].align, besty = -1;
        double bw = INFINITY;
        {
            long ties = 0;
            for (size_t j = 0; j <= n + 1; j++) {
                int64_t y;
                if (j == n) y = L->base;
                else if (j == n + 1) y = C - su;
                else if (L->peeled[j] || L->inU[j] || !conflict(L, j, u)) continue;
                else y = top_of(L, L->P, j);
                if (y < L->base || y % al != 0 || y + su > C) continue;
                double dw = 0;
                for (size_t i = 0; i < n && dw < bw + 1e-9; i++)
                    if (!L->peeled[i] && !L->inU[i] && conflict(L, i, u) && L->P[i] < y + su &&
                        y < top_of(L, L->P, i))
                        dw += L->w[i];
                if (dw < bw - 1e-9) bw = dw, besty = y, ties = 1;
                else if (dw < bw + 1e-9 && rndn((size_t)++ties) == 0) besty = y;
            }
        }
        /* (A) exact insertion */
        int kind = kind_of[rndn(nk)];
        double r = L->r[kind] * jitter();
        if (r > 1) r = 1;
        for (size_t i = 0; i < n; i++) L->freed[i] = false;
        L->freed[u] = true;
        int32_t a, b;
        widen(L, u, (int32_t)(r * 0.5 * L->nsec), &a, &b);
        int64_t saved_u = L->P[u];
        bool u_fixed = false;
        if ((kind == 6 || kind == 7) && besty >= 0) {
            /* s, v: u fixed at that level; what it overlaps free, and a band of holes (s) or the
             * top band (v) */
            for (size_t i = 0; i < n; i++)
                if (!L->peeled[i] && !L->inU[i] && conflict(L, i, u) && L->P[i] < besty + su &&
                    besty < top_of(L, L->P, i))
                    L->freed[i] = true;
            L->freed[u] = false;
            L->P[u] = besty, L->inU[u] = false, u_fixed = true;
            if (kind == 6) {
                int64_t h = (int64_t)(r * (double)(L->A - L->lb) / (double)L->g + 0.5) * L->g;
                if (h < L->g) h = L->g;
                holes_band(L, a, b, h, C, INT64_MAX);
            } else {
                int64_t y = C - (int64_t)(r * (double)(C - L->base));
                for (size_t i = 0; i < n; i++)
                    if (!L->peeled[i] && !L->inU[i] && i != u && top_of(L, L->P, i) > y) L->freed[i] = true;
            }
        } else if (kind == 5) { /* h */
            int64_t h = (int64_t)(r * (double)(L->A - L->lb) / (double)L->g + 0.5) * L->g;
            if (h < L->g) h = L->g;
            holes_band(L, a, b, h, C, INT64_MAX);
        } else if (kind == 2) { /* r */
            for (size_t i = 0; i < n; i++)
                if (!L->peeled[i] && !L->inU[i] && conflict(L, i, u) && rndf() < r) L->freed[i] = true;
        } else if (kind == 4 || kind == 8) { /* t; a: every tensor of U too */
            int64_t y = C - (int64_t)(r * (double)(C - L->base));
            for (size_t i = 0; i < n; i++)
                if (!L->peeled[i] && (kind == 8 ? L->inU[i] : !L->inU[i] && top_of(L, L->P, i) > y))
                    L->freed[i] = true;
            if (kind == 8)
                for (size_t i = 0; i < n; i++)
                    if (!L->peeled[i] && !L->inU[i] && top_of(L, L->P, i) > y) L->freed[i] = true;
        } else { /* w (and the others): the tensors of S within the window */
            for (size_t i = 0; i < n; i++)
                if (!L->peeled[i] && !L->inU[i] && a <= L->s0[i] && L->s1[i] <= b) L->freed[i] = true;
        }
        int64_t used = 0;
        size_t nf = 0, ns = 0;
        outcome o = decide(L, C, &used, &nf, &ns);
        if (u_fixed) L->inU[u] = true, L->P[u] = saved_u;
        if (verbose)
            printf("  C %lld U %zu: u %zu (size %lld, sections %d..%d, w %.0f) kind %c free %zu: %s\n", (long long)C,
                   nU, u, (long long)su, (int)L->s0[u], (int)L->s1[u], L->w[u], kind_letters[kind], nf,
                   o == OUT_FOUND ? "inserted" : o == OUT_REFUTED ? "refuted" : "undecided");
        L->nodes_total += used;
        L->tries[kind]++;
        if (o == OUT_ERROR) return 2;
        if (o == OUT_FOUND) {
            memcpy(L->P, L->cand, n * sizeof *L->P);
            for (size_t i = 0; i < n; i++)
                if (L->inU[i] && (L->freed[i] || i == u)) L->inU[i] = false, nU--;
            ins++;
            L->wins[kind]++;
            L->r[kind] *= 0.95;
        } else {
            if (o == OUT_REFUTED) L->refuted[kind]++, L->r[kind] *= 1.1;
            else L->undecided[kind]++, L->r[kind] *= 0.9;
            /* (B) ejection at that level */
            if (besty >= 0 && bw < L->w[u]) {
                for (size_t i = 0; i < n; i++)
                    if (!L->peeled[i] && !L->inU[i] && conflict(L, i, u) && L->P[i] < besty + su &&
                        besty < top_of(L, L->P, i))
                        L->inU[i] = true, nU++;
                L->P[u] = besty;
                L->inU[u] = false, nU--;
                ejects++;
            } else {
                L->w[u] += 0.5 * L->w0[u];
                nofit++;
            }
        }
        if (L->r[kind] < 0.02) L->r[kind] = 0.02;
        if (L->r[kind] > 0.9) L->r[kind] = 0.9;
        if (!quiet && cpu_now() - last_sum >= 30) {
            last_sum = cpu_now();
            double wu = 0;
            for (size_t i = 0; i < n; i++)
                if (L->inU[i]) wu += L->w[i];
            printf("%8.2f s  .. capacity %lld, unplaced %zu (weight %.0f), steps %ld, inserted %ld, ejections %ld, "
                   "no fit %ld, direct %ld, slabs %ld/%ld, nodes %lld;",
                   last_sum, (long long)C, nU, wu, steps, ins, ejects, nofit, direct, slabs_ok, slabs,
                   (long long)L->nodes_total);
            for (int q = 0; q < NKINDS; q++)
                if (L->tries[q])
                    printf(" %c %ld/%ld/%ld/%ld r %.2f;", kind_letters[q], L->tries[q], L->wins[q],
                           L->refuted[q], L->undecided[q], L->r[q]);
            printf("\n");
            fflush(stdout);
        }
    }
    return 0;
}

/* ---- stitch mode (-m stitch) ----------------------------------------------------------
 * A capacity C (-C units) is held. A CUT K (a section; -K, or the cuts with
 * the fewest interface bytes) splits the tensors into the LEFT part (live at
 * some section <= K), the RIGHT part (live at some section > K) and their
 * INTERFACE (live at K and at K + 1: in both). A plan of the left part and a
 * plan of the right part that agree on the interface are a plan of the
 * whole: two tensors that conflict are both live at a common section, so
 * both are in one part (a left-only and a right-only tensor never conflict);
 * the union is checked by the oracle on the whole problem all the same.
 * A ROUND:
 *  1. picks a cut K, a side to start from (left and right in turn), a
 *     look-ahead d (0..-D sections) and one of canonical's orders;
 *  2. solves the starting side at C with nothing fixed, over the sections
 *     0..K+d (left) or K+1-d..last (right) (the look-ahead tensors are
 *     planned and dropped: they steer the interface towards room for them);
 *  3. then up to -R times: decides the other side at C (its sections only)
 *     with the interface fixed where the last solution put it (a COMPLETION;
 *     found: the union is a plan of arena <= C, C drops by one unit and the
 *     next round starts); when refuted or undecided, solves that other side
 *     again with only a random share (0.2-0.8) of the interface fixed, and
 *     the roles swap (an alternating block-coordinate walk: each solution is
 *     valid for its side and agrees with the last one on part of the
 *     interface).
 * Every subproblem is decided by canonical (target=capacity, nodes=-n) with
 * its tensors' order shuffled (the stream of -s), so the run is
 * deterministic up to where -T stops it. */
typedef struct stitch_cut {
    int32_t K;
    size_t nI;
    int64_t bI;                            /* interface tensors and bytes */
    long tries[2], found[2], refuted[2], root[2], undecided[2]; /* completions of the right [0] and left [1]
                                                                   side; root: refuted in <= 1 node */
    long first[2], first_ok[2];                                 /* first solves starting right / left */
} stitch_cut;

/* Decides the tensors live within sections a..b (ranges cut to it) at
 * capacity cap, those with fix[i] fixed at off[i]; a plan found goes to
 * out (its tensors only). *used receives the nodes. */
static outcome stitch_solve(lns *L, const ab_params *prm, int32_t a, int32_t b, const bool *fix, const int64_t *off,
                            int64_t cap, int64_t *out, int64_t *used) {
    ab_problem q;
    ab_error err;
    ab_problem_init(&q);
    q.alignment = L->v->alignment, q.io = L->v->io, q.capacity = cap;
    for (size_t i = 0; i < L->n; i++) L->order[i] = i;
    for (size_t i = L->n; i > 1; i--) {
        size_t j = rndn(i), x = L->order[i - 1];
        L->order[i - 1] = L->order[j], L->order[j] = x;
    }
    size_t m = 0;
    outcome o = OUT_ERROR;
    for (size_t oi = 0; oi < L->n; oi++) {
        size_t i = L->order[oi];
        if (L->s1[i] < a || L->s0[i] > b) continue;
        ab_tensor t = L->v->t[i];
        t.start = (L->s0[i] > a ? L->s0[i] : a) - a;
        t.end = (L->s1[i] < b ? L->s1[i] : b) - a;
        t.offset = fix != NULL && fix[i] ? off[i] : AB_NONE;
        if (ab_problem_add(&q, &t, &err) != AB_OK) {
            fprintf(stderr, "bench_lns: %s\n", err.msg);
            goto done;
        }
        L->sub_map[m++] = i;
    }
    ab_plan_stats st;
    memset(&st, 0, sizeof st);
    if (ab_planner_plan(L->pl, prm, &q, L->sub_off, &st, &err) != AB_OK) {
        fprintf(stderr, "bench_lns: canonical: %s\n", err.msg);
        goto done;
    }
    *used = st.nodes;
    int64_t top = 0;
    for (size_t j = 0; j < m; j++)
        if (L->sub_off[j] + q.t[j].size > top) top = L->sub_off[j] + q.t[j].size;
    if (top <= cap) {
        for (size_t j = 0; j < m; j++) out[L->sub_map[j]] = L->sub_off[j];
        o = OUT_FOUND;
    } else if (st.lower_bound > cap || strstr(st.note, "refuted") != NULL) o = OUT_REFUTED;
    else o = OUT_UNDECIDED;
done:
    ab_problem_free(&q);
    return o;
}

/* canonical's orders for the stitch and roll rounds, one per round: the
 * default set and single ones. */
static const char *const ord[] = {NULL, "TAW", "TWA", "WAT", "CAT", "TCA", "CZ"};
enum { NORD = sizeof ord / sizeof ord[0] };

/* The specs of the rounds' subproblems (target=capacity, sub_nodes nodes), one
 * per order, resolved into prm; false with err set when one does not resolve. */
static bool stitch_specs(int64_t sub_nodes, ab_params prm[NORD], const ab_planner **pl,
                         ab_error *err) {
    for (int k = 0; k < NORD; k++) {
        char spec[160];
        if (ord[k] == NULL)
            snprintf(spec, sizeof spec, "canonical:target=capacity,nodes=%lld", (long long)sub_nodes);
        else
            snprintf(spec, sizeof spec, "canonical:target=capacity,nodes=%lld,orders=%s",
                     (long long)sub_nodes, ord[k]);
        if (ab_planner_resolve(spec, pl, &prm[k], err) != AB_OK) return false;
    }
    return true;
}

/* A joined plan from the stitch or roll rounds: checked by the oracle on the
 * whole instance at capacity *C, kept when it beats *bestA, printed with
 * `how` (the round's own words), and *C lowered one unit below it. false (a
 * message said) when the plan is invalid or above the capacity. */
static bool stitched_win(lns *L, const int64_t *plan, int64_t *C, int64_t *best, int64_t *bestA,
                         double *best_t, const char *how) {
    int64_t arena;
    if (!check_plan(L, plan, *C, &arena)) {
        fprintf(stderr, "bench_lns: a stitched plan is INVALID or above the capacity\n");
        return false;
    }
    if (arena < *bestA) *bestA = arena, *best_t = cpu_now(), memcpy(best, plan, L->n * sizeof *best);
    printf("%8.2f s  arena %10lld (%lld units)  gap %.3f%%  stitch: %s\n", cpu_now(),
           (long long)arena, (long long)(arena / L->g),
           100.0 * (double)(arena - L->lb) / (double)L->lb, how);
    fflush(stdout);
    *C = (arena < *C ? arena : *C) - L->g;
    return true;
}

static int stitch_run(lns *L, double T, int64_t C, int64_t sub_nodes, const char *cuts_arg, int32_t look, long chain,
                      int64_t *best, int64_t *bestA, double *best_t) {
    size_t n = L->n;
    int32_t ns = L->nsec;
    stitch_cut *cuts = calloc((size_t)(ns > 1 ? ns : 1), sizeof *cuts);
    int64_t *cur = malloc(n * sizeof *cur), *other = malloc(n * sizeof *other), *plan = malloc(n * sizeof *plan);
    bool *fix = malloc(n * sizeof *fix);
    if (!cuts || !cur || !other || !plan || !fix) return fprintf(stderr, "bench_lns: out of memory\n"), 2;
    size_t nc = 0;
    stitch_cut *all = calloc((size_t)(ns > 1 ? ns : 1), sizeof *all);
    bool *taken = calloc((size_t)(ns > 1 ? ns : 1), sizeof *taken);
    if (!all || !taken) return fprintf(stderr, "bench_lns: out of memory\n"), 2;
    for (int32_t K = 0; K + 1 < ns; K++) {
        all[K].K = K;
        for (size_t i = 0; i < n; i++)
            if (L->s0[i] <= K && K + 1 <= L->s1[i]) all[K].nI++, all[K].bI += L->v->t[i].size;
    }
    if (cuts_arg != NULL) { /* "K1,K2,...": each once */
        const char *c = cuts_arg;
        while (*c) {
            char *end;
            long K = strtol(c, &end, 10);
            if (end == c || K < 0 || K + 1 >= ns || (*end && *end != ',')) {
                fprintf(stderr, "bench_lns: -K: sections 0..%d separated by commas\n", (int)ns - 2);
                return 2;
            }
            if (!taken[K]) cuts[nc++] = all[K], taken[K] = true;
            c = *end ? end + 1 : end;
        }
    } else /* the 8 cuts with the fewest interface bytes, within the middle 80% of the sections */
        for (int pick = 0; pick < 8; pick++) {
            int32_t bestK = -1;
            for (int32_t K = ns / 10; K + 1 < ns - ns / 10; K++)
                if (!taken[K] && (bestK < 0 || all[K].bI < all[bestK].bI)) bestK = K;
            if (bestK < 0) break;
            cuts[nc++] = all[bestK];
            taken[bestK] = true;
        }
    free(all), free(taken);
    if (nc == 0) return fprintf(stderr, "bench_lns: no cut\n"), 2;
    ab_params prm[NORD];
    const ab_planner *pl;
    ab_error err;
    if (!stitch_specs(sub_nodes, prm, &pl, &err)) return fprintf(stderr, "bench_lns: %s\n", err.msg), 2;
    printf("stitch: capacity %lld (%lld units), look-ahead 0..%d, chain %ld, cuts:", (long long)C,
           (long long)(C / L->g), (int)look, chain);
    for (size_t c = 0; c < nc; c++)
        printf(" %d (%zu tensors, %lld units)", (int)cuts[c].K, cuts[c].nI, (long long)(cuts[c].bI / L->g));
    printf("\n");
    fflush(stdout);
    long rounds = 0, first_fail = 0, partial_tries = 0, partial_ok = 0, wins = 0;
    double last_sum = cpu_now();
    while (cpu_now() < T && C >= L->lb) {
        rounds++;
        stitch_cut *cu = &cuts[rndn(nc)];
        int32_t K = cu->K, d = (int32_t)rndn((size_t)look + 1);
        int side = (int)(rounds & 1); /* 1: left first */
        const ab_params *pr = &prm[rndn(NORD)];
        int64_t used = 0;
        int32_t a = side ? 0 : (K + 1 - d > 0 ? K + 1 - d : 0), b = side ? (K + d < ns - 1 ? K + d : ns - 1) : ns - 1;
        outcome o = stitch_solve(L, pr, a, b, NULL, NULL, C, cur, &used);
        L->nodes_total += used;
        if (o == OUT_ERROR) return 2;
        cu->first[side]++, cu->first_ok[side] += o == OUT_FOUND;
        if (verbose)
            printf("  round %ld: cut %d, %s first over %d..%d: %s\n", rounds, (int)K, side ? "left" : "right", (int)a,
                   (int)b, o == OUT_FOUND ? "found" : o == OUT_REFUTED ? "refuted" : "undecided");
        if (o != OUT_FOUND) {
            first_fail++;
            continue;
        }
        bool done = false;
        for (long step = 0; step < chain && !done && cpu_now() < T; step++) {
            /* the other side: sections 0..K (side 0: left) or K+1..last */
            int os = !side;
            a = os ? 0 : K + 1, b = os ? K : ns - 1;
            for (size_t i = 0; i < n; i++) fix[i] = L->s0[i] <= K && K + 1 <= L->s1[i];
            o = stitch_solve(L, pr, a, b, fix, cur, C, other, &used);
            L->nodes_total += used;
            cu->tries[os]++;
            if (o == OUT_ERROR) return 2;
            if (verbose)
                printf("    step %ld: %s completion: %s (%lld nodes)\n", step, os ? "left" : "right",
                       o == OUT_FOUND ? "found" : o == OUT_REFUTED ? "refuted" : "undecided", (long long)used);
            if (o == OUT_FOUND) {
                cu->found[os]++;
                for (size_t i = 0; i < n; i++) {
                    bool left = L->s0[i] <= K, right = L->s1[i] > K;
                    plan[i] = (os ? left : right) ? other[i] : cur[i];
                }
                char how[96];
                snprintf(how, sizeof how, "cut %d, round %ld, step %ld", (int)K, rounds, step);
                if (!stitched_win(L, plan, &C, best, bestA, best_t, how)) return 1;
                wins++;
                done = true;
                break;
            }
            if (o == OUT_REFUTED) cu->refuted[os]++, cu->root[os] += used <= 1;
            else cu->undecided[os]++;
            if (step + 1 == chain) break;
            /* the other side again, a share of the interface fixed; the roles swap */
            double phi = 0.2 + 0.6 * rndf();
            for (size_t i = 0; i < n; i++) fix[i] = fix[i] && rndf() < phi;
            o = stitch_solve(L, pr, a, b, fix, cur, C, other, &used);
            L->nodes_total += used;
            partial_tries++;
            if (o == OUT_ERROR) return 2;
            if (o != OUT_FOUND) break;
            partial_ok++;
            for (size_t i = 0; i < n; i++)
                if (os ? L->s0[i] <= K : L->s1[i] > K) cur[i] = other[i];
            side = os;
        }
        if (cpu_now() - last_sum >= 30) {
            last_sum = cpu_now();
            printf("%8.2f s  .. capacity %lld, rounds %ld (first side failed %ld), partial %ld/%ld, nodes %lld;",
                   last_sum, (long long)(C / L->g), rounds, first_fail, partial_ok, partial_tries,
                   (long long)L->nodes_total);
            for (size_t c = 0; c < nc; c++)
                printf(" K%d %ld/%ld", (int)cuts[c].K, cuts[c].tries[0] + cuts[c].tries[1],
                       cuts[c].found[0] + cuts[c].found[1]);
            printf("\n");
            fflush(stdout);
        }
    }
    printf("stitch: %ld rounds (first side failed %ld), partial re-solves %ld (%ld found), %ld stitched plans, "
           "lowest capacity tried %lld units\n",
           rounds, first_fail, partial_tries, partial_ok, wins, (long long)(C / L->g));
    for (size_t c = 0; c < nc; c++) {
        const stitch_cut *u = &cuts[c];
        printf("  cut %d (interface %zu tensors, %lld units): first solves found: left %ld/%ld, right %ld/%ld\n",
               (int)u->K, u->nI, (long long)(u->bI / L->g), u->first_ok[1], u->first[1], u->first_ok[0], u->first[0]);
        for (int sd = 1; sd >= 0; sd--)
            printf("    completions of the %s side: %ld, found %ld, refuted %ld (%ld at the root), undecided %ld\n",
                   sd ? "left" : "right", u->tries[sd], u->found[sd], u->refuted[sd], u->root[sd], u->undecided[sd]);
    }
    for (int k = 0; k < NORD; k++) ab_params_free(&prm[k]);
    free(cuts), free(cur), free(other), free(plan), free(fix);
    return 0;
}

/* ---- stitch mode with several cuts (-m stitch -B SECTIONS) ----------------------------
 * The sections are cut into blocks of about -B sections (the first block's
 * length drawn at random in each pass, so the cuts move). Block j (sections
 * a_j..b_j) is decided at C with the tensors live before a_j fixed where
 * earlier blocks put them (its interface) and the tensors starting in it
 * free, over a_j..b_j + d (d: 0..-D sections of look-ahead, whose tensors are
 * planned and dropped); the free tensors starting within a_j..b_j keep their
 * offsets. A block that is refuted or undecided sends the search back: block
 * j - 1 is solved again (another shuffle, another of canonical's orders), up
 * to -R times per block before going back one more; block 0 failing -R times
 * starts a new pass. When the last block fits, the offsets are a plan of the
 * whole (each pair of conflicting tensors was decided together in the block
 * where the later one starts); the oracle checks it, and C drops one unit. */
static int roll_run(lns *L, double T, int64_t C, int64_t sub_nodes, int32_t B, int32_t look, long retries,
                    int64_t *best, int64_t *bestA, double *best_t) {
    size_t n = L->n;
    int32_t ns = L->nsec;
    int32_t *cut = malloc((size_t)(ns + 2) * sizeof *cut); /* block j: sections cut[j]..cut[j+1]-1 */
    long *fails = calloc((size_t)(ns + 2), sizeof *fails);
    int64_t *cur = malloc(n * sizeof *cur), *sol = malloc(n * sizeof *sol);
    bool *fix = malloc(n * sizeof *fix);
    if (!cut || !fails || !cur || !sol || !fix) return fprintf(stderr, "bench_lns: out of memory\n"), 2;
    ab_params prm[NORD];
    const ab_planner *pl;
    ab_error err;
    if (!stitch_specs(sub_nodes, prm, &pl, &err)) return fprintf(stderr, "bench_lns: %s\n", err.msg), 2;
    printf("stitch, several cuts: capacity %lld (%lld units), blocks of %d sections, look-ahead 0..%d, -R %ld\n",
           (long long)C, (long long)(C / L->g), (int)B, (int)look, retries);
    fflush(stdout);
    long passes = 0, solves = 0, found = 0, refuted = 0, root = 0, undecided = 0, wins = 0, deepest = 0;
    long *reach = calloc((size_t)(ns + 2), sizeof *reach); /* passes whose deepest block was j */
    double last_sum = cpu_now();
    if (reach == NULL) return 2;
    while (cpu_now() < T && C >= L->lb) {
        passes++;
        int32_t nb = 0;
        cut[nb++] = 0;
        for (int32_t k = 1 + (int32_t)rndn((size_t)B); k < ns; k += B) cut[nb++] = k;
        cut[nb] = ns; /* nb blocks */
        for (int32_t j = 0; j <= nb; j++) fails[j] = 0;
        int32_t j = 0, far = 0;
        while (j >= 0 && j < nb && cpu_now() < T) {
            int32_t a = cut[j], b = cut[j + 1] - 1, e = b + (int32_t)rndn((size_t)look + 1);
            if (e > ns - 1) e = ns - 1;
            for (size_t i = 0; i < n; i++) fix[i] = L->s0[i] < a && L->s1[i] >= a;
            int64_t used = 0;
            outcome o = stitch_solve(L, &prm[rndn(NORD)], a, e, fix, cur, C, sol, &used);
            L->nodes_total += used;
            solves++;
            if (o == OUT_ERROR) return 2;
            if (verbose)
                printf("  pass %ld block %d (%d..%d, to %d): %s (%lld nodes)\n", passes, (int)j, (int)a, (int)b,
                       (int)e, o == OUT_FOUND ? "found" : o == OUT_REFUTED ? "refuted" : "undecided", (long long)used);
            if (o == OUT_FOUND) {
                found++;
                for (size_t i = 0; i < n; i++)
                    if (L->s0[i] >= a && L->s0[i] <= b) cur[i] = sol[i];
                j++;
                if (j > far) far = j;
                if (j < nb) fails[j] = 0;
                continue;
            }
            if (o == OUT_REFUTED) refuted++, root += used <= 1;
            else undecided++;
            /* back: block j - 1 again (j itself again when j = 0) */
            if (j > 0) j--;
            while (j >= 0 && ++fails[j] > retries) j--;
        }
        reach[far]++;
        if (far > deepest) deepest = far;
        if (j == nb) {
            char how[96];
            snprintf(how, sizeof how, "%d blocks, pass %ld, solves %ld", (int)nb, passes, solves);
            if (!stitched_win(L, cur, &C, best, bestA, best_t, how)) return 1;
            wins++;
        }
        if (cpu_now() - last_sum >= 30) {
            last_sum = cpu_now();
            printf("%8.2f s  .. capacity %lld, passes %ld, block solves %ld: found %ld, refuted %ld (%ld at the "
                   "root), undecided %ld; deepest block %ld; nodes %lld\n",
                   last_sum, (long long)(C / L->g), passes, solves, found, refuted, root, undecided, deepest,
                   (long long)L->nodes_total);
            fflush(stdout);
        }
    }
    printf("stitch, several cuts: %ld passes, %ld block solves: found %ld, refuted %ld (%ld at the root), undecided "
           "%ld; %ld stitched plans, lowest capacity tried %lld units; passes by the number of blocks done:",
           passes, solves, found, refuted, root, undecided, wins, (long long)(C / L->g));
    for (int32_t k = 0; k <= ns; k++)
        if (reach[k]) printf(" %d:%ld", (int)k, reach[k]);
    printf("\n");
    for (int k = 0; k < NORD; k++) ab_params_free(&prm[k]);
    free(cut), free(fails), free(cur), free(sol), free(fix), free(reach);
    return 0;
}

static void usage(void) {
    fprintf(stderr,
            "usage: bench_lns [-T SEC] [-s SEED] [-i BUDGET] [-n NODES] [-k KINDS] [-p PLATEAU]\n"
            "                 [-l FRAC] [-m lns|repair|stitch] [-L FRAC] [-W EXP] [-C UNITS] [-K CUTS]\n"
            "                 [-B SECTIONS] [-D SECTIONS] [-R N] [-P PLAN] [-o PLAN] [-S] [-q] [FILE]\n"
            "  -T SEC      CPU seconds for the whole run (default 600)\n"
            "  -s SEED     the seed of the splitmix64 stream (default 1)\n"
            "  -i BUDGET   canonical's budget for the first plan (default nodes=2000000)\n"
            "  -n NODES    node budget of each subproblem (default 20000)\n"
            "  -k KINDS    neighbourhood kinds, letters of bwrcthsva (default bwrc)\n"
            "  -p PLATEAU  failed moves in a row before a shake (default 20; 0: never)\n"
            "  -l FRAC     lns mode: the share of moves anchored on a tensor below the target,\n"
            "              high ones first (default 0.5)\n"
            "  -m MODE     lns (default: moves around the tensors above the target), repair (a\n"
            "              capacity held fixed, unplaced tensors inserted or ejecting others) or\n"
            "              stitch (a capacity held, the sections cut in two or in blocks, each part\n"
            "              decided with the tensors live across the cut fixed; lower by one unit\n"
            "              per plan found)\n"
            "  -L FRAC     repair mode: the share of steps that re-place a slab of offsets\n"
            "              [y1, y2) at the capacity (default 0: none)\n"
            "  -W EXP      repair mode: a tensor's weight is size x sections^EXP (default 1)\n"
            "  -C UNITS    stitch mode: the first capacity, in units (default max-load + 2%%)\n"
            "  -K CUTS     stitch mode: the cut sections, K1,K2,... (default: the 8 with the fewest\n"
            "              bytes live across, within the middle 80%% of the sections)\n"
            "  -B SECTIONS stitch mode: cut into blocks of about this many sections, solved in turn\n"
            "              with backtracking (instead of one cut per round)\n"
            "  -D SECTIONS stitch mode: look-ahead, 0..SECTIONS at random (default 10)\n"
            "  -R N        stitch mode: completions per round (one cut), or retries per block\n"
            "              (blocks) (default 6)\n"
            "  -P PLAN     start from this plan (CSV of tensor,offset) instead of canonical's\n"
            "  -o PLAN     write the best plan there\n"
            "  -S          shuffle each subproblem's tensors (breaks canonical's ties)\n"
            "  -q          no summary lines\n"
            "  FILE        suite YAML or MiniMalloc CSV (default ../shared/data/minimalloc/D.1048576.csv)\n");
}

int main(int argc, char **argv) {
    double T = 600;
    uint64_t seed = 1;
    const char *init = "nodes=2000000";
    int64_t sub_nodes = 20000;
    const char *kinds = "bwrc";
    long plateau = 20;
    double lower = 0.5;
    const char *out_path = NULL, *start_path = NULL;
    bool repair = false, stitch = false;
    bool quiet = false;
    int64_t cap_units = 0;
    const char *cuts_arg = NULL;
    long look = 10, chain = 6, block = 0;
    int opt;
    while ((opt = getopt(argc, argv, "T:s:i:n:k:p:l:o:P:m:W:L:C:K:D:R:B:Sqvh")) != -1) {
        char *end;
        if (opt == 'T') {
            T = strtod(optarg, &end);
            if (*end || !(T > 0)) return fprintf(stderr, "bench_lns: -T: seconds > 0\n"), 2;
        } else if (opt == 's') {
            seed = strtoull(optarg, &end, 10);
            if (*end) return fprintf(stderr, "bench_lns: -s: an integer\n"), 2;
        } else if (opt == 'i') init = optarg;
        else if (opt == 'n') {
            sub_nodes = strtoll(optarg, &end, 10);
            if (*end || sub_nodes < 1) return fprintf(stderr, "bench_lns: -n: nodes >= 1\n"), 2;
        } else if (opt == 'k') {
            kinds = optarg;
            if (!*kinds || strlen(kinds) > 16) return fprintf(stderr, "bench_lns: -k: letters of bwrcthsva\n"), 2;
            for (const char *c = kinds; *c; c++)
                if (!strchr(kind_letters, *c)) return fprintf(stderr, "bench_lns: -k: letters of bwrcthsva\n"), 2;
        } else if (opt == 'p') {
            plateau = strtol(optarg, &end, 10);
            if (*end || plateau < 0) return fprintf(stderr, "bench_lns: -p: an integer >= 0\n"), 2;
        } else if (opt == 'l') {
            lower = strtod(optarg, &end);
            if (*end || !(lower >= 0 && lower <= 1)) return fprintf(stderr, "bench_lns: -l: a fraction in [0, 1]\n"), 2;
        } else if (opt == 'o') out_path = optarg;
        else if (opt == 'P') start_path = optarg;
        else if (opt == 'S') shuffle = true;
        else if (opt == 'L') {
            slab_p = strtod(optarg, &end);
            if (*end || !(slab_p >= 0 && slab_p <= 1)) return fprintf(stderr, "bench_lns: -L: a fraction in [0, 1]\n"), 2;
        } else if (opt == 'W') {
            span_exp = strtod(optarg, &end);
            if (*end || !(span_exp >= 0 && span_exp <= 4)) return fprintf(stderr, "bench_lns: -W: a number in [0, 4]\n"), 2;
        }
        else if (opt == 'm') {
            if (strcmp(optarg, "repair") == 0) repair = true;
            else if (strcmp(optarg, "lns") == 0) repair = false;
            else if (strcmp(optarg, "stitch") == 0) stitch = true;
            else return fprintf(stderr, "bench_lns: -m: lns, repair or stitch\n"), 2;
        }
        else if (opt == 'C') {
            cap_units = strtoll(optarg, &end, 10);
            if (*end || cap_units < 1) return fprintf(stderr, "bench_lns: -C: units >= 1\n"), 2;
        } else if (opt == 'K') cuts_arg = optarg;
        else if (opt == 'B') {
            block = strtol(optarg, &end, 10);
            if (*end || block < 1 || block > 1000000) return fprintf(stderr, "bench_lns: -B: sections >= 1\n"), 2;
        }
        else if (opt == 'D') {
            look = strtol(optarg, &end, 10);
            if (*end || look < 0 || look > 1000000) return fprintf(stderr, "bench_lns: -D: sections >= 0\n"), 2;
        } else if (opt == 'R') {
            chain = strtol(optarg, &end, 10);
            if (*end || chain < 1) return fprintf(stderr, "bench_lns: -R: an integer >= 1\n"), 2;
        }
        else if (opt == 'q') quiet = true;
        else if (opt == 'v') verbose = true;
        else {
            usage();
            return opt == 'h' ? 0 : 2;
        }
    }
    char path[1200];
    if (optind < argc) snprintf(path, sizeof path, "%s", argv[optind]);
    else {
        snprintf(path, sizeof path, "%s", __FILE__);
        char *cut = strstr(path, "bench/bench_lns.c");
        if (cut == NULL) snprintf(path, sizeof path, "../shared/data/minimalloc/D.1048576.csv");
        else snprintf(cut, sizeof path - (size_t)(cut - path), "../shared/data/minimalloc/D.1048576.csv");
    }
    rng_state = seed;
    ab_problem p, view;
    ab_error err;
    if (abf_load_problem(path, NULL, &p, &err) != AB_OK) {
        fprintf(stderr, "bench_lns: %s\n", err.msg);
        return 2;
    }
    if (p.npools > 0) {
        fprintf(stderr, "bench_lns: %s declares pools: one arena only\n", path);
        return 2;
    }
    if (ab_problem_arena_view(&p, &view, NULL, &err) != AB_OK) {
        fprintf(stderr, "bench_lns: %s\n", err.msg);
        return 2;
    }
    for (size_t i = 0; i < view.n; i++)
        if (view.t[i].offset != AB_NONE) {
            fprintf(stderr, "bench_lns: %s has fixed offsets: not supported\n", path);
            return 2;
        }
    lns L;
    memset(&L, 0, sizeof L);
    L.v = &view;
    L.n = view.n;
    size_t n = L.n ? L.n : 1;
    L.s0 = malloc(n * sizeof *L.s0), L.s1 = malloc(n * sizeof *L.s1);
    L.P = malloc(n * sizeof *L.P), L.cand = malloc(n * sizeof *L.cand);
    L.sub_off = malloc(n * sizeof *L.sub_off), L.sub_map = malloc(n * sizeof *L.sub_map);
    L.order = malloc(n * sizeof *L.order);
    L.freed = malloc(n * sizeof *L.freed), L.peeled = calloc(n, sizeof *L.peeled), L.list = malloc(n * sizeof *L.list);
    L.scratch = malloc((n + 1) * sizeof *L.scratch);
    L.mark = malloc(n * sizeof *L.mark), L.wt = malloc((n + 1) * sizeof *L.wt);
    L.inU = calloc(n, sizeof *L.inU), L.w = malloc(n * sizeof *L.w), L.w0 = malloc(n * sizeof *L.w0);
    int64_t *best = malloc(n * sizeof *best);
    if (!L.s0 || !L.s1 || !L.P || !L.cand || !L.sub_off || !L.sub_map || !L.order || !L.freed || !L.peeled || !L.list || !L.scratch || !L.mark || !L.wt || !L.inU || !L.w || !L.w0 || !best ||
        !ab_problem_sections(&view, L.s0, L.s1, &L.nsec, NULL)) {
        fprintf(stderr, "bench_lns: out of memory\n");
        return 2;
    }
    L.g = ab_problem_gravity_unit(&view);
    abo_bounds b;
    L.lb = abo_bounds_compute(&view, &b, &err) == AB_OK ? b.max_load : 0;
    for (int k = 0; k <= NKINDS; k++) L.r[k] = 0.2;
    /* The tensors that conflict with every other one: in any valid plan no
     * tensor shares a byte of their rows, so they can be cut out and stacked
     * at the bottom (every tensor above moves up or down by whole peeled
     * sizes: done only when every align divides every peeled size). */
    size_t npeel = 0;
    {
        int32_t lo = L.nsec, hi = -1; /* a tensor conflicts with all iff it spans [max s0, min s1] */
        int32_t maxs0 = 0, mins1 = L.nsec;
        for (size_t i = 0; i < L.n; i++) {
            if (L.s0[i] > maxs0) maxs0 = L.s0[i];
            if (L.s1[i] < mins1) mins1 = L.s1[i];
        }
        (void)lo, (void)hi;
        int64_t amax = 1;
        for (size_t i = 0; i < L.n; i++)
            if (view.t[i].align > amax) amax = view.t[i].align;
        for (size_t i = 0; i < L.n; i++)
            if (L.s0[i] <= mins1 && L.s1[i] >= maxs0 && view.t[i].size % amax == 0)
                L.peeled[i] = true, L.base += view.t[i].size, npeel++;
    }
    {
        char spec[128];
        snprintf(spec, sizeof spec, "canonical:target=capacity,nodes=%lld", (long long)sub_nodes);
        if (ab_planner_resolve(spec, &L.pl, &L.prm, &err) != AB_OK) {
            fprintf(stderr, "bench_lns: %s\n", err.msg);
            return 2;
        }
    }

    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    printf("bench_lns %s: %zu tensors (%zu conflict with all: %lld bytes at the bottom), %d sections, "
           "unit %lld, max-load %lld; seed %llu, -T %g, "
           "-i %s, -n %lld, -k %s, -p %ld, -l %g\n",
           base, L.n, npeel, (long long)L.base, (int)L.nsec, (long long)L.g, (long long)L.lb, (unsigned long long)seed, T, init,
           (long long)sub_nodes, kinds, plateau, lower);

    if (stitch) { /* no first plan: see stitch_run */
        int64_t C = cap_units > 0 ? cap_units * L.g : (L.lb + L.lb / 50) / L.g * L.g;
        int64_t bestA = INT64_MAX;
        double best_t = 0;
        printf("stitch mode: -n %lld, -D %ld, -R %ld\n", (long long)sub_nodes, look, chain);
        int rc = block > 0 ? roll_run(&L, T, C, sub_nodes, (int32_t)block, (int32_t)look, chain, best, &bestA, &best_t)
                           : stitch_run(&L, T, C, sub_nodes, cuts_arg, (int32_t)look, chain, best, &bestA, &best_t);
        if (rc != 0) return rc;
        int64_t a = 0;
        bool ok = bestA == INT64_MAX || check_plan(&L, best, bestA, &a);
        if (bestA == INT64_MAX)
            printf("best %s: no plan at %lld units or below, bound %lld, %lld nodes, %.2f s CPU in all\n", base,
                   (long long)(C / L.g), (long long)L.lb, (long long)L.nodes_total, cpu_now());
        else
            printf("best %s %lld (%lld units) at %.2f s CPU, bound %lld, gap %.3f%%, oracle: %s; %lld nodes, "
                   "%.2f s CPU in all\n",
                   base, (long long)bestA, (long long)(bestA / L.g), best_t, (long long)L.lb,
                   100.0 * (double)(bestA - L.lb) / (double)L.lb, ok ? "valid" : "INVALID",
                   (long long)L.nodes_total, cpu_now());
        if (out_path != NULL && bestA != INT64_MAX) {
            FILE *fo = fopen(out_path, "w");
            if (fo == NULL) return fprintf(stderr, "bench_lns: cannot write %s\n", out_path), 2;
            fprintf(fo, "name,offset\n");
            for (size_t i = 0; i < L.n; i++) fprintf(fo, "%s,%lld\n", view.t[i].name, (long long)best[i]);
            fclose(fo);
        }
        ab_params_free(&L.prm);
        return ok ? 0 : 1;
    }
    /* 1. the first plan: canonical's, or read from -P */
    {
        char note[200];
        if (start_path != NULL) {
            if (!read_plan(&L, start_path)) return 2;
            snprintf(note, sizeof note, "read from %s", start_path);
        } else {
            char spec[256];
            snprintf(spec, sizeof spec, "canonical:%s", init);
            const ab_planner *pl;
            ab_params prm;
            if (ab_planner_resolve(spec, &pl, &prm, &err) != AB_OK) {
                fprintf(stderr, "bench_lns: %s\n", err.msg);
                return 2;
            }
            ab_plan_stats st;
            memset(&st, 0, sizeof st);
            ab_status s = ab_planner_plan(pl, &prm, &view, L.P, &st, &err);
            ab_params_free(&prm);
            if (s != AB_OK) {
                fprintf(stderr, "bench_lns: canonical: %s\n", err.msg);
                return 2;
            }
            if (st.proven_optimal || st.lower_bound > L.lb) L.lb = st.lower_bound;
            snprintf(note, sizeof note, "canonical:%s: %s", init, st.note);
        }
        if (!check_plan(&L, L.P, INT64_MAX, &L.A)) {
            fprintf(stderr, "bench_lns: the first plan is INVALID\n");
            return 1;
        }
        /* the peeled tensors to the bottom (see above) */
        if (npeel > 0) {
            int64_t at = 0;
            for (size_t i = 0; i < L.n; i++) {
                if (L.peeled[i]) {
                    L.cand[i] = at, at += view.t[i].size;
                    continue;
                }
                int64_t below = 0;
                for (size_t j = 0; j < L.n; j++)
                    if (L.peeled[j] && L.P[j] < L.P[i]) below += view.t[j].size;
                L.cand[i] = L.P[i] - below + L.base;
            }
            int64_t a;
            if (!check_plan(&L, L.cand, L.A, &a)) {
                fprintf(stderr, "bench_lns: the first plan with its peeled tensors at the bottom is INVALID\n");
                return 1;
            }
            memcpy(L.P, L.cand, L.n * sizeof *L.P);
        }
        printf("%8.2f s  arena %10lld (%lld units)  gap %.3f%%  first plan: %s\n", cpu_now(),
               (long long)L.A, (long long)(L.A / L.g), 100.0 * (double)(L.A - L.lb) / (double)L.lb, note);
        fflush(stdout);
    }
    memcpy(best, L.P, L.n * sizeof *best);
    int64_t bestA = L.A;
    double best_t = cpu_now(), last_sum = cpu_now();
    long lowers = 0, lowers_ok = 0;
    long moves = 0, fails = 0, shakes = 0, shakes_ok = 0;
    size_t nk = strlen(kinds);
    int kind_of[16];
    for (size_t i = 0; i < nk; i++) kind_of[i] = (int)(strchr(kind_letters, kinds[i]) - kind_letters);

    if (repair) {
        int rc = repair_run(&L, T, kind_of, nk, best, &bestA, &best_t, quiet);
        if (rc != 0) return rc;
    }
    /* 2. the loop */
    while (!repair && cpu_now() < T && L.A > L.lb) {
        int64_t target = L.A - L.g;
        size_t m = 0, nout = 0;
        for (size_t i = 0; i < L.n; i++) {
            L.freed[i] = false;
            if (top_of(&L, L.P, i) > target) L.list[m++] = i;
        }
        int kind = kind_of[rndn(nk)];
        int64_t cap = target;
        bool shake = plateau > 0 && fails >= plateau;
        size_t k;
        if (shake) {
            do k = rndn(L.n);
            while ((top_of(&L, L.P, k) > target || L.peeled[k]) && ++nout < 1000);
            if (nout >= 1000) shake = false, k = L.list[rndn(m)];
        } else if (rndf() < lower) {
            /* a tensor below the target, biased to the high ones */
            size_t c = 0;
            for (size_t i = 0; i < L.n; i++)
                if (!L.peeled[i] && top_of(&L, L.P, i) <= target && top_of(&L, L.P, i) > L.base + L.g)
                    L.cand[c++] = (int64_t)i;
            if (c == 0) k = L.list[rndn(m)];
            else {
                qsort_ctx = &L;
                qsort(L.cand, c, sizeof *L.cand, by_top_desc);
                double u = rndf();
                k = (size_t)L.cand[(size_t)(u * u * (double)c)];
                cap = top_of(&L, L.P, k) - L.g;
            }
        } else k = L.list[rndn(m)];
        int64_t saved_k = L.P[k]; /* the kind s moves k in P */
        choose(&L, kind, k, cap);
        if (shake) /* M stays where it is */
            for (size_t j = 0; j < m; j++) L.freed[L.list[j]] = false;
        if (verbose)
            printf("  %s k=%zu size %lld sections %d..%d at %lld, kind %c, above %zu\n", shake ? "shake" : "move", k,
                   (long long)view.t[k].size, (int)L.s0[k], (int)L.s1[k], (long long)L.P[k], kind_letters[kind], m);
        int64_t used = 0;
        size_t nf = 0, ns = 0;
        outcome o = decide(&L, cap, &used, &nf, &ns);
        L.nodes_total += used;
        if (o == OUT_ERROR) return 2;
        if (o != OUT_FOUND) L.P[k] = saved_k;
        if (shake) {
            shakes++;
            fails = 0;
            if (o == OUT_FOUND) {
                int64_t a;
                if (!check_plan(&L, L.cand, L.A, &a)) {
                    fprintf(stderr, "bench_lns: a shaken plan is INVALID on the whole problem\n");
                    return 1;
                }
                memcpy(L.P, L.cand, L.n * sizeof *L.P);
                shakes_ok++;
            }
            continue;
        }
        moves++;
        if (cap < target) lowers++;
        L.tries[kind]++;
        if (o == OUT_FOUND) {
            int64_t a;
            if (!check_plan(&L, L.cand, L.A, &a)) {
                fprintf(stderr, "bench_lns: a plan of the subproblem is INVALID on the whole problem\n");
                return 1;
            }
            memcpy(L.P, L.cand, L.n * sizeof *L.P);
            if (cap < target) lowers_ok++;
            L.wins[kind]++;
            L.r[kind] *= 0.95;
            fails = 0;
            if (a < L.A) {
                L.A = a;
                if (a < bestA) {
                    bestA = a, best_t = cpu_now();
                    memcpy(best, L.P, L.n * sizeof *best);
                }
                printf("%8.2f s  arena %10lld (%lld units)  gap %.3f%%  kind %c free %zu of %zu "
                       "nodes %lld  moves %ld\n",
                       cpu_now(), (long long)a, (long long)(a / L.g),
                       100.0 * (double)(a - L.lb) / (double)L.lb, kind_letters[kind], nf, ns,
                       (long long)used, moves);
                fflush(stdout);
            }
        } else {
            fails++;
            if (o == OUT_REFUTED) L.refuted[kind]++, L.r[kind] *= 1.1;
            else L.undecided[kind]++, L.r[kind] *= 0.9;
        }
        if (L.r[kind] < 0.02) L.r[kind] = 0.02;
        if (L.r[kind] > 0.9) L.r[kind] = 0.9;
        if (!quiet && cpu_now() - last_sum >= 30) {
            last_sum = cpu_now();
            printf("%8.2f s  .. arena %lld, above %zu, moves %ld (lower %ld/%ld), nodes %lld, shakes %ld (%ld taken);",
                   last_sum, (long long)L.A, m, moves, lowers_ok, lowers, (long long)L.nodes_total, shakes, shakes_ok);
            for (int q = 0; q < NKINDS; q++)
                if (L.tries[q])
                    printf(" %c %ld/%ld/%ld/%ld r %.2f;", kind_letters[q], L.tries[q], L.wins[q],
                           L.refuted[q], L.undecided[q], L.r[q]);
            printf("\n");
            fflush(stdout);
        }
    }
    int64_t a = 0;
    bool ok = check_plan(&L, best, bestA, &a);
    printf("best %s %lld (%lld units) at %.2f s CPU, bound %lld, gap %.3f%%, oracle: %s; %ld moves, "
           "%ld lowering %ld taken, %ld shakes, %lld nodes, %.2f s CPU in all\n",
           base, (long long)bestA, (long long)(bestA / L.g), best_t, (long long)L.lb,
           100.0 * (double)(bestA - L.lb) / (double)L.lb, ok ? "valid" : "INVALID", moves, lowers, lowers_ok, shakes,
           (long long)L.nodes_total, cpu_now());
    for (int q = 0; q < NKINDS; q++)
        if (L.tries[q])
            printf("  kind %c: %ld tries, %ld wins, %ld refuted, %ld undecided, r %.2f\n", kind_letters[q],
                   L.tries[q], L.wins[q], L.refuted[q], L.undecided[q], L.r[q]);
    if (out_path != NULL) {
        FILE *fo = fopen(out_path, "w");
        if (fo == NULL) return fprintf(stderr, "bench_lns: cannot write %s\n", out_path), 2;
        fprintf(fo, "name,offset\n");
        for (size_t i = 0; i < L.n; i++) fprintf(fo, "%s,%lld\n", view.t[i].name, (long long)best[i]);
        fclose(fo);
    }
    ab_params_free(&L.prm);
    return ok ? 0 : 1;
}
