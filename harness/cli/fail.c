/*
 * fail.c — the command layer's error printer (fail.h): every message of
 * arenabench starts with "arenabench: " and goes to stderr.
 */
#include "core/buf.h"
#include "harness/cli/fail.h"

#include <stdarg.h>
#include <stdio.h>

#include "harness/cli/options.h"

int abc_fail(const ab_error *err) {
    fprintf(stderr, "arenabench: %s\n", ab_term(err->msg));
    return ab_status_exit_code(err->status);
}

/* "arenabench: <message>\n" on stderr. */
static void say(const char *fmt, va_list ap) {
    char small[1024]; /* names in the message reach the terminal escaped */
    vsnprintf(small, sizeof small, fmt, ap);
    fprintf(stderr, "arenabench: %s\n", ab_term(small));
}

int abc_failf(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    return code;
}

void abc_note(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
}

int abc_usage_error(const abc_command *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    say(fmt, ap);
    va_end(ap);
    fprintf(stderr, "usage: arenabench %s\n(see 'arenabench %s --help')\n", c->usage, c->name);
    return ABC_EXIT_USAGE;
}
