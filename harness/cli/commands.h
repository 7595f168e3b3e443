/*
 * commands.h — the arenabench command: its entry point, one function per
 * command of the table (cli.c), each in the file of its name (plan.c,
 * show_plan.c, ...), and the run pipeline of run_suites.c. The command layer
 * prints and returns exit codes (DESIGN.md §5).
 */
#ifndef AB_COMMANDS_H
#define AB_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/cli/options.h"
#include "harness/formats/profile.h"

#define ABH_MAX_SPECS 64

/* Generated output lives in out/ (gitignored), never beside the code: the
 * default database, created with its folder on first use by `run`. */
#define ABH_OUT_DIR "out"
#define ABH_DEFAULT_DB ABH_OUT_DIR "/arenabench.db"

/* The arenabench command (cli.c): dispatches argv[1] through the command
 * table. The planners the program runs must be registered before (the
 * engine's: abe_register_planners). Returns the exit code. */
int abc_main(int argc, char **argv);

/* Runs one command of the table: argv[0] is its name, the rest its options
 * and operands. Returns the exit code (2 for an unknown command). */
int abc_command_main(int argc, char **argv);

/* The commands of the table, each given its parsed command line (options.h);
 * each returns the exit code. */
int abc_planners(const abc_args *a); /* planners.c */
int abc_bound(const abc_args *a);    /* bound.c */
int abc_plan(const abc_args *a);     /* plan.c */
int abc_validate(const abc_args *a); /* validate.c */
int abc_run(const abc_args *a);      /* run.c: the options; the pipeline is run_suites.c */
int abc_report(const abc_args *a);   /* report.c */
int abc_compare(const abc_args *a);  /* compare.c */
int abc_show_plan(const abc_args *a); /* show_plan.c */
int abc_export(const abc_args *a);   /* export.c */
int abc_gen(const abc_args *a);      /* gen.c */
int abc_merge(const abc_args *a);    /* merge.c */
int abc_import(const abc_args *a);   /* import.c */
int abc_ilp(const abc_args *a);      /* ilp.c */
int abc_check_db(const abc_args *a); /* check_db.c */

/* gen's kinds and their parameters, printed after its help (gen.c). */
void abc_gen_print_kinds(FILE *to);

typedef struct abh_run_args {
    const char *specs[ABH_MAX_SPECS]; /* -p SPEC, in order */
    int nspecs;
    const char *planner_set;  /* --planners default|all, or NULL */
    const char *db;           /* --db, default out/arenabench.db */
    int jobs;                 /* -j, default: CPUs online */
    double time_limit;        /* --time-limit seconds per job */
    double cpu_limit;         /* --cpu-limit CPU seconds per job; 0: none */
    int64_t mem_limit;        /* --mem-limit bytes per job */
    int shard_i, shard_n;     /* --shard I/N, 1-based; 1/1 = everything */
    const char *resume;       /* --resume ID|latest, or NULL */
    const char *tag;          /* --tag */
    const char *run_key;      /* --run-key (shards of one run share it) */
    const char *revision;     /* --revision, default: git rev-parse in the cwd */
    const char *command;      /* the command line, for the runs table */
    const char *io;           /* --io separate|workspace|both, or NULL: as each suite says */
    abh_profile_choice profile; /* --profile, --align: applied to each suite as it loads,
                                   before --io */
    bool ilp;                 /* --ilp: add the spec ilp:time=<ilp_time> */
    double ilp_time;          /* --ilp-time seconds (default 10): a safety cap when
                                 ilp_nodes is set */
    int64_t ilp_nodes;        /* --ilp-nodes: the ILP's deterministic budget of
                                 branch-and-bound nodes (ilp:nodes=N), 0 for none */
    int64_t repeat_min;       /* --repeat-min: runs of a job that ends ok (default 3) */
    double repeat_time;       /* --repeat-time: ... while its runs took less (default 0.5 s) */
    int64_t ilp_max_tensors;  /* --ilp-max-tensors: the ILP only on suites this small */
    bool quiet;
    const char **paths;       /* suite files and folders */
    int npaths;
} abh_run_args;

/* `arenabench run`: plan every suite with every spec in isolated children,
 * check each plan, store every row. Returns the exit code. */
int abh_cmd_run(const abh_run_args *a);


/* `arenabench ilp SUITE [...]` from argv (argv[0] being "ilp"): the same as
 * abc_command_main (ilp.c). Returns the exit code. The command table does not
 * use it: it is exported for tests/test_ilp.c, which runs the command inside
 * the test's process to read what it prints. */
int abh_cmd_ilp(int argc, char **argv);


#endif
