/*
 * test_minizinc.c — the engine's planner `minizinc` (harness/engine/minizinc.c):
 * a MiniZinc model solved by minizinc with Gecode, the third exact method.
 *
 * Ground truth is the independent brute force of tests/brute.c; every plan is
 * judged by the oracle (abo_check), never by the planner's claims. On random
 * problems of 3-8 tensors (sizes up to ~5000 bytes, mixed alignments, some
 * fixed offsets) the proven optimum equals the brute-force optimum, with the
 * heuristic's arena as the upper bound (the solver refutes below it, or finds
 * better) and with the stacked bound (the solver finds every plan itself).
 * Then capacities, parameters, the command line, and the message when
 * minizinc is missing. Tests that run minizinc skip, with a message, when it
 * is not on PATH (Debian: apt-get install minizinc). Budgets are generous
 * (time=30) and nothing asserts on elapsed time.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/problem.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"
#include "tests/planning.h"
#include "tests/brute.h"
#include "tests/support.h"

#define T(nm, sz, s, e, ...) \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1, \
                 .offset = AB_NONE, .logical_bits = (sz) * 8, __VA_ARGS__})

/* true when an executable minizinc is on PATH (written here, not taken from
 * the planner). */
static bool have_minizinc(void) {
    const char *path = getenv("PATH");
    if (path == NULL) return false;
    char *copy = strdup(path), *save = NULL;
    bool found = false;
    for (char *d = strtok_r(copy, ":", &save); d != NULL && !found; d = strtok_r(NULL, ":", &save)) {
        char exe[4096];
        struct stat sb;
        snprintf(exe, sizeof exe, "%s/minizinc", d);
        found = stat(exe, &sb) == 0 && S_ISREG(sb.st_mode) && access(exe, X_OK) == 0;
    }
    free(copy);
    return found;
}

#define NEED_MINIZINC()                                                                  \
    do {                                                                                 \
        if (!have_minizinc()) cr_skip("minizinc is not on PATH (apt-get install minizinc)"); \
    } while (0)





/* ---- random problems ------------------------------------------------------------- */

static uint64_t rng;
static uint64_t next(void) { /* splitmix64 */
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int64_t pick(int64_t lo, int64_t hi) { return lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)); }

/* 3-8 tensors. Sizes: up to ~5000 bytes, either any byte count or a multiple
 * of 16 or 256 (one scale per problem, odd ones mixed in); alignments 1 to 64;
 * live ranges random, nested in an earlier one or touching one; a fixed
 * offset (a multiple of its align) now and then, dropped when it collides
 * with another fixed tensor. */
static void random_problem(ab_problem *p, uint64_t seed) {
    static char names[8][8];
    rng = seed * 104729 + 7;
    ab_problem_init(p);
    size_t n = (size_t)pick(3, 8);
    int64_t scale = (int64_t[]){1, 16, 256}[next() % 3];
    int64_t horizon = pick(1, 8);
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "t%zu", i);
        int64_t s = pick(0, horizon), e = s + pick(0, 4);
        uint64_t how = next() % 4;
        if (how == 1 && i > 0) { /* nested in an earlier tensor */
            const ab_tensor *o = &p->t[next() % i];
            s = pick(o->start, o->end);
            e = pick(s, o->end);
        } else if (how == 2 && i > 0) { /* touching an earlier tensor */
            const ab_tensor *o = &p->t[next() % i];
            s = o->end;
            e = s + pick(0, 3);
        }
        int64_t size = scale * pick(1, 5000 / scale);
        if (next() % 6 == 0) size += pick(1, 15); /* an odd one */
        int64_t align = (int64_t[]){1, 1, 2, 4, 8, 16, 32, 64}[next() % 8];
        ab_tensor t = T(names[i], size, s, e, .align = align);
        if (next() % 6 == 0) t.offset = (align > scale ? align : scale) * pick(0, 4000 / scale);
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
    abt_drop_colliding_fixed(p);
}

