/*
 * space.c — the free space left by placed tensors (see space.h).
 *
 * THE STRUCTURE. Time is compressed to the distinct start instructions:
 * two inclusive live ranges intersect iff both contain the later start, so
 * a tensor maps to the leaves [rank of its start, rank of the last start <=
 * its end] and two tensors conflict iff their leaf ranges meet (the ranks
 * come from one radix sort of every start and end, starts first at equal
 * times). A segment tree over the leaves keeps at every node v two sets of
 * byte ranges, each stored as its union (sorted, pairwise disjoint and not
 * touching intervals; tensors are never removed, so a union is all a set
 * needs to remember):
 *
 *   COVER(v): the byte ranges of the placed tensors for which v is one of
 *             the canonical nodes of their leaf range (v's leaves lie in the
 *             range, its parent's do not);
 *   SUB(v):   those of the placed tensors with a canonical node in v's
 *             subtree, v included.
 *
 * A tensor is placed by adding its byte range to COVER and SUB of its
 * canonical nodes and to SUB of their strict ancestors (O(log T) nodes,
 * each an insertion into a union). SUB(parent) holds SUB(child), so the
 * ancestors are walked bottom-up and the walk stops at the first SUB that
 * already holds the range: every SUB above holds it too, and adding a range
 * to a union that holds it changes nothing.
 *
 * EXACT. For the next tensor i, let Q be the canonical nodes of its leaf
 * range and A their strict ancestors. The placed tensors conflicting with i
 * are exactly those in SUB(q) for q in Q or in COVER(a) for a in A. Proof: j
 * conflicts with i iff some leaf t lies in both ranges; t lies under exactly
 * one q in Q and under exactly one canonical node c of j, and q and c are
 * both ancestors of t, so one is below the other: c in q's subtree puts j in
 * SUB(q), c strictly above q puts j in COVER(c) with c in A. Conversely every
 * tensor in SUB(q) has a leaf under q, which is in i's range, and every one
 * in COVER(a) covers all of a's leaves, some of which are i's. So the union
 * of those O(log T) sets is the projection the rules need (space.h), and
 * storing each set as a union loses nothing the union keeps.
 *
 * THE QUERIES. First-fit: from candidate 0, any set with an interval
 * meeting [cand, cand + size) pushes cand to that interval's end, aligned up
 * (no aligned offset in between can miss it); it stops when every set is
 * clear of the window, which is then the lowest aligned free window, the
 * rule's answer (first_fit.c). Each set keeps a cursor that only moves up,
 * so a step costs a galloping search in one set; the steps are at most the
 * intervals below the answer. The cursor's interval is copied beside it, so
 * checking a set that is clear of the window reads no set. Best-fit (and
 * any rule that reads only the gaps of the busy ranges, as the TFLite GPU
 * delegate's): the rule itself (best_fit.c) runs on the intervals of the
 * gathered unions, merged into one list sorted by lo: its gaps are the
 * maximal free intervals of the union, the same whether the union is given
 * tensor by tensor or interval by interval, and a union has no more
 * intervals than the tensors in it (side by side tensors are one). The
 * top (USMP's greedy planners) is the highest end over the gathered unions.
 *
 * MEMORY. At a million tensors the tree (a million nodes) and the sets are
 * far bigger than the cache and each tensor lands at random in them, so
 * the time goes to cache misses, not to steps. A node's two sets lie side
 * by side (one line); a set of one interval, the common case near the
 * leaves, keeps it inline; longer sets take blocks of 2^c intervals from
 * pooled chunks (no malloc or free per set); a caller may name tensors by
 * placement rank (abp_space_new_ordered) so the per-tensor data is read in
 * sequence, and ask for the next tensors' paths and sets ahead
 * (abp_space_prefetch).
 *
 * COST, measured (bench/README.md, 1M tensors of bench_plan, 2 vCPUs):
 * first-fit by size 1.7 s (3.8 s before this memory work, 93.8 s when it
 * gathered every conflict). Best-fit still reads every interval of the
 * projection, fewer than the conflicts but as many as its gaps, so it stays
 * linear in the live set (about 15 s by size). Tried and measured slower,
 * so not kept: (1) visiting only the union's gaps that hold the tensor,
 * lowest first, each found by first-fit's stepping from the end of the
 * previous one and stopping at an exact fit: at 100k tensors by size a
 * query meets about 185 intervals of which about 50 are fitting gaps, and
 * each costs a pass over the ~16 sets (1M by size: 57.8 s against 17.2 s);
 * (2) streaming the intervals through a heap of the sets into the rule,
 * stopping at an exact fit (+40% at 300k); (3) merging the two shortest
 * unions first (Huffman's order), branchy or branch-free: no faster.
 */
