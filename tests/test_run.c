/*
 * test_run.c — `arenabench run` end to end: failures of planners recorded
 * with the right status while the run goes on; rows independent of -j; a
 * SIGKILLed run resumed to the same rows; three shards merged equal to one
 * run; bad input and unwritable databases refused without a corrupt file.
 */
#include <criterion/criterion.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "results/store/store.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* The rows of the latest run in db, read through a store left open in *s. */
static abs_rows latest_rows(const char *db, abs_store **s) {
    ab_error err;
    cr_assert_eq(abs_open(db, ABS_OPEN_READONLY, s, &err), AB_OK, "%s", err.msg);
    int64_t run;
    cr_assert_eq(abs_run_latest(*s, NULL, &run, &err), AB_OK, "%s", err.msg);
    abs_rows rows;
    cr_assert_eq(abs_rows_read(*s, run, &rows, &err), AB_OK, "%s", err.msg);
    return rows;
}

/* The rows of the latest run in db as text, one line per row, without the
 * fields that vary from run to run (times, RSS, ids). */
static char *rows_text(const char *db) {
    abs_store *s;
    ab_error err;
    abs_rows rows = latest_rows(db, &s);
    ab_buf b = {0};
    for (size_t i = 0; i < rows.n; i++) {
        const abo_row *r = &rows.v[i].r;
        ab_buf_printf(&b, "%s %s %s %s arena=%lld lb=%lld proof=%s verdict=%s plan=%s sig=%d\n",
                      rows.v[i].suite.name, rows.v[i].suite.hash, r->spec,
                      abo_status_word(r->status), (long long)r->arena,
                      (long long)r->lower_bound, abo_proof_word(r->proven_by),
                      r->verdict ? r->verdict : "-", r->plan_hash, r->signal);
    }
    abs_rows_free(&rows);
    cr_assert_eq(abs_check(s, &err), AB_OK, "integrity: %s", err.msg);
    abs_close(s);
    return b.s ? b.s : strdup("");
}

