/*
 * test_store.c — the results store: creating and opening files, clear errors
 * for bad places, rows in and out in order, one row per (run, suite, spec),
 * resume pairs, plan dedup, migration and version refusal, merging shards,
 * a full disk, a kill -9, the integrity check and allocation failures.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "results/store/store.h"
#include "tests/support.h"

/* ---- helpers ------------------------------------------------------------- */

/* A path `name` in a fresh temporary folder; owned by the caller. */
static char *tmp_path(const char *name) {
    char *dir = abt_tmpdir();
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    cr_assert_not_null(p);
    snprintf(p, n, "%s/%s", dir, name);
    free(dir);
    return p;
}

static abs_store *open_ok(const char *path, unsigned flags) {
    abs_store *s = NULL;
    ab_error err = {0};
    ab_status rc = abs_open(path, flags, &s, &err);
    cr_assert_eq(rc, AB_OK, "open %s: %s", path, err.msg);
    return s;
}

static bool file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* Runs raw SQL on path, outside the store (to forge old or broken files). */
static void raw_exec(const char *path, const char *sql) {
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    char *msg = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    cr_assert_eq(rc, SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_close(db);
}

/* The integer a raw query on path returns. */
static int64_t raw_int(const char *path, const char *sql) {
    sqlite3 *db;
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sql);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sql);
    int64_t v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

/* The text a raw query on path returns (malloc'd; "" for NULL). */
static char *raw_text(const char *path, const char *sql) {
    sqlite3 *db;
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK, "%s", sql);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sql);
    const unsigned char *t = sqlite3_column_text(st, 0);
    char *v = strdup(t != NULL ? (const char *)t : "");
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static int64_t begin_run(abs_store *s, const char *key, const char *tag) {
    int64_t id;
    ab_error err;
    abs_run info = {.key = key, .tag = tag, .revision = "abc123", .host = "box",
                    .command = "arenabench run suites/"};
    cr_assert_eq(abs_run_begin(s, &info, &id, &err), AB_OK, "%s", err.msg);
    cr_assert_gt(id, 0);
    return id;
}

static int64_t put_suite(abs_store *s, const char *name, const char *text) {
    abs_suite su;
    abs_suite_init(&su);
    su.name = name;
    su.text = text;
    su.text_len = strlen(text);
    su.source = "suites/examples/x.yaml";
    su.tensors = (int64_t)strlen(text);
    su.lower_bound = 100;
    su.peak_live_bytes = 100;
    su.logical_bytes = 90;
    su.physical_bytes = 120;
    int64_t id;
    ab_error err;
    cr_assert_eq(abs_suite_put(s, &su, &id, &err), AB_OK, "%s", err.msg);
    cr_assert_gt(id, 0);
    return id;
}

static void put_result(abs_store *s, const abo_row *r) {
    ab_error err;
    cr_assert_eq(abs_result_put(s, r, &err), AB_OK, "%s", err.msg);
}

/* A simple ok result with a plan of n offsets 0, 16, 32, ... */
static abo_row simple_result(int64_t run, int64_t suite, const char *spec,
                                const int64_t *offsets, size_t n) {
    abo_row r;
    abo_row_init(&r);
    r.run = run;
    r.suite = suite;
    r.spec = spec;
    r.arena = 64;
    r.verdict = "ok";
    r.offsets = offsets;
    r.noffsets = n;
    return r;
}

static const int64_t plan4[] = {0, 16, 32, 48};

/* ---- SHA-256 ------------------------------------------------------------- */

Test(sha256, matches_published_vectors) {
    char hex[ABS_SHA256_HEX];
    abs_sha256_hex("", 0, hex);
    cr_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    abs_sha256_hex("abc", 3, hex);
    cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    abs_sha256_hex(two, strlen(two), hex);
    cr_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* A million 'a', fed in uneven pieces. */
    abs_sha256 c;
    unsigned char d[32];
    char chunk[997];
    memset(chunk, 'a', sizeof chunk);
    abs_sha256_init(&c);
    size_t left = 1000000;
    while (left > 0) {
        size_t take = left < sizeof chunk ? left : sizeof chunk;
        abs_sha256_update(&c, chunk, take);
        left -= take;
    }
    abs_sha256_final(&c, d);
    cr_assert_eq(d[0], 0xcd);
    cr_assert_eq(d[1], 0xc7);
    cr_assert_eq(d[31], 0xd0);
}

/* ---- opening ------------------------------------------------------------- */

Test(open, creates_a_file_at_the_current_version_in_wal_mode) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    cr_assert_str_eq(abs_path(s), path);
    cr_assert_eq(abs_check(s, NULL), AB_OK);
    abs_close(s);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(path, "PRAGMA application_id"), 1094865491);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name IN "
                               "('runs', 'suites', 'results', 'plans')"), 4);
    sqlite3 *db;
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
    sqlite3_finalize(st);
    sqlite3_close(db);
    /* Opening again leaves it as it is. */
    abs_close(open_ok(path, 0));
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    free(path);
}

Test(open, enables_foreign_keys) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    abo_row r = simple_result(7, 9, "first-fit", NULL, 0);
    ab_error err;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "no run 7 or no suite 9") != NULL, "%s", err.msg);
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results"), 0);
    free(path);
}

Test(open, does_not_create_without_the_create_flag) {
    char *path = tmp_path("missing.db");
    abs_store *s = (abs_store *)1;
    ab_error err;
    cr_assert_eq(abs_open(path, 0, &s, &err), AB_EINPUT);
    cr_assert_null(s);
    cr_assert(strstr(err.msg, path) != NULL && strstr(err.msg, "no such database"), "%s",
              err.msg);
    cr_assert(!file_exists(path));
    cr_assert_eq(abs_open(path, ABS_OPEN_READONLY | ABS_OPEN_CREATE, &s, &err), AB_EINPUT);
    cr_assert(!file_exists(path));
    free(path);
}

Test(open, names_a_missing_folder_and_creates_nothing) {
    char *dir = tmp_path("nope");
    char path[4096];
    snprintf(path, sizeof path, "%s/r.db", dir);
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(path, ABS_OPEN_CREATE, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, path) != NULL, "%s", err.msg);
    cr_assert(strstr(err.msg, "does not exist") != NULL, "%s", err.msg);
    cr_assert(!file_exists(dir));
    free(dir);
}

Test(open, names_a_folder_that_is_a_regular_file) {
    char *file = tmp_path("plain");
    FILE *f = fopen(file, "w");
    cr_assert_not_null(f);
    fputs("not a folder\n", f);
    fclose(f);
    char path[4096];
    snprintf(path, sizeof path, "%s/r.db", file);
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(path, ABS_OPEN_CREATE, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, path) != NULL && strstr(err.msg, "is not a folder") != NULL, "%s",
              err.msg);
    size_t len;
    char *text = abt_slurp(file, &len);
    cr_assert_str_eq(text, "not a folder\n");
    free(text);
    free(file);
}

Test(open, names_a_read_only_folder) {
    if (geteuid() == 0)
        cr_skip("running as root: permission bits do not stop root from writing "
                "(names_a_folder_that_is_a_regular_file covers the unwritable path)");
    char *dir = tmp_path("ro");
    cr_assert_eq(mkdir(dir, 0755), 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/r.db", dir);
    abs_close(open_ok(path, ABS_OPEN_CREATE)); /* an existing database ... */
    char path2[4096];
    snprintf(path2, sizeof path2, "%s/new.db", dir);
    cr_assert_eq(chmod(dir, 0555), 0);       /* ... in a folder made read-only */
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(path2, ABS_OPEN_CREATE, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, path2) && strstr(err.msg, "not writable"), "%s", err.msg);
    cr_assert(!file_exists(path2));
    cr_assert_eq(abs_open(path, 0, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, path) && strstr(err.msg, "not writable"), "%s", err.msg);
    chmod(dir, 0755);
    free(dir);
}

Test(open, refuses_a_folder_and_a_file_that_is_not_a_database) {
    char *dir = abt_tmpdir();
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(dir, ABS_OPEN_CREATE, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "is a folder") != NULL, "%s", err.msg);
    free(dir);
    const char *text = "suite: x\ntensors: []\n";
    const char *path = abt_write_tmp(text, ".db");
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    ab_status rc = abs_open(copy, ABS_OPEN_CREATE, &s, &err);
    cr_assert_neq(rc, AB_OK);
    cr_assert(strstr(err.msg, copy) && strstr(err.msg, "not a database"), "%s", err.msg);
    char *back = abt_slurp(copy, NULL);
    cr_assert_str_eq(back, text, "the file was changed");
    free(back);
}

