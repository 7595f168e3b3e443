/*
 * svg.c — the plan picture (see svg.h).
 */
#include "results/report/svg.h"

#include "oracle/check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 960.0   /* plot width, px */
#define H 480.0   /* plot height, px */
#define LEFT 90.0
#define TOP 58.0   /* the title (y 20), the subtitle (y 38), the peak label (TOP - 3): a
                     * line of 11 px text apart */
#define BOTTOM 50.0
#define RIGHT 20.0

typedef struct frame {
    int64_t tmin, tmax; /* instructions shown: [tmin, tmax] */
    int64_t ymax;       /* bytes shown */
    abr_ticks yt;       /* the offset axis: 0 .. ymax */
} frame;

/* ---- round ticks and readable bytes ---------------------------------------------- */

/* The smallest 1, 2 or 5 x 10^e at least x (x > 0). */
static double nice_step(double x) {
    double e = pow(10.0, floor(log10(x)));
    static const double m[] = {1.0, 2.0, 5.0, 10.0};
    for (size_t i = 0; i < 4; i++)
        if (m[i] * e >= x * (1 - 1e-9)) return m[i] * e;
    return 10.0 * e;
}

static const struct { double unit; const char *name; } units[] = {
    {1.0, "B"}, {1024.0, "KiB"}, {1048576.0, "MiB"}, {1073741824.0, "GiB"}};
#define NUNITS (sizeof units / sizeof units[0])

abr_ticks abr_byte_ticks(double lo, double hi, int want) {
    abr_ticks t = {0, 1, 1, 1, "B", 0};
    if (want < 1) want = 1;
    if (!(hi > lo)) hi = lo + 1;
    double big = fabs(hi) > fabs(lo) ? fabs(hi) : fabs(lo);
    size_t u = 0;
    while (u + 1 < NUNITS && big >= 2 * units[u + 1].unit) u++;
    t.unit = units[u].unit;
    t.uname = units[u].name;
    double step = nice_step((hi - lo) / t.unit / want);
    if (step * t.unit < 1) step = 1 / t.unit;
    t.step = step * t.unit;
    t.decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    t.first = floor(lo / t.step + 1e-9) * t.step;
    double top = ceil(hi / t.step - 1e-9) * t.step;
    t.n = (size_t)llround((top - t.first) / t.step);
    if (t.n == 0) t.n = 1;
    return t;
}

void abr_put_tick(ab_buf *b, const abr_ticks *t, size_t k) {
    double v = (t->first + (double)k * t->step) / t->unit;
    if (fabs(v) < 1e-12) {
        ab_buf_printf(b, "0");
        return;
    }
    ab_buf_printf(b, "%.*f %s", t->decimals, v, t->uname);
}

void abr_put_bytes(ab_buf *b, int64_t bytes) {
    double a = fabs((double)bytes);
    size_t u = 0;
    while (u + 1 < NUNITS && a >= units[u + 1].unit) u++;
    if (u == 0) {
        ab_buf_printf(b, "%lld B", (long long)bytes);
        return;
    }
    double v = (double)bytes / units[u].unit;
    char tmp[48];
    snprintf(tmp, sizeof tmp, "%.*f", fabs(v) < 10 ? 2 : fabs(v) < 100 ? 1 : 0, v);
    if (strchr(tmp, '.') != NULL) { /* trailing zeros and point off */
        size_t n = strlen(tmp);
        while (tmp[n - 1] == '0') tmp[--n] = '\0';
        if (tmp[n - 1] == '.') tmp[--n] = '\0';
    }
    ab_buf_printf(b, "%s %s", tmp, units[u].name);
}

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

static void put_s(ab_buf *b, const char *s) { ab_buf_append(b, s, strlen(s)); }

