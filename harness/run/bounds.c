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
     AB_PARAM_SECONDS, 0, 0},
    {"nodes", "integer >= 1", "no limit",
     "GLPK's branch-and-bound nodes per window: a deterministic budget (time then a cap)",
     AB_PARAM_INT, 1, INT64_MAX},
    {"tensors", "integer 1 .. 4096", "48", "the largest window solved", AB_PARAM_INT, 1, 4096},
    {"peaks", "integer >= 1", "4", "peaks of load to grow windows around", AB_PARAM_INT, 1,
     1 << 20},
    {0},
};

static const ab_param_desc *subset_param(const char *key) {
    for (const ab_param_desc *d = abu_subset_params; d->key; d++)
        if (strcmp(d->key, key) == 0) return d;
    return NULL;
}

ab_status abu_subset_opts_parse(const char *opts, abo_subset_opts *o, ab_error *err) {
    abo_subset_opts_init(o);
    o->incumbents = abp_ilp_incumbents; /* best-fit and first-fit start GLPK */
    if (opts == NULL || strcmp(opts, "default") == 0) return AB_OK;
    size_t len = strlen(opts) + 8;
    char *spec = ab_malloc(len);
    if (spec == NULL) return ab_fail(err, AB_ENOMEM, "out of memory reading --subset-bound");
    snprintf(spec, len, "subset:%s", opts);
    char *name = NULL;
    ab_params ps;
    ab_status st = ab_spec_parse(spec, &name, &ps, err);
    ab_free(spec);
    ab_free(name);
    if (st != AB_OK) return st;
    for (size_t i = 0; st == AB_OK && i < ps.n; i++) {
        const char *key = ps.v[i].key, *value = ps.v[i].value;
        const ab_param_desc *d = subset_param(key);
        if (d == NULL) {
            ab_suggest sg;
            ab_suggest_init(&sg, key);
            for (const ab_param_desc *k = abu_subset_params; k->key; k++) ab_suggest_offer(&sg, k->key);
            st = ab_fail(err, AB_EINPUT, "--subset-bound: unknown parameter '%s'%s%s%s (known: "
                         "time, nodes, tensors, peaks)", key, sg.best ? "; did you mean '" : "",
                         sg.best ? sg.best : "", sg.best ? "'?" : "");
            break;
        }
        st = ab_param_check("--subset-bound", d, value, err);
        if (st != AB_OK) break;
        if (d->kind == AB_PARAM_SECONDS) {
            o->time_limit = strtod(value, NULL);
        } else {
            int64_t v = 0;
            st = ab_params_int(&ps, key, 0, d->lo, d->hi, &v, err);
            if (strcmp(key, "nodes") == 0) o->nodes = v;
            else if (strcmp(key, "tensors") == 0) o->max_tensors = (size_t)v;
            else o->peaks = (size_t)v;
        }
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
