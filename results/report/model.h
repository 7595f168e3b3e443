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

#include "results/report/compare.h"
#include "results/report/report.h"

/* ---- the model ------------------------------------------------------------------ */

/* Where a suite's best bound came from. */
typedef enum abr_bound_src {
    ABR_SRC_NONE = 0,
    ABR_SRC_MAX_LOAD, /* the suite's max-load bound (peak live bytes) */
    ABR_SRC_STORED,   /* the suite's stored lower bound */
    ABR_SRC_PLANNER,  /* a row's lower bound: what its planner proved */
    ABR_SRC_ILP,      /* a row's ILP bound */
    ABR_SRC_PROOF,    /* a valid row proven optimal: its arena */
    ABR_SRC_BOUND     /* a row of the run's bounds table (oracle/bound.h) */
} abr_bound_src;

/* A planner spec of the run and its summary figures. */
typedef struct abr_rspec {
    const char *spec;     /* owned by the rows */
    char *family;         /* owned: the spec without its k parameter */
    int64_t k;            /* the spec's k parameter, or AB_NONE */
    bool exact;           /* its planner is exact (AB_PLANNER_EXACT in the registry) */
    size_t rows;          /* suites it ran on */
    size_t status[ABO_NSTATUSES];
    size_t nratio;        /* valid rows with a ratio to the bound */
    double logsum;        /* sum of log(arena / bound) over them */
    size_t proven, wins;
} abr_rspec;

/* A suite's capacity decision (DESIGN.md §3 `capacity:`; MiniMalloc's X.C.csv):
 * does some valid plan fit the capacity? Decided from the rows' structured
 * fields (status, arena, the best bound), never from their notes:
 *
 *   fits          a valid row (status ok) has an arena within the capacity
 *   does not fit  the suite's best bound (a proof: max-load, a row's proven
 *                 lower bound or ILP bound, a proven optimum) exceeds the
 *                 capacity, or a row is infeasible (the oracle's refutation)
 *   not decided   neither: the smallest arena lies in [best bound, smallest
 *                 valid plan], and ABR_OPEN_* says why
 *   conflict      both (a planner or a proof is wrong) */
typedef enum abr_cap {
    ABR_CAP_NONE = 0,     /* no capacity known: none in the suite, or no suite loader */
    ABR_CAP_FITS,
    ABR_CAP_DOES_NOT_FIT,
    ABR_CAP_NOT_DECIDED,
    ABR_CAP_CONFLICT
} abr_cap;

/* Why a capacity is not decided. An exact row is a row of an exact planner
 * at k = 1 (abr_rrow.exact): had its search ended, it would have decided. */
typedef enum abr_cap_open {
    ABR_OPEN_NONE = 0,    /* decided, or no capacity */
    ABR_OPEN_BUDGET,      /* an exact row stopped undecided: its budget, its time cap, the
                             runner's time or memory limit (status over-capacity, timeout,
                             oom, or capped) */
    ABR_OPEN_FAILED,      /* exact rows ran, and each failed (crash, error, invalid) */
    ABR_OPEN_NO_EXACT     /* no exact row: heuristics only, whose gaps decide nothing */
} abr_cap_open;

/* A suite of the run: rows [row0, row0 + nrows) of the store's order. */
typedef struct abr_rsuite {
    size_t row0, nrows;
    int64_t bound;        /* best known lower bound (bb.value), or AB_NONE */
    abo_best_bound bb;    /* the oracle's best bound: value and kind of proof */
    abr_bound_src src;        /* where it came from, for the report's words */
    size_t src_row;       /* the row it came from (ABR_SRC_PLANNER, ABR_SRC_ILP, ABR_SRC_PROOF),
                             or its index in the model's bounds (ABR_SRC_BOUND) */
    size_t b0, nb;        /* its bounds: m->bounds.v[b0 .. b0 + nb) */
    int64_t best;         /* best valid arena, or AB_NONE */
    bool dup_name;        /* another suite of the run has the same name */
    /* the capacity decision (abr_cap); every figure AB_NONE without a capacity */
    int64_t capacity;     /* ab_problem_capacity of the suite: the store's column (schema 4
                             on), else read from its stored text; AB_NONE */
    bool pools;           /* two or more pools: over-capacity may mean over a pool */
    abr_cap cap;
    abr_cap_open open;    /* why not decided (ABR_CAP_NOT_DECIDED) */
    int64_t cap_arena;    /* the smallest valid arena within the capacity, or AB_NONE */
    int64_t cap_upper;    /* the smallest arena of a valid plan, within the capacity or
                             over it (over-capacity and infeasible rows count: their plans
                             break the capacity only): the top of the bracket, or AB_NONE */
    bool infeasible;      /* a row is infeasible (the oracle's refutation): does not fit
                             even when the best bound does not exceed the capacity */
} abr_rsuite;

/* Figures derived for one row. */
typedef struct abr_rrow {
    size_t suite, spec;   /* indices into the model's suites and specs */
    int64_t k;            /* the spec's k, else the row's stored k, else AB_NONE */
    bool has_gap;
    double gap;           /* arena / bound - 1 when has_gap */
    bool proven, win;     /* valid and proven optimal; valid and best of its suite */
    bool exact;           /* an exact planner at k = 1 (or no k): its search decides */
} abr_rrow;

typedef struct abr_model {
    abs_run run;
    abs_rows rows;
    abs_bounds bounds;        /* the run's bounds table, by suite id, kind, source */
    abr_rrow *rr;             /* rows.n entries */
    abr_rsuite *su;
    size_t nsu;
    abr_rspec *sp;
    size_t nsp;
    /* The verdict (abr_put_run_verdict): this run against the one before it with
     * its tag, as `compare` judges it, when there is one. */
    int64_t base;              /* that run, 0 for none */
    abr_compare_summary cmp;   /* what compare found (zero without a base) */
    char cmp_why[160];         /* why there is no comparison, when base is 0 */
} abr_model;

