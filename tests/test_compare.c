/*
 * test_compare.c — base run against head run: each kind of regression is
 * found (a grown arena, ok to each failure, a lost proof), a CPU slowdown
 * past both thresholds is a warning (a regression with fail_on_time),
 * slowdowns under either threshold are not, improvements and new/gone pairs
 * are listed but are not regressions, an edited suite is a new pair, the
 * table is deterministic, and the default runs resolve. Spread, capped rows
 * and spec pairs: tests/test_compare_pairs.c.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/compare.h"
#include "tests/support.h"

/* ---- building databases ---------------------------------------------------- */

static int64_t suite(abs_store *s, const char *name, const char *text) {
    return abt_put_suite(s, name, text, 100);
}

/* One side of a pair; status ok unless given, CPU and wall 0.25 s unless given. */
typedef struct side {
    abo_status status;
    int64_t arena;
    abo_proof proof;
    double cpu;
    int signal;
    const char *error;
    int64_t lb; /* the row's lower bound; 100 when 0 */
} side;

static void result(abs_store *s, int64_t run, int64_t su, const char *spec, side w) {
    abo_row r;
    abo_row_init(&r);
    r.run = run;
    r.suite = su;
    r.spec = spec;
    r.status = w.status;
    r.arena = w.status == ABO_STATUS_OK ? (w.arena ? w.arena : 100) : AB_NONE;
    r.lower_bound = w.lb ? w.lb : 100;
    r.proven_by = w.proof;
    r.cpu_s = w.cpu ? w.cpu : 0.25;
    r.wall_s = 0.25; /* compare never judges wall time */
    r.signal = w.signal;
    r.error = w.error;
    ab_error err;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
}

typedef struct outcome {
    abr_compare_summary sum;
    char *text;
} outcome;

/* Compares run base with run head in the database at path. */
static outcome compare(const char *path, int64_t base, int64_t head,
                       const abr_compare_opts *opt) {
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    ab_buf b = {0};
    ab_error err;
    outcome o;
    cr_assert_eq(abr_compare(s, base, head, opt, &b, &o.sum, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    o.text = strdup(b.s ? b.s : "");
    ab_buf_free(&b);
    return o;
}

/* A database with one suite and one spec, base and head as given; the
 * outcome of comparing them (opt may be NULL). */
static outcome pair(side base, side head, const abr_compare_opts *opt) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t r0 = abt_begin(s, "nightly", "aaa"), su = suite(s, "s", "suite: s\n");
    result(s, r0, su, "first-fit", base);
    int64_t r1 = abt_begin(s, "nightly", "bbb");
    result(s, r1, su, "first-fit", head);
    abs_close(s);
    outcome o = compare(path, r0, r1, opt);
    free(path);
    return o;
}

#define HAS(text, sub) \
    cr_assert(strstr((text), (sub)) != NULL, "missing: %s\n---\n%s", (sub), (text))

/* ---- each kind of regression ------------------------------------------------- */

Test(compare, finds_a_grown_arena) {
    outcome o = pair((side){.arena = 100}, (side){.arena = 120}, NULL);
    cr_assert_eq(o.sum.regressions, 1);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_ARENA_GREW], 1);
    HAS(o.text, "| REGRESSION | arena grew | s | first-fit | 100 | 120 | +20 bytes (+20.00%) |");
    HAS(o.text, "Result: REGRESSION (1).");
    free(o.text);
}

Test(compare, finds_ok_turning_into_each_failure) {
    const abo_status bad[] = {ABO_STATUS_INVALID, ABO_STATUS_TIMEOUT, ABO_STATUS_CRASH,
                                  ABO_STATUS_OOM, ABO_STATUS_ERROR, ABO_STATUS_OVER_CAPACITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        outcome o = pair((side){0}, (side){.status = bad[i], .error = "boom"}, NULL);
        cr_assert_eq(o.sum.regressions, 1, "%s", abo_status_word(bad[i]));
        cr_assert_eq(o.sum.by_change[ABR_CHANGE_FAILED], 1);
        char line[256];
        snprintf(line, sizeof line, "| REGRESSION | failed | s | first-fit | ok 100 | %s | boom |",
                 abo_status_word(bad[i]));
        HAS(o.text, line);
        free(o.text);
    }
}

