/*
 * sections.c — the report's tables, built once from the model and rendered by
 * report_md.c and report_html.c (see sections.h).
 */
#include "results/report/sections.h"

#include <math.h>
#include <stdio.h>

#include "oracle/bounds.h"
#include "oracle/check.h"

/* Ten hues (Tableau 10), each in three shades (as it is, darker, lighter):
 * planner j takes colour j % 30 and marker j % 7, so the first 30 planners
 * have distinct colours and the first 210 distinct (colour, marker) pairs. */
static const char *const colors[] = {
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#7f7f7f",
    "#2a4a70", "#a8570f", "#9e1f22", "#2f6f6a", "#2d6a26", "#9a7d0a", "#6e3f62", "#c2455a",
    "#5c3f2b", "#3a3a3a",
    "#a0cbe8", "#ffbe7d", "#ffb3b0", "#c2e6e2", "#9fdc8f", "#f7e39a", "#dcbad4", "#ffd3dc",
    "#d2b8a8", "#c6c6c6"};

/* The markers, as HTML characters (their SVG shapes: report_html.c). */
static const char *const glyphs[ABR_NMARKERS] = {"&#9679;", "&#9632;", "&#9650;", "&#9670;",
                                                 "&#9660;", "&#10010;", "&#9733;"};

const char *abr_color(size_t i) { return colors[i % (sizeof colors / sizeof colors[0])]; }

int abr_marker(size_t i) { return (int)(i % ABR_NMARKERS); }

/* The marker of spec i as an HTML character reference (e.g. "&#9632;"). */
static const char *abr_glyph(size_t i) { return glyphs[abr_marker(i)]; }

/* A scratch buffer for a cell's text, emptied. */
static ab_buf *fresh(ab_buf *tmp) {
    tmp->n = 0;
    if (tmp->s) tmp->s[0] = '\0';
    return tmp;
}

/* The scratch buffer's text; its allocation failure is the table's. */
static const char *text(abr_table *t, const ab_buf *tmp) {
    if (tmp->oom) t->oom = true;
    return tmp->s ? tmp->s : "";
}

/* ---- planners ---------------------------------------------------------------------- */

static void planners(abr_table *t, const abr_model *m, ab_buf *tmp) {
    static const char *const statuses[] = {"valid",         "invalid",    "timeout", "crash",
                                           "oom",           "over-capacity", "infeasible",
                                           "error"};
    _Static_assert(sizeof statuses / sizeof statuses[0] == ABO_NSTATUSES, "a column per status");
    abr_table_title(t, 2, "Planners");
    abr_table_column(t, "planner", ABR_LEFT);
    abr_table_column(t, "suites", ABR_RIGHT);
    for (int s = 0; s < ABO_NSTATUSES; s++) abr_table_column(t, statuses[s], ABR_RIGHT);
    abr_table_column(t, "geomean arena/bound", ABR_RIGHT);
    abr_table_column(t, "proven", ABR_RIGHT);
    abr_table_column(t, "wins", ABR_RIGHT);
    abr_table_column(t, "label", ABR_LEFT);
    for (size_t j = 0; j < m->nsp; j++) {
        const abr_rspec *p = &m->sp[j];
        abr_table_add(t, (abr_cell){.text = p->spec, .swatch = abr_color(j),
                                .glyph = abr_glyph(j)});
        abr_table_addf(t, "%zu", p->rows);
        for (int s = 0; s < ABO_NSTATUSES; s++) abr_table_addf(t, "%zu", p->status[s]);
        abr_put_geomean(fresh(tmp), p);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
        abr_table_addf(t, "%zu", p->proven);
        abr_table_addf(t, "%zu", p->wins);
        char label[96];
        abr_spec_label(p->spec, label, sizeof label);
        abr_table_add(t, (abr_cell){.text = label});
    }
    abr_table_para(t, "label: the short name other tables give the spec (the planner, each "
                      "parameter's first letter and value); geomean: the geometric mean of arena "
                      "/ best known lower bound over valid rows; proven: valid rows proven optimal (by the row's own proof or an "
                      "arena equal to the best bound); wins: valid rows with the smallest arena "
                      "of their suite (ties all win); over-capacity: a valid plan whose arena exceeds the "
                      "suite's capacity; infeasible: proven that no plan fits (the failures "
                      "name the certificate: its method and bound).", ABR_IN_BOTH, true, true);
}

/* ---- time and memory ---------------------------------------------------------------- */

