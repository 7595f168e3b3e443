/*
 * run.c — the pipeline of `arenabench run` (run.h): files -> suites -> jobs
 * -> rows. Exit codes are the CLI's; here every failure is an ab_status with
 * its message, and what the user is told at the end is the summary's.
 * Timeouts, out-of-memory, over-capacity and infeasible results are outcomes,
 * recorded, not failures of the run.
 */
#include "harness/run/run.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/file.h"
#include "harness/engine/evaluate.h"
#include "harness/engine/runner.h"
#include "harness/run/bounds.h"
#include "harness/formats/formats.h"
#include "harness/formats/suite.h"
#include "oracle/bounds.h"
#include "oracle/certify.h"
#include "oracle/check.h"
#include "oracle/ilp.h"
#include "planners/planner.h"
#include "results/store/store.h"


/* ---- suites ------------------------------------------------------------------- */

typedef struct suite_item {
    char *path;
    ab_problem full, view;
    abo_bounds bounds;
    ab_buf text;   /* canonical YAML: its hash identifies the suite */
    int64_t id;    /* in the store */
    char expect_why[256]; /* non-empty when its max-load bound contradicts expect.lower_bound */
} suite_item;

/* A suite file to load; named: given on the command line, not found in a folder. */
typedef struct path_item {
    char *path;
    bool named;
} path_item;

/* A folder already searched, by device and inode (a symlink loop or a second
 * link to it is skipped). */
typedef struct dir_id {
    dev_t dev;
    ino_t ino;
} dir_id;

typedef struct path_list {
    path_item *v;
    size_t n, cap;
    dir_id *seen; /* folders searched so far */
    size_t nseen, capseen;
    const abu_events *ev; /* for the warnings */
} path_list;

/* A file found in a folder that did not load (malformed YAML, a negative size,
 * an overflow, a bad CSV field...). It is recorded like a job that failed: a
 * results row with status error, spec ABU_LOAD_SPEC and the loader's message
 * (path:line:column: what is wrong) in `error`, against a suites row named by
 * the file's path. That suites row's text is bad_text's: a header naming the
 * path, then the file's bytes (so two bad files never share a row, and the
 * same file with the same bytes is the same row in every run, which `compare`
 * matches); its tensor count 0, its figures unknown. */
typedef struct bad_file {
    char *path;
    char msg[AB_ERROR_MAX]; /* the loader's message, starting with path:line:column */
    ab_buf text;            /* the suites row's text (bad_text) */
    int64_t id;             /* the suites row */
} bad_file;

/* Bytes of a bad file kept in its suites row; a longer or binary file is
 * stored as its size and SHA-256 only. */
#define ABU_BAD_TEXT_MAX ((size_t)1 << 20)

static bool has_suffix(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Says line to the user through ev's note callback, when there is one. */
static void note(const abu_events *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const abu_events *ev, const char *fmt, ...) {
    if (ev == NULL || ev->note == NULL) return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ev->note(ev->ctx, line);
}

static ab_status oom_listing(ab_error *err) {
    return ab_fail(err, AB_ENOMEM, "out of memory listing suites");
}

static ab_status path_add(path_list *l, const char *p, bool named, ab_error *err) {
    if (!ab_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v) ||
        (l->v[l->n].path = ab_strdup(p)) == NULL)
        return oom_listing(err);
    l->v[l->n++].named = named;
    return AB_OK;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder d but "." ones, sorted (so a walk is the same on every
 * file system); *names owned by the caller (free each and the array). */
static ab_status dir_names(DIR *d, char ***names, size_t *n, ab_error *err) {
    size_t cap = 0;
    *names = NULL;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (!ab_grow((void **)names, &cap, *n + 1, sizeof **names) ||
            ((*names)[*n] = ab_strdup(e->d_name)) == NULL)
            return oom_listing(err);
        (*n)++;
    }
    if (*n > 1) qsort(*names, *n, sizeof **names, cmp_str);
    return AB_OK;
}

/* Records folder st as searched; *again when it was already (a loop or a
 * second link to it). AB_ENOMEM when out of memory. */
static ab_status dir_seen(path_list *l, const struct stat *st, bool *again, ab_error *err) {
    *again = false;
    for (size_t i = 0; i < l->nseen; i++)
        if (l->seen[i].dev == st->st_dev && l->seen[i].ino == st->st_ino) return *again = true, AB_OK;
    if (!ab_grow((void **)&l->seen, &l->capseen, l->nseen + 1, sizeof *l->seen))
        return oom_listing(err);
    l->seen[l->nseen++] = (dir_id){st->st_dev, st->st_ino};
    return AB_OK;
}

/* What a file that is not a regular file nor a folder is, for a message. */
static const char *file_kind(const struct stat *st) {
    if (S_ISFIFO(st->st_mode)) return "a FIFO";
    if (S_ISCHR(st->st_mode)) return "a character device";
    if (S_ISBLK(st->st_mode)) return "a block device";
    if (S_ISSOCK(st->st_mode)) return "a socket";
    return "a special file";
}

/* Adds path (a file) or every file below it (a folder) whose name has the
 * suffix of a suite format (harness/formats/formats.h: .yaml, .yml, .csv,
 * .tflite). A folder met again (by device and inode: a symlink loop, or two
 * links to one folder) is skipped with a warning, and so is a FIFO, socket
 * or device found in a folder (below); entries are taken in name order, so which link is searched does not depend on the file system. */
