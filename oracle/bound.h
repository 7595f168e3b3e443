/*
 * bound.h — lower bounds as first-class certificates (DESIGN.md §7.3). A
 * bound is a value no valid plan of the suite's arena can go below, the kind
 * of argument that proves it, and a certificate: the data with which the
 * argument can be made again, by check-db or anyone with the suite.
 *
 * The kinds are the rows of ABO_BOUND_KINDS, each with its word (stored in
 * the `bounds` table, whose kinds table the store fills from this list when it
 * opens a file, so a new kind needs no schema migration), what its
 * certificate holds, and how it is checked again:
 *
 *   max-load    "instruction T": the arena tensors live at T, which no two
 *               valid offsets can share, sum to at least the value. Checked
 *               again by adding them up.
 *   subset      "window F..L": every arena tensor live at some instruction
 *               in [F, L] is a sub-problem whose optimum bounds the whole (a
 *               valid plan restricted to a subset stays valid and no larger);
 *               GLPK proved the value on it (oracle/subset.h). Checked again
 *               by solving the window with GLPK (a budget of nodes).
 *   refutation  "spec S, capacity C, nodes N": an exact search (k = 1) proved
 *               that no plan fits C, so the arena is at least C + 1. Its
 *               certificate names the run to repeat; the oracle runs no
 *               planner, so it is not checked again here (recheck says so).
 *   ilp         "spec S, nodes N": GLPK proved the value on the whole
 *               problem. Checked again by solving with the same budget.
 *
 * A bound row never lowers a result: the best bound of a suite is the largest
 * of its bounds (certify.h: abo_best_bound), and a valid arena equal to it is
 * proven optimal ("lower-bound" when a bound of the suite proves it).
 */
#ifndef ABO_BOUND_H
#define ABO_BOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "core/problem.h"
#include "oracle/certify.h"
#include "oracle/subset.h"

/* id, word, what the certificate holds, the proof an arena equal to the bound
 * gets (certify.h), and the function that checks the certificate again (in
 * bound.c; NULL: not redone by the oracle). */
#define ABO_BOUND_KINDS(X)                                                             \
    X(ABO_BOUND_MAX_LOAD, "max-load", "instruction T", ABO_PROOF_LOWER_BOUND,          \
      recheck_max_load)                                                                \
    X(ABO_BOUND_SUBSET, "subset", "window F..L", ABO_PROOF_ILP, recheck_subset)        \
    X(ABO_BOUND_REFUTATION, "refutation", "spec S, capacity C, nodes N",               \
      ABO_PROOF_EXHAUSTIVE, NULL)                                                      \
    X(ABO_BOUND_ILP, "ilp", "spec S, nodes N", ABO_PROOF_ILP, recheck_ilp)

#define ABO_BOUND_ENUM(id, word, cert, proof, recheck) id,
typedef enum abo_bound_kind { ABO_BOUND_KINDS(ABO_BOUND_ENUM) ABO_NBOUND_KINDS } abo_bound_kind;
#undef ABO_BOUND_ENUM

/* The word of k ("max-load"), or "?" out of range. */
const char *abo_bound_kind_word(abo_bound_kind k);

/* The kind called word; false when there is none. */
bool abo_bound_kind_parse(const char *word, abo_bound_kind *k);

/* What kind k's certificate holds, in words ("window F..L"). */
const char *abo_bound_kind_certificate(abo_bound_kind k);

/* The proof a valid arena equal to a bound of kind k gets: lower-bound for
 * max-load, ilp for what GLPK proved (subset, ilp), exhaustive for a
 * refutation; ABO_PROOF_NONE out of range. */
abo_proof abo_bound_kind_proof(abo_bound_kind k);

/* One bound of a suite's arena. */
typedef struct abo_bound {
    abo_bound_kind kind;
    int64_t value;            /* bytes; AB_NONE when the problem has no arena tensor */
    char certificate[160];    /* the kind's data, as abo_bound_parse reads it back */
    bool capped;              /* a time cap (not a deterministic budget) ended its search */
    int64_t nodes;            /* work done: windows (subset), search nodes, or 0 */
} abo_bound;

/* The max-load bound of p (read as it is: pass the arena view), with the
 * first instruction where it is reached. The one place a suite's max-load
 * bound is made into a certificate. AB_EINPUT for a malformed problem. */
ab_status abo_bound_max_load(const ab_problem *p, abo_bound *b, ab_error *err);

/* The subset bound of p (the arena view) under o: oracle/subset.h's search,
 * its best window as the certificate. Never below max-load. */
ab_status abo_bound_subset(const ab_problem *p, const abo_subset_opts *o, abo_bound *b,
                           ab_error *err);

/* A refutation: the exact search of spec proved after nodes nodes that no
 * plan fits capacity, so the arena is at least capacity + 1. */
void abo_bound_refutation(const char *spec, int64_t capacity, int64_t nodes, abo_bound *b);

/* GLPK's bound on the whole problem, from the row of spec after nodes nodes. */
void abo_bound_ilp(const char *spec, int64_t value, int64_t nodes, abo_bound *b);

/* How a bound fared when checked again. */
typedef enum abo_recheck {
    ABO_RECHECK_HOLDS,     /* the certificate proves the value again */
    ABO_RECHECK_FAILS,     /* it does not: the bound is wrong (why says how) */
    ABO_RECHECK_UNCHECKED  /* this kind is not checked again here, or the budget ran out
                              before it proved the value (why says which) */
} abo_recheck;

/* Checks b again on p (the arena view the bound was computed on), with at
 * most nodes branch-and-bound nodes for the kinds that solve (subset, ilp; 0:
 * GLPK's default time of 60 s). One line in why. AB_OK whatever the verdict;
 * AB_EINPUT for a certificate that does not parse, AB_ENOMEM. */
ab_status abo_bound_recheck(const ab_problem *p, const abo_bound *b, int64_t nodes,
                            abo_recheck *verdict, char *why, size_t len, ab_error *err);

#endif