static size_t count_lines(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

Test(run, records_failing_planners_and_goes_on) {
    char *dir = abt_tmpdir();
    char args[8192];
    /* abt_src returns one static buffer: build the paths separately */
    char d1[4096], d2[4096];
    snprintf(d1, sizeof d1, "%s", abt_src("suites/examples/diamond.yaml"));
    snprintf(d2, sizeof d2, "%s", abt_src("suites/examples/touching_ranges.yaml"));
    /* the time limit kills the two test-hang jobs (5 s of waiting, in parallel);
     * every other job ends by itself in under 0.2 s, 25x within it */
    snprintf(args, sizeof args,
             "run -q --db %s/r.db -j 2 --time-limit 5 --mem-limit 256M -p test-crash -p test-hang "
             "-p test-alloc-bomb -p test-overlap -p test-error -p first-fit %s %s",
             dir, d1, d2);
    char *out, *err;
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(err, "12 jobs");
    HAS(err, "test-crash: crash");
    free(out), free(err);
    char db[4096];
    snprintf(db, sizeof db, "%s/r.db", dir);
    char *rows = rows_text(db);
    cr_assert_eq(count_lines(rows), 12, "%s", rows);
    const char *want[] = {"test-crash crash", "test-hang timeout", "test-overlap invalid",
                          "test-error error", "first-fit ok", "test-alloc-bomb oom"};
    /* Under AddressSanitizer the allocation bomb may die inside ASan's own
     * mmap (a crash) before malloc returns NULL (see tests/test_runner.c). */
#if defined(__SANITIZE_ADDRESS__)
    size_t checks = 5;
#else
    size_t checks = 6;
#endif
    for (size_t i = 0; i < checks; i++) {
        char *p = rows;
        size_t hits = 0;
        while ((p = strstr(p, want[i])) != NULL) hits++, p++;
        cr_assert_eq(hits, 2, "'%s' twice in:\n%s", want[i], rows);
    }
    HAS(rows, "sig=11");
    HAS(rows, "verdict=overlap");
    free(rows);
    free(dir);
}

Test(run, rows_do_not_depend_on_the_number_of_jobs) {
    char *dir = abt_tmpdir();
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples"));
    /* -j 1 with the default repeats (every planner's plan the same on each
     * repeat, or the row is an error); -j 2 once each: rows do not keep the
     * repeat count, and the second pass only has to give the same rows */
    abt_run_ok(0, "run -q --db %s/a.db -j 1 %s", dir, ex);
    abt_run_ok(0, "run -q --db %s/b.db -j 2 --repeat-min 1 %s", dir, ex);
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/a.db", dir);
    snprintf(b, sizeof b, "%s/b.db", dir);
    char *ra = rows_text(a), *rb = rows_text(b);
    cr_assert_geq(count_lines(ra), 40);
    cr_assert_str_eq(ra, rb);
    free(ra), free(rb), free(dir);
}

Test(run, three_shards_merged_equal_one_run) {
    char *dir = abt_tmpdir();
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples"));
    abt_run_ok(0, "run -q --db %s/one.db %s", dir, ex);
    for (int i = 1; i <= 3; i++) /* each job once: the merge compares rows, not repeats */
        abt_run_ok(0, "run -q --db %s/s%d.db --shard %d/3 --run-key K1 --repeat-min 1 %s", dir, i,
                   i, ex);
    abt_run_ok(0, "merge %s/m.db %s/s1.db %s/s2.db %s/s3.db", dir, dir, dir, dir);
    char one[4096], m[4096], s1[4096];
    snprintf(one, sizeof one, "%s/one.db", dir);
    snprintf(m, sizeof m, "%s/m.db", dir);
    snprintf(s1, sizeof s1, "%s/s1.db", dir);
    char *r1 = rows_text(one), *rm = rows_text(m), *rs = rows_text(s1);
    cr_assert_str_eq(r1, rm);
    cr_assert_lt(count_lines(rs), count_lines(r1), "a shard runs a part of the jobs");
    cr_assert_gt(count_lines(rs), 0);
    free(r1), free(rm), free(rs), free(dir);
}

/* Rows committed so far in db (0 while it does not exist yet). */
static int64_t committed_rows(const char *db) {
    if (access(db, F_OK) != 0) return 0;
    abs_store *s;
    if (abs_open(db, ABS_OPEN_READONLY, &s, NULL) != AB_OK) return 0;
    int64_t run = 0, n = 0;
    abs_rows rows;
    if (abs_run_latest(s, NULL, &run, NULL) == AB_OK && run > 0 &&
        abs_rows_read(s, run, &rows, NULL) == AB_OK) {
        n = (int64_t)rows.n;
        abs_rows_free(&rows);
    }
    abs_close(s);
    return n;
}

/* Starts arenabench with argv in the background; returns its pid. */
static pid_t spawn(char *const argv[]) {
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

/* The harness is killed while it waits in a job that waits for a file the
 * test has not made (test-gate), with -j 1, so exactly the jobs before it are
 * committed: nothing races the clock. */
Test(run, resumes_after_sigkill_to_the_same_rows) {
    char *dir = abt_tmpdir();
    char ex[4096], bin[4096], db[4096], ref[4096], gate[4096], spec[8192];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples"));
    snprintf(bin, sizeof bin, "%s/arenabench-test", AB_BINARY_DIR);
    snprintf(db, sizeof db, "%s/k.db", dir);
    snprintf(ref, sizeof ref, "%s/ref.db", dir);
    snprintf(gate, sizeof gate, "%s/gate", dir);
    snprintf(spec, sizeof spec, "test-gate:file=%s", gate);
    char *argv[] = {bin, "run", "-q", "--db", db, "-j", "1", "-p", "first-fit", "-p", "best-fit",
                    "-p", spec, ex, NULL};
    pid_t pid = spawn(argv);
    /* the first two jobs (first-fit, best-fit on the first suite) commit;
     * the third waits for the gate */
    int status;
    for (int tries = 0; tries < 6000 && committed_rows(db) < 2; tries++) { /* up to 5 min */
        cr_assert_eq(waitpid(pid, &status, WNOHANG), 0, "the harness ended at the gate");
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status), "the harness was not killed");
    char *partial = rows_text(db);
    cr_assert_eq(count_lines(partial), 2, "the jobs before the gate, no more:\n%s", partial);
    FILE *f = fopen(gate, "w"); /* open the gate */
    cr_assert_not_null(f);
    fclose(f);
    abt_run_ok(0, "run -q --db %s -j 2 --repeat-min 1 --resume latest -p first-fit -p best-fit -p %s %s",
               db, spec, ex);
    abt_run_ok(0, "run -q --db %s -j 2 --repeat-min 1 -p first-fit -p best-fit -p %s %s", ref, spec,
               ex);
    char *resumed = rows_text(db), *whole = rows_text(ref);
    cr_assert_geq(count_lines(whole), 30);
    cr_assert_str_eq(resumed, whole);
    free(partial), free(resumed), free(whole), free(dir);
}

Test(run, bad_input_writes_nothing) {
    char *dir = abt_tmpdir();
    const char *bad = abt_write_tmp("suite: x\ntensors:\n  - {name: a, size: 0, start: 0, end: 1}\n",
                                    ".yaml");
    char args[8192];
    snprintf(args, sizeof args, "run -q --db %s/r.db %s", dir, bad);
    char *out, *err;
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "size");
    free(out), free(err);
    char db[4096];
    snprintf(db, sizeof db, "%s/r.db", dir);
    cr_assert_neq(access(db, F_OK), 0, "no database file was created");
    snprintf(args, sizeof args, "run -q --db %s/r.db -p nope %s", dir, abt_src("suites/examples"));
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "unknown planner 'nope'");
    free(out), free(err);
    free(dir);
}

/* ---- files that do not load ------------------------------------------------------ */

