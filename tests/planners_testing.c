/*
 * planners_testing.c — planners that misbehave on purpose, for the runner's tests: they
 * crash, abort, hang, allocate without bound, return an overlapping plan,
 * print, or fail with a status. Each carries AB_PLANNER_TEST, which hides it
 * from `arenabench planners`; they are meant to run only inside the runner's
 * child processes (they kill or stall the process that calls them). Compiled
 * into the tests only (planners_testing.h).
 */
#include "tests/planners_testing.h"
#include "harness/engine/external.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* `test-crash`: dies of SIGSEGV (how=segv, the default), of SIGKILL as the
 * kernel's out-of-memory killer would kill it (how=kill), or leaves with
 * _exit(3) and no result (how=exit). The signal's disposition is reset first,
 * so a sanitizer's handler cannot turn the signal into an exit. */
static ab_status crash_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                            ab_plan_stats *st, ab_error *err) {
    const char *how = ab_param_text(opt, "how");
    if (strcmp(how, "exit") == 0) _exit(3);
    if (strcmp(how, "kill") == 0) raise(SIGKILL);
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    return ab_fail(err, AB_EINTERNAL, "test-crash: still alive after SIGSEGV");
}

/* `test-abort`: calls abort(). */
static ab_status abort_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                            ab_plan_stats *st, ab_error *err) {
    signal(SIGABRT, SIG_DFL);
    abort();
}

/* `test-hang`: never returns; sleeps (how=sleep, the default) or spins on the
 * CPU (how=spin). */
static ab_status hang_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                           ab_plan_stats *st, ab_error *err) {
    bool spin = strcmp(ab_param_text(opt, "how"), "spin") == 0;
    volatile uint64_t counter = 0;
    for (;;) {
        if (spin) {
            counter++;
        } else {
            struct timespec ts = {1, 0};
            nanosleep(&ts, NULL);
        }
    }
    return AB_EINTERNAL; /* not reached */
}

/* true when this process runs under a finite address-space or data limit. */
static bool memory_is_limited(void) {
    struct rlimit as, data;
    return (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) ||
           (getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY);
}

/* `test-alloc-bomb`: allocates blocks of `block` KiB (default 16384, i.e.
 * 16 MiB; small blocks exercise a sanitizer's primary heap) and writes every
 * byte, without end, until an allocation fails; then frees them all and
 * returns AB_ENOMEM. Two guards keep a mistake from eating the machine: it
 * refuses to start (AB_EINPUT) in a process without a memory limit, and it
 * gives up (AB_EINTERNAL) once it holds `max` MiB (default 4096) without a
 * failure, i.e. when the limit did not bind. */
static ab_status alloc_bomb_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                 ab_plan_stats *st, ab_error *err) {
    int64_t kib = ab_param_i64(opt, "block"), max_mib = ab_param_i64(opt, "max");
    if (!memory_is_limited())
        return ab_fail(err, AB_EINPUT,
                       "test-alloc-bomb runs only under a memory limit (RLIMIT_AS or RLIMIT_DATA)");
    size_t size = (size_t)kib << 10;
    void *head = NULL; /* each block starts with a pointer to the previous one */
    int64_t held = 0;  /* KiB */
    bool failed = false;
    while (held < max_mib << 10) {
        void *b = ab_malloc(size);
        if (b == NULL) {
            failed = true;
            break;
        }
        memset(b, 0xab, size);
        *(void **)b = head;
        head = b;
        held += kib;
    }
    while (head != NULL) {
        void *prev = *(void **)head;
        ab_free(head);
        head = prev;
    }
    if (!failed)
        return ab_fail(err, AB_EINTERNAL,
                       "test-alloc-bomb: held %lld MiB and no allocation failed (the limit did "
                       "not bind)",
                       (long long)(held >> 10));
    return ab_fail(err, AB_ENOMEM, "test-alloc-bomb: an allocation failed after %lld MiB",
                   (long long)(held >> 10));
}

