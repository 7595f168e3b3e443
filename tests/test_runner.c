/*
 * test_runner.c — the job runner: planners that crash, abort, hang, allocate
 * without bound, print, fail or return an overlapping plan are each recorded
 * with the right status while later jobs still run; -j 1 and -j 2 agree; a
 * 200,000-tensor plan comes back intact; the result frame's reader refuses
 * truncated and garbled streams; a stopped run leaves no child behind, not
 * even what the planner `external` started in a process group of its own.
 *
 * No test races the machine's speed. A job that must end by itself runs under
 * a limit of minutes (a guard, never reached); a job that must be killed at
 * the time limit never ends by itself (test-hang), and the jobs beside it take
 * milliseconds against a limit of seconds (>= 100x); a timeout status without
 * a wait comes from test-error:status=limit. Upper bounds on elapsed time only
 * say "killed, not left running" (a minute beyond the limit).
 */
#include <criterion/criterion.h>
#include <errno.h>
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

#include "core/problem.h"
#include "harness/engine/runner.h"
#include "harness/engine/spawn.h"
#include "planners/planner.h"

#if defined(__SANITIZE_ADDRESS__)
#define AB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AB_ASAN 1
#endif
#endif

#define MIB ((int64_t)1 << 20)
#define GUARD_S 300.0 /* the wall-clock limit of jobs that end by themselves */
#define KILL_S 2.0    /* the limit of runs with a job that never ends */
#define LATE_S 60.0   /* how late past its limit a killed job may be reaped */

