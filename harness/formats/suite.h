/*
 * suite.h — suite files (YAML, DESIGN.md §3): load and write.
 *
 * Schema, top level (a mapping):
 *   suite        string, required     unique name
 *   description  string
 *   alignment    power of two >= 1    default align of tensors (default 1)
 *   io           separate|workspace   where input/output tensors live (default separate)
 *   capacity     integer >= 1         an arena budget
 *   pools        sequence of 1 to 16 mappings (memory pools, core/problem.h):
 *       name     string, required, unique
 *       size     integer 1 .. 2^62    the pool's size limit; only the last pool
 *                                     may leave it out (unbounded); sizes add up
 *                                     to at most 2^62
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
 *   expect       mapping: lower_bound, optimum (integers >= 0, lower_bound <= optimum),
 *                peer_arena, peer_offsets (peers' published numbers, issue 7):
 *       peer_arena    mapping: planner spec (must resolve, e.g. "tflm-greedy:round=1")
 *                     -> arena in bytes, or -> {pool name: bytes, ...} naming every
 *                     pool once (the arena is then their sum)
 *       peer_offsets  mapping: planner spec -> sequence of offsets, one per tensor
 *                     in the arena, in file order (I/O tensors left out with
 *                     io: separate)
 *
 *   e.g.  pools: [{name: fast, size: 200704}, {name: slow}]
 *         expect:
 *           peer_arena: {usmp-greedy-by-size: {fast: 200704, slow: 1418528}}
 *
 * Every error names file:line:column and the field, e.g.
 *   "s.yaml:12:15: tensors[3].size: must be a positive integer, got '-4'"
 * (once a tensor's name has been read the field reads
 * "tensors[3] (name 'conv1').size"; indices count from 0, lines and columns
 * from 1).
 *
 * Details of the format, as the loader (suite.c) reads it:
 *   - integers are plain decimal and unquoted: 64, not "64", 64.0, 1e6 or 064;
 *   - size only: logical_bits = size * 8 (INT64_MAX above 2^60 bytes), dtype
 *     and shape NULL. shape + dtype: logical_bits = product(shape) * bits,
 *     size = ceil(logical_bits / 8) unless `size` is also given, which is then
 *     the physical size and must be at least that;
 *   - a tensor without `align` takes the suite's alignment, wherever
 *     `alignment` appears in the file; a tensor's line is its mapping's line;
 *   - anchors and aliases work; the nodes aliases expand to are limited to a
 *     million per file (an alias bomb fails at once). Merge keys ('<<') do
 *     not work. `generate:` is reserved and rejected for now;
 *   - the first error stops the load.
 */
#ifndef AB_SUITE_H
#define AB_SUITE_H

#include "core/buf.h"
#include "core/problem.h"

/* Loads the suite at path ("-" for stdin) into *p (initialised by the call;
 * freed with ab_problem_free even on failure); p->source is a copy of path.
 * AB_EINPUT with a located message on bad input, or naming the path and the
 * system's reason when it cannot be read; AB_ENOMEM when memory runs out.
 * Nothing is half-loaded: on failure *p is empty. */
ab_status abf_suite_load(const char *path, ab_problem *p, ab_error *err);

/* Same, from a buffer of len bytes (no NUL needed); name is used in messages
 * and as p->source in place of a path ("<buffer>" when NULL). */
ab_status abf_suite_load_buffer(const char *name, const char *buf, size_t len, ab_problem *p,
                                ab_error *err);

/* How a load goes (suite.c: the fast path for the writer's subset, then
 * libyaml). The zero value is the default every caller but the loader's own
 * tests uses. */
typedef struct abf_suite_load_opts {
    bool libyaml_only;          /* skip the fast path (to compare both) */
    unsigned long *fast_loads;  /* when not NULL, incremented when the fast path loaded
                                   the text whole */
} abf_suite_load_opts;

/* abf_suite_load_buffer under o (NULL: the defaults). */
ab_status abf_suite_load_buffer_with(const char *name, const char *buf, size_t len,
                                     const abf_suite_load_opts *o, ab_problem *p, ab_error *err);

/* Writes p as suite YAML to path ("-" for stdout). Loading the file again gives
 * an equal problem (round trip). One flow mapping per tensor; keys equal to
 * their defaults are left out; a tensor with a dtype is written as shape +
 * dtype, with `size` only when it exceeds the logical bytes. libyaml quotes
 * what needs quoting. AB_EINPUT when path cannot be opened, AB_EINTERNAL when
 * writing fails (the file may then be partly written). */
ab_status abf_suite_write(const ab_problem *p, const char *path, ab_error *err);

/* Appends p as suite YAML to b: the same text abf_suite_write writes, which is
 * also the suite's canonical form (its content hash in the results store:
 * comments and layout of the source file do not change it). */
ab_status abf_suite_render(const ab_problem *p, ab_buf *b, ab_error *err);


#endif
