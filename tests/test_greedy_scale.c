/*
 * test_greedy_scale.c — first-fit and best-fit in every order (and their
 * conflict indexes) give exactly the offsets of the plain O(n^2) greedy
 * written here: for each tensor in the order, every placed conflict found by
 * a scan of all placed tensors, sorted by offset, handed to the unchanged
 * placement rule. It pins the results any faster path (issue 14) must keep:
 * the sweep of program order and the free-space index (space.h) of the
 * orders size and area.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem.h"
#include "planners/greedy.h"
#include "planners/planner.h"
#include "tests/support.h"

/* ---- the reference ------------------------------------------------------ */

static const ab_problem *g_p;
static int g_order; /* 0 start, 1 size, 2 area */

static int cmp3(int64_t a, int64_t b) { return (a > b) - (a < b); }

static int ref_cmp(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &g_p->t[a], *y = &g_p->t[b];
    int c = 0;
    if (g_order == 2) {
        __int128 ax = (__int128)x->size * (x->end - x->start + 1);
        __int128 ay = (__int128)y->size * (y->end - y->start + 1);
        if (ax != ay) return ax > ay ? -1 : 1;
    }
    if (g_order == 0) {
        if ((c = cmp3(x->start, y->start)) != 0) return c;
        if ((c = -cmp3(x->size, y->size)) != 0) return c;
    } else {
        if ((c = -cmp3(x->size, y->size)) != 0) return c;
        if ((c = cmp3(x->start, y->start)) != 0) return c;
    }
    if ((c = strcmp(x->name, y->name)) != 0) return c;
    return cmp3((int64_t)a, (int64_t)b);
}

static int busy_cmp(const void *pa, const void *pb) {
    const abp_busy *a = pa, *b = pb;
    int c = cmp3(a->lo, b->lo);
    if (c == 0) c = cmp3(a->hi, b->hi);
    if (c == 0) c = cmp3((int64_t)a->idx, (int64_t)b->idx);
    return c;
}

static void reference(const ab_problem *p, int order, bool best, int64_t *off) {
    size_t *idx = malloc((p->n + 1) * sizeof *idx);
    bool *placed = calloc(p->n + 1, sizeof *placed);
    abp_busy *busy = malloc((p->n + 1) * sizeof *busy);
    cr_assert(idx && placed && busy);
    for (size_t i = 0; i < p->n; i++) idx[i] = i;
    g_p = p;
    g_order = order;
    qsort(idx, p->n, sizeof *idx, ref_cmp);
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i].offset != AB_NONE) {
            off[i] = p->t[i].offset;
            placed[i] = true;
        }
    for (size_t r = 0; r < p->n; r++) {
        size_t i = idx[r];
        if (placed[i]) continue;
        size_t k = 0;
        for (size_t j = 0; j < p->n; j++)
            if (placed[j] && ab_conflict(&p->t[i], &p->t[j]))
                busy[k++] = (abp_busy){off[j], off[j] + p->t[j].size, j};
        qsort(busy, k, sizeof *busy, busy_cmp);
        bool ok = (best ? abp_rule_best_fit : abp_rule_first_fit)(busy, k, p->t[i].size,
                                                                   p->t[i].align, &off[i]);
        cr_assert(ok);
        placed[i] = true;
    }
    free(idx);
    free(placed);
    free(busy);
}

/* ---- the planners as users run them --------------------------------------- */

static void run(const char *spec, const ab_problem *p, int64_t *offsets) {
    const ab_planner *pl;
    ab_params prm;
    ab_error err;
    cr_assert_eq(ab_planner_resolve(spec, &pl, &prm, &err), AB_OK);
    ab_problem view;
    ab_plan out;
    ab_plan_stats stats;
    ab_status st = ab_planner_run(pl, &prm, p, &view, &out, &stats, &err);
    cr_assert_eq(st, AB_OK, "%s: %s", spec, err.msg);
    cr_assert_eq(out.n, p->n);
    for (size_t i = 0; i < out.n; i++) offsets[out.v[i].tensor] = out.v[i].offset;
    ab_plan_free(&out);
    ab_problem_free(&view);
    ab_params_free(&prm);
}

static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random problem of n tensors over about n/2 instructions: mostly short
 * live ranges, some long ones, sizes from a small set (so gaps of equal
 * length tie) or irregular, alignments 1, 2, 16 or 64; a few fixed offsets
 * when fixed is set (placed far apart so they never overlap each other). */
