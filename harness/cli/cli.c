/*
 * cli.c — the arenabench command: a table of subcommands, each a function
 * that parses its own options, calls the library and prints. This is the only
 * layer that prints or exits. Exit codes (DESIGN.md §5): 0 ok, 1 a check
 * failed, 2 bad usage or input, 3 internal error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/problem.h"
#include "harness/cli/commands.h"
#include "harness/formats/gen.h"
#include "harness/cli/import.h"
#include "harness/formats/formats.h"
#include "harness/formats/minimalloc.h"
#include "harness/formats/plan_csv.h"
#include "harness/engine/runner.h"
#include "harness/formats/suite.h"
#include "results/report/svg.h"
#include "oracle/bounds.h"
#include "oracle/check.h"
#include "planners/planner.h"

#define EXIT_CHECK 1
#define EXIT_USAGE 2

typedef struct command {
    const char *name;
    const char *usage;   /* the synopsis line after "arenabench " */
    const char *summary; /* one line for `arenabench --help` */
    const char *help;    /* the rest of `arenabench CMD --help` */
    int (*run)(int argc, char **argv);
} command;

static const command *current; /* the subcommand being run, for messages */

/* Prints "arenabench: msg" to stderr and returns the exit code for st. */
static int report_error(const ab_error *err) {
    fprintf(stderr, "arenabench: %s\n", err->msg);
    return ab_status_exit_code(err->status);
}

/* Prints a usage error about the current subcommand and returns 2. */
__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "arenabench: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: arenabench %s\n(see 'arenabench %s --help')\n", current->usage,
            current->name);
    return EXIT_USAGE;
}


/* ---- option parsing --------------------------------------------------------
 * A small parser: options may come before or after operands; "--opt=value",
 * "--opt value", "-o value" and "-ovalue" are accepted; "--" ends options. */

typedef struct opt_spec {
    const char *shrt;   /* "-p" or NULL */
    const char *lng;    /* "--planner" */
    bool has_arg;
    const char **value; /* where the argument (or "1" for a flag) goes */
    int *count;         /* when set, a repeatable option: value is an array of
                           max entries and *count the number used */
    int max;
} opt_spec;

/* Parses argv[1..] against specs; operands are collected into ops (at most
 * max_ops). Returns -1 after printing a usage error (the caller returns 2),
 * 1 when --help was asked (help printed), else 0. */
static int parse_opts(int argc, char **argv, const opt_spec *specs, const char **ops,
                      int max_ops, int *nops);

static void print_generators(void);

static void print_command_help(const command *c) {
    printf("usage: arenabench %s\n\n%s\n%s", c->usage, c->summary, c->help);
    if (strcmp(c->name, "gen") == 0) print_generators();
}

static int match_opt(const opt_spec *s, const char *arg, const char **inline_val) {
    *inline_val = NULL;
    if (s->lng != NULL) {
        size_t n = strlen(s->lng);
        if (strncmp(arg, s->lng, n) == 0 && (arg[n] == '\0' || arg[n] == '=')) {
            if (arg[n] == '=') *inline_val = arg + n + 1;
            return 1;
        }
    }
    if (s->shrt != NULL && strncmp(arg, s->shrt, 2) == 0 && arg[1] != '-') {
        if (arg[2] != '\0') *inline_val = arg + 2;
        return 1;
    }
    return 0;
}

static int parse_opts(int argc, char **argv, const opt_spec *specs, const char **ops,
                      int max_ops, int *nops) {
    *nops = 0;
    bool only_operands = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_operands && strcmp(a, "--") == 0) {
            only_operands = true;
            continue;
        }
        if (!only_operands && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            print_command_help(current);
            return 1;
        }
        if (only_operands || a[0] != '-' || strcmp(a, "-") == 0) {
            if (*nops >= max_ops) {
                usage_error("unexpected operand '%s'", a);
                return -1;
            }
            ops[(*nops)++] = a;
            continue;
        }
        const opt_spec *s = specs;
        const char *val = NULL;
        while (s->lng != NULL && !match_opt(s, a, &val)) s++;
        if (s->lng == NULL) {
            usage_error("unknown option '%s'", a);
            return -1;
        }
        if (!s->has_arg) {
            if (val != NULL) {
                usage_error("option %s takes no value", s->lng);
                return -1;
            }
            *s->value = "1";
            continue;
        }
        if (val == NULL) {
            if (i + 1 >= argc) {
                usage_error("option %s needs a value", s->lng);
                return -1;
            }
            val = argv[++i];
        }
        if (s->count != NULL) {
            if (*s->count >= s->max) {
                usage_error("option %s given more than %d times", s->lng, s->max);
                return -1;
            }
            s->value[(*s->count)++] = val;
        } else {
            *s->value = val;
        }
    }
    return 0;
}

/* ---- shared steps ------------------------------------------------------------ */

/* Loads a suite, printing the error; returns 0 or an exit code. */
static int load_suite(const char *path, ab_problem *p) {
    ab_error err;
    ab_error_clear(&err);
    if (abh_load_problem(path, NULL, p, &err) != AB_OK) return report_error(&err);
    return 0;
}

static void print_bytes(FILE *to, const char *label, int64_t v) {
    fprintf(to, "%-10s %lld bytes\n", label, (long long)v);
}