/* `test-overlap`: every offset 0, an invalid plan as soon as two tensors
 * conflict. With print=N it first writes N bytes to stdout, which the
 * runner's children send to /dev/null. */
static ab_status overlap_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                              ab_plan_stats *st, ab_error *err) {
    int64_t print = ab_param_i64(opt, "print");
    char line[64];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (int64_t left = print; left > 0; left -= (int64_t)sizeof line) {
        size_t chunk = left < (int64_t)sizeof line ? (size_t)left : sizeof line;
        if (write(STDOUT_FILENO, line, chunk) < 0) break;
    }
    for (size_t i = 0; i < p->n; i++) offsets[i] = 0;
    snprintf(st->note, sizeof st->note, "every tensor at offset 0");
    st->nodes = (int64_t)p->n;
    return AB_OK;
}

/* `test-error`: fails with the status named by `status` (input, the
 * default; internal; nomem; limit; check) and a message. */
static ab_status error_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                            ab_plan_stats *st, ab_error *err) {
    static const struct {
        const char *name;
        ab_status status;
    } statuses[] = {{"input", AB_EINPUT},  {"internal", AB_EINTERNAL}, {"nomem", AB_ENOMEM},
                    {"limit", AB_ELIMIT}, {"check", AB_ECHECK}};
    int i = ab_param_choice(opt, "status"); /* the table's words, in statuses' order */
    return ab_fail(err, statuses[i].status, "test-error: failing with status %s as asked",
                   statuses[i].name);
}

static const ab_param_desc crash_params[] = {
    {"how", "segv|kill|exit", "segv",
     "segv: raise SIGSEGV; kill: raise SIGKILL; exit: _exit(3) without a result",
     AB_PARAM_CHOICE, 0, 0, false},
    {0}};
static const ab_param_desc hang_params[] = {
    {"how", "sleep|spin", "sleep", "sleep: block in nanosleep; spin: burn CPU", AB_PARAM_CHOICE, 0,
     0, false},
    {0}};
static const ab_param_desc bomb_params[] = {
    {"block", "integer 1..4194304", "16384", "KiB per allocation", AB_PARAM_INT, 1, 4194304, false},
    {"max", "integer 1..1048576", "4096", "MiB held without a failure before giving up",
     AB_PARAM_INT, 1, 1048576, false},
    {0}};
static const ab_param_desc overlap_params[] = {
    {"print", "integer 0 .. 2^30", "0", "bytes to write to stdout first", AB_PARAM_INT, 0,
     INT64_C(1) << 30, false},
    {0}};
static const ab_param_desc error_params[] = {
    {"status", "input|internal|nomem|limit|check", "input", "the status to fail with",
     AB_PARAM_CHOICE, 0, 0, false}, {0}};
static const ab_param_desc no_params[] = {{0}};

const ab_planner abp_test_crash = {
    .name = "test-crash",
    .summary = "test only: dies of SIGSEGV (or exits without a result)",
    .flags = AB_PLANNER_TEST,
    .params = crash_params,
    .plan = crash_plan,
};

const ab_planner abp_test_abort = {
    .name = "test-abort",
    .summary = "test only: calls abort()",
    .flags = AB_PLANNER_TEST,
    .params = no_params,
    .plan = abort_plan,
};

const ab_planner abp_test_hang = {
    .name = "test-hang",
    .summary = "test only: never returns",
    .flags = AB_PLANNER_TEST,
    .params = hang_params,
    .plan = hang_plan,
};

const ab_planner abp_test_alloc_bomb = {
    .name = "test-alloc-bomb",
    .summary = "test only: allocates and touches memory until an allocation fails",
    .flags = AB_PLANNER_TEST,
    .params = bomb_params,
    .plan = alloc_bomb_plan,
};

const ab_planner abp_test_overlap = {
    .name = "test-overlap",
    .summary = "test only: every tensor at offset 0",
    .flags = AB_PLANNER_TEST,
    .params = overlap_params,
    .plan = overlap_plan,
};

