/*
 * planner.h — the plug-in contract every planner implements.
 *
 * A planner receives the arena view of a problem (only the tensors that live
 * in the arena, see ab_problem_arena_view) and writes one offset per tensor
 * into offsets[0 .. p->n). It must honour fixed offsets and alignments; it
 * never prints, never touches files or the database, and never judges its own
 * plan: the oracle checks every plan independently.
 *
 * Adding a planner is one new file in planners/ and one row in registry.c.
 */
#ifndef AB_PLANNER_H
#define AB_PLANNER_H

#include "core/problem.h"
#include "oracle/certify.h"

enum {
    AB_PLANNER_EXACT = 1u << 0,   /* returns an optimum when it finishes (at k = 1) */
    AB_PLANNER_ANYTIME = 1u << 1, /* returns its best plan when a budget runs out */
    AB_PLANNER_TEST = 1u << 2,    /* for tests only: hidden from `planners` */
    AB_PLANNER_POOLS = 1u << 3,   /* places tensors in a suite's pools (see below) */
    AB_PLANNER_NEEDS_PARAMS = 1u << 4, /* runs only with parameters it has no default for
                                          (external: cmd); a run of every planner with
                                          its defaults leaves it out */
    AB_PLANNER_NEEDS_PROGRAM = 1u << 5, /* runs a program that may be absent (minizinc); a
                                          run of every planner leaves it out: ask with -p */
    AB_PLANNER_DEFAULT = 1u << 6 /* in run's default set (--planners default, or no -p):
                                    with its defaults, then each of its also_default
                                    (ab_planner_set_specs) */
};

/* The planners a run of "every planner" (run --planners all) leaves out. */
#define AB_PLANNER_ASK_ONLY (AB_PLANNER_TEST | AB_PLANNER_NEEDS_PARAMS | AB_PLANNER_NEEDS_PROGRAM)

/* Pools (core/problem.h): a planner's offsets are offsets in the pools' joint
 * address space. A planner with AB_PLANNER_POOLS places tensors in pools
 * itself; any other knows one arena only, and on a suite of two or more pools
 * ab_planner_plan runs it through the generic spill rule (spill.c): plan
 * into the first pool, spill what does not fit to the next, largest first. */

/* What a parameter's value must be; checked when a spec is resolved
 * (ab_planner_resolve), so a bad value is a usage error before anything runs. */
typedef enum ab_param_kind {
    AB_PARAM_TEXT = 0, /* anything: the planner checks it */
    AB_PARAM_CHOICE,   /* one of the '|'-separated words of `values` */
    AB_PARAM_INT,      /* an integer in [lo, hi] */
    AB_PARAM_SECONDS,  /* a finite number of seconds > 0 */
    AB_PARAM_FRACTION, /* a number in [0, 1], or a percentage N% with N in [0, 100] */
    AB_PARAM_BYTES     /* a size > 0: digits with an optional K, M, G or T (powers of 1024) */
} ab_param_kind;

/* One parameter a planner accepts, for validation and for `arenabench planners`. */
typedef struct ab_param_desc {
    const char *key;
    const char *values;  /* what it takes, e.g. "start|size|area" or "integer >= 1" */
    const char *def;     /* default, as text */
    const char *help;    /* one line */
    ab_param_kind kind;  /* how a value is checked (values: the choices of a CHOICE) */
    int64_t lo, hi;      /* the range of an INT */
} ab_param_desc;

/* What a planner reports besides its plan. Zeroed by the caller. The oracle
 * turns it into a certificate (oracle/certify.h: abo_certify), trusting
 * proven_optimal and lower_bound only as far as `method` allows. */
