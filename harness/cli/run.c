/*
 * run.c — `arenabench run`: reads and checks the options into abu_args,
 * hands them to the run pipeline (harness/run/run.h), shows its progress
 * and prints its summary. Exit codes: 0 every job ran and no plan was
 * invalid; 1 a plan was invalid, a planner crashed or errored, a file found
 * in a folder did not load, an arena fell below a suite's known optimum,
 * proofs disagreed (two optima, or a suite proved infeasible that another
 * planner packed within its capacity), or the run was interrupted; 2 bad
 * usage or input; 3 internal error.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/cli/human.h"
#include "harness/cli/progress.h"
#include "harness/run/bounds.h"
#include "harness/run/run.h"

/* Joins argv into one line for the runs table (static storage). */
static const char *command_line(int argc, char **argv) {
    static char line[4096];
    size_t used = snprintf(line, sizeof line, "arenabench");
    for (int i = 0; i < argc && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %s", argv[i]);
    return line;
}

/* The numeric options into *r; returns 0 or the exit code of a misuse. */
static int parse_numbers(const abc_args *a, abu_args *r) {
    const char *jobs = abc_opt(a, "jobs", NULL), *tl = abc_opt(a, "time-limit", NULL);
    const char *cl = abc_opt(a, "cpu-limit", NULL);
    const char *ml = abc_opt(a, "mem-limit", NULL), *shard = abc_opt(a, "shard", NULL);
    const char *ilp_time = abc_opt(a, "ilp-time", NULL);
    const char *ilp_max = abc_opt(a, "ilp-max-tensors", NULL);
    const char *ilp_nodes = abc_opt(a, "ilp-nodes", NULL);
    const char *rmin = abc_opt(a, "repeat-min", NULL), *rtime = abc_opt(a, "repeat-time", NULL);
    const char *rbelow = abc_opt(a, "repeat-below", NULL);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    r->jobs = cpus > 0 ? (int)cpus : 1;
    int64_t v;
    if (jobs && (!ab_parse_int64(jobs, strlen(jobs), &v) || v < 1 || v > 1024))
        return abc_usage_error(a->cmd, "-j takes a number of jobs from 1 to 1024, not '%s'", jobs);
    if (jobs) r->jobs = (int)v;
    r->time_limit = 60;
    if (tl && !abc_parse_number(tl, &r->time_limit, false))
        return abc_usage_error(a->cmd, "--time-limit takes seconds > 0, not '%s'", tl);
    r->cpu_limit = 0;
    if (cl && !abc_parse_number(cl, &r->cpu_limit, false))
        return abc_usage_error(a->cmd, "--cpu-limit takes CPU seconds > 0, not '%s'", cl);
    r->mem_limit = (int64_t)4 << 30;
    if (ml && !ab_parse_bytes(ml, &r->mem_limit))
        return abc_usage_error(a->cmd, "--mem-limit takes bytes (e.g. 2G, 512M), not '%s'", ml);
    int crc = abc_containment_arg(a);
    if (crc != 0) return crc;
    int used = 0;
    if (shard && (sscanf(shard, "%d/%d%n", &r->shard_i, &r->shard_n, &used) != 2 ||
                  shard[used] != '\0' || r->shard_n < 1 || r->shard_i < 1 ||
                  r->shard_i > r->shard_n))
        return abc_usage_error(a->cmd, "--shard takes I/N with 1 <= I <= N, not '%s'", shard);
    r->ilp_time = 10;
    r->ilp_max_tensors = 300;
    if (ilp_time && !abc_parse_number(ilp_time, &r->ilp_time, false))
        return abc_usage_error(a->cmd, "--ilp-time takes seconds > 0, not '%s'", ilp_time);
    if (ilp_max && (!ab_parse_int64(ilp_max, strlen(ilp_max), &r->ilp_max_tensors) ||
                    r->ilp_max_tensors < 1))
        return abc_usage_error(a->cmd, "--ilp-max-tensors takes a number >= 1, not '%s'", ilp_max);
    if (ilp_nodes && (!ab_parse_int64(ilp_nodes, strlen(ilp_nodes), &r->ilp_nodes) ||
                      r->ilp_nodes < 1))
        return abc_usage_error(a->cmd, "--ilp-nodes takes a number >= 1, not '%s'", ilp_nodes);
    r->repeat_min = 3;
    r->repeat_time = 0.5;
    if (rmin && (!ab_parse_int64(rmin, strlen(rmin), &r->repeat_min) || r->repeat_min < 1 ||
                 r->repeat_min > 1000000))
        return abc_usage_error(a->cmd, "--repeat-min takes a number from 1 to 1000000, not '%s'",
                               rmin);
    if (rtime && !abc_parse_number(rtime, &r->repeat_time, true))
        return abc_usage_error(a->cmd, "--repeat-time takes seconds >= 0, not '%s'", rtime);
    r->rerun_wall_capped = abc_flag(a, "rerun-wall-capped");
    r->repeat_below = 0.05;
    if (rbelow && !abc_parse_number(rbelow, &r->repeat_below, true))
        return abc_usage_error(a->cmd, "--repeat-below takes seconds >= 0, not '%s'", rbelow);
    return 0;
}

void abc_run_print_bounds(FILE *to) {
    ab_buf b = {0};
    abu_subset_params_help(&b);
    fprintf(to, "\nBounds: every suite's max-load bound is stored with its certificate (the\n"
                "instruction where it is reached), and so is a bound a row proves above it (an\n"
                "exact search's refutation, GLPK's bound); the report lists them and measures gaps\n"
                "against the best. --subset-bound OPTS takes:\n");
    for (const char *line = b.s ? b.s : ""; *line;) {
        size_t len = strcspn(line, "\n");
        fprintf(to, "  %.*s\n", (int)len, line);
        line += len + (line[len] == '\n');
    }
    ab_buf_free(&b);
}

/* ---- the pipeline's callbacks and the summary ---------------------------------------- */

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig) {
    (void)sig;
    stop_requested = 1;
}