Test(open, read_only_reads_but_does_not_write) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, "t");
    abs_close(s);
    s = open_ok(path, ABS_OPEN_READONLY);
    abs_run info;
    ab_error err;
    cr_assert_eq(abs_run_get(s, run, &info, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(info.tag, "t");
    abs_run_free(&info);
    int64_t id;
    cr_assert_neq(abs_run_begin(s, &(abs_run){.tag = "x"}, &id, &err), AB_OK);
    cr_assert(strstr(err.msg, path) != NULL, "%s", err.msg);
    abs_close(s);
    free(path);
}

/* ---- versions and migration ---------------------------------------------- */

Test(migrate, turns_an_empty_version_0_file_into_the_schema) {
    char *path = tmp_path("empty.db");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    abs_store *s = open_ok(path, 0);
    int64_t run = begin_run(s, NULL, NULL);
    cr_assert_eq(run, 1);
    abs_close(s);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    free(path);
}

/* A fake version 8: one step from version 7 (ABS_SCHEMA_VERSION) adds a column. */
static const abs_migration fake_steps[] = {
    {7, "ALTER TABLE runs ADD COLUMN fake_note TEXT DEFAULT 'migrated';"
        "PRAGMA user_version = 8;"},
};
static const abs_schema fake7 = {fake_steps, 1, 8};

/* Opens path as code that knows schema sch would. */
static abs_store *open_fake(const char *path, unsigned flags, const abs_schema *sch) {
    abs_store *s = NULL;
    ab_error err = {0};
    cr_assert_eq(abs_open_schema(path, flags, sch, &s, &err), AB_OK, "open %s: %s", path, err.msg);
    return s;
}

Test(migrate, steps_an_older_version_forward_keeping_its_rows) {
    char *path = tmp_path("old.db");
    cr_assert_eq(ABS_SCHEMA_VERSION, 7, "fake_steps start from the current version");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE); /* version 7: "older" than the fake 8 */
    int64_t run = begin_run(s, "k1", "nightly");
    abs_close(s);
    s = open_fake(path, 0, &fake7);
    abs_close(s);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), 8);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM runs WHERE fake_note = 'migrated'"), 1);
    /* A new file under the fake version gets schema.sql, then the step. */
    char *fresh = tmp_path("fresh.db");
    abs_close(open_fake(fresh, ABS_OPEN_CREATE, &fake7));
    cr_assert_eq(raw_int(fresh, "PRAGMA user_version"), 8);
    cr_assert_eq(raw_int(fresh, "SELECT count(*) FROM pragma_table_info('runs') "
                                "WHERE name = 'fake_note'"), 1);
    /* Back to the real code: version 8 is now newer than known. */
    ab_error err;
    cr_assert_eq(abs_open(path, 0, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "newer") != NULL, "%s", err.msg);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM runs WHERE id = 1"), 1);
    (void)run;
    free(path);
    free(fresh);
}

Test(migrate, a_failing_step_leaves_the_file_as_it_was) {
    static const abs_migration bad[] = {
        {7, "ALTER TABLE runs ADD COLUMN half TEXT; SELECT no_such_function();"
            "PRAGMA user_version = 8;"},
    };
    char *path = tmp_path("old.db");
    abs_close(open_ok(path, ABS_OPEN_CREATE));
    abs_schema bad6 = {bad, 1, 8};
    abs_store *s;
    ab_error err;
    cr_assert_neq(abs_open_schema(path, 0, &bad6, &s, &err), AB_OK);
    cr_assert(strstr(err.msg, path) && strstr(err.msg, "migrate"), "%s", err.msg);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM pragma_table_info('runs') "
                               "WHERE name = 'half'"), 0);
    cr_assert(file_exists(path), "an existing file is never removed");
    free(path);
}

/* The results table of schema version 1 (results/store/schema.sql before
 * over-capacity), to forge a version-1 file. */
static const char v1_results[] =
    "CREATE TABLE results (\n"
    "    id            INTEGER PRIMARY KEY,\n"
    "    run           INTEGER NOT NULL REFERENCES runs (id),\n"
    "    suite         INTEGER NOT NULL REFERENCES suites (id),\n"
    "    spec          TEXT NOT NULL,\n"
    "    status        TEXT NOT NULL\n"
    "                  CHECK (status IN ('ok', 'invalid', 'timeout', 'crash', 'oom',\n"
    "                                    'infeasible', 'error')),\n"
    "    arena         INTEGER,\n"
    "    lower_bound   INTEGER,\n"
    "    k             INTEGER CHECK (k IS NULL OR k >= 1),\n"
    "    ilp_status    TEXT,\n"
    "    ilp_objective INTEGER,\n"
    "    ilp_bound     INTEGER,\n"
    "    proven_by     TEXT NOT NULL DEFAULT 'none'\n"
    "                  CHECK (proven_by IN ('none', 'lower-bound', 'ilp', 'exhaustive')),\n"
    "    proven        INTEGER GENERATED ALWAYS AS (proven_by <> 'none') VIRTUAL,\n"
    "    wall_s        REAL,\n"
    "    cpu_s         REAL,\n"
    "    peak_rss      INTEGER,\n"
    "    nodes         INTEGER,\n"
    "    signal        INTEGER,\n"
    "    verdict       TEXT,\n"
    "    check_message TEXT,\n"
    "    error         TEXT,\n"
    "    note          TEXT,\n"
    "    plan          TEXT REFERENCES plans (hash),\n"
    "    recorded      TEXT NOT NULL,\n"
    "    UNIQUE (run, suite, spec)\n"
    ");\n";

/* Takes a current file back to version 4's tables (before proof_kinds and the
 * stored views; results keep a reference to the dropped proof_kinds, which
 * the 4 -> 5 step's rebuild replaces). */
/* Takes a current file back to version 6's results (containment without 'cgroup'). */
#define UNDO_V7                                                                          \
    "ALTER TABLE results DROP COLUMN containment; "                                      \
    "ALTER TABLE results ADD COLUMN containment TEXT CHECK (containment IS NULL OR "     \
    "containment IN ('subreaper', 'process-group')); "
#define UNDO_V6 "ALTER TABLE results DROP COLUMN containment; "
#define UNDO_V5                                                                   \
    UNDO_V6                                                                       \
    "DROP TABLE suite_tensors; DROP TABLE suite_pools; DROP TABLE proof_kinds; "  \
    "ALTER TABLE suites DROP COLUMN view_tensors; "                               \
    "ALTER TABLE suites DROP COLUMN view_capacity;"

/* Takes a current file back to version 3's tables (before bounds). */
#define UNDO_V4                                                                         \
    UNDO_V5                                                                             \
    "DROP TABLE bounds; DROP TABLE bound_kinds; ALTER TABLE suites DROP COLUMN capacity; " \
    "ALTER TABLE suites DROP COLUMN pools; ALTER TABLE suites DROP COLUMN stored_version;"

#define RESULT_COLUMNS                                                            \
    "id, run, suite, spec, status, arena, lower_bound, k, ilp_status, ilp_objective, " \
    "ilp_bound, proven_by, wall_s, cpu_s, peak_rss, nodes, signal, verdict, "           \
    "check_message, error, note, plan, recorded"

/* Version 1 -> 2: the results table is rebuilt with 'over-capacity' in its
 * CHECK list; old 'infeasible' rows (none has a certificate) become
 * 'over-capacity', every other row and column stays as it was. */
Test(migrate, version_1_infeasible_rows_become_over_capacity) {
    char *path = tmp_path("v1.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", "nightly"), su = put_suite(s, "a", "suite: a\n");
    abo_row ok = simple_result(run, su, "best-fit", plan4, 4);
    ok.proven_by = ABO_PROOF_LOWER_BOUND;
    put_result(s, &ok);
    abo_row over = simple_result(run, su, "first-fit", plan4, 4);
    over.status = ABO_STATUS_OVER_CAPACITY; /* forged below into version 1's 'infeasible' */
    over.arena = 80;
    over.verdict = "over-capacity";
    over.check_message = "arena 80 exceeds capacity 64";
    put_result(s, &over);
    abo_row tmo = simple_result(run, su, "exact-cover", NULL, 0);
    tmo.status = ABO_STATUS_TIMEOUT;
    tmo.arena = AB_NONE;
    tmo.verdict = NULL;
    put_result(s, &tmo);
    abs_close(s);
    /* Forge version 1: its results table, its statuses, its version. */
    char sql[4096];
    snprintf(sql, sizeof sql,
             "PRAGMA foreign_keys = OFF; BEGIN;" UNDO_V4
             "UPDATE results SET status = 'infeasible' WHERE status = 'over-capacity';"
             "ALTER TABLE results RENAME TO results_v2;"
             "%s"
             "INSERT INTO results (" RESULT_COLUMNS ") SELECT " RESULT_COLUMNS
             " FROM results_v2;"
             "DROP TABLE results_v2;"
             "PRAGMA user_version = 1; COMMIT;",
             v1_results);
    raw_exec(path, sql);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE status = 'infeasible'"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE sql LIKE "
                               "'%over-capacity%'"), 0, "a true version-1 file");
    /* Opening it for writing migrates it; read-only opening refuses until then. */
    ab_error err;
    abs_store *ro = NULL;
    cr_assert_eq(abs_open(path, ABS_OPEN_READONLY, &ro, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "older") != NULL, "%s", err.msg);
    abs_close(open_ok(path, 0));
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results"), 3);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE status = 'infeasible'"), 0);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE spec = 'first-fit' AND "
                               "status = 'over-capacity' AND arena = 80 AND check_message = "
                               "'arena 80 exceeds capacity 64' AND plan IS NOT NULL"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE spec = 'best-fit' AND "
                               "status = 'ok' AND proven = 1 AND proven_by = 'lower-bound'"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE spec = 'exact-cover' AND "
                               "status = 'timeout' AND arena IS NULL"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name LIKE "
                               "'results_v%'"), 0, "the old table is gone");
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM pragma_integrity_check WHERE "
                               "integrity_check = 'ok'"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
    /* The same columns, and the same CHECK lists, as a new file's. */
    char *fresh = tmp_path("v2.db");
    abs_close(open_ok(fresh, ABS_OPEN_CREATE));
    static const char cols[] =
        "SELECT group_concat(name || ':' || type || ':' || \"notnull\" || ':' || "
        "ifnull(dflt_value, '') || ':' || pk || ':' || hidden, ',') FROM "
        "pragma_table_xinfo('results')";
    sqlite3 *a, *b;
    sqlite3_stmt *qa, *qb;
    cr_assert_eq(sqlite3_open(path, &a), SQLITE_OK);
    cr_assert_eq(sqlite3_open(fresh, &b), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(a, cols, -1, &qa, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(b, cols, -1, &qb, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(qa), SQLITE_ROW);
    cr_assert_eq(sqlite3_step(qb), SQLITE_ROW);
    cr_assert_str_eq((const char *)sqlite3_column_text(qa, 0),
                     (const char *)sqlite3_column_text(qb, 0));
    sqlite3_finalize(qa);
    sqlite3_finalize(qb);
    sqlite3_close(a);
    sqlite3_close(b);
    /* The new CHECK list takes both words and still refuses others. */
    s = open_ok(path, 0);
    abo_row again = simple_result(run, su, "canonical", plan4, 4);
    again.status = ABO_STATUS_INFEASIBLE;
    again.arena = 80;
    put_result(s, &again);
    abs_close(s);
    raw_exec(path, "UPDATE results SET status = 'over-capacity' WHERE spec = 'canonical'");
    sqlite3 *c;
    cr_assert_eq(sqlite3_open(path, &c), SQLITE_OK);
    cr_assert_neq(sqlite3_exec(c, "UPDATE results SET status = 'nope' WHERE id = 1", NULL, NULL,
                               NULL), SQLITE_OK);
    sqlite3_close(c);
    free(fresh);
    free(path);
}

/* Reads a whole file into a NUL-terminated string (owned by the caller). */
static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    cr_assert_not_null(text);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* A version-2 file made with the version-2 schema text (tests/data/schema_v2.sql,
 * schema.sql as it was), holding an ok row, a row killed at the runner's time
 * limit, a timeout the planner reported itself and an oom row. */
static void forge_v2(const char *path) {
    char *schema = slurp(abt_src("tests/data/schema_v2.sql"));
    raw_exec(path, schema);
    free(schema);
    raw_exec(path,
             "INSERT INTO runs (id, run_key, tag, started, status) VALUES "
             "(1, 'k2', 'nightly', '2026-01-01T00:00:00.000Z', 'done');"
             "INSERT INTO suites (id, name, hash, tensors, text) VALUES "
             "(1, 'a', '" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
             "', 4, 'suite: a');"
             "INSERT INTO results (run, suite, spec, status, arena, wall_s, cpu_s, peak_rss, "
             "nodes, recorded) VALUES (1, 1, 'first-fit', 'ok', 64, 0.5, 0.25, 53000000, 0, "
             "'2026-01-01T00:00:01.000Z');"
             "INSERT INTO results (run, suite, spec, status, wall_s, cpu_s, error, recorded) "
             "VALUES (1, 1, 'exact-cover', 'timeout', 60.0, 59.5, 'exceeded the time limit "
             "of 60 s', '2026-01-01T00:01:01.000Z');"
             "INSERT INTO results (run, suite, spec, status, wall_s, cpu_s, error, recorded) "
             "VALUES (1, 1, 'canonical', 'timeout', 1.0, 1.0, 'budget ran out', "
             "'2026-01-01T00:01:02.000Z');"
             "INSERT INTO results (run, suite, spec, status, wall_s, cpu_s, recorded) VALUES "
             "(1, 1, 'test-alloc-bomb', 'oom', 2.0, 1.5, '2026-01-01T00:01:03.000Z');");
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), 2);
}