static ab_status collect(const char *path, path_list *l, bool explicit, ab_error *err) {
    struct stat st;
    if (stat(path, &st) != 0) return ab_fail(err, AB_EINPUT, "%s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        if (explicit) return path_add(l, path, explicit, err);
        if (!abf_format_suffix_known(path)) return AB_OK;
        /* Found in a folder, named like a suite, but not a regular file (st
         * is stat's, so a symlink to /dev/zero is the device): a FIFO,
         * socket or device is skipped with a warning, not read and not
         * refused. Reading it could wait forever (a FIFO without a writer)
         * or never end (/dev/zero); refusing the run would let one stray
         * special file stop a whole nightly; a suites folder holds files,
         * so it is not a suite the user meant. Named on the command line,
         * it is read as the user asked, within the file-size limit. */
        if (!S_ISREG(st.st_mode)) {
            note(l->ev, "warning: %s: %s, not a regular file; skipped", path, file_kind(&st));
            return AB_OK;
        }
        return path_add(l, path, explicit, err);
    }
    bool again;
    ab_status rc = dir_seen(l, &st, &again, err);
    if (rc != AB_OK) return rc;
    if (again) {
        note(l->ev, "warning: %s: a folder already searched (a symlink loop or a second link to "
             "it); skipped", path);
        return AB_OK;
    }
    DIR *d = opendir(path);
    if (d == NULL) return ab_fail(err, AB_EINPUT, "%s: %s", path, strerror(errno));
    char **names = NULL;
    size_t nn = 0;
    rc = dir_names(d, &names, &nn, err);
    closedir(d);
    for (size_t i = 0; rc == AB_OK && i < nn; i++) {
        size_t n = strlen(path) + strlen(names[i]) + 2;
        char *child = ab_malloc(n);
        if (child == NULL) {
            rc = oom_listing(err);
            break;
        }
        snprintf(child, n, "%s%s%s", path, has_suffix(path, "/") ? "" : "/", names[i]);
        rc = collect(child, l, false, err);
        ab_free(child);
    }
    for (size_t i = 0; i < nn; i++) ab_free(names[i]);
    ab_free(names);
    return rc;
}

static int cmp_path(const void *a, const void *b) {
    return strcmp(((const path_item *)a)->path, ((const path_item *)b)->path);
}

/* Frees what one suite holds and zeroes it. */
static void suites_free_one(suite_item *s) {
    ab_free(s->path);
    ab_problem_free(&s->full);
    ab_problem_free(&s->view);
    ab_buf_free(&s->text);
    memset(s, 0, sizeof *s);
}

static void suites_free(suite_item *s, size_t n) {
    for (size_t i = 0; s && i < n; i++) suites_free_one(&s[i]);
    ab_free(s);
}

/* Loads one suite, under the run's profile (--profile, --align) when one was
 * asked, with its view, bounds and canonical text into *s (zeroed by the
 * caller; freed by suites_free whatever the outcome). AB_EINPUT with
 * err naming the file, line and column when the file is bad. */
static ab_status suite_load(suite_item *s, const char *path, const abf_profile_choice *prof,
                            const abf_load_options *load, ab_error *err) {
    ab_error_clear(err);
    ab_problem_init(&s->full);
    ab_problem_init(&s->view);
    s->path = ab_strdup(path);
    if (s->path == NULL) return ab_fail(err, AB_ENOMEM, "out of memory loading %s", path);
    ab_status st = abf_load_problem(path, load, &s->full, err);
    if (st == AB_OK && prof->profile != NULL) st = abf_profile_apply(prof, &s->full, NULL, err);
    if (st == AB_OK) st = ab_problem_arena_view(&s->full, &s->view, NULL, err);
    if (st == AB_OK) st = abo_bounds_compute(&s->full, &s->bounds, err);
    if (st == AB_OK) st = abf_suite_render(&s->full, &s->text, err);
    abo_expect ex = {.optimum = s->full.expect_optimum, .lower_bound = s->full.expect_lower_bound};
    s->expect_why[0] = '\0';
    if (st == AB_OK)
        abo_expect_agrees(&ex, s->bounds.max_load, AB_NONE, false, ABO_PROOF_NONE, AB_NONE,
                          s->expect_why, sizeof s->expect_why);
    return st;
}

/* ---- files that did not load ---------------------------------------------------- */

static void bad_free(bad_file *b, size_t n) {
    for (size_t i = 0; b && i < n; i++) {
        ab_free(b[i].path);
        ab_buf_free(&b[i].text);
    }
    ab_free(b);
}

/* The suites row's text for a bad file at path: a line naming the path, then
 * its bytes when it can be read, holds no NUL byte and has at most
 * ABU_BAD_TEXT_MAX of them, else a line with its size and SHA-256. The
 * loader's message is left out, so that the text (and its hash) depends on
 * the file only. */
static void bad_text(ab_buf *t, const char *path) {
    ab_buf_printf(t, "# arenabench: this file did not load: %s\n", path);
    char *bytes = NULL;
    size_t len = 0;
    if (abf_read_input(path, &bytes, &len, NULL) != AB_OK) {
        ab_buf_printf(t, "# (it could not be read)\n");
        return;
    }
    if (len <= ABU_BAD_TEXT_MAX && memchr(bytes, '\0', len) == NULL) {
        ab_buf_append(t, bytes, len);
    } else {
        char hex[ABS_SHA256_HEX];
        abs_sha256_hex(bytes, len, hex);
        ab_buf_printf(t, "# (%zu bytes, binary or too long to keep, SHA-256 %s)\n", len, hex);
    }
    ab_free(bytes);
}

static ab_status oom(ab_error *err) { return ab_fail(err, AB_ENOMEM, "out of memory in run"); }