/* Writes text to dir/name. */
static void put_file(const char *dir, const char *name, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* A folder with one good suite and five bad files: malformed YAML, a
 * negative size, an overflowing size, a bad MiniMalloc CSV field, and two
 * empty files (the same bytes under two names). */
static char *folder_with_bad_files(void) {
    char *dir = abt_tmpdir();
    char *good = abt_slurp(abt_src("suites/examples/diamond.yaml"), NULL);
    cr_assert_not_null(good);
    put_file(dir, "diamond.yaml", good);
    free(good);
    put_file(dir, "malformed.yaml", "suite: m\ntensors:\n  - {name: a, size: 8, start: 0\n");
    put_file(dir, "negative.yaml", "suite: n\ntensors:\n  - {name: a, size: -3, start: 0, end: 1}\n");
    put_file(dir, "overflow.yaml", "suite: o\ntensors:\n"
                                   "  - {name: a, size: 99999999999999999999999, start: 0, end: 1}\n");
    put_file(dir, "bad.csv", "id,lower,upper,size\n0,0,2,abc\n");
    put_file(dir, "empty1.yaml", "");
    put_file(dir, "empty2.yaml", "");
    return dir;
}

/* The rows of the latest run in db whose spec is "(load)": "name|error\n" each. */
static char *load_rows(const char *db, size_t *n) {
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(db, ABS_OPEN_READONLY, &s, &err), AB_OK, "%s", err.msg);
    int64_t run;
    cr_assert_eq(abs_run_latest(s, NULL, &run, &err), AB_OK, "%s", err.msg);
    abs_rows rows;
    cr_assert_eq(abs_rows_read(s, run, &rows, &err), AB_OK, "%s", err.msg);
    ab_buf b = {0};
    *n = 0;
    for (size_t i = 0; i < rows.n; i++) {
        const abs_row *w = &rows.v[i];
        if (strcmp(w->r.spec, "(load)") != 0) continue;
        cr_assert_eq(w->r.status, ABO_STATUS_ERROR);
        cr_assert_eq(w->suite.tensors, 0);
        char *text;
        cr_assert_eq(abs_suite_text(s, w->suite.id, &text, NULL, &err), AB_OK, "%s", err.msg);
        HAS(text, w->suite.name); /* the stored text names the file... */
        if (strstr(w->suite.name, "negative") != NULL) HAS(text, "size: -3"); /* ...and holds it */
        ab_free(text);
        ab_buf_printf(&b, "%s|%s\n", w->suite.name, w->r.error ? w->r.error : "");
        (*n)++;
    }
    abs_rows_free(&rows);
    abs_close(s);
    return b.s ? b.s : strdup("");
}

Test(run, a_file_in_a_folder_that_does_not_load_is_an_error_row_and_the_run_goes_on) {
    char *dir = folder_with_bad_files();
    char *out, *err, args[8192], db[4096];
    snprintf(db, sizeof db, "%s.db", dir);
    snprintf(args, sizeof args, "run -q --db %s -p first-fit -p best-fit %s", db, dir);
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(err, "2 jobs, 2 ok"); /* the good suite ran with both planners */
    HAS(err, "6 files found in the folders given did not load");
    /* every bad file listed, as path:line:column: message */
    char want[8192];
    const char *lines[] = {"malformed.yaml:4:1: YAML syntax error", "negative.yaml:3:21: ", "overflow.yaml:3:21: ",
                           "bad.csv:2:7: size", "empty1.yaml:1:1: ", "empty2.yaml:1:1: "};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        snprintf(want, sizeof want, "arenabench: %s/%s", dir, lines[i]);
        HAS(err, want);
    }
    free(out), free(err);
    size_t n;
    char *rows = load_rows(db, &n);
    cr_assert_eq(n, 6, "one error row per bad file, the two empty files apart:\n%s", rows);
    snprintf(want, sizeof want, "%s/negative.yaml|%s/negative.yaml:3:21: ", dir, dir);
    HAS(rows, want);
    HAS(rows, "must be a positive integer, got '-3'");
    HAS(rows, "no larger than 2^62");
    char *all = rows_text(db); /* also checks the file's integrity */
    cr_assert_eq(count_lines(all), 8, "%s", all);
    HAS(all, "example-diamond");
    free(all);
    /* --resume adds nothing twice and still fails on the bad files */
    snprintf(args, sizeof args, "run -q --db %s --resume latest -p first-fit -p best-fit %s", db,
             dir);
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(err, "6 files found in the folders given did not load");
    free(out), free(err);
    size_t again;
    char *rows2 = load_rows(db, &again);
    cr_assert_str_eq(rows2, rows);
    free(rows), free(rows2);
    /* the report lists them among the failures */
    snprintf(args, sizeof args, "report --db %s", db);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "6 failed results.");
    snprintf(want, sizeof want, "| %s/bad.csv | (load) | error | %s/bad.csv:2:7: size", dir, dir);
    HAS(out, want);
    free(out), free(err);
    free(dir);
}

/* compare: a file that starts failing to load is a regression; one that
 * fails the same way in both runs is no change. */
