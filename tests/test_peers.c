/*
 * test_peers.c — the peer planners (issue 7): tflm-greedy, the three TVM USMP
 * planners, tflite-gpu-greedy-by-size, and `external`, any planner as a
 * program through MiniMalloc's CSV files.
 *
 * Every published number of the peers' own tests is reproduced from the
 * suites in suites/peers/, which hold them in `expect: peer_arena` and
 * `peer_offsets`: first by a sweep over every suite and every expectation in
 * it (the planner runs through ab_planner_run, the checker judges the plan,
 * the arena, each pool's bytes and the offsets must match), then one test per
 * peer test case that also pins the numbers in the suite file to the ones the
 * issue quotes, so neither side can drift alone. Then the rules behind the
 * numbers (rounding, tie orders, pools, fixed offsets, alignment), every
 * planner's plans valid on random suites, and `external` with tiny planners
 * written as shell scripts: one that stacks every buffer, one that fails,
 * one that solves only from some capacity up, one that sleeps.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/engine/runner.h"
#include "harness/formats/suite.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* ---- helpers ------------------------------------------------------------------- */

static void load_peer(const char *file, ab_problem *p) {
    char rel[512];
    ab_error err;
    snprintf(rel, sizeof rel, "suites/peers/%s", file);
    cr_assert_eq(abf_suite_load(abt_src(rel), p, &err), AB_OK, "%s", err.msg);
}

/* A plan of p by spec, judged by the checker: the verdict, arena and pool
 * bytes into *r, the offsets (owned by the caller) into *off. Returns the
 * planner's status (err holds its message). */
static ab_status plan_and_check(const char *spec, const ab_problem *p, abo_report *r,
                                int64_t **off, ab_plan_stats *st, ab_error *err) {
    const ab_planner *pl;
    ab_params prm;
    ab_problem view;
    ab_plan plan;
    ab_plan_stats local;
    if (st == NULL) st = &local;
    /* A bad parameter value is refused here, when the spec is resolved. */
    ab_status s = ab_planner_resolve(spec, &pl, &prm, err);
    if (s != AB_OK) return s;
    s = ab_planner_run(pl, &prm, p, &view, &plan, st, err);
    if (s == AB_OK) {
        ab_error e2;
        cr_assert_eq(abo_check(&view, &plan, r, &e2), AB_OK, "%s", e2.msg);
        *off = calloc(plan.n + 1, sizeof **off);
        for (size_t i = 0; i < plan.n; i++) (*off)[i] = plan.v[i].offset;
    }
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_params_free(&prm);
    return s;
}

/* Runs peer expectation x of suite p and checks the plan against it. */
static void reproduce(const ab_problem *p, const ab_peer_expect *x) {
    abo_report r;
    int64_t *off = NULL;
    ab_error err;
    ab_status s = plan_and_check(x->spec, p, &r, &off, NULL, &err);
    cr_assert_eq(s, AB_OK, "%s on %s: %s", x->spec, p->name, err.msg);
    cr_assert_eq(r.verdict, ABO_OK, "%s on %s: %s", x->spec, p->name, r.msg);
    if (x->arena != AB_NONE)
        cr_expect_eq(r.arena, x->arena, "%s on %s: arena %lld, the peer's %lld", x->spec, p->name,
                     (long long)r.arena, (long long)x->arena);
    for (size_t k = 0; x->pool_bytes && k < p->npools; k++)
        cr_expect_eq(r.pool_used[k], x->pool_bytes[k], "%s on %s: pool %s %lld, the peer's %lld",
                     x->spec, p->name, p->pools[k].name, (long long)r.pool_used[k],
                     (long long)x->pool_bytes[k]);
    for (size_t i = 0; i < x->noffsets; i++)
        cr_expect_eq(off[i], x->offsets[i], "%s on %s: offset %zu is %lld, the peer's %lld",
                     x->spec, p->name, i, (long long)off[i], (long long)x->offsets[i]);
    free(off);
}

/* The expectation for spec in p (it must be there). */
static const ab_peer_expect *expectation(const ab_problem *p, const char *spec) {
    for (size_t i = 0; i < p->npeers; i++)
        if (strcmp(p->peers[i].spec, spec) == 0) return &p->peers[i];
    cr_assert_fail("suite %s has no expectation for %s", p->name, spec);
    return NULL;
}

/* Pins an issue number: the suite file holds it for spec, and spec gives it. */
static void pin(const char *file, const char *spec, int64_t arena, const int64_t *pools,
                const int64_t *offsets, size_t noffsets) {
    ab_problem p;
    load_peer(file, &p);
    const ab_peer_expect *x = expectation(&p, spec);
    cr_assert_eq(x->arena, arena, "%s %s: the suite says %lld", file, spec, (long long)x->arena);
    for (size_t k = 0; pools && k < p.npools; k++) {
        cr_assert_not_null(x->pool_bytes, "%s %s: no bytes per pool", file, spec);
        cr_assert_eq(x->pool_bytes[k], pools[k], "%s %s pool %zu", file, spec, k);
    }
    if (offsets) {
        cr_assert_eq(x->noffsets, noffsets, "%s %s", file, spec);
        for (size_t i = 0; i < noffsets; i++) cr_assert_eq(x->offsets[i], offsets[i]);
    }
    reproduce(&p, x);
    ab_problem_free(&p);
}

/* The suite's tensors are (size, start, end) as listed. */
static void pin_tensors(const char *file, const int64_t (*t)[3], size_t n) {
    ab_problem p;
    load_peer(file, &p);
    cr_assert_eq(p.n, n, "%s", file);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(p.t[i].size, t[i][0], "%s tensor %zu size", file, i);
        cr_assert_eq(p.t[i].start, t[i][1], "%s tensor %zu start", file, i);
        cr_assert_eq(p.t[i].end, t[i][2], "%s tensor %zu end", file, i);
    }
    ab_problem_free(&p);
}

/* ---- every suite, every expectation ------------------------------------------------ */

