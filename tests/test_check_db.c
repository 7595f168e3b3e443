/*
 * test_check_db.c — `arenabench check-db`: a database written by `run`
 * passes; a duplicated row, a damaged page, and a plan edited to overlap are
 * each found (exit 1) with a message that says what; a missing file and a
 * file that is not a database are exit 2.
 *
 * The damage is done with SQLite's own API (and, for the page, by writing
 * over the file's bytes), on copies of one database `run` wrote.
 */
#include <criterion/criterion.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/engine/spawn.h"
#include "tests/support.h"

/* A database with the examples planned by first-fit and best-fit, in a
 * fresh folder; the path (static). */
static const char *good_db(void) {
    static char path[4096];
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/good.db", dir);
    free(dir);
    abt_run_ok(0, "run '%s' -p first-fit -p best-fit --db '%s' -j 1",
               abt_src("suites/examples/chain_reuse.yaml"), path);
    return path;
}

/* Runs SQL on the file at path (foreign keys off, as a hand edit would). */
static void edit(const char *path, const char *sql) {
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_free(msg);
    cr_assert_eq(sqlite3_close(db), SQLITE_OK);
}

/* check-db on path: its exit status; its stdout in *out (owned). */
static int check_db(const char *path, char **out) {
    char args[4200];
    snprintf(args, sizeof args, "check-db --db '%s'", path);
    return abt_run(args, out, NULL);
}

Test(check_db, a_database_run_wrote_passes) {
    const char *db = good_db();
    char *out;
    int rc = check_db(db, &out);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "ok") != NULL && strstr(out, "2 stored plans checked again") != NULL,
              "%s", out);
    free(out);
}

/* The UNIQUE (run, suite, spec) is gone (the table copied without it, as an
 * old tool or a hand merge might) and a row appears twice. */
Test(check_db, a_duplicated_row_fails) {
    const char *db = good_db();
    edit(db, "PRAGMA foreign_keys = OFF; CREATE TABLE r2 AS SELECT * FROM results; "
             "DROP TABLE results; ALTER TABLE r2 RENAME TO results; "
             "INSERT INTO results SELECT * FROM results WHERE spec = 'best-fit';");
    char *out;
    int rc = check_db(db, &out);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "2 rows for one (run 1") != NULL && strstr(out, "best-fit") != NULL,
              "%s", out);
    free(out);
}

/* The bytes of the results table's root page are overwritten. */
Test(check_db, a_damaged_page_fails) {
    const char *db = good_db();
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_exec(h, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE",
                              NULL, NULL, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT (SELECT rootpage FROM sqlite_schema WHERE name = "
                                       "'results'), (SELECT page_size FROM pragma_page_size)",
                                    -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    long page = (long)sqlite3_column_int64(st, 0), size = (long)sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    cr_assert_eq(sqlite3_close(h), SQLITE_OK);
    cr_assert_gt(page, 1);
    FILE *f = fopen(db, "r+b");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, (page - 1) * size + 2, SEEK_SET), 0);
    unsigned char junk[64];
    memset(junk, 0xff, sizeof junk);
    cr_assert_eq(fwrite(junk, 1, sizeof junk, f), sizeof junk);
    cr_assert_eq(fclose(f), 0);
    char *out;
    int rc = check_db(db, &out);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "integrity check") != NULL, "%s", out);
    char want[64];
    snprintf(want, sizeof want, "Page %ld", page);
    cr_assert(strstr(out, want) != NULL, "no '%s' in: %s", want, out);
    free(out);
}

/* Every offset of the stored plans set to 0: tensors live together now
 * share bytes. The row still says ok: the oracle disagrees, and the blob no
 * longer hashes to its key. */
Test(check_db, a_plan_edited_to_overlap_fails) {
    const char *db = good_db();
    edit(db, "UPDATE plans SET offsets = zeroblob(tensors);");
    char *out;
    int rc = check_db(db, &out);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "the row says the plan is 'ok' but the oracle finds 'overlap'") != NULL,
              "%s", out);
    cr_assert(strstr(out, "spec 'first-fit'") != NULL, "%s", out);
    cr_assert(strstr(out, "the offsets were changed") != NULL, "%s", out);
    free(out);
}

