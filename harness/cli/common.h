/*
 * common.h — steps that more than one command takes (common.c): load a suite,
 * print byte figures and the checker's verdict, read numbers and plan file
 * formats from the command line, list the format tables in help, find a run
 * in the results database. Each prints its own error (fail.h) and returns 0
 * or the exit code.
 */
#ifndef AB_CLI_COMMON_H
#define AB_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/problem.h"
#include "harness/cli/options.h"
#include "harness/formats/formats.h"
#include "oracle/certify.h"
#include "oracle/check.h"

struct abs_store;
struct abf_plan_format;

/* Loads the suite at path (any registered format) into *p; on failure prints
 * the error and returns its exit code (*p then holds nothing to free). */
int abc_load_suite(const char *path, ab_problem *p);

/* A model's options (--fold-constants, --dim NAME=VALUE..., --assume-dynamic
 * N), taken by every command that reads a model: import, plan, bound, run,
 * export. lo is what the loaders see; its dims point into this struct. */
#define ABC_MAX_DIMS 256 /* --dim given at most this many times */
typedef struct abc_model_opts {
    abf_load_options lo;
    abf_tflite_dim dims[ABC_MAX_DIMS];
    char names[ABC_MAX_DIMS][256];
} abc_model_opts;

/* Reads the model options of a into *m; 0 or the exit code of a misuse. */
int abc_model_args(const abc_args *a, abc_model_opts *m);

/* Whether any model option was given. */
bool abc_model_opts_given(const abc_model_opts *m);

/* abc_load_suite with a model's options: a usage error (exit 2) when they are
 * given for a file that is not a model. */
int abc_load_suite_with(const char *path, const abc_model_opts *m, ab_problem *p);

/* Prints "label      N bytes". */
void abc_print_bytes(FILE *to, const char *label, int64_t v);

/* Prints the checker's verdict and its messages; returns 0 or 1 (invalid).
 * A plan only over the capacity (ABO_OVER_CAPACITY) is said to be otherwise
 * valid, with the excess; it still returns 1 (`validate`: it does not fit). */
int abc_print_verdict(const abo_report *r, FILE *to);

/* What the capacity says of a plan the checker found valid but over it
 * (`plan`, `run`'s over-capacity and infeasible): the arena, the capacity,
 * the excess, and the refutation that proved no plan fits (refuted_by, bound)
 * or that nothing proved it (refuted_by ABO_PROOF_NONE). */
void abc_print_over_capacity(const abo_report *r, int64_t capacity, abo_proof refuted_by,
                             int64_t bound, FILE *to);

/* --containment auto|cgroup|subreaper (spawn.h, Containment) for this
 * process's jobs: sets the mode; returns 0, the usage error's exit code for
 * another word, or 3 when cgroup is asked for and the machine cannot give
 * one (the message says why). */
int abc_containment_arg(const abc_args *a);

/* The plan file format --format names (a row of the plan formats table that
 * reads: harness/formats/plan_formats.h), the table's default when it is not
 * given. Returns 0, or prints the usage error listing every such row and
 * returns its exit code. */
int abc_plan_file_format(const abc_args *a, const struct abf_plan_format **f);

/* Help listings walked from the tables, for the command table's extra hooks:
 * the plan file formats (plan, validate); the suite formats that render and
 * the plan formats that write (export); the report formats (report). */
void abc_print_plan_file_formats(FILE *to);
void abc_print_export_formats(FILE *to);
void abc_print_report_formats(FILE *to);

/* Parses a number > 0 (or >= 0 with zero_ok), the whole of s, into *out. */
bool abc_parse_number(const char *s, double *out, bool zero_ok);

/* Resolves which ("latest", NULL or an id) to a run of db, found at path
 * (tag: only runs with that tag count for latest; NULL for any). Prints and
 * returns 2 when there is none; 0 otherwise. */
int abc_resolve_run(struct abs_store *db, const char *path, const char *which, const char *tag,
                    int64_t *run);

#endif
