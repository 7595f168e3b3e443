/*
 * greedy.c — the one-tensor-at-a-time driver of first-fit and best-fit (see
 * greedy.h). The placed tensors a tensor meets are never gathered one by
 * one: program order reads the gaps between the live ones (gaps.h), the
 * other orders the union of their byte ranges (space.h).
 */
#include "planners/greedy.h"

#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "planners/gaps.h"
#include "planners/space.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

abp_order abp_order_param(const ab_params *opt) {
    return (abp_order)ab_param_choice(opt, "order");
}

/* The placement orders, each a total order: start: by start, ties larger
 * first; size: larger first, ties by start; area: larger size x live length
 * first, then as size; remaining ties by name, then index. The keys are
 * read from the tensors in index order (in sequence, not at random), and
 * when they fit in 64 bits side by side a radix sort orders them packed
 * with their index (sort_packed); else they are gathered beside the index,
 * so the comparison sort compares them without reaching into the tensors
 * (a million tensors' worth of cache misses). */
typedef struct order_key {
    i128 a;       /* minus the area (area order), else 0 */
    int64_t k1, k2;
    size_t i;
} order_key;

#define CMP_ASC(x, y) \
    do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

static int by_key(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    const order_key *x = pa, *y = pb;
    CMP_ASC(x->a, y->a);
    CMP_ASC(x->k1, y->k1);
    CMP_ASC(x->k2, y->k2);
    int c = strcmp(p->t[x->i].name, p->t[y->i].name);
    if (c != 0) return c;
    CMP_ASC(x->i, y->i);
    return 0;
}

/* The number of bits of x (0 for 0). */
static unsigned bit_len(u128 x) {
    unsigned b = 0;
    while (x != 0) {
        b++;
        x >>= 1;
    }
    return b;
}

/* The order's keys of tensor i. */
static order_key key_of(const ab_problem *p, abp_order order, size_t i) {
    const ab_tensor *t = &p->t[i];
    if (order == ABP_ORDER_START) return (order_key){0, t->start, -t->size, i};
    return (order_key){order == ABP_ORDER_AREA ? -(i128)t->size * (t->end - t->start + 1) : 0,
                       -t->size, t->start, i};
}

/* Tensors whose (a, k1, k2) are equal: by name, then index (by_key's last
 * two comparisons). */
static int by_name(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    size_t x = *(const size_t *)pa, y = *(const size_t *)pb;
    int c = strcmp(p->t[x].name, p->t[y].name);
    if (c != 0) return c;
    CMP_ASC(x, y);
    return 0;
}

/* Writes to idx[0 .. n) the tensors in by_key's order when (a, k1, k2),
 * each taken from its least value, fit in 64 bits side by side (1): their
 * concatenation orders the keys as by_key's first three comparisons, so a
 * radix sort on it (least significant 11 bits first, passes over constant
 * digits skipped) and by_name over each run of equal packed keys give
 * by_key's one sorted sequence. The keys are computed from the tensors in
 * two passes (their ranges, then the packed keys) rather than kept: at a
 * million tensors an array of them is 48 MB of fresh pages to fault in and
 * copy. 0 (idx untouched) when they do not fit, -1 when out of memory. */
static int sort_packed(const ab_problem *p, abp_order order, size_t *idx) {
    size_t n = p->n;
    if (n < 2) return 0;
    order_key k0 = key_of(p, order, 0);
    i128 lo[3] = {k0.a, k0.k1, k0.k2}, hi[3] = {k0.a, k0.k1, k0.k2};
    for (size_t i = 1; i < n; i++) {
        order_key k = key_of(p, order, i);
        i128 c[3] = {k.a, k.k1, k.k2};
        for (int d = 0; d < 3; d++) {
            if (c[d] < lo[d]) lo[d] = c[d];
            if (c[d] > hi[d]) hi[d] = c[d];
        }
    }
    unsigned bits[3], total = 0;
    for (int d = 0; d < 3; d++) total += bits[d] = bit_len((u128)(hi[d] - lo[d]));
    if (total > 64) return 0;
    ab_keyed *v = ab_alloc_array(n, sizeof *v), *tmp = ab_alloc_array(n, sizeof *tmp);
    if (v == NULL || tmp == NULL) {
        ab_free(v);
        ab_free(tmp);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        order_key k = key_of(p, order, i);
        i128 c[3] = {k.a, k.k1, k.k2};
        uint64_t x = 0;
        for (int d = 0; d < 3; d++) /* a 64-bit part is alone: x is still 0 */
            if (bits[d] > 0) x = (bits[d] < 64 ? x << bits[d] : 0) | (uint64_t)(c[d] - lo[d]);
        v[i] = (ab_keyed){x, i};
    }
    ab_radix_sort(v, tmp, n);
    for (size_t i = 0; i < n; i++) idx[i] = v[i].at;
    for (size_t i = 0, j; i < n; i = j) { /* equal packed keys: by name, then index */
        for (j = i + 1; j < n && v[j].key == v[i].key; j++) {}
        if (j - i > 1) ab_sort(&idx[i], j - i, sizeof *idx, by_name, p);
    }
    ab_free(v);
    ab_free(tmp);
    return 1;
}

