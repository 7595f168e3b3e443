/*
 * test_peer_xla.c — xla-best-fit and xla-constrained-best-fit (issue 32):
 * XLA's heap simulator, GlobalDecreasingSizeBestFitHeap and
 * ConstrainedGlobalDecreasingSizeBestFitHeap.
 *
 * First the offsets XLA's own tests expect (heap_simulator_test.cc), restated
 * here as facts and read from suites/peers/xla_*.yaml, so neither side can
 * drift alone; then the rules behind them one at a time (ticks, not
 * instructions; the two orders; the alignment; the soft limit; the heaps'
 * layout); then the planners against a plain reference written here from
 * the rules in peer_xla.c's opening comment, over many random small suites
 * with a fixed seed: identical offsets, and every plan valid by the checker.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/suite.h"
#include "tests/planning.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* ---- helpers ------------------------------------------------------------------- */

#define T(nm, sz, s, e, ...)                                                                  \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1,    \
                 .offset = AB_NONE, .logical_bits = (sz) * 8, __VA_ARGS__})

static void load_peer(const char *file, ab_problem *p) {
    char rel[512];
    ab_error err;
    snprintf(rel, sizeof rel, "suites/peers/%s", file);
    cr_assert_eq(abf_suite_load(abt_src(rel), p, &err), AB_OK, "%s", err.msg);
}

/* Plans p with spec, which must succeed with a valid plan; returns the
 * offsets (owned by the caller) and the arena, and the note into note. */
static int64_t *plan_ok(const char *spec, const ab_problem *p, int64_t *arena, char *note) {
    int64_t *off = calloc(p->n + 1, sizeof *off);
    ab_plan_stats st;
    ab_error err;
    cr_assert_eq(abt_plan(spec, p, off, &st, &err), AB_OK, "%s on %s: %s", spec,
                 p->name ? p->name : "(made)", err.msg);
    int64_t a;
    cr_assert_eq(abt_judge(p, off, &a), ABO_OK, "%s: the plan is invalid", spec);
    if (arena) *arena = a;
    if (note) snprintf(note, sizeof st.note, "%s", st.note);
    return off;
}

/* The suite file says (size, start, end) for its tensors as listed. */
static void pin_tensors(const ab_problem *p, const int64_t (*t)[3], size_t n) {
    cr_assert_eq(p->n, n, "%s", p->name);
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(p->t[i].size, t[i][0], "%s tensor %zu size", p->name, i);
        cr_assert_eq(p->t[i].start, t[i][1], "%s tensor %zu start", p->name, i);
        cr_assert_eq(p->t[i].end, t[i][2], "%s tensor %zu end", p->name, i);
    }
}

/* XLA's number for spec on file: the suite holds it in expect:, and the
 * planner gives it (arena and every offset). */
static void pin(const char *file, const char *spec, int64_t arena, const int64_t *offsets) {
    ab_problem p;
    load_peer(file, &p);
    const ab_peer_expect *x = NULL;
    for (size_t i = 0; i < p.npeers; i++)
        if (strcmp(p.peers[i].spec, spec) == 0) x = &p.peers[i];
    cr_assert_not_null(x, "%s holds no expectation for %s", file, spec);
    cr_assert_eq(x->arena, arena, "%s %s: the suite says %lld", file, spec, (long long)x->arena);
    cr_assert_eq(x->noffsets, p.n, "%s %s", file, spec);
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(x->offsets[i], offsets[i], "%s offset %zu", file, i);
    int64_t got;
    int64_t *off = plan_ok(spec, &p, &got, NULL);
    cr_assert_eq(got, arena, "%s on %s: arena %lld", spec, file, (long long)got);
    for (size_t i = 0; i < p.n; i++)
        cr_assert_eq(off[i], offsets[i], "%s on %s: %s at %lld, XLA's %lld", spec, file,
                     p.t[i].name, (long long)off[i], (long long)offsets[i]);
    free(off);
    ab_problem_free(&p);
}

/* ---- XLA's own tests -------------------------------------------------------------- */