#include "planners/space.h"

#include "core/sort.h"

#include <stdlib.h>
#include <string.h>

/* A union of byte ranges: v[2k], v[2k + 1] are the k-th interval [lo, hi),
 * sorted, disjoint and not touching (hi of one < lo of the next). Most sets
 * near the leaves hold one interval: it lives in the set itself (v == one),
 * so neither an allocation nor a second cache miss is spent on it. */
typedef struct ivset {
    int64_t *v;
    uint32_t n, cap;
    int64_t one[2];
} ivset;

/* The sets' arrays beyond one interval: blocks of 2^c intervals cut from
 * big chunks, a block outgrown kept on a free list of its class for the
 * next set that grows to it. A million small arrays cost neither a
 * million malloc calls nor a million free calls at the end. */
typedef struct pool {
    int64_t *free[32];  /* per class c: a list linked through each block's first word */
    int64_t **chunk;    /* every chunk, freed together */
    size_t nchunk, chunk_cap;
    int64_t *at;        /* the unused rest of the last chunk */
    size_t left;        /* its length in words */
} pool;

/* Chunks double from 4 KiB to 1 MiB: a small problem takes a few small
 * chunks instead of a megabyte (which a sanitizer poisons whole when it is
 * freed: most of the time of the tests' many small plans). */
#define POOL_CHUNK_FIRST ((size_t)1 << 9)
#define POOL_CHUNK_WORDS ((size_t)1 << 17) /* 1 MiB */

/* A block of 2^c intervals (c < 31), or NULL when out of memory. */
static int64_t *pool_get(pool *pl, unsigned c) {
    size_t words = (size_t)2 << c;
    int64_t *b = pl->free[c];
    if (b != NULL) {
        memcpy(&pl->free[c], (const unsigned char *)b, sizeof pl->free[c]);
        return b;
    }
    if (pl->left < words) {
        size_t grown = pl->nchunk < 8 ? POOL_CHUNK_FIRST << pl->nchunk : POOL_CHUNK_WORDS;
        size_t len = words > grown ? words : grown;
        if (!ab_grow((void **)&pl->chunk, &pl->chunk_cap, pl->nchunk + 1, sizeof *pl->chunk))
            return NULL;
        int64_t *ch = ab_alloc_array(len, sizeof *ch);
        if (ch == NULL) return NULL;
        pl->chunk[pl->nchunk++] = ch;
        pl->at = ch;
        pl->left = len;
    }
    b = pl->at;
    pl->at += words;
    pl->left -= words;
    return b;
}

/* Returns block b of 2^c intervals to its class's free list. */
static void pool_put(pool *pl, int64_t *b, unsigned c) {
    memcpy((unsigned char *)b, &pl->free[c], sizeof pl->free[c]);
    pl->free[c] = b;
}

/* The class of a capacity, a power of two. */
static unsigned cap_class(uint32_t cap) {
    unsigned c = 0;
    while (((uint32_t)1 << c) < cap) c++;
    return c;
}

/* A node's two sets side by side: a query or a placement reads both. */
typedef struct node {
    ivset cover, sub;
} node;

struct abp_space {
    const ab_problem *p;
    const size_t *order; /* ids are ranks in it, or NULL: ids are tensors */
    size_t leaves;     /* a power of two >= the distinct starts */
    uint32_t *leaf;    /* each tensor's leaf range: leaf[2i] .. leaf[2i + 1] */
    node *node;        /* 1 .. 2 * leaves - 1 */
    pool pool;         /* the sets' arrays */
    const ivset **q;   /* the sets of the current query */
    size_t nq;
    uint32_t *cur;     /* first-fit's cursor in each set */
    int64_t nlo[4 * 65], nhi[4 * 65]; /* the interval at each cursor */
    abp_busy *busy, *tmp; /* best-fit's intervals and sort space */
    size_t busy_cap, tmp_cap;
};

