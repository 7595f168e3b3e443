/*
 * model.h — the report's model, shared by its renderers (private to
 * results/report/): a run's rows read from the store, its suites, its planner
 * specs and the figures report.h defines (best bound, best arena, gap,
 * geomean, proven, wins, certificate); the words every format uses for them;
 * and the flat fields of a row that CSV and JSON write.
 */
#ifndef AB_REPORT_MODEL_H
#define AB_REPORT_MODEL_H

#include <math.h>
#include <string.h>

#include "results/report/report.h"

/* ---- the model ------------------------------------------------------------------ */

/* Where a suite's best bound came from. */
typedef enum abr_bound_src {
    ABR_SRC_NONE = 0,
    ABR_SRC_MAX_LOAD, /* the suite's max-load bound (peak live bytes) */
    ABR_SRC_STORED,   /* the suite's stored lower bound */
    ABR_SRC_PLANNER,  /* a row's lower bound: what its planner proved */
    ABR_SRC_ILP,      /* a row's ILP bound */
    ABR_SRC_PROOF     /* a valid row proven optimal: its arena */
} abr_bound_src;

/* A planner spec of the run and its summary figures. */
typedef struct abr_rspec {
    const char *spec;     /* owned by the rows */
    char *family;         /* owned: the spec without its k parameter */
    int64_t k;            /* the spec's k parameter, or AB_NONE */
    size_t rows;          /* suites it ran on */
    size_t status[ABE_NSTATUSES];
    size_t nratio;        /* valid rows with a ratio to the bound */
    double logsum;        /* sum of log(arena / bound) over them */
    size_t proven, wins;
} abr_rspec;

/* A suite of the run: rows [row0, row0 + nrows) of the store's order. */
typedef struct abr_rsuite {
    size_t row0, nrows;
    int64_t bound;        /* best known lower bound (bb.value), or AB_NONE */
    abo_best_bound bb;    /* the oracle's best bound: value and kind of proof */
    abr_bound_src src;        /* where it came from, for the report's words */
    size_t src_row;       /* the row it came from (ABR_SRC_PLANNER, ABR_SRC_ILP, ABR_SRC_PROOF) */
    int64_t best;         /* best valid arena, or AB_NONE */
    bool dup_name;        /* another suite of the run has the same name */
} abr_rsuite;

/* Figures derived for one row. */
typedef struct abr_rrow {
    size_t suite, spec;   /* indices into the model's suites and specs */
    int64_t k;            /* the spec's k, else the row's stored k, else AB_NONE */
    bool has_gap;
    double gap;           /* arena / bound - 1 when has_gap */
    bool proven, win;     /* valid and proven optimal; valid and best of its suite */
} abr_rrow;

typedef struct abr_model {
    abr_run run;
    abr_rows rows;
    abr_rrow *rr;             /* rows.n entries */
    abr_rsuite *su;
    size_t nsu;
    abr_rspec *sp;
    size_t nsp;
} abr_model;

/* Reads run `run` and derives every figure. *m is initialised by the call and
 * freed with abr_model_free, even on failure. */
ab_status abr_model_build(abr_store *s, int64_t run, abr_model *m, ab_error *err);

/* Frees what abr_model_build made and zeroes *m. */
void abr_model_free(abr_model *m);

static inline const abr_result *row_r(const abr_model *m, size_t i) { return &m->rows.v[i].r; }
static inline const abr_suite *suite_of(const abr_model *m, size_t si) {
    return &m->rows.v[m->su[si].row0].suite;
}
static inline bool row_ok(const abr_model *m, size_t i) { return row_r(m, i)->status == ABE_OK; }

/* The row of spec j on suite si, or SIZE_MAX when that pair did not run. */
size_t abr_cell_row(const abr_model *m, size_t si, size_t j);

/* The rows of the run that are not valid (status other than ok). */
size_t abr_failed_rows(const abr_model *m);

/* A planner spec's time and memory: over its rows, the median of each row's
 * (median) CPU, wall and planner CPU seconds and of its peak RSS; the largest
 * peak; rows, runs (repeats) and capped rows. NAN where no row has a value. */
typedef struct abr_times {
    size_t rows, runs, capped;
    double cpu, wall, plan_cpu, rss, rss_max;
} abr_times;

/* Fills *x for spec j; false when out of memory (*x then has NANs). */
bool abr_spec_times(const abr_model *m, size_t j, abr_times *x);

