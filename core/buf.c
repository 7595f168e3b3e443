/*
 * buf.c — the growable text buffer (see buf.h).
 */
#include "core/buf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkstemp makes the file 0600: give it what a plain create would (0666
 * less the umask). */
static int fchmod_path(const char *path) {
    mode_t mask = umask(0);
    umask(mask);
    return chmod(path, 0666 & ~mask);
}

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

/* Writes b to stdout. */
static ab_status write_stdout(const ab_buf *b, ab_error *err) {
    size_t wrote = b->n ? fwrite(b->s, 1, b->n, stdout) : 0;
    if (wrote != b->n || fflush(stdout) != 0 || ferror(stdout))
        return ab_fail(err, AB_EINPUT, "<stdout>: write failed: %s", strerror(errno));
    return AB_OK;
}

ab_status ab_buf_write_file(const ab_buf *b, const char *path, ab_error *err) {
    if (b->oom) return ab_fail(err, AB_ENOMEM, "out of memory rendering %s", path);
    if (strcmp(path, "-") == 0) return write_stdout(b, err);
    size_t len = strlen(path) + 16;
    char *tmp = ab_malloc(len);
    if (tmp == NULL) return ab_fail(err, AB_ENOMEM, "out of memory writing %s", path);
    snprintf(tmp, len, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        ab_free(tmp);
        return ab_fail(err, AB_EINPUT, "%s: cannot open for writing: %s", path, strerror(e));
    }
    FILE *f = fdopen(fd, "wb");
    size_t wrote = f && b->n ? fwrite(b->s, 1, b->n, f) : 0;
    int e = 0;
    bool bad = f == NULL || wrote != b->n || ferror(f);
    if (bad) e = errno;
    if ((f ? fclose(f) : close(fd)) != 0 && !bad) bad = true, e = errno;
    if (!bad && fchmod_path(tmp) != 0) bad = true, e = errno;
    if (!bad && rename(tmp, path) != 0) bad = true, e = errno;
    if (bad) {
        unlink(tmp); /* nothing half-written is left, and path is untouched */
        ab_free(tmp);
        return ab_fail(err, AB_EINPUT, "%s: write failed: %s", path,
                       e ? strerror(e) : "I/O error");
    }
    ab_free(tmp);
    return AB_OK;
}