static const char *const palette[] = {"#8dd3c7", "#bebada", "#80b1d3", "#fdb462", "#b3de69",
                                      "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};

/* A generous width in px of the character starting with byte c in 10 px
 * sans-serif (DejaVu Sans, the widest common default, is under it), so a
 * label measured with it fits in the browser; 0 for UTF-8 continuation bytes. */
static double glyph_width(unsigned char c) {
    if (c >= 0x80) return c >= 0xC0 ? 10.0 : 0.0;
    if (strchr("mwMW@%", c)) return 10.0;
    if (c >= 'A' && c <= 'Z') return 8.0;
    if (strchr("ijlftr!|.,:;'/()[] ", c)) return 4.5;
    return 6.5;
}

/* How much wider than 10 px regular a glyph of px px is: DejaVu Sans Bold's
 * glyphs are at most 15% wider than its regular ones. */
static double glyph_scale(double px, bool bold) { return px / 10.0 * (bold ? 1.15 : 1.0); }

double abr_text_width(const char *s, double px, bool bold) {
    double w = 0;
    for (size_t k = 0; s[k] != '\0'; k++) w += glyph_width((unsigned char)s[k]);
    return w * glyph_scale(px, bold);
}

size_t abr_text_fit(const char *s, double width, double px, bool bold) {
    size_t n = strlen(s);
    if (abr_text_width(s, px, bold) <= width) return n;
    double g = glyph_scale(px, bold);
    double w = 10.0 * g; /* the ellipsis */
    size_t k = 0;
    while (k < n) {
        size_t e = k + 1; /* the character at k: its continuation bytes */
        while (e < n && ((unsigned char)s[e] & 0xC0) == 0x80) e++;
        if (w + glyph_width((unsigned char)s[k]) * g > width) break;
        w += glyph_width((unsigned char)s[k]) * g;
        k = e;
    }
    return k;
}

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
    /* The name, cut with an ellipsis when it is wider than the rectangle
     * (the tooltip has all of it); none when not 2 bytes of it fit. */
    size_t n = abr_text_fit(t->name, x1 - x0 - 6, 10, false);
    bool whole = t->name[n] == '\0';
    if (!whole && n < 2) return;
    char *cut = whole ? NULL : ab_alloc_array(n + 1, 1);
    if (!whole && cut == NULL) {
        b->oom = true;
        return;
    }
    if (cut != NULL) memcpy(cut, t->name, n), cut[n] = '\0';
    ab_buf_printf(b, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"10\" clip-path=\"none\">",
                  x0 + 3, y0 + 10);
    ab_buf_xml(b, whole ? t->name : cut);
    if (!whole) put_s(b, "\xe2\x80\xa6"); /* an ellipsis */
    ab_buf_printf(b, "</text>\n");
    ab_free(cut);
}

/* Draws the overlap of tensors i and j in red; false (nothing drawn) when
 * they do not overlap: not live together, or no byte in common. */
static bool draw_overlap(ab_buf *b, const frame *f, const ab_problem *p, const int64_t *off,
                         size_t i, size_t j) {
    const ab_tensor *a = &p->t[i], *c = &p->t[j];
    int64_t t0 = a->start > c->start ? a->start : c->start;
    int64_t t1 = a->end < c->end ? a->end : c->end;
    int64_t lo = off[i] > off[j] ? off[i] : off[j];
    int64_t hi = off[i] + a->size < off[j] + c->size ? off[i] + a->size : off[j] + c->size;
    if (t0 > t1 || lo >= hi) return false;
    ab_buf_printf(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"red\" "
                     "fill-opacity=\"0.7\" stroke=\"red\"><title>overlap: ",
                  fx(f, t0), fy(f, hi), fx(f, t1 + 1) - fx(f, t0), fy(f, lo) - fy(f, hi));
    ab_buf_xml(b, a->name);
    ab_buf_printf(b, " and ");
    ab_buf_xml(b, c->name);
    ab_buf_printf(b, "</title></rect>\n");
    return true;
}

/* Whether (i, j) names two placed tensors (AB_NO_TENSOR: none). */
static bool placed_pair(const ab_problem *p, const int64_t *off, size_t i, size_t j) {
    return i < p->n && j < p->n && off[i] != AB_NONE && off[j] != AB_NONE;
}

/* Over ABR_SVG_PAIRWISE_MAX tensors (svg.h): draws the caller's overlapping
 * pair or, when it gives none, the checker's first overlap, and says which
 * it is: in red when there is an overlap (naming it when it cannot be drawn:
 * a tensor at a negative offset is not in the picture), in grey when the
 * checker finds none or cannot check the plan. AB_ENOMEM when the checker
 * runs out of memory. */
