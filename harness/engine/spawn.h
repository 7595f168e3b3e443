/*
 * spawn.h — the engine's one process spawner: a child (a function run in a
 * fork, or a program exec'd) in a process group of its own, under optional
 * limits, with one pipe back to the parent; waited for with a deadline; the
 * whole group killed and reaped; how it ended reported.
 *
 * The runner (runner.c) uses it for its planner children, several at once,
 * polling their pipes itself; the planner `external` (external.c) for the
 * programs it runs, one at a time, through abe_wait.
 *
 * The child, before fn runs or the program is exec'd:
 *   1. dies with the thread that spawned it (Linux PR_SET_PDEATHSIG SIGKILL;
 *      when that parent is already gone it exits 126 at once);
 *   2. leads a new process group (setpgid(0, 0); the parent also sets it, so
 *      the group exists before either returns), which is what every kill of
 *      the spawner targets;
 *   3. default dispositions for the signals a harness may catch or ignore
 *      (SIGXFSZ among them: the harness ignores it),
 *      nothing blocked;
 *   4. stdin on /dev/null; stdout and stderr on the pipe (capture) or stdout
 *      on /dev/null and stderr kept (not capture);
 *   5. no open descriptor of the parent's but the pipe's write end: a program
 *      gets 0, 1 and 2 only; a function child closes the read ends of every
 *      other live spawn (the parent's other descriptors stay open, since a
 *      fork cannot tell which the code it runs may use);
 *   6. no core files; memory limit: RLIMIT_AS and RLIMIT_DATA at the child's
 *      VmSize and VmData plus mem_limit (see runner.h for why both); CPU
 *      limit: RLIMIT_CPU (per process: SIGXCPU at the limit, SIGKILL a second
 *      later).
 *
 * The group and what escapes it. A program run through /bin/sh -c starts
 * its commands in the shell's group (a shell without job control makes no
 * groups), so killing the group kills them. Two ways out remain, and the
 * options close them:
 *   guard             when the spawner's caller is itself killed (a planner
 *                     running `external` in the runner's child, killed at the
 *                     runner's time limit), the child dies of its
 *                     PDEATHSIG but what it started would not. With guard, a
 *                     small process joins the group and, when the caller
 *                     dies, kills the whole group (Linux; PR_SET_PDEATHSIG
 *                     with SIGTERM, which the guard catches).
 *   reap_descendants  the caller and the child are child subreapers
 *                     (Linux): see What escapes the group.
 *
 * What escapes the group. A process may move itself to another group or
 * session (setsid, a shell's `set -m`) and so escape the kill of the group;
 * with reap_descendants (or nested) it is killed and reaped all the same.
 * The child is a subreaper from before fn runs or the program is exec'd
 * (the setting survives the exec), so while it lives every orphan of the
 * job is re-parented to it, never out of its tree; the caller is one too,
 * so when the child dies its children, adopted or not, come to the caller.
 * At the reap, after the group (and the nested groups), the spawner walks
 * /proc: every child of the caller that is not its own (not another live
 * spawn nor its guard, not a child it had before this spawn started) and
 * every descendant of one is sent SIGKILL, the caller's children among them
 * reaped (their CPU time counted), and again until a walk finds none. The
 * rule this asks of the caller: while such a spawn lives it starts no
 * child of its own outside the spawner (one would be taken for the job's).
 * The program sees one difference: orphans of its descendants become its
 * children (a program that waits for "any child" until none is left also
 * waits for them). Limits: a process that escapes while the caller itself
 * is killed goes to init (the guard kills the group only); a process that
 * forks faster than the walks kill is caught only when it stops; without
 * PR_SET_CHILD_SUBREAPER (not Linux) nothing escaped is found.
 *
 * The job's memory. With mem_limit (or nested), the caller samples the
 * job's memory every ABE_SAMPLE_SECONDS while it waits (abe_enforce_deadline,
 * abe_wait): the private resident bytes (smaps_rollup: Private_Clean +
 * Private_Dirty, pages no other process maps) of the child and of every
 * process in its tree, summed. A total over mem_limit kills the job (abe_kill,
 * marked mem_out); the largest total is job_peak. Private bytes leave out
 * the image a function child shares with its caller, a guard's copy of it,
 * and shared libraries, so no base need be subtracted; they also leave out
 * what processes of the job share with each other (copy-on-write pages after
 * a fork not yet written, shared memory): the total can be short by that.
 * A sample is an instant: memory taken and given back between two samples
 * (a spike shorter than the interval) is not seen, nor is a job that ends
 * before the first sample; the per-process RLIMIT_AS/RLIMIT_DATA (step 6)
 * stay as the first line, which no spike passes.
 *
 * Containment. A spawn that holds a job (reap_descendants or nested) is
 * also put in a cgroup of its own where the machine allows it and the mode
 * (abe_set_containment) asks for it (cgroup.h says where the groups go):
 * the child joins it before anything else, so every process the job starts
 * is in it, whatever session or process group it moves to. Then the kernel
 * counts the job's memory whole: mem_limit is the group's limit (the kernel
 * reclaims, then its out-of-memory killer ends the job: mem_out, seen when
 * the group's oom_kill count rises, at the samples and at the reap), the
 * group's peak is job_peak (job_procs 0), every kill of the spawn kills the
 * whole group, and the reap kills what is left of it before the sweep, then
 * removes it. The per-process limits (step 6) and the subreaper stay, so the
 * CPU times of the processes killed are still counted. A spawn made inside
 * a job's group (the runner's child running `external`) makes no group of
 * its own: the job's holds it. Modes: ABE_CONTAIN_AUTO (a cgroup where
 * usable, else the subreaper alone), ABE_CONTAIN_CGROUP (a cgroup or the
 * spawn fails), ABE_CONTAIN_SUBREAPER (never a cgroup). The word a reap
 * stores in abe_exit.containment says which applied.
 *
 * Ending: when the child exits (seen with waitid(WNOWAIT), so its pid, which
 * names the group, is not yet free for reuse), or when it is killed, the
 * spawner sends SIGKILL to the whole group and reaps every process of the
 * group that is its child (the child itself, the guard, the descendants it
 * adopted), summing their CPU times (each wait4 counts the reaped process
 * and the descendants it reaped) and keeping the largest peak RSS.
 *
 * Nested. A function child that itself spawns (the runner's child running
 * `external`, which starts /bin/sh in a group of its own so that it can kill
 * it at its probe time) makes groups the caller cannot see. With nested, the
 * caller shares a page with the child where the child's spawner records the
 * group of every spawn it starts (and clears it before it reaps that group):
 * whenever the caller kills the child's group (abe_kill, a deadline, the
 * reap) it kills those groups too, and, being a subreaper for the spawn
 * (nested implies reap_descendants), reaps what of them its child left
 * behind, their CPU times and peaks counted like the group's. So a planner
 * killed at the runner's limit leaves no process of what it started, and
 * their CPU is in the figures. With scratch, the caller makes a folder
 * (mkdtemp under $TMPDIR, else /tmp; when it cannot, the child keeps the
 * caller's TMPDIR) before the fork, the child's TMPDIR
 * names it, and the caller removes it with everything in it once the child
 * and its groups are reaped: temporary files go on every path on which the
 * caller lives (a child killed at a limit, crashed, or done; the caller
 * interrupted when it catches the signal and frees the spawn).
 *
 * Threads: one thread spawns and waits; handles are not shared between
 * threads. No other waiter may reap the children (a SIGCHLD handler calling
 * wait(-1), or SIGCHLD set to SIG_IGN, makes the exit "lost").
 */
