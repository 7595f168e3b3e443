/*
 * greedy.c — the one-tensor-at-a-time driver of first-fit and best-fit (see
 * greedy.h). Conflicting placed tensors come from the conflict index, so a
 * tensor costs O(log n + k log k) for k conflicts, not a scan of all placed.
 */
#include "greedy.h"

#include <stdlib.h>
#include <string.h>

#include "conflicts.h"

__extension__ typedef __int128 i128;

ab_status abp_order_param(const ab_params *opt, abp_order *order, ab_error *err) {
    const char *v = ab_params_get(opt, "order");
    if (v == NULL || strcmp(v, "start") == 0) *order = ABP_ORDER_START;
    else if (strcmp(v, "size") == 0) *order = ABP_ORDER_SIZE;
    else if (strcmp(v, "area") == 0) *order = ABP_ORDER_AREA;
    else return ab_fail(err, AB_EINPUT, "parameter order: expected start, size or area, got '%s'", v);
    return AB_OK;
}

/* qsort has no context argument: the comparators read these. Planning is
 * single-threaded per process (the runner isolates jobs in processes). */
static const ab_problem *sort_p;

static int cmp_name(size_t a, size_t b) {
    int c = strcmp(sort_p->t[a].name, sort_p->t[b].name);
    if (c != 0) return c;
    return (a > b) - (a < b);
}

#define CMP_DESC(x, y) \
    do { if ((x) != (y)) return (x) > (y) ? -1 : 1; } while (0)
#define CMP_ASC(x, y) \
    do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

static int by_start(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &sort_p->t[a], *y = &sort_p->t[b];
    CMP_ASC(x->start, y->start);
    CMP_DESC(x->size, y->size);
    return cmp_name(a, b);
}

static int by_size(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &sort_p->t[a], *y = &sort_p->t[b];
    CMP_DESC(x->size, y->size);
    CMP_ASC(x->start, y->start);
    return cmp_name(a, b);
}

static int by_area(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &sort_p->t[a], *y = &sort_p->t[b];
    i128 ax = (i128)x->size * (x->end - x->start + 1);
    i128 ay = (i128)y->size * (y->end - y->start + 1);
    CMP_DESC(ax, ay);
    return by_size(pa, pb);
}

static int by_busy(const void *pa, const void *pb) {
    const abp_busy *a = pa, *b = pb;
    CMP_ASC(a->lo, b->lo);
    CMP_ASC(a->hi, b->hi);
    return 0;
}

/* The placement order: every tensor, sorted by the order's total order. */
static size_t *make_order(const ab_problem *p, abp_order order) {
    size_t *idx = ab_alloc_array(p->n ? p->n : 1, sizeof *idx);
    if (idx == NULL) return NULL;
    for (size_t i = 0; i < p->n; i++) idx[i] = i;
    sort_p = p;
    qsort(idx, p->n, sizeof *idx,
          order == ABP_ORDER_START ? by_start : order == ABP_ORDER_SIZE ? by_size : by_area);
    return idx;
}

typedef struct scratch {
    size_t *hits;
    size_t hits_cap;
    abp_busy *busy;
    size_t busy_cap;
} scratch;

/* Places tensor i by the rule among its placed conflicts. */
static ab_status place_one(const ab_problem *p, abp_conflicts *c, size_t i, abp_rule rule,
                           int64_t *offsets, scratch *s, ab_error *err) {
    size_t k;
    ab_status st = abp_conflicts_query(c, i, &s->hits, &s->hits_cap, &k, err);
    if (st != AB_OK) return st;
    if (!ab_grow((void **)&s->busy, &s->busy_cap, k + 1, sizeof *s->busy))
        return ab_fail(err, AB_ENOMEM, "out of memory placing '%s'", p->t[i].name);
    for (size_t j = 0; j < k; j++) {
        size_t h = s->hits[j];
        s->busy[j] = (abp_busy){offsets[h], offsets[h] + p->t[h].size};
    }
    qsort(s->busy, k, sizeof *s->busy, by_busy);
    int64_t off;
    if (!rule(s->busy, k, p->t[i].size, p->t[i].align, &off))
        return ab_fail(err, AB_EINPUT, "placing '%s': the arena overflows 64 bits", p->t[i].name);
    offsets[i] = off;
    return abp_conflicts_place(c, i, err);
}

/* Places the tensors with fixed offsets where they must go. */
static ab_status place_fixed(const ab_problem *p, abp_conflicts *c, int64_t *offsets,
                             ab_error *err) {
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset == AB_NONE) continue;
        int64_t hi;
        if (ab_add_ovf(p->t[i].offset, p->t[i].size, &hi))
            return ab_fail(err, AB_EINPUT, "'%s': fixed offset + size overflows 64 bits",
                           p->t[i].name);
        offsets[i] = p->t[i].offset;
        ab_status st = abp_conflicts_place(c, i, err);
        if (st != AB_OK) return st;
    }
    return AB_OK;
}

ab_status abp_greedy(const ab_problem *p, abp_order order, abp_rule rule, int64_t *offsets,
                     ab_error *err) {
    abp_conflicts *c = NULL;
    scratch s = {0};
    size_t *idx = make_order(p, order);
    if (idx == NULL) return ab_fail(err, AB_ENOMEM, "out of memory ordering tensors");
    ab_status st = abp_conflicts_new(p, &c, err);
    if (st == AB_OK) st = place_fixed(p, c, offsets, err);
    for (size_t r = 0; st == AB_OK && r < p->n; r++)
        if (p->t[idx[r]].offset == AB_NONE) st = place_one(p, c, idx[r], rule, offsets, &s, err);
    abp_conflicts_free(c);
    ab_free(s.hits);
    ab_free(s.busy);
    ab_free(idx);
    return st;
}