Test(compare, over_capacity_to_ok_is_fixed) {
    outcome o = pair((side){.status = ABO_STATUS_OVER_CAPACITY, .error = "arena 120 exceeds capacity 100"},
                     (side){0}, NULL);
    cr_assert_eq(o.sum.regressions, 0);
    cr_assert_eq(o.sum.improvements, 1);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FIXED], 1);
    HAS(o.text, "| improvement | fixed | s | first-fit | over-capacity | ok 100 |");
    HAS(o.text, "Result: no regression.");
    free(o.text);
}

/* A suite proved infeasible in one run and packed within its capacity in the
 * other (or the same) run is a contradiction: a regression, whatever changed. */
Test(compare, infeasible_and_packed_is_a_contradiction) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t su = suite(s, "s", "suite: s\n"), other = suite(s, "t", "suite: t\n");
    int64_t r0 = abt_begin(s, "nightly", "aaa");
    side refuted = {.status = ABO_STATUS_INFEASIBLE, .lb = 101,
                    .error = "infeasible, proven by exhaustive: a proven lower bound 101 > "
                             "capacity 100"};
    result(s, r0, su, "canonical", refuted);
    result(s, r0, su, "first-fit", (side){.status = ABO_STATUS_OVER_CAPACITY});
    result(s, r0, other, "canonical", refuted); /* t: nobody packs it */
    result(s, r0, other, "first-fit", (side){.status = ABO_STATUS_OVER_CAPACITY});
    int64_t r1 = abt_begin(s, "nightly", "bbb");
    result(s, r1, su, "canonical", refuted);
    result(s, r1, su, "first-fit", (side){0}); /* packs s within the capacity */
    result(s, r1, other, "canonical", refuted);
    result(s, r1, other, "first-fit", (side){.status = ABO_STATUS_OVER_CAPACITY});
    abs_close(s);
    outcome o = compare(path, r0, r1, NULL);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_CONTRADICTION], 2, "%s", o.text); /* base's, head's */
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FIXED], 1, "%s", o.text);
    cr_assert_eq(o.sum.regressions, 2);
    HAS(o.text, "| REGRESSION | contradiction | s | canonical | infeasible (run 1) | ok 100 (run "
                "2, first-fit) | proved no plan fits (lower bound 101), yet a plan fits; "
                "infeasible, proven by exhaustive");
    HAS(o.text, "| REGRESSION | contradiction | s | canonical | infeasible (run 2) | ok 100 (run "
                "2, first-fit) |");
    cr_assert_null(strstr(o.text, "| contradiction | t |"), "%s", o.text);
    HAS(o.text, "Result: REGRESSION (2).");
    free(o.text);
    /* ok -> infeasible on one spec: failed, and a contradiction with base's ok */
    o = pair((side){0}, refuted, NULL);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FAILED], 1);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_CONTRADICTION], 1);
    free(o.text);
    free(path);
}

Test(compare, names_the_signal_and_the_lost_proof_of_a_crash) {
    outcome o = pair((side){.proof = ABO_PROOF_LOWER_BOUND},
                     (side){.status = ABO_STATUS_CRASH, .signal = 11}, NULL);
    HAS(o.text, "| ok 100 | crash | was proven (lower-bound); signal 11 |");
    cr_assert_eq(o.sum.regressions, 1, "one line for the pair: it failed");
    free(o.text);
}

Test(compare, finds_a_lost_proof) {
    outcome o = pair((side){.proof = ABO_PROOF_EXHAUSTIVE}, (side){0}, NULL);
    cr_assert_eq(o.sum.regressions, 1);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_PROOF_LOST], 1);
    HAS(o.text, "| REGRESSION | proof lost | s | first-fit | exhaustive | none | "
                "arena 100 -> 100 |");
    free(o.text);
}

