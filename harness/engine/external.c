/*
 * external.c — planner `external`: any planner as a program, through
 * MiniMalloc's CSV protocol.
 *
 *   external:cmd='minimalloc --capacity={capacity} --input={input} --output={output}'
 *
 * The planner writes the problem as a MiniMalloc CSV file, runs the command
 * through /bin/sh -c, reads the offsets back from the CSV file the program
 * wrote and returns them; the harness checks them like any plan (the planner
 * trusts nothing but the file's shape). Inside `arenabench run` and `plan`
 * the planner already runs in the runner's child, so the program runs under
 * the same time and memory limits.
 *
 * The command template: {input} and {output} (both required) become the
 * paths of the two files, single-quoted for the shell; {capacity} becomes a
 * capacity in bytes. Any other '{' is copied as it is (so ${VAR} works).
 *
 * The input file (MiniMalloc's half-open convention: upper = end + 1):
 *
 *     id,lower,upper,size[,alignment][,offset]
 *     conv1,0,2,1024
 *     pool1,1,3,2048
 *
 * ids are the tensors' names, as `arenabench export --format minimalloc`
 * writes them (and as MiniMalloc, whose ids are strings, writes them back),
 * so a program's files, an exported suite and a plan all name tensors alike.
 * A name MiniMalloc's CSV cannot hold (a comma, a quote, a line break, or
 * blanks at either end, which readers trim) is refused before anything runs
 * (AB_EINPUT, naming the tensor), as export refuses it. `alignment` is
 * written when some tensor's align is above 1, and `offset` when some tensor
 * has a fixed offset (empty for the others). The output file must have a
 * header with `id` and `offset` columns (others, such as MiniMalloc's lower,
 * upper, size, are ignored) and one row per tensor, its id the name written.
 *
 * Parameters:
 *   capacity=suite   (default) one run at the suite's capacity, or, when the
 *                    suite has none, at a capacity every plan fits under (the
 *                    tensors stacked with their alignment padding);
 *   capacity=bisect  a binary search for the smallest capacity the program
 *                    solves: first that capacity, then the range from the
 *                    max-load bound up to the best arena solved so far. A run
 *                    that exits non-zero says "not solved at this capacity"
 *                    (the search goes higher); a run that passes probe_time
 *                    is killed and counts as unknown, not as unsolved (the
 *                    search also goes higher, but proves nothing); the best
 *                    solved plan is kept and returned;
 *   probe_time=S     seconds allowed to each run (default: no limit of its
 *                    own).
 *
 * Outcomes: the program's offsets (AB_OK); AB_ECHECK when it solved nothing,
 * with its exit status and the tail of what it printed; AB_ELIMIT when its
 * only run timed out (its probe time, or SIGXCPU: the CPU limit it inherits);
 * AB_EINPUT when the shell could not find or execute the
 * program (its exit status 127 or 126: the spec names a program that is not
 * there, a mistake of the user's, exit 2 in `plan`); AB_EINTERNAL when it
 * cannot be started or its output is malformed. Each run goes through the engine's spawner (spawn.h):
 * /bin/sh is exec'd as the leader of a process group of its own, and the
 * commands it starts stay in that group; stdout and stderr go to one pipe,
 * of which the last ABE_TAIL bytes are kept for messages. When the run ends
 * (or is killed at its probe time) whatever is left of the group is killed
 * and reaped, the planner being a child subreaper (Linux) for the run so
 * that processes the program left behind are its to reap. A guard process
 * in the group kills the whole group when the planner dies: a planner
 * killed by the runner (its time or memory limit) takes the shell and
 * everything the shell started down with it; the runner, which the spawner
 * told about the shell's group (spawn.h, Nested), kills that group too and
 * reaps what is left of it. The temporary folder is removed before the
 * planner returns; in the runner it lies inside the job's scratch folder
 * ($TMPDIR), which the runner removes whatever way the job ended.
 */
