/*
 * test_pools_reference.c — pooled suites (issue 7, issue 30) judged against a
 * reference written here from the definitions of DESIGN.md §1 and
 * core/problem.h ("Pools"), sharing no code with oracle/ or core/problem.c:
 *
 *   - the pools lie end to end in their order: pool k starts at the sum of the
 *     sizes of the pools before it; only the last may be unsized;
 *   - a tensor's pool is the pool whose window holds its offset; a tensor past
 *     the end of a sized last pool counts in the last pool (from its base), a
 *     tensor at a negative offset counts in no pool's bytes;
 *   - a pool's bytes used are the highest end of a tensor in it, relative to
 *     its base; the arena is their sum;
 *   - two tensors in different pools never share a byte: an overlap is a pair
 *     in one pool, live at one instruction (inclusive ranges), sharing a byte;
 *   - alignment is relative to the pool's base (a tensor past the last pool:
 *     the last pool's base, where its bytes count);
 *   - a tensor outside its pool (past a sized pool's end, or past the last
 *     pool) is over capacity;
 *   - the max-load bound is the largest sum of sizes live at one instruction.
 *
 * Random suites mix sized and unsized pools (an unsized last pool, or every
 * pool sized, often too small). Their plans are made by real planners through
 * the one entry point `plan` and `run` use (ab_planner_run -> ab_planner_plan,
 * which applies the spill rule of planners/spill.c to one-arena planners), or
 * drawn at random, or mutated from a planner's plan (moved to another pool,
 * past the end of its pool, past the last pool, misaligned, a fixed offset
 * moved, swapped, stacked). Fixed seeds; case counts from abt_cases.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check.h"
#include "planners/planner.h"
#include "tests/support.h"

/* ---- random numbers ------------------------------------------------------ */

/* splitmix64. */
static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [0, n), n >= 1. */
static int64_t below(uint64_t *s, int64_t n) {
    return (int64_t)(next(s) % (uint64_t)n);
}

static int64_t align_down(int64_t x, int64_t a) {
    return x / a * a;
}

static int64_t align_up(int64_t x, int64_t a) {
    return (x + a - 1) / a * a;
}

/* ---- the reference --------------------------------------------------------- */

/* Where pool k starts: the sum of the sizes of the pools before it. */
static int64_t ref_base(const ab_problem *p, size_t k) {
    int64_t base = 0;
    for (size_t j = 0; j < k; j++) base += p->pools[j].size;
    return base;
}

/* The pool of joint offset off: the last pool starting at or below it (pool 0
 * for a negative offset). *past: off lies past the end of a sized last pool. */
static size_t ref_home(const ab_problem *p, int64_t off, bool *past) {
    size_t k = p->npools - 1;
    while (k > 0 && ref_base(p, k) > off) k--;
    int64_t size = p->pools[k].size;
    *past = off >= 0 && k + 1 == p->npools && size != AB_NONE && off >= ref_base(p, k) + size;
    return k;
}

typedef struct ref_result {
    abo_verdict verdict;
    bool misaligned, moved, overlap, outside, past;
    int64_t used[AB_MAX_POOLS];
    int64_t arena;
    int64_t max_load;
} ref_result;

/* true when tensors i and j at offsets off share a byte of one pool while
 * both are live. */
static bool ref_overlap(const ab_problem *p, const int64_t *off, size_t i, size_t j) {
    bool past;
    const ab_tensor *a = &p->t[i], *b = &p->t[j];
    if (ref_home(p, off[i], &past) != ref_home(p, off[j], &past)) return false;
    bool live = a->start <= b->end && b->start <= a->end;
    return live && off[i] < off[j] + b->size && off[j] < off[i] + a->size;
}

/* Judges offsets (one per tensor of p, p with pools) by the definitions at the
 * top of this file, by brute force. */
