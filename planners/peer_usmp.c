/*
 * peer_usmp.c — the planners of TVM's Unified Static Memory Planner (USMP),
 * written from their described behaviour: `usmp-greedy-by-size`,
 * `usmp-greedy-by-conflicts` and `usmp-hill-climb`. They are the planners
 * here that place tensors in a suite's pools (AB_PLANNER_POOLS).
 *
 * Pools. A suite's pools (core/problem.h) are the ordered candidate pools of
 * every tensor, each with an optional size limit; a suite without pools is
 * one unbounded pool. A tensor goes into the first pool, in order, where it
 * fits; when none does the planner fails, naming the tensor and what each
 * pool lacks. Offsets are returned in the pools' joint address space (pool
 * base + offset in the pool). A tensor with a fixed offset (TVM has none) is
 * placed first, at it, in the pool that offset falls in.
 *
 * usmp-greedy-by-size / usmp-greedy-by-conflicts. Order: by size decreasing,
 * then number of conflicts decreasing, then name decreasing (by-conflicts:
 * conflicts first, then size, then name). No gap reuse: in each pool a tensor
 * goes on top of the highest already placed tensor that conflicts with it
 * there, that top rounded up to the conflicting tensor's align; the first
 * pool whose limit that leaves room under takes it. (TVM's bookkeeping can
 * let a pool that a higher conflict ruled out come back for a lower one and
 * then overlap; here a pool ruled out stays out.)
 *
 * usmp-hill-climb. Starts from the greedy-by-size order and, once per
 * attempt, places every tensor in that order by first fit: in each pool, the
 * placed conflicts are taken by offset and the tensor rises past each one it
 * collides with (to its end rounded up to that one's align); a placed
 * conflict whose end leaves no room under the pool's limit rules the pool
 * out for this tensor. The total is the sum of the pools' used bytes. The
 * first attempt is accepted; later ones are accepted when better, or when
 * worse with probability 50 x (total - current) / total / attempts percent
 * (integer arithmetic, as TVM's); a rejected attempt is undone (its swap
 * reversed, the previous placement kept). It stops when an accepted total
 * reaches the max-load bound, or after `iterations` attempts (500). Each
 * attempt then picks, at random, a tensor that ends at the top of its pool,
 * and swaps in the order one of its conflicts placed earlier with a conflict
 * of a conflict placed earlier than that one (or another conflict). The
 * random numbers follow glibc's rand_r from `seed` (0), so the defaults take
 * the path TVM's tests take on Linux; the same input gives the same plan.
 * The result is the last accepted placement, as TVM returns it.
 *
 * Scale (issue 14). The conflict lists are compressed rows of 4-byte indices
 * (8 bytes a conflicting pair, sized by counting before anything is
 * allocated); a suite with more pairs than `max-pairs` (2 x 10^8, 1.5 GiB)
 * stops with a limit status saying how many it has, not an out-of-memory.
 * An attempt after the first re-places only the tensors a swap can change
 * (see climb), and the climb's plans are the full re-plan's, byte for byte
 * (tests/test_hillclimb_scale.c checks them against that re-plan). The
 * moves themselves are TVM's, whatever they cost: the second-level
 * neighbours take the sum of the neighbours' degrees in time, n in memory.
 *
 * Beyond TVM, which gives every buffer of a pool one alignment: a tensor's
 * offset is also rounded up to its own align, so suites with mixed
 * alignments get valid plans; with one alignment throughout the plan is
 * TVM's. Inclusive live ranges, as TVM's liveness conflicts.
 */
#include "planners/planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "planners/space.h"

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

/* The failure when no pool holds tensor b: what each pool lacks. at[k] is
 * where b would have gone in pool k (-1 when its limit is below b's size). */
