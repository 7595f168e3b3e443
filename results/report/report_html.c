/*
 * report_html.c — the report as one self-contained HTML page: the tables and
 * four inline SVG pieces (the gap chart, the arena-versus-k charts, the best
 * greedy and best plans of each real model or trace, the plans with the
 * largest gaps; plans drawn by svg.c).
 */
#include "results/report/render.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "oracle/bounds.h"
#include "oracle/certify.h"
#include "results/report/real.h"
#include "results/report/sections.h"
#include "results/report/svg.h"

/* ---- HTML: the page ------------------------------------------------------------ */

static const char html_style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#222;line-height:1.35}\n"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:.6em 0}\n"
    "th,td{border:1px solid #ccc;padding:2px 8px;text-align:right;vertical-align:top}\n"
    "th{background:#f2f2f2}.l{text-align:left}\n"
    "td.best{font-weight:bold;background:#e3f2e3}td.fail{background:#fbe4e4;color:#a00}\n"
    "td.miss{color:#999}p.note{color:#555;font-size:.9em}\n"
    "svg{max-width:100%;height:auto}.charts{display:flex;flex-wrap:wrap;gap:1em}\n"
    "figure{margin:.6em 0}figcaption{font-size:.9em;color:#555}\n"
    ".scroll{overflow-x:auto;max-width:100%}.scroll>h2,.scroll>h3,.scroll>p{position:sticky;"
    "left:0}\n"
    ".scroll td:first-child,.scroll th:first-child{position:sticky;left:0;z-index:1;"
    "background:#fff;box-shadow:1px 0 0 #ccc}\n"
    ".scroll th:first-child{background:#f2f2f2}\n"
    ".scroll th,.scroll td:first-child{white-space:nowrap}\n"
    ".legend{display:flex;flex-wrap:wrap;gap:.2em 1.2em;margin:.4em 0;font-size:.9em;"
    "max-width:830px}\n.legend span{white-space:nowrap}.legend svg{vertical-align:middle}\n"
    "h3{font-size:1.05em;margin:1.2em 0 .3em}\n"
    ".pair{display:flex;flex-wrap:wrap;gap:0 1.5em;align-items:flex-start}\n"
    ".pair figure{flex:1 1 520px;min-width:0}\n";

static void esc_xml(ab_buf *b, const char *s) { ab_buf_xml(b, s); }

static void html_field(ab_buf *b, const char *key, const char *v) {
    ab_buf_printf(b, "<tr><th class=\"l\">%s</th><td class=\"l\">", key);
    esc_xml(b, v ? v : "-");
    put(b, "</td></tr>\n");
}

static void html_header(ab_buf *b, const abr_model *m) {
    const abs_run *r = &m->run;
    ab_buf_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<title>arenabench report: run %lld</title>\n<style>\n%s</style>\n</head>\n"
                     "<body>\n<h1>arenabench report: run %lld</h1>\n",
                  (long long)r->id, html_style, (long long)r->id);
    put(b, "<p class=\"verdict\"><b>Verdict:</b> "); /* first: what a reader forwards */
    abr_put_run_verdict(b, esc_xml, m);
    put(b, ".</p>\n<p>");
    abr_put_row_counts(b, m);
    put(b, "</p>\n<table>\n");
    html_field(b, "status", abs_run_status_word(r->status));
    html_field(b, "tag", r->tag);
    html_field(b, "revision", r->revision);
    html_field(b, "host", r->host);
    html_field(b, "started", r->started);
    html_field(b, "finished", r->finished ? r->finished : "not finished");
    html_field(b, "command", r->command);
    put(b, "</table>\n");
}

/* ---- HTML: the gap chart ------------------------------------------------------ */

#define GC_LEFT 230.0  /* suite labels */
#define GC_PLOT 520.0  /* plot width */
#define GC_RIGHT 80.0  /* the failure column */
#define GC_ROW 20.0    /* one suite */
#define GC_CLIP 50.0   /* gaps above this percentage sit in an outlier column */
#define GC_OUT 44.0    /* the outlier column's width, at the plot's right end */

/* The smallest of 1, 2, 5 x 10^n percent at least maxp (and at least 1). */
static double nice_ceiling(double maxp) {
    static const double steps[] = {1.0, 2.0, 5.0};
    for (double scale = 1.0; scale < 1e15; scale *= 10.0)
        for (size_t i = 0; i < 3; i++)
            if (steps[i] * scale >= maxp) return steps[i] * scale;
    return 1e15;
}

/* A label of at most 32 bytes (cut on a UTF-8 boundary, "..." added). */
static void put_short(ab_buf *b, const char *s) {
    size_t n = strlen(s);
    if (n <= 32) {
        esc_xml(b, s);
        return;
    }
    size_t cut = 29;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--;
    char tmp[33];
    memcpy(tmp, s, cut);
    tmp[cut] = '\0';
    esc_xml(b, tmp);
    put(b, "...");
}

#define HALF_PI 1.57079632679489661923

/* Spec j's marker (abr_marker: its shape, abr_color: its fill) of radius r
 * centred on (x, y), opening a group the caller closes after its title;
 * translucent (the gap chart's, where marks may cover each other) or not. */
static void marker(ab_buf *b, size_t j, double x, double y, double r, bool translucent) {
    const char *c = abr_color(j);
    ab_buf_printf(b, "<g class=\"mk\" fill=\"%s\"%s stroke=\"#333\" stroke-width=\"0.4\">", c,
                  translucent ? " fill-opacity=\"0.85\"" : "");
    double h = r * 0.9, d = r * 1.25, q = r * 0.38;
    switch (abr_marker(j)) {
    case 0: ab_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"/>", x, y, r); break;
    case 1:
        ab_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
                      x - h, y - h, 2 * h, 2 * h);
        break;
    case 2:
        ab_buf_printf(b, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x, y - d,
                      x + d, y + r * 0.8, x - d, y + r * 0.8);
        break;
    case 3:
        ab_buf_printf(b, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x,
                      y - d, x + d, y, x, y + d, x - d, y);
        break;
    case 4:
        ab_buf_printf(b, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>", x, y + d,
                      x + d, y - r * 0.8, x - d, y - r * 0.8);
        break;
    case 5:
        ab_buf_printf(b, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f "
                         "%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f "
                         "%.1f,%.1f\"/>",
                      x - q, y - d, x + q, y - d, x + q, y - q, x + d, y - q, x + d, y + q,
                      x + q, y + q, x + q, y + d, x - q, y + d, x - q, y + q, x - d, y + q,
                      x - d, y - q, x - q, y - q);
        break;
    default: /* a five-pointed star */
        put(b, "<polygon points=\"");
        for (int k = 0; k < 10; k++) {
            double a = -HALF_PI + HALF_PI * 2 * k / 5.0, rr = k % 2 ? d * 0.45 : d * 1.05;
            ab_buf_printf(b, "%s%.1f,%.1f", k ? " " : "", x + rr * cos(a), y + rr * sin(a));
        }
        put(b, "\"/>");
        break;
    }
}

