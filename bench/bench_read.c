/*
 * bench_read.c — how long reading a suite takes: suite YAML (abf_suite_load)
 * and MiniMalloc CSV (abf_minimalloc_load) at growing sizes (a standalone
 * program, not a test; see bench/README.md).
 *
 *   bench_read [-n N[,N...]] [-r RUNS] [-s SEED]
 *   bench_read FILE...
 *
 * Without FILE: for each N, generates `random` with n=N and the seed, writes
 * it once as suite YAML and once as MiniMalloc CSV into a temporary folder,
 * then times R loads of each (CLOCK_MONOTONIC, from the file, page cache warm)
 * and prints the median, min and max, the file's size and the load rate. With
 * FILE: loads each file once (a .csv as MiniMalloc, anything else as suite
 * YAML) and prints the time, the tensor count and the process's peak resident
 * memory so far (getrusage), for `/usr/bin/time -f %M` style measurements.
 *
 * Exit status: 0 ok, 2 bad usage or a load failed, 3 out of memory.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "harness/formats/gen.h"
#include "harness/formats/minimalloc.h"
#include "harness/formats/suite.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static bool is_csv(const char *path) {
    size_t n = strlen(path);
    return n >= 4 && strcmp(path + n - 4, ".csv") == 0;
}

/* Loads path once into *p; the seconds it took into *secs. */
static ab_status load(const char *path, ab_problem *p, double *secs, ab_error *err) {
    double t0 = now();
    ab_status st = is_csv(path) ? abf_minimalloc_load(path, p, NULL, err)
                                : abf_suite_load(path, p, err);
    *secs = now() - t0;
    return st;
}

static bool parse_count(const char *s, size_t *out) {
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s) return false;
    if (*end == 'k' || *end == 'K') v *= 1000, end++;
    else if (*end == 'M' || *end == 'm') v *= 1000000, end++;
    if (*end != '\0' || v == 0) return false;
    *out = (size_t)v;
    return true;
}

static int load_files(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        ab_problem p;
        ab_error err;
        double secs;
        if (load(argv[i], &p, &secs, &err) != AB_OK) {
            fprintf(stderr, "bench_read: %s\n", err.msg);
            return 2;
        }
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("%s: %zu tensors in %.3f s; peak RSS so far %ld KiB (%.0f B/tensor)\n", argv[i],
               p.n, secs, ru.ru_maxrss, p.n ? (double)ru.ru_maxrss * 1024.0 / (double)p.n : 0.0);
        ab_problem_free(&p);
    }
    return 0;
}

/* Times runs loads of path; prints one line. */
static int time_loads(const char *label, const char *path, size_t n, int runs) {
    double *t = calloc((size_t)runs, sizeof *t);
    if (t == NULL) return 3;
    for (int r = 0; r < runs; r++) {
        ab_problem p;
        ab_error err;
        if (load(path, &p, &t[r], &err) != AB_OK) {
            fprintf(stderr, "bench_read: %s\n", err.msg);
            free(t);
            return 2;
        }
        if (p.n != n) {
            fprintf(stderr, "bench_read: %s: read %zu tensors, wrote %zu\n", path, p.n, n);
            ab_problem_free(&p);
            free(t);
            return 2;
        }
        ab_problem_free(&p);
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    FILE *f = fopen(path, "rb");
    long bytes = 0;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) bytes = ftell(f);
    if (f != NULL) fclose(f);
    double med = t[runs / 2];
    printf("%-5s %9zu  median %8.4f s  min %8.4f  max %8.4f  %7.1f MB  %6.1f MB/s  %5.2f M tensors/s\n",
           label, n, med, t[0], t[runs - 1], (double)bytes / 1e6, (double)bytes / 1e6 / med,
           (double)n / 1e6 / med);
    free(t);
    return 0;
}

static int bench_size(const char *dir, size_t n, unsigned long seed, int runs) {
    char nbuf[32], sbuf[32];
    snprintf(nbuf, sizeof nbuf, "%zu", n);
    snprintf(sbuf, sizeof sbuf, "%lu", seed);
    ab_kv kv[2] = {{.key = "n", .value = nbuf}, {.key = "seed", .value = sbuf}};
    ab_params prm = {.v = kv, .n = 2};
    ab_problem p;
    ab_error err;
    if (abf_generate("random", &prm, NULL, &p, &err) != AB_OK) {
        fprintf(stderr, "bench_read: %s\n", err.msg);
        return 2;
    }
    char ypath[512], cpath[512];
    snprintf(ypath, sizeof ypath, "%s/suite-%zu.yaml", dir, n);
    snprintf(cpath, sizeof cpath, "%s/suite-%zu.csv", dir, n);
    ab_buf csv = {0};
    ab_status st = abf_suite_write(&p, ypath, &err);
    if (st == AB_OK) st = abf_minimalloc_render(&p, &csv, &err);
    if (st == AB_OK) st = ab_buf_write_file(&csv, cpath, &err);
    ab_buf_free(&csv);
    ab_problem_free(&p);
    if (st != AB_OK) {
        fprintf(stderr, "bench_read: %s\n", err.msg);
        return st == AB_ENOMEM ? 3 : 2;
    }
    int rc = time_loads("yaml", ypath, n, runs);
    if (rc == 0) rc = time_loads("csv", cpath, n, runs);
    unlink(ypath);
    unlink(cpath);
    return rc;
}

int main(int argc, char **argv) {
    const char *sizes = "10k,100k,1M";
    int runs = 5;
    unsigned long seed = 1;
    int c;
    while ((c = getopt(argc, argv, "n:r:s:")) != -1) {
        if (c == 'n') sizes = optarg;
        else if (c == 'r') runs = atoi(optarg);
        else if (c == 's') seed = strtoul(optarg, NULL, 10);
        else {
            fprintf(stderr, "usage: bench_read [-n N[,N...]] [-r RUNS] [-s SEED] | bench_read FILE...\n");
            return 2;
        }
    }
    if (runs < 1) {
        fprintf(stderr, "bench_read: -r needs a positive count\n");
        return 2;
    }
    if (optind < argc) return load_files(argc - optind, argv + optind);
    char dir[] = "/tmp/bench_read.XXXXXX";
    if (mkdtemp(dir) == NULL) {
        perror("bench_read: mkdtemp");
        return 2;
    }
    printf("bench_read: %d runs per timing, seed %lu, files in %s\n", runs, seed, dir);
    int rc = 0;
    char *list = strdup(sizes);
    if (list == NULL) return 3;
    for (char *tok = strtok(list, ","); tok != NULL && rc == 0; tok = strtok(NULL, ",")) {
        size_t n;
        if (!parse_count(tok, &n)) {
            fprintf(stderr, "bench_read: bad size '%s'\n", tok);
            rc = 2;
            break;
        }
        rc = bench_size(dir, n, seed, runs);
    }
    free(list);
    rmdir(dir);
    return rc;
}
