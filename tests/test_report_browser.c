/*
 * test_report_browser.c — the HTML report as a browser lays it out (issue 31):
 * a report made by the command line from a run of every planner over
 * suites/examples and a chain with a converted model's long tensor names (a
 * gap chart of 21 planners with outliers far above its axis, plan pictures,
 * wide tables) gets a small script appended that, on load, measures the page
 * with getBoundingClientRect and writes the figures as JSON into
 * <pre id="geom">; headless Chromium loads it at 1024x768 and dumps the DOM,
 * and the checks below read the geometry, never pixels:
 *
 *  1. the legend lies above the gap chart, inside the page, its entries apart;
 *  2. the gap chart's axis: its ticks from 0% up, its 0-50% band over most of
 *     the plot's width, a shaded outlier column at its right end labelled
 *     ">50%", the tick labels apart;
 *  3. every gap marker lies inside the plot, in its suite's row, at its gap
 *     (read from its tooltip) on the axis or, above the axis, in the outlier
 *     column and only then; markers of one suite whose gaps differ by a
 *     percentage point or more are apart;
 *  4. the suite labels are apart, left of the plot and inside the chart;
 *  5. each plan picture has a size and fits the page; every tensor rectangle
 *     lies in the arena box (between the axes, under the arena line) where its
 *     tooltip's instructions and bytes put it; a tensor's name lies inside its
 *     rectangle (the long ones cut); every label lies inside the picture, the tick labels and the
 *     other labels (title, subtitle, peak, arena and bound, axis titles) apart;
 *  6. the page does not scroll sideways: each table fits the page or sits in
 *     a scrolling box that does;
 *  7. each arena-versus-k chart (a second, small report of hand-made k
 *     sweeps, charts_of_k_sweeps_keep_their_geometry_in_chromium): every
 *     marker, failure mark and time label inside the plot, between its axes;
 *     every label inside the chart (the title, the legend, the axes' ticks
 *     and titles are not cut); no two labels overlapping.
 *
 * Skips, saying so, when /usr/bin/chromium is absent. Chromium's start-up is
 * seconds; `timeout 600` is a safety net only, never a measure of speed.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/row.h"
#include "results/store/store.h"
#include "tests/support.h"

#define CHROMIUM "/usr/bin/chromium"
#define EPS 1.0 /* px: layout rounding */

/* ---- a small JSON reader (the probe's output) ------------------------------------ */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } jtype;

typedef struct jv {
    jtype t;
    double d;       /* J_NUM, J_BOOL */
    char *s;        /* J_STR */
    size_t n;       /* J_ARR, J_OBJ: elements */
    struct jv *v;   /* elements */
    char **k;       /* J_OBJ: keys */
} jv;

static void jfree(jv *x) {
    for (size_t i = 0; i < x->n; i++) {
        jfree(&x->v[i]);
        if (x->k) free(x->k[i]);
    }
    free(x->v), free(x->k), free(x->s);
}

static void jspace(const char **p) {
    while (**p == ' ' || **p == '\n' || **p == '\t' || **p == '\r') (*p)++;
}

/* A string at *p (after its quote) into a new buffer; \uXXXX as UTF-8. */
static char *jstring(const char **p) {
    size_t cap = 16, n = 0;
    char *s = malloc(cap);
    while (**p != '"') {
        cr_assert(**p != '\0', "unterminated JSON string");
        if (n + 8 > cap) s = realloc(s, cap *= 2);
        char c = *(*p)++;
        if (c != '\\') {
            s[n++] = c;
            continue;
        }
        c = *(*p)++;
        if (c == 'u') {
            unsigned u = 0;
            cr_assert_eq(sscanf(*p, "%4x", &u), 1, "bad \\u escape");
            *p += 4;
            if (u < 0x80) s[n++] = (char)u;
            else if (u < 0x800) s[n++] = (char)(0xC0 | u >> 6), s[n++] = (char)(0x80 | (u & 63));
            else s[n++] = (char)(0xE0 | u >> 12), s[n++] = (char)(0x80 | (u >> 6 & 63)),
                 s[n++] = (char)(0x80 | (u & 63));
        } else {
            s[n++] = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c == 'b' ? '\b'
                   : c == 'f' ? '\f' : c;
        }
    }
    (*p)++;
    s[n] = '\0';
    return s;
}

static void jparse(const char **p, jv *x) {
    memset(x, 0, sizeof *x);
    jspace(p);
    char c = **p;
    if (c == '{' || c == '[') {
        x->t = c == '{' ? J_OBJ : J_ARR;
        char close = c == '{' ? '}' : ']';
        size_t cap = 0;
        (*p)++;
        jspace(p);
        if (**p == close) {
            (*p)++;
            return;
        }
        for (;;) {
            if (x->n == cap) {
                cap = cap ? 2 * cap : 4;
                x->v = realloc(x->v, cap * sizeof *x->v);
                if (x->t == J_OBJ) x->k = realloc(x->k, cap * sizeof *x->k);
            }
            if (x->t == J_OBJ) {
                jspace(p);
                cr_assert_eq(**p, '"', "a JSON key at '%.20s'", *p);
                (*p)++;
                x->k[x->n] = jstring(p);
                jspace(p);
                cr_assert_eq(**p, ':', "':' at '%.20s'", *p);
                (*p)++;
            }
            jparse(p, &x->v[x->n++]);
            jspace(p);
            if (**p == ',') {
                (*p)++;
                continue;
            }
            cr_assert_eq(**p, close, "'%c' at '%.20s'", close, *p);
            (*p)++;
            return;
        }
    }
    if (c == '"') {
        (*p)++;
        x->t = J_STR;
        x->s = jstring(p);
    } else if (strncmp(*p, "null", 4) == 0) {
        *p += 4;
    } else if (strncmp(*p, "true", 4) == 0 || strncmp(*p, "false", 5) == 0) {
        x->t = J_BOOL;
        x->d = c == 't';
        *p += c == 't' ? 4 : 5;
    } else {
        char *end;
        x->t = J_NUM;
        x->d = strtod(*p, &end);
        cr_assert_neq(end, *p, "a JSON value at '%.20s'", *p);
        *p = end;
    }
}

