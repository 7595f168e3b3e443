/*
 * ilp.h — the GLPK referee: an integer program whose optimum is the smallest
 * arena, solved to optimality or to a proven lower bound and a gap.
 *
 * The model (built in ilp.c; "units" are ab_problem_unit(p) bytes, so every
 * size, alignment, fixed offset and the capacity is an integer there):
 *
 *   minimise P
 *   y_i  integer, offset x_i = a_i * y_i (a_i = align in units, 1 when the
 *        align is at most a unit), 0 <= x_i <= UB - s_i; a tensor with a fixed
 *        offset is a fixed column
 *   z_ij binary per conflicting pair i < j (not both fixed): 1 = i below j
 *        x_i + s_i <= x_j + M (1 - z_ij)      x_j + s_j <= x_i + M z_ij
 *        with M the largest x_i + s_i - x_j the column bounds allow
 *   P    integer in [LB, UB]: LB = the max-load bound, UB = the best heuristic
 *        arena (first-fit and best-fit in three orders), or the capacity when
 *        it is smaller; P >= x_i + s_i
 *   per maximal clique K of the interval graph (the tensors live at one
 *   instruction) and member i:
 *        x_i >= sum of s_j over j in K placed below i
 *        P   >= x_i + s_i + sum of s_j over j in K placed above i
 *   symmetry: in a component with no fixed offset and every a_i = 1, one pair
 *   of tensors unlike any other is ordered (a plan and its mirror image
 *   x -> P - x - s have the same arena); identical tensors (same size, live
 *   range and align, no fixed offset) are ordered by index.
 *
 * Each connected component of the conflict graph is solved alone (the arena
 * is the largest of theirs), the smallest first, each with an equal share of
 * the time left; a component whose heuristic arena is at most the best bound
 * so far keeps its heuristic plan, and P's lower bound is that bound.
 *
 * The search: the best heuristic plan (moved onto the symmetry fixes) is
 * GLPK's first incumbent (glp_ios_heur_sol, so presolve is off); at every
 * node GLPK asks for one, a plan is made by first-fit in the order of the
 * LP's offsets and offered when it is better; GLPK's proximity search runs
 * at the root (on by default, three quarters of the time); branching takes
 * the fractional z with the largest min(s_i, s_j) first, towards its nearer
 * value; nodes by best bound; the best bound is read in the callback
 * (glp_ios_best_node), since it is gone when glp_intopt returns; the search
 * stops once that bound, rounded up (P is integral), meets the incumbent.
 * The model is scaled (glp_scale_prob) and the root LP starts from an
 * advanced basis (glp_adv_basis). Cuts are off by default (GLPK's cut
 * generators can fail an assertion on these models).
 *
 * A GLPK error never aborts the process: glp_error_hook jumps out, all GLPK
 * state of the process is freed (glp_free_env), and the call returns
 * AB_EINTERNAL with GLPK's message, so a caller must hold no GLPK object
 * across these calls. GLPK prints nothing (a terminal hook takes its output).
 *
 * Nothing GLPK returns is trusted: the plan taken from its values is rounded,
 * then checked by abo_check; a plan that fails the check is an error, never a
 * result.
 */
#ifndef AB_ILP_H
#define AB_ILP_H

#include "core/problem.h"
#include "oracle/check.h"

/* How a solve ended. */
#define ABO_ILP_STATUSES(X)                                                              \
    X(ABO_ILP_OPTIMAL, "optimal", "the arena equals the proven lower bound")             \
    X(ABO_ILP_FEASIBLE, "feasible", "a limit ended the search with a plan and a gap")     \
    X(ABO_ILP_NO_SOLUTION, "timeout-no-solution",                                        \
      "GLPK found no plan within the limit: the plan is the heuristic's, the bound the "  \
      "max-load bound or better")                                                        \
    X(ABO_ILP_INFEASIBLE, "infeasible", "no valid plan exists (capacity or fixed offsets)")

typedef enum abo_ilp_status {
#define ABO_ILP_ENUM_(id, word, text) id,
    ABO_ILP_STATUSES(ABO_ILP_ENUM_)
#undef ABO_ILP_ENUM_
    ABO_ILP_NSTATUSES
} abo_ilp_status;

/* "optimal", "feasible", "timeout-no-solution", "infeasible", and a sentence. */
const char *abo_ilp_status_word(abo_ilp_status s);
const char *abo_ilp_status_text(abo_ilp_status s);