/* Seconds as a cell: "12.3 ms", "1.25 s"; "-" when NAN. */
static void add_seconds(abr_table *t, double s) {
    if (isnan(s)) abr_table_add(t, (abr_cell){.text = "-"});
    else if (s < 1) abr_table_addf(t, "%.3g ms", s * 1e3);
    else abr_table_addf(t, "%.3g s", s);
}

/* Bytes as a cell in KiB or MiB; "-" when NAN. */
static void add_mem(abr_table *t, double bytes) {
    if (isnan(bytes)) abr_table_add(t, (abr_cell){.text = "-"});
    else if (bytes < 1024 * 1024) abr_table_addf(t, "%.0f KiB", bytes / 1024);
    else abr_table_addf(t, "%.1f MiB", bytes / (1024 * 1024));
}

/* One planner's row (model.h: abr_spec_times). */
static void timing_row(abr_table *t, const abr_model *m, size_t j) {
    abr_times x;
    if (!abr_spec_times(m, j, &x)) t->oom = true;
    abr_table_add(t, (abr_cell){.text = m->sp[j].spec, .swatch = abr_color(j),
                                .glyph = abr_glyph(j)});
    abr_table_addf(t, "%zu", x.rows);
    abr_table_addf(t, "%zu", x.runs);
    add_seconds(t, x.cpu);
    add_seconds(t, x.wall);
    add_seconds(t, x.plan_cpu);
    add_mem(t, x.rss);
    add_mem(t, x.rss_max);
    abr_table_addf(t, "%zu", x.capped);
}

static void timing(abr_table *t, const abr_model *m) {
    abr_table_title(t, 2, "Time and memory");
    abr_table_column(t, "planner", ABR_LEFT);
    static const char *const heads[] = {"suites", "runs", "CPU (median)", "wall (median)",
                                        "planner CPU (median)", "peak RSS (median)",
                                        "peak RSS (max)", "capped"};
    for (size_t k = 0; k < sizeof heads / sizeof heads[0]; k++)
        abr_table_column(t, heads[k], ABR_RIGHT);
    for (size_t j = 0; j < m->nsp; j++) timing_row(t, m, j);
    abr_table_para(t, "Per planner, the median over its suites of each row's median run. CPU: "
                      "user + system time of the planner's process and what it started (wait4); "
                      "wall: fork to reap; planner CPU: the planner's own CPU time inside its "
                      "process, without start-up; peak RSS: the process's own peak resident "
                      "memory beyond the harness pages it inherits at fork; runs: a job that "
                      "ends ok is repeated (run --repeat-min, --repeat-time); capped: rows a "
                      "time limit or a memory limit, not a deterministic budget, ended (they "
                      "may differ on another machine).", ABR_IN_BOTH, true, true);
}

/* ---- suites ------------------------------------------------------------------------ */

#define SIZES_NOTE "logical: bytes of shape x element bits, packed; physical: after alignment " \
                   "and layout padding; peak live: the max-load bound."

/* The cell of spec j on suite si: its arena and gap, its failure or "-". */
static void suite_cell(abr_table *t, const abr_model *m, size_t si, size_t j, ab_buf *tmp) {
    size_t i = abr_cell_row(m, si, j);
    if (i == SIZE_MAX) {
        abr_table_add(t, (abr_cell){.text = "-", .cls = "miss"});
        return;
    }
    const abo_row *r = row_r(m, i);
    if (m->su[si].cap != ABR_CAP_NONE && r->arena != AB_NONE &&
        (r->status == ABO_STATUS_OVER_CAPACITY || r->status == ABO_STATUS_INFEASIBLE)) {
        /* a plan over the capacity: its arena and gap, which decide nothing */
        int64_t lb = m->su[si].bound;
        ab_buf_printf(fresh(tmp), "%lld", (long long)r->arena);
        if (lb != AB_NONE && lb > 0) {
            put(tmp, ", ");
            abr_put_gap(tmp, true, (double)(r->arena - lb) / (double)lb);
        }
        abr_table_add(t, (abr_cell){.text = abo_status_word(r->status), .note = text(t, tmp),
                                    .cls = "fail"});
        return;
    }
    if (!row_ok(m, i) || r->arena == AB_NONE) {
        abr_put_fail_cell(fresh(tmp), r);
        abr_table_add(t, (abr_cell){.text = text(t, tmp), .cls = "fail"});
        return;
    }
    char arena[32];
    snprintf(arena, sizeof arena, "%lld", (long long)r->arena);
    abr_put_gap(fresh(tmp), m->rr[i].has_gap, m->rr[i].gap);
    if (r->capped != NULL) ab_buf_printf(tmp, ", capped: %s", r->capped);
    bool win = m->rr[i].win;
    abr_table_add(t, (abr_cell){.text = arena, .note = text(t, tmp), .strong = win,
                                .cls = win ? "best" : NULL});
}

