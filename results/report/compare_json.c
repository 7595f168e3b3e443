/*
 * compare_json.c — the compare as one JSON object (the keys are documented
 * in compare.h). Unknown numbers are null; strings are escaped, invalid
 * UTF-8 becoming U+FFFD; the keys come in a fixed order.
 */
#include <string.h>

#include "results/report/compare_int.h"

static void put(ab_buf *b, const char *s) { ab_buf_append(b, s, strlen(s)); }

/* The length of the valid UTF-8 sequence at p (1 to 4), or 0. */
static size_t utf8_seq(const unsigned char *p) {
    size_t n = p[0] < 0x80 ? 1 : (p[0] & 0xE0) == 0xC0 && p[0] >= 0xC2 ? 2
             : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 && p[0] <= 0xF4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    return n;
}

static void jstr(ab_buf *b, const char *s) {
    if (s == NULL) {
        put(b, "null");
        return;
    }
    put(b, "\"");
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = utf8_seq(p);
        if (*p == '"' || *p == '\\') ab_buf_printf(b, "\\%c", *p);
        else if (*p < 0x20) ab_buf_printf(b, "\\u%04x", *p);
        else if (n == 0) put(b, "\\ufffd");
        else ab_buf_append(b, (const char *)p, n);
        p += n ? n : 1;
    }
    put(b, "\"");
}

/* "key": string, with the separator before it. */
static void kstr(ab_buf *b, const char *sep, const char *key, const char *v) {
    ab_buf_printf(b, "%s\"%s\": ", sep, key);
    jstr(b, v);
}

/* A number of seconds or a ratio; null when negative (unknown). */
static void kreal(ab_buf *b, const char *key, double v) {
    if (v < 0) ab_buf_printf(b, ", \"%s\": null", key);
    else ab_buf_printf(b, ", \"%s\": %.9g", key, v);
}

static void kint(ab_buf *b, const char *key, int64_t v) {
    if (v == AB_NONE) ab_buf_printf(b, ", \"%s\": null", key);
    else ab_buf_printf(b, ", \"%s\": %lld", key, (long long)v);
}

static void put_run(ab_buf *b, const abr_cside *d) {
    const abs_run *r = &d->run;
    ab_buf_printf(b, "{\"run\": %lld", (long long)r->id);
    kstr(b, ", ", "tag", r->tag);
    kstr(b, ", ", "revision", r->revision);
    kstr(b, ", ", "host", r->host);
    kstr(b, ", ", "started", r->started);
    kstr(b, ", ", "status", abs_run_status_word(r->status));
    ab_buf_printf(b, ", \"results\": %zu}", d->rows.n);
}

static void put_row(ab_buf *b, const abr_crow *x) {
    if (x == NULL) {
        put(b, "null");
        return;
    }
    const abo_row *r = &x->w->r;
    ab_buf_printf(b, "{\"run\": %lld", (long long)r->run);
    kstr(b, ", ", "spec", r->spec);
    kstr(b, ", ", "status", abo_status_word(r->status));
    kint(b, "arena", r->arena);
    kstr(b, ", ", "proven_by", abo_proof_word(r->proven_by));
    kreal(b, "cpu_s", x->cpu_med);
    kreal(b, "cpu_min_s", x->cpu_min);
    kreal(b, "cpu_max_s", x->cpu_max);
    kreal(b, "wall_s", r->wall_s);
    kstr(b, ", ", "capped", x->capped[0] ? x->capped : NULL);
    const char *msg = r->error ? r->error : r->check_message ? r->check_message : r->note;
    kstr(b, ", ", "message", msg);
    put(b, "}");
}

static void put_thresholds(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum) {
    const abr_compare_opts *o = &c->opt;
    ab_buf_printf(b, "{\"slow_ratio\": %.9g, \"slow_min_s\": %.9g, \"fast_ratio\": %.9g, "
                     "\"fast_min_s\": %.9g, \"fail_on_time\": %s, \"spread\": \"%s\"}",
                  o->slow_ratio, o->slow_min_s, o->fast_ratio, o->fast_min_s,
                  o->fail_on_time ? "true" : "false", sum->spread ? "cpu_min_max" : "cpu_s");
}

static void put_pairs(ab_buf *b, const abr_cctx *c) {
    put(b, "[");
    for (size_t i = 0; i < c->nkeys; i++) {
        const abr_ckey *k = &c->keys[i];
        put(b, i ? ",\n    " : "\n    ");
        kstr(b, "{", "base_spec", k->base_spec);
        kstr(b, ", ", "head_spec", k->head_spec);
        ab_buf_printf(b, ", \"base_rows\": %zu, \"head_rows\": %zu, \"matched\": %zu",
                      k->base_rows, k->head_rows, k->matched);
        kreal(b, "arena_geomean", abr_geomean(k->arena_log, k->arena_n));
        ab_buf_printf(b, ", \"arena_n\": %zu", k->arena_n);
        kreal(b, "cpu_geomean", abr_geomean(k->cpu_log, k->cpu_n));
        ab_buf_printf(b, ", \"cpu_n\": %zu}", k->cpu_n);
    }
    put(b, c->nkeys ? "\n  ]" : "]");
}

