/*
 * store.c — the results store over SQLite (see store.h; tables in schema.sql).
 *
 * Layout of this file: string pool and enum words; error and statement
 * helpers; opening and migration; integrity check; runs; suites; plans;
 * results; resume pairs; merge. Every statement binds its values: SQL text
 * here is constant, never formatted.
 */
#include "results/store/store.h"

#include "core/buf.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* schema.sql, embedded by CMake (generated schema_sql.c), NUL-terminated. */
extern const unsigned char abs_schema_sql[];

#define ABS_APPLICATION_ID 1094865491 /* 'ABRS', as set by schema.sql */
#define NOW_SQL "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

struct abs_store {
    sqlite3 *db;
    char *path;     /* as given to abs_open */
    abs_schema sch; /* the version it migrates files to, and the steps */
};

/* ---- migrations -------------------------------------------------------------
 * Step i takes a file from version steps[i].from to from + 1 and ends by
 * setting PRAGMA user_version. A new or empty file gets schema.sql instead,
 * which sets ABS_SCHEMA_VERSION directly. To change the schema, add
 * {N, "...; PRAGMA user_version = N + 1;"} here and the same change to
 * schema.sql. SQLite cannot alter a CHECK constraint: a step that changes one
 * rebuilds the table (rename the old one, create the new one as schema.sql
 * does, copy, drop the old one, recreate its indexes, views and triggers).
 *
 * 1 -> 2: results.status gains 'over-capacity' (a valid plan over the
 * capacity); 'infeasible' now needs a refutation certificate, which no
 * version-1 row has, so every old 'infeasible' row becomes 'over-capacity'.
 * The results table has no index, view or trigger of its own besides its
 * UNIQUE constraint's, which the new table carries.
 *
 * 2 -> 3: results gain the columns of repeated timing (repeats, cpu_min_s,
 * cpu_max_s, wall_min_s, wall_max_s, plan_cpu_s) and capped, added at the end
 * as schema.sql has them. An old row had one run: repeats 1, min = max = the
 * one time; a row killed at the runner's time limit is capped 'time', an oom
 * row 'memory'.
 *
 * 3 -> 4: suites gain capacity and stored_version (NULL on old rows: their
 * capacity is unknown, not absent); the tables bound_kinds and bounds are
 * created (a run of version 3 has no bounds rows; its bounds are the suites'
 * and the results' columns, as before).
 *
 * 4 -> 5: results.proven_by references proof_kinds (filled here with the
 * four words the CHECK allowed, then by seed_kinds at each writable open)
 * instead of a CHECK list, so a new kind of proof is a row of the oracle's
 * list, never a migration again: the results table is rebuilt once for it.
 * suites gain view_tensors and the tables suite_tensors and suite_pools are
 * created, empty: old suites have no stored view until `run` fills it
 * (abs_suite_put_view).
 *
 * 5 -> 6: results gain containment, at the end as schema.sql has it: how the
 * job's processes were held; NULL (not known) on old rows.
 *
 * 6 -> 7: containment may also be 'cgroup' (each job in a cgroup of its own:
 * spawn.h, Containment): the results table is rebuilt for the CHECK, its
 * rows copied as they are. */
#define ABS_RESULTS_COLUMNS                                                     \
    "id, run, suite, spec, status, arena, lower_bound, k, ilp_status, ilp_objective, "  \
    "ilp_bound, proven_by, wall_s, cpu_s, peak_rss, nodes, signal, verdict, "  \
    "check_message, error, note, plan, recorded"
/* The columns version 3 added to results, in order. */
#define ABS_RESULTS_V3_COLUMNS \
    "repeats, cpu_min_s, cpu_max_s, wall_min_s, wall_max_s, plan_cpu_s, capped"

static const abs_migration builtin_migrations[] = {
    {1, "ALTER TABLE results RENAME TO results_v1;\n"
        "CREATE TABLE results (\n"
        "    id            INTEGER PRIMARY KEY,\n"
        "    run           INTEGER NOT NULL REFERENCES runs (id),\n"
        "    suite         INTEGER NOT NULL REFERENCES suites (id),\n"
        "    spec          TEXT NOT NULL,\n"
        "    status        TEXT NOT NULL\n"
        "                  CHECK (status IN ('ok', 'invalid', 'timeout', 'crash', 'oom',\n"
        "                                    'over-capacity', 'infeasible', 'error')),\n"
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
        ");\n"
        "INSERT INTO results (" ABS_RESULTS_COLUMNS ")\n"
        "    SELECT id, run, suite, spec,\n"
        "           CASE WHEN status = 'infeasible' THEN 'over-capacity' ELSE status END,\n"
        "           arena, lower_bound, k, ilp_status, ilp_objective, ilp_bound, proven_by,\n"
        "           wall_s, cpu_s, peak_rss, nodes, signal, verdict, check_message, error,\n"
        "           note, plan, recorded\n"
        "    FROM results_v1 ORDER BY id;\n"
        "DROP TABLE results_v1;\n"
        "PRAGMA user_version = 2;\n"},
    {2, "ALTER TABLE results ADD COLUMN repeats INTEGER CHECK (repeats IS NULL OR repeats >= 1);\n"
        "ALTER TABLE results ADD COLUMN cpu_min_s REAL;\n"
        "ALTER TABLE results ADD COLUMN cpu_max_s REAL;\n"
        "ALTER TABLE results ADD COLUMN wall_min_s REAL;\n"
        "ALTER TABLE results ADD COLUMN wall_max_s REAL;\n"
        "ALTER TABLE results ADD COLUMN plan_cpu_s REAL;\n"
        "ALTER TABLE results ADD COLUMN capped TEXT\n"
        "    CHECK (capped IS NULL OR capped IN ('time', 'memory'));\n"
        "UPDATE results SET repeats = CASE WHEN wall_s IS NULL THEN NULL ELSE 1 END,\n"
        "    cpu_min_s = cpu_s, cpu_max_s = cpu_s, wall_min_s = wall_s, wall_max_s = wall_s,\n"
        "    capped = CASE WHEN status = 'oom' THEN 'memory'\n"
        "                  WHEN status = 'timeout' AND error LIKE 'exceeded the time limit%'\n"
        "                  THEN 'time' END;\n"
        "PRAGMA user_version = 3;\n"},
    {3, "ALTER TABLE suites ADD COLUMN capacity INTEGER\n"
        "    CHECK (capacity IS NULL OR capacity >= 1);\n"
        "ALTER TABLE suites ADD COLUMN pools INTEGER CHECK (pools IS NULL OR pools >= 0);\n"
        "ALTER TABLE suites ADD COLUMN stored_version INTEGER;\n"
        "CREATE TABLE bound_kinds (word TEXT PRIMARY KEY) WITHOUT ROWID;\n"
        "CREATE TABLE bounds (\n"
        "    id           INTEGER PRIMARY KEY,\n"
        "    run          INTEGER NOT NULL REFERENCES runs (id),\n"
        "    suite        INTEGER NOT NULL REFERENCES suites (id),\n"
        "    kind         TEXT NOT NULL REFERENCES bound_kinds (word),\n"
        "    source       TEXT NOT NULL DEFAULT '',\n"
        "    value        INTEGER CHECK (value IS NULL OR value >= 0),\n"
        "    certificate  TEXT NOT NULL,\n"
        "    nodes        INTEGER,\n"
        "    capped       INTEGER NOT NULL DEFAULT 0 CHECK (capped IN (0, 1)),\n"
        "    cpu_s        REAL,\n"
        "    recorded     TEXT NOT NULL,\n"
        "    UNIQUE (run, suite, kind, source)\n"
        ");\n"
        "PRAGMA user_version = 4;\n"},
    {4, "CREATE TABLE proof_kinds (word TEXT PRIMARY KEY) WITHOUT ROWID;\n"
        "INSERT INTO proof_kinds (word) VALUES ('none'), ('lower-bound'), ('ilp'),\n"
        "    ('exhaustive');\n"
        "ALTER TABLE results RENAME TO results_v4;\n"
        "CREATE TABLE results (\n"
        "    id            INTEGER PRIMARY KEY,\n"
        "    run           INTEGER NOT NULL REFERENCES runs (id),\n"
        "    suite         INTEGER NOT NULL REFERENCES suites (id),\n"
        "    spec          TEXT NOT NULL,\n"
        "    status        TEXT NOT NULL\n"
        "                  CHECK (status IN ('ok', 'invalid', 'timeout', 'crash', 'oom',\n"
        "                                    'over-capacity', 'infeasible', 'error')),\n"
        "    arena         INTEGER,\n"
        "    lower_bound   INTEGER,\n"
        "    k             INTEGER CHECK (k IS NULL OR k >= 1),\n"
        "    ilp_status    TEXT,\n"
        "    ilp_objective INTEGER,\n"
        "    ilp_bound     INTEGER,\n"
        "    proven_by     TEXT NOT NULL DEFAULT 'none' REFERENCES proof_kinds (word),\n"
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
        "    repeats       INTEGER CHECK (repeats IS NULL OR repeats >= 1),\n"
        "    cpu_min_s     REAL,\n"
        "    cpu_max_s     REAL,\n"
        "    wall_min_s    REAL,\n"
        "    wall_max_s    REAL,\n"
        "    plan_cpu_s    REAL,\n"
        "    capped        TEXT CHECK (capped IS NULL OR capped IN ('time', 'memory')),\n"
        "    UNIQUE (run, suite, spec)\n"
        ");\n"
        "INSERT INTO results (" ABS_RESULTS_COLUMNS ", " ABS_RESULTS_V3_COLUMNS ")\n"
        "    SELECT " ABS_RESULTS_COLUMNS ", " ABS_RESULTS_V3_COLUMNS "\n"
        "    FROM results_v4 ORDER BY id;\n"
        "DROP TABLE results_v4;\n"
        "ALTER TABLE suites ADD COLUMN view_tensors INTEGER\n"
        "    CHECK (view_tensors IS NULL OR view_tensors >= 0);\n"
        "ALTER TABLE suites ADD COLUMN view_capacity INTEGER\n"
        "    CHECK (view_capacity IS NULL OR view_capacity >= 1);\n"
        "CREATE TABLE suite_tensors (\n"
        "    suite   INTEGER NOT NULL REFERENCES suites (id),\n"
        "    idx     INTEGER NOT NULL CHECK (idx >= 0),\n"
        "    name    TEXT NOT NULL,\n"
        "    size    INTEGER NOT NULL CHECK (size >= 1),\n"
        "    first   INTEGER NOT NULL,\n"
        "    last    INTEGER NOT NULL,\n"
        "    align   INTEGER NOT NULL CHECK (align >= 1),\n"
        "    offset  INTEGER,\n"
        "    PRIMARY KEY (suite, idx)\n"
        ") WITHOUT ROWID;\n"
        "CREATE TABLE suite_pools (\n"
        "    suite   INTEGER NOT NULL REFERENCES suites (id),\n"
        "    idx     INTEGER NOT NULL CHECK (idx >= 0),\n"
        "    name    TEXT NOT NULL,\n"
        "    size    INTEGER CHECK (size IS NULL OR size >= 1),\n"
        "    PRIMARY KEY (suite, idx)\n"
        ") WITHOUT ROWID;\n"
        "PRAGMA user_version = 5;\n"},
    {5, "ALTER TABLE results ADD COLUMN containment TEXT\n"
        "    CHECK (containment IS NULL OR containment IN ('subreaper', 'process-group'));\n"
        "PRAGMA user_version = 6;\n"},
    {6, "ALTER TABLE results RENAME TO results_v6;\n"
        "CREATE TABLE results (\n"
        "    id            INTEGER PRIMARY KEY,\n"
        "    run           INTEGER NOT NULL REFERENCES runs (id),\n"
        "    suite         INTEGER NOT NULL REFERENCES suites (id),\n"
        "    spec          TEXT NOT NULL,\n"
        "    status        TEXT NOT NULL\n"
        "                  CHECK (status IN ('ok', 'invalid', 'timeout', 'crash', 'oom',\n"
        "                                    'over-capacity', 'infeasible', 'error')),\n"
        "    arena         INTEGER,\n"
        "    lower_bound   INTEGER,\n"
        "    k             INTEGER CHECK (k IS NULL OR k >= 1),\n"
        "    ilp_status    TEXT,\n"
        "    ilp_objective INTEGER,\n"
        "    ilp_bound     INTEGER,\n"
        "    proven_by     TEXT NOT NULL DEFAULT 'none' REFERENCES proof_kinds (word),\n"
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
        "    repeats       INTEGER CHECK (repeats IS NULL OR repeats >= 1),\n"
        "    cpu_min_s     REAL,\n"
        "    cpu_max_s     REAL,\n"
        "    wall_min_s    REAL,\n"
        "    wall_max_s    REAL,\n"
        "    plan_cpu_s    REAL,\n"
        "    capped        TEXT CHECK (capped IS NULL OR capped IN ('time', 'memory')),\n"
        "    containment   TEXT CHECK (containment IS NULL OR\n"
        "                              containment IN ('subreaper', 'process-group', 'cgroup')),\n"
        "    UNIQUE (run, suite, spec)\n"
        ");\n"
        "INSERT INTO results (" ABS_RESULTS_COLUMNS ", " ABS_RESULTS_V3_COLUMNS ", containment)\n"
        "    SELECT " ABS_RESULTS_COLUMNS ", " ABS_RESULTS_V3_COLUMNS ", containment\n"
        "    FROM results_v6 ORDER BY id;\n"
        "DROP TABLE results_v6;\n"
        "PRAGMA user_version = 7;\n"},
};

