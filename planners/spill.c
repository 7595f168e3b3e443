/*
 * spill.c — memory pools for every planner (planner.h, ab_planner_plan): a
 * planner that places tensors in pools itself (AB_PLANNER_POOLS: the USMP
 * ones) plans a pooled suite as it is; any other planner plans it through
 * one generic spill rule, pool by pool:
 *
 *   1. The tensors still to place (all of them, at first) are planned, as
 *      one arena, into the first pool, with the tensors whose fixed offset
 *      lies in that pool at their offsets within it.
 *   2. When the plan's top passes the pool's size, the tensors that do not
 *      fit (their end above the size) spill to the next pool, largest first
 *      (ties: earlier start, then suite order), until the bytes spilled
 *      cover the overflow; the rest is planned again (a heuristic's plan of
 *      fewer tensors is not always lower), until it fits.
 *   3. The spilled tensors are planned into the next pool the same way; the
 *      last pool takes what is left (the checker holds it to its size, if
 *      it has one).
 *
 * Offsets come back in the pools' joint address space (pool base + offset
 * in the pool), as the checker reads them. The planner's bounds and proofs
 * speak of the one-arena sub-problems it was given, not of the suite (whose
 * arena is the sum of the pools' used bytes, alignment relative to each
 * pool): they are dropped, its search nodes summed, and the note says how
 * many tensors and bytes each pool took. The oracle's own bounds still hold.
 */
#include "planners/planner.h"

#include "core/sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct spill {
    const ab_planner *pl;
    const ab_params *opt;
    const ab_problem *p;
    size_t *pool;        /* per tensor: its pool, AB_NO_POOL while unplaced */
    bool *fixed;         /* per tensor: its offset is fixed */
    size_t *idx;         /* the sub-problem's tensors, as indices into p */
    int64_t *sub_off;    /* the sub-problem's offsets */
    size_t *order;       /* scratch: overflowing tensors, to sort */
    int rounds;
    int64_t nodes;
    bool capped;
} spill;

/* The sub-problem of pool k: the unplaced tensors that are not fixed, and
 * the tensors fixed in k at their offsets within it. */
static ab_status build_sub(spill *s, size_t k, ab_problem *sub, size_t *n, ab_error *err) {
    const ab_problem *p = s->p;
    ab_problem_init(sub);
    sub->io = p->io;
    int64_t base = ab_pool_base(p, k);
    *n = 0;
    for (size_t i = 0; i < p->n; i++) {
        bool mine = s->fixed[i] ? ab_pool_find(p, p->t[i].offset) == k : s->pool[i] == AB_NO_POOL;
        if (!mine) continue;
        ab_tensor t = p->t[i];
        if (s->fixed[i]) t.offset -= base;
        ab_status st = ab_problem_add(sub, &t, err);
        if (st != AB_OK) return st;
        s->idx[(*n)++] = i;
    }
    sub->name = ab_strdup(p->name ? p->name : "pool");
    return sub->name != NULL ? AB_OK : ab_fail(err, AB_ENOMEM, "out of memory planning pools");
}

