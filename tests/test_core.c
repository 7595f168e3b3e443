/*
 * test_core.c — core types: spec parsing, integers, units and coarsening,
 * name lookup, arena views, and allocation failures.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "core/problem.h"

#define T(nm, sz, s, e, ...) \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1, \
                 .offset = AB_NONE, .logical_bits = (sz) * 8, __VA_ARGS__})

static void add_all(ab_problem *p, const ab_tensor *t, size_t n) {
    for (size_t i = 0; i < n; i++) cr_assert_eq(ab_problem_add(p, &t[i], NULL), AB_OK);
}

Test(spec, parses_name_without_params) {
    char *name;
    ab_params prm;
    cr_assert_eq(ab_spec_parse("first-fit", &name, &prm, NULL), AB_OK);
    cr_assert_str_eq(name, "first-fit");
    cr_assert_eq(prm.n, 0);
    ab_free(name);
    ab_params_free(&prm);
}

Test(spec, parses_params_and_quoted_values) {
    char *name;
    ab_params prm;
    cr_assert_eq(ab_spec_parse("external:cmd='a,b c',k=64", &name, &prm, NULL), AB_OK);
    cr_assert_str_eq(name, "external");
    cr_assert_eq(prm.n, 2);
    cr_assert_str_eq(ab_params_get(&prm, "cmd"), "a,b c");
    int64_t k;
    cr_assert_eq(ab_params_int(&prm, "k", 1, 1, 1 << 20, &k, NULL), AB_OK);
    cr_assert_eq(k, 64);
    ab_free(name);
    ab_params_free(&prm);
}

Test(spec, rejects_malformed_specs) {
    const char *bad[] = {":k=1", "ff:k", "ff:k=1,k=2", "ff:cmd='open", "ff:=3", "ff:a='x'y"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *name;
        ab_params prm;
        ab_error err;
        cr_assert_eq(ab_spec_parse(bad[i], &name, &prm, &err), AB_EINPUT, "%s", bad[i]);
        cr_assert(strstr(err.msg, "planner spec") != NULL, "%s: %s", bad[i], err.msg);
        cr_assert_null(name);
    }
}

Test(spec, rejects_integer_param_out_of_range) {
    ab_params prm = {0};
    char *name;
    ab_error err;
    cr_assert_eq(ab_spec_parse("x:k=0", &name, &prm, NULL), AB_OK);
    int64_t k;
    cr_assert_eq(ab_params_int(&prm, "k", 1, 1, 100, &k, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "parameter k") != NULL, "%s", err.msg);
    ab_free(name);
    ab_params_free(&prm);
}

Test(ints, parses_and_rejects) {
    int64_t v;
    cr_assert(ab_parse_int64("9223372036854775807", 19, &v) && v == INT64_MAX);
    cr_assert(ab_parse_int64("-9223372036854775808", 20, &v) && v == INT64_MIN);
    cr_assert(!ab_parse_int64("9223372036854775808", 19, &v));
    cr_assert(!ab_parse_int64("", 0, &v));
    cr_assert(!ab_parse_int64("-", 1, &v));
    cr_assert(!ab_parse_int64("12x", 3, &v));
    cr_assert(!ab_parse_int64("1.5", 3, &v));
    int64_t r;
    cr_assert(ab_align_up_ovf(INT64_MAX - 2, 8, &r));
    cr_assert(!ab_align_up_ovf(17, 16, &r) && r == 32);
}

Test(unit, is_gcd_of_sizes_aligns_above_one_and_offsets) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a", 1024, 0, 1), T("b", 3072, 1, 2)};
    add_all(&p, t, 2);
    cr_assert_eq(ab_problem_unit(&p), 1024);
    ab_tensor c = T("c", 2048, 0, 0, .align = 16);
    add_all(&p, &c, 1);
    cr_assert_eq(ab_problem_unit(&p), 16);
    ab_problem_free(&p);
}

Test(coarsen, rounds_sizes_up_and_scales_alignment) {
    ab_problem p, q;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a", 100, 0, 1), T("b", 64, 1, 2, .align = 128), T("c", 1, 0, 0, .align = 16),
                     T("d", 10, 3, 3, .offset = 192)};
    add_all(&p, t, 4);
    p.capacity = 1000;
    cr_assert_eq(ab_problem_coarsen(&p, 64, &q, NULL), AB_OK);
    cr_assert_eq(q.t[0].size, 2);
    cr_assert_eq(q.t[1].size, 1);
    cr_assert_eq(q.t[1].align, 2);
    cr_assert_eq(q.t[2].align, 1);
    cr_assert_eq(q.t[3].offset, 3);
    cr_assert_eq(q.capacity, 15);
    ab_problem_free(&q);
    p.t[3].offset = 100;
    ab_error err;
    cr_assert_eq(ab_problem_coarsen(&p, 64, &q, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "'d'") != NULL, "%s", err.msg);
    ab_problem_free(&p);
}

Test(names, finds_and_reports_duplicates) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a", 1, 0, 1), T("bb", 1, 0, 1), T("c", 1, 0, 1)};
    add_all(&p, t, 3);
    ab_names *nt;
    cr_assert_eq(ab_names_build(&p, &nt, NULL, NULL, NULL), AB_OK);
    cr_assert_eq(ab_names_find(nt, "bb", 2), 1);
    cr_assert_eq(ab_names_find(nt, "bbx", 1), AB_NO_TENSOR); /* "b" */
    cr_assert_eq(ab_names_find(nt, "zz", 2), AB_NO_TENSOR);
    ab_names_free(nt);
    ab_tensor d = T("bb", 2, 0, 0);
    add_all(&p, &d, 1);
    size_t a, b;
    cr_assert_eq(ab_names_build(&p, &nt, &a, &b, NULL), AB_EINPUT);
    cr_assert_eq(a, 1);
    cr_assert_eq(b, 3);
    ab_problem_free(&p);
}

