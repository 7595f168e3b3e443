/*
 * test_compare_pairs.c — compare beyond equal specs: the CPU spread of
 * repeated runs (schema v3's cpu_min_s/cpu_max_s, added here with ALTER TABLE
 * when the store does not have them yet), rows stopped on a safety cap, spec
 * pairs across runs and within one, '*' patterns, the notice when specs
 * changed, the geometric means, the JSON object, and the command end to end
 * (the case of issue 12: a planner parameter changed, arenas grew).
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/compare.h"
#include "tests/support.h"

#define HAS(text, sub) \
    cr_assert(strstr((text), (sub)) != NULL, "missing: %s\n---\n%s", (sub), (text))
#define HASNT(text, sub) \
    cr_assert(strstr((text), (sub)) == NULL, "unexpected: %s\n---\n%s", (sub), (text))

/* ---- a database ------------------------------------------------------------------ */

typedef struct db {
    char *path;
    abs_store *s;
} db;

static db db_new(void) {
    db d = {.path = abt_db_path()};
    d.s = abt_open_db(d.path, ABS_OPEN_CREATE);
    return d;
}

static void db_free(db *d) {
    abs_close(d->s);
    free(d->path);
}

static int64_t begin(db *d, const char *tag) { return abt_begin(d->s, tag, "r"); }

static int64_t suite(db *d, const char *name) {
    char text[128];
    snprintf(text, sizeof text, "suite: %s\n", name);
    return abt_put_suite(d->s, name, text, 100);
}

/* An ok row: arena, proof, CPU median (0.25 s when 0). */
static void row(db *d, int64_t run, int64_t su, const char *spec, int64_t arena, abo_proof proof,
                double cpu) {
    abo_row r;
    abo_row_init(&r);
    r.run = run, r.suite = su, r.spec = spec, r.status = ABO_STATUS_OK;
    r.arena = arena, r.lower_bound = 100, r.proven_by = proof;
    r.cpu_s = cpu ? cpu : 0.25, r.wall_s = 0.3;
    ab_error err;
    cr_assert_eq(abs_result_put(d->s, &r, &err), AB_OK, "%s", err.msg);
}

/* SQL on the file, through a connection of its own. */
static void sql(db *d, const char *q) {
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(d->path, &h), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(h, q, NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s: %s", q, msg ? msg : "");
    sqlite3_close(h);
}

static bool has_column(db *d, const char *col) {
    sqlite3 *h;
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_open(d->path, &h), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(h, "PRAGMA table_info(results)", -1, &st, NULL), SQLITE_OK);
    bool found = false;
    while (sqlite3_step(st) == SQLITE_ROW)
        found |= strcmp((const char *)sqlite3_column_text(st, 1), col) == 0;
    sqlite3_finalize(st);
    sqlite3_close(h);
    return found;
}

/* Schema v3's columns, unless the store made them already. */
static void add_v3_columns(db *d) {
    static const char *const cols[][2] = {
        {"repeats", "INTEGER"}, {"cpu_min_s", "REAL"}, {"cpu_max_s", "REAL"},
        {"wall_min_s", "REAL"}, {"wall_max_s", "REAL"}, {"plan_cpu_s", "REAL"},
        {"capped", "TEXT"}};
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        if (has_column(d, cols[i][0])) continue;
        char q[128];
        snprintf(q, sizeof q, "ALTER TABLE results ADD COLUMN %s %s", cols[i][0], cols[i][1]);
        sql(d, q);
    }
}

/* Sets a row's spread (min, max) and cap (NULL: none). */
static void set_v3(db *d, int64_t run, const char *spec, double min, double max,
                   const char *capped) {
    char q[512];
    snprintf(q, sizeof q, "UPDATE results SET cpu_min_s = %.17g, cpu_max_s = %.17g, "
             "capped = %s%s%s WHERE run = %lld AND spec = '%s'", min, max,
             capped ? "'" : "", capped ? capped : "NULL", capped ? "'" : "", (long long)run, spec);
    sql(d, q);
}

typedef struct outcome {
    ab_status st;
    abr_compare_summary sum;
    char *text;
} outcome;

static outcome compare(db *d, int64_t base, int64_t head, const abr_compare_opts *opt) {
    ab_buf b = {0};
    ab_error err;
    outcome o;
    o.st = abr_compare(d->s, base, head, opt, &b, &o.sum, &err);
    cr_assert_eq(o.st, AB_OK, "%s", err.msg);
    o.text = strdup(b.s ? b.s : "");
    ab_buf_free(&b);
    return o;
}

/* ---- the spread ---------------------------------------------------------------------- */

