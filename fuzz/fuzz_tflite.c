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
#include "harness/formats/tflite.h"
#include "harness/formats/tflite_offline.h"

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

static void check_problem(const abf_tflite_model *m, const ab_problem *p) {
    int64_t last = m->nops > 0 ? (int64_t)m->nops - 1 : 0;
    if (p->n > m->ntensors || p->name == NULL || p->description == NULL) abort();
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->size < 1 || t->size > AB_MAX_SIZE || t->start < 0 || t->start > t->end ||
            t->end > last || t->align != 1 || t->logical_bits < 1 ||
            (t->logical_bits + 7) / 8 != t->size || t->ndim > ABF_TFLITE_MAX_RANK)
            abort();
        if (!printable_utf8((const unsigned char *)t->name)) abort();
    }
    ab_names *names = NULL;
    ab_status st = ab_names_build(p, &names, NULL, NULL, NULL);
    if (st == AB_EINPUT) abort(); /* a repeated name */
    ab_names_free(names);
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