static ab_status no_pool(const usmp *u, size_t b, const int64_t *at, ab_error *err) {
    const ab_tensor *t = &u->p->t[b];
    char why[700];
    size_t used = 0;
    why[0] = '\0';
    for (size_t k = 0; k < u->npool && used < sizeof why; k++) {
        const char *name = ab_pool_name(u->p, k), *sep = k ? "; " : "";
        if (at[k] < 0)
            used += (size_t)snprintf(why + used, sizeof why - used, "%s'%s' holds %lld bytes",
                                     sep, name, (long long)u->limit[k]);
        else
            used += (size_t)snprintf(why + used, sizeof why - used,
                                     "%s'%s' (%lld bytes) is taken up to %lld by its conflicts",
                                     sep, name, (long long)u->limit[k], (long long)at[k]);
    }
    return ab_fail(err, AB_ECHECK,
                   "%s: no pool holds '%s' (%lld bytes, live [%lld, %lld]): %s; larger pool "
                   "sizes are needed",
                   u->who, t->name, (long long)t->size, (long long)t->start, (long long)t->end,
                   why);
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

/* Conflicts, then size, then name, all decreasing. */
static int by_conflicts(const void *pa, const void *pb) {
    const ukey *a = pa, *b = pb;
    if (a->conflicts != b->conflicts) return a->conflicts > b->conflicts ? -1 : 1;
    if (a->size != b->size) return a->size > b->size ? -1 : 1;
    return -strcmp(a->name, b->name);
}

/* The tensors without a fixed offset in the planner's order, into *order
 * (owned by the caller) and their number into *n. */
static ab_status greedy_order(const ab_problem *p, bool size_first, size_t **order, size_t *n,
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
    if (st == AB_OK) qsort(keys, *n, sizeof *keys, size_first ? by_size : by_conflicts);
    for (size_t r = 0; st == AB_OK && r < *n; r++) (*order)[r] = keys[r].idx;
    ab_free(count);
    ab_free(keys);
    if (st != AB_OK) {
        ab_free(*order);
        *order = NULL;
    }
    return st;
}

/* ---- greedy by size, greedy by conflicts --------------------------------------- */

/* The placed tensors of each pool, in a free-space index of their own
 * (space.h), made when the pool takes its first tensor: a tensor's top in a
 * pool is the top of the union of its placed conflicts' ranges there, each
 * range [loc, end rounded up to its tensor's align). */
typedef struct placed {
    abp_space *pool[AB_MAX_POOLS];
} placed;

/* Records tensor c, placed, in its pool's index. */
static ab_status record(const usmp *u, placed *pl, size_t c, ab_error *err) {
    int64_t end;
    int k = u->pool[c];
    if (!aligned_end(u, c, &end))
        return ab_fail(err, AB_EINPUT, "%s: placing '%s': offsets overflow 64 bits", u->who,
                       u->p->t[c].name);
    if (pl->pool[k] == NULL) {
        ab_status st = abp_space_new(u->p, &pl->pool[k], err);
        if (st != AB_OK) return st;
    }
    return abp_space_place(pl->pool[k], c, u->loc[c], end, err);
}

/* Places tensor b on top of its placed conflicts in the first pool with room. */
static ab_status greedy_place(usmp *u, placed *pl, size_t b, ab_error *err) {
    const ab_tensor *t = &u->p->t[b];
    int64_t at[AB_MAX_POOLS];
    for (size_t k = 0; k < u->npool; k++) {
        at[k] = -1;
        if (!fits(u, k, 0, t->size)) continue;
        int64_t top = pl->pool[k] ? abp_space_top(pl->pool[k], b) : 0;
        if (ab_align_up_ovf(top, t->align, &at[k]))
            return ab_fail(err, AB_EINPUT, "%s: placing '%s': offsets overflow 64 bits", u->who,
                           t->name);
        if (!fits(u, k, at[k], t->size)) continue;
        int64_t end;
        if (ab_add_ovf(at[k], t->size, &end) || ab_add_ovf(end, u->base[k], &end))
            return ab_fail(err, AB_EINPUT, "%s: placing '%s': offsets overflow 64 bits", u->who,
                           t->name);
        u->pool[b] = (int)k;
        u->loc[b] = at[k];
        return record(u, pl, b, err);
    }
    return no_pool(u, b, at, err);
}

static ab_status greedy_plan(const ab_problem *p, bool size_first, const char *who,
                             int64_t *offsets, ab_plan_stats *stats, ab_error *err) {
    usmp u;
    placed pl = {{0}};
    size_t *order = NULL, n = 0;
    ab_status st = usmp_init(&u, p, who, err);
    if (st == AB_OK) st = place_fixed(&u, err);
    if (st == AB_OK) st = greedy_order(p, size_first, &order, &n, err);
    for (size_t i = 0; st == AB_OK && i < p->n; i++)
        if (p->t[i].offset != AB_NONE) st = record(&u, &pl, i, err);
    for (size_t r = 0; st == AB_OK && r < n; r++) {
        /* the next tensors' part of each pool's index, asked for ahead (space.h) */
        for (size_t k = 0; k < u.npool; k++) {
            if (pl.pool[k] == NULL) continue;
            if (r + 8 < n) abp_space_prefetch(pl.pool[k], order[r + 8], 0);
            if (r + 4 < n) abp_space_prefetch(pl.pool[k], order[r + 4], 1);
            if (r + 2 < n) abp_space_prefetch(pl.pool[k], order[r + 2], 2);
        }
        st = greedy_place(&u, &pl, order[r], err);
    }
    if (st == AB_OK) {
        joint_offsets(&u, offsets);
        stats->lower_bound = AB_NONE;
        snprintf(stats->note, sizeof stats->note, "%s over %zu pool%s", who, u.npool,
                 u.npool == 1 ? "" : "s");
    }
    for (size_t k = 0; k < AB_MAX_POOLS; k++) abp_space_free(pl.pool[k]);
    ab_free(order);
    usmp_free(&u);
    return st;
}

static ab_status by_size_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                              ab_plan_stats *st, ab_error *err) {
    return greedy_plan(p, true, "usmp-greedy-by-size", offsets, st, err);
}

