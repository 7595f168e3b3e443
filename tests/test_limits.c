/*
 * test_limits.c — the input budgets (harness/formats/formats.h): file size,
 * nesting depth, alias expansion and tensor count, each settable through its
 * ARENABENCH_MAX_* variable, each checked before the work it bounds with exit 2
 * and a message naming the place and the limit. Also the folder walk of `run`
 * over a symlink loop.
 *
 * Criterion runs each test in its own process, so setenv here touches no
 * other test.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/formats/formats.h"
#include "harness/formats/gen.h"
#include "harness/formats/suite.h"
#include "tests/support.h"

/* CPU seconds (user + system) this process has used. */
static double cpu_seconds(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
           ru.ru_stime.tv_usec / 1e6;
}

/* Loads text (named "s.yaml"), which must fail with AB_EINPUT and a message
 * containing each of the two fragments. */
static void assert_rejects(const char *text, size_t len, const char *a, const char *b) {
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    ab_status st = abf_suite_load_buffer("s.yaml", text, len, &p, &err);
    cr_assert_eq(st, AB_EINPUT, "status %d: %s", st, err.msg);
    cr_assert(strstr(err.msg, a) != NULL, "'%s' not in: %s", a, err.msg);
    cr_assert(strstr(err.msg, b) != NULL, "'%s' not in: %s", b, err.msg);
    cr_assert_eq(p.n, 0);
}

static void assert_loads(const char *text, size_t n) {
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abf_suite_load_buffer("s.yaml", text, strlen(text), &p, &err), AB_OK, "%s",
                 err.msg);
    cr_assert_eq(p.n, n);
    ab_problem_free(&p);
}

/* The audit's case: 400 KB of flow nesting, with an anchor and an alias in a
 * comment so the alias-counting pass reads the whole file. It took 113 s
 * before exit 2; now the depth limit stops it at the 64th bracket (the top
 * mapping is the first level). */
Test(limits, deep_flow_nesting_stops_at_the_depth_limit) {
    size_t depth = 200000;
    const char *head = "# &a *a\nsuite: d\ntensors: ";
    size_t hl = strlen(head), len = hl + 2 * depth + 1;
    char *text = malloc(len);
    cr_assert_not_null(text);
    memcpy(text, head, hl);
    memset(text + hl, '[', depth);
    memset(text + hl + depth, ']', depth);
    text[len - 1] = '\n';
    double t0 = cpu_seconds();
    assert_rejects(text, len, "s.yaml:3:73: nesting: ", "more than 64 deep (the limit "
                   "ARENABENCH_MAX_DEPTH)");
    double used = cpu_seconds() - t0;
    cr_assert_lt(used, 20.0, "%.1f s of CPU", used);
    free(text);
}

Test(limits, deep_block_nesting_in_an_unknown_place_stops_too) {
    /* Block mappings nested 100 deep under a key the schema does not know: the
     * counting pass (an alias is present) meets the depth before the schema. */
    char text[16384] = "suite: s\nx: &a 1\ny: *a\nz:\n";
    size_t n = strlen(text);
    for (int d = 0; d < 100; d++) {
        for (int k = 0; k < 2 * d + 2; k++) text[n++] = ' ';
        n += (size_t)snprintf(text + n, sizeof text - n, "k%d:\n", d);
    }
    assert_rejects(text, n, "s.yaml:", "ARENABENCH_MAX_DEPTH");
}

Test(limits, the_depth_limit_is_settable) {
    const char *ok = "suite: s\ntensors:\n  - {name: a, shape: [2, 2], dtype: int8, start: 0, end: 1}\n";
    assert_loads(ok, 1);
    setenv("ARENABENCH_MAX_DEPTH", "3", 1);
    assert_rejects(ok, strlen(ok), "s.yaml:3:22: nesting: ", "more than 3 deep");
    setenv("ARENABENCH_MAX_DEPTH", "4", 1);
    assert_loads(ok, 1);
}

