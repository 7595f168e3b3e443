/*
 * compare.h — a base run against a head run (`arenabench compare`,
 * DESIGN.md §5 and §8): which (suite, planner spec) pairs got worse or better.
 *
 * Pairing. Rows are matched by the suite's content hash, so an edited suite
 * is a new pair ("new" in head, "gone" from base), never a regression. By
 * default a base row is matched with the head row of the same spec. With spec
 * pairs (abr_spec_pair, `--pair A=B`) a base row of spec A is matched with the
 * head row of spec B instead, and rows of other specs are left out; base and
 * head may be the same run (A/B within one run). A pattern may hold one '*',
 * which stands for any text: `*=*:round=64` pairs every spec X of base with
 * X:round=64 of head; the default is the one pair `*=*`.
 *
 * For a matched pair:
 *
 *   regression    failed       ok in base, any other status in head
 *                 arena grew   ok in both, a larger arena in head
 *                 proof lost   ok in both, proven optimal in base only
 *   warning       slower       ok in both, CPU time beyond both spreads:
 *                              head's least CPU time >= slow_ratio x base's
 *                              greatest, and greater by slow_min_s or more
 *                              (a regression with fail_on_time)
 *   improvement   fixed        not ok in base, ok in head
 *                 arena shrank ok in both, a smaller arena in head
 *                 proven       ok in both, proven optimal in head only
 *                 faster       ok in both, base's least CPU time >= fast_ratio
 *                              x head's greatest, and greater by fast_min_s
 *   not judged    capped       ok in both, the arena or the proof changed, and
 *                              a side stopped on its safety cap (time or
 *                              memory) rather than its deterministic budget:
 *                              listed apart, instead of the three arena/proof
 *                              changes above
 *                 capped under ok in base; in head a timeout that the runner's
 *                 load         wall-clock limit (`run --time-limit`) ended
 *                              while the row's CPU time was still below that
 *                              limit and not beyond base's spread (as for
 *                              "slower"): the machine's load, not the
 *                              planner, stopped it. Listed apart, with its CPU
 *                              and wall time, instead of "failed". A timeout
 *                              of its deterministic budget (capped NULL), of
 *                              the CPU limit (`--cpu-limit`), of a planner's
 *                              own time cap, or one that used more CPU than
 *                              base did stays "failed" (compare.c: under_load)
 *   other         status       not ok in both, with different statuses
 *
 * (over-capacity -> ok is "fixed": a plan that now fits the capacity.) A pair
 * only in head is "new", or "failed" (a regression) when its status fails a
 * run: invalid, crash or error (a new suite file that did not load is an
 * error row, spec "(load)"; a new suite a planner crashes on), also when its
 * whole spec is new.
 * Timing is judged on CPU time (user + system), never wall time, and only
 * when both sides know it. A row's spread is its [cpu_min_s, cpu_max_s]
 * (schema v3: a row of repeated runs), or, where those are NULL (a row
 * migrated from v2), the one sample cpu_s (min = median = max).
 *
 * Pairs present on one side only: when a pairing key (a spec, or what '*'
 * stood for) has rows on one side and none on the other, that is one line
 * ("spec gone" or "spec new", with the number of rows) and a notice under the
 * table says the specs changed and how to pair them (`--pair OLD=NEW`);
 * otherwise one "new" or "gone" line per suite. Besides the pairs, per suite
 * (by hash) across both runs:
 *
 *   regression    contradiction  a row proved the suite infeasible (no plan fits
 *                                its capacity) and a row of either run packed it
 *                                within the capacity (ok): a prover, a planner or
 *                                the checker is wrong; one line per infeasible row,
 *                                after the pairs' lines
 *
 * A pair may have several changes (an arena that grew and a lost proof).
 * The text lists one line per change, ordered by spec pair (in the order
 * given), suite name, suite hash, spec, then the order above; the same two
 * runs give the same bytes. It then lists, per spec pair, the geometric mean
 * over the suites where both sides are ok of head arena / base arena and of
 * head CPU / base CPU (medians); with explicit spec pairs, the per-suite rows
 * too.
 *
 * JSON (ABR_COMPARE_JSON), one object, stable: keys are only ever added.
 *   {"format": "arenabench-compare", "version": 1,
 *    "base": RUN, "head": RUN,        RUN = {"run", "tag", "revision", "host",
 *                                            "started", "status", "results"}
 *    "thresholds": {"slow_ratio", "slow_min_s", "fast_ratio", "fast_min_s",
 *                   "fail_on_time", "spread": "cpu_min_max" | "cpu_s"},
 *    "pairs": [{"base_spec", "head_spec", "base_rows", "head_rows", "matched",
 *               "arena_geomean", "arena_n", "cpu_geomean", "cpu_n"}],
 *    "rows": [{"pair": index into pairs, "suite", "hash",
 *              "base": ROW, "head": ROW, "arena_ratio", "cpu_ratio"}],
 *    "changes": [{"class": "regression" | "warning" | "improvement" |
 *                 "not judged" | "other" | "new/gone", "change": word,
 *                 "suite", "hash" (null for spec new/gone),
 *                 "base_spec", "head_spec" (the pair's; absent for a
 *                 contradiction, whose base is the refuting row and head the
 *                 packing one), "base": ROW|null, "head": ROW|null,
 *                 "rows": count (spec new/gone only)}],
 *    "notice": null | {"specs_gone": [..], "specs_new": [..], "hints": [..]},
 *    "summary": {"matched", "unchanged", "regressions", "warnings",
 *                "improvements", "not_judged", "other", "new", "gone",
 *                "capped_under_load" (of not_judged)},
 *    "verdict": "regression" | "no regression" | "nothing compared"}
 *   ROW = {"run", "spec", "status", "arena", "proven_by", "cpu_s", "cpu_min_s",
 *          "cpu_max_s", "wall_s", "capped", "message"}
 * Numbers unknown are null; ratios are head / base; "rows" holds the matched
 * pairs (both sides present), in the order of the text.
 */