/* Adds path, which did not load (why), to the bad files. */
static ab_status bad_add(bad_file **v, size_t *n, const char *path, const ab_error *why,
                         ab_error *err) {
    bad_file *grown = ab_realloc(*v, (*n + 1) * sizeof **v);
    if (grown == NULL) return oom(err);
    *v = grown;
    bad_file *b = &grown[*n];
    memset(b, 0, sizeof *b);
    snprintf(b->msg, sizeof b->msg, "%s", why->msg);
    b->path = ab_strdup(path);
    (*n)++;
    if (b->path == NULL) return oom(err);
    bad_text(&b->text, path);
    return b->text.oom ? oom(err) : AB_OK;
}

/* Makes suite s a variant with io set to io, named "<name>@io=<word>":
 * its view, bounds and canonical text are computed again. */
static ab_status suite_io_variant(suite_item *s, ab_io io, ab_error *err) {
    if (s->full.io != io) { /* expect: speaks of the suite as declared */
        s->full.expect_optimum = s->full.expect_lower_bound = AB_NONE;
        s->expect_why[0] = '\0';
    }
    s->full.io = io;
    size_t len = strlen(s->full.name) + 16;
    char *name = ab_malloc(len);
    if (name == NULL) return oom(err);
    snprintf(name, len, "%s@io=%s", s->full.name, io == AB_IO_WORKSPACE ? "workspace" : "separate");
    ab_free(s->full.name);
    s->full.name = name;
    ab_problem_free(&s->view);
    ab_buf_free(&s->text);
    ab_status st = ab_problem_arena_view(&s->full, &s->view, NULL, err);
    if (st == AB_OK) st = abo_bounds_compute(&s->full, &s->bounds, err);
    if (st == AB_OK) st = abf_suite_render(&s->full, &s->text, err);
    return st;
}

/* --io both: every suite twice, separate then workspace. */
static ab_status suites_io_both(suite_item **s, size_t *n, ab_error *err) {
    suite_item *two = ab_calloc(2 * *n + 1, sizeof *two);
    if (two == NULL) return oom(err);
    ab_status rc = AB_OK;
    for (size_t i = 0; i < *n; i++) {
        two[2 * i] = (*s)[i];
        suite_item *c = &two[2 * i + 1];
        ab_problem_init(&c->full);
        ab_problem_init(&c->view);
        c->path = ab_strdup((*s)[i].path);
        if (rc == AB_OK && (c->path == NULL || ab_problem_clone(&(*s)[i].full, &c->full, err) != AB_OK))
            rc = oom(err);
    }
    for (size_t i = 0; rc == AB_OK && i < *n; i++) {
        rc = suite_io_variant(&two[2 * i], AB_IO_SEPARATE, err);
        if (rc == AB_OK) rc = suite_io_variant(&two[2 * i + 1], AB_IO_WORKSPACE, err);
    }
    ab_free(*s);
    *s = two;
    *n *= 2;
    return rc;
}

/* Every suite named by the operands, sorted by path, each once. A file found
 * in a folder that does not load goes to *bad (sorted by path too); a file
 * named on the command line that does not load ends the command (exit 2). */
static ab_status suites_load(const abu_args *a, const abu_events *ev, suite_item **out,
                             size_t *n, bad_file **bad, size_t *nbad, ab_error *err) {
    path_list l = {.ev = ev};
    ab_status rc = AB_OK;
    for (int i = 0; rc == AB_OK && i < a->npaths; i++) rc = collect(a->paths[i], &l, true, err);
    if (rc == AB_OK && l.n == 0) {
        ab_buf known = {0};
        abf_format_list(&known);
        rc = ab_fail(err, AB_EINPUT, "no suite files found in the paths given (formats: %s)",
                     known.s ? known.s : "");
        ab_buf_free(&known);
    }
    if (l.n > 0) qsort(l.v, l.n, sizeof *l.v, cmp_path);
    size_t k = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (k > 0 && strcmp(l.v[k - 1].path, l.v[i].path) == 0) {
            l.v[k - 1].named |= l.v[i].named;
            ab_free(l.v[i].path);
        } else {
            l.v[k++] = l.v[i];
        }
    }
    suite_item *s = rc == AB_OK ? ab_calloc(k + 1, sizeof *s) : NULL;
    if (rc == AB_OK && s == NULL) rc = oom(err);
    size_t loaded = 0;
    for (size_t i = 0; rc == AB_OK && i < k; i++) {
        ab_error why;
        ab_status st = suite_load(&s[loaded], l.v[i].path, &a->profile, a->load, &why);
        if (st == AB_OK) {
            loaded++;
            continue;
        }
        suites_free_one(&s[loaded]);
        if (st == AB_EINPUT && !l.v[i].named) rc = bad_add(bad, nbad, l.v[i].path, &why, err);
        else {
            *err = why;
            rc = why.status;
        }
    }
    for (size_t i = 0; i < k; i++) ab_free(l.v[i].path);
    ab_free(l.v);
    ab_free(l.seen);
    k = loaded;
    if (rc == AB_OK && a->io != NULL && strcmp(a->io, "both") == 0) {
        rc = suites_io_both(&s, &k, err);
    } else if (rc == AB_OK && a->io != NULL) {
        ab_io io = strcmp(a->io, "workspace") == 0 ? AB_IO_WORKSPACE : AB_IO_SEPARATE;
        for (size_t i = 0; rc == AB_OK && i < k; i++)
            if (s[i].full.io != io) rc = suite_io_variant(&s[i], io, err);
    }
    if (rc != AB_OK) {
        suites_free(s, k);
        return rc;
    }
    *out = s;
    *n = k;
    return AB_OK;
}

