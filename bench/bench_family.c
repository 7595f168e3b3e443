/*
 * bench_family.c — a family of MiniMalloc instances, and a paired run of
 * planner `canonical` and Google's MiniMalloc on it (a standalone program,
 * not a test; see bench/README.md, "The family").
 *
 *   bench_family gen DIR
 *   bench_family run DIR [-t SECS] [-m SECS] [-p SPEC] [-s SUB[,SUB..]] [-n N] [-j N] [-o FILE] [-l]
 *
 * gen writes about 300 MiniMalloc CSVs, DIR/<subfamily>-<label>.<capacity>.csv,
 * deterministically (splitmix64 with fixed seeds: the same binary writes the
 * same bytes every time). Buffers live on half-open [lower, upper). The
 * subfamilies (usage() says more, bench/README.md most):
 *
 *   orig  A-F of ../shared/data/minimalloc unchanged (6)
 *   rev   A-F reversed in time (6)
 *   shuf  A-F with rows shuffled, ids renumbered (18)
 *   win   windows of 25-40% of the sections of A-F, at their max-load and 2% above (48)
 *   guil  guillotine cuts of a full strip: they pack exactly at the capacity (170)
 *   jit   A-F with every size moved by up to 10% (60; half of them
 *         only downwards, so they are not all refuted by max-load)
 *
 * Those derived from A-F are skipped (with a message) when that folder, found
 * from this file's path, is absent.
 *
 * run decides each instance's capacity (the file name's) with both solvers,
 * each in a child process, and measures each child's CPU time (user + system,
 * wait4's rusage). It prints a line per instance, then a summary per
 * subfamily and for the whole family. Exit status: 0 fine, 1 a disagreement,
 * an invalid plan, a guil instance called infeasible (they fit by
 * construction) or an error of canonical's, 2 bad usage.
 *
 * The project must not depend on MiniMalloc: when its binary is absent, run
 * says so and runs canonical only.
 */
#define _GNU_SOURCE /* wait4 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/ab.h"
#include "core/file.h"
#include "core/problem.h"
#include "harness/formats/formats.h"
#include "harness/formats/minimalloc.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"

#define PATH_CAP 4096

/* rel (e.g. "../shared/data/minimalloc") from the source tree's root, found
 * from this file's path (CMake compiles it by its full path); rel itself,
 * from the working directory, when the path does not say. */
static void beside_source(const char *rel, char *out, size_t cap) {
    const char *f = __FILE__;
    const char *cut = strstr(f, "bench/bench_family.c");
    if (cut == NULL) snprintf(out, cap, "%s", rel);
    else snprintf(out, cap, "%.*s%s", (int)(cut - f), f, rel);
}

/* ---- splitmix64 ---------------------------------------------------------------------- */

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t rng_next(rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform enough in [0, n) for n far below 2^64. */
static uint64_t rng_below(rng *r, uint64_t n) { return n <= 1 ? 0 : rng_next(r) % n; }

/* The generator of stream `tag`, instance k: fixed seeds, one per stream. */
static rng rng_for(uint64_t tag, uint64_t k) {
    rng r = {0xA5E7AB3C00000000ull ^ (tag << 20) ^ k};
    rng_next(&r);
    return r;
}

/* ==== gen ============================================================================== */

/* A buffer of an instance being written. */
typedef struct fb {
    int64_t lo, up;   /* half-open [lo, up) */
    int64_t size;
    int64_t align;    /* 1: no alignment */
    int64_t off;      /* a fixed offset, or -1 */
    const char *id;   /* NULL: the row's index */
} fb;

typedef struct gen {
    const char *dir;
    int count;        /* files written */
    bool failed;
} gen;

/* Writes DIR/<sub>-<label>.<cap>.csv: alignment and offset columns only
 * when some buffer uses them (an empty offset field: the buffer is free). */
static void put(gen *g, const char *sub, const char *label, int64_t cap, const fb *b, size_t n) {
    if (g->failed) return;
    char path[PATH_CAP];
    snprintf(path, sizeof path, "%s/%s-%s.%lld.csv", g->dir, sub, label, (long long)cap);
    bool aligned = false, fixed = false;
    for (size_t i = 0; i < n; i++) aligned |= b[i].align > 1, fixed |= b[i].off >= 0;
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "bench_family: cannot write %s: %s\n", path, strerror(errno));
        g->failed = true;
        return;
    }
    fprintf(f, "id,lower,upper,size%s%s\n", aligned ? ",alignment" : "", fixed ? ",offset" : "");
    for (size_t i = 0; i < n; i++) {
        if (b[i].id != NULL) fprintf(f, "%s", b[i].id);
        else fprintf(f, "%zu", i);
        fprintf(f, ",%lld,%lld,%lld", (long long)b[i].lo, (long long)b[i].up, (long long)b[i].size);
        if (aligned) fprintf(f, ",%lld", (long long)b[i].align);
        if (fixed && b[i].off >= 0) fprintf(f, ",%lld", (long long)b[i].off);
        else if (fixed) fputc(',', f);
        fputc('\n', f);
    }
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "bench_family: cannot write %s\n", path);
        g->failed = true;
        return;
    }
    g->count++;
}

typedef struct event {
    int64_t t, d;
} event;

static int event_cmp(const void *a, const void *b) {
    const event *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return (x->d > y->d) - (x->d < y->d); /* ends (negative) first: half-open */
}

/* The max-load of b: the largest total size live at one time. */
static int64_t peak_load(const fb *b, size_t n) {
    event *e = malloc((2 * n + 1) * sizeof *e);
    if (e == NULL) return -1;
    for (size_t i = 0; i < n; i++) {
        e[2 * i] = (event){b[i].lo, b[i].size};
        e[2 * i + 1] = (event){b[i].up, -b[i].size};
    }
    qsort(e, 2 * n, sizeof *e, event_cmp);
    int64_t live = 0, peak = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        live += e[i].d;
        if (live > peak) peak = live;
    }
    free(e);
    return peak;
}

static int64_t round_up(int64_t v, int64_t unit) { return (v + unit - 1) / unit * unit; }

static void shuffle(rng *r, fb *b, size_t n) {
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)rng_below(r, i);
        fb t = b[i - 1];
        b[i - 1] = b[j];
        b[j] = t;
    }
}

/* One of A-F, as buffers (ids point into p). */
typedef struct base {
    char letter;
    bool present;
    ab_problem p;
    fb *b;
    size_t n;
} base;

static bool load_base(const char *dir, base *bs) {
    char path[PATH_CAP];
    snprintf(path, sizeof path, "%.4000s/%c.1048576.csv", dir, bs->letter);
    ab_error err;
    if (access(path, R_OK) != 0) {
        printf("bench_family: %s is absent: the instances derived from it are skipped\n", path);
        return false;
    }
    if (abf_minimalloc_load(path, &bs->p, NULL, &err) != AB_OK) {
        fprintf(stderr, "bench_family: %s\n", err.msg);
        return false;
    }
    bs->n = bs->p.n;
    bs->b = calloc(bs->n ? bs->n : 1, sizeof *bs->b);
    if (bs->b == NULL) return ab_problem_free(&bs->p), false;
    for (size_t i = 0; i < bs->n; i++) {
        const ab_tensor *t = &bs->p.t[i];
        bs->b[i] = (fb){t->start, t->end + 1, t->size, t->align, -1, t->name};
    }
    return bs->present = true;
}

