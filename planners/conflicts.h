/*
 * conflicts.h — an index of placed tensors by live range, shared by the
 * heuristic planners: "which already placed tensors conflict with tensor i?"
 * in O(log n + k) for k answers, never a scan of every placed tensor.
 *
 * Time is compressed to the distinct start instructions: two inclusive live
 * ranges intersect iff both contain the later of the two starts, so ranges
 * mapped to [rank of start, rank of the last start <= end] intersect exactly
 * when the originals do. A placed tensor j conflicts with i when either
 *   (a) j's compressed range contains i's compressed start (a stabbing query
 *       on a segment tree where j is stored in its canonical nodes), or
 *   (b) j starts strictly after i starts and no later than i's compressed
 *       end (a range query on a count tree over start ranks).
 * The two cases are disjoint, so every conflicting tensor is reported once.
 */
#ifndef AB_CONFLICTS_H
#define AB_CONFLICTS_H

#include "core/problem.h"

typedef struct abp_conflicts abp_conflicts;

/* Builds an empty index over the tensors of p (nothing placed yet). *out is
 * owned by the caller (abp_conflicts_free). p must outlive the index. */
ab_status abp_conflicts_new(const ab_problem *p, abp_conflicts **out, ab_error *err);
void abp_conflicts_free(abp_conflicts *c);

/* Marks tensor i as placed. AB_ENOMEM on failure. */
ab_status abp_conflicts_place(abp_conflicts *c, size_t i, ab_error *err);

/* Collects the placed tensors that conflict with tensor i into *out (a
 * buffer of *cap entries, grown as needed, owned by the caller) and sets *n.
 * The order is unspecified. AB_ENOMEM on failure. */
ab_status abp_conflicts_query(const abp_conflicts *c, size_t i, size_t **out, size_t *cap,
                              size_t *n, ab_error *err);

#endif
