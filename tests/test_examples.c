/*
 * test_examples.c — the example suites (every .yaml file in suites/examples)
 * and the brute-force optimum they are checked with (tests/brute.c).
 *
 * For every example: it loads, opens with a comment, is listed in the
 * folder's README, and its `expect:` is right: the lower bound equals the
 * max-load bound computed here, and the optimum equals abt_brute_optimum on
 * the arena view. No registered planner may go below that optimum, and
 * first-fit must leave its hole in first_fit_hole.yaml.
 *
 * The brute force itself is checked against a plain search over every offset
 * vector on random tiny problems, so the examples do not rest on its
 * optimality argument alone.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/brute.h"
#include "core/problem.h"
#include "harness/formats/suite.h"
#include "oracle/bounds.h"
#include "planners/planner.h"
#include "tests/support.h"

/* ---- independent helpers ---------------------------------------------------- */

/* The max-load bound: the largest sum of sizes live at one instruction. The
 * maximum is reached at some tensor's start, so only starts are tried. */
static int64_t max_load(const ab_problem *p) {
    int64_t best = 0;
    for (size_t i = 0; i < p->n; i++) {
        int64_t t = p->t[i].start, sum = 0;
        for (size_t j = 0; j < p->n; j++)
            if (p->t[j].start <= t && t <= p->t[j].end) sum += p->t[j].size;
        if (sum > best) best = sum;
    }
    return best;
}

/* true when off is a valid plan of p (DESIGN.md 1), checked pair by pair;
 * *arena receives its arena. */
static bool plan_valid(const ab_problem *p, const int64_t *off, int64_t *arena) {
    *arena = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        int64_t a = t->align < 1 ? 1 : t->align;
        if (off[i] < 0 || off[i] % a != 0) return false;
        if (t->offset != AB_NONE && off[i] != t->offset) return false;
        if (off[i] + t->size > *arena) *arena = off[i] + t->size;
        for (size_t j = 0; j < i; j++)
            if (ab_conflict(t, &p->t[j]) && off[i] < off[j] + p->t[j].size &&
                off[j] < off[i] + t->size)
                return false;
    }
    return true;
}

/* ---- the brute force ------------------------------------------------------- */

/* A tensor for the hand-built problems below. */
static void add(ab_problem *p, const char *name, int64_t size, int64_t start, int64_t end,
                int64_t align, int64_t offset) {
    ab_tensor t = {.name = (char *)name, .size = size, .start = start, .end = end,
                   .align = align, .offset = offset, .logical_bits = size * 8};
    cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
}

Test(brute, gives_zero_for_an_empty_problem) {
    ab_problem p;
    ab_problem_init(&p);
    cr_assert_eq(abt_brute_optimum(&p, NULL), 0);
}

Test(brute, stacks_conflicting_tensors_and_reuses_the_rest) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, "a", 10, 0, 1, 1, AB_NONE);
    add(&p, "b", 20, 1, 2, 1, AB_NONE);
    add(&p, "c", 15, 2, 3, 1, AB_NONE);
    int64_t off[3], arena;
    cr_assert_eq(abt_brute_optimum(&p, off), 35);
    cr_assert(plan_valid(&p, off, &arena));
    cr_assert_eq(arena, 35);
    ab_problem_free(&p);
}

Test(brute, pays_for_alignment_padding) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, "x", 24, 0, 0, 16, AB_NONE);
    add(&p, "y", 24, 0, 0, 16, AB_NONE);
    cr_assert_eq(abt_brute_optimum(&p, NULL), 56);
    ab_problem_free(&p);
}

Test(brute, honours_fixed_offsets) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, "pinned", 4, 0, 3, 1, 2);
    add(&p, "a", 3, 0, 3, 1, AB_NONE);
    int64_t off[2];
    cr_assert_eq(abt_brute_optimum(&p, off), 9);
    cr_assert_eq(off[0], 2);
    cr_assert_eq(off[1], 6);
    ab_problem_free(&p);
}

