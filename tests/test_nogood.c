/*
 * test_nogood.c — the table of refuted search states (planners/nogood.c),
 * against a plain list of everything recorded.
 *
 * The reference refutes a state when some recorded state has the same
 * items, values <= its own item by item, and a capacity >= its own. The
 * table must never refute a state the reference does not (that would turn
 * a feasible search node into a false refutation); while it forgets
 * nothing (under ABP_NG_WAYS entries per set of items, below its byte
 * limit) it must refute exactly the same ones.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "planners/nogood.h"

#define NID 10
#define NREC 4000

static uint64_t rng;
static uint64_t next(void) { /* splitmix64 */
    uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct state {
    unsigned mask;      /* items */
    int64_t val[NID];   /* values of the items */
    int64_t H;
} state;

static state rec[NREC];
static size_t nrec;

/* A random state: `sets` different item sets at most, values 0 .. vmax. */
static state random_state(unsigned sets, int64_t vmax) {
    state s = {0};
    uint64_t pick = next() % sets;
    uint64_t save = rng;
    rng = pick * 7919 + 1;
    while (__builtin_popcount(s.mask) < 2) s.mask = (unsigned)(next() & ((1u << NID) - 1));
    rng = save;
    for (int i = 0; i < NID; i++) s.val[i] = (s.mask >> i) & 1 ? (int64_t)(next() % (uint64_t)(vmax + 1)) : 0;
    s.H = (int64_t)(next() % 4);
    return s;
}

static bool reference(const state *s) {
    for (size_t r = 0; r < nrec; r++) {
        if (rec[r].mask != s->mask || rec[r].H < s->H) continue;
        bool le = true;
        for (int i = 0; i < NID && le; i++) le = rec[r].val[i] <= s->val[i];
        if (le) return true;
    }
    return false;
}

/* The state's view; its ids go to ids[], serial is bumped. */
static abp_ng_view view_of(const state *s, int64_t *stamp, int64_t *serial, int64_t *ids) {
    uint64_t h = 0;
    size_t n = 0;
    ++*serial;
    for (int i = 0; i < NID; i++) {
        if (!((s->mask >> i) & 1)) continue;
        stamp[i] = *serial;
        ids[n++] = i;
        h += abp_ng_item((uint64_t)i);
    }
    return (abp_ng_view){.val = s->val, .stamp = stamp, .serial = *serial, .n = n, .h = abp_ng_hash_end(h, n)};
}

/* Records and queries random states in turn; exact: the table must answer
 * as the reference does, else only never refute what the reference does
 * not. Returns the table's refutations. */
static int64_t run(abp_ng *T, unsigned sets, int64_t vmax, size_t steps, bool exact) {
    int64_t stamp[NID] = {0}, serial = 0, ids[NID], refuted = 0;
    nrec = 0;
    for (size_t k = 0; k < steps; k++) {
        state s = random_state(sets, vmax);
        abp_ng_view v = view_of(&s, stamp, &serial, ids);
        bool want = reference(&s), got = abp_ng_refuted(T, &v, s.H);
        refuted += got;
        cr_assert(!got || want, "step %zu: the table refutes a state nothing recorded refutes", k);
        if (exact) cr_assert_eq(got, want, "step %zu: the table %d, the reference %d", k, got, want);
        if (next() % 2 == 0 && nrec < NREC) { /* record it (as a search would, having refuted it) */
            rec[nrec++] = s;
            v = view_of(&s, stamp, &serial, ids);
            abp_ng_insert(T, &v, ids, s.H);
        }
    }
    return refuted;
}

Test(nogood, refutes_exactly_what_was_recorded_while_it_forgets_nothing) {
    rng = 1;
    abp_ng T = {0};
    /* 600 item sets for about 2,000 records: about 3 per set, far below the ways */
    int64_t n = run(&T, 600, 3, 4000, true);
    cr_assert_gt(n, 300, "%lld refutations", (long long)n);
    cr_assert_eq(T.hits, n);
    cr_assert_eq(T.resets, 0);
    abp_ng_free(&T);
}

Test(nogood, keeps_its_ways_and_its_limit_without_a_false_refutation) {
    rng = 2;
    abp_ng T = {0};
    /* 5 item sets: many more than ABP_NG_WAYS records each, so some are forgotten */
    int64_t n = run(&T, 5, 6, 4000, false);
    cr_assert_gt(n, 500, "%lld refutations", (long long)n);
    for (size_t i = 0; T.mask && i <= T.mask; i++) cr_assert(T.used <= T.mask + 1);
    abp_ng_free(&T);
    rng = 3;
    abp_ng S = {.limit = (size_t)64 << 10}; /* 64 KiB: emptied again and again */
    n = run(&S, 100000, 3, 4000, false);
    cr_assert_gt(S.resets, 0, "the limit was never reached");
    size_t bytes = (S.mask + 1) * (sizeof *S.slot + sizeof *S.at) + S.pool_cap * sizeof *S.pool;
    cr_assert_leq(bytes, S.limit, "%zu bytes held under a limit of %zu", bytes, S.limit);
    abp_ng_free(&S);
}

Test(nogood, a_state_with_lower_values_replaces_the_one_it_implies) {
    int64_t stamp[NID] = {0}, serial = 0, ids[NID];
    abp_ng T = {0};
    state hi = {.mask = 0x3, .val = {5, 5}, .H = 1}, lo = {.mask = 0x3, .val = {2, 4}, .H = 2};
    abp_ng_view v = view_of(&hi, stamp, &serial, ids);
    abp_ng_insert(&T, &v, ids, hi.H);
    v = view_of(&lo, stamp, &serial, ids);
    abp_ng_insert(&T, &v, ids, lo.H);
    cr_assert_eq(T.used, 1, "the weaker entry is overwritten, not kept beside");
    state q = {.mask = 0x3, .val = {3, 4}, .H = 2};
    v = view_of(&q, stamp, &serial, ids);
    cr_assert(abp_ng_refuted(&T, &v, q.H));
    q.val[1] = 3; /* below the recorded 4 */
    v = view_of(&q, stamp, &serial, ids);
    cr_assert_not(abp_ng_refuted(&T, &v, q.H));
    q.val[1] = 4, q.H = 3; /* a higher capacity than recorded */
    v = view_of(&q, stamp, &serial, ids);
    cr_assert_not(abp_ng_refuted(&T, &v, q.H));
    q.mask = 0x7, q.val[2] = 9, q.H = 2; /* other items */
    v = view_of(&q, stamp, &serial, ids);
    cr_assert_not(abp_ng_refuted(&T, &v, q.H));
    abp_ng_free(&T);
}
