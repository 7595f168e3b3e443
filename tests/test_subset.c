/*
 * test_subset.c — the oracle's bounds as certificates (oracle/bound.h: each
 * kind's certificate is checked again by abo_bound_recheck, which must hold
 * for the bound as computed and fail for a value the certificate does not
 * prove; the max-load bound agrees with oracle/bounds.h) and its subset
 * bounds (oracle/subset.h, and abo_bound_subset, which `run --subset-bound`
 * stores): every certificate is re-solved independently (the
 * window rebuilt from the certificate's instructions, its optimum found by
 * the brute force of tests/brute.c), a bound never exceeds the whole
 * problem's optimum, and on problems whose optimum lies above max-load the
 * bound rises above max-load.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness/formats/formats.h"
#include "oracle/bound.h"
#include "oracle/bounds.h"
#include "oracle/ilp.h"
#include "oracle/subset.h"
#include "planners/ilp.h"
#include "planners/planner.h"
#include "tests/brute.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void) {
    rng += 0x9e3779b97f4a7c15u;
    uint64_t z = rng;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int64_t pick(int64_t lo, int64_t hi) { return lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)); }

/* A random problem of n tensors over T instructions, sizes up to smax. */
static void random_problem(ab_problem *p, size_t n, int64_t T, int64_t smax) {
    static char names[16][8];
    ab_problem_init(p);
    p->name = NULL;
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "t%zu", i);
        int64_t s = pick(0, T - 1), e = pick(s, s + pick(0, T / 2));
        int64_t aligns[] = {1, 1, 1, 2, 4, 8};
        ab_tensor t = {.name = names[i], .size = pick(1, smax), .start = s, .end = e,
                       .align = aligns[pick(0, 5)], .offset = AB_NONE,
                       .kind = AB_KIND_INTERMEDIATE};
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

/* Checks r's certificate against p: the window rebuilt and solved by the
 * brute force gives the bound (when GLPK proved the window's optimum) or at
 * least it; the bound is at most the whole optimum and at least max-load. */
static void check_certificate(const ab_problem *p, const abo_subset_result *r, int64_t whole) {
    cr_assert_geq(r->bound, r->max_load);
    cr_assert_leq(r->bound, whole, "a subset bound %lld above the optimum %lld", (long long)r->bound,
                  (long long)whole);
    ab_problem sub;
    cr_assert_eq(abo_subset_window(p, r->first, r->last, &sub, NULL), AB_OK);
    cr_assert_eq(sub.n, r->tensors, "the certificate names %zu tensors, the window holds %zu",
                 r->tensors, sub.n);
    int64_t opt = abt_brute_optimum(&sub, NULL);
    cr_assert_geq(opt, 0);
    if (r->optimal) cr_assert_eq(opt, r->bound, "window [%lld, %lld]", (long long)r->first,
                                 (long long)r->last);
    else cr_assert_geq(opt, r->bound);
    ab_problem_free(&sub);
}

Test(subset, certificates_re_solve_and_never_exceed_the_optimum) {
    int above = 0;
    for (int k = 0; k < 150; k++) {
        ab_problem p;
        random_problem(&p, (size_t)pick(2, 8), pick(3, 12), k % 2 ? 50000 : 64);
        int64_t whole = abt_brute_optimum(&p, NULL);
        cr_assert_geq(whole, 0);
        abo_subset_opts o;
        abo_subset_opts_init(&o);
        o.time_limit = 30; /* generous: these windows are tiny */
        abo_subset_result r;
        cr_assert_eq(abo_subset_bound(&p, &o, &r, NULL), AB_OK);
        abo_bounds b;
        cr_assert_eq(abo_bounds_compute(&p, &b, NULL), AB_OK);
        cr_assert_eq(r.max_load, b.max_load);
        check_certificate(&p, &r, whole);
        /* the whole problem fits in one window here: the bound is the optimum */
        cr_assert_eq(r.bound, whole, "instance %d: bound %lld, optimum %lld", k,
                     (long long)r.bound, (long long)whole);
        above += whole > b.max_load;
        ab_problem_free(&p);
    }
    cr_assert_gt(above, 5, "only %d instances had an optimum above max-load", above);
}