/* Member key of object o (asserted present). */
static const jv *jget(const jv *o, const char *key) {
    cr_assert_eq(o->t, J_OBJ);
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->k[i], key) == 0) return &o->v[i];
    cr_assert_fail("the probe's JSON has no '%s'", key);
    return NULL;
}

static double jnum(const jv *o, const char *key) {
    const jv *v = jget(o, key);
    cr_assert_eq(v->t, J_NUM, "'%s' is a number", key);
    return v->d;
}

static const char *jstr(const jv *o, const char *key) {
    const jv *v = jget(o, key);
    cr_assert_eq(v->t, J_STR, "'%s' is a string", key);
    return v->s;
}

/* ---- boxes ------------------------------------------------------------------------ */

/* A layout box in CSS px of the page: left, top, width, height. */
typedef struct box {
    double x, y, w, h;
} box;

/* The box [left, top, width, height] that array a holds. */
static box abox(const jv *a) {
    cr_assert(a->t == J_ARR && a->n == 4, "a box is 4 numbers");
    return (box){a->v[0].d, a->v[1].d, a->v[2].d, a->v[3].d};
}

static box jbox(const jv *o, const char *key) {
    const jv *a = jget(o, key);
    cr_assert(a->t == J_ARR && a->n == 4, "'%s' is a box", key);
    return abox(a);
}

static double right(box b) { return b.x + b.w; }
static double bottom(box b) { return b.y + b.h; }
static double cx(box b) { return b.x + b.w / 2; }
static double cy(box b) { return b.y + b.h / 2; }

/* true when a and b share more than EPS px both ways (touching is apart). */
static bool overlap(box a, box b) {
    return a.x + EPS < right(b) && b.x + EPS < right(a) && a.y + EPS < bottom(b) &&
           b.y + EPS < bottom(a);
}

/* true when a lies inside b (EPS px of slack). */
static bool inside(box a, box b) {
    return a.x >= b.x - EPS && a.y >= b.y - EPS && right(a) <= right(b) + EPS &&
           bottom(a) <= bottom(b) + EPS;
}

#define BOX_FMT "[%.1f,%.1f %.1fx%.1f]"
#define BOX_ARG(b) (b).x, (b).y, (b).w, (b).h

/* Texts {s, b} of array a: no two overlap. what names them in the message. */
static void check_apart(const jv *a, const char *what) {
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = i + 1; j < a->n; j++)
            cr_assert(!overlap(jbox(&a->v[i], "b"), jbox(&a->v[j], "b")),
                      "%s: '%s' " BOX_FMT " and '%s' " BOX_FMT " overlap", what,
                      jstr(&a->v[i], "s"), BOX_ARG(jbox(&a->v[i], "b")), jstr(&a->v[j], "s"),
                      BOX_ARG(jbox(&a->v[j], "b")));
}

/* ---- the report and the browser --------------------------------------------------- */

/* The probe appended to the report: on load it measures the page and writes
 * the figures as JSON (with &, < and > escaped, so the dump needs no
 * decoding) into <pre id="geom">. Boxes are [left, top, width, height] in
 * CSS px of the page. It finds the parts by what report_html.c and svg.c
 * draw: the gap chart is the SVG after the legend, its grid lines are
 * #ddd, each followed by its tick label; a suite's label (anchored at its
 * end) comes before its markers (g.mk); a plan picture's axes are the
 * solid #000 lines, the arena line the dotted one; tensors are the rects
 * stroked #333, a name label (text with clip-path) right after its rect; a
 * k chart is an SVG in div.charts, its axes the #333 lines, its points the
 * g.mk with a tooltip (the legend's have none), its failure marks text.kf,
 * its time labels text.kt. */
