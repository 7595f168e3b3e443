/*
 * test_spawn.c — the engine's process spawner (harness/engine/spawn.h): how
 * a child ended (exit status, signal, timeout, CPU time of its descendants),
 * the captured tail, the group killed at the deadline with nothing left of
 * it, the CPU limit, the guard that kills the group when the caller dies.
 *
 * No test races the wall clock: deadlines are generous and only ever hit by
 * children that never end; nothing asserts an elapsed time.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <dirent.h>
#include <sys/prctl.h>
#endif

#include "harness/engine/cgroup.h"
#include "harness/engine/spawn.h"
#include "harness/engine/runner.h"
#include "tests/support.h"

#include <sys/stat.h>

/* Spins until this process has used `seconds` of CPU. */
static void burn(double seconds) {
    struct timespec ts;
    do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    while ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 < seconds);
}

static _Noreturn void spin(void) {
    for (volatile unsigned long i = 0;; i++) {
    }
}

/* Writes "pid\n" to fd. */
static void say_pid(int fd, pid_t pid) {
    char line[32];
    int n = snprintf(line, sizeof line, "%d\n", (int)pid);
    cr_assert_eq(write(fd, line, (size_t)n), n);
}

/* The spawn's captured tail as a string. */
static char *tail_of(const abe_proc *p, char *buf, size_t cap) {
    size_t n;
    const char *t = abe_tail(p, &n);
    if (n >= cap) n = cap - 1;
    memcpy(buf, t, n);
    buf[n] = '\0';
    return buf;
}

/* Starts o, waits for it, returns how it ended; the tail into text. */
static abe_exit run(const abe_spawn_opts *o, char *text, size_t cap) {
    abe_proc *p;
    ab_error err;
    cr_assert_eq(abe_spawn(o, &p, &err), AB_OK, "%s", err.msg);
    abe_exit e;
    abe_wait(p, &e);
    if (text) tail_of(p, text, cap);
    abe_free(p);
    return e;
}

static int exit_seven(void *ctx, int fd) { return 7; }

static int segfault(void *ctx, int fd) {
    signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would report and exit 1 */
    raise(SIGSEGV);
    return 0;
}

Test(spawn, reports_an_exit_status_and_a_signal) {
    abe_exit e = run(&(abe_spawn_opts){.fn = exit_seven}, NULL, 0);
    cr_assert(e.exited && !e.lost && !e.killed && !e.timed_out);
    cr_assert_eq(e.code, 7);
    cr_assert_eq(e.signal, 0);
    e = run(&(abe_spawn_opts){.fn = segfault}, NULL, 0);
    cr_assert(!e.exited && !e.killed);
    cr_assert_eq(e.code, -1);
    cr_assert_eq(e.signal, SIGSEGV);
    cr_assert_str_eq(ab_signal_name(e.signal), "SIGSEGV");
    cr_assert_null(ab_signal_name(0));
}

Test(spawn, runs_a_program_and_keeps_the_tail_of_its_output) {
    char *argv[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
    char text[ABE_TAIL + 1];
    abe_exit e = run(&(abe_spawn_opts){.path = "/bin/sh", .argv = argv, .capture = true}, text,
                     sizeof text);
    cr_assert(e.exited);
    cr_assert_eq(e.code, 3);
    cr_assert_str_eq(text, "out\nerr\n");
    /* more than the tail holds: the last ABE_TAIL bytes are kept */
    char *many[] = {"sh", "-c", "i=0; while [ $i -lt 1000 ]; do echo line$i; i=$((i+1)); done",
                    NULL};
    e = run(&(abe_spawn_opts){.path = "/bin/sh", .argv = many, .capture = true}, text,
            sizeof text);
    cr_assert_eq(e.code, 0);
    cr_assert_eq(strlen(text), ABE_TAIL);
    cr_assert(strstr(text, "line999\n") != NULL);
    cr_assert(strstr(text, "line0\n") == NULL);
    char *missing[] = {"nowhere", NULL};
    e = run(&(abe_spawn_opts){.path = "/nonexistent/program", .argv = missing}, NULL, 0);
    cr_assert_eq(e.code, ABE_EXEC_FAILED);
}

#ifdef __linux__
/* Exits with the number of other processes in its own process group, from /proc. */
static int count_my_group(void *ctx, int fd) {
    pid_t me = getpid(), group = getpgrp();
    int others = 0;
    DIR *d = opendir("/proc");
    if (d == NULL) return 100;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == me) continue;
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL) continue;
        bool got = fgets(line, sizeof line, f) != NULL;
        fclose(f);
        const char *rp = got ? strrchr(line, ')') : NULL;
        char state;
        int parent, pgrp;
        if (rp != NULL && sscanf(rp + 1, " %c %d %d", &state, &parent, &pgrp) == 3 &&
            pgrp == group && state != 'Z')
            others++;
    }
    closedir(d);
    return others;
}
#endif

/* With a guard, the child starts its work only once the guard is in its
 * group: a caller killed right after the spawn must never leave the program
 * unguarded (that window once let `external`'s shell outlive its job). */
