/*
 * test_ilp.c — the GLPK referee (oracle/ilp.h), planner `ilp` and the
 * `arenabench ilp` command: optima against the independent brute force on
 * random tiny problems (plain, aligned, with fixed offsets, under a
 * capacity, with every reduction switched off), the LP file read back by
 * GLPK, a time-limited run on a large problem, the GLPK error path.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/brute.h"
#include "core/problem.h"
#include "oracle/check.h"
#include "planners/ilp.h"
#include "planners/planner.h"
#include "tests/support.h"

int abc_cmd_ilp(int argc, char **argv);

/* A deterministic 64-bit LCG (Knuth's MMIX constants). */
static uint64_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void add(ab_problem *p, int64_t size, int64_t start, int64_t end, int64_t align,
                int64_t offset) {
    char name[16];
    snprintf(name, sizeof name, "t%zu", p->n);
    ab_tensor t = {.name = name, .size = size, .start = start, .end = end, .align = align,
                   .offset = offset, .logical_bits = size * 8};
    cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
}

/* What the random problems may hold. */
typedef struct shape {
    size_t nmin, nmax;   /* tensors */
    int64_t scale;       /* sizes and aligns are multiples of it (a unit > 1) */
    bool aligned;        /* aligns 1..8 */
    int fixed_one_in;    /* a tensor is fixed with probability 1 / this (0: never) */
    int64_t span;        /* instructions */
} shape;

static void random_problem(ab_problem *p, uint64_t *seed, const shape *sh) {
    ab_problem_init(p);
    size_t n = sh->nmin + rng_next(seed) % (sh->nmax - sh->nmin + 1);
    for (size_t i = 0; i < n; i++) {
        static const int64_t aligns[] = {1, 1, 2, 4, 8};
        int64_t align = sh->aligned ? aligns[rng_next(seed) % 5] : 1;
        int64_t size = 1 + (int64_t)(rng_next(seed) % 7);
        int64_t start = (int64_t)(rng_next(seed) % (uint64_t)sh->span);
        int64_t end = start + (int64_t)(rng_next(seed) % 3);
        int64_t offset = AB_NONE;
        if (sh->fixed_one_in && rng_next(seed) % (uint64_t)sh->fixed_one_in == 0)
            offset = align * (int64_t)(rng_next(seed) % 4);
        int64_t k = sh->scale;
        add(p, size * k, start, end, align == 1 ? 1 : align * k, offset == AB_NONE ? offset : offset * k);
    }
}

static int64_t max_load(const ab_problem *p) {
    int64_t best = 0;
    for (size_t i = 0; i < p->n; i++) {
        int64_t load = 0;
        for (size_t j = 0; j < p->n; j++)
            if (p->t[j].start <= p->t[i].start && p->t[i].start <= p->t[j].end) load += p->t[j].size;
        if (load > best) best = load;
    }
    return best;
}

/* A plain O(n^2) validity check, independent of the oracle. */
static bool plain_valid(const ab_problem *p, const int64_t *off, int64_t *arena) {
    *arena = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (off[i] < 0 || off[i] % t->align != 0) return false;
        if (t->offset != AB_NONE && off[i] != t->offset) return false;
        if (off[i] + t->size > *arena) *arena = off[i] + t->size;
        for (size_t j = 0; j < i; j++)
            if (ab_conflict(t, &p->t[j]) && off[i] < off[j] + p->t[j].size &&
                off[j] < off[i] + t->size)
                return false;
    }
    return true;
}

static abo_ilp_options quick(void) {
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = 30;
    return o;
}

/* Solves p and asserts the result agrees with the brute-force optimum opt
 * (-1: no valid plan exists). Returns the result's status. */
