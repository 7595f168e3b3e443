/*
 * usmp_hill_climb_reference.c — the hill climb of planners/peer_usmp.c as it
 * was before issue 14 (a full re-plan per attempt, the conflict graph built
 * from a pairs array), kept for tests only: tests/test_hillclimb_scale.c
 * includes it and checks the planner against it byte for byte. Registered
 * as the test planner `usmp-hill-climb-reference` (AB_PLANNER_TEST).
 * Not compiled on its own.
 */
#include "planners/planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"

__extension__ typedef unsigned __int128 u128;

/* ---- pools and state ------------------------------------------------------ */

/* The working state shared by the three planners. */
typedef struct usmp {
    const ab_problem *p;
    const char *who;                /* the planner's name, for messages */
    size_t npool;                   /* >= 1: a suite without pools has one, unbounded */
    int64_t limit[AB_MAX_POOLS];    /* size limit, or AB_NONE */
    int64_t base[AB_MAX_POOLS];     /* start in the joint address space */
    int64_t *loc;                   /* per tensor: offset within its pool */
    int *pool;                      /* per tensor: its pool, or -1 (not placed, or no room) */
} usmp;

static ab_status usmp_init(usmp *u, const ab_problem *p, const char *who, ab_error *err) {
    memset(u, 0, sizeof *u);
    u->p = p;
    u->who = who;
    if (p->npools > AB_MAX_POOLS)
        return ab_fail(err, AB_EINPUT, "%s: %zu pools; at most %d are supported", who, p->npools,
                       AB_MAX_POOLS);
    u->npool = p->npools ? p->npools : 1;
    for (size_t k = 0; k < u->npool; k++) {
        u->limit[k] = p->npools ? p->pools[k].size : AB_NONE;
        u->base[k] = ab_pool_base(p, k);
    }
    size_t n = p->n ? p->n : 1;
    u->loc = ab_calloc(n, sizeof *u->loc);
    u->pool = ab_alloc_array(n, sizeof *u->pool);
    if (u->loc == NULL || u->pool == NULL)
        return ab_fail(err, AB_ENOMEM, "%s: out of memory planning %zu tensors", who, p->n);
    for (size_t i = 0; i < p->n; i++) u->pool[i] = -1;
    return AB_OK;
}

static void usmp_free(usmp *u) {
    ab_free(u->loc);
    ab_free(u->pool);
}

/* true when size bytes at offset at fit under pool k's limit. */
static bool fits(const usmp *u, size_t k, int64_t at, int64_t size) {
    return u->limit[k] == AB_NONE || (at <= u->limit[k] && size <= u->limit[k] - at);
}

/* Puts every tensor with a fixed offset at it, in the pool that offset lies in. */
static ab_status place_fixed(usmp *u, ab_error *err) {
    const ab_problem *p = u->p;
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset == AB_NONE) continue;
        size_t k = ab_pool_find(p, p->t[i].offset);
        if (k == AB_NO_POOL)
            return ab_fail(err, AB_EINPUT, "%s: the fixed offset %lld of '%s' lies in no pool",
                           u->who, (long long)p->t[i].offset, p->t[i].name);
        u->pool[i] = (int)k;
        u->loc[i] = p->t[i].offset - u->base[k];
    }
    return AB_OK;
}

/* The end of placed tensor c in its pool, rounded up to c's align; false on
 * overflow. */
static bool aligned_end(const usmp *u, size_t c, int64_t *end) {
    const ab_tensor *t = &u->p->t[c];
    return !ab_add_ovf(u->loc[c], t->size, end) && !ab_align_up_ovf(*end, t->align, end);
}

/* Writes the joint offsets of the placement into offsets. */
static void joint_offsets(const usmp *u, int64_t *offsets) {
    for (size_t i = 0; i < u->p->n; i++) offsets[i] = u->base[u->pool[i]] + u->loc[i];
}

/* ---- conflict counts and the greedy order ------------------------------------- */

/* count[i] = the number of other tensors conflicting with tensor i: those that
 * start no later than i ends, less those that end before i starts. */
