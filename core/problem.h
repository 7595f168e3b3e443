/*
 * problem.h — the problem a planner solves and the plan it returns.
 *
 * Semantics (DESIGN.md §1): a tensor is live on [start, end], inclusive at
 * both ends. Two tensors conflict when a.start <= b.end && b.start <= a.end.
 * A plan gives each tensor an offset, a multiple of its align; it is valid
 * when no two conflicting tensors share a byte of [offset, offset + size).
 * The arena is max(offset + size).
 *
 * Ownership: an ab_problem owns its tensors, their names and shapes, its
 * pools, its peer expectations and its strings; ab_problem_free releases all
 * of it. An ab_plan owns its array and the names in it.
 *
 * Pools (suite key `pools:`, issue 7): a suite may declare up to AB_MAX_POOLS
 * ordered memory pools (fast on-chip memory, then slow external memory, ...),
 * each with an optional size limit. A plan still gives each tensor one offset:
 * an offset in the pools' JOINT address space, where the pools lie end to end
 * in their declared order (pool k starts at ab_pool_base(p, k), the sum of the
 * sizes of the pools before it). So the pool of a tensor is the pool whose
 * window [base, base + size) holds its offset (ab_pool_find), its offset in
 * that pool is offset - base, and two tensors in different pools never share a
 * byte. Only the last pool may be unbounded (size AB_NONE): a pool after an
 * unbounded one could not be addressed, and with one ordered list of
 * candidate pools for every tensor it would never be used anyway. Alignment
 * is relative to a pool's start (offset - base must be a multiple of align).
 * A suite without pools (npools 0) has one implicit unbounded pool at 0, so
 * every existing plan keeps its meaning.
 */
#ifndef AB_PROBLEM_H
#define AB_PROBLEM_H

#include "core/ab.h"

#define AB_NONE ((int64_t)-1)             /* an absent optional int64 field */
#define AB_MAX_SIZE ((int64_t)1 << 62)    /* largest size, offset or time accepted */
#define AB_NO_TENSOR SIZE_MAX             /* a plan entry naming no tensor */
#define AB_MAX_POOLS 16                   /* pools a suite may declare */
#define AB_NO_POOL SIZE_MAX               /* an offset in no pool (ab_pool_find) */

typedef enum ab_kind { AB_KIND_INTERMEDIATE = 0, AB_KIND_INPUT, AB_KIND_OUTPUT } ab_kind;
typedef enum ab_io { AB_IO_SEPARATE = 0, AB_IO_WORKSPACE } ab_io;

/* Element types for `shape` + `dtype`. Bits per element; sub-byte types are
 * packed: a tensor's bits are summed before rounding up to bytes. */
typedef struct ab_dtype {
    const char *name;
    int bits;
} ab_dtype;

/* The dtype called name, or NULL. */
const ab_dtype *ab_dtype_find(const char *name);
/* Index i of the dtype table (NULL past its end), for listings and tests. */
const ab_dtype *ab_dtype_at(size_t i);

typedef struct ab_tensor {
    char *name;          /* unique within the problem; owned */
    int64_t size;        /* bytes planned, 1 .. AB_MAX_SIZE */
    int64_t logical_bits;/* shape x dtype bits, packed; size * 8 when given by size */
    int64_t start, end;  /* inclusive live range, 0 <= start <= end <= AB_MAX_SIZE */
    int64_t align;       /* power of two >= 1; offsets are multiples of it */
    int64_t offset;      /* a fixed (pre-planned) offset, or AB_NONE */
    ab_kind kind;
    const ab_dtype *dtype; /* NULL when given by size */
    int ndim;            /* number of dimensions in shape (0 when given by size) */
    int64_t *shape;      /* owned; NULL when given by size */
    int line;            /* 1-based line in the source file, 0 when none */
    int64_t stride_align;/* layout padding (suite key stride_align), 0 when none: see
                            ab_tensor_padded_bytes */
} ab_tensor;

/* The bytes of tensor t laid out with its stride_align A (shape and dtype
 * required): each innermost row of C elements is padded to a multiple of A
 * bytes, pixel_stride = align_up(ceil(C x bits / 8), A), times the product of
 * the other dimensions. When C = 1 (a single channel) whole rows are padded
 * instead: row_stride = align_up(ceil(W x bits / 8), A) for the next-to-last
 * dimension W, times the product of the dimensions before it. Without
 * stride_align: ceil(logical bits / 8). Returns false when it overflows. */
bool ab_tensor_padded_bytes(const ab_tensor *t, int64_t *bytes);

/* A memory pool (see "Pools" above). */
typedef struct ab_pool {
    char *name;          /* unique within the problem; owned */
    int64_t size;        /* size limit in bytes, >= 1, or AB_NONE (unbounded: last pool only) */
} ab_pool;

/* A peer planner's published result on a suite (`expect: peer_arena:` and
 * `peer_offsets:`, keyed by planner spec), checked by tests/test_peers.c. */