static abo_ilp_status solve_and_compare(const ab_problem *p, const abo_ilp_options *o, int64_t opt,
                                        int it, bool *glpk_ran) {
    abo_ilp_result r;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abp_ilp_solve(p, o, &r, &err), AB_OK, "instance %d: %s", it, err.msg);
    cr_assert_eq(r.n, p->n);
    int64_t arena;
    bool cap_ok = p->capacity == AB_NONE || (opt >= 0 && opt <= p->capacity);
    if (opt < 0 || !cap_ok) {
        cr_assert_eq(r.status, ABO_ILP_INFEASIBLE, "instance %d: status %s, brute %lld", it,
                     abo_ilp_status_word(r.status), (long long)opt);
        cr_assert_neq(r.verdict, ABO_OK, "instance %d: an infeasible result with a valid plan", it);
        if (opt >= 0) cr_assert_leq(r.bound, opt, "instance %d: bound %lld over the optimum %lld",
                                    it, (long long)r.bound, (long long)opt);
        if (p->capacity != AB_NONE && opt >= 0)
            cr_assert_gt(r.bound, p->capacity, "instance %d: infeasible but bound %lld <= capacity",
                         it, (long long)r.bound);
    } else {
        cr_assert_eq(r.status, ABO_ILP_OPTIMAL, "instance %d: status %s (%s)", it,
                     abo_ilp_status_word(r.status), r.note);
        cr_assert_eq(r.verdict, ABO_OK);
        cr_assert(plain_valid(p, r.offsets, &arena), "instance %d: the plan is invalid", it);
        cr_assert_eq(arena, r.arena);
        cr_assert_eq(r.arena, opt, "instance %d: ILP %lld, brute force %lld", it,
                     (long long)r.arena, (long long)opt);
        cr_assert_eq(r.bound, opt);
        cr_assert_eq(r.gap, 0);
    }
    abo_ilp_status s = r.status;
    if (glpk_ran) *glpk_ran = r.solved > 0;
    abo_ilp_result_free(&r);
    return s;
}

/* n random instances of shape sh, each solved with options o and again with
 * the heuristics off (so GLPK finds the optimum with no incumbent); returns
 * how many GLPK had to solve then; *above counts optima above max-load. */
static int compare_many(const shape *sh, const abo_ilp_options *o, uint64_t seed, int n,
                        int *infeasible, int *above) {
    int ran = 0;
    *infeasible = *above = 0;
    abo_ilp_options bare = *o;
    bare.heuristics = false;
    for (int it = 0; it < n; it++) {
        ab_problem p;
        random_problem(&p, &seed, sh);
        int64_t opt = abt_brute_optimum(&p, NULL);
        if (opt > max_load(&p)) ++*above;
        if (opt < 0) ++*infeasible;
        bool glpk;
        solve_and_compare(&p, o, opt, it, NULL);
        solve_and_compare(&p, &bare, opt, it, &glpk);
        ran += glpk;
        ab_problem_free(&p);
    }
    return ran;
}

/* ---- optimum against the brute force ------------------------------------------- */

Test(ilp, matches_brute_force_on_random_instances) {
    abo_ilp_options o = quick();
    shape sh = {.nmin = 3, .nmax = 8, .scale = 1, .span = 5};
    int cases = abt_cases(250, 2500);
    int inf, above, ran = compare_many(&sh, &o, 11, cases, &inf, &above);
    /* (without alignment, optima of so few tensors sit at max-load: 200,000
     * random instances of up to 8 had none above it; the aligned tests have) */
    /* about 60% need GLPK (the heuristics prove the rest): at least half did */
    cr_assert_gt(ran * 2, cases, "GLPK solved too few instances (%d of %d)", ran, cases);
}

Test(ilp, matches_brute_force_with_a_unit_above_one_byte) {
    abo_ilp_options o = quick();
    shape sh = {.nmin = 3, .nmax = 7, .scale = 1024, .aligned = true, .span = 4};
    int inf, above;
    compare_many(&sh, &o, 12, 60, &inf, &above);
}

Test(ilp, matches_brute_force_with_alignment) {
    abo_ilp_options o = quick();
    shape sh = {.nmin = 3, .nmax = 8, .scale = 1, .aligned = true, .span = 5};
    int inf, above, ran = compare_many(&sh, &o, 13, 100, &inf, &above);
    cr_assert_gt(above, 5, "too few optima above max-load (%d)", above);
    cr_assert_gt(ran, 5);
}

