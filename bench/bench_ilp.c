/*
 * bench_ilp.c — how far the GLPK referee (oracle/ilp.h) gets within a time
 * limit (a standalone program, not a test).
 *
 * Generated suites: for each kind (random, cnn) and size N, COUNT instances
 * from the seed (deterministic LCG). Each is solved with the first time limit
 * (default 10 s); the ones not proven optimal are solved again with the
 * second (default 60 s). Printed per instance, then per (kind, N): how many
 * were proven within each limit, the median time to a proof, and the median
 * gap (arena - bound) / arena of the unproven ones at each limit.
 *
 *   random  N tensors over N/2 instructions; start uniform, live 1 .. N/16 + 1
 *           instructions; sizes 16 .. 1024 bytes (multiples of 16), align 16
 *   cnn     a layer chain: tensor i written at i/2, read one or two
 *           instructions later; one in four is a skip connection live 2 .. 9
 *           instructions; one in seven is four times larger; sizes multiples
 *           of 64 bytes, align 64
 *
 * MiniMalloc data (--minimalloc DIR): every .csv file of DIR in MiniMalloc's format
 * `id,lower,upper,size`, live on the HALF-OPEN [lower, upper), so start =
 * lower and end = upper - 1 (the conversion is here, not in the product);
 * the capacity is the number in the file name (X.1048576.csv). Each file is
 * solved at its capacity (is there a plan within it?) and minimised (no
 * capacity), each with --mm-time seconds.
 *
 * Usage:
 *   bench_ilp [-k random,cnn] [-n 20,40,80,160] [-c COUNT] [-t 10,60] [-s SEED]
 *             [--no-ps] [--no-heuristics] [--cuts] [--minimalloc DIR] [--mm-time S]
 *             [--only-mm]
 *
 * Exit status: 0 ok; 1 a plan failed the check or a result contradicts
 * another; 2 bad usage; 3 a solve failed (GLPK error, out of memory).
 */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planners/ilp.h"

#define MAX_LIST 16

typedef struct options {
    const char *kinds[MAX_LIST];
    size_t nkinds;
    size_t sizes[MAX_LIST];
    size_t nsizes;
    int count;
    double limits[2];
    uint64_t seed;
    bool proximity, heuristics, cuts, only_mm;
    const char *mm_dir;
    double mm_time;
} options;