/* ---- specs -------------------------------------------------------------------- */

typedef struct spec_item {
    const char *spec;
    const ab_planner *pl;
    ab_params params;
    int64_t k;
} spec_item;

static void specs_free(spec_item *s, int n) {
    for (int i = 0; s && i < n; i++) ab_params_free(&s[i].params);
    ab_free(s);
}

static ab_status specs_resolve(const abu_args *a, spec_item **out, int *n, char names[][64],
                               char *ilp_spec, size_t ilp_cap, ab_error *err) {
    const char *list[ABU_MAX_SPECS];
    int count = 0;
    const char *set = a->planner_set;
    if (set != NULL || a->nspecs == 0) {
        count = ab_planner_set_specs(set ? set : "default", names, ABU_MAX_SPECS);
        if (count < 0)
            return ab_fail(err, AB_EINPUT, "--planners takes default or all, not '%s'", set);
        for (int i = 0; i < count; i++) list[i] = names[i];
    }
    for (int i = 0; i < a->nspecs && count < ABU_MAX_SPECS; i++) list[count++] = a->specs[i];
    if (a->ilp && count < ABU_MAX_SPECS) {
        if (a->ilp_nodes > 0)
            snprintf(ilp_spec, ilp_cap, "ilp:nodes=%lld,time=%g", (long long)a->ilp_nodes,
                     a->ilp_time);
        else
            snprintf(ilp_spec, ilp_cap, "ilp:time=%g", a->ilp_time);
        list[count++] = ilp_spec;
    }
    spec_item *s = ab_calloc((size_t)count + 1, sizeof *s);
    if (s == NULL) return oom(err);
    for (int i = 0; i < count; i++) {
        s[i].spec = list[i];
        if (ab_planner_resolve(list[i], &s[i].pl, &s[i].params, err) != AB_OK ||
            ab_params_k(&s[i].params, &s[i].k, err) != AB_OK) {
            specs_free(s, i + 1);
            return err->status;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(list[j], list[i]) == 0) {
                specs_free(s, i + 1);
                return ab_fail(err, AB_EINPUT, "planner spec '%s' given twice", list[i]);
            }
    }
    *out = s;
    *n = count;
    return AB_OK;
}

/* ---- the run -------------------------------------------------------------------- */

typedef struct job_ref {
    size_t suite;
    int spec;
} job_ref;

/* A job stopped by the wall-clock limit, and what its first run took. */
typedef struct rerun_item {
    size_t index; /* in run_ctx.refs */
    double cpu_s, wall_s;
} rerun_item;

typedef struct run_ctx {
    const abu_args *a;
    const abu_events *ev;
    abu_summary *sum;
    abs_store *db;
    suite_item *suites;
    size_t nsuites;
    spec_item *specs;
    int nspecs;
    job_ref *refs;       /* the jobs to run now, in job order */
    abo_agree agree;     /* proofs and capacities across rows (oracle/certify.h) */
    bad_file *bad;       /* files found in folders that did not load, by path */
    size_t nbad;
    rerun_item *rerun;   /* jobs the wall-clock limit stopped with CPU to spare
                            (abu_args.rerun_wall_capped), to run again alone */
    size_t nrerun, rerun_cap;
    bool rerunning;      /* on_done sees the reruns: indexes into rerun[] */
} run_ctx;

/* Stores bound b of suite s (its own when source is NULL). */
static ab_status put_bound(run_ctx *c, const suite_item *s, const abo_bound *b,
                           const char *source, double cpu_s, ab_error *err) {
    abs_bound row = {.run = c->sum->run, .suite = s->id, .source = source, .b = *b,
                     .cpu_s = cpu_s};
    return abs_bound_put(c->db, &row, err);
}

/* The row of a job: the engine's (measurements and judgement) with its identity. */
static void row_of(const run_ctx *c, const job_ref *ref, const abe_job_result *r,
                   const abe_outcome *o, abo_row *row) {
    abe_row(r, o, row);
    row->run = c->sum->run;
    row->suite = c->suites[ref->suite].id;
    row->spec = c->specs[ref->spec].spec;
    row->k = c->specs[ref->spec].k;
}

/* The share of the wall-clock limit below which a stopped job's CPU time
 * says the machine, not the job's work, took the time. */
#define RERUN_CPU_SHARE 0.9

/* Whether result r was stopped by the runner's wall-clock limit (its
 * message: harness/engine/runner.c, classify) with CPU time to spare. */
static bool wall_capped(const abe_job_result *r, double time_limit) {
    static const char prefix[] = "exceeded the time limit of ";
    return r->finished && r->status == ABE_TIMEOUT && r->capped == ABE_CAPPED_TIME &&
           strncmp(r->message, prefix, sizeof prefix - 1) == 0 && r->cpu_seconds >= 0 &&
           r->cpu_seconds < RERUN_CPU_SHARE * time_limit;
}

/* Keeps job index, stopped by the wall-clock limit, for a run alone. */
static ab_status defer(run_ctx *c, size_t index, const abe_job_result *r, ab_error *err) {
    size_t cap = c->rerun_cap;
    if (!ab_grow((void **)&c->rerun, &cap, c->nrerun + 1, sizeof *c->rerun)) return oom(err);
    c->rerun_cap = cap;
    c->rerun[c->nrerun++] = (rerun_item){index, r->cpu_seconds, r->wall_seconds};
    const job_ref *ref = &c->refs[index];
    note(c->ev, "%s %s: stopped by the time limit after %.1f s of CPU in %.1f s: run again "
                "alone after the others",
         c->suites[ref->suite].full.name, c->specs[ref->spec].spec, r->cpu_seconds,
         r->wall_seconds);
    return AB_OK;
}

