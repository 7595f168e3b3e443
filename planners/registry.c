/*
 * registry.c — the planner table and the glue that resolves a spec and runs a
 * planner on the arena view of a problem (a suite's pools through spill.c
 * for a planner that cannot take them). Adding a planner: one file, one row.
 * Planners that need a layer above this one (external, which runs programs
 * through the engine) or that exist only for the tests are not rows here:
 * their layer registers them at start-up (ab_planner_register).
 */
#include "planners/planner.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "core/suggest.h"

/* The table: one row a planner, in the order `arenabench planners` lists them
 * (and the order of `run --planners all`). Each row names the planner's
 * const ab_planner, defined in its own file. */
#define AB_PLANNER_ROWS(X)                                                       \
    X(abp_first_fit)                 /* first_fit.c */                           \
    X(abp_best_fit)                  /* best_fit.c */                            \
    X(abp_ilp)                       /* ilp.c: GLPK */                           \
    X(abp_exact_cover)               /* exact_cover.c: Algorithm X */            \
    X(abp_canonical)                 /* canonical.c: MiniMalloc's method */      \
    X(abp_tflm_greedy)               /* peer_tflm.c */                           \
    X(abp_usmp_greedy_by_size)       /* peer_usmp.c */                           \
    X(abp_usmp_greedy_by_conflicts)  /* peer_usmp.c */                           \
    X(abp_usmp_hill_climb)           /* peer_usmp.c */                           \
    X(abp_tflite_gpu_greedy_by_size) /* peer_tflite_gpu.c */                     \
    X(abp_xla_best_fit)              /* peer_xla.c: XLA's heap simulator */      \
    X(abp_xla_constrained_best_fit)  /* peer_xla.c */                           \
    X(abp_executorch_greedy)         /* peer_executorch.c */                     \
    X(abp_executorch_naive)          /* peer_executorch.c */

#define AB_DECLARE_(sym) extern const ab_planner sym;
#define AB_ENTRY_(sym) &sym,
AB_PLANNER_ROWS(AB_DECLARE_)
const ab_planner *const ab_planners[] = {AB_PLANNER_ROWS(AB_ENTRY_) NULL};
#undef AB_DECLARE_
#undef AB_ENTRY_

/* Planners a program adds at start-up (ab_planner_register), after the table. */
#define AB_MAX_REGISTERED 32
static const ab_planner *registered[AB_MAX_REGISTERED];
static size_t nregistered;

const ab_planner *ab_planner_at(size_t i) {
    size_t n = sizeof ab_planners / sizeof ab_planners[0] - 1;
    if (i < n) return ab_planners[i];
    return i - n < nregistered ? registered[i - n] : NULL;
}

ab_status ab_planner_register(const ab_planner *pl) {
    const ab_planner *same = ab_planner_find(pl->name);
    if (same == pl) return AB_OK;
    if (same != NULL || nregistered == AB_MAX_REGISTERED) return AB_EINTERNAL;
    registered[nregistered++] = pl;
    return AB_OK;
}

const ab_planner *ab_planner_find(const char *name) {
    for (size_t i = 0; ab_planner_at(i) != NULL; i++)
        if (strcmp(ab_planner_at(i)->name, name) == 0) return ab_planner_at(i);
    return NULL;
}

/* ---- did you mean ----------------------------------------------------------- */

/* The visible planner closest to name (core/suggest.h's rule), or NULL. */
static const char *closest_planner(const char *name) {
    ab_suggest s;
    ab_suggest_init(&s, name);
    for (size_t i = 0; ab_planner_at(i) != NULL; i++)
        if (!(ab_planner_at(i)->flags & AB_PLANNER_TEST)) ab_suggest_offer(&s, ab_planner_at(i)->name);
    return s.best;
}

/* The names of every visible planner, comma-separated, into buf. */
static void planner_names(char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; ab_planner_at(i) != NULL && used < len; i++) {
        if (ab_planner_at(i)->flags & AB_PLANNER_TEST) continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                 ab_planner_at(i)->name);
    }
}

ab_status ab_planner_resolve(const char *spec, const ab_planner **pl, ab_params *params,
                             ab_error *err) {
    char *name;
    ab_status st = ab_planner_spec_parse(spec, &name, params, err);
    if (st != AB_OK) return st;
    char names[512];
    *pl = ab_planner_find(name);
    if (*pl == NULL) {
        planner_names(names, sizeof names);
        const char *near = closest_planner(name);
        if (near != NULL)
            ab_fail(err, AB_EINPUT, "unknown planner '%s': did you mean '%s'? (planners: %s)",
                    name, near, names);
        else
            ab_fail(err, AB_EINPUT, "unknown planner '%s' (planners: %s)", name, names);
        ab_free(name);
        ab_params_free(params);
        return AB_EINPUT;
    }
    ab_free(name);
    st = ab_params_bind((*pl)->name, (*pl)->params, params, NULL, err);
    if (st != AB_OK) ab_params_free(params);
    return st;
}

ab_status ab_planner_run(const ab_planner *pl, const ab_params *opt, const ab_problem *p,
                         ab_problem *view, ab_plan *out, ab_plan_stats *st, ab_error *err) {
    ab_plan_init(out);
    memset(st, 0, sizeof *st);
    st->lower_bound = AB_NONE;
    ab_status s = ab_problem_arena_view(p, view, NULL, err);
    if (s != AB_OK) return s;
    int64_t *offsets = ab_alloc_array(view->n ? view->n : 1, sizeof *offsets);
    if (offsets == NULL) return ab_fail(err, AB_ENOMEM, "out of memory running %s", pl->name);
    for (size_t i = 0; i < view->n; i++) offsets[i] = AB_NONE;
    s = ab_planner_plan(pl, opt, view, offsets, st, err);
    if (s == AB_OK) s = ab_plan_from_offsets(out, offsets, view->n, err);
    ab_free(offsets);
    return s;
}

/* ---- sets of specs ------------------------------------------------------------------ */

/* Adds name:key=value for each value of the '|'-separated list values that is
 * not skip (NULL: none), or name:value when key is NULL; the new count. */
static int add_values(char names[][64], int n, int max, const char *name, const char *key,
                      const char *values, const char *skip) {
    for (const char *v = values; v != NULL && *v && n < max;) {
        size_t len = strcspn(v, "|");
        if (skip == NULL || strncmp(v, skip, len) != 0 || skip[len] != '\0')
            snprintf(names[n++], 64, "%s:%s%s%.*s", name, key ? key : "", key ? "=" : "",
                     (int)len, v);
        v += len + (v[len] == '|');
    }
    return n;
}

int ab_planner_set_specs(const char *set, char names[][64], int max) {
    bool all = strcmp(set, "all") == 0;
    if (!all && strcmp(set, "default") != 0) return -1;
    int n = 0;
    for (size_t i = 0; ab_planner_at(i) != NULL && n < max; i++) {
        const ab_planner *pl = ab_planner_at(i);
        if (all ? (pl->flags & AB_PLANNER_ASK_ONLY) != 0 : (pl->flags & AB_PLANNER_DEFAULT) == 0)
            continue;
        snprintf(names[n++], 64, "%s", pl->name);
        if (!all) n = add_values(names, n, max, pl->name, NULL, pl->also_default, NULL);
        for (const ab_param_desc *d = pl->params; all && d && d->key; d++)
            if (strcmp(d->key, "order") == 0)
                n = add_values(names, n, max, pl->name, d->key, d->values, d->def);
    }
    return n;
}
