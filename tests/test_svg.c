/*
 * test_svg.c — the plan picture: a rectangle per tensor with its name, the
 * bound and arena lines, overlaps in red only when there are overlaps, and
 * names escaped.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "results/report/svg.h"

#define T(nm, sz, s, e) \
    ((ab_tensor){.name = (char *)(nm), .size = (sz), .start = (s), .end = (e), .align = 1, \
                 .offset = AB_NONE, .logical_bits = (sz) * 8})

static size_t count(const char *s, const char *sub) {
    size_t n = 0;
    for (const char *p = strstr(s, sub); p; p = strstr(p + 1, sub)) n++;
    return n;
}

static void render(const int64_t *off, ab_buf *b) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t[] = {T("a<1>", 16, 0, 2), T("b", 16, 2, 3), T("c", 8, 4, 4)};
    for (int i = 0; i < 3; i++) cr_assert_eq(ab_problem_add(&p, &t[i], NULL), AB_OK);
    ab_plan pl;
    cr_assert_eq(ab_plan_from_offsets(&pl, off, 3, NULL), AB_OK);
    cr_assert_eq(abr_svg_plan(b, &p, &pl, 32, "t & t", AB_NO_TENSOR, AB_NO_TENSOR, NULL), AB_OK);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(svg, draws_each_tensor_and_the_lines) {
    ab_buf b = {0};
    render((int64_t[]){0, 16, 0}, &b);
    cr_assert(strncmp(b.s, "<svg xmlns=", 11) == 0);
    cr_assert(strstr(b.s, "</svg>\n") != NULL);
    cr_assert_eq(count(b.s, "stroke=\"#333\""), 3);
    cr_assert(strstr(b.s, "a&lt;1&gt;") != NULL, "names are escaped");
    cr_assert(strstr(b.s, "t &amp; t") != NULL);
    cr_assert(strstr(b.s, "lower bound 32") != NULL);
    cr_assert(strstr(b.s, "arena 32") != NULL);
    cr_assert(strstr(b.s, "live bytes") != NULL);
    cr_assert(strstr(b.s, "fill=\"red\"") == NULL, "a valid plan has no red");
    ab_buf_free(&b);
}

Test(svg, draws_overlaps_in_red) {
    ab_buf b = {0};
    render((int64_t[]){0, 8, 0}, &b);
    cr_assert_eq(count(b.s, "fill=\"red\""), 1);
    cr_assert(strstr(b.s, "overlap: a&lt;1&gt; and b") != NULL);
    ab_buf_free(&b);
}