/* The legend: every planner spec with its marker and colour, in spec order. */
static void html_legend(ab_buf *b, const abr_model *m) {
    put(b, "<div class=\"legend\" id=\"legend\">\n");
    for (size_t j = 0; j < m->nsp; j++) {
        put(b, "<span class=\"lg\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"14\" "
               "height=\"14\" viewBox=\"0 0 14 14\">");
        marker(b, j, 7, 7, 5, false);
        put(b, "</g></svg> ");
        esc_xml(b, m->sp[j].spec);
        put(b, "</span>\n");
    }
    put(b, "</div>\n");
}

/* The plot's width for the linear band 0..pmax: all of it, or all but the
 * outlier column when gaps above GC_CLIP are clipped there. */
static double band_width(bool clipped) {
    return clipped ? GC_PLOT - GC_OUT : GC_PLOT;
}

static void gap_axis(ab_buf *b, double top, double bottom, double pmax, bool clipped) {
    if (clipped) { /* the outlier column: a shaded strip, its label */
        double x0 = GC_LEFT + band_width(true) + 6;
        ab_buf_printf(b, "<rect class=\"outliers\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                         "height=\"%.1f\" fill=\"#fde8e8\"/><text x=\"%.1f\" y=\"%.1f\" "
                         "font-size=\"11\" text-anchor=\"middle\">&gt;%g%%</text>\n",
                      x0, top, GC_OUT - 6, bottom - top, x0 + (GC_OUT - 6) / 2, bottom + 14, pmax);
    }
    for (int t = 0; t <= 4; t++) {
        double x = GC_LEFT + band_width(clipped) * t / 4.0;
        ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                         "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">"
                         "%g%%</text>\n", x, top, x, bottom, x, bottom + 14, pmax * t / 4.0);
    }
    double xf = GC_LEFT + GC_PLOT + 20;
    ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" "
                     "stroke-dasharray=\"2,2\"/><text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                     "text-anchor=\"middle\">failed</text>\n",
                  xf, top, xf, bottom, GC_LEFT + GC_PLOT + 20 + (GC_RIGHT - 20) / 2, bottom + 14);
}

/* The dots (or failure marks) of suite si's rows on its band at y; with
 * clipped, a gap above pmax sits in the outlier column (its title says the
 * value). */
static void gap_band(ab_buf *b, const abr_model *m, size_t si, double y, double pmax,
                     bool clipped) {
    const abr_rsuite *su = &m->su[si];
    double step = m->nsp > 1 ? 12.0 / (double)(m->nsp - 1) : 0.0;
    if (step > 4.0) step = 4.0;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        const abr_rrow *rr = &m->rr[i];
        const abo_row *r = row_r(m, i);
        double dy = y + step * ((double)rr->spec - (double)(m->nsp - 1) / 2.0);
        const char *c = abr_color(rr->spec);
        if (row_ok(m, i) && rr->has_gap) {
            double p = rr->gap * 100.0;
            double x = clipped && p > pmax ? GC_LEFT + band_width(true) + 3 + GC_OUT / 2
                                           : GC_LEFT + band_width(clipped) *
                                                           (p < 0 ? 0 : p > pmax ? pmax : p) / pmax;
            marker(b, rr->spec, x, dy, 4, true);
            put(b, "<title>");
            esc_xml(b, r->spec);
            ab_buf_printf(b, ": arena %lld, gap ", (long long)r->arena);
            abr_put_gap(b, true, rr->gap);
            put(b, "</title></g>\n");
        } else if (!row_ok(m, i)) {
            ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"%s\" "
                             "text-anchor=\"middle\">&#215;<title>",
                          GC_LEFT + GC_PLOT + 50 + 4.0 * ((double)rr->spec -
                          (double)(m->nsp - 1) / 2.0), dy + 4, c);
            esc_xml(b, r->spec);
            ab_buf_printf(b, ": %s</title></text>\n", abo_status_word(r->status));
        }
    }
}

/* A dot chart: one band per suite, one dot per planner at its gap. */
static void html_gap_chart(ab_buf *b, const abr_model *m) {
    double maxp = 0;
    for (size_t i = 0; i < m->rows.n; i++)
        if (m->rr[i].has_gap && m->rr[i].gap * 100.0 > maxp) maxp = m->rr[i].gap * 100.0;
    /* Most gaps lie in a few percent and a greedy outlier can reach hundreds:
     * a linear axis to the largest would squeeze the rest into a few pixels.
     * So the axis stops at GC_CLIP and the gaps above it are marked apart. */
    bool clipped = maxp > GC_CLIP;
    double pmax = clipped ? GC_CLIP : nice_ceiling(maxp);
    double top = 8.0;
    double bottom = top + GC_ROW * (double)m->nsu;
    put(b, "<h2>Gap to the best bound</h2>\n");
    if (m->rows.n == 0) {
        put(b, "<p>No results.</p>\n");
        return;
    }
    put(b, "<figure>\n");
    html_legend(b, m);
    ab_buf_printf(b, "<svg xmlns=\"http://www.w3.org/"
                     "2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                     "font-family=\"sans-serif\" role=\"img\">\n",
                  GC_LEFT + GC_PLOT + GC_RIGHT, bottom + 24, GC_LEFT + GC_PLOT + GC_RIGHT,
                  bottom + 24);
    for (size_t si = 0; si < m->nsu; si += 2)
        ab_buf_printf(b, "<rect x=\"0\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                         "fill=\"#f6f6f6\"/>\n", top + GC_ROW * (double)si,
                      GC_LEFT + GC_PLOT + GC_RIGHT, GC_ROW);
    gap_axis(b, top, bottom, pmax, clipped);
    for (size_t si = 0; si < m->nsu; si++) {
        double y = top + GC_ROW * ((double)si + 0.5);
        ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">",
                      GC_LEFT - 8, y + 4);
        put_short(b, suite_of(m, si)->name);
        if (m->su[si].dup_name) ab_buf_printf(b, "@%.8s", suite_of(m, si)->hash);
        put(b, "<title>");
        abr_put_suite(b, esc_xml, m, si);
        put(b, "</title></text>\n");
        gap_band(b, m, si, y, pmax, clipped);
    }
    put(b, "</svg>\n<figcaption>One band per suite, one marker per planner at its gap (arena / "
           "best bound - 1); &#215;: a failure. Hover for values.");
    if (clipped)
        ab_buf_printf(b, " The axis runs to %g%%; the gaps above it (the largest is %.1f%%) sit "
                         "in the shaded column on its right.", pmax, maxp);
    put(b, "</figcaption>\n</figure>\n");
}

