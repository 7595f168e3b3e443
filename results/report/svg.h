/*
 * svg.h — a picture of a plan: instructions across, offsets up, one labelled
 * rectangle per tensor, the live-bytes profile and the lower bound as lines,
 * and overlaps (when the plan is invalid) in red. Self-contained SVG text, so
 * it can be written to a file or inlined in an HTML report.
 */
#ifndef AB_SVG_H
#define AB_SVG_H

#include <stdbool.h>

#include "core/buf.h"
#include "core/problem.h"

/* Appends the SVG of plan pl for problem p (the arena view the plan indexes)
 * to b. lower_bound is drawn as a dashed line (AB_NONE: not drawn); title may
 * be NULL. Overlapping pairs are found here by comparing every conflicting
 * pair when p->n <= ABR_SVG_PAIRWISE_MAX. Above that one overlap is drawn:
 * the pair (overlap_a, overlap_b) when the caller has it from the checker
 * and it does overlap, else the first the checker (oracle/check.h) finds
 * when it checks the plan here (pass AB_NO_TENSOR when the caller has none);
 * a note under the plot says, in red, that only the checker's first overlap
 * is drawn, or, in grey, that the checker finds none (or could not check a
 * malformed problem). Returns AB_ENOMEM when b (or the checker) ran out of
 * memory. */
#define ABR_SVG_PAIRWISE_MAX 4000

/* Above ABR_SVG_DETAIL_MAX placed tensors the picture is aggregated, so its
 * size stays bounded (some hundred KB) however many tensors there are: the
 * plot is cut into ABR_SVG_CELL x ABR_SVG_CELL px cells, each filled by how
 * much of it tensors cover (8 shades, darker = fuller; runs of a shade along
 * a row are one rectangle), the ABR_SVG_OUTLINED largest tensors (by bytes x
 * instructions) are drawn over it one by one with their names, and the
 * live-bytes profile keeps per pixel column its value on entry, its highest,
 * its lowest and its value on exit. The picture says so in its subtitle. */
#define ABR_SVG_DETAIL_MAX 2000
#define ABR_SVG_CELL 6
#define ABR_SVG_OUTLINED 40
ab_status abr_svg_plan(ab_buf *b, const ab_problem *p, const ab_plan *pl, int64_t lower_bound,
                       const char *title, size_t overlap_a, size_t overlap_b, ab_error *err);

/* What abr_svg_plan_marked adds to a picture. Marked tensors (e.g. those that
 * set the arena) are drawn last, at most ABR_SVG_MARKED_MAX of them, each
 * outlined in red (class "mark") with its name beside it, also when the
 * picture is aggregated; an index out of range or a tensor the plan does not
 * place is skipped. y_top > 0 makes the offset axis reach at least y_top
 * bytes, so that two plans of one suite drawn with the same y_top share a
 * scale; note, when not NULL, is a third line under the title. */
#define ABR_SVG_MARKED_MAX 16
typedef struct abr_svg_marks {
    const size_t *marked;   /* tensor indices into p, or NULL */
    size_t nmarked;
    int64_t y_top;          /* 0: the plan's own scale */
    const char *note;       /* plain text (escaped here), or NULL */
} abr_svg_marks;

/* abr_svg_plan with marks (NULL: none, the same picture as abr_svg_plan). */
ab_status abr_svg_plan_marked(ab_buf *b, const ab_problem *p, const ab_plan *pl,
                              int64_t lower_bound, const char *title, size_t overlap_a,
                              size_t overlap_b, const abr_svg_marks *marks, ab_error *err);

/* Round axis ticks over bytes: a unit (B, KiB, MiB or GiB: the largest that
 * hi reaches twice) and a step of 1, 2 or 5 x 10^n units (at least 1 byte),
 * the smallest giving at most `want` intervals; the axis runs from lo rounded
 * down to hi rounded up to a multiple of the step. Ticks: first + k * step
 * for k in [0, n]. */
typedef struct abr_ticks {
    double first, step; /* bytes */
    size_t n;           /* intervals: first + n * step is the axis top */
    double unit;        /* bytes per unit */
    const char *uname;  /* "B", "KiB", "MiB", "GiB" */
    int decimals;       /* digits after the point a tick label needs */
} abr_ticks;
abr_ticks abr_byte_ticks(double lo, double hi, int want);

/* A generous width in px of text s (UTF-8) in sans-serif of px px, bold or
 * not: DejaVu Sans, the widest common default, draws it narrower, so a label
 * measured with it fits in the browser. */
double abr_text_width(const char *s, double px, bool bold);

/* The length in bytes of s when it fits in width px (abr_text_width), else
 * of its longest prefix that, followed by an ellipsis, does (cut before a
 * character, possibly 0). */
size_t abr_text_fit(const char *s, double width, double px, bool bold);

/* Appends bytes for a reader: "512 B", "6 KiB", "1.25 MiB" (at most 3
 * significant digits after the point, exact bytes in B). */
void abr_put_bytes(ab_buf *b, int64_t bytes);

/* Appends tick k's label, e.g. "0", "512 B", "1.5 KiB" (0 has no unit). */
void abr_put_tick(ab_buf *b, const abr_ticks *t, size_t k);


#endif
