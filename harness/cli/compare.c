/*
 * compare.c — `arenabench compare`: judges a head run against a base run of
 * the results database (or spec A against spec B, across runs or within
 * one); exit 1 when the head regressed.
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/suggest.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "results/report/compare.h"
#include "results/store/store.h"

/* One threshold option into *v (unchanged when not given); 0 or the exit
 * code of a misuse. A ratio is >= 1, a minimum >= 0 seconds. */
static int parse_threshold(const abc_args *a, const char *name, bool ratio, double *v) {
    const char *s = abc_opt(a, name, NULL);
    if (s == NULL) return 0;
    if (!abc_parse_number(s, v, !ratio) || (ratio && *v < 1))
        return abc_usage_error(a->cmd, "--%s takes %s, not '%s'", name,
                               ratio ? "a number >= 1" : "seconds >= 0", s);
    return 0;
}

static int parse_format(const abc_args *a, abr_compare_format *f) {
    const char *s = abc_opt(a, "format", "text");
    if (strcmp(s, "text") == 0) *f = ABR_COMPARE_TEXT;
    else if (strcmp(s, "json") == 0) *f = ABR_COMPARE_JSON;
    else return abc_usage_error(a->cmd, "--format takes text or json, not '%s'", s);
    return 0;
}

/* The options into opt; pairs (room for ABC_MAX_SPECS + 1) and their text in
 * *bufs (owned by the caller, ab_free). 0 or the exit code of a misuse. */
static int parse_opts(const abc_args *a, abr_compare_opts *opt, abr_spec_pair *pairs,
                      char **bufs) {
    abr_compare_opts_init(opt);
    int rc = parse_threshold(a, "slow-ratio", true, &opt->slow_ratio);
    if (rc == 0) rc = parse_threshold(a, "slow-min", false, &opt->slow_min_s);
    if (rc == 0) rc = parse_threshold(a, "fast-ratio", true, &opt->fast_ratio);
    if (rc == 0) rc = parse_threshold(a, "fast-min", false, &opt->fast_min_s);
    if (rc == 0) rc = parse_format(a, &opt->format);
    if (rc != 0) return rc;
    opt->fail_on_time = abc_flag(a, "fail-on-time");
    const char *texts[ABC_MAX_SPECS];
    int n = abc_opt_all(a, "pair", texts);
    ab_error err;
    for (int i = 0; i < n; i++) {
        bufs[i] = ab_malloc(strlen(texts[i]) + 1);
        if (bufs[i] == NULL) return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
        if (!abr_spec_pair_parse(texts[i], bufs[i], &pairs[i], &err))
            return abc_usage_error(a->cmd, "--pair: %s", err.msg);
    }
    const char *bs = abc_opt(a, "base-spec", NULL), *hs = abc_opt(a, "head-spec", NULL);
    if ((bs == NULL) != (hs == NULL))
        return abc_usage_error(a->cmd, "--base-spec and --head-spec go together");
    if (bs != NULL) pairs[n++] = (abr_spec_pair){bs, hs};
    opt->pairs = pairs;
    opt->npairs = (size_t)n;
    return 0;
}

/* Finds head (the latest, among runs tagged tag when set) and base (the
 * previous run with head's tag when not given; 0 when there is none); --run
 * gives both. */
static int resolve_runs(const abc_args *a, abs_store *db, int64_t *base, int64_t *head) {
    const char *dbpath = abc_opt(a, "db", ABC_DEFAULT_DB), *base_s = abc_opt(a, "base", NULL);
    const char *run_s = abc_opt(a, "run", NULL);
    ab_error err;
    ab_error_clear(&err);
    *base = 0;
    if (run_s != NULL) {
        if (base_s != NULL || abc_opt(a, "head", NULL) != NULL)
            return abc_usage_error(a->cmd, "--run is both base and head: give it alone");
        int rc = abc_resolve_run(db, dbpath, run_s, abc_opt(a, "tag", NULL), head);
        *base = *head;
        return rc;
    }
    int rc = abc_resolve_run(db, dbpath, abc_opt(a, "head", NULL), abc_opt(a, "tag", NULL), head);
    if (rc == 0 && base_s != NULL) rc = abc_resolve_run(db, dbpath, base_s, NULL, base);
    if (rc == 0 && *base == 0 && abs_run_previous(db, *head, base, &err) != AB_OK)
        rc = abc_fail(&err);
    return rc;
}