/* ---- HTML: arena versus k ----------------------------------------------------- */

#define KC_W 460.0
#define KC_H 200.0
#define KC_LEFT 80.0
#define KC_RIGHT (KC_W - 8) /* the x axis' right end */
#define KC_PADX 18.0 /* inside the plot, left and right of the first and last k: room
                      * for their markers and time labels */
#define KC_TOP 42.0 /* the title (y 16), the subtitle (y 31), then the legend */
#define KC_PAD 40.0
#define KC_MARK 4.0  /* a marker's radius; its shape reaches 1.35 times it */

/* A series: the rows of one suite whose specs share a family. */
typedef struct kseries {
    size_t fam;       /* the spec index whose family names the series */
    size_t *rows;     /* sorted by k, then row */
    size_t n;
} kseries;

/* Sorts rows[0 .. n) by k, then row (insertion: a series has a few rows). */
static void sort_by_k(const abr_model *m, size_t *rows, size_t n) {
    for (size_t i = 1; i < n; i++) {
        size_t v = rows[i], j = i;
        for (; j > 0 && (m->rr[rows[j - 1]].k > m->rr[v].k ||
                         (m->rr[rows[j - 1]].k == m->rr[v].k && rows[j - 1] > v)); j--)
            rows[j] = rows[j - 1];
        rows[j] = v;
    }
}

/* true when a row of suite si before row i (with a k) has row i's family,
 * so each family makes one series. */
static bool family_seen(const abr_model *m, size_t si, size_t i) {
    const char *f = m->sp[m->rr[i].spec].family;
    for (size_t j = m->su[si].row0; j < i; j++)
        if (m->rr[j].k != AB_NONE && strcmp(m->sp[m->rr[j].spec].family, f) == 0) return true;
    return false;
}

/* The series of suite si with at least two distinct k; *out owned (ab_free
 * each rows and the array). Returns false when out of memory. */
static bool k_series(const abr_model *m, size_t si, kseries **out, size_t *nout) {
    const abr_rsuite *su = &m->su[si];
    *out = ab_calloc(su->nrows + 1, sizeof **out);
    *nout = 0;
    if (*out == NULL) return false;
    for (size_t i = su->row0; i < su->row0 + su->nrows; i++) {
        if (m->rr[i].k == AB_NONE || family_seen(m, si, i)) continue;
        const char *f = m->sp[m->rr[i].spec].family;
        kseries *s = &(*out)[*nout];
        s->fam = m->rr[i].spec;
        s->rows = ab_alloc_array(su->nrows, sizeof *s->rows);
        if (s->rows == NULL) return false;
        for (size_t j = i; j < su->row0 + su->nrows; j++)
            if (m->rr[j].k != AB_NONE && strcmp(m->sp[m->rr[j].spec].family, f) == 0)
                s->rows[s->n++] = j;
        sort_by_k(m, s->rows, s->n);
        if (m->rr[s->rows[0]].k != m->rr[s->rows[s->n - 1]].k) {
            (*nout)++;
        } else { /* one k only: not a series; the slot is reused */
            ab_free(s->rows);
            s->rows = NULL;
            s->n = 0;
        }
    }
    return true;
}

static void free_series(kseries *s, size_t n) {
    if (s == NULL) return;
    for (size_t i = 0; i <= n; i++) ab_free(s[i].rows);
    ab_free(s);
}

typedef struct kframe {
    double lk0, lk1;   /* log2 k range */
    double y0, y1;     /* arena range: the round ticks' ends */
    abr_ticks yt;      /* the arena axis */
    double top;        /* the plot's top, below the legend */
} kframe;

/* The first k at KC_LEFT + KC_PADX, the last at KC_RIGHT - KC_PADX. */
static double kx(const kframe *f, int64_t k) {
    return KC_LEFT + KC_PADX +
           (log2((double)k) - f->lk0) / (f->lk1 - f->lk0) * (KC_RIGHT - KC_LEFT - 2 * KC_PADX);
}
static double ky(const kframe *f, double v) {
    return f->top + KC_H - (v - f->y0) / (f->y1 - f->y0) * KC_H;
}

static kframe k_frame(const abr_model *m, size_t si, const kseries *s, size_t ns) {
    kframe f = {.lk0 = 1e300, .lk1 = -1e300, .y0 = 1e300, .y1 = -1e300,
                .top = KC_TOP + 14.0 * (double)ns};
    if (m->su[si].bound != AB_NONE) f.y0 = f.y1 = (double)m->su[si].bound;
    for (size_t q = 0; q < ns; q++)
        for (size_t t = 0; t < s[q].n; t++) {
            size_t i = s[q].rows[t];
            double lk = log2((double)m->rr[i].k);
            if (lk < f.lk0) f.lk0 = lk;
            if (lk > f.lk1) f.lk1 = lk;
            const abo_row *r = row_r(m, i);
            if (!row_ok(m, i) || r->arena == AB_NONE) continue;
            if ((double)r->arena < f.y0) f.y0 = (double)r->arena;
            if ((double)r->arena > f.y1) f.y1 = (double)r->arena;
        }
    if (f.y0 > f.y1) f.y0 = 0, f.y1 = 1;
    double pad = (f.y1 - f.y0) * 0.08;
    if (pad < 1) pad = 1;
    f.yt = abr_byte_ticks(f.y0 - pad < 0 ? 0 : f.y0 - pad, f.y1 + pad, 4);
    f.y0 = f.yt.first;
    f.y1 = f.yt.first + (double)f.yt.n * f.yt.step;
    return f;
}

/* A label's box as the chart estimates it (svg.h, abr_text_width: never
 * narrower than the browser draws it), or a marker's. */
typedef struct kbox {
    double x0, y0, x1, y1;
} kbox;

/* The box of text s of px px at (x, baseline y), anchored start, middle or
 * end (anchor 0, 1, 2): from px above the baseline to 0.3 px below it. */
static kbox text_box(const char *s, double x, double y, double px, bool bold, int anchor) {
    double w = abr_text_width(s, px, bold);
    double x0 = anchor == 0 ? x : anchor == 1 ? x - w / 2 : x - w;
    return (kbox){x0, y - px, x0 + w, y + 0.3 * px};
}

/* true when a and c come within 1 px of each other. */
static bool kbox_meet(kbox a, kbox c) {
    return a.x0 < c.x1 + 1 && c.x0 < a.x1 + 1 && a.y0 < c.y1 + 1 && c.y0 < a.y1 + 1;
}

