/*
 * bounds.h — the bounds a run proves on its suites (oracle/bound.h), apart
 * from any planner: the max-load bound of every suite, the subset bound when
 * asked (`run --subset-bound OPTS`, with its own budget), and the bounds a
 * results row proves (an exact search's refutation, GLPK's bound). Each is a
 * row of the store's bounds table with its certificate.
 */
#ifndef ABU_BOUNDS_H
#define ABU_BOUNDS_H

#include "core/buf.h"
#include "core/problem.h"
#include "oracle/bound.h"
#include "oracle/subset.h"
#include "planners/planner.h"

/* The subset bound's parameters: key, what it takes, default, help. The one
 * place they are stated: --subset-bound's parsing and its --help use it. */
extern const ab_param_desc abu_subset_params[];

/* Reads opts ("time=30,nodes=200", or "default" for the defaults) into *o
 * (abo_subset_opts_init first, then each key). AB_EINPUT naming the key,
 * what it takes and the value, or suggesting a known key. */
ab_status abu_subset_opts_parse(const char *opts, abo_subset_opts *o, ab_error *err);

/* The parameters as help text, one "key=values (default D): help" a line. */
void abu_subset_params_help(ab_buf *out);

/* The bound a results row proves above max_load, when it proves one: an
 * exact search's (method exhaustive: a refutation of the bound - 1) or
 * GLPK's (method ilp). False when the row proves nothing above max_load. */
bool abu_bound_of_row(const char *spec, abo_proof method, int64_t bound, int64_t max_load,
                      int64_t nodes, abo_bound *b);

#endif
