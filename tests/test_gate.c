/*
 * test_gate.c — the capacity gate a firmware CI relies on (issue: "a
 * fit-in-N-bytes gate"): --capacity on plan, bound, run and import overrides
 * the suite's; a plan over it, or a capacity proven infeasible, exits 1 with
 * the shortfall and what is proven; within it, 0. Also plan's lines per pool
 * and MiniMalloc's spelling of the suite (--input).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "no \"%s\" in:\n%s", (sub), (s))

/* first-fit leaves a hole: 6144 bytes where 4096 (the max-load bound) fit. */
#define HOLE "suites/examples/first_fit_hole.yaml"

/* Runs arenabench with args; its exit code, stdout and stderr (owned). */
static int run(const char *args, char **out, char **err) {
    return abt_run(args, out, err);
}

Test(gate, plan_over_a_capacity_no_plan_can_meet_exits_1_saying_it_is_proven) {
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "plan '%s' --capacity 4000", abt_src(HOLE));
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 1, "exit %d\n%s\n%s", rc, out, err);
    HAS(out, "status     infeasible: no plan fits the capacity 4000, proven by lower-bound");
    HAS(err, "the plan does not fit: its arena exceeds the capacity, and no plan can fit (proven)");
    free(out), free(err);
}

Test(gate, plan_over_a_capacity_another_planner_meets_exits_1_and_says_so) {
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "plan '%s' -p first-fit --capacity 4K", abt_src(HOLE));
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 1, "exit %d\n%s\n%s", rc, out, err);
    HAS(out, "arena 6144 exceeds capacity 4096 by 2048 bytes");
    HAS(err, "another planner may fit it");
    free(out), free(err);
    /* the exact planner meets it: the gate passes */
    snprintf(args, sizeof args, "plan '%s' -p canonical --capacity 4K", abt_src(HOLE));
    rc = run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s\n%s", rc, out, err);
    HAS(out, "check      ok");
    free(out), free(err);
}

Test(gate, a_plan_over_its_capacity_is_still_written) {
    char *dir = abt_tmpdir(), args[8400], path[4096], *out, *err;
    snprintf(path, sizeof path, "%s/p.csv", dir);
    snprintf(args, sizeof args, "plan '%s' --capacity 4096 -o '%s'", abt_src(HOLE), path);
    cr_assert_eq(run(args, &out, &err), 1, "%s\n%s", out, err);
    char *plan = abt_slurp(path, NULL);
    cr_assert_not_null(plan, "the valid plan is written even though it misses the gate");
    free(plan), free(out), free(err), free(dir);
}

Test(gate, bound_says_whether_max_load_excludes_the_capacity) {
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "bound '%s' --capacity 4095", abt_src(HOLE));
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 1, "exit %d\n%s\n%s", rc, out, err);
    HAS(out, "no plan fits (max-load is 1 B over it)");
    HAS(err, "the capacity 4095 cannot be met: the max-load bound is 4096");
    free(out), free(err);
    snprintf(args, sizeof args, "bound '%s' --capacity 4096 --bytes", abt_src(HOLE));
    rc = run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s\n%s", rc, out, err);
    HAS(out, "capacity   4096 bytes: not excluded (0 bytes to spare at the peak; a plan decides)");
    free(out), free(err);
}

Test(gate, a_bad_capacity_is_a_usage_error_naming_the_option) {
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "plan '%s' --capacity 1.5K", abt_src(HOLE));
    cr_assert_eq(run(args, &out, &err), 2);
    HAS(err, "--capacity takes a byte count >= 1 (digits, optionally with K, M, G or T: 256K), "
             "not '1.5K'");
    free(out), free(err);
    snprintf(args, sizeof args, "bound '%s' --capacity 0", abt_src(HOLE));
    cr_assert_eq(run(args, &out, &err), 2);
    HAS(err, "not '0'");
    free(out), free(err);
}

