/*
 * runner.h — the job runner: runs planners in child processes, each under a
 * wall-clock limit and a memory limit, up to N at once, and hands every plan
 * back to the caller unjudged.
 *
 * A job is (arena view of a problem, resolved planner, its params). Each job
 * runs in its own fork()ed child, which calls the planner and writes the
 * result to a pipe in the framed format below; the parent drains every pipe
 * with poll(), enforces the limits, reaps the child with wait4() and
 * classifies how it ended. The runner never checks a plan: the caller runs
 * the oracle on the offsets it gets back (DESIGN.md §2, §7).
 *
 * How a job ends (abe_job_result.status):
 *
 *   ok       the planner returned AB_OK; offsets holds view->n values
 *   timeout  the wall-clock limit passed (the child was killed with SIGKILL),
 *            or the planner returned AB_ELIMIT (its own budget ran out)
 *   crash    the child died of a signal (signal, message "SIGSEGV", ...), or
 *            exited without a complete result (signal 0; e.g. exit() in the
 *            planner, or a sanitizer report), or its stream was cut short
 *   oom      the planner returned AB_ENOMEM (an allocation failed under the
 *            memory limit), or the job's total memory, sampled, passed the
 *            limit (below), or the child was killed by a SIGKILL the runner
 *            did not send (the kernel's out-of-memory killer)
 *   error    the planner returned another status (AB_EINPUT for a bad
 *            parameter value, or for a suite with pools it cannot take:
 *            the child asks ab_planner_accepts before planning, ...) with
 *            its message, or the child sent a malformed result stream
 *
 * The memory limit: mem_limit bytes beyond what the child inherits from the
 * harness at fork. The child reads its own VmSize and VmData and sets both
 * RLIMIT_AS = VmSize + mem_limit and RLIMIT_DATA = VmData + mem_limit (soft
 * and hard). RLIMIT_DATA is what still binds under AddressSanitizer, whose
 * heap lives in address space reserved at start-up (so RLIMIT_AS alone would
 * not see it grow). Address space the child inherited reserved but unused
 * can still be filled on top of the limit (a glibc thread arena reserves up
 * to 64 MiB): the limit is that approximate. Under ASan an allocation over
 * the limit ends the child with a report (a crash) unless ASAN_OPTIONS has
 * allocator_may_return_null=1.
 *
 * Those limits are per process: four processes of a job could hold four
 * times the limit. So the limit also holds for the job as a whole: every
 * ABE_SAMPLE_SECONDS the spawner sums the private resident bytes of the
 * child and of every process descending from it (spawn.h, The job's
 * memory), and a total over mem_limit kills the job, an oom whose message
 * gives the total over N processes. Both are kept: the rlimits stop any one
 * allocation at once, however brief; the sampling sees the processes
 * together, but only at its instants (a spike between two samples, or a job
 * shorter than one interval, goes unseen). peak_rss is the larger of the
 * child's own peak (below) and the largest total sampled.
 *
 * The child is started by the engine's spawner (spawn.h): in its own
 * process group (so a terminal's Ctrl-C reaches the harness only, and
 * SIGKILL reaches anything the planner forked); killed when the harness dies
 * (Linux PR_SET_PDEATHSIG, so a `kill -9` of the harness leaves no planner
 * running); stdin and stdout on /dev/null (a planner that prints cannot
 * disturb the harness's output); stderr kept (sanitizer reports); no core
 * dumps; the other jobs' pipes closed; ends with _exit (no atexit handlers,
 * no stdio flush, no leak check). When it ends, whatever is left of its
 * group is killed too, and so are the groups of the programs the planner
 * started through the spawner (`external`, `minizinc`: spawn.h, Nested), the
 * runner adopting and reaping what they left, their CPU time counted in the
 * job's. Its TMPDIR is a fresh folder (spawn.h, scratch), removed with what
 * is in it when the child is reaped. The names of signals: ab_signal_name
 * (core/ab.h).
 *
 * Signals. When the caller passes no stop flag, the run catches SIGINT,
 * SIGTERM and SIGHUP (those left at their default) while it runs: a signal
 * stops it as a stop flag would (the children killed and reaped, their
 * folders removed), then the dispositions are restored and the signal raised
 * again, so the process still dies of it.
 *
 * The result stream (one frame per child, native byte order, version 2):
 *
 *   offset  size  field
 *        0     4  magic "ABR2"
 *        4     4  planner status (int32, an ab_status)
 *        8     8  n: offsets that follow (uint64): view->n when status is
 *                 AB_OK, else 0
 *       16     8  search nodes (int64)
 *       24     8  lower bound the planner proved (int64, AB_NONE when none)
 *       32     8  resident bytes of the child before the planner ran (int64)
 *       40     4  flags (uint32): bit 0 proven optimal, bit 1 capped (the
 *                 planner's time cap stopped it), bits 8-15 the proof method,
 *                 bits 16-23 the ILP's status + 1
 *       44     4  note length L1 (uint32, < sizeof ab_plan_stats.note)
 *       48     4  message length L2 (uint32, < AB_ERROR_MAX)
 *       52     4  zero
 *       56     8  the planner's own CPU time in ns (int64 >= 0): the child's
 *                 CLOCK_PROCESS_CPUTIME_ID from before the planner saw the
 *                 problem to after it returned
 *       64     8  the child's own peak resident bytes (int64 >= 0; see below)
 *       72    L1  note (bytes, no NUL)
 *            L2  message (bytes, no NUL)
 *            8n  offsets (int64 each)
 *             8  FNV-1a 64 of every byte above
 *
 * Memory. A fork()ed child starts with the parent's resident pages mapped
 * (copy-on-write), and Linux counts them in the child's RSS and in its
 * ru_maxrss: a child of a harness holding 50 MB of suites "peaks" at 50 MB
 * whatever it does. The child's own peak is what it added to that: its high-
 * water mark (VmHWM) after planning minus its resident bytes (VmRSS) before,
 * or the peak of a program it ran and waited for (RUSAGE_CHILDREN), whichever
 * is larger. A child that sends no frame (killed, crashed) is charged its
 * ru_maxrss minus the parent's resident bytes at the fork.
 *
 * Repeats. A job whose run ends ok, uncapped, is run again (a new child
 * each time) while it has fewer than repeat_min runs and its runs took less
 * than repeat_time seconds of wall time together, and only when its first
 * run took less than repeat_below (when > 0); so a planner slower than
 * repeat_time runs once, and one whose first run took repeat_below or more
 * (an interpreter's start-up) is not paid for again. Every repeat must return the same offsets as the
 * first: a plan that differs makes the job an error. A repeat that ends
 * otherwise than ok makes the job end that way. The result keeps the
 * median, min and max of the runs' CPU and wall times, the median of the
 * planner's own CPU time, and the largest own peak.
 *
 * The parent accepts a frame only when every field is in range, the counts
 * match the job, the checksum matches and nothing follows it. A stream that
 * breaks a rule is a malformed result (error); one that stops early is a
 * crash. Nothing the child sends can make the parent allocate more than the
 * job's own n offsets.
 *
 * One abe_run at a time per process, from the thread that stays alive for
 * the run (PR_SET_PDEATHSIG follows the forking thread). No other waiter may
 * reap the runner's children (a SIGCHLD handler calling wait(-1) would steal
 * their exits); SIGCHLD set to SIG_IGN is switched to SIG_DFL for the run
 * and restored.
 */
