/*
 * check_db.c — `arenabench check-db [--db F]`: is a results database sound?
 *
 * Two parts. The store's own checks (results/store: abr_check_db): SQLite's
 * integrity and foreign-key checks, the schema version, one row per (run,
 * suite, spec), suite and plan hashes against their contents, every row's
 * plan stored. Then every stored plan is checked again by the oracle against
 * the suite the row names: the suite's canonical text is loaded, its arena
 * view taken (as `run` planned it), and the verdict and arena compared with
 * what the row says. Each problem is one line on stdout; the exit status is 1
 * when there is any, 0 when none, 2 when the file is missing or is not an
 * arenabench database.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/cli/commands.h"
#include "harness/cli/fail.h"
#include "harness/formats/suite.h"
#include "oracle/check.h"
#include "results/store/store.h"

/* Where the problems go, and how many. */
typedef struct found {
    const char *db;
    size_t n;
} found;

static void say(void *ctx, const char *line) {
    found *f = ctx;
    printf("%s: %s\n", f->db, line);
    f->n++;
}

__attribute__((format(printf, 2, 3))) static void sayf(found *f, const char *fmt, ...) {
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    ab_vline(line, sizeof line, fmt, ap);
    va_end(ap);
    say(f, line);
}

/* The arena view of a stored suite, kept while rows name the same suite. */
typedef struct view_cache {
    int64_t suite;   /* the suite's id, or -1 */
    bool ok;         /* it loaded */
    char why[AB_ERROR_MAX];
    ab_problem view;
} view_cache;

static void cache_load(abr_store *db, view_cache *c, const abr_suite *su) {
    if (c->suite == su->id) return;
    ab_problem_free(&c->view);
    ab_problem_init(&c->view);
    c->suite = su->id;
    char *text = NULL;
    size_t len = 0;
    ab_problem full;
    ab_problem_init(&full);
    ab_error err;
    ab_error_clear(&err);
    ab_status st = abr_suite_text(db, su->id, &text, &len, &err);
    if (st == AB_OK) st = abh_suite_load_buffer(su->name, text, len, &full, &err);
    if (st == AB_OK) st = ab_problem_arena_view(&full, &c->view, NULL, &err);
    c->ok = st == AB_OK;
    snprintf(c->why, sizeof c->why, "%s", err.msg);
    ab_free(text);
    ab_problem_free(&full);
}

/* Checks the plan of one row again; problems to f. */
static void recheck(abr_store *db, view_cache *c, const abr_row *row, int64_t run, found *f) {
    const abr_result *r = &row->r;
    char where[600];
    snprintf(where, sizeof where, "run %lld, suite '%.200s', spec '%.200s'", (long long)run,
             row->suite.name, r->spec);
    cache_load(db, c, &row->suite);
    if (!c->ok) {
        sayf(f, "%s: the suite does not load again, so its plan cannot be checked: %s", where,
             c->why);
        return;
    }
    int64_t *off = NULL;
    size_t n = 0;
    ab_error err;
    ab_error_clear(&err);
    if (abr_plan_get(db, r->plan_hash, &off, &n, &err) != AB_OK) {
        sayf(f, "%s: %s", where, err.msg);
        return;
    }
    ab_plan pl;
    ab_plan_init(&pl);
    abo_report rep;
    memset(&rep, 0, sizeof rep);
    if (n != c->view.n) {
        sayf(f, "%s: the plan has %zu offsets for the suite's %zu arena tensors", where, n,
             c->view.n);
    } else if (ab_plan_from_offsets(&pl, off, n, &err) != AB_OK ||
               abo_check(&c->view, &pl, &rep, &err) != AB_OK) {
        sayf(f, "%s: the plan cannot be checked: %s", where, err.msg);
    } else {
        for (char *m = rep.msg; *m; m++) /* one line: the checker's lines joined by '|' */
            if (*m == '\n') *m = m[1] != '\0' ? '|' : ' ';
        const char *now = abo_verdict_word(rep.verdict);
        const char *stored = r->verdict != NULL ? r->verdict : "(none)";
        if (strcmp(now, stored) != 0)
            sayf(f, "%s: the row says the plan is '%s' but the oracle finds '%s': %.900s", where,
                 stored, now, rep.msg);
        else if (r->arena != AB_NONE && r->arena != rep.arena)
            sayf(f, "%s: the row's arena is %lld but its plan's is %lld", where,
                 (long long)r->arena, (long long)rep.arena);
    }
    ab_plan_free(&pl);
    ab_free(off);
}

/* Checks every stored plan of every run; *plans counts those checked. */
static int recheck_all(abr_store *db, found *f, size_t *plans) {
    int64_t *ids = NULL;
    size_t nids = 0;
    ab_error err;
    ab_error_clear(&err);
    if (abr_run_ids(db, &ids, &nids, &err) != AB_OK) {
        sayf(f, "%s", err.msg);
        return 0;
    }
    view_cache c = {.suite = -1};
    ab_problem_init(&c.view);
    for (size_t i = 0; i < nids; i++) {
        abr_rows rows = {0};
        if (abr_rows_read(db, ids[i], &rows, &err) != AB_OK) {
            sayf(f, "run %lld: its rows cannot be read: %s", (long long)ids[i], err.msg);
        } else {
            for (size_t k = 0; k < rows.n; k++) {
                if (rows.v[k].r.plan_hash[0] == '\0') continue;
                recheck(db, &c, &rows.v[k], ids[i], f);
                (*plans)++;
            }
        }
        abr_rows_free(&rows);
    }
    ab_problem_free(&c.view);
    ab_free(ids);
    return 0;
}

/* true when path starts with SQLite's header. */
static bool sqlite_header(const char *path) {
    static const char magic[16] = "SQLite format 3";
    char head[16];
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) return false;
    bool ok = fread(head, 1, sizeof head, fp) == sizeof head && memcmp(head, magic, 16) == 0;
    fclose(fp);
    return ok;
}

int abc_check_db(const abc_args *a) {
    const char *path = abc_opt(a, "db", ABH_DEFAULT_DB);
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) return abc_failf(ABC_EXIT_USAGE, "%s: cannot open: %s", path, strerror(errno));
    fclose(fp);
    if (!sqlite_header(path))
        return abc_failf(ABC_EXIT_USAGE, "%s: not an SQLite database (no SQLite header)", path);
    found f = {.db = path};
    abr_store *db = NULL;
    ab_error err;
    ab_error_clear(&err);
    if (abr_open(path, ABR_OPEN_READONLY, &db, &err) != AB_OK) {
        /* An SQLite file: either not ours (usage) or one of ours that does not
         * open (a problem of the file). */
        if (strstr(err.msg, "not an arenabench results database") != NULL) return abc_fail(&err);
        say(&f, err.msg);
        printf("%s: 1 problem: the database does not open\n", path);
        return ABC_EXIT_CHECK;
    }
    size_t nstore = 0, plans = 0;
    if (abr_check_db(db, say, &f, &nstore, &err) != AB_OK) sayf(&f, "%s", err.msg);
    recheck_all(db, &f, &plans);
    abr_close(db);
    if (f.n > 0) {
        printf("%s: %zu problem%s (%zu stored plan%s checked again)\n", path, f.n,
               f.n == 1 ? "" : "s", plans, plans == 1 ? "" : "s");
        return ABC_EXIT_CHECK;
    }
    printf("%s: ok: integrity, schema, one row per run, suite and spec, hashes; %zu stored "
           "plan%s checked again by the oracle\n",
           path, plans, plans == 1 ? "" : "s");
    return 0;
}