Test(run, compare_counts_a_new_failing_file) {
    char *dir = folder_with_bad_files();
    char *good = abt_tmpdir();
    char *text = abt_slurp(abt_src("suites/examples/diamond.yaml"), NULL);
    put_file(good, "diamond.yaml", text);
    free(text);
    char *out, *err, args[8192];
    abt_run_ok(0, "run -q --db %s.db --tag t -p first-fit %s", dir, good);
    abt_run_ok(1, "run -q --db %s.db --tag t -p first-fit %s", dir, dir);
    snprintf(args, sizeof args, "compare --db %s.db --tag t", dir);
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(out, "Result: REGRESSION (6).");
    char want[8192];
    snprintf(want, sizeof want, "| REGRESSION | failed | %s/negative.yaml | (load) | - | error | "
             "%s/negative.yaml:3:21: ", dir, dir);
    HAS(out, want);
    free(out), free(err);
    abt_run_ok(1, "run -q --db %s.db --tag t -p first-fit %s", dir, dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "no regression");
    free(out), free(err);
    free(good), free(dir);
}

/* Shards share the bad files out (the k-th to shard k mod N): merged, the
 * same rows as one run, each once; every shard still fails on them. */
Test(run, shards_merged_hold_each_bad_file_once) {
    char *dir = folder_with_bad_files();
    abt_run_ok(1, "run -q --db %s.one.db -p first-fit %s", dir, dir);
    for (int i = 1; i <= 3; i++)
        abt_run_ok(1, "run -q --db %s.s%d.db --shard %d/3 --run-key K -p first-fit %s", dir, i, i, dir);
    abt_run_ok(0, "merge %s.m.db %s.s1.db %s.s2.db %s.s3.db", dir, dir, dir, dir);
    char one[4096], m[4096];
    snprintf(one, sizeof one, "%s.one.db", dir);
    snprintf(m, sizeof m, "%s.m.db", dir);
    char *r1 = rows_text(one), *rm = rows_text(m);
    cr_assert_eq(count_lines(r1), 7, "%s", r1);
    cr_assert_str_eq(r1, rm);
    free(r1), free(rm), free(dir);
}

/* A file named on the command line is input the user gave: when it does not
 * load the run stops before anything is written (exit 2), even beside a folder. */
Test(run, a_bad_file_named_on_the_command_line_exits_2_and_writes_nothing) {
    char *dir = folder_with_bad_files();
    char *out, *err, args[8192], db[4096];
    snprintf(db, sizeof db, "%s.db", dir);
    snprintf(args, sizeof args, "run -q --db %s %s %s/negative.yaml", db,
             abt_src("suites/examples"), dir);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s%s", out, err);
    snprintf(args, sizeof args, "arenabench: %s/negative.yaml:3:21: ", dir);
    HAS(err, args);
    cr_assert_neq(access(db, F_OK), 0, "no database file was created");
    free(out), free(err);
    /* named and also found in a named folder: named wins */
    snprintf(args, sizeof args, "run -q --db %s %s %s/negative.yaml", db, dir, dir);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s%s", out, err);
    cr_assert_neq(access(db, F_OK), 0, "no database file was created");
    free(out), free(err);
    free(dir);
}

Test(run, unwritable_database_gives_a_clear_error) {
    char ex[4096], args[8192];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples/diamond.yaml"));
    snprintf(args, sizeof args, "run -q --db /nonexistent-dir/r.db %s", ex);
    char *out, *err;
    int rc = abt_run(args, &out, &err);
    cr_assert_neq(rc, 0);
    HAS(err, "/nonexistent-dir");
    free(out), free(err);
}

Test(run, full_disk_fails_cleanly) {
    char *dir = abt_tmpdir();
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples"));
    /* 512 KiB of file size (some rows fit, then the disk is "full"), SIGXFSZ ignored: writes past it fail with EFBIG */
    char cmd[12288];
    snprintf(cmd, sizeof cmd, "sh -c 'trap \"\" XFSZ; ulimit -f 512; exec %s/arenabench run -q "
             "--db %s/f.db --planners all %s' >%s/out 2>%s/err", AB_BINARY_DIR, dir, ex, dir, dir);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) != 0, "the run should fail");
    char path[4096];
    snprintf(path, sizeof path, "%s/err", dir);
    char *err = abt_slurp(path, NULL);
    HAS(err, "arenabench: ");
    free(err);
    snprintf(path, sizeof path, "%s/f.db", dir);
    if (access(path, F_OK) == 0) {
        abs_store *s;
        ab_error e;
        cr_assert_eq(abs_open(path, ABS_OPEN_READONLY, &s, &e), AB_OK, "%s", e.msg);
        cr_assert_eq(abs_check(s, &e), AB_OK, "integrity after a full disk: %s", e.msg);
        abs_close(s);
    }
    free(dir);
}

Test(run, stored_plans_export_again_as_planned) {
    char *dir = abt_tmpdir();
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples/first_fit_hole.yaml"));
    abt_run_ok(0, "run -q --db %s/r.db -p best-fit %s", dir, ex);
    abt_run_ok(0, "show-plan --db %s/r.db example-first-fit-hole best-fit -o %s/a.csv --svg %s/a.svg",
           dir, dir, dir);
    abt_run_ok(0, "plan -p best-fit %s -o %s/b.csv", ex, dir);
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv", dir);
    char *ta = abt_slurp(a, NULL), *tb = abt_slurp(b, NULL);
    cr_assert_not_null(ta);
    cr_assert_str_eq(ta, tb);
    free(ta), free(tb);
    abt_run_ok(2, "show-plan --db %s/r.db example-first-fit-hole worst-fit", dir);
    free(dir);
}