Test(view, keeps_io_outside_the_arena_unless_workspace) {
    ab_problem p, v;
    ab_problem_init(&p);
    ab_tensor t[] = {T("in", 8, 0, 0, .kind = AB_KIND_INPUT), T("x", 4, 0, 1),
                     T("out", 2, 1, 1, .kind = AB_KIND_OUTPUT)};
    add_all(&p, t, 3);
    size_t *map;
    cr_assert_eq(ab_problem_arena_view(&p, &v, &map, NULL), AB_OK);
    cr_assert_eq(v.n, 1);
    cr_assert_str_eq(v.t[0].name, "x");
    cr_assert_eq(map[0], 1);
    cr_assert_eq(ab_problem_io_outside(&p), 10);
    ab_free(map);
    ab_problem_free(&v);
    p.io = AB_IO_WORKSPACE;
    cr_assert_eq(ab_problem_arena_view(&p, &v, NULL, NULL), AB_OK);
    cr_assert_eq(v.n, 3);
    cr_assert_eq(ab_problem_io_outside(&p), 0);
    ab_problem_free(&v);
    ab_problem_free(&p);
}

Test(alloc, clone_fails_cleanly_at_every_allocation) {
    ab_problem p, q;
    ab_problem_init(&p);
    int64_t shape[] = {2, 3};
    ab_tensor t[] = {T("a", 6, 0, 1, .ndim = 2, .shape = shape), T("b", 1, 0, 1)};
    add_all(&p, t, 2);
    p.name = ab_strdup("s");
    p.description = ab_strdup("d");
    ab_alloc_fail_at(0);
    cr_assert_eq(ab_problem_clone(&p, &q, NULL), AB_OK);
    long calls = ab_alloc_fail_at(0);
    ab_problem_free(&q);
    cr_assert_gt(calls, 3);
    for (long n = 1; n <= calls; n++) {
        ab_alloc_fail_at(n);
        cr_assert_eq(ab_problem_clone(&p, &q, NULL), AB_ENOMEM, "allocation %ld", n);
        ab_alloc_fail_at(0);
        cr_assert_eq(q.n, 0);
    }
    ab_problem_free(&p);
}