/* This code's schema. */
static const abs_schema builtin_schema = {
    builtin_migrations, sizeof builtin_migrations / sizeof builtin_migrations[0],
    ABS_SCHEMA_VERSION};

/* ---- string pool ------------------------------------------------------------
 * Strings of read structs live in a chain of blocks freed at once. */
struct abs_pool {
    abs_pool *next;
    size_t used, cap;
    char data[];
};

/* A NUL-terminated copy of s[0 .. len) in *pool; NULL when out of memory. */
static const char *pool_dup(abs_pool **pool, const char *s, size_t len) {
    abs_pool *p = *pool;
    if (p == NULL || p->cap - p->used < len + 1) {
        size_t cap = len + 1 > 4096 ? len + 1 : 4096;
        abs_pool *np = ab_malloc(sizeof *np + cap);
        if (np == NULL) return NULL;
        np->next = p;
        np->used = 0;
        np->cap = cap;
        *pool = p = np;
    }
    char *d = p->data + p->used;
    memcpy(d, s, len);
    d[len] = '\0';
    p->used += len + 1;
    return d;
}

static void pool_free(abs_pool *p) {
    while (p != NULL) {
        abs_pool *next = p->next;
        ab_free(p);
        p = next;
    }
}

/* ---- enumeration words --------------------------------------------------- */

#define ABS_WORD_(id, word) word,
static const char *const run_words[] = {ABS_RUN_STATUSES(ABS_WORD_)};
#undef ABS_WORD_

static const char *word_of(const char *const *words, int n, int v) {
    return v >= 0 && v < n ? words[v] : "?";
}

static bool parse_word(const char *const *words, int n, const char *w, int *v) {
    for (int i = 0; w != NULL && i < n; i++)
        if (strcmp(words[i], w) == 0) {
            *v = i;
            return true;
        }
    return false;
}

const char *abs_run_status_word(abs_run_status v) {
    return word_of(run_words, ABS_NRUN_STATUSES, (int)v);
}


/* The value whose word is w; false (and *v untouched) when there is none. */
static bool abs_run_status_parse(const char *w, abs_run_status *v) {
    int i;
    if (!parse_word(run_words, ABS_NRUN_STATUSES, w, &i)) return false;
    *v = (abs_run_status)i;
    return true;
}

/* ---- errors -------------------------------------------------------------- */

/* The ab_status for an SQLite result code (extended) and the system errno
 * behind it: a disk or permission problem (full, a file-size limit, read
 * only, cannot open, a write that failed) is the user's to fix, as a bad
 * input is (exit 2), like every other command's write failure. */
static ab_status code_status(int code, int sys) {
    switch (code & 0xff) {
    case SQLITE_NOMEM: return AB_ENOMEM;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_CONSTRAINT:
    case SQLITE_MISMATCH:
    case SQLITE_TOOBIG:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM: return AB_EINPUT;
    case SQLITE_IOERR:
        return code == SQLITE_IOERR_WRITE || code == SQLITE_IOERR_FSYNC ||
                       code == SQLITE_IOERR_TRUNCATE || sys == ENOSPC || sys == EFBIG ||
                       sys == EDQUOT || sys == EROFS || sys == EACCES || sys == EPERM
                   ? AB_EINPUT
                   : AB_EINTERNAL;
    default: return AB_EINTERNAL;
    }
}

/* Fails with "PATH: <what>: <sqlite3_errmsg>" and the status of the last
 * SQLite error. Call it before any rollback, which resets the message. */
__attribute__((format(printf, 3, 4)))
static ab_status db_fail(abs_store *s, ab_error *err, const char *fmt, ...) {
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    int code = sqlite3_extended_errcode(s->db);
    int sys = sqlite3_system_errno(s->db);
    const char *why = NULL; /* the cause behind an I/O error, when known */
    if ((code & 0xff) == SQLITE_IOERR || (code & 0xff) == SQLITE_CANTOPEN)
        why = sys != 0 ? strerror(sys) : NULL;
    if (why == NULL && (code == SQLITE_IOERR_WRITE || (code & 0xff) == SQLITE_FULL))
        why = "a write failed: is the disk full?";
    return ab_fail(err, code_status(code, sys), "%s: %s: %s%s%s%s", s->path, what,
                   sqlite3_errmsg(s->db), why ? " (" : "", why ? why : "", why ? ")" : "");
}

static ab_status oom(abs_store *s, ab_error *err) {
    return ab_fail(err, AB_ENOMEM, "%s: out of memory", s->path);
}

/* ---- statements -------------------------------------------------------------
 * A binder and a reader walk parameters and columns in order; the first
 * failure sticks, so a sequence of calls is checked once at its end. */
typedef struct binder {
    sqlite3_stmt *st;
    int i;  /* the last parameter bound (1-based) */
    int rc; /* the first failure, or SQLITE_OK */
} binder;

static void b_done(binder *b, int rc) {
    if (b->rc == SQLITE_OK) b->rc = rc;
}
static void b_i64(binder *b, int64_t v) {
    b->i++;
    b_done(b, v == AB_NONE ? sqlite3_bind_null(b->st, b->i) : sqlite3_bind_int64(b->st, b->i, v));
}
static void b_str(binder *b, const char *s) {
    b->i++;
    b_done(b, s == NULL ? sqlite3_bind_null(b->st, b->i)
                        : sqlite3_bind_text(b->st, b->i, s, -1, SQLITE_TRANSIENT));
}
static void b_text(binder *b, const char *s, size_t len) {
    b->i++;
    b_done(b, sqlite3_bind_text64(b->st, b->i, s, len, SQLITE_TRANSIENT, SQLITE_UTF8));
}
static void b_real(binder *b, double v) {
    b->i++;
    b_done(b, v >= 0 ? sqlite3_bind_double(b->st, b->i, v) : sqlite3_bind_null(b->st, b->i));
}
static void b_blob(binder *b, const void *p, size_t len) {
    static const unsigned char empty = 0; /* a NULL pointer would bind NULL */
    b->i++;
    b_done(b, sqlite3_bind_blob64(b->st, b->i, len ? p : &empty, len, SQLITE_TRANSIENT));
}

typedef struct reader {
    sqlite3_stmt *st;
    int i;          /* the next column (0-based) */
    abs_pool **pool;/* where strings go */
    bool oom;       /* a string could not be copied */
} reader;

static int64_t c_i64(reader *c) {
    int i = c->i++;
    return sqlite3_column_type(c->st, i) == SQLITE_NULL ? AB_NONE
                                                        : sqlite3_column_int64(c->st, i);
}
static double c_real(reader *c) {
    int i = c->i++;
    return sqlite3_column_type(c->st, i) == SQLITE_NULL ? -1.0 : sqlite3_column_double(c->st, i);
}
static const char *c_str(reader *c) {
    int i = c->i++;
    const unsigned char *t = sqlite3_column_text(c->st, i);
    if (t == NULL) return NULL;
    const char *d = pool_dup(c->pool, (const char *)t, (size_t)sqlite3_column_bytes(c->st, i));
    if (d == NULL) c->oom = true;
    return d;
}
/* Copies a 64-digit hash column into out ("" when NULL or malformed). */
static void c_hash(reader *c, char out[ABS_SHA256_HEX]) {
    int i = c->i++;
    const unsigned char *t = sqlite3_column_text(c->st, i);
    out[0] = '\0';
    if (t != NULL && sqlite3_column_bytes(c->st, i) == ABS_SHA256_HEX - 1)
        memcpy(out, t, ABS_SHA256_HEX);
}

static int prepare(abs_store *s, const char *sql, sqlite3_stmt **st) {
    return sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
}

/* Steps a statement that returns no rows we need; SQLITE_OK on success. */
static int step_done(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : rc;
}

/* Runs one constant statement with no parameters and no result rows. */
static ab_status exec(abs_store *s, const char *sql, const char *what, ab_error *err) {
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) return db_fail(s, err, "%s", what);
    return AB_OK;
}

/* Reads the single integer a query returns (0 when it returns no row). */
static int query_int(abs_store *s, const char *sql, int64_t *v) {
    sqlite3_stmt *st;
    int rc = prepare(s, sql, &st);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_step(st);
    *v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) rc = SQLITE_OK;
    sqlite3_finalize(st);
    return rc;
}

/* ---- transactions -------------------------------------------------------- */

static ab_status tx_begin(abs_store *s, ab_error *err) {
    return exec(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
}

static void tx_rollback(abs_store *s) {
    if (!sqlite3_get_autocommit(s->db)) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Commits; on failure (a full disk, say) rolls back and reports it. */
static ab_status tx_commit(abs_store *s, const char *what, ab_error *err) {
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK) return AB_OK;
    ab_status rc = db_fail(s, err, "%s", what);
    tx_rollback(s);
    return rc;
}

/* ---- opening ------------------------------------------------------------- */

/* The folder of path, owned by the caller ("." when path names no folder). */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (slash == NULL) return ab_strdup(".");
    if (slash == path) return ab_strdup("/");
    return ab_strndup(path, (size_t)(slash - path));
}

/* Checks, before SQLite touches anything, that path can be opened as asked:
 * an existing file (not a folder), or a folder that exists and is writable
 * for a new one. Sets *exists. Messages name the path and the folder. */
static ab_status check_place(const char *path, unsigned flags, bool *exists, ab_error *err) {
    struct stat st;
    bool ro = flags & ABS_OPEN_READONLY;
    *exists = false;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return ab_fail(err, AB_EINPUT, "%s: is a folder, not a database", path);
        *exists = true;
        if (ro) return AB_OK;
        if (access(path, R_OK | W_OK) != 0)
            return ab_fail(err, AB_EINPUT, "%s: the database is not writable: %s", path,
                           strerror(errno));
    } else if (errno != ENOENT && errno != ENOTDIR) {
        return ab_fail(err, AB_EINPUT, "%s: cannot open the database: %s", path, strerror(errno));
    } else if (ro || !(flags & ABS_OPEN_CREATE)) {
        return ab_fail(err, AB_EINPUT, "%s: no such database", path);
    }
    char *dir = dir_of(path);
    if (dir == NULL) return ab_fail(err, AB_ENOMEM, "%s: out of memory", path);
    const char *verb = *exists ? "cannot write the database" : "cannot create the database";
    ab_status rc = AB_OK;
    if (stat(dir, &st) != 0)
        rc = ab_fail(err, AB_EINPUT, "%s: %s: folder '%s': %s", path, verb, dir,
                     errno == ENOENT ? "does not exist" : strerror(errno));
    else if (!S_ISDIR(st.st_mode))
        rc = ab_fail(err, AB_EINPUT, "%s: %s: '%s' is not a folder", path, verb, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        rc = ab_fail(err, AB_EINPUT, "%s: %s: folder '%s' is not writable (SQLite keeps "
                     "its -wal and -shm files beside the database)", path, verb, dir);
    ab_free(dir);
    return rc;
}

/* Removes a database file this call created, and its companions. */
static void remove_created(const char *path) {
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    size_t n = strlen(path) + 16;
    char *p = ab_malloc(n);
    if (p == NULL) return;
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        snprintf(p, n, "%s%s", path, ext[i]);
        unlink(p);
    }
    ab_free(p);
}