typedef struct ab_peer_expect {
    char *spec;          /* the planner spec, e.g. "tflm-greedy:round=1"; owned */
    int64_t arena;       /* the expected arena, or AB_NONE; with pools the sum of the
                            pools' used bytes (the checker's arena) */
    int64_t *pool_bytes; /* owned; npools values (used bytes per pool) when the suite gave
                            them pool by pool, else NULL */
    int64_t *offsets;    /* owned; noffsets expected offsets, one per arena tensor in
                            order (ab_problem_arena_view), or NULL */
    size_t noffsets;
} ab_peer_expect;

typedef struct ab_problem {
    char *name;          /* the suite name; owned */
    char *description;   /* owned; may be NULL */
    char *source;        /* the file it came from; owned; may be NULL */
    int64_t alignment;   /* default align of tensors, >= 1 */
    ab_io io;
    int64_t capacity;    /* an arena budget, or AB_NONE */
    int64_t expect_lower_bound; /* AB_NONE when absent */
    int64_t expect_optimum;     /* AB_NONE when absent */
    size_t npools;       /* 0 when the suite declares no pools */
    ab_pool *pools;      /* owned array of npools pools, in order */
    size_t npeers;
    ab_peer_expect *peers; /* owned array of npeers peer expectations */
    size_t n;            /* number of tensors */
    ab_tensor *t;        /* owned array of n tensors */
    size_t cap;          /* allocated slots in t */
} ab_problem;

/* Sets every field to its default: empty, alignment 1, no capacity. */
void ab_problem_init(ab_problem *p);
/* Frees everything p owns and re-initialises it. NULL is accepted. */
void ab_problem_free(ab_problem *p);

/* Appends a copy of *t (name and shape duplicated). Returns AB_ENOMEM on failure,
 * leaving p unchanged. */
ab_status ab_problem_add(ab_problem *p, const ab_tensor *t, ab_error *err);

/* A deep copy of src into dst (dst is initialised by the call). */
ab_status ab_problem_clone(const ab_problem *src, ab_problem *dst, ab_error *err);

/* true when tensor i lives in the arena: always with io: workspace, and for
 * intermediates with io: separate. */
bool ab_in_arena(const ab_problem *p, size_t i);

/* The problem the planners see: only the tensors that live in the arena, in
 * their original order. dst is initialised by the call. When map is not NULL,
 * *map receives an owned array of dst->n indices into src. */
ab_status ab_problem_arena_view(const ab_problem *src, ab_problem *dst, size_t **map,
                                ab_error *err);

/* true when tensors a and b conflict (their live ranges intersect). */
static inline bool ab_conflict(const ab_tensor *a, const ab_tensor *b) {
    return a->start <= b->end && b->start <= a->end;
}

/* Where pool k starts in the joint address space: the sum of the sizes of
 * the pools before it (0 for k = 0, and without pools). The loader keeps the
 * sum of all bounded sizes within AB_MAX_SIZE. */
int64_t ab_pool_base(const ab_problem *p, size_t k);

/* The pool whose window holds joint offset off, or AB_NO_POOL when off is
 * negative or past the end of a bounded last pool. Without pools: 0 for every
 * off >= 0. */
size_t ab_pool_find(const ab_problem *p, int64_t off);

/* The name of pool k for messages ("arena" without pools). */
const char *ab_pool_name(const ab_problem *p, size_t k);

/* Sum of sizes of I/O tensors kept outside the arena (io: separate), else 0. */
int64_t ab_problem_io_outside(const ab_problem *p);

/* ---- scaling and coarsening ------------------------------------------------
 * The unit of a problem: the gcd of every size, every alignment above 1, every
 * fixed offset, the capacity and every pool size. Dividing all of them by it
 * is lossless: in a plan where each tensor sits as low as it can, every
 * offset is 0, a fixed offset, or a multiple of some align > 1 reached from a
 * sum of sizes, so all offsets stay multiples of the unit and no optimum is
 * lost. */
int64_t ab_problem_unit(const ab_problem *p);

/* dst = src with sizes rounded up to a multiple of k, then divided by k, so
 * offsets in dst are in units of k (multiply by k to get bytes). Alignments
 * become max(1, align / k) (align and k are powers of two) or align / gcd
 * otherwise; fixed offsets and capacity are divided by k (capacity rounded
 * down) and a fixed offset that is not a multiple of k is an error. Pool
 * sizes are divided by k and must be multiples of it (else the joint offsets
 * of the pools would not scale); peer expectations are dropped.
 * k = ab_problem_unit(src) is lossless; k = 1 copies. */
ab_status ab_problem_coarsen(const ab_problem *src, int64_t k, ab_problem *dst, ab_error *err);