const ab_planner abp_test_error = {
    .name = "test-error",
    .summary = "test only: fails with a chosen status and a message",
    .flags = AB_PLANNER_TEST,
    .params = error_params,
    .plan = error_plan,
};

/* test-sleep: sleeps ms milliseconds, then plans like first-fit. Slow but
 * correct, for tests that must interrupt a run between jobs. */
extern const ab_planner abp_first_fit;

/* Sleeps opt's ms milliseconds (through signals). */
static void sleep_ms(const ab_params *opt) {
    int64_t ms = ab_param_i64(opt, "ms");
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) continue;
}

static ab_status sleep_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                            ab_plan_stats *st, ab_error *err) {
    sleep_ms(opt);
    return ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
}

static const ab_param_desc sleep_params[] = {
    {"ms", "integer 0..3600000", "100", "milliseconds to sleep before planning",
     AB_PARAM_INT, 0, 3600000, false}, {0}};

const ab_planner abp_test_sleep = {
    .name = "test-sleep",
    .summary = "test only: sleeps, then plans like first-fit",
    .flags = AB_PLANNER_TEST,
    .params = sleep_params,
    .plan = sleep_plan,
};

/* test-worse-by-env: plans like first-fit:order=size, or like first-fit in
 * program order (a worse planner on some suites) when the environment has
 * ARENABENCH_TEST_WORSE=1 — a stand-in for "a planner edited to be worse"
 * in tests of compare and the nightly. */
static ab_status worse_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                            ab_plan_stats *st, ab_error *err) {
    (void)opt;
    const char *env = getenv("ARENABENCH_TEST_WORSE");
    bool worse = env != NULL && strcmp(env, "1") == 0;
    ab_params order = {0};
    ab_kv kv = {.key = "order", .value = worse ? "start" : "size"};
    order.n = 1;
    order.v = &kv;
    return ab_planner_plan(&abp_first_fit, &order, p, offsets, st, err);
}

const ab_planner abp_test_worse_by_env = {
    .name = "test-worse-by-env",
    .summary = "test only: first-fit by size, or in program order when ARENABENCH_TEST_WORSE=1",
    .flags = AB_PLANNER_TEST,
    .params = no_params,
    .plan = worse_plan,
};

/* test-false-refutation: plans like first-fit in program order but claims an
 * exhaustive search refuted the capacity (lower bound capacity + 1): a
 * stand-in for a broken exact planner, for the run's capacity cross-check. */
static ab_status false_refutation_plan(const ab_problem *p, const ab_params *opt,
                                       int64_t *offsets, ab_plan_stats *st, ab_error *err) {
    (void)opt;
    ab_status s = ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
    int64_t cap = ab_problem_capacity(p);
    if (s == AB_OK && cap != AB_NONE) {
        st->method = ABO_PROOF_EXHAUSTIVE;
        st->lower_bound = cap + 1;
    }
    return s;
}

const ab_planner abp_test_false_refutation = {
    .name = "test-false-refutation",
    .summary = "test only: first-fit, claiming an exact search refuted the capacity",
    .flags = AB_PLANNER_TEST,
    .params = no_params,
    .plan = false_refutation_plan,
};

/* test-touch: allocates `mib` MiB (default 64), writes every page, frees it,
 * then plans like first-fit: its own peak resident memory is at least that. */
static ab_status touch_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                            ab_plan_stats *st, ab_error *err) {
    int64_t mib = ab_param_i64(opt, "mib");
    size_t size = (size_t)mib << 20;
    volatile unsigned char *b = ab_malloc(size);
    if (b == NULL) return ab_fail(err, AB_ENOMEM, "test-touch: cannot allocate %lld MiB",
                                  (long long)mib);
    for (size_t i = 0; i < size; i += 4096) b[i] = (unsigned char)i;
    ab_free((void *)b);
    return ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
}

static const ab_param_desc touch_params[] = {
    {"mib", "integer 1..4096", "64", "MiB to allocate and touch before planning", AB_PARAM_INT,
     1, 4096, false}, {0}};

