/*
 * bench_canonical.c — measures planner `canonical` on MiniMalloc's
 * challenging benchmarks (a standalone program, not a test; see
 * bench/README.md).
 *
 *   bench_canonical [-b BUDGET] [-c] [-C BYTES] [-w K1:K2] [-F PCT] [FILE...]
 *
 * FILE is a suite YAML or a MiniMalloc CSV (loaded by abf_load_problem:
 * half-open [lower, upper) becomes [lower, upper - 1]). Without FILE it runs
 * A-F.1048576.csv from ../shared/data/minimalloc beside the source tree (found
 * from this file's path), and
 * says so and exits 0 when that folder is absent. -b gives the planner's
 * budget parameters (default "time=60"); -c decides the suite's capacity
 * (target=capacity) instead of minimising; -C sets that capacity. -w cuts the
 * suite to a window of its sections first: a section is an instruction where
 * the live set changes (a start, or an end + 1), numbered from 0; a tensor
 * live at a section of K1..K2 is kept, live over the window's sections it was
 * live at (renumbered from 0), and the others are dropped. A window's
 * optimum bounds the suite's from below (its conflicts are the suite's), and
 * a window that fits a capacity says nothing of the whole. -F fixes about PCT
 * percent of the tensors (tensor i when splitmix64(i) mod 100 < PCT) at the
 * offsets of a first plan (canonical, nodes=1000000), so the run measures
 * the search with fixed offsets: the plan is a witness that its arena fits.
 *
 * Per file it prints: the instance, the max-load bound, the result (the
 * proven minimum, or [bound, best] when the budget ran out), the oracle's
 * verdict, CPU seconds, nodes and the planner's note. Exit status: 0 every
 * plan valid (over the capacity counts as valid), 1 a plan invalid, 2 bad
 * usage or input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/ab.h"
#include "harness/formats/formats.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"


/* Replaces *p by its window of sections k1..k2 (see the top); false (with a
 * message) when the window is empty or out of range, or memory runs out. */
static bool cut_window(ab_problem *p, int64_t k1, int64_t k2, const char *path) {
    if (p->npools > 0) {
        fprintf(stderr, "bench_canonical: %s declares pools: -w cuts suites without pools only\n", path);
        return false;
    }
    size_t n = p->n;
    int32_t *s0 = malloc((n ? n : 1) * sizeof *s0), *s1 = malloc((n ? n : 1) * sizeof *s1), secs = 0;
    if (s0 == NULL || s1 == NULL || !ab_problem_sections(p, s0, s1, &secs, NULL)) {
        free(s0), free(s1);
        return fprintf(stderr, "bench_canonical: out of memory\n"), false;
    }
    if (k2 >= secs) {
        fprintf(stderr, "bench_canonical: %s has %d sections (0 .. %d): no window %lld:%lld\n", path,
                (int)secs, secs ? (int)secs - 1 : 0, (long long)k1, (long long)k2);
        return free(s0), free(s1), false;
    }
    ab_problem w;
    ab_problem_init(&w);
    ab_error err;
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        ab_tensor t = p->t[i];
        int64_t a = s0[i], b = s1[i];
        if (a < k1) a = k1;
        if (b > k2) b = k2;
        if (a > b) continue;
        t.start = a - k1, t.end = b - k1;
        if (ab_problem_add(&w, &t, &err) != AB_OK) {
            fprintf(stderr, "bench_canonical: %s\n", err.msg);
            ok = false;
        }
    }
    free(s0), free(s1);
    if (ok && w.n == 0) fprintf(stderr, "bench_canonical: the window %lld:%lld of %s is empty\n",
                                (long long)k1, (long long)k2, path), ok = false;
    if (!ok) return ab_problem_free(&w), false;
    w.capacity = p->capacity, w.alignment = p->alignment, w.io = p->io;
    ab_problem_free(p);
    *p = w;
    return true;
}

/* Fixes about pct percent of p's arena tensors at a first plan's offsets
 * (see the top); false (with a message) when it cannot plan. */