/* The runner's callback: judge (the engine's pipeline), store (committed
 * now), count, ask the oracle whether the rows agree, tell the caller. A job
 * the wall-clock limit stopped with CPU to spare is kept for a run alone
 * instead (--rerun-wall-capped), and its second row is the one stored. */
static ab_status on_done(void *vctx, size_t index, abe_job_result *r, ab_error *err) {
    run_ctx *c = vctx;
    abu_summary *sum = c->sum;
    const rerun_item *again = NULL;
    if (c->rerunning) {
        again = &c->rerun[index];
        index = again->index;
    } else if (c->a->rerun_wall_capped && wall_capped(r, c->a->time_limit)) {
        return defer(c, index, r, err);
    }
    const job_ref *ref = &c->refs[index];
    const suite_item *s = &c->suites[ref->suite];
    const spec_item *sp = &c->specs[ref->spec];
    abe_outcome o;
    ab_status st = abe_judge(&s->view, s->bounds.max_load, r, &o, err);
    if (st != AB_OK) return st;
    abo_row row;
    row_of(c, ref, r, &o, &row);
    char said[sizeof r->stats.note + 200];
    if (again != NULL) {
        snprintf(said, sizeof said,
                 "run again alone: the first run was stopped by the time limit after %.1f s of "
                 "CPU in %.1f s%s%s",
                 again->cpu_s, again->wall_s, row.note && row.note[0] ? "; " : "",
                 row.note ? row.note : "");
        row.note = said;
    }
    abo_bound b; /* before the row: a resumed run that redoes the job finds it stored */
    if (o.checked && abu_bound_of_row(sp->spec, r->stats.method, r->stats.lower_bound,
                                      s->bounds.max_load, r->stats.nodes, &b) &&
        (st = put_bound(c, s, &b, sp->spec, -1, err)) != AB_OK)
        return st;
    st = abs_result_put(c->db, &row, err);
    if (st != AB_OK) return st;
    sum->counts[row.status]++;
    sum->conflicts += abo_agree_row(&c->agree, ref->suite, s->full.name,
                                    ab_problem_capacity(&s->view), sp->spec, row.status, row.arena,
                                    row.proven_by, &sum->failures);
    bool failed = row.status == ABO_STATUS_INVALID || row.status == ABO_STATUS_CRASH ||
                  row.status == ABO_STATUS_ERROR;
    abo_expect ex = {.optimum = s->full.expect_optimum, .lower_bound = AB_NONE};
    char why[256];
    if (o.checked && !abo_expect_agrees(&ex, s->bounds.max_load, row.arena,
                                        abo_verdict_packs(o.check.verdict), o.proof,
                                        o.lower_bound, why, sizeof why)) {
        sum->below_optimum++;
        failed = true;
        ab_buf_printf(&sum->failures, "  %s %s: %s\n", s->full.name, sp->spec, why);
    } else if (row.status != ABO_STATUS_OK) {
        const char *what = o.message ? o.message : "";
        size_t len = strcspn(what, "\n");
        ab_buf_printf(&sum->failures, "  %s %s: %s: %.*s\n", s->full.name, sp->spec,
                      abo_status_word(row.status), (int)len, what);
    }
    if (c->ev && c->ev->job) {
        abu_job_done d = {.suite = s->full.name, .spec = sp->spec, .status = row.status,
                          .arena = row.status == ABO_STATUS_OK ? row.arena : -1,
                          .wall_seconds = r->wall_seconds, .failed = failed};
        c->ev->job(c->ev->ctx, &d);
    }
    return AB_OK;
}

/* The git revision of the current directory, or "unknown". */
static void git_revision(char *out, size_t len) {
    snprintf(out, len, "unknown");
    FILE *p = popen("git rev-parse --short=12 HEAD 2>/dev/null", "r");
    if (p == NULL) return;
    char line[64];
    if (fgets(line, sizeof line, p) != NULL && line[0] != '\0') {
        line[strcspn(line, "\n")] = '\0';
        snprintf(out, len, "%s", line);
    }
    pclose(p);
}

ab_status abu_fill_views(abs_store *db, size_t *filled, ab_error *err) {
    int64_t *ids = NULL;
    size_t n = 0, done = 0;
    ab_status st = abs_suites_without_view(db, &ids, &n, err);
    for (size_t i = 0; i < n && st == AB_OK; i++) {
        char *text = NULL;
        size_t len = 0;
        ab_problem full, view;
        ab_problem_init(&full);
        ab_problem_init(&view);
        ab_error e;
        ab_error_clear(&e);
        st = abs_suite_text(db, ids[i], &text, &len, err);
        ab_status ld = st == AB_OK ? abf_suite_load_buffer(NULL, text, len, &full, &e) : st;
        if (ld == AB_OK) ld = ab_problem_arena_view(&full, &view, NULL, &e);
        if (ld == AB_OK) {
            st = abs_suite_put_view(db, ids[i], &view, err);
            done += st == AB_OK;
        } else if (ld == AB_ENOMEM) {
            st = ab_fail(err, AB_ENOMEM, "%s", e.msg);
        }
        ab_free(text);
        ab_problem_free(&full);
        ab_problem_free(&view);
    }
    ab_free(ids);
    if (filled != NULL) *filled = done;
    return st;
}