Test(run, report_and_compare_catch_a_planner_made_worse) {
    char *dir = abt_tmpdir();
    char ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples"));
    unsetenv("ARENABENCH_TEST_WORSE");
    abt_run_ok(0, "run -q --db %s/r.db --tag t -p test-worse-by-env -p first-fit %s", dir, ex);
    abt_run_ok(0, "compare --db %s/r.db --tag t", dir); /* nothing earlier: no regression */
    abt_run_ok(0, "run -q --db %s/r.db --tag t -p test-worse-by-env -p first-fit %s", dir, ex);
    char args[8192], *out, *err;
    snprintf(args, sizeof args, "compare --db %s/r.db --tag t", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "no regression");
    free(out), free(err);
    setenv("ARENABENCH_TEST_WORSE", "1", 1);
    abt_run_ok(0, "run -q --db %s/r.db --tag t -p test-worse-by-env -p first-fit %s", dir, ex);
    unsetenv("ARENABENCH_TEST_WORSE");
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(out, "example-first-fit-hole");
    HAS(out, "REGRESSION");
    free(out), free(err);
    const char *formats[] = {"md", "html", "csv", "json"};
    for (int f = 0; f < 4; f++) {
        snprintf(args, sizeof args, "report --db %s/r.db --format %s -o %s/report.%s", dir,
                 formats[f], dir, formats[f]);
        cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
        free(out), free(err);
        snprintf(args, sizeof args, "%s/report.%s", dir, formats[f]);
        char *text = abt_slurp(args, NULL);
        cr_assert_not_null(text);
        HAS(text, "example-first-fit-hole");
        free(text);
    }
    snprintf(args, sizeof args, "report --db %s/r.db --format pdf", dir);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "--format takes md, html, csv or json");
    free(out), free(err);
    free(dir);
}

Test(run, draws_a_live_progress_line_on_a_terminal) {
    if (access("/usr/bin/script", X_OK) != 0) cr_skip("no /usr/bin/script (util-linux) to make a terminal");
    char *dir = abt_tmpdir();
    char args[12288], ex[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples"));
    snprintf(args, sizeof args,
             "script -qec '%s/arenabench-test run --db %s/r.db %s' /dev/null >%s/tty.txt 2>&1",
             AB_BINARY_DIR, dir, ex, dir);
    cr_assert_eq(system(args), 0);
    snprintf(args, sizeof args, "%s/tty.txt", dir);
    char *tty = abt_slurp(args, NULL);
    HAS(tty, "\r\033[K[100/100] 0 failed"); /* 10 suites x the 10 default specs */
    cr_assert(strstr(tty, "example-diamond first-fit: ok") == NULL, "no per-job lines on a terminal");
    free(tty);
    /* not a terminal: one line per job */
    char *out, *err;
    snprintf(args, sizeof args, "run --db %s/r2.db %s", dir, ex);
    cr_assert_eq(abt_run(args, &out, &err), 0);
    HAS(err, "example-diamond first-fit: ok, arena 288");
    free(out), free(err);
    free(dir);
}

Test(run, io_both_reports_footprints_side_by_side) {
    char *dir = abt_tmpdir();
    char ex[4096], args[8192], *out, *err;
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples/io_separate.yaml"));
    abt_run_ok(0, "run -q --repeat-min 1 --db %s/r.db --io both -p first-fit:order=size %s", dir, ex);
    snprintf(args, sizeof args, "report --db %s/r.db", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "## I/O in the workspace");
    HAS(out, "| example-io-separate | first-fit:order=size | 800 + 2000 = 2800 | 1400 | 1400 (50.0%) |");
    HAS(out, "example-io-separate@io=workspace");
    free(out), free(err);
    snprintf(args, sizeof args, "run -q --db %s/r.db --io sideways %s", dir, ex);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "--io takes separate, workspace or both");
    free(out), free(err);
    free(dir);
}

Test(run, ilp_rows_carry_the_ilp_certificate) {
    char *dir = abt_tmpdir();
    char ex[4096], db[4096];
    snprintf(ex, sizeof ex, "%s", abt_src("suites/examples/fixed_offset.yaml"));
    abt_run_ok(0, "run -q --repeat-min 1 --db %s/r.db --ilp --ilp-time 5 -p first-fit %s", dir, ex);
    snprintf(db, sizeof db, "%s/r.db", dir);
    char *rows = rows_text(db);
    HAS(rows, "ilp:time=5 ok arena=256 lb=256 proof=ilp");
    HAS(rows, "first-fit ok arena=256 lb=224 proof=none");
    free(rows);
    free(dir);
}