/* The migration step from version v, or NULL. */
static const abs_migration *find_step(const abs_store *s, int v) {
    for (size_t i = 0; i < s->sch.n; i++)
        if (s->sch.steps[i].from == v && s->sch.steps[i].sql != NULL) return &s->sch.steps[i];
    return NULL;
}

/* Refuses a file that is not ours or is newer than this code. */
static ab_status check_identity(abs_store *s, int64_t app, int64_t version, int64_t tables,
                                ab_error *err) {
    if (app != 0 && app != ABS_APPLICATION_ID)
        return ab_fail(err, AB_EINPUT, "%s: not an arenabench results database "
                       "(application_id %lld)", s->path, (long long)app);
    if (version > s->sch.version)
        return ab_fail(err, AB_EINPUT, "%s: schema version %lld is newer than this arenabench "
                       "knows (%d); use a newer arenabench", s->path, (long long)version,
                       s->sch.version);
    if ((version == 0 && tables > 0) || (version > 0 && app == 0))
        return ab_fail(err, AB_EINPUT, "%s: not an arenabench results database (user_version "
                       "%lld, %lld tables)", s->path, (long long)version, (long long)tables);
    return AB_OK;
}

/* Reads the identity of the file: application id, version, table count. */
static ab_status read_identity(abs_store *s, int64_t *app, int64_t *version, int64_t *tables,
                               ab_error *err) {
    if (query_int(s, "PRAGMA application_id", app) != SQLITE_OK ||
        query_int(s, "PRAGMA user_version", version) != SQLITE_OK ||
        query_int(s, "SELECT count(*) FROM sqlite_schema WHERE type = 'table'", tables) !=
            SQLITE_OK)
        return db_fail(s, err, "cannot read the schema version");
    return AB_OK;
}

/* Brings the file to s->sch.version inside the caller's transaction: schema.sql
 * on an empty file, then one step per version. */
static ab_status migrate(abs_store *s, int64_t version, ab_error *err) {
    if (version == 0) {
        ab_status rc = exec(s, (const char *)abs_schema_sql, "cannot create the schema", err);
        if (rc != AB_OK) return rc;
        if (query_int(s, "PRAGMA user_version", &version) != SQLITE_OK)
            return db_fail(s, err, "cannot read the schema version");
        if (version < 1 || version > s->sch.version)
            return ab_fail(err, AB_EINTERNAL, "%s: schema.sql sets version %lld but the code "
                           "knows version %d", s->path, (long long)version, s->sch.version);
    }
    while (version < s->sch.version) {
        const abs_migration *step = find_step(s, (int)version);
        if (step == NULL)
            return ab_fail(err, AB_EINTERNAL, "%s: no migration from schema version %lld "
                           "to %d", s->path, (long long)version, s->sch.version);
        if (sqlite3_exec(s->db, step->sql, NULL, NULL, NULL) != SQLITE_OK)
            return db_fail(s, err, "cannot migrate from schema version %lld",
                           (long long)version);
        int64_t now;
        if (query_int(s, "PRAGMA user_version", &now) != SQLITE_OK)
            return db_fail(s, err, "cannot read the schema version");
        if (now != version + 1)
            return ab_fail(err, AB_EINTERNAL, "%s: the migration from version %lld left "
                           "version %lld", s->path, (long long)version, (long long)now);
        version = now;
    }
    return AB_OK;
}

/* The kinds the oracle knows, each a row of its table: the kinds of bound
 * (oracle/bound.h) in bound_kinds, from version 4, and of proof
 * (oracle/certify.h) in proof_kinds, from version 5. A new kind takes its row
 * the first time a file is opened for writing by code that knows it, with no
 * migration. */
static ab_status seed_kinds(abs_store *s, ab_error *err) {
    static const struct {
        const char *sql;
        int version;
    } tables[] = {{"INSERT INTO bound_kinds (word) VALUES (?) ON CONFLICT DO NOTHING", 4},
                  {"INSERT INTO proof_kinds (word) VALUES (?) ON CONFLICT DO NOTHING", 5}};
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        if (s->sch.version < tables[t].version) continue;
        sqlite3_stmt *st;
        if (prepare(s, tables[t].sql, &st) != SQLITE_OK)
            return db_fail(s, err, "cannot list the kinds of bound and proof");
        int rc = SQLITE_OK, n = t == 0 ? ABO_NBOUND_KINDS : ABO_NPROOFS;
        for (int k = 0; rc == SQLITE_OK && k < n; k++) {
            const char *w = t == 0 ? abo_bound_kind_word((abo_bound_kind)k)
                                   : abo_proof_word((abo_proof)k);
            sqlite3_reset(st);
            rc = sqlite3_bind_text(st, 1, w, -1, SQLITE_STATIC);
            if (rc == SQLITE_OK) rc = step_done(st);
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_OK) return db_fail(s, err, "cannot list the kinds of bound and proof");
    }
    return AB_OK;
}

/* Checks the file's version, creating or migrating it when writable. */
static ab_status upgrade(abs_store *s, bool ro, ab_error *err) {
    int64_t app = 0, version = 0, tables = 0;
    if (ro) {
        ab_status rc = read_identity(s, &app, &version, &tables, err);
        if (rc == AB_OK) rc = check_identity(s, app, version, tables, err);
        if (rc == AB_OK && version == 0)
            rc = ab_fail(err, AB_EINPUT, "%s: the database is empty", s->path);
        else if (rc == AB_OK && version < s->sch.version)
            rc = ab_fail(err, AB_EINPUT, "%s: schema version %lld is older than %d: open it "
                         "once for writing to migrate it", s->path, (long long)version,
                         s->sch.version);
        return rc;
    }
    ab_status rc = tx_begin(s, err);
    if (rc != AB_OK) return rc;
    rc = read_identity(s, &app, &version, &tables, err);
    if (rc == AB_OK) rc = check_identity(s, app, version, tables, err);
    if (rc == AB_OK && version < s->sch.version) rc = migrate(s, version, err);
    if (rc == AB_OK) rc = seed_kinds(s, err);
    if (rc != AB_OK) {
        tx_rollback(s);
        return rc;
    }
    return tx_commit(s, "cannot commit the schema", err);
}

/* Sets the connection's options: extended codes, busy timeout, foreign keys. */
static ab_status configure(abs_store *s, ab_error *err) {
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, ABS_BUSY_TIMEOUT_MS);
    return exec(s, "PRAGMA foreign_keys = ON", "cannot enable foreign keys", err);
}

/* Switches a file known to be ours to WAL (kept in the file) and sets
 * synchronous = NORMAL (per connection). */