Test(spawn, a_guarded_child_starts_only_with_its_guard_in_the_group) {
#ifndef __linux__
    cr_skip("the guard is Linux only");
#else
    for (int i = 0; i < 20; i++) {
        abe_exit e = run(&(abe_spawn_opts){.fn = count_my_group, .guard = true}, NULL, 0);
        cr_assert(e.exited, "signal %d", e.signal);
        cr_assert_eq(e.code, 1, "run %d: %d other processes in the group, not the guard alone",
                     i, e.code);
        e = run(&(abe_spawn_opts){.fn = count_my_group}, NULL, 0);
        cr_assert_eq(e.code, 0, "no guard asked, none there");
    }
#endif
}

static int fork_spinner_and_spin(void *ctx, int fd) {
    pid_t g = fork();
    if (g == 0) spin();
    say_pid(fd, g);
    spin();
}

/* The brief's case: a child that forks a busy-looping grandchild, killed at
 * a generous deadline; after reaping, the grandchild is gone (not a zombie:
 * the spawner adopted and reaped it). */
Test(spawn, the_deadline_kills_the_whole_group_and_reaps_it) {
    char text[ABE_TAIL + 1];
    abe_exit e = run(&(abe_spawn_opts){.fn = fork_spinner_and_spin, .capture = true,
                                       .time_limit = 1.0, .reap_descendants = true},
                     text, sizeof text);
    cr_assert(e.timed_out && e.killed);
    cr_assert_eq(e.signal, SIGKILL);
    pid_t grandchild = (pid_t)atoi(text);
    cr_assert_gt(grandchild, 0, "tail: %s", text);
    cr_assert_eq(kill(grandchild, 0), -1, "the grandchild %d is still there", (int)grandchild);
    cr_assert_eq(errno, ESRCH);
    cr_assert_gt(e.cpu_seconds, 0.0);
    cr_assert_gt(e.peak_rss, 0);
#ifdef __linux__
    int on = 1;
    cr_assert_eq(prctl(PR_GET_CHILD_SUBREAPER, &on), 0);
    cr_assert_eq(on, 0, "the subreaper setting is given back");
#endif
}

static int grandchild_burns(void *ctx, int fd) {
    pid_t g = fork();
    if (g == 0) {
        burn(0.3);
        _exit(0);
    }
    int st;
    waitpid(g, &st, 0);
    return 0;
}

Test(spawn, counts_the_cpu_time_of_descendants) {
    abe_exit e = run(&(abe_spawn_opts){.fn = grandchild_burns}, NULL, 0);
    cr_assert_eq(e.code, 0);
    cr_assert_geq(e.cpu_seconds, 0.25, "cpu %g", e.cpu_seconds);
}

static int leave_a_sleeper(void *ctx, int fd) {
    pid_t g = fork();
    if (g == 0) {
        close(fd); /* the pipe ends with the child, not with the sleeper */
        for (;;) pause();
    }
    say_pid(fd, g);
    return 0;
}

Test(spawn, kills_what_the_child_leaves_behind_when_it_exits) {
    char text[ABE_TAIL + 1];
    abe_exit e = run(&(abe_spawn_opts){.fn = leave_a_sleeper, .capture = true,
                                       .reap_descendants = true},
                     text, sizeof text);
    cr_assert(e.exited && !e.killed);
    cr_assert_eq(e.code, 0);
    pid_t left = (pid_t)atoi(text);
    cr_assert_gt(left, 0, "tail: %s", text);
    cr_assert_eq(kill(left, 0), -1);
    cr_assert_eq(errno, ESRCH);
}

static int spin_forever(void *ctx, int fd) { spin(); }

Test(spawn, the_cpu_limit_ends_a_spinning_child) {
    abe_exit e = run(&(abe_spawn_opts){.fn = spin_forever, .cpu_limit = 1.0, .time_limit = 600},
                     NULL, 0);
    cr_assert(!e.timed_out && !e.killed, "timed out %d, killed %d, lost %d, exited %d code %d "
              "signal %d", e.timed_out, e.killed, e.lost, e.exited, e.code, e.signal);
    cr_assert(e.signal == SIGXCPU || e.signal == SIGKILL, "signal %d", e.signal);
    /* the kernel checks RLIMIT_CPU on its ticks: near 1 s, not exactly */
    cr_assert_gt(e.cpu_seconds, 0.3, "cpu %g", e.cpu_seconds);
}

Test(spawn, rejects_nothing_to_run_and_frees_null) {
    abe_proc *p;
    ab_error err;
    cr_assert_eq(abe_spawn(&(abe_spawn_opts){0}, &p, &err), AB_EINPUT);
    cr_assert_null(p);
    abe_free(NULL);
}

Test(spawn, fails_cleanly_when_out_of_memory) {
    abe_proc *p;
    ab_error err;
    ab_alloc_fail_at(1);
    ab_status st = abe_spawn(&(abe_spawn_opts){.fn = exit_seven}, &p, &err);
    ab_alloc_fail_at(0);
    cr_assert_eq(st, AB_ENOMEM);
    cr_assert_null(p);
    cr_assert_eq(waitpid(-1, NULL, WNOHANG), -1, "no child was started");
}

#ifdef __linux__
/* The pids written by the grandchild's shell, once the file is complete. */
static bool read_pids(const char *path, int *a, int *b) {
    FILE *f = fopen(path, "r");
    if (f == NULL) return false;
    bool ok = fscanf(f, "%d %d", a, b) == 2;
    fclose(f);
    return ok;
}

static void nap(void) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* The caller (a planner, say) spawns a shell with a guard and is then killed
 * with SIGKILL, as the runner kills a planner at its limit: the shell and
 * the sleeper it started in the background must die too. This process is a
 * subreaper, so the orphans come to it and are reaped here. */
