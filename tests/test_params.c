/*
 * test_params.c — planner parameters stated once (planners/params.c): a spec
 * resolved against a planner's ab_param_desc table gives every row a value,
 * given or default, typed by its kind; the getters never restate a default,
 * and asking one for a key the table lacks is a programming error (abort).
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <string.h>

#include "core/problem.h"
#include "planners/planner.h"
#include "tests/planners_testing.h"

/* A table of every kind, for the typing tests. */
static const ab_param_desc kinds[] = {
    {"n", "integer 1 .. 100", "7", "an int", AB_PARAM_INT, 1, 100, false},
    {"mem", "bytes", "2G", "bytes", AB_PARAM_BYTES, 0, 0, false},
    {"time", "seconds > 0", "1.5", "seconds", AB_PARAM_SECONDS, 0, 0, false},
    {"gap", "0 .. 1 or N%", "0", "a fraction", AB_PARAM_FRACTION, 0, 0, false},
    {"mode", "up|down|sideways", "down", "a choice", AB_PARAM_CHOICE, 0, 0, false},
    {"name", "text", "abc", "a text", AB_PARAM_TEXT, 0, 0, false},
    {"cap", "integer >= 1", "no limit", "an optional limit", AB_PARAM_INT, 1, INT64_MAX, true},
    {0},
};

/* params of "t:spec" resolved against kinds; asserts it resolves. */
static void bind(const char *spec, ab_params *prm) {
    char *name;
    ab_error err = {0};
    cr_assert_eq(ab_planner_spec_parse(spec, &name, prm, &err), AB_OK, "%s", err.msg);
    ab_free(name);
    cr_assert_eq(ab_params_bind("t", kinds, prm, NULL, &err), AB_OK, "%s", err.msg);
}

Test(params, applies_the_tables_defaults_typed) {
    ab_params prm;
    bind("t", &prm);
    cr_assert_eq(ab_param_i64(&prm, "n"), 7);
    cr_assert_eq(ab_param_i64(&prm, "mem"), INT64_C(2) << 30);
    cr_assert_float_eq(ab_param_seconds(&prm, "time"), 1.5, 1e-12);
    cr_assert_float_eq(ab_param_fraction(&prm, "gap"), 0.0, 1e-12);
    cr_assert_eq(ab_param_choice(&prm, "mode"), 1);
    cr_assert_str_eq(ab_param_text(&prm, "mode"), "down");
    cr_assert_str_eq(ab_param_text(&prm, "name"), "abc");
    cr_assert_not(ab_param_has(&prm, "cap"), "a no_default row has no value unless given");
    cr_assert(ab_param_has(&prm, "n"));
    cr_assert_not(prm.val[0].given);
    ab_params_free(&prm);
}

Test(params, types_each_kind_given) {
    ab_params prm;
    bind("t:n=100,mem=64K,time=0.25,gap=25%,mode=sideways,name='a,b',cap=9", &prm);
    cr_assert_eq(ab_param_i64(&prm, "n"), 100);
    cr_assert_eq(ab_param_i64(&prm, "mem"), 65536);
    cr_assert_float_eq(ab_param_seconds(&prm, "time"), 0.25, 1e-12);
    cr_assert_float_eq(ab_param_fraction(&prm, "gap"), 0.25, 1e-12, "N%% is N/100");
    cr_assert_eq(ab_param_choice(&prm, "mode"), 2);
    cr_assert_str_eq(ab_param_text(&prm, "mode"), "sideways");
    cr_assert_str_eq(ab_param_text(&prm, "name"), "a,b");
    cr_assert(ab_param_has(&prm, "cap"));
    cr_assert_eq(ab_param_i64(&prm, "cap"), 9);
    cr_assert(prm.val[0].given);
    ab_params_free(&prm);
    bind("t:mem=3m,gap=0.5,mode=up", &prm);
    cr_assert_eq(ab_param_i64(&prm, "mem"), INT64_C(3) << 20);
    cr_assert_float_eq(ab_param_fraction(&prm, "gap"), 0.5, 1e-12);
    cr_assert_eq(ab_param_choice(&prm, "mode"), 0);
    ab_params_free(&prm);
}