static ab_status conflict_counts(const ab_problem *p, size_t *count, ab_error *err) {
    size_t n = p->n;
    int64_t *starts = ab_alloc_array(n ? n : 1, sizeof *starts);
    int64_t *ends = ab_alloc_array(n ? n : 1, sizeof *ends);
    if (starts == NULL || ends == NULL) {
        ab_free(starts);
        ab_free(ends);
        return ab_fail(err, AB_ENOMEM, "out of memory counting conflicts");
    }
    for (size_t i = 0; i < n; i++) {
        starts[i] = p->t[i].start;
        ends[i] = p->t[i].end;
    }
    qsort(starts, n, sizeof *starts, ab_cmp_i64);
    qsort(ends, n, sizeof *ends, ab_cmp_i64);
    for (size_t i = 0; i < n; i++)
        count[i] = ab_count_le(starts, n, p->t[i].end) - ab_count_le(ends, n, p->t[i].start - 1) - 1;
    ab_free(starts);
    ab_free(ends);
    return AB_OK;
}

/* A tensor to order. */
typedef struct ukey {
    int64_t size;
    size_t conflicts;
    const char *name;
    size_t idx;
} ukey;

/* Size, then conflicts, then name, all decreasing (names are unique). */
static int by_size(const void *pa, const void *pb) {
    const ukey *a = pa, *b = pb;
    if (a->size != b->size) return a->size > b->size ? -1 : 1;
    if (a->conflicts != b->conflicts) return a->conflicts > b->conflicts ? -1 : 1;
    return -strcmp(a->name, b->name);
}

/* The tensors without a fixed offset in the planner's order, into *order
 * (owned by the caller) and their number into *n. */
static ab_status greedy_order(const ab_problem *p, bool size_first __attribute__((unused)), size_t **order, size_t *n,
                              ab_error *err) {
    size_t m = p->n ? p->n : 1;
    size_t *count = ab_alloc_array(m, sizeof *count);
    ukey *keys = ab_alloc_array(m, sizeof *keys);
    *order = ab_alloc_array(m, sizeof **order);
    ab_status st = count && keys && *order ? conflict_counts(p, count, err)
                                           : ab_fail(err, AB_ENOMEM, "out of memory ordering");
    *n = 0;
    for (size_t i = 0; st == AB_OK && i < p->n; i++)
        if (p->t[i].offset == AB_NONE)
            keys[(*n)++] = (ukey){p->t[i].size, count[i], p->t[i].name, i};
    if (st == AB_OK) qsort(keys, *n, sizeof *keys, by_size);
    for (size_t r = 0; st == AB_OK && r < *n; r++) (*order)[r] = keys[r].idx;
    ab_free(count);
    ab_free(keys);
    if (st != AB_OK) {
        ab_free(*order);
        *order = NULL;
    }
    return st;
}

/* ---- hill climb ------------------------------------------------------------------ */

/* glibc's rand_r: three steps of its linear congruential generator, 31 bits. */
static int usmp_rand(unsigned *seed) {
    unsigned next = *seed;
    int result;
    next = next * 1103515245u + 12345u;
    result = (int)((next / 65536u) % 2048u);
    next = next * 1103515245u + 12345u;
    result = (result << 10) ^ (int)((next / 65536u) % 1024u);
    next = next * 1103515245u + 12345u;
    result = (result << 10) ^ (int)((next / 65536u) % 1024u);
    *seed = next;
    return result;
}

/* Every conflict of every tensor, as compressed adjacency lists: the
 * conflicts of i are adj[first[i] .. first[i + 1]), in increasing index. */
typedef struct graph {
    size_t *first; /* n + 1 entries */
    size_t *adj;
} graph;

static void graph_free(graph *g) {
    ab_free(g->first);
    ab_free(g->adj);
    g->first = g->adj = NULL;
}

static int cmp_size(const void *pa, const void *pb) {
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return (a > b) - (a < b);
}

/* Tensor indices by start, ties by index; ctx is the problem. */
static int by_start(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &p->t[a], *y = &p->t[b];
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (a > b) - (a < b);
}

