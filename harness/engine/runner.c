/*
 * runner.c — the job runner (see runner.h): a child per job, started,
 * limited, killed and reaped by the engine's spawner (spawn.h); its result
 * read back through the spawn's pipe in a checked frame, all pipes drained
 * with poll() while wall-clock deadlines are enforced.
 *
 * The parent loop, once per wake-up:
 *   1. start jobs while fewer than opt->jobs children run;
 *   2. poll the open pipes (timeout: the nearest deadline);
 *   3. read what is ready into each child's frame reader (a malformed
 *      stream gets its child killed);
 *   4. kill (SIGKILL to the child's process group) what is past its deadline;
 *   5. reap, without blocking, the children whose pipe is closed; classify,
 *      report through the callback, store.
 */
#include "harness/engine/runner.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "harness/engine/spawn.h"

/* ---- names ------------------------------------------------------------------ */

const char *abe_status_name(abe_job_status s) {
    switch (s) {
    case ABE_OK: return "ok";
    case ABE_TIMEOUT: return "timeout";
    case ABE_CRASH: return "crash";
    case ABE_OOM: return "oom";
    case ABE_ERROR: return "error";
    }
    return "error";
}

const char *abe_capped_word(abe_capped c) {
    switch (c) {
    case ABE_CAPPED_TIME: return "time";
    case ABE_CAPPED_MEMORY: return "memory";
    case ABE_CAPPED_NONE: break;
    }
    return NULL;
}

void abe_result_free(abe_job_result *r) {
    if (r == NULL) return;
    ab_free(r->offsets);
    r->offsets = NULL;
}

void abe_results_free(abe_job_result *results, size_t n) {
    if (results == NULL) return;
    for (size_t i = 0; i < n; i++) abe_result_free(&results[i]);
}

/* ---- the frame ----------------------------------------------------------------
 * Layout in runner.h. The checksum is FNV-1a 64 over every byte before it. */

#define FRAME_MAGIC "ABR2"
#define FRAME_HEADER 72
#define NOTE_MAX (sizeof((ab_plan_stats *)0)->note)
#define FNV_OFFSET UINT64_C(0xcbf29ce484222325)

static void put32(unsigned char *at, uint32_t v) { memcpy(at, &v, sizeof v); }
static void put64(unsigned char *at, uint64_t v) { memcpy(at, &v, sizeof v); }
static uint32_t get32(const unsigned char *at) {
    uint32_t v;
    memcpy(&v, at, sizeof v);
    return v;
}
static uint64_t get64(const unsigned char *at) {
    uint64_t v;
    memcpy(&v, at, sizeof v);
    return v;
}

