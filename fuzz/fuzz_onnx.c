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
#include "fuzz/fuzz_check.h"
#include "harness/formats/onnx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_problem(const abf_onnx_model *m, const ab_problem *p) {
    fz_check_imported(p, m->nvalues, m->nnodes, ABF_ONNX_MAX_RANK);
    for (size_t i = 0; i < m->nvalues; i++) /* every value's shape is known or it is unplanned */
        if (m->v[i].rank > ABF_ONNX_MAX_RANK) abort();
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