static void random_problem(ab_problem *p, uint64_t seed, size_t n, bool fixed) {
    uint64_t s = seed;
    ab_problem_init(p);
    int64_t span = (int64_t)(n / 2 + 1);
    static const int64_t sizes[] = {16, 32, 48, 64, 100, 128, 256};
    static const int64_t aligns[] = {1, 2, 16, 64};
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%zu", (size_t)(rng_next(&s) % (n * 2 + 1)) * 1000 + i);
        uint64_t r = rng_next(&s);
        int64_t start = (int64_t)(r % (uint64_t)span);
        int64_t len = (r >> 32) % 10 < 8 ? (int64_t)((r >> 40) % 4) : (int64_t)((r >> 40) % (uint64_t)span);
        int64_t size = rng_next(&s) % 2 ? sizes[rng_next(&s) % 7] : 1 + (int64_t)(rng_next(&s) % 300);
        ab_tensor t = {.name = name, .size = size, .logical_bits = size * 8, .start = start,
                       .end = start + len, .align = aligns[rng_next(&s) % 4],
                       .offset = AB_NONE};
        if (fixed && i % 17 == 3) t.offset = 1000000 + (int64_t)i * 4096;
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

/* Every tensor of p at the same offset in got (the planner spec) as in
 * want (the reference). */
static void same_offsets(const ab_problem *p, const char *what, const char *spec,
                         const int64_t *got, const int64_t *want) {
    for (size_t i = 0; i < p->n; i++)
        cr_assert_eq(got[i], want[i], "%s, %s: tensor %s at %lld, the reference says %lld", what,
                     spec, p->t[i].name, (long long)got[i], (long long)want[i]);
}

static void compare_peers(const ab_problem *p, const char *what);

static void compare_all(const ab_problem *p, const char *what) {
    static const char *specs[] = {"first-fit:order=start", "first-fit:order=size",
                                  "first-fit:order=area", "best-fit:order=start",
                                  "best-fit:order=size", "best-fit:order=area"};
    int64_t *got = malloc((p->n + 1) * sizeof *got), *want = malloc((p->n + 1) * sizeof *want);
    cr_assert(got && want);
    for (int k = 0; k < 6; k++) {
        run(specs[k], p, got);
        reference(p, k % 3, k >= 3, want);
        same_offsets(p, what, specs[k], got, want);
    }
    free(got);
    free(want);
}

Test(greedy_scale, random_problems_match_the_plain_greedy) {
    int cases = abt_cases(300, 3000);
    for (int c = 0; c < cases; c++) {
        ab_problem p;
        uint64_t seed = 1000 + (uint64_t)c;
        random_problem(&p, seed, 1 + (size_t)(seed * 7919 % 60), c % 5 == 4);
        char what[64];
        snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
        compare_all(&p, what);
        ab_problem_free(&p);
    }
}

/* Large live sets: many gaps open and close in the treaps. */
Test(greedy_scale, larger_problems_match_the_plain_greedy) {
    int cases = abt_cases(4, 20);
    for (int c = 0; c < cases; c++) {
        ab_problem p;
        uint64_t seed = 77 + (uint64_t)c;
        random_problem(&p, seed, 1500, c % 2 == 1);
        char what[64];
        snprintf(what, sizeof what, "seed %llu, 1500 tensors", (unsigned long long)seed);
        compare_all(&p, what);
        ab_problem_free(&p);
    }
}

/* Every tensor lives through the whole program: one growing stack, so the
 * live set is everything placed and a release never happens. */
Test(greedy_scale, one_clique_matches) {
    ab_problem p;
    ab_problem_init(&p);
    for (int i = 0; i < 300; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%03d", i);
        int64_t size = 1 + (i * 37) % 97;
        ab_tensor t = {.name = name, .size = size, .logical_bits = size * 8, .start = i % 5,
                       .end = 10, .align = i % 3 ? 16 : 1, .offset = AB_NONE};
        cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    }
    compare_all(&p, "clique");
    ab_problem_free(&p);
}

/* Sizes that share no factor and reach 50,000 bytes, alignments up to 4096,
 * and fixed tensors low in the arena, some overlapping each other: the
 * unions of the free-space index merge touching and overlapping ranges and
 * step over gaps that alignments make too small. */
static void coprime_problem(ab_problem *p, uint64_t seed, size_t n) {
    uint64_t s = seed;
    ab_problem_init(p);
    int64_t span = (int64_t)(n / 3 + 1);
    static const int64_t aligns[] = {1, 1, 8, 64, 512, 4096};
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "u%zu", i);
        uint64_t r = rng_next(&s);
        int64_t start = (int64_t)(r % (uint64_t)span);
        int64_t len = (r >> 32) % 4 ? (int64_t)((r >> 40) % 3) : (int64_t)((r >> 40) % (uint64_t)span);
        int64_t size = 1 + (int64_t)(rng_next(&s) % 50000);
        ab_tensor t = {.name = name, .size = size, .logical_bits = size * 8, .start = start,
                       .end = start + len, .align = aligns[rng_next(&s) % 6], .offset = AB_NONE};
        if (rng_next(&s) % 11 == 0) t.offset = (int64_t)(rng_next(&s) % 200000);
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

Test(greedy_scale, coprime_sizes_large_aligns_and_low_fixed_tensors_match) {
    int cases = abt_cases(200, 2000);
    for (int c = 0; c < cases; c++) {
        ab_problem p;
        uint64_t seed = 5000 + (uint64_t)c;
        coprime_problem(&p, seed, 2 + (size_t)(seed * 104729 % 120));
        char what[64];
        snprintf(what, sizeof what, "coprime seed %llu", (unsigned long long)seed);
        compare_all(&p, what);
        ab_problem_free(&p);
    }
}

/* Instructions far apart and near the largest time accepted (2^62): the
 * free-space index ranks the tensors' starts and ends with a radix sort,
 * which then takes every one of its passes. A strictly increasing map of
 * the instructions changes no conflict, so the plain greedy still says
 * what the offsets must be. */
static int64_t far(int64_t t) { /* t < 128; increasing, low bits scrambled */
    return AB_MAX_SIZE - (128 - t) * ((int64_t)1 << 49) +
           (int64_t)(((uint64_t)t * 0x9E3779B97F4A7C15ull) >> 25);
}

Test(greedy_scale, instructions_near_2_to_the_62_match) {
    int cases = abt_cases(40, 400);
    for (int c = 0; c < cases; c++) {
        ab_problem p;
        uint64_t seed = 31000 + (uint64_t)c;
        if (c % 2) coprime_problem(&p, seed, 2 + (size_t)(seed * 7919 % 90));
        else random_problem(&p, seed, 2 + (size_t)(seed * 7919 % 90), c % 4 == 2);
        for (size_t i = 0; i < p.n; i++) {
            cr_assert_lt(p.t[i].end, 128); /* random_problem's ends reach 90 */
            p.t[i].start = far(p.t[i].start);
            p.t[i].end = far(p.t[i].end);
        }
        char what[64];
        snprintf(what, sizeof what, "far seed %llu", (unsigned long long)seed);
        compare_all(&p, what);
        compare_peers(&p, what);
        ab_problem_free(&p);
    }
}

/* A malformed problem (an end before its start) is the caller's to reject,
 * but some callers plan before they check (the ILP's incumbents): the
 * greedy paths must stay inside their arrays on it (ASan watches). */
Test(greedy_scale, an_end_before_its_start_stays_in_bounds) {
    ab_problem p;
    ab_problem_init(&p);
    static const int64_t se[][2] = {{4, 3}, {1, 1}, {9, 0}, {5, 7}};
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "m%d", i);
        ab_tensor t = {.name = name, .size = 16 + i, .logical_bits = (16 + i) * 8,
                       .start = se[i][0], .end = se[i][1], .align = 1, .offset = AB_NONE};
        cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    }
    int64_t off[4];
    for (int fixed = 0; fixed < 2; fixed++) { /* program order: the sweep, then the index */
        p.t[3].offset = fixed ? 64 : AB_NONE;
        for (int order = ABP_ORDER_START; order <= ABP_ORDER_AREA; order++)
            for (int fit = 0; fit < 2; fit++)
                cr_assert_eq(abp_greedy(&p, (abp_order)order, fit ? ABP_FIT_BEST : ABP_FIT_FIRST,
                                        off, NULL),
                             AB_OK);
    }
    ab_problem_free(&p);
}

