/*
 * test_cli.c — the arenabench command end to end: help and usage errors,
 * plan + validate on every example suite with every planner, an invalid plan
 * named precisely, and bad input giving exit 2 with a located message.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/formats/formats.h"
#include "harness/formats/plan_formats.h"
#include "oracle/check.h"
#include "planners/planner.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

Test(cli, help_goes_to_stdout_with_exit_0) {
    char *out, *err;
    cr_assert_eq(abt_run("--help", &out, &err), 0);
    HAS(out, "usage: arenabench COMMAND");
    HAS(out, "validate");
    free(out), free(err);
    const char *cmds[] = {"plan --help", "validate --help", "bound -h", "planners --help",
                          "help plan"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        cr_assert_eq(abt_run(cmds[i], &out, &err), 0, "%s", cmds[i]);
        HAS(out, "usage: arenabench ");
        HAS(out, "Exit status");
        free(out), free(err);
    }
}

Test(cli, misuse_goes_to_stderr_with_exit_2) {
    char *out, *err;
    cr_assert_eq(abt_run("", &out, &err), 2);
    free(out), free(err);
    cr_assert_eq(abt_run("frobnicate", &out, &err), 2);
    HAS(err, "arenabench: unknown command 'frobnicate'");
    free(out), free(err);
    cr_assert_eq(abt_run("plan --bogus x.yaml", &out, &err), 2);
    HAS(err, "arenabench: unknown option '--bogus'");
    HAS(err, "usage: arenabench plan");
    free(out), free(err);
    cr_assert_eq(abt_run("validate only-one.yaml", &out, &err), 2);
    HAS(err, "expected a suite file and a plan file");
    free(out), free(err);
    cr_assert_eq(abt_run("plan -p", &out, &err), 2);
    HAS(err, "option --planner needs a value");
    free(out), free(err);
}

/* Every command listed by --help (the one command table) has its own help,
 * from `CMD --help`, `CMD -h` and `help CMD` alike, with a usage line naming
 * it and its exit status. */
Test(cli, every_command_of_the_table_has_help_with_exit_status) {
    char *list, *out, *err, args[256];
    cr_assert_eq(abt_run("--help", &list, NULL), 0);
    char *cmds = strstr(list, "commands:\n");
    cr_assert_not_null(cmds, "%s", list);
    int seen = 0;
    for (char *line = strtok(cmds + 10, "\n"); line && strncmp(line, "  ", 2) == 0;
         line = strtok(NULL, "\n")) {
        char name[64], want[128];
        cr_assert_eq(sscanf(line, "%63s", name), 1);
        snprintf(want, sizeof want, "usage: arenabench %s", name);
        const char *pre[] = {"", "", "help "}, *post[] = {" --help", " -h", ""};
        for (size_t f = 0; f < 3; f++) {
            snprintf(args, sizeof args, "%s%s%s", pre[f], name, post[f]);
            cr_assert_eq(abt_run(args, &out, &err), 0, "%s: %s", args, err);
            cr_assert(strncmp(out, want, strlen(want)) == 0, "%s:\n%s", args, out);
            HAS(out, "Exit status");
            cr_assert_str_eq(err, "", "%s", args);
            free(out), free(err);
        }
        seen++;
    }
    free(list);
    cr_assert_geq(seen, 14, "only %d commands listed", seen);
}

Test(cli, help_texts_print_percent_signs_once_and_help_has_its_own_help) {
    char *out, *err;
    cr_assert_eq(abt_run("ilp --help", &out, &err), 0);
    HAS(out, "a percentage (1%); default 0");
    cr_assert_null(strstr(out, "%%"), "%s", out);
    free(out), free(err);
    cr_assert_eq(abt_run("help --help", &out, &err), 0, "%s", err);
    HAS(out, "usage: arenabench help [COMMAND]");
    cr_assert_null(strstr(out, "'--help'"), "%s", out);
    cr_assert_str_eq(err, "");
    free(out), free(err);
    cr_assert_eq(abt_run("help frobnicate", &out, &err), 2);
    HAS(err, "arenabench: unknown command 'frobnicate'");
    free(out), free(err);
}

/* "--x=v", "--x v", "-xv", "-x v", operands before or after the options,
 * and "--" ending the options all read the same. */