#define NRANDOM 60

/* One random problem against the brute force with spec; counts the runs that
 * reached minizinc (the note says "not run" otherwise). */
static void against_brute(uint64_t seed, const char *spec, int *ran, int *above) {
    ab_problem p;
    random_problem(&p, seed);
    int64_t want = abt_brute_optimum(&p, NULL);
    cr_assert_geq(want, 0, "seed %llu", (unsigned long long)seed);
    int64_t off[8], arena;
    ab_plan_stats st;
    ab_error err;
    cr_assert_eq(abt_plan(spec, &p, off, &st, &err), AB_OK, "seed %llu %s: %s",
                 (unsigned long long)seed, spec, err.msg);
    cr_assert_eq(abt_judge(&p, off, &arena), ABO_OK, "seed %llu %s: invalid plan (%s)",
                 (unsigned long long)seed, spec, st.note);
    cr_assert_eq(arena, want, "seed %llu %s: minizinc %lld, brute force %lld (%s)",
                 (unsigned long long)seed, spec, (long long)arena, (long long)want, st.note);
    cr_assert(st.proven_optimal, "seed %llu %s: %s", (unsigned long long)seed, spec, st.note);
    cr_assert_eq(st.lower_bound, want, "seed %llu %s: bound %lld (%s)", (unsigned long long)seed,
                 spec, (long long)st.lower_bound, st.note);
    cr_assert_eq(st.method, ABO_PROOF_EXHAUSTIVE);
    *ran += strstr(st.note, "not run") == NULL;
    *above += want > abt_max_load(&p);
    ab_problem_free(&p);
}

/* The heuristic's arena as the upper bound: minizinc refutes below it or
 * finds better; either way the proven optimum is the brute force's. */
Test(minizinc, proven_optimum_equals_the_brute_force_on_random_problems) {
    NEED_MINIZINC();
    int ran = 0, above = 0;
    for (uint64_t seed = 0; seed < NRANDOM; seed++)
        against_brute(seed, "minizinc:time=30", &ran, &above);
    /* the generator must reach the cases where the solver has work to do */
    cr_log_info("minizinc ran on %d of %d problems; %d above the max-load bound", ran, NRANDOM,
                above);
    cr_assert_gt(ran, 10, "minizinc ran on %d of %d problems", ran, NRANDOM);
    cr_assert_gt(above, 8, "%d problems with an optimum above the max-load bound", above);
}

/* The stacked bound: the solver finds every plan itself. */
Test(minizinc, finds_the_brute_force_optimum_itself_from_the_stacked_bound) {
    NEED_MINIZINC();
    int ran = 0, above = 0;
    for (uint64_t seed = 0; seed < NRANDOM; seed += 2)
        against_brute(seed, "minizinc:time=30,upper=stacked", &ran, &above);
    cr_assert_gt(ran, NRANDOM / 4, "minizinc ran on %d problems", ran);
}

/* ---- the cases of the model ---------------------------------------------------------- */

/* Fixed offsets and alignments are honoured, and the optimum is the brute
 * force's. */