static const char probe[] =
    "<script>\n"
    "addEventListener('load', function () {\n"
    "  var all = function (root, sel) { return Array.prototype.slice.call("
    "root.querySelectorAll(sel)); };\n"
    "  var box = function (e) { var r = e.getBoundingClientRect();\n"
    "    return [r.left + scrollX, r.top + scrollY, r.width, r.height]; };\n"
    "  var text = function (t) { return {s: t.textContent, b: box(t)}; };\n"
    "  var de = document.documentElement;\n"
    "  var g = {w: de.clientWidth, sw: de.scrollWidth};\n"
    "  var lg = document.getElementById('legend');\n"
    "  g.legend = {b: box(lg), items: Array.prototype.map.call(lg.children, text)};\n"
    "  var svg = lg.nextElementSibling;\n"
    "  var gap = {b: box(svg), ticks: [], grid: [], suites: [], marks: [], out: null};\n"
    "  all(svg, 'line[stroke=\"#ddd\"]').forEach(function (l) {\n"
    "    gap.grid.push({s: l.nextElementSibling.textContent, b: box(l)});\n"
    "    gap.ticks.push(text(l.nextElementSibling)); });\n"
    "  var o = svg.querySelector('rect.outliers');\n"
    "  if (o) { gap.out = {s: o.nextElementSibling.textContent, b: box(o)};\n"
    "    gap.ticks.push(text(o.nextElementSibling)); }\n"
    "  var f = svg.querySelector('line[stroke-dasharray]');\n"
    "  if (f) gap.ticks.push(text(f.nextElementSibling));\n"
    "  Array.prototype.forEach.call(svg.children, function (e) {\n"
    "    if (e.matches('text[text-anchor=\"end\"]'))\n"
    "      gap.suites.push({s: e.firstChild.textContent, b: box(e)});\n"
    "    else if (e.matches('g.mk'))\n"
    "      gap.marks.push({suite: gap.suites.length - 1,\n"
    "                      s: e.querySelector('title').textContent, b: box(e)}); });\n"
    "  g.gap = gap;\n"
    "  g.plans = all(document, 'figure.plan svg').map(function (s) {\n"
    "    var p = {b: box(s), axes: [], arena: null, tensors: [], names: [], other: []};\n"
    "    all(s, 'line[stroke=\"#000\"]').forEach(function (l) {\n"
    "      if (l.getAttribute('stroke-dasharray')) p.arena = box(l);\n"
    "      else p.axes.push(box(l)); });\n"
    "    all(s, 'rect[stroke=\"#333\"]').forEach(function (r) {\n"
    "      var t = {s: r.querySelector('title').textContent, b: box(r), name: null};\n"
    "      var n = r.nextElementSibling;\n"
    "      if (n && n.matches('text[clip-path]')) { t.name = text(n); p.names.push(n); }\n"
    "      p.tensors.push(t); });\n"
    "    p.yt = all(s, 'text.yt').map(text);\n"
    "    p.xt = all(s, 'text[font-size=\"10\"][text-anchor=\"middle\"]').map(text);\n"
    "    p.texts = all(s, 'text').map(text);\n"
    "    p.other = all(s, 'text').filter(function (t) { return p.names.indexOf(t) < 0 &&\n"
    "      !t.matches('.yt') && !t.matches('[font-size=\"10\"][text-anchor=\"middle\"]'); })"
    ".map(text);\n"
    "    delete p.names;\n"
    "    return p; });\n"
    "  g.kcharts = all(document, 'div.charts > svg').map(function (s) {\n"
    "    var c = {b: box(s), axes: [], marks: [], fails: [], times: [], labels: []};\n"
    "    all(s, 'line[stroke=\"#333\"]').forEach(function (l) { c.axes.push(box(l)); });\n"
    "    all(s, 'g.mk').forEach(function (m) { var t = m.querySelector('title');\n"
    "      if (t) c.marks.push({s: t.textContent, b: box(m)}); });\n"
    "    all(s, 'text').forEach(function (t) {\n"
    "      if (t.matches('.kf')) { c.fails.push({s: t.textContent, b: box(t)}); return; }\n"
    "      c.labels.push(text(t));\n"
    "      if (t.matches('.kt')) c.times.push(text(t)); });\n"
    "    return c; });\n"
    "  g.tables = all(document, 'table').map(function (t) { var sc = t.closest('.scroll');\n"
    "    return {b: box(t), scroll: sc ? box(sc) : null}; });\n"
    "  var pre = document.createElement('pre');\n"
    "  pre.id = 'geom';\n"
    "  pre.textContent = JSON.stringify(g).replace(/[&<>]/g, function (c) {\n"
    "    return '\\\\u00' + c.charCodeAt(0).toString(16); });\n"
    "  document.body.appendChild(pre);\n"
    "});\n"
    "</script>\n";

/* A layer chain whose tensors have the long names of a converted model
 * (TFLite joins the ops a tensor comes from with ';'): each lives two
 * instructions, so two buffers do, and a planner that reuses nothing
 * (executorch-naive) leaves a gap of 500%: the report draws its plan. */
static const char long_names[] =
    "suite: long-names\n"
    "tensors:\n"
    "  - {name: 'serving_default_input:0', size: 100, start: 0, end: 1}\n"
    "  - {name: 'model/block_1/conv2d_1/Relu6;model/block_1/conv2d_1/BiasAdd', size: 100, "
    "start: 1, end: 2}\n"
    "  - {name: 'model/block_2/depthwise_conv2d/Relu6', size: 100, start: 2, end: 3}\n"
    "  - {name: 'model/block_3/conv2d_3/Conv2D;model/block_3/batch_normalization/FusedBatchNorm',"
    " size: 100, start: 3, end: 4}\n"
    "  - {name: 'WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW', size: 100, start: 4, end: 5}\n"
    "  - {name: 'model/global_average_pooling2d/Mean', size: 100, start: 5, end: 6}\n"
    "  - {name: 'StatefulPartitionedCall:0', size: 100, start: 6, end: 7}\n"
    "  - {name: 'x', size: 100, start: 7, end: 8}\n"
    "  - {name: 'model/dense/MatMul;model/dense/BiasAdd', size: 100, start: 8, end: 9}\n"
    "  - {name: 'model/dense_1/Softmax', size: 100, start: 9, end: 10}\n"
    "  - {name: 'Identity', size: 100, start: 10, end: 11}\n"
    "  - {name: 'model/concatenate/concat', size: 100, start: 11, end: 12}\n";