Test(cli, options_take_values_in_all_four_spellings_anywhere) {
    const char *suite = abt_src("suites/examples/diamond.yaml");
    const char *before[] = {"--planner=best-fit", "--planner best-fit", "-pbest-fit",
                            "-p best-fit", "", "-p best-fit --"};
    const char *after[] = {"", "", "", "", "-p best-fit", ""};
    for (size_t i = 0; i < sizeof before / sizeof before[0]; i++) {
        char args[8192], *out, *err;
        snprintf(args, sizeof args, "plan %s %s %s", before[i], suite, after[i]);
        cr_assert_eq(abt_run(args, &out, &err), 0, "%s: %s", args, err);
        HAS(out, "planner    best-fit\n");
        free(out), free(err);
    }
}

Test(cli, option_misuse_is_named_with_the_usage) {
    const struct {
        const char *args, *want;
    } cases[] = {
        {"plan --plan best-fit x.yaml", "arenabench: unknown option '--plan'"}, /* whole names */
        {"plan -Z x.yaml", "arenabench: unknown option '-Z'"},
        {"run --ilp -qj0 x.yaml", "arenabench: -j takes a number of jobs"}, /* -q -j0 */
        {"run --quiet=yes x.yaml", "arenabench: option --quiet takes no value"},
        {"plan --planner", "arenabench: option --planner needs a value"},
        {"bound a.yaml b.yaml", "arenabench: unexpected operand 'b.yaml'"},
        {"report extra", "arenabench: unexpected operand 'extra'"},
        {"ilp x.yaml --gap 2", "arenabench: --gap: expected a fraction in [0, 1] or a percentage"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out, *err;
        cr_assert_eq(abt_run(cases[i].args, &out, &err), 2, "%s: %s", cases[i].args, err);
        HAS(err, cases[i].want);
        HAS(err, "\nusage: arenabench ");
        cr_assert_str_eq(out, "", "%s", cases[i].args);
        free(out), free(err);
    }
}

Test(cli, planners_lists_each_with_parameters) {
    char *out;
    cr_assert_eq(abt_run("planners", &out, NULL), 0);
    HAS(out, "first-fit");
    HAS(out, "best-fit");
    HAS(out, "order=start|size|area (default start)");
    free(out);
}

static const char *two_tensors =
    "suite: two\n"
    "tensors:\n"
    "  - {name: a, size: 16, start: 0, end: 2}\n"
    "  - {name: b, size: 16, start: 2, end: 3}\n";

Test(cli, validate_names_both_tensors_of_an_overlap) {
    char suite[4096], args[8192];
    snprintf(suite, sizeof suite, "%s", abt_write_tmp(two_tensors, ".yaml"));
    const char *plan = abt_write_tmp("tensor,offset\na,0\nb,8\n", ".csv");
    snprintf(args, sizeof args, "validate %s %s", suite, plan);
    char *out, *err;
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(out, "'a'");
    HAS(out, "'b'");
    HAS(out, "[0, 16)");
    HAS(out, "[8, 24)");
    HAS(out, "instruction 2");
    free(out), free(err);
    plan = abt_write_tmp("tensor,offset\na,0\nb,16\n", ".csv");
    snprintf(args, sizeof args, "validate %s %s", suite, plan);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    HAS(out, "arena      32 bytes");
    free(out), free(err);
}

Test(cli, validate_explains_io_tensors_outside_the_arena) {
    char suite[4096], args[8192];
    snprintf(suite, sizeof suite, "%s",
             abt_write_tmp("suite: io\ntensors:\n"
                           "  - {name: in, size: 8, start: 0, end: 0, kind: input}\n"
                           "  - {name: x, size: 8, start: 0, end: 1}\n", ".yaml"));
    const char *plan = abt_write_tmp("tensor,offset\nx,0\nin,8\n", ".csv");
    snprintf(args, sizeof args, "validate %s %s", suite, plan);
    char *out, *err;
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(out, "'in' is an input tensor; with io: separate it lives outside the arena");
    free(out), free(err);
}

Test(cli, bad_input_exits_2_naming_file_line_and_field) {
    char args[8192];
    char *out, *err;
    const char *suite = abt_write_tmp("suite: bad\ntensors:\n"
                                      "  - {name: a, size: -4, start: 0, end: 1}\n", ".yaml");
    snprintf(args, sizeof args, "plan %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "arenabench: ");
    HAS(err, "file.yaml:3:");
    HAS(err, "size");
    free(out), free(err);
    cr_assert_eq(abt_run("bound /nonexistent/s.yaml", &out, &err), 2);
    HAS(err, "/nonexistent/s.yaml");
    free(out), free(err);
    suite = abt_write_tmp("suite: [unclosed\n", ".yaml");
    snprintf(args, sizeof args, "bound %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "file.yaml:");
    free(out), free(err);
    cr_assert_eq(abt_run("plan -p worst-fit x.yaml", &out, &err), 2);
    HAS(err, "unknown planner 'worst-fit'");
    free(out), free(err);
}

Test(cli, plan_csv_that_disagrees_with_the_suite_exits_2) {
    char suite[4096], args[8192];
    snprintf(suite, sizeof suite, "%s", abt_write_tmp(two_tensors, ".yaml"));
    const char *plan = abt_write_tmp("tensor,offset,size\na,0,16\nb,16,99\n", ".csv");
    snprintf(args, sizeof args, "validate %s %s", suite, plan);
    char *out, *err;
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s%s", out, err);
    HAS(err, "file.csv:3");
    free(out), free(err);
}

/* Every example suite planned by every planner `planners` lists whose index
 * is q modulo 4, each plan file read back and checked (the first through
 * `validate`), and (q = 0) bound run on each suite: four tests, so
 * Criterion's workers share them. */
/* What `validate SUITE PLAN` checks, in this process: the plan file read in
 * the default format against the suite's arena view, and the oracle's
 * verdict ok. */
static void validate_here(const char *suite, const char *plan, const char *spec) {
    ab_problem full, view;
    ab_plan pl;
    ab_problem_init(&view);
    ab_plan_init(&pl);
    ab_error err;
    cr_assert_eq(abf_load_problem(suite, NULL, &full, &err), AB_OK, "%s: %s", suite, err.msg);
    cr_assert_eq(ab_problem_arena_view(&full, &view, NULL, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abf_plan_formats[0]->read(plan, &view, &pl, &err), AB_OK, "%s (%s): %s", suite,
                 spec, err.msg);
    abo_report r;
    cr_assert_eq(abo_check(&view, &pl, &r, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(r.verdict, ABO_OK, "%s with %s: %s", suite, spec, r.msg);
    ab_plan_free(&pl);
    ab_problem_free(&view);
    ab_problem_free(&full);
}

static void examples_with_planners(int q) {
    const char *dir = abt_src("suites/examples");
    char dirpath[4096];
    snprintf(dirpath, sizeof dirpath, "%s", dir);
    DIR *d = opendir(dirpath);
    cr_assert_not_null(d, "no %s", dirpath);
    char *out, *err;
    cr_assert_eq(abt_run("planners", &out, NULL), 0);
    char specs[64][64];
    int nspecs = 0, listed = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] >= 'a' && line[0] <= 'z' && ++listed <= 64) {
            sscanf(line, "%63s", specs[nspecs]);
            const ab_planner *pl = ab_planner_find(specs[nspecs]);
            if (pl == NULL || !(pl->flags & AB_PLANNER_ASK_ONLY)) nspecs++; /* external, minizinc */
        }
    free(out);
    cr_assert_leq(listed, 64, "`planners` lists %d; the test takes 64", listed);
    cr_assert_geq(nspecs, 2);
    char *tmp = abt_tmpdir();
    int suites = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0) continue;
        suites++;
        char args[12288];
        if (q == 0) {
            snprintf(args, sizeof args, "bound %s/%s", dirpath, e->d_name);
            cr_assert_eq(abt_run(args, &out, &err), 0, "%s: %s%s", args, out, err);
            free(out), free(err);
        }
        for (int s = q; s < nspecs; s += 4) {
            snprintf(args, sizeof args, "plan -p %s %s/%s -o %s/p.csv", specs[s], dirpath,
                     e->d_name, tmp);
            cr_assert_eq(abt_run(args, &out, &err), 0, "%s: %s%s", args, out, err);
            free(out), free(err);
            /* The first planner's plan through the command, the others read back
             * and checked here: the same reader and oracle, without a process
             * start each (the command's own paths are tested apart). */
            if (s == q) {
                snprintf(args, sizeof args, "validate %s/%s %s/p.csv", dirpath, e->d_name, tmp);
                cr_assert_eq(abt_run(args, &out, &err), 0, "%s: %s%s", args, out, err);
                HAS(out, "check      ok");
                free(out), free(err);
            } else {
                char suite[8192], plan[4200];
                snprintf(suite, sizeof suite, "%s/%s", dirpath, e->d_name);
                snprintf(plan, sizeof plan, "%s/p.csv", tmp);
                validate_here(suite, plan, specs[s]);
            }
        }
    }
    closedir(d);
    free(tmp);
    cr_assert_geq(suites, 8, "expected at least eight example suites, found %d", suites);
}

Test(cli, every_example_plans_and_validates_with_every_planner_q0) { examples_with_planners(0); }
Test(cli, every_example_plans_and_validates_with_every_planner_q1) { examples_with_planners(1); }
Test(cli, every_example_plans_and_validates_with_every_planner_q2) { examples_with_planners(2); }
Test(cli, every_example_plans_and_validates_with_every_planner_q3) { examples_with_planners(3); }

Test(cli, plan_reports_a_crashing_or_hanging_planner) {
    char args[8192], *out, *err;
    snprintf(args, sizeof args, "plan -p test-crash %s", abt_src("suites/examples/diamond.yaml"));
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(err, "planner test-crash failed: crash");
    HAS(err, "SIGSEGV");
    free(out), free(err);
    snprintf(args, sizeof args, "plan -p test-hang --time-limit 0.3 %s",
             abt_src("suites/examples/diamond.yaml"));
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(err, "timeout");
    free(out), free(err);
}

Test(cli, plan_draws_an_svg) {
    char *dir = abt_tmpdir();
    char args[8192], *out, *err;
    snprintf(args, sizeof args, "plan -p first-fit %s --svg %s/p.svg",
             abt_src("suites/examples/first_fit_hole.yaml"), dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "%s/p.svg", dir);
    char *svg = abt_slurp(args, NULL);
    cr_assert_not_null(svg);
    HAS(svg, "<svg xmlns=");
    HAS(svg, "lower bound 4096");
    HAS(svg, "arena 6144");
    free(svg);
    free(dir);
}

/* A valid plan over the capacity is not an invalid plan: plan says by how
 * much and whether anything proved that no plan fits, and exits 0. */
Test(cli, plan_over_the_capacity_says_by_how_much_and_whether_proven) {
    char suite[4096], args[8192], *out, *err;
    snprintf(suite, sizeof suite, "%s",
             abt_write_tmp("suite: over-cap\ntensors:\n"
                           "  - {name: conv1, size: 2048, start: 0, end: 1}\n"
                           "  - {name: skip, size: 1024, start: 0, end: 3}\n"
                           "  - {name: conv2, size: 3072, start: 2, end: 3}\n"
                           "capacity: 4096\n", ".yaml"));
    snprintf(args, sizeof args, "plan -p first-fit %s", suite);
    /* exit 1 since the capacity gate (issue 31): 0 before, when over the capacity was no
     * failed check; the plan stays valid (no INVALID) and the lines are the same */
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(out, "check      valid plan, but over the capacity: arena 6144 exceeds capacity 4096 by "
             "2048 bytes");
    HAS(out, "status     over-capacity: nothing proved that no plan fits");
    cr_assert_null(strstr(out, "INVALID"), "%s", out);
    free(out), free(err);
    snprintf(suite, sizeof suite, "%s",
             abt_write_tmp("suite: infeasible-on-purpose\ntensors:\n"
                           "  - {name: a, size: 400, start: 0, end: 1}\n"
                           "  - {name: b, size: 400, start: 0, end: 1}\n"
                           "  - {name: c, size: 400, start: 0, end: 1}\n"
                           "capacity: 1000\n", ".yaml"));
    snprintf(args, sizeof args, "plan -p first-fit %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(out, "arena 1200 exceeds capacity 1000 by 200 bytes");
    HAS(out, "status     infeasible: no plan fits the capacity 1000, proven by lower-bound (lower "
             "bound 1200 > 1000)");
    free(out), free(err);
}
