/*
 * greedy.c — the one-tensor-at-a-time driver of first-fit and best-fit (see
 * greedy.h). The placed tensors a tensor meets are read from the free-space
 * index (space.h) as the union of their byte ranges, never one by one.
 */
#include "planners/greedy.h"

#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "planners/conflicts.h"
#include "planners/space.h"

__extension__ typedef __int128 i128;

ab_status abp_order_param(const ab_params *opt, abp_order *order, ab_error *err) {
    const char *v = ab_params_get(opt, "order");
    if (v == NULL || strcmp(v, "start") == 0) *order = ABP_ORDER_START;
    else if (strcmp(v, "size") == 0) *order = ABP_ORDER_SIZE;
    else if (strcmp(v, "area") == 0) *order = ABP_ORDER_AREA;
    else return ab_fail(err, AB_EINPUT, "parameter order: expected start, size or area, got '%s'", v);
    return AB_OK;
}

/* The placement orders: comparators of tensor indices for ab_sort, ctx the
 * problem; each a total order (ties by name, then index). */
static int cmp_name(const ab_problem *p, size_t a, size_t b) {
    int c = strcmp(p->t[a].name, p->t[b].name);
    if (c != 0) return c;
    return (a > b) - (a < b);
}

#define CMP_DESC(x, y) \
    do { if ((x) != (y)) return (x) > (y) ? -1 : 1; } while (0)
#define CMP_ASC(x, y) \
    do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

static int by_start(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &p->t[a], *y = &p->t[b];
    CMP_ASC(x->start, y->start);
    CMP_DESC(x->size, y->size);
    return cmp_name(p, a, b);
}

static int by_size(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &p->t[a], *y = &p->t[b];
    CMP_DESC(x->size, y->size);
    CMP_ASC(x->start, y->start);
    return cmp_name(p, a, b);
}

static int by_area(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &p->t[a], *y = &p->t[b];
    i128 ax = (i128)x->size * (x->end - x->start + 1);
    i128 ay = (i128)y->size * (y->end - y->start + 1);
    CMP_DESC(ax, ay);
    return by_size(pa, pb, ctx);
}

static int by_busy(const void *pa, const void *pb) {
    const abp_busy *a = pa, *b = pb;
    CMP_ASC(a->lo, b->lo);
    CMP_ASC(a->hi, b->hi);
    CMP_ASC(a->idx, b->idx);
    return 0;
}

/* The placement order: every tensor, sorted by the order's total order. */
static size_t *make_order(const ab_problem *p, abp_order order) {
    size_t *idx = ab_alloc_array(p->n ? p->n : 1, sizeof *idx);
    if (idx == NULL) return NULL;
    for (size_t i = 0; i < p->n; i++) idx[i] = i;
    ab_sort(idx, p->n, sizeof *idx,
            order == ABP_ORDER_START ? by_start : order == ABP_ORDER_SIZE ? by_size : by_area, p);
    return idx;
}

/* A fixed tensor's offset, checked: offset + size must fit in int64. */
static ab_status fixed_offset(const ab_problem *p, size_t i, int64_t *offset, ab_error *err) {
    int64_t hi;
    if (ab_add_ovf(p->t[i].offset, p->t[i].size, &hi))
        return ab_fail(err, AB_EINPUT, "'%s': fixed offset + size overflows 64 bits", p->t[i].name);
    *offset = p->t[i].offset;
    return AB_OK;
}

/* Orders size and area: places every free tensor in the order idx by the
 * rule, after the fixed ones, through the free-space index (space.h), which
 * reads the placed tensors a tensor meets as a few unions, one per level of
 * a tree over time, instead of gathering and sorting them one by one (a
 * short tensor beside thousands of long-lived ones cost thousands of
 * steps). Program order keeps its sweep below: there the placed tensors a
 * tensor meets are the live set, already kept sorted. */
