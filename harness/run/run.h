/*
 * run.h — the pipeline of `arenabench run`, as a library (prefix abu_): it
 * collects the suite files of the paths given, loads each (formats), resolves
 * the planner specs, opens or resumes a run in the store, lists the jobs
 * still to do, stores each suite's bounds (bounds.h: max-load always, the
 * subset bound when asked), runs each job in its own child (engine), judges
 * it, commits its row (and the bound it proves, if any) as it ends, and asks oracle/certify whether the rows agree (proofs across
 * rows, `expect:` both ways). It prints nothing: progress goes through the
 * callbacks of abu_events, and what a user is told at the end is in
 * abu_summary. The command line (harness/cli/run.c) only reads
 * options into abu_args and prints.
 *
 * Every suite is loaded and every spec resolved before the database is
 * touched: a bad spec, or a suite file named in the paths that does not load,
 * fails with AB_EINPUT and nothing written. A file found in a folder that does
 * not load does not stop the run: it becomes an error row (planner
 * ABU_LOAD_SPEC) and is listed in the summary. The parent, never the child,
 * checks each plan and commits its row as the job ends, so a kill -9 loses at
 * most the jobs in flight and a resumed run fills in only what is missing.
 */
#ifndef ABU_RUN_H
#define ABU_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/formats.h"
#include "harness/formats/profile.h"
#include "oracle/status.h"
#include "results/store/store.h"

/* Planner specs a run takes at most (-p, --planners, --ilp together). */
#define ABU_MAX_SPECS 64

/* The results rows of files that did not load have this spec (not a planner's). */
#define ABU_LOAD_SPEC "(load)"

typedef struct abu_args {
    const char *specs[ABU_MAX_SPECS]; /* planner specs, in order */
    int nspecs;
    const char *planner_set;  /* "default", "all", or NULL: default when no spec is given */
    const char *db;           /* the database file (created unless resuming) */
    int jobs;                 /* jobs at a time */
    double time_limit;        /* wall seconds per job */
    double cpu_limit;         /* CPU seconds per job; 0: none */
    int64_t mem_limit;        /* bytes per job */
    int shard_i, shard_n;     /* this shard, 1-based, of N; 1/1 = everything */
    const char *resume;       /* a run id or "latest" to resume, or NULL for a new run */
    const char *tag;          /* the run's tag, or NULL */
    const char *run_key;      /* shards of one run share it, or NULL */
    const char *revision;     /* the revision to record, or NULL: git rev-parse in the cwd */
    const char *command;      /* the command line, for the runs table */
    const char *io;           /* "separate", "workspace", "both", or NULL: as each suite says */
    abf_profile_choice profile; /* applied to each suite as it loads, before io */
    const abf_load_options *load; /* a model's options, for the models among the suites
                                     (NULL: none) */
    bool ilp;                 /* add the spec ilp:time=<ilp_time>[,nodes=<ilp_nodes>] */
    double ilp_time;          /* its safety cap in seconds */
    int64_t ilp_nodes;        /* its deterministic budget of nodes, 0 for none */
    int64_t ilp_max_tensors;  /* the ILP only on suites with at most this many arena tensors */
    const char *subset_bound; /* compute each suite's subset bound with these options
                                 (bounds.h: abu_subset_params; "default"), or NULL */
    int64_t repeat_min;       /* runs of a job that ends ok */
    double repeat_time;       /* ... while its runs took less than this */
    double repeat_below;      /* ... when the first took less than this (<= 0: always) */
    bool rerun_wall_capped;   /* a job the wall-clock limit stopped after less than 90% of
                                 it in CPU time is run again, alone, after the others,
                                 and that row is stored, saying so in its note */
    const volatile sig_atomic_t *stop; /* set non-zero (a signal handler) to stop; NULL: never */
    const char *const *paths; /* suite files and folders */
    int npaths;
} abu_args;

/* One job finished and its row is committed. */
typedef struct abu_job_done {
    const char *suite, *spec;
    abo_status status;
    int64_t arena;        /* the valid plan's arena, or -1 */
    double wall_seconds;
    bool failed;          /* counts against the run (invalid, crash, error, `expect:` missed) */
} abu_job_done;

/* The callbacks of a run; any may be NULL. */
typedef struct abu_events {
    void *ctx;
    void (*start)(void *ctx, size_t njobs); /* the jobs are listed; none has run */
    void (*job)(void *ctx, const abu_job_done *d);
    void (*end)(void *ctx);                 /* the last job ended (or the run stopped) */
    void (*note)(void *ctx, const char *line); /* a remark for the user, one line */
} abu_events;

/* What a run did. Filled by abu_run, freed by abu_summary_free. */
typedef struct abu_summary {
    int64_t run;                   /* the run's id in the store, 0 before it began */
    bool ran;                      /* the jobs were started (the counts mean something) */
    bool interrupted;              /* stopped by *stop; resume to finish */
    size_t njobs;                  /* jobs this invocation had to run */
    size_t counts[ABO_NSTATUSES];  /* jobs finished, by status */
    size_t below_optimum;          /* rows and suites that contradict their `expect:` */
    size_t conflicts;              /* proofs that disagree across rows */
    size_t over_capacity;          /* suites with a capacity (or bounded pools) that no row
                                      of the run fits: the capacity gate (not judged on a
                                      shard, whose rows are only part of the run) */
    ab_buf failures;               /* one line per failed job or disagreement, "  ..." */
    char **bad;                    /* files found in folders that did not load: the
                                      loader's messages, path:line:column first, by path */
    size_t nbad;
} abu_summary;

/* Runs a. AB_OK when every job ran (whatever the jobs' outcomes: see
 * abu_summary_failed); AB_ELIMIT when *a->stop stopped it (the run is marked
 * interrupted and can be resumed); AB_EINPUT for bad arguments or a suite
 * named in the paths that does not load (nothing written); other failures
 * with err saying what. *out is filled in every case. */
ab_status abu_run(const abu_args *a, const abu_events *ev, abu_summary *out, ab_error *err);

/* True when the run counts as failed: a plan invalid, a planner crashed or
 * errored, an `expect:` missed, proofs disagreed, a suite's capacity was not
 * met by any planner, or a file did not load. */
bool abu_summary_failed(const abu_summary *s);

void abu_summary_free(abu_summary *s);

/* Stores the arena view of every suite of db stored without one (a file of
 * schema 4 or older, or merged from one): its stored text loaded again, once,
 * so readers rebuild views from rows (abs_suite_view) and never parse. A
 * suite whose text does not load is left without (its readers say so).
 * *filled (may be NULL) counts the suites filled. */
ab_status abu_fill_views(abs_store *db, size_t *filled, ab_error *err);

#endif