#include "harness/engine/external.h"
#include "core/file.h"
#include "core/csv.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/engine/spawn.h"

#define OUT_SHOW 400 /* bytes of the program's output a message shows at most */
#define EXT_OUTPUT_MAX ((uint64_t)256 << 20) /* bytes of its output file read at most, as an input file */

/* ---- the problem as MiniMalloc sees it ------------------------------------- */

typedef struct ext {
    const ab_problem *p;
    const char *cmd;
    ab_names *names;     /* name -> index of p's tensors, to read the output */
    double probe_time;   /* seconds; <= 0: none */
    char dir[4096];      /* the temporary folder */
    char in[4200], out[4200];
    char tail[ABE_TAIL]; /* the last output of the last run */
    size_t ntail;
    int64_t *got;        /* offsets of the last solved run */
    int64_t *best;       /* offsets of the best solved run */
    int64_t best_arena;  /* AB_NONE until a run solved */
    int runs, solved, unsolved, timed_out;
    int64_t refused;     /* the largest capacity a run refused, or AB_NONE */
} ext;

/* Checks that every name can be a MiniMalloc id: no comma, quote or line
 * break, no blank at either end (a CSV reader trims them), not empty. */
static ab_status check_names(const ab_problem *p, ab_error *err) {
    for (size_t i = 0; i < p->n; i++) {
        const char *s = p->t[i].name;
        size_t len = strlen(s);
        bool blank_end = len == 0 || s[0] == ' ' || s[0] == '\t' || s[len - 1] == ' ' ||
                         s[len - 1] == '\t';
        if (blank_end || strpbrk(s, ",\"\r\n") != NULL)
            return ab_fail(err, AB_EINPUT, "external: tensor '%.200s': MiniMalloc CSV cannot hold "
                           "a name with a comma, quote, line break or blanks at its ends (the "
                           "program is given the tensors' names as ids)", s);
    }
    return AB_OK;
}

/* Writes the MiniMalloc input file, the tensors' names as ids. */
static ab_status write_input(ext *x, ab_error *err) {
    const ab_problem *p = x->p;
    bool aligns = false, fixed = false;
    for (size_t i = 0; i < p->n; i++) {
        aligns |= p->t[i].align > 1;
        fixed |= p->t[i].offset != AB_NONE;
    }
    FILE *f = fopen(x->in, "w");
    if (f == NULL)
        return ab_fail(err, AB_EINTERNAL, "external: cannot write %s: %s", x->in, strerror(errno));
    fprintf(f, "id,lower,upper,size%s%s\n", aligns ? ",alignment" : "", fixed ? ",offset" : "");
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        fprintf(f, "%s,%lld,%lld,%lld", t->name, (long long)t->start, (long long)t->end + 1,
                (long long)t->size);
        if (aligns) fprintf(f, ",%lld", (long long)t->align);
        if (fixed && t->offset != AB_NONE) fprintf(f, ",%lld", (long long)t->offset);
        else if (fixed) fputc(',', f);
        fputc('\n', f);
    }
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return ab_fail(err, AB_EINTERNAL, "external: cannot write %s: %s", x->in, strerror(errno));
    return AB_OK;
}

/* ---- the command line ------------------------------------------------------ */

/* Appends s to the growing string *b (length *n, capacity *cap); false on OOM. */
static bool append(char **b, size_t *n, size_t *cap, const char *s, size_t len) {
    if (!ab_grow((void **)b, cap, *n + len + 1, 1)) return false;
    memcpy(*b + *n, s, len);
    *n += len;
    (*b)[*n] = '\0';
    return true;
}

/* Appends path single-quoted for sh ('\'' for a quote inside). */
static bool append_quoted(char **b, size_t *n, size_t *cap, const char *path) {
    bool ok = append(b, n, cap, "'", 1);
    for (const char *s = path; ok && *s; s++)
        ok = *s == '\'' ? append(b, n, cap, "'\\''", 4) : append(b, n, cap, s, 1);
    return ok && append(b, n, cap, "'", 1);
}