Test(subset, small_windows_still_bound_from_below) {
    for (int k = 0; k < 100; k++) {
        ab_problem p;
        random_problem(&p, (size_t)pick(6, 9), pick(6, 16), 1000);
        int64_t whole = abt_brute_optimum(&p, NULL);
        abo_subset_opts o;
        abo_subset_opts_init(&o);
        o.time_limit = 30;
        o.max_tensors = 4; /* windows smaller than the problem */
        o.peaks = 2;
        abo_subset_result r;
        cr_assert_eq(abo_subset_bound(&p, &o, &r, NULL), AB_OK);
        check_certificate(&p, &r, whole);
        if (r.bound > r.max_load) cr_assert_leq(r.tensors, 4); /* a window's certificate */
        ab_problem_free(&p);
    }
}

/* The subset bound as run computes it: GLPK started from the heuristics'
 * plans (abp_ilp_incumbents), as `run --subset-bound` does. */
static abo_bound subset_bound(const ab_problem *p, double secs) {
    abo_subset_opts o;
    abo_subset_opts_init(&o);
    o.time_limit = secs;
    o.incumbents = abp_ilp_incumbents;
    abo_bound b;
    ab_error err;
    cr_assert_eq(abo_bound_subset(p, &o, &b, &err), AB_OK, "%s", err.msg);
    return b;
}

Test(subset, a_bound_at_max_load_says_so) {
    /* max-load 9 at instruction 2 (b + c); the optimum is 9 too (c at 0, b at
     * 4, a at 0, d at 4): the bound stays max-load and says so. */
    ab_tensor t[] = {
        {.name = "a", .size = 3, .start = 0, .end = 1, .align = 1, .offset = AB_NONE},
        {.name = "b", .size = 5, .start = 1, .end = 2, .align = 1, .offset = AB_NONE},
        {.name = "c", .size = 4, .start = 2, .end = 3, .align = 4, .offset = AB_NONE},
        {.name = "d", .size = 4, .start = 0, .end = 0, .align = 4, .offset = AB_NONE},
    };
    ab_problem p;
    ab_problem_init(&p);
    for (size_t i = 0; i < 4; i++) cr_assert_eq(ab_problem_add(&p, &t[i], NULL), AB_OK);
    abo_bound b = subset_bound(&p, 20);
    cr_assert_eq(b.kind, ABO_BOUND_SUBSET);
    cr_assert_eq(b.value, abt_brute_optimum(&p, NULL), "%s", b.certificate);
    cr_assert_eq(b.value, 9);
    cr_assert_str_eq(b.certificate, "window 2..2 (2 tensors, no window above max-load)");
    ab_problem_free(&p);
}

Test(subset, proves_a_bound_above_max_load) {
    /* Found by the brute force: a problem whose optimum lies above max-load;
     * the bound must reach it and name a window. */
    for (int k = 0; k < 400; k++) {
        ab_problem p;
        random_problem(&p, (size_t)pick(4, 7), pick(4, 8), 40);
        int64_t whole = abt_brute_optimum(&p, NULL);
        abo_bounds f;
        cr_assert_eq(abo_bounds_compute(&p, &f, NULL), AB_OK);
        if (whole <= f.max_load) {
            ab_problem_free(&p);
            continue;
        }
        abo_bound b = subset_bound(&p, 30);
        cr_assert_eq(b.value, whole, "%s", b.certificate);
        cr_assert(strncmp(b.certificate, "window ", 7) == 0 &&
                      strstr(b.certificate, "max-load") == NULL, "%s", b.certificate);
        ab_problem_free(&p);
        return;
    }
    cr_assert_fail("no instance with an optimum above max-load was drawn");
}

/* 22 tensors of face_detection_short_range (a window of its first 28
 * instructions, unit 16 B) on which GLPK, with the mirror fix and no
 * incumbent, answered "no plan of arena <= the stacked arena exists": a
 * numerical failure. The ILP must now say it failed (never a bound), and the
 * subset bound must stay at most a valid plan's arena. */
