/*
 * test_house.c — the layering holds: each layer's library sees only the
 * headers of the layers below it (CMakeLists.txt: include/<layer> views), so
 * an include the design forbids fails to compile. Every (layer, header) pair
 * is compiled as a one-line probe with the layer's view: the allowed ones must
 * compile (so the probe works), the forbidden ones must not. Sources may not
 * step out of their view with a relative "../" include either.
 *
 * The layers and what each sees come from CMakeLists.txt's AB_LAYERS, through
 * the generated layers.h: the list is written once.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <criterion/criterion.h>
#include <dirent.h>
#include <ftw.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/support.h"

/* The layer list, generated from CMakeLists.txt's AB_LAYERS (the one place it
 * is written): per layer its folder, a header of it and what it sees. */
#include "layers.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Compiles `#include "header"` with layer's include view; the exit status. */
static int probe(const char *dir, const char *layer, const char *header) {
    char src[4096], cmd[12288];
    snprintf(src, sizeof src, "%s/probe.c", dir);
    FILE *f = fopen(src, "w");
    cr_assert_not_null(f);
    fprintf(f, "#include \"%s\"\nint probe(void);\nint probe(void) { return 0; }\n", header);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c11 -D_POSIX_C_SOURCE=200809L -fsyntax-only -I '%s/%s' '%s' "
             ">'%s/log' 2>&1",
             AB_C_COMPILER, AB_LAYER_VIEWS, layer, src, dir);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

Test(house, each_layer_sees_only_the_layers_below_it) {
    char *dir = abt_tmpdir();
    int allowed = 0, refused = 0;
    size_t n = N(ab_layer_rows);
    cr_assert_geq(n, 9, "the layer list has %zu rows", n);
    for (size_t l = 0; l < n; l++) {
        for (size_t h = 0; h < n; h++) {
            char key[32];
            snprintf(key, sizeof key, " %s ", ab_layer_rows[h].name);
            bool may = strstr(ab_layer_rows[l].sees, key) != NULL;
            int rc = probe(dir, ab_layer_rows[l].name, ab_layer_rows[h].header);
            if (may) {
                char log[4200];
                snprintf(log, sizeof log, "%s/log", dir);
                char *text = abt_slurp(log, NULL);
                cr_expect_eq(rc, 0, "%s may include %s, but the probe failed:\n%s",
                             ab_layer_rows[l].name, ab_layer_rows[h].header, text ? text : "");
                free(text);
                allowed++;
            } else {
                cr_expect_neq(rc, 0, "%s must not see %s, but the probe compiled",
                              ab_layer_rows[l].name, ab_layer_rows[h].header);
                refused++;
            }
        }
    }
    cr_assert_eq(allowed + refused, (int)(n * n));
    cr_assert_gt(refused, 20, "the table forbids %d includes", refused);
    free(dir);
}

/* DESIGN.md §2: the store needs only core and the oracle, and neither the
 * store nor the report sees the engine (status words and signal names live
 * below it). Every header of the engine's folder is probed. */
Test(house, store_and_report_cannot_include_an_engine_header) {
    char *dir = abt_tmpdir();
    const char *engine[] = {"harness/engine/evaluate.h", "harness/engine/runner.h",
                            "harness/engine/spawn.h", "harness/engine/external.h"};
    const char *above[] = {"store", "report"};
    for (size_t l = 0; l < N(above); l++)
        for (size_t h = 0; h < N(engine); h++)
            cr_expect_neq(probe(dir, above[l], engine[h]), 0, "%s can include %s", above[l],
                          engine[h]);
    /* the same probe compiles where it is allowed, so it can fail */
    cr_expect_eq(probe(dir, "run", "harness/engine/evaluate.h"), 0);
    cr_expect_eq(probe(dir, "store", "oracle/status.h"), 0);
    free(dir);
}

/* Every folder of the product's layers holds a library in the list, and no
 * layer folder is missing from it: a new folder must be a new row. */
Test(house, every_product_folder_is_a_layer) {
    const char *folders[] = {"core", "oracle", "planners", "harness/formats", "harness/engine",
                             "harness/run", "harness/cli", "results/store", "results/report"};
    for (size_t f = 0; f < N(folders); f++) {
        bool found = false;
        for (size_t l = 0; l < N(ab_layer_rows); l++)
            found |= strcmp(ab_layer_rows[l].dir, folders[f]) == 0;
        cr_expect(found, "%s is not a row of AB_LAYERS", folders[f]);
    }
    cr_expect_eq(N(ab_layer_rows), N(folders));
}

