/*
 * best_fit.c — planner `best-fit`: tensors one at a time, each into the
 * smallest gap between the already placed tensors it conflicts with that
 * holds it (ties: the lowest offset), on top of them when no gap does.
 */
#include "planners/greedy.h"

/* Walks the free gaps below the top of the busy ranges (sorted by lo) and
 * keeps the smallest that holds size bytes at an aligned offset. */
bool abp_rule_best_fit(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                          int64_t *offset) {
    int64_t top = 0, best = -1, best_len = 0, a, end;
    for (size_t j = 0; j < n; j++) {
        if (busy[j].lo > top) { /* a free gap [top, busy[j].lo) */
            int64_t len = busy[j].lo - top;
            if (ab_align_up_ovf(top, align, &a)) return false;
            if (!ab_add_ovf(a, size, &end) && end <= busy[j].lo && (best < 0 || len < best_len)) {
                best = a;
                best_len = len;
            }
        }
        if (busy[j].hi > top) top = busy[j].hi;
    }
    if (best < 0) {
        if (ab_align_up_ovf(top, align, &best) || ab_add_ovf(best, size, &end)) return false;
    }
    *offset = best;
    return true;
}

static ab_status best_fit_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                               ab_plan_stats *st, ab_error *err) {
    st->lower_bound = AB_NONE;
    return abp_greedy(p, abp_order_param(opt), ABP_FIT_BEST, offsets, err);
}

static const ab_param_desc best_fit_params[] = {ABP_ORDER_PARAM_ROW, {0}};

const ab_planner abp_best_fit = {
    .name = "best-fit",
    .summary = "each tensor into the smallest gap among its placed conflicts that holds it",
    .flags = AB_PLANNER_DEFAULT,
    .also_default = "order=size",
    .params = best_fit_params,
    .plan = best_fit_plan,
};