Test(subset, a_numerical_no_plan_from_glpk_is_never_a_bound) {
    static const struct {
        const char *name;
        int64_t size, start, end;
    } t[] = {
        {"conv2d", 393216, 2, 3},           {"activation", 393216, 3, 10},
        {"depthwise_conv2d", 393216, 6, 9}, {"conv2d_1", 393216, 9, 10},
        {"add_1", 393216, 10, 11},          {"activation_1", 393216, 11, 18},
        {"depthwise_conv2d_1", 393216, 14, 17}, {"conv2d_2", 458752, 17, 19},
        {"add_2", 458752, 19, 20},          {"activation_2", 458752, 20, 24},
        {"max_pooling2d", 114688, 24, 28},  {"b3", 128, 25, 27},
        {"b2", 112, 15, 17},                {"bd2", 112, 21, 23},
        {"bd0", 96, 4, 6},                  {"kd1", 864, 12, 14},
        {"b0", 96, 0, 2},                   {"b1", 96, 7, 9},
        {"kd0", 864, 5, 6},                 {"k1", 2304, 8, 9},
        {"k0", 7200, 1, 2},                 {"bd1", 96, 13, 14},
    };
    ab_problem p;
    ab_problem_init(&p);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        ab_tensor x = {.name = (char *)t[i].name, .size = t[i].size, .start = t[i].start,
                       .end = t[i].end, .align = 1, .offset = AB_NONE};
        cr_assert_eq(ab_problem_add(&p, &x, NULL), AB_OK);
    }
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.heuristics = false;
    o.time_limit = 30;
    abo_ilp_result r;
    ab_error err;
    ab_status st = abo_ilp_solve(&p, &o, &r, &err);
    cr_assert(st == AB_EINTERNAL || (st == AB_OK && r.status != ABO_ILP_INFEASIBLE),
              "GLPK's numerical 'no plan' was taken as a result: %s", r.note);
    abo_ilp_result_free(&r);
    abo_bound b = subset_bound(&p, 30);
    const ab_planner *pl; /* a valid plan: best-fit's */
    ab_params prm;
    cr_assert_eq(ab_planner_resolve("best-fit:order=size", &pl, &prm, &err), AB_OK);
    ab_problem view;
    ab_plan plan;
    ab_plan_stats sst;
    cr_assert_eq(ab_planner_run(pl, &prm, &p, &view, &plan, &sst, &err), AB_OK, "%s", err.msg);
    int64_t arena = 0;
    for (size_t i = 0; i < plan.n; i++)
        if (plan.v[i].offset + view.t[plan.v[i].tensor].size > arena)
            arena = plan.v[i].offset + view.t[plan.v[i].tensor].size;
    cr_assert_leq(b.value, arena, "bound %lld above a valid arena %lld: %s", (long long)b.value,
                  (long long)arena, b.certificate);
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_params_free(&prm);
    ab_problem_free(&p);
}

/* The planted suites (suites/generated/planted-*.yaml: a gadget whose optimum
 * lies above max-load, its optimum known by construction, in expect:): the
 * subset bound reaches the optimum, and never passes it. */
Test(subset, reaches_the_planted_optimum) {
    const char *names[] = {"planted-10-s6", "planted-20-s1", "planted-40-s2", "planted-80-g2-s4",
                           "planted-120-decoy-s7", "planted-160-s3", "planted-200-g3-s5"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/suites/generated/%s.yaml", AB_SOURCE_DIR, names[k]);
        ab_problem p;
        ab_error err;
        cr_assert_eq(abf_load_problem(path, NULL, &p, &err), AB_OK, "%s", err.msg);
        cr_assert_neq(p.expect_optimum, AB_NONE, "%s", names[k]);
        abo_bound b = subset_bound(&p, 60);
        cr_assert_eq(b.value, p.expect_optimum, "%s: %s", names[k], b.certificate);
        ab_problem_free(&p);
    }
}

/* ---- bounds as certificates (oracle/bound.h) ------------------------------------ */

static abo_recheck recheck(const ab_problem *p, const abo_bound *b, char *why, size_t len) {
    abo_recheck v;
    ab_error err;
    cr_assert_eq(abo_bound_recheck(p, b, 0, &v, why, len, &err), AB_OK, "%s", err.msg);
    return v;
}