/* The unit of the exact planners' gcd reduction ((R1) in planners/
 * exact_cover.c, where the proof is): the gcd of the sizes and fixed offsets,
 * lowered to gcd(g, a) by each align a that neither divides g nor is a
 * multiple of it, until none is left. Some optimal plan lies on this grid.
 * Unlike ab_problem_unit it leaves the capacity out (an exact planner rounds
 * it down). 1 for an empty problem. */
int64_t ab_problem_gravity_unit(const ab_problem *p);

/* The capacity a one-arena plan of p must fit: the suite's, or the size of
 * its one pool when that is lower; AB_NONE when neither is set. (A planner
 * without pools sees at most one pool; the checker holds the plan to it.) */
int64_t ab_problem_capacity(const ab_problem *p);

/* Sections: every instruction where the live set changes (a start, or the
 * one after an end), within the program, numbered from 0 in order; two
 * tensors conflict iff their ranges of sections meet. sec0/sec1 (n each)
 * receive every tensor's range of sections, *nsec their number and, when
 * first is not NULL, *first (owned by the caller) the first instruction of
 * each. False when memory runs out. */
bool ab_problem_sections(const ab_problem *p, int32_t *sec0, int32_t *sec1, int32_t *nsec,
                         int64_t **first);

/* Two tensors with fixed offsets (offset != AB_NONE) that conflict and share
 * a byte ([offset, offset + size) meet), so that no valid plan exists. The
 * exact planners, the ILP and the MiniZinc model reject such a problem with
 * this one check. A sweep over the tensors by start (ties by index) with the
 * live fixed tensors in a tree over offsets: O(m log m) for m fixed tensors,
 * O(m) memory, freed before it returns. Returns AB_OK with *a < *b the
 * indices of the first pair the sweep meets (its later tensor is the first,
 * by start then index, to overlap an earlier live one; its earlier one the
 * live tensor below that tensor's end reaching highest, ties to the lower
 * offset then index), or *a = *b = AB_NO_TENSOR when there is none;
 * AB_ENOMEM (err set) when memory runs out. */
ab_status ab_problem_fixed_overlap(const ab_problem *p, size_t *a, size_t *b, ab_error *err);

/* ---- name lookup -------------------------------------------------------------
 * An open-addressing table from tensor name to index, built once. */
typedef struct ab_names ab_names;

/* Builds the table for p's tensors. On a duplicate name, returns AB_EINPUT and
 * sets *dup_a < *dup_b to the two indices (when not NULL). *out is owned by the
 * caller, freed with ab_names_free. */
ab_status ab_names_build(const ab_problem *p, ab_names **out, size_t *dup_a, size_t *dup_b,
                         ab_error *err);
/* The index of the tensor called name (of length len), or AB_NO_TENSOR. */
size_t ab_names_find(const ab_names *t, const char *name, size_t len);
/* The number of slots ab_names_find looks at for name (the found one or the
 * empty one that ends the search included): a measure of the table's
 * clustering, for tests. */
size_t ab_names_probes(const ab_names *t, const char *name, size_t len);
void ab_names_free(ab_names *t);

/* ---- plans -----------------------------------------------------------------
 * A plan as read from a file or made by a planner: a list of entries, each
 * naming a tensor by index (AB_NO_TENSOR when the name is unknown) and giving
 * an offset. The checker takes it as it is: duplicates, missing and unknown
 * tensors are its verdicts to give, not the reader's. */
typedef struct ab_placement {
    size_t tensor;   /* index into the problem, or AB_NO_TENSOR */
    int64_t offset;
    char *name;      /* owned; set when tensor is AB_NO_TENSOR, else may be NULL */
    int line;        /* line in the plan file, 0 when none */
} ab_placement;

typedef struct ab_plan {
    size_t n;
    ab_placement *v;  /* owned */
    size_t cap;
} ab_plan;

void ab_plan_init(ab_plan *pl);
void ab_plan_free(ab_plan *pl);
/* Appends an entry; name is copied when not NULL. */
ab_status ab_plan_add(ab_plan *pl, size_t tensor, int64_t offset, const char *name, int line,
                      ab_error *err);
/* A plan with entry i = (i, offsets[i]) for i < n. pl is initialised by the call. */
ab_status ab_plan_from_offsets(ab_plan *pl, const int64_t *offsets, size_t n, ab_error *err);

/* ---- integers ---------------------------------------------------------------
 * (Planner specs and their parameters are the planners' layer: planners/planner.h.) */

/* Parses a whole decimal integer (optional sign, digits only) into *out.
 * Returns false on anything else, including overflow of int64_t. */
bool ab_parse_int64(const char *s, size_t len, int64_t *out);

/* Parses a byte count: digits (no sign), optionally followed by K, M, G or T
 * (either case; binary multiples: 64K = 65536), at least 1 byte, into *out.
 * Returns false (leaving *out alone) on anything else or on overflow of
 * int64_t: "512M", "4G", "100" are read, "", "K", "-5", "+5", "1.5G" are not. */
bool ab_parse_bytes(const char *s, int64_t *out);

#endif
