/*
 * test_report_html.c — the HTML report as an engineer shares it: made by the
 * command line from a run of every planner over suites/examples, then checked
 * for its structure (a legend entry per planner with distinct colours, no
 * empty coarsening section, one picture per plan, round axis ticks, labels
 * that do not overlap, the peak marked) and, when chromium is installed,
 * rendered headless (a screenshot of a plausible size, a DOM with the legend
 * and the tables).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/report/svg.h"
#include "tests/support.h"

#define CHROMIUM "/usr/bin/chromium"

static size_t count(const char *s, const char *sub) {
    size_t n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub)) n++;
    return n;
}

/* Runs `run` with args over suites/examples into dir/r.db, then the HTML and
 * CSV reports; *html and *csv owned by the caller. */
static void make_report(const char *dir, const char *planners, char **html, char **csv) {
    char args[8192], *out, *err;
    /* each job once: the report's pictures and tables do not depend on repeats */
    snprintf(args, sizeof args, "run -q -j 2 --repeat-min 1 --db %s/r.db %s %s", dir, planners,
             abt_src("suites/examples"));
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s/r.db --format html -o %s/r.html", dir, dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s/r.db --format csv -o -", dir);
    cr_assert_eq(abt_run(args, csv, &err), 0, "%s", err);
    free(err);
    snprintf(args, sizeof args, "%s/r.html", dir);
    *html = abt_slurp(args, NULL);
    cr_assert_not_null(*html);
}

/* The text between the first `from` at or after s and the next `to`, copied
 * (owned by the caller); NULL when there is none. *next: after it. */
static char *between(const char *s, const char *from, const char *to, const char **next) {
    const char *a = strstr(s, from);
    if (a == NULL) return NULL;
    a += strlen(from);
    const char *b = strstr(a, to);
    if (b == NULL) return NULL;
    if (next) *next = b + strlen(to);
    char *r = malloc((size_t)(b - a) + 1);
    memcpy(r, a, (size_t)(b - a));
    r[b - a] = '\0';
    return r;
}

/* ---- the CSV's rows: (suite, spec, plan hash) ------------------------------------- */

typedef struct crow {
    char suite[128], spec[128], hash[80];
} crow;

/* Field k of one CSV line (quotes understood) into out. */
static void csv_field(const char *line, int k, char *out, size_t cap) {
    int f = 0;
    size_t n = 0;
    bool q = false;
    for (const char *p = line; *p && *p != '\n'; p++) {
        if (q) {
            if (*p == '"' && p[1] == '"') p++;
            else if (*p == '"') {
                q = false;
                continue;
            }
        } else if (*p == '"') {
            q = true;
            continue;
        } else if (*p == ',') {
            f++;
            continue;
        }
        if (f == k && n + 1 < cap) out[n++] = *p;
    }
    out[n] = '\0';
}

static int column(const char *header, const char *name) {
    char f[64];
    for (int k = 0; k < 64; k++) {
        csv_field(header, k, f, sizeof f);
        if (strcmp(f, name) == 0) return k;
    }
    cr_assert_fail("no column %s", name);
    return -1;
}

static crow *csv_rows(const char *csv, size_t *n) {
    int cs = column(csv, "suite"), cp = column(csv, "spec"), ch = column(csv, "plan_hash");
    crow *v = calloc(count(csv, "\n") + 1, sizeof *v);
    *n = 0;
    const char *line = strchr(csv, '\n') + 1;
    for (; *line; line = strchr(line, '\n') + 1) {
        csv_field(line, cs, v[*n].suite, sizeof v[*n].suite);
        csv_field(line, cp, v[*n].spec, sizeof v[*n].spec);
        csv_field(line, ch, v[*n].hash, sizeof v[*n].hash);
        (*n)++;
        if (strchr(line, '\n') == NULL) break;
    }
    return v;
}

static const char *hash_of(const crow *v, size_t n, const char *suite, const char *spec) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].suite, suite) == 0 && strcmp(v[i].spec, spec) == 0) return v[i].hash;
    cr_assert_fail("no row for %s on %s", spec, suite);
    return NULL;
}

/* ---- checks ------------------------------------------------------------------------ */

