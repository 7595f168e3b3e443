/*
 * test_report_scale.c — the report at scale (issue 14 part 6): a suite of 60k
 * tensors made by `arenabench gen`, planned by first-fit, gives an HTML report
 * under 5 MB whose plan picture is there and aggregated (occupancy cells and
 * a bounded number of tensors drawn one by one, no overlap noted on its valid
 * plan); and the aggregated picture's cells are right on a plan whose
 * coverage is known.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/report/svg.h"
#include "tests/support.h"

#define T(nm, sz, s, e) \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1, \
                 .offset = AB_NONE, .logical_bits = (sz) * 8})

static size_t count(const char *s, const char *sub) {
    size_t n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub)) n++;
    return n;
}

Test(report_scale, html_of_60k_tensors_is_small_and_aggregated) {
    char *dir = abt_tmpdir(), args[4096];
    abt_run_ok(0, "gen --kind random --n 60000 --seed 3 -o %s/s.yaml", dir);
    abt_run_ok(0, "run -q --db %s/r.db -p first-fit %s/s.yaml", dir, dir);
    abt_run_ok(0, "report --db %s/r.db --format html -o %s/r.html", dir, dir);
    snprintf(args, sizeof args, "%s/r.html", dir);
    size_t len = 0;
    char *html = abt_slurp(args, &len);
    cr_assert_not_null(html);
    cr_assert_lt(len, (size_t)5 << 20, "the report is %zu bytes", len);

    /* The picture: the plan's figure, one SVG. */
    const char *fig = strstr(html, "<figure class=\"plan\">");
    cr_assert_not_null(fig, "no plan picture in the report");
    const char *svg = strstr(fig, "<svg");
    cr_assert_not_null(svg);
    const char *end = strstr(svg, "</svg>");
    cr_assert_not_null(end);
    size_t n = (size_t)(end - svg);
    char *pic = malloc(n + 1);
    memcpy(pic, svg, n);
    pic[n] = '\0';
    cr_assert_lt(n, (size_t)1 << 20, "the picture is %zu bytes", n);
    cr_assert(strstr(pic, "60000 tensors") != NULL);
    cr_assert(strstr(pic, "aggregated: ") != NULL, "the picture does not say it is aggregated");
    cr_assert_eq(count(pic, "<g class=\"occupancy\""), 1);
    size_t cells = count(pic, "fill-opacity=\"");
    size_t max_cells = (size_t)(960 / ABR_SVG_CELL) * (size_t)(480 / ABR_SVG_CELL);
    cr_assert(cells > 100 && cells <= max_cells + 10, "%zu occupancy rectangles", cells);
    size_t drawn = count(pic, "stroke=\"#333\" stroke-width=\"0.5\"");
    cr_assert_eq(drawn, ABR_SVG_OUTLINED, "%zu tensors drawn one by one", drawn);
    cr_assert(strstr(pic, "live bytes") != NULL, "the profile is drawn");
    cr_assert(strstr(pic, "lower bound") != NULL);
    /* first-fit's plan is valid: no red note about an overlap (svg.h). */
    cr_assert(strstr(pic, "first overlap") == NULL, "an overlap noted on a valid plan");
    cr_assert(strstr(pic, "no overlap: the checker finds none among the 60000 tensors") != NULL);
    free(pic);
    free(html);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    cr_assert_eq(system(args), 0);
    free(dir);
}

/* ABR_SVG_DETAIL_MAX + 100 tensors of one instruction each, side by side at
 * offset 0: a full block of `size` bytes over every instruction. The cells
 * under it are full (one run a row, opacity 1), the cells above it empty, and
 * only the row the block's top crosses is in between. */
Test(report_scale, aggregated_cells_measure_coverage) {
    size_t n = ABR_SVG_DETAIL_MAX + 100;
    ab_problem p;
    ab_problem_init(&p);
    char name[32];
    int64_t *off = calloc(n, sizeof *off);
    for (size_t i = 0; i < n; i++) {
        snprintf(name, sizeof name, "t%zu", i);
        ab_tensor t = T(name, 1000, (int64_t)i, (int64_t)i);
        cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    }
    ab_plan pl;
    cr_assert_eq(ab_plan_from_offsets(&pl, off, n, NULL), AB_OK);
    ab_buf b = {0};
    cr_assert_eq(abr_svg_plan(&b, &p, &pl, 1000, "block", AB_NO_TENSOR, AB_NO_TENSOR, NULL),
                 AB_OK);
    cr_assert(strstr(b.s, "aggregated: ") != NULL);
    const char *g = strstr(b.s, "<g class=\"occupancy\"");
    cr_assert_not_null(g);
    const char *ge = strstr(g, "</g>");
    size_t full = 0, partial = 0, other = 0;
    char width[64];
    snprintf(width, sizeof width, "width=\"%d\"", 960);
    for (const char *r = strstr(g, "<rect"); r != NULL && r < ge; r = strstr(r + 1, "<rect")) {
        const char *close = strchr(r, '>');
        bool whole = strstr(r, width) != NULL && strstr(r, width) < close;
        bool one = strstr(r, "fill-opacity=\"1.000\"") != NULL &&
                   strstr(r, "fill-opacity=\"1.000\"") < close;
        if (whole && one) full++;
        else if (whole) partial++;
        else other++;
    }
    /* The offset axis runs to its last round tick above the bound plus 5%
     * (svg.c's frame); the block fills 1000 of its bytes from the bottom. */
    abr_ticks yt = abr_byte_ticks(0, 1000.0 + 1000 / 20 + 1, 6);
    double ymax = yt.first + (double)yt.n * yt.step;
    size_t rows = 480 / ABR_SVG_CELL;
    size_t want = (size_t)((double)rows * 1000.0 / ymax); /* rows wholly under the block */
    cr_assert_eq(other, 0, "every row is one run across the plot");
    cr_assert_leq(partial, 1);
    cr_assert_eq(full, want, "%zu full rows, want %zu (axis to %.0f bytes)", full, want, ymax);
    cr_assert_eq(full + partial, (size_t)((double)rows * 1000.0 / ymax + 0.999));
    cr_assert_eq(count(b.s, "stroke=\"#333\" stroke-width=\"0.5\""), ABR_SVG_OUTLINED);
    ab_buf_free(&b);
    ab_plan_free(&pl);
    ab_problem_free(&p);
    free(off);
}
