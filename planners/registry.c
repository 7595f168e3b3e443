/*
 * registry.c — the planner table and the glue that resolves a spec and runs a
 * planner on the arena view of a problem (refusing a suite's pools to a
 * planner that cannot take them). Adding a planner: one file, one row.
 */
#include "planner.h"

#include <stdio.h>
#include <string.h>

extern const ab_planner abp_first_fit;
extern const ab_planner abp_best_fit;
extern const ab_planner abp_ilp;           /* planners/ilp.c */
extern const ab_planner abp_exact_cover;   /* planners/exact_cover.c */
extern const ab_planner abp_canonical;     /* planners/canonical.c */
extern const ab_planner abp_tflm_greedy;            /* planners/peer_tflm.c */
extern const ab_planner abp_usmp_greedy_by_size;     /* planners/peer_usmp.c */
extern const ab_planner abp_usmp_greedy_by_conflicts; /* planners/peer_usmp.c */
extern const ab_planner abp_usmp_hill_climb;         /* planners/peer_usmp.c */
extern const ab_planner abp_tflite_gpu_greedy_by_size; /* planners/peer_tflite_gpu.c */
extern const ab_planner abp_external;               /* planners/external.c */
extern const ab_planner abp_test_crash;      /* planners/testing.c: AB_PLANNER_TEST */
extern const ab_planner abp_test_abort;      /* planners/testing.c: AB_PLANNER_TEST */
extern const ab_planner abp_test_hang;       /* planners/testing.c: AB_PLANNER_TEST */
extern const ab_planner abp_test_alloc_bomb; /* planners/testing.c: AB_PLANNER_TEST */
extern const ab_planner abp_test_overlap;    /* planners/testing.c: AB_PLANNER_TEST */
extern const ab_planner abp_test_error;      /* planners/testing.c: AB_PLANNER_TEST */
extern const ab_planner abp_test_sleep;      /* planners/testing.c: AB_PLANNER_TEST */
extern const ab_planner abp_test_worse_by_env; /* planners/testing.c: AB_PLANNER_TEST */

const ab_planner *const ab_planners[] = {
    &abp_first_fit,
    &abp_best_fit,
    &abp_ilp,
    &abp_exact_cover,
    &abp_canonical,
    &abp_tflm_greedy,
    &abp_usmp_greedy_by_size,
    &abp_usmp_greedy_by_conflicts,
    &abp_usmp_hill_climb,
    &abp_tflite_gpu_greedy_by_size,
    &abp_external,
    &abp_test_crash,
    &abp_test_abort,
    &abp_test_hang,
    &abp_test_alloc_bomb,
    &abp_test_overlap,
    &abp_test_error,
    &abp_test_sleep,
    &abp_test_worse_by_env,
    NULL,
};

const ab_planner *ab_planner_find(const char *name) {
    for (size_t i = 0; ab_planners[i] != NULL; i++)
        if (strcmp(ab_planners[i]->name, name) == 0) return ab_planners[i];
    return NULL;
}

/* The names of every visible planner, comma-separated, into buf. */
static void planner_names(char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; ab_planners[i] != NULL && used < len; i++) {
        if (ab_planners[i]->flags & AB_PLANNER_TEST) continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                                 ab_planners[i]->name);
    }
}

/* The keys planner pl takes, comma-separated, into buf. */
static void param_names(const ab_planner *pl, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (const ab_param_desc *d = pl->params; d && d->key && used < len; d++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", d->key);
    if (used == 0) snprintf(buf, len, "none");
}

static bool takes_key(const ab_planner *pl, const char *key) {
    for (const ab_param_desc *d = pl->params; d && d->key; d++)
        if (strcmp(d->key, key) == 0) return true;
    return false;
}

ab_status ab_planner_resolve(const char *spec, const ab_planner **pl, ab_params *params,
                             ab_error *err) {
    char *name;
    ab_status st = ab_spec_parse(spec, &name, params, err);
    if (st != AB_OK) return st;
    char names[512];
    *pl = ab_planner_find(name);
    if (*pl == NULL) {
        planner_names(names, sizeof names);
        ab_fail(err, AB_EINPUT, "unknown planner '%s' (planners: %s)", name, names);
        ab_free(name);
        ab_params_free(params);
        return AB_EINPUT;
    }
    ab_free(name);
    for (size_t i = 0; i < params->n; i++) {
        if (takes_key(*pl, params->v[i].key)) continue;
        param_names(*pl, names, sizeof names);
        ab_fail(err, AB_EINPUT, "planner %s takes no parameter '%s' (it takes: %s)", (*pl)->name,
                params->v[i].key, names);
        ab_params_free(params);
        return AB_EINPUT;
    }
    return AB_OK;
}

/* Refuses a suite of two or more pools to a planner without AB_PLANNER_POOLS,
 * naming the planners that take pools (see planner.h). */
ab_status ab_planner_accepts(const ab_planner *pl, const ab_problem *p, ab_error *err) {
    if (p->npools < 2 || (pl->flags & AB_PLANNER_POOLS)) return AB_OK;
    char names[512];
    size_t used = 0;
    names[0] = '\0';
    for (size_t i = 0; ab_planners[i] != NULL && used < sizeof names; i++) {
        unsigned flags = ab_planners[i]->flags;
        if (!(flags & AB_PLANNER_POOLS) || (flags & AB_PLANNER_TEST)) continue;
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                 ab_planners[i]->name);
    }
    return ab_fail(err, AB_EINPUT,
                   "planner %s plans one arena, but suite '%s' declares %zu pools (%s, ...); "
                   "planners that place tensors in pools: %s",
                   pl->name, p->name ? p->name : "", p->npools, p->pools[0].name, names);
}

ab_status ab_planner_run(const ab_planner *pl, const ab_params *opt, const ab_problem *p,
                         ab_problem *view, ab_plan *out, ab_plan_stats *st, ab_error *err) {
    ab_plan_init(out);
    memset(st, 0, sizeof *st);
    st->lower_bound = AB_NONE;
    ab_status s = ab_problem_arena_view(p, view, NULL, err);
    if (s != AB_OK) return s;
    s = ab_planner_accepts(pl, view, err);
    if (s != AB_OK) return s;
    int64_t *offsets = ab_alloc_array(view->n ? view->n : 1, sizeof *offsets);
    if (offsets == NULL) return ab_fail(err, AB_ENOMEM, "out of memory running %s", pl->name);
    for (size_t i = 0; i < view->n; i++) offsets[i] = AB_NONE;
    s = pl->plan(view, opt, offsets, st, err);
    if (s == AB_OK) s = ab_plan_from_offsets(out, offsets, view->n, err);
    ab_free(offsets);
    return s;
}