/* The integer v as a cell, "-" when absent. */
static void add_i64(abr_table *t, int64_t v, ab_buf *tmp) {
    abr_put_i64(fresh(tmp), v);
    abr_table_add(t, (abr_cell){.text = text(t, tmp)});
}

/* The name of suite si as a cell. */
static void add_suite(abr_table *t, const abr_model *m, size_t si, ab_buf *tmp) {
    abr_put_suite(fresh(tmp), put, m, si);
    abr_table_add(t, (abr_cell){.text = text(t, tmp)});
}

static void suites(abr_table *t, const abr_model *m, ab_buf *tmp) {
    abr_table_title(t, 2, "Suites");
    abr_table_para(t, "Each cell: the arena in bytes (its gap to the suite's best known lower "
                      "bound); bold: the best valid arena; a failed cell shows its status. "
                      SIZES_NOTE, ABR_IN_MD, false, false);
    abr_table_para(t, "Each cell: the arena in bytes and its gap to the suite's best known lower "
                      "bound; green: the best valid arena; red: a failure.", ABR_IN_HTML, true,
                   false);
    abr_table_para(t, SIZES_NOTE, ABR_IN_HTML, true, false);
    abr_table_column(t, "suite", ABR_LEFT);
    static const char *const sizes[] = {"tensors", "logical", "physical", "peak live", "bound"};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        abr_table_column(t, sizes[k], ABR_RIGHT);
    for (size_t j = 0; j < m->nsp; j++) { /* the spec's label (the Planners table's) */
        char label[96];
        abr_spec_label(m->sp[j].spec, label, sizeof label);
        abr_table_column(t, label, ABR_RIGHT);
    }
    for (size_t si = 0; si < m->nsu; si++) {
        const abs_suite *s = suite_of(m, si);
        add_suite(t, m, si, tmp);
        add_i64(t, s->tensors, tmp);
        add_i64(t, s->logical_bytes, tmp);
        add_i64(t, s->physical_bytes, tmp);
        add_i64(t, s->peak_live_bytes, tmp);
        add_i64(t, m->su[si].bound, tmp);
        for (size_t j = 0; j < m->nsp; j++) suite_cell(t, m, si, j, tmp);
    }
}

/* ---- I/O in the workspace -----------------------------------------------------------
 * The footprint with separate I/O is the arena plus the input and output bytes
 * kept outside it; in the workspace it is the arena alone. One row per (pair,
 * spec) with both variants valid. */

static void io_row(abr_table *t, const abr_model *m, size_t si, size_t a, size_t c) {
    const char *name = suite_of(m, si)->name;
    int base = (int)(strlen(name) - strlen(ABR_IO_SEP));
    int64_t io = suite_of(m, si)->io_bytes > 0 ? suite_of(m, si)->io_bytes : 0;
    int64_t sep = row_r(m, a)->arena + io, ws = row_r(m, c)->arena;
    double pct = sep > 0 ? 100.0 * (double)(sep - ws) / (double)sep : 0.0;
    char *pair = ab_strndup(name, (size_t)base);
    if (pair == NULL) t->oom = true;
    abr_table_add(t, (abr_cell){.text = pair});
    ab_free(pair);
    abr_table_add(t, (abr_cell){.text = row_r(m, a)->spec});
    abr_table_addf(t, "%lld + %lld = %lld", (long long)row_r(m, a)->arena, (long long)io,
                   (long long)sep);
    abr_table_addf(t, "%lld", (long long)ws);
    abr_table_addf(t, "%lld (%.1f%%)", (long long)(sep - ws), pct);
}

static void io_table(abr_table *t, const abr_model *m) {
    if (!abr_io_any(m)) return;
    abr_table_title(t, 2, "I/O in the workspace");
    abr_table_para(t, "Footprint with inputs and outputs outside the arena (arena + I/O bytes) "
                      "against planning them inside it (io: workspace), and the saving.",
                   ABR_IN_BOTH, false, false);
    t->html_unaligned = true;
    abr_table_column(t, "suite", ABR_LEFT);
    abr_table_column(t, "planner", ABR_LEFT);
    abr_table_column(t, "separate: arena + I/O = footprint", ABR_RIGHT);
    abr_table_column(t, "workspace: arena", ABR_RIGHT);
    abr_table_column(t, "saving", ABR_RIGHT);
    for (size_t si = 0; si < m->nsu; si++) {
        size_t w = abr_io_twin(m, si);
        if (w == SIZE_MAX) continue;
        for (size_t j = 0; j < m->nsp; j++) {
            size_t a = abr_cell_row(m, si, j), c = abr_cell_row(m, w, j);
            if (a == SIZE_MAX || c == SIZE_MAX || !row_ok(m, a) || !row_ok(m, c)) continue;
            io_row(t, m, si, a, c);
        }
    }
}

