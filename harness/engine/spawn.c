/*
 * spawn.c — the engine's one process spawner (see spawn.h): fork, the
 * child's set-up (group, limits, descriptors), the optional guard, reading
 * the pipe, deadlines, killing the group and reaping it.
 *
 * Between fork and exec (or _exit) the child calls only async-signal-safe
 * functions: the harness may have threads (a sanitizer's, a test runner's).
 */
#define _GNU_SOURCE /* wait4, close_range */

#include "harness/engine/spawn.h"

#include "harness/engine/cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* The groups a child's own spawns made (spawn.h, Nested): a page shared by
 * the caller and the child; 0 marks a free entry. */
#define NESTED_MAX 64
typedef struct nested_reg {
    volatile pid_t g[NESTED_MAX];
} nested_reg;

struct abe_proc {
    pid_t pid;           /* the child, leader of the group pid */
    pid_t guard;         /* the guard in the group, or 0 */
    int fd;              /* read end of the pipe; -1 once closed */
    bool capture;
    bool reap_descendants;
    bool killed, timed_out, cpu_out, reaped;
    double cpu_limit;    /* nested: the group's CPU seconds, else 0 */
    double t0, deadline;
    abe_exit end;        /* once reaped */
    char tail[ABE_TAIL];
    size_t ntail;
    abe_proc *prev, *next; /* the live spawns of this process */
    nested_reg *reg;     /* nested: the child's groups, shared with it; else NULL */
    int reg_slot;        /* this spawn's entry in the caller's own registry, or -1 */
    char *scratch;       /* scratch: the child's TMPDIR folder, removed at the reap */
    /* reap_descendants: the caller's children from before the fork, never the job's */
    struct proc_row *foreign;
    size_t nforeign;
    /* The job's memory, sampled (spawn.h, The job's memory). */
    bool sampling;
    int64_t mem_limit;   /* the job's total private resident bytes; <= 0: none */
    int64_t base_rss;    /* a function child's inherited resident bytes (VmRSS fallback) */
    double next_sample;
    int64_t mem_peak;    /* the largest total sampled */
    int mem_peak_procs;  /* ... over that many processes */
    bool mem_out;
    abe_cgroup cg;       /* the job's cgroup (spawn.h, Containment); version 0: none */
};

/* The live spawns (their read ends are closed in function children), and
 * the subreaper setting borrowed for reap_descendants. A child starts with
 * neither: they are its parent's. */
static abe_proc *live;
static int subreaper_users;
static bool subreaper_ours;
/* In a nested child: where its spawns record their groups (else NULL). */
static nested_reg *my_reg;
/* How jobs are contained (abe_set_containment). */
static abe_contain_mode contain_mode = ABE_CONTAIN_AUTO;

/* ---- names and clocks ------------------------------------------------------------ */

double abe_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- /proc/self/status, with plain system calls ------------------------------------ */

/* The value in kB after "key:" in /proc/self/status text, in bytes; -1 if absent. */
static int64_t status_field(const char *text, const char *key) {
    size_t klen = strlen(key);
    const char *line = text;
    while (*line != '\0') {
        if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
            long long kb = strtoll(line + klen + 1, NULL, 10);
            return kb >= 0 ? (int64_t)kb * 1024 : -1;
        }
        const char *nl = strchr(line, '\n');
        if (nl == NULL) break;
        line = nl + 1;
    }
    return -1;
}

/* Reads /proc/self/status into text (NUL-terminated; "" when unreadable). */
static void read_status(char *text, size_t cap) {
    size_t len = 0;
    int fd = open("/proc/self/status", O_RDONLY);
    while (fd >= 0 && len < cap - 1) {
        ssize_t got = read(fd, text + len, cap - 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
    }
    if (fd >= 0) close(fd);
    text[len] = '\0';
}

/* The address-space size, data size and resident size of the calling
 * process in bytes (-1 each when unknown). */
static void read_vm(int64_t *vm_size, int64_t *vm_data, int64_t *vm_rss) {
    char text[8192];
    read_status(text, sizeof text);
    *vm_size = status_field(text, "VmSize");
    *vm_data = status_field(text, "VmData");
    *vm_rss = status_field(text, "VmRSS");
}

int64_t abe_resident_bytes(void) {
    int64_t size, data, rss;
    read_vm(&size, &data, &rss);
    return rss;
}

int64_t abe_peak_resident_bytes(void) {
    char text[8192];
    read_status(text, sizeof text);
    return status_field(text, "VmHWM");
}

/* ---- the processes of a job, from /proc -------------------------------------------- */

/* One process as /proc/<pid>/stat shows it: its parent and its start time
 * (clock ticks after boot; with the pid, a name no later process reuses). */
typedef struct proc_row {
    pid_t pid, ppid;
    unsigned long long start;
} proc_row;

/* Reads /proc/<pid>/stat into *r; false when the process is gone. */
/* Reads /proc/<pid>/stat into text (len bytes) and returns where its fields
 * start, just after the name's ')' (the name may hold anything but ends
 * there); NULL when it cannot be read (the process is gone). */
static const char *proc_stat_fields(const char *pid, char *text, size_t len) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    ssize_t got = read(fd, text, len - 1);
    close(fd);
    if (got <= 0) return NULL;
    text[got] = '\0';
    return strrchr(text, ')');
}

