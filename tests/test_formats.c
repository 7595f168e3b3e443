/*
 * test_formats.c — the one table of suite formats (harness/formats/formats.h):
 * every command reads every registered format, folder walks take every
 * registered suffix, and a file is recognised by content before its name.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness/formats/formats.h"
#include "tests/support.h"

#define HAS(s, sub) cr_assert(strstr((s), (sub)) != NULL, "expected '%s' in:\n%s", (sub), (s))

/* Three tensors, inclusive ranges [0,1], [1,2], [2,3] after the half-open shift. */
static const char csv[] = "id,lower,upper,size\n0,0,2,32\n1,1,3,48\n2,2,4,16\n";

Test(formats, the_table_names_each_format_once) {
    cr_assert_not_null(abf_format_named("yaml"));
    cr_assert_not_null(abf_format_named("minimalloc"));
    cr_assert_not_null(abf_format_named("tflite"));
    cr_assert_null(abf_format_named("xml"));
    cr_assert(abf_format_suffix_known("a/b.YAML"));
    cr_assert(abf_format_suffix_known("x.csv"));
    cr_assert(abf_format_suffix_known("m.tflite"));
    cr_assert(abf_format_suffix_known("m.ONNX"));
    cr_assert_not_null(abf_format_named("onnx"));
    cr_assert(!abf_format_suffix_known("notes.md"));
    ab_buf b = {0};
    abf_format_list(&b);
    cr_assert_str_eq(b.s, "suite YAML (.yaml, .yml), MiniMalloc CSV (.csv), TFLite model (.tflite), "
                          "ONNX model (.onnx)");
    ab_buf_free(&b);
}

Test(formats, content_wins_over_the_name_and_yaml_is_the_fallback) {
    /* A TFLite header under a .yaml name is a TFLite model. */
    const char fake[] = "\x10\x00\x00\x00TFL3\x00\x00\x00\x00\x00\x00\x00\x00";
    char path[4096];
    snprintf(path, sizeof path, "%s", abt_write_tmp("", ".yaml"));
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fwrite(fake, 1, sizeof fake - 1, f);
    fclose(f);
    ab_error err;
    const abf_format *fm = abf_format_of(path, false, &err);
    cr_assert_not_null(fm);
    cr_assert_str_eq(fm->name, "tflite");
    /* An unknown name: YAML for the loaders, an error when strict (import). */
    snprintf(path, sizeof path, "%s", abt_write_tmp("suite: s\ntensors: []\n", ".txt"));
    fm = abf_format_of(path, false, &err);
    cr_assert_str_eq(fm->name, "yaml");
    cr_assert_null(abf_format_of(path, true, &err));
    HAS(err.msg, "unknown format");
    HAS(err.msg, "MiniMalloc CSV (.csv)");
}

Test(formats, every_command_reads_a_minimalloc_csv) {
    char path[4096];
    snprintf(path, sizeof path, "%s", abt_write_tmp(csv, ".csv"));
    const char *cmds[] = {"bound", "plan -p first-fit", "ilp --time 5", "export --format yaml",
                          "import"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char args[8192], *out, *err;
        snprintf(args, sizeof args, "%s '%s'", cmds[i], path);
        int rc = abt_run(args, &out, &err);
        cr_assert_eq(rc, 0, "arenabench %s: exit %d\n%s%s", args, rc, out, err);
        cr_assert(strstr(err, "YAML") == NULL, "%s read the CSV as YAML: %s", cmds[i], err);
        free(out), free(err);
    }
    /* The ILP's optimum of the three tensors: 32 and 48 and 16 pairwise chained,
     * peak live 80 at instructions 1 and 2. */
    char args[8192], *out, *err;
    snprintf(args, sizeof args, "ilp --time 5 '%s'", path);
    cr_assert_eq(abt_run(args, &out, &err), 0);
    HAS(out, "80");
    free(out), free(err);
}

Test(formats, run_walks_every_registered_suffix) {
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/a.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(csv, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/b.yaml", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("suite: b\ntensors:\n  - {name: t, size: 8, start: 0, end: 0}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/README.md", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("not a suite\n", f);
    fclose(f);
    char args[8192], *out, *err;
    snprintf(args, sizeof args, "run -q --db '%s/r.db' -p first-fit '%s'", dir, dir);
    int rc = abt_run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s%s", rc, out, err);
    free(out), free(err);
    snprintf(args, sizeof args, "report --db '%s/r.db' --format csv", dir);
    cr_assert_eq(abt_run(args, &out, &err), 0, "%s", err);
    HAS(out, "\n1,a,");
    HAS(out, "\n1,b,");
    free(out), free(err);
    free(dir);
}

Test(formats, run_imports_a_tflite_model) {
    const char *data = abt_shared_data();
    if (data == NULL) cr_skip("../shared/data is absent: no TFLite model to run");
    char model[4096];
    snprintf(model, sizeof model, "%s/models/face_detection_short_range.tflite", data);
    struct stat st;
    if (stat(model, &st) != 0) cr_skip("%s is absent", model);
    char *dir = abt_tmpdir();
    char args[12288], *out, *err;
    snprintf(args, sizeof args, "run -q --db '%s/r.db' -p first-fit '%s'", dir, model);
    int rc = abt_run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d\n%s%s", rc, out, err);
    cr_assert(strstr(err, "YAML") == NULL, "%s", err);
    free(out), free(err);
    free(dir);
}
