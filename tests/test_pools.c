/*
 * test_pools.c — memory pools (issue 7): the suite key `pools:` and the peer
 * expectations `expect: peer_arena / peer_offsets` in the loader and writer
 * (harness/formats/suite.c), the pools' joint address space (core/problem.c), the
 * checker's per-pool checks (oracle/check.c), the plan file's `pool` column
 * (harness/formats/plan_csv.c) and one-arena planners through the spill rule
 * (planners/spill.c), in process and
 * in the runner's child.
 *
 * Every rejection is checked for its status, its place (line:column) and its
 * field, and for leaving the problem empty.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness/formats/plan_csv.h"
#include "harness/engine/runner.h"
#include "harness/formats/suite.h"
#include "oracle/check.h"
#include "planners/planner.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* A suite with two pools and three tensors; the pools start at line 3. */
static const char *two_pools = "suite: p\n"
                               "pools:\n"
                               "  - {name: fast, size: 100}\n"
                               "  - {name: slow}\n"
                               "tensors:\n"
                               "  - {name: a, size: 60, start: 0, end: 1}\n"
                               "  - {name: b, size: 50, start: 1, end: 2}\n"
                               "  - {name: c, size: 30, start: 0, end: 2}\n";

static bool problem_is_empty(const ab_problem *p) {
    return p->n == 0 && p->t == NULL && p->name == NULL && p->npools == 0 && p->pools == NULL &&
           p->npeers == 0 && p->peers == NULL && p->capacity == AB_NONE;
}

static ab_status load_yaml(const char *yaml, ab_problem *p, ab_error *err, const char **path) {
    static char saved[4096];
    snprintf(saved, sizeof saved, "%s", abt_write_tmp(yaml, ".yaml"));
    if (path) *path = saved;
    return abf_suite_load(saved, p, err);
}

static void load_ok(const char *yaml, ab_problem *p) {
    ab_error err;
    ab_status st = load_yaml(yaml, p, &err, NULL);
    cr_assert_eq(st, AB_OK, "load failed: %s\n%s", err.msg, yaml);
}

/* yaml must fail to load with AB_EINPUT, the message reading
 * "PATH:LINE:COL: FIELD: ..." with `where` after the path and `what` in it. */
static void assert_rejects(const char *yaml, const char *where, const char *what) {
    ab_problem p;
    ab_error err;
    const char *path;
    ab_status st = load_yaml(yaml, &p, &err, &path);
    cr_assert_eq(st, AB_EINPUT, "status %d, message: %s", st, st ? err.msg : "(none)");
    size_t n = strlen(path);
    cr_assert(strncmp(err.msg, path, n) == 0, "message does not start with the path: %s", err.msg);
    cr_assert(strncmp(err.msg + n, where, strlen(where)) == 0, "expected '%s' after the path: %s",
              where, err.msg);
    cr_assert(strstr(err.msg, what) != NULL, "expected '%s' in: %s", what, err.msg);
    cr_assert(problem_is_empty(&p), "a failed load left something in the problem");
    ab_problem_free(&p);
}

/* Two problems are equal in every field a suite file carries. */
static void assert_same(const ab_problem *a, const ab_problem *b) {
    cr_assert_str_eq(a->name, b->name);
    cr_assert_eq(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        cr_assert_str_eq(a->t[i].name, b->t[i].name);
        cr_assert_eq(a->t[i].size, b->t[i].size);
        cr_assert_eq(a->t[i].align, b->t[i].align);
        cr_assert_eq(a->t[i].offset, b->t[i].offset);
    }
    cr_assert_eq(a->npools, b->npools);
    for (size_t k = 0; k < a->npools; k++) {
        cr_assert_str_eq(a->pools[k].name, b->pools[k].name);
        cr_assert_eq(a->pools[k].size, b->pools[k].size);
    }
    cr_assert_eq(a->npeers, b->npeers);
    for (size_t i = 0; i < a->npeers; i++) {
        const ab_peer_expect *x = &a->peers[i], *y = &b->peers[i];
        cr_assert_str_eq(x->spec, y->spec);
        cr_assert_eq(x->arena, y->arena, "%s", x->spec);
        cr_assert_eq(x->pool_bytes == NULL, y->pool_bytes == NULL, "%s", x->spec);
        for (size_t k = 0; x->pool_bytes && k < a->npools; k++)
            cr_assert_eq(x->pool_bytes[k], y->pool_bytes[k]);
        cr_assert_eq(x->noffsets, y->noffsets);
        cr_assert_eq(x->offsets == NULL, y->offsets == NULL);
        for (size_t k = 0; k < x->noffsets; k++) cr_assert_eq(x->offsets[k], y->offsets[k]);
    }
    cr_assert_eq(a->expect_lower_bound, b->expect_lower_bound);
    cr_assert_eq(a->expect_optimum, b->expect_optimum);
}

/* ---- the loader ------------------------------------------------------------ */

