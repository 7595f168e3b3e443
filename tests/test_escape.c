/*
 * test_escape.c — escaping by output (DESIGN.md §5): a suite whose name,
 * description and tensor names are hostile (HTML, Markdown, terminal escape
 * sequences, spreadsheet formulas) goes through plan, run, report md, html,
 * csv and json and compare, and nothing hostile comes out raw; ids that are
 * not UTF-8 are refused at load with file:line:col.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "tests/support.h"

/* A suite with hostile names, written in a fresh folder; *dir owned. */
static const char *hostile_suite(char **dir) {
    static char path[512];
    *dir = abt_tmpdir();
    snprintf(path, sizeof path, "%s/hostile.yaml", *dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("suite: \"<script>alert(1)</script> | pipe `tick` [link](javascript:x) "
          "\\e[31mRED\\e]0;title\\a =cmd|' /C calc'!A0 tab\\tcr\\rlf\\nend\"\n"
          "description: \"<img src=x onerror=alert(1)>\"\n"
          "tensors:\n"
          "  - {name: \"<img src=x onerror=alert(1)>\", size: 128, start: 0, end: 2}\n"
          "  - {name: \"=cmd|' /C calc'!A0\", size: 64, start: 1, end: 3}\n"
          "  - {name: \"\\e[31mred\\e]0;t\\a\", size: 96, start: 2, end: 3}\n"
          "  - {name: \"@SUM(1)\", size: 100, start: 3, end: 4}\n"
          "  - {name: \"+1\\nline\", size: 28, start: 3, end: 4}\n",
          f);
    cr_assert_eq(fclose(f), 0);
    return path;
}

/* No escape character (nor BEL) anywhere in s. */
static void no_control(const char *what, const char *s) {
    cr_expect_null(strchr(s, '\x1b'), "%s: a raw ESC: %s", what, s);
    cr_expect_null(strchr(s, '\a'), "%s: a raw BEL: %s", what, s);
}

/* No raw HTML tag a browser or Markdown viewer would run. */
static void no_tags(const char *what, const char *s) {
    cr_expect_null(strstr(s, "<script>"), "%s: a raw <script>", what);
    cr_expect_null(strstr(s, "<img src"), "%s: a raw <img>", what);
}

static char *run_out(const char *args) {
    char *out = NULL, *err = NULL;
    int rc = abt_run(args, &out, &err);
    cr_assert_eq(rc, 0, "arenabench %s: exit %d\n%s%s", args, rc, out, err);
    no_control(args, err);
    free(err);
    return out;
}

Test(escape, hostile_names_through_every_output) {
    char *dir;
    const char *suite = hostile_suite(&dir);
    char args[2048];

    snprintf(args, sizeof args, "plan -p first-fit %s", suite);
    char *plan = run_out(args);
    no_control("plan", plan);
    cr_expect_not_null(strstr(plan, "\\x1B[31mRED"), "plan: the escape is not shown: %s", plan);

    char *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "run --db %s/r.db -p first-fit -p best-fit %s", dir, suite);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    no_control("run stdout", out);
    no_control("run stderr", err);
    free(out);
    free(err);

    snprintf(args, sizeof args, "report --db %s/r.db --format md", dir);
    char *md = run_out(args);
    no_control("md", md);
    no_tags("md", md);
    cr_expect_not_null(strstr(md, "&lt;script>"), "md: %s", md);
    cr_expect_null(strstr(md, "[link](javascript"), "md: a raw link");
    cr_expect_null(strstr(md, " `tick`"), "md: raw code");
    cr_expect_not_null(strstr(md, "> \\| pipe"), "md: a raw pipe");

    snprintf(args, sizeof args, "report --db %s/r.db --format html", dir);
    char *html = run_out(args);
    no_control("html", html);
    no_tags("html", html);

    snprintf(args, sizeof args, "report --db %s/r.db --format csv", dir);
    char *csv = run_out(args);
    cr_expect_null(strstr(csv, ",=cmd"), "csv: a formula cell: %s", csv);
    cr_expect_null(strstr(csv, ",\"=cmd"), "csv: a formula cell: %s", csv);
    no_control("csv", csv);
    /* tab, CR and LF inside a cell as \xNN (README), never raw */
    cr_expect_null(strchr(csv, '\t'), "csv: a raw tab: %s", csv);
    cr_expect_null(strchr(csv, '\r'), "csv: a raw CR: %s", csv);
    cr_expect_not_null(strstr(csv, "tab\\x09cr\\x0Dlf\\x0Aend"), "csv: %s", csv);

    snprintf(args, sizeof args, "report --db %s/r.db --format json", dir);
    char *json = run_out(args);
    no_control("json", json);

    snprintf(args, sizeof args, "compare --db %s/r.db --base 1 --head 1", dir);
    out = err = NULL;
    abt_run(args, &out, &err);
    no_control("compare", out);
    no_control("compare stderr", err);
    free(out);
    free(err);

    /* an invalid plan of the hostile tensors: the checker's message names them */
    char planpath[600];
    snprintf(planpath, sizeof planpath, "%s/bad_plan.csv", dir);
    FILE *f = fopen(planpath, "w");
    cr_assert_not_null(f);
    fputs("tensor,offset\n<img src=x onerror=alert(1)>,0\n\"=cmd|' /C calc'!A0\",0\n"
          "\"\x1b[31mred\x1b]0;t\a\",0\n@SUM(1),0\n\"+1\nline\",0\n", f);
    cr_assert_eq(fclose(f), 0);
    snprintf(args, sizeof args, "validate %s %s", suite, planpath);
    out = err = NULL;
    cr_expect_eq(abt_run(args, &out, &err), 1, "arenabench %s\n%s%s", args, out, err);
    no_control("validate", out);
    no_control("validate stderr", err);
    free(out);
    free(err);

    free(plan);
    free(md);
    free(html);
    free(csv);
    free(json);
    free(dir);
}

