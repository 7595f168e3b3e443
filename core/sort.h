/*
 * sort.h — sorting with a context argument, so comparators need no
 * file-global "what am I sorting by" pointers (qsort has no context).
 */
#ifndef AB_SORT_H
#define AB_SORT_H

#include <stddef.h>

/* Compares the elements at a and b, reading whatever else it needs from ctx:
 * negative, zero or positive like a qsort comparator. */
typedef int (*ab_cmp_fn)(const void *a, const void *b, const void *ctx);

/* Sorts the n elements of size bytes at base in place by cmp, ascending;
 * ctx is passed to every call of cmp. An introsort: O(n log n) comparisons at
 * worst, no allocation, no randomness. It is not stable, so give cmp a total
 * order (ties broken by index or name): then the result is the one sorted
 * sequence, whatever the algorithm. base may be NULL when n is 0. */
void ab_sort(void *base, size_t n, size_t size, ab_cmp_fn cmp, const void *ctx);

#endif