static ab_status use_wal(abs_store *s, ab_error *err) {
    ab_status rc = AB_OK;
    sqlite3_stmt *st;
    if (prepare(s, "PRAGMA journal_mode = WAL", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot switch to WAL mode");
    int step = sqlite3_step(st);
    const unsigned char *mode = step == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
    bool wal = mode != NULL && strcmp((const char *)mode, "wal") == 0;
    bool memory = mode != NULL && strcmp((const char *)mode, "memory") == 0;
    if (step != SQLITE_ROW) rc = db_fail(s, err, "cannot switch to WAL mode");
    else if (!wal && !memory)
        rc = ab_fail(err, AB_EINTERNAL, "%s: cannot switch to WAL mode (journal mode is %s)",
                     s->path, (const char *)mode);
    sqlite3_finalize(st);
    if (rc == AB_OK) rc = exec(s, "PRAGMA synchronous = NORMAL", "cannot set synchronous", err);
    return rc;
}

ab_status abs_open(const char *path, unsigned flags, abs_store **out, ab_error *err) {
    return abs_open_schema(path, flags, NULL, out, err);
}

ab_status abs_open_schema(const char *path, unsigned flags, const abs_schema *schema,
                          abs_store **out, ab_error *err) {
    *out = NULL;
    if (path == NULL || *path == '\0') return ab_fail(err, AB_EINPUT, "no database path given");
    bool ro = flags & ABS_OPEN_READONLY, exists;
    ab_status rc = check_place(path, flags, &exists, err);
    if (rc != AB_OK) return rc;
    abs_store *s = ab_calloc(1, sizeof *s);
    if (s == NULL || (s->path = ab_strdup(path)) == NULL) {
        ab_free(s);
        return ab_fail(err, AB_ENOMEM, "%s: out of memory", path);
    }
    s->sch = schema != NULL ? *schema : builtin_schema;
    /* A path starting "file:" would be read as a URI by some SQLite builds. */
    char *name = strncmp(path, "file:", 5) == 0 ? ab_malloc(strlen(path) + 3) : NULL;
    if (name != NULL) snprintf(name, strlen(path) + 3, "./%s", path);
    int oflags = ro ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    int orc = sqlite3_open_v2(name != NULL ? name : path, &s->db, oflags, NULL);
    ab_free(name);
    if (orc != SQLITE_OK) {
        rc = ab_fail(err, code_status(orc, s->db != NULL ? sqlite3_system_errno(s->db) : 0),
                     "%s: cannot open the database: %s", path,
                     s->db != NULL ? sqlite3_errmsg(s->db) : sqlite3_errstr(orc));
    } else if (!ro && sqlite3_db_readonly(s->db, "main") == 1) {
        rc = ab_fail(err, AB_EINPUT, "%s: the database is read-only", path);
    } else {
        rc = configure(s, err);
        if (rc == AB_OK) rc = upgrade(s, ro, err); /* before WAL: never alter a foreign file */
        if (rc == AB_OK && !ro) rc = use_wal(s, err);
    }
    if (rc != AB_OK) {
        abs_close(s);
        if (!exists) remove_created(path);
        return rc;
    }
    *out = s;
    return AB_OK;
}

void abs_close(abs_store *s) {
    if (s == NULL) return;
    sqlite3_close_v2(s->db);
    ab_free(s->path);
    ab_free(s);
}

const char *abs_path(const abs_store *s) { return s->path; }

/* ---- integrity ----------------------------------------------------------- */

/* Appends "; text" (or text) to buf of size len, cutting when full. */
static void append(char *buf, size_t len, const char *text) {
    size_t used = strlen(buf);
    if (used + 1 < len) snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

ab_status abs_check(abs_store *s, ab_error *err) {
    char found[768] = "";
    char line[512];
    sqlite3_stmt *st;
    int rc = prepare(s, "PRAGMA integrity_check(8)", &st);
    if (rc != SQLITE_OK) return db_fail(s, err, "cannot run the integrity check");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (t != NULL && strcmp(t, "ok") != 0) append(found, sizeof found, t);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return db_fail(s, err, "cannot run the integrity check");
    rc = prepare(s, "PRAGMA foreign_key_check", &st);
    if (rc != SQLITE_OK) return db_fail(s, err, "cannot run the foreign key check");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        snprintf(line, sizeof line, "row %lld of %s refers to a missing row of %s",
                 (long long)sqlite3_column_int64(st, 1), (const char *)sqlite3_column_text(st, 0),
                 (const char *)sqlite3_column_text(st, 2));
        append(found, sizeof found, line);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return db_fail(s, err, "cannot run the foreign key check");
    if (found[0] != '\0')
        return ab_fail(err, AB_ECHECK, "%s: integrity check failed: %s", s->path, found);
    return AB_OK;
}

/* ---- runs ---------------------------------------------------------------- */

ab_status abs_run_begin(abs_store *s, const abs_run *info, int64_t *id, ab_error *err) {
    *id = 0;
    sqlite3_stmt *st;
    if (prepare(s, "INSERT INTO runs (run_key, tag, revision, host, command, started, status) "
                   "VALUES (coalesce(?, lower(hex(randomblob(16)))), ?, ?, ?, ?, " NOW_SQL
                   ", 'running')", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot begin a run");
    binder b = {st, 0, SQLITE_OK};
    b_str(&b, info->key);
    b_str(&b, info->tag);
    b_str(&b, info->revision);
    b_str(&b, info->host);
    b_str(&b, info->command);
    int rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    ab_status out = AB_OK;
    if (rc == SQLITE_CONSTRAINT_UNIQUE)
        out = ab_fail(err, AB_EINPUT, "%s: cannot begin a run: the run key '%s' is taken",
                      s->path, info->key);
    else if (rc != SQLITE_OK) out = db_fail(s, err, "cannot begin a run");
    else *id = sqlite3_last_insert_rowid(s->db);
    sqlite3_finalize(st);
    return out;
}

ab_status abs_run_finish(abs_store *s, int64_t run, abs_run_status status, ab_error *err) {
    if (status <= ABS_RUN_RUNNING || status >= ABS_NRUN_STATUSES)
        return ab_fail(err, AB_EINPUT, "%s: cannot finish run %lld as '%s'", s->path,
                       (long long)run, abs_run_status_word(status));
    sqlite3_stmt *st;
    if (prepare(s, "UPDATE runs SET finished = " NOW_SQL ", status = ? WHERE id = ?", &st) !=
        SQLITE_OK)
        return db_fail(s, err, "cannot finish run %lld", (long long)run);
    binder b = {st, 0, SQLITE_OK};
    b_str(&b, abs_run_status_word(status));
    b_i64(&b, run);
    int rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    ab_status out = AB_OK;
    if (rc != SQLITE_OK) out = db_fail(s, err, "cannot finish run %lld", (long long)run);
    else if (sqlite3_changes(s->db) == 0)
        out = ab_fail(err, AB_EINPUT, "%s: no run %lld", s->path, (long long)run);
    sqlite3_finalize(st);
    return out;
}

ab_status abs_run_get(abs_store *s, int64_t run, abs_run *out, ab_error *err) {
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    if (prepare(s, "SELECT id, run_key, tag, revision, host, command, started, finished, status "
                   "FROM runs WHERE id = ?", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read run %lld", (long long)run);
    ab_status rc = AB_OK;
    int step = sqlite3_bind_int64(st, 1, run);
    if (step == SQLITE_OK) step = sqlite3_step(st);
    if (step == SQLITE_DONE) {
        rc = ab_fail(err, AB_EINPUT, "%s: no run %lld", s->path, (long long)run);
    } else if (step != SQLITE_ROW) {
        rc = db_fail(s, err, "cannot read run %lld", (long long)run);
    } else {
        reader c = {st, 0, &out->pool_, false};
        out->id = c_i64(&c);
        out->key = c_str(&c);
        out->tag = c_str(&c);
        out->revision = c_str(&c);
        out->host = c_str(&c);
        out->command = c_str(&c);
        out->started = c_str(&c);
        out->finished = c_str(&c);
        const unsigned char *w = sqlite3_column_text(st, c.i);
        if (c.oom) rc = oom(s, err);
        else if (!abs_run_status_parse((const char *)w, &out->status))
            rc = ab_fail(err, AB_EINPUT, "%s: run %lld has an unknown status", s->path,
                         (long long)run);
    }
    sqlite3_finalize(st);
    if (rc != AB_OK) abs_run_free(out);
    return rc;
}

void abs_run_free(abs_run *r) {
    if (r == NULL) return;
    pool_free(r->pool_);
    memset(r, 0, sizeof *r);
}

/* Runs a query returning one run id (or none) with integer/text parameters. */
static ab_status query_id(abs_store *s, const char *sql, const char *text, int64_t num,
                          int64_t *id, const char *what, ab_error *err) {
    *id = 0;
    sqlite3_stmt *st;
    if (prepare(s, sql, &st) != SQLITE_OK) return db_fail(s, err, "%s", what);
    binder b = {st, 0, SQLITE_OK};
    if (num != AB_NONE) b_i64(&b, num);
    else b_str(&b, text);
    int rc = b.rc == SQLITE_OK ? sqlite3_step(st) : b.rc;
    ab_status out = AB_OK;
    if (rc == SQLITE_ROW) *id = sqlite3_column_int64(st, 0);
    else if (rc != SQLITE_DONE) out = db_fail(s, err, "%s", what);
    sqlite3_finalize(st);
    return out;
}

ab_status abs_run_latest(abs_store *s, const char *tag, int64_t *run, ab_error *err) {
    return query_id(s, "SELECT id FROM runs WHERE ?1 IS NULL OR tag = ?1 "
                       "ORDER BY started DESC, id DESC LIMIT 1",
                    tag, AB_NONE, run, "cannot find the latest run", err);
}

ab_status abs_run_previous(abs_store *s, int64_t run, int64_t *prev, ab_error *err) {
    int64_t exists;
    ab_status rc = query_id(s, "SELECT id FROM runs WHERE id = ?", NULL, run, &exists,
                            "cannot find the previous run", err);
    if (rc != AB_OK) return rc;
    if (exists == 0) {
        *prev = 0;
        return ab_fail(err, AB_EINPUT, "%s: no run %lld", s->path, (long long)run);
    }
    return query_id(s, "SELECT p.id FROM runs p JOIN runs r ON r.id = ?1 "
                       "WHERE p.tag IS r.tag AND (p.started < r.started OR "
                       "(p.started = r.started AND p.id < r.id)) "
                       "ORDER BY p.started DESC, p.id DESC LIMIT 1",
                    NULL, run, prev, "cannot find the previous run", err);
}

/* ---- suites -------------------------------------------------------------- */

static ab_status put_view(abs_store *s, int64_t suite, const ab_problem *v, ab_error *err);

void abs_suite_init(abs_suite *su) {
    memset(su, 0, sizeof *su);
    su->tensors = su->lower_bound = su->optimum = AB_NONE;
    su->logical_bytes = su->physical_bytes = su->peak_live_bytes = su->io_bytes = AB_NONE;
    su->capacity = su->pools = AB_NONE;
}

ab_status abs_suite_put(abs_store *s, const abs_suite *su, int64_t *id, ab_error *err) {
    *id = 0;
    if (su->name == NULL || su->text == NULL || su->tensors < 0)
        return ab_fail(err, AB_EINPUT, "%s: a suite needs a name, its text and a tensor count",
                       s->path);
    char hash[ABS_SHA256_HEX];
    abs_sha256_hex(su->text, su->text_len, hash);
    ab_status rc = tx_begin(s, err);
    if (rc != AB_OK) return rc;
    sqlite3_stmt *st;
    if (prepare(s, "INSERT INTO suites (name, hash, tensors, lower_bound, optimum, "
                   "logical_bytes, physical_bytes, peak_live_bytes, io_bytes, source, text, "
                   "capacity, pools, stored_version) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING",
                &st) != SQLITE_OK) {
        rc = db_fail(s, err, "cannot store suite '%s'", su->name);
        tx_rollback(s);
        return rc;
    }
    binder b = {st, 0, SQLITE_OK};
    b_str(&b, su->name);
    b_str(&b, hash);
    b_i64(&b, su->tensors);
    b_i64(&b, su->lower_bound);
    b_i64(&b, su->optimum);
    b_i64(&b, su->logical_bytes);
    b_i64(&b, su->physical_bytes);
    b_i64(&b, su->peak_live_bytes);
    b_i64(&b, su->io_bytes);
    b_str(&b, su->source);
    b_text(&b, su->text, su->text_len);
    b_i64(&b, su->capacity_known ? su->capacity : AB_NONE);
    b_i64(&b, su->capacity_known ? su->pools : AB_NONE);
    b_i64(&b, su->capacity_known ? s->sch.version : AB_NONE);
    int step = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    sqlite3_finalize(st);
    if (step == SQLITE_OK)
        rc = query_id(s, "SELECT id FROM suites WHERE hash = ?", hash, AB_NONE, id,
                      "cannot find the stored suite", err);
    else rc = db_fail(s, err, "cannot store suite '%s'", su->name);
    if (rc == AB_OK && su->view != NULL) rc = put_view(s, *id, su->view, err);
    if (rc == AB_OK) rc = tx_commit(s, "cannot commit the suite", err);
    else tx_rollback(s);
    if (rc != AB_OK) *id = 0;
    return rc;
}

/* ---- a suite's arena view (version 5) ----------------------------------------- */

/* Stores view v as suite `suite`'s, unless it has one; inside the caller's
 * transaction. */
static ab_status put_view(abs_store *s, int64_t suite, const ab_problem *v, ab_error *err) {
    int64_t have = 0;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT view_tensors IS NOT NULL FROM suites WHERE id = ?", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read suite %lld", (long long)suite);
    int rc = sqlite3_bind_int64(st, 1, suite);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) have = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return db_fail(s, err, "cannot read suite %lld", (long long)suite);
    if (have) return AB_OK;
    if (prepare(s, "INSERT INTO suite_tensors (suite, idx, name, size, first, last, align, "
                   "offset) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot store the tensors of suite %lld", (long long)suite);
    rc = SQLITE_OK;
    for (size_t i = 0; i < v->n && rc == SQLITE_OK; i++) {
        const ab_tensor *t = &v->t[i];
        sqlite3_reset(st);
        binder b = {st, 0, SQLITE_OK};
        b_i64(&b, suite);
        b_i64(&b, (int64_t)i);
        b_str(&b, t->name ? t->name : "");
        b_i64(&b, t->size);
        b_i64(&b, t->start);
        b_i64(&b, t->end);
        b_i64(&b, t->align);
        b_i64(&b, t->offset);
        rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_OK)
        return db_fail(s, err, "cannot store the tensors of suite %lld", (long long)suite);
    if (prepare(s, "INSERT INTO suite_pools (suite, idx, name, size) VALUES (?, ?, ?, ?)", &st) !=
        SQLITE_OK)
        return db_fail(s, err, "cannot store the pools of suite %lld", (long long)suite);
    for (size_t k = 0; k < v->npools && rc == SQLITE_OK; k++) {
        sqlite3_reset(st);
        binder b = {st, 0, SQLITE_OK};
        b_i64(&b, suite);
        b_i64(&b, (int64_t)k);
        b_str(&b, v->pools[k].name ? v->pools[k].name : "");
        b_i64(&b, v->pools[k].size);
        rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_OK)
        return db_fail(s, err, "cannot store the pools of suite %lld", (long long)suite);
    if (prepare(s, "UPDATE suites SET view_tensors = ?, view_capacity = ? WHERE id = ?", &st) !=
        SQLITE_OK)
        return db_fail(s, err, "cannot store the view of suite %lld", (long long)suite);
    binder b = {st, 0, SQLITE_OK};
    b_i64(&b, (int64_t)v->n);
    b_i64(&b, v->capacity);
    b_i64(&b, suite);
    rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    sqlite3_finalize(st);
    return rc == SQLITE_OK ? AB_OK
                           : db_fail(s, err, "cannot store the view of suite %lld", (long long)suite);
}

ab_status abs_suite_put_view(abs_store *s, int64_t suite, const ab_problem *view, ab_error *err) {
    ab_status rc = tx_begin(s, err);
    if (rc != AB_OK) return rc;
    rc = put_view(s, suite, view, err);
    if (rc == AB_OK) rc = tx_commit(s, "cannot commit the suite's view", err);
    else tx_rollback(s);
    return rc;
}

ab_status abs_suites_without_view(abs_store *s, int64_t **ids, size_t *n, ab_error *err) {
    *ids = NULL;
    *n = 0;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT id FROM suites WHERE view_tensors IS NULL ORDER BY id", &st) !=
        SQLITE_OK)
        return db_fail(s, err, "cannot list the suites");
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!ab_grow((void **)ids, &cap, *n + 1, sizeof **ids)) {
            sqlite3_finalize(st);
            ab_free(*ids);
            *ids = NULL;
            *n = 0;
            return oom(s, err);
        }
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_DONE) return AB_OK;
    ab_free(*ids);
    *ids = NULL;
    *n = 0;
    return db_fail(s, err, "cannot list the suites");
}

/* Reads the view's header (name, counts, capacity) into *out; AB_EINPUT when
 * the suite has no stored view. */
static ab_status view_header(abs_store *s, int64_t suite, ab_problem *out, int64_t *n,
                             ab_error *err) {
    sqlite3_stmt *st;
    if (prepare(s, "SELECT name, view_tensors, view_capacity FROM suites WHERE id = ?", &st) !=
        SQLITE_OK)
        return db_fail(s, err, "cannot read suite %lld", (long long)suite);
    int rc = sqlite3_bind_int64(st, 1, suite);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    ab_status out_st = AB_OK;
    if (rc == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        bool stored = sqlite3_column_type(st, 1) != SQLITE_NULL;
        *n = sqlite3_column_int64(st, 1);
        out->capacity = sqlite3_column_type(st, 2) == SQLITE_NULL ? AB_NONE
                                                                  : sqlite3_column_int64(st, 2);
        if (!stored)
            out_st = ab_fail(err, AB_EINPUT, "%s: suite '%s' was stored before schema version 5, "
                             "without its tensors: a `run` into this file stores them",
                             s->path, name ? name : "?");
        else if ((out->name = ab_strdup(name ? name : "")) == NULL)
            out_st = oom(s, err);
    } else if (rc == SQLITE_DONE) {
        out_st = ab_fail(err, AB_EINPUT, "%s: no suite %lld", s->path, (long long)suite);
    } else {
        out_st = db_fail(s, err, "cannot read suite %lld", (long long)suite);
    }
    sqlite3_finalize(st);
    return out_st;
}

/* Reads the view's pools into out. */
static ab_status view_pools(abs_store *s, int64_t suite, ab_problem *out, ab_error *err) {
    sqlite3_stmt *st;
    if (prepare(s, "SELECT name, size FROM suite_pools WHERE suite = ? ORDER BY idx", &st) !=
        SQLITE_OK)
        return db_fail(s, err, "cannot read the pools of suite %lld", (long long)suite);
    int rc = sqlite3_bind_int64(st, 1, suite);
    size_t cap = 0;
    ab_status out_st = AB_OK;
    while (rc == SQLITE_OK && out_st == AB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (out->npools >= AB_MAX_POOLS) {
            out_st = ab_fail(err, AB_EINPUT, "%s: suite %lld has more than %d pools", s->path,
                             (long long)suite, AB_MAX_POOLS);
        } else if (!ab_grow((void **)&out->pools, &cap, out->npools + 1, sizeof *out->pools)) {
            out_st = oom(s, err);
        } else {
            ab_pool *pl = &out->pools[out->npools];
            const char *name = (const char *)sqlite3_column_text(st, 0);
            pl->size = sqlite3_column_type(st, 1) == SQLITE_NULL ? AB_NONE
                                                                 : sqlite3_column_int64(st, 1);
            pl->name = ab_strdup(name ? name : "");
            if (pl->name == NULL) out_st = oom(s, err);
            else out->npools++;
        }
    }
    sqlite3_finalize(st);
    if (out_st == AB_OK && rc != SQLITE_DONE && rc != SQLITE_OK)
        out_st = db_fail(s, err, "cannot read the pools of suite %lld", (long long)suite);
    return out_st;
}

/* Reads the view's n tensors into out, checking each as the loaders would. */
static ab_status view_tensors(abs_store *s, int64_t suite, int64_t n, ab_problem *out,
                              ab_error *err) {
    sqlite3_stmt *st;
    if (prepare(s, "SELECT name, size, first, last, align, offset FROM suite_tensors "
                   "WHERE suite = ? ORDER BY idx", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read the tensors of suite %lld", (long long)suite);
    int rc = sqlite3_bind_int64(st, 1, suite);
    ab_status out_st = AB_OK;
    while (rc == SQLITE_OK && out_st == AB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        ab_tensor t = {.name = (char *)sqlite3_column_text(st, 0),
                       .size = sqlite3_column_int64(st, 1),
                       .start = sqlite3_column_int64(st, 2),
                       .end = sqlite3_column_int64(st, 3),
                       .align = sqlite3_column_int64(st, 4),
                       .offset = sqlite3_column_type(st, 5) == SQLITE_NULL
                                     ? AB_NONE : sqlite3_column_int64(st, 5)};
        if (t.name == NULL) t.name = (char *)"";
        if (t.size < 1 || t.size > AB_MAX_SIZE || t.start < 0 || t.end < t.start ||
            t.end > AB_MAX_SIZE || t.align < 1 || (t.align & (t.align - 1)) != 0) {
            out_st = ab_fail(err, AB_EINPUT, "%s: suite %lld: stored tensor %zu ('%.100s') is "
                             "malformed", s->path, (long long)suite, out->n, t.name);
            break;
        }
        t.logical_bits = t.size * 8;
        out_st = ab_problem_add(out, &t, err);
    }
    sqlite3_finalize(st);
    if (out_st == AB_OK && rc != SQLITE_DONE && rc != SQLITE_OK)
        out_st = db_fail(s, err, "cannot read the tensors of suite %lld", (long long)suite);
    if (out_st == AB_OK && (int64_t)out->n != n)
        out_st = ab_fail(err, AB_EINPUT, "%s: suite %lld has %zu stored tensors, not the %lld "
                         "its row counts", s->path, (long long)suite, out->n, (long long)n);
    return out_st;
}

ab_status abs_suite_view(abs_store *s, int64_t suite, ab_problem *out, ab_error *err) {
    ab_problem_init(out);
    int64_t n = 0;
    ab_status st = view_header(s, suite, out, &n, err);
    if (st == AB_OK) st = view_pools(s, suite, out, err);
    if (st == AB_OK) st = view_tensors(s, suite, n, out, err);
    if (st != AB_OK) ab_problem_free(out);
    return st;
}

ab_status abs_suite_text(abs_store *s, int64_t suite, char **text, size_t *len, ab_error *err) {
    *text = NULL;
    if (len) *len = 0;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT text FROM suites WHERE id = ?", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read suite %lld", (long long)suite);
    int rc = sqlite3_bind_int64(st, 1, suite);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    ab_status out = AB_OK;
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        size_t n = (size_t)sqlite3_column_bytes(st, 0);
        *text = ab_strndup(t ? t : "", t ? n : 0);
        if (*text == NULL) out = oom(s, err);
        else if (len) *len = n;
    } else if (rc == SQLITE_DONE) {
        out = ab_fail(err, AB_EINPUT, "%s: no suite %lld", s->path, (long long)suite);
    } else {
        out = db_fail(s, err, "cannot read suite %lld", (long long)suite);
    }
    sqlite3_finalize(st);
    return out;
}

/* ---- plans ------------------------------------------------------------------
 * Encoding (schema.sql): per offset, zigzag then unsigned LEB128. */

/* Encodes n offsets into *blob (owned by the caller) of *len bytes. */
static bool plan_encode(const int64_t *off, size_t n, unsigned char **blob, size_t *len) {
    unsigned char *p = ab_alloc_array(n ? n : 1, 10);
    if (p == NULL) return false;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t z = (uint64_t)off[i] << 1 ^ (off[i] < 0 ? UINT64_MAX : 0);
        while (z >= 0x80) {
            p[k++] = (unsigned char)(z | 0x80);
            z >>= 7;
        }
        p[k++] = (unsigned char)z;
    }
    *blob = p;
    *len = k;
    return true;
}

/* Decodes len bytes holding exactly n offsets into out; false when malformed. */
static bool plan_decode(const unsigned char *p, size_t len, size_t n, int64_t *out) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t z = 0;
        for (int shift = 0;; shift += 7) {
            if (k >= len || shift > 63) return false;
            unsigned char byte = p[k++];
            z |= (uint64_t)(byte & 0x7f) << shift;
            if (!(byte & 0x80)) break;
        }
        out[i] = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
    }
    return k == len;
}