#ifdef AB_ASAN
/* Under AddressSanitizer an allocation over the memory limit ends the process
 * with a report by default; with allocator_may_return_null, malloc returns
 * NULL as libc's does, so the planner's own out-of-memory path runs and the
 * runner sees AB_ENOMEM. (The limit itself binds under ASan through
 * RLIMIT_DATA and RLIMIT_AS over the child's inherited size.) ASAN_OPTIONS in
 * the environment still overrides every other default. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

/* n tensors of 16 bytes, all live at [0, 1]: every pair conflicts. */
static void make_clique(ab_problem *p, size_t n) {
    ab_problem_init(p);
    for (size_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%zu", i);
        ab_tensor t = {.name = name, .size = 16, .logical_bits = 128, .start = 0, .end = 1,
                       .align = 1, .offset = AB_NONE};
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

/* n tensors with short, overlapping live ranges and sizes from a fixed LCG. */
static void make_chain(ab_problem *p, size_t n) {
    ab_problem_init(p);
    uint64_t x = 12345;
    for (size_t i = 0; i < n; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        char name[32];
        snprintf(name, sizeof name, "t%zu", i);
        int64_t start = (int64_t)(i / 4);
        ab_tensor t = {.name = name, .size = 1 + (int64_t)((x >> 33) % 4096),
                       .start = start, .end = start + (int64_t)((x >> 20) % 8),
                       .align = 1 << ((x >> 40) % 4), .offset = AB_NONE};
        t.logical_bits = t.size * 8;
        cr_assert_eq(ab_problem_add(p, &t, NULL), AB_OK);
    }
}

/* A list of jobs with the params they point to. */
typedef struct batch {
    size_t n;
    abe_job jobs[32];
    ab_params prm[32];
} batch;

static void add(batch *b, const ab_problem *view, const char *spec) {
    ab_error e;
    const ab_planner *pl;
    cr_assert_lt(b->n, 32);
    cr_assert_eq(ab_planner_resolve(spec, &pl, &b->prm[b->n], &e), AB_OK, "%s", e.msg);
    b->jobs[b->n] = (abe_job){.view = view, .planner = pl, .params = &b->prm[b->n]};
    b->n++;
}

static void batch_free(batch *b) {
    for (size_t i = 0; i < b->n; i++) ab_params_free(&b->prm[i]);
    b->n = 0;
}

static ab_status run(const batch *b, int jobs, double time_limit, int64_t mem_limit,
                     abe_job_result *res) {
    abe_options opt = {.jobs = jobs, .time_limit = time_limit, .mem_limit = mem_limit};
    ab_error e;
    ab_error_clear(&e);
    ab_status st = abe_run(b->jobs, b->n, &opt, res, NULL, NULL, &e);
    cr_assert_eq(st, AB_OK, "abe_run: %s", e.msg);
    return st;
}

/* Offsets of p planned in this process, as the runner's child would. */
static int64_t *plan_here(const char *spec, const ab_problem *p) {
    const ab_planner *pl;
    ab_params prm;
    ab_error e;
    cr_assert_eq(ab_planner_resolve(spec, &pl, &prm, &e), AB_OK);
    int64_t *off = malloc((p->n ? p->n : 1) * sizeof *off);
    ab_plan_stats st = {.lower_bound = AB_NONE};
    cr_assert_eq(pl->plan(p, &prm, off, &st, &e), AB_OK, "%s", e.msg);
    ab_params_free(&prm);
    return off;
}

static bool no_children_left(void) {
    return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

Test(runner, each_misbehaving_planner_is_recorded_and_later_jobs_still_run) {
    ab_problem p;
    make_clique(&p, 5);
    batch b = {0};
    add(&b, &p, "test-crash");            /* 0 */
    add(&b, &p, "test-abort");            /* 1 */
    add(&b, &p, "test-hang");             /* 2 */
    add(&b, &p, "test-overlap");          /* 3 */
    add(&b, &p, "test-error");            /* 4 */
    add(&b, &p, "test-crash:how=exit");   /* 5 */
    add(&b, &p, "test-crash:how=kill");   /* 6 */
    add(&b, &p, "first-fit:order=start"); /* 7: made bogus below, past resolve's check, */
    b.prm[7].v[0].value[0] = 'X';         /*    so the planner itself fails in the child */
    add(&b, &p, "first-fit");             /* 8 */
    abe_job_result res[9];
    run(&b, 2, KILL_S, 256 * MIB, res);

    for (size_t i = 0; i < b.n; i++) cr_assert(res[i].finished, "job %zu unfinished", i);
    cr_assert_eq(res[0].status, ABE_CRASH, "%s", res[0].message);
    cr_assert_eq(res[0].signal, SIGSEGV);
    cr_assert(strstr(res[0].message, "SIGSEGV") != NULL, "%s", res[0].message);
    cr_assert_null(res[0].offsets);
    cr_assert_eq(res[1].status, ABE_CRASH, "%s", res[1].message);
    cr_assert_eq(res[1].signal, SIGABRT);
    cr_assert_eq(res[2].status, ABE_TIMEOUT, "%s", res[2].message);
    cr_assert_geq(res[2].wall_seconds, KILL_S);
    cr_assert_lt(res[2].wall_seconds, KILL_S + LATE_S);
    cr_assert_eq(res[3].status, ABE_OK, "%s", res[3].message);
    cr_assert_not_null(res[3].offsets);
    for (size_t i = 0; i < p.n; i++) cr_assert_eq(res[3].offsets[i], 0);
    cr_assert_str_eq(res[3].stats.note, "every tensor at offset 0");
    cr_assert_eq(res[3].stats.nodes, 5);
    cr_assert_eq(res[4].status, ABE_ERROR);
    cr_assert_eq(res[4].planner_status, AB_EINPUT);
    cr_assert(strstr(res[4].message, "test-error") != NULL, "%s", res[4].message);
    cr_assert_eq(res[5].status, ABE_CRASH);
    cr_assert_eq(res[5].signal, 0);
    cr_assert(strstr(res[5].message, "exited with status 3 without a result") != NULL, "%s",
              res[5].message);
    cr_assert_eq(res[6].status, ABE_OOM, "an unexplained SIGKILL is the OOM killer's");
    cr_assert_eq(res[6].signal, SIGKILL);
    cr_assert_eq(res[7].status, ABE_ERROR);
    cr_assert(strstr(res[7].message, "parameter order") != NULL, "%s", res[7].message);
    cr_assert_eq(res[8].status, ABE_OK, "%s", res[8].message);
    int64_t *want = plan_here("first-fit", &p);
    cr_assert_arr_eq(res[8].offsets, want, p.n * sizeof *want);
    cr_assert_gt(res[8].peak_rss, 0);
    cr_assert_gt(res[8].base_rss, 0);
    free(want);
    cr_assert(no_children_left());
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

/* The bomb stopped near the limit: it touched at least half of it, and at
 * most the limit plus what the child inherited reserved but unused (a glibc
 * thread arena reserves 64 MiB of address space up front; the Criterion
 * worker has one) plus slack. */
static void assert_bounded(const abe_job_result *r) {
    cr_assert_geq(r->peak_rss - r->base_rss, 128 * MIB, "peak %lld base %lld: %s",
                  (long long)r->peak_rss, (long long)r->base_rss, r->message);
    cr_assert_leq(r->peak_rss - r->base_rss, (256 + 64 + 32) * MIB, "peak %lld base %lld: %s",
                  (long long)r->peak_rss, (long long)r->base_rss, r->message);
}

/* An oom either way the limit binds: an allocation fails (RLIMIT_AS or
 * RLIMIT_DATA) and the planner says so, or the runner's sampling of the
 * job's total saw it pass the limit first (the bomb can fill address space
 * it inherited reserved, so its resident bytes can pass the limit before an
 * allocation fails) and killed it. */
static void assert_oom(const abe_job_result *r) {
    cr_assert_eq(r->status, ABE_OOM, "%s: %s", abe_status_name(r->status), r->message);
    if (r->planner_status == AB_OK) { /* killed, never returned */
        cr_assert(strstr(r->message, "job's total memory") != NULL, "%s", r->message);
    } else {
        cr_assert_eq(r->planner_status, AB_ENOMEM);
        cr_assert(strstr(r->message, "allocation failed after") != NULL, "%s", r->message);
    }
    assert_bounded(r);
}

Test(runner, alloc_bomb_is_oom_under_a_256_mib_limit) {
    ab_problem p;
    make_clique(&p, 3);
    batch b = {0};
    add(&b, &p, "test-alloc-bomb");          /* 16 MiB blocks */
    add(&b, &p, "test-alloc-bomb:block=64"); /* 64 KiB blocks: ASan's primary heap */
    add(&b, &p, "first-fit");                /* fits easily under the same limit */
    abe_job_result res[3];
#ifdef AB_ASAN
    /* ASan's allocator maps its own metadata too; when that mmap is the one
     * refused, ASan ends the child with a report ("Failed to mmap", exit 1)
     * instead of returning NULL: a crash. Either way the limit held. The
     * children's stderr is caught here to tell that crash from any other. */
    fflush(stderr);
    FILE *caught = tmpfile();
    cr_assert_not_null(caught);
    int saved = dup(STDERR_FILENO);
    dup2(fileno(caught), STDERR_FILENO);
    run(&b, 2, GUARD_S, 256 * MIB, res);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char text[4096] = "";
    cr_assert_geq(pread(fileno(caught), text, sizeof text - 1, 0), 0);
    fclose(caught);
    assert_oom(&res[0]);
    if (res[1].status == ABE_CRASH) {
        cr_assert(strstr(text, "mmap") != NULL, "%s; stderr: %s", res[1].message, text);
        assert_bounded(&res[1]);
    } else {
        assert_oom(&res[1]);
    }
#else
    run(&b, 2, GUARD_S, 256 * MIB, res);
    assert_oom(&res[0]);
    assert_oom(&res[1]);
#endif
    cr_assert_eq(res[2].status, ABE_OK, "%s", res[2].message);
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

Test(runner, alloc_bomb_refuses_to_run_without_a_limit) {
    ab_problem p;
    make_clique(&p, 2);
    batch b = {0};
    add(&b, &p, "test-alloc-bomb");
    abe_job_result res[1];
    run(&b, 1, GUARD_S, 0, res);
    cr_assert_eq(res[0].status, ABE_ERROR);
    cr_assert(strstr(res[0].message, "only under a memory limit") != NULL, "%s", res[0].message);
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

Test(runner, planner_statuses_map_to_job_statuses) {
    ab_problem p;
    make_clique(&p, 2);
    batch b = {0};
    add(&b, &p, "test-error:status=nomem");
    add(&b, &p, "test-error:status=limit");
    add(&b, &p, "test-error:status=internal");
    add(&b, &p, "test-error:status=check");
    abe_job_result res[4];
    run(&b, 2, GUARD_S, 0, res);
    cr_assert_eq(res[0].status, ABE_OOM);
    cr_assert_eq(res[0].planner_status, AB_ENOMEM);
    cr_assert_eq(res[1].status, ABE_TIMEOUT);
    cr_assert_eq(res[1].planner_status, AB_ELIMIT);
    cr_assert_eq(res[2].status, ABE_ERROR);
    cr_assert_eq(res[2].planner_status, AB_EINTERNAL);
    cr_assert_eq(res[3].status, ABE_ERROR);
    cr_assert_eq(res[3].planner_status, AB_ECHECK);
    for (size_t i = 0; i < 4; i++) {
        cr_assert_null(res[i].offsets);
        cr_assert(strstr(res[i].message, "failing with status") != NULL, "%s", res[i].message);
    }
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

/* The spinning child gets a share of a CPU for KILL_S seconds: even a
 * quarter core (two busy loops and two test workers on two cores) is 50x the
 * 0.01 s asserted. */
Test(runner, timeout_kills_a_spinning_planner_and_counts_its_cpu) {
    ab_problem p;
    make_clique(&p, 2);
    batch b = {0};
    add(&b, &p, "test-hang:how=spin");
    abe_job_result res[1];
    run(&b, 1, KILL_S, 0, res);
    cr_assert_eq(res[0].status, ABE_TIMEOUT);
    cr_assert_eq(res[0].signal, 0, "the runner's own SIGKILL is not a crash signal");
    cr_assert(strstr(res[0].message, "time limit of 2 s") != NULL, "%s", res[0].message);
    cr_assert_geq(res[0].wall_seconds, KILL_S);
    cr_assert_lt(res[0].wall_seconds, KILL_S + LATE_S);
    cr_assert_gt(res[0].cpu_seconds, 0.01, "cpu %g (a spinning child is charged)",
                 res[0].cpu_seconds);
    cr_assert_leq(res[0].cpu_seconds, res[0].wall_seconds + 0.05);
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

/* Records the finish order; checks each index comes once. */
typedef struct seen {
    size_t count;
    size_t order[32];
    int calls[32];
} seen;

static ab_status record(void *ctx, size_t index, abe_job_result *r, ab_error *err) {
    seen *s = ctx;
    cr_assert(r->finished);
    s->calls[index]++;
    s->order[s->count++] = index;
    return AB_OK;
}

Test(runner, j1_and_j2_give_identical_results_in_job_order) {
    ab_problem small, chain;
    make_clique(&small, 6);
    make_chain(&chain, 2000);
    batch b = {0};
    add(&b, &chain, "best-fit");
    add(&b, &small, "test-crash");
    add(&b, &chain, "first-fit:order=size");
    add(&b, &small, "test-error:status=limit"); /* a timeout that waits for no clock */
    add(&b, &small, "test-overlap");
    add(&b, &chain, "first-fit");
    add(&b, &small, "test-error:status=check");
    add(&b, &small, "test-abort");
    abe_job_result r1[8], r2[8];
    seen s1 = {0}, s2 = {0};
    ab_error e;
    abe_options o1 = {.jobs = 1, .time_limit = GUARD_S, .mem_limit = 256 * MIB};
    abe_options o2 = {.jobs = 2, .time_limit = GUARD_S, .mem_limit = 256 * MIB};
    cr_assert_eq(abe_run(b.jobs, b.n, &o1, r1, record, &s1, &e), AB_OK);
    cr_assert_eq(abe_run(b.jobs, b.n, &o2, r2, record, &s2, &e), AB_OK);
    cr_assert_eq(s1.count, b.n);
    cr_assert_eq(s2.count, b.n);
    for (size_t i = 0; i < b.n; i++) {
        cr_assert_eq(s1.calls[i], 1);
        cr_assert_eq(s2.calls[i], 1);
        cr_assert_eq(s1.order[i], i, "-j 1 finishes in job order");
        cr_assert_eq(r1[i].status, r2[i].status, "job %zu", i);
        cr_assert_eq(r1[i].signal, r2[i].signal, "job %zu", i);
        cr_assert_eq(r1[i].planner_status, r2[i].planner_status, "job %zu", i);
        cr_assert_str_eq(r1[i].message, r2[i].message, "job %zu", i);
        cr_assert_eq(r1[i].n, r2[i].n);
        cr_assert_eq(r1[i].offsets == NULL, r2[i].offsets == NULL);
        if (r1[i].offsets)
            cr_assert_arr_eq(r1[i].offsets, r2[i].offsets, r1[i].n * sizeof *r1[i].offsets);
    }
    cr_assert_eq(r1[0].status, ABE_OK);
    cr_assert_eq(r1[3].status, ABE_TIMEOUT);
    cr_assert_eq(r1[7].signal, SIGABRT);
    abe_results_free(r1, b.n);
    abe_results_free(r2, b.n);
    batch_free(&b);
    ab_problem_free(&small);
    ab_problem_free(&chain);
}

Test(runner, hands_back_200000_offsets_intact) {
    ab_problem p;
    make_chain(&p, 200000);
    batch b = {0};
    add(&b, &p, "first-fit");
    add(&b, &p, "test-overlap");
    abe_job_result res[2];
    run(&b, 2, GUARD_S, 0, res);
    cr_assert_eq(res[0].status, ABE_OK, "%s", res[0].message);
    cr_assert_eq(res[0].n, p.n);
    int64_t *want = plan_here("first-fit", &p);
    cr_assert_arr_eq(res[0].offsets, want, p.n * sizeof *want);
    cr_assert_eq(res[1].status, ABE_OK, "%s", res[1].message);
    free(want);
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

Test(runner, a_planner_printing_to_stdout_is_harmless) {
    ab_problem p;
    make_clique(&p, 3);
    batch b = {0};
    add(&b, &p, "test-overlap:print=1000000");
    abe_job_result res[1];
    fflush(stdout);
    FILE *capture = tmpfile();
    cr_assert_not_null(capture);
    int saved = dup(STDOUT_FILENO);
    cr_assert_geq(saved, 0);
    cr_assert_geq(dup2(fileno(capture), STDOUT_FILENO), 0);
    run(&b, 1, GUARD_S, 0, res);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    cr_assert_eq(res[0].status, ABE_OK, "%s", res[0].message);
    cr_assert_eq(lseek(fileno(capture), 0, SEEK_END), 0, "nothing reached the harness's stdout");
    fclose(capture);
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

static ab_status fail_on_first(void *ctx, size_t index, abe_job_result *r, ab_error *err) {
    (*(int *)ctx)++;
    return ab_fail(err, AB_EINTERNAL, "cannot store job %zu", index);
}

Test(runner, a_failing_callback_stops_the_run_and_leaves_no_child) {
    ab_problem p;
    make_clique(&p, 3);
    batch b = {0};
    add(&b, &p, "first-fit");
    add(&b, &p, "test-hang");
    add(&b, &p, "test-hang");
    add(&b, &p, "test-hang");
    abe_job_result res[4];
    abe_options opt = {.jobs = 2, .time_limit = 60.0};
    ab_error e;
    int calls = 0;
    cr_assert_eq(abe_run(b.jobs, b.n, &opt, res, fail_on_first, &calls, &e), AB_EINTERNAL);
    cr_assert_str_eq(e.msg, "cannot store job 0");
    cr_assert_eq(calls, 1);
    cr_assert(res[0].finished);
    cr_assert_eq(res[0].status, ABE_OK);
    for (size_t i = 1; i < 4; i++) cr_assert(!res[i].finished);
    cr_assert(no_children_left());
    abe_results_free(res, b.n);
    batch_free(&b);
    ab_problem_free(&p);
}

static volatile sig_atomic_t stop_flag;

static ab_status raise_stop(void *ctx, size_t index, abe_job_result *r, ab_error *err) {
    stop_flag = 1;
    return AB_OK;
}

Test(runner, the_stop_flag_ends_the_run_and_leaves_no_child) {
    ab_problem p;
    make_clique(&p, 3);
    batch b = {0};
    add(&b, &p, "test-hang");
    add(&b, &p, "first-fit");
    add(&b, &p, "test-hang");
    abe_options opt = {.jobs = 2, .time_limit = 60.0, .stop = &stop_flag};
    ab_error e;
    stop_flag = 0;
    cr_assert_eq(abe_run(b.jobs, b.n, &opt, NULL, raise_stop, NULL, &e), AB_ELIMIT);
    cr_assert(strstr(e.msg, "interrupted") != NULL, "%s", e.msg);
    cr_assert(no_children_left());
    batch_free(&b);
    ab_problem_free(&p);
}

#ifdef __linux__
/* The pids of the live processes whose parent is ppid, from /proc. */
static size_t children_of(pid_t ppid, pid_t *out, size_t cap) {
    size_t n = 0;
    DIR *d = opendir("/proc");
    cr_assert_not_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[300], line[512];
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL) continue;
        bool got = fgets(line, sizeof line, f) != NULL;
        fclose(f);
        const char *rp = got ? strrchr(line, ')') : NULL;
        char state;
        int parent;
        if (rp == NULL || sscanf(rp + 1, " %c %d", &state, &parent) != 2) continue;
        if (parent == ppid && state != 'Z' && n < cap) out[n++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}
#endif

/* A `kill -9` of the harness must not leave planners running: the children
 * die with their parent (PR_SET_PDEATHSIG). This process becomes a subreaper
 * so the orphans come to it, and it checks they died of SIGKILL. */
Test(runner, killing_the_harness_kills_its_planners) {
#ifndef __linux__
    cr_skip("PR_SET_PDEATHSIG is Linux only");
#else
    cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    pid_t harness = fork();
    cr_assert_geq(harness, 0);
    if (harness == 0) { /* a harness running two planners that never end */
        ab_problem p;
        make_clique(&p, 2);
        batch b = {0};
        add(&b, &p, "test-hang");
        add(&b, &p, "test-hang:how=spin");
        abe_options opt = {.jobs = 2, .time_limit = 60.0};
        abe_run(b.jobs, b.n, &opt, NULL, NULL, NULL, NULL);
        _exit(0);
    }
    pid_t kids[8];
    size_t n = 0;
    for (int t = 0; t < 6000 && n < 2; t++, sleep_ms(10)) n = children_of(harness, kids, 8);
    cr_assert_eq(n, 2, "the harness started its two children");
    kill(harness, SIGKILL);
    cr_assert_eq(waitpid(harness, NULL, 0), harness);
    size_t died = 0;
    for (int t = 0; t < 6000 && died < 2; t++, sleep_ms(10)) { /* up to a minute */
        int st;
        pid_t got;
        while ((got = waitpid(-1, &st, WNOHANG)) > 0)
            if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) died++;
    }
    pid_t left[8];
    size_t nleft = children_of(getpid(), left, 8);
    for (size_t i = 0; i < nleft; i++) {
        kill(left[i], SIGKILL);
        waitpid(left[i], NULL, 0);
    }
    cr_assert_eq(nleft, 0, "%zu planners outlived the harness", nleft);
    cr_assert_eq(died, 2);
#endif
}

/* The escape through `external`: the planner runs a shell in a process group
 * of its own, so the runner's SIGKILL of the job's group (at a limit, or
 * here at the stop flag) reaches the planner only. The spawner's guard must
 * then kill the shell's group: neither the shell nor the sleeper it started
 * in the background may outlive the job. The shell raises the stop flag
 * (SIGUSR1 to this process) once its pids are written, so nothing races the
 * clock; this process is a subreaper, so the orphans come to it to be reaped. */
static void stop_on_usr1(int sig) { stop_flag = 1; }

Test(runner, a_killed_external_planner_takes_its_program_down) {
#ifndef __linux__
    cr_skip("PR_SET_PDEATHSIG is Linux only");
#else
    cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = stop_on_usr1;
    sigemptyset(&sa.sa_mask);
    cr_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
    stop_flag = 0;
    const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char pids[4096], spec[8192];
    snprintf(pids, sizeof pids, "%s/abrunner-pids.%d", dir, (int)getpid());
    unlink(pids);
    snprintf(spec, sizeof spec,
             "external:cmd='sleep 3141 & echo $$ $! > %s.tmp; mv %s.tmp %s; kill -USR1 %d; "
             "sleep 2718 # {input} {output}'",
             pids, pids, pids, (int)getpid());
    ab_problem p;
    make_clique(&p, 2);
    batch b = {0};
    add(&b, &p, spec);
    abe_options opt = {.jobs = 1, .time_limit = 600.0, .stop = &stop_flag};
    ab_error e;
    cr_assert_eq(abe_run(b.jobs, b.n, &opt, NULL, NULL, NULL, &e), AB_ELIMIT, "%s", e.msg);
    int shell = 0, sleeper = 0;
    FILE *f = fopen(pids, "r");
    cr_assert_not_null(f, "the shell wrote no pids");
    cr_assert_eq(fscanf(f, "%d %d", &shell, &sleeper), 2);
    fclose(f);
    unlink(pids);
    bool gone = false;
    for (int t = 0; t < 3000 && !gone; t++) { /* up to 30 s; a few ms in practice */
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        gone = kill(shell, 0) != 0 && kill(sleeper, 0) != 0;
        if (!gone) sleep_ms(10);
    }
    if (!gone) {
        kill(shell, SIGKILL);
        kill(sleeper, SIGKILL);
    }
    cr_assert(gone, "the shell %d or its sleeper %d outlived the job", shell, sleeper);
    batch_free(&b);
    ab_problem_free(&p);
#endif
}

Test(runner, rejects_bad_options) {
    ab_problem p;
    make_clique(&p, 1);
    batch b = {0};
    add(&b, &p, "first-fit");
    abe_options opt = {.jobs = 0};
    ab_error e;
    cr_assert_eq(abe_run(b.jobs, b.n, &opt, NULL, NULL, NULL, &e), AB_EINPUT);
    cr_assert(strstr(e.msg, "at least 1") != NULL, "%s", e.msg);
    opt.jobs = 4;
    cr_assert_eq(abe_run(b.jobs, 0, &opt, NULL, NULL, NULL, &e), AB_OK, "no jobs, nothing to do");
    batch_free(&b);
    ab_problem_free(&p);
}

Test(runner, test_planners_are_hidden_but_resolvable) {
    const char *names[] = {"test-crash", "test-abort", "test-hang", "test-alloc-bomb",
                           "test-overlap", "test-error"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const ab_planner *pl = ab_planner_find(names[i]);
        cr_assert_not_null(pl, "%s", names[i]);
        cr_assert(pl->flags & AB_PLANNER_TEST, "%s", names[i]);
    }
    cr_assert_str_eq(abe_status_name(ABE_OOM), "oom");
    cr_assert_str_eq(ab_signal_name(SIGSEGV), "SIGSEGV");
    cr_assert_null(ab_signal_name(0));
}

/* ---- the frame ---------------------------------------------------------------- */

/* A valid frame for offsets[0 .. n), read back from a temporary file. */
static unsigned char *frame_of(ab_status st, const int64_t *offsets, size_t n, const char *msg,
                               size_t *len) {
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    ab_plan_stats stats = {.nodes = 42, .proven_optimal = true, .lower_bound = 96,
                           .capped = true};
    snprintf(stats.note, sizeof stats.note, "a note");
    abe_usage u = {.base_rss = 4096, .peak_rss = 1 << 20, .plan_cpu_seconds = 0.25};
    cr_assert(abe_write_result(fileno(f), st, offsets, n, &stats, &u, msg));
    long size = lseek(fileno(f), 0, SEEK_END);
    cr_assert_gt(size, 0);
    unsigned char *buf = malloc((size_t)size);
    cr_assert_eq(pread(fileno(f), buf, (size_t)size, 0), size);
    fclose(f);
    *len = (size_t)size;
    return buf;
}

Test(frame, reads_a_frame_whole_or_byte_by_byte) {
    int64_t off[5] = {0, 16, 32, -1, INT64_MAX};
    size_t len;
    unsigned char *buf = frame_of(AB_OK, off, 5, NULL, &len);
    cr_assert_eq(len, 72 + strlen("a note") + 5 * 8 + 8);
    for (int bytewise = 0; bytewise < 2; bytewise++) {
        abe_reader *rd = abe_reader_new(5);
        if (bytewise)
            for (size_t i = 0; i < len; i++)
                cr_assert_eq(abe_reader_feed(rd, buf + i, 1, NULL), AB_OK);
        else
            cr_assert_eq(abe_reader_feed(rd, buf, len, NULL), AB_OK);
        cr_assert(abe_reader_complete(rd));
        abe_job_result r = {0};
        cr_assert_eq(abe_reader_take(rd, &r, NULL), AB_OK);
        cr_assert_eq(r.planner_status, AB_OK);
        cr_assert_arr_eq(r.offsets, off, sizeof off);
        cr_assert_eq(r.stats.nodes, 42);
        cr_assert_eq(r.stats.lower_bound, 96);
        cr_assert(r.stats.proven_optimal);
        cr_assert_str_eq(r.stats.note, "a note");
        cr_assert_eq(r.base_rss, 4096);
        cr_assert_eq(r.peak_rss, 1 << 20);
        cr_assert_float_eq(r.plan_cpu_seconds, 0.25, 1e-9);
        cr_assert(r.stats.capped);
        cr_assert_str_eq(r.message, "");
        abe_result_free(&r);
        abe_reader_free(rd);
    }
    free(buf);
}

Test(frame, carries_an_error_message_and_no_offsets) {
    int64_t off[2] = {1, 2};
    size_t len;
    unsigned char *buf = frame_of(AB_EINPUT, off, 2, "bad parameter", &len);
    abe_reader *rd = abe_reader_new(2);
    cr_assert_eq(abe_reader_feed(rd, buf, len, NULL), AB_OK);
    abe_job_result r = {0};
    cr_assert_eq(abe_reader_take(rd, &r, NULL), AB_OK);
    cr_assert_eq(r.planner_status, AB_EINPUT);
    cr_assert_null(r.offsets);
    cr_assert_str_eq(r.message, "bad parameter");
    abe_reader_free(rd);
    free(buf);
}

Test(frame, refuses_truncated_garbled_long_and_mismatched_streams) {
    int64_t off[4] = {0, 8, 16, 24};
    size_t len;
    unsigned char *buf = frame_of(AB_OK, off, 4, NULL, &len);
    ab_error e;
    for (size_t cut = 0; cut < len; cut++) { /* every truncation: never complete */
        abe_reader *rd = abe_reader_new(4);
        cr_assert_eq(abe_reader_feed(rd, buf, cut, NULL), AB_OK, "cut at %zu", cut);
        cr_assert(!abe_reader_complete(rd));
        abe_job_result r = {0};
        cr_assert_eq(abe_reader_take(rd, &r, NULL), AB_ECHECK);
        abe_reader_free(rd);
    }
    for (size_t at = 0; at < len; at++) { /* every flipped byte: refused or incomplete */
        for (int bit = 0; bit < 8; bit += 3) {
            buf[at] ^= (unsigned char)(1u << bit);
            abe_reader *rd = abe_reader_new(4);
            ab_status st = abe_reader_feed(rd, buf, len, &e);
            cr_assert(st == AB_ECHECK || (st == AB_OK && !abe_reader_complete(rd)),
                      "flip at byte %zu bit %d accepted", at, bit);
            abe_reader_free(rd);
            buf[at] ^= (unsigned char)(1u << bit);
        }
    }
    abe_reader *rd = abe_reader_new(4); /* one byte too many */
    unsigned char extra[1] = {0};
    cr_assert_eq(abe_reader_feed(rd, buf, len, NULL), AB_OK);
    cr_assert_eq(abe_reader_feed(rd, extra, 1, &e), AB_ECHECK);
    cr_assert(strstr(e.msg, "after the end") != NULL, "%s", e.msg);
    abe_reader_free(rd);
    rd = abe_reader_new(5); /* a job with another tensor count */
    cr_assert_eq(abe_reader_feed(rd, buf, len, &e), AB_ECHECK);
    cr_assert(strstr(e.msg, "count") != NULL, "%s", e.msg);
    abe_reader_free(rd);
    rd = abe_reader_new(4); /* garbage from the first byte */
    unsigned char junk[128];
    memset(junk, 'x', sizeof junk);
    cr_assert_eq(abe_reader_feed(rd, junk, sizeof junk, &e), AB_ECHECK);
    cr_assert(strstr(e.msg, "magic") != NULL, "%s", e.msg);
    abe_reader_free(rd);
    free(buf);
}