/* base median 0.20 s in [0.10, 0.40]; head median as given in [min, max]. */
static outcome spread_case(double hmed, double hmin, double hmax) {
    db d = db_new();
    int64_t su = suite(&d, "s");
    int64_t r0 = begin(&d, "n");
    row(&d, r0, su, "ff", 100, ABO_PROOF_NONE, 0.20);
    int64_t r1 = begin(&d, "n");
    row(&d, r1, su, "ff", 100, ABO_PROOF_NONE, hmed);
    add_v3_columns(&d);
    set_v3(&d, r0, "ff", 0.10, 0.40, NULL);
    set_v3(&d, r1, "ff", hmin, hmax, NULL);
    outcome o = compare(&d, r0, r1, NULL);
    db_free(&d);
    return o;
}

Test(compare_spread, a_slowdown_must_clear_both_spreads) {
    /* medians 2.5x apart, but head's least (0.35) is not 1.5 x base's greatest (0.40) */
    outcome o = spread_case(0.50, 0.35, 0.70);
    cr_assert(o.sum.spread);
    cr_assert_eq(o.sum.warnings, 0, "%s", o.text);
    cr_assert_eq(o.sum.unchanged, 1);
    HAS(o.text, "CPU time (the min-max spread of repeated runs)");
    free(o.text);
    /* head's least 0.65 >= 1.5 x 0.40 and 0.25 s more */
    o = spread_case(0.70, 0.65, 0.80);
    cr_assert_eq(o.sum.warnings, 1, "%s", o.text);
    HAS(o.text, "| warning | slower | s | ff | 200.00 ms (100.00 ms .. 400.00 ms) | 700.00 ms "
                "(650.00 ms .. 800.00 ms) | CPU x3.50; head's least 650.00 ms vs base's greatest "
                "400.00 ms |");
    free(o.text);
}

Test(compare_spread, a_speedup_must_clear_both_spreads) {
    outcome o = spread_case(0.05, 0.04, 0.09); /* base's least 0.10 is not 1.5 x 0.09 */
    cr_assert_eq(o.sum.improvements, 0, "%s", o.text);
    free(o.text);
    o = spread_case(0.03, 0.02, 0.04); /* 0.10 >= 1.5 x 0.04 and 0.06 s more */
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FASTER], 1, "%s", o.text);
    free(o.text);
}

Test(compare_spread, null_spread_columns_fall_back_to_the_one_sample) {
    db d = db_new();
    int64_t su = suite(&d, "s");
    int64_t r0 = begin(&d, "n");
    row(&d, r0, su, "ff", 100, ABO_PROOF_NONE, 0.20);
    int64_t r1 = begin(&d, "n");
    row(&d, r1, su, "ff", 100, ABO_PROOF_NONE, 0.50);
    add_v3_columns(&d); /* the columns exist, NULL in every row */
    outcome o = compare(&d, r0, r1, NULL);
    cr_assert_eq(o.sum.warnings, 1, "%s", o.text);
    HAS(o.text, "| 200.00 ms | 500.00 ms |");
    free(o.text);
    db_free(&d);
}

/* ---- capped rows ------------------------------------------------------------------------ */

Test(compare_capped, an_arena_or_proof_change_on_a_capped_row_is_listed_apart) {
    db d = db_new();
    int64_t su = suite(&d, "s");
    int64_t r0 = begin(&d, "n");
    row(&d, r0, su, "exact", 100, ABO_PROOF_EXHAUSTIVE, 0);
    row(&d, r0, su, "exact-same", 100, ABO_PROOF_NONE, 0);
    row(&d, r0, su, "plain", 100, ABO_PROOF_EXHAUSTIVE, 0);
    int64_t r1 = begin(&d, "n");
    row(&d, r1, su, "exact", 120, ABO_PROOF_NONE, 0);
    row(&d, r1, su, "exact-same", 100, ABO_PROOF_NONE, 0);
    row(&d, r1, su, "plain", 120, ABO_PROOF_NONE, 0);
    add_v3_columns(&d);
    set_v3(&d, r1, "exact", 0.25, 0.25, "time");
    set_v3(&d, r1, "exact-same", 0.25, 0.25, "time");
    outcome o = compare(&d, r0, r1, NULL);
    cr_assert_eq(o.sum.not_judged, 1, "%s", o.text);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_CAPPED], 1);
    cr_assert_eq(o.sum.regressions, 2, "plain's grown arena and lost proof: %s", o.text);
    HAS(o.text, "| not judged | capped: not judged | s | exact | 100 exhaustive | 120 none "
                "(capped: time) | stopped on a safety cap (time)");
    HASNT(o.text, "| arena grew | s | exact |");
    HASNT(o.text, "| s | exact-same |");
    HAS(o.text, "| REGRESSION | arena grew | s | plain |");
    free(o.text);
    /* the other way round (base capped, head better): not an improvement either */
    o = compare(&d, r1, r0, NULL);
    cr_assert_eq(o.sum.not_judged, 1);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_ARENA_SHRANK], 1, "plain only: %s", o.text);
    free(o.text);
    db_free(&d);
}