ab_status abs_plan_hash(const int64_t *offsets, size_t n, char hash[ABS_SHA256_HEX],
                        ab_error *err) {
    unsigned char *blob;
    size_t len;
    if (!plan_encode(offsets, n, &blob, &len))
        return ab_fail(err, AB_ENOMEM, "out of memory hashing a plan of %zu offsets", n);
    abs_sha256_hex(blob, len, hash);
    ab_free(blob);
    return AB_OK;
}

ab_status abs_plan_get(abs_store *s, const char *hash, int64_t **offsets, size_t *n,
                       ab_error *err) {
    *offsets = NULL;
    *n = 0;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT tensors, offsets FROM plans WHERE hash = ?", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read plan %s", hash);
    int rc = sqlite3_bind_text(st, 1, hash, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    ab_status out = AB_OK;
    if (rc == SQLITE_DONE) {
        out = ab_fail(err, AB_EINPUT, "%s: no plan %s", s->path, hash);
    } else if (rc != SQLITE_ROW) {
        out = db_fail(s, err, "cannot read plan %s", hash);
    } else {
        int64_t count = sqlite3_column_int64(st, 0);
        const unsigned char *blob = sqlite3_column_blob(st, 1);
        size_t len = (size_t)sqlite3_column_bytes(st, 1);
        int64_t *v = count > 0 ? ab_alloc_array((size_t)count, sizeof *v) : NULL;
        if (count < 0 || (uint64_t)count > len)
            out = ab_fail(err, AB_EINPUT, "%s: plan %s is malformed", s->path, hash);
        else if (count > 0 && v == NULL) out = oom(s, err);
        else if (!plan_decode(blob, len, (size_t)count, v))
            out = ab_fail(err, AB_EINPUT, "%s: plan %s is malformed", s->path, hash);
        if (out == AB_OK) {
            *offsets = v;
            *n = (size_t)count;
        } else {
            ab_free(v);
        }
    }
    sqlite3_finalize(st);
    return out;
}

/* ---- results ----------------------------------------------------------------
 * The columns of a result after (run, suite), in the order of every binder
 * and reader below; `merge` copies them by this list too. */
#define RESULT_DATA                                                                      \
    "spec, status, arena, lower_bound, k, ilp_status, ilp_objective, ilp_bound, proven_by, " \
    "wall_s, cpu_s, peak_rss, nodes, signal, verdict, check_message, error, note, plan, "    \
    "recorded, repeats, cpu_min_s, cpu_max_s, wall_min_s, wall_max_s, plan_cpu_s, capped, "  \
    "containment"

_Static_assert(ABS_SHA256_HEX == ABO_HASH_HEX, "a plan hash is SHA-256 in hex");

/* Checks what the schema would refuse, to name the field. */
static ab_status result_valid(abs_store *s, const abo_row *r, ab_error *err) {
    const char *why = NULL;
    if (r->spec == NULL || r->spec[0] == '\0') why = "no planner spec";
    else if ((int)r->status < 0 || r->status >= ABO_NSTATUSES) why = "an unknown status";
    else if ((int)r->proven_by < 0 || r->proven_by >= ABO_NPROOFS) why = "an unknown proof";
    else if (r->k != AB_NONE && r->k < 1) why = "a coarsening k below 1";
    else if (r->offsets == NULL && r->noffsets > 0) why = "offsets missing";
    else if (r->repeats != AB_NONE && r->repeats < 1) why = "repeats below 1";
    else if (r->capped != NULL && strcmp(r->capped, "time") != 0 &&
             strcmp(r->capped, "memory") != 0)
        why = "capped is neither time nor memory";
    else if (r->containment != NULL && strcmp(r->containment, "subreaper") != 0 &&
             strcmp(r->containment, "process-group") != 0 && strcmp(r->containment, "cgroup") != 0)
        why = "containment is none of subreaper, process-group and cgroup";
    if (why == NULL) return AB_OK;
    return ab_fail(err, AB_EINPUT, "%s: cannot record a result of run %lld: %s", s->path,
                   (long long)r->run, why);
}

/* Stores the plan blob under hash unless it is stored already. */
static int put_plan(abs_store *s, const char *hash, size_t n, const unsigned char *blob,
                    size_t len) {
    sqlite3_stmt *st;
    int rc = prepare(s, "INSERT INTO plans (hash, tensors, offsets) VALUES (?, ?, ?) "
                        "ON CONFLICT (hash) DO NOTHING", &st);
    if (rc != SQLITE_OK) return rc;
    binder b = {st, 0, SQLITE_OK};
    b_str(&b, hash);
    b_i64(&b, (int64_t)n);
    b_blob(&b, blob, len);
    rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    sqlite3_finalize(st);
    return rc;
}

