/*
 * test_test_programs.c — how the test programs themselves are built:
 *   - the stand-in for libgit2 (tests/criterion_git.c): the test's own process
 *     has it loaded and not the real library, and a failed string assertion
 *     still prints its diff, which the stand-in hands to the real libgit2;
 *   - no leak check in Criterion's runner (tests/lsan_runner.c): a worker's
 *     leak is still reported, the runner's is not.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

#ifdef AB_GIT2_REAL
/* How many lines of this process's memory map name a file that holds needle
 * and is not under the folder skip (NULL: none skipped). */
static int mapped(const char *needle, const char *skip) {
    char *maps = abt_slurp("/proc/self/maps", NULL);
    cr_assert_not_null(maps);
    int n = 0;
    for (char *line = strtok(maps, "\n"); line != NULL; line = strtok(NULL, "\n"))
        n += strstr(line, needle) != NULL && (skip == NULL || strstr(line, skip) == NULL);
    free(maps);
    return n;
}
#endif

Test(criterion_git, the_real_libgit2_is_not_loaded) {
#ifndef AB_GIT2_REAL
    cr_skip("configured without the libgit2 stand-in (CMake said why)");
#else
    cr_assert(mapped(AB_GIT_SHIM_LIB, NULL) > 0, "the stand-in %s is not loaded", AB_GIT_SHIM_LIB);
    /* any other libgit2, whatever the path it was loaded by (/lib or /usr/lib) */
    cr_assert_eq(mapped("/libgit2.so", AB_GIT_SHIM_DIR), 0, "a real libgit2 is loaded (%s)",
                 AB_GIT2_REAL);
#endif
}

#if defined(AB_GIT2_REAL) || defined(AB_LSAN_RUNNER_SRC)
/* Compiles a Criterion program from source, with build (more arguments to the
 * compiler after the source), runs it with env before it, and returns what it
 * printed (owned by the caller); *rc gets system()'s status. The probe runs
 * without BXFI_MAP, which marks this process as a Criterion worker and would
 * make the probe take itself for one. */
static char *probe(const char *source, const char *build, const char *env, int *rc) {
    char src[4096], prog[4096], out[4096], cmd[16384];
    snprintf(src, sizeof src, "%s", abt_write_tmp(source, ".c"));
    snprintf(prog, sizeof prog, "%.*s", (int)(strlen(src) - 2), src);
    snprintf(out, sizeof out, "%s.out", prog);
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c11 -o '%s' '%s' %s && env -u BXFI_MAP %s '%s' --verbose=0 >'%s' 2>&1",
             AB_C_COMPILER, prog, src, build, env, prog, out);
    *rc = system(cmd);
    char *got = abt_slurp(out, NULL);
    cr_assert_not_null(got, "%s", cmd);
    cr_assert(strstr(got, "Synthesis") != NULL, "the probe did not run: %s\n%s", cmd, got);
    return got;
}
#endif

Test(criterion_git, a_failed_string_assertion_prints_its_diff) {
#ifndef AB_GIT2_REAL
    cr_skip("configured without the libgit2 stand-in (CMake said why)");
#else
    /* no sanitizers: only the stand-in and Criterion are under test */
    char build[8192];
    snprintf(build, sizeof build, "-Wl,--no-as-needed '%s' '%s' -Wl,-rpath,'%s'", AB_GIT_SHIM_LIB,
             AB_CRITERION_LIB, AB_GIT_SHIM_DIR);
    int rc;
    char *got = probe("#include <criterion/criterion.h>\n"
                      "#include <criterion/new/assert.h>\n"
                      "Test(probe, differs) {\n"
                      "    cr_assert(eq(str, \"alpha\\nbeta\\ngamma\\n\", \"alpha\\nBETA\\ngamma\\n\"));\n"
                      "}\n",
                      build, "", &rc);
    cr_assert_neq(rc, 0, "the probe's assertion fails, so it exits non-zero: %s", got);
    cr_assert(strstr(got, "-\"beta\\n\"") != NULL, "no diff: %s", got);
    cr_assert(strstr(got, "+\"BETA\\n\"") != NULL, "no diff: %s", got);
    cr_assert(strstr(got, "Failing: 1") != NULL, "%s", got);
    free(got);
#endif
}

Test(lsan_runner, a_worker_s_leak_is_reported_and_the_runner_s_is_not) {
#ifndef AB_LSAN_RUNNER_SRC
    cr_skip("not a build with AddressSanitizer: there is no leak check to turn off");
#else
    char build[8192];
    snprintf(build, sizeof build, "-fsanitize=address '%s' '%s'", AB_LSAN_RUNNER_SRC,
             AB_CRITERION_LIB);
    int rc;
    /* 33 bytes lost in the runner only (a worker has BXFI_MAP), 77 in the test */
    char *got = probe("#include <criterion/criterion.h>\n"
                      "#include <stdlib.h>\n"
                      "void *volatile keep;\n"
                      "__attribute__((constructor)) static void lose(void) {\n"
                      "    if (getenv(\"BXFI_MAP\") == NULL) { keep = malloc(33); keep = NULL; }\n"
                      "}\n"
                      "Test(probe, leaks) { keep = malloc(77); keep = NULL; }\n",
                      build, "ASAN_OPTIONS=detect_leaks=1", &rc);
    cr_assert(strstr(got, "77 byte(s)") != NULL, "the worker's leak is not reported: %s", got);
    cr_assert(strstr(got, "33 byte(s)") == NULL, "the runner's leak is reported: %s", got);
    free(got);
#endif
}
