/*
 * store.h — the results store: one SQLite file holding runs, suites, result
 * rows and plans (DESIGN.md §6; the tables are documented in schema.sql).
 *
 * The store is an opaque handle (abs_store). It never prints: each call
 * returns an ab_status and fills err with a message that names the database
 * path and, for SQLite failures, sqlite3_errmsg. Statuses: AB_EINPUT for a
 * bad file or a bad request (a newer schema, a duplicate row, an unknown run
 * id), AB_EINTERNAL for the environment (I/O error, full disk, locked file),
 * AB_ENOMEM when memory runs out.
 *
 * Typical use by `arenabench run`:
 *
 *     abs_store *db;
 *     abs_open("out/arenabench.db", ABS_OPEN_CREATE, &db, &err);
 *     abs_run_begin(db, &(abs_run){.tag = "nightly", .revision = rev, ...}, &run, &err);
 *     abs_suite_put(db, &suite, &suite_id, &err);     per suite
 *     abs_result_put(db, &row, &err);                 per finished job: one transaction
 *     abs_run_finish(db, run, ABS_RUN_DONE, &err);
 *     abs_close(db);
 *
 * Durability: each abs_result_put is one transaction (the row and its plan),
 * committed before the call returns, so a kill -9 of the process loses only
 * the jobs not yet recorded; a failed call (full disk included) leaves no
 * part of the row behind.
 *
 * Shards: a run has a key (runs.run_key) that names it across files. Every
 * shard of one run begins its run, in its own file, with the same key (the
 * harness derives it, e.g. from --run-key or the CI pipeline id); abs_merge
 * joins runs with equal keys into one run and copies runs with new keys as
 * they are. Runs begun without a key get a random one, so unrelated runs
 * never join.
 *
 * Strings in structs the store fills (abs_run, abs_rows, abs_pairs) belong to
 * that struct and live until its free function; callers never free them.
 * Functions taking a handle are not thread-safe: use one handle per thread.
 */
#ifndef AB_STORE_H
#define AB_STORE_H

#include "core/problem.h" /* ab_status, AB_NONE */
#include "oracle/status.h"
#include "oracle/bound.h"
#include "oracle/certify.h"
#include "oracle/row.h"
#include "results/store/sha256.h"

/* The schema version this code reads and writes (PRAGMA user_version);
 * schema.sql sets the same number. */
#define ABS_SCHEMA_VERSION 7

/* How long a call waits for another process holding the file's write lock. */
#define ABS_BUSY_TIMEOUT_MS 10000

typedef struct abs_store abs_store;
typedef struct abs_pool abs_pool; /* string storage behind the read structs */

/* ---- enumerations, stored as words --------------------------------------- */

/* A row's status (results.status): the engine's outcome words, ABO_STATUSES
 * in harness/engine/evaluate.h (ok, invalid, timeout, crash, oom,
 * over-capacity, infeasible, error). */

/* Proofs of optimality (results.proven_by) are the oracle's certificates:
 * abo_proof in oracle/certify.h. */

#define ABS_RUN_STATUSES(X)                                             \
    X(ABS_RUN_RUNNING, "running")         /* begun, not finished (or killed) */ \
    X(ABS_RUN_DONE, "done")               /* every job ran */           \
    X(ABS_RUN_INTERRUPTED, "interrupted") /* stopped early on request */ \
    X(ABS_RUN_FAILED, "failed")           /* stopped by an error */

#define ABS_ENUM_(id, word) id,
typedef enum abs_run_status { ABS_RUN_STATUSES(ABS_ENUM_) ABS_NRUN_STATUSES } abs_run_status;
#undef ABS_ENUM_

/* The word of a value ("done"), or "?" when out of range. Static strings. */
const char *abs_run_status_word(abs_run_status v);

/* ---- opening ------------------------------------------------------------- */

enum {
    ABS_OPEN_CREATE = 1u << 0,  /* create the file when it is missing (never its folder) */
    ABS_OPEN_READONLY = 1u << 1 /* read only: no migration, no writes (reports) */
};

/* Opens the database at path and sets *out (owned by the caller, abs_close).
 * A missing file is created only with ABS_OPEN_CREATE, and only in an
 * existing, writable folder (the folder is never created): a missing folder,
 * a path under a regular file, a read-only folder or file each give
 * AB_EINPUT with a message naming the path and the folder, and no file is
 * left behind. A new or empty file gets schema.sql; an older version is
 * migrated in place (one transaction for all the steps); a newer version, or
 * a file that is not an arenabench database, is refused (AB_EINPUT) and left
 * untouched. Read-only opens refuse any version but the current one. The
 * connection runs with foreign keys on and a busy timeout; a writable file
 * is switched to WAL. On failure *out is NULL. */
