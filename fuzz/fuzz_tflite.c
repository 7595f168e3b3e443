/*
 * fuzz_tflite.c — a libFuzzer harness for the TFLite importer (harness/formats/tflite.c).
 * Every input is parsed and, when that succeeds, converted twice (constants
 * kept and folded, dynamic dimensions assumed 3). A failure must be
 * AB_EINPUT with a message naming the file (AB_ENOMEM is allowed, for
 * libFuzzer's malloc limit); a success must give a problem the suite format
 * accepts: unique, valid UTF-8 names without control characters, sizes in
 * 1 .. AB_MAX_SIZE, live ranges inside the graph. An accepted model also gets
 * an offline plan written into a copy (harness/formats/tflite_offline.c): a
 * refusal must be AB_EINPUT naming the file, a copy must import again with
 * that plan. Anything else aborts, and ASan and UBSan abort on any memory
 * error. Build and run: fuzz/README.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/problem.h"
#include "fuzz/fuzz_check.h"
#include "harness/formats/tflite.h"
#include "harness/formats/tflite_offline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_problem(const abf_tflite_model *m, const ab_problem *p) {
    fz_check_imported(p, m->ntensors, m->nops, ABF_TFLITE_MAX_RANK);
}

/* Writes an offline plan (offset 16 k for tensor k, -1 for every third) into
 * a copy of the model m was parsed from; the copy must read back with it. */
static void check_offline(const abf_tflite_model *m, const uint8_t *data, size_t size) {
    size_t n = m->ntensors;
    int32_t *offsets = malloc((n ? n : 1) * sizeof *offsets);
    if (offsets == NULL) return;
    for (size_t k = 0; k < n; k++) offsets[k] = k % 3 == 2 ? -1 : (int32_t)(16 * (k % 4096));
    ab_buf out = {0};
    ab_error err;
    ab_status st = abf_tflite_offline_write("fuzz.tflite", data, size, offsets, n, &out, &err);
    if (st == AB_EINPUT && strncmp(err.msg, "fuzz.tflite: ", 13) != 0) abort();
    if (st != AB_OK && st != AB_EINPUT && st != AB_ENOMEM) abort();
    if (st == AB_OK) {
        abf_tflite_model back;
        st = abf_tflite_parse("copy.tflite", (const uint8_t *)out.s, out.n, &back, &err);
        if (st == AB_OK) {
            if (back.ntensors != n || !back.has_offline || back.noffline != n ||
                back.offline_version != 1 || back.offline_subgraph != 0)
                abort();
            for (size_t k = 0; k < n; k++)
                if (back.offline[k] != offsets[k]) abort();
        } else if (st != AB_ENOMEM) {
            abort(); /* a copy of a model that imports must import */
        }
        abf_tflite_model_free(&back);
    }
    ab_buf_free(&out);
    free(offsets);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    abf_tflite_model m;
    ab_error err;
    ab_status st = abf_tflite_parse("fuzz.tflite", data, size, &m, &err);
    if (st == AB_OK) {
        for (int fold = 0; fold < 2; fold++) {
            abf_tflite_options o = {.fold_constants = fold == 1, .assume_dynamic = 3};
            ab_problem p;
            st = abf_tflite_problem(&m, &o, &p, &err);
            if (st == AB_OK) check_problem(&m, &p);
            else if (st != AB_EINPUT && st != AB_ENOMEM) abort();
            else if (st == AB_EINPUT && strncmp(err.msg, "fuzz.tflite: ", 13) != 0) abort();
            ab_problem_free(&p);
        }
        check_offline(&m, data, size);
    } else if (st == AB_EINPUT) {
        if (strncmp(err.msg, "fuzz.tflite: byte ", 18) != 0) abort();
    } else if (st != AB_ENOMEM) {
        abort();
    }
    abf_tflite_model_free(&m);
    return 0;
}