Test(run, report_shows_bytes_per_pool) {
    char *dir = abt_tmpdir();
    char ex[4096], args[8192], *out, *err;
    snprintf(ex, sizeof ex, "%s", abt_src("suites/peers/usmp_mobilenet_subgraph.yaml"));
    snprintf(args, sizeof args, "run -q --repeat-min 1 --db %s/r.db -p usmp-greedy-by-size -p usmp-hill-climb "
             "-p first-fit %s", dir, ex);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s/r.db", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "## Bytes per pool");
    HAS(out, "| usmp-greedy-by-size | 200704 | 1418528 |");
    HAS(out, "| usmp-hill-climb | 200704 | 1117462 |");
    HAS(out, "| first-fit | 200704 | 1418528 |"); /* through the spill rule (spill.c) */
    free(out), free(err);
    free(dir);
}

/* expect: is checked both ways: a too-low optimum fails the run although every
 * plan is valid (a proof disagrees with it), and so does a max-load bound that
 * differs from expect.lower_bound. */
Test(run, expectations_are_checked_both_ways) {
    char *dir = abt_tmpdir();
    const char *low = "suite: too-low-optimum\ntensors:\n"
                      "  - {name: a, size: 32, start: 0, end: 1}\n"
                      "  - {name: b, size: 48, start: 1, end: 2}\n"
                      "  - {name: c, size: 16, start: 2, end: 3}\n"
                      "expect: {optimum: 70}\n";
    const char *lb = "suite: wrong-lb\ntensors:\n"
                     "  - {name: a, size: 32, start: 0, end: 1}\n"
                     "  - {name: b, size: 48, start: 1, end: 2}\n"
                     "expect: {lower_bound: 79, optimum: 80}\n";
    const char *good = "suite: right\ntensors:\n"
                       "  - {name: a, size: 32, start: 0, end: 1}\n"
                       "  - {name: b, size: 48, start: 1, end: 2}\n"
                       "expect: {lower_bound: 80, optimum: 80}\n";
    char p1[4096], p2[4096], p3[4096], args[16384], *out, *err;
    snprintf(p1, sizeof p1, "%s", abt_write_tmp(low, ".yaml"));
    snprintf(p2, sizeof p2, "%s", abt_write_tmp(lb, ".yaml"));
    snprintf(p3, sizeof p3, "%s", abt_write_tmp(good, ".yaml"));
    snprintf(args, sizeof args, "run -q --db %s/r.db -p exact-cover -p first-fit %s %s", dir, p1, p2);
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s", err);
    HAS(err, "wrong-lb: the max-load bound is 80, but the suite expects lower_bound 79");
    HAS(err, "too-low-optimum: the max-load bound 80 is above the suite's expected optimum 70");
    HAS(err, "too-low-optimum exact-cover: proved arena 80 optimal (lower-bound), but the suite "
             "expects optimum 70");
    free(out), free(err);
    snprintf(args, sizeof args, "run -q --db %s/s.db -p exact-cover -p first-fit %s", dir, p3);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    free(dir);
}

/* Issue 16: "infeasible" only when proven. A valid plan over the capacity is
 * over-capacity (with the arena and the excess); a suite whose max-load bound
 * exceeds the capacity is infeasible, the bound its certificate. */
static const char over_cap_yaml[] =
    "suite: over-cap\ntensors:\n"
    "  - {name: conv1, size: 2048, start: 0, end: 1}\n"
    "  - {name: skip, size: 1024, start: 0, end: 3}\n"
    "  - {name: conv2, size: 3072, start: 2, end: 3}\n"
    "capacity: 4096\n";

Test(run, over_capacity_is_not_infeasible_unless_proven) {
    char *dir = abt_tmpdir();
    /* three tensors that must coexist, 1200 bytes, in a capacity of 1000 */
    const char *inf = "suite: infeasible-on-purpose\ntensors:\n"
                      "  - {name: a, size: 400, start: 0, end: 1}\n"
                      "  - {name: b, size: 400, start: 0, end: 1}\n"
                      "  - {name: c, size: 400, start: 0, end: 1}\n"
                      "capacity: 1000\n";
    char p1[4096], p2[4096], args[16384], db[4096], *out, *err;
    snprintf(p1, sizeof p1, "%s", abt_write_tmp(over_cap_yaml, ".yaml"));
    snprintf(p2, sizeof p2, "%s", abt_write_tmp(inf, ".yaml"));
    snprintf(db, sizeof db, "%s/r.db", dir);
    snprintf(args, sizeof args, "run -q --db %s -p first-fit -p canonical:target=capacity %s %s",
             db, p1, p2);
    /* exit 1 since the capacity gate (issue 31; 0 before): no planner fits the second suite,
     * while canonical fits the first */
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s", err);
    HAS(err, "CAPACITY infeasible-on-purpose: no planner fits the capacity 1000");
    cr_assert_null(strstr(err, "CAPACITY over-cap"), "%s", err);
    HAS(err, "over-cap first-fit: over-capacity: valid plan over the capacity: arena 6144 exceeds "
             "capacity 4096 by 2048 bytes; nothing proved that no plan fits");
    HAS(err, "infeasible-on-purpose first-fit: infeasible: infeasible, proven by lower-bound: the "
             "max-load bound 1200 > capacity 1000");
    free(out), free(err);
    char *rows = rows_text(db);
    HAS(rows, "over-cap");
    cr_assert(strstr(rows, " first-fit over-capacity arena=6144 lb=4096 ") != NULL, "%s", rows);
    cr_assert(strstr(rows, " canonical:target=capacity ok arena=4096 ") != NULL, "%s", rows);
    cr_assert(strstr(rows, " first-fit infeasible arena=1200 lb=1200 proof=none "
                           "verdict=over-capacity ") != NULL, "%s", rows);
    free(rows);
    /* every report format counts the two apart and shows the certificate */
    snprintf(args, sizeof args, "report --db %s --format md -o -", db);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    HAS(out, "| over-capacity | infeasible |");
    HAS(out, "| first-fit | 2 | 0 | 0 | 0 | 0 | 0 | 1 | 1 | 0 |");
    HAS(out, "| infeasible-on-purpose | first-fit | infeasible | over-capacity; infeasible, proven "
             "by lower-bound: the max-load bound 1200 > capacity 1000");
    HAS(out, "| over-cap | first-fit | over-capacity | over-capacity; valid plan over the "
             "capacity: arena 6144 exceeds capacity 4096 by 2048 bytes");
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s --format json -o -", db);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    HAS(out, "\"over-capacity\": 1, \"infeasible\": 1");
    HAS(out, "\"status\": \"infeasible\"");
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s --format csv -o -", db);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    HAS(out, ",over-capacity,6144,");
    HAS(out, ",infeasible,1200,");
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s --format html -o -", db);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    HAS(out, "over-capacity");
    HAS(out, "proven by lower-bound: the max-load bound 1200 &gt; capacity 1000");
    free(out), free(err);
    free(dir);
}