static ab_status draw_first_overlap(ab_buf *b, const frame *f, const ab_problem *p,
                                    const ab_plan *pl, const int64_t *off, size_t i, size_t j,
                                    ab_error *err) {
    bool drawn = placed_pair(p, off, i, j) && draw_overlap(b, f, p, off, i, j);
    bool checked = drawn, found = drawn;
    if (!drawn) {
        abo_report r;
        ab_error e = {AB_OK, ""};
        ab_status st = abo_check(p, pl, &r, &e);
        if (st == AB_ENOMEM) return ab_fail(err, st, "%s", e.msg);
        checked = st == AB_OK;
        found = checked && r.overlap_a < p->n && r.overlap_b < p->n;
        i = r.overlap_a, j = r.overlap_b;
        if (found && placed_pair(p, off, i, j)) drawn = draw_overlap(b, f, p, off, i, j);
    }
    ab_buf_printf(b, "<text class=\"overlaps\" x=\"%.0f\" y=\"%.0f\" font-size=\"10\" "
                     "fill=\"%s\" text-anchor=\"end\">", LEFT + W, TOP + H + 32,
                  found ? "red" : "#555");
    if (drawn) {
        ab_buf_printf(b, "over %d tensors: only the checker's first overlap is drawn",
                      ABR_SVG_PAIRWISE_MAX);
    } else if (found) {
        ab_buf_printf(b, "over %d tensors: the checker's first overlap, ", ABR_SVG_PAIRWISE_MAX);
        ab_buf_xml(b, p->t[i].name);
        ab_buf_printf(b, " and ");
        ab_buf_xml(b, p->t[j].name);
        ab_buf_printf(b, ", is not in the picture");
    } else if (checked) {
        ab_buf_printf(b, "no overlap: the checker finds none among the %zu tensors", p->n);
    } else {
        ab_buf_printf(b, "over %d tensors: overlaps are not drawn (the checker could not "
                         "check this plan)", ABR_SVG_PAIRWISE_MAX);
    }
    ab_buf_printf(b, "</text>\n");
    return AB_OK;
}

typedef struct event {
    int64_t t, delta;
} event;

static int cmp_event(const void *pa, const void *pb) {
    const event *a = pa, *b = pb;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    return (a->delta > b->delta) - (a->delta < b->delta);
}

/* The live-bytes profile as a step polyline; *peak_t the first instruction
 * where the live bytes are highest (the max-load instruction), *peak those
 * bytes (AB_NONE and 0 without tensors). */
static bool draw_profile(ab_buf *b, const frame *f, const ab_problem *p, int64_t *peak_t,
                         int64_t *peak, bool draw) {
    *peak_t = AB_NONE;
    *peak = 0;
    event *ev = ab_alloc_array(2 * p->n + 1, sizeof *ev);
    if (ev == NULL) return false;
    for (size_t i = 0; i < p->n; i++) {
        ev[2 * i] = (event){p->t[i].start, p->t[i].size};
        ev[2 * i + 1] = (event){p->t[i].end + 1, -p->t[i].size};
    }
    qsort(ev, 2 * p->n, sizeof *ev, cmp_event);
    ab_buf scratch = {0};
    ab_buf *out = draw ? b : &scratch; /* not drawn: the peak only */
    ab_buf_printf(out, "<polyline fill=\"none\" stroke=\"#1f4e9c\" stroke-width=\"1.5\" "
                       "points=\"");
    int64_t live = 0;
    ab_buf_printf(out, "%.2f,%.2f", fx(f, f->tmin), fy(f, 0));
    /* Aggregated: one pixel column at a time, its entry, highest, lowest
     * and exit values (col < 0: no column open). */
    bool agg = p->n > ABR_SVG_DETAIL_MAX;
    long col = -1;
    int64_t c_in = 0, c_hi = 0, c_lo = 0;
    for (size_t k = 0; k < 2 * p->n;) {
        int64_t t = ev[k].t, before = live;
        while (k < 2 * p->n && ev[k].t == t) live += ev[k++].delta;
        if (live > *peak) *peak = live, *peak_t = t;
        if (!agg) {
            ab_buf_printf(out, " %.2f,%.2f", fx(f, t), fy(f, before));
            ab_buf_printf(out, " %.2f,%.2f", fx(f, t), fy(f, live));
            continue;
        }
        long c = (long)floor(fx(f, t));
        if (c != col) {
            if (col >= 0)
                ab_buf_printf(out, " %ld,%.2f %ld,%.2f %ld,%.2f %ld,%.2f", col, fy(f, c_in), col,
                              fy(f, c_hi), col, fy(f, c_lo), col, fy(f, before));
            col = c, c_in = before, c_hi = before, c_lo = before;
        }
        if (live > c_hi) c_hi = live;
        if (live < c_lo) c_lo = live;
    }
    if (col >= 0)
        ab_buf_printf(out, " %ld,%.2f %ld,%.2f %ld,%.2f %ld,%.2f", col, fy(f, c_in), col,
                      fy(f, c_hi), col, fy(f, c_lo), col, fy(f, live));
    ab_buf_printf(out, "\"><title>live bytes</title></polyline>\n");
    ab_free(ev);
    bool ok = !scratch.oom;
    ab_buf_free(&scratch);
    return ok;
}

