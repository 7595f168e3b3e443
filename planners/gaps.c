/*
 * gaps.c — disjoint byte ranges with their gaps indexed (see gaps.h).
 *
 * Two treaps over the same nodes, one node per range, priorities from a
 * fixed hash of the node (so the shapes, and everything else, are
 * deterministic):
 *   BY OFFSET: keyed by lo; a node keeps its GAP, lo minus the hi of the
 *     range below it (or minus 0 for the lowest), and the largest gap of its
 *     subtree;
 *   BY GAP: the nodes whose gap is not empty, keyed by (gap, lo).
 * Adding or removing a range changes the gap of one other range, the next
 * one up; both treaps follow in O(log n).
 *
 * WHY THE RULES COME OUT THE SAME. The ranges are disjoint, so their union's
 * maximal free intervals below the top are exactly the non-empty gaps
 * [lo - gap, lo), and above the top lies [top, inf). First-fit's answer is
 * the lowest aligned x whose window [x, x + size) misses every range
 * (first_fit.c); it lies in one of those free intervals, and the lowest
 * aligned offset of a free interval F = [a, b), align_up(a), fits iff any
 * does. So it is align_up(a) of the lowest F with align_up(a) + size <= b:
 * the by-offset treap finds it, passing over subtrees whose largest gap is
 * below size. Best-fit (best_fit.c) takes, among the gaps below the top
 * where align_up(a) + size <= b, the one of least length, ties the lowest;
 * the by-gap treap visits gaps in exactly that order from length size up,
 * so the first that fits is the answer. Both fall back to the top, aligned.
 * The rules also fail when aligning a gap's start overflows int64: below an
 * aligned top that does not overflow no start can, and where the top's does
 * best-fit hands the ranges to the rule itself (first-fit needs no care:
 * the starts it aligns are no higher than the answer's).
 */
#include "planners/gaps.h"

#include <stdlib.h>

#include "planners/greedy.h"

enum { BY_OFFSET, BY_GAP };

typedef struct node {
    int64_t lo, hi, gap, mx; /* mx: the largest gap of its by-offset subtree */
    uint64_t prio;
    uint32_t kid[2][2];      /* kid[tree][0 left, 1 right] */
    uint32_t id;             /* the range */
    bool ingap;              /* in the by-gap treap */
} node;

/* The nodes are slots handed out from a stack of free ones, not one per
 * range: a removed range's slot goes to the next range added, so the nodes
 * in use stay as few as the ranges in the set at once (a live set of a few
 * thousand stays in cache), wherever the ranges' ids lie among a million. */
struct abp_gaps {
    size_t cap;
    node *v;         /* slots 1 .. used; 0 is no node */
    uint32_t *slot;  /* each range id's slot while in the set */
    uint32_t *spare; /* the free slots, a stack */
    size_t nspare, used;
    uint32_t root[2];
};