/* A suite one planner proves infeasible and another packs within the
 * capacity: a DISAGREEMENT that fails the run. */
Test(run, a_refuted_capacity_that_another_planner_fits_fails_the_run) {
    char *dir = abt_tmpdir();
    char p1[4096], args[16384], *out, *err;
    snprintf(p1, sizeof p1, "%s", abt_write_tmp(over_cap_yaml, ".yaml"));
    snprintf(args, sizeof args, "run -q --db %s/r.db -p test-false-refutation "
             "-p canonical:target=capacity %s", dir, p1);
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s", err);
    HAS(err, "DISAGREEMENT on over-cap: test-false-refutation proved that no plan fits the "
             "capacity 4096 but canonical:target=capacity packed it within the capacity");
    free(out), free(err);
    free(dir);
}

/* run stores each suite's max-load bound with its certificate, and the subset
 * bound when asked (once per run: a resume keeps it); a bad option stops the
 * run before anything is written, suggesting the key meant. */
Test(run, stores_the_bounds_of_each_suite_with_their_certificates) {
    char *dir = abt_tmpdir();
    char db[4200], fixed[4200], diamond[4200], args[12800];
    snprintf(db, sizeof db, "%s/r.db", dir);
    snprintf(fixed, sizeof fixed, "%s", abt_src("suites/examples/fixed_offset.yaml"));
    snprintf(diamond, sizeof diamond, "%s", abt_src("suites/examples/diamond.yaml"));
    char *err = NULL;
    snprintf(args, sizeof args, "run -q --db '%s' -p first-fit --subset-bound nodez=3 '%s'", db,
             fixed);
    cr_assert_eq(abt_run(args, NULL, &err), 2, "%s", err ? err : "");
    cr_assert(strstr(err, "unknown parameter 'nodez'; did you mean 'nodes'?") != NULL, "%s", err);
    free(err);
    struct stat st;
    cr_assert_neq(stat(db, &st), 0, "nothing written for a bad --subset-bound");
    abt_run_ok(0, "run -q --db '%s' -p first-fit --subset-bound nodes=200,time=30 '%s' '%s'", db,
               fixed, diamond);
    /* resumed: the bounds are not computed twice, nor stored twice */
    abt_run_ok(0, "run -q --db '%s' --resume latest -p first-fit --subset-bound nodes=200,time=30 "
               "'%s' '%s'", db, fixed, diamond);
    char *md = NULL;
    snprintf(args, sizeof args, "report --db '%s'", db);
    cr_assert_eq(abt_run(args, &md, NULL), 0);
    cr_assert(strstr(md, "## Bounds") != NULL, "%s", md);
    cr_assert(strstr(md, "| example-fixed-offset | subset | 256 | window 1..1 (3 tensors, its "
                         "optimum) | nodes=200,time=30 | best |") != NULL, "%s", md);
    cr_assert(strstr(md, "| example-diamond | max-load | 288 | instruction 2 | the suite | best |")
              != NULL, "%s", md);
    const char *p = md;
    int subset_rows = 0;
    while ((p = strstr(p, "| subset |")) != NULL) subset_rows++, p++;
    cr_assert_eq(subset_rows, 2, "one subset bound per suite:\n%s", md);
    free(md);
    free(dir);
}

/* ---- --containment (issue 30: each job contained whole) ---- */

