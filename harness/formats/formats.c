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
#include <sys/stat.h>

#include "core/file.h"


/* The table: one row a format, each defined in its own file (suite.c,
 * minimalloc.c, tflite.c); the order is the order of recognition by name and
 * of the lists in messages. */
#define ABF_FORMAT_ROWS(X) \
    X(abf_format_yaml)       /* suite.c */      \
    X(abf_format_minimalloc) /* minimalloc.c */ \
    X(abf_format_tflite)     /* tflite.c */

#define ABF_DECLARE_(sym) extern const abf_format sym;
#define ABF_ENTRY_(sym) &sym,
ABF_FORMAT_ROWS(ABF_DECLARE_)
const abf_format *const abf_formats[] = {ABF_FORMAT_ROWS(ABF_ENTRY_) NULL};
#undef ABF_DECLARE_
#undef ABF_ENTRY_

const abf_format *abf_format_named(const char *name) {
    for (size_t i = 0; abf_formats[i] != NULL; i++)
        if (strcmp(abf_formats[i]->name, name) == 0) return abf_formats[i];
    return NULL;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), e = strlen(suffix);
    return n > e && strcasecmp(s + n - e, suffix) == 0;
}

/* The row one of whose suffixes name ends with, or NULL. */
static const abf_format *by_suffix(const char *name) {
    for (size_t i = 0; abf_formats[i] != NULL; i++)
        for (const char *const *s = abf_formats[i]->suffixes; *s != NULL; s++)
            if (ends_with(name, *s)) return abf_formats[i];
    return NULL;
}

bool abf_format_suffix_known(const char *name) { return by_suffix(name) != NULL; }

void abf_format_list(ab_buf *b) {
    for (size_t i = 0; abf_formats[i] != NULL; i++) {
        const abf_format *f = abf_formats[i];
        ab_buf_printf(b, "%s%s (", i == 0 ? "" : ", ", f->title);
        for (const char *const *s = f->suffixes; *s != NULL; s++)
            ab_buf_printf(b, "%s%s", s == f->suffixes ? "" : ", ", *s);
        ab_buf_printf(b, ")");
    }
}

/* The first bytes of the regular file at path into head (*n of them; 0 when
 * path is not a regular file: a pipe, a FIFO or a device is read once, by
 * its loader, since reading its head here would take those bytes from it,
 * or wait for a FIFO's writer, or never end). false, with err set, when it
 * cannot be read. */
static bool read_head(const char *path, unsigned char *head, size_t cap, size_t *n,
                      ab_error *err) {
    *n = 0;
    struct stat sb;
    if (stat(path, &sb) != 0) {
        ab_fail(err, AB_EINPUT, "%s: cannot read: %s", path, strerror(errno));
        return false;
    }
    if (!S_ISREG(sb.st_mode)) return true;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        ab_fail(err, AB_EINPUT, "%s: cannot read: %s", path, strerror(errno));
        return false;
    }
    *n = fread(head, 1, cap, f);
    int failed = ferror(f), e = errno;
    fclose(f);
    if (failed) {
        ab_fail(err, AB_EINPUT, "%s: cannot read: %s", path, strerror(e));
        return false;
    }
    return true;
}

const abf_format *abf_format_of(const char *path, bool strict, ab_error *err) {
    unsigned char head[16];
    size_t n;
    if (!read_head(path, head, sizeof head, &n, err)) return NULL;
    for (size_t i = 0; n > 0 && abf_formats[i] != NULL; i++)
        if (abf_formats[i]->sniff != NULL && abf_formats[i]->sniff(head, n)) return abf_formats[i];
    const abf_format *r = by_suffix(path);
    if (r != NULL || !strict) return r != NULL ? r : abf_formats[0];
    ab_buf known = {0};
    abf_format_list(&known);
    ab_fail(err, AB_EINPUT, "%s: unknown format (not recognised by its content or its name); "
            "formats: %s", path, known.s ? known.s : "");
    ab_buf_free(&known);
    return NULL;
}

ab_status abf_load_problem(const char *path, const abf_load_options *o, ab_problem *p,
                           ab_error *err) {
    static const abf_load_options none;
    ab_problem_init(p);
    const abf_format *f = abf_format_of(path, false, err);
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

ab_status abf_limits_get(abf_limits *l, ab_error *err) {
    *l = (abf_limits){.file_bytes = ABF_DEFAULT_MAX_FILE_BYTES,
                      .depth = ABF_DEFAULT_MAX_DEPTH,
                      .alias_nodes = ABF_DEFAULT_MAX_ALIAS_NODES,
                      .tensors = ABF_DEFAULT_MAX_TENSORS};
    ab_status st = limit_from_env("ARENABENCH_MAX_FILE_BYTES", &l->file_bytes, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_DEPTH", &l->depth, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_ALIAS_NODES", &l->alias_nodes, err);
    if (st == AB_OK) st = limit_from_env("ARENABENCH_MAX_TENSORS", &l->tensors, err);
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
