/*
 * formats.c — the table of suite formats (formats.h) and the one loader
 * every command uses.
 */
#include "harness/formats/formats.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "harness/formats/minimalloc.h"
#include "harness/formats/suite.h"

static ab_status load_yaml(const char *path, const abh_load_options *o, ab_problem *p,
                           ab_error *err) {
    (void)o;
    return abh_suite_load(path, p, err);
}

static ab_status load_minimalloc(const char *path, const abh_load_options *o, ab_problem *p,
                                 ab_error *err) {
    (void)o;
    return abh_minimalloc_load(path, p, NULL, err);
}

static ab_status load_tflite(const char *path, const abh_load_options *o, ab_problem *p,
                             ab_error *err) {
    abh_tflite_options to = {.fold_constants = o->fold_constants,
                             .dims = o->dims,
                             .ndims = o->ndims,
                             .assume_dynamic = o->assume_dynamic};
    return abh_tflite_load(path, &to, p, NULL, err);
}

static const char *const yaml_suffixes[] = {".yaml", ".yml", NULL};
static const char *const csv_suffixes[] = {".csv", NULL};
static const char *const tflite_suffixes[] = {".tflite", NULL};

const abh_format abh_formats[] = {
    {"yaml", "suite YAML", yaml_suffixes, NULL, 0, load_yaml, abh_suite_render},
    {"minimalloc", "MiniMalloc CSV", csv_suffixes, NULL, 0, load_minimalloc,
     abh_minimalloc_render},
    {"tflite", "TFLite model", tflite_suffixes, abh_tflite_sniff, ABH_FORMAT_MODEL_OPTS,
     load_tflite, NULL},
    {0},
};

const abh_format *abh_format_named(const char *name) {
    for (const abh_format *f = abh_formats; f->name != NULL; f++)
        if (strcmp(f->name, name) == 0) return f;
    return NULL;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), e = strlen(suffix);
    return n > e && strcasecmp(s + n - e, suffix) == 0;
}

/* The row one of whose suffixes name ends with, or NULL. */
static const abh_format *by_suffix(const char *name) {
    for (const abh_format *f = abh_formats; f->name != NULL; f++)
        for (const char *const *s = f->suffixes; *s != NULL; s++)
            if (ends_with(name, *s)) return f;
    return NULL;
}

bool abh_format_suffix_known(const char *name) { return by_suffix(name) != NULL; }

void abh_format_list(ab_buf *b) {
    for (const abh_format *f = abh_formats; f->name != NULL; f++) {
        ab_buf_printf(b, "%s%s (", f == abh_formats ? "" : ", ", f->title);
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
    for (const abh_format *r = abh_formats; r->name != NULL; r++)
        if (r->sniff != NULL && r->sniff(head, n)) return r;
    const abh_format *r = by_suffix(path);
    if (r != NULL || !strict) return r != NULL ? r : &abh_formats[0];
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
