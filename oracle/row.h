/*
 * row.h — a results row: what one job measured and how the oracle judged it
 * (status, checker's verdict, certificate, bounds), as the store keeps it and
 * the report reads it. The engine fills it from a job (harness/engine:
 * abe_row); the run adds the row's identity (run, suite, spec, k) and commits
 * it. It lives here, below the engine and the store, so both can name it and
 * the store needs only core and the oracle.
 */
#ifndef ABO_ROW_H
#define ABO_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/certify.h"
#include "oracle/status.h"

/* A plan's hash in hex: 64 lower-case digits and a NUL (SHA-256). */
#define ABO_HASH_HEX 65

/* A row: one (run, suite, planner spec). Integers are AB_NONE, times
 * negative, strings NULL and signal 0 when unknown or not applicable. */
typedef struct abo_row {
    int64_t run, suite;        /* the store's ids (results/store: abs_run_begin,
                                  abs_suite_put) */
    const char *spec;          /* the planner spec, required */
    abo_status status;
    int64_t arena;             /* the plan's arena */
    int64_t lower_bound;       /* the bound the gap is measured against */
    int64_t k;                 /* coarsening, >= 1 */
    const char *ilp_status;    /* GLPK's outcome ("optimal", ...) when an ILP ran */
    int64_t ilp_objective, ilp_bound;
    abo_proof proven_by;       /* ABO_PROOF_NONE unless certified */
    double wall_s, cpu_s;      /* seconds: the medians of the runs */
    int64_t peak_rss;          /* bytes: the process's own peak, the largest of the runs */
    int64_t repeats;           /* runs behind the times (>= 1) */
    double cpu_min_s, cpu_max_s, wall_min_s, wall_max_s; /* seconds */
    double plan_cpu_s;         /* the planner's own CPU seconds in its process (median) */
    const char *capped;        /* NULL, "time" or "memory" (schema.sql) */
    const char *containment;   /* NULL, "subreaper" or "process-group" (schema.sql) */
    int64_t nodes;             /* search nodes */
    int signal;                /* the signal that ended a crashed planner */
    const char *verdict;       /* the checker's verdict word */
    const char *check_message; /* the checker's messages */
    const char *error;         /* what went wrong */
    const char *note;          /* the planner's one line */
    /* The plan, on put: offsets[i] for tensor i of the arena view; NULL for no
     * plan (n may be 0 with offsets not NULL: an empty plan). NULL on read. */
    const int64_t *offsets;
    size_t noffsets;
    char plan_hash[ABO_HASH_HEX]; /* filled on read: "" when no plan */
    const char *recorded;           /* filled on read: when it was committed */
} abo_row;

/* Sets *r to "nothing known": AB_NONE, -1.0, NULL, 0, status ok, proof none. */
void abo_row_init(abo_row *r);

#endif