static void on_start(void *ctx, size_t njobs) {
    abc_progress *pr = ctx;
    abc_progress_start(pr, njobs, pr->quiet, stderr);
}

static void on_job(void *ctx, const abu_job_done *d) {
    abc_progress_job(ctx, d->suite, d->spec, abo_status_word(d->status), d->arena,
                     d->wall_seconds, d->failed);
}

static void on_end(void *ctx) { abc_progress_end(ctx); }

static void on_note(void *ctx, const char *line) {
    (void)ctx;
    abc_note("%s", line);
}

static void print_summary(const abu_summary *s, const char *db) {
    size_t finished = 0;
    for (int k = 0; k < ABO_NSTATUSES; k++) finished += s->counts[k];
    fprintf(stderr, "run %lld in %s: ", (long long)s->run, db);
    if (finished < s->njobs) fprintf(stderr, "%zu of ", finished);
    fprintf(stderr, "%zu job%s%s", s->njobs, s->njobs == 1 ? "" : "s",
            finished < s->njobs ? " finished" : "");
    for (int k = 0; k < ABO_NSTATUSES; k++)
        if (s->counts[k]) fprintf(stderr, ", %zu %s", s->counts[k], abo_status_word(k));
    fprintf(stderr, "\n");
    if (s->failures.n > 0) { /* line by line, names escaped for the terminal */
        fprintf(stderr, "not ok:\n");
        const char *line = s->failures.s;
        while (*line != '\0') {
            size_t len = strcspn(line, "\n");
            char buf[4096];
            snprintf(buf, sizeof buf, "%.*s", (int)len, line);
            fprintf(stderr, "%s\n", ab_term(buf));
            line += len + (line[len] == '\n');
        }
    }
    if (s->nbad > 0) {
        fprintf(stderr, "arenabench: %zu file%s found in the folders given did not load (each is "
                "an error row, planner %s):\n", s->nbad, s->nbad == 1 ? "" : "s", ABU_LOAD_SPEC);
        for (size_t i = 0; i < s->nbad; i++) fprintf(stderr, "arenabench: %s\n", ab_term(s->bad[i]));
    }
    fprintf(stderr, "report: arenabench report --db %s --run %lld\n", db, (long long)s->run);
}

