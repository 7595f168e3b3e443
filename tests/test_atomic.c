/*
 * test_atomic.c — every file arenabench writes is written whole or not at
 * all (DESIGN.md §5): under a file size limit (RLIMIT_FSIZE, the SIGXFSZ
 * disposition left as the shell gives it) a second `report -o`, `plan -o`,
 * `export -o`, `import -o` and `gen -o` fail with exit 2 naming the path,
 * the good file from before is byte-identical and no temporary is left;
 * also `ilp --write-lp`, which GLPK writes by name.
 */
#define _XOPEN_SOURCE 700 /* mknod, S_IFCHR */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support.h"

/* The file size limits, in bytes: above the messages, below the outputs. A
 * report needs more: SQLite extends the database's 32 KiB -shm file even
 * to read, so its limit is above that and the report is a big one. */
enum { LIMIT = 1200, LIMIT_DB = 128 * 1024 };

/* Runs arenabench-test with args in a child limited to LIMIT bytes per file;
 * returns its exit code (128 + signal when killed) and its stderr in *err. */
static int run_limited(const char *args, long limit, char **err) {
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(fd[0]);
        signal(SIGXFSZ, SIG_DFL); /* as a shell would leave it */
        struct rlimit r = {(rlim_t)limit, (rlim_t)limit};
        if (setrlimit(RLIMIT_FSIZE, &r) != 0) _exit(99);
        char *e = NULL;
        int rc = abt_run(args, NULL, &e);
        if (e != NULL && write(fd[1], e, strlen(e)) < 0) rc = 98;
        _exit(rc);
    }
    close(fd[1]);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    cr_assert_not_null(buf);
    for (ssize_t got; (got = read(fd[0], buf + n, cap - n - 1)) > 0;) {
        n += (size_t)got;
        if (cap - n < 2) buf = realloc(buf, cap *= 2);
        cr_assert_not_null(buf);
    }
    buf[n] = '\0';
    close(fd[0]);
    int st = 0;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    *err = buf;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The number of entries of dir whose name starts with prefix. */
static int count_prefixed(const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) n++;
    closedir(d);
    return n;
}

/* A first write of out (args with out as the output) succeeds without a
 * limit; a second under the limit fails cleanly and leaves it as it was. */
static void check_kept(const char *dir, const char *name, const char *cmd, const char *opt,
                       long limit) {
    char out[512], args[2048];
    snprintf(out, sizeof out, "%s/%s", dir, name);
    snprintf(args, sizeof args, "%s %s %s", cmd, opt, out);
    abt_run_ok(0, "%s", args);
    size_t len0 = 0, len1 = 0;
    char *before = abt_slurp(out, &len0);
    cr_assert_not_null(before, "%s not written", out);
    cr_assert_gt(len0, (size_t)limit, "%s: %zu bytes, the test needs more than %ld", out, len0,
                 limit);
    char *err = NULL;
    int rc = run_limited(args, limit, &err);
    cr_expect_eq(rc, 2, "arenabench %s under a %ld-byte file limit: exit %d (want 2)\n%s", args,
                 limit, rc, err);
    cr_expect_not_null(strstr(err, out), "the message does not name %s: %s", out, err);
    char *after = abt_slurp(out, &len1);
    cr_assert_not_null(after, "%s is gone", out);
    cr_expect(len0 == len1 && memcmp(before, after, len0) == 0,
              "%s changed: %zu bytes before, %zu after", out, len0, len1);
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s.", name);
    cr_expect_eq(count_prefixed(dir, prefix), 0, "a temporary is left beside %s", out);
    free(before);
    free(after);
    free(err);
}

static char *setup_run(int n) {
    char *dir = abt_tmpdir();
    abt_run_ok(0, "gen --kind random --n %d --seed 3 -o %s/s.yaml", n, dir);
    abt_run_ok(0, "run -q --db %s/r.db -p first-fit -p best-fit %s/s.yaml", dir, dir);
    return dir;
}

Test(atomic, report_under_a_file_limit_keeps_the_old_report) {
    char *dir = setup_run(1500); /* a picture of 1500 tensors: some 500 KB */
    char args[1024];
    snprintf(args, sizeof args, "report --db %s/r.db --format html", dir);
    check_kept(dir, "report.html", args, "-o", LIMIT_DB);
    free(dir);
}

