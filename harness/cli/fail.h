/*
 * fail.h — the command layer's one way to report an error: "arenabench: ..."
 * on stderr and the exit code (DESIGN.md §5: 1 a check failed, 2 bad usage
 * or input, 3 internal error). Library code never prints; it returns a status
 * and an ab_error, and the command hands that error to abc_fail.
 */
#ifndef AB_CLI_FAIL_H
#define AB_CLI_FAIL_H

#include "core/ab.h"

struct abc_command;

#define ABC_EXIT_CHECK 1
#define ABC_EXIT_USAGE 2
#define ABC_EXIT_INTERNAL 3

/* Prints "arenabench: <err->msg>" to stderr; returns the exit code of
 * err->status (ab_status_exit_code). */
int abc_fail(const ab_error *err);

/* Prints "arenabench: <message>" to stderr; returns code. */
__attribute__((format(printf, 2, 3))) int abc_failf(int code, const char *fmt, ...);

/* Prints "arenabench: <message>" to stderr: a note, not an error. */
__attribute__((format(printf, 1, 2))) void abc_note(const char *fmt, ...);

/* A misuse of command c: prints "arenabench: <message>", its usage line and
 * where to read more, to stderr; returns 2. */
__attribute__((format(printf, 2, 3))) int abc_usage_error(const struct abc_command *c,
                                                          const char *fmt, ...);

#endif
