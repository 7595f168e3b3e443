/*
 * bound.c — lower bounds with their certificates (bound.h).
 */
#include "oracle/bound.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "oracle/bounds.h"
#include "oracle/ilp.h"

static const struct kind_row *kind_of(abo_bound_kind k);

static void bound_init(abo_bound *b, abo_bound_kind kind) {
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->value = AB_NONE;
}

ab_status abo_bound_max_load(const ab_problem *p, abo_bound *b, ab_error *err) {
    bound_init(b, ABO_BOUND_MAX_LOAD);
    abo_bounds f;
    ab_status st = abo_bounds_compute(p, &f, err);
    if (st != AB_OK) return st;
    b->value = f.max_load_count > 0 ? f.max_load : AB_NONE;
    snprintf(b->certificate, sizeof b->certificate, "instruction %" PRId64, f.max_load_instr);
    return AB_OK;
}

ab_status abo_bound_subset(const ab_problem *p, const abo_subset_opts *o, abo_bound *b,
                           ab_error *err) {
    bound_init(b, ABO_BOUND_SUBSET);
    abo_subset_result r;
    ab_status st = abo_subset_bound(p, o, &r, err);
    if (st != AB_OK) return st;
    b->value = r.bound;
    b->capped = r.capped;
    b->nodes = (int64_t)r.windows;
    if (r.bound == AB_NONE) {
        snprintf(b->certificate, sizeof b->certificate, "no arena tensor");
        return AB_OK;
    }
    snprintf(b->certificate, sizeof b->certificate,
             "window %" PRId64 "..%" PRId64 " (%zu tensors, %s)", r.first, r.last, r.tensors,
             r.bound == r.max_load ? "no window above max-load"
             : r.optimal           ? "its optimum"
                                   : "GLPK's bound on it");
    return AB_OK;
}

void abo_bound_refutation(const char *spec, int64_t capacity, int64_t nodes, abo_bound *b) {
    bound_init(b, ABO_BOUND_REFUTATION);
    b->value = capacity + 1;
    b->nodes = nodes;
    snprintf(b->certificate, sizeof b->certificate, "spec %s, capacity %" PRId64 ", nodes %" PRId64,
             spec, capacity, nodes);
}

void abo_bound_ilp(const char *spec, int64_t value, int64_t nodes, abo_bound *b) {
    bound_init(b, ABO_BOUND_ILP);
    b->value = value;
    b->nodes = nodes;
    snprintf(b->certificate, sizeof b->certificate, "spec %s, nodes %" PRId64, spec, nodes);
}

/* ---- checked again ------------------------------------------------------------------- */

static ab_status recheck_max_load(const ab_problem *p, const abo_bound *b, int64_t nodes,
                                  abo_recheck *v, char *why, size_t len, ab_error *err) {
    (void)nodes;
    long long t;
    int used = 0;
    if (sscanf(b->certificate, "instruction %lld%n", &t, &used) != 1 || b->certificate[used])
        return ab_fail(err, AB_EINPUT, "max-load certificate '%s': expected 'instruction T'",
                       b->certificate);
    size_t *idx = NULL, n = 0;
    ab_status st = abo_live_at(p, (int64_t)t, &idx, &n, err);
    if (st != AB_OK) return st;
    int64_t sum = 0;
    bool over = false;
    for (size_t i = 0; i < n && !over; i++) over = ab_add_ovf(sum, p->t[idx[i]].size, &sum);
    ab_free(idx);
    if (!over && sum >= b->value) {
        *v = ABO_RECHECK_HOLDS;
        snprintf(why, len, "the %zu arena tensors live at instruction %lld sum to %" PRId64, n, t,
                 sum);
    } else {
        *v = ABO_RECHECK_FAILS;
        snprintf(why, len, "the %zu arena tensors live at instruction %lld sum to %" PRId64
                 ", below the bound %" PRId64, n, t, sum, b->value);
    }
    return AB_OK;
}

