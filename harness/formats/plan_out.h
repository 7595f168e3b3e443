/*
 * plan_out.h — a checked plan rendered for the user's toolchain: a C header
 * and a JSON object (`arenabench export SUITE --plan PLAN --format ...`).
 * MiniMalloc CSV with offsets is minimalloc.h's abf_minimalloc_plan_render;
 * TFLite Micro's offline plan is tflite_offline.h.
 *
 * ---- c-header ----------------------------------------------------------------------
 * An include-guarded header that C and C++ both take:
 *
 *     #define FD_ARENA_SIZE 1376256u            arena bytes: max(offset + size)
 *     #define FD_TENSOR_COUNT 165u              tensors in the arena
 *     (a comment) conv1: 802816 bytes, live [0, 2]
 *     #define FD_OFFSET_CONV1 0u                 bytes from the arena's start
 *     FD_STATIC_ASSERT(FD_OFFSET_CONV1 + 802816u <= FD_ARENA_SIZE, "conv1 ...");
 *
 * FD is the suite's name made an identifier (upper case; letters, digits and
 * _; a leading digit gets a leading _), as is each tensor's name after
 * PREFIX_OFFSET_; a tensor whose identifier is already taken (two names
 * differ only in case or punctuation) gets _2, _3, ... (the first free one,
 * in suite order, so the same suite always gives the same names).
 * Identifiers are cut to 63 characters (what C guarantees to tell apart),
 * the suffix kept. Numbers are unsigned literals (u, or ull past 2^32 - 1).
 * In comments a name keeps printable ASCII but '?', '\\' and the '/' of a
 * star-slash (each becomes _); in the assertions' strings it is escaped.
 *
 * ---- json --------------------------------------------------------------------------
 * One object, keys in this order (bytes everywhere; live ranges inclusive):
 *
 *     {"format": "arenabench-plan", "version": 1,
 *      "suite": {"name": "...", "hash": "<sha256 of the canonical suite YAML, or null>",
 *                "source": "<file or null>", "io": "separate|workspace",
 *                "alignment": 1},
 *      "arena": 1376256, "tensors_in_arena": 165,
 *      "pools": [{"name": "sram", "size": 65536 or null, "used": 1024}]   (only with pools)
 *      "tensors": [{"name": "...", "size": 4, "start": 0, "end": 2, "align": 1,
 *                   "kind": "intermediate|input|output", "offset": 0,
 *                   "pool": "sram", "pool_offset": 0}   (pool keys only with pools)
 *                  ...]}
 *
 * Tensors come in suite order (the arena view); offset is the plan's (with
 * pools, the joint address space of ab_problem; pool_offset is within pool).
 */
#ifndef AB_PLAN_OUT_H
#define AB_PLAN_OUT_H

#include "core/buf.h"
#include "core/problem.h"

/* A plan to render: view is the suite's arena view, offsets[i] the offset of
 * view tensor i (a plan the checker found valid: every tensor placed once).
 * The plan formats' writers (plan_formats.h) take it too: plan files write
 * plan (as made or read, valid or not), the others offsets. */
typedef struct abf_plan_out {
    const ab_problem *view;
    const int64_t *offsets;
    const char *suite_hash; /* hex, or NULL */
    const char *plan_path;  /* where the plan came from, for the header's comment, or NULL */
    const ab_plan *plan;    /* the plan's entries (plan files: csv, minimalloc), or NULL */
    const char *model;      /* the .tflite to copy (ABF_PLAN_FORMAT_TFLM_MODEL), or NULL */
    const char *profile;    /* the profile the plan was made under, as abf_profile_record
                               writes it ("profile=tflm io=workspace align=16"), or NULL:
                               plan files (csv) keep it in a first line "# arenabench: ..." */
} abf_plan_out;

/* Appends the C header (see above) to b. AB_EINPUT when the suite has pools
 * (one arena per header: not supported yet). */
ab_status abf_plan_render_c_header(const abf_plan_out *o, ab_buf *b, ab_error *err);

/* Appends the JSON object (see above) to b, with a final newline. */
ab_status abf_plan_render_json(const abf_plan_out *o, ab_buf *b, ab_error *err);


#endif