/* abs_check_db's callback when only the count matters. */
static void count_problem(void *ctx, const char *line) {
    (void)ctx, (void)line;
}

/* Opens the store and begins (or resumes) the run. */
static ab_status open_run(run_ctx *c, ab_error *err) {
    const abu_args *a = c->a;
    /* A run to resume is in a database that exists: resuming never creates one. */
    unsigned flags = a->resume != NULL ? 0u : ABS_OPEN_CREATE;
    ab_status st = abs_open(a->db, flags, &c->db, err);
    if (st == AB_OK) st = abu_fill_views(c->db, NULL, err);
    if (st != AB_OK) return st;
    int64_t *run = &c->sum->run;
    if (a->resume != NULL) { /* a file that fails its own checks is not resumed into */
        size_t problems = 0;
        st = abs_check_db(c->db, count_problem, NULL, &problems, err);
        if (st != AB_OK) return st;
        if (problems > 0)
            return ab_fail(err, AB_EINPUT, "%s: the database fails %zu of its own checks "
                           "(`arenabench check-db --db %s` lists them): not resumed", a->db,
                           problems, a->db);
        if (strcmp(a->resume, "latest") == 0) {
            if ((st = abs_run_latest(c->db, a->tag, run, err)) != AB_OK) return st;
        } else if (!ab_parse_int64(a->resume, strlen(a->resume), run) || *run <= 0) {
            return ab_fail(err, AB_EINPUT, "--resume takes a run id or 'latest', not '%s'",
                           a->resume);
        }
        abs_run info;
        if (*run == 0 || abs_run_get(c->db, *run, &info, err) != AB_OK)
            return ab_fail(err, AB_EINPUT, "%s: no run %s to resume%s%s", a->db, a->resume,
                           a->tag ? " with tag " : "", a->tag ? a->tag : "");
        abs_run_free(&info);
        return AB_OK;
    }
    char rev[64], host[256];
    if (a->revision) snprintf(rev, sizeof rev, "%s", a->revision);
    else git_revision(rev, sizeof rev);
    if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    abs_run info = {.key = a->run_key, .tag = a->tag, .revision = rev, .host = host,
                    .command = a->command};
    return abs_run_begin(c->db, &info, run, err);
}

/* The suites row of a suite. */
static void suite_row(const suite_item *s, abs_suite *su) {
    abs_suite_init(su);
    su->name = s->full.name;
    su->text = s->text.s;
    su->text_len = s->text.n;
    su->source = s->path;
    su->tensors = (int64_t)s->full.n;
    su->lower_bound = s->bounds.max_load;
    su->optimum = s->full.expect_optimum;
    su->logical_bytes = s->bounds.logical_bytes;
    su->physical_bytes = s->bounds.physical_bytes;
    su->peak_live_bytes = s->bounds.max_load;
    su->io_bytes = s->bounds.io_outside;
    su->capacity = ab_problem_capacity(&s->full);
    su->pools = (int64_t)s->full.npools;
    su->capacity_known = true;
    su->view = &s->view;
}

/* The suite's own bounds: max-load, and the subset bound when asked (once per
 * run: a resumed run keeps the one it has). */
static ab_status suite_bounds(run_ctx *c, const suite_item *s, const abs_bounds *have,
                              ab_error *err) {
    abo_bound b;
    ab_status st = abo_bound_max_load(&s->view, &b, err);
    if (st == AB_OK) st = put_bound(c, s, &b, NULL, -1, err);
    if (st != AB_OK || c->a->subset_bound == NULL) return st;
    for (size_t i = 0; i < have->n; i++)
        if (have->v[i].suite == s->id && have->v[i].b.kind == ABO_BOUND_SUBSET) return AB_OK;
    abo_subset_opts o;
    st = abu_subset_opts_parse(c->a->subset_bound, &o, err);
    clock_t t0 = clock();
    if (st == AB_OK) st = abo_bound_subset(&s->view, &o, &b, err);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    if (st == AB_OK) st = put_bound(c, s, &b, c->a->subset_bound, cpu, err);
    else if (st != AB_ENOMEM) { /* GLPK failed on this suite: said, not fatal */
        note(c->ev, "note: no subset bound for %s: %s", s->full.name, err->msg);
        ab_error_clear(err);
        st = AB_OK;
    }
    return st;
}

