/*
 * test_bound.c — bounds as certificates (oracle/bound.h): each kind's
 * certificate is checked again by abo_bound_recheck, which must hold for the
 * bound as computed and fail for a value the certificate does not prove; the
 * max-load bound agrees with oracle/bounds.h on random problems.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "oracle/bound.h"
#include "oracle/bounds.h"
#include "tests/brute.h"

static uint64_t rng = 0x51ed2701f3a5c9b7u;

static uint64_t next(void) {
    rng += 0x9e3779b97f4a7c15u;
    uint64_t z = rng;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int64_t pick(int64_t lo, int64_t hi) { return lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)); }

static void random_problem(ab_problem *p, size_t n, int64_t T, int64_t smax) {
    static char names[16][8];
    ab_problem_init(p);
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "t%zu", i);
        int64_t s = pick(0, T - 1), e = pick(s, s + pick(0, T / 2));
        ab_tensor t = {.name = names[i], .size = pick(1, smax), .start = s, .end = e,
                       .align = (int64_t)1 << pick(0, 3), .offset = AB_NONE,
                       .kind = AB_KIND_INTERMEDIATE};
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

static abo_recheck recheck(const ab_problem *p, const abo_bound *b, char *why, size_t len) {
    abo_recheck v;
    ab_error err;
    cr_assert_eq(abo_bound_recheck(p, b, 0, &v, why, len, &err), AB_OK, "%s", err.msg);
    return v;
}

Test(bound, kinds_have_words_that_parse_back) {
    for (int k = 0; k < ABO_NBOUND_KINDS; k++) {
        abo_bound_kind back;
        cr_assert(abo_bound_kind_parse(abo_bound_kind_word((abo_bound_kind)k), &back));
        cr_assert_eq((int)back, k);
        cr_assert_str_neq(abo_bound_kind_certificate((abo_bound_kind)k), "?");
    }
    abo_bound_kind x;
    cr_assert_not(abo_bound_kind_parse("max_load", &x));
    cr_assert_str_eq(abo_bound_kind_word(ABO_NBOUND_KINDS), "?");
}

Test(bound, max_load_agrees_with_the_figures_and_rechecks) {
    for (int k = 0; k < 300; k++) {
        ab_problem p;
        random_problem(&p, (size_t)pick(1, 12), pick(1, 10), 100);
        abo_bound b;
        ab_error err;
        cr_assert_eq(abo_bound_max_load(&p, &b, &err), AB_OK, "%s", err.msg);
        abo_bounds f;
        cr_assert_eq(abo_bounds_compute(&p, &f, NULL), AB_OK);
        cr_assert_eq(b.value, f.max_load);
        char why[200];
        cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_HOLDS, "%s", why);
        b.value++; /* one byte more than the tensors at T hold */
        cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_FAILS, "%s", why);
        cr_assert(strstr(why, "below the bound") != NULL, "%s", why);
        ab_problem_free(&p);
    }
}

Test(bound, a_malformed_certificate_is_an_input_error) {
    ab_problem p;
    random_problem(&p, 3, 4, 10);
    abo_bound b;
    cr_assert_eq(abo_bound_max_load(&p, &b, NULL), AB_OK);
    snprintf(b.certificate, sizeof b.certificate, "instruction two");
    abo_recheck v;
    char why[200];
    ab_error err;
    cr_assert_eq(abo_bound_recheck(&p, &b, 0, &v, why, sizeof why, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "instruction T") != NULL, "%s", err.msg);
    b.kind = ABO_BOUND_SUBSET;
    snprintf(b.certificate, sizeof b.certificate, "window 5..2");
    cr_assert_eq(abo_bound_recheck(&p, &b, 0, &v, why, sizeof why, &err), AB_EINPUT);
    ab_problem_free(&p);
}

/* The subset bound never passes the optimum (the brute force's), rechecks,
 * and a value one unit above the window's optimum fails the recheck. */
Test(bound, subset_bounds_recheck_and_never_pass_the_optimum) {
    int above = 0;
    for (int k = 0; k < 120; k++) {
        ab_problem p;
        random_problem(&p, (size_t)pick(3, 7), pick(3, 8), 40);
        int64_t whole = abt_brute_optimum(&p, NULL);
        abo_subset_opts o;
        abo_subset_opts_init(&o);
        o.time_limit = 30;
        abo_bound b;
        ab_error err;
        cr_assert_eq(abo_bound_subset(&p, &o, &b, &err), AB_OK, "%s", err.msg);
        cr_assert_leq(b.value, whole, "%s", b.certificate);
        abo_bounds f;
        cr_assert_eq(abo_bounds_compute(&p, &f, NULL), AB_OK);
        cr_assert_geq(b.value, f.max_load);
        above += b.value > f.max_load;
        char why[200];
        cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_HOLDS, "%s: %s",
                     b.certificate, why);
        if (strstr(b.certificate, "its optimum") != NULL) {
            b.value = whole + 1; /* above the whole optimum, so above the window's */
            cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_FAILS, "%s: %s",
                         b.certificate, why);
        }
        ab_problem_free(&p);
    }
    cr_assert_gt(above, 0, "no draw had a subset bound above max-load");
}

Test(bound, a_refutation_says_it_is_not_rechecked_here) {
    ab_problem p;
    random_problem(&p, 3, 4, 10);
    abo_bound b;
    abo_bound_refutation("canonical:target=capacity", 99, 1234, &b);
    cr_assert_eq(b.value, 100);
    char why[200];
    cr_assert_eq(recheck(&p, &b, why, sizeof why), ABO_RECHECK_UNCHECKED);
    cr_assert(strstr(why, "canonical:target=capacity") != NULL, "%s", why);
    ab_problem_free(&p);
}
