/*
 * show_plan.c — `arenabench show-plan SUITE SPEC`: writes a plan stored by
 * `run` again, as CSV and, with --svg, as a picture.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/formats/plan_csv.h"
#include "harness/formats/suite.h"
#include "results/report/svg.h"
#include "results/store/store.h"

/* Finds the row of (suite name, spec) in rows; NULL when absent. */
static const abs_row *find_row(const abs_rows *rows, const char *suite, const char *spec) {
    for (size_t i = 0; i < rows->n; i++)
        if (strcmp(rows->v[i].suite.name, suite) == 0 && strcmp(rows->v[i].r.spec, spec) == 0)
            return &rows->v[i];
    return NULL;
}

/* Rebuilds the arena view of a stored suite and the stored plan of row. */
static ab_status load_stored(abs_store *db, const abs_row *row, ab_problem *view, ab_plan *pl,
                             ab_error *err) {
    char *text = NULL;
    size_t len = 0, n = 0;
    int64_t *off = NULL;
    ab_problem full;
    ab_problem_init(&full);
    ab_status st = abs_suite_text(db, row->suite.id, &text, &len, err);
    if (st == AB_OK) st = abf_suite_load_buffer(row->suite.name, text, len, &full, err);
    if (st == AB_OK) st = ab_problem_arena_view(&full, view, NULL, err);
    if (st == AB_OK) st = abs_plan_get(db, row->r.plan_hash, &off, &n, err);
    if (st == AB_OK && n != view->n)
        st = ab_fail(err, AB_EINTERNAL, "stored plan has %zu offsets for %zu tensors", n, view->n);
    if (st == AB_OK) st = ab_plan_from_offsets(pl, off, n, err);
    ab_free(text);
    ab_free(off);
    ab_problem_free(&full);
    return st;
}

/* Draws the plan of row to path. Returns 0 or the exit code. */
static int draw(const abs_row *row, int64_t run, const ab_problem *view, const ab_plan *pl,
                const char *path) {
    ab_buf b = {0};
    ab_error err;
    ab_error_clear(&err);
    char title[512];
    snprintf(title, sizeof title, "%s — %s (run %lld)", row->suite.name, row->r.spec,
             (long long)run);
    ab_status st = abr_svg_plan(&b, view, pl, row->r.lower_bound, title, AB_NO_TENSOR,
                                AB_NO_TENSOR, &err);
    if (st == AB_OK) st = ab_buf_write_file(&b, path, &err);
    ab_buf_free(&b);
    return st == AB_OK ? 0 : abc_fail(&err);
}

int abc_show_plan(const abc_args *a) {
    if (a->noperands != 2)
        return abc_usage_error(a->cmd, "expected a suite name and a planner spec");
    const char *dbpath = abc_opt(a, "db", ABC_DEFAULT_DB), *svg = abc_opt(a, "svg", NULL);
    const char *suite = a->operands[0], *spec = a->operands[1];
    abs_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abs_open(dbpath, ABS_OPEN_READONLY, &db, &err) != AB_OK) return abc_fail(&err);
    int64_t run;
    int rc = abc_resolve_run(db, dbpath, abc_opt(a, "run", NULL), NULL, &run);
    abs_rows rows = {0};
    if (rc == 0 && abs_rows_read(db, run, &rows, &err) != AB_OK) rc = abc_fail(&err);
    const abs_row *row = rc == 0 ? find_row(&rows, suite, spec) : NULL;
    if (rc == 0 && (row == NULL || row->r.plan_hash[0] == '\0'))
        rc = abc_failf(row == NULL ? ABC_EXIT_USAGE : ABC_EXIT_CHECK,
                       "%s: run %lld has no plan for suite '%s' with '%s'", dbpath,
                       (long long)run, suite, spec);
    ab_problem view;
    ab_plan pl;
    ab_problem_init(&view);
    ab_plan_init(&pl);
    if (rc == 0 && load_stored(db, row, &view, &pl, &err) != AB_OK) rc = abc_fail(&err);
    if (rc == 0 && abf_plan_write(abc_opt(a, "output", "-"), &view, &pl, &err) != AB_OK)
        rc = abc_fail(&err);
    if (rc == 0 && svg != NULL) rc = draw(row, run, &view, &pl, svg);
    ab_plan_free(&pl);
    ab_problem_free(&view);
    abs_rows_free(&rows);
    abs_close(db);
    return rc;
}
