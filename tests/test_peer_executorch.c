/*
 * test_peer_executorch.c — the ExecuTorch planners (issue 32):
 * executorch-greedy and executorch-naive (planners/peer_executorch.c).
 *
 * First the numbers of ExecuTorch's own test, test_multiple_pools
 * (exir/tests/test_memory_planning.py), from the suites that hold them
 * (suites/peers/executorch_multiple_pools_*.yaml), pinned here to the
 * numbers the test states so neither side drifts alone. Then the rule,
 * fact by fact, on tiny problems: the rounding to `align`, the order (keys
 * rounded to 16, equal keys later first), the first free object, the top
 * of the conflicts inside an object (`overlap`), ExecuTorch's failing
 * assertion, fixed offsets as a base, larger tensor aligns. Last, each
 * planner against a reference written here from the description alone,
 * simple and slow, on thousands of random small problems with a fixed seed:
 * the offsets must be identical, and the checker judges every plan.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/suite.h"
#include "oracle/check.h"
#include "planners/planner.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))
#define MAXN 64

/* ---- helpers ------------------------------------------------------------------- */

static void load_peer(const char *file, ab_problem *p) {
    char rel[512];
    ab_error err;
    snprintf(rel, sizeof rel, "suites/peers/%s", file);
    cr_assert_eq(abf_suite_load(abt_src(rel), p, &err), AB_OK, "%s", err.msg);
}

/* Plans p by spec through the registry (ab_planner_run); on AB_OK the
 * checker must find the plan valid, and off[i] (i indexing p: the tests'
 * problems keep every tensor in the arena) and *arena are filled. err holds
 * the planner's message otherwise. */