Test(pools, loads_ordered_pools_with_an_unbounded_last) {
    ab_problem p;
    load_ok(two_pools, &p);
    cr_assert_eq(p.npools, 2);
    cr_assert_str_eq(p.pools[0].name, "fast");
    cr_assert_eq(p.pools[0].size, 100);
    cr_assert_str_eq(p.pools[1].name, "slow");
    cr_assert_eq(p.pools[1].size, AB_NONE);
    cr_assert_eq(ab_pool_base(&p, 0), 0);
    cr_assert_eq(ab_pool_base(&p, 1), 100);
    cr_assert_eq(ab_pool_find(&p, 0), 0);
    cr_assert_eq(ab_pool_find(&p, 99), 0);
    cr_assert_eq(ab_pool_find(&p, 100), 1);
    cr_assert_eq(ab_pool_find(&p, AB_MAX_SIZE), 1);
    cr_assert_eq(ab_pool_find(&p, -1), AB_NO_POOL);
    cr_assert_str_eq(ab_pool_name(&p, 1), "slow");
    ab_problem_free(&p);
}

Test(pools, a_suite_without_pools_has_one_implicit_pool) {
    ab_problem p;
    load_ok("suite: s\ntensors:\n  - {name: a, size: 1, start: 0, end: 0}\n", &p);
    cr_assert_eq(p.npools, 0);
    cr_assert_eq(ab_pool_find(&p, 12345), 0);
    cr_assert_eq(ab_pool_base(&p, 0), 0);
    cr_assert_str_eq(ab_pool_name(&p, 0), "arena");
    ab_problem_free(&p);
}

Test(pools, a_bounded_last_pool_ends_the_address_space) {
    ab_problem p;
    load_ok("suite: s\npools: [{name: a, size: 8}, {name: b, size: 4}]\ntensors: []\n", &p);
    cr_assert_eq(ab_pool_find(&p, 11), 1);
    cr_assert_eq(ab_pool_find(&p, 12), AB_NO_POOL);
    ab_problem_free(&p);
}

Test(pools, rejects_pools_that_are_not_a_sequence) {
    assert_rejects("suite: s\npools: fast\ntensors: []\n", ":2:8: pools: ",
                   "must be a sequence of pools like [{name: fast, size: 200704}");
    assert_rejects("suite: s\npools: []\ntensors: []\n", ":2:8: pools: ",
                   "must list at least one pool");
    assert_rejects("suite: s\npools: [fast]\ntensors: []\n", ":2:9: pools[0]: ",
                   "must be a mapping like {name: fast, size: 200704}, got 'fast'");
}

Test(pools, rejects_a_pool_without_a_name_or_with_a_bad_size) {
    assert_rejects("suite: s\npools:\n  - {size: 10}\ntensors: []\n", ":3:5: pools[0]: ",
                   "missing required key 'name'");
    assert_rejects("suite: s\npools:\n  - {name: f, size: 0}\ntensors: []\n",
                   ":3:21: pools[0] (name 'f').size: ", "must be a positive integer, got '0'");
    assert_rejects("suite: s\npools:\n  - {name: f, size: \"8\"}\ntensors: []\n",
                   ":3:21: pools[0] (name 'f').size: ", "quoted string");
    assert_rejects("suite: s\npools:\n  - {name: f, sise: 8}\ntensors: []\n",
                   ":3:15: pools[0] (name 'f'): ", "unknown key 'sise'; did you mean 'size'?");
    assert_rejects("suite: s\npools:\n  - {name: f, name: g}\ntensors: []\n",
                   ":3:15: pools[0] (name 'f'): ", "duplicate key 'name'");
}

Test(pools, rejects_duplicate_names) {
    assert_rejects("suite: s\npools:\n  - {name: f, size: 8}\n  - {size: 8, name: f}\n"
                   "tensors: []\n",
                   ":4:21: pools[1] (name 'f').name: ",
                   "duplicate pool name, also pools[0]; names must be unique");
}

Test(pools, rejects_an_unbounded_pool_before_the_last) {
    assert_rejects("suite: s\npools:\n  - {name: f}\n  - {name: g, size: 8}\ntensors: []\n",
                   ":3:5: pools[0]: ", "only the last pool may be unbounded");
}

Test(pools, rejects_more_than_sixteen_pools_and_sizes_past_2_62) {
    ab_buf b = {0};
    ab_buf_printf(&b, "suite: s\npools:\n");
    for (int i = 0; i <= AB_MAX_POOLS; i++) ab_buf_printf(&b, "  - {name: p%d, size: 1}\n", i);
    ab_buf_printf(&b, "tensors: []\n");
    assert_rejects(b.s, ":19:5: pools[16]: ", "a suite has at most 16 pools");
    ab_buf_free(&b);
    assert_rejects("suite: s\npools:\n  - {name: f, size: 4611686018427387904}\n"
                   "  - {name: g, size: 1}\ntensors: []\n",
                   ":4:5: pools[1] (name 'g'): ", "the pools' sizes add up to more than 2^62");
}