static int relative_includes;
static char first_relative[4096];

static int scan(const char *path, const struct stat *sb, int type, struct FTW *ftw) {
    (void)sb;
    (void)ftw;
    size_t n = strlen(path);
    if (type != FTW_F || n < 2 || path[n - 2] != '.' || (path[n - 1] != 'c' && path[n - 1] != 'h'))
        return 0;
    char *text = abt_slurp(path, NULL);
    if (text == NULL) return 0;
    if (strstr(text, "#include \"../") != NULL) {
        if (relative_includes++ == 0) snprintf(first_relative, sizeof first_relative, "%s", path);
    }
    free(text);
    return 0;
}

Test(house, no_source_steps_out_of_its_view) {
    const char *dirs[] = {"core", "oracle", "planners", "harness", "results", "tests", "bench",
                          "fuzz"};
    for (size_t i = 0; i < N(dirs); i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", abt_src(dirs[i]));
        nftw(path, scan, 16, FTW_PHYS);
    }
    cr_assert_eq(relative_includes, 0,
                 "%d sources include a header by a relative path (first: %s); include it from "
                 "the project root, e.g. \"core/problem.h\"",
                 relative_includes, first_relative);
}

Test(house, the_product_has_no_test_planners) {
    /* The tests' planners are registered in the test programs only. */
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s/arenabench planners 2>&1", AB_BINARY_DIR);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, p);
    buf[n] = '\0';
    cr_assert_eq(pclose(p), 0, "%s", buf);
    out = buf;
    cr_assert(strstr(out, "first-fit") != NULL, "%s", out);
    cr_assert(strstr(out, "external") != NULL, "the engine's planner is registered: %s", out);
    snprintf(cmd, sizeof cmd, "%s/arenabench plan -p test-crash '%s' >/dev/null 2>&1",
             AB_BINARY_DIR, abt_src("suites/examples/diamond.yaml"));
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 2,
              "arenabench must not know test-crash (exit 2 for an unknown planner)");
}

/* One folder, one prefix: every function a layer's headers declare at file
 * scope starts with the layer's prefix (AB_LAYERS' third column). The one
 * exception is the planner contract in planners/planner.h (ab_planner_*,
 * ab_param_*), which every layer above names. */
Test(house, each_layer_declares_functions_with_its_own_prefix) {
    regex_t re;
    cr_assert_eq(regcomp(&re, "^[A-Za-z_][A-Za-z0-9_ *]*[ *](ab[a-z]*_[A-Za-z0-9_]+)[ ]*\\(",
                         REG_EXTENDED | REG_NEWLINE), 0);
    int checked = 0, wrong = 0;
    char first[512] = "";
    for (size_t l = 0; l < N(ab_layer_rows); l++) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", abt_src(ab_layer_rows[l].dir));
        DIR *d = opendir(dir);
        cr_assert_not_null(d, "%s", dir);
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            size_t n = strlen(e->d_name);
            if (n < 3 || strcmp(e->d_name + n - 2, ".h") != 0) continue;
            char path[8400];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            char *text = abt_slurp(path, NULL);
            cr_assert_not_null(text, "%s", path);
            for (const char *p = text; *p;) {
                regmatch_t m[2];
                if (regexec(&re, p, 2, m, 0) != 0) break;
                const char *line = p + m[0].rm_so;
                char name[128];
                snprintf(name, sizeof name, "%.*s", (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
                p += m[0].rm_eo;
                if (strncmp(line, "typedef", 7) == 0) continue; /* a function type's name */
                bool contract = strcmp(e->d_name, "planner.h") == 0 &&
                                (strncmp(name, "ab_planner", 10) == 0 ||
                                 strncmp(name, "ab_param", 8) == 0);
                checked++;
                if (contract || strncmp(name, ab_layer_rows[l].prefix,
                                        strlen(ab_layer_rows[l].prefix)) == 0)
                    continue;
                if (wrong++ == 0)
                    snprintf(first, sizeof first, "%s/%s: %s (the layer's prefix is %s)",
                             ab_layer_rows[l].dir, e->d_name, name, ab_layer_rows[l].prefix);
            }
            free(text);
        }
        closedir(d);
    }
    regfree(&re);
    cr_assert_gt(checked, 200, "only %d declarations found: the scan is broken", checked);
    cr_assert_eq(wrong, 0, "%d functions carry another layer's prefix; first: %s", wrong, first);
}