/* Writes all len bytes, retrying short writes and EINTR. */
static bool write_all(int fd, const void *buf, size_t len) {
    const unsigned char *p = buf;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

bool abe_write_result(int fd, ab_status st, const int64_t *offsets, size_t n,
                      const ab_plan_stats *stats, const abe_usage *u, const char *msg) {
    unsigned char head[FRAME_HEADER + NOTE_MAX + AB_ERROR_MAX];
    size_t note_len = stats ? strnlen(stats->note, NOTE_MAX - 1) : 0;
    size_t msg_len = msg ? strnlen(msg, AB_ERROR_MAX - 1) : 0;
    size_t count = st == AB_OK ? n : 0;
    memcpy(head, FRAME_MAGIC, 4);
    put32(head + 4, (uint32_t)(int32_t)st);
    put64(head + 8, (uint64_t)count);
    put64(head + 16, (uint64_t)(stats ? stats->nodes : 0));
    put64(head + 24, (uint64_t)(stats ? stats->lower_bound : AB_NONE));
    put64(head + 32, (uint64_t)(u ? u->base_rss : 0));
    /* bit 0: proven; bit 1: capped; bits 8-15: the proof method; bits 16-23: the ILP's
     * status + 1 */
    put32(head + 40, stats ? (stats->proven_optimal ? 1u : 0u) | (stats->capped ? 2u : 0u) |
                                 ((uint32_t)stats->method & 0xffu) << 8 |
                                 ((uint32_t)stats->ilp_status & 0xffu) << 16
                           : 0u);
    put32(head + 44, (uint32_t)note_len);
    put32(head + 48, (uint32_t)msg_len);
    put32(head + 52, 0);
    double cpu = u && u->plan_cpu_seconds > 0 ? u->plan_cpu_seconds : 0;
    put64(head + 56, (uint64_t)(int64_t)llround(cpu * 1e9));
    put64(head + 64, (uint64_t)(u && u->peak_rss > 0 ? u->peak_rss : 0));
    if (note_len) memcpy(head + FRAME_HEADER, stats->note, note_len);
    if (msg_len) memcpy(head + FRAME_HEADER + note_len, msg, msg_len);
    size_t head_len = FRAME_HEADER + note_len + msg_len;
    uint64_t h = ab_fnv1a(FNV_OFFSET, head, head_len);
    if (!write_all(fd, head, head_len)) return false;
    const unsigned char *bytes = (const unsigned char *)offsets;
    size_t left = count * sizeof(int64_t);
    while (left > 0) {
        size_t chunk = left < (1u << 16) ? left : (1u << 16);
        h = ab_fnv1a(h, bytes, chunk);
        if (!write_all(fd, bytes, chunk)) return false;
        bytes += chunk;
        left -= chunk;
    }
    unsigned char sum[8];
    put64(sum, h);
    return write_all(fd, sum, sizeof sum);
}

/* The parts of a frame, in order; a reader fills one at a time. */
enum { SEG_HEADER, SEG_TEXT, SEG_OFFSETS, SEG_SUM, SEG_DONE, SEG_BAD };

struct abe_reader {
    size_t n;          /* offsets expected when the planner status is AB_OK */
    int seg;           /* the part being filled */
    size_t pos;        /* bytes of it received */
    size_t total;      /* bytes accepted in all */
    uint64_t hash;     /* FNV-1a of the bytes before the checksum */
    unsigned char header[FRAME_HEADER];
    unsigned char sum[8];
    int32_t status;    /* decoded header fields */
    uint64_t count;
    int64_t nodes, lower_bound, base_rss, plan_cpu_ns, peak_rss;
    uint32_t proven, note_len, msg_len;
    char text[NOTE_MAX + AB_ERROR_MAX]; /* note, then message */
    int64_t *offsets;  /* owned until taken */
};

abe_reader *abe_reader_new(size_t n) {
    abe_reader *rd = ab_calloc(1, sizeof *rd);
    if (rd == NULL) return NULL;
    rd->n = n;
    rd->seg = SEG_HEADER;
    rd->hash = FNV_OFFSET;
    return rd;
}

void abe_reader_free(abe_reader *rd) {
    if (rd == NULL) return;
    ab_free(rd->offsets);
    ab_free(rd);
}

/* How many bytes were accepted. */
static size_t reader_bytes(const abe_reader *rd) { return rd->total; }
bool abe_reader_complete(const abe_reader *rd) { return rd->seg == SEG_DONE; }

static size_t seg_size(const abe_reader *rd) {
    switch (rd->seg) {
    case SEG_HEADER: return FRAME_HEADER;
    case SEG_TEXT: return (size_t)rd->note_len + rd->msg_len;
    case SEG_OFFSETS: return (size_t)rd->count * sizeof(int64_t);
    case SEG_SUM: return sizeof rd->sum;
    }
    return 0;
}

static unsigned char *seg_dest(abe_reader *rd) {
    switch (rd->seg) {
    case SEG_HEADER: return rd->header;
    case SEG_TEXT: return (unsigned char *)rd->text;
    case SEG_OFFSETS: return (unsigned char *)rd->offsets;
    case SEG_SUM: return rd->sum;
    }
    return NULL;
}

static ab_status reject(abe_reader *rd, ab_error *err, const char *what) {
    rd->seg = SEG_BAD;
    ab_free(rd->offsets);
    rd->offsets = NULL;
    return ab_fail(err, AB_ECHECK, "%s (at byte %zu)", what, rd->total);
}

/* Decodes and checks the header; allocates the offsets it announces. */
static ab_status end_header(abe_reader *rd, ab_error *err) {
    const unsigned char *h = rd->header;
    if (memcmp(h, FRAME_MAGIC, 4) != 0) return reject(rd, err, "bad magic");
    rd->status = (int32_t)get32(h + 4);
    rd->count = get64(h + 8);
    rd->nodes = (int64_t)get64(h + 16);
    rd->lower_bound = (int64_t)get64(h + 24);
    rd->base_rss = (int64_t)get64(h + 32);
    rd->proven = get32(h + 40);
    rd->note_len = get32(h + 44);
    rd->msg_len = get32(h + 48);
    rd->plan_cpu_ns = (int64_t)get64(h + 56);
    rd->peak_rss = (int64_t)get64(h + 64);
    if (rd->status < AB_OK || rd->status > AB_ELIMIT)
        return reject(rd, err, "unknown planner status");
    if (rd->count != (rd->status == AB_OK ? (uint64_t)rd->n : 0))
        return reject(rd, err, "offset count does not match the job");
    if ((rd->proven & ~0x00ffff03u) != 0 || get32(h + 52) != 0)
        return reject(rd, err, "bad flag fields");
    if (rd->plan_cpu_ns < 0 || rd->peak_rss < 0 || rd->base_rss < 0)
        return reject(rd, err, "negative time or memory");
    if (rd->note_len >= NOTE_MAX || rd->msg_len >= AB_ERROR_MAX)
        return reject(rd, err, "note or message too long");
    if (rd->status == AB_OK) {
        rd->offsets = ab_alloc_array(rd->n ? rd->n : 1, sizeof *rd->offsets);
        if (rd->offsets == NULL)
            return ab_fail(err, AB_ENOMEM, "out of memory for %zu offsets", rd->n);
    }
    return AB_OK;
}

/* Ends the part just filled and moves to the next. */
static ab_status end_seg(abe_reader *rd, ab_error *err) {
    switch (rd->seg) {
    case SEG_HEADER: {
        ab_status s = end_header(rd, err);
        if (s != AB_OK) return s;
        break;
    }
    case SEG_TEXT:
        if (memchr(rd->text, '\0', (size_t)rd->note_len + rd->msg_len) != NULL)
            return reject(rd, err, "NUL byte in the note or message");
        break;
    case SEG_SUM:
        if (get64(rd->sum) != rd->hash) return reject(rd, err, "checksum mismatch");
        break;
    }
    rd->seg++;
    rd->pos = 0;
    return AB_OK;
}

ab_status abe_reader_feed(abe_reader *rd, const void *buf, size_t len, ab_error *err) {
    const unsigned char *p = buf;
    for (;;) {
        if (rd->seg == SEG_BAD) return ab_fail(err, AB_ECHECK, "the stream was rejected");
        /* Close parts that are complete (empty ones included) before refusing input. */
        if (rd->seg != SEG_DONE && rd->pos == seg_size(rd)) {
            ab_status s = end_seg(rd, err);
            if (s != AB_OK) return s;
            continue;
        }
        if (len == 0) return AB_OK;
        if (rd->seg == SEG_DONE) return reject(rd, err, "bytes after the end of the frame");
        size_t take = seg_size(rd) - rd->pos;
        if (take > len) take = len;
        memcpy(seg_dest(rd) + rd->pos, p, take);
        if (rd->seg != SEG_SUM) rd->hash = ab_fnv1a(rd->hash, p, take);
        rd->pos += take;
        rd->total += take;
        p += take;
        len -= take;
    }
}

ab_status abe_reader_take(abe_reader *rd, abe_job_result *r, ab_error *err) {
    if (rd->seg != SEG_DONE) return ab_fail(err, AB_ECHECK, "the result frame is not complete");
    r->planner_status = (ab_status)rd->status;
    r->n = rd->n;
    memset(&r->stats, 0, sizeof r->stats);
    r->stats.nodes = rd->nodes;
    r->stats.lower_bound = rd->lower_bound;
    r->stats.proven_optimal = (rd->proven & 1u) != 0;
    r->stats.capped = (rd->proven & 2u) != 0;
    r->stats.method = (abo_proof)((rd->proven >> 8) & 0xffu);
    if ((unsigned)r->stats.method >= ABO_NPROOFS) r->stats.method = ABO_PROOF_NONE;
    r->stats.ilp_status = (int)((rd->proven >> 16) & 0xffu);
    memcpy(r->stats.note, rd->text, rd->note_len);
    r->stats.note[rd->note_len] = '\0';
    memcpy(r->message, rd->text + rd->note_len, rd->msg_len);
    r->message[rd->msg_len] = '\0';
    r->base_rss = rd->base_rss;
    r->peak_rss = rd->peak_rss;
    r->plan_cpu_seconds = (double)rd->plan_cpu_ns * 1e-9;
    ab_free(r->offsets);
    r->offsets = rd->offsets;
    rd->offsets = NULL;
    return AB_OK;
}

/* ---- the child ------------------------------------------------------------------ */

/* One running child, as the parent tracks it. */
typedef struct slot {
    bool used;
    size_t job;          /* index into the jobs */
    abe_proc *proc;      /* from the spawner */
    bool malformed;      /* the stream broke the format; why says how */
    abe_reader *rd;
    char why[AB_ERROR_MAX];
    int64_t parent_rss;  /* the parent's resident bytes at the fork (runner.h, Memory) */
    /* Repeats: the runs so far, their samples, and the result they make. */
    int runs;
    double *wall, *cpu, *plan_cpu; /* per run, runs of them (cap held) */
    size_t cap;
    double wall_total;
    abe_job_result first; /* the first run's result, or the failing repeat's */
} slot;

/* One call of abe_run. */
typedef struct run {
    const abe_job *jobs;
    size_t n;
    const abe_options *opt;
    abe_job_result *results;
    abe_done_fn done;
    void *ctx;
    slot *slots;
    size_t nslots;
    size_t active;
    struct pollfd *pfd;  /* nslots entries */
    size_t *pslot;       /* the slot of each pfd entry */
    unsigned char *buf;  /* read buffer */
    abe_scratch_root scratch; /* the jobs' scratch folders go in it (spawn.h) */
} run;

#define READ_BUF (1u << 16)
#define CHILD_WRITE_FAILED 125

/* CPU seconds of the calling process. */
static double process_cpu(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The child's own peak resident bytes (runner.h, Memory): its high-water
 * mark beyond what it had at base, or a waited-for program's peak. */
static int64_t own_peak(int64_t base) {
    int64_t hwm = abe_peak_resident_bytes(), own = 0;
    if (hwm > 0 && base > 0 && hwm > base) own = hwm - base;
    struct rusage ch;
    if (getrusage(RUSAGE_CHILDREN, &ch) == 0 && (int64_t)ch.ru_maxrss * 1024 > own)
        own = (int64_t)ch.ru_maxrss * 1024; /* Linux: kilobytes */
    return own;
}

/* The child's whole life, after the spawner's set-up and limits: plan,
 * write the frame to fd; the return value is the exit status. */
static int child_main(void *ctx, int fd) {
    const abe_job *job = ctx;
    double t0 = process_cpu();
    int64_t vm_rss = abe_resident_bytes();
    abe_usage u = {.base_rss = vm_rss > 0 ? vm_rss : 0};
    ab_plan_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.lower_bound = AB_NONE;
    size_t n = job->view->n;
    int64_t *offsets = ab_alloc_array(n ? n : 1, sizeof *offsets);
    if (offsets == NULL) {
        bool ok = abe_write_result(fd, AB_ENOMEM, NULL, 0, &stats, &u,
                                   "out of memory for the offsets array");
        return ok ? 0 : CHILD_WRITE_FAILED;
    }
    for (size_t i = 0; i < n; i++) offsets[i] = AB_NONE;
    ab_params none = {0};
    ab_error e;
    ab_error_clear(&e);
    ab_status st = ab_planner_plan(job->planner, job->params ? job->params : &none, job->view,
                                   offsets, &stats, &e); /* pools: spill.c */
    u.plan_cpu_seconds = process_cpu() - t0;
    u.peak_rss = own_peak(u.base_rss);
    char msg[AB_ERROR_MAX];
    msg[0] = '\0';
    if (st != AB_OK) {
        if (e.msg[0] != '\0') snprintf(msg, sizeof msg, "%s", e.msg);
        else snprintf(msg, sizeof msg, "%s failed without a message (status %d)",
                      job->planner->name, (int)st);
    }
    bool ok = abe_write_result(fd, st, offsets, n, &stats, &u, msg);
    return ok ? 0 : CHILD_WRITE_FAILED;
}

/* ---- the parent ------------------------------------------------------------------ */

/* Starts a child for job s->job in slot s (a first run or a repeat). */
static ab_status spawn_into(run *r, slot *s, ab_error *err) {
    const abe_job *job = &r->jobs[s->job];
    s->rd = abe_reader_new(job->view->n);
    if (s->rd == NULL) return ab_fail(err, AB_ENOMEM, "out of memory starting a job");
    s->malformed = false;
    s->why[0] = '\0';
    int64_t rss = abe_resident_bytes();
    s->parent_rss = rss > 0 ? rss : 0;
    abe_spawn_opts o = {.fn = child_main, .ctx = (void *)job, .mem_limit = r->opt->mem_limit,
                        .time_limit = r->opt->time_limit, .cpu_limit = r->opt->cpu_limit,
                        .nested = true, .scratch = true, .scratch_base = r->scratch.path};
    ab_error e;
    ab_status st = abe_spawn(&o, &s->proc, &e);
    if (st != AB_OK) {
        abe_reader_free(s->rd);
        s->rd = NULL;
        s->proc = NULL;
        return ab_fail(err, st, "%s for a job", e.msg);
    }
    return AB_OK;
}

/* Starts the child for job j in a free slot. */
static ab_status start_job(run *r, size_t j, ab_error *err) {
    slot *s = NULL;
    for (size_t i = 0; i < r->nslots && s == NULL; i++)
        if (!r->slots[i].used) s = &r->slots[i];
    if (s == NULL) return ab_fail(err, AB_EINTERNAL, "runner: no free slot");
    memset(s, 0, sizeof *s);
    s->job = j;
    ab_status st = spawn_into(r, s, err);
    if (st != AB_OK) return st;
    s->used = true;
    r->active++;
    return AB_OK;
}

/* Reads what the child has sent, up to the end of its stream. A stream that
 * breaks the format gets the child killed. Only running out of memory in the
 * parent is an error of the run. */
static ab_status drain(run *r, slot *s, ab_error *err) {
    for (;;) {
        long got = abe_read(s->proc, r->buf, READ_BUF);
        if (got <= 0) return AB_OK;
        ab_error e;
        ab_status st = abe_reader_feed(s->rd, r->buf, (size_t)got, &e);
        if (st == AB_ENOMEM) return ab_fail(err, st, "%s", e.msg);
        if (st != AB_OK) {
            s->malformed = true;
            snprintf(s->why, sizeof s->why, "%s", e.msg);
            abe_kill(s->proc);
            return AB_OK;
        }
    }
}

/* Maps what the planner returned (a complete frame) to a job status. */
static void classify_planner(abe_job_result *res) {
    switch (res->planner_status) {
    case AB_OK: res->status = ABE_OK; break;
    case AB_ENOMEM: res->status = ABE_OOM; break;
    case AB_ELIMIT: res->status = ABE_TIMEOUT; break;
    default: res->status = ABE_ERROR; break;
    }
    if (res->status != ABE_OK) {
        ab_free(res->offsets);
        res->offsets = NULL;
    }
}

/* true when the CPU limit ended the child: SIGXCPU at the soft limit, or
 * the kernel's SIGKILL at the hard one (a second later) with that much CPU
 * used. */
static bool cpu_limited(const run *r, const abe_exit *e) {
    double lim = r->opt->cpu_limit;
    if (lim <= 0 || e->timed_out) return false;
    return e->cpu_out || e->signal == SIGXCPU || (e->signal == SIGKILL && e->cpu_seconds >= ceil(lim));
}

/* Sets res's status and message from how the child ended. */
static void classify(const run *r, slot *s, const abe_exit *e, abe_job_result *res) {
    if (e->timed_out) { /* compare.c's under_load reads this message: keep its form */
        res->status = ABE_TIMEOUT;
        snprintf(res->message, sizeof res->message, "exceeded the time limit of %g s",
                 r->opt->time_limit);
    } else if (e->mem_out && e->containment != NULL && strcmp(e->containment, "cgroup") == 0) {
        res->status = ABE_OOM;
        snprintf(res->message, sizeof res->message,
                 "the job's total memory reached the limit of %.1f MiB in its cgroup, and the "
                 "kernel's out-of-memory killer stopped it (the job's peak: %.1f MiB, all its "
                 "processes together)",
                 (double)r->opt->mem_limit / 1048576.0, (double)e->job_peak / 1048576.0);
    } else if (e->mem_out) {
        res->status = ABE_OOM;
        snprintf(res->message, sizeof res->message,
                 "the job's total memory passed the limit of %.1f MiB: %.1f MiB resident over %d "
                 "processes (their private bytes, sampled every %g s)",
                 (double)r->opt->mem_limit / 1048576.0, (double)e->job_peak / 1048576.0,
                 e->job_procs, ABE_SAMPLE_SECONDS);
    } else if (cpu_limited(r, e)) {
        res->status = ABE_TIMEOUT;
        snprintf(res->message, sizeof res->message,
                 "exceeded the CPU limit of %g s (%.2f s of CPU used)", r->opt->cpu_limit,
                 e->cpu_seconds);
    } else if (s->malformed) {
        res->status = ABE_ERROR;
        snprintf(res->message, sizeof res->message, "the child sent a malformed result: %.900s",
                 s->why);
    } else if (e->signal != 0) {
        res->signal = e->signal;
        const char *sig_name = ab_signal_name(res->signal);
        if (res->signal == SIGKILL) {
            res->status = ABE_OOM;
            snprintf(res->message, sizeof res->message,
                     "killed by SIGKILL, which the runner did not send "
                     "(likely the kernel's out-of-memory killer)");
        } else {
            res->status = ABE_CRASH;
            snprintf(res->message, sizeof res->message, "killed by signal %d (%s)", res->signal,
                     sig_name ? sig_name : "unknown");
        }
    } else if (abe_reader_complete(s->rd) && e->exited && e->code == 0) {
        abe_reader_take(s->rd, res, NULL);
        classify_planner(res);
    } else {
        res->status = ABE_CRASH;
        size_t got = reader_bytes(s->rd);
        if (got == 0)
            snprintf(res->message, sizeof res->message,
                     "the child exited with status %d without a result", e->code);
        else
            snprintf(res->message, sizeof res->message,
                     "the child exited with status %d after %zu bytes of %s result", e->code,
                     got, abe_reader_complete(s->rd) ? "its" : "an incomplete");
    }
}

/* Fresh result for job j: not finished, no offsets, no bound. */
static void result_init(abe_job_result *res, const abe_job *job) {
    memset(res, 0, sizeof *res);
    res->n = job->view->n;
    res->stats.lower_bound = AB_NONE;
    res->plan_cpu_seconds = -1;
}

/* Ends the current child of slot s (its process and reader). */
static void slot_end_child(slot *s) {
    abe_free(s->proc);
    abe_reader_free(s->rd);
    s->proc = NULL;
    s->rd = NULL;
}

/* Frees what slot s holds and empties it. */
static void slot_clear(run *r, slot *s) {
    slot_end_child(s);
    ab_free(s->wall);
    ab_free(s->cpu);
    ab_free(s->plan_cpu);
    abe_result_free(&s->first);
    memset(s, 0, sizeof *s);
    r->active--;
}

/* One run's result from how its child ended: status, message, plan, and
 * this run's times, own peak and cap. */
static void one_run(run *r, slot *s, const abe_exit *e, abe_job_result *res) {
    result_init(res, &r->jobs[s->job]);
    res->finished = true;
    res->repeats = 1;
    res->wall_seconds = res->wall_min = res->wall_max = e->wall_seconds;
    if (e->lost) {
        res->status = ABE_ERROR;
        snprintf(res->message, sizeof res->message,
                 "the child's exit status was lost (another waiter reaped it)");
        return;
    }
    res->cpu_seconds = res->cpu_min = res->cpu_max = e->cpu_seconds;
    classify(r, s, e, res);
    if (res->plan_cpu_seconds < 0) /* no frame: all that is known is the rusage */
        res->peak_rss = e->peak_rss > s->parent_rss ? e->peak_rss - s->parent_rss : 0;
    if (e->job_peak > res->peak_rss) res->peak_rss = e->job_peak; /* the job's total, sampled */
    if (e->timed_out || cpu_limited(r, e) || res->stats.capped) res->capped = ABE_CAPPED_TIME;
    else if (res->status == ABE_OOM) res->capped = ABE_CAPPED_MEMORY;
    res->containment = e->containment;
}

/* Keeps run k's samples. false when out of memory. */
static bool add_sample(slot *s, const abe_job_result *res) {
    size_t need = (size_t)s->runs + 1, cap = s->cap;
    if (!ab_grow((void **)&s->wall, &cap, need, sizeof *s->wall)) return false;
    cap = s->cap;
    if (!ab_grow((void **)&s->cpu, &cap, need, sizeof *s->cpu)) return false;
    cap = s->cap;
    if (!ab_grow((void **)&s->plan_cpu, &cap, need, sizeof *s->plan_cpu)) return false;
    s->cap = cap;
    s->wall[s->runs] = res->wall_seconds;
    s->cpu[s->runs] = res->cpu_seconds;
    s->plan_cpu[s->runs] = res->plan_cpu_seconds;
    s->runs++;
    s->wall_total += res->wall_seconds;
    return true;
}

/* Folds a repeat's result into the slot's: the first failure wins; a plan
 * that differs from the first run's makes the job an error. Takes res. */
static void fold_repeat(slot *s, abe_job_result *res) {
    abe_job_result *f = &s->first;
    if (f->peak_rss < res->peak_rss) f->peak_rss = res->peak_rss;
    if (f->status != ABE_OK) {
        abe_result_free(res);
        return;
    }
    if (res->status != ABE_OK) {
        int64_t peak = f->peak_rss;
        abe_result_free(f);
        *f = *res;
        f->peak_rss = peak;
        size_t len = strlen(f->message);
        snprintf(f->message + len, sizeof f->message - len, " (on repeat %d)", s->runs);
        return;
    }
    if (memcmp(f->offsets, res->offsets, f->n * sizeof *f->offsets) != 0) {
        f->status = ABE_ERROR;
        abe_result_free(f);
        snprintf(f->message, sizeof f->message,
                 "the plan of repeat %d differs from the first run's: the planner is not "
                 "deterministic", s->runs);
    }
    abe_result_free(res);
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0 .. n) (sorted in place; the mean of the two middle
 * values when n is even); min and max when not NULL. */
static double median(double *v, size_t n, double *min, double *max) {
    qsort(v, n, sizeof *v, cmp_double);
    if (min) *min = v[0];
    if (max) *max = v[n - 1];
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The slot's result over all its runs, into *out. */
static void summarise(slot *s, abe_job_result *out) {
    *out = s->first;
    memset(&s->first, 0, sizeof s->first);
    size_t n = (size_t)s->runs;
    out->repeats = s->runs;
    out->wall_seconds = median(s->wall, n, &out->wall_min, &out->wall_max);
    out->cpu_seconds = median(s->cpu, n, &out->cpu_min, &out->cpu_max);
    size_t k = 0; /* runs that sent their own time */
    for (size_t i = 0; i < n; i++)
        if (s->plan_cpu[i] >= 0) s->plan_cpu[k++] = s->plan_cpu[i];
    out->plan_cpu_seconds = k > 0 ? median(s->plan_cpu, k, NULL, NULL) : -1;
}

/* true when the job of slot s runs again (runner.h, Repeats). */
static bool again(const run *r, const slot *s) {
    const abe_job_result *f = &s->first;
    return f->status == ABE_OK && f->capped == ABE_CAPPED_NONE &&
           s->runs < r->opt->repeat_min && s->wall_total < r->opt->repeat_time &&
           !(r->opt->repeat_below > 0 && s->wall[0] >= r->opt->repeat_below) &&
           !(r->opt->stop && *r->opt->stop);
}

/* The child of slot s has been reaped: folds its run into the job's result;
 * starts the next repeat, or reports the job. */
static ab_status finish(run *r, slot *s, const abe_exit *e, ab_error *err) {
    abe_job_result res;
    one_run(r, s, e, &res);
    slot_end_child(s);
    if (!add_sample(s, &res)) {
        abe_result_free(&res);
        return ab_fail(err, AB_ENOMEM, "out of memory keeping the times of a job");
    }
    if (s->runs == 1) s->first = res;
    else fold_repeat(s, &res);
    if (again(r, s)) return spawn_into(r, s, err);
    abe_job_result out;
    summarise(s, &out);
    size_t j = s->job;
    slot_clear(r, s);
    ab_status st = AB_OK;
    if (r->done) st = r->done(r->ctx, j, &out, err);
    if (r->results) r->results[j] = out;
    else abe_result_free(&out);
    return st;
}

/* Reaps, without blocking, every child whose pipe is closed. */
static ab_status reap_closed(run *r, ab_error *err) {
    for (size_t i = 0; i < r->nslots; i++) {
        slot *s = &r->slots[i];
        abe_exit e;
        if (!s->used || abe_fd(s->proc) >= 0 || !abe_reap(s->proc, false, &e)) continue;
        ab_status st = finish(r, s, &e, err);
        if (st != AB_OK) return st;
    }
    return AB_OK;
}

/* Kills the children past their deadline. */
static void enforce_deadlines(run *r) {
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].used) abe_enforce_deadline(r->slots[i].proc);
}

/* How long poll may sleep, in ms (-1: until a pipe has news). */
static int poll_timeout(const run *r) {
    double wait = INFINITY, now = abe_now();
    for (size_t i = 0; i < r->nslots; i++) {
        const slot *s = &r->slots[i];
        if (!s->used) continue;
        if (abe_fd(s->proc) < 0) wait = fmin(wait, 0.002); /* closed, not yet reaped */
        else wait = fmin(wait, abe_next_check(s->proc) - now);
    }
    if (r->opt->stop) wait = fmin(wait, 0.1);
    if (isinf(wait)) return -1;
    if (wait <= 0) return 0;
    double ms = ceil(wait * 1000.0);
    return ms > 60000 ? 60000 : (int)ms;
}

/* One wake-up: poll, drain, deadlines, reap. */
static ab_status step(run *r, ab_error *err) {
    nfds_t np = 0;
    for (size_t i = 0; i < r->nslots; i++) {
        if (!r->slots[i].used || abe_fd(r->slots[i].proc) < 0) continue;
        r->pfd[np].fd = abe_fd(r->slots[i].proc);
        r->pfd[np].events = POLLIN;
        r->pfd[np].revents = 0;
        r->pslot[np++] = i;
    }
    int ready = poll(r->pfd, np, poll_timeout(r));
    if (ready < 0 && errno != EINTR)
        return ab_fail(err, AB_EINTERNAL, "poll failed: %s", strerror(errno));
    for (nfds_t k = 0; ready > 0 && k < np; k++) {
        slot *s = &r->slots[r->pslot[k]];
        if (r->pfd[k].revents == 0 || abe_fd(s->proc) < 0) continue;
        ab_status st = drain(r, s, err);
        if (st != AB_OK) return st;
    }
    enforce_deadlines(r);
    return reap_closed(r, err);
}

/* Kills and reaps every child still running (after an error of the run). */
static void abandon(run *r) {
    for (size_t i = 0; i < r->nslots; i++)
        if (r->slots[i].used) slot_clear(r, &r->slots[i]);
}

static ab_status check_options(const abe_job *jobs, size_t n, const abe_options *opt,
                               ab_error *err) {
    if (opt == NULL || opt->jobs < 1)
        return ab_fail(err, AB_EINPUT, "the number of parallel jobs must be at least 1");
    if (isnan(opt->time_limit))
        return ab_fail(err, AB_EINPUT, "the time limit must be a number of seconds");
    for (size_t i = 0; i < n; i++)
        if (jobs[i].view == NULL || jobs[i].planner == NULL || jobs[i].planner->plan == NULL)
            return ab_fail(err, AB_EINPUT, "job %zu has no problem or no planner", i);
    return AB_OK;
}

/* The loop of abe_run over prepared state; children are left to abandon(). */
static ab_status run_all(run *r, ab_error *err) {
    size_t next = 0;
    ab_status st = AB_OK;
    while (st == AB_OK && (next < r->n || r->active > 0)) {
        if (r->opt->stop && *r->opt->stop)
            return ab_fail(err, AB_ELIMIT, "the run was interrupted");
        while (st == AB_OK && r->active < r->nslots && next < r->n) st = start_job(r, next++, err);
        if (st == AB_OK) st = step(r, err);
    }
    return st;
}

/* The signal that interrupted a run whose caller gave no stop flag, or 0. */
static volatile sig_atomic_t caught_signal;
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof stop_signals / sizeof stop_signals[0])

