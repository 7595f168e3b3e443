/*
 * ab.c — errors, the allocation hook and small arithmetic (see ab.h).
 */
#include "core/ab.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ab_status ab_fail(ab_error *err, ab_status status, const char *fmt, ...) {
    if (err == NULL) return status;
    err->status = status;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof err->msg) memcpy(err->msg + sizeof err->msg - 4, "...", 4);
    return status;
}

void ab_error_clear(ab_error *err) {
    if (err == NULL) return;
    err->status = AB_OK;
    err->msg[0] = '\0';
}

int ab_status_exit_code(ab_status st) {
    switch (st) {
    case AB_OK: return 0;
    case AB_ECHECK: return 1;
    case AB_EINPUT: return 2;
    case AB_ELIMIT: return 1;
    case AB_EINTERNAL:
    case AB_ENOMEM: return 3;
    }
    return 3;
}

/* The allocation hook: a countdown to one failing call. */
static long alloc_countdown; /* 0 = disarmed */
static long alloc_calls;

static bool alloc_should_fail(void) {
    alloc_calls++;
    if (alloc_countdown > 0 && --alloc_countdown == 0) return true;
    return false;
}

long ab_alloc_fail_at(long n) {
    long calls = alloc_calls;
    alloc_calls = 0;
    alloc_countdown = n > 0 ? n : 0;
    return calls;
}

void *ab_malloc(size_t size) {
    if (alloc_should_fail()) return NULL;
    return malloc(size ? size : 1);
}

void *ab_calloc(size_t n, size_t size) {
    if (alloc_should_fail()) return NULL;
    if (n == 0 || size == 0) n = size = 1;
    return calloc(n, size);
}

void *ab_realloc(void *p, size_t size) {
    if (alloc_should_fail()) return NULL;
    return realloc(p, size ? size : 1);
}

void *ab_alloc_array(size_t n, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(n, size, &total)) return NULL;
    return ab_malloc(total);
}

void *ab_realloc_array(void *p, size_t n, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(n, size, &total)) return NULL;
    return ab_realloc(p, total);
}

char *ab_strndup(const char *s, size_t n) {
    char *d = ab_malloc(n + 1);
    if (d == NULL) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *ab_strdup(const char *s) { return ab_strndup(s, strlen(s)); }

void ab_free(void *p) { free(p); }

bool ab_grow(void **arr, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) return false;
        ncap *= 2;
    }
    void *p = ab_realloc_array(*arr, ncap, elem);
    if (p == NULL) return false;
    *arr = p;
    *cap = ncap;
    return true;
}

int64_t ab_gcd(int64_t a, int64_t b) {
    while (b != 0) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int ab_cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

size_t ab_count_le(const int64_t *v, size_t n, int64_t x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] <= x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

size_t ab_count_lt(const int64_t *v, size_t n, int64_t x) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

uint64_t ab_fnv1a(uint64_t h, const void *buf, size_t len) {
    const unsigned char *p = buf;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

size_t ab_hash_slot(uint64_t h, int bits) {
    return (size_t)((h * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - bits));
}

/* Open addressing over 2^bits slots of 64 bits: the hash's high 32 bits, then
 * the index + 1 (0 is an empty slot); the slot comes from the hash's low bits,
 * mixed (FNV-1a's low bits alone cluster on names like t0, t1, ...). Strings
 * are hashed a batch ahead and their slots prefetched: a large set misses the
 * cache on nearly every first probe. */
#define DUP_BATCH 16

int ab_find_duplicate(size_t n, const char *(*str)(const void *ctx, size_t i), const void *ctx,
                      size_t *a, size_t *b) {
    if (n >= UINT32_MAX) return -1;
    size_t cap = 16;
    int bits = 4;
    while (cap < 2 * n + 1) {
        cap *= 2;
        bits++;
    }
    uint64_t *slot = ab_calloc(cap, sizeof *slot);
    if (slot == NULL) return -1;
    int found = 0;
    uint64_t hash[DUP_BATCH];
    for (size_t i0 = 0; i0 < n && !found; i0 += DUP_BATCH) {
        size_t m = n - i0 < DUP_BATCH ? n - i0 : DUP_BATCH;
        for (size_t q = 0; q < m; q++) {
            const char *s = str(ctx, i0 + q);
            hash[q] = ab_fnv1a(AB_FNV_OFFSET, s, strlen(s));
#if defined(__GNUC__)
            __builtin_prefetch(&slot[ab_hash_slot(hash[q], bits)]);
#endif
        }
        for (size_t q = 0; q < m && !found; q++) {
            size_t i = i0 + q;
            uint64_t h = hash[q], tag = h & UINT64_C(0xffffffff00000000);
            size_t k = ab_hash_slot(h, bits);
            for (; slot[k] != 0; k = (k + 1) & (cap - 1)) {
                size_t j = (size_t)(slot[k] & 0xffffffffu) - 1;
                if ((slot[k] & UINT64_C(0xffffffff00000000)) == tag &&
                    strcmp(str(ctx, j), str(ctx, i)) == 0) {
                    *a = j;
                    *b = i;
                    found = 1;
                    break;
                }
            }
            slot[k] = tag | (uint64_t)(i + 1);
        }
    }
    ab_free(slot);
    return found;
}

const char *ab_signal_name(int sig) {
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
        {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
        {SIGQUIT, "SIGQUIT"}, {SIGHUP, "SIGHUP"},   {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"},
        {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
        {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig) return names[i].name;
    return NULL;
}

/* ---- unique names (ab.h) ---------------------------------------------------- */

typedef struct name_ref {
    const char *name;
    size_t i;
} name_ref;

/* By name, then by index: a total order. */
static int name_ref_cmp(const void *a, const void *b) {
    const name_ref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c != 0) return c;
    return (x->i > y->i) - (x->i < y->i);
}

static void sort_refs(size_t n, char **(*slot)(void *, size_t), void *ctx, name_ref *refs) {
    for (size_t i = 0; i < n; i++) refs[i] = (name_ref){*slot(ctx, i), i};
    qsort(refs, n, sizeof *refs, name_ref_cmp);
}

ab_status ab_names_make_unique(size_t n, char **(*slot)(void *ctx, size_t i), void *ctx,
                               size_t *dup, size_t *first) {
    if (n < 2) return AB_OK;
    name_ref *refs = ab_alloc_array(n, sizeof *refs);
    if (refs == NULL) return AB_ENOMEM;
    sort_refs(n, slot, ctx, refs);
    ab_status st = AB_OK;
    const char *group = refs[0].name; /* the first of a run of equal names keeps it */
    for (size_t k = 1; k < n && st == AB_OK; k++) {
        if (strcmp(refs[k].name, group) != 0) {
            group = refs[k].name;
            continue;
        }
        char **name = slot(ctx, refs[k].i);
        size_t len = strlen(*name) + 24;
        char *nn = ab_malloc(len);
        if (nn == NULL) {
            st = AB_ENOMEM;
            break;
        }
        snprintf(nn, len, "%s#%zu", *name, refs[k].i);
        ab_free(*name);
        *name = nn;
        refs[k].name = nn;
    }
    if (st == AB_OK) {
        sort_refs(n, slot, ctx, refs);
        for (size_t k = 1; k < n; k++)
            if (strcmp(refs[k].name, refs[k - 1].name) == 0) {
                *dup = refs[k].i;
                *first = refs[k - 1].i;
                st = AB_EINPUT;
                break;
            }
    }
    ab_free(refs);
    return st;
}