static void gen_orig(gen *g, const base *bs) {
    char label[8] = {bs->letter, 0};
    put(g, "orig", label, 1048576, bs->b, bs->n);
}

static void gen_rev(gen *g, const base *bs, fb *w) {
    int64_t tmax = 0;
    for (size_t i = 0; i < bs->n; i++)
        if (bs->b[i].up > tmax) tmax = bs->b[i].up;
    for (size_t i = 0; i < bs->n; i++) {
        w[i] = bs->b[i];
        w[i].lo = tmax - bs->b[i].up, w[i].up = tmax - bs->b[i].lo;
    }
    char label[8] = {bs->letter, 0};
    put(g, "rev", label, 1048576, w, bs->n);
}

static void gen_shuf(gen *g, const base *bs, fb *w) {
    for (int s = 1; s <= 3; s++) {
        rng r = rng_for(1, (uint64_t)(bs->letter * 16 + s));
        memcpy(w, bs->b, bs->n * sizeof *w);
        shuffle(&r, w, bs->n);
        for (size_t i = 0; i < bs->n; i++) w[i].id = NULL; /* renumbered in the new order */
        char label[16];
        snprintf(label, sizeof label, "%c-%d", bs->letter, s);
        put(g, "shuf", label, 1048576, w, bs->n);
    }
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Windows: a section runs from one time where the live set changes to the
 * next (the sorted distinct lowers and uppers); a window of sections
 * k1..k2 keeps the buffers live in [P[k1], P[k2 + 1]), clipped to it and
 * shifted to start at 0. Four windows per instance, each of 25-40% of the
 * sections, spread from the first section to the last; each posed at its
 * max-load (tight) and at max-load + 2% rounded up to 1024. */
static void gen_win(gen *g, const base *bs, fb *w) {
    size_t n = bs->n, m = 0;
    int64_t *P = malloc((2 * n + 1) * sizeof *P);
    if (P == NULL) {
        g->failed = true;
        return;
    }
    for (size_t i = 0; i < n; i++) P[2 * i] = bs->b[i].lo, P[2 * i + 1] = bs->b[i].up;
    qsort(P, 2 * n, sizeof *P, cmp_i64);
    for (size_t i = 0; i < 2 * n; i++)
        if (m == 0 || P[m - 1] != P[i]) P[m++] = P[i];
    size_t S = m - 1; /* sections */
    for (int pos = 0; pos < 4; pos++) {
        rng r = rng_for(2, (uint64_t)(bs->letter * 16 + pos));
        size_t pct = 25 + (size_t)rng_below(&r, 16), K = S * pct / 100;
        if (K < 1) K = 1;
        size_t k1 = (size_t)pos * (S - K) / 3, k2 = k1 + K - 1;
        int64_t a = P[k1], z = P[k2 + 1];
        size_t c = 0;
        for (size_t i = 0; i < n; i++) {
            const fb *x = &bs->b[i];
            if (x->lo >= z || x->up <= a) continue;
            w[c] = *x;
            w[c].lo = (x->lo > a ? x->lo : a) - a;
            w[c].up = (x->up < z ? x->up : z) - a;
            w[c].id = NULL;
            c++;
        }
        int64_t L = peak_load(w, c);
        char label[32];
        snprintf(label, sizeof label, "%c-w%d-t", bs->letter, pos);
        put(g, "win", label, L, w, c);
        snprintf(label, sizeof label, "%c-w%d-s2", bs->letter, pos);
        put(g, "win", label, round_up(L + (L * 2 + 99) / 100, 1024), w, c);
    }
    free(P);
}

static void gen_jit(gen *g, const base *bs, fb *w) {
    for (int s = 0; s < 10; s++) {
        rng r = rng_for(3, (uint64_t)(bs->letter * 16 + s));
        for (size_t i = 0; i < bs->n; i++) {
            w[i] = bs->b[i];
            /* seeds 0-4: -10.00% .. +10.00%; 5-9: -10.00% .. 0, so that A, B, E and F, whose
             * max-load is the capacity, pose real decisions too (symmetric jitter lifts
             * their peak above it: refuted at the root) */
            int64_t d = s < 5 ? (int64_t)rng_below(&r, 2001) - 1000 : -(int64_t)rng_below(&r, 1001);
            int64_t v = bs->b[i].size * (10000 + d) / 10000;
            v = (v + 512) / 1024 * 1024;
            w[i].size = v < 1024 ? 1024 : v;
        }
        char label[16];
        snprintf(label, sizeof label, "%c-j%d", bs->letter, s);
        put(g, "jit", label, 1048576, w, bs->n);
    }
}

/* ---- guil: guillotine cuts ----------------------------------------------------------- */

typedef struct rect {
    int64_t t0, t1, m0, m1;
} rect;

/* Cuts the strip [0, T) x [0, C) into (up to) target rectangles: a piece
 * picked with probability proportional to its area is cut in time or in
 * memory (the longer side, relative to the strip, more likely) at a random
 * point, both halves at least tmin long and smin bytes (memory cuts on
 * multiples of unit). Returns the count. */
static size_t guillotine(rng *r, size_t target, int64_t T, int64_t C, int64_t unit, int64_t tmin,
                         int64_t smin, rect *out) {
    size_t n = 1;
    out[0] = (rect){0, T, 0, C};
    while (n < target) {
        uint64_t total = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t dt = out[i].t1 - out[i].t0, dm = out[i].m1 - out[i].m0;
            if (dt >= 2 * tmin || dm >= 2 * smin) total += (uint64_t)(dt * (dm / unit));
        }
        if (total == 0) break;
        uint64_t x = rng_below(r, total);
        size_t i = 0;
        for (;; i++) {
            int64_t dt = out[i].t1 - out[i].t0, dm = out[i].m1 - out[i].m0;
            if (!(dt >= 2 * tmin || dm >= 2 * smin)) continue;
            uint64_t a = (uint64_t)(dt * (dm / unit));
            if (x < a) break;
            x -= a;
        }
        rect *q = &out[i];
        int64_t dt = q->t1 - q->t0, dm = q->m1 - q->m0;
        bool can_t = dt >= 2 * tmin, can_m = dm >= 2 * smin, by_time = can_t;
        if (can_t && can_m) {
            uint64_t wt = (uint64_t)dt * (uint64_t)C, wm = (uint64_t)dm * (uint64_t)T;
            by_time = rng_below(r, wt + wm) < wt;
        }
        rect nw = *q;
        if (by_time) {
            int64_t c = q->t0 + tmin + (int64_t)rng_below(r, (uint64_t)(dt - 2 * tmin + 1));
            q->t1 = c, nw.t0 = c;
        } else {
            int64_t du = dm / unit, su = smin / unit;
            int64_t c = q->m0 + (su + (int64_t)rng_below(r, (uint64_t)(du - 2 * su + 1))) * unit;
            q->m1 = c, nw.m0 = c;
        }
        out[n++] = nw;
    }
    return n;
}