Test(ilp, matches_brute_force_with_fixed_offsets) {
    abo_ilp_options o = quick();
    shape sh = {.nmin = 3, .nmax = 8, .scale = 1, .aligned = true, .fixed_one_in = 4, .span = 4};
    int inf, above;
    compare_many(&sh, &o, 14, 100, &inf, &above);
    cr_assert_gt(inf, 0, "no instance had clashing fixed offsets");
}

Test(ilp, matches_brute_force_with_every_reduction_off) {
    abo_ilp_options o = quick();
    o.decompose = false;
    o.symmetry = false;
    shape sh = {.nmin = 3, .nmax = 7, .scale = 1, .aligned = true, .fixed_one_in = 6, .span = 6};
    int inf, above, ran = compare_many(&sh, &o, 15, 60, &inf, &above);
    cr_assert_gt(ran, 5);
}

Test(ilp, matches_brute_force_with_identical_tensors) {
    /* few distinct sizes and ranges: classes of identical tensors */
    abo_ilp_options o = quick();
    uint64_t seed = 16;
    for (int it = 0; it < 40; it++) {
        ab_problem p;
        ab_problem_init(&p);
        size_t n = 4 + rng_next(&seed) % 5;
        for (size_t i = 0; i < n; i++) {
            int64_t start = (int64_t)(rng_next(&seed) % 2);
            add(&p, 1 + (int64_t)(rng_next(&seed) % 2) * 2, start, start + 1, 1, AB_NONE);
        }
        solve_and_compare(&p, &o, abt_brute_optimum(&p, NULL), it, NULL);
        ab_problem_free(&p);
    }
}

/* Under a capacity: at the optimum it is optimal, one byte below infeasible
 * (proven by GLPK when the bound is below the capacity, by max-load when not). */
Test(ilp, capacity_at_and_below_the_optimum) {
    abo_ilp_options o = quick();
    uint64_t seed = 17;
    shape sh = {.nmin = 3, .nmax = 8, .scale = 1, .aligned = true, .span = 5};
    int by_glpk = 0;
    for (int it = 0; it < 120; it++) {
        ab_problem p;
        random_problem(&p, &seed, &sh);
        int64_t opt = abt_brute_optimum(&p, NULL);
        p.capacity = opt;
        solve_and_compare(&p, &o, opt, it, NULL);
        p.capacity = opt - 1;
        bool glpk = false;
        if (p.capacity >= 1) solve_and_compare(&p, &o, opt, 1000 + it, &glpk);
        by_glpk += glpk;
        abo_ilp_options bare = o;
        bare.heuristics = false;
        p.capacity = opt;
        solve_and_compare(&p, &bare, opt, 2000 + it, NULL);
        ab_problem_free(&p);
    }
    cr_assert_gt(by_glpk, 5, "too few capacities between max-load and the optimum (%d)", by_glpk);
}

Test(ilp, capacity_below_max_load_is_infeasible_before_any_model) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, 4, 0, 1, 1, AB_NONE);
    add(&p, 4, 1, 2, 1, AB_NONE);
    p.capacity = 7;
    abo_ilp_result r;
    cr_assert_eq(abp_ilp_solve(&p, NULL, &r, NULL), AB_OK);
    cr_assert_eq(r.status, ABO_ILP_INFEASIBLE);
    cr_assert_eq(r.solved, 0);
    cr_assert_eq(r.bound, 8);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY);
    cr_assert(strstr(r.note, "infeasible: ") == r.note, "%s", r.note);
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
}

Test(ilp, components_are_solved_alone_and_the_arena_is_their_max) {
    /* two chains far apart in time: two components */
    ab_problem p;
    ab_problem_init(&p);
    add(&p, 2, 0, 1, 1, AB_NONE);
    add(&p, 1, 0, 3, 1, AB_NONE);
    add(&p, 3, 2, 3, 1, AB_NONE);
    add(&p, 5, 10, 11, 1, AB_NONE);
    add(&p, 1, 11, 12, 1, AB_NONE);
    abo_ilp_result r;
    cr_assert_eq(abp_ilp_solve(&p, NULL, &r, NULL), AB_OK);
    cr_assert_eq(r.components, 2);
    cr_assert_eq(r.status, ABO_ILP_OPTIMAL);
    cr_assert_eq(r.arena, abt_brute_optimum(&p, NULL));
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
}