/* The conflicting pairs (i, j), i < j, by a sweep in order of start; *pairs
 * holds 2 * *npairs indices, owned by the caller. */
static ab_status conflict_pairs(const ab_problem *p, size_t **pairs, size_t *npairs,
                                ab_error *err) {
    size_t n = p->n, nact = 0, cap = 0;
    size_t *idx = ab_alloc_array(n ? n : 1, sizeof *idx);
    size_t *act = ab_alloc_array(n ? n : 1, sizeof *act);
    *pairs = NULL;
    *npairs = 0;
    ab_status st = idx && act ? AB_OK : ab_fail(err, AB_ENOMEM, "out of memory finding conflicts");
    for (size_t i = 0; st == AB_OK && i < n; i++) idx[i] = i;
    if (st == AB_OK) ab_sort(idx, n, sizeof *idx, by_start, p);
    for (size_t r = 0; st == AB_OK && r < n; r++) {
        size_t i = idx[r], keep = 0;
        for (size_t a = 0; a < nact; a++) /* drop the tensors that ended before i starts */
            if (p->t[act[a]].end >= p->t[i].start) act[keep++] = act[a];
        nact = keep;
        if (!ab_grow((void **)pairs, &cap, 2 * (*npairs + nact) + 2, sizeof **pairs)) {
            st = ab_fail(err, AB_ENOMEM, "out of memory finding conflicts");
            break;
        }
        for (size_t a = 0; a < nact; a++) {
            (*pairs)[2 * *npairs] = act[a] < i ? act[a] : i;
            (*pairs)[2 * *npairs + 1] = act[a] < i ? i : act[a];
            (*npairs)++;
        }
        act[nact++] = i;
    }
    ab_free(idx);
    ab_free(act);
    if (st != AB_OK) ab_free(*pairs);
    return st;
}

/* Builds g from the conflicting pairs of p. */
static ab_status graph_build(const ab_problem *p, graph *g, ab_error *err) {
    size_t *pairs, m, n = p->n;
    memset(g, 0, sizeof *g);
    ab_status st = conflict_pairs(p, &pairs, &m, err);
    if (st != AB_OK) return st;
    g->first = ab_calloc(n + 1, sizeof *g->first);
    g->adj = ab_alloc_array(2 * m + 1, sizeof *g->adj);
    size_t *fill = ab_alloc_array(n + 1, sizeof *fill);
    if (g->first == NULL || g->adj == NULL || fill == NULL) {
        ab_free(pairs);
        ab_free(fill);
        graph_free(g);
        return ab_fail(err, AB_ENOMEM, "out of memory finding conflicts");
    }
    for (size_t e = 0; e < 2 * m; e++) g->first[pairs[e] + 1]++;
    for (size_t i = 0; i < n; i++) g->first[i + 1] += g->first[i];
    memcpy(fill, g->first, (n + 1) * sizeof *fill);
    /* pairs come in sweep order: sort each list by index afterwards */
    for (size_t e = 0; e < m; e++) {
        g->adj[fill[pairs[2 * e]]++] = pairs[2 * e + 1];
        g->adj[fill[pairs[2 * e + 1]]++] = pairs[2 * e];
    }
    for (size_t i = 0; i < n; i++)
        qsort(g->adj + g->first[i], g->first[i + 1] - g->first[i], sizeof *g->adj, cmp_size);
    ab_free(pairs);
    ab_free(fill);
    return AB_OK;
}

/* The hill climb's state beyond the shared one. */
typedef struct climb {
    usmp u;              /* the placement of the current attempt (loc, pool) */
    graph g;
    size_t nfree;        /* tensors without a fixed offset */
    size_t *ord;         /* ord[position] = tensor, nfree entries */
    size_t *pos;         /* pos[tensor] = position, or SIZE_MAX for a fixed tensor */
    unsigned seed;
    int64_t *loc_prev, *loc_best;  /* the rolled-back and the accepted placements */
    int *pool_prev, *pool_best;
    size_t *stamp;       /* per tensor: the attempt that placed it */
    size_t *busy;        /* scratch: placed conflicts of one tensor */
    size_t *lvl1, *lvl2; /* scratch: neighbours of the chosen tensor */
    size_t nlvl1, nlvl2, cap2;
    int64_t high[AB_MAX_POOLS];
} climb;