Test(spawn, the_guard_kills_the_group_when_the_caller_is_killed) {
    cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096], cmd[8192];
    snprintf(path, sizeof path, "%s/abspawn.%d", dir, (int)getpid());
    unlink(path);
    snprintf(cmd, sizeof cmd, "sleep 3141 & echo $$ $! > '%s.tmp'; mv '%s.tmp' '%s'; sleep 2718",
             path, path, path);
    pid_t caller = fork();
    cr_assert_geq(caller, 0);
    if (caller == 0) {
        char *argv[] = {"sh", "-c", cmd, NULL};
        abe_proc *p;
        if (abe_spawn(&(abe_spawn_opts){.path = "/bin/sh", .argv = argv, .guard = true}, &p,
                      NULL) != AB_OK)
            _exit(1);
        abe_exit e;
        abe_wait(p, &e); /* never returns: killed below */
        _exit(2);
    }
    int shell = 0, sleeper = 0;
    for (int t = 0; t < 3000 && !read_pids(path, &shell, &sleeper); t++) nap();
    cr_assert_gt(sleeper, 0, "the shell never wrote its pids");
    kill(caller, SIGKILL);
    int st;
    cr_assert_eq(waitpid(caller, &st, 0), caller);
    bool gone = false;
    for (int t = 0; t < 3000 && !gone; t++) { /* up to 30 s; a few ms in practice */
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        gone = kill(shell, 0) != 0 && kill(sleeper, 0) != 0;
        if (!gone) nap();
    }
    if (!gone) {
        kill(shell, SIGKILL);
        kill(sleeper, SIGKILL);
    }
    unlink(path);
    cr_assert(gone, "the shell %d or its sleeper %d outlived the caller", shell, sleeper);
}

/* ---- nested groups and scratch folders (spawn.h, Nested; issue 15 finding 2) ---- */

/* Writes text to path (made executable when exec). */
static void put_file(const char *path, const char *text, bool exec) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
    if (exec) cr_assert_eq(chmod(path, 0755), 0);
}

/* The pids in path (one per line), up to cap; their count. */
static int read_pid_list(const char *path, pid_t *pids, int cap) {
    FILE *f = fopen(path, "r");
    int n = 0, v;
    if (f == NULL) return 0;
    while (n < cap && fscanf(f, "%d", &v) == 1) pids[n++] = (pid_t)v;
    fclose(f);
    return n;
}

/* The entries of folder dir, but . and .. */
static int entries(const char *dir) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "cannot open %s", dir);
    int n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

/* Polls (up to 60 s: a few ms in practice) until none of the pids is there;
 * what is left is then killed (so a failing test leaves nothing running) and
 * counted. */
static int still_there(const pid_t *pids, int n) {
    int left = n;
    for (int t = 0; t < 6000 && left > 0; t++) {
        left = 0;
        for (int i = 0; i < n; i++) left += kill(pids[i], 0) == 0;
        if (left > 0) nap();
    }
    for (int i = 0; i < n && left > 0; i++) kill(pids[i], SIGKILL);
    return left;
}

/* The brief's case through the command line: an external planner whose
 * script starts a busy loop in the background and a grandchild (a shell that
 * starts its own busy loop), writes their pids, then spins past the time
 * limit. After `plan` exits: no process of the script's is left, and the
 * fresh TMPDIR it ran under is empty (on main the script's folder stayed,
 * and its processes outlived the harness). */
Test(spawn, an_external_planner_past_its_time_limit_leaves_no_process_and_no_temporary,
     .timeout = 300) {
    char *tmp = abt_tmpdir(), *work = abt_tmpdir();
    char script[4096], pids[4096], cmd[16384];
    snprintf(script, sizeof script, "%s/planner.sh", work);
    snprintf(pids, sizeof pids, "%s/pids", work);
    snprintf(cmd, sizeof cmd,
             "#!/bin/sh\n"
             "( while :; do :; done ) &\n"
             "echo $! >> '%s'\n"
             "( sh -c 'while :; do :; done' & echo $! >> '%s'; wait ) &\n"
             "echo $! >> '%s'\n"
             "echo $$ >> '%s'\n"
             "while :; do :; done\n",
             pids, pids, pids, pids);
    put_file(script, cmd, true);
    snprintf(cmd, sizeof cmd,
             "env TMPDIR='%s' '%s/arenabench-test' plan -p \"external:cmd='%s {input} {output}'\" "
             "'%s' --time-limit 5 >/dev/null 2>'%s/err'",
             tmp, AB_BINARY_DIR, script, abt_src("suites/examples/chain_reuse.yaml"), work);
    int st = system(cmd);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 1, "plan: status %d", st);
    int left_files = entries(tmp);
    pid_t list[16];
    int n = read_pid_list(pids, list, 16);
    int left = still_there(list, n);
    cr_assert_eq(n, 4, "the script wrote %d pids of 4", n);
    cr_assert_eq(left, 0, "%d of the script's processes outlived the run", left);
    cr_assert_eq(left_files, 0, "the run left %d entries in its TMPDIR %s", left_files, tmp);
    free(tmp);
    free(work);
}

/* Runs script as the external planner of a one-tensor problem through the
 * runner, one job under opt, with TMPDIR set to tmp for the run; asserts
 * that abe_run itself succeeds and leaves the job's result in *res. */