/* ---- certificates and failures ------------------------------------------------------ */

/* Per suite with a capacity: the decision, its plan, the bound, the exact
 * rows; no table when no suite has a capacity. */
static void capacities(abr_table *t, const abr_model *m, ab_buf *tmp) {
    if (!abr_cap_any(m)) return;
    abr_table_title(t, 2, "Capacity decisions");
    abr_table_para(t, "Per suite with a capacity (an arena budget): fits when a valid plan is "
                      "within it; does not fit when a proven bound exceeds it (or a row proved "
                      "it infeasible); otherwise not decided, the smallest arena between the "
                      "best bound and the smallest valid plan. A plan over the capacity decides "
                      "nothing, whatever its gap: only an exact search (at k = 1) that ends "
                      "decides, and a not decided says whether one ran out of its budget, "
                      "failed or did not run.", ABR_IN_BOTH, false, false);
    abr_table_column(t, "suite", ABR_LEFT);
    abr_table_column(t, "capacity", ABR_RIGHT);
    abr_table_column(t, "decision", ABR_LEFT);
    abr_table_column(t, "smallest plan", ABR_RIGHT);
    abr_table_column(t, "reached by", ABR_LEFT);
    abr_table_column(t, "best bound", ABR_RIGHT);
    abr_table_column(t, "bound from", ABR_LEFT);
    abr_table_column(t, "exact searches", ABR_LEFT);
    for (size_t si = 0; si < m->nsu; si++) {
        const abr_rsuite *su = &m->su[si];
        if (su->cap == ABR_CAP_NONE) continue;
        add_suite(t, m, si, tmp);
        add_i64(t, su->capacity, tmp);
        abr_put_cap_verdict(fresh(tmp), m, si);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
        add_i64(t, su->cap_upper, tmp);
        abr_put_cap_by(fresh(tmp), put, m, si, true);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
        add_i64(t, su->bound, tmp);
        abr_put_bound_src(fresh(tmp), put, m, si, true);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
        abr_put_cap_exact(fresh(tmp), put, m, si, true);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
    }
    abr_table_para(t, "smallest plan: the smallest arena of a valid plan, within the capacity or "
                      "over it (the top of the range a not decided gives); exact searches: the "
                      "rows of exact planners at k = 1 and how each ended.", ABR_IN_HTML, true,
                   true);
}

static void certificates(abr_table *t, const abr_model *m, ab_buf *tmp) {
    abr_table_title(t, 2, "Optimality certificates");
    abr_table_column(t, "suite", ABR_LEFT);
    abr_table_column(t, "best arena", ABR_RIGHT);
    abr_table_column(t, "reached by", ABR_LEFT);
    abr_table_column(t, "best bound", ABR_RIGHT);
    abr_table_column(t, "bound from", ABR_LEFT);
    abr_table_column(t, "verdict", ABR_LEFT);
    abr_table_column(t, "proofs in rows", ABR_LEFT);
    for (size_t si = 0; si < m->nsu; si++) {
        add_suite(t, m, si, tmp);
        add_i64(t, m->su[si].best, tmp);
        abr_put_winners(fresh(tmp), put, m, si, true);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
        add_i64(t, m->su[si].bound, tmp);
        abr_put_bound_src(fresh(tmp), put, m, si, true);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
        abr_put_verdict(fresh(tmp), m, si);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
        abr_put_claims(fresh(tmp), put, m, si, true);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
    }
    abr_table_para(t, "lower-bound: the max-load (or stored) bound equals the arena; ilp: GLPK "
                      "proved it; exhaustive: an exact planner refuted every smaller height.",
                   ABR_IN_HTML, true, true);
}

