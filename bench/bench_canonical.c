/*
 * bench_canonical.c — measures planner `canonical` on MiniMalloc's
 * challenging benchmarks (a standalone program, not a test; see
 * bench/README.md).
 *
 *   bench_canonical [-b BUDGET] [-c] [FILE...]
 *
 * FILE is a suite YAML or a MiniMalloc CSV (loaded by abh_load_problem:
 * half-open [lower, upper) becomes [lower, upper - 1]). Without FILE it runs
 * A-F.1048576.csv from ../shared/data/minimalloc beside the source tree (found
 * from this file's path), and
 * says so and exits 0 when that folder is absent. -b gives the planner's
 * budget parameters (default "time=60"); -c decides the suite's capacity
 * (target=capacity) instead of minimising.
 *
 * Per file it prints: the instance, the max-load bound, the result (the
 * proven minimum, or [bound, best] when the budget ran out), the oracle's
 * verdict, CPU seconds, nodes and the planner's note. Exit status: 0 every
 * plan valid (over the capacity counts as valid), 1 a plan invalid, 2 bad
 * usage or input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness/formats/formats.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"


static int run(const char *path, const char *budget, bool decide) {
    ab_problem p, view;
    ab_error err;
    if (abh_load_problem(path, NULL, &p, &err) != AB_OK) {
        fprintf(stderr, "bench_canonical: %s\n", err.msg);
        return 2;
    }
    char spec[256];
    snprintf(spec, sizeof spec, "canonical:%s%s", budget, decide ? ",target=capacity" : "");
    const ab_planner *pl;
    ab_params prm;
    if (ab_planner_resolve(spec, &pl, &prm, &err) != AB_OK) {
        fprintf(stderr, "bench_canonical: %s\n", err.msg);
        ab_problem_free(&p);
        return 2;
    }
    abo_bounds b;
    int64_t bound = abo_bounds_compute(&p, &b, &err) == AB_OK ? b.max_load : -1;
    ab_plan plan;
    ab_plan_stats st;
    memset(&st, 0, sizeof st);
    clock_t t0 = clock();
    ab_status s = ab_planner_run(pl, &prm, &p, &view, &plan, &st, &err);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    int rc = 0;
    if (s != AB_OK) {
        printf("%-16s %10lld  error: %s\n", base, (long long)bound, err.msg);
        rc = 2;
    } else {
        abo_report *r = malloc(sizeof *r);
        if (r == NULL || abo_check(&view, &plan, r, &err) != AB_OK) {
            fprintf(stderr, "bench_canonical: cannot check: %s\n", err.msg);
            rc = 2;
        } else {
            char result[64];
            if (st.proven_optimal) snprintf(result, sizeof result, "%lld", (long long)r->arena);
            else
                snprintf(result, sizeof result, "[%lld, %lld]", (long long)st.lower_bound,
                         (long long)r->arena);
            const char *verdict = r->verdict == ABO_OK ? "valid"
                                  : r->verdict == ABO_OVER_CAPACITY ? "over-cap" : "INVALID";
            if (r->verdict != ABO_OK && r->verdict != ABO_OVER_CAPACITY) rc = 1;
            printf("%-16s %10lld %-22s %-8s %8.2f %12lld  %s\n", base, (long long)bound, result,
                   verdict, cpu, (long long)st.nodes, st.note);
        }
        free(r);
        ab_plan_free(&plan);
        ab_problem_free(&view);
    }
    fflush(stdout);
    ab_params_free(&prm);
    ab_problem_free(&p);
    return rc;
}

static void usage(void) {
    fprintf(stderr, "usage: bench_canonical [-b BUDGET] [-c] [FILE...]\n"
                    "  -b BUDGET  planner budget parameters (default time=60), e.g. nodes=1000000\n"
                    "  -c         decide the suite's capacity (target=capacity) instead of minimising\n"
                    "  FILE       suite YAML or MiniMalloc CSV (default: A-F.1048576.csv from "
                    "../shared/data/minimalloc)\n");
}

int main(int argc, char **argv) {
    const char *budget = "time=60";
    bool decide = false;
    int opt;
    while ((opt = getopt(argc, argv, "b:ch")) != -1) {
        if (opt == 'b') budget = optarg;
        else if (opt == 'c') decide = true;
        else {
            usage();
            return opt == 'h' ? 0 : 2;
        }
    }
    printf("%-16s %10s %-22s %-8s %8s %12s  %s\n", "instance", "max-load", "result", "check",
           "cpu s", "nodes", "note");
    int rc = 0;
    if (optind < argc) {
        for (int a = optind; a < argc; a++) {
            int r = run(argv[a], budget, decide);
            if (r > rc) rc = r;
        }
        return rc;
    }
    /* the source tree from this file's path (CMake compiles it by its full path) */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", __FILE__);
    char *cut = strstr(dir, "bench/bench_canonical.c");
    if (cut == NULL) snprintf(dir, sizeof dir, "../shared/data/minimalloc");
    else snprintf(cut, sizeof dir - (size_t)(cut - dir), "../shared/data/minimalloc");
    if (access(dir, R_OK) != 0) {
        printf("bench_canonical: %s is absent: nothing to measure\n", dir);
        return 0;
    }
    for (char c = 'A'; c <= 'F'; c++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%c.1048576.csv", dir, c);
        int r = run(path, budget, decide);
        if (r > rc) rc = r;
    }
    return rc;
}