static void run_script_job(const char *script, const char *tmp, const abe_options *opt,
                           abe_job_result *res) {
    ab_problem p;
    ab_problem_init(&p);
    ab_tensor t = {.name = "t0", .size = 16, .logical_bits = 128, .start = 0, .end = 1,
                   .align = 1, .offset = AB_NONE};
    cr_assert_eq(ab_problem_add(&p, &t, NULL), AB_OK);
    char spec[8192];
    snprintf(spec, sizeof spec, "external:cmd='%s {input} {output}'", script);
    const ab_planner *pl;
    ab_params prm;
    ab_error e;
    cr_assert_eq(ab_planner_resolve(spec, &pl, &prm, &e), AB_OK, "%s", e.msg);
    abe_job job = {.view = &p, .planner = pl, .params = &prm};
    memset(res, 0, sizeof *res);
    char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", tmp, 1);
    ab_status st = abe_run(&job, 1, opt, res, NULL, NULL, &e);
    if (old) setenv("TMPDIR", old, 1);
    else unsetenv("TMPDIR");
    free(old);
    cr_assert_eq(st, AB_OK, "%s", e.msg);
    ab_params_free(&prm);
    ab_problem_free(&p);
}

/* In process, through the runner: the script's busy child does a fixed
 * amount of work, writes the CPU ticks it used (utime + stime from
 * /proc/self/stat) and spins on; the script then kills the planner's process
 * (the runner's child: the parent of the leader of the script's group, the
 * shell `external` started) with SIGKILL. When abe_run returns, the
 * busy child is gone already (the runner reaped it: no polling needed) and
 * the job's CPU time counts what it used. On main the child lived on and the
 * CPU time was the planner's alone. */
Test(spawn, a_killed_planner_s_program_is_reaped_and_its_cpu_counted, .timeout = 300) {
    char *tmp = abt_tmpdir(), *work = abt_tmpdir();
    char script[4096], ticks[4096], pids[4096], text[16384];
    snprintf(script, sizeof script, "%s/planner.sh", work);
    snprintf(ticks, sizeof ticks, "%s/ticks", work);
    snprintf(pids, sizeof pids, "%s/pids", work);
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "sh -c 'echo $$ > \"%s\"; i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; "
             "cut -d\" \" -f14,15 /proc/$$/stat > \"%s.tmp\"; mv \"%s.tmp\" \"%s\"; "
             "while :; do :; done' &\n"
             "while [ ! -f '%s' ]; do sleep 0.05; done\n"
             "leader=$(cut -d' ' -f5 /proc/$$/stat)\n"
             "kill -KILL $(cut -d' ' -f4 /proc/$leader/stat)\n"
             "while :; do :; done\n",
             pids, ticks, ticks, ticks, ticks);
    put_file(script, text, true);
    abe_options opt = {.jobs = 1, .time_limit = 240};
    abe_job_result res;
    run_script_job(script, tmp, &opt, &res);
    cr_assert_eq(res.status, ABE_OOM, "status %d: %s", (int)res.status, res.message);
    pid_t busy[1];
    int n = read_pid_list(pids, busy, 1);
    cr_assert_eq(n, 1);
    bool gone = kill(busy[0], 0) != 0 && errno == ESRCH;
    if (!gone) kill(busy[0], SIGKILL);
    cr_assert(gone, "the busy child %d outlived abe_run", (int)busy[0]);
    long ut = 0, stt = 0;
    FILE *f = fopen(ticks, "r");
    cr_assert_not_null(f);
    cr_assert_eq(fscanf(f, "%ld %ld", &ut, &stt), 2);
    fclose(f);
    double used = (double)(ut + stt) / (double)sysconf(_SC_CLK_TCK);
    cr_assert_gt(used, 0.0);
    cr_assert_geq(res.cpu_seconds, used, "the job's CPU %g s leaves out the program's %g s",
                  res.cpu_seconds, used);
    cr_assert_eq(entries(tmp), 0, "the run left files in its TMPDIR %s", tmp);
    abe_result_free(&res);
    free(tmp);
    free(work);
}

/* SIGTERM to `arenabench plan` while its external planner's script spins:
 * arenabench dies of the signal as before, but only after its job's
 * processes are killed and reaped and the job's folder removed (on main the
 * planner's folder stayed in TMPDIR). */