/* ---- peer expectations ------------------------------------------------------ */

Test(pools, loads_peer_arenas_per_pool_and_offsets) {
    ab_problem p;
    ab_buf b = {0};
    ab_buf_printf(&b, "%sexpect:\n  lower_bound: 90\n  peer_arena:\n"
                      "    usmp-greedy-by-size: {slow: 50, fast: 90}\n"
                      "    \"tflm-greedy:round=1\": 7\n"
                      "  peer_offsets:\n    usmp-greedy-by-size: [0, 100, 60]\n",
                  two_pools);
    load_ok(b.s, &p);
    ab_buf_free(&b);
    cr_assert_eq(p.npeers, 2);
    const ab_peer_expect *x = &p.peers[0], *y = &p.peers[1];
    cr_assert_str_eq(x->spec, "usmp-greedy-by-size");
    cr_assert_eq(x->arena, 140);
    cr_assert_not_null(x->pool_bytes);
    cr_assert_eq(x->pool_bytes[0], 90);
    cr_assert_eq(x->pool_bytes[1], 50);
    cr_assert_eq(x->noffsets, 3);
    cr_assert_eq(x->offsets[1], 100);
    cr_assert_str_eq(y->spec, "tflm-greedy:round=1");
    cr_assert_eq(y->arena, 7);
    cr_assert_null(y->pool_bytes);
    cr_assert_null(y->offsets);
    ab_problem_free(&p);
}

Test(pools, rejects_bad_peer_expectations) {
    const char *t = "suite: s\ntensors:\n  - {name: a, size: 1, start: 0, end: 0}\n";
    char y[2048];
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena: {worst-fit: 3}\n", t);
    assert_rejects(y, ":5:16: expect.peer_arena: ", "unknown planner 'worst-fit'");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena: {\"tflm-greedy:rnd=2\": 3}\n", t);
    assert_rejects(y, ":5:16: expect.peer_arena: ", "takes no parameter 'rnd'");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena: {first-fit: -3}\n", t);
    assert_rejects(y, ":5:27: expect.peer_arena.first-fit: ", "must be a non-negative integer");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena: {first-fit: 3, first-fit: 4}\n", t);
    assert_rejects(y, ":5:30: expect.peer_arena: ", "duplicate key 'first-fit'");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena: {first-fit: {fast: 3}}\n", t);
    assert_rejects(y, ":5:28: expect.peer_arena.first-fit: ", "the suite declares none");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena: [first-fit]\n", t);
    assert_rejects(y, ":5:15: expect.peer_arena: ", "must be a mapping from planner specs");
    snprintf(y, sizeof y, "%sexpect:\n  peer_offsets: {first-fit: [0, 1]}\n", t);
    assert_rejects(y, ":5:29: expect.peer_offsets.first-fit: ",
                   "has 2 offsets; the suite has 1 tensors in the arena");
    snprintf(y, sizeof y, "%sexpect:\n  peer_offsets: {first-fit: 0}\n", t);
    assert_rejects(y, ":5:29: expect.peer_offsets.first-fit: ", "must be a sequence of offsets");
    snprintf(y, sizeof y, "%sexpect:\n  peer_offsets: {first-fit: [x]}\n", t);
    assert_rejects(y, ":5:30: expect.peer_offsets.first-fit[0]: ", "got 'x'");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arenas: {first-fit: 1}\n", t);
    assert_rejects(y, ":5:3: expect: ", "did you mean 'peer_arena'?");
}

Test(pools, rejects_per_pool_arenas_that_miss_or_invent_a_pool) {
    char y[2048];
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena:\n    usmp-hill-climb: {fast: 1}\n", two_pools);
    assert_rejects(y, ":11:5: expect.peer_arena.usmp-hill-climb: ",
                   "gives no bytes for pool 'slow'; give every pool (0 for an unused one)");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena:\n    usmp-hill-climb: {fast: 1, sloww: 2}\n",
             two_pools);
    assert_rejects(y, ":11:32: expect.peer_arena.usmp-hill-climb: ",
                   "unknown pool 'sloww' (pools: fast, slow)");
    snprintf(y, sizeof y,
             "%sexpect:\n  peer_arena:\n    usmp-hill-climb: {fast: 1, slow: 2, fast: 3}\n",
             two_pools);
    assert_rejects(y, ":11:41: expect.peer_arena.usmp-hill-climb: ", "pool 'fast' given twice");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena:\n    usmp-hill-climb: {fast: 1, slow: x}\n",
             two_pools);
    assert_rejects(y, ":11:38: expect.peer_arena.usmp-hill-climb.slow: ", "got 'x'");
    snprintf(y, sizeof y, "%sexpect:\n  peer_arena:\n    usmp-hill-climb: {}\n", two_pools);
    assert_rejects(y, ":11:5: expect.peer_arena.usmp-hill-climb: ",
                   "must give bytes for every pool");
}

