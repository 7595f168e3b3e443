/*
 * compare_text.c — the compare as Markdown-style text: the two runs, the
 * thresholds, one table line per change, the notice when specs changed, the
 * spec pairs with their geometric means (and, with explicit pairs, the rows
 * per suite), the counts and the verdict.
 */
#include <string.h>

#include "results/report/compare_int.h"

static void put(ab_buf *b, const char *s) { ab_buf_append(b, s, strlen(s)); }

/* A Markdown table cell: core's Markdown escape (DESIGN.md §5). */
static void esc_md(ab_buf *b, const char *s) { ab_buf_md(b, s); }

/* true when side d has a suite named like w's with another hash. */
static bool other_hash(const abr_cside *d, const abs_row *w) {
    for (size_t i = 0; i < d->rows.n; i++) {
        const abs_suite *s = &d->rows.v[i].suite;
        if (strcmp(s->name, w->suite.name) == 0 && strcmp(s->hash, w->suite.hash) != 0)
            return true;
    }
    return false;
}

/* The suite's name, with 8 digits of its hash when the name is ambiguous. */
static void put_suite(ab_buf *b, const abr_cctx *c, const abs_row *w) {
    esc_md(b, w->suite.name);
    if (other_hash(&c->base, w) || other_hash(&c->head, w))
        ab_buf_printf(b, "@%.8s", w->suite.hash);
}

/* A key's specs: "A" when both sides have the same, else "A -> B". */
static void put_key(ab_buf *b, const abr_ckey *k) {
    esc_md(b, k->base_spec);
    if (strcmp(k->base_spec, k->head_spec) != 0) {
        put(b, " -> ");
        esc_md(b, k->head_spec);
    }
}

/* What a row holds in one cell: its status, with the arena when ok. */
static void put_state(ab_buf *b, const abr_crow *x) {
    if (x == NULL) put(b, "-");
    else if (abr_crow_ok(x) && x->w->r.arena != AB_NONE)
        ab_buf_printf(b, "ok %lld", (long long)x->w->r.arena);
    else put(b, abo_status_word(x->w->r.status));
}

/* Why a row failed: its signal, then its first message. */
static void put_why(ab_buf *b, const abr_crow *x) {
    const abo_row *r = &x->w->r;
    if (r->signal != 0) ab_buf_printf(b, "signal %d", r->signal);
    const char *msg = r->error ? r->error : r->check_message ? r->check_message : r->note;
    if (msg != NULL && msg[0] != '\0') {
        if (r->signal != 0) put(b, ": ");
        esc_md(b, msg);
    }
}

static void put_states(ab_buf *b, const abr_crow *x0, const abr_crow *x1) {
    put_state(b, x0);
    put(b, " | ");
    put_state(b, x1);
    put(b, " | ");
}

/* Seconds: "1.234 s", or "12.35 ms" under a second. */
static void put_seconds(ab_buf *b, double s) {
    if (s < 1.0) ab_buf_printf(b, "%.2f ms", s * 1e3);
    else ab_buf_printf(b, "%.3f s", s);
}

/* A CPU time: the median, with the spread when there is one. */
static void put_cpu(ab_buf *b, const abr_crow *x) {
    if (x->cpu_med < 0) {
        put(b, "-");
        return;
    }
    put_seconds(b, x->cpu_med);
    if (x->cpu_min != x->cpu_max) {
        put(b, " (");
        put_seconds(b, x->cpu_min);
        put(b, " .. ");
        put_seconds(b, x->cpu_max);
        put(b, ")");
    }
}

/* An arena and its proof, for the capped line. */
static void put_arena_proof(ab_buf *b, const abr_crow *x) {
    ab_buf_printf(b, "%lld %s", (long long)x->w->r.arena, abo_proof_word(x->w->r.proven_by));
    if (x->capped[0]) ab_buf_printf(b, " (capped: %s)", x->capped);
}

static void put_timing(ab_buf *b, const abr_cline *l) {
    put_cpu(b, l->b);
    put(b, " | ");
    put_cpu(b, l->h);
    put(b, " | ");
    double r = abr_cpu_ratio(l->b, l->h);
    if (r >= 0) ab_buf_printf(b, "CPU x%.2f", r);
    bool slower = l->c == ABR_CHANGE_SLOWER;
    put(b, slower ? "; head's least " : "; head's greatest ");
    put_seconds(b, slower ? l->h->cpu_min : l->h->cpu_max);
    put(b, slower ? " vs base's greatest " : " vs base's least ");
    put_seconds(b, slower ? l->b->cpu_max : l->b->cpu_min);
}