/* Placed tensors by joint offset, ties by index; ctx is the usmp state. */
static int by_joint(const void *pa, const void *pb, const void *ctx) {
    const usmp *u = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int64_t x = u->base[u->pool[a]] + u->loc[a];
    int64_t y = u->base[u->pool[b]] + u->loc[b];
    if (x != y) return x < y ? -1 : 1;
    return (a > b) - (a < b);
}

/* Tensors by position in the order; ctx is the positions (climb.pos). */
static int by_pos(const void *pa, const void *pb, const void *ctx) {
    const size_t *pos = ctx;
    size_t a = pos[*(const size_t *)pa], b = pos[*(const size_t *)pb];
    return (a > b) - (a < b);
}

/* First fit of tensor b in attempt number pass; sets *no_room when no pool
 * holds it (b is then left in no pool, at 0). */
static ab_status climb_place(climb *c, size_t b, size_t pass, bool *no_room, ab_error *err) {
    usmp *u = &c->u;
    const ab_tensor *t = &u->p->t[b];
    size_t nb = 0;
    for (size_t e = c->g.first[b]; e < c->g.first[b + 1]; e++) {
        size_t x = c->g.adj[e];
        if (c->pos[x] == SIZE_MAX || c->stamp[x] == pass)
            if (u->pool[x] >= 0) c->busy[nb++] = x;
    }
    ab_sort(c->busy, nb, sizeof *c->busy, by_joint, u);
    int64_t cand[AB_MAX_POOLS];
    bool alive[AB_MAX_POOLS];
    for (size_t k = 0; k < u->npool; k++) {
        cand[k] = 0;
        alive[k] = fits(u, k, 0, t->size);
    }
    for (size_t j = 0; j < nb; j++) {
        size_t x = c->busy[j], k = (size_t)u->pool[x];
        int64_t next;
        if (!alive[k]) continue;
        if (!aligned_end(u, x, &next) || ab_align_up_ovf(next, t->align, &next) ||
            ab_add_ovf(next, t->size, &(int64_t){0}))
            return ab_fail(err, AB_EINPUT, "%s: placing '%s': offsets overflow 64 bits", u->who,
                           t->name);
        if (!fits(u, k, next, t->size)) alive[k] = false;
        else if (next > cand[k] && cand[k] + t->size > u->loc[x]) cand[k] = next;
    }
    c->stamp[b] = pass;
    for (size_t k = 0; k < u->npool; k++) {
        if (!alive[k]) continue;
        u->pool[b] = (int)k;
        u->loc[b] = cand[k];
        return AB_OK;
    }
    u->pool[b] = -1;
    u->loc[b] = 0;
    *no_room = true;
    return AB_OK;
}

/* The used bytes of each pool into c->high and their sum into *total (0
 * when no tensor is in any pool). */
static ab_status climb_highs(climb *c, int64_t *total, ab_error *err) {
    usmp *u = &c->u;
    memset(c->high, 0, sizeof c->high);
    for (size_t i = 0; i < u->p->n; i++) {
        if (u->pool[i] < 0) continue;
        int64_t end = u->loc[i] + u->p->t[i].size;
        if (end > c->high[u->pool[i]]) c->high[u->pool[i]] = end;
    }
    *total = 0;
    for (size_t k = 0; k < u->npool; k++)
        if (ab_add_ovf(*total, c->high[k], total))
            return ab_fail(err, AB_EINPUT, "%s: the pools' total overflows 64 bits", u->who);
    return AB_OK;
}

/* One greedy attempt over the current order; *no_room as in climb_place. */
static ab_status climb_attempt(climb *c, size_t pass, bool *no_room, ab_error *err) {
    *no_room = false;
    for (size_t r = 0; r < c->nfree; r++) {
        ab_status st = climb_place(c, c->ord[r], pass, no_room, err);
        if (st != AB_OK) return st;
    }
    return AB_OK;
}