/* Stores the suites (by content hash) and lists the jobs still to run. */
static ab_status plan_jobs(run_ctx *c, ab_error *err) {
    const abu_args *a = c->a;
    size_t ilp_skipped = 0;
    abs_pairs done;
    abs_bounds have = {0};
    ab_status st = abs_pairs_read(c->db, c->sum->run, &done, err);
    if (st != AB_OK) return st;
    if ((st = abs_bounds_read(c->db, c->sum->run, &have, err)) != AB_OK) {
        abs_pairs_free(&done);
        return st;
    }
    c->refs = ab_alloc_array(c->nsuites * (size_t)c->nspecs + 1, sizeof *c->refs);
    if (c->refs == NULL) {
        abs_pairs_free(&done);
        abs_bounds_free(&have);
        return oom(err);
    }
    if (c->a->subset_bound != NULL)
        note(c->ev, "note: computing the subset bound (%s) of the suites first",
             c->a->subset_bound);
    size_t index = 0, n = 0;
    for (size_t i = 0; i < c->nsuites; i++) {
        suite_item *s = &c->suites[i];
        abs_suite su;
        suite_row(s, &su);
        bool mine = false;
        for (int j = 0; j < c->nspecs; j++)
            mine |= (index + (size_t)j) % (size_t)a->shard_n == (size_t)(a->shard_i - 1);
        if (mine && (st = abs_suite_put(c->db, &su, &s->id, err)) == AB_OK)
            st = suite_bounds(c, s, &have, err);
        if (st != AB_OK) {
            abs_pairs_free(&done);
            abs_bounds_free(&have);
            return st;
        }
        for (int j = 0; j < c->nspecs; j++, index++) {
            if (index % (size_t)a->shard_n != (size_t)(a->shard_i - 1)) continue;
            if (abs_pairs_has(&done, s->id, c->specs[j].spec)) continue;
            if (a->ilp && strcmp(c->specs[j].pl->name, "ilp") == 0 &&
                s->view.n > (size_t)a->ilp_max_tensors) {
                ilp_skipped++;
                continue;
            }
            c->refs[n++] = (job_ref){i, j};
        }
    }
    abs_pairs_free(&done);
    abs_bounds_free(&have);
    if (ilp_skipped > 0)
        note(c->ev, "note: --ilp left out %zu suite%s of more than %lld arena tensors "
             "(--ilp-max-tensors)", ilp_skipped, ilp_skipped == 1 ? "" : "s",
             (long long)a->ilp_max_tensors);
    c->sum->njobs = n;
    return AB_OK;
}

/* Stores each bad file (a suites row and its error row, each committed on
 * its own) unless this run holds its row already (resumed). The k-th bad
 * file belongs to shard k mod N, so merged shards hold each row once. */
static ab_status record_bad_files(run_ctx *c, ab_error *err) {
    const abu_args *a = c->a;
    abs_pairs done;
    if (c->nbad == 0) return AB_OK;
    ab_status st = abs_pairs_read(c->db, c->sum->run, &done, err);
    if (st != AB_OK) return st;
    for (size_t i = 0; st == AB_OK && i < c->nbad; i++) {
        bad_file *b = &c->bad[i];
        if (i % (size_t)a->shard_n != (size_t)(a->shard_i - 1)) continue;
        abs_suite su;
        abs_suite_init(&su);
        su.name = b->path;
        su.source = b->path;
        su.text = b->text.s ? b->text.s : "";
        su.text_len = b->text.n;
        su.tensors = 0;
        st = abs_suite_put(c->db, &su, &b->id, err);
        if (st != AB_OK || abs_pairs_has(&done, b->id, ABU_LOAD_SPEC)) continue;
        abo_row row;
        abo_row_init(&row);
        row.run = c->sum->run;
        row.suite = b->id;
        row.spec = ABU_LOAD_SPEC;
        row.status = ABO_STATUS_ERROR;
        row.error = b->msg;
        st = abs_result_put(c->db, &row, err);
    }
    abs_pairs_free(&done);
    return st;
}

/* Suites whose max-load bound contradicts their `expect:` fail the run before any job. */
static void expect_of_suites(run_ctx *c) {
    for (size_t i = 0; i < c->nsuites; i++) {
        if (c->suites[i].expect_why[0] == '\0') continue;
        c->sum->below_optimum++;
        ab_buf_printf(&c->sum->failures, "  %s: %s\n", c->suites[i].full.name,
                      c->suites[i].expect_why);
    }
}

static int cmp_rerun(const void *a, const void *b) {
    size_t x = ((const rerun_item *)a)->index, y = ((const rerun_item *)b)->index;
    return (x > y) - (x < y);
}

static ab_status run_jobs(run_ctx *c, ab_error *err) {
    const abu_args *a = c->a;
    size_t njobs = c->sum->njobs;
    abe_job *jobs = ab_alloc_array(njobs + 1, sizeof *jobs);
    if (jobs == NULL) return oom(err);
    for (size_t i = 0; i < njobs; i++)
        jobs[i] = (abe_job){.view = &c->suites[c->refs[i].suite].view,
                            .planner = c->specs[c->refs[i].spec].pl,
                            .params = &c->specs[c->refs[i].spec].params};
    abe_options opt = {.jobs = a->jobs, .time_limit = a->time_limit, .cpu_limit = a->cpu_limit,
                       .mem_limit = a->mem_limit, .stop = a->stop,
                       .repeat_min = (int)a->repeat_min, .repeat_time = a->repeat_time,
                       .repeat_below = a->repeat_below};
    expect_of_suites(c);
    c->sum->ran = true;
    if (c->ev && c->ev->start) c->ev->start(c->ev->ctx, njobs);
    ab_status st = abe_run(jobs, njobs, &opt, NULL, on_done, c, err);
    if (st == AB_OK && c->nrerun > 0) { /* one at a time, after the others, in job order */
        qsort(c->rerun, c->nrerun, sizeof *c->rerun, cmp_rerun);
        for (size_t i = 0; i < c->nrerun; i++) jobs[i] = jobs[c->rerun[i].index]; /* index >= i */
        opt.jobs = 1;
        c->rerunning = true;
        st = abe_run(jobs, c->nrerun, &opt, NULL, on_done, c, err);
        c->rerunning = false;
    }
    if (c->ev && c->ev->end) c->ev->end(c->ev->ctx);
    ab_free(jobs);
    ab_error ferr;
    abs_run_status rs = st == AB_OK ? ABS_RUN_DONE
                        : st == AB_ELIMIT ? ABS_RUN_INTERRUPTED : ABS_RUN_FAILED;
    if (abs_run_finish(c->db, c->sum->run, rs, &ferr) != AB_OK && st == AB_OK) {
        *err = ferr;
        return ferr.status;
    }
    c->sum->interrupted = st == AB_ELIMIT;
    return st;
}