/* A kind of guil instance: `count` cuts, n spread evenly over 100..450. */
typedef struct gkind {
    const char *tag;
    int count;
    int64_t unit;      /* sizes (and memory cuts) are multiples of it */
    int64_t maxalign;  /* 0: no alignment column */
    int fixpct;        /* percent of buffers fixed where the cut put them */
    int variants;      /* cuts 0, 2, 4, ... of them also get ... */
    const char *var;   /* ... "s2" (C x 1.02), "s5" (C x 1.05), "s25" (both), "d10" */
    int odd_d10;       /* the odd cuts also get a copy with 10% deleted */
} gkind;

static const gkind gkinds[] = {
    {"p", 32, 1024, 0, 0, 16, "s25", 1},  /* plain: 32 + 2x16 slack + 16 deleted */
    {"u16", 12, 16, 0, 0, 6, "s5", 0},    /* small sizes, multiples of 16 */
    {"u1", 12, 1, 0, 0, 6, "d10", 0},     /* any size */
    {"a64", 12, 16, 64, 0, 6, "s2", 0},   /* alignments 16..64 dividing the cut's offset */
    {"a4k", 12, 1024, 4096, 0, 6, "s5", 0}, /* alignments 1024..4096 */
    {"fx", 12, 1024, 0, 15, 6, "s2", 0},  /* ~15% of buffers at a fixed offset */
};

static int64_t slack_cap(int64_t C, int pct, int64_t unit) {
    return C + C * pct / 100 / unit * unit;
}

static void gen_guil(gen *g) {
    const int64_t C = 1048576, T = 1024, tmin = 4;
    rect *rc = malloc(500 * sizeof *rc);
    fb *w = malloc(500 * sizeof *w), *d = malloc(500 * sizeof *d);
    if (rc == NULL || w == NULL || d == NULL) {
        free(rc), free(w), free(d);
        g->failed = true;
        return;
    }
    for (size_t k = 0; k < sizeof gkinds / sizeof gkinds[0]; k++) {
        const gkind *gk = &gkinds[k];
        int64_t smin = gk->unit == 1024 ? 4 * 1024 : gk->unit == 16 ? 256 : 64;
        for (int c = 0; c < gk->count; c++) {
            rng r = rng_for(4 + k, (uint64_t)c);
            size_t target = 100 + (size_t)(350 * c / (gk->count - 1));
            size_t n = guillotine(&r, target, T, C, gk->unit, tmin, smin, rc);
            for (size_t i = 0; i < n; i++) {
                w[i] = (fb){rc[i].t0, rc[i].t1, rc[i].m1 - rc[i].m0, 1, -1, NULL}; /* at m0 in the cut */
                if (gk->maxalign > 0) { /* a power of two from unit up to what divides `at` */
                    int64_t amax = gk->maxalign;
                    while (amax > gk->unit && rc[i].m0 % amax != 0) amax /= 2;
                    int steps = 0;
                    for (int64_t a = gk->unit; a < amax; a *= 2) steps++;
                    w[i].align = gk->unit << rng_below(&r, (uint64_t)steps + 1);
                }
                if (gk->fixpct > 0 && (int)rng_below(&r, 100) < gk->fixpct) w[i].off = rc[i].m0;
            }
            shuffle(&r, w, n); /* rows not in the order of the cuts */
            char label[48];
            snprintf(label, sizeof label, "%s_%02d-n%zu", gk->tag, c, n);
            put(g, "guil", label, C, w, n);
            bool even = c % 2 == 0;
            if (even && c / 2 < gk->variants) {
                if (strchr(gk->var, '2') != NULL) {
                    snprintf(label, sizeof label, "%s_%02d-n%zu-s2", gk->tag, c, n);
                    put(g, "guil", label, slack_cap(C, 2, gk->unit), w, n);
                }
                if (strchr(gk->var, '5') != NULL) {
                    snprintf(label, sizeof label, "%s_%02d-n%zu-s5", gk->tag, c, n);
                    put(g, "guil", label, slack_cap(C, 5, gk->unit), w, n);
                }
            }
            bool del = (even && c / 2 < gk->variants && strcmp(gk->var, "d10") == 0) ||
                       (!even && gk->odd_d10);
            if (del) { /* 10% of the rectangles deleted: load below C in places */
                memcpy(d, w, n * sizeof *d);
                shuffle(&r, d, n);
                size_t keep = n - n / 10;
                for (size_t i = 0; i < keep; i++) d[i].id = NULL;
                snprintf(label, sizeof label, "%s_%02d-n%zu-d10", gk->tag, c, n);
                put(g, "guil", label, C, d, keep);
            }
        }
    }
    free(rc), free(w), free(d);
}

static int cmd_gen(const char *dir) {
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "bench_family: cannot create %s: %s\n", dir, strerror(errno));
        return 2;
    }
    gen g = {.dir = dir};
    char data[PATH_CAP];
    beside_source("../shared/data/minimalloc", data, sizeof data);
    base bs[6];
    size_t maxn = 0;
    bool any = access(data, R_OK) == 0;
    if (!any)
        printf("bench_family: %s is absent: orig, rev, shuf, win and jit are skipped\n", data);
    for (int i = 0; i < 6; i++) {
        memset(&bs[i], 0, sizeof bs[i]);
        bs[i].letter = (char)('A' + i);
        ab_problem_init(&bs[i].p);
        if (any && load_base(data, &bs[i]) && bs[i].n > maxn) maxn = bs[i].n;
    }
    fb *w = malloc((maxn ? maxn : 1) * sizeof *w);
    if (w == NULL) return fprintf(stderr, "bench_family: out of memory\n"), 2;
    static const char *const subs[] = {"orig", "rev", "shuf", "win", "guil", "jit"};
    for (int s = 0; s < 6; s++) {
        int before = g.count;
        if (s == 4) gen_guil(&g);
        else
            for (int i = 0; i < 6; i++) {
                if (!bs[i].present) continue;
                if (s == 0) gen_orig(&g, &bs[i]);
                if (s == 1) gen_rev(&g, &bs[i], w);
                if (s == 2) gen_shuf(&g, &bs[i], w);
                if (s == 3) gen_win(&g, &bs[i], w);
                if (s == 5) gen_jit(&g, &bs[i], w);
            }
        printf("%-5s %4d instances\n", subs[s], g.count - before);
    }
    printf("total %4d instances in %s\n", g.count, dir);
    free(w);
    for (int i = 0; i < 6; i++) free(bs[i].b), ab_problem_free(&bs[i].p);
    return g.failed ? 2 : 0;
}

/* ==== run ============================================================================== */

typedef enum answer {
    A_NONE = 0,  /* not run (MiniMalloc absent) */
    A_FITS,      /* a plan within the capacity that the oracle accepts */
    A_NOFIT,     /* proven not to fit: canonical's bound, MiniMalloc's NOT_FOUND */
    A_UNDECIDED, /* budget, timeout or CPU limit */
    A_ERROR,     /* could not run: input rejected, planner error, crash */
    A_INVALID    /* a plan the oracle rejects, or an answer contradicting itself */
} answer;

static bool decided(answer a) { return a == A_FITS || a == A_NOFIT; }

static const char *canonical_word(answer a) {
    static const char *const w[] = {"-", "fits", "refuted", "undecided", "error", "INVALID"};
    return w[a];
}

static const char *minimalloc_word(answer a) {
    static const char *const w[] = {"-", "fits", "infeasible", "undecided", "error", "INVALID"};
    return w[a];
}

