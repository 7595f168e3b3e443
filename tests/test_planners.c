/*
 * test_planners.c — first-fit and best-fit: known placements, orders,
 * alignment, fixed offsets, determinism, and validity on random problems
 * (judged by a plain O(n^2) check written here, not by the oracle).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/problem.h"
#include "core/sort.h"
#include "planners/planner.h"
#include "tests/planning.h"
#include "tests/support.h"

#define T(nm, sz, s, e, ...) \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1, \
                 .offset = AB_NONE, .logical_bits = (sz) * 8, __VA_ARGS__})

static void make(ab_problem *p, const ab_tensor *t, size_t n) {
    ab_problem_init(p);
    for (size_t i = 0; i < n; i++) cr_assert_eq(ab_problem_add(p, &t[i], NULL), AB_OK);
}

/* Plans p with spec into offsets (p->n entries; p has no I/O tensors). */
static ab_status plan(const char *spec, const ab_problem *p, int64_t *offsets, ab_error *err) {
    const ab_planner *pl;
    ab_params prm;
    ab_status st = ab_planner_resolve(spec, &pl, &prm, err);
    if (st != AB_OK) return st;
    ab_problem view;
    ab_plan out;
    ab_plan_stats stats;
    st = ab_planner_run(pl, &prm, p, &view, &out, &stats, err);
    if (st == AB_OK) {
        cr_assert_eq(out.n, p->n);
        for (size_t i = 0; i < out.n; i++) offsets[out.v[i].tensor] = out.v[i].offset;
    }
    ab_plan_free(&out);
    ab_problem_free(&view);
    ab_params_free(&prm);
    return st;
}

static int64_t arena_of(const ab_problem *p, const int64_t *off) {
    int64_t a = 0;
    for (size_t i = 0; i < p->n; i++)
        if (off[i] + p->t[i].size > a) a = off[i] + p->t[i].size;
    return a;
}

/* The plain reference: every pair, every rule. Returns NULL or what is wrong. */
static const char *plain_check(const ab_problem *p, const int64_t *off) {
    static char why[256];
    for (size_t i = 0; i < p->n; i++) {
        if (off[i] < 0 || off[i] % p->t[i].align != 0) return "misaligned";
        if (p->t[i].offset != AB_NONE && off[i] != p->t[i].offset) return "fixed offset moved";
        for (size_t j = i + 1; j < p->n; j++) {
            if (!ab_conflict(&p->t[i], &p->t[j])) continue;
            if (off[i] < off[j] + p->t[j].size && off[j] < off[i] + p->t[i].size) {
                snprintf(why, sizeof why, "%s and %s overlap", p->t[i].name, p->t[j].name);
                return why;
            }
        }
    }
    return NULL;
}

/* first-fit in program order leaves a hole: a (2 bytes, [0,1]) goes at 0, b
 * (1 byte, [0,3]) above it at 2, and c (3 bytes, [2,3]) cannot use [0,2). */
static const ab_tensor hole[] = {T("a", 2, 0, 1), T("b", 1, 0, 3), T("c", 3, 2, 3)};