/* The command for one run at the given capacity; owned by the caller. */
static char *command_for(const ext *x, int64_t capacity) {
    char *b = NULL, num[32];
    size_t n = 0, cap = 0;
    bool ok = append(&b, &n, &cap, "", 0);
    snprintf(num, sizeof num, "%lld", (long long)capacity);
    for (const char *s = x->cmd; ok && *s;) {
        if (strncmp(s, "{input}", 7) == 0) {
            ok = append_quoted(&b, &n, &cap, x->in);
            s += 7;
        } else if (strncmp(s, "{output}", 8) == 0) {
            ok = append_quoted(&b, &n, &cap, x->out);
            s += 8;
        } else if (strncmp(s, "{capacity}", 10) == 0) {
            ok = append(&b, &n, &cap, num, strlen(num));
            s += 10;
        } else {
            ok = append(&b, &n, &cap, s, 1);
            s++;
        }
    }
    if (!ok) {
        ab_free(b);
        return NULL;
    }
    return b;
}

/* ---- one run ---------------------------------------------------------------- */

typedef enum run_end { RUN_SOLVED, RUN_UNSOLVED, RUN_TIMEOUT } run_end;

/* The tail of the output for a message: printable, at most OUT_SHOW bytes. */
static void shown_tail(const ext *x, char *out, size_t cap) {
    size_t from = x->ntail > OUT_SHOW ? x->ntail - OUT_SHOW : 0, o = 0;
    if (from > 0 && o + 3 < cap) o += (size_t)snprintf(out + o, cap - o, "...");
    for (size_t i = from; i < x->ntail && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)x->tail[i];
        out[o++] = c == '\n' ? '|' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    while (o > 0 && out[o - 1] == '|') o--; /* a final newline shows as nothing */
    out[o] = '\0';
}

/* Runs sh -c cmd (within the probe time) and waits for it; *end says how it
 * ended, x->tail holds the end of its output. AB_EINTERNAL when it cannot be
 * started, AB_ENOMEM. */
static ab_status spawn(ext *x, const char *cmd, abe_exit *end, ab_error *err) {
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    abe_spawn_opts o = {.path = "/bin/sh", .argv = argv, .capture = true,
                        .time_limit = x->probe_time, .guard = true, .reap_descendants = true};
    abe_proc *proc;
    ab_error e;
    ab_status st = abe_spawn(&o, &proc, &e);
    if (st != AB_OK) return ab_fail(err, st, "external: %s", e.msg);
    abe_wait(proc, end);
    const char *tail = abe_tail(proc, &x->ntail);
    memcpy(x->tail, tail, x->ntail);
    abe_free(proc);
    return AB_OK;
}

/* ---- the output file --------------------------------------------------------- */

/* The columns `id` and `offset` of the header record c. */
static ab_status header_cols(const ab_csv *c, size_t *id, size_t *off, ab_error *err) {
    *id = *off = SIZE_MAX;
    for (size_t k = 0; k < c->nf; k++) {
        if (strcasecmp(c->f[k].s, "id") == 0) *id = k;
        if (strcasecmp(c->f[k].s, "offset") == 0) *off = k;
    }
    if (*id == SIZE_MAX || *off == SIZE_MAX)
        return ab_fail(err, AB_EINTERNAL,
                       "external: the output's header lacks an 'id' or an 'offset' column "
                       "(MiniMalloc's output: id,lower,upper,size,offset)");
    return AB_OK;
}

