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

#include "core/ab.h"
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

/* ---- memory (nogood.h's MEMORY) ------------------------------------------
 * States over many ids, n of them with random values: nearly all distinct. */
#define MANY 1000
static int64_t many_val[MANY], many_stamp[MANY], many_serial, many_ids[8];

static abp_ng_view many_state(size_t n) {
    uint64_t h = 0;
    ++many_serial;
    for (size_t k = 0; k < n; k++) {
        int64_t id;
        do id = (int64_t)(next() % MANY); while (many_stamp[id] == many_serial);
        many_stamp[id] = many_serial;
        many_ids[k] = id;
        many_val[id] = (int64_t)(next() % 1000);
        h += abp_ng_item((uint64_t)id);
    }
    return (abp_ng_view){.val = many_val, .stamp = many_stamp, .serial = many_serial, .n = n,
                         .h = abp_ng_hash_end(h, n)};
}

static size_t held(const abp_ng *T) {
    return (T->mask ? T->mask + 1 : 0) * (sizeof *T->slot + sizeof *T->at) + T->pool_cap * sizeof *T->pool;
}

/* After each insert: the table holds at most limit, and each growth it made
 * held old + new within the array's share (the old array is freed after the
 * new one is filled). Returns how many growths it saw. */
static int within_limit_while_growing(size_t limit, size_t n, int steps) {
    abp_ng T = {.limit = limit};
    size_t slot_share = limit / 3, pool_share = limit - limit / 3;
    size_t slots = 0, cap = 0;
    int growths = 0;
    for (int k = 0; k < steps; k++) {
        abp_ng_view v = many_state(n);
        abp_ng_insert(&T, &v, many_ids, 0);
        cr_assert_leq(held(&T), limit, "step %d: %zu bytes held under a limit of %zu", k, held(&T), limit);
        size_t now = T.mask ? T.mask + 1 : 0;
        if (slots != 0 && now != slots) {
            growths++;
            cr_assert_leq((slots + now) * (sizeof *T.slot + sizeof *T.at), slot_share,
                          "limit %zu step %d: the slots grew from %zu to %zu, over their share %zu at the peak",
                          limit, k, slots, now, slot_share);
        }
        if (cap != 0 && T.pool_cap != cap) {
            growths++;
            cr_assert_leq((cap + T.pool_cap) * sizeof *T.pool, pool_share,
                          "limit %zu step %d: the pool grew from %zu to %zu words, over its share %zu at the peak",
                          limit, k, cap, T.pool_cap, pool_share);
        }
        slots = now, cap = T.pool_cap;
    }
    cr_assert_gt(T.resets, 0, "limit %zu: the cap was never reached", limit);
    cr_assert_not(T.no_growth);
    abp_ng_free(&T);
    return growths;
}

Test(nogood, never_holds_more_than_its_limit_not_even_while_growing) {
    rng = 4;
    cr_assert_eq(within_limit_while_growing((size_t)64 << 10, 3, 20000), 0); /* its first arrays: no room to grow */
    cr_assert_gt(within_limit_while_growing((size_t)1 << 20, 2, 60000), 0);  /* the slots grow */
    cr_assert_gt(within_limit_while_growing((size_t)3 << 20, 2, 100000), 1); /* the slots and the pool */
    cr_assert_gt(within_limit_while_growing((size_t)3 << 20, 6, 100000), 1); /* bigger entries */
}

Test(nogood, a_limit_under_its_least_arrays_holds_nothing) {
    size_t limits[] = {1, 512, 768, 1000, 2000, 3071};
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
        rng = 5;
        abp_ng T = {.limit = limits[i]};
        int64_t n = run(&T, 50, 3, 2000, false);
        cr_assert_eq(n, 0, "limit %zu: %lld refutations", limits[i], (long long)n);
        cr_assert_eq(T.mask, 0, "limit %zu: %zu bytes held", limits[i], held(&T));
        cr_assert_eq(held(&T), 0);
        abp_ng_free(&T);
    }
    rng = 5;
    abp_ng T = {.limit = 3072}; /* its least: 64 slots, 1 KiB, and 64 pool words at least */
    cr_assert_gt(run(&T, 50, 3, 2000, false), 0);
    cr_assert_leq(held(&T), 3072);
    abp_ng_free(&T);
}