/* Gap of arena over bound in percent (0 when bound is 0). */
static double gap_percent(int64_t arena, int64_t bound) {
    return bound > 0 ? 100.0 * (double)(arena - bound) / (double)bound : 0.0;
}

/* Prints the checker's verdict and messages; returns 0 or EXIT_CHECK. */
static int print_verdict(const abo_report *r, FILE *to) {
    if (r->verdict == ABO_OK) {
        fprintf(to, "check      ok (%s)\n", abo_verdict_text(ABO_OK));
        return 0;
    }
    fprintf(to, "check      INVALID: %s (%zu problem%s)\n", abo_verdict_text(r->verdict),
            r->nproblems, r->nproblems == 1 ? "" : "s");
    const char *m = r->msg;
    while (*m != '\0') {
        size_t len = strcspn(m, "\n");
        fprintf(to, "  %.*s\n", (int)len, m);
        m += len + (m[len] == '\n');
    }
    return EXIT_CHECK;
}

/* Explains unknown plan entries that name an I/O tensor kept outside the arena. */
static void explain_io_entries(const ab_problem *full, const ab_plan *pl) {
    if (full->io != AB_IO_SEPARATE) return;
    for (size_t i = 0; i < pl->n; i++) {
        if (pl->v[i].tensor != AB_NO_TENSOR || pl->v[i].name == NULL) continue;
        for (size_t j = 0; j < full->n; j++) {
            if (strcmp(full->t[j].name, pl->v[i].name) != 0) continue;
            printf("  note: '%s' is an %s tensor; with io: separate it lives outside the arena "
                   "and takes no offset\n",
                   full->t[j].name, full->t[j].kind == AB_KIND_INPUT ? "input" : "output");
        }
    }
}

/* ---- arenabench planners ------------------------------------------------------ */

