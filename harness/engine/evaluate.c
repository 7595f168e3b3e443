/*
 * evaluate.c — the evaluation pipeline (evaluate.h): runner -> checker ->
 * certificate -> outcome.
 */
#include "harness/engine/evaluate.h"

#include <string.h>

#include "oracle/ilp.h"

#define ABE_STATUS_WORD(id, word) word,
static const char *const status_words[] = {ABE_STATUSES(ABE_STATUS_WORD)};
#undef ABE_STATUS_WORD

const char *abe_status_word(abe_status s) {
    return (unsigned)s < ABE_NSTATUSES ? status_words[s] : "?";
}

bool abe_status_parse(const char *word, abe_status *s) {
    for (unsigned i = 0; i < ABE_NSTATUSES; i++) {
        if (strcmp(word, status_words[i]) == 0) {
            *s = (abe_status)i;
            return true;
        }
    }
    return false;
}

/* The status of a job that returned no plan. */
static abe_status from_runner(abh_job_status s) {
    switch (s) {
    case ABH_OK: return ABE_OK;
    case ABH_TIMEOUT: return ABE_TIMEOUT;
    case ABH_CRASH: return ABE_CRASH;
    case ABH_OOM: return ABE_OOM;
    case ABH_ERROR: return ABE_ERROR;
    }
    return ABE_ERROR;
}

/* Checks the plan in r against view into o->check. */
static ab_status check_plan(const ab_problem *view, const abh_job_result *r, abe_outcome *o,
                            ab_error *err) {
    ab_plan pl;
    ab_status st = ab_plan_from_offsets(&pl, r->offsets, r->n, err);
    if (st == AB_OK) st = abo_check(view, &pl, &o->check, err);
    ab_plan_free(&pl);
    return st;
}

ab_status abe_judge(const ab_problem *view, int64_t max_load, const abh_job_result *r,
                    abe_outcome *o, ab_error *err) {
    memset(o, 0, sizeof *o);
    o->status = from_runner(r->status);
    o->arena = o->ilp_objective = o->ilp_bound = AB_NONE;
    o->lower_bound = max_load;
    o->proof = ABO_PROOF_NONE;
    o->message = r->message[0] ? r->message : NULL;
    if (r->status != ABH_OK) return AB_OK;
    ab_status st = check_plan(view, r, o, err);
    if (st != AB_OK) return st;
    o->checked = true;
    o->arena = o->check.arena;
    o->status = o->check.verdict == ABO_OK                ? ABE_OK
                : o->check.verdict == ABO_OVER_CAPACITY ? ABE_INFEASIBLE
                                                          : ABE_INVALID;
    if (o->status != ABE_OK) o->message = o->check.msg;
    abo_claim claim = {.method = r->stats.method,
                       .optimal = r->stats.proven_optimal,
                       .lower_bound = r->stats.lower_bound};
    int64_t bound;
    abo_proof proof = abo_certify(o->arena, max_load, &claim, &bound);
    if (bound > o->lower_bound) o->lower_bound = bound;
    if (r->stats.ilp_status > 0) { /* the ILP's own figures: status, objective, bound */
        o->ilp_status = abo_ilp_status_word((abo_ilp_status)(r->stats.ilp_status - 1));
        o->ilp_objective = o->arena;
        o->ilp_bound = r->stats.lower_bound;
    }
    if (o->status == ABE_OK) o->proof = proof;
    return AB_OK;
}

ab_status abe_evaluate(const abh_job *job, int64_t max_load, const abh_options *opt,
                       abh_job_result *r, abe_outcome *o, ab_error *err) {
    abh_options one = *opt;
    one.jobs = 1;
    ab_status st = abh_run(job, 1, &one, r, NULL, NULL, err);
    if (st != AB_OK) {
        memset(o, 0, sizeof *o);
        return st;
    }
    return abe_judge(job->view, max_load, r, o, err);
}