static ab_status by_conflicts_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                   ab_plan_stats *st, ab_error *err) {
    return greedy_plan(p, false, "usmp-greedy-by-conflicts", offsets, st, err);
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

/* Every conflict of every tensor, as compressed adjacency lists (CSR): the
 * conflicts of i are adj[first[i] .. first[i + 1]), in no particular order
 * (every use sorts what it takes). 4 bytes per entry, 8 per conflicting pair,
 * nothing quadratic beyond the pairs themselves. */
typedef struct graph {
    size_t *first; /* n + 1 entries */
    uint32_t *adj; /* 2 x the conflicting pairs */
} graph;

static void graph_free(graph *g) {
    ab_free(g->first);
    ab_free(g->adj);
    g->first = NULL;
    g->adj = NULL;
}

/* Tensor indices by start, ties by index; ctx is the problem. */
static int by_start(const void *pa, const void *pb, const void *ctx) {
    const ab_problem *p = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    const ab_tensor *x = &p->t[a], *y = &p->t[b];
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (a > b) - (a < b);
}

/* Builds g: the degrees first, by counting (conflict_counts, n log n), which
 * also gives the size of the lists before any is allocated; more than
 * max_pairs conflicting pairs is AB_ELIMIT, saying how many there are. Then
 * one sweep in order of start over the live set fills the lists: every
 * tensor still live when another starts conflicts with it, so the sweep
 * costs the pairs plus n log n. */
static ab_status graph_build(const ab_problem *p, int64_t max_pairs, graph *g, ab_error *err) {
    size_t n = p->n, m2 = 0, nact = 0;
    memset(g, 0, sizeof *g);
    if (n >= UINT32_MAX)
        return ab_fail(err, AB_EINPUT, "usmp-hill-climb: %zu tensors; at most %u are supported", n,
                       UINT32_MAX - 1);
    g->first = ab_calloc(n + 1, sizeof *g->first);
    size_t *idx = ab_alloc_array(n ? n : 1, sizeof *idx);
    size_t *act = ab_alloc_array(n ? n : 1, sizeof *act);
    ab_status st = g->first && idx && act ? conflict_counts(p, g->first + 1, err)
                                          : ab_fail(err, AB_ENOMEM, "out of memory finding conflicts");
    for (size_t i = 0; st == AB_OK && i < n; i++) m2 += g->first[i + 1];
    if (st == AB_OK && m2 / 2 > (uint64_t)max_pairs)
        st = ab_fail(err, AB_ELIMIT,
                     "usmp-hill-climb: %zu tensors with %zu conflicting pairs, more than "
                     "max-pairs=%lld (the conflict lists take 8 bytes a pair: %.0f MiB)",
                     n, m2 / 2, (long long)max_pairs, (double)m2 * 4.0 / 1048576.0);
    if (st == AB_OK) {
        g->adj = ab_alloc_array(m2 ? m2 : 1, sizeof *g->adj);
        if (g->adj == NULL)
            st = ab_fail(err, AB_ENOMEM, "out of memory for the conflict lists of %zu pairs",
                         m2 / 2);
    }
    if (st == AB_OK) {
        for (size_t i = 0; i < n; i++) g->first[i + 1] += g->first[i];
        for (size_t i = 0; i < n; i++) idx[i] = i;
        ab_sort(idx, n, sizeof *idx, by_start, p);
        /* act[] holds the live tensors; first[i] runs ahead as i's list fills and
         * is moved back afterwards */
        for (size_t r = 0; r < n; r++) {
            size_t i = idx[r], keep = 0;
            for (size_t a = 0; a < nact; a++) /* drop the tensors that ended before i starts */
                if (p->t[act[a]].end >= p->t[i].start) act[keep++] = act[a];
            nact = keep;
            for (size_t a = 0; a < nact; a++) {
                g->adj[g->first[act[a]]++] = (uint32_t)i;
                g->adj[g->first[i]++] = (uint32_t)act[a];
            }
            act[nact++] = i;
        }
        for (size_t i = n; i > 0; i--) g->first[i] = g->first[i - 1];
        g->first[0] = 0;
    }
    ab_free(idx);
    ab_free(act);
    if (st != AB_OK) graph_free(g);
    return st;
}

/* One entry of the undo log of an attempt: a tensor's placement before it. */
typedef struct undo_ent {
    size_t t;
    int64_t loc;
    int pool;
} undo_ent;

/* A placed tensor by joint offset, ties by index. */
typedef struct jkey {
    int64_t at;
    size_t i;
} jkey;

static bool jkey_less(const jkey *a, const jkey *b) {
    return a->at != b->at ? a->at < b->at : a->i < b->i;
}

/* Sorts k[0 .. n) by jkey_less (keys are distinct): quicksort on the median
 * of three, the smaller side first, insertion sort below 16; inlined, since
 * sorting the conflicts is most of the climb's time. */
static void jkey_sort(jkey *k, size_t n) {
    while (n > 16) {
        size_t mid = n / 2;
        jkey t;
        if (jkey_less(&k[mid], &k[0])) { t = k[mid]; k[mid] = k[0]; k[0] = t; }
        if (jkey_less(&k[n - 1], &k[0])) { t = k[n - 1]; k[n - 1] = k[0]; k[0] = t; }
        if (jkey_less(&k[n - 1], &k[mid])) { t = k[n - 1]; k[n - 1] = k[mid]; k[mid] = t; }
        jkey pivot = k[mid];
        size_t i = 0, j = n - 1;
        for (;;) {
            while (jkey_less(&k[i], &pivot)) i++;
            while (jkey_less(&pivot, &k[j])) j--;
            if (i >= j) break;
            t = k[i]; k[i] = k[j]; k[j] = t;
            i++;
            j--;
        }
        /* k[0 .. j] <= pivot <= k[j + 1 .. n) */
        size_t left = j + 1;
        if (left < n - left) {
            jkey_sort(k, left);
            k += left;
            n -= left;
        } else {
            jkey_sort(k + left, n - left);
            n = left;
        }
    }
    for (size_t a = 1; a < n; a++) {
        jkey t = k[a];
        size_t b = a;
        for (; b > 0 && jkey_less(&t, &k[b - 1]); b--) k[b] = k[b - 1];
        k[b] = t;
    }
}

/* The chain of a tensor's first fit: the conflicts, in order of the scan,
 * that made it rise (it rose to each one's end rounded up to both aligns).
 * Kept when at most CHAIN_CAP long (CHAIN_NONE otherwise), beside the one
 * before the attempt (an undo goes back to it), it tells whether a conflict's place can change the
 * tensor's own (passes_over). */
#define CHAIN_CAP 4096
#define CHAIN_NONE UINT32_MAX
typedef struct chain_ent {
    int64_t loc;  /* the conflict's offset in the pool when it was passed */
    size_t i;     /* the conflict */
} chain_ent;

/* One tensor's chain: ent[0 .. n), n CHAIN_NONE when not known. */
typedef struct chain {
    chain_ent *ent;
    uint32_t n, cap;
} chain;

/* The hill climb's state beyond the shared one.
 *
 * Incremental attempts. An attempt places the tensors by first fit in the
 * order, and the place of the tensor at position r depends only on the
 * places of its conflicts at positions before r (and the fixed tensors). So
 * the placement of the new order is the placement of the order it was last
 * made for (pos_done), re-placing only: every tensor whose position changed,
 * every conflict that one crossed unless its place lies where the conflict's
 * first fit passes over it (passes_over), and, transitively, every later
 * conflict of a tensor whose place changed unless its old and new places
 * both lie where the later one's first fit passes over them; in order of
 * position (a heap). That is the full re-plan's placement, tensor for
 * tensor. A rejected attempt is undone from its log. */
typedef struct climb {
    usmp u;              /* the placement of the current attempt (loc, pool) */
    graph g;
    size_t nfree;        /* tensors without a fixed offset */
    size_t *ord;         /* ord[position] = tensor, nfree entries */
    size_t *pos;         /* pos[tensor] = position, or SIZE_MAX for a fixed tensor */
    size_t *pos_done;    /* pos[tensor] the placement was made for */
    unsigned seed;
    int64_t *loc_best;   /* the accepted placement */
    int *pool_best;
    size_t nmissing;     /* free tensors in no pool (no room) */
    size_t *busy;        /* scratch: tensors at the top of their pool */
    jkey *keys;          /* scratch: placed conflicts of one tensor */
    size_t *lvl1, nlvl1; /* neighbours of the chosen tensor, by position */
    size_t *lvl2, *cum2, ndist2, nlvl2; /* conflicts of those placed before them: distinct,
                                           by position, with cumulative repeats; nlvl2 with
                                           repeats */
    uint32_t *mult;      /* scratch per tensor, zero between uses */
    size_t *heap, nheap; /* tensors to re-place, by position */
    unsigned char *queued;
    size_t *moved, nmoved, capmoved;      /* tensors swapped since the last attempt */
    undo_ent *undo;                       /* the attempt's changes of places */
    size_t nundo, capundo;
    size_t *undo_pos, nundo_pos, capundo_pos; /* pairs (tensor, old pos_done) */
    bool logging;        /* record changes (not in the first attempt) */
    chain *chain;        /* per tensor two: 2 x tensor + side[tensor] is its chain, the
                            other the one an undo goes back to */
    uint8_t *side;
    chain_ent *scratch;  /* the chain of the tensor being placed, before it is kept */
    int64_t high[AB_MAX_POOLS];
} climb;

/* Tensors by position in the order; ctx is the positions (climb.pos). */
static int by_pos(const void *pa, const void *pb, const void *ctx) {
    const size_t *pos = ctx;
    size_t a = pos[*(const size_t *)pa], b = pos[*(const size_t *)pb];
    return (a > b) - (a < b);
}

/* First fit of tensor b among its conflicts placed before it; a tensor no
 * pool holds is left in no pool, at 0. *changed when its place changed. */
static ab_status climb_place(climb *c, size_t b, bool *changed, ab_error *err) {
    usmp *u = &c->u;
    const ab_tensor *t = &u->p->t[b];
    size_t nb = 0;
    for (size_t e = c->g.first[b]; e < c->g.first[b + 1]; e++) {
        size_t x = c->g.adj[e];
        if (c->pos[x] == SIZE_MAX || c->pos[x] < c->pos[b])
            if (u->pool[x] >= 0) c->keys[nb++] = (jkey){u->base[u->pool[x]] + u->loc[x], x};
    }
    jkey_sort(c->keys, nb);
    int64_t cand[AB_MAX_POOLS];
    bool alive[AB_MAX_POOLS];
    size_t nrose = 0;
    for (size_t k = 0; k < u->npool; k++) {
        cand[k] = 0;
        alive[k] = fits(u, k, 0, t->size);
    }
    for (size_t j = 0; j < nb; j++) {
        size_t x = c->keys[j].i, k = (size_t)u->pool[x];
        int64_t next;
        if (!alive[k]) continue;
        if (!aligned_end(u, x, &next) || ab_align_up_ovf(next, t->align, &next) ||
            ab_add_ovf(next, t->size, &(int64_t){0}))
            return ab_fail(err, AB_EINPUT, "%s: placing '%s': offsets overflow 64 bits", u->who,
                           t->name);
        if (!fits(u, k, next, t->size)) alive[k] = false;
        else if (next > cand[k] && cand[k] + t->size > u->loc[x]) {
            cand[k] = next;
            c->scratch[nrose++] = (chain_ent){u->loc[x], x};
        }
    }
    int pool = -1;
    int64_t loc = 0;
    for (size_t k = 0; k < u->npool && pool < 0; k++)
        if (alive[k]) {
            pool = (int)k;
            loc = cand[k];
        }
    /* keep the chain in the chosen pool */
    size_t kept = 0;
    if (c->logging) c->side[b] ^= 1; /* the old chain stays for an undo */
    chain *ch = &c->chain[2 * b + c->side[b]];
    ch->n = CHAIN_NONE;
    for (size_t j = 0; j < nrose; j++) kept += (int)u->pool[c->scratch[j].i] == pool;
    if (pool >= 0 && kept <= CHAIN_CAP) {
        size_t cap = ch->cap;
        if (!ab_grow((void **)&ch->ent, &cap, kept, sizeof *ch->ent))
            return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
        ch->cap = (uint32_t)cap;
        ch->n = 0;
        for (size_t j = 0; j < nrose; j++)
            if ((int)u->pool[c->scratch[j].i] == pool) ch->ent[ch->n++] = c->scratch[j];
    }
    *changed = pool != u->pool[b] || loc != u->loc[b];
    if (c->logging) { /* every tensor placed again, for its chain */
        if (!ab_grow((void **)&c->undo, &c->capundo, c->nundo + 1, sizeof *c->undo))
            return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
        c->undo[c->nundo++] = (undo_ent){b, u->loc[b], u->pool[b]};
    }
    if (!*changed) return AB_OK;
    if (u->pool[b] < 0) c->nmissing--;
    if (pool < 0) c->nmissing++;
    u->pool[b] = pool;
    u->loc[b] = loc;
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

/* The heap of tensors to re-place, smallest position on top. */
static void heap_push(climb *c, size_t t) {
    if (c->queued[t]) return;
    c->queued[t] = 1;
    size_t i = c->nheap++;
    while (i > 0 && c->pos[c->heap[(i - 1) / 2]] > c->pos[t]) {
        c->heap[i] = c->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    c->heap[i] = t;
}

static size_t heap_pop(climb *c) {
    size_t top = c->heap[0], last = c->heap[--c->nheap], i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = l;
        if (l >= c->nheap) break;
        if (l + 1 < c->nheap && c->pos[c->heap[l + 1]] < c->pos[c->heap[l]]) m = l + 1;
        if (c->pos[c->heap[m]] >= c->pos[last]) break;
        c->heap[i] = c->heap[m];
        i = m;
    }
    c->heap[i] = last;
    c->queued[top] = 0;
    return top;
}


/* true when tensor b at (pool, loc) (pool -1: in none) among the placed
 * conflicts of tensor x, placed, cannot change x's first fit: the scan by
 * offset only rises past a conflict that starts below where it stands, so
 * one in x's pool whose end leaves room for x under the pool's limit and
 * that the scan, as x's chain says it went, passes over (it starts at or
 * above where the scan stood, or ends at or below it) is a no-op whether
 * it comes or goes (one that made the scan rise is not: it is in the
 * chain); one in a later pool does not touch x's pool. Anything else (an
 * earlier pool, which it may close or open; an offset that may overflow)
 * says false, and x is placed again. */
static bool passes_over(const climb *c, size_t x, size_t b, int pool, int64_t loc) {
    const usmp *u = &c->u;
    const ab_tensor *t = &u->p->t[x], *tb = &u->p->t[b];
    int64_t next;
    if (pool < 0) return true;
    if (pool < u->pool[x]) return false;
    if (ab_add_ovf(loc, tb->size, &next) || ab_align_up_ovf(next, tb->align, &next) ||
        ab_align_up_ovf(next, t->align, &next) || ab_add_ovf(next, t->size, &(int64_t){0}))
        return false;
    if (pool > u->pool[x]) return true;
    if (!fits(u, (size_t)pool, next, t->size)) return false;
    if (loc >= u->loc[x] + t->size) return true;
    const chain *cx = &c->chain[2 * x + c->side[x]];
    if (cx->n == CHAIN_NONE) return false;
    /* where the scan stood when it came to b: past the chain's entries
     * before b in its order (offset, then index) */
    const chain_ent *ch = cx->ent;
    size_t lo = 0, hi = cx->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ch[mid].loc < loc || (ch[mid].loc == loc && ch[mid].i < b)) lo = mid + 1;
        else hi = mid;
    }
    int64_t cand = 0;
    if (lo > 0) { /* the end of the last one it rose past, as the scan rounded it */
        const ab_tensor *tc = &u->p->t[ch[lo - 1].i];
        cand = ch[lo - 1].loc + tc->size; /* did not overflow in the scan */
        ab_align_up_ovf(cand, tc->align, &cand);
        ab_align_up_ovf(cand, t->align, &cand);
    }
    return !(next > cand && cand + t->size > loc);
}