static int cmd_planners(int argc, char **argv) {
    const char *ops[1];
    int nops, rc = parse_opts(argc, argv, (const opt_spec[]){{0}}, ops, 0, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    for (size_t i = 0; ab_planner_at(i) != NULL; i++) {
        const ab_planner *pl = ab_planner_at(i);
        if (pl->flags & AB_PLANNER_TEST) continue;
        printf("%-14s %s%s\n", pl->name, pl->flags & AB_PLANNER_EXACT ? "[exact] " : "",
               pl->summary);
        for (const ab_param_desc *d = pl->params; d && d->key; d++) {
            bool required = d->def == NULL || strstr(d->def, "required") != NULL;
            printf("    %s=%s (%s%s)\n        %s\n", d->key, d->values,
                   required ? "required" : "default ", required ? "" : d->def, d->help);
        }
    }
    return 0;
}

/* ---- arenabench bound ------------------------------------------------------------ */

static int cmd_bound(int argc, char **argv) {
    const char *ops[1];
    int nops, rc = parse_opts(argc, argv, (const opt_spec[]){{0}}, ops, 1, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (nops != 1) return usage_error("expected one suite file");
    ab_problem p;
    if ((rc = load_suite(ops[0], &p)) != 0) return rc;
    abo_bounds b;
    ab_error err;
    ab_error_clear(&err);
    if (abo_bounds_compute(&p, &b, &err) != AB_OK) {
        ab_problem_free(&p);
        return report_error(&err);
    }
    printf("suite      %s (%zu tensors)\n", p.name, p.n);
    printf("max-load   %lld bytes at instruction %lld (%zu tensors live)\n",
           (long long)b.max_load, (long long)b.max_load_instr, b.max_load_count);
    print_bytes(stdout, "largest", b.max_single);
    print_bytes(stdout, "logical", b.logical_bytes);
    print_bytes(stdout, "physical", b.physical_bytes);
    print_bytes(stdout, "peak-live", b.max_load);
    if (p.io == AB_IO_SEPARATE) print_bytes(stdout, "io-outside", b.io_outside);
    rc = 0;
    if (p.expect_lower_bound != AB_NONE && p.expect_lower_bound != b.max_load) {
        fprintf(stderr, "arenabench: %s: expect.lower_bound is %lld but the max-load bound is %lld\n",
                ops[0], (long long)p.expect_lower_bound, (long long)b.max_load);
        rc = EXIT_CHECK;
    }
    ab_problem_free(&p);
    return rc;
}

/* ---- arenabench plan ------------------------------------------------------------- */

typedef struct plan_job {
    const char *path, *spec, *out, *svg, *format;
    double time_limit; /* seconds, 0 = none */
    int64_t mem_limit; /* bytes, 0 = none */
    ab_problem full, view;
    ab_plan plan;
    ab_plan_stats stats;
    abo_bounds bounds;
    abo_report report;
    double seconds;
} plan_job;

static void plan_job_free(plan_job *j) {
    ab_problem_free(&j->full);
    ab_problem_free(&j->view);
    ab_plan_free(&j->plan);
}

/* Resolves the spec, plans, checks and bounds; returns 0 or an exit code. */
/* Runs the planner in an isolated child (as `run` does), so a planner that
 * crashes, hangs or runs out of memory is reported, not fatal. Returns 0 with
 * j->plan filled, or an exit code: 1 when the planner failed, 2 for a planner
 * error about its input (a bad parameter value, an arena that overflows). */
static int plan_isolated(plan_job *j, const ab_planner *pl, const ab_params *params) {
    abh_job job = {.view = &j->view, .planner = pl, .params = params};
    abh_options opt = {.jobs = 1, .time_limit = j->time_limit, .mem_limit = j->mem_limit};
    abh_job_result r;
    ab_error err;
    ab_error_clear(&err);
    if (abh_run(&job, 1, &opt, &r, NULL, NULL, &err) != AB_OK) return report_error(&err);
    int rc = 0;
    j->seconds = r.wall_seconds;
    j->stats = r.stats;
    if (r.status == ABH_OK) {
        if (ab_plan_from_offsets(&j->plan, r.offsets, r.n, &err) != AB_OK) rc = report_error(&err);
    } else {
        fprintf(stderr, "arenabench: %s: planner %s failed: %s%s%s\n", j->path, j->spec,
                abh_status_name(r.status), r.message[0] ? ": " : "", r.message);
        rc = r.status == ABH_ERROR && r.planner_status == AB_EINPUT ? EXIT_USAGE : EXIT_CHECK;
    }
    abh_result_free(&r);
    return rc;
}

static int plan_job_run(plan_job *j) {
    const ab_planner *pl;
    ab_params params;
    ab_error err;
    ab_error_clear(&err);
    if (ab_planner_resolve(j->spec, &pl, &params, &err) != AB_OK) return report_error(&err);
    int rc = load_suite(j->path, &j->full);
    ab_status st = AB_OK;
    if (rc == 0) st = ab_problem_arena_view(&j->full, &j->view, NULL, &err);
    if (rc == 0 && st == AB_OK) rc = plan_isolated(j, pl, &params);
    ab_params_free(&params);
    if (rc != 0) return rc;
    if (st == AB_OK) st = abo_bounds_compute(&j->full, &j->bounds, &err);
    if (st == AB_OK) st = abo_check(&j->view, &j->plan, &j->report, &err);
    if (st != AB_OK) return report_error(&err);
    return 0;
}

static int plan_job_print(const plan_job *j, FILE *to) {
    const ab_problem *p = &j->full;
    int64_t arena = j->report.arena, lb = j->bounds.max_load;
    fprintf(to, "suite      %s (%zu tensors in the arena", p->name, j->view.n);
    if (p->n > j->view.n) fprintf(to, ", %zu I/O outside", p->n - j->view.n);
    fprintf(to, ")\nplanner    %s\n", j->spec);
    print_bytes(to, "arena", arena);
    fprintf(to, "bound      %lld bytes (max-load at instruction %lld)\n", (long long)lb,
           (long long)j->bounds.max_load_instr);
    fprintf(to, "gap        %+.2f%%%s\n", gap_percent(arena, lb),
           arena == lb && j->report.verdict == ABO_OK ? " (optimal: equals the lower bound)" : "");
    if (p->io == AB_IO_SEPARATE && j->bounds.io_outside > 0)
        fprintf(to, "footprint  %lld bytes (arena + %lld I/O bytes outside)\n",
               (long long)(arena + j->bounds.io_outside), (long long)j->bounds.io_outside);
    fprintf(to, "time       %.3f ms\n", j->seconds * 1e3);
    int rc = print_verdict(&j->report, to);
    if (j->report.verdict == ABO_OK && p->expect_optimum != AB_NONE && arena < p->expect_optimum) {
        fprintf(stderr, "arenabench: %s: arena %lld is below the known optimum %lld: "
                "the expectation or the checker is wrong\n", j->path, (long long)arena,
                (long long)p->expect_optimum);
        rc = EXIT_CHECK;
    }
    return rc;
}

static bool plan_format_ok(const char *f) {
    return f == NULL || strcmp(f, "csv") == 0 || strcmp(f, "minimalloc") == 0;
}

static bool is_minimalloc(const char *f) { return f != NULL && strcmp(f, "minimalloc") == 0; }

/* Writes a plan as CSV or in MiniMalloc's format. */
static ab_status write_plan(const char *path, const char *format, const ab_problem *view,
                            const ab_plan *pl, ab_error *err) {
    if (!is_minimalloc(format)) return abh_plan_write(path, view, pl, err);
    ab_buf b = {0};
    ab_status st = abh_minimalloc_plan_render(view, pl, &b, err);
    if (st == AB_OK) st = ab_buf_write_file(&b, path, err);
    ab_buf_free(&b);
    return st;
}

/* Draws the plan to j->svg; returns 0 or an exit code. */
static int plan_job_svg(const plan_job *j) {
    ab_buf b = {0};
    ab_error err;
    ab_error_clear(&err);
    char title[512];
    snprintf(title, sizeof title, "%s — %s", j->full.name, j->spec);
    ab_status st = abr_svg_plan(&b, &j->view, &j->plan, j->bounds.max_load, title,
                                j->report.overlap_a, j->report.overlap_b, &err);
    if (st == AB_OK) st = ab_buf_write_file(&b, j->svg, &err);
    ab_buf_free(&b);
    return st == AB_OK ? 0 : report_error(&err);
}

static int cmd_plan(int argc, char **argv) {
    plan_job j = {.spec = "first-fit"};
    const char *tl = NULL, *ml = NULL;
    const char *ops[1];
    int nops;
    const opt_spec specs[] = {
        {"-p", "--planner", true, &j.spec, NULL, 0},
        {"-o", "--output", true, &j.out, NULL, 0},
        {NULL, "--svg", true, &j.svg, NULL, 0},
        {NULL, "--format", true, &j.format, NULL, 0},
        {NULL, "--time-limit", true, &tl, NULL, 0},
        {NULL, "--mem-limit", true, &ml, NULL, 0},
        {0}};
    int rc = parse_opts(argc, argv, specs, ops, 1, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (tl) {
        char *end;
        j.time_limit = strtod(tl, &end);
        if (*end != '\0' || !(j.time_limit > 0))
            return usage_error("--time-limit takes seconds > 0, not '%s'", tl);
    }
    if (ml && !abh_parse_bytes(ml, &j.mem_limit))
        return usage_error("--mem-limit takes bytes (e.g. 2G, 512M), not '%s'", ml);
    if (nops != 1) return usage_error("expected one suite file");
    if (!plan_format_ok(j.format))
        return usage_error("--format takes csv or minimalloc, not '%s'", j.format);
    j.path = ops[0];
    ab_problem_init(&j.full);
    ab_problem_init(&j.view);
    ab_plan_init(&j.plan);
    rc = plan_job_run(&j);
    if (rc == 0 && j.out != NULL) {
        ab_error err;
        ab_error_clear(&err);
        if (write_plan(j.out, j.format, &j.view, &j.plan, &err) != AB_OK) rc = report_error(&err);
    }
    if (rc == 0 && j.svg != NULL) rc = plan_job_svg(&j);
    if (rc == 0) {
        bool plan_on_stdout = j.out != NULL && strcmp(j.out, "-") == 0;
        rc = plan_job_print(&j, plan_on_stdout ? stderr : stdout);
    }
    plan_job_free(&j);
    return rc;
}

/* ---- arenabench validate ---------------------------------------------------------- */

static int cmd_validate(int argc, char **argv) {
    const char *ops[2], *format = NULL;
    int nops;
    const opt_spec specs[] = {{NULL, "--format", true, &format, NULL, 0}, {0}};
    int rc = parse_opts(argc, argv, specs, ops, 2, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (nops != 2) return usage_error("expected a suite file and a plan file");
    if (!plan_format_ok(format))
        return usage_error("--format takes csv or minimalloc, not '%s'", format);
    ab_problem full, view;
    ab_plan pl;
    ab_problem_init(&view);
    ab_plan_init(&pl);
    if ((rc = load_suite(ops[0], &full)) != 0) return rc;
    ab_error err;
    ab_error_clear(&err);
    abo_report r;
    ab_status st = ab_problem_arena_view(&full, &view, NULL, &err);
    if (st == AB_OK)
        st = is_minimalloc(format) ? abh_minimalloc_plan_read(ops[1], &view, &pl, &err)
                                   : abh_plan_read(ops[1], &view, &pl, &err);
    if (st == AB_OK) st = abo_check(&view, &pl, &r, &err);
    if (st != AB_OK) {
        rc = report_error(&err);
    } else {
        printf("suite      %s (%zu tensors in the arena)\n", full.name, view.n);
        printf("plan       %s (%zu entries)\n", ops[1], pl.n);
        if (r.verdict == ABO_OK) print_bytes(stdout, "arena", r.arena);
        rc = print_verdict(&r, stdout);
        if (r.verdict == ABO_UNKNOWN) explain_io_entries(&full, &pl);
    }
    ab_plan_free(&pl);
    ab_problem_free(&view);
    ab_problem_free(&full);
    return rc;
}

/* ---- arenabench run / merge ------------------------------------------------------ */

/* Joins argv into one line for the runs table (static storage). */
static const char *command_line(int argc, char **argv) {
    static char line[4096];
    size_t used = snprintf(line, sizeof line, "arenabench");
    for (int i = 0; i < argc && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %s", argv[i]);
    return line;
}

/* Parses a positive (or, with zero_ok, non-negative) number of seconds or a ratio. */
static bool parse_number(const char *s, double *out, bool zero_ok) {
    char *end;
    *out = strtod(s, &end);
    return *end == '\0' && end != s && (*out > 0 || (zero_ok && *out == 0));
}

static int cmd_run(int argc, char **argv) {
    abh_run_args a = {.db = ABH_DEFAULT_DB, .shard_i = 1, .shard_n = 1};
    const char *jobs = NULL, *tl = NULL, *ml = NULL, *shard = NULL, *quiet = NULL;
    const char *ilp = NULL, *ilp_time = NULL, *ilp_max = NULL;
    const char *ops[256];
    int nops;
    const opt_spec specs[] = {
        {"-p", "--planner", true, a.specs, &a.nspecs, ABH_MAX_SPECS},
        {NULL, "--planners", true, &a.planner_set, NULL, 0},
        {NULL, "--db", true, &a.db, NULL, 0},
        {"-j", "--jobs", true, &jobs, NULL, 0},
        {NULL, "--time-limit", true, &tl, NULL, 0},
        {NULL, "--mem-limit", true, &ml, NULL, 0},
        {NULL, "--shard", true, &shard, NULL, 0},
        {NULL, "--resume", true, &a.resume, NULL, 0},
        {NULL, "--tag", true, &a.tag, NULL, 0},
        {NULL, "--run-key", true, &a.run_key, NULL, 0},
        {NULL, "--revision", true, &a.revision, NULL, 0},
        {NULL, "--io", true, &a.io, NULL, 0},
        {NULL, "--ilp", false, &ilp, NULL, 0},
        {NULL, "--ilp-time", true, &ilp_time, NULL, 0},
        {NULL, "--ilp-max-tensors", true, &ilp_max, NULL, 0},
        {"-q", "--quiet", false, &quiet, NULL, 0},
        {0}};
    int rc = parse_opts(argc, argv, specs, ops, 256, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (nops == 0) return usage_error("expected suite files or folders");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    a.jobs = cpus > 0 ? (int)cpus : 1;
    int64_t v;
    if (jobs && (!ab_parse_int64(jobs, strlen(jobs), &v) || v < 1 || v > 1024))
        return usage_error("-j takes a number of jobs from 1 to 1024, not '%s'", jobs);
    if (jobs) a.jobs = (int)v;
    a.time_limit = 60;
    if (tl) {
        char *end;
        a.time_limit = strtod(tl, &end);
        if (*end != '\0' || !(a.time_limit > 0))
            return usage_error("--time-limit takes seconds > 0, not '%s'", tl);
    }
    a.mem_limit = (int64_t)4 << 30;
    if (ml && !abh_parse_bytes(ml, &a.mem_limit))
        return usage_error("--mem-limit takes bytes (e.g. 2G, 512M), not '%s'", ml);
    int used = 0;
    if (shard && (sscanf(shard, "%d/%d%n", &a.shard_i, &a.shard_n, &used) != 2 ||
                  shard[used] != '\0' ||
                  a.shard_n < 1 || a.shard_i < 1 || a.shard_i > a.shard_n))
        return usage_error("--shard takes I/N with 1 <= I <= N, not '%s'", shard);
    if (a.resume && a.run_key) return usage_error("--resume and --run-key do not go together");
    if (a.io && strcmp(a.io, "separate") != 0 && strcmp(a.io, "workspace") != 0 &&
        strcmp(a.io, "both") != 0)
        return usage_error("--io takes separate, workspace or both, not '%s'", a.io);
    a.quiet = quiet != NULL;
    a.ilp = ilp != NULL;
    a.ilp_time = 10;
    a.ilp_max_tensors = 300;
    if (ilp_time && (!parse_number(ilp_time, &a.ilp_time, false)))
        return usage_error("--ilp-time takes seconds > 0, not '%s'", ilp_time);
    if (ilp_max && (!ab_parse_int64(ilp_max, strlen(ilp_max), &a.ilp_max_tensors) ||
                    a.ilp_max_tensors < 1))
        return usage_error("--ilp-max-tensors takes a number >= 1, not '%s'", ilp_max);
    a.paths = ops;
    a.npaths = nops;
    a.command = command_line(argc, argv);
    return abh_cmd_run(&a);
}

static int cmd_show_plan(int argc, char **argv) {
    const char *db = ABH_DEFAULT_DB, *run = NULL, *out = NULL, *svg = NULL;
    const char *ops[2];
    int nops;
    const opt_spec specs[] = {{NULL, "--db", true, &db, NULL, 0},
                              {NULL, "--run", true, &run, NULL, 0},
                              {"-o", "--output", true, &out, NULL, 0},
                              {NULL, "--svg", true, &svg, NULL, 0},
                              {0}};
    int rc = parse_opts(argc, argv, specs, ops, 2, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (nops != 2) return usage_error("expected a suite name and a planner spec");
    return abh_cmd_show_plan(db, run, ops[0], ops[1], out, svg);
}

static int cmd_report(int argc, char **argv) {
    const char *db = ABH_DEFAULT_DB, *run = NULL, *out = NULL, *fmt = NULL;
    const char *ops[1];
    int nops;
    const opt_spec specs[] = {{NULL, "--db", true, &db, NULL, 0},
                              {NULL, "--run", true, &run, NULL, 0},
                              {NULL, "--format", true, &fmt, NULL, 0},
                              {"-o", "--output", true, &out, NULL, 0},
                              {0}};
    int rc = parse_opts(argc, argv, specs, ops, 0, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    return abh_cmd_report(db, run, fmt, out);
}


static int cmd_compare(int argc, char **argv) {
    const char *db = ABH_DEFAULT_DB, *base = NULL, *head = NULL, *tag = NULL;
    const char *ratio_s = NULL, *min_s = NULL;
    const char *ops[1];
    int nops;
    const opt_spec specs[] = {{NULL, "--db", true, &db, NULL, 0},
                              {NULL, "--base", true, &base, NULL, 0},
                              {NULL, "--head", true, &head, NULL, 0},
                              {NULL, "--tag", true, &tag, NULL, 0},
                              {NULL, "--slow-ratio", true, &ratio_s, NULL, 0},
                              {NULL, "--slow-min", true, &min_s, NULL, 0},
                              {0}};
    int rc = parse_opts(argc, argv, specs, ops, 0, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    double ratio = 0, min = -1;
    if (ratio_s && (!parse_number(ratio_s, &ratio, false) || ratio < 1))
        return usage_error("--slow-ratio takes a number >= 1, not '%s'", ratio_s);
    if (min_s && !parse_number(min_s, &min, true))
        return usage_error("--slow-min takes seconds >= 0, not '%s'", min_s);
    return abh_cmd_compare(db, base, head, tag, ratio, min);
}

static int cmd_export(int argc, char **argv) {
    const char *fmt = NULL, *out = NULL;
    const char *ops[1];
    int nops;
    const opt_spec specs[] = {{NULL, "--format", true, &fmt, NULL, 0},
                              {"-o", "--output", true, &out, NULL, 0},
                              {0}};
    int rc = parse_opts(argc, argv, specs, ops, 1, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (nops != 1) return usage_error("expected one suite file");
    return abh_cmd_export(ops[0], fmt, out);
}

static int cmd_gen(int argc, char **argv) {
    const char *kind = NULL, *n = NULL, *seed = NULL, *name = NULL, *out = NULL;
    const char *kv[64];
    int nkv = 0;
    const char *ops[1];
    int nops;
    const opt_spec specs[] = {{NULL, "--kind", true, &kind, NULL, 0},
                              {NULL, "--n", true, &n, NULL, 0},
                              {NULL, "--seed", true, &seed, NULL, 0},
                              {"-P", "--param", true, kv, &nkv, 64},
                              {NULL, "--name", true, &name, NULL, 0},
                              {"-o", "--output", true, &out, NULL, 0},
                              {0}};
    int rc = parse_opts(argc, argv, specs, ops, 0, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (kind == NULL) return usage_error("--kind is required (see 'arenabench gen --help')");
    return abh_cmd_gen(kind, n, seed, kv, nkv, name, out);
}

/* Prints the generator kinds and their parameters after gen's help. */
static void print_generators(void) {
    printf("\nKinds and their parameters (-P key=value; --n and --seed are short for n= and seed=):\n");
    for (size_t i = 0; abh_generators[i].kind; i++) {
        printf("  %-13s %s\n", abh_generators[i].kind, abh_generators[i].summary);
        for (const abh_gen_param *q = abh_generators[i].params; q->key; q++)
            printf("      %s=%s  %s\n", q->key, q->def, q->help);
    }
}

static int cmd_merge(int argc, char **argv) {
    const char *ops[256];
    int nops, rc = parse_opts(argc, argv, (const opt_spec[]){{0}}, ops, 256, &nops);
    if (rc != 0) return rc < 0 ? EXIT_USAGE : 0;
    if (nops < 2) return usage_error("expected OUT.db and at least one IN.db");
    return abh_cmd_merge(ops[0], ops + 1, nops - 1);
}

/* ---- the table -------------------------------------------------------------------- */

static int cmd_help(int argc, char **argv);

static const command commands[] = {
    {"planners", "planners", "List the planners, whether each is exact, and their parameters.",
     "\nA planner spec is name[:key=value[,key=value...]], e.g. first-fit:order=size.\n"
     "A value may be quoted with '...' to hold commas. [exact] marks planners that return\n"
     "an optimum when they finish.\n"
     "\nExit status: 0 ok; 2 bad usage.\n",
     cmd_planners},
    {"plan", "plan [-p SPEC] SUITE [-o PLAN] [--svg FILE] [--time-limit S] [--mem-limit B]",
     "Plan one suite, check the plan, print the arena, the lower bound and the gap.",
     "\nOptions:\n"
     "  -p, --planner SPEC   the planner spec (default first-fit; see 'arenabench planners')\n"
     "  -o, --output PLAN    write the plan as CSV (tensor,offset,size,start,end); '-' for\n"
     "                       stdout (the summary then goes to stderr)\n"
     "      --format F       the plan file's format: csv (default) or minimalloc\n"
     "                       (id,lower,upper,size,offset; half-open [lower, upper))\n"
     "      --svg FILE       draw the plan: instructions across, offsets up, a rectangle per\n"
     "                       tensor, the live-bytes profile and the lower bound as lines,\n"
     "                       overlaps in red\n"
     "      --time-limit S   kill the planner after S seconds (default: no limit)\n"
     "      --mem-limit B    the planner's memory, e.g. 2G (default: no limit)\n"
     "\nThe plan covers the tensors that live in the arena: intermediates, and inputs and\n"
     "outputs too when the suite says io: workspace. Every plan is checked by the oracle,\n"
     "independently of the planner. The planner runs in a child process: if it crashes,\n"
     "hangs past the time limit or runs out of memory, that is reported (exit 1).\n"
     "\nExit status: 0 valid plan; 1 the plan is invalid or below the suite's known optimum;\n"
     "2 bad usage or input; 3 internal error.\n"
     "\nExample:\n"
     "  arenabench plan -p best-fit:order=size suites/examples/first_fit_hole.yaml -o plan.csv\n",
     cmd_plan},
    {"validate", "validate SUITE PLAN [--format csv|minimalloc]",
     "Check a plan file against a suite with the independent overlap checker.",
     "\nChecks, in order: every entry names a tensor, none is placed twice, none is missing,\n"
     "offsets are aligned, fixed offsets honoured, no 64-bit overflow, no two tensors live\n"
     "at the same instruction share a byte (live ranges are inclusive), the arena fits the\n"
     "suite's capacity. An overlap names both tensors, the instruction and the byte ranges.\n"
     "\n--format minimalloc reads MiniMalloc's id,lower,upper,size,offset (half-open\n"
     "[lower, upper): upper = end + 1) instead of tensor,offset[,size,start,end].\n"
     "\nExit status: 0 valid; 1 invalid; 2 bad usage or input (malformed files, a plan column\n"
     "that disagrees with the suite); 3 internal error.\n",
     cmd_validate},
    {"bound", "bound SUITE",
     "Print the max-load lower bound, where it occurs, and the suite's memory figures.",
     "\nFigures: max-load (peak live bytes at one instruction, a lower bound for every plan),\n"
     "largest tensor, logical bytes (shape x element bits, sub-byte types packed), physical\n"
     "bytes (sizes rounded up to their alignment) and, with io: separate, the I/O bytes kept\n"
     "outside the arena.\n"
     "\nExit status: 0 ok; 1 the suite's expect.lower_bound disagrees; 2 bad input.\n",
     cmd_bound},
    {"run",
     "run [-p SPEC]... [--planners default|all] [--db F] [-j N] [--time-limit S]\n"
     "                  [--mem-limit B] [--shard I/N] [--resume ID|latest] [--tag T]\n"
     "                  [--io separate|workspace|both] SUITE|DIR...",
     "Run every planner spec over every suite, isolated, in parallel, into SQLite.",
     "\nEach (suite, spec) job runs in its own child process under a wall-clock and a memory\n"
     "limit; the parent checks every plan with the oracle and commits its row as the job\n"
     "ends. A planner that crashes, hangs, runs out of memory or returns an invalid plan is\n"
     "recorded (crash with its signal, timeout, oom, invalid with the checker's message)\n"
     "and the run goes on. Folders are searched recursively for *.yaml and *.yml.\n"
     "\nOptions:\n"
     "  -p, --planner SPEC      a planner spec; repeat for several (default: --planners default)\n"
     "      --planners SET      default (first-fit and best-fit, orders start and size) or all\n"
     "      --db FILE           the results database (default out/arenabench.db)\n"
     "  -j, --jobs N            jobs at once (default: the number of CPUs); the rows do not\n"
     "                          depend on N\n"
     "      --time-limit S      wall-clock seconds per job, then SIGKILL (default 60)\n"
     "      --mem-limit B       memory per job, e.g. 512M, 4G (default 4G)\n"
     "      --shard I/N         run only jobs I, I+N, I+2N, ... (1-based) of the sorted job list;\n"
     "                          give every shard the same --run-key, then 'arenabench merge'\n"
     "      --run-key K         the run's identity across shards (default: a random key)\n"
     "      --resume ID|latest  add the missing (suite, spec) rows to an earlier run\n"
     "      --tag T             a tag for the run (compare looks for the previous run with it)\n"
     "      --revision R        the revision stored with the run (default: git rev-parse HEAD)\n"
     "      --ilp               also solve each suite's ILP with GLPK (the spec ilp:time=S),\n"
     "                          storing its objective, bound, gap and status; proofs of\n"
     "                          optimality that disagree (ILP, exact search, lower bound)\n"
     "                          fail the run\n"
     "      --ilp-time S        seconds for each ILP (default 10)\n"
     "      --ilp-max-tensors N only on suites of at most N arena tensors (default 300)\n"
     "      --io MODE           separate or workspace: plan every suite's inputs and outputs\n"
     "                          outside or inside the arena, whatever the suite says; both: run\n"
     "                          each suite both ways (named X@io=separate, X@io=workspace) and\n"
     "                          the report shows the footprints side by side with the saving\n"
     "  -q, --quiet             no progress (by default a live line on a terminal, else one\n"
     "                          line per finished job, on stderr)\n"
     "\nExit status: 0 every job ran and no plan was invalid; 1 an invalid plan, a crash or\n"
     "error of a planner, an arena below a suite's known optimum, or an interrupted run\n"
     "(timeouts, oom and infeasible are recorded outcomes); 2 bad usage or input (nothing\n"
     "is written); 3 internal error.\n"
     "\nExample:\n"
     "  arenabench run --tag nightly suites/ && arenabench report -o out/report.md\n",
     cmd_run},
    {"report", "report [--db F] [--run ID|latest] [--format md|html|csv|json] [-o F]",
     "Render a run's results: per-planner summary, per-suite table, certificates, failures.",
     "\nContents: a per-planner summary (suites, valid, invalid, timeouts, crashes, geometric\n"
     "mean of arena / best lower bound, proven optima, wins), a per-suite table (planners as\n"
     "columns, arena and gap to the best known bound), the optimality certificates (which\n"
     "planner proved what: lower bound, ILP or exhaustive search) and every failure with its\n"
     "message. html is one self-contained file with inline SVG charts (gap per planner per\n"
     "suite, arena versus coarsening k) and pictures of the plans with the worst gaps.\n"
     "\nOptions:\n"
     "      --db FILE     the results database (default out/arenabench.db)\n"
     "      --run ID      a run id or latest (default latest)\n"
     "      --format F    md (default), html, csv (one row per result) or json\n"
     "  -o, --output F    write there (default stdout)\n"
     "\nExit status: 0 ok; 2 bad usage, no such run or database; 3 internal error.\n",
     cmd_report},
    {"compare", "compare [--db F] [--base ID] [--head ID] [--tag T] [--slow-ratio R] [--slow-min S]",
     "Compare two runs; exit 1 when the head regressed.",
     "\nRows are matched by suite content and planner spec. A regression is an arena that\n"
     "grew, a result that went from ok to invalid/timeout/crash/oom/error, a lost optimality\n"
     "proof, or a slowdown beyond both thresholds (default 2x and at least 0.1 s).\n"
     "Improvements, new and gone pairs are listed too.\n"
     "\nOptions:\n"
     "      --db FILE        the results database (default out/arenabench.db)\n"
     "      --head ID        the run to judge (default: the latest, with --tag the latest so tagged)\n"
     "      --base ID        the run to judge it against (default: the previous run with the\n"
     "                       head's tag; when there is none, nothing to compare: exit 0)\n"
     "      --tag T          pick the head among runs tagged T\n"
     "      --slow-ratio R   slowdown ratio that counts (default 2)\n"
     "      --slow-min S     and the least increase in seconds (default 0.1)\n"
     "\nExit status: 0 no regression; 1 a regression; 2 bad usage or no such run.\n",
     cmd_compare},
    {"ilp", "ilp SUITE [--time S] [--gap G] [--write-lp F] [-o PLAN] [--no-ps] [--cuts]",
     "Solve a suite's integer program with GLPK: the optimum, or an incumbent, a bound and the gap.",
     "\n(This command prints its full help itself: 'arenabench ilp --help'.)\n",
     abh_cmd_ilp},
    {"import",
     "import FILE [-o SUITE.yaml] [--name NAME] [--fold-constants] [--dim NAME=VALUE]...\n"
     "                         [--assume-dynamic=N]",
     "Turn a TFLite model or a MiniMalloc CSV into a suite.",
     "\n(This command prints its full help itself: 'arenabench import --help'.)\n",
     abh_cmd_import},
    {"export", "export SUITE [--format minimalloc|yaml] [-o FILE]",
     "Write a suite in another format (MiniMalloc CSV by default).",
     "\nminimalloc: id,lower,upper,size[,alignment][,offset], one row per arena tensor.\n"
     "MiniMalloc's intervals are half-open, so upper = end + 1 (arenabench's ranges are\n"
     "inclusive). alignment is written when a tensor has align > 1, offset for fixed offsets.\n"
     "yaml: the suite in canonical form (what its content hash is taken over).\n"
     "\nExit status: 0 ok; 2 bad usage or input.\n",
     cmd_export},
    {"gen", "gen --kind K [--n N] [--seed S] [-P key=value]... [--name NAME] [-o FILE]",
     "Generate a synthetic or architecture-derived suite (YAML), deterministically.",
     "\nThe same kind and parameters always give the same suite. Live ranges are in operator\n"
     "indices, inclusive: from the operator that writes a tensor to the last that reads it.\n"
     "A suite file may hold a generator instead of tensors: generate: {kind: resnet, blocks: 8}.\n"
     "\nExit status: 0 ok; 2 bad usage, unknown kind or parameter.\n"
     "\nExample:\n"
     "  arenabench gen --kind random --n 100000 --seed 7 -o big.yaml\n",
     cmd_gen},
    {"merge", "merge OUT.db IN.db...",
     "Merge shard databases into one (rows of shards with the same run key join one run).",
     "\nExample: three machines each ran\n"
     "  arenabench run --shard I/3 --run-key nightly-2026-11-29 --db shard-I.db suites/\n"
     "then: arenabench merge out/arenabench.db shard-1.db shard-2.db shard-3.db\n"
     "\nExit status: 0 ok; 2 bad usage or a database that cannot be read or joined.\n",
     cmd_merge},
    {"show-plan", "show-plan [--db F] [--run ID|latest] SUITE SPEC [-o PLAN] [--svg FILE]",
     "Export a plan stored by 'run' again, as CSV (and as a picture).",
     "\nSUITE is the suite's name (its 'suite:' field), SPEC the planner spec as run.\n"
     "\nOptions:\n"
     "      --db FILE     the results database (default out/arenabench.db)\n"
     "      --run ID      a run id or latest (default latest)\n"
     "  -o, --output F    write the CSV there (default stdout)\n"
     "      --svg FILE    also draw the plan\n"
     "\nExit status: 0 ok; 1 the row has no plan (its planner failed); 2 no such run or row.\n",
     cmd_show_plan},
    {"help", "help [COMMAND]", "Show help for arenabench or one command.", "", cmd_help},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_main_help(FILE *to) {
    fprintf(to,
            "arenabench — verify and benchmark static memory planners for ML inference\n\n"
            "usage: arenabench COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(to, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(to,
            "\nA suite is a YAML file of tensors with inclusive live ranges [start, end]\n"
            "(see suites/examples/). 'arenabench COMMAND --help' tells more.\n"
            "Exit status: 0 ok, 1 a check failed, 2 bad usage or input, 3 internal error.\n");
}

static const command *find_command(const char *name) {
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static int cmd_help(int argc, char **argv) {
    if (argc < 2) {
        print_main_help(stdout);
        return 0;
    }
    const command *c = find_command(argv[1]);
    if (c == NULL) return usage_error("unknown command '%s'", argv[1]);
    print_command_help(c);
    return 0;
}

int abc_main(int argc, char **argv) {
    if (argc < 2) {
        print_main_help(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_main_help(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("arenabench 0.1.0\n");
        return 0;
    }
    current = find_command(argv[1]);
    if (current == NULL) {
        fprintf(stderr, "arenabench: unknown command '%s' (see 'arenabench --help')\n", argv[1]);
        return EXIT_USAGE;
    }
    return current->run(argc - 1, argv + 1);
}
