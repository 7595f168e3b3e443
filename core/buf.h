/*
 * buf.h — a growable text buffer for renderers (SVG, reports). Appending
 * never fails loudly: on an allocation failure the buffer remembers it
 * (oom = true) and ignores later appends; check oom once at the end.
 */
#ifndef AB_BUF_H
#define AB_BUF_H

#include "core/ab.h"

#include <stdarg.h>

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
/* The escapes by output, one each (DESIGN.md §5): every name, spec and
 * message a renderer writes goes through the one of its format.
 * HTML and XML (SVG): &, <, >, " and ' as entities; control characters (but
 * tab, LF, CR) and bytes that are not UTF-8 as &#xFFFD;. */
void ab_buf_xml(ab_buf *b, const char *s);
/* Markdown (a table cell or a heading): & and < as entities (no raw HTML
 * reaches a Markdown viewer; > alone opens nothing), \ ` * _ [ ] | ~ with a backslash (no code,
 * emphasis, link or column break), tab, CR and LF as a space, other control
 * characters and bytes that are not UTF-8 as \\xNN (shown as \xNN). */
void ab_buf_md(ab_buf *b, const char *s);
/* One CSV field (RFC 4180): quoted, with doubled quotes, when it holds , or
 * "; a field starting with =, +, -, @, tab or CR (a spreadsheet formula) is
 * quoted and starts with ' so it is text; control characters (tab, CR and LF
 * among them: a cell stays on its line) and bytes that are not UTF-8 as \xNN
 * (the JSON report keeps exact bytes). */
void ab_buf_csv(ab_buf *b, const char *s);
/* A terminal: control characters (C0 with tab and LF, DEL, C1) and bytes
 * that are not UTF-8 as \xNN, so no escape sequence reaches the terminal. */
void ab_buf_term(ab_buf *b, const char *s);
/* s through ab_buf_term, for printf's %s: s itself when it is printable
 * ASCII, else a copy in one of 8 static slots reused in turn (so up to 8 in
 * one printf). Not thread-safe. */
const char *ab_term(const char *s);
/* Formats fmt with ap into line (cap bytes; cut when longer, as vsnprintf
 * cuts) and turns every line break (LF, CR) into a space: one line of text,
 * for the line-per-problem output of check-db. */
void ab_vline(char *line, size_t cap, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 when the
 * bytes are not one (overlong forms, surrogates and code points past
 * U+10FFFF are not). */
size_t ab_utf8_len(const char *s, size_t n);
/* true when the n bytes at s are UTF-8; else false with *bad (may be NULL)
 * the offset of the first byte that is not. */
bool ab_utf8_valid(const char *s, size_t n, size_t *bad);
/* Frees the text; b is empty afterwards. NULL is accepted. */
void ab_buf_free(ab_buf *b);
/* Writes the buffer to path ("-" = stdout): to a temporary beside it, then
 * renamed into place, so path holds the old file or the whole new one, never
 * a part (DESIGN.md §5). AB_ENOMEM when b->oom, AB_EINPUT naming the path
 * when it cannot be written (the temporary is removed). The one file writer:
 * suites, plans, reports and exports all go through it. */
ab_status ab_buf_write_file(const ab_buf *b, const char *path, ab_error *err);
/* For a library that writes by name (GLPK's LP writer): write(ctx, tmp, err)
 * writes the file named tmp, a new temporary beside path, which is then
 * synced and renamed over path as in ab_buf_write_file. When write fails, the
 * temporary is removed and its status returned (path untouched). */
typedef ab_status (*ab_file_writer)(void *ctx, const char *tmp, ab_error *err);
ab_status ab_file_write_via(const char *path, ab_file_writer write, void *ctx, ab_error *err);

#endif
