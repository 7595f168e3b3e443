/*
 * minimalloc.h — MiniMalloc's CSV format, in and out.
 *
 * MiniMalloc (google/minimalloc) describes buffers as
 *
 *     id,lower,upper,size[,alignment][,offset]
 *     b1,0,3,4
 *     b2,3,9,4
 *
 * with a buffer live on the HALF-OPEN interval [lower, upper). arenabench's
 * live ranges are inclusive, so importing gives start = lower, end = upper - 1
 * and exporting gives lower = start, upper = end + 1. The file name may carry
 * the capacity the benchmark is posed at: "A.1048576.csv" is suite "A" with
 * capacity 1048576. An `offset` column fixes the buffers whose field it
 * fills, as in MiniMalloc (an empty field leaves the buffer free), checked as
 * YAML checks `offset:` (at least 0, a multiple of the alignment, offset +
 * size at most 2^62); the exporter writes it only for tensors with a fixed
 * offset, so YAML -> CSV -> YAML keeps them. The plan reader below reads the
 * same column as a plan's offsets.
 *
 * Header names, as MiniMalloc's own reader takes them (case matters):
 *
 *     column   spellings                 meaning
 *     id       id, buffer, buffer_id     the buffer's name
 *     lower    lower, begin, start       first instruction live
 *     upper    upper                     one past the last (half-open)
 *              end                       the last instruction live (inclusive)
 *     size     size                      bytes
 *     -        alignment, offset, gaps   optional
 *
 * so "buffer,start,end,size / x,0,2,8" is the tensor x live on [0, 2].
 * Limits: lower, size, alignment and offset at most 2^62, the sizes (each
 * rounded up to its alignment) adding up to at most 2^62, and upper at most 2^62
 * in both spellings (so `end` at most 2^62 - 1): what is read writes back. A
 * column given twice under two spellings is an error. `gaps` (MiniMalloc's
 * times a buffer is not live, "lo-hi[@a:b] ...") has no counterpart in a
 * one-range tensor: an empty gaps field is accepted, any other is an error
 * naming the line.
 */
#ifndef AB_MINIMALLOC_H
#define AB_MINIMALLOC_H

#include "core/buf.h"
#include "core/problem.h"

/* Reads the MiniMalloc CSV at path into *p (initialised by the call; empty on
 * failure). Columns may come in any order; id, lower, upper and size are
 * required. AB_EINPUT with "FILE:LINE: COLUMN: message" on bad input. When
 * had_offsets is not NULL it says whether an offset column was present. */
ab_status abf_minimalloc_load(const char *path, ab_problem *p, bool *had_offsets, ab_error *err);
/* The same from len bytes of data (no NUL needed; fuzz/fuzz_minimalloc.c):
 * path names the input in messages and gives the name and capacity. */
ab_status abf_minimalloc_load_buffer(const char *path, const char *data, size_t len,
                                     ab_problem *p, bool *had_offsets, ab_error *err);

/* Appends p's arena tensors as MiniMalloc CSV to b: alignment when some
 * tensor has align > 1, offset when some tensor has a fixed offset.
 * Importing the text again gives the same tensors (names, sizes, ranges,
 * alignments). */
ab_status abf_minimalloc_render(const ab_problem *p, ab_buf *b, ab_error *err);

/* Reads a plan in MiniMalloc's format (id and offset columns; lower, upper,
 * size, alignment when present must agree with the suite) for problem p (the
 * arena view). *pl is initialised by the call. */
ab_status abf_minimalloc_plan_read(const char *path, const ab_problem *p, ab_plan *pl,
                                   ab_error *err);
/* The same from len bytes of data (no NUL needed); path names it in messages. */
ab_status abf_minimalloc_plan_read_buffer(const char *path, const char *data, size_t len,
                                          const ab_problem *p, ab_plan *pl, ab_error *err);

/* Appends plan pl of problem p as MiniMalloc CSV with an offset column. */
ab_status abf_minimalloc_plan_render(const ab_problem *p, const ab_plan *pl, ab_buf *b,
                                     ab_error *err);

#endif
