/*
 * test_judges_time.c — the nightly's judgement of time, end to end through
 * `run` and `compare` (issue 12): a planner made 3x slower in CPU, with the
 * same spec and the same plans, is reported as slower; a warning unless
 * --fail-on-time. Its time is burned by its own CPU clock, so the test does
 * not depend on how fast or how busy the machine is: 40 ms against 120 ms of
 * CPU, with a 1.5x ratio and a 0.05 s floor to clear.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

Test(judges_time, a_planner_made_3x_slower_in_cpu_is_reported_slower) {
    char *dir = abt_tmpdir();
    char suite[4096];
    snprintf(suite, sizeof suite, "%s", abt_src("suites/examples/diamond.yaml"));
    unsetenv("ARENABENCH_TEST_SLOWER");
    abt_run_ok(0, "run -q --db %s/r.db --tag t --repeat-min 3 --repeat-below 0 -p test-slower-by-env -p first-fit %s",
           dir, suite);
    setenv("ARENABENCH_TEST_SLOWER", "3", 1);
    abt_run_ok(0, "run -q --db %s/r.db --tag t --repeat-min 3 --repeat-below 0 -p test-slower-by-env -p first-fit %s",
           dir, suite);
    unsetenv("ARENABENCH_TEST_SLOWER");
    char args[8192], *out, *err;
    snprintf(args, sizeof args, "compare --db %s/r.db --tag t", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "a timing change is a warning:\n%s%s", out, err);
    HAS(out, "slower");
    HAS(out, "test-slower-by-env");
    HAS(out, "1 timing warnings");
    free(out), free(err);
    snprintf(args, sizeof args, "compare --db %s/r.db --tag t --fail-on-time", dir);
    cr_assert_eq(abt_run(args, &out, &err), 1, "--fail-on-time fails it:\n%s%s", out, err);
    HAS(out, "slower");
    free(out), free(err);
    /* run again as slow as the last: against it, no change */
    setenv("ARENABENCH_TEST_SLOWER", "3", 1);
    abt_run_ok(0, "run -q --db %s/r.db --tag t --repeat-min 3 --repeat-below 0 -p test-slower-by-env -p first-fit %s",
           dir, suite);
    unsetenv("ARENABENCH_TEST_SLOWER");
    snprintf(args, sizeof args, "compare --db %s/r.db --tag t --fail-on-time", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "3x against 3x is no change:\n%s%s", out, err);
    free(out), free(err);
    free(dir);
}