/* Reads run `run` and derives every figure. *m is initialised by the call and
 * freed with abr_model_free, even on failure. The capacities come from the
 * suites' rows (schema 4 on) or else their stored arena views (schema 5); a
 * suite with neither has no capacity decision. AB_ENOMEM fails the build. */
ab_status abr_model_build(abs_store *s, int64_t run, abr_model *m,
                          ab_error *err);

/* Frees what abr_model_build made and zeroes *m. */
void abr_model_free(abr_model *m);

static inline const abo_row *row_r(const abr_model *m, size_t i) { return &m->rows.v[i].r; }
static inline const abs_suite *suite_of(const abr_model *m, size_t si) {
    return &m->rows.v[m->su[si].row0].suite;
}
static inline bool row_ok(const abr_model *m, size_t i) { return row_r(m, i)->status == ABO_STATUS_OK; }

/* The row of spec j on suite si, or SIZE_MAX when that pair did not run. */
size_t abr_cell_row(const abr_model *m, size_t si, size_t j);

/* A spec's short label, the same for the same spec in every report: its
 * name= parameter when it has one (external:cmd='...',name=mm is "mm"), else
 * its planner, then each parameter as the key's first letter = the value,
 * with round thousands and millions as k and M: "canonical:nodes=150000,
 * time=45" is "canonical:n=150k,t=45". The Planners table gives each label's
 * spec. */
void abr_spec_label(const char *spec, char *out, size_t len);

/* The abr_put_* functions below that name specs take `labels`: true for the
 * tables a person reads (each spec's label, at most 3 named then "and N
 * more"), false for the machine formats (every spec, in full). */

/* The rows of the run that are not valid (status other than ok). */
size_t abr_failed_rows(const abr_model *m);

/* The rows that are not valid, by kind: failed (invalid, crash, error: a
 * planner or a plan is wrong), stopped by a limit (timeout, oom) and of those
 * the ones a time or memory cap stopped (load can cause them), and capacity
 * outcomes (over-capacity, infeasible). */
typedef struct abr_row_counts {
    size_t valid, failed, stopped, capped, capacity;
} abr_row_counts;
abr_row_counts abr_count_rows(const abr_model *m);

/* "4 suites, 5 planner specs, 10 results: 7 valid, 1 failed (invalid, crash or
 * error), 1 stopped by a limit (0 of them by a time or memory cap), 1 over
 * the capacity or infeasible." (no markup). */
void abr_put_row_counts(ab_buf *b, const abr_model *m);


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

/* The report's first line, the verdict against the base run (no
 * regression, or how many) and what this run's rows say, e.g. "no regression
 * against run 6 (nightly, abc123): 40 pairs unchanged, 2 improvements; 1 row
 * stopped by a time cap (load can cause it), not judged"; stored text
 * (the tag) through esc. */
void abr_put_run_verdict(ab_buf *b, esc_fn esc, const abr_model *m);

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
void abr_put_detail(ab_buf *b, esc_fn esc, const abo_row *r);

/* A failed cell: the status, with the signal of a crash. */
void abr_put_fail_cell(ab_buf *b, const abo_row *r);

/* Where suite si's best bound came from. */
void abr_put_bound_src(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels);

/* The proof a suite's bound gives when the best arena reaches it. */
abo_proof abr_bound_proof(const abr_model *m, size_t si);

/* The certificate's verdict: optimal (proof), open (gap), conflict, ...; for a
 * suite with a capacity decision, that decision (abr_put_cap_verdict) unless a
 * valid arena contradicts a bound or the known optimum (CONFLICT). */
void abr_put_verdict(ab_buf *b, const abr_model *m, size_t si);

/* ---- capacity decisions (abr_cap) ------------------------------------------------ */

/* true when some suite of the run has a capacity decision. */
bool abr_cap_any(const abr_model *m);

/* The JSON and CSV word: "fits", "does_not_fit", "not_decided", "conflict";
 * NULL for ABR_CAP_NONE. */
const char *abr_cap_key(abr_cap c);

/* Why not decided: "exact_budget", "exact_failed", "no_exact"; NULL otherwise. */
const char *abr_cap_open_key(abr_cap_open o);

/* Suite si's capacity decision in one line: "fits the capacity C: arena A,
 * gap +X% to the best bound", "does not fit the capacity C: bound L > C",
 * "not decided (exact search ran out of budget): capacity C, smallest arena in
 * [L, B]", ...; nothing for a suite without one. */
void abr_put_cap_verdict(ab_buf *b, const abr_model *m, size_t si);

/* The specs whose valid plan is the smallest of suite si's, within the
 * capacity or over it (abr_rsuite.cap_upper: when the suite fits, the plan
 * within the capacity), joined by ", "; "-" when none. */
void abr_put_cap_by(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels);

/* The exact rows of suite si with how each ended: "spec (status[, capped: W])",
 * joined by ", "; "-" when none. */
void abr_put_cap_exact(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels);

/* The gap of the smallest arena within the capacity (abr_rsuite.cap_arena) to
 * the best bound; false when no plan fits or there is no positive bound. */
bool abr_cap_gap(const abr_model *m, size_t si, double *gap);

/* The specs whose valid arena is the suite's best, joined by ", ". */
void abr_put_winners(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels);

/* The rows of suite si that carry a proof of optimality: "spec (proof)". */
void abr_put_claims(ab_buf *b, esc_fn esc, const abr_model *m, size_t si, bool labels);

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
