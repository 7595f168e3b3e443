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
    const abr_run *r = &m->run;
    ab_buf_printf(b, "# arenabench report: run %lld\n\n| run | %lld (%s) |\n|---|---|\n",
                  (long long)r->id, (long long)r->id, abr_run_status_word(r->status));
    md_field(b, "tag", r->tag);
    md_field(b, "revision", r->revision);
    md_field(b, "host", r->host);
    md_field(b, "started", r->started);
    md_field(b, "finished", r->finished ? r->finished : "not finished");
    md_field(b, "command", r->command);
    size_t fail = abr_failed_rows(m);
    ab_buf_printf(b, "\n%zu suites, %zu planner specs, %zu results: %zu valid, %zu failed.\n",
                  m->nsu, m->nsp, m->rows.n, m->rows.n - fail, fail);
}

static void md_planners(ab_buf *b, const abr_model *m) {
    put(b, "\n## Planners\n\n| planner | suites | valid | invalid | timeout | crash | oom | "
           "infeasible | error | geomean arena/bound | proven | wins |\n"
           "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
    for (size_t j = 0; j < m->nsp; j++) {
        const abr_rspec *p = &m->sp[j];
        put(b, "| ");
        abr_esc_md(b, p->spec);
        ab_buf_printf(b, " | %zu", p->rows);
        for (int s = 0; s < ABE_NSTATUSES; s++) ab_buf_printf(b, " | %zu", p->status[s]);
        put(b, " | ");
        abr_put_geomean(b, p);
        ab_buf_printf(b, " | %zu | %zu |\n", p->proven, p->wins);
    }
    put(b, "\ngeomean: the geometric mean of arena / best known lower bound over valid rows; "
           "proven: valid rows proven optimal (by the row's own proof or an arena equal to the "
           "best bound); wins: valid rows with the smallest arena of their suite (ties all "
           "win).\n");
}

static void md_cell(ab_buf *b, const abr_model *m, size_t si, size_t j) {
    size_t i = abr_cell_row(m, si, j);
    put(b, " | ");
    if (i == SIZE_MAX) {
        put(b, "-");
        return;
    }
    const abr_result *r = row_r(m, i);
    if (!row_ok(m, i) || r->arena == AB_NONE) {
        abr_put_fail_cell(b, r);
        return;
    }
    ab_buf_printf(b, m->rr[i].win ? "**%lld** (" : "%lld (", (long long)r->arena);
    abr_put_gap(b, m->rr[i].has_gap, m->rr[i].gap);
    put(b, ")");
}

static void md_suites(ab_buf *b, const abr_model *m) {
    put(b, "\n## Suites\n\nEach cell: the arena in bytes (its gap to the suite's best known "
           "lower bound); bold: the best valid arena; a failed cell shows its status. "
           "logical: bytes of shape x element bits, packed; physical: after alignment and layout "
           "padding; peak live: the max-load bound.\n\n"
           "| suite | tensors | logical | physical | peak live | bound");
    for (size_t j = 0; j < m->nsp; j++) {
        put(b, " | ");
        abr_esc_md(b, m->sp[j].spec);
    }
    put(b, " |\n|---|--:|--:|--:|--:|--:");
    for (size_t j = 0; j < m->nsp; j++) put(b, "|--:");
    put(b, "|\n");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, "| ");
        abr_put_suite(b, abr_esc_md, m, si);
        put(b, " | ");
        abr_put_i64(b, suite_of(m, si)->tensors);
        put(b, " | ");
        abr_put_i64(b, suite_of(m, si)->logical_bytes);
        put(b, " | ");
        abr_put_i64(b, suite_of(m, si)->physical_bytes);
        put(b, " | ");
        abr_put_i64(b, suite_of(m, si)->peak_live_bytes);
        put(b, " | ");
        abr_put_i64(b, m->su[si].bound);
        for (size_t j = 0; j < m->nsp; j++) md_cell(b, m, si, j);
        put(b, " |\n");
    }
}

static void md_certificates(ab_buf *b, const abr_model *m) {
    put(b, "\n## Optimality certificates\n\n| suite | best arena | reached by | best bound | "
           "bound from | verdict | proofs in rows |\n|---|--:|---|--:|---|---|---|\n");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, "| ");
        abr_put_suite(b, abr_esc_md, m, si);
        put(b, " | ");
        abr_put_i64(b, m->su[si].best);
        put(b, " | ");
        abr_put_winners(b, abr_esc_md, m, si);
        put(b, " | ");
        abr_put_i64(b, m->su[si].bound);
        put(b, " | ");
        abr_put_bound_src(b, abr_esc_md, m, si);
        put(b, " | ");
        abr_put_verdict(b, m, si);
        put(b, " | ");
        abr_put_claims(b, abr_esc_md, m, si);
        put(b, " |\n");
    }
}

static void md_failures(ab_buf *b, const abr_model *m) {
    size_t n = abr_failed_rows(m);
    ab_buf_printf(b, "\n## Failures\n\n");
    if (n == 0) {
        put(b, "No failures.\n");
        return;
    }
    ab_buf_printf(b, "%zu failed results.\n\n| suite | planner | status | detail |\n"
                     "|---|---|---|---|\n", n);
    for (size_t i = 0; i < m->rows.n; i++) {
        if (row_ok(m, i)) continue;
        const abr_result *r = row_r(m, i);
        put(b, "| ");
        abr_put_suite(b, abr_esc_md, m, m->rr[i].suite);
        put(b, " | ");
        abr_esc_md(b, r->spec);
        ab_buf_printf(b, " | %s | ", abe_status_word(r->status));
        abr_put_detail(b, abr_esc_md, r);
        put(b, " |\n");
    }
}


static void md_io(ab_buf *b, const abr_model *m) {
    if (!abr_io_any(m)) return;
    put(b, "\n## I/O in the workspace\n\nFootprint with inputs and outputs outside the arena "
           "(arena + I/O bytes) against planning them inside it (io: workspace), and the saving.\n\n"
           "| suite | planner | separate: arena + I/O = footprint | workspace: arena | saving |\n"
           "|---|---|--:|--:|--:|\n");
    abr_io_rows(b, m, false);
}

ab_status abr_render_md(ab_buf *b, abr_store *s, const abr_model *m,
                        const abr_report_opts *opt, ab_error *err) {
    md_header(b, m);
    md_planners(b, m);
    md_suites(b, m);
    md_io(b, m);
    md_certificates(b, m);
    md_failures(b, m);
    return abr_pools_section(b, s, m, opt, false, err);
}
