/*
 * cmd_import.c — `arenabench import FILE`: reads a model or a problem file in
 * a foreign format and writes it as suite YAML (DESIGN.md §3). This is the
 * command layer: it parses its options, prints, and returns exit codes.
 *
 * The formats are the rows of the one formats table (harness/formats/
 * formats.h), chosen by content first, then by extension; anything else is an
 * "unknown format" error here (other commands read it as YAML).
 */
#include "harness/cli/import.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/formats.h"
#include "harness/formats/suite.h"
#include "harness/formats/tflite.h"

#define EXIT_USAGE 2
#define MAX_DIM_OPTS 256 /* --dim given at most this many times */

#define USAGE                                                                                      \
    "import FILE [-o SUITE.yaml] [--name NAME] [--fold-constants] [--dim NAME=VALUE]...\n"         \
    "                         [--assume-dynamic=N]"

static const char help_text[] =
    "usage: arenabench " USAGE "\n\n"
    "Turn a model or a problem file into a suite (YAML, on stdout without -o).\n"
    "\nFormats, recognised by content, then by file name extension (the one formats table,\n"
    "which every command reads):\n"
    "  TFLite model (.tflite)  subgraph 0 of a TensorFlow Lite flatbuffer. Planned: every\n"
    "      tensor that is not constant (no data in its buffer) and that an operator reads or\n"
    "      writes, or that is a graph input or output. Live range [start, end] in operator\n"
    "      indices, inclusive: from the operator that writes the tensor to the last one that\n"
    "      reads it; graph inputs live from operator 0 (kind input), graph outputs to the last\n"
    "      operator (kind output). A tensor written but never read keeps end = start. Sizes\n"
    "      from shape x element bits (int4 packed), each tensor keeping its shape and dtype.\n"
    "      Tensors computed from constants alone (e.g. DEQUANTIZE of float16 weights) are\n"
    "      kept unless --fold-constants. Names that repeat get '#<index>' appended.\n"
    "  MiniMalloc CSV (.csv)   id,lower,upper,size[,alignment][,offset]. MiniMalloc's live\n"
    "      intervals are half-open [lower, upper), so end = upper - 1. A file named like\n"
    "      A.1048576.csv gives suite A with capacity 1048576. An offset column is a\n"
    "      solution, not a constraint: it is not imported (check it with 'arenabench\n"
    "      validate SUITE FILE --format minimalloc').\n"
    "  suite YAML (.yaml, .yml) read and written again, normalised.\n"
    "\nOptions:\n"
    "  -o, --output FILE       write the suite there (default stdout)\n"
    "      --name NAME         the suite's name (default: the file's base name)\n"
    "      --fold-constants    leave out tensors computed from constants alone: a runtime\n"
    "                          that folds them keeps them with the weights\n"
    "      --dim NAME=VALUE    every dynamic dimension (-1 in shape_signature) of tensor NAME\n"
    "                          is VALUE; repeat for several tensors (no shape inference: each\n"
    "                          dynamic tensor needs its own value, or --assume-dynamic)\n"
    "      --assume-dynamic=N  every other dynamic dimension is N (without it, a dynamic\n"
    "                          dimension is an error naming the tensor)\n"
    "\nA truncated or corrupt file is an error giving the byte offset where it went wrong.\n"
    "\nExit status: 0 ok; 2 bad usage or input (unknown format, malformed file, dynamic\n"
    "dimension without a value); 3 internal error.\n"
    "\nExample:\n"
    "  arenabench import model.tflite --fold-constants -o suites/models/model.yaml\n";

/* What the command line asked for. */
typedef struct import_args {
    const char *path, *out, *name;
    bool fold_constants;
    abh_tflite_dim dims[MAX_DIM_OPTS];
    size_t ndims;
    int64_t assume_dynamic; /* 0: none */
} import_args;

/* ---- messages ------------------------------------------------------------------ */

static int report_error(const ab_error *err) {
    fprintf(stderr, "arenabench: %s\n", err->msg);
    return ab_status_exit_code(err->status);
}

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "arenabench: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nusage: arenabench " USAGE "\n(see 'arenabench import --help')\n");
    return EXIT_USAGE;
}

/* ---- options -------------------------------------------------------------------- */

/* When argv[*i] is option lng (or shrt, when not NULL), stores its value in
 * *val ("--x=v", "--x v", "-xv", "-x v") and returns 1; returns -1 when the
 * value is missing, 0 when argv[*i] is another option. */
static int opt_value(int argc, char **argv, int *i, const char *shrt, const char *lng,
                     const char **val) {
    const char *a = argv[*i];
    size_t n = strlen(lng);
    if (strncmp(a, lng, n) == 0 && (a[n] == '=' || a[n] == '\0')) {
        if (a[n] == '=') {
            *val = a + n + 1;
            return 1;
        }
    } else if (shrt != NULL && strncmp(a, shrt, 2) == 0) {
        if (a[2] != '\0') {
            *val = a + 2;
            return 1;
        }
    } else {
        return 0;
    }
    if (*i + 1 >= argc) return -1;
    *val = argv[++*i];
    return 1;
}

