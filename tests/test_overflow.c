/*
 * test_overflow.c — sizes near the input's limits (README "Input limits":
 * each size, offset and end below 2^62, offset + size and the sizes' sum,
 * each rounded up to its align, at most 2^62): a suite past a limit exits 2
 * naming file:line:col and the field; a suite within them runs every planner
 * with correct results (the sanitizer build of scripts/test.sh turns any
 * signed overflow into a crash row, which this test refuses).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/support.h"

/* Writes text to DIR/name; the path in out. */
static void put(const char *dir, const char *name, const char *text, char *out, size_t cap) {
    snprintf(out, cap, "%s/%s", dir, name);
    FILE *f = fopen(out, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* `bound FILE` must exit 2 with a message containing where and what. */
static void assert_bound_rejects(const char *text, const char *where, const char *what) {
    char *dir = abt_tmpdir(), path[4096], args[8192];
    put(dir, "s.yaml", text, path, sizeof path);
    snprintf(args, sizeof args, "bound %s", path);
    char *err = NULL;
    int rc = abt_run(args, NULL, &err);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
    cr_assert(strstr(err, where) != NULL, "'%s' not in: %s", where, err);
    cr_assert(strstr(err, what) != NULL, "'%s' not in: %s", what, err);
    free(err);
    free(dir);
}

Test(overflow, tensors_summing_past_2_63_exit_2_at_the_tensor) {
    assert_bound_rejects("suite: s\ntensors:\n"
                         "  - {name: a, size: 4611686018427387903, start: 0, end: 1}\n"
                         "  - {name: b, size: 4611686018427387903, start: 0, end: 1}\n"
                         "  - {name: c, size: 4611686018427387903, start: 0, end: 1}\n",
                         "s.yaml:4:12: tensors[1] (name 'b'): ",
                         "add up to more than 2^62 bytes");
}

Test(overflow, sizes_rounded_up_to_their_align_past_2_62_exit_2_located) {
    /* Used to fail in the bounds, with no place: "the physical bytes of the
     * tensors overflow 64 bits". */
    assert_bound_rejects("suite: s\ntensors:\n"
                         "  - {name: a, size: 1, start: 0, end: 2, align: 2305843009213693952}\n"
                         "  - {name: b, size: 1, start: 0, end: 2, align: 2305843009213693952}\n"
                         "  - {name: c, size: 1, start: 0, end: 2, align: 2305843009213693952}\n",
                         "s.yaml:5:12: tensors[2] (name 'c'): ", "rounded up to its align");
}

Test(overflow, a_fixed_offset_whose_end_overflows_exits_2_at_the_offset) {
    assert_bound_rejects("suite: s\ntensors:\n"
                         "  - {name: a, size: 4611686018427387904, start: 0, end: 1, "
                         "offset: 4611686018427387904}\n",
                         "s.yaml:3:68: tensors[0] (name 'a').offset: ",
                         "offset + size must be at most 2^62");
}

Test(overflow, generated_sizes_past_2_62_exit_2_at_the_generator) {
    assert_bound_rejects("suite: g\ngenerate: {kind: random, n: 50, pow2: 0, "
                         "max_size: 4611686018427387904}\n",
                         "s.yaml:2:11: ", "add up to more than 2^62 bytes");
}

/* Within the limits: every planner (all but external and minizinc) on huge
 * sizes gives a valid plan (the run checks each) or an error row with a
 * message, never a crash, and the exact ones the optimum. */
Test(overflow, every_planner_runs_on_huge_sizes, .timeout = 600) {
    char *dir = abt_tmpdir(), path[4096], args[8192];
    snprintf(path, sizeof path, "%s/suites", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    put(dir, "suites/a.yaml",
        "suite: a\ntensors:\n"
        "  - {name: a, size: 1152921504606846976, start: 0, end: 2}\n"
        "  - {name: b, size: 1152921504606846976, start: 1, end: 3}\n"
        "  - {name: c, size: 1152921504606846976, start: 2, end: 4}\n"
        "  - {name: d, size: 1152921504606846976, start: 0, end: 4}\n",
        path, sizeof path);
    put(dir, "suites/c.yaml",
        "suite: c\ntensors:\n"
        "  - {name: a, size: 1, start: 0, end: 2, offset: 4611686018427387903}\n"
        "  - {name: b, size: 4611686018427387903, start: 0, end: 2}\n",
        path, sizeof path);
    put(dir, "suites/d.yaml",
        "suite: d\ntensors:\n  - {name: a, size: 4611686018427387903, start: 0, end: 2}\n",
        path, sizeof path);
    snprintf(args, sizeof args,
             "run -q --db %s/r.db --planners all -j 1 --time-limit 300 %s/suites", dir, dir);
    char *err = NULL;
    int rc = abt_run(args, NULL, &err);
    cr_assert(rc == 0 || rc == 1, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "runtime error") == NULL, "%s", err);
    free(err);
    char *out = NULL;
    snprintf(args, sizeof args, "report --db %s/r.db --format csv", dir);
    cr_assert_eq(abt_run(args, &out, NULL), 0);
    size_t rows = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "run,", 4) == 0) continue;
        rows++;
        cr_assert(strstr(line, ",crash,") == NULL && strstr(line, ",invalid,") == NULL, "%s",
                  line);
        if (strstr(line, ",ok,") == NULL) continue;
        /* every ok row of a and d has the optimum (a: 4 x 2^60 = 2^62) */
        if (strncmp(line, "1,a,", 4) == 0)
            cr_assert(strstr(line, ",ok,4611686018427387904,") != NULL, "%s", line);
        if (strncmp(line, "1,d,", 4) == 0)
            cr_assert(strstr(line, ",ok,4611686018427387903,") != NULL, "%s", line);
    }
    cr_assert_gt(rows, 30);
    free(out);
    free(dir);
}