Test(atomic, plan_export_import_gen_under_a_file_limit_keep_the_old_file) {
    char *dir = setup_run(200);
    char args[1024];
    snprintf(args, sizeof args, "plan -p first-fit %s/s.yaml", dir);
    check_kept(dir, "plan.csv", args, "-o", LIMIT);
    snprintf(args, sizeof args, "export %s/s.yaml", dir);
    check_kept(dir, "s.csv", args, "-o", LIMIT);
    snprintf(args, sizeof args, "import %s/s.csv", dir);
    check_kept(dir, "imported.yaml", args, "-o", LIMIT);
    check_kept(dir, "gen.yaml", "gen --kind random --n 60 --seed 5", "-o", LIMIT);
    free(dir);
}

Test(atomic, ilp_write_lp_under_a_file_limit_keeps_the_old_file) {
    char *dir = setup_run(30);
    char args[1024];
    /* GLPK writes the LP by name: to a temporary the core renames */
    snprintf(args, sizeof args, "ilp --time 30 %s/s.yaml", dir);
    check_kept(dir, "model.lp", args, "--write-lp", LIMIT);
    free(dir);
}

/* The database under a file size limit: SQLite cannot grow its files, a
 * disk problem, so exit 2 with the database's path (it was exit 3, an
 * "internal error"). */
Test(atomic, database_under_a_file_limit_is_exit_2_naming_it) {
    char *dir = setup_run(30);
    char args[1024], want[600], *err = NULL;
    snprintf(want, sizeof want, "%s/r.db", dir);
    snprintf(args, sizeof args, "report --db %s/r.db --format md -o %s/rep.md", dir, dir);
    int rc = run_limited(args, LIMIT, &err);
    cr_expect_eq(rc, 2, "arenabench %s under a %d-byte file limit: exit %d (want 2)\n%s", args,
                 LIMIT, rc, err);
    cr_expect_not_null(strstr(err, want), "the message does not name %s: %s", want, err);
    free(err);
    snprintf(args, sizeof args, "run -q --db %s/new.db -p first-fit %s/s.yaml", dir, dir);
    rc = run_limited(args, LIMIT, &err);
    snprintf(want, sizeof want, "%s/new.db", dir);
    cr_expect_eq(rc, 2, "arenabench %s under a %d-byte file limit: exit %d (want 2)\n%s", args,
                 LIMIT, rc, err);
    cr_expect_not_null(strstr(err, want), "the message does not name %s: %s", want, err);
    free(err);
    free(dir);
}

/* A device is written in place, never replaced: `-o /dev/null` (or
 * /dev/stdout) must not turn the device into a regular file, and a full
 * device says so with exit 2. (Once, `plan -o /dev/full` renamed a
 * temporary over /dev/full.) The devices are our own nodes in a temporary
 * folder (made with mknod, root only), so even a regression harms nothing. */
Test(atomic, a_device_is_written_in_place_not_replaced) {
    char *dir = setup_run(30);
    char null_dev[600], full_dev[600];
    snprintf(null_dev, sizeof null_dev, "%s/null", dir);
    snprintf(full_dev, sizeof full_dev, "%s/full", dir);
    if (mknod(null_dev, S_IFCHR | 0666, makedev(1, 3)) != 0 ||
        mknod(full_dev, S_IFCHR | 0666, makedev(1, 7)) != 0) {
        free(dir);
        cr_skip_test("mknod needs root (or a file system that allows devices)");
    }
    abt_run_ok(0, "plan -p first-fit %s/s.yaml -o %s", dir, null_dev);
    abt_run_ok(0, "report --db %s/r.db --format md -o %s", dir, null_dev);
    char *why = NULL, args[1400];
    snprintf(args, sizeof args, "plan -p first-fit %s/s.yaml -o %s", dir, full_dev);
    int rc = abt_run(args, NULL, &why);
    cr_expect_eq(rc, 2, "plan -o a full device: exit %d\n%s", rc, why ? why : "");
    cr_expect(why != NULL && strstr(why, full_dev) != NULL && strstr(why, "No space left") != NULL,
              "the message names neither the device nor the reason: %s", why ? why : "");
    free(why);
    struct stat sb;
    cr_assert_eq(stat(null_dev, &sb), 0);
    cr_expect(S_ISCHR(sb.st_mode), "%s is no longer a device", null_dev);
    cr_assert_eq(stat(full_dev, &sb), 0);
    cr_expect(S_ISCHR(sb.st_mode), "%s is no longer a device", full_dev);
    cr_expect_eq(count_prefixed(dir, "full."), 0, "a temporary was left beside the device");
    free(dir);
}