/* A horizontal line at v with its label above it (below it when `below`). */
static void draw_hline(ab_buf *b, const frame *f, int64_t v, const char *color, const char *dash,
                       const char *label, bool below) {
    double y = fy(f, v);
    ab_buf_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
                     "stroke-dasharray=\"%s\"/>\n<text class=\"hl\" x=\"%.2f\" y=\"%.2f\" "
                     "font-size=\"11\" fill=\"%s\" text-anchor=\"end\">%s ",
                  LEFT, y, LEFT + W, y, color, dash, LEFT + W, below ? y + 12 : y - 3, color, label);
    abr_put_bytes(b, v);
    ab_buf_printf(b, "</text>\n");
}

/* The arena and lower-bound lines; their labels never overlap: one label when
 * the values are equal, else the higher value's label above its line and the
 * lower one's below when the lines are closer than a label's height. */
static void draw_lines(ab_buf *b, const frame *f, int64_t arena, int64_t lb) {
    if (lb == AB_NONE) {
        draw_hline(b, f, arena, "#000", "2,2", "arena", false);
        return;
    }
    if (lb == arena) {
        draw_hline(b, f, arena, "#000", "2,2", "arena = lower bound", false);
        return;
    }
    bool close = fabs(fy(f, arena) - fy(f, lb)) < 14;
    draw_hline(b, f, lb, "#1f4e9c", "6,3", "lower bound", close && lb < arena);
    draw_hline(b, f, arena, "#000", "2,2", "arena", close && arena < lb);
}

/* The max-load instruction: a band over its column (under the tensors). */
static void draw_peak_band(ab_buf *b, const frame *f, int64_t t) {
    if (t == AB_NONE) return;
    ab_buf_printf(b, "<rect class=\"peak\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                     "height=\"%.2f\" fill=\"#d62728\" fill-opacity=\"0.10\"/>\n",
                  fx(f, t), TOP, fx(f, t + 1) - fx(f, t), H);
}

/* The max-load instruction: a line through its column and a label on top. */
static void draw_peak(ab_buf *b, const frame *f, int64_t t, int64_t live) {
    if (t == AB_NONE) return;
    double x0 = fx(f, t), x1 = fx(f, t + 1), xm = (x0 + x1) / 2;
    bool right = xm < LEFT + W * 0.6;
    ab_buf_printf(b, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#d62728\" "
                     "stroke-width=\"1.2\"/>\n<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" "
                     "fill=\"#d62728\" text-anchor=\"%s\">peak at instruction %lld: ",
                  xm, TOP, xm, TOP + H, right ? xm + 4 : xm - 4, TOP - 3,
                  right ? "start" : "end", (long long)t);
    abr_put_bytes(b, live);
    ab_buf_printf(b, " live</text>\n");
}