/* What the canonical child sends back (under PIPE_BUF: one atomic write). */
typedef struct cmsg {
    int kind;
    int64_t nodes, arena, lower_bound;
    char note[160];
    char msg[240];
} cmsg;

/* What an instance's runner sends back to the main process (under PIPE_BUF). */
typedef struct result {
    bool done;
    int n;
    int64_t capacity, max_load;
    int nfixed;
    answer ca, ma;
    double ccpu, mcpu;
    int64_t cnodes;
    char cnote[160];
    char mmsg[160];
    char err[240];
    bool disagree, wrong;   /* wrong: a guil instance called infeasible */
} result;

typedef struct opts {
    const char *dir;
    const char *secs_text;  /* -t as given */
    double secs;
    double msecs;
    char spec[512];
    const char *minimalloc; /* NULL: absent */
    const char *tmp;        /* a private temporary folder */
    int jobs;
    bool gate;              /* -g: canonical only where MiniMalloc decides */
} opts;

/* Copies src into dst[cap], cut to fit. */
static void copy_text(char *dst, size_t cap, const char *src) {
    size_t len = strlen(src);
    if (len >= cap) len = cap - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static double tv_s(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

static double cpu_of(const struct rusage *ru) { return tv_s(ru->ru_utime) + tv_s(ru->ru_stime); }

/* Splits a CSV line in place at commas (no quoting in the format). */
static int split_fields(char *line, char **f, int max) {
    int n = 0;
    size_t len = strlen(line);
    if (len > 0 && line[len - 1] == '\r') line[len - 1] = '\0';
    for (char *s = line;;) {
        if (n < max) f[n] = s;
        n++;
        char *c = strchr(s, ',');
        if (c == NULL) break;
        *c = '\0';
        s = c + 1;
    }
    return n;
}

/* Fixes the tensors whose `offset` field the CSV at path fills (the
 * project's loader fixes them too now, validated; this pass counts them and
 * keeps the bench independent of that). An empty field leaves the buffer
 * free. *nfixed counts them. */
static bool apply_offsets(const char *path, ab_problem *p, int *nfixed, char *msg, size_t cap) {
    char *text = NULL;
    size_t len = 0;
    ab_error err;
    *nfixed = 0;
    if (abf_read_input(path, &text, &len, &err) != AB_OK) {
        copy_text(msg, cap, err.msg);
        return false;
    }
    char *save = NULL, *line = strtok_r(text, "\n", &save);
    char *f[64];
    int idc = -1, offc = -1, nh = line ? split_fields(line, f, 64) : 0;
    for (int i = 0; i < nh && i < 64; i++) {
        if (strcmp(f[i], "id") == 0 || strcmp(f[i], "buffer") == 0 || strcmp(f[i], "buffer_id") == 0)
            idc = i;
        if (strcmp(f[i], "offset") == 0) offc = i;
    }
    bool ok = true;
    ab_names *names = NULL;
    if (offc >= 0 && idc >= 0 && ab_names_build(p, &names, NULL, NULL, &err) != AB_OK) {
        copy_text(msg, cap, err.msg);
        ok = false;
    }
    while (ok && offc >= 0 && idc >= 0 && (line = strtok_r(NULL, "\n", &save)) != NULL) {
        int nf = split_fields(line, f, 64);
        if (nf != nh || nf > 64 || f[offc][0] == '\0') continue; /* the loader judged the rows */
        int64_t v;
        size_t i = ab_names_find(names, f[idc], strlen(f[idc]));
        if (!ab_parse_int64(f[offc], strlen(f[offc]), &v) || v < 0 || i == AB_NO_TENSOR) {
            snprintf(msg, cap, "%s: bad offset '%s' for '%s'", path, f[offc], f[idc]);
            ok = false;
            break;
        }
        p->t[i].offset = v;
        (*nfixed)++;
    }
    ab_names_free(names);
    ab_free(text);
    return ok;
}

/* Loads path with its fixed offsets; false with msg set when it cannot. */
static bool load_instance(const char *path, ab_problem *p, int *nfixed, char *msg, size_t cap) {
    ab_error err;
    if (abf_load_problem(path, NULL, p, &err) != AB_OK) {
        copy_text(msg, cap, err.msg);
        return false;
    }
    if (p->capacity == AB_NONE) {
        snprintf(msg, cap, "%s: no capacity in the file name (NAME.CAPACITY.csv)", path);
        ab_problem_free(p);
        return false;
    }
    if (!apply_offsets(path, p, nfixed, msg, cap)) return ab_problem_free(p), false;
    return true;
}

/* The canonical child: loads, plans, checks and writes one cmsg to fd. */
static void canonical_child(int fd, const char *path, const opts *o) {
    rlim_t lim = (rlim_t)ceil(o->secs) + 30;
    struct rlimit rl = {lim, lim + 5};
    setrlimit(RLIMIT_CPU, &rl);
    cmsg m;
    memset(&m, 0, sizeof m);
    m.kind = A_ERROR;
    ab_problem p, view;
    ab_error err;
    int nfixed;
    const ab_planner *pl;
    ab_params prm;
    if (!load_instance(path, &p, &nfixed, m.msg, sizeof m.msg)) goto out;
    if (ab_planner_resolve(o->spec, &pl, &prm, &err) != AB_OK) {
        copy_text(m.msg, sizeof m.msg, err.msg);
        ab_problem_free(&p);
        goto out;
    }
    ab_plan plan;
    ab_plan_stats st;
    memset(&st, 0, sizeof st);
    if (ab_planner_run(pl, &prm, &p, &view, &plan, &st, &err) != AB_OK) {
        copy_text(m.msg, sizeof m.msg, err.msg);
    } else {
        abo_report *r = malloc(sizeof *r);
        if (r == NULL || abo_check(&view, &plan, r, &err) != AB_OK) {
            snprintf(m.msg, sizeof m.msg, "cannot check the plan: %.200s", r ? err.msg : "out of memory");
        } else {
            int64_t cap = p.capacity;
            bool valid = r->verdict == ABO_OK || r->verdict == ABO_OVER_CAPACITY;
            bool fits = r->verdict == ABO_OK && r->arena <= cap;
            bool refuted = st.lower_bound != AB_NONE && st.lower_bound > cap;
            m.nodes = st.nodes, m.arena = r->arena, m.lower_bound = st.lower_bound;
            snprintf(m.note, sizeof m.note, "%s", st.note);
            if (!valid) {
                m.kind = A_INVALID;
                r->msg[strcspn(r->msg, "\n")] = '\0'; /* its first problem */
                snprintf(m.msg, sizeof m.msg, "the oracle rejects the plan: %.200s", r->msg);
            } else if (fits && refuted) {
                m.kind = A_INVALID;
                snprintf(m.msg, sizeof m.msg, "a valid plan of arena %lld within the capacity, "
                         "and a lower bound %lld above it", (long long)r->arena,
                         (long long)st.lower_bound);
            } else {
                m.kind = fits ? A_FITS : refuted ? A_NOFIT : A_UNDECIDED;
            }
        }
        free(r);
        ab_plan_free(&plan);
        ab_problem_free(&view);
    }
    ab_params_free(&prm);
    ab_problem_free(&p);
out:
    if (write(fd, &m, sizeof m) != (ssize_t)sizeof m) _exit(3);
    _exit(0);
}

static void run_canonical(const char *path, const opts *o, result *res) {
    int fds[2];
    res->ca = A_ERROR;
    if (pipe(fds) != 0) {
        snprintf(res->err, sizeof res->err, "pipe: %s", strerror(errno));
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(res->err, sizeof res->err, "fork: %s", strerror(errno));
        close(fds[0]), close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        canonical_child(fds[1], path, o);
    }
    close(fds[1]);
    cmsg m;
    size_t got = 0;
    while (got < sizeof m) {
        ssize_t k = read(fds[0], (char *)&m + got, sizeof m - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    close(fds[0]);
    int ws = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &ws, 0, &ru) < 0 && errno == EINTR) {}
    res->ccpu = cpu_of(&ru);
    if (got == sizeof m) {
        res->ca = (answer)m.kind;
        res->cnodes = m.nodes;
        snprintf(res->cnote, sizeof res->cnote, "%s", m.note);
        if (m.msg[0]) snprintf(res->err, sizeof res->err, "canonical: %.220s", m.msg);
    } else if (WIFSIGNALED(ws) && (WTERMSIG(ws) == SIGXCPU || WTERMSIG(ws) == SIGKILL)) {
        res->ca = A_UNDECIDED;
        snprintf(res->cnote, sizeof res->cnote, "killed by %s at the CPU safety net",
                 WTERMSIG(ws) == SIGXCPU ? "SIGXCPU" : "SIGKILL");
    } else if (WIFSIGNALED(ws)) {
        snprintf(res->err, sizeof res->err, "canonical: crashed (signal %d)", WTERMSIG(ws));
    } else {
        snprintf(res->err, sizeof res->err, "canonical: exited %d without an answer",
                 WIFEXITED(ws) ? WEXITSTATUS(ws) : -1);
    }
}

/* The last line of MiniMalloc's messages that is not its timing. */
static void mm_message(const char *file, char *out, size_t cap) {
    out[0] = '\0';
    char *text = NULL;
    size_t len = 0;
    if (abf_read_input(file, &text, &len, NULL) != AB_OK) return;
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (strncmp(l, "Elapsed time", 12) == 0 || l[0] == '\0') continue;
        snprintf(out, cap, "%s", l);
    }
    ab_free(text);
}

static void run_minimalloc(const char *path, int idx, const ab_problem *p, const opts *o,
                           result *res) {
    char outcsv[PATH_CAP], msgs[PATH_CAP], capa[64], in[PATH_CAP + 16], outa[PATH_CAP + 16];
    snprintf(outcsv, sizeof outcsv, "%s/mm-%d.csv", o->tmp, idx);
    snprintf(msgs, sizeof msgs, "%s/mm-%d.txt", o->tmp, idx);
    snprintf(capa, sizeof capa, "--capacity=%lld", (long long)p->capacity);
    snprintf(in, sizeof in, "--input=%s", path);
    snprintf(outa, sizeof outa, "--output=%s", outcsv);
    unlink(outcsv);
    res->ma = A_ERROR;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(res->mmsg, sizeof res->mmsg, "fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        rlim_t lim = (rlim_t)ceil(o->msecs);
        struct rlimit rl = {lim, lim + 5}; /* SIGXCPU, then SIGKILL 5 s later */
        setrlimit(RLIMIT_CPU, &rl);
        int dn = open("/dev/null", O_RDONLY), mf = open(msgs, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (dn < 0 || mf < 0) _exit(126);
        dup2(dn, 0), dup2(mf, 1), dup2(mf, 2);
        close(dn), close(mf);
        char *argv[] = {(char *)o->minimalloc, capa, in, outa, (char *)"--timeout=100000s", NULL};
        execv(o->minimalloc, argv);
        _exit(127);
    }
    int ws = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(pid, &ws, 0, &ru) < 0 && errno == EINTR) {}
    res->mcpu = cpu_of(&ru);
    char text[160];
    mm_message(msgs, text, sizeof text);
    unlink(msgs);
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
        ab_problem view;
        ab_plan plan;
        ab_error err;
        abo_report *r = malloc(sizeof *r);
        bool ok = r != NULL && ab_problem_arena_view(p, &view, NULL, &err) == AB_OK;
        if (ok && abf_minimalloc_plan_read(outcsv, &view, &plan, &err) != AB_OK) {
            ab_problem_free(&view);
            ok = false;
        }
        if (!ok) {
            res->ma = A_INVALID;
            snprintf(res->mmsg, sizeof res->mmsg, "its plan cannot be read: %.120s",
                     r ? err.msg : "out of memory");
        } else {
            if (abo_check(&view, &plan, r, &err) != AB_OK) {
                res->ma = A_ERROR;
                snprintf(res->mmsg, sizeof res->mmsg, "cannot check its plan: %.120s", err.msg);
            } else if (r->verdict == ABO_OK && r->arena <= p->capacity) {
                res->ma = A_FITS;
                snprintf(res->mmsg, sizeof res->mmsg, "arena %lld", (long long)r->arena);
            } else {
                res->ma = A_INVALID;
                r->msg[strcspn(r->msg, "\n")] = '\0'; /* its first problem */
                snprintf(res->mmsg, sizeof res->mmsg, "the oracle rejects its plan: %.130s", r->msg);
            }
            ab_plan_free(&plan);
            ab_problem_free(&view);
        }
        free(r);
    } else if (WIFEXITED(ws) && strstr(text, "NOT_FOUND") != NULL) {
        res->ma = A_NOFIT;
        snprintf(res->mmsg, sizeof res->mmsg, "%s", text);
    } else if (WIFEXITED(ws) && strstr(text, "DEADLINE_EXCEEDED") != NULL) {
        res->ma = A_UNDECIDED;
        snprintf(res->mmsg, sizeof res->mmsg, "%s", text);
    } else if (WIFSIGNALED(ws) && (WTERMSIG(ws) == SIGXCPU || WTERMSIG(ws) == SIGKILL)) {
        res->ma = A_UNDECIDED;
        snprintf(res->mmsg, sizeof res->mmsg, "killed by %s at the CPU cap",
                 WTERMSIG(ws) == SIGXCPU ? "SIGXCPU" : "SIGKILL");
    } else if (WIFSIGNALED(ws)) {
        snprintf(res->mmsg, sizeof res->mmsg, "crashed (signal %d)", WTERMSIG(ws));
    } else {
        snprintf(res->mmsg, sizeof res->mmsg, "exit %d: %.140s", WEXITSTATUS(ws),
                 text[0] ? text : (WEXITSTATUS(ws) == 127 ? "cannot run it" : "no message"));
    }
    unlink(outcsv);
}