/* Takes one output record c (id and offset in columns idc and offc) into x->got. */
static ab_status take_record(ext *x, const ab_csv *c, size_t idc, size_t offc, ab_error *err) {
    int64_t off;
    if (c->nf <= idc || c->nf <= offc)
        return ab_fail(err, AB_EINTERNAL, "external: output line %d: too few fields", c->line);
    const ab_csv_field *fi = &c->f[idc], *fo = &c->f[offc];
    size_t id = ab_names_find(x->names, fi->s, fi->len);
    if (id == AB_NO_TENSOR)
        return ab_fail(err, AB_EINTERNAL,
                       "external: output line %d: id '%.40s' is not one of the ids written "
                       "(the tensors' names)",
                       c->line, fi->s);
    if (!ab_parse_int64(fo->s, fo->len, &off) || off < 0 || off > AB_MAX_SIZE)
        return ab_fail(err, AB_EINTERNAL,
                       "external: output line %d: offset '%.40s' is not an integer in [0, 2^62]",
                       c->line, fo->s);
    if (x->got[id] != AB_NONE)
        return ab_fail(err, AB_EINTERNAL, "external: output line %d: id '%.40s' appears twice",
                       c->line, fi->s);
    x->got[id] = off;
    return AB_OK;
}

/* Reads the output file (MiniMalloc CSV, core's tokenizer) into x->got, one
 * offset per tensor. */
static ab_status read_output(ext *x, ab_error *err) {
    struct stat sb; /* lstat: the program's own file, never what a link it left names */
    if (lstat(x->out, &sb) != 0)
        return ab_fail(err, AB_EINTERNAL, "external: the program exited 0 but wrote no %s",
                       x->out);
    if (!S_ISREG(sb.st_mode)) /* a FIFO would block the read for ever, a device never end */
        return ab_fail(err, AB_EINTERNAL, "external: %s is not a regular file (the program "
                       "left a %s there); its output must be a file", x->out,
                       S_ISFIFO(sb.st_mode) ? "FIFO" : S_ISLNK(sb.st_mode) ? "symbolic link"
                       : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "device" : "non-file");
    char *text;
    size_t len;
    /* Bounded: a runaway program's output does not fill the run's memory. */
    ab_status st = ab_read_file(x->out, EXT_OUTPUT_MAX, "an external planner's output", &text,
                               &len, err);
    if (st != AB_OK) return st == AB_ENOMEM ? st : ab_fail(err, AB_EINTERNAL, "external: %s", err->msg);
    const ab_problem *p = x->p;
    for (size_t i = 0; i < p->n; i++) x->got[i] = AB_NONE;
    ab_csv c;
    ab_csv_init(&c, x->out, text, len, false);
    bool eof = false;
    size_t idc = 0, offc = 0;
    st = ab_csv_next(&c, &eof, err);
    if (st == AB_OK && eof) st = ab_fail(err, AB_EINTERNAL, "external: the output file is empty");
    if (st == AB_OK) st = header_cols(&c, &idc, &offc, err);
    while (st == AB_OK && (st = ab_csv_next(&c, &eof, err)) == AB_OK && !eof)
        st = take_record(x, &c, idc, offc, err);
    for (size_t i = 0; st == AB_OK && i < p->n; i++)
        if (x->got[i] == AB_NONE)
            st = ab_fail(err, AB_EINTERNAL, "external: the output has no offset for id '%s'",
                         p->t[i].name);
    ab_csv_free(&c);
    ab_free(text);
    return st;
}

/* ---- runs and the search ------------------------------------------------------ */

/* max(offset + size) of the offsets in x->got (saturating). */
static int64_t got_arena(const ext *x) {
    int64_t arena = 0, end;
    for (size_t i = 0; i < x->p->n; i++) {
        if (ab_add_ovf(x->got[i], x->p->t[i].size, &end)) return INT64_MAX;
        if (end > arena) arena = end;
    }
    return arena;
}

/* One run at capacity: how it ended in *how; a solved run's plan in x->got,
 * kept in x->best when its arena is the best yet. *why describes a run that
 * did not solve. */
