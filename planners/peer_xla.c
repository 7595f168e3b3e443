/*
 * peer_xla.c — planners `xla-best-fit` and `xla-constrained-best-fit`: the
 * heap algorithms of XLA's heap simulator, GlobalDecreasingSizeBestFitHeap
 * and ConstrainedGlobalDecreasingSizeBestFitHeap
 * (xla/service/heap_simulator/heap_simulator.{h,cc}, openxla/xla at
 * 0e06ac8223feb02e71adc5643a8d2d79b72673af), written from their described
 * behaviour so a user sees what XLA's buffer assignment would do with the
 * same live ranges.
 *
 * XLA's clock. XLA's heap algorithm never sees instruction indices: the
 * simulator replays the schedule and calls Alloc and Free on it, and every
 * call is one tick of the algorithm's clock. A buffer lives from the tick of
 * its Alloc to the tick of its Free, both included. The replay, in order:
 *   R1. the tensors are taken by (start, end, suite order) (XLA sorts its
 *       values by live-range start, end and id);
 *   R2. for each instruction in turn: one Alloc for every tensor starting
 *       there, in that order, then one Free for every tensor ending there,
 *       in that order; an instruction with neither takes no tick.
 * XLA's live ranges are inclusive like ours and the Allocs of an instruction
 * precede its Frees, so two tensors overlap in ticks exactly when their
 * [start, end] ranges meet: the conflicts are ours. The ticks matter only to
 * the order below, through a tensor's duration (Free tick - Alloc tick).
 *
 * `xla-best-fit`, the rule, in order:
 *   1. the alignment A: the `align` parameter (XLA's heap `alignment`, any
 *      integer >= 1, default 1) and every tensor's own align, by their least
 *      common multiple, so every offset honours every tensor; a suite of
 *      uniform alignment a with align=1 is XLA's heap at alignment a;
 *   2. tensors with a fixed offset are placed first, at it, in suite order
 *      (XLA has none; they are taken as already placed);
 *   3. the others are sorted once, globally: sort=spatial (XLA's kSpatial,
 *      its default) by decreasing size, then decreasing duration, then suite
 *      order; sort=temporal (kTemporal) by decreasing duration, then
 *      decreasing size, then suite order;
 *   4. for each in that order, the placed tensors it conflicts with are
 *      taken by offset and joined into groups of overlapping byte ranges
 *      (ranges that only touch stay apart); the free chunks are: below each
 *      group, from a cursor to the group's start, kept only when at least as
 *      long as the tensor (the cursor is 0, then the end of the group below
 *      rounded up to A, never lowered); above the last group, from the
 *      cursor to INT64_MAX;
 *   5. the tensor goes at the start of the shortest such chunk (its length
 *      being end - start, so the open chunk's is INT64_MAX - start and it is
 *      taken only when no other holds the tensor); ties: the lowest offset.
 *
 * `xla-constrained-best-fit:size_limit=B` splits the tensors over several
 * heaps, each of at most B bytes where it can:
 *   6. the order of step 3; heap 0 holds the fixed tensors, if any;
 *   7. each heap in turn walks the tensors not yet placed, in that order,
 *      each at the offset steps 4-5 give among the tensors already in this
 *      heap: it stays when it ends at or below B, or when the heap is still
 *      empty (XLA's limit is soft: a tensor larger than B gets a heap of its
 *      own); otherwise it waits for the next heap;
 *   8. heaps are made until every tensor has one.
 * XLA returns one offset per buffer within its heap and a heap_size per heap,
 * and its total heap_size is their sum. Here the heaps sit one after another
 * in one address space: heap k starts where heap k-1 ends, rounded up to the
 * suite's largest tensor align (no rounding when every align is 1), and
 * offsets are heap base + offset within the heap. The arena is therefore
 * XLA's total heap_size, plus that rounding when the suite has alignments:
 * the memory of all heaps taken together, not the size of any one of them
 * (the planner's note, kept in a run's row, gives each heap's bytes).
 *
 * Not modelled (the heap algorithm is modelled, not the rest of XLA's buffer
 * assignment): memory-space assignment and prefetching (MSA), sliced
 * allocations, preferred offsets and repacking; aliasing, in-place operand
 * reuse (may_reuse_operand_buffers) and colocations (ShareWith), as every
 * tensor here is its own buffer; zero-size buffers; the other packing
 * strategies (kCustom, kFastMerge, kFastSplit, kPhaseWindow, kSpatialTemporal),
 * the lowest-offset chunk placement, and the search over several of them
 * (ChooseBestHeapAlgorithm). Pools: none of XLA's; a suite's pools go through
 * the spill rule (planner.h) like any one-arena planner's.
 *
 * XLA's own tests (heap_simulator_test.cc) are suites/peers/xla_*.yaml.
 */