static void draw_axes(ab_buf *b, const frame *f) {
    ab_buf_printf(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\"/>\n",
                  LEFT, TOP + H, LEFT + W, TOP + H);
    ab_buf_printf(b, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\"/>\n",
                  LEFT, TOP, LEFT, TOP + H);
    int64_t span = f->tmax + 1 - f->tmin;
    int64_t step = (int64_t)llround(nice_step((double)span / 8.0));
    if (step < 1) step = 1;
    int64_t t0 = f->tmin >= 0 ? (f->tmin + step - 1) / step * step : f->tmin;
    for (int64_t t = t0; t <= f->tmax + 1; t += step)
        ab_buf_printf(b, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"middle\">"
                         "%lld</text>\n", fx(f, t), TOP + H + 14, (long long)t);
    for (size_t k = 0; k <= f->yt.n; k++) {
        double y = fy(f, (int64_t)llround(f->yt.first + (double)k * f->yt.step));
        ab_buf_printf(b, "<line x1=\"%.0f\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" "
                         "stroke=\"#eee\"/><text class=\"yt\" x=\"%.0f\" y=\"%.2f\" "
                         "font-size=\"10\" text-anchor=\"end\">", LEFT, y, LEFT + W, y,
                      LEFT - 4, y + 3);
        abr_put_tick(b, &f->yt, k);
        put_s(b, "</text>\n");
    }
    ab_buf_printf(b, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">"
                     "instruction</text>\n", LEFT + W / 2, TOP + H + 32);
    ab_buf_printf(b, "<text x=\"14\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 14 %.0f)\">offset</text>\n",
                  TOP + H / 2, TOP + H / 2);
}

/* The frame: every instruction of the problem, bytes up to the highest of
 * the arena, the bound and y_top (a little headroom). */
static frame make_frame(const ab_problem *p, const int64_t *off, int64_t lb, int64_t y_top,
                        int64_t *arena) {
    frame f = {.tmin = 0, .tmax = 0, .ymax = 1};
    *arena = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (i == 0 || p->t[i].start < f.tmin) f.tmin = p->t[i].start;
        if (i == 0 || p->t[i].end > f.tmax) f.tmax = p->t[i].end;
        if (off[i] != AB_NONE && off[i] + p->t[i].size > *arena) *arena = off[i] + p->t[i].size;
    }
    int64_t top = *arena > lb ? *arena : lb;
    if (y_top > top) top = y_top;
    f.yt = abr_byte_ticks(0, (double)(top + top / 20 + 1), 6);
    f.ymax = (int64_t)llround(f.yt.first + (double)f.yt.n * f.yt.step);
    return f;
}

/* ---- many tensors: occupancy cells and the largest tensors ------------------------- */

#define CELL ((double)ABR_SVG_CELL)
#define COLS ((size_t)(W / CELL))
#define ROWS ((size_t)(H / CELL))
#define SHADES 8

/* Adds tensor t at off to occ (ROWS x COLS, the fraction of each cell the
 * tensors cover); diff (ROWS x (COLS + 1)) takes the whole cells inside a
 * row, summed into occ afterwards. */
static void add_cover(const frame *f, const ab_tensor *t, int64_t off, double *occ, double *diff) {
    double u0 = (fx(f, t->start) - LEFT) / CELL, u1 = (fx(f, t->end + 1) - LEFT) / CELL;
    double v0 = (fy(f, off + t->size) - TOP) / CELL, v1 = (fy(f, off) - TOP) / CELL;
    if (u0 < 0) u0 = 0;
    if (v0 < 0) v0 = 0;
    if (u1 > (double)COLS) u1 = (double)COLS;
    if (v1 > (double)ROWS) v1 = (double)ROWS;
    if (u1 <= u0 || v1 <= v0) return;
    size_t c0 = (size_t)u0, c1 = (size_t)ceil(u1) - 1;
    size_t r0 = (size_t)v0, r1 = (size_t)ceil(v1) - 1;
    for (size_t r = r0; r <= r1; r++) {
        double lo = v0 > (double)r ? v0 : (double)r;
        double hi = v1 < (double)(r + 1) ? v1 : (double)(r + 1);
        double wy = hi - lo;
        double *o = occ + r * COLS, *d = diff + r * (COLS + 1);
        if (c0 == c1) {
            o[c0] += wy * (u1 - u0);
            continue;
        }
        o[c0] += wy * ((double)(c0 + 1) - u0);
        o[c1] += wy * (u1 - (double)c1);
        d[c0 + 1] += wy;
        d[c1] -= wy;
    }
}

/* The shade of a cell covered `x` (0: empty, SHADES: full). */
static int shade(double x) {
    if (x < 1e-6) return 0;
    int s = (int)ceil(x * SHADES - 1e-6);
    return s < 1 ? 1 : s > SHADES ? SHADES : s;
}

