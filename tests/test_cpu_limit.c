/*
 * test_cpu_limit.c — `run --cpu-limit S`: a job is stopped by the CPU it
 * used (RLIMIT_CPU), not by the wall clock, so the same job ends the same
 * way on a quiet machine and on a busy one. A planner spinning forever on
 * the CPU is a timeout, capped 'time', naming the CPU limit; one sleeping
 * forever uses no CPU and is stopped by the wall-clock cap instead (here the
 * runner's --time-limit, a generous safety net only for that job); one that
 * ends by itself is untouched.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

Test(cpu_limit, a_spinning_planner_is_a_timeout_by_its_cpu_not_the_clock) {
    char *dir = abt_tmpdir();
    char suite[4096], args[8192], *out, *err;
    snprintf(suite, sizeof suite, "%s", abt_src("suites/examples/diamond.yaml"));
    /* 1 s of CPU: reached within seconds however busy the machine; the wall
     * cap (600 s) never comes near */
    snprintf(args, sizeof args,
             "run -q --db %s/r.db --cpu-limit 1 --time-limit 600 -p test-hang:how=spin "
             "-p first-fit %s", dir, suite);
    int rc = abt_run(args, &out, &err);
    cr_assert_eq(rc, 0, "a timeout is an outcome, not a failure: exit %d\n%s%s", rc, out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "report --db %s/r.db --format csv", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    HAS(out, "exceeded the CPU limit of 1 s");
    char *line = strstr(out, "test-hang:how=spin");
    cr_assert_not_null(line, "%s", out);
    char *eol = strchr(line, '\n');
    if (eol) *eol = '\0';
    HAS(line, "timeout");
    HAS(line, "time"); /* capped */
    free(out), free(err);
    /* first-fit, in the same run, was not limited */
    snprintf(args, sizeof args, "report --db %s/r.db --format csv", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    line = strstr(out, "\n");
    cr_assert_not_null(line);
    char *ff = strstr(out, ",first-fit,");
    cr_assert_not_null(ff, "%s", out);
    eol = strchr(ff, '\n');
    if (eol) *eol = '\0';
    HAS(ff, ",ok,");
    free(out), free(err);
    free(dir);
}

Test(cpu_limit, must_be_seconds) {
    char args[256], *out, *err;
    snprintf(args, sizeof args, "run --cpu-limit soon %s", abt_src("suites/examples/diamond.yaml"));
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "--cpu-limit takes CPU seconds > 0, not 'soon'");
    free(out), free(err);
}