#ifndef AB_RUNNER_H
#define AB_RUNNER_H

#include <signal.h>

#include "core/problem.h"
#include "planners/planner.h"

/* How a job ended; the names are the results table's statuses. */
typedef enum abe_job_status {
    ABE_OK = 0,
    ABE_TIMEOUT,
    ABE_CRASH,
    ABE_OOM,
    ABE_ERROR
} abe_job_status;

/* One job: a planner on a problem. Nothing here is copied or freed. */
typedef struct abe_job {
    const ab_problem *view;      /* the arena view the planner sees */
    const ab_planner *planner;   /* from ab_planner_resolve */
    const ab_params *params;     /* from ab_planner_resolve; NULL for none */
} abe_job;

/* The limits and the parallelism of a run. */
typedef struct abe_options {
    int jobs;                 /* children at once, >= 1 */
    double time_limit;        /* wall-clock seconds per job; <= 0: none */
    double cpu_limit;         /* CPU seconds per job (RLIMIT_CPU: SIGXCPU, then SIGKILL a
                                 second later); a job it ends is a timeout; <= 0: none */
    int64_t mem_limit;        /* bytes per job beyond the inherited image; <= 0: none */
    /* When not NULL, polled while waiting (at least every 100 ms): once it is
     * non-zero the run stops, kills the children in flight and returns
     * AB_ELIMIT. Meant for a flag set by the caller's SIGINT handler. */
    const volatile sig_atomic_t *stop;
    int repeat_min;           /* runs of a job that ends ok (see Repeats); <= 1: one */
    double repeat_time;       /* ... while its runs took less than this many seconds */
    double repeat_below;      /* ... and only if its first run took less than this (<= 0:
                                 no such condition) */
} abe_options;

/* Why a job's row may depend on the machine (results.capped). */
typedef enum abe_capped {
    ABE_CAPPED_NONE = 0,
    ABE_CAPPED_TIME,  /* the runner's time limit killed it, or the planner's time cap
                         (ab_plan_stats.capped) stopped it */
    ABE_CAPPED_MEMORY /* it ran out of memory (oom) */
} abe_capped;

/* NULL, "time" or "memory". */
const char *abe_capped_word(abe_capped c);