Test(spawn, sigterm_to_the_harness_leaves_no_process_and_no_temporary, .timeout = 300) {
    char *tmp = abt_tmpdir(), *work = abt_tmpdir();
    char script[4096], pids[4096], text[8192];
    snprintf(script, sizeof script, "%s/planner.sh", work);
    snprintf(pids, sizeof pids, "%s/pids", work);
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "( while :; do :; done ) &\n"
             "echo $! >> '%s.tmp'\n"
             "echo $$ >> '%s.tmp'\n"
             "mv '%s.tmp' '%s'\n"
             "while :; do :; done\n",
             pids, pids, pids, pids);
    put_file(script, text, true);
    char spec[8192], bin[4096];
    snprintf(spec, sizeof spec, "external:cmd='%s {input} {output}'", script);
    snprintf(bin, sizeof bin, "%s/arenabench-test", AB_BINARY_DIR);
    pid_t h = fork();
    cr_assert_geq(h, 0);
    if (h == 0) {
        setenv("TMPDIR", tmp, 1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        signal(SIGTERM, SIG_DFL);
        execl(bin, bin, "plan", "-p", spec, abt_src("suites/examples/chain_reuse.yaml"),
              "--time-limit", "600", (char *)NULL);
        _exit(127);
    }
    pid_t list[4];
    int n = 0;
    for (int t = 0; t < 6000 && (n = read_pid_list(pids, list, 4)) < 2; t++) nap();
    cr_assert_eq(n, 2, "the script never wrote its pids");
    cr_assert_eq(kill(h, SIGTERM), 0);
    int st;
    cr_assert_eq(waitpid(h, &st, 0), h);
    int left_files = entries(tmp);
    int left = still_there(list, n);
    cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM, "arenabench ended with status %d", st);
    cr_assert_eq(left, 0, "%d of the script's processes outlived arenabench", left);
    cr_assert_eq(left_files, 0, "arenabench left %d entries in its TMPDIR %s", left_files, tmp);
    free(tmp);
    free(work);
}
/* The CPU limit of a job is the job's, not each process's: an external
 * planner's script that spreads its spinning over three processes is
 * stopped when their CPU time together passes the limit (RLIMIT_CPU alone
 * let each process use the whole limit; on main the row was `error`, "exited
 * with status 152", after 5.4 s of CPU against a limit of 2). The row is a
 * timeout, its CPU time counts the three, and nothing is left. */
Test(spawn, the_cpu_limit_holds_for_the_planner_and_what_it_starts, .timeout = 600) {
    char *tmp = abt_tmpdir(), *work = abt_tmpdir();
    char script[4096], pids[4096], text[8192];
    snprintf(script, sizeof script, "%s/planner.sh", work);
    snprintf(pids, sizeof pids, "%s/pids", work);
    snprintf(text, sizeof text,
             "#!/bin/sh\n"
             "( while :; do :; done ) &\n"
             "echo $! >> '%s'\n"
             "( while :; do :; done ) &\n"
             "echo $! >> '%s'\n"
             "echo $$ >> '%s'\n"
             "while :; do :; done\n",
             pids, pids, pids);
    put_file(script, text, true);
    abe_options opt = {.jobs = 1, .cpu_limit = 1.5, .time_limit = 540};
    abe_job_result res;
    run_script_job(script, tmp, &opt, &res);
    pid_t list[4];
    int n = read_pid_list(pids, list, 4);
    int alive = 0;
    for (int i = 0; i < n; i++)
        if (kill(list[i], 0) == 0) alive++, kill(list[i], SIGKILL);
    cr_assert_eq(n, 3, "the script wrote %d pids of 3", n);
    cr_assert_eq(alive, 0, "%d of the script's processes outlived abe_run", alive);
    cr_assert_eq(res.status, ABE_TIMEOUT, "status %d: %s", (int)res.status, res.message);
    cr_assert(strstr(res.message, "CPU limit") != NULL, "%s", res.message);
    cr_assert_geq(res.cpu_seconds, 1.5, "cpu %g", res.cpu_seconds);
    cr_assert_eq(res.capped, ABE_CAPPED_TIME);
    cr_assert_eq(entries(tmp), 0, "the run left files in its TMPDIR %s", tmp);
    abe_result_free(&res);
    free(tmp);
    free(work);
}
#endif

/* ---- what escapes the group, the job's memory (issue "Trust under load and faults", 4, 5) ---- */

/* sh -c text that starts a sleeper in a session of its own (setsid, TERM
 * ignored) and one in a group of its own (bash's `set -m`), whose parents
 * exit at once, appends their pids to the file pids, then runs `then`. */
static void escaping_script(char *out, size_t cap, const char *pids, const char *then) {
    snprintf(out, cap,
             "setsid bash -c \"(trap '' TERM; exec sleep 1000) & echo \\$! >> '%s'\"; "
             "bash -c '(set -m; (exec sleep 1001) & echo $! >> \"%s\")'; %s",
             pids, pids, then);
}

/* How many of the two pids in path are still there, at once (no waiting:
 * the spawner has reaped them when it returns); kills and reaps those, so a
 * failing test leaves nothing running. */
static int escaped_alive(const char *path) {
    pid_t pids[2];
    cr_assert_eq(read_pid_list(path, pids, 2), 2, "the script wrote no pids to %s", path);
    int alive = 0;
    for (int i = 0; i < 2; i++) {
        if (kill(pids[i], 0) == -1 && errno == ESRCH) continue;
        alive++;
        kill(pids[i], SIGKILL);
        waitpid(pids[i], NULL, 0); /* ours when we are a subreaper; else harmless */
    }
    return alive;
}

/* The containment modes a test of what escapes runs under (spawn.h,
 * Containment): the subreaper alone always; a cgroup per job too where this
 * machine can make one (else said, and that half skipped). Returns the count. */
static int modes(abe_contain_mode m[2]) {
    const char *why;
    m[0] = ABE_CONTAIN_SUBREAPER;
    if (abe_cgroup_usable(&why)) {
        m[1] = ABE_CONTAIN_CGROUP;
        return 2;
    }
    cr_log_warn("no cgroup per job on this machine (%s): the cgroup half is skipped", why);
    return 1;
}

static const char *mode_word(abe_contain_mode m) {
    return m == ABE_CONTAIN_CGROUP ? "cgroup" : "subreaper";
}