const ab_planner abp_test_touch = {
    .name = "test-touch",
    .summary = "test only: touches mib MiB, then plans like first-fit",
    .flags = AB_PLANNER_TEST,
    .params = touch_params,
    .plan = touch_plan,
};

/* test-unstable: plans like first-fit, then moves every offset up by the
 * number of times it ran (it appends a byte to the file `count` each time):
 * a planner whose plan differs between repeats. */
/* Appends a byte to the file opt's count names: *runs is then its size, the
 * number of runs so far with this one. */
static ab_status count_run(const char *who, const ab_params *opt, long *runs, ab_error *err) {
    const char *path = ab_param_has(opt, "count") ? ab_param_text(opt, "count") : NULL;
    if (path == NULL) return ab_fail(err, AB_EINPUT, "%s needs count=FILE", who);
    FILE *f = fopen(path, "ab");
    if (f == NULL) return ab_fail(err, AB_EINPUT, "%s: cannot open %s", who, path);
    fputc('x', f);
    *runs = ftell(f);
    fclose(f);
    return AB_OK;
}

static ab_status unstable_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                               ab_plan_stats *st, ab_error *err) {
    long runs;
    ab_status cs = count_run("test-unstable", opt, &runs, err);
    if (cs != AB_OK) return cs;
    ab_status s = ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
    for (size_t i = 0; s == AB_OK && i < p->n; i++)
        if (p->t[i].offset == AB_NONE) offsets[i] += runs * 4096;
    return s;
}

static const ab_param_desc unstable_params[] = {
    {"count", "a file", "(required)", "a file it appends a byte to on each run", AB_PARAM_TEXT,
     0, 0, true}, {0}};

const ab_planner abp_test_unstable = {
    .name = "test-unstable",
    .summary = "test only: first-fit shifted up by its number of runs so far",
    .flags = AB_PLANNER_TEST,
    .params = unstable_params,
    .plan = unstable_plan,
};

/* test-slow-first: appends a byte to the file `count`; on its first run
 * (the file was empty) it sleeps ms milliseconds before planning like
 * first-fit, on later runs it plans at once: a job that a busy machine held
 * up once, for the rerun of wall-capped jobs. */
static ab_status slow_first_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                 ab_plan_stats *st, ab_error *err) {
    long runs;
    ab_status cs = count_run("test-slow-first", opt, &runs, err);
    if (cs != AB_OK) return cs;
    if (runs == 1) sleep_ms(opt);
    return ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
}

static const ab_param_desc slow_first_params[] = {
    {"count", "a file", "(required)", "a file it appends a byte to on each run", AB_PARAM_TEXT,
     0, 0, true},
    {"ms", "integer 0..3600000", "100", "milliseconds to sleep on the first run",
     AB_PARAM_INT, 0, 3600000, false}, {0}};

const ab_planner abp_test_slow_first = {
    .name = "test-slow-first",
    .summary = "test only: sleeps on its first run only, then plans like first-fit",
    .flags = AB_PLANNER_TEST,
    .params = slow_first_params,
    .plan = slow_first_plan,
};

/* test-capped: plans like first-fit and says its time cap stopped it, as an
 * exact planner whose safety cap ran out before its deterministic budget. */
static ab_status capped_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                             ab_plan_stats *st, ab_error *err) {
    (void)opt;
    ab_status s = ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
    st->capped = true;
    snprintf(st->note, sizeof st->note, "stopped by its time cap (test)");
    return s;
}

const ab_planner abp_test_capped = {
    .name = "test-capped",
    .summary = "test only: first-fit, reporting that its time cap stopped it",
    .flags = AB_PLANNER_TEST,
    .params = no_params,
    .plan = capped_plan,
};

/* CPU seconds of the calling process. */
static double own_cpu(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* test-fork-burn: forks a process that burns `ms` milliseconds of its own CPU
 * time (by its CPU clock, so as long on any machine), waits for it, then
 * plans like first-fit: CPU time spent by what the planner started. */
static ab_status fork_burn_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                                ab_plan_stats *st, ab_error *err) {
    int64_t ms = ab_param_i64(opt, "ms");
    pid_t pid = fork();
    if (pid < 0) return ab_fail(err, AB_EINTERNAL, "test-fork-burn: cannot fork");
    if (pid == 0) {
        double t0 = own_cpu();
        volatile uint64_t spin = 0;
        while (own_cpu() - t0 < (double)ms / 1000) spin++;
        _exit(0);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0) continue;
    return ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
}

