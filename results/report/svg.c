/*
 * svg.c — the plan picture (see svg.h).
 */
#include "results/report/svg.h"

#include <stdlib.h>
#include <string.h>

#define W 960.0   /* plot width, px */
#define H 480.0   /* plot height, px */
#define LEFT 90.0
#define TOP 50.0
#define BOTTOM 50.0
#define RIGHT 20.0

typedef struct frame {
    int64_t tmin, tmax; /* instructions shown: [tmin, tmax] */
    int64_t ymax;       /* bytes shown */
} frame;

static double fx(const frame *f, int64_t t) {
    return LEFT + (double)(t - f->tmin) * W / (double)(f->tmax - f->tmin + 1);
}

static double fy(const frame *f, int64_t o) {
    return TOP + H - (double)o * H / (double)f->ymax;
}

/* offsets[i] for each tensor, AB_NONE when the plan does not place it (the
 * first entry of a duplicate wins). */
static int64_t *plan_offsets(const ab_problem *p, const ab_plan *pl) {
    int64_t *off = ab_alloc_array(p->n ? p->n : 1, sizeof *off);
    if (off == NULL) return NULL;
    for (size_t i = 0; i < p->n; i++) off[i] = AB_NONE;
    for (size_t k = 0; k < pl->n; k++) {
        size_t i = pl->v[k].tensor;
        if (i < p->n && off[i] == AB_NONE && pl->v[k].offset >= 0) off[i] = pl->v[k].offset;
    }
    return off;
}

static const char *const palette[] = {"#8dd3c7", "#bebada", "#80b1d3", "#fdb462", "#b3de69",
                                      "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};

static void draw_tensor(ab_buf *b, const frame *f, const ab_tensor *t, int64_t off, size_t i) {
    double x0 = fx(f, t->start), x1 = fx(f, t->end + 1);
    double y0 = fy(f, off + t->size), y1 = fy(f, off);
    ab_buf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
                     "stroke=\"#333\" stroke-width=\"0.5\"><title>",
                  x0, y0, x1 - x0, y1 - y0, palette[i % (sizeof palette / sizeof palette[0])]);
    ab_buf_xml(b, t->name);
    ab_buf_printf(b, ": [%lld, %lld] bytes [%lld, %lld)</title></rect>\n", (long long)t->start,
                  (long long)t->end, (long long)off, (long long)(off + t->size));
    if (x1 - x0 < 36 || y1 - y0 < 11) return;
    ab_buf_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" clip-path=\"none\">",
                  x0 + 3, y0 + 10);
    ab_buf_xml(b, t->name);
    ab_buf_printf(b, "</text>\n");
}

static void draw_overlap(ab_buf *b, const frame *f, const ab_problem *p, const int64_t *off,
                         size_t i, size_t j) {
    const ab_tensor *a = &p->t[i], *c = &p->t[j];
    int64_t t0 = a->start > c->start ? a->start : c->start;
    int64_t t1 = a->end < c->end ? a->end : c->end;
    int64_t lo = off[i] > off[j] ? off[i] : off[j];
    int64_t hi = off[i] + a->size < off[j] + c->size ? off[i] + a->size : off[j] + c->size;
    if (t0 > t1 || lo >= hi) return;
    ab_buf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"red\" "
                     "fill-opacity=\"0.7\" stroke=\"red\"><title>overlap: ",
                  fx(f, t0), fy(f, hi), fx(f, t1 + 1) - fx(f, t0), fy(f, lo) - fy(f, hi));
    ab_buf_xml(b, a->name);
    ab_buf_printf(b, " and ");
    ab_buf_xml(b, c->name);
    ab_buf_printf(b, "</title></rect>\n");
}

typedef struct event {
    int64_t t, delta;
} event;

static int cmp_event(const void *pa, const void *pb) {
    const event *a = pa, *b = pb;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    return (a->delta > b->delta) - (a->delta < b->delta);
}

/* The live-bytes profile as a step polyline. */
static bool draw_profile(ab_buf *b, const frame *f, const ab_problem *p) {
    event *ev = ab_alloc_array(2 * p->n + 1, sizeof *ev);
    if (ev == NULL) return false;
    for (size_t i = 0; i < p->n; i++) {
        ev[2 * i] = (event){p->t[i].start, p->t[i].size};
        ev[2 * i + 1] = (event){p->t[i].end + 1, -p->t[i].size};
    }
    qsort(ev, 2 * p->n, sizeof *ev, cmp_event);
    ab_buf_printf(b, "<polyline fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"1.5\" points=\"");
    int64_t live = 0;
    ab_buf_printf(b, "%.2f,%.2f", fx(f, f->tmin), fy(f, 0));
    for (size_t k = 0; k < 2 * p->n;) {
        int64_t t = ev[k].t;
        ab_buf_printf(b, " %.2f,%.2f", fx(f, t), fy(f, live));
        while (k < 2 * p->n && ev[k].t == t) live += ev[k++].delta;
        ab_buf_printf(b, " %.2f,%.2f", fx(f, t), fy(f, live));
    }
    ab_buf_printf(b, "\"><title>live bytes</title></polyline>\n");
    ab_free(ev);
    return true;
}

