/*
 * sections.c — the sections Markdown and HTML share: the I/O table rows and
 * the bytes per pool.
 */
#include "results/report/sections.h"

#include "oracle/check.h"

/* One table row per (pair, spec) with both variants valid. */
void abr_io_rows(ab_buf *b, const abr_model *m, bool html) {
    for (size_t si = 0; si < m->nsu; si++) {
        size_t w = abr_io_twin(m, si);
        if (w == SIZE_MAX) continue;
        const char *name = suite_of(m, si)->name;
        int base = (int)(strlen(name) - strlen(ABR_IO_SEP));
        for (size_t j = 0; j < m->nsp; j++) {
            size_t a = abr_cell_row(m, si, j), c = abr_cell_row(m, w, j);
            if (a == SIZE_MAX || c == SIZE_MAX || !row_ok(m, a) || !row_ok(m, c)) continue;
            int64_t io = suite_of(m, si)->io_bytes > 0 ? suite_of(m, si)->io_bytes : 0;
            int64_t sep = row_r(m, a)->arena + io, ws = row_r(m, c)->arena;
            double pct = sep > 0 ? 100.0 * (double)(sep - ws) / (double)sep : 0.0;
            ab_buf tmpname = {0};
            ab_buf_printf(&tmpname, "%.*s", base, name);
            if (html) {
                put(b, "<tr><td>");
                ab_buf_xml(b, tmpname.s ? tmpname.s : "");
                put(b, "</td><td>");
                ab_buf_xml(b, m->sp[j].spec);
                ab_buf_printf(b, "</td><td>%lld + %lld = %lld</td><td>%lld</td><td>%lld (%.1f%%)"
                                 "</td></tr>\n", (long long)row_r(m, a)->arena, (long long)io,
                              (long long)sep, (long long)ws, (long long)(sep - ws), pct);
            } else {
                put(b, "| ");
                abr_esc_md(b, tmpname.s ? tmpname.s : "");
                put(b, " | ");
                abr_esc_md(b, m->sp[j].spec);
                ab_buf_printf(b, " | %lld + %lld = %lld | %lld | %lld (%.1f%%) |\n",
                              (long long)row_r(m, a)->arena, (long long)io, (long long)sep,
                              (long long)ws, (long long)(sep - ws), pct);
            }
            ab_buf_free(&tmpname);
        }
    }
}

/* ---- bytes per pool ------------------------------------------------------------
 * For suites that declare two or more pools, each valid row's plan is checked
 * again (the stored plan against the stored suite) to get the bytes it uses in
 * each pool: one table per suite. Needs the suite loader; without one the
 * section is left out. */

static void pool_header(ab_buf *b, const abr_model *m, size_t si, const ab_problem *p, bool html) {
    esc_fn esc = html ? ab_buf_xml : abr_esc_md;
    put(b, html ? "<h3>" : "\n### ");
    abr_put_suite(b, esc, m, si);
    put(b, html ? "</h3>\n<table><tr><th>planner</th>" : "\n\n| planner |");
    for (size_t k = 0; k < p->npools && k < AB_MAX_POOLS; k++) {
        put(b, html ? "<th>" : " ");
        esc(b, p->pools[k].name ? p->pools[k].name : "?");
        if (p->pools[k].size != AB_NONE) ab_buf_printf(b, " (%lld)", (long long)p->pools[k].size);
        put(b, html ? "</th>" : " |");
    }
    put(b, html ? "</tr>\n" : "\n|---|");
    if (!html)
        for (size_t k = 0; k < p->npools && k < AB_MAX_POOLS; k++) put(b, "--:|");
    if (!html) put(b, "\n");
}

static void pool_row(ab_buf *b, const abr_model *m, size_t i, const ab_problem *p,
                     const abo_report *rep, bool html) {
    put(b, html ? "<tr><td>" : "| ");
    (html ? ab_buf_xml : abr_esc_md)(b, row_r(m, i)->spec);
    put(b, html ? "</td>" : " |");
    for (size_t k = 0; k < p->npools && k < AB_MAX_POOLS; k++)
        ab_buf_printf(b, html ? "<td>%lld</td>" : " %lld |", (long long)rep->pool_used[k]);
    put(b, html ? "</tr>\n" : "\n");
}

/* Loads suite si's stored text into *p (empty, npools 0, when it cannot).
 * Returns AB_ENOMEM only: other failures leave the suite out of the section. */
static ab_status load_stored_suite(abr_store *s, const abr_model *m, size_t si,
                                   abr_suite_loader load, ab_problem *p, ab_error *err) {
    char *text = NULL;
    size_t len = 0;
    ab_problem_init(p);
    ab_status st = abr_suite_text(s, suite_of(m, si)->id, &text, &len, err);
    if (st == AB_OK) st = load(text, len, p, err);
    ab_free(text);
    if (st != AB_OK) ab_problem_free(p);
    return st == AB_ENOMEM ? st : AB_OK;
}

/* The pool table of suite si (p its problem, view the arena view). Returns
 * AB_ENOMEM only: a row whose plan cannot be read again is left out. */
static ab_status pools_of_suite(ab_buf *b, abr_store *s, const abr_model *m, size_t si,
                                const ab_problem *p, const ab_problem *view, bool html,
                                bool *any, ab_error *err) {
    bool header = false;
    const abr_rsuite *su = &m->su[si];
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        int64_t *off = NULL;
        size_t n = 0;
        ab_plan pl;
        abo_report rep;
        if (!row_ok(m, i) || row_r(m, i)->plan_hash[0] == '\0') continue;
        ab_status st = abr_plan_get(s, row_r(m, i)->plan_hash, &off, &n, err);
        if (st == AB_ENOMEM) return st;
        if (st != AB_OK) continue;
        ab_plan_init(&pl);
        st = n == view->n ? ab_plan_from_offsets(&pl, off, n, err) : AB_EINPUT;
        if (st == AB_OK) st = abo_check(view, &pl, &rep, err);
        ab_plan_free(&pl);
        ab_free(off);
        if (st == AB_ENOMEM) return st;
        if (st == AB_OK) {
            if (!*any)
                put(b, html ? "<h2>Bytes per pool</h2>\n<p>Bytes each plan uses in each pool "
                              "(the pool's size in the header).</p>\n"
                            : "\n## Bytes per pool\n\nBytes each plan uses in each pool (the "
                              "pool's size in the header).\n");
            if (!header) pool_header(b, m, si, p, html);
            *any = header = true;
            pool_row(b, m, i, p, &rep, html);
        }
    }
    if (header && html) put(b, "</table>\n");
    return AB_OK;
}

ab_status abr_pools_section(ab_buf *b, abr_store *s, const abr_model *m,
                               const abr_report_opts *opt, bool html, ab_error *err) {
    if (opt == NULL || opt->load_suite == NULL) return AB_OK;
    bool any = false;
    ab_status st = AB_OK;
    for (size_t si = 0; si < m->nsu && st == AB_OK; si++) {
        ab_problem p, view;
        ab_problem_init(&view);
        st = load_stored_suite(s, m, si, opt->load_suite, &p, err);
        if (st == AB_OK && p.npools >= 2) st = ab_problem_arena_view(&p, &view, NULL, err);
        if (st == AB_OK && p.npools >= 2) st = pools_of_suite(b, s, m, si, &p, &view, html, &any, err);
        ab_problem_free(&view);
        ab_problem_free(&p);
    }
    if (st != AB_OK) return st;
    return b->oom ? ab_fail(err, AB_ENOMEM, "out of memory building the report") : AB_OK;
}