ab_status abs_open(const char *path, unsigned flags, abs_store **out, ab_error *err);

/* Closes the store and frees it; NULL is accepted. Outstanding read structs
 * stay valid (they own their strings). */
void abs_close(abs_store *s);

/* The path the store was opened with; owned by the store. */
const char *abs_path(const abs_store *s);

/* Runs PRAGMA integrity_check and PRAGMA foreign_key_check. AB_OK when the
 * file is sound; AB_ECHECK with the first problems in err otherwise. Only the
 * tests call it (after a kill, a full disk, a merge); check-db runs the fuller
 * abs_check_db, of which this is the first part. */
ab_status abs_check(abs_store *s, ab_error *err);

/* A problem check-db found: one line, without a newline. */
typedef void (*abs_problem_fn)(void *ctx, const char *line);

/* The store's own invariants, each problem found sent to fn (in this order,
 * each part in a deterministic order): PRAGMA integrity_check (up to 100
 * lines) and foreign_key_check; the application id and a schema version this
 * code knows; one results row per (run, suite, spec); every suite's hash the
 * SHA-256 of its text; every plan's blob decodable into its tensor count and
 * hashed to its key; every row's plan stored. *nproblems counts them. AB_OK
 * when the checks ran (whatever they found); an SQLite failure that stops a
 * check is sent to fn as a problem too and the next check goes on. */
ab_status abs_check_db(abs_store *s, abs_problem_fn fn, void *ctx, size_t *nproblems,
                       ab_error *err);

/* Every run's id, ascending: *ids owned by the caller (ab_free; NULL when *n
 * is 0). */
ab_status abs_run_ids(abs_store *s, int64_t **ids, size_t *n, ab_error *err);

/* ---- runs ---------------------------------------------------------------- */

/* A run. abs_run_begin reads key, tag, revision, host and command (each may
 * be NULL). abs_run_get fills every field; its strings are owned by the
 * struct and freed with abs_run_free. */
typedef struct abs_run {
    int64_t id;           /* filled by abs_run_get */
    const char *key;      /* shards of one run share it; NULL on begin: a random key */
    const char *tag;      /* e.g. "nightly" */
    const char *revision; /* git revision */
    const char *host;     /* machine; a merged run: distinct hosts joined by ',' */
    const char *command;  /* the command line */
    const char *started;  /* filled by abs_run_get: UTC 'YYYY-MM-DDTHH:MM:SS.SSSZ' */
    const char *finished; /* filled by abs_run_get: NULL while running */
    abs_run_status status;/* filled by abs_run_get */
    abs_pool *pool_;      /* private: owns the strings above after abs_run_get */
} abs_run;

/* Begins a run (status running, started now) and sets *id. A key already
 * used in this file is refused (AB_EINPUT). */
ab_status abs_run_begin(abs_store *s, const abs_run *info, int64_t *id, ab_error *err);

/* Ends run `run` with status (not ABS_RUN_RUNNING) and the time now. Calling
 * it again (after a --resume) updates both. AB_EINPUT for an unknown run. */
ab_status abs_run_finish(abs_store *s, int64_t run, abs_run_status status, ab_error *err);

/* Reads run `run` into *out (initialised by the call, abs_run_free after).
 * AB_EINPUT naming the id when there is no such run. */
ab_status abs_run_get(abs_store *s, int64_t run, abs_run *out, ab_error *err);

/* Frees the strings of a run filled by abs_run_get; NULL is accepted. */
void abs_run_free(abs_run *r);

/* The latest run (by start time, then id) whose tag is `tag`, or of any tag
 * when tag is NULL. *run = 0 when there is none: not an error. */
ab_status abs_run_latest(abs_store *s, const char *tag, int64_t *run, ab_error *err);

/* The run before `run` (by start time, then id) with the same tag (both
 * untagged counts as the same), for `compare`. *prev = 0 when there is none;
 * AB_EINPUT when `run` does not exist. */
ab_status abs_run_previous(abs_store *s, int64_t run, int64_t *prev, ab_error *err);

/* ---- suites -------------------------------------------------------------- */