/* What the time labels must not cover: markers, failure marks, the bound's
 * label and the labels placed so far. */
typedef struct kboxes {
    kbox *v;
    size_t n, cap;
} kboxes;

static void kboxes_add(kboxes *o, kbox c) {
    if (o->n < o->cap) o->v[o->n++] = c;
}

static bool kboxes_meet(const kboxes *o, kbox c) {
    for (size_t i = 0; i < o->n; i++)
        if (kbox_meet(o->v[i], c)) return true;
    return false;
}

/* The plot: between the axes. */
static bool in_plot(const kframe *f, kbox c) {
    return c.x0 >= KC_LEFT + 1 && c.x1 <= KC_RIGHT - 1 && c.y0 >= f->top + 1 &&
           c.y1 <= f->top + KC_H - 1;
}

/* Text s (plain; escaped here) cut with an ellipsis to width px of px px. */
static void put_fitted(ab_buf *b, const char *s, double width, double px, bool bold) {
    size_t n = abr_text_fit(s, width, px, bold);
    if (s[n] == '\0') {
        esc_xml(b, s);
        return;
    }
    char *cut = ab_alloc_array(n + 1, 1);
    if (cut == NULL) {
        b->oom = true;
        return;
    }
    memcpy(cut, s, n);
    cut[n] = '\0';
    esc_xml(b, cut);
    put(b, "\xe2\x80\xa6"); /* an ellipsis */
    ab_free(cut);
}

/* The k of the chart's points, distinct, ascending, into ks (room for every
 * row of the series); their count. */
static size_t k_values(const abr_model *m, const kseries *s, size_t ns, int64_t *ks) {
    size_t n = 0;
    for (size_t q = 0; q < ns; q++)
        for (size_t t = 0; t < s[q].n; t++) {
            int64_t k = m->rr[s[q].rows[t]].k;
            size_t j = 0;
            while (j < n && ks[j] < k) j++;
            if (j < n && ks[j] == k) continue;
            memmove(ks + j + 1, ks + j, (n - j) * sizeof *ks);
            ks[j] = k;
            n++;
        }
    return n;
}

/* The label of k under the x axis (bottom: the axis' y), and its box. */
static void k_tick(ab_buf *b, const kframe *f, int64_t k, double bottom) {
    ab_buf_printf(b, "<text class=\"xt\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
                     "text-anchor=\"middle\">%lld</text>\n", kx(f, k), bottom + 13, (long long)k);
}

static kbox k_tick_box(const kframe *f, int64_t k, double bottom) {
    char label[24];
    snprintf(label, sizeof label, "%lld", (long long)k);
    return text_box(label, kx(f, k), bottom + 13, 10, false, 1);
}

/* The axes, their ticks and titles, the bound's line and label (its box
 * added to o). A k whose label would touch another's is left unlabelled (its
 * points' tooltips say it); the first and the last k keep theirs. */
static void k_axes(ab_buf *b, const abr_model *m, size_t si, const kframe *f, const int64_t *ks,
                   size_t nk, kboxes *o) {
    double bottom = f->top + KC_H;
    ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
                     "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                  KC_LEFT, f->top, KC_LEFT, bottom, KC_LEFT, bottom, KC_RIGHT, bottom);
    for (size_t t = 0; t <= f->yt.n; t++) {
        double v = f->yt.first + (double)t * f->yt.step;
        ab_buf_printf(b, "<text class=\"yt\" x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
                         "text-anchor=\"end\">", KC_LEFT - 4, ky(f, v) + 3);
        abr_put_tick(b, &f->yt, t);
        put(b, "</text>\n");
    }
    /* From the right: the last k, every k between whose label touches
     * neither the one drawn before it nor the first k's, then the first. */
    kbox first = k_tick_box(f, ks[0], bottom), last = k_tick_box(f, ks[nk - 1], bottom);
    k_tick(b, f, ks[nk - 1], bottom);
    for (size_t j = nk - 1; j-- > 1;) {
        kbox c = k_tick_box(f, ks[j], bottom);
        if (kbox_meet(last, c) || kbox_meet(first, c)) continue;
        k_tick(b, f, ks[j], bottom);
        last = c;
    }
    if (nk > 1 && !kbox_meet(first, last)) k_tick(b, f, ks[0], bottom);
    ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">"
                     "coarsening k (log scale)</text>\n", (KC_LEFT + KC_W) / 2, bottom + 28);
    if (m->su[si].bound == AB_NONE) return;
    double yb = ky(f, (double)m->su[si].bound);
    ab_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1f4e9c\" "
                     "stroke-dasharray=\"6,3\"><title>best bound %lld</title></line>\n"
                     "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#1f4e9c\" "
                     "text-anchor=\"end\">bound</text>\n",
                  KC_LEFT, yb, KC_RIGHT, yb, (long long)m->su[si].bound, KC_RIGHT - 2, yb - 3);
    kboxes_add(o, text_box("bound", KC_RIGHT - 2, yb - 3, 10, false, 2));
}

/* Row i's point: valid with an arena (else a failure mark at the plot's top)
 * at (*x, *y). */
static bool k_point(const abr_model *m, const kframe *f, size_t i, double *x, double *y) {
    const abo_row *r = row_r(m, i);
    bool ok = row_ok(m, i) && r->arena != AB_NONE;
    *x = kx(f, m->rr[i].k);
    *y = ok ? ky(f, (double)r->arena) : f->top + 14;
    return ok;
}

/* Series q's legend entry, its family cut to the chart's width. */
static void k_legend(ab_buf *b, const abr_model *m, const kseries *s, size_t q) {
    marker(b, s->fam, KC_LEFT + 5, KC_TOP + 14.0 * (double)q + 4, KC_MARK, false);
    put(b, "</g>");
    ab_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"%s\">",
                  KC_LEFT + 14, KC_TOP + 14.0 * (double)q + 8, abr_color(s->fam));
    put_fitted(b, m->sp[s->fam].family, KC_W - 4 - (KC_LEFT + 14), 11, false);
    if (abr_text_fit(m->sp[s->fam].family, KC_W - 4 - (KC_LEFT + 14), 11, false) <
        strlen(m->sp[s->fam].family)) {
        put(b, "<title>");
        esc_xml(b, m->sp[s->fam].family);
        put(b, "</title>");
    }
    put(b, "</text>\n");
}

/* One series: a line through its valid points, their markers, x marks for
 * failures (each added to o). */