#ifndef ABE_SPAWN_H
#define ABE_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/ab.h"

#define ABE_TAIL 2048 /* bytes of captured output a spawn keeps (the last ones) */
#define ABE_ORPHANED 126 /* the child's exit status when its parent was gone */
#define ABE_EXEC_FAILED 127 /* the child's exit status when the exec failed */
#define ABE_CGROUP_FAILED 125 /* the child's exit status when it could not join its cgroup */
#define ABE_SAMPLE_SECONDS 0.1 /* seconds between two samples of a job's memory */

/* What to start and under which limits. Nothing here is copied or freed. */
typedef struct abe_spawn_opts {
    /* A function child: fn(ctx, fd) runs in the fork, fd being the pipe's
     * write end; its return value is the exit status (_exit: no atexit
     * handlers, no stdio flush). */
    int (*fn)(void *ctx, int fd);
    void *ctx;
    /* Else a program: path exec'd with argv (NULL-terminated). */
    const char *path;
    char *const *argv;
    bool capture;        /* stdout and stderr to the pipe, last ABE_TAIL bytes kept */
    int64_t mem_limit;   /* bytes beyond the inherited image, per process (RLIMIT_AS
                            and RLIMIT_DATA), and the job's total private resident
                            bytes, sampled (The job's memory); <= 0: none */
    double cpu_limit;    /* seconds of CPU per process (RLIMIT_CPU); <= 0: none */
    double time_limit;   /* wall-clock seconds from the start; <= 0: none */
    bool guard;          /* the group dies with the caller (see above) */
    bool reap_descendants; /* the job's processes are killed and reaped wherever
                              they go (What escapes the group) */
    bool nested;         /* the child's own spawns are the caller's too (see Nested) */
    bool scratch;        /* a fresh folder for the child's TMPDIR, removed at the reap
                            (function children only; see Nested) */
    const char *scratch_base; /* where that folder is made (abe_scratch_root's
                            folder); NULL: $TMPDIR, else /tmp */
} abe_spawn_opts;