static ab_status greedy_place(const ab_problem *p, const size_t *idx, abp_fit fit,
                              int64_t *offsets, ab_error *err) {
    abp_space *s = NULL;
    ab_status st = abp_space_new(p, &s, err);
    for (size_t i = 0; st == AB_OK && i < p->n; i++) {
        if (p->t[i].offset == AB_NONE) continue;
        st = fixed_offset(p, i, &offsets[i], err);
        if (st == AB_OK) st = abp_space_place(s, i, offsets[i], err);
    }
    for (size_t r = 0; st == AB_OK && r < p->n; r++) {
        size_t i = idx[r];
        if (p->t[i].offset != AB_NONE) continue;
        if (fit == ABP_FIT_BEST) st = abp_space_best_fit(s, i, &offsets[i], err);
        else if (!abp_space_first_fit(s, i, p->t[i].size, p->t[i].align, &offsets[i]))
            st = ab_fail(err, AB_EINPUT, "placing '%s': the arena overflows 64 bits", p->t[i].name);
        if (st == AB_OK) st = abp_space_place(s, i, offsets[i], err);
    }
    abp_space_free(s);
    return st;
}

typedef struct scratch {
    size_t *hits;
    size_t hits_cap;
    abp_busy *busy;
    size_t busy_cap;
} scratch;

/* ---- program order: a sweep over instructions ---------------------------------
 * In order=start the placed tensors that conflict with tensor i are exactly
 * those still live at i's start (every placed tensor started no later), plus
 * fixed tensors that start later inside i's range (fixed tensors are placed
 * first, whatever the order). The live ones are kept in an array sorted by
 * offset and a heap by end, so no per-tensor gathering or sorting is needed:
 * a tensor costs O(log n) for the heap plus the rule's walk over the live set. */

typedef struct live_set {
    const ab_problem *p;
    abp_busy *v;    /* sorted by (lo, hi, idx) */
    size_t n, cap;
    size_t *heap;   /* live tensors, a min-heap by (end, idx) */
    size_t hn;
} live_set;

static bool heap_less(const live_set *L, size_t a, size_t b) {
    const ab_tensor *x = &L->p->t[a], *y = &L->p->t[b];
    return x->end != y->end ? x->end < y->end : a < b;
}

static void heap_push(live_set *L, size_t i) {
    size_t k = L->hn++;
    while (k > 0 && heap_less(L, i, L->heap[(k - 1) / 2])) {
        L->heap[k] = L->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    L->heap[k] = i;
}

static size_t heap_pop(live_set *L) {
    size_t top = L->heap[0], last = L->heap[--L->hn], k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= L->hn) break;
        if (c + 1 < L->hn && heap_less(L, L->heap[c + 1], L->heap[c])) c++;
        if (!heap_less(L, L->heap[c], last)) break;
        L->heap[k] = L->heap[c];
        k = c;
    }
    if (L->hn > 0) L->heap[k] = last;
    return top;
}

