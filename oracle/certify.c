/*
 * certify.c — certificates from bounds and proofs (certify.h).
 */
#include "oracle/certify.h"

#include <stdio.h>
#include <string.h>

#define ABO_PROOF_WORD(id, word) word,
static const char *const proof_words[] = {ABO_PROOFS(ABO_PROOF_WORD)};
#undef ABO_PROOF_WORD

const char *abo_proof_word(abo_proof p) {
    return (unsigned)p < ABO_NPROOFS ? proof_words[p] : proof_words[ABO_PROOF_NONE];
}

bool abo_proof_parse(const char *word, abo_proof *p) {
    for (unsigned i = 0; i < ABO_NPROOFS; i++) {
        if (strcmp(word, proof_words[i]) == 0) {
            *p = (abo_proof)i;
            return true;
        }
    }
    return false;
}

abo_proof abo_certify(int64_t arena, int64_t max_load, const abo_claim *c, int64_t *bound) {
    bool has_method = c != NULL && c->method != ABO_PROOF_NONE;
    if (bound != NULL) {
        *bound = max_load;
        if (has_method && c->lower_bound != AB_NONE && c->lower_bound > *bound)
            *bound = c->lower_bound;
    }
    if (arena == max_load) return ABO_PROOF_LOWER_BOUND;
    if (has_method && (c->optimal || (c->lower_bound != AB_NONE && arena == c->lower_bound)))
        return c->method; /* it says so, or its proven bound meets the arena */
    return ABO_PROOF_NONE;
}

abo_proof abo_refute(int64_t capacity, int64_t max_load, const abo_claim *c, int64_t *bound) {
    if (bound != NULL) *bound = AB_NONE;
    if (capacity == AB_NONE || capacity < 0) return ABO_PROOF_NONE;
    if (max_load != AB_NONE && max_load > capacity) {
        if (bound != NULL) *bound = max_load;
        return ABO_PROOF_LOWER_BOUND;
    }
    if (c != NULL && c->method != ABO_PROOF_NONE && c->lower_bound != AB_NONE &&
        c->lower_bound > capacity) {
        if (bound != NULL) *bound = c->lower_bound;
        return c->method;
    }
    return ABO_PROOF_NONE;
}

bool abo_expect_agrees(const abo_expect *e, int64_t max_load, int64_t arena, bool valid,
                       abo_proof proof, int64_t bound, char *why, size_t len) {
    long long opt = (long long)e->optimum;
    if (arena == AB_NONE) {
        if (e->lower_bound != AB_NONE && e->lower_bound != max_load) {
            snprintf(why, len, "the max-load bound is %lld, but the suite expects lower_bound %lld",
                     (long long)max_load, (long long)e->lower_bound);
            return false;
        }
        if (e->optimum != AB_NONE && max_load > e->optimum) {
            snprintf(why, len, "the max-load bound %lld is above the suite's expected optimum %lld",
                     (long long)max_load, opt);
            return false;
        }
        return true;
    }
    if (e->optimum == AB_NONE) return true;
    if (valid && arena < e->optimum) {
        snprintf(why, len, "arena %lld is below the known optimum %lld", (long long)arena, opt);
        return false;
    }
    if (valid && proof != ABO_PROOF_NONE && arena != e->optimum) {
        snprintf(why, len, "proved arena %lld optimal (%s), but the suite expects optimum %lld",
                 (long long)arena, abo_proof_word(proof), opt);
        return false;
    }
    if (bound != AB_NONE && bound > e->optimum) {
        snprintf(why, len, "proved the lower bound %lld, above the suite's expected optimum %lld",
                 (long long)bound, opt);
        return false;
    }
    return true;
}

void abo_best_bound_init(abo_best_bound *b) {
    b->value = AB_NONE;
    b->by = ABO_PROOF_NONE;
    b->from = 0;
}

void abo_best_bound_offer(abo_best_bound *b, int64_t v, abo_proof by, size_t from) {
    if (v == AB_NONE || v < 0) return;
    if (b->value != AB_NONE && v <= b->value) return;
    b->value = v;
    b->by = by;
    b->from = from;
}