Test(escape, each_escape_on_its_own) {
    ab_buf b = {0};
    ab_buf_csv(&b, "=1+1");
    cr_expect_str_eq(b.s, "\"'=1+1\"");
    ab_buf_free(&b);
    const char *formulas[] = {"+1", "-1", "@SUM(A1)", "\tx", "\rx"};
    for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++) {
        ab_buf_csv(&b, formulas[i]);
        cr_expect_eq(strncmp(b.s, "\"'", 2), 0, "%s -> %s", formulas[i], b.s);
        ab_buf_free(&b);
    }
    ab_buf_csv(&b, "a\x1b[31m\"b\",c");
    cr_expect_str_eq(b.s, "\"a\\x1B[31m\"\"b\"\",c\"");
    ab_buf_free(&b);
    ab_buf_csv(&b, "a\tb\r\nc");
    cr_expect_str_eq(b.s, "a\\x09b\\x0D\\x0Ac");
    ab_buf_free(&b);
    ab_buf_csv(&b, "plain");
    cr_expect_str_eq(b.s, "plain");
    ab_buf_free(&b);
    ab_buf_md(&b, "<b>|`x`[l](j)\x1b\n\xff");
    cr_expect_str_eq(b.s, "&lt;b>\\|\\`x\\`\\[l\\](j)\\\\x1B \\\\xFF");
    ab_buf_free(&b);
    ab_buf_xml(&b, "<a href='x'>\x1b\xff");
    cr_expect_str_eq(b.s, "&lt;a href=&#39;x&#39;&gt;&#xFFFD;&#xFFFD;");
    ab_buf_free(&b);
    ab_buf_term(&b, "a\x1b]0;t\x07\n\xc2\x9b\xff\xc3\xa9");
    cr_expect_str_eq(b.s, "a\\x1B]0;t\\x07\\x0A\\xC2\\x9B\\xFF\xc3\xa9");
    ab_buf_free(&b);
    cr_expect_str_eq(ab_term("plain"), "plain");
}

Test(escape, csv_ids_not_utf8_refused_at_load_with_a_place) {
    const char *csv = abt_write_tmp("id,lower,upper,size\nok,0,2,64\nb\xff,1,3,32\n", ".csv");
    char path[512];
    snprintf(path, sizeof path, "%s", csv);
    const char *cmds[] = {"bound", "plan -p first-fit", "import"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char args[1024], *err = NULL, want[600];
        snprintf(args, sizeof args, "%s %s", cmds[i], path);
        int rc = abt_run(args, NULL, &err);
        cr_expect_eq(rc, 2, "arenabench %s: exit %d\n%s", args, rc, err);
        snprintf(want, sizeof want, "%s:3:2:", path);
        cr_expect_not_null(strstr(err, want), "arenabench %s: no %s in: %s", args, want, err);
        free(err);
    }
}

/* Every reader refuses bytes that are not UTF-8 the same way: exit 2 and
 * file:line:col (YAML through libyaml's own check, the plan CSV reader). */
Test(escape, yaml_and_plan_csv_not_utf8_refused_with_a_place) {
    char *dir = abt_tmpdir();
    char yaml[600], plan[600], args[1400], *err = NULL;
    snprintf(yaml, sizeof yaml, "%s/s.yaml", dir);
    snprintf(plan, sizeof plan, "%s/p.csv", dir);
    FILE *f = fopen(yaml, "w");
    cr_assert_not_null(f);
    fputs("suite: s\ntensors:\n  - {name: a\xff, size: 1, start: 0, end: 1}\n", f);
    cr_assert_eq(fclose(f), 0);
    snprintf(args, sizeof args, "bound %s", yaml);
    cr_expect_eq(abt_run(args, NULL, &err), 2, "%s", err);
    char want[700];
    snprintf(want, sizeof want, "%s:3:", yaml);
    cr_expect_not_null(strstr(err, want), "no %s in: %s", want, err);
    free(err);
    f = fopen(plan, "w");
    cr_assert_not_null(f);
    fputs("tensor,offset\nx,0\nb\xff,0\n", f);
    cr_assert_eq(fclose(f), 0);
    snprintf(args, sizeof args, "validate %s %s", abt_src("suites/examples/diamond.yaml"), plan);
    cr_expect_eq(abt_run(args, NULL, &err), 2, "%s", err);
    snprintf(want, sizeof want, "%s:3:2:", plan);
    cr_expect_not_null(strstr(err, want), "no %s in: %s", want, err);
    free(err);
    free(dir);
}