/* GlobalDecreasingSizeBestFitHeapTest.DecreasingSize: Alloc a 10, b 30, c 20,
 * d 40, Free a, b, c, d; heap_size 100, a 90, b 40, c 70, d 0. */
Test(xla, decreasing_size_gives_90_40_70_0_heap_100) {
    static const int64_t t[][3] = {{10, 0, 4}, {30, 1, 5}, {20, 2, 6}, {40, 3, 7}};
    ab_problem p;
    load_peer("xla_decreasing_size.yaml", &p);
    pin_tensors(&p, t, 4);
    ab_problem_free(&p);
    pin("xla_decreasing_size.yaml", "xla-best-fit", 100, (int64_t[]){90, 40, 70, 0});
}

/* GlobalDecreasingSizeBestFitHeapTest.DecreasingSizeWithAlignment (alignment
 * 20): Alloc a 10, b 20, c 50, Free a, Alloc d 40, Free b, c, d; heap_size
 * 120, a 60, b 100, c 0, d 60. */
Test(xla, decreasing_size_with_alignment_20_gives_60_100_0_60_heap_120) {
    static const int64_t t[][3] = {{10, 0, 3}, {20, 1, 5}, {50, 2, 6}, {40, 4, 7}};
    ab_problem p;
    load_peer("xla_decreasing_size_align20.yaml", &p);
    pin_tensors(&p, t, 4);
    ab_problem_free(&p);
    pin("xla_decreasing_size_align20.yaml", "xla-best-fit:align=20", 120,
        (int64_t[]){60, 100, 0, 60});
}

/* GlobalDecreasingSizeBestFitHeapTest.BestFit: Alloc a 10, b 20, c 40, Free
 * a, Alloc d 30, e 50, Free b, c, d, e; heap_size 140, a 90, b 120, c 50,
 * d 90, e 0. */
Test(xla, best_fit_gives_90_120_50_90_0_heap_140) {
    static const int64_t t[][3] = {{10, 0, 3}, {20, 1, 6}, {40, 2, 7}, {30, 4, 8}, {50, 5, 9}};
    ab_problem p;
    load_peer("xla_best_fit.yaml", &p);
    pin_tensors(&p, t, 5);
    ab_problem_free(&p);
    pin("xla_best_fit.yaml", "xla-best-fit", 140, (int64_t[]){90, 120, 50, 90, 0});
}

/* GlobalDecreasingSizeBestFitHeapTest.Empty: heap_size 0, one heap. */
Test(xla, empty_gives_heap_0) {
    ab_problem p;
    ab_problem_init(&p);
    int64_t arena;
    char note[160];
    free(plan_ok("xla-best-fit", &p, &arena, NULL));
    cr_assert_eq(arena, 0);
    free(plan_ok("xla-constrained-best-fit:size_limit=50", &p, &arena, note));
    cr_assert_eq(arena, 0);
    HAS(note, "1 heap under 50: 0");
    ab_problem_free(&p);
}

/* ConstrainedGlobalDecreasingSizeBestFitHeapTest.DecreasingSize (limit 50):
 * heap_size 100 in 2 heaps, heap 0 holding d at 0 and a at 40. Heap 1 (b 0,
 * c 30) is laid after heap 0's 50 bytes. */
Test(xla, constrained_decreasing_size_gives_two_heaps_of_50) {
    pin("xla_decreasing_size.yaml", "xla-constrained-best-fit:size_limit=50", 100,
        (int64_t[]){40, 50, 80, 0});
    ab_problem p;
    load_peer("xla_decreasing_size.yaml", &p);
    char note[160];
    free(plan_ok("xla-constrained-best-fit:size_limit=50", &p, NULL, note));
    HAS(note, "2 heaps under 50: 50 + 50");
    ab_problem_free(&p);
}

/* ConstrainedGlobalDecreasingSizeBestFitHeapTest.DecreasingSizeWithAlignment
 * (limit 70, alignment 20): heap_size 130 = 70 + 60, heap 0 holding c at 0
 * and a at 60. Heap 1 (d 0, b 40) after heap 0's 70 bytes. */
