/*
 * ab.h — arenabench's core vocabulary: status codes, the error out-parameter,
 * the allocation hook and checked 64-bit arithmetic.
 *
 * Library code (core/, planners/, oracle/, harness/ loaders) never prints and
 * never exits: it returns an ab_status and, on failure, fills an ab_error whose
 * message is ready to print after "arenabench: ".
 */
#ifndef AB_AB_H
#define AB_AB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Status of a library call. The command layer maps it to an exit code with
 * ab_status_exit_code(): 0 ok, 1 a check failed, 2 bad usage or input,
 * 3 internal error (out of memory included). */
typedef enum ab_status {
    AB_OK = 0,
    AB_ECHECK = 1,    /* a check failed (an invalid plan, an expectation missed) */
    AB_EINPUT = 2,    /* bad usage or bad input: the message names where */
    AB_EINTERNAL = 3, /* a bug or an environment failure */
    AB_ENOMEM = 4,    /* an allocation failed (exit code 3) */
    AB_ELIMIT = 5     /* a budget ran out (time, nodes, memory estimate) */
} ab_status;

#define AB_ERROR_MAX 1024

/* An error out-parameter. Functions taking `ab_error *err` accept NULL. */
typedef struct ab_error {
    ab_status status;
    char msg[AB_ERROR_MAX];
} ab_error;

/* Records status and a printf-style message in err (when err is not NULL)
 * and returns status, so callers can write `return ab_fail(err, ...)`.
 * A message longer than AB_ERROR_MAX is cut, ending in "...". */
ab_status ab_fail(ab_error *err, ab_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Resets err to AB_OK and an empty message. */
void ab_error_clear(ab_error *err);

/* The process exit code for a status (see the enum). */
int ab_status_exit_code(ab_status st);

/* ---- allocation ----------------------------------------------------------
 * Every allocation in the library goes through these, so tests can make the
 * Nth call fail (ab_alloc_fail_at). They return NULL on failure, like libc;
 * ab_free(NULL) is a no-op. ab_alloc_array checks n * size for overflow. */
void *ab_malloc(size_t size);
void *ab_calloc(size_t n, size_t size);
void *ab_realloc(void *p, size_t size);
void *ab_alloc_array(size_t n, size_t size);
void *ab_realloc_array(void *p, size_t n, size_t size);
char *ab_strdup(const char *s);
char *ab_strndup(const char *s, size_t n);
void ab_free(void *p);

/* Test hook: the nth allocation from now (1 = the next one) fails, and every
 * later one succeeds; n = 0 disarms. Returns how many allocations have been
 * made since the last call (so a test can count calls, then fail each one). */
long ab_alloc_fail_at(long n);

/* Grows *arr (of element size elem) so it holds at least need elements;
 * *cap is updated. Returns false (leaving *arr intact) on overflow or OOM. */
bool ab_grow(void **arr, size_t *cap, size_t need, size_t elem);

/* ---- checked arithmetic --------------------------------------------------
 * Each returns true when the result overflowed int64_t; *r is then unusable. */
static inline bool ab_add_ovf(int64_t a, int64_t b, int64_t *r) {
    return __builtin_add_overflow(a, b, r);
}
static inline bool ab_mul_ovf(int64_t a, int64_t b, int64_t *r) {
    return __builtin_mul_overflow(a, b, r);
}

/* Rounds v >= 0 up to a multiple of m >= 1; true on overflow. Inline, with
 * no division for powers of two: the greedy rules align every gap they pass. */
static inline bool ab_align_up_ovf(int64_t v, int64_t m, int64_t *r) {
    int64_t rem = v >= 0 && (m & (m - 1)) == 0 ? v & (m - 1) : v % m;
    if (rem == 0) {
        *r = v;
        return false;
    }
    return ab_add_ovf(v, m - rem, r);
}

/* Greatest common divisor of two non-negative numbers; gcd(0, x) = x. */
int64_t ab_gcd(int64_t a, int64_t b);

/* A qsort comparator for int64_t values, ascending. */
int ab_cmp_i64(const void *a, const void *b);

/* The number of elements of v[0 .. n), sorted ascending, that are <= x. */
size_t ab_count_le(const int64_t *v, size_t n, int64_t x);

/* The number of values in v[0 .. n) that are < x (v sorted ascending). */
size_t ab_count_lt(const int64_t *v, size_t n, int64_t x);

/* FNV-1a, 64 bits: h updated with len bytes of buf. Start from AB_FNV_OFFSET;
 * feed a long input piece by piece by passing each result on. */
#define AB_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
uint64_t ab_fnv1a(uint64_t h, const void *buf, size_t len);

/* The slot of hash h in a table of 2^bits slots (1 <= bits <= 63): h mixed
 * by Fibonacci hashing, its high bits. FNV-1a's low bits alone cluster on
 * names like t0, t1, ..., so every open-addressing table over names takes
 * its first slot from here. */
size_t ab_hash_slot(uint64_t h, int bits);

/* The first repeated string among str(ctx, 0) .. str(ctx, n - 1), in order:
 * *b the first index whose string equals an earlier one, *a that earlier one.
 * Returns 1 when found, 0 when all differ, -1 when out of memory. Hashes (in
 * a set of 16 bytes per string, freed before it returns) and compares only
 * strings whose hashes agree. */
int ab_find_duplicate(size_t n, const char *(*str)(const void *ctx, size_t i), const void *ctx,
                      size_t *a, size_t *b);

/* true when v is a power of two (1, 2, 4, ...). */
static inline bool ab_is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* "SIGSEGV", "SIGABRT", ... for the common signals, else NULL: the one table
 * of signal names (the engine's messages, the store's rows, the report). */
const char *ab_signal_name(int sig);

/* Makes n names unique in place, as the model importers need: slot(ctx, i)
 * is the address of name i, an ab_malloc'd string; every repeat of a name
 * after its first (by index) becomes "NAME#<index>". AB_OK; AB_ENOMEM; or
 * AB_EINPUT when a name still repeats after that, *dup and *first then being
 * the two indices (the caller names them in its own message). */
ab_status ab_names_make_unique(size_t n, char **(*slot)(void *ctx, size_t i), void *ctx,
                               size_t *dup, size_t *first);

#endif