Test(compare_capped, a_capped_row_that_failed_is_still_a_failure) {
    db d = db_new();
    int64_t su = suite(&d, "s");
    int64_t r0 = begin(&d, "n");
    row(&d, r0, su, "exact", 100, ABO_PROOF_NONE, 0);
    int64_t r1 = begin(&d, "n");
    abo_row r;
    abo_row_init(&r);
    r.run = r1, r.suite = su, r.spec = "exact", r.status = ABO_STATUS_CRASH, r.signal = 11;
    ab_error err;
    cr_assert_eq(abs_result_put(d.s, &r, &err), AB_OK, "%s", err.msg);
    add_v3_columns(&d);
    set_v3(&d, r0, "exact", 0.25, 0.25, "time");
    outcome o = compare(&d, r0, r1, NULL);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FAILED], 1);
    cr_assert_eq(o.sum.regressions, 1);
    free(o.text);
    db_free(&d);
}

/* The nightly of issue "Trust under load and faults": the same revision twice,
 * the second beside a busy loop. Base: canonical ok in 18 s of CPU. Head, one
 * spec each way a timeout can come about (error, cpu, wall, capped):
 *   load      the runner's wall-clock limit (600 s), 18.6 s of CPU in 601 s:
 *             capped 'time' and stopped by the load
 *   budget    its node budget ran out: capped NULL
 *   cpulimit  the runner's CPU limit (60 s): capped 'time', CPU over it
 *   slow      the wall-clock limit, but 400 s of CPU, far beyond base's 18 s
 *   spent     the wall-clock limit, with 600 s of CPU: the work itself
 *   own       the planner's own time cap: capped 'time', its own message */
static db timeouts(int64_t *r0, int64_t *r1) {
    static const struct {
        const char *spec, *error, *capped;
        double cpu, wall;
    } head[] = {
        {"load", "exceeded the time limit of 600 s", "time", 18.6, 601.0},
        {"budget", "canonical: node budget of 150000 exhausted", NULL, 20.0, 21.0},
        {"cpulimit", "exceeded the CPU limit of 60 s (61.00 s of CPU used)", "time", 61.0, 90.0},
        {"slow", "exceeded the time limit of 600 s", "time", 400.0, 601.0},
        {"spent", "exceeded the time limit of 600 s", "time", 600.5, 601.0},
        {"own", "stopped by its time cap of 45 s", "time", 45.0, 46.0}};
    db d = db_new();
    int64_t su = suite(&d, "random-10k");
    *r0 = begin(&d, "nightly");
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        row(&d, *r0, su, head[i].spec, 100, ABO_PROOF_NONE, 18.0);
    *r1 = begin(&d, "nightly");
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
        abo_row r;
        abo_row_init(&r);
        r.run = *r1, r.suite = su, r.spec = head[i].spec, r.status = ABO_STATUS_TIMEOUT;
        r.lower_bound = 100, r.cpu_s = head[i].cpu, r.wall_s = head[i].wall;
        r.error = head[i].error;
        ab_error err;
        cr_assert_eq(abs_result_put(d.s, &r, &err), AB_OK, "%s", err.msg);
    }
    add_v3_columns(&d);
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
        set_v3(&d, *r0, head[i].spec, 18.0, 18.0, NULL);
        set_v3(&d, *r1, head[i].spec, head[i].cpu, head[i].cpu, head[i].capped);
    }
    return d;
}

Test(compare_capped, a_timeout_of_the_wall_clock_under_load_is_listed_apart_not_failed) {
    int64_t r0, r1;
    db d = timeouts(&r0, &r1);
    outcome o = compare(&d, r0, r1, NULL);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_CAPPED_LOAD], 1, "%s", o.text);
    cr_assert_eq(o.sum.not_judged, 1, "%s", o.text);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_FAILED], 5, "%s", o.text);
    cr_assert_eq(o.sum.regressions, 5, "%s", o.text);
    HAS(o.text, "| not judged | capped under load | random-10k | load | ok 100 | timeout | "
                "stopped by the wall-clock cap, not its work: 18.600 s of CPU in 601.000 s of "
                "wall time (base ok in 18.000 s of CPU in 300.00 ms of wall time); exceeded the "
                "time limit of 600 s |");
    HASNT(o.text, "| failed | random-10k | load |");
    HAS(o.text, "| REGRESSION | failed | random-10k | budget | ok 100 | timeout | canonical: node "
                "budget of 150000 exhausted |");
    HAS(o.text, "| REGRESSION | failed | random-10k | cpulimit |");
    HAS(o.text, "| REGRESSION | failed | random-10k | slow |");
    HAS(o.text, "| REGRESSION | failed | random-10k | spent |");
    HAS(o.text, "| REGRESSION | failed | random-10k | own |");
    free(o.text);
    db_free(&d);
}