Test(xla, constrained_decreasing_size_with_alignment_gives_70_plus_60) {
    pin("xla_decreasing_size_align20.yaml", "xla-constrained-best-fit:size_limit=70,align=20",
        130, (int64_t[]){60, 110, 0, 70});
    ab_problem p;
    load_peer("xla_decreasing_size_align20.yaml", &p);
    char note[160];
    free(plan_ok("xla-constrained-best-fit:size_limit=70,align=20", &p, NULL, note));
    HAS(note, "2 heaps under 70: 70 + 60");
    ab_problem_free(&p);
}

/* ConstrainedGlobalDecreasingSizeBestFitHeapTest.PhaseWindowEndClustersByExpiry,
 * kSpatial (limit 50): two heaps, {a, c} and {b}. */
Test(xla, constrained_spatial_puts_a_and_c_together_b_apart) {
    static const int64_t t[][3] = {{40, 0, 5}, {35, 1, 3}, {10, 2, 4}};
    ab_problem p;
    load_peer("xla_constrained_expiry.yaml", &p);
    pin_tensors(&p, t, 3);
    char note[160];
    int64_t *off = plan_ok("xla-constrained-best-fit:size_limit=50", &p, NULL, note);
    HAS(note, "2 heaps under 50: 50 + 35");
    cr_assert(off[0] < 50 && off[2] < 50, "a and c in heap 0");
    cr_assert_geq(off[1], 50, "b in heap 1");
    free(off);
    ab_problem_free(&p);
    pin("xla_constrained_expiry.yaml", "xla-constrained-best-fit:size_limit=50", 85,
        (int64_t[]){0, 50, 40});
}

/* ---- the rules behind the numbers ------------------------------------------------ */

/* p and q (equal sizes, both 3 instructions long) meet at instruction 2; r
 * lives inside p only, so p spans more of XLA's ticks (Alloc p, Alloc r,
 * Free r, Alloc q, Free p: 4) than q (Alloc q, Free p, Free q: 2) and goes
 * first, though q comes first in the suite. */
Test(xla, durations_are_counted_in_ticks_not_instructions) {
    ab_tensor t[] = {T("q", 8, 2, 4), T("p", 8, 0, 2), T("r", 1, 1, 1)};
    ab_problem p;
    abt_make(&p, t, 3);
    const char *specs[] = {"xla-best-fit", "xla-best-fit:sort=temporal"};
    for (int s = 0; s < 2; s++) {
        int64_t *off = plan_ok(specs[s], &p, NULL, NULL);
        cr_assert_eq(off[1], 0, "%s: p first", specs[s]);
        cr_assert_eq(off[0], 8, "%s: q above p", specs[s]);
        free(off);
    }
    ab_problem_free(&p);
}

/* A long small tensor and a short big one that meet: spatial places the big
 * one first, temporal the long one. */
Test(xla, spatial_goes_by_size_temporal_by_duration) {
    ab_tensor t[] = {T("long", 10, 0, 9), T("big", 50, 4, 5)};
    ab_problem p;
    abt_make(&p, t, 2);
    int64_t *off = plan_ok("xla-best-fit", &p, NULL, NULL);
    cr_assert_eq(off[1], 0);
    cr_assert_eq(off[0], 50);
    free(off);
    off = plan_ok("xla-best-fit:sort=temporal", &p, NULL, NULL);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 10);
    free(off);
    ab_problem_free(&p);
}

/* The alignment is lcm(align, every tensor's align): 3 and 16 give 48. */
Test(xla, aligns_to_the_lcm_of_align_and_the_suites_alignments) {
    ab_tensor t[] = {T("a", 10, 0, 1, .align = 16), T("b", 10, 0, 1, .align = 16)};
    ab_problem p;
    abt_make(&p, t, 2);
    char note[160];
    int64_t *off = plan_ok("xla-best-fit:align=3", &p, NULL, note);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 48);
    HAS(note, "alignment 48");
    free(off);
    ab_problem_free(&p);
}

