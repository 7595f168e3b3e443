/*
 * report_json.c — the report as JSON: {"run", "planners", "suites", "rows"},
 * UTF-8 (invalid bytes in stored text become U+FFFD), absent values null.
 */
#include "results/report/render.h"

/* The length of the valid UTF-8 sequence at p, or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p) {
    unsigned c = p[0];
    if (c < 0x80) return 1;
    size_t n = c < 0xC2 ? 0 : c <= 0xDF ? 2 : c <= 0xEF ? 3 : c <= 0xF4 ? 4 : 0;
    if (n == 0) return 0;
    unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF) return 0;
    return n;
}

/* A JSON string (null for NULL); invalid UTF-8 becomes U+FFFD. */
static void json_str(ab_buf *b, const char *s) {
    if (s == NULL) {
        put(b, "null");
        return;
    }
    ab_buf_append(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_len(p);
        if (*p == '"' || *p == '\\') ab_buf_printf(b, "\\%c", *p);
        else if (*p == '\n') put(b, "\\n");
        else if (*p == '\r') put(b, "\\r");
        else if (*p == '\t') put(b, "\\t");
        else if (*p < 0x20) ab_buf_printf(b, "\\u%04x", *p);
        else if (n == 0) put(b, "\\ufffd");
        else ab_buf_append(b, (const char *)p, n);
        p += n ? n : 1;
    }
    ab_buf_append(b, "\"", 1);
}


static void json_value(ab_buf *b, const abr_field *f) {
    if (f->null) {
        put(b, "null");
        return;
    }
    switch (f->t) {
    case ABR_F_INT: ab_buf_printf(b, "%lld", (long long)f->i); break;
    case ABR_F_REAL: ab_buf_printf(b, "%.6f", f->d); break;
    case ABR_F_STR: json_str(b, f->s); break;
    case ABR_F_BOOL: put(b, f->i ? "true" : "false"); break;
    }
}

/* "name": value pairs, separated by ", ". */
static void json_fields(ab_buf *b, const abr_field *f, size_t n) {
    for (size_t k = 0; k < n; k++) {
        ab_buf_printf(b, "%s\"%s\": ", k ? ", " : "", f[k].name);
        json_value(b, &f[k]);
    }
}

static void json_object(ab_buf *b, const abr_field *f, size_t n) {
    put(b, "{");
    json_fields(b, f, n);
    put(b, "}");
}

static void json_run(ab_buf *b, const abr_model *m) {
    const abs_run *r = &m->run;
    abr_field f[] = {fi("id", r->id), fs("key", r->key), fs("tag", r->tag),
                 fs("revision", r->revision), fs("host", r->host), fs("command", r->command),
                 fs("started", r->started), fs("finished", r->finished),
                 fs("status", abs_run_status_word(r->status))};
    put(b, "  \"run\": ");
    json_object(b, f, sizeof f / sizeof f[0]);
    put(b, ",\n");
    ab_buf text = {0}; /* the verdict against the base run, and its counts */
    abr_put_run_verdict(&text, put, m);
    if (text.oom) b->oom = true;
    abr_row_counts c = abr_count_rows(m);
    abr_field v[] = {fi("base", m->base ? m->base : AB_NONE),
                     fi("regressions", (int64_t)m->cmp.regressions),
                     fi("improvements", (int64_t)m->cmp.improvements),
                     fi("not_judged", (int64_t)m->cmp.not_judged),
                     fi("valid", (int64_t)c.valid), fi("failed", (int64_t)c.failed),
                     fi("stopped", (int64_t)c.stopped), fi("capped", (int64_t)c.capped),
                     fi("capacity", (int64_t)c.capacity), fs("text", text.s ? text.s : "")};
    put(b, "  \"verdict\": ");
    json_object(b, v, sizeof v / sizeof v[0]);
    put(b, ",\n");
    ab_buf_free(&text);
}

static void json_planners(ab_buf *b, const abr_model *m) {
    put(b, "  \"planners\": [");
    for (size_t j = 0; j < m->nsp; j++) {
        const abr_rspec *p = &m->sp[j];
        double g = p->nratio ? exp(p->logsum / (double)p->nratio) : 0.0;
        abr_field f[14 + ABO_NSTATUSES];
        abr_times t;
        if (!abr_spec_times(m, j, &t)) b->oom = true; /* the render fails */
        size_t n = 0;
        f[n++] = fs("spec", p->spec);
        f[n++] = fi("suites", (int64_t)p->rows);
        for (int s = 0; s < ABO_NSTATUSES; s++)
            f[n++] = fi(abo_status_word((abo_status)s), (int64_t)p->status[s]);
        f[n++] = fr("geomean_ratio", g, p->nratio == 0);
        f[n++] = fi("ratios", (int64_t)p->nratio);
        f[n++] = fi("proven", (int64_t)p->proven);
        f[n++] = fi("wins", (int64_t)p->wins);
        f[n++] = fi("runs", (int64_t)t.runs);
        f[n++] = fr("cpu_median_s", t.cpu, isnan(t.cpu));
        f[n++] = fr("wall_median_s", t.wall, isnan(t.wall));
        f[n++] = fr("plan_cpu_median_s", t.plan_cpu, isnan(t.plan_cpu));
        f[n++] = fi("peak_rss_median", isnan(t.rss) ? AB_NONE : (int64_t)t.rss);
        f[n++] = fi("peak_rss_max", isnan(t.rss_max) ? AB_NONE : (int64_t)t.rss_max);
        f[n++] = fi("capped", (int64_t)t.capped);
        put(b, j ? ",\n    " : "\n    ");
        json_object(b, f, n);
    }
    put(b, m->nsp ? "\n  ],\n" : "],\n");
}