/* ---- the peers' greedy planners on the same index ------------------------- */

/* TFLM's order: decreasing rounded size, the later tensor first. */
static const int64_t *g_rsize;

static int tflm_ref_cmp(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (g_rsize[a] != g_rsize[b]) return g_rsize[a] > g_rsize[b] ? -1 : 1;
    return (a < b) - (a > b);
}

/* The TFLite GPU delegate's order: decreasing size, ties in suite order. */
static int gpu_ref_cmp(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (g_p->t[a].size != g_p->t[b].size) return g_p->t[a].size > g_p->t[b].size ? -1 : 1;
    return (a > b) - (a < b);
}

/* The delegate's walk, written out again: the smallest gap between the
 * running top and the next range that holds the tensor, else the top. */
static bool gpu_ref_rule(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                         int64_t *offset) {
    int64_t prev = 0, best = -1, best_gap = 0;
    for (size_t j = 0; j < n; j++) {
        int64_t at = (prev + align - 1) / align * align;
        if (busy[j].lo >= prev && at + size <= busy[j].lo &&
            (best < 0 || busy[j].lo - prev < best_gap)) {
            best = at;
            best_gap = busy[j].lo - prev;
        }
        if (busy[j].hi > prev) prev = busy[j].hi;
    }
    *offset = best >= 0 ? best : (prev + align - 1) / align * align;
    return true;
}

