/*
 * problem.h — the problem a planner solves and the plan it returns.
 *
 * Semantics (DESIGN.md §1): a tensor is live on [start, end], inclusive at
 * both ends. Two tensors conflict when a.start <= b.end && b.start <= a.end.
 * A plan gives each tensor an offset, a multiple of its align; it is valid
 * when no two conflicting tensors share a byte of [offset, offset + size).
 * The arena is max(offset + size).
 *
 * Ownership: an ab_problem owns its tensors, their names and shapes, and its
 * strings; ab_problem_free releases all of it. An ab_plan owns its array and
 * the names in it.
 */
#ifndef AB_PROBLEM_H
#define AB_PROBLEM_H

#include "ab.h"

#define AB_NONE ((int64_t)-1)             /* an absent optional int64 field */
#define AB_MAX_SIZE ((int64_t)1 << 62)    /* largest size, offset or time accepted */
#define AB_NO_TENSOR SIZE_MAX             /* a plan entry naming no tensor */

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
} ab_tensor;

typedef struct ab_problem {
    char *name;          /* the suite name; owned */
    char *description;   /* owned; may be NULL */
    char *source;        /* the file it came from; owned; may be NULL */
    int64_t alignment;   /* default align of tensors, >= 1 */
    ab_io io;
    int64_t capacity;    /* an arena budget, or AB_NONE */
    int64_t expect_lower_bound; /* AB_NONE when absent */
    int64_t expect_optimum;     /* AB_NONE when absent */
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

/* Sum of sizes of I/O tensors kept outside the arena (io: separate), else 0. */
int64_t ab_problem_io_outside(const ab_problem *p);

/* ---- scaling and coarsening ------------------------------------------------
 * The unit of a problem: the gcd of every size, every alignment above 1, every
 * fixed offset and the capacity. Dividing all of them by it is lossless: in a
 * plan where each tensor sits as low as it can, every offset is 0, a fixed
 * offset, or a multiple of some align > 1 reached from a sum of sizes, so all
 * offsets stay multiples of the unit and no optimum is lost. */
int64_t ab_problem_unit(const ab_problem *p);

/* dst = src with sizes rounded up to a multiple of k, then divided by k, so
 * offsets in dst are in units of k (multiply by k to get bytes). Alignments
 * become max(1, align / k) (align and k are powers of two) or align / gcd
 * otherwise; fixed offsets and capacity are divided by k (capacity rounded
 * down) and a fixed offset that is not a multiple of k is an error.
 * k = ab_problem_unit(src) is lossless; k = 1 copies. */
ab_status ab_problem_coarsen(const ab_problem *src, int64_t k, ab_problem *dst, ab_error *err);

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

/* ---- planner parameters ----------------------------------------------------
 * A planner spec on the command line is name[:key=value[,key=value...]]. */
typedef struct ab_kv {
    char *key;
    char *value;
} ab_kv;

typedef struct ab_params {
    size_t n;
    ab_kv *v; /* owned */
} ab_params;

/* Parses spec into *name (owned) and *params (initialised by the call).
 * A value may be quoted with '...' to hold commas. Keys must be unique. */
ab_status ab_spec_parse(const char *spec, char **name, ab_params *params, ab_error *err);
void ab_params_free(ab_params *params);
/* The value of key, or NULL. */
const char *ab_params_get(const ab_params *params, const char *key);
/* Reads key as an integer in [lo, hi]; def when absent. */
ab_status ab_params_int(const ab_params *params, const char *key, int64_t def, int64_t lo,
                        int64_t hi, int64_t *out, ab_error *err);

/* Parses a whole decimal integer (optional sign, digits only) into *out.
 * Returns false on anything else, including overflow of int64_t. */
bool ab_parse_int64(const char *s, size_t len, int64_t *out);

#endif