static bool proc_stat_row(pid_t pid, proc_row *r) {
    char id[24], text[1024];
    snprintf(id, sizeof id, "%d", (int)pid);
    const char *s = proc_stat_fields(id, text, sizeof text);
    if (s == NULL) return false;
    /* after ") ": state ppid, then 17 fields up to starttime (field 22) */
    char state;
    int ppid;
    unsigned long long start;
    if (sscanf(s + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d "
                      "%llu", &state, &ppid, &start) != 3)
        return false;
    r->pid = pid;
    r->ppid = (pid_t)ppid;
    r->start = start;
    return true;
}

static int row_cmp(const void *a, const void *b) {
    pid_t x = ((const proc_row *)a)->pid, y = ((const proc_row *)b)->pid;
    return (x > y) - (x < y);
}

/* Every process of the machine (threads are not listed), sorted by pid: *n rows, owned by
 * the caller (ab_free); NULL when /proc cannot be read or out of memory. */
static proc_row *proc_table(size_t *n) {
    *n = 0;
    DIR *d = opendir("/proc");
    if (d == NULL) return NULL;
    proc_row *t = NULL;
    size_t cap = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9') continue;
        proc_row r;
        if (!proc_stat_row((pid_t)atoi(de->d_name), &r)) continue;
        if (!ab_grow((void **)&t, &cap, *n + 1, sizeof *t)) {
            ab_free(t);
            closedir(d);
            *n = 0;
            return NULL;
        }
        t[(*n)++] = r;
    }
    closedir(d);
    if (t == NULL) t = ab_calloc(1, sizeof *t); /* an empty table, not a failure */
    else qsort(t, *n, sizeof *t, row_cmp);
    return t;
}

/* Marks (mark[i] = true) every row that descends from a marked row, by
 * parent links; the marks already set are the roots. t must be sorted by
 * pid (proc_table's order). Each pass marks the children of the rows marked
 * so far, so it takes as many passes as the tree is deep. */
static void mark_descendants(const proc_row *t, size_t n, bool *mark) {
    size_t *up = ab_alloc_array(n ? n : 1, sizeof *up); /* the parent's row, or n */
    if (up == NULL) return;
    for (size_t i = 0; i < n; i++) {
        proc_row key = {.pid = t[i].ppid};
        const proc_row *hit = bsearch(&key, t, n, sizeof *t, row_cmp);
        up[i] = hit != NULL ? (size_t)(hit - t) : n;
    }
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < n; i++)
            if (!mark[i] && up[i] < n && mark[up[i]]) mark[i] = grew = true;
    }
    ab_free(up);
}

/* The private resident bytes of process pid (Private_Clean + Private_Dirty +
 * Private_Hugetlb of /proc/<pid>/smaps_rollup, Linux 4.14 on): pages no other
 * process maps. When smaps_rollup cannot be read (an older kernel; a process
 * that made itself undumpable, as setuid programs are), its VmRSS instead,
 * less `base` (the image a function child shares with its caller). -1 when
 * the process is gone. */
static int64_t private_bytes(pid_t pid, int64_t base) {
    char path[64], text[8192];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
    int fd = open(path, O_RDONLY);
    bool rollup = fd >= 0;
    if (!rollup) {
        snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
        fd = open(path, O_RDONLY);
    }
    if (fd < 0) return -1;
    size_t len = 0;
    while (len < sizeof text - 1) {
        ssize_t got = read(fd, text + len, sizeof text - 1 - len);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        len += (size_t)got;
    }
    close(fd);
    text[len] = '\0';
    if (len == 0) return -1;
    if (!rollup) {
        int64_t rss = status_field(text, "VmRSS");
        return rss < 0 ? 0 : rss > base ? rss - base : 0;
    }
    int64_t sum = 0;
    static const char *const keys[] = {"Private_Clean", "Private_Dirty", "Private_Hugetlb"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        int64_t v = status_field(text, keys[k]);
        if (v > 0) sum += v;
    }
    return sum;
}

/* Keeps the caller's children as they are before p's fork: none of them can
 * be p's, whatever comes to pass (best effort: without the table, none). */
static void snapshot_foreign(abe_proc *p) {
    size_t n;
    proc_row *t = proc_table(&n);
    if (t == NULL) return;
    pid_t self = getpid();
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i].ppid == self) t[k++] = t[i];
    p->foreign = t;
    p->nforeign = k;
}

/* ---- the child ---------------------------------------------------------------------- */

/* Lowers both limits of resource res to base + extra (to extra alone when
 * base is unknown), never above the hard limit in force. */
static void limit_to(int res, int64_t base, int64_t extra) {
    struct rlimit rl;
    if (getrlimit(res, &rl) != 0) return;
    int64_t want;
    if (base < 0 || ab_add_ovf(base, extra, &want)) want = extra;
    rlim_t v = (rlim_t)want;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < v) v = rl.rlim_max;
    rl.rlim_cur = rl.rlim_max = v;
    setrlimit(res, &rl);
}