Test(compare, warns_of_a_cpu_slowdown_past_both_thresholds) {
    outcome o = pair((side){.cpu = 0.2}, (side){.cpu = 0.5}, NULL);
    cr_assert_eq(o.sum.regressions, 0, "a timing change is a warning");
    cr_assert_eq(o.sum.warnings, 1);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_SLOWER], 1);
    HAS(o.text, "| warning | slower | s | first-fit | 200.00 ms | 500.00 ms | CPU x2.50; head's "
                "least 500.00 ms vs base's greatest 200.00 ms |");
    HAS(o.text, "Result: no regression; 1 timing warnings.");
    free(o.text);
    /* Exactly at both thresholds counts. */
    o = pair((side){.cpu = 0.1}, (side){.cpu = 0.15}, NULL);
    cr_assert_eq(o.sum.warnings, 1);
    free(o.text);
}

Test(compare, fails_on_a_slowdown_when_asked) {
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.fail_on_time = true;
    outcome o = pair((side){.cpu = 0.2}, (side){.cpu = 0.5}, &opt);
    cr_assert_eq(o.sum.regressions, 1);
    cr_assert_eq(o.sum.warnings, 0);
    HAS(o.text, "| REGRESSION | slower | s | first-fit |");
    HAS(o.text, "Result: REGRESSION (1).");
    free(o.text);
}

Test(compare, ignores_a_slowdown_under_either_threshold) {
    outcome o = pair((side){.cpu = 1.0}, (side){.cpu = 1.45}, NULL); /* 1.45x, +0.45 s */
    cr_assert_eq(o.sum.regressions + o.sum.warnings, 0);
    cr_assert_eq(o.sum.unchanged, 1);
    HAS(o.text, "No changes.");
    HAS(o.text, "Result: no regression.");
    free(o.text);
    o = pair((side){.cpu = 0.010}, (side){.cpu = 0.050}, NULL); /* 5x, +40 ms */
    cr_assert_eq(o.sum.regressions + o.sum.warnings, 0);
    cr_assert_eq(o.sum.unchanged, 1);
    free(o.text);
}

Test(compare, honours_configured_thresholds) {
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    cr_assert_float_eq(opt.slow_ratio, 1.5, 1e-12);
    cr_assert_float_eq(opt.slow_min_s, 0.050, 1e-12);
    cr_assert_float_eq(opt.fast_ratio, 1.5, 1e-12);
    cr_assert_float_eq(opt.fast_min_s, 0.050, 1e-12);
    cr_assert(!opt.fail_on_time);
    opt.slow_ratio = 1.2;
    opt.slow_min_s = 0.01;
    outcome o = pair((side){.cpu = 0.010}, (side){.cpu = 0.030}, &opt);
    cr_assert_eq(o.sum.warnings, 1);
    HAS(o.text, "slower when head's least time is at least x1.20 base's greatest and 0.010 s "
                "more; faster when base's least is x1.50 head's greatest and 0.050 s more");
    free(o.text);
    opt.slow_ratio = 4.0;
    opt.slow_min_s = 0;
    o = pair((side){.cpu = 0.010}, (side){.cpu = 0.030}, &opt);
    cr_assert_eq(o.sum.warnings, 0);
    free(o.text);
    /* faster has its own pair of thresholds */
    opt.fast_ratio = 1.1;
    opt.fast_min_s = 0.001;
    o = pair((side){.cpu = 0.030}, (side){.cpu = 0.025}, &opt);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FASTER], 1, "%s", o.text);
    free(o.text);
    opt.fast_ratio = 1.5;
    o = pair((side){.cpu = 0.030}, (side){.cpu = 0.025}, &opt);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FASTER], 0, "%s", o.text);
    free(o.text);
}

Test(compare, judges_cpu_time_never_wall_time) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t r0 = abt_begin(s, "nightly", "aaa"), su = suite(s, "s", "suite: s\n");
    abo_row r;
    abo_row_init(&r);
    r.run = r0, r.suite = su, r.spec = "first-fit", r.arena = 100, r.lower_bound = 100;
    r.cpu_s = 0.2, r.wall_s = 0.2;
    ab_error err;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
    int64_t r1 = abt_begin(s, "nightly", "bbb");
    r.run = r1, r.wall_s = 9.0; /* a busy machine: the wall clock grew, the CPU time not */
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
    int64_t r2 = abt_begin(s, "nightly", "ccc");
    r.run = r2, r.cpu_s = -1; /* CPU time unknown: not judged */
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    outcome o = compare(path, r0, r1, NULL);
    cr_assert_eq(o.sum.unchanged, 1, "%s", o.text);
    free(o.text);
    o = compare(path, r0, r2, NULL);
    cr_assert_eq(o.sum.unchanged, 1, "%s", o.text);
    free(o.text);
    free(path);
}