/* Ranges that only touch stay apart in XLA's grouping, but the chunk
 * between them is empty, so nothing changes; a chunk below a group is kept
 * only when the tensor fits it. Best fit, not first fit: the smaller chunk
 * above wins over the larger one below. */
Test(xla, takes_the_smallest_chunk_ties_to_the_lowest) {
    ab_tensor t[] = {T("lo", 30, 0, 3, .offset = 30), T("mid", 10, 0, 3, .offset = 80),
                     T("hi", 10, 0, 3, .offset = 110), T("x", 20, 0, 3)};
    /* chunks: [0,30) 30, [60,80) 20, [90,110) 20, [120, ...): x goes at 60 */
    ab_problem p;
    abt_make(&p, t, 4);
    int64_t *off = plan_ok("xla-best-fit", &p, NULL, NULL);
    cr_assert_eq(off[3], 60);
    free(off);
    ab_problem_free(&p);
}

/* The limit is soft: a tensor larger than it takes an empty heap; the next
 * heap starts where it ends. */
Test(xla, constrained_gives_a_tensor_over_the_limit_a_heap_of_its_own) {
    ab_tensor t[] = {T("big", 100, 0, 1), T("small", 10, 0, 1)};
    ab_problem p;
    abt_make(&p, t, 2);
    char note[160];
    int64_t arena;
    int64_t *off = plan_ok("xla-constrained-best-fit:size_limit=50", &p, &arena, note);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 100);
    cr_assert_eq(arena, 110);
    HAS(note, "2 heaps under 50: 100 + 10");
    free(off);
    ab_problem_free(&p);
}

/* Heap bases are rounded up to the suite's largest align: 10 bytes of heap 0,
 * then heap 1 at 16. */
Test(xla, constrained_rounds_heap_bases_to_the_largest_align) {
    ab_tensor t[] = {T("a", 10, 0, 1, .align = 16), T("b", 10, 0, 1, .align = 16)};
    ab_problem p;
    abt_make(&p, t, 2);
    int64_t arena;
    int64_t *off = plan_ok("xla-constrained-best-fit:size_limit=10", &p, &arena, NULL);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 16);
    cr_assert_eq(arena, 26);
    free(off);
    ab_problem_free(&p);
}

/* Fixed tensors sit in heap 0, which is then never empty: a free tensor that
 * would pass the limit there waits for heap 1. */
Test(xla, constrained_keeps_fixed_tensors_in_heap_0) {
    ab_tensor t[] = {T("f", 40, 0, 1, .offset = 0), T("x", 20, 0, 1), T("y", 5, 0, 1)};
    ab_problem p;
    abt_make(&p, t, 3);
    char note[160];
    int64_t *off = plan_ok("xla-constrained-best-fit:size_limit=50", &p, NULL, note);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[2], 40, "y fits above f in heap 0");
    cr_assert_eq(off[1], 45, "x waits: heap 1 after heap 0's 45 bytes");
    HAS(note, "2 heaps under 50: 45 + 20");
    free(off);
    ab_problem_free(&p);
}

Test(xla, refuses_a_missing_limit_and_bad_values) {
    ab_tensor t[] = {T("a", 10, 0, 1)};
    ab_problem p;
    abt_make(&p, t, 1);
    int64_t off[1];
    ab_error err;
    cr_assert_eq(abt_plan("xla-constrained-best-fit", &p, off, NULL, &err), AB_EINPUT);
    HAS(err.msg, "size_limit=BYTES is required");
    cr_assert_eq(abt_plan("xla-best-fit:sort=area", &p, off, NULL, &err), AB_EINPUT);
    HAS(err.msg, "spatial or temporal");
    cr_assert_eq(abt_plan("xla-best-fit:align=0", &p, off, NULL, &err), AB_EINPUT);
    cr_assert_eq(abt_plan("xla-constrained-best-fit:size_limit=0", &p, off, NULL, &err),
                 AB_EINPUT);
    cr_assert_eq(abt_plan("xla-best-fit:size_limit=8", &p, off, NULL, &err), AB_EINPUT);
    HAS(err.msg, "takes no parameter 'size_limit'");
    const ab_planner *pl = ab_planner_find("xla-constrained-best-fit");
    cr_assert_not_null(pl);
    cr_assert(pl->flags & AB_PLANNER_NEEDS_PARAMS, "no default limit: run all leaves it out");
    ab_problem_free(&p);
}