/* Queues the conflicts of tensor b, which moved between positions lo and hi
 * (its place as yet unchanged), that it crossed and whose first fit it may
 * touch: a conflict before lo or after hi has b on the same side as before
 * (after hi, b's change of place, if any, is seen when b is placed again),
 * and one that moved itself is queued anyway. */
static void queue_crossed(climb *c, size_t b, size_t lo, size_t hi) {
    for (size_t e = c->g.first[b]; e < c->g.first[b + 1]; e++) {
        size_t x = c->g.adj[e];
        if (c->pos[x] == SIZE_MAX || c->pos[x] <= lo || c->pos[x] >= hi || c->queued[x])
            continue;
        if (c->u.pool[x] >= 0 && passes_over(c, x, b, c->u.pool[b], c->u.loc[b])) continue;
        heap_push(c, x);
    }
}

/* Queues the conflicts of tensor b at positions after b's whose place its
 * move from (pool, loc) may change. */
static void queue_affected(climb *c, size_t b, int pool, int64_t loc) {
    for (size_t e = c->g.first[b]; e < c->g.first[b + 1]; e++) {
        size_t x = c->g.adj[e];
        if (c->pos[x] == SIZE_MAX || c->pos[x] <= c->pos[b] || c->queued[x]) continue;
        if (c->u.pool[x] >= 0 && passes_over(c, x, b, pool, loc) &&
            passes_over(c, x, b, c->u.pool[b], c->u.loc[b]))
            continue;
        heap_push(c, x);
    }
}

