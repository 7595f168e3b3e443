/*
 * fuzz_minimalloc.c — a libFuzzer harness for the MiniMalloc CSV reader
 * (harness/formats/minimalloc.c), both its problem reader and its plan reader.
 *
 * Every input is read as a problem file named "fuzz.4096.csv". A failure must
 * be AB_EINPUT with a message naming the file (AB_ENOMEM is allowed, for
 * libFuzzer's malloc limit). A success must survive a round trip: rendered
 * back to MiniMalloc CSV (refused only for a name the format cannot hold) and
 * read again, it gives the same problem (name, capacity, and per tensor name,
 * size, live range and alignment), and renders to the same text again.
 *
 * The same input is then read as a MiniMalloc plan for a fixed problem; a
 * failure must again be AB_EINPUT naming the file, and a plan whose entries
 * all name tensors renders and reads back to the same entries.
 * Anything else aborts; ASan and UBSan abort on any memory error.
 * Build and run: fuzz/README.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/minimalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NAME "fuzz.4096.csv"

static void fail_ok(ab_status st, const ab_error *err, const char *what) {
    if (st == AB_ENOMEM) return;
    if (st != AB_EINPUT || strstr(err->msg, NAME) == NULL) {
        fprintf(stderr, "%s: unexpected failure %d: %s\n", what, (int)st, err->msg);
        abort();
    }
}

static bool same_problem(const ab_problem *a, const ab_problem *b) {
    if (a->n != b->n || a->capacity != b->capacity || strcmp(a->name, b->name) != 0)
        return false;
    for (size_t i = 0; i < a->n; i++) {
        const ab_tensor *x = &a->t[i], *y = &b->t[i];
        if (strcmp(x->name, y->name) != 0 || x->size != y->size || x->start != y->start ||
            x->end != y->end || x->align != y->align || x->offset != y->offset)
            return false;
    }
    return true;
}

static void round_trip(const ab_problem *p) {
    ab_buf text = {0}, again = {0};
    ab_error err;
    ab_status st = abf_minimalloc_render(p, &text, &err);
    if (st == AB_EINPUT) { /* only a name MiniMalloc CSV cannot hold */
        bool odd = false;
        for (size_t i = 0; i < p->n; i++) odd |= strpbrk(p->t[i].name, ",\r\n\"") != NULL;
        if (!odd) {
            fprintf(stderr, "render refused: %s\n", err.msg);
            abort();
        }
        goto done;
    }
    if (st != AB_OK) goto done; /* out of memory */
    ab_problem q;
    st = abf_minimalloc_load_buffer(NAME, text.s, text.n, &q, NULL, &err);
    if (st == AB_ENOMEM) goto done;
    if (st != AB_OK || !same_problem(p, &q)) {
        fprintf(stderr, "round trip: %s\n%.*s\n", st == AB_OK ? "differs" : err.msg,
                (int)text.n, text.s);
        abort();
    }
    if (abf_minimalloc_render(&q, &again, &err) == AB_OK &&
        (again.n != text.n || memcmp(again.s, text.s, text.n) != 0)) {
        fprintf(stderr, "the second render differs:\n%.*s\n---\n%.*s\n", (int)text.n, text.s,
                (int)again.n, again.s);
        abort();
    }
    ab_problem_free(&q);
done:
    ab_buf_free(&text);
    ab_buf_free(&again);
}

/* The problem plans are read for: tensors a, b, c. */
static const char fixed_csv[] = "id,lower,upper,size,alignment\n"
                                "a,0,3,64,1\nb,1,2,128,16\nc,2,9,4096,64\n";

static void plan_round_trip(const ab_problem *fixed, const ab_plan *pl) {
    for (size_t k = 0; k < pl->n; k++)
        if (pl->v[k].tensor == AB_NO_TENSOR) return; /* the renderer takes known tensors only */
    ab_buf text = {0};
    ab_error err;
    ab_plan back;
    if (abf_minimalloc_plan_render(fixed, pl, &text, &err) != AB_OK) {
        if (err.status == AB_ENOMEM) goto done;
        fprintf(stderr, "plan render: %s\n", err.msg);
        abort();
    }
    ab_status st = abf_minimalloc_plan_read_buffer(NAME, text.s, text.n, fixed, &back, &err);
    if (st == AB_ENOMEM) goto done;
    bool same = st == AB_OK && back.n == pl->n;
    for (size_t k = 0; same && k < pl->n; k++)
        same = back.v[k].tensor == pl->v[k].tensor && back.v[k].offset == pl->v[k].offset;
    if (!same) {
        fprintf(stderr, "plan round trip: %s\n%.*s\n", st == AB_OK ? "differs" : err.msg,
                (int)text.n, text.s);
        abort();
    }
    ab_plan_free(&back);
done:
    ab_buf_free(&text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static ab_problem fixed;
    static bool have_fixed;
    ab_error err;
    if (!have_fixed) {
        if (abf_minimalloc_load_buffer("fixed.csv", fixed_csv, sizeof fixed_csv - 1, &fixed, NULL,
                                       &err) != AB_OK) {
            fprintf(stderr, "the fixed problem: %s\n", err.msg);
            abort();
        }
        have_fixed = true;
    }
    ab_problem p;
    ab_status st = abf_minimalloc_load_buffer(NAME, (const char *)data, size, &p, NULL, &err);
    if (st == AB_OK) {
        round_trip(&p);
        ab_problem_free(&p);
    } else {
        fail_ok(st, &err, "problem");
    }
    ab_plan pl;
    st = abf_minimalloc_plan_read_buffer(NAME, (const char *)data, size, &fixed, &pl, &err);
    if (st == AB_OK) {
        plan_round_trip(&fixed, &pl);
        ab_plan_free(&pl);
    } else {
        fail_ok(st, &err, "plan");
    }
    return 0;
}