/* One legend entry per planner spec, each with its own colour (<= 30 specs). */
static void check_legend(const char *html) {
    size_t nspec = 0;
    const char *p = strstr(html, " planner specs,");
    cr_assert_not_null(p);
    while (p > html && p[-1] >= '0' && p[-1] <= '9') p--;
    nspec = (size_t)atoi(p);
    cr_assert_gt(nspec, 10, "the run has more planners than the old palette's 10 colours");
    cr_assert_eq(count(html, "id=\"legend\""), 1);
    char *legend = between(html, "id=\"legend\">", "</div>", NULL);
    cr_assert_eq(count(legend, "<span class=\"lg\">"), nspec, "%s", legend);
    char colors[64][16];
    size_t nc = 0;
    for (const char *q = legend; (q = strstr(q, "class=\"mk\" fill=\"")) != NULL; nc++) {
        q += strlen("class=\"mk\" fill=\"");
        cr_assert_lt(nc, 64);
        snprintf(colors[nc], sizeof colors[nc], "%.7s", q);
    }
    cr_assert_eq(nc, nspec);
    for (size_t a = 0; a < nc; a++)
        for (size_t b = a + 1; b < nc; b++)
            cr_assert_str_neq(colors[a], colors[b], "planners %zu and %zu share a colour", a, b);
    /* The planners table marks each planner with the same colour. */
    cr_assert_geq(count(html, "<span style=\"color:#"), nspec);
    free(legend);
}

/* A tick label "0", "200 B", "1.5 KiB" as bytes. */
static double tick_bytes(const char *s) {
    char unit[8] = "";
    double v = 0;
    int n = sscanf(s, "%lf %7s", &v, unit);
    cr_assert_geq(n, 1, "tick '%s'", s);
    if (n == 1) {
        cr_assert_eq(v, 0, "only 0 has no unit: '%s'", s);
        return 0;
    }
    double u = 1073741824.0;
    if (strcmp(unit, "B") == 0) u = 1;
    else if (strcmp(unit, "KiB") == 0) u = 1024;
    else if (strcmp(unit, "MiB") == 0) u = 1048576;
    else cr_assert_str_eq(unit, "GiB");
    return v * u;
}

/* The y ticks of one picture: evenly spaced by 1, 2 or 5 x 10^n of their unit,
 * at multiples of the step. */
static void check_ticks(const char *svg) {
    double t[64];
    size_t n = 0;
    char unit[8] = "";
    for (const char *q = svg; (q = strstr(q, "class=\"yt\"")) != NULL && n < 64;) {
        char *label = between(q, ">", "</text>", &q);
        t[n++] = tick_bytes(label);
        if (strchr(label, ' ')) snprintf(unit, sizeof unit, "%s", strchr(label, ' ') + 1);
        free(label);
    }
    cr_assert_geq(n, 3, "a picture has at least 3 y ticks");
    double step = t[1] - t[0];
    double u = tick_bytes(strcmp(unit, "") ? (strcmp(unit, "B") == 0 ? "1 B"
                                              : strcmp(unit, "KiB") == 0 ? "1 KiB"
                                              : "1 MiB") : "1 B");
    double m = step / u / pow(10.0, floor(log10(step / u) + 1e-9));
    cr_assert(fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 || fabs(m - 5) < 1e-6,
              "step %g bytes is not 1, 2 or 5 x 10^n %s", step, unit);
    for (size_t k = 0; k < n; k++) {
        cr_assert(fabs(t[k] - (t[0] + (double)k * step)) < 1e-6, "ticks evenly spaced");
        double r = t[k] / step;
        cr_assert(fabs(r - round(r)) < 1e-6, "tick %g is a multiple of the step %g", t[k], step);
    }
}

/* The arena and bound labels of one picture are at least a line apart. */
static void check_labels(const char *svg) {
    double y[4];
    size_t n = 0;
    for (const char *q = svg; (q = strstr(q, "<text class=\"hl\"")) != NULL && n < 4; q++) {
        const char *a = strstr(q, " y=\"");
        y[n++] = atof(a + 4);
    }
    cr_assert(n == 1 || n == 2, "one or two line labels");
    if (n == 2) cr_assert_geq(fabs(y[0] - y[1]), 11.0, "labels overlap: y %g and %g", y[0], y[1]);
}

/* Each plan picture: its specs share one plan, no other picture has it, and
 * every row with that plan is named in it; the peak is marked. */
