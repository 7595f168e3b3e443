/*
 * planning.c — the planner tests' shared steps (planning.h).
 */
#include "tests/planning.h"

#include <criterion/criterion.h>
#include <string.h>

#include "oracle/bounds.h"

void abt_make(ab_problem *p, const ab_tensor *t, size_t n) {
    ab_problem_init(p);
    for (size_t i = 0; i < n; i++) cr_assert_eq(ab_problem_add(p, &t[i], NULL), AB_OK);
}

ab_status abt_plan(const char *spec, const ab_problem *p, int64_t *off, ab_plan_stats *stats,
                   ab_error *err) {
    const ab_planner *pl;
    ab_params prm;
    ab_plan_stats local;
    if (stats == NULL) stats = &local;
    memset(stats, 0, sizeof *stats);
    ab_status st = ab_planner_resolve(spec, &pl, &prm, err);
    if (st != AB_OK) return st;
    ab_problem view;
    ab_plan out;
    st = ab_planner_run(pl, &prm, p, &view, &out, stats, err);
    if (st == AB_OK) {
        cr_assert_eq(out.n, p->n);
        for (size_t i = 0; i < out.n; i++) off[out.v[i].tensor] = out.v[i].offset;
    }
    ab_plan_free(&out);
    ab_problem_free(&view);
    ab_params_free(&prm);
    return st;
}

abo_verdict abt_judge(const ab_problem *p, const int64_t *off, int64_t *arena) {
    ab_plan pl;
    cr_assert_eq(ab_plan_from_offsets(&pl, off, p->n, NULL), AB_OK);
    static abo_report r;
    cr_assert_eq(abo_check(p, &pl, &r, NULL), AB_OK);
    ab_plan_free(&pl);
    if (arena) *arena = r.arena;
    return r.verdict;
}

int64_t abt_max_load(const ab_problem *p) {
    abo_bounds b;
    cr_assert_eq(abo_bounds_compute(p, &b, NULL), AB_OK);
    return b.max_load;
}
