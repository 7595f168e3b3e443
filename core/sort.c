/*
 * sort.c — ab_sort, an introsort (see sort.h): quicksort with a median-of-three
 * pivot and Hoare's partition (good with repeated keys), heapsort when the
 * recursion gets too deep, insertion sort for short ranges.
 */
#include "core/sort.h"

#include <string.h>

enum { SHORT_RANGE = 16, SWAP_CHUNK = 64 };

typedef struct sorter {
    size_t size;
    ab_cmp_fn cmp;
    const void *ctx;
} sorter;

static char *at(char *base, size_t i, size_t size) { return base + i * size; }

static void swap(char *a, char *b, size_t size) {
    char tmp[SWAP_CHUNK];
    while (size > 0) {
        size_t k = size < SWAP_CHUNK ? size : SWAP_CHUNK;
        memcpy(tmp, a, k);
        memcpy(a, b, k);
        memcpy(b, tmp, k);
        a += k;
        b += k;
        size -= k;
    }
}

static int cmp_at(const sorter *s, char *base, size_t i, size_t j) {
    return s->cmp(at(base, i, s->size), at(base, j, s->size), s->ctx);
}

static void insertion_sort(const sorter *s, char *base, size_t n) {
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp_at(s, base, j - 1, j) > 0; j--)
            swap(at(base, j - 1, s->size), at(base, j, s->size), s->size);
}

/* Moves element i down the max-heap base[0 .. n). */
static void sift_down(const sorter *s, char *base, size_t i, size_t n) {
    for (;;) {
        size_t big = i, l = 2 * i + 1, r = l + 1;
        if (l < n && cmp_at(s, base, l, big) > 0) big = l;
        if (r < n && cmp_at(s, base, r, big) > 0) big = r;
        if (big == i) return;
        swap(at(base, i, s->size), at(base, big, s->size), s->size);
        i = big;
    }
}

static void heap_sort(const sorter *s, char *base, size_t n) {
    for (size_t i = n / 2; i-- > 0;) sift_down(s, base, i, n);
    for (size_t end = n; end-- > 1;) {
        swap(base, at(base, end, s->size), s->size);
        sift_down(s, base, 0, end);
    }
}

/* Puts the median of the first, middle and last elements at base[0]. */
static void median_to_front(const sorter *s, char *base, size_t n) {
    size_t a = 0, b = n / 2, c = n - 1, m;
    if (cmp_at(s, base, a, b) < 0)
        m = cmp_at(s, base, b, c) < 0 ? b : cmp_at(s, base, a, c) < 0 ? c : a;
    else
        m = cmp_at(s, base, a, c) < 0 ? a : cmp_at(s, base, b, c) < 0 ? c : b;
    if (m != 0) swap(base, at(base, m, s->size), s->size);
}

/* Partitions base[0 .. n) around the pivot base[0]; returns the pivot's final
 * place p: base[0 .. p) <= pivot <= base[p + 1 .. n). */
static size_t partition(const sorter *s, char *base, size_t n) {
    size_t i = 0, j = n;
    for (;;) {
        while (++i < n && cmp_at(s, base, i, 0) < 0) {
        }
        while (cmp_at(s, base, --j, 0) > 0) { /* stops at j = 0 at the latest */
        }
        if (i >= j) break;
        swap(at(base, i, s->size), at(base, j, s->size), s->size);
    }
    if (j != 0) swap(base, at(base, j, s->size), s->size);
    return j;
}

static void intro_sort(const sorter *s, char *base, size_t n, unsigned depth) {
    while (n > SHORT_RANGE) {
        if (depth == 0) {
            heap_sort(s, base, n);
            return;
        }
        depth--;
        median_to_front(s, base, n);
        size_t p = partition(s, base, n);
        char *right = at(base, p + 1, s->size);
        size_t nright = n - p - 1;
        if (p < nright) { /* recurse into the smaller side, loop on the larger */
            intro_sort(s, base, p, depth);
            base = right;
            n = nright;
        } else {
            intro_sort(s, right, nright, depth);
            n = p;
        }
    }
    insertion_sort(s, base, n);
}

void ab_sort(void *base, size_t n, size_t size, ab_cmp_fn cmp, const void *ctx) {
    if (n < 2 || size == 0) return;
    sorter s = {.size = size, .cmp = cmp, .ctx = ctx};
    unsigned depth = 0;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
    intro_sort(&s, base, n, depth);
}

void ab_radix_sort(ab_keyed *v, ab_keyed *tmp, size_t n) {
    uint64_t max = 0;
    for (size_t k = 0; k < n; k++)
        if (v[k].key > max) max = v[k].key;
    ab_keyed *from = v, *to = tmp;
    for (unsigned shift = 0; shift < 64 && (max >> shift) != 0; shift += 11) {
        size_t count[2048] = {0};
        for (size_t k = 0; k < n; k++) count[(from[k].key >> shift) & 2047]++;
        if (count[(from[0].key >> shift) & 2047] == n) continue; /* one digit: no change */
        size_t at = 0;
        for (size_t d = 0; d < 2048; d++) {
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (size_t k = 0; k < n; k++) to[count[(from[k].key >> shift) & 2047]++] = from[k];
        ab_keyed *t = from;
        from = to;
        to = t;
    }
    if (from != v) memcpy(v, from, n * sizeof *v);
}
