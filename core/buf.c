/*
 * buf.c — the growable text buffer (see buf.h).
 */
#include "core/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ab_buf_append(ab_buf *b, const char *s, size_t len) {
    if (b->oom) return;
    if (!ab_grow((void **)&b->s, &b->cap, b->n + len + 1, 1)) {
        b->oom = true;
        return;
    }
    memcpy(b->s + b->n, s, len);
    b->n += len;
    b->s[b->n] = '\0';
}

void ab_buf_printf(ab_buf *b, const char *fmt, ...) {
    if (b->oom) return;
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len < 0) return;
    if ((size_t)len < sizeof small) {
        ab_buf_append(b, small, (size_t)len);
        return;
    }
    if (!ab_grow((void **)&b->s, &b->cap, b->n + (size_t)len + 1, 1)) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)len + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)len;
}

void ab_buf_xml(ab_buf *b, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '&': ab_buf_append(b, "&amp;", 5); break;
        case '<': ab_buf_append(b, "&lt;", 4); break;
        case '>': ab_buf_append(b, "&gt;", 4); break;
        case '"': ab_buf_append(b, "&quot;", 6); break;
        case '\'': ab_buf_append(b, "&#39;", 5); break;
        default: ab_buf_append(b, s, 1);
        }
    }
}

void ab_buf_free(ab_buf *b) {
    if (b == NULL) return;
    ab_free(b->s);
    memset(b, 0, sizeof *b);
}

ab_status ab_buf_write_file(const ab_buf *b, const char *path, ab_error *err) {
    if (b->oom) return ab_fail(err, AB_ENOMEM, "out of memory rendering %s", path);
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (f == NULL) return ab_fail(err, AB_EINPUT, "%s: cannot write: %s", path, strerror(errno));
    size_t wrote = b->n ? fwrite(b->s, 1, b->n, f) : 0;
    int bad = wrote != b->n || ferror(f);
    int closed = to_stdout ? fflush(f) : fclose(f);
    if (bad || closed != 0)
        return ab_fail(err, AB_EINPUT, "%s: write failed: %s", path, strerror(errno));
    return AB_OK;
}