/* One attempt over the current order: the first one places every tensor,
 * later ones re-place what the moves since changed (see climb). *no_room
 * when some tensor is in no pool. */
static ab_status climb_attempt(climb *c, bool first, bool *no_room, ab_error *err) {
    ab_status st = AB_OK;
    bool changed;
    *no_room = false;
    c->nundo = c->nundo_pos = 0;
    c->logging = !first;
    if (first) {
        for (size_t r = 0; st == AB_OK && r < c->nfree; r++)
            st = climb_place(c, c->ord[r], &changed, err);
        for (size_t r = 0; r < c->nfree; r++) c->pos_done[c->ord[r]] = r;
        c->nmoved = 0;
    } else {
        for (size_t j = 0; j < c->nmoved; j++) {
            size_t b = c->moved[j], was = c->pos_done[b], now = c->pos[b];
            if (was == now) continue;
            if (!ab_grow((void **)&c->undo_pos, &c->capundo_pos, c->nundo_pos + 2,
                         sizeof *c->undo_pos))
                return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
            c->undo_pos[c->nundo_pos++] = b;
            c->undo_pos[c->nundo_pos++] = was;
            c->pos_done[b] = now;
            heap_push(c, b);
            queue_crossed(c, b, was < now ? was : now, was < now ? now : was);
        }
        c->nmoved = 0;
        while (st == AB_OK && c->nheap > 0) {
            size_t b = heap_pop(c);
            int pool = c->u.pool[b];
            int64_t loc = c->u.loc[b];
            st = climb_place(c, b, &changed, err);
            if (st == AB_OK && changed) queue_affected(c, b, pool, loc);
        }
        while (c->nheap > 0) heap_pop(c); /* after an error */
    }
    *no_room = c->nmissing > 0;
    return st;
}