/* By size, larger first; then earlier start; then suite order. */
static int by_spill_order(const void *a, const void *b, const void *ctx) {
    const ab_problem *p = ctx;
    const ab_tensor *x = &p->t[*(const size_t *)a], *y = &p->t[*(const size_t *)b];
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* Spills, largest first, the tensors of the sub-problem (n tensors, planned)
 * whose end passes limit, until the bytes spilled cover used - limit.
 * Returns how many spilled (0: only fixed tensors overflow). */
static size_t spill_overflow(spill *s, size_t n, int64_t used, int64_t limit) {
    const ab_problem *p = s->p;
    size_t m = 0;
    for (size_t j = 0; j < n; j++) {
        size_t i = s->idx[j];
        if (!s->fixed[i] && s->sub_off[j] + p->t[i].size > limit) s->order[m++] = i;
    }
    ab_sort(s->order, m, sizeof *s->order, by_spill_order, p);
    int64_t moved = 0;
    size_t spilled = 0;
    for (size_t j = 0; j < m && moved < used - limit; j++, spilled++) {
        s->pool[s->order[j]] = AB_NO_POOL - 1; /* spilled: planned in a later pool */
        moved += p->t[s->order[j]].size;
    }
    return spilled;
}

/* Plans the tensors for pool k until they fit its size (or it is the last
 * pool); their offsets, joint, into offsets. */
static ab_status plan_pool(spill *s, size_t k, int64_t *offsets, ab_plan_stats *st,
                           ab_error *err) {
    const ab_problem *p = s->p;
    int64_t limit = p->pools[k].size, base = ab_pool_base(p, k);
    bool last = k + 1 == p->npools;
    for (;;) {
        ab_problem sub;
        size_t n;
        ab_status rc = build_sub(s, k, &sub, &n, err);
        if (rc == AB_OK && n > 0) {
            for (size_t j = 0; j < n; j++) s->sub_off[j] = AB_NONE;
            memset(st, 0, sizeof *st);
            st->lower_bound = AB_NONE;
            rc = s->pl->plan(&sub, s->opt, s->sub_off, st, err);
            s->rounds++;
            s->nodes += st->nodes;
            s->capped |= st->capped;
        }
        ab_problem_free(&sub);
        if (rc != AB_OK || n == 0) return rc;
        int64_t used = 0;
        for (size_t j = 0; j < n; j++)
            if (s->sub_off[j] + p->t[s->idx[j]].size > used)
                used = s->sub_off[j] + p->t[s->idx[j]].size;
        if (last || limit == AB_NONE || used <= limit ||
            spill_overflow(s, n, used, limit) == 0) {
            for (size_t j = 0; j < n; j++) {
                offsets[s->idx[j]] = base + s->sub_off[j];
                s->pool[s->idx[j]] = k;
            }
            return AB_OK;
        }
    }
}

/* "spill: fast 3 tensors 200704 B, slow 2 tensors 1117462 B (4 rounds)". */
static void spill_note(const spill *s, const int64_t *offsets, ab_plan_stats *st) {
    const ab_problem *p = s->p;
    size_t used = (size_t)snprintf(st->note, sizeof st->note, "spill:");
    for (size_t k = 0; k < p->npools && used < sizeof st->note; k++) {
        int64_t top = 0, base = ab_pool_base(p, k);
        size_t count = 0;
        for (size_t i = 0; i < p->n; i++) {
            if (s->pool[i] != k) continue;
            count++;
            if (offsets[i] - base + p->t[i].size > top) top = offsets[i] - base + p->t[i].size;
        }
        used += (size_t)snprintf(st->note + used, sizeof st->note - used, "%s %s %zu tensors %lld B",
                                 k ? "," : "", p->pools[k].name, count, (long long)top);
    }
    if (used < sizeof st->note)
        snprintf(st->note + used, sizeof st->note - used, " (%d rounds)", s->rounds);
}

/* Pools the spill rule places the tensors in, pool by pool. */
static ab_status plan_spilling(spill *s, int64_t *offsets, ab_plan_stats *st, ab_error *err) {
    const ab_problem *p = s->p;
    for (size_t i = 0; i < p->n; i++) {
        s->fixed[i] = p->t[i].offset != AB_NONE;
        s->pool[i] = AB_NO_POOL;
        if (s->fixed[i] && ab_pool_find(p, p->t[i].offset) == AB_NO_POOL)
            return ab_fail(err, AB_EINPUT, "%s: the fixed offset %lld of '%s' lies in no pool",
                           s->pl->name, (long long)p->t[i].offset, p->t[i].name);
    }
    for (size_t k = 0; k < p->npools; k++) {
        ab_status rc = plan_pool(s, k, offsets, st, err);
        if (rc != AB_OK) return rc;
        for (size_t i = 0; i < p->n; i++)
            if (s->pool[i] == AB_NO_POOL - 1) s->pool[i] = AB_NO_POOL; /* unplaced again */
        bool left = false;
        for (size_t i = 0; i < p->n; i++) left |= !s->fixed[i] && s->pool[i] == AB_NO_POOL;
        if (!left) break;
    }
    for (size_t i = 0; i < p->n; i++)
        if (s->fixed[i]) {
            offsets[i] = p->t[i].offset;
            s->pool[i] = ab_pool_find(p, p->t[i].offset);
        }
    memset(st, 0, sizeof *st);
    st->lower_bound = AB_NONE;
    st->nodes = s->nodes;
    st->capped = s->capped;
    spill_note(s, offsets, st);
    return AB_OK;
}

ab_status ab_planner_plan(const ab_planner *pl, const ab_params *opt, const ab_problem *p,
                          int64_t *offsets, ab_plan_stats *st, ab_error *err) {
    /* opt resolved here, borrowing its keys and values: so pl reads values
     * checked against its own table whatever the caller did with opt */
    ab_params mine = {0};
    if (opt != NULL) mine.n = opt->n, mine.v = opt->v;
    ab_status rs = ab_params_bind(pl->name, pl->params, &mine, NULL, err);
    if (rs != AB_OK) return rs;
    opt = &mine;
    if (p->npools < 2 || (pl->flags & AB_PLANNER_POOLS)) return pl->plan(p, opt, offsets, st, err);
    size_t n = p->n ? p->n : 1;
    spill s = {.pl = pl, .opt = opt, .p = p};
    s.pool = ab_alloc_array(n, sizeof *s.pool);
    s.fixed = ab_alloc_array(n, sizeof *s.fixed);
    s.idx = ab_alloc_array(n, sizeof *s.idx);
    s.sub_off = ab_alloc_array(n, sizeof *s.sub_off);
    s.order = ab_alloc_array(n, sizeof *s.order);
    ab_status rc = AB_OK;
    if (s.pool == NULL || s.fixed == NULL || s.idx == NULL || s.sub_off == NULL || s.order == NULL)
        rc = ab_fail(err, AB_ENOMEM, "out of memory planning pools");
    if (rc == AB_OK) rc = plan_spilling(&s, offsets, st, err);
    ab_free(s.pool);
    ab_free(s.fixed);
    ab_free(s.idx);
    ab_free(s.sub_off);
    ab_free(s.order);
    return rc;
}