static void k_line(ab_buf *b, const abr_model *m, const kframe *f, const kseries *s,
                   kboxes *o) {
    const char *c = abr_color(s->fam);
    double x, y, reach = KC_MARK * 1.35;
    ab_buf_printf(b, "<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"%s\" points=\"", c);
    for (size_t t = 0; t < s->n; t++)
        if (k_point(m, f, s->rows[t], &x, &y)) ab_buf_printf(b, "%.1f,%.1f ", x, y);
    put(b, "\"/>\n");
    for (size_t t = 0; t < s->n; t++) {
        size_t i = s->rows[t];
        const abo_row *r = row_r(m, i);
        bool ok = k_point(m, f, i, &x, &y);
        if (ok) {
            marker(b, s->fam, x, y, KC_MARK, false);
            put(b, "<title>");
            kboxes_add(o, (kbox){x - reach, y - reach, x + reach, y + reach});
        } else {
            ab_buf_printf(b, "<text class=\"kf\" x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
                             "fill=\"%s\" text-anchor=\"middle\">&#215;<title>", x, y, c);
            kboxes_add(o, text_box("\xc3\x97", x, y, 12, false, 1));
        }
        esc_xml(b, r->spec);
        if (ok && r->wall_s >= 0)
            ab_buf_printf(b, ": arena %lld, %.3f s</title></g>\n", (long long)r->arena,
                          r->wall_s);
        else if (ok) ab_buf_printf(b, ": arena %lld</title></g>\n", (long long)r->arena);
        else ab_buf_printf(b, ": %s</title></text>\n", abo_status_word(r->status));
    }
}

/* The time each valid point took (the other side of the trade-off), above
 * its marker or else below it, where it covers nothing drawn and stays in
 * the plot; left out where neither does (its tooltip says it). */
static void k_times(ab_buf *b, const abr_model *m, const kframe *f, const kseries *s,
                    kboxes *o) {
    for (size_t t = 0; t < s->n; t++) {
        const abo_row *r = row_r(m, s->rows[t]);
        double x, y;
        if (!k_point(m, f, s->rows[t], &x, &y) || r->wall_s < 0) continue;
        char label[48];
        snprintf(label, sizeof label, "%.2fs", r->wall_s);
        const double at[] = {y - KC_MARK * 1.35 - 4, y + KC_MARK * 1.35 + 11};
        for (size_t a = 0; a < 2; a++) {
            kbox c = text_box(label, x, at[a], 9, false, 1);
            if (!in_plot(f, c) || kboxes_meet(o, c)) continue;
            ab_buf_printf(b, "<text class=\"kt\" x=\"%.1f\" y=\"%.1f\" font-size=\"9\" "
                             "fill=\"%s\" text-anchor=\"middle\">%s</text>\n",
                          x, at[a], abr_color(s->fam), label);
            kboxes_add(o, c);
            break;
        }
    }
}

/* The chart's title, the suite (cut to the chart's width, its tooltip
 * whole), and under it what the chart shows. */
static void k_title(ab_buf *b, const abr_model *m, size_t si) {
    ab_buf name = {0};
    abr_put_suite(&name, put, m, si); /* escaped below */
    const char *n = name.s ? name.s : "";
    double room = KC_W - 16;
    put(b, "<text x=\"8\" y=\"16\" font-size=\"13\" font-weight=\"bold\">");
    put_fitted(b, n, room, 13, true);
    if (abr_text_fit(n, room, 13, true) < strlen(n)) {
        put(b, "<title>");
        esc_xml(b, n);
        put(b, "</title>");
    }
    put(b, "</text>\n<text x=\"8\" y=\"31\" font-size=\"11\" fill=\"#555\">arena (bytes) "
           "versus k</text>\n");
    if (name.oom) b->oom = true;
    ab_buf_free(&name);
}

static void k_chart(ab_buf *b, const abr_model *m, size_t si, const kseries *s, size_t ns) {
    kframe f = k_frame(m, si, s, ns);
    size_t npoints = 0;
    for (size_t q = 0; q < ns; q++) npoints += s[q].n;
    int64_t *ks = ab_alloc_array(npoints, sizeof *ks);
    kboxes o = {ab_alloc_array(2 * npoints + 1, sizeof *o.v), 0, 2 * npoints + 1};
    if (ks == NULL || o.v == NULL) {
        b->oom = true;
        ab_free(ks);
        ab_free(o.v);
        return;
    }
    double h = f.top + KC_H + KC_PAD;
    ab_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" role=\"img\">\n",
                  KC_W, h, KC_W, h);
    k_title(b, m, si);
    k_axes(b, m, si, &f, ks, k_values(m, s, ns, ks), &o);
    for (size_t q = 0; q < ns; q++) k_legend(b, m, &s[q], q);
    for (size_t q = 0; q < ns; q++) k_line(b, m, &f, &s[q], &o);
    for (size_t q = 0; q < ns; q++) k_times(b, m, &f, &s[q], &o);
    put(b, "</svg>\n");
    ab_free(ks);
    ab_free(o.v);
}

/* The section only when some suite has a series (specs differing only in k). */
static void html_k_charts(ab_buf *b, const abr_model *m) {
    size_t drawn = 0;
    for (size_t si = 0; si < m->nsu; si++) {
        kseries *s;
        size_t ns;
        if (!k_series(m, si, &s, &ns)) {
            free_series(s, ns);
            b->oom = true;
            return;
        }
        if (ns > 0) {
            if (drawn++ == 0)
                put(b, "<h2>Arena versus coarsening k</h2>\n<div class=\"charts\">\n");
            k_chart(b, m, si, s, ns);
        }
        free_series(s, ns);
    }
    if (drawn > 0) put(b, "</div>\n<p class=\"note\">Specs that differ only in their k "
                          "parameter, on one suite; the small numbers: wall seconds (one is "
                          "left out where it would cover another label or a marker: hover "
                          "for every value); dashed: the suite's best bound; &#215;: a "
                          "failure.</p>\n");
}

/* ---- HTML: the worst plans ---------------------------------------------------- */

/* A row and its gap, for sorting the worst plans. */
typedef struct worst {
    double gap;
    size_t row;
} worst;

