/*
 * merge.c — `arenabench merge OUT.db IN.db...`: merges shard databases
 * into OUT (results/store: abs_merge), printing what each added.
 */
#include <stdio.h>

#include "harness/cli/commands.h"
#include "harness/cli/fail.h"
#include "harness/run/run.h"
#include "results/store/store.h"


/* Merges the shard databases in[0 .. nin) into out; the exit code. */
static int merge(const char *out, const char *const *in, int nin) {
    abs_store *db;
    ab_error err;
    ab_error_clear(&err);
    if (abs_open(out, ABS_OPEN_CREATE, &db, &err) != AB_OK) return abc_fail(&err);
    int rc = 0;
    for (int i = 0; i < nin && rc == 0; i++) {
        abs_merge_stats st = {0};
        if (abs_merge(db, in[i], &st, &err) != AB_OK) {
            rc = abc_fail(&err);
            break;
        }
        printf("%s: %lld run%s added, %lld joined, %lld results added, %lld already present\n",
               in[i], (long long)st.runs_added, st.runs_added == 1 ? "" : "s",
               (long long)st.runs_joined, (long long)st.results_added,
               (long long)st.results_skipped);
    }
    size_t filled = 0; /* the views of suites merged from files of schema 4 or older */
    if (rc == 0 && abu_fill_views(db, &filled, &err) != AB_OK) rc = abc_fail(&err);
    abs_close(db);
    return rc;
}

int abc_merge(const abc_args *a) {
    if (a->noperands < 2)
        return abc_usage_error(a->cmd, "expected OUT.db and at least one IN.db");
    return merge(a->operands[0], a->operands + 1, a->noperands - 1);
}