/* Every bound the run proved, per suite, with the certificate that proves it again. */
static void bounds(abr_table *t, const abr_model *m, ab_buf *tmp) {
    if (m->bounds.n == 0) return;
    abr_table_title(t, 2, "Bounds");
    abr_table_para(t, "Lower bounds on each suite's arena, each with its certificate (check-db "
                      "proves max-load and subset bounds again): max-load at an instruction, "
                      "the subset bound of a window of instructions (run --subset-bound), a "
                      "refutation by an exact search, GLPK's bound. Gaps are measured against "
                      "the best of them.", ABR_IN_BOTH, false, false);
    t->md_whole = true; /* a certificate is free text */
    abr_table_column(t, "suite", ABR_LEFT);
    abr_table_column(t, "kind", ABR_LEFT);
    abr_table_column(t, "bound", ABR_RIGHT);
    abr_table_column(t, "certificate", ABR_LEFT);
    abr_table_column(t, "asked by", ABR_LEFT);
    abr_table_column(t, "best", ABR_LEFT);
    for (size_t si = 0; si < m->nsu; si++) {
        const abr_rsuite *su = &m->su[si];
        for (size_t k = su->b0; k < su->b0 + su->nb; k++) {
            const abs_bound *b = &m->bounds.v[k];
            add_suite(t, m, si, tmp);
            abr_table_add(t, (abr_cell){.text = abo_bound_kind_word(b->b.kind)});
            add_i64(t, b->b.value, tmp);
            ab_buf_printf(fresh(tmp), "%s%s", b->b.certificate, b->b.capped ? " (capped)" : "");
            abr_table_add(t, (abr_cell){.text = text(t, tmp)});
            ab_buf_printf(fresh(tmp), "%s", b->source[0] ? b->source : "the suite");
            abr_table_add(t, (abr_cell){.text = text(t, tmp)});
            bool best = b->b.value != AB_NONE && b->b.value == su->bound;
            abr_table_add(t, (abr_cell){.text = best ? "best" : ""});
        }
    }
}

static void failures(abr_table *t, const abr_model *m, ab_buf *tmp) {
    size_t n = abr_failed_rows(m);
    abr_table_title(t, 2, "Failures");
    if (n == 0) {
        abr_table_para(t, "No failures.", ABR_IN_BOTH, false, false);
        return;
    }
    ab_buf_printf(fresh(tmp), "%zu failed results.", n);
    abr_table_para(t, text(t, tmp), ABR_IN_BOTH, false, false);
    t->md_whole = true; /* its last column is the message */
    abr_table_column(t, "suite", ABR_LEFT);
    abr_table_column(t, "planner", ABR_LEFT);
    abr_table_column(t, "status", ABR_LEFT);
    abr_table_column(t, "detail", ABR_LEFT);
    for (size_t i = 0; i < m->rows.n; i++) {
        if (row_ok(m, i)) continue;
        const abo_row *r = row_r(m, i);
        add_suite(t, m, m->rr[i].suite, tmp);
        abr_table_add(t, (abr_cell){.text = r->spec});
        abr_table_add(t, (abr_cell){.text = abo_status_word(r->status)});
        abr_put_detail(fresh(tmp), put, r);
        abr_table_add(t, (abr_cell){.text = text(t, tmp)});
    }
}

/* ---- bytes per pool -----------------------------------------------------------------
 * For suites that declare two or more pools, each valid row's plan is checked
 * again (the stored plan against the stored suite) to get the bytes it uses in
 * each pool: one table per suite. Needs the suite loader; without one the
 * section is left out. */

/* Suite si's arena view, rebuilt from the store's rows (abs_suite_view),
 * into *v (empty, npools 0, when it cannot: a suite stored before schema 5
 * with its view never filled). Returns AB_ENOMEM only: other failures leave
 * the suite out of the section. */
static ab_status stored_view(abs_store *s, const abr_model *m, size_t si, ab_problem *v,
                             ab_error *err) {
    ab_status st = abs_suite_view(s, suite_of(m, si)->id, v, err);
    return st == AB_ENOMEM ? st : AB_OK;
}

/* The pool table of suite si into *t (view its arena view, with its pools),
 * with no rows when no plan can be read again. Returns AB_ENOMEM only: a row
 * whose plan cannot be read again is left out. */
