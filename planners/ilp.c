/*
 * ilp.c — planner `ilp`: the GLPK integer program of oracle/ilp.h. Returns
 * its best plan, optimal or not: the optimum when GLPK proves it, else the
 * best incumbent when the time or gap limit ends the search, else the best
 * heuristic plan (first-fit / best-fit), and says which in the note.
 *
 * Parameters: time=S (seconds, default 60), nodes=N (branch-and-bound nodes,
 * the deterministic budget; default none: then time is the budget), gap=G (a
 * fraction such as 0.01, or a percentage such as 1%; default 0), ps=on|off
 * (GLPK's proximity search, default on; off under a node budget, since it
 * runs on time alone), cuts=on|off (GLPK's cut generators, default off).
 * With nodes=N the plan does not depend on the machine's speed or load
 * unless time=S ends the search first: the stats then say capped.
 */
#include "planners/planner.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/ilp.h"

extern const ab_planner abp_first_fit, abp_best_fit;

ab_status abp_ilp_incumbents(const ab_problem *p, int64_t **plans, size_t *n, ab_error *err) {
    static const ab_planner *const by[] = {&abp_best_fit, &abp_first_fit};
    static const char *const orders[] = {"size", "area", "start"};
    size_t m = p->n ? p->n : 1;
    *n = 0;
    *plans = ab_alloc_array(6 * m, sizeof **plans);
    if (*plans == NULL) return ab_fail(err, AB_ENOMEM, "out of memory running the heuristics");
    for (size_t h = 0; h < 2; h++) {
        for (size_t k = 0; k < 3; k++) {
            char key[] = "order", val[8];
            snprintf(val, sizeof val, "%s", orders[k]);
            ab_kv kv = {.key = key, .value = val};
            ab_params prm = {.n = 1, .v = &kv};
            ab_plan_stats st = {.lower_bound = AB_NONE};
            int64_t *off = *plans + *n * m;
            for (size_t i = 0; i < p->n; i++) off[i] = AB_NONE;
            if (ab_params_bind(by[h]->name, by[h]->params, &prm, NULL, NULL) == AB_OK &&
                by[h]->plan(p, &prm, off, &st, NULL) == AB_OK)
                (*n)++;
        }
    }
    return AB_OK;
}

/* o with the heuristics' plans as incumbents in *with (plans owned by the
 * caller, NULL when none were wanted). */
static ab_status with_incumbents(const ab_problem *p, const abo_ilp_options *o,
                                 abo_ilp_options *with, int64_t **plans, ab_error *err) {
    if (o == NULL) abo_ilp_options_init(with);
    else *with = *o;
    *plans = NULL;
    if (!with->heuristics) return AB_OK;
    ab_status st = abp_ilp_incumbents(p, plans, &with->nincumbents, err);
    with->incumbents = *plans;
    return st;
}

ab_status abp_ilp_solve(const ab_problem *p, const abo_ilp_options *o, abo_ilp_result *r,
                        ab_error *err) {
    abo_ilp_options with;
    int64_t *plans;
    ab_status st = with_incumbents(p, o, &with, &plans, err);
    if (st == AB_OK) st = abo_ilp_solve(p, &with, r, err);
    else memset(r, 0, sizeof *r);
    ab_free(plans);
    return st;
}

ab_status abp_ilp_write_lp(const ab_problem *p, const abo_ilp_options *o, const char *path,
                           int64_t *unit, ab_error *err) {
    abo_ilp_options with;
    int64_t *plans;
    ab_status st = with_incumbents(p, o, &with, &plans, err);
    if (st == AB_OK) st = abo_ilp_write_lp(p, &with, path, unit, err);
    ab_free(plans);
    return st;
}

static ab_status ilp_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                          ab_plan_stats *st, ab_error *err) {
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = ab_param_seconds(opt, "time");
    if (o.time_limit < 0.001 || o.time_limit > 1e7)
        return ab_fail(err, AB_EINPUT, "parameter time: expected a number in [%g, %g], got '%s'",
                       0.001, 1e7, ab_param_text(opt, "time"));
    o.nodes = ab_param_has(opt, "nodes") ? ab_param_i64(opt, "nodes") : 0;
    o.gap = ab_param_fraction(opt, "gap");
    o.proximity = ab_param_choice(opt, "ps") == 0; /* on|off */
    o.cuts = ab_param_choice(opt, "cuts") == 0;    /* on|off */
    abo_ilp_result r;
    ab_status s = abp_ilp_solve(p, &o, &r, err);
    if (s == AB_OK) {
        memcpy(offsets, r.offsets, r.n * sizeof *offsets);
        st->nodes = r.nodes;
        st->proven_optimal = r.status == ABO_ILP_OPTIMAL;
        st->lower_bound = r.bound;
        st->method = ABO_PROOF_ILP;
        st->ilp_status = (int)r.status + 1;
        st->capped = r.capped;
        snprintf(st->note, sizeof st->note, "%.120s; %lld nodes%s", r.note, (long long)r.nodes,
                 r.capped ? "; stopped by the time cap" : "");
    }
    abo_ilp_result_free(&r);
    return s;
}

static const ab_param_desc ilp_params[] = {
    {"time", "seconds > 0", "60", "time limit for the whole solve (a safety cap with nodes=)",
     AB_PARAM_SECONDS, 0, 0, false},
    {"nodes", "integer >= 1", "no limit",
     "branch-and-bound nodes for the whole solve: a deterministic budget (proximity search "
     "off)", AB_PARAM_INT, 1, INT64_MAX, true},
    {"gap", "0 .. 1 or N%", "0", "stop at this relative gap (arena - bound) / arena",
     AB_PARAM_FRACTION, 0, 0, false},
    {"ps", "on|off", "on", "GLPK's proximity search heuristic at the root", AB_PARAM_CHOICE, 0, 0,
     false},
    {"cuts", "on|off", "off", "GLPK's cut generators (can fail GLPK's assertions)",
     AB_PARAM_CHOICE, 0, 0, false},
    {0},
};

const ab_planner abp_ilp = {
    .name = "ilp",
    .summary = "GLPK integer program: the optimum, or the best plan with a proven bound",
    .flags = AB_PLANNER_EXACT | AB_PLANNER_ANYTIME,
    .params = ilp_params,
    .plan = ilp_plan,
};