static ref_result ref_check(const ab_problem *p, const int64_t *off) {
    ref_result r = {.verdict = ABO_OK};
    int64_t last_end = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        bool past;
        size_t k = ref_home(p, off[i], &past);
        int64_t rel = off[i] - ref_base(p, k), size = p->pools[k].size;
        if (off[i] < 0 || rel % t->align != 0) r.misaligned = true;
        if (t->offset != AB_NONE && off[i] != t->offset) r.moved = true;
        if (off[i] >= 0 && (past || (size != AB_NONE && rel + t->size > size))) r.outside = true;
        r.past |= past;
        if (off[i] >= 0 && rel + t->size > r.used[k]) r.used[k] = rel + t->size;
        if (t->end > last_end) last_end = t->end;
    }
    for (size_t i = 0; i < p->n; i++)
        for (size_t j = i + 1; j < p->n; j++) r.overlap |= ref_overlap(p, off, i, j);
    for (size_t k = 0; k < p->npools; k++) r.arena += r.used[k];
    for (int64_t x = 0; x <= last_end; x++) {
        int64_t load = 0;
        for (size_t i = 0; i < p->n; i++)
            if (p->t[i].start <= x && x <= p->t[i].end) load += p->t[i].size;
        if (load > r.max_load) r.max_load = load;
    }
    r.verdict = r.misaligned ? ABO_MISALIGNED
                : r.moved    ? ABO_FIXED_MOVED
                : r.overlap  ? ABO_OVERLAP
                : r.outside  ? ABO_OVER_CAPACITY
                             : ABO_OK;
    return r;
}

/* ---- random pooled suites --------------------------------------------------- */

/* The most bytes a one-arena planner's plan of every tensor of p needs (sizes
 * rounded to 16 as tflm-greedy does, each aligned, all stacked above the
 * fixed tensor's joint end): a last pool this large holds any of them. */
static int64_t stacked_bytes(const ab_problem *p) {
    int64_t sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->offset != AB_NONE) sum += t->offset + t->size;
        else sum += align_up(t->size, 16) + t->align - 1;
    }
    return sum;
}

/* A random suite: 1 to 4 pools, the last one unsized in half the cases; when
 * every pool is sized, the last holds every plan (stacked_bytes) in half of
 * those, and is often too small in the rest. 1 to 10 tensors, aligns up to 16,
 * and in a fifth of the suites tensor 0 fixed at an aligned offset in a pool
 * that holds it. *holds: the last pool holds any plan. */
