/*
 * test_bounds.c — the max-load bound and the memory figures (oracle/bounds.c):
 * hand cases for inclusive ranges, I/O placement, logical vs physical bytes and
 * overflow, allocation failures, and seeded random problems against a brute
 * force over every instruction.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/bounds.h"
#include "tests/support.h"

static ab_problem P;

static void setup(void) { ab_problem_init(&P); }
static void teardown(void) { ab_problem_free(&P); }

TestSuite(bounds, .init = setup, .fini = teardown);

/* Adds an intermediate tensor (align 1, logical = size bytes, or unset when
 * size * 8 would overflow); returns its index. */
static size_t add(const char *name, int64_t size, int64_t start, int64_t end) {
    ab_tensor t = {.name = (char *)name, .size = size,
                   .logical_bits = size <= INT64_MAX / 8 ? size * 8 : 0,
                   .start = start, .end = end, .align = 1, .offset = AB_NONE};
    cr_assert_eq(ab_problem_add(&P, &t, NULL), AB_OK);
    return P.n - 1;
}

/* Computes the bounds of P, which must succeed. */
static abo_bounds bounds(void) {
    abo_bounds b;
    ab_error err;
    ab_error_clear(&err);
    ab_status st = abo_bounds_compute(&P, &b, &err);
    cr_assert_eq(st, AB_OK, "abo_bounds_compute: status %d: %s", st, err.msg);
    return b;
}

Test(bounds, reports_zero_figures_for_an_empty_problem) {
    abo_bounds b = bounds();
    cr_assert_eq(b.max_load, 0);
    cr_assert_eq(b.max_load_instr, 0);
    cr_assert_eq(b.max_load_count, 0);
    cr_assert_eq(b.max_single, 0);
    cr_assert_eq(b.logical_bytes, 0);
    cr_assert_eq(b.physical_bytes, 0);
    cr_assert_eq(b.io_outside, 0);
}

Test(bounds, counts_both_tensors_of_touching_live_ranges) {
    add("a", 10, 0, 2);
    add("b", 20, 2, 4);
    abo_bounds b = bounds();
    cr_assert_eq(b.max_load, 30);
    cr_assert_eq(b.max_load_instr, 2);
    cr_assert_eq(b.max_load_count, 2);
    cr_assert_eq(b.max_single, 20);
}

Test(bounds, does_not_add_disjoint_live_ranges) {
    add("a", 10, 0, 1);
    add("b", 20, 2, 4);
    abo_bounds b = bounds();
    cr_assert_eq(b.max_load, 20);
    cr_assert_eq(b.max_load_instr, 2);
    cr_assert_eq(b.max_load_count, 1);
}

Test(bounds, reports_the_earliest_instruction_reaching_max_load) {
    add("late", 30, 7, 8);
    add("early", 30, 1, 2);
    add("bg", 5, 0, 9);
    abo_bounds b = bounds();
    cr_assert_eq(b.max_load, 35);
    cr_assert_eq(b.max_load_instr, 1);
    cr_assert_eq(b.max_load_count, 2);
}

Test(bounds, finds_a_peak_inside_nested_ranges) {
    add("outer", 100, 0, 10);
    add("mid", 50, 2, 6);
    add("inner", 25, 4, 4);
    add("after", 160, 7, 7);
    abo_bounds b = bounds();
    cr_assert_eq(b.max_load, 260);
    cr_assert_eq(b.max_load_instr, 7);
    cr_assert_eq(b.max_load_count, 2);
}

Test(bounds, keeps_io_tensors_out_of_the_arena_with_io_separate) {
    size_t in = add("input", 1000, 0, 1);
    size_t out = add("output", 300, 3, 3);
    add("mid", 40, 1, 3);
    P.t[in].kind = AB_KIND_INPUT;
    P.t[out].kind = AB_KIND_OUTPUT;
    abo_bounds b = bounds();
    cr_assert_eq(b.max_load, 40);
    cr_assert_eq(b.max_load_count, 1);
    cr_assert_eq(b.max_single, 40);
    cr_assert_eq(b.io_outside, 1300);
    cr_assert_eq(b.physical_bytes, 1340, "physical counts every tensor");
}

Test(bounds, plans_io_tensors_in_the_arena_with_io_workspace) {
    size_t in = add("input", 1000, 0, 1);
    size_t out = add("output", 300, 3, 3);
    add("mid", 40, 1, 3);
    P.t[in].kind = AB_KIND_INPUT;
    P.t[out].kind = AB_KIND_OUTPUT;
    P.io = AB_IO_WORKSPACE;
    abo_bounds b = bounds();
    cr_assert_eq(b.max_load, 1040);
    cr_assert_eq(b.max_load_instr, 1);
    cr_assert_eq(b.max_load_count, 2);
    cr_assert_eq(b.max_single, 1000);
    cr_assert_eq(b.io_outside, 0);
}

Test(bounds, packs_sub_byte_tensors_in_logical_bytes) {
    size_t q = add("int4_weights", 8, 0, 0);
    P.t[q].logical_bits = 60; /* 15 int4 elements */
    P.t[q].align = 16;
    add("bytes", 5, 0, 0);
    abo_bounds b = bounds();
    cr_assert_eq(b.logical_bytes, 8 + 5);
    cr_assert_eq(b.physical_bytes, 16 + 5);
    cr_assert_eq(b.max_load, 13, "peak live counts sizes, not padding");
}

