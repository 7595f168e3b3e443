/*
 * test_defaults_cli.c — the defaults users expect (issue 13, part 6): "did
 * you mean" for planner and command names and long options, `planners` in aligned columns,
 * help texts without printf's doubled percent, `help --help` as help's own
 * help, the default planner set with the peers' planners, and `external`:
 * the tensors' names as ids (as export writes them), a name CSV cannot hold
 * and a program that is not there are bad input (exit 2).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/suggest.h"
#include "planners/planner.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))
#define LACKS(s, sub) cr_assert(strstr((s), (sub)) == NULL, "did not expect '%s' in:\n%s", (sub), (s))

/* ---- did you mean ---------------------------------------------------------------------- */

static const char *suggest(const char *typo, const char *const *names, size_t n) {
    ab_suggest s;
    ab_suggest_init(&s, typo);
    for (size_t i = 0; i < n; i++) ab_suggest_offer(&s, names[i]);
    return s.best;
}

Test(defaults_cli, suggests_within_two_edits_swaps_counting_one) {
    const char *names[] = {"first-fit", "best-fit", "tflm-greedy"};
    cr_assert_str_eq(suggest("frist-fit", names, 3), "first-fit"); /* one swap */
    cr_assert_str_eq(suggest("tlfm-greedy", names, 3), "tflm-greedy");
    cr_assert_str_eq(suggest("bestfit", names, 3), "best-fit");     /* one insertion */
    cr_assert_str_eq(suggest("best-fit!!", names, 3), "best-fit");  /* two deletions */
    cr_assert_null(suggest("best-fit!!!", names, 3));               /* three */
    cr_assert_null(suggest("xyz", names, 3));
    cr_assert_null(suggest("", names, 3));
}

Test(defaults_cli, breaks_ties_by_name_whatever_the_order_offered) {
    const char *ab[] = {"plan", "plat"}, *ba[] = {"plat", "plan"};
    cr_assert_str_eq(suggest("pla", ab, 2), "plan");
    cr_assert_str_eq(suggest("pla", ba, 2), "plan");
    const char *near_first[] = {"runs", "run"}; /* nearer beats alphabetical */
    cr_assert_str_eq(suggest("rn", near_first, 2), "run");
    const char *tiny[] = {"ab"}; /* never a name replaced whole */
    cr_assert_null(suggest("xy", tiny, 1));
}

Test(defaults_cli, suggests_among_a_list_by_the_same_rule) {
    const char *keys[] = {"size", "start", "end", "align", "offset"};
    cr_assert_str_eq(ab_suggest_among("sise", keys, 5), "size");
    cr_assert_str_eq(ab_suggest_among("ofset", keys, 5), "offset");
    cr_assert_str_eq(ab_suggest_among("aling", keys, 5), "align"); /* a swap counts one */
    cr_assert_null(ab_suggest_among("colour", keys, 5));
    cr_assert_null(ab_suggest_among("sise", keys, 0));
    /* ties: the first in strcmp order, wherever it stands in the list */
    const char *tie[] = {"stark", "start", "stare"}, *tie2[] = {"start", "stare", "stark"};
    cr_assert_str_eq(ab_suggest_among("stari", tie, 3), "stare");
    cr_assert_str_eq(ab_suggest_among("stari", tie2, 3), "stare");
    /* within AB_SUGGEST_MAX_DIST, never a name replaced whole */
    const char *longer[] = {"alignment"};
    cr_assert_str_eq(ab_suggest_among("alinmnet", longer, 1), "alignment"); /* 2 */
    cr_assert_null(ab_suggest_among("alinmt", longer, 1));                   /* 3 */
    const char *two[] = {"io"};
    cr_assert_null(ab_suggest_among("xy", two, 1));
    cr_assert_str_eq(ab_suggest_among("i", two, 1), "io");
}

Test(defaults_cli, a_mistyped_long_option_gets_did_you_mean_and_exit_2) {
    char *out, *err;
    const char *suite = abt_src("suites/examples/diamond.yaml");
    char args[4200];
    snprintf(args, sizeof args, "plan --time-limt 5 %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "arenabench: unknown option '--time-limt'; did you mean '--time-limit'?");
    HAS(err, "usage: arenabench plan");
    free(out), free(err);
    snprintf(args, sizeof args, "plan --time-limt=5 %s", suite); /* with its value attached */
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "unknown option '--time-limt=5'; did you mean '--time-limit'?");
    free(out), free(err);
    cr_assert_eq(abt_run("bound --hlep", &out, &err), 2);
    HAS(err, "unknown option '--hlep'; did you mean '--help'?");
    free(out), free(err);
    cr_assert_eq(abt_run("plan --frobnicate x.yaml", &out, &err), 2);
    HAS(err, "unknown option '--frobnicate'");
    LACKS(err, "did you mean");
    free(out), free(err);
}