Test(peers, every_suite_reproduces_every_peer_number_it_holds) {
    DIR *d = opendir(abt_src("suites/peers"));
    cr_assert_not_null(d);
    struct dirent *e;
    size_t suites = 0, numbers = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0) continue;
        char rel[512];
        snprintf(rel, sizeof rel, "suites/peers/%s", e->d_name);
        char *text = abt_slurp(abt_src(rel), NULL);
        cr_assert(text != NULL && text[0] == '#', "%s must open with a comment", e->d_name);
        free(text);
        ab_problem p;
        load_peer(e->d_name, &p);
        cr_assert_gt(p.npeers, 0, "%s holds no peer number", e->d_name);
        abo_bounds b;
        ab_error err;
        cr_assert_eq(abo_bounds_compute(&p, &b, &err), AB_OK);
        if (p.expect_lower_bound != AB_NONE)
            cr_assert_eq(b.max_load, p.expect_lower_bound, "%s", e->d_name);
        for (size_t i = 0; i < p.npeers; i++) {
            reproduce(&p, &p.peers[i]);
            numbers += (p.peers[i].arena != AB_NONE) + p.peers[i].noffsets;
        }
        suites++;
        ab_problem_free(&p);
    }
    closedir(d);
    cr_assert_geq(suites, 10, "suites: %zu", suites);
    cr_assert_geq(numbers, 50, "numbers: %zu", numbers);
}

Test(peers, no_planner_goes_below_a_known_optimum_on_the_peer_suites) {
    const char *files[] = {"tflm_greedy_medium.yaml", "usmp_linear.yaml",
                           "tflite_gpu_chain_align128.yaml", "tflite_gpu_complex.yaml"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        ab_problem p;
        load_peer(files[f], &p);
        cr_assert_neq(p.expect_optimum, AB_NONE);
        for (size_t k = 0; ab_planner_at(k) != NULL; k++) {
            const ab_planner *pl = ab_planner_at(k);
            if (pl->flags & AB_PLANNER_ASK_ONLY) continue;
            abo_report r;
            int64_t *off = NULL;
            ab_error err;
            cr_assert_eq(plan_and_check(pl->name, &p, &r, &off, NULL, &err), AB_OK, "%s: %s",
                         pl->name, err.msg);
            cr_assert_eq(r.verdict, ABO_OK, "%s on %s: %s", pl->name, files[f], r.msg);
            cr_assert_geq(r.arena, p.expect_optimum, "%s on %s", pl->name, files[f]);
            free(off);
        }
        ab_problem_free(&p);
    }
}

/* ---- TFLite Micro ------------------------------------------------------------------- */

Test(peers, tflm_basics_shares_offset_zero_arena_20) {
    static const int64_t t[][3] = {{10, 0, 1}, {20, 2, 3}};
    pin_tensors("tflm_greedy_basics.yaml", t, 2);
    pin("tflm_greedy_basics.yaml", "tflm-greedy:round=1", 20, NULL, (int64_t[]){0, 0}, 2);
}

Test(peers, tflm_medium_gives_50_70_40_0_0_arena_90) {
    static const int64_t t[][3] = {{10, 0, 1}, {20, 1, 2}, {30, 2, 3}, {40, 3, 4}, {50, 0, 1}};
    pin_tensors("tflm_greedy_medium.yaml", t, 5);
    pin("tflm_greedy_medium.yaml", "tflm-greedy:round=1", 90, NULL,
        (int64_t[]){50, 70, 40, 0, 0}, 5);
}

Test(peers, tflm_overlap_case_arena_120) {
    static const int64_t t[][3] = {{100, 0, 1}, {50, 2, 3}, {20, 1, 2}};
    pin_tensors("tflm_greedy_overlap.yaml", t, 3);
    pin("tflm_greedy_overlap.yaml", "tflm-greedy:round=1", 120, NULL, NULL, 0);
}