static ab_status pool_table(abr_table *t, abs_store *s, const abr_model *m, size_t si,
                            const ab_problem *view, ab_buf *tmp, ab_error *err) {
    const ab_problem *p = view;
    size_t np = p->npools < AB_MAX_POOLS ? p->npools : AB_MAX_POOLS;
    abr_put_suite(fresh(tmp), put, m, si);
    abr_table_title(t, 3, text(t, tmp));
    t->html_unaligned = true;
    abr_table_column(t, "planner", ABR_LEFT);
    for (size_t k = 0; k < np; k++) {
        ab_buf *h = fresh(tmp);
        put(h, p->pools[k].name ? p->pools[k].name : "?");
        if (p->pools[k].size != AB_NONE) ab_buf_printf(h, " (%lld)", (long long)p->pools[k].size);
        abr_table_column(t, text(t, tmp), ABR_RIGHT);
    }
    const abr_rsuite *su = &m->su[si];
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        int64_t *off = NULL;
        size_t n = 0;
        ab_plan pl;
        abo_report rep;
        if (!row_ok(m, i) || row_r(m, i)->plan_hash[0] == '\0') continue;
        ab_status st = abs_plan_get(s, row_r(m, i)->plan_hash, &off, &n, err);
        if (st == AB_ENOMEM) return st;
        if (st != AB_OK) continue;
        ab_plan_init(&pl);
        st = n == view->n ? ab_plan_from_offsets(&pl, off, n, err) : AB_EINPUT;
        if (st == AB_OK) st = abo_check(view, &pl, &rep, err);
        ab_plan_free(&pl);
        ab_free(off);
        if (st == AB_ENOMEM) return st;
        if (st != AB_OK) continue;
        abr_table_add(t, (abr_cell){.text = row_r(m, i)->spec});
        for (size_t k = 0; k < np; k++) abr_table_addf(t, "%lld", (long long)rep.pool_used[k]);
    }
    return AB_OK;
}

/* Appends an empty table to x->pools; NULL when out of memory. */
static abr_table *new_pool_table(abr_sections *x, size_t *cap) {
    if (!ab_grow((void **)&x->pools, cap, x->npools + 1, sizeof *x->pools)) return NULL;
    abr_table *t = &x->pools[x->npools++];
    abr_table_init(t);
    return t;
}

/* Appends the section's heading to x->pools; false when out of memory. */
static bool pool_heading(abr_sections *x, size_t *cap) {
    abr_table *t = new_pool_table(x, cap);
    if (t == NULL) return false;
    abr_table_title(t, 2, "Bytes per pool");
    abr_table_para(t, "Bytes each plan uses in each pool (the pool's size in the header).",
                   ABR_IN_BOTH, false, false);
    return true;
}

/* The "Bytes per pool" heading, then the tables of the suites with two or
 * more pools that have a row. */
static ab_status pools(abr_sections *x, abs_store *s, const abr_model *m, ab_buf *tmp,
                       ab_error *err) {
    size_t cap = 0;
    abr_table t;
    abr_table_init(&t);
    ab_status st = AB_OK;
    for (size_t si = 0; si < m->nsu && st == AB_OK; si++) {
        ab_problem view;
        st = stored_view(s, m, si, &view, err);
        if (st == AB_OK && view.npools >= 2) st = pool_table(&t, s, m, si, &view, tmp, err);
        ab_problem_free(&view);
        if (st != AB_OK || abr_table_rows(&t) == 0) {
            if (t.oom && st == AB_OK)
                st = ab_fail(err, AB_ENOMEM, "out of memory building the report");
            abr_table_free(&t);
            continue;
        }
        if (x->npools == 0 && !pool_heading(x, &cap)) st = AB_ENOMEM;
        abr_table *slot = st == AB_OK ? new_pool_table(x, &cap) : NULL;
        if (slot == NULL) {
            abr_table_free(&t);
            return ab_fail(err, AB_ENOMEM, "out of memory building the report");
        }
        *slot = t;
        abr_table_init(&t);
    }
    return st;
}

/* ---- what makes up the peak ------------------------------------------------------- */

#define PEAK_ROWS 5 /* tensors shown per suite, largest first; the rest in one row */

/* The rows of suite si (p its arena view) in the peak table: its largest tensors
 * live at the max-load instruction, then one row for the others. */