static void draw_hline(ab_buf *b, const frame *f, int64_t v, const char *color, const char *dash,
                       const char *label) {
    double y = fy(f, v);
    ab_buf_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                     "stroke-dasharray=\"%s\"/>\n<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" "
                     "fill=\"%s\" text-anchor=\"end\">%s %lld</text>\n",
                  LEFT, y, LEFT + W, y, color, dash, LEFT + W, y - 3, color, label, (long long)v);
}

static void draw_axes(ab_buf *b, const frame *f) {
    ab_buf_printf(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\"/>\n",
                  LEFT, TOP + H, LEFT + W, TOP + H);
    ab_buf_printf(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\"/>\n",
                  LEFT, TOP, LEFT, TOP + H);
    int64_t span = f->tmax + 1 - f->tmin, step = (span + 4) / 5;
    for (int64_t t = f->tmin; t <= f->tmax + 1; t += step)
        ab_buf_printf(b, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"middle\">"
                         "%lld</text>\n", fx(f, t), TOP + H + 14, (long long)t);
    for (int k = 0; k <= 5; k++) {
        int64_t o = f->ymax * k / 5;
        ab_buf_printf(b, "<text x=\"%.0f\" y=\"%.2f\" font-size=\"10\" text-anchor=\"end\">"
                         "%lld</text>\n", LEFT - 4, fy(f, o) + 3, (long long)o);
    }
    ab_buf_printf(b, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">"
                     "instruction</text>\n", LEFT + W / 2, TOP + H + 32);
    ab_buf_printf(b, "<text x=\"14\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 14 %.0f)\">offset (bytes)</text>\n",
                  TOP + H / 2, TOP + H / 2);
}

/* The frame: every instruction of the problem, bytes up to the highest of
 * the arena, the bound and the peak (a little headroom). */
static frame make_frame(const ab_problem *p, const int64_t *off, int64_t lb, int64_t *arena) {
    frame f = {0, 0, 1};
    *arena = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (i == 0 || p->t[i].start < f.tmin) f.tmin = p->t[i].start;
        if (i == 0 || p->t[i].end > f.tmax) f.tmax = p->t[i].end;
        if (off[i] != AB_NONE && off[i] + p->t[i].size > *arena) *arena = off[i] + p->t[i].size;
    }
    int64_t top = *arena > lb ? *arena : lb;
    f.ymax = top + top / 20 + 1;
    return f;
}

ab_status abr_svg_plan(ab_buf *b, const ab_problem *p, const ab_plan *pl, int64_t lower_bound,
                       const char *title, size_t overlap_a, size_t overlap_b, ab_error *err) {
    int64_t *off = plan_offsets(p, pl);
    if (off == NULL) return ab_fail(err, AB_ENOMEM, "out of memory drawing a plan");
    int64_t arena;
    frame f = make_frame(p, off, lower_bound, &arena);
    ab_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
                  LEFT + W + RIGHT, TOP + H + BOTTOM, LEFT + W + RIGHT, TOP + H + BOTTOM);
    ab_buf_printf(b, "<text x=\"%.0f\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", LEFT);
    ab_buf_xml(b, title ? title : (p->name ? p->name : "plan"));
    ab_buf_printf(b, "</text>\n<text x=\"%.0f\" y=\"38\" font-size=\"11\">%zu tensors, arena %lld "
                     "bytes", LEFT, p->n, (long long)arena);
    if (lower_bound != AB_NONE) ab_buf_printf(b, ", lower bound %lld", (long long)lower_bound);
    ab_buf_printf(b, "</text>\n");
    draw_axes(b, &f);
    for (size_t i = 0; i < p->n; i++)
        if (off[i] != AB_NONE) draw_tensor(b, &f, &p->t[i], off[i], i);
    if (p->n <= ABR_SVG_PAIRWISE_MAX) {
        for (size_t i = 0; i < p->n; i++)
            for (size_t j = i + 1; j < p->n; j++)
                if (off[i] != AB_NONE && off[j] != AB_NONE && ab_conflict(&p->t[i], &p->t[j]))
                    draw_overlap(b, &f, p, off, i, j);
    } else {
        if (overlap_a < p->n && overlap_b < p->n && off[overlap_a] != AB_NONE &&
            off[overlap_b] != AB_NONE)
            draw_overlap(b, &f, p, off, overlap_a, overlap_b);
        ab_buf_printf(b, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" fill=\"red\">over %d "
                         "tensors: only the checker's first overlap is drawn</text>\n",
                      LEFT + W / 2, 38.0, ABR_SVG_PAIRWISE_MAX);
    }
    bool ok = draw_profile(b, &f, p);
    if (lower_bound != AB_NONE) draw_hline(b, &f, lower_bound, "#1f4e9c", "6,3", "lower bound");
    draw_hline(b, &f, arena, "#000", "2,2", "arena");
    ab_buf_printf(b, "</svg>\n");
    ab_free(off);
    if (!ok || b->oom) return ab_fail(err, AB_ENOMEM, "out of memory drawing a plan");
    return AB_OK;
}