static bool fix_part(ab_problem *p, int pct, const char *path) {
    const ab_planner *pl;
    ab_params prm;
    ab_error err;
    ab_problem view;
    size_t *map = NULL;
    if (ab_problem_arena_view(p, &view, &map, &err) != AB_OK) {
        fprintf(stderr, "bench_canonical: %s: %s\n", path, err.msg);
        return false;
    }
    int64_t *off = malloc((view.n ? view.n : 1) * sizeof *off);
    ab_plan_stats st;
    memset(&st, 0, sizeof st);
    bool ok = off != NULL && ab_planner_resolve("canonical:nodes=1000000", &pl, &prm, &err) == AB_OK;
    if (ok) {
        ok = ab_planner_plan(pl, &prm, &view, off, &st, &err) == AB_OK;
        ab_params_free(&prm);
    }
    if (ok)
        for (size_t k = 0; k < view.n; k++) {
            uint64_t z = (uint64_t)(map[k] + 1) * 0x9E3779B97F4A7C15ull; /* splitmix64 of the index */
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            z ^= z >> 31;
            if ((int)(z % 100) < pct) p->t[map[k]].offset = off[k];
        }
    else
        fprintf(stderr, "bench_canonical: %s: cannot make the first plan for -F\n", path);
    free(off), free(map);
    ab_problem_free(&view);
    return ok;
}

static int run(const char *path, const char *budget, bool decide, int64_t capacity, int64_t k1,
               int64_t k2, int fixpct) {
    ab_problem p, view;
    ab_error err;
    if (abf_load_problem(path, NULL, &p, &err) != AB_OK) {
        fprintf(stderr, "bench_canonical: %s\n", err.msg);
        return 2;
    }
    if (k1 >= 0 && !cut_window(&p, k1, k2, path)) return ab_problem_free(&p), 2;
    if (fixpct > 0 && !fix_part(&p, fixpct, path)) return ab_problem_free(&p), 2;
    if (capacity > 0) p.capacity = capacity;
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
    const char *slash = strrchr(path, '/');
    char base[512];
    if (k1 >= 0) snprintf(base, sizeof base, "%s@%lld:%lld", slash ? slash + 1 : path, (long long)k1, (long long)k2);
    else snprintf(base, sizeof base, "%s", slash ? slash + 1 : path);
    if (fixpct > 0) snprintf(base + strlen(base), sizeof base - strlen(base), " F%d", fixpct);
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
    fprintf(stderr, "usage: bench_canonical [-b BUDGET] [-c] [-C BYTES] [-w K1:K2] [-F PCT] [FILE...]\n"
                    "  -b BUDGET  planner budget parameters (default time=60), e.g. nodes=1000000\n"
                    "  -c         decide the suite's capacity (target=capacity) instead of minimising\n"
                    "  -C BYTES   the capacity -c decides (default: the suite's, X.<N>.csv's N)\n"
                    "  -w K1:K2   first cut each suite to its sections K1..K2 (from 0; a section is\n"
                    "             where the live set changes): the tensors live there, over those\n"
                    "             sections only; its optimum bounds the suite's from below\n"
                    "  -F PCT     first fix about PCT%% of the tensors where a first plan put them\n"
                    "             (canonical, nodes=1000000): the search with fixed offsets\n"
                    "  FILE       suite YAML or MiniMalloc CSV (default: A-F.1048576.csv from "
                    "../shared/data/minimalloc)\n");
}

int main(int argc, char **argv) {
    const char *budget = "time=60";
    bool decide = false;
    int64_t capacity = 0, k1 = -1, k2 = -1;
    int opt, fixpct = 0;
    while ((opt = getopt(argc, argv, "b:cC:w:F:h")) != -1) {
        char *end;
        if (opt == 'b') budget = optarg;
        else if (opt == 'c') decide = true;
        else if (opt == 'C') {
            long long v = strtoll(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || v <= 0) {
                fprintf(stderr, "bench_canonical: -C: expected a capacity in bytes > 0, got '%s'\n", optarg);
                return 2;
            }
            capacity = v;
        } else if (opt == 'w') {
            long long a = strtoll(optarg, &end, 10), b = -1;
            if (end != optarg && *end == ':') b = strtoll(end + 1, &end, 10);
            if (*end != '\0' || a < 0 || b < a || b > INT32_MAX) {
                fprintf(stderr, "bench_canonical: -w: expected K1:K2 with 0 <= K1 <= K2, got '%s'\n", optarg);
                return 2;
            }
            k1 = a, k2 = b;
        } else if (opt == 'F') {
            long v = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || v < 1 || v > 100) {
                fprintf(stderr, "bench_canonical: -F: expected a percentage 1-100, got '%s'\n", optarg);
                return 2;
            }
            fixpct = (int)v;
        } else {
            usage();
            return opt == 'h' ? 0 : 2;
        }
    }
    printf("%-16s %10s %-22s %-8s %8s %12s  %s\n", "instance", "max-load", "result", "check",
           "cpu s", "nodes", "note");
    int rc = 0;
    if (optind < argc) {
        for (int a = optind; a < argc; a++) {
            int r = run(argv[a], budget, decide, capacity, k1, k2, fixpct);
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
        int r = run(path, budget, decide, capacity, k1, k2, fixpct);
        if (r > rc) rc = r;
    }
    return rc;
}
