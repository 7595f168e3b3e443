/*
 * bound.c — `arenabench bound SUITE`: the max-load lower bound, where it
 * occurs and which tensors make it up, and the suite's memory figures, under
 * a runtime profile (--profile, --io, --align); exit 1 when the suite's
 * expect.lower_bound disagrees.
 */
#include <stdio.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/cli/human.h"
#include "oracle/bounds.h"

/* Prints the figures of p; returns 0 or an exit code. */
static int print_bounds(const ab_problem *p, const abo_bounds *b, bool raw) {
    char s[ABC_BYTES_LEN];
    printf("suite      %s (%zu tensors)\n", ab_term(p->name), p->n);
    printf("max-load   %s at instruction %lld (%zu tensors live)\n",
           abc_bytes(s, b->max_load, raw), (long long)b->max_load_instr, b->max_load_count);
    abc_print_size(stdout, "largest", b->max_single, raw);
    abc_print_size(stdout, "logical", b->logical_bytes, raw);
    abc_print_size(stdout, "physical", b->physical_bytes, raw);
    abc_print_size(stdout, "peak-live", b->max_load, raw);
    if (p->io == AB_IO_SEPARATE) abc_print_size(stdout, "io-outside", b->io_outside, raw);
    if (b->max_load_count == 0) return 0;
    return abc_print_peak(stdout, p, b->max_load_instr, b->max_load, NULL, raw);
}

int abc_bound(const abc_args *a) {
    if (a->noperands != 1) return abc_usage_error(a->cmd, "expected one suite file");
    abf_profile_choice prof;
    static abc_model_opts model;
    int rc = abc_profile_args(a, true, &prof);
    if (rc == 0) rc = abc_model_args(a, &model);
    if (rc != 0) return rc;
    bool raw = abc_flag(a, "bytes");
    const char *path = a->operands[0];
    ab_problem p;
    rc = abc_load_suite_with(path, &model, &p);
    if (rc == 0) rc = abc_profile_apply(&prof, &p);
    if (rc != 0) return rc;
    abo_bounds b;
    ab_error err;
    ab_error_clear(&err);
    if (abo_bounds_compute(&p, &b, &err) != AB_OK) {
        ab_problem_free(&p);
        return abc_fail(&err);
    }
    rc = print_bounds(&p, &b, raw);
    int64_t cap = ab_problem_capacity(&p);
    if (rc == 0 && cap != AB_NONE) { /* the gate, as far as max-load decides it */
        char b1[ABC_BYTES_LEN], b2[ABC_BYTES_LEN];
        if (b.max_load > cap) {
            fprintf(stdout, "capacity   %s: no plan fits (max-load is %s over it)\n",
                    abc_bytes(b1, cap, raw), abc_bytes(b2, b.max_load - cap, raw));
            rc = abc_failf(ABC_EXIT_CHECK, "%s: the capacity %lld cannot be met: the max-load "
                           "bound is %lld", path, (long long)cap, (long long)b.max_load);
        } else {
            fprintf(stdout, "capacity   %s: not excluded (%s to spare at the peak; a plan "
                    "decides)\n", abc_bytes(b1, cap, raw), abc_bytes(b2, cap - b.max_load, raw));
        }
    }
    if (rc == 0 && p.expect_lower_bound != AB_NONE && p.expect_lower_bound != b.max_load)
        rc = abc_failf(ABC_EXIT_CHECK, "%s: expect.lower_bound is %lld but the max-load bound is %lld",
                       path, (long long)p.expect_lower_bound, (long long)b.max_load);
    ab_problem_free(&p);
    return rc;
}