static bool is_guil(const char *name) { return strncmp(name, "guil-", 5) == 0; }

/* One instance, in a runner process: both solvers, one after the other. */
static void run_instance(const char *name, int idx, const opts *o, result *res) {
    memset(res, 0, sizeof *res);
    char path[PATH_CAP];
    snprintf(path, sizeof path, "%s/%s", o->dir, name);
    ab_problem p;
    if (!load_instance(path, &p, &res->nfixed, res->err, sizeof res->err)) {
        res->ca = A_ERROR;
        res->done = true;
        return;
    }
    res->n = (int)p.n;
    res->capacity = p.capacity;
    abo_bounds b;
    res->max_load = abo_bounds_compute(&p, &b, NULL) == AB_OK ? b.max_load : -1;
    if (o->gate) {
        /* the target's check: MiniMalloc first, canonical only where it decided */
        run_minimalloc(path, idx, &p, o, res);
        if (decided(res->ma)) run_canonical(path, o, res);
    } else {
        run_canonical(path, o, res);
        if (o->minimalloc != NULL) run_minimalloc(path, idx, &p, o, res);
    }
    ab_problem_free(&p);
    res->disagree = (res->ca == A_FITS && res->ma == A_NOFIT) ||
                    (res->ca == A_NOFIT && res->ma == A_FITS);
    res->wrong = is_guil(name) && (res->ca == A_NOFIT || res->ma == A_NOFIT);
    res->done = true;
}