Test(bounds, counts_size_as_logical_when_bits_are_unset) {
    size_t t = add("t", 12, 0, 0);
    P.t[t].logical_bits = 0;
    cr_assert_eq(bounds().logical_bytes, 12);
}

Test(bounds, rounds_physical_bytes_up_to_the_align) {
    size_t a = add("a", 1, 0, 0), c = add("c", 64, 0, 0), d = add("d", 65, 0, 0);
    P.t[a].align = 8;
    P.t[c].align = 64;
    P.t[d].align = 64;
    cr_assert_eq(bounds().physical_bytes, 8 + 64 + 128);
}

Test(bounds, rejects_sizes_summing_past_64_bits) {
    /* Live bytes never exceed the physical sum, so that sum overflows first. */
    size_t a = add("a", AB_MAX_SIZE, 0, 3), c = add("b", AB_MAX_SIZE, 2, 3);
    P.t[a].logical_bits = P.t[c].logical_bits = 8; /* so the logical sum fits */
    abo_bounds b;
    ab_error err;
    cr_assert_eq(abo_bounds_compute(&P, &b, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "the physical bytes of the tensors overflow 64 bits");
    cr_assert_eq(b.max_load, 0, "zeroed on failure");
}

Test(bounds, rejects_logical_bytes_summing_past_64_bits) {
    for (int i = 0; i < 9; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        size_t k = add(name, 1, 0, 0);
        P.t[k].logical_bits = INT64_MAX;
    }
    abo_bounds b;
    ab_error err;
    cr_assert_eq(abo_bounds_compute(&P, &b, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg, "the logical bytes of the tensors overflow 64 bits");
}

Test(bounds, rejects_a_malformed_tensor) {
    add("bad", 0, 0, 0);
    abo_bounds b;
    ab_error err;
    cr_assert_eq(abo_bounds_compute(&P, &b, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "'bad'") != NULL, "%s", err.msg);
}

Test(bounds, returns_enomem_on_each_failed_allocation) {
    for (int i = 0; i < 30; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        add(name, 1 + i, i / 2, i / 2 + i % 3);
    }
    ab_alloc_fail_at(0);
    abo_bounds want = bounds();
    long calls = ab_alloc_fail_at(0);
    cr_assert_gt(calls, 0);
    for (long k = 1; k <= calls; k++) {
        abo_bounds b;
        ab_error err;
        ab_alloc_fail_at(k);
        ab_status st = abo_bounds_compute(&P, &b, &err);
        ab_alloc_fail_at(0);
        cr_assert_eq(st, AB_ENOMEM, "allocation %ld of %ld failed, status %d", k, calls, st);
    }
    abo_bounds again = bounds();
    cr_assert_eq(memcmp(&want, &again, sizeof want), 0);
}

/* ---- random problems against a brute force ---------------------------------- */

static uint64_t rnd(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int64_t below(uint64_t *s, int64_t n) { return (int64_t)(rnd(s) % (uint64_t)n); }

Test(bounds, agrees_with_a_brute_force_over_every_instruction) {
    const uint64_t cases = (uint64_t)abt_cases(1000, 20000);
    for (uint64_t seed = 1; seed <= cases; seed++) {
        ab_problem_free(&P);
        uint64_t s = seed;
        size_t n = (size_t)below(&s, 40);
        int64_t ninstr = 1 + below(&s, 20);
        P.io = below(&s, 2) ? AB_IO_WORKSPACE : AB_IO_SEPARATE;
        for (size_t i = 0; i < n; i++) {
            char name[16];
            snprintf(name, sizeof name, "t%zu", i);
            int64_t start = below(&s, ninstr);
            size_t k = add(name, 1 + below(&s, 100), start, start + below(&s, 4));
            P.t[k].kind = (ab_kind)(below(&s, 5) == 0 ? 1 + below(&s, 2) : 0);
            P.t[k].align = (int64_t)1 << below(&s, 4);
        }
        int64_t best = 0, best_t = 0, best_count = 0, single = 0, phys = 0, io = 0;
        for (int64_t t = 0; t < ninstr + 4; t++) {
            int64_t load = 0, count = 0;
            for (size_t i = 0; i < n; i++) {
                if (!ab_in_arena(&P, i) || P.t[i].start > t || t > P.t[i].end) continue;
                load += P.t[i].size;
                count++;
            }
            if (load > best) best = load, best_t = t, best_count = count;
        }
        for (size_t i = 0; i < n; i++) {
            int64_t a = P.t[i].align;
            phys += (P.t[i].size + a - 1) / a * a;
            if (!ab_in_arena(&P, i)) io += P.t[i].size;
            else if (P.t[i].size > single) single = P.t[i].size;
        }
        abo_bounds b = bounds();
        cr_assert_eq(b.max_load, best, "seed %" PRIu64, seed);
        cr_assert_eq(b.max_load_instr, best_t, "seed %" PRIu64, seed);
        cr_assert_eq((int64_t)b.max_load_count, best_count, "seed %" PRIu64, seed);
        cr_assert_eq(b.max_single, single, "seed %" PRIu64, seed);
        cr_assert_eq(b.physical_bytes, phys, "seed %" PRIu64, seed);
        cr_assert_eq(b.io_outside, io, "seed %" PRIu64, seed);
    }
}
