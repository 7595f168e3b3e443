/*
 * nogood.c — the table of refuted search states (nogood.h).
 */
#include "planners/nogood.h"

#include <string.h>

#include "core/ab.h"


uint64_t abp_ng_item(uint64_t id) { /* splitmix64's finaliser */
    uint64_t z = id * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t abp_ng_hash_end(uint64_t sum, size_t n) { return (sum ^ abp_ng_item(n + ((uint64_t)1 << 40))) | 1; }

/* -1 when entry e is not for the view's items; else bit 0: its values are
 * <= the view's, item by item; bit 1: >= them. */
static int relate(const int64_t *e, const abp_ng_view *v) {
    if ((size_t)e[1] != v->n) return -1;
    int r = 3;
    for (size_t k = 0; k < v->n; k++) {
        int64_t id = e[2 + 2 * k], w = e[3 + 2 * k];
        if (v->stamp[id] != v->serial) return -1;
        if (w > v->val[id]) r &= ~1;
        if (w < v->val[id]) r &= ~2;
    }
    return r;
}

bool abp_ng_refuted(abp_ng *T, const abp_ng_view *v, int64_t H) {
    if (T->mask == 0) return false;
    for (size_t i = v->h & T->mask; T->slot[i] != 0; i = (i + 1) & T->mask) {
        if (T->slot[i] != v->h) continue;
        const int64_t *e = T->pool + T->at[i];
        int r = e[0] >= H ? relate(e, v) : -1;
        if (r >= 0 && (r & 1)) return T->hits++, true;
    }
    return false;
}

/* The largest power of two n with n * unit <= bytes (1 at least). */
static size_t pow2_within(size_t bytes, size_t unit) {
    size_t n = 1;
    while (n * 2 <= bytes / unit) n *= 2;
    return n;
}

/* Whether growing an array of `old` units to `now` keeps old + new within
 * `share` bytes (old is freed only once the new one is filled). */
static bool fits(size_t old, size_t now, size_t unit, size_t share) {
    return now == old || old + now <= share / unit;
}

/* Moves the pool to `cap` words (keeping its entries); false when the
 * allocation fails (the table is then as it was). */
static bool move_pool(abp_ng *T, size_t cap) {
    int64_t *pool = ab_alloc_array(cap, sizeof *pool);
    if (pool == NULL) return false;
    if (T->npool) memcpy(pool, T->pool, T->npool * sizeof *pool);
    ab_free(T->pool);
    T->pool = pool, T->pool_cap = cap;
    return true;
}

/* Moves the entries to `slots` slots; false when an allocation fails (the
 * table is then as it was). */
static bool move_slots(abp_ng *T, size_t slots) {
    uint64_t *slot = ab_calloc(slots, sizeof *slot);
    size_t *at = slot ? ab_alloc_array(slots, sizeof *at) : NULL;
    if (slot == NULL || at == NULL) return ab_free(slot), ab_free(at), false;
    for (size_t i = 0; T->mask && i <= T->mask; i++) {
        if (T->slot[i] == 0) continue;
        size_t q = T->slot[i] & (slots - 1);
        while (slot[q] != 0) q = (q + 1) & (slots - 1);
        slot[q] = T->slot[i], at[q] = T->at[i];
    }
    ab_free(T->slot), ab_free(T->at);
    T->slot = slot, T->at = at, T->mask = slots - 1;
    return true;
}

/* Makes room for an entry of `words` (nogood.h's rule): the first arrays,
 * or a growth, or at the cap (or once an allocation has failed) the table
 * emptied; false when the entry cannot be recorded. */
static bool room(abp_ng *T, size_t words) {
    if (T->mask != 0 && 4 * (T->used + 1) <= 3 * (T->mask + 1) && T->npool + words <= T->pool_cap)
        return true;
    if (T->no_growth && T->mask == 0) return false;
    size_t limit = T->limit ? T->limit : ABP_NG_DEFAULT_LIMIT;
    size_t slot_share = limit / 3, pool_share = limit - limit / 3;
    size_t unit_slot = sizeof *T->slot + sizeof *T->at, unit_pool = sizeof *T->pool;
    if (words > pool_share / unit_pool) return false;
    if (T->mask == 0) { /* the first arrays: each within its share */
        if (64 * unit_slot > slot_share || 64 * unit_pool > pool_share) return false;
        size_t slots = pow2_within(slot_share, unit_slot), cap = pow2_within(pool_share, unit_pool);
        if (slots > 4096) slots = 4096;
        if (cap > 65536) cap = 65536;
        while (cap < words && 2 * cap <= pool_share / unit_pool) cap *= 2;
        if (cap < words) return false;
        if (!move_pool(T, cap)) return T->no_growth = true, false;
        if (!move_slots(T, slots)) {
            ab_free(T->pool), T->pool = NULL, T->pool_cap = 0;
            return T->no_growth = true, false;
        }
        return true;
    }
    size_t slots = T->mask + 1, cap = T->pool_cap;
    if (4 * (T->used + 1) > 3 * slots) slots *= 2;
    while (T->npool + words > cap) cap *= 2;
    bool grow = !T->no_growth && fits(T->mask + 1, slots, unit_slot, slot_share) &&
                fits(T->pool_cap, cap, unit_pool, pool_share);
    if (grow && cap != T->pool_cap && !move_pool(T, cap)) grow = false, T->no_growth = true;
    if (grow && slots != T->mask + 1 && !move_slots(T, slots)) grow = false, T->no_growth = true;
    if (grow) return true;
    /* at the cap: start again at this size (with a pool that holds the entry) */
    for (cap = T->pool_cap; cap < words; cap *= 2) {}
    if (cap != T->pool_cap && (T->no_growth || !fits(T->pool_cap, cap, unit_pool, pool_share)))
        return false; /* it never will */
    memset(T->slot, 0, (T->mask + 1) * sizeof *T->slot);
    T->used = 0, T->npool = 0, T->resets++;
    if (cap != T->pool_cap && !move_pool(T, cap)) return T->no_growth = true, false;
    return true;
}

/* Overwrites entry e (for the view's items) with the view's values at H. */
static void overwrite(int64_t *e, const abp_ng_view *v, int64_t H) {
    e[0] = H;
    for (size_t k = 0; k < v->n; k++) e[3 + 2 * k] = v->val[e[2 + 2 * k]];
}

void abp_ng_insert(abp_ng *T, const abp_ng_view *v, const int64_t *ids, int64_t H) {
    int64_t *last = NULL;
    size_t ways = 0;
    for (size_t i = v->h & T->mask; T->mask && T->slot[i] != 0; i = (i + 1) & T->mask) {
        if (T->slot[i] != v->h) continue;
        int64_t *e = T->pool + T->at[i];
        int r = relate(e, v);
        if (r < 0) continue;
        if ((r & 1) && e[0] >= H) return;              /* known already */
        if ((r & 2) && e[0] <= H) { /* the new one is stronger */
            overwrite(e, v, H);
            return;
        }
        last = e, ways++;
    }
    if (ways >= ABP_NG_WAYS) { /* too many: the last met gives way */
        overwrite(last, v, H);
        return;
    }
    if (!room(T, 2 + 2 * v->n)) return;
    size_t at = T->npool;
    T->pool[T->npool++] = H;
    T->pool[T->npool++] = (int64_t)v->n;
    for (size_t k = 0; k < v->n; k++) {
        T->pool[T->npool++] = ids[k];
        T->pool[T->npool++] = v->val[ids[k]];
    }
    size_t i = v->h & T->mask;
    while (T->slot[i] != 0) i = (i + 1) & T->mask;
    T->slot[i] = v->h, T->at[i] = at, T->used++;
}

void abp_ng_free(abp_ng *T) {
    ab_free(T->slot), ab_free(T->at), ab_free(T->pool);
    memset(T, 0, sizeof *T);
}