static double ratio_of(const result *r) {
    double c = r->ccpu < 0.01 ? 0.01 : r->ccpu, m = r->mcpu < 0.01 ? 0.01 : r->mcpu;
    return c / m;
}

static bool both_decided(const result *r) { return decided(r->ca) && decided(r->ma); }

static bool is_bad(const result *r) {
    return r->disagree || r->wrong || r->ca == A_INVALID || r->ma == A_INVALID ||
           r->ca == A_ERROR;
}

static void print_line(const char *name, const result *r, const opts *o) {
    char ratio[32] = "-";
    if (both_decided(r)) snprintf(ratio, sizeof ratio, "%.2f", ratio_of(r));
    char mcpu[32] = "-";
    if (o->minimalloc) snprintf(mcpu, sizeof mcpu, "%.2f", r->mcpu);
    printf("%-32s %4d %8lld %8lld  %-9s %7.2f %10lld  %-10s %7s %7s", name, r->n,
           (long long)r->capacity, (long long)r->max_load, canonical_word(r->ca), r->ccpu,
           (long long)r->cnodes, o->minimalloc ? minimalloc_word(r->ma) : "absent", mcpu, ratio);
    if (r->disagree) printf("  DISAGREE: %s/%s", o->dir, name);
    if (r->wrong) printf("  WRONG: %s/%s fits by construction", o->dir, name);
    if (r->ca == A_INVALID || r->ma == A_INVALID) printf("  ERROR: invalid");
    printf("\n");
    if (r->err[0]) printf("    %s\n", r->err);
    if (r->ca == A_UNDECIDED && strncmp(r->cnote, "killed", 6) == 0)
        printf("    canonical: %s\n", r->cnote);
    if (r->ma == A_INVALID || r->ma == A_ERROR) printf("    minimalloc: %s\n", r->mmsg);
    fflush(stdout);
}

/* Copies s into out with tabs and line breaks as blanks (for the TSV). */
static void tsv_field(FILE *f, const char *s) {
    for (; *s; s++) fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
}

static void write_tsv(FILE *f, char **names, const result *rs, size_t n) {
    fprintf(f, "instance\tsubfamily\tn\tcapacity\tmax_load\tfixed\tcanonical\tcanonical_cpu_s\t"
               "canonical_nodes\tminimalloc\tminimalloc_cpu_s\tratio\tflags\tcanonical_note\t"
               "minimalloc_message\n");
    for (size_t i = 0; i < n; i++) {
        const result *r = &rs[i];
        const char *dash = strchr(names[i], '-');
        int sl = dash ? (int)(dash - names[i]) : (int)strlen(names[i]);
        fprintf(f, "%s\t%.*s\t%d\t%lld\t%lld\t%d\t%s\t%.3f\t%lld\t%s\t%.3f\t", names[i], sl,
                names[i], r->n, (long long)r->capacity, (long long)r->max_load, r->nfixed,
                canonical_word(r->ca), r->ccpu, (long long)r->cnodes, minimalloc_word(r->ma),
                r->mcpu);
        if (both_decided(r)) fprintf(f, "%.3f", ratio_of(r));
        else fputc('-', f);
        fprintf(f, "\t%s%s%s\t", r->disagree ? "DISAGREE " : "", r->wrong ? "WRONG " : "",
                r->ca == A_INVALID || r->ma == A_INVALID ? "INVALID" : "");
        tsv_field(f, r->err[0] ? r->err : r->cnote);
        fputc('\t', f);
        tsv_field(f, r->mmsg);
        fputc('\n', f);
    }
}

/* The subfamily of an instance: its name up to the first '-'. */
static size_t sub_len(const char *name) {
    const char *d = strchr(name, '-');
    return d ? (size_t)(d - name) : strlen(name);
}

/* true when name is of subfamily sub (every name when sub is NULL). */
static bool in_sub(const char *name, const char *sub) {
    return sub == NULL || (sub_len(name) == strlen(sub) && strncmp(name, sub, strlen(sub)) == 0);
}

/* A name without ".csv", for the summary's lists. */
static void print_names(const char *title, char **names, const result *rs, size_t n,
                        const char *sub, bool (*pick)(const result *)) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (in_sub(names[i], sub) && pick(&rs[i])) c++;
    printf("    %s (%zu)%s", title, c, c ? ":" : "\n");
    if (c == 0) return;
    for (size_t i = 0; i < n; i++) {
        if (!in_sub(names[i], sub) || !pick(&rs[i])) continue;
        size_t len = strlen(names[i]);
        if (len > 4 && strcmp(names[i] + len - 4, ".csv") == 0) len -= 4;
        printf(" %.*s", (int)len, names[i]);
    }
    printf("\n");
}

static bool mm_only(const result *r) { return decided(r->ma) && !decided(r->ca); }
static bool can_only(const result *r) { return decided(r->ca) && !decided(r->ma); }
static bool target_miss(const result *r) { return mm_only(r) && r->mcpu <= 10.0; }
static bool bad_one(const result *r) { return is_bad(r); }

/* The summary of the instances of subfamily sub ("orig"), or of all of
 * them (sub NULL). */
static void summary(const char *label, char **names, const result *rs, size_t n, const char *sub,
                    bool mm) {
    int count = 0, cd = 0, md = 0, both = 0;
    double logsum = 0, worst = -1, ccpu = 0, mcpu = 0;
    size_t wi = 0;
    for (size_t i = 0; i < n; i++) {
        if (!in_sub(names[i], sub)) continue;
        const result *r = &rs[i];
        count++, cd += decided(r->ca), md += decided(r->ma);
        ccpu += r->ccpu, mcpu += r->mcpu;
        if (both_decided(r)) {
            double q = ratio_of(r);
            both++, logsum += log(q);
            if (q > worst) worst = q, wi = i;
        }
    }
    char gm[32] = "-", wr[96] = "-";
    if (both > 0) {
        snprintf(gm, sizeof gm, "%.3f", exp(logsum / both));
        size_t len = strlen(names[wi]);
        if (len > 4 && strcmp(names[wi] + len - 4, ".csv") == 0) len -= 4;
        snprintf(wr, sizeof wr, "%.*s (%.2f)", (int)(len > 70 ? 70 : len), names[wi], worst);
    }
    printf("%-6s %5d %9d %10d %5d %9.1f %10.1f %8s  %s\n", label, count, cd, mm ? md : 0, both,
           ccpu, mcpu, gm, wr);
    if (mm) {
        print_names("decided by MiniMalloc only", names, rs, n, sub, mm_only);
        print_names("decided by canonical only", names, rs, n, sub, can_only);
        print_names("MiniMalloc within 10 s CPU, canonical undecided (target)", names, rs, n, sub,
                    target_miss);
    }
    print_names("disagreements, invalid plans, errors", names, rs, n, sub, bad_one);
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool name_selected(const char *name, const char *subs) {
    if (subs == NULL) return true;
    const char *s = subs;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len > 0 && strncmp(name, s, len) == 0) return true;
        if (e == NULL) break;
        s = e + 1;
    }
    return false;
}