Test(spawn, kills_what_left_the_group_and_session_when_the_program_exits) {
    abe_contain_mode m[2];
    for (int k = 0, n = modes(m); k < n; k++) {
        abe_set_containment(m[k]);
        char *work = abt_tmpdir();
        char pids[4096], cmd[16384];
        snprintf(pids, sizeof pids, "%s/pids", work);
        escaping_script(cmd, sizeof cmd, pids, "exit 0");
        char *argv[] = {"sh", "-c", cmd, NULL};
        abe_exit e = run(&(abe_spawn_opts){.path = "/bin/sh", .argv = argv, .capture = true,
                                           .reap_descendants = true, .time_limit = 600},
                         NULL, 0);
        cr_assert(e.exited && e.code == 0, "%s: exited %d code %d", mode_word(m[k]), e.exited,
                  e.code);
        cr_assert_str_eq(e.containment, mode_word(m[k]));
        cr_assert_eq(escaped_alive(pids), 0, "%s: a sleeper outside the group outlived the spawn",
                     mode_word(m[k]));
        free(work);
    }
}

Test(spawn, kills_what_left_the_group_and_session_when_the_program_is_killed) {
    abe_contain_mode m[2];
    for (int k = 0, n = modes(m); k < n; k++) {
        abe_set_containment(m[k]);
        char *work = abt_tmpdir();
        char pids[4096], cmd[16384], text[ABE_TAIL + 1];
        snprintf(pids, sizeof pids, "%s/pids", work);
        escaping_script(cmd, sizeof cmd, pids, "echo ready; exec sleep 1002");
        char *argv[] = {"sh", "-c", cmd, NULL};
        abe_proc *p;
        ab_error err;
        cr_assert_eq(abe_spawn(&(abe_spawn_opts){.path = "/bin/sh", .argv = argv, .capture = true,
                                                 .reap_descendants = true, .time_limit = 600},
                               &p, &err), AB_OK, "%s", err.msg);
        char buf[256];
        while (strstr(tail_of(p, text, sizeof text), "ready") == NULL) { /* the pids are written */
            struct pollfd pfd = {.fd = abe_fd(p), .events = POLLIN};
            cr_assert_geq(abe_fd(p), 0, "the script ended early: %s", text);
            poll(&pfd, 1, 1000);
            abe_read(p, buf, sizeof buf);
        }
        abe_kill(p); /* what the deadline does */
        abe_exit e;
        abe_wait(p, &e);
        abe_free(p);
        cr_assert(e.killed);
        cr_assert_str_eq(e.containment, mode_word(m[k]));
        cr_assert_eq(escaped_alive(pids), 0, "%s: a sleeper outside the group outlived the kill",
                     mode_word(m[k]));
        free(work);
    }
}

/* Through the runner, with `external`: the tester's case. The script's
 * sleepers in their own session and group are gone when abe_run returns,
 * whether the script exits (the row an error: no output) or runs into the
 * time limit (a timeout row; the limit is far above the few ms the script
 * needs to write its pids). */
Test(spawn, an_external_planner_s_escaped_processes_end_with_the_job, .timeout = 300) {
    char *tmp = abt_tmpdir(), *work = abt_tmpdir();
    const char *then[] = {"exit 1", "exec sleep 1003"};
    abe_contain_mode m[2];
    int nm = modes(m);
    /* Both endings without a cgroup; the exit alone in one (a kill of a job in
     * a cgroup is the same abe_kill as the spawn tests above, and the time
     * limit's wait would double the test's time). */
    for (int k = 0; k < 2 * nm - (nm > 1); k++) {
        abe_set_containment(m[k / 2]);
        char script[4096], pids[4096], body[16384], text[20000];
        snprintf(script, sizeof script, "%s/planner%d.sh", work, k);
        snprintf(pids, sizeof pids, "%s/pids%d", work, k);
        escaping_script(body, sizeof body, pids, then[k % 2]);
        snprintf(text, sizeof text, "#!/bin/sh\n%s\n", body);
        put_file(script, text, true);
        abe_options opt = {.jobs = 1, .time_limit = k % 2 == 0 ? 240 : 20};
        abe_job_result res;
        run_script_job(script, tmp, &opt, &res);
        cr_assert_eq(res.status, k % 2 == 0 ? ABE_ERROR : ABE_TIMEOUT, "run %d: status %d: %s", k,
                     (int)res.status, res.message);
        cr_assert_str_eq(res.containment, mode_word(m[k / 2]));
        cr_assert_eq(escaped_alive(pids), 0, "run %d (%s): a sleeper outlived the job", k,
                     mode_word(m[k / 2]));
        abe_result_free(&res);
    }
    free(tmp);
    free(work);
}

/* `--mem-limit` holds for the job, not for each process: an external
 * planner whose program forks 3 children holding 100 MiB each, under a
 * limit of 200 MiB that each of them alone is far under, is killed as oom,
 * its message naming the job's total over its processes; its peak is the
 * total sampled. The children hold their memory until killed, so the
 * sampler sees them however loaded the machine. */