Test(brute, refuses_overlapping_fixed_tensors) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, "f", 4, 0, 3, 1, 0);
    add(&p, "g", 4, 3, 5, 1, 2);
    int64_t off[2] = {-7, -7};
    cr_assert_eq(abt_brute_optimum(&p, off), -1);
    cr_assert_eq(off[0], -7, "offsets_out was written");
    ab_problem_free(&p);
}

Test(brute, refuses_too_many_free_tensors) {
    ab_problem p;
    ab_problem_init(&p);
    char name[16];
    for (int i = 0; i <= ABT_BRUTE_MAX_FREE; i++) {
        snprintf(name, sizeof name, "t%d", i);
        add(&p, name, 1, i, i, 1, AB_NONE);
    }
    cr_assert_eq(abt_brute_optimum(&p, NULL), -1);
    ab_problem_free(&p);
}

Test(brute, solves_ten_free_tensors) {
    ab_problem p;
    ab_problem_init(&p);
    char name[16];
    for (int i = 0; i < ABT_BRUTE_MAX_FREE; i++) {
        snprintf(name, sizeof name, "t%d", i);
        add(&p, name, 1 + i % 4, i / 2, i / 2 + 2, 1, AB_NONE);
    }
    int64_t off[ABT_BRUTE_MAX_FREE], arena;
    int64_t opt = abt_brute_optimum(&p, off);
    cr_assert(plan_valid(&p, off, &arena));
    cr_assert_eq(arena, opt);
    cr_assert_geq(opt, max_load(&p));
    ab_problem_free(&p);
}

/* A deterministic 64-bit LCG (Knuth's MMIX constants). */
static uint64_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* The plain search: every free tensor at every multiple of its align below
 * limit, depth first, cut when the arena reaches the best found. */
typedef struct exhaustive {
    const ab_problem *p;
    int64_t limit, best;
    int64_t off[8];
} exhaustive;

static void exhaust(exhaustive *e, size_t i, int64_t arena) {
    if (e->best >= 0 && arena >= e->best) return;
    if (i == e->p->n) {
        e->best = arena;
        return;
    }
    const ab_tensor *t = &e->p->t[i];
    int64_t first = t->offset != AB_NONE ? t->offset : 0;
    int64_t last = t->offset != AB_NONE ? t->offset : e->limit;
    for (int64_t x = first; x <= last; x += t->align) {
        bool ok = true;
        for (size_t j = 0; j < i && ok; j++)
            if (ab_conflict(t, &e->p->t[j]) && x < e->off[j] + e->p->t[j].size &&
                e->off[j] < x + t->size)
                ok = false;
        if (!ok) continue;
        e->off[i] = x;
        exhaust(e, i + 1, x + t->size > arena ? x + t->size : arena);
    }
}

Test(brute, agrees_with_a_search_over_every_offset) {
    uint64_t seed = 20240611;
    int gaps = 0, infeasible = 0;
    for (int it = 0; it < 3000; it++) {
        ab_problem p;
        ab_problem_init(&p);
        size_t n = 2 + rng_next(&seed) % 4;
        int64_t limit = 0;
        for (size_t i = 0; i < n; i++) {
            static const int64_t aligns[] = {1, 1, 2, 4, 8};
            int64_t align = aligns[rng_next(&seed) % 5];
            int64_t size = 1 + (int64_t)(rng_next(&seed) % 6);
            int64_t start = (int64_t)(rng_next(&seed) % 4);
            int64_t end = start + (int64_t)(rng_next(&seed) % 3);
            int64_t offset = AB_NONE;
            if (rng_next(&seed) % 6 == 0) offset = align * (int64_t)(rng_next(&seed) % 4);
            char name[8];
            snprintf(name, sizeof name, "t%zu", i);
            add(&p, name, size, start, end, align, offset);
            limit += size + align + (offset != AB_NONE ? offset : 0);
        }
        exhaustive e = {.p = &p, .limit = limit, .best = -1};
        exhaust(&e, 0, 0);
        int64_t off[8], arena;
        int64_t got = abt_brute_optimum(&p, off);
        cr_assert_eq(got, e.best, "iteration %d: brute %lld, search %lld", it, (long long)got,
                     (long long)e.best);
        if (got >= 0) {
            cr_assert(plan_valid(&p, off, &arena), "iteration %d: invalid plan", it);
            cr_assert_eq(arena, got);
            gaps += got > max_load(&p);
        } else {
            infeasible++;
        }
        ab_problem_free(&p);
    }
    /* the random problems do exercise padding and clashing fixed offsets */
    cr_assert_gt(gaps, 0);
    cr_assert_gt(infeasible, 0);
}

