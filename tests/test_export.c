/*
 * test_export.c — `arenabench export SUITE --plan PLAN` (harness/cli/export.c,
 * harness/formats/plan_out.c, tflite_offline.c), each format read back:
 * the C header compiled by the system compiler and run, the JSON and the
 * MiniMalloc CSV parsed, the rewritten .tflite parsed by our own reader and
 * its offline plan checked by the oracle. Models are a tiny one built here
 * byte by byte and the shared face-detection model (skipped when absent).
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/minimalloc.h"
#include "harness/formats/suite.h"
#include "harness/formats/tflite.h"
#include "oracle/check.h"
#include "results/store/sha256.h"
#include "tests/support.h"

/* ---- helpers ------------------------------------------------------------------------ */

static char *dir_;

static const char *tmp(const char *name) {
    static char path[8][4096];
    static int slot;
    if (dir_ == NULL) dir_ = abt_tmpdir();
    char *p = path[slot++ % 8];
    snprintf(p, 4096, "%s/%s", dir_, name);
    return p;
}

static void put(const char *path, const void *bytes, size_t n) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    cr_assert_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static int run(char **out, char **err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run(char **out, char **err, const char *fmt, ...) {
    char args[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return abt_run(args, out, err);
}

/* A suite whose names collide once made identifiers, and need escaping. */
static const char *const suite_yaml =
    "suite: 3d-tricky.suite\n"
    "tensors:\n"
    "  - {name: a-b, size: 100, start: 0, end: 2}\n"
    "  - {name: a_b, size: 40, start: 1, end: 3}\n"
    "  - {name: A.b, size: 60, start: 3, end: 4, align: 4}\n"
    "  - {name: 'x*/y?\"q', size: 8, start: 4, end: 5}\n"
    "  - {name: '9 lives', size: 30, start: 0, end: 0}\n";

/* A valid plan of it (arena 140: a-b [0,100), a_b [100,140), A.b [0,60),
 * x [60,68), 9 lives [100,130)). */
static const char *const plan_csv =
    "tensor,offset\n"
    "a-b,0\n"
    "a_b,100\n"
    "A.b,0\n"
    "\"x*/y?\"\"q\",60\n"
    "9 lives,100\n";

static const char *const names[] = {"a-b", "a_b", "A.b", "x*/y?\"q", "9 lives"};
static const int64_t offsets[] = {0, 100, 0, 60, 100};
/* The identifiers plan_out.h's rules give. */
static const char *const idents[] = {"_3D_TRICKY_SUITE_OFFSET_A_B", "_3D_TRICKY_SUITE_OFFSET_A_B_2",
                                     "_3D_TRICKY_SUITE_OFFSET_A_B_3",
                                     "_3D_TRICKY_SUITE_OFFSET_X_Y_Q",
                                     "_3D_TRICKY_SUITE_OFFSET_9_LIVES"};

static void write_suite_and_plan(void) {
    put(tmp("s.yaml"), suite_yaml, strlen(suite_yaml));
    put(tmp("p.csv"), plan_csv, strlen(plan_csv));
}

/* ---- c-header ---------------------------------------------------------------------- */

Test(export, c_header_compiles_and_a_program_reading_it_prints_the_plans_offsets) {
    write_suite_and_plan();
    char *out = NULL, *err = NULL;
    cr_assert_eq(run(&out, &err, "export '%s' --plan '%s' --format c-header -o '%s'",
                     tmp("s.yaml"), tmp("p.csv"), tmp("plan.h")), 0, "%s", err);
    free(out), free(err);
    char *h = abt_slurp(tmp("plan.h"), NULL);
    cr_assert_not_null(h);
    cr_assert(strstr(h, "#ifndef _3D_TRICKY_SUITE_PLAN_H") != NULL, "%s", h);
    cr_assert(strstr(h, "#define _3D_TRICKY_SUITE_ARENA_SIZE 140u") != NULL, "%s", h);
    cr_assert(strstr(h, "/* a-b: 100 bytes, live [0, 2] */") != NULL, "%s", h);
    cr_assert(strstr(h, "/* x*_y_\"q: 8 bytes, live [4, 5] */") != NULL, "%s", h);
    cr_assert(strstr(h, "_Static_assert") != NULL);

    /* the system compiler takes it (and twice: the guard), in C11 and as C++ syntax */
    char prog[4096];
    int n = snprintf(prog, sizeof prog, "#include <stdio.h>\n#include \"%s\"\n#include \"%s\"\n"
                     "int main(void) {\n", tmp("plan.h"), tmp("plan.h"));
    for (size_t i = 0; i < 5; i++)
        n += snprintf(prog + n, sizeof prog - (size_t)n,
                      "  printf(\"%zu %%llu\\n\", (unsigned long long)%s);\n", i, idents[i]);
    snprintf(prog + n, sizeof prog - (size_t)n,
             "  printf(\"arena %%llu\\n\", (unsigned long long)_3D_TRICKY_SUITE_ARENA_SIZE);\n"
             "  return 0;\n}\n");
    put(tmp("main.c"), prog, strlen(prog));
    char cmd[16384];
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only '%s'",
             AB_C_COMPILER, tmp("plan.h"));
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -Wall -Werror -o '%s' '%s' && '%s' > '%s'",
             AB_C_COMPILER, tmp("main"), tmp("main.c"), tmp("main"), tmp("main.out"));
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char *got = abt_slurp(tmp("main.out"), NULL);
    cr_assert_not_null(got);
    const char *p = got;
    for (size_t i = 0; i < 5; i++) {
        size_t k;
        unsigned long long v;
        int used;
        cr_assert_eq(sscanf(p, "%zu %llu\n%n", &k, &v, &used), 2, "%s", got);
        cr_assert_eq(k, i);
        cr_assert_eq((int64_t)v, offsets[i], "%s: %llu, want %" PRId64, names[i], v, offsets[i]);
        p += used;
    }
    unsigned long long arena;
    cr_assert_eq(sscanf(p, "arena %llu", &arena), 1, "%s", got);
    cr_assert_eq(arena, 140);
    free(got);

    /* the static assertions are real: a smaller arena does not compile */
    char *small = strstr(h, "ARENA_SIZE 140u");
    cr_assert_not_null(small);
    memcpy(small, "ARENA_SIZE 139u", 15);
    put(tmp("bad.h"), h, strlen(h));
    snprintf(cmd, sizeof cmd, "'%s' -std=c11 -fsyntax-only '%s' 2>/dev/null", AB_C_COMPILER,
             tmp("bad.h"));
    cr_assert_neq(system(cmd), 0, "a header with an arena too small compiled");
    free(h);
}