/* Whether suite s has a budget a plan can miss: a capacity, or a bounded pool. */
static bool has_budget(const suite_item *s) {
    if (ab_problem_capacity(&s->view) != AB_NONE) return true;
    for (size_t k = 0; k < s->view.npools; k++)
        if (s->view.pools[k].size != AB_NONE) return true;
    return false;
}

/* The capacity gate, over every row of the run (a resumed run's earlier rows
 * too): a suite with a budget that no row fits (status ok) fails it, with a
 * line saying the best plan's excess and whether no plan can fit. A shard
 * sees part of the run's rows, so the gate is left to the merged run. */
static ab_status capacity_gate(run_ctx *c, ab_error *err) {
    if (c->a->shard_n > 1 || c->sum->interrupted) return AB_OK;
    abs_rows rows;
    ab_status st = abs_rows_read(c->db, c->sum->run, &rows, err);
    for (size_t si = 0; st == AB_OK && si < c->nsuites; si++) {
        const suite_item *s = &c->suites[si];
        if (s->id == 0 || !has_budget(s)) continue;
        bool seen = false, fits = false;
        int64_t best = AB_NONE;
        const char *refuted = NULL, *best_by = NULL;
        for (size_t i = 0; i < rows.n; i++) {
            const abo_row *r = &rows.v[i].r;
            if (rows.v[i].suite.id != s->id) continue;
            seen = true;
            fits |= r->status == ABO_STATUS_OK;
            if (r->status == ABO_STATUS_INFEASIBLE && refuted == NULL) refuted = r->spec;
            if ((r->status == ABO_STATUS_OVER_CAPACITY || r->status == ABO_STATUS_INFEASIBLE) &&
                r->arena != AB_NONE && (best == AB_NONE || r->arena < best))
                best = r->arena, best_by = r->spec;
        }
        if (!seen || fits) continue;
        c->sum->over_capacity++;
        int64_t cap = ab_problem_capacity(&s->view);
        ab_buf_printf(&c->sum->failures, "  CAPACITY %s: no planner fits %s", s->full.name,
                      cap != AB_NONE ? "the capacity" : "the pools");
        if (cap != AB_NONE) ab_buf_printf(&c->sum->failures, " %lld", (long long)cap);
        if (best != AB_NONE && cap != AB_NONE && best > cap)
            ab_buf_printf(&c->sum->failures, "; best plan %lld (%s), %lld bytes over",
                          (long long)best, best_by, (long long)(best - cap));
        else if (best == AB_NONE)
            ab_buf_printf(&c->sum->failures, "; no planner made a plan");
        ab_buf_printf(&c->sum->failures, "%s%s\n",
                      refuted ? "; no plan can fit, proven by " : "; not proven infeasible",
                      refuted ? refuted : "");
    }
    abs_rows_free(&rows);
    return st;
}

/* The bad files' messages into the summary. */
static ab_status bad_to_summary(run_ctx *c, ab_error *err) {
    if (c->nbad == 0) return AB_OK;
    c->sum->bad = ab_calloc(c->nbad, sizeof *c->sum->bad);
    if (c->sum->bad == NULL) return oom(err);
    for (size_t i = 0; i < c->nbad; i++) {
        c->sum->bad[i] = ab_strdup(c->bad[i].msg);
        if (c->sum->bad[i] == NULL) return oom(err);
        c->sum->nbad = i + 1;
    }
    return AB_OK;
}

ab_status abu_run(const abu_args *a, const abu_events *ev, abu_summary *out, ab_error *err) {
    memset(out, 0, sizeof *out);
    ab_error_clear(err);
    run_ctx c = {.a = a, .ev = ev, .sum = out};
    size_t nsuites = 0;
    static char names[ABU_MAX_SPECS][64];
    char ilp_spec[64];
    ab_status st = specs_resolve(a, &c.specs, &c.nspecs, names, ilp_spec, sizeof ilp_spec, err);
    if (st == AB_OK) st = suites_load(a, ev, &c.suites, &nsuites, &c.bad, &c.nbad, err);
    c.nsuites = nsuites;
    if (st == AB_OK) st = bad_to_summary(&c, err);
    if (st == AB_OK) st = abo_agree_init(&c.agree, nsuites, err);
    if (st == AB_OK) st = open_run(&c, err);
    if (st == AB_OK) st = plan_jobs(&c, err);
    if (st == AB_OK) st = record_bad_files(&c, err);
    if (st == AB_OK) st = run_jobs(&c, err);
    if (st == AB_OK) st = capacity_gate(&c, err);
    if (st == AB_OK && out->failures.oom) st = oom(err);
    abs_close(c.db);
    abo_agree_free(&c.agree);
    ab_free(c.refs);
    ab_free(c.rerun);
    suites_free(c.suites, nsuites);
    bad_free(c.bad, c.nbad);
    specs_free(c.specs, c.nspecs);
    return st;
}

bool abu_summary_failed(const abu_summary *s) {
    return s->counts[ABO_STATUS_INVALID] || s->counts[ABO_STATUS_CRASH] ||
           s->counts[ABO_STATUS_ERROR] || s->below_optimum || s->conflicts || s->nbad ||
           s->interrupted || s->over_capacity;
}

void abu_summary_free(abu_summary *s) {
    ab_buf_free(&s->failures);
    for (size_t i = 0; i < s->nbad; i++) ab_free(s->bad[i]);
    ab_free(s->bad);
    memset(s, 0, sizeof *s);
}