/* A row's CPU and wall time: "18.600 s of CPU in 601.000 s of wall time". */
static void put_cpu_wall(ab_buf *b, const abr_crow *x) {
    put_cpu(b, x);
    put(b, " of CPU in ");
    if (x->w->r.wall_s >= 0) put_seconds(b, x->w->r.wall_s);
    else put(b, "-");
    put(b, " of wall time");
}

/* The base, head and detail cells of line l. */
static void put_cells(ab_buf *b, const abr_cctx *c, const abr_cline *l) {
    const abr_crow *x0 = l->b, *x1 = l->h;
    switch (l->c) {
    case ABR_CHANGE_ARENA_GREW:
    case ABR_CHANGE_ARENA_SHRANK: {
        int64_t a = x0->w->r.arena, d = x1->w->r.arena - a;
        ab_buf_printf(b, "%lld | %lld | %+lld bytes", (long long)a, (long long)x1->w->r.arena,
                      (long long)d);
        if (a > 0) ab_buf_printf(b, " (%+.2f%%)", 100.0 * (double)d / (double)a);
        break;
    }
    case ABR_CHANGE_PROOF_LOST:
    case ABR_CHANGE_PROVEN:
        ab_buf_printf(b, "%s | %s | arena %lld -> %lld", abo_proof_word(x0->w->r.proven_by),
                      abo_proof_word(x1->w->r.proven_by), (long long)x0->w->r.arena,
                      (long long)x1->w->r.arena);
        break;
    case ABR_CHANGE_SLOWER:
    case ABR_CHANGE_FASTER:
        put_timing(b, l);
        break;
    case ABR_CHANGE_CAPPED:
        put_arena_proof(b, x0);
        put(b, " | ");
        put_arena_proof(b, x1);
        ab_buf_printf(b, " | stopped on a safety cap (%s), not its budget: the arena or proof "
                         "may depend on the machine's load", x0->capped[0] ? x0->capped : x1->capped);
        break;
    case ABR_CHANGE_CAPPED_LOAD:
        put_states(b, x0, x1);
        put(b, "stopped by the wall-clock cap, not its work: ");
        put_cpu_wall(b, x1);
        put(b, " (base ok in ");
        put_cpu_wall(b, x0);
        put(b, "); ");
        put_why(b, x1);
        break;
    case ABR_CHANGE_CONTRADICTION:
        ab_buf_printf(b, "infeasible (run %lld) | ok %lld (run %lld, ", (long long)x0->w->r.run,
                      (long long)x1->w->r.arena, (long long)x1->w->r.run);
        esc_md(b, x1->w->r.spec);
        ab_buf_printf(b, ") | proved no plan fits (lower bound %lld), yet a plan fits; ",
                      (long long)x0->w->r.lower_bound);
        put_why(b, x0);
        break;
    case ABR_CHANGE_SPEC_GONE:
    case ABR_CHANGE_SPEC_NEW: {
        bool gone = l->c == ABR_CHANGE_SPEC_GONE;
        const abr_ckey *k = &c->keys[l->k];
        if (gone) ab_buf_printf(b, "%zu rows | - | no rows of ", l->count);
        else ab_buf_printf(b, "- | %zu rows | no rows of ", l->count);
        esc_md(b, gone ? k->head_spec : k->base_spec);
        put(b, gone ? " in head" : " in base");
        break;
    }
    case ABR_CHANGE_FAILED:
    case ABR_CHANGE_STATUS:
        put_states(b, x0, x1);
        if (x0 != NULL && abr_crow_proven(x0))
            ab_buf_printf(b, "was proven (%s); ", abo_proof_word(x0->w->r.proven_by));
        put_why(b, x1);
        break;
    default: /* fixed, new, gone */
        put_states(b, x0, x1);
        if (x1 != NULL && abr_crow_proven(x1))
            ab_buf_printf(b, "proven (%s)", abo_proof_word(x1->w->r.proven_by));
        else if (x0 != NULL && !abr_crow_ok(x0)) put_why(b, x0);
        else if (x0 == NULL && !abr_crow_ok(x1)) put_why(b, x1);
    }
}

static const char *class_label(const abr_cctx *c, abr_change k) {
    int cls = abr_change_class(k);
    if (abr_cclass_fails(c, cls)) return "REGRESSION";
    switch (cls) {
    case 0: return "improvement";
    case 4: return "warning";
    case 5: return "not judged";
    default: return "note";
    }
}