abo_proof abo_certify_by_bound(int64_t arena, const abo_best_bound *b) {
    return b->value != AB_NONE && arena == b->value ? b->by : ABO_PROOF_NONE;
}

/* ---- agreement across rows ---------------------------------------------------------- */

ab_status abo_agree_init(abo_agree *a, size_t n, ab_error *err) {
    memset(a, 0, sizeof *a);
    a->n = n;
    a->proven = ab_alloc_array(n + 1, sizeof *a->proven);
    a->smallest = ab_alloc_array(n + 1, sizeof *a->smallest);
    a->proven_by = ab_calloc(n + 1, sizeof *a->proven_by);
    a->smallest_by = ab_calloc(n + 1, sizeof *a->smallest_by);
    a->refuted_by = ab_calloc(n + 1, sizeof *a->refuted_by);
    a->fits_by = ab_calloc(n + 1, sizeof *a->fits_by);
    if (!a->proven || !a->smallest || !a->proven_by || !a->smallest_by || !a->refuted_by ||
        !a->fits_by)
        return ab_fail(err, AB_ENOMEM, "out of memory for the agreement of %zu suites", n);
    for (size_t i = 0; i < n; i++) a->proven[i] = a->smallest[i] = AB_NONE;
    return AB_OK;
}

void abo_agree_free(abo_agree *a) {
    ab_free(a->proven);
    ab_free(a->smallest);
    ab_free((void *)a->proven_by);
    ab_free((void *)a->smallest_by);
    ab_free((void *)a->refuted_by);
    ab_free((void *)a->fits_by);
    memset(a, 0, sizeof *a);
}

/* A suite some row proved infeasible cannot be packed within its capacity by another. */
static size_t agree_capacity(abo_agree *a, size_t s, const char *suite, int64_t capacity,
                             const char *spec, abo_status status, ab_buf *why) {
    bool had_both = a->refuted_by[s] != NULL && a->fits_by[s] != NULL;
    if (status == ABO_STATUS_INFEASIBLE && a->refuted_by[s] == NULL) a->refuted_by[s] = spec;
    if (status == ABO_STATUS_OK && capacity != AB_NONE && a->fits_by[s] == NULL) a->fits_by[s] = spec;
    if (had_both || a->refuted_by[s] == NULL || a->fits_by[s] == NULL) return 0;
    ab_buf_printf(why, "  DISAGREEMENT on %s: %s proved that no plan fits the capacity %lld but "
                  "%s packed it within the capacity\n", suite, a->refuted_by[s],
                  (long long)capacity, a->fits_by[s]);
    return 1;
}

size_t abo_agree_row(abo_agree *a, size_t s, const char *suite, int64_t capacity,
                     const char *spec, abo_status status, int64_t arena, abo_proof proven_by,
                     ab_buf *why) {
    size_t found = agree_capacity(a, s, suite, capacity, spec, status, why);
    if (status != ABO_STATUS_OK) return found;
    if (proven_by != ABO_PROOF_NONE) {
        if (a->proven[s] == AB_NONE) {
            a->proven[s] = arena;
            a->proven_by[s] = spec;
        } else if (a->proven[s] != arena) {
            found++;
            ab_buf_printf(why, "  DISAGREEMENT on %s: %s proved %lld (%s) but %s proved %lld\n",
                          suite, spec, (long long)arena, abo_proof_word(proven_by),
                          a->proven_by[s], (long long)a->proven[s]);
        }
    }
    if (a->smallest[s] == AB_NONE || arena < a->smallest[s]) {
        a->smallest[s] = arena;
        a->smallest_by[s] = spec;
    }
    if (a->proven[s] != AB_NONE && a->smallest[s] < a->proven[s]) {
        found++;
        ab_buf_printf(why, "  DISAGREEMENT on %s: %s found a valid arena %lld below the optimum "
                      "%lld that %s proved\n", suite, a->smallest_by[s], (long long)a->smallest[s],
                      (long long)a->proven[s], a->proven_by[s]);
        a->smallest[s] = a->proven[s]; /* say it once */
    }
    return found;
}
