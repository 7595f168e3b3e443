/*
 * test_hillclimb_scale.c — usmp-hill-climb at scale (issue 14 part 3): the
 * planner with CSR conflict lists and incremental attempts gives, byte for
 * byte, the plans of the full re-plan it replaced (kept as a test-only
 * reference in tests/usmp_hill_climb_reference.c) on random suites of up to
 * a few thousand tensors, with pools, limits, fixed offsets and mixed
 * alignments; and a suite with more conflicting pairs than max-pairs stops
 * with a limit status, not an out-of-memory.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/minimalloc.h"
#include "tests/planning.h"
#include "tests/support.h"

#include "tests/usmp_hill_climb_reference.c"

static void register_reference(void) {
    cr_assert_eq(ab_planner_register(&ref_usmp_hill_climb), AB_OK);
}

/* A small deterministic generator (splitmix64) for the suites. */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int64_t rng_in(uint64_t *s, int64_t lo, int64_t hi) {
    return lo + (int64_t)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

/* A random suite of n tensors from case number k: live ranges over a
 * program of about n / 4 steps (so the live set grows with n), sizes from a
 * small set (ties) or wide, sometimes mixed alignments, a few fixed offsets,
 * (without pools: a fixed tensor across two pools would be its own error)
 * and sometimes two or three pools, bounded so that some attempts find no
 * room. */
static void random_suite(ab_problem *p, size_t n, uint64_t k) {
    uint64_t s = 0x1234u + k * 7919u;
    int shape = (int)(k % 4);
    int64_t steps = (int64_t)n / 4 + 2, nfixed = 0;
    ab_problem_init(p);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%zu", i);
        ab_tensor t;
        memset(&t, 0, sizeof t);
        t.name = name;
        t.start = rng_in(&s, 0, steps - 1);
        t.end = t.start + (rng_in(&s, 0, 9) < 8 ? rng_in(&s, 0, 6) : rng_in(&s, 0, steps / 3));
        t.size = shape == 0 ? 16 * rng_in(&s, 1, 4) : rng_in(&s, 1, 5000);
        t.align = shape == 2 ? (int64_t)1 << rng_in(&s, 0, 6) : 1;
        t.offset = AB_NONE;
        if (shape == 3 && k / 4 % 3 == 0 && rng_in(&s, 0, 49) == 0) t.offset = 8192 * nfixed++; /* apart */
        t.kind = AB_KIND_INTERMEDIATE;
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
    int npools = (int)(k / 4 % 3);
    if (npools > 0) {
        int64_t load = abt_max_load(p);
        p->npools = (size_t)npools + 1;
        p->pools = calloc(p->npools, sizeof *p->pools);
        cr_assert_not_null(p->pools);
        for (size_t q = 0; q < p->npools; q++) {
            char name[16];
            snprintf(name, sizeof name, "pool%zu", q);
            p->pools[q].name = ab_strdup(name);
            /* the first pools hold part of the load; the last is unbounded, or
             * (every other case) bounded near the load so room can run out */
            p->pools[q].size = q + 1 < p->npools ? load / (int64_t)(3 + q) + 1
                               : (k / 12 % 2) ? load + load / 4 + 64 : AB_NONE;
        }
    }
}

/* Plans p with the planner and the reference under the same parameters and
 * asserts the same status, message, offsets and figures. */
static void same_as_reference(const ab_problem *p, const char *params, const char *what) {
    char spec[160], ref[160];
    snprintf(spec, sizeof spec, "usmp-hill-climb%s", params);
    snprintf(ref, sizeof ref, "usmp-hill-climb-reference%s", params);
    size_t n = p->n ? p->n : 1;
    int64_t *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b);
    cr_assert(a && b);
    ab_plan_stats sa, sb;
    ab_error ea, eb;
    memset(&ea, 0, sizeof ea);
    memset(&eb, 0, sizeof eb);
    ab_status ra = abt_plan(spec, p, a, &sa, &ea), rb = abt_plan(ref, p, b, &sb, &eb);
    cr_assert_eq(ra, rb, "%s: status %d, the reference %d (%s | %s)", what, ra, rb, ea.msg,
                 eb.msg);
    if (ra != AB_OK) {
        cr_assert_str_eq(ea.msg, eb.msg, "%s: %s | %s", what, ea.msg, eb.msg);
    } else {
        cr_assert_eq(memcmp(a, b, p->n * sizeof *a), 0, "%s: the offsets differ", what);
        cr_assert_str_eq(sa.note, sb.note, "%s", what);
        cr_assert_eq(sa.nodes, sb.nodes, "%s", what);
        abo_verdict v = abt_judge(p, a, NULL);
        cr_assert_eq(v, ABO_OK, "%s: the plan is invalid: %d", what, (int)v);
    }
    free(a);
    free(b);
}