typedef struct big {
    double area; /* bytes x instructions */
    size_t i;
} big;

static int cmp_big(const void *pa, const void *pb) {
    const big *a = pa, *b = pb;
    if (a->area != b->area) return a->area > b->area ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Draws the placed tensors as occupancy cells, then the ABR_SVG_OUTLINED
 * largest of them one by one (svg.h). False when out of memory. */
static bool draw_aggregated(ab_buf *b, const frame *f, const ab_problem *p, const int64_t *off) {
    double *occ = ab_alloc_array(ROWS * COLS, sizeof *occ);
    double *diff = ab_alloc_array(ROWS * (COLS + 1), sizeof *diff);
    big *v = ab_alloc_array(p->n ? p->n : 1, sizeof *v);
    bool ok = occ != NULL && diff != NULL && v != NULL;
    size_t nb = 0;
    if (ok) {
        memset(occ, 0, ROWS * COLS * sizeof *occ);
        memset(diff, 0, ROWS * (COLS + 1) * sizeof *diff);
        for (size_t i = 0; i < p->n; i++) {
            if (off[i] == AB_NONE) continue;
            add_cover(f, &p->t[i], off[i], occ, diff);
            v[nb++] = (big){(double)p->t[i].size * (double)(p->t[i].end - p->t[i].start + 1), i};
        }
        ab_buf_printf(b, "<g class=\"occupancy\" fill=\"#555\">\n");
        for (size_t r = 0; r < ROWS; r++) {
            double run = 0, *o = occ + r * COLS, *d = diff + r * (COLS + 1);
            for (size_t c = 0; c < COLS; c++) run += d[c], o[c] += run;
            for (size_t c = 0; c < COLS;) {
                int s = shade(o[c]);
                size_t e = c + 1;
                while (e < COLS && shade(o[e]) == s) e++;
                if (s > 0)
                    ab_buf_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
                                     "height=\"%.0f\" fill-opacity=\"%.3f\"/>\n",
                                  LEFT + (double)c * CELL, TOP + (double)r * CELL,
                                  (double)(e - c) * CELL, CELL, (double)s / SHADES);
                c = e;
            }
        }
        ab_buf_printf(b, "</g>\n");
        qsort(v, nb, sizeof *v, cmp_big);
        for (size_t k = 0; k < nb && k < ABR_SVG_OUTLINED; k++)
            draw_tensor(b, f, &p->t[v[k].i], off[v[k].i], v[k].i);
    }
    ab_free(occ);
    ab_free(diff);
    ab_free(v);
    return ok;
}

/* "6144 B (6 KiB)"; "45 B" below a KiB. */
static void put_size(ab_buf *b, int64_t v) {
    ab_buf_printf(b, "%lld B", (long long)v);
    if (v < 1024) return;
    ab_buf_printf(b, " (");
    abr_put_bytes(b, v);
    ab_buf_printf(b, ")");
}

/* Marked tensor t at off (svg.h, abr_svg_marks): a red outline over the
 * plan and its name above its top edge (left-aligned, or right-aligned when
 * it starts in the plot's right third), on a white halo. */
static void draw_mark(ab_buf *b, const frame *f, const ab_tensor *t, int64_t off) {
    double x0 = fx(f, t->start), x1 = fx(f, t->end + 1);
    double y0 = fy(f, off + t->size), y1 = fy(f, off);
    ab_buf_printf(b, "<rect class=\"mark\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
                     "height=\"%.2f\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"><title>",
                  x0, y0, x1 - x0, y1 - y0);
    ab_buf_xml(b, t->name);
    ab_buf_printf(b, ": [%lld, %lld] bytes [%lld, %lld), marked</title></rect>\n",
                  (long long)t->start, (long long)t->end, (long long)off,
                  (long long)(off + t->size));
    bool right = x0 > LEFT + W * 2.0 / 3.0;
    ab_buf_printf(b, "<text class=\"mark\" x=\"%.2f\" y=\"%.2f\" font-size=\"11\" "
                     "font-weight=\"bold\" fill=\"#d62728\" stroke=\"#fff\" stroke-width=\"3\" "
                     "paint-order=\"stroke\" text-anchor=\"%s\">",
                  right ? x1 - 2 : x0 + 2, y0 - 4 < TOP + 10 ? y0 + 12 : y0 - 4,
                  right ? "end" : "start");
    ab_buf_xml(b, t->name);
    ab_buf_printf(b, "</text>\n");
}