typedef struct abo_ilp_options {
    double time_limit; /* seconds for the whole solve, > 0 (default 60); with a node
                          budget, a safety cap */
    int64_t nodes;     /* the deterministic budget: branch-and-bound nodes (GLPK's
                          tree size, counted in the callback, stopped with
                          glp_ios_terminate) over the whole solve, each component
                          given an equal share of what is left; 0: none (default).
                          With a budget the proximity search, which runs on time
                          alone, is off, so the result does not depend on the
                          machine unless the time cap ends it (result.capped) */
    double gap;        /* stop at this relative gap (objective - bound) / objective,
                          0 .. 1 (default 0: prove optimality) */
    bool proximity;    /* GLPK's proximity search heuristic at the root, given three
                          quarters of the time left (default on) */
    bool cuts;         /* GLPK's MIR, Gomory, cover and clique cuts (default off) */
    bool decompose;    /* solve connected components alone (default on) */
    bool symmetry;     /* the symmetry-breaking fixes (default on) */
    bool heuristics;   /* the caller's incumbents as the upper bound, the first
                          incumbent and the fallback (default on); off, or no
                          incumbents given: a plan stacking every free tensor
                          above the fixed ones is the upper bound and fallback,
                          and GLPK starts with no incumbent (for tests and
                          measurements) */
    const int64_t *incumbents; /* plans of the caller's (the planners' heuristics:
                          the oracle runs no planner), nincumbents of them one
                          after another, each p->n offsets in bytes; per
                          component the best valid one on the unit grid is
                          kept. Not owned; NULL with 0 for none. */
    size_t nincumbents;
} abo_ilp_options;

/* The defaults above. */
void abo_ilp_options_init(abo_ilp_options *o);

/* What a solve found. Figures are bytes. */
typedef struct abo_ilp_result {
    abo_ilp_status status;
    int64_t arena;        /* the arena of the plan in offsets */
    int64_t bound;        /* a proven lower bound on every valid plan's arena (for
                             infeasible: on the arena without the capacity) */
    double gap;           /* (arena - bound) / arena, 0 when optimal or arena is 0 */
    int64_t heuristic;    /* the best heuristic arena (the first incumbent) */
    int64_t max_load;     /* the max-load bound */
    int64_t unit;         /* the model's unit in bytes (ab_problem_unit) */
    int64_t nodes;        /* branch-and-bound nodes over every component */
    size_t components;    /* connected components of the conflict graph */
    size_t solved;        /* components given to GLPK (the others kept a heuristic
                             plan at the bound) */
    size_t rows, cols, nonzeros; /* the largest model built */
    double seconds;       /* wall time of the whole solve */
    bool capped;          /* the time limit, not the node budget, the gap or a proof,
                             ended some component's search (or left it unsolved) */
    abo_verdict verdict;  /* abo_check's verdict on offsets: ABO_OK, except when
                             no plan fits (infeasible, or no solution under a
                             capacity the heuristic exceeds) */
    int64_t *offsets;     /* owned: one offset per tensor of the problem, bytes */
    size_t n;
    char note[160];       /* one line: how it ended */
} abo_ilp_result;

/* Solves p (read as it is: pass the arena view to leave I/O tensors out) with
 * options o (NULL: the defaults) and fills *r (initialised by the call; free
 * it with abo_ilp_result_free, even on failure). Returns AB_OK when a result
 * was reached, whatever its status; AB_EINPUT for a malformed problem or one
 * whose arena exceeds 2^40 units (GLPK's doubles); AB_ENOMEM (also when GLPK
 * itself ran out of memory); AB_EINTERNAL
 * when GLPK failed or its plan failed the check (err says which). */
ab_status abo_ilp_solve(const ab_problem *p, const abo_ilp_options *o, abo_ilp_result *r,
                        ab_error *err);

/* Releases what r owns. NULL is accepted. */
void abo_ilp_result_free(abo_ilp_result *r);

/* Writes the model of p as one integer program (all components share P; the
 * same bounds, symmetry fixes and clique rows as a solve with o, and no
 * incumbent) in CPLEX LP format to path (glp_write_lp). Columns: y<i> per
 * tensor i (its offset is unit * a_i * y_i bytes), P (the arena in units),
 * z<i>_<j> per pair (1: i below j); *unit (when not NULL) receives the unit
 * in bytes. AB_ECHECK (nothing written) when the problem is infeasible before
 * any model: its max-load bound over the capacity, or fixed offsets that
 * overlap. AB_EINPUT when the file cannot be written; the rest as
 * abo_ilp_solve. */
ab_status abo_ilp_write_lp(const ab_problem *p, const abo_ilp_options *o, const char *path,
                           int64_t *unit, ab_error *err);

#endif