/* Solves q with GLPK under nodes and says whether its proven bound reaches value. */
static ab_status recheck_by_ilp(const ab_problem *q, int64_t value, int64_t nodes,
                                const char *what, abo_recheck *v, char *why, size_t len,
                                ab_error *err) {
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    if (nodes > 0) o.nodes = nodes;
    abo_ilp_result r;
    ab_status st = abo_ilp_solve(q, &o, &r, err);
    if (st == AB_OK) {
        if (r.bound >= value) {
            *v = ABO_RECHECK_HOLDS;
            snprintf(why, len, "GLPK proves %" PRId64 " on %s again", r.bound, what);
        } else if (r.status == ABO_ILP_OPTIMAL) {
            *v = ABO_RECHECK_FAILS;
            snprintf(why, len, "GLPK finds the optimum of %s at %" PRId64 ", below the bound %"
                     PRId64, what, r.arena, value);
        } else {
            *v = ABO_RECHECK_UNCHECKED;
            snprintf(why, len, "GLPK proved %" PRId64 " on %s within its budget, not %" PRId64,
                     r.bound, what, value);
        }
    }
    abo_ilp_result_free(&r);
    return st;
}

static ab_status recheck_subset(const ab_problem *p, const abo_bound *b, int64_t nodes,
                                abo_recheck *v, char *why, size_t len, ab_error *err) {
    long long first, last;
    if (sscanf(b->certificate, "window %lld..%lld", &first, &last) != 2 || first > last)
        return ab_fail(err, AB_EINPUT, "subset certificate '%s': expected 'window F..L'",
                       b->certificate);
    ab_problem sub;
    ab_status st = abo_subset_window(p, (int64_t)first, (int64_t)last, &sub, err);
    char what[64];
    snprintf(what, sizeof what, "window %lld..%lld", first, last);
    if (st == AB_OK) st = recheck_by_ilp(&sub, b->value, nodes, what, v, why, len, err);
    ab_problem_free(&sub);
    return st;
}

static ab_status recheck_ilp(const ab_problem *p, const abo_bound *b, int64_t nodes,
                             abo_recheck *v, char *why, size_t len, ab_error *err) {
    return recheck_by_ilp(p, b->value, nodes, "the whole problem", v, why, len, err);
}

/* ---- the kinds -------------------------------------------------------------------- */

typedef ab_status (*recheck_fn)(const ab_problem *p, const abo_bound *b, int64_t nodes,
                                abo_recheck *v, char *why, size_t len, ab_error *err);

struct kind_row {
    const char *word, *cert;
    abo_proof proof;
    recheck_fn recheck;
};

static const struct kind_row kinds[] = {
#define ABO_BOUND_ROW(id, word, cert, proof, recheck) {word, cert, proof, recheck},
    ABO_BOUND_KINDS(ABO_BOUND_ROW)
#undef ABO_BOUND_ROW
};

static const struct kind_row *kind_of(abo_bound_kind k) {
    return (unsigned)k < ABO_NBOUND_KINDS ? &kinds[k] : NULL;
}

const char *abo_bound_kind_word(abo_bound_kind k) { return kind_of(k) ? kind_of(k)->word : "?"; }

const char *abo_bound_kind_certificate(abo_bound_kind k) {
    return kind_of(k) ? kind_of(k)->cert : "?";
}

abo_proof abo_bound_kind_proof(abo_bound_kind k) {
    return kind_of(k) ? kind_of(k)->proof : ABO_PROOF_NONE;
}

bool abo_bound_kind_parse(const char *word, abo_bound_kind *k) {
    for (unsigned i = 0; i < ABO_NBOUND_KINDS; i++)
        if (strcmp(word, kinds[i].word) == 0) return *k = (abo_bound_kind)i, true;
    return false;
}

ab_status abo_bound_recheck(const ab_problem *p, const abo_bound *b, int64_t nodes,
                            abo_recheck *verdict, char *why, size_t len, ab_error *err) {
    ab_error_clear(err);
    *verdict = ABO_RECHECK_UNCHECKED;
    if (len > 0) why[0] = '\0';
    if (b->value == AB_NONE) {
        *verdict = ABO_RECHECK_HOLDS;
        snprintf(why, len, "no value: nothing to prove");
        return AB_OK;
    }
    const struct kind_row *k = kind_of(b->kind);
    if (k == NULL) return ab_fail(err, AB_EINPUT, "unknown kind of bound %d", (int)b->kind);
    if (k->recheck == NULL) {
        snprintf(why, len, "a %s bound is checked by running what its certificate names "
                 "again (%s); the oracle runs no planner", k->word, b->certificate);
        return AB_OK;
    }
    return k->recheck(p, b, nodes, verdict, why, len, err);
}
