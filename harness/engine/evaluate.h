/*
 * evaluate.h — one evaluation pipeline: a planner's job (run by the runner
 * in a child under limits) -> the oracle's checker -> the oracle's
 * certificate -> an outcome with a status. `run` judges every job of a batch
 * with abe_judge; `plan` evaluates one with abe_evaluate; both give the same
 * outcome for the same job, and the store keeps its status words.
 */
#ifndef ABE_EVALUATE_H
#define ABE_EVALUATE_H

#include "core/problem.h"
#include "harness/engine/runner.h"
#include "oracle/certify.h"
#include "oracle/check.h"
#include "oracle/row.h"
#include "oracle/status.h"

/* How a job ended: oracle/status.h (abo_status, its words). */

/* A judged job. The strings are static or point into the job result. */
typedef struct abe_outcome {
    abo_status status;
    bool checked;            /* a plan came back and the checker read it */
    abo_report check;        /* the checker's report, when checked */
    int64_t arena;           /* the plan's arena, or AB_NONE without a plan */
    int64_t lower_bound;     /* the best bound the row proves (max-load at least) */
    abo_proof proof;         /* the certificate of a valid plan (oracle/certify.h) */
    const char *ilp_status;  /* the ILP's outcome word when an ILP ran, else NULL */
    int64_t ilp_objective;   /* the ILP's plan's arena, or AB_NONE */
    int64_t ilp_bound;       /* the ILP's proven bound, or AB_NONE */
    const char *message;     /* why it is not ok: the checker's or the runner's words, or
                                for over-capacity and infeasible the sentence in why */
    int64_t capacity;        /* the capacity the plan had to fit (ab_problem_capacity), or
                                AB_NONE */
    abo_proof refuted_by;    /* infeasible: the refutation's kind of proof, else NONE */
    int64_t refuted_bound;   /* infeasible: the proven bound above the capacity, else AB_NONE */
    char why[320];           /* over-capacity and infeasible: the arena, the excess and the
                                certificate (or that there is none), in one line */
} abe_outcome;

/* Judges r, the runner's result for a job on view (the arena view the planner
 * saw), whose max-load bound is max_load: the status, the checker's verdict
 * on the plan, and its certificate. A plan the checker finds over the
 * capacity (and otherwise valid) is infeasible only when abo_refute proves
 * that no plan fits (the max-load bound, or the planner's exact method,
 * above the capacity); otherwise it is over-capacity. *o is filled by the call; it points into
 * r (message) and into itself (check.msg), so it lives no longer than r and
 * must not be copied while in use. AB_OK unless the checker itself failed
 * (AB_ENOMEM, ...). */
ab_status abe_judge(const ab_problem *view, int64_t max_load, const abe_job_result *r,
                    abe_outcome *o, ab_error *err);

/* Evaluates one job: runs it with the runner under the limits of opt (jobs is
 * taken as 1) into *r (initialised by the call; abe_result_free after), then
 * judges it into *o. Returns what abe_run or abe_judge returned. */
ab_status abe_evaluate(const abe_job *job, int64_t max_load, const abe_options *opt,
                       abe_job_result *r, abe_outcome *o, ab_error *err);

/* The row of a judged job: r's measurements (times, memory, nodes, signal,
 * the planner's note, the runner's message, the plan) and o's judgement
 * (status, bounds, proof, ILP figures, the checker's verdict and message).
 * The caller sets the row's identity (run, suite, spec, k). The row points
 * into r and o: it lives no longer than they do. */
void abe_row(const abe_job_result *r, const abe_outcome *o, abo_row *row);

#endif
