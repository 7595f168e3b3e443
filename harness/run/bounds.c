/*
 * bounds.c — the bounds a run proves (bounds.h).
 */
#include "harness/run/bounds.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "planners/ilp.h"

const ab_param_desc abu_subset_params[] = {
    {"time", "seconds > 0", "10", "seconds for all the windows of a suite together",
     AB_PARAM_SECONDS, 0, 0, false},
    {"nodes", "integer >= 1", "no limit",
     "GLPK's branch-and-bound nodes per window: a deterministic budget (time then a cap)",
     AB_PARAM_INT, 1, INT64_MAX, true},
    {"tensors", "integer 1 .. 4096", "48", "the largest window solved", AB_PARAM_INT, 1, 4096,
     false},
    {"peaks", "integer >= 1", "4", "peaks of load to grow windows around", AB_PARAM_INT, 1,
     1 << 20, false},
    {0},
};

ab_status abu_subset_opts_parse(const char *opts, abo_subset_opts *o, ab_error *err) {
    abo_subset_opts_init(o);
    o->incumbents = abp_ilp_incumbents; /* best-fit and first-fit start GLPK */
    if (opts == NULL || strcmp(opts, "default") == 0) opts = ""; /* the table's defaults */
    size_t len = strlen(opts) + 8;
    char *spec = ab_malloc(len);
    if (spec == NULL) return ab_fail(err, AB_ENOMEM, "out of memory reading --subset-bound");
    snprintf(spec, len, "subset:%s", opts);
    char *name = NULL;
    ab_params ps;
    ab_status st = ab_planner_spec_parse(spec, &name, &ps, err);
    ab_free(spec);
    ab_free(name);
    if (st != AB_OK) return st;
    const char *key = NULL;
    st = ab_params_bind("--subset-bound", abu_subset_params, &ps, &key, err);
    if (key != NULL) {
        ab_suggest sg;
        ab_suggest_init(&sg, key);
        for (const ab_param_desc *k = abu_subset_params; k->key; k++) ab_suggest_offer(&sg, k->key);
        st = ab_fail(err, AB_EINPUT, "--subset-bound: unknown parameter '%s'%s%s%s (known: "
                     "time, nodes, tensors, peaks)", key, sg.best ? "; did you mean '" : "",
                     sg.best ? sg.best : "", sg.best ? "'?" : "");
    }
    if (st == AB_OK) {
        o->time_limit = ab_param_seconds(&ps, "time");
        o->nodes = ab_param_has(&ps, "nodes") ? ab_param_i64(&ps, "nodes") : 0;
        o->max_tensors = (size_t)ab_param_i64(&ps, "tensors");
        o->peaks = (size_t)ab_param_i64(&ps, "peaks");
    }
    ab_params_free(&ps);
    return st;
}

void abu_subset_params_help(ab_buf *out) {
    for (const ab_param_desc *d = abu_subset_params; d->key; d++)
        ab_buf_printf(out, "%s=%s (default %s): %s\n", d->key, d->values, d->def, d->help);
}

bool abu_bound_of_row(const char *spec, abo_proof method, int64_t bound, int64_t max_load,
                      int64_t nodes, abo_bound *b) {
    if (bound == AB_NONE || bound <= max_load) return false;
    if (method == ABO_PROOF_EXHAUSTIVE) {
        abo_bound_refutation(spec, bound - 1, nodes, b);
        return true;
    }
    if (method == ABO_PROOF_ILP) {
        abo_bound_ilp(spec, bound, nodes, b);
        return true;
    }
    return false;
}
