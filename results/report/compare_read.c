/*
 * compare_read.c — a run's rows for compare: the store's rows (abr_rows_read)
 * and, beside each, its CPU spread and safety cap.
 *
 * The spread columns (cpu_min_s, cpu_max_s) and `capped` belong to schema v3;
 * a file without them is read as one sample per row (min = median = max =
 * cpu_s) and no cap. Which columns exist is asked once per read with PRAGMA
 * table_info(results), on a read-only connection of our own to the store's
 * file, so the store's API is unchanged.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/compare_int.h"

/* The optional columns, in the order of the SELECT after hash, spec. */
static const char *const optional_cols[] = {"cpu_min_s", "cpu_max_s", "capped"};
enum { N_OPTIONAL = sizeof optional_cols / sizeof optional_cols[0] };

static ab_status sql_fail(sqlite3 *db, const char *path, ab_error *err) {
    return ab_fail(err, AB_EINTERNAL, "%s: reading timing columns: %s", path,
                   db ? sqlite3_errmsg(db) : "cannot open");
}

/* has[i] = whether the results table has optional_cols[i]. */
static ab_status find_columns(sqlite3 *db, const char *path, bool has[N_OPTIONAL],
                              ab_error *err) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA table_info(results)", -1, &st, NULL) != SQLITE_OK)
        return sql_fail(db, path, err);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        for (int i = 0; i < N_OPTIONAL; i++)
            if (name != NULL && strcmp(name, optional_cols[i]) == 0) has[i] = true;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? AB_OK : sql_fail(db, path, err);
}

/* Row pointers ordered by (suite hash, spec), to find a row by its key. */
static int cmp_key(const char *hash, const char *spec, const abr_crow *x) {
    int c = strcmp(hash, x->w->suite.hash);
    return c != 0 ? c : strcmp(spec, x->w->r.spec);
}

static int cmp_crow_ptrs(const void *a, const void *b) {
    const abr_crow *x = *(const abr_crow *const *)a, *y = *(const abr_crow *const *)b;
    return cmp_key(x->w->suite.hash, x->w->r.spec, y);
}

static abr_crow *find(abr_crow **idx, size_t n, const char *hash, const char *spec) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_key(hash, spec, idx[mid]);
        if (c == 0) return idx[mid];
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

/* One result row of the SELECT into its crow (found by key). */
static void take(sqlite3_stmt *st, abr_crow **idx, size_t n) {
    const char *hash = (const char *)sqlite3_column_text(st, 0);
    const char *spec = (const char *)sqlite3_column_text(st, 1);
    abr_crow *x = hash && spec ? find(idx, n, hash, spec) : NULL;
    if (x == NULL) return; /* not in the store's read: nothing to add */
    if (sqlite3_column_type(st, 2) != SQLITE_NULL) x->cpu_min = sqlite3_column_double(st, 2);
    if (sqlite3_column_type(st, 3) != SQLITE_NULL) x->cpu_max = sqlite3_column_double(st, 3);
    const char *cap = (const char *)sqlite3_column_text(st, 4);
    if (cap != NULL) {
        strncpy(x->capped, cap, sizeof x->capped - 1);
        x->capped[sizeof x->capped - 1] = '\0';
    }
}

/* Reads the optional columns of run `run` into d->x. */
static ab_status read_optional(const char *path, int64_t run, abr_cside *d, bool *spread,
                               ab_error *err) {
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    abr_crow **idx = NULL;
    bool has[N_OPTIONAL] = {false};
    ab_status rc = AB_OK;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        rc = sql_fail(db, path, err);
    if (rc == AB_OK) rc = find_columns(db, path, has, err);
    if (rc == AB_OK && !has[0] && !has[1] && !has[2]) goto done; /* schema v2: nothing more */
    *spread = has[0] && has[1];
    idx = ab_alloc_array(d->rows.n ? d->rows.n : 1, sizeof *idx);
    if (rc == AB_OK && idx == NULL) rc = ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    if (rc != AB_OK) goto done;
    for (size_t i = 0; i < d->rows.n; i++) idx[i] = &d->x[i];
    qsort(idx, d->rows.n, sizeof *idx, cmp_crow_ptrs);
    char sql[512]; /* column names are constants of this file, never values */
    snprintf(sql, sizeof sql,
             "SELECT s.hash, r.spec, %s, %s, %s FROM results r JOIN suites s ON s.id = r.suite "
             "WHERE r.run = ?1",
             has[0] ? "r.cpu_min_s" : "NULL", has[1] ? "r.cpu_max_s" : "NULL",
             has[2] ? "r.capped" : "NULL");
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_bind_int64(st, 1, run) != SQLITE_OK) {
        rc = sql_fail(db, path, err);
        goto done;
    }
    int s;
    while ((s = sqlite3_step(st)) == SQLITE_ROW) take(st, idx, d->rows.n);
    if (s != SQLITE_DONE) rc = sql_fail(db, path, err);
done:
    sqlite3_finalize(st);
    sqlite3_close(db);
    ab_free(idx);
    return rc;
}

ab_status abr_cside_read(abr_store *s, int64_t run, abr_cside *d, bool *spread, ab_error *err) {
    memset(d, 0, sizeof *d);
    ab_status st = abr_run_get(s, run, &d->run, err);
    if (st == AB_OK) st = abr_rows_read(s, run, &d->rows, err);
    if (st != AB_OK) return st;
    d->x = ab_alloc_array(d->rows.n ? d->rows.n : 1, sizeof *d->x);
    if (d->x == NULL) return ab_fail(err, AB_ENOMEM, "out of memory comparing runs");
    for (size_t i = 0; i < d->rows.n; i++) {
        const abr_result *r = &d->rows.v[i].r;
        d->x[i] = (abr_crow){.w = &d->rows.v[i], .cpu_med = r->cpu_s, .cpu_min = -1,
                             .cpu_max = -1};
    }
    st = read_optional(abr_path(s), run, d, spread, err);
    for (size_t i = 0; i < d->rows.n; i++) { /* a sample without a spread: min = max = it */
        abr_crow *x = &d->x[i];
        if (x->cpu_min < 0 || x->cpu_max < 0 || x->cpu_med < 0)
            x->cpu_min = x->cpu_max = x->cpu_med;
    }
    return st;
}

void abr_cside_free(abr_cside *d) {
    abr_run_free(&d->run);
    abr_rows_free(&d->rows);
    ab_free(d->x);
}
