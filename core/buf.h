/*
 * buf.h — a growable text buffer for renderers (SVG, reports). Appending
 * never fails loudly: on an allocation failure the buffer remembers it
 * (oom = true) and ignores later appends; check oom once at the end.
 */
#ifndef AB_BUF_H
#define AB_BUF_H

#include "core/ab.h"

typedef struct ab_buf {
    char *s;      /* NUL-terminated text, owned; NULL while empty */
    size_t n;     /* length, without the NUL */
    size_t cap;
    bool oom;     /* an append failed */
} ab_buf;

/* Appends printf-style text. */
void ab_buf_printf(ab_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends len bytes of s. */
void ab_buf_append(ab_buf *b, const char *s, size_t len);
/* Appends s with &, <, >, " and ' escaped for XML and HTML. */
void ab_buf_xml(ab_buf *b, const char *s);
/* Frees the text; b is empty afterwards. NULL is accepted. */
void ab_buf_free(ab_buf *b);
/* Writes the buffer to path ("-" = stdout): to a temporary beside it, then
 * renamed into place, so path holds the old file or the whole new one, never
 * a part (DESIGN.md §5). AB_ENOMEM when b->oom, AB_EINPUT naming the path
 * when it cannot be written (the temporary is removed). The one file writer:
 * suites, plans, reports and exports all go through it. */
ab_status ab_buf_write_file(const ab_buf *b, const char *path, ab_error *err);

#endif
