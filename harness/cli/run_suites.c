/*
 * run_suites.c — the body of `arenabench run` (its options: run.c): the
 * product's main job. Every suite is loaded and every spec resolved before the database is
 * touched: a bad spec, or a suite file named on the command line that does not
 * load, exits 2 with nothing written. A file found in a folder that does not
 * load does not stop the run: it becomes an error row (see bad_file below),
 * the other suites run, and the exit status is 1 with every such file listed.
 * Each (suite, spec) job runs in its own child (harness/engine/runner.c);
 * the parent — never the child — checks the plan with the oracle, computes
 * the bounds and commits the row as the job ends, so a kill -9 loses at most
 * the jobs in flight and `--resume` fills in only what is missing.
 *
 * Exit codes: 0 every job ran and no plan was invalid; 1 a plan was invalid,
 * a planner crashed or errored, a file found in a folder did not load, an
 * arena fell below a suite's known optimum, proofs disagreed (two optima, or
 * a suite proved infeasible that another planner packed within its
 * capacity), or the run was interrupted; 2 bad
 * usage or input; 3 internal error. Timeouts, out-of-memory, over-capacity
 * and infeasible results are outcomes, recorded, not failures of the run.
 */
#include "harness/cli/commands.h"
#include "harness/cli/fail.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/file.h"
#include "harness/cli/progress.h"
#include "harness/engine/evaluate.h"
#include "harness/engine/runner.h"
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
} path_list;

/* A file found in a folder that did not load (malformed YAML, a negative size,
 * an overflow, a bad CSV field...). It is recorded like a job that failed: a
 * results row with status error, spec ABH_LOAD_SPEC and the loader's message
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

/* The results rows of files that did not load have this spec (not a planner's). */
#define ABH_LOAD_SPEC "(load)"
/* Bytes of a bad file kept in its suites row; a longer or binary file is
 * stored as its size and SHA-256 only. */
#define ABH_BAD_TEXT_MAX ((size_t)1 << 20)

static bool has_suffix(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int path_add(path_list *l, const char *p, bool named) {
    if (!ab_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v) ||
        (l->v[l->n].path = ab_strdup(p)) == NULL) {
        fprintf(stderr, "arenabench: out of memory listing suites\n");
        return 3;
    }
    l->v[l->n++].named = named;
    return 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder d but "." ones, sorted (so a walk is the same on every
 * file system); *names owned by the caller (free each and the array). */
static int dir_names(DIR *d, char ***names, size_t *n) {
    size_t cap = 0;
    *names = NULL;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (!ab_grow((void **)names, &cap, *n + 1, sizeof **names) ||
            ((*names)[*n] = ab_strdup(e->d_name)) == NULL) {
            fprintf(stderr, "arenabench: out of memory listing suites\n");
            return 3;
        }
        (*n)++;
    }
    if (*n > 1) qsort(*names, *n, sizeof **names, cmp_str);
    return 0;
}

/* Records folder st as searched; 1 when it was already (a loop or a second
 * link to it), 0 when new, 3 when out of memory. */
static int dir_seen(path_list *l, const struct stat *st) {
    for (size_t i = 0; i < l->nseen; i++)
        if (l->seen[i].dev == st->st_dev && l->seen[i].ino == st->st_ino) return 1;
    if (!ab_grow((void **)&l->seen, &l->capseen, l->nseen + 1, sizeof *l->seen)) {
        fprintf(stderr, "arenabench: out of memory listing suites\n");
        return 3;
    }
    l->seen[l->nseen++] = (dir_id){st->st_dev, st->st_ino};
    return 0;
}

/* Adds path (a file) or every file below it (a folder) whose name has the
 * suffix of a suite format (harness/formats/formats.h: .yaml, .yml, .csv,
 * .tflite). A folder met again (by device and inode: a symlink loop, or two
 * links to one folder) is skipped with a warning; entries are taken in name
 * order, so which link is searched does not depend on the file system. */
