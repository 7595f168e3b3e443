/*
 * plan_formats.h — the one table of plan file formats (DESIGN.md §4). `plan
 * -o`, `validate` and `export --plan` find a format here, by its name
 * (--format) or by the first line of a plan file (sniff), and every list of
 * plan format names the command prints is a walk of this table.
 *
 *   name          read  write  sniff (the first line of the file)   defined in
 *   csv           yes   yes    a `tensor` column                    plan_csv.c
 *   minimalloc    yes   yes    an `id` (buffer, buffer_id) column   minimalloc.c
 *   c-header      no    yes    -                                    plan_out.c
 *   json          no    yes    -                                    plan_out.c
 *   tflm-offline  no    yes    -  (a copy of a .tflite model)       tflite_offline.c
 *
 * A format that reads is a plan file: `plan -o` writes it (a valid plan or
 * not, so that `validate` can show what is wrong), `validate` and `export
 * --plan` read it. A format that only writes is an export of a plan the
 * checker found valid (`export --plan`).
 *
 * Adding a format is one file (its reader and writer, and its const
 * abf_plan_format row) and one line in plan_formats.c's table; the commands,
 * their help and their messages take it from there.
 */
#ifndef ABF_PLAN_FORMATS_H
#define ABF_PLAN_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/buf.h"
#include "core/problem.h"
#include "harness/formats/plan_out.h"

/* Formats written into a copy of the TFLite model the suite describes (o->model
 * names it): `export` needs the model, a file to write (never the model
 * itself), and checks that the plan still holds once TFLite Micro rounds every
 * tensor up to 16 bytes. */
enum { ABF_PLAN_FORMAT_TFLM_MODEL = 1u << 0 };

typedef struct abf_plan_format {
    const char *name;    /* "csv": for --format and messages */
    const char *summary; /* one line, for the commands' help */
    /* true when the first n bytes of a file (at most ABF_PLAN_SNIFF_BYTES) are
     * this format's; NULL for a format that cannot be read. */
    bool (*sniff)(const unsigned char *head, size_t n);
    /* Reads the plan at path ("-": standard input) for view (a suite's arena
     * view) into *pl (initialised by the call). NULL: the format only writes. */
    ab_status (*read)(const char *path, const ab_problem *view, ab_plan *pl, ab_error *err);
    /* Appends o's plan in this format to b. Formats that read write o->plan;
     * the others o->offsets (a valid plan). */
    ab_status (*write)(const abf_plan_out *o, ab_buf *b, ab_error *err);
    unsigned flags; /* ABF_PLAN_FORMAT_* */
} abf_plan_format;

/* The table (plan_formats.c), NULL-terminated; the first row is the default
 * (`plan -o`, `validate`, and a plan file no sniff recognises). */
extern const abf_plan_format *const abf_plan_formats[];

/* The row called name, or NULL. */
const abf_plan_format *abf_plan_format_named(const char *name);

/* How much of a file the sniffs see. */
#define ABF_PLAN_SNIFF_BYTES 1024

/* The format of the plan file at path: the first row whose sniff recognises
 * its first bytes (a regular file's only: a pipe or a device is read once, by
 * the reader), else the default row (whose reader then reports a file
 * that cannot be read or is not a plan). Never NULL. */
const abf_plan_format *abf_plan_format_of(const char *path);

/* Appends the names of the rows that read (readers_only) or of every row
 * that writes, as "csv, minimalloc or json", to b. */
void abf_plan_format_list(ab_buf *b, bool readers_only);

/* The first line of a plan file that records the profile it was made under
 * (plan_out.h's abf_plan_out.profile), before the header. */
#define ABF_PLAN_RECORD "# arenabench: "

/* The profile record of the plan file at path (its first line, when that is
 * ABF_PLAN_RECORD and a record) into out; false when it has none or cannot be
 * read. */
bool abf_plan_profile_of(const char *path, char *out, size_t len);

/* For sniffs: whether the first line of head that is not blank or a comment ('#') (after a UTF-8
 * byte order mark), split at commas, has a field that is name once spaces,
 * tabs and enclosing double quotes are dropped (case-insensitive when
 * nocase). */
bool abf_plan_head_has_column(const unsigned char *head, size_t n, const char *name, bool nocase);

#endif