static ab_status plan(const char *spec, const ab_problem *p, int64_t *off, int64_t *arena,
                      ab_error *err) {
    const ab_planner *pl;
    ab_params prm;
    ab_status s = ab_planner_resolve(spec, &pl, &prm, err);
    if (s != AB_OK) return s;
    ab_problem view;
    ab_plan out;
    ab_plan_stats st;
    s = ab_planner_run(pl, &prm, p, &view, &out, &st, err);
    if (s == AB_OK) {
        abo_report r;
        ab_error e2;
        cr_assert_eq(view.n, p->n, "every tensor is in the arena");
        cr_assert_eq(abo_check(&view, &out, &r, &e2), AB_OK, "%s", e2.msg);
        cr_assert_eq(r.verdict, ABO_OK, "%s on %s: %s", spec, p->name, r.msg);
        for (size_t i = 0; i < out.n; i++) {
            cr_assert_str_eq(view.t[out.v[i].tensor].name, p->t[out.v[i].tensor].name);
            off[out.v[i].tensor] = out.v[i].offset;
        }
        if (arena) *arena = r.arena;
    }
    ab_plan_free(&out); /* the view and plan are the caller's whatever the status */
    ab_problem_free(&view);
    ab_params_free(&prm);
    return s;
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

/* spec plans rows to exactly want (one offset a row) and arena. */
static void expect_plan(const char *spec, const row *rows, size_t n, const int64_t *want,
                        int64_t arena) {
    ab_problem p;
    make(&p, rows, n);
    int64_t off[MAXN], got;
    ab_error err;
    cr_assert_eq(plan(spec, &p, off, &got, &err), AB_OK, "%s: %s", spec, err.msg);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(off[i], want[i], "%s: %s at %lld, expected %lld", spec, rows[i].name,
                     (long long)off[i], (long long)want[i]);
    cr_expect_eq(got, arena, "%s: arena %lld, expected %lld", spec, (long long)got,
                 (long long)arena);
    ab_problem_free(&p);
}

/* ---- ExecuTorch's test_multiple_pools ---------------------------------------------- */

/* The expectation for spec in p (it must be there). */
static const ab_peer_expect *expectation(const ab_problem *p, const char *spec) {
    for (size_t i = 0; i < p->npeers; i++)
        if (strcmp(p->peers[i].spec, spec) == 0) return &p->peers[i];
    cr_assert_fail("suite %s has no expectation for %s", p->name, spec);
    return NULL;
}

/* The suite file holds arena (and offsets, when not NULL) for spec, and
 * spec plans the suite to them. */
static void pin(const char *file, const char *spec, int64_t arena, const int64_t *offsets) {
    ab_problem p;
    load_peer(file, &p);
    const ab_peer_expect *x = expectation(&p, spec);
    cr_assert_eq(x->arena, arena, "%s %s: the suite says %lld", file, spec, (long long)x->arena);
    if (offsets) {
        cr_assert_eq(x->noffsets, p.n, "%s %s", file, spec);
        for (size_t i = 0; i < p.n; i++) cr_assert_eq(x->offsets[i], offsets[i]);
    }
    int64_t off[MAXN], got;
    ab_error err;
    cr_assert_eq(plan(spec, &p, off, &got, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(got, arena, "%s %s: arena %lld", file, spec, (long long)got);
    for (size_t i = 0; offsets && i < p.n; i++)
        cr_assert_eq(off[i], offsets[i], "%s %s: %s at %lld", file, spec, p.t[i].name,
                     (long long)off[i]);
    ab_problem_free(&p);
}

/* The tensors of the suite are 4 bytes each (float32, shape [1]) with these
 * inclusive live ranges, in this order. */
static void pin_tensors(const char *file, const char *const *names, const int64_t (*range)[2],
                        size_t n) {
    ab_problem p;
    load_peer(file, &p);
    cr_assert_eq(p.n, n, "%s", file);
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_eq(p.t[i].name, names[i]);
        cr_assert_eq(p.t[i].size, 4, "%s: float32 [1]", names[i]);
        cr_assert_eq(p.t[i].start, range[i][0], "%s", names[i]);
        cr_assert_eq(p.t[i].end, range[i][1], "%s", names[i]);
    }
    ab_problem_free(&p);
}

/* test_multiple_pools, memory id 1: greedy puts a at (1, 0), c at (1, 4), e
 * at (1, 0) and the buffer of id 1 is 8 bytes; naive a 0, c 4, e 8 and 12
 * bytes (alignment=1). */
Test(executorch_peer, test_multiple_pools_memory_id_1) {
    static const char *const names[] = {"a", "c", "e"};
    static const int64_t range[][2] = {{0, 4}, {3, 8}, {7, 9}};
    pin_tensors("executorch_multiple_pools_mem1.yaml", names, range, 3);
    pin("executorch_multiple_pools_mem1.yaml", "executorch-greedy:align=1", 8,
        (int64_t[]){0, 4, 0});
    pin("executorch_multiple_pools_mem1.yaml", "executorch-naive:align=1", 12,
        (int64_t[]){0, 4, 8});
}

/* test_multiple_pools, memory id 3: 8 bytes for both algorithms, the
 * offsets 0 and 4 once each (the test compares a multiset); naive b 0, d 4
 * (graph order). Greedy's b 4, d 0 is the rule's (equal keys, later first),
 * not a number of the test. */
Test(executorch_peer, test_multiple_pools_memory_id_3) {
    static const char *const names[] = {"b", "d"};
    static const int64_t range[][2] = {{1, 6}, {5, 8}};
    pin_tensors("executorch_multiple_pools_mem3.yaml", names, range, 2);
    pin("executorch_multiple_pools_mem3.yaml", "executorch-greedy:align=1", 8, NULL);
    pin("executorch_multiple_pools_mem3.yaml", "executorch-naive:align=1", 8, (int64_t[]){0, 4});
    ab_problem p;
    load_peer("executorch_multiple_pools_mem3.yaml", &p);
    int64_t off[2];
    ab_error err;
    cr_assert_eq(plan("executorch-greedy:align=1", &p, off, NULL, &err), AB_OK);
    cr_assert(off[0] + off[1] == 4 && off[0] * off[1] == 0, "the multiset {0, 4}");
    cr_assert_eq(off[0], 4, "b, first in the graph, goes second");
    cr_assert_eq(off[1], 0);
    ab_problem_free(&p);
}

/* ---- the rule, fact by fact ---------------------------------------------------------- */

Test(executorch_rule, rounds_every_size_to_16_by_default) {
    /* three 4-byte tensors, all conflicting: each 16 bytes; equal keys,
     * later first: t2 makes object 0, t1 object 1, t0 object 2 */
    row r[] = {{"t0", 4, 0, 2, 1, -1}, {"t1", 4, 0, 2, 1, -1}, {"t2", 4, 0, 2, 1, -1}};
    expect_plan("executorch-greedy", r, 3, (int64_t[]){32, 16, 0}, 36);
    expect_plan("executorch-naive", r, 3, (int64_t[]){0, 16, 32}, 36);
    expect_plan("executorch-naive:align=1", r, 3, (int64_t[]){0, 4, 8}, 12);
}

Test(executorch_rule, naive_never_reuses) {
    /* no two conflict, yet each gets its own slot, in suite order */
    row r[] = {{"a", 10, 0, 0, 1, -1}, {"b", 40, 1, 1, 1, -1}, {"c", 17, 2, 2, 1, -1}};
    expect_plan("executorch-naive", r, 3, (int64_t[]){0, 16, 64}, 81);
    expect_plan("executorch-greedy", r, 3, (int64_t[]){0, 0, 0}, 40);
}

Test(executorch_rule, takes_the_first_free_object_not_the_closest_in_size) {
    /* P (64) makes object 0, Q (32) conflicts with it and cannot sit on it
     * inside 64 bytes: object 1 at 64. R (16) is free in both: the first,
     * object 0, though object 1 is closer in size (the older greedy took
     * the closest) */
    row r[] = {{"P", 64, 0, 1, 1, -1}, {"Q", 32, 0, 1, 1, -1}, {"R", 16, 2, 3, 1, -1}};
    expect_plan("executorch-greedy", r, 3, (int64_t[]){0, 64, 0}, 96);
}

Test(executorch_rule, stacks_inside_an_object_only_with_overlap_on) {
    /* X (64) makes object 0; Z (32, [4,6]) is free in it: at 0; Y (32,
     * [2,5]) conflicts with Z only: on top of it at 32, inside 64 */
    row r[] = {{"X", 64, 0, 1, 1, -1}, {"Y", 32, 2, 5, 1, -1}, {"Z", 32, 4, 6, 1, -1}};
    expect_plan("executorch-greedy", r, 3, (int64_t[]){0, 32, 0}, 64);
    /* overlap=off (Vulkan's setting): Y makes an object of its own */
    expect_plan("executorch-greedy:overlap=off", r, 3, (int64_t[]){0, 64, 0}, 96);
}

Test(executorch_rule, stacks_on_the_top_of_its_conflicts_even_over_a_hole) {
    /* X (96) makes object 0; equal keys later first: C at 0, B on C at 32,
     * A conflicts with B only: at B's top, 64, though [0, 32) is free while
     * A lives (C starts at 5). Every tensor is in object 0. */
    row r[] = {{"X", 96, 0, 0, 1, -1},
               {"A", 32, 1, 3, 1, -1},
               {"B", 32, 3, 5, 1, -1},
               {"C", 32, 5, 7, 1, -1}};
    expect_plan("executorch-greedy", r, 4, (int64_t[]){0, 64, 32, 0}, 96);
    expect_plan("first-fit", r, 4, (int64_t[]){0, 0, 32, 0}, 96);
}

Test(executorch_rule, objects_never_grow) {
    /* C, B, A (equal keys, later first): C makes object 0 (16 bytes); B
     * conflicts with C, and on top of it would need 32: object 1 at 16, as
     * object 0 does not grow; A conflicts with B only: object 0 at 0 */
    row r[] = {{"A", 16, 0, 1, 1, -1}, {"B", 16, 1, 2, 1, -1}, {"C", 16, 2, 3, 1, -1}};
    expect_plan("executorch-greedy", r, 3, (int64_t[]){0, 16, 0}, 32);
}

Test(executorch_rule, sorts_on_sizes_rounded_to_16_whatever_the_align) {
    /* align=1: 20 and 30 bytes have the same key (32), so the later goes
     * first, smaller or not; two conflicting tensors */
    row small_first[] = {{"s20", 20, 0, 1, 1, -1}, {"s30", 30, 0, 1, 1, -1}};
    expect_plan("executorch-greedy:align=1", small_first, 2, (int64_t[]){30, 0}, 50);
    row big_first[] = {{"s30", 30, 0, 1, 1, -1}, {"s20", 20, 0, 1, 1, -1}};
    expect_plan("executorch-greedy:align=1", big_first, 2, (int64_t[]){20, 0}, 50);
    /* keys 48 and 32: the larger first, whatever the suite order */
    row keyed[] = {{"s20", 20, 0, 1, 1, -1}, {"s40", 40, 0, 1, 1, -1}};
    expect_plan("executorch-greedy:align=1", keyed, 2, (int64_t[]){40, 0}, 60);
}

Test(executorch_rule, fails_where_executorch_asserts_the_order) {
    /* align=1: 30 then 20 bytes, not conflicting, equal keys: 20 goes
     * first and makes an object of 20 bytes; 30 is free in it but larger:
     * ExecuTorch's assertion "Allocation specs are not sorted" fails */
    ab_problem p;
    make(&p, (row[]){{"big", 30, 0, 1, 1, -1}, {"small", 20, 2, 3, 1, -1}}, 2);
    int64_t off[2];
    ab_error err;
    cr_assert_eq(plan("executorch-greedy:align=1", &p, off, NULL, &err), AB_EINPUT);
    HAS(err.msg, "'big': ExecuTorch's greedy fails here");
    HAS(err.msg, "Allocation specs are not sorted");
    /* at align 16 (or 32: any multiple of 16) both are 32 bytes: one object */
    cr_assert_eq(plan("executorch-greedy", &p, off, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert(off[0] == 0 && off[1] == 0);
    cr_assert_eq(plan("executorch-greedy:align=32", &p, off, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(plan("executorch-naive:align=1", &p, off, NULL, &err), AB_OK, "%s", err.msg);
    ab_problem_free(&p);
}

Test(executorch_rule, fixed_offsets_are_memory_already_in_the_buffer) {
    /* F (10 B at 100) ends at 110: the plan starts at 112 (aligned to 16) */
    row r[] = {{"F", 10, 0, 9, 1, 100}, {"X", 8, 0, 1, 1, -1}, {"Y", 8, 5, 6, 1, -1}};
    expect_plan("executorch-greedy", r, 3, (int64_t[]){100, 112, 112}, 120);
    expect_plan("executorch-naive", r, 3, (int64_t[]){100, 112, 128}, 136);
    expect_plan("executorch-naive:align=1", r, 3, (int64_t[]){100, 110, 118}, 126);
}

Test(executorch_rule, a_tensor_align_above_align_raises_the_unit) {
    /* align=1, but v must sit on 64: every size is rounded to 64 */
    row r[] = {{"u", 10, 0, 1, 1, -1}, {"v", 10, 0, 1, 64, -1}};
    expect_plan("executorch-greedy:align=1", r, 2, (int64_t[]){64, 0}, 74);
    expect_plan("executorch-naive:align=1", r, 2, (int64_t[]){0, 64}, 74);
    /* an align that is not a power of two: the least common multiple, 192
     * with an align 64 tensor, 48 with an align 16 one */
    expect_plan("executorch-naive:align=24", r, 2, (int64_t[]){0, 192}, 202);
    row w[] = {{"u", 10, 0, 1, 1, -1}, {"v", 10, 0, 1, 16, -1}};
    expect_plan("executorch-naive:align=24", w, 2, (int64_t[]){0, 48}, 58);
}

Test(executorch_rule, checks_its_parameters) {
    const char *bad[] = {"executorch-greedy:align=0", "executorch-greedy:overlap=maybe",
                         "executorch-naive:overlap=on", "executorch-naive:align=x"};
    ab_problem p;
    make(&p, (row[]){{"a", 4, 0, 1, 1, -1}}, 1);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int64_t off[1];
        ab_error err;
        cr_assert_eq(plan(bad[i], &p, off, NULL, &err), AB_EINPUT, "%s", bad[i]);
    }
    const ab_planner *g = ab_planner_find("executorch-greedy");
    const ab_planner *nv = ab_planner_find("executorch-naive");
    cr_assert_not_null(g);
    cr_assert_not_null(nv);
    cr_assert_neq(g->flags & AB_PLANNER_DEFAULT, 0, "greedy is in the nightly's default set");
    cr_assert_eq(nv->flags & AB_PLANNER_DEFAULT, 0, "naive (no reuse at all) is not");
    ab_problem_free(&p);
}

Test(executorch_rule, fails_cleanly_at_each_allocation) {
    const char *specs[] = {"executorch-greedy", "executorch-naive"};
    ab_problem p;
    load_peer("tflm_greedy_medium.yaml", &p);
    for (size_t k = 0; k < 2; k++) {
        const ab_planner *pl;
        ab_params prm;
        ab_error err;
        cr_assert_eq(ab_planner_resolve(specs[k], &pl, &prm, &err), AB_OK);
        int64_t off[8];
        ab_plan_stats st = {.lower_bound = AB_NONE};
        ab_alloc_fail_at(0);
        cr_assert_eq(pl->plan(&p, &prm, off, &st, &err), AB_OK, "%s", err.msg);
        long count = ab_alloc_fail_at(0);
        cr_assert_gt(count, 0);
        for (long n = 1; n <= count; n++) {
            ab_alloc_fail_at(n);
            ab_status s = pl->plan(&p, &prm, off, &st, &err);
            ab_alloc_fail_at(0);
            cr_assert_eq(s, AB_ENOMEM, "%s, allocation %ld: %d %s", specs[k], n, s, err.msg);
        }
        ab_params_free(&prm);
    }
    ab_problem_free(&p);
}

/* ---- a reference, from the description alone ------------------------------------------ */

/* Shared objects as ExecuTorch describes them: a size and the tensors in
 * it, each with its offset inside. */
typedef struct ref_obj {
    int64_t size;
    size_t n, who[MAXN];
    int64_t at[MAXN];
} ref_obj;

static int64_t ref_gcd(int64_t a, int64_t b) { return b == 0 ? a : ref_gcd(b, a % b); }
static int64_t ref_round(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

/* ExecuTorch's overlap of two lifetimes, inclusive at both ends. */
static bool ref_lifetimes_overlap(const ab_tensor *a, const ab_tensor *b) {
    return !(a->end < b->start || a->start > b->end);
}

/* The unit: the align parameter, raised to a multiple of every align of a
 * tensor to place. The base: above every fixed tensor, rounded up to it. */
static void ref_unit_and_base(const ab_problem *p, int64_t param, int64_t *unit, int64_t *base) {
    *unit = param;
    *base = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->offset == AB_NONE) *unit = *unit / ref_gcd(*unit, t->align) * t->align;
        else if (t->offset + t->size > *base) *base = t->offset + t->size;
    }
    *base = ref_round(*base, *unit);
}

/* Naive: in suite order, each at the running top. */
static void ref_naive(const ab_problem *p, int64_t param, int64_t *off) {
    int64_t unit, top;
    ref_unit_and_base(p, param, &unit, &top);
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset != AB_NONE) {
            off[i] = p->t[i].offset;
            continue;
        }
        off[i] = top;
        top += ref_round(p->t[i].size, unit);
    }
}

/* Greedy: 0 and off filled, or -1 where ExecuTorch's assertion fails.
 * *stacked counts the tensors put on top of others inside an object. */
static int ref_greedy(const ab_problem *p, int64_t param, bool overlap, int64_t *off,
                      int *stacked) {
    int64_t unit, base;
    ref_unit_and_base(p, param, &unit, &base);
    /* the order: insert each after the equal keys already there (insort),
     * ascending by size rounded to 16, then reverse */
    size_t order[MAXN], n = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset != AB_NONE) continue;
        size_t at = n;
        while (at > 0 && ref_round(p->t[order[at - 1]].size, 16) > ref_round(p->t[i].size, 16))
            at--;
        memmove(&order[at + 1], &order[at], (n - at) * sizeof *order);
        order[at] = i;
        n++;
    }
    for (size_t a = 0, b = n ? n - 1 : 0; a < b; a++, b--) {
        size_t x = order[a];
        order[a] = order[b];
        order[b] = x;
    }
    static ref_obj objs[MAXN];
    size_t nobjs = 0, obj_of[MAXN];
    int64_t inner[MAXN];
    for (size_t r = 0; r < n; r++) {
        size_t i = order[r];
        const ab_tensor *t = &p->t[i];
        int64_t size = ref_round(t->size, unit);
        long picked = -1;
        for (size_t o = 0; o < nobjs && picked < 0; o++) { /* a free object */
            bool free_here = true;
            for (size_t m = 0; m < objs[o].n; m++)
                if (ref_lifetimes_overlap(t, &p->t[objs[o].who[m]])) free_here = false;
            if (!free_here) continue;
            if (objs[o].size < size) return -1; /* "Allocation specs are not sorted" */
            picked = (long)o;
            inner[i] = 0;
        }
        for (size_t o = 0; o < nobjs && picked < 0 && overlap; o++) { /* on top */
            int64_t top = 0;
            for (size_t m = 0; m < objs[o].n; m++) {
                size_t j = objs[o].who[m];
                int64_t end = objs[o].at[m] + ref_round(p->t[j].size, unit);
                if (ref_lifetimes_overlap(t, &p->t[j]) && end > top) top = end;
            }
            if (top > 0 && top + size <= objs[o].size) {
                picked = (long)o;
                inner[i] = top;
                (*stacked)++;
            }
        }
        if (picked < 0) { /* a new object */
            objs[nobjs] = (ref_obj){.size = size};
            picked = (long)nobjs++;
            inner[i] = 0;
        }
        ref_obj *o = &objs[picked];
        o->who[o->n] = i;
        o->at[o->n++] = inner[i];
        obj_of[i] = (size_t)picked;
    }
    int64_t obj_at[MAXN], top = base;
    for (size_t o = 0; o < nobjs; o++) {
        obj_at[o] = top;
        top += objs[o].size;
    }
    for (size_t i = 0; i < p->n; i++)
        off[i] = p->t[i].offset != AB_NONE ? p->t[i].offset : obj_at[obj_of[i]] + inner[i];
    return 0;
}

