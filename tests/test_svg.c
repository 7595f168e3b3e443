/*
 * test_svg.c — the plan picture: a rectangle per tensor with its name, the
 * bound and arena lines, overlaps in red only when there are overlaps (also
 * over ABR_SVG_PAIRWISE_MAX tensors, where the checker finds them), and
 * names escaped.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- over ABR_SVG_PAIRWISE_MAX tensors ------------------------------------------ */

#define MANY (ABR_SVG_PAIRWISE_MAX + 1)

/* MANY tensors of 100 bytes, tensor i live at instruction i only, all at
 * offset 0 but tensor 0 at off0: a valid plan (no two are live together).
 * With overlap, tensor 1 lives on [0, 1] instead, so tensors 0 and 1 share
 * bytes at instruction 0 (when off0 is within 100 of 0): the plan's one
 * overlap. The picture of it, the pair (a, c) passed. */
static void render_placed(bool overlap, int64_t off0, size_t a, size_t c, ab_buf *b) {
    ab_problem p;
    ab_problem_init(&p);
    char name[32];
    int64_t *off = calloc(MANY, sizeof *off);
    cr_assert_not_null(off);
    off[0] = off0;
    for (size_t i = 0; i < MANY; i++) {
        snprintf(name, sizeof name, "t%zu", i);
        ab_tensor t = T(name, 100, (int64_t)i, (int64_t)i);
        if (overlap && i == 1) t.start = 0;
        cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    }
    ab_plan pl;
    cr_assert_eq(ab_plan_from_offsets(&pl, off, MANY, NULL), AB_OK);
    cr_assert_eq(abr_svg_plan(b, &p, &pl, 100, "many", a, c, NULL), AB_OK);
    ab_plan_free(&pl);
    ab_problem_free(&p);
    free(off);
}

static void render_many(bool overlap, size_t a, size_t c, ab_buf *b) {
    render_placed(overlap, 0, a, c, b);
}

/* The red note about "the checker's first overlap" used to be printed on
 * every picture of so many tensors, a valid plan's too. */
Test(svg, over_the_pairwise_limit_a_valid_plan_has_no_red) {
    ab_buf b = {0};
    render_many(false, AB_NO_TENSOR, AB_NO_TENSOR, &b);
    cr_assert(strstr(b.s, "aggregated: ") != NULL);
    cr_assert(strstr(b.s, "first overlap") == NULL, "a valid plan has no overlap to note");
    cr_assert(strstr(b.s, "fill=\"red\"") == NULL, "a valid plan has no red");
    char note[128];
    snprintf(note, sizeof note, "fill=\"#555\" text-anchor=\"end\">no overlap: the checker "
             "finds none among the %d tensors</text>", MANY);
    cr_assert(strstr(b.s, note) != NULL, "the grey note: %s", note);
    ab_buf_free(&b);
}

/* An overlapping plan the caller gives no pair for: the checker finds it
 * and the picture draws it with the red note. */
Test(svg, over_the_pairwise_limit_the_checker_finds_the_overlap) {
    ab_buf b = {0};
    render_many(true, AB_NO_TENSOR, AB_NO_TENSOR, &b);
    cr_assert_eq(count(b.s, "fill=\"red\""), 2, "the overlap and the note");
    cr_assert(strstr(b.s, "<title>overlap: t0 and t1</title>") != NULL);
    cr_assert(strstr(b.s, "only the checker's first overlap is drawn") != NULL);
    cr_assert(strstr(b.s, "no overlap") == NULL);
    ab_buf_free(&b);
}

/* The pair the caller has from the checker is drawn as given; a pair that
 * does not overlap is not taken for one (the checker's own is drawn). */
Test(svg, over_the_pairwise_limit_the_callers_pair_is_drawn) {
    ab_buf b = {0};
    render_many(true, 1, 0, &b);
    cr_assert(strstr(b.s, "<title>overlap: t1 and t0</title>") != NULL);
    cr_assert(strstr(b.s, "first overlap is drawn") != NULL);
    ab_buf_free(&b);
    ab_buf c = {0};
    render_many(true, 2, 3, &c); /* live apart: no overlap */
    cr_assert(strstr(c.s, "<title>overlap: t0 and t1</title>") != NULL);
    cr_assert_eq(count(c.s, "<title>overlap:"), 1);
    ab_buf_free(&c);
    ab_buf d = {0};
    render_many(false, 2, 3, &d);
    cr_assert(strstr(d.s, "fill=\"red\"") == NULL);
    cr_assert(strstr(d.s, "no overlap: the checker finds none") != NULL);
    ab_buf_free(&d);
}

/* The checker's overlap with a tensor the picture cannot place (a negative
 * offset) is named in the red note rather than drawn. */
Test(svg, over_the_pairwise_limit_an_overlap_off_the_picture_is_named) {
    ab_buf b = {0};
    render_placed(true, -50, AB_NO_TENSOR, AB_NO_TENSOR, &b);
    cr_assert(strstr(b.s, "<title>overlap:") == NULL);
    char note[160];
    snprintf(note, sizeof note, "fill=\"red\" text-anchor=\"end\">over %d tensors: the checker's "
             "first overlap, t0 and t1, is not in the picture</text>", ABR_SVG_PAIRWISE_MAX);
    cr_assert(strstr(b.s, note) != NULL, "the red note: %s", note);
    ab_buf_free(&b);
}