/* Runs every planner over suites/examples and the long names into dir/r.db
 * and writes the HTML report to dir/r.html, as test_report_html.c's
 * make_report does. */
static void make_report(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/long_names.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(long_names, f);
    cr_assert_eq(fclose(f), 0);
    abt_run_ok(0, "run -q -j 2 --repeat-min 1 --db %s/r.db --planners all %s %s", dir,
               abt_src("suites/examples"), path);
    abt_run_ok(0, "report --db %s/r.db --format html -o %s/r.html", dir, dir);
}

/* dir/r.html with the probe appended, loaded by chromium; the probe's JSON,
 * parsed into *g (jfree). */
static void measure(const char *dir, jv *g) {
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/r.html", dir);
    char *html = abt_slurp(path, NULL);
    cr_assert_not_null(html);
    snprintf(path, sizeof path, "%s/probe.html", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(html, f);
    fputs(probe, f);
    cr_assert_eq(fclose(f), 0);
    free(html);
    /* HOME: chromium's profile in the test's folder. The virtual time
     * budget lets the load event's script run before the dump (virtual
     * time: no wait when the page is idle). */
    snprintf(cmd, sizeof cmd, "cd %s && HOME=%s timeout 600 " CHROMIUM " --headless "
             "--no-sandbox --disable-gpu --hide-scrollbars --window-size=1024,768 "
             "--virtual-time-budget=10000 --dump-dom file://%s/probe.html >%s/dom.html "
             "2>%s/dom.log", dir, dir, dir, dir, dir);
    int rc = system(cmd);
    snprintf(path, sizeof path, "%s/dom.log", dir);
    char *log = abt_slurp(path, NULL);
    cr_assert_eq(rc, 0, "chromium --dump-dom: exit %d\n%s", rc, log ? log : "");
    snprintf(path, sizeof path, "%s/dom.html", dir);
    char *dom = abt_slurp(path, NULL);
    cr_assert_not_null(dom);
    const char *p = strstr(dom, "<pre id=\"geom\">");
    cr_assert_not_null(p, "the probe wrote no measurements; chromium said:\n%s", log ? log : "");
    p += strlen("<pre id=\"geom\">");
    jparse(&p, g);
    cr_assert(strncmp(p, "</pre>", 6) == 0, "the measurements end at '%.20s'", p);
    free(log);
    free(dom);
}

/* ---- checks ------------------------------------------------------------------------ */

/* 1. The legend: inside the page, above the chart, its entries apart. */
static void check_legend(const jv *g) {
    const jv *lg = jget(g, "legend"), *items = jget(lg, "items");
    box b = jbox(lg, "b"), chart = jbox(jget(g, "gap"), "b");
    cr_assert_gt(items->n, 10, "a legend entry per planner spec");
    cr_assert_leq(right(b), jnum(g, "w") + EPS, "the legend " BOX_FMT " fits the page",
                  BOX_ARG(b));
    cr_assert_leq(bottom(b), chart.y + EPS, "the legend " BOX_FMT " lies above the chart "
                  BOX_FMT, BOX_ARG(b), BOX_ARG(chart));
    for (size_t i = 0; i < items->n; i++)
        cr_assert(inside(jbox(&items->v[i], "b"), b), "legend entry '%s' inside the legend",
                  jstr(&items->v[i], "s"));
    check_apart(items, "legend");
}

/* The gap chart's plot: its grid's extent, and the outlier column. */
typedef struct gplot {
    double x0, x1;  /* the 0% and the top tick's grid lines */
    double pmax;    /* the top tick, % */
    double top, bot;
    box out;        /* the outlier column (w == 0: none) */
    double right;   /* the plot's right end: the outlier column's, else x1 */
} gplot;

/* 2. The axis: ticks from 0%, evenly spaced, the band over most of the
 * plot's width, the outlier column at its right end, labels apart. */
static gplot check_gap_axis(const jv *gap) {
    const jv *grid = jget(gap, "grid");
    cr_assert_geq(grid->n, 3, "the gap axis has ticks");
    gplot p = {0};
    box first = jbox(&grid->v[0], "b"), last = jbox(&grid->v[grid->n - 1], "b");
    cr_assert_str_eq(jstr(&grid->v[0], "s"), "0%", "the axis starts at 0%%");
    p.pmax = atof(jstr(&grid->v[grid->n - 1], "s"));
    p.x0 = cx(first), p.x1 = cx(last), p.top = first.y, p.bot = bottom(first);
    cr_assert_gt(p.bot - p.top, 50, "the plot has a height");
    for (size_t k = 0; k < grid->n; k++) {
        double want = p.x0 + (p.x1 - p.x0) * (double)k / (double)(grid->n - 1);
        double at = atof(jstr(&grid->v[k], "s"));
        cr_assert(fabs(cx(jbox(&grid->v[k], "b")) - want) < EPS, "tick %zu evenly placed", k);
        cr_assert(fabs(at - p.pmax * (double)k / (double)(grid->n - 1)) < 1e-6,
                  "tick %zu is %g%%, not evenly spaced to %g%%", k, at, p.pmax);
    }
    p.right = p.x1;
    const jv *out = jget(gap, "out");
    if (out->t == J_OBJ) {
        p.out = jbox(out, "b");
        p.right = right(p.out);
        char want[32];
        snprintf(want, sizeof want, ">%g%%", p.pmax);
        cr_assert_str_eq(jstr(out, "s"), want, "the outlier column says what it holds");
        cr_assert_geq(p.out.x, p.x1, "the outlier column lies right of the axis' end");
        cr_assert(fabs(p.out.y - p.top) < EPS && fabs(bottom(p.out) - p.bot) < EPS,
                  "the outlier column spans the plot's height");
        cr_assert_geq(p.out.w, 12, "the outlier column holds a marker");
    }
    /* The complaint: a linear axis to the largest gap squeezed
     * almost every marker into a few px. The band must get the plot. */
    cr_assert_geq((p.x1 - p.x0) / (p.right - p.x0), 0.75, "the 0-%g%% band takes %.0f of the "
                  "plot's %.0f px", p.pmax, p.x1 - p.x0, p.right - p.x0);
    cr_assert_geq((p.x1 - p.x0) / p.pmax, 4.0, "%.1f px per percentage point",
                  (p.x1 - p.x0) / p.pmax);
    const jv *ticks = jget(gap, "ticks");
    for (size_t k = 0; k < ticks->n; k++)
        cr_assert_geq(jbox(&ticks->v[k], "b").y, p.bot - EPS, "tick label '%s' under the plot",
                      jstr(&ticks->v[k], "s"));
    check_apart(ticks, "gap axis labels");
    return p;
}

/* The gap (in %) a marker's tooltip "spec: arena N, gap +x%" says. */
static double mark_gap(const char *title) {
    const char *g = strstr(title, ", gap ");
    cr_assert_not_null(g, "a gap in '%s'", title);
    return atof(g + strlen(", gap "));
}

/* 3 and 4. Markers and suite labels. */
static void check_gap_marks(const jv *gap, const gplot *p) {
    const jv *suites = jget(gap, "suites"), *marks = jget(gap, "marks");
    box chart = jbox(gap, "b");
    cr_assert_geq(suites->n, 5);
    cr_assert_geq(marks->n, 100, "a marker per planner and suite");
    double row = (cy(jbox(&suites->v[suites->n - 1], "b")) - cy(jbox(&suites->v[0], "b"))) /
                 (double)(suites->n - 1);
    cr_assert_geq(row, 10, "a suite's row is %.1f px high", row);
    for (size_t s = 0; s < suites->n; s++) {
        box b = jbox(&suites->v[s], "b");
        cr_assert(inside(b, chart), "suite label '%s' inside the chart", jstr(&suites->v[s], "s"));
        cr_assert_leq(right(b), p->x0 - 4, "suite label '%s' ends left of the plot",
                      jstr(&suites->v[s], "s"));
    }
    check_apart(suites, "suite labels");
    size_t outliers = 0, spread = 0;
    for (size_t i = 0; i < marks->n; i++) {
        const jv *m = &marks->v[i];
        const char *t = jstr(m, "s");
        box b = jbox(m, "b");
        double gp = mark_gap(t), x = cx(b), y = cy(b);
        size_t s = (size_t)jnum(m, "suite");
        cr_assert_lt(s, suites->n, "'%s' comes after a suite label", t);
        cr_assert(inside(b, chart), "'%s' " BOX_FMT " inside the chart", t, BOX_ARG(b));
        cr_assert(y >= p->top && y <= p->bot, "'%s' at y %.1f inside the plot [%.1f, %.1f]", t,
                  y, p->top, p->bot);
        cr_assert_leq(fabs(y - cy(jbox(&suites->v[s], "b"))), row / 2,
                      "'%s' at y %.1f in its suite's row", t, y);
        bool in_out = p->out.w > 0 && x >= p->out.x && x <= right(p->out);
        if (gp > p->pmax + 1e-9) {
            cr_assert(in_out, "'%s' above the axis' %g%% at x %.1f, not in the outlier column "
                      BOX_FMT, t, p->pmax, x, BOX_ARG(p->out));
            outliers++;
            continue;
        }
        cr_assert(!in_out, "'%s' on the axis, but in the outlier column", t);
        double want = p->x0 + (p->x1 - p->x0) * (gp < 0 ? 0 : gp) / p->pmax;
        cr_assert(fabs(x - want) <= 1.5, "'%s' at x %.1f, its gap is at %.1f", t, x, want);
        for (size_t j = 0; j < i; j++) {
            const jv *o = &marks->v[j];
            double og = mark_gap(jstr(o, "s"));
            if ((size_t)jnum(o, "suite") != s || og > p->pmax || fabs(og - gp) < 1.0) continue;
            spread++;
            cr_assert_geq(fabs(cx(jbox(o, "b")) - x), 4.0, "'%s' and '%s' coincide", t,
                          jstr(o, "s"));
        }
    }
    cr_assert_geq(outliers, 2, "the run has gaps above the axis (executorch-naive's)");
    cr_assert_geq(spread, 10, "the run has markers of one suite at distinct gaps");
}

/* The numbers of "name: [s, e] bytes [a, b)", a tensor's tooltip. */
static void tensor_title(const char *t, double *s, double *e, double *a, double *b) {
    const char *p = strstr(t, ": [");
    cr_assert_not_null(p, "a tensor's tooltip: '%s'", t);
    long long v[4];
    cr_assert_eq(sscanf(p, ": [%lld, %lld] bytes [%lld, %lld)", &v[0], &v[1], &v[2], &v[3]), 4,
                 "a tensor's tooltip: '%s'", t);
    *s = (double)v[0], *e = (double)v[1], *a = (double)v[2], *b = (double)v[3];
}

/* An instruction tick's label as a number. */
static double instruction(const char *label) {
    char *end;
    double v = strtod(label, &end);
    cr_assert(end != label && *end == '\0', "an instruction tick says '%s'", label);
    return v;
}

/* 5. One plan picture; returns how many of its name labels are cut. */
static size_t check_plan(const jv *pic, size_t k, double page_w) {
    box svg = jbox(pic, "b");
    cr_assert(svg.w > 100 && svg.h > 100, "picture %zu has a size " BOX_FMT, k, BOX_ARG(svg));
    cr_assert_leq(right(svg), page_w + EPS, "picture %zu fits the page", k);
    const jv *axes = jget(pic, "axes"), *tensors = jget(pic, "tensors");
    cr_assert_eq(axes->n, 2, "picture %zu has two axes", k);
    box xa = {0}, ya = {0};
    for (size_t i = 0; i < 2; i++) { /* the x axis is flat, the y axis upright */
        const jv *v = axes->v[i].v;
        box a = {v[0].d, v[1].d, v[2].d, v[3].d};
        if (a.w > a.h) xa = a;
        else ya = a;
    }
    cr_assert_gt(xa.w, 100, "picture %zu has an x axis", k);
    cr_assert_gt(ya.h, 100, "picture %zu has a y axis", k);
    const jv *al = jget(pic, "arena");
    cr_assert_eq(al->t, J_ARR, "picture %zu has an arena line", k);
    double arena_y = al->v[1].d, left = ya.x, rightx = right(xa), zero_y = xa.y;
    cr_assert(arena_y >= ya.y - EPS && arena_y < zero_y, "picture %zu: the arena line in the "
              "plot", k);
    /* The scales: instructions from the x tick labels (centred on their
     * instruction), bytes from the arena line (the highest tensor end). */
    const jv *xt = jget(pic, "xt");
    cr_assert_geq(xt->n, 2);
    double t0 = instruction(jstr(&xt->v[0], "s"));
    double t1 = instruction(jstr(&xt->v[xt->n - 1], "s"));
    double x0 = cx(jbox(&xt->v[0], "b")), x1 = cx(jbox(&xt->v[xt->n - 1], "b"));
    cr_assert(fabs(x0 - left) < EPS, "picture %zu: the first instruction tick at the y axis", k);
    double arena = 0;
    size_t cut = 0;
    for (size_t i = 0; i < tensors->n; i++) {
        double s, e, a, b;
        tensor_title(jstr(&tensors->v[i], "s"), &s, &e, &a, &b);
        if (b > arena) arena = b;
    }
    cr_assert_gt(tensors->n, 0, "picture %zu draws tensors", k);
    for (size_t i = 0; i < tensors->n; i++) {
        const jv *t = &tensors->v[i];
        const char *title = jstr(t, "s");
        box r = jbox(t, "b");
        double s, e, a, b;
        tensor_title(title, &s, &e, &a, &b);
        cr_assert(r.w > 0 && r.h > 0, "'%s' has a size", title);
        cr_assert(r.x >= left - EPS && right(r) <= rightx + EPS && r.y >= arena_y - EPS &&
                  bottom(r) <= zero_y + EPS, "picture %zu: '%s' " BOX_FMT " outside the arena "
                  "box [%.1f, %.1f] x [%.1f, %.1f]", k, title, BOX_ARG(r), left, rightx, arena_y,
                  zero_y);
        double xs = x0 + (x1 - x0) * (s - t0) / (t1 - t0);
        double xe = x0 + (x1 - x0) * (e + 1 - t0) / (t1 - t0);
        double ya0 = zero_y - (zero_y - arena_y) * a / arena;
        double yb = zero_y - (zero_y - arena_y) * b / arena;
        cr_assert(fabs(r.x - xs) < EPS && fabs(right(r) - xe) < EPS && fabs(bottom(r) - ya0) < EPS
                  && fabs(r.y - yb) < EPS, "picture %zu: '%s' drawn at " BOX_FMT ", its "
                  "instructions and bytes are at x [%.1f, %.1f], y [%.1f, %.1f]", k, title,
                  BOX_ARG(r), xs, xe, yb, ya0);
        const jv *name = jget(t, "name");
        if (name->t != J_OBJ) continue;
        cut += strncmp(title, jstr(name, "s"), strlen(jstr(name, "s"))) != 0 ||
               title[strlen(jstr(name, "s"))] != ':';
        cr_assert(inside(jbox(name, "b"), r), "picture %zu: the name '%s' " BOX_FMT
                      " leaves its rectangle " BOX_FMT, k, jstr(name, "s"),
                      BOX_ARG(jbox(name, "b")), BOX_ARG(r));
    }
    const jv *texts = jget(pic, "texts");
    for (size_t i = 0; i < texts->n; i++)
        cr_assert(inside(jbox(&texts->v[i], "b"), svg), "picture %zu: '%s' " BOX_FMT " is cut "
                  "off by the picture " BOX_FMT, k, jstr(&texts->v[i], "s"),
                  BOX_ARG(jbox(&texts->v[i], "b")), BOX_ARG(svg));
    check_apart(jget(pic, "yt"), "offset ticks");
    check_apart(xt, "instruction ticks");
    check_apart(jget(pic, "other"), "a plan picture's labels");
    return cut;
}

/* 6. Tables fit the page or sit in a scrolling box that does; the page does
 * not scroll sideways. */
static void check_tables(const jv *g) {
    double w = jnum(g, "w");
    cr_assert_leq(jnum(g, "sw"), w, "the page scrolls sideways: %.0f px in %.0f",
                  jnum(g, "sw"), w);
    const jv *tables = jget(g, "tables");
    cr_assert_geq(tables->n, 5);
    size_t scrolled = 0;
    for (size_t i = 0; i < tables->n; i++) {
        box t = jbox(&tables->v[i], "b");
        const jv *sc = jget(&tables->v[i], "scroll");
        if (right(t) <= w + EPS) continue;
        cr_assert_eq(sc->t, J_ARR, "table %zu " BOX_FMT " is wider than the page and does not "
                     "scroll", i, BOX_ARG(t));
        box s = jbox(&tables->v[i], "scroll");
        cr_assert_leq(right(s), w + EPS, "table %zu's scrolling box fits the page", i);
        scrolled++;
    }
    cr_assert_geq(scrolled, 1, "with every planner, some table is wider than 1024 px");
}

Test(report_browser, charts_keep_their_geometry_in_chromium) {
    if (access(CHROMIUM, X_OK) != 0)
        cr_skip_test("chromium is not installed (" CHROMIUM "): the report's layout is not "
                     "checked in a browser");
    char *dir = abt_tmpdir();
    make_report(dir);
    jv g;
    measure(dir, &g);
    check_legend(&g);
    const jv *gap = jget(&g, "gap");
    gplot p = check_gap_axis(gap);
    cr_assert_gt(p.out.w, 0, "the run's outliers give an outlier column");
    check_gap_marks(gap, &p);
    const jv *plans = jget(&g, "plans");
    cr_assert_geq(plans->n, 2, "the report draws plan pictures");
    size_t cut = 0;
    for (size_t k = 0; k < plans->n; k++) cut += check_plan(&plans->v[k], k, jnum(&g, "w"));
    cr_assert_geq(cut, 3, "the long names are drawn, cut to their rectangles");
    check_tables(&g);
    jfree(&g);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    free(dir);
}

/* ---- the arena-versus-k charts ---------------------------------------------------- */

/* A suite called name whose best bound is its max-load, bound (its text a
 * stand-in: the report reads the stored figures). */
static int64_t k_suite(abs_store *s, const char *name, int64_t bound) {
    char text[256];
    snprintf(text, sizeof text,
             "suite: %s\ntensors:\n  - {name: t, size: %lld, start: 0, end: 0}\n", name,
             (long long)bound);
    return abt_put_suite(s, name, text, bound);
}

/* A row of spec family fam at k: arena (0: a timeout) after wall seconds. */
static void k_row(abs_store *s, int64_t run, int64_t su, const char *fam, int64_t k,
                  int64_t arena, int64_t bound, double wall) {
    char spec[128];
    const char *colon = strchr(fam, ':');
    if (colon == NULL) snprintf(spec, sizeof spec, "%s:k=%lld", fam, (long long)k);
    else snprintf(spec, sizeof spec, "%.*s:k=%lld,%s", (int)(colon - fam), fam, (long long)k,
                  colon + 1);
    abo_row r;
    abo_row_init(&r);
    r.run = run;
    r.suite = su;
    r.spec = spec;
    r.k = k;
    r.status = arena ? ABO_STATUS_OK : ABO_STATUS_TIMEOUT;
    r.arena = arena ? arena : AB_NONE;
    r.lower_bound = bound;
    r.verdict = arena ? "ok" : NULL;
    r.error = arena ? NULL : "killed at the time limit";
    r.capped = arena ? NULL : "time";
    r.wall_s = r.cpu_s = r.cpu_min_s = r.cpu_max_s = wall;
    ab_error err;
    cr_assert_eq(abs_result_put(s, &r, &err), AB_OK, "%s", err.msg);
}

/* dir/r.html: the k sweeps of README's "Coarsening", as a run stores them,
 * hand-made so the layout meets what such runs give: exact searches that
 * agree at each k (their points and time labels fall on one another), a
 * timeout, a suite name as long as the longest of suites/, a family with
 * every option spelled out, an arena in MiB, eleven k from 1 to 1024 and
 * 1000 beside 1024, points at the best bound. */
static void make_k_report(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/k.db", dir);
    abs_store *s = abt_open_db(path, ABS_OPEN_CREATE);
    int64_t run = abt_begin(s, "ksweep", "abc123");
    /* Three exact searches over k = 1, 16, 64, 256, 1024 (README's sweep):
     * the same arena at each k, the matrix engine out of time at k = 1. */
    static const char *const fams[] = {"exact-cover:time=10", "exact-cover:engine=links,time=10",
                                       "exact-cover:order=canon,time=10"};
    static const int64_t ks[] = {1, 16, 64, 256, 1024};
    static const int64_t mib[] = {1204224, 1204224, 1210368, 1228800, 1310720};
    static const double secs[3][5] = {{9.87, 2.41, 0.62, 0.11, 0.02},
                                      {0, 3.05, 0.71, 0.12, 0.02},
                                      {4.20, 1.93, 0.58, 0.10, 0.01}};
    int64_t a = k_suite(s, "mobilenet_v2_1.0_224_int8", mib[0]);
    int64_t b = k_suite(s, "peer-executorch-multiple-pools-mem3", 48000);
    for (size_t f = 0; f < 3; f++)
        for (size_t j = 0; j < 5; j++) {
            k_row(s, run, a, fams[f], ks[j], f == 1 && j == 0 ? 0 : mib[j], mib[0], secs[f][j]);
            k_row(s, run, b, fams[f], ks[j], 48000 + 512 * (int64_t)j * (int64_t)j, 48000,
                  secs[f][j] / 7);
        }
    /* A search with every option spelled out, over eleven k and 1000 beside
     * 1024, its arena growing with k from the bound up. */
    int64_t c = k_suite(s, "chain_reuse", 4096);
    const char *opts = "exact-cover:engine=intervals,learn=off,nodes=100000,order=canon";
    for (int j = 0; j <= 10; j++)
        k_row(s, run, c, opts, (int64_t)1 << j, 4096 + 64 * j * j, 4096, 0.001 * (11 - j));
    k_row(s, run, c, opts, 1000, 4096 + 64 * 99, 4096, 0.0015);
    ab_error err;
    cr_assert_eq(abs_run_finish(s, run, ABS_RUN_DONE, &err), AB_OK, "%s", err.msg);
    abs_close(s);
    abt_run_ok(0, "report --db %s --format html -o %s/r.html", path, dir);
}

/* 7. One k chart. */
static void check_k_chart(const jv *c, size_t k) {
    box svg = jbox(c, "b");
    cr_assert(svg.w > 100 && svg.h > 100, "k chart %zu has a size " BOX_FMT, k, BOX_ARG(svg));
    const jv *axes = jget(c, "axes");
    cr_assert_eq(axes->n, 2, "k chart %zu has two axes", k);
    box ya = abox(&axes->v[0]), xa = abox(&axes->v[1]);
    if (xa.w < xa.h) { /* the x axis is flat, the y axis upright */
        box t = xa;
        xa = ya, ya = t;
    }
    box plot = {ya.x, ya.y, right(xa) - ya.x, xa.y - ya.y};
    cr_assert(plot.w > 100 && plot.h > 100, "k chart %zu: the plot " BOX_FMT, k, BOX_ARG(plot));
    const jv *marks = jget(c, "marks"), *fails = jget(c, "fails"), *times = jget(c, "times");
    cr_assert_gt(marks->n, 0, "k chart %zu has points", k);
    for (size_t i = 0; i < marks->n; i++)
        cr_assert(inside(jbox(&marks->v[i], "b"), plot), "k chart %zu: the point '%s' " BOX_FMT
                  " leaves the plot " BOX_FMT, k, jstr(&marks->v[i], "s"),
                  BOX_ARG(jbox(&marks->v[i], "b")), BOX_ARG(plot));
    for (size_t i = 0; i < fails->n; i++)
        cr_assert(inside(jbox(&fails->v[i], "b"), plot), "k chart %zu: the failure '%s' " BOX_FMT
                  " leaves the plot " BOX_FMT, k, jstr(&fails->v[i], "s"),
                  BOX_ARG(jbox(&fails->v[i], "b")), BOX_ARG(plot));
    for (size_t i = 0; i < times->n; i++)
        cr_assert(inside(jbox(&times->v[i], "b"), plot), "k chart %zu: the time label '%s' "
                  BOX_FMT " leaves the plot " BOX_FMT, k, jstr(&times->v[i], "s"),
                  BOX_ARG(jbox(&times->v[i], "b")), BOX_ARG(plot));
    const jv *labels = jget(c, "labels");
    for (size_t i = 0; i < labels->n; i++)
        cr_assert(inside(jbox(&labels->v[i], "b"), svg), "k chart %zu: '%s' " BOX_FMT " is cut "
                  "off by the chart " BOX_FMT, k, jstr(&labels->v[i], "s"),
                  BOX_ARG(jbox(&labels->v[i], "b")), BOX_ARG(svg));
    char what[64];
    snprintf(what, sizeof what, "k chart %zu's labels", k);
    check_apart(labels, what);
}

Test(report_browser, charts_of_k_sweeps_keep_their_geometry_in_chromium) {
    if (access(CHROMIUM, X_OK) != 0)
        cr_skip_test("chromium is not installed (" CHROMIUM "): the report's layout is not "
                     "checked in a browser");
    char *dir = abt_tmpdir();
    make_k_report(dir);
    jv g;
    measure(dir, &g);
    const jv *charts = jget(&g, "kcharts");
    cr_assert_eq(charts->n, 3, "a k chart per suite");
    size_t fails = 0, points = 0, times = 0;
    for (size_t k = 0; k < charts->n; k++) {
        check_k_chart(&charts->v[k], k);
        fails += jget(&charts->v[k], "fails")->n;
        points += jget(&charts->v[k], "marks")->n;
        times += jget(&charts->v[k], "times")->n;
    }
    cr_assert_eq(fails, 1, "the one timeout is marked");
    cr_assert_eq(points, 12 + 2 * 15 - 1, "a marker per valid row");
    /* Apart is not left out: the lone series' 12 points have their times,
     * and of each 3 points the series share, 2 (above and below). */
    cr_assert_geq(times, 12 + 2 * 10, "%zu time labels", times);
    jfree(&g);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    free(dir);
}