Test(limits, a_bad_limit_value_names_its_variable) {
    setenv("ARENABENCH_MAX_TENSORS", "12x", 1);
    const char *ok = "suite: s\ntensors:\n  - {name: a, size: 1, start: 0, end: 1}\n";
    assert_rejects(ok, strlen(ok), "ARENABENCH_MAX_TENSORS", "expected a positive integer, got '12x'");
    setenv("ARENABENCH_MAX_TENSORS", "0", 1);
    assert_rejects(ok, strlen(ok), "ARENABENCH_MAX_TENSORS", "got '0'");
}

/* The audit's 48-byte generator bomb: refused before any tensor is made. */
Test(limits, generator_n_above_the_tensor_limit_is_refused_before_allocating) {
    const char *bomb = "suite: g\ngenerate: {kind: random, n: 100000000}\n";
    double t0 = cpu_seconds();
    assert_rejects(bomb, strlen(bomb), "s.yaml:2:11: generate: ",
                   "parameter n: 100000000 tensors is above the limit of 1000000 "
                   "(ARENABENCH_MAX_GENERATED)");
    cr_assert_lt(cpu_seconds() - t0, 20.0);
    /* issue 30's 9,999,999: under the suite limit, over the generated one
     * (about 2.7 GB at 270 bytes a tensor, formats.h) */
    const char *big = "suite: g\ngenerate: {kind: random, n: 9999999}\n";
    assert_rejects(big, strlen(big), "s.yaml:2:11: generate: ",
                   "parameter n: 9999999 tensors is above the limit of 1000000 "
                   "(ARENABENCH_MAX_GENERATED)");
    setenv("ARENABENCH_MAX_GENERATED", "20000000", 1);
    assert_rejects(bomb, strlen(bomb), "s.yaml:2:11: generate: ",
                   "above the limit of 10000000 (ARENABENCH_MAX_TENSORS)");
    setenv("ARENABENCH_MAX_GENERATED", "-3", 1);
    assert_rejects(bomb, strlen(bomb), "ARENABENCH_MAX_GENERATED", "expected a positive integer");
    unsetenv("ARENABENCH_MAX_GENERATED");
    setenv("ARENABENCH_MAX_TENSORS", "99", 1);
    const char *small = "suite: g\ngenerate: {kind: random, n: 100}\n";
    assert_rejects(small, strlen(small), "s.yaml:2:11: generate: ", "above the limit of 99");
}

/* Generators whose count follows from other parameters (fanout, resnet,
 * transformer) are refused before any tensor is made, naming the product. */
Test(limits, generator_parameters_asking_too_many_tensors_are_refused_before_allocating) {
    const char *fan = "suite: g\ngenerate: {kind: fanout, blocks: 1000000, branches: 64, depth: 64}\n";
    double t0 = cpu_seconds();
    assert_rejects(fan, strlen(fan), "s.yaml:2:11: generate: ",
                   "parameters blocks x (branches x depth + 1): 4097000000 tensors or more, above "
                   "the limit of 1000000 (ARENABENCH_MAX_GENERATED)");
    cr_assert_lt(cpu_seconds() - t0, 20.0);
    setenv("ARENABENCH_MAX_TENSORS", "10", 1);
    const char *resnet = "suite: g\ngenerate: {kind: resnet, blocks: 1000}\n";
    assert_rejects(resnet, strlen(resnet), "s.yaml:2:11: generate: ",
                   "parameters 3 x blocks: 3000 tensors or more, above the limit of 10");
    const char *tr = "suite: g\ngenerate: {kind: transformer, blocks: 1}\n";
    assert_rejects(tr, strlen(tr), "s.yaml:2:11: generate: ", "parameters 11 x blocks: 11 tensors");
}

/* The others stop as the tensors are made, at the first one past the limit. */
Test(limits, generators_without_a_count_stop_at_the_tensor_limit) {
    setenv("ARENABENCH_MAX_TENSORS", "10", 1);
    const char *unet = "suite: g\ngenerate: {kind: unet, levels: 6}\n";
    assert_rejects(unet, strlen(unet), "s.yaml:2:11: generate: ",
                   "more than 10 tensors (the limit ARENABENCH_MAX_TENSORS)");
    ab_params none = {0};
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_generate("unet", &none, NULL, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, "ARENABENCH_MAX_TENSORS") != NULL, "%s", err.msg);
}

