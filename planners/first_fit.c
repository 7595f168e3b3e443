/*
 * first_fit.c — planner `first-fit`: tensors one at a time, each at the
 * lowest aligned offset where it fits beside the already placed tensors it
 * conflicts with.
 */
#include "planners/greedy.h"

/* The lowest aligned offset clear of every busy range. busy is sorted by lo,
 * so one pass suffices: a range that starts at or above candidate + size
 * leaves room below it, and so do all ranges after it. */
bool abp_rule_first_fit(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                        int64_t *offset) {
    int64_t cand = 0, end;
    for (size_t j = 0; j < n; j++) {
        if (ab_add_ovf(cand, size, &end)) return false;
        if (end <= busy[j].lo) break;
        if (busy[j].hi > cand && ab_align_up_ovf(busy[j].hi, align, &cand)) return false;
    }
    if (ab_add_ovf(cand, size, &end)) return false;
    *offset = cand;
    return true;
}

static ab_status first_fit_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                ab_plan_stats *st, ab_error *err) {
    st->lower_bound = AB_NONE;
    return abp_greedy(p, abp_order_param(opt), ABP_FIT_FIRST, offsets, err);
}

static const ab_param_desc first_fit_params[] = {ABP_ORDER_PARAM_ROW, {0}};

const ab_planner abp_first_fit = {
    .name = "first-fit",
    .summary = "each tensor at the lowest aligned offset beside its placed conflicts",
    .flags = AB_PLANNER_DEFAULT,
    .also_default = "order=size",
    .params = first_fit_params,
    .plan = first_fit_plan,
};
