/*
 * compare.h — a base run against a head run (`arenabench compare`,
 * DESIGN.md §5): which (suite, planner spec) pairs got worse or better.
 *
 * Pairs are matched by the suite's content hash and the spec text, so an
 * edited suite is a new pair ("new" in head, "gone" from base), never a
 * regression. For a matched pair:
 *
 *   regression    failed       ok in base, any other status in head
 *                 arena grew   ok in both, a larger arena in head
 *                 proof lost   ok in both, proven optimal in base only
 *                 slower       ok in both, head wall >= ratio x base wall
 *                              and head wall - base wall >= min seconds
 *   improvement   fixed        not ok in base, ok in head
 *                 arena shrank ok in both, a smaller arena in head
 *                 proven       ok in both, proven optimal in head only
 *                 faster       ok in both, the same thresholds the other way
 *   other         status       not ok in both, with different statuses
 *
 * (over-capacity -> ok is "fixed": a plan that now fits the capacity.) A pair
 * only in head is "new", or "failed" (a regression) when its status fails a
 * run: invalid, crash or error (a new suite file that did not load is an
 * error row, spec "(load)"; a new suite a planner crashes on). Besides
 * the pairs, per suite (by hash) across both runs:
 *
 *   regression    contradiction  a row proved the suite infeasible (no plan fits
 *                                its capacity) and a row of either run packed it
 *                                within the capacity (ok): a prover, a planner or
 *                                the checker is wrong; one line per infeasible row,
 *                                after the pairs' lines
 *
 * A pair may have several changes (an arena that grew and a lost proof).
 * The text lists one line per change, ordered by suite name, suite hash,
 * spec, then the order above; the same two runs give the same bytes.
 */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

#include "core/buf.h"
#include "results/store/store.h"

/* The defaults of the slowdown threshold: both must hold. */
#define ABR_SLOW_RATIO 2.0   /* head wall time at least twice base's */
#define ABR_SLOW_MIN_S 0.100 /* and at least this many seconds more */

#define ABR_CHANGES(X)                                                 \
    X(ABR_CHANGE_FAILED, "failed", 1)        /* ok -> not ok */         \
    X(ABR_CHANGE_ARENA_GREW, "arena grew", 1)                           \
    X(ABR_CHANGE_PROOF_LOST, "proof lost", 1)                           \
    X(ABR_CHANGE_SLOWER, "slower", 1)                                   \
    X(ABR_CHANGE_FIXED, "fixed", 0)          /* not ok -> ok */         \
    X(ABR_CHANGE_ARENA_SHRANK, "arena shrank", 0)                       \
    X(ABR_CHANGE_PROVEN, "newly proven", 0)                             \
    X(ABR_CHANGE_FASTER, "faster", 0)                                   \
    X(ABR_CHANGE_STATUS, "status changed", 2) /* one failure -> another */ \
    X(ABR_CHANGE_CONTRADICTION, "contradiction", 1) /* proved infeasible, yet packed */ \
    X(ABR_CHANGE_NEW, "new", 3)              /* only in head */         \
    X(ABR_CHANGE_GONE, "gone", 3)            /* only in base */

#define ABR_CHANGE_ENUM_(id, word, cls) id,
typedef enum abr_change { ABR_CHANGES(ABR_CHANGE_ENUM_) ABR_NCHANGES } abr_change;
#undef ABR_CHANGE_ENUM_

/* The word of a change ("arena grew"), or "?" when out of range. Static. */
const char *abr_change_word(abr_change c);
/* true for the changes that are regressions. */
bool abr_change_is_regression(abr_change c);

typedef struct abr_compare_opts {
    double slow_ratio; /* >= 1; ABR_SLOW_RATIO by default */
    double slow_min_s; /* >= 0 seconds; ABR_SLOW_MIN_S by default */
} abr_compare_opts;

/* Sets *o to the defaults. */
void abr_compare_opts_init(abr_compare_opts *o);

/* What a compare found. */
typedef struct abr_compare_summary {
    size_t matched;            /* pairs in both runs */
    size_t unchanged;          /* matched pairs without any change */
    size_t regressions;        /* change lines that are regressions */
    size_t improvements;       /* change lines that are improvements */
    size_t other;              /* status changed between two failures */
    size_t added, removed;     /* pairs only in head, only in base */
    size_t by_change[ABR_NCHANGES];
} abr_compare_summary;

/* Resolves the runs to compare, in place: *head = 0 means the latest run
 * (any tag); *base = 0 means the run before head with head's tag. AB_EINPUT
 * when the store has no run, when head has no earlier run of its tag, or
 * when a given id does not exist. */
ab_status abr_compare_resolve(abr_store *s, int64_t *base, int64_t *head, ab_error *err);

/* Compares run base with run head and appends the readable table to out;
 * fills *sum (zeroed by the call; may be NULL). opt NULL: the defaults.
 * AB_EINPUT for an unknown run or bad thresholds, AB_ENOMEM when memory runs
 * out, the store's status for a read failure. The command exits 1 when
 * sum->regressions > 0. */
ab_status abr_compare(abr_store *s, int64_t base, int64_t head, const abr_compare_opts *opt,
                      ab_buf *out, abr_compare_summary *sum, ab_error *err);

#endif