static ab_status run_at(ext *x, int64_t capacity, run_end *how, char *why, size_t whylen,
                        ab_error *err) {
    char *cmd = command_for(x, capacity);
    if (cmd == NULL) return ab_fail(err, AB_ENOMEM, "external: out of memory");
    unlink(x->out);
    abe_exit end;
    ab_status st = spawn(x, cmd, &end, err);
    ab_free(cmd);
    if (st != AB_OK) return st;
    x->runs++;
    char tail[OUT_SHOW + 8];
    shown_tail(x, tail, sizeof tail);
    const char *sep = tail[0] ? ": " : "";
    if (end.timed_out) {
        x->timed_out++;
        *how = RUN_TIMEOUT;
        snprintf(why, whylen, "killed after the probe time of %g s at capacity %lld%s%s",
                 x->probe_time, (long long)capacity, sep, tail);
        return AB_OK;
    }
    /* The job's CPU limit (RLIMIT_CPU, each process's): SIGXCPU ended the
     * shell, or the program the shell waited for (the shell's 128 + signal). */
    if (!end.lost && (end.signal == SIGXCPU || (end.exited && end.code == 128 + SIGXCPU))) {
        x->timed_out++;
        *how = RUN_TIMEOUT;
        snprintf(why, whylen, "killed by SIGXCPU (the CPU limit) at capacity %lld%s%s",
                 (long long)capacity, sep, tail);
        return AB_OK;
    }
    if (end.exited && (end.code == 126 || end.code == 127) && !end.lost)
        return ab_fail(err, AB_EINPUT, "external: '%.100s': the shell %s the program (exit "
                       "status %d)%s%s", x->cmd, end.code == 127 ? "did not find" : "could not run",
                       end.code, sep, tail);
    if (!end.exited || end.code != 0) {
        x->unsolved++;
        if (x->refused == AB_NONE || capacity > x->refused) x->refused = capacity;
        *how = RUN_UNSOLVED;
        const char *name = ab_signal_name(end.signal);
        if (end.lost)
            snprintf(why, whylen, "ended at capacity %lld, its exit status lost (another "
                     "waiter reaped it)%s%s", (long long)capacity, sep, tail);
        else if (end.signal != 0)
            snprintf(why, whylen, "killed by signal %d (%s) at capacity %lld%s%s", end.signal,
                     name ? name : "unknown", (long long)capacity, sep, tail);
        else
            snprintf(why, whylen, "exited with status %d at capacity %lld%s%s", end.code,
                     (long long)capacity, sep, tail);
        return AB_OK;
    }
    st = read_output(x, err);
    if (st != AB_OK) return st;
    x->solved++;
    *how = RUN_SOLVED;
    int64_t arena = got_arena(x);
    if (x->best_arena == AB_NONE || arena < x->best_arena) {
        x->best_arena = arena;
        memcpy(x->best, x->got, x->p->n * sizeof *x->best);
    }
    return AB_OK;
}

/* A change of the live bytes at an instruction. */
typedef struct load_ev {
    int64_t at, delta;
} load_ev;

/* By instruction; at one instruction, tensors leaving before tensors arriving. */
static int by_event(const void *pa, const void *pb) {
    const load_ev *a = pa, *b = pb;
    if (a->at != b->at) return a->at < b->at ? -1 : 1;
    return (a->delta > b->delta) - (a->delta < b->delta);
}

/* The lower end of the search: the max-load bound (no plan is smaller), and
 * no less than the end of a fixed tensor. 0 when memory runs out (a lower
 * floor only costs runs). */