Test(ilp, empty_problem_has_arena_zero) {
    ab_problem p;
    ab_problem_init(&p);
    abo_ilp_result r;
    cr_assert_eq(abp_ilp_solve(&p, NULL, &r, NULL), AB_OK);
    cr_assert_eq(r.status, ABO_ILP_OPTIMAL);
    cr_assert_eq(r.arena, 0);
    cr_assert_eq(r.bound, 0);
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
}

Test(ilp, rejects_malformed_problems_and_options) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, 4, 3, 1, 1, AB_NONE); /* start > end */
    abo_ilp_result r;
    ab_error err;
    cr_assert_eq(abp_ilp_solve(&p, NULL, &r, &err), AB_EINPUT);
    abo_ilp_result_free(&r);
    p.t[0].start = 0;
    abo_ilp_options o = quick();
    o.time_limit = 0;
    cr_assert_eq(abp_ilp_solve(&p, &o, &r, &err), AB_EINPUT);
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
}

/* ---- the planner ------------------------------------------------------------------ */

static ab_status run_spec(const char *spec, const ab_problem *p, int64_t *off, ab_plan_stats *st,
                          ab_error *err) {
    const ab_planner *pl;
    ab_params prm;
    ab_status s = ab_planner_resolve(spec, &pl, &prm, err);
    if (s != AB_OK) return s;
    ab_problem view;
    ab_plan out;
    s = ab_planner_run(pl, &prm, p, &view, &out, st, err);
    if (s == AB_OK)
        for (size_t i = 0; i < out.n; i++) off[out.v[i].tensor] = out.v[i].offset;
    ab_plan_free(&out);
    ab_problem_free(&view);
    ab_params_free(&prm);
    return s;
}

Test(planner_ilp, returns_a_proven_optimum) {
    const ab_planner *pl = ab_planner_find("ilp");
    cr_assert_not_null(pl);
    cr_assert(pl->flags & AB_PLANNER_EXACT);
    cr_assert(pl->flags & AB_PLANNER_ANYTIME);
    uint64_t seed = 21;
    shape sh = {.nmin = 5, .nmax = 8, .scale = 1, .aligned = true, .span = 4};
    for (int it = 0; it < 20; it++) {
        ab_problem p;
        random_problem(&p, &seed, &sh);
        int64_t off[16], arena;
        ab_plan_stats st;
        ab_error err;
        cr_assert_eq(run_spec("ilp:time=10,gap=0", &p, off, &st, &err), AB_OK, "%s", err.msg);
        cr_assert(plain_valid(&p, off, &arena));
        cr_assert_eq(arena, abt_brute_optimum(&p, NULL));
        cr_assert(st.proven_optimal);
        cr_assert_eq(st.lower_bound, arena);
        cr_assert(strncmp(st.note, "optimal", 7) == 0, "%s", st.note);
        ab_problem_free(&p);
    }
}

Test(planner_ilp, rejects_bad_parameter_values) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, 4, 0, 1, 1, AB_NONE);
    int64_t off[1];
    ab_plan_stats st;
    ab_error err;
    static const char *const bad[] = {"ilp:time=0", "ilp:time=abc", "ilp:gap=2", "ilp:gap=-1",
                                       "ilp:ps=maybe", "ilp:cuts=1", "ilp:nodes=0", "ilp:depth=5"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert_eq(run_spec(bad[i], &p, off, &st, &err), AB_EINPUT, "%s", bad[i]);
    cr_assert_eq(run_spec("ilp:time=0.5,gap=1%,ps=on,cuts=off", &p, off, &st, &err), AB_OK, "%s",
                 err.msg);
    ab_problem_free(&p);
}

