/*
 * gen.c — `arenabench gen --kind K`: a generated suite (YAML), the same for
 * the same kind and parameters; its help lists the generators' kinds.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cli/commands.h"
#include "harness/cli/fail.h"
#include "harness/formats/gen.h"
#include "harness/formats/suite.h"

#define MAX_PARAMS 64 /* -P given at most this many times */

void abc_gen_print_kinds(FILE *to) {
    fprintf(to, "\nKinds and their parameters (-P key=value; --n and --seed are short for n= "
            "and seed=):\n");
    for (size_t i = 0; abf_generators[i].kind; i++) {
        fprintf(to, "  %-13s %s\n", abf_generators[i].kind, abf_generators[i].summary);
        for (const abf_gen_param *q = abf_generators[i].params; q->key; q++)
            fprintf(to, "      %s=%s  %s\n", q->key, q->def, q->help);
    }
}

/* Adds key=value to params (both copied). */
static bool params_add(ab_params *params, const char *key, size_t klen, const char *value) {
    ab_kv *v = ab_realloc_array(params->v, params->n + 1, sizeof *v);
    if (v == NULL) return false;
    params->v = v;
    v[params->n].key = ab_strndup(key, klen);
    v[params->n].value = ab_strdup(value);
    params->n++;
    return v[params->n - 1].key != NULL && v[params->n - 1].value != NULL;
}

/* --n, --seed and every -P key=value into params (--n and --seed first: they
 * win over -P n= and -P seed=). Returns 0 or the exit code. */
static int collect_params(const abc_args *a, ab_params *params) {
    const char *n = abc_opt(a, "n", NULL), *seed = abc_opt(a, "seed", NULL);
    const char *kv[MAX_PARAMS];
    int nkv = abc_opt_all(a, "param", kv);
    if (n && !params_add(params, "n", 1, n)) return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
    if (seed && !params_add(params, "seed", 4, seed))
        return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
    for (int i = 0; i < nkv; i++) {
        const char *eq = strchr(kv[i], '=');
        if (eq == NULL || eq == kv[i])
            return abc_failf(ABC_EXIT_USAGE, "--param takes key=value, not '%s'", kv[i]);
        if (ab_params_get(params, kv[i]) == NULL &&
            !params_add(params, kv[i], (size_t)(eq - kv[i]), eq + 1))
            return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
    }
    return 0;
}

int abc_gen(const abc_args *a) {
    const char *kind = abc_opt(a, "kind", NULL), *out = abc_opt(a, "output", NULL);
    if (kind == NULL)
        return abc_usage_error(a->cmd, "--kind is required");
    ab_params params = {0};
    int rc = collect_params(a, &params);
    ab_problem p;
    ab_problem_init(&p);
    ab_error err;
    ab_error_clear(&err);
    ab_status st = AB_OK;
    if (rc == 0) st = abf_generate(kind, &params, abc_opt(a, "name", NULL), &p, &err);
    if (rc == 0 && st == AB_OK) st = abf_suite_write(&p, out ? out : "-", &err);
    if (rc == 0 && st != AB_OK) rc = abc_fail(&err);
    if (rc == 0 && out)
        abc_note("%s: %zu tensors written to %s", p.name, p.n, out);
    ab_problem_free(&p);
    ab_params_free(&params);
    return rc;
}
