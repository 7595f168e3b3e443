/*
 * peer_tflm.c — planner `tflm-greedy`: the greedy memory planner of
 * TensorFlow Lite Micro (GreedyMemoryPlanner), written from its described
 * behaviour so a user sees what TFLM would do with their model.
 *
 * The rule, in order:
 *   1. every size is rounded up to a multiple of `round` (default 16: TFLM's
 *      allocator aligns each buffer's size to 16 bytes before it calls the
 *      planner; the planner's own tests use round=1);
 *   2. tensors with a fixed offset (TFLM's "offline planned" buffers) are
 *      placed first, at that offset, in suite order and unchecked;
 *   3. the other tensors go in decreasing rounded size; among equal sizes the
 *      tensor that comes later in the suite goes first (TFLM fills its list
 *      from the tail and sorts it with a stable sort);
 *   4. each goes into the lowest gap, between the already placed tensors that
 *      conflict with it taken in order of offset, that holds its rounded
 *      size, or on top of them.
 *
 * Beyond TFLM, which has one alignment (16, kept by its rounded sizes): a gap
 * start is rounded up to the tensor's align, so a suite with larger
 * alignments still gets a valid plan; with every align dividing `round` the
 * plan is TFLM's. Inclusive live ranges, as TFLM's (first_time_used,
 * last_time_used). One arena: no pools (see planner.h).
 */
#include "planners/planner.h"

#include <stdio.h>
#include <stdlib.h>

#include "planners/space.h"

/* A tensor to order: its rounded size and index. */
typedef struct tflm_key {
    int64_t size;
    size_t idx;
} tflm_key;

/* Decreasing rounded size; on equal sizes the later tensor first. */
static int tflm_cmp(const void *pa, const void *pb) {
    const tflm_key *a = pa, *b = pb;
    if (a->size != b->size) return a->size > b->size ? -1 : 1;
    return (a->idx < b->idx) - (a->idx > b->idx);
}

/* The working state of one plan. */
typedef struct tflm {
    const ab_problem *p;
    int64_t *rsize;   /* rounded sizes */
    int64_t *offsets; /* the result, filled as tensors are placed */
    abp_space *placed;
} tflm;

/* Records tensor i at its offset with its rounded size. */
static ab_status tflm_record(tflm *s, size_t i, ab_error *err) {
    int64_t hi;
    if (ab_add_ovf(s->offsets[i], s->rsize[i], &hi))
        return ab_fail(err, AB_EINPUT, "placing '%s': offsets overflow 64 bits", s->p->t[i].name);
    return abp_space_place(s->placed, i, s->offsets[i], hi, err);
}

/* Places tensor i (not fixed) into the lowest gap among its placed
 * conflicts. TFLM walks them in order of offset, the candidate rising past
 * each range it collides with: the first-fit rule, which the free-space
 * index answers on the union of their (rounded) ranges with the same
 * result (space.h). */
static ab_status tflm_place(tflm *s, size_t i, ab_error *err) {
    const ab_tensor *t = &s->p->t[i];
    if (!abp_space_first_fit(s->placed, i, s->rsize[i], t->align, &s->offsets[i]))
        return ab_fail(err, AB_EINPUT, "placing '%s': the arena overflows 64 bits", t->name);
    return tflm_record(s, i, err);
}

/* Fills s->rsize and the placement order of the tensors without a fixed
 * offset into keys (*nkeys of them). */
static ab_status tflm_prepare(tflm *s, int64_t round, tflm_key *keys, size_t *nkeys,
                              ab_error *err) {
    *nkeys = 0;
    for (size_t i = 0; i < s->p->n; i++) {
        const ab_tensor *t = &s->p->t[i];
        if (ab_align_up_ovf(t->size, round, &s->rsize[i]))
            return ab_fail(err, AB_EINPUT, "'%s': size overflows when rounded up to %lld", t->name,
                           (long long)round);
        if (t->offset == AB_NONE) keys[(*nkeys)++] = (tflm_key){s->rsize[i], i};
    }
    qsort(keys, *nkeys, sizeof *keys, tflm_cmp);
    return AB_OK;
}

static ab_status tflm_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                           ab_plan_stats *st, ab_error *err) {
    int64_t round = ab_param_i64(opt, "round");
    st->lower_bound = AB_NONE;
    tflm T = {.p = p, .offsets = offsets};
    size_t n = p->n ? p->n : 1, nkeys = 0;
    T.rsize = ab_alloc_array(n, sizeof *T.rsize);
    tflm_key *keys = ab_alloc_array(n, sizeof *keys);
    ab_status s = T.rsize && keys ? abp_space_new(p, &T.placed, err)
                        : ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
    if (s == AB_OK) s = tflm_prepare(&T, round, keys, &nkeys, err);
    for (size_t i = 0; s == AB_OK && i < p->n; i++) { /* fixed offsets first, unchecked */
        if (p->t[i].offset == AB_NONE) continue;
        offsets[i] = p->t[i].offset;
        s = tflm_record(&T, i, err);
    }
    for (size_t r = 0; s == AB_OK && r < nkeys; r++) {
        /* the next tensors' part of the index, asked for ahead (space.h) */
        if (r + 8 < nkeys) abp_space_prefetch(T.placed, keys[r + 8].idx, 0);
        if (r + 4 < nkeys) abp_space_prefetch(T.placed, keys[r + 4].idx, 1);
        if (r + 2 < nkeys) abp_space_prefetch(T.placed, keys[r + 2].idx, 2);
        s = tflm_place(&T, keys[r].idx, err);
    }
    if (s == AB_OK) snprintf(st->note, sizeof st->note, "tflm-greedy, sizes rounded to %lld",
                             (long long)round);
    abp_space_free(T.placed);
    ab_free(T.rsize);
    ab_free(keys);
    return s;
}

static const ab_param_desc tflm_params[] = {
    {"round", "integer 1 .. 2^30", "16",
     "sizes rounded up to a multiple of this first (TFLM's allocator: 16; its planner tests: 1)",
     AB_PARAM_INT, 1, (int64_t)1 << 30, false},
    {0},
};

/* The registry row of `tflm-greedy` (registry.c). */
const ab_planner abp_tflm_greedy = {
    .name = "tflm-greedy",
    .summary = "TFLite Micro's greedy planner: by size, later first on ties, lowest gap",
    .flags = AB_PLANNER_DEFAULT,
    .params = tflm_params,
    .plan = tflm_plan,
};
