/*
 * report.c — `arenabench report`: renders a stored run (in a format of
 * results/report's table) to stdout or a file: the run given, the latest run
 * with a tag, or the latest run.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "results/report/report.h"
#include "results/store/store.h"

int abc_report(const abc_args *a) {
    const char *dbpath = abc_opt(a, "db", ABC_DEFAULT_DB), *which = abc_opt(a, "run", NULL);
    const char *format = abc_opt(a, "format", NULL), *out = abc_opt(a, "output", "-");
    abr_report_format fmt = ABR_REPORT_MD;
    if (format != NULL && !abr_report_format_parse(format, &fmt)) {
        ab_buf known = {0};
        abr_report_format_list(&known);
        int rc = abc_failf(ABC_EXIT_USAGE, "--format takes %s, not '%s'", known.s ? known.s : "",
                           format);
        ab_buf_free(&known);
        return rc;
    }
    abs_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abs_open(dbpath, ABS_OPEN_READONLY, &db, &err) != AB_OK) return abc_fail(&err);
    int64_t run;
    const char *tag = abc_opt(a, "tag", NULL);
    int rc = 0;
    if (tag != NULL && which != NULL && strcmp(which, "latest") != 0)
        rc = abc_usage_error(a->cmd, "--run %s and --tag %s: give one of them", which, tag);
    if (rc == 0) rc = abc_resolve_run(db, dbpath, which, tag, &run);
    ab_buf b = {0};
    abr_report_opts opt = {0};
    if (rc == 0 && abr_report_render(db, run, fmt, &opt, &b, &err) != AB_OK) rc = abc_fail(&err);
    if (rc == 0 && ab_buf_write_file(&b, out, &err) != AB_OK) rc = abc_fail(&err);
    ab_buf_free(&b);
    abs_close(db);
    return rc;
}