/* A published arena below a published bound, whatever the row's status: the
 * row's own bound raised above its arena, then the suite's max-load. */
Test(check_db, an_arena_below_a_published_bound_fails) {
    const char *db = good_db();
    edit(db, "UPDATE results SET lower_bound = arena + 1, status = 'over-capacity' "
             "WHERE spec = 'first-fit';");
    char *out;
    int rc = check_db(db, &out);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "spec 'first-fit'") != NULL && strstr(out, "is below its bound") != NULL,
              "%s", out);
    free(out);
    db = good_db();
    edit(db, "UPDATE suites SET peak_live_bytes = peak_live_bytes * 4;");
    rc = check_db(db, &out);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "the suite's max-load") != NULL, "%s", out);
    free(out);
}

/* The arena view stored with a suite (schema 5) must be its text's: one
 * edited behind the store's back is found. */
Test(check_db, a_stored_view_that_is_not_the_texts_fails) {
    const char *db = good_db();
    edit(db, "UPDATE suite_tensors SET size = size + 1 WHERE idx = 0;");
    char *out;
    int rc = check_db(db, &out);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "its stored arena view is not its text's: tensor 0") != NULL, "%s",
              out);
    free(out);
}

/* A file of schema 4 (no stored views): a run into it fills the views of the
 * suites it already had, so its report draws them without parsing. */
Test(check_db, a_run_into_a_version_4_file_fills_the_old_suites_views) {
    const char *db = good_db();
    edit(db, "BEGIN; ALTER TABLE results DROP COLUMN containment; "
             "DROP TABLE suite_tensors; DROP TABLE suite_pools; DROP TABLE proof_kinds; "
             "ALTER TABLE suites DROP COLUMN view_tensors; "
             "ALTER TABLE suites DROP COLUMN view_capacity; PRAGMA user_version = 4; COMMIT;");
    abt_run_ok(0, "run '%s' -p first-fit --db '%s' -j 1",
               abt_src("suites/examples/diamond.yaml"), db);
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(h, "SELECT count(*), count(view_tensors) FROM suites", -1,
                                    &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int(st, 0), 2);
    cr_assert_eq(sqlite3_column_int(st, 1), 2, "both suites have their view");
    sqlite3_finalize(st);
    sqlite3_close(h);
    char *out;
    int rc = check_db(db, &out);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    free(out);
}

Test(check_db, a_missing_file_or_not_a_database_is_exit_2) {
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/none.db", dir);
    abt_run_ok(2, "check-db --db '%s'", path);
    struct stat sb;
    cr_assert_neq(stat(path, &sb), 0, "check-db created %s", path);
    abt_run_ok(2, "check-db --db '%s'", abt_src("suites/examples/chain_reuse.yaml"));
    free(dir);
}

/* Bounds (oracle/bound.h): the run's max-load and subset bounds are proved
 * again from their certificates; a bound raised by hand is caught twice: its
 * certificate no longer proves it, and a valid plan lies below it. */
Test(check_db, proves_the_bounds_again_and_catches_a_raised_one) {
    char *dir = abt_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/b.db", dir);
    abt_run_ok(0, "run '%s' -p first-fit --subset-bound nodes=200,time=30 --db '%s' -j 1",
               abt_src("suites/examples/fixed_offset.yaml"), path);
    char *out;
    int rc = check_db(path, &out);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "2 bounds proved again from their certificates") != NULL, "%s", out);
    free(out);
    edit(path, "UPDATE bounds SET value = value + 1 WHERE kind = 'subset'");
    rc = check_db(path, &out);
    cr_assert_eq(rc, 1, "exit %d: %s", rc, out);
    cr_assert(strstr(out, "subset bound 257 ('window 1..1 (3 tensors, its optimum)'): its "
                          "certificate does not prove it: GLPK finds the optimum of window 1..1 "
                          "at 256, below the bound 257") != NULL, "%s", out);
    cr_assert(strstr(out, "the valid plan of spec 'first-fit' has arena 256, below it") != NULL,
              "%s", out);
    free(out);
    free(dir);
}