/* A suite and its figures. Integer figures are AB_NONE when unknown. */
typedef struct abs_suite {
    int64_t id;                   /* filled on read */
    char hash[ABS_SHA256_HEX];    /* filled on read: SHA-256 of text */
    const char *name;             /* required */
    const char *text;             /* the canonical suite text (required on put; NULL on read) */
    size_t text_len;
    const char *source;           /* path it was loaded from, or NULL */
    int64_t tensors;              /* number of tensors, I/O included */
    int64_t lower_bound;          /* best known lower bound on the arena */
    int64_t optimum;              /* known optimum (expect: optimum) */
    int64_t logical_bytes, physical_bytes, peak_live_bytes, io_bytes;
    int64_t capacity;             /* the budget a one-arena plan must fit
                                     (ab_problem_capacity), AB_NONE for none; on read also
                                     AB_NONE for a suite stored before version 4 */
    int64_t pools;                /* the pools it declares, 0 for none; AB_NONE unknown */
    bool capacity_known;          /* capacity and pools are stated: on put, the writer
                                     knows them (else the columns stay NULL and readers
                                     have no capacity); on read, the row holds them */
    const ab_problem *view;       /* on put: the suite's arena view (ab_problem_arena_view)
                                     to store with it, or NULL; NULL on read */
} abs_suite;

/* Sets every figure of *su to AB_NONE and every pointer to NULL. */
void abs_suite_init(abs_suite *su);

/* Stores the suite unless a suite with the same text hash is stored already
 * (that row, first-seen figures and source included, is kept) and sets *id to
 * the row's id. Its own transaction. */
ab_status abs_suite_put(abs_store *s, const abs_suite *su, int64_t *id, ab_error *err);

/* The arena view of suite `suite` rebuilt from its rows (schema 5: the
 * tensors a plan places, in order, with name, size, live range, align and
 * fixed offset; the pools; the suite's own capacity), so a reader needs no
 * suite parser. *out is initialised by the call and owned by the caller
 * (ab_problem_free), also on failure. AB_EINPUT, saying so, for a suite
 * stored before version 5 whose view nobody filled since. */
ab_status abs_suite_view(abs_store *s, int64_t suite, ab_problem *out, ab_error *err);

/* Stores view as suite `suite`'s arena view unless it has one (its own
 * transaction): how `run` fills the suites of an older file. */
ab_status abs_suite_put_view(abs_store *s, int64_t suite, const ab_problem *view, ab_error *err);

/* The ids of the suites without a stored view, ascending, into *ids (owned,
 * NULL when none) and *n. */
ab_status abs_suites_without_view(abs_store *s, int64_t **ids, size_t *n, ab_error *err);

/* The canonical text of suite `suite` (to load it again, e.g. to draw a plan):
 * *text is NUL-terminated and owned by the caller (ab_free); *len may be NULL. */
ab_status abs_suite_text(abs_store *s, int64_t suite, char **text, size_t *len, ab_error *err);

/* ---- results ------------------------------------------------------------- */

/* A result row: oracle/row.h's abo_row, which the engine fills from a job
 * (abe_row) and the run completes with its identity (run, suite, spec, k). */


/* Records r and its plan (stored once per plan hash) in one transaction,
 * committed on return. A row for the same (run, suite, spec) is refused
 * (AB_EINPUT) and the stored one kept: `--resume` fills only what is missing.
 * An unknown run or suite id is refused too. On any failure nothing is kept. */
ab_status abs_result_put(abs_store *s, const abo_row *r, ab_error *err);

/* A row read back: the result and its suite (suite.text NULL). */
typedef struct abs_row {
    abs_suite suite;
    abo_row r;
} abs_row;

typedef struct abs_rows {
    size_t n;
    abs_row *v;     /* owned, with every string in it */
    abs_pool *pool_;/* private */
} abs_rows;

/* Reads every row of run `run` in a deterministic order: suite name, suite
 * hash, spec (byte order). *out is initialised by the call and freed with
 * abs_rows_free, even on failure. AB_EINPUT for an unknown run. */
ab_status abs_rows_read(abs_store *s, int64_t run, abs_rows *out, ab_error *err);
/* Frees rows read by abs_rows_read; NULL is accepted. */
void abs_rows_free(abs_rows *rows);

/* ---- resume -------------------------------------------------------------- */

typedef struct abs_pair {
    int64_t suite;
    const char *spec;
} abs_pair;

typedef struct abs_pairs {
    size_t n;
    abs_pair *v;    /* sorted by suite id, then spec (byte order) */
    abs_pool *pool_;/* private */
} abs_pairs;

/* The (suite, spec) pairs run `run` already has, for --resume. *out is
 * initialised by the call, freed with abs_pairs_free even on failure. */