static uint64_t rng_next(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void add(ab_problem *p, const char *name, int64_t size, int64_t start, int64_t end,
                int64_t align) {
    ab_tensor t = {.name = (char *)name, .size = size, .start = start, .end = end, .align = align,
                   .offset = AB_NONE, .logical_bits = size * 8};
    if (ab_problem_add(p, &t, NULL) != AB_OK) {
        fprintf(stderr, "bench_ilp: out of memory\n");
        exit(3);
    }
}

static void gen_random(ab_problem *p, size_t n, uint64_t seed) {
    uint64_t span = n / 2 ? n / 2 : 1;
    for (size_t i = 0; i < n; i++) {
        char name[24];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t start = (int64_t)(rng_next(&seed) % span);
        int64_t end = start + (int64_t)(rng_next(&seed) % (n / 16 + 1));
        add(p, name, 16 * (1 + (int64_t)(rng_next(&seed) % 64)), start, end, 16);
    }
}

static void gen_cnn(ab_problem *p, size_t n, uint64_t seed) {
    for (size_t i = 0; i < n; i++) {
        char name[24];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t start = (int64_t)i / 2;
        int64_t len = rng_next(&seed) % 4 == 0 ? 2 + (int64_t)(rng_next(&seed) % 8)
                                               : 1 + (int64_t)(rng_next(&seed) % 2);
        int64_t size = 64 * (1 + (int64_t)(rng_next(&seed) % 32)) * (i % 7 == 0 ? 4 : 1);
        add(p, name, size, start, start + len, 64);
    }
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    if (n == 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Solves p with limit seconds; prints one line; returns the exit status. */
static int solve(const ab_problem *p, const options *opt, double limit, const char *label,
                 abo_ilp_result *r) {
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = limit;
    o.proximity = opt->proximity;
    o.heuristics = opt->heuristics;
    o.cuts = opt->cuts;
    ab_error err;
    ab_error_clear(&err);
    if (abp_ilp_solve(p, &o, r, &err) != AB_OK) {
        printf("  %-22s ERROR %s\n", label, err.msg);
        fflush(stdout);
        return 3;
    }
    printf("  %-22s %4.0fs %-20s arena %9" PRId64 " bound %9" PRId64 " max-load %9" PRId64
           " heuristic %9" PRId64 " gap %6.2f%% nodes %7" PRId64 " rows %6zu %6.2fs %s\n",
           label, limit, abo_ilp_status_word(r->status), r->arena, r->bound, r->max_load,
           r->heuristic, 100 * r->gap, r->nodes, r->rows, r->seconds,
           abo_verdict_word(r->verdict));
    fflush(stdout);
    bool fine = r->verdict == ABO_OK || r->status == ABO_ILP_INFEASIBLE ||
                (r->status == ABO_ILP_NO_SOLUTION && r->verdict == ABO_OVER_CAPACITY);
    if (!fine || r->bound > r->arena || r->bound < r->max_load) return 1;
    return 0;
}

typedef struct tally {
    int n, proven[2];
    int needed;     /* the heuristic missed max-load: GLPK had work to do */
    int needed_proven[2];
    double gaps[2][256], tproof[256];
    int ngaps[2], nproof;
} tally;

static int run_generated(const options *opt) {
    int rc = 0;
    tally all[MAX_LIST][MAX_LIST];
    memset(all, 0, sizeof all);
    for (size_t k = 0; k < opt->nkinds; k++) {
        for (size_t s = 0; s < opt->nsizes; s++) {
            tally *t = &all[k][s];
            for (int i = 0; i < opt->count && i < 256; i++) {
                ab_problem p;
                ab_problem_init(&p);
                uint64_t seed = opt->seed * 1000003u + (uint64_t)i * 7919u + opt->sizes[s];
                if (strcmp(opt->kinds[k], "cnn") == 0) gen_cnn(&p, opt->sizes[s], seed);
                else gen_random(&p, opt->sizes[s], seed);
                char label[64];
                snprintf(label, sizeof label, "%s-%zu-%d", opt->kinds[k], opt->sizes[s], i);
                t->n++;
                for (int l = 0; l < 2; l++) {
                    abo_ilp_result r;
                    int e = solve(&p, opt, opt->limits[l], label, &r);
                    if (e > rc) rc = e;
                    bool proven = e == 0 && r.status == ABO_ILP_OPTIMAL;
                    bool needed = r.heuristic > r.max_load;
                    if (l == 0) t->needed += needed;
                    if (proven) {
                        for (int m = l; m < 2; m++) {
                            t->proven[m]++;
                            t->needed_proven[m] += needed;
                        }
                        t->tproof[t->nproof++] = r.seconds;
                    } else if (e == 0) {
                        t->gaps[l][t->ngaps[l]++] = r.gap;
                    }
                    abo_ilp_result_free(&r);
                    if (proven || opt->limits[1] <= 0) break;
                }
                ab_problem_free(&p);
            }
        }
    }
    printf("\nsummary (limits %.0f s and %.0f s; gap = (arena - bound) / arena)\n", opt->limits[0],
           opt->limits[1]);
    printf("(needed: the heuristic plan was above max-load, so GLPK had to find or prove\n"
           " more; n/m: proven of those)\n");
    printf("%-7s %5s %6s %8s %8s %8s %10s %10s %12s %12s %12s\n", "kind", "N", "count", "opt@1st",
           "opt@2nd", "needed", "needed@1st", "needed@2nd", "t-proof(med)", "gap@1st(med)",
           "gap@2nd(med)");
    for (size_t k = 0; k < opt->nkinds; k++)
        for (size_t s = 0; s < opt->nsizes; s++) {
            tally *t = &all[k][s];
            printf("%-7s %5zu %6d %8d %8d %8d %7d/%-2d %7d/%-2d %11.2fs %11.2f%% %11.2f%%\n",
                   opt->kinds[k], opt->sizes[s], t->n, t->proven[0], t->proven[1], t->needed,
                   t->needed_proven[0], t->needed, t->needed_proven[1], t->needed,
                   median(t->tproof, t->nproof), 100 * median(t->gaps[0], t->ngaps[0]),
                   100 * median(t->gaps[1], t->ngaps[1]));
        }
    return rc;
}

/* ---- MiniMalloc CSV ------------------------------------------------------------- */

/* Reads a MiniMalloc CSV (id,lower,upper,size; half-open [lower, upper)) into
 * p; false on a malformed file. */
static bool read_minimalloc(const char *path, ab_problem *p) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return false;
    char line[512];
    bool ok = fgets(line, sizeof line, f) != NULL && strncmp(line, "id,lower,upper,size", 19) == 0;
    while (ok && fgets(line, sizeof line, f) != NULL) {
        char id[256];
        long long lower, upper, size;
        if (line[0] == '\n' || line[0] == '\0') continue;
        if (sscanf(line, "%255[^,],%lld,%lld,%lld", id, &lower, &upper, &size) != 4 ||
            lower < 0 || upper <= lower || size < 1) {
            ok = false;
            break;
        }
        add(p, id, size, lower, upper - 1, 1);
    }
    fclose(f);
    return ok;
}

/* The capacity in the file name (X.1048576.csv), or -1. */
static int64_t capacity_of(const char *name) {
    const char *dot = strchr(name, '.');
    if (dot == NULL || !isdigit((unsigned char)dot[1])) return -1;
    return strtoll(dot + 1, NULL, 10);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_minimalloc(const options *opt) {
    DIR *d = opendir(opt->mm_dir);
    if (d == NULL) {
        fprintf(stderr, "bench_ilp: cannot open %s\n", opt->mm_dir);
        return 2;
    }
    char *names[64];
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && nn < 64) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".csv") == 0) names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_str);
    int rc = 0;
    printf("\nMiniMalloc data (%s), %.0f s per solve; start = lower, end = upper - 1\n", opt->mm_dir,
           opt->mm_time);
    for (size_t i = 0; i < nn; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", opt->mm_dir, names[i]);
        ab_problem p;
        ab_problem_init(&p);
        if (!read_minimalloc(path, &p)) {
            fprintf(stderr, "bench_ilp: %s: not a MiniMalloc CSV\n", path);
            rc = 2;
            ab_problem_free(&p);
            continue;
        }
        int64_t cap = capacity_of(names[i]);
        printf("%s: %zu buffers, capacity %" PRId64 "\n", names[i], p.n, cap);
        abo_ilp_result r;
        char label[64];
        if (cap > 0) {
            p.capacity = cap;
            snprintf(label, sizeof label, "at-capacity");
            int e2 = solve(&p, opt, opt->mm_time, label, &r);
            if (e2 > rc) rc = e2;
            if (e2 == 0)
                printf("  %-22s %s\n", "", r.status == ABO_ILP_INFEASIBLE ? "no plan fits: proven"
                                           : r.verdict == ABO_OK ? "a plan fits the capacity"
                                                                 : "unknown: none found in time");
            abo_ilp_result_free(&r);
            p.capacity = AB_NONE;
        }
        snprintf(label, sizeof label, "minimised");
        int e3 = solve(&p, opt, opt->mm_time, label, &r);
        if (e3 > rc) rc = e3;
        abo_ilp_result_free(&r);
        ab_problem_free(&p);
    }
    for (size_t i = 0; i < nn; i++) free(names[i]);
    return rc;
}

