/*
 * render.h — the report's renderers, one per format (private to
 * results/report/): report.c lists them in its format table, each in its own
 * file (report_md.c, report_html.c, report_csv.c, report_json.c).
 */
#ifndef AB_REPORT_RENDER_H
#define AB_REPORT_RENDER_H

#include "results/report/model.h"

/* Appends the report of model m to b. s and opt serve the sections that go
 * back to the store (the plan pictures, the bytes per pool); a renderer
 * without them ignores both. Returns AB_ENOMEM or a store failure; b->oom is
 * checked by the caller. */
typedef ab_status (*abr_render_fn)(ab_buf *b, abs_store *s, const abr_model *m,
                                   const abr_report_opts *opt, ab_error *err);

/* abr_render_md, abr_render_html, ...: one per row of ABR_REPORT_FORMATS. */
#define ABR_RENDER_DECLARE_(id, word, alias, summary)                        \
    ab_status abr_render_##word(ab_buf *b, abs_store *s, const abr_model *m, \
                                const abr_report_opts *opt, ab_error *err);
ABR_REPORT_FORMATS(ABR_RENDER_DECLARE_)
#undef ABR_RENDER_DECLARE_

#endif