static void put_rows(ab_buf *b, const abr_cctx *c) {
    put(b, "[");
    for (size_t i = 0; i < c->nm; i++) {
        const abr_cmatch *m = &c->m[i];
        put(b, i ? ",\n    " : "\n    ");
        ab_buf_printf(b, "{\"pair\": %zu", m->k);
        kstr(b, ", ", "suite", m->b->w->suite.name);
        kstr(b, ", ", "hash", m->b->w->suite.hash);
        put(b, ", \"base\": ");
        put_row(b, m->b);
        put(b, ", \"head\": ");
        put_row(b, m->h);
        int64_t a0 = m->b->w->r.arena, a1 = m->h->w->r.arena;
        bool ok = abr_crow_ok(m->b) && abr_crow_ok(m->h);
        kreal(b, "arena_ratio", ok && a0 > 0 && a1 >= 0 ? (double)a1 / (double)a0 : -1);
        kreal(b, "cpu_ratio", ok ? abr_cpu_ratio(m->b, m->h) : -1);
        put(b, "}");
    }
    put(b, c->nm ? "\n  ]" : "]");
}

static const char *class_word(const abr_cctx *c, abr_change k) {
    int cls = abr_change_class(k);
    if (abr_cclass_fails(c, cls)) return "regression";
    switch (cls) {
    case 0: return "improvement";
    case 3: return "new/gone";
    case 4: return "warning";
    case 5: return "not judged";
    default: return "other";
    }
}

static void put_changes(ab_buf *b, const abr_cctx *c) {
    put(b, "[");
    for (size_t i = 0; i < c->n; i++) {
        const abr_cline *l = &c->v[i];
        const abr_crow *x = l->c == ABR_CHANGE_CONTRADICTION ? l->b : l->h ? l->h : l->b;
        put(b, i ? ",\n    " : "\n    ");
        kstr(b, "{", "class", class_word(c, l->c));
        kstr(b, ", ", "change", abr_change_word(l->c));
        kstr(b, ", ", "suite", x ? x->w->suite.name : NULL);
        kstr(b, ", ", "hash", x ? x->w->suite.hash : NULL);
        if (l->k != SIZE_MAX) {
            kstr(b, ", ", "base_spec", c->keys[l->k].base_spec);
            kstr(b, ", ", "head_spec", c->keys[l->k].head_spec);
        }
        put(b, ", \"base\": ");
        put_row(b, l->b);
        put(b, ", \"head\": ");
        put_row(b, l->h);
        if (x == NULL) ab_buf_printf(b, ", \"rows\": %zu", l->count);
        put(b, "}");
    }
    put(b, c->n ? "\n  ]" : "]");
}

/* A JSON array of the specs on one side only. */
static void put_specs(ab_buf *b, const abr_cctx *c, bool gone) {
    const char *sep = "";
    put(b, "[");
    for (size_t i = 0; i < c->nkeys; i++) {
        const abr_ckey *k = &c->keys[i];
        if (gone ? k->head_rows != 0 : k->base_rows != 0) continue;
        put(b, sep);
        jstr(b, gone ? k->base_spec : k->head_spec);
        sep = ", ";
    }
    put(b, "]");
}

typedef struct hint_out {
    ab_buf *b;
    const char *sep;
} hint_out;

static void put_hint(void *arg, const char *gone, const char *nu) {
    hint_out *h = arg;
    put(h->b, h->sep);
    ab_buf tmp = {0};
    ab_buf_printf(&tmp, "--pair '%s=%s'", gone, nu);
    if (tmp.oom) h->b->oom = true;
    else jstr(h->b, tmp.s);
    ab_buf_free(&tmp);
    h->sep = ", ";
}

static void put_notice(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum) {
    if (sum->specs_gone == 0 && sum->specs_new == 0) {
        put(b, "null");
        return;
    }
    put(b, "{\"specs_gone\": ");
    put_specs(b, c, true);
    put(b, ", \"specs_new\": ");
    put_specs(b, c, false);
    put(b, ", \"hints\": [");
    hint_out h = {b, ""};
    abr_pair_hints(c, put_hint, &h);
    put(b, "]}");
}

static void put_summary(ab_buf *b, const abr_compare_summary *s) {
    ab_buf_printf(b, "{\"matched\": %zu, \"unchanged\": %zu, \"regressions\": %zu, "
                     "\"warnings\": %zu, \"improvements\": %zu, \"not_judged\": %zu, "
                     "\"other\": %zu, \"new\": %zu, \"gone\": %zu, \"specs_new\": %zu, "
                     "\"specs_gone\": %zu, \"capped_under_load\": %zu}",
                  s->matched, s->unchanged, s->regressions, s->warnings, s->improvements,
                  s->not_judged, s->other, s->added, s->removed, s->specs_new, s->specs_gone,
                  s->by_change[ABR_CHANGE_CAPPED_LOAD]);
}

static const char *verdict(const abr_cctx *c, const abr_compare_summary *s) {
    if (s->regressions > 0) return "regression";
    if (s->matched == 0 && (c->base.rows.n > 0 || c->head.rows.n > 0)) return "nothing compared";
    return "no regression";
}

void abr_compare_json(ab_buf *b, const abr_cctx *c, const abr_compare_summary *sum) {
    put(b, "{\"format\": \"arenabench-compare\", \"version\": 1,\n  \"base\": ");
    put_run(b, &c->base);
    put(b, ",\n  \"head\": ");
    put_run(b, &c->head);
    put(b, ",\n  \"thresholds\": ");
    put_thresholds(b, c, sum);
    put(b, ",\n  \"pairs\": ");
    put_pairs(b, c);
    put(b, ",\n  \"rows\": ");
    put_rows(b, c);
    put(b, ",\n  \"changes\": ");
    put_changes(b, c);
    put(b, ",\n  \"notice\": ");
    put_notice(b, c, sum);
    put(b, ",\n  \"summary\": ");
    put_summary(b, sum);
    put(b, ",\n  \"verdict\": ");
    jstr(b, verdict(c, sum));
    put(b, "\n}\n");
}