static int collect(const char *path, path_list *l, bool explicit) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "arenabench: %s: %s\n", path, strerror(errno));
        return 2;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (explicit || abh_format_suffix_known(path))
            return path_add(l, path, explicit);
        return 0;
    }
    int seen = dir_seen(l, &st);
    if (seen == 1)
        fprintf(stderr, "arenabench: warning: %s: a folder already searched (a symlink loop or "
                "a second link to it); skipped\n", path);
    if (seen != 0) return seen == 1 ? 0 : seen;
    DIR *d = opendir(path);
    if (d == NULL) {
        fprintf(stderr, "arenabench: %s: %s\n", path, strerror(errno));
        return 2;
    }
    char **names = NULL;
    size_t nn = 0;
    int rc = dir_names(d, &names, &nn);
    closedir(d);
    for (size_t i = 0; rc == 0 && i < nn; i++) {
        size_t n = strlen(path) + strlen(names[i]) + 2;
        char *child = ab_malloc(n);
        if (child == NULL) {
            rc = 3;
            break;
        }
        snprintf(child, n, "%s%s%s", path, has_suffix(path, "/") ? "" : "/", names[i]);
        rc = collect(child, l, false);
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
static ab_status suite_load(suite_item *s, const char *path, const abh_profile_choice *prof,
                            ab_error *err) {
    ab_error_clear(err);
    ab_problem_init(&s->full);
    ab_problem_init(&s->view);
    s->path = ab_strdup(path);
    if (s->path == NULL) return ab_fail(err, AB_ENOMEM, "out of memory loading %s", path);
    ab_status st = abh_load_problem(path, NULL, &s->full, err);
    if (st == AB_OK && prof->profile != NULL) st = abh_profile_apply(prof, &s->full, NULL, err);
    if (st == AB_OK) st = ab_problem_arena_view(&s->full, &s->view, NULL, err);
    if (st == AB_OK) st = abo_bounds_compute(&s->full, &s->bounds, err);
    if (st == AB_OK) st = abh_suite_render(&s->full, &s->text, err);
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
 * ABH_BAD_TEXT_MAX of them, else a line with its size and SHA-256. The
 * loader's message is left out, so that the text (and its hash) depends on
 * the file only. */
static void bad_text(ab_buf *t, const char *path) {
    ab_buf_printf(t, "# arenabench: this file did not load: %s\n", path);
    char *bytes = NULL;
    size_t len = 0;
    if (ab_read_file(path, &bytes, &len, NULL) != AB_OK) {
        ab_buf_printf(t, "# (it could not be read)\n");
        return;
    }
    if (len <= ABH_BAD_TEXT_MAX && memchr(bytes, '\0', len) == NULL) {
        ab_buf_append(t, bytes, len);
    } else {
        char hex[ABR_SHA256_HEX];
        abr_sha256_hex(bytes, len, hex);
        ab_buf_printf(t, "# (%zu bytes, binary or too long to keep, SHA-256 %s)\n", len, hex);
    }
    ab_free(bytes);
}

/* Adds path, which did not load (err), to the bad files. Returns 0 or 3. */
static int bad_add(bad_file **v, size_t *n, const char *path, const ab_error *err) {
    bad_file *grown = ab_realloc(*v, (*n + 1) * sizeof **v);
    if (grown == NULL) return 3;
    *v = grown;
    bad_file *b = &grown[*n];
    memset(b, 0, sizeof *b);
    snprintf(b->msg, sizeof b->msg, "%s", err->msg);
    b->path = ab_strdup(path);
    (*n)++;
    if (b->path == NULL) return 3;
    bad_text(&b->text, path);
    return b->text.oom ? 3 : 0;
}

/* Makes suite s a variant with io set to io, named "<name>@io=<word>":
 * its view, bounds and canonical text are computed again. */
static int suite_io_variant(suite_item *s, ab_io io) {
    ab_error err;
    ab_error_clear(&err);
    if (s->full.io != io) { /* expect: speaks of the suite as declared */
        s->full.expect_optimum = s->full.expect_lower_bound = AB_NONE;
        s->expect_why[0] = '\0';
    }
    s->full.io = io;
    size_t len = strlen(s->full.name) + 16;
    char *name = ab_malloc(len);
    if (name == NULL) return 3;
    snprintf(name, len, "%s@io=%s", s->full.name, io == AB_IO_WORKSPACE ? "workspace" : "separate");
    ab_free(s->full.name);
    s->full.name = name;
    ab_problem_free(&s->view);
    ab_buf_free(&s->text);
    ab_status st = ab_problem_arena_view(&s->full, &s->view, NULL, &err);
    if (st == AB_OK) st = abo_bounds_compute(&s->full, &s->bounds, &err);
    if (st == AB_OK) st = abh_suite_render(&s->full, &s->text, &err);
    return st == AB_OK ? 0 : abc_fail(&err);
}

/* --io both: every suite twice, separate then workspace. */
static int suites_io_both(suite_item **s, size_t *n) {
    suite_item *two = ab_calloc(2 * *n + 1, sizeof *two);
    if (two == NULL) return 3;
    int rc = 0;
    for (size_t i = 0; i < *n; i++) {
        two[2 * i] = (*s)[i];
        suite_item *c = &two[2 * i + 1];
        ab_problem_init(&c->full);
        ab_problem_init(&c->view);
        c->path = ab_strdup((*s)[i].path);
        ab_error err;
        if (c->path == NULL || ab_problem_clone(&(*s)[i].full, &c->full, &err) != AB_OK) rc = 3;
    }
    for (size_t i = 0; rc == 0 && i < *n; i++) {
        rc = suite_io_variant(&two[2 * i], AB_IO_SEPARATE);
        if (rc == 0) rc = suite_io_variant(&two[2 * i + 1], AB_IO_WORKSPACE);
    }
    ab_free(*s);
    *s = two;
    *n *= 2;
    return rc;
}

/* Every suite named by the operands, sorted by path, each once. A file found
 * in a folder that does not load goes to *bad (sorted by path too); a file
 * named on the command line that does not load ends the command (exit 2). */
static int suites_load(const abh_run_args *a, suite_item **out, size_t *n, bad_file **bad,
                       size_t *nbad) {
    path_list l = {0};
    int rc = 0;
    for (int i = 0; rc == 0 && i < a->npaths; i++) rc = collect(a->paths[i], &l, true);
    if (rc == 0 && l.n == 0) {
        ab_buf known = {0};
        abh_format_list(&known);
        fprintf(stderr, "arenabench: no suite files found in the paths given (formats: %s)\n",
                known.s ? known.s : "");
        ab_buf_free(&known);
        rc = 2;
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
    suite_item *s = rc == 0 ? ab_calloc(k + 1, sizeof *s) : NULL;
    if (rc == 0 && s == NULL) rc = 3;
    size_t loaded = 0;
    for (size_t i = 0; rc == 0 && i < k; i++) {
        ab_error err;
        ab_status st = suite_load(&s[loaded], l.v[i].path, &a->profile, &err);
        if (st == AB_OK) {
            loaded++;
            continue;
        }
        suites_free_one(&s[loaded]);
        if (st == AB_EINPUT && !l.v[i].named) rc = bad_add(bad, nbad, l.v[i].path, &err);
        else rc = abc_fail(&err);
    }
    for (size_t i = 0; i < k; i++) ab_free(l.v[i].path);
    ab_free(l.v);
    ab_free(l.seen);
    k = loaded;
    if (rc != 0) {
        suites_free(s, k);
        return rc;
    }
    if (a->io != NULL && strcmp(a->io, "both") == 0) {
        rc = suites_io_both(&s, &k);
    } else if (a->io != NULL) {
        ab_io io = strcmp(a->io, "workspace") == 0 ? AB_IO_WORKSPACE : AB_IO_SEPARATE;
        for (size_t i = 0; rc == 0 && i < k; i++)
            if (s[i].full.io != io) rc = suite_io_variant(&s[i], io);
    }
    if (rc != 0) {
        suites_free(s, k);
        return rc;
    }
    *out = s;
    *n = k;
    return 0;
}

/* ---- specs -------------------------------------------------------------------- */

typedef struct spec_item {
    const char *spec;
    const ab_planner *pl;
    ab_params params;
    int64_t k;
} spec_item;

/* --planners default: ours in two orders, and the peers' planners users pick
 * between (TFLM's, TVM USMP's greedy ones, TFLite GPU's), all fast (about a
 * second on 100k tensors). usmp-hill-climb is left out: its cost grows with
 * tensors x conflicts (a minute on random-10k in Release), so on the big
 * generated suites it would end ok or at the time limit by the machine's
 * load; --planners all and -p usmp-hill-climb run it. */
static const char *const default_specs[] = {
    "first-fit",           "first-fit:order=size",     "best-fit",
    "best-fit:order=size", "tflm-greedy",              "usmp-greedy-by-size",
    "usmp-greedy-by-conflicts", "tflite-gpu-greedy-by-size"};

/* Fills names with the specs of --planners all: every visible planner with
 * its defaults, and with each other value of an `order` parameter. */
static int all_specs(char names[][64], int max) {
    int n = 0;
    for (size_t i = 0; ab_planner_at(i) != NULL && n < max; i++) {
        const ab_planner *pl = ab_planner_at(i);
        if (pl->flags & AB_PLANNER_ASK_ONLY) continue;
        snprintf(names[n++], 64, "%s", pl->name);
        for (const ab_param_desc *d = pl->params; d && d->key; d++) {
            if (strcmp(d->key, "order") != 0) continue;
            const char *v = d->values;
            while (*v && n < max) {
                size_t len = strcspn(v, "|");
                if (strncmp(v, d->def, len) != 0 || d->def[len] != '\0')
                    snprintf(names[n++], 64, "%s:order=%.*s", pl->name, (int)len, v);
                v += len + (v[len] == '|');
            }
        }
    }
    return n;
}

static void specs_free(spec_item *s, int n) {
    for (int i = 0; s && i < n; i++) ab_params_free(&s[i].params);
    ab_free(s);
}

static int specs_resolve(const abh_run_args *a, spec_item **out, int *n, char names[][64]) {
    const char *list[ABH_MAX_SPECS];
    int count = 0;
    const char *set = a->planner_set;
    if (set != NULL && strcmp(set, "all") == 0) {
        count = all_specs(names, ABH_MAX_SPECS);
        for (int i = 0; i < count; i++) list[i] = names[i];
    } else if (set == NULL || strcmp(set, "default") == 0) {
        if (a->nspecs == 0 || set != NULL)
            for (size_t i = 0; i < sizeof default_specs / sizeof *default_specs; i++)
                list[count++] = default_specs[i];
    } else {
        fprintf(stderr, "arenabench: --planners takes default or all, not '%s'\n", set);
        return 2;
    }
    for (int i = 0; i < a->nspecs && count < ABH_MAX_SPECS; i++) list[count++] = a->specs[i];
    static char ilp_spec[64];
    if (a->ilp && count < ABH_MAX_SPECS) {
        if (a->ilp_nodes > 0)
            snprintf(ilp_spec, sizeof ilp_spec, "ilp:nodes=%lld,time=%g",
                     (long long)a->ilp_nodes, a->ilp_time);
        else
            snprintf(ilp_spec, sizeof ilp_spec, "ilp:time=%g", a->ilp_time);
        list[count++] = ilp_spec;
    }
    spec_item *s = ab_calloc((size_t)count, sizeof *s);
    if (s == NULL) return 3;
    for (int i = 0; i < count; i++) {
        ab_error err;
        ab_error_clear(&err);
        s[i].spec = list[i];
        if (ab_planner_resolve(list[i], &s[i].pl, &s[i].params, &err) != AB_OK ||
            ab_params_k(&s[i].params, &s[i].k, &err) != AB_OK) {
            specs_free(s, i + 1);
            return abc_fail(&err);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(list[j], list[i]) == 0) {
                fprintf(stderr, "arenabench: planner spec '%s' given twice\n", list[i]);
                specs_free(s, i + 1);
                return 2;
            }
    }
    *out = s;
    *n = count;
    return 0;
}

/* ---- the run -------------------------------------------------------------------- */

typedef struct job_ref {
    size_t suite;
    int spec;
} job_ref;

typedef struct run_ctx {
    abr_store *db;
    int64_t run;
    suite_item *suites;
    size_t nsuites;
    spec_item *specs;
    job_ref *refs;       /* the jobs to run now, in job order */
    abh_progress progress;
    size_t counts[ABE_NSTATUSES];
    size_t below_optimum; /* rows and suites that contradict their `expect:` */
    ab_buf failures;     /* one line per failed job, in finish order */
    /* Per suite, for the cross-check of proofs: the optimum some row proved
     * (AB_NONE) and by which spec, and the smallest valid arena and its spec. */
    int64_t *proven, *smallest;
    int *proven_spec, *smallest_spec;
    /* Per suite, for the cross-check of capacities: the first spec that proved
     * no plan fits (infeasible) and the first that packed within the capacity
     * (ok), -1 while none. */
    int *refuted_spec, *fits_spec;
    size_t conflicts;
    bad_file *bad;       /* files found in folders that did not load, by path */
    size_t nbad;
} run_ctx;

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

/* Proofs must agree: every optimum proved on a suite (by the ILP, an exact
 * search or the lower bound) is the same number, and no valid arena is below
 * one. A disagreement means a prover, a planner or the checker is wrong. */
/* Capacities must agree: a suite some row proved infeasible (no plan fits
 * its capacity) cannot be packed within the capacity by another row. */
static void cross_check_capacity(run_ctx *c, const job_ref *ref, const abr_result *row) {
    size_t s = ref->suite;
    bool had_both = c->refuted_spec[s] >= 0 && c->fits_spec[s] >= 0;
    if (row->status == ABE_INFEASIBLE && c->refuted_spec[s] < 0) c->refuted_spec[s] = ref->spec;
    if (row->status == ABE_OK && ab_problem_capacity(&c->suites[s].view) != AB_NONE && c->fits_spec[s] < 0)
        c->fits_spec[s] = ref->spec;
    if (had_both || c->refuted_spec[s] < 0 || c->fits_spec[s] < 0) return;
    c->conflicts++;
    ab_buf_printf(&c->failures, "  DISAGREEMENT on %s: %s proved that no plan fits the capacity "
                  "%lld but %s packed it within the capacity\n", c->suites[s].full.name,
                  c->specs[c->refuted_spec[s]].spec,
                  (long long)ab_problem_capacity(&c->suites[s].view),
                  c->specs[c->fits_spec[s]].spec);
}

static void cross_check(run_ctx *c, const job_ref *ref, const abr_result *row) {
    cross_check_capacity(c, ref, row);
    if (row->status != ABE_OK) return;
    size_t s = ref->suite;
    const char *name = c->suites[s].full.name;
    if (row->proven_by != ABO_PROOF_NONE) {
        if (c->proven[s] == AB_NONE) {
            c->proven[s] = row->arena;
            c->proven_spec[s] = ref->spec;
        } else if (c->proven[s] != row->arena) {
            c->conflicts++;
            ab_buf_printf(&c->failures, "  DISAGREEMENT on %s: %s proved %lld (%s) but %s proved "
                          "%lld\n", name, row->spec, (long long)row->arena,
                          abo_proof_word(row->proven_by), c->specs[c->proven_spec[s]].spec,
                          (long long)c->proven[s]);
        }
    }
    if (c->smallest[s] == AB_NONE || row->arena < c->smallest[s]) {
        c->smallest[s] = row->arena;
        c->smallest_spec[s] = ref->spec;
    }
    if (c->proven[s] != AB_NONE && c->smallest[s] < c->proven[s]) {
        c->conflicts++;
        ab_buf_printf(&c->failures, "  DISAGREEMENT on %s: %s found a valid arena %lld below the "
                      "optimum %lld that %s proved\n", name, c->specs[c->smallest_spec[s]].spec,
                      (long long)c->smallest[s], (long long)c->proven[s],
                      c->specs[c->proven_spec[s]].spec);
        c->smallest[s] = c->proven[s]; /* say it once */
    }
}

/* The runner's callback: judge (the engine's pipeline), store (committed
 * now), count, show progress. */
static ab_status on_done(void *vctx, size_t index, abh_job_result *r, ab_error *err) {
    run_ctx *c = vctx;
    const job_ref *ref = &c->refs[index];
    const suite_item *s = &c->suites[ref->suite];
    const spec_item *sp = &c->specs[ref->spec];
    abe_outcome o;
    ab_status st = abe_judge(&s->view, s->bounds.max_load, r, &o, err);
    if (st != AB_OK) return st;
    abr_result row;
    abr_result_init(&row);
    row.run = c->run;
    row.suite = s->id;
    row.spec = sp->spec;
    row.k = sp->k;
    row.wall_s = r->wall_seconds;
    row.cpu_s = r->cpu_seconds;
    row.peak_rss = r->peak_rss;
    row.repeats = r->repeats;
    row.wall_min_s = r->wall_min;
    row.wall_max_s = r->wall_max;
    row.cpu_min_s = r->cpu_min;
    row.cpu_max_s = r->cpu_max;
    row.plan_cpu_s = r->plan_cpu_seconds;
    row.capped = abh_capped_word(r->capped);
    row.nodes = r->stats.nodes;
    row.signal = r->signal;
    row.note = r->stats.note[0] ? r->stats.note : NULL;
    row.error = r->message[0] ? r->message : NULL;
    row.status = o.status;
    row.lower_bound = o.lower_bound;
    row.proven_by = o.proof;
    row.ilp_status = o.ilp_status;
    row.ilp_objective = o.ilp_objective;
    row.ilp_bound = o.ilp_bound;
    if (o.checked) {
        row.verdict = abo_verdict_word(o.check.verdict);
        row.check_message = o.check.msg[0] ? o.check.msg : NULL;
        if (o.status == ABE_OVER_CAPACITY || o.status == ABE_INFEASIBLE)
            row.check_message = o.message; /* the excess and the certificate, or none */
        row.arena = o.arena;
        row.offsets = r->offsets;
        row.noffsets = r->n;
    }
    st = abr_result_put(c->db, &row, err);
    if (st != AB_OK) return st;
    c->counts[row.status]++;
    cross_check(c, ref, &row);
    bool failed = row.status == ABE_INVALID || row.status == ABE_CRASH ||
                  row.status == ABE_ERROR;
    abo_expect ex = {.optimum = s->full.expect_optimum, .lower_bound = AB_NONE};
    char why[256];
    if (o.checked && !abo_expect_agrees(&ex, s->bounds.max_load, row.arena,
                                        row.status == ABE_OK, o.proof, o.lower_bound, why,
                                        sizeof why)) {
        c->below_optimum++;
        failed = true;
        ab_buf_printf(&c->failures, "  %s %s: %s\n", s->full.name, sp->spec, why);
    } else if (row.status != ABE_OK) {
        const char *what = o.message ? o.message : "";
        size_t len = strcspn(what, "\n");
        ab_buf_printf(&c->failures, "  %s %s: %s: %.*s\n", s->full.name, sp->spec,
                      abe_status_word(row.status), (int)len, what);
    }
    abh_progress_job(&c->progress, s->full.name, sp->spec, abe_status_word(row.status),
                     row.status == ABE_OK ? row.arena : -1, r->wall_seconds, failed);
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

/* Opens the store and begins (or resumes) the run. */
static int open_run(const abh_run_args *a, run_ctx *c) {
    ab_error err;
    ab_error_clear(&err);
    if (strcmp(a->db, ABH_DEFAULT_DB) == 0 && mkdir(ABH_OUT_DIR, 0777) != 0 && errno != EEXIST) {
        ab_fail(&err, AB_EINPUT, "cannot create the folder %s/ for the default database: %s",
                ABH_OUT_DIR, strerror(errno));
        return abc_fail(&err);
    }
    /* A run to resume is in a database that exists: --resume never creates one. */
    unsigned flags = a->resume != NULL ? 0u : ABR_OPEN_CREATE;
    if (abr_open(a->db, flags, &c->db, &err) != AB_OK) return abc_fail(&err);
    if (a->resume != NULL) {
        if (strcmp(a->resume, "latest") == 0) {
            if (abr_run_latest(c->db, a->tag, &c->run, &err) != AB_OK) return abc_fail(&err);
        } else if (!ab_parse_int64(a->resume, strlen(a->resume), &c->run) || c->run <= 0) {
            fprintf(stderr, "arenabench: --resume takes a run id or 'latest', not '%s'\n",
                    a->resume);
            return 2;
        }
        abr_run info;
        if (c->run == 0 || abr_run_get(c->db, c->run, &info, &err) != AB_OK) {
            fprintf(stderr, "arenabench: %s: no run %s to resume%s%s\n", a->db, a->resume,
                    a->tag ? " with tag " : "", a->tag ? a->tag : "");
            return 2;
        }
        abr_run_free(&info);
        return 0;
    }
    char rev[64], host[256];
    if (a->revision) snprintf(rev, sizeof rev, "%s", a->revision);
    else git_revision(rev, sizeof rev);
    if (gethostname(host, sizeof host) != 0) snprintf(host, sizeof host, "unknown");
    host[sizeof host - 1] = '\0';
    abr_run info = {.key = a->run_key, .tag = a->tag, .revision = rev, .host = host,
                    .command = a->command};
    if (abr_run_begin(c->db, &info, &c->run, &err) != AB_OK) return abc_fail(&err);
    return 0;
}

/* Stores the suites (by content hash) and lists the jobs still to run. */
static int plan_jobs(const abh_run_args *a, run_ctx *c, size_t nsuites, int nspecs,
                     size_t *njobs) {
    ab_error err;
    ab_error_clear(&err);
    size_t ilp_skipped = 0;
    abr_pairs done;
    if (abr_pairs_read(c->db, c->run, &done, &err) != AB_OK) return abc_fail(&err);
    c->refs = ab_alloc_array(nsuites * (size_t)nspecs + 1, sizeof *c->refs);
    if (c->refs == NULL) {
        abr_pairs_free(&done);
        return 3;
    }
    size_t index = 0, n = 0;
    for (size_t i = 0; i < nsuites; i++) {
        suite_item *s = &c->suites[i];
        abr_suite su;
        abr_suite_init(&su);
        su.name = s->full.name;
        su.text = s->text.s;
        su.text_len = s->text.n;
        su.source = s->path;
        su.tensors = (int64_t)s->full.n;
        su.lower_bound = s->bounds.max_load;
        su.optimum = s->full.expect_optimum;
        su.logical_bytes = s->bounds.logical_bytes;
        su.physical_bytes = s->bounds.physical_bytes;
        su.peak_live_bytes = s->bounds.max_load;
        su.io_bytes = s->bounds.io_outside;
        bool mine = false;
        for (int j = 0; j < nspecs; j++) mine |= (index + (size_t)j) % (size_t)a->shard_n ==
                                                 (size_t)(a->shard_i - 1);
        if (mine && abr_suite_put(c->db, &su, &s->id, &err) != AB_OK) {
            abr_pairs_free(&done);
            return abc_fail(&err);
        }
        for (int j = 0; j < nspecs; j++, index++) {
            if (index % (size_t)a->shard_n != (size_t)(a->shard_i - 1)) continue;
            if (abr_pairs_has(&done, s->id, c->specs[j].spec)) continue;
            if (a->ilp && strcmp(c->specs[j].pl->name, "ilp") == 0 &&
                s->view.n > (size_t)a->ilp_max_tensors) {
                ilp_skipped++;
                continue;
            }
            c->refs[n++] = (job_ref){i, j};
        }
    }
    abr_pairs_free(&done);
    if (ilp_skipped > 0)
        fprintf(stderr, "arenabench: note: --ilp left out %zu suite%s of more than %lld arena "
                "tensors (--ilp-max-tensors)\n", ilp_skipped, ilp_skipped == 1 ? "" : "s",
                (long long)a->ilp_max_tensors);
    *njobs = n;
    return 0;
}

/* Stores each bad file (a suites row and its error row, each committed on
 * its own) unless this run holds its row already (--resume). The k-th bad
 * file belongs to shard k mod N, so merged shards hold each row once. */
static int record_bad_files(const abh_run_args *a, run_ctx *c) {
    ab_error err;
    ab_error_clear(&err);
    abr_pairs done;
    if (c->nbad == 0) return 0;
    if (abr_pairs_read(c->db, c->run, &done, &err) != AB_OK) return abc_fail(&err);
    ab_status st = AB_OK;
    for (size_t i = 0; st == AB_OK && i < c->nbad; i++) {
        bad_file *b = &c->bad[i];
        if (i % (size_t)a->shard_n != (size_t)(a->shard_i - 1)) continue;
        abr_suite su;
        abr_suite_init(&su);
        su.name = b->path;
        su.source = b->path;
        su.text = b->text.s ? b->text.s : "";
        su.text_len = b->text.n;
        su.tensors = 0;
        st = abr_suite_put(c->db, &su, &b->id, &err);
        if (st != AB_OK || abr_pairs_has(&done, b->id, ABH_LOAD_SPEC)) continue;
        abr_result row;
        abr_result_init(&row);
        row.run = c->run;
        row.suite = b->id;
        row.spec = ABH_LOAD_SPEC;
        row.status = ABE_ERROR;
        row.error = b->msg;
        st = abr_result_put(c->db, &row, &err);
    }
    abr_pairs_free(&done);
    return st == AB_OK ? 0 : abc_fail(&err);
}

/* Lists every file that did not load, as the loader said it: path:line:column: message. */
static void print_bad_files(const run_ctx *c) {
    if (c->nbad == 0) return;
    fprintf(stderr, "arenabench: %zu file%s found in the folders given did not load (each is "
            "an error row, planner %s):\n", c->nbad, c->nbad == 1 ? "" : "s", ABH_LOAD_SPEC);
    for (size_t i = 0; i < c->nbad; i++) fprintf(stderr, "arenabench: %s\n", ab_term(c->bad[i].msg));
}

static void print_summary(const run_ctx *c, const abh_run_args *a, size_t njobs) {
    size_t finished = 0;
    for (int s = 0; s < ABE_NSTATUSES; s++) finished += c->counts[s];
    fprintf(stderr, "run %lld in %s: ", (long long)c->run, a->db);
    if (finished < njobs) fprintf(stderr, "%zu of ", finished);
    fprintf(stderr, "%zu job%s%s", njobs, njobs == 1 ? "" : "s", finished < njobs ? " finished" : "");
    for (int s = 0; s < ABE_NSTATUSES; s++)
        if (c->counts[s]) fprintf(stderr, ", %zu %s", c->counts[s], abe_status_word(s));
    fprintf(stderr, "\n");
    if (c->failures.n > 0) { /* line by line, names escaped for the terminal */
        fprintf(stderr, "not ok:\n");
        for (char *line = c->failures.s, *nl; *line != '\0'; line = nl + 1) {
            nl = strchr(line, '\n');
            if (nl == NULL) nl = line + strlen(line) - 1;
            else *nl = '\0';
            fprintf(stderr, "%s\n", ab_term(line));
        }
    }
    print_bad_files(c);
    fprintf(stderr, "report: arenabench report --db %s --run %lld\n", a->db, (long long)c->run);
}

static int run_jobs(const abh_run_args *a, run_ctx *c, size_t njobs) {
    abh_job *jobs = ab_alloc_array(njobs + 1, sizeof *jobs);
    if (jobs == NULL) return 3;
    for (size_t i = 0; i < njobs; i++)
        jobs[i] = (abh_job){.view = &c->suites[c->refs[i].suite].view,
                            .planner = c->specs[c->refs[i].spec].pl,
                            .params = &c->specs[c->refs[i].spec].params};
    struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    abh_options opt = {.jobs = a->jobs, .time_limit = a->time_limit, .cpu_limit = a->cpu_limit,
                       .mem_limit = a->mem_limit, .stop = &stop_requested,
                       .repeat_min = (int)a->repeat_min, .repeat_time = a->repeat_time};
    ab_error err;
    ab_error_clear(&err);
    for (size_t i = 0; i < c->nsuites; i++) {
        if (c->suites[i].expect_why[0] == '\0') continue;
        c->below_optimum++;
        ab_buf_printf(&c->failures, "  %s: %s\n", c->suites[i].full.name, c->suites[i].expect_why);
    }
    abh_progress_start(&c->progress, njobs, a->quiet, stderr);
    ab_status st = abh_run(jobs, njobs, &opt, NULL, on_done, c, &err);
    abh_progress_end(&c->progress);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    ab_free(jobs);
    ab_error ferr;
    abr_run_status rs = st == AB_OK ? ABR_RUN_DONE
                        : st == AB_ELIMIT ? ABR_RUN_INTERRUPTED : ABR_RUN_FAILED;
    if (abr_run_finish(c->db, c->run, rs, &ferr) != AB_OK && st == AB_OK) return abc_fail(&ferr);
    print_summary(c, a, njobs);
    if (st == AB_ELIMIT) {
        fprintf(stderr, "arenabench: interrupted; finish with: arenabench run --resume %lld "
                "(same suites and planners)\n", (long long)c->run);
        return 1;
    }
    if (st != AB_OK) return abc_fail(&err);
    if (c->conflicts)
        fprintf(stderr, "arenabench: %zu disagreement%s between proofs (see above): "
                "a prover, a planner or the checker is wrong\n", c->conflicts,
                c->conflicts == 1 ? "" : "s");
    bool bad = c->counts[ABE_INVALID] || c->counts[ABE_CRASH] ||
               c->counts[ABE_ERROR] || c->below_optimum || c->conflicts || c->nbad;
    return bad ? 1 : 0;
}

static int cross_init(run_ctx *c, size_t n) {
    c->proven = ab_alloc_array(n + 1, sizeof *c->proven);
    c->smallest = ab_alloc_array(n + 1, sizeof *c->smallest);
    c->proven_spec = ab_alloc_array(n + 1, sizeof *c->proven_spec);
    c->smallest_spec = ab_alloc_array(n + 1, sizeof *c->smallest_spec);
    c->refuted_spec = ab_alloc_array(n + 1, sizeof *c->refuted_spec);
    c->fits_spec = ab_alloc_array(n + 1, sizeof *c->fits_spec);
    if (!c->proven || !c->smallest || !c->proven_spec || !c->smallest_spec ||
        !c->refuted_spec || !c->fits_spec)
        return 3;
    for (size_t i = 0; i < n; i++) {
        c->proven[i] = c->smallest[i] = AB_NONE;
        c->refuted_spec[i] = c->fits_spec[i] = -1;
    }
    return 0;
}

int abh_cmd_run(const abh_run_args *a) {
    run_ctx c = {0};
    size_t nsuites = 0, njobs = 0;
    int nspecs = 0;
    static char names[ABH_MAX_SPECS][64];
    int rc = specs_resolve(a, &c.specs, &nspecs, names);
    if (rc == 0) rc = suites_load(a, &c.suites, &nsuites, &c.bad, &c.nbad);
    c.nsuites = nsuites;
    if (rc == 0) rc = cross_init(&c, nsuites);
    if (rc == 0) rc = open_run(a, &c);
    if (rc == 0) rc = plan_jobs(a, &c, nsuites, nspecs, &njobs);
    if (rc == 0) rc = record_bad_files(a, &c);
    if (rc == 0) rc = run_jobs(a, &c, njobs);
    if (rc == 0 && c.failures.oom) rc = 3;
    abr_close(c.db);
    ab_free(c.proven);
    ab_free(c.smallest);
    ab_free(c.proven_spec);
    ab_free(c.smallest_spec);
    ab_free(c.refuted_spec);
    ab_free(c.fits_spec);
    ab_buf_free(&c.failures);
    ab_free(c.refs);
    suites_free(c.suites, nsuites);
    bad_free(c.bad, c.nbad);
    specs_free(c.specs, nspecs);
    return rc;
}