/* Keeps at most per instances of each subfamily: a fixed pseudo-random
 * sample of its sorted names (selection sampling, the same every run), in
 * order. Even spacing would alias with the families' patterns (every other
 * win instance is the tight one). */
static size_t thin(char **names, size_t n, int per) {
    size_t out = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && sub_len(names[j]) == sub_len(names[i]) &&
               strncmp(names[j], names[i], sub_len(names[i])) == 0)
            j++; /* names are sorted: a subfamily's are together */
        rng r = rng_for(99, (uint64_t)sub_len(names[i]) * 131 + (uint64_t)(unsigned char)names[i][0]);
        size_t g = j - i, want = g < (size_t)per ? g : (size_t)per;
        for (size_t k = i; k < j && want > 0; k++)
            if (rng_below(&r, j - k) < want) names[out++] = names[k], want--; /* k >= out */
        i = j;
    }
    for (size_t k = out; k < n; k++) names[k] = NULL; /* freed by the caller from its copy */
    return out;
}

static void usage(FILE *f) {
    fprintf(f,
        "usage: bench_family gen DIR\n"
        "       bench_family run DIR [-t SECS] [-m SECS] [-p SPEC] [-s SUB[,SUB..]] [-n N] [-j N] [-o FILE] [-g] [-l]\n"
        "\n"
        "gen DIR   writes the family of MiniMalloc CSVs into DIR (created if needed), always the\n"
        "          same bytes: DIR/<subfamily>-<label>.<capacity>.csv. Subfamilies:\n"
        "            orig  A-F of ../shared/data/minimalloc, unchanged, at 1048576\n"
        "            rev   A-F reversed in time\n"
        "            shuf  A-F with rows shuffled (3 seeds), ids renumbered\n"
        "            win   windows of 25-40%% of A-F's sections, at max-load (-t) and +2%% (-s2)\n"
        "            guil  guillotine cuts of a 1048576-byte strip: fit by construction; p plain,\n"
        "                  u16/u1 small sizes, a64/a4k alignments, fx ~15%% fixed offsets;\n"
        "                  -s2/-s5 posed 2%%/5%% above, -d10 with 10%% of the pieces deleted\n"
        "            jit   A-F with each size moved by up to 10%% (10 seeds), at 1048576\n"
        "          Those from A-F are skipped when ../shared/data/minimalloc is absent.\n"
        "\n"
        "run DIR   decides each instance's capacity (the file name's) with planner canonical\n"
        "          and with MiniMalloc, each in a child process, and times each by its CPU\n"
        "          (user + system, wait4). An `offset` column fixes the buffers it fills.\n"
        "  -t SECS   canonical's budget: canonical:target=capacity,time=SECS (default 60);\n"
        "            its child also gets RLIMIT_CPU SECS + 30 as a safety net\n"
        "  -m SECS   MiniMalloc's CPU cap, RLIMIT_CPU in its child (default 60; whole seconds,\n"
        "            rounded up); it runs with --timeout=100000s (its timeout is wall-clock)\n"
        "  -p SPEC   canonical's whole spec instead, e.g. canonical:target=capacity,nodes=1000000\n"
        "  -s SUB    only names starting with SUB (comma-separated: -s orig,win-A)\n"
        "  -n N      at most N instances per subfamily: a fixed pseudo-random sample of them\n"
        "  -j N      N instances at a time (default 1; each child still timed by its rusage)\n"
        "  -o FILE   also write one TSV row per instance (for comparing two builds)\n"
        "  -g        the target's check, cheaper: MiniMalloc first, and canonical only on the\n"
        "            instances MiniMalloc decides (canonical's \"decided by one only\" is then\n"
        "            not measured); needs MiniMalloc\n"
        "  -l        only list the instances selected (-s, -n), one a line\n"
        "MiniMalloc: $MINIMALLOC, else ../shared/tools/minimalloc/minimalloc beside the source\n"
        "tree; absent: canonical only, and run says so.\n"
        "Exit status: 0 fine; 1 a disagreement (one fits with a valid plan, the other proves it\n"
        "does not), an invalid plan, a guil instance called infeasible, or an error of\n"
        "canonical's; 2 bad usage.\n");
}

static bool parse_secs(const char *s, double *v) {
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *s != '\0' && *end == '\0' && errno == 0 && *v > 0 && *v < 1e7;
}

static bool parse_count(const char *s, int lo, int hi, int *v) {
    char *end;
    long x = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || x < lo || x > hi) return false;
    *v = (int)x;
    return true;
}

