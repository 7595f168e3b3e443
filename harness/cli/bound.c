/*
 * bound.c — `arenabench bound SUITE`: the max-load lower bound, where it
 * occurs, and the suite's memory figures; exit 1 when the suite's
 * expect.lower_bound disagrees.
 */
#include <stdio.h>

#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "oracle/bounds.h"

int abc_bound(const abc_args *a) {
    if (a->noperands != 1) return abc_usage_error(a->cmd, "expected one suite file");
    const char *path = a->operands[0];
    ab_problem p;
    int rc = abc_load_suite(path, &p);
    if (rc != 0) return rc;
    abo_bounds b;
    ab_error err;
    ab_error_clear(&err);
    if (abo_bounds_compute(&p, &b, &err) != AB_OK) {
        ab_problem_free(&p);
        return abc_fail(&err);
    }
    printf("suite      %s (%zu tensors)\n", p.name, p.n);
    printf("max-load   %lld bytes at instruction %lld (%zu tensors live)\n",
           (long long)b.max_load, (long long)b.max_load_instr, b.max_load_count);
    abc_print_bytes(stdout, "largest", b.max_single);
    abc_print_bytes(stdout, "logical", b.logical_bytes);
    abc_print_bytes(stdout, "physical", b.physical_bytes);
    abc_print_bytes(stdout, "peak-live", b.max_load);
    if (p.io == AB_IO_SEPARATE) abc_print_bytes(stdout, "io-outside", b.io_outside);
    if (p.expect_lower_bound != AB_NONE && p.expect_lower_bound != b.max_load)
        rc = abc_failf(ABC_EXIT_CHECK, "%s: expect.lower_bound is %lld but the max-load bound is %lld",
                       path, (long long)p.expect_lower_bound, (long long)b.max_load);
    ab_problem_free(&p);
    return rc;
}
