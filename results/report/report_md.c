/*
 * report_md.c — the report as Markdown: tables for a terminal, a PR comment
 * or a wiki.
 */
#include "results/report/render.h"

#include "results/report/sections.h"

static void md_field(ab_buf *b, const char *key, const char *v) {
    ab_buf_printf(b, "| %s | ", key);
    abr_esc_md(b, v ? v : "-");
    put(b, " |\n");
}

static void md_header(ab_buf *b, const abr_model *m) {
    const abs_run *r = &m->run;
    ab_buf_printf(b, "# arenabench report: run %lld\n\n**Verdict:** ", (long long)r->id);
    abr_put_run_verdict(b, abr_esc_md, m); /* first: what a reader forwards */
    put(b, ".\n\n");
    abr_put_row_counts(b, m);
    ab_buf_printf(b, "\n\n| run | %lld (%s) |\n|---|---|\n", (long long)r->id,
                  abs_run_status_word(r->status));
    md_field(b, "tag", r->tag);
    md_field(b, "revision", r->revision);
    md_field(b, "host", r->host);
    md_field(b, "started", r->started);
    md_field(b, "finished", r->finished ? r->finished : "not finished");
    md_field(b, "command", r->command);
}

ab_status abr_render_md(ab_buf *b, abs_store *s, const abr_model *m,
                        const abr_report_opts *opt, ab_error *err) {
    abr_sections x;
    ab_status st = abr_sections_build(s, m, &x, err);
    if (st == AB_OK) {
        md_header(b, m);
        const abr_table *order[] = {&x.planners, &x.timing, &x.real, &x.suites, &x.io,
                                    &x.certificates, &x.bounds, &x.capacity, &x.failures};
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) abr_table_md(b, order[k]);
        for (size_t k = 0; k < x.npools; k++) abr_table_md(b, &x.pools[k]);
        abr_table_md(b, &x.peaks);
    }
    abr_sections_free(&x);
    return st;
}
