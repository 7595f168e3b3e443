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

/* A name wider than its rectangle is cut with an ellipsis on a character
 * boundary (the tooltip keeps it whole); a short one is drawn whole.
 * test_report_browser.c checks in Chromium that the labels fit. */
Test(svg, cuts_names_wider_than_their_rectangle) {
    ab_problem p;
    ab_problem_init(&p);
    /* 12 instructions over 960 px: 80 px an instruction. */
    ab_tensor t[] = {T("model/block_1/conv2d_1/Relu6;model/block_1/conv2d_1/BiasAdd", 16, 0, 0),
                     T("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
                       16, 1, 1),
                     T("x", 16, 2, 11)};
    for (int i = 0; i < 3; i++) cr_assert_eq(ab_problem_add(&p, &t[i], NULL), AB_OK);
    ab_plan pl;
    cr_assert_eq(ab_plan_from_offsets(&pl, (int64_t[]){0, 0, 16}, 3, NULL), AB_OK);
    ab_buf b = {0};
    cr_assert_eq(abr_svg_plan(&b, &p, &pl, 32, "t", AB_NO_TENSOR, AB_NO_TENSOR, NULL), AB_OK);
    cr_assert_eq(count(b.s, "<title>model/block_1/conv2d_1/Relu6;model/block_1/conv2d_1/BiasAdd:"),
                 1, "the tooltip has the whole name");
    const char *label = strstr(b.s, "clip-path=\"none\">model/");
    cr_assert_not_null(label, "%s", b.s);
    const char *end = strstr(label, "</text>");
    cr_assert(end - label < 40, "the name is cut: %.80s", label);
    cr_assert(strncmp(end - 3, "\xe2\x80\xa6", 3) == 0, "an ellipsis ends it: %.80s", label);
    label = strstr(b.s, "clip-path=\"none\">\xc3\xa9");
    cr_assert_not_null(label);
    end = strstr(label, "</text>");
    cr_assert(strncmp(end - 3, "\xe2\x80\xa6", 3) == 0 && end[-4] == '\xa9',
              "cut after a whole character: %.60s", label);
    cr_assert_eq(count(b.s, "clip-path=\"none\">x</text>"), 1, "a short name is whole");
    ab_buf_free(&b);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}