#include "planners/planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "planners/space.h"

/* ---- the clock (R1, R2) ------------------------------------------------------ */

/* (start, end, index): the replay's order of Allocs. */
static int by_start(const void *pa, const void *pb, const void *ctx) {
    const ab_tensor *t = ((const ab_problem *)ctx)->t;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (t[a].start != t[b].start) return t[a].start < t[b].start ? -1 : 1;
    if (t[a].end != t[b].end) return t[a].end < t[b].end ? -1 : 1;
    return (a > b) - (a < b);
}

/* (end, start, index): the replay's order of Frees at one instruction. */
static int by_end(const void *pa, const void *pb, const void *ctx) {
    const ab_tensor *t = ((const ab_problem *)ctx)->t;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (t[a].end != t[b].end) return t[a].end < t[b].end ? -1 : 1;
    if (t[a].start != t[b].start) return t[a].start < t[b].start ? -1 : 1;
    return (a > b) - (a < b);
}

/* Fills dur[i] with tensor i's duration in XLA's ticks: the replay R1-R2,
 * walking the Allocs and the Frees in step. AB_ENOMEM on failure. */
static ab_status xla_durations(const ab_problem *p, int64_t *dur, ab_error *err) {
    size_t n = p->n, m = n ? n : 1;
    size_t *allocs = ab_alloc_array(m, sizeof *allocs), *frees = ab_alloc_array(m, sizeof *frees);
    int64_t *born = ab_alloc_array(m, sizeof *born);
    if (allocs == NULL || frees == NULL || born == NULL) {
        ab_free(allocs);
        ab_free(frees);
        ab_free(born);
        return ab_fail(err, AB_ENOMEM, "out of memory replaying %zu tensors", n);
    }
    for (size_t i = 0; i < n; i++) allocs[i] = frees[i] = i;
    ab_sort(allocs, n, sizeof *allocs, by_start, p);
    ab_sort(frees, n, sizeof *frees, by_end, p);
    int64_t tick = 0;
    for (size_t a = 0, f = 0; f < n;) {
        /* the next instruction with an event: a start at or before the next end */
        bool alloc_next = a < n && p->t[allocs[a]].start <= p->t[frees[f]].end;
        int64_t now = alloc_next ? p->t[allocs[a]].start : p->t[frees[f]].end;
        for (; a < n && p->t[allocs[a]].start == now; a++) born[allocs[a]] = tick++;
        for (; f < n && p->t[frees[f]].end == now; f++) dur[frees[f]] = tick++ - born[frees[f]];
    }
    ab_free(allocs);
    ab_free(frees);
    ab_free(born);
    return AB_OK;
}

/* ---- the order (step 3) ------------------------------------------------------ */

/* A tensor to order: its size, duration in ticks and index. */
typedef struct xla_key {
    int64_t size, dur;
    size_t idx;
} xla_key;

