/*
 * gaps.h — a set of pairwise disjoint byte ranges with its free gaps
 * indexed, for program order's sweep (greedy.c): there the placed tensors a
 * tensor meets are the ones still live, and when no offset is fixed they
 * never overlap, so the rules (greedy.h) need only the gaps between them.
 *
 * first-fit: the lowest gap that holds the tensor at an aligned offset, else
 * the top; best-fit: the smallest such gap (ties: the lowest), else the top.
 * Each in O(log n) expected, plus the gaps passed over because an alignment
 * leaves them too small, instead of a walk over every live tensor.
 */
#ifndef AB_GAPS_H
#define AB_GAPS_H

#include "core/ab.h"

typedef struct abp_gaps abp_gaps;

/* An empty set for ranges named 0 .. n - 1; NULL when out of memory or when
 * n does not fit the index (the caller then takes another path). */
abp_gaps *abp_gaps_new(size_t n);
void abp_gaps_free(abp_gaps *g);

/* Adds range id = [lo, hi), lo < hi, disjoint from every range in the set. */
void abp_gaps_add(abp_gaps *g, size_t id, int64_t lo, int64_t hi);

/* Removes range id (in the set). */
void abp_gaps_remove(abp_gaps *g, size_t id);

/* abp_rule_first_fit and abp_rule_best_fit on the ranges of the set: the
 * same offsets. False when the offset would overflow int64. */
bool abp_gaps_first_fit(const abp_gaps *g, int64_t size, int64_t align, int64_t *offset);
bool abp_gaps_best_fit(const abp_gaps *g, int64_t size, int64_t align, int64_t *offset);

#endif