/* Writes what fn writes (raw text, through tmp) as one JSON string. */
static void json_text(ab_buf *b, ab_buf *tmp, void (*fn)(ab_buf *, const abr_model *, size_t),
                      const abr_model *m, size_t si) {
    tmp->n = 0;
    if (tmp->s) tmp->s[0] = '\0';
    fn(tmp, m, si);
    json_str(b, tmp->oom ? "" : (tmp->s ? tmp->s : ""));
    if (tmp->oom) b->oom = true;
}

static void put_bound_src_raw(ab_buf *b, const abr_model *m, size_t si) {
    abr_put_bound_src(b, put, m, si, false);
}
static void put_winners_raw(ab_buf *b, const abr_model *m, size_t si) {
    abr_put_winners(b, put, m, si, false);
}

static void put_cap_by_raw(ab_buf *b, const abr_model *m, size_t si) {
    abr_put_cap_by(b, put, m, si, false);
}

/* The capacity decision's fields (model.h: abr_cap), null without a capacity:
 * the capacity; the decision's key word; the smallest arena within the
 * capacity and its gap to the best bound (when it fits); the range [best
 * bound, smallest valid plan] the smallest arena lies in; the specs of that
 * smallest plan; why it is not decided. */
static void json_capacity(ab_buf *b, ab_buf *tmp, const abr_model *m, size_t si) {
    const abr_rsuite *su = &m->su[si];
    bool has = su->cap != ABR_CAP_NONE;
    double gap = 0.0;
    bool has_gap = abr_cap_gap(m, si, &gap);
    abr_field f[] = {fi("capacity", has ? su->capacity : AB_NONE),
                     fs("capacity_verdict", abr_cap_key(su->cap)),
                     fi("capacity_arena", has ? su->cap_arena : AB_NONE),
                     fr("capacity_gap", gap, !has_gap)};
    put(b, ", ");
    json_fields(b, f, sizeof f / sizeof f[0]);
    put(b, ", \"capacity_bracket\": ");
    if (has) {
        abr_field lo = fi("", su->bound), hi = fi("", su->cap_upper);
        put(b, "[");
        json_value(b, &lo);
        put(b, ", ");
        json_value(b, &hi);
        put(b, "]");
    } else {
        put(b, "null");
    }
    put(b, ", \"capacity_reached_by\": ");
    if (has && su->cap_upper != AB_NONE) json_text(b, tmp, put_cap_by_raw, m, si);
    else put(b, "null");
    abr_field g[] = {fs("capacity_undecided", abr_cap_open_key(su->open))};
    put(b, ", ");
    json_fields(b, g, 1);
}

static void json_suite(ab_buf *b, ab_buf *tmp, const abr_model *m, size_t si) {
    const abs_suite *s = suite_of(m, si);
    const abr_rsuite *su = &m->su[si];
    bool optimal = su->best != AB_NONE && su->best == su->bound;
    abr_field f[] = {fs("name", s->name), fs("hash", s->hash), fi("tensors", s->tensors),
                 fi("max_load", s->peak_live_bytes), fi("stored_bound", s->lower_bound),
                 fi("optimum", s->optimum), fi("logical_bytes", s->logical_bytes),
                 fi("physical_bytes", s->physical_bytes), fi("best_arena", su->best),
                 fi("best_bound", su->bound), fb("optimal", optimal),
                 fs("proof", optimal ? abo_proof_word(abr_bound_proof(m, si)) : NULL)};
    put(b, "{");
    json_fields(b, f, sizeof f / sizeof f[0]);
    put(b, ", \"bound_from\": ");
    json_text(b, tmp, put_bound_src_raw, m, si);
    put(b, ", \"reached_by\": ");
    json_text(b, tmp, put_winners_raw, m, si);
    put(b, ", \"bounds\": ["); /* the run's bounds of the suite, with their certificates */
    for (size_t k = su->b0; k < su->b0 + su->nb; k++) {
        const abs_bound *x = &m->bounds.v[k];
        abr_field g[] = {fs("kind", abo_bound_kind_word(x->b.kind)), fi("value", x->b.value),
                         fs("certificate", x->b.certificate),
                         fs("source", x->source[0] ? x->source : NULL),
                         fb("capped", x->b.capped)};
        put(b, k > su->b0 ? ", " : "");
        json_object(b, g, sizeof g / sizeof g[0]);
    }
    put(b, "]");
    put(b, ", \"verdict\": ");
    json_text(b, tmp, abr_put_verdict, m, si);
    json_capacity(b, tmp, m, si);
    put(b, "}");
}

static void json_suites(ab_buf *b, const abr_model *m) {
    ab_buf tmp = {0};
    put(b, "  \"suites\": [");
    for (size_t si = 0; si < m->nsu; si++) {
        put(b, si ? ",\n    " : "\n    ");
        json_suite(b, &tmp, m, si);
    }
    put(b, m->nsu ? "\n  ],\n" : "],\n");
    ab_buf_free(&tmp);
}

static void json_rows(ab_buf *b, const abr_model *m) {
    put(b, "  \"rows\": [");
    abr_field f[ABR_NFIELDS];
    for (size_t i = 0; i < m->rows.n; i++) {
        abr_row_fields(m, i, f);
        put(b, i ? ",\n    " : "\n    ");
        json_object(b, f, ABR_NFIELDS);
    }
    put(b, m->rows.n ? "\n  ]\n" : "]\n");
}

ab_status abr_render_json(ab_buf *b, abs_store *s, const abr_model *m,
                          const abr_report_opts *opt, ab_error *err) {
    put(b, "{\n");
    json_run(b, m);
    json_planners(b, m);
    json_suites(b, m);
    json_rows(b, m);
    put(b, "}\n");
    return AB_OK;
}