Test(pools, round_trips_pools_and_peer_expectations) {
    ab_problem p, q;
    ab_error err;
    ab_buf b = {0};
    ab_buf_printf(&b, "%sexpect:\n  lower_bound: 90\n  peer_arena:\n"
                      "    usmp-greedy-by-size: {fast: 90, slow: 50}\n"
                      "    \"tflm-greedy:round=1\": 7\n"
                      "  peer_offsets:\n    \"tflm-greedy:round=1\": [0, 100, 60]\n",
                  two_pools);
    load_ok(b.s, &p);
    ab_buf_free(&b);
    char *dir = abt_tmpdir(), path[4096];
    snprintf(path, sizeof path, "%s/out.yaml", dir);
    cr_assert_eq(abf_suite_write(&p, path, &err), AB_OK, "%s", err.msg);
    char *text = abt_slurp(path, NULL);
    cr_assert_eq(abf_suite_load(path, &q, &err), AB_OK, "%s\n%s", err.msg, text);
    assert_same(&p, &q);
    HAS(text, "pools:\n- {name: fast, size: 100}\n- {name: slow}\n");
    HAS(text, "usmp-greedy-by-size: {fast: 90, slow: 50}");
    /* the canonical text is a fixed point */
    ab_buf r1 = {0}, r2 = {0};
    cr_assert_eq(abf_suite_render(&p, &r1, &err), AB_OK);
    cr_assert_eq(abf_suite_render(&q, &r2, &err), AB_OK);
    cr_assert_str_eq(r1.s, r2.s);
    ab_buf_free(&r1);
    ab_buf_free(&r2);
    free(text);
    free(dir);
    ab_problem_free(&p);
    ab_problem_free(&q);
}

Test(pools, round_trips_every_peer_suite) {
    const char *names[] = {"tflm_greedy_medium.yaml", "usmp_mobilenet_subgraph.yaml",
                           "usmp_name_ordering.yaml", "tflite_gpu_chain_align128.yaml"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char src[4096];
        snprintf(src, sizeof src, "suites/peers/%s", names[i]);
        ab_problem p, q;
        ab_error err;
        cr_assert_eq(abf_suite_load(abt_src(src), &p, &err), AB_OK, "%s", err.msg);
        ab_buf b = {0};
        cr_assert_eq(abf_suite_render(&p, &b, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(abf_suite_load_buffer(names[i], b.s, b.n, &q, &err), AB_OK, "%s\n%s",
                     err.msg, b.s);
        assert_same(&p, &q);
        ab_buf_free(&b);
        ab_problem_free(&p);
        ab_problem_free(&q);
    }
}

Test(pools, survives_every_allocation_failure) {
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "%sexpect:\n  peer_arena:\n    usmp-hill-climb: {fast: 1, slow: 2}\n"
             "    first-fit: 3\n  peer_offsets: {first-fit: [0, 1, 2]}\n",
             two_pools);
    const char *path = abt_write_tmp(yaml, ".yaml");
    char saved[4096];
    snprintf(saved, sizeof saved, "%s", path);
    ab_problem good, p;
    ab_error err;
    ab_alloc_fail_at(0);
    cr_assert_eq(abf_suite_load(saved, &good, &err), AB_OK, "%s", err.msg);
    long count = ab_alloc_fail_at(0);
    cr_assert_gt(count, 10);
    for (long n = 1; n <= count; n++) {
        ab_alloc_fail_at(n);
        ab_status st = abf_suite_load(saved, &p, &err);
        ab_alloc_fail_at(0);
        cr_assert(st == AB_OK || st == AB_ENOMEM, "allocation %ld: status %d: %s", n, st, err.msg);
        if (st == AB_OK) assert_same(&good, &p);
        else cr_assert(problem_is_empty(&p), "allocation %ld left a half-loaded problem", n);
        ab_problem_free(&p);
    }
    for (long n = 1;; n++) { /* copies fail cleanly too */
        ab_problem c;
        ab_alloc_fail_at(n);
        ab_status st = ab_problem_clone(&good, &c, NULL);
        ab_alloc_fail_at(0);
        if (st == AB_OK) {
            assert_same(&good, &c);
            ab_problem_free(&c);
            break;
        }
        cr_assert_eq(st, AB_ENOMEM);
    }
    ab_problem_free(&good);
}

/* ---- the problem: copies, units, coarsening ------------------------------------ */

Test(pools, views_copy_pools_and_coarsening_divides_them) {
    ab_problem p, v, c;
    ab_error err;
    load_ok("suite: s\npools: [{name: f, size: 96}, {name: g}]\n"
            "tensors:\n  - {name: a, size: 32, start: 0, end: 0}\n"
            "  - {name: io, size: 8, start: 0, end: 0, kind: input}\n"
            "expect: {peer_arena: {first-fit: 32}}\n",
            &p);
    cr_assert_eq(ab_problem_arena_view(&p, &v, NULL, &err), AB_OK);
    cr_assert_eq(v.n, 1);
    cr_assert_eq(v.npools, 2);
    cr_assert_str_eq(v.pools[0].name, "f");
    cr_assert_eq(v.npeers, 1);
    cr_assert_eq(ab_problem_unit(&v), 32);
    cr_assert_eq(ab_problem_coarsen(&v, 32, &c, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(c.pools[0].size, 3);
    cr_assert_eq(c.pools[1].size, AB_NONE);
    cr_assert_eq(c.npeers, 0, "peer numbers are in bytes: dropped when coarsened");
    ab_problem_free(&c);
    cr_assert_eq(ab_problem_coarsen(&v, 64, &c, &err), AB_EINPUT);
    HAS(err.msg, "pool 'f': size 96 is not a multiple of k = 64");
    ab_problem_free(&v);
    ab_problem_free(&p);
}

/* ---- the checker --------------------------------------------------------------- */

static abo_report check_offsets(const ab_problem *p, const int64_t *off) {
    ab_plan pl;
    abo_report r;
    ab_error err;
    cr_assert_eq(ab_plan_from_offsets(&pl, off, p->n, &err), AB_OK);
    cr_assert_eq(abo_check(p, &pl, &r, &err), AB_OK, "%s", err.msg);
    ab_plan_free(&pl);
    return r;
}

Test(pools, checker_counts_overlaps_only_within_a_pool) {
    ab_problem p;
    load_ok(two_pools, &p);
    /* a in fast at 0; b in slow at 0 and c in slow at 50: all conflict pairwise
     * where they share an instruction, none share a byte of one pool */
    int64_t ok[3] = {0, 100, 150};
    abo_report r = check_offsets(&p, ok);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.npools, 2);
    cr_assert_eq(r.pool_used[0], 60);
    cr_assert_eq(r.pool_used[1], 80);
    cr_assert_eq(r.arena, 140, "with pools the arena is the pools' used bytes summed");
    int64_t clash[3] = {0, 100, 120}; /* b [0,50) and c [20,50) in slow */
    r = check_offsets(&p, clash);
    cr_assert_eq(r.verdict, ABO_OVERLAP);
    HAS(r.msg, "'b' [100, 150) and 'c' [120, 150)");
    ab_problem_free(&p);
}

Test(pools, checker_holds_each_pool_to_its_size) {
    ab_problem p;
    load_ok(two_pools, &p);
    int64_t off[3] = {50, 120, 170}; /* a [50,110) runs past fast's 100 bytes */
    abo_report r = check_offsets(&p, off);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY);
    HAS(r.msg, "over-capacity: 'a' [50, 110) in pool 'fast' runs past its size 100");
    ab_problem_free(&p);
    load_ok("suite: s\npools: [{name: f, size: 8}, {name: g, size: 4}]\n"
            "tensors:\n  - {name: a, size: 2, start: 0, end: 0}\n",
            &p);
    int64_t past[1] = {12};
    r = check_offsets(&p, past);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY);
    HAS(r.msg, "'a' offset 12 lies past the last pool 'g' (the pools end at 12)");
    int64_t tail[1] = {11};
    r = check_offsets(&p, tail);
    HAS(r.msg, "'a' [3, 5) in pool 'g' runs past its size 4");
    ab_problem_free(&p);
}

