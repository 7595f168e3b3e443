/*
 * brute.h — an independent brute-force optimum for tiny problems, used by the
 * tests as ground truth for the example suites, the exact planners and the ILP.
 *
 * It shares no code with planners/ or oracle/: only the problem type and the
 * conflict rule of core/problem.h (DESIGN.md §1). See brute.c for why its
 * enumeration reaches an optimum.
 */
#ifndef AB_TEST_BRUTE_H
#define AB_TEST_BRUTE_H

#include <stdint.h>

#include "core/problem.h"

/* The most tensors without a fixed offset that abt_brute_optimum accepts
 * (it tries up to ABT_BRUTE_MAX_FREE! placement orders, with pruning). */
#define ABT_BRUTE_MAX_FREE 10
/* The most tensors in all, fixed ones included. */
#define ABT_BRUTE_MAX 64

/* The smallest arena of any valid plan of p, which is read as it is (pass the
 * arena view when I/O tensors must be left out). Tensors with a fixed offset
 * stay there; every other tensor gets an offset that is a multiple of its
 * align (align < 1 counts as 1). When offsets_out is not NULL it receives an
 * optimal plan, offsets_out[i] for tensor i (the first optimum found in a
 * fixed enumeration order, so the same p gives the same plan).
 * Returns -1, leaving offsets_out untouched, when p has more than
 * ABT_BRUTE_MAX_FREE free or ABT_BRUTE_MAX tensors in all, when two
 * conflicting fixed tensors overlap (no valid plan exists), or when every plan
 * would overflow int64. An empty problem has arena 0. Allocates nothing. */
int64_t abt_brute_optimum(const ab_problem *p, int64_t *offsets_out);

#endif
