/*
 * peer_tflite_gpu.c — planner `tflite-gpu-greedy-by-size`: the offset
 * assignment of TensorFlow Lite's GPU delegate (GreedyBySizeAssignment),
 * written from its described behaviour.
 *
 * The rule, in order:
 *   1. tensors with a fixed offset are placed first, at it, in suite order
 *      (TFLite has none; they are taken as already placed);
 *   2. the others go in decreasing size, ties in suite order;
 *   3. each looks at the already placed tensors that conflict with it in
 *      order of offset and keeps the running top `prev`: the largest end seen
 *      so far, rounded up to `align` (TFLite's base_addr_align_bytes). The
 *      space between prev and the offset of the next such tensor is a gap;
 *      the tensor goes into the smallest gap that holds it (the first of
 *      equal ones), at the gap's start. The open space above every conflict
 *      is never a gap: only when no gap holds it does the tensor go there, at
 *      the final prev.
 *
 * Beyond TFLite, which aligns every tensor alike: a gap start is rounded up
 * to the tensor's own align too, so suites with per-tensor alignments still
 * get valid plans; with align 1 tensors (or aligns dividing `align`) the plan
 * is TFLite's. Inclusive live ranges, as TFLite's (first_task, last_task).
 * One arena: no pools (see planner.h).
 *
 * TFLite's own test, a chain of five tensors of 16, 8, 64, 32 and 8 bytes
 * live on [0,1], [1,2], [2,3], [3,4], [4,5]: offsets 0, 64, 0, 64, 0 and
 * total 96; with align=128, offsets 0, 128, 0, 128, 0 and total 160
 * (suites/peers/tflite_gpu_chain*.yaml).
 */
#include "planners/planner.h"

#include <stdio.h>
#include <stdlib.h>

#include "planners/space.h"

/* A tensor to order: its size and index. */
typedef struct gpu_key {
    int64_t size;
    size_t idx;
} gpu_key;

/* Decreasing size, ties in suite order. */
static int gpu_cmp(const void *pa, const void *pb) {
    const gpu_key *a = pa, *b = pb;
    if (a->size != b->size) return a->size > b->size ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The best-fit walk over busy ranges sorted by lo, whose hi is already the
 * end rounded up to the delegate's alignment. false on overflow. */
static bool best_interior_gap(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                              int64_t *offset) {
    int64_t prev = 0, best = -1, best_gap = 0, at, end;
    for (size_t j = 0; j < n; j++) {
        if (busy[j].lo >= prev) {
            int64_t gap = busy[j].lo - prev;
            if (ab_align_up_ovf(prev, align, &at)) return false;
            if (!ab_add_ovf(at, size, &end) && end <= busy[j].lo && (best < 0 || gap < best_gap)) {
                best = at;
                best_gap = gap;
            }
        }
        if (busy[j].hi > prev) prev = busy[j].hi;
    }
    if (best < 0 && ab_align_up_ovf(prev, align, &best)) return false;
    if (ab_add_ovf(best, size, &end)) return false;
    *offset = best;
    return true;
}

/* The working state of one plan. */
typedef struct gpu {
    const ab_problem *p;
    int64_t end_align; /* the `align` parameter */
    int64_t *offsets;
    abp_space *placed;
} gpu;

/* Records tensor i at its offset, its end rounded up to end_align. */
static ab_status gpu_record(gpu *s, size_t i, ab_error *err) {
    int64_t hi;
    if (ab_add_ovf(s->offsets[i], s->p->t[i].size, &hi) || ab_align_up_ovf(hi, s->end_align, &hi))
        return ab_fail(err, AB_EINPUT, "placing '%s': offsets overflow 64 bits", s->p->t[i].name);
    return abp_space_place(s->placed, i, s->offsets[i], hi, err);
}

/* Places tensor i (not fixed) by the rule among its placed conflicts. The
 * walk reads only the gaps of the union of their (rounded) ranges, so the
 * free-space index runs it on the union's intervals (space.h). */
static ab_status gpu_place(gpu *s, size_t i, ab_error *err) {
    const ab_tensor *t = &s->p->t[i];
    ab_status st = abp_space_rule(s->placed, i, best_interior_gap, t->size, t->align,
                                  &s->offsets[i], err);
    return st == AB_OK ? gpu_record(s, i, err) : st;
}

static ab_status gpu_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                          ab_plan_stats *st, ab_error *err) {
    gpu G = {.p = p, .offsets = offsets, .end_align = ab_param_i64(opt, "align")};
    st->lower_bound = AB_NONE;
    size_t nkeys = 0;
    gpu_key *keys = ab_alloc_array(p->n ? p->n : 1, sizeof *keys);
    ab_status s = keys ? abp_space_new(p, &G.placed, err)
             : ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
    for (size_t i = 0; s == AB_OK && i < p->n; i++) {
        if (p->t[i].offset == AB_NONE) {
            keys[nkeys++] = (gpu_key){p->t[i].size, i};
            continue;
        }
        offsets[i] = p->t[i].offset;
        s = gpu_record(&G, i, err);
    }
    if (s == AB_OK) qsort(keys, nkeys, sizeof *keys, gpu_cmp);
    for (size_t r = 0; s == AB_OK && r < nkeys; r++) {
        /* the next tensors' part of the index, asked for ahead (space.h) */
        if (r + 8 < nkeys) abp_space_prefetch(G.placed, keys[r + 8].idx, 0);
        if (r + 4 < nkeys) abp_space_prefetch(G.placed, keys[r + 4].idx, 1);
        if (r + 2 < nkeys) abp_space_prefetch(G.placed, keys[r + 2].idx, 2);
        s = gpu_place(&G, keys[r].idx, err);
    }
    if (s == AB_OK)
        snprintf(st->note, sizeof st->note, "tflite-gpu greedy by size, ends aligned to %lld",
                 (long long)G.end_align);
    abp_space_free(G.placed);
    ab_free(keys);
    return s;
}

static const ab_param_desc gpu_params[] = {
    {"align", "integer 1 .. 2^40", "1",
     "every placed tensor's end rounded up to this (TFLite's base_addr_align_bytes)",
     AB_PARAM_INT, 1, (int64_t)1 << 40, false},
    {0},
};

/* The registry row of `tflite-gpu-greedy-by-size` (registry.c). */
const ab_planner abp_tflite_gpu_greedy_by_size = {
    .name = "tflite-gpu-greedy-by-size",
    .summary = "TFLite GPU delegate's offsets: by size, best interior gap, else on top",
    .flags = AB_PLANNER_DEFAULT,
    .params = gpu_params,
    .plan = gpu_plan,
};
