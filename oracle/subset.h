/*
 * subset.h — lower bounds from subsets, with their certificates.
 *
 * The optimum of any subset S of a problem's tensors bounds the optimum of
 * the whole: a valid plan of the whole, restricted to S, is a valid plan of S
 * whose arena is no larger (DESIGN.md §7.3). The tensors live at one
 * instruction stack perfectly at best, which is the max-load bound; the
 * tensors live in a WINDOW of instructions around a peak may not stack
 * perfectly (holes between tensors that end and tensors that begin), and the
 * exact optimum of that window is then a bound above max-load.
 *
 * The oracle solves each window with its own exact method, the GLPK integer
 * program (ilp.h; started from the caller's plans of the window when it
 * gives them, else from a stacked plan: the oracle runs no planner), and
 * keeps the largest bound GLPK proves for any window: the window's optimum
 * when GLPK finishes, else its proven bound. A window GLPK fails on (an
 * internal error, a numerical "no plan" although one is known) is solved
 * again without the symmetry fixes, then left out: it proves nothing. The certificate names the window
 * (instructions [first, last]: the subset is every arena tensor live at some
 * instruction in it), so anyone can rebuild the subset and solve it again.
 *
 * Windows tried, in order: around each of `peaks` centres, radius 0, 1, 2,
 * ... in instruction indices, until the window holds more than max_tensors
 * tensors or the time is spent. The centres: the instructions where the
 * caller's best heuristic plan of the whole problem stands highest (where
 * the tensors did not stack; ties by load), or, without the caller's plans,
 * the instructions of highest load (ties: earlier first). Each window gets
 * at most a quarter of the time (half a second at least).
 * A radius that adds no tensor is skipped. Capacities and pools are left out:
 * the bound is on the arena, whatever budget the suite sets.
 */
#ifndef ABO_SUBSET_H
#define ABO_SUBSET_H

#include "core/problem.h"

typedef struct abo_subset_opts {
    double time_limit;  /* seconds for all the windows together (default 10); with a
                           node budget, a safety cap */
    int64_t nodes;      /* branch-and-bound nodes per window (ilp.h: abo_ilp_options.nodes),
                           the deterministic budget; 0: none (default: time decides) */
    size_t max_tensors; /* the largest window solved (default 48) */
    size_t peaks;       /* how many peak instructions to grow windows around (default 4) */
    /* Plans of a window to start GLPK from (the caller's heuristics: the
     * oracle runs no planner), as planners/ilp.h's abp_ilp_incumbents gives
     * them: *n plans of sub->n offsets each, owned by the caller of the hook
     * (ab_free). NULL: GLPK starts from a stacked plan. */
    ab_status (*incumbents)(const ab_problem *sub, int64_t **plans, size_t *n, ab_error *err);
} abo_subset_opts;

/* The defaults above. */
void abo_subset_opts_init(abo_subset_opts *o);

/* The best subset bound found. */
typedef struct abo_subset_result {
    int64_t bound;       /* bytes: the largest proven bound (at least max-load), or AB_NONE
                            when the problem has no arena tensor */
    int64_t max_load;    /* the max-load bound, for comparison */
    int64_t first, last; /* its window of instructions (inclusive) */
    size_t tensors;      /* the tensors of that window */
    bool optimal;        /* GLPK proved the window's optimum (else: its bound) */
    size_t windows;      /* windows solved */
    size_t failed;       /* windows GLPK failed on (left out) */
    bool capped;         /* time, not the node budget, ended a window or the search */
    char certificate[140]; /* one line naming the window and how it was proved */
} abo_subset_result;

/* Searches windows of p (read as it is: pass the arena view) for a bound
 * above max-load; *r is filled by the call. Returns AB_OK (the bound is at
 * least max-load even when no window helps), AB_ENOMEM, or AB_EINTERNAL when
 * GLPK failed. */
ab_status abo_subset_bound(const ab_problem *p, const abo_subset_opts *o, abo_subset_result *r,
                           ab_error *err);

/* The subset of window [first, last]: every tensor of p live at some
 * instruction in it, in p's order, without capacity or pools. dst is
 * initialised by the call. For re-solving a certificate. */
ab_status abo_subset_window(const ab_problem *p, int64_t first, int64_t last, ab_problem *dst,
                            ab_error *err);

#endif