static void remove_tmp(const char *tmp) {
    DIR *d = opendir(tmp);
    if (d != NULL) {
        struct dirent *e;
        char p[PATH_CAP];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(p, sizeof p, "%.3800s/%.255s", tmp, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(tmp);
}

static void loadavg(const char *when) {
    FILE *f = fopen("/proc/loadavg", "r");
    char line[128] = "";
    if (f != NULL) {
        if (fgets(line, sizeof line, f) == NULL) line[0] = '\0';
        fclose(f);
    }
    line[strcspn(line, "\n")] = '\0';
    if (line[0]) printf("# load average %s: %s\n", when, line);
}

static int cmd_run(int argc, char **argv) {
    opts o;
    memset(&o, 0, sizeof o);
    o.secs_text = "60", o.secs = 60, o.msecs = 60, o.jobs = 1;
    const char *spec = NULL, *subs = NULL, *out = NULL;
    int per = 0, opt;
    bool list = false;
    optind = 1;
    while ((opt = getopt(argc, argv, "t:m:p:s:n:j:o:glh")) != -1) {
        if (opt == 't' && parse_secs(optarg, &o.secs)) o.secs_text = optarg;
        else if (opt == 'm' && parse_secs(optarg, &o.msecs)) continue;
        else if (opt == 'p') spec = optarg;
        else if (opt == 's') subs = optarg;
        else if (opt == 'n' && parse_count(optarg, 1, 1000000, &per)) continue;
        else if (opt == 'j' && parse_count(optarg, 1, 64, &o.jobs)) continue;
        else if (opt == 'o') out = optarg;
        else if (opt == 'l') list = true;
        else if (opt == 'g') o.gate = true;
        else if (opt == 'h') return usage(stdout), 0;
        else {
            if (opt != '?') fprintf(stderr, "bench_family: -%c: bad value '%s'\n", opt, optarg);
            usage(stderr);
            return 2;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "bench_family: run takes one DIR\n");
        usage(stderr);
        return 2;
    }
    o.dir = argv[optind];
    if (spec != NULL) snprintf(o.spec, sizeof o.spec, "%s", spec);
    else snprintf(o.spec, sizeof o.spec, "canonical:target=capacity,time=%s", o.secs_text);
    {
        const ab_planner *pl;
        ab_params prm;
        ab_error err;
        if (ab_planner_resolve(o.spec, &pl, &prm, &err) != AB_OK) {
            fprintf(stderr, "bench_family: -p: %s\n", err.msg);
            return 2;
        }
        ab_params_free(&prm);
    }
    DIR *d = opendir(o.dir);
    if (d == NULL) {
        fprintf(stderr, "bench_family: cannot open %s: %s\n", o.dir, strerror(errno));
        return 2;
    }
    size_t n = 0, cap = 0;
    char **names = NULL;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".csv") != 0) continue;
        if (!name_selected(e->d_name, subs)) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char **nn = realloc(names, cap * sizeof *nn);
            if (nn == NULL) return closedir(d), fprintf(stderr, "bench_family: out of memory\n"), 2;
            names = nn;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n == 0) {
        fprintf(stderr, "bench_family: no .csv in %s%s%s\n", o.dir, subs ? " matching -s " : "",
                subs ? subs : "");
        free(names);
        return 2;
    }
    qsort(names, n, sizeof *names, cmp_str);
    char **all = malloc(n * sizeof *all);
    if (all == NULL) return fprintf(stderr, "bench_family: out of memory\n"), 2;
    memcpy(all, names, n * sizeof *all);
    size_t total = n;
    if (per > 0) n = thin(names, n, per);
    if (list) {
        for (size_t i = 0; i < n; i++) printf("%s\n", names[i]);
        for (size_t i = 0; i < total; i++) free(all[i]);
        free(all), free(names);
        return 0;
    }

    char mm[PATH_CAP];
    const char *env = getenv("MINIMALLOC");
    if (env != NULL && env[0]) snprintf(mm, sizeof mm, "%s", env);
    else beside_source("../shared/tools/minimalloc/minimalloc", mm, sizeof mm);
    o.minimalloc = access(mm, X_OK) == 0 ? mm : NULL;
    char real[PATH_MAX];
    if (o.minimalloc != NULL && realpath(mm, real) != NULL) snprintf(mm, sizeof mm, "%s", real);
    if (o.gate && o.minimalloc == NULL) {
        fprintf(stderr, "bench_family: -g needs MiniMalloc, and %s is not executable\n", mm);
        return 2;
    }
    char tmp[PATH_CAP];
    const char *td = getenv("TMPDIR");
    snprintf(tmp, sizeof tmp, "%s/bench_family.XXXXXX", td && td[0] ? td : "/tmp");
    if (o.minimalloc != NULL && mkdtemp(tmp) == NULL) {
        fprintf(stderr, "bench_family: cannot make a temporary folder %s: %s\n", tmp, strerror(errno));
        return 2;
    }
    o.tmp = tmp;

    printf("# bench_family run %s: %zu instances%s\n", o.dir, n,
           per > 0 || subs ? " (selected)" : "");
    printf("# canonical: %s (child's RLIMIT_CPU %.0f s)\n", o.spec, ceil(o.secs) + 30);
    if (o.minimalloc) printf("# minimalloc: %s (RLIMIT_CPU %.0f s)\n", o.minimalloc, ceil(o.msecs));
    else printf("# minimalloc: %s is absent: canonical only\n", mm);
    printf("# %d at a time on %ld CPUs; CPU seconds are user + system of each child\n", o.jobs,
           sysconf(_SC_NPROCESSORS_ONLN));
    loadavg("at the start");
    printf("%-32s %4s %8s %8s  %-9s %7s %10s  %-10s %7s %7s\n", "instance", "n", "capacity",
           "max-load", "canonical", "cpu s", "nodes", "minimalloc", "cpu s", "c/m");
    fflush(stdout);

    result *rs = calloc(n, sizeof *rs);
    pid_t *pids = calloc((size_t)o.jobs, sizeof *pids);
    int *fds = calloc((size_t)o.jobs, sizeof *fds);
    size_t *which = calloc((size_t)o.jobs, sizeof *which);
    if (rs == NULL || pids == NULL || fds == NULL || which == NULL)
        return fprintf(stderr, "bench_family: out of memory\n"), 2;
    size_t next = 0, printed = 0;
    int active = 0;
    while (next < n || active > 0) {
        if (next < n && active < o.jobs) {
            int slot = 0;
            while (pids[slot] != 0) slot++;
            int pf[2];
            if (pipe(pf) != 0) return fprintf(stderr, "bench_family: pipe: %s\n", strerror(errno)), 2;
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) return fprintf(stderr, "bench_family: fork: %s\n", strerror(errno)), 2;
            if (pid == 0) { /* the runner */
                close(pf[0]);
                result r;
                run_instance(names[next], (int)next, &o, &r);
                ssize_t w = write(pf[1], &r, sizeof r);
                _exit(w == (ssize_t)sizeof r ? 0 : 3);
            }
            close(pf[1]);
            pids[slot] = pid, fds[slot] = pf[0], which[slot] = next++;
            active++;
            continue;
        }
        int ws;
        pid_t pid = waitpid(-1, &ws, 0);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;
        }
        int slot = 0;
        while (slot < o.jobs && pids[slot] != pid) slot++;
        if (slot == o.jobs) continue;
        result *r = &rs[which[slot]];
        ssize_t got = read(fds[slot], r, sizeof *r);
        close(fds[slot]);
        if (got != (ssize_t)sizeof *r) {
            memset(r, 0, sizeof *r);
            r->ca = A_ERROR;
            snprintf(r->err, sizeof r->err, "the runner died (status %d)", ws);
            r->done = true;
        }
        pids[slot] = 0;
        active--;
        while (printed < n && rs[printed].done) print_line(names[printed], &rs[printed], &o), printed++;
    }
    loadavg("at the end");

    printf("\n%-6s %5s %9s %10s %5s %9s %10s %8s  %s\n", "sub", "count", "canonical",
           "minimalloc", "both", "c cpu s", "m cpu s", "geomean", "worst c/m");
    for (size_t i = 0; i < n;) {
        char sub[256];
        snprintf(sub, sizeof sub, "%.*s", (int)sub_len(names[i]), names[i]);
        summary(sub, names, rs, n, sub, o.minimalloc != NULL);
        while (i < n && in_sub(names[i], sub)) i++;
    }
    summary("all", names, rs, n, NULL, o.minimalloc != NULL);
    printf("(canonical/minimalloc: instances each decided; both: decided by both, over which the "
           "geomean of CPU ratios c/m is taken, each time floored at 0.01 s)\n");

    int rc = 0;
    for (size_t i = 0; i < n; i++)
        if (is_bad(&rs[i])) rc = 1;
    if (out != NULL) {
        FILE *f = fopen(out, "w");
        if (f == NULL) fprintf(stderr, "bench_family: cannot write %s: %s\n", out, strerror(errno));
        else {
            write_tsv(f, names, rs, n);
            if (fclose(f) != 0) fprintf(stderr, "bench_family: cannot write %s\n", out);
        }
    }
    if (o.minimalloc) remove_tmp(tmp);
    for (size_t i = 0; i < total; i++) free(all[i]);
    free(all), free(names), free(rs), free(pids), free(fds), free(which);
    return rc;
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return usage(stdout), 0;
    if (argc == 3 && strcmp(argv[1], "gen") == 0) return cmd_gen(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "run") == 0) return cmd_run(argc - 1, argv + 1);
    usage(stderr);
    return 2;
}