Test(limits, listed_tensors_above_the_limit_are_refused_at_the_first_extra_one) {
    setenv("ARENABENCH_MAX_TENSORS", "2", 1);
    /* The writer's form (the fast path) and a block form (libyaml). */
    const char *flow = "suite: s\ntensors:\n  - {name: a, size: 1, start: 0, end: 1}\n"
                       "  - {name: b, size: 1, start: 0, end: 1}\n"
                       "  - {name: c, size: 1, start: 0, end: 1}\n";
    assert_rejects(flow, strlen(flow), "s.yaml:5:5: tensors[2] (name 'c'): ",
                   "more than 2 tensors (the limit ARENABENCH_MAX_TENSORS)");
    const char *block = "suite: s\ntensors:\n- name: a\n  size: 1\n  start: 0\n  end: 1\n"
                        "- name: b\n  size: 1\n  start: 0\n  end: 1\n"
                        "- name: c\n  size: 1\n  start: 0\n  end: 1\n";
    assert_rejects(block, strlen(block), "s.yaml:11:3: tensors[2] (name 'c'): ",
                   "ARENABENCH_MAX_TENSORS");
    setenv("ARENABENCH_MAX_TENSORS", "3", 1);
    assert_loads(flow, 3);
}

Test(limits, aliases_expanding_past_the_alias_limit_are_refused) {
    const char *text = "suite: s\nx: &a [1, 2, 3, 4]\ny: [*a, *a]\n"
                       "tensors:\n  - {name: a, size: 1, start: 0, end: 1}\n";
    setenv("ARENABENCH_MAX_ALIAS_NODES", "8", 1);
    assert_rejects(text, strlen(text), "s.yaml:3:9: alias: ",
                   "alias expansion exceeds a limit of 8 nodes (ARENABENCH_MAX_ALIAS_NODES)");
}

Test(limits, a_file_above_the_size_limit_is_refused_before_reading) {
    const char *ok = "suite: s\ntensors:\n  - {name: a, size: 1, start: 0, end: 1}\n";
    char path[4096];
    snprintf(path, sizeof path, "%s", abt_write_tmp(ok, ".yaml"));
    setenv("ARENABENCH_MAX_FILE_BYTES", "20", 1);
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_suite_load(path, &p, &err), AB_EINPUT);
    cr_assert(strstr(err.msg, path) == err.msg, "%s", err.msg);
    cr_assert(strstr(err.msg, "bytes, above the limit of 20 (ARENABENCH_MAX_FILE_BYTES)"), "%s",
              err.msg);
    assert_rejects(ok, strlen(ok), "s.yaml: the file has", "above the limit of 20");
    setenv("ARENABENCH_MAX_FILE_BYTES", "1000", 1);
    cr_assert_eq(abf_suite_load(path, &p, &err), AB_OK, "%s", err.msg);
    ab_problem_free(&p);
}

/* `run` loads suites in the parent: the bomb must stop there, exit 2. */
Test(limits, run_refuses_the_generator_bomb_with_exit_2) {
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/bomb.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("suite: g\ngenerate: {kind: random, n: 100000000}\n", f);
    fclose(f);
    char args[8192], *err = NULL;
    snprintf(args, sizeof args, "run -q --db %s/r.db -p first-fit %s", dir, path);
    int rc = abt_run(args, NULL, &err);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "bomb.yaml:2:11: generate: parameter n") != NULL, "%s", err);
    free(err);
    free(dir);
}

/* Finding 9a: a symlink loop inside a suites folder made the whole run exit 2
 * (the walk followed it until the path was too long). Now it is skipped with
 * a warning naming it, and the suites beside it run. */
Test(limits, run_skips_a_symlink_loop_in_a_folder_with_a_warning) {
    char *dir = abt_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/suites", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/suites/sub", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/suites/sub/a.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("suite: a\ntensors:\n  - {name: a, size: 8, start: 0, end: 1}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/suites/sub/loop", dir);
    cr_assert_eq(symlink("..", path), 0);
    char args[8192], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "run --db %s/r.db -p first-fit %s/suites", dir, dir);
    int rc = abt_run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "warning: ") != NULL && strstr(err, "/suites/sub/loop: a folder "
                                                            "already searched") != NULL,
              "%s", err);
    cr_assert(strstr(out, "1 job, 1 ok") != NULL || strstr(err, "1 job, 1 ok") != NULL, "%s%s", out, err);
    free(out);
    free(err);
    free(dir);
}