/* The reproducer: a tensor past the last pool was left out of the
 * arena, which read 70 under a max-load bound of 80. */
Test(pools, checker_counts_a_tensor_past_the_last_pool_in_the_arena) {
    ab_problem p;
    load_ok("suite: pool2\npools:\n  - {name: sram, size: 32}\n  - {name: psram, size: 48}\n"
            "tensors:\n  - {name: a, size: 20, start: 0, end: 1}\n"
            "  - {name: b, size: 20, start: 1, end: 2}\n  - {name: c, size: 30, start: 2, end: 3}\n"
            "  - {name: d, size: 30, start: 2, end: 3}\n",
            &p);
    int64_t off[4] = {0, 32, 52, 82}; /* first-fit's plan: d at 82, past psram's end 80 */
    abo_report r = check_offsets(&p, off);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY, "%s", r.msg);
    HAS(r.msg, "'d' offset 82 lies past the last pool 'psram' (the pools end at 80)");
    cr_assert_eq(r.pool_used[0], 20);
    cr_assert_eq(r.pool_used[1], 80, "d [50, 80) from psram's base counts in psram");
    cr_assert_eq(r.arena, 100);
    cr_assert(abo_verdict_packs(r.verdict));
    ab_problem_free(&p);
}

/* A tensor past the end of a sized last pool counts in that pool, from its
 * base (issue 30): its alignment too, so a spilled planner's plan that runs
 * past the last pool is over capacity, not misaligned. */