/* Undoes the last attempt: places and positions as they were before it; the
 * tensors whose position it took in are to be looked at again. */
static ab_status climb_undo(climb *c, ab_error *err) {
    usmp *u = &c->u;
    for (size_t j = c->nundo; j > 0; j--) {
        const undo_ent *e = &c->undo[j - 1];
        if (u->pool[e->t] < 0) c->nmissing--;
        if (e->pool < 0) c->nmissing++;
        u->loc[e->t] = e->loc;
        u->pool[e->t] = e->pool;
        c->side[e->t] ^= 1; /* the chain of the placement it goes back to */
    }
    c->nundo = 0;
    for (size_t j = c->nundo_pos; j > 0; j -= 2) {
        size_t b = c->undo_pos[j - 2];
        c->pos_done[b] = c->undo_pos[j - 1];
        if (!ab_grow((void **)&c->moved, &c->capmoved, c->nmoved + 1, sizeof *c->moved))
            return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
        c->moved[c->nmoved++] = b;
    }
    c->nundo_pos = 0;
    return AB_OK;
}

/* Swaps the tensors at positions i1 and i2 of the order (nothing when equal),
 * noting them for the next attempt. */
static ab_status climb_swap(climb *c, size_t i1, size_t i2, ab_error *err) {
    if (i1 == i2) return AB_OK;
    size_t b1 = c->ord[i1], b2 = c->ord[i2];
    c->ord[i1] = b2;
    c->ord[i2] = b1;
    c->pos[b1] = i2;
    c->pos[b2] = i1;
    if (!ab_grow((void **)&c->moved, &c->capmoved, c->nmoved + 2, sizeof *c->moved))
        return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
    c->moved[c->nmoved++] = b1;
    c->moved[c->nmoved++] = b2;
    return AB_OK;
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
 * (lvl1), and the conflicts placed before them of all its conflicts (lvl2:
 * TVM's list with repeats, sorted by position, is kept as its distinct
 * tensors by position with cumulative counts, so it takes at most n entries
 * whatever the degrees). */
static void climb_neighbours(climb *c, size_t x) {
    c->nlvl1 = c->nlvl2 = c->ndist2 = 0;
    for (size_t e = c->g.first[x]; e < c->g.first[x + 1]; e++) {
        size_t c1 = c->g.adj[e];
        if (c->pos[c1] == SIZE_MAX) continue;
        if (c->pos[x] > c->pos[c1]) c->lvl1[c->nlvl1++] = c1;
        for (size_t f = c->g.first[c1]; f < c->g.first[c1 + 1]; f++) {
            size_t c2 = c->g.adj[f];
            if (c->pos[c2] != SIZE_MAX && c->pos[c1] > c->pos[c2]) {
                if (c->mult[c2]++ == 0) c->lvl2[c->ndist2++] = c2;
                c->nlvl2++;
            }
        }
    }
    ab_sort(c->lvl1, c->nlvl1, sizeof *c->lvl1, by_pos, c->pos);
    ab_sort(c->lvl2, c->ndist2, sizeof *c->lvl2, by_pos, c->pos);
    size_t sum = 0;
    for (size_t j = 0; j < c->ndist2; j++) {
        sum += c->mult[c->lvl2[j]];
        c->mult[c->lvl2[j]] = 0;
        c->cum2[j] = sum;
    }
}

/* Entry k (0-based) of the sorted lvl2 list with repeats. */
static size_t lvl2_at(const climb *c, size_t k) {
    size_t lo = 0, hi = c->ndist2 - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->cum2[mid] > k) hi = mid;
        else lo = mid + 1;
    }
    return c->lvl2[lo];
}

