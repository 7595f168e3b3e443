/*
 * test_report_bounded.c — the report stays bounded however big the suite
 * (issue 15, finding 9c): a suite of 10^5 tensors gives an HTML report under
 * 2 MB and a Markdown one under 64 KB; and no cap is silent: plans left out
 * of the HTML pictures are counted in a line that says so.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

Test(report_bounded, a_suite_of_100k_tensors_gives_a_small_report) {
    char *dir = abt_tmpdir();
    abt_run_ok(0, "gen --kind random --n 100000 --seed 7 -o %s/big.yaml", dir);
    abt_run_ok(0, "run -q --db %s/r.db -p first-fit %s/big.yaml", dir, dir);
    const char *fmt[] = {"html", "md"};
    const size_t cap[] = {2u << 20, 64u << 10};
    for (size_t k = 0; k < 2; k++) {
        char out[600];
        snprintf(out, sizeof out, "%s/report.%s", dir, fmt[k]);
        abt_run_ok(0, "report --db %s/r.db --format %s -o %s", dir, fmt[k], out);
        size_t len = 0;
        char *text = abt_slurp(out, &len);
        cr_assert_not_null(text);
        cr_expect_lt(len, cap[k], "%s report of 10^5 tensors: %zu bytes (want < %zu)", fmt[k],
                     len, cap[k]);
        free(text);
    }
    free(dir);
}

Test(report_bounded, pictures_left_out_are_counted) {
    char *dir = abt_tmpdir();
    char args[1024];
    abt_run_ok(0, "gen --kind random --n 200 --seed 9 -o %s/s.yaml", dir);
    /* the default planners leave 6 distinct plans above the bound here */
    abt_run_ok(0, "run -q --repeat-min 1 --db %s/r.db --planners default %s/s.yaml", dir, dir);
    char *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "report --db %s/r.db --format html", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    cr_expect_not_null(strstr(out, "3 more plans with a gap not drawn (the 3 with the largest "
                                   "gaps are)"),
                       "no line for the plans left out");
    free(out);
    free(err);
    free(dir);
}
