/*
 * test_statuses.c — how failures are reported (issue 15, finding 6): GLPK
 * out of memory is oom like any allocation that fails; a full disk or a
 * file-size limit is exit 2 naming the path, for every command that writes;
 * `--resume` on a missing database creates nothing; a memory stop of
 * exact-cover that returns a plan is ok, not proven, and its note names the
 * cap that applied.
 *
 * Nothing here depends on the machine's speed: the disk is /dev/full or a
 * file-size limit set in a forked child; GLPK's memory is its own limit.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <glpk.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/formats/formats.h"
#include "oracle/ilp.h"
#include "tests/support.h"

/* GLPK that runs out of memory (its own limit, 1 MB, standing for malloc
 * failing) is AB_ENOMEM, as every other allocation that fails: the runner
 * then says oom. On main it was AB_EINTERNAL (row `error`) on a suite where
 * GLPK's allocation failed first and `oom` where one of ours did. */
Test(statuses, glpk_out_of_memory_is_enomem) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abh_load_problem(abt_src("suites/generated/random-1k.yaml"), NULL, &p, &err),
                 AB_OK, "%s", err.msg);
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = 600; /* a safety cap: GLPK stops at its first allocation over the limit */
    o.heuristics = false; /* GLPK always runs */
    o.decompose = false;
    glp_mem_limit(1);
    abo_ilp_result r;
    ab_error_clear(&err);
    ab_status st = abo_ilp_solve(&p, &o, &r, &err);
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
    cr_assert_eq(st, AB_ENOMEM, "status %d: %s", (int)st, err.msg);
    cr_assert(strstr(err.msg, "GLPK") != NULL, "%s", err.msg);
}