/* Picks the next move: a swap of two positions in the order, or none
 * (*moved false). */
static ab_status climb_move(climb *c, size_t *i1, size_t *i2, bool *moved, ab_error *err) {
    size_t ntops;
    *moved = false;
    climb_tops(c, &ntops);
    if (ntops == 0) return AB_OK;
    size_t node = c->busy[(size_t)usmp_rand(&c->seed) % ntops];
    climb_neighbours(c, node);
    if (c->nlvl1 == 0) return AB_OK;
    size_t b1 = c->lvl1[(size_t)usmp_rand(&c->seed) % c->nlvl1], b2 = b1;
    while (b2 == b1) {
        if (c->nlvl2 > 0 && usmp_rand(&c->seed) % 100 > 25)
            b2 = lvl2_at(c, (size_t)usmp_rand(&c->seed) % c->nlvl2);
        else
            b2 = c->lvl1[(size_t)usmp_rand(&c->seed) % c->nlvl1];
        if (c->nlvl2 < 2 && c->nlvl1 < 2) break;
    }
    if (b1 == b2) return AB_OK;
    *i1 = c->pos[b1];
    *i2 = c->pos[b2];
    *moved = true;
    return climb_swap(c, *i1, *i2, err);
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
    ab_free(c->pos_done);
    ab_free(c->loc_best);
    ab_free(c->pool_best);
    ab_free(c->busy);
    ab_free(c->keys);
    ab_free(c->lvl1);
    ab_free(c->lvl2);
    ab_free(c->cum2);
    ab_free(c->mult);
    ab_free(c->heap);
    ab_free(c->queued);
    for (size_t i = 0; c->chain != NULL && i < 2 * c->u.p->n; i++) ab_free(c->chain[i].ent);
    ab_free(c->chain);
    ab_free(c->side);
    ab_free(c->scratch);
    ab_free(c->moved);
    ab_free(c->undo);
    ab_free(c->undo_pos);
}