ab_status abs_pairs_read(abs_store *s, int64_t run, abs_pairs *out, ab_error *err);
/* true when pairs holds (suite, spec). O(log n). */
bool abs_pairs_has(const abs_pairs *pairs, int64_t suite, const char *spec);
/* Frees pairs; NULL is accepted. */
void abs_pairs_free(abs_pairs *pairs);

/* ---- plans --------------------------------------------------------------- */

/* The hash a plan of n offsets is stored under (schema.sql: SHA-256 of the
 * zigzag-LEB128 blob). AB_ENOMEM only. The store hashes inside
 * abs_result_put; exported for the tests, which check a stored plan's hash
 * against the schema's definition. */
ab_status abs_plan_hash(const int64_t *offsets, size_t n, char hash[ABS_SHA256_HEX],
                        ab_error *err);

/* Reads the plan stored under hash: *offsets (owned by the caller, ab_free;
 * NULL when *n is 0) holds *n offsets by tensor index. AB_EINPUT when no such
 * plan is stored or its blob is malformed. */
ab_status abs_plan_get(abs_store *s, const char *hash, int64_t **offsets, size_t *n,
                       ab_error *err);

/* ---- bounds -------------------------------------------------------------- */

/* A bound a run proved on a suite (oracle/bound.h), as the bounds table keeps it. */
typedef struct abs_bound {
    int64_t run, suite;
    const char *source; /* '' (NULL on put) for the suite's own bounds, else how it was
                           asked for: a results row's spec, an opt-in bound's options */
    abo_bound b;
    double cpu_s;       /* CPU seconds spent, or < 0 when not measured */
    const char *recorded; /* filled on read */
} abs_bound;

/* Stores bound b of (run, suite, kind, source) in its own transaction; a
 * second one of the same four is kept as the first was (a resumed run). */
ab_status abs_bound_put(abs_store *s, const abs_bound *b, ab_error *err);

typedef struct abs_bounds {
    size_t n;
    abs_bound *v;    /* by suite id, kind (the oracle's order), source */
    abs_pool *pool_; /* private */
} abs_bounds;

/* Every bound of run `run` (none for a run stored before version 4).
 * *out is initialised by the call and freed with abs_bounds_free. A kind
 * this code does not know (a newer writer's) is AB_EINPUT. */
ab_status abs_bounds_read(abs_store *s, int64_t run, abs_bounds *out, ab_error *err);
void abs_bounds_free(abs_bounds *b);

/* ---- merge --------------------------------------------------------------- */

/* Counts of what a merge did; abs_merge adds to them (zero it first). */
typedef struct abs_merge_stats {
    int64_t runs_added;      /* runs whose key was new to this file */
    int64_t runs_joined;     /* runs joined into one with the same key */
    int64_t suites_added, plans_added, results_added;
    int64_t results_skipped; /* rows whose (run, suite, spec) was here already */
    int64_t bounds_added;    /* bounds rows new to this file */
} abs_merge_stats;

/* Copies the runs, suites, plans, results and bounds of the database at in_path into
 * s, in one transaction (all of that file or none of it). Runs with a key
 * already in s are joined into that run: its start becomes the earliest, its
 * end the latest (none while a part is unfinished), its status the worst
 * (running > failed > interrupted > done), its hosts the union; a joined run
 * must agree on tag and revision, or the merge is refused (AB_EINPUT). Suites
 * and plans are matched by hash. A result whose (run, suite, spec) is already
 * in s is kept as it is and counted as skipped, so merging a file twice
 * changes nothing. in_path must exist and not be s's own file; it is only
 * read, unless its schema is older: then it is migrated in place first, as
 * abs_open does; a newer one is refused. */
ab_status abs_merge(abs_store *s, const char *in_path, abs_merge_stats *st, ab_error *err);

/* ---- the schema a handle migrates to ---------------------------------------- */

/* One migration step: SQL taking a file from version `from` to from + 1; the
 * SQL ends by setting PRAGMA user_version (values are never formatted in). */
typedef struct abs_migration {
    int from;
    const char *sql;
} abs_migration;

/* A schema version and the steps that reach it: this code's is
 * ABS_SCHEMA_VERSION with store.c's steps. */
typedef struct abs_schema {
    const abs_migration *steps; /* not copied: they must outlive the handle */
    size_t n;
    int version;
} abs_schema;

/* abs_open as if this code knew schema `schema` (NULL: its own): a new file
 * gets schema.sql and then the steps up to schema->version, an older one the
 * steps; the handle keeps the schema (abs_merge migrates its inputs to it).
 * For the store's own tests, which forge older and newer versions. */
ab_status abs_open_schema(const char *path, unsigned flags, const abs_schema *schema,
                          abs_store **out, ab_error *err);

#endif