Test(compare, refuses_bad_thresholds_and_unknown_runs) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t r0 = abt_begin(s, NULL, NULL);
    ab_buf b = {0};
    ab_error err;
    abr_compare_summary sum;
    abr_compare_opts opt = {.slow_ratio = 0.5, .slow_min_s = 0.1};
    cr_assert_eq(abr_compare(s, r0, r0, &opt, &b, &sum, &err), AB_EINPUT);
    HAS(err.msg, "ratio");
    opt = (abr_compare_opts){.slow_ratio = 2, .slow_min_s = -1};
    cr_assert_eq(abr_compare(s, r0, r0, &opt, &b, &sum, &err), AB_EINPUT);
    cr_assert_eq(abr_compare(s, r0, 42, NULL, &b, &sum, &err), AB_EINPUT);
    HAS(err.msg, "no run 42");
    ab_buf_free(&b);
    abs_close(s);
    free(path);
}

/* ---- improvements, new and gone -------------------------------------------------- */

Test(compare, lists_improvements_without_failing) {
    outcome o = pair((side){.arena = 120}, (side){.arena = 100}, NULL);
    cr_assert_eq(o.sum.improvements, 1);
    HAS(o.text, "| improvement | arena shrank | s | first-fit | 120 | 100 | -20 bytes (-16.67%) |");
    free(o.text);
    o = pair((side){.status = ABO_STATUS_TIMEOUT}, (side){.proof = ABO_PROOF_LOWER_BOUND}, NULL);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FIXED], 1);
    HAS(o.text, "| improvement | fixed | s | first-fit | timeout | ok 100 | "
                "proven (lower-bound) |");
    free(o.text);
    o = pair((side){0}, (side){.proof = ABO_PROOF_ILP}, NULL);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_PROVEN], 1);
    HAS(o.text, "| improvement | newly proven | s | first-fit | none | ilp |");
    free(o.text);
    o = pair((side){.cpu = 3.0}, (side){.cpu = 1.0}, NULL);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FASTER], 1);
    HAS(o.text, "| improvement | faster | s | first-fit | 3.000 s | 1.000 s | CPU x0.33; head's "
                "greatest 1.000 s vs base's least 3.000 s |");
    cr_assert_eq(o.sum.regressions, 0);
    HAS(o.text, "Result: no regression.");
    free(o.text);
}

Test(compare, notes_one_failure_turning_into_another) {
    outcome o = pair((side){.status = ABO_STATUS_TIMEOUT}, (side){.status = ABO_STATUS_CRASH}, NULL);
    cr_assert_eq(o.sum.regressions, 0);
    cr_assert_eq(o.sum.other, 1);
    HAS(o.text, "| note | status changed | s | first-fit | timeout | crash |");
    free(o.text);
    o = pair((side){.status = ABO_STATUS_TIMEOUT}, (side){.status = ABO_STATUS_TIMEOUT}, NULL);
    cr_assert_eq(o.sum.unchanged, 1);
    free(o.text);
}

Test(compare, an_edited_suite_is_new_and_gone_not_a_regression) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t r0 = abt_begin(s, "nightly", "aaa");
    int64_t v1 = suite(s, "resnet", "suite: resnet\n# v1\n");
    result(s, r0, v1, "first-fit", (side){.arena = 100});
    result(s, r0, v1, "dropped", (side){.arena = 100});
    int64_t r1 = abt_begin(s, "nightly", "bbb");
    int64_t v2 = suite(s, "resnet", "suite: resnet\n# v2\n");
    result(s, r1, v2, "first-fit", (side){.arena = 900});
    abs_close(s);
    outcome o = compare(path, r0, r1, NULL);
    cr_assert_eq(o.sum.regressions, 0);
    cr_assert_eq(o.sum.added, 1);
    cr_assert_eq(o.sum.removed, 1);
    cr_assert_eq(o.sum.specs_gone, 1, "a spec of base only is one line");
    cr_assert_eq(o.sum.matched, 0);
    HAS(o.text, "| note | new | resnet@");
    HAS(o.text, "| first-fit | - | ok 900 |");
    HAS(o.text, "| note | gone | resnet@");
    HAS(o.text, "| first-fit | ok 100 | - |");
    HAS(o.text, "| note | spec gone | (1 suites) | dropped | 1 rows | - | no rows of dropped in "
                "head |");
    HAS(o.text, "Result: nothing compared");
    free(o.text);
    free(path);
}

