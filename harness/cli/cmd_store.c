/*
 * cmd_store.c — subcommands that read the results store: show-plan (export a
 * stored plan again, as CSV or a picture), report and compare. Part of the
 * command layer.
 */
#include "harness/cli/commands.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "harness/formats/plan_csv.h"
#include "harness/formats/suite.h"
#include "oracle/check.h"
#include "results/report/compare.h"
#include "results/report/report.h"
#include "results/store/store.h"
#include "results/report/svg.h"

static int fail_msg(const ab_error *err) {
    fprintf(stderr, "arenabench: %s\n", err->msg);
    return ab_status_exit_code(err->status);
}

int abh_resolve_run(abr_store *db, const char *path, const char *which, const char *tag,
                    int64_t *run) {
    ab_error err;
    ab_error_clear(&err);
    if (which == NULL || strcmp(which, "latest") == 0) {
        if (abr_run_latest(db, tag, run, &err) != AB_OK) return fail_msg(&err);
        if (*run == 0) {
            fprintf(stderr, "arenabench: %s: no runs%s%s yet\n", path, tag ? " tagged " : "",
                    tag ? tag : "");
            return 2;
        }
        return 0;
    }
    if (!ab_parse_int64(which, strlen(which), run) || *run <= 0) {
        fprintf(stderr, "arenabench: a run is an id or 'latest', not '%s'\n", which);
        return 2;
    }
    abr_run info;
    if (abr_run_get(db, *run, &info, &err) != AB_OK) {
        fprintf(stderr, "arenabench: %s: no run %s\n", path, which);
        return 2;
    }
    abr_run_free(&info);
    return 0;
}

/* Finds the row of (suite name, spec) in rows; NULL when absent. */
static const abr_row *find_row(const abr_rows *rows, const char *suite, const char *spec) {
    for (size_t i = 0; i < rows->n; i++)
        if (strcmp(rows->v[i].suite.name, suite) == 0 && strcmp(rows->v[i].r.spec, spec) == 0)
            return &rows->v[i];
    return NULL;
}

/* Rebuilds the arena view of a stored suite and the stored plan of row. */
static ab_status load_stored(abr_store *db, const abr_row *row, ab_problem *view, ab_plan *pl,
                             ab_error *err) {
    char *text = NULL;
    size_t len = 0, n = 0;
    int64_t *off = NULL;
    ab_problem full;
    ab_problem_init(&full);
    ab_status st = abr_suite_text(db, row->suite.id, &text, &len, err);
    if (st == AB_OK) st = abh_suite_load_buffer(row->suite.name, text, len, &full, err);
    if (st == AB_OK) st = ab_problem_arena_view(&full, view, NULL, err);
    if (st == AB_OK) st = abr_plan_get(db, row->r.plan_hash, &off, &n, err);
    if (st == AB_OK && n != view->n)
        st = ab_fail(err, AB_EINTERNAL, "stored plan has %zu offsets for %zu tensors", n, view->n);
    if (st == AB_OK) st = ab_plan_from_offsets(pl, off, n, err);
    ab_free(text);
    ab_free(off);
    ab_problem_free(&full);
    return st;
}