Test(bound, kinds_have_words_that_parse_back) {
    for (int k = 0; k < ABO_NBOUND_KINDS; k++) {
        abo_bound_kind back;
        cr_assert(abo_bound_kind_parse(abo_bound_kind_word((abo_bound_kind)k), &back));
        cr_assert_eq((int)back, k);
        cr_assert_str_neq(abo_bound_kind_certificate((abo_bound_kind)k), "?");
    }
    abo_bound_kind x;
    cr_assert_not(abo_bound_kind_parse("max_load", &x));
    cr_assert_str_eq(abo_bound_kind_word(ABO_NBOUND_KINDS), "?");
}

Test(bound, max_load_agrees_with_the_figures_and_rechecks) {
    for (int k = 0; k < 300; k++) {
        ab_problem p;
        random_problem(&p, (size_t)pick(1, 12), pick(1, 10), 100);
        abo_bound b;
        ab_error err;
        cr_assert_eq(abo_bound_max_load(&p, &b, &err), AB_OK, "%s", err.msg);
        abo_bounds f;
        cr_assert_eq(abo_bounds_compute(&p, &f, NULL), AB_OK);
        cr_assert_eq(b.value, f.max_load);
        char why[200];
        cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_HOLDS, "%s", why);
        b.value++; /* one byte more than the tensors at T hold */
        cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_FAILS, "%s", why);
        cr_assert(strstr(why, "below the bound") != NULL, "%s", why);
        ab_problem_free(&p);
    }
}

Test(bound, a_malformed_certificate_is_an_input_error) {
    ab_problem p;
    random_problem(&p, 3, 4, 10);
    abo_bound b;
    cr_assert_eq(abo_bound_max_load(&p, &b, NULL), AB_OK);
    snprintf(b.certificate, sizeof b.certificate, "instruction two");
    abo_recheck v;
    char why[200];
    ab_error err;
    cr_assert_eq(abo_bound_recheck(&p, &b, 0, &v, why, sizeof why, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "instruction T") != NULL, "%s", err.msg);
    b.kind = ABO_BOUND_SUBSET;
    snprintf(b.certificate, sizeof b.certificate, "window 5..2");
    cr_assert_eq(abo_bound_recheck(&p, &b, 0, &v, why, sizeof why, &err), AB_EINPUT);
    ab_problem_free(&p);
}

/* The subset bound never passes the optimum (the brute force's), rechecks,
 * and a value one unit above the window's optimum fails the recheck. */
Test(bound, subset_bounds_recheck_and_never_pass_the_optimum) {
    int above = 0;
    for (int k = 0; k < 120; k++) {
        ab_problem p;
        random_problem(&p, (size_t)pick(3, 7), pick(3, 8), 40);
        int64_t whole = abt_brute_optimum(&p, NULL);
        abo_subset_opts o;
        abo_subset_opts_init(&o);
        o.time_limit = 30;
        abo_bound b;
        ab_error err;
        cr_assert_eq(abo_bound_subset(&p, &o, &b, &err), AB_OK, "%s", err.msg);
        cr_assert_leq(b.value, whole, "%s", b.certificate);
        abo_bounds f;
        cr_assert_eq(abo_bounds_compute(&p, &f, NULL), AB_OK);
        cr_assert_geq(b.value, f.max_load);
        above += b.value > f.max_load;
        char why[200];
        cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_HOLDS, "%s: %s",
                     b.certificate, why);
        if (strstr(b.certificate, "its optimum") != NULL) {
            b.value = whole + 1; /* above the whole optimum, so above the window's */
            cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_FAILS, "%s: %s",
                         b.certificate, why);
        }
        ab_problem_free(&p);
    }
    cr_assert_gt(above, 0, "no draw had a subset bound above max-load");
}

Test(bound, a_refutation_says_it_is_not_rechecked_here) {
    ab_problem p;
    random_problem(&p, 3, 4, 10);
    abo_bound b;
    abo_bound_refutation("canonical:target=capacity", 99, 1234, &b);
    cr_assert_eq(b.value, 100);
    char why[200];
    cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_UNCHECKED);
    cr_assert(strstr(why, "canonical:target=capacity") != NULL, "%s", why);
    ab_problem_free(&p);
}