Test(params, rejects_bad_values_and_keys_with_the_users_message) {
    static const struct {
        const char *spec, *msg;
    } bad[] = {
        {"t:n=101", "planner t: parameter n: expected integer 1 .. 100, got '101'"},
        {"t:mem=1.5G", "planner t: parameter mem: expected bytes, got '1.5G'"},
        {"t:gap=101%", "planner t: parameter gap: expected 0 .. 1 or N%, got '101%'"},
        {"t:time=0", "planner t: parameter time: expected seconds > 0, got '0'"},
        {"t:mode=left", "planner t: parameter mode: expected up, down or sideways, got 'left'"},
        {"t:nn=3", "planner t takes no parameter 'nn' (it takes: n, mem, time, gap, mode, name, "
                   "cap)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *name;
        ab_params prm;
        ab_error err = {0};
        cr_assert_eq(ab_planner_spec_parse(bad[i].spec, &name, &prm, NULL), AB_OK);
        ab_free(name);
        const char *unknown = NULL;
        cr_assert_eq(ab_params_bind("t", kinds, &prm, &unknown, &err), AB_EINPUT, "%s",
                     bad[i].spec);
        cr_assert_str_eq(err.msg, bad[i].msg);
        cr_assert_eq(unknown != NULL, strstr(bad[i].spec, "nn=") != NULL);
        cr_assert_not(prm.resolved);
        ab_params_free(&prm);
    }
}

Test(params, a_default_that_fails_its_check_is_internal) {
    static const ab_param_desc broken[] = {
        {"n", "integer 1 .. 9", "10", "out of its own range", AB_PARAM_INT, 1, 9, false}, {0}};
    ab_params prm = {0};
    ab_error err = {0};
    cr_assert_eq(ab_params_bind("t", broken, &prm, NULL, &err), AB_EINTERNAL);
    cr_assert(strstr(err.msg, "default '10'") != NULL, "%s", err.msg);
}

Test(params, a_getter_for_a_key_not_in_the_table_aborts, .signal = SIGABRT) {
    ab_params prm;
    bind("t", &prm);
    (void)ab_param_i64(&prm, "nodes");
}

Test(params, a_getter_of_another_kind_aborts, .signal = SIGABRT) {
    ab_params prm;
    bind("t", &prm);
    (void)ab_param_seconds(&prm, "n");
}

Test(params, a_getter_of_an_absent_value_aborts, .signal = SIGABRT) {
    ab_params prm;
    bind("t", &prm);
    (void)ab_param_i64(&prm, "cap");
}

Test(params, a_getter_of_unresolved_params_aborts, .signal = SIGABRT) {
    ab_params prm = {0};
    (void)ab_param_text(&prm, "name");
}

Test(params, resolve_types_a_planners_spec) {
    const ab_planner *pl;
    ab_params prm;
    ab_error err = {0};
    cr_assert_eq(ab_planner_resolve("exact-cover:k=4,mem=64M,order=canon", &pl, &prm, &err), AB_OK,
                 "%s", err.msg);
    cr_assert_eq(ab_param_i64(&prm, "k"), 4);
    cr_assert_eq(ab_param_i64(&prm, "mem"), INT64_C(64) << 20);
    cr_assert_eq(ab_param_choice(&prm, "order"), 4);
    cr_assert_str_eq(ab_param_text(&prm, "search"), "up", "the default");
    cr_assert_not(ab_param_has(&prm, "time"));
    cr_assert_not(ab_param_has(&prm, "nodes"));
    ab_params_free(&prm);
    cr_assert_eq(ab_planner_resolve("ilp:gap=2.5%", &pl, &prm, &err), AB_OK, "%s", err.msg);
    cr_assert_float_eq(ab_param_fraction(&prm, "gap"), 0.025, 1e-12);
    cr_assert_float_eq(ab_param_seconds(&prm, "time"), 60.0, 1e-12, "the table's default");
    ab_params_free(&prm);
}

/* Every planner the program knows (the tests' and the engine's included):
 * its table fits AB_PARAM_MAX, each default passes its own row's check, and
 * a spec of its name alone resolves. */
Test(params, every_planners_defaults_pass_their_own_check) {
    cr_assert_eq(abt_register_test_planners(), AB_OK);
    size_t checked = 0;
    for (size_t i = 0; ab_planner_at(i) != NULL; i++) {
        const ab_planner *pl = ab_planner_at(i);
        size_t rows = 0;
        for (const ab_param_desc *d = pl->params; d && d->key; d++, rows++) {
            if (d->no_default) continue;
            ab_error err = {0};
            cr_assert_eq(ab_param_check(pl->name, d, d->def, &err), AB_OK, "%s", err.msg);
            checked++;
        }
        cr_assert_leq(rows, AB_PARAM_MAX, "%s", pl->name);
        ab_params prm = {0};
        ab_error err = {0};
        cr_assert_eq(ab_params_bind(pl->name, pl->params, &prm, NULL, &err), AB_OK, "%s", err.msg);
    }
    cr_assert_gt(checked, 30);
}

/* ab_planner_plan resolves params it is given unresolved (NULL: every
 * default), so a planner always reads typed values. */
Test(params, planning_with_unresolved_params_applies_the_defaults) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t[] = {{.name = "a", .size = 8, .start = 0, .end = 1, .align = 1, .offset = AB_NONE},
                     {.name = "b", .size = 16, .start = 1, .end = 2, .align = 1, .offset = AB_NONE}};
    for (size_t i = 0; i < 2; i++) cr_assert_eq(ab_problem_add(&p, &t[i], NULL), AB_OK);
    const ab_planner *ff = ab_planner_find("first-fit");
    int64_t off[2];
    ab_plan_stats st = {0};
    ab_error err = {0};
    cr_assert_eq(ab_planner_plan(ff, NULL, &p, off, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(off[0], 0);
    cr_assert_eq(off[1], 8, "program order: a first, b above it");
    ab_kv kv = {.key = (char *)"order", .value = (char *)"size"};
    ab_params prm = {.n = 1, .v = &kv};
    cr_assert_eq(ab_planner_plan(ff, &prm, &p, off, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(off[1], 0, "order=size: b first");
    kv.value = (char *)"bogus";
    cr_assert_eq(ab_planner_plan(ff, &prm, &p, off, &st, &err), AB_EINPUT);
    cr_assert_str_eq(err.msg,
                     "planner first-fit: parameter order: expected start, size or area, got 'bogus'");
    ab_problem_free(&p);
}
