/*
 * certify.h — the one place that turns bounds and proofs into certificates
 * ("proven optimal, by what"; "the best bound is X, from Y"). The run, the
 * report and `plan` all ask here; none derives a certificate on its own.
 *
 * What counts as a proof (DESIGN.md §7.3): a plan is proven optimal when its
 * arena equals a proven lower bound:
 *
 *   lower-bound  the max-load bound (or a bound stored with the suite)
 *   ilp          a bound GLPK proved (the ILP's optimum or its best bound)
 *   exhaustive   a capacity an exhaustive search (k = 1) refuted, + 1: Algorithm X,
 *                the canonical search, or a constraint solver whose complete
 *                search (MiniZinc with Gecode) finished; the row's spec names which
 *
 * The words are the results table's CHECK list (results/store/schema.sql):
 * a new kind of proof needs a schema migration.
 *
 * The oracle does not trust a planner's word beyond the kind of method it
 * declares (ab_plan_stats.method): a heuristic's "optimal" counts for nothing,
 * and an exact search at k > 1 declares no method (its refutations speak of
 * the coarsened problem only).
 */
#ifndef ABO_CERTIFY_H
#define ABO_CERTIFY_H

#include "core/buf.h"
#include "core/problem.h"
#include "oracle/status.h"

/* Kinds of proof, with their words (stored in the database as text). */
#define ABO_PROOFS(X)                                                     \
    X(ABO_PROOF_NONE, "none")               /* not proven */              \
    X(ABO_PROOF_LOWER_BOUND, "lower-bound") /* arena == a lower bound */  \
    X(ABO_PROOF_ILP, "ilp")                 /* GLPK proved the bound */   \
    X(ABO_PROOF_EXHAUSTIVE, "exhaustive")   /* an exact search refuted less */

#define ABO_PROOF_ENUM(id, word) id,
typedef enum abo_proof { ABO_PROOFS(ABO_PROOF_ENUM) ABO_NPROOFS } abo_proof;
#undef ABO_PROOF_ENUM

/* The word of p ("lower-bound", ...); "none" for a value out of range. */
const char *abo_proof_word(abo_proof p);

/* The proof called word, into *p; false when there is none. */
bool abo_proof_parse(const char *word, abo_proof *p);

/* What a planner's run says about its plan, as the oracle reads it. */
typedef struct abo_claim {
    abo_proof method;    /* the kind of search behind optimal and lower_bound:
                            ABO_PROOF_ILP or ABO_PROOF_EXHAUSTIVE; NONE: a heuristic */
    bool optimal;        /* it says its plan is optimal */
    int64_t lower_bound; /* a bound it says it proved, or AB_NONE */
} abo_claim;

/* The certificate of a VALID plan of the given arena on a problem whose
 * max-load bound is max_load: lower-bound when the arena equals it; else the
 * claim's method when the claim has one and says optimal or proved a bound
 * equal to the arena; else none. *bound
 * (when not NULL) receives the best bound the row proves: the larger of
 * max_load and the claim's bound (the latter only with a method). */
abo_proof abo_certify(int64_t arena, int64_t max_load, const abo_claim *c, int64_t *bound);

/* Whether no valid plan fits the capacity (DESIGN.md §7.3: "infeasible"
 * only when proven). A refutation is a proven lower bound above the
 * capacity: the max-load bound (lower-bound: no exact planner needed), or
 * the claim's lower_bound when the claim has a method (exhaustive: an exact
 * search refuted the capacity, as exact-cover, canonical and minizinc with
 * target=capacity report; ilp: GLPK proved the bound). A heuristic's bound
 * counts for nothing. Returns the kind of proof, ABO_PROOF_NONE when nothing
 * refutes the capacity (and when capacity is AB_NONE); *bound (when not NULL)
 * receives the refuting bound, AB_NONE without one. */
abo_proof abo_refute(int64_t capacity, int64_t max_load, const abo_claim *c, int64_t *bound);

/* A suite's known answers (`expect:` in its YAML; AB_NONE when absent). */
typedef struct abo_expect {
    int64_t optimum;     /* the optimum: nothing valid is smaller, every proof equals it */
    int64_t lower_bound; /* the max-load bound, exactly */
} abo_expect;

/* Holds a suite's known answers against what was computed, both ways
 * (DESIGN.md §7.4). For the suite as a whole pass arena = AB_NONE: the
 * max-load bound must equal e->lower_bound and not exceed e->optimum. For a row pass its arena,
 * whether the plan packs (abo_verdict_packs: valid, or only over the capacity,
 * whatever the row's status), its certificate and the bound it proved (AB_NONE
 * for none): a packing's arena below e->optimum, a proof whose arena differs from
 * it, or a proven bound above it contradicts the expectation. Returns true
 * when all agree; otherwise false with one line in why. */
bool abo_expect_agrees(const abo_expect *e, int64_t max_load, int64_t arena, bool valid,
                       abo_proof proof, int64_t bound, char *why, size_t len);

/* The best proven bound of a suite, and where it came from. */
typedef struct abo_best_bound {
    int64_t value; /* AB_NONE while no bound is known */
    abo_proof by;  /* its kind of proof */
    size_t from;   /* the caller's tag (a row index, say) of the first holder */
} abo_best_bound;

/* An empty best bound. */
void abo_best_bound_init(abo_best_bound *b);

/* Offers bound v (ignored when AB_NONE or negative), proven by `by`, from
 * `from`: kept when strictly larger than the bound so far (ties keep the
 * first offer, so the order of offers decides the named proof). */
void abo_best_bound_offer(abo_best_bound *b, int64_t v, abo_proof by, size_t from);

/* The proof an arena gets from a suite's best bound: b->by when the arena
 * equals it, ABO_PROOF_NONE otherwise. */
abo_proof abo_certify_by_bound(int64_t arena, const abo_best_bound *b);

/* Agreement across the rows of a run (DESIGN.md §7.4): every optimum proved
 * on a suite (by the ILP, an exact search or a bound) is the same number, no
 * valid arena is below one, and no suite proved infeasible (no plan fits its
 * capacity) is packed within the capacity by another row. A disagreement
 * means a prover, a planner or the checker is wrong. The strings offered are
 * kept by pointer: they must outlive the object. */
typedef struct abo_agree {
    size_t n;                           /* suites */
    int64_t *proven, *smallest;         /* per suite: an optimum proved, the smallest valid
                                           arena (AB_NONE while none) */
    const char **proven_by, **smallest_by; /* ... and the specs of their rows */
    const char **refuted_by, **fits_by; /* per suite: the first spec that proved no plan fits,
                                           the first that packed within the capacity */
} abo_agree;

/* For n suites. AB_ENOMEM when out of memory; abo_agree_free after, whatever
 * the outcome. */
ab_status abo_agree_init(abo_agree *a, size_t n, ab_error *err);
void abo_agree_free(abo_agree *a);

/* One row of the suite at index s (named suite; capacity as the suite says,
 * AB_NONE for none): the row's spec, status, arena (its valid plan's) and the
 * kind of proof of its arena. Returns how many disagreements the row
 * revealed, each said once as a line "  DISAGREEMENT on <suite>: ...\n"
 * appended to why. */
size_t abo_agree_row(abo_agree *a, size_t s, const char *suite, int64_t capacity,
                     const char *spec, abo_status status, int64_t arena, abo_proof proven_by,
                     ab_buf *why);

#endif