/* Inserts the row itself (plan_hash "" for no plan). */
static int put_row(abs_store *s, const abo_row *r, const char *plan_hash) {
    sqlite3_stmt *st;
    int rc = prepare(s, "INSERT INTO results (run, suite, " RESULT_DATA ") VALUES "
                        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                        NOW_SQL ", ?, ?, ?, ?, ?, ?, ?, ?)", &st);
    if (rc != SQLITE_OK) return rc;
    binder b = {st, 0, SQLITE_OK};
    b_i64(&b, r->run);
    b_i64(&b, r->suite);
    b_str(&b, r->spec);
    b_str(&b, abo_status_word(r->status));
    b_i64(&b, r->arena);
    b_i64(&b, r->lower_bound);
    b_i64(&b, r->k);
    b_str(&b, r->ilp_status);
    b_i64(&b, r->ilp_objective);
    b_i64(&b, r->ilp_bound);
    b_str(&b, abo_proof_word(r->proven_by));
    b_real(&b, r->wall_s);
    b_real(&b, r->cpu_s);
    b_i64(&b, r->peak_rss);
    b_i64(&b, r->nodes);
    b_i64(&b, r->signal != 0 ? r->signal : AB_NONE);
    b_str(&b, r->verdict);
    b_str(&b, r->check_message);
    b_str(&b, r->error);
    b_str(&b, r->note);
    b_str(&b, plan_hash[0] ? plan_hash : NULL);
    b_i64(&b, r->repeats);
    b_real(&b, r->cpu_min_s);
    b_real(&b, r->cpu_max_s);
    b_real(&b, r->wall_min_s);
    b_real(&b, r->wall_max_s);
    b_real(&b, r->plan_cpu_s);
    b_str(&b, r->capped);
    b_str(&b, r->containment);
    rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    sqlite3_finalize(st);
    return rc;
}

ab_status abs_result_put(abs_store *s, const abo_row *r, ab_error *err) {
    ab_status rc = result_valid(s, r, err);
    if (rc != AB_OK) return rc;
    unsigned char *blob = NULL;
    size_t len = 0;
    char hash[ABS_SHA256_HEX] = "";
    if (r->offsets != NULL) {
        if (!plan_encode(r->offsets, r->noffsets, &blob, &len)) return oom(s, err);
        abs_sha256_hex(blob, len, hash);
    }
    rc = tx_begin(s, err);
    if (rc != AB_OK) {
        ab_free(blob);
        return rc;
    }
    int step = blob != NULL ? put_plan(s, hash, r->noffsets, blob, len) : SQLITE_OK;
    ab_free(blob);
    if (step == SQLITE_OK) step = put_row(s, r, hash);
    if (step == SQLITE_CONSTRAINT_UNIQUE)
        rc = ab_fail(err, AB_EINPUT, "%s: run %lld already has a result for suite %lld and "
                     "spec '%s'", s->path, (long long)r->run, (long long)r->suite, r->spec);
    else if (step == SQLITE_CONSTRAINT_FOREIGNKEY)
        rc = ab_fail(err, AB_EINPUT, "%s: cannot record a result: no run %lld or no suite %lld",
                     s->path, (long long)r->run, (long long)r->suite);
    else if (step != SQLITE_OK)
        rc = db_fail(s, err, "cannot record the result of '%s' on suite %lld", r->spec,
                     (long long)r->suite);
    if (rc != AB_OK) {
        tx_rollback(s);
        return rc;
    }
    return tx_commit(s, "cannot commit the result", err);
}

/* AB_EINPUT unless run `run` exists. */
static ab_status run_exists(abs_store *s, int64_t run, ab_error *err) {
    int64_t found;
    ab_status rc = query_id(s, "SELECT id FROM runs WHERE id = ?", NULL, run, &found,
                            "cannot read the runs", err);
    if (rc == AB_OK && found == 0)
        rc = ab_fail(err, AB_EINPUT, "%s: no run %lld", s->path, (long long)run);
    return rc;
}

/* Reads one joined row (columns as in abs_rows_read's query) into *w. */
static ab_status read_row(abs_store *s, sqlite3_stmt *st, abs_pool **pool, abs_row *w,
                          ab_error *err) {
    reader c = {st, 0, pool, false};
    abs_suite *su = &w->suite;
    abo_row *r = &w->r;
    abs_suite_init(su);
    abo_row_init(r);
    su->id = c_i64(&c);
    su->name = c_str(&c);
    c_hash(&c, su->hash);
    su->tensors = c_i64(&c);
    su->lower_bound = c_i64(&c);
    su->optimum = c_i64(&c);
    su->logical_bytes = c_i64(&c);
    su->physical_bytes = c_i64(&c);
    su->peak_live_bytes = c_i64(&c);
    su->io_bytes = c_i64(&c);
    su->source = c_str(&c);
    su->capacity = c_i64(&c);
    su->pools = c_i64(&c);
    int64_t stored = c_i64(&c);
    su->capacity_known = stored != AB_NONE && stored >= 4;
    r->run = c_i64(&c);
    r->suite = c_i64(&c);
    r->spec = c_str(&c);
    const char *status = (const char *)sqlite3_column_text(st, c.i++);
    r->arena = c_i64(&c);
    r->lower_bound = c_i64(&c);
    r->k = c_i64(&c);
    r->ilp_status = c_str(&c);
    r->ilp_objective = c_i64(&c);
    r->ilp_bound = c_i64(&c);
    const char *proof = (const char *)sqlite3_column_text(st, c.i++);
    r->wall_s = c_real(&c);
    r->cpu_s = c_real(&c);
    r->peak_rss = c_i64(&c);
    r->nodes = c_i64(&c);
    int64_t sig = c_i64(&c);
    r->signal = sig == AB_NONE ? 0 : (int)sig;
    r->verdict = c_str(&c);
    r->check_message = c_str(&c);
    r->error = c_str(&c);
    r->note = c_str(&c);
    c_hash(&c, r->plan_hash);
    r->recorded = c_str(&c);
    r->repeats = c_i64(&c);
    r->cpu_min_s = c_real(&c);
    r->cpu_max_s = c_real(&c);
    r->wall_min_s = c_real(&c);
    r->wall_max_s = c_real(&c);
    r->plan_cpu_s = c_real(&c);
    r->capped = c_str(&c);
    r->containment = c_str(&c);
    if (c.oom) return oom(s, err);
    if (!(status != NULL && abo_status_parse(status, &r->status)) || !abo_proof_parse(proof, &r->proven_by))
        return ab_fail(err, AB_EINPUT, "%s: a result of run %lld has an unknown status or proof",
                       s->path, (long long)r->run);
    return AB_OK;
}

ab_status abs_rows_read(abs_store *s, int64_t run, abs_rows *out, ab_error *err) {
    memset(out, 0, sizeof *out);
    ab_status rc = run_exists(s, run, err);
    if (rc != AB_OK) return rc;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT s.id, s.name, s.hash, s.tensors, s.lower_bound, s.optimum, "
                   "s.logical_bytes, s.physical_bytes, s.peak_live_bytes, s.io_bytes, s.source, "
                   "s.capacity, s.pools, s.stored_version, r.run, r.suite, r.spec, r.status, r.arena, r.lower_bound, r.k, r.ilp_status, "
                   "r.ilp_objective, r.ilp_bound, r.proven_by, r.wall_s, r.cpu_s, r.peak_rss, "
                   "r.nodes, r.signal, r.verdict, r.check_message, r.error, r.note, r.plan, "
                   "r.recorded, r.repeats, r.cpu_min_s, r.cpu_max_s, r.wall_min_s, r.wall_max_s, "
                   "r.plan_cpu_s, r.capped, r.containment "
                   "FROM results r JOIN suites s ON s.id = r.suite WHERE r.run = ? "
                   "ORDER BY s.name, s.hash, r.spec", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read the results of run %lld", (long long)run);
    size_t cap = 0;
    int step = sqlite3_bind_int64(st, 1, run);
    while (rc == AB_OK && step == SQLITE_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        step = SQLITE_OK;
        if (!ab_grow((void **)&out->v, &cap, out->n + 1, sizeof *out->v)) rc = oom(s, err);
        else if ((rc = read_row(s, st, &out->pool_, &out->v[out->n], err)) == AB_OK) out->n++;
    }
    if (rc == AB_OK && step != SQLITE_DONE)
        rc = db_fail(s, err, "cannot read the results of run %lld", (long long)run);
    sqlite3_finalize(st);
    if (rc != AB_OK) abs_rows_free(out);
    return rc;
}

void abs_rows_free(abs_rows *rows) {
    if (rows == NULL) return;
    ab_free(rows->v);
    pool_free(rows->pool_);
    memset(rows, 0, sizeof *rows);
}

/* ---- resume pairs -------------------------------------------------------- */

ab_status abs_pairs_read(abs_store *s, int64_t run, abs_pairs *out, ab_error *err) {
    memset(out, 0, sizeof *out);
    ab_status rc = run_exists(s, run, err);
    if (rc != AB_OK) return rc;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT suite, spec FROM results WHERE run = ? ORDER BY suite, spec", &st) !=
        SQLITE_OK)
        return db_fail(s, err, "cannot read the results of run %lld", (long long)run);
    size_t cap = 0;
    int step = sqlite3_bind_int64(st, 1, run);
    while (rc == AB_OK && step == SQLITE_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        step = SQLITE_OK;
        reader c = {st, 0, &out->pool_, false};
        if (!ab_grow((void **)&out->v, &cap, out->n + 1, sizeof *out->v)) {
            rc = oom(s, err);
            break;
        }
        abs_pair *p = &out->v[out->n];
        p->suite = c_i64(&c);
        p->spec = c_str(&c);
        if (c.oom) rc = oom(s, err);
        else out->n++;
    }
    if (rc == AB_OK && step != SQLITE_DONE)
        rc = db_fail(s, err, "cannot read the results of run %lld", (long long)run);
    sqlite3_finalize(st);
    if (rc != AB_OK) abs_pairs_free(out);
    return rc;
}

bool abs_pairs_has(const abs_pairs *pairs, int64_t suite, const char *spec) {
    size_t lo = 0, hi = pairs->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const abs_pair *p = &pairs->v[mid];
        int c = p->suite < suite ? -1 : p->suite > suite ? 1 : strcmp(p->spec, spec);
        if (c == 0) return true;
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return false;
}

void abs_pairs_free(abs_pairs *pairs) {
    if (pairs == NULL) return;
    ab_free(pairs->v);
    pool_free(pairs->pool_);
    memset(pairs, 0, sizeof *pairs);
}

/* ---- bounds -------------------------------------------------------------------- */

/* The columns of a bounds row after (run, suite), as put and merge copy them. */
#define BOUND_DATA "kind, source, value, certificate, nodes, capped, cpu_s, recorded"

ab_status abs_bound_put(abs_store *s, const abs_bound *b, ab_error *err) {
    if ((unsigned)b->b.kind >= ABO_NBOUND_KINDS || b->b.certificate[0] == '\0' ||
        (b->b.value != AB_NONE && b->b.value < 0))
        return ab_fail(err, AB_EINPUT, "%s: a bound needs a known kind, a value >= 0 and a "
                       "certificate", s->path);
    ab_status rc = tx_begin(s, err);
    if (rc != AB_OK) return rc;
    sqlite3_stmt *st;
    int step = prepare(s, "INSERT INTO bounds (run, suite, " BOUND_DATA ") VALUES "
                          "(?, ?, ?, ?, ?, ?, ?, ?, ?, " NOW_SQL ") "
                          "ON CONFLICT (run, suite, kind, source) DO NOTHING", &st);
    if (step == SQLITE_OK) {
        binder bd = {st, 0, SQLITE_OK};
        b_i64(&bd, b->run);
        b_i64(&bd, b->suite);
        b_str(&bd, abo_bound_kind_word(b->b.kind));
        b_str(&bd, b->source ? b->source : "");
        b_i64(&bd, b->b.value);
        b_str(&bd, b->b.certificate);
        b_i64(&bd, b->b.nodes);
        b_i64(&bd, b->b.capped ? 1 : 0);
        b_real(&bd, b->cpu_s);
        step = bd.rc == SQLITE_OK ? step_done(st) : bd.rc;
        sqlite3_finalize(st);
    }
    if (step != SQLITE_OK) {
        rc = db_fail(s, err, "cannot store the %s bound of suite %lld",
                     abo_bound_kind_word(b->b.kind), (long long)b->suite);
        tx_rollback(s);
        return rc;
    }
    return tx_commit(s, "cannot commit the bound", err);
}

static int bound_cmp(const void *x, const void *y) {
    const abs_bound *a = x, *b = y;
    if (a->suite != b->suite) return a->suite < b->suite ? -1 : 1;
    if (a->b.kind != b->b.kind) return a->b.kind < b->b.kind ? -1 : 1;
    return strcmp(a->source, b->source);
}

