/*
 * formats.c — the table of suite formats (formats.h) and the one loader
 * every command uses.
 */
#include "harness/formats/formats.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>


/* The table: one row a format, each defined in its own file (suite.c,
 * minimalloc.c, tflite.c); the order is the order of recognition by name and
 * of the lists in messages. */
#define ABH_FORMAT_ROWS(X) \
    X(abh_format_yaml)       /* suite.c */      \
    X(abh_format_minimalloc) /* minimalloc.c */ \
    X(abh_format_tflite)     /* tflite.c */

#define ABH_DECLARE_(sym) extern const abh_format sym;
#define ABH_ENTRY_(sym) &sym,
ABH_FORMAT_ROWS(ABH_DECLARE_)
const abh_format *const abh_formats[] = {ABH_FORMAT_ROWS(ABH_ENTRY_) NULL};
#undef ABH_DECLARE_
#undef ABH_ENTRY_

const abh_format *abh_format_named(const char *name) {
    for (size_t i = 0; abh_formats[i] != NULL; i++)
        if (strcmp(abh_formats[i]->name, name) == 0) return abh_formats[i];
    return NULL;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), e = strlen(suffix);
    return n > e && strcasecmp(s + n - e, suffix) == 0;
}

/* The row one of whose suffixes name ends with, or NULL. */
static const abh_format *by_suffix(const char *name) {
    for (size_t i = 0; abh_formats[i] != NULL; i++)
        for (const char *const *s = abh_formats[i]->suffixes; *s != NULL; s++)
            if (ends_with(name, *s)) return abh_formats[i];
    return NULL;
}

bool abh_format_suffix_known(const char *name) { return by_suffix(name) != NULL; }

void abh_format_list(ab_buf *b) {
    for (size_t i = 0; abh_formats[i] != NULL; i++) {
        const abh_format *f = abh_formats[i];
        ab_buf_printf(b, "%s%s (", i == 0 ? "" : ", ", f->title);
        for (const char *const *s = f->suffixes; *s != NULL; s++)
            ab_buf_printf(b, "%s%s", s == f->suffixes ? "" : ", ", *s);
        ab_buf_printf(b, ")");
    }
}

const abh_format *abh_format_of(const char *path, bool strict, ab_error *err) {
    unsigned char head[16];
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        ab_fail(err, AB_EINPUT, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = fread(head, 1, sizeof head, f);
    int failed = ferror(f), e = errno;
    fclose(f);
    if (failed) {
        ab_fail(err, AB_EINPUT, "%s: cannot read: %s", path, strerror(e));
        return NULL;
    }
    for (size_t i = 0; abh_formats[i] != NULL; i++)
        if (abh_formats[i]->sniff != NULL && abh_formats[i]->sniff(head, n)) return abh_formats[i];
    const abh_format *r = by_suffix(path);
    if (r != NULL || !strict) return r != NULL ? r : abh_formats[0];
    ab_buf known = {0};
    abh_format_list(&known);
    ab_fail(err, AB_EINPUT, "%s: unknown format (not recognised by its content or its name); "
            "formats: %s", path, known.s ? known.s : "");
    ab_buf_free(&known);
    return NULL;
}

ab_status abh_load_problem(const char *path, const abh_load_options *o, ab_problem *p,
                           ab_error *err) {
    static const abh_load_options none;
    ab_problem_init(p);
    const abh_format *f = abh_format_of(path, false, err);
    if (f == NULL) return err ? err->status : AB_EINPUT;
    return f->load(path, o ? o : &none, p, err);
}

/* ---- input budgets ------------------------------------------------------------ */

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

ab_status abh_limits_get(abh_limits *l, ab_error *err) {
    *l = (abh_limits){.file_bytes = ABH_DEFAULT_MAX_FILE_BYTES,
                      .depth = ABH_DEFAULT_MAX_DEPTH,
                      .alias_nodes = ABH_DEFAULT_MAX_ALIAS_NODES,
                      .tensors = ABH_DEFAULT_MAX_TENSORS};
    ab_status st = limit_from_env("ARENABENCH_MAX_FILE_BYTES", &l->file_bytes, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_DEPTH", &l->depth, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_ALIAS_NODES", &l->alias_nodes, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_TENSORS", &l->tensors, err);
    return st;
}