/* kSpatial: decreasing size, decreasing duration, suite order. */
static int spatial_cmp(const void *pa, const void *pb, const void *ctx) {
    (void)ctx;
    const xla_key *a = pa, *b = pb;
    if (a->size != b->size) return a->size > b->size ? -1 : 1;
    if (a->dur != b->dur) return a->dur > b->dur ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* kTemporal: decreasing duration, decreasing size, suite order. */
static int temporal_cmp(const void *pa, const void *pb, const void *ctx) {
    (void)ctx;
    const xla_key *a = pa, *b = pb;
    if (a->dur != b->dur) return a->dur > b->dur ? -1 : 1;
    if (a->size != b->size) return a->size > b->size ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* ---- the chunk search (steps 4, 5) ------------------------------------------- */

/* XLA's best fit over the busy ranges (sorted by lo; they may overlap or
 * touch), align being A. false when the tensor would end past INT64_MAX. */
static bool xla_rule(const abp_busy *busy, size_t n, int64_t size, int64_t align,
                     int64_t *offset) {
    int64_t cursor = 0, best = -1, best_len = 0, end;
    for (size_t j = 0; j < n;) {
        int64_t lo = busy[j].lo, hi = busy[j].hi;
        for (j++; j < n && busy[j].lo < hi; j++) /* the group: overlapping, not touching */
            if (busy[j].hi > hi) hi = busy[j].hi;
        int64_t len = lo - cursor; /* the chunk below the group (negative: none) */
        if (len >= size && (best < 0 || len < best_len)) {
            best = cursor;
            best_len = len;
        }
        int64_t up;
        if (ab_align_up_ovf(hi, align, &up)) return false;
        if (up > cursor) cursor = up;
    }
    /* the open chunk [cursor, INT64_MAX), last in offset order */
    bool open_fits = cursor <= INT64_MAX - size;
    if (open_fits && (best < 0 || INT64_MAX - cursor < best_len)) best = cursor;
    if (best < 0 || ab_add_ovf(best, size, &end)) return false;
    *offset = best;
    return true;
}

/* ---- the planners ------------------------------------------------------------- */

/* What both planners share: the problem, A, and the free tensors in order. */
typedef struct xla {
    const ab_problem *p;
    int64_t align;   /* A (step 1) */
    int64_t base_align; /* the suite's largest tensor align (heap bases) */
    size_t *order;   /* the tensors without a fixed offset, in step 3's order */
    size_t norder;
} xla;

static int64_t gcd64(int64_t a, int64_t b) {
    while (b != 0) {
        int64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* Step 1: A from the `align` parameter and the tensors' aligns. */
static ab_status xla_alignment(xla *X, int64_t param, ab_error *err) {
    X->base_align = 1;
    for (size_t i = 0; i < X->p->n; i++)
        if (X->p->t[i].align > X->base_align) X->base_align = X->p->t[i].align;
    int64_t g = gcd64(param, X->base_align);
    if (ab_mul_ovf(param / g, X->base_align, &X->align))
        return ab_fail(err, AB_EINPUT, "align=%lld and alignment %lld: their lcm overflows",
                       (long long)param, (long long)X->base_align);
    return AB_OK;
}

/* Fills X (order owned by the caller: ab_free(X->order)) for p and opt. */
static ab_status xla_prepare(xla *X, const ab_problem *p, const ab_params *opt, ab_error *err) {
    *X = (xla){.p = p};
    ab_status s = xla_alignment(X, ab_param_i64(opt, "align"), err);
    if (s != AB_OK) return s;
    size_t m = p->n ? p->n : 1;
    int64_t *dur = ab_alloc_array(m, sizeof *dur);
    xla_key *keys = ab_alloc_array(m, sizeof *keys);
    X->order = ab_alloc_array(m, sizeof *X->order);
    s = dur && keys && X->order ? xla_durations(p, dur, err)
                                : ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
    for (size_t i = 0; s == AB_OK && i < p->n; i++)
        if (p->t[i].offset == AB_NONE) keys[X->norder++] = (xla_key){p->t[i].size, dur[i], i};
    if (s == AB_OK) {
        bool temporal = ab_param_choice(opt, "sort") == 1; /* spatial|temporal */
        ab_sort(keys, X->norder, sizeof *keys, temporal ? temporal_cmp : spatial_cmp, NULL);
        for (size_t r = 0; r < X->norder; r++) X->order[r] = keys[r].idx;
    }
    ab_free(dur);
    ab_free(keys);
    return s;
}

/* Records tensor i at offsets[i] in the index. */
static ab_status xla_record(const xla *X, abp_space *space, const int64_t *offsets, size_t i,
                            ab_error *err) {
    int64_t hi;
    if (ab_add_ovf(offsets[i], X->p->t[i].size, &hi))
        return ab_fail(err, AB_EINPUT, "placing '%s': offsets overflow 64 bits", X->p->t[i].name);
    return abp_space_place(space, i, offsets[i], hi, err);
}

/* Step 2: the fixed tensors into the index; *top the highest end among them. */
static ab_status xla_fixed(const xla *X, abp_space *space, int64_t *offsets, int64_t *top,
                           ab_error *err) {
    *top = 0;
    for (size_t i = 0; i < X->p->n; i++) {
        if (X->p->t[i].offset == AB_NONE) continue;
        offsets[i] = X->p->t[i].offset;
        ab_status s = xla_record(X, space, offsets, i, err);
        if (s != AB_OK) return s;
        if (offsets[i] + X->p->t[i].size > *top) *top = offsets[i] + X->p->t[i].size;
    }
    return AB_OK;
}

static ab_status best_fit_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                               ab_plan_stats *st, ab_error *err) {
    st->lower_bound = AB_NONE;
    xla X;
    abp_space *space = NULL;
    int64_t top;
    ab_status s = xla_prepare(&X, p, opt, err);
    if (s == AB_OK) s = abp_space_new(p, &space, err);
    if (s == AB_OK) s = xla_fixed(&X, space, offsets, &top, err);
    for (size_t r = 0; s == AB_OK && r < X.norder; r++) {
        size_t i = X.order[r];
        s = abp_space_rule(space, i, xla_rule, p->t[i].size, X.align, &offsets[i], err);
        if (s == AB_OK) s = xla_record(&X, space, offsets, i, err);
    }
    if (s == AB_OK)
        snprintf(st->note, sizeof st->note, "xla-best-fit, sort=%s, alignment %lld",
                 ab_param_text(opt, "sort"), (long long)X.align);
    abp_space_free(space);
    ab_free(X.order);
    return s;
}

/* The constrained heap's working state. */
typedef struct heaps {
    int64_t limit;
    size_t *heap_of; /* each tensor's heap */
    int64_t *size;   /* each heap's bytes (its highest end) */
    size_t n;        /* heaps made */
} heaps;

/* Step 7: heap H->n from the tensors of X->order[0 .. *left) (in the
 * heap's own offsets); those that wait are moved to the front, in order,
 * and *left becomes their count. */
static ab_status one_heap(const xla *X, heaps *H, int64_t *offsets, size_t *left, ab_error *err) {
    abp_space *space = NULL;
    int64_t used = 0;
    ab_status s = abp_space_new(X->p, &space, err);
    if (s == AB_OK && H->n == 0) s = xla_fixed(X, space, offsets, &used, err);
    size_t kept = 0;
    for (size_t r = 0; s == AB_OK && r < *left; r++) {
        size_t i = X->order[r];
        int64_t size = X->p->t[i].size;
        s = abp_space_rule(space, i, xla_rule, size, X->align, &offsets[i], err);
        if (s != AB_OK) break;
        if (offsets[i] + size > H->limit && used != 0) { /* waits for a later heap */
            X->order[kept++] = i;
            continue;
        }
        s = xla_record(X, space, offsets, i, err);
        H->heap_of[i] = H->n;
        if (offsets[i] + size > used) used = offsets[i] + size;
    }
    abp_space_free(space);
    if (s != AB_OK) return s;
    H->size[H->n++] = used;
    *left = kept;
    return AB_OK;
}

/* The plan's note: the limit and each heap's bytes, as many as fit. */
static void heaps_note(const heaps *H, const char *sort, char *note, size_t len) {
    int used = snprintf(note, len, "xla-constrained-best-fit, sort=%s: %zu heap%s under %lld:",
                        sort, H->n, H->n == 1 ? "" : "s", (long long)H->limit);
    for (size_t k = 0; k < H->n && used > 0 && (size_t)used < len; k++) {
        int more = snprintf(note + used, len - (size_t)used, "%s %lld", k ? " +" : "",
                            (long long)H->size[k]);
        if (more < 0 || (size_t)(used + more) >= len) { /* cut: say so */
            if (len > 5) memcpy(note + len - 5, " ...", 5);
            break;
        }
        used += more;
    }
}

/* Lays the heaps one after another (the file's opening comment). */
static ab_status heaps_layout(const xla *X, const heaps *H, int64_t *offsets, ab_error *err) {
    int64_t *base = ab_alloc_array(H->n ? H->n : 1, sizeof *base);
    if (base == NULL) return ab_fail(err, AB_ENOMEM, "out of memory laying out %zu heaps", H->n);
    ab_status s = AB_OK;
    base[0] = 0;
    for (size_t k = 1; k < H->n && s == AB_OK; k++) {
        int64_t end;
        if (ab_add_ovf(base[k - 1], H->size[k - 1], &end) ||
            ab_align_up_ovf(end, X->base_align, &base[k]))
            s = ab_fail(err, AB_EINPUT, "heap %zu: offsets overflow 64 bits", k);
    }
    for (size_t i = 0; s == AB_OK && i < X->p->n; i++) {
        if (X->p->t[i].offset != AB_NONE) continue; /* heap 0, at its own offset */
        if (ab_add_ovf(offsets[i], base[H->heap_of[i]], &offsets[i]))
            s = ab_fail(err, AB_EINPUT, "placing '%s': offsets overflow 64 bits",
                        X->p->t[i].name);
    }
    ab_free(base);
    return s;
}

static ab_status constrained_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                  ab_plan_stats *st, ab_error *err) {
    st->lower_bound = AB_NONE;
    if (!ab_param_has(opt, "size_limit"))
        return ab_fail(err, AB_EINPUT,
                       "size_limit=BYTES is required (each heap's limit)");
    xla X;
    size_t m = p->n ? p->n : 1;
    heaps H = {.limit = ab_param_i64(opt, "size_limit"),
               .heap_of = ab_alloc_array(m, sizeof *H.heap_of),
               .size = ab_alloc_array(m + 1, sizeof *H.size)};
    ab_status s = xla_prepare(&X, p, opt, err);
    if (s == AB_OK && (H.heap_of == NULL || H.size == NULL))
        s = ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
    size_t left = X.norder;
    do { /* one heap at least, as XLA makes */
        if (s == AB_OK) s = one_heap(&X, &H, offsets, &left, err);
    } while (s == AB_OK && left > 0);
    if (s == AB_OK) s = heaps_layout(&X, &H, offsets, err);
    if (s == AB_OK) heaps_note(&H, ab_param_text(opt, "sort"), st->note, sizeof st->note);
    ab_free(X.order);
    ab_free(H.heap_of);
    ab_free(H.size);
    return s;
}

/* ---- the registry rows ------------------------------------------------------ */

#define XLA_SORT_ROW                                                                        \
    {"sort", "spatial|temporal", "spatial",                                                 \
     "XLA's packing strategy: spatial (size, then duration) or temporal (duration, then size)", \
     AB_PARAM_CHOICE, 0, 0, false}
#define XLA_ALIGN_ROW                                                                       \
    {"align", "integer 1 .. 2^40", "1",                                                     \
     "the heap's alignment (XLA's, any integer), taken with every tensor's align by lcm",   \
     AB_PARAM_INT, 1, (int64_t)1 << 40, false}

static const ab_param_desc best_fit_params[] = {XLA_SORT_ROW, XLA_ALIGN_ROW, {0}};

static const ab_param_desc constrained_params[] = {
    {"size_limit", "bytes > 0 (K, M, G, T)", "none: required",
     "each heap's limit (XLA's size_limit_per_heap); heaps are laid one after another",
     AB_PARAM_BYTES, 0, 0, true},
    XLA_SORT_ROW,
    XLA_ALIGN_ROW,
    {0},
};

/* The registry row of `xla-best-fit` (registry.c). */
const ab_planner abp_xla_best_fit = {
    .name = "xla-best-fit",
    .summary = "XLA's heap simulator (GlobalDecreasingSizeBestFitHeap): global order, best-fit chunk",
    .flags = AB_PLANNER_DEFAULT,
    .params = best_fit_params,
    .plan = best_fit_plan,
};

/* The registry row of `xla-constrained-best-fit` (registry.c). */
const ab_planner abp_xla_constrained_best_fit = {
    .name = "xla-constrained-best-fit",
    .summary = "XLA's constrained heap: best fit split into heaps under size_limit, laid end to end",
    .flags = AB_PLANNER_NEEDS_PARAMS,
    .params = constrained_params,
    .plan = constrained_plan,
};
