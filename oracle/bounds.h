/*
 * bounds.h — lower bounds and the three memory figures of a problem.
 *
 * Max-load bound: the largest sum of sizes of tensors live at one instruction
 * (inclusive ranges). No valid plan has a smaller arena.
 */
#ifndef AB_BOUNDS_H
#define AB_BOUNDS_H

#include "core/problem.h"

typedef struct abo_bounds {
    int64_t max_load;        /* peak live bytes over arena tensors */
    int64_t max_load_instr;  /* the first instruction where it is reached (0 when empty) */
    size_t max_load_count;   /* tensors live there */
    int64_t max_single;      /* the largest arena tensor, also a bound */
    int64_t logical_bytes;   /* sum over all tensors of ceil(logical_bits / 8)
                                (a tensor with logical_bits <= 0 counts its size) */
    int64_t physical_bytes;  /* sum over all tensors of size rounded up to align */
    int64_t io_outside;      /* I/O bytes kept outside the arena (io: separate) */
} abo_bounds;

/* Computes the figures of p (arena tensors only, per p->io, for max_load and
 * max_single; all tensors for logical and physical bytes). O(n log n).
 * Returns AB_EINPUT when a sum overflows int64 or a tensor is malformed
 * (size < 1, align < 1, start > end), AB_ENOMEM; *b is zeroed on failure.
 * Allocates only scratch, freed before it returns. */
ab_status abo_bounds_compute(const ab_problem *p, abo_bounds *b, ab_error *err);

/* What makes up the peak: the arena tensors of p live at instruction instr
 * (start <= instr <= end), largest first, ties by index, as an owned array of
 * *n indices into p (NULL when none), freed with ab_free. AB_ENOMEM. */
ab_status abo_live_at(const ab_problem *p, int64_t instr, size_t **idx, size_t *n, ab_error *err);

#endif