/* How a spawn ended. */
typedef struct abe_exit {
    bool lost;           /* another waiter reaped the child: nothing below is known */
    bool exited;         /* exited normally; code is its status */
    int code;            /* the exit status, -1 when it did not exit */
    int signal;          /* the signal that ended it, else 0 */
    bool killed;         /* the spawner sent the SIGKILL (abe_kill, a deadline) */
    bool cpu_out;        /* ... because the group's CPU passed cpu_limit (nested) */
    bool timed_out;      /* ... because time_limit passed */
    double wall_seconds; /* start to reap */
    double cpu_seconds;  /* user + system of the group's processes the spawner
                            reaped and of the descendants they reaped */
    int64_t peak_rss;    /* the largest ru_maxrss among them, in bytes */
    bool mem_out;        /* killed because the job's total passed mem_limit */
    int64_t job_peak;    /* the largest total of the job's private resident bytes
                            sampled (The job's memory); 0 when never sampled */
    int job_procs;       /* the processes counted in that sample; 0 in a cgroup */
    const char *containment; /* how the job was held: "cgroup", "subreaper" or
                                "process-group" (static; see Containment) */
} abe_exit;

/* ---- the scratch root of a batch of spawns ----------------------------------------
 * A job's scratch folder is removed when the job is reaped, which a caller
 * killed with SIGKILL never does. So a batch (abe_run) makes its job folders
 * inside one root, $TMPDIR/arenabench-run.XXXXXX, holding a file `lock` that
 * the caller keeps locked (flock) while it lives; the kernel drops the lock
 * with the process, however it ends. Opening a root first removes every
 * sibling root whose lock can be taken (its owner is gone) and every sibling
 * left without a lock file for over an hour (its owner died between making
 * it and locking it), so the folders of a killed run go at the next run. */
typedef struct abe_scratch_root {
    char *path; /* owned; NULL when no root could be made */
    int lock_fd;
    size_t swept; /* the dead runs' roots this open removed */
} abe_scratch_root;

/* Makes the root (best effort: when $TMPDIR cannot hold it, path is NULL and
 * spawns fall back to $TMPDIR itself). */
void abe_scratch_root_open(abe_scratch_root *r);

/* Removes the root with what it holds and drops the lock. */
void abe_scratch_root_close(abe_scratch_root *r);

/* How a job spawned now with nested or reap_descendants would be held, as
 * results store it: "cgroup" (see Containment), else "subreaper" where the
 * spawner is a child subreaper and sweeps /proc (Linux: every descendant is
 * killed and reaped, wherever it moved), "process-group" elsewhere (only the
 * groups it knows of are killed). Static. */
const char *abe_containment(void);

