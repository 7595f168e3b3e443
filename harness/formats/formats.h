/*
 * formats.h — the one table of suite formats. Every command that reads a
 * suite (plan, bound, validate, ilp, run, export, import) and every folder
 * walk (run DIR) goes through it, so they all accept the same files.
 *
 *   name        title            suffixes        recognised by content   written
 *   yaml        suite YAML       .yaml .yml      no (the default)        yes
 *   minimalloc  MiniMalloc CSV   .csv            no                      yes
 *   tflite      TFLite model     .tflite         yes ("TFL3" at byte 4)  no
 *   onnx        ONNX model       .onnx           yes (a ModelProto's     no
 *                                                usual first bytes)
 *
 * A file's format: the first row whose sniff recognises its first bytes (a
 * regular file's only: a pipe, a FIFO or a device is read once, by its
 * loader), else the row whose suffix its name ends with (case-insensitive),
 * else YAML (a suite may have any name when given explicitly). Adding a format is one
 * file (its loader and its const abf_format row) and one line in formats.c's
 * table.
 */
#ifndef ABF_FORMATS_H
#define ABF_FORMATS_H

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/tflite.h"

/* Options that only some formats take (ABF_FORMAT_MODEL_OPTS: a model's
 * dynamic dimensions and constant folding, `import`'s options). */
typedef struct abf_load_options {
    bool fold_constants;
    const abf_tflite_dim *dims;
    size_t ndims;
    int64_t assume_dynamic; /* 0: none */
} abf_load_options;

enum { ABF_FORMAT_MODEL_OPTS = 1u << 0 };

typedef struct abf_format {
    const char *name;               /* "yaml": for --format and messages */
    const char *title;              /* "suite YAML" */
    const char *const *suffixes;    /* NULL-terminated, e.g. {".yaml", ".yml", NULL} */
    bool (*sniff)(const unsigned char *head, size_t n); /* NULL: by name only */
    unsigned flags;                 /* ABF_FORMAT_* */
    /* Loads path into *p (initialised by the call, empty on failure); o is
     * never NULL (zeroed when nothing was asked). */
    ab_status (*load)(const char *path, const abf_load_options *o, ab_problem *p, ab_error *err);
    /* Appends p in this format to b; NULL when the format is read-only. */
    ab_status (*render)(const ab_problem *p, ab_buf *b, ab_error *err);
} abf_format;

/* The table (formats.c), NULL-terminated; the first row is the fallback. */
extern const abf_format *const abf_formats[];

/* The row called name, or NULL. */
const abf_format *abf_format_named(const char *name);

/* The format of the file at path (see above): reads its first bytes. NULL,
 * with err set (AB_EINPUT, naming the file), when it cannot be read, or, when
 * strict, when neither its content nor its name says (no YAML fallback). */
const abf_format *abf_format_of(const char *path, bool strict, ab_error *err);

/* True when name ends with a suffix of some row: what a folder walk takes. */
bool abf_format_suffix_known(const char *name);

/* Appends "suite YAML (.yaml, .yml), MiniMalloc CSV (.csv), ..." to b. */
void abf_format_list(ab_buf *b);

/* Loads the suite at path in its format (abf_format_of, not strict) into *p
 * (initialised by the call; empty on failure). o may be NULL. */
ab_status abf_load_problem(const char *path, const abf_load_options *o, ab_problem *p,
                           ab_error *err);

/* ---- input budgets ------------------------------------------------------------
 * Limits on what a suite may ask of the loader, checked before the work they
 * bound, each failure exit 2 with a message naming the file (and, where there
 * is one, the line, column and field) and the limit's variable. Each is read
 * from the environment at every load (a positive decimal integer; anything
 * else is AB_EINPUT naming the variable):
 *
 *   variable                     default      bounds
 *   ARENABENCH_MAX_FILE_BYTES    268435456    an input file's size (256 MiB):
 *                                             a suite, a plan, a model, a
 *                                             regular file or not (a pipe, a
 *                                             FIFO, a device: at most this
 *                                             + 1 bytes are read)
 *   ARENABENCH_MAX_DEPTH         64           nested YAML collections
 *   ARENABENCH_MAX_ALIAS_NODES   1000000      nodes YAML aliases expand to
 *   ARENABENCH_MAX_TENSORS       10000000     tensors in a suite, after
 *                                             aliases and generators
 *   ARENABENCH_MAX_GENERATED     1000000      tensors a `generate:` makes (no
 *                                             file bytes bound them)
 *
 * Together they bound a load's time (libyaml's cost is linear in the file for
 * a bounded depth) and memory: a loaded tensor holds about 270 bytes (peak
 * RSS of `bound` on generated random suites: 29 MB at 100k tensors, 269 MB at
 * 1M), a planned one about 420 (`plan -p first-fit`: 419 MB at 1M). */
typedef struct abf_limits {
    int64_t file_bytes;
    int64_t depth;
    int64_t alias_nodes;
    int64_t tensors;
    int64_t generated;
} abf_limits;

#define ABF_DEFAULT_MAX_FILE_BYTES ((int64_t)256 << 20)
#define ABF_DEFAULT_MAX_DEPTH 64
#define ABF_DEFAULT_MAX_ALIAS_NODES 1000000
#define ABF_DEFAULT_MAX_TENSORS 10000000
#define ABF_DEFAULT_MAX_GENERATED 1000000

/* The limits in force: the defaults above, each replaced by its variable when
 * set. AB_EINPUT, naming the variable, when one is not a positive integer. */
ab_status abf_limits_get(abf_limits *l, ab_error *err);

/* Reads the input file at path ("-": standard input) whole into *buf and
 * *len, as core/file.h's ab_read_file under the file-size limit in force
 * (ARENABENCH_MAX_FILE_BYTES): "PATH: the file has N bytes, above the limit
 * of L (ARENABENCH_MAX_FILE_BYTES)", AB_EINPUT (exit 2), for a larger file of
 * any type. The one reader of every input file (suite, plan, model). */
ab_status abf_read_input(const char *path, char **buf, size_t *len, ab_error *err);

#endif
