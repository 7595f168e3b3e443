/*
 * csv.h — one CSV tokenizer for every CSV arenabench reads (plan files,
 * MiniMalloc CSV, an external planner's output). It splits a text into
 * records and fields and counts lines for messages; what the fields mean,
 * the header, and which columns are required stay with each format.
 *
 * What it accepts, in both modes:
 *   - records end in LF, CRLF or a lone CR; the last one may or may not;
 *   - a UTF-8 byte order mark (EF BB BF, all three bytes) before the first record;
 *   - blank lines (empty or spaces and tabs only), skipped anywhere;
 *   - spaces and tabs around a field, dropped.
 * With quotes on (RFC 4180), a field may be quoted with '"': a quote inside is
 * written twice, commas and line ends inside are data, blanks inside are kept.
 * With quotes off, '"' is an ordinary byte (MiniMalloc's format has no quoting).
 *
 * Example: the text "a, b\n\n\"x,y\",2\n" gives the records {a, b} on line 1
 * and {x,y | 2} on line 3 (quotes on).
 *
 * The reader works in place: fields are NUL-terminated inside the caller's
 * buffer (quoted fields unescaped there), so a record costs no allocation
 * beyond the reader's field array. A NUL byte in the text ends a field's
 * string early: formats reject such files before tokenizing.
 */
#ifndef AB_CSV_H
#define AB_CSV_H

#include "core/ab.h"

typedef struct ab_csv_field {
    char *s;      /* NUL-terminated, inside the buffer */
    size_t len;
    size_t col;   /* the byte column (from 1) where it starts on its line: its
                   * first byte, or its opening quote; for messages */
} ab_csv_field;

typedef struct ab_csv {
    /* set by ab_csv_init; names may be set by the caller at any time */
    const char *path;          /* names the file in messages */
    bool quotes;               /* RFC 4180 quoting */
    const char *const *names;  /* the header's column names, for messages about
                                * field i (NULL: the field is in the "header") */
    size_t nnames;
    /* the current record, after ab_csv_next */
    int line;                  /* the line it starts on, 1-based */
    ab_csv_field *f;           /* its fields, owned by the reader */
    size_t nf;
    /* private */
    char *buf;
    size_t len, pos, cap;
    int at;                    /* the line of buf[pos] */
    size_t bol;                /* where that line begins in buf */
} ab_csv;

/* Starts reading buf[0 .. len): not owned, written into as records are read,
 * and buf[len] must exist too (the last field's NUL goes there; ab_read_file's
 * buffers have it). path names the file in messages. */
void ab_csv_init(ab_csv *c, const char *path, char *buf, size_t len, bool quotes);

/* Reads the next record into c->f, c->nf and c->line; *eof is set (and c->nf
 * is 0) when there is none, c->line then being the line after the text.
 * AB_EINPUT (quotes on) for a malformed quoted field, with
 * "PATH:LINE: COLUMN: message" (COLUMN: "header", the column's name from
 * c->names, or "field N"); AB_ENOMEM "PATH: out of memory reading". */
ab_status ab_csv_next(ab_csv *c, bool *eof, ab_error *err);

/* Frees the field array (not the buffer). NULL is accepted. */
void ab_csv_free(ab_csv *c);

#endif