Test(planner_ilp, leaves_io_tensors_outside_the_arena) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, 8, 0, 0, 1, AB_NONE);
    p.t[0].kind = AB_KIND_INPUT;
    add(&p, 4, 0, 1, 1, AB_NONE);
    add(&p, 4, 1, 2, 1, AB_NONE);
    int64_t off[3] = {-7, -7, -7}, arena;
    ab_plan_stats st;
    cr_assert_eq(run_spec("ilp", &p, off, &st, NULL), AB_OK); /* off indexes the view */
    cr_assert_eq(off[2], -7, "the view has two tensors, the plan more");
    cr_assert(st.proven_optimal);
    ab_problem view;
    cr_assert_eq(ab_problem_arena_view(&p, &view, NULL, NULL), AB_OK);
    cr_assert_eq(view.n, 2);
    cr_assert(plain_valid(&view, off, &arena));
    cr_assert_eq(arena, 8);
    ab_problem_free(&view);
    ab_problem_free(&p);
}

/* ---- the LP file ---------------------------------------------------------------- */

/* Reads the LP file back with GLPK and solves it with its own presolver;
 * returns the optimum in units, -1 when GLPK finds none. */
static double solve_lp_file(const char *path) {
    glp_term_out(GLP_OFF);
    glp_prob *lp = glp_create_prob();
    cr_assert_eq(glp_read_lp(lp, NULL, path), 0, "GLPK cannot read %s back", path);
    glp_iocp io;
    glp_init_iocp(&io);
    io.presolve = GLP_ON;
    io.msg_lev = GLP_MSG_OFF;
    int rc = glp_intopt(lp, &io);
    double v = rc == 0 && glp_mip_status(lp) == GLP_OPT ? glp_mip_obj_val(lp) : -1;
    glp_delete_prob(lp);
    glp_term_out(GLP_ON);
    return v;
}

Test(ilp_lp, written_and_read_back_by_glpk_with_the_same_optimum) {
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/model.lp", dir);
    uint64_t seed = 31;
    shape sh = {.nmin = 3, .nmax = 8, .scale = 16, .aligned = true, .fixed_one_in = 7, .span = 5};
    int written = 0;
    for (int it = 0; it < 40; it++) {
        ab_problem p;
        random_problem(&p, &seed, &sh);
        int64_t opt = abt_brute_optimum(&p, NULL), unit = 0;
        ab_error err;
        ab_status st = abp_ilp_write_lp(&p, NULL, path, &unit, &err);
        if (opt < 0) {
            cr_assert_eq(st, AB_ECHECK, "instance %d: infeasible but written", it);
        } else {
            cr_assert_eq(st, AB_OK, "instance %d: %s", it, err.msg);
            double v = solve_lp_file(path);
            cr_assert_eq((int64_t)llround(v) * unit, opt, "instance %d: LP file %g x %lld, brute %lld",
                         it, v, (long long)unit, (long long)opt);
            written++;
        }
        ab_problem_free(&p);
    }
    cr_assert_gt(written, 30);
    char *text = abt_slurp(path, NULL);
    cr_assert_not_null(text);
    cr_assert(strstr(text, "Minimize") != NULL);
    cr_assert(strstr(text, "Generals") != NULL);
    free(text);
    unlink(path);
    rmdir(dir);
    free(dir);
}

Test(ilp_lp, reports_a_file_it_cannot_write) {
    ab_problem p;
    ab_problem_init(&p);
    add(&p, 4, 0, 1, 1, AB_NONE);
    add(&p, 4, 1, 2, 1, AB_NONE);
    ab_error err;
    cr_assert_eq(abp_ilp_write_lp(&p, NULL, "/nonexistent-dir/x.lp", NULL, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "/nonexistent-dir/x.lp") != NULL, "%s", err.msg);
    ab_problem_free(&p);
}

/* ---- limits ---------------------------------------------------------------------- */

/* A random problem of n tensors over n / 2 instructions, live up to n / 16
 * instructions, sizes 16 .. 1024 bytes aligned to 16: heuristics usually
 * miss the max-load bound, and GLPK rarely proves an optimum within a second
 * at n = 100 or more. */