/* Swaps the tensors at positions i1 and i2 of the order (nothing when equal). */
static void climb_swap(climb *c, size_t i1, size_t i2) {
    if (i1 == i2) return;
    size_t b1 = c->ord[i1], b2 = c->ord[i2];
    c->ord[i1] = b2;
    c->ord[i2] = b1;
    c->pos[b1] = i2;
    c->pos[b2] = i1;
}

/* The tensors that end at the top of their pool, in order of position, into
 * c->busy; their number into *n. */
static void climb_tops(climb *c, size_t *n) {
    usmp *u = &c->u;
    *n = 0;
    for (size_t i = 0; i < u->p->n; i++)
        if (c->pos[i] != SIZE_MAX && u->pool[i] >= 0 &&
            u->loc[i] + u->p->t[i].size == c->high[u->pool[i]])
            c->busy[(*n)++] = i;
    ab_sort(c->busy, *n, sizeof *c->busy, by_pos, c->pos);
}

/* The neighbours of tensor x: its conflicts placed before it in the order
 * (lvl1), and the conflicts placed before them of all its conflicts (lvl2,
 * with repeats), each sorted by position. */
static ab_status climb_neighbours(climb *c, size_t x, ab_error *err) {
    c->nlvl1 = c->nlvl2 = 0;
    for (size_t e = c->g.first[x]; e < c->g.first[x + 1]; e++) {
        size_t c1 = c->g.adj[e];
        if (c->pos[c1] == SIZE_MAX) continue;
        if (c->pos[x] > c->pos[c1]) c->lvl1[c->nlvl1++] = c1;
        size_t deg = c->g.first[c1 + 1] - c->g.first[c1];
        if (!ab_grow((void **)&c->lvl2, &c->cap2, c->nlvl2 + deg + 1, sizeof *c->lvl2))
            return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
        for (size_t f = c->g.first[c1]; f < c->g.first[c1 + 1]; f++) {
            size_t c2 = c->g.adj[f];
            if (c->pos[c2] != SIZE_MAX && c->pos[c1] > c->pos[c2]) c->lvl2[c->nlvl2++] = c2;
        }
    }
    ab_sort(c->lvl1, c->nlvl1, sizeof *c->lvl1, by_pos, c->pos);
    ab_sort(c->lvl2, c->nlvl2, sizeof *c->lvl2, by_pos, c->pos); /* lvl2 may be NULL when empty */
    return AB_OK;
}

/* Picks the next move: a swap of two positions in the order, or none
 * (*moved false). */
static ab_status climb_move(climb *c, size_t *i1, size_t *i2, bool *moved, ab_error *err) {
    size_t ntops;
    *moved = false;
    climb_tops(c, &ntops);
    if (ntops == 0) return AB_OK;
    size_t node = c->busy[(size_t)usmp_rand(&c->seed) % ntops];
    ab_status st = climb_neighbours(c, node, err);
    if (st != AB_OK || c->nlvl1 == 0) return st;
    size_t b1 = c->lvl1[(size_t)usmp_rand(&c->seed) % c->nlvl1], b2 = b1;
    while (b2 == b1) {
        if (c->nlvl2 > 0 && usmp_rand(&c->seed) % 100 > 25)
            b2 = c->lvl2[(size_t)usmp_rand(&c->seed) % c->nlvl2];
        else
            b2 = c->lvl1[(size_t)usmp_rand(&c->seed) % c->nlvl1];
        if (c->nlvl2 < 2 && c->nlvl1 < 2) break;
    }
    if (b1 == b2) return AB_OK;
    *i1 = c->pos[b1];
    *i2 = c->pos[b2];
    climb_swap(c, *i1, *i2);
    *moved = true;
    return AB_OK;
}

/* Copies placement (loc, pool) of n tensors from a to b. */
static void copy_placement(int64_t *loc_to, int *pool_to, const int64_t *loc_from,
                           const int *pool_from, size_t n) {
    memcpy(loc_to, loc_from, n * sizeof *loc_to);
    memcpy(pool_to, pool_from, n * sizeof *pool_to);
}

/* A change of the live bytes at an instruction. */
typedef struct load_ev {
    int64_t at, delta;
} load_ev;

