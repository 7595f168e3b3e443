/*
 * report.c — the report of one run (see report.h for the figures): the table
 * of formats and the entry points. The model is built in model.c; each
 * format's renderer lives in its own file (render.h).
 *
 * Adding a format: its renderer (a new report_X.c) and one row of
 * ABR_REPORT_FORMATS in report.h (the enum, the declaration, the row below
 * and every list of format names `report` prints all come from it).
 */
#include "results/report/report.h"

#include <string.h>

#include "results/report/render.h"

/* A report format: the words that name it, what it is and its renderer. */
typedef struct format_row {
    const char *name;        /* the format's word (--format NAME) */
    const char *alias;       /* another word for it, or NULL */
    const char *summary;     /* one line, for `report`'s help */
    abr_render_fn render;
} format_row;

#define ABR_FORMAT_ROW_(id, word, alias, summary) \
    [ABR_REPORT_##id] = {#word, alias, summary, abr_render_##word},
static const format_row formats[ABR_REPORT_NFORMATS] = {ABR_REPORT_FORMATS(ABR_FORMAT_ROW_)};
#undef ABR_FORMAT_ROW_

bool abr_report_format_parse(const char *w, abr_report_format *f) {
    for (size_t i = 0; w != NULL && i < ABR_REPORT_NFORMATS; i++) {
        const format_row *r = &formats[i];
        if (strcmp(w, r->name) == 0 || (r->alias != NULL && strcmp(w, r->alias) == 0)) {
            *f = (abr_report_format)i;
            return true;
        }
    }
    return false;
}

const char *abr_report_format_name(abr_report_format f) {
    return (unsigned)f < ABR_REPORT_NFORMATS ? formats[f].name : NULL;
}

const char *abr_report_format_summary(abr_report_format f) {
    return (unsigned)f < ABR_REPORT_NFORMATS ? formats[f].summary : NULL;
}

void abr_report_format_list(ab_buf *b) {
    for (size_t i = 0; i < ABR_REPORT_NFORMATS; i++)
        ab_buf_printf(b, "%s%s", i == 0 ? "" : i + 1 == ABR_REPORT_NFORMATS ? " or " : ", ",
                      formats[i].name);
}

ab_status abr_report_render(abs_store *s, int64_t run, abr_report_format fmt,
                            const abr_report_opts *opt, ab_buf *out, ab_error *err) {
    if ((unsigned)fmt >= ABR_REPORT_NFORMATS || formats[fmt].render == NULL)
        return ab_fail(err, AB_EINPUT, "unknown report format %d", (int)fmt);
    abr_model m;
    ab_status st = abr_model_build(s, run, &m, err);
    if (st == AB_OK) st = formats[fmt].render(out, s, &m, opt, err);
    abr_model_free(&m);
    if (st == AB_OK && out->oom) st = ab_fail(err, AB_ENOMEM, "out of memory rendering a report");
    return st;
}
