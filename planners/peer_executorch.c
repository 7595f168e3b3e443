/*
 * peer_executorch.c — planners `executorch-greedy` and `executorch-naive`:
 * the two algorithms of ExecuTorch's memory planning pass (PyTorch's
 * on-device runtime; `greedy` and `naive` in exir/memory_planning.py, run
 * by exir/passes/memory_planning_pass.py), written from their described
 * behaviour so a user sees what ExecuTorch would do with their model.
 *
 * Read (README.md, "Planners", names the same): exir/memory_planning.py of
 * keyprocedure/executorch at 2250f82f633b (a fork of pytorch/executorch
 * carrying its size-sorted greedy with shared objects that hold several
 * tensors), exir/tensor.py of pytorch/executorch at 00db9de4b05c
 * (ALIGNMENT = 16, TensorSpec.allocated_memory, realign), the pass at
 * 03aa0cac1346 (alignment defaults to ALIGNMENT) and the tests,
 * exir/tests/test_memory_planning.py at 07ec5b285cca (test_multiple_pools:
 * suites/peers/executorch_multiple_pools_*.yaml).
 *
 * Live ranges: ExecuTorch's TensorSpec.lifetime is [first node, last node]
 * that refer to the tensor, inclusive at both ends (its Verifier's
 * has_overlap; greedy takes two tensors as disjoint only when one ends
 * strictly before the other starts): our [start, end] as they are, and
 * ExecuTorch's "overlapping lifetimes" is our "conflict".
 *
 * Sizes and alignment. ExecuTorch rounds every tensor's size up to a
 * multiple of the pass's alignment (TensorSpec.realign) and places nothing
 * else: offsets are sums of rounded sizes, so multiples of it. Here the
 * alignment A is the `align` parameter (default 16, the pass's default) or,
 * beyond ExecuTorch, which has no per-tensor alignment, the least common
 * multiple of it and every align of the tensors placed, so a suite with
 * larger aligns still gets a valid plan; with every align dividing `align`
 * the plan is ExecuTorch's. The arena here is the end of the highest tensor;
 * ExecuTorch reports the sum of the rounded sizes it stacked (plus 64 bytes
 * when an XNNPACK delegate is in the graph), which is at most A - 1 bytes
 * more.
 *
 * Fixed offsets: ExecuTorch has none. Tensors with one are taken as memory
 * already used in the buffer, as ExecuTorch takes a control-flow
 * submodule's input_mem_buffer_sizes: they stay where they are, unchecked,
 * and the plan starts at the base, the highest end among them rounded up
 * to A (0 when there are none).
 *
 * `executorch-greedy`, the rule in order:
 *   1. the tensors go in decreasing size rounded up to 16, not to A: greedy
 *      sorts on TensorSpec.allocated_memory before it realigns each spec,
 *      and a spec is made with alignment 16. Equal keys: the tensor later
 *      in the suite first (ExecuTorch's order is the graph's, each tensor
 *      where it is first made; it inserts each after the equal keys already
 *      sorted, then reverses the list);
 *   2. a tensor goes into the first shared object, in the order they were
 *      made, that holds no tensor it conflicts with, at offset 0 in it.
 *      ExecuTorch asserts that such an object is at least as large as the
 *      tensor's rounded size; with A a multiple of 16 it always is (the
 *      order of step 1 is then the order of the rounded sizes); otherwise
 *      ExecuTorch fails there ("Allocation specs are not sorted") and so
 *      does this planner, with AB_EINPUT naming the tensor;
 *   3. else, with `overlap=on` (ExecuTorch's allow_overlapping_allocations,
 *      default true; Vulkan turns it off), into the first object where the
 *      top of the tensors it conflicts with (their offsets in the object
 *      plus rounded sizes), plus its own rounded size, is within the
 *      object's size: at that top, even when a lower hole would hold it;
 *   4. else a new object of its rounded size, the tensor at offset 0 in it.
 *      An object's size is that of the tensor that made it: it never grows;
 *   5. the objects are laid out one after the other, in the order they were
 *      made, from the base; a tensor's offset is its object's plus its own
 *      offset in the object.
 * ExecuTorch walks every tensor of every object for each tensor (quadratic);
 * here, as objects never grow, an object's bytes are known when it is made,
 * and a tensor's conflicts in each object are read off the free-space index
 * (space.h) in one walk: the same offsets (tests/test_peer_executorch.c
 * checks them against a reference written the quadratic way).
 *
 * `executorch-naive`: in suite order (ExecuTorch: the graph's), each tensor
 * at the running top, from the base, which then grows by its rounded size.
 * No tensor shares a byte with another.
 *
 * Not modelled: memory ids (mem_id: ExecuTorch plans each memory id as its
 * own buffer; here one arena, and a suite's pools go through the spill rule
 * of spill.c), memory hierarchies and banks, mutable buffers (ExecuTorch
 * keeps them to the last node: give the range in the suite), which graph
 * inputs and outputs are planned (the suite's io:), constants and dynamic
 * unbound tensors (never planned), control-flow submodules, views and
 * in-place ops sharing a spec (one tensor in the suite), the XNNPACK
 * padding (it moves no offset), MemoryPlanningAlgorithmSuite's pick of the
 * smallest result among several algorithms, heap_optimized_greedy, and the
 * older greedy of pytorch/executorch (e.g. 45993dbf11de: graph order, the
 * free object of closest size, which grows to the tensor).
 */
