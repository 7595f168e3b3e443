/*
 * space.h — the free space left by placed tensors, for the greedy planners:
 * "the lowest aligned offset where a tensor fits beside every placed tensor
 * it conflicts with" and "the smallest free gap among them that holds it",
 * answered without gathering those tensors one by one.
 *
 * A placed tensor is a rectangle: its live range across (time), its bytes
 * [offset, offset + size) up. The two greedy rules (first-fit, best-fit in
 * greedy.h) depend only on the union of the byte ranges of the placed
 * tensors that conflict with the next one (its PROJECTION): first-fit takes
 * the lowest aligned offset whose window misses the union, best-fit the
 * smallest maximal free interval of the union below its top that holds the
 * tensor at an aligned offset (ties: the lowest), else the top, aligned. So
 * any structure that yields that union exactly yields the same offsets as
 * the rules run on the sorted conflict list. This one keeps it as a few
 * unions of intervals, one or two per level of a tree over time, so a short
 * tensor beside 4,000 long-lived ones no longer gathers and sorts 4,000.
 *
 * See space.c's opening comment for the structure and why it is exact.
 */
#ifndef AB_SPACE_H
#define AB_SPACE_H

#include "planners/greedy.h"

typedef struct abp_space abp_space;

/* Builds an empty index over the tensors of p (nothing placed). *out is owned
 * by the caller (abp_space_free). p must outlive the index. */
ab_status abp_space_new(const ab_problem *p, abp_space **out, ab_error *err);
void abp_space_free(abp_space *s);

/* The same, its tensors named by rank in order (a permutation of p's
 * tensors, which must outlive the index): id r in the calls below is tensor
 * order[r]. A caller that places in that order then reads the index's
 * per-tensor data in sequence, not at random. */
ab_status abp_space_new_ordered(const ab_problem *p, const size_t *order, abp_space **out,
                                ab_error *err);

/* Records tensor i as placed, taking the bytes [lo, hi), lo < hi (its
 * offset and offset + size, or a rounded end for a peer's rule). AB_ENOMEM
 * on failure. */
ab_status abp_space_place(abp_space *s, size_t i, int64_t lo, int64_t hi, ab_error *err);

/* The lowest offset, a multiple of align, where size bytes of tensor i miss
 * every placed tensor conflicting with i. False when it would overflow int64. */
bool abp_space_first_fit(abp_space *s, size_t i, int64_t size, int64_t align, int64_t *offset);

/* The highest end among the placed tensors conflicting with i (the top of
 * their union), 0 when there are none. */
int64_t abp_space_top(abp_space *s, size_t i);

/* The offset a placement rule (greedy.h) gives tensor i, size bytes at
 * align, among the placed tensors conflicting with i: the rule run on the
 * intervals of the unions, sorted by lo. Exact for every rule whose result
 * depends only on the union of the busy ranges (best-fit's, first-fit's,
 * the TFLite GPU delegate's). AB_EINPUT when the rule overflows int64,
 * AB_ENOMEM. */
ab_status abp_space_rule(abp_space *s, size_t i, abp_rule rule, int64_t size, int64_t align,
                         int64_t *offset, ab_error *err);

/* The union of the byte ranges of the placed tensors conflicting with i, as
 * intervals sorted by lo, pairwise disjoint and not touching, into *busy
 * (*nbusy of them; idx 0): the list abp_space_rule runs its rule on, for
 * a caller whose rule needs more than the list (ExecuTorch's greedy reads it
 * against its shared objects). Owned by the index, valid until its next
 * call. AB_ENOMEM. */
ab_status abp_space_busy(abp_space *s, size_t i, const abp_busy **busy, size_t *nbusy,
                         ab_error *err);

/* Asks the cache for what a query and a placement of tensor i will read,
 * a few tensors ahead of them, each stage once the previous one's lines had
 * time to arrive: stage 0 its leaf range, 1 the nodes on the paths to its
 * two end leaves, 2 the first intervals of their sets. Changes nothing; it
 * turns a million tensors' cache misses, one after the other, into misses
 * in flight together. (Naming tensors by placement rank,
 * abp_space_new_ordered, makes stage 0 needless.) */
void abp_space_prefetch(const abp_space *s, size_t i, int stage);

#endif