Test(minizinc, honours_fixed_offsets_and_alignments) {
    NEED_MINIZINC();
    ab_tensor t[] = {
        T("a", 100, 0, 2, .align = 64),
        T("b", 30, 1, 3, .offset = 200),
        T("c", 70, 2, 4, .align = 32),
        T("d", 50, 3, 5),
    };
    ab_problem p;
    abt_make(&p, t, 4);
    int64_t off[4], arena;
    ab_plan_stats st;
    ab_error err;
    cr_assert_eq(abt_plan("minizinc:time=30,upper=stacked", &p, off, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abt_judge(&p, off, &arena), ABO_OK);
    cr_assert_eq(off[1], 200);
    cr_assert_eq(off[0] % 64, 0);
    cr_assert_eq(off[2] % 32, 0);
    cr_assert_eq(arena, abt_brute_optimum(&p, NULL));
    cr_assert(st.proven_optimal, "%s", st.note);
    ab_problem_free(&p);
}

/* A capacity: target=capacity answers whether the tensors fit; below the
 * optimum (but above the bound, so the solver runs) the suite is infeasible,
 * in both modes, with a bound of capacity + 1. */
Test(minizinc, capacity_decides_fit_and_infeasibility) {
    NEED_MINIZINC();
    /* f fixed at 50 leaves b no room below it: optimum 120, bounds 70 and 60 */
    ab_tensor t[] = {T("f", 10, 0, 1, .offset = 50), T("b", 60, 0, 1), T("c", 30, 2, 3)};
    ab_problem p;
    abt_make(&p, t, 3);
    int64_t opt = abt_brute_optimum(&p, NULL), off[3], arena;
    cr_assert_eq(opt, 120);
    cr_assert_eq(abt_max_load(&p), 70);
    ab_plan_stats st;
    ab_error err;

    p.capacity = 130; /* fits */
    cr_assert_eq(abt_plan("minizinc:target=capacity", &p, off, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abt_judge(&p, off, &arena), ABO_OK);
    cr_assert_leq(arena, 130);

    p.capacity = 100; /* between the bound and the optimum */
    static const char *specs[] = {"minizinc:target=capacity", "minizinc",
                                  "minizinc:upper=stacked"};
    for (size_t k = 0; k < 3; k++) {
        cr_assert_eq(abt_plan(specs[k], &p, off, &st, &err), AB_OK, "%s: %s", specs[k], err.msg);
        cr_assert_eq(abt_judge(&p, off, &arena), ABO_OVER_CAPACITY, "%s: %s", specs[k], st.note);
        cr_assert_geq(arena, 120, "%s: %s", specs[k], st.note); /* the plan in hand */
        cr_assert_not(st.proven_optimal, "%s: %s", specs[k], st.note);
        cr_assert_eq(st.lower_bound, 101, "%s: %s", specs[k], st.note);
        cr_assert(strstr(st.note, "does not fit the capacity") != NULL, "%s", st.note);
    }

    p.capacity = AB_NONE;
    cr_assert_eq(abt_plan("minizinc:target=capacity", &p, off, &st, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "target=capacity needs a suite capacity") != NULL, "%s", err.msg);
    ab_problem_free(&p);
}

/* A larger problem under a short time limit: a valid plan whether the
 * search completes or not, and a proof only when it completes. */
Test(minizinc, a_short_time_limit_still_returns_a_valid_plan) {
    NEED_MINIZINC();
    enum { N = 26 };
    static char names[N][8];
    ab_tensor t[N];
    rng = 12345;
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "x%d", i);
        int64_t s = pick(0, 12);
        t[i] = T(names[i], pick(1, 997) * 7 + pick(0, 6), s, s + pick(0, 5));
    }
    ab_problem p;
    abt_make(&p, t, N);
    int64_t off[N], arena;
    ab_plan_stats st;
    ab_error err;
    cr_assert_eq(abt_plan("minizinc:time=1,upper=stacked", &p, off, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abt_judge(&p, off, &arena), ABO_OK, "%s", st.note);
    cr_assert_geq(arena, abt_max_load(&p));
    cr_log_info("%d tensors, time=1: %s", N, st.note);
    if (!st.proven_optimal) {
        cr_assert_eq(st.lower_bound, abt_max_load(&p), "%s", st.note);
        cr_assert(strstr(st.note, "time limit") != NULL, "%s", st.note);
    }
    ab_problem_free(&p);
}

/* ---- parameters and the environment ----------------------------------------------------- */

Test(minizinc, rejects_bad_parameters) {
    const ab_planner *pl;
    ab_params prm;
    ab_error err;
    cr_assert_eq(ab_planner_resolve("minizinc:time=0", &pl, &prm, &err), AB_EINPUT);
    cr_assert_eq(ab_planner_resolve("minizinc:target=max", &pl, &prm, &err), AB_EINPUT);
    cr_assert_eq(ab_planner_resolve("minizinc:upper=ilp", &pl, &prm, &err), AB_EINPUT);
    cr_assert_eq(ab_planner_resolve("minizinc:nodes=5", &pl, &prm, &err), AB_EINPUT);
    cr_assert_eq(ab_planner_resolve("minizinc:time=2.5,solver=gecode", &pl, &prm, &err), AB_OK,
                 "%s", err.msg);
    cr_assert(pl->flags & AB_PLANNER_EXACT);
    cr_assert(pl->flags & AB_PLANNER_ANYTIME);
    cr_assert_not(pl->flags & AB_PLANNER_POOLS);
    ab_params_free(&prm);
}

Test(minizinc, an_unknown_solver_is_a_usage_error) {
    NEED_MINIZINC();
    ab_tensor t[] = {T("a", 60, 0, 1), T("b", 50, 1, 2), T("c", 70, 2, 3)};
    ab_problem p;
    abt_make(&p, t, 3);
    int64_t off[3];
    ab_plan_stats st;
    ab_error err;
    cr_assert_eq(abt_plan("minizinc:solver=no-such-solver,upper=stacked", &p, off, &st, &err),
                 AB_EINPUT, "%s", err.msg);
    cr_assert(strstr(err.msg, "no-such-solver") != NULL, "%s", err.msg);
    ab_problem_free(&p);
}

/* Without minizinc on PATH: AB_EINPUT naming the package, through the API and
 * through `plan` (exit 2). Runs whether minizinc is installed or not. */
Test(minizinc, says_how_to_install_minizinc_when_it_is_missing) {
    char *saved = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
    setenv("PATH", "/nonexistent-arenabench", 1);
    ab_tensor t[] = {T("a", 60, 0, 1), T("b", 50, 1, 2)};
    ab_problem p;
    abt_make(&p, t, 2);
    int64_t off[2];
    ab_plan_stats st;
    ab_error err;
    ab_status s = abt_plan("minizinc", &p, off, &st, &err);
    char *out = NULL, *errs = NULL;
    int rc = abt_run("plan -p minizinc " AB_SOURCE_DIR "/suites/examples/diamond.yaml", &out, &errs);
    setenv("PATH", saved, 1);
    free(saved);
    cr_assert_eq(s, AB_EINPUT);
    cr_assert_str_eq(err.msg, "minizinc not found on PATH: apt-get install minizinc");
    cr_assert_eq(rc, 2, "stdout: %s\nstderr: %s", out, errs);
    cr_assert(strstr(errs, "minizinc not found on PATH: apt-get install minizinc") != NULL, "%s",
              errs);
    free(out);
    free(errs);
    ab_problem_free(&p);
}

/* ---- the command line ------------------------------------------------------------------- */

/* diamond: optimum 288 (= the max-load bound). With best-fit's bound the
 * solver is not needed; with the stacked bound it finds 288 itself. */
Test(minizinc, plan_gives_the_known_optimum_of_diamond) {
    NEED_MINIZINC();
    static const char *specs[] = {"minizinc", "minizinc:upper=stacked,time=30"};
    for (size_t k = 0; k < 2; k++) {
        char args[512], *out = NULL, *errs = NULL;
        snprintf(args, sizeof args, "plan -p %s %s/suites/examples/diamond.yaml", specs[k],
                 AB_SOURCE_DIR);
        int rc = abt_run(args, &out, &errs);
        cr_assert_eq(rc, 0, "%s: %s%s", specs[k], out, errs);
        cr_assert(strstr(out, "arena      288 bytes") != NULL || strstr(out, "288") != NULL,
                  "%s", out);
        cr_assert(strstr(out, "optimal") != NULL, "%s", out);
        free(out);
        free(errs);
    }
}
