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
 * emptied when it reaches its cap: forgetting only costs nodes.
 *
 * MEMORY. The table never holds more than `limit` bytes (144 MiB by default),
 * not even while it grows: a third of it is the share of the slots (slot and
 * at), the rest the share of the keys (pool). Its first arrays (4096 slots
 * and 64 Ki pool words at most, 64 of each at least) must each fit their
 * share: under about 3 KiB (limit / 3 < 64 slots) it records nothing. It
 * grows an array by doubling it; as the old array is freed only once the new
 * one is filled, a growth is allowed only when old + new fit the share, and
 * one that would not is the cap: the table is emptied (slots zeroed, resets
 * counted) and goes on at its size. So an array that grew ends at 2/3 of its
 * share at most: at the default, 2 Mi slots (32 MiB) and 8 Mi pool words
 * (64 MiB), 96 MiB at rest and 144 MiB only while the last growth copies
 * (the default was 96 MiB while growth was not counted, and the table held
 * up to 112 MiB; a third less at rest doubled the nodes of bench_canonical
 * -c -C 986112 -w 40:101 on MiniMalloc's D, 5.6M to 10.9M). A growth whose
 * allocation fails is the cap too, for good (no_growth): the table keeps its
 * arrays, is emptied and never allocates again, so it goes on learning at
 * its size and no refuted node pays for a failing allocation. When its first
 * allocation fails it records nothing, for good as well.
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

#define ABP_NG_DEFAULT_LIMIT ((size_t)144 << 20)

typedef struct abp_ng {
    size_t limit;            /* the most bytes it holds (0: ABP_NG_DEFAULT_LIMIT) */
    uint64_t *slot;          /* per slot: its items' hash | 1, or 0 when empty */
    size_t *at;              /* per slot: where its entry starts in pool */
    size_t mask;             /* slots - 1 (0: nothing allocated yet) */
    size_t used;
    int64_t *pool;           /* entries: H, n, then n pairs (id, value) */
    size_t npool, pool_cap;
    int64_t hits, resets;    /* lookups that refuted; times it was emptied */
    bool no_growth;          /* an allocation failed: it allocates no more (see MEMORY) */
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
 * when it cannot (out of memory, a limit under the table's least, an entry
 * larger than the pool may be) it records nothing. */
void abp_ng_insert(abp_ng *T, const abp_ng_view *v, const int64_t *ids, int64_t H);

void abp_ng_free(abp_ng *T);

#endif