/* Plain O(n^2) peers: every placed conflict gathered and sorted, each
 * placed range [offset, end) with end its offset plus the rounded size
 * (tflm) or its end rounded up to end_align (gpu). */
static void peer_reference(const ab_problem *p, bool gpu, int64_t param, int64_t *off) {
    int64_t *end = malloc((p->n + 1) * sizeof *end), *rsize = malloc((p->n + 1) * sizeof *rsize);
    size_t *idx = malloc((p->n + 1) * sizeof *idx), m = 0;
    bool *placed = calloc(p->n + 1, sizeof *placed);
    abp_busy *busy = malloc((p->n + 1) * sizeof *busy);
    cr_assert(end && rsize && idx && placed && busy);
    for (size_t i = 0; i < p->n; i++) {
        rsize[i] = gpu ? p->t[i].size : (p->t[i].size + param - 1) / param * param;
        if (p->t[i].offset != AB_NONE) {
            off[i] = p->t[i].offset;
            placed[i] = true;
        } else {
            idx[m++] = i;
        }
    }
    for (size_t i = 0; i < p->n; i++)
        if (placed[i])
            end[i] = gpu ? (off[i] + rsize[i] + param - 1) / param * param : off[i] + rsize[i];
    g_p = p;
    g_rsize = rsize;
    qsort(idx, m, sizeof *idx, gpu ? gpu_ref_cmp : tflm_ref_cmp);
    for (size_t r = 0; r < m; r++) {
        size_t i = idx[r], k = 0;
        for (size_t j = 0; j < p->n; j++)
            if (placed[j] && ab_conflict(&p->t[i], &p->t[j])) busy[k++] = (abp_busy){off[j], end[j], j};
        qsort(busy, k, sizeof *busy, busy_cmp);
        bool ok = gpu ? gpu_ref_rule(busy, k, rsize[i], p->t[i].align, &off[i])
                      : abp_rule_first_fit(busy, k, rsize[i], p->t[i].align, &off[i]);
        cr_assert(ok);
        placed[i] = true;
        end[i] = gpu ? (off[i] + rsize[i] + param - 1) / param * param : off[i] + rsize[i];
    }
    free(end);
    free(rsize);
    free(idx);
    free(placed);
    free(busy);
}

static void compare_peers(const ab_problem *p, const char *what) {
    static const struct {
        bool gpu;
        int64_t param;
        const char *spec;
    } peers[] = {{false, 1, "tflm-greedy:round=1"},
                 {false, 16, "tflm-greedy"},
                 {false, 48, "tflm-greedy:round=48"},
                 {true, 1, "tflite-gpu-greedy-by-size"},
                 {true, 64, "tflite-gpu-greedy-by-size:align=64"}};
    int64_t *got = malloc((p->n + 1) * sizeof *got), *want = malloc((p->n + 1) * sizeof *want);
    cr_assert(got && want);
    for (size_t k = 0; k < sizeof peers / sizeof peers[0]; k++) {
        run(peers[k].spec, p, got);
        peer_reference(p, peers[k].gpu, peers[k].param, want);
        same_offsets(p, what, peers[k].spec, got, want);
    }
    free(got);
    free(want);
}