static uint64_t prio(uint32_t x) {
    uint64_t z = x * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

abp_gaps *abp_gaps_new(size_t n) {
    if (n >= UINT32_MAX - 1) return NULL;
    abp_gaps *g = ab_calloc(1, sizeof *g);
    if (g == NULL) return NULL;
    g->cap = n + 1;
    g->v = ab_alloc_array(g->cap, sizeof *g->v);
    g->slot = ab_alloc_array(g->cap, sizeof *g->slot);
    g->spare = ab_alloc_array(g->cap, sizeof *g->spare);
    if (g->v == NULL || g->slot == NULL || g->spare == NULL) {
        abp_gaps_free(g);
        return NULL;
    }
    return g;
}

void abp_gaps_free(abp_gaps *g) {
    if (g == NULL) return;
    ab_free(g->v);
    ab_free(g->slot);
    ab_free(g->spare);
    ab_free(g);
}

/* ---- the treaps -------------------------------------------------------------- */

/* Whether node x's key in tree t is below the key (kg, klo); by offset
 * compares lo only. */
static bool below(const abp_gaps *g, int t, uint32_t x, int64_t kg, int64_t klo) {
    if (t == BY_GAP && g->v[x].gap != kg) return g->v[x].gap < kg;
    return g->v[x].lo < klo;
}

static void pull(abp_gaps *g, int t, uint32_t x) {
    if (t != BY_OFFSET) return;
    int64_t m = g->v[x].gap;
    uint32_t a = g->v[x].kid[t][0], b = g->v[x].kid[t][1];
    if (a && g->v[a].mx > m) m = g->v[a].mx;
    if (b && g->v[b].mx > m) m = g->v[b].mx;
    g->v[x].mx = m;
}

/* Splits the treap at x into the keys below (kg, klo) and the rest. */
static void split(abp_gaps *g, int t, uint32_t x, int64_t kg, int64_t klo, uint32_t *a,
                  uint32_t *b) {
    if (x == 0) {
        *a = *b = 0;
    } else if (below(g, t, x, kg, klo)) {
        split(g, t, g->v[x].kid[t][1], kg, klo, &g->v[x].kid[t][1], b);
        *a = x;
        pull(g, t, x);
    } else {
        split(g, t, g->v[x].kid[t][0], kg, klo, a, &g->v[x].kid[t][0]);
        *b = x;
        pull(g, t, x);
    }
}

/* Joins two treaps, every key of a below every key of b. */
static uint32_t join(abp_gaps *g, int t, uint32_t a, uint32_t b) {
    if (a == 0) return b;
    if (b == 0) return a;
    if (g->v[a].prio > g->v[b].prio) {
        g->v[a].kid[t][1] = join(g, t, g->v[a].kid[t][1], b);
        pull(g, t, a);
        return a;
    }
    g->v[b].kid[t][0] = join(g, t, a, g->v[b].kid[t][0]);
    pull(g, t, b);
    return b;
}

/* Puts x into the treap under y where its priority puts it: down the keys
 * while the nodes outrank it, then y's subtree split around x's key. */
static uint32_t insert_at(abp_gaps *g, int t, uint32_t y, uint32_t x) {
    if (y == 0 || g->v[x].prio > g->v[y].prio) {
        split(g, t, y, g->v[x].gap, g->v[x].lo, &g->v[x].kid[t][0], &g->v[x].kid[t][1]);
        pull(g, t, x);
        return x;
    }
    int side = below(g, t, y, g->v[x].gap, g->v[x].lo) ? 1 : 0;
    g->v[y].kid[t][side] = insert_at(g, t, g->v[y].kid[t][side], x);
    pull(g, t, y);
    return y;
}

static void insert(abp_gaps *g, int t, uint32_t x) {
    g->root[t] = insert_at(g, t, g->root[t], x);
}

/* Takes x out of the treap under y: down the keys to x, which its two
 * subtrees, joined, replace. Keys are distinct. */
static uint32_t erase_at(abp_gaps *g, int t, uint32_t y, uint32_t x) {
    if (y == x) return join(g, t, g->v[x].kid[t][0], g->v[x].kid[t][1]);
    int side = below(g, t, y, g->v[x].gap, g->v[x].lo) ? 1 : 0;
    g->v[y].kid[t][side] = erase_at(g, t, g->v[y].kid[t][side], x);
    pull(g, t, y);
    return y;
}

static void erase(abp_gaps *g, int t, uint32_t x) {
    g->root[t] = erase_at(g, t, g->root[t], x);
}

/* The range just below lo (the highest lo' < lo), or 0. */
static uint32_t below_of(const abp_gaps *g, int64_t lo) {
    uint32_t x = g->root[BY_OFFSET], best = 0;
    while (x) {
        if (g->v[x].lo < lo) {
            best = x;
            x = g->v[x].kid[BY_OFFSET][1];
        } else {
            x = g->v[x].kid[BY_OFFSET][0];
        }
    }
    return best;
}

/* The range just above lo (the lowest lo' > lo), or 0. */
static uint32_t above_of(const abp_gaps *g, int64_t lo) {
    uint32_t x = g->root[BY_OFFSET], best = 0;
    while (x) {
        if (g->v[x].lo > lo) {
            best = x;
            x = g->v[x].kid[BY_OFFSET][0];
        } else {
            x = g->v[x].kid[BY_OFFSET][1];
        }
    }
    return best;
}

/* Sets node x's gap to v in the by-offset treap under y (x is there; its
 * key, lo, does not change), mending the largest gaps on the way back. */
static void regap(abp_gaps *g, uint32_t y, uint32_t x, int64_t v) {
    if (y == x) g->v[x].gap = v;
    else regap(g, g->v[y].kid[BY_OFFSET][g->v[y].lo < g->v[x].lo ? 1 : 0], x, v);
    pull(g, BY_OFFSET, y);
}

/* Node x's gap becomes v: both treaps follow. */
static void set_gap(abp_gaps *g, uint32_t x, int64_t v) {
    if (g->v[x].ingap) erase(g, BY_GAP, x);
    regap(g, g->root[BY_OFFSET], x, v);
    g->v[x].ingap = v > 0;
    if (v > 0) insert(g, BY_GAP, x);
}

void abp_gaps_add(abp_gaps *g, size_t id, int64_t lo, int64_t hi) {
    /* a free slot: the last one freed, else a new one (at most cap - 1 are
     * ever in use: n ranges) */
    uint32_t x = g->nspare ? g->spare[--g->nspare] : (uint32_t)++g->used;
    g->slot[id] = x;
    g->v[x] = (node){.prio = prio(x), .id = (uint32_t)id};
    uint32_t p = below_of(g, lo), s = above_of(g, lo);
    g->v[x].lo = lo;
    g->v[x].hi = hi;
    g->v[x].gap = lo - (p ? g->v[p].hi : 0);
    insert(g, BY_OFFSET, x);
    g->v[x].ingap = g->v[x].gap > 0;
    if (g->v[x].ingap) insert(g, BY_GAP, x);
    if (s) set_gap(g, s, g->v[s].lo - hi);
}

void abp_gaps_remove(abp_gaps *g, size_t id) {
    uint32_t x = g->slot[id];
    uint32_t p = below_of(g, g->v[x].lo), s = above_of(g, g->v[x].lo);
    if (g->v[x].ingap) erase(g, BY_GAP, x);
    g->v[x].ingap = false;
    erase(g, BY_OFFSET, x);
    if (s) set_gap(g, s, g->v[s].lo - (p ? g->v[p].hi : 0));
    g->spare[g->nspare++] = x;
}

/* ---- the rules ------------------------------------------------------------- */

/* Whether node x's gap [lo - gap, lo) holds size bytes at an aligned offset,
 * which goes to *at. */
static bool holds(const abp_gaps *g, uint32_t x, int64_t size, int64_t align, int64_t *at) {
    int64_t a, end;
    if (g->v[x].gap < size || ab_align_up_ovf(g->v[x].lo - g->v[x].gap, align, &a) ||
        ab_add_ovf(a, size, &end) || end > g->v[x].lo)
        return false;
    *at = a;
    return true;
}

static int64_t top_of(const abp_gaps *g) {
    uint32_t x = g->root[BY_OFFSET];
    if (x == 0) return 0;
    while (g->v[x].kid[BY_OFFSET][1]) x = g->v[x].kid[BY_OFFSET][1];
    return g->v[x].hi;
}

/* The lowest gap under x that holds the tensor (its offset in *at). */
static bool lowest_holding(const abp_gaps *g, uint32_t x, int64_t size, int64_t align,
                           int64_t *at) {
    while (x && g->v[x].mx >= size) {
        if (lowest_holding(g, g->v[x].kid[BY_OFFSET][0], size, align, at)) return true;
        if (holds(g, x, size, align, at)) return true;
        x = g->v[x].kid[BY_OFFSET][1];
    }
    return false;
}

bool abp_gaps_first_fit(const abp_gaps *g, int64_t size, int64_t align, int64_t *offset) {
    if (lowest_holding(g, g->root[BY_OFFSET], size, align, offset)) return true;
    int64_t end;
    return !ab_align_up_ovf(top_of(g), align, offset) && !ab_add_ovf(*offset, size, &end);
}

/* The first gap under x in (length, lo) order, from length size up, that
 * holds the tensor. */
static bool least_holding(const abp_gaps *g, uint32_t x, int64_t size, int64_t align,
                          int64_t *at) {
    while (x) {
        if (g->v[x].gap < size) {
            x = g->v[x].kid[BY_GAP][1];
            continue;
        }
        if (least_holding(g, g->v[x].kid[BY_GAP][0], size, align, at)) return true;
        if (holds(g, x, size, align, at)) return true;
        x = g->v[x].kid[BY_GAP][1];
    }
    return false;
}

/* In-order ranges under x into busy (the rule's input). */
static size_t collect(const abp_gaps *g, uint32_t x, abp_busy *busy, size_t n) {
    while (x) {
        n = collect(g, g->v[x].kid[BY_OFFSET][0], busy, n);
        busy[n++] = (abp_busy){g->v[x].lo, g->v[x].hi, g->v[x].id};
        x = g->v[x].kid[BY_OFFSET][1];
    }
    return n;
}

bool abp_gaps_best_fit(const abp_gaps *g, int64_t size, int64_t align, int64_t *offset) {
    int64_t top = top_of(g), end;
    if (ab_align_up_ovf(top, align, offset)) {
        /* a gap's start may overflow too, and the rule fails then: let it */
        abp_busy *busy = ab_alloc_array(g->cap, sizeof *busy);
        if (busy == NULL) return false;
        size_t n = collect(g, g->root[BY_OFFSET], busy, 0);
        bool ok = abp_rule_best_fit(busy, n, size, align, offset);
        ab_free(busy);
        return ok;
    }
    if (least_holding(g, g->root[BY_GAP], size, align, offset)) return true;
    return !ab_add_ovf(*offset, size, &end);
}