/* No core files; the memory and CPU limits of o. The memory limits are the
 * first line, per process, and inherited by what the child starts: RLIMIT_AS
 * makes any allocation past it fail at once, however brief; RLIMIT_DATA
 * binds where RLIMIT_AS cannot (AddressSanitizer's heap lives in address
 * space reserved at start-up). Neither sees several processes together: the
 * sampling of the job's total (sample_memory) does, but only at its
 * instants, so both lines are kept. */
static void apply_limits(const abe_spawn_opts *o) {
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    if (o->mem_limit > 0) {
        int64_t vm_size, vm_data, vm_rss;
        read_vm(&vm_size, &vm_data, &vm_rss);
        limit_to(RLIMIT_AS, vm_size, o->mem_limit);
        limit_to(RLIMIT_DATA, vm_data, o->mem_limit);
    }
    struct rlimit cpu;
    if (o->cpu_limit > 0 && getrlimit(RLIMIT_CPU, &cpu) == 0) {
        rlim_t soft = (rlim_t)ceil(o->cpu_limit);
        if (cpu.rlim_max != RLIM_INFINITY && cpu.rlim_max < soft + 1)
            soft = cpu.rlim_max > 0 ? cpu.rlim_max - 1 : 0;
        cpu.rlim_cur = soft;
        cpu.rlim_max = soft + 1; /* SIGXCPU at the limit, SIGKILL a second later */
        setrlimit(RLIMIT_CPU, &cpu);
    }
}

/* Closes every descriptor from lo up (close_range where there is one). */
static void close_from(int lo) {
#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    if (close_range((unsigned)lo, ~0u, 0) == 0) return;
#endif
    struct rlimit rl;
    int max = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
                      rl.rlim_cur < 65536
                  ? (int)rl.rlim_cur
                  : 65536;
    for (int fd = lo; fd < max; fd++) close(fd);
}

/* stdin on /dev/null; stdout and stderr on the pipe (capture), or stdout on
 * /dev/null and stderr kept. */
static void child_stdio(bool capture, int wfd) {
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) dup2(null, STDIN_FILENO);
    if (capture) {
        dup2(wfd, STDOUT_FILENO);
        dup2(wfd, STDERR_FILENO);
    } else if (null >= 0) {
        dup2(null, STDOUT_FILENO);
    }
    if (null > STDERR_FILENO) close(null);
}

/* Waits until every write end of the pipe go[] is closed: with a guard, the
 * parent closes its end once the guard is started, the guard its own at once.
 * No-op when go is {-1, -1}. */
static void wait_for_guard(const int go[2]) {
    if (go[0] < 0) return;
    close(go[1]);
    char c;
    while (read(go[0], &c, 1) < 0 && errno == EINTR) continue;
    close(go[0]);
}

/* The child's whole life (spawn.h, steps 1 to 6), then fn or the program.
 * With a guard it starts nothing before the guard is in the group: a caller
 * killed in between would otherwise leave the program without one. */
_Noreturn static void child_main(const abe_spawn_opts *o, int rfd, int wfd, pid_t parent,
                                 const int go[2], nested_reg *reg, const char *scratch,
                                 abe_cgroup *cg) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(ABE_ORPHANED);
#else
    (void)parent;
#endif
    /* Into the job's cgroup before anything is charged or started. */
    if (cg->version != 0 && !abe_cgroup_join(cg)) _exit(ABE_CGROUP_FAILED);
    setpgid(0, 0);
