/*
 * bench_plan.c — times the overlap checker and the greedy planners on large
 * random suites (a standalone program, not a test; see bench/README.md).
 *
 * For each size N (default 100,000 and 1,000,000) it generates a suite of N
 * tensors over N/2 instructions, deterministically from the seed: live ranges
 * mostly short with some long, sizes powers of two mixed with irregular ones.
 * It makes a valid plan with a simple size-class sweep allocator written here
 * (independent of the planners) and times abo_check on it. On the smallest N
 * it also times each planner (default first-fit and best-fit) through
 * ab_planner_run, and abo_check on the plan it returns. Every timing is the
 * median of R runs (CLOCK_MONOTONIC), printed with the min and max. With -a
 * it times the planners at every size and prints their time ratios between
 * consecutive sizes, beside two references that need no planner: glibc's
 * qsort of the tensors by size and the checker on the sweep plan, so a ratio
 * can be read against what sorting and one sweep scale by on the machine.
 *
 * Exit status: 0 ok, 1 a plan was invalid, 2 bad usage, 3 out of memory or a
 * planner error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"

#define MAX_SIZES 16
#define MAX_PLANNERS 16

typedef struct options {
    size_t sizes[MAX_SIZES];
    size_t nsizes;
    const char *planners[MAX_PLANNERS];
    size_t nplanners;
    char *planner_list; /* owned copy that planners[] points into */
    uint64_t seed;
    int runs;
    bool every;                              /* -a: planners at every size */
    /* medians, -1 when not run: the planners', then (-a) the two references,
     * qsort by size and the checker on the sweep plan */
    double median[MAX_SIZES][MAX_PLANNERS + 2];
} options;

/* ---- small helpers ---------------------------------------------------------- */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Prints "label  median M s  [min A, max B]" over the r times in t (sorted
 * here); returns the median. */
static double print_timing(const char *label, double *t, int r) {
    qsort(t, (size_t)r, sizeof *t, cmp_double);
    double median = r % 2 ? t[r / 2] : (t[r / 2 - 1] + t[r / 2]) / 2;
    printf("  %-34s median %8.4f s  [min %.4f, max %.4f]\n", label, median, t[0], t[r - 1]);
    return median;
}

/* splitmix64: the seeded generator. */
static uint64_t rnd(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [0, n), n >= 1. */
static int64_t below(uint64_t *s, int64_t n) { return (int64_t)(rnd(s) % (uint64_t)n); }

/* Prints the machine: kernel, CPU model, online processors. */
static void print_machine(void) {
    struct utsname u;
    char model[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f != NULL) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) != 0) continue;
            const char *colon = strchr(line, ':');
            if (colon == NULL) continue;
            snprintf(model, sizeof model, "%s", colon + 2);
            model[strcspn(model, "\n")] = '\0';
            break;
        }
        fclose(f);
    }
    if (uname(&u) == 0) printf("machine: %s %s %s\n", u.sysname, u.release, u.machine);
    printf("cpu:     %s, nproc %ld\n", model, sysconf(_SC_NPROCESSORS_ONLN));
}

/* ---- the suite and the reference plan -------------------------------------- */

/* Generates suite (n tensors, n/2 instructions) into p (initialised here). */
static ab_status make_suite(size_t n, uint64_t seed, ab_problem *p, ab_error *err) {
    ab_problem_init(p);
    uint64_t s = seed;
    int64_t ninstr = n / 2 > 0 ? (int64_t)(n / 2) : 1;
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t start = below(&s, ninstr), kind = below(&s, 100), len;
        if (kind < 85) len = below(&s, 4);              /* short: read by the next ops */
        else if (kind < 97) len = below(&s, 64);        /* a skip connection */
        else len = below(&s, ninstr / 4 + 1);           /* long-lived */
        int64_t end = start + len < ninstr ? start + len : ninstr - 1;
        int64_t size = below(&s, 10) < 6 ? (int64_t)1 << (4 + below(&s, 13)) /* 16 B .. 64 KiB */
                                         : 1 + below(&s, 100000);
        int64_t pick = below(&s, 10);
        int64_t align = pick < 7 ? 16 : pick < 9 ? 64 : 1;
        ab_tensor t = {.name = name, .size = size, .logical_bits = size * 8, .start = start,
                       .end = end, .align = align, .offset = AB_NONE};
        ab_status st = ab_problem_add(p, &t, err);
        if (st != AB_OK) return st;
    }
    return AB_OK;
}

typedef struct keyed {
    int64_t key;
    size_t idx;
} keyed;