/* ---- special files: pipes, FIFOs, devices (issue "Trust under load and
 * faults"). The size limit was checked from the size on disk, for regular
 * files only; anything else was read whole first: `bound /dev/zero` grew
 * without end, and so did a FIFO or a pipe. */

/* A FIFO whose writer offers 16 MiB of a suite under a limit of 4096 bytes:
 * refused, exit 2's status, and the writer stopped (EPIPE) well before its
 * end, since the loader reads no more than 4097 bytes and closes. Before,
 * the loader read all 16 MiB and only then refused. */
Test(limits, a_fifo_above_the_size_limit_is_read_no_further_than_the_limit) {
    char *dir = abt_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/big.yaml", dir);
    setenv("ARENABENCH_MAX_FILE_BYTES", "4096", 1);
    size_t total = (size_t)16 << 20;
    abt_writer w = abt_fifo_writer(path, "suite: s\ntensors:\n", total);
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abf_suite_load(path, &p, &err), AB_EINPUT, "%s", err.msg);
    long written = abt_fifo_writer_end(w);
    cr_assert(strstr(err.msg, path) == err.msg, "%s", err.msg);
    cr_assert(strstr(err.msg, ": the file has at least 4097 bytes, above the limit of 4096 "
                              "(ARENABENCH_MAX_FILE_BYTES)") != NULL, "%s", err.msg);
    cr_assert(written >= 4097 && written < (long)total, "the writer wrote %ld bytes", written);
    cr_assert_eq(p.n, 0);
    free(dir);
}

/* A suite read from a FIFO (or a pipe, `plan <(gen ...)`) through the
 * format table loads: its format is taken from its name, not sniffed, since
 * sniffing read its first bytes on a first open, and the loader's second
 * open then waited for a writer that had left (it hung; the timeout is a
 * safety net, not a race: the load takes milliseconds). */
Test(limits, a_suite_from_a_fifo_loads_through_the_format_table, .timeout = 120) {
    char *dir = abt_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/s.yaml", dir);
    const char *text = "suite: s\ntensors:\n  - {name: a, size: 8, start: 0, end: 1}\n";
    abt_writer w = abt_fifo_writer(path, text, strlen(text));
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abf_load_problem(path, NULL, &p, &err), AB_OK, "%s", err.msg);
    cr_assert_eq(abt_fifo_writer_end(w), (long)strlen(text));
    cr_assert_eq(p.n, 1);
    ab_problem_free(&p);
    free(dir);
}

/* /dev/zero named as a suite: refused at the limit, exit 2 from the CLI. */
Test(limits, dev_zero_is_refused_at_the_size_limit) {
    setenv("ARENABENCH_MAX_FILE_BYTES", "4096", 1);
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    cr_assert_eq(abf_load_problem("/dev/zero", NULL, &p, &err), AB_EINPUT, "%s", err.msg);
    cr_assert_str_eq(err.msg, "/dev/zero: the file has at least 4097 bytes, above the limit of "
                              "4096 (ARENABENCH_MAX_FILE_BYTES)");
    char *err_text = NULL;
    int rc = abt_run("bound /dev/zero", NULL, &err_text);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, err_text);
    cr_assert(strstr(err_text, "/dev/zero: the file has at least 4097 bytes, above the limit of "
                               "4096 (ARENABENCH_MAX_FILE_BYTES)") != NULL, "%s", err_text);
    free(err_text);
    rc = abt_run("plan -p first-fit /dev/zero", NULL, &err_text);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, err_text);
    free(err_text);
}

/* `run DIR`: a FIFO (no writer: opening it to read would wait forever) and a
 * symlink to /dev/zero (stat, not lstat, sees the device), both named like
 * suites, are skipped with a warning naming each; the suite beside them runs.
 * Before, the run hung on the FIFO, and read /dev/zero in its own parent
 * process without end. (The timeout is a safety net against that hang.) */