static const ab_param_desc fork_burn_params[] = {
    {"ms", "integer 1..60000", "300", "CPU milliseconds its child burns", AB_PARAM_INT, 1,
     60000, false}, {0}};

const ab_planner abp_test_fork_burn = {
    .name = "test-fork-burn",
    .summary = "test only: a child of it burns CPU, then it plans like first-fit",
    .flags = AB_PLANNER_TEST,
    .params = fork_burn_params,
    .plan = fork_burn_plan,
};

/* test-slower-by-env: burns `ms` milliseconds of its own CPU time (by its CPU
 * clock, so as long on any machine, busy or not), times the factor in
 * ARENABENCH_TEST_SLOWER (default 1), then plans like first-fit: a planner
 * made N times slower in CPU without a change of spec or plan. */
static ab_status slower_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                             ab_plan_stats *st, ab_error *err) {
    int64_t ms = ab_param_i64(opt, "ms");
    const char *env = getenv("ARENABENCH_TEST_SLOWER");
    double factor = env != NULL ? strtod(env, NULL) : 1.0;
    if (!(factor >= 1.0 && factor <= 100.0)) factor = 1.0;
    double t0 = own_cpu();
    volatile uint64_t spin = 0;
    while (own_cpu() - t0 < factor * (double)ms / 1000) spin++;
    return ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
}

static const ab_param_desc slower_params[] = {
    {"ms", "integer 1..60000", "40", "CPU milliseconds it burns (times ARENABENCH_TEST_SLOWER)",
     AB_PARAM_INT, 1, 60000, false}, {0}};

const ab_planner abp_test_slower_by_env = {
    .name = "test-slower-by-env",
    .summary = "test only: burns ms x ARENABENCH_TEST_SLOWER of CPU, then plans like first-fit",
    .flags = AB_PLANNER_TEST,
    .params = slower_params,
    .plan = slower_plan,
};

/* test-gate: waits until the file named by `file` exists (looking every
 * 10 ms), then plans like first-fit. A job a test holds back for as long as
 * it needs, e.g. to kill the harness while it waits, with no clock to race. */
static ab_status gate_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                           ab_plan_stats *st, ab_error *err) {
    const char *file = ab_param_text(opt, "file");
    if (*file == '\0')
        return ab_fail(err, AB_EINPUT, "test-gate: parameter file: a path is needed");
    while (access(file, F_OK) != 0) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return ab_planner_plan(&abp_first_fit, NULL, p, offsets, st, err);
}

static const ab_param_desc gate_params[] = {
    {"file", "a path", "", "plan once this file exists", AB_PARAM_TEXT, 0, 0, false}, {0}};

const ab_planner abp_test_gate = {
    .name = "test-gate",
    .summary = "test only: waits for a file to exist, then plans like first-fit",
    .flags = AB_PLANNER_TEST,
    .params = gate_params,
    .plan = gate_plan,
};

ab_status abt_register_test_planners(void) {
    static const ab_planner *const mine[] = {
        &abp_test_crash, &abp_test_abort,  &abp_test_hang,  &abp_test_alloc_bomb,
        &abp_test_overlap, &abp_test_error, &abp_test_sleep, &abp_test_worse_by_env,
        &abp_test_false_refutation, &abp_test_touch, &abp_test_unstable, &abp_test_capped,
        &abp_test_fork_burn, &abp_test_slower_by_env, &abp_test_gate, &abp_test_slow_first};
    ab_status st = abe_register_planners();
    for (size_t i = 0; st == AB_OK && i < sizeof mine / sizeof mine[0]; i++)
        st = ab_planner_register(mine[i]);
    return st;
}