static int run_cmd(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The nightly's row alone: capped under load, exit 0, "no regression", and
 * the JSON names the change and counts it; the same row without its cap (a
 * budget that ran out) is a failure, exit 1. */
Test(compare_cli, a_timeout_under_load_is_exit_0_and_uncapped_is_exit_1) {
    db d = db_new();
    int64_t su = suite(&d, "random-10k");
    int64_t r0 = begin(&d, "nightly");
    row(&d, r0, su, "canonical", 100, ABO_PROOF_NONE, 18.0);
    int64_t r1 = begin(&d, "nightly");
    abo_row r;
    abo_row_init(&r);
    r.run = r1, r.suite = su, r.spec = "canonical", r.status = ABO_STATUS_TIMEOUT;
    r.cpu_s = 18.6, r.wall_s = 601.0, r.error = "exceeded the time limit of 600 s";
    ab_error err;
    cr_assert_eq(abs_result_put(d.s, &r, &err), AB_OK, "%s", err.msg);
    add_v3_columns(&d);
    set_v3(&d, r1, "canonical", 18.6, 18.6, "time");
    char *out;
    cr_assert_eq(run_cmd(&out, "compare --db %s", d.path), 0, "%s", out);
    HAS(out, "| not judged | capped under load | random-10k | canonical | ok 100 | timeout |");
    HAS(out, "0 regressions, 0 warnings, 0 improvements, 1 not judged,");
    HAS(out, "Result: no regression; 1 rows capped under load");
    free(out);
    cr_assert_eq(run_cmd(&out, "compare --db %s --format json", d.path), 0, "%s", out);
    HAS(out, "{\"class\": \"not judged\", \"change\": \"capped under load\", \"suite\": "
             "\"random-10k\"");
    HAS(out, "\"head\": {\"run\": 2, \"spec\": \"canonical\", \"status\": \"timeout\", "
             "\"arena\": null, \"proven_by\": \"none\", \"cpu_s\": 18.6, \"cpu_min_s\": 18.6, "
             "\"cpu_max_s\": 18.6, \"wall_s\": 601, \"capped\": \"time\"");
    HAS(out, "\"not_judged\": 1,");
    HAS(out, "\"capped_under_load\": 1}");
    HAS(out, "\"verdict\": \"no regression\"");
    free(out);
    sql(&d, "UPDATE results SET capped = NULL WHERE run = 2");
    cr_assert_eq(run_cmd(&out, "compare --db %s", d.path), 1, "%s", out);
    HAS(out, "| REGRESSION | failed | random-10k | canonical | ok 100 | timeout | exceeded the "
             "time limit of 600 s |");
    free(out);
    cr_assert_eq(run_cmd(&out, "compare --db %s --format json", d.path), 1, "%s", out);
    HAS(out, "{\"class\": \"regression\", \"change\": \"failed\"");
    HAS(out, "\"capped_under_load\": 0}");
    HAS(out, "\"verdict\": \"regression\"");
    free(out);
    db_free(&d);
}

/* ---- spec pairs ------------------------------------------------------------------------------ */

/* Run 1: greedy on a, b, c (100 each); first-fit on a. Run 2: greedy:round=64
 * on a (140), b (100), c (50); first-fit on a. */
static db changed_spec(int64_t *r0, int64_t *r1) {
    db d = db_new();
    int64_t a = suite(&d, "a"), b = suite(&d, "b"), c = suite(&d, "c");
    *r0 = begin(&d, "n");
    row(&d, *r0, a, "greedy", 100, ABO_PROOF_NONE, 0.2);
    row(&d, *r0, b, "greedy", 100, ABO_PROOF_LOWER_BOUND, 0.2);
    row(&d, *r0, c, "greedy", 100, ABO_PROOF_NONE, 0.2);
    row(&d, *r0, a, "first-fit", 100, ABO_PROOF_NONE, 0.2);
    *r1 = begin(&d, "n");
    row(&d, *r1, a, "greedy:round=64", 140, ABO_PROOF_NONE, 0.2);
    row(&d, *r1, b, "greedy:round=64", 100, ABO_PROOF_LOWER_BOUND, 0.8);
    row(&d, *r1, c, "greedy:round=64", 50, ABO_PROOF_NONE, 0.2);
    row(&d, *r1, a, "first-fit", 100, ABO_PROOF_NONE, 0.2);
    return d;
}

Test(compare_pairs, a_changed_spec_is_a_notice_with_a_hint_not_silence) {
    int64_t r0, r1;
    db d = changed_spec(&r0, &r1);
    outcome o = compare(&d, r0, r1, NULL);
    cr_assert_eq(o.sum.regressions, 0);
    cr_assert_eq(o.sum.specs_gone, 1);
    cr_assert_eq(o.sum.specs_new, 1);
    cr_assert_eq(o.sum.matched, 1);
    HAS(o.text, "| note | spec gone | (3 suites) | greedy | 3 rows | - |");
    HAS(o.text, "| note | spec new | (3 suites) | greedy:round=64 | - | 3 rows |");
    HAS(o.text, "Notice: the specs changed: 1 only in base (greedy), 1 only in head "
                "(greedy:round=64).");
    HAS(o.text, "  --pair 'greedy=greedy:round=64'\n");
    HAS(o.text, "Result: no regression; only 1 pairs matched: 2 specs changed and were not "
                "compared (see the notice).");
    free(o.text);
    db_free(&d);
}

Test(compare_pairs, a_pair_across_runs_finds_the_grown_arena) {
    int64_t r0, r1;
    db d = changed_spec(&r0, &r1);
    abr_spec_pair p = {"greedy", "greedy:round=64"};
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.pairs = &p, opt.npairs = 1;
    outcome o = compare(&d, r0, r1, &opt);
    cr_assert_eq(o.sum.matched, 3);
    cr_assert_eq(o.sum.regressions, 1, "%s", o.text);
    cr_assert_eq(o.sum.improvements, 1);
    cr_assert_eq(o.sum.warnings, 1);
    cr_assert_eq(o.sum.specs_gone + o.sum.specs_new, 0, "first-fit is left out");
    HAS(o.text, "| REGRESSION | arena grew | a | greedy -> greedy:round=64 | 100 | 140 | +40 bytes "
                "(+40.00%) |");
    HAS(o.text, "| improvement | arena shrank | c | greedy -> greedy:round=64 | 100 | 50 |");
    HAS(o.text, "| warning | slower | b | greedy -> greedy:round=64 |");
    HASNT(o.text, "first-fit");
    HASNT(o.text, "Notice");
    /* geomean of 1.4, 1, 0.5 = 0.7^(1/3); of CPU 1, 4, 1 = 4^(1/3) */
    HAS(o.text, "| greedy | greedy:round=64 | 3 | 3 | 3 | x0.8879 (3) | x1.5874 (3) |");
    HAS(o.text, "### greedy -> greedy:round=64\n");
    HAS(o.text, "| a | ok 100 | ok 140 | +40.00% | 200.00 ms | 200.00 ms | x1.00 |");
    HAS(o.text, "| c | ok 100 | ok 50 | -50.00% |");
    HAS(o.text, "Result: REGRESSION (1).");
    free(o.text);
    db_free(&d);
}

Test(compare_pairs, a_pair_within_one_run) {
    int64_t r0, r1;
    db d = changed_spec(&r0, &r1);
    abr_spec_pair p = {"first-fit", "greedy:round=64"};
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.pairs = &p, opt.npairs = 1;
    outcome o = compare(&d, r1, r1, &opt);
    cr_assert_eq(o.sum.matched, 1); /* only suite a has both */
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_ARENA_GREW], 1);
    cr_assert_eq(o.sum.added, 2, "b and c: new in head's spec");
    HAS(o.text, "| note | new | b | first-fit -> greedy:round=64 | - | ok 100 |");
    free(o.text);
    db_free(&d);
}