Test(gate, run_exits_1_when_no_planner_meets_a_suites_capacity) {
    char *dir = abt_tmpdir(), args[8400], *out, *err;
    snprintf(args, sizeof args, "run '%s' -p first-fit -p best-fit --capacity 4096 --db '%s/a.db' "
             "-j 1 -q", abt_src(HOLE), dir);
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 1, "exit %d\n%s\n%s", rc, out, err);
    HAS(err, "CAPACITY example-first-fit-hole: no planner fits the capacity 4096; best plan 6144");
    HAS(err, "2048 bytes over; not proven infeasible");
    HAS(err, "1 suite fits no plan within its capacity (the gate");
    free(out), free(err);
    /* canonical meets it: the same suite passes */
    snprintf(args, sizeof args, "run '%s' -p first-fit -p canonical --capacity 4096 "
             "--db '%s/b.db' -j 1 -q", abt_src(HOLE), dir);
    rc = run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s\n%s", rc, out, err);
    cr_assert_null(strstr(err, "CAPACITY"), "%s", err);
    free(out), free(err);
    /* below max-load: proven by the bound */
    snprintf(args, sizeof args, "run '%s' -p canonical --capacity 4000 --db '%s/c.db' -j 1 -q",
             abt_src(HOLE), dir);
    rc = run(args, &out, &err);
    cr_assert_eq(rc, 1, "exit %d\n%s\n%s", rc, out, err);
    HAS(err, "no plan can fit, proven by canonical");
    free(out), free(err), free(dir);
}

Test(gate, import_stores_the_capacity_in_the_suite) {
    char *dir = abt_tmpdir(), args[8400], path[4096], *out, *err;
    snprintf(path, sizeof path, "%s/s.yaml", dir);
    const char *csv = abt_write_tmp("id,lower,upper,size\n0,0,2,100\n1,1,3,100\n", ".csv");
    snprintf(args, sizeof args, "import '%s' --capacity 150 -o '%s'", csv, path);
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s\n%s", rc, out, err);
    char *yaml = abt_slurp(path, NULL);
    cr_assert_not_null(yaml);
    HAS(yaml, "capacity: 150");
    free(yaml), free(out), free(err);
    snprintf(args, sizeof args, "plan --input '%s'", path);
    cr_assert_eq(run(args, &out, &err), 1, "%s", out);
    HAS(out, "exceeds capacity 150");
    free(out), free(err), free(dir);
}

Test(gate, plan_gives_each_pool_its_bytes_and_top_tensors) {
    const char *suite = abt_write_tmp("suite: pooled\npools:\n  - {name: sram, size: 64}\n"
                                      "  - {name: dram}\ntensors:\n"
                                      "  - {name: a, size: 40, start: 0, end: 1}\n"
                                      "  - {name: b, size: 40, start: 1, end: 2}\n",
                                      ".yaml");
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "plan '%s' --bytes", suite);
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s\n%s", rc, out, err);
    HAS(out, "pools      sram: 40 bytes of 64 bytes (62.5%); top set by a");
    HAS(out, "           dram: 40 bytes (unbounded); top set by b");
    free(out), free(err);
}

Test(gate, input_is_the_operand_given_once) {
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "plan --input '%s' '%s'", abt_src(HOLE), abt_src(HOLE));
    cr_assert_eq(run(args, &out, &err), 2);
    HAS(err, "give the suite once: as the operand or as --input");
    free(out), free(err);
}

/* validate given a suite where the plan goes, or a plan of another format:
 * the error says what the file is and what to do. */
