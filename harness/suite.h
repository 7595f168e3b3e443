/*
 * suite.h — suite files (YAML, DESIGN.md §3): load and write.
 *
 * Schema, top level (a mapping):
 *   suite        string, required     unique name
 *   description  string
 *   alignment    power of two >= 1    default align of tensors (default 1)
 *   io           separate|workspace   where input/output tensors live (default separate)
 *   capacity     integer >= 1         an arena budget
 *   tensors      sequence, required   each a mapping:
 *       name     string, required, unique
 *       size     integer 1 .. 2^62    bytes; or shape + dtype
 *       shape    sequence of integers >= 1
 *       dtype    int4, int8, float32, ... (ab_dtype_find)
 *       start    integer >= 0, required
 *       end      integer >= start, required (inclusive)
 *       align    power of two >= 1    (default: the suite's alignment)
 *       kind     intermediate|input|output
 *       offset   integer >= 0, a multiple of align: a fixed offset
 *   expect       mapping: lower_bound, optimum (integers)
 *
 * Every error names file:line:column and the field, e.g.
 *   "s.yaml:12:15: tensors[3].size: must be a positive integer, got '-4'"
 */
#ifndef AB_SUITE_H
#define AB_SUITE_H

#include "../core/problem.h"

/* Loads the suite at path into *p (initialised by the call; freed with
 * ab_problem_free even on failure). AB_EINPUT with a located message on bad
 * input; nothing is half-loaded: on failure *p is empty. */
ab_status abh_suite_load(const char *path, ab_problem *p, ab_error *err);

/* Same, from a buffer; name is used in messages in place of a path. */
ab_status abh_suite_load_buffer(const char *name, const char *buf, size_t len, ab_problem *p,
                                ab_error *err);

/* Writes p as suite YAML to path ("-" for stdout). Loading the file again gives
 * an equal problem (round trip). */
ab_status abh_suite_write(const ab_problem *p, const char *path, ab_error *err);

#endif