/* By instruction; at one instruction, tensors leaving before tensors arriving. */
static int by_event(const void *pa, const void *pb) {
    const load_ev *a = pa, *b = pb;
    if (a->at != b->at) return a->at < b->at ? -1 : 1;
    return (a->delta > b->delta) - (a->delta < b->delta);
}

/* The max-load bound of p: the largest sum of sizes live at one instruction
 * (TVM's "memory pressure"), by a sweep over starts and ends + 1. Saturates
 * at INT64_MAX. */
static ab_status max_load(const ab_problem *p, int64_t *out, ab_error *err) {
    load_ev *ev = ab_alloc_array(2 * p->n + 1, sizeof *ev);
    if (ev == NULL) return ab_fail(err, AB_ENOMEM, "out of memory computing the max-load bound");
    for (size_t i = 0; i < p->n; i++) {
        ev[2 * i] = (load_ev){p->t[i].start, p->t[i].size};
        ev[2 * i + 1] = (load_ev){p->t[i].end + 1, -p->t[i].size};
    }
    qsort(ev, 2 * p->n, sizeof *ev, by_event);
    int64_t live = 0, best = 0;
    for (size_t e = 0; e < 2 * p->n; e++) {
        if (ab_add_ovf(live, ev[e].delta, &live)) live = INT64_MAX;
        if (live > best) best = live;
    }
    ab_free(ev);
    *out = best;
    return AB_OK;
}

static void climb_free(climb *c) {
    usmp_free(&c->u);
    graph_free(&c->g);
    ab_free(c->ord);
    ab_free(c->pos);
    ab_free(c->loc_prev);
    ab_free(c->loc_best);
    ab_free(c->pool_prev);
    ab_free(c->pool_best);
    ab_free(c->stamp);
    ab_free(c->busy);
    ab_free(c->lvl1);
    ab_free(c->lvl2);
}

/* Everything the climb needs: pools, fixed tensors, the conflict graph, the
 * greedy-by-size order and the scratch arrays. */
static ab_status climb_init(climb *c, const ab_problem *p, ab_error *err) {
    memset(c, 0, sizeof *c);
    ab_status st = usmp_init(&c->u, p, "usmp-hill-climb", err);
    if (st == AB_OK) st = place_fixed(&c->u, err);
    if (st == AB_OK) st = graph_build(p, &c->g, err);
    if (st == AB_OK) st = greedy_order(p, true, &c->ord, &c->nfree, err);
    if (st != AB_OK) return st;
    size_t n = p->n ? p->n : 1;
    c->pos = ab_alloc_array(n, sizeof *c->pos);
    c->loc_prev = ab_calloc(n, sizeof *c->loc_prev);
    c->loc_best = ab_calloc(n, sizeof *c->loc_best);
    c->pool_prev = ab_calloc(n, sizeof *c->pool_prev);
    c->pool_best = ab_calloc(n, sizeof *c->pool_best);
    c->stamp = ab_calloc(n, sizeof *c->stamp);
    c->busy = ab_alloc_array(n, sizeof *c->busy);
    c->lvl1 = ab_alloc_array(n, sizeof *c->lvl1);
    if (!c->pos || !c->loc_prev || !c->loc_best || !c->pool_prev || !c->pool_best || !c->stamp ||
        !c->busy || !c->lvl1)
        return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
    for (size_t i = 0; i < p->n; i++) c->pos[i] = SIZE_MAX;
    for (size_t r = 0; r < c->nfree; r++) c->pos[c->ord[r]] = r;
    return AB_OK;
}

/* TVM's acceptance: the first attempt with room, a better one, or a worse one
 * with probability 50 x (total - current) / total / attempts percent. */
static bool climb_accepts(climb *c, int64_t current, int64_t total, bool no_room,
                          int64_t attempts) {
    if (current == 0) return true;
    if (no_room) return false;
    if (current > total) return true;
    u128 pct = (u128)50 * (uint64_t)(total - current);
    pct = pct / (uint64_t)total / (uint64_t)attempts;
    return usmp_rand(&c->seed) % 100 < (int)pct;
}

