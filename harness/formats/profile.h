/*
 * profile.h — runtime profiles: the one table of the conventions a runtime
 * applies to a model's tensors before its memory planner sees them, read by
 * `import`, `plan`, `bound` and `run` (--profile P, overridden by --io and
 * --align). README.md says each profile's rule and where the runtime
 * documents it.
 *
 *   name      io         align  sizes          reference planner
 *   plain     (suite's)  (suite's)  as given   (none)
 *   tflm      workspace  16     rounded to 16  tflm-greedy
 *   tvm-usmp  separate   16     as given       usmp-greedy-by-size
 *
 * Applying a profile to a problem: io is set (unless the profile keeps the
 * suite's); with an alignment A > 1 the suite's default alignment and every
 * tensor's align are raised to at least A, and, when the profile rounds
 * sizes, every size is rounded up to a multiple of its (new) align. Shapes,
 * dtypes and logical bits are kept, so the logical figure still tells what
 * the tensors hold. Anything else (pools, capacity, fixed offsets) is the
 * suite's. A change drops the suite's expect.optimum and expect.lower_bound
 * and its peers' expectations: they speak of the suite as written.
 */
#ifndef ABF_PROFILE_H
#define ABF_PROFILE_H

#include "core/problem.h"

#define ABF_PROFILE_KEEP_IO (-1) /* a profile or an override that keeps the suite's io */

/* One runtime profile (a row of the table in profile.c). */
typedef struct abf_profile {
    const char *name;      /* "plain", "tflm", "tvm-usmp" */
    const char *runtime;   /* "TensorFlow Lite Micro", ... for messages and help */
    int io;                /* ab_io, or ABF_PROFILE_KEEP_IO */
    int64_t align;         /* 1: keep the suite's; else a power of two */
    bool round_sizes;      /* sizes rounded up to a multiple of their align */
    const char *reference; /* the runtime's own planner (a spec), or NULL */
} abf_profile;

/* What a command line chose: a profile and the overrides of --io, --align. */
typedef struct abf_profile_choice {
    const abf_profile *profile; /* never NULL after abf_profile_choose */
    int io;                     /* the io to apply: ab_io or ABF_PROFILE_KEEP_IO */
    int64_t align;              /* the alignment to apply (1: none) */
    bool round_sizes;
    int64_t capacity;           /* the arena budget to set (--capacity), overriding the
                                   suite's `capacity:` (its pools stay), or AB_NONE */
} abf_profile_choice;

/* Row i of the table (NULL past its end), in the order of help and README.
 * Exported for tests/test_profiles.c, which checks the table's rows. */
const abf_profile *abf_profile_at(size_t i);

/* The profile called name, or NULL. Exported for tests/test_profiles.c; the
 * product reaches profiles through abf_profile_choose. */
const abf_profile *abf_profile_named(const char *name);

/* Reads the command line's strings (each may be NULL: not given) into *c:
 * profile (default plain), io "separate" | "workspace", align a power of
 * two from 1 to 2^30 (the suite's rounding of sizes follows the profile).
 * AB_EINPUT with a message naming the option on anything else. */
ab_status abf_profile_choose(const char *profile, const char *io, const char *align,
                             abf_profile_choice *c, ab_error *err);

/* Whether applying c can change a problem (false for plain without
 * overrides). */
bool abf_profile_changes(const abf_profile_choice *c);

/* The record of c a plan file keeps (DESIGN.md §4: a plan records the profile
 * it was made under): "profile=tflm io=workspace align=16", io being "keep"
 * when c keeps the suite's. False (out untouched) when c changes no tensor
 * (plain without --io or --align): a plan made so needs no record. */
bool abf_profile_record(const abf_profile_choice *c, char *out, size_t len);

/* Parses a record abf_profile_record wrote into *c (capacity AB_NONE).
 * AB_EINPUT naming what is wrong otherwise. */
ab_status abf_profile_from_record(const char *rec, abf_profile_choice *c, ab_error *err);

/* Whether a and b make the same problem of a suite (profile, io, align). */
bool abf_profile_same(const abf_profile_choice *a, const abf_profile_choice *b);

/* Applies c to p in place (see above). *changed (may be NULL) says whether
 * anything changed. AB_EINPUT naming the tensor (and its line) when a fixed
 * offset is not a multiple of the new align or a rounded size overflows; p is
 * then partly changed and only fit to be freed. */
ab_status abf_profile_apply(const abf_profile_choice *c, ab_problem *p, bool *changed,
                            ab_error *err);

#endif