Test(peers, tflm_rounds_sizes_to_16_by_default) {
    ab_problem p;
    load_peer("tflm_greedy_medium.yaml", &p);
    abo_report r;
    int64_t *off;
    ab_error err;
    cr_assert_eq(plan_and_check("tflm-greedy", &p, &r, &off, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    /* rounded sizes 16, 32, 32, 48, 64: b4 0, b3 0, b2 48, b1 80, b0 64 */
    int64_t want[5] = {64, 80, 48, 0, 0};
    for (int i = 0; i < 5; i++) cr_assert_eq(off[i], want[i], "b%d at %lld", i, (long long)off[i]);
    cr_assert_eq(r.arena, 100);
    free(off);
    ab_problem_free(&p);
}

/* A problem from (name, size, start, end, align, fixed offset or -1) rows. */
typedef struct row {
    const char *name;
    int64_t size, start, end, align, offset;
} row;

static void make(ab_problem *p, const row *rows, size_t n) {
    ab_problem_init(p);
    p->name = strdup("made");
    for (size_t i = 0; i < n; i++) {
        ab_tensor t = {.name = (char *)rows[i].name, .size = rows[i].size,
                       .logical_bits = rows[i].size * 8, .start = rows[i].start,
                       .end = rows[i].end, .align = rows[i].align ? rows[i].align : 1,
                       .offset = rows[i].offset < 0 ? AB_NONE : rows[i].offset};
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

static int64_t *offsets_of(const char *spec, const ab_problem *p, abo_report *r) {
    int64_t *off = NULL;
    ab_error err;
    cr_assert_eq(plan_and_check(spec, p, r, &off, NULL, &err), AB_OK, "%s: %s", spec, err.msg);
    return off;
}

Test(peers, tflm_puts_the_later_of_equal_sizes_first_and_fixed_offsets_unchecked) {
    ab_problem p;
    abo_report r;
    make(&p, (row[]){{"a", 16, 0, 1, 1, -1}, {"b", 16, 0, 1, 1, -1}}, 2);
    int64_t *off = offsets_of("tflm-greedy:round=1", &p, &r);
    cr_assert_eq(off[1], 0, "b, added later, goes first");
    cr_assert_eq(off[0], 16);
    free(off);
    ab_problem_free(&p);
    /* two fixed tensors that overlap stay where they are told (TFLM does not
     * check offline offsets); the free one avoids both */
    make(&p, (row[]){{"f", 8, 0, 1, 1, 0}, {"g", 8, 0, 1, 1, 4}, {"x", 4, 0, 1, 1, -1}}, 3);
    off = offsets_of("tflm-greedy:round=1", &p, &r);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 4);
    cr_assert_eq(off[2], 12);
    cr_assert_eq(r.verdict, ABO_OVERLAP, "the checker, not the planner, reports it");
    free(off);
    ab_problem_free(&p);
}

/* ---- TVM USMP ----------------------------------------------------------------------- */

static const char *const usmp[] = {"usmp-greedy-by-size", "usmp-greedy-by-conflicts",
                                   "usmp-hill-climb"};

Test(peers, usmp_name_ordering_gives_a20_b10_c0_for_all_three) {
    static const int64_t t[][3] = {{10, 0, 0}, {10, 0, 0}, {10, 0, 0}};
    pin_tensors("usmp_name_ordering.yaml", t, 3);
    for (int a = 0; a < 3; a++)
        pin("usmp_name_ordering.yaml", usmp[a], 30, NULL, (int64_t[]){20, 10, 0}, 3);
}

Test(peers, usmp_linear_gives_140_for_all_three) {
    static const int64_t t[][3] = {{10, 0, 1},  {20, 1, 2}, {100, 2, 3},
                                   {40, 3, 4}, {50, 4, 5}, {50, 5, 6}};
    pin_tensors("usmp_linear.yaml", t, 6);
    for (int a = 0; a < 3; a++) pin("usmp_linear.yaml", usmp[a], 140, NULL, NULL, 0);
}

Test(peers, usmp_resnet_gives_7920256_7200256_7200256) {
    static const int64_t t[][3] = {
        {720000, 0, 7}, {720000, 1, 2}, {256, 2, 2},    {720000, 2, 3},
        {758912, 3, 4}, {256, 4, 4},    {720000, 4, 5}, {720000, 5, 6},
        {256, 6, 6},    {5760000, 6, 8}, {720000, 7, 8}, {256, 8, 8}};
    pin_tensors("usmp_resnet_subgraph.yaml", t, 12);
    pin("usmp_resnet_subgraph.yaml", "usmp-greedy-by-size", 7920256, NULL, NULL, 0);
    pin("usmp_resnet_subgraph.yaml", "usmp-greedy-by-conflicts", 7200256, NULL, NULL, 0);
    pin("usmp_resnet_subgraph.yaml", "usmp-hill-climb", 7200256, NULL, NULL, 0);
}

Test(peers, usmp_mobilenet_fills_the_fast_pool_then_the_slow_one) {
    static const int64_t t[][3] = {
        {301056, 0, 1}, {314646, 1, 2}, {256, 2, 2}, {802816, 2, 4}, {200704, 3, 4}};
    pin_tensors("usmp_mobilenet_subgraph.yaml", t, 5);
    pin("usmp_mobilenet_subgraph.yaml", "usmp-greedy-by-size", 200704 + 1418528,
        (int64_t[]){200704, 1418528}, NULL, 0);
    pin("usmp_mobilenet_subgraph.yaml", "usmp-greedy-by-conflicts", 200704 + 1418528,
        (int64_t[]){200704, 1418528}, NULL, 0);
    pin("usmp_mobilenet_subgraph.yaml", "usmp-hill-climb", 200704 + 1117462,
        (int64_t[]){200704, 1117462}, NULL, 0);
    ab_problem p;
    load_peer("usmp_mobilenet_subgraph.yaml", &p);
    cr_assert_eq(p.npools, 2);
    cr_assert_eq(p.pools[0].size, 200704);
    cr_assert_eq(p.pools[1].size, AB_NONE);
    cr_assert_eq(p.expect_lower_bound, 1117718, "TVM's memory pressure");
    abo_report r;
    int64_t *off = offsets_of("usmp-greedy-by-size", &p, &r);
    cr_assert_lt(off[4], 200704, "tensor_2 in fast");
    cr_assert_lt(off[2], 200704, "Conv2dOutput_7 in fast, beside tensor_2");
    cr_assert_eq(off[3], 200704, "sid_8 at the start of slow");
    cr_assert_eq(off[1], 200704 + 802816, "PaddedInput_7 on top of sid_8");
    cr_assert_eq(off[0], 200704 + 1117472, "sid_9 on top, rounded up to 16");
    free(off);
    ab_problem_free(&p);
}

Test(peers, usmp_fails_when_no_pool_holds_a_tensor) {
    /* TVM's test_no_pool_error: three 10-byte buffers that all conflict, one
     * pool of 10 bytes */
    ab_problem p;
    make(&p,
         (row[]){{"bi_a", 10, 0, 0, 1, -1}, {"bi_b", 10, 0, 0, 1, -1}, {"bi_c", 10, 0, 0, 1, -1}},
         3);
    p.npools = 1;
    p.pools = calloc(1, sizeof *p.pools);
    p.pools[0] = (ab_pool){.name = strdup("tiny_workspace"), .size = 10};
    for (int a = 0; a < 3; a++) {
        abo_report r;
        int64_t *off = NULL;
        ab_error err;
        cr_assert_eq(plan_and_check(usmp[a], &p, &r, &off, NULL, &err), AB_ECHECK, "%s", usmp[a]);
        HAS(err.msg, "no pool holds 'bi_");
        HAS(err.msg, "larger pool sizes are needed");
    }
    ab_error err;
    abo_report r;
    int64_t *off = NULL;
    plan_and_check("usmp-greedy-by-size", &p, &r, &off, NULL, &err);
    HAS(err.msg, "usmp-greedy-by-size: no pool holds 'bi_b' (10 bytes, live [0, 0]): "
                 "'tiny_workspace' (10 bytes) is taken up to 10 by its conflicts");
    ab_problem_free(&p);
}

Test(peers, usmp_skips_a_pool_too_small_for_the_tensor) {
    ab_problem p;
    make(&p, (row[]){{"big", 100, 0, 1, 1, -1}, {"small", 8, 0, 1, 1, -1}}, 2);
    p.npools = 2;
    p.pools = calloc(2, sizeof *p.pools);
    p.pools[0] = (ab_pool){.name = strdup("sram"), .size = 16};
    p.pools[1] = (ab_pool){.name = strdup("dram"), .size = AB_NONE};
    for (int a = 0; a < 3; a++) {
        abo_report r;
        int64_t *off = offsets_of(usmp[a], &p, &r);
        cr_assert_eq(r.verdict, ABO_OK, "%s: %s", usmp[a], r.msg);
        cr_assert_eq(off[0], 16, "%s: big in dram", usmp[a]);
        cr_assert_eq(off[1], 0, "%s: small in sram", usmp[a]);
        cr_assert_eq(r.pool_used[0], 8);
        cr_assert_eq(r.pool_used[1], 100);
        free(off);
    }
    ab_problem_free(&p);
}

Test(peers, usmp_greedy_never_reuses_a_gap_but_hill_climb_does) {
    /* c and a (64 bytes, 2-3 and 0-1) go first, both at 0 (they do not
     * meet); b (16 bytes, 1-2) meets both and goes on top of them */
    ab_problem p;
    make(&p, (row[]){{"a", 64, 0, 1, 1, -1}, {"b", 16, 1, 2, 1, -1}, {"c", 64, 2, 3, 1, -1}},
         3);
    abo_report r;
    int64_t *off = offsets_of("usmp-greedy-by-size", &p, &r);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[2], 0);
    cr_assert_eq(off[1], 64);
    free(off);
    ab_problem_free(&p);
    /* a gap below a conflict: TVM's greedy goes on top of it */
    make(&p, (row[]){{"x", 32, 0, 0, 1, 32}, {"y", 16, 0, 0, 1, -1}}, 2);
    off = offsets_of("usmp-greedy-by-size", &p, &r);
    cr_assert_eq(off[1], 64, "greedy: on top of the fixed tensor");
    free(off);
    off = offsets_of("usmp-hill-climb", &p, &r);
    cr_assert_eq(off[1], 0, "hill climb's first fit: the gap below it");
    free(off);
    ab_problem_free(&p);
}

Test(peers, usmp_orders_by_conflicts_then_size_then_name) {
    /* by size: big first; by conflicts: hub (3 conflicts) first */
    ab_problem p;
    make(&p,
         (row[]){{"big", 100, 0, 0, 1, -1},
                 {"hub", 10, 1, 3, 1, -1},
                 {"l1", 20, 1, 1, 1, -1},
                 {"l2", 20, 2, 2, 1, -1},
                 {"l3", 20, 3, 3, 1, -1}},
         5);
    abo_report r;
    int64_t *by_size = offsets_of("usmp-greedy-by-size", &p, &r);
    int64_t *by_conf = offsets_of("usmp-greedy-by-conflicts", &p, &r);
    cr_assert_eq(by_size[1], 20, "by size: the leaves first, hub on top of them");
    cr_assert_eq(by_conf[1], 0, "by conflicts: hub first, at 0");
    cr_assert_eq(by_conf[2], 10);
    free(by_size);
    free(by_conf);
    ab_problem_free(&p);
}

Test(peers, usmp_hill_climb_is_deterministic_and_checks_its_parameters) {
    ab_problem p;
    load_peer("usmp_mobilenet_subgraph.yaml", &p);
    abo_report r1, r2;
    int64_t *a = offsets_of("usmp-hill-climb:seed=7", &p, &r1);
    int64_t *b = offsets_of("usmp-hill-climb:seed=7", &p, &r2);
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(a[i], b[i]);
    cr_assert_eq(r1.verdict, ABO_OK);
    free(a);
    free(b);
    ab_plan_stats st;
    ab_error err;
    int64_t *c = NULL;
    cr_assert_eq(plan_and_check("usmp-hill-climb:iterations=1", &p, &r1, &c, &st, &err), AB_OK);
    cr_assert_eq(st.nodes, 1);
    HAS(st.note, "hill climb: 1 attempts");
    free(c);
    cr_assert_eq(plan_and_check("usmp-hill-climb:iterations=0", &p, &r1, &c, &st, &err), AB_EINPUT);
    HAS(err.msg, "parameter iterations");
    cr_assert_eq(plan_and_check("usmp-hill-climb:seed=-1", &p, &r1, &c, &st, &err), AB_EINPUT);
    ab_problem_free(&p);
}

/* ---- TFLite GPU ------------------------------------------------------------------------ */

Test(peers, tflite_gpu_chain_sizes_16_8_64_32_8_give_0_64_0_64_0_total_96) {
    static const int64_t t[][3] = {{16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};
    pin_tensors("tflite_gpu_chain.yaml", t, 5);
    pin("tflite_gpu_chain.yaml", "tflite-gpu-greedy-by-size", 96, NULL,
        (int64_t[]){0, 64, 0, 64, 0}, 5);
}

Test(peers, tflite_gpu_chain_at_128_gives_0_128_0_128_0_total_160) {
    static const int64_t t[][3] = {{16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};
    pin_tensors("tflite_gpu_chain_align128.yaml", t, 5);
    pin("tflite_gpu_chain_align128.yaml", "tflite-gpu-greedy-by-size:align=128", 160, NULL,
        (int64_t[]){0, 128, 0, 128, 0}, 5);
    /* the parameter alone, on the unaligned suite, does the same */
    ab_problem p;
    load_peer("tflite_gpu_chain.yaml", &p);
    abo_report r;
    int64_t *off = offsets_of("tflite-gpu-greedy-by-size:align=128", &p, &r);
    int64_t want[5] = {0, 128, 0, 128, 0};
    for (int i = 0; i < 5; i++) cr_assert_eq(off[i], want[i]);
    cr_assert_eq(r.arena, 160);
    free(off);
    ab_problem_free(&p);
}

Test(peers, tflite_gpu_takes_the_smallest_interior_gap_never_the_open_top) {
    /* placed: w [0,8) and z [40,48), y [16,24): gaps [8,16) (8) and [24,40)
     * (16) between tensors live with x; x (8 bytes) takes the smaller */
    ab_problem p;
    make(&p,
         (row[]){{"w", 8, 0, 2, 1, 0},
                 {"y", 8, 0, 2, 1, 16},
                 {"z", 8, 0, 2, 1, 40},
                 {"x", 8, 1, 1, 1, -1}},
         4);
    abo_report r;
    int64_t *off = offsets_of("tflite-gpu-greedy-by-size", &p, &r);
    cr_assert_eq(off[3], 8);
    free(off);
    ab_problem_free(&p);
    make(&p, (row[]){{"w", 8, 0, 2, 1, 0}, {"y", 8, 0, 2, 1, 16}, {"x", 12, 1, 1, 1, -1}}, 3);
    off = offsets_of("tflite-gpu-greedy-by-size", &p, &r);
    cr_assert_eq(off[2], 24, "no gap holds 12 bytes: on top");
    free(off);
    ab_problem_free(&p);
}

/* ---- every planner, random suites --------------------------------------------------- */

static uint64_t rnd(uint64_t *s) {
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return *s >> 33;
}

/* A random problem: n tensors, mixed alignments, one fixed tensor, and (when
 * pools) a bounded fast pool before an unbounded slow one, which then holds
 * the fixed tensor. */
static void random_problem(ab_problem *p, uint64_t seed, bool pools) {
    uint64_t s = seed;
    size_t n = 2 + rnd(&s) % 30;
    ab_problem_init(p);
    p->name = strdup("random");
    for (size_t i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t start = (int64_t)(rnd(&s) % 20), align = (int64_t)1 << (rnd(&s) % 5);
        ab_tensor t = {.name = name, .size = 1 + (int64_t)(rnd(&s) % 300), .start = start,
                       .end = start + (int64_t)(rnd(&s) % 6), .align = align, .offset = AB_NONE};
        if (i == 0) t.offset = align * (int64_t)(rnd(&s) % 8);
        t.logical_bits = t.size * 8;
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
    if (!pools) return;
    p->npools = 2;
    p->pools = calloc(2, sizeof *p->pools);
    p->pools[0] = (ab_pool){.name = strdup("fast"), .size = 64 * (int64_t)(1 + rnd(&s) % 16)};
    p->pools[1] = (ab_pool){.name = strdup("slow"), .size = AB_NONE};
    p->t[0].offset += p->pools[0].size;
}

Test(peers, every_peer_planner_gives_valid_plans_on_random_suites) {
    const char *specs[] = {"tflm-greedy",          "tflm-greedy:round=1",
                           "usmp-greedy-by-size",  "usmp-greedy-by-conflicts",
                           "usmp-hill-climb",      "tflite-gpu-greedy-by-size",
                           "tflite-gpu-greedy-by-size:align=64"};
    const uint64_t cases = (uint64_t)abt_cases(300, 3000);
    for (uint64_t seed = 1; seed <= cases; seed++) {
        for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
            bool pools = seed % 2 == 0 && strncmp(specs[k], "usmp", 4) == 0;
            ab_problem p;
            random_problem(&p, seed, pools);
            abo_bounds b;
            ab_error err;
            cr_assert_eq(abo_bounds_compute(&p, &b, &err), AB_OK);
            abo_report r;
            int64_t *off = NULL;
            ab_status s = plan_and_check(specs[k], &p, &r, &off, NULL, &err);
            cr_assert_eq(s, AB_OK, "seed %llu %s: %s", (unsigned long long)seed, specs[k], err.msg);
            cr_assert_eq(r.verdict, ABO_OK, "seed %llu %s: %s", (unsigned long long)seed, specs[k],
                         r.msg);
            cr_assert_geq(r.arena, b.max_load, "seed %llu %s", (unsigned long long)seed, specs[k]);
            free(off);
            ab_problem_free(&p);
        }
    }
}

Test(peers, every_peer_planner_fails_cleanly_at_each_allocation) {
    const char *specs[] = {"tflm-greedy", "usmp-greedy-by-size", "usmp-greedy-by-conflicts",
                           "usmp-hill-climb", "tflite-gpu-greedy-by-size"};
    ab_problem p;
    load_peer("usmp_mobilenet_subgraph.yaml", &p);
    ab_free(p.pools[0].name); /* one pool, so tflm and tflite take it too */
    ab_free(p.pools[1].name);
    ab_free(p.pools);
    p.pools = NULL;
    p.npools = 0;
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        const ab_planner *pl;
        ab_params prm;
        ab_error err;
        cr_assert_eq(ab_planner_resolve(specs[k], &pl, &prm, &err), AB_OK);
        int64_t off[8];
        ab_plan_stats st = {.lower_bound = AB_NONE};
        ab_alloc_fail_at(0);
        cr_assert_eq(pl->plan(&p, &prm, off, &st, &err), AB_OK, "%s", err.msg);
        long count = ab_alloc_fail_at(0);
        cr_assert_gt(count, 2, "%s", specs[k]);
        for (long n = 1; n <= count; n++) {
            ab_alloc_fail_at(n);
            ab_status s = pl->plan(&p, &prm, off, &st, &err);
            ab_alloc_fail_at(0);
            cr_assert(s == AB_OK || s == AB_ENOMEM, "%s, allocation %ld: %d %s", specs[k], n, s,
                      err.msg);
        }
        ab_params_free(&prm);
    }
    ab_problem_free(&p);
}

/* ---- external -------------------------------------------------------------------------- */

/* The folder of the test's scripts (static; one per test process). */
static const char *script_dir(void) {
    static char *dir = NULL;
    if (dir == NULL) dir = abt_tmpdir();
    return dir;
}

/* Writes an executable script called name into script_dir(); returns its path. */
static const char *script(const char *name, const char *body) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", script_dir(), name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(body, f);
    fclose(f);
    chmod(path, 0755);
    return path;
}

/* Stacks every buffer: offset = running sum of the sizes before it. Copies
 * its input beside itself (seen.csv) and fails (exit 1) when the stack is
 * larger than the capacity. */
static const char *stack_sh =
    "#!/bin/sh\n"
    "# stack.sh INPUT OUTPUT CAPACITY: every buffer on top of the one before\n"
    "cp \"$1\" \"$(dirname \"$0\")/seen.csv\"\n"
    "awk -F, -v cap=\"$3\" 'NR == 1 { print $0 \",offset\"; next }\n"
    "  { print $0 \",\" sum + 0; sum += $4 } END { if (sum > cap) exit 1 }' \"$1\" > \"$2\"\n";

/* stack.sh with the shell's builtins alone: it starts no program (no cp,
 * dirname or awk), for the test that runs the planner hundreds of times,
 * where those starts were most of its time. Copies nothing beside itself. */
static const char *stack_builtin_sh =
    "#!/bin/sh\n"
    "# stack_builtin.sh INPUT OUTPUT CAPACITY: every buffer on top of the one before\n"
    "set -f\n"
    "cap=$3 sum=0\n"
    "exec < \"$1\" > \"$2\"\n"
    "IFS= read -r head\n"
    "printf '%s,offset\\n' \"$head\"\n"
    "while IFS= read -r line; do\n"
    "  printf '%s,%s\\n' \"$line\" \"$sum\"\n"
    "  IFS=,; set -- $line; unset IFS\n"
    "  sum=$((sum + $4))\n"
    "done\n"
    "[ \"$sum\" -le \"$cap\" ]\n";

/* The external spec for script name with optional extra parameters. */
static const char *ext_spec(const char *name, const char *extra) {
    static char spec[8192];
    snprintf(spec, sizeof spec, "external:cmd='sh %s/%s {input} {output} {capacity}'%s%s",
             script_dir(), name, extra ? "," : "", extra ? extra : "");
    return spec;
}

Test(external, stacks_every_buffer_with_a_shell_script) {
    script("stack.sh", stack_sh);
    ab_problem p;
    load_peer("tflm_greedy_medium.yaml", &p);
    abo_report r;
    int64_t *off = offsets_of(ext_spec("stack.sh", NULL), &p, &r);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    int64_t want[5] = {0, 10, 30, 60, 100};
    for (int i = 0; i < 5; i++) cr_assert_eq(off[i], want[i]);
    cr_assert_eq(r.arena, 150);
    free(off);
    char path[4096];
    snprintf(path, sizeof path, "%s/seen.csv", script_dir());
    char *seen = abt_slurp(path, NULL);
    cr_assert_str_eq(seen, "id,lower,upper,size\n" /* half-open: upper = end + 1; ids: names */
                           "b0,0,2,10\nb1,1,3,20\nb2,2,4,30\nb3,3,5,40\nb4,0,2,50\n");
    free(seen);
    ab_problem_free(&p);
}

Test(external, writes_alignment_and_fixed_offset_columns_when_needed) {
    script("look.sh", "#!/bin/sh\ncp \"$1\" \"$(dirname \"$0\")/seen.csv\"\necho cap=$3\nexit 1\n");
    ab_problem p;
    make(&p, (row[]){{"a", 8, 0, 1, 8, -1}, {"b", 4, 1, 2, 1, 16}}, 2);
    abo_report r;
    int64_t *off = NULL;
    ab_error err;
    cr_assert_eq(plan_and_check(ext_spec("look.sh", NULL), &p, &r, &off, NULL, &err), AB_ECHECK);
    /* no suite capacity: one that fits the fixed tensor's end and the others stacked */
    HAS(err.msg, "exited with status 1 at capacity 35: cap=35");
    char path[4096];
    snprintf(path, sizeof path, "%s/seen.csv", script_dir());
    char *seen = abt_slurp(path, NULL);
    cr_assert_str_eq(seen, "id,lower,upper,size,alignment,offset\na,0,2,8,8,\nb,1,3,4,1,16\n");
    free(seen);
    ab_problem_free(&p);
}

Test(external, a_failing_program_is_reported_with_its_status_and_output) {
    script("fail.sh",
           "#!/bin/sh\necho 'reading input'\necho 'solver: no plan found' >&2\nexit 3\n");
    ab_problem p;
    load_peer("tflm_greedy_basics.yaml", &p);
    abo_report r;
    int64_t *off = NULL;
    ab_error err;
    cr_assert_eq(plan_and_check(ext_spec("fail.sh", NULL), &p, &r, &off, NULL, &err), AB_ECHECK);
    HAS(err.msg, "exited with status 3 at capacity 30");
    HAS(err.msg, "reading input|solver: no plan found");
    ab_problem_free(&p);
}

Test(external, runs_at_the_suites_capacity) {
    script("stack.sh", stack_sh);
    ab_problem p;
    load_peer("tflm_greedy_medium.yaml", &p);
    p.capacity = 149; /* the stack needs 150: not solved */
    abo_report r;
    int64_t *off = NULL;
    ab_error err;
    cr_assert_eq(plan_and_check(ext_spec("stack.sh", NULL), &p, &r, &off, NULL, &err), AB_ECHECK);
    HAS(err.msg, "exited with status 1 at capacity 149");
    p.capacity = 150;
    ab_plan_stats st;
    cr_assert_eq(plan_and_check(ext_spec("stack.sh", NULL), &p, &r, &off, &st, &err), AB_OK);
    HAS(st.note, "one run at capacity 150");
    free(off);
    ab_problem_free(&p);
}

Test(external, bisect_finds_the_smallest_capacity_the_program_solves) {
    /* solves tflm_greedy_medium optimally (80) from capacity 80 up, else fails */
    script("opt.sh", "#!/bin/sh\n"
                     "[ \"$3\" -ge 80 ] || { echo \"no plan under $3\"; exit 1; }\n"
                     "printf 'id,lower,upper,size,offset\\nb0,0,2,10,0\\nb1,1,3,20,10\\n"
                     "b2,2,4,30,40\\nb3,3,5,40,0\\nb4,0,2,50,30\\n' > \"$2\"\n");
    ab_problem p;
    load_peer("tflm_greedy_medium.yaml", &p);
    abo_report r;
    ab_plan_stats st;
    int64_t *off = NULL;
    ab_error err;
    cr_assert_eq(plan_and_check(ext_spec("opt.sh", "capacity=bisect"), &p, &r, &off, &st, &err),
                 AB_OK, "%s", err.msg);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.arena, 80);
    /* the first run (at the stacked capacity 150) already gives 80 = the
     * max-load bound, so nothing is left to search */
    HAS(st.note, "best arena 80; 1 runs: 1 solved");
    free(off);
    /* the stacker: 150 at the start, every capacity below refused */
    script("stack.sh", stack_sh);
    cr_assert_eq(plan_and_check(ext_spec("stack.sh", "capacity=bisect"), &p, &r, &off, &st, &err),
                 AB_OK, "%s", err.msg);
    cr_assert_eq(r.arena, 150);
    HAS(st.note, "best arena 150;");
    HAS(st.note, "1 solved, ");
    HAS(st.note, "unsolved (largest 149), 0 timed out");
    free(off);
    ab_problem_free(&p);
}

/* One run below 150 hangs and is killed at the probe time; every other run
 * ends by itself in milliseconds, against a probe time of 3 s (>= 100x), so
 * no run races the clock. */
Test(external, bisect_keeps_the_best_plan_and_counts_a_timeout_as_unknown) {
    /* stacks in 150 bytes; the first run below 150 hangs (killed at the
     * probe time: unknown), the later ones fail (unsolved) */
    script("stack.sh", stack_sh);
    script("slow.sh", "#!/bin/sh\n"
                      "d=$(dirname \"$0\")\n"
                      "[ \"$3\" -ge 150 ] && exec sh \"$d/stack.sh\" \"$@\"\n"
                      "[ -e \"$d/hung\" ] && exit 1\n"
                      ": > \"$d/hung\"\n"
                      "exec sleep 30\n");
    char hung[4096];
    snprintf(hung, sizeof hung, "%s/hung", script_dir());
    unlink(hung);
    ab_problem p;
    load_peer("tflm_greedy_medium.yaml", &p);
    abo_report r;
    ab_plan_stats st;
    int64_t *off = NULL;
    ab_error err;
    cr_assert_eq(plan_and_check(ext_spec("slow.sh", "capacity=bisect,probe_time=3"), &p, &r, &off,
                                &st, &err),
                 AB_OK, "%s", err.msg);
    cr_assert_eq(r.arena, 150);
    cr_assert_eq(access(hung, F_OK), 0, "no run hung: %s", st.note);
    HAS(st.note, " 1 timed out");
    HAS(st.note, "(largest 149)"); /* the timeout at a lower capacity did not count as unsolved */
    free(off);
    /* one run only (capacity=suite), timed out: a timeout, not a failure */
    script("hang.sh", "#!/bin/sh\nexec sleep 30\n");
    cr_assert_eq(plan_and_check(ext_spec("hang.sh", "probe_time=0.2"), &p, &r, &off, &st, &err),
                 AB_ELIMIT);
    HAS(err.msg, "killed after the probe time of 0.2 s");
    ab_problem_free(&p);
}

Test(external, kills_what_a_program_leaves_behind_and_does_not_wait_for_it) {
    /* the background sleep keeps the output pipe open after the script exits */
    script("stack.sh", stack_sh);
    script("bg.sh", "#!/bin/sh\nsleep 3141 &\nexec sh \"$(dirname \"$0\")/stack.sh\" \"$@\"\n");
    ab_problem p;
    load_peer("tflm_greedy_basics.yaml", &p);
    abo_report r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int64_t *off = offsets_of(ext_spec("bg.sh", NULL), &p, &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert_eq(off[1], 10);
    cr_assert_lt((double)(t1.tv_sec - t0.tv_sec), 60.0, "it waited for the background sleep");
    cr_assert_neq(system("pgrep -f 'slee[p] 3141' >/dev/null"), 0, "the background sleep is alive");
    free(off);
    ab_problem_free(&p);
}

Test(external, rejects_malformed_output) {
    const struct {
        const char *body, *want;
    } cases[] = {
        {"printf 'id,size\\nb0,10\\nb1,20\\n' > \"$2\"", "lacks an 'id' or an 'offset' column"},
        {"printf 'id,offset\\nb0,0\\n' > \"$2\"", "the output has no offset for id 'b1'"},
        {"printf 'id,offset\\nb0,0\\nb7,0\\n' > \"$2\"", "id 'b7' is not one of the ids written"},
        {"printf 'id,offset\\n0,0\\n1,0\\n' > \"$2\"", "id '0' is not one of the ids written"},
        {"printf 'id,offset\\nb0,0\\nb1,x\\n' > \"$2\"", "offset 'x' is not an integer"},
        {"printf 'id,offset\\nb0,0\\nb0,4\\n' > \"$2\"", "id 'b0' appears twice"},
        {"true", "exited 0 but wrote no"},
        {": > \"$2\"", "the output file is empty"},
    };
    ab_problem p;
    load_peer("tflm_greedy_basics.yaml", &p);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char body[512];
        snprintf(body, sizeof body, "#!/bin/sh\n%s\n", cases[i].body);
        script("bad.sh", body);
        abo_report r;
        int64_t *off = NULL;
        ab_error err;
        cr_assert_eq(plan_and_check(ext_spec("bad.sh", NULL), &p, &r, &off, NULL, &err),
                     AB_EINTERNAL, "case %zu", i);
        HAS(err.msg, cases[i].want);
    }
    /* extra columns, any order, CRLF line ends, blank lines: all fine */
    script("crlf.sh",
           "#!/bin/sh\nprintf 'offset,size,id\\r\\n\\r\\n5,10,b0\\r\\n0,20,b1\\r\\n' > \"$2\"\n");
    abo_report r;
    int64_t *off = offsets_of(ext_spec("crlf.sh", NULL), &p, &r);
    cr_assert_eq(off[0], 5);
    cr_assert_eq(off[1], 0);
    free(off);
    ab_problem_free(&p);
}

/* The planner with bisect, its nth allocation failing for every n that is q
 * modulo 4 (four tests, so Criterion's workers share the runs). The suite
 * stacks 3 bytes above its bound (23 against 20), so the bisect makes the
 * first run (solved) and two probes (unsolved: the stack fits nothing
 * smaller), every path of search() this script can take, in 3 runs where a
 * larger gap would repeat the same probe many times over. */
static void fails_cleanly_at_allocations(long q) {
    script("stack_builtin.sh", stack_builtin_sh);
    ab_problem p;
    ab_error lerr;
    const char *suite = abt_write_tmp("suite: bisect-small\n"
                                      "tensors:\n"
                                      "  - {name: a, size: 10, start: 0, end: 1}\n"
                                      "  - {name: b, size: 10, start: 1, end: 2}\n"
                                      "  - {name: c, size: 3, start: 0, end: 0}\n",
                                      ".yaml");
    cr_assert_eq(abf_suite_load(suite, &p, &lerr), AB_OK, "%s", lerr.msg);
    const ab_planner *pl;
    ab_params prm;
    ab_error err;
    cr_assert_eq(ab_planner_resolve(ext_spec("stack_builtin.sh", "capacity=bisect"), &pl, &prm,
                                    &err),
                 AB_OK);
    int64_t off[8];
    ab_plan_stats st = {.lower_bound = AB_NONE};
    ab_alloc_fail_at(0);
    cr_assert_eq(pl->plan(&p, &prm, off, &st, &err), AB_OK, "%s", err.msg);
    long count = ab_alloc_fail_at(0);
    cr_assert_gt(count, 4);
    HAS(st.note, "3 runs: 1 solved, 2 unsolved");
    for (long n = 1 + q; n <= count; n += 4) {
        ab_alloc_fail_at(n);
        ab_status s = pl->plan(&p, &prm, off, &st, &err);
        ab_alloc_fail_at(0);
        cr_assert(s == AB_OK || s == AB_ENOMEM, "allocation %ld: %d %s", n, s, err.msg);
    }
    ab_params_free(&prm);
    ab_problem_free(&p);
}

/* The builtin-only stack script plans as stack.sh does, at a capacity that
 * fits and one that does not. */
Test(external, the_builtin_stack_script_plans_as_stack_sh) {
    script("stack.sh", stack_sh);
    script("stack_builtin.sh", stack_builtin_sh);
    ab_problem p;
    load_peer("tflm_greedy_medium.yaml", &p);
    abo_report r1, r2;
    int64_t *a = offsets_of(ext_spec("stack.sh", "capacity=bisect"), &p, &r1);
    int64_t *b = offsets_of(ext_spec("stack_builtin.sh", "capacity=bisect"), &p, &r2);
    cr_assert_eq(r1.arena, r2.arena);
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(a[i], b[i], "tensor %zu", i);
    free(a), free(b);
    p.capacity = r1.arena - 1;
    int64_t *off = NULL;
    ab_error err;
    cr_assert_eq(plan_and_check(ext_spec("stack_builtin.sh", NULL), &p, &r2, &off, NULL, &err),
                 AB_ECHECK);
    HAS(err.msg, "exited with status 1");
    free(off);
    ab_problem_free(&p);
}

Test(external, fails_cleanly_at_each_allocation_q0) { fails_cleanly_at_allocations(0); }
Test(external, fails_cleanly_at_each_allocation_q1) { fails_cleanly_at_allocations(1); }
Test(external, fails_cleanly_at_each_allocation_q2) { fails_cleanly_at_allocations(2); }
Test(external, fails_cleanly_at_each_allocation_q3) { fails_cleanly_at_allocations(3); }

Test(external, checks_its_parameters) {
    ab_problem p;
    load_peer("tflm_greedy_basics.yaml", &p);
    const struct {
        const char *spec, *want;
    } cases[] = {
        {"external", "planner external needs a command: external:cmd='prog --input={input}"},
        {"external:cmd='cat {input}'", "the command must name {input} and {output}"},
        {"external:cmd='x {input} {output}',capacity=half", "expected suite or bisect, got 'half'"},
        {"external:cmd='x {input} {output}',probe_time=-1", "parameter probe_time"},
        {"external:cmd='x {input} {output}',probe_time=soon", "parameter probe_time"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        abo_report r;
        int64_t *off = NULL;
        ab_error err;
        cr_assert_eq(plan_and_check(cases[i].spec, &p, &r, &off, NULL, &err), AB_EINPUT, "%s",
                     cases[i].spec);
        HAS(err.msg, cases[i].want);
    }
    const ab_planner *ext = ab_planner_find("external");
    cr_assert(ext->flags & AB_PLANNER_NEEDS_PARAMS);
    ab_problem_free(&p);
}

Test(external, quotes_the_file_paths_for_the_shell) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/it's a dir", script_dir());
    cr_assert_eq(mkdir(dir, 0700), 0);
    setenv("TMPDIR", dir, 1);
    script("stack.sh", stack_sh);
    ab_problem p;
    load_peer("tflm_greedy_basics.yaml", &p);
    abo_report r;
    int64_t *off = offsets_of(ext_spec("stack.sh", NULL), &p, &r);
    cr_assert_eq(off[1], 10);
    free(off);
    /* the temporary folder is gone */
    DIR *d = opendir(dir);
    struct dirent *e;
    int left = 0;
    while ((e = readdir(d)) != NULL) left += e->d_name[0] != '.';
    closedir(d);
    cr_assert_eq(left, 0);
    ab_problem_free(&p);
}

Test(external, runs_inside_the_runner_child) {
    script("stack.sh", stack_sh);
    ab_problem p, view;
    ab_error err;
    load_peer("tflm_greedy_medium.yaml", &p);
    cr_assert_eq(ab_problem_arena_view(&p, &view, NULL, &err), AB_OK);
    const ab_planner *pl;
    ab_params prm;
    cr_assert_eq(ab_planner_resolve(ext_spec("stack.sh", "capacity=bisect"), &pl, &prm, &err),
                 AB_OK, "%s", err.msg);
    abe_job job = {.view = &view, .planner = pl, .params = &prm};
    abe_job_result res;
    abe_options opt = {.jobs = 1, .time_limit = 60, .mem_limit = (int64_t)512 << 20};
    cr_assert_eq(abe_run(&job, 1, &opt, &res, NULL, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(res.status, ABE_OK, "%s", res.message);
    cr_assert_eq(res.offsets[4], 100);
    HAS(res.stats.note, "best arena 150");
    abe_result_free(&res);
    ab_params_free(&prm);
    ab_problem_free(&view);
    ab_problem_free(&p);
}