Test(pools, checker_aligns_a_tensor_past_the_last_pool_from_the_last_pools_base) {
    ab_problem p;
    load_ok("suite: s\npools: [{name: f, size: 10}, {name: g, size: 6}]\n"
            "tensors:\n  - {name: a, size: 4, start: 0, end: 0, align: 8}\n",
            &p);
    int64_t from_g[1] = {26}; /* 16 from g's base 10, though 26 is no multiple of 8 */
    abo_report r = check_offsets(&p, from_g);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY, "%s", r.msg);
    cr_assert_str_eq(r.msg, "over-capacity: 'a' offset 26 lies past the last pool 'g' (the pools "
                            "end at 16)");
    cr_assert_eq(r.pool_used[1], 20);
    int64_t joint[1] = {24}; /* a multiple of 8, but 14 from g's base */
    r = check_offsets(&p, joint);
    cr_assert_eq(r.verdict, ABO_MISALIGNED);
    HAS(r.msg, "misaligned: 'a' offset 14 from the last pool 'g' (past its end) is not a "
               "multiple of its align 8");
    ab_problem_free(&p);
}

/* Two tensors in different pools never share a byte (issue 30): one running
 * past its pool's end into the next pool's window is over capacity, and the
 * sweep still finds the overlaps within the next pool. */
Test(pools, checker_finds_no_overlap_across_pools_when_a_tensor_runs_past_its_pool) {
    ab_problem p;
    load_ok(two_pools, &p);
    int64_t past[3] = {50, 100, 150}; /* a [50,110) runs past fast into slow's window */
    abo_report r = check_offsets(&p, past);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY, "%s", r.msg);
    cr_assert_eq(r.overlap_a, AB_NO_TENSOR);
    cr_assert_str_eq(r.msg, "over-capacity: 'a' [50, 110) in pool 'fast' runs past its size 100");
    cr_assert_eq(r.pool_used[0], 110);
    cr_assert_eq(r.pool_used[1], 80);
    int64_t clash[3] = {50, 100, 120}; /* b [0,50) and c [20,50) in slow still clash */
    r = check_offsets(&p, clash);
    cr_assert_eq(r.verdict, ABO_OVERLAP, "%s", r.msg);
    cr_assert_eq(r.overlap_a, 1);
    cr_assert_eq(r.overlap_b, 2);
    cr_assert_eq(r.nproblems, 2, "%s", r.msg);
    ab_problem_free(&p);
}

/* The pools' used bytes of an over-capacity plan may sum past 64 bits. */
Test(pools, checker_survives_pools_whose_used_bytes_sum_past_64_bits) {
    ab_problem p;
    load_ok("suite: s\npools: [{name: f, size: 1}, {name: g}]\n"
            "tensors:\n  - {name: a, size: 10, start: 0, end: 0}\n"
            "  - {name: b, size: 10, start: 0, end: 0}\n",
            &p);
    int64_t off[2] = {0, INT64_MAX - 10}; /* f uses 10, g all but 1 byte of 2^63 */
    abo_report r = check_offsets(&p, off);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY, "%s", r.msg);
    ab_problem_free(&p);
}

/* splitmix64: the random tests' generator. */
static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Random pooled plans, many over their pools or past the last one: whenever
 * the plan packs (checks 1-7 pass), its arena is at least the max-load bound,
 * and it equals the sum of the pools' used bytes computed here directly. */
Test(pools, a_packing_arena_is_never_below_max_load) {
    uint64_t s = 0x5eed;
    size_t packs = 0;
    for (int iter = 0; iter < 3000; iter++) {
        ab_problem p;
        ab_problem_init(&p);
        size_t npools = 1 + (size_t)(next(&s) % 3);
        ab_pool pools[3];
        int64_t base[3], at = 0;
        for (size_t k = 0; k < npools; k++) {
            pools[k].name = (char *)(k == 0 ? "p0" : k == 1 ? "p1" : "p2");
            pools[k].size = 4 + (int64_t)(next(&s) % 40);
            base[k] = at;
            at += pools[k].size;
        }
        p.npools = npools;
        p.pools = pools;
        size_t n = 1 + (size_t)(next(&s) % 8);
        int64_t *off = calloc(n, sizeof *off), load[8] = {0};
        cr_assert_not_null(off);
        for (size_t i = 0; i < n; i++) {
            int64_t size = 1 + (int64_t)(next(&s) % 24), st = (int64_t)(next(&s) % 6);
            int64_t en = st + (int64_t)(next(&s) % 3);
            ab_tensor t = {.name = (char *)"t", .size = size, .logical_bits = size * 8,
                           .start = st, .end = en, .align = 1, .offset = AB_NONE};
            cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
            off[i] = (int64_t)(next(&s) % (uint64_t)(at + 40));
            for (int64_t x = st; x <= en && x < 8; x++) load[x] += size;
        }
        abo_report r = check_offsets(&p, off);
        int64_t max_load = 0, used[3] = {0}, sum = 0;
        for (int x = 0; x < 8; x++) max_load = load[x] > max_load ? load[x] : max_load;
        for (size_t i = 0; i < n; i++) {
            size_t k = npools - 1;
            while (k > 0 && off[i] < base[k]) k--;
            int64_t end = off[i] - base[k] + p.t[i].size;
            if (end > used[k]) used[k] = end;
        }
        for (size_t k = 0; k < npools; k++) sum += used[k];
        cr_assert_eq(r.arena, sum, "iteration %d", iter);
        if (abo_verdict_packs(r.verdict)) {
            packs++;
            cr_assert_geq(r.arena, max_load, "iteration %d: arena below max-load", iter);
        }
        p.npools = 0; /* the pools are this test's own */
        p.pools = NULL;
        ab_problem_free(&p);
        free(off);
    }
    cr_assert_gt(packs, 100, "only %zu of the random plans packed", packs);
}