ab_status abr_svg_plan(ab_buf *b, const ab_problem *p, const ab_plan *pl, int64_t lower_bound,
                       const char *title, size_t overlap_a, size_t overlap_b, ab_error *err) {
    return abr_svg_plan_marked(b, p, pl, lower_bound, title, overlap_a, overlap_b, NULL, err);
}

ab_status abr_svg_plan_marked(ab_buf *b, const ab_problem *p, const ab_plan *pl,
                              int64_t lower_bound, const char *title, size_t overlap_a,
                              size_t overlap_b, const abr_svg_marks *marks, ab_error *err) {
    static const abr_svg_marks none = {0};
    if (marks == NULL) marks = &none;
    int64_t *off = plan_offsets(p, pl);
    if (off == NULL) return ab_fail(err, AB_ENOMEM, "out of memory drawing a plan");
    int64_t arena;
    frame f = make_frame(p, off, lower_bound, marks->y_top, &arena);
    double height = TOP + H + BOTTOM + (marks->note ? 18 : 0);
    ab_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
                  LEFT + W + RIGHT, height, LEFT + W + RIGHT, height);
    ab_buf_printf(b, "<text x=\"%.0f\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", LEFT);
    ab_buf_xml(b, title ? title : (p->name ? p->name : "plan"));
    ab_buf_printf(b, "</text>\n<text x=\"%.0f\" y=\"38\" font-size=\"11\">%zu tensors, arena ",
                  LEFT, p->n);
    put_size(b, arena);
    if (lower_bound != AB_NONE) {
        ab_buf_printf(b, ", lower bound ");
        put_size(b, lower_bound);
    }
    if (p->n > ABR_SVG_DETAIL_MAX)
        ab_buf_printf(b, "; aggregated: %d px cells, darker = fuller; the %d largest tensors "
                         "drawn", ABR_SVG_CELL, ABR_SVG_OUTLINED);
    ab_buf_printf(b, "</text>\n");
    draw_axes(b, &f);
    int64_t peak_t, peak;
    if (!draw_profile(b, &f, p, &peak_t, &peak, false)) b->oom = true;
    draw_peak_band(b, &f, peak_t);
    if (p->n > ABR_SVG_DETAIL_MAX) {
        if (!draw_aggregated(b, &f, p, off)) b->oom = true;
    } else {
        for (size_t i = 0; i < p->n; i++)
            if (off[i] != AB_NONE) draw_tensor(b, &f, &p->t[i], off[i], i);
    }
    if (p->n <= ABR_SVG_PAIRWISE_MAX) {
        for (size_t i = 0; i < p->n; i++)
            for (size_t j = i + 1; j < p->n; j++)
                if (off[i] != AB_NONE && off[j] != AB_NONE && ab_conflict(&p->t[i], &p->t[j]))
                    draw_overlap(b, &f, p, off, i, j);
    } else if (draw_first_overlap(b, &f, p, pl, off, overlap_a, overlap_b, err) != AB_OK) {
        ab_free(off);
        return AB_ENOMEM;
    }
    bool ok = draw_profile(b, &f, p, &peak_t, &peak, true);
    draw_peak(b, &f, peak_t, peak);
    draw_lines(b, &f, arena, lower_bound);
    for (size_t k = 0, drawn = 0; k < marks->nmarked && drawn < ABR_SVG_MARKED_MAX; k++) {
        size_t i = marks->marked[k];
        if (i >= p->n || off[i] == AB_NONE) continue;
        draw_mark(b, &f, &p->t[i], off[i]);
        drawn++;
    }
    if (marks->note != NULL) {
        ab_buf_printf(b, "<text class=\"note\" x=\"%.0f\" y=\"%.0f\" font-size=\"11\">",
                      LEFT, TOP + H + BOTTOM + 10);
        ab_buf_xml(b, marks->note);
        ab_buf_printf(b, "</text>\n");
    }
    ab_buf_printf(b, "</svg>\n");
    ab_free(off);
    if (!ok || b->oom) return ab_fail(err, AB_ENOMEM, "out of memory drawing a plan");
    return AB_OK;
}
