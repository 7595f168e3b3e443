/*
 * compare.c — `arenabench compare`: judges a head run against a base run of
 * the results database; exit 1 when the head regressed.
 */
#include <stdio.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "results/report/compare.h"
#include "results/store/store.h"

/* The thresholds into opt; returns 0 or the exit code of a misuse. */
static int parse_thresholds(const abc_args *a, abr_compare_opts *opt) {
    const char *ratio = abc_opt(a, "slow-ratio", NULL), *min = abc_opt(a, "slow-min", NULL);
    abr_compare_opts_init(opt);
    if (ratio && (!abc_parse_number(ratio, &opt->slow_ratio, false) || opt->slow_ratio < 1))
        return abc_usage_error(a->cmd, "--slow-ratio takes a number >= 1, not '%s'", ratio);
    if (min && !abc_parse_number(min, &opt->slow_min_s, true))
        return abc_usage_error(a->cmd, "--slow-min takes seconds >= 0, not '%s'", min);
    return 0;
}

/* Finds head (the latest, among runs tagged tag when set) and base (the
 * previous run with head's tag when not given; 0 when there is none). */
static int resolve_runs(const abc_args *a, abr_store *db, int64_t *base, int64_t *head) {
    const char *dbpath = abc_opt(a, "db", ABH_DEFAULT_DB), *base_s = abc_opt(a, "base", NULL);
    ab_error err;
    ab_error_clear(&err);
    *base = 0;
    int rc = abc_resolve_run(db, dbpath, abc_opt(a, "head", NULL), abc_opt(a, "tag", NULL), head);
    if (rc == 0 && base_s != NULL) rc = abc_resolve_run(db, dbpath, base_s, NULL, base);
    if (rc == 0 && *base == 0 && abr_run_previous(db, *head, base, &err) != AB_OK)
        rc = abc_fail(&err);
    return rc;
}

int abc_compare(const abc_args *a) {
    abr_compare_opts opt;
    int rc = parse_thresholds(a, &opt);
    if (rc != 0) return rc;
    abr_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abr_open(abc_opt(a, "db", ABH_DEFAULT_DB), ABR_OPEN_READONLY, &db, &err) != AB_OK)
        return abc_fail(&err);
    int64_t base, head;
    rc = resolve_runs(a, db, &base, &head);
    if (rc == 0 && base == 0) {
        printf("compare: run %lld has no earlier run with its tag: nothing to compare "
               "(no regression)\n", (long long)head);
        abr_close(db);
        return 0;
    }
    ab_buf b = {0};
    abr_compare_summary sum;
    if (rc == 0 && abr_compare(db, base, head, &opt, &b, &sum, &err) != AB_OK) rc = abc_fail(&err);
    if (rc == 0 && ab_buf_write_file(&b, "-", &err) != AB_OK) rc = abc_fail(&err);
    if (rc == 0 && sum.regressions > 0) rc = ABC_EXIT_CHECK;
    ab_buf_free(&b);
    abr_close(db);
    return rc;
}