/* ---- words ----------------------------------------------------------------------
 * Each appends to b; those taking an esc_fn pass stored text (suite names,
 * specs, messages) through it and write their own words as they are. */

/* Appends s escaped for one format (put: as it is). */
typedef void (*esc_fn)(ab_buf *b, const char *s);

static inline void put(ab_buf *b, const char *s) { ab_buf_append(b, s, strlen(s)); }

/* "-" for an absent integer, else the integer. */
void abr_put_i64(ab_buf *b, int64_t v);

/* A gap as a signed percentage, "-" when there is none. */
void abr_put_gap(ab_buf *b, bool has, double gap);

/* The name of suite si, with its hash's first 8 digits when the run has
 * another suite of the same name. */
void abr_put_suite(ab_buf *b, esc_fn esc, const abr_model *m, size_t si);

/* What is known of a failed row: signal, verdict, checker message, error,
 * note, joined by "; ". */
void abr_put_detail(ab_buf *b, esc_fn esc, const abr_result *r);

/* A failed cell: the status, with the signal of a crash. */
void abr_put_fail_cell(ab_buf *b, const abr_result *r);

/* Where suite si's best bound came from. */
void abr_put_bound_src(ab_buf *b, esc_fn esc, const abr_model *m, size_t si);

/* The proof a suite's bound gives when the best arena reaches it. */
abo_proof abr_bound_proof(const abr_model *m, size_t si);

/* The certificate's verdict: optimal (proof), open (gap), conflict, ... */
void abr_put_verdict(ab_buf *b, const abr_model *m, size_t si);

/* The specs whose valid arena is the suite's best, joined by ", ". */
void abr_put_winners(ab_buf *b, esc_fn esc, const abr_model *m, size_t si);

/* The rows of suite si that carry a proof of optimality: "spec (proof)". */
void abr_put_claims(ab_buf *b, esc_fn esc, const abr_model *m, size_t si);

/* The geometric mean of a spec's arena / bound ratios, "-" when none. */
void abr_put_geomean(ab_buf *b, const abr_rspec *p);

/* ---- I/O in the workspace (run --io both) ----------------------------------------
 * A run with --io both holds each suite twice, named "X@io=separate" and
 * "X@io=workspace". */

#define ABR_IO_SEP "@io=separate"
#define ABR_IO_WS "@io=workspace"

/* The workspace twin of suite si when si is a separate-I/O variant, else SIZE_MAX. */
size_t abr_io_twin(const abr_model *m, size_t si);

/* true when some suite of the run has its workspace twin. */
bool abr_io_any(const abr_model *m);

/* ---- the fields of a row (CSV and JSON) ------------------------------------- */

typedef enum abr_ftype { ABR_F_INT, ABR_F_REAL, ABR_F_STR, ABR_F_BOOL } abr_ftype;

typedef struct abr_field {
    const char *name;
    abr_ftype t;
    bool null;      /* absent: empty in CSV, null in JSON */
    int64_t i;      /* ABR_F_INT, ABR_F_BOOL */
    double d;       /* ABR_F_REAL */
    const char *s;  /* ABR_F_STR */
} abr_field;

#define ABR_NFIELDS 36

/* A field of each type: an integer (absent: AB_NONE), a real (absent when null
 * or not finite), a string (absent: NULL), a flag. */
static inline abr_field fi(const char *name, int64_t v) {
    return (abr_field){.name = name, .t = ABR_F_INT, .null = v == AB_NONE, .i = v};
}
static inline abr_field fr(const char *name, double v, bool null) {
    return (abr_field){.name = name, .t = ABR_F_REAL, .null = null || !isfinite(v), .d = v};
}
static inline abr_field fs(const char *name, const char *s) {
    return (abr_field){.name = name, .t = ABR_F_STR, .null = s == NULL, .s = s};
}
static inline abr_field fb(const char *name, bool v) {
    return (abr_field){.name = name, .t = ABR_F_BOOL, .i = v};
}

/* The ABR_NFIELDS fields of row i, in column order (strings borrowed from m). */
void abr_row_fields(const abr_model *m, size_t i, abr_field f[ABR_NFIELDS]);

/* The field names, from the fields of a blank row (a run may have none). */
void abr_field_names(abr_field f[ABR_NFIELDS]);

#endif
