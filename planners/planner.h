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

/* ---- parameters (params.c) -------------------------------------------------
 * A planner spec on the command line is name[:key=value[,key=value...]]. A
 * planner states its parameters once, as data: a table of ab_param_desc rows
 * (key, what it takes, default, help, kind, range). Resolving a spec against
 * the table (ab_planner_resolve, ab_params_bind) checks every value given,
 * applies the defaults of the others and parses each to its kind, so a
 * planner reads typed values (ab_param_i64, ab_param_seconds, ...) that
 * never restate a default or a range. */

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
    const char *def;     /* default, as text: a valid value unless no_default */
    const char *help;    /* one line */
    ab_param_kind kind;  /* how a value is checked (values: the choices of a CHOICE) */
    int64_t lo, hi;      /* the range of an INT */
    bool no_default;     /* absent unless given (an optional limit, a required text):
                            def only says so for the listing ("no limit") */
} ab_param_desc;

#define AB_PARAM_MAX 16 /* rows a parameter table may hold */

/* One parameter's value after resolution. */
typedef struct ab_param_value {
    bool has;          /* false only for a no_default parameter not given */
    bool given;        /* written in the spec, not the table's default */
    const char *text;  /* the value as written (the spec's or the table's def), NULL
                          when !has; borrowed from the ab_params or the table */
    int64_t i;         /* INT, BYTES: the number; CHOICE: the word's index in values */
    double x;          /* SECONDS: the seconds; FRACTION: in [0, 1] (N% is N / 100) */
} ab_param_value;

/* A key and its value as given in a spec. */
typedef struct ab_kv {
    char *key;
    char *value;
} ab_kv;

/* A spec's parameters: as given (v), and once resolved against a table, the
 * typed value of each row of it (val[j] for desc[j]). */
typedef struct ab_params {
    size_t n;
    ab_kv *v;                  /* owned */
    bool resolved;             /* desc and val are set (ab_params_bind) */
    const ab_param_desc *desc; /* the table resolved against (NULL: no parameters) */
    size_t ndesc;              /* its rows */
    ab_param_value val[AB_PARAM_MAX];
} ab_params;

/* Parses spec into *name (owned) and *params (initialised by the call, not
 * resolved). A value may be quoted with '...' to hold commas. Keys must be
 * unique. */
ab_status ab_planner_spec_parse(const char *spec, char **name, ab_params *params,
                                ab_error *err);
/* Frees what params owns and empties it. NULL is accepted. */
void ab_params_free(ab_params *params);
/* The value of key as given, or NULL (no default applied: for specs that
 * are not a planner's, such as a generator's). */
const char *ab_params_get(const ab_params *params, const char *key);
/* Reads key as given as an integer in [lo, hi]; def when absent. */
ab_status ab_params_int(const ab_params *params, const char *key, int64_t def, int64_t lo,
                        int64_t hi, int64_t *out, ab_error *err);

/* The coarsening k of a planner's parameters (`k=`, DESIGN.md §1), as given:
 * 1 when absent; AB_EINPUT "parameter k: ..." when not an integer in
 * [1, 2^62]. The one reader of k outside a planner: run's rows and the
 * report's k charts (the spec need not be resolved). */
ab_status ab_params_k(const ab_params *params, int64_t *k, ab_error *err);

/* AB_OK when value is a valid value of parameter d (see ab_param_kind);
 * otherwise AB_EINPUT with a message naming the planner (or the option), the
 * key, what it takes and the value. The planners' resolver uses it, and so
 * does the run's --subset-bound (harness/run/bounds.c), whose parameters are
 * a table of the same rows. */
ab_status ab_param_check(const char *planner, const ab_param_desc *d, const char *value,
                         ab_error *err);

/* Resolves params against table (NULL-key terminated; NULL for none), who
 * naming its owner in messages: each key given, in order, must be a row of
 * the table (else AB_EINPUT, *unknown (when not NULL) set to the key and err
 * to "planner WHO takes no parameter 'KEY' (it takes: ...)") and its value
 * must pass ab_param_check; then every row gets its value, given or
 * default, parsed to its kind. AB_EINTERNAL when the table has more than
 * AB_PARAM_MAX rows or a default fails its own check. */
ab_status ab_params_bind(const char *who, const ab_param_desc *table, ab_params *params,
                         const char **unknown, ab_error *err);

/* The typed values of a resolved params. Each takes a key of the table it
 * was resolved against and of the kind named; anything else (a key not in
 * the table, another kind, params not resolved, or a value absent: see
 * ab_param_has) is a programming error and aborts, in every build. */
int64_t ab_param_i64(const ab_params *opt, const char *key);      /* INT, BYTES */
double ab_param_seconds(const ab_params *opt, const char *key);   /* SECONDS */
double ab_param_fraction(const ab_params *opt, const char *key);  /* FRACTION, in [0, 1] */
int ab_param_choice(const ab_params *opt, const char *key);       /* CHOICE: index in values */
const char *ab_param_text(const ab_params *opt, const char *key); /* any kind: as written
                                                                     (a CHOICE's word) */
/* Whether key has a value: false only for a no_default row not given. */
bool ab_param_has(const ab_params *opt, const char *key);

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
    /* Plans p. opt is resolved against `params` (ab_params_bind: unknown keys
     * rejected, values checked, defaults applied): read it with ab_param_*.
     * Returns AB_OK with offsets filled, or a status with err set (AB_EINPUT
     * for a value the table's check lets through but the planner refuses). */
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
 * through the spill rule (spill.c). offsets has p->n entries. opt (NULL:
 * every default) is resolved again here against pl's table (ab_params_bind,
 * on a copy), so pl reads checked values even from params never resolved or
 * altered since: a bad key or value is AB_EINPUT. */
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
 * refuses, and resolves the rest (ab_params_bind: every parameter typed,
 * defaults applied). On success *pl is set and *params is owned by the
 * caller (ab_params_free). */
ab_status ab_planner_resolve(const char *spec, const ab_planner **pl, ab_params *params,
                             ab_error *err);

/* Runs planner pl on the arena view of p (built here), and returns the plan as
 * entries indexed into the view: *view is initialised by the call and owned by
 * the caller, and so is *out. */
ab_status ab_planner_run(const ab_planner *pl, const ab_params *opt, const ab_problem *p,
                         ab_problem *view, ab_plan *out, ab_plan_stats *st, ab_error *err);

#endif
