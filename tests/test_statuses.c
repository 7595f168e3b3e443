/*
 * test_statuses.c — how failures are reported (issue 15, finding 6): GLPK
 * out of memory is oom like any allocation that fails; a full disk or a
 * file-size limit is exit 2 naming the path, for every command that writes;
 * `--resume` on a missing database creates nothing; a memory stop of
 * exact-cover that returns a plan is ok, not proven, and its note names the
 * cap that applied.
 *
 * Nothing here depends on the machine's speed: the disk is /dev/full or a
 * file-size limit set in a forked child; GLPK's memory is its own limit.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <glpk.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/formats/formats.h"
#include "oracle/ilp.h"
#include "planners/planner.h"
#include "tests/support.h"

/* GLPK that runs out of memory (its own limit, 1 MB, standing for malloc
 * failing) is AB_ENOMEM, as every other allocation that fails: the runner
 * then says oom. On main it was AB_EINTERNAL (row `error`) on a suite where
 * GLPK's allocation failed first and `oom` where one of ours did. */
Test(statuses, glpk_out_of_memory_is_enomem) {
    ab_problem p;
    ab_error err;
    cr_assert_eq(abf_load_problem(abt_src("suites/generated/random-1k.yaml"), NULL, &p, &err),
                 AB_OK, "%s", err.msg);
    abo_ilp_options o;
    abo_ilp_options_init(&o);
    o.time_limit = 600; /* a safety cap: GLPK stops at its first allocation over the limit */
    o.heuristics = false; /* GLPK always runs */
    o.decompose = false;
    glp_mem_limit(1);
    abo_ilp_result r;
    ab_error_clear(&err);
    ab_status st = abo_ilp_solve(&p, &o, &r, &err);
    abo_ilp_result_free(&r);
    ab_problem_free(&p);
    cr_assert_eq(st, AB_ENOMEM, "status %d: %s", (int)st, err.msg);
    cr_assert(strstr(err.msg, "GLPK") != NULL, "%s", err.msg);
}

/* Runs `arenabench-test ARGS` under a file-size limit of 1 KiB (set in the
 * forked child, SIGXFSZ at its default as a shell leaves it); returns its
 * exit status (128 + the signal when one killed it) and its stderr in *text
 * (owned by the caller). */
static int run_fsize(const char *args, char **text) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        struct rlimit rl = {1024, 1024};
        signal(SIGXFSZ, SIG_DFL);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(99);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "exec '%s/arenabench-test' %s >/dev/null", AB_BINARY_DIR, args);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(98);
    }
    close(fds[1]);
    size_t cap = 1 << 16, n = 0;
    char *buf = calloc(cap, 1);
    cr_assert_not_null(buf);
    for (ssize_t got; n + 1 < cap && (got = read(fds[0], buf + n, cap - 1 - n)) != 0;)
        if (got > 0) n += (size_t)got;
        else if (errno != EINTR) break;
    close(fds[0]);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    *text = buf;
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
}

/* A suite of 3000 tensors (every output of it passes 1 KiB) in folder dir. */
static char *big_suite(const char *dir) {
    static char path[4096];
    snprintf(path, sizeof path, "%s/big.yaml", dir);
    abt_run_ok(0, "gen --kind random --n 3000 --seed 7 -o '%s'", path);
    return path;
}

/* The file at path does not exist. */
static bool absent(const char *path) {
    struct stat sb;
    return stat(path, &sb) != 0;
}

/* Each command that writes a file, past the file-size limit: exit 2, the
 * path named, nothing left at the path. On main `plan -o` and the others
 * died of SIGXFSZ (exit 153, no message), and `run` exited 3. */
