/*
 * ilp.h — the planners' side of the GLPK integer program (oracle/ilp.h): the
 * oracle judges and solves but runs no planner, so its first incumbents (the
 * plans of first-fit and best-fit) are computed here and handed to it.
 */
#ifndef ABP_ILP_H
#define ABP_ILP_H

#include "oracle/ilp.h"

/* Plans p with best-fit, then first-fit, each in the orders size, area and
 * start; the plans that came back go into *plans (owned by the caller:
 * ab_free), *n of them, one after another, p->n offsets each. */
ab_status abp_ilp_incumbents(const ab_problem *p, int64_t **plans, size_t *n, ab_error *err);

/* abo_ilp_solve with the heuristics' plans as incumbents (when o->heuristics). */
ab_status abp_ilp_solve(const ab_problem *p, const abo_ilp_options *o, abo_ilp_result *r,
                        ab_error *err);

/* abo_ilp_write_lp with the heuristics' plans as incumbents (when o->heuristics). */
ab_status abp_ilp_write_lp(const ab_problem *p, const abo_ilp_options *o, const char *path,
                           int64_t *unit, ab_error *err);

#endif