static ab_status peak_rows(abr_table *t, const abr_model *m, size_t si, const ab_problem *p,
                           ab_buf *tmp, ab_error *err) {
    abo_bounds b;
    size_t *idx = NULL, n = 0;
    ab_status st = abo_bounds_compute(p, &b, err);
    if (st != AB_OK || b.max_load_count == 0) return st == AB_ENOMEM ? st : AB_OK;
    st = abo_live_at(p, b.max_load_instr, &idx, &n, err);
    if (st != AB_OK) return st;
    int64_t rest = 0;
    for (size_t i = 0; i < n; i++) {
        const ab_tensor *x = &p->t[idx[i]];
        if (i >= PEAK_ROWS) {
            rest += x->size;
            continue;
        }
        if (i == 0) {
            add_suite(t, m, si, tmp);
            abr_table_addf(t, "%lld at %lld", (long long)b.max_load, (long long)b.max_load_instr);
        } else {
            abr_table_add(t, (abr_cell){0});
            abr_table_add(t, (abr_cell){0});
        }
        abr_table_add(t, (abr_cell){.text = x->name});
        abr_table_addf(t, "%lld", (long long)x->size);
        abr_table_addf(t, "%.1f%%", 100.0 * (double)x->size / (double)b.max_load);
    }
    if (n > PEAK_ROWS) {
        abr_table_add(t, (abr_cell){0});
        abr_table_add(t, (abr_cell){0});
        abr_table_addf(t, "%zu more", n - PEAK_ROWS);
        abr_table_addf(t, "%lld", (long long)rest);
        abr_table_addf(t, "%.1f%%", 100.0 * (double)rest / (double)b.max_load);
    }
    ab_free(idx);
    return AB_OK;
}

/* "What makes up the peak": per suite, the tensors live at its max-load
 * instruction (name, bytes, share of the peak), read from the stored arena
 * view; no table without rows. */
static ab_status peaks(abr_table *t, abs_store *s, const abr_model *m, ab_buf *tmp,
                       ab_error *err) {
    abr_table_title(t, 2, "What makes up the peak");
    abr_table_para(t, "Per suite, the tensors live at the instruction where the live bytes peak "
                      "(the max-load lower bound), largest first, with their share of the peak; "
                      "sizes in bytes.", ABR_IN_BOTH, false, false);
    abr_table_column(t, "suite", ABR_LEFT);
    abr_table_column(t, "peak at instruction", ABR_RIGHT);
    abr_table_column(t, "tensor", ABR_LEFT);
    abr_table_column(t, "size", ABR_RIGHT);
    abr_table_column(t, "share", ABR_RIGHT);
    ab_status st = AB_OK;
    for (size_t si = 0; si < m->nsu && st == AB_OK; si++) {
        ab_problem p;
        st = stored_view(s, m, si, &p, err);
        if (st == AB_OK && p.n > 0) st = peak_rows(t, m, si, &p, tmp, err);
        ab_problem_free(&p);
    }
    if (st == AB_OK && !t->oom && abr_table_rows(t) == 0) {
        abr_table_free(t);
        abr_table_init(t);
    }
    return st;
}

/* ---- real models and traces: best greedy against best ------------------------------ */

/* A gap as a cell, two significant digits when small ("-" when none). */
static void add_gap(abr_table *t, bool has, double gap, ab_buf *tmp) {
    if (has) abr_put_excess(fresh(tmp), gap);
    else abr_put_gap(fresh(tmp), false, 0);
    abr_table_add(t, (abr_cell){.text = text(t, tmp)});
}

/* A row of the real table: the plan's word ("greedy", "best", "both") and
 * row i's spec label, its arena, how much larger than the best (over best)
 * and its gap to the best bound; i SIZE_MAX: no valid plan. */
static void real_row(abr_table *t, const abr_model *m, const abr_real *r, const char *word,
                     size_t i, ab_buf *tmp) {
    if (strcmp(word, "best") == 0) abr_table_add(t, (abr_cell){0});
    else add_suite(t, m, r->suite, tmp);
    if (i == SIZE_MAX) {
        abr_table_addf(t, "%s: no valid plan", word);
        for (int k = 0; k < 3; k++) abr_table_add(t, (abr_cell){.text = "-"});
        return;
    }
    char label[96];
    abr_spec_label(row_r(m, i)->spec, label, sizeof label);
    abr_table_addf(t, "%s: %s", word, label);
    abr_table_addf(t, "%lld", (long long)row_r(m, i)->arena);
    double excess;
    fresh(tmp);
    if (strcmp(word, "best") != 0 && abr_real_excess(m, r, &excess))
        abr_put_excess(tmp, excess);
    else put(tmp, "-");
    abr_table_add(t, (abr_cell){.text = text(t, tmp)});
    const abr_rsuite *su = &m->su[r->suite];
    if (su->bound != AB_NONE && row_r(m, i)->arena == su->bound) /* the proof: certificates */
        abr_table_add(t, (abr_cell){.text = "optimal"});
    else
        add_gap(t, m->rr[i].has_gap, m->rr[i].gap, tmp);
}