Test(first_fit, program_order_leaves_a_hole) {
    ab_problem p;
    make(&p, hole, 3);
    int64_t off[3];
    cr_assert_eq(plan("first-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 2);
    cr_assert_eq(off[2], 3);
    cr_assert_eq(arena_of(&p, off), 6);
    cr_assert_eq(plan("first-fit:order=size", &p, off, NULL), AB_OK);
    cr_assert_eq(arena_of(&p, off), 4, "decreasing size reaches the optimum 4");
    ab_problem_free(&p);
}

/* Busy [0,10), [20,30), [34,40) by fixed tensors; a 3-byte tensor goes in
 * the first gap for first-fit and the smallest gap for best-fit. */
static const ab_tensor gaps[] = {T("f0", 10, 0, 5, .offset = 0), T("f1", 10, 0, 5, .offset = 20),
                                 T("f2", 6, 0, 5, .offset = 34), T("x", 3, 0, 5)};

Test(best_fit, takes_the_smallest_gap_that_holds_the_tensor) {
    ab_problem p;
    make(&p, gaps, 4);
    int64_t off[4];
    cr_assert_eq(plan("first-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(off[3], 10);
    cr_assert_eq(plan("best-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(off[3], 30);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 20);
    cr_assert_eq(off[2], 34);
    p.t[3].size = 12; /* no gap holds it: on top */
    cr_assert_eq(plan("best-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(off[3], 40);
    ab_problem_free(&p);
}

Test(best_fit, breaks_gap_ties_by_lowest_offset) {
    ab_tensor t[] = {T("f0", 4, 0, 1, .offset = 4), T("f1", 4, 0, 1, .offset = 12), T("x", 4, 0, 1)};
    ab_problem p;
    make(&p, t, 3);
    int64_t off[3];
    cr_assert_eq(plan("best-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(off[2], 0);
    ab_problem_free(&p);
}

Test(first_fit, aligns_offsets) {
    ab_tensor t[] = {T("a", 3, 0, 1), T("b", 8, 1, 2, .align = 8), T("c", 1, 2, 2, .align = 4)};
    ab_problem p;
    make(&p, t, 3);
    int64_t off[3];
    cr_assert_eq(plan("first-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 8);
    cr_assert_eq(off[2], 0);
    ab_problem_free(&p);
}

Test(first_fit, touching_ranges_conflict) {
    ab_tensor t[] = {T("a", 4, 0, 2), T("b", 4, 2, 3)};
    ab_problem p;
    make(&p, t, 2);
    int64_t off[2];
    cr_assert_eq(plan("first-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(arena_of(&p, off), 8);
    p.t[1].start = 3;
    cr_assert_eq(plan("first-fit", &p, off, NULL), AB_OK);
    cr_assert_eq(arena_of(&p, off), 4);
    ab_problem_free(&p);
}

Test(planners, reject_bad_specs_with_the_choices) {
    ab_error err;
    int64_t off[1];
    ab_problem p;
    make(&p, hole, 1);
    cr_assert_eq(plan("first-fit:order=random", &p, off, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "start, size or area") != NULL, "%s", err.msg);
    cr_assert_eq(plan("first-fit:k=3", &p, off, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "takes no parameter 'k' (it takes: order)") != NULL, "%s", err.msg);
    cr_assert_eq(plan("worst-fit", &p, off, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "first-fit, best-fit") != NULL, "%s", err.msg);
    ab_problem_free(&p);
}

Test(planners, report_arena_overflow_instead_of_wrapping) {
    int64_t big = AB_MAX_SIZE;
    ab_tensor t[] = {T("a", 1, 0, 1, .size = big), T("b", 1, 0, 1, .size = big), T("c", 1, 0, 1, .size = big)};
    ab_problem p;
    make(&p, t, 3);
    int64_t off[3];
    ab_error err;
    const char *specs[] = {"first-fit", "best-fit"};
    for (int s = 0; s < 2; s++) {
        cr_assert_eq(plan(specs[s], &p, off, &err), AB_EINPUT, "%s", specs[s]);
        cr_assert(strstr(err.msg, "overflows") != NULL, "%s", err.msg);
    }
    ab_problem_free(&p);
}

/* A deterministic generator (xorshift) of random problems. */
static uint64_t rng;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void random_problem(ab_problem *p, size_t n, bool fixed) {
    static char names[256][24];
    ab_problem_init(p);
    int64_t horizon = 2 + (int64_t)(next() % 40);
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "t%zu", i);
        int64_t s = (int64_t)(next() % (uint64_t)horizon);
        int64_t e = s + (int64_t)(next() % 6);
        int64_t sz = 1 + (int64_t)(next() % 100);
        ab_tensor t = T(names[i], sz, s, e, .align = (int64_t)1 << (next() % 5));
        if (fixed && next() % 8 == 0) t.offset = t.align * (int64_t)(next() % 4) * 64;
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
    if (fixed) abt_drop_colliding_fixed(p);
}

static int64_t max_load(const ab_problem *p) {
    int64_t best = 0;
    for (size_t i = 0; i < p->n; i++) {
        int64_t sum = 0;
        for (size_t j = 0; j < p->n; j++)
            if (p->t[j].start <= p->t[i].start && p->t[i].start <= p->t[j].end) sum += p->t[j].size;
        if (sum > best) best = sum;
    }
    return best;
}

Test(planners, give_valid_plans_on_random_problems) {
    const char *specs[] = {"first-fit", "first-fit:order=size", "first-fit:order=area",
                           "best-fit", "best-fit:order=size", "best-fit:order=area"};
    rng = 0x9E3779B97F4A7C15ull;
    int64_t off[256];
    for (int round = 0; round < 400; round++) {
        ab_problem p;
        random_problem(&p, 1 + next() % 60, round % 2 == 1);
        for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
            cr_assert_eq(plan(specs[s], &p, off, NULL), AB_OK);
            const char *why = plain_check(&p, off);
            cr_assert_null(why, "round %d, %s: %s", round, specs[s], why);
            cr_assert_geq(arena_of(&p, off), max_load(&p));
        }
        ab_problem_free(&p);
    }
}

Test(first_fit, program_order_is_optimal_for_equal_sizes) {
    /* Greedy colouring of an interval graph in start order uses as many
     * colours as the largest clique: with equal sizes, arena = max-load. */
    rng = 12345;
    int64_t off[256];
    for (int round = 0; round < 200; round++) {
        ab_problem p;
        random_problem(&p, 1 + next() % 80, false);
        for (size_t i = 0; i < p.n; i++) {
            p.t[i].size = 16;
            p.t[i].align = 1;
        }
        cr_assert_eq(plan("first-fit", &p, off, NULL), AB_OK);
        cr_assert_eq(arena_of(&p, off), max_load(&p), "round %d", round);
        ab_problem_free(&p);
    }
}

Test(planners, are_deterministic_under_input_permutation) {
    rng = 777;
    int64_t a[128], b[128];
    for (int round = 0; round < 50; round++) {
        ab_problem p, q;
        random_problem(&p, 2 + next() % 40, false);
        /* q: the same tensors in reverse order */
        ab_problem_init(&q);
        for (size_t i = p.n; i-- > 0;) cr_assert_eq(ab_problem_add(&q, &p.t[i], NULL), AB_OK);
        const char *specs[] = {"first-fit", "best-fit:order=area"};
        for (int s = 0; s < 2; s++) {
            cr_assert_eq(plan(specs[s], &p, a, NULL), AB_OK);
            cr_assert_eq(plan(specs[s], &q, b, NULL), AB_OK);
            for (size_t i = 0; i < p.n; i++)
                cr_assert_eq(a[i], b[p.n - 1 - i], "round %d %s tensor %zu", round, specs[s], i);
        }
        ab_problem_free(&p);
        ab_problem_free(&q);
    }
}

Test(alloc, planner_fails_cleanly_at_every_allocation) {
    ab_problem p;
    make(&p, gaps, 4);
    int64_t off[4];
    ab_alloc_fail_at(0);
    cr_assert_eq(plan("best-fit", &p, off, NULL), AB_OK);
    long calls = ab_alloc_fail_at(0);
    for (long n = 1; n <= calls; n++) {
        ab_alloc_fail_at(n);
        ab_status st = plan("best-fit", &p, off, NULL);
        ab_alloc_fail_at(0);
        cr_assert(st == AB_ENOMEM, "allocation %ld of %ld gave %d", n, calls, st);
    }
    ab_problem_free(&p);
}

/* ---- plain references of the documented rules -------------------------------
 * O(n^2) versions written from the README's words, to pin the exact offsets
 * the fast paths (the program-order sweep and the conflict index) give. */

typedef struct ref_order {
    const ab_problem *p;
    int order; /* 0 start, 1 size, 2 area */
} ref_order;

static int ref_cmp(const void *pa, const void *pb, const void *ctx) {
    const ref_order *r = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &r->p->t[a], *y = &r->p->t[b];
    __int128 ax = (__int128)x->size * (x->end - x->start + 1);
    __int128 ay = (__int128)y->size * (y->end - y->start + 1);
    if (r->order == 2 && ax != ay) return ax > ay ? -1 : 1;
    if (r->order >= 1 && x->size != y->size) return x->size > y->size ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Places each tensor (fixed ones first) by first-fit (best = false) or
 * best-fit among the placed tensors it conflicts with. */
static void ref_plan(const ab_problem *p, int order, bool best, int64_t *off) {
    size_t idx[256];
    bool placed[256] = {0};
    for (size_t i = 0; i < p->n; i++) idx[i] = i;
    ab_sort(idx, p->n, sizeof *idx, ref_cmp, &(ref_order){.p = p, .order = order});
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i].offset != AB_NONE) off[i] = p->t[i].offset, placed[i] = true;
    for (size_t r = 0; r < p->n; r++) {
        size_t i = idx[r];
        if (placed[i]) continue;
        const ab_tensor *t = &p->t[i];
        /* candidates: 0 and the aligned top of every placed conflict */
        int64_t best_off = -1, best_gap = 0, top = 0;
        for (size_t c = 0; c <= p->n; c++) {
            int64_t cand = 0;
            if (c < p->n) {
                if (!placed[c] || !ab_conflict(t, &p->t[c])) continue;
                cand = off[c] + p->t[c].size;
                if (cand > top) top = cand;
            }
            cand = (cand + t->align - 1) / t->align * t->align;
            int64_t next = INT64_MAX; /* the lowest placed conflict above cand */
            bool clear = true;
            for (size_t d = 0; d < p->n; d++) {
                if (!placed[d] || !ab_conflict(t, &p->t[d])) continue;
                if (off[d] < cand + t->size && cand < off[d] + p->t[d].size) clear = false;
                if (off[d] >= cand && off[d] < next) next = off[d];
            }
            if (!clear) continue;
            if (!best) {
                if (best_off < 0 || cand < best_off) best_off = cand;
                continue;
            }
            if (next == INT64_MAX) continue; /* the open top is not a gap */
            /* the gap holding cand: from the top of what lies below to next */
            int64_t floor_ = 0;
            for (size_t d = 0; d < p->n; d++)
                if (placed[d] && ab_conflict(t, &p->t[d]) && off[d] + p->t[d].size <= cand &&
                    off[d] + p->t[d].size > floor_)
                    floor_ = off[d] + p->t[d].size;
            if ((floor_ + t->align - 1) / t->align * t->align != cand) continue;
            int64_t gap = next - floor_;
            if (best_off < 0 || gap < best_gap || (gap == best_gap && cand < best_off))
                best_off = cand, best_gap = gap;
        }
        if (best_off < 0) best_off = (top + t->align - 1) / t->align * t->align;
        off[i] = best_off;
        placed[i] = true;
    }
}

Test(planners, match_plain_references_of_their_rules) {
    const char *orders[] = {"start", "size", "area"};
    rng = 4242;
    int64_t got[256], want[256];
    for (int round = 0; round < 300; round++) {
        ab_problem p;
        random_problem(&p, 1 + next() % 40, round % 3 == 0);
        for (int o = 0; o < 3; o++)
            for (int b = 0; b < 2; b++) {
                char spec[64];
                snprintf(spec, sizeof spec, "%s:order=%s", b ? "best-fit" : "first-fit", orders[o]);
                cr_assert_eq(plan(spec, &p, got, NULL), AB_OK);
                ref_plan(&p, o, b, want);
                for (size_t i = 0; i < p.n; i++)
                    cr_assert_eq(got[i], want[i], "round %d %s tensor %s: %lld vs reference %lld",
                                 round, spec, p.t[i].name, (long long)got[i], (long long)want[i]);
            }
        ab_problem_free(&p);
    }
}

/* Parameter values are checked from each planner's table when a spec is
 * resolved: a bad value is a usage error before anything runs. */
Test(planners, resolve_refuses_bad_parameter_values) {
    const char *bad[][2] = {
        {"first-fit:order=bogus", "parameter order: expected start, size or area, got 'bogus'"},
        {"exact-cover:k=0", "parameter k"},
        {"exact-cover:time=-1", "expected seconds > 0"},
        {"exact-cover:mem=lots", "parameter mem"},
        {"ilp:gap=150%", "parameter gap"},
        {"ilp:gap=1.5", "parameter gap"},
        {"ilp:ps=maybe", "expected on or off"},
        {"tflm-greedy:round=0", "parameter round"},
        {"usmp-hill-climb:seed=-1", "parameter seed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const ab_planner *pl;
        ab_params prm;
        ab_error err;
        cr_assert_eq(ab_planner_resolve(bad[i][0], &pl, &prm, &err), AB_EINPUT, "%s", bad[i][0]);
        cr_assert(strstr(err.msg, bad[i][1]) != NULL, "%s: %s", bad[i][0], err.msg);
    }
    const char *good[] = {"first-fit:order=area", "ilp:gap=1%,time=0.5", "exact-cover:mem=3G",
                          "usmp-hill-climb:seed=4294967295"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const ab_planner *pl;
        ab_params prm;
        ab_error err;
        cr_assert_eq(ab_planner_resolve(good[i], &pl, &prm, &err), AB_OK, "%s: %s", good[i],
                     err.msg);
        ab_params_free(&prm);
    }
}

Test(planners, run_with_a_bad_value_exits_2_and_writes_nothing) {
    char *dir = abt_tmpdir();
    char args[8192], db[4200], *out, *err;
    snprintf(db, sizeof db, "%s/r.db", dir);
    snprintf(args, sizeof args, "run -q --db '%s' -p first-fit -p first-fit:order=bogus '%s'", db,
             abt_src("suites/examples"));
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", err);
    cr_assert(strstr(err, "parameter order") != NULL, "%s", err);
    cr_assert_eq(access(db, F_OK), -1, "nothing is written");
    free(out), free(err), free(dir);
}

/* run's default set is built from the registry (AB_PLANNER_DEFAULT and the
 * parameters' also_default): the fast planners users pick between, ours in
 * two orders. usmp-hill-climb is left out: its cost grows with tensors x
 * conflicts (a minute on random-10k), so on the big generated suites it
 * would end ok or at the time limit by the machine's load. */
Test(planner_sets, the_default_set_is_the_fast_planners_in_registry_order) {
    static const char *const want[] = {
        "first-fit",           "first-fit:order=size",     "best-fit",
        "best-fit:order=size", "tflm-greedy",              "usmp-greedy-by-size",
        "usmp-greedy-by-conflicts", "tflite-gpu-greedy-by-size", "xla-best-fit",
        "executorch-greedy"};
    char names[64][64];
    int n = ab_planner_set_specs("default", names, 64);
    cr_assert_eq(n, (int)(sizeof want / sizeof *want));
    for (int i = 0; i < n; i++) cr_expect_str_eq(names[i], want[i]);
    cr_assert_eq(ab_planner_set_specs("fastest", names, 64), -1);
}

Test(planner_sets, all_holds_every_planner_not_asked_for_by_name) {
    char names[64][64];
    int n = ab_planner_set_specs("all", names, 64);
    for (size_t i = 0; ab_planner_at(i) != NULL; i++) {
        const ab_planner *pl = ab_planner_at(i);
        bool found = false;
        for (int j = 0; j < n; j++) found |= strcmp(names[j], pl->name) == 0;
        cr_expect_eq(found, (pl->flags & AB_PLANNER_ASK_ONLY) == 0, "%s", pl->name);
    }
    bool size = false;
    for (int j = 0; j < n; j++) size |= strcmp(names[j], "first-fit:order=area") == 0;
    cr_expect(size, "all runs first-fit in each order");
    cr_expect_eq(ab_planner_set_specs("all", names, 2), 2, "no more than max");
}