Test(compare_pairs, a_star_pattern_pairs_every_spec_with_its_variant) {
    db d = db_new();
    int64_t a = suite(&d, "a");
    int64_t r0 = begin(&d, "n");
    row(&d, r0, a, "x", 100, ABO_PROOF_NONE, 0);
    row(&d, r0, a, "y", 100, ABO_PROOF_NONE, 0);
    row(&d, r0, a, "z", 100, ABO_PROOF_NONE, 0);
    row(&d, r0, a, "x:k=2", 300, ABO_PROOF_NONE, 0); /* matches '*' too: x:k=2:k=2 is absent */
    row(&d, r0, a, "y:k=2", 300, ABO_PROOF_NONE, 0);
    abr_spec_pair p = {"*", "*:k=2"};
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.pairs = &p, opt.npairs = 1;
    outcome o = compare(&d, r0, r0, &opt);
    cr_assert_eq(o.sum.matched, 2, "%s", o.text);
    cr_assert_eq(o.sum.by_change[ABR_CHANGE_ARENA_GREW], 2);
    cr_assert_eq(o.sum.specs_gone, 3, "z, x:k=2 and y:k=2 have no variant: %s", o.text);
    HAS(o.text, "| REGRESSION | arena grew | a | x -> x:k=2 | 100 | 300 |");
    HAS(o.text, "| REGRESSION | arena grew | a | y -> y:k=2 | 100 | 300 |");
    HAS(o.text, "| note | spec gone | (1 suites) | z -> z:k=2 | 1 rows | - | no rows of z:k=2 in "
                "head |");
    free(o.text);
    db_free(&d);
}

