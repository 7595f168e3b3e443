/*
 * buf.c — the growable text buffer (see buf.h).
 */
#include "core/buf.h"

#include <errno.h>
#include <fcntl.h>
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

size_t ab_utf8_len(const char *p, size_t n) {
    const unsigned char *s = (const unsigned char *)p;
    if (n == 0) return 0;
    unsigned char c = s[0];
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) len = 3;
    else if (c >= 0xF0 && c <= 0xF4) len = 4;
    else return 0;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
    if (len > n || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if (s[k] < 0x80 || s[k] > 0xBF) return 0;
    return len;
}

bool ab_utf8_valid(const char *s, size_t n, size_t *bad) {
    for (size_t i = 0; i < n;) {
        size_t len = ab_utf8_len(s + i, n - i);
        if (len == 0) {
            if (bad) *bad = i;
            return false;
        }
        i += len;
    }
    return true;
}

/* What the escapes do with one character of s: the length of the valid UTF-8
 * sequence at s (0: a byte that is not UTF-8), and whether it is a control
 * character (C0, DEL, or C1 U+0080..U+009F). */
static size_t next_char(const char *s, bool *control) {
    size_t len = ab_utf8_len(s, strnlen(s, 4));
    unsigned char c = (unsigned char)s[0], d = (unsigned char)s[1];
    *control = (len == 1 && (c < 0x20 || c == 0x7F)) || (len == 2 && c == 0xC2 && d < 0xA0);
    return len;
}

/* Appends "\xNN" for each byte of the len bytes at s (at least one). */
static void hex_bytes(ab_buf *b, const char *s, size_t len, const char *lead) {
    for (size_t k = 0; k < (len ? len : 1); k++)
        ab_buf_printf(b, "%sx%02X", lead, (unsigned)(unsigned char)s[k]);
}

void ab_buf_xml(ab_buf *b, const char *s) {
    while (*s) {
        bool ctl;
        size_t len = next_char(s, &ctl);
        if (len == 0 || (ctl && *s != '\t' && *s != '\n' && *s != '\r')) {
            ab_buf_append(b, "&#xFFFD;", 8); /* XML 1.0 has no such character */
            s += len ? len : 1;
            continue;
        }
        switch (*s) {
        case '&': ab_buf_append(b, "&amp;", 5); break;
        case '<': ab_buf_append(b, "&lt;", 4); break;
        case '>': ab_buf_append(b, "&gt;", 4); break;
        case '"': ab_buf_append(b, "&quot;", 6); break;
        case '\'': ab_buf_append(b, "&#39;", 5); break;
        default: ab_buf_append(b, s, len);
        }
        s += len;
    }
}

void ab_buf_md(ab_buf *b, const char *s) {
    while (*s) {
        bool ctl;
        size_t len = next_char(s, &ctl);
        if (len == 1 && (*s == '\n' || *s == '\r' || *s == '\t')) {
            ab_buf_append(b, " ", 1);
        } else if (len == 0 || ctl) {
            hex_bytes(b, s, len, "\\\\"); /* shown as \x1B */
        } else if (*s == '&') {
            ab_buf_append(b, "&amp;", 5);
        } else if (*s == '<') {
            ab_buf_append(b, "&lt;", 4);
        } else if (len == 1 && strchr("\\`*_[]|~", *s) != NULL) {
            ab_buf_append(b, "\\", 1);
            ab_buf_append(b, s, 1);
        } else {
            ab_buf_append(b, s, len);
        }
        s += len ? len : 1;
    }
}

void ab_buf_csv(ab_buf *b, const char *s) {
    bool formula = strchr("=+-@\t\r", *s) != NULL && *s != '\0';
    bool quote = formula || strpbrk(s, ",\"") != NULL;
    if (quote) ab_buf_append(b, "\"", 1);
    if (formula) ab_buf_append(b, "'", 1); /* a spreadsheet shows it as text */
    while (*s) {
        bool ctl;
        size_t len = next_char(s, &ctl);
        if (len == 0 || ctl) hex_bytes(b, s, len, "\\"); /* no escape sequence either */
        else if (*s == '"') ab_buf_append(b, "\"\"", 2);
        else ab_buf_append(b, s, len);
        s += len ? len : 1;
    }
    if (quote) ab_buf_append(b, "\"", 1);
}

void ab_buf_term(ab_buf *b, const char *s) {
    while (*s) {
        bool ctl;
        size_t len = next_char(s, &ctl);
        if (len == 0 || ctl) hex_bytes(b, s, len, "\\");
        else ab_buf_append(b, s, len);
        s += len ? len : 1;
    }
}

enum { TERM_SLOTS = 8 };

const char *ab_term(const char *s) {
    static ab_buf slot[TERM_SLOTS];
    static size_t next;
    if (s == NULL) return "(null)";
    const char *p = s;
    for (; *p; p++)
        if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7F) break;
    if (*p == '\0') return s; /* plain ASCII: as it is */
    ab_buf *b = &slot[next++ % TERM_SLOTS];
    b->n = 0;
    b->oom = false;
    ab_buf_term(b, s);
    return b->oom || b->s == NULL ? "(name not shown: out of memory)" : b->s;
}

