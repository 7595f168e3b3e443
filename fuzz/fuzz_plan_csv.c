/*
 * fuzz_plan_csv.c — a libFuzzer harness for the plan file reader
 * (harness/formats/plan_csv.c). Every input is read as a plan, named
 * "fuzz.plan.csv", for two fixed suites: one with a single arena and names
 * that need quoting, one with two pools (a bounded and an unbounded one).
 * A failure must be AB_EINPUT with a message naming the file (AB_ENOMEM is
 * allowed, for libFuzzer's malloc limit). A success must survive a round
 * trip: the plan rendered as abf_plan_write writes it and read again gives
 * the same entries (tensor, offset, and the name of an unknown tensor), and
 * renders to the same text. Anything else aborts; ASan and UBSan abort on any
 * memory error. Build and run: fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/plan_csv.h"
#include "harness/formats/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "fuzz.plan.csv"

static const char *const suites[] = {
    "suite: plain\n"
    "tensors:\n"
    "  - {name: a, size: 64, start: 0, end: 2}\n"
    "  - {name: 'b,c', size: 128, start: 1, end: 3}\n"
    "  - {name: ' sp ', size: 8, start: 0, end: 0}\n"
    "  - {name: 'q\"x', size: 4096, start: 2, end: 9}\n",
    "suite: pooled\n"
    "pools:\n"
    "  - {name: fast, size: 1024}\n"
    "  - {name: slow}\n"
    "tensors:\n"
    "  - {name: a, size: 64, start: 0, end: 2}\n"
    "  - {name: b, size: 512, start: 1, end: 3}\n"
    "  - {name: c, size: 4096, start: 2, end: 9}\n",
};
#define NSUITES (sizeof suites / sizeof suites[0])

static bool same_plan(const ab_plan *a, const ab_plan *b) {
    if (a->n != b->n) return false;
    for (size_t k = 0; k < a->n; k++) {
        const ab_placement *x = &a->v[k], *y = &b->v[k];
        if (x->tensor != y->tensor || x->offset != y->offset) return false;
        if (x->tensor == AB_NO_TENSOR && strcmp(x->name, y->name) != 0) return false;
    }
    return true;
}

static void round_trip(const ab_problem *p, const ab_plan *pl) {
    ab_buf text = {0}, again = {0};
    ab_error err;
    ab_plan back;
    ab_status st = abf_plan_render(p, pl, &text, &err);
    if (st == AB_ENOMEM) goto done;
    if (st != AB_OK) {
        fprintf(stderr, "render: %s\n", err.msg);
        abort();
    }
    st = abf_plan_read_buffer(NAME, text.s, text.n, p, &back, &err);
    if (st == AB_ENOMEM) goto done;
    if (st != AB_OK || !same_plan(pl, &back)) {
        fprintf(stderr, "round trip (suite %s): %s\n%.*s\n", p->name,
                st == AB_OK ? "differs" : err.msg, (int)text.n, text.s);
        abort();
    }
    if (abf_plan_render(p, &back, &again, &err) == AB_OK &&
        (again.n != text.n || memcmp(again.s, text.s, text.n) != 0)) {
        fprintf(stderr, "the second render differs:\n%.*s\n---\n%.*s\n", (int)text.n, text.s,
                (int)again.n, again.s);
        abort();
    }
    ab_plan_free(&back);
done:
    ab_buf_free(&text);
    ab_buf_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ab_problem fixed[NSUITES];
    static bool have_fixed;
    ab_error err;
    if (!have_fixed) {
        for (size_t s = 0; s < NSUITES; s++)
            if (abf_suite_load_buffer("fixed.yaml", suites[s], strlen(suites[s]), &fixed[s],
                                      &err) != AB_OK) {
                fprintf(stderr, "fixed suite %zu: %s\n", s, err.msg);
                abort();
            }
        have_fixed = true;
    }
    for (size_t s = 0; s < NSUITES; s++) {
        ab_plan pl;
        ab_status st = abf_plan_read_buffer(NAME, (const char *)data, size, &fixed[s], &pl, &err);
        if (st == AB_OK) {
            round_trip(&fixed[s], &pl);
            ab_plan_free(&pl);
        } else if (st != AB_ENOMEM && (st != AB_EINPUT || strstr(err.msg, NAME) == NULL)) {
            fprintf(stderr, "unexpected failure %d: %s\n", (int)st, err.msg);
            abort();
        }
    }
    return 0;
}