#include "planners/planner.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "planners/space.h"

/* The key greedy sorts on: sizes rounded up to TensorSpec's own alignment. */
#define ET_SPEC_ALIGNMENT 16

/* No object (et_pick). */
#define ET_NONE SIZE_MAX

/* A shared object: a segment of the buffer that tensors share by lifetime.
 * Objects never grow and are laid out in the order made, so an object's
 * place in the arena is known when it is made: the sum of the sizes before
 * it, from the base. */
typedef struct et_obj {
    int64_t lo, hi; /* its bytes [lo, hi) in the arena; hi - lo is the rounded size
                       of the tensor that made it */
} et_obj;

/* The working state of one plan. */
typedef struct et {
    const ab_problem *p;
    int64_t align;     /* A: the sizes' rounding and the offsets' unit */
    int64_t base;      /* where the plan starts: above every fixed tensor */
    int64_t *rsize;    /* sizes rounded up to A, by tensor */
    et_obj *objs;      /* greedy: the shared objects, in the order made */
    size_t nobjs;
    int64_t top;       /* greedy: the end of the last object (the base when none) */
    abp_space *placed; /* greedy: the placed tensors, each over its rounded bytes */
} et;

/* ---- what both planners share ------------------------------------------------------- */

/* Sets s->align to the least common multiple of the `align` parameter and
 * the align of every tensor to place. */
static ab_status et_unit(et *s, int64_t param, ab_error *err) {
    s->align = param;
    for (size_t i = 0; i < s->p->n; i++) {
        const ab_tensor *t = &s->p->t[i];
        if (t->offset != AB_NONE) continue;
        int64_t g = ab_gcd(s->align, t->align), lcm;
        if (ab_mul_ovf(s->align / g, t->align, &lcm) || lcm > AB_MAX_SIZE)
            return ab_fail(err, AB_EINPUT, "'%s': align %lld and align=%lld have no common "
                           "multiple below 2^62", t->name, (long long)t->align, (long long)param);
        s->align = lcm;
    }
    return AB_OK;
}

/* Fills s->rsize and s->base (the highest end of a fixed tensor, rounded
 * up to A). */
static ab_status et_sizes(et *s, ab_error *err) {
    s->base = 0;
    for (size_t i = 0; i < s->p->n; i++) {
        const ab_tensor *t = &s->p->t[i];
        int64_t end;
        if (ab_align_up_ovf(t->size, s->align, &s->rsize[i]))
            return ab_fail(err, AB_EINPUT, "'%s': size overflows when rounded up to %lld",
                           t->name, (long long)s->align);
        if (t->offset == AB_NONE) continue;
        if (ab_add_ovf(t->offset, t->size, &end))
            return ab_fail(err, AB_EINPUT, "'%s': its fixed offset overflows", t->name);
        if (end > s->base) s->base = end;
    }
    if (ab_align_up_ovf(s->base, s->align, &s->base))
        return ab_fail(err, AB_EINPUT, "the fixed tensors' end overflows when aligned");
    return AB_OK;
}

/* *top += by, refusing to pass AB_MAX_SIZE. */
static ab_status et_grow(int64_t *top, int64_t by, ab_error *err) {
    if (ab_add_ovf(*top, by, top) || *top > AB_MAX_SIZE)
        return ab_fail(err, AB_EINPUT, "the arena overflows 2^62 bytes");
    return AB_OK;
}

