/*
 * planning.c — the planner tests' shared steps (planning.h).
 */
#include "tests/planning.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "oracle/bounds.h"

/* splitmix64's finaliser */
static uint64_t abt_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

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

void abt_drop_colliding_fixed(ab_problem *p) {
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = 0; j < i; j++) {
            const ab_tensor *a = &p->t[i], *b = &p->t[j];
            if (a->offset == AB_NONE || b->offset == AB_NONE || !ab_conflict(a, b)) continue;
            if (a->offset < b->offset + b->size && b->offset < a->offset + a->size)
                p->t[i].offset = AB_NONE;
        }
}

int64_t abt_max_load(const ab_problem *p) {
    abo_bounds b;
    cr_assert_eq(abo_bounds_compute(p, &b, NULL), AB_OK);
    return b.max_load;
}

void abt_random_coprime(ab_problem *p, uint64_t seed) {
    static char names[ABT_COPRIME_MAX][24];
    uint64_t state = seed * 6151 + 5;
#define NEXT() (state += 0x9e3779b97f4a7c15ull, abt_mix(state))
#define PICK(lo, hi) ((lo) + (int64_t)(NEXT() % (uint64_t)((hi) - (lo) + 1)))
    ab_problem_init(p);
    size_t n = (size_t)PICK(10, ABT_COPRIME_MAX);
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "n%zu", i);
        int64_t s = PICK(0, 9), len = PICK(1, 5), al = (int64_t)1 << PICK(0, 6);
        ab_tensor t = {.name = names[i], .size = PICK(1, 50000), .start = s, .end = s + len - 1,
                       .align = al, .offset = AB_NONE};
        t.logical_bits = t.size * 8;
        if (NEXT() % 5 == 0) t.offset = al * PICK(0, 80000 / al);
        for (size_t j = 0; j < i && t.offset != AB_NONE; j++) {
            const ab_tensor *b = &p->t[j];
            if (b->offset != AB_NONE && ab_conflict(&t, b) && t.offset < b->offset + b->size &&
                b->offset < t.offset + t.size)
                t.offset = AB_NONE;
        }
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
#undef PICK
#undef NEXT
}