#ifndef AB_COMPARE_H
#define AB_COMPARE_H

#include "core/buf.h"
#include "results/store/store.h"

/* The defaults of the timing thresholds: both must hold. */
#define ABR_SLOW_RATIO 1.5   /* head's least CPU time at least 1.5 x base's greatest */
#define ABR_SLOW_MIN_S 0.050 /* and at least this many seconds more */

#define ABR_CHANGES(X)                                                 \
    X(ABR_CHANGE_FAILED, "failed", 1)        /* ok -> not ok */         \
    X(ABR_CHANGE_ARENA_GREW, "arena grew", 1)                           \
    X(ABR_CHANGE_PROOF_LOST, "proof lost", 1)                           \
    X(ABR_CHANGE_SLOWER, "slower", 4)        /* a warning */            \
    X(ABR_CHANGE_FIXED, "fixed", 0)          /* not ok -> ok */         \
    X(ABR_CHANGE_ARENA_SHRANK, "arena shrank", 0)                       \
    X(ABR_CHANGE_PROVEN, "newly proven", 0)                             \
    X(ABR_CHANGE_FASTER, "faster", 0)                                   \
    X(ABR_CHANGE_CAPPED, "capped: not judged", 5) /* arena/proof changed on a capped row */ \
    X(ABR_CHANGE_CAPPED_LOAD, "capped under load", 5) /* ok -> stopped by the wall clock */ \
    X(ABR_CHANGE_STATUS, "status changed", 2) /* one failure -> another */ \
    X(ABR_CHANGE_CONTRADICTION, "contradiction", 1) /* proved infeasible, yet packed */ \
    X(ABR_CHANGE_NEW, "new", 3)              /* only in head */         \
    X(ABR_CHANGE_GONE, "gone", 3)            /* only in base */         \
    X(ABR_CHANGE_SPEC_NEW, "spec new", 3)    /* a key with rows in head only */ \
    X(ABR_CHANGE_SPEC_GONE, "spec gone", 3)  /* a key with rows in base only */

