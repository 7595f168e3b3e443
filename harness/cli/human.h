/*
 * human.h — what `plan`, `bound` and `import` print for a person (human.c):
 * byte counts in B, KiB, MiB or GiB (raw bytes with --bytes), the tensors
 * that make up the peak and the ones that set a plan's top; and the runtime
 * profile options (--profile, --io, --align) every one of those commands
 * reads the same way. Machine formats (CSV, JSON, YAML, the database) keep
 * plain bytes and never come through here.
 */
#ifndef AB_CLI_HUMAN_H
#define AB_CLI_HUMAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/problem.h"
#include "harness/cli/options.h"
#include "harness/formats/profile.h"

#define ABC_BYTES_LEN 48

/* v into buf (ABC_BYTES_LEN bytes) for a person: "N B" under 1 KiB, else
 * "x.xx KiB", "x.xx MiB" or "x.xx GiB" (binary multiples, two decimals);
 * with raw, "N bytes". Returns buf. */
const char *abc_bytes(char *buf, int64_t v, bool raw);

/* Prints "label      <abc_bytes>" and a newline. */
void abc_print_size(FILE *to, const char *label, int64_t v, bool raw);

/* What makes up the peak: the arena tensors of p live at instruction instr,
 * largest first (name, size, share of peak; with offsets, p's plan offsets
 * indexed like p's tensors, each tensor's offset too), at most
 * ABC_PEAK_ROWS of them then a line for the rest. Returns 0 or an exit code. */
#define ABC_PEAK_ROWS 12
int abc_print_peak(FILE *to, const ab_problem *p, int64_t instr, int64_t peak,
                   const int64_t *offsets, bool raw);

/* Which tensors set the plan's top (offset + size = arena: name, offset,
 * size, live range) and the fragmentation, arena minus peak live bytes.
 * offsets indexed like view's tensors. */
void abc_print_top(FILE *to, const ab_problem *view, const int64_t *offsets, int64_t arena,
                   int64_t peak, bool raw);

/* Reads --profile, --align and (with io_option) --io of a into *c; prints the
 * misuse and returns 2, else 0. */
int abc_profile_args(const abc_args *a, bool io_option, abf_profile_choice *c);

/* Applies *c to p (profile.h); prints the error and returns its exit code
 * (p is then freed), else 0. */
int abc_profile_apply(const abf_profile_choice *c, ab_problem *p);

/* The profile to take a suite under when reading the plan file at plan
 * (validate, export): the command line's (abc_profile_args), or, when it
 * gives none, the one the plan records (DESIGN.md §4); a command line's that
 * differs from the record is a usage error saying both. 0 or the exit code. */
int abc_plan_profile(const abc_args *a, const char *plan, abf_profile_choice *c);

#endif