static void put_line(ab_buf *b, const abr_cctx *c, const abr_cline *l) {
    ab_buf_printf(b, "| %s | %s | ", class_label(c, l->c), abr_change_word(l->c));
    if (l->c == ABR_CHANGE_CONTRADICTION) { /* the refuting row's line */
        put_suite(b, c, l->b->w);
        put(b, " | ");
        esc_md(b, l->b->w->r.spec);
    } else {
        const abr_crow *x = l->h ? l->h : l->b;
        if (x != NULL) put_suite(b, c, x->w);
        else ab_buf_printf(b, "(%zu suites)", l->count);
        put(b, " | ");
        put_key(b, &c->keys[l->k]);
    }
    put(b, " | ");
    put_cells(b, c, l);
    put(b, " |\n");
}

static void put_run_field(ab_buf *b, const char *key, const char *v0, const char *v1) {
    ab_buf_printf(b, "| %s | ", key);
    esc_md(b, v0 ? v0 : "-");
    put(b, " | ");
    esc_md(b, v1 ? v1 : "-");
    put(b, " |\n");
}

static void put_header(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum) {
    const abs_run *r0 = &c->base.run, *r1 = &c->head.run;
    ab_buf_printf(b, "# arenabench compare: run %lld -> run %lld\n\n| | base | head |\n"
                     "|---|---|---|\n| run | %lld | %lld |\n",
                  (long long)r0->id, (long long)r1->id, (long long)r0->id, (long long)r1->id);
    put_run_field(b, "tag", r0->tag, r1->tag);
    put_run_field(b, "revision", r0->revision, r1->revision);
    put_run_field(b, "host", r0->host, r1->host);
    put_run_field(b, "started", r0->started, r1->started);
    put_run_field(b, "status", abs_run_status_word(r0->status), abs_run_status_word(r1->status));
    ab_buf_printf(b, "| results | %zu | %zu |\n\n", c->base.rows.n, c->head.rows.n);
    ab_buf_printf(b, "Timing is judged on CPU time (%s): slower when head's least time is at "
                     "least x%.2f base's greatest and %.3f s more; faster when base's least is "
                     "x%.2f head's greatest and %.3f s more. Slower is %s.\n\n",
                  sum->spread ? "the min-max spread of repeated runs" : "one sample a row",
                  c->opt.slow_ratio, c->opt.slow_min_s, c->opt.fast_ratio, c->opt.fast_min_s,
                  c->opt.fail_on_time ? "a regression (--fail-on-time)"
                                      : "a warning (--fail-on-time makes it a regression)");
}

/* ---- the notice ------------------------------------------------------------------ */

static void put_hint(void *arg, const char *gone, const char *nu) {
    ab_buf *b = arg;
    put(b, "  --pair '");
    ab_buf_term(b, gone);
    put(b, "=");
    ab_buf_term(b, nu);
    put(b, "'\n");
}

/* The specs of one side only, comma-separated. */
static void put_spec_list(ab_buf *b, const abr_cctx *c, bool gone) {
    const char *sep = "";
    for (size_t i = 0; i < c->nkeys; i++) {
        const abr_ckey *k = &c->keys[i];
        if (gone ? k->head_rows != 0 : k->base_rows != 0) continue;
        put(b, sep);
        ab_buf_term(b, gone ? k->base_spec : k->head_spec);
        sep = ", ";
    }
}

static void put_notice(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum) {
    if (sum->specs_gone == 0 && sum->specs_new == 0) return;
    ab_buf_printf(b, "\nNotice: the specs changed: %zu only in base (", sum->specs_gone);
    put_spec_list(b, c, true);
    ab_buf_printf(b, "), %zu only in head (", sum->specs_new);
    put_spec_list(b, c, false);
    put(b, "). Their rows are not compared");
    if (sum->matched == 0) put(b, ", and no pair of rows matched: NOTHING WAS COMPARED");
    put(b, ".\n");
    ab_buf tmp = {0};
    abr_pair_hints(c, put_hint, &tmp);
    if (tmp.oom) {
        b->oom = true;
    } else if (tmp.n > 0) {
        put(b, "To compare a changed spec with its old self, pair them (compare --pair "
               "OLD=NEW, repeatable):\n");
        ab_buf_append(b, tmp.s, tmp.n);
    } else {
        put(b, "To compare two specs, pair them: compare --pair OLD=NEW (repeatable).\n");
    }
    ab_buf_free(&tmp);
}

/* ---- the spec pairs ------------------------------------------------------------------ */

static void put_ratio(ab_buf *b, double r, size_t n) {
    if (r < 0) put(b, "-");
    else ab_buf_printf(b, "x%.4f (%zu)", r, n);
}

