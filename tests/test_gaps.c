/*
 * test_gaps.c — the gap index of program order's sweep (planners/gaps.h)
 * against the placement rules themselves (abp_rule_first_fit and
 * abp_rule_best_fit run on the sorted list of ranges): after every addition
 * or removal of a random disjoint range, both rules are asked for random
 * sizes and alignments, with small offsets (touching ranges, gaps of equal
 * length that tie) and offsets near 2^63 (the rules' overflow cases).
 */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "planners/gaps.h"
#include "planners/greedy.h"
#include "tests/support.h"

static uint64_t rng(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int by_lo(const void *pa, const void *pb) {
    const abp_busy *a = pa, *b = pb;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* One random run of ops operations over at most cap ranges; base is added
 * to every offset (0, or near INT64_MAX). */
static void one_run(uint64_t seed, size_t cap, int ops, int64_t base, int64_t spread) {
    uint64_t s = seed;
    abp_gaps *g = abp_gaps_new(cap);
    cr_assert_not_null(g);
    abp_busy *live = malloc(cap * sizeof *live), *sorted = malloc(cap * sizeof *sorted);
    bool *in = calloc(cap, sizeof *in);
    cr_assert(live && sorted && in);
    size_t n = 0;
    static const int64_t aligns[] = {1, 1, 2, 16, 64, 4096};
    for (int op = 0; op < ops; op++) {
        size_t id = rng(&s) % cap;
        if (in[id]) {
            abp_gaps_remove(g, id);
            in[id] = false;
            for (size_t k = 0; k < n; k++)
                if (live[k].idx == id) {
                    live[k] = live[--n];
                    break;
                }
        } else {
            int64_t lo = base + (int64_t)(rng(&s) % (uint64_t)spread);
            int64_t len = 1 + (int64_t)(rng(&s) % 40);
            if (lo > INT64_MAX - len) continue;
            int64_t hi = lo + len;
            bool clear = true;
            for (size_t k = 0; k < n && clear; k++) clear = hi <= live[k].lo || live[k].hi <= lo;
            if (!clear) continue;
            abp_gaps_add(g, id, lo, hi);
            in[id] = true;
            live[n++] = (abp_busy){lo, hi, id};
        }
        for (size_t k = 0; k < n; k++) sorted[k] = live[k];
        qsort(sorted, n, sizeof *sorted, by_lo);
        for (int q = 0; q < 4; q++) {
            int64_t size = 1 + (int64_t)(rng(&s) % 30), align = aligns[rng(&s) % 6];
            int64_t want = -7, got = -7;
            for (int rule = 0; rule < 2; rule++) {
                const char *name = rule ? "best-fit" : "first-fit";
                bool w = rule ? abp_rule_best_fit(sorted, n, size, align, &want)
                              : abp_rule_first_fit(sorted, n, size, align, &want);
                bool o = rule ? abp_gaps_best_fit(g, size, align, &got)
                              : abp_gaps_first_fit(g, size, align, &got);
                cr_assert_eq(o, w, "seed %llu op %d: %s ok %d, the rule %d",
                             (unsigned long long)seed, op, name, o, w);
                if (w) cr_assert_eq(got, want, "seed %llu op %d: %s size %lld align %lld: "
                                    "%lld, the rule %lld", (unsigned long long)seed, op, name,
                                    (long long)size, (long long)align, (long long)got,
                                    (long long)want);
            }
        }
    }
    abp_gaps_free(g);
    free(live);
    free(sorted);
    free(in);
}

Test(gaps, small_offsets_match_the_rules) {
    int runs = abt_cases(60, 600);
    for (int r = 0; r < runs; r++) one_run(100 + (uint64_t)r, 2 + (size_t)r % 50, 400, 0, 300);
}

Test(gaps, many_ranges_match_the_rules) {
    one_run(7, 400, 6000, 0, 20000);
}

Test(gaps, offsets_near_the_int64_limit_match_the_rules) {
    int runs = abt_cases(40, 400);
    for (int r = 0; r < runs; r++)
        one_run(900 + (uint64_t)r, 2 + (size_t)r % 30, 300, INT64_MAX - 400, 400);
}
