/*
 * import.c — `arenabench import FILE`: reads a model or a problem file in
 * a foreign format and writes it as suite YAML (DESIGN.md §3).
 *
 * The formats are the rows of the one formats table (harness/formats/
 * formats.h), chosen by content first, then by extension; anything else is an
 * "unknown format" error here (other commands read it as YAML).
 */
#include "core/buf.h"
#include "harness/cli/import.h"

#include <stdio.h>
#include <string.h>

#include "core/problem.h"
#include "harness/cli/commands.h"
#include "harness/cli/common.h"
#include "harness/cli/fail.h"
#include "harness/cli/human.h"
#include "harness/formats/formats.h"
#include "harness/formats/suite.h"
#include "harness/formats/tflite.h"
#include "oracle/bounds.h"

/* What the command line asked for. */
typedef struct import_args {
    const char *path, *out, *name;
    abc_model_opts *model;      /* --fold-constants, --dim, --assume-dynamic */
    abf_profile_choice profile; /* --profile, --io, --align, --capacity */
    bool raw;                   /* --bytes */
} import_args;

/* The parsed command line into *a. Returns 0 or the exit code of a misuse. */
static int read_args(const abc_args *args, import_args *a) {
    const abc_command *c = args->cmd;
    a->out = abc_opt(args, "output", NULL);
    a->name = abc_opt(args, "name", NULL);
    if (a->name != NULL && *a->name == '\0')
        return abc_usage_error(c, "option --name needs a value");
    int rc = abc_model_args(args, a->model);
    if (rc == 0) rc = abc_profile_args(args, true, &a->profile);
    if (rc != 0) return rc;
    a->raw = abc_flag(args, "bytes");
    if (args->noperands == 0) return abc_usage_error(c, "expected a file to import");
    a->path = args->operands[0];
    if (strcmp(a->path, "-") == 0) return abc_usage_error(c, "import reads a file, not stdin");
    return 0;
}

/* Writes the suite (stdout without -o, else a summary on stdout). */
static int write_suite(const import_args *a, const ab_problem *p) {
    ab_error err;
    ab_error_clear(&err);
    if (abf_suite_write(p, a->out ? a->out : "-", &err) != AB_OK) return abc_fail(&err);
    if (a->out != NULL && strcmp(a->out, "-") != 0) {
        abo_bounds b;
        printf("suite      %s (%zu tensors)\n", ab_term(p->name), p->n);
        printf("from       %s\n", ab_term(p->description ? p->description : a->path));
        if (abf_profile_changes(&a->profile))
            printf("profile    %s (io %s, align %lld%s)\n", a->profile.profile->name,
                   p->io == AB_IO_WORKSPACE ? "workspace" : "separate", (long long)p->alignment,
                   a->profile.round_sizes && a->profile.align > 1 ? ", sizes rounded" : "");
        if (abo_bounds_compute(p, &b, &err) == AB_OK) {
            abc_print_size(stdout, "peak-live", b.max_load, a->raw);
            abc_print_size(stdout, "physical", b.physical_bytes, a->raw);
        }
        printf("written    %s\n", a->out);
    }
    return 0;
}

int abc_import(const abc_args *args) {
    static abc_model_opts model;
    import_args a = {.model = &model};
    int rc = read_args(args, &a);
    if (rc != 0) return rc;
    ab_error err;
    ab_error_clear(&err);
    const abf_format *fmt = abf_format_of(a.path, true, &err);
    if (fmt == NULL) return abc_fail(&err);
    if (!(fmt->flags & ABF_FORMAT_MODEL_OPTS) && abc_model_opts_given(&model))
        return abc_usage_error(args->cmd, "--fold-constants, --dim and --assume-dynamic apply to "
                               "models, not to a %s", fmt->title);
    ab_problem p;
    if (fmt->load(a.path, &model.lo, &p, &err) != AB_OK) return abc_fail(&err);
    rc = abc_profile_apply(&a.profile, &p);
    if (rc != 0) return rc;
    if (a.name != NULL) {
        char *name = ab_strdup(a.name);
        if (name == NULL) {
            ab_problem_free(&p);
            return abc_failf(ABC_EXIT_INTERNAL, "out of memory");
        }
        ab_free(p.name);
        p.name = name;
    }
    rc = write_suite(&a, &p);
    ab_problem_free(&p);
    return rc;
}

int abc_cmd_import(int argc, char **argv) { return abc_command_main(argc, argv); }