Test(spawn, the_memory_limit_holds_for_the_job_s_processes_together, .timeout = 300) {
    char *tmp = abt_tmpdir(), *work = abt_tmpdir();
    char script[4096], text[8192];
    snprintf(script, sizeof script, "%s/planner.sh", work);
    snprintf(text, sizeof text, "#!/bin/sh\nexec '%s/ab-memhog' 3 100\n", AB_BINARY_DIR);
    put_file(script, text, true);
    const int64_t limit = 200 * (int64_t)1 << 20;
    abe_contain_mode m[2];
    for (int k = 0, n = modes(m); k < n; k++) {
        abe_set_containment(m[k]);
        abe_options opt = {.jobs = 1, .time_limit = 240, .mem_limit = limit};
        abe_job_result res;
        run_script_job(script, tmp, &opt, &res);
        cr_assert_eq(res.status, ABE_OOM, "%s: status %d: %s", mode_word(m[k]), (int)res.status,
                     res.message);
        cr_assert(strstr(res.message, "total") != NULL && strstr(res.message, "processes") != NULL,
                  "%s", res.message);
        cr_assert_str_eq(res.containment, mode_word(m[k]));
        if (m[k] == ABE_CONTAIN_CGROUP) {
            /* The kernel stops the job at its limit: its peak is the limit, give or
             * take what it could reclaim. */
            cr_assert(strstr(res.message, "cgroup") != NULL, "%s", res.message);
            cr_assert_geq(res.peak_rss, limit - limit / 10, "peak %lld", (long long)res.peak_rss);
        } else {
            cr_assert_gt(res.peak_rss, limit, "peak %lld", (long long)res.peak_rss);
        }
        cr_assert_eq(res.capped, ABE_CAPPED_MEMORY);
        abe_result_free(&res);
    }
    free(tmp);
    free(work);
}

/* ---- a cgroup per job (spawn.h, Containment; issue 30: contain each job whole) ---- */

/* How many groups of this process's are in the folder where job groups go. */
static int own_groups(void) {
    const char *dir = abe_cgroup_parent();
    if (dir == NULL) return 0;
    char prefix[64];
    int plen = snprintf(prefix, sizeof prefix, "arenabench.%d.", (int)getpid());
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    int n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        if (strncmp(de->d_name, prefix, (size_t)plen) == 0) n++;
    closedir(d);
    return n;
}

/* true when process pid has ended (gone, or a zombie not yet reaped). */
static bool gone(pid_t pid) {
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL) return true;
    size_t got = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[got] = '\0';
    const char *close_paren = strrchr(text, ')');
    return close_paren == NULL || close_paren[1] == '\0' || close_paren[2] == 'Z' ||
           close_paren[2] == 'X';
}

/* A job's group exists while it runs, with the job's process in it and the
 * limit set, and is gone once the job is reaped, however it ended. */
Test(spawn, a_job_s_cgroup_holds_it_while_it_runs_and_goes_with_it) {
    const char *why;
    if (!abe_cgroup_usable(&why)) cr_skip_test("no cgroup per job on this machine: %s", why);
    abe_set_containment(ABE_CONTAIN_CGROUP);
    for (int k = 0; k < 2; k++) { /* killed; exits by itself */
        char *argv[] = {"sh", "-c", k == 0 ? "echo ready; exec sleep 1004" : "echo ready", NULL};
        abe_proc *p;
        ab_error err;
        cr_assert_eq(abe_spawn(&(abe_spawn_opts){.path = "/bin/sh", .argv = argv, .capture = true,
                                                 .reap_descendants = true, .time_limit = 600,
                                                 .mem_limit = 64 << 20},
                               &p, &err), AB_OK, "%s", err.msg);
        cr_assert_eq(own_groups(), 1);
        char text[ABE_TAIL + 1], buf[256];
        while (strstr(tail_of(p, text, sizeof text), "ready") == NULL) {
            struct pollfd pfd = {.fd = abe_fd(p), .events = POLLIN};
            cr_assert_geq(abe_fd(p), 0, "the script ended early: %s", text);
            poll(&pfd, 1, 1000);
            abe_read(p, buf, sizeof buf);
        }
        /* the sleeper is in a group whose name is this process's */
        char path[64], cg[8192];
        if (k == 1) goto reap;
        snprintf(path, sizeof path, "/proc/%d/cgroup", (int)abe_pid(p));
        FILE *f = fopen(path, "r");
        cr_assert_not_null(f);
        size_t got = fread(cg, 1, sizeof cg - 1, f);
        cg[got] = '\0';
        fclose(f);
        char mine[64];
        snprintf(mine, sizeof mine, "/arenabench.%d.", (int)getpid());
        cr_assert(strstr(cg, mine) != NULL, "%s", cg);
        const char *layout = abe_cgroup_layout();
        if (strcmp(layout, "v1") != 0) { /* a v2 group: the job's, for cgroup.kill */
            const char *v2 = strncmp(cg, "0::", 3) == 0 ? cg : strstr(cg, "\n0::");
            cr_assert(v2 != NULL && strstr(v2, mine) != NULL, "%s: %s", layout, cg);
        }
    reap:;
        abe_exit e;
        if (k == 0) abe_kill(p);
        abe_wait(p, &e);
        abe_free(p);
        cr_assert_str_eq(e.containment, "cgroup");
        cr_assert_eq(own_groups(), 0, "a job's cgroup outlived it");
    }
}

/* A run killed with SIGKILL cannot remove its jobs' groups, and a process
 * that escaped its job's session lives on in one: the next process that
 * makes job groups kills it and removes the group. */