/* Prepares s for p: A, the rounded sizes and the base; with greedy, the
 * objects and the index of placed tensors too. Free with et_free. */
static ab_status et_init(et *s, const ab_problem *p, const ab_params *opt, bool greedy,
                         ab_error *err) {
    *s = (et){.p = p};
    size_t n = p->n ? p->n : 1;
    s->rsize = ab_alloc_array(n, sizeof *s->rsize);
    if (greedy && s->rsize) s->objs = ab_alloc_array(n, sizeof *s->objs);
    if (s->rsize == NULL || (greedy && s->objs == NULL))
        return ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
    ab_status st = et_unit(s, ab_param_i64(opt, "align"), err);
    if (st == AB_OK) st = et_sizes(s, err);
    s->top = s->base;
    if (st == AB_OK && greedy) st = abp_space_new(p, &s->placed, err);
    return st;
}

static void et_free(et *s) {
    ab_free(s->rsize);
    ab_free(s->objs);
    abp_space_free(s->placed);
}

/* Copies the fixed offsets into offsets. */
static void et_fixed(const ab_problem *p, int64_t *offsets) {
    for (size_t i = 0; i < p->n; i++)
        if (p->t[i].offset != AB_NONE) offsets[i] = p->t[i].offset;
}

/* ---- executorch-greedy ------------------------------------------------------------- */

/* A tensor to order: its sort key (step 1) and index. */
typedef struct et_key {
    int64_t key;
    size_t idx;
} et_key;

/* Decreasing key; equal keys, the later tensor first. */
static int et_key_cmp(const void *pa, const void *pb) {
    const et_key *a = pa, *b = pb;
    if (a->key != b->key) return a->key > b->key ? -1 : 1;
    return (a->idx < b->idx) - (a->idx > b->idx);
}

/* The tensors to place, in the order of step 1, into keys; their count. */
static size_t et_order(const ab_problem *p, et_key *keys) {
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->t[i].offset != AB_NONE) continue;
        int64_t key;
        if (ab_align_up_ovf(p->t[i].size, ET_SPEC_ALIGNMENT, &key)) key = INT64_MAX;
        keys[n++] = (et_key){key, i};
    }
    qsort(keys, n, sizeof *keys, et_key_cmp);
    return n;
}

/* ExecuTorch's failing assertion (step 2), as this planner's error. */
static ab_status et_unsorted(const et *s, size_t i, size_t k, ab_error *err) {
    return ab_fail(err, AB_EINPUT,
                   "'%s': ExecuTorch's greedy fails here (its assertion 'Allocation specs are not "
                   "sorted'): it sorts on sizes rounded to %d, and object %zu of %lld bytes is "
                   "free for this tensor of %lld bytes rounded to align=%lld; an align that is a "
                   "multiple of %d avoids it",
                   s->p->t[i].name, ET_SPEC_ALIGNMENT, k,
                   (long long)(s->objs[k].hi - s->objs[k].lo), (long long)s->rsize[i],
                   (long long)s->align, ET_SPEC_ALIGNMENT);
}

/* Steps 2 to 4 for tensor i: its offset into *offset, making an object when
 * none takes it. The tensors in object k lie inside [lo, hi) of it, and the
 * tensors of no other object do, so the placed tensors conflicting with i,
 * cut to [lo, hi), are those of k: k holds none (step 2) when the busy
 * ranges around i miss [lo, hi), and the top of those it holds (step 3) is
 * the highest busy byte inside [lo, hi). The busy ranges come sorted and
 * disjoint (space.h), so one walk over them and the objects answers both:
 * the first object free of conflicts wins wherever it is; failing one, the
 * first that takes i on top of its conflicts; failing that, a new object. */