Test(compare_pairs, parses_pairs_whose_specs_hold_equals_signs) {
    char buf[128];
    abr_spec_pair p;
    ab_error err;
    const struct {
        const char *text, *base, *head;
    } ok[] = {
        {"tflm-greedy=tflm-greedy:round=64", "tflm-greedy", "tflm-greedy:round=64"},
        {"first-fit:order=size=first-fit:order=start", "first-fit:order=size",
         "first-fit:order=start"},
        {"a:k=1,order=size=b", "a:k=1,order=size", "b"},
        {"ff@io=separate=ff@io=workspace", "ff@io=separate", "ff@io=workspace"},
        {"ff:order=size@io=both=ff", "ff:order=size@io=both", "ff"},
        {"*=*:round=64", "*", "*:round=64"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cr_assert(abr_spec_pair_parse(ok[i].text, buf, &p, &err), "%s: %s", ok[i].text, err.msg);
        cr_assert_str_eq(p.base, ok[i].base);
        cr_assert_str_eq(p.head, ok[i].head);
    }
    const char *bad[] = {"first-fit", "=b", "a=", "a:k=1", "*a*=b*", "*=b", "a=*"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert(!abr_spec_pair_parse(bad[i], buf, &p, &err), "%s", bad[i]);
    cr_assert(!abr_spec_pair_parse("x", buf, &p, &err));
    HAS(err.msg, "expected BASE=HEAD");
    cr_assert(!abr_spec_pair_parse("*=b", buf, &p, &err));
    HAS(err.msg, "on both sides or on neither");
}

Test(compare_pairs, refuses_a_bad_pair_in_the_options) {
    db d = db_new();
    int64_t r0 = begin(&d, "n");
    abr_spec_pair p = {"a*b*", "*"};
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.pairs = &p, opt.npairs = 1;
    ab_buf b = {0};
    ab_error err;
    cr_assert_eq(abr_compare(d.s, r0, r0, &opt, &b, NULL, &err), AB_EINPUT);
    HAS(err.msg, "at most one '*'");
    ab_buf_free(&b);
    db_free(&d);
}

/* ---- JSON ------------------------------------------------------------------------------------- */

/* Braces and brackets balance outside strings, and strings close. */
static void well_formed(const char *s) {
    int depth = 0;
    bool in = false;
    for (; *s; s++) {
        if (in) {
            if (*s == '\\') s++;
            else if (*s == '"') in = false;
            continue;
        }
        if (*s == '"') in = true;
        else if (*s == '{' || *s == '[') depth++;
        else if (*s == '}' || *s == ']') cr_assert(--depth >= 0);
    }
    cr_assert(!in && depth == 0);
}

Test(compare_json, holds_the_pairs_the_rows_the_changes_and_the_verdict) {
    int64_t r0, r1;
    db d = changed_spec(&r0, &r1);
    abr_spec_pair p = {"greedy", "greedy:round=64"};
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.pairs = &p, opt.npairs = 1;
    opt.format = ABR_COMPARE_JSON;
    outcome o = compare(&d, r0, r1, &opt);
    well_formed(o.text);
    HAS(o.text, "{\"format\": \"arenabench-compare\", \"version\": 1,\n");
    HAS(o.text, "\"thresholds\": {\"slow_ratio\": 1.5, \"slow_min_s\": 0.05, \"fast_ratio\": 1.5, "
                "\"fast_min_s\": 0.05, \"fail_on_time\": false, \"spread\": \"cpu_min_max\"}");
    HAS(o.text, "{\"base_spec\": \"greedy\", \"head_spec\": \"greedy:round=64\", \"base_rows\": 3, "
                "\"head_rows\": 3, \"matched\": 3, \"arena_geomean\": 0.887904002, \"arena_n\": 3, "
                "\"cpu_geomean\": 1.58740105, \"cpu_n\": 3}");
    HAS(o.text, "{\"pair\": 0, \"suite\": \"a\", \"hash\": \"");
    HAS(o.text, "\"base\": {\"run\": 1, \"spec\": \"greedy\", \"status\": \"ok\", \"arena\": 100, "
                "\"proven_by\": \"none\", \"cpu_s\": 0.2, \"cpu_min_s\": 0.2, \"cpu_max_s\": 0.2, "
                "\"wall_s\": 0.3, \"capped\": null, \"message\": null}");
    HAS(o.text, "\"arena_ratio\": 1.4, \"cpu_ratio\": 1}");
    HAS(o.text, "{\"class\": \"regression\", \"change\": \"arena grew\", \"suite\": \"a\"");
    HAS(o.text, "{\"class\": \"warning\", \"change\": \"slower\", \"suite\": \"b\"");
    HAS(o.text, "\"notice\": null");
    HAS(o.text, "\"summary\": {\"matched\": 3, \"unchanged\": 0, \"regressions\": 1, "
                "\"warnings\": 1, \"improvements\": 1,");
    HAS(o.text, "\"verdict\": \"regression\"\n}\n");
    outcome again = compare(&d, r0, r1, &opt);
    cr_assert_str_eq(o.text, again.text, "the same runs give the same bytes");
    free(again.text);
    free(o.text);
    /* without the pair: the notice, with its hint, and nothing regressed */
    opt.pairs = NULL, opt.npairs = 0;
    o = compare(&d, r0, r1, &opt);
    well_formed(o.text);
    HAS(o.text, "\"notice\": {\"specs_gone\": [\"greedy\"], \"specs_new\": [\"greedy:round=64\"], "
                "\"hints\": [\"--pair 'greedy=greedy:round=64'\"]}");
    HAS(o.text, "{\"class\": \"new/gone\", \"change\": \"spec gone\", \"suite\": null, \"hash\": "
                "null, \"base_spec\": \"greedy\", \"head_spec\": \"greedy\", \"base\": null, "
                "\"head\": null, \"rows\": 3}");
    HAS(o.text, "\"verdict\": \"no regression\"");
    free(o.text);
    db_free(&d);
}

Test(compare_json, escapes_strings) {
    db d = db_new();
    int64_t a = suite(&d, "q\"uote\\back\nline\x01\xff");
    int64_t r0 = begin(&d, "n");
    row(&d, r0, a, "x", 100, ABO_PROOF_NONE, 0);
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.format = ABR_COMPARE_JSON;
    outcome o = compare(&d, r0, r0, &opt);
    well_formed(o.text);
    HAS(o.text, "\"suite\": \"q\\\"uote\\\\back\\u000aline\\u0001\\ufffd\"");
    free(o.text);
    db_free(&d);
}

Test(compare_json, fails_cleanly_at_each_allocation) {
    int64_t r0, r1;
    db d = changed_spec(&r0, &r1);
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    opt.format = ABR_COMPARE_JSON;
    for (int pass = 0; pass < 2; pass++) {
        abr_spec_pair p = {"*", "*:round=64"};
        opt.pairs = pass ? &p : NULL, opt.npairs = pass ? 1 : 0;
        for (long n = 1;; n++) {
            ab_buf b = {0};
            ab_error err;
            ab_alloc_fail_at(n);
            ab_status st = abr_compare(d.s, r0, r1, &opt, &b, NULL, &err);
            long made = ab_alloc_fail_at(0);
            ab_buf_free(&b);
            if (made < n) {
                cr_assert_eq(st, AB_OK, "%s", err.msg);
                break;
            }
            cr_assert_eq(st, AB_ENOMEM, "allocation %ld: %d %s", n, st, err.msg);
        }
    }
    db_free(&d);
}

/* ---- the command ---------------------------------------------------------------------------- */

static int run_cmd(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run_cmd(char **out, const char *fmt, ...) {
    char args[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    char *o, *e;
    int rc = abt_run(args, &o, &e);
    size_t n = strlen(o) + strlen(e) + 1;
    *out = malloc(n);
    cr_assert_not_null(*out);
    snprintf(*out, n, "%s%s", o, e);
    free(o), free(e);
    return rc;
}

/* Issue 12: tflm-greedy, then tflm-greedy:round=64 (arenas grew from 44 to
 * 140 bytes on example-int4-shapes). Plain compare: exit 0, but a notice and
 * the --pair hint; with --pair: the growth, exit 1. */
Test(compare_cli, a_changed_planner_parameter_is_visible_and_pairs_find_the_growth) {
    char *dir = abt_tmpdir(), *out;
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples"));
    cr_assert_eq(run_cmd(&out, "run -q --db %s/r.db --tag t -p tflm-greedy -p first-fit %s", dir,
                         ex), 0, "%s", out);
    free(out);
    cr_assert_eq(run_cmd(&out, "run -q --db %s/r.db --tag t -p tflm-greedy:round=64 -p first-fit "
                         "%s", dir, ex), 0, "%s", out);
    free(out);
    cr_assert_eq(run_cmd(&out, "compare --db %s/r.db --tag t", dir), 0, "%s", out);
    HAS(out, "| note | spec gone |");
    HAS(out, "Notice: the specs changed");
    HAS(out, "--pair 'tflm-greedy=tflm-greedy:round=64'");
    HAS(out, "specs changed and were not compared");
    free(out);
    cr_assert_eq(run_cmd(&out, "compare --db %s/r.db --tag t --pair "
                         "'tflm-greedy=tflm-greedy:round=64'", dir), 1, "%s", out);
    HAS(out, "| REGRESSION | arena grew | example-int4-shapes | tflm-greedy -> "
             "tflm-greedy:round=64 | 44 | 140 | +96 bytes (+218.18%) |");
    HAS(out, "### tflm-greedy -> tflm-greedy:round=64");
    free(out);
    cr_assert_eq(run_cmd(&out, "compare --db %s/r.db --base-spec tflm-greedy --head-spec "
                         "tflm-greedy:round=64 --format json", dir), 1, "%s", out);
    HAS(out, "\"verdict\": \"regression\"");
    free(out);
    /* within one run: first-fit against round=64 */
    cr_assert_eq(run_cmd(&out, "compare --db %s/r.db --run latest --pair "
                         "first-fit=tflm-greedy:round=64", dir), 1, "%s", out);
    HAS(out, "run 2 -> run 2");
    free(out);
    free(dir);
}

Test(compare_cli, refuses_bad_options) {
    char *dir = abt_tmpdir(), *out;
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples/first_fit_hole.yaml"));
    cr_assert_eq(run_cmd(&out, "run -q --db %s/r.db -p first-fit %s", dir, ex), 0, "%s", out);
    free(out);
    const struct {
        const char *args, *msg;
    } bad[] = {
        {"--pair first-fit", "expected BASE=HEAD"},
        {"--pair '*=first-fit'", "on both sides or on neither"},
        {"--base-spec first-fit", "--base-spec and --head-spec go together"},
        {"--slow-ratio 0.5", "--slow-ratio takes a number >= 1"},
        {"--fast-min -1", "--fast-min takes seconds >= 0"},
        {"--format xml", "--format takes text or json"},
        {"--run 1 --base 1", "--run is both base and head"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_assert_eq(run_cmd(&out, "compare --db %s/r.db %s", dir, bad[i].args), 2, "%s: %s",
                     bad[i].args, out);
        HAS(out, bad[i].msg);
        free(out);
    }
    /* one run, no earlier one: nothing to compare, in either format */
    cr_assert_eq(run_cmd(&out, "compare --db %s/r.db --format json", dir), 0, "%s", out);
    HAS(out, "\"verdict\": \"nothing to compare\"");
    free(out);
    free(dir);
}

Test(compare_cli, report_picks_the_latest_run_of_a_tag) {
    char *dir = abt_tmpdir(), *out;
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples/first_fit_hole.yaml"));
    cr_assert_eq(run_cmd(&out, "run -q --db %s/r.db --tag a -p first-fit %s", dir, ex), 0, "%s", out);
    free(out);
    cr_assert_eq(run_cmd(&out, "run -q --db %s/r.db --tag b -p best-fit %s", dir, ex), 0, "%s", out);
    free(out);
    cr_assert_eq(run_cmd(&out, "report --db %s/r.db --tag a --format csv", dir), 0, "%s", out);
    HAS(out, "first-fit");
    HASNT(out, "best-fit");
    free(out);
    cr_assert_eq(run_cmd(&out, "report --db %s/r.db --format csv", dir), 0, "%s", out);
    HAS(out, "best-fit");
    free(out);
    cr_assert_eq(run_cmd(&out, "report --db %s/r.db --tag nope", dir), 2, "%s", out);
    HAS(out, "no runs tagged nope");
    free(out);
    cr_assert_eq(run_cmd(&out, "report --db %s/r.db --tag a --run 2", dir), 2, "%s", out);
    HAS(out, "give one of them");
    free(out);
    free(dir);
}
