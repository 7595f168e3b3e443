/*
 * nogood.h — a table of refuted search states, shared by the exact searches
 * over canonical solutions (canonical.c's N1, exact cover's order=canon).
 *
 * A STATE is a set of items (tensors, columns), each with a value (its floor)
 * and a capacity H; an entry records that the state has no completion at its
 * capacity. Both searches prove (in their files) that such a state with
 * floors at least as high at a capacity no higher has none either: so a
 * state is refuted on sight when an entry for the same items has values <=
 * its own, item by item, and a capacity >= its own. Lookups compare whole
 * keys, never a hash alone. The table keeps at most ABP_NG_WAYS entries per
 * set of items (an entry a new one dominates is overwritten in place) and is
 * emptied when it reaches its cap (`limit` bytes, 96 MiB by default: a third
 * for the slots, the rest for the keys): forgetting only costs nodes.
 *
 * The caller describes the state being looked up as a view: the items are
 * those whose stamp[id] equals serial, their values are val[id].
 */
#ifndef AB_NOGOOD_H
#define AB_NOGOOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ABP_NG_WAYS 16

#define ABP_NG_DEFAULT_LIMIT ((size_t)96 << 20)

typedef struct abp_ng {
    size_t limit;            /* the most bytes it holds (0: ABP_NG_DEFAULT_LIMIT) */
    uint64_t *slot;          /* per slot: its items' hash | 1, or 0 when empty */
    size_t *at;              /* per slot: where its entry starts in pool */
    size_t mask;             /* slots - 1 (0: nothing allocated yet) */
    size_t used;
    int64_t *pool;           /* entries: H, n, then n pairs (id, value) */
    size_t npool, pool_cap;
    int64_t hits, resets;    /* lookups that refuted; times it was emptied */
} abp_ng;

/* A state as the caller sees it: items with stamp[id] == serial, n of them,
 * values val[id]; h is abp_ng_hash of the ids. */
typedef struct abp_ng_view {
    const int64_t *val, *stamp;
    int64_t serial;
    size_t n;
    uint64_t h;
} abp_ng_view;

/* The hash of one item's id: sum them over the items, then abp_ng_hash_end. */
uint64_t abp_ng_item(uint64_t id);
uint64_t abp_ng_hash_end(uint64_t sum, size_t n);

/* Whether an entry refutes the state at capacity H (and counts a hit). */
bool abp_ng_refuted(abp_ng *T, const abp_ng_view *v, int64_t H);

/* Records that the state (ids[0 .. n) its items) has no completion at H;
 * out of memory it records nothing. */
void abp_ng_insert(abp_ng *T, const abp_ng_view *v, const int64_t *ids, int64_t H);

void abp_ng_free(abp_ng *T);

#endif