/* ---- json and minimalloc -------------------------------------------------------------- */

Test(export, json_names_the_suite_its_hash_and_every_offset) {
    write_suite_and_plan();
    char *out = NULL, *err = NULL;
    cr_assert_eq(run(&out, &err, "export '%s' --plan '%s' --format json", tmp("s.yaml"),
                     tmp("p.csv")), 0, "%s", err);
    ab_problem p;
    ab_error e = {0};
    ab_buf canon = {0};
    char hash[ABR_SHA256_HEX], want[256];
    cr_assert_eq(abh_suite_load(tmp("s.yaml"), &p, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(abh_suite_render(&p, &canon, &e), AB_OK);
    abr_sha256_hex(canon.s, canon.n, hash);
    snprintf(want, sizeof want, "\"suite\": {\"name\": \"3d-tricky.suite\", \"hash\": \"%s\"", hash);
    cr_assert(strstr(out, want) != NULL, "%s\nwant %s", out, want);
    cr_assert(strstr(out, "\"arena\": 140,") != NULL, "%s", out);
    cr_assert(strstr(out, "{\"name\": \"x*/y?\\\"q\", \"size\": 8, \"start\": 4, \"end\": 5, "
                          "\"align\": 1, \"kind\": \"intermediate\", \"offset\": 60}") != NULL,
              "%s", out);
    cr_assert(strstr(out, "{\"name\": \"A.b\", \"size\": 60, \"start\": 3, \"end\": 4, "
                          "\"align\": 4, \"kind\": \"intermediate\", \"offset\": 0}") != NULL,
              "%s", out);
    /* same input, same bytes */
    char *again = NULL;
    cr_assert_eq(run(&again, NULL, "export '%s' --plan '%s' --format json", tmp("s.yaml"),
                     tmp("p.csv")), 0);
    cr_assert_str_eq(out, again);
    free(again), free(out), free(err);
    ab_buf_free(&canon);
    ab_problem_free(&p);
}

Test(export, minimalloc_with_offsets_reads_back_as_the_same_plan) {
    write_suite_and_plan();
    char *err = NULL;
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format minimalloc -o '%s'",
                     tmp("s.yaml"), tmp("p.csv"), tmp("mm.csv")), 0, "%s", err);
    free(err);
    ab_problem p;
    ab_plan pl;
    ab_error e = {0};
    cr_assert_eq(abh_suite_load(tmp("s.yaml"), &p, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(abh_minimalloc_plan_read(tmp("mm.csv"), &p, &pl, &e), AB_OK, "%s", e.msg);
    cr_assert_eq(pl.n, 5);
    for (size_t i = 0; i < pl.n; i++)
        cr_assert_eq(pl.v[i].offset, offsets[pl.v[i].tensor], "%s", names[pl.v[i].tensor]);
    /* and a MiniMalloc plan is taken as --plan too */
    char *out = NULL;
    cr_assert_eq(run(&out, &err, "export '%s' --plan '%s' --format json", tmp("s.yaml"),
                     tmp("mm.csv")), 0, "%s", err);
    cr_assert(strstr(out, "\"arena\": 140,") != NULL, "%s", out);
    free(out), free(err);
    ab_plan_free(&pl);
    ab_problem_free(&p);
}

Test(export, an_invalid_plan_exits_1_and_writes_nothing) {
    write_suite_and_plan();
    const char *bad = "tensor,offset\na-b,0\na_b,50\nA.b,0\n\"x*/y?\"\"q\",60\n9 lives,100\n";
    put(tmp("bad.csv"), bad, strlen(bad));
    char *err = NULL;
    cr_assert_eq(run(NULL, &err, "export '%s' --plan '%s' --format c-header -o '%s'",
                     tmp("s.yaml"), tmp("bad.csv"), tmp("never.h")), 1);
    cr_assert(strstr(err, "not valid") != NULL && strstr(err, "a-b") != NULL, "%s", err);
    free(err);
    cr_assert_null(fopen(tmp("never.h"), "r"));
}

Test(export, usage_errors_exit_2) {
    write_suite_and_plan();
    static const struct {
        bool plan;
        const char *args, *want;
    } cases[] = {
        {false, "--format c-header", "--plan PLAN"},
        {true, "--format yaml", "writes a suite"},
        {true, "--format svg", "not 'svg'"},
        {true, "--format tflm-offline -o x.tflite", "needs the model"},
        {false, "--model m.tflite", "--model and --force"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char line[8192];
        snprintf(line, sizeof line, "export '%s' %s%s%s %s", tmp("s.yaml"),
                 cases[i].plan ? "--plan '" : "", cases[i].plan ? tmp("p.csv") : "",
                 cases[i].plan ? "'" : "", cases[i].args);
        char *err = NULL;
        cr_assert_eq(abt_run(line, NULL, &err), 2, "%s", line);
        cr_assert(strstr(err, cases[i].want) != NULL, "%s: %s", line, err);
        free(err);
    }
}