static void random_large(ab_problem *p, size_t n, uint64_t seed) {
    ab_problem_init(p);
    uint64_t span = n / 2;
    for (size_t i = 0; i < n; i++) {
        int64_t start = (int64_t)(rng_next(&seed) % span);
        int64_t end = start + (int64_t)(rng_next(&seed) % (n / 16 + 1));
        add(p, 16 * (1 + (int64_t)(rng_next(&seed) % 64)), start, end, 16, AB_NONE);
    }
}

Test(ilp_limits, a_time_limited_run_reports_incumbent_bound_and_gap) {
    int unproven = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        ab_problem p;
        random_large(&p, 160, seed * 7919);
        abo_ilp_options o;
        abo_ilp_options_init(&o);
        o.time_limit = 1;
        abo_ilp_result r;
        ab_error err;
        cr_assert_eq(abp_ilp_solve(&p, &o, &r, &err), AB_OK, "%s", err.msg);
        /* the limit holds (a minute late at most, however busy the machine) */
        cr_assert_lt(r.seconds, 61, "a 1 s limit took %.1f s", r.seconds);
        cr_assert_eq(r.verdict, ABO_OK);
        int64_t arena;
        cr_assert(plain_valid(&p, r.offsets, &arena));
        cr_assert_eq(arena, r.arena);
        cr_assert_leq(r.arena, r.heuristic);
        cr_assert_leq(r.max_load, r.bound);
        cr_assert_leq(r.bound, r.arena);
        cr_assert_float_eq(r.gap, (double)(r.arena - r.bound) / (double)r.arena, 1e-12);
        if (r.status == ABO_ILP_OPTIMAL) {
            cr_assert_eq(r.bound, r.arena, "optimal with a gap");
        } else {
            unproven++;
            cr_assert(r.status == ABO_ILP_FEASIBLE || r.status == ABO_ILP_NO_SOLUTION);
            cr_assert_lt(r.bound, r.arena);
            cr_assert_gt(r.gap, 0);
        }
        abo_ilp_result_free(&r);
        ab_problem_free(&p);
    }
    /* seeds 1 and 2 stay unproven after 60 s on a 2-core VM: 60x the limit */
    cr_assert_gt(unproven, 0, "every instance was proven in 1 s: pick harder ones");
}

Test(ilp_limits, a_gap_limit_stops_early_and_never_claims_optimality) {
    ab_problem p;
    random_large(&p, 60, 4242);
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = 20;
    o.gap = 0.5;
    abo_ilp_result r;
    cr_assert_eq(abp_ilp_solve(&p, &o, &r, NULL), AB_OK);
    cr_assert_eq(r.verdict, ABO_OK);
    cr_assert_leq(r.gap, 0.5);
    if (r.status != ABO_ILP_OPTIMAL) cr_assert_lt(r.bound, r.arena);
    else cr_assert_eq(r.bound, r.arena);
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
}

/* A hard instance (the heuristic misses max-load) and a limit too short for
 * its root LP: the heuristic plan and the max-load bound, said so. */