static int64_t search_floor(const ab_problem *p) {
    int64_t best = 0, live = 0, end;
    load_ev *ev = ab_alloc_array(2 * p->n + 1, sizeof *ev);
    if (ev == NULL) return 0;
    for (size_t i = 0; i < p->n; i++) {
        ev[2 * i] = (load_ev){p->t[i].start, p->t[i].size};
        ev[2 * i + 1] = (load_ev){p->t[i].end + 1, -p->t[i].size};
        if (p->t[i].offset != AB_NONE && !ab_add_ovf(p->t[i].offset, p->t[i].size, &end) &&
            end > best)
            best = end;
    }
    qsort(ev, 2 * p->n, sizeof *ev, by_event);
    for (size_t e = 0; e < 2 * p->n; e++) {
        if (ab_add_ovf(live, ev[e].delta, &live)) break;
        if (live > best) best = live;
    }
    ab_free(ev);
    return best;
}

/* A capacity every plan fits under: the fixed tensors' highest end, then each
 * other tensor stacked with room for its alignment (INT64_MAX on overflow). */
static int64_t stacked_capacity(const ab_problem *p) {
    int64_t top = 0, sum = 0;
    for (size_t i = 0; i < p->n; i++) {
        const ab_tensor *t = &p->t[i];
        if (t->offset != AB_NONE) {
            if (t->offset + t->size > top) top = t->offset + t->size;
        } else if (ab_add_ovf(sum, t->size, &sum) || ab_add_ovf(sum, t->align - 1, &sum)) {
            return INT64_MAX;
        }
    }
    return ab_add_ovf(sum, top, &sum) ? INT64_MAX : (sum > 0 ? sum : 1);
}

/* ---- the planner ---------------------------------------------------------------- */

/* Checks the template: {input} and {output} must be in it. */
static ab_status check_cmd(const char *cmd, ab_error *err) {
    if (cmd == NULL || cmd[0] == '\0')
        return ab_fail(err, AB_EINPUT,
                       "planner external needs a command: external:cmd='prog --input={input} "
                       "--output={output} --capacity={capacity}'");
    if (strstr(cmd, "{input}") == NULL || strstr(cmd, "{output}") == NULL)
        return ab_fail(err, AB_EINPUT,
                       "parameter cmd: the command must name {input} and {output} (and may "
                       "name {capacity}), got '%.200s'",
                       cmd);
    return AB_OK;
}

/* Reads the parameters (resolved against external_params): cmd (required:
 * check_cmd says so when absent), capacity (suite|bisect), probe_time (0:
 * none). */
static ab_status ext_params(const ab_params *opt, ext *x, bool *bisect, ab_error *err) {
    x->cmd = ab_param_has(opt, "cmd") ? ab_param_text(opt, "cmd") : NULL;
    ab_status st = check_cmd(x->cmd, err);
    if (st != AB_OK) return st;
    *bisect = ab_param_choice(opt, "capacity") == 1;
    x->probe_time = ab_param_has(opt, "probe_time") ? ab_param_seconds(opt, "probe_time") : 0;
    return AB_OK;
}

/* The search for the smallest capacity solved; the first run is at hi. */
static ab_status search(ext *x, int64_t lo, int64_t hi, bool bisect, ab_plan_stats *stats,
                        ab_error *err) {
    char why[AB_ERROR_MAX - 200];
    run_end how;
    ab_status st = run_at(x, hi, &how, why, sizeof why, err);
    if (st != AB_OK) return st;
    if (how == RUN_TIMEOUT)
        return ab_fail(err, AB_ELIMIT, "external: '%.100s' %s", x->cmd, why);
    if (how == RUN_UNSOLVED)
        return ab_fail(err, AB_ECHECK, "external: '%.100s' %s", x->cmd, why);
    int64_t a = lo, b = x->best_arena - 1;
    while (bisect && a <= b) {
        int64_t mid = a + (b - a) / 2;
        st = run_at(x, mid, &how, why, sizeof why, err);
        if (st != AB_OK) return st;
        if (how == RUN_SOLVED) b = (x->best_arena < mid ? x->best_arena : mid) - 1;
        else a = mid + 1; /* unsolved, or unknown: search higher, prove nothing */
    }
    if (bisect)
        snprintf(stats->note, sizeof stats->note,
                 "bisect: best arena %lld; %d runs: %d solved, %d unsolved (largest %lld), %d "
                 "timed out",
                 (long long)x->best_arena, x->runs, x->solved, x->unsolved,
                 (long long)(x->refused == AB_NONE ? 0 : x->refused), x->timed_out);
    else
        snprintf(stats->note, sizeof stats->note, "one run at capacity %lld", (long long)hi);
    return AB_OK;
}