ab_status abs_bounds_read(abs_store *s, int64_t run, abs_bounds *out, ab_error *err) {
    memset(out, 0, sizeof *out);
    ab_status rc = run_exists(s, run, err);
    if (rc != AB_OK) return rc;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT run, suite, " BOUND_DATA " FROM bounds WHERE run = ? ORDER BY id",
                &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read the bounds of run %lld", (long long)run);
    size_t cap = 0;
    int step = sqlite3_bind_int64(st, 1, run);
    while (rc == AB_OK && step == SQLITE_OK && (step = sqlite3_step(st)) == SQLITE_ROW) {
        step = SQLITE_OK;
        if (!ab_grow((void **)&out->v, &cap, out->n + 1, sizeof *out->v)) {
            rc = oom(s, err);
            break;
        }
        abs_bound *b = &out->v[out->n];
        memset(b, 0, sizeof *b);
        reader c = {st, 0, &out->pool_, false};
        b->run = c_i64(&c);
        b->suite = c_i64(&c);
        const char *kind = (const char *)sqlite3_column_text(st, c.i++);
        b->source = c_str(&c);
        b->b.value = c_i64(&c);
        const char *cert = (const char *)sqlite3_column_text(st, c.i++);
        b->b.nodes = c_i64(&c);
        b->b.capped = c_i64(&c) == 1;
        b->cpu_s = c_real(&c);
        b->recorded = c_str(&c);
        if (c.oom) rc = oom(s, err);
        else if (kind == NULL || !abo_bound_kind_parse(kind, &b->b.kind))
            rc = ab_fail(err, AB_EINPUT, "%s: run %lld holds a bound of a kind this arenabench "
                         "does not know ('%s'); use a newer arenabench", s->path,
                         (long long)run, kind ? kind : "");
        else {
            snprintf(b->b.certificate, sizeof b->b.certificate, "%s", cert ? cert : "");
            if (b->source == NULL) b->source = "";
            out->n++;
        }
    }
    if (rc == AB_OK && step != SQLITE_DONE)
        rc = db_fail(s, err, "cannot read the bounds of run %lld", (long long)run);
    sqlite3_finalize(st);
    if (rc != AB_OK) abs_bounds_free(out);
    else if (out->n > 1) qsort(out->v, out->n, sizeof *out->v, bound_cmp);
    return rc;
}

void abs_bounds_free(abs_bounds *b) {
    if (b == NULL) return;
    ab_free(b->v);
    pool_free(b->pool_);
    memset(b, 0, sizeof *b);
}

/* ---- merge ------------------------------------------------------------------
 * The input is attached as "src"; temp tables map its run and suite ids to
 * ours. Order: suites, plans, runs (joined by key), results. */

/* Rank of a run status when joining shards: the worst one wins. */
static int run_rank(const char *w) {
    static const char *const order[] = {"done", "interrupted", "failed", "running"};
    for (int i = 0; i < 4; i++)
        if (w != NULL && strcmp(w, order[i]) == 0) return i;
    return 3;
}

/* true when the ','-separated list holds item[0 .. len). */
static bool list_has(const char *list, const char *item, size_t len) {
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == len && memcmp(p, item, len) == 0) return true;
        p = end ? end + 1 : NULL;
    }
    return false;
}

/* The hosts of have, then those of add that have lacks, joined by ','.
 * Owned by the caller; NULL when both are NULL (sets *fail on no memory). */
static char *host_union(const char *have, const char *add, bool *fail) {
    size_t cap = (have ? strlen(have) : 0) + (add ? strlen(add) : 0) + 2;
    char *out = ab_malloc(cap);
    if (out == NULL) {
        *fail = true;
        return NULL;
    }
    snprintf(out, cap, "%s", have ? have : "");
    for (const char *p = add; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > 0 && !list_has(out, p, n)) {
            size_t used = strlen(out);
            snprintf(out + used, cap - used, "%s%.*s", used ? "," : "", (int)n, p);
        }
        p = end ? end + 1 : NULL;
    }
    if (have == NULL && add == NULL) {
        ab_free(out);
        return NULL;
    }
    return out;
}

static bool same_text(const unsigned char *a, const unsigned char *b) {
    return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp((const char *)a,
                                                                         (const char *)b) == 0);
}

