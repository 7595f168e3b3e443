/*
 * fuzz_onnx.c — a libFuzzer harness for the ONNX importer (harness/formats/onnx.c,
 * onnx_infer.c, protowire.c). Every input is imported three times: with the
 * declared shapes, with them ignored (everything inferred), and with constants
 * folded; symbolic dimensions assumed 3. A failure must be AB_EINPUT with a
 * message naming the file (AB_ENOMEM is allowed, for libFuzzer's malloc
 * limit); a success must give a problem the suite format accepts: unique,
 * valid UTF-8 names without control characters, sizes in 1 .. AB_MAX_SIZE
 * with logical bits that round up to them, live ranges inside the graph, and
 * every planned value's shape known. Anything else aborts, and ASan and
 * UBSan abort on any memory error. Build and run: fuzz/README.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem.h"
#include "harness/formats/onnx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* true when s is valid UTF-8 without C0 control characters (an independent
 * check of the importer's name cleaning). */
static bool printable_utf8(const unsigned char *s) {
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

static void check_problem(const abf_onnx_model *m, const ab_problem *p) {
    int64_t last = m->nnodes > 0 ? (int64_t)m->nnodes - 1 : 0;
    if (p->n > m->nvalues || p->name == NULL || p->description == NULL) abort();
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->size < 1 || t->size > AB_MAX_SIZE || t->start < 0 || t->start > t->end ||
            t->end > last || t->align != 1 || t->logical_bits < 1 ||
            (t->logical_bits + 7) / 8 != t->size || t->ndim > ABF_ONNX_MAX_RANK)
            abort();
        if (!printable_utf8((const unsigned char *)t->name)) abort();
    }
    for (size_t i = 0; i < m->nvalues; i++) /* every value's shape is known or it is unplanned */
        if (m->v[i].rank > ABF_ONNX_MAX_RANK) abort();
    ab_names *names = NULL;
    ab_status st = ab_names_build(p, &names, NULL, NULL, NULL);
    if (st == AB_EINPUT) abort(); /* a repeated name */
    ab_names_free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const abf_onnx_options opts[3] = {
        {.assume_dynamic = 3},
        {.assume_dynamic = 3, .ignore_declared = true},
        {.assume_dynamic = 3, .fold_constants = true},
    };
    for (int k = 0; k < 3; k++) {
        abf_onnx_model m;
        ab_problem p;
        ab_error err;
        ab_status st = abf_onnx_import("fuzz.onnx", data, size, &opts[k], &p, &m, &err);
        if (st == AB_OK) check_problem(&m, &p);
        else if (st == AB_EINPUT && strncmp(err.msg, "fuzz.onnx: ", 11) != 0) abort();
        else if (st != AB_EINPUT && st != AB_ENOMEM) abort();
        ab_problem_free(&p);
        abf_onnx_model_free(&m);
    }
    return 0;
}