/* Case c of the peers' sweeps: coprime sizes on odd cases, the small-size
 * family on even ones (with fixed tensors on every fourth). */
static void mixed_problem(ab_problem *p, uint64_t seed, int c) {
    size_t n = 1 + (size_t)(seed * 7919 % 90);
    if (c % 2) coprime_problem(p, seed, n);
    else random_problem(p, seed, n, c % 4 == 2);
}

Test(greedy_scale, tflm_and_tflite_gpu_match_their_plain_greedy) {
    int cases = abt_cases(150, 1500);
    for (int c = 0; c < cases; c++) {
        ab_problem p;
        uint64_t seed = 9000 + (uint64_t)c;
        mixed_problem(&p, seed, c);
        char what[64];
        snprintf(what, sizeof what, "peer seed %llu", (unsigned long long)seed);
        compare_peers(&p, what);
        ab_problem_free(&p);
    }
}

/* USMP's greedy planners with one unbounded pool, plain: the order (size,
 * then conflicts, then name, all decreasing; by-conflicts: conflicts first),
 * then each tensor on top of its placed conflicts, each conflict's end
 * rounded up to its own align, the top rounded up to the tensor's align. */
static int usmp_ref_cmp(const void *pa, const void *pb) {
    const size_t *a = pa, *b = pb; /* {conflicts, index} pairs by address */
    const ab_tensor *x = &g_p->t[a[1]], *y = &g_p->t[b[1]];
    int64_t k1x = g_order ? (int64_t)a[0] : x->size, k1y = g_order ? (int64_t)b[0] : y->size;
    int64_t k2x = g_order ? x->size : (int64_t)a[0], k2y = g_order ? y->size : (int64_t)b[0];
    if (k1x != k1y) return k1x > k1y ? -1 : 1;
    if (k2x != k2y) return k2x > k2y ? -1 : 1;
    return -strcmp(x->name, y->name);
}

static void usmp_reference(const ab_problem *p, bool by_conflicts, int64_t *off) {
    size_t *key = malloc((2 * p->n + 2) * sizeof *key), m = 0;
    bool *placed = calloc(p->n + 1, sizeof *placed);
    cr_assert(key && placed);
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset != AB_NONE) {
            off[i] = p->t[i].offset;
            placed[i] = true;
            continue;
        }
        size_t c = 0;
        for (size_t j = 0; j < p->n; j++) c += j != i && ab_conflict(&p->t[i], &p->t[j]);
        key[2 * m] = c;
        key[2 * m + 1] = i;
        m++;
    }
    g_p = p;
    g_order = by_conflicts;
    qsort(key, m, 2 * sizeof *key, usmp_ref_cmp);
    for (size_t r = 0; r < m; r++) {
        size_t i = key[2 * r + 1];
        int64_t top = 0;
        for (size_t j = 0; j < p->n; j++)
            if (placed[j] && ab_conflict(&p->t[i], &p->t[j])) {
                int64_t a = p->t[j].align, end = (off[j] + p->t[j].size + a - 1) / a * a;
                if (end > top) top = end;
            }
        off[i] = (top + p->t[i].align - 1) / p->t[i].align * p->t[i].align;
        placed[i] = true;
    }
    free(key);
    free(placed);
}

Test(greedy_scale, usmp_greedy_planners_match_their_plain_greedy) {
    int cases = abt_cases(150, 1500);
    for (int c = 0; c < cases; c++) {
        ab_problem p;
        uint64_t seed = 12000 + (uint64_t)c;
        mixed_problem(&p, seed, c);
        int64_t *got = malloc((p.n + 1) * sizeof *got), *want = malloc((p.n + 1) * sizeof *want);
        cr_assert(got && want);
        for (int k = 0; k < 2; k++) {
            const char *spec = k ? "usmp-greedy-by-conflicts" : "usmp-greedy-by-size";
            run(spec, &p, got);
            usmp_reference(&p, k == 1, want);
            char what[64];
            snprintf(what, sizeof what, "seed %llu", (unsigned long long)seed);
            same_offsets(&p, what, spec, got, want);
        }
        free(got);
        free(want);
        ab_problem_free(&p);
    }
}