/* Everything the climb needs: pools, fixed tensors, the conflict graph, the
 * greedy-by-size order and the scratch arrays. */
static ab_status climb_init(climb *c, const ab_problem *p, int64_t max_pairs, ab_error *err) {
    memset(c, 0, sizeof *c);
    ab_status st = usmp_init(&c->u, p, "usmp-hill-climb", err);
    if (st == AB_OK) st = place_fixed(&c->u, err);
    if (st == AB_OK) st = graph_build(p, max_pairs, &c->g, err);
    if (st == AB_OK) st = greedy_order(p, true, &c->ord, &c->nfree, err);
    if (st != AB_OK) return st;
    size_t n = p->n ? p->n : 1;
    c->pos = ab_alloc_array(n, sizeof *c->pos);
    c->pos_done = ab_alloc_array(n, sizeof *c->pos_done);
    c->loc_best = ab_calloc(n, sizeof *c->loc_best);
    c->pool_best = ab_calloc(n, sizeof *c->pool_best);
    c->busy = ab_alloc_array(n, sizeof *c->busy);
    c->keys = ab_alloc_array(n, sizeof *c->keys);
    c->lvl1 = ab_alloc_array(n, sizeof *c->lvl1);
    c->lvl2 = ab_alloc_array(n, sizeof *c->lvl2);
    c->cum2 = ab_alloc_array(n, sizeof *c->cum2);
    c->mult = ab_calloc(n, sizeof *c->mult);
    c->heap = ab_alloc_array(n, sizeof *c->heap);
    c->chain = ab_calloc(2 * n, sizeof *c->chain);
    c->side = ab_calloc(n, sizeof *c->side);
    c->scratch = ab_alloc_array(n, sizeof *c->scratch);
    c->queued = ab_calloc(n, sizeof *c->queued);
    if (!c->pos || !c->pos_done || !c->loc_best || !c->pool_best || !c->busy || !c->keys || !c->lvl1 ||
        !c->lvl2 || !c->cum2 || !c->mult || !c->heap || !c->queued ||
        !c->chain || !c->side || !c->scratch)
        return ab_fail(err, AB_ENOMEM, "out of memory in the hill climb");
    for (size_t i = 0; i < p->n; i++) {
        c->pos[i] = c->pos_done[i] = SIZE_MAX;
        c->chain[2 * i].n = c->chain[2 * i + 1].n = CHAIN_NONE;
    }
    for (size_t r = 0; r < c->nfree; r++) c->pos[c->ord[r]] = r;
    c->nmissing = c->nfree; /* in no pool until the first attempt */
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
        bool no_room, moved;
        int64_t total;
        ab_status st = climb_attempt(c, attempts == 0, &no_room, err);
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
            st = climb_undo(c, err);
            if (st == AB_OK) st = climb_swap(c, swap2, swap1, err);
            if (st == AB_OK) st = climb_highs(c, &total, err);
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
    int64_t max_pairs = ab_param_i64(opt, "max-pairs"), desired = 0, tried = 0, total = 0;
    climb c;
    ab_status st = climb_init(&c, p, max_pairs, err);
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

/* ---- the planners ------------------------------------------------------------------ */

static const ab_param_desc no_params[] = {{0}};

static const ab_param_desc climb_params[] = {
    {"seed", "integer 0 .. 2^32-1", "0",
     "seed of the random moves (glibc rand_r's sequence; 0 as TVM on Linux)", AB_PARAM_INT, 0,
     4294967295, false},
    {"iterations", "integer 1 .. 10^8", "500", "attempts at most (TVM: 500)", AB_PARAM_INT, 1,
     100000000, false},
    {"max-pairs", "integer >= 0", "200000000",
     "conflicting pairs at most (8 bytes each); more stops with a limit status", AB_PARAM_INT, 0,
     INT64_MAX, false},
    {0},
};

/* The registry rows of the three USMP planners (registry.c). */
const ab_planner abp_usmp_greedy_by_size = {
    .name = "usmp-greedy-by-size",
    .summary = "TVM USMP greedy by size: largest first, on top of its conflicts, first pool "
               "with room",
    .flags = AB_PLANNER_POOLS | AB_PLANNER_DEFAULT,
    .params = no_params,
    .plan = by_size_plan,
};

const ab_planner abp_usmp_greedy_by_conflicts = {
    .name = "usmp-greedy-by-conflicts",
    .summary = "TVM USMP greedy by conflicts: most conflicts first, on top of its conflicts",
    .flags = AB_PLANNER_POOLS | AB_PLANNER_DEFAULT,
    .params = no_params,
    .plan = by_conflicts_plan,
};

const ab_planner abp_usmp_hill_climb = {
    .name = "usmp-hill-climb",
    .summary = "TVM USMP hill climb: first fit in a greedy order improved by random swaps",
    .flags = AB_PLANNER_POOLS,
    .params = climb_params,
    .plan = hill_climb_plan,
};