/* Parses --dim NAME=VALUE (split at the last '=': names may hold '='); the
 * name is copied into names[a->ndims]. Returns 0 or the exit code. */
static int parse_dim(import_args *a, const char *s, char names[][256]) {
    const char *eq = strrchr(s, '=');
    int64_t v;
    if (eq == NULL || eq == s || !ab_parse_int64(eq + 1, strlen(eq + 1), &v) || v < 1 ||
        v > AB_MAX_SIZE)
        return usage_error("--dim takes NAME=VALUE with a tensor name and a value >= 1, not '%s'",
                           s);
    if (a->ndims == MAX_DIM_OPTS)
        return usage_error("option --dim given more than %d times", MAX_DIM_OPTS);
    size_t n = (size_t)(eq - s);
    if (n >= 256) return usage_error("--dim: a tensor name of %zu bytes is too long", n);
    memcpy(names[a->ndims], s, n);
    names[a->ndims][n] = '\0';
    a->dims[a->ndims] = (abh_tflite_dim){.tensor = names[a->ndims], .value = v};
    a->ndims++;
    return 0;
}

/* Parses argv into *a (names of --dim point into names[]). Returns 0, 1 when
 * --help was printed, or the exit code of a usage error. */
static int parse_args(int argc, char **argv, import_args *a, char names[][256]) {
    bool only_operands = false;
    int nops = 0;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *val = NULL;
        int r;
        if (!only_operands && strcmp(s, "--") == 0) {
            only_operands = true;
        } else if (only_operands || s[0] != '-' || strcmp(s, "-") == 0) {
            if (nops++ > 0) return usage_error("unexpected operand '%s' (one file at a time)", s);
            a->path = s;
        } else if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            fputs(help_text, stdout);
            return 1;
        } else if (strncmp(s, "--fold-constants", 16) == 0 && (s[16] == '\0' || s[16] == '=')) {
            if (s[16] == '=') return usage_error("option --fold-constants takes no value");
            a->fold_constants = true;
        } else if ((r = opt_value(argc, argv, &i, "-o", "--output", &val)) != 0) {
            if (r < 0) return usage_error("option --output needs a value");
            a->out = val;
        } else if ((r = opt_value(argc, argv, &i, NULL, "--name", &val)) != 0) {
            if (r < 0 || *val == '\0') return usage_error("option --name needs a value");
            a->name = val;
        } else if ((r = opt_value(argc, argv, &i, NULL, "--assume-dynamic", &val)) != 0) {
            if (r < 0 || !ab_parse_int64(val, strlen(val), &a->assume_dynamic) ||
                a->assume_dynamic < 1 || a->assume_dynamic > AB_MAX_SIZE)
                return usage_error("--assume-dynamic takes a value >= 1, not '%s'",
                                   r < 0 ? "" : val);
        } else if ((r = opt_value(argc, argv, &i, NULL, "--dim", &val)) != 0) {
            if (r < 0) return usage_error("option --dim needs NAME=VALUE");
            int rc = parse_dim(a, val, names);
            if (rc != 0) return rc;
        } else {
            return usage_error("unknown option '%s'", s);
        }
    }
    if (a->path == NULL) return usage_error("expected a file to import");
    if (strcmp(a->path, "-") == 0) return usage_error("import reads a file, not stdin");
    return 0;
}

/* ---- the command -------------------------------------------------------------------- */

/* `arenabench import`: parses the options, picks the format, loads the file
 * and writes the suite (stdout without -o). Returns the exit code. */
int abh_cmd_import(int argc, char **argv) {
    static char names[MAX_DIM_OPTS][256];
    import_args a = {0};
    int rc = parse_args(argc, argv, &a, names);
    if (rc != 0) return rc == 1 ? 0 : rc;
    ab_error err;
    ab_error_clear(&err);
    const abh_format *fmt = abh_format_of(a.path, true, &err);
    if (fmt == NULL) return report_error(&err);
    if (!(fmt->flags & ABH_FORMAT_MODEL_OPTS) &&
        (a.fold_constants || a.ndims > 0 || a.assume_dynamic > 0))
        return usage_error("--fold-constants, --dim and --assume-dynamic apply to models, not "
                           "to a %s", fmt->title);
    abh_load_options lo = {.fold_constants = a.fold_constants,
                           .dims = a.dims,
                           .ndims = a.ndims,
                           .assume_dynamic = a.assume_dynamic};
    ab_problem p;
    if (fmt->load(a.path, &lo, &p, &err) != AB_OK) return report_error(&err);
    if (a.name != NULL) {
        char *name = ab_strdup(a.name);
        if (name == NULL) {
            ab_problem_free(&p);
            ab_fail(&err, AB_ENOMEM, "out of memory");
            return report_error(&err);
        }
        ab_free(p.name);
        p.name = name;
    }
    rc = 0;
    if (abh_suite_write(&p, a.out ? a.out : "-", &err) != AB_OK) {
        rc = report_error(&err);
    } else if (a.out != NULL && strcmp(a.out, "-") != 0) {
        printf("suite      %s (%zu tensors)\n", p.name, p.n);
        printf("from       %s\n", p.description ? p.description : a.path);
        printf("written    %s\n", a.out);
    }
    ab_problem_free(&p);
    return rc;
}