Test(alloc, xla_planners_fail_cleanly_at_every_allocation) {
    ab_tensor t[] = {T("a", 10, 0, 3), T("b", 20, 1, 6), T("c", 40, 2, 7), T("d", 30, 4, 8),
                     T("e", 50, 5, 9, .offset = 200)};
    ab_problem p;
    abt_make(&p, t, 5);
    const char *specs[] = {"xla-best-fit", "xla-constrained-best-fit:size_limit=60"};
    for (int s = 0; s < 2; s++) {
        int64_t off[5];
        ab_alloc_fail_at(0);
        cr_assert_eq(abt_plan(specs[s], &p, off, NULL, NULL), AB_OK);
        long calls = ab_alloc_fail_at(0);
        for (long n = 1; n <= calls; n++) {
            ab_alloc_fail_at(n);
            ab_status st = abt_plan(specs[s], &p, off, NULL, NULL);
            ab_alloc_fail_at(0);
            cr_assert(st == AB_ENOMEM, "%s: allocation %ld of %ld gave %d", specs[s], n, calls,
                      st);
        }
    }
    ab_problem_free(&p);
}

/* ---- a plain reference ----------------------------------------------------------------
 * The rules of peer_xla.c's opening comment, step by step, with no index and
 * no cleverness: the replay instruction by instruction, insertion sorts, the
 * free chunks as an explicit list, then the shortest of them. */

static int64_t ref_up(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

static int64_t ref_gcd(int64_t a, int64_t b) { return b ? ref_gcd(b, a % b) : a; }

/* R1, R2: each tensor's duration in ticks. */
static void ref_durations(const ab_problem *p, int64_t *dur) {
    size_t n = p->n, *L = malloc((n + 1) * sizeof *L);
    int64_t *born = malloc((n + 1) * sizeof *born), lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) { /* insertion sort by (start, end, index) */
        size_t k = i;
        for (; k > 0; k--) {
            const ab_tensor *a = &p->t[L[k - 1]], *b = &p->t[i];
            if (a->start < b->start || (a->start == b->start && a->end <= b->end)) break;
            L[k] = L[k - 1];
        }
        L[k] = i;
        if (p->t[i].start < lo) lo = p->t[i].start;
        if (p->t[i].end > hi) hi = p->t[i].end;
    }
    int64_t tick = 0;
    for (int64_t now = lo; n > 0 && now <= hi; now++) {
        for (size_t k = 0; k < n; k++)
            if (p->t[L[k]].start == now) born[L[k]] = tick++;
        for (size_t k = 0; k < n; k++)
            if (p->t[L[k]].end == now) dur[L[k]] = tick++ - born[L[k]];
    }
    free(L);
    free(born);
}

/* Whether tensor a goes before b in step 3's order. */
static bool ref_before(const ab_problem *p, const int64_t *dur, bool temporal, size_t a, size_t b) {
    int64_t sa = p->t[a].size, sb = p->t[b].size;
    if (!temporal && sa != sb) return sa > sb;
    if (dur[a] != dur[b]) return dur[a] > dur[b];
    if (sa != sb) return sa > sb;
    return a < b;
}

