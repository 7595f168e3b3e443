/*
 * common.c — steps that more than one command takes (common.h).
 */
#include "core/buf.h"
#include "harness/cli/common.h"

#include <stdlib.h>
#include <string.h>

#include "harness/cli/fail.h"
#include "harness/formats/formats.h"
#include "results/store/store.h"

int abc_load_suite(const char *path, ab_problem *p) {
    ab_error err;
    ab_error_clear(&err);
    if (abh_load_problem(path, NULL, p, &err) != AB_OK) return abc_fail(&err);
    return 0;
}

void abc_print_bytes(FILE *to, const char *label, int64_t v) {
    fprintf(to, "%-10s %lld bytes\n", label, (long long)v);
}

/* The len bytes at m on a line of their own after prefix, escaped for the
 * terminal (checker messages hold tensor names). */
static void put_line(FILE *to, const char *prefix, const char *m, size_t len) {
    ab_buf line = {0};
    ab_buf_append(&line, m, len);
    fprintf(to, "%s%s\n", prefix, line.oom ? "(out of memory)" : ab_term(line.s ? line.s : ""));
    ab_buf_free(&line);
}

int abc_print_verdict(const abo_report *r, FILE *to) {
    if (r->verdict == ABO_OK) {
        fprintf(to, "check      ok (%s)\n", abo_verdict_text(ABO_OK));
        return 0;
    }
    if (r->verdict == ABO_OVER_CAPACITY)
        fprintf(to, "check      OVER CAPACITY: the plan is otherwise valid, but %s (%zu "
                "problem%s)\n", abo_verdict_text(r->verdict), r->nproblems,
                r->nproblems == 1 ? "" : "s");
    else
        fprintf(to, "check      INVALID: %s (%zu problem%s)\n", abo_verdict_text(r->verdict),
            r->nproblems, r->nproblems == 1 ? "" : "s");
    const char *m = r->msg;
    while (*m != '\0') {
        size_t len = strcspn(m, "\n");
        put_line(to, "  ", m, len);
        m += len + (m[len] == '\n');
    }
    return ABC_EXIT_CHECK;
}

void abc_print_over_capacity(const abo_report *r, int64_t capacity, abo_proof refuted_by,
                             int64_t bound, FILE *to) {
    if (capacity != AB_NONE && r->arena > capacity)
        fprintf(to, "check      valid plan, but over the capacity: arena %lld exceeds capacity "
                "%lld by %lld bytes\n", (long long)r->arena, (long long)capacity,
                (long long)(r->arena - capacity));
    else
        put_line(to, "check      valid plan, but over a pool: ", r->msg, strcspn(r->msg, "\n"));
    if (refuted_by != ABO_PROOF_NONE)
        fprintf(to, "status     infeasible: no plan fits the capacity %lld, proven by %s (lower "
                "bound %lld > %lld)\n", (long long)capacity, abo_proof_word(refuted_by),
                (long long)bound, (long long)capacity);
    else
        fprintf(to, "status     over-capacity: nothing proved that no plan fits (another "
                "planner may fit it)\n");
}

bool abc_plan_format_ok(const char *format) {
    return format == NULL || strcmp(format, "csv") == 0 || strcmp(format, "minimalloc") == 0;
}

bool abc_plan_format_is_minimalloc(const char *format) {
    return format != NULL && strcmp(format, "minimalloc") == 0;
}

bool abc_parse_number(const char *s, double *out, bool zero_ok) {
    char *end;
    *out = strtod(s, &end);
    return *end == '\0' && end != s && (*out > 0 || (zero_ok && *out == 0));
}

int abc_resolve_run(abr_store *db, const char *path, const char *which, const char *tag,
                    int64_t *run) {
    ab_error err;
    ab_error_clear(&err);
    if (which == NULL || strcmp(which, "latest") == 0) {
        if (abr_run_latest(db, tag, run, &err) != AB_OK) return abc_fail(&err);
        if (*run == 0)
            return abc_failf(ABC_EXIT_USAGE, "%s: no runs%s%s yet", path, tag ? " tagged " : "",
                             tag ? tag : "");
        return 0;
    }
    if (!ab_parse_int64(which, strlen(which), run) || *run <= 0)
        return abc_failf(ABC_EXIT_USAGE, "a run is an id or 'latest', not '%s'", which);
    abr_run info;
    if (abr_run_get(db, *run, &info, &err) != AB_OK)
        return abc_failf(ABC_EXIT_USAGE, "%s: no run %s", path, which);
    abr_run_free(&info);
    return 0;
}