/* ---- unions of intervals ------------------------------------------------------ */

/* The first interval with hi > x (n when none). */
static uint32_t first_hi_above(const ivset *s, int64_t x) {
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->v[2 * (size_t)mid + 1] > x) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Whether the union holds all of [lo, hi) (lo < hi). */
static bool ivset_has(const ivset *s, int64_t lo, int64_t hi) {
    uint32_t a = first_hi_above(s, lo);
    return a < s->n && s->v[2 * (size_t)a] <= lo && s->v[2 * (size_t)a + 1] >= hi;
}

/* Adds [lo, hi) (lo < hi) to the union: intervals it meets or touches merge
 * into one. False when out of memory. */
static bool ivset_add(pool *pl, ivset *s, int64_t lo, int64_t hi) {
    uint32_t a = first_hi_above(s, lo - 1); /* first with hi >= lo */
    int64_t *v = s->v;
    if (a < s->n && v[2 * (size_t)a] <= lo && v[2 * (size_t)a + 1] >= hi) return true;
    uint32_t b = a;
    while (b < s->n && v[2 * (size_t)b] <= hi) b++;
    if (b == a) {
        if (s->n == (uint32_t)1 << 30) return false;
        if (s->n == 0 && s->cap == 0) {
            s->v = s->one;
            s->one[0] = lo;
            s->one[1] = hi;
            s->n = s->cap = 1;
            return true;
        }
        if (s->n == s->cap) {
            uint32_t cap = s->cap * 2;
            int64_t *nv = pool_get(pl, cap_class(cap));
            if (nv == NULL) return false;
            memcpy(nv, v, (size_t)s->n * 2 * sizeof *nv);
            if (v != s->one) pool_put(pl, v, cap_class(s->cap));
            s->v = v = nv;
            s->cap = cap;
        }
        memmove(&v[2 * ((size_t)a + 1)], &v[2 * (size_t)a], ((size_t)s->n - a) * 2 * sizeof *v);
        v[2 * (size_t)a] = lo;
        v[2 * (size_t)a + 1] = hi;
        s->n++;
        return true;
    }
    if (v[2 * (size_t)a] < lo) lo = v[2 * (size_t)a];
    if (v[2 * ((size_t)b - 1) + 1] > hi) hi = v[2 * ((size_t)b - 1) + 1];
    v[2 * (size_t)a] = lo;
    v[2 * (size_t)a + 1] = hi;
    memmove(&v[2 * ((size_t)a + 1)], &v[2 * (size_t)b], ((size_t)s->n - b) * 2 * sizeof *v);
    s->n -= b - a - 1;
    return true;
}

/* ---- the tree ----------------------------------------------------------------- */

ab_status abp_space_new(const ab_problem *p, abp_space **out, ab_error *err) {
    return abp_space_new_ordered(p, NULL, out, err);
}

/* Tensor id's name (ids are ranks in s->order when it is set). */
static const char *name_of(const abp_space *s, size_t id) {
    return s->p->t[s->order ? s->order[id] : id].name;
}

