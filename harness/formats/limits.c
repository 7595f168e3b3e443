/*
 * limits.c — the input budgets (formats.h: abf_limits) and the one bounded
 * reader of input files. A file of its own so that a harness linking only
 * some formats (fuzz/fuzz_tflite.c) takes it without the format table.
 */
#include "harness/formats/formats.h"

#include <errno.h>
#include <stdlib.h>

#include "core/file.h"

/* *v from the variable name when it is set: a positive decimal integer. */
static ab_status limit_from_env(const char *name, int64_t *v, ab_error *err) {
    const char *text = getenv(name);
    if (text == NULL) return AB_OK;
    char *end = NULL;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    bool digits = text[0] >= '0' && text[0] <= '9';
    if (!digits || end == text || *end != '\0' || errno == ERANGE || x < 1)
        return ab_fail(err, AB_EINPUT,
                       "environment variable %s: expected a positive integer, got '%.40s'", name,
                       text);
    *v = (int64_t)x;
    return AB_OK;
}

ab_status abf_limits_get(abf_limits *l, ab_error *err) {
    *l = (abf_limits){.file_bytes = ABF_DEFAULT_MAX_FILE_BYTES,
                      .depth = ABF_DEFAULT_MAX_DEPTH,
                      .alias_nodes = ABF_DEFAULT_MAX_ALIAS_NODES,
                      .tensors = ABF_DEFAULT_MAX_TENSORS,
                      .generated = ABF_DEFAULT_MAX_GENERATED};
    ab_status st = limit_from_env("ARENABENCH_MAX_FILE_BYTES", &l->file_bytes, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_DEPTH", &l->depth, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_ALIAS_NODES", &l->alias_nodes, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_TENSORS", &l->tensors, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_GENERATED", &l->generated, err);
    return st;
}

ab_status abf_read_input(const char *path, char **buf, size_t *len, ab_error *err) {
    *buf = NULL;
    *len = 0;
    abf_limits lim;
    ab_status st = abf_limits_get(&lim, err);
    if (st != AB_OK) return st;
    return ab_read_file(path, (uint64_t)lim.file_bytes, "ARENABENCH_MAX_FILE_BYTES", buf, len, err);
}