/* ---- random problems ---------------------------------------------------------------- */

static uint64_t rng;
static uint64_t next(void) { /* xorshift: deterministic from the seed */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random problem of 1 .. 40 tensors: short live ranges on a short
 * horizon (many conflicts), sizes often on multiples of 8 (many equal
 * keys), a few larger aligns, and with fixed, some fixed offsets that do
 * not collide with each other. */
static void random_problem(ab_problem *p, bool fixed) {
    static char names[MAXN][16];
    ab_problem_init(p);
    p->name = strdup("random");
    size_t n = 1 + next() % 40;
    int64_t horizon = 1 + (int64_t)(next() % 25);
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "t%zu", i);
        int64_t s = (int64_t)(next() % (uint64_t)horizon);
        int64_t sz = next() % 2 ? 8 * (1 + (int64_t)(next() % 12)) : 1 + (int64_t)(next() % 120);
        ab_tensor t = {.name = names[i], .size = sz, .logical_bits = sz * 8, .start = s,
                       .end = s + (int64_t)(next() % 7), .offset = AB_NONE,
                       .align = next() % 6 == 0 ? (int64_t)1 << (next() % 7) : 1};
        if (fixed && next() % 7 == 0) t.offset = t.align * (int64_t)(next() % 8) * 16;
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            ab_tensor *a = &p->t[i], *b = &p->t[j];
            if (a->offset != AB_NONE && b->offset != AB_NONE && ab_conflict(a, b) &&
                a->offset < b->offset + b->size && b->offset < a->offset + a->size)
                a->offset = AB_NONE;
        }
}