/* A pair only in head that fails the run (invalid, crash, error: e.g. a new
 * suite file that did not load, stored as an error row) is a regression; a
 * new pair that is ok or ended in an outcome (timeout, oom) is only new. */
Test(compare, a_new_failing_pair_is_a_regression_a_new_outcome_is_not) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    static const char *const specs[] = {"first-fit", "p-crash", "p-timeout", "p-ok"};
    int64_t r0 = abt_begin(s, "nightly", "aaa");
    int64_t su = suite(s, "s", "suite: s\n");
    for (int i = 0; i < 4; i++) result(s, r0, su, specs[i], (side){0});
    int64_t r1 = abt_begin(s, "nightly", "bbb");
    for (int i = 0; i < 4; i++) result(s, r1, su, specs[i], (side){0});
    /* a new suite: rows only in head, of specs both runs have */
    int64_t s2 = suite(s, "s2", "suite: s2\n");
    result(s, r1, s2, "p-crash", (side){.status = ABO_STATUS_CRASH, .signal = 11});
    result(s, r1, s2, "p-timeout", (side){.status = ABO_STATUS_TIMEOUT});
    result(s, r1, s2, "p-ok", (side){0});
    /* a new file that did not load: a spec, (load), that base never had */
    int64_t bad = suite(s, "suites/broken.yaml", "# arenabench: this file did not load\n");
    result(s, r1, bad, "(load)", (side){.status = ABO_STATUS_ERROR,
                                       .error = "suites/broken.yaml:3:21: size: must be positive"});
    abs_close(s);
    outcome o = compare(path, r0, r1, NULL);
    cr_assert_eq(o.sum.regressions, 2, "%s", o.text);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FAILED], 2);
    cr_assert_eq(o.sum.added, 2, "%s", o.text);
    HAS(o.text, "| REGRESSION | failed | suites/broken.yaml | (load) | - | error | "
                "suites/broken.yaml:3:21: size: must be positive |");
    HAS(o.text, "| REGRESSION | failed | s2 | p-crash | - | crash | signal 11 |");
    HAS(o.text, "| note | new | s2 | p-timeout | - | timeout |");
    HAS(o.text, "| note | new | s2 | p-ok | - | ok 100 |");
    HAS(o.text, "Result: REGRESSION (2).");
    free(o.text);
    free(path);
}

/* ---- everything at once ---------------------------------------------------------- */

/* base and head with one pair per kind of change, plus three unchanged. */
static char *big(int64_t *r0, int64_t *r1) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    static const struct {
        const char *spec;
        side base, head;
    } pairs[] = {
        {"p-grow", {.arena = 100}, {.arena = 120}},
        {"p-shrink", {.arena = 120}, {.arena = 100}},
        {"p-break", {0}, {.status = ABO_STATUS_TIMEOUT, .error = "killed | at 10 s"}},
        {"p-fix", {.status = ABO_STATUS_CRASH, .signal = 6}, {0}},
        {"p-lose", {.proof = ABO_PROOF_LOWER_BOUND}, {0}},
        {"p-gain", {0}, {.proof = ABO_PROOF_EXHAUSTIVE}},
        {"p-slow", {.cpu = 0.2}, {.cpu = 0.5}},
        {"p-fast", {.cpu = 0.5}, {.cpu = 0.2}},
        {"p-slow-small", {.cpu = 0.010}, {.cpu = 0.050}},
        {"p-slow-ratio", {.cpu = 1.0}, {.cpu = 1.45}},
        {"p-fail-change", {.status = ABO_STATUS_TIMEOUT}, {.status = ABO_STATUS_OOM}},
        {"p-same", {0}, {0}},
    };
    int64_t su = suite(s, "s", "suite: s\n");
    *r0 = abt_begin(s, "nightly", "aaa");
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        result(s, *r0, su, pairs[i].spec, pairs[i].base);
    result(s, *r0, su, "p-gone", (side){0});
    *r1 = abt_begin(s, "nightly", "bbb");
    for (size_t i = sizeof pairs / sizeof pairs[0]; i-- > 0;) /* another insertion order */
        result(s, *r1, su, pairs[i].spec, pairs[i].head);
    result(s, *r1, su, "p-new", (side){0});
    abs_close(s);
    return path;
}