Test(hillclimb_scale, same_plans_as_the_full_replan_on_small_random_suites) {
    register_reference();
    int cases = abt_cases(48, 400);
    for (int k = 0; k < cases; k++) {
        ab_problem p;
        size_t n = (size_t)(3 + k * 7 % 120);
        random_suite(&p, n, (uint64_t)k);
        char what[64], params[64];
        snprintf(what, sizeof what, "case %d (%zu tensors)", k, n);
        snprintf(params, sizeof params, ":seed=%d", k % 5);
        same_as_reference(&p, params, what);
        ab_problem_free(&p);
    }
}

Test(hillclimb_scale, same_plans_as_the_full_replan_on_random_suites_of_thousands) {
    register_reference();
    static const size_t sizes[] = {600, 1500, 3000};
    int cases = abt_cases(3, 24);
    for (int k = 0; k < cases; k++) {
        ab_problem p;
        size_t n = sizes[k % 3];
        random_suite(&p, n, (uint64_t)k + 1000);
        char what[64];
        snprintf(what, sizeof what, "case %d (%zu tensors)", k, n);
        same_as_reference(&p, ":iterations=60,seed=3", what);
        ab_problem_free(&p);
    }
}

Test(hillclimb_scale, same_plan_as_the_full_replan_on_the_resnet50_training_trace) {
    const char *data = abt_shared_data();
    if (data == NULL) cr_skip("../shared/data is absent: the idealloc traces are not here");
    char path[4096];
    snprintf(path, sizeof path, "%s/idealloc/somas_resnet50.csv", data);
    ab_problem p;
    ab_error err;
    if (abf_minimalloc_load(path, &p, NULL, &err) != AB_OK)
        cr_skip("%s cannot be read: %s", path, err.msg);
    register_reference();
    same_as_reference(&p, ":iterations=30", "somas_resnet50");
    ab_problem_free(&p);
}

Test(hillclimb_scale, more_pairs_than_max_pairs_stop_with_a_limit_status) {
    ab_problem p;
    ab_problem_init(&p);
    for (int i = 0; i < 100; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        ab_tensor t = {.name = name, .size = 8, .start = i % 3, .end = 50, .align = 1,
                       .offset = AB_NONE, .kind = AB_KIND_INTERMEDIATE};
        cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    }
    int64_t off[100];
    ab_error err;
    cr_assert_eq(abt_plan("usmp-hill-climb:max-pairs=4949", &p, off, NULL, &err), AB_ELIMIT);
    cr_assert(strstr(err.msg, "100 tensors with 4950 conflicting pairs, more than "
                              "max-pairs=4949") != NULL, "%s", err.msg);
    cr_assert_eq(abt_plan("usmp-hill-climb:max-pairs=4950", &p, off, NULL, &err), AB_OK, "%s",
                 err.msg);
    cr_assert_eq(abt_judge(&p, off, NULL), ABO_OK);
    ab_problem_free(&p);
}