/* How one job ended. Owns offsets; abe_result_free releases it. */
typedef struct abe_job_result {
    bool finished;            /* false for a job the run never finished */
    abe_job_status status;
    ab_status planner_status; /* what the planner returned; AB_OK when it never
                                 returned (crash, timeout by the runner) */
    int signal;               /* the signal that killed the child, else 0 */
    size_t n;                 /* number of offsets (the view's n) */
    int64_t *offsets;         /* owned; n values when status is ABE_OK, else NULL */
    ab_plan_stats stats;      /* as the planner reported them (zeroed, lower bound
                                 AB_NONE, when no result came back) */
    int repeats;              /* runs behind the times below (>= 1 once finished) */
    double wall_seconds;      /* fork to reap: the median of the runs */
    double wall_min, wall_max;
    double cpu_seconds;       /* user + system time of the child and what it started
                                 (wait4): the median of the runs */
    double cpu_min, cpu_max;
    double plan_cpu_seconds;  /* the planner's own CPU time inside the child (median;
                                 -1 when no frame came back) */
    int64_t peak_rss;         /* the child's own peak resident bytes, beyond what it
                                 inherited (see Memory above), or the job's total as
                                 sampled when larger: the largest of the runs */
    int64_t base_rss;         /* the child's resident bytes before the planner ran
                                 (0 when unknown): the harness pages it inherited */
    abe_capped capped;        /* why the row may depend on the machine, if it may */
    const char *containment;  /* how its processes were held: abe_containment()'s word
                                 once it ran, else NULL (static) */
    char message[AB_ERROR_MAX]; /* empty for ok; else what went wrong */
} abe_job_result;

/* Called in the parent as each job finishes, in finish order (which depends
 * on timing, not on the job order). index is the job's index in the array
 * given to abe_run. The callback may take r->offsets (and set it to NULL).
 * Returning a status other than AB_OK (with err set) stops the run: the
 * children in flight are killed and reaped, and abe_run returns that status. */
typedef ab_status (*abe_done_fn)(void *ctx, size_t index, abe_job_result *r, ab_error *err);

/* Runs the n jobs, opt->jobs at a time, and reports each one as it ends:
 * through done (when not NULL), then into results[index] (when results is not
 * NULL; an array of n, initialised by the call, each entry released with
 * abe_result_free or all with abe_results_free). Without results, each
 * result is released right after its callback.
 *
 * Returns AB_OK when every job ran (whatever each one's status); AB_EINPUT
 * for bad options; AB_EINTERNAL when a pipe or a process cannot be made;
 * AB_ENOMEM when the parent runs out of memory; AB_ELIMIT when opt->stop was
 * raised; or what done returned. On any of these, every child has been
 * killed and reaped, and results[i].finished tells which jobs finished. */
ab_status abe_run(const abe_job *jobs, size_t n, const abe_options *opt,
                  abe_job_result *results, abe_done_fn done, void *ctx, ab_error *err);

/* Releases what r owns (its offsets). NULL is accepted. */
void abe_result_free(abe_job_result *r);

/* abe_result_free on each of the n results; the array itself stays the
 * caller's. NULL is accepted. (The CLI takes results through done and frees
 * none itself; this is for callers that pass results, the tests today.) */
void abe_results_free(abe_job_result *results, size_t n);

/* "ok", "timeout", "crash", "oom" or "error". */
const char *abe_status_name(abe_job_status s);

/* ---- the result stream, exposed for tests --------------------------------------
 * The runner (runner.c) is the only product user of the reader and of
 * abe_write_result. They stay exported because tests/test_runner.c feeds the
 * reader frames cut at every byte, torn and corrupt streams, which a real
 * child cannot be made to write on demand.
 * The parent side: a reader fed bytes as they come from the pipe. */
typedef struct abe_reader abe_reader;

/* A reader for the result of a job whose view has n tensors. Owned by the
 * caller (abe_reader_free); NULL when out of memory. */
abe_reader *abe_reader_new(size_t n);

/* Feeds len bytes. Returns AB_OK, or AB_ECHECK with err set when the stream
 * breaks the format (the reader then refuses every later byte), or AB_ENOMEM
 * when the offsets cannot be allocated. */
ab_status abe_reader_feed(abe_reader *rd, const void *buf, size_t len, ab_error *err);

/* Whether a whole frame was accepted. */
bool abe_reader_complete(const abe_reader *rd);

/* Moves a complete frame into r: planner_status, stats, base_rss, peak_rss,
 * plan_cpu_seconds, message and
 * (when the planner status is AB_OK) the offsets, now owned by r. The other
 * fields of r are left alone. Returns AB_ECHECK when the frame is not complete. */
ab_status abe_reader_take(abe_reader *rd, abe_job_result *r, ab_error *err);

void abe_reader_free(abe_reader *rd);

/* What the child measured of itself (see the frame). */
typedef struct abe_usage {
    int64_t base_rss;        /* resident bytes before planning */
    int64_t peak_rss;        /* own peak resident bytes */
    double plan_cpu_seconds; /* the planner's own CPU time */
} abe_usage;

/* The child side: writes one whole frame to fd (retrying short writes and
 * EINTR; allocates nothing). offsets is read only when st is AB_OK (n values);
 * u and msg may be NULL. Returns false when a write fails. */
bool abe_write_result(int fd, ab_status st, const int64_t *offsets, size_t n,
                      const ab_plan_stats *stats, const abe_usage *u, const char *msg);

#endif