Test(compare, counts_every_change_once) {
    int64_t r0, r1;
    char *path = big(&r0, &r1);
    outcome o = compare(path, r0, r1, NULL);
    cr_assert_eq(o.sum.matched, 12);
    cr_assert_eq(o.sum.unchanged, 3);
    cr_assert_eq(o.sum.regressions, 3);
    cr_assert_eq(o.sum.warnings, 1);
    cr_assert_eq(o.sum.improvements, 4);
    cr_assert_eq(o.sum.other, 1);
    cr_assert_eq(o.sum.specs_new, 1);
    cr_assert_eq(o.sum.specs_gone, 1);
    for (int k = 0; k < ABR_NCHANGES; k++) { /* no contradiction, capped or edited suite */
        bool none = k == ABR_CHANGE_CONTRADICTION || k == ABR_CHANGE_CAPPED ||
                    k == ABR_CHANGE_CAPPED_LOAD || k == ABR_CHANGE_NEW || k == ABR_CHANGE_GONE;
        cr_assert_eq(o.sum.by_change[k], none ? 0 : 1, "%s", abr_change_word((abr_change)k));
    }
    HAS(o.text, "# arenabench compare: run 1 -> run 2\n");
    HAS(o.text, "| revision | aaa | bbb |");
    HAS(o.text, "| results | 13 | 13 |");
    HAS(o.text, "| REGRESSION | failed | s | p-break | ok 100 | timeout | killed \\| at 10 s |");
    HAS(o.text, "| improvement | fixed | s | p-fix | crash | ok 100 |");
    HAS(o.text, "3 regressions, 1 warnings, 4 improvements, 0 not judged, 1 other changes, 0 "
                "new, 0 gone, 1 specs new, 1 specs gone; 12 pairs matched, 3 unchanged.\n"
                "Result: REGRESSION (3).\n");
    /* One line per change, in spec order; the specs of one side only after them. */
    const char *order[] = {"p-break", "p-fail-change", "p-fast", "p-fix", "p-gain", "p-grow",
                           "p-lose", "p-shrink", "p-slow |", "p-gone", "p-new"};
    for (size_t i = 1; i < sizeof order / sizeof order[0]; i++)
        cr_assert(strstr(o.text, order[i - 1]) < strstr(o.text, order[i]), "%s before %s",
                  order[i - 1], order[i]);
    char *pairs = strstr(o.text, "## Spec pairs"); /* every spec is listed there */
    cr_assert_not_null(pairs);
    *pairs = '\0';
    cr_assert_null(strstr(o.text, "p-same"));
    cr_assert_null(strstr(o.text, "p-slow-small"));
    cr_assert_null(strstr(o.text, "p-slow-ratio"));
    HAS(pairs + 1, "| p-same | p-same | 1 | 1 | 1 | x1.0000 (1) | x1.0000 (1) |");
    free(o.text);
    free(path);
}

Test(compare, is_byte_for_byte_deterministic) {
    int64_t r0, r1;
    char *path = big(&r0, &r1);
    outcome a = compare(path, r0, r1, NULL), b = compare(path, r0, r1, NULL);
    cr_assert_str_eq(a.text, b.text);
    free(a.text);
    free(b.text);
    free(path);
}

Test(compare, finds_nothing_between_a_run_and_itself) {
    int64_t r0, r1;
    char *path = big(&r0, &r1);
    outcome o = compare(path, r1, r1, NULL);
    cr_assert_eq(o.sum.matched, 13);
    cr_assert_eq(o.sum.unchanged, 13);
    cr_assert_eq(o.sum.regressions + o.sum.improvements + o.sum.added + o.sum.removed, 0);
    HAS(o.text, "No changes.");
    free(o.text);
    free(path);
}

