/*
 * bench_exact.c — measures planner `exact-cover` (a standalone program, not a
 * test; see bench/README.md): for each input file and each planner spec, one
 * run in a forked child (so its peak RSS is its own), under a time budget.
 *
 *   bench_exact [-t SECONDS] [-p SPEC]... [-r COUNT:N:SEED[:KIND]] FILE...
 *
 * -r adds COUNT random problems of N tensors (seeds SEED, SEED+1, ...):
 * N/2 instructions, lives of 1-6 instructions (one in eight up to N/4).
 * KIND kib (the default): sizes 1-32 KiB in KiB steps, alignment 1:
 * mid-size instances whose optimum is often above the max-load bound, so the
 * search has real work. KIND coprime: sizes 1-50000 bytes (any value, so
 * their gcd is almost always 1), alignments 1, 2, 4, ..., 64 at random: the
 * canvas of the old unit-cell matrix is tens of thousands of cells high.
 * KIND clique: as coprime, but every tensor is live at instruction 0 (all
 * pairwise in conflict: the most gravity offsets).
 *
 * FILE is a suite YAML, or a MiniMalloc CSV (`id,lower,upper,size`): MiniMalloc
 * live ranges are HALF-OPEN [lower, upper), so a buffer becomes a tensor live
 * on [lower, upper - 1]; a file named X.<N>.csv gets capacity N (the packing
 * MiniMalloc's benchmarks ask for). The conversion lives here, not in the
 * product (the importer is `arenabench import`).
 *
 * Each spec gets ",time=SECONDS" appended unless it sets time itself (default
 * 10 s; a spec may say time=60). Per run it prints: the file, the spec, the
 * outcome (proven optimal, fits the capacity, infeasible, budget, or the
 * planner's error), the arena and the max-load bound in bytes, the oracle's
 * verdict, the planner's proven bound, search nodes, wall and CPU seconds, nodes per
 * second, the child's peak RSS, and the planner's note.
 *
 * -d DIR writes each random problem to DIR/<name>.yaml as well (a suite every
 * command reads), so other planners and `arenabench plan` can be run on it.
 *
 * Exit status: 0 every plan valid (over-capacity counts as valid: that is the
 * infeasible answer), 1 a plan was invalid, 2 bad usage, 3 a child failed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/formats/suite.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"

#define MAX_SPECS 16

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ---- MiniMalloc CSV --------------------------------------------------------------- */

/* The capacity in a name like "A.1048576.csv", or AB_NONE. */
static int64_t capacity_from_name(const char *path) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strchr(base, '.');
    if (dot == NULL) return AB_NONE;
    const char *end = strchr(dot + 1, '.');
    int64_t v;
    if (end == NULL || !ab_parse_int64(dot + 1, (size_t)(end - dot - 1), &v) || v < 1) return AB_NONE;
    return v;
}

/* Loads a MiniMalloc CSV into p (header id,lower,upper,size). */
static bool load_minimalloc(const char *path, ab_problem *p, char *why, size_t len) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(why, len, "%s: %s", path, strerror(errno));
        return false;
    }
    ab_problem_init(p);
    const char *base = strrchr(path, '/');
    p->name = ab_strdup(base ? base + 1 : path);
    p->capacity = capacity_from_name(path);
    char line[512];
    int lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (lineno == 1 || line[0] == '\0') continue; /* the header */
        char *id = strtok(line, ","), *lo = strtok(NULL, ","), *up = strtok(NULL, ","),
             *sz = strtok(NULL, ",");
        int64_t lower, upper, size;
        if (!id || !lo || !up || !sz || !ab_parse_int64(lo, strlen(lo), &lower) ||
            !ab_parse_int64(up, strlen(up), &upper) || !ab_parse_int64(sz, strlen(sz), &size) ||
            upper <= lower || size < 1 || lower < 0) {
            snprintf(why, len, "%s:%d: expected id,lower,upper,size with lower < upper", path, lineno);
            ok = false;
            break;
        }
        ab_tensor t = {.name = id, .size = size, .logical_bits = size * 8, .start = lower,
                       .end = upper - 1, .align = 1, .offset = AB_NONE};
        if (ab_problem_add(p, &t, NULL) != AB_OK) {
            snprintf(why, len, "out of memory");
            ok = false;
        }
    }
    fclose(f);
    if (!ok) ab_problem_free(p);
    return ok;
}

static bool load_any(const char *path, ab_problem *p, char *why, size_t len) {
    if (ends_with(path, ".csv")) return load_minimalloc(path, p, why, len);
    ab_error err;
    if (abf_suite_load(path, p, &err) != AB_OK) {
        snprintf(why, len, "%s", err.msg);
        return false;
    }
    return true;
}

/* ---- one run, in a child ------------------------------------------------------------ */