/* ---- the example suites --------------------------------------------------- */

#define MAX_EXAMPLES 64

static int cmp_names(const void *a, const void *b) { return strcmp(a, b); }

/* The *.yaml files of suites/examples, sorted; returns how many. */
static size_t list_examples(char names[MAX_EXAMPLES][256]) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", abt_src("suites/examples"));
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    size_t n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        size_t len = strlen(ent->d_name);
        if (len < 6 || len >= 256 || strcmp(ent->d_name + len - 5, ".yaml") != 0) continue;
        cr_assert_lt(n, MAX_EXAMPLES);
        memcpy(names[n++], ent->d_name, len + 1);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    return n;
}

/* Loads suites/examples/name and its arena view. */
static void load_example(const char *name, ab_problem *p, ab_problem *view) {
    char rel[512], path[4096];
    snprintf(rel, sizeof rel, "suites/examples/%s", name);
    snprintf(path, sizeof path, "%s", abt_src(rel));
    ab_error err = {0};
    cr_assert_eq(abf_suite_load(path, p, &err), AB_OK, "%s: %s", name, err.msg);
    cr_assert_eq(ab_problem_arena_view(p, view, NULL, &err), AB_OK, "%s", err.msg);
}

/* The arena of a planner's plan (entries indexed into view), checked valid. */
static int64_t plan_arena(const char *what, const ab_problem *view, const ab_plan *pl) {
    int64_t off[ABT_BRUTE_MAX], arena;
    cr_assert_eq(pl->n, view->n, "%s: %zu entries for %zu tensors", what, pl->n, view->n);
    for (size_t i = 0; i < pl->n; i++) {
        cr_assert_eq(pl->v[i].tensor, i, "%s: entry %zu", what, i);
        off[i] = pl->v[i].offset;
    }
    cr_assert(plan_valid(view, off, &arena), "%s: the plan is invalid", what);
    return arena;
}

Test(examples, there_are_at_least_eight_and_the_readme_lists_each) {
    char names[MAX_EXAMPLES][256];
    size_t n = list_examples(names);
    cr_assert_geq(n, 8, "only %zu example suites", n);
    char *readme = abt_slurp(abt_src("suites/examples/README.md"), NULL);
    cr_assert_not_null(readme, "suites/examples/README.md is missing");
    for (size_t i = 0; i < n; i++) {
        char cell[300];
        snprintf(cell, sizeof cell, "`%s`", names[i]);
        cr_expect_not_null(strstr(readme, cell), "README.md does not list %s", names[i]);
    }
    free(readme);
}

Test(examples, each_opens_with_a_comment_and_is_small) {
    char names[MAX_EXAMPLES][256];
    size_t n = list_examples(names);
    for (size_t i = 0; i < n; i++) {
        char rel[512];
        snprintf(rel, sizeof rel, "suites/examples/%s", names[i]);
        char *text = abt_slurp(abt_src(rel), NULL);
        cr_assert_not_null(text);
        cr_expect(text[0] == '#', "%s does not open with a comment", names[i]);
        free(text);
        ab_problem p, view;
        load_example(names[i], &p, &view);
        cr_expect(p.n >= 3 && p.n <= 9, "%s has %zu tensors (3 to 9 keep it checkable)",
                  names[i], p.n);
        ab_problem_free(&view);
        ab_problem_free(&p);
    }
}

