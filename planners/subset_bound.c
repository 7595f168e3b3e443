/*
 * subset_bound.c — planner `subset-bound`: a lower bound, not a packing. It
 * returns best-fit's plan (order size) and, as its proven lower bound, the
 * oracle's subset bound (oracle/subset.h): windows of instructions around the
 * peaks of load, each solved exactly by the oracle's GLPK program. A subset's
 * optimum bounds the whole, so where the tensors around a peak cannot stack
 * perfectly the bound rises above max-load, and every gap in the report is
 * measured against it. The bound is GLPK's (method ilp); the note names the
 * window, so the certificate can be re-solved (abo_subset_window).
 *
 * It runs in the runner's child like any planner, under its limits; on real
 * suites of thousands of tensors it stays cheap, since each window holds at
 * most `tensors` tensors.
 *
 * Parameters: time=S (seconds for all windows, default 10), nodes=N (GLPK's
 * branch-and-bound nodes per window: the deterministic budget, time then
 * only a safety cap; default none), tensors=N (the largest window, default
 * 48), peaks=N (peaks to grow windows around, default 4).
 */
#include <stdio.h>
#include <string.h>

#include "planners/ilp.h"
#include "oracle/subset.h"
#include "planners/planner.h"

extern const ab_planner abp_best_fit;

static ab_status subset_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                             ab_plan_stats *st, ab_error *err) {
    abo_subset_opts o;
    abo_subset_opts_init(&o);
    int64_t tensors = (int64_t)o.max_tensors, peaks = (int64_t)o.peaks;
    const char *t = ab_params_get(opt, "time");
    if (t != NULL) sscanf(t, "%lf", &o.time_limit); /* checked when the spec was resolved */
    ab_status s = ab_params_int(opt, "tensors", tensors, 1, 4096, &tensors, err);
    if (s == AB_OK) s = ab_params_int(opt, "peaks", peaks, 1, 1 << 20, &peaks, err);
    if (s == AB_OK) s = ab_params_int(opt, "nodes", 0, 1, INT64_MAX, &o.nodes, err);
    if (s != AB_OK) return s;
    o.max_tensors = (size_t)tensors;
    o.peaks = (size_t)peaks;
    o.incumbents = abp_ilp_incumbents; /* best-fit and first-fit start GLPK */
    static char key[] = "order", val[] = "size";
    ab_kv kv = {.key = key, .value = val};
    ab_params by_size = {.n = 1, .v = &kv};
    s = abp_best_fit.plan(p, &by_size, offsets, st, err);
    if (s != AB_OK) return s;
    abo_subset_result r;
    s = abo_subset_bound(p, &o, &r, err);
    if (s != AB_OK) return s;
    st->lower_bound = r.bound;
    st->method = ABO_PROOF_ILP;
    st->ilp_status = (int)ABO_ILP_FEASIBLE + 1; /* the row keeps the bound as an ILP bound */
    st->nodes = (int64_t)r.windows;
    st->capped = r.capped;
    snprintf(st->note, sizeof st->note, "%s%s", r.bound > r.max_load ? "above max-load: " : "",
             r.certificate);
    return AB_OK;
}

static const ab_param_desc subset_params[] = {
    {"time", "seconds > 0", "10", "time for all the windows together", AB_PARAM_SECONDS, 0, 0},
    {"nodes", "integer >= 1", "no limit",
     "GLPK's branch-and-bound nodes per window: a deterministic budget (time then a cap)",
     AB_PARAM_INT, 1, INT64_MAX},
    {"tensors", "integer 1 .. 4096", "48", "the largest window solved", AB_PARAM_INT, 1, 4096},
    {"peaks", "integer >= 1", "4", "peaks of load to grow windows around", AB_PARAM_INT, 1,
     1 << 20},
    {0},
};

const ab_planner abp_subset_bound = {
    .name = "subset-bound",
    .summary = "a lower bound above max-load: windows around the peaks solved exactly by GLPK "
               "(its plan is best-fit's)",
    .flags = 0,
    .params = subset_params,
    .plan = subset_plan,
};