static void random_suite(uint64_t seed, ab_problem *p, bool *holds) {
    uint64_t s = seed * 0x2545F4914F6CDD1Dull;
    ab_problem_init(p);
    p->name = ab_strdup("random-pools");
    size_t npools = 1 + (size_t)below(&s, 4);
    bool unsized_last = below(&s, 2) == 0;
    p->pools = ab_calloc(npools, sizeof *p->pools);
    cr_assert(p->name && p->pools);
    for (size_t k = 0; k < npools; k++) {
        char name[8];
        snprintf(name, sizeof name, "p%zu", k);
        p->pools[k].name = ab_strdup(name);
        cr_assert_not_null(p->pools[k].name);
        p->pools[k].size = below(&s, 4) == 0 ? 1 + below(&s, 16) : 8 + below(&s, 120);
        p->npools++;
    }
    if (unsized_last) p->pools[npools - 1].size = AB_NONE;
    size_t n = 1 + (size_t)below(&s, 10);
    static const int64_t aligns[] = {1, 1, 1, 2, 4, 8, 16};
    for (size_t i = 0; i < n; i++) {
        char name[8];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t size = below(&s, 5) == 0 ? 1 + below(&s, 100) : 1 + below(&s, 40);
        int64_t start = below(&s, 12), end = start + below(&s, 5);
        ab_tensor t = {.name = name, .size = size, .logical_bits = size * 8, .start = start,
                       .end = end, .align = aligns[below(&s, 7)], .offset = AB_NONE};
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
    if (below(&s, 5) == 0) { /* tensor 0 fixed, in a pool that holds it */
        ab_tensor *t = &p->t[0];
        size_t k = (size_t)below(&s, (int64_t)npools);
        int64_t room = p->pools[k].size == AB_NONE ? 64 : p->pools[k].size - t->size;
        if (room >= 0) t->offset = ref_base(p, k) + align_down(below(&s, room + 1), t->align);
        /* a fixed offset is a multiple of its align within its pool */
    }
    int64_t need = stacked_bytes(p);
    if (!unsized_last && below(&s, 2) == 0) p->pools[npools - 1].size = need + below(&s, 16);
    int64_t last = p->pools[npools - 1].size;
    *holds = last == AB_NONE || last >= need;
}

/* A one-line picture of p and offsets off (NULL: none) for failure messages. */
static const char *describe(const ab_problem *p, const int64_t *off) {
    static char buf[4096];
    size_t len = 0;
#define PUT(...)                                                                       \
    do {                                                                               \
        if (len < sizeof buf) len += (size_t)snprintf(buf + len, sizeof buf - len, __VA_ARGS__); \
    } while (0)
    PUT("pools:");
    for (size_t k = 0; k < p->npools; k++) {
        if (p->pools[k].size == AB_NONE) PUT(" %s unsized", p->pools[k].name);
        else PUT(" %s %" PRId64, p->pools[k].name, p->pools[k].size);
    }
    PUT("\ntensors:");
    for (size_t i = 0; i < p->n && len < sizeof buf; i++) {
        const ab_tensor *t = &p->t[i];
        PUT("\n  %s size %" PRId64 " live [%" PRId64 ", %" PRId64 "] align %" PRId64, t->name,
            t->size, t->start, t->end, t->align);
        if (t->offset != AB_NONE) PUT(" fixed %" PRId64, t->offset);
        if (off != NULL) PUT(" at %" PRId64, off[i]);
    }
#undef PUT
    return buf;
}

/* ---- judging a plan ------------------------------------------------------------ */

/* What the judged plans came to, for the sweeps' coverage floors. */
typedef struct tally {
    size_t verdicts[ABO_NVERDICTS];
    size_t past;        /* plans with a tensor past the last pool */
    size_t sized_ok;    /* valid plans on suites whose pools are all sized */
    size_t unsized_ok;  /* valid plans on suites with an unsized last pool */
} tally;

/* Checks offsets against p with abo_check and the reference and asserts that
 * they agree: the verdict, each pool's used bytes, the arena (their sum, so
 * never below the reference's bytes), the overlap named (a real one, within
 * one pool) and, for a plan that packs, an arena at least max-load; a valid
 * plan keeps every sized pool within its size. Returns the checker's verdict. */
static abo_verdict judge(const ab_problem *p, const int64_t *off, const char *what,
                         uint64_t seed, tally *tl) {
    ab_plan plan;
    abo_report r;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(ab_plan_from_offsets(&plan, off, p->n, &err), AB_OK);
    ab_status st = abo_check(p, &plan, &r, &err);
    ab_plan_free(&plan);
    cr_assert_eq(st, AB_OK, "seed %" PRIu64 ", %s: abo_check: %s\n%s", seed, what, err.msg,
                 describe(p, off));
    ref_result want = ref_check(p, off);
    cr_assert_eq(r.verdict, want.verdict,
                 "seed %" PRIu64 ", %s: checker says %s, the reference %s\n%s\n%s", seed, what,
                 abo_verdict_word(r.verdict), abo_verdict_word(want.verdict), r.msg,
                 describe(p, off));
    cr_assert_eq(r.npools, p->npools);
    for (size_t k = 0; k < p->npools; k++) {
        cr_assert_eq(r.pool_used[k], want.used[k],
                     "seed %" PRIu64 ", %s: pool %zu uses %" PRId64 ", the reference %" PRId64
                     "\n%s",
                     seed, what, k, r.pool_used[k], want.used[k], describe(p, off));
        if (r.verdict == ABO_OK && p->pools[k].size != AB_NONE)
            cr_assert_leq(r.pool_used[k], p->pools[k].size,
                          "seed %" PRIu64 ", %s: a valid plan over pool %zu\n%s", seed, what, k,
                          describe(p, off));
    }
    cr_assert_eq(r.arena, want.arena, "seed %" PRIu64 ", %s: arena %" PRId64 ", reference %" PRId64
                 "\n%s", seed, what, r.arena, want.arena, describe(p, off));
    if (abo_verdict_packs(r.verdict))
        cr_assert_geq(r.arena, want.max_load,
                      "seed %" PRIu64 ", %s: arena %" PRId64 " below max-load %" PRId64 "\n%s",
                      seed, what, r.arena, want.max_load, describe(p, off));
    cr_assert_eq(r.overlap_a != AB_NO_TENSOR, want.overlap,
                 "seed %" PRIu64 ", %s: overlap named %d, the reference finds %d\n%s\n%s", seed,
                 what, r.overlap_a != AB_NO_TENSOR, want.overlap, r.msg, describe(p, off));
    if (want.overlap) {
        cr_assert(ref_overlap(p, off, r.overlap_a, r.overlap_b),
                  "seed %" PRIu64 ", %s: '%s' and '%s' do not overlap in one pool\n%s", seed,
                  what, p->t[r.overlap_a].name, p->t[r.overlap_b].name, describe(p, off));
        const ab_tensor *a = &p->t[r.overlap_a], *b = &p->t[r.overlap_b];
        cr_assert(a->start <= r.overlap_instr && r.overlap_instr <= a->end &&
                      b->start <= r.overlap_instr && r.overlap_instr <= b->end,
                  "seed %" PRIu64 ", %s: not both live at %" PRId64, seed, what, r.overlap_instr);
    }
    tl->verdicts[r.verdict]++;
    tl->past += want.past;
    if (r.verdict == ABO_OK) {
        if (p->pools[p->npools - 1].size == AB_NONE) tl->unsized_ok++;
        else tl->sized_ok++;
    }
    return r.verdict;
}

/* ---- plans --------------------------------------------------------------------- */

/* The planners run on every suite, as specs of `arenabench plan -p`. */
static const char *const specs[] = {"first-fit", "best-fit", "tflm-greedy",
                                    "usmp-greedy-by-size", "exact-cover:nodes=64"};
#define NSPECS (sizeof specs / sizeof specs[0])

/* Runs spec on p through ab_planner_run (ab_planner_plan: the spill rule for
 * one-arena planners) into off (p->n offsets). Returns its status. */
static ab_status plan_with(const char *spec, const ab_problem *p, int64_t *off) {
    const ab_planner *pl;
    ab_params prm;
    ab_problem view;
    ab_plan plan;
    ab_plan_stats st;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(ab_planner_resolve(spec, &pl, &prm, &err), AB_OK, "%s", err.msg);
    ab_status s = ab_planner_run(pl, &prm, p, &view, &plan, &st, &err);
    if (s == AB_OK) {
        cr_assert_eq(view.n, p->n, "every tensor is an intermediate: the view is the suite");
        cr_assert_eq(view.npools, p->npools);
        cr_assert_eq(plan.n, p->n);
        for (size_t i = 0; i < p->n; i++) {
            cr_assert_eq(plan.v[i].tensor, i);
            off[i] = plan.v[i].offset;
        }
    }
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_params_free(&prm);
    return s;
}

/* The joint offset where the pools end (the last pool's end, sized pools), or
 * the last pool's base plus 64 when it is unsized. */
static int64_t pools_end(const ab_problem *p) {
    size_t last = p->npools - 1;
    int64_t size = p->pools[last].size;
    return ref_base(p, last) + (size == AB_NONE ? 64 : size);
}

/* A random offset for tensor i: in a random pool at an offset a multiple of
 * its align that may run past the pool's end, or (all pools sized) past the
 * last pool; a fixed tensor mostly keeps its offset. */
static int64_t random_offset(const ab_problem *p, size_t i, uint64_t *s) {
    const ab_tensor *t = &p->t[i];
    if (t->offset != AB_NONE && below(s, 4) != 0) return t->offset;
    bool sized = p->pools[p->npools - 1].size != AB_NONE;
    size_t k = (size_t)below(s, (int64_t)p->npools + sized);
    if (k == p->npools) return align_up(pools_end(p), t->align) + t->align * below(s, 8);
    int64_t size = p->pools[k].size == AB_NONE ? 64 : p->pools[k].size;
    return ref_base(p, k) + align_down(below(s, size + 8), t->align);
}

/* Mutations of a plan, each named for the failure message. */
static const char *const mutation_names[] = {
    "a tensor moved to a random pool",      "a tensor stacked on a pool's top",
    "a tensor moved to its pool's end",     "a tensor moved past the last pool",
    "a tensor misaligned",                  "a fixed tensor moved",
    "two tensors' offsets swapped",         "a tensor put at another's offset",
};
#define NMUTATIONS (sizeof mutation_names / sizeof mutation_names[0])

/* Applies mutation m to off (p->n offsets) at random tensors. */
static void mutate(const ab_problem *p, int64_t *off, size_t m, uint64_t *s) {
    size_t i = (size_t)below(s, (int64_t)p->n), j = (size_t)below(s, (int64_t)p->n);
    const ab_tensor *t = &p->t[i];
    size_t k = (size_t)below(s, (int64_t)p->npools);
    int64_t base = ref_base(p, k), size = p->pools[k].size;
    switch (m) {
    case 0:
        off[i] = random_offset(p, i, s);
        break;
    case 1: { /* on top of what pool k holds: valid unless the pool is full */
        int64_t top = 0;
        bool past;
        for (size_t x = 0; x < p->n; x++)
            if (x != i && off[x] >= 0 && ref_home(p, off[x], &past) == k && !past &&
                off[x] - base + p->t[x].size > top)
                top = off[x] - base + p->t[x].size;
        off[i] = base + align_up(top, t->align);
        break;
    }
    case 2: /* ending within its last align bytes, or running past: into the next pool */
        if (size == AB_NONE) size = 64;
        off[i] = base + align_down(size - t->size + below(s, t->size + 1), t->align);
        if (off[i] < base) off[i] = base;
        break;
    case 3:
        off[i] = align_up(pools_end(p) + below(s, 24), t->align);
        break;
    case 4:
        off[i] = t->align > 1 && off[i] >= 0 ? off[i] + 1 + below(s, t->align - 1)
                                             : -1 - below(s, 8);
        break;
    case 5:
        if (p->t[0].offset != AB_NONE) off[0] = p->t[0].offset + p->t[0].align * (1 + below(s, 3));
        break;
    case 6: {
        int64_t x = off[i];
        off[i] = off[j];
        off[j] = x;
        break;
    }
    default:
        off[i] = off[j];
        break;
    }
}

/* ---- the sweeps ------------------------------------------------------------------ */

/* Every planner, on random suites with sized and unsized pools, through the
 * entry point of `plan` and `run`: the checker agrees with the reference on
 * its plan, and a plan on a suite whose pools hold it is valid. A planner may
 * fail only when they do not (usmp: "no pool holds"). */
Test(pools_reference, planner_plans_through_the_spill_rule_are_valid_when_the_pools_hold_them) {
    tally tl = {0};
    size_t held = 0, refused = 0, sized_suites = 0, unsized_suites = 0;
    const uint64_t cases = (uint64_t)abt_cases(200, 3000);
    for (uint64_t seed = 1; seed <= cases; seed++) {
        ab_problem p;
        bool holds;
        random_suite(seed, &p, &holds);
        held += holds;
        if (p.pools[p.npools - 1].size == AB_NONE) unsized_suites++;
        else sized_suites++;
        int64_t *off = calloc(p.n, sizeof *off);
        cr_assert_not_null(off);
        for (size_t q = 0; q < NSPECS; q++) {
            ab_status s = plan_with(specs[q], &p, off);
            if (s != AB_OK) {
                cr_assert(!holds, "seed %" PRIu64 ": %s failed (status %d) on pools that hold "
                          "every plan\n%s", seed, specs[q], s, describe(&p, NULL));
                refused++;
                continue;
            }
            abo_verdict v = judge(&p, off, specs[q], seed, &tl);
            if (holds)
                cr_assert_eq(v, ABO_OK, "seed %" PRIu64 ": %s's plan is %s on pools that hold "
                             "it\n%s", seed, specs[q], abo_verdict_word(v), describe(&p, off));
            else
                cr_assert(v == ABO_OK || v == ABO_OVER_CAPACITY,
                          "seed %" PRIu64 ": %s's plan is %s\n%s", seed, specs[q],
                          abo_verdict_word(v), describe(&p, off));
        }
        free(off);
        ab_problem_free(&p);
    }
    cr_log_info("planner plans: %zu suites hold every plan; %zu ok (%zu all sized, %zu unsized "
                "last), %zu over capacity, %zu refused",
                held, tl.verdicts[ABO_OK], tl.sized_ok, tl.unsized_ok,
                tl.verdicts[ABO_OVER_CAPACITY], refused);
    cr_assert_gt(sized_suites, cases / 4);
    cr_assert_gt(unsized_suites, cases / 4);
    cr_assert_gt(tl.sized_ok, cases, "valid plans on all-sized pools: %zu", tl.sized_ok);
    cr_assert_gt(tl.unsized_ok, cases, "valid plans with an unsized last pool: %zu",
                 tl.unsized_ok);
    cr_assert_gt(tl.verdicts[ABO_OVER_CAPACITY], cases / 4, "over capacity: %zu",
                 tl.verdicts[ABO_OVER_CAPACITY]);
}

/* Random plans and plans mutated from a planner's, on random suites with
 * sized and unsized pools: the checker's verdict, per-pool bytes, arena and
 * overlap agree with the reference's. */
Test(pools_reference, checker_agrees_with_the_reference_on_random_and_mutated_pooled_plans) {
    tally tl = {0};
    const uint64_t cases = (uint64_t)abt_cases(600, 10000);
    for (uint64_t seed = 1; seed <= cases; seed++) {
        ab_problem p;
        bool holds;
        random_suite(seed + 1000000, &p, &holds);
        uint64_t s = seed;
        int64_t *base = calloc(p.n, sizeof *base), *off = calloc(p.n, sizeof *off);
        cr_assert(base && off);
        for (int r = 0; r < 2; r++) {
            for (size_t i = 0; i < p.n; i++) off[i] = random_offset(&p, i, &s);
            judge(&p, off, "a random plan", seed, &tl);
        }
        const char *spec = specs[seed % NSPECS];
        if (plan_with(spec, &p, base) == AB_OK) {
            for (size_t m = 0; m < NMUTATIONS; m++) {
                memcpy(off, base, p.n * sizeof *off);
                mutate(&p, off, m, &s);
                char what[128];
                snprintf(what, sizeof what, "%s's plan, %s", spec, mutation_names[m]);
                judge(&p, off, what, seed, &tl);
            }
        }
        free(base);
        free(off);
        ab_problem_free(&p);
    }
    cr_log_info("pooled plans: ok %zu, overlap %zu, over capacity %zu, misaligned %zu, "
                "fixed moved %zu, past the last pool %zu",
                tl.verdicts[ABO_OK], tl.verdicts[ABO_OVERLAP], tl.verdicts[ABO_OVER_CAPACITY],
                tl.verdicts[ABO_MISALIGNED], tl.verdicts[ABO_FIXED_MOVED], tl.past);
    cr_assert_gt(tl.sized_ok, cases / 4, "valid, all sized: %zu", tl.sized_ok);
    cr_assert_gt(tl.unsized_ok, cases / 4, "valid, unsized last: %zu", tl.unsized_ok);
    cr_assert_gt(tl.verdicts[ABO_OVERLAP], cases / 2, "overlap: %zu", tl.verdicts[ABO_OVERLAP]);
    cr_assert_gt(tl.verdicts[ABO_OVER_CAPACITY], cases / 2, "over capacity: %zu",
                 tl.verdicts[ABO_OVER_CAPACITY]);
    cr_assert_gt(tl.verdicts[ABO_MISALIGNED], cases / 4, "misaligned: %zu",
                 tl.verdicts[ABO_MISALIGNED]);
    cr_assert_gt(tl.verdicts[ABO_FIXED_MOVED], cases / 50, "fixed moved: %zu",
                 tl.verdicts[ABO_FIXED_MOVED]);
    cr_assert_gt(tl.past, cases / 4, "past the last pool: %zu", tl.past);
}