/* A growth whose allocation fails (the slots' calloc, then their at array)
 * is the cap: the table keeps its arrays, is emptied, and goes on learning
 * at its size without allocating again. */
Test(nogood, a_failed_growth_empties_the_table_which_goes_on_learning_without_allocating) {
    for (long fail = 1; fail <= 2; fail++) {
        rng = 6;
        abp_ng T = {0};
        abp_ng_view v = many_state(2);
        abp_ng_insert(&T, &v, many_ids, 0); /* its first arrays */
        cr_assert_neq(T.mask, 0);
        size_t slots = T.mask + 1, cap = T.pool_cap, used = 0;
        const int64_t *pool = T.pool;
        long calls = 0;
        int k = 0;
        for (; calls == 0; k++) { /* up to the insert that grows */
            cr_assert_lt(k, 100000, "no growth");
            used = T.used;
            v = many_state(2);
            ab_alloc_fail_at(fail);
            abp_ng_insert(&T, &v, many_ids, 0);
            calls = ab_alloc_fail_at(0);
        }
        cr_assert_geq(calls, fail, "insert %d: %ld allocations, the %ldth failing", k, calls, fail);
        cr_assert_eq(used, 3 * slots / 4, "it grew with %zu of %zu slots used", used, slots);
        /* (a) its arrays are kept */
        cr_assert_eq(T.mask + 1, slots);
        cr_assert(T.slot != NULL && T.at != NULL);
        cr_assert_eq(T.pool, pool);
        cr_assert_eq(T.pool_cap, cap);
        cr_assert(T.no_growth);
        /* (b) emptied, then the state recorded */
        cr_assert_eq(T.resets, 1, "fail at %ld: %lld resets", fail, (long long)T.resets);
        cr_assert_eq(T.used, 1, "fail at %ld: %zu entries after the failed growth", fail, T.used);
        cr_assert(abp_ng_refuted(&T, &v, 0), "the state of the failed growth was not recorded");
        /* (c) it goes on learning, emptied at its size; (d) without allocating */
        for (int j = 0; j < 20000; j++) {
            v = many_state(2);
            abp_ng_insert(&T, &v, many_ids, 0);
            cr_assert(abp_ng_refuted(&T, &v, 0), "insert %d after the failed growth was not recorded", j);
        }
        cr_assert_eq(ab_alloc_fail_at(0), 0, "allocations after the failed growth");
        cr_assert_eq(T.mask + 1, slots);
        cr_assert_gt(T.resets, 1);
        cr_assert_gt(T.hits, 20000);
        abp_ng_free(&T);
    }
}

/* A first allocation that fails records nothing, and is not retried: a table
 * that could not be had once is not asked for on every refuted node. */
Test(nogood, a_failed_first_allocation_records_nothing_and_is_not_retried) {
    for (long fail = 1; fail <= 3; fail++) { /* the pool, the slots, their at */
        rng = 7;
        abp_ng T = {0};
        abp_ng_view v = many_state(3);
        ab_alloc_fail_at(fail);
        abp_ng_insert(&T, &v, many_ids, 0);
        cr_assert_eq(ab_alloc_fail_at(0), fail);
        cr_assert_eq(T.mask, 0);
        cr_assert_eq(held(&T), 0);
        cr_assert(T.no_growth);
        for (int j = 0; j < 100; j++) {
            v = many_state(3);
            abp_ng_insert(&T, &v, many_ids, 0);
            cr_assert_not(abp_ng_refuted(&T, &v, 0));
        }
        cr_assert_eq(ab_alloc_fail_at(0), 0, "fail at %ld: the first allocation was tried again", fail);
        abp_ng_free(&T);
        cr_assert_not(T.no_growth, "abp_ng_free leaves it as new");
    }
}
