/*
 * export.c — `arenabench export SUITE`: the suite in another format of the
 * formats table (MiniMalloc CSV by default, or canonical YAML).
 */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "harness/cli/commands.h"
#include "harness/cli/fail.h"
#include "harness/formats/formats.h"

/* "--format takes minimalloc or yaml, not 'x'": every format that renders. */
static int bad_format(const char *format) {
    char names[256] = "";
    size_t used = 0;
    for (size_t i = 0; abh_formats[i] != NULL; i++) {
        const abh_format *f = abh_formats[i];
        if (f->render != NULL && used < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s %s",
                                     i == 0 ? "" : " or", f->name);
    }
    return abc_failf(ABC_EXIT_USAGE, "--format takes%s, not '%s'", names, format);
}

int abc_export(const abc_args *a) {
    if (a->noperands != 1) return abc_usage_error(a->cmd, "expected one suite file");
    const char *path = a->operands[0], *format = abc_opt(a, "format", "minimalloc");
    const abh_format *to = abh_format_named(format);
    if (to == NULL || to->render == NULL) return bad_format(format);
    ab_problem p;
    ab_error err;
    ab_error_clear(&err);
    if (abh_load_problem(path, NULL, &p, &err) != AB_OK) return abc_fail(&err);
    ab_buf b = {0};
    ab_status st = to->render(&p, &b, &err);
    if (st == AB_OK) st = ab_buf_write_file(&b, abc_opt(a, "output", "-"), &err);
    bool mm = strcmp(to->name, "minimalloc") == 0;
    if (st == AB_OK && mm && p.io == AB_IO_SEPARATE && ab_problem_io_outside(&p) > 0)
        abc_note("note: %s keeps its inputs and outputs outside the arena (io: separate); "
                  "they are not in the MiniMalloc file", path);
    ab_buf_free(&b);
    ab_problem_free(&p);
    return st == AB_OK ? 0 : abc_fail(&err);
}