static void put_pairs(ab_buf *b, const abr_cctx *c) {
    put(b, "\n## Spec pairs\n\nGeometric means over the suites ok on both sides (head / base; "
           "CPU: medians), with how many suites entered.\n\n"
           "| base spec | head spec | base rows | head rows | matched | arena | CPU |\n"
           "|---|---|--:|--:|--:|--:|--:|\n");
    for (size_t i = 0; i < c->nkeys; i++) {
        const abr_ckey *k = &c->keys[i];
        put(b, "| ");
        esc_md(b, k->base_spec);
        put(b, " | ");
        esc_md(b, k->head_spec);
        ab_buf_printf(b, " | %zu | %zu | %zu | ", k->base_rows, k->head_rows, k->matched);
        put_ratio(b, abr_geomean(k->arena_log, k->arena_n), k->arena_n);
        put(b, " | ");
        put_ratio(b, abr_geomean(k->cpu_log, k->cpu_n), k->cpu_n);
        put(b, " |\n");
    }
}

/* The per-suite rows of key k (explicit pairs only). */
static void put_suites_of(ab_buf *b, const abr_cctx *c, size_t k) {
    put(b, "\n### ");
    put_key(b, &c->keys[k]);
    put(b, "\n\n| suite | base | head | arena | base CPU | head CPU | CPU |\n"
           "|---|--:|--:|--:|--:|--:|--:|\n");
    for (size_t i = 0; i < c->nm; i++) {
        const abr_cmatch *m = &c->m[i];
        if (m->k != k) continue;
        put(b, "| ");
        put_suite(b, c, m->b->w);
        put(b, " | ");
        put_states(b, m->b, m->h);
        int64_t a0 = m->b->w->r.arena, a1 = m->h->w->r.arena;
        if (abr_crow_ok(m->b) && abr_crow_ok(m->h) && a0 > 0)
            ab_buf_printf(b, "%+.2f%%", 100.0 * (double)(a1 - a0) / (double)a0);
        else put(b, "-");
        put(b, " | ");
        put_cpu(b, m->b);
        put(b, " | ");
        put_cpu(b, m->h);
        put(b, " | ");
        double r = abr_cpu_ratio(m->b, m->h);
        if (r >= 0) ab_buf_printf(b, "x%.2f", r);
        else put(b, "-");
        put(b, " |\n");
    }
}

static void put_summary(ab_buf *b, const abr_cctx *c, const abr_compare_summary *s) {
    ab_buf_printf(b, "\n%zu regressions, %zu warnings, %zu improvements, %zu not judged, %zu "
                     "other changes, %zu new, %zu gone, %zu specs new, %zu specs gone; %zu "
                     "pairs matched, %zu unchanged.\n",
                  s->regressions, s->warnings, s->improvements, s->not_judged, s->other,
                  s->added, s->removed, s->specs_new, s->specs_gone, s->matched, s->unchanged);
    if (s->regressions > 0) ab_buf_printf(b, "Result: REGRESSION (%zu).\n", s->regressions);
    else if (s->matched == 0 && (c->base.rows.n > 0 || c->head.rows.n > 0))
        put(b, "Result: nothing compared (no pair of rows matched; see the notice).\n");
    else {
        put(b, "Result: no regression");
        if (s->warnings > 0) ab_buf_printf(b, "; %zu timing warnings", s->warnings);
        if (s->by_change[ABR_CHANGE_CAPPED_LOAD] > 0)
            ab_buf_printf(b, "; %zu rows capped under load (stopped by the wall clock, not "
                             "judged)", s->by_change[ABR_CHANGE_CAPPED_LOAD]);
        if (s->specs_new + s->specs_gone > 0)
            ab_buf_printf(b, "; only %zu pairs matched: %zu specs changed and were not compared "
                             "(see the notice)", s->matched, s->specs_new + s->specs_gone);
        put(b, ".\n");
    }
}

void abr_compare_text(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum) {
    put_header(b, c, sum);
    if (c->n == 0) {
        put(b, "No changes.\n");
    } else {
        put(b, "| | change | suite | planner | base | head | detail |\n"
               "|---|---|---|---|--:|--:|---|\n");
        for (size_t i = 0; i < c->n; i++) put_line(b, c, &c->v[i]);
    }
    put_notice(b, c, sum);
    if (c->nkeys > 0) put_pairs(b, c);
    for (size_t k = 0; c->explicit_pairs && k < c->nkeys; k++)
        if (c->keys[k].matched > 0) put_suites_of(b, c, k);
    put_summary(b, c, sum);
}