#define ABR_CHANGE_ENUM_(id, word, cls) id,
typedef enum abr_change { ABR_CHANGES(ABR_CHANGE_ENUM_) ABR_NCHANGES } abr_change;
#undef ABR_CHANGE_ENUM_

/* The word of a change ("arena grew"), or "?" when out of range. Static. */
const char *abr_change_word(abr_change c);
/* true for the changes that are always regressions (not "slower", which is
 * a warning unless abr_compare_opts.fail_on_time). It reads the class table
 * compare.c judges by (abr_change_class); exported for the tests, which pin
 * the list. */
bool abr_change_is_regression(abr_change c);

/* A spec pair: base rows of spec `base` against head rows of spec `head`.
 * Each may hold one '*' (any text, the same on both sides); head may hold a
 * '*' only when base does. Strings are the caller's. */
typedef struct abr_spec_pair {
    const char *base, *head;
} abr_spec_pair;

/* Parses "A=B" into *p, pointing into buf (a copy the caller owns, at least
 * strlen(text) + 1 bytes). The separator is the first '=' that is not inside
 * A's key=value parameters: "first-fit:order=size=first-fit:order=start" is
 * first-fit:order=size against first-fit:order=start. false (and a message in
 * err, AB_EINPUT) for a missing side or a bad pattern. */
bool abr_spec_pair_parse(const char *text, char *buf, abr_spec_pair *p, ab_error *err);

typedef enum abr_compare_format { ABR_COMPARE_TEXT, ABR_COMPARE_JSON } abr_compare_format;

typedef struct abr_compare_opts {
    double slow_ratio; /* >= 1; ABR_SLOW_RATIO by default */
    double slow_min_s; /* >= 0 seconds; ABR_SLOW_MIN_S by default */
    double fast_ratio; /* >= 1; the same defaults */
    double fast_min_s; /* >= 0 */
    bool fail_on_time; /* "slower" is a regression, not a warning */
    const abr_spec_pair *pairs; /* NULL (npairs 0): the one pair *=* */
    size_t npairs;
    abr_compare_format format;
} abr_compare_opts;

/* Sets *o to the defaults. */
void abr_compare_opts_init(abr_compare_opts *o);

/* What a compare found. */
typedef struct abr_compare_summary {
    size_t matched;            /* pairs in both runs */
    size_t unchanged;          /* matched pairs without any change */
    size_t regressions;        /* change lines that are regressions */
    size_t warnings;           /* "slower" lines, unless fail_on_time */
    size_t improvements;       /* change lines that are improvements */
    size_t not_judged;         /* "capped: not judged" and "capped under load" lines */
    size_t other;              /* status changed between two failures */
    size_t added, removed;     /* pairs only in head, only in base (rows) */
    size_t specs_new, specs_gone; /* pairing keys with rows on one side only */
    bool spread;               /* rows carry cpu_min_s/cpu_max_s (always, since v3) */
    size_t by_change[ABR_NCHANGES];
} abr_compare_summary;

/* The runs to compare are the caller's to choose: `arenabench compare`
 * (harness/cli/compare.c) takes --head or the latest run (of --tag), and
 * --base or the run before head with its tag (abs_run_previous), the one
 * rule; tests/test_compare.c pins it through the command. */

/* Compares run base with run head (may be equal) and appends the text or the
 * JSON object (opt->format) to out; fills *sum (zeroed by the call; may be
 * NULL). opt NULL: the defaults. AB_EINPUT for an unknown run, bad
 * thresholds or a bad spec pair, AB_ENOMEM when memory runs out, the store's
 * status (or AB_EINTERNAL) for a read failure. The command exits 1 when
 * sum->regressions > 0. */
ab_status abr_compare(abs_store *s, int64_t base, int64_t head, const abr_compare_opts *opt,
                      ab_buf *out, abr_compare_summary *sum, ab_error *err);

#endif