/* Larger gaps first, then lower rows: a total order. */
static int cmp_worst(const void *a, const void *b) {
    const worst *x = a, *y = b;
    if (x->gap != y->gap) return x->gap > y->gap ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Valid rows with a plan and a gap > 0, worst first; *n of them. Owned by
 * the caller (ab_free); NULL when out of memory. */
static worst *worst_rows(const abr_model *m, size_t *n) {
    worst *v = ab_alloc_array(m->rows.n ? m->rows.n : 1, sizeof *v);
    *n = 0;
    if (v == NULL) return NULL;
    for (size_t i = 0; i < m->rows.n; i++)
        if (row_ok(m, i) && m->rr[i].has_gap && m->rr[i].gap > 0 && row_r(m, i)->plan_hash[0])
            v[(*n)++] = (worst){m->rr[i].gap, i};
    qsort(v, *n, sizeof *v, cmp_worst);
    return v;
}

/* true when rows a and c are the same plan of the same suite (one picture). */
static bool same_plan(const abr_model *m, size_t a, size_t c) {
    return m->rr[a].suite == m->rr[c].suite &&
           strcmp(row_r(m, a)->plan_hash, row_r(m, c)->plan_hash) == 0;
}

/* true when an earlier row of v has v[k]'s plan: v[k] was drawn with it. */
static bool same_plan_before(const abr_model *m, const worst *v, size_t k) {
    for (size_t q = 0; q < k; q++)
        if (same_plan(m, v[q].row, v[k].row)) return true;
    return false;
}

/* The specs of v[k] and of the later rows with its plan: "a", "a and b",
 * "a, b and c (the same plan)". */
static void put_same_plan_specs(ab_buf *b, const abr_model *m, const worst *v, size_t n,
                                size_t k) {
    size_t total = 0, done = 0;
    for (size_t q = k; q < n; q++) total += same_plan(m, v[k].row, v[q].row);
    for (size_t q = k; q < n; q++) {
        if (!same_plan(m, v[k].row, v[q].row)) continue;
        if (done > 0) put(b, done + 1 == total ? " and " : ", ");
        put(b, row_r(m, v[q].row)->spec);
        done++;
    }
    if (total > 1) put(b, " (the same plan)");
}

/* Reads row i's suite view and plan from the store into *view (initialised
 * by the call; ab_problem_free), *pl (initialised by the caller; ab_plan_free)
 * and, when off is not NULL, *off (owned, ab_free; one offset per tensor of
 * the view). A status other than AB_OK with err set when it cannot. */
static ab_status load_plan(abs_store *s, const abr_model *m, size_t i, ab_problem *view,
                           ab_plan *pl, int64_t **off_out, ab_error *err) {
    const abs_row *w = &m->rows.v[i];
    int64_t *off = NULL;
    size_t n = 0;
    ab_status st = abs_suite_view(s, w->suite.id, view, err);
    if (st == AB_OK && w->r.plan_hash[0] == '\0')
        st = ab_fail(err, AB_EINPUT, "no plan was stored for it");
    if (st == AB_OK) st = abs_plan_get(s, w->r.plan_hash, &off, &n, err);
    if (st == AB_OK && n != view->n)
        st = ab_fail(err, AB_EINPUT, "the plan has %zu offsets but the suite's arena view has "
                     "%zu tensors", n, view->n);
    if (st == AB_OK) st = ab_plan_from_offsets(pl, off, n, err);
    if (st == AB_OK && off_out != NULL) {
        *off_out = off;
        off = NULL;
    }
    ab_free(off);
    return st;
}

/* Draws row i's plan into b; a status other than AB_OK with err set when it
 * cannot (the caller prints the reason unless it is AB_ENOMEM). */
static ab_status draw_plan(abs_store *s, const abr_model *m, size_t i, const char *specs,
                           ab_buf *b, ab_error *err) {
    const abs_row *w = &m->rows.v[i];
    ab_problem view;
    ab_plan pl;
    ab_plan_init(&pl);
    ab_status st = load_plan(s, m, i, &view, &pl, NULL, err);
    if (st == AB_OK) {
        ab_buf title = {0};
        ab_buf_printf(&title, "%s: %s, arena %lld, gap %+.2f%%", w->suite.name, specs,
                      (long long)w->r.arena, m->rr[i].gap * 100.0);
        st = title.oom ? ab_fail(err, AB_ENOMEM, "out of memory drawing a plan")
                       : abr_svg_plan(b, &view, &pl, m->su[m->rr[i].suite].bound, title.s,
                                      AB_NO_TENSOR, AB_NO_TENSOR, err);
        ab_buf_free(&title);
    }
    ab_plan_free(&pl);
    ab_problem_free(&view);
    return st;
}

static ab_status html_pictures(ab_buf *b, abs_store *s, const abr_model *m,
                               const abr_report_opts *opt, ab_error *err) {
    int want = opt && opt->pictures > 0 ? opt->pictures : ABR_REPORT_PICTURES;
    put(b, "<h2>The plans with the largest gaps</h2>\n");
    size_t n;
    worst *v = worst_rows(m, &n);
    if (v == NULL) return ab_fail(err, AB_ENOMEM, "out of memory building the report");
    if (n == 0) put(b, "<p>No valid plan with a gap above 0 (and a stored plan).</p>\n");
    ab_status st = AB_OK;
    size_t drawn = 0;
    for (size_t k = 0; k < n && drawn < (size_t)want && st == AB_OK; k++) {
        if (same_plan_before(m, v, k)) continue;
        drawn++;
        ab_error e = {AB_OK, ""};
        put(b, "<figure class=\"plan\">\n");
        size_t i = v[k].row;
        ab_buf specs = {0};
        put_same_plan_specs(&specs, m, v, n, k);
        if (specs.oom) {
            ab_buf_free(&specs);
            st = ab_fail(err, AB_ENOMEM, "out of memory building the report");
            break;
        }
        st = draw_plan(s, m, i, specs.s, b, &e);
        ab_buf_free(&specs);
        if (st == AB_ENOMEM) ab_fail(err, st, "%s", e.msg);
        else if (st != AB_OK) {
            put(b, "<p>Cannot draw the plan of ");
            esc_xml(b, row_r(m, i)->spec);
            put(b, " on ");
            abr_put_suite(b, esc_xml, m, m->rr[i].suite);
            put(b, ": ");
            esc_xml(b, e.msg);
            put(b, "</p>\n");
            st = AB_OK;
        }
        put(b, "</figure>\n");
    }
    size_t more = 0; /* no silent cap: say how many plans were left out */
    for (size_t k = 0; k < n && st == AB_OK; k++)
        if (!same_plan_before(m, v, k)) more++;
    if (st == AB_OK && more > drawn)
        ab_buf_printf(b, "<p class=\"note\">%zu more plan%s with a gap not drawn (the %zu with "
                      "the largest gaps are).</p>\n", more - drawn, more - drawn == 1 ? "" : "s",
                      drawn);
    ab_free(v);
    return st;
}

/* ---- HTML: real models and traces, best greedy against best ------------------------ */

#define REAL_NAMED 3 /* tensors that set an arena named in a caption; the rest counted */
#define ROLE_BOTH "Best greedy, also the best" /* the one picture when greedy is best */

/* The names of top[0 .. n): "a", "a and b", "a, b, c and 4 more" (stored
 * text through esc). */
static void put_names(ab_buf *b, esc_fn esc, const ab_problem *p, const size_t *top, size_t n) {
    size_t shown = n < REAL_NAMED ? n : REAL_NAMED;
    for (size_t k = 0; k < shown; k++) {
        if (k > 0) put(b, k + 1 == shown && shown == n ? " and " : ", ");
        esc(b, p->t[top[k]].name);
    }
    if (n > shown) ab_buf_printf(b, " and %zu more", n - shown);
}

/* The figure's caption: what the plan is (role, spec, arena, gap), then the
 * tensors that set its arena, each with its bytes and live range, and the
 * fragmentation (arena minus peak, the view's peak live bytes; none when
 * peak is AB_NONE). */
static void real_caption(ab_buf *b, const abr_model *m, const abr_real *r, size_t i,
                         const char *role, const ab_problem *p, const int64_t *off,
                         const size_t *top, size_t ntop, int64_t arena, int64_t peak) {
    const abo_row *w = row_r(m, i);
    ab_buf_printf(b, "<figcaption><b>%s</b>: ", role);
    esc_xml(b, w->spec);
    ab_buf_printf(b, ", arena %lld B", (long long)w->arena);
    if (w->arena >= 1024) { /* and for a reader */
        put(b, " (");
        abr_put_bytes(b, w->arena);
        put(b, ")");
    }
    put(b, ", ");
    bool optimal = m->su[r->suite].bound != AB_NONE && w->arena == m->su[r->suite].bound;
    if (!optimal) put(b, "gap ");
    abr_put_row_gap(b, m, i);
    if (!optimal && m->rr[i].has_gap) put(b, " to the best bound");
    if (strcmp(role, ROLE_BOTH) == 0) {
        put(b, "; greedy is already best, reached by ");
        abr_put_winners(b, esc_xml, m, r->suite, true);
    } else if (i == r->greedy && r->greedy_ties > 0) {
        ab_buf_printf(b, "; %zu other greedy planner%s reach%s the same arena", r->greedy_ties,
                      r->greedy_ties == 1 ? "" : "s", r->greedy_ties == 1 ? "es" : "");
    }
    put(b, ".");
    if (ntop > 0) {
        put(b, " <span class=\"top\">Arena set by ");
        for (size_t k = 0; k < ntop && k < REAL_NAMED; k++) {
            if (k > 0) put(b, k + 1 == ntop ? " and " : ", ");
            put(b, "<b>");
            esc_xml(b, p->t[top[k]].name);
            put(b, "</b> (offset ");
            abr_put_bytes(b, off[top[k]]);
            put(b, " + size ");
            abr_put_bytes(b, p->t[top[k]].size);
            ab_buf_printf(b, ", live [%lld, %lld])", (long long)p->t[top[k]].start,
                          (long long)p->t[top[k]].end);
        }
        if (ntop > REAL_NAMED) ab_buf_printf(b, " and %zu more", ntop - REAL_NAMED);
        put(b, "</span>");
    }
    if (ntop > 0 && peak != AB_NONE && arena >= peak) {
        put(b, "; fragmentation ");
        abr_put_bytes(b, arena - peak);
        ab_buf_printf(b, " (arena minus peak live, %.1f%% of the arena)",
                      arena > 0 ? 100.0 * (double)(arena - peak) / (double)arena : 0.0);
    }
    put(b, ".</figcaption>\n");
}

/* The SVG of row i's plan (p, pl, its offsets off) with the tensors that set
 * its arena (top) outlined, on the scale y_top; its title says the suite, the
 * spec, the role, the arena and the gap. */
static ab_status real_svg(ab_buf *b, const abr_model *m, const abr_real *r, size_t i,
                          const char *role, const ab_problem *p, const ab_plan *pl,
                          const size_t *top, size_t ntop, int64_t y_top, ab_error *err) {
    const abo_row *w = row_r(m, i);
    ab_buf title = {0}, note = {0};
    abr_put_suite(&title, put, m, r->suite); /* the title is escaped by svg.c */
    ab_buf_printf(&title, ": %s (%c%s), arena %lld, ", w->spec, tolower((unsigned char)role[0]),
                  role + 1, (long long)w->arena);
    if (!(m->su[r->suite].bound != AB_NONE && w->arena == m->su[r->suite].bound))
        put(&title, "gap ");
    abr_put_row_gap(&title, m, i);
    if (ntop > 0) {
        ab_buf_printf(&note, "red outline: the tensor%s that set%s the arena: ",
                      ntop == 1 ? "" : "s", ntop == 1 ? "s" : "");
        put_names(&note, put, p, top, ntop);
    }
    ab_status st = AB_OK;
    if (title.oom || note.oom) st = ab_fail(err, AB_ENOMEM, "out of memory drawing a plan");
    abr_svg_marks mk = {.marked = top, .nmarked = ntop, .y_top = y_top,
                        .note = ntop > 0 ? note.s : NULL};
    if (st == AB_OK)
        st = abr_svg_plan_marked(b, p, pl, m->su[r->suite].bound, title.s, AB_NO_TENSOR,
                                 AB_NO_TENSOR, &mk, err);
    ab_buf_free(&title);
    ab_buf_free(&note);
    return st;
}

/* One figure: row i of real suite r as `role` ("Best greedy", "Best", ...),
 * drawn on the scale y_top, its caption under it; a line saying why when it
 * cannot be drawn. AB_ENOMEM only. */
static ab_status real_figure(ab_buf *b, abs_store *s, const abr_model *m, const abr_real *r,
                             size_t i, const char *role, int64_t y_top, ab_error *err) {
    put(b, "<figure class=\"plan real\">\n");
    ab_problem view;
    ab_plan pl;
    ab_plan_init(&pl);
    int64_t *off = NULL, arena = 0, peak = AB_NONE;
    size_t *top = NULL, ntop = 0;
    ab_error e = {AB_OK, ""};
    ab_status st = load_plan(s, m, i, &view, &pl, &off, &e);
    if (st == AB_OK) st = abr_plan_top(&view, off, &top, &ntop, &arena, &e);
    abo_bounds bd;
    ab_status bs = st == AB_OK ? abo_bounds_compute(&view, &bd, &e) : st;
    if (bs == AB_OK) peak = bd.max_load;
    else if (bs == AB_ENOMEM) st = bs; /* any other failure: no fragmentation said */
    if (st == AB_OK) st = real_svg(b, m, r, i, role, &view, &pl, top, ntop, y_top, &e);
    if (st == AB_OK) {
        real_caption(b, m, r, i, role, &view, off, top, ntop, arena, peak);
    } else if (st != AB_ENOMEM) {
        put(b, "<p>Cannot draw the plan of ");
        esc_xml(b, row_r(m, i)->spec);
        put(b, " on ");
        abr_put_suite(b, esc_xml, m, r->suite);
        put(b, ": ");
        esc_xml(b, e.msg);
        put(b, "</p>\n");
        st = AB_OK;
    } else {
        ab_fail(err, st, "%s", e.msg);
    }
    put(b, "</figure>\n");
    ab_free(top);
    ab_free(off);
    ab_plan_free(&pl);
    ab_problem_free(&view);
    return st;
}

/* The heading of real suite r's pictures: the suite, its kind, and the
 * verdict of the pair. */
static void real_heading(ab_buf *b, const abr_model *m, const abr_real *r) {
    put(b, "<h3>");
    abr_put_suite(b, esc_xml, m, r->suite);
    ab_buf_printf(b, " <small>(%s)</small>: ", abr_real_kind_word(r->kind));
    double excess;
    if (r->best == SIZE_MAX) {
        put(b, "no valid plan");
    } else if (r->greedy == SIZE_MAX) {
        put(b, "no valid greedy plan");
    } else if (abr_real_greedy_is_best(m, r)) {
        put(b, "greedy is already best");
    } else if (abr_real_excess(m, r, &excess)) {
        ab_buf_printf(b, "the best greedy plan is %lld B (",
                      (long long)(row_r(m, r->greedy)->arena - row_r(m, r->best)->arena));
        abr_put_excess(b, excess);
        put(b, ") over the best");
    }
    bool both = abr_real_greedy_is_best(m, r);
    if (r->best != SIZE_MAX && m->su[r->suite].bound != AB_NONE &&
        row_r(m, r->best)->arena == m->su[r->suite].bound) {
        ab_buf_printf(b, "%s optimal (%s)", both ? ", and" : ", which is",
                      abo_proof_word(abr_bound_proof(m, r->suite)));
    } else if (r->best != SIZE_MAX && m->rr[r->best].has_gap) {
        ab_buf_printf(b, "%s ", both ? ", gap" : "; the best's gap");
        abr_put_excess(b, m->rr[r->best].gap);
        put(b, " to the best bound");
    }
    put(b, "</h3>\n");
}

/* The pictures of the real suites, in the table's order: per suite the best
 * greedy plan beside the best one, on one scale, or one picture when greedy
 * is best; at most opt->real_suites suites (the rest counted). */
static ab_status html_real_pictures(ab_buf *b, abs_store *s, const abr_model *m,
                                    const abr_reals *rs, const abr_report_opts *opt,
                                    ab_error *err) {
    size_t want = opt && opt->real_suites > 0 ? (size_t)opt->real_suites
                                              : (size_t)ABR_REPORT_REAL_SUITES;
    ab_status st = AB_OK;
    size_t drawn = 0;
    for (size_t q = 0; q < rs->n && drawn < want && st == AB_OK; q++) {
        const abr_real *r = &rs->v[q];
        drawn++;
        real_heading(b, m, r);
        if (r->best == SIZE_MAX) continue;
        size_t g = r->greedy;
        int64_t y_top = row_r(m, g != SIZE_MAX ? g : r->best)->arena;
        put(b, "<div class=\"pair\">\n");
        if (g != SIZE_MAX && abr_real_greedy_is_best(m, r)) {
            st = real_figure(b, s, m, r, g, ROLE_BOTH, y_top, err);
        } else {
            if (g != SIZE_MAX) st = real_figure(b, s, m, r, g, "Best greedy", y_top, err);
            if (st == AB_OK) st = real_figure(b, s, m, r, r->best, "Best", y_top, err);
        }
        put(b, "</div>\n");
    }
    if (st == AB_OK && rs->n > drawn)
        ab_buf_printf(b, "<p class=\"note\">%zu more real suite%s not drawn (the first %zu in "
                         "the table's order are; the table lists all %zu).</p>\n",
                      rs->n - drawn, rs->n - drawn == 1 ? "" : "s", drawn, rs->n);
    return st;
}

/* One line under the header, linking to the real suites' section: how many
 * there are, on how many the best greedy plan loses (and where most), on
 * how many it is already best; nothing when the run has none. */
static void html_real_summary(ab_buf *b, const abr_model *m, const abr_reals *rs) {
    if (rs->n == 0) return;
    size_t lose = 0, best = 0;
    for (size_t q = 0; q < rs->n; q++) {
        double excess;
        if (!abr_real_excess(m, &rs->v[q], &excess)) continue;
        if (excess > 0) lose++;
        else best++;
    }
    ab_buf_printf(b, "<p><a href=\"#real\">Real models and traces</a>: %zu suite%s; the best "
                     "greedy plan loses on %zu", rs->n, rs->n == 1 ? "" : "s", lose);
    double excess;
    if (lose > 0 && abr_real_excess(m, &rs->v[0], &excess)) { /* the first loses most */
        put(b, " (most: ");
        abr_put_suite(b, esc_xml, m, rs->v[0].suite);
        put(b, ", ");
        abr_put_excess(b, excess);
        put(b, ")");
    }
    ab_buf_printf(b, ", is already best on %zu", best);
    if (rs->n > lose + best) ab_buf_printf(b, ", has no valid plan on %zu", rs->n - lose - best);
    put(b, ".</p>\n");
}

/* A table in a box that scrolls sideways, its first column (the suite or the
 * planner) and its heading kept in view. */
static void scroll_table(ab_buf *b, const abr_table *t) {
    if (t->ncols > 0) put(b, "<div class=\"scroll\">\n");
    abr_table_html(b, t);
    if (t->ncols > 0) put(b, "</div>\n");
}

ab_status abr_render_html(ab_buf *b, abs_store *s, const abr_model *m,
                          const abr_report_opts *opt, ab_error *err) {
    abr_sections x;
    ab_status st = abr_sections_build(s, m, &x, err);
    if (st == AB_OK) {
        html_header(b, m);
        html_real_summary(b, m, &x.reals);
        scroll_table(b, &x.planners);
        scroll_table(b, &x.timing);
        html_gap_chart(b, m);
        html_k_charts(b, m);
        put(b, "<section id=\"real\">\n");
        scroll_table(b, &x.real);
        st = html_real_pictures(b, s, m, &x.reals, opt, err);
        put(b, "</section>\n");
    }
    if (st == AB_OK) {
        scroll_table(b, &x.suites);
        scroll_table(b, &x.io);
        for (size_t k = 0; k < x.npools; k++) scroll_table(b, &x.pools[k]);
        scroll_table(b, &x.peaks);
        scroll_table(b, &x.certificates);
        scroll_table(b, &x.bounds);
        scroll_table(b, &x.capacity);
        scroll_table(b, &x.failures);
        st = html_pictures(b, s, m, opt, err);
        put(b, "</body>\n</html>\n");
    }
    abr_sections_free(&x);
    return st;
}