static void check_pictures(const char *html, const char *csv) {
    size_t nrow;
    crow *rows = csv_rows(csv, &nrow);
    const char *p = html;
    char seen[16][256];
    size_t nfig = 0;
    char *fig;
    while ((fig = between(p, "<figure class=\"plan\">", "</figure>", &p)) != NULL) {
        char *title = between(fig, "font-weight=\"bold\">", ", arena ", NULL);
        cr_assert_not_null(title);
        char *colon = strstr(title, ": ");
        *colon = '\0';
        const char *suite = title;
        char *specs = colon + 2;
        char *same = strstr(specs, " (the same plan)");
        if (same) *same = '\0';
        const char *hash = NULL;
        size_t named = 0;
        for (char *tok = strtok(specs, ","); tok; tok = strtok(NULL, ",")) {
            char *and = strstr(tok, " and ");
            for (char *part = tok; part;) {
                char name[128];
                while (*part == ' ') part++;
                size_t len = and ? (size_t)(and - part) : strlen(part);
                snprintf(name, sizeof name, "%.*s", (int)len, part);
                const char *h = hash_of(rows, nrow, suite, name);
                if (hash == NULL) hash = h;
                cr_assert_str_eq(h, hash, "%s on %s: another plan in one picture", name, suite);
                named++;
                part = and ? and + 5 : NULL;
                and = part ? strstr(part, " and ") : NULL;
            }
        }
        size_t same_rows = 0;
        for (size_t i = 0; i < nrow; i++)
            same_rows += strcmp(rows[i].suite, suite) == 0 && strcmp(rows[i].hash, hash) == 0;
        cr_assert_eq(named, same_rows, "every row of %s with its plan named once", suite);
        cr_assert_eq(same != NULL, named > 1);
        cr_assert_lt(nfig, 16);
        snprintf(seen[nfig], sizeof seen[nfig], "%s/%s", suite, hash);
        for (size_t k = 0; k < nfig; k++)
            cr_assert_str_neq(seen[k], seen[nfig], "the plan %s is drawn twice", seen[k]);
        nfig++;
        cr_assert_eq(count(fig, "peak at instruction "), 1, "the peak is marked");
        check_ticks(fig);
        check_labels(fig);
        free(title);
        free(fig);
    }
    cr_assert_geq(nfig, 2, "the examples have several plans with a gap");
    free(rows);
}

Test(report_html, shares_well_with_every_planner) {
    char *dir = abt_tmpdir();
    char *html, *csv;
    make_report(dir, "--planners all", &html, &csv);
    check_legend(html);
    cr_assert_eq(count(html, "Arena versus coarsening k"), 0, "no k sweep, no section");
    cr_assert_eq(count(html, "<div class=\"scroll\">\n<h2>Suites</h2>"), 1,
                 "the suites table scrolls sideways");
    check_pictures(html, csv);
    cr_assert_eq(count(html, "<script"), 0);
    free(html), free(csv), free(dir);
}

/* With the default planners (with every planner, executorch-naive, which
 * reuses nothing, has the largest gaps), the pictures of the examples include
 * planners that made the same plan, drawn once under all their names. */
Test(report_html, planners_with_the_same_plan_share_one_picture) {
    char *dir = abt_tmpdir();
    char *html, *csv;
    make_report(dir, "--planners default", &html, &csv);
    check_pictures(html, csv);
    cr_assert_geq(count(html, " (the same plan), arena "), 1);
    free(html), free(csv), free(dir);
}

Test(report_html, shows_the_k_section_with_a_k_sweep) {
    char *dir = abt_tmpdir();
    char *html, *csv;
    make_report(dir, "-p first-fit -p exact-cover:k=1 -p exact-cover:k=4 -p exact-cover:k=16",
                &html, &csv);
    cr_assert_eq(count(html, "<h2>Arena versus coarsening k</h2>"), 1);
    cr_assert_geq(count(html, "versus k</text>"), 1);
    const char *k = strstr(html, "<h2>Arena versus coarsening k</h2>");
    char *chart = between(k, "<svg", "</svg>", NULL);
    check_ticks(chart);
    free(chart);
    free(html), free(csv), free(dir);
}

/* ---- the plan picture's lines ------------------------------------------------------ */

#define T(nm, sz, s, e) \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1, \
                 .offset = AB_NONE, .logical_bits = (sz) * 8})

static char *picture(int64_t bound) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a", 3000, 0, 2), T("b", 1000, 2, 3), T("c", 2000, 4, 4)};
    for (int i = 0; i < 3; i++) cr_assert_eq(ab_problem_add(&p, &t[i], NULL), AB_OK);
    ab_plan pl;
    cr_assert_eq(ab_plan_from_offsets(&pl, (int64_t[]){0, 3000, 0}, 3, NULL), AB_OK);
    ab_buf b = {0};
    cr_assert_eq(abr_svg_plan(&b, &p, &pl, bound, "t", AB_NO_TENSOR, AB_NO_TENSOR, NULL), AB_OK);
    ab_plan_free(&pl);
    ab_problem_free(&p);
    return b.s;
}