/* The climb itself; the accepted placement ends in loc_best / pool_best. */
static ab_status climb_run(climb *c, int64_t iterations, int64_t desired, int64_t *tried,
                           int64_t *accepted_total, ab_error *err) {
    usmp *u = &c->u;
    size_t n = u->p->n, swap1 = SIZE_MAX, swap2 = SIZE_MAX;
    int64_t current = 0, attempts;
    for (attempts = 0; attempts < iterations; attempts++) {
        copy_placement(c->loc_prev, c->pool_prev, u->loc, u->pool, n);
        bool no_room, moved;
        int64_t total;
        ab_status st = climb_attempt(c, (size_t)attempts + 1, &no_room, err);
        if (st == AB_OK) st = climb_highs(c, &total, err);
        if (st != AB_OK) return st;
        if (total == 0)
            return ab_fail(err, AB_ECHECK, "%s: no pool holds any tensor; larger pool sizes are "
                           "needed", u->who);
        if (climb_accepts(c, current, total, no_room, attempts)) {
            copy_placement(c->loc_best, c->pool_best, u->loc, u->pool, n);
            if (!no_room) {
                current = total;
                if (current <= desired) break;
            }
        } else {
            climb_swap(c, swap2, swap1);
            copy_placement(u->loc, u->pool, c->loc_prev, c->pool_prev, n);
            st = climb_highs(c, &total, err);
            if (st != AB_OK) return st;
        }
        size_t i1 = 0, i2 = 0;
        st = climb_move(c, &i1, &i2, &moved, err);
        if (st != AB_OK) return st;
        if (moved) {
            swap1 = i1;
            swap2 = i2;
        }
    }
    *tried = attempts < iterations ? attempts + 1 : attempts;
    *accepted_total = current;
    return AB_OK;
}

static ab_status hill_climb_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                 ab_plan_stats *stats, ab_error *err) {
    int64_t seed = ab_param_i64(opt, "seed"), iterations = ab_param_i64(opt, "iterations");
    int64_t desired = 0, tried = 0, total = 0;
    climb c;
    ab_status st = climb_init(&c, p, err);
    c.seed = (unsigned)seed;
    if (st == AB_OK) st = max_load(p, &desired, err);
    if (st == AB_OK && c.nfree > 0) st = climb_run(&c, iterations, desired, &tried, &total, err);
    else if (st == AB_OK) copy_placement(c.loc_best, c.pool_best, c.u.loc, c.u.pool, p->n);
    for (size_t i = 0; st == AB_OK && i < p->n; i++)
        if (c.pool_best[i] < 0)
            st = ab_fail(err, AB_ECHECK,
                         "%s: no pool holds '%s' (%lld bytes) in the last accepted placement; "
                         "larger pool sizes are needed",
                         c.u.who, p->t[i].name, (long long)p->t[i].size);
    if (st == AB_OK) {
        copy_placement(c.u.loc, c.u.pool, c.loc_best, c.pool_best, p->n);
        joint_offsets(&c.u, offsets);
        stats->nodes = tried;
        stats->lower_bound = AB_NONE;
        snprintf(stats->note, sizeof stats->note,
                 "hill climb: %lld attempts, total %lld, max-load %lld, seed %lld",
                 (long long)tried, (long long)total, (long long)desired, (long long)seed);
    }
    climb_free(&c);
    return st;
}

/* ---- the reference planner ---------------------------------------------------- */

static const ab_param_desc ref_climb_params[] = {
    {"seed", "integer 0 .. 2^32-1", "0", "seed", AB_PARAM_INT, 0, 4294967295, false},
    {"iterations", "integer 1 .. 10^8", "500", "attempts at most", AB_PARAM_INT, 1, 100000000,
     false},
    {0},
};

static const ab_planner ref_usmp_hill_climb = {
    .name = "usmp-hill-climb-reference",
    .summary = "the hill climb before issue 14, for tests",
    .flags = AB_PLANNER_POOLS | AB_PLANNER_TEST,
    .params = ref_climb_params,
    .plan = hill_climb_plan,
};