/* Steps 4-5 for tensor i among the tensors with in[j] set (and placed). */
static int64_t ref_place(const ab_problem *p, const bool *in, const int64_t *off, size_t i,
                         int64_t A) {
    size_t n = p->n, m = 0;
    int64_t *lo = malloc((n + 1) * sizeof *lo), *hi = malloc((n + 1) * sizeof *hi);
    for (size_t j = 0; j < n; j++) {
        if (!in[j] || !ab_conflict(&p->t[i], &p->t[j])) continue;
        size_t k = m++;
        for (; k > 0 && lo[k - 1] > off[j]; k--) {
            lo[k] = lo[k - 1];
            hi[k] = hi[k - 1];
        }
        lo[k] = off[j];
        hi[k] = off[j] + p->t[j].size;
    }
    int64_t (*chunk)[2] = malloc((n + 2) * sizeof *chunk);
    size_t nc = 0;
    int64_t cursor = 0, size = p->t[i].size;
    for (size_t k = 0; k < m;) {
        int64_t glo = lo[k], ghi = hi[k];
        for (k++; k < m && lo[k] < ghi; k++)
            if (hi[k] > ghi) ghi = hi[k];
        if (glo - cursor >= size) {
            chunk[nc][0] = cursor;
            chunk[nc++][1] = glo;
        }
        if (ref_up(ghi, A) > cursor) cursor = ref_up(ghi, A);
    }
    chunk[nc][0] = cursor;
    chunk[nc++][1] = INT64_MAX;
    int64_t best = -1, best_len = 0;
    for (size_t c = 0; c < nc; c++) {
        int64_t at = ref_up(chunk[c][0], A), len = chunk[c][1] - chunk[c][0];
        if (chunk[c][1] - size < at) continue;
        if (best < 0 || len < best_len) {
            best = at;
            best_len = len;
        }
    }
    free(lo);
    free(hi);
    free(chunk);
    return best;
}

/* The reference of both planners: limit < 0 for xla-best-fit. */
static void ref_plan(const ab_problem *p, bool temporal, int64_t align, int64_t limit,
                     int64_t *off) {
    size_t n = p->n;
    int64_t M = 1, *dur = malloc((n + 1) * sizeof *dur);
    for (size_t i = 0; i < n; i++)
        if (p->t[i].align > M) M = p->t[i].align;
    int64_t A = align / ref_gcd(align, M) * M;
    ref_durations(p, dur);
    size_t *order = malloc((n + 1) * sizeof *order), no = 0;
    for (size_t i = 0; i < n; i++) {
        if (p->t[i].offset != AB_NONE) continue;
        size_t k = no++;
        for (; k > 0 && ref_before(p, dur, temporal, i, order[k - 1]); k--) order[k] = order[k - 1];
        order[k] = i;
    }
    bool *in = calloc(n + 1, sizeof *in), *done = calloc(n + 1, sizeof *done);
    size_t *heap = calloc(n + 1, sizeof *heap);
    int64_t *heap_size = calloc(n + 2, sizeof *heap_size), used = 0;
    for (size_t i = 0; i < n; i++) { /* step 2: fixed ones, in heap 0 */
        if (p->t[i].offset == AB_NONE) continue;
        off[i] = p->t[i].offset;
        in[i] = done[i] = true;
        if (off[i] + p->t[i].size > used) used = off[i] + p->t[i].size;
    }
    size_t nheaps = 0, left = no;
    for (;;) {
        for (size_t r = 0; r < no; r++) {
            size_t i = order[r];
            if (done[i]) continue;
            int64_t at = ref_place(p, in, off, i, A);
            if (limit >= 0 && at + p->t[i].size > limit && used > 0) continue;
            off[i] = at;
            in[i] = done[i] = true;
            heap[i] = nheaps;
            left--;
            if (at + p->t[i].size > used) used = at + p->t[i].size;
        }
        heap_size[nheaps++] = used;
        if (left == 0) break;
        used = 0;
        memset(in, 0, (n + 1) * sizeof *in); /* a new heap: nothing in it yet */
    }
    int64_t base = 0;
    for (size_t k = 0; k < nheaps; k++) {
        for (size_t i = 0; i < n; i++)
            if (p->t[i].offset == AB_NONE && heap[i] == k) off[i] += base;
        base = ref_up(base + heap_size[k], M);
    }
    free(dur);
    free(order);
    free(in);
    free(done);
    free(heap);
    free(heap_size);
}

/* ---- random suites against the reference --------------------------------------------- */