Test(report_html, arena_and_bound_labels_never_overlap) {
    char *eq = picture(4000); /* the arena is 4000 */
    cr_assert_eq(count(eq, "<text class=\"hl\""), 1, "equal: one label");
    cr_assert_eq(count(eq, "arena = lower bound 3.91 KiB"), 1, "%s", eq);
    check_labels(eq);
    check_ticks(eq);
    free(eq);
    char *close = picture(3990);
    cr_assert_eq(count(close, "<text class=\"hl\""), 2);
    check_labels(close);
    free(close);
    char *far = picture(1000);
    check_labels(far);
    cr_assert_eq(count(far, "peak at instruction 2: 3.91 KiB live"), 1, "%s", far);
    free(far);
}

/* ---- rendered by a browser ---------------------------------------------------------- */

/* Width and height from a PNG's IHDR; false when it is not a PNG. */
static bool png_size(const char *path, unsigned *w, unsigned *h) {
    unsigned char hd[24];
    FILE *f = fopen(path, "rb");
    if (f == NULL) return false;
    size_t n = fread(hd, 1, sizeof hd, f);
    fclose(f);
    if (n != sizeof hd || memcmp(hd, "\x89PNG\r\n\x1a\n", 8) != 0 || memcmp(hd + 12, "IHDR", 4))
        return false;
    *w = (unsigned)hd[16] << 24 | (unsigned)hd[17] << 16 | (unsigned)hd[18] << 8 | hd[19];
    *h = (unsigned)hd[20] << 24 | (unsigned)hd[21] << 16 | (unsigned)hd[22] << 8 | hd[23];
    return true;
}

Test(report_html, renders_in_headless_chromium) {
    if (access(CHROMIUM, X_OK) != 0)
        cr_skip_test("chromium is not installed (" CHROMIUM "): the report is not rendered");
    char *dir = abt_tmpdir();
    char *html, *csv;
    make_report(dir, "--planners all", &html, &csv);
    char cmd[8192];
    /* timeout: a safety net only (minutes), never a measure of speed. */
    snprintf(cmd, sizeof cmd, "cd %s && HOME=%s timeout 600 " CHROMIUM " --headless "
             "--no-sandbox --disable-gpu --hide-scrollbars --screenshot=%s/shot.png "
             "--window-size=1280,2000 file://%s/r.html >%s/shot.log 2>&1", dir, dir, dir, dir,
             dir);
    int rc = system(cmd);
    char path[4096];
    snprintf(path, sizeof path, "%s/shot.log", dir);
    char *log = abt_slurp(path, NULL);
    cr_assert_eq(rc, 0, "chromium --screenshot: %s", log ? log : "");
    free(log);
    snprintf(path, sizeof path, "%s/shot.png", dir);
    unsigned w = 0, h = 0;
    cr_assert(png_size(path, &w, &h), "the screenshot is a PNG");
    cr_assert_eq(w, 1280);
    cr_assert_eq(h, 2000);
    size_t len = 0;
    free(abt_slurp(path, &len));
    cr_assert_gt(len, 20000, "a screenshot with content, not a blank page (%zu bytes)", len);
    snprintf(cmd, sizeof cmd, "cd %s && HOME=%s timeout 600 " CHROMIUM " --headless "
             "--no-sandbox --disable-gpu --dump-dom file://%s/r.html >%s/dom.html "
             "2>%s/dom.log", dir, dir, dir, dir, dir);
    cr_assert_eq(system(cmd), 0, "chromium --dump-dom");
    snprintf(path, sizeof path, "%s/dom.html", dir);
    char *dom = abt_slurp(path, NULL);
    cr_assert_not_null(dom);
    cr_assert_eq(count(dom, "id=\"legend\""), 1, "the DOM has the legend");
    cr_assert_eq(count(dom, "<span class=\"lg\">"), count(html, "<span class=\"lg\">"));
    cr_assert_geq(count(dom, "<h2>Suites</h2>"), 1);
    cr_assert_geq(count(dom, "<table"), 5, "the tables are in the DOM");
    cr_assert_geq(count(dom, "<figure class=\"plan\">"), 2, "the plan pictures are in the DOM");
    free(dom);
    free(html), free(csv), free(dir);
}
