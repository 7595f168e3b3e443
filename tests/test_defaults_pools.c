/*
 * test_defaults_pools.c — every planner honours `pools:` (issue 13, part 4):
 * a planner without pool support plans through the spill rule (planners/
 * spill.c): into the first pool, what passes its size spills to the next,
 * largest first. Each plan is judged by the checker, never by the planner:
 * valid, each pool within its size.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/suite.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

static void load(const char *yaml, ab_problem *p) {
    ab_error err;
    const char *path = abt_write_tmp(yaml, ".yaml");
    cr_assert_eq(abf_suite_load(path, p, &err), AB_OK, "%s\n%s", err.msg, yaml);
}

/* Plans p with spec through ab_planner_run and checks the plan. */
static abo_report plan_checked(const char *spec, const ab_problem *p, ab_plan *plan,
                               ab_problem *view, ab_plan_stats *st) {
    const ab_planner *pl;
    ab_params prm;
    ab_error err;
    cr_assert_eq(ab_planner_resolve(spec, &pl, &prm, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(ab_planner_run(pl, &prm, p, view, plan, st, &err), AB_OK, "%s: %s", spec,
                 err.msg);
    abo_report r;
    cr_assert_eq(abo_check(view, plan, &r, &err), AB_OK, "%s", err.msg);
    ab_params_free(&prm);
    return r;
}

/* The offset the plan gives tensor i of view. */
static int64_t offset_of(const ab_plan *pl, size_t i) {
    for (size_t k = 0; k < pl->n; k++)
        if (pl->v[k].tensor == i) return pl->v[k].offset;
    cr_assert_fail("tensor %zu has no offset", i);
    return -1;
}

Test(defaults_pools, spills_the_largest_tensors_that_do_not_fit) {
    /* first-fit, ties larger first: y@0, z@70, x@120 pass the 100 bytes of
     * sram by 60; of those above 100, z (50) then x (40) spill, largest
     * first, until 60 bytes are covered; y stays */
    ab_problem p, view;
    load("suite: s\npools: [{name: sram, size: 100}, {name: psram}]\n"
         "tensors:\n  - {name: x, size: 40, start: 0, end: 0}\n"
         "  - {name: y, size: 70, start: 0, end: 0}\n"
         "  - {name: z, size: 50, start: 0, end: 0}\n", &p);
    ab_plan plan;
    ab_plan_stats st;
    abo_report r = plan_checked("first-fit", &p, &plan, &view, &st);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(offset_of(&plan, 1), 0, "y stays in sram");
    cr_assert_geq(offset_of(&plan, 0), 100, "x in psram");
    cr_assert_geq(offset_of(&plan, 2), 100, "z in psram");
    cr_assert_eq(r.pool_used[0], 70);
    cr_assert_eq(r.pool_used[1], 90);
    cr_assert_eq(r.arena, 160, "the arena with pools is the sum of the pools' used bytes");
    HAS(st.note, "spill: sram 1 tensors 70 B, psram 2 tensors 90 B");
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

Test(defaults_pools, a_tensor_larger_than_the_first_pool_goes_to_the_next) {
    ab_problem p, view;
    load("suite: s\npools: [{name: sram, size: 32}, {name: psram}]\n"
         "tensors:\n  - {name: big, size: 64, start: 0, end: 1}\n"
         "  - {name: small, size: 16, start: 1, end: 2}\n", &p);
    ab_plan plan;
    ab_plan_stats st;
    abo_report r = plan_checked("best-fit:order=size", &p, &plan, &view, &st);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(offset_of(&plan, 0), 32, "big at psram's 0");
    cr_assert_eq(offset_of(&plan, 1), 0, "small in sram");
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

Test(defaults_pools, fixed_offsets_stay_in_their_pool) {
    /* f is fixed at psram's 0 (joint 64); b spills to psram and goes above f */
    ab_problem p, view;
    load("suite: s\npools: [{name: sram, size: 64}, {name: psram}]\n"
         "tensors:\n  - {name: a, size: 64, start: 0, end: 1}\n"
         "  - {name: b, size: 64, start: 1, end: 2}\n"
         "  - {name: f, size: 32, start: 0, end: 3, offset: 64}\n", &p);
    ab_plan plan;
    ab_plan_stats st;
    abo_report r = plan_checked("first-fit", &p, &plan, &view, &st);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(offset_of(&plan, 0), 0);
    cr_assert_eq(offset_of(&plan, 1), 96);
    cr_assert_eq(offset_of(&plan, 2), 64);
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

Test(defaults_pools, drops_the_planners_proofs_about_one_arena) {
    ab_problem p, view;
    load("suite: s\npools: [{name: sram, size: 64}, {name: psram}]\n"
         "tensors:\n  - {name: a, size: 48, start: 0, end: 1}\n"
         "  - {name: b, size: 48, start: 1, end: 2}\n", &p);
    ab_plan plan;
    ab_plan_stats st;
    abo_report r = plan_checked("exact-cover", &p, &plan, &view, &st);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_not(st.proven_optimal);
    cr_assert_eq(st.lower_bound, AB_NONE);
    cr_assert_eq(r.pool_used[0], 48);
    cr_assert_eq(r.pool_used[1], 48);
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

/* A model suite (MobileNet v1) given an SRAM of half its peak live bytes and
 * an unbounded PSRAM: every planner (exact ones on deterministic budgets)
 * gives a valid plan that uses both pools and keeps SRAM within its size. */
Test(defaults_pools, every_planner_plans_a_model_in_two_pools) {
    char *text = abt_slurp(abt_src("suites/models/mobilenet-v1-int8.yaml"), NULL);
    cr_assert_not_null(text);
    ab_problem p, view;
    load(text, &p);
    abo_bounds b;
    cr_assert_eq(abo_bounds_compute(&p, &b, NULL), AB_OK);
    int64_t sram = b.max_load / 2 / 16 * 16;
    ab_problem_free(&p);
    size_t len = strlen(text) + 256;
    char *pooled = malloc(len);
    snprintf(pooled, len, "%s\npools:\n  - {name: sram, size: %lld}\n  - {name: psram}\n", text,
             (long long)sram);
    load(pooled, &p);
    const char *specs[] = {"first-fit", "first-fit:order=size", "best-fit", "best-fit:order=size",
                           "tflm-greedy", "tflite-gpu-greedy-by-size", "usmp-greedy-by-size",
                           "usmp-greedy-by-conflicts", "usmp-hill-climb",
                           "exact-cover:nodes=20000", "canonical:nodes=20000",
                           "ilp:nodes=50"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        ab_plan plan;
        ab_plan_stats st;
        abo_report r = plan_checked(specs[i], &p, &plan, &view, &st);
        cr_assert_eq(r.verdict, ABO_OK, "%s: %s", specs[i], r.msg);
        cr_assert_gt(r.pool_used[0], 0, "%s: nothing in sram", specs[i]);
        cr_assert_leq(r.pool_used[0], sram, "%s", specs[i]);
        cr_assert_gt(r.pool_used[1], 0, "%s: nothing in psram", specs[i]);
        cr_assert_geq(r.arena, b.max_load, "%s", specs[i]);
        ab_plan_free(&plan);
        ab_problem_free(&view);
    }
    ab_problem_free(&p);
    free(pooled);
    free(text);
}