static ab_status et_pick(et *s, size_t i, bool overlap, int64_t *offset, ab_error *err) {
    const abp_busy *busy;
    size_t nbusy, q = 0, stacked = ET_NONE;
    ab_status st = abp_space_busy(s->placed, i, &busy, &nbusy, err);
    if (st != AB_OK) return st;
    for (size_t k = 0; k < s->nobjs; k++) {
        const et_obj *o = &s->objs[k];
        while (q < nbusy && busy[q].hi <= o->lo) q++; /* wholly below the objects left */
        int64_t top = o->lo;                          /* the top of i's conflicts in k */
        for (size_t r = q; r < nbusy && busy[r].lo < o->hi; r++)
            top = busy[r].hi < o->hi ? busy[r].hi : o->hi;
        if (top == o->lo) { /* step 2 */
            if (o->hi - o->lo < s->rsize[i]) return et_unsorted(s, i, k, err);
            *offset = o->lo;
            return AB_OK;
        }
        if (overlap && stacked == ET_NONE && s->rsize[i] <= o->hi - top) { /* step 3 */
            stacked = k;
            *offset = top;
        }
    }
    if (stacked != ET_NONE) return AB_OK;
    *offset = s->top; /* step 4 (and 5: the new object goes above the others) */
    st = et_grow(&s->top, s->rsize[i], err);
    if (st == AB_OK) s->objs[s->nobjs++] = (et_obj){*offset, s->top};
    return st;
}

static ab_status et_greedy_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                ab_plan_stats *st, ab_error *err) {
    st->lower_bound = AB_NONE;
    bool overlap = ab_param_choice(opt, "overlap") == 0;
    et S;
    ab_status s = et_init(&S, p, opt, true, err);
    et_key *keys = s == AB_OK ? ab_alloc_array(p->n ? p->n : 1, sizeof *keys) : NULL;
    if (s == AB_OK && keys == NULL)
        s = ab_fail(err, AB_ENOMEM, "out of memory planning %zu tensors", p->n);
    size_t nkeys = s == AB_OK ? et_order(p, keys) : 0;
    for (size_t r = 0; s == AB_OK && r < nkeys; r++) {
        size_t i = keys[r].idx;
        s = et_pick(&S, i, overlap, &offsets[i], err);
        if (s == AB_OK)
            s = abp_space_place(S.placed, i, offsets[i], offsets[i] + S.rsize[i], err);
    }
    if (s == AB_OK) {
        et_fixed(p, offsets);
        snprintf(st->note, sizeof st->note,
                 "executorch greedy: %zu shared objects, sizes rounded to %lld, overlap %s",
                 S.nobjs, (long long)S.align, overlap ? "on" : "off");
    }
    ab_free(keys);
    et_free(&S);
    return s;
}

/* ---- executorch-naive -------------------------------------------------------------- */

static ab_status et_naive_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                               ab_plan_stats *st, ab_error *err) {
    st->lower_bound = AB_NONE;
    et S;
    ab_status s = et_init(&S, p, opt, false, err);
    int64_t top = S.base;
    for (size_t i = 0; s == AB_OK && i < p->n; i++) {
        if (p->t[i].offset != AB_NONE) continue;
        offsets[i] = top;
        s = et_grow(&top, S.rsize[i], err);
    }
    if (s == AB_OK) {
        et_fixed(p, offsets);
        snprintf(st->note, sizeof st->note, "executorch naive: sizes rounded to %lld, no reuse",
                 (long long)S.align);
    }
    et_free(&S);
    return s;
}

/* ---- the registry rows ------------------------------------------------------------- */

#define ET_ALIGN_ROW                                                                       \
    {"align", "integer 1 .. 2^30", "16",                                                   \
     "every size rounded up to a multiple of this (the pass's alignment; ExecuTorch's "   \
     "default 16)",                                                                        \
     AB_PARAM_INT, 1, (int64_t)1 << 30, false}

static const ab_param_desc et_greedy_params[] = {
    ET_ALIGN_ROW,
    {"overlap", "on|off", "on",
     "a tensor may sit on top of those it conflicts with inside a shared object "
     "(allow_overlapping_allocations)",
     AB_PARAM_CHOICE, 0, 0, false},
    {0},
};

static const ab_param_desc et_naive_params[] = {
    ET_ALIGN_ROW,
    {0},
};

/* The registry row of `executorch-greedy` (registry.c). */
const ab_planner abp_executorch_greedy = {
    .name = "executorch-greedy",
    .summary = "ExecuTorch's greedy: by size, shared objects by lifetime, objects stacked",
    .flags = AB_PLANNER_DEFAULT,
    .params = et_greedy_params,
    .plan = et_greedy_plan,
};

/* The registry row of `executorch-naive` (registry.c). */
const ab_planner abp_executorch_naive = {
    .name = "executorch-naive",
    .summary = "ExecuTorch's naive: every tensor its own aligned slot, in suite order",
    .flags = 0,
    .params = et_naive_params,
    .plan = et_naive_plan,
};