typedef struct ab_plan_stats {
    int64_t nodes;        /* search nodes, 0 for heuristics */
    bool proven_optimal;  /* the planner's own claim */
    int64_t lower_bound;  /* a bound the planner proved, or AB_NONE */
    abo_proof method;     /* the kind of search behind the two above: ABO_PROOF_ILP,
                             ABO_PROOF_EXHAUSTIVE (only where its refutations speak of the
                             real problem: k = 1), or ABO_PROOF_NONE (a heuristic) */
    int ilp_status;       /* the ILP's outcome + 1 (abo_ilp_status), 0 when none ran */
    bool capped;          /* its time cap (a safety limit on CPU or wall time), not its
                             deterministic budget (nodes, iterations) or the end of the
                             search, stopped it: the row may differ on a busier machine */
    char note[160];       /* one line on how it ended */
} ab_plan_stats;

typedef struct ab_planner {
    const char *name;             /* "first-fit", ... */
    const char *summary;          /* one line for `arenabench planners` */
    unsigned flags;               /* AB_PLANNER_* */
    const ab_param_desc *params;  /* ends with a {NULL} row */
    const char *also_default;     /* AB_PLANNER_DEFAULT: the parameters of further specs
                                     of run's default set, '|'-separated ("order=size"),
                                     or NULL */
    /* Plans p. Params were validated against `params` (unknown keys rejected)
     * but values are the planner's to parse. Returns AB_OK with offsets filled,
     * or a status with err set (AB_EINPUT for a bad parameter value). */
    ab_status (*plan)(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                      ab_plan_stats *st, ab_error *err);
} ab_planner;

/* The registry: a NULL-terminated table of the planners of this layer. */
extern const ab_planner *const ab_planners[];

/* The i-th planner known to the program: the table above, then those added
 * with ab_planner_register, in that order; NULL past the last. */
const ab_planner *ab_planner_at(size_t i);

/* Adds pl (static storage) to the planners the program knows, after the
 * table: for planners of a higher layer (the engine's external) and the
 * tests' own. AB_OK when added or already there; AB_EINTERNAL when another
 * planner has its name or the room (32) is full. Not thread-safe: call it at
 * start-up. */
ab_status ab_planner_register(const ab_planner *pl);

/* Runs pl on p (an arena view): pl->plan itself, or, on a suite of two or
 * more pools and a planner without AB_PLANNER_POOLS, pl->plan pool by pool
 * through the spill rule (spill.c). offsets has p->n entries. */
ab_status ab_planner_plan(const ab_planner *pl, const ab_params *opt, const ab_problem *p,
                          int64_t *offsets, ab_plan_stats *st, ab_error *err);

/* The planner called name, or NULL. */
const ab_planner *ab_planner_find(const char *name);

/* The specs of a set of planners into names[0..max), in the registry's
 * order; the count, or -1 when set is neither:
 *   "default"  the AB_PLANNER_DEFAULT planners with their defaults, each
 *              followed by name:P for each P of its also_default;
 *   "all"      every planner but AB_PLANNER_ASK_ONLY ones, with its
 *              defaults and with each other value of an `order` parameter. */
int ab_planner_set_specs(const char *set, char names[][64], int max);

/* AB_OK when value is a valid value of parameter d (see ab_param_kind);
 * otherwise AB_EINPUT with a message naming the planner (or the option), the
 * key, what it takes and the value. The planners' resolver uses it, and so
 * does the run's --subset-bound (harness/run/bounds.c), whose parameters are
 * a table of the same rows. */
ab_status ab_param_check(const char *planner, const ab_param_desc *d, const char *value,
                         ab_error *err);

/* Parses a spec ("first-fit:order=size"), finds its planner, rejects keys
 * it does not take (naming the ones it does) and values its parameter table
 * refuses. On success *pl is set and *params is owned by
 * the caller (ab_params_free). */
ab_status ab_planner_resolve(const char *spec, const ab_planner **pl, ab_params *params,
                             ab_error *err);

/* Runs planner pl on the arena view of p (built here), and returns the plan as
 * entries indexed into the view: *view is initialised by the call and owned by
 * the caller, and so is *out. */
ab_status ab_planner_run(const ab_planner *pl, const ab_params *opt, const ab_problem *p,
                         ab_problem *view, ab_plan *out, ab_plan_stats *st, ab_error *err);

#endif