/* Joins source run (columns of merge_runs' query) into our run `dst`. */
static ab_status join_run(abs_store *s, sqlite3_stmt *src, int64_t dst, ab_error *err) {
    sqlite3_stmt *st;
    if (prepare(s, "SELECT tag, revision, host, started, finished, status FROM main.runs "
                   "WHERE id = ?", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot read run %lld", (long long)dst);
    int rc = sqlite3_bind_int64(st, 1, dst);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        ab_status out = db_fail(s, err, "cannot read run %lld", (long long)dst);
        sqlite3_finalize(st);
        return out;
    }
    const unsigned char *key = sqlite3_column_text(src, 1);
    if (!same_text(sqlite3_column_text(st, 0), sqlite3_column_text(src, 2)) ||
        !same_text(sqlite3_column_text(st, 1), sqlite3_column_text(src, 3))) {
        sqlite3_finalize(st);
        return ab_fail(err, AB_EINPUT, "%s: cannot merge run key '%s': the runs sharing it "
                       "differ in tag or revision", s->path, (const char *)key);
    }
    const char *started = (const char *)sqlite3_column_text(st, 3);
    const char *src_started = (const char *)sqlite3_column_text(src, 6);
    const char *fin = (const char *)sqlite3_column_text(st, 4);
    const char *src_fin = (const char *)sqlite3_column_text(src, 7);
    const char *status = (const char *)sqlite3_column_text(st, 5);
    const char *src_status = (const char *)sqlite3_column_text(src, 8);
    bool fail = false;
    char *hosts = host_union((const char *)sqlite3_column_text(st, 2),
                             (const char *)sqlite3_column_text(src, 4), &fail);
    sqlite3_stmt *up = NULL;
    rc = fail ? SQLITE_NOMEM
              : prepare(s, "UPDATE main.runs SET host = ?, started = ?, finished = ?, status = ? "
                           "WHERE id = ?", &up);
    if (rc == SQLITE_OK) {
        binder b = {up, 0, SQLITE_OK};
        b_str(&b, hosts);
        b_str(&b, strcmp(src_started, started) < 0 ? src_started : started);
        b_str(&b, fin == NULL || src_fin == NULL ? NULL : strcmp(src_fin, fin) > 0 ? src_fin : fin);
        b_str(&b, run_rank(src_status) > run_rank(status) ? src_status : status);
        b_i64(&b, dst);
        rc = b.rc == SQLITE_OK ? step_done(up) : b.rc;
    }
    ab_status out = AB_OK;
    if (fail) out = oom(s, err);
    else if (rc != SQLITE_OK) out = db_fail(s, err, "cannot join run %lld", (long long)dst);
    sqlite3_finalize(up);
    sqlite3_finalize(st);
    ab_free(hosts);
    return out;
}

/* Copies a source run (columns of merge_runs' query) as a new run; sets *dst. */
static ab_status add_run(abs_store *s, sqlite3_stmt *src, int64_t *dst, ab_error *err) {
    sqlite3_stmt *st;
    if (prepare(s, "INSERT INTO main.runs (run_key, tag, revision, host, command, started, "
                   "finished, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot copy a run");
    binder b = {st, 0, SQLITE_OK};
    for (int i = 1; i <= 8; i++) b_str(&b, (const char *)sqlite3_column_text(src, i));
    int rc = b.rc == SQLITE_OK ? step_done(st) : b.rc;
    sqlite3_finalize(st);
    if (rc != SQLITE_OK) return db_fail(s, err, "cannot copy a run");
    *dst = sqlite3_last_insert_rowid(s->db);
    return AB_OK;
}

/* Maps every source run to ours, joining by key; fills temp.abs_run_map. */
static ab_status merge_runs(abs_store *s, abs_merge_stats *ms, ab_error *err) {
    sqlite3_stmt *src, *map;
    if (prepare(s, "SELECT id, run_key, tag, revision, host, command, started, finished, status "
                   "FROM src.runs ORDER BY started, id", &src) != SQLITE_OK)
        return db_fail(s, err, "cannot read the runs to merge");
    if (prepare(s, "INSERT INTO temp.abs_run_map (src, dst) VALUES (?, ?)", &map) != SQLITE_OK) {
        ab_status rc = db_fail(s, err, "cannot map the runs to merge");
        sqlite3_finalize(src);
        return rc;
    }
    ab_status rc = AB_OK;
    int step;
    while (rc == AB_OK && (step = sqlite3_step(src)) == SQLITE_ROW) {
        int64_t dst;
        rc = query_id(s, "SELECT id FROM main.runs WHERE run_key = ?",
                      (const char *)sqlite3_column_text(src, 1), AB_NONE, &dst,
                      "cannot look up a run key", err);
        if (rc != AB_OK) break;
        if (dst != 0) {
            rc = join_run(s, src, dst, err);
            ms->runs_joined++;
        } else {
            rc = add_run(s, src, &dst, err);
            ms->runs_added++;
        }
        if (rc != AB_OK) break;
        binder b = {map, 0, SQLITE_OK};
        b_i64(&b, sqlite3_column_int64(src, 0));
        b_i64(&b, dst);
        int mrc = b.rc == SQLITE_OK ? step_done(map) : b.rc;
        sqlite3_reset(map);
        if (mrc != SQLITE_OK) rc = db_fail(s, err, "cannot map the runs to merge");
    }
    if (rc == AB_OK && step != SQLITE_DONE) rc = db_fail(s, err, "cannot read the runs to merge");
    sqlite3_finalize(map);
    sqlite3_finalize(src);
    return rc;
}

/* Runs a parameterless statement and adds the rows it changed to *count. */
static ab_status merge_exec(abs_store *s, const char *sql, int64_t *count, const char *what,
                            ab_error *err) {
    ab_status rc = exec(s, sql, what, err);
    if (rc == AB_OK && count != NULL) *count += sqlite3_changes(s->db);
    return rc;
}

/* The merge proper, inside a transaction, with src attached. */
static ab_status merge_tx(abs_store *s, abs_merge_stats *ms, ab_error *err) {
    ab_status rc = merge_exec(s, "DELETE FROM temp.abs_run_map", NULL, "cannot merge", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "DELETE FROM temp.abs_suite_map", NULL, "cannot merge", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.suites (name, hash, tensors, lower_bound, optimum, "
                           "logical_bytes, physical_bytes, peak_live_bytes, io_bytes, source, "
                           "text, capacity, pools, stored_version) SELECT name, hash, tensors, "
                           "lower_bound, optimum, logical_bytes, physical_bytes, "
                           "peak_live_bytes, io_bytes, source, text, capacity, pools, "
                           "stored_version "
                           "FROM src.suites WHERE true ORDER BY id "
                           "ON CONFLICT (hash) DO NOTHING",
                        &ms->suites_added, "cannot merge the suites", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO temp.abs_suite_map (src, dst) SELECT ss.id, ms.id "
                           "FROM src.suites ss JOIN main.suites ms ON ms.hash = ss.hash",
                        NULL, "cannot map the suites", err);
    /* the suites' views: rows for each suite here without one (new, or stored
     * before version 5) whose input has one, then its view columns */
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.suite_tensors (suite, idx, name, size, first, last, "
                           "align, offset) SELECT sm.dst, t.idx, t.name, t.size, t.first, "
                           "t.last, t.align, t.offset FROM src.suite_tensors t "
                           "JOIN temp.abs_suite_map sm ON sm.src = t.suite "
                           "JOIN main.suites ms ON ms.id = sm.dst "
                           "WHERE ms.view_tensors IS NULL ORDER BY sm.dst, t.idx",
                        NULL, "cannot merge the suites' tensors", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.suite_pools (suite, idx, name, size) "
                           "SELECT sm.dst, p.idx, p.name, p.size FROM src.suite_pools p "
                           "JOIN temp.abs_suite_map sm ON sm.src = p.suite "
                           "JOIN main.suites ms ON ms.id = sm.dst "
                           "WHERE ms.view_tensors IS NULL ORDER BY sm.dst, p.idx",
                        NULL, "cannot merge the suites' pools", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "UPDATE main.suites SET (view_tensors, view_capacity) = "
                           "(SELECT ss.view_tensors, ss.view_capacity FROM src.suites ss "
                           "JOIN temp.abs_suite_map sm ON sm.src = ss.id "
                           "WHERE sm.dst = main.suites.id) "
                           "WHERE view_tensors IS NULL AND id IN (SELECT sm.dst FROM "
                           "temp.abs_suite_map sm JOIN src.suites ss ON ss.id = sm.src "
                           "WHERE ss.view_tensors IS NOT NULL)",
                        NULL, "cannot merge the suites' views", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.proof_kinds (word) SELECT word FROM src.proof_kinds "
                           "WHERE true ORDER BY word ON CONFLICT DO NOTHING",
                        NULL, "cannot merge the kinds of proof", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.plans (hash, tensors, offsets) SELECT hash, "
                           "tensors, offsets FROM src.plans WHERE true ORDER BY hash "
                           "ON CONFLICT (hash) DO NOTHING",
                        &ms->plans_added, "cannot merge the plans", err);
    if (rc == AB_OK) rc = merge_runs(s, ms, err);
    int64_t total = 0, added = 0;
    if (rc == AB_OK && query_int(s, "SELECT count(*) FROM src.results", &total) != SQLITE_OK)
        rc = db_fail(s, err, "cannot count the results to merge");
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.results (run, suite, " RESULT_DATA ") "
                           "SELECT rm.dst, sm.dst, " RESULT_DATA " FROM src.results "
                           "JOIN temp.abs_run_map rm ON rm.src = src.results.run "
                           "JOIN temp.abs_suite_map sm ON sm.src = src.results.suite "
                           "WHERE true ORDER BY src.results.id "
                           "ON CONFLICT (run, suite, spec) DO NOTHING",
                        &added, "cannot merge the results", err);
    if (rc == AB_OK) {
        ms->results_added += added;
        ms->results_skipped += total - added;
    }
    /* kinds first (the input may know a kind this file has not met), then the bounds */
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.bound_kinds (word) SELECT word FROM src.bound_kinds "
                           "WHERE true ORDER BY word ON CONFLICT DO NOTHING",
                        NULL, "cannot merge the kinds of bound", err);
    if (rc == AB_OK)
        rc = merge_exec(s, "INSERT INTO main.bounds (run, suite, " BOUND_DATA ") "
                           "SELECT rm.dst, sm.dst, " BOUND_DATA " FROM src.bounds "
                           "JOIN temp.abs_run_map rm ON rm.src = src.bounds.run "
                           "JOIN temp.abs_suite_map sm ON sm.src = src.bounds.suite "
                           "WHERE true ORDER BY src.bounds.id "
                           "ON CONFLICT (run, suite, kind, source) DO NOTHING",
                        &ms->bounds_added, "cannot merge the bounds", err);
    return rc;
}

/* true when paths a and b name the same file. */
static bool same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

ab_status abs_merge(abs_store *s, const char *in_path, abs_merge_stats *st, ab_error *err) {
    if (in_path == NULL || same_file(in_path, s->path))
        return ab_fail(err, AB_EINPUT, "%s: cannot merge a database into itself", s->path);
    /* Check the input as abs_open does: read-only when it is current, so a
     * read-only input merges; for writing only when it needs migrating. */
    abs_store *in;
    ab_status rc = abs_open_schema(in_path, ABS_OPEN_READONLY, &s->sch, &in, NULL);
    if (rc != AB_OK) rc = abs_open_schema(in_path, 0, &s->sch, &in, err);
    if (rc != AB_OK) return rc;
    abs_close(in);
    abs_merge_stats local = {0};
    rc = exec(s, "CREATE TEMP TABLE IF NOT EXISTS abs_run_map (src INTEGER PRIMARY KEY, "
                 "dst INTEGER NOT NULL)", "cannot merge", err);
    if (rc == AB_OK)
        rc = exec(s, "CREATE TEMP TABLE IF NOT EXISTS abs_suite_map (src INTEGER PRIMARY KEY, "
                     "dst INTEGER NOT NULL)", "cannot merge", err);
    if (rc != AB_OK) return rc;
    sqlite3_stmt *att;
    int arc = prepare(s, "ATTACH DATABASE ? AS src", &att);
    if (arc == SQLITE_OK) arc = sqlite3_bind_text(att, 1, in_path, -1, SQLITE_TRANSIENT);
    if (arc == SQLITE_OK) arc = step_done(att);
    sqlite3_finalize(att);
    if (arc != SQLITE_OK) return db_fail(s, err, "cannot attach '%s'", in_path);
    rc = tx_begin(s, err);
    if (rc == AB_OK) {
        rc = merge_tx(s, &local, err);
        if (rc == AB_OK) rc = tx_commit(s, "cannot commit the merge", err);
        else tx_rollback(s);
    }
    if (rc != AB_OK) {
        /* Name the input in the message too. */
        char msg[AB_ERROR_MAX];
        if (err != NULL) {
            snprintf(msg, sizeof msg, "%s", err->msg);
            ab_fail(err, rc, "merging %s: %s", in_path, msg);
        }
    }
    sqlite3_exec(s->db, "DETACH DATABASE src", NULL, NULL, NULL);
    if (rc == AB_OK && st != NULL) {
        st->runs_added += local.runs_added;
        st->runs_joined += local.runs_joined;
        st->suites_added += local.suites_added;
        st->plans_added += local.plans_added;
        st->results_added += local.results_added;
        st->results_skipped += local.results_skipped;
        st->bounds_added += local.bounds_added;
    }
    return rc;
}

/* ---- check-db -------------------------------------------------------------- */

typedef struct checker {
    abs_store *s;
    abs_problem_fn fn;
    void *ctx;
    size_t n;
} checker;

__attribute__((format(printf, 2, 3))) static void problem(checker *c, const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    ab_vline(line, sizeof line, fmt, ap);
    va_end(ap);
    c->fn(c->ctx, line);
    c->n++;
}

/* Runs sql and hands each row to row(c, st); an SQLite failure is a problem
 * ("cannot <what>: ..."). */
static void each_row(checker *c, const char *sql, const char *what,
                     void (*row)(checker *c, sqlite3_stmt *st)) {
    sqlite3_stmt *st;
    int rc = prepare(c->s, sql, &st);
    if (rc == SQLITE_OK) {
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(c, st);
    }
    if (rc != SQLITE_DONE) problem(c, "cannot %s: %s", what, sqlite3_errmsg(c->s->db));
    sqlite3_finalize(st);
}

static const char *col_text(sqlite3_stmt *st, int i) {
    const char *t = (const char *)sqlite3_column_text(st, i);
    return t != NULL ? t : "(null)";
}

static void integrity_row(checker *c, sqlite3_stmt *st) {
    const char *t = col_text(st, 0);
    if (strcmp(t, "ok") != 0) problem(c, "integrity check: %s", t);
}

static void fk_row(checker *c, sqlite3_stmt *st) {
    problem(c, "table %s, row %lld: refers to a missing row of %s", col_text(st, 0),
            (long long)sqlite3_column_int64(st, 1), col_text(st, 2));
}

static void identity_row(checker *c, sqlite3_stmt *st) {
    int64_t app = sqlite3_column_int64(st, 0), version = sqlite3_column_int64(st, 1);
    if (app != ABS_APPLICATION_ID)
        problem(c, "application_id is %lld, not arenabench's %d", (long long)app,
                ABS_APPLICATION_ID);
    if (version < 1 || version > c->s->sch.version)
        problem(c, "schema version %lld is not one this arenabench knows (1 to %d)",
                (long long)version, c->s->sch.version);
    else if (version != c->s->sch.version)
        problem(c, "schema version %lld is older than %d: open it for writing (run, merge) "
                   "to migrate it", (long long)version, c->s->sch.version);
}

static void duplicate_row(checker *c, sqlite3_stmt *st) {
    problem(c, "results: %lld rows for one (run %lld, suite %lld, spec '%s') (ids %s): one "
               "row per run, suite and spec",
            (long long)sqlite3_column_int64(st, 3), (long long)sqlite3_column_int64(st, 0),
            (long long)sqlite3_column_int64(st, 1), col_text(st, 2), col_text(st, 4));
}

static void suite_row(checker *c, sqlite3_stmt *st) {
    const void *text = sqlite3_column_blob(st, 3);
    size_t len = (size_t)sqlite3_column_bytes(st, 3);
    char hash[ABS_SHA256_HEX];
    abs_sha256_hex(text != NULL ? text : "", len, hash);
    if (strcmp(hash, col_text(st, 2)) != 0)
        problem(c, "suites row %lld ('%s'): its hash %.16s... is not the SHA-256 of its text "
                   "(%.16s...): the text was changed",
                (long long)sqlite3_column_int64(st, 0), col_text(st, 1), col_text(st, 2), hash);
}

static void plan_row(checker *c, sqlite3_stmt *st) {
    const char *key = col_text(st, 0);
    int64_t count = sqlite3_column_int64(st, 1);
    const unsigned char *blob = sqlite3_column_blob(st, 2);
    size_t len = (size_t)sqlite3_column_bytes(st, 2);
    if (count < 0 || (uint64_t)count > len) {
        problem(c, "plans %.16s...: %lld tensors in a blob of %zu bytes", key, (long long)count,
                len);
        return;
    }
    int64_t *v = count > 0 ? ab_alloc_array((size_t)count, sizeof *v) : NULL;
    if (count > 0 && v == NULL) {
        problem(c, "plans %.16s...: out of memory decoding %lld offsets", key, (long long)count);
        return;
    }
    char hash[ABS_SHA256_HEX];
    if (!plan_decode(blob, len, (size_t)count, v))
        problem(c, "plans %.16s...: its blob does not decode into %lld offsets", key,
                (long long)count);
    else if (abs_sha256_hex(blob != NULL ? (const void *)blob : "", len, hash),
             strcmp(hash, key) != 0)
        problem(c, "plans %.16s...: its blob hashes to %.16s...: the offsets were changed",
                key, hash);
    ab_free(v);
}

static void orphan_plan_row(checker *c, sqlite3_stmt *st) {
    problem(c, "results row %lld (run %lld, spec '%s'): its plan %.16s... is not stored",
            (long long)sqlite3_column_int64(st, 0), (long long)sqlite3_column_int64(st, 1),
            col_text(st, 2), col_text(st, 3));
}

ab_status abs_check_db(abs_store *s, abs_problem_fn fn, void *ctx, size_t *nproblems,
                       ab_error *err) {
    (void)err;
    checker c = {.s = s, .fn = fn, .ctx = ctx};
    each_row(&c, "PRAGMA integrity_check(100)", "run the integrity check", integrity_row);
    each_row(&c, "PRAGMA foreign_key_check", "run the foreign key check", fk_row);
    each_row(&c, "SELECT (SELECT application_id FROM pragma_application_id), "
                 "(SELECT user_version FROM pragma_user_version)",
             "read the schema version", identity_row);
    each_row(&c, "SELECT run, suite, spec, count(*), group_concat(id, ', ') FROM results "
                 "GROUP BY run, suite, spec HAVING count(*) > 1 ORDER BY run, suite, spec",
             "look for duplicated rows", duplicate_row);
    each_row(&c, "SELECT id, name, hash, CAST(text AS BLOB) FROM suites ORDER BY id",
             "read the suites", suite_row);
    each_row(&c, "SELECT hash, tensors, offsets FROM plans ORDER BY hash", "read the plans",
             plan_row);
    each_row(&c, "SELECT r.id, r.run, r.spec, r.plan FROM results r WHERE r.plan IS NOT NULL "
                 "AND NOT EXISTS (SELECT 1 FROM plans p WHERE p.hash = r.plan) ORDER BY r.id",
             "look for missing plans", orphan_plan_row);
    *nproblems = c.n;
    return AB_OK;
}

ab_status abs_run_ids(abs_store *s, int64_t **ids, size_t *n, ab_error *err) {
    *ids = NULL;
    *n = 0;
    sqlite3_stmt *st;
    if (prepare(s, "SELECT id FROM runs ORDER BY id", &st) != SQLITE_OK)
        return db_fail(s, err, "cannot list the runs");
    int rc;
    size_t cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!ab_grow((void **)ids, &cap, *n + 1, sizeof **ids)) {
            sqlite3_finalize(st);
            ab_free(*ids);
            *ids = NULL;
            *n = 0;
            return oom(s, err);
        }
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    ab_status out = rc == SQLITE_DONE ? AB_OK : db_fail(s, err, "cannot list the runs");
    sqlite3_finalize(st);
    if (out != AB_OK) {
        ab_free(*ids);
        *ids = NULL;
        *n = 0;
    }
    return out;
}
