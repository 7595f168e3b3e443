/*
 * test_fuzz_smoke.c — a short run of each libFuzzer harness in fuzz/, and every
 * input in fuzz/regressions/ replayed through every harness.
 *
 * The harnesses need clang: scripts/test.sh builds them into build-fuzz/ when
 * clang is present and says where with AB_FUZZ_DIR (default: the source
 * tree's build-fuzz/). A harness whose binary is absent is skipped with a
 * message. A smoke run is a fixed number of executions from a fixed seed
 * (-runs=N -seed=1), never a time, so it does not depend on the machine's
 * speed; new inputs go to a temporary folder, never into fuzz/seeds/.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <criterion/criterion.h>

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support.h"

static const char *const harnesses[] = {"tflite", "onnx", "suite", "minimalloc", "plan_csv", "spec"};
#define NHARNESSES (sizeof harnesses / sizeof harnesses[0])

/* The harness binary, or NULL when it was not built. */
static const char *fuzzer(const char *name) {
    static char path[4096];
    const char *dir = getenv("AB_FUZZ_DIR");
    if (dir != NULL && dir[0] != '\0') snprintf(path, sizeof path, "%s/fuzz_%s", dir, name);
    else snprintf(path, sizeof path, "%s/build-fuzz/fuzz_%s", AB_SOURCE_DIR, name);
    return access(path, X_OK) == 0 ? path : NULL;
}

/* Runs argv with stdout and stderr into log; returns the exit code, or 128 +
 * the signal. */
static int run(char *const argv[], const char *log) {
    pid_t pid = fork();
    cr_assert_neq(pid, -1, "fork failed");
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) _exit(126);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) continue;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* Removes a temporary folder and what is in it. */
static void rm_tree(char *dir) {
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

/* The last 3000 bytes of a log, for an assertion's message (owned). */
static char *tail_of(const char *log) {
    size_t len = 0;
    char *s = abt_slurp(log, &len);
    if (s == NULL) return strdup("(no log)");
    if (len > 3000) memmove(s, s + len - 3000, 3001);
    return s;
}

static void smoke(const char *name, const char *runs) {
    const char *bin = fuzzer(name);
    if (bin == NULL)
        cr_skip_test("fuzz_%s is not built (needs clang; scripts/test.sh builds it into "
                     "build-fuzz/ when clang is present)", name);
    char *tmp = abt_tmpdir();
    char corpus[4096 + 16], log[4096 + 16], seeds[4096], dict[4096], runarg[64], dictarg[4200];
    snprintf(corpus, sizeof corpus, "%s/corpus", tmp);
    snprintf(log, sizeof log, "%s/log", tmp);
    cr_assert_eq(mkdir(corpus, 0755), 0);
    snprintf(seeds, sizeof seeds, "%s", abt_src("fuzz/seeds/"));
    strncat(seeds, name, sizeof seeds - strlen(seeds) - 1);
    snprintf(dict, sizeof dict, "%s", abt_src("fuzz/dict/"));
    snprintf(dictarg, sizeof dictarg, "-dict=%s%s.dict", dict, name);
    snprintf(runarg, sizeof runarg, "-runs=%s", runs);
    char artifacts[4096 + 32];
    snprintf(artifacts, sizeof artifacts, "-artifact_prefix=%s/", tmp);
    char *argv[] = {(char *)fuzzer(name), runarg, "-seed=1", "-timeout=600",
                    "-rss_limit_mb=4096", dictarg, artifacts, corpus, seeds, NULL};
    int rc = run(argv, log);
    char *t = tail_of(log);
    cr_assert_eq(rc, 0, "fuzz_%s %s exited %d:\n%s", name, runarg, rc, t);
    cr_assert(strstr(t, "Done ") != NULL, "fuzz_%s did not finish its runs:\n%s", name, t);
    free(t);
    rm_tree(tmp);
}

Test(fuzz_smoke, tflite) { smoke("tflite", "20000"); }
Test(fuzz_smoke, onnx) { smoke("onnx", "20000"); }
Test(fuzz_smoke, suite) { smoke("suite", "5000"); }
Test(fuzz_smoke, minimalloc) { smoke("minimalloc", "20000"); }
Test(fuzz_smoke, plan_csv) { smoke("plan_csv", "20000"); }
Test(fuzz_smoke, spec) { smoke("spec", "20000"); }

/* Every file under fuzz/regressions/ (each kept because it once crashed or
 * misled a harness) through every harness: the inputs are given as files, so
 * libFuzzer runs each once. */
Test(fuzz_smoke, regressions_through_every_harness) {
    char *files[512];
    size_t n = 0;
    char root[4096];
    snprintf(root, sizeof root, "%s", abt_src("fuzz/regressions"));
    DIR *top = opendir(root);
    cr_assert_not_null(top, "%s is missing", root);
    struct dirent *e;
    while ((e = readdir(top)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char sub[4096 + 256];
        snprintf(sub, sizeof sub, "%s/%s", root, e->d_name);
        struct stat st;
        if (stat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
        DIR *d = opendir(sub);
        cr_assert_not_null(d, "%s", sub);
        struct dirent *f;
        while ((f = readdir(d)) != NULL) {
            if (f->d_name[0] == '.' || strcmp(f->d_name, "README.md") == 0) continue;
            cr_assert_lt(n, 510, "too many regression inputs for this test");
            char path[4096 + 512];
            snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
            files[n++] = strdup(path);
        }
        closedir(d);
    }
    closedir(top);
    int ran = 0;
    for (size_t h = 0; h < NHARNESSES; h++) {
        const char *bin = fuzzer(harnesses[h]);
        if (bin == NULL || n == 0) continue;
        char *tmp = abt_tmpdir(), log[4096 + 16];
        snprintf(log, sizeof log, "%s/log", tmp);
        char *argv[515];
        size_t k = 0;
        argv[k++] = (char *)bin;
        argv[k++] = "-timeout=600";
        for (size_t i = 0; i < n; i++) argv[k++] = files[i];
        argv[k] = NULL;
        int rc = run(argv, log);
        char *t = tail_of(log);
        cr_assert_eq(rc, 0, "fuzz_%s on the %zu regression inputs exited %d:\n%s", harnesses[h],
                     n, rc, t);
        free(t);
        rm_tree(tmp);
        ran++;
    }
    for (size_t i = 0; i < n; i++) free(files[i]);
    if (ran == 0)
        cr_skip_test("no harness is built (needs clang), or fuzz/regressions/ holds no input: "
                     "%zu inputs", n);
}