/* The placement order: every tensor, sorted by the order's total order. */
static size_t *make_order(const ab_problem *p, abp_order order) {
    size_t *idx = ab_alloc_array(p->n ? p->n : 1, sizeof *idx);
    if (idx == NULL) return NULL;
    int sorted = sort_packed(p, order, idx);
    if (sorted < 0) {
        ab_free(idx);
        return NULL;
    }
    if (sorted == 0) {
        order_key *key = ab_alloc_array(p->n ? p->n : 1, sizeof *key);
        if (key == NULL) {
            ab_free(idx);
            return NULL;
        }
        for (size_t i = 0; i < p->n; i++) key[i] = key_of(p, order, i);
        ab_sort(key, p->n, sizeof *key, by_key, p);
        for (size_t i = 0; i < p->n; i++) idx[i] = key[i].i;
        ab_free(key);
    }
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

/* A tensor as greedy_place reads it, copied out in placement order: its
 * size, align, and fixed offset (AB_NONE when free), then its offset. */
typedef struct placing {
    int64_t size, align, fixed, offset;
} placing;

/* Orders size and area, and program order with fixed offsets: places every
 * free tensor in the order idx by the rule, after the fixed ones, through
 * the free-space index (space.h), which reads the placed tensors a tensor
 * meets as a few unions, one or two per level of a tree over time, instead
 * of gathering and sorting them one by one (a short tensor beside thousands
 * of long-lived ones cost thousands of steps). */
static ab_status greedy_place(const ab_problem *p, const size_t *idx, abp_fit fit,
                              int64_t *offsets, ab_error *err) {
    ab_status st = AB_OK;
    for (size_t i = 0; st == AB_OK && i < p->n; i++)
        if (p->t[i].offset != AB_NONE) st = fixed_offset(p, i, &offsets[i], err);
    if (st != AB_OK) return st;
    /* the index names tensors by rank in idx, and the tensors are copied out
     * in that order: the loops below read both in sequence instead of
     * reaching into a random tensor each time (a cache miss each at a
     * million tensors; the copying loop's misses overlap) */
    abp_space *s = NULL;
    placing *w = ab_alloc_array(p->n ? p->n : 1, sizeof *w);
    st = w ? abp_space_new_ordered(p, idx, &s, err)
           : ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
    for (size_t r = 0; st == AB_OK && r < p->n; r++) {
        const ab_tensor *t = &p->t[idx[r]];
        w[r] = (placing){t->size, t->align, t->offset, t->offset};
    }
    /* the fixed tensors first (a union is the same in any order of
     * insertion), then the others in the order */
    for (size_t r = 0; st == AB_OK && r < p->n; r++)
        if (w[r].fixed != AB_NONE)
            st = abp_space_place(s, r, w[r].fixed, w[r].fixed + w[r].size, err);
    for (size_t r = 0; st == AB_OK && r < p->n; r++) {
        placing *t = &w[r];
        /* the tree is far bigger than the cache at a million tensors and
         * each tensor lands at random in it: the next ones' paths are
         * loaded while this one is placed (space.h) */
        if (r + 4 < p->n) abp_space_prefetch(s, r + 4, 1);
        if (r + 2 < p->n) abp_space_prefetch(s, r + 2, 2);
        if (t->fixed != AB_NONE) continue;
        if (fit == ABP_FIT_BEST)
            st = abp_space_rule(s, r, abp_rule_best_fit, t->size, t->align, &t->offset, err);
        else if (!abp_space_first_fit(s, r, t->size, t->align, &t->offset))
            st = ab_fail(err, AB_EINPUT, "placing '%s': the arena overflows 64 bits",
                         p->t[idx[r]].name);
        if (st == AB_OK) st = abp_space_place(s, r, t->offset, t->offset + t->size, err);
    }
    for (size_t r = 0; st == AB_OK && r < p->n; r++)
        if (w[r].fixed == AB_NONE) offsets[idx[r]] = w[r].offset;
    abp_space_free(s);
    ab_free(w);
    return st;
}

/* ---- program order: a sweep over instructions ---------------------------------
 * In order=start with no fixed offsets the placed tensors that conflict with
 * tensor i are exactly those still live at i's start: every placed tensor
 * started no later. They never overlap (each was placed clear of the live
 * ones), so the rules need only the gaps between them, which gaps.h keeps
 * indexed: a tensor costs O(log n) expected, not a walk over the live set.
 * A tensor leaves the set (a heap by end) before the first tensor that
 * starts after its end is placed. With fixed offsets, which may overlap each
 * other and conflict with tensors placed before they start, program order
 * takes the free-space index like the other orders. */

/* The placed tensors by end: a min-heap of (end, tensor), ties by tensor. */
typedef struct ending {
    int64_t end;
    size_t i;
} ending;

static bool ends_before(ending a, ending b) {
    return a.end != b.end ? a.end < b.end : a.i < b.i;
}

static void ends_push(ending *h, size_t *n, ending e) {
    size_t k = (*n)++;
    while (k > 0 && ends_before(e, h[(k - 1) / 2])) {
        h[k] = h[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    h[k] = e;
}

static void ends_pop(ending *h, size_t *n) {
    ending last = h[--*n];
    size_t k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= *n) break;
        if (c + 1 < *n && ends_before(h[c + 1], h[c])) c++;
        if (!ends_before(h[c], last)) break;
        h[k] = h[c];
        k = c;
    }
    if (*n > 0) h[k] = last;
}

/* A tensor of the sweep, copied out in placement order: the sweep then
 * reads the tensors in sequence instead of one at random each time (a cache
 * miss each at a million tensors; the copying loop's misses overlap). The
 * sweep's ranges are named by rank, and offset holds the result until it is
 * written out. */
typedef struct swept {
    int64_t start, end, size, align, offset;
} swept;

static ab_status greedy_sweep(const ab_problem *p, const size_t *idx, abp_fit fit,
                              int64_t *offsets, ab_error *err) {
    abp_gaps *g = abp_gaps_new(p->n);
    ending *ends = ab_alloc_array(p->n ? p->n : 1, sizeof *ends);
    swept *w = ab_alloc_array(p->n ? p->n : 1, sizeof *w);
    size_t nends = 0;
    ab_status st = AB_OK;
    if (g == NULL || ends == NULL || w == NULL) {
        st = ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
        goto done;
    }
    for (size_t r = 0; r < p->n; r++) {
        const ab_tensor *t = &p->t[idx[r]];
        w[r] = (swept){t->start, t->end, t->size, t->align, 0};
    }
    for (size_t r = 0; r < p->n; r++) {
        swept *t = &w[r];
        while (nends > 0 && ends[0].end < t->start) {
            abp_gaps_remove(g, ends[0].i);
            ends_pop(ends, &nends);
        }
        bool ok = fit == ABP_FIT_FIRST ? abp_gaps_first_fit(g, t->size, t->align, &t->offset)
                                       : abp_gaps_best_fit(g, t->size, t->align, &t->offset);
        if (!ok) {
            st = ab_fail(err, AB_EINPUT, "placing '%s': the arena overflows 64 bits",
                         p->t[idx[r]].name);
            break;
        }
        abp_gaps_add(g, r, t->offset, t->offset + t->size);
        ends_push(ends, &nends, (ending){t->end, r});
    }
    for (size_t r = 0; st == AB_OK && r < p->n; r++) offsets[idx[r]] = w[r].offset;
done:
    abp_gaps_free(g);
    ab_free(ends);
    ab_free(w);
    return st;
}

ab_status abp_greedy(const ab_problem *p, abp_order order, abp_fit fit, int64_t *offsets,
                     ab_error *err) {
    size_t *idx = make_order(p, order);
    if (idx == NULL) return ab_fail(err, AB_ENOMEM, "out of memory ordering tensors");
    bool any_fixed = false;
    for (size_t i = 0; i < p->n; i++) any_fixed |= p->t[i].offset != AB_NONE;
    ab_status st = order == ABP_ORDER_START && !any_fixed && p->n < UINT32_MAX - 1
                       ? greedy_sweep(p, idx, fit, offsets, err)
                       : greedy_place(p, idx, fit, offsets, err);
    ab_free(idx);
    return st;
}