/* Nothing to compare: head has no earlier run of its tag. Exit 0. */
static int nothing_to_compare(const abr_compare_opts *opt, int64_t head) {
    if (opt->format == ABR_COMPARE_JSON)
        printf("{\"format\": \"arenabench-compare\", \"version\": 1,\n  \"base\": null,\n"
               "  \"head\": {\"run\": %lld},\n  \"verdict\": \"nothing to compare\"\n}\n",
               (long long)head);
    else
        printf("compare: run %lld has no earlier run with its tag: nothing to compare "
               "(no regression)\n", (long long)head);
    return 0;
}

/* A --pair side without '*' that names no spec of its run is a typo, not a
 * comparison of nothing (issue 31): exit 2, with the closest spec of that
 * run. 0 when every literal side has rows. */
static int check_pair_specs(abs_store *db, int64_t base, int64_t head, const abr_compare_opts *o) {
    abs_rows side[2];
    int64_t runs[2] = {base, head};
    ab_error err;
    int rc = 0;
    memset(side, 0, sizeof side);
    for (int k = 0; k < 2 && rc == 0; k++)
        if (abs_rows_read(db, runs[k], &side[k], &err) != AB_OK) rc = abc_fail(&err);
    for (size_t i = 0; rc == 0 && i < o->npairs; i++) {
        const char *want[2] = {o->pairs[i].base, o->pairs[i].head};
        for (int k = 0; k < 2 && rc == 0; k++) {
            if (strchr(want[k], '*') != NULL) continue; /* a pattern: compare's notice says */
            bool found = false;
            ab_suggest sg;
            ab_suggest_init(&sg, want[k]);
            for (size_t r = 0; r < side[k].n && !found; r++) {
                found = strcmp(side[k].v[r].r.spec, want[k]) == 0;
                ab_suggest_offer(&sg, side[k].v[r].r.spec);
            }
            if (!found)
                rc = abc_failf(ABC_EXIT_USAGE, "--pair %s=%s: run %lld (%s) has no row of spec "
                               "'%s'%s%s%s", o->pairs[i].base, o->pairs[i].head,
                               (long long)runs[k], k ? "head" : "base", want[k],
                               sg.best ? "; did you mean '" : "", sg.best ? sg.best : "",
                               sg.best ? "'?" : "");
        }
    }
    for (int k = 0; k < 2; k++) abs_rows_free(&side[k]);
    return rc;
}

int abc_compare(const abc_args *a) {
    abr_compare_opts opt;
    abr_spec_pair pairs[ABC_MAX_SPECS + 1];
    char *bufs[ABC_MAX_SPECS] = {NULL};
    int rc = parse_opts(a, &opt, pairs, bufs);
    abs_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (rc == 0 && abs_open(abc_opt(a, "db", ABC_DEFAULT_DB), ABS_OPEN_READONLY, &db, &err) != AB_OK)
        rc = abc_fail(&err);
    int64_t base = 0, head = 0;
    if (rc == 0) rc = resolve_runs(a, db, &base, &head);
    ab_buf b = {0};
    abr_compare_summary sum;
    if (rc == 0 && base == 0) {
        rc = nothing_to_compare(&opt, head);
    } else if (rc == 0) {
        rc = check_pair_specs(db, base, head, &opt);
        if (rc == 0 && abr_compare(db, base, head, &opt, &b, &sum, &err) != AB_OK)
            rc = abc_fail(&err);
        if (rc == 0 && ab_buf_write_file(&b, "-", &err) != AB_OK) rc = abc_fail(&err);
        if (rc == 0 && sum.regressions > 0) rc = ABC_EXIT_CHECK;
    }
    ab_buf_free(&b);
    abs_close(db);
    for (int i = 0; i < ABC_MAX_SPECS; i++) ab_free(bufs[i]);
    return rc;
}
