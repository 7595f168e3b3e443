/*
 * real.h — the real models and traces of a run (private to results/report/):
 * which suites count as real, and for each the best greedy plan against the
 * best plan, for the report's "Real models and traces" section (a table in
 * every format, and in HTML a picture of each plan).
 *
 * What counts as real, from the suite's stored text (the canonical YAML the
 * run wrote, whose top-level `description:` the importers and generators
 * fill) and its source path:
 *
 *   model     a model file imported: the description starts "Imported from
 *             the " (harness/formats/tflite.c, onnx.c: "Imported from the
 *             TFLite model ...", "... the ONNX model ..."), or the source is a
 *             .tflite or .onnx file
 *   network   a published network's layer shapes written by a generator
 *             (harness/formats/gen.c): the description starts "generated:
 *             squeezenet (", "generated: mobilenet_v1 (", "generated:
 *             mobilenet_v2 (" or "generated: resnet18 (" (suites/models/)
 *   trace     a compiler's buffers imported from MiniMalloc CSV: the
 *             description starts "imported from MiniMalloc CSV"
 *             (harness/formats/minimalloc.c; suites/real/, idealloc's
 *             traces), or the source is a .csv file
 *
 * Everything else is synthetic: the examples, the peers' unit cases, the
 * random, planted and shape generators (chain, fanout, resnet, unet,
 * transformer), and any suite written by hand. A suite whose text cannot be
 * read is not real (the report cannot tell).
 *
 * Best greedy and best, per real suite, among its valid rows (status ok,
 * with an arena):
 *
 *   best greedy  the smallest arena among the rows of planners that are not
 *                exact (no AB_PLANNER_EXACT in the registry; a spec this
 *                program does not know counts as greedy);
 *   best         the smallest arena among all its rows.
 *
 * Ties: a row with a stored plan first, then the spec's byte order (one row
 * per spec and suite): a total order. Bounds (the run's bounds table:
 * max-load, subset, ILP bounds) are not rows and are never picked.
 */
#ifndef AB_REPORT_REAL_H
#define AB_REPORT_REAL_H

#include "results/report/model.h"

typedef enum abr_real_kind {
    ABR_REAL_NONE = 0, /* synthetic, or the text could not be read */
    ABR_REAL_MODEL,
    ABR_REAL_NETWORK,
    ABR_REAL_TRACE
} abr_real_kind;

/* "model", "network", "trace"; "synthetic" for ABR_REAL_NONE. */
const char *abr_real_kind_word(abr_real_kind k);

/* The kind of a suite from its text (may be NULL) and source path (may be
 * NULL), by the rules above. */
abr_real_kind abr_real_kind_of(const char *text, const char *source);

/* A real suite of the run and its two plans. */
typedef struct abr_real {
    size_t suite;        /* index into the model's suites */
    abr_real_kind kind;
    size_t greedy;       /* the row of the best greedy plan, or SIZE_MAX (none valid) */
    size_t best;         /* the row of the best plan, or SIZE_MAX (none valid) */
    size_t greedy_ties;  /* other greedy rows with the best greedy arena */
} abr_real;

typedef struct abr_reals {
    abr_real *v;         /* owned; order: abr_reals_find */
    size_t n;
} abr_reals;

/* Finds the real suites of model m (s gives their stored text) into *out,
 * initialised by the call and freed with abr_reals_free, even on failure.
 * Order: the suites where greedy loses, by how much (best greedy arena / best
 * arena - 1), largest first; then those where greedy is best; then those
 * without a valid greedy plan; ties by the suite's order in the model. A
 * suite whose text cannot be read is left out (not real); AB_ENOMEM fails. */
ab_status abr_reals_find(abs_store *s, const abr_model *m, abr_reals *out, ab_error *err);

void abr_reals_free(abr_reals *r);

/* true when the best greedy plan is the best: its arena is the smallest
 * (one picture). */
bool abr_real_greedy_is_best(const abr_model *m, const abr_real *r);

/* How much larger the best greedy arena is than the best: greedy / best - 1
 * (0 when both are 0); false when either plan is missing or the best arena is
 * 0 under a larger greedy one. */
bool abr_real_excess(const abr_model *m, const abr_real *r, double *excess);

/* Appends a fraction as a signed percentage with two decimals ("+33.33%",
 * "0.00%"), or two significant digits when it would print as +0.00%
 * ("+0.000085%"). */
void abr_put_excess(ab_buf *b, double excess);

/* Row i's arena against its suite's best bound: "optimal (proof)" when they
 * are equal (the proof of abr_bound_proof), else the gap as abr_put_excess
 * writes it ("+1.25%", "+0.000084%"), "-" when there is none. */
void abr_put_row_gap(ab_buf *b, const abr_model *m, size_t i);

/* The tensors that set a plan's arena: those whose offset + size is the
 * arena (the largest offset + size of the plan), in index order, as `plan`
 * names them ("top"). p is the arena view and off[0 .. p->n) its offsets;
 * *top (owned, ab_free; NULL when none) holds *n indices, *arena the arena.
 * AB_ENOMEM. */
ab_status abr_plan_top(const ab_problem *p, const int64_t *off, size_t **top, size_t *n,
                       int64_t *arena, ab_error *err);

#endif