typedef struct outcome {
    int status;             /* ab_status of the planner */
    int verdict;            /* abo_verdict */
    int64_t arena, bound, lower_bound, nodes;
    bool proven;
    double seconds, cpu;    /* wall and CPU (clock()) seconds of the planner */
    long maxrss_kib;        /* the child's peak RSS */
    char note[160];
    char error[AB_ERROR_MAX];
} outcome;

/* Plans p with spec and fills *o (in the child). */
static void run_one(const ab_problem *p, const char *spec, outcome *o) {
    memset(o, 0, sizeof *o);
    o->verdict = -1;
    const ab_planner *pl;
    ab_params prm;
    ab_error err;
    ab_error_clear(&err);
    abo_bounds b;
    if (abo_bounds_compute(p, &b, &err) == AB_OK) o->bound = b.max_load;
    ab_status st = ab_planner_resolve(spec, &pl, &prm, &err);
    if (st != AB_OK) {
        o->status = st;
        snprintf(o->error, sizeof o->error, "%s", err.msg);
        return;
    }
    ab_problem view;
    ab_plan plan;
    ab_plan_stats stats;
    double t0 = now_seconds();
    clock_t c0 = clock();
    st = ab_planner_run(pl, &prm, p, &view, &plan, &stats, &err);
    o->cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    o->seconds = now_seconds() - t0;
    o->status = st;
    if (st == AB_OK) {
        abo_report *r = malloc(sizeof *r);
        if (r && abo_check(&view, &plan, r, &err) == AB_OK) {
            o->verdict = r->verdict;
            o->arena = r->arena;
        }
        free(r);
        o->lower_bound = stats.lower_bound;
        o->nodes = stats.nodes;
        o->proven = stats.proven_optimal;
        snprintf(o->note, sizeof o->note, "%s", stats.note);
    } else {
        snprintf(o->error, sizeof o->error, "%s", err.msg);
    }
    ab_plan_free(&plan);
    ab_problem_free(&view);
    ab_params_free(&prm);
}

/* Runs spec on p in a child; *maxrss_kib receives its peak RSS. false when
 * the child died without a result. */
static bool run_child(const ab_problem *p, const char *spec, outcome *o, long *maxrss_kib) {
    int fd[2];
    if (pipe(fd) != 0) return false;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        close(fd[0]);
        outcome out;
        run_one(p, spec, &out);
        struct rusage ru;
        out.maxrss_kib = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
        ssize_t w = write(fd[1], &out, sizeof out);
        _exit(w == (ssize_t)sizeof out ? 0 : 1);
    }
    close(fd[1]);
    size_t got = 0;
    while (got < sizeof *o) {
        ssize_t r = read(fd[0], (char *)o + got, sizeof *o - got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd[0]);
    int wst;
    if (waitpid(pid, &wst, 0) < 0) return false;
    *maxrss_kib = o->maxrss_kib;
    return got == sizeof *o && WIFEXITED(wst) && WEXITSTATUS(wst) == 0;
}

static const char *outcome_word(const outcome *o) {
    if (o->status != AB_OK) return o->status == AB_ELIMIT ? "refused" : "error";
    if (o->verdict != ABO_OK && o->verdict != ABO_OVER_CAPACITY) return "INVALID";
    if (strstr(o->note, "budget ran out")) return "budget";
    if (o->verdict == ABO_OVER_CAPACITY) return "infeasible";
    if (o->proven) return "optimal";
    if (strstr(o->note, "fits the capacity")) return "fits";
    if (strstr(o->note, "optimal")) return "optimal-k";
    return "done";
}

/* ---- random problems ----------------------------------------------------------------- */

static uint64_t rng_state;
static uint64_t rng_next(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef enum rkind { R_KIB, R_COPRIME, R_CLIQUE } rkind;

static void random_problem(ab_problem *p, size_t n, uint64_t seed, rkind kind) {
    static const char *const kname[] = {"random", "coprime", "clique"};
    rng_state = seed;
    ab_problem_init(p);
    char name[48];
    snprintf(name, sizeof name, "%s-%zu-%llu", kname[kind], n, (unsigned long long)seed);
    p->name = ab_strdup(name);
    int64_t horizon = (int64_t)n / 2 + 1;
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "t%zu", i);
        int64_t s = (int64_t)(rng_next() % (uint64_t)horizon);
        int64_t len = rng_next() % 8 == 0 ? 1 + (int64_t)(rng_next() % (n / 4 + 1))
                                          : 1 + (int64_t)(rng_next() % 6);
        int64_t size = 1024 * (1 + (int64_t)(rng_next() % 32)), align = 1;
        if (kind != R_KIB) {
            size = 1 + (int64_t)(rng_next() % 50000);
            align = (int64_t)1 << (rng_next() % 7);
        }
        if (kind == R_CLIQUE) s = 0;
        ab_tensor t = {.name = name, .size = size, .logical_bits = size * 8, .start = s,
                       .end = s + len - 1, .align = align, .offset = AB_NONE};
        ab_problem_add(p, &t, NULL);
    }
}

