/*
 * run.c — `arenabench run`: reads and checks the options into abh_run_args
 * and hands them to the run pipeline, abh_cmd_run (run_suites.c).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/cli/human.h"

/* Joins argv into one line for the runs table (static storage). */
static const char *command_line(int argc, char **argv) {
    static char line[4096];
    size_t used = snprintf(line, sizeof line, "arenabench");
    for (int i = 0; i < argc && used < sizeof line; i++)
        used += (size_t)snprintf(line + used, sizeof line - used, " %s", argv[i]);
    return line;
}

/* The numeric options into *r; returns 0 or the exit code of a misuse. */
static int parse_numbers(const abc_args *a, abh_run_args *r) {
    const char *jobs = abc_opt(a, "jobs", NULL), *tl = abc_opt(a, "time-limit", NULL);
    const char *cl = abc_opt(a, "cpu-limit", NULL);
    const char *ml = abc_opt(a, "mem-limit", NULL), *shard = abc_opt(a, "shard", NULL);
    const char *ilp_time = abc_opt(a, "ilp-time", NULL);
    const char *ilp_max = abc_opt(a, "ilp-max-tensors", NULL);
    const char *ilp_nodes = abc_opt(a, "ilp-nodes", NULL);
    const char *rmin = abc_opt(a, "repeat-min", NULL), *rtime = abc_opt(a, "repeat-time", NULL);
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
    return 0;
}

int abc_run(const abc_args *a) {
    abh_run_args r = {.shard_i = 1, .shard_n = 1};
    r.nspecs = abc_opt_all(a, "planner", r.specs);
    r.planner_set = abc_opt(a, "planners", NULL);
    r.db = abc_opt(a, "db", ABH_DEFAULT_DB);
    r.resume = abc_opt(a, "resume", NULL);
    r.tag = abc_opt(a, "tag", NULL);
    r.run_key = abc_opt(a, "run-key", NULL);
    r.revision = abc_opt(a, "revision", NULL);
    r.io = abc_opt(a, "io", NULL);
    r.ilp = abc_flag(a, "ilp");
    r.quiet = abc_flag(a, "quiet");
    if (a->noperands == 0) return abc_usage_error(a->cmd, "expected suite files or folders");
    int rc = parse_numbers(a, &r);
    if (rc == 0) rc = abc_profile_args(a, false, &r.profile);
    if (rc != 0) return rc;
    if (r.resume && r.run_key)
        return abc_usage_error(a->cmd, "--resume and --run-key do not go together");
    if (r.io && strcmp(r.io, "separate") != 0 && strcmp(r.io, "workspace") != 0 &&
        strcmp(r.io, "both") != 0)
        return abc_usage_error(a->cmd, "--io takes separate, workspace or both, not '%s'", r.io);
    r.paths = a->operands;
    r.npaths = a->noperands;
    r.command = command_line(a->argc, a->argv);
    return abh_cmd_run(&r);
}