/* Version 2 -> 3: the timing columns are added and old rows keep theirs: one run
 * each (min = max = the one time), capped from how they ended. */
Test(migrate, version_2_rows_get_one_run_and_their_cap) {
    char *path = tmp_path("v2.db");
    forge_v2(path);
    abs_store *s = open_ok(path, 0);
    abs_rows rows;
    ab_error err;
    cr_assert_eq(abs_rows_read(s, 1, &rows, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(rows.n, 4);
    for (size_t i = 0; i < rows.n; i++) {
        const abo_row *r = &rows.v[i].r;
        cr_assert_eq(r->repeats, 1, "%s", r->spec);
        cr_assert_float_eq(r->cpu_min_s, r->cpu_s, 1e-12, "%s", r->spec);
        cr_assert_float_eq(r->cpu_max_s, r->cpu_s, 1e-12, "%s", r->spec);
        cr_assert_float_eq(r->wall_min_s, r->wall_s, 1e-12, "%s", r->spec);
        cr_assert_float_eq(r->wall_max_s, r->wall_s, 1e-12, "%s", r->spec);
        cr_assert(r->plan_cpu_s < 0, "%s: unknown before version 3", r->spec);
        const char *want = strcmp(r->spec, "exact-cover") == 0       ? "time"
                           : strcmp(r->spec, "test-alloc-bomb") == 0 ? "memory"
                                                                     : NULL;
        if (want) cr_assert_str_eq(r->capped, want, "%s", r->spec);
        else cr_assert_null(r->capped, "%s", r->spec);
    }
    cr_assert_eq(rows.v[0].r.status, ABO_STATUS_TIMEOUT); /* canonical: by spec order */
    abs_rows_free(&rows);
    /* New rows take the new columns; the CHECK refuses another cap word. */
    abo_row r = simple_result(1, 1, "best-fit", plan4, 4);
    r.repeats = 3;
    r.cpu_min_s = 0.1, r.cpu_s = 0.2, r.cpu_max_s = 0.3;
    r.plan_cpu_s = 0.05;
    r.capped = "time";
    put_result(s, &r);
    abs_close(s);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE spec = 'best-fit' AND "
                               "repeats = 3 AND capped = 'time' AND plan_cpu_s = 0.05"), 1);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_neq(sqlite3_exec(db, "UPDATE results SET capped = 'nodes'", NULL, NULL, NULL),
                  SQLITE_OK);
    sqlite3_close(db);
    /* The same columns as a new file's. */
    char *fresh = tmp_path("v3.db");
    abs_close(open_ok(fresh, ABS_OPEN_CREATE));
    static const char cols[] = "SELECT group_concat(name || ':' || type, ',') FROM "
                               "(SELECT name, type FROM pragma_table_xinfo('results'))";
    sqlite3 *a, *b;
    sqlite3_stmt *qa, *qb;
    cr_assert_eq(sqlite3_open(path, &a), SQLITE_OK);
    cr_assert_eq(sqlite3_open(fresh, &b), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(a, cols, -1, &qa, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(b, cols, -1, &qb, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(qa), SQLITE_ROW);
    cr_assert_eq(sqlite3_step(qb), SQLITE_ROW);
    cr_assert_str_eq((const char *)sqlite3_column_text(qa, 0),
                     (const char *)sqlite3_column_text(qb, 0));
    sqlite3_finalize(qa);
    sqlite3_finalize(qb);
    sqlite3_close(a);
    sqlite3_close(b);
    free(fresh);
    free(path);
}

/* merge takes a version-2 shard into a version-3 file, timing columns and all. */
Test(merge, takes_a_version_2_shard_with_its_rows) {
    char *in = tmp_path("v2.db"), *out = tmp_path("out.db");
    forge_v2(in);
    abs_store *s = open_ok(out, ABS_OPEN_CREATE);
    abs_merge_stats st = {0};
    ab_error err;
    cr_assert_eq(abs_merge(s, in, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(st.results_added, 4);
    abs_close(s);
    cr_assert_eq(raw_int(in, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(out, "SELECT count(*) FROM results WHERE repeats = 1 AND "
                              "cpu_min_s = cpu_s AND wall_max_s = wall_s"), 4);
    cr_assert_eq(raw_int(out, "SELECT count(*) FROM results WHERE capped = 'time'"), 1);
    free(in);
    free(out);
}

Test(migrate, refuses_a_newer_version_with_a_clear_message) {
    char *path = tmp_path("new.db");
    abs_close(open_ok(path, ABS_OPEN_CREATE));
    raw_exec(path, "PRAGMA user_version = 99");
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(path, 0, &s, &err), AB_EINPUT);
    cr_assert_null(s);
    cr_assert(strstr(err.msg, path) != NULL, "%s", err.msg);
    cr_assert(strstr(err.msg, "schema version 99 is newer than this arenabench knows (7)"),
              "%s", err.msg);
    cr_assert_eq(abs_open(path, ABS_OPEN_READONLY, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "newer") != NULL, "%s", err.msg);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), 99);
    free(path);
}

Test(migrate, refuses_a_database_of_another_program) {
    char *path = tmp_path("other.db");
    raw_exec(path, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('keep me');");
    abs_store *s;
    ab_error err;
    cr_assert_eq(abs_open(path, 0, &s, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "not an arenabench results database") != NULL, "%s", err.msg);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM notes"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM sqlite_schema"), 1);
    size_t len;
    char *bytes = abt_slurp(path, &len);
    cr_assert(len > 19 && bytes[18] == 1 && bytes[19] == 1, "still a rollback-journal file");
    free(bytes);
    free(path);
}

/* ---- runs ---------------------------------------------------------------- */

Test(runs, begin_get_finish_and_key_uniqueness) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t a = begin_run(s, "shared-key", "nightly");
    int64_t b = begin_run(s, NULL, NULL);
    abs_run r;
    ab_error err;
    cr_assert_eq(abs_run_get(s, a, &r, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(r.id, a);
    cr_assert_str_eq(r.key, "shared-key");
    cr_assert_str_eq(r.tag, "nightly");
    cr_assert_str_eq(r.revision, "abc123");
    cr_assert_str_eq(r.host, "box");
    cr_assert_str_eq(r.command, "arenabench run suites/");
    cr_assert_eq(strlen(r.started), 24, "%s", r.started);
    cr_assert_null(r.finished);
    cr_assert_eq(r.status, ABS_RUN_RUNNING);
    abs_run_free(&r);
    cr_assert_eq(abs_run_get(s, b, &r, &err), AB_OK);
    cr_assert_eq(strlen(r.key), 32, "a random 128-bit key: %s", r.key);
    cr_assert_null(r.tag);
    abs_run_free(&r);
    cr_assert_eq(abs_run_finish(s, a, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abs_run_get(s, a, &r, &err), AB_OK);
    cr_assert_eq(r.status, ABS_RUN_DONE);
    cr_assert_not_null(r.finished);
    abs_run_free(&r);
    int64_t id;
    cr_assert_eq(abs_run_begin(s, &(abs_run){.key = "shared-key"}, &id, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "shared-key") != NULL, "%s", err.msg);
    cr_assert_eq(abs_run_finish(s, 99, ABS_RUN_DONE, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "no run 99") != NULL, "%s", err.msg);
    cr_assert_eq(abs_run_finish(s, a, ABS_RUN_RUNNING, &err), AB_EINPUT);
    cr_assert_eq(abs_run_get(s, 99, &r, &err), AB_EINPUT);
    abs_close(s);
    free(path);
}

Test(runs, finds_latest_and_previous_by_tag) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t id = -1, n1 = begin_run(s, NULL, "nightly");
    int64_t other = begin_run(s, NULL, "manual");
    int64_t n2 = begin_run(s, NULL, "nightly");
    int64_t untagged = begin_run(s, NULL, NULL);
    ab_error err;
    cr_assert_eq(abs_run_latest(s, NULL, &id, &err), AB_OK);
    cr_assert_eq(id, untagged);
    cr_assert_eq(abs_run_latest(s, "nightly", &id, &err), AB_OK);
    cr_assert_eq(id, n2);
    cr_assert_eq(abs_run_latest(s, "weekly", &id, &err), AB_OK);
    cr_assert_eq(id, 0, "none is not an error");
    cr_assert_eq(abs_run_previous(s, n2, &id, &err), AB_OK);
    cr_assert_eq(id, n1);
    cr_assert_eq(abs_run_previous(s, n1, &id, &err), AB_OK);
    cr_assert_eq(id, 0);
    cr_assert_eq(abs_run_previous(s, other, &id, &err), AB_OK);
    cr_assert_eq(id, 0);
    cr_assert_eq(abs_run_previous(s, 42, &id, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "no run 42") != NULL, "%s", err.msg);
    abs_close(s);
    free(path);
}

/* ---- suites -------------------------------------------------------------- */

Test(suites, same_text_is_one_suite_an_edit_is_another) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t a = put_suite(s, "net", "suite: net\ntensors: [a]\n");
    int64_t b = put_suite(s, "net", "suite: net\ntensors: [a]\n");
    int64_t c = put_suite(s, "net", "suite: net\ntensors: [a, b]\n");
    cr_assert_eq(a, b);
    cr_assert_neq(a, c);
    char *text;
    size_t len;
    ab_error err;
    cr_assert_eq(abs_suite_text(s, c, &text, &len, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(text, "suite: net\ntensors: [a, b]\n");
    cr_assert_eq(len, strlen(text));
    ab_free(text);
    cr_assert_eq(abs_suite_text(s, 77, &text, &len, &err), AB_EINPUT);
    cr_assert_null(text);
    abs_suite bad;
    abs_suite_init(&bad);
    bad.name = "nameless-text";
    int64_t id;
    cr_assert_eq(abs_suite_put(s, &bad, &id, &err), AB_EINPUT);
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM suites"), 2);
    free(path);
}

/* ---- results ------------------------------------------------------------- */

/* Every field of a result set, from one number. */
static abo_row full_result(int64_t run, int64_t suite, const char *spec, int j,
                              int64_t *offsets, size_t n) {
    abo_row r;
    abo_row_init(&r);
    r.run = run;
    r.suite = suite;
    r.spec = spec;
    r.status = (abo_status)(j % ABO_NSTATUSES);
    r.arena = 1000 + j;
    r.lower_bound = 900 + j;
    r.k = j % 2 ? 64 : AB_NONE;
    r.ilp_status = j % 3 == 0 ? "optimal" : NULL;
    r.ilp_objective = j % 3 == 0 ? 1000 + j : AB_NONE;
    r.ilp_bound = j % 3 == 0 ? 950 + j : AB_NONE;
    r.proven_by = (abo_proof)(j % ABO_NPROOFS);
    r.wall_s = 0.25 * j;
    r.cpu_s = j % 4 == 0 ? -1.0 : 0.125 * j;
    r.peak_rss = 1 << 20;
    r.nodes = j * 10;
    r.signal = r.status == ABO_STATUS_CRASH ? 11 : 0;
    r.verdict = r.status == ABO_STATUS_INVALID ? "overlap" : "ok";
    r.check_message = r.status == ABO_STATUS_INVALID ? "overlap: 'a' and 'b' share bytes" : NULL;
    r.error = r.status == ABO_STATUS_ERROR ? "planner said no" : NULL;
    r.note = "fine";
    for (size_t i = 0; i < n; i++) offsets[i] = (int64_t)(i * 16 + (size_t)j);
    bool plan = r.status == ABO_STATUS_OK || r.status == ABO_STATUS_INVALID;
    r.offsets = plan ? offsets : NULL;
    r.noffsets = plan ? n : 0;
    return r;
}

/* Asserts two rows hold the same data (ids and times aside). */
static void assert_same_row(const abs_row *a, const abs_row *b) {
    cr_assert_str_eq(a->suite.name, b->suite.name);
    cr_assert_str_eq(a->suite.hash, b->suite.hash);
    cr_assert_eq(a->suite.tensors, b->suite.tensors);
    cr_assert_eq(a->suite.lower_bound, b->suite.lower_bound);
    cr_assert_eq(a->suite.optimum, b->suite.optimum);
    cr_assert_eq(a->suite.peak_live_bytes, b->suite.peak_live_bytes);
    const abo_row *x = &a->r, *y = &b->r;
    cr_assert_str_eq(x->spec, y->spec);
    cr_assert_eq(x->status, y->status, "%s", x->spec);
    cr_assert_eq(x->arena, y->arena);
    cr_assert_eq(x->lower_bound, y->lower_bound);
    cr_assert_eq(x->k, y->k);
    cr_assert_eq(x->ilp_objective, y->ilp_objective);
    cr_assert_eq(x->ilp_bound, y->ilp_bound);
    cr_assert_eq(x->ilp_status == NULL, y->ilp_status == NULL);
    if (x->ilp_status) cr_assert_str_eq(x->ilp_status, y->ilp_status);
    cr_assert_eq(x->proven_by, y->proven_by);
    cr_assert_eq(x->wall_s, y->wall_s);
    cr_assert_eq(x->cpu_s, y->cpu_s);
    cr_assert_eq(x->peak_rss, y->peak_rss);
    cr_assert_eq(x->nodes, y->nodes);
    cr_assert_eq(x->signal, y->signal);
    cr_assert_str_eq(x->verdict, y->verdict);
    cr_assert_eq(x->check_message == NULL, y->check_message == NULL);
    cr_assert_eq(x->error == NULL, y->error == NULL);
    cr_assert_str_eq(x->note, y->note);
    cr_assert_str_eq(x->plan_hash, y->plan_hash);
}

Test(results, reads_rows_back_in_suite_name_hash_spec_order) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, "t");
    int64_t other = begin_run(s, NULL, "t");
    int64_t zeta = put_suite(s, "zeta", "zeta v1");
    int64_t alpha = put_suite(s, "alpha", "alpha v1");
    int64_t alpha2 = put_suite(s, "alpha", "alpha v2 (edited)");
    const char *specs[] = {"first-fit:order=size", "best-fit", "first-fit"};
    int64_t suites[] = {zeta, alpha2, alpha};
    int64_t offsets[3][3][5];
    int j = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++, j++) {
            abo_row r = full_result(run, suites[i], specs[k], j, offsets[i][k], 5);
            put_result(s, &r);
        }
    abo_row noise = simple_result(other, alpha, "best-fit", plan4, 4);
    put_result(s, &noise);
    abs_rows rows;
    ab_error err;
    cr_assert_eq(abs_rows_read(s, run, &rows, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(rows.n, 9);
    for (size_t i = 0; i + 1 < rows.n; i++) {
        const abs_row *a = &rows.v[i], *b = &rows.v[i + 1];
        int c = strcmp(a->suite.name, b->suite.name);
        if (c == 0) c = strcmp(a->suite.hash, b->suite.hash);
        if (c == 0) c = strcmp(a->r.spec, b->r.spec);
        cr_assert_lt(c, 0, "row %zu out of order", i);
    }
    cr_assert_str_eq(rows.v[0].suite.name, "alpha");
    cr_assert_str_eq(rows.v[0].r.spec, "best-fit");
    cr_assert_str_eq(rows.v[8].suite.name, "zeta");
    cr_assert_str_eq(rows.v[8].r.spec, "first-fit:order=size");
    /* Every field comes back as it went in. */
    j = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++, j++) {
            int64_t scratch[5];
            abo_row want = full_result(run, suites[i], specs[k], j, scratch, 5);
            const abs_row *got = NULL;
            for (size_t m = 0; m < rows.n; m++)
                if (rows.v[m].r.suite == suites[i] && strcmp(rows.v[m].r.spec, specs[k]) == 0)
                    got = &rows.v[m];
            cr_assert_not_null(got);
            const abo_row *g = &got->r;
            cr_assert_eq(g->run, run);
            cr_assert_eq(got->suite.id, suites[i]);
            cr_assert_eq(g->status, want.status);
            cr_assert_eq(g->arena, want.arena);
            cr_assert_eq(g->lower_bound, want.lower_bound);
            cr_assert_eq(g->k, want.k);
            cr_assert_eq(g->ilp_objective, want.ilp_objective);
            cr_assert_eq(g->ilp_bound, want.ilp_bound);
            if (want.ilp_status) cr_assert_str_eq(g->ilp_status, want.ilp_status);
            else cr_assert_null(g->ilp_status);
            cr_assert_eq(g->proven_by, want.proven_by);
            cr_assert_eq(g->wall_s, want.wall_s);
            cr_assert_eq(g->cpu_s, want.cpu_s);
            cr_assert_eq(g->peak_rss, want.peak_rss);
            cr_assert_eq(g->nodes, want.nodes);
            cr_assert_eq(g->signal, want.signal);
            cr_assert_str_eq(g->verdict, want.verdict);
            if (want.check_message) cr_assert_str_eq(g->check_message, want.check_message);
            else cr_assert_null(g->check_message);
            if (want.error) cr_assert_str_eq(g->error, want.error);
            else cr_assert_null(g->error);
            cr_assert_str_eq(g->note, "fine");
            cr_assert_not_null(g->recorded);
            cr_assert_eq(got->suite.lower_bound, 100);
            cr_assert_eq(got->suite.optimum, AB_NONE);
            cr_assert_str_eq(got->suite.source, "suites/examples/x.yaml");
            cr_assert_null(got->suite.text);
            if (want.offsets != NULL) {
                char hash[ABS_SHA256_HEX];
                cr_assert_eq(abs_plan_hash(want.offsets, 5, hash, NULL), AB_OK);
                cr_assert_str_eq(g->plan_hash, hash);
            } else {
                cr_assert_str_eq(g->plan_hash, "");
            }
        }
    abs_rows_free(&rows);
    abs_rows_free(&rows); /* freeing twice is harmless */
    cr_assert_eq(abs_rows_read(s, 123, &rows, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "no run 123") != NULL, "%s", err.msg);
    abs_close(s);
    free(path);
}

Test(results, a_second_row_for_the_same_pair_is_refused_and_the_first_kept) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    int64_t suite = put_suite(s, "net", "net text");
    abo_row r = simple_result(run, suite, "first-fit", plan4, 4);
    put_result(s, &r);
    static const int64_t other[] = {7, 7, 7};
    abo_row again = simple_result(run, suite, "first-fit", other, 3);
    again.arena = 1;
    ab_error err;
    cr_assert_eq(abs_result_put(s, &again, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "already has a result") && strstr(err.msg, "first-fit") &&
                  strstr(err.msg, path),
              "%s", err.msg);
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results"), 1);
    cr_assert_eq(raw_int(path, "SELECT arena FROM results"), 64);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM plans"), 1, "no orphan plan");
    free(path);
}

