/*
 * cmd_export.c — `arenabench export SUITE --format minimalloc|yaml [-o F]`:
 * writes a suite in another format (the command layer).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "core/buf.h"
#include "harness/load.h"
#include "harness/minimalloc.h"
#include "harness/suite.h"

int abh_cmd_export(const char *path, const char *format, const char *out) {
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    bool mm = format == NULL || strcmp(format, "minimalloc") == 0;
    if (!mm && strcmp(format, "yaml") != 0) {
        fprintf(stderr, "arenabench: --format takes minimalloc or yaml, not '%s'\n", format);
        return 2;
    }
    if (abh_load_problem(path, &p, &err) != AB_OK) {
        fprintf(stderr, "arenabench: %s\n", err.msg);
        return ab_status_exit_code(err.status);
    }
    ab_buf b = {0};
    ab_status st = mm ? abh_minimalloc_render(&p, &b, &err) : abh_suite_render(&p, &b, &err);
    if (st == AB_OK) st = ab_buf_write_file(&b, out ? out : "-", &err);
    if (st == AB_OK && mm && p.io == AB_IO_SEPARATE && ab_problem_io_outside(&p) > 0)
        fprintf(stderr, "arenabench: note: %s keeps its inputs and outputs outside the arena "
                "(io: separate); they are not in the MiniMalloc file\n", path);
    ab_buf_free(&b);
    ab_problem_free(&p);
    if (st != AB_OK) {
        fprintf(stderr, "arenabench: %s\n", err.msg);
        return ab_status_exit_code(st);
    }
    return 0;
}
