/*
 * common.h — steps that more than one command takes (common.c): load a suite,
 * print byte figures and the checker's verdict, read numbers and plan file
 * formats from the command line, find a run in the results database. Each
 * prints its own error (fail.h) and returns 0 or the exit code.
 */
#ifndef AB_CLI_COMMON_H
#define AB_CLI_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/problem.h"
#include "oracle/check.h"

struct abr_store;

/* Loads the suite at path (any registered format) into *p; on failure prints
 * the error and returns its exit code (*p then holds nothing to free). */
int abc_load_suite(const char *path, ab_problem *p);

/* Prints "label      N bytes". */
void abc_print_bytes(FILE *to, const char *label, int64_t v);

/* Prints the checker's verdict and its messages; returns 0 or 1 (invalid). */
int abc_print_verdict(const abo_report *r, FILE *to);

/* A plan file's --format: NULL or "csv" or "minimalloc". */
bool abc_plan_format_ok(const char *format);
bool abc_plan_format_is_minimalloc(const char *format);

/* Parses a number > 0 (or >= 0 with zero_ok), the whole of s, into *out. */
bool abc_parse_number(const char *s, double *out, bool zero_ok);

/* Resolves which ("latest", NULL or an id) to a run of db, found at path
 * (tag: only runs with that tag count for latest; NULL for any). Prints and
 * returns 2 when there is none; 0 otherwise. */
int abc_resolve_run(struct abr_store *db, const char *path, const char *which, const char *tag,
                    int64_t *run);

#endif
