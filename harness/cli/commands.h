/*
 * commands.h — the arenabench command: its entry point, one function per
 * command of the table (cli.c), each in the file of its name (plan.c,
 * show_plan.c, ...). The run pipeline is a layer of its own (harness/run). The command layer
 * prints and returns exit codes (DESIGN.md §5).
 */
#ifndef AB_COMMANDS_H
#define AB_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/cli/options.h"
#include "harness/formats/profile.h"
#include "harness/run/run.h"

/* Planner specs a command takes at most (-p, --pair). */
#define ABC_MAX_SPECS ABU_MAX_SPECS

/* Generated output lives in out/ (gitignored), never beside the code: the
 * default database, created with its folder on first use by `run`. */
#define ABC_OUT_DIR "out"
#define ABC_DEFAULT_DB ABC_OUT_DIR "/arenabench.db"

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
int abc_run(const abc_args *a);      /* run.c: the options and the printing; the pipeline
                                        is harness/run */
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

/* run's bounds and the subset bound's parameters, printed after its help (run.c). */
void abc_run_print_bounds(FILE *to);




/* `arenabench ilp SUITE [...]` from argv (argv[0] being "ilp"): the same as
 * abc_command_main (ilp.c). Returns the exit code. The command table does not
 * use it: it is exported for tests/test_ilp.c, which runs the command inside
 * the test's process to read what it prints. */
int abc_cmd_ilp(int argc, char **argv);


#endif
