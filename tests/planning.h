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

/* The max-load bound of p. */
int64_t abt_max_load(const ab_problem *p);

#endif