Test(examples, expect_matches_the_bound_and_the_brute_force_optimum) {
    char names[MAX_EXAMPLES][256];
    size_t n = list_examples(names);
    for (size_t i = 0; i < n; i++) {
        ab_problem p, view;
        load_example(names[i], &p, &view);
        cr_assert_neq(p.expect_lower_bound, AB_NONE, "%s: no expect.lower_bound", names[i]);
        cr_assert_neq(p.expect_optimum, AB_NONE, "%s: no expect.optimum", names[i]);
        int64_t lb = max_load(&view);
        cr_expect_eq(lb, p.expect_lower_bound, "%s: max-load %lld, expect.lower_bound %lld",
                     names[i], (long long)lb, (long long)p.expect_lower_bound);
        abo_bounds b;
        ab_error err = {0};
        cr_assert_eq(abo_bounds_compute(&p, &b, &err), AB_OK, "%s", err.msg);
        cr_expect_eq(b.max_load, lb, "%s: the oracle's max-load %lld, the test's %lld", names[i],
                     (long long)b.max_load, (long long)lb);
        int64_t off[ABT_BRUTE_MAX], arena;
        int64_t opt = abt_brute_optimum(&view, off);
        cr_expect_eq(opt, p.expect_optimum, "%s: brute-force optimum %lld, expect.optimum %lld",
                     names[i], (long long)opt, (long long)p.expect_optimum);
        cr_expect(plan_valid(&view, off, &arena) && arena == opt, "%s: the brute plan",
                  names[i]);
        ab_problem_free(&view);
        ab_problem_free(&p);
    }
}

Test(examples, no_planner_goes_below_the_optimum) {
    char names[MAX_EXAMPLES][256];
    size_t n = list_examples(names);
    for (size_t i = 0; i < n; i++) {
        ab_problem p, view0;
        load_example(names[i], &p, &view0);
        for (size_t k = 0; ab_planner_at(k) != NULL; k++) {
            const ab_planner *pl = ab_planner_at(k);
            if (pl->flags & AB_PLANNER_ASK_ONLY) continue; /* external, minizinc */
            ab_params none = {0};
            ab_problem view;
            ab_plan plan;
            ab_plan_stats st;
            ab_error err = {0};
            ab_status s = ab_planner_run(pl, &none, &p, &view, &plan, &st, &err);
            cr_assert_eq(s, AB_OK, "%s on %s: %s", pl->name, names[i], err.msg);
            char what[512];
            snprintf(what, sizeof what, "%s on %s", pl->name, names[i]);
            int64_t arena = plan_arena(what, &view, &plan);
            cr_expect_geq(arena, p.expect_optimum, "%s: arena %lld below the optimum %lld", what,
                          (long long)arena, (long long)p.expect_optimum);
            ab_plan_free(&plan);
            ab_problem_free(&view);
        }
        ab_problem_free(&view0);
        ab_problem_free(&p);
    }
}

Test(examples, first_fit_leaves_a_hole_above_the_optimum) {
    ab_problem p, view0;
    load_example("first_fit_hole.yaml", &p, &view0);
    const ab_planner *ff = ab_planner_find("first-fit");
    cr_assert_not_null(ff, "no planner first-fit");
    ab_params none = {0};
    ab_problem view;
    ab_plan plan;
    ab_plan_stats st;
    ab_error err = {0};
    cr_assert_eq(ab_planner_run(ff, &none, &p, &view, &plan, &st, &err), AB_OK, "%s", err.msg);
    int64_t arena = plan_arena("first-fit", &view, &plan);
    cr_assert_gt(arena, p.expect_optimum, "first-fit %lld, optimum %lld", (long long)arena,
                 (long long)p.expect_optimum);
    /* the hand computation in the file's comment: conv1 at 0, skip at 2048,
     * conv2 above skip at 3072 */
    cr_expect_eq(arena, 6144);
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_problem_free(&view0);
    ab_problem_free(&p);
}