#ifdef __linux__
    /* Orphans of the job stay in its tree while its leader lives (spawn.h,
     * What escapes the group); kept across the exec. */
    if (o->reap_descendants || o->nested) prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
    wait_for_guard(go);
    static const int reset[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM,
                                SIGXFSZ};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++) signal(reset[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    close(rfd);
    for (abe_proc *q = live; q != NULL; q = q->next)
        if (q->fd >= 0) close(q->fd);
    live = NULL;
    subreaper_users = 0;
    subreaper_ours = false;
    my_reg = reg;
    if (wfd <= STDERR_FILENO) wfd = fcntl(wfd, F_DUPFD, STDERR_FILENO + 1);
    child_stdio(o->capture, wfd);
    apply_limits(o);
    if (scratch != NULL) setenv("TMPDIR", scratch, 1);
    if (o->fn != NULL) _exit(o->fn(o->ctx, wfd));
    close_from(STDERR_FILENO + 1);
    execv(o->path, o->argv);
    _exit(ABE_EXEC_FAILED);
}

/* ---- the guard ------------------------------------------------------------------------ */

#ifdef __linux__
/* The caller died (PR_SET_PDEATHSIG): the whole group goes, the guard too. */
static void guard_fire(int sig) {
    (void)sig;
    kill(0, SIGKILL);
    _exit(0);
}

/* The guard's whole life: join the group, wait for SIGTERM (sent by the
 * kernel when the caller dies), then kill the group. Holds no descriptor. */
_Noreturn static void guard_main(pid_t group, pid_t parent) {
    if (setpgid(0, group) != 0) _exit(0); /* the group is gone already */
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = guard_fire;
    sigfillset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    close_from(0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) guard_fire(SIGTERM);
    sigset_t wait_for;
    sigfillset(&wait_for);
    sigdelset(&wait_for, SIGTERM);
    for (;;) sigsuspend(&wait_for);
}

/* Starts p's guard; false when it cannot be forked. */
static bool start_guard(abe_proc *p, pid_t parent) {
    pid_t g = fork();
    if (g < 0) return false;
    if (g == 0) guard_main(p->pid, parent);
    setpgid(g, p->pid); /* also done by the guard: whoever runs first */
    p->guard = g;
    return true;
}
#endif

/* ---- the subreaper setting ----------------------------------------------------------------- */

static void subreaper_take(void) {
#ifdef __linux__
    if (subreaper_users++ == 0) {
        int on = 0;
        prctl(PR_GET_CHILD_SUBREAPER, &on);
        subreaper_ours = !on && prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
    }
#endif
}

static void subreaper_give(void) {
#ifdef __linux__
    if (--subreaper_users == 0 && subreaper_ours) {
        prctl(PR_SET_CHILD_SUBREAPER, 0);
        subreaper_ours = false;
    }
#endif
}

/* ---- nested groups and the scratch folder (spawn.h, Nested) ------------------------ */

/* Makes p's shared registry (nested) and scratch folder (scratch, when
 * $TMPDIR can hold one: else the child keeps the caller's TMPDIR); false
 * with err set when the registry cannot be made. */
static bool extras_make(const abe_spawn_opts *o, abe_proc *p, ab_error *err) {
    p->reg_slot = -1;
    if (o->nested) {
        void *m = mmap(NULL, sizeof(nested_reg), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                       -1, 0);
        if (m == MAP_FAILED) {
            ab_fail(err, AB_EINTERNAL, "cannot map a shared page: %s", strerror(errno));
            return false;
        }
        memset(m, 0, sizeof(nested_reg));
        p->reg = m;
    }
    if (o->scratch && o->fn != NULL) {
        const char *base = o->scratch_base != NULL ? o->scratch_base : getenv("TMPDIR");
        if (base == NULL || base[0] == '\0') base = "/tmp";
        size_t len = strlen(base) + sizeof "/arenabench-job.XXXXXX";
        p->scratch = ab_malloc(len);
        if (p->scratch != NULL) snprintf(p->scratch, len, "%s/arenabench-job.XXXXXX", base);
        if (p->scratch == NULL || mkdtemp(p->scratch) == NULL) {
            /* Best effort: a child that needs no temporary files must not fail
             * because $TMPDIR cannot be written; one that does says so itself. */
            ab_free(p->scratch);
            p->scratch = NULL;
        }
    }
    return true;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* The word for a job held without a cgroup. */
static const char *fallback_word(void) {
#ifdef __linux__
    return "subreaper";
#else
    return "process-group";
#endif
}

const char *abe_containment(void) {
    if (contain_mode != ABE_CONTAIN_SUBREAPER && abe_cgroup_usable(NULL)) return "cgroup";
    return fallback_word();
}

void abe_set_containment(abe_contain_mode m) { contain_mode = m; }

bool abe_parse_containment(const char *word, abe_contain_mode *m) {
    static const char *const words[] = {"auto", "cgroup", "subreaper"};
    for (int i = 0; word != NULL && i < 3; i++)
        if (strcmp(word, words[i]) == 0) {
            *m = (abe_contain_mode)i;
            return true;
        }
    return false;
}

ab_status abe_containment_check(ab_error *err) {
    const char *why = NULL;
    if (contain_mode == ABE_CONTAIN_CGROUP && !abe_cgroup_usable(&why))
        return ab_fail(err, AB_EINTERNAL,
                       "--containment cgroup: this machine cannot give a job a cgroup of its "
                       "own: %s (use --containment auto or subreaper)",
                       why);
    return AB_OK;
}

/* ---- the scratch root (spawn.h) ---------------------------------------------------- */

#define ROOT_PREFIX "arenabench-run."

/* Removes dir (a sibling root in base) when its owner is gone: its lock file
 * can be locked, or it has none and is over an hour old. */
static bool sweep_one(const char *base, const char *name) {
    char dir[4096], lock[4200];
    if (snprintf(dir, sizeof dir, "%s/%s", base, name) >= (int)sizeof dir) return false;
    snprintf(lock, sizeof lock, "%s/lock", dir);
    struct stat st;
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid()) return false;
    int fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    bool dead;
    if (fd < 0) dead = errno == ENOENT && time(NULL) - st.st_mtime > 3600;
    else dead = flock(fd, LOCK_EX | LOCK_NB) == 0; /* held until close, past the removal */
    if (dead) nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    if (fd >= 0) close(fd);
    return dead;
}

void abe_scratch_root_open(abe_scratch_root *r) {
    memset(r, 0, sizeof *r);
    r->lock_fd = -1;
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0') base = "/tmp";
    DIR *d = opendir(base);
    for (struct dirent *de; d != NULL && (de = readdir(d)) != NULL;)
        if (strncmp(de->d_name, ROOT_PREFIX, sizeof ROOT_PREFIX - 1) == 0)
            r->swept += sweep_one(base, de->d_name);
    if (d != NULL) closedir(d);
    size_t len = strlen(base) + sizeof "/" ROOT_PREFIX "XXXXXX";
    char *path = ab_malloc(len), lock[4200];
    if (path == NULL) return;
    snprintf(path, len, "%s/" ROOT_PREFIX "XXXXXX", base);
    if (mkdtemp(path) == NULL || snprintf(lock, sizeof lock, "%s/lock", path) >= (int)sizeof lock) {
        ab_free(path);
        return;
    }
    int fd = open(lock, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (fd >= 0) close(fd);
        nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
        ab_free(path);
        return;
    }
    r->path = path;
    r->lock_fd = fd;
}

void abe_scratch_root_close(abe_scratch_root *r) {
    if (r->path != NULL) nftw(r->path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    if (r->lock_fd >= 0) close(r->lock_fd);
    ab_free(r->path);
    r->path = NULL;
    r->lock_fd = -1;
}

/* Removes the scratch folder with what it holds and unmaps the registry. */
static void extras_free(abe_proc *p) {
    if (p->scratch != NULL) nftw(p->scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    ab_free(p->scratch);
    p->scratch = NULL;
    if (p->reg != NULL) munmap(p->reg, sizeof(nested_reg));
    p->reg = NULL;
}

/* In a nested child: records group g in the caller's registry; the entry,
 * or -1 when there is no registry or it is full. */
static int record_nested(pid_t g) {
    if (my_reg == NULL) return -1;
    for (int i = 0; i < NESTED_MAX; i++)
        if (my_reg->g[i] == 0) {
            my_reg->g[i] = g;
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            return i;
        }
    return -1;
}

/* Clears entry i of the registry (the group is about to be reaped). */
static void forget_nested(abe_proc *p) {
    if (my_reg == NULL || p->reg_slot < 0) return;
    my_reg->g[p->reg_slot] = 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    p->reg_slot = -1;
}

/* Sends SIGKILL to every group p's child recorded. */
static void kill_nested(const abe_proc *p) {
    if (p->reg == NULL) return;
    for (int i = 0; i < NESTED_MAX; i++) {
        pid_t g = p->reg->g[i];
        if (g > 0) kill(-g, SIGKILL);
    }
}

/* ---- the parent ------------------------------------------------------------------------ */

static void unlink_live(abe_proc *p) {
    if (p->prev) p->prev->next = p->next;
    else if (live == p) live = p->next;
    if (p->next) p->next->prev = p->prev;
    p->prev = p->next = NULL;
}

/* Closes the spawn's pipes that are open (a failed start). */
static void close_pipes(const int fds[2], const int go[2]) {
    close(fds[0]);
    close(fds[1]);
    if (go[0] >= 0) close(go[0]), close(go[1]);
}

ab_status abe_spawn(const abe_spawn_opts *o, abe_proc **out, ab_error *err) {
    *out = NULL;
    if (o == NULL || (o->fn == NULL && (o->path == NULL || o->argv == NULL)))
        return ab_fail(err, AB_EINPUT, "spawn: neither a function nor a program to run");
    abe_proc *p = ab_calloc(1, sizeof *p);
    if (p == NULL) return ab_fail(err, AB_ENOMEM, "out of memory starting a process");
    int fds[2];
    if (pipe(fds) != 0) {
        ab_free(p);
        return ab_fail(err, AB_EINTERNAL, "cannot make a pipe: %s", strerror(errno));
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    int go[2] = {-1, -1}; /* the child waits on it for the guard (wait_for_guard) */
#ifdef __linux__
    if (o->guard && pipe(go) != 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        ab_free(p);
        return ab_fail(err, AB_EINTERNAL, "cannot make a pipe: %s", strerror(e));
    }
    if (go[0] >= 0) {
        fcntl(go[0], F_SETFD, FD_CLOEXEC);
        fcntl(go[1], F_SETFD, FD_CLOEXEC);
    }
#endif
    bool reap = o->reap_descendants || o->nested;
    if (!extras_make(o, p, err)) {
        close_pipes(fds, go);
        ab_free(p);
        return AB_EINTERNAL;
    }
    /* A cgroup for a job (Containment): in auto mode, when none can be made
     * (abe_cgroup_make says why), the subreaper alone holds it. */
    p->cg.mem_fd = p->cg.kill_fd = -1;
    ab_error ce;
    if (reap && contain_mode != ABE_CONTAIN_SUBREAPER && !abe_cgroup_inside() &&
        abe_cgroup_make(&p->cg, o->mem_limit, &ce) != AB_OK && contain_mode == ABE_CONTAIN_CGROUP) {
        close_pipes(fds, go);
        extras_free(p);
        ab_free(p);
        return ab_fail(err, AB_EINTERNAL, "%s", ce.msg);
    }
    if (reap) subreaper_take();
    if (reap) snapshot_foreign(p);
    int64_t caller_rss = o->fn != NULL ? abe_resident_bytes() : 0;
    pid_t parent = getpid();
    fflush(NULL); /* nothing buffered may be written twice */
    double t0 = abe_now(); /* before the fork: the child's whole life is inside the wall time */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close_pipes(fds, go);
        if (reap) subreaper_give();
        extras_free(p);
        abe_cgroup_remove(&p->cg);
        ab_free(p->foreign);
        ab_free(p);
        return ab_fail(err, AB_EINTERNAL, "cannot start a process: %s", strerror(e));
    }
    if (pid == 0) child_main(o, fds[0], fds[1], parent, go, p->reg, p->scratch, &p->cg);
    p->reg_slot = record_nested(pid);
    /* The child has its own copies to join with; ours would leak into later children. */
    if (p->cg.mem_fd >= 0) close(p->cg.mem_fd);
    if (p->cg.kill_fd >= 0) close(p->cg.kill_fd);
    p->cg.mem_fd = p->cg.kill_fd = -1;
    close(fds[1]);
    if (go[0] >= 0) close(go[0]);
    setpgid(pid, pid); /* also done by the child: whoever runs first forms the group */
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    p->pid = pid;
    p->fd = fds[0];
    p->capture = o->capture;
    p->reap_descendants = reap;
    p->cpu_limit = o->nested && o->cpu_limit > 0 ? o->cpu_limit : 0;
    p->t0 = t0;
    p->deadline = o->time_limit > 0 ? p->t0 + o->time_limit : INFINITY;
    /* In a cgroup the kernel counts the job's memory; the samples only look
     * for its out-of-memory kills, which need a limit. */
    p->sampling = p->cg.version != 0 ? o->mem_limit > 0 : o->nested || o->mem_limit > 0;
    p->mem_limit = o->mem_limit > 0 ? o->mem_limit : 0;
    p->base_rss = caller_rss > 0 ? caller_rss : 0;
    p->next_sample = t0 + ABE_SAMPLE_SECONDS;
    p->next = live;
    if (live) live->prev = p;
    live = p;
#ifdef __linux__
    bool guarded = !o->guard || start_guard(p, parent);
    int e = errno;
    if (!guarded) abe_free(p); /* killed while it waits for the guard */
    if (go[1] >= 0) close(go[1]); /* else now the child goes on */
    if (!guarded) return ab_fail(err, AB_EINTERNAL, "cannot start a process: %s", strerror(e));
#endif
    *out = p;
    return AB_OK;
}

int abe_fd(const abe_proc *p) { return p->fd; }
pid_t abe_pid(const abe_proc *p) { return p->pid; }
double abe_deadline(const abe_proc *p) { return p->deadline; }

double abe_next_check(const abe_proc *p) {
    if (p->reaped || p->killed || !p->sampling) return p->deadline;
    return fmin(p->deadline, p->next_sample);
}

const char *abe_tail(const abe_proc *p, size_t *len) {
    *len = p->ntail;
    return p->tail;
}

/* Keeps the last ABE_TAIL bytes captured. */
static void keep_tail(abe_proc *p, const char *buf, size_t len) {
    if (len >= ABE_TAIL) {
        memcpy(p->tail, buf + len - ABE_TAIL, ABE_TAIL);
        p->ntail = ABE_TAIL;
        return;
    }
    if (p->ntail + len > ABE_TAIL) {
        size_t drop = p->ntail + len - ABE_TAIL;
        memmove(p->tail, p->tail + drop, p->ntail - drop);
        p->ntail -= drop;
    }
    memcpy(p->tail + p->ntail, buf, len);
    p->ntail += len;
}

long abe_read(abe_proc *p, void *buf, size_t cap) {
    if (p->fd < 0) return -1;
    for (;;) {
        ssize_t got = read(p->fd, buf, cap);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        if (got <= 0) { /* end of stream, or a read error: the same to us */
            close(p->fd);
            p->fd = -1;
            return -1;
        }
        if (p->capture) keep_tail(p, buf, (size_t)got);
        return (long)got;
    }
}

void abe_kill(abe_proc *p) {
    if (!p->killed && !p->reaped) {
        if (kill(-p->pid, SIGKILL) != 0) kill(p->pid, SIGKILL);
        kill_nested(p);
        abe_cgroup_kill(&p->cg);
        p->killed = true;
    }
    if (p->fd >= 0) {
        close(p->fd);
        p->fd = -1;
    }
}

/* CPU seconds of /proc/<pid>/stat: utime + stime + cutime + cstime; *pgrp
 * its process group. false when it cannot be read (the process is gone). */
static bool proc_cpu(const char *pid, double *cpu, long *pgrp) {
    char text[1024];
    const char *s = proc_stat_fields(pid, text, sizeof text);
    if (s == NULL) return false;
    /* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt
     * cmajflt utime stime cutime cstime */
    char state;
    long ppid, group, sess, tty, tpgid;
    unsigned long flags, minflt, cminflt, majflt, cmajflt, ut, st;
    long cut, cst;
    if (sscanf(s + 1, " %c %ld %ld %ld %ld %ld %lu %lu %lu %lu %lu %lu %lu %ld %ld", &state,
               &ppid, &group, &sess, &tty, &tpgid, &flags, &minflt, &cminflt, &majflt, &cmajflt,
               &ut, &st, &cut, &cst) != 15)
        return false;
    static long tick;
    if (tick <= 0) tick = sysconf(_SC_CLK_TCK);
    *cpu = (double)(ut + st + (unsigned long)(cut > 0 ? cut : 0) +
                    (unsigned long)(cst > 0 ? cst : 0)) / (double)(tick > 0 ? tick : 100);
    *pgrp = group;
    return true;
}

/* The CPU seconds of p's child (its own and its reaped children's) and of
 * every live process of the groups it recorded. */
static double nested_cpu(const abe_proc *p) {
    char name[32];
    double total = 0, c;
    long g;
    snprintf(name, sizeof name, "%d", (int)p->pid);
    if (proc_cpu(name, &c, &g)) total += c;
    DIR *d = opendir("/proc");
    if (d == NULL) return total;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9') continue;
        if (!proc_cpu(de->d_name, &c, &g) || g <= 0 || g == p->pid) continue;
        for (int i = 0; i < NESTED_MAX; i++)
            if (p->reg->g[i] == (pid_t)g) {
                total += c;
                break;
            }
    }
    closedir(d);
    return total;
}

/* true when one of p's groups is recorded. */
static bool has_nested(const abe_proc *p) {
    for (int i = 0; p->reg != NULL && i < NESTED_MAX; i++)
        if (p->reg->g[i] > 0) return true;
    return false;
}

static void sample_memory(abe_proc *p);

bool abe_enforce_deadline(abe_proc *p) {
    if (p->killed || p->reaped) return false;
    double now = abe_now();
    if (p->sampling && now >= p->next_sample) {
        p->next_sample = now + ABE_SAMPLE_SECONDS;
        sample_memory(p);
        if (p->mem_out) return true;
    }
    if (now >= p->deadline) {
        p->timed_out = true;
        abe_kill(p);
        return true;
    }
    if (p->cpu_limit > 0 && has_nested(p) && nested_cpu(p) >= p->cpu_limit) {
        p->cpu_out = true;
        abe_kill(p);
        return true;
    }
    return false;
}

/* Adds what one wait4 reports to the spawn's totals. */
static void add_usage(abe_exit *e, const struct rusage *ru) {
    e->cpu_seconds += (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec * 1e-6 +
                      (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec * 1e-6;
    int64_t rss = (int64_t)ru->ru_maxrss * 1024; /* Linux: kilobytes */
    if (rss > e->peak_rss) e->peak_rss = rss;
}

/* ---- what escapes the group (spawn.h) --------------------------------------------------- */

/* true when row r is a process of the caller's that is not p's: another
 * live spawn or its guard, or a child the caller had before p started. */
static bool not_the_jobs(const abe_proc *p, const proc_row *r) {
    for (const abe_proc *q = live; q != NULL; q = q->next)
        if (q != p && (q->pid == r->pid || q->guard == r->pid)) return true;
    for (size_t i = 0; i < p->nforeign; i++)
        if (p->foreign[i].pid == r->pid && p->foreign[i].start == r->start) return true;
    return false;
}

/* After p's child and groups are reaped: kills and reaps every process left
 * of the job, whatever session or group it moved to. The job's leader was a
 * subreaper, so until it died every orphan of the job stayed in its tree;
 * when it died they all came to the caller, a subreaper too. So what is left
 * is: the caller's children that are not its own (not_the_jobs), and their
 * descendants. Each round kills all of them (SIGKILL) and reaps those that
 * are the caller's children; the children of those come to the caller and
 * are found in the next round, until a round finds none. Another spawn's
 * processes that came to the caller (its leader dead, not yet reaped) may
 * be taken here too: their job has ended, and their CPU time counts in p's. */
static void sweep(abe_proc *p, abe_exit *e) {
#ifdef __linux__
    int on = 0;
    if (prctl(PR_GET_CHILD_SUBREAPER, &on) != 0 || !on) return; /* orphans went to init */
    pid_t self = getpid();
    for (;;) {
        size_t n;
        proc_row *t = proc_table(&n);
        bool *mark = t != NULL ? ab_calloc(n ? n : 1, sizeof *mark) : NULL;
        if (mark == NULL) {
            ab_free(t);
            return;
        }
        size_t found = 0;
        for (size_t i = 0; i < n; i++) mark[i] = t[i].ppid == self && !not_the_jobs(p, &t[i]);
        mark_descendants(t, n, mark);
        for (size_t i = 0; i < n; i++)
            if (mark[i]) kill(t[i].pid, SIGKILL), found++;
        for (size_t i = 0; i < n; i++) {
            if (!mark[i] || t[i].ppid != self) continue;
            int ws;
            struct rusage ru;
            memset(&ru, 0, sizeof ru);
            pid_t got;
            do got = wait4(t[i].pid, &ws, 0, &ru);
            while (got < 0 && errno == EINTR);
            if (got > 0) add_usage(e, &ru);
        }
        ab_free(mark);
        ab_free(t);
        if (found == 0) return;
    }
#else
    (void)p, (void)e;
#endif
}

/* ---- the job's memory (spawn.h) ----------------------------------------------------------- */

/* Sums the private resident bytes of p's child and of every process that
 * descends from it now (its tree holds the whole job while it lives: it is
 * a subreaper); keeps the peak; kills the job, marked mem_out, when the sum
 * passes mem_limit. */
static void sample_memory(abe_proc *p) {
    if (p->cg.version != 0) { /* the kernel limits the whole job: was it stopped there? */
        if (abe_cgroup_oom_kills(&p->cg) > 0 && !p->killed) {
            p->mem_out = true;
            abe_kill(p);
        }
        return;
    }
    size_t n;
    proc_row *t = proc_table(&n);
    bool *mark = t != NULL ? ab_calloc(n ? n : 1, sizeof *mark) : NULL;
    if (mark == NULL) {
        ab_free(t);
        return;
    }
    for (size_t i = 0; i < n; i++) mark[i] = t[i].pid == p->pid;
    mark_descendants(t, n, mark);
    int64_t total = 0;
    int procs = 0;
    for (size_t i = 0; i < n; i++) {
        if (!mark[i]) continue;
        int64_t b = private_bytes(t[i].pid, t[i].pid == p->pid ? p->base_rss : 0);
        if (b < 0) continue;
        total += b;
        procs++;
    }
    ab_free(mark);
    ab_free(t);
    if (total > p->mem_peak) {
        p->mem_peak = total;
        p->mem_peak_procs = procs;
    }
    if (p->mem_limit > 0 && total > p->mem_limit && !p->killed) {
        p->mem_out = true;
        abe_kill(p);
    }
}

/* The child has ended (or is lost): kills the rest of its group and reaps
 * every process of the group that is the caller's child. */
static void collect(abe_proc *p, bool lost) {
    abe_exit *e = &p->end;
    memset(e, 0, sizeof *e);
    e->lost = lost;
    e->code = -1;
    /* The group's id stays reserved while the unreaped child (or the guard)
     * is in it, so this cannot hit a stranger. */
    if (!lost || p->guard > 0) kill(-p->pid, SIGKILL);
    forget_nested(p);
    for (;;) {
        int ws = 0;
        struct rusage ru;
        memset(&ru, 0, sizeof ru);
        pid_t got = wait4(-p->pid, &ws, 0, &ru);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break; /* none of the group is the caller's child any more */
        add_usage(e, &ru);
        if (got != p->pid) continue;
        e->exited = WIFEXITED(ws);
        e->code = e->exited ? WEXITSTATUS(ws) : -1;
        e->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
    }
    /* The child is gone: no entry changes now. What of its groups is left is
     * ours (a subreaper), each member adopted before its parent is reapable. */
    for (int i = 0; p->reg != NULL && i < NESTED_MAX; i++) {
        pid_t g = p->reg->g[i];
        if (g <= 0) continue;
        kill(-g, SIGKILL);
        for (;;) {
            int ws = 0;
            struct rusage ru;
            memset(&ru, 0, sizeof ru);
            pid_t got = wait4(-g, &ws, 0, &ru);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) break;
            add_usage(e, &ru);
        }
        p->reg->g[i] = 0;
    }
    abe_cgroup_kill(&p->cg); /* whatever session or group they moved to */
    if (p->reap_descendants) sweep(p, e);
    if (p->cg.version != 0) {
        if (abe_cgroup_oom_kills(&p->cg) > 0) p->mem_out = true;
        int64_t peak = abe_cgroup_peak(&p->cg);
        if (peak > p->mem_peak) p->mem_peak = peak;
        e->containment = "cgroup";
    } else {
        e->containment = fallback_word();
    }
    abe_cgroup_remove(&p->cg);
    extras_free(p);
    e->killed = p->killed;
    e->mem_out = p->mem_out;
    e->job_peak = p->mem_peak;
    e->job_procs = p->mem_peak_procs;
    e->timed_out = p->timed_out;
    e->cpu_out = p->cpu_out;
    e->wall_seconds = abe_now() - p->t0;
    p->reaped = true;
    if (p->reap_descendants) subreaper_give();
}

bool abe_reap(abe_proc *p, bool wait, abe_exit *e) {
    if (!p->reaped) {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        int r;
        do r = waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOWAIT | (wait ? 0 : WNOHANG));
        while (r < 0 && errno == EINTR);
        if (r == 0 && si.si_pid == 0) return false; /* still running */
        collect(p, r < 0);
    }
    *e = p->end;
    return true;
}

/* Reads whatever the pipe holds now. */
static void drain(abe_proc *p) {
    char buf[4096];
    while (abe_read(p, buf, sizeof buf) > 0) {
    }
}

void abe_wait(abe_proc *p, abe_exit *e) {
    /* The pipe may outlive the child (a process it left behind holds it open),
     * so the child is checked at least every 50 ms while the pipe is open. */
    while (!abe_reap(p, false, e)) {
        if (!p->killed && abe_now() >= p->deadline) drain(p); /* the last words, for the tail */
        abe_enforce_deadline(p); /* the deadline, the job's memory and CPU */
        double left = abe_next_check(p) - abe_now();
        if (p->fd < 0 && (p->killed || isinf(left))) {
            abe_reap(p, true, e); /* nothing to read, nothing to check: just wait */
            break;
        }
        if (p->fd < 0) { /* the pipe ended before the child: check it every ms */
            struct timespec ts = {0, 1000000};
            nanosleep(&ts, NULL);
            continue;
        }
        struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
        int ms = left > 0.05 ? 50 : left > 0 ? (int)ceil(left * 1000.0) : 0;
        if (poll(&pfd, 1, ms) > 0) drain(p);
    }
    drain(p); /* the group is gone: what is left in the pipe, then its end */
}

void abe_free(abe_proc *p) {
    if (p == NULL) return;
    if (!p->reaped) {
        abe_exit e;
        abe_kill(p);
        abe_reap(p, true, &e);
    }
    if (p->fd >= 0) close(p->fd);
    unlink_live(p);
    ab_free(p->foreign);
    ab_free(p);
}
