/*
 * greedy.h — the driver shared by the one-tensor-at-a-time planners
 * (first-fit, best-fit): order the tensors, place fixed offsets first, then
 * ask a placement rule where each next tensor goes among the already placed
 * tensors it conflicts with.
 */
#ifndef AB_GREEDY_H
#define AB_GREEDY_H

#include "planners/planner.h"

/* A placed, conflicting tensor as the placement rule sees it: [lo, hi). */
typedef struct abp_busy {
    int64_t lo, hi;
    size_t idx; /* the tensor; rules ignore it */
} abp_busy;

/* A placement rule: given the busy byte ranges of the placed tensors that
 * conflict with the next one, sorted by lo (ties by hi), returns in *offset
 * where a tensor of the given size and align goes. Returns false when the
 * offset would overflow int64. */
typedef bool (*abp_rule)(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                         int64_t *offset);

/* The first-fit rule: the lowest offset, a multiple of align, clear of every
 * busy range (sorted by lo). Shared by first-fit and tflm-greedy. */
bool abp_rule_first_fit(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                        int64_t *offset);

/* The best-fit rule: the smallest free gap below the top of the busy ranges
 * that holds the tensor at an aligned offset (ties: the lowest), else on top
 * of them. Shared by best-fit and canonical (its starting plans). */
bool abp_rule_best_fit(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                       int64_t *offset);

/* The orders a greedy planner takes (parameter `order`), in the order of the
 * words of ABP_ORDER_PARAM_ROW's values: a word's index is its order. */
typedef enum abp_order { ABP_ORDER_START, ABP_ORDER_SIZE, ABP_ORDER_AREA } abp_order;

/* The `order` of opt, resolved against a table holding ABP_ORDER_PARAM_ROW. */
abp_order abp_order_param(const ab_params *opt);

/* The rules abp_greedy applies: abp_rule_first_fit's and abp_rule_best_fit's,
 * computed on the free-space index (space.h) with the same results. */
typedef enum abp_fit { ABP_FIT_FIRST, ABP_FIT_BEST } abp_fit;

/* Places every tensor of p in the given order by the rule, fixed offsets
 * first; writes offsets[0 .. p->n). */
ab_status abp_greedy(const ab_problem *p, abp_order order, abp_fit fit, int64_t *offsets,
                     ab_error *err);

/* The parameter rows both greedy planners take. */
#define ABP_ORDER_PARAM_ROW                                                            \
    {"order", "start|size|area", "start",                                              \
     "start: program order, ties larger first, then name; size: decreasing size; "     \
     "area: decreasing size x live length", AB_PARAM_CHOICE, 0, 0, false}

#endif