Test(gate, validate_says_when_the_plan_is_a_suite_or_another_format) {
    const char *suite = abt_write_tmp("suite: g\ntensors:\n  - {name: \"0\", size: 100, start: 0, "
                                      "end: 1}\n  - {name: \"1\", size: 100, start: 1, end: 2}\n",
                                      ".yaml");
    char suite_path[4096];
    snprintf(suite_path, sizeof suite_path, "%s", suite);
    const char *mm = abt_write_tmp("id,lower,upper,size\n0,0,2,100\n1,1,3,100\n", ".csv");
    char args[8400], *out, *err;
    snprintf(args, sizeof args, "validate '%s' '%s'", suite_path, mm);
    cr_assert_eq(run(args, &out, &err), 2);
    HAS(err, "looks like a suite (MiniMalloc CSV), not a plan: plan it first");
    free(out), free(err);
    const char *mmp = abt_write_tmp("id,lower,upper,size,offset\n0,0,2,100,0\n1,1,3,100,100\n",
                                    ".csv");
    snprintf(args, sizeof args, "validate '%s' '%s'", suite_path, mmp);
    cr_assert_eq(run(args, &out, &err), 2);
    HAS(err, "reads as a plan of format minimalloc");
    HAS(err, "give --format minimalloc");
    free(out), free(err);
    snprintf(args, sizeof args, "validate '%s' '%s' --format minimalloc", suite_path, mmp);
    cr_assert_eq(run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
}

/* plan --picture: first-fit's hole under skip, row by row (64 slices of 96
 * bytes: conv1 [0, 2048) takes 21 whole slices, skip [2048, 3072) the next
 * 11, conv2 [3072, 6144) the last 32), the live bytes, the legend. */
Test(gate, plan_picture_draws_the_plan_in_text) {
    char args[4200], *out, *err;
    snprintf(args, sizeof args, "plan '%s' -p first-fit --picture", abt_src(HOLE));
    cr_assert_eq(run(args, &out, &err), 0, "%s", err);
    HAS(out, "picture    64 columns of 96.0 bytes each (arena 6144 bytes); a row per "
             "instruction; '.' free\n"
             "  0 |AAAAAAAAAAAAAAAAAAAAABBBBBBBBBBB................................| 3072\n"
             "  1 |AAAAAAAAAAAAAAAAAAAAABBBBBBBBBBB................................| 3072\n"
             "  2 |.....................BBBBBBBBBBBCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC| 4096\n"
             "  3 |.....................BBBBBBBBBBBCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC| 4096\n"
             "legend     A=conv1, B=skip, C=conv2\n");
    free(out), free(err);
}

/* Many instructions: every k-th row, said in the heading; many tensors: '*'. */
Test(gate, plan_picture_of_a_long_suite_says_which_rows_it_shows) {
    char *dir = abt_tmpdir(), path[4096], args[8400], *out, *err;
    snprintf(path, sizeof path, "%s/long.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "suite: long\ntensors:\n");
    for (int i = 0; i < 100; i++)
        fprintf(f, "  - {name: t%d, size: %d, start: %d, end: %d}\n", i, 16 + i, 2 * i, 2 * i + 3);
    fclose(f);
    snprintf(args, sizeof args, "plan '%s' --picture", path);
    cr_assert_eq(run(args, &out, &err), 0, "%s", err);
    HAS(out, "a row per instruction, every 4th of 202 shown");
    HAS(out, "; '*' the other 38 tensors");
    free(out), free(err), free(dir);
}

/* An external program that leaves a FIFO as its {output}: plan says so and
 * ends, instead of blocking on the read for ever (issue 30, finding 6). */
Test(gate, an_external_output_that_is_a_fifo_is_refused_not_read) {
    char args[8400], *out, *err;
    snprintf(args, sizeof args,
             "plan '%s' -p \"external:cmd='sh -c \\\"cat {input} >/dev/null; mkfifo {output}\\\"'\"",
             abt_src(HOLE));
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 1, "exit %d\n%s\n%s", rc, out, err);
    HAS(err, "is not a regular file (the program left a FIFO there); its output must be a file");
    free(out), free(err);
}

/* compare --pair whose side names no spec of its run: exit 2 with the closest
 * spec, not exit 0 and "see the notice" (issue 31's small traps). */
Test(gate, a_pair_that_matches_nothing_is_a_usage_error_with_the_closest_spec) {
    char *dir = abt_tmpdir(), args[8400], *out, *err;
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "run -q --db '%s/c.db' --tag t -p first-fit '%s'", dir,
                 abt_src(HOLE));
        cr_assert_eq(run(args, &out, &err), 0, "%s", err);
        free(out), free(err);
    }
    snprintf(args, sizeof args, "compare --db '%s/c.db' --pair first-fit=frist-fit", dir);
    cr_assert_eq(run(args, &out, &err), 2, "%s", out);
    HAS(err, "--pair first-fit=frist-fit: run 2 (head) has no row of spec 'frist-fit'; did you "
             "mean 'first-fit'?");
    free(out), free(err);
    snprintf(args, sizeof args, "compare --db '%s/c.db' --pair first-fit=first-fit", dir);
    cr_assert_eq(run(args, &out, &err), 0, "%s", err);
    free(out), free(err), free(dir);
}

/* The example planner in Python (examples/greedy_planner.py) runs through the
 * external protocol on every example suite, valid; name= labels its rows in
 * the report. Skips, saying why, without python3. */
Test(gate, the_python_example_planner_runs_and_is_labelled_by_its_name) {
    if (system("command -v python3 >/dev/null 2>&1") != 0)
        cr_skip_test("python3 is not installed: the example planner is not run");
    char *dir = abt_tmpdir(), args[16384], py[4096], *out, *err;
    snprintf(py, sizeof py, "%s", abt_src("examples/greedy_planner.py")); /* abt_src: one at a time */
    snprintf(args, sizeof args,
             "run -q --db '%s/e.db' -p \"external:cmd='python3 %s {input} {output}',"
             "name=py-greedy\" '%s'", dir, py, abt_src("suites/examples"));
    int rc = run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s\n%s", rc, out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "report --db '%s/e.db'", dir);
    cr_assert_eq(run(args, &out, &err), 0, "%s", err);
    HAS(out, "0 failed (invalid, crash or error)");
    HAS(out, "| py-greedy |");
    free(out), free(err), free(dir);
}