static void on_stop_signal(int sig) { caught_signal = sig; }

/* With no stop flag from the caller, the run catches the signals that would
 * kill the harness by default (old[i] keeps each disposition, caught[i] says
 * whether it was replaced), so that its children, their groups and their
 * folders go before the harness does (abe_run re-raises the signal). */
static void catch_stop(struct sigaction old[NSTOP], bool caught[NSTOP]) {
    caught_signal = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSTOP; i++) {
        caught[i] = sigaction(stop_signals[i], NULL, &old[i]) == 0 &&
                    old[i].sa_handler == SIG_DFL && !(old[i].sa_flags & SA_SIGINFO);
        if (caught[i]) sigaction(stop_signals[i], &sa, NULL);
    }
}

/* Puts the dispositions back; a signal caught meanwhile is raised again. */
static void release_stop(const struct sigaction old[NSTOP], const bool caught[NSTOP]) {
    for (size_t i = 0; i < NSTOP; i++)
        if (caught[i]) sigaction(stop_signals[i], &old[i], NULL);
    int sig = caught_signal;
    caught_signal = 0;
    if (sig != 0) raise(sig);
}

ab_status abe_run(const abe_job *jobs, size_t n, const abe_options *opt,
                  abe_job_result *results, abe_done_fn done, void *ctx, ab_error *err) {
    ab_status st = check_options(jobs, n, opt, err);
    if (st != AB_OK) return st;
    for (size_t i = 0; results && i < n; i++) result_init(&results[i], &jobs[i]);
    if (n == 0) return AB_OK;
    abe_options own = *opt;
    struct sigaction old_stop[NSTOP];
    bool caught[NSTOP] = {false};
    if (own.stop == NULL) {
        catch_stop(old_stop, caught);
        own.stop = &caught_signal;
    }
    run r = {.jobs = jobs, .n = n, .opt = &own, .results = results, .done = done, .ctx = ctx};
    r.nslots = (size_t)opt->jobs < n ? (size_t)opt->jobs : n;
    r.slots = ab_calloc(r.nslots, sizeof *r.slots);
    r.pfd = ab_calloc(r.nslots, sizeof *r.pfd);
    r.pslot = ab_calloc(r.nslots, sizeof *r.pslot);
    r.buf = ab_malloc(READ_BUF);
    if (r.slots == NULL || r.pfd == NULL || r.pslot == NULL || r.buf == NULL) {
        st = ab_fail(err, AB_ENOMEM, "out of memory starting %zu jobs", n);
    } else {
        /* Children must stay waitable: SIGCHLD ignored would reap them for us. */
        struct sigaction old_chld, dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(SIGCHLD, NULL, &old_chld);
        bool swap = old_chld.sa_handler == SIG_IGN || (old_chld.sa_flags & SA_NOCLDWAIT);
        if (swap) sigaction(SIGCHLD, &dfl, NULL);
        abe_scratch_root_open(&r.scratch);
        st = run_all(&r, err);
        abandon(&r);
        abe_scratch_root_close(&r.scratch);
        if (swap) sigaction(SIGCHLD, &old_chld, NULL);
    }
    ab_free(r.slots);
    ab_free(r.pfd);
    ab_free(r.pslot);
    ab_free(r.buf);
    if (opt->stop == NULL) release_stop(old_stop, caught);
    return st;
}
