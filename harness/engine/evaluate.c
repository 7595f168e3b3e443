/*
 * evaluate.c — the evaluation pipeline (evaluate.h): runner -> checker ->
 * certificate -> outcome.
 */
#include "harness/engine/evaluate.h"

#include <stdio.h>
#include <string.h>

#include "oracle/ilp.h"

/* The status of a job that returned no plan. */
static abo_status from_runner(abe_job_status s) {
    switch (s) {
    case ABE_OK: return ABO_STATUS_OK;
    case ABE_TIMEOUT: return ABO_STATUS_TIMEOUT;
    case ABE_CRASH: return ABO_STATUS_CRASH;
    case ABE_OOM: return ABO_STATUS_OOM;
    case ABE_ERROR: return ABO_STATUS_ERROR;
    }
    return ABO_STATUS_ERROR;
}

/* Checks the plan in r against view into o->check. */
static ab_status check_plan(const ab_problem *view, const abe_job_result *r, abe_outcome *o,
                            ab_error *err) {
    ab_plan pl;
    ab_status st = ab_plan_from_offsets(&pl, r->offsets, r->n, err);
    if (st == AB_OK) st = abo_check(view, &pl, &o->check, err);
    ab_plan_free(&pl);
    return st;
}

/* The status of a plan the checker found valid but over the capacity:
 * infeasible with the refutation abo_refute finds, else over-capacity; the
 * sentence saying so goes to o->why (and o->message). */
static abo_status over_capacity(int64_t max_load, const abo_claim *claim, abe_outcome *o) {
    int64_t cap = o->capacity, bound;
    abo_proof by = abo_refute(cap, max_load, claim, &bound);
    size_t n = 0, len = sizeof o->why;
    if (by != ABO_PROOF_NONE) {
        o->refuted_by = by;
        o->refuted_bound = bound;
        n += (size_t)snprintf(o->why, len, "infeasible, proven by %s: %s %lld > capacity %lld; ",
                              abo_proof_word(by),
                              by == ABO_PROOF_LOWER_BOUND ? "the max-load bound"
                                                          : "a proven lower bound",
                              (long long)bound, (long long)cap);
    }
    if (n < len) {
        if (cap != AB_NONE && o->arena > cap)
            n += (size_t)snprintf(o->why + n, len - n, "valid plan over the capacity: arena %lld "
                                  "exceeds capacity %lld by %lld bytes", (long long)o->arena,
                                  (long long)cap, (long long)(o->arena - cap));
        else
            n += (size_t)snprintf(o->why + n, len - n, "valid plan over its pool: %.*s",
                                  (int)strcspn(o->check.msg, "\n"), o->check.msg);
    }
    if (n < len && by == ABO_PROOF_NONE)
        snprintf(o->why + n, len - n, "; nothing proved that no plan fits");
    o->message = o->why;
    return by != ABO_PROOF_NONE ? ABO_STATUS_INFEASIBLE : ABO_STATUS_OVER_CAPACITY;
}

ab_status abe_judge(const ab_problem *view, int64_t max_load, const abe_job_result *r,
                    abe_outcome *o, ab_error *err) {
    memset(o, 0, sizeof *o);
    o->status = from_runner(r->status);
    o->arena = o->ilp_objective = o->ilp_bound = AB_NONE;
    o->lower_bound = max_load;
    o->proof = ABO_PROOF_NONE;
    o->refuted_by = ABO_PROOF_NONE;
    o->refuted_bound = AB_NONE;
    o->capacity = ab_problem_capacity(view);
    o->message = r->message[0] ? r->message : NULL;
    if (r->status != ABE_OK) return AB_OK;
    ab_status st = check_plan(view, r, o, err);
    if (st != AB_OK) return st;
    o->checked = true;
    o->arena = o->check.arena;
    abo_claim claim = {.method = r->stats.method,
                       .optimal = r->stats.proven_optimal,
                       .lower_bound = r->stats.lower_bound};
    o->status = o->check.verdict == ABO_OK                ? ABO_STATUS_OK
                : o->check.verdict == ABO_OVER_CAPACITY ? over_capacity(max_load, &claim, o)
                                                          : ABO_STATUS_INVALID;
    if (o->status == ABO_STATUS_INVALID) o->message = o->check.msg;
    int64_t bound;
    abo_proof proof = abo_certify(o->arena, max_load, &claim, &bound);
    if (bound > o->lower_bound) o->lower_bound = bound;
    if (r->stats.ilp_status > 0) { /* the ILP's own figures: status, objective, bound */
        o->ilp_status = abo_ilp_status_word((abo_ilp_status)(r->stats.ilp_status - 1));
        o->ilp_objective = o->arena;
        o->ilp_bound = r->stats.lower_bound;
    }
    if (o->status == ABO_STATUS_OK) o->proof = proof;
    return AB_OK;
}

ab_status abe_evaluate(const abe_job *job, int64_t max_load, const abe_options *opt,
                       abe_job_result *r, abe_outcome *o, ab_error *err) {
    abe_options one = *opt;
    one.jobs = 1;
    ab_status st = abe_run(job, 1, &one, r, NULL, NULL, err);
    if (st != AB_OK) {
        memset(o, 0, sizeof *o);
        return st;
    }
    return abe_judge(job->view, max_load, r, o, err);
}

void abe_row(const abe_job_result *r, const abe_outcome *o, abo_row *row) {
    abo_row_init(row);
    row->wall_s = r->wall_seconds;
    row->cpu_s = r->cpu_seconds;
    row->peak_rss = r->peak_rss;
    row->repeats = r->repeats;
    row->wall_min_s = r->wall_min;
    row->wall_max_s = r->wall_max;
    row->cpu_min_s = r->cpu_min;
    row->cpu_max_s = r->cpu_max;
    row->plan_cpu_s = r->plan_cpu_seconds;
    row->capped = abe_capped_word(r->capped);
    row->containment = r->containment;
    row->nodes = r->stats.nodes;
    row->signal = r->signal;
    row->note = r->stats.note[0] ? r->stats.note : NULL;
    row->error = r->message[0] ? r->message : NULL;
    row->status = o->status;
    row->lower_bound = o->lower_bound;
    row->proven_by = o->proof;
    row->ilp_status = o->ilp_status;
    row->ilp_objective = o->ilp_objective;
    row->ilp_bound = o->ilp_bound;
    if (o->checked) {
        row->verdict = abo_verdict_word(o->check.verdict);
        row->check_message = o->check.msg[0] ? o->check.msg : NULL;
        if (o->status == ABO_STATUS_OVER_CAPACITY || o->status == ABO_STATUS_INFEASIBLE)
            row->check_message = o->message; /* the excess and the certificate, or none */
        row->arena = o->arena;
        row->offsets = r->offsets;
        row->noffsets = r->n;
    }
}
