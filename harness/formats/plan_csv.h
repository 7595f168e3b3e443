/*
 * plan_csv.h — plan files (DESIGN.md §4).
 *
 * Format: CSV with a header row. `tensor,offset` are required, in any order;
 * `size`, `start`, `end` may follow and, when present, must agree with the
 * suite. Example:
 *
 *     tensor,offset,size,start,end
 *     conv1,0,802816,0,2
 *     fire2_sq,802816,200704,2,4
 *
 * Offsets are bytes. With pools (core/problem.h) an optional `pool` column
 * names each tensor's pool and `offset` is then the offset in that pool (an
 * empty pool field: an offset in the pools' joint address space, as without
 * the column); the writer writes the column whenever the suite has pools:
 *
 *     tensor,pool,offset,size,start,end
 *     t2,fast,0,200704,3,4
 *     sid_8,slow,0,802816,2,4
 *
 * Names are resolved against the arena view of the suite
 * (the tensors a plan places); a name that is unknown there is kept as an
 * entry with tensor AB_NO_TENSOR so the checker reports it.
 */
#ifndef AB_PLAN_CSV_H
#define AB_PLAN_CSV_H

#include "core/buf.h"
#include "core/problem.h"

/* Reads the plan at path for problem p (the arena view). *pl is initialised by
 * the call. AB_EINPUT with "file:line: column: message" on malformed input or
 * extra columns that disagree with the suite. */
ab_status abf_plan_read(const char *path, const ab_problem *p, ab_plan *pl, ab_error *err);

/* The same from len bytes of data (no NUL needed), named name in messages
 * (fuzz/fuzz_plan_csv.c). */
ab_status abf_plan_read_buffer(const char *name, const char *data, size_t len,
                               const ab_problem *p, ab_plan *pl, ab_error *err);

/* Appends pl for problem p to b as the plan file abf_plan_write writes. */
ab_status abf_plan_render(const ab_problem *p, const ab_plan *pl, ab_buf *b, ab_error *err);

/* Writes pl for problem p to path ("-" for stdout), with size,start,end. */
ab_status abf_plan_write(const char *path, const ab_problem *p, const ab_plan *pl, ab_error *err);

#endif