void ab_vline(char *line, size_t cap, const char *fmt, va_list ap) {
    vsnprintf(line, cap, fmt, ap);
    for (char *p = line; cap > 0 && *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
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

/* Writes the n bytes at s to fd, all of them; false with errno set. */
static bool write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            return false;
        }
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* fsync of the folder holding path, so the rename itself is on disk. A
 * folder that cannot be opened or synced (some file systems refuse) is not
 * an error: the file's own data is already synced. */
static void sync_folder(const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash == NULL ? ab_strdup(".") : ab_strndup(path, slash == path ? 1 : (size_t)(slash - path));
    if (dir == NULL) return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    ab_free(dir);
}

/* Fails for path with errno e, after removing the temporary tmp (freed). */
static ab_status temp_failed(char *tmp, const char *path, int e, ab_error *err) {
    unlink(tmp); /* nothing half-written is left, and path is untouched */
    ab_free(tmp);
    return ab_fail(err, AB_EINPUT, "%s: write failed: %s (the file, if any, is left as it was)",
                   path, e ? strerror(e) : "I/O error");
}

/* A new empty temporary beside path: *tmp its name (ab_free), *fd open on it. */
static ab_status make_temp(const char *path, char **tmp, int *fd, ab_error *err) {
    size_t len = strlen(path) + 16;
    *tmp = ab_malloc(len);
    if (*tmp == NULL) return ab_fail(err, AB_ENOMEM, "out of memory writing %s", path);
    snprintf(*tmp, len, "%s.tmp-XXXXXX", path);
    *fd = mkstemp(*tmp);
    if (*fd < 0) {
        int e = errno;
        ab_free(*tmp);
        *tmp = NULL;
        return ab_fail(err, AB_EINPUT, "%s: cannot open for writing: %s", path, strerror(e));
    }
    return AB_OK;
}

/* fd (open on tmp, written) synced and closed, tmp renamed over path and the
 * folder synced; on failure tmp is removed and path untouched. Frees tmp. */
static ab_status commit(int fd, char *tmp, const char *path, ab_error *err) {
    int e = 0;
    bool bad = fsync(fd) != 0;
    if (bad) e = errno;
    if (close(fd) != 0 && !bad) bad = true, e = errno;
    if (!bad && fchmod_path(tmp) != 0) bad = true, e = errno;
    if (!bad && rename(tmp, path) != 0) bad = true, e = errno;
    if (bad) return temp_failed(tmp, path, e, err);
    sync_folder(path);
    ab_free(tmp);
    return AB_OK;
}

/* True when path names something that is not a regular file and is not to
 * be replaced (a device such as /dev/null or /dev/stdout, a pipe, a socket):
 * it is written in place. A folder is an error (*err set, AB_EINPUT). */
static bool not_a_file(const char *path, ab_status *st, ab_error *err) {
    struct stat sb;
    *st = AB_OK;
    if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode)) return false;
    if (S_ISDIR(sb.st_mode))
        *st = ab_fail(err, AB_EINPUT, "%s: is a folder, not a file to write", path);
    return true;
}

/* Writes the n bytes at s into the existing non-regular file path. */
static ab_status write_in_place(const char *path, const char *s, size_t n, ab_error *err) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return ab_fail(err, AB_EINPUT, "%s: cannot open for writing: %s", path, strerror(errno));
    bool ok = write_all(fd, s, n);
    int e = errno;
    if (close(fd) != 0 && ok) ok = false, e = errno;
    if (!ok) return ab_fail(err, AB_EINPUT, "%s: write failed: %s", path, strerror(e));
    return AB_OK;
}

ab_status ab_buf_write_file(const ab_buf *b, const char *path, ab_error *err) {
    if (b->oom) return ab_fail(err, AB_ENOMEM, "out of memory rendering %s", path);
    if (strcmp(path, "-") == 0) return write_stdout(b, err);
    ab_status special;
    if (not_a_file(path, &special, err))
        return special != AB_OK ? special : write_in_place(path, b->s, b->n, err);
    char *tmp = NULL;
    int fd = -1;
    ab_status st = make_temp(path, &tmp, &fd, err);
    if (st != AB_OK) return st;
    /* the temporary beside path, written whole and synced, then renamed over
     * path: a reader sees the old file or the new one, never a part */
    if (!write_all(fd, b->s, b->n)) {
        int e = errno;
        close(fd);
        return temp_failed(tmp, path, e, err);
    }
    return commit(fd, tmp, path, err);
}

ab_status ab_file_write_via(const char *path, ab_file_writer write, void *ctx, ab_error *err) {
    ab_status special;
    if (not_a_file(path, &special, err)) return special != AB_OK ? special : write(ctx, path, err);
    char *tmp = NULL;
    int fd = -1;
    ab_status st = make_temp(path, &tmp, &fd, err);
    if (st != AB_OK) return st;
    st = write(ctx, tmp, err);
    if (st != AB_OK) {
        close(fd);
        unlink(tmp);
        ab_free(tmp);
        return st;
    }
    return commit(fd, tmp, path, err); /* fd is on the same file: fsync syncs it */
}