Test(results, rejects_malformed_rows) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    int64_t suite = put_suite(s, "net", "net text");
    ab_error err;
    abo_row r = simple_result(run, suite, NULL, NULL, 0);
    cr_assert_eq(abs_result_put(s, &r, &err), AB_EINPUT);
    r.spec = "ff";
    r.k = 0;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "coarsening") != NULL, "%s", err.msg);
    r.k = AB_NONE;
    r.status = ABO_NSTATUSES;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_EINPUT);
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results"), 0);
    free(path);
}

Test(results, resume_pairs_list_what_a_run_has) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    int64_t other = begin_run(s, NULL, NULL);
    int64_t a = put_suite(s, "a", "a text"), b = put_suite(s, "b", "b text");
    abo_row r = simple_result(run, b, "first-fit", plan4, 4);
    put_result(s, &r);
    r = simple_result(run, a, "best-fit", plan4, 4);
    put_result(s, &r);
    r = simple_result(run, a, "exact:k=64", NULL, 0);
    put_result(s, &r);
    r = simple_result(other, b, "best-fit", NULL, 0);
    put_result(s, &r);
    abs_pairs pairs;
    ab_error err;
    cr_assert_eq(abs_pairs_read(s, run, &pairs, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(pairs.n, 3);
    cr_assert_eq(pairs.v[0].suite, a);
    cr_assert_str_eq(pairs.v[0].spec, "best-fit");
    cr_assert_str_eq(pairs.v[1].spec, "exact:k=64");
    cr_assert_eq(pairs.v[2].suite, b);
    cr_assert(abs_pairs_has(&pairs, a, "best-fit"));
    cr_assert(abs_pairs_has(&pairs, a, "exact:k=64"));
    cr_assert(abs_pairs_has(&pairs, b, "first-fit"));
    cr_assert(!abs_pairs_has(&pairs, b, "best-fit"));
    cr_assert(!abs_pairs_has(&pairs, a, "first-fit"));
    cr_assert(!abs_pairs_has(&pairs, 99, "best-fit"));
    abs_pairs_free(&pairs);
    cr_assert_eq(abs_pairs_read(s, 99, &pairs, &err), AB_EINPUT);
    cr_assert_eq(pairs.n, 0);
    abs_close(s);
    free(path);
}

/* ---- plans --------------------------------------------------------------- */

Test(plans, are_stored_once_and_read_back_exactly) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    int64_t suite = put_suite(s, "net", "net text");
    const int64_t odd[] = {0, 1, 127, 128, -1, -64, INT64_MAX, INT64_MIN, (int64_t)1 << 62, 300};
    const size_t nodd = sizeof odd / sizeof odd[0];
    abo_row r = simple_result(run, suite, "a", plan4, 4);
    put_result(s, &r);
    r = simple_result(run, suite, "b", plan4, 4); /* same plan, another planner */
    put_result(s, &r);
    r = simple_result(run, suite, "c", odd, nodd);
    put_result(s, &r);
    static const int64_t none[1] = {0};
    r = simple_result(run, suite, "d", none, 0); /* an empty plan */
    put_result(s, &r);
    r = simple_result(run, suite, "e", NULL, 0); /* no plan */
    put_result(s, &r);
    abs_rows rows;
    ab_error err;
    cr_assert_eq(abs_rows_read(s, run, &rows, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(rows.n, 5);
    cr_assert_str_eq(rows.v[0].r.plan_hash, rows.v[1].r.plan_hash);
    cr_assert_str_neq(rows.v[0].r.plan_hash, rows.v[2].r.plan_hash);
    cr_assert_str_eq(rows.v[4].r.plan_hash, "");
    int64_t *got;
    size_t n;
    cr_assert_eq(abs_plan_get(s, rows.v[0].r.plan_hash, &got, &n, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(n, 4);
    cr_assert_arr_eq(got, plan4, sizeof plan4);
    ab_free(got);
    cr_assert_eq(abs_plan_get(s, rows.v[2].r.plan_hash, &got, &n, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(n, nodd);
    cr_assert_arr_eq(got, odd, sizeof odd);
    ab_free(got);
    cr_assert_eq(abs_plan_get(s, rows.v[3].r.plan_hash, &got, &n, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(n, 0);
    cr_assert_null(got);
    cr_assert_eq(abs_plan_get(s, "00", &got, &n, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "no plan 00") != NULL, "%s", err.msg);
    abs_rows_free(&rows);
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM plans"), 3);
    /* Compact: 4 small offsets take 4 bytes. */
    cr_assert_eq(raw_int(path, "SELECT min(length(offsets)) FROM plans WHERE tensors = 4"), 4);
    free(path);
}

Test(plans, a_malformed_blob_is_reported) {
    char *path = tmp_path("r.db");
    abs_close(open_ok(path, ABS_OPEN_CREATE));
    raw_exec(path, "INSERT INTO plans VALUES ('"
                   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                   "', 3, x'8080')");
    abs_store *s = open_ok(path, 0);
    int64_t *got;
    size_t n;
    ab_error err;
    cr_assert_eq(abs_plan_get(s, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                              &got, &n, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "malformed") != NULL, "%s", err.msg);
    cr_assert_null(got);
    abs_close(s);
    free(path);
}

/* ---- merge --------------------------------------------------------------- */

#define NSUITES 5
#define NSPECS 3
static const char *const merge_specs[NSPECS] = {"first-fit", "best-fit:order=size", "ilp:time=30"};

/* Records jobs j (suite j / NSPECS, spec j % NSPECS) with j % nshards == shard
 * into a run keyed key; suites are stored in an order that depends on shard,
 * so their ids differ between files. */
static void record_jobs(const char *path, const char *key, int shard, int nshards,
                        const char *host) {
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run;
    ab_error err;
    abs_run info = {.key = key, .tag = "nightly", .revision = "abc123", .host = host,
                    .command = "arenabench run --shard"};
    cr_assert_eq(abs_run_begin(s, &info, &run, &err), AB_OK, "%s", err.msg);
    int64_t ids[NSUITES];
    char names[NSUITES][16], texts[NSUITES][32];
    for (int k = 0; k < NSUITES; k++) {
        int i = (k + shard) % NSUITES;
        snprintf(names[i], sizeof names[i], "suite-%d", i % 3); /* names repeat */
        snprintf(texts[i], sizeof texts[i], "canonical text %d", i);
        ids[i] = put_suite(s, names[i], texts[i]);
    }
    for (int j = 0; j < NSUITES * NSPECS; j++) {
        if (j % nshards != shard) continue;
        int64_t offsets[6];
        abo_row r = full_result(run, ids[j / NSPECS], merge_specs[j % NSPECS], j, offsets, 6);
        put_result(s, &r);
    }
    cr_assert_eq(abs_run_finish(s, run, ABS_RUN_DONE, &err), AB_OK);
    abs_close(s);
}

static void read_run_rows(abs_store *s, int64_t run, abs_rows *rows) {
    ab_error err;
    cr_assert_eq(abs_rows_read(s, run, rows, &err), AB_OK, "%s", err.msg);
}

Test(merge, three_shards_give_the_rows_of_one_unsharded_run) {
    char *dir = abt_tmpdir();
    char whole[4096], out[4096], shard[3][4096];
    snprintf(whole, sizeof whole, "%s/whole.db", dir);
    snprintf(out, sizeof out, "%s/out.db", dir);
    record_jobs(whole, "nightly-42", 0, 1, "box");
    for (int i = 0; i < 3; i++) {
        snprintf(shard[i], sizeof shard[i], "%s/shard%d.db", dir, i);
        char host[16];
        snprintf(host, sizeof host, "host%d", i);
        record_jobs(shard[i], "nightly-42", i, 3, host);
    }
    /* OUT already holds an unrelated run, so ids shift. */
    abs_store *s = open_ok(out, ABS_OPEN_CREATE);
    int64_t before = begin_run(s, NULL, "manual");
    put_suite(s, "unrelated", "unrelated text");
    abs_merge_stats st = {0};
    ab_error err;
    for (int i = 0; i < 3; i++)
        cr_assert_eq(abs_merge(s, shard[i], &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(st.runs_added, 1);
    cr_assert_eq(st.runs_joined, 2);
    cr_assert_eq(st.suites_added, NSUITES);
    cr_assert_eq(st.results_added, NSUITES * NSPECS);
    cr_assert_eq(st.results_skipped, 0);
    int64_t merged;
    cr_assert_eq(abs_run_latest(s, "nightly", &merged, &err), AB_OK);
    cr_assert_neq(merged, before);
    abs_run run;
    cr_assert_eq(abs_run_get(s, merged, &run, &err), AB_OK);
    cr_assert_str_eq(run.key, "nightly-42");
    cr_assert_str_eq(run.host, "host0,host1,host2");
    cr_assert_eq(run.status, ABS_RUN_DONE);
    cr_assert_not_null(run.finished);
    abs_run_free(&run);

    abs_store *w = open_ok(whole, 0);
    abs_rows a, b;
    read_run_rows(w, 1, &a);
    read_run_rows(s, merged, &b);
    cr_assert_eq(a.n, (size_t)(NSUITES * NSPECS));
    cr_assert_eq(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        assert_same_row(&a.v[i], &b.v[i]);
        if (b.v[i].r.plan_hash[0] == '\0') continue;
        int64_t *x, *y;
        size_t nx, ny;
        cr_assert_eq(abs_plan_get(w, a.v[i].r.plan_hash, &x, &nx, &err), AB_OK);
        cr_assert_eq(abs_plan_get(s, b.v[i].r.plan_hash, &y, &ny, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(nx, ny);
        cr_assert_arr_eq(x, y, nx * sizeof *x);
        ab_free(x);
        ab_free(y);
    }
    abs_rows_free(&a);
    abs_rows_free(&b);
    abs_close(w);
    cr_assert_eq(abs_check(s, &err), AB_OK, "%s", err.msg);

    /* Merging a shard again changes nothing. */
    abs_merge_stats again = {0};
    cr_assert_eq(abs_merge(s, shard[1], &again, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(again.results_added, 0);
    cr_assert_eq(again.results_skipped, 5);
    cr_assert_eq(again.suites_added, 0);
    cr_assert_eq(again.plans_added, 0);
    cr_assert_eq(again.runs_joined, 1);
    abs_close(s);
    cr_assert_eq(raw_int(out, "SELECT count(*) FROM runs"), 2);
    cr_assert_eq(raw_int(out, "SELECT count(*) FROM results"), NSUITES * NSPECS);
    free(dir);
}

Test(merge, keeps_runs_with_other_keys_apart_and_joins_unfinished_shards) {
    char *dir = abt_tmpdir();
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/a.db", dir);
    snprintf(b, sizeof b, "%s/b.db", dir);
    record_jobs(a, "run-a", 0, 1, "x");
    abs_store *s = open_ok(b, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "run-b", "nightly");
    int64_t suite = put_suite(s, "b", "b text");
    abo_row r = simple_result(run, suite, "first-fit", plan4, 4);
    put_result(s, &r);
    abs_close(s); /* never finished: a killed shard */
    s = open_ok(a, 0);
    abs_merge_stats st = {0};
    ab_error err;
    cr_assert_eq(abs_merge(s, b, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(st.runs_added, 1);
    cr_assert_eq(st.runs_joined, 0);
    int64_t id;
    cr_assert_eq(abs_run_latest(s, NULL, &id, &err), AB_OK);
    abs_rows rows;
    read_run_rows(s, id, &rows);
    cr_assert_eq(rows.n, 1);
    cr_assert_str_eq(rows.v[0].suite.name, "b");
    abs_rows_free(&rows);
    /* A shard of run-a that is still running makes the joined run unfinished. */
    char c[4096];
    snprintf(c, sizeof c, "%s/c.db", dir);
    abs_store *t = open_ok(c, ABS_OPEN_CREATE);
    abs_run info = {.key = "run-a", .tag = "nightly", .revision = "abc123", .host = "y"};
    cr_assert_eq(abs_run_begin(t, &info, &id, &err), AB_OK);
    abs_close(t);
    cr_assert_eq(abs_merge(s, c, &st, &err), AB_OK, "%s", err.msg);
    abs_run got;
    cr_assert_eq(abs_run_get(s, 1, &got, &err), AB_OK);
    cr_assert_str_eq(got.key, "run-a");
    cr_assert_eq(got.status, ABS_RUN_RUNNING);
    cr_assert_null(got.finished);
    cr_assert_str_eq(got.host, "x,y");
    abs_run_free(&got);
    abs_close(s);
    free(dir);
}

Test(merge, refuses_itself_and_a_key_with_another_revision_changing_nothing) {
    char *dir = abt_tmpdir();
    char a[4096], b[4096], missing[4096];
    snprintf(a, sizeof a, "%s/a.db", dir);
    snprintf(b, sizeof b, "%s/b.db", dir);
    snprintf(missing, sizeof missing, "%s/missing.db", dir);
    record_jobs(a, "same-key", 0, 1, "x");
    abs_store *t = open_ok(b, ABS_OPEN_CREATE);
    int64_t run;
    ab_error err;
    abs_run info = {.key = "same-key", .tag = "nightly", .revision = "other"};
    cr_assert_eq(abs_run_begin(t, &info, &run, &err), AB_OK);
    put_suite(t, "fresh", "a suite only b has");
    abs_close(t);
    abs_store *s = open_ok(a, 0);
    abs_merge_stats st = {0};
    cr_assert_eq(abs_merge(s, a, &st, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "into itself") != NULL, "%s", err.msg);
    cr_assert_eq(abs_merge(s, b, &st, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "same-key") && strstr(err.msg, b), "%s", err.msg);
    cr_assert_eq(abs_merge(s, missing, &st, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, missing) != NULL, "%s", err.msg);
    cr_assert(!file_exists(missing));
    cr_assert_eq(st.suites_added, 0, "a refused merge counts nothing");
    cr_assert_eq(abs_check(s, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    cr_assert_eq(raw_int(a, "SELECT count(*) FROM suites WHERE name = 'fresh'"), 0,
                 "the refused merge was rolled back");
    free(dir);
}

Test(merge, migrates_an_older_input_first) {
    char *dir = abt_tmpdir();
    char in[4096], out[4096], empty[4096];
    snprintf(in, sizeof in, "%s/in.db", dir);
    snprintf(out, sizeof out, "%s/out.db", dir);
    snprintf(empty, sizeof empty, "%s/empty.db", dir);
    record_jobs(in, "k", 0, 1, "x");          /* version 4 ... */
    abs_store *s = open_fake(out, ABS_OPEN_CREATE, &fake7); /* ... is older than the fake 8 */
    abs_merge_stats st = {0};
    ab_error err;
    cr_assert_eq(abs_merge(s, in, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(st.results_added, NSUITES * NSPECS);
    FILE *f = fopen(empty, "w");             /* an empty file is version 0 */
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(abs_merge(s, empty, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(st.results_added, NSUITES * NSPECS);
    abs_close(s);
    cr_assert_eq(raw_int(in, "PRAGMA user_version"), 8);
    cr_assert_eq(raw_int(empty, "PRAGMA user_version"), 8);
    cr_assert_eq(raw_int(out, "SELECT count(*) FROM runs WHERE fake_note = 'migrated'"), 1);
    free(dir);
}

/* ---- faults -------------------------------------------------------------- */

/* Records results with large plans into path until one fails; writes the
 * number recorded, then the status of the failure, to fd. */
static void fill_until_failure(const char *path, int64_t run, int64_t suite, int fd) {
    abs_store *s = open_ok(path, 0);
    static int64_t offsets[4000];
    for (size_t i = 0; i < 4000; i++) offsets[i] = (int64_t)(i * 7919 % 4000) << 20;
    int64_t done = 0;
    ab_status rc = AB_OK;
    ab_error err = {0};
    char spec[32];
    for (int i = 0; i < 100000 && rc == AB_OK; i++) {
        snprintf(spec, sizeof spec, "planner-%d", i);
        offsets[0] = i; /* a new plan each time */
        abo_row r = simple_result(run, suite, spec, offsets, 4000);
        rc = abs_result_put(s, &r, &err);
        if (rc == AB_OK) done++;
    }
    int64_t msg[2] = {done, rc};
    bool named = strstr(err.msg, path) != NULL;
    if (write(fd, msg, sizeof msg) != sizeof msg || !named) _exit(2);
    if (write(fd, err.msg, sizeof err.msg) != sizeof err.msg) _exit(2);
    abs_close(s);
    _exit(0);
}

Test(faults, a_full_disk_gives_an_error_and_a_consistent_file) {
    char *path = tmp_path("full.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    int64_t suite = put_suite(s, "net", "net text");
    abs_close(s);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN); /* writes past the limit fail with EFBIG */
        struct rlimit rl = {256 * 1024, 256 * 1024};
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
        fill_until_failure(path, run, suite, fds[1]);
    }
    close(fds[1]);
    int64_t msg[2] = {-1, -1};
    ssize_t got = read(fds[0], msg, sizeof msg);
    char why[AB_ERROR_MAX] = "";
    ssize_t wgot = read(fds[0], why, sizeof why);
    why[sizeof why - 1] = '\0';
    close(fds[0]);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    cr_assert_eq(got, (ssize_t)sizeof msg);
    cr_assert_gt(msg[0], 0, "some rows fit before the limit");
    cr_assert_lt(msg[0], 100000, "the limit was hit");
    cr_assert_neq(msg[1], AB_OK);
    cr_assert_gt(wgot, 0);
    cr_log_info("full disk: %lld rows recorded, then: %s", (long long)msg[0], why);
    /* The file is sound and holds exactly the rows that were acknowledged. */
    s = open_ok(path, 0);
    ab_error err;
    cr_assert_eq(abs_check(s, &err), AB_OK, "%s", err.msg);
    abs_pairs pairs;
    cr_assert_eq(abs_pairs_read(s, run, &pairs, &err), AB_OK);
    cr_assert_eq((int64_t)pairs.n, msg[0]);
    abs_pairs_free(&pairs);
    abo_row r = simple_result(run, suite, "after", plan4, 4);
    put_result(s, &r); /* with room again, writing works */
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE plan IS NOT NULL AND plan "
                               "NOT IN (SELECT hash FROM plans)"), 0, "no half row");
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM plans p WHERE NOT EXISTS (SELECT 1 FROM "
                               "results r WHERE r.plan = p.hash)"), 0, "no orphan plan");
    free(path);
}

Test(faults, a_kill_9_loses_only_the_row_in_flight_and_resume_fills_the_rest) {
    char *path = tmp_path("kill.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    int64_t suite = put_suite(s, "net", "net text");
    abs_close(s);
    enum { JOBS = 400 };
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        close(fds[0]);
        abs_store *c = open_ok(path, 0);
        static int64_t offsets[2000];
        char spec[32];
        for (int i = 0; i < JOBS; i++) {
            snprintf(spec, sizeof spec, "p%03d", i);
            offsets[0] = i;
            abo_row r = simple_result(run, suite, spec, offsets, 2000);
            if (abs_result_put(c, &r, NULL) != AB_OK) _exit(1);
            if (i == 5 && write(fds[1], "x", 1) != 1) _exit(1);
        }
        pause(); /* all done: wait for the kill */
        _exit(0);
    }
    close(fds[1]);
    char x;
    cr_assert_eq(read(fds[0], &x, 1), 1);
    close(fds[0]);
    nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    s = open_ok(path, 0);
    ab_error err;
    cr_assert_eq(abs_check(s, &err), AB_OK, "%s", err.msg);
    abs_pairs pairs;
    cr_assert_eq(abs_pairs_read(s, run, &pairs, &err), AB_OK);
    cr_assert_geq(pairs.n, 6);
    cr_log_info("kill -9: %zu of %d rows were committed", pairs.n, (int)JOBS);
    char spec[32];
    static int64_t offsets[2000];
    for (int i = 0; i < JOBS; i++) {
        snprintf(spec, sizeof spec, "p%03d", i);
        if (abs_pairs_has(&pairs, suite, spec)) continue;
        offsets[0] = i;
        abo_row r = simple_result(run, suite, spec, offsets, 2000);
        put_result(s, &r);
    }
    abs_pairs_free(&pairs);
    abs_rows rows;
    cr_assert_eq(abs_rows_read(s, run, &rows, &err), AB_OK);
    cr_assert_eq(rows.n, JOBS);
    for (size_t i = 0; i < rows.n; i++) {
        snprintf(spec, sizeof spec, "p%03zu", i);
        cr_assert_str_eq(rows.v[i].r.spec, spec);
    }
    abs_rows_free(&rows);
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM plans"), JOBS);
    free(path);
}

Test(faults, the_integrity_check_reports_a_dangling_plan) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    int64_t suite = put_suite(s, "net", "net text");
    abo_row r = simple_result(run, suite, "ff", plan4, 4);
    put_result(s, &r);
    ab_error err;
    cr_assert_eq(abs_check(s, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    raw_exec(path, "PRAGMA foreign_keys = OFF; DELETE FROM plans;");
    s = open_ok(path, 0);
    cr_assert_eq(abs_check(s, &err), AB_ECHECK);
    cr_assert(strstr(err.msg, path) && strstr(err.msg, "integrity check failed") &&
                  strstr(err.msg, "plans"),
              "%s", err.msg);
    abs_close(s);
    free(path);
}

Test(faults, allocation_failures_while_reading_leak_nothing) {
    char *path = tmp_path("r.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, NULL, NULL);
    char text[8][16], spec[8][16];
    for (int i = 0; i < 8; i++) {
        snprintf(text[i], sizeof text[i], "suite %d", i);
        snprintf(spec[i], sizeof spec[i], "planner-%d", i);
        int64_t suite = put_suite(s, text[i], text[i]);
        abo_row r = simple_result(run, suite, spec[i], plan4, 4);
        r.note = "a note long enough to need its own copy";
        put_result(s, &r);
    }
    ab_alloc_fail_at(0);
    abs_rows rows;
    cr_assert_eq(abs_rows_read(s, run, &rows, NULL), AB_OK);
    abs_rows_free(&rows);
    long calls = ab_alloc_fail_at(0);
    cr_assert_gt(calls, 0);
    for (long n = 1; n <= calls; n++) {
        ab_alloc_fail_at(n);
        ab_error err;
        cr_assert_eq(abs_rows_read(s, run, &rows, &err), AB_ENOMEM, "failing call %ld", n);
        cr_assert_eq(rows.n, 0);
        cr_assert_null(rows.v);
        abs_pairs pairs;
        ab_alloc_fail_at(n);
        ab_status rc = abs_pairs_read(s, run, &pairs, NULL);
        cr_assert(rc == AB_OK || rc == AB_ENOMEM);
        abs_pairs_free(&pairs);
    }
    ab_alloc_fail_at(0);
    abs_close(s);
    free(path);
}

/* ---- bounds (version 4) ------------------------------------------------------------ */

static abs_bound a_bound(int64_t run, int64_t suite, abo_bound_kind kind, int64_t value,
                         const char *cert, const char *source) {
    abs_bound b = {.run = run, .suite = suite, .source = source, .cpu_s = -1};
    b.b.kind = kind;
    b.b.value = value;
    snprintf(b.b.certificate, sizeof b.b.certificate, "%s", cert);
    return b;
}

Test(store_bounds, round_trip_in_a_total_order_and_a_second_put_keeps_the_first) {
    char *path = tmp_path("b.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", NULL);
    int64_t a = put_suite(s, "a", "suite: a\n"), b = put_suite(s, "b", "suite: b\n");
    ab_error err;
    abs_bound v[] = {
        a_bound(run, b, ABO_BOUND_SUBSET, 96, "window 3..5 (4 tensors, its optimum)",
                "nodes=200"),
        a_bound(run, a, ABO_BOUND_MAX_LOAD, 64, "instruction 2", NULL),
        a_bound(run, b, ABO_BOUND_MAX_LOAD, 80, "instruction 4", NULL),
        a_bound(run, b, ABO_BOUND_MAX_LOAD, 1, "instruction 9", NULL), /* the same four again */
    };
    v[0].b.capped = true;
    v[0].b.nodes = 7;
    v[0].cpu_s = 0.5;
    for (size_t i = 0; i < 4; i++) cr_assert_eq(abs_bound_put(s, &v[i], &err), AB_OK, "%s", err.msg);
    abs_bounds got;
    cr_assert_eq(abs_bounds_read(s, run, &got, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(got.n, 3);
    cr_assert_eq(got.v[0].suite, a);
    cr_assert_eq(got.v[1].b.kind, ABO_BOUND_MAX_LOAD);
    cr_assert_eq(got.v[1].b.value, 80, "the first put is kept");
    cr_assert_str_eq(got.v[1].b.certificate, "instruction 4");
    cr_assert_str_eq(got.v[1].source, "");
    cr_assert_eq(got.v[2].b.kind, ABO_BOUND_SUBSET);
    cr_assert_str_eq(got.v[2].source, "nodes=200");
    cr_assert(got.v[2].b.capped);
    cr_assert_eq(got.v[2].b.nodes, 7);
    cr_assert_float_eq(got.v[2].cpu_s, 0.5, 1e-9);
    cr_assert_not_null(got.v[2].recorded);
    abs_bounds_free(&got);
    /* no certificate, no row */
    abs_bound bad = a_bound(run, a, ABO_BOUND_SUBSET, 9, "", NULL);
    cr_assert_eq(abs_bound_put(s, &bad, &err), AB_EINPUT);
    abs_close(s);
    /* the kinds table holds every kind the oracle knows */
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM bound_kinds"), ABO_NBOUND_KINDS);
    free(path);
}

Test(store_bounds, a_kind_from_a_newer_writer_is_refused_by_name) {
    char *path = tmp_path("b.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", NULL), a = put_suite(s, "a", "suite: a\n");
    abs_close(s);
    raw_exec(path, "INSERT INTO bound_kinds (word) VALUES ('lagrangian');"
                   "INSERT INTO bounds (run, suite, kind, value, certificate, recorded) VALUES "
                   "(1, 1, 'lagrangian', 5, 'x', '2026-01-01T00:00:00.000Z');");
    s = open_ok(path, 0);
    abs_bounds got;
    ab_error err;
    cr_assert_eq(abs_bounds_read(s, run, &got, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "lagrangian") != NULL, "%s", err.msg);
    abs_close(s);
    (void)a;
    free(path);
}

/* Version 3 -> 4: suites gain capacity (unknown on old rows), the bounds tables come. */
Test(migrate, version_3_suites_keep_their_rows_with_capacity_unknown) {
    char *path = tmp_path("v3.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", "nightly"), su = put_suite(s, "a", "suite: a\n");
    abo_row r = simple_result(run, su, "first-fit", plan4, 4);
    put_result(s, &r);
    abs_close(s);
    raw_exec(path, "PRAGMA foreign_keys = OFF; BEGIN;" UNDO_V4 "PRAGMA user_version = 3; COMMIT;");
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'bounds'"), 0);
    abs_close(open_ok(path, 0));
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM suites WHERE capacity IS NULL AND "
                               "stored_version IS NULL"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM bound_kinds"), ABO_NBOUND_KINDS);
    free(path);
}

Test(merge, carries_the_bounds_of_a_shard) {
    char *in = tmp_path("in.db"), *out = tmp_path("out.db");
    abs_store *s = open_ok(in, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", NULL), a = put_suite(s, "a", "suite: a\n");
    ab_error err;
    abs_bound b = a_bound(run, a, ABO_BOUND_MAX_LOAD, 64, "instruction 2", NULL);
    cr_assert_eq(abs_bound_put(s, &b, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    s = open_ok(out, ABS_OPEN_CREATE);
    put_suite(s, "z", "suite: z\n"); /* ids differ between the files */
    abs_merge_stats st = {0};
    cr_assert_eq(abs_merge(s, in, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abs_merge(s, in, &st, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(st.bounds_added, 1, "merging twice adds it once");
    abs_close(s);
    cr_assert_eq(raw_int(out, "SELECT count(*) FROM bounds b JOIN suites s ON s.id = b.suite "
                              "WHERE s.name = 'a' AND b.value = 64 AND b.kind = 'max-load'"), 1);
    free(in);
    free(out);
}

/* ---- version 5: the kinds of proof as rows, the suites' arena views ---------- */

/* Version 4 -> 5: proof_kinds comes with the oracle's words, results keep
 * their rows and proofs, old suites have no stored view (readers say so)
 * until the run layer fills it. */
Test(migrate, version_4_results_keep_their_proofs_and_suites_await_their_view) {
    char *path = tmp_path("v4.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", "nightly"), su = put_suite(s, "a", "suite: a\n");
    abo_row r = simple_result(run, su, "first-fit", plan4, 4);
    r.proven_by = ABO_PROOF_LOWER_BOUND;
    put_result(s, &r);
    abs_close(s);
    raw_exec(path, "PRAGMA foreign_keys = OFF; BEGIN;" UNDO_V5 "PRAGMA user_version = 4; COMMIT;");
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'proof_kinds'"),
                 0);
    s = open_ok(path, 0);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM proof_kinds"), ABO_NPROOFS);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE proven_by = 'lower-bound' "
                               "AND proven = 1 AND arena = 64"), 1);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'results' AND "
                               "sql LIKE '%REFERENCES proof_kinds%'"), 1);
    ab_problem v;
    ab_error err;
    cr_assert_eq(abs_suite_view(s, su, &v, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "suite 'a' was stored before schema version 5, without its "
                              "tensors") != NULL, "%s", err.msg);
    int64_t *ids;
    size_t n;
    cr_assert_eq(abs_suites_without_view(s, &ids, &n, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(n, 1);
    cr_assert_eq(ids[0], su);
    free(ids);
    abs_close(s);
    free(path);
}

/* A proof word is a row of proof_kinds, not a CHECK: a word the oracle does
 * not list is refused by the foreign key, and each listed word is accepted. */
Test(migrate, proof_words_are_rows_the_store_fills_from_the_oracle) {
    char *path = tmp_path("kinds.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", "nightly"), su = put_suite(s, "a", "suite: a\n");
    for (int k = 0; k < ABO_NPROOFS; k++) {
        char spec[32];
        snprintf(spec, sizeof spec, "first-fit:p%d", k);
        abo_row r = simple_result(run, su, spec, plan4, 4);
        r.proven_by = (abo_proof)k;
        put_result(s, &r);
    }
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(DISTINCT proven_by) FROM results"), ABO_NPROOFS);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL), SQLITE_OK);
    int rc = sqlite3_exec(db, "UPDATE results SET proven_by = 'astrology' WHERE id = 1", NULL,
                          NULL, NULL);
    cr_assert_eq(rc & 0xff, SQLITE_CONSTRAINT, "an unlisted proof word is refused");
    /* a new kind is a row: once listed, the same word is accepted, no migration */
    cr_assert_eq(sqlite3_exec(db, "INSERT INTO proof_kinds VALUES ('astrology'); UPDATE results "
                                  "SET proven_by = 'astrology' WHERE id = 1", NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    free(path);
}

/* The arena view stored with a suite comes back equal: tensors in order with
 * their names, sizes, ranges, aligns and fixed offsets, the pools, the
 * capacity; a second put of the same suite keeps the first view. */
Test(suites, store_and_rebuild_the_arena_view) {
    char *path = tmp_path("view.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    ab_problem v;
    ab_problem_init(&v);
    v.capacity = 4096;
    ab_pool pools[2] = {{(char *)"sram", 1024}, {(char *)"dram", AB_NONE}};
    v.pools = pools;
    v.npools = 2;
    const char *names[3] = {"conv'1", "pool \"2\"", "z"};
    for (int i = 0; i < 3; i++) {
        ab_tensor t = {.name = (char *)names[i], .size = 100 * (i + 1), .start = i, .end = i + 2,
                       .align = (int64_t)1 << i, .offset = i == 1 ? 64 : AB_NONE,
                       .logical_bits = 800 * (i + 1)};
        cr_assert_eq(ab_problem_add(&v, &t, NULL), AB_OK);
    }
    abs_suite su;
    abs_suite_init(&su);
    su.name = "viewed";
    su.text = "suite: viewed\n";
    su.text_len = strlen(su.text);
    su.tensors = 3;
    su.view = &v;
    int64_t id, id2;
    ab_error err;
    cr_assert_eq(abs_suite_put(s, &su, &id, &err), AB_OK, "%s", err.msg);
    ab_problem other;
    ab_problem_init(&other);
    su.view = &other; /* the same text again: the stored view stays */
    cr_assert_eq(abs_suite_put(s, &su, &id2, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(id2, id);
    ab_problem back;
    cr_assert_eq(abs_suite_view(s, id, &back, &err), AB_OK, "%s", err.msg);
    cr_assert_str_eq(back.name, "viewed");
    cr_assert_eq(back.capacity, 4096);
    cr_assert_eq(back.npools, 2);
    cr_assert_str_eq(back.pools[0].name, "sram");
    cr_assert_eq(back.pools[0].size, 1024);
    cr_assert_str_eq(back.pools[1].name, "dram");
    cr_assert_eq(back.pools[1].size, AB_NONE);
    cr_assert_eq(back.n, 3);
    for (size_t i = 0; i < 3; i++) {
        cr_assert_str_eq(back.t[i].name, v.t[i].name);
        cr_assert_eq(back.t[i].size, v.t[i].size);
        cr_assert_eq(back.t[i].start, v.t[i].start);
        cr_assert_eq(back.t[i].end, v.t[i].end);
        cr_assert_eq(back.t[i].align, v.t[i].align);
        cr_assert_eq(back.t[i].offset, v.t[i].offset);
        cr_assert(ab_in_arena(&back, i));
    }
    ab_problem_free(&back);
    /* a forged row the loaders would refuse is refused here too */
    abs_close(s);
    raw_exec(path, "UPDATE suite_tensors SET align = 3 WHERE idx = 2");
    s = open_ok(path, 0);
    cr_assert_eq(abs_suite_view(s, id, &back, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "stored tensor 2 ('z') is malformed") != NULL, "%s", err.msg);
    abs_close(s);
    v.pools = NULL;
    v.npools = 0;
    ab_problem_free(&v);
    free(path);
}

/* Version 6 adds results.containment (issue 30: the row says how the job's
 * processes were held): a version-5 file keeps its rows, NULL there (not
 * known), and a new row stores the word; a word outside the list is refused. */
Test(migrate, version_5_results_gain_containment_null_and_new_rows_say_it) {
    char *path = tmp_path("v5.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", "nightly"), su = put_suite(s, "a", "suite: a\n");
    abo_row r = simple_result(run, su, "first-fit", plan4, 4);
    put_result(s, &r);
    abs_close(s);
    raw_exec(path, "BEGIN;" UNDO_V6 "PRAGMA user_version = 5; COMMIT;");
    s = open_ok(path, 0);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE containment IS NULL"), 1);
    abo_row r2 = simple_result(run, su, "best-fit", plan4, 4);
    r2.containment = "subreaper";
    put_result(s, &r2);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE containment = 'subreaper' "
                               "AND spec = 'best-fit'"), 1);
    abs_rows rows;
    ab_error err;
    cr_assert_eq(abs_rows_read(s, run, &rows, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(rows.n, 2);
    for (size_t i = 0; i < rows.n; i++) {
        bool bf = strcmp(rows.v[i].r.spec, "best-fit") == 0;
        if (bf) cr_assert_str_eq(rows.v[i].r.containment, "subreaper");
        else cr_assert_null(rows.v[i].r.containment);
    }
    abs_rows_free(&rows);
    abo_row r3 = simple_result(run, su, "tflm-greedy", plan4, 4);
    r3.containment = "container";
    cr_assert_eq(abs_result_put(s, &r3, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "containment is none of") != NULL, "%s", err.msg);
    abs_close(s);
    free(path);
}

/* Version 7 lets containment say 'cgroup' (issue 30: a cgroup per job): a
 * version-6 file's results table is rebuilt with every row and column as it
 * was, and then takes the new word, which version 6 refused. */
Test(migrate, version_6_results_take_cgroup_and_keep_their_rows) {
    char *path = tmp_path("v6.db");
    abs_store *s = open_ok(path, ABS_OPEN_CREATE);
    int64_t run = begin_run(s, "k1", "nightly"), su = put_suite(s, "a", "suite: a\n");
    abo_row r = simple_result(run, su, "first-fit", plan4, 4);
    r.containment = "subreaper";
    r.capped = "time";
    put_result(s, &r);
    abs_close(s);
    raw_exec(path, "BEGIN;" UNDO_V7 "UPDATE results SET containment = 'subreaper'; "
                   "PRAGMA user_version = 6; COMMIT;");
    char *before = raw_text(path, "SELECT group_concat(spec || status || arena || capped || "
                                  "containment || recorded, '|') FROM results");
    s = open_ok(path, 0);
    cr_assert_eq(raw_int(path, "PRAGMA user_version"), ABS_SCHEMA_VERSION);
    char *after = raw_text(path, "SELECT group_concat(spec || status || arena || capped || "
                                 "containment || recorded, '|') FROM results");
    cr_assert_str_eq(after, before);
    abo_row r2 = simple_result(run, su, "best-fit", plan4, 4);
    r2.containment = "cgroup";
    put_result(s, &r2);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM results WHERE containment = 'cgroup'"), 1);
    abs_close(s);
    cr_assert_eq(raw_int(path, "SELECT count(*) FROM pragma_integrity_check "
                               "WHERE integrity_check <> 'ok'"), 0);
    free(before);
    free(after);
    free(path);
}
