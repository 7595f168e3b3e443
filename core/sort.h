/*
 * sort.h — sorting with a context argument, so comparators need no
 * file-global "what am I sorting by" pointers (qsort has no context).
 */
#ifndef AB_SORT_H
#define AB_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Compares the elements at a and b, reading whatever else it needs from ctx:
 * negative, zero or positive like a qsort comparator. */
typedef int (*ab_cmp_fn)(const void *a, const void *b, const void *ctx);

/* Sorts the n elements of size bytes at base in place by cmp, ascending;
 * ctx is passed to every call of cmp. An introsort: O(n log n) comparisons at
 * worst, no allocation, no randomness. It is not stable, so give cmp a total
 * order (ties broken by index or name): then the result is the one sorted
 * sequence, whatever the algorithm. base may be NULL when n is 0. */
void ab_sort(void *base, size_t n, size_t size, ab_cmp_fn cmp, const void *ctx);

/* An element of ab_radix_sort: its key and where it came from. */
typedef struct ab_keyed {
    uint64_t key;
    size_t at;
} ab_keyed;

/* Sorts v[0 .. n) by key, ascending and stable (equal keys keep their
 * order), least significant digit first, 11 bits a pass, over the bits
 * below the largest key's highest set bit; a pass whose digit is the same
 * for every element is skipped. tmp holds n more elements; the result is
 * in v. O(n) per pass, no allocation. */
void ab_radix_sort(ab_keyed *v, ab_keyed *tmp, size_t n);

#endif