/* The containment word of every row of the latest run in db, joined by ' '. */
static char *containments(const char *db) {
    abs_store *s;
    abs_rows rows = latest_rows(db, &s);
    ab_buf b = {0};
    for (size_t i = 0; i < rows.n; i++)
        ab_buf_printf(&b, "%s%s", i ? " " : "",
                      rows.v[i].r.containment ? rows.v[i].r.containment : "NULL");
    abs_rows_free(&rows);
    abs_close(s);
    return b.s;
}

/* The note of the latest run's rows, one per line (empty when none). */
static char *notes(const char *db) {
    abs_store *s;
    abs_rows rows = latest_rows(db, &s);
    ab_buf b = {0};
    ab_buf_printf(&b, "%s", "");
    for (size_t i = 0; i < rows.n; i++)
        ab_buf_printf(&b, "%s %s %s\n", rows.v[i].r.spec, abo_status_word(rows.v[i].r.status),
                      rows.v[i].r.note ? rows.v[i].r.note : "");
    abs_rows_free(&rows);
    abs_close(s);
    return b.s;
}

/* --rerun-wall-capped: a job the wall-clock limit stopped while it used
 * little CPU (it slept: a busy machine's stand-in) runs again alone after
 * the others, and its row is the second run's, saying so. Without the
 * option the timeout row stays. The planner sleeps 600 s on its first run
 * against a limit of 1 s, and plans at once on its second: no race. */
Test(run, a_job_the_wall_clock_stopped_with_cpu_to_spare_runs_again_alone) {
    char *dir = abt_tmpdir();
    const char *suite = abt_src("suites/examples/diamond.yaml");
    char db[4096], count[4096], args[16384];
    snprintf(count, sizeof count, "%s/once", dir);
    snprintf(db, sizeof db, "%s/r.db", dir);
    snprintf(args, sizeof args,
             "run --db %s --time-limit 1 --repeat-min 1 --rerun-wall-capped -p first-fit "
             "-p test-slow-first:count=%s,ms=600000 %s",
             db, count, suite);
    char *out, *err;
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(err, "test-slow-first:count=");
    HAS(err, "stopped by the time limit after");
    HAS(err, "run again alone after the others");
    char *n = notes(db);
    HAS(n, "first-fit ok");
    HAS(n, "ms=600000 ok run again alone: the first run was stopped by the time limit after");
    free(n);
    size_t len = 0;
    free(abt_slurp(count, &len));
    cr_assert_eq(len, 2, "two runs, not %zu", len);
    free(out), free(err);

    snprintf(count, sizeof count, "%s/plain", dir);
    snprintf(db, sizeof db, "%s/p.db", dir);
    snprintf(args, sizeof args,
             "run --db %s --time-limit 1 --repeat-min 1 -p test-slow-first:count=%s,ms=600000 %s",
             db, count, suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    n = notes(db);
    HAS(n, "ms=600000 timeout");
    cr_assert_null(strstr(n, "run again"), "%s", n);
    free(n);
    free(abt_slurp(count, &len));
    cr_assert_eq(len, 1);
    free(out), free(err);
    free(dir);
}

/* Each row says how its job was held, as --containment asked: subreaper
 * never makes a cgroup; cgroup makes one for every job or refuses the run
 * (exit 3, saying why) on a machine that cannot; auto takes a cgroup where
 * it can. Another word is a usage error. */
Test(run, containment_is_chosen_by_the_option_and_said_in_each_row) {
    char *dir = abt_tmpdir();
    char db[4096];
    char suite[4096];
    snprintf(suite, sizeof suite, "%s", abt_src("suites/examples/diamond.yaml"));
    snprintf(db, sizeof db, "%s/s.db", dir);
    abt_run_ok(0, "run --db %s -p first-fit -p best-fit --containment subreaper %s", db, suite);
    char *w = containments(db);
    cr_assert_str_eq(w, "subreaper subreaper");
    free(w);
    char *out, *err;
    char args[8192];
    snprintf(args, sizeof args, "run --db %s/c.db -p first-fit --containment cgroup %s", dir,
             suite);
    int rc = abt_run(args, &out, &err);
    bool root = geteuid() == 0;
    if (rc == 3) {
        HAS(err, "--containment cgroup: this machine cannot give a job a cgroup");
        cr_assert(!root || access("/sys/fs/cgroup/memory/cgroup.procs", W_OK) != 0,
                  "root with a writable v1 memory hierarchy, yet: %s", err);
        cr_log_warn("no cgroup per job here, the cgroup half is skipped: %s", err);
    } else {
        cr_assert_eq(rc, 0, "%s", err);
        snprintf(db, sizeof db, "%s/c.db", dir);
        w = containments(db);
        cr_assert_str_eq(w, "cgroup");
        free(w);
        snprintf(db, sizeof db, "%s/a.db", dir);
        abt_run_ok(0, "run --db %s -p first-fit %s", db, suite);
        w = containments(db);
        cr_assert_str_eq(w, "cgroup", "auto takes a cgroup where one can be made");
        free(w);
    }
    free(out), free(err);
    cr_assert_eq(abt_run("run --containment box x.yaml", &out, &err), 2);
    HAS(err, "--containment takes auto, cgroup or subreaper, not 'box'");
    free(out), free(err);
    free(dir);
}
