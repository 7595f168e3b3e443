/*
 * planning.h — what the planner tests share: a problem from an array of
 * tensors, a plan of it by spec, the oracle's verdict on it and its
 * max-load bound. They assert with Criterion, so they serve tests only.
 */
#ifndef ABT_PLANNING_H
#define ABT_PLANNING_H

#include "oracle/check.h"
#include "planners/planner.h"

/* *p (initialised by the call) holds copies of t[0 .. n). */
void abt_make(ab_problem *p, const ab_tensor *t, size_t n);

/* Plans p (all intermediates) with spec; off receives p->n offsets; *stats
 * (may be NULL) the planner's figures. Returns what resolving or planning
 * returned (err set on failure). */
ab_status abt_plan(const char *spec, const ab_problem *p, int64_t *off, ab_plan_stats *stats,
                   ab_error *err);

/* The oracle's verdict on off, and the arena it measured (arena may be NULL). */
abo_verdict abt_judge(const ab_problem *p, const int64_t *off, int64_t *arena);

/* Drops the fixed offset of each tensor whose fixed bytes overlap those of
 * an earlier conflicting fixed tensor (random problems draw fixed offsets
 * independently). */
void abt_drop_colliding_fixed(ab_problem *p);

/* The max-load bound of p. */
int64_t abt_max_load(const ab_problem *p);

/* The most tensors abt_random_coprime draws. */
#define ABT_COPRIME_MAX 14

/* *p (initialised by the call): a random problem of 10 to 14 tensors, the
 * same for the same seed: sizes 1-50,000 (they share no factor), aligns 1
 * to 64, live ranges of 1-5 instructions starting at 0-9, one in five at a
 * fixed aligned offset (dropped where it overlaps a conflicting fixed one).
 * Too large for the brute force; the exact planners check one another on it. */
void abt_random_coprime(ab_problem *p, uint64_t seed);

#endif