static const int64_t aligns[] = {16, 1, 2, 4, 8, 32, 64, 3, 24, 48};

Test(executorch_reference, greedy_gives_the_references_offsets_on_random_problems) {
    rng = 0x2545F4914F6CDD1Dull;
    int plans = 0, asserted = 0, stacked = 0, fixed = 0;
    for (int round = 0; round < 3000; round++) {
        ab_problem p;
        random_problem(&p, round % 3 == 2);
        int64_t param = aligns[next() % (sizeof aligns / sizeof *aligns)];
        bool overlap = next() % 4 != 0;
        char spec[64];
        snprintf(spec, sizeof spec, "executorch-greedy:align=%lld,overlap=%s", (long long)param,
                 overlap ? "on" : "off");
        int64_t want[MAXN], got[MAXN];
        int ref = ref_greedy(&p, param, overlap, want, &stacked);
        ab_error err;
        ab_status s = plan(spec, &p, got, NULL, &err);
        if (ref < 0) {
            cr_assert_eq(s, AB_EINPUT, "round %d, %s: the reference fails, the planner does not",
                         round, spec);
            HAS(err.msg, "Allocation specs are not sorted");
            cr_assert_neq(param % 16, 0, "round %d: only below a multiple of 16", round);
            asserted++;
        } else {
            cr_assert_eq(s, AB_OK, "round %d, %s: %s", round, spec, err.msg);
            for (size_t i = 0; i < p.n; i++) {
                cr_assert_eq(got[i], want[i], "round %d, %s: %s at %lld, the reference's %lld",
                             round, spec, p.t[i].name, (long long)got[i], (long long)want[i]);
                fixed += p.t[i].offset != AB_NONE;
            }
            plans++;
        }
        ab_problem_free(&p);
    }
    cr_assert_gt(plans, 2500, "plans compared: %d", plans);
    cr_assert_gt(asserted, 10, "assertion cases: %d", asserted);
    cr_assert_gt(stacked, 500, "tensors stacked inside an object: %d", stacked);
    cr_assert_gt(fixed, 100, "fixed tensors: %d", fixed);
}