Test(limits, run_skips_fifos_and_devices_in_a_folder_with_a_warning, .timeout = 120) {
    char *dir = abt_tmpdir();
    char path[4200];
    snprintf(path, sizeof path, "%s/suites", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/suites/a.yaml", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("suite: a\ntensors:\n  - {name: a, size: 8, start: 0, end: 1}\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/suites/f.yaml", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    snprintf(path, sizeof path, "%s/suites/z.yaml", dir);
    cr_assert_eq(symlink("/dev/zero", path), 0);
    char args[8400], *out = NULL, *err = NULL;
    snprintf(args, sizeof args, "run --db %s/r.db -p first-fit %s/suites", dir, dir);
    int rc = abt_run(args, &out, &err);
    cr_assert_eq(rc, 0, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "/suites/f.yaml: a FIFO, not a regular file; skipped") != NULL, "%s", err);
    cr_assert(strstr(err, "/suites/z.yaml: a character device, not a regular file; skipped") !=
                  NULL, "%s", err);
    cr_assert(strstr(out, "1 job, 1 ok") != NULL || strstr(err, "1 job, 1 ok") != NULL, "%s%s",
              out, err);
    free(out);
    free(err);
    free(dir);
}

/* Named on the command line, /dev/zero is read as asked, within the limit:
 * a bad input, exit 2, before any job. */
Test(limits, run_refuses_a_named_device_over_the_limit_with_exit_2) {
    setenv("ARENABENCH_MAX_FILE_BYTES", "4096", 1);
    char *dir = abt_tmpdir();
    char args[4400], *err = NULL;
    snprintf(args, sizeof args, "run -q --db %s/r.db -p first-fit /dev/zero", dir);
    int rc = abt_run(args, NULL, &err);
    cr_assert_eq(rc, 2, "exit %d: %s", rc, err);
    cr_assert(strstr(err, "/dev/zero: the file has at least 4097 bytes, above the limit of 4096") !=
                  NULL, "%s", err);
    free(err);
    free(dir);
}

/* Suites are UTF-8: UTF-16 and UTF-32 (with or without a byte-order mark),
 * which libyaml alone would read, are refused at 1:1 naming the encoding; a
 * UTF-8 byte-order mark still loads (issue 30, 13). */
Test(limits, utf16_and_utf32_suites_are_refused_naming_the_encoding) {
    const char *ascii = "suite: u\ntensors:\n  - {name: a, size: 4, start: 0, end: 1}\n";
    size_t n = strlen(ascii);
    char le[256], be[256], bare[256], u32[512];
    le[0] = (char)0xff, le[1] = (char)0xfe, be[0] = (char)0xfe, be[1] = (char)0xff;
    u32[0] = (char)0xff, u32[1] = (char)0xfe, u32[2] = 0, u32[3] = 0;
    for (size_t i = 0; i < n; i++) {
        le[2 + 2 * i] = ascii[i], le[3 + 2 * i] = 0;
        be[2 + 2 * i] = 0, be[3 + 2 * i] = ascii[i];
        bare[2 * i] = ascii[i], bare[2 * i + 1] = 0;
        u32[4 + 4 * i] = ascii[i], u32[5 + 4 * i] = u32[6 + 4 * i] = u32[7 + 4 * i] = 0;
    }
    assert_rejects(le, 2 + 2 * n, "s.yaml:1:1: the file is UTF-16", "suites must be UTF-8");
    assert_rejects(be, 2 + 2 * n, "s.yaml:1:1: the file is UTF-16", "byte-order mark");
    assert_rejects(bare, 2 * n, "s.yaml:1:1: the file is not UTF-8 text", "NUL byte");
    assert_rejects(u32, 4 + 4 * n, "s.yaml:1:1: the file is UTF-32", "suites must be UTF-8");
    char bom8[256] = "\xef\xbb\xbf";
    memcpy(bom8 + 3, ascii, n + 1);
    assert_loads(bom8, 1);
}