/* Runs the pipeline on r with progress on stderr; the exit code. */
static int run_pipeline(const abu_args *r, bool quiet) {
    if (strcmp(r->db, ABC_DEFAULT_DB) == 0 && mkdir(ABC_OUT_DIR, 0777) != 0 && errno != EEXIST)
        return abc_failf(ABC_EXIT_USAGE, "cannot create the folder %s/ for the default database: %s",
                         ABC_OUT_DIR, strerror(errno));
    abc_progress pr = {.quiet = quiet};
    abu_events ev = {.ctx = &pr, .start = on_start, .job = on_job, .end = on_end, .note = on_note};
    struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    abu_summary sum;
    ab_error err;
    ab_status st = abu_run(r, &ev, &sum, &err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    int rc;
    if (sum.ran) print_summary(&sum, r->db);
    if (st == AB_ELIMIT && sum.interrupted) {
        fprintf(stderr, "arenabench: interrupted; finish with: arenabench run --resume %lld "
                "(same suites and planners)\n", (long long)sum.run);
        rc = 1;
    } else if (st != AB_OK) {
        rc = abc_fail(&err);
    } else {
        if (sum.conflicts)
            fprintf(stderr, "arenabench: %zu disagreement%s between proofs (see above): "
                    "a prover, a planner or the checker is wrong\n", sum.conflicts,
                    sum.conflicts == 1 ? "" : "s");
        if (sum.over_capacity)
            fprintf(stderr, "arenabench: %zu suite%s fit%s no plan within %s capacity (the "
                    "gate; see CAPACITY above)\n", sum.over_capacity,
                    sum.over_capacity == 1 ? "" : "s", sum.over_capacity == 1 ? "s" : "",
                    sum.over_capacity == 1 ? "its" : "their");
        rc = abu_summary_failed(&sum) ? 1 : 0;
    }
    abu_summary_free(&sum);
    return rc;
}

int abc_run(const abc_args *a) {
    abu_args r = {.shard_i = 1, .shard_n = 1, .stop = &stop_requested};
    r.nspecs = abc_opt_all(a, "planner", r.specs);
    r.planner_set = abc_opt(a, "planners", NULL);
    r.db = abc_opt(a, "db", ABC_DEFAULT_DB);
    r.resume = abc_opt(a, "resume", NULL);
    r.tag = abc_opt(a, "tag", NULL);
    r.run_key = abc_opt(a, "run-key", NULL);
    r.revision = abc_opt(a, "revision", NULL);
    r.io = abc_opt(a, "io", NULL);
    r.ilp = abc_flag(a, "ilp");
    bool quiet = abc_flag(a, "quiet");
    r.subset_bound = abc_opt(a, "subset-bound", NULL);
    if (a->noperands == 0) return abc_usage_error(a->cmd, "expected suite files or folders");
    int rc = parse_numbers(a, &r);
    static abc_model_opts model;
    if (rc == 0) rc = abc_profile_args(a, false, &r.profile);
    if (rc == 0) rc = abc_model_args(a, &model);
    if (rc != 0) return rc;
    r.load = &model.lo;
    if (r.resume && r.run_key)
        return abc_usage_error(a->cmd, "--resume and --run-key do not go together");
    if (r.io && strcmp(r.io, "separate") != 0 && strcmp(r.io, "workspace") != 0 &&
        strcmp(r.io, "both") != 0)
        return abc_usage_error(a->cmd, "--io takes separate, workspace or both, not '%s'", r.io);
    if (r.subset_bound != NULL) { /* checked before anything runs */
        abo_subset_opts so;
        ab_error err;
        if (abu_subset_opts_parse(r.subset_bound, &so, &err) != AB_OK)
            return abc_usage_error(a->cmd, "%s", err.msg);
    }
    r.paths = a->operands;
    r.npaths = a->noperands;
    r.command = command_line(a->argc, a->argv);
    return run_pipeline(&r, quiet);
}
