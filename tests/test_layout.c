/*
 * test_layout.c — stride_align layout padding: logical bytes (packed bits)
 * against physical bytes (rows padded), with shapes whose dimensions all
 * differ (so an axis mix-up gives another number) and shapes where the
 * channel count equals H or W; the C = 1 case pads whole rows.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "harness/formats/suite.h"
#include "oracle/bounds.h"

static void load(const char *tensor, ab_problem *p) {
    char text[1024];
    snprintf(text, sizeof text, "suite: s\ntensors:\n  - %s\n", tensor);
    ab_error err;
    cr_assert_eq(abf_suite_load_buffer("s.yaml", text, strlen(text), p, &err), AB_OK, "%s: %s",
                 tensor, err.msg);
}

static void expect_sizes(const char *tensor, int64_t physical, int64_t logical) {
    ab_problem p;
    load(tensor, &p);
    cr_assert_eq(p.t[0].size, physical, "%s: physical", tensor);
    abo_bounds b;
    cr_assert_eq(abo_bounds_compute(&p, &b, NULL), AB_OK);
    cr_assert_eq(b.logical_bytes, logical, "%s: logical", tensor);
    cr_assert_eq(b.physical_bytes, physical, "%s: physical figure", tensor);
    cr_assert_eq(b.max_load, physical, "%s: peak live", tensor);
    ab_problem_free(&p);
}

Test(layout, pads_each_pixel_row_of_channels) {
    /* every dimension differs: C = 5 float32 = 20 B -> 32 B, times 2 x 3 x 4 pixels */
    expect_sizes("{name: t, shape: [2, 3, 4, 5], dtype: float32, stride_align: 16, start: 0, end: 0}",
                 2 * 3 * 4 * 32, 2 * 3 * 4 * 5 * 4);
    /* C = 3 int8 -> 4 B per pixel, 4 x 5 pixels */
    expect_sizes("{name: t, shape: [1, 4, 5, 3], dtype: int8, stride_align: 4, start: 0, end: 0}",
                 80, 60);
}

Test(layout, channel_equal_to_height_or_width) {
    /* C = H = 3: pixel stride 8, 3 x 7 pixels */
    expect_sizes("{name: t, shape: [1, 3, 7, 3], dtype: int8, stride_align: 8, start: 0, end: 0}",
                 3 * 7 * 8, 63);
    /* C = W = 6: 6 B -> 8 B per pixel, 5 x 6 pixels */
    expect_sizes("{name: t, shape: [1, 5, 6, 6], dtype: int8, stride_align: 8, start: 0, end: 0}",
                 5 * 6 * 8, 180);
}

Test(layout, one_channel_pads_whole_rows) {
    /* C = 1: a row of W = 10 int8 is 10 B -> 16 B, 6 rows (not 60 pixels of 8 B) */
    expect_sizes("{name: t, shape: [1, 6, 10, 1], dtype: int8, stride_align: 8, start: 0, end: 0}",
                 96, 60);
}

Test(layout, sub_byte_channels_are_packed_before_padding) {
    /* C = 5 int4 = 20 bits -> 3 B -> 4 B per pixel, 2 x 3 pixels; logical 120 bits = 15 B */
    expect_sizes("{name: t, shape: [1, 2, 3, 5], dtype: int4, stride_align: 4, start: 0, end: 0}",
                 24, 15);
}

Test(layout, round_trips_and_rejects_misuse) {
    ab_problem p, q;
    load("{name: t, shape: [2, 3, 4, 5], dtype: float32, stride_align: 16, start: 0, end: 1}", &p);
    ab_buf b = {0};
    cr_assert_eq(abf_suite_render(&p, &b, NULL), AB_OK);
    cr_assert(strstr(b.s, "stride_align: 16") != NULL, "%s", b.s);
    cr_assert(strstr(b.s, "size:") == NULL, "the size follows from the layout: %s", b.s);
    cr_assert_eq(abf_suite_load_buffer("again", b.s, b.n, &q, NULL), AB_OK);
    cr_assert_eq(q.t[0].size, p.t[0].size);
    cr_assert_eq(q.t[0].stride_align, 16);
    ab_buf_free(&b);
    ab_problem_free(&p);
    ab_problem_free(&q);
    const char *bad[][2] = {
        {"suite: s\ntensors:\n  - {name: t, size: 8, stride_align: 4, start: 0, end: 0}\n",
         "s.yaml:3:38: tensors[0] (name 't').stride_align: pads the rows of a shape: it needs 'shape' and 'dtype'"},
        {"suite: s\ntensors:\n  - {name: t, shape: [1, 2, 2, 3], dtype: int8, stride_align: 4, size: 12, start: 0, end: 0}\n",
         "must be at least the 16 bytes of shape x dtype with its stride_align padding"},
        {"suite: s\ntensors:\n  - {name: t, shape: [1, 2], dtype: int8, stride_align: 0, start: 0, end: 0}\n",
         "stride_align"}};
    for (int i = 0; i < 3; i++) {
        ab_error err;
        cr_assert_eq(abf_suite_load_buffer("s.yaml", bad[i][0], strlen(bad[i][0]), &p, &err),
                     AB_EINPUT);
        cr_assert(strstr(err.msg, bad[i][1]) != NULL, "%s", err.msg);
    }
}