/* The containment modes (see Containment). */
typedef enum abe_contain_mode {
    ABE_CONTAIN_AUTO,      /* "auto": a cgroup where usable, else the subreaper */
    ABE_CONTAIN_CGROUP,    /* "cgroup": a cgroup, or the spawn fails */
    ABE_CONTAIN_SUBREAPER  /* "subreaper": never a cgroup */
} abe_contain_mode;

/* Sets the mode for this process's later spawns (and their children's);
 * ABE_CONTAIN_AUTO at start. */
void abe_set_containment(abe_contain_mode m);

/* Parses "auto", "cgroup" or "subreaper"; false on another word. */
bool abe_parse_containment(const char *word, abe_contain_mode *m);

/* AB_EINTERNAL, with err saying why, when the mode is ABE_CONTAIN_CGROUP
 * and this machine cannot make job cgroups; AB_OK otherwise. */
ab_status abe_containment_check(ab_error *err);

/* A running child, owned by the caller: abe_free. */
typedef struct abe_proc abe_proc;

/* Starts the child. *out is owned by the caller (abe_free). AB_EINPUT when
 * neither fn nor path is given; AB_ENOMEM; AB_EINTERNAL when the pipe or the
 * process cannot be made (err says why). */
ab_status abe_spawn(const abe_spawn_opts *o, abe_proc **out, ab_error *err);

/* The child's pid (the leader of its group). */
pid_t abe_pid(const abe_proc *p);

/* The read end of the pipe (non-blocking, close-on-exec), for poll(); -1
 * once the stream ended or abe_kill closed it. */
int abe_fd(const abe_proc *p);

/* Absolute deadline on the abe_now clock; INFINITY when none. */
double abe_deadline(const abe_proc *p);

/* When abe_enforce_deadline next has something to check: the deadline or
 * the next sample of the job's memory, whichever comes first; INFINITY when
 * neither. A caller polling several spawns wakes by then. */
double abe_next_check(const abe_proc *p);

/* Reads what the pipe holds into buf (up to cap bytes) without waiting;
 * captured bytes also go to the tail. Returns the count (> 0), 0 when
 * nothing is ready, -1 when the stream ended (the read end is then closed). */
long abe_read(abe_proc *p, void *buf, size_t cap);

/* Sends SIGKILL to the child's group (once) and closes the read end. */
void abe_kill(abe_proc *p);

/* Samples the job's memory when a sample is due, and abe_kill, marked
 * mem_out, when its total passes mem_limit (The job's memory); true then.
 * abe_kill, marked as a timeout, when the deadline has passed; true then.
 * With nested and a cpu_limit, also abe_kill, marked cpu_out, when the CPU
 * time of the child and of every process of the groups it recorded (read
 * from /proc: their own user + system time and that of the children they
 * reaped) passes cpu_limit: RLIMIT_CPU counts each process alone, so a
 * program that spreads its work over several processes would pass the job's
 * limit otherwise. */
bool abe_enforce_deadline(abe_proc *p);

/* Reaps the child when it has ended (wait false: returns false at once when
 * it runs; wait true: blocks until it ends). On reaping, kills what is left
 * of its group, reaps the group's processes that are the caller's children,
 * and with reap_descendants kills and reaps what escaped it (What escapes
 * the group); fills *e and returns true. Reaping twice returns the same *e. */
bool abe_reap(abe_proc *p, bool wait, abe_exit *e);

/* Reads the pipe (keeping the captured tail) until the child ends or the
 * deadline passes (then kills it), and reaps it into *e. */
void abe_wait(abe_proc *p, abe_exit *e);

/* The last bytes captured (at most ABE_TAIL; not NUL-terminated). */
const char *abe_tail(const abe_proc *p, size_t *len);

/* Kills the group and reaps when still running, closes, frees. NULL accepted. */
void abe_free(abe_proc *p);

/* Seconds on the monotonic clock. */
double abe_now(void);

/* The resident bytes of the calling process (VmRSS), or -1; safe in a child
 * after fork (plain system calls, no allocation). */
int64_t abe_resident_bytes(void);

/* The peak resident bytes of the calling process (VmHWM), or -1; as
 * abe_resident_bytes. In a fork()ed child it counts the parent's pages the
 * child inherited (runner.h, Memory). */
int64_t abe_peak_resident_bytes(void);


#endif