Test(statuses, a_write_past_the_file_size_limit_is_exit_2_with_the_path, .timeout = 600) {
    char *dir = abt_tmpdir();
    const char *suite = big_suite(dir);
    static const struct {
        const char *cmd, *opts, *flag; /* cmd 'suite' opts flag 'out' */
        const char *out;
    } cases[] = {
        {"plan", "", "-o", "plan.csv"},
        {"import", "", "-o", "suite.yaml"},
        {"export", "--format minimalloc", "-o", "export.csv"},
        {"run", "-p first-fit", "--db", "results.db"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[4096], args[8192];
        snprintf(out, sizeof out, "%s/%s", dir, cases[i].out);
        snprintf(args, sizeof args, "%s '%s' %s %s '%s'", cases[i].cmd, suite, cases[i].opts,
                 cases[i].flag, out);
        char *text;
        int rc = run_fsize(args, &text);
        cr_assert_eq(rc, 2, "%s: exit %d, stderr: %s", args, rc, text);
        cr_assert(strstr(text, out) != NULL, "%s: the message does not name %s: %s", args, out,
                  text);
        cr_assert(absent(out), "%s: %s was left behind", args, out);
        free(text);
    }
    free(dir);
}

/* `run --resume` on a database that does not exist: exit 2, and no file made
 * (on main the database was created, then the run refused). */
Test(statuses, resume_on_a_missing_database_creates_nothing) {
    char *dir = abt_tmpdir();
    char db[4096];
    snprintf(db, sizeof db, "%s/none.db", dir);
    abt_run_ok(2, "run '%s' -p first-fit --db '%s' --resume 99",
               abt_src("suites/examples/chain_reuse.yaml"), db);
    cr_assert(absent(db), "--resume created %s", db);
    abt_run_ok(2, "run '%s' -p first-fit --db '%s' --resume latest",
               abt_src("suites/examples/chain_reuse.yaml"), db);
    cr_assert(absent(db), "--resume created %s", db);
    free(dir);
}

#if !defined(__SANITIZE_ADDRESS__)
/* VmSize of this process in bytes, or -1. */
static long long vm_size(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long long kb = -1;
    while (f != NULL && fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmSize:", 7) == 0) kb = atoll(line + 7);
    if (f != NULL) fclose(f);
    return kb < 0 ? -1 : kb * 1024;
}
#endif

/* exact-cover:mem=64G in a process whose address space is capped at 206 MiB
 * (as the runner caps it for --mem-limit) stops on the cap, not on mem=: it returns
 * its best plan (ok, not proven) and its note names the cap that applied
 * (--mem-limit), not only a number below the mem= asked. On main the note
 * said "above 206.0 MiB" with nothing to tell that mem=64G had been capped.
 * Under AddressSanitizer the address space is not limited, so the case is
 * skipped there. */
Test(statuses, exact_cover_stopped_by_the_mem_limit_says_so) {
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("under AddressSanitizer the address space cannot be limited");
#else
    /* The matrix of this suite with compress=off needs 209.9 MiB (counted
     * before it is allocated); what is built before it fits in far less. */
    long long base = vm_size(), cap = 206ll << 20;
    if (base < 0 || base > (100ll << 20))
        cr_skip_test("this process's address space (%lld B) leaves no room under the cap", base);
    ab_problem full, view;
    ab_error err;
    cr_assert_eq(abf_load_problem(abt_src("suites/generated/planted-200-g3-s5.yaml"), NULL, &full,
                                  &err), AB_OK, "%s", err.msg);
    cr_assert_eq(ab_problem_arena_view(&full, &view, NULL, &err), AB_OK, "%s", err.msg);
    const ab_planner *pl;
    ab_params prm;
    cr_assert_eq(ab_planner_resolve("exact-cover:compress=off,mem=64G", &pl, &prm, &err), AB_OK,
                 "%s", err.msg);
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        struct rlimit rl = {(rlim_t)cap, (rlim_t)cap};
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(99);
        int64_t *off = malloc((view.n ? view.n : 1) * sizeof *off);
        ab_plan_stats st = {.lower_bound = AB_NONE};
        ab_status s = off ? pl->plan(&view, &prm, off, &st, &err) : AB_ENOMEM;
        char msg[1024];
        int n = snprintf(msg, sizeof msg, "%d %d %s", (int)s, (int)st.proven_optimal,
                         s == AB_OK ? st.note : err.msg);
        if (write(fds[1], msg, (size_t)n) != n) _exit(98);
        _exit(0);
    }
    close(fds[1]);
    char got[1100] = "";
    size_t n = 0;
    for (ssize_t r; n + 1 < sizeof got && (r = read(fds[0], got + n, sizeof got - 1 - n)) > 0;)
        n += (size_t)r;
    got[n] = '\0';
    close(fds[0]);
    int ws;
    cr_assert_eq(waitpid(pid, &ws, 0), pid);
    cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "child status %d: %s", ws, got);
    cr_assert(strncmp(got, "0 0 ", 4) == 0, "not ok-not-proven: %s", got);
    cr_assert(strstr(got, "mem:") != NULL && strstr(got, "--mem-limit") != NULL,
              "the note does not name the cap: %s", got);
    ab_params_free(&prm);
    ab_problem_free(&view);
    ab_problem_free(&full);
#endif
}