static int keyed_cmp(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* The size class of size: slots of 2^c >= max(size, 64) bytes. */
static int size_class(int64_t size) {
    int c = 6;
    while (((int64_t)1 << c) < size) c++;
    return c;
}

/* A valid plan by a sweep over instructions: each tensor takes a free slot of
 * its size class (a power of two >= 64, so every slot offset is a multiple of
 * 64 >= any align here), or a new one at the top; a slot is freed once its
 * tensor's last instruction is past. Writes offsets[0 .. p->n). */
static ab_status sweep_plan(const ab_problem *p, int64_t *offsets, ab_error *err) {
    size_t n = p->n;
    keyed *by_start = malloc((n + 1) * sizeof *by_start);
    keyed *by_end = malloc((n + 1) * sizeof *by_end);
    size_t *next = malloc((n + 1) * sizeof *next);
    if (!by_start || !by_end || !next) {
        free(by_start);
        free(by_end);
        free(next);
        return ab_fail(err, AB_ENOMEM, "out of memory making the sweep plan");
    }
    for (size_t i = 0; i < n; i++) {
        by_start[i] = (keyed){p->t[i].start, i};
        by_end[i] = (keyed){p->t[i].end, i};
    }
    qsort(by_start, n, sizeof *by_start, keyed_cmp);
    qsort(by_end, n, sizeof *by_end, keyed_cmp);
    size_t free_head[64];
    for (int c = 0; c < 64; c++) free_head[c] = SIZE_MAX;
    int64_t top = 0;
    size_t j = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = by_start[k].idx;
        for (; j < n && by_end[j].key < by_start[k].key; j++) {
            size_t gone = by_end[j].idx;
            int c = size_class(p->t[gone].size);
            next[gone] = free_head[c];
            free_head[c] = gone;
        }
        int c = size_class(p->t[i].size);
        if (free_head[c] != SIZE_MAX) {
            size_t reuse = free_head[c];
            free_head[c] = next[reuse];
            offsets[i] = offsets[reuse];
        } else {
            offsets[i] = top;
            top += (int64_t)1 << c;
        }
    }
    free(by_start);
    free(by_end);
    free(next);
    return AB_OK;
}

/* ---- the timings -------------------------------------------------------------- */

/* Times abo_check of plan against p, R runs; prints the arena and verdict;
 * the median goes to *median unless it is NULL. Returns 0, 1 when the plan
 * is invalid, 3 on an error. */
static int time_check(const char *label, const ab_problem *p, const ab_plan *plan,
                      const abo_bounds *b, int runs, double *median) {
    double *t = malloc((size_t)runs * sizeof *t);
    abo_report *r = malloc(sizeof *r);
    if (!t || !r) {
        free(t);
        free(r);
        fprintf(stderr, "bench_plan: out of memory\n");
        return 3;
    }
    ab_error err;
    for (int k = 0; k < runs; k++) {
        double t0 = now_seconds();
        ab_status st = abo_check(p, plan, r, &err);
        t[k] = now_seconds() - t0;
        if (st != AB_OK) {
            fprintf(stderr, "bench_plan: %s\n", err.msg);
            free(t);
        free(r);
            return 3;
        }
    }
    char line[128];
    snprintf(line, sizeof line, "check %s", label);
    double m = print_timing(line, t, runs);
    if (median != NULL) *median = m;
    double over = b->max_load > 0 ? 100.0 * (double)(r->arena - b->max_load) / (double)b->max_load
                                  : 0.0;
    printf("  %-34s arena %" PRId64 " (%+.1f%% over max-load), verdict %s\n", "", r->arena, over,
           abo_verdict_word(r->verdict));
    int rc = r->verdict == ABO_OK ? 0 : 1;
    if (rc) printf("  invalid plan: %s\n", r->msg);
    free(t);
    free(r);
    return rc;
}

/* Times planner `name` on p, R runs, then checks its last plan; the median
 * goes to *median. Returns 0, 1 when its plan is invalid, 3 on an error. */