Test(executorch_reference, naive_gives_the_references_offsets_on_random_problems) {
    rng = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 2000; round++) {
        ab_problem p;
        random_problem(&p, round % 2 == 1);
        int64_t param = aligns[next() % (sizeof aligns / sizeof *aligns)];
        char spec[64];
        snprintf(spec, sizeof spec, "executorch-naive:align=%lld", (long long)param);
        int64_t want[MAXN], got[MAXN];
        ref_naive(&p, param, want);
        ab_error err;
        cr_assert_eq(plan(spec, &p, got, NULL, &err), AB_OK, "round %d, %s: %s", round, spec,
                     err.msg);
        for (size_t i = 0; i < p.n; i++)
            cr_assert_eq(got[i], want[i], "round %d, %s: %s at %lld, the reference's %lld", round,
                         spec, p.t[i].name, (long long)got[i], (long long)want[i]);
        ab_problem_free(&p);
    }
}

Test(executorch_reference, is_deterministic) {
    rng = 99;
    for (int round = 0; round < 100; round++) {
        ab_problem p;
        random_problem(&p, true);
        int64_t a[MAXN], b[MAXN];
        ab_error err;
        cr_assert_eq(plan("executorch-greedy", &p, a, NULL, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(plan("executorch-greedy", &p, b, NULL, &err), AB_OK, "%s", err.msg);
        cr_assert_arr_eq(a, b, p.n * sizeof *a);
        ab_problem_free(&p);
    }
}