/* Makes the temporary folder and the two file names. */
static ab_status make_dir(ext *x, ab_error *err) {
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0') base = "/tmp";
    snprintf(x->dir, sizeof x->dir, "%s/arenabench-external.XXXXXX", base);
    if (mkdtemp(x->dir) == NULL)
        return ab_fail(err, AB_EINTERNAL, "external: cannot make a folder in %s: %s", base,
                       strerror(errno));
    snprintf(x->in, sizeof x->in, "%s/input.csv", x->dir);
    snprintf(x->out, sizeof x->out, "%s/output.csv", x->dir);
    return AB_OK;
}

static ab_status external_plan(const ab_problem *p, const ab_params *opt, int64_t *offsets,
                               ab_plan_stats *stats, ab_error *err) {
    ext x;
    memset(&x, 0, sizeof x);
    x.p = p;
    x.best_arena = AB_NONE;
    x.refused = AB_NONE;
    bool bisect = false;
    ab_status st = ext_params(opt, &x, &bisect, err);
    if (st != AB_OK) return st;
    stats->lower_bound = AB_NONE;
    x.got = ab_alloc_array(p->n ? p->n : 1, sizeof *x.got);
    x.best = ab_alloc_array(p->n ? p->n : 1, sizeof *x.best);
    if (x.got == NULL || x.best == NULL) st = ab_fail(err, AB_ENOMEM, "external: out of memory");
    if (st == AB_OK) st = check_names(p, err);
    if (st == AB_OK) st = ab_names_build(p, &x.names, NULL, NULL, err);
    if (st == AB_OK) st = make_dir(&x, err);
    bool made = st == AB_OK;
    if (st == AB_OK) st = write_input(&x, err);
    if (st == AB_OK) {
        int64_t hi = p->capacity != AB_NONE ? p->capacity : stacked_capacity(p);
        st = search(&x, search_floor(p), hi, bisect, stats, err);
    }
    if (st == AB_OK) memcpy(offsets, x.best, p->n * sizeof *offsets);
    if (made) {
        unlink(x.in);
        unlink(x.out);
        rmdir(x.dir);
    }
    ab_names_free(x.names);
    ab_free(x.got);
    ab_free(x.best);
    return st;
}

static const ab_param_desc external_params[] = {
    {"cmd", "a command with {input}, {output} and optionally {capacity}", "none: required",
     "run through /bin/sh -c; reads and writes MiniMalloc CSV (id,lower,upper,size[,offset])",
     AB_PARAM_TEXT, 0, 0, true},
    {"capacity", "suite|bisect", "suite",
     "suite: one run at the suite's capacity; bisect: search the smallest capacity it solves",
     AB_PARAM_CHOICE, 0, 0, false},
    {"probe_time", "seconds > 0", "none", "time allowed to each run; a run killed is unknown",
     AB_PARAM_SECONDS, 0, 0, true},
    {"name", "a word", "none", "the label reports give this spec (default: built from the spec)",
     AB_PARAM_TEXT, 0, 0, true},
    {0},
};

/* The registry row of `external` (registry.c). */
const ab_planner abe_external = {
    .name = "external",
    .summary = "any planner as a program, through MiniMalloc's CSV files",
    .flags = AB_PLANNER_NEEDS_PARAMS,
    .params = external_params,
    .plan = external_plan,
};

ab_status abe_register_planners(void) {
    ab_status st = ab_planner_register(&abe_external);
    return st == AB_OK ? ab_planner_register(&abe_minizinc) : st;
}