/* The position of b in the sorted live array (where it is or would go). */
static size_t live_find(const live_set *L, const abp_busy *b) {
    size_t lo = 0, hi = L->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_busy(&L->v[mid], b) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static bool live_insert(live_set *L, abp_busy b) {
    if (!ab_grow((void **)&L->v, &L->cap, L->n + 1, sizeof *L->v)) return false;
    size_t at = live_find(L, &b);
    memmove(&L->v[at + 1], &L->v[at], (L->n - at) * sizeof *L->v);
    L->v[at] = b;
    L->n++;
    heap_push(L, b.idx);
    return true;
}

/* Drops the tensors that ended before instruction t. */
static void live_evict(live_set *L, const int64_t *offsets, int64_t t) {
    while (L->hn > 0 && L->p->t[L->heap[0]].end < t) {
        size_t i = heap_pop(L);
        abp_busy b = {offsets[i], offsets[i] + L->p->t[i].size, i};
        size_t at = live_find(L, &b);
        memmove(&L->v[at], &L->v[at + 1], (L->n - at - 1) * sizeof *L->v);
        L->n--;
    }
}

/* The busy ranges for tensor i: the live set, merged with the fixed tensors
 * not yet live that conflict with i (from the fixed-only index c). */
static ab_status busy_for(live_set *L, abp_conflicts *c, const bool *live, size_t i,
                          const int64_t *offsets, scratch *s, const abp_busy **busy, size_t *n,
                          ab_error *err) {
    *busy = L->v;
    *n = L->n;
    if (c == NULL) return AB_OK;
    size_t k, extra = 0;
    ab_status st = abp_conflicts_query(c, i, &s->hits, &s->hits_cap, &k, err);
    if (st != AB_OK) return st;
    if (!ab_grow((void **)&s->busy, &s->busy_cap, L->n + k + 1, sizeof *s->busy))
        return ab_fail(err, AB_ENOMEM, "out of memory placing a tensor");
    for (size_t j = 0; j < k; j++) {
        size_t h = s->hits[j];
        if (!live[h]) s->busy[extra++] = (abp_busy){offsets[h], offsets[h] + L->p->t[h].size, h};
    }
    if (extra == 0) return AB_OK;
    if (L->n > 0) memcpy(s->busy + extra, L->v, L->n * sizeof *L->v);
    qsort(s->busy, extra + L->n, sizeof *s->busy, by_busy);
    *busy = s->busy;
    *n = extra + L->n;
    return AB_OK;
}

static ab_status greedy_sweep(const ab_problem *p, const size_t *idx, abp_rule rule,
                              int64_t *offsets, ab_error *err) {
    live_set L = {.p = p};
    scratch s = {0};
    abp_conflicts *c = NULL;
    bool any_fixed = false;
    for (size_t i = 0; i < p->n; i++) any_fixed |= p->t[i].offset != AB_NONE;
    L.heap = ab_alloc_array(p->n + 1, sizeof *L.heap);
    bool *live = ab_calloc(p->n + 1, sizeof *live);
    ab_status st = L.heap && live ? AB_OK : ab_fail(err, AB_ENOMEM, "out of memory planning");
    if (st == AB_OK && any_fixed) st = abp_conflicts_new(p, &c, err);
    for (size_t i = 0; st == AB_OK && any_fixed && i < p->n; i++) {
        if (p->t[i].offset == AB_NONE) continue;
        st = fixed_offset(p, i, &offsets[i], err);
        if (st == AB_OK) st = abp_conflicts_place(c, i, err);
    }
    for (size_t r = 0; st == AB_OK && r < p->n; r++) {
        size_t i = idx[r];
        live_evict(&L, offsets, p->t[i].start);
        if (p->t[i].offset == AB_NONE) {
            const abp_busy *busy;
            size_t n;
            st = busy_for(&L, c, live, i, offsets, &s, &busy, &n, err);
            if (st != AB_OK) break;
            if (!rule(busy, n, p->t[i].size, p->t[i].align, &offsets[i])) {
                st = ab_fail(err, AB_EINPUT, "placing '%s': the arena overflows 64 bits",
                             p->t[i].name);
                break;
            }
        }
        live[i] = true;
        if (!live_insert(&L, (abp_busy){offsets[i], offsets[i] + p->t[i].size, i}))
            st = ab_fail(err, AB_ENOMEM, "out of memory placing '%s'", p->t[i].name);
    }
    abp_conflicts_free(c);
    ab_free(s.hits);
    ab_free(s.busy);
    ab_free(L.v);
    ab_free(L.heap);
    ab_free(live);
    return st;
}

ab_status abp_greedy(const ab_problem *p, abp_order order, abp_fit fit, int64_t *offsets,
                     ab_error *err) {
    size_t *idx = make_order(p, order);
    if (idx == NULL) return ab_fail(err, AB_ENOMEM, "out of memory ordering tensors");
    ab_status st = order == ABP_ORDER_START
                       ? greedy_sweep(p, idx, fit == ABP_FIT_FIRST ? abp_rule_first_fit
                                                                   : abp_rule_best_fit,
                                      offsets, err)
                       : greedy_place(p, idx, fit, offsets, err);
    ab_free(idx);
    return st;
}