Test(pools, checker_aligns_offsets_within_their_pool) {
    ab_problem p;
    load_ok("suite: s\npools: [{name: f, size: 100}, {name: g}]\n"
            "tensors:\n  - {name: a, size: 8, start: 0, end: 0, align: 64}\n",
            &p);
    int64_t at_start[1] = {100}; /* offset 0 in g, though 100 is no multiple of 64 */
    abo_report r = check_offsets(&p, at_start);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    int64_t at_128[1] = {128};
    r = check_offsets(&p, at_128);
    cr_assert_eq(r.verdict, ABO_MISALIGNED);
    HAS(r.msg, "'a' offset 28 in pool 'g' is not a multiple of its align 64");
    ab_problem_free(&p);
}

/* ---- plan files ------------------------------------------------------------------ */

Test(pools, plan_files_name_the_pool_and_the_offset_in_it) {
    ab_problem p;
    ab_error err;
    load_ok(two_pools, &p);
    int64_t off[3] = {0, 100, 150};
    ab_plan pl, back;
    cr_assert_eq(ab_plan_from_offsets(&pl, off, 3, &err), AB_OK);
    char *dir = abt_tmpdir(), path[4096];
    snprintf(path, sizeof path, "%s/p.csv", dir);
    cr_assert_eq(abf_plan_write(path, &p, &pl, &err), AB_OK, "%s", err.msg);
    char *text = abt_slurp(path, NULL);
    cr_assert_str_eq(text, "tensor,pool,offset,size,start,end\n"
                           "a,fast,0,60,0,1\n"
                           "b,slow,0,50,1,2\n"
                           "c,slow,50,30,0,2\n");
    cr_assert_eq(abf_plan_read(path, &p, &back, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(back.n, 3);
    for (size_t i = 0; i < 3; i++) cr_assert_eq(back.v[i].offset, off[i]);
    free(text);
    ab_plan_free(&back);
    ab_plan_free(&pl);
    free(dir);
    ab_problem_free(&p);
}

Test(pools, plan_files_without_the_pool_column_give_joint_offsets) {
    ab_problem p;
    ab_error err;
    ab_plan pl;
    load_ok(two_pools, &p);
    const char *path = abt_write_tmp("tensor,offset\na,0\nb,100\nc,150\n", ".csv");
    cr_assert_eq(abf_plan_read(path, &p, &pl, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(pl.v[2].offset, 150);
    ab_plan_free(&pl);
    path = abt_write_tmp("tensor,pool,offset\na,,0\nb,slow,0\nc,,150\n", ".csv");
    cr_assert_eq(abf_plan_read(path, &p, &pl, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(pl.v[1].offset, 100);
    cr_assert_eq(pl.v[2].offset, 150, "an empty pool field: a joint offset");
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(pools, plan_files_reject_unknown_pools_and_offsets_outside_them) {
    ab_problem p, q;
    ab_error err;
    ab_plan pl;
    load_ok(two_pools, &p);
    const char *path = abt_write_tmp("tensor,pool,offset\na,medium,0\n", ".csv");
    cr_assert_eq(abf_plan_read(path, &p, &pl, &err), AB_EINPUT);
    HAS(err.msg, ":2:3: pool: 'medium' is not a pool of the suite");
    path = abt_write_tmp("tensor,pool,offset\na,fast,100\n", ".csv");
    cr_assert_eq(abf_plan_read(path, &p, &pl, &err), AB_EINPUT);
    HAS(err.msg, ":2: offset: 100 is outside pool 'fast' (its size is 100)");
    load_ok("suite: s\ntensors:\n  - {name: a, size: 1, start: 0, end: 0}\n", &q);
    path = abt_write_tmp("tensor,pool,offset\na,fast,0\n", ".csv");
    cr_assert_eq(abf_plan_read(path, &q, &pl, &err), AB_EINPUT);
    HAS(err.msg, ":2:3: pool: 'fast', but the suite declares no pools");
    ab_problem_free(&q);
    ab_problem_free(&p);
}

/* ---- planners that know one arena ---------------------------------------------- */

Test(pools, one_arena_planners_spill_what_does_not_fit_to_the_next_pool) {
    ab_problem p, view;
    ab_plan plan;
    ab_plan_stats st;
    ab_error err;
    abo_report r;
    load_ok(two_pools, &p);
    const ab_planner *ff = ab_planner_find("first-fit");
    ab_params none = {0};
    /* a@0, c@60, b@90 passes fast's 100: b spills to slow; a and c fit in 90 */
    cr_assert_eq(ab_planner_run(ff, &none, &p, &view, &plan, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abo_check(&view, &plan, &r, &err), AB_OK);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.pool_used[0], 90);
    cr_assert_eq(r.pool_used[1], 50);
    HAS(st.note, "spill: fast 2 tensors 90 B, slow 1 tensors 50 B (3 rounds)");
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

Test(pools, one_arena_planners_plan_a_single_pool_held_to_its_size) {
    ab_problem p, view;
    ab_plan plan;
    ab_plan_stats st;
    ab_error err;
    abo_report r;
    load_ok("suite: s\npools: [{name: sram, size: 100}]\n"
            "tensors:\n  - {name: a, size: 60, start: 0, end: 1}\n"
            "  - {name: b, size: 50, start: 1, end: 2}\n",
            &p);
    ab_params none = {0};
    cr_assert_eq(ab_planner_run(ab_planner_find("first-fit"), &none, &p, &view, &plan, &st, &err),
                 AB_OK, "%s", err.msg);
    cr_assert_eq(abo_check(&view, &plan, &r, &err), AB_OK);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY, "60 + 50 bytes live at once in a 100-byte pool");
    HAS(r.msg, "in pool 'sram' runs past its size 100");
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

/* The ILP on a one-pool suite that max-load proves cannot fit: its plan is a
 * valid plan over the pool (the judge calls the row infeasible), not an error. */
Test(pools, the_ilp_returns_its_plan_over_a_pool_that_cannot_fit) {
    ab_problem p, view;
    ab_plan plan;
    ab_plan_stats st = {0};
    ab_error err;
    abo_report r;
    load_ok("suite: pool1\npools:\n  - {name: sram, size: 32}\n"
            "tensors:\n  - {name: a, size: 20, start: 0, end: 1}\n"
            "  - {name: b, size: 20, start: 1, end: 2}\n  - {name: c, size: 30, start: 2, end: 3}\n"
            "  - {name: d, size: 30, start: 2, end: 3}\n",
            &p);
    ab_params none = {0};
    cr_assert_eq(ab_planner_run(ab_planner_find("ilp"), &none, &p, &view, &plan, &st, &err),
                 AB_OK, "%s", err.msg);
    cr_assert_eq(abo_check(&view, &plan, &r, &err), AB_OK);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY, "%s", r.msg);
    cr_assert_geq(r.arena, 80, "max-load is 80");
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

Test(pools, the_runner_child_spills_too_and_returns_pool_plans_intact) {
    ab_problem p, view;
    ab_error err;
    load_ok("suite: m\npools: [{name: fast, size: 64}, {name: slow}]\n"
            "tensors:\n  - {name: a, size: 64, start: 0, end: 1}\n"
            "  - {name: b, size: 64, start: 1, end: 2}\n"
            "  - {name: c, size: 16, start: 2, end: 3}\n",
            &p);
    cr_assert_eq(ab_problem_arena_view(&p, &view, NULL, &err), AB_OK);
    const char *specs[] = {"usmp-greedy-by-size", "first-fit"};
    abe_job jobs[2];
    ab_params prm[2];
    for (int i = 0; i < 2; i++) {
        const ab_planner *pl;
        cr_assert_eq(ab_planner_resolve(specs[i], &pl, &prm[i], &err), AB_OK);
        jobs[i] = (abe_job){.view = &view, .planner = pl, .params = &prm[i]};
    }
    abe_job_result res[2];
    abe_options opt = {.jobs = 2, .time_limit = 30};
    cr_assert_eq(abe_run(jobs, 2, &opt, res, NULL, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(res[0].status, ABE_OK, "%s", res[0].message);
    /* by size, then conflicts: b (2 conflicts) fills fast; a and c, which
     * meet b, go to the start of slow */
    cr_assert_eq(res[0].offsets[0], 64);
    cr_assert_eq(res[0].offsets[1], 0);
    cr_assert_eq(res[0].offsets[2], 64);
    abo_report r = check_offsets(&view, res[0].offsets);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    cr_assert_eq(r.pool_used[0], 64);
    cr_assert_eq(r.pool_used[1], 64);
    /* first-fit through the spill rule: b (above fast's 64) spills to slow */
    cr_assert_eq(res[1].status, ABE_OK, "%s", res[1].message);
    cr_assert_eq(res[1].offsets[0], 0);
    cr_assert_eq(res[1].offsets[1], 64);
    cr_assert_eq(res[1].offsets[2], 0);
    r = check_offsets(&view, res[1].offsets);
    cr_assert_eq(r.verdict, ABO_OK, "%s", r.msg);
    abe_results_free(res, 2);
    for (int i = 0; i < 2; i++) ab_params_free(&prm[i]);
    ab_problem_free(&view);
    ab_problem_free(&p);
}
