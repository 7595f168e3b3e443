/*
 * picture.h — a plan as text, for a terminal (`plan --picture`), in the spirit
 * of TFLite Micro's PrintMemoryPlan: one row per instruction, one column per
 * equal slice of the arena, a letter per tensor where it holds the middle
 * byte of the slice, '.' where no live tensor does; then the live bytes of
 * the row and a legend of the letters.
 */
#ifndef AB_PICTURE_H
#define AB_PICTURE_H

#include "core/buf.h"
#include "core/problem.h"

#define ABR_PICTURE_COLUMNS 64 /* the arena's slices across */
#define ABR_PICTURE_ROWS 64    /* at most this many rows: above, every k-th instruction, said */

/* Appends the picture of offsets off (one per tensor of p, the arena view the
 * plan indexes) to b. Tensor i takes the i-th character of
 * "A..Za..z0..9"; past the 62nd, '*' (the legend says so). Rows are the
 * instructions from the first start to the last end; when there are more than
 * ABR_PICTURE_ROWS, every k-th is drawn, k the least that fits, and the
 * heading says which. A tensor with a negative offset is left out of the
 * picture. Returns AB_ENOMEM when b ran out of memory. */
ab_status abr_text_plan(ab_buf *b, const ab_problem *p, const int64_t *off, ab_error *err);

#endif
