/*
 * model_import.c — what the model importers share once a model is parsed
 * (model_import.h).
 */
#include "harness/formats/model_import.h"

#include <stdio.h>
#include <string.h>

#include "core/ab.h"

char *abf_clean_name(const uint8_t *s, size_t n) {
    if (n > (SIZE_MAX - 1) / 4) return NULL;
    char *out = ab_malloc(4 * n + 1), *o = out;
    if (out == NULL) return NULL;
    for (size_t i = 0; i < n;) {
        size_t len = ab_utf8_len((const char *)s + i, n - i);
        if (len == 0 || (len == 1 && (s[i] < 0x20 || s[i] == 0x7F))) {
            o += snprintf(o, 5, "\\x%02X", s[i]);
            i++;
            continue;
        }
        memcpy(o, s + i, len);
        o += len;
        i += len;
    }
    *o = '\0';
    return out;
}

static const char *base_of(const char *file) {
    const char *b = strrchr(file, '/');
    return b ? b + 1 : file;
}

char *abf_model_suite_name(const char *file, const char *fallback) {
    const char *b = base_of(file);
    size_t n = strlen(b);
    const char *dot = strrchr(b, '.');
    if (dot != NULL && dot != b) n = (size_t)(dot - b);
    if (n == 0) return ab_strdup(fallback);
    return abf_clean_name((const uint8_t *)b, n);
}

char *abf_model_file_label(const char *file) {
    const char *b = base_of(file);
    return abf_clean_name((const uint8_t *)b, strlen(b));
}

void abf_model_describe_tail(ab_buf *t, const abf_model_counts *c, bool fold_constants,
                             size_t ndims, int64_t assume_dynamic, const char *dims_word) {
    if (c->nderived > 0)
        ab_buf_printf(t, "; %zu tensors computed from constants alone %s", c->nderived,
                      fold_constants ? "left out (--fold-constants)"
                                     : "kept (--fold-constants leaves them out)");
    if (c->ndead > 0)
        ab_buf_printf(t, "; %zu dead tensors (never read) kept with end = start", c->ndead);
    if (c->nunused > 0) ab_buf_printf(t, "; %zu unused tensors left out", c->nunused);
    if (c->nempty > 0) ab_buf_printf(t, "; %zu empty tensors left out", c->nempty);
    if (ndims > 0 || assume_dynamic > 0)
        ab_buf_printf(t, "; %s dimensions given by %s", dims_word,
                      ndims > 0 && assume_dynamic > 0 ? "--dim and --assume-dynamic"
                      : ndims > 0                     ? "--dim"
                                                      : "--assume-dynamic");
}

void abf_model_live_range(ab_tensor *a, bool input, bool output, bool whole, int64_t first,
                          int64_t last, int64_t last_op, size_t *nin, size_t *nout) {
    a->start = input || whole ? 0 : first >= 0 ? first : last_op;
    a->end = output || whole ? last_op : last > a->start ? last : a->start;
    a->kind = input ? AB_KIND_INPUT : output ? AB_KIND_OUTPUT : AB_KIND_INTERMEDIATE;
    *nin += a->kind == AB_KIND_INPUT;
    *nout += a->kind == AB_KIND_OUTPUT;
}