Test(spawn, a_killed_spawner_s_cgroups_and_escaped_processes_go_at_the_next_probe,
     .timeout = 300) {
    const char *why;
    if (!abe_cgroup_usable(&why)) cr_skip_test("no cgroup per job on this machine: %s", why);
    char *work = abt_tmpdir();
    char pids[4096];
    snprintf(pids, sizeof pids, "%s/pids", work);
    int ready[2];
    cr_assert_eq(pipe(ready), 0);
    pid_t spawner = fork();
    cr_assert_geq(spawner, 0);
    if (spawner == 0) { /* a fresh process: it probes, and its groups are its own */
        close(ready[0]);
        abe_set_containment(ABE_CONTAIN_CGROUP);
        char cmd[16384];
        escaping_script(cmd, sizeof cmd, pids, "echo ready; exec sleep 1005");
        char *argv[] = {"sh", "-c", cmd, NULL};
        abe_proc *p;
        ab_error err;
        if (abe_spawn(&(abe_spawn_opts){.path = "/bin/sh", .argv = argv, .capture = true,
                                        .reap_descendants = true},
                      &p, &err) != AB_OK)
            _exit(1);
        char text[ABE_TAIL + 1], buf[256];
        while (strstr(tail_of(p, text, sizeof text), "ready") == NULL) {
            struct pollfd pfd = {.fd = abe_fd(p), .events = POLLIN};
            if (abe_fd(p) < 0) _exit(2);
            poll(&pfd, 1, 1000);
            abe_read(p, buf, sizeof buf);
        }
        if (write(ready[1], "r", 1) != 1) _exit(3);
        for (;;) pause();
    }
    close(ready[1]);
    char c;
    cr_assert_eq(read(ready[0], &c, 1), 1, "the spawner failed before its job was ready");
    close(ready[0]);
    kill(spawner, SIGKILL);
    waitpid(spawner, NULL, 0);
    pid_t list[2];
    cr_assert_eq(read_pid_list(pids, list, 2), 2);
    /* Its job's escaped sleepers went to init, alive in its group, which
     * nothing removed. Any arenabench process's next probe sweeps it, this
     * one's below or another's of the test run side by side (each process's
     * first probe sweeps): so the group and the sleepers may be gone already,
     * and only the end is asserted. */
    char dead[4200];
    snprintf(dead, sizeof dead, "%s/arenabench.%d.0", abe_cgroup_parent(), (int)spawner);
    struct stat st;
    if (stat(dead, &st) != 0) cr_log_info("%s was swept by another process first", dead);
    abe_cgroup_sweep();
    cr_assert(stat(dead, &st) != 0 && errno == ENOENT, "%s is still there", dead);
    for (int i = 0; i < 50; i++) { /* the kill is sent; the sleepers' ends are init's to reap */
        int alive = 0;
        for (int j = 0; j < 2; j++) alive += !gone(list[j]);
        if (alive == 0) break;
        cr_assert_lt(i, 49, "%d escaped sleepers outlived the sweep", alive);
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
    }
    free(work);
}

/* ---- the scratch root (spawn.h; issue 30, 13: kill -9 left job folders) ---- */

/* A child opens a root, sends its path, then waits to be killed; returns its
 * pid, the path in path. */
static pid_t child_with_root(char *path, size_t cap) {
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        abe_scratch_root r;
        abe_scratch_root_open(&r);
        const char *p = r.path != NULL ? r.path : "";
        if (write(fds[1], p, strlen(p) + 1) < 0) _exit(1);
        for (;;) pause();
    }
    close(fds[1]);
    ssize_t got = 0, k;
    while ((k = read(fds[0], path + got, cap - 1 - (size_t)got)) > 0) {
        got += k;
        if (path[got - 1] == '\0') break;
    }
    close(fds[0]);
    path[got > 0 ? got : 0] = '\0';
    return pid;
}

/* A run killed with SIGKILL cannot remove its folders: the next root opened
 * beside it removes them, and leaves a live run's root alone. */
Test(spawn, a_killed_runs_scratch_root_goes_at_the_next_open_a_live_one_stays) {
    char *tmp = abt_tmpdir();
    setenv("TMPDIR", tmp, 1);
    char dead[4096], live[4096], job[4200];
    pid_t a = child_with_root(dead, sizeof dead);
    pid_t b = child_with_root(live, sizeof live);
    cr_assert(dead[0] != '\0' && live[0] != '\0', "no root was made in %s", tmp);
    snprintf(job, sizeof job, "%s/arenabench-job.abc123", dead);
    cr_assert_eq(mkdir(job, 0700), 0); /* what a job of the killed run left */
    kill(a, SIGKILL);
    waitpid(a, NULL, 0);
    abe_scratch_root r;
    abe_scratch_root_open(&r);
    cr_assert_not_null(r.path);
    cr_assert_eq(r.swept, 1, "swept %zu", r.swept);
    struct stat st;
    cr_assert(stat(dead, &st) != 0 && errno == ENOENT, "%s is still there", dead);
    cr_assert_eq(stat(live, &st), 0, "the live run's %s was removed", live);
    char mine[4096];
    snprintf(mine, sizeof mine, "%s", r.path);
    abe_scratch_root_close(&r);
    cr_assert(stat(mine, &st) != 0, "closing left %s", mine);
    kill(b, SIGKILL);
    waitpid(b, NULL, 0);
    abe_scratch_root_open(&r);
    cr_assert_eq(r.swept, 1);
    abe_scratch_root_close(&r);
    cr_assert_eq(entries(tmp), 0);
    free(tmp);
}
