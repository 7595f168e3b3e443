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
#include "harness/cli/fail.h"
#include "harness/cli/human.h"
#include "harness/formats/formats.h"
#include "harness/formats/suite.h"
#include "harness/formats/tflite.h"
#include "oracle/bounds.h"

/* What the command line asked for. */
typedef struct import_args {
    const char *path, *out, *name;
    bool fold_constants;
    abf_tflite_dim dims[ABC_IMPORT_MAX_DIMS];
    size_t ndims;
    int64_t assume_dynamic; /* 0: none */
    abf_profile_choice profile; /* --profile, --io, --align */
    bool raw;                   /* --bytes */
} import_args;

/* Parses --dim NAME=VALUE (split at the last '=': names may hold '='); the
 * name is copied into names[a->ndims]. Returns 0 or the exit code. */
static int parse_dim(const abc_command *c, import_args *a, const char *s, char names[][256]) {
    const char *eq = strrchr(s, '=');
    int64_t v;
    if (eq == NULL || eq == s || !ab_parse_int64(eq + 1, strlen(eq + 1), &v) || v < 1 ||
        v > AB_MAX_SIZE)
        return abc_usage_error(
            c, "--dim takes NAME=VALUE with a tensor name and a value >= 1, not '%s'", s);
    size_t n = (size_t)(eq - s);
    if (n >= 256) return abc_usage_error(c, "--dim: a tensor name of %zu bytes is too long", n);
    memcpy(names[a->ndims], s, n);
    names[a->ndims][n] = '\0';
    a->dims[a->ndims] = (abf_tflite_dim){.tensor = names[a->ndims], .value = v};
    a->ndims++;
    return 0;
}

/* The parsed command line into *a (names of --dim point into names[]).
 * Returns 0 or the exit code of a misuse. */
static int read_args(const abc_args *args, import_args *a, char names[][256]) {
    const abc_command *c = args->cmd;
    a->out = abc_opt(args, "output", NULL);
    a->name = abc_opt(args, "name", NULL);
    a->fold_constants = abc_flag(args, "fold-constants");
    if (a->name != NULL && *a->name == '\0')
        return abc_usage_error(c, "option --name needs a value");
    const char *dyn = abc_opt(args, "assume-dynamic", NULL);
    if (dyn != NULL && (!ab_parse_int64(dyn, strlen(dyn), &a->assume_dynamic) ||
                        a->assume_dynamic < 1 || a->assume_dynamic > AB_MAX_SIZE))
        return abc_usage_error(c, "--assume-dynamic takes a value >= 1, not '%s'", dyn);
    const char *dims[ABC_IMPORT_MAX_DIMS];
    int ndims = abc_opt_all(args, "dim", dims);
    for (int i = 0; i < ndims; i++) {
        int rc = parse_dim(c, a, dims[i], names);
        if (rc != 0) return rc;
    }
    int rc = abc_profile_args(args, true, &a->profile);
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
    static char names[ABC_IMPORT_MAX_DIMS][256];
    import_args a = {0};
    int rc = read_args(args, &a, names);
    if (rc != 0) return rc;
    ab_error err;
    ab_error_clear(&err);
    const abf_format *fmt = abf_format_of(a.path, true, &err);
    if (fmt == NULL) return abc_fail(&err);
    if (!(fmt->flags & ABF_FORMAT_MODEL_OPTS) &&
        (a.fold_constants || a.ndims > 0 || a.assume_dynamic > 0))
        return abc_usage_error(args->cmd, "--fold-constants, --dim and --assume-dynamic apply to "
                               "models, not to a %s", fmt->title);
    abf_load_options lo = {.fold_constants = a.fold_constants,
                           .dims = a.dims,
                           .ndims = a.ndims,
                           .assume_dynamic = a.assume_dynamic};
    ab_problem p;
    if (fmt->load(a.path, &lo, &p, &err) != AB_OK) return abc_fail(&err);
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