static void usage(void) {
    fprintf(stderr, "usage: bench_exact [-t SECONDS] [-p SPEC]... [-r COUNT:N:SEED[:KIND]] FILE...\n"
                    "  FILE: a suite YAML or a MiniMalloc CSV (id,lower,upper,size; capacity from "
                    "X.<N>.csv)\n"
                    "  -p SPEC     planner spec (repeatable; default exact-cover)\n"
                    "  -t SECONDS  time budget appended as time= unless the spec sets it (default "
                    "10)\n"
                    "  -r COUNT:N:SEED[:KIND]  also COUNT random problems of N tensors; KIND kib "
                    "(default), coprime or clique\n"
                    "  -d DIR      also write each random problem to DIR/<name>.yaml (for other "
                    "planners)\n");
}

int main(int argc, char **argv) {
    const char *specs[MAX_SPECS];
    size_t nspecs = 0;
    double budget = 10;
    unsigned long long rcount = 0, rn = 0, rseed = 0;
    char kind_s[16] = "kib";
    rkind kind = R_KIB;
    const char *dump = NULL;
    int opt;
    while ((opt = getopt(argc, argv, "p:t:r:d:h")) != -1) {
        if (opt == 'p' && nspecs < MAX_SPECS) specs[nspecs++] = optarg;
        else if (opt == 't' && (budget = atof(optarg)) > 0) continue;
        else if (opt == 'd') dump = optarg;
        else if (opt == 'r' &&
                 sscanf(optarg, "%llu:%llu:%llu:%15s", &rcount, &rn, &rseed, kind_s) >= 3 &&
                 rn > 0 &&
                 (strcmp(kind_s, "kib") == 0 || strcmp(kind_s, "coprime") == 0 ||
                  strcmp(kind_s, "clique") == 0))
            kind = kind_s[0] == 'k' ? R_KIB : kind_s[1] == 'o' ? R_COPRIME : R_CLIQUE;
        else {
            usage();
            return opt == 'h' ? 0 : 2;
        }
    }
    if (optind >= argc && rcount == 0) {
        usage();
        return 2;
    }
    if (nspecs == 0) specs[nspecs++] = "exact-cover";
    int rc = 0;
    printf("%-22s %-38s %-10s %10s %10s %10s %12s %8s %8s %10s %8s  %s\n", "file", "spec",
           "outcome", "arena", "max-load", "proven>=", "nodes", "seconds", "cpu s", "nodes/s",
           "RSS MiB", "note");
    int nfiles = argc - optind;
    for (int a = 0; a < nfiles + (int)rcount; a++) {
        ab_problem p;
        char why[1024];
        const char *base;
        if (a < nfiles) {
            if (!load_any(argv[optind + a], &p, why, sizeof why)) {
                fprintf(stderr, "bench_exact: %s\n", why);
                return 2;
            }
            base = strrchr(argv[optind + a], '/');
            base = base ? base + 1 : argv[optind + a];
        } else {
            random_problem(&p, (size_t)rn, rseed + (unsigned long long)(a - nfiles), kind);
            base = p.name;
            if (dump != NULL) {
                char path[1024];
                ab_error err;
                snprintf(path, sizeof path, "%s/%s.yaml", dump, p.name);
                if (abf_suite_write(&p, path, &err) != AB_OK) {
                    fprintf(stderr, "bench_exact: %s\n", err.msg);
                    return 2;
                }
            }
        }
        for (size_t s = 0; s < nspecs; s++) {
            char spec[512];
            if (strstr(specs[s], "time=") || strncmp(specs[s], "exact-cover", 11) != 0)
                snprintf(spec, sizeof spec, "%s", specs[s]);
            else
                snprintf(spec, sizeof spec, "%s%stime=%g", specs[s], strchr(specs[s], ':') ? "," : ":",
                         budget);
            outcome o;
            long rss = 0;
            if (!run_child(&p, spec, &o, &rss)) {
                printf("%-22s %-38s child failed\n", base, spec);
                rc = 3;
                continue;
            }
            double nps = o.seconds > 0 ? (double)o.nodes / o.seconds : 0;
            printf("%-22s %-38s %-10s %10" PRId64 " %10" PRId64 " %10" PRId64 " %12" PRId64
                   " %8.2f %8.2f %10.0f %8.1f  %s\n",
                   base, spec, outcome_word(&o), o.arena, o.bound, o.lower_bound, o.nodes, o.seconds,
                   o.cpu, nps, (double)rss / 1024.0, o.status == AB_OK ? o.note : o.error);
            if (o.status == AB_OK && o.verdict != ABO_OK && o.verdict != ABO_OVER_CAPACITY) rc = 1;
        }
        ab_problem_free(&p);
    }
    return rc;
}