static uint64_t rng;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A random suite of n tensors: short ranges over a short horizon (many
 * conflicts, many ties of size and duration), aligns 1 to 16 when aligned,
 * a few fixed offsets when fixed (none colliding). */
static void random_suite(ab_problem *p, size_t n, bool aligned, bool fixed) {
    static char names[64][16];
    ab_problem_init(p);
    int64_t horizon = 1 + (int64_t)(next() % 20);
    int64_t sizes = next() % 3 == 0 ? 4 : 100; /* sometimes few sizes: ties */
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "t%zu", i);
        int64_t s = (int64_t)(next() % (uint64_t)horizon);
        ab_tensor t = T(names[i], 1 + (int64_t)(next() % (uint64_t)sizes), s,
                        s + (int64_t)(next() % 6));
        if (sizes == 4) t.size *= 8;
        if (aligned) t.align = (int64_t)1 << (next() % 5);
        if (fixed && next() % 6 == 0) t.offset = t.align * (int64_t)(next() % 40);
        for (size_t j = 0; j < i && t.offset != AB_NONE; j++) {
            const ab_tensor *b = &p->t[j];
            if (b->offset != AB_NONE && ab_conflict(&t, b) && t.offset < b->offset + b->size &&
                b->offset < t.offset + t.size)
                t.offset = AB_NONE;
        }
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

Test(xla, both_planners_match_the_reference_on_random_suites) {
    static const int64_t aligns[] = {1, 1, 2, 3, 8, 20, 64};
    rng = 0x5EED0032ull;
    int rounds = abt_cases(1500, 6000), compared = 0, multi_heap = 0;
    for (int round = 0; round < rounds; round++) {
        ab_problem p;
        random_suite(&p, (size_t)(1 + next() % 40), round % 3 != 0, round % 4 == 1);
        bool temporal = next() % 2;
        int64_t align = aligns[next() % 7], sum = 0;
        for (size_t i = 0; i < p.n; i++) sum += p.t[i].size;
        int64_t limit = 1 + (int64_t)(next() % (uint64_t)(sum / 2 + 1));
        char spec[2][128];
        snprintf(spec[0], sizeof spec[0], "xla-best-fit:sort=%s,align=%lld",
                 temporal ? "temporal" : "spatial", (long long)align);
        snprintf(spec[1], sizeof spec[1], "xla-constrained-best-fit:size_limit=%lld,sort=%s,align=%lld",
                 (long long)limit, temporal ? "temporal" : "spatial", (long long)align);
        for (int s = 0; s < 2; s++) {
            int64_t *want = calloc(p.n + 1, sizeof *want);
            ref_plan(&p, temporal, align, s == 0 ? -1 : limit, want);
            char note[160];
            int64_t arena;
            int64_t *got = plan_ok(spec[s], &p, &arena, note); /* valid, by the checker */
            for (size_t i = 0; i < p.n; i++)
                cr_assert_eq(got[i], want[i], "round %d, %s: %s at %lld, the reference's %lld",
                             round, spec[s], p.t[i].name, (long long)got[i], (long long)want[i]);
            cr_assert_geq(arena, abt_max_load(&p));
            multi_heap += s == 1 && strstr(note, " 1 heap ") == NULL;
            compared++;
            free(want);
            free(got);
        }
        ab_problem_free(&p);
    }
    cr_assert_eq(compared, 2 * rounds);
    cr_assert_gt(multi_heap, rounds / 4, "the limits split often enough: %d", multi_heap);
}

/* A generated suite of a thousand tensors: the index-based planner and the
 * plain reference agree there too. */
Test(xla, matches_the_reference_on_a_generated_thousand) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_suite_load(abt_src("suites/generated/random-1k.yaml"), &p, &err), AB_OK,
                 "%s", err.msg);
    int64_t *want = calloc(p.n + 1, sizeof *want);
    ref_plan(&p, false, 1, -1, want);
    int64_t *got = plan_ok("xla-best-fit", &p, NULL, NULL);
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(got[i], want[i], "%s", p.t[i].name);
    free(want);
    free(got);
    ab_problem_free(&p);
}
