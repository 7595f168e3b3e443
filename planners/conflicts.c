/*
 * conflicts.c — the placed-tensor index of the heuristic planners (see
 * conflicts.h for the method and why it reports each conflict once).
 */
#include "planners/conflicts.h"

#include <stdlib.h>
#include <string.h>

typedef struct list {
    size_t n, cap;
    size_t *v;
} list;

struct abp_conflicts {
    const ab_problem *p;
    size_t m;          /* distinct start instructions */
    size_t size;       /* leaves of the trees: a power of two >= m */
    size_t *cs, *ce;   /* compressed range of each tensor */
    list *stab;        /* 2 * size nodes: tensors whose range covers the node */
    size_t *count;     /* 2 * size nodes: placed tensors whose start is under the node */
    list *by_start;    /* size leaves: placed tensors starting at that rank */
};

/* The rank of the last start <= v in the sorted distinct starts s[0..m). */
static size_t rank_le(const int64_t *s, size_t m, int64_t v) {
    size_t lo = 0, hi = m; /* answer in [lo, hi) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] <= v) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* Compresses the live ranges of p into c->cs and c->ce. */
static bool compress(abp_conflicts *c) {
    const ab_problem *p = c->p;
    int64_t *s = ab_alloc_array(p->n ? p->n : 1, sizeof *s);
    if (s == NULL) return false;
    for (size_t i = 0; i < p->n; i++) s[i] = p->t[i].start;
    qsort(s, p->n, sizeof *s, ab_cmp_i64);
    size_t m = 0;
    for (size_t i = 0; i < p->n; i++)
        if (m == 0 || s[m - 1] != s[i]) s[m++] = s[i];
    c->m = m;
    for (size_t i = 0; i < p->n; i++) {
        c->cs[i] = rank_le(s, m, p->t[i].start);
        c->ce[i] = rank_le(s, m, p->t[i].end);
    }
    ab_free(s);
    return true;
}

ab_status abp_conflicts_new(const ab_problem *p, abp_conflicts **out, ab_error *err) {
    *out = NULL;
    abp_conflicts *c = ab_calloc(1, sizeof *c);
    if (c == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the conflict index");
    c->p = p;
    size_t n = p->n ? p->n : 1;
    c->cs = ab_alloc_array(n, sizeof *c->cs);
    c->ce = ab_alloc_array(n, sizeof *c->ce);
    if (c->cs == NULL || c->ce == NULL || !compress(c)) goto oom;
    c->size = 1;
    while (c->size < c->m) c->size *= 2;
    c->stab = ab_calloc(2 * c->size, sizeof *c->stab);
    c->count = ab_calloc(2 * c->size, sizeof *c->count);
    c->by_start = ab_calloc(c->size, sizeof *c->by_start);
    if (c->stab == NULL || c->count == NULL || c->by_start == NULL) goto oom;
    *out = c;
    return AB_OK;
oom:
    abp_conflicts_free(c);
    return ab_fail(err, AB_ENOMEM, "out of memory building the conflict index");
}

void abp_conflicts_free(abp_conflicts *c) {
    if (c == NULL) return;
    if (c->stab)
        for (size_t i = 0; i < 2 * c->size; i++) ab_free(c->stab[i].v);
    if (c->by_start)
        for (size_t i = 0; i < c->size; i++) ab_free(c->by_start[i].v);
    ab_free(c->stab);
    ab_free(c->count);
    ab_free(c->by_start);
    ab_free(c->cs);
    ab_free(c->ce);
    ab_free(c);
}

static bool list_push(list *l, size_t v) {
    if (!ab_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) return false;
    l->v[l->n++] = v;
    return true;
}

/* Stores tensor i in the canonical nodes covering [lo, hi] (leaf ranks). */
static bool stab_insert(abp_conflicts *c, size_t i, size_t lo, size_t hi) {
    size_t l = lo + c->size, r = hi + c->size + 1; /* half-open, bottom-up */
    while (l < r) {
        if (l & 1) {
            if (!list_push(&c->stab[l++], i)) return false;
        }
        if (r & 1) {
            if (!list_push(&c->stab[--r], i)) return false;
        }
        l /= 2;
        r /= 2;
    }
    return true;
}

ab_status abp_conflicts_place(abp_conflicts *c, size_t i, ab_error *err) {
    if (!stab_insert(c, i, c->cs[i], c->ce[i]) || !list_push(&c->by_start[c->cs[i]], i))
        return ab_fail(err, AB_ENOMEM, "out of memory placing a tensor");
    for (size_t node = c->cs[i] + c->size; node >= 1; node /= 2) c->count[node]++;
    return AB_OK;
}

typedef struct sink {
    size_t **out, *cap, *n;
} sink;

static bool sink_add(sink *s, const size_t *v, size_t k) {
    if (k == 0) return true;
    if (!ab_grow((void **)s->out, s->cap, *s->n + k, sizeof **s->out)) return false;
    memcpy(*s->out + *s->n, v, k * sizeof *v);
    *s->n += k;
    return true;
}

/* Reports the placed tensors starting at ranks [lo, hi] under node, which
 * covers leaf ranks [nlo, nhi]. */
static bool range_report(const abp_conflicts *c, size_t node, size_t nlo, size_t nhi, size_t lo,
                         size_t hi, sink *s) {
    if (c->count[node] == 0 || hi < nlo || nhi < lo) return true;
    if (node >= c->size) {
        const list *l = &c->by_start[node - c->size];
        return sink_add(s, l->v, l->n);
    }
    size_t mid = nlo + (nhi - nlo) / 2;
    return range_report(c, 2 * node, nlo, mid, lo, hi, s) &&
           range_report(c, 2 * node + 1, mid + 1, nhi, lo, hi, s);
}

ab_status abp_conflicts_query(const abp_conflicts *c, size_t i, size_t **out, size_t *cap,
                              size_t *n, ab_error *err) {
    sink s = {out, cap, n};
    *n = 0;
    for (size_t node = c->cs[i] + c->size; node >= 1; node /= 2) /* case (a) */
        if (!sink_add(&s, c->stab[node].v, c->stab[node].n)) goto oom;
    if (c->cs[i] < c->ce[i] && /* case (b) */
        !range_report(c, 1, 0, c->size - 1, c->cs[i] + 1, c->ce[i], &s))
        goto oom;
    return AB_OK;
oom:
    return ab_fail(err, AB_ENOMEM, "out of memory querying conflicts");
}