/* ---- options ------------------------------------------------------------------- */

static size_t split(char *s, const char **out) {
    size_t n = 0;
    for (char *tok = strtok(s, ","); tok != NULL && n < MAX_LIST; tok = strtok(NULL, ","))
        out[n++] = tok;
    return n;
}

static int usage(void) {
    fprintf(stderr, "usage: bench_ilp [-k random,cnn] [-n 20,40,80,160] [-c COUNT] [-t 10,60] "
                    "[-s SEED] [--no-ps] [--no-heuristics] [--cuts] [--minimalloc DIR] [--mm-time S] "
                    "[--only-mm]\n");
    return 2;
}

int main(int argc, char **argv) {
    static char kinds_buf[256] = "random,cnn", sizes_buf[256] = "20,40,80,160",
                limits_buf[64] = "10,60";
    options opt = {.count = 5, .seed = 1, .heuristics = true, .proximity = true, .mm_time = 60};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--no-ps") == 0) opt.proximity = false;
        else if (strcmp(a, "--no-heuristics") == 0) opt.heuristics = false;
        else if (strcmp(a, "--cuts") == 0) opt.cuts = true;
        else if (strcmp(a, "--only-mm") == 0) opt.only_mm = true;
        else if (v == NULL) return usage();
        else if (strcmp(a, "-k") == 0) snprintf(kinds_buf, sizeof kinds_buf, "%s", argv[++i]);
        else if (strcmp(a, "-n") == 0) snprintf(sizes_buf, sizeof sizes_buf, "%s", argv[++i]);
        else if (strcmp(a, "-t") == 0) snprintf(limits_buf, sizeof limits_buf, "%s", argv[++i]);
        else if (strcmp(a, "-c") == 0) opt.count = atoi(argv[++i]);
        else if (strcmp(a, "-s") == 0) opt.seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(a, "--minimalloc") == 0) opt.mm_dir = argv[++i];
        else if (strcmp(a, "--mm-time") == 0) opt.mm_time = atof(argv[++i]);
        else return usage();
    }
    opt.nkinds = split(kinds_buf, opt.kinds);
    const char *tmp[MAX_LIST];
    opt.nsizes = split(sizes_buf, tmp);
    for (size_t i = 0; i < opt.nsizes; i++) opt.sizes[i] = strtoull(tmp[i], NULL, 10);
    size_t nl = split(limits_buf, tmp);
    opt.limits[0] = nl > 0 ? atof(tmp[0]) : 10;
    opt.limits[1] = nl > 1 ? atof(tmp[1]) : 0;
    if (opt.count < 1 || opt.count > 256 || opt.limits[0] <= 0 || opt.mm_time <= 0) return usage();
    int rc = 0;
    if (!opt.only_mm) rc = run_generated(&opt);
    if (opt.mm_dir != NULL) {
        int e = run_minimalloc(&opt);
        if (e > rc) rc = e;
    }
    return rc;
}
