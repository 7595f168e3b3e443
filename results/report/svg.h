/*
 * svg.h — a picture of a plan: instructions across, offsets up, one labelled
 * rectangle per tensor, the live-bytes profile and the lower bound as lines,
 * and overlaps (when the plan is invalid) in red. Self-contained SVG text, so
 * it can be written to a file or inlined in an HTML report.
 */
#ifndef AB_SVG_H
#define AB_SVG_H

#include "core/buf.h"
#include "core/problem.h"

/* Appends the SVG of plan pl for problem p (the arena view the plan indexes)
 * to b. lower_bound is drawn as a dashed line (AB_NONE: not drawn); title may
 * be NULL. Overlapping pairs are found here by comparing every conflicting
 * pair when p->n <= ABR_SVG_PAIRWISE_MAX; above that only the pair in
 * (overlap_a, overlap_b) is drawn (pass AB_NO_TENSOR for none) and the
 * picture says so. Returns AB_ENOMEM when b ran out of memory. */
#define ABR_SVG_PAIRWISE_MAX 4000
ab_status abr_svg_plan(ab_buf *b, const ab_problem *p, const ab_plan *pl, int64_t lower_bound,
                       const char *title, size_t overlap_a, size_t overlap_b, ab_error *err);

#endif