Test(defaults_cli, a_mistyped_command_gets_did_you_mean_and_exit_2) {
    char *out, *err;
    cr_assert_eq(abt_run("plna x.yaml", &out, &err), 2);
    HAS(err, "arenabench: unknown command 'plna': did you mean 'plan'?");
    free(out), free(err);
    cr_assert_eq(abt_run("help valdiate", &out, &err), 2);
    HAS(err, "unknown command 'valdiate': did you mean 'validate'?");
    free(out), free(err);
    cr_assert_eq(abt_run("frobnicate", &out, &err), 2);
    HAS(err, "unknown command 'frobnicate' (see 'arenabench --help')");
    LACKS(err, "did you mean");
    free(out), free(err);
}

Test(defaults_cli, a_mistyped_planner_gets_did_you_mean_and_exit_2) {
    char *out, *err, args[4200];
    const char *suite = abt_src("suites/examples/diamond.yaml");
    snprintf(args, sizeof args, "plan -p frist-fit:order=size %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "unknown planner 'frist-fit': did you mean 'first-fit'? (planners: first-fit,");
    free(out), free(err);
    char *dir = abt_tmpdir();
    snprintf(args, sizeof args, "run -q --db %s/r.db -p usmp-greedy-by-sise %s", dir, suite);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "did you mean 'usmp-greedy-by-size'?");
    free(out), free(err);
    free(dir);
    snprintf(args, sizeof args, "plan -p qwerty %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 2);
    HAS(err, "unknown planner 'qwerty' (planners:");
    free(out), free(err);
}

/* ---- help and planners -------------------------------------------------------------------- */

Test(defaults_cli, planners_summaries_start_in_one_column) {
    char *out, *err;
    cr_assert_eq(abt_run("planners", &out, &err), 0, "%s", err);
    HAS(out, "tflite-gpu-greedy-by-size  TFLite GPU");
    int column = -1, lines = 0;
    size_t longest = 0;
    for (char *line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (line[0] == ' ') continue; /* a parameter */
        size_t name = strcspn(line, " ");
        if (name > longest) longest = name;
        int at = (int)(name + strspn(line + name, " "));
        if (column < 0) column = at;
        cr_assert_eq(at, column, "summary at column %d, the first at %d: '%s'", at, column, line);
        lines++;
    }
    cr_assert_geq(lines, 11);
    cr_assert_geq(column, (int)longest + 2, "two blanks at least after the longest name");
    free(out), free(err);
}

Test(defaults_cli, no_help_prints_a_doubled_percent) {
    const char *cmds[] = {"planners", "plan", "validate", "bound", "run", "report", "compare",
                          "ilp", "import", "export", "gen", "merge", "show-plan", "help"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        char args[64], *out, *err;
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        cr_assert_eq(abt_run(args, &out, &err), 0, "%s: %s", cmds[i], err);
        LACKS(out, "%%");
        free(out), free(err);
    }
    char *out, *err;
    cr_assert_eq(abt_run("ilp --help", &out, &err), 0);
    HAS(out, "a percentage (1%)");
    free(out), free(err);
}

Test(defaults_cli, help_help_is_helps_own_help) {
    char *a, *b, *err;
    cr_assert_eq(abt_run("help --help", &a, &err), 0);
    free(err);
    cr_assert_eq(abt_run("help help", &b, &err), 0);
    free(err);
    cr_assert_str_eq(a, b);
    HAS(a, "usage: arenabench help [COMMAND]");
    LACKS(a, "see 'arenabench help --help'");
    free(a), free(b);
}

/* ---- the default planner set ---------------------------------------------------------------- */

Test(defaults_cli, run_by_default_runs_the_peers_planners_beside_ours) {
    char *dir = abt_tmpdir(), *out, *err, args[8192];
    snprintf(args, sizeof args, "run --db %s/r.db %s", dir,
             abt_src("suites/examples/diamond.yaml"));
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    const char *specs[] = {"first-fit", "first-fit:order=size", "best-fit", "best-fit:order=size",
                           "tflm-greedy", "usmp-greedy-by-size", "usmp-greedy-by-conflicts",
                           "tflite-gpu-greedy-by-size", "xla-best-fit", "executorch-greedy"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        char want[128];
        snprintf(want, sizeof want, "example-diamond %s: ok", specs[i]);
        HAS(err, want);
    }
    HAS(err, "10 jobs, 10 ok");
    free(out), free(err);
    free(dir);
}

/* ---- external ------------------------------------------------------------------------------ */

/* A script in dir that copies its input to dir/seen.csv and stacks every
 * buffer (offset = the sum of the sizes before it), answering by id. */
static void write_stacker(const char *dir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/stack.sh", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("#!/bin/sh\ncp \"$1\" \"$(dirname \"$0\")/seen.csv\"\n"
          "awk -F, 'NR == 1 { print \"id,offset\"; next } { print $1 \",\" sum + 0; sum += $4 }' "
          "\"$1\" > \"$2\"\n", f);
    fclose(f);
    chmod(path, 0755);
}

Test(defaults_cli, external_gets_the_names_export_writes) {
    char *dir = abt_tmpdir(), *out, *err, args[12288];
    write_stacker(dir);
    const char *suite = abt_src("suites/examples/first_fit_hole.yaml");
    snprintf(args, sizeof args, "plan -p \"external:cmd='sh %s/stack.sh {input} {output}'\" %s",
             dir, suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s%s", out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "export %s --format minimalloc", suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    snprintf(args, sizeof args, "%s/seen.csv", dir);
    char *seen = abt_slurp(args, NULL);
    cr_assert_not_null(seen);
    cr_assert_str_eq(seen, out, "the program's input and export differ");
    cr_assert(strncmp(seen, "id,", 3) == 0 && strchr(seen, '\n')[1] != '0',
              "ids are names, not indices:\n%s", seen);
    free(seen), free(out), free(err);
    free(dir);
}

Test(defaults_cli, external_refuses_a_name_csv_cannot_hold) {
    char *dir = abt_tmpdir(), *out, *err, args[12288];
    write_stacker(dir);
    snprintf(args, sizeof args, "%s/comma.yaml", dir);
    FILE *f = fopen(args, "w");
    cr_assert_not_null(f);
    fputs("suite: comma\ntensors:\n  - {name: \"a,b\", size: 4, start: 0, end: 1}\n"
          "  - {name: c, size: 4, start: 1, end: 2}\n", f);
    fclose(f);
    snprintf(args, sizeof args,
             "plan -p \"external:cmd='sh %s/stack.sh {input} {output}'\" %s/comma.yaml", dir, dir);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s%s", out, err);
    HAS(err, "external: tensor 'a,b': MiniMalloc CSV cannot hold a name with a comma");
    free(out), free(err);
    free(dir);
}

Test(defaults_cli, a_missing_external_program_is_bad_input) {
    char *out, *err, args[8192];
    const char *suite = abt_src("suites/examples/diamond.yaml");
    snprintf(args, sizeof args,
             "plan -p \"external:cmd='no-such-planner-xyz {input} {output}'\" %s", suite);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s%s", out, err);
    HAS(err, "the shell did not find the program (exit status 127)");
    free(out), free(err);
    char *dir = abt_tmpdir();
    snprintf(args, sizeof args, "%s/not-executable", dir);
    FILE *f = fopen(args, "w");
    fputs("#!/bin/sh\nexit 0\n", f);
    fclose(f);
    chmod(args, 0644);
    snprintf(args, sizeof args, "plan -p \"external:cmd='%s/not-executable {input} {output}'\" %s",
             dir, suite);
    cr_assert_eq(abt_run(args, &out, &err), 2, "%s%s", out, err);
    HAS(err, "the shell could not run the program (exit status 126)");
    free(out), free(err);
    /* a program that runs and fails is a failed check, as before */
    snprintf(args, sizeof args, "plan -p \"external:cmd='sh -c \\\"exit 1\\\" {input} {output}'\" %s",
             suite);
    cr_assert_eq(abt_run(args, &out, &err), 1, "%s%s", out, err);
    HAS(err, "exited with status 1");
    free(out), free(err);
    free(dir);
}
