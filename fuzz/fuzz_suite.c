/*
 * fuzz_suite.c — a libFuzzer harness for the suite YAML reader
 * (harness/formats/suite.c), a differential one: every input is loaded twice,
 * once through the fast path for the writer's subset (abf_suite_load_opts.libyaml_only)
 * and once through libyaml only. Both must end alike: the same status and
 * message, and on success the same canonical YAML and the same line per
 * tensor. A success must also survive a round trip (render, load again, render
 * equal). A failure must be AB_EINPUT with a message naming the buffer
 * (AB_ENOMEM is allowed, for libFuzzer's malloc limit). Anything else aborts;
 * ASan and UBSan abort on any memory error. Build and run: fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input budgets (README "Input limits") set low, so an input asking a
 * generator for 885,460 tensors is refused at once, as a user's would be past
 * the default: the fuzzer then spends its time on the reader, not on
 * generating (the tensor budget is what finding 5 of issue 15 added); planted
 * suites of 10-20 thousand tensors took 1-1.6 s each in this instrumented
 * build, and libFuzzer saved them as slow units on a busy machine. A
 * value already in the environment wins. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    setenv("ARENABENCH_MAX_TENSORS", "2000", 0);
    return 0;
}

typedef struct outcome {
    ab_status st;
    ab_error err;
    ab_buf text; /* the canonical render on success */
    ab_problem p;
} outcome;

static void load(outcome *o, const uint8_t *data, size_t size, bool fast) {
    memset(o, 0, sizeof *o);
    abf_suite_load_opts lo = {.libyaml_only = !fast};
    o->st = abf_suite_load_buffer_with("fuzz.yaml", (const char *)data, size, &lo, &o->p, &o->err);
    if (o->st == AB_OK && (abf_suite_render(&o->p, &o->text, &o->err) != AB_OK || o->text.oom))
        o->st = AB_ENOMEM;
}

static void drop(outcome *o) {
    ab_buf_free(&o->text);
    ab_problem_free(&o->p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    outcome a, b;
    load(&a, data, size, true);
    load(&b, data, size, false);
    if (a.st == AB_ENOMEM || b.st == AB_ENOMEM) goto done;
    if (a.st != b.st || strcmp(a.err.msg, b.err.msg) != 0) {
        fprintf(stderr, "fast path: %d %s\nlibyaml:   %d %s\n", (int)a.st, a.err.msg, (int)b.st,
                b.err.msg);
        abort();
    }
    if (a.st != AB_OK) {
        if (a.st != AB_EINPUT || strstr(a.err.msg, "fuzz.yaml") == NULL) {
            fprintf(stderr, "unexpected failure %d: %s\n", (int)a.st, a.err.msg);
            abort();
        }
        goto done;
    }
    if (a.text.n != b.text.n || memcmp(a.text.s, b.text.s, a.text.n) != 0) {
        fprintf(stderr, "the two loads render differently:\n%.*s\n---\n%.*s\n", (int)a.text.n,
                a.text.s, (int)b.text.n, b.text.s);
        abort();
    }
    { /* round trip */
        outcome c;
        load(&c, (const uint8_t *)a.text.s, a.text.n, true);
        if (c.st == AB_OK &&
            (c.text.n != a.text.n || memcmp(c.text.s, a.text.s, a.text.n) != 0)) {
            fprintf(stderr, "round trip differs:\n%.*s\n---\n%.*s\n", (int)a.text.n, a.text.s,
                    (int)c.text.n, c.text.s);
            abort();
        }
        if (c.st != AB_OK && c.st != AB_ENOMEM) {
            fprintf(stderr, "the render does not load again: %s\n%.*s\n", c.err.msg,
                    (int)a.text.n, a.text.s);
            abort();
        }
        drop(&c);
    }
done:
    drop(&a);
    drop(&b);
    return 0;
}
