/*
 * sections.h — the sections Markdown and HTML share (private to
 * results/report/).
 */
#ifndef AB_REPORT_SECTIONS_H
#define AB_REPORT_SECTIONS_H

#include "results/report/model.h"

/* The rows of the I/O table: one per (pair, spec) with both variants valid. */
void abr_io_rows(ab_buf *b, const abr_model *m, bool html);

/* The bytes per pool of suites with two or more pools (needs opt->load_suite;
 * without it nothing). AB_ENOMEM only. */
ab_status abr_pools_section(ab_buf *b, abr_store *s, const abr_model *m,
                            const abr_report_opts *opt, bool html, ab_error *err);

#endif