ab_status abp_space_new_ordered(const ab_problem *p, const size_t *order, abp_space **out,
                                ab_error *err) {
    *out = NULL;
    if (p->n > UINT32_MAX / 2)
        return ab_fail(err, AB_EINPUT, "%zu tensors: the free-space index takes at most 2^31",
                       p->n);
    abp_space *s = ab_calloc(1, sizeof *s);
    /* instructions to rank: key = 2 * time + (0 for a start, 1 for an end),
     * so at equal times the starts come first; at the tensor */
    ab_keyed *ev = ab_alloc_array(p->n ? 2 * p->n : 1, sizeof *ev);
    ab_keyed *tmp = ab_alloc_array(p->n ? 2 * p->n : 1, sizeof *tmp);
    if (s == NULL || ev == NULL || tmp == NULL) goto oom;
    s->p = p;
    s->order = order;
    /* a tensor's leaves: from the rank of its start among the distinct
     * starts to the number of distinct starts <= its end, minus one */
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[order ? order[i] : i];
        ev[2 * i] = (ab_keyed){(uint64_t)t->start * 2, i};
        ev[2 * i + 1] = (ab_keyed){(uint64_t)t->end * 2 + 1, i};
    }
    ab_radix_sort(ev, tmp, 2 * p->n);
    s->leaf = ab_alloc_array(p->n ? 2 * p->n : 1, sizeof *s->leaf);
    if (s->leaf == NULL) goto oom;
    size_t t = 0;
    uint64_t last = 0;
    for (size_t k = 0; k < 2 * p->n; k++) {
        if (ev[k].key & 1) {
            s->leaf[2 * ev[k].at + 1] = (uint32_t)t; /* made a leaf below */
        } else {
            if (t == 0 || ev[k].key != last) t++;
            last = ev[k].key;
            s->leaf[2 * ev[k].at] = (uint32_t)(t - 1);
        }
    }
    /* an end before its start (a malformed problem, which the caller
     * rejects; some look at it first) takes its start's leaf, not one
     * outside the tree */
    for (size_t i = 0; i < p->n; i++) {
        uint32_t c = s->leaf[2 * i + 1], r = c ? c - 1 : 0;
        s->leaf[2 * i + 1] = r < s->leaf[2 * i] ? s->leaf[2 * i] : r;
    }
    ab_free(ev);
    ab_free(tmp);
    ev = tmp = NULL;
    s->leaves = 1;
    while (s->leaves < t) s->leaves *= 2;
    s->node = ab_calloc(2 * s->leaves, sizeof *s->node);
    /* a query gathers at most two nodes per level as canonical ones and two
     * as their ancestors */
    s->q = ab_alloc_array(4 * 65, sizeof *s->q);
    s->cur = ab_alloc_array(4 * 65, sizeof *s->cur);
    if (s->cur == NULL || s->node == NULL || s->q == NULL) goto oom;
    *out = s;
    return AB_OK;
oom:
    ab_free(ev);
    ab_free(tmp);
    abp_space_free(s);
    return ab_fail(err, AB_ENOMEM, "out of memory indexing %zu tensors", p->n);
}

void abp_space_free(abp_space *s) {
    if (s == NULL) return;
    for (size_t c = 0; c < s->pool.nchunk; c++) ab_free(s->pool.chunk[c]);
    ab_free(s->pool.chunk);
    ab_free(s->node);
    ab_free(s->leaf);
    ab_free(s->q);
    ab_free(s->cur);
    ab_free(s->busy);
    ab_free(s->tmp);
    ab_free(s);
}

/* Adds [lo, hi) to COVER of canonical node c and to SUB of c and its
 * ancestors, bottom-up: SUB of a parent holds SUB of its children, so once
 * a SUB already holds [lo, hi) every SUB above it does too, and the walk
 * stops there. */
static bool place_at(abp_space *s, size_t c, int64_t lo, int64_t hi) {
    if (!ivset_add(&s->pool, &s->node[c].cover, lo, hi)) return false;
    for (size_t v = c; v >= 1; v >>= 1) {
        ivset *sub = &s->node[v].sub;
        if (ivset_has(sub, lo, hi)) break;
        if (!ivset_add(&s->pool, sub, lo, hi)) return false;
    }
    return true;
}

ab_status abp_space_place(abp_space *s, size_t i, int64_t lo, int64_t hi, ab_error *err) {
    /* the canonical nodes of the leaf range, bottom-up */
    size_t l = s->leaves + s->leaf[2 * i], r = s->leaves + s->leaf[2 * i + 1] + 1;
    bool ok = true;
    for (; ok && l < r; l >>= 1, r >>= 1) {
        if (l & 1) ok = place_at(s, l++, lo, hi);
        if (ok && (r & 1)) ok = place_at(s, --r, lo, hi);
    }
    if (!ok) return ab_fail(err, AB_ENOMEM, "out of memory placing '%s'", name_of(s, i));
    return AB_OK;
}

