/*
 * compare_int.h — private to compare*.c: the compare's data between reading
 * (compare_read.c), judging (compare.c) and writing (compare_text.c,
 * compare_json.c).
 */
#ifndef AB_COMPARE_INT_H
#define AB_COMPARE_INT_H

#include "results/report/compare.h"

/* A stored row with what compare needs beyond abs_row: its CPU spread and
 * whether a safety cap stopped it. Times are negative when unknown. */
typedef struct abr_crow {
    const abs_row *w;
    double cpu_med, cpu_min, cpu_max;
    char capped[16]; /* "" none, else the cap's word ("time", "memory") */
} abr_crow;

/* One run: its rows (in the store's order) and their extras (same index). */
typedef struct abr_cside {
    abs_run run;
    abs_rows rows;
    abr_crow *x; /* rows.n of them */
} abr_cside;

/* Reads run `run` into *d (zeroed first; abr_cside_free after, even on
 * failure). *spread is set: every row has its spread columns (schema v3). */
ab_status abr_cside_read(abs_store *s, int64_t run, abr_cside *d, bool *spread, ab_error *err);
void abr_cside_free(abr_cside *d);

/* A pairing key: spec pair p, and the text its '*' stood for. */
typedef struct abr_ckey {
    size_t p;
    const char *cap; /* into a row's spec; not NUL-terminated */
    size_t ncap;
    char *base_spec, *head_spec; /* the key's two specs, owned (ab_free) */
    size_t base_rows, head_rows, matched;
    double arena_log, cpu_log; /* sums of log(head / base) */
    size_t arena_n, cpu_n;
} abr_ckey;

/* A matched pair of rows (both sides) under key k. */
typedef struct abr_cmatch {
    size_t k;
    const abr_crow *b, *h;
} abr_cmatch;

/* A line: one change. base or head NULL for new and gone; both NULL for a
 * spec new/gone line (key k, count rows). */
typedef struct abr_cline {
    abr_change c;
    size_t k;
    const abr_crow *b, *h;
    size_t count;
    size_t p;        /* the key's spec pair; SIZE_MAX for a contradiction */
    const char *cap; /* the key's '*' text, for the order */
    size_t ncap;
    size_t seq;      /* order of finding, the last tie-break */
} abr_cline;

typedef struct abr_cctx {
    abr_cside base, head;
    abr_compare_opts opt;
    bool explicit_pairs; /* the caller gave spec pairs */
    abr_ckey *keys;
    size_t nkeys, capkeys;
    abr_cmatch *m;
    size_t nm, capm;
    abr_cline *v;
    size_t n, cap;
    bool oom;
} abr_cctx;

/* The class of a change: 1 regression, 0 improvement, 2 other, 3 new/gone,
 * 4 timing warning, 5 not judged. */
int abr_change_class(abr_change c);
/* Whether line class cls counts as a regression under c's options. */
bool abr_cclass_fails(const abr_cctx *c, int cls);
/* The ratio head / base of the line's CPU medians, or -1. */
double abr_cpu_ratio(const abr_crow *b, const abr_crow *h);
/* exp(log_sum / n), or -1 when n is 0. */
double abr_geomean(double log_sum, size_t n);
/* Whether a row is ok, proven. */
bool abr_crow_ok(const abr_crow *w);
bool abr_crow_proven(const abr_crow *w);

/* The hints for the notice: "--pair 'OLD=NEW'" for each gone spec with a new
 * spec of the same planner (or the one gone and the one new spec); calls
 * fn(arg, gone, new) for each, in key order. */
void abr_pair_hints(const abr_cctx *c, void (*fn)(void *arg, const char *gone, const char *nu),
                    void *arg);

/* The renderers: append the compare to b (b->oom checked by the caller). */
void abr_compare_text(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum);
void abr_compare_json(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum);

#endif
