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

/* The table: one row a format, each defined in its own file (suite.c,
 * minimalloc.c, tflite.c, onnx.c); the order is the order of recognition by name and
 * of the lists in messages. */
#define ABF_FORMAT_ROWS(X) \
    X(abf_format_yaml)       /* suite.c */      \
    X(abf_format_minimalloc) /* minimalloc.c */ \
    X(abf_format_tflite)     /* tflite.c */     \
    X(abf_format_onnx)       /* onnx.c */

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