static int time_planner(const char *name, const ab_problem *p, const abo_bounds *b, int runs,
                        double *median) {
    const ab_planner *pl;
    ab_params params = {0};
    if (ab_planner_resolve(name, &pl, &params, NULL) != AB_OK) return 3; /* checked in parse_args */
    double *t = malloc((size_t)runs * sizeof *t);
    if (t == NULL) return 3;
    ab_problem view;
    ab_plan plan;
    ab_plan_stats st;
    ab_error err;
    ab_problem_init(&view);
    ab_plan_init(&plan);
    for (int k = 0; k < runs; k++) {
        ab_problem_free(&view);
        ab_plan_free(&plan);
        double t0 = now_seconds();
        ab_status s = ab_planner_run(pl, &params, p, &view, &plan, &st, &err);
        t[k] = now_seconds() - t0;
        if (s != AB_OK) {
            fprintf(stderr, "bench_plan: %s: %s\n", name, err.msg);
            ab_problem_free(&view);
            ab_plan_free(&plan);
            ab_params_free(&params);
            free(t);
            return 3;
        }
    }
    ab_params_free(&params);
    char line[128];
    snprintf(line, sizeof line, "plan %s", name);
    *median = print_timing(line, t, runs);
    free(t);
    snprintf(line, sizeof line, "%s plan", name);
    int rc = time_check(line, &view, &plan, b, runs, NULL);
    ab_problem_free(&view);
    ab_plan_free(&plan);
    return rc;
}

/* Times glibc's qsort of p's tensors by size (the keys are laid out before
 * each run, untimed): the first step of every greedy order but program
 * order, and a reference for what an O(n log n) step scales by on this
 * machine. The median goes to *median. Returns 0, or 3 when out of
 * memory. */
static int time_sort(const ab_problem *p, int runs, double *median) {
    double *t = malloc((size_t)runs * sizeof *t);
    keyed *k = malloc((p->n ? p->n : 1) * sizeof *k);
    if (t == NULL || k == NULL) {
        free(t), free(k);
        fprintf(stderr, "bench_plan: out of memory\n");
        return 3;
    }
    for (int r = 0; r < runs; r++) {
        for (size_t i = 0; i < p->n; i++) k[i] = (keyed){-p->t[i].size, i}; /* largest first */
        double t0 = now_seconds();
        qsort(k, p->n, sizeof *k, keyed_cmp);
        t[r] = now_seconds() - t0;
    }
    *median = print_timing("qsort of the tensors by size", t, runs);
    free(t), free(k);
    return 0;
}

/* Generates the suite of n tensors (size number at) and runs its timings. */
static int bench_size(size_t at, bool with_planners, options *o) {
    size_t n = o->sizes[at];
    ab_problem p;
    ab_error err;
    double t0 = now_seconds();
    if (make_suite(n, o->seed, &p, &err) != AB_OK) {
        fprintf(stderr, "bench_plan: %s\n", err.msg);
        ab_problem_free(&p);
        return 3;
    }
    double gen = now_seconds() - t0;
    abo_bounds b;
    int64_t *offsets = malloc((n + 1) * sizeof *offsets);
    ab_plan plan;
    ab_plan_init(&plan);
    int rc = 3;
    if (offsets == NULL || abo_bounds_compute(&p, &b, &err) != AB_OK ||
        sweep_plan(&p, offsets, &err) != AB_OK ||
        ab_plan_from_offsets(&plan, offsets, n, &err) != AB_OK) {
        fprintf(stderr, "bench_plan: %s\n", offsets ? err.msg : "out of memory");
        goto done;
    }
    printf("\nsuite: %zu tensors, %zu instructions, seed %" PRIu64 " (generated in %.2f s)\n", n,
           n / 2 > 0 ? n / 2 : 1, o->seed, gen);
    printf("  max-load %" PRId64 " bytes at instruction %" PRId64 " (%zu live)\n", b.max_load,
           b.max_load_instr, b.max_load_count);
    rc = time_check("sweep plan (made here)", &p, &plan, &b, o->runs, &o->median[at][o->nplanners + 1]);
    if (o->every && rc != 3 && time_sort(&p, o->runs, &o->median[at][o->nplanners]) == 3) rc = 3;
    for (size_t k = 0; with_planners && k < o->nplanners && rc != 3; k++) {
        int r = time_planner(o->planners[k], &p, &b, o->runs, &o->median[at][k]);
        if (r > rc) rc = r;
    }
done:
    free(offsets);
    ab_plan_free(&plan);
    ab_problem_free(&p);
    return rc;
}

/* ---- the command line ------------------------------------------------------- */

static void usage(FILE *f) {
    fprintf(f,
            "usage: bench_plan [-a] [-n N[,N...]] [-s SEED] [-r RUNS] [-p PLANNER[,PLANNER...]]\n"
            "  -n  suite sizes in tensors (suffix k or M allowed), default 100k,1M;\n"
            "      the planners run on the smallest\n"
            "  -a  the planners run on every size, and each planner's time ratios\n"
            "      between consecutive sizes are printed at the end\n"
            "  -s  seed of the generator, default 1\n"
            "  -r  runs per timing (the median is printed), default 5\n"
            "  -p  planners to time, default first-fit,best-fit; -p none skips them\n");
}