/* Gathers into s->q the non-empty sets whose union is tensor i's projection. */
static void gather_at(abp_space *s, size_t v, size_t vl, size_t vr, size_t l, size_t r) {
    const node *nd = &s->node[v];
    if (l <= vl && vr <= r) {
        if (nd->sub.n > 0) s->q[s->nq++] = &nd->sub;
        return;
    }
    if (nd->sub.n == 0) return; /* nothing placed below v */
    if (nd->cover.n > 0) s->q[s->nq++] = &nd->cover;
    size_t mid = vl + (vr - vl) / 2;
    if (l <= mid) gather_at(s, 2 * v, vl, mid, l, r);
    if (r > mid) gather_at(s, 2 * v + 1, mid + 1, vr, l, r);
}

static void gather(abp_space *s, size_t i) {
    s->nq = 0;
    gather_at(s, 1, 0, s->leaves - 1, s->leaf[2 * i], s->leaf[2 * i + 1]);
}

/* The first interval of set with hi > x at or after position at: galloping
 * from at, so a cursor that moves far costs the log of the distance. */
static uint32_t advance(const ivset *set, uint32_t at, int64_t x) {
    if (at >= set->n || set->v[2 * (size_t)at + 1] > x) return at;
    uint32_t step = 1, lo = at + 1, hi;
    for (;;) { /* every interval before lo ends at or below x */
        hi = set->n - lo <= step ? set->n : lo + step;
        if (hi == set->n || set->v[2 * (size_t)hi + 1] > x) break;
        lo = hi + 1;
        step *= 2;
    }
    while (lo < hi) { /* the answer lies in [lo, hi] */
        uint32_t mid = lo + (hi - lo) / 2;
        if (set->v[2 * (size_t)mid + 1] > x) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* The lowest aligned offset >= cand (aligned) whose window of size bytes
 * misses every gathered set. Each set keeps a cursor (s->cur), its first
 * interval ending above cand: cand only rises, so the cursors only move on.
 * False on overflow. */
static bool fit_from(abp_space *s, int64_t cand, int64_t size, int64_t align, int64_t *out) {
    int64_t end;
    if (ab_add_ovf(cand, size, &end)) return false;
    size_t k = s->nq, clear = 0, j = 0;
    /* each cursor's interval is copied beside it (INT64_MAX, INT64_MAX past
     * the last), so checking a set that is clear reads no set */
    int64_t *nlo = s->nlo, *nhi = s->nhi;
    for (size_t m = 0; m < k; m++) {
        s->cur[m] = 0;
        nlo[m] = s->q[m]->v[0];
        nhi[m] = s->q[m]->v[1];
    }
    while (clear < k) {
        if (nhi[j] <= cand || nlo[j] < end) {
            const ivset *set = s->q[j];
            uint32_t at = advance(set, s->cur[j], cand);
            if (at < set->n && set->v[2 * (size_t)at] < end) {
                do {
                    if (ab_align_up_ovf(set->v[2 * (size_t)at + 1], align, &cand) ||
                        ab_add_ovf(cand, size, &end))
                        return false;
                    at = advance(set, at + 1, cand);
                } while (at < set->n && set->v[2 * (size_t)at] < end);
                clear = 0;
            }
            s->cur[j] = at;
            nlo[j] = at < set->n ? set->v[2 * (size_t)at] : INT64_MAX;
            nhi[j] = at < set->n ? set->v[2 * (size_t)at + 1] : INT64_MAX;
        }
        clear++;
        j = j + 1 == k ? 0 : j + 1;
    }
    *out = cand;
    return true;
}

bool abp_space_first_fit(abp_space *s, size_t i, int64_t size, int64_t align, int64_t *offset) {
    gather(s, i);
    return fit_from(s, 0, size, align, offset);
}

int64_t abp_space_top(abp_space *s, size_t i) {
    gather(s, i);
    int64_t top = 0;
    for (size_t j = 0; j < s->nq; j++) {
        const ivset *set = s->q[j];
        if (set->v[2 * ((size_t)set->n - 1) + 1] > top) top = set->v[2 * ((size_t)set->n - 1) + 1];
    }
    return top;
}

/* Appends x to the run to[start .. *k), merging it into the last interval
 * when they meet or touch (the rules read only the union's gaps). */
static void put(abp_busy *to, size_t start, size_t *k, abp_busy x) {
    if (*k > start && x.lo <= to[*k - 1].hi) {
        if (x.hi > to[*k - 1].hi) to[*k - 1].hi = x.hi;
    } else {
        to[(*k)++] = x;
    }
}

/* Merges the runs busy[rs[r] .. re[r]) (r < nrun), each sorted by lo, into
 * one, pairwise, level by level (tmp holds as many entries), merging
 * intervals that meet on the way; *n becomes its length and the result lies
 * where the returned pointer says (busy or tmp). The runs are the unions,
 * each sorted already, so this is a merge sort without its first log n
 * levels. */
static abp_busy *merge_runs(abp_busy *busy, abp_busy *tmp, size_t *rs, size_t *re, size_t nrun,
                            size_t *n) {
    abp_busy *from = busy, *to = tmp;
    while (nrun > 1) {
        size_t out = 0;
        for (size_t r = 0; r < nrun; r += 2) {
            size_t a = rs[r], am = re[r], b = 0, bm = 0, k = rs[r];
            if (r + 1 < nrun) b = rs[r + 1], bm = re[r + 1];
            while (a < am && b < bm) put(to, rs[r], &k, from[b].lo < from[a].lo ? from[b++] : from[a++]);
            while (a < am) put(to, rs[r], &k, from[a++]);
            while (b < bm) put(to, rs[r], &k, from[b++]);
            rs[out] = rs[r];
            re[out++] = k;
        }
        nrun = out;
        abp_busy *t = from;
        from = to;
        to = t;
    }
    *n = nrun ? re[0] - rs[0] : 0;
    return nrun ? from + rs[0] : from;
}

ab_status abp_space_busy(abp_space *s, size_t i, const abp_busy **busy, size_t *nbusy,
                         ab_error *err) {
    gather(s, i);
    /* the rule itself, run on the intervals of the unions instead of the
     * placed tensors (fewer: tensors side by side in one union are one) */
    size_t n = 0;
    for (size_t j = 0; j < s->nq; j++) n += s->q[j]->n;
    if (!ab_grow((void **)&s->busy, &s->busy_cap, n + 1, sizeof *s->busy) ||
        !ab_grow((void **)&s->tmp, &s->tmp_cap, n + 1, sizeof *s->tmp))
        return ab_fail(err, AB_ENOMEM, "out of memory placing '%s'", name_of(s, i));
    n = 0;
    size_t rs[4 * 65], re[4 * 65];
    for (size_t j = 0; j < s->nq; j++) {
        rs[j] = n;
        for (uint32_t k = 0; k < s->q[j]->n; k++)
            s->busy[n++] = (abp_busy){s->q[j]->v[2 * (size_t)k], s->q[j]->v[2 * (size_t)k + 1], 0};
        re[j] = n;
    }
    *busy = merge_runs(s->busy, s->tmp, rs, re, s->nq, &n);
    *nbusy = n;
    return AB_OK;
}

ab_status abp_space_rule(abp_space *s, size_t i, abp_rule rule, int64_t size, int64_t align,
                         int64_t *offset, ab_error *err) {
    const abp_busy *sorted;
    size_t n;
    ab_status st = abp_space_busy(s, i, &sorted, &n, err);
    if (st != AB_OK) return st;
    if (!rule(sorted, n, size, align, offset))
        return ab_fail(err, AB_EINPUT, "placing '%s': the arena overflows 64 bits", name_of(s, i));
    return AB_OK;
}

void abp_space_prefetch(const abp_space *s, size_t i, int stage) {
    if (stage == 0) {
        __builtin_prefetch(&s->leaf[2 * i]);
        return;
    }
    /* the lowest 12 levels of its two paths: the levels above are few
     * enough nodes to stay in cache */
    size_t l = s->leaves + s->leaf[2 * i], r = s->leaves + s->leaf[2 * i + 1];
    for (int d = 0; d < 12 && l >= 1; d++, l >>= 1, r >>= 1) {
        if (stage == 1) {
            __builtin_prefetch(&s->node[l]);
            __builtin_prefetch(&s->node[r]);
            continue;
        }
        const node *a = &s->node[l], *b = &s->node[r];
        if (a->sub.n > 1) __builtin_prefetch(a->sub.v);
        if (b->sub.n > 1) __builtin_prefetch(b->sub.v);
        if (a->cover.n > 1) __builtin_prefetch(a->cover.v);
        if (b->cover.n > 1) __builtin_prefetch(b->cover.v);
    }
}