int abh_cmd_show_plan(const char *dbpath, const char *which, const char *suite, const char *spec,
                      const char *out, const char *svg) {
    abr_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abr_open(dbpath, ABR_OPEN_READONLY, &db, &err) != AB_OK) return fail_msg(&err);
    int64_t run;
    int rc = abh_resolve_run(db, dbpath, which, NULL, &run);
    abr_rows rows = {0};
    if (rc == 0 && abr_rows_read(db, run, &rows, &err) != AB_OK) rc = fail_msg(&err);
    const abr_row *row = rc == 0 ? find_row(&rows, suite, spec) : NULL;
    if (rc == 0 && (row == NULL || row->r.plan_hash[0] == '\0')) {
        fprintf(stderr, "arenabench: %s: run %lld has no plan for suite '%s' with '%s'\n", dbpath,
                (long long)run, suite, spec);
        rc = row == NULL ? 2 : 1;
    }
    ab_problem view;
    ab_plan pl;
    ab_problem_init(&view);
    ab_plan_init(&pl);
    if (rc == 0 && load_stored(db, row, &view, &pl, &err) != AB_OK) rc = fail_msg(&err);
    if (rc == 0 && abh_plan_write(out ? out : "-", &view, &pl, &err) != AB_OK) rc = fail_msg(&err);
    if (rc == 0 && svg != NULL) {
        ab_buf b = {0};
        char title[512];
        snprintf(title, sizeof title, "%s — %s (run %lld)", suite, spec, (long long)run);
        ab_status st = abr_svg_plan(&b, &view, &pl, row->r.lower_bound, title, AB_NO_TENSOR,
                                    AB_NO_TENSOR, &err);
        if (st == AB_OK) st = ab_buf_write_file(&b, svg, &err);
        if (st != AB_OK) rc = fail_msg(&err);
        ab_buf_free(&b);
    }
    ab_plan_free(&pl);
    ab_problem_free(&view);
    abr_rows_free(&rows);
    abr_close(db);
    return rc;
}

/* The report's suite loader: stored canonical YAML back into a problem. */
static ab_status load_stored_text(const char *text, size_t len, ab_problem *out, ab_error *err) {
    return abh_suite_load_buffer("stored suite", text, len, out, err);
}

int abh_cmd_report(const char *dbpath, const char *which, const char *format, const char *out) {
    abr_report_format fmt = ABR_REPORT_MD;
    if (format != NULL && !abr_report_format_parse(format, &fmt)) {
        fprintf(stderr, "arenabench: --format takes md, html, csv or json, not '%s'\n", format);
        return 2;
    }
    abr_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abr_open(dbpath, ABR_OPEN_READONLY, &db, &err) != AB_OK) return fail_msg(&err);
    int64_t run;
    int rc = abh_resolve_run(db, dbpath, which, NULL, &run);
    ab_buf b = {0};
    abr_report_opts opt = {.load_suite = load_stored_text};
    if (rc == 0 && abr_report_render(db, run, fmt, &opt, &b, &err) != AB_OK) rc = fail_msg(&err);
    if (rc == 0 && ab_buf_write_file(&b, out ? out : "-", &err) != AB_OK) rc = fail_msg(&err);
    ab_buf_free(&b);
    abr_close(db);
    return rc;
}

int abh_cmd_compare(const char *dbpath, const char *base_s, const char *head_s, const char *tag,
                    double slow_ratio, double slow_min) {
    abr_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abr_open(dbpath, ABR_OPEN_READONLY, &db, &err) != AB_OK) return fail_msg(&err);
    int64_t base = 0, head = 0;
    int rc = abh_resolve_run(db, dbpath, head_s, tag, &head);
    if (rc == 0 && base_s != NULL) rc = abh_resolve_run(db, dbpath, base_s, NULL, &base);
    if (rc == 0 && base == 0) {
        if (abr_run_previous(db, head, &base, &err) != AB_OK) rc = fail_msg(&err);
        else if (base == 0) {
            printf("compare: run %lld has no earlier run with its tag: nothing to compare "
                   "(no regression)\n", (long long)head);
            abr_close(db);
            return 0;
        }
    }
    abr_compare_opts opt;
    abr_compare_opts_init(&opt);
    if (slow_ratio > 0) opt.slow_ratio = slow_ratio;
    if (slow_min >= 0) opt.slow_min_s = slow_min;
    ab_buf b = {0};
    abr_compare_summary sum;
    if (rc == 0 && abr_compare(db, base, head, &opt, &b, &sum, &err) != AB_OK) rc = fail_msg(&err);
    if (rc == 0 && ab_buf_write_file(&b, "-", &err) != AB_OK) rc = fail_msg(&err);
    if (rc == 0 && sum.regressions > 0) rc = 1;
    ab_buf_free(&b);
    abr_close(db);
    return rc;
}