/* Parses "100000", "100k" or "1M" into *n (>= 1). */
static bool parse_count(const char *s, size_t len, size_t *n) {
    int64_t mult = 1, v;
    if (len > 0 && (s[len - 1] == 'k' || s[len - 1] == 'K')) mult = 1000, len--;
    else if (len > 0 && s[len - 1] == 'M') mult = 1000000, len--;
    if (!ab_parse_int64(s, len, &v) || v < 1 || ab_mul_ovf(v, mult, &v)) return false;
    *n = (size_t)v;
    return true;
}

static bool parse_sizes(const char *arg, options *o) {
    o->nsizes = 0;
    while (*arg) {
        size_t len = strcspn(arg, ",");
        if (o->nsizes == MAX_SIZES || !parse_count(arg, len, &o->sizes[o->nsizes++]))
            return false;
        arg += len + (arg[len] == ',');
    }
    return o->nsizes > 0;
}

static bool parse_planners(char *arg, options *o) {
    o->nplanners = 0;
    if (strcmp(arg, "none") == 0) return true;
    for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
        if (o->nplanners == MAX_PLANNERS) return false;
        o->planners[o->nplanners++] = tok;
    }
    return true;
}

/* Reads argv into o; returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, options *o) {
    int c;
    int64_t v;
    while ((c = getopt(argc, argv, "an:s:r:p:h")) != -1) {
        switch (c) {
        case 'a':
            o->every = true;
            break;
        case 'n':
            if (!parse_sizes(optarg, o)) goto bad;
            break;
        case 's':
            if (!ab_parse_int64(optarg, strlen(optarg), &v) || v < 0) goto bad;
            o->seed = (uint64_t)v;
            break;
        case 'r':
            if (!ab_parse_int64(optarg, strlen(optarg), &v) || v < 1 || v > 1000) goto bad;
            o->runs = (int)v;
            break;
        case 'p':
            free(o->planner_list);
            o->planner_list = strdup(optarg);
            if (o->planner_list == NULL || !parse_planners(o->planner_list, o)) goto bad;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            goto bad;
        }
    }
    if (optind != argc) goto bad;
    for (size_t k = 0; k < o->nplanners; k++) {
        const ab_planner *pl;
        ab_params params;
        ab_error err;
        if (ab_planner_resolve(o->planners[k], &pl, &params, &err) == AB_OK) {
            ab_params_free(&params);
            continue;
        }
        fprintf(stderr, "bench_plan: %s\n", err.msg);
        return 2;
    }
    return -1;
bad:
    usage(stderr);
    return 2;
}

int main(int argc, char **argv) {
    options o = {.sizes = {100000, 1000000}, .nsizes = 2,
                 .planners = {"first-fit", "best-fit"}, .nplanners = 2,
                 .seed = 1, .runs = 5};
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) {
        free(o.planner_list);
        return rc;
    }
    size_t smallest = o.sizes[0];
    for (size_t k = 1; k < o.nsizes; k++)
        if (o.sizes[k] < smallest) smallest = o.sizes[k];
    print_machine();
    printf("runs:    %d per timing (median, min, max)\n", o.runs);
    rc = 0;
    bool planners_done = false;
    for (size_t k = 0; k < o.nsizes; k++)
        for (size_t j = 0; j < MAX_PLANNERS + 2; j++) o.median[k][j] = -1;
    for (size_t k = 0; k < o.nsizes && rc != 3; k++) {
        bool with = o.every || (!planners_done && o.sizes[k] == smallest);
        planners_done |= with;
        int r = bench_size(k, with, &o);
        if (r > rc) rc = r;
    }
    if (o.every && o.nsizes > 1 && rc != 3) {
        printf("\nscaling: time(N) / time(previous N), medians\n");
        for (size_t j = 0; j < o.nplanners + 2; j++) {
            const char *name = j < o.nplanners ? o.planners[j]
                               : j == o.nplanners ? "(reference) qsort by size"
                                                  : "(reference) check, sweep plan";
            printf("  %-34s", name);
            for (size_t k = 1; k < o.nsizes; k++)
                if (o.median[k - 1][j] > 0 && o.median[k][j] >= 0)
                    printf("  %zu -> %zu: x%.1f", o.sizes[k - 1], o.sizes[k],
                           o.median[k][j] / o.median[k - 1][j]);
            printf("\n");
        }
    }
    free(o.planner_list);
    return rc;
}