/* A database whose rows are planned on first_fit_hole (first-fit and best-fit 6144,
 * its max-load 4096), to forge certificates on. */
static const char *hole_db(void) {
    static char path[4096];
    char *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/hole.db", dir);
    free(dir);
    abt_run_ok(0, "run '%s' -p first-fit -p best-fit --db '%s' -j 1",
               abt_src("suites/examples/first_fit_hole.yaml"), path);
    return path;
}

/* check-db derives every certificate again (issue 30): each forgery fails it. */
Test(check_db, a_forged_certificate_fails) {
    static const struct {
        const char *sql, *want;
    } forgeries[] = {
        {"UPDATE results SET proven_by = 'lower-bound' WHERE spec = 'first-fit';",
         "proven by lower-bound, but its plan's arena 6144 is not the suite's max-load 4096"},
        {"UPDATE results SET ilp_bound = arena + 1 WHERE spec = 'best-fit';",
         "its ILP bound 6145 is above the arena 6144 of its own valid plan"},
        {"UPDATE results SET status = 'infeasible' WHERE spec = 'first-fit';",
         "the row says infeasible, but the suite has no capacity"},
        {"UPDATE results SET status = 'over-capacity' WHERE spec = 'best-fit';",
         "the row says over-capacity, but its plan fits"},
        {"UPDATE suites SET peak_live_bytes = 4000;",
         "the suite's stored max-load is 4000, its tensors give 4096"},
    };
    for (size_t k = 0; k < sizeof forgeries / sizeof forgeries[0]; k++) {
        const char *db = hole_db();
        char *out;
        cr_assert_eq(check_db(db, &out), 0, "unforged: %s", out);
        free(out);
        edit(db, forgeries[k].sql);
        int rc = check_db(db, &out);
        cr_assert_eq(rc, 1, "%s: exit %d: %s", forgeries[k].sql, rc, out);
        cr_assert(strstr(out, forgeries[k].want) != NULL, "%s\nwant: %s\n%s", forgeries[k].sql,
                  forgeries[k].want, out);
        free(out);
    }
}

/* run --resume refuses a database that fails its own checks. */
Test(check_db, resume_refuses_a_database_that_fails_its_checks) {
    const char *db = good_db();
    edit(db, "PRAGMA foreign_keys = OFF; CREATE TABLE r2 AS SELECT * FROM results; "
             "DROP TABLE results; ALTER TABLE r2 RENAME TO results; "
             "INSERT INTO results SELECT * FROM results WHERE spec = 'best-fit';");
    char args[8400], *out, *err;
    snprintf(args, sizeof args, "run '%s' -p first-fit -p best-fit --db '%s' -j 1 --resume latest",
             abt_src("suites/examples/chain_reuse.yaml"), db);
    int rc = abt_run(args, &out, &err);
    cr_assert_eq(rc, 2, "exit %d: %s%s", rc, out, err);
    cr_assert(strstr(err, "fails 1 of its own checks") != NULL, "%s", err);
    free(out), free(err);
}

/* Every row says how its job's processes were held (issue 30): in a cgroup
 * of its own where this machine can make one (spawn.h, Containment), else
 * (on Linux) by the runner as a subreaper that sweeps the job's descendants. */
Test(check_db, each_run_row_says_its_containment) {
    const char *db = good_db();
    sqlite3 *h;
    cr_assert_eq(sqlite3_open(db, &h), SQLITE_OK);
    sqlite3_stmt *st;
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT count(*), count(CASE WHEN containment = '%s' THEN 1 END) FROM results",
             abe_containment());
    cr_assert_eq(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int(st, 0), 2);
    cr_assert_eq(sqlite3_column_int(st, 1), 2);
    sqlite3_finalize(st);
    sqlite3_close(h);
}
