/*
 * cmd_export.c — `arenabench export` (a suite in another format) and
 * `arenabench gen` (a generated suite): commands that write suites.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cli/commands.h"
#include "core/buf.h"
#include "harness/formats/gen.h"
#include "harness/formats/formats.h"
#include "harness/formats/suite.h"

int abh_cmd_export(const char *path, const char *format, const char *out) {
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    const abh_format *to = abh_format_named(format ? format : "minimalloc");
    if (to == NULL || to->render == NULL) {
        fprintf(stderr, "arenabench: --format takes");
        for (const abh_format *f = abh_formats; f->name != NULL; f++)
            if (f->render != NULL) fprintf(stderr, "%s %s", f == abh_formats ? "" : " or", f->name);
        fprintf(stderr, ", not '%s'\n", format);
        return 2;
    }
    if (abh_load_problem(path, NULL, &p, &err) != AB_OK) {
        fprintf(stderr, "arenabench: %s\n", err.msg);
        return ab_status_exit_code(err.status);
    }
    ab_buf b = {0};
    ab_status st = to->render(&p, &b, &err);
    if (st == AB_OK) st = ab_buf_write_file(&b, out ? out : "-", &err);
    bool mm = strcmp(to->name, "minimalloc") == 0;
    if (st == AB_OK && mm && p.io == AB_IO_SEPARATE && ab_problem_io_outside(&p) > 0)
        fprintf(stderr, "arenabench: note: %s keeps its inputs and outputs outside the arena "
                "(io: separate); they are not in the MiniMalloc file\n", path);
    ab_buf_free(&b);
    ab_problem_free(&p);
    if (st != AB_OK) {
        fprintf(stderr, "arenabench: %s\n", err.msg);
        return ab_status_exit_code(st);
    }
    return 0;
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

int abh_cmd_gen(const char *kind, const char *n, const char *seed, const char *const *kv, int nkv,
                const char *name, const char *out) {
    ab_params params = {0};
    int rc = 0;
    if (n && !params_add(&params, "n", 1, n)) rc = 3;
    if (rc == 0 && seed && !params_add(&params, "seed", 4, seed)) rc = 3;
    for (int i = 0; rc == 0 && i < nkv; i++) {
        const char *eq = strchr(kv[i], '=');
        if (eq == NULL || eq == kv[i]) {
            fprintf(stderr, "arenabench: --param takes key=value, not '%s'\n", kv[i]);
            rc = 2;
        } else if (ab_params_get(&params, kv[i]) == NULL && !params_add(&params, kv[i], (size_t)(eq - kv[i]), eq + 1)) {
            rc = 3;
        }
    }
    ab_problem p;
    ab_problem_init(&p);
    ab_error err;
    ab_error_clear(&err);
    ab_status st = AB_OK;
    if (rc == 0) st = abh_generate(kind, &params, name, &p, &err);
    if (rc == 0 && st == AB_OK) st = abh_suite_write(&p, out ? out : "-", &err);
    if (rc == 0 && st != AB_OK) {
        fprintf(stderr, "arenabench: %s\n", err.msg);
        rc = ab_status_exit_code(st);
    }
    if (rc == 0 && out)
        fprintf(stderr, "arenabench: %s: %zu tensors written to %s\n", p.name, p.n, out);
    ab_problem_free(&p);
    ab_params_free(&params);
    return rc;
}