Test(ilp_limits, no_solution_in_time_returns_the_heuristic_plan_and_says_so) {
    ab_problem p;
    abo_ilp_options o = quick();
    abo_ilp_result r;
    ab_error err;
    for (uint64_t seed = 1;; seed++) { /* one the heuristics do not solve */
        random_large(&p, 160, seed);
        o.time_limit = 0.05;
        cr_assert_eq(abp_ilp_solve(&p, &o, &r, &err), AB_OK, "%s", err.msg);
        bool hard = r.heuristic > r.max_load;
        abo_ilp_result_free(&r);
        if (hard) break;
        ab_problem_free(&p);
    }
    o.time_limit = 0.001;
    cr_assert_eq(abp_ilp_solve(&p, &o, &r, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(r.status, ABO_ILP_NO_SOLUTION, "%s: %s", abo_ilp_status_word(r.status), r.note);
    cr_assert_eq(r.arena, r.heuristic);
    cr_assert_eq(r.bound, r.max_load);
    cr_assert_eq(r.verdict, ABO_OK);
    cr_assert(strncmp(r.note, "timeout-no-solution: ", 21) == 0, "%s", r.note);
    int64_t heuristic = r.heuristic;
    abo_ilp_result_free(&r);
    /* under a capacity below the heuristic: no plan within it, over-capacity */
    p.capacity = heuristic - 16;
    cr_assert_eq(abp_ilp_solve(&p, &o, &r, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(r.status, ABO_ILP_NO_SOLUTION, "%s: %s", abo_ilp_status_word(r.status), r.note);
    cr_assert_eq(r.verdict, ABO_OVER_CAPACITY);
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
}

/* ---- GLPK errors -------------------------------------------------------------- */

Test(ilp_errors, a_glpk_error_is_an_error_result_not_an_abort) {
    ab_problem p;
    abo_ilp_options o = quick();
    o.time_limit = 0.2;
    abo_ilp_result r;
    ab_error err;
    ab_error_clear(&err);
    for (uint64_t seed = 1;; seed++) { /* one GLPK has to solve */
        random_large(&p, 150, seed);
        cr_assert_eq(abp_ilp_solve(&p, &o, &r, &err), AB_OK, "%s", err.msg);
        bool ran = r.solved > 0;
        abo_ilp_result_free(&r);
        if (ran) break;
        ab_problem_free(&p);
    }
    glp_mem_limit(1); /* 1 MB: GLPK's allocations fail, glp_error_hook fires */
    ab_status st = abp_ilp_solve(&p, &o, &r, &err);
    abo_ilp_result_free(&r);
    /* out of memory in GLPK is AB_ENOMEM (oom), as any allocation that fails */
    cr_assert_eq(st, AB_ENOMEM, "status %d: %s", st, err.msg);
    cr_assert(strstr(err.msg, "GLPK failed") != NULL, "%s", err.msg);
    /* glp_free_env reset the environment: the limit is gone and GLPK works */
    ab_problem small;
    ab_problem_init(&small);
    add(&small, 2, 0, 1, 1, AB_NONE);
    add(&small, 1, 0, 3, 1, AB_NONE);
    add(&small, 3, 2, 3, 1, AB_NONE);
    cr_assert_eq(abp_ilp_solve(&small, &o, &r, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(r.arena, 4);
    abo_ilp_result_free(&r);
    ab_problem_free(&small);
    ab_problem_free(&p);
}

/* ---- the command -------------------------------------------------------------- */

/* Runs abc_cmd_ilp with args (argv[0] = "ilp"), stdout and stderr captured
 * into *out (owned by the caller). Returns the exit code. */
static int cmd(char **out, const char *const *args, int n) {
    char *argv[16];
    argv[0] = (char *)"ilp";
    for (int i = 0; i < n; i++) argv[i + 1] = (char *)args[i];
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out", dir);
    fflush(stdout);
    fflush(stderr);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int so = dup(1), se = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    int rc = abc_cmd_ilp(n + 1, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so);
    close(se);
    close(fd);
    *out = abt_slurp(path, NULL);
    unlink(path);
    rmdir(dir);
    free(dir);
    return rc;
}

static const char hole_suite[] =
    "suite: hole\n"
    "expect: {optimum: 4}\n"
    "tensors:\n"
    "  - {name: a, size: 2, start: 0, end: 1}\n"
    "  - {name: b, size: 1, start: 0, end: 3}\n"
    "  - {name: c, size: 3, start: 2, end: 3}\n"
    "  - {name: in, size: 9, start: 0, end: 0, kind: input}\n";

Test(cmd_ilp, prints_the_optimum_and_writes_the_lp_and_the_plan) {
    char suite[4096];
    snprintf(suite, sizeof suite, "%s", abt_write_tmp(hole_suite, ".yaml"));
    char *dir = abt_tmpdir(), lp[4096], plan[4096];
    snprintf(lp, sizeof lp, "%s/m.lp", dir);
    snprintf(plan, sizeof plan, "%s/plan.csv", dir);
    char *out;
    const char *args[] = {suite, "--time", "5", "--write-lp", lp, "-o", plan};
    int rc = cmd(&out, args, 7);
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "status     optimal") != NULL, "%s", out);
    cr_assert(strstr(out, "optimum    4 bytes") != NULL, "%s", out);
    cr_assert(strstr(out, "gap        0.00%") != NULL, "%s", out);
    cr_assert(strstr(out, "1 I/O outside") != NULL, "%s", out);
    free(out);
    cr_assert_eq(solve_lp_file(lp), 4);
    char *csv = abt_slurp(plan, NULL);
    cr_assert_not_null(csv);
    cr_assert(strncmp(csv, "tensor,offset", 13) == 0, "%s", csv);
    cr_assert(strstr(csv, "in,") == NULL, "an I/O tensor in the plan: %s", csv);
    free(csv);
    unlink(lp);
    unlink(plan);
    rmdir(dir);
    free(dir);
}

Test(cmd_ilp, exits_1_when_the_capacity_is_infeasible) {
    static const char s[] = "suite: tight\ncapacity: 3\ntensors:\n"
                            "  - {name: a, size: 2, start: 0, end: 1}\n"
                            "  - {name: b, size: 1, start: 0, end: 3}\n"
                            "  - {name: c, size: 3, start: 2, end: 3}\n"
                            "  - {name: d, size: 1, start: 0, end: 0}\n";
    char suite[4096];
    snprintf(suite, sizeof suite, "%s", abt_write_tmp(s, ".yaml"));
    char *out;
    const char *args[] = {suite};
    int rc = cmd(&out, args, 1);
    cr_assert_eq(rc, 1, "%s", out);
    cr_assert(strstr(out, "status     infeasible") != NULL, "%s", out);
    free(out);
}

Test(cmd_ilp, exits_1_when_the_optimum_disagrees_with_the_suite) {
    static const char s[] = "suite: wrong\nexpect: {optimum: 5}\ntensors:\n"
                            "  - {name: a, size: 2, start: 0, end: 1}\n"
                            "  - {name: b, size: 2, start: 1, end: 2}\n";
    char suite[4096];
    snprintf(suite, sizeof suite, "%s", abt_write_tmp(s, ".yaml"));
    char *out;
    const char *args[] = {suite};
    cr_assert_eq(cmd(&out, args, 1), 1, "%s", out);
    cr_assert(strstr(out, "expect.optimum 5") != NULL, "%s", out);
    free(out);
}

Test(cmd_ilp, usage_errors_exit_2_and_help_exits_0) {
    char *out;
    const char *none[] = {"--time"};
    cr_assert_eq(cmd(&out, none, 0), 2);
    cr_assert(strstr(out, "arenabench: ") != NULL, "%s", out);
    free(out);
    cr_assert_eq(cmd(&out, none, 1), 2);
    free(out);
    const char *badtime[] = {"x.yaml", "--time", "-1"};
    cr_assert_eq(cmd(&out, badtime, 3), 2);
    cr_assert(strstr(out, "--time") != NULL, "%s", out);
    free(out);
    const char *unknown[] = {"x.yaml", "--frobnicate"};
    cr_assert_eq(cmd(&out, unknown, 2), 2);
    free(out);
    const char *missing[] = {"/nonexistent/suite.yaml"};
    cr_assert_eq(cmd(&out, missing, 1), 2);
    cr_assert(strncmp(out, "arenabench: ", 12) == 0, "%s", out);
    free(out);
    const char *help[] = {"--help"};
    cr_assert_eq(cmd(&out, help, 1), 0);
    cr_assert(strstr(out, "usage: arenabench ilp SUITE") != NULL, "%s", out);
    free(out);
}

/* ---- the example suites ---------------------------------------------------------- */

Test(ilp_examples, every_example_suite_meets_its_expected_optimum) {
    static const char *const names[] = {"chain_reuse", "diamond", "first_fit_hole", "fixed_offset",
                                        "int4_shapes", "io_separate", "io_workspace",
                                        "mixed_alignment", "nested_ranges", "touching_ranges"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "suites/examples/%s.yaml", names[i]);
        char *out;
        const char *args[] = {abt_src(rel), "--time", "20"};
        int rc = cmd(&out, args, 3);
        cr_assert_eq(rc, 0, "%s: %s", names[i], out);
        cr_assert(strstr(out, "status     optimal") != NULL, "%s: %s", names[i], out);
        free(out);
    }
}
