/*
 * fuzz_check.h — the checks the model importers' harnesses (fuzz_tflite.c,
 * fuzz_onnx.c) make of an imported problem, written once. Header-only: each
 * harness is linked from its own explicit list of sources (CMakeLists.txt).
 */
#ifndef ARENABENCH_FUZZ_CHECK_H
#define ARENABENCH_FUZZ_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/problem.h"

/* true when s is valid UTF-8 without C0 control characters (an independent
 * check of the importers' name cleaning). */
static inline bool fz_printable_utf8(const unsigned char *s) {
    while (*s) {
        unsigned c = *s, n = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1
                           : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 9;
        if (n == 9 || c < 0x20 || c == 0x7F) return false;
        uint32_t cp = n == 0 ? c : c & (0x3Fu >> n);
        for (unsigned k = 1; k <= n; k++) {
            if ((s[k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[k] & 0x3Fu);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        s += n + 1;
    }
    return true;
}

/* Aborts unless p is a problem the suite format accepts, imported from a model
 * of `ntensors` tensors and `nsteps` steps whose ranks are at most max_rank:
 * a name and a description, sizes in 1 .. AB_MAX_SIZE with logical bits that
 * round up to them, live ranges inside the graph, and unique, printable
 * names. */
static inline void fz_check_imported(const ab_problem *p, size_t ntensors, size_t nsteps,
                                     int max_rank) {
    int64_t last = nsteps > 0 ? (int64_t)nsteps - 1 : 0;
    if (p->n > ntensors || p->name == NULL || p->description == NULL) abort();
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->size < 1 || t->size > AB_MAX_SIZE || t->start < 0 || t->start > t->end ||
            t->end > last || t->align != 1 || t->logical_bits < 1 ||
            (t->logical_bits + 7) / 8 != t->size || t->ndim > max_rank)
            abort();
        if (!fz_printable_utf8((const unsigned char *)t->name)) abort();
    }
    ab_names *names = NULL;
    ab_status st = ab_names_build(p, &names, NULL, NULL, NULL);
    if (st == AB_EINPUT) abort(); /* a repeated name */
    ab_names_free(names);
}

#endif