/* How many of the real suites are of kind k. */
static size_t real_count(const abr_reals *rs, abr_real_kind k) {
    size_t n = 0;
    for (size_t q = 0; q < rs->n; q++) n += rs->v[q].kind == k;
    return n;
}

/* "Real models and traces": one or two rows per real suite (real.h). */
static void real_table(abr_table *t, const abr_model *m, const abr_reals *rs, ab_buf *tmp) {
    abr_table_title(t, 2, "Real models and traces: best greedy against best");
    if (rs->n == 0) {
        abr_table_para(t, "No real model or trace among this run's suites: none was imported "
                          "from a model file (TFLite, ONNX) or a compiler trace (MiniMalloc "
                          "CSV), and none is a published network's layers (the mobilenet_v1, "
                          "mobilenet_v2, resnet18 and squeezenet generators).", ABR_IN_BOTH,
                       false, false);
        return;
    }
    fresh(tmp);
    ab_buf_printf(tmp, "%zu of the run's %zu suites are real: %zu imported from a model file "
                       "(TFLite, ONNX), %zu a published network's layers (suites/models/, by "
                       "the generators), %zu a compiler's trace (MiniMalloc CSV). Per suite, "
                       "the smallest arena of a greedy planner (one that is not exact) against "
                       "the smallest of all; both: the best greedy plan is the best. Largest "
                       "loss first.", rs->n, m->nsu, real_count(rs, ABR_REAL_MODEL),
                  real_count(rs, ABR_REAL_NETWORK), real_count(rs, ABR_REAL_TRACE));
    abr_table_para(t, text(t, tmp), ABR_IN_BOTH, false, false);
    abr_table_column(t, "suite", ABR_LEFT);
    abr_table_column(t, "plan: planner", ABR_LEFT);
    abr_table_column(t, "arena", ABR_RIGHT);
    abr_table_column(t, "over best", ABR_RIGHT);
    abr_table_column(t, "gap to bound", ABR_LEFT);
    for (size_t q = 0; q < rs->n; q++) {
        const abr_real *r = &rs->v[q];
        if (abr_real_greedy_is_best(m, r)) {
            real_row(t, m, r, "both", r->greedy, tmp);
            continue;
        }
        real_row(t, m, r, "greedy", r->greedy, tmp);
        real_row(t, m, r, "best", r->best, tmp);
    }
    abr_table_para(t, "planner: the spec's label (the Planners table gives the spec); over "
                      "best: the greedy arena / the best arena - 1; gap to bound: to the "
                      "suite's best lower bound, optimal when the arena equals it (the "
                      "Optimality certificates name the proof).", ABR_IN_BOTH, true, true);
}

/* ---- all of them -------------------------------------------------------------------- */

ab_status abr_sections_build(abs_store *s, const abr_model *m, abr_sections *x, ab_error *err) {
    memset(x, 0, sizeof *x);
    abr_table *all[] = {&x->planners, &x->timing, &x->suites, &x->io, &x->certificates,
                        &x->bounds, &x->capacity, &x->failures, &x->peaks, &x->real};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) abr_table_init(all[k]);
    ab_buf tmp = {0};
    planners(&x->planners, m, &tmp);
    timing(&x->timing, m);
    suites(&x->suites, m, &tmp);
    io_table(&x->io, m);
    certificates(&x->certificates, m, &tmp);
    bounds(&x->bounds, m, &tmp);
    capacities(&x->capacity, m, &tmp);
    failures(&x->failures, m, &tmp);
    ab_status st = pools(x, s, m, &tmp, err);
    if (st == AB_OK) st = peaks(&x->peaks, s, m, &tmp, err);
    if (st == AB_OK) st = abr_reals_find(s, m, &x->reals, err);
    if (st == AB_OK) real_table(&x->real, m, &x->reals, &tmp);
    ab_buf_free(&tmp);
    if (st != AB_OK) return st;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        if (all[k]->oom) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    for (size_t k = 0; k < x->npools; k++)
        if (x->pools[k].oom) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    return AB_OK;
}

void abr_sections_free(abr_sections *x) {
    if (x == NULL) return;
    abr_table *all[] = {&x->planners, &x->timing, &x->suites, &x->io, &x->certificates,
                        &x->bounds, &x->capacity, &x->failures, &x->peaks, &x->real};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) abr_table_free(all[k]);
    abr_reals_free(&x->reals);
    for (size_t k = 0; k < x->npools; k++) abr_table_free(&x->pools[k]);
    ab_free(x->pools);
    memset(x, 0, sizeof *x);
}