/* ---- choosing the runs --------------------------------------------------------------- */

/* compare's one rule for choosing runs (harness/cli/compare.c), through the
 * command: head the latest run (or --head), base the run before it with its
 * tag (or --base); a head without an earlier run of its tag compares nothing,
 * exit 0; a run that does not exist is exit 2. */
static int compare_cli(const char *path, const char *more, char **out) {
    char args[4200];
    snprintf(args, sizeof args, "compare --db '%s' %s", path, more);
    char *err = NULL;
    int rc = abt_run(args, out, &err);
    free(err);
    return rc;
}

Test(compare, resolves_the_latest_run_and_its_predecessor_of_one_tag) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t n1 = abt_begin(s, "nightly", "a");
    int64_t other = abt_begin(s, "adhoc", "b");
    int64_t n2 = abt_begin(s, "nightly", "c");
    abs_close(s);
    char *out, want[128];
    cr_assert_eq(compare_cli(path, "", &out), 0, "%s", out);
    snprintf(want, sizeof want, "# arenabench compare: run %lld -> run %lld", (long long)n1,
             (long long)n2);
    HAS(out, want);
    free(out);
    char more[64];
    snprintf(more, sizeof more, "--head %lld", (long long)other);
    cr_assert_eq(compare_cli(path, more, &out), 0, "%s", out);
    HAS(out, "has no earlier run with its tag: nothing to compare");
    free(out);
    snprintf(more, sizeof more, "--base %lld --head %lld", (long long)other, (long long)n2);
    cr_assert_eq(compare_cli(path, more, &out), 0, "%s", out);
    snprintf(want, sizeof want, "# arenabench compare: run %lld -> run %lld", (long long)other,
             (long long)n2);
    HAS(out, want); /* given ids are kept */
    free(out);
    cr_assert_eq(compare_cli(path, "--head 77", &out), 2, "%s", out);
    free(out);
    free(path);
}

Test(compare, says_so_when_there_is_no_run) {
    char *path = abt_db_path();
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    abs_close(s);
    char *out, args[4200], *err;
    snprintf(args, sizeof args, "compare --db '%s'", path);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s", out);
    cr_assert(strstr(err, "no run") != NULL, "%s", err);
    free(out), free(err);
    free(path);
}

Test(compare, fails_cleanly_at_each_allocation) {
    int64_t r0, r1;
    char *path = big(&r0, &r1);
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    for (long n = 1;; n++) {
        ab_buf b = {0};
        ab_error err;
        abr_compare_summary sum;
        ab_alloc_fail_at(n);
        ab_status st = abr_compare(s, r0, r1, NULL, &b, &sum, &err);
        long made = ab_alloc_fail_at(0);
        ab_buf_free(&b);
        if (made < n) {
            cr_assert_eq(st, AB_OK, "%s", err.msg);
            break;
        }
        cr_assert_eq(st, AB_ENOMEM, "allocation %ld: %d %s", n, st, err.msg);
    }
    abs_close(s);
    free(path);
}

Test(compare, words_and_classes) {
    cr_assert_str_eq(abr_change_word(ABR_CHANGE_ARENA_GREW), "arena grew");
    cr_assert_str_eq(abr_change_word((abr_change)99), "?");
    cr_assert(abr_change_is_regression(ABR_CHANGE_FAILED));
    cr_assert(!abr_change_is_regression(ABR_CHANGE_SLOWER), "a warning unless fail_on_time");
    cr_assert(!abr_change_is_regression(ABR_CHANGE_CAPPED));
    cr_assert(!abr_change_is_regression(ABR_CHANGE_CAPPED_LOAD));
    cr_assert(!abr_change_is_regression(ABR_CHANGE_SPEC_GONE));
    cr_assert(!abr_change_is_regression(ABR_CHANGE_FASTER));
    cr_assert(!abr_change_is_regression(ABR_CHANGE_NEW));
    cr_assert(!abr_change_is_regression(ABR_CHANGE_STATUS));
}
